"""Fixtures shared by every test folder (registered in ``tests/conftest.py``).

``server``  a started :class:`server.ResolverServer` on 127.0.0.1, one per test, so
            request logs never mix.
"""
from __future__ import annotations

import pytest

import server as srvmod


@pytest.fixture
def server():
    with srvmod.ResolverServer() as s:
        yield s
