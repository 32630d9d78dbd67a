"""The QR code of a Pith URL, as rows of modules for the include.

The URL is encoded in upper case: every character of ``HTTPS://PITH.SCIENCE/PITH/NUM`` is
in the QR alphanumeric set (11 bits per 2 characters instead of 8 bits per character), so
at error-correction level M the symbol is version 3 (29 x 29) instead of version 4
(33 x 33).  Scheme and host are case-insensitive (RFC 3986); the path is the README's
open question.  The modules are computed here, once, by the ``qrcode`` library; pith.sty
only draws them (one rule per run of dark modules), so no QR logic runs in TeX.
"""

from __future__ import annotations

from typing import List

from .canonical import is_number
from .identifier import URL_BASE
#: Modules of light margin on each side (ISO/IEC 18004's quiet zone); pith.sty adds it.
QUIET_ZONE = 4


def qr_text(number: str) -> str:
    """What the QR code encodes: the Pith URL of *number* in upper case."""
    if not is_number(number):
        raise ValueError("not a Pith Number: %r" % (number,))
    return (URL_BASE + number).upper()


def qr_rows(number: str) -> List[str]:
    """The symbol for *number*'s URL, without its quiet zone: one string per row, ``1`` for
    a dark module, ``0`` for a light one."""
    import qrcode  # type: ignore[import-untyped]  # only fetch draws a QR code
    from qrcode.constants import ERROR_CORRECT_M  # type: ignore[import-untyped]
    from qrcode.util import MODE_ALPHA_NUM, QRData  # type: ignore[import-untyped]

    code = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    # An explicit segment: the library must not fall back to byte mode.
    code.add_data(QRData(qr_text(number).encode("ascii"), mode=MODE_ALPHA_NUM))
    code.make(fit=True)
    return ["".join("1" if m else "0" for m in row) for row in code.get_matrix()]
