-- PDF tests on LuaTeX (not an arXiv route, but supported).
testfiledir  = "testfiles-pdf"
checkengines = {"luatex"}
stdengine    = "luatex"
checkruns    = 1
-- All routes share testfiles-pdf/; each keeps its own references
-- (NAME.luatex.tpf).  Set here because build.lua's sanity check only knows
-- pdftex, so "save -e luatex" cannot be used.
test_types.pdf.reference = pith_reference(".luatex.tpf")
