"""SourceTree (check's one listing of the paper) walks as os.walk walks, on real trees:
dot directories, links to directories and files, dangling links, FIFOs."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, List, Tuple

import pytest

from pith_tex.safeio import NotRegularFile
from pith_tex.sourcetree import SourceTree

Walk = List[Tuple[str, List[str], List[str]]]


def _tree(tmp_path: Path) -> Path:
    d = tmp_path / "paper"
    for rel in ("main.tex", "sec/a.tex", "sec/deep/b.tex", ".git/config", "figs/x.pdf",
                "__pycache__/c.pyc", ".hidden.tex"):
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(rel)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "inside").mkdir(parents=True)
    (elsewhere / "inside" / "out.tex").write_text("x")
    os.symlink(elsewhere, d / "linked-dir")
    os.symlink(d / "main.tex", d / "sec" / "link.tex")
    os.symlink(tmp_path / "nowhere", d / "dangling.tex")
    os.mkfifo(d / "sec" / "fifo.tex")
    return d


def _replay(walk: Callable[[], object], prune: Callable[[str, List[str]], List[str]]) -> Walk:
    out: Walk = []
    for root, dirs, files in walk():  # type: ignore[attr-defined]
        dirs[:] = prune(root, dirs)
        out.append((root, sorted(dirs), sorted(files)))
    return out


@pytest.mark.parametrize("prune", [
    lambda root, dirs: sorted(dirs),
    lambda root, dirs: sorted(d for d in dirs if not d.startswith(".")),  # the sources
    lambda root, dirs: sorted(d for d in dirs if not d.startswith(".")  # the copy
                              and d != "__pycache__"
                              and not os.path.islink(os.path.join(root, d))),
])
def test_the_walk_is_os_walk(tmp_path: Path, prune: Callable[[str, List[str]], List[str]]
                             ) -> None:
    d = str(_tree(tmp_path))
    tree = SourceTree(d)
    assert _replay(tree.walk, prune) == _replay(lambda: os.walk(d), prune)
    assert _replay(tree.walk, prune) == _replay(lambda: os.walk(d), prune)  # and again
    assert sorted(tree.listdir()) == sorted(os.listdir(d))
    assert sorted(tree.listdir(os.path.join(d, "sec"))) == sorted(os.listdir(d + "/sec"))


def test_texts_and_their_errors_are_kept(tmp_path: Path) -> None:
    d = _tree(tmp_path)
    tree = SourceTree(str(d))
    assert tree.text(str(d / "main.tex")) == "main.tex"
    (d / "main.tex").write_text("changed")
    assert tree.text(str(d / "sec" / ".." / "main.tex")) == "main.tex"  # read once
    for _ in range(2):
        with pytest.raises(NotRegularFile):
            tree.text(str(d / "sec" / "fifo.tex"))  # refused, never opened: no block
    with pytest.raises(FileNotFoundError):
        SourceTree(str(tmp_path / "missing")).listdir()
    assert list(SourceTree(str(tmp_path / "missing")).walk()) == []


def test_a_file_the_run_writes_is_listed(tmp_path: Path) -> None:
    d = _tree(tmp_path)
    tree = SourceTree(str(d))
    assert "pith.sty" not in tree.listdir()
    (d / "pith.sty").write_text("new")
    tree.wrote("pith.sty")
    assert "pith.sty" in tree.listdir()
    assert tree.text(str(d / "pith.sty")) == "new"
