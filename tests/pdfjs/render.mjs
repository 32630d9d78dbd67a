// Page 1 of a PDF as Firefox shows or prints it, with pdf.js (pdfjs-dist) and
// @napi-rs/canvas: the tests' third oracle beside PDFium and poppler (never pith-tex's).
//
//   node render.mjs PDF OUT.pgm display|print DPI
//
// writes OUT.pgm (8-bit grey, as pdftoppm -gray) and prints one JSON object: the page's
// size in points, the scale, pdf.js's text items (its own text layer: glyphs as drawn, no
// /ActualText) and the form fields it found.
//
// display: the canvas as Firefox paints it (annotationMode ENABLE_FORMS), then the form
//   layer Firefox lays over it as HTML, drawn here from pdf.js's own reading of each text
//   field (its rectangle, /MK background colour, value and /DA font size): Firefox's
//   <input> elements, which no canvas rendering shows.
// print: Firefox's print (intent "print", annotationMode ENABLE_STORAGE): print-only
//   annotations and layers whose /Usage /Print state is on are drawn.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { getDocument, AnnotationMode } from "pdfjs-dist/legacy/build/pdf.mjs";

const require = createRequire(import.meta.url);
const root = path.dirname(require.resolve("pdfjs-dist/package.json"));

const [file, out, intent = "display", dpiArg = "150"] = process.argv.slice(2);
if (!file || !out || !["display", "print"].includes(intent)) {
  process.stderr.write("usage: node render.mjs PDF OUT.pgm display|print DPI\n");
  process.exit(2);
}
const scale = Number(dpiArg) / 72;

const doc = await getDocument({
  data: new Uint8Array(readFileSync(file)),
  standardFontDataUrl: path.join(root, "standard_fonts") + "/",
  cMapUrl: path.join(root, "cmaps") + "/",
  cMapPacked: true,
  wasmUrl: path.join(root, "wasm") + "/",
  verbosity: 0,
}).promise;
const page = await doc.getPage(1);
const viewport = page.getViewport({ scale });
const { canvas, context } = doc.canvasFactory.create(
  Math.ceil(viewport.width), Math.ceil(viewport.height));
context.fillStyle = "#ffffff";
context.fillRect(0, 0, canvas.width, canvas.height);

const annotationMode = intent === "print" ? AnnotationMode.ENABLE_STORAGE
  : AnnotationMode.ENABLE_FORMS;
await page.render({ canvasContext: context, canvas, viewport, intent, annotationMode }).promise;

const annotations = await page.getAnnotations({ intent });
const fields = [];
for (const a of annotations) {
  if (a.subtype !== "Widget") continue;
  const [x0, y0, x1, y1] = viewport.convertToViewportRectangle(a.rect);
  const box = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
  fields.push({ fieldType: a.fieldType, value: a.fieldValue ?? null, hidden: !!a.hidden,
                noHTML: !!a.noHTML, backgroundColor: a.backgroundColor ? Array.from(a.backgroundColor) : null,
                rect: box.map((v) => v / scale) });
  // Firefox's form layer: an <input> over the field, its background and its value
  if (intent !== "display" || a.hidden || a.noHTML || a.fieldType !== "Tx") continue;
  if (a.backgroundColor) {
    const [r, g, b] = a.backgroundColor;
    context.fillStyle = `rgb(${r}, ${g}, ${b})`;
    context.fillRect(box[0], box[1], box[2] - box[0], box[3] - box[1]);
  }
  const value = typeof a.fieldValue === "string" ? a.fieldValue : "";
  if (value) {
    const size = (a.defaultAppearanceData?.fontSize || 9) * scale;
    context.fillStyle = "#000000";
    context.font = `${size}px sans-serif`;
    context.textBaseline = "middle";
    context.fillText(value, box[0] + 2 * scale, (box[1] + box[3]) / 2);
  }
}

const rgba = context.getImageData(0, 0, canvas.width, canvas.height).data;
const grey = Buffer.alloc(canvas.width * canvas.height);
for (let i = 0, j = 0; j < grey.length; i += 4, j += 1) {
  grey[j] = Math.round(0.299 * rgba[i] + 0.587 * rgba[i + 1] + 0.114 * rgba[i + 2]);
}
writeFileSync(out, Buffer.concat([
  Buffer.from(`P5\n${canvas.width} ${canvas.height}\n255\n`, "ascii"), grey]));

const text = await page.getTextContent();
const items = text.items.filter((t) => t.str !== undefined).map((t) => {
  const [, , , d, e, f] = t.transform;
  // the item's box in points from the top-left corner (y down), as poppler's
  const h = Math.abs(d) || t.height;
  return { str: t.str, box: [e, viewport.viewBox[3] - f - h, e + t.width,
                             viewport.viewBox[3] - f] };
});
const [vx0, vy0, vx1, vy1] = page.view;
process.stdout.write(JSON.stringify({
  version: (await import("pdfjs-dist/package.json", { with: { type: "json" } })).default.version,
  width: vx1 - vx0, height: vy1 - vy0, dpi: Number(dpiArg), intent,
  pixels: [canvas.width, canvas.height], text: items, fields,
}) + "\n");
await doc.destroy();
