"""What to upload: the files the compile read from the paper (TeX's ``-recorder`` list,
``main.fls``), nothing it wrote and nothing unused; file names arXiv refuses; files read
from outside the upload; and ``check --tarball``.

A ``.fls`` file has ``PWD dir`` then ``INPUT path`` and ``OUTPUT path`` lines, paths
relative to ``PWD`` or absolute.
"""

from __future__ import annotations

import hashlib
import io
import os
import re
import tarfile
from typing import Dict, Iterable, List, NamedTuple, Optional, Set, Tuple

from ..checks import Check, FAIL, OK, WARN
from .texsource import shown_name

#: arXiv's rule for file names: letters, digits and ``_ + - . , =``, not starting with -.
_GOOD_NAME_RE = re.compile(r"[A-Za-z0-9_+.,=][A-Za-z0-9_+.,=-]*\Z")


class Recorded(NamedTuple):
    read: List[str]  # absolute, normalised, in the order first read
    written: Set[str]


def read_fls(text: str, cwd: str) -> Recorded:
    pwd = cwd
    read: List[str] = []
    seen: Set[str] = set()
    written: Set[str] = set()
    for line in text.splitlines():
        kind, _, path = line.partition(" ")
        if kind == "PWD":
            pwd = path
            continue
        if kind not in ("INPUT", "OUTPUT") or not path:
            continue
        full = os.path.normpath(os.path.join(pwd, path))
        if kind == "OUTPUT":
            written.add(full)
        elif full not in seen:
            seen.add(full)
            read.append(full)
    return Recorded(read, written)


def merged(runs: List[Recorded]) -> Recorded:
    """The reads of several runs in the order first read, and all their writes."""
    read: List[str] = []
    seen: Set[str] = set()
    written: Set[str] = set()
    for r in runs:
        written |= r.written
        for path in r.read:
            if path not in seen:
                seen.add(path)
                read.append(path)
    return Recorded(read, written)


def upload_list(rec: Recorded, copy: str) -> List[str]:
    """The files of the paper the compile read and did not write, relative to *copy*
    (the scratch copy of DIR), in the order TeX read them."""
    root = os.path.realpath(copy)
    names: List[str] = []
    for full in rec.read:
        real = os.path.realpath(full)
        if real in rec.written or full in rec.written:
            continue
        if not real.startswith(root + os.sep) or not os.path.isfile(real):
            continue
        names.append(os.path.relpath(real, root))
    return names


def bad_name(rel: str) -> Optional[str]:
    """Why arXiv refuses the path *rel*, or None."""
    for part in rel.split(os.sep):
        if "\n" in part or "\r" in part:
            return "a newline in its name"
        if part.startswith("-"):
            return "a name starting with -"
        if any(c.isspace() for c in part):
            return "a space in its name"
        if not _GOOD_NAME_RE.match(part):
            return "characters other than letters, digits and _ + - . , = in its name"
    return None


def check_names(names: Iterable[str]) -> Optional[Check]:
    """FAIL naming the files of the upload whose names arXiv refuses; None when all pass."""
    bad = [(n, why) for n in names for why in [bad_name(n)] if why is not None]
    if not bad:
        return None
    return Check("upload", FAIL, "arXiv refuses these file names: %s; rename them (and "
                 "the \\input or \\includegraphics that names them)"
                 % "; ".join("%s (%s)" % (shown_name(n), why) for n, why in bad))


#: Files every Unix system has, arXiv's too, which packages probe: ifplatform (loaded
#: by minted, svg, gitinfo2) tells Unix by ``\IfFileExists{/dev/null}``.
_EVERYWHERE = frozenset(("/dev/null",))


def outside_reads(rec: Recorded, copy: str, tex_roots: Iterable[str]) -> List[str]:
    """Files the compile read that are neither in the upload nor in TeX's own trees."""
    root = os.path.realpath(copy)
    roots = [os.path.realpath(r) for r in tex_roots if r]
    found = []
    for full in rec.read:
        if full in _EVERYWHERE:
            continue
        real = os.path.realpath(full)
        if real.startswith(root + os.sep) or real == root:
            continue
        if any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
            continue
        found.append(full)
    return found


def check_tarball_target(target: str) -> None:
    """May ``check --tarball`` write *target*?  A new path, or a gzip file (an earlier
    upload) it replaces; :class:`~pith_tex.errors.UsageError` (exit 2) for anything else,
    so that ``--tarball main.tex`` cannot turn the paper into a tarball.  Nothing is
    changed."""
    import stat

    from ..errors import UsageError, safe_name

    shown = safe_name(target)
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as e:
        raise UsageError("cannot use --tarball %s: %s" % (shown, e.strerror or e)) from e
    if not stat.S_ISREG(st.st_mode):
        raise UsageError("--tarball %s exists and is not a regular file: name a new file, "
                         "e.g. --tarball upload.tar.gz" % shown)
    try:
        with open(target, "rb") as f:
            head = f.read(2)
    except OSError as e:
        raise UsageError("cannot use --tarball %s: %s" % (shown, e.strerror or e)) from e
    if head != b"\x1f\x8b":
        raise UsageError("--tarball %s: the file exists and is not a .tar.gz: refusing to "
                         "overwrite it, it was left untouched; name a new file, e.g. "
                         "--tarball upload.tar.gz" % shown)


def write_tarball(target: str, directory: str, names: List[str],
                  checked: Optional[Dict[str, str]] = None) -> None:
    """``target`` (.tar.gz): exactly *names*, read from *directory* (regular files, never
    through a link, at most :data:`~pith_tex.check.safecopy.COPY_CAP` bytes in all), with plain
    metadata; written as the include is (:func:`pith_tex.atomic.write_atomic_with`: an
    unnamed or unpredictable temp file, no link followed, mode from the umask), so a
    failure leaves *target* as it was.  *checked*: each name's SHA-256 when check copied
    it; a file whose bytes now differ (an editor saved it while check ran) is refused
    (:class:`OSError`): the tarball holds exactly the bytes that were checked."""
    from ..atomic import write_atomic_with
    from .safecopy import COPY_CAP

    def fill(fd: int) -> None:
        left = COPY_CAP
        with os.fdopen(os.dup(fd), "wb") as raw, \
                tarfile.open(fileobj=raw, mode="w:gz", format=tarfile.PAX_FORMAT) as tar:
            for n in names:
                if os.path.isabs(n) or ".." in n.split(os.sep):
                    raise OSError("%s is not a name inside the paper" % n)
                data, mtime = _read_in(directory, n, left)
                left -= len(data)
                if checked is not None and hashlib.sha256(data).hexdigest() != checked.get(n):
                    raise OSError("%s changed after check copied it (an editor saved it "
                                  "while check ran?): what was checked is not what is there "
                                  "now; run check again" % shown_name(n))
                info = tarfile.TarInfo(n)
                info.size = len(data)
                info.mtime = int(mtime)
                info.mode = 0o644
                tar.addfile(info, io.BytesIO(data))

    write_atomic_with(target, fill)


def _read_in(directory: str, rel: str, cap: int) -> Tuple[bytes, float]:
    """The bytes of the regular file *rel* under *directory* (:func:`_open_in`) and its
    mtime; :class:`OSError` past *cap* bytes."""
    from .safecopy import COPY_CAP

    with os.fdopen(_open_in(directory, rel), "rb") as f:
        mtime = os.fstat(f.fileno()).st_mtime
        data = f.read(cap + 1)
    if len(data) > cap:
        raise OSError("the upload is larger than %d MB" % (COPY_CAP // 1000000))
    return data, mtime


def file_digests(root: str) -> Dict[str, str]:
    """The SHA-256 of every regular file under *root* (a scratch copy just made), by
    name relative to it."""
    out: Dict[str, str] = {}
    for here, dirs, files in os.walk(root):
        dirs.sort()
        for n in files:
            path = os.path.join(here, n)
            if os.path.isfile(path) and not os.path.islink(path):
                with open(path, "rb") as f:
                    out[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return out


def changed_since(directory: str, names: List[str], checked: Dict[str, str]) -> List[str]:
    """The files of *names* whose bytes in *directory* are no longer the ones *checked*
    (gone, replaced, or edited while check ran)."""
    from .safecopy import COPY_CAP

    changed = []
    for n in names:
        try:
            data, _ = _read_in(directory, n, COPY_CAP)
        except OSError:
            changed.append(n)
            continue
        if hashlib.sha256(data).hexdigest() != checked.get(n):
            changed.append(n)
    return changed


def _open_in(directory: str, rel: str) -> int:
    """A read descriptor of the regular file *rel* under *directory*, no component of
    *rel* followed if it is a link (``O_NOFOLLOW`` at each step, from a directory
    descriptor), never blocking."""
    import stat

    nofollow = getattr(os, "O_NOFOLLOW", 0)
    parts = rel.split(os.sep)
    dfd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for p in parts[:-1]:
            nxt = os.open(p, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | nofollow,
                          dir_fd=dfd)
            os.close(dfd)
            dfd = nxt
        fd = os.open(parts[-1], os.O_RDONLY | os.O_NONBLOCK | nofollow
                     | getattr(os, "O_NOCTTY", 0), dir_fd=dfd)
    finally:
        os.close(dfd)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise OSError("%s is not a regular file" % rel)
    return fd


#: arXiv's limit on a submission's size.
ARXIV_MAX_BYTES = 50 * 1000 * 1000


def upload_check(names: List[str], directory: str) -> Check:
    bad = check_names(names)
    if bad is not None:
        return bad
    listing = "%d file%s: %s" % (len(names), "" if len(names) == 1 else "s", " ".join(names))
    size = sum(os.path.getsize(os.path.join(directory, n)) for n in names
               if os.path.isfile(os.path.join(directory, n)))
    if size > ARXIV_MAX_BYTES:
        return Check("upload", WARN, "%s; together %.0f MB, more than the %d MB arXiv "
                     "accepts: make the largest figures smaller" % (
                         listing, size / 1e6, ARXIV_MAX_BYTES // 1000000))
    return Check("upload", OK, listing)
