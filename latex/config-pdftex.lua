-- PDF tests on pdfTeX (arXiv's default route: pdflatex).
testfiledir  = "testfiles-pdf"
checkengines = {"pdftex"}
stdengine    = "pdftex"
checkruns    = 1
-- All routes share testfiles-pdf/; each keeps its own references
-- (NAME.pdftex.tpf).  Set here because build.lua's sanity check only knows
-- pdftex, so "save -e pdftex" cannot be used.
test_types.pdf.reference = pith_reference(".pdftex.tpf")
