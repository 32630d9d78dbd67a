-- PDF tests on XeTeX (arXiv route: xelatex -> xdvipdfmx).
testfiledir  = "testfiles-pdf"
checkengines = {"xetex"}
stdengine    = "xetex"
checkruns    = 1
-- All routes share testfiles-pdf/; each keeps its own references
-- (NAME.xetex.tpf).  Set here because build.lua's sanity check only knows
-- pdftex, so "save -e xetex" cannot be used.
test_types.pdf.reference = pith_reference(".xetex.tpf")
