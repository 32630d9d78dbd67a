"""``pith-tex verify paper.pdf`` decides what page 1 shows with the readers' engines
(PDFium, poppler; zxing-cpp on their renderings): honest papers of the common classes and
TeX routes verify, and a machine without poppler says that it decided on PDFium alone.

Issue 19: acmart papers, and any paper with ``\\usepackage{cmap}`` and T1 fonts, failed with
"writes a key twice ('/ToUnicode')": a key that changes nothing a reader sees is no FAIL.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest

import recorded
import texbuild
from pith_tex.include.include import IncludeData, render

V = recorded.vectors_with_record()[0]
N = V["number"]
CLAIMED = "pith:%d:%s" % (V["year"], N)
INCLUDE = render(IncludeData(V["number"], V["year"], V["canonical_hash"],
                             V["canonical_record"], "absent", None, None)).decode("ascii")

ARTICLE = (r"""\documentclass{article}
%(pre)s\usepackage[qr]{pith}
\usepackage{hyperref}
\pithnumber{%(n)s}
\title{A Paper on Things}\author{A. Author}\date{}
\begin{document}
\maketitle
Some text.
\end{document}
""")

ACM = r"""\documentclass[%(opt)s]{acmart}
\usepackage[qr]{pith}
\pithnumber{%(n)s}
\title{A Paper on Things}
\author{A. Author}\affiliation{\institution{An University}\city{A City}\country{A Land}}
\begin{document}
\begin{abstract}An abstract.\end{abstract}
\maketitle
Some text.
\end{document}
"""

REVTEX = r"""\documentclass[aps,prl]{revtex4-2}
\usepackage[qr]{pith}
\pithnumber{%(n)s}
\begin{document}
\title{A Paper on Things}
\author{A. Author}\affiliation{An University}
\begin{abstract}An abstract.\end{abstract}
\maketitle
Some text.
\end{document}
"""

IEEE = r"""\documentclass[conference]{IEEEtran}
\usepackage[qr]{pith}
\pithnumber{%(n)s}
\title{A Paper on Things}
\author{\IEEEauthorblockN{A. Author}\IEEEauthorblockA{An University}}
\begin{document}
\maketitle
\begin{abstract}An abstract.\end{abstract}
Some text.
\end{document}
"""

BEAMER = r"""\documentclass{beamer}
\usepackage[qr]{pith}
\pithnumber{%(n)s}
\title{A Talk on Things}\author{A. Author}\date{}
\begin{document}
\begin{frame}\titlepage\end{frame}
\begin{frame}{Next}Some text.\end{frame}
\end{document}
"""

PAPERS = {
    "article-pdflatex": ("pdflatex", ARTICLE % {"pre": "", "n": N}),
    "article-dvips": ("dvips", ARTICLE % {"pre": "", "n": N}),
    "article-xelatex": ("xelatex", ARTICLE % {"pre": "", "n": N}),
    "article-lualatex": ("lualatex", ARTICLE % {"pre": "", "n": N}),
    # cmap and T1: pith's typewriter font loaded twice, pdfTeX merges the font objects
    # and writes /ToUnicode twice in one of them
    "article-cmap-t1": ("pdflatex", ARTICLE % {
        "pre": "\\usepackage{cmap}\n\\usepackage[T1]{fontenc}\n", "n": N}),
    "acmart-sigconf": ("pdflatex", ACM % {"opt": "sigconf", "n": N}),
    "acmart-acmsmall": ("pdflatex", ACM % {"opt": "acmsmall", "n": N}),
    "revtex": ("pdflatex", REVTEX % {"n": N}),
    "ieeetran": ("pdflatex", IEEE % {"n": N}),
    "beamer": ("pdflatex", BEAMER % {"n": N}),
}


def verify(pdf: Path, env: Any = None) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def checks(doc: Dict[str, Any]) -> Dict[str, Dict[str, str]]:
    return {c["name"]: c for c in doc["files"][0]["checks"]}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    cache: Dict[str, Path] = {}

    def get(name: str) -> Path:
        if name not in cache:
            route, source = PAPERS[name]
            b = texbuild.compile_tex(tmp_path_factory.mktemp(name), source, route,
                                     include=INCLUDE)
            assert b.ok, b.describe()
            cache[name] = b.pdf
        return cache[name]

    return get


@pytest.mark.parametrize("name", list(PAPERS))
def test_honest_paper_verifies(built, name):
    code, doc = verify(built(name))
    c = checks(doc)
    assert code == 0, json.dumps(c, indent=1)
    assert c["pdf"]["status"] == "ok", c["pdf"]  # no "key written twice"
    assert c["viewers"]["status"] == "ok" and "poppler" in c["viewers"]["detail"]
    assert c["badge"]["status"] == "ok", c["badge"]
    assert c["badge"]["detail"].startswith("page 1 shows %s (visible" % CLAIMED)
    assert c["qr"]["status"] == "ok", c["qr"]
    assert "PDFium" in c["qr"]["detail"] and "poppler" in c["qr"]["detail"]


def test_tounicode_twice_in_a_font_verifies(built, tmp_path):
    """A font dictionary of the cmap+T1 paper given /ToUnicode twice (as pdfTeX writes it
    when it merges two loads of one font): every engine reads the page the same, so it is
    no reason to fail; the old verify, which read the fonts with pypdf, failed it."""
    from pypdf.generic import NameObject

    from pdfclaims import tampered

    def edit(w):
        fonts = w.pages[0]["/Resources"]["/Font"]
        font = next(f.get_object() for f in fonts.values() if "/ToUnicode" in f.get_object())
        font[NameObject("/XToUnicod")] = font.raw_get("/ToUnicode")

    clone = tampered(built("article-cmap-t1"), tmp_path / "c.pdf", edit)
    data = clone.read_bytes()
    assert data.count(b"/XToUnicod") == 1
    twice = tmp_path / "twice.pdf"
    twice.write_bytes(data.replace(b"/XToUnicod", b"/ToUnicode"))
    code, doc = verify(twice)
    assert code == 0, checks(doc)
    assert checks(doc)["pdf"]["status"] == "ok"


def test_missing_poppler_is_said(built, tmp_path):
    """Without poppler on PATH, verify decides on PDFium alone and says so: the viewers
    check warns, naming poppler, and the badge and QR lines say PDFium alone."""
    env = dict(__import__("os").environ, PATH=str(tmp_path))  # an empty directory
    code, doc = verify(built("article-pdflatex"), env=env)
    c = checks(doc)
    assert code == 0, c
    assert c["viewers"]["status"] == "warn", c["viewers"]
    assert "PDFium" in c["viewers"]["detail"] and "alone" in c["viewers"]["detail"]
    assert "poppler is not installed" in c["viewers"]["detail"]
    assert "PDFium alone" in c["qr"]["detail"], c["qr"]
