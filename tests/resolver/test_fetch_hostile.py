"""``pith-tex fetch`` against a real resolver that misbehaves.

Every failing scenario checks the same four things:
  * the exit code (1 = verification failed, 3 = could not check);
  * exactly one ``error:`` line on stderr, no traceback, and that line names the
    cause with words taken from the scenario (status code, key id, number, ...);
  * the include that was already there is byte-for-byte untouched;
  * nothing else appeared in the working directory (no stray temp file).
"""
from __future__ import annotations

import dataclasses
import json
import re
from typing import Callable, List, Optional

import pytest

import recorded as R
import server as S
from server import OLD_INCLUDE

# Also run against the lowest allowed dependency versions (scripts/test-floors.sh).
pytestmark = pytest.mark.hostile

TIMEOUT = ["--timeout", "0.5"]


@dataclasses.dataclass
class Case:
    """setup(server, ctx) installs the scenario and returns the number to fetch."""

    setup: Callable[[S.ResolverServer, "Ctx"], str]
    rc: int
    words: Callable[["Ctx"], List[str]]  # the error line must contain one of these
    args: List[str] = dataclasses.field(default_factory=list)
    hits: Optional[Callable[[S.ResolverServer, "Ctx"], None]] = None
    # the client hung up on every request for the record before the reply was complete
    # (the server's log says so): it did not wait out a slow or endless answer
    hung_up: bool = False


@dataclasses.dataclass
class Ctx:
    a: dict  # the paper being fetched
    b: dict  # another paper
    s: dict  # a vector with a real signature (over its own digest)

    @property
    def na(self) -> str:
        return self.a["number"]


def rec_path(n: str) -> str:
    return f"/pith/{n}.json"


def good(v) -> S.Reply:
    return S.json_reply(R.resolver_json(v))


def ok_record(srv, c, *bundle_replies):
    srv.record(c.na, good(c.a))
    if bundle_replies:
        srv.bundle(c.na, *bundle_replies)
    return c.na


def only_json_path(code_hits):
    def check(srv, c):
        n = len(srv.hits(rec_path(c.na)))
        assert code_hits[0] <= n <= code_hits[1], f"{n} requests for the record, expected {code_hits}"

    return check


def consistent_lie(v) -> dict:
    """Another genuine record (hash field agrees with it), served as NUM's: not NUM's."""
    doc = R.resolver_json(R.varied(v, 1))
    doc["pith_number"], doc["short_pith_number"] = f"pith:{v['year']}:{v['number']}", f"pith:{v['number'][:8]}"
    return doc


def missing_record(v) -> dict:
    doc = R.resolver_json(v)
    del doc["canonical_record"]
    return doc


def year_lie(v) -> dict:
    doc = R.resolver_json(v)
    doc["pith_number"] = f"pith:1999:{v['number']}"
    return doc


def sig_bundle(v, sig_vec, key_id=R.PINNED_KEY_ID) -> S.Reply:
    return S.json_reply(R.bundle_json(v, receipt=R.receipt(sig_vec["signature_b64"], key_id)))


UNKNOWN_KEY = "pith-v9-2099-01"

CASES = {
    # --- transport: exit 3 -------------------------------------------------------
    "slow": Case(
        lambda srv, c: srv.record(c.na, S.Reply(delay=30, body=b"{}")) or c.na,
        # at most 3 attempts, each abandoned after --timeout: the 20 s deadline never matters
        3, lambda c: ["timed out", "timeout"], args=["--deadline", "20"],
        hits=only_json_path((1, 3)), hung_up=True,
    ),
    "404": Case(lambda srv, c: c.na, 3, lambda c: ["404"]),
    "500-always": Case(
        lambda srv, c: srv.record(c.na, S.Reply(status=500, body=b"oops")) or c.na,
        3, lambda c: ["500"], hits=only_json_path((2, 3)),
    ),
    "429-always": Case(
        lambda srv, c: srv.record(c.na, S.Reply(status=429, body=b"slow down", headers={"Retry-After": "1"})) or c.na,
        3, lambda c: ["429"], hits=only_json_path((2, 3)),
    ),
    "truncated": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=R.encode(R.resolver_json(c.a))[:300], declared_length=len(R.encode(R.resolver_json(c.a))))) or c.na,
        3, lambda c: ["truncat", "incomplete", "IncompleteRead", str(len(R.encode(R.resolver_json(c.a))))],
    ),
    "truncated-no-length": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=R.encode(R.resolver_json(c.a))[:300], send_length=False)) or c.na,
        3, lambda c: ["JSON", "truncat"],
    ),
    "html-200": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=S.html_page(c.a), content_type="text/html; charset=utf-8")) or c.na,
        3, lambda c: ["HTML"],
    ),
    "html-labelled-json": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=S.html_page(c.a))) or c.na,
        3, lambda c: ["HTML", "JSON"],
    ),
    "oversized": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=S.oversized(c.a))) or c.na,
        3, lambda c: ["1 MiB", "MiB", "too large", "size", "limit"],
    ),
    "oversized-no-length": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=S.oversized(c.a), send_length=False)) or c.na,
        3, lambda c: ["1 MiB", "MiB", "too large", "size", "limit"],
    ),
    "endless-stream": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=b" " * 65536, send_length=False, repeat_body=4096)) or c.na,
        3, lambda c: ["1 MiB", "MiB", "too large", "size", "limit"], hung_up=True,
    ),
    "gzip-bomb": Case(  # 20 MiB of JSON whitespace in ~20 KiB, sent although we asked for identity
        lambda srv, c: srv.record(c.na, S.Reply(body=S.gzip_bomb(20 * S.MIB), headers={"Content-Encoding": "gzip"})) or c.na,
        3, lambda c: ["1 MiB", "MiB", "too large", "size", "limit"],
    ),
    "not-utf8": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=R.encode(R.resolver_json(c.a)).replace(b'"paper"', b'"p\xe4per"'))) or c.na,
        3, lambda c: ["UTF-8", "JSON"],
    ),
    "not-json": Case(
        lambda srv, c: srv.record(c.na, S.Reply(body=b"pith_number = nonsense {")) or c.na,
        3, lambda c: ["JSON"],
    ),
    "missing-canonical-record": Case(
        lambda srv, c: srv.record(c.na, S.json_reply(missing_record(c.a))) or c.na,
        3, lambda c: ["canonical_record"],
    ),
    "json-array": Case(
        lambda srv, c: srv.record(c.na, S.json_reply([R.resolver_json(c.a)])) or c.na,
        3, lambda c: ["object", "canonical_record", "missing", "JSON"],
    ),
    "refused": Case(lambda srv, c: c.na, 3, lambda c: ["refused", "connect"]),
    "bundle-500": Case(
        lambda srv, c: ok_record(srv, c, S.Reply(status=500, body=b"oops")),
        3, lambda c: ["500"],
    ),
    "bundle-html": Case(
        lambda srv, c: ok_record(srv, c, S.Reply(body=S.html_page(c.a), content_type="text/html")),
        3, lambda c: ["HTML"],
    ),
    "unknown-key-id": Case(
        lambda srv, c: ok_record(srv, c, sig_bundle(c.a, c.s, key_id=UNKNOWN_KEY)),
        3, lambda c: [UNKNOWN_KEY],
    ),
    # --- verification: exit 1 --------------------------------------------------------
    "hash-altered": Case(
        lambda srv, c: srv.record(c.na, S.json_reply(S.altered_hash(c.a))) or c.na,
        1, lambda c: ["hash", "sha256"],
    ),
    "record-field-altered": Case(
        lambda srv, c: srv.record(c.na, S.json_reply(S.altered_field(c.a))) or c.na,
        1, lambda c: ["hash", "sha256"],
    ),
    "consistent-lie": Case(  # hash field agrees with the altered record, number does not
        lambda srv, c: srv.record(c.na, S.json_reply(consistent_lie(c.a))) or c.na,
        1, lambda c: [R.number_of(consistent_lie(c.a)["canonical_record"]), "derivation", "another number"],
    ),
    "another-number": Case(
        lambda srv, c: srv.record(c.na, good(c.b)) or c.na,
        1, lambda c: [c.b["number"], "another number"],
    ),
    "pith-number-names-another": Case(  # the record is A's, the pith_number field says B
        lambda srv, c: srv.record(c.na, S.json_reply(dict(R.resolver_json(c.a), pith_number=f"pith:{c.b['year']}:{c.b['number']}"))) or c.na,
        1, lambda c: [c.b["number"], "another number"],
    ),
    "year-mismatch": Case(
        lambda srv, c: srv.record(c.na, S.json_reply(year_lie(c.a))) or c.na,
        1, lambda c: ["1999"],
    ),
    "bundle-another-number": Case(
        lambda srv, c: ok_record(srv, c, S.json_reply(R.bundle_json(c.b))),
        1, lambda c: [c.b["number"], "another number", "pith_number"],
    ),
    "bad-signature": Case(
        lambda srv, c: ok_record(srv, c, sig_bundle(c.a, c.s)),
        1, lambda c: ["signature"],
    ),
    "require-signature-no-bundle": Case(
        lambda srv, c: ok_record(srv, c), 1, lambda c: ["signature", "receipt"], args=["--require-signature"],
    ),
    "require-signature-no-receipt": Case(
        lambda srv, c: ok_record(srv, c, S.json_reply(R.bundle_json(c.a))),
        1, lambda c: ["signature", "receipt"], args=["--require-signature"],
    ),
}


@pytest.fixture
def ctx(full, signed) -> Ctx:
    return Ctx(a=full[0], b=full[1], s=signed[0])


def fetch(cli, url, number, *args, **kw):
    return cli("fetch", number, "--resolver", url, "-o", "include.tex", *TIMEOUT, *args, **kw)


@pytest.mark.parametrize("name", list(CASES))
def test_hostile(name, server, ctx, cli, workdir):
    case = CASES[name]
    number = case.setup(server, ctx)
    url = f"http://127.0.0.1:{S.closed_port()}" if name == "refused" else server.url
    before = sorted(p.name for p in workdir.iterdir())

    res = fetch(cli, url, number, *case.args)

    assert res.rc == case.rc, res
    assert "Traceback" not in res.err, res
    assert res.include.read_bytes() == OLD_INCLUDE, "the old include was modified"
    assert sorted(p.name for p in workdir.iterdir()) == before, "files left behind in the working directory"
    if case.hung_up:
        log = [(s.path, s.delivered) for s in server.settle() if s.path == rec_path(number)]
        assert log and all(d is False for _, d in log), f"a reply was waited out: {log}\n{res}"
    if case.hits is not None:
        case.hits(server, ctx)
    if name != "refused":
        assert server.hits(rec_path(number)), "the CLI never asked for /pith/NUM.json"
    # last, so that a failure here is only about the stderr contract
    line = res.error_line()
    words = case.words(ctx)
    assert any(w.lower() in line.lower() for w in words), f"error line names none of {words}: {line!r}\n{res}"


# ------------------------------------------------------------------ good paths


def pick_varied(full):
    """A few vectors that differ where it matters: old-style id, version > 1, no title, cross-lists."""
    chosen = {full[0]["number"]: full[0]}
    for pred in (
        lambda v: "/" in v["canonical_record"]["source"]["id"],
        lambda v: v["canonical_record"]["source"]["version"] > 1,
        lambda v: "title" not in v or v["title"] is None,
        lambda v: len(v["canonical_record"]["metadata"]["cross_cats_sorted"]) >= 3,
        lambda v: v["canonical_record"]["metadata"]["license"] == "",
    ):
        for v in full:
            if pred(v):
                chosen.setdefault(v["number"], v)
                break
    return list(chosen.values())


def include_fields(text: str) -> dict:
    return dict(re.findall(r"^\s*([a-z0-9-]+)\s*=\s*([^,\s]+),", text, flags=re.M))


def test_good_path_varied_vectors(full, cli, tmp_path):
    """Several real vectors (one server each) -> exit 0 and an include with their values."""
    for v in pick_varied(full):
        with S.ResolverServer() as srv:
            srv.record(v["number"], good(v))
            res = fetch(cli, srv.url, v["number"])
            assert res.rc == 0, (v["number"], str(res))
            text = res.include.read_text(encoding="ascii")
            f = include_fields(text)
            assert f.get("number") == v["number"], text
            assert f.get("sha256") == v["canonical_hash"], text
            assert f.get("year") == str(v["year"]), text
            assert f.get("arxiv-id") == v["canonical_record"]["source"]["id"], text
            assert f.get("arxiv-version") == str(v["canonical_record"]["source"]["version"]), text
            assert f.get("signature") == "absent", text
            paths = {h.path for h in srv.seen}
            assert {rec_path(v["number"]), f"/pith/{v['number']}/bundle.json"} <= paths, paths


def test_good_path_report(server, ctx, cli, workdir):
    server.record(ctx.na, good(ctx.a))
    res = fetch(cli, server.url, ctx.na)
    assert res.rc == 0, res
    assert "Traceback" not in res.err and "error:" not in res.err, res
    report = res.out + res.err
    for check in ("hash", "derivation", "year"):
        assert re.search(rf"^OK\s+{check}\b", report, re.M), f"no OK line for {check}:\n{report}"
    assert re.search(r"^OK\s+signature\s+checked, unsigned\b", report, re.M), report  # nothing to do
    text = res.include.read_bytes()
    assert text != OLD_INCLUDE
    assert ctx.na.encode() in text and ctx.a["canonical_hash"].encode() in text
    assert sorted(p.name for p in workdir.iterdir()) == ["include.tex"], "temp files left behind"


def test_500_then_200(server, ctx, cli):
    server.record(ctx.na, S.Reply(status=500, body=b"oops"), good(ctx.a))
    res = fetch(cli, server.url, ctx.na)
    assert res.rc == 0, res
    assert len(server.hits(rec_path(ctx.na))) == 2
    assert ctx.a["canonical_hash"] in res.include.read_text()


def test_429_retry_after_is_honoured(server, ctx, cli):
    server.record(ctx.na, S.Reply(status=429, body=b"slow down", headers={"Retry-After": "1"}), good(ctx.a))
    res = fetch(cli, server.url, ctx.na)
    assert res.rc == 0, res
    hits = server.hits(rec_path(ctx.na))
    assert len(hits) == 2, hits
    gap = hits[1].t - hits[0].t
    assert gap >= 1.0, f"retried {gap:.3f}s after a 429 with Retry-After: 1"


def test_deadline_shorter_than_retry_after(server, ctx, cli, workdir):
    server.record(ctx.na, S.Reply(status=429, body=b"slow down", headers={"Retry-After": "5"}), good(ctx.a))
    res = fetch(cli, server.url, ctx.na, "--deadline", "1.5")
    assert res.rc == 3, res
    line = res.error_line()
    assert any(w in line.lower() for w in ("429", "deadline", "retry-after")), line
    # (that it does not even sleep towards the deadline: test_py_http's recorded sleeps)
    assert len(server.hits(rec_path(ctx.na))) == 1, "retried past the deadline"
    assert res.include.read_bytes() == OLD_INCLUDE


def test_huge_retry_after_is_capped(server, ctx, cli):
    """Retry-After: 3600 must not stall for an hour: the wait is capped (~10 s; the cap's
    value is checked on recorded sleeps in test_py_http.py)."""
    server.record(ctx.na, S.Reply(status=429, body=b"", headers={"Retry-After": "3600"}), good(ctx.a))
    res = fetch(cli, server.url, ctx.na, "--deadline", "30", timeout=45)  # timeout: hang guard
    hits = server.hits(rec_path(ctx.na))
    if res.rc == 0:  # retried after a capped wait
        assert len(hits) == 2
    else:  # or gave up at once, naming the 429
        assert res.rc == 3 and "429" in res.error_line(), res


def test_slow_drip_respects_deadline(server, ctx, cli, workdir):
    """Each chunk arrives within --timeout, but the whole body would take ~60 s."""
    server.record(ctx.na, S.Reply(body=R.encode(R.resolver_json(ctx.a)), drip=0.2))
    res = fetch(cli, server.url, ctx.na, "--timeout", "1", "--deadline", "2")
    assert res.rc == 3, res
    line = res.error_line()
    assert any(w in line.lower() for w in ("deadline", "timed out", "timeout")), line
    # the client hung up while the body was still dripping in, and did not retry
    log = [(s.path, s.delivered) for s in server.settle()]
    assert log == [(rec_path(ctx.na), False)], log
    assert res.include.read_bytes() == OLD_INCLUDE


def test_pith_resolver_env(server, ctx, cli):
    server.record(ctx.na, good(ctx.a))
    res = cli("fetch", ctx.na, "-o", "include.tex", *TIMEOUT, env={"PITH_RESOLVER": server.url})
    assert res.rc == 0, res
    assert server.hits(rec_path(ctx.na)), "PITH_RESOLVER was not used"
    assert ctx.a["canonical_hash"] in res.include.read_text()


def test_exit_1_beats_bundle_problems(server, ctx, cli):
    """A record that fails verification is a failure (1) even if the bundle is unreachable."""
    server.record(ctx.na, S.json_reply(S.altered_hash(ctx.a)))
    server.bundle(ctx.na, S.Reply(status=500))
    res = fetch(cli, server.url, ctx.na)
    assert res.rc == 1, res
    assert res.include.read_bytes() == OLD_INCLUDE


def test_file_too_large(server, ctx, cli, workdir):
    """A real write failure (RLIMIT_FSIZE, as on a full quota): clear error, old include intact."""
    import resource
    import signal

    limit = 64  # bytes: smaller than any include, larger than nothing

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # get EFBIG instead of being killed
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    server.record(ctx.na, good(ctx.a))
    res = fetch(cli, server.url, ctx.na, preexec_fn=limit_writes)
    assert res.rc == 3, res  # a write failure is "could not check" (pith_tex/errors.py)
    line = res.error_line()
    assert any(w in line.lower() for w in ("too large", "efbig", "no space", "write", "include.tex")), line
    assert res.include.read_bytes() == OLD_INCLUDE
    assert sorted(p.name for p in workdir.iterdir()) == ["include.tex"], "temp file left behind"


def test_hostile_answer_is_never_cached(server, ctx, cli, workdir):
    """A response that failed verification must not become the --offline answer later,
    while a verified one does (positive control: the cache is really used)."""
    server.record(ctx.na, S.json_reply(S.altered_hash(ctx.a)))
    assert fetch(cli, server.url, ctx.na).rc == 1
    off = fetch(cli, server.url, ctx.na, "--offline")
    assert off.rc == 3, off
    assert ctx.na in off.error_line()
    assert workdir.joinpath("include.tex").read_bytes() == OLD_INCLUDE

    server.record(ctx.na, good(ctx.a))
    assert fetch(cli, server.url, ctx.na).rc == 0
    workdir.joinpath("include.tex").write_bytes(OLD_INCLUDE)
    served = len(server.seen)
    off = fetch(cli, server.url, ctx.na, "--offline")
    assert off.rc == 0, off
    assert len(server.seen) == served, "--offline went to the network"
    assert ctx.a["canonical_hash"] in workdir.joinpath("include.tex").read_text()


@pytest.mark.parametrize("name", ["404", "html-200", "hash-altered", "bad-signature"])
def test_json_report_of_a_failure(name, server, ctx, cli):
    """--json: exactly one JSON object on stdout whose exit_code and verdict match the exit
    status, and the error line still on stderr."""
    case = CASES[name]
    number = case.setup(server, ctx)
    res = fetch(cli, server.url, number, "--json", *case.args)
    assert res.rc == case.rc, res
    doc = json.loads(res.out)  # the whole of stdout is one JSON document
    assert doc["exit_code"] == res.rc
    assert doc["verdict"] == {1: "failed", 3: "could-not-check"}[res.rc]
    assert doc["number"] == number
    assert res.include.read_bytes() == OLD_INCLUDE
    line = res.error_line()
    assert any(w.lower() in line.lower() for w in case.words(ctx)), line


def test_each_retry_is_reported_on_stderr(server, ctx, cli):
    server.record(ctx.na, S.Reply(status=503, body=b"busy"), good(ctx.a))
    res = fetch(cli, server.url, ctx.na)
    assert res.rc == 0, res
    retries = [ln for ln in res.err.splitlines() if ln.startswith("retry: ")]
    assert len(retries) == 1, res
    assert "HTTP 503" in retries[0] and "retrying in" in retries[0]
    assert "attempt 2 of" in retries[0]
