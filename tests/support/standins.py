"""Stand-ins of real templates' title mechanisms, shared by the fetch and the PDF tests
(documents of our own that reproduce a mechanism, never a template's code)."""

from __future__ import annotations

#: PLOS/bioRxiv: no \title; the title (a macro, or typed) set in \Large in a flushleft
#: block.  Fill with ``% {"number": ..., "title": ..., "preamble": ...}``.
PLOS_LIKE = r"""\documentclass[10pt]{article}
\usepackage{pith}
\pithnumber{%(number)s}
%(preamble)s
\begin{document}
\vspace*{0.2in}
\begin{flushleft}
{\Large
\textbf\newline{%(title)s} %% sentence case, as the template asks
}
\newline
\\
Ann Author\textsuperscript{1*}
\\
\bigskip
\textbf{1} Some Department, Some University
\end{flushleft}
\section*{Abstract}
Text of the abstract.
\end{document}
"""
