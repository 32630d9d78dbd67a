"""One version for pith-tex and pith.sty (issue 10): ``pith_tex.__version__`` (which the
wheel's metadata and ``--version`` use) is the version in pith.sty's
``\\ProvidesExplPackage``, and the manual and the CTAN README say the same."""

from __future__ import annotations

import hashlib
import shutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import pith_tex
import recorded
from contract import readme_include
from pith_tex.include.include import VERSION_LINE, IncludeData, parse_include, render
from texbuild import compile_tex

ROOT = Path(__file__).resolve().parents[2]


def _provides() -> "re.Match[str]":
    text = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    m = re.search(r"^\\ProvidesExplPackage\{pith\}\{([0-9-]+)\}\{([^}]*)\}", text, re.M)
    assert m, "pith.sty has no \\ProvidesExplPackage{pith}{DATE}{VERSION} line"
    return m


def sty_version() -> str:
    return _provides().group(2)


def sty_date() -> str:
    return _provides().group(1)


def test_pith_tex_and_pith_sty_share_one_version() -> None:
    assert pith_tex.__version__ == sty_version()


def test_the_version_comes_from_one_place() -> None:
    toml = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r'^dynamic = \["version"\]', toml, re.M)
    assert 'version = { attr = "pith_tex.__version__" }' in toml
    assert not re.search(r'^version = "', toml, re.M)  # no second copy


def test_cli_reports_it() -> None:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "--version"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split()[-1] == sty_version()


# --- the include names its writer; pith.sty refuses a newer one --------------------------
# The rule (docs/development.md): the version moves with every change of the include format
# or of behaviour.  An include of a newer pith-tex than the pith.sty that reads it may hold
# what that pith.sty cannot read: pith.sty refuses it before reading its keys, with a
# message naming both versions and `pith-tex fetch` as the way on.

NUMBER = "O6TNNA4XHFGPSALGBT7UWDA2Z3"
DOC = r"""\documentclass{article}
\usepackage{pith}
\pithnumber{%s}
\title{FlashRecovery: Fast and Low-Cost Recovery from Failures for Large-Scale Training of LLMs}
\begin{document}
\maketitle
\end{document}
""" % NUMBER


def _bump(version: str) -> str:
    major, minor, patch = (int(p) for p in version.split("."))
    return "%d.%d.%d" % (major, minor + 1, patch)


def _with_writer(include: str, writer: str) -> str:
    """The contract's example include as pith-tex *writer* wrote it ("": pith-tex 1.0.0,
    which named none)."""
    line = VERSION_LINE % (pith_tex.__version__, pith_tex.__version__)
    assert line in include, include[:300]
    return include.replace(line, VERSION_LINE % (writer, writer) if writer else "")


def test_the_include_names_the_pith_tex_that_wrote_it() -> None:
    text = readme_include()
    assert parse_include(text).writer == pith_tex.__version__
    old = _with_writer(text, "")  # pith-tex 1.0.0's: still parses, renders back the same
    assert parse_include(old).writer == ""
    assert render(parse_include(old)).decode("ascii") == old


def test_pith_sty_refuses_an_include_of_a_newer_pith_tex(tmp_path: Path) -> None:
    newer = _bump(sty_version())
    b = compile_tex(tmp_path, DOC, include=_with_writer(readme_include(), newer), max_runs=1)
    log = " ".join(b.log.replace("(pith)", " ").split())
    assert ("Include 'pith-number.tex' was written by pith-tex %s, which is newer than this "
            "pith.sty %s (%s). Run 'pith-tex fetch' again" % (newer, sty_version(), sty_date())
            in log), b.describe()
    assert "Unknown key" not in log


@pytest.mark.parametrize("writer", ["same", "older", "none"])
def test_pith_sty_reads_an_include_of_its_own_or_an_older_pith_tex(tmp_path: Path,
                                                                   writer: str) -> None:
    version = {"same": sty_version(), "older": "1.0.9", "none": ""}[writer]
    b = compile_tex(tmp_path, DOC, include=_with_writer(readme_include(), version),
                    max_runs=1)
    assert b.ok, b.describe()
    assert "pith-include: read pith-number.tex" in b.log
    assert "Package pith Error" not in b.log, b.describe()


# The include's bytes for the README's record (without the version line), and the keys
# pith.sty reads, under the version that first wrote them.  A change of the include format
# changes the fingerprint: move the version (`l3build tag` in latex/) and record the new
# fingerprint under the new version, so that an older pith.sty refuses the new include by
# its version (include-newer) instead of stopping on an unknown key.
FORMAT_FINGERPRINTS = {
    "1.1.0": "89ed00ed7eab584f48c3d343a2300f3e0dd87941695c3345d7c7b087da9c2653",
}


def _format_fingerprint() -> str:
    v = recorded.vector(NUMBER)
    data = IncludeData(v["number"], v["year"], v["canonical_hash"], v["canonical_record"],
                       "absent", title=v["title"], writer="")
    signed = data._replace(signature="verified", key_id="pith-v1-2026-05",
                           signature_hex="5a" * 64, title_accepted=True)
    sty = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    # the keys pith.sty reads: the list its record's reader declares them from
    keys = re.search(r"\\clist_map_inline:nn\s*\{\s*number , (.*?)\}\s*"
                     r"\{ \\bool_new:c \{ l__pith_rec_seen_", sty, re.S)
    assert keys, "pith.sty's list of include keys not found"
    h = hashlib.sha256(render(data) + render(signed) + " ".join(keys.group(1).split()).encode())
    return h.hexdigest()


def test_a_new_include_format_moves_the_version() -> None:
    assert FORMAT_FINGERPRINTS.get(pith_tex.__version__) == _format_fingerprint(), (
        "the include format (or the keys pith.sty reads) changed: move the version with "
        "`l3build tag` (in latex/) and record the new fingerprint under the new version")


def _fetch(paper: Path, tmp_path: Path, **extra: str) -> "subprocess.CompletedProcess[str]":
    env = {"PITH_TEX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin",
           "PYTHONPATH": ":".join(sys.path), **extra}
    return subprocess.run([sys.executable, "-m", "pith_tex", "fetch", "--offline",
                           "--resolver", str(ROOT / "examples" / "mirror")], cwd=paper,
                          env=env, capture_output=True, text=True, timeout=120)


def test_fetch_replaces_an_older_pith_sty_that_would_refuse_its_include(tmp_path: Path) -> None:
    """The way on that pith.sty's include-newer names: `pith-tex fetch` puts its own
    pith.sty beside the paper in place of an older one."""
    paper = tmp_path / "paper"
    shutil.copytree(ROOT / "examples" / "paper", paper)
    sty = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    old = sty.replace(_provides().group(0), "\\ProvidesExplPackage{pith}{2026-11-30}{1.0.0}")
    (paper / "pith.sty").write_text(old, encoding="utf-8")
    r = _fetch(paper, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "replaced the older pith.sty 1.0.0 (2026-11-30) beside main.tex" in r.stdout
    assert (paper / "pith.sty").read_text(encoding="utf-8") == sty


def test_fetch_writes_its_pith_sty_where_tex_finds_only_an_older_one(tmp_path: Path) -> None:
    """An older pith.sty elsewhere on TeX's path (TEXMFHOME, a TeX Live of its own) would
    refuse the include: fetch writes its own beside the main file, which TeX reads first."""
    paper = tmp_path / "paper"
    shutil.copytree(ROOT / "examples" / "paper", paper)
    elsewhere = tmp_path / "texmf"
    elsewhere.mkdir()
    sty = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    old = sty.replace(_provides().group(0), "\\ProvidesExplPackage{pith}{2026-11-30}{1.0.0}")
    (elsewhere / "pith.sty").write_text(old, encoding="utf-8")
    r = _fetch(paper, tmp_path, TEXINPUTS="%s//:" % elsewhere)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "TeX finds only the older pith.sty 1.0.0 (2026-11-30)" in r.stdout, r.stdout
    assert (paper / "pith.sty").read_text(encoding="utf-8") == sty
