-- PDF tests on arXiv's DVI route: latex -> dvips -R2 -q -z -> ps2pdf.
testfiledir  = "testfiles-pdf"
stdengine    = "dvips"
checkruns    = 1
-- All routes share testfiles-pdf/; each keeps its own references
-- (NAME.dvips.tpf).  Set here because build.lua's sanity check only knows
-- pdftex, so "save -e dvips" cannot be used.
test_types.pdf.reference = pith_reference(".dvips.tpf")
-- An engine named after the route: DVI-mode LaTeX (the "latex" binary and
-- format), so references are saved as NAME.dvips.tpf.
specialformats = specialformats or {}
specialformats.latex = specialformats.latex or {}
specialformats.latex.dvips = {binary = "latex", format = ""}
checkengines = {"dvips"}

-- l3build's own dvitopdf runs plain `dvips`; arXiv runs `dvips -R2 -q -z`
-- (-z: keep the hyperlink pdfmarks, -R2: restricted specials).  The
-- Info keys and the link must survive exactly that.
function dvitopdf(name, dir, engine, hide)
  run(
    dir,
    set_epoch_cmd(epoch, forcecheckepoch) ..
    "dvips -R2 -q -z " .. name .. dviext .. " -o " .. name .. psext
      .. (hide and (" > " .. os_null) or "")
      .. os_concat ..
    -- (ps2pdfopt until l3build 2023, ps2pdfopts since; a space between)
    "ps2pdf " .. (ps2pdfopts or ps2pdfopt or "") .. " " .. name .. psext
      .. (hide and (" > " .. os_null) or "")
  )
end
