"""Is this PDF the record's paper?  The ``title`` check of ``verify paper.pdf`` and of
``check`` (on the PDF it compiled), from what readers see.

Two facts are checked (docs/verification.md, "The title"):

* ``PithTitle``, the record's title as the resolver gave it, which pith.sty writes into
  the PDF's Info from the include: it must hash to the record's ``title_canon_sha256``
  exactly (anything else is a forged or damaged PDF: FAIL).  A PDF made by an older
  pith.sty has no ``PithTitle``: the record's title text is then taken from the local
  cache of ``fetch`` when it has the number, else the visible title is compared by its
  hash alone.
* page 1's visible title, as each engine of :mod:`pith_tex.pdf.pageview` (PDFium, poppler)
  extracts it: the largest text in the upper part of page 1 (:func:`visible_title`),
  compared by :func:`pith_tex.title.compare.compare`.  ``different`` on any engine is a FAIL:
  "this PDF is titled X; the number is for Y".

This module reads; :mod:`pith_tex.title.compare` decides.
"""

from __future__ import annotations

import io
import re
from typing import Callable, List, Optional, Tuple

from ..checks import Check, ERROR, FAIL, OK, WARN
from .bounded import page_one
from .pageview import EngineFailed, PageOne, View, Word
from ..record.canonical import canon_sha256
from ..title.compare import (DIFFERENT, FORMATTING, SAME, UNKNOWN, Comparison, compare,
                             contains, shown)

#: Only words in this upper part of page 1 can be the title (a title page's title sits
#: above the middle; a journal's running head is smaller than the title).
TOP_PART = 0.6
#: Words this close to the largest size (as a fraction) belong to the title.
SIZE_SLACK = 0.92
MAX_TITLE_WORDS = 60


def visible_title(view: View) -> Optional[str]:
    """The title page 1 shows in *view*: the words of the largest size in its upper part,
    in reading order, from the first such line through the lines that follow it closely
    (a title on two or three lines); None when page 1 has no text there."""
    top = [w for w in view.words if w.box[1] < view.height * TOP_PART and w.size > 0
           and any(c.isalnum() for c in w.text)]
    if not top:
        return None
    largest = max(w.size for w in top)
    big = [w for w in top if w.size >= largest * SIZE_SLACK]
    # the first block of such lines: a line more than 2.5 sizes below the last one ends it
    big.sort(key=lambda w: (round(w.box[1] / (largest * 0.5)), w.box[0]))
    kept: List[Word] = []
    bottom = None
    for w in big:
        if bottom is not None and w.box[1] > bottom + 2.5 * largest:
            break
        kept.append(w)
        bottom = w.box[3] if bottom is None else max(bottom, w.box[3])
    text = " ".join(w.text for w in kept[:MAX_TITLE_WORDS])
    # a \\thanks mark set against the last word (PDFium joins it to the word)
    return text.rstrip("*\u2217\u2020\u2021\u00a7\u00b6 ") or None


def display_blocks(view: View) -> List[str]:
    """Runs of words of one size (within 8 %) in page 1's upper part, in reading order,
    set larger than its body text (the median size, on a page with 50 words or more):
    where a title that is not the largest text (a journal's name set larger above it) is
    looked for."""
    sizes = sorted(w.size for w in view.words if w.size > 0)
    body = sizes[len(sizes) // 2] if len(sizes) >= 50 else 0.0
    blocks: List[List[Word]] = []
    for w in view.words:
        if not (w.box[1] < view.height * TOP_PART and w.size > body * 1.15):
            continue
        if blocks and abs(blocks[-1][-1].size - w.size) <= 0.08 * w.size:
            blocks[-1].append(w)
        else:
            blocks.append([w])
    return [" ".join(w.text for w in b) for b in blocks]


def pith_title(data: bytes) -> Tuple[Optional[str], Optional[str]]:
    """The PDF's ``PithTitle`` Info string (None: absent) and a problem reading it."""
    try:
        import pypdf  # pdf.py has vetted its version already: this module reads only

        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        info = reader.trailer.get("/Info")
        info = info.get_object() if info is not None else None
        value = None if info is None else info.get("/PithTitle")
    except Exception as e:  # pypdf raises many kinds on a damaged file
        return None, "cannot read the Info dictionary (%s)" % e.__class__.__name__
    if value is None:
        return None, None
    value = value.get_object() if hasattr(value, "get_object") else value
    if not isinstance(value, str):
        return None, "PithTitle is not a text string"
    return str(value), None


def _engine_titles(page: PageOne) -> List[Tuple[str, Optional[str]]]:
    return [(v.engine, visible_title(v)) for v in page.views]


#: How the ``title`` line of a title the author accepted begins (``check`` keeps it).
ACCEPTED = "different, accepted by the author"


def _shown_as(view: View, title: str, wanted: Optional[str],
              comparing: Callable[[str], Comparison]) -> Tuple[str, Comparison]:
    """Page 1's *title* in *view* against *wanted* (*comparing* one text with it): as
    shown, without a footnote mark joined to its last word, or among page 1's display
    text (a journal's name set larger above it)."""
    c = comparing(title)
    bare = re.sub(r"(?<=[^\W\d])\d{1,2}$", "", title)  # a footnote mark joined to
    if not c.matches and bare != title:           # the last word ("LLMs1")
        c2 = comparing(bare)
        if c2.matches:
            title, c = bare, c2
    if not c.matches and wanted is not None:
        # not the largest text: the wanted title among page 1's display text
        if any(contains(b, wanted) for b in display_blocks(view)):
            c = Comparison(FORMATTING, "found in page 1's display text",
                           ("set below larger text %s" % shown(title),))
            title = wanted
    return title, c


def _accepted_line(page: PageOne, seen: List[Tuple[str, Optional[str]]], accepted: str,
                   theirs: str) -> Optional[Check]:
    """The ``title`` line when every engine shows the title the author accepted
    (``fetch --accept-title``, ``PithAcceptedTitle``); None when one does not."""
    titles = []
    for (engine, title), view in zip(seen, page.views):
        if title is None:
            return None
        # the accepted title is TeX as typed: its macros are read against the page
        title, c = _shown_as(view, title, accepted, lambda t: compare(accepted, t, None))
        if not c.matches:
            return None
        titles.append(title)
    engines = " and ".join(e for e, _ in seen)
    return Check("title", WARN, "%s (fetch --accept-title): page 1's title %s is the title "
                 "the author accepted (PithAcceptedTitle); the record's title is%s: the "
                 "number identifies the record's paper, and its author says this PDF is a "
                 "later version of it; nothing here proves that (as %s show it)"
                 % (ACCEPTED, shown(titles[0]), theirs or " another (by its hash)", engines))


def title_from_page(page: PageOne, canon: Optional[str], record_title: Optional[str],
                    where: str, *, source: str, accepted: Optional[str] = None) -> Check:
    """The ``title`` line for page 1 as the engines show it.  *source* says where
    *record_title* came from (``PithTitle``, the cache), for the message.  *accepted*:
    the title the author accepted in place of the record's (``PithAcceptedTitle``, as
    typed): page 1 showing it is a WARN that says so, not a FAIL."""
    seen = _engine_titles(page)
    results = []
    for (engine, title), view in zip(seen, page.views):
        if title is None:
            return Check("title", WARN, "not compared: %s shows no title text on page 1 "
                         "(%s)" % (engine, where))
        title, c = _shown_as(view, title, record_title,
                             lambda t: compare(t, record_title, canon))
        results.append((engine, title, c))
    theirs = (" %s (%s)" % (shown(record_title), source) if record_title is not None
              else "")
    missing = "" if not page.missing else "; %s" % "; ".join(page.missing)
    if accepted is not None and not all(r[2].kind == SAME for r in results):
        line = _accepted_line(page, seen, accepted, theirs)
        if line is not None:
            return line
    worst = next((r for r in results if r[2].kind == DIFFERENT), None)
    if worst is not None:
        engine, title, _ = worst
        if accepted is not None:
            return Check("title", FAIL, "different: this PDF is titled %s; the number is "
                         "for%s, and the title its author accepted is %s (PithAcceptedTitle) "
                         "(%s reads page 1 so): if the title changed again, run pith-tex "
                         "fetch --accept-title again and recompile"
                         % (shown(title), theirs or " another title (by its hash)",
                            shown(accepted), engine))
        return Check("title", FAIL, "different: this PDF is titled %s; the number is for%s "
                     "(%s reads page 1 so; another paper's number?)"
                     % (shown(title), theirs or " another title (by its hash)", engine))
    unknown = next((r for r in results if r[2].kind == UNKNOWN), None)
    if unknown is not None:
        engine, title, _ = unknown
        return Check("title", WARN, "not checked: this PDF is titled %s (%s) and the "
                     "record's title text is not at hand (a PDF made by an older pith.sty "
                     "has no PithTitle, and fetch has not cached the record here): the "
                     "hash alone cannot tell a reformatted title from another paper's%s"
                     % (shown(title), engine, missing))
    engines = " and ".join(e for e, _, _ in results)
    if all(r[2].kind == SAME for r in results):
        return Check("title", OK, "same: page 1's title is the record's title %s (%s%s; as "
                     "%s show it)%s" % (shown(results[0][1]), "" if record_title is None
                                        else source + "; ", results[0][2].how, engines,
                                        missing))
    diff = next(r for r in results if r[2].kind == FORMATTING)
    return Check("title", OK, "same up to formatting: page 1's title %s is the record's "
                 "title%s (%s; as %s show it)%s"
                 % (shown(diff[1]), theirs, "; ".join(diff[2].differences) or diff[2].how,
                    engines, missing))


def _cached_title(number: Optional[str]) -> Optional[str]:
    """``paper.title`` of *number*'s record from ``fetch``'s cache (None: not cached)."""
    if number is None:
        return None
    import json

    from ..resolver.cache import Cache

    try:
        entry = Cache().load(number)
    except OSError:
        return None
    if entry is None:
        return None
    try:
        doc = json.loads(entry[0])
    except ValueError:
        return None
    paper = doc.get("paper") if isinstance(doc, dict) else None
    title = paper.get("title") if isinstance(paper, dict) else None
    return title if isinstance(title, str) else None


def pdf_title_checks(pdf_title: Optional[str], number: Optional[str], canon: Optional[str],
                     page: Optional[PageOne], page_error: Optional[str] = None,
                     accepted: Optional[str] = None) -> List[Check]:
    """``verify paper.pdf``'s title lines for a PDF whose record (number *number*) has
    ``title_canon_sha256`` *canon*: ``pith-title`` (the PDF's ``PithTitle``, *pdf_title*,
    hashes to it, exactly) and ``title`` (page 1's visible title, from *page*: page 1 as
    the engines show it, read once by the caller; None with *page_error* when they
    could not).  *accepted*: the PDF's ``PithAcceptedTitle``, the title its author
    accepted in place of the record's (``fetch --accept-title``)."""
    checks: List[Check] = []
    record_title = pdf_title
    source = "PithTitle"
    if canon is None:
        return [Check("title", ERROR, "not checked: the record has no title_canon_sha256")]
    if record_title is not None:
        if canon_sha256(record_title) != canon:
            return [Check("pith-title", FAIL, "PithTitle %s does not hash to the record's "
                          "title_canon_sha256: it is not the record's title"
                          % shown(record_title))]
        checks.append(Check("pith-title", OK, "PithTitle %s hashes to the record's "
                            "title_canon_sha256" % shown(record_title)))
    else:
        record_title = _cached_title(number)
        source = "fetch's cache"
        checks.append(Check("pith-title", WARN, "not checked: the PDF has no PithTitle (made "
                            "with a pith.sty older than the title binding); %s" % (
                                "the record's title is taken from fetch's cache"
                                if record_title is not None else
                                "only the title's hash is known")))
    if page is None:
        return checks + [Check("title", ERROR, "not checked: %s" % (
            page_error or "page 1 could not be read"))]
    checks.append(title_from_page(page, canon, record_title, "page 1", source=source,
                                  accepted=accepted))
    return checks


#: As pdf.MAX_PDF_BYTES (this module does not import pdf, which calls it).
MAX_PDF_BYTES = 256 * 1024 * 1024


def _read_pdf(path: str) -> bytes:
    """The PDF at *path* (a regular file, at most :data:`MAX_PDF_BYTES`); OSError else."""
    from ..safeio import read_regular_or_raise

    return read_regular_or_raise(path, MAX_PDF_BYTES)


def visible_title_check(pdf: str, canon: Optional[str], record_title: Optional[str],
                        where: str, *, accepted: Optional[str] = None) -> Optional[Check]:
    """``check``'s title line from the PDF it compiled (None: the engines could not read
    it, or show no title: the caller compares the source instead).  *accepted*: the
    title the include accepts in place of the record's."""
    try:
        data = _read_pdf(pdf)
        page = page_one(data)
    except (OSError, EngineFailed):
        return None
    pdf_title, problem = pith_title(data)
    source = "the cached record"
    if problem is None and pdf_title is not None and canon is not None and (
            canon_sha256(pdf_title) == canon):
        record_title, source = pdf_title, "PithTitle"
    c = title_from_page(page, canon, record_title, where, source=source, accepted=accepted)
    if c.status == WARN and not c.detail.startswith(ACCEPTED):
        return None
    return c
