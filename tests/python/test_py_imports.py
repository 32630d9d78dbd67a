"""Imports among the ``pith_tex`` modules flow one way: no module reaches itself through
the modules it imports, counting the imports inside functions (a lazy import still makes
a circle: it only moves the moment the half-initialised module is seen).

Imports under ``if TYPE_CHECKING:`` are not counted: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set

import pytest

PKG = Path(__file__).resolve().parents[2] / "pyhelper" / "pith_tex"


def _type_checking_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports_of(source: str, modules: Set[str]) -> Set[str]:
    """The ``pith_tex`` modules that *source* imports, at any depth of its code."""
    found: Set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 and node.module:  # from .x import y
                found.add(node.module.split(".")[0])
            elif node.level == 1:  # from . import x, y
                found.update(a.name for a in node.names if a.name in modules)
            elif node.level == 0 and (node.module or "").startswith("pith_tex."):
                found.add(node.module.split(".")[1])
            elif node.level == 0 and node.module == "pith_tex":
                found.update(a.name for a in node.names if a.name in modules)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pith_tex."):
                    found.add(a.name.split(".")[1])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return found & modules


def graph(root: Path = PKG) -> Dict[str, Set[str]]:
    files = {p.stem: p for p in root.glob("*.py")}
    mods = set(files) - {"__init__", "__main__"}
    return {m: imports_of(files[m].read_text(encoding="utf-8"), mods) - {m} for m in mods}


def circles(g: Dict[str, Set[str]]) -> List[List[str]]:
    """One circle per strongly connected component with more than one module."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on: Set[str] = set()
    out: List[List[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strong(v)
    return out


#: The command-line modules (``readiness`` is now a package: see the last two tests).
COMMAND_LINE = {"cli", "commands", "readiness"}


def test_no_import_circle_among_the_verification_modules():
    g = graph()
    assert {"verify", "signatures", "pdf", "files", "checks"} <= set(g)  # the right package
    g = {m: deps - COMMAND_LINE for m, deps in g.items() if m not in COMMAND_LINE}
    assert circles(g) == [], "import circles: %s" % circles(g)


def test_no_import_circle_among_pith_tex_modules():
    g = graph()
    assert circles(g) == [], "import circles: %s" % circles(g)


def test_the_check_types_are_the_bottom():
    g = graph()
    assert g["checks"] <= {"errors", "canonical"}
    assert g["recordchecks"] <= {"canonical", "checks", "errors"}


@pytest.mark.parametrize("files, found", [
    # a lazy import inside a function closes a circle too
    ({"a": "from .b import f\n", "b": "def g():\n    from .a import h\n"}, [["a", "b"]]),
    ({"a": "from . import b\n", "b": "import pith_tex.c\n", "c": "from pith_tex import a\n"},
     [["a", "b", "c"]]),
    ({"a": "from .b import f\n", "b": "from typing import TYPE_CHECKING\n"
      "if TYPE_CHECKING:\n    from .a import h\n"}, []),
    ({"a": "from .b import f\n", "b": "from .c import g\n", "c": "x = 1\n"}, []),
])
def test_the_circle_finder_finds_circles(tmp_path, files, found):
    for name, text in files.items():
        (tmp_path / (name + ".py")).write_text(text)
    assert circles(graph(tmp_path)) == found


# -- the command line: cli on top, then commands, then readiness (a package), one way ---

def all_imports() -> Dict[str, Set[str]]:
    found: Dict[str, Set[str]] = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).with_suffix("")
        parts = list(rel.parts)
        name = ".".join(["pith_tex"] + [p for p in parts if p != "__init__"])
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: Set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = package.split(".")
                if node.level:
                    base = base[:len(base) - node.level + 1]
                    mod = ".".join(base + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets.add(mod)
                targets.update(mod + "." + a.name for a in node.names)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        found[name] = targets
    return found


def test_nothing_imports_the_entry_point_or_click_commands() -> None:
    for mod, targets in all_imports().items():
        if mod in ("pith_tex.__main__", "pith_tex.cli"):
            continue
        assert "pith_tex.cli" not in targets, "%s imports pith_tex.cli" % mod
        if mod != "pith_tex.cli":
            assert "pith_tex.commands" not in targets, "%s imports pith_tex.commands" % mod


def test_readiness_is_below_the_command_line() -> None:
    for mod, targets in all_imports().items():
        if mod.startswith("pith_tex.readiness"):
            bad = {t for t in targets if t.startswith(("pith_tex.cli", "pith_tex.commands"))}
            assert not bad, "%s imports %s" % (mod, bad)
