-- l3build configuration for pith.sty.
--
-- build.lua itself runs the log tests (testfiles/*.lvt): every error and
-- warning a user can provoke, on pdfTeX (the messages do not depend on the
-- engine).  The PDF tests (testfiles-pdf/*.pvt: the link annotation and the
-- Info keys) run once per arXiv route, one config each.
module = "pith"

sourcefiles  = {"pith.sty", "pith.sty.ltxml"}
installfiles = {"pith.sty", "pith.sty.ltxml"}

checkengines = {"pdftex"}
stdengine    = "pdftex"
checkruns    = 1
-- Inputs TeX cannot write itself (a raw non-ASCII byte: l3build's TeX writes
-- ^^e9), copied next to each test.
testsuppdir  = "testfiles/support"
-- One test's include must never leak into another: every test writes its
-- own with filecontents, and the automatic read is switched off unless the
-- test is about it.
checkconfigs = {"build", "config-pdftex", "config-xetex", "config-luatex",
                "config-dvips"}

-- References per TeX Live release.  The logs and PDF bytes change between
-- releases for reasons that are not pith's (the kernel's message wrapping,
-- the PDF version, object and font numbering, Ghostscript's producer), so
-- each release has its own: NAME.tlg (and NAME.ROUTE.tpf) for TeX Live 2022,
-- NAME.tl2026.tlg (NAME.ROUTE.tl2026.tpf) for TeX Live 2026.  The release
-- is chosen by PITH_TEXLIVE (the Python driver, tests/latex/test_latex_l3build.py,
-- sets it from pdftex --version); without it, 2022.
-- `PITH_TEXLIVE=2026 l3build save -c CONFIG NAME` saves a 2026 reference.
pith_texlive = os.getenv("PITH_TEXLIVE") or "2022"
function pith_reference(ext)
  if pith_texlive == "2022" then
    return ext
  end
  return ext:gsub("(%.%w+)$", ".tl" .. pith_texlive .. "%1")
end
tlgext = pith_reference(".tlg")

-- Keep every l3build output under latex/build/ (git-ignored).
builddir = "build"
