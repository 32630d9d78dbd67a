"""Parse what a user types as a Pith Number.

Accepted forms (surrounding whitespace ignored, letters in any case):

* ``NUM`` -- the 26-character number, e.g. ``O6TNNA4XHFGPSALGBT7UWDA2Z3``
* ``pith:NUM``
* ``pith:YYYY:NUM`` -- the year form; the year is checked against the record later
  (:func:`check_requested_year`)
* ``https://pith.science/pith/NUM`` -- also ``http://``, ``www.pith.science``, a trailing
  ``/``, a ``.json`` suffix (the resolver JSON address), and a ``?query`` or ``#fragment``
  (ignored).

Rejected, each with a message that says what is wrong and how to fix it:

* a wrong length (the message gives the count);
* characters outside the base32 alphabet ``A-Z 2-7`` (``0``, ``1``, ``8`` get a hint:
  did you mean ``O``, ``I``, ``B``?);
* the 8/12/16-character short forms (``pith:O6TNNA4X``).  Project decision: short forms
  are display aliases; a 40-bit prefix is not a content address, so we never resolve one.
  Copy the full number from the Pith page instead;
* a year that is not 4 digits;
* a URL on another host (use ``--resolver`` for mirrors and pass the number itself).
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

from .canonical import ALPHABET as ALPHABET  # re-exported: the alphabet of a number
from ..errors import UsageError, show

NUMBER_LENGTH = 26
#: The Pith URL of a number is this followed by the number.
URL_BASE = "https://pith.science/pith/"
SHORT_LENGTHS = (8, 12, 16)

_ALPHABET_SET = frozenset(ALPHABET)
_LOOKALIKES = {"0": "O", "1": "I", "8": "B"}
_URL_RE = re.compile(r"(?i)https?://(?:www\.)?pith\.science/pith/([^/?#]*)/?(?:[?#].*)?\Z", re.S)
_ANY_URL_RE = re.compile(r"(?i)[a-z][a-z0-9+.-]*://")
_YEAR_FORM_RE = re.compile(r"(?i)pith:([^:]*):(.*)\Z", re.S)


class Identifier(NamedTuple):
    """A parsed identifier: the upper-case 26-character number and the year, if typed."""

    number: str
    year: Optional[int]

    def __str__(self) -> str:
        if self.year is None:
            return self.number
        return "pith:%04d:%s" % (self.year, self.number)


#: What an author may paste instead of the number: an arXiv id (new or old style, with
#: or without ``arXiv:`` and a version) or an arxiv.org URL.
_ARXIV_ID_RE = re.compile(
    r"(?i:arxiv:)?(?:[0-9]{4}\.[0-9]{4,5}|[a-z-]+(?:\.[A-Za-z]{2})?/[0-9]{7})(?:v[0-9]+)?\Z")
_ARXIV_URL_RE = re.compile(r"(?i)(?:https?://)?(?:www\.|export\.)?arxiv\.org/")


def parse_identifier(text: str) -> Identifier:
    """Parse *text* into an :class:`Identifier` or raise :class:`UsageError`."""
    if not isinstance(text, str):
        raise UsageError("a Pith Number must be text")
    s = text.strip()
    if not s:
        raise UsageError(
            "empty Pith Number: pass the 26-character number, e.g. O6TNNA4XHFGPSALGBT7UWDA2Z3"
        )
    year: Optional[int] = None
    m = _URL_RE.match(s)
    if m:
        s = m.group(1)
        if s.lower().endswith(".json"):
            s = s[:-5]
        if not s:
            raise UsageError(
                "the URL %s names no Pith Number: use https://pith.science/pith/NUMBER" % show(text)
            )
    elif _ARXIV_URL_RE.match(s) or _ARXIV_ID_RE.match(s):
        raise UsageError(
            "%s is an arXiv id, not a Pith Number: find the paper's Pith Number "
            "(26 characters, A-Z and 2-7) on its Pith page at https://pith.science and "
            "pass that" % show(text)
        )
    elif _ANY_URL_RE.match(s):
        raise UsageError(
            "%s is not a pith.science/pith/ URL: pass the number itself "
            "(use --resolver to fetch from a mirror)" % show(text)
        )
    else:
        m = _YEAR_FORM_RE.match(s)
        if m:
            year_text, s = m.group(1), m.group(2)
            if not (len(year_text) == 4 and year_text.isascii() and year_text.isdigit()):
                raise UsageError(
                    "the year in pith:YYYY:NUMBER must be 4 digits, got %s: "
                    "write e.g. pith:2025:NUMBER, or leave the year out" % show(year_text)
                )
            year = int(year_text)
        elif s[:5].lower() == "pith:":
            s = s[5:]
    return Identifier(_check_number(s, text), year)


def _check_number(s: str, original: str) -> str:
    number = s.upper()
    bad = [(i, c) for i, c in enumerate(number) if c not in _ALPHABET_SET]
    if bad:
        parts = []
        for i, c in bad[:5]:
            hint = _LOOKALIKES.get(c)
            part = "%s at position %d" % (show(c), i + 1)
            if hint:
                part += " (did you mean the letter %s?)" % hint
            parts.append(part)
        more = " and %d more" % (len(bad) - 5) if len(bad) > 5 else ""
        raise UsageError(
            "%s is not a Pith Number: %s %s outside the base32 alphabet A-Z, 2-7%s; "
            "copy the number from its Pith page"
            % (show(original), ", ".join(parts), "is" if len(bad) == 1 else "are", more)
        )
    n = len(number)
    if n in SHORT_LENGTHS:
        raise UsageError(
            "%s is %s %d-character short form: short forms are display aliases, not "
            "content addresses; copy the full 26-character number from the Pith page"
            % (show(original), "an" if n == 8 else "a", n)
        )
    if n != NUMBER_LENGTH:
        raise UsageError(
            "%s is not a Pith Number: it has %d character%s, a Pith Number has 26; "
            "copy the full number from its Pith page" % (show(original), n, "" if n == 1 else "s")
        )
    return number


def check_requested_year(identifier: Identifier, record_year: int) -> None:
    """Raise :class:`UsageError` (exit 2) when a typed ``pith:YYYY:`` contradicts the record.

    The record's year (that of ``metadata.submitted_at``, equal to the year in the
    resolver's ``pith_number``) is authoritative; the number alone identifies the record,
    so a wrong year is the user's typo, not a forged record.  Called only after the
    record was shown to hash to the number.
    """
    if identifier.year is not None and identifier.year != record_year:
        raise UsageError(
            "you asked for pith:%04d:%s but the record for %s is from %04d: "
            "write pith:%04d:%s or leave the year out"
            % (identifier.year, identifier.number, identifier.number, record_year,
               record_year, identifier.number)
        )

