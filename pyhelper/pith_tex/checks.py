"""The vocabulary of a verification: a :class:`Check` ``(name, status, detail)``, the
:class:`Outcome` of one document and the :class:`FileOutcome` of one file, and how their
statuses become exit codes.

This is the bottom module of the checks: ``record``, ``pdf``, ``verify``, ``check`` and
``report`` all import it, and it imports nothing of theirs, so no import circle runs
through the check types.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Iterable, List, NamedTuple, Optional

from .errors import EXIT_COULD_NOT_CHECK, EXIT_FAILED, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    from .record.canonical import RecordFields


class Status(str, Enum):
    """A check's status.  A ``str`` too, so that it compares, hashes and serialises (JSON)
    as its word: ``Status.OK == "ok"``."""

    OK = "ok"
    FAIL = "fail"
    WARN = "warn"
    ERROR = "error"

    def __str__(self) -> str:  # "%s" and f-strings give the word, not "Status.OK"
        return str(self.value)


OK = Status.OK
FAIL = Status.FAIL
WARN = Status.WARN
ERROR = Status.ERROR

#: The state of a number, in the same words on the badge, in the PDF's metadata
#: (PithVerification) and in fetch, check and verify (docs/verification.md):
#: *verified*: the resolver's signed receipt was checked with a pinned key (and the hash
#: recomputed); *checked*: the hash was recomputed and the number derived from the
#: record, but no signed receipt vouches for it (unsigned: the resolver has not signed
#: it yet); *unverified*: neither.
VERIFIED = "verified"
CHECKED = "checked"
UNVERIFIED = "unverified"
#: The words of the ``signature`` line for an unsigned record, the same in every command.
UNSIGNED = "checked, unsigned: the hash proves the number, no signed receipt vouches for it"


def state_word(signature: Optional[str]) -> str:
    """The state for an outcome's ``signature`` ("verified", "absent" or None)."""
    return {"verified": VERIFIED, "absent": CHECKED}.get(signature or "", UNVERIFIED)


VERDICTS = {EXIT_OK: "verified", EXIT_FAILED: "failed", EXIT_USAGE: "usage-error",
            EXIT_COULD_NOT_CHECK: "could-not-check"}


class Check(NamedTuple):
    name: str
    status: Status
    detail: str


class Outcome(NamedTuple):
    """What verifying one record (or bundle, or include) established."""

    number: Optional[str]
    checks: List[Check]
    sha256: Optional[str] = None  # recomputed digest, hex
    fields: Optional[RecordFields] = None  # set when the record shape is valid
    signature: Optional[str] = None  # "verified" | "absent" | None (not established)
    key_id: Optional[str] = None
    signature_hex: Optional[str] = None  # the verified receipt's signature

    @property
    def exit_code(self) -> int:
        return exit_code_of(self.checks)

    @property
    def verdict(self) -> str:
        return VERDICTS[self.exit_code]


def exit_code_of(checks: Iterable[Check]) -> int:
    code = EXIT_OK
    for c in checks:
        if c.status == FAIL:
            return EXIT_FAILED
        if c.status == ERROR:
            code = EXIT_COULD_NOT_CHECK
    return code


_SEVERITY = {OK: 0, WARN: 1, ERROR: 2, FAIL: 3}


def decisive(checks: Iterable[Check]) -> Optional[Check]:
    """The check that decides: the first failure, else the first error, else the first
    warning; None when every check passed.  Its name and detail become the ``error:``
    line of a non-zero exit and the compact line of a file."""
    found: Optional[Check] = None
    rank = 0
    for c in checks:
        r = _SEVERITY[c.status]
        if r > rank:
            found, rank = c, r
            if r == 3:
                break
    return found


#: The summary buckets of exit codes: verified, failed, could not check (usage too).
BUCKETS = ("verified", "failed", "could_not_check")


def bucket(code: int) -> int:
    """The index in :data:`BUCKETS` of an exit code."""
    return 0 if code == EXIT_OK else 1 if code == EXIT_FAILED else 2


def worst(codes: Iterable[int]) -> int:
    """Combine exit codes: 1 (failed) > 2 (usage) > 3 (could not check) > 0."""
    rank = {EXIT_OK: 0, EXIT_COULD_NOT_CHECK: 1, EXIT_USAGE: 2, EXIT_FAILED: 3}
    best = EXIT_OK
    for c in codes:
        if rank.get(c, 1) > rank[best]:
            best = c
    return best


class FileOutcome(NamedTuple):
    path: str
    kind: str  # "record" | "bundle" | "include" | "pdf" | "unknown"
    outcome: Optional[Outcome]
    error: Optional[str] = None  # set when the file could not be read at all
    error_code: int = EXIT_COULD_NOT_CHECK

    @property
    def exit_code(self) -> int:
        return self.error_code if self.outcome is None else self.outcome.exit_code
