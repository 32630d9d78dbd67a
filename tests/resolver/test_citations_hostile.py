"""``pith-tex citations ARXIV_ID`` against a real resolver that misbehaves: the failures
``fetch`` is tested for (test_fetch_hostile.py), on ``/paper/ID/citation-record.json``
with its own body cap (8 MiB).

Every failing scenario checks: exit code 3, exactly one ``error:`` line naming the cause
and no traceback, nothing of the record printed, nothing written to the working
directory, and (for slow or endless answers) that the client hung up rather than waiting
the answer out.
"""
from __future__ import annotations

import dataclasses
from typing import Callable, List, Optional

import pytest

import citation_records as C
import server as S

# Also run against the lowest allowed dependency versions (scripts/test-floors.sh).
pytestmark = pytest.mark.hostile

AID = C.SEED_ID
PATH = "/paper/%s/citation-record.json" % AID
TIMEOUT = ["--timeout", "0.5"]
CAP = 8 * S.MIB


def body() -> bytes:
    return C.seed_bytes()


def oversized() -> bytes:
    """A valid citation record (sealed), padded past the 8 MiB cap."""
    rec = C.seed()
    rec["padding"] = "x" * (CAP + 4096)
    return C.encode(C.seal(rec))


@dataclasses.dataclass
class Case:
    replies: Callable[[], List[S.Reply]]
    words: List[str]  # the error line names one of these
    args: List[str] = dataclasses.field(default_factory=list)
    hits: Optional[tuple] = None  # (min, max) requests for the record
    hung_up: bool = False


CASES = {
    "404": Case(lambda: [], ["404"], hits=(1, 1)),
    "500-always": Case(lambda: [S.Reply(status=500, body=b"oops")], ["500"], hits=(2, 3)),
    "429-always": Case(lambda: [S.Reply(status=429, body=b"", headers={"Retry-After": "1"})],
                       ["429"], hits=(2, 3)),
    "html-200": Case(lambda: [S.Reply(body=b"<!DOCTYPE html><html><body>Sign in</body></html>",
                                      content_type="text/html")], ["HTML"]),
    "html-labelled-json": Case(lambda: [S.Reply(body=b"<html><body>Sign in</body></html>")],
                               ["HTML"]),
    "truncated": Case(lambda: [S.Reply(body=body()[:3000], declared_length=len(body()))],
                      ["truncat", str(len(body()))]),
    "truncated-no-length": Case(lambda: [S.Reply(body=body()[:3000], send_length=False)],
                                ["truncat", "JSON"]),
    "oversized": Case(lambda: [S.Reply(body=oversized())], ["8 MiB"]),
    "oversized-no-length": Case(lambda: [S.Reply(body=oversized(), send_length=False)],
                                ["8 MiB"]),
    "endless-stream": Case(lambda: [S.Reply(body=b" " * 65536, send_length=False,
                                            repeat_body=4096)], ["8 MiB"], hung_up=True),
    "gzip-bomb": Case(lambda: [S.Reply(body=S.gzip_bomb(64 * S.MIB),
                                       headers={"Content-Encoding": "gzip"})], ["8 MiB"]),
    "not-json": Case(lambda: [S.Reply(body=b"schema = pith.paper-citation-record.v1 {")],
                     ["JSON"]),
    "not-utf8": Case(lambda: [S.Reply(body=body().replace(b'"paper"', b'"p\xe4per"'))],
                     ["UTF-8"]),
    "slow": Case(lambda: [S.Reply(delay=30, body=body())], ["timed out"],
                 args=["--deadline", "20"], hits=(1, 3), hung_up=True),
    "drip-past-deadline": Case(lambda: [S.Reply(body=body(), drip=0.2)],
                               ["deadline", "timed out"], args=["--timeout", "1", "--deadline", "2"],
                               hits=(1, 1), hung_up=True),
    "json-array": Case(lambda: [S.Reply(body=b"[" + body() + b"]")], ["not a JSON object"]),
    "not-a-citation-record": Case(lambda: [S.Reply(body=b'{"record_type":"pith_number_record"}')],
                                  ["schema"]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile(name, server, cli, workdir):
    case = CASES[name]
    replies = case.replies()
    if replies:
        server.route(PATH, *replies)
    before = sorted(p.name for p in workdir.iterdir())
    res = cli("citations", AID, "--resolver", server.url, *TIMEOUT, *case.args)
    assert res.rc == 3, res
    assert "references:" not in res.out and "cited by" not in res.out, res
    assert sorted(p.name for p in workdir.iterdir()) == before
    hits = server.hits(PATH)
    assert hits, "the CLI never asked for %s" % PATH
    if case.hits:
        assert case.hits[0] <= len(hits) <= case.hits[1], hits
    if case.hung_up:
        log = [s.delivered for s in server.settle() if s.path == PATH]
        assert log and all(d is False for d in log), "a reply was waited out: %s\n%s" % (log, res)
    line = res.error_line()
    assert any(w.lower() in line.lower() for w in case.words), line
    assert PATH in line or "pith-tex" in line, line


def test_refused(cli):
    res = cli("citations", AID, "--resolver", "http://127.0.0.1:%d" % S.closed_port(), *TIMEOUT)
    assert res.rc == 3
    assert "refused" in res.error_line()


def test_500_then_200(server, cli):
    server.route(PATH, S.Reply(status=500, body=b"oops"), S.Reply(body=body()))
    res = cli("citations", AID, "--resolver", server.url)
    assert res.rc == 0, res
    assert len(server.hits(PATH)) == 2
    assert "references: 38 of 38 listed" in res.out


def test_pith_resolver_env(server, cli):
    server.route(PATH, S.Reply(body=body()))
    res = cli("citations", AID, env={"PITH_RESOLVER": server.url})
    assert res.rc == 0, res
    assert server.hits(PATH)


@pytest.mark.parametrize("name", ["404", "html-200", "oversized"])
def test_json_report_of_a_failure(name, server, cli):
    import json

    replies = CASES[name].replies()
    if replies:
        server.route(PATH, *replies)
    res = cli("citations", AID, "--resolver", server.url, "--json", *TIMEOUT)
    assert res.rc == 3
    doc = json.loads(res.out)
    assert doc["verdict"] == "could-not-check" and doc["record"] is None
    assert doc["arxiv_id"] == AID and doc["error"] in res.error_line()
