"""Which optional content groups (layers) a viewer switches off when it opens the file,
and where an annotation lies: what :mod:`pith_tex.pdf.links` needs to tell a link a reader
can click from one no viewer shows (read with pypdf, as the links are).

Also which groups the readers' engines switch differently on screen and in print
(:func:`engines_disagree`): a group's ``/Usage`` state for the event decides in PDFium
(for Print, its View state when it has no Print state) and the default configuration
only when it says nothing; pdf.js (Firefox) shows a group when the configuration has it
on *and* its ``/Usage`` is not off; poppler reads the configuration alone; none reads
the ``/AS`` events.  PDFium's print
state is what ``FPDF_PRINTING`` renders (:mod:`pith_tex.pdf.printed` compares it with the
screen); a group pdf.js switches otherwise cannot be rendered here, so content in it over
the badge, the QR code or the title is refused."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

Box = Tuple[float, float, float, float]  # x0, y0, x1, y1 in user space (y up)

MAX_GROUPS = 10000


class Unfollowed(Exception):
    """The layers' configuration is not one every viewer reads alike: which are off is
    not known."""


def _group_list(value: Any, what: str) -> List[int]:
    """The object numbers of the groups in the array *value* (``[]`` when absent).
    Raises :class:`Unfollowed` for anything but an array of references to dictionaries:
    viewers read such a list each their own way (poppler drops all optional content for
    a null in /OCGs, keeps a group off after a null in /ON), so which layers are off is
    not known."""
    if value is None:
        return []
    items = value.get_object()
    if not isinstance(items, list) or len(items) > MAX_GROUPS:
        raise Unfollowed("its optional content configuration's %s is not an array of at "
                         "most %d groups: which layers are off is not known"
                         % (what, MAX_GROUPS))
    out = []
    for ref in items:
        if not hasattr(ref, "idnum") or not isinstance(ref.get_object(), dict):
            raise Unfollowed("its optional content configuration's %s holds %.40s, not a "
                             "group: viewers read it differently, so which layers are off "
                             "is not known" % (what, ref))
        out.append(ref.idnum)
    return out


def _off_groups(page: Any) -> "frozenset[int]":
    """The optional content groups (object numbers) that the document's default
    configuration switches off: what a viewer hides when it opens the file.  Raises
    :class:`Unfollowed` when the configuration is not one every viewer reads alike."""
    try:
        pdf = page.pdf  # a reader (the raw trailer's /Root), or a library caller's writer
        root = (pdf.trailer["/Root"] if hasattr(pdf, "trailer") else pdf.root_object
                ).get_object()
        props = root.get("/OCProperties")
        if props is None:
            return frozenset()
        props = props.get_object()
        config = props.get("/D") if isinstance(props, dict) else None
        if config is None:  # no default configuration: every group is on
            return frozenset()
        config = config.get_object()
        if not isinstance(config, dict):
            raise Unfollowed("its optional content configuration /D is not a dictionary")
        base = config.get("/BaseState", "/ON")
        # only the groups /OCGs lists are groups at all: poppler and pdf.js show content
        # marked with any other (a box in one, "off" in /OFF, is drawn: it covers)
        groups = _group_list(props.get("/OCGs"), "/OCGs")
        if base == "/OFF":
            on = set(_group_list(config.get("/ON"), "/ON"))
            return frozenset(n for n in groups if n not in on)
        if base not in ("/ON", "/Unchanged"):
            raise Unfollowed("its optional content configuration's /BaseState is %.40s"
                             % base)
        return frozenset(_group_list(config.get("/OFF"), "/OFF")).intersection(groups)
    except Unfollowed:
        raise
    except Exception as e:
        raise Unfollowed("its optional content configuration cannot be read (%s): which "
                         "layers are off is not known" % type(e).__name__) from e


def _ve_shows(expr: Any, off: "frozenset[int]", depth: int) -> bool:
    """Whether the visibility expression *expr* of a membership dictionary shows what it
    marks: ``[/And|/Or|/Not operands...]``, each operand a group or an expression.
    Raises :class:`Unfollowed` for anything else (and past 16 levels or 64 operands):
    whether the content is shown, and so whether it hides what it covers, is not known."""
    if hasattr(expr, "idnum"):  # a reference: a group, or an expression elsewhere
        target = expr.get_object()
        if isinstance(target, dict) and target.get("/Type") == "/OCG":
            return expr.idnum not in off
        expr = target
    if isinstance(expr, list) and depth < 16 and 2 <= len(expr) <= 65:
        op, args = expr[0], expr[1:]
        if op == "/Not" and len(args) == 1:
            return not _ve_shows(args[0], off, depth + 1)
        if op == "/And":
            return all([_ve_shows(a, off, depth + 1) for a in args])
        if op == "/Or":
            return any([_ve_shows(a, off, depth + 1) for a in args])
    raise Unfollowed("a membership dictionary (/OCMD) on page 1 has a visibility "
                     "expression (/VE) pith-tex cannot evaluate: whether what it marks is "
                     "shown is not known")


def _is_off(ref: Any, off: "frozenset[int]") -> bool:
    """Whether the group or membership dictionary *ref* is hidden (a membership
    dictionary by its /VE expression when it has one, else by its /OCGs and /P)."""
    if getattr(ref, "idnum", None) in off:
        return True
    d = ref.get_object()
    if d.get("/Type") != "/OCMD":
        return False
    if "/VE" in d:  # a visibility expression decides, not /OCGs and /P
        return not _ve_shows(d["/VE"], off, 0)
    groups = d.get("/OCGs")
    groups = groups.get_object() if groups is not None else []
    refs = list(groups) if isinstance(groups, list) else [groups]
    if len(refs) > 64 or not all(hasattr(g, "idnum") and isinstance(g.get_object(), dict)
                                 for g in refs):
        # poppler skips a null (its other groups decide), another viewer may not
        raise Unfollowed("a membership dictionary (/OCMD) on page 1 lists something else "
                         "than its (at most 64) groups: whether what it marks is shown is "
                         "not known")
    states = [g.idnum in off for g in refs]
    policy = d.get("/P", "/AnyOn")
    if policy == "/AllOn":
        return any(states)
    if policy == "/AnyOff":
        return not any(states)
    if policy == "/AllOff":
        return not all(states)
    return bool(states) and all(states)  # /AnyOn


def annot_rect(annot: Any) -> Optional[Box]:
    """An annotation's /Rect as (x0, y0, x1, y1) with x0 <= x1, y0 <= y1; None if unreadable."""
    try:
        x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return None
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def _state(config: Any, number: int) -> bool:
    """Whether the default configuration *config* switches group *number* on (its
    /BaseState, /ON and /OFF; no events)."""
    on = config.get("/BaseState", "/ON") != "/OFF"
    for key, value in (("/ON", True), ("/OFF", False)):
        if number in _group_list(config.get(key), key):
            on = value
    return bool(on)


def _usage(group: Any, event: str) -> Optional[bool]:
    """The group's /Usage state for *event* (``View`` or ``Print``): True on, False off,
    None when it says nothing."""
    usage = group.get("/Usage")
    usage = usage.get_object() if usage is not None else None
    if not isinstance(usage, dict):
        return None
    entry = usage.get("/" + event)
    entry = entry.get_object() if entry is not None else None
    if not isinstance(entry, dict):
        return None
    state = entry.get("/%sState" % event)
    return None if state is None else state != "/OFF"


def _intends_view(group: Any) -> bool:
    """Whether the group's /Intent includes View (or All); absent, it is View."""
    intent = group.get("/Intent")
    intent = intent.get_object() if intent is not None else "/View"
    names = list(intent) if isinstance(intent, list) else [intent]
    return any(n in ("/View", "/All") for n in names)


def _pdfium_state(config: Any, group: Any, number: int, event: str) -> bool:
    """PDFium's state of the group for *event* (CPDF_OCContext::LoadOCGState): on when
    its /Intent leaves out View; else its /Usage state for the event, for Print its View
    state when it has none; else the configuration's (/AS events only read the /Usage
    states already looked at)."""
    if not _intends_view(group):
        return True
    for usage in ((event, "View") if event == "Print" else (event,)):
        state = _usage(group, usage)
        if state is not None:
            return state
    return _state(config, number)


def _pdfjs_state(config: Any, group: Any, number: int, event: str) -> bool:
    """pdf.js's state of the group for *event*: the configuration's state, and then off
    when its /Usage says off for that event (no /AS)."""
    return _state(config, number) and _usage(group, event) is not False


def engines_disagree(page: Any) -> Tuple[str, ...]:
    """The /Name of each optional content group that PDFium and pdf.js switch differently,
    on screen or in print (read with pypdf from page 1's document; empty when none).
    Raises :class:`Unfollowed` for a configuration pith-tex does not follow as both do
    (/Configs, which PDFium searches for a view configuration)."""
    try:
        pdf = page.pdf
        root = (pdf.trailer["/Root"] if hasattr(pdf, "trailer") else pdf.root_object
                ).get_object()
        props = root.get("/OCProperties")
        props = props.get_object() if props is not None else None
        if not isinstance(props, dict):
            return ()
        config = props.get("/D")
        config = config.get_object() if config is not None else None
        if not isinstance(config, dict):
            return ()
        if props.get("/Configs") is not None:
            raise Unfollowed("its optional content has alternate configurations "
                             "(/Configs): which layers each reader shows is not known")
        names = []
        _group_list(props.get("/OCGs"), "/OCGs")  # refs to dictionaries, or Unfollowed
        for ref in props["/OCGs"].get_object():
            group, number = ref.get_object(), ref.idnum
            if any(_pdfium_state(config, group, number, event)
                   != _pdfjs_state(config, group, number, event)
                   for event in ("View", "Print")):
                names.append(str(group.get("/Name", "")))
        return tuple(names)
    except Unfollowed:
        raise
    except Exception as e:
        raise Unfollowed("its optional content configuration cannot be read (%s): which "
                         "layers are on in print is not known" % type(e).__name__) from e
