"""The layout of ``pith_tex`` where import-linter cannot say it.

The floors (imports flow down the packages docs/development.md draws) and the absence of
import circles are import-linter's contracts in pyproject.toml, checked by ``make lint``.
Here:

* the check types import only the errors, and the record checks only what they check;
* nothing imports the entry point or the click commands;
* at most 12 modules at the top, none over 800 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Optional, Set

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "pyhelper" / "pith_tex"


def _type_checking_only(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def module_names(root: Path) -> Dict[str, Path]:
    """Every module under *root*, by its dotted name inside the package (a package by its
    own name, ``""`` for the root's ``__init__``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: Path, modules: Set[str]) -> Set[str]:
    """The modules of the package that module *name* (at *path*) imports, at any depth of
    its code; ``from PKG import x`` counts as importing ``PKG.x`` when that is a module,
    else ``PKG`` itself."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if name else []
    package = here if is_package else here[:-1]
    found: Set[str] = set()

    def resolve(node: ast.ImportFrom) -> Optional[List[str]]:
        if node.level:
            base = package[:len(package) - node.level + 1]
            return base + (node.module.split(".") if node.module else [])
        if node.module == "pith_tex" or (node.module or "").startswith("pith_tex."):
            return node.module.split(".")[1:]
        return None

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            target = resolve(node)
            if target is not None:
                base = ".".join(target)
                for a in node.names:
                    sub = (base + "." + a.name).lstrip(".")
                    found.add(sub if sub in modules else base)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith("pith_tex."):
                    found.add(a.name[len("pith_tex."):])
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return {m for m in found if m in modules} - {name}


def graph(root: Path = PKG) -> Dict[str, Set[str]]:
    mods = module_names(root)
    return {m: imports_of(m, p, set(mods)) for m, p in mods.items()}


def test_the_check_types_are_the_bottom() -> None:
    g = graph()
    assert g["checks"] <= {"errors"}
    assert g["record.recordchecks"] <= {"record.canonical", "checks", "errors"}


def test_the_top_is_small_and_no_module_is_long() -> None:
    top = sorted(p.name for p in PKG.glob("*.py"))
    assert len(top) <= 12, top
    long = {str(p.relative_to(PKG)): n for p in PKG.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 800}
    assert long == {}


def test_nothing_imports_the_entry_point_or_click_commands() -> None:
    for mod, deps in graph().items():
        if mod != "__main__":
            assert "cli" not in deps, "%s imports pith_tex.cli" % mod
        if mod != "cli":
            assert "cli.commands" not in deps, "%s imports pith_tex.cli.commands" % mod
