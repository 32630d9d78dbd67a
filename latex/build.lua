-- l3build configuration for pith.sty.
--
-- build.lua itself runs the log tests (testfiles/*.lvt): every error and
-- warning a user can provoke, on pdfTeX (the messages do not depend on the
-- engine).  The PDF tests (testfiles-pdf/*.pvt: the link annotation and the
-- Info keys) run once per arXiv route, one config each.
module = "pith"

-- pith.sty is generated from the literate source pith.dtx by docstrip (pith.ins):
-- the TeX part and, after \file_input_stop:, the part only LaTeXML reads; and
-- pith.sty.ltxml, LaTeXML's binding (Perl).
sourcefiles  = {"pith.dtx", "pith.ins"}
unpackfiles  = {"pith.ins"}
installfiles = {"pith.sty", "pith.sty.ltxml"}

checkengines = {"pdftex"}
stdengine    = "pdftex"
checkruns    = 1

-- The documentation: pith.dtx typesets the user manual and the implementation.
-- Its pictures are real output: the demo pages docs/badge-*.tex and page-*.tex
-- (each sets only public options) are compiled first, with the unpacked
-- pith.sty, from the typesetting directory (their include=docs/... paths are
-- relative to it), into docs/; their PDFs are copied back beside their sources
-- for the CTAN zip.  The manual is rerun until its contents settle.
typesetfiles = {"pith.dtx"}
typesetruns  = 3
local demoflags = "-no-shell-escape -interaction=nonstopmode -halt-on-error"
function typeset_demo_tasks()
  mkdir(typesetdir .. "/docs")
  cp("*.tex", docfiledir .. "/docs", typesetdir .. "/docs")
  for _, glob in ipairs({"badge-*.tex", "page-*.tex"}) do
    for _, p in ipairs(tree(typesetdir .. "/docs", glob)) do
      local errorlevel = runcmd("pdflatex " .. demoflags .. " -output-directory=docs docs/"
        .. p.src .. " > " .. os_null, typesetdir, {"TEXINPUTS"})
      if errorlevel ~= 0 then
        print(" ! Demo page docs/" .. p.src .. " failed")
        return errorlevel
      end
      local pdf = jobname(p.src) .. ".pdf"
      rm(docfiledir .. "/docs", pdf)
      cp(pdf, typesetdir .. "/docs", docfiledir .. "/docs")
    end
  end
  return 0
end

-- The CTAN zip (l3build ctan: latex/pith.zip): pith.dtx, pith.ins, the
-- manual pith.pdf, its pictures under docs/ (source and
-- PDF, so that the unpacked zip rebuilds the manual), the CTAN README with the
-- version filled in, and the licence.  l3build checks the suite first.
ctanzip      = "pith"
textfiles    = {}
local function read_all(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*all")
  f:close()
  return text
end
local function write_all(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
end
-- DATE and VERSION of \ProvidesExplPackage in pith.dtx: the one version.
local function provides()
  return string.match(read_all(sourcefiledir .. "/pith.dtx"),
    "\\ProvidesExplPackage{pith}{([^}]*)}{([^}]*)}")
end
local std_copyctan = copyctan
function copyctan()
  std_copyctan()
  local pkgdir = ctandir .. "/" .. ctanpkg
  mkdir(pkgdir .. "/docs")
  cp("*.tex", docfiledir .. "/docs", pkgdir .. "/docs")
  cp("*.pdf", typesetdir .. "/docs", pkgdir .. "/docs")
  local date, version = provides()
  local readme = read_all(docfiledir .. "/README-CTAN.md")
  readme = readme:gsub("VERSION", version):gsub("DATE", date)
  write_all(pkgdir .. "/README.md", readme)
  write_all(pkgdir .. "/LICENSE", read_all(docfiledir .. "/../LICENSE.LPPL"))
end

-- l3build tag VERSION [--date YYYY-MM-DD]: the one version of pith.sty and
-- pith-tex (docs/development.md, "Versions, licences, CTAN").  pith.dtx's
-- \ProvidesExplPackage line here; pith_tex.__version__ (which the wheel's
-- metadata reads) and the log tests that name the version in tag_hook.
-- tests/python/test_py_version.py fails if they ever differ.
function update_tag(file, content, tagname, tagdate)
  if file ~= "pith.dtx" then
    return content
  end
  assert(tagname and tagname:match("^%d+%.%d+%.%d+$"), "usage: l3build tag X.Y.Z")
  return (content:gsub("(\\ProvidesExplPackage{pith}){[^}]*}{[^}]*}",
    "%1{" .. tagdate .. "}{" .. tagname .. "}"))
end
function tag_hook(tagname, tagdate)
  local init = sourcefiledir .. "/../pyhelper/pith_tex/__init__.py"
  write_all(init, (read_all(init):gsub('\n__version__ = "[^"]*"',
    '\n__version__ = "' .. tagname .. '"')))
  -- The log test of an include newer than pith.sty names pith.sty's version.
  for _, tlg in ipairs({"include-newer.tlg", "include-newer.tl2026.tlg"}) do
    local path = testfiledir .. "/" .. tlg
    write_all(path, (read_all(path):gsub("(newer than this pith%.sty )%d+%.%d+%.%d+ ",
      "%1" .. tagname .. " ")))
  end
  return 0
end
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
-- is PITH_TEXLIVE when set (the Python driver, tests/latex/test_latex_l3build.py,
-- sets it), else the year pdftex --version names, so that a bare `l3build check`
-- (and the check `l3build ctan` runs first) compares with the right references.
-- `PITH_TEXLIVE=2026 l3build save -c CONFIG NAME` saves a 2026 reference.
local function pith_texlive_release()
  local pipe = io.popen("pdftex --version")
  local out = pipe and pipe:read("*a") or ""
  if pipe then pipe:close() end
  return out:match("TeX Live (%d%d%d%d)") or "2022"
end
pith_texlive = os.getenv("PITH_TEXLIVE") or pith_texlive_release()
function pith_reference(ext)
  if pith_texlive == "2022" then
    return ext
  end
  return ext:gsub("(%.%w+)$", ".tl" .. pith_texlive .. "%1")
end
tlgext = pith_reference(".tlg")

-- Keep every l3build output under latex/build/ (git-ignored).
builddir = "build"
