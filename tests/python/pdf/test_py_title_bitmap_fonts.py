"""An honest paper in TeX's bitmap fonts verifies (a real elsarticle paper, NetV.js, with
``\\usepackage[T1]{fontenc}`` and no cm-super: pdflatex makes its fonts with mktexpk and
embeds them as Type 3).  poppler gives a Type 3 word its font box's height, and the ec
italic's box is half as high again as the roman's: the 8 pt italic affiliations under the
title measured 17 pt to poppler, so verify took them for the title and said "different"
(exit 1).  A stand-in of our own, compiled by real pdflatex, read by the real engines."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Tuple

import hostile_pdfs as H
import recorded
import texbuild

V = recorded.vectors_with_record()[0]

_ELSARTICLE_T1 = r"""\documentclass[5p]{elsarticle}
\usepackage[T1]{fontenc}
\usepackage{pith}
\pithnumber{%s}
\begin{document}
\begin{frontmatter}
\title{%s}
\author[a,b]{Dongming Han, Jiacheng Pan, Xiaodong Zhao}
\author[a]{Wei Chen}
\address[a]{State Key Lab of CAD\&CG, Zhejiang University, Hangzhou, Zhejiang, China}
\address[b]{Zhejiang Lab, Hangzhou, Zhejiang, China}
\begin{abstract}
Graph visualization plays an important role in several fields.
\end{abstract}
\end{frontmatter}
\section{Introduction}
Some text of the paper.
\end{document}
"""


def verify(pdf: Path) -> Tuple[int, Dict[str, Any]]:
    r = subprocess.run([sys.executable, "-m", "pith_tex", "verify", "--json", str(pdf)],
                       capture_output=True, text=True, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr
    return r.returncode, json.loads(r.stdout)


def test_italic_affiliations_in_bitmap_fonts_are_not_the_title(tmp_path: Path) -> None:
    b = texbuild.compile_tex(tmp_path, _ELSARTICLE_T1 % (V["number"], V["title"]),
                             include=H.include_of(V))
    assert b.ok, b.describe()
    fonts = subprocess.run(["pdffonts", "-l", "1", str(b.pdf)], capture_output=True,
                           text=True, timeout=60).stdout
    # The mechanism: the page's text is in Type 3 fonts (no cm-super on this machine).
    assert "Type 3" in fonts, "cm-super is installed: the T1 fonts are not bitmaps\n" + fonts
    code, doc = verify(b.pdf)
    found = {c["name"]: c for c in doc["files"][0]["checks"]}
    assert found["title"]["status"] == "ok", found["title"]
    assert code == 0, doc
