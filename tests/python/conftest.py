"""Fixtures for the pith_tex tests.  No test touches the network or the user's cache."""

from __future__ import annotations

import pytest

import recorded  # tests/support, on sys.path through pytest's ``pythonpath`` ini option


@pytest.fixture(autouse=True)
def _isolated_env(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("PITH_TEX_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.delenv("PITH_RESOLVER", raising=False)
    monkeypatch.delenv("PITH_TEX_DEBUG", raising=False)


@pytest.fixture
def mirror(tmp_path):
    """A mirror on disk of every vector with a record (bundles without receipts)."""
    return recorded.write_mirror(str(tmp_path / "mirror"), recorded.vectors_with_record())


@pytest.fixture(scope="session")
def throwaway_key():
    """(private key, raw public key bytes) of a fresh Ed25519 key."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    priv = Ed25519PrivateKey.generate()
    raw = priv.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    return priv, raw
