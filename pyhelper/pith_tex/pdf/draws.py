"""How many times page 1 draws its form XObjects, every draw counted: a form drawn by a
form that is drawn 8 times is drawn 8 times (see :data:`pith_tex.pdf.structure.MAX_DRAWS`,
whose gate reads the streams and hands each one's ``/Name Do`` counts here).

This is a bottom module: it imports nothing from pith_tex.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Set, Tuple

#: The names a form's stream draws (``/Name Do`` -> times), from its reference and the
#: resources it is read in.
NamesOf = Callable[[Any, Any], Dict[str, int]]


class TooManyDraws(Exception):
    """The count passed the limit."""


def dict_of(value: Any) -> Dict[Any, Any]:
    """*value* resolved to a dictionary ({} when it is none or cannot be read)."""
    try:
        value = value.get_object() if value is not None else None
    except Exception:  # noqa: BLE001 -- pypdf raises any type on a hostile PDF
        return {}
    return value if hasattr(value, "items") else {}


class Draws:
    """The running count of draws (raising :class:`TooManyDraws` past *limit*), each
    form's own count memoised by the form and the resources its names are read in (a form
    without resources of its own reads them in its caller's, as PDFium does)."""

    def __init__(self, names_of: NamesOf, limit: int) -> None:
        self.names_of, self.limit = names_of, limit
        self.total = 0
        self.memo: Dict[Tuple[Any, Any, int], int] = {}
        self.active: Set[Tuple[Any, Any]] = set()

    def add(self, n: int) -> None:
        self.total += n
        if self.total > self.limit:
            raise TooManyDraws()

    def of(self, names: Dict[str, int], resources: Any) -> int:
        """The draws of a stream drawing *names* (read in *resources*), its forms' own
        draws included."""
        xobjects = dict_of(dict_of(resources).get("/XObject"))
        total = 0
        for name, n in names.items():
            ref = xobjects.get(name)
            form = dict_of(ref)
            inner = self.form(ref, form, resources) if form.get("/Subtype") == "/Form" else 0
            total += n * (1 + inner)
            if total > self.limit:
                raise TooManyDraws()
        return total

    def form(self, ref: Any, form: Dict[Any, Any], inherited: Any) -> int:
        key = (getattr(ref, "idnum", None), getattr(ref, "generation", None))
        if key[0] is None:
            key = (id(form), None)
        own = form.get("/Resources")
        resources = own if own is not None else inherited
        memo = (key[0], key[1], id(dict_of(resources)))
        if memo in self.memo:
            return self.memo[memo]
        if key in self.active:
            return 0  # a form drawing itself: the engines stop there
        self.active.add(key)
        try:
            count = self.of(self.names_of(ref, resources), resources)
        finally:
            self.active.discard(key)
        self.memo[memo] = count
        return count
