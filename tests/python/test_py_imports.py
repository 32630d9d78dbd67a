"""The layout of ``pith_tex``: one subpackage per concern, imports flowing one way.

* No module reaches itself through the modules it imports, counting the imports inside
  functions (a lazy import still makes a circle: it only moves the moment the
  half-initialised module is seen).  Imports under ``if TYPE_CHECKING:`` are not counted:
  they never run.
* Between packages, imports flow down :data:`ORDER` (the order docs/development.md draws),
  never up; the modules at the top of ``pith_tex`` are the bottom every package uses, and
  import no package.
* At most 12 modules at the top, none over 800 lines.
* ``pith-tex --help`` and ``verify`` of a record stay lazy: they import only what they use.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set

import pytest

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "pyhelper" / "pith_tex"

#: The packages, top first: a module may import from its own package, from a package
#: below its own, and from the bottom modules (``""``: the top of ``pith_tex``).
ORDER = ["cli", "scale", "fetch", "check", "verify", "citations", "pdf", "title", "include",
         "resolver", "record", ""]


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


def package_of(module: str, root: Path = PKG) -> str:
    """The first-level package *module* lives in; ``""`` for the modules at the top."""
    first = module.split(".")[0]
    return first if (root / first).is_dir() else ""


def upward(g: Dict[str, Set[str]], order: List[str], root: Path = PKG) -> List[str]:
    """Every import that goes up :data:`ORDER` (or into a package it does not list)."""
    bad = []
    for m, deps in sorted(g.items()):
        if m == "__main__":  # ``python -m pith_tex``: the entry point, above every package
            continue
        pm = package_of(m, root)
        for d in sorted(deps):
            pd = package_of(d, root)
            if pm == pd:
                continue
            if pm not in order or pd not in order or order.index(pd) < order.index(pm):
                bad.append("%s -> %s" % (m or "pith_tex", d or "pith_tex"))
    return bad


def test_no_import_circle_among_pith_tex_modules() -> None:
    g = graph()
    assert {"record.verify", "record.signatures", "pdf.verify", "verify.files",
            "checks"} <= set(g)  # the right package
    assert circles(g) == [], "import circles: %s" % circles(g)


def test_imports_flow_down_the_packages() -> None:
    g = graph()
    assert {package_of(m) for m in g} == set(ORDER), "a package ORDER does not place"
    assert upward(g, ORDER) == []


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


@pytest.mark.parametrize("files, found", [
    # a lazy import inside a function closes a circle too
    ({"a.py": "from .b import f\n", "b.py": "def g():\n    from .a import h\n"}, [["a", "b"]]),
    ({"a.py": "from . import b\n", "b.py": "import pith_tex.c\n",
      "c.py": "from pith_tex import a\n"}, [["a", "b", "c"]]),
    ({"a.py": "from .b import f\n", "b.py": "from typing import TYPE_CHECKING\n"
      "if TYPE_CHECKING:\n    from .a import h\n"}, []),
    ({"a.py": "from .b import f\n", "b.py": "from .c import g\n", "c.py": "x = 1\n"}, []),
    # across packages, relative imports of any depth
    ({"p/__init__.py": "", "p/a.py": "from ..q.b import f\n", "q/__init__.py": "",
      "q/b.py": "def g():\n    from ..p import a\n"}, [["p.a", "q.b"]]),
    ({"p/__init__.py": "from .a import f\n", "p/a.py": "from .. import c\n",
      "c.py": "from .p import f\n"}, [["c", "p", "p.a"]]),
])
def test_the_circle_finder_finds_circles(tmp_path, files, found) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    assert circles(graph(tmp_path)) == found


def test_the_order_check_finds_an_upward_import(tmp_path) -> None:
    files = {"low/__init__.py": "", "low/a.py": "def f():\n    from ..high.b import g\n",
             "high/__init__.py": "", "high/b.py": "from ..low.a import f\n",
             "errors.py": "from .low import a\n"}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    assert upward(graph(tmp_path), ["high", "low", ""], tmp_path) == [
        "errors -> low.a", "low.a -> high.b"]


# --- what the two fast commands load --------------------------------------------------

def _loaded(args: List[str]) -> Set[str]:
    code = ("import sys\nfrom pith_tex.cli import main\n"
            "try:\n    main(%r, 'pith-tex')\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\nLOADED ' + ' '.join(sorted(m for m in sys.modules "
            "if m.startswith('pith_tex') or m == 'click')))" % (args,))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=120)
    return set(r.stderr.rpartition("\nLOADED ")[2].split())


def test_help_loads_only_the_entry_point_and_the_help_text() -> None:
    assert _loaded(["--help"]) == {"pith_tex", "pith_tex.cli", "pith_tex.cli.helptext"}


def test_verify_of_a_record_loads_no_pdf_check_include_or_click(tmp_path) -> None:
    record = tmp_path / "record.json"
    record.write_text('{"record_type": "pith_number_record"}')
    loaded = _loaded(["verify", str(record)])
    assert "pith_tex.verify.files" in loaded  # it did verify
    heavy = {m for m in loaded if m in ("click", "pith_tex.cli.commands") or any(
        (m + ".").startswith("pith_tex.%s." % p)
        for p in ("pdf", "check", "include", "title", "resolver"))}
    assert heavy == set()
