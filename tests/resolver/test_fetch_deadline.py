"""One deadline for the whole command, same-origin redirects, bodies that never end or
explode: ``pith-tex fetch`` against a hostile server on 127.0.0.1.

Each case runs the real CLI in a child capped in memory (``bounded.limit_memory``) and
given ``--deadline`` + 20 s of wall time by ``subprocess.run(timeout=...)``: that limit is
not a measurement of speed, it only turns "it never stops" into a failure.  What is
asserted is that it stops on its own, with exit 3 and a message that names the cause
(the deadline, the redirect, the size), and that the old include is untouched.

``--timeout`` is set far above ``--deadline`` in the drip cases, so only the deadline
can end them: requests applies its timeout to each socket read, which a server sending
one byte every half second never trips.
"""
from __future__ import annotations

import gzip
import socket
import zlib

import pytest

import bounded
import recorded as R
import server as S
from server import OLD_INCLUDE

# Also run against the lowest allowed dependency versions (scripts/test-floors.sh).
pytestmark = pytest.mark.hostile

# Long enough that a loaded CI machine has connected and sent the request before it
# passes (the message names the phase it stopped in), short enough to keep the file quick.
DEADLINE = 5
GUARD = DEADLINE + 20  # the child must be gone by then (it is not a timing assertion)
SLOW = ["--timeout", "30", "--deadline", str(DEADLINE)]


@pytest.fixture
def vec(full):
    return full[0]


def fetch(cli, server, number, *args):
    return cli("fetch", number, "--resolver", server.url, "-o", "include.tex", *args,
               timeout=GUARD, preexec_fn=bounded.limit_memory)


def good(v) -> S.Reply:
    return S.json_reply(R.resolver_json(v))


def assert_refused(res, *words):
    assert res.rc == 3, res
    line = res.error_line()
    for w in words:
        assert w in line, line
    assert res.include.read_bytes() == OLD_INCLUDE
    assert sorted(p.name for p in res.cwd.iterdir()) == ["include.tex"]
    return line


# ---------------------------------------------------------------- the deadline

DRIPS = {
    "status-line": S.Reply(drip_status=0.5),
    "headers": S.Reply(drip_headers=0.5),
    "body": S.Reply(body=b" " * 16, repeat_body=10 ** 6, drip=0.5, send_length=False),
}


@pytest.mark.parametrize("name", list(DRIPS))
def test_dripping_record_ends_at_the_deadline(name, server, cli, vec):
    n = vec["number"]
    server.record(n, DRIPS[name])
    res = fetch(cli, server, n, *SLOW)
    line = assert_refused(res, "the %d s deadline passed (--deadline)" % DEADLINE)
    phase = "reading the body" if name == "body" else "waiting for the status line"
    assert phase in line
    # one request, abandoned: the client hung up before the (endless) reply was complete
    assert [(s.path, s.delivered) for s in server.settle()] == [("/pith/%s.json" % n, False)]


def test_dripping_bundle_ends_at_the_deadline(server, cli, vec):
    n = vec["number"]
    server.record(n, good(vec))
    server.bundle(n, S.Reply(drip_headers=0.5))
    res = fetch(cli, server, n, *SLOW)
    assert_refused(res, "could not get the bundle", "deadline passed")


def test_connect_that_never_completes_ends_at_the_deadline(cli, vec):
    # A listener whose accept queue is full: the kernel drops the SYNs, so connect()
    # waits (--timeout 30 would let it) until the deadline ends the command.
    lst = socket.socket()
    lst.bind(("127.0.0.1", 0))
    lst.listen(0)
    port = lst.getsockname()[1]
    fillers = []
    try:
        for _ in range(4):
            c = socket.socket()
            c.setblocking(False)
            c.connect_ex(("127.0.0.1", port))
            fillers.append(c)
        res = cli("fetch", vec["number"], "--resolver", "http://127.0.0.1:%d" % port,
                  "-o", "include.tex", *SLOW, timeout=GUARD, preexec_fn=bounded.limit_memory)
    finally:
        for c in fillers:
            c.close()
        lst.close()
    line = assert_refused(res, "the %d s deadline passed (--deadline) while" % DEADLINE)
    assert "connecting" in line or "status line" in line, line


# ---------------------------------------------------------------- redirects


def test_same_origin_redirects_are_followed_up_to_three(server, cli, vec):
    n = vec["number"]
    server.record(n, S.Reply(status=301, headers={"Location": "/a/%s.json" % n}))
    server.route("/a/%s.json" % n, S.Reply(status=302, headers={"Location": "b.json"}))
    server.route("/a/b.json", S.Reply(status=307, headers={
        "Location": "%s/c/%s.json" % (server.url, n)}))
    server.route("/c/%s.json" % n, good(vec))
    res = fetch(cli, server, n)
    assert res.rc == 0, res
    assert "wrote include.tex" in res.out
    assert server.counts()["/c/%s.json" % n] == 1


def test_redirect_loop_stops_after_three(server, cli, vec):
    n = vec["number"]
    server.record(n, S.Reply(status=302, headers={"Location": "/pith/%s.json" % n}))
    res = fetch(cli, server, n)
    assert_refused(res, "more than 3 redirects", "redirect loop")
    assert server.counts()["/pith/%s.json" % n] == 4  # the request and 3 redirects


def _elsewhere(server, other, n):
    host = "http://localhost:%d/x/%s.json" % (server.port, n)  # same server, other host name
    return {
        "host": host,
        "scheme": "https://127.0.0.1:%d/x/%s.json" % (server.port, n),
        "port": "http://127.0.0.1:%d/x/%s.json" % (other.port, n),
    }


@pytest.mark.parametrize("where", ["host", "scheme", "port"])
def test_redirect_off_the_resolver_is_refused(where, server, cli, vec):
    n = vec["number"]
    with S.ResolverServer() as other:
        target = _elsewhere(server, other, n)[where]
        for srv in (server, other):
            srv.route("/x/%s.json" % n, good(vec))
        server.record(n, S.Reply(status=302, headers={"Location": target}))
        res = fetch(cli, server, n)
        line = assert_refused(res, "HTTP 302 redirect to", "127.0.0.1:%d" % server.port,
                              "follows redirects only on the resolver's own scheme, host "
                              "and port")
        assert target in line
        assert "/x/%s.json" % n not in server.counts() and other.counts() == {}


# ---------------------------------------------------------------- bodies


@pytest.fixture(scope="module")
def bomb():
    return S.nested_gzip_bomb(256 * S.MIB)  # 256 MiB of spaces in a few KiB


def test_gzip_gzip_bomb_stops_at_one_mib(server, cli, vec, bomb):
    n = vec["number"]
    assert len(bomb) < 64 * 1024
    server.record(n, S.Reply(body=bomb, headers={"Content-Encoding": "gzip, gzip"}))
    assert_refused(fetch(cli, server, n), "larger than 1 MiB")


def test_endless_chunked_body_stops_at_one_mib(server, cli, vec):
    n = vec["number"]
    server.record(n, S.Reply(body=b" " * 65536, chunked=True, repeat_body=10 ** 5))
    assert_refused(fetch(cli, server, n), "body larger than 1 MiB")
    assert [s.delivered for s in server.settle()] == [False]  # it hung up mid-stream


def _deflate(data: bytes) -> bytes:
    return zlib.compress(data, 9)


@pytest.mark.parametrize("coding, encode", [
    ("gzip", gzip.compress),
    ("deflate", _deflate),
    ("gzip, gzip", lambda b: gzip.compress(gzip.compress(b))),
    ("identity", lambda b: b),
], ids=["gzip", "deflate", "gzip-gzip", "identity"])
def test_encoded_and_chunked_good_bodies_are_read(coding, encode, server, cli, vec):
    n = vec["number"]
    body = encode(R.encode(R.resolver_json(vec)))
    server.record(n, S.Reply(body=body, headers={"Content-Encoding": coding},
                             chunked=coding == "identity"))
    res = fetch(cli, server, n)
    assert res.rc == 0, res
    assert vec["canonical_hash"] in res.include.read_text()


@pytest.mark.parametrize("coding, words", [
    ("br", "encoded with 'br', which pith-tex does not decode"),
    ("gzip, gzip, gzip", "encoded 3 times"),
])
def test_unknown_or_deep_encodings_are_refused(coding, words, server, cli, vec):
    n = vec["number"]
    server.record(n, S.Reply(body=b"\x00" * 64, headers={"Content-Encoding": coding}))
    assert_refused(fetch(cli, server, n), words)


def test_truncated_gzip_body_is_refused(server, cli, vec):
    n = vec["number"]
    body = gzip.compress(R.encode(R.resolver_json(vec)))
    server.record(n, S.Reply(body=body[: len(body) // 2],
                             headers={"Content-Encoding": "gzip"}))
    assert_refused(fetch(cli, server, n), "gzip", "truncated")
