"""What the links of page 1 open, for ``pith-tex verify paper.pdf``.

Two questions, read from page 1's annotations (docs/verification.md, "The badge's
link"):

* what any link opens, as text to search for another Pith Number (:func:`link_texts`:
  every URI, JavaScript and file name an annotation's actions reach);
* where each clickable area is and whether a click there opens exactly the Pith page of
  a number (:func:`link_areas`, :func:`link_problem`): the badge and the QR code must
  not be covered by a link that goes anywhere else.
"""

from __future__ import annotations

import re
from typing import Any, List, NamedTuple, Optional, Tuple, Union
from urllib.parse import unquote, urljoin

from ..errors import show
from ..record.identifier import URL_BASE
from .meta import text_value
from .layers import Box, _is_off, _off_groups, annot_rect

#: Annotations of page 1 looked at, and actions per annotation.
MAX_LINKS = 1000
_MAX_ACTIONS = 64


def _base(page: Any) -> Optional[str]:
    """The catalog's /URI /Base, against which viewers resolve a relative URI."""
    try:
        return text_value(page.pdf.trailer["/Root"].get("/URI", {}).get_object().get("/Base"))
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return None


def link_texts(page: Any) -> Tuple[str, ...]:
    """What page 1's link annotations open, as a viewer resolves it: the URI, file and
    JavaScript text of each annotation's action, its additional actions and every action
    they chain to with /Next, percent-decoded, a relative URI joined to the catalog's
    /URI /Base (at most 1000 annotations and 64 actions each looked at)."""
    found: List[str] = []
    base = _base(page)
    try:
        annots = page.get("/Annots")
        for a in list(annots.get_object() if annots is not None else [])[:MAX_LINKS]:
            annot = a.get_object()
            actions = [annot.get("/A")]
            extra = annot.get("/AA")
            if extra is not None and hasattr(extra.get_object(), "values"):
                actions.extend(list(extra.get_object().values())[:16])
            for text in _action_texts([x for x in actions if x is not None]):
                found.append(_decoded(text, base))
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        pass
    return tuple(found)


def _action_texts(actions: List[Any]) -> List[str]:
    """The /URI, /JS and /F strings of *actions* and of the actions they chain to."""
    out: List[str] = []
    stack = list(actions)
    seen = 0
    while stack and seen < _MAX_ACTIONS:
        seen += 1
        try:
            act = stack.pop().get_object()
        except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
            continue
        if isinstance(act, list):
            stack.extend(list(act)[:_MAX_ACTIONS])
            continue
        if not hasattr(act, "get"):
            continue
        for key in ("/URI", "/JS", "/F"):
            value = act.get(key)
            if value is None:
                continue
            value = value.get_object()
            if hasattr(value, "get_data"):  # JavaScript in a stream
                out.append(value.get_data()[:1 << 20].decode("latin-1"))
            elif hasattr(value, "get"):  # a file specification
                for k in ("/UF", "/F"):
                    t = text_value(value.get(k))
                    if t is not None:
                        out.append(t)
            else:
                t = text_value(value)
                if t is not None:
                    out.append(t)
        if act.get("/Next") is not None:
            stack.append(act.get("/Next"))
    return out


def _joined(text: str, base: Optional[str]) -> str:
    """*text* joined to *base* when it has no scheme (a relative URI)."""
    if base is not None and not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", text.strip()):
        return urljoin(base, text.strip())
    return text


def _decoded(text: str, base: Optional[str]) -> str:
    """*text* percent-decoded (as a browser does before the request reaches the
    resolver) and, when it has no scheme, joined to *base*."""
    for _ in range(3):
        decoded = unquote(text)
        if decoded == text:
            break
        text = decoded
    return _joined(text, base)


class Link(NamedTuple):
    """A clickable area of page 1: its rectangle, and what a click there does: opens
    *uri* (its one action is a URI action, nothing else), or *other* (what it does
    instead: another kind of action, a chain, additional actions, a destination);
    *quads*: the boxes of its /QuadPoints when a viewer that reads them makes only they
    clickable (none: the whole rectangle); *hidden*: flagged hidden or not viewed (/F),
    or in an optional content group (/OC) that is off: a viewer may not make it
    clickable at all."""

    box: Box
    uri: Optional[str]
    other: Optional[str] = None
    quads: Tuple[Box, ...] = ()
    hidden: bool = False


def _quads(annot: Any, box: Box) -> Tuple[Box, ...]:
    """The boxes of an annotation's /QuadPoints (each quadrilateral's bounding box), or
    () when it has none a viewer follows: none, unreadable, or a point outside its
    /Rect (viewers then ignore them, PDF 32000-1 12.5.6.5)."""
    raw = annot.get("/QuadPoints")
    if raw is None:
        return ()
    try:
        v = [float(x) for x in list(raw.get_object())[:8 * MAX_LINKS + 1]]
    except (TypeError, ValueError, AttributeError):
        return ()
    if not v or len(v) % 8 or len(v) > 8 * MAX_LINKS:
        return ()
    xs, ys = v[0::2], v[1::2]
    tol = 0.5
    if not all(box[0] - tol <= x <= box[2] + tol for x in xs) or not all(
            box[1] - tol <= y <= box[3] + tol for y in ys):
        return ()
    return tuple((min(xs[i:i + 4]), min(ys[i:i + 4]), max(xs[i:i + 4]), max(ys[i:i + 4]))
                 for i in range(0, len(xs), 4))


def _unseen(annot: Any, off: "frozenset[int]") -> bool:
    """Whether a viewer may neither show nor click *annot*: its /F flags Hidden (2) or
    NoView (32), or its /OC is a group (membership) that is off."""
    try:
        if int(annot.get("/F", 0)) & (2 | 32):
            return True
        return bool(off) and "/OC" in annot and _is_off(annot.raw_get("/OC"), off)
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return True  # unreadable flags: not vouched for as clickable


def _what_it_does(annot: Any, base: Optional[str],
                  off: "frozenset[int]" = frozenset()) -> Optional[Link]:
    """The link *annot* makes, or None when a click on it does nothing (no action, no
    destination) or it has no place on the page."""
    box = annot_rect(annot)
    action, extra, dest = annot.get("/A"), annot.get("/AA"), annot.get("/Dest")
    if box is None or (action is None and extra is None and dest is None):
        return None
    if extra is not None and len(extra.get_object()) > 0:
        return Link(box, None, "additional actions (/AA: run when the pointer enters it, "
                    "on focus, ...)")
    if action is None:
        return Link(box, None, "a destination in a document (/Dest), not a web page")
    if dest is not None:
        return Link(box, None, "both an action and a destination (/A and /Dest): viewers "
                    "differ in which they follow")
    act = action.get_object()
    if not hasattr(act, "get"):
        return Link(box, None, "an unreadable action")
    kind = act.get("/S")
    if kind != "/URI":
        name = str(kind) if re.match(r"/[A-Za-z0-9]{1,40}\Z", str(kind)) else show(str(kind), 40)
        return Link(box, None, "a %s action" % name)
    if act.get("/Next") is not None:
        return Link(box, None, "a chain of actions (/Next): a click also does what the "
                    "next one says")
    if act.get("/IsMap"):
        return Link(box, None, "a map link (/IsMap: a click adds ?x,y to the address)")
    uri = act.get("/URI")
    uri = uri.get_object() if uri is not None else None
    text = text_value(uri)
    if text is None:
        return Link(box, None, "a URI action without a readable URI")
    raw = getattr(uri, "original_bytes", None)
    if isinstance(raw, bytes) and raw != text.encode("ascii", "replace"):
        # a URI is 7-bit ASCII; pypdf decodes UTF-16 (or PDFDocEncoding) for us, a
        # viewer may pass the bytes on as they are
        return Link(box, None, "a URI that is not written as plain ASCII")
    return Link(box, _joined(text, base), None, _quads(annot, box), _unseen(annot, off))


def link_areas(page: Any) -> Union[Tuple[Link, ...], str]:
    """Every clickable area of page 1 (annotations with an action, additional actions or
    a destination; at most :data:`MAX_LINKS`), or why they could not be read."""
    base = _base(page)
    found: List[Link] = []
    try:
        off = _off_groups(page)
        annots = page.get("/Annots")
        annots = list(annots.get_object() if annots is not None else [])
        if len(annots) > MAX_LINKS:  # one not looked at could lie over the badge
            return "page 1 has %d annotations, more than %d" % (len(annots), MAX_LINKS)
        for a in annots:
            annot = a.get_object()
            if not hasattr(annot, "get"):
                continue
            link = _what_it_does(annot, base, off)
            if link is not None:
                found.append(link)
    except RecursionError:
        return "their objects are nested too deeply"
    except Exception as e:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return "%s: %s" % (type(e).__name__, show(str(e), 60))
    return tuple(found)


_UNRESERVED = re.compile(r"%([0-9A-Fa-f]{2})")


def _plain(path: str) -> str:
    """*path* with percent-escapes of unreserved characters decoded (``%4F`` is ``O``,
    RFC 3986 6.2.2.2) and the others upper-cased."""
    def one(m: "re.Match[str]") -> str:
        c = chr(int(m.group(1), 16))
        return c if re.match(r"[A-Za-z0-9._~-]\Z", c) else m.group(0).upper()

    return _UNRESERVED.sub(one, path)


def _without_dots(path: str) -> str:
    """*path* with its ``.`` and ``..`` segments removed (RFC 3986 5.2.4), as browsers
    do before the request."""
    out: List[str] = []
    segments = path.split("/")[1:]
    for i, seg in enumerate(segments):
        last = i == len(segments) - 1
        if seg in (".", ".."):
            if seg == ".." and out:
                out.pop()
            if last:
                out.append("")
        else:
            out.append(seg)
    return "/" + "/".join(out)


def page_problem(uri: str, number: str) -> Optional[str]:
    """Why *uri* is not the Pith page of *number*, ``https://pith.science/pith/NUMBER``,
    or None when it is.  The same page (RFC 3986 normalisation, what a browser requests):
    the scheme and host in any letter case, the port 443 written or not, percent-escapes
    of unreserved characters, ``.``/``..`` segments, a ``#fragment`` (never sent to the
    server).  Not the same: another scheme (``http``), host, port or path, user
    information (``user@``), a ``?query``, a trailing slash, the number in lower case,
    white space, control or non-ASCII characters, backslashes."""
    if len(uri) > 4096 or any(not " " < c <= "~" for c in uri):
        return "white space, control or non-ASCII characters in it"
    m = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):(.*)\Z", uri, re.S)
    if m is None:
        return "not an absolute address"
    scheme, rest = m.group(1).lower(), m.group(2)
    if scheme != "https":
        return "a %s: address, not https:" % show(scheme, 20)
    if "\\" in rest:
        return "a backslash in it"
    if not rest.startswith("//"):
        return "no host"
    rest = rest[2:].split("#", 1)[0]
    if "?" in rest:
        return "a query (?...): the server may show something else"
    authority, slash, path = rest.partition("/")
    if "@" in authority:
        return "user information before the host (...@)"
    host, colon, port = authority.partition(":")
    if host.lower() != "pith.science":
        return "another host"
    if colon and port and not (port.isdigit() and int(port) == 443):
        return "another port"
    path = _without_dots(_plain("/" + path if slash else "/"))
    want = "/pith/" + number
    if path == want:
        return None
    if path == want + "/":
        return "a trailing slash (/pith/NUMBER/ is another address)"
    if path.upper() == want.upper():
        return "the number's address in another letter case (addresses are case-sensitive)"
    return "another page"


def link_problem(link: Link, number: str) -> Optional[str]:
    """What is wrong with *link* over the badge or the QR code of *number*, as the end of
    a sentence "a link over the badge ...", or None when it opens the number's Pith
    page."""
    want = URL_BASE + number
    if link.uri is None:
        return "has %s, not a link to %s" % (link.other, want)
    why = page_problem(link.uri, number)
    if why is None:
        return None
    return "opens %s, not %s (%s)" % (show(link.uri, 80), want, why)
