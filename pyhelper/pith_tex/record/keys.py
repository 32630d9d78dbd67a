"""The pinned resolver keys and the keyring that verifies receipts with them.

The command line always uses :func:`pinned_keyring`.  A :class:`Keyring` built from other
keys exists for the library API only (tests sign with a throwaway key); neither an option
nor an environment variable can add a key.
"""

from __future__ import annotations

import base64
from typing import Any, Dict, List, Mapping, NamedTuple, Optional

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from ..errors import CouldNotCheck, show


class PinnedKey(NamedTuple):
    key_id: str
    algorithm: str
    public_key_b64: str

    @property
    def raw(self) -> bytes:
        return base64.b64decode(self.public_key_b64, validate=True)


#: Spec section 3.  The tests check the key against its published fingerprint
#: (first 16 bytes of sha256 of the raw key, hex).
PINNED_KEYS: Mapping[str, PinnedKey] = {
    "pith-v1-2026-05": PinnedKey(
        key_id="pith-v1-2026-05",
        algorithm="ed25519",
        public_key_b64="stVStoiQhXFxp4s2pdzPNoqVNBMojDU/fJ2db5S3CbM=",
    ),
}


class Keyring:
    """Ed25519 public keys by key id; verifies a signature over a message."""

    def __init__(self, keys: Mapping[str, bytes]) -> None:
        for key_id, raw in keys.items():
            if len(raw) != 32:
                raise ValueError("Ed25519 public key %r is not 32 bytes" % key_id)
        self._raw: Dict[str, bytes] = dict(keys)
        self._loaded: Dict[str, Any] = {}

    def __contains__(self, key_id: object) -> bool:
        return key_id in self._raw

    def key_ids(self) -> List[str]:
        return sorted(self._raw)

    def verify(self, key_id: str, signature: bytes, message: bytes) -> bool:
        """True when *signature* is a valid Ed25519 signature of *message* by *key_id*.

        Raises :class:`CouldNotCheck` for a key id this keyring does not hold.
        """
        key = self._loaded.get(key_id)
        if key is None:
            raw = self._raw.get(key_id)
            if raw is None:
                raise CouldNotCheck(
                    "receipt signed with unknown key id %s (pinned: %s); update pith-tex"
                    % (show(key_id), ", ".join(self.key_ids()) or "none")
                )
            key = self._loaded[key_id] = Ed25519PublicKey.from_public_bytes(raw)
        try:
            key.verify(signature, message)
        except InvalidSignature:
            return False
        return True


_pinned: Optional[Keyring] = None


def pinned_keyring() -> Keyring:
    """The keyring of :data:`PINNED_KEYS` (built once per process)."""
    global _pinned
    if _pinned is None:
        _pinned = Keyring({k.key_id: k.raw for k in PINNED_KEYS.values()})
    return _pinned
