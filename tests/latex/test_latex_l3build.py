"""Run pith.sty's l3build suite (log tests + per-route PDF tests).

Each configuration runs in its own copy of latex/ so that pytest-xdist
workers never share l3build's build/ directory.  A failure shows the
l3build output and every .diff it wrote.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import texrun

CONFIGS = ["build", "config-pdftex", "config-xetex", "config-luatex", "config-dvips"]

# The TeX Live release the references (testfiles/*.tlg, testfiles-pdf/*.tpf) were
# saved on: change it with them (`l3build save`).  They compare bytes that
# change between releases for reasons that have nothing to do with pith: the
# PDF version, object and font numbering, Ghostscript's producer string, and in
# the logs the kernel's message wrapping and errors (TeX Live 2026: messages no
# longer wrapped at 79 columns; "Loading a class or package in a group").  On
# another release they are skipped, with that reason; the behaviour they pin is
# also read back from real PDFs by the other LaTeX tests, which run everywhere.
REFERENCE_RELEASE = 2022


def _copy_latex(dst: Path) -> Path:
    src = texrun.LATEX_DIR
    dst.mkdir(parents=True, exist_ok=True)
    for p in src.iterdir():
        if p.name == "build" or p.suffix in {".pdf", ".log", ".aux"}:
            continue
        if p.is_dir():
            shutil.copytree(p, dst / p.name)
        else:
            shutil.copy(p, dst / p.name)
    return dst


@pytest.mark.parametrize("config", CONFIGS)
def test_l3build_check(tmp_path: Path, config: str) -> None:
    release = texrun.texlive_release()
    if release != REFERENCE_RELEASE:
        pytest.skip(f"l3build references were saved on TeX Live {REFERENCE_RELEASE}; this is "
                    f"TeX Live {release}, whose logs and PDF bytes differ (docs/texlive.md)")
    work = _copy_latex(tmp_path / "latex")
    p = subprocess.run(
        [texrun.tool("l3build"), "check", "-c", config],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        errors="replace", timeout=900,
    )
    if p.returncode != 0:
        diffs = []
        for d in sorted((work / "build").glob("test*/*.diff")):
            diffs.append(f"----- {d.relative_to(work)} -----\n"
                         + d.read_text(errors="replace"))
        pytest.fail(
            f"l3build check -c {config} failed (exit {p.returncode})\n"
            f"{p.stdout[-4000:]}\n" + "\n".join(diffs),
            pytrace=False,
        )
    assert "All checks passed" in p.stdout, p.stdout[-2000:]


def test_l3build_covers_every_message() -> None:
    """Every message pith.sty defines is provoked by some log test."""
    sty = texrun.STY.read_text()
    import re

    names = set(re.findall(r"\\msg_new:nnnn? \{ pith \} \{ ([a-z-]+) \}", sty))
    tlgs = "\n".join(p.read_text() for p in (texrun.LATEX_DIR / "testfiles").glob("*.tlg"))
    assert names, "no messages found in pith.sty"
    # The first words of each message, as they appear in the .tlg files.
    probes = {
        "bad-char": "contains '",
        "bad-length": "characters, not 26",
        "short-form": "is a short form",
        "number-twice": "used twice with different numbers",
        "include-format": "which this",
        "include-newer": "which is newer than this pith.sty",
        "include-unknown-key": "Unknown key '",
        "include-duplicate-key": "given twice in include",
        "include-bad-value": "has the invalid value",
        "include-missing-key": "lacks the key",
        "include-key-id": "has a key-id but",
        "include-mismatch": "is for Pith Number",
        "include-year-mismatch": "gives the year",
        "no-include": "No include '",
        "no-number": "No Pith Number given",
        "late-number": "came after page 1",
        "include-used": "from include",
        "qr-bad": "Invalid \\pithqrcode block",
        "no-qr": "No QR code to draw",
        "qr-small": "QR code too small to scan",
        "badge-corner": "shipped out without the title badge",
        "badge-missed": "without the title badge, although",
        "badge-rerun": "Rerun to get the badge on page 1.",
        "badge-corner-aux": "went to page 2 in the last run",
        "no-badge": "but no \\pithbadge was used",
        "anonymous": "Package pith Info: Anonymous (",
        "include-line": "is not part of the include format",
        "include-incomplete": "ends inside the",
        "include-encoding": "holds a character that",
        "margin-narrow": "of placement=margin (",
        "margin-qr": "cannot hold the QR",
        "margin-notes": "has margin notes in its right margin",
        "margin-left": "has margin notes: the stamp of",
        "no-link": "hyperref's links are off in this",
        "corner-qr": "cannot hold the QR code of the",
        "corner-qr-smaller": "would reach into the",
        "beamer-fit": "The title frame is full",
        "beamer-full": "cannot hold the badge turned at 4pt",
    }
    assert names == set(probes), f"messages without a probe: {names ^ set(probes)}"
    missing = [n for n, s in probes.items() if s not in tlgs]
    assert not missing, f"messages not covered by a .tlg: {missing}"
    assert "kernel too old" in tlgs
