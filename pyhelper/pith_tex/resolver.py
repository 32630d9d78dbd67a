"""Getting resolver documents: over HTTP(S), or from a mirror on disk.

Base URL: ``--resolver`` > ``$PITH_RESOLVER`` > ``https://pith.science``.  A value that is
an existing directory (or a ``file://`` URL) is a mirror on disk laid out like the
resolver: ``pith/NUM.json`` and ``pith/NUM/bundle.json``
(or ``.well-known/pith/NUM/bundle.json``).

HTTP policy (requests is imported lazily):

* connect and read timeout ``timeout`` per request (never more than what is left of the
  command's ``deadline``);
* at most 3 attempts, retried on connection errors, timeouts, 429 and 5xx, with
  exponential backoff (0.5 s, 1 s); ``Retry-After`` is honoured but capped at 10 s and
  never sleeps past the deadline;
* the body is streamed and capped (1 MiB; a document type may state its own cap,
  :meth:`Resolver.document`); a ``Content-Length`` that does not match
  the body is a truncated body;
* the record is required: 404 is "no record" (could not check).  The bundle is optional:
  a 404 on ``/pith/NUM/bundle.json`` and on ``/.well-known/pith/NUM/bundle.json`` means
  "no bundle", which the signature check reports as a warning (no receipt).

Every failure raises :class:`CouldNotCheck` with a one-line message naming the URL and
the cause.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any, NamedTuple, Optional
from urllib.parse import unquote, urlsplit

from . import __version__
from .documents import MAX_BODY, read_capped
from .errors import CouldNotCheck, UsageError, show

DEFAULT_RESOLVER = "https://pith.science"
ENV_RESOLVER = "PITH_RESOLVER"
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
            raise CouldNotCheck("%s: gave up, the %s s deadline was reached (--deadline)"
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
    except UnicodeDecodeError:
        raise CouldNotCheck("%s: body is not UTF-8 JSON" % where)
    try:
        return json.loads(text)
    except ValueError as e:
        if str(getattr(e, "msg", "")).startswith("Unterminated") or \
                getattr(e, "pos", 0) >= len(text.rstrip()):
            raise CouldNotCheck("%s: JSON ends early (truncated body)" % where)
        raise CouldNotCheck("%s: body is not valid JSON (%s)" % (where, getattr(e, "msg", e)))


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
            raise CouldNotCheck("%s: cannot read: %s" % (path, e.strerror or e))
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

    def _get_session(self) -> Any:
        if self._session is None:
            import requests

            s = requests.Session()
            s.headers.update({"User-Agent": USER_AGENT, "Accept": "application/json",
                              "Accept-Encoding": "identity"})
            self._session = s
        return self._session

    def record(self, number: str) -> Document:
        url = "%s/pith/%s.json" % (self.base_url, number)
        try:
            return self._get(url)
        except _NotFound:
            raise CouldNotCheck("%s: HTTP 404, the resolver has no record for %s" % (url, number))

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
        import requests

        session = self._get_session()
        last = ""
        for attempt in range(1, MAX_ATTEMPTS + 1):
            left = self.deadline.check(url)
            t = min(self.timeout, left)
            retry_after: Optional[float] = None
            try:
                with session.get(url, timeout=(t, t), stream=True, allow_redirects=True) as r:
                    status = r.status_code
                    if status == 404 or status == 410:
                        raise _NotFound()
                    if status == 429 or 500 <= status < 600:
                        last = "HTTP %d" % status
                        retry_after = _retry_after(r.headers.get("Retry-After"))
                    elif status != 200:
                        raise CouldNotCheck("%s: HTTP %d %s" % (url, status, show(r.reason or "", 40)))
                    else:
                        body = self._read_body(r, url, max_body)
                        return Document(url, body, parse_body(
                            body, url, r.headers.get("Content-Type", "")))
            except requests.exceptions.Timeout:
                last = "timed out after %s s" % _fmt(t)
            except _Retry as e:
                last = str(e) % _fmt(t)
            except requests.exceptions.SSLError as e:
                raise CouldNotCheck("%s: TLS error: %s" % (url, _reason(e)))
            except requests.exceptions.ConnectionError as e:
                last = "could not connect (%s)" % _reason(e)
            except requests.exceptions.ChunkedEncodingError:
                raise CouldNotCheck("%s: the connection broke mid-body (truncated body)" % url)
            except requests.exceptions.InvalidURL as e:
                raise UsageError("bad resolver URL %s: %s" % (show(url), _reason(e)))
            except requests.exceptions.RequestException as e:
                raise CouldNotCheck("%s: %s" % (url, _reason(e)))
            if attempt == MAX_ATTEMPTS:
                break
            wait = BACKOFF_BASE * (2 ** (attempt - 1))
            if retry_after is not None:
                wait = max(wait, min(retry_after, RETRY_AFTER_CAP))
            if wait >= self.deadline.remaining():
                raise CouldNotCheck("%s: %s, and the %s s deadline leaves no time to retry"
                                    % (url, last, _fmt(self.deadline.seconds)))
            self._sleep(wait)
        raise CouldNotCheck("%s: %s (%d attempts)" % (url, last, MAX_ATTEMPTS))

    def _read_body(self, r: Any, url: str, max_body: int = MAX_BODY) -> bytes:
        declared = r.headers.get("Content-Length")
        expected: Optional[int] = None
        encoded = r.headers.get("Content-Encoding", "identity").lower() not in ("", "identity")
        if declared is not None and not encoded:
            try:
                expected = int(declared)
            except ValueError:
                raise CouldNotCheck("%s: bad Content-Length %s" % (url, show(declared)))
            if expected > max_body:
                raise CouldNotCheck("%s: body larger than %s (Content-Length %d)"
                                    % (url, size_text(max_body), expected))
        chunks = []
        size = 0
        raw = r.raw
        read = getattr(raw, "read1", None)
        import urllib3.exceptions as u3

        while True:
            self.deadline.check(url)
            try:
                if read is not None:
                    chunk = read(65536, decode_content=True)
                else:  # pragma: no cover - urllib3 < 2
                    chunk = raw.read(65536, decode_content=True)
            except (u3.ReadTimeoutError, TimeoutError):
                raise _Retry("timed out after %s s reading the body")
            except (u3.ProtocolError, u3.IncompleteRead):
                raise CouldNotCheck("%s: the connection broke mid-body (truncated body)" % url)
            except (u3.DecodeError,) as e:
                raise CouldNotCheck("%s: cannot decode the body (%s)" % (url, _reason(e)))
            except (u3.HTTPError, OSError) as e:
                raise CouldNotCheck("%s: error reading the body (%s)" % (url, _reason(e)))
            if not chunk:
                break
            size += len(chunk)
            if size > max_body:
                raise CouldNotCheck("%s: body larger than %s" % (url, size_text(max_body)))
            chunks.append(chunk)
        body = b"".join(chunks)
        if expected is not None and len(body) != expected:
            raise CouldNotCheck("%s: truncated body (%d of %d bytes)" % (url, len(body), expected))
        return body


def _retry_after(value: Optional[str]) -> Optional[float]:
    if not value:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime

        when = parsedate_to_datetime(value)
        return max(0.0, when.timestamp() - time.time())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


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
    """``--resolver`` > ``$PITH_RESOLVER`` > the default."""
    return option or os.environ.get(ENV_RESOLVER) or DEFAULT_RESOLVER


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
