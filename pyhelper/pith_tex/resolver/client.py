"""Getting resolver documents: over HTTP(S), or from a mirror on disk.

Base URL: ``--resolver`` > ``$PITH_RESOLVER`` > ``https://pith.science``.  A value that is
an existing directory (or a ``file://`` URL) is a mirror on disk laid out like the
resolver: ``pith/NUM.json`` and ``pith/NUM/bundle.json``
(or ``.well-known/pith/NUM/bundle.json``).

HTTP policy:

* one deadline for the whole command (``--deadline``): every request runs in a worker
  thread that is waited for until the deadline and no longer, so that name resolution,
  connect, TLS, a status line or headers dripped one byte at a time, and the body all
  count against it; when it passes, the connection is shut down and the command fails
  (exit 3, "the N s deadline passed (--deadline) while ...");
* connect and read timeout ``timeout`` per socket operation (never more than what is
  left of the deadline);
* at most 3 attempts, retried on connection errors, timeouts, 429 and 5xx, counted and
  paced by urllib3's ``Retry`` (:class:`ResolverRetry`): exponential backoff (0.5 s,
  1 s), or the answer's ``Retry-After``, capped at 10 s; never a wait past the deadline;
* redirects (301, 302, 303, 307, 308) are followed only to the same scheme, host and
  port, at most 3 of them; any other is refused (exit 3) naming the target;
* the body is streamed and capped (1 MiB; a document type may state its own cap,
  :meth:`Resolver.document`) on the wire; a ``Content-Length`` that does not match the
  body is a truncated body; urllib3 never decodes it: ``gzip``, ``x-gzip`` and
  ``deflate`` (at most two layers) are undone here with every layer's output held to the
  same cap, and any other coding is refused;
* the record is required: 404 is "no record" (could not check).  The bundle is optional:
  a 404 on ``/pith/NUM/bundle.json`` and on ``/.well-known/pith/NUM/bundle.json`` means
  "no bundle", which the signature check reports as the state *checked* (no receipt).

Every failure raises :class:`CouldNotCheck` with a one-line message naming the URL and
the cause.
"""

from __future__ import annotations

import functools
import os
import socket
import threading
import time
import zlib
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple, TypeVar, Union
from urllib.parse import unquote, urljoin, urlsplit

import requests
import requests.adapters
import urllib3
import urllib3.exceptions as u3
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.exceptions import InvalidHeader, MaxRetryError
from urllib3.util.retry import Retry

from .. import __version__
from ..record.canonical import loads_strict
from ..record.documents import MAX_BODY, read_capped
from ..errors import CouldNotCheck, UsageError, show

DEFAULT_RESOLVER = "https://pith.science"
MAX_ATTEMPTS = 3
RETRY_AFTER_CAP = 10.0
BACKOFF_BASE = 0.5
USER_AGENT = "pith-tex/%s (+https://pith.science)" % __version__


class Deadline:
    """A whole-command time budget (monotonic clock)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def remaining(self) -> float:
        return self.end - time.monotonic()

    def check(self, what: str) -> float:
        left = self.remaining()
        if left <= 0:
            raise CouldNotCheck("%s: the %s s deadline passed (--deadline); gave up"
                                % (what, _fmt(self.seconds)))
        return left


def _fmt(seconds: float) -> str:
    return ("%g" % seconds)


class Document(NamedTuple):
    """A fetched JSON document: where it came from, its raw bytes and the parsed value."""

    where: str
    body: bytes
    data: Any


def parse_body(body: bytes, where: str, content_type: str = "") -> Any:
    """Bytes -> JSON value, with a one-line error for HTML, non-JSON and truncated bodies."""
    head = body[:512].lstrip().lower()
    if "html" in content_type.lower() or head.startswith((b"<!doctype html", b"<html", b"<")):
        raise CouldNotCheck("%s: got an HTML page, not JSON (is the resolver URL right?)" % where)
    if not body.strip():
        raise CouldNotCheck("%s: empty body, not JSON" % where)
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CouldNotCheck("%s: body is not UTF-8 JSON" % where) from err
    try:
        return loads_strict(text)
    except RecursionError as err:  # arrays or objects nested deeper than the parser's stack
        raise CouldNotCheck("%s: body is not valid JSON (nested too deeply)" % where) from err
    except ValueError as e:
        if str(getattr(e, "msg", "")).startswith("Unterminated") or \
                getattr(e, "pos", 0) >= len(text.rstrip()):
            raise CouldNotCheck("%s: JSON ends early (truncated body)" % where) from e
        raise CouldNotCheck("%s: body is not valid JSON (%s)" % (where, getattr(e, "msg", e))) from e


class Resolver:
    """Interface: ``record(number)`` and ``bundle(number)`` (``None`` when there is none)."""

    description = ""
    is_local = False

    def record(self, number: str) -> Document:
        raise NotImplementedError

    def bundle(self, number: str) -> Optional[Document]:
        raise NotImplementedError

    def document(self, rel: str, max_body: int = MAX_BODY) -> Optional[Document]:
        """The JSON document at *rel* (a path under the base, e.g.
        ``paper/ID/citation-record.json``) read within *max_body* bytes, or None when
        there is none (404/410, missing file).  *rel* is built from validated parts."""
        raise NotImplementedError


def size_text(limit: int) -> str:
    """``1 MiB``: how a body cap is named in messages."""
    return "%g MiB" % (limit / (1 << 20))


class DirectoryResolver(Resolver):
    """A mirror on disk."""

    is_local = True

    def __init__(self, root: str) -> None:
        self.root = root
        self.description = root

    def _read(self, rel: str, max_body: int = MAX_BODY) -> Optional[Document]:
        path = os.path.join(self.root, *rel.split("/"))
        try:
            body = read_capped(path, max_body)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise CouldNotCheck("%s: cannot read: %s" % (path, e.strerror or e)) from e
        if body is None:
            raise CouldNotCheck("%s: body larger than %s" % (path, size_text(max_body)))
        return Document(path, body, parse_body(body, path))

    def document(self, rel: str, max_body: int = MAX_BODY) -> Optional[Document]:
        return self._read(rel, max_body)

    def record(self, number: str) -> Document:
        doc = self._read("pith/%s.json" % number)
        if doc is None:
            raise CouldNotCheck("no record for %s in the mirror %s (pith/%s.json is missing)"
                                % (number, self.root, number))
        return doc

    def bundle(self, number: str) -> Optional[Document]:
        return (self._read("pith/%s/bundle.json" % number)
                or self._read(".well-known/pith/%s/bundle.json" % number))


class _NotFound(Exception):
    pass


class _Retry(Exception):
    """A transient failure while reading the body (timeout mid-body)."""


#: The answers worth another attempt: too many requests, and the server's own errors.
RETRY_STATUSES = frozenset([429, *range(500, 600)])


class ResolverRetry(Retry):
    """urllib3's :class:`~urllib3.util.Retry` as the client's retry policy: urllib3 counts
    the attempts (its history says what failed), reads ``Retry-After`` (seconds or an HTTP
    date) and computes the backoff.  What the command's single deadline needs is added
    here: a ``Retry-After`` is capped at :data:`RETRY_AFTER_CAP` (the caller refuses a
    wait that would pass the deadline), and the first retry waits too (urllib3 retries
    the first failure at once; a resolver that answered 503 is given 0.5 s).

    The loop is the client's (:meth:`HttpResolver._get_once`), not urllib3's: each
    attempt runs in the deadline's worker thread; a body that times out mid-stream is
    retried too (urllib3 retries only up to the headers, the body being streamed); and
    urllib3 would read a 429 or 5xx answer's body whole into memory before retrying
    (``drain_conn``), which a hostile resolver could make any size.
    """

    def get_backoff_time(self) -> float:
        return float(min(self.backoff_max,
                         self.backoff_factor * 2 ** max(0, len(self.history) - 1)))

    def parse_retry_after(self, retry_after: str) -> float:
        return min(super().parse_retry_after(retry_after), RETRY_AFTER_CAP)

    def wait(self, response: Any) -> float:
        """The wait before the next attempt, chosen as urllib3's ``Retry.sleep`` chooses:
        the answer's ``Retry-After`` when it gives one, else the backoff."""
        after: Optional[float] = None
        if response is not None and self.respect_retry_after_header:
            try:
                after = self.get_retry_after(response)
            except InvalidHeader:  # neither seconds nor a date: as if absent
                after = None
        return after or self.get_backoff_time()


class HttpResolver(Resolver):
    """The resolver (or a mirror) over HTTP(S)."""

    def __init__(self, base_url: str, *, timeout: float = 10.0,
                 deadline: Optional[Deadline] = None, session: Any = None,
                 sleep: Any = time.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.description = self.base_url
        self.timeout = timeout
        self.deadline = deadline or Deadline(60.0)
        self._session = session
        self._sleep = sleep
        #: Called with one line before each retry's wait (``fetch`` prints it on stderr).
        self.on_retry: Optional[Callable[[str], None]] = None

    def _get_session(self) -> Any:
        if self._session is None:
            s = requests.Session()
            s.mount("http://", _tracking_adapter())
            s.mount("https://", _tracking_adapter())
            s.headers.update({"User-Agent": USER_AGENT, "Accept": "application/json",
                              "Accept-Encoding": "identity"})
            self._session = s
        return self._session

    def record(self, number: str) -> Document:
        url = "%s/pith/%s.json" % (self.base_url, number)
        try:
            return self._get(url)
        except _NotFound as err:
            raise CouldNotCheck("%s: HTTP 404, the resolver has no record for %s: check the "
                                "number against the paper's Pith page" % (url, number)) from err

    def bundle(self, number: str) -> Optional[Document]:
        for path in ("/pith/%s/bundle.json", "/.well-known/pith/%s/bundle.json"):
            try:
                return self._get(self.base_url + path % number)
            except _NotFound:
                continue
        return None

    def document(self, rel: str, max_body: int = MAX_BODY) -> Optional[Document]:
        try:
            return self._get("%s/%s" % (self.base_url, rel), max_body)
        except _NotFound:
            return None

    def _get(self, url: str, max_body: int = MAX_BODY) -> Document:
        """GET *url*, following at most :data:`MAX_REDIRECTS` redirects that stay on its
        scheme, host and port."""
        current = url
        for _ in range(MAX_REDIRECTS + 1):
            got = self._get_once(current, max_body)
            if isinstance(got, Document):
                return got
            target = urljoin(current, got.location)
            _check_redirect(url, current, target, got.status)
            current = target
        raise CouldNotCheck("%s: more than %d redirects (the last one to %s): a redirect loop?"
                            % (url, MAX_REDIRECTS, show(current, 100)))

    def _get_once(self, url: str, max_body: int) -> Union[Document, "_Redirect"]:
        """One URL, with retries; a redirect is returned, not followed."""
        session = self._get_session()
        retry = ResolverRetry(total=MAX_ATTEMPTS - 1, backoff_factor=BACKOFF_BASE,
                              status_forcelist=RETRY_STATUSES)
        while True:
            left = self.deadline.check(url)
            t = min(self.timeout, left)
            answer: Any = None  # the retried answer (its status, its Retry-After)
            error: Optional[Exception] = None
            try:
                got = self._within_deadline(url, functools.partial(
                    self._exchange, session, url, t, max_body=max_body))
                if isinstance(got, (Document, _Redirect)):
                    return got
                last, answer = got
            except requests.exceptions.Timeout as e:
                last, error = "timed out after %s s" % _fmt(t), e
            except _Retry as e:
                last, error = str(e) % _fmt(t), e
            except requests.exceptions.SSLError as e:
                raise CouldNotCheck("%s: TLS error: %s" % (url, _reason(e))) from e
            except requests.exceptions.ConnectionError as e:
                last, error = "could not connect (%s)" % _reason(e), e
            except requests.exceptions.ChunkedEncodingError as err:
                raise CouldNotCheck("%s: the connection broke mid-body (truncated body)" % url) from err
            except requests.exceptions.InvalidURL as e:
                raise UsageError("bad resolver URL %s: %s" % (show(url), _reason(e))) from e
            except requests.exceptions.RequestException as e:
                raise CouldNotCheck("%s: %s" % (url, _reason(e))) from e
            try:
                retry = retry.increment("GET", url, response=answer, error=error)
            except MaxRetryError:
                raise CouldNotCheck("%s: %s (%d attempts)" % (url, last, MAX_ATTEMPTS)) from error
            wait = retry.wait(answer)
            if wait >= self.deadline.remaining():
                raise CouldNotCheck("%s: %s, and the %s s deadline leaves no time to retry"
                                    % (url, last, _fmt(self.deadline.seconds)))
            if self.on_retry is not None:  # progress for the author (fetch prints it)
                self.on_retry("%s: %s; retrying in %s s (attempt %d of %d)"
                              % (url, last, _fmt(wait), len(retry.history) + 1, MAX_ATTEMPTS))
            self._sleep(wait)

    def _exchange(self, session: Any, url: str, t: float, phase: List[str],
                  max_body: int) -> Union[Document, "_Redirect", Tuple[str, Any]]:
        """One request and its answer (run in a worker thread: :meth:`_within_deadline`):
        the document, a redirect, or ``(why, urllib3's response)`` for an answer worth
        retrying (its status and headers: the body is not read).
        *phase* says how far it got, for the deadline message."""
        with session.get(url, timeout=(t, t), stream=True, allow_redirects=False) as r:
            phase[0] = "reading the body"
            status = r.status_code
            if status == 404 or status == 410:
                raise _NotFound()
            if status in _REDIRECTS:
                location = r.headers.get("Location")
                if not location:
                    raise CouldNotCheck("%s: HTTP %d redirect without a Location" % (url, status))
                return _Redirect(status, location)
            if status in RETRY_STATUSES:
                return "HTTP %d" % status, r.raw
            if status != 200:
                raise CouldNotCheck("%s: HTTP %d %s" % (url, status, show(r.reason or "", 40)))
            body = self._read_body(r, url, max_body)
            return Document(url, body, parse_body(body, url, r.headers.get("Content-Type", "")))

    def _within_deadline(self, url: str, work: Callable[[List[str]], _T]) -> _T:
        """``work(phase)`` in a daemon thread, waited for until the deadline and no longer.

        requests and urllib3 apply their timeout to each socket operation, so a server
        that drips its status line, headers or body one byte at a time never trips it;
        name resolution has no timeout at all.  The command's deadline is therefore
        kept here: when it passes, the connection is shut down (the worker wakes up and
        ends) and the command goes on without it.
        """
        left = self.deadline.check(url)
        box: Dict[str, Any] = {}
        phase = ["waiting for the status line and headers"]
        done = threading.Event()

        def run() -> None:
            try:
                box["value"] = work(phase)
            except BaseException as e:  # noqa: BLE001 -- handed to the waiting thread
                box["error"] = e
            finally:
                done.set()

        worker = threading.Thread(target=run, name="pith-tex-http", daemon=True)
        worker.start()
        finished = done.wait(left)
        sockets = _forget_sockets(worker.ident)
        if not finished:
            # Read the phase before the shutdown: a worker woken by it reads end of stream
            # as the end of the headers and moves on to "reading the body".
            where = phase[0] if sockets else "resolving the host name or connecting"
            for sock in sockets:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
            raise CouldNotCheck("%s: the %s s deadline passed (--deadline) while %s; gave up"
                                % (url, _fmt(self.deadline.seconds), where))
        if "error" in box:
            raise box["error"]
        value: _T = box["value"]
        return value

    def _read_body(self, r: Any, url: str, max_body: int = MAX_BODY) -> bytes:
        """The body, at most *max_body* bytes on the wire and once decoded.

        urllib3 is never asked to decode (``decode_content=False``): a ``gzip, gzip``
        bomb would be inflated by it before any cap applies.  Content codings are undone
        here, within the cap (:func:`_decode`).
        """
        declared = r.headers.get("Content-Length")
        expected: Optional[int] = None
        if declared is not None:
            try:
                expected = int(declared)
            except ValueError as err:
                raise CouldNotCheck("%s: bad Content-Length %s" % (url, show(declared))) from err
            if expected > max_body:
                raise CouldNotCheck("%s: body larger than %s (Content-Length %d)"
                                    % (url, size_text(max_body), expected))
        chunks = []
        size = 0
        raw = r.raw
        read = getattr(raw, "read1", None)
        while True:
            self.deadline.check(url)
            try:
                if read is not None:
                    chunk = read(65536, decode_content=False)
                else:  # pragma: no cover - urllib3 < 2
                    chunk = raw.read(65536, decode_content=False)
            except (u3.ReadTimeoutError, TimeoutError) as err:
                raise _Retry("timed out after %s s reading the body") from err
            except (u3.ProtocolError, u3.IncompleteRead) as err:
                raise CouldNotCheck("%s: the connection broke mid-body (truncated body)" % url) from err
            except (u3.HTTPError, OSError) as e:
                raise CouldNotCheck("%s: error reading the body (%s)" % (url, _reason(e))) from e
            if not chunk:
                break
            size += len(chunk)
            if size > max_body:
                raise CouldNotCheck("%s: body larger than %s" % (url, size_text(max_body)))
            chunks.append(chunk)
        body = b"".join(chunks)
        if expected is not None and len(body) != expected:
            raise CouldNotCheck("%s: truncated body (%d of %d bytes)" % (url, len(body), expected))
        return _decode(body, r.headers.get("Content-Encoding", ""), url, max_body)


_T = TypeVar("_T")
#: Redirects followed (same scheme, host and port only), at most MAX_REDIRECTS of them.
_REDIRECTS = (301, 302, 303, 307, 308)
MAX_REDIRECTS = 3
#: Content codings undone (within the cap); anything else is refused.
MAX_CODINGS = 2


class _Redirect(NamedTuple):
    status: int
    location: str


def _origin(url: str) -> Tuple[str, str, Optional[int]]:
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        port = -1
    if port is None:
        port = {"http": 80, "https": 443}.get(scheme)
    return scheme, (parts.hostname or "").lower(), port


def _check_redirect(url: str, current: str, target: str, status: int) -> None:
    """A redirect may only change the path: same scheme, host and port as *url*."""
    if _origin(target) != _origin(url):
        scheme, host, port = _origin(url)
        raise CouldNotCheck("%s: HTTP %d redirect to %s, which is not on %s://%s:%s: pith-tex "
                            "follows redirects only on the resolver's own scheme, host and port; "
                            "if you trust it, give that resolver with --resolver"
                            % (current, status, show(target, 100), scheme, host, port))


def _inflate(data: bytes, coding: str, url: str, max_body: int) -> bytes:
    """Undo one content coding, producing at most *max_body* bytes (a bomb stops there)."""
    wbits = 31 if coding in ("gzip", "x-gzip") else 15
    out: List[bytes] = []
    total = 0
    while data:
        d = zlib.decompressobj(wbits)
        try:
            chunk = d.decompress(data, max_body + 1 - total)
        except zlib.error as e:
            raise CouldNotCheck("%s: cannot decode the %s body (%s)" % (url, coding, e)) from e
        total += len(chunk)
        if total > max_body or d.unconsumed_tail:
            raise CouldNotCheck("%s: the decoded (%s) body is larger than %s"
                                % (url, coding, size_text(max_body)))
        if not d.eof:
            raise CouldNotCheck("%s: the %s body ends early (truncated body)" % (url, coding))
        out.append(chunk)
        data = d.unused_data if wbits == 31 else b""  # gzip: the next member, if any
    return b"".join(out)


def _decode(body: bytes, header: str, url: str, max_body: int = MAX_BODY) -> bytes:
    """*body* with its ``Content-Encoding`` (gzip, x-gzip, deflate; at most
    :data:`MAX_CODINGS` of them) undone, each layer capped at *max_body*."""
    codings = [c.strip().lower() for c in header.split(",")]
    codings = [c for c in codings if c and c != "identity"]
    if len(codings) > MAX_CODINGS:
        raise CouldNotCheck("%s: the body is encoded %d times (Content-Encoding %s): refused"
                            % (url, len(codings), show(header)))
    for coding in reversed(codings):
        if coding not in ("gzip", "x-gzip", "deflate"):
            raise CouldNotCheck("%s: the body is encoded with %s, which pith-tex does not "
                                "decode (it asks for identity)" % (url, show(coding)))
        body = _inflate(body, coding, url, max_body)
    return body


# The sockets each HTTP worker thread opened (thread ident -> sockets), so that the
# thread waiting for it can shut them down when the deadline passes.
_SOCKETS: Dict[Optional[int], List[socket.socket]] = {}
_SOCKETS_LOCK = threading.Lock()


def _register_socket(sock: socket.socket) -> None:
    with _SOCKETS_LOCK:
        _SOCKETS.setdefault(threading.get_ident(), []).append(sock)


def _forget_sockets(ident: Optional[int]) -> List[socket.socket]:
    with _SOCKETS_LOCK:
        return _SOCKETS.pop(ident, [])


def _tracking_adapter() -> Any:
    """A requests adapter whose connections register their socket
    (:func:`_register_socket`) as soon as it exists, before TLS and the request."""
    class Tracked(HTTPConnection):
        def _new_conn(self) -> Any:
            sock = super()._new_conn()
            _register_socket(sock)
            return sock

    class TrackedTLS(HTTPSConnection):
        def _new_conn(self) -> Any:
            sock = super()._new_conn()
            _register_socket(sock)
            return sock

    class Pool(urllib3.HTTPConnectionPool):
        ConnectionCls = Tracked

    class PoolTLS(urllib3.HTTPSConnectionPool):
        ConnectionCls = TrackedTLS

    pools = {"http": Pool, "https": PoolTLS}

    class Adapter(requests.adapters.HTTPAdapter):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            super().init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = pools

        def proxy_manager_for(self, proxy: Any, **kwargs: Any) -> Any:
            manager = super().proxy_manager_for(proxy, **kwargs)
            manager.pool_classes_by_scheme = pools
            return manager

    return Adapter()


def _reason(e: BaseException) -> str:
    """The innermost useful cause of a requests/urllib3 exception, on one short line."""
    inner: BaseException = e
    for _ in range(6):
        nxt = getattr(inner, "reason", None)
        if isinstance(nxt, BaseException):
            inner = nxt
            continue
        if inner.args and isinstance(inner.args[0], BaseException):
            inner = inner.args[0]
            continue
        break
    name = type(inner).__name__
    text = str(inner)
    if name == "NameResolutionError" or "Name or service not known" in text \
            or "name resolution" in text:
        return "cannot resolve the host name"
    if isinstance(inner, ConnectionRefusedError) or "Connection refused" in text:
        return "connection refused"
    if isinstance(inner, ConnectionResetError) or "Connection reset" in text:
        return "connection reset"
    if text.startswith("<") and ">: " in text:
        text = text.split(">: ", 1)[1]
    return show(text or name, 100).strip("'\"")


def resolver_spec(option: Optional[str]) -> str:
    """``--resolver`` (or ``$PITH_RESOLVER``, which the command line reads) > the
    default."""
    return option or DEFAULT_RESOLVER


def open_resolver(spec: str, *, timeout: float = 10.0,
                  deadline: Optional[Deadline] = None) -> Resolver:
    """A :class:`DirectoryResolver` for a directory or ``file://`` URL, else HTTP."""
    if spec.startswith("file://"):
        path = unquote(urlsplit(spec).path)
        if not os.path.isdir(path):
            raise UsageError("resolver %s: no such directory" % show(spec))
        return DirectoryResolver(path)
    if "://" not in spec:
        if os.path.isdir(spec):
            return DirectoryResolver(spec)
        raise UsageError("resolver %s is neither a directory nor an http(s):// URL" % show(spec))
    parts = urlsplit(spec)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError("resolver %s: use an http:// or https:// URL or a directory" % show(spec))
    return HttpResolver(spec, timeout=timeout, deadline=deadline)
