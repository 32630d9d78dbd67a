"""A real, misbehaving Pith resolver on 127.0.0.1, shared by every HTTP test.

The server speaks HTTP for real (``http.server.ThreadingHTTPServer`` in a thread,
ephemeral port): ``pith-tex fetch`` is run against it as a subprocess
(``tests/resolver``) or ``HttpResolver`` in-process (``tests/python/resolver/test_py_http.py``);
nothing is patched.  What it answers is a *scenario table*: ``path -> [Reply, Reply, ...]``.
The n-th request for a path gets the n-th reply (the last one repeats), so
"500 then 200" is ``[Reply(status=500), good]``.  Paths without an entry get 404.
Every request is logged with its monotonic arrival time, so tests can assert on
what the client really did (how many attempts, how long it waited; ``counts()``
gives the hits per path), and with whether its reply reached the client
(``Seen.delivered``: False when the client hung up before the reply was complete --
during a ``delay``, or while a long body was being sent; ``settle()`` waits until
every request has that answer).  A client hanging up on purpose (timeouts, oversized
bodies) is expected and is not printed; any other server error still is.

The documents themselves are built from the real vectors by
``recorded.py`` next to this file (``resolver_json`` / ``bundle_json``); the
helpers at the bottom damage them in exactly one way each.  This folder is on
``sys.path`` through ``pythonpath`` in ``[tool.pytest.ini_options]``.

Hostile modes of a :class:`Reply`, each a bounded loop (it ends when the client hangs
up, when the server stops, or after :data:`DRIP_LIMIT` bytes): ``drip_status`` (the
status line and a never-ending head, one byte at a time), ``drip_headers`` (the status
line at once, then the same), ``drip`` (the body, 16 bytes at a time), ``chunked`` with
``repeat_body`` (a chunked body that goes on and on), ``delay`` (silence).
"""
from __future__ import annotations

import dataclasses
import http.server
import select
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[2]
MIB = 1024 * 1024

# An include from an earlier, successful run (for another paper), with bytes a
# careless rewrite would not reproduce (CRLF, trailing spaces, no final newline).
OLD_INCLUDE = (
    b"% pith-number.tex: written by `pith-tex fetch` after verifying the record.\r\n"
    b"% OLD INCLUDE -- must survive every failed fetch byte for byte   \r\n"
    b"\\pithrecord{1}{\r\n"
    b"  number = OZSQU6PZ6STJ7LG5TIDHTNXEHD,\r\n"
    b"  year = 2009,\r\n"
    b"  sha256 = 76650a79f9f4a69facdd9a0679b6e438f27b52319537b76a7535e383e6940ee1,\r\n"
    b"  arxiv-id = 0909.1015,\r\n"
    b"  arxiv-version = 2,\r\n"
    b"  signature = absent,\r\n"
    b"}"
)

# The documents are built by recorded.py, next to this file (one builder for all tests).
import recorded  # noqa: E402


# ---------------------------------------------------------------- replies


@dataclasses.dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: Dict[str, str] = dataclasses.field(default_factory=dict)
    delay: float = 0.0  # sleep this long before answering (slow resolver)
    declared_length: Optional[int] = None  # announce this Content-Length (truncation)
    send_length: bool = True  # False: no Content-Length, body ends when the socket closes
    drip: Optional[float] = None  # send the body 16 bytes every `drip` seconds
    repeat_body: int = 1  # send body this many times (endless-ish streams)
    # A head that never ends, one byte every `drip_status` seconds from the first byte of
    # the status line (`drip_headers`: the status line at once, then the headers): after
    # the real header lines come filler ``X-Drip`` lines, up to DRIP_LIMIT bytes.
    drip_status: Optional[float] = None
    drip_headers: Optional[float] = None
    chunked: bool = False  # Transfer-Encoding: chunked, each copy of body one chunk


#: The most bytes a dripping reply sends (so that the loop is bounded even if no client
#: ever hangs up): at one byte every 0.5 s, more than an hour.
DRIP_LIMIT = 10000


def json_reply(doc: Any, **kw) -> Reply:
    return Reply(body=recorded.encode(doc), **kw)


# ---------------------------------------------------------------- server


@dataclasses.dataclass
class Seen:
    t: float  # time.monotonic() at arrival
    method: str
    path: str
    headers: Dict[str, str]
    # True: the whole reply was sent; False: the client hung up first (or the server
    # stopped); None: still being answered.
    delivered: Optional[bool] = None


# A client that hangs up on purpose (timeouts, oversized or endless bodies).
_EXPECTED_DISCONNECTS = (ConnectionResetError, BrokenPipeError, socket.timeout)


class _Handler(http.server.BaseHTTPRequestHandler):
    server_version = "pith-hostile/1"
    protocol_version = "HTTP/1.1"

    def log_message(self, fmt, *args):  # keep pytest output clean
        pass

    def do_GET(self):  # noqa: N802 (http.server naming)
        srv: "ResolverServer" = self.server.owner  # type: ignore[attr-defined]
        reply, seen = srv._next_reply(self.command, self.path, dict(self.headers))
        delivered = False
        try:
            if reply.delay and not self._wait_unless_hung_up(srv, reply.delay):
                return
            delivered = self._send(srv, reply)
        except _EXPECTED_DISCONNECTS:
            pass  # the client gave up, which is what several scenarios want
        finally:
            self.close_connection = True
            srv._settled(seen, delivered)

    def _wait_unless_hung_up(self, srv: "ResolverServer", delay: float) -> bool:
        """Wait *delay* seconds; False as soon as the client closes its end of the
        connection (or the server stops), True if it was still there at the end."""
        end = time.monotonic() + delay
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return True
            if srv.stopping.is_set():
                return False
            readable, _, _ = select.select([self.connection], [], [], min(left, 0.05))
            if readable and self.connection.recv(1, socket.MSG_PEEK) == b"":
                return False  # end of stream: the client hung up
            if readable:  # the client sent more bytes: not a hang-up, keep waiting
                srv.stopping.wait(min(left, 0.05))

    def _drip(self, srv: "ResolverServer", data: bytes, interval: float, step: int) -> bool:
        """Send *data*, *step* bytes every *interval* seconds; False when the server stops
        (a client hanging up shows as an error on a write)."""
        for i in range(0, len(data), step):
            self.wfile.write(data[i:i + step])
            self.wfile.flush()
            if srv.stopping.wait(interval):
                return False
        return True

    def _send_dripping_head(self, srv: "ResolverServer", r: Reply) -> bool:
        status = ("HTTP/1.1 %d %s\r\n" % (r.status, self.responses.get(r.status, ("",))[0])).encode()
        lines = [("Content-Type", r.content_type), *r.headers.items()]
        head = "".join("%s: %s\r\n" % kv for kv in lines).encode("latin-1")
        filler = b"X-Drip: 0\r\n" * (DRIP_LIMIT // 11)
        if r.drip_status is not None:
            return self._drip(srv, status + head + filler, r.drip_status, 1)
        assert r.drip_headers is not None
        self.wfile.write(status)
        return self._drip(srv, head + filler, r.drip_headers, 1)

    def _send(self, srv: "ResolverServer", r: Reply) -> bool:
        """Send the reply; True if all of it was written."""
        if r.drip_status is not None or r.drip_headers is not None:
            return self._send_dripping_head(srv, r)
        self.send_response(r.status)
        self.send_header("Content-Type", r.content_type)
        for k, val in r.headers.items():
            self.send_header(k, val)
        total = len(r.body) * r.repeat_body
        if r.chunked:
            self.send_header("Transfer-Encoding", "chunked")
        elif r.declared_length is not None:
            self.send_header("Content-Length", str(r.declared_length))
        elif r.send_length:
            self.send_header("Content-Length", str(total))
        self.send_header("Connection", "close")
        self.end_headers()
        if r.drip is not None:
            body = r.body * r.repeat_body
            return self._drip(srv, body[:DRIP_LIMIT * 16], r.drip, 16)
        for _ in range(r.repeat_body):
            if srv.stopping.is_set():
                return False
            if r.chunked:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(r.body), r.body))
            else:
                self.wfile.write(r.body)
        if r.chunked:
            self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()
        return True


class _Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], _EXPECTED_DISCONNECTS):
            return  # expected: keep the pytest output clean
        super().handle_error(request, client_address)  # anything else stays visible


class ResolverServer:
    """``with ResolverServer() as srv: srv.route('/pith/X.json', reply, ...)``."""

    def __init__(self) -> None:
        self.table: Dict[str, List[Reply]] = {}
        self.seen: List[Seen] = []
        self.stopping = threading.Event()
        self._lock = threading.Condition()
        self._httpd = _Server(("127.0.0.1", 0), _Handler)
        self._httpd.owner = self  # type: ignore[attr-defined]
        self.port = self._httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    # lifecycle
    def start(self) -> "ResolverServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # scenario table
    def route(self, path: str, *replies: Reply) -> None:
        assert replies, "a route needs at least one reply"
        self.table[path] = list(replies)

    def record(self, number: str, *replies: Reply) -> None:
        self.route(f"/pith/{number}.json", *replies)

    def bundle(self, number: str, *replies: Reply) -> None:
        self.route(f"/pith/{number}/bundle.json", *replies)
        self.route(f"/.well-known/pith/{number}/bundle.json", *replies)

    def clear(self) -> None:
        """Forget every route (from now on every path answers 404); the log stays."""
        with self._lock:
            self.table.clear()

    def _next_reply(self, method: str, path: str, headers: Dict[str, str]):
        with self._lock:
            n = sum(1 for s in self.seen if s.path == path)
            seen = Seen(time.monotonic(), method, path, headers)
            self.seen.append(seen)
            replies = self.table.get(path)
        if not replies:
            return Reply(status=404, body=b'{"error":"not found"}'), seen
        return replies[min(n, len(replies) - 1)], seen

    def _settled(self, seen: Seen, delivered: bool) -> None:
        with self._lock:
            seen.delivered = delivered
            self._lock.notify_all()

    def settle(self, limit: float = 30.0) -> List[Seen]:
        """Wait until every request so far knows whether its reply was delivered (a
        handler notices a hang-up within ~0.05 s, or at its next write); returns the
        log.  *limit* only guards against a hang, it is not a measurement."""
        with self._lock:
            self._lock.wait_for(lambda: all(s.delivered is not None for s in self.seen), limit)
            return list(self.seen)

    # what the client did
    def hits(self, path: str) -> List[Seen]:
        with self._lock:
            return [s for s in self.seen if s.path == path]

    def counts(self) -> Dict[str, int]:
        """How many requests each path has had so far."""
        with self._lock:
            out: Dict[str, int] = {}
            for s in self.seen:
                out[s.path] = out.get(s.path, 0) + 1
            return out


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# ------------------------------------------------------- hostile documents
# Each returns a document built from real vectors, damaged in exactly one way.


def altered_hash(v: dict) -> dict:
    doc = recorded.resolver_json(v)
    h = doc["canonical_sha256"]
    doc["canonical_sha256"] = ("0" if h[0] != "0" else "1") + h[1:]
    return doc


def altered_field(v: dict) -> dict:
    """The record's primary category is changed; everything else is as published."""
    doc = recorded.resolver_json(v)
    md = doc["canonical_record"]["metadata"]
    md["primary_cat"] = "hep-th" if md["primary_cat"] != "hep-th" else "math.AG"
    return doc


def html_page(v: dict) -> bytes:
    return (
        "<!DOCTYPE html>\n<html><head><title>Pith " + v["number"] + "</title></head>"
        "<body><h1>Verify this record</h1><p>Sign in to continue.</p></body></html>\n"
    ).encode("utf-8")


def oversized(v: dict, size: int = MIB + 4096) -> bytes:
    """A syntactically valid resolver document, larger than 1 MiB (padding field)."""
    doc = recorded.resolver_json(v)
    doc["padding"] = ""
    base = len(recorded.encode(doc))
    doc["padding"] = "x" * max(0, size - base)
    return recorded.encode(doc)


def nested_gzip_bomb(size: int) -> bytes:
    """``Content-Encoding: gzip, gzip``: *size* bytes of spaces, gzipped twice (a few KiB
    on the wire), built in 1 MiB steps so the test itself never holds *size* bytes."""
    import gzip
    import zlib

    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b" " * MIB
    inner = b"".join([c.compress(block) for _ in range(size // MIB)] + [c.flush()])
    return gzip.compress(inner, compresslevel=9)


def gzip_bomb(size: int) -> bytes:
    """gzip of *size* bytes of spaces (valid JSON whitespace): tiny on the wire."""
    import gzip

    return gzip.compress(b" " * size, compresslevel=9)
