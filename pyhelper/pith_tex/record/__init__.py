"""The record: the canonical form of a Pith Number's metadata record and the number
derived from it (``canonical``, ``identifier``), the resolver's documents
(``documents``), the pinned keys and Ed25519 receipts (``keys``, ``signatures``), and the
verification of a record or bundle (``recordchecks``, ``verify``).  Imports only the
bottom modules of :mod:`pith_tex`.
"""
