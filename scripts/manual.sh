#!/usr/bin/env bash
# Build pith.sty's manual in DIR (default latex/): first the demo documents
# DIR/docs/badge-*.tex and page-*.tex (compiled from DIR, so that their
# include=docs/... paths resolve, with the pith.sty in DIR), whose PDFs are the
# manual's pictures, then DIR/pith.tex, rerun until its .aux, .toc and .out stop
# changing (at most 5 runs), so that the table of contents and every reference
# are right.  `make docs` runs it on latex/, scripts/ctan.sh on a scratch copy.
# On a failure it shows the end of the TeX log instead of TeX's whole chatter.
set -euo pipefail
dir="$(cd "${1:-$(dirname "$0")/../latex}" && pwd)"
cd "$dir"
export TEXINPUTS="$dir:"
flags=(-no-shell-escape -interaction=nonstopmode -halt-on-error)
for d in docs/badge-*.tex docs/page-*.tex; do
  pdflatex "${flags[@]}" -output-directory=docs "$d" >/dev/null \
    || { tail -n 30 "${d%.tex}.log"; exit 1; }
done
state() { { cat pith.aux pith.toc pith.out 2>/dev/null || true; } | cksum; }
rm -f pith.aux pith.toc pith.out  # a stale .aux from an older manual could settle early
for run in 1 2 3 4 5; do
  before="$(state)"
  pdflatex "${flags[@]}" pith.tex >/dev/null || { tail -n 30 pith.log; exit 1; }
  if [ "$run" -gt 1 ] && [ "$(state)" = "$before" ]; then
    echo "built $dir/pith.pdf ($run runs)"
    exit 0
  fi
done
echo "manual.sh: pith.tex's references did not settle in 5 runs" >&2
exit 1
