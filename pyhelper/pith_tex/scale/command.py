"""``pith-tex verify --json --scheduler tcp://HOST:PORT ARCHIVE.tar...``: the archives'
PDFs verified on a Dask cluster (:func:`pith_tex.scale.verify_archives`), one JSON line
per member on standard output, each written and flushed as it comes back."""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from ..console import echo
from ..errors import CouldNotCheck, UsageError, safe_name
from ..report import dumps
from ..verify.archive import Listing, done_keys, is_archive_name
from ..verify.progress import Progress, Tally


def scheduler_command(address: str, paths: Sequence[str], require_signature: bool,
                      as_json: bool, resume: Optional[str] = None) -> int:
    """The body of ``verify --scheduler ADDRESS``."""
    if not as_json:
        raise UsageError("--scheduler writes JSON Lines: add --json")
    others = [p for p in paths if not is_archive_name(p) or os.path.isdir(p)]
    if others:
        raise UsageError("--scheduler verifies tar archives (.tar, .tar.gz), not %s"
                         % ", ".join(map(safe_name, others)))
    try:
        from distributed import Client

        from . import verify_archives
    except ImportError:
        raise UsageError("--scheduler needs Dask: pip install 'pith-tex[scale]'") from None
    done = done_keys(resume) if resume is not None else set()
    try:
        client = Client(address, timeout="30s")  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as e:
        raise CouldNotCheck("cannot reach the Dask scheduler at %s (%s)"
                            % (safe_name(address), e)) from None
    tally = Tally()
    with client, Progress(paths) as bar:
        for line in verify_archives(client, paths, require_signature=require_signature,
                                    done=done):
            sys.stdout.write(dumps(line) + "\n")
            sys.stdout.flush()
            tally.add(line["exit_code"], line["no_pith_number"])
            bar.done_one()
    echo(tally.summary(Listing()), err=True)
    return tally.finish()
