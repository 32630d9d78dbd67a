"""A compiled paper: what its PDF claims and what readers' viewers show.  ``verify`` is
the entry (:func:`pith_tex.pdf.claims.verify_pdf`); ``meta`` (Info and XMP), ``xref``,
``links``, ``layers``, ``gate`` (refusals), ``pageview`` (page 1 through PDFium and
poppler), ``shown`` (the badge as drawn) and ``title`` (the title on page 1) are its
parts.  Imports :mod:`pith_tex.title`, :mod:`pith_tex.include`,
:mod:`pith_tex.resolver`, :mod:`pith_tex.record` and the bottom modules.
"""
