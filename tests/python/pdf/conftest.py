"""The honest PDFs the hostile tests (test_py_hostile_*.py) tamper with: compiled once per
test process, on first use."""

from __future__ import annotations

import pytest

from hostile_corpus import Honest


@pytest.fixture(scope="session")
def honest(tmp_path_factory: pytest.TempPathFactory) -> Honest:
    return Honest(tmp_path_factory.mktemp("honest"))
