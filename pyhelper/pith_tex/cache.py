"""The cache of verified records.

Location: ``$PITH_TEX_CACHE_DIR`` if set, else platformdirs' user cache dir for
``pith-tex`` (e.g. ``~/.cache/pith-tex``).  Layout, under ``v1/``::

    NUM.json           the resolver JSON exactly as received
    NUM.bundle.json    the bundle exactly as received (absent when there was none)

Policy: ``fetch`` stores an entry only after every check passed, and only for records
from a network resolver (a mirror on disk is its own cache).  The cache is read only
with ``--offline``; an online ``fetch`` always asks the resolver (a receipt may have
appeared since).  What is read back is verified again like a fresh response, so a
tampered entry is a verification failure, never silently used.  Entries are written
atomically.  A failure to write the cache is a warning, not an error.
"""

from __future__ import annotations

import os
from typing import Optional, Tuple

from .atomic import write_atomic

ENV_CACHE_DIR = "PITH_TEX_CACHE_DIR"
LAYOUT = "v1"


def default_cache_dir() -> str:
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return env
    import platformdirs

    return platformdirs.user_cache_dir("pith-tex", appauthor=False)


class Cache:
    def __init__(self, root: Optional[str] = None) -> None:
        self.root = os.path.join(root or default_cache_dir(), LAYOUT)

    def record_path(self, number: str) -> str:
        return os.path.join(self.root, number + ".json")

    def bundle_path(self, number: str) -> str:
        return os.path.join(self.root, number + ".bundle.json")

    def has(self, number: str) -> bool:
        """An entry for *number* exists (it is not read)."""
        return os.path.isfile(self.record_path(number))

    def load(self, number: str) -> Optional[Tuple[bytes, Optional[bytes]]]:
        """(record bytes, bundle bytes or None), or None when *number* is not cached."""
        try:
            with open(self.record_path(number), "rb") as f:
                record = f.read()
        except OSError:
            return None
        try:
            with open(self.bundle_path(number), "rb") as f:
                bundle: Optional[bytes] = f.read()
        except FileNotFoundError:
            bundle = None
        except OSError:
            return None
        return record, bundle

    def store(self, number: str, record: bytes, bundle: Optional[bytes]) -> None:
        """Write an entry (raises OSError on failure; callers turn it into a warning)."""
        os.makedirs(self.root, exist_ok=True)
        if bundle is not None:
            write_atomic(self.bundle_path(number), bundle)
        else:
            try:
                os.unlink(self.bundle_path(number))
            except FileNotFoundError:
                pass
        write_atomic(self.record_path(number), record)
