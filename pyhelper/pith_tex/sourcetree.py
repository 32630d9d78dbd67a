"""A paper's directory read once: each directory listed once, each text file read once.

``check`` asks the same questions of the paper's directory in many checks (which
``.tex`` files are there, what the main file says, which files it ``\\input``\\s); a
:class:`SourceTree` answers them all from one listing of each directory and one read of
each file.  :meth:`SourceTree.walk` replays :func:`os.walk` (top-down, links to
directories not followed, a directory that cannot be listed left out) from those
listings, so every check keeps its own rule for what it looks at; :meth:`SourceTree.text`
is :func:`pith_tex.safeio.read_tex` with its answer, or its error, kept.

Nothing here is refreshed: a file the run writes in the directory itself (``--fix``
writes pith.sty) is told with :meth:`SourceTree.wrote`.

This is a bottom module: it imports nothing from pith_tex but :mod:`pith_tex.safeio`.
"""

from __future__ import annotations

import os
from typing import Dict, Iterator, List, Tuple, Union

from .safeio import read_tex

#: One directory's entries as :func:`os.walk` sorts them: directories (links to
#: directories too), then everything else.
Entries = Tuple[List[str], List[str]]


class SourceTree:
    """The directory *directory* (a path as the caller gives it: the paths
    :meth:`walk` yields start with it), listed and read at most once."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        self._listed: Dict[str, Union[Entries, OSError]] = {}
        self._texts: Dict[str, Union[str, OSError]] = {}

    def entries(self, path: str) -> Entries:
        """The directories and other entries of the directory *path*, as :func:`os.walk`
        tells them apart (:meth:`os.DirEntry.is_dir`, which follows links); the
        :class:`OSError` of listing it, raised again on each call."""
        key = os.path.abspath(path)
        if key not in self._listed:
            self._listed[key] = _list(path)
        found = self._listed[key]
        if isinstance(found, OSError):
            raise found
        return list(found[0]), list(found[1])

    def listdir(self, path: str = "") -> List[str]:
        """:func:`os.listdir` of *path* (default: the directory itself), from the one
        listing."""
        dirs, other = self.entries(path or self.directory)
        return dirs + other

    def walk(self) -> Iterator[Tuple[str, List[str], List[str]]]:
        """:func:`os.walk` of the directory (top-down: prune *dirs* in place to leave a
        directory out), each directory listed once for the whole run."""
        yield from self._walk(self.directory)

    def _walk(self, top: str) -> Iterator[Tuple[str, List[str], List[str]]]:
        try:
            dirs, other = self.entries(top)
        except OSError:
            return  # os.walk leaves out what it cannot list
        yield top, dirs, other
        for name in dirs:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                yield from self._walk(path)

    def text(self, path: str) -> str:
        """:func:`pith_tex.safeio.read_tex` of *path*, read once (its error too)."""
        key = os.path.abspath(path)
        if key not in self._texts:
            try:
                self._texts[key] = read_tex(path)
            except OSError as e:
                self._texts[key] = e
        found = self._texts[key]
        if isinstance(found, OSError):
            raise found
        return found

    def wrote(self, name: str) -> None:
        """The run wrote the file *name* at the top of the directory: listed from now on,
        and read afresh."""
        self._texts.pop(os.path.abspath(os.path.join(self.directory, name)), None)
        top = self._listed.get(os.path.abspath(self.directory))
        if isinstance(top, tuple) and name not in top[0] + top[1]:
            top[1].append(name)


def _list(path: str) -> Union[Entries, OSError]:
    dirs: List[str] = []
    other: List[str] = []
    try:
        with os.scandir(path) as it:
            for entry in it:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                (dirs if is_dir else other).append(entry.name)
    except OSError as e:
        return e
    return dirs, other
