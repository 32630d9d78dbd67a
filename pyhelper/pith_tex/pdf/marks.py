"""The page objects of page 1 that a reader's engine may show otherwise than PDFium's
screen: those in optional content (a layer another viewer, or printing, switches
otherwise) and those under an ``/ActualText`` (a text that replaces what is painted when
the page is read or copied).  :func:`page_marks` walks page 1's objects, forms' included,
through PDFium and gives each such object's box in user space (the
caller places it in its view's frame: :attr:`pith_tex.pdf.pageview.View.marks`); :mod:`pith_tex.pdf.printed` decides.

Bounded: at most :data:`MAX_OBJECTS` objects are looked at and :data:`MAX_MARKED` kept.
"""

from __future__ import annotations

import ctypes
from typing import Any, List, Optional, Tuple

Box = Tuple[float, float, float, float]  # as pith_tex.pdf.pageview.Box

MAX_MARKED = 4096  # marked objects kept (past it, a last ("cap", ...) entry says so)
MAX_OBJECTS = 200_000  # page objects looked at, forms' included
_MARK_CHARS = 4096  # UTF-16 units read of a mark's name or /ActualText


def _mark_text(raw: Any, mark: Any, key: Optional[bytes], buf: Any) -> Optional[str]:
    """The name of *mark* (key None) or its string parameter *key* (None: absent), read
    into *buf* (UTF-16 units)."""
    out = ctypes.c_ulong(0)
    if key is None:
        ok = raw.FPDFPageObjMark_GetName(mark, buf, ctypes.sizeof(buf), ctypes.byref(out))
    else:
        ok = raw.FPDFPageObjMark_GetParamStringValue(mark, key, buf, ctypes.sizeof(buf),
                                                     ctypes.byref(out))
    if not ok:
        return None
    n = max(0, min(out.value, ctypes.sizeof(buf)) // 2 - 1)  # UTF-16LE, NUL-terminated
    return ctypes.string_at(buf, 2 * n).decode("utf-16-le", "replace")


Matrix = Tuple[float, float, float, float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def _times(m: Matrix, n: Matrix) -> Matrix:
    """*m* then *n* (PDF's row-vector order: a point goes through m first)."""
    return (m[0] * n[0] + m[1] * n[2], m[0] * n[1] + m[1] * n[3],
            m[2] * n[0] + m[3] * n[2], m[2] * n[1] + m[3] * n[3],
            m[4] * n[0] + m[5] * n[2] + n[4], m[4] * n[1] + m[5] * n[3] + n[5])


def _placed(m: Matrix, box: Box) -> Box:
    """The box around *box* (x0, y0, x1, y1) mapped by *m*."""
    xs, ys = [], []
    for x in (box[0], box[2]):
        for y in (box[1], box[3]):
            xs.append(m[0] * x + m[2] * y + m[4])
            ys.append(m[1] * x + m[3] * y + m[5])
    return (min(xs), min(ys), max(xs), max(ys))


def page_marks(raw: Any, page: Any) -> Tuple[Tuple[str, str, Box], ...]:
    """Page 1's objects in optional content or under an /ActualText, in user space:
    where a layer or a replacement text can make what a reader sees or prints differ
    from what PDFium's screen shows and its text says."""
    found: List[Tuple[str, str, Box]] = []
    buf = (ctypes.c_ushort * _MARK_CHARS)()
    # (the page or a form object, its depth, what maps its objects' boxes to the page:
    # PDFium gives a form's objects in the form's space, the form object its matrix)
    stack = [(page.raw, True, 0, _IDENTITY)]
    seen = 0
    while stack:
        parent, is_page, depth, to_page = stack.pop()
        count = (raw.FPDFPage_CountObjects if is_page else raw.FPDFFormObj_CountObjects)(parent)
        for i in range(max(0, count)):
            seen += 1
            if seen > MAX_OBJECTS or len(found) >= MAX_MARKED:
                return tuple(found) + (("cap", "", (0.0, 0.0, 0.0, 0.0)),)
            obj = (raw.FPDFPage_GetObject if is_page else raw.FPDFFormObj_GetObject)(parent, i)
            if not obj:
                continue
            if raw.FPDFPageObj_GetType(obj) == raw.FPDF_PAGEOBJ_FORM and depth < 32:
                m = raw.FS_MATRIX()
                if raw.FPDFPageObj_GetMatrix(obj, m):
                    own = (m.a, m.b, m.c, m.d, m.e, m.f)
                    stack.append((obj, False, depth + 1, _times(own, to_page)))
            for k in range(max(0, raw.FPDFPageObj_CountMarks(obj))):
                mark = raw.FPDFPageObj_GetMark(obj, k)
                name = _mark_text(raw, mark, None, buf) if mark else None
                actual = _mark_text(raw, mark, b"ActualText", buf) if mark else None
                if name != "OC" and actual is None:
                    continue
                box = [ctypes.c_float() for _ in range(4)]
                if not raw.FPDFPageObj_GetBounds(obj, *[ctypes.byref(b) for b in box]):
                    continue
                where = _placed(to_page, (box[0].value, box[1].value, box[2].value,
                                          box[3].value))
                if actual is not None:
                    found.append(("ActualText", actual, where))
                if name == "OC":
                    found.append(("OC", _mark_text(raw, mark, b"Name", buf) or "", where))
    return tuple(found)
