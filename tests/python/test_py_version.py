"""One version for pith-tex and pith.sty (issue 10): ``pith_tex.__version__`` (which the
wheel's metadata and ``--version`` use) is the version in pith.sty's
``\\ProvidesExplPackage``, and the manual and the CTAN README say the same."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pith_tex

ROOT = Path(__file__).resolve().parents[2]


def sty_version() -> str:
    text = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    m = re.search(r"^\\ProvidesExplPackage\{pith\}\{([0-9-]+)\}\{([^}]*)\}", text, re.M)
    assert m, "pith.sty has no \\ProvidesExplPackage{pith}{DATE}{VERSION} line"
    return m.group(2)


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
