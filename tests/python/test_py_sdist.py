"""The sdist is what distributions rebuild and test from: built with ``python -m build
--sdist`` as a packager builds it, unpacked, and a part of its own test suite run there,
with pith_tex imported from the unpacked sources (an sdist has no symlinks: its pith.sty
is a copy, which the suite must accept)."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: A part of the suite that needs no TeX: the shipped pith.sty, the one version, the docs'
#: links (the sdist must carry every file the docs link to).
SDIST_TESTS = ["tests/python/check/test_py_check.py::test_shipped_sty_is_the_repository_file",
               "tests/python/test_py_version.py::test_pith_tex_and_pith_sty_share_one_version",
               "tests/python/test_py_version.py::test_a_new_include_format_moves_the_version",
               "tests/python/test_py_docs.py::test_every_relative_link_resolves"]


def test_the_sdist_runs_its_own_tests(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "-o", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (sdist,) = out.glob("pith_tex-*.tar.gz")
    with tarfile.open(sdist) as tar:
        assert not [m.name for m in tar.getmembers() if m.issym() or m.islnk()]
        tar.extractall(tmp_path / "unpacked")
    (src,) = (tmp_path / "unpacked").iterdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env["PYTHONPATH"] = str(src / "pyhelper")  # before any installed pith_tex
    where = subprocess.run([sys.executable, "-c", "import pith_tex; print(pith_tex.__file__)"],
                           cwd=src, env=env, capture_output=True, text=True, timeout=60)
    assert Path(where.stdout.strip()).is_relative_to(src), where.stdout + where.stderr
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "-p", "no:xdist"] + SDIST_TESTS, cwd=src, env=env,
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-3000:]
    assert " passed" in r.stdout and "skipped" not in r.stdout, r.stdout[-2000:]
