"""``pith-tex verify`` on a Dask cluster (``pip install 'pith-tex[scale]'``): the PDFs of
tar archives spread over the cluster's worker processes, one task per member.

:func:`verify_archives` is the library form (a notebook's ``Client``); ``pith-tex verify
--json --scheduler tcp://HOST:PORT ARCHIVE.tar...`` the command (:mod:`.command`).

* An uncompressed archive is listed here, without reading its members' bytes
  (:func:`pith_tex.verify.archive.iter_members` with ``read=False``): each task holds one
  member's byte range, and the worker reads those bytes from the archive itself, so the
  archives must lie where the workers read them at the same path (a shared file system).
* A compressed archive (``.tar.gz``) cannot be read from the middle: it is streamed here
  and each task carries its member's bytes.

At most *window* tasks are in flight, so an archive of any size costs the client and the
scheduler a bounded memory.  Workers should be processes with one thread each (``dask
worker --nthreads 1``, ``LocalCluster(processes=True, threads_per_worker=1)``): a process
verifies one PDF at a time (:func:`pith_tex.verify.files.verify_pdf_bytes`), and keeps its
imports and its engines' child warm from task to task.  A task whose workers died gets a
line that could not be checked (Dask retries it on another worker first).  Lines come back
in the order their tasks end.
"""

from __future__ import annotations

import os
from typing import Any, Collection, Dict, Iterator, Optional, Sequence

from distributed import Client, as_completed

from ..checks import FileOutcome
from ..verify.archive import (Key, Member, iter_members, json_line, refused_outcome,
                              verify_member)

__all__ = ["verify_archives"]


def verify_span(archive: str, path: str, name: str, offset: int, size: int,
                require_signature: bool) -> Dict[str, Any]:
    """A worker's task: the member *name* of the uncompressed archive at *path* (shown as
    *archive*), its bytes read from its range."""
    member = Member(archive, name)
    try:
        with open(path, "rb") as f:
            f.seek(offset)
            data = f.read(size)
    except OSError as e:
        out = FileOutcome(name, "pdf", None, "cannot read the archive on the worker: %s"
                          % (e.strerror or e))
        return json_line(member, out, False)
    if len(data) != size:
        return json_line(member, FileOutcome(name, "pdf", None, "cannot read: the archive "
                                             "ends inside the member"), False)
    return json_line(member, *verify_member(member._replace(data=data), require_signature))


def verify_data(member: Member, require_signature: bool) -> Dict[str, Any]:
    """A worker's task: a member whose bytes travel with it."""
    return json_line(member, *verify_member(member, require_signature))


def _plain(archive: str) -> bool:
    return archive.lower().endswith(".tar")


def _tasks(client: Client, archives: Sequence[str], require_signature: bool,
           done: Collection[Key]) -> Iterator[Any]:
    """For each member that gets a line, in order: a refused member's line (a dict), or
    the task verifying it (a future, its member in ``pith_member``)."""
    for archive in archives:
        plain = _plain(archive)
        path = os.path.abspath(archive)
        for m in iter_members(archive, done=done, read=not plain):
            if m.refused is not None:
                yield json_line(m, refused_outcome(m), False)
            elif plain and m.span is not None:
                yield m, client.submit(verify_span, archive, path, m.name, *m.span,
                                       require_signature, pure=False)
            else:
                yield m, client.submit(verify_data, m, require_signature, pure=False)


def _line(member: Member, future: Any) -> Dict[str, Any]:
    try:
        return dict(future.result())
    except Exception as e:  # noqa: BLE001 -- its workers died (KilledWorker): its own line
        return json_line(member, FileOutcome(member.name, "pdf", None, (
            "could not check this member: the Dask task failed (%s: %s)"
            % (type(e).__name__, str(e)[:200]))), False)


def verify_archives(client: Client, paths: Sequence[str], *, require_signature: bool = False,
                    done: Collection[Key] = frozenset(),
                    window: Optional[int] = None) -> Iterator[Dict[str, Any]]:
    """The JSON line of every PDF member of the tar archives *paths* (and of every member
    refused unread), verified on *client*'s cluster; the same lines as ``pith-tex verify
    --json ARCHIVE.tar``, in the order their tasks end.  *done*: ``(archive file name,
    member)`` keys to skip (:func:`pith_tex.verify.archive.done_keys`); *window*: tasks
    in flight at most (default: twice the cluster's threads)."""
    if window is None:
        window = 2 * max(1, sum(client.nthreads().values()))  # type: ignore[no-untyped-call]
    running = as_completed()  # type: ignore[no-untyped-call]
    members: Dict[str, Member] = {}
    for task in _tasks(client, paths, require_signature, done):
        if isinstance(task, dict):
            yield task
            continue
        member, future = task
        members[future.key] = member
        running.add(future)  # type: ignore[no-untyped-call]
        while running.count() >= window:  # type: ignore[no-untyped-call]
            f = next(running)
            yield _line(members.pop(f.key), f)
    for f in running:
        yield _line(members.pop(f.key), f)
