"""Test documents: one minimal but realistic front matter per class."""

from __future__ import annotations

from texrun import NUM

TITLE = "Fast Recovery of Training Runs"

HYPERREF_OPTS = "pdfusetitle,colorlinks,linkcolor=blue,urlcolor=magenta"

# (documentclass line, preamble after packages, front matter in the body)
CLASSES: dict[str, tuple[str, str, str]] = {
    "article": (r"\documentclass{article}",
                rf"\title{{{TITLE}}}\author{{Ada Author}}",
                r"\maketitle"),
    "report": (r"\documentclass{report}",
               rf"\title{{{TITLE}}}\author{{Ada Author}}",
               r"\maketitle"),
    "amsart": (r"\documentclass{amsart}",
               rf"\title{{{TITLE}}}\author{{Ada Author}}",
               r"\maketitle"),
    "revtex": (r"\documentclass[aps,prl,twocolumn]{revtex4-2}",
               "",
               rf"\title{{{TITLE}}}\author{{Ada Author}}\affiliation{{Somewhere}}"
               r"\begin{abstract}An abstract.\end{abstract}\maketitle"),
    "ieeetran": (r"\documentclass[conference]{IEEEtran}",
                 rf"\title{{{TITLE}}}\author{{Ada Author}}",
                 r"\maketitle"),
    "acmart": (r"\documentclass[sigconf]{acmart}",
               r"\settopmatter{printacmref=false}\setcopyright{none}"
               r"\renewcommand\footnotetextcopyrightpermission[1]{}"
               rf"\title{{{TITLE}}}\author{{Ada Author}}\affiliation{{\institution{{Somewhere}}\country{{Nowhere}}}}",
               r"\begin{abstract}An abstract.\end{abstract}\maketitle"),
    "llncs": (r"\documentclass{llncs}",
              rf"\title{{{TITLE}}}\author{{Ada Author}}\institute{{Somewhere}}",
              r"\maketitle"),
    "elsarticle": (r"\documentclass{elsarticle}",
                   "",
                   rf"\begin{{frontmatter}}\title{{{TITLE}}}\author{{Ada Author}}"
                   r"\end{frontmatter}"),
    "memoir": (r"\documentclass{memoir}",
               rf"\title{{{TITLE}}}\author{{Ada Author}}",
               r"\maketitle"),
    "scrartcl": (r"\documentclass{scrartcl}",
                 rf"\title{{{TITLE}}}\author{{Ada Author}}",
                 r"\maketitle"),
    "beamer": (r"\documentclass{beamer}",
               rf"\title{{{TITLE}}}\author{{Ada Author}}",
               r"\maketitle"),
}

# Classes that load hyperref themselves: a second \usepackage with options
# would clash, so the author's options go through \hypersetup instead.
CLASS_LOADS_HYPERREF = {"beamer", "acmart"}

# Classes whose author macros break hyperref's pdfusetitle (also without
# pith): the title is given explicitly instead.
NO_PDFUSETITLE = {"elsarticle"}

MODES = ("none", "before", "after", "docmeta")


def document(cls: str = "article", mode: str = "after", pith_options: str = "",
             number: str | None = NUM, body: str = "Some text.\n",
             extra_preamble: str = "", pith: bool = True) -> str:
    """A complete document for class ``cls`` with hyperref in ``mode``; with
    ``pith=False`` the same document without the package (and its number)."""
    docclass, preamble, front = CLASSES[cls]
    lines = []
    # Only in its own mode: elsarticle under \DocumentMetadata stops on the
    # 2026 kernel ("\qed already defined"), and so did all its cases.
    if mode == "docmeta":
        lines.append(r"\DocumentMetadata{}")
    lines.append(docclass)
    opts_h = HYPERREF_OPTS
    if mode == "docmeta" or cls in NO_PDFUSETITLE:
        # pdfusetitle does nothing under the TL2022 pdfmanagement, nor with
        # elsarticle's author macros: give the title explicitly so that
        # "hyperref's keys survive" is testable.
        opts_h = opts_h.replace("pdfusetitle,", "")
        opts_h += f",pdftitle={{{TITLE}}},pdfauthor={{Ada Author}}"
    hyper = (rf"\hypersetup{{{opts_h.replace('pdfusetitle,', '')}}}"
             if cls in CLASS_LOADS_HYPERREF
             else rf"\usepackage[{opts_h}]{{hyperref}}")
    if mode == "before":
        lines.append(hyper)
    opts = f"[{pith_options}]" if pith_options else ""
    if pith:
        lines.append(rf"\usepackage{opts}{{pith}}")
    if mode in ("after", "docmeta"):
        lines.append(hyper)
    lines.append(extra_preamble)
    if number is not None and pith:
        lines.append(rf"\pithnumber{{{number}}}")
    lines.append(preamble)
    lines.append(r"\begin{document}")
    if cls == "beamer":
        lines.append(front)
        lines.append(r"\begin{frame}{Next}" + body + r"\end{frame}")
    else:
        lines.append(front)
        lines.append(body)
    lines.append(r"\end{document}")
    return "\n".join(lines) + "\n"
