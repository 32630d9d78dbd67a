"""Messages an author meets, each saying what to do next (issue 10, "Messages that
mislead"): the real ``pith-tex`` in a subprocess, against the example mirror on disk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict

import pytest

ROOT = Path(__file__).resolve().parents[3]
MIRROR = ROOT / "examples" / "mirror"
N = "O6TNNA4XHFGPSALGBT7UWDA2Z3"  # the example mirror's record, from 2025, unsigned


@pytest.fixture
def env(tmp_path: Path) -> Dict[str, str]:
    return dict(os.environ, PITH_TEX_CACHE_DIR=str(tmp_path / "cache"))


def pith_tex(cwd: Path, env: Dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pith_tex", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("typed", ["2509.03047", "arXiv:2509.03047v1", "hep-th/9901001",
                                   "https://arxiv.org/abs/2509.03047"])
def test_an_arxiv_id_is_named_as_one(tmp_path: Path, env: Dict[str, str], typed: str) -> None:
    r = pith_tex(tmp_path, env, "fetch", typed, "--offline", "--resolver", str(MIRROR))
    assert r.returncode == 2
    assert "is an arXiv id, not a Pith Number" in r.stderr and "Pith page" in r.stderr
    assert "did you mean" not in r.stderr


def test_a_wrong_year_is_not_printed_as_ok(tmp_path: Path, env: Dict[str, str]) -> None:
    r = pith_tex(tmp_path, env, "fetch", "pith:2024:" + N, "--offline", "--resolver",
                 str(MIRROR))
    assert r.returncode == 2
    year = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["year"]]
    assert len(year) == 1 and year[0].startswith("FAIL"), r.stdout
    assert "2024" in r.stderr and "2025" in r.stderr
    assert not (tmp_path / "pith-number.tex").exists()


def test_unsigned_cached_record_is_not_called_tampered(tmp_path: Path,
                                                        env: Dict[str, str]) -> None:
    cache = Path(env["PITH_TEX_CACHE_DIR"]) / "v1"
    cache.mkdir(parents=True)
    shutil.copy(MIRROR / "pith" / (N + ".json"), cache / (N + ".json"))
    shutil.copy(MIRROR / "pith" / N / "bundle.json", cache / (N + ".bundle.json"))
    r = pith_tex(tmp_path, env, "fetch", N, "--offline")
    assert r.returncode == 0, r.stderr  # the cached copy is good
    r = pith_tex(tmp_path, env, "fetch", N, "--offline", "--require-signature")
    assert r.returncode == 1
    assert "tampered" not in r.stderr and "delete it" not in r.stderr
    assert "unsigned" in r.stderr


def test_no_receipt_is_not_a_warning_on_every_fetch(tmp_path: Path,
                                                     env: Dict[str, str]) -> None:
    r = pith_tex(tmp_path, env, "fetch", N, "--offline", "--resolver", str(MIRROR))
    assert r.returncode == 0
    assert not [ln for ln in r.stdout.splitlines() if ln.startswith("WARN")], r.stdout
    (sig,) = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["signature"]]
    assert "unsigned" in sig and "--require-signature" in sig


def test_verify_dir_looks_at_the_include_beside_it(tmp_path: Path,
                                                    env: Dict[str, str]) -> None:
    r = pith_tex(tmp_path, env, "fetch", N, "--offline", "--resolver", str(MIRROR))
    assert r.returncode == 0
    r = pith_tex(tmp_path, env, "verify", ".")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pith-number.tex" in r.stdout
    assert r.stdout.splitlines()[-1] == "1 file: 1 verified, 0 failed, 0 could not be checked"


def test_fix_does_not_say_pith_sty_is_missing(tmp_path: Path, env: Dict[str, str]) -> None:
    shutil.copy(ROOT / "examples" / "paper" / "main.tex", tmp_path / "main.tex")
    r = pith_tex(tmp_path, env, "fetch", "--offline", "--resolver", str(MIRROR))
    assert r.returncode == 0
    os.unlink(tmp_path / "pith.sty")  # fetch wrote it; the author lost it
    r = pith_tex(tmp_path, env, "check", "--fix")
    (line,) = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["pith.sty"]]
    assert line.startswith("OK") and "--fix copied" in line
    assert "is missing:" not in line
    assert r.returncode == 0, r.stdout + r.stderr


def test_fetch_names_the_fix_for_an_older_pith_sty(tmp_path: Path, env: Dict[str, str]) -> None:
    shutil.copy(ROOT / "examples" / "paper" / "main.tex", tmp_path / "main.tex")
    sty = (ROOT / "latex" / "pith.sty").read_text(encoding="utf-8")
    old = sty.replace("\\ProvidesExplPackage{pith}{", "\\ProvidesExplPackage{pith}{2000-01-01}"
                      "{0.1}% was {", 1)
    (tmp_path / "pith.sty").write_text(old, encoding="utf-8")
    r = pith_tex(tmp_path, env, "fetch", "--offline", "--resolver", str(MIRROR))
    assert r.returncode == 0, r.stderr
    # The include fetch writes names a newer pith-tex, which the older pith.sty would
    # refuse (include-newer): fetch puts its own in its place, and says so.
    (line,) = [ln for ln in r.stdout.splitlines() if ln.split()[1:2] == ["pith.sty"]]
    assert line.startswith("OK") and "replaced the older pith.sty 0.1 (2000-01-01)" in line
    assert (tmp_path / "pith.sty").read_text(encoding="utf-8") == sty


def test_fetch_into_a_missing_directory_says_so(tmp_path: Path, env: Dict[str, str]) -> None:
    # "-o sub/dir/x.tex" where sub/ does not exist said "could not write ...: No such file
    # or directory; the previous file is unchanged": there was no previous file, and the
    # cause (the directory) was not named.
    r = pith_tex(tmp_path, env, "fetch", N, "--offline", "--resolver", str(MIRROR),
                 "-o", "sub/dir/x.tex")
    assert r.returncode == 3, r.stdout + r.stderr
    assert "the directory sub/dir does not exist; nothing was written" in r.stderr, r.stderr
    assert "previous file" not in r.stderr
    assert not (tmp_path / "sub").exists()
