"""The PDFs of tar archives (arXiv's bulk PDFs, ``arXiv_pdf_YYMM_NNN.tar``), streamed.

A tar file (``.tar``, ``.tar.gz``, ``.tgz``) is read in order, never extracted to disk: an
uncompressed one in place (a member passed over is seeked past), a compressed one as a
stream (tarfile's ``r|*``); and each PDF member is held in memory only while it is
verified (:func:`pith_tex.verify.files.pdf_bytes_outcome`, the same verification as a
file's).  A member gets one line:

* a regular file named ``*.pdf``, at most :data:`pith_tex.pdf.claims.MAX_PDF_BYTES`: its
  verification;
* a link (symbolic or hard), a device, a FIFO, a member larger than the cap, or a name that
  would leave the archive's directory when extracted (absolute, ``..``, a control
  character): refused, not read and never followed (a line that could not be checked);
* a directory, or a regular file by another name: no line (counted as skipped).

Lines come out in the archive's order whatever the number of workers
(:func:`archive_results`: ``--jobs`` worker processes, started once, each verifying PDF
after PDF with its imports and engines warm).  A line is keyed by the archive's file name
and the member's name, which ``--resume`` skips (:func:`done_keys`).
"""

from __future__ import annotations

import collections
import functools
import json
import multiprocessing
import os
import tarfile
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import (Any, Callable, Collection, Deque, Dict, Generator, Iterator, NamedTuple,
                    Optional, Set, Tuple)

from ..checks import FileOutcome
from ..errors import CouldNotCheck, safe_name, show
from ..report import file_json, file_line
from ..safeio import open_regular
from .batch import warm
from .files import pdf_bytes_outcome

#: A member larger than this is refused unread, as a file is (pith_tex.pdf.claims's cap,
#: written here so that listing an archive imports no PDF reader).
MAX_MEMBER_BYTES = 256 * 1024 * 1024
ARCHIVE_SUFFIXES = (".tar", ".tar.gz", ".tgz")

#: How gzip, bzip2 and xz files start.
_COMPRESSED = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ")

Key = Tuple[str, str]  # the archive's file name, the member's name


def is_archive_name(path: str) -> bool:
    """A path named as a tar file (``.tar``, ``.tar.gz``, ``.tgz``, any case)."""
    return path.lower().endswith(ARCHIVE_SUFFIXES)


def key_of(archive: str, member: str) -> Key:
    """The key of a member's line: the archive's file name (where it lies does not
    matter to a rerun) and the member's name."""
    return os.path.basename(archive), member


class Member(NamedTuple):
    """One member that gets a line: its *data* (a PDF's bytes) or why it was *refused*."""

    archive: str
    name: str
    data: Optional[bytes] = None
    refused: Optional[str] = None
    #: Where the member's bytes lie in an uncompressed archive (offset, size), for a
    #: worker that reads them itself (:mod:`pith_tex.scale`).
    span: Optional[Tuple[int, int]] = None


def _bad_name(name: str) -> bool:
    parts = name.replace("\\", "/").split("/")
    return (name.startswith(("/", "\\")) or ".." in parts or (len(name) > 1 and name[1] == ":")
            or any(ord(c) < 32 or ord(c) == 127 for c in name))


def refusal(info: tarfile.TarInfo, cap: int = MAX_MEMBER_BYTES) -> Optional[str]:
    """Why the member *info* is not read (None: it is read, or skipped)."""
    if info.issym():
        return "a symbolic link (to %s): not followed" % show(info.linkname, 80)
    if info.islnk():
        return "a hard link (to %s): not followed" % show(info.linkname, 80)
    if not info.isfile() and not info.isdir():
        return "a %s, not a regular file: not read" % (
            "FIFO" if info.isfifo() else "device" if info.isdev() else "special member")
    if _bad_name(info.name):
        return "its name would leave the archive's directory (%s): not read" % show(
            info.name, 80)
    if info.isfile() and info.size > cap:
        return "larger than %d MiB: not read" % (cap >> 20)
    return None


def _skipped(info: tarfile.TarInfo) -> bool:
    """A member that gets no line: a directory, or a regular file not named ``*.pdf``."""
    return info.isdir() or (info.isfile() and not info.name.lower().endswith(".pdf"))


class Listing:
    """What streaming an archive met besides its lines: members skipped and done."""

    def __init__(self) -> None:
        self.skipped = 0
        self.resumed = 0


def iter_members(archive: str, *, done: Collection[Key] = frozenset(),
                 listing: Optional[Listing] = None, cap: int = MAX_MEMBER_BYTES,
                 progress: Optional[Callable[[int], Any]] = None,
                 read: bool = True) -> Iterator[Member]:
    """The members of *archive* that get a line, in order, streamed (read only as far as
    needed; nothing written to disk); members whose key is in *done* are passed over.
    *progress* gets the bytes of the archive file read so far.  With *read* False, a
    member's bytes are not read: its *span* says where they lie (an uncompressed archive
    only).  Raises :class:`CouldNotCheck` for a file that is not a tar archive (after the
    members read before the damage)."""
    listing = listing if listing is not None else Listing()
    try:
        raw = open(open_regular(archive), "rb")
    except OSError as e:
        raise CouldNotCheck("cannot read %s: %s" % (safe_name(archive),
                                                     e.strerror or e)) from None
    with raw:
        try:
            # an uncompressed archive is read in place: a member passed over is seeked
            # past, not read; a compressed one is streamed
            compressed = raw.peek(6)[:6].startswith(_COMPRESSED)
            if compressed and not read:
                raise CouldNotCheck("%s is compressed: its members' bytes cannot be read "
                                    "from their place" % safe_name(archive))
            with tarfile.open(fileobj=raw, mode="r|*" if compressed else "r:") as tar:
                for info in tar:
                    if progress is not None:
                        progress(raw.tell())
                    why = refusal(info, cap)
                    if why is None and _skipped(info):
                        listing.skipped += not info.isdir()
                        continue
                    if key_of(archive, info.name) in done:
                        listing.resumed += 1
                        continue
                    if why is not None:
                        yield Member(archive, info.name, refused=why)
                    elif not read:
                        yield Member(archive, info.name, span=(info.offset_data, info.size))
                    else:
                        f = tar.extractfile(info)
                        assert f is not None  # a regular file
                        yield Member(archive, info.name, data=f.read(cap + 1))
        except (tarfile.TarError, EOFError, OSError) as e:
            raise CouldNotCheck("%s is not a readable tar archive (%s: %s)" % (
                safe_name(archive), type(e).__name__, show(str(e), 80))) from None


def refused_outcome(member: Member) -> FileOutcome:
    return FileOutcome(member.name, "member", None, "refused: %s" % member.refused)


def verify_member(member: Member, require_signature: bool = False) -> Tuple[FileOutcome, bool]:
    """The outcome of one member, and whether it is a PDF with no Pith claim at all."""
    if member.refused is not None or member.data is None:
        return refused_outcome(member), False
    return pdf_bytes_outcome(member.data, member.name, require_signature=require_signature)


def json_line(member: Member, out: FileOutcome, no_claim: bool) -> Dict[str, Any]:
    """A member's JSON line: the archive, the member, whether it carries no Pith Number,
    then what ``verify --json`` gives a file."""
    return {"archive": member.archive, "member": member.name, "no_pith_number": no_claim,
            **file_json(out)}


def text_line(member: Member, out: FileOutcome, no_claim: bool) -> str:
    """A member's line without ``--json``: ``ARCHIVE:MEMBER`` as the file's name."""
    where = "%s:%s" % (member.archive, member.name)
    if no_claim:
        return "--    %s  no Pith Number: the PDF carries no Pith metadata" % safe_name(where)
    return file_line(out._replace(path=where))


def done_keys(path: str) -> Set[Key]:
    """The keys of the lines of an earlier ``verify --json`` run in the JSON Lines file
    *path* (``--resume``), read a line at a time (a run over the whole archive writes GBs).
    A last line cut short (the run was killed while writing it) is cut off the file, so
    that the lines appended after it stay one a line."""
    keys: Set[Key] = set()
    try:
        with open(path, "r+b") as f:
            end = 0
            for line in f:
                if not line.endswith(b"\n"):
                    f.truncate(end)
                    break
                end += len(line)
                key = _key_of_line(line)
                if key is not None:
                    keys.add(key)
    except FileNotFoundError:
        return keys
    except OSError as e:
        raise CouldNotCheck("cannot resume from %s: %s" % (safe_name(path),
                                                           e.strerror or e)) from None
    return keys


def _key_of_line(line: bytes) -> Optional[Key]:
    try:
        obj = json.loads(line)
    except ValueError:
        return None
    if isinstance(obj, dict) and isinstance(obj.get("archive"), str) \
            and isinstance(obj.get("member"), str):
        return key_of(obj["archive"], obj["member"])
    return None


def _work(args: Tuple[Member, bool]) -> Tuple[FileOutcome, bool]:
    return verify_member(*args)


Verified = Tuple[Member, FileOutcome, bool]


def archive_results(archives: Collection[str], *, jobs: int, require_signature: bool = False,
                    done: Collection[Key] = frozenset(), listing: Optional[Listing] = None,
                    progress: Optional[Callable[[str, int], Any]] = None
                    ) -> Generator[Verified, None, None]:
    """``(member, outcome, no claim)`` for every member of *archives* that gets a line, in
    the archives' order, verified by *jobs* worker processes (1: in this process).  A
    worker that dies (killed, out of memory) ends the run with :class:`CouldNotCheck`
    after every line before the PDF it held; ``--resume`` finishes the rest."""
    def members() -> Iterator[Member]:
        for a in archives:
            at: Optional[Callable[[int], Any]] = None
            if progress is not None:
                at = functools.partial(progress, a)
            yield from iter_members(a, done=done, listing=listing, progress=at)

    if jobs <= 1:
        for m in members():
            yield (m, *verify_member(m, require_signature))
        return
    window: Deque[Tuple[Member, Optional[Future[Tuple[FileOutcome, bool]]]]] = \
        collections.deque()
    ctx = multiprocessing.get_context("spawn")  # see pith_tex.verify.batch
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=warm)
    damaged: Optional[CouldNotCheck] = None
    stream = members()
    try:
        while True:
            try:
                m = next(stream)
            except StopIteration:
                break
            except CouldNotCheck as e:  # a damaged archive: what was read gets its lines
                damaged = e
                break
            work = None if m.refused is not None else pool.submit(_work, (m, require_signature))
            window.append((m._replace(data=None), work))
            while len(window) > 2 * jobs:
                yield _done(window.popleft(), window)
        while window:
            yield _done(window.popleft(), window)
    finally:  # Ctrl-C or a dead worker: what is queued is not started
        pool.shutdown(wait=True, cancel_futures=True)
    if damaged is not None:
        raise damaged


def _done(entry: Tuple[Member, Optional["Future[Tuple[FileOutcome, bool]]"]],
          window: Deque[Any]) -> Verified:
    member, work = entry
    if work is None:
        return member, refused_outcome(member), False
    try:
        return (member, *work.result())
    except BrokenProcessPool:
        raise CouldNotCheck("a worker process died while verifying %s:%s (killed, or out of "
                            "memory); %d PDF%s in flight not verified: rerun with --resume "
                            "FILE (the JSON Lines written so far) to finish" % (
                                safe_name(member.archive), safe_name(member.name),
                                len(window) + 1, "" if not window else "s")) from None
