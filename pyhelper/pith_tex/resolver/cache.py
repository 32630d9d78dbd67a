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
atomically.  A failure to write the cache is a warning, not an error.  Entries are read
within :data:`pith_tex.safeio.MAX_CACHE` (1 MiB), regular files only and without
following a symlink: an entry that is anything else is an error naming it (exit 3).
"""

from __future__ import annotations

import os
from typing import Optional, Tuple

import platformdirs

from ..atomic import write_atomic
from ..errors import CouldNotCheck, safe_name
from ..safeio import MAX_CACHE, NotRegularFile, format_size, read_regular

ENV_CACHE_DIR = "PITH_TEX_CACHE_DIR"
LAYOUT = "v1"


def default_cache_dir() -> str:
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return env
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

    def _read(self, path: str) -> Optional[bytes]:
        """An entry's bytes, None when there is none; :class:`CouldNotCheck` for an entry
        that is not a regular file (a FIFO, a device, a symlink: pith-tex writes none of
        these), is larger than 1 MiB, or cannot be read."""
        try:
            data = read_regular(path, MAX_CACHE, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except NotRegularFile as e:
            raise CouldNotCheck("the cache entry %s is %s, not a file pith-tex wrote: delete "
                                "it and run pith-tex fetch without --offline"
                                % (safe_name(path), e.kind)) from e
        except OSError as e:
            raise CouldNotCheck("cannot read the cache entry %s: %s" % (safe_name(path),
                                                                        e.strerror or e)) from e
        if data is None:
            raise CouldNotCheck("the cache entry %s is larger than %s, so not a record "
                                "pith-tex stored: delete it and run pith-tex fetch without "
                                "--offline" % (safe_name(path), format_size(MAX_CACHE)))
        return data

    def load(self, number: str) -> Optional[Tuple[bytes, Optional[bytes]]]:
        """(record bytes, bundle bytes or None), or None when *number* is not cached.

        Every read is bounded and never blocks (:mod:`pith_tex.safeio`); a bad entry
        raises :class:`CouldNotCheck` naming it.
        """
        record = self._read(self.record_path(number))
        if record is None:
            return None
        return record, self._read(self.bundle_path(number))

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
