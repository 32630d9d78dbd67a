"""The include format is the contract between pith-tex and pith.sty, and the README shows
it. The LaTeX tests compile the README's example include; this test checks that pith-tex
writes exactly that example for the example paper's record, so the two halves cannot drift.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_include() -> str:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```latex\n(.*?)```", readme, flags=re.S)
    (block,) = [b for b in blocks if r"\pithrecord{" in b]
    return block


def test_readme_example_is_what_fetch_writes(tmp_path: Path) -> None:
    out = tmp_path / "pith-number.tex"
    subprocess.run(
        [sys.executable, "-m", "pith_tex", "fetch", "O6TNNA4XHFGPSALGBT7UWDA2Z3",
         "--offline", "--resolver", str(ROOT / "examples" / "mirror"), "-o", str(out)],
        check=True, capture_output=True, cwd=tmp_path,
        env={"PITH_TEX_CACHE_DIR": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"},
    )
    assert out.read_text(encoding="ascii") == _readme_include()
