#!/bin/bash
# Do two pith.sty files make byte-identical PDFs?  For a change of pith.sty that
# should change no behaviour (a restructure): the stand-in documents below (the
# ways classes make titles, the placements, the include's readers, QR codes) are
# built with each pith.sty on each route, with a fixed date, and compared with cmp.
#
#   scripts/same-pdfs.sh OLD.sty [NEW.sty]          # NEW: latex/pith.sty
#   git show main:latex/pith.sty > /tmp/old.sty && scripts/same-pdfs.sh /tmp/old.sty
#
# ROUTES (default "pdflatex xelatex dvips lualatex") picks the routes; the
# \DocumentMetadata stand-in runs on pdflatex only (xdvipdfmx and LuaTeX
# compress its XMP packet, which holds the clock time on TeX Live 2022).  Exit 0
# when every pair is identical, 1 otherwise (the differing documents are named).
set -euo pipefail
REPO=$(cd "$(dirname "$0")/.." && pwd)
OLD=$(realpath "$1")
NEW=$(realpath "${2:-$REPO/latex/pith.sty}")
ROUTES=${ROUTES:-"pdflatex xelatex dvips lualatex"}
WORK=$(mktemp -d)
[ -n "${KEEP:-}" ] && echo "work: $WORK" || trap 'rm -rf "$WORK"' EXIT
export SOURCE_DATE_EPOCH=0 FORCE_SOURCE_DATE=1

# The contract's include (docs/include-format.md), with its title and QR code;
# and the same include spaced otherwise than pith-tex writes it.
python3 - "$REPO" "$WORK" <<'EOF'
import re, sys
from pathlib import Path
repo, work = Path(sys.argv[1]), Path(sys.argv[2])
text = (repo / "docs/include-format.md").read_text(encoding="utf-8")
(inc,) = [b for b in re.findall(r"```latex\n(.*?)```", text, flags=re.S) if r"\pithrecord{" in b]
(work / "inc.tex").write_text(inc, encoding="ascii")
(work / "inc-notitle.tex").write_text(
    re.sub(r"(?m)^  title-utf16 = [0-9a-f]*,\n", "", inc), encoding="ascii")
(work / "inc-spaced.tex").write_text(
    re.sub(r"(?m)^  ([a-z0-9-]+) = ", r"\1=", inc).replace("pithrecord{2}{", "pithrecord{ 2 }{"),
    encoding="ascii")
EOF

doc() {  # doc NAME INCLUDE  (body on stdin)
  mkdir -p "$WORK/docs/$1"
  cat > "$WORK/docs/$1/main.tex"
  [ "$2" = none ] || cp "$WORK/$2.tex" "$WORK/docs/$1/pith-number.tex"
}
doc article inc <<'EOF'
\documentclass{article}
\usepackage{hyperref}
\usepackage[qr]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc notitle inc-notitle <<'EOF'
\documentclass[twocolumn]{article}
\usepackage{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text. \pithbadge
\end{document}
EOF
doc spaced inc-spaced <<'EOF'
\documentclass{article}
\usepackage[qr]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc icml inc <<'EOF'
\documentclass{article}
\usepackage{pith}
\makeatletter
\newcommand\icmltitle[1]{{\centering\Large #1\par}\vskip 1em}
\makeatother
\begin{document}
\twocolumn[\icmltitle{A Title}]
Text.
\end{document}
EOF
doc titlepage inc <<'EOF'
\documentclass[titlepage]{article}
\usepackage[qr]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc handtitlepage none <<'EOF'
\documentclass{report}
\usepackage{pith}
\pithnumber{pith:OZSQU6PZ6STJ7LG5TIDHTNXEHD}
\begin{document}
\begin{titlepage}\centering A Title\end{titlepage}
Text.
\end{document}
EOF
doc revtex inc <<'EOF'
\documentclass[aps,twocolumn]{revtex4-2}
\usepackage{pith}
\begin{document}
\title{A Title}\author{An Author}\affiliation{A Place}
\begin{abstract}An abstract.\end{abstract}
\maketitle
Text.
\end{document}
EOF
doc atbegin inc <<'EOF'
\documentclass{article}
\usepackage{pith}
\makeatletter
\AtBeginDocument{\renewcommand\maketitle{{\centering\LARGE\@title\par}\vskip 2em}}
\makeatother
\title{A Title}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc margin inc <<'EOF'
\documentclass{article}
\usepackage[placement=margin,qr]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc corner inc <<'EOF'
\documentclass{article}
\usepackage{hyperref}
\usepackage[placement=corner,qr]{pith}
\begin{document}
Text.
\end{document}
EOF
doc anon inc <<'EOF'
\documentclass{article}
\usepackage[anonymous]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc beamer inc <<'EOF'
\documentclass{beamer}
\usepackage[qr]{pith}
\title{A Title}\author{An Author}
\begin{document}
\begin{frame}\titlepage\end{frame}
\end{document}
EOF
doc ieee inc <<'EOF'
\documentclass[conference]{IEEEtran}
\usepackage{pith}
\title{A Title}\author{\IEEEauthorblockN{An Author}}
\begin{document}\maketitle
Text.
\end{document}
EOF
doc docmeta inc <<'EOF'
\DocumentMetadata{}
\documentclass{article}
\usepackage[qr]{pith}
\title{A Title}\author{An Author}
\begin{document}\maketitle
Text.
\end{document}
EOF

build() {  # build DIR ROUTE
  local d=$1 r=$2
  (cd "$d"
   case $r in
     dvips) latex -interaction=nonstopmode main >/dev/null 2>&1 || true
            latex -interaction=nonstopmode main >/dev/null 2>&1 || true
            dvips -R2 -q -z main.dvi -o main.ps >/dev/null 2>&1 && ps2pdf main.ps main.pdf >/dev/null 2>&1 || true ;;
     *) $r -interaction=nonstopmode main >/dev/null 2>&1 || true
        $r -interaction=nonstopmode main >/dev/null 2>&1 || true ;;
   esac)
}

# Each document is built twice in the same directory (LuaTeX's and the
# pdfmanagement's PDFs depend on the path): with the old pith.sty, then the new.
pair() {  # pair DOCDIR ROUTE
  local n r=$2 t
  n=$(basename "$1")-$2
  t="$WORK/run/$n"
  for sty in old new; do
    rm -rf "$t"; mkdir -p "$t"; cp "$1"/* "$t"/
    if [ $sty = old ]; then cp "$OLD" "$t/pith.sty"; else cp "$NEW" "$t/pith.sty"; fi
    build "$t" "$r"
    [ -s "$t/main.pdf" ] && mv "$t/main.pdf" "$WORK/$sty-$n.pdf"
  done
}
for d in "$WORK"/docs/*/; do
  for r in $ROUTES; do
    case "$(basename "$d"):$r" in docmeta:dvips|docmeta:xelatex|docmeta:lualatex|revtex:lualatex) continue;; esac
    pair "$d" "$r" &
    while [ "$(jobs -r | wc -l)" -ge 2 ]; do wait -n; done
  done
done
wait
# Byte for byte, except the clock time and the ids made from it that the XMP
# packet of \DocumentMetadata holds on TeX Live 2022 (it ignores
# SOURCE_DATE_EPOCH there), also inside compressed streams (xdvipdfmx).
same() {
  cmp -s "$1" "$2" || python3 - "$1" "$2" <<'EOF'
import re, sys, zlib
def inflated(m):
    try:
        return b"stream\n" + zlib.decompress(m.group(1)) + b"endstream"
    except zlib.error:
        return m.group(0)
def masked(path):
    data = open(path, "rb").read()
    data = re.sub(rb"stream\r?\n(.*?)endstream", inflated, data, flags=re.S)
    data = re.sub(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d|D:\d{14}", b"DATE", data)
    data = re.sub(rb"/ID ?\[ ?<[0-9A-Fa-f]+> ?<[0-9A-Fa-f]+> ?\]", b"ID", data)
    data = re.sub(rb"/Length \d+", b"/Length", data)
    return re.sub(rb"uuid:[0-9a-f-]{36}", b"UUID", data)
sys.exit(0 if masked(sys.argv[1]) == masked(sys.argv[2]) else 1)
EOF
}
status=0
for d in "$WORK"/docs/*/; do
  for r in $ROUTES; do
    n=$(basename "$d")-$r
    case "$n" in docmeta-dvips|docmeta-xelatex|docmeta-lualatex|revtex-lualatex) continue;; esac
    if [ ! -s "$WORK/old-$n.pdf" ] || [ ! -s "$WORK/new-$n.pdf" ]; then
      echo "NO PDF: $n"; status=1
    elif same "$WORK/old-$n.pdf" "$WORK/new-$n.pdf"; then echo "same: $n"
    else echo "DIFFERENT: $n"; status=1; fi
  done
done
exit $status
