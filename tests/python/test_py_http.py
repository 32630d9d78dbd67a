"""The HTTP client against a real local server (no patching of requests)."""

from __future__ import annotations

import http.server
import json
import os
import socket
import threading
import time

import pytest
from click.testing import CliRunner

import recorded
from pith_tex.cache import Cache
from pith_tex.cli import main
from pith_tex.errors import CouldNotCheck
from pith_tex.resolver import Deadline, HttpResolver

V = recorded.vectors_with_record()[0]
N = V["number"]
REC = recorded.encode(recorded.resolver_json(V))
BUN = recorded.encode(recorded.bundle_json(V))


class Server:
    """Routes: path -> list of (status, headers, body, delay); the last entry repeats."""

    def __init__(self):
        self.routes = {}
        self.hits = {}
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                try:
                    self._get()
                except OSError:  # the client hung up (oversized/timeout tests): fine
                    self.close_connection = True

            def _get(self):
                server.hits[self.path] = server.hits.get(self.path, 0) + 1
                seq = server.routes.get(self.path, [(404, {}, b"not found", 0)])
                status, headers, body, delay = seq[min(server.hits[self.path], len(seq)) - 1]
                if delay:
                    time.sleep(delay)
                self.send_response(status)
                headers = dict(headers)
                headers.setdefault("Content-Type", "application/json")
                headers.setdefault("Content-Length", str(len(body)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)
                if headers.get("Connection") == "close":
                    self.close_connection = True

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def ok(self, path, body):
        self.routes[path] = [(200, {}, body, 0)]


@pytest.fixture
def server():
    s = Server()
    yield s
    s.httpd.shutdown()
    s.httpd.server_close()


def resolver(server, timeout=5.0, deadline=30.0):
    sleeps = []
    r = HttpResolver(server.url, timeout=timeout, deadline=Deadline(deadline),
                     sleep=sleeps.append)
    return r, sleeps


def test_record_and_bundle(server):
    server.ok("/pith/%s.json" % N, REC)
    server.ok("/pith/%s/bundle.json" % N, BUN)
    r, _ = resolver(server)
    assert r.record(N).data == json.loads(REC)
    assert r.bundle(N).body == BUN


def test_bundle_404_then_well_known(server):
    r, _ = resolver(server)
    assert r.bundle(N) is None
    assert server.hits == {"/pith/%s/bundle.json" % N: 1, "/.well-known/pith/%s/bundle.json" % N: 1}
    server.ok("/.well-known/pith/%s/bundle.json" % N, BUN)
    assert r.bundle(N).body == BUN


def test_record_404(server):
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match="HTTP 404"):
        r.record(N)


def test_retries_5xx_then_succeeds(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(503, {}, b"busy", 0), (502, {}, b"", 0), (200, {}, REC, 0)]
    r, sleeps = resolver(server)
    assert r.record(N).body == REC
    assert sleeps == [0.5, 1.0]


def test_gives_up_after_three_attempts(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(500, {}, b"oops", 0)]
    r, sleeps = resolver(server)
    with pytest.raises(CouldNotCheck, match=r"HTTP 500 \(3 attempts\)"):
        r.record(N)
    assert server.hits[path] == 3 and len(sleeps) == 2


def test_retry_after_is_honoured_and_capped(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(429, {"Retry-After": "3"}, b"", 0), (429, {"Retry-After": "9999"}, b"", 0),
                           (200, {}, REC, 0)]
    r, sleeps = resolver(server)
    r.record(N)
    assert sleeps == [3.0, 10.0]


def test_retry_after_never_past_deadline(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(503, {"Retry-After": "8"}, b"", 0)]
    r, sleeps = resolver(server, deadline=5)
    with pytest.raises(CouldNotCheck, match="deadline leaves no time to retry"):
        r.record(N)
    assert sleeps == []


def test_other_4xx_is_not_retried(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(403, {}, b"", 0)]
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match="HTTP 403"):
        r.record(N)
    assert server.hits[path] == 1


@pytest.mark.parametrize("headers, body, message", [
    ({"Content-Type": "text/html"}, b"<!DOCTYPE html><p>hi</p>", "HTML page, not JSON"),
    ({}, b"<html></html>", "HTML page, not JSON"),
    ({}, b"hello", "not valid JSON"),
    ({}, b"", "empty body"),
    ({}, REC[:200], "truncated"),
    ({"Content-Length": str(len(REC) + 50), "Connection": "close"}, REC, "truncated"),
    ({}, b" " * (1 << 20) + b"{}", "larger than 1 MiB"),
    ({"Content-Length": str(5 << 20)}, b"{}", "larger than 1 MiB"),
    ({}, b"\xff\xfe{}", "not UTF-8 JSON"),
])
def test_unreadable_bodies(server, headers, body, message):
    server.routes["/pith/%s.json" % N] = [(200, headers, body, 0)]
    r, _ = resolver(server)
    with pytest.raises(CouldNotCheck, match=message):
        r.record(N)


def test_timeout(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(200, {}, REC, 2.0)]
    r, sleeps = resolver(server, timeout=0.3)
    t = time.monotonic()
    with pytest.raises(CouldNotCheck, match=r"timed out after 0.3 s \(3 attempts\)"):
        r.record(N)
    assert time.monotonic() - t < 5


def test_deadline_caps_the_whole_command(server):
    path = "/pith/%s.json" % N
    server.routes[path] = [(200, {}, REC, 6.0)]
    t = time.monotonic()
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url, "--timeout", "10",
                                  "--deadline", "1"])
    assert r.exit_code == 3
    assert time.monotonic() - t < 4.5  # the server would answer after 6 s
    assert "error:" in r.stderr


def test_connection_refused():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    r = HttpResolver("http://127.0.0.1:%d" % port, deadline=Deadline(10), sleep=lambda x: None)
    with pytest.raises(CouldNotCheck, match="connection refused"):
        r.record(N)


def test_cli_fetch_caches_and_offline_reuses(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server.ok("/pith/%s.json" % N, REC)
    server.ok("/pith/%s/bundle.json" % N, BUN)
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 0, r.output
    assert Cache().load(N) == (REC, BUN)
    server.routes.clear()
    os.unlink("pith-number.tex")
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 3 and "use --offline" in r.stderr
    r = CliRunner().invoke(main, ["fetch", N, "--offline", "--resolver", server.url])
    assert r.exit_code == 0 and os.path.exists("pith-number.tex")


def test_cli_bundle_5xx_is_could_not_check(server, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    server.ok("/pith/%s.json" % N, REC)
    server.routes["/pith/%s/bundle.json" % N] = [(500, {}, b"", 0)]
    r = CliRunner().invoke(main, ["fetch", N, "--resolver", server.url])
    assert r.exit_code == 3
    assert "ERROR signature   could not get the bundle" in r.stdout
    assert not os.path.exists("pith-number.tex")
