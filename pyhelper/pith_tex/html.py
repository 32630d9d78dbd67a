"""The ``html`` check: convert a paper with LaTeXML as arXiv does for its HTML view and
look for the badge in the page.

arXiv runs ``latexmlc --preload=[nobibtex,ids,localrawstyles]latexml.sty`` on the upload:
``localrawstyles`` makes LaTeXML read the ``pith.sty`` beside the paper, which then takes
its LaTeXML path (a link to the Pith page, no PDF code).  The conversion runs on a copy of
the paper's regular files in a temporary directory, within a time budget, and its process
group is killed when the budget runs out.

OK: no conversion error, no undefined macro, no error box in the page, and exactly one link
to ``https://pith.science/pith/NUM`` whose text holds ``pith:…NUM``.  WARN: LaTeXML is not
installed.  FAIL: anything else (the line says what).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
from html.parser import HTMLParser
from typing import Dict, List, Optional, Tuple

from .checks import Check, FAIL, OK, WARN

URL_BASE = "https://pith.science/pith/"
PRELOAD = "--preload=[nobibtex,ids,localrawstyles]latexml.sty"
#: Seconds for one conversion (the example paper takes about 3 s).
TIMEOUT = 180.0
#: Bytes of LaTeXML output kept (it can repeat one error thousands of times).
OUTPUT_CAP = 1 << 20


class _Links(HTMLParser):
    """Every ``<a href>`` into the Pith resolver, with its text; and the error boxes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: List[Tuple[str, str]] = []
        self.errors: List[str] = []
        self._open: List[List[str]] = []  # text of the Pith links being read
        self._href: List[str] = []
        self._in_error = 0
        self._error_text: List[str] = []

    def handle_starttag(self, tag: str, attrs: List[Tuple[str, Optional[str]]]) -> None:
        a: Dict[str, str] = {k: v or "" for k, v in attrs}
        if "ltx_ERROR" in a.get("class", "").split():
            self._in_error += 1
            self._error_text = []
        elif self._in_error:
            self._in_error += 1
        if tag == "a" and a.get("href", "").startswith(URL_BASE):
            self._open.append([])
            self._href.append(a["href"])
        elif tag == "a":
            self._open.append([])
            self._href.append("")

    def handle_endtag(self, tag: str) -> None:
        if self._in_error:
            self._in_error -= 1
            if not self._in_error:
                self.errors.append("".join(self._error_text).strip())
        if tag == "a" and self._open:
            text, href = "".join(self._open.pop()), self._href.pop()
            if href:
                self.links.append((href, " ".join(text.split())))

    def handle_data(self, data: str) -> None:
        for t in self._open:
            t.append(data)
        if self._in_error:
            self._error_text.append(data)


def _copy_regular(src: str, dst: str) -> None:
    """Copy the regular files of *src* (recursively, no dot files): never a symlink, a
    device or a FIFO, which LaTeXML on arXiv would not see either."""
    os.makedirs(dst, exist_ok=True)
    for name in os.listdir(src):
        if name.startswith("."):
            continue
        s, d = os.path.join(src, name), os.path.join(dst, name)
        st = os.lstat(s)
        if stat.S_ISDIR(st.st_mode):
            _copy_regular(s, d)
        elif stat.S_ISREG(st.st_mode):
            shutil.copyfile(s, d)


_SUMMARY_RE = re.compile(r"Conversion complete: ([^\n(]*)")
_ERROR_RE = re.compile(r"^(Error|Fatal):[^\n]*", re.M)
_UNDEFINED_RE = re.compile(r"undefined macros?\[([^\]]*)\]")


def _convert(latexmlc: str, paper: str, main: str, out: str,
             timeout: float) -> Tuple[Optional[int], str]:
    """Run the conversion; (exit code or None on timeout, its output)."""
    cmd = [latexmlc, PRELOAD, "--dest=" + os.path.join(out, "main.html"),
           "--log=" + os.path.join(out, "latexml.log"), main]
    proc = subprocess.Popen(cmd, cwd=paper, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        data, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return None, ""
    return proc.returncode, data[-OUTPUT_CAP:].decode("utf-8", "replace")


def check_html(directory: str, main: str, number: Optional[str] = None,
               timeout: float = TIMEOUT, expect_badge: bool = True) -> Check:
    """Convert *main* (a file name in *directory*) as arXiv does and check the badge.

    *number* is the paper's Pith Number when known (the link must then go to it);
    *expect_badge* is False for an anonymous submission (there must then be no link)."""
    latexmlc = shutil.which("latexmlc")
    if latexmlc is None:
        return Check("html", WARN, "not checked: LaTeXML (latexmlc) is not installed, so the "
                     "HTML view arXiv makes of the paper was not tried (apt-get install latexml)")
    with tempfile.TemporaryDirectory(prefix="pith-html-") as tmp:
        paper, out = os.path.join(tmp, "paper"), os.path.join(tmp, "out")
        _copy_regular(directory, paper)
        os.makedirs(out)
        code, output = _convert(latexmlc, paper, main, out, timeout)
        if code is None:
            return Check("html", FAIL, "LaTeXML did not finish within %d s" % timeout)
        page = os.path.join(out, "main.html")
        html = ""
        if os.path.exists(page):
            with open(page, encoding="utf-8", errors="replace") as f:
                html = f.read()
    summary = _SUMMARY_RE.search(output)
    said = summary.group(1).strip() if summary else "no summary (exit %d)" % code
    undefined = _UNDEFINED_RE.search(output)
    if undefined:
        return Check("html", FAIL, "LaTeXML, as arXiv runs it: undefined macro %s (%s)"
                     % (undefined.group(1), said))
    err = _ERROR_RE.search(output)
    if err or not html:
        first = err.group(0)[:300] if err else "no HTML was written"
        return Check("html", FAIL, "LaTeXML, as arXiv runs it: %s (%s)" % (first, said))
    parser = _Links()
    parser.feed(html)
    if parser.errors:
        return Check("html", FAIL, "the HTML page shows an error box: %s" % parser.errors[0])
    if not expect_badge:
        if parser.links or (number and number in html):
            return Check("html", FAIL, "anonymous, but the HTML page links to or names the "
                         "Pith Number")
        return Check("html", OK, "LaTeXML converts %s with no error; anonymous: no badge "
                     "in the page" % main)
    if len(parser.links) != 1:
        return Check("html", FAIL, "the HTML page has %d links to %s, not one badge"
                     % (len(parser.links), URL_BASE))
    href, text = parser.links[0]
    shown = href[len(URL_BASE):]
    if number is not None and shown != number:
        return Check("html", FAIL, "the HTML badge links to %s, not to the paper's %s"
                     % (href, number))
    if not re.search(r"pith:(?:[0-9]{4}:)?" + re.escape(shown), text):
        return Check("html", FAIL, "the HTML badge's text (%r) does not show pith:%s"
                     % (text, shown))
    return Check("html", OK, "LaTeXML converts %s as arXiv does, with no error; the badge "
                 "reads %r and links to %s" % (main, text, href))
