"""EPS figures that pdflatex, run as arXiv runs it, draws as empty boxes.

pdflatex converts an ``.eps`` figure to PDF only through epstopdf, which needs shell
escape; arXiv allows none (and converts nothing itself).  Without it, graphicx reads the
figure's bounding box and, having no way to include the type, draws a box with the file's
name, with no error and no warning in the log: the author's own PDF (made with TeX Live's
default restricted shell escape) shows the figure, arXiv's does not.  What tells it: the
compile read ``x.eps`` (its bounding box) but no PDF converted from it.
"""

from __future__ import annotations

import os
from typing import List

from .upload import Recorded

_POSTSCRIPT = (".eps", ".ps")


def eps_drawn_as_boxes(recorded: Recorded, paper: str) -> List[str]:
    """The ``.eps``/``.ps`` files of the copy *paper* (relative names) that a pdflatex
    compile read and drew nothing from: no ``x-eps-converted-to.pdf`` (epstopdf's name for
    a converted file the upload brings) was read beside it."""
    root = os.path.realpath(paper)
    read = {os.path.basename(p) for p in recorded.read}
    boxes: List[str] = []
    for full in recorded.read:
        real = os.path.realpath(full)
        stem, ext = os.path.splitext(os.path.basename(real))
        if ext.lower() not in _POSTSCRIPT or not real.startswith(root + os.sep):
            continue
        if "%s-%s-converted-to.pdf" % (stem, ext[1:]) in read:
            continue
        name = os.path.relpath(real, root)
        if name not in boxes:
            boxes.append(name)
    return boxes


def eps_boxes_said(boxes: List[str]) -> str:
    """The compile line's words for *boxes* (at least one), with the ways on."""
    shown = ", ".join(boxes[:3]) + (" and %d more" % (len(boxes) - 3) if len(boxes) > 3 else "")
    return ("but it draws %s as an empty box with the file's name: pdflatex converts .eps "
            "figures only with shell escape, which arXiv does not allow: convert %s to PDF "
            "(epstopdf %s, or ps2pdf -dEPSCrop) and include the .pdf; or, when every figure "
            "is .eps, arXiv can compile the paper with latex and dvips: check that with "
            "--route dvips" % (shown, "each" if len(boxes) > 1 else "it", boxes[0]))
