"""PDFs with Pith metadata, made without TeX: what the README's contract says pith.sty
writes for an include, on a blank page written by pypdf.

    import pdfclaims
    pdfclaims.blank_pdf(path, pdfclaims.claims(recorded.vectors_with_record()[0]))
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import recorded


def claims(v: Dict[str, Any], key_id: Optional[str] = None,
           signature_hex: Optional[str] = None) -> Dict[str, str]:
    """The Info keys the README's contract says pith.sty writes for an include of *v*."""
    src = v["canonical_record"]["source"]
    out = {
        "/PithNumber": "pith:%d:%s" % (v["year"], v["number"]),
        "/PithURL": "https://pith.science/pith/" + v["number"],
        "/PithVerification": "verified" if key_id else "verified-unsigned",
        "/PithSHA256": v["canonical_hash"],
        "/PithArXiv": "%sv%d" % (src["id"], src["version"]),
        "/PithRecord": recorded.canonical_bytes(v["canonical_record"]).decode("ascii"),
    }
    if key_id:
        out["/PithKeyID"] = key_id
        out["/PithSignature"] = signature_hex or ""
    return out


def blank_pdf(dst: Any, meta: Dict[str, str]) -> Any:
    """A one-page PDF with no text (so no visible badge), *meta* as its Info keys."""
    from pypdf import PdfWriter

    w = PdfWriter()
    w.add_blank_page(612, 792)
    w.add_metadata(meta)
    with open(dst, "wb") as f:
        w.write(f)
    return dst


def tampered(src: Any, dst: Any, edit: Callable[[Any], Any]) -> Any:
    """A pypdf clone of *src* (uncompressed objects, one xref table) edited by *edit*."""
    from pypdf import PdfWriter

    w = PdfWriter(clone_from=str(src))
    edit(w)
    with open(dst, "wb") as f:
        w.write(f)
    return dst


def xmp_edited(src: Any, dst: Any, edit: Callable[[bytes], bytes]) -> Any:
    """A copy of *src* whose XMP packet was rewritten by *edit* (with pypdf)."""
    from pypdf.generic import NameObject, StreamObject

    def change(w: Any) -> None:
        old = w._root_object["/Metadata"].get_object()
        new = StreamObject()
        new.set_data(edit(old.get_data()))
        new[NameObject("/Type")] = NameObject("/Metadata")
        new[NameObject("/Subtype")] = NameObject("/XML")
        w._root_object[NameObject("/Metadata")] = w._add_object(new)

    return tampered(src, dst, change)


def qr_box(w: Any) -> Any:
    """The box (x0, y0, x1, y1, user space) of the one QR code PDFium's rendering of page 1
    of the pypdf writer *w* decodes: where an attack paints or clips."""
    import io

    from pith_tex.pdf import pageview

    buf = io.BytesIO()
    w.write(buf)
    v = pageview.pdfium_view(buf.getvalue(), dpi=600)
    assert len(v.code_boxes) == 1, v.codes
    b = v.code_boxes[0]
    left, top = v.crop[0], v.crop[3]
    return (left + b[0], top - b[3], left + b[2], top - b[1])
