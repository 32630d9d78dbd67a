"""What TeX gets: the include ``pith-number.tex`` (``include``: its format, written and
parsed; ``verify``: checked by its text), the QR code it draws (``qr``), the Pith Number
found in an author's sources (``discover``) and the shipped ``pith.sty`` (``sty``).
Imports :mod:`pith_tex.record` and the bottom modules.
"""
