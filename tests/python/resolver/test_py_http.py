"""The HTTP client against a real local server (no patching of requests).

The server is the shared one of ``tests/support/server.py`` (a scenario table of
``Reply`` objects, the n-th request for a path gets the n-th reply, the last repeats).
"""

from __future__ import annotations

import json
import os

import pytest
from click.testing import CliRunner

import recorded
from server import Reply, closed_port
from pith_tex.resolver.cache import Cache
from pith_tex.cli import main
from pith_tex.errors import CouldNotCheck
from pith_tex.resolver.client import Deadline, HttpResolver

V = recorded.vectors_with_record()[0]
N = V["number"]
REC = recorded.encode(recorded.resolver_json(V))
BUN = recorded.encode(recorded.bundle_json(V))


def resolver(server, timeout=5.0, deadline=30.0):
    sleeps = []
    r = HttpResolver(server.url, timeout=timeout, deadline=Deadline(deadline),
                     sleep=sleeps.append)
    return r, sleeps


def test_record_and_bundle(server):
    server.route("/pith/%s.json" % N, Reply(body=REC))
    server.route("/pith/%s/bundle.json" % N, Reply(body=BUN))
    r, _ = resolver(server)
    assert r.record(N).data == json.loads(REC)
    assert r.bundle(N).body == BUN


def test_bundle_404_then_well_known(server):
    r, _ = resolver(server)
    assert r.bundle(N) is None
    assert server.counts() == {"/pith/%s/bundle.json" % N: 1, "/.well-known/pith/%s/bundle.json" % N: 1}
    server.route("/.well-known/pith/%s/bundle.json" % N, Reply(body=BUN))
    assert r.bundle(N).body == BUN


def test_record_404(server):
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match="HTTP 404") as e:
        r.record(N)
    assert "check the number" in e.value.message  # a typo is the likely cause: say so


def test_retries_5xx_then_succeeds(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(status=503, body=b"busy"), Reply(status=502), Reply(body=REC))
    r, sleeps = resolver(server)
    assert r.record(N).body == REC
    assert sleeps == [0.5, 1.0]


def test_gives_up_after_three_attempts(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(status=500, body=b"oops"))
    r, sleeps = resolver(server)
    with pytest.raises(CouldNotCheck, match=r"HTTP 500 \(3 attempts\)"):
        r.record(N)
    assert server.counts()[path] == 3 and len(sleeps) == 2


def test_retry_after_is_honoured_and_capped(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(status=429, headers={"Retry-After": "3"}),
                 Reply(status=429, headers={"Retry-After": "9999"}), Reply(body=REC))
    r, sleeps = resolver(server)
    r.record(N)
    assert sleeps == [3.0, 10.0]


def test_retry_after_never_past_deadline(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(status=503, headers={"Retry-After": "8"}))
    r, sleeps = resolver(server, deadline=5)
    with pytest.raises(CouldNotCheck, match="deadline leaves no time to retry"):
        r.record(N)
    assert sleeps == []


def test_other_4xx_is_not_retried(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(status=403))
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match="HTTP 403"):
        r.record(N)
    assert server.counts()[path] == 1


@pytest.mark.parametrize("reply, message", [
    (Reply(content_type="text/html", body=b"<!DOCTYPE html><p>hi</p>"), "HTML page, not JSON"),
    (Reply(body=b"<html></html>"), "HTML page, not JSON"),
    (Reply(body=b"hello"), "not valid JSON"),
    (Reply(body=b""), "empty body"),
    (Reply(body=REC[:200]), "truncated"),
    (Reply(body=REC, declared_length=len(REC) + 50), "truncated"),  # then the server closes
    (Reply(body=b" " * (1 << 20) + b"{}"), "larger than 1 MiB"),
    (Reply(body=b"{}", declared_length=5 << 20), "larger than 1 MiB"),
    (Reply(body=b"\xff\xfe{}"), "not UTF-8 JSON"),
    # a hostile resolver's nesting: "could not check", not an internal error
    (Reply(body=b"[" * 200000 + b"]" * 200000), "nested too deeply"),
], ids=["html-type", "html-body", "not-json", "empty", "short", "short-declared", "big",
        "big-declared", "not-utf8", "deep"])
def test_unreadable_bodies(server, reply, message):
    server.route("/pith/%s.json" % N, reply)
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match=message):
        r.record(N)


def test_timeout(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(body=REC, delay=2.0))
    r, sleeps = resolver(server, timeout=0.3)
    with pytest.raises(CouldNotCheck, match=r"timed out after 0.3 s \(3 attempts\)"):
        r.record(N)
    assert len(sleeps) == 2
    # the server's log: three requests, each abandoned before its (delayed) reply was sent
    assert [(s.path, s.delivered) for s in server.settle()] == [(path, False)] * 3


def test_deadline_caps_the_whole_command(server):
    path = "/pith/%s.json" % N
    server.route(path, Reply(body=REC, delay=6.0))
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url, "--timeout", "10",
                                  "--deadline", "1"])
    assert r.exit_code == 3
    (line,) = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert "deadline" in line or "timed out" in line, line
    # one request, abandoned before the reply due after 6 s (--timeout alone would wait 10 s)
    assert [(s.path, s.delivered) for s in server.settle()] == [(path, False)]


def test_connection_refused():
    r = HttpResolver("http://127.0.0.1:%d" % closed_port(), deadline=Deadline(10), sleep=lambda x: None)
    with pytest.raises(CouldNotCheck, match="connection refused"):
        r.record(N)


def test_cli_fetch_with_no_connection_says_what_to_do(tmp_path, monkeypatch):
    # Every failure's error line says what to do: with nothing cached and no connection,
    # that is the network (or another resolver), not only "could not connect".
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", "http://127.0.0.1:%d" % closed_port()])
    assert r.exit_code == 3, r.output
    line = r.stderr.strip().splitlines()[-1]
    assert line.startswith("error:") and "could not connect" in line, line
    assert "check the network" in line and "--resolver" in line, line


def test_cli_fetch_caches_and_offline_reuses(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server.route("/pith/%s.json" % N, Reply(body=REC))
    server.route("/pith/%s/bundle.json" % N, Reply(body=BUN))
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 0, r.output
    assert Cache().load(N) == (REC, BUN)
    server.clear()
    os.unlink("pith-number.tex")
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 3 and "use --offline" in r.stderr
    r = CliRunner().invoke(main, ["fetch", N, "--offline", "--resolver", server.url])
    assert r.exit_code == 0 and os.path.exists("pith-number.tex")


def test_cli_bundle_5xx_is_could_not_check(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server.route("/pith/%s.json" % N, Reply(body=REC))
    server.route("/pith/%s/bundle.json" % N, Reply(status=500))
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 3
    assert "ERROR signature   could not get the bundle" in r.stdout
    assert not os.path.exists("pith-number.tex")


@pytest.mark.parametrize("reply", [Reply(drip_status=0.2), Reply(drip_headers=0.2),
                                   Reply(body=b" " * 16, repeat_body=10 ** 6, drip=0.2,
                                         send_length=False)],
                         ids=["status-line", "headers", "body"])
def test_deadline_ends_a_drip_and_hangs_up(server, reply):
    # --timeout (30 s per socket read) never trips on a drip; the deadline does, and the
    # abandoned connection is shut down, not left to the server (in-process, no exit
    # closes it): the server sees the hang-up.
    path = "/pith/%s.json" % N
    server.route(path, reply)
    r, sleeps = resolver(server, timeout=30, deadline=1.5)
    with pytest.raises(CouldNotCheck, match=r"the 1.5 s deadline passed \(--deadline\)"):
        r.record(N)
    assert sleeps == []
    assert [(s.path, s.delivered) for s in server.settle()] == [(path, False)]
