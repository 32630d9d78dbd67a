"""The QR code of a Pith URL, as rows of modules for the include.

The code encodes ``HTTPS://PITH.SCIENCE/pith/NUM`` in three segments: the scheme and host in
the QR alphanumeric mode (upper case: case-insensitive by RFC 3986), the path ``/pith/`` in
byte mode (paths are case-sensitive, so it keeps its exact case), and the number, which is
all alphanumeric, in that mode again.  At error-correction level M that is 339 data bits,
under version 3's 352: the symbol stays 29 x 29, as with the whole URL in upper case, and a
scanner opens the exact path the resolver answers.  The modules are computed here, once, by
the ``qrcode`` library (its ``QRData`` segments, not a mode it guesses); pith.sty only draws
them (one rule per run of dark modules), so no QR logic runs in TeX.
"""

from __future__ import annotations

from typing import List, Tuple

import qrcode
from qrcode.constants import ERROR_CORRECT_M
from qrcode.util import MODE_8BIT_BYTE, MODE_ALPHA_NUM, QRData

from ..record.canonical import is_number
from ..record.identifier import URL_BASE
#: Modules of light margin on each side (ISO/IEC 18004's quiet zone); pith.sty adds it.
QUIET_ZONE = 4
#: The symbol every Pith URL gives: version 3 at level M.
VERSION = 3
SIZE = 17 + 4 * VERSION

#: ``https://pith.science/pith/`` split where the QR mode changes: the scheme and host (upper
#: case, alphanumeric mode) and the path, exact (byte mode).
_HOST_END = URL_BASE.index("/", len("https://"))
_HOST_PART = URL_BASE[:_HOST_END].upper()  # HTTPS://PITH.SCIENCE
_PATH_PART = URL_BASE[_HOST_END:]           # /pith/


def qr_segments(number: str) -> List[Tuple[str, str]]:
    """The (mode, text) segments of *number*'s QR code, ``alnum`` or ``byte``."""
    if not is_number(number):
        raise ValueError("not a Pith Number: %r" % (number,))
    return [("alnum", _HOST_PART), ("byte", _PATH_PART), ("alnum", number)]


def qr_text(number: str) -> str:
    """What a scanner reads: ``HTTPS://PITH.SCIENCE/pith/NUM``."""
    return "".join(text for _, text in qr_segments(number))


def qr_rows(number: str) -> List[str]:
    """The symbol for *number*'s URL, without its quiet zone: one string per row, ``1`` for
    a dark module, ``0`` for a light one."""
    modes = {"alnum": MODE_ALPHA_NUM, "byte": MODE_8BIT_BYTE}
    code = qrcode.QRCode(version=VERSION, error_correction=ERROR_CORRECT_M, border=0)
    # Explicit segments: the library must not choose the modes (it would put the whole URL
    # in byte mode, version 4).  A fixed version: data that did not fit would raise.
    for mode, text in qr_segments(number):
        code.add_data(QRData(text.encode("ascii"), mode=modes[mode]))
    code.make(fit=False)
    return ["".join("1" if m else "0" for m in row) for row in code.get_matrix()]
