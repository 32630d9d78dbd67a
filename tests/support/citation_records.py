"""Paper Citation Records for the tests (spec section 5), built independently of pith_tex.

``seed()`` / ``seed_bytes()``   the published record of arXiv:2601.16956
                                (``tests/vectors/paper-citation-record-2601.16956.json``)
``canonical_bytes(value)``      the spec's canonical JSON (sorted keys, no whitespace,
                                ``ensure_ascii=False``, UTF-8), written here from the spec
``observation_digest(obs)``     ``"sha256:"`` + SHA-256 of the observation without its digest
``context_digest(record)``      ``"sha256:"`` + SHA-256 of the record without
                                ``context_digest`` and ``as_of``
``seal(record)``                recompute every observation digest, then the context digest
``generate(n_out, n_in, arxiv_id)`` a sealed record of that many observations, shaped like
                                the seed's, statuses cycling through the six states
``encode(record)``              the bytes a resolver serves (canonical, like the seed)
``observation_leaves(obs)``     every leaf path of an observation (for one-field changes)

Every function returns new objects.
"""
from __future__ import annotations

import copy
import hashlib
import json
import os
import uuid
from typing import Any, Dict, Iterator, List, Tuple

SEED_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                         "vectors", "paper-citation-record-2601.16956.json")
SEED_ID = "2601.16956"
STATUSES = ("verified_exact", "verified_fuzzy", "unresolved", "parse_uncertain",
            "malformed_identifier", "metadata_mismatch")


def seed_bytes() -> bytes:
    with open(SEED_PATH, "rb") as f:
        return f.read()


def seed() -> Dict[str, Any]:
    return json.loads(seed_bytes())


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _sha(value: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes(value)).hexdigest()


def observation_digest(obs: Dict[str, Any]) -> str:
    return _sha({k: v for k, v in obs.items() if k != "observation_digest"})


def context_digest(record: Dict[str, Any]) -> str:
    return _sha({k: v for k, v in record.items() if k not in ("context_digest", "as_of")})


def observations(record: Dict[str, Any]) -> List[Dict[str, Any]]:
    return record["outbound"] + record["inbound"]


def seal(record: Dict[str, Any]) -> Dict[str, Any]:
    rec = copy.deepcopy(record)
    for obs in observations(rec):
        obs["observation_digest"] = observation_digest(obs)
    rec["context_digest"] = context_digest(rec)
    return rec


def encode(record: Dict[str, Any]) -> bytes:
    return canonical_bytes(record)


def generate(n_out: int, n_in: int = 2, arxiv_id: str = SEED_ID) -> Dict[str, Any]:
    """A sealed record for *arxiv_id* with *n_out* outbound and *n_in* inbound observations
    varied from the seed's (ids, indices, titles, statuses), its summaries consistent."""
    base = seed()
    out_shapes, in_shapes = base["outbound"], base["inbound"]
    rec = copy.deepcopy(base)
    rec["paper"]["arxiv_id"] = arxiv_id
    rec["outbound"], rec["inbound"] = [], []
    for i in range(n_out):
        o = copy.deepcopy(out_shapes[i % len(out_shapes)])
        o["observation_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, "%s/out/%d" % (arxiv_id, i)))
        c = o["citation"]
        c["reference_index"] = i + 1
        c["citing_paper"]["arxiv_id"] = arxiv_id
        c["cited_work"]["title"] = "%s (variant %d)" % (c["cited_work"]["title"], i)
        o["links"]["citing_paper"] = "/paper/%s" % arxiv_id
        o["resolution"]["status"] = STATUSES[i % len(STATUSES)]
        rec["outbound"].append(o)
    for i in range(n_in):
        o = copy.deepcopy(in_shapes[i % len(in_shapes)])
        o["observation_id"] = str(uuid.uuid5(uuid.NAMESPACE_URL, "%s/in/%d" % (arxiv_id, i)))
        o["citation"]["cited_paper"]["arxiv_id"] = arxiv_id
        o["citation"]["citing_paper"]["arxiv_id"] = "2605.%05d" % (11215 + i)
        o["links"]["cited_paper"] = "/paper/%s" % arxiv_id
        rec["inbound"].append(o)
    counts = {s: 0 for s in STATUSES}
    for o in rec["outbound"]:
        counts[o["resolution"]["status"]] += 1
    rec["reference_resolution"] = {"displayed": n_out, "state_counts": counts,
                                   "total_outbound_references": n_out}
    rec["links"] = {k: v.replace(SEED_ID, arxiv_id) for k, v in rec["links"].items()}
    return seal(rec)


def observation_leaves(obs: Any, prefix: Tuple[Any, ...] = ()) -> Iterator[Tuple[Any, ...]]:
    """Paths to every scalar or empty container of *obs*, except ``observation_digest``."""
    if isinstance(obs, dict) and obs:
        for k, v in obs.items():
            if not prefix and k == "observation_digest":
                continue
            yield from observation_leaves(v, prefix + (k,))
    elif isinstance(obs, list) and obs:
        for i, v in enumerate(obs):
            yield from observation_leaves(v, prefix + (i,))
    else:
        yield prefix


def get_path(obj: Any, path: Tuple[Any, ...]) -> Any:
    for p in path:
        obj = obj[p]
    return obj


def set_path(obj: Any, path: Tuple[Any, ...], value: Any) -> None:
    for p in path[:-1]:
        obj = obj[p]
    obj[path[-1]] = value


def changed(value: Any) -> Any:
    """Another value in the same field: one character, one unit, or one element more."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value[:-1] + ("x" if value[-1:] != "x" else "y") if value else "x"
    if value is None:
        return ""
    if isinstance(value, list):
        return value + [None]
    if isinstance(value, dict):
        return {"x": None}
    raise TypeError(value)
