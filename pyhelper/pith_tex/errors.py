"""The error types of pith-tex and the exit code each one maps to.

Every failure the command line can report is one of these, carrying a one-line message
that says what is wrong and, where there is one, how to fix it.  ``cli`` prints
``error: <message>`` on stderr and exits with :attr:`PithError.exit_code`; nothing else
ever reaches the user as a traceback.

Exit codes (shared by ``fetch`` and ``verify``):

====  ===========================================================================
0     verified
1     verification failed: a readable record contradicts the number (hash mismatch,
      record for another number, bad signature, tampered cache entry)
2     usage error (bad identifier, bad option, no or several ``\\pithnumber``, a
      ``pith:YYYY:`` year that contradicts the record)
3     could not check (network, timeout, 404, 5xx after retries, unreadable body,
      record fields outside the include patterns, unknown key id, write failure)
====  ===========================================================================
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_COULD_NOT_CHECK = 3


class PithError(Exception):
    """Base class: a one-line, user-facing message and an exit code."""

    exit_code: int = EXIT_COULD_NOT_CHECK

    def __init__(self, message: str) -> None:
        # One line, always: a message is printed after ``error: `` on a single line.
        super().__init__(" ".join(str(message).split()))

    @property
    def message(self) -> str:
        return str(self.args[0])


class UsageError(PithError):
    """The user asked for something malformed (exit 2)."""

    exit_code = EXIT_USAGE


class CouldNotCheck(PithError):
    """The record could not be obtained or read, so nothing was decided (exit 3)."""

    exit_code = EXIT_COULD_NOT_CHECK


class VerificationFailed(PithError):
    """A readable record contradicts the number (exit 1)."""

    exit_code = EXIT_FAILED


def show(value: object, limit: int = 60) -> str:
    """Render an untrusted value for a message: ASCII only, quoted, truncated.

    Response fields are untrusted text (raw TeX titles, anything a hostile mirror sends);
    they are never echoed verbatim to a terminal.
    """
    text = ascii(value)
    if len(text) > limit:
        text = text[: limit - 3] + "..."
    return text


def printable(value: str, limit: int = 300) -> str:
    """Render untrusted text for a listing (titles in ``pith-tex citations``): unquoted and
    readable, letters of any script kept, but every character that could act on a
    terminal or reorder what it shows escaped as ``\\xNN``/``\\uNNNN``: C0/C1 controls
    (ESC, so no ANSI sequence; CR, LF, so no forged line), bidi and other format
    characters (U+202E...), line and paragraph separators, unassigned and surrogate code
    points.  Cut to *limit* characters (``...``).

    :func:`show` is for values inside messages (quoted, ASCII only); this is its
    counterpart for text shown as text.  Backslashes are kept: titles are raw TeX.
    """
    text = value[:limit + 1]
    if not text.isprintable():  # the usual title is printable: one C-level scan
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


def safe_name(name: str) -> str:
    """A file name as printed in a report line or message.

    A name is the user's own text, so it is kept as it is when every character is
    printable; otherwise (a newline, a carriage return, an escape sequence, an
    undecodable byte) it is quoted with Python's escapes (``'a\\nOK  b.json'``), so a
    file name can never start a line of its own, forge an ``OK`` line or drive the
    terminal.
    """
    if name.isprintable():
        return name
    return repr(name)
