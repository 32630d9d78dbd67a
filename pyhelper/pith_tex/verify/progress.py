"""The progress of a long ``verify`` run (tar archives): a bar with the rate and the time
left on a terminal's standard error, nothing on a pipe or a file; and the tally of the
lines, their summary and the exit code."""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Any, Dict, List, Optional, Sequence, Set, Type

from ..checks import bucket
from ..errors import EXIT_FAILED, EXIT_OK, CouldNotCheck, VerificationFailed


class Progress:
    """``with Progress(archives) as bar``: :meth:`at` says how far into which archive the
    reading is (bytes), :meth:`done_one` that a line was written."""

    def __init__(self, archives: Sequence[str]) -> None:
        self.starts: Dict[str, int] = {}
        total = 0
        for a in archives:
            self.starts.setdefault(a, total)
            try:
                total += os.stat(a).st_size
            except OSError:
                pass
        self.total, self.position, self.lines = total, 0, 0
        self.t0 = time.monotonic()
        self.bar: Any = None
        if sys.stderr.isatty():
            import click  # a terminal only: a pipe gets nothing, and pays nothing

            self.bar = click.progressbar(length=max(total, 1), file=sys.stderr,
                                         label="verifying", show_eta=True, show_pos=False,
                                         item_show_func=self._rate)

    def _rate(self, _item: Any) -> str:
        seconds = max(time.monotonic() - self.t0, 1e-9)
        return "%d PDFs, %.1f PDFs/s" % (self.lines, self.lines / seconds)

    def __enter__(self) -> "Progress":
        if self.bar is not None:
            self.bar.__enter__()
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        if self.bar is not None:
            self.bar.__exit__(kind, value, tb)

    def at(self, archive: str, offset: int) -> None:
        position = self.starts.get(archive, 0) + offset
        if self.bar is not None and position > self.position:
            self.bar.update(position - self.position)
        self.position = max(self.position, position)

    def done_one(self) -> None:
        self.lines += 1
        if self.bar is not None:
            self.bar.update(0, current_item=self.lines)


class Tally:
    """The lines' verdicts: verified, failed, could not be checked, and PDFs that carry
    no Pith Number (which change no exit code, as in a directory)."""

    def __init__(self) -> None:
        self.counts: List[int] = [0, 0, 0]
        self.none = 0
        self.codes: Set[int] = set()

    def add(self, exit_code: int, no_claim: bool) -> None:
        if no_claim:
            self.none += 1
            return
        self.counts[bucket(exit_code)] += 1
        if exit_code != EXIT_OK:
            self.codes.add(exit_code)

    def summary(self, listing: Any) -> str:
        n = sum(self.counts)
        extra = []
        if listing.skipped:
            extra.append("%d other member%s skipped" % (
                listing.skipped, "" if listing.skipped == 1 else "s"))
        if listing.resumed:
            extra.append("%d already in the resumed file" % listing.resumed)
        return "%d member%s: %d verified, %d failed, %d could not be checked; " \
               "%d PDF%s with no Pith Number%s" % (
                   n, "" if n == 1 else "s", self.counts[0], self.counts[1], self.counts[2],
                   self.none, "" if self.none == 1 else "s",
                   "".join("; " + e for e in extra))

    def finish(self) -> int:
        """The exit code (raising as ``verify`` does for a failure or a line that could
        not be checked)."""
        if EXIT_FAILED in self.codes:
            raise VerificationFailed("verification failed: %d of %d members failed, %d could "
                                     "not be checked" % (self.counts[1], sum(self.counts),
                                                         self.counts[2]))
        if self.codes:
            raise CouldNotCheck("could not check: %d of %d members could not be checked"
                                % (self.counts[2], sum(self.counts)))
        return EXIT_OK
