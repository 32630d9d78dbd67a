"""One line of printed text read from its pixels: the badge's characters as a reader sees
them, whatever the text layer says (a ToUnicode or /Differences map, a Type 3 font whose
glyphs draw other letters, an /ActualText span, an outline under a stencil image).

The reader is PaddleOCR's PP-OCRv4 line recogniser as the ``rapidocr_onnxruntime`` wheel
ships it (``models/ch_PP-OCRv4_rec_infer.onnx``, run by ONNX Runtime): the model is in the
wheel, so nothing is downloaded and nothing needs root.  It was chosen over Tesseract 5
by measurement on pith.sty's own badges (docs/design-decisions.md, "The badge read from
pixels").  Only the recogniser runs (a line is given, nothing is detected); its output
is restricted to :data:`ALLOWED` (the other classes of its alphabet, Chinese among them,
are never chosen) and decoded greedily (CTC).

Where a match is read (:func:`ocr_regions`: its glyphs' boxes, line by line, turned
upright) is decided here too.  This module only reads: what the line must say is decided
in :mod:`pith_tex.pdf.visible`.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

Box = Tuple[float, float, float, float]  # x0, y0 (top), x1, y1 (bottom), in points

#: What the badge can show: ``pith:YYYY:`` and a base32 number, in either case (a reader
#: reads base32 either way); digits 0, 1, 8, 9 too, so that a look-alike is seen as what
#: it is and folded (or not) by the caller.
ALLOWED = "0123456789:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: The model's input height (pixels) and the horizontal stretch given to a line before it
#: is scaled to it: the badge's monospaced letters, unstretched, are narrow enough at 48
#: pixels that the recogniser merges doubled letters ("XVYY" read "XYY"); 1.3 to 1.7 read
#: every badge of the measurement, 1.5 is its middle.
HEIGHT = 48
STRETCH = 1.5
#: The stretches a line is read at, in turn, until it reads as the text layer says (a
#: proportional font set tight reads better unstretched: Helvetica's W as VV at 1.5).
STRETCHES = (STRETCH, 1.0, 2.0)
PAD = 8  # white pixels around the line (the model reads glyphs touching the edge badly)
MODEL = ("models", "ch_PP-OCRv4_rec_infer.onnx")
INSTALL = "pip install 'rapidocr_onnxruntime>=1.4.4'"


class OcrMissing(Exception):
    """No OCR here, or it could not run: the message says what to install, or why."""


def model_path() -> str:
    """The recogniser's model file in the installed ``rapidocr_onnxruntime`` (found
    without importing the package, which would import OpenCV for nothing)."""
    try:
        spec = importlib.util.find_spec("rapidocr_onnxruntime")
    except (ImportError, ValueError):  # a package blocked or half installed
        spec = None
    where = list(spec.submodule_search_locations or []) if spec is not None else []
    for folder in where:
        path = os.path.join(folder, *MODEL)
        if os.path.isfile(path):
            return path
    raise OcrMissing("the OCR model is not installed (rapidocr_onnxruntime): %s" % INSTALL)


class _Model:
    def __init__(self) -> None:
        path = model_path()
        # ONNX Runtime's telemetry writes a session file in TMPDIR and a device id under
        # ~/.cache as it loads, unless told not to: verify writes nothing of its own
        # outside its output, and sends nothing anywhere
        os.environ["ORT_DISABLE_TELEMETRY"] = "1"
        try:
            import numpy
            import onnxruntime
        except ImportError as e:
            raise OcrMissing("OCR cannot run: %s (%s)" % (e, INSTALL)) from None
        options = onnxruntime.SessionOptions()
        # one thread: verify's CPU is bounded, and a line is small
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.np = numpy
        try:
            self.session = onnxruntime.InferenceSession(path, sess_options=options,
                                                        providers=["CPUExecutionProvider"])
        except Exception as e:  # noqa: BLE001 -- ONNX Runtime's own errors, a damaged model, no memory
            raise OcrMissing("the OCR model could not be loaded (%s: %s)"
                             % (type(e).__name__, str(e)[:120])) from None
        meta = self.session.get_modelmeta().custom_metadata_map
        # CTC classes: blank, the model's alphabet, a space (as PaddleOCR numbers them)
        self.classes: List[str] = ["", *meta["character"].splitlines(), " "]
        mask = numpy.full(len(self.classes), -numpy.inf, dtype=numpy.float32)
        mask[0] = 0.0
        for i, ch in enumerate(self.classes):
            if ch and ch in ALLOWED:
                mask[i] = 0.0
        self.mask = mask
        self.input = self.session.get_inputs()[0].name


_MODEL: List[_Model] = []


def _model() -> _Model:
    if not _MODEL:
        _MODEL.append(_Model())
    return _MODEL[0]


def missing() -> Optional[str]:
    """Why no OCR can run here (None: it can); loads the model once."""
    try:
        _model()
    except OcrMissing as e:
        return str(e)
    return None


def _turned(np: Any, image: Any, turn: int) -> Any:
    """*image* turned *turn* degrees clockwise."""
    return np.rot90(image, k=-(turn // 90) % 4)


def agrees(read: str, text: str) -> bool:
    """Whether OCR's *read* is *text* as a reader of base32 takes it: white space
    dropped, either case, 0, 1, 8 as O, I, B (the caller decides what a reading proves;
    this only tells when another stretch is worth a try)."""
    def norm(t: str) -> str:
        return "".join(t.split()).upper().translate(_FOLD)

    return norm(read) == norm(text)


_FOLD = str.maketrans("018", "OIB")


def read_line(width: int, height: int, pixels: bytes, turn: int = 0,
              stretch: float = STRETCH) -> str:
    """The text of the one line of 8-bit grey *pixels* (rows of *width*, 255 white),
    after turning it *turn* degrees clockwise (0, 90, 180, 270) to set it upright and
    stretching it *stretch* times across."""
    from PIL import Image

    m = _model()
    np = m.np
    image = np.frombuffer(pixels, dtype=np.uint8, count=width * height).reshape(height, width)
    image = np.ascontiguousarray(_turned(np, image, turn))
    h, w = image.shape
    padded = np.full((h + 2 * PAD, w + 2 * PAD), 255, dtype=np.uint8)
    padded[PAD:PAD + h, PAD:PAD + w] = image
    h, w = padded.shape
    out_w = max(HEIGHT, int(round(w * stretch * HEIGHT / h)))
    line = Image.fromarray(padded).resize((out_w, HEIGHT), Image.BILINEAR)  # type: ignore[attr-defined]
    x = np.asarray(line, dtype=np.float32) / 127.5 - 1.0
    batch = np.ascontiguousarray(np.broadcast_to(x, (1, 3, HEIGHT, out_w)))
    try:
        probs = m.session.run(None, {m.input: batch})[0][0]  # (steps, classes)
    except Exception as e:  # noqa: BLE001 -- ONNX Runtime's own errors, no memory under verify's limit
        raise OcrMissing("OCR failed (%s: %s)" % (type(e).__name__, str(e)[:120])) from None
    best = (np.log(np.maximum(probs, 1e-30)) + m.mask).argmax(axis=1)
    return _decode(m.classes, best.tolist())


def _decode(classes: List[str], best: List[int]) -> str:
    """Greedy CTC: repeats collapsed, blanks dropped."""
    out: List[str] = []
    last = -1
    for k in best:
        if k != last and k != 0:
            out.append(classes[k])
        last = k
    return "".join(out)


def turn_of(boxes: Tuple[Box, ...]) -> int:
    """The clockwise turn (0, 90, 180, 270) that sets upright a line whose characters'
    boxes (view frame, y down) are *boxes*, in reading order: from the first character's
    centre to the last's."""
    if len(boxes) < 2:
        return 0
    dx = (boxes[-1][0] + boxes[-1][2] - boxes[0][0] - boxes[0][2]) / 2
    dy = (boxes[-1][1] + boxes[-1][3] - boxes[0][1] - boxes[0][3]) / 2
    if abs(dy) > abs(dx):
        return 90 if dy < 0 else 270  # reading up the page: turn it a quarter clockwise
    return 180 if dx < 0 else 0


# --- where a match is read ------------------------------------------------------------

#: The scale at which a match is rendered for OCR: this many pixels an em (the model
#: reads lines 48 pixels high; the line's box is about 1.3 em with its margin).
OCR_EM_PX = 48.0
OCR_PAD_EM = 0.3  # margin around the glyphs' boxes, in em
MAX_READ = 4  # matches read (an honest page 1 has one badge)
MAX_OCR_PIXELS = 4_000_000  # one region's rendering for OCR is scaled down beyond this


class Region(NamedTuple):
    """One line of a match of the ``ink`` pattern (:class:`pith_tex.pdf.pageview.Ink`)
    where OCR reads it, the same in every engine's rendering (a match set on two lines is
    read line by line)."""

    match: int  # which match (its index in the ink list)
    text: str  # the line's part of the match, as the text layer has it
    box: Box  # view frame, points
    turn: int
    scale: float  # pixels a point


def _lines(ink: Any) -> List[List[int]]:
    """The indices of *ink*'s characters, line by line: a line ends where the next
    character's box does not overlap the last one's across the line."""
    across = (1, 3) if turn_of(ink.boxes) in (0, 180) else (0, 2)
    lines: List[List[int]] = []
    for i, b in enumerate(ink.boxes):
        if lines:
            last = ink.boxes[lines[-1][-1]]
            if b[across[0]] < last[across[1]] and last[across[0]] < b[across[1]]:
                lines[-1].append(i)
                continue
        lines.append([i])
    return lines


def ocr_regions(inks: Sequence[Any], width: float, height: float) -> Tuple[Region, ...]:
    """The parts of page 1 that show each of *inks*, a line each (its glyphs' tight
    boxes, or the loose ones where a tight box is empty, and :data:`OCR_PAD_EM` around),
    on the page."""
    found = []
    for k, ink in enumerate(inks[:MAX_READ]):
        tight = ink.tight or ink.boxes
        em = max(max(ink.sizes, default=1.0), 1.0)
        pad = OCR_PAD_EM * em
        for line in _lines(ink):
            boxes = [tight[i] if tight[i][2] > tight[i][0] and tight[i][3] > tight[i][1]
                     else ink.boxes[i] for i in line]
            box = (max(0.0, min(b[0] for b in boxes) - pad),
                   max(0.0, min(b[1] for b in boxes) - pad),
                   min(width, max(b[2] for b in boxes) + pad),
                   min(height, max(b[3] for b in boxes) + pad))
            area = (box[2] - box[0]) * (box[3] - box[1])
            if area <= 0:
                continue
            scale = min(OCR_EM_PX / em, (MAX_OCR_PIXELS / area) ** 0.5)
            found.append(Region(k, "".join(ink.text[i] for i in line), box,
                                turn_of(tuple(ink.boxes[i] for i in line)) if len(line) > 1
                                else turn_of(ink.boxes), scale))
    return tuple(found)


class Reading(NamedTuple):
    """What OCR reads from an engine's pixels where the text layer locates a match of the
    ``ink`` pattern (PDFium's :class:`Ink`): the text layer only says where to look."""

    text: str  # the match as PDFium's text layer has it
    region: Box  # the part of the page read (view frame)
    turn: int  # degrees clockwise that set the line upright (90, 270: a turned stamp)
    read: str  # what the OCR reads there, white space kept


def read_regions(regions: Sequence[Region], render: Callable[[Region], Tuple[Any, ...]]
                 ) -> Tuple[Tuple["Reading", ...], Optional[str]]:
    """OCR of *render(region)* (width, height, ..., 8-bit grey pixels: a tuple or a
    pageview Raster) at each region, the lines of a match joined, or why no OCR can run
    here."""
    if not regions:
        return (), None
    why = missing()
    if why is not None:
        return (), why
    read: Dict[int, List[str]] = {}
    for r in regions:
        got = render(r)
        w, h, pixels = got[0], got[1], got[-1]
        try:
            # the usual stretch first; the others only where it does not read the text
            # layer's characters (a proportional font set tight: Helvetica's W as VV)
            for stretch in STRETCHES:
                text = read_line(w, h, pixels, r.turn, stretch)
                if agrees(text, r.text):
                    break
        except OcrMissing as e:
            return (), str(e)
        read.setdefault(r.match, []).append(text)
    out = []
    for k, texts in read.items():
        mine = [r for r in regions if r.match == k]
        box = (min(r.box[0] for r in mine), min(r.box[1] for r in mine),
               max(r.box[2] for r in mine), max(r.box[3] for r in mine))
        out.append(Reading("".join(r.text for r in mine), box, mine[0].turn, "".join(texts)))
    return tuple(out), None


def pdftoppm_crop(region: Region, page: str = "1") -> List[str]:
    """poppler's command for an 8-bit grey rendering of *region* of *page* (the PDF on
    standard input): ``pdftoppm -x -y -W -H`` at the region's scale."""
    k, box = region.scale, region.box
    w, h = max(1, int((box[2] - box[0]) * k + 0.999)), max(1, int((box[3] - box[1]) * k + 0.999))
    return ["pdftoppm", "-f", page, "-l", page, "-r", "%.3f" % (k * 72.0),
            "-x", str(int(box[0] * k)), "-y", str(int(box[1] * k)), "-W", str(w), "-H", str(h),
            "-gray", "-cropbox", "-"]
