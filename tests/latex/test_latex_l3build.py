"""Run pith.sty's l3build suite (log tests + per-route PDF tests).

Each configuration runs in its own copy of latex/ so that pytest-xdist
workers never share l3build's build/ directory.  A failure shows the
l3build output and every .diff it wrote.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import texrun

CONFIGS = ["build", "config-pdftex", "config-xetex", "config-luatex", "config-dvips"]

# The TeX Live releases the references were saved on: NAME.tlg and NAME.ROUTE.tpf for
# TeX Live 2022, NAME.tl2026.tlg and NAME.ROUTE.tl2026.tpf for TeX Live 2026 (the chroot
# of scripts/newer-tex.sh).  They compare bytes that change between releases for reasons
# that have nothing to do with pith: the PDF version, object and font numbering,
# Ghostscript's producer string, and in the logs the kernel's message wrapping (TeX Live
# 2026: messages no longer wrapped at 79 columns).  The driver tells build.lua which set to
# use (PITH_TEXLIVE); on a release without references the suite is skipped, with that
# reason.  Save a set with `PITH_TEXLIVE=YEAR l3build save -c CONFIG NAME...`.
REFERENCE_RELEASES = (2022, 2026)


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
    if release not in REFERENCE_RELEASES:
        pytest.skip(f"l3build references were saved on TeX Live {REFERENCE_RELEASES}; this "
                    f"is TeX Live {release}, whose logs and PDF bytes differ (docs/texlive.md)")
    work = _copy_latex(tmp_path / "latex")
    p = subprocess.run(
        [texrun.tool("l3build"), "check", "-c", config],
        cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        errors="replace", timeout=900, env={**os.environ, "PITH_TEXLIVE": str(release)},
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
    _no_error_before_start(work / "build")


def _no_error_before_start(build: Path) -> None:
    """l3build compares a test's log only from \\START on, after the preamble that loads
    pith.sty: an error there (the kernel's check-declarations or deprecation errors, which
    every test turns on before loading pith) would pass unseen.  Each test's whole log is
    read up to its \\START."""
    # TeX's own logs (NAME.log beside NAME.lvt), not l3build's NAME.ENGINE.log
    logs = sorted(p for p in build.glob("test*/*.log")
                  if p.with_suffix(".lvt").exists() or p.with_suffix(".pvt").exists())
    assert logs, f"no test logs under {build}"
    stopped = []
    for log in logs:
        head = log.read_text(errors="replace").split("START-TEST-LOG")[0]
        errors = [line for line in head.splitlines() if line.startswith("! ")]
        if errors:
            stopped.append(f"{log.name}: {errors[0]}")
    assert not stopped, "errors before \\START (loading pith.sty):\n" + "\n".join(stopped)


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
