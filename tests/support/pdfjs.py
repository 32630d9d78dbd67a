"""pdf.js, Firefox's PDF engine, as the tests' third oracle (tests/pdfjs/render.mjs under
node, pdfjs-dist and @napi-rs/canvas installed by scripts/setup.sh into
tests/pdfjs/node_modules).  Never used by pith-tex itself: it shows what Firefox shows, so
that no test calls verified a PDF Firefox shows without the number.  Missing, it is an
error, never a skip."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, NamedTuple, Tuple

HERE = Path(__file__).resolve().parent.parent / "pdfjs"
DPI = 150


class Rendering(NamedTuple):
    """pdf.js's page 1: grey pixels (0 black) and what render.mjs printed."""

    width: int
    height: int
    pixels: bytes
    info: Dict[str, Any]
    pgm: Path  # the rendering as written (for the QR decoders)

    @property
    def text(self) -> str:
        """pdf.js's text of page 1 (glyphs as drawn: /ActualText is not read), white
        space removed."""
        return "".join("".join(t["str"] for t in self.info["text"]).split())

    def ink(self, box: Tuple[float, float, float, float]) -> int:
        """Dark pixels (under half grey) inside *box* (user space, y up; the page's
        origin at its bottom-left corner)."""
        s = self.info["dpi"] / 72
        height = self.info["height"]
        x0, x1 = int(box[0] * s), int(box[2] * s) + 1
        y0, y1 = int((height - box[3]) * s), int((height - box[1]) * s) + 1
        w = self.width
        return sum(1 for y in range(max(y0, 0), min(y1, self.height))
                   for x in range(max(x0, 0), min(x1, w)) if self.pixels[y * w + x] < 128)


def missing() -> str:
    """Why pdf.js cannot run here ("" when it can)."""
    if shutil.which("node") is None:
        return "node is not installed (scripts/setup.sh installs nodejs)"
    if not (HERE / "node_modules" / "pdfjs-dist").is_dir():
        return "pdfjs-dist is not installed in %s (run scripts/setup.sh)" % HERE
    return ""


def render(pdf: Path, intent: str = "display", dpi: int = DPI) -> Rendering:
    """Page 1 of *pdf* as Firefox shows it (*intent* ``display``: the canvas and its form
    layer) or prints it (``print``)."""
    why = missing()
    assert not why, why
    out = pdf.with_name("%s-pdfjs-%s.pgm" % (pdf.stem, intent))
    p = subprocess.run(["node", str(HERE / "render.mjs"), str(pdf), str(out), intent,
                        str(dpi)], capture_output=True, text=True, timeout=120, cwd=HERE)
    assert p.returncode == 0, p.stderr[-2000:]
    info = json.loads(p.stdout.strip().splitlines()[-1])
    from qrdecode import read_pgm

    w, h, pixels = read_pgm(out)
    return Rendering(w, h, pixels, info, out)
