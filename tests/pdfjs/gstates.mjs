// The graphics states pdf.js (Firefox's engine) sets while it draws page 1 of a PDF: the
// tests' look at what Firefox applies where its canvas under node cannot show it (a
// transfer function is drawn through an SVG filter, which Firefox has and node does not).
//
//   node gstates.mjs PDF
//
// prints one JSON object: {"gstates": [[key, value], ...]} for each setGState in page 1's
// operator list, a transfer function (TR) as the range of each of its 256-entry maps
// ([least, most], null for the identity).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve("pdfjs-dist/package.json"));
const [file] = process.argv.slice(2);
const doc = await getDocument({
  data: new Uint8Array(readFileSync(file)),
  standardFontDataUrl: path.join(root, "standard_fonts") + "/",
  wasmUrl: path.join(root, "wasm") + "/",
  verbosity: 0,
}).promise;
const page = await doc.getPage(1);
const list = await page.getOperatorList();
const gstates = [];
list.fnArray.forEach((fn, i) => {
  if (fn !== OPS.setGState) return;
  for (const [key, value] of list.argsArray[i][0]) {
    if (key === "TR") {
      gstates.push([key, value === null ? null : value.map((m) => (m === null ? null
        : [Math.min(...m), Math.max(...m)]))]);
    } else if (typeof value !== "object") {
      gstates.push([key, value]);
    }
  }
});
process.stdout.write(JSON.stringify({ gstates }) + "\n");
await doc.destroy();
