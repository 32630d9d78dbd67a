"""Fixtures shared by all test folders live in ``tests/support/shared_fixtures.py`` (that folder
is on ``sys.path`` through ``pythonpath`` in ``[tool.pytest.ini_options]``)."""

pytest_plugins = ["shared_fixtures"]


def pytest_sessionstart(session: object) -> None:
    """latex/pith.sty and pith.sty.ltxml are generated from latex/pith.dtx (docstrip), never
    committed: a missing or stale one would test an old package, so the run stops, naming
    the way on."""
    from pathlib import Path

    import pytest

    latex = Path(__file__).resolve().parents[1] / "latex"
    sources = [latex / "pith.dtx", latex / "pith.ins"]
    if not all(p.is_file() for p in sources):
        return  # not a source tree (an installed package's tests)
    for sty in (latex / "pith.sty", latex / "pith.sty.ltxml"):
        if not sty.is_file():
            pytest.exit("latex/%s is missing: it is generated from latex/pith.dtx; run make "
                        "latex/pith.sty (or scripts/setup.sh)" % sty.name, returncode=4)
        stale = [p.name for p in sources if p.stat().st_mtime > sty.stat().st_mtime]
        if stale:
            pytest.exit("latex/%s is older than latex/%s: run make latex/pith.sty to "
                        "generate it again" % (sty.name, " and latex/".join(stale)),
                        returncode=4)
