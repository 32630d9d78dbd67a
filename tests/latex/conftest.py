"""Shared setup for the LaTeX tests: import path and a loud tool check."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import texrun  # noqa: E402


@pytest.fixture(scope="session", autouse=True)
def tex_tools() -> None:
    """Every LaTeX test needs the whole toolchain: a missing engine is a
    failure (ToolMissing), never a skip."""
    try:
        texrun.require_all()
    except texrun.ToolMissing as exc:  # pragma: no cover - machine setup
        pytest.fail(str(exc), pytrace=False)
