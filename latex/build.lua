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

-- Keep every l3build output under latex/build/ (git-ignored).
builddir = "build"
