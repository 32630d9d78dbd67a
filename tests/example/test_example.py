"""The README's main command, end to end: `make example` verifies the example paper's number
against the mirror shipped in examples/ and compiles it; the PDF must carry the badge.

Expected values come from the mirror's recorded resolver answer, not from this file.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import qrdecode  # tests/support: zbar and zxing-cpp

ROOT = Path(__file__).resolve().parents[2]
MIRROR = ROOT / "examples" / "mirror"


def _recorded() -> dict:
    (path,) = (MIRROR / "pith").glob("*.json")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    for tool in ("make", "pdflatex", "pdfinfo", "pdftotext"):
        assert shutil.which(tool), f"{tool} is not installed: run scripts/setup.sh"
    paper = tmp_path_factory.mktemp("example") / "paper"
    shutil.copytree(ROOT / "examples" / "paper", paper)
    subprocess.run(
        ["make", "-C", str(ROOT), "--no-print-directory", "example", f"PAPER={paper}"],
        check=True,
        capture_output=True,
        text=True,
    )
    return paper


def test_include_carries_the_verified_record(built: Path) -> None:
    rec = _recorded()
    number = rec["pith_number"].rsplit(":", 1)[1]
    include = (built / "pith-number.tex").read_bytes()
    assert include.isascii()
    text = include.decode()
    assert f"number = {number}," in text
    assert f"sha256 = {rec['canonical_sha256']}," in text
    assert f"arxiv-id = {rec['source']['id']}," in text


def test_pdf_metadata_and_link(built: Path) -> None:
    rec = _recorded()
    number = rec["pith_number"].rsplit(":", 1)[1]
    pdf = built / "main.pdf"
    info = subprocess.run(
        ["pdfinfo", "-custom", str(pdf)], check=True, capture_output=True, text=True
    ).stdout
    keys = dict(
        (k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in info.splitlines())
    )
    assert keys["PithNumber"] == rec["pith_number"]
    assert keys["PithSHA256"] == rec["canonical_sha256"]
    # The mirror's bundle has no receipt, so the record is verified but unsigned.
    assert keys["PithVerification"] == "verified-unsigned"
    # hyperref's own Title (pdfusetitle) survives, free of badge text.
    assert keys["Title"].startswith(rec["paper"]["title"].split(":")[0])
    assert "pith" not in keys["Title"].lower()
    urls = subprocess.run(
        ["pdfinfo", "-url", str(pdf)], check=True, capture_output=True, text=True
    ).stdout
    assert f"https://pith.science/pith/{number}" in urls.split()


def test_badge_text_on_page_one(built: Path) -> None:
    rec = _recorded()
    page1 = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(built / "main.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert rec["pith_number"] in page1


def test_qr_code_on_page_one_scans_to_the_pith_url(built: Path) -> None:
    number = _recorded()["pith_number"].rsplit(":", 1)[1]
    for tool in ("pdftoppm", "zbarimg"):
        assert shutil.which(tool), f"{tool} is not installed: run scripts/setup.sh"
    subprocess.run(["pdftoppm", "-r", "150", "-gray", "-f", "1", "-l", "1",
                    str(built / "main.pdf"), str(built / "page")], check=True)
    (pgm,) = built.glob("page*.pgm")
    # Scheme and host in upper case (QR alphanumeric mode), the path exactly.
    want = ["HTTPS://PITH.SCIENCE/pith/" + number]
    assert qrdecode.zbar(pgm) == want
    assert qrdecode.zxing(pgm) == want


def test_the_built_pdf_verifies_itself(built: Path) -> None:
    # The PDF carries its record: `pith-tex verify` recomputes the number offline.
    # The tests' own interpreter: pith-tex need not be on PATH (only in .venv).
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(built / "main.pdf")],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    (f,) = json.loads(r.stdout)["files"]
    checks = {c["name"]: c["status"] for c in f["checks"]}
    assert checks["hash"] == checks["derivation"] == checks["badge"] == "ok"
