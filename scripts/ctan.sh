#!/usr/bin/env bash
# Build the CTAN upload of pith.sty: OUT/pith.zip (default OUT=build/ctan) holding pith/
# with pith.sty, the manual's source and PDF, its pictures (docs/*.tex and the PDFs built
# from them, so that `latexmk -pdf pith.tex` alone rebuilds the manual in the unpacked
# zip), the CTAN README (latex/README-CTAN.md with the version filled in) and the licence.
# Nothing in it refers to a file outside it.  The manual is compiled in a scratch copy by
# scripts/manual.sh (rerun until its references settle), never in latex/, so a parallel
# `make docs` is undisturbed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
out="$(mkdir -p "${1:-build/ctan}" && cd "${1:-build/ctan}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

provides="$(grep -m1 '^\\ProvidesExplPackage{pith}' latex/pith.sty)"
date="$(sed -E 's/^[^}]*\}\{([^}]*)\}.*/\1/' <<<"$provides")"
version="$(sed -E 's/^[^}]*\}\{[^}]*\}\{([^}]*)\}.*/\1/' <<<"$provides")"

cp latex/pith.sty latex/pith.tex "$work/"
mkdir "$work/docs"
cp latex/docs/*.tex "$work/docs/"
bash scripts/manual.sh "$work" >/dev/null

pkg="$work/ctan/pith"
mkdir -p "$pkg/docs"
cp "$work/pith.sty" "$work/pith.tex" "$work/pith.pdf" "$pkg/"
cp latex/docs/*.tex "$pkg/docs/"
for d in "$work"/docs/badge-*.tex "$work"/docs/page-*.tex; do
  cp "${d%.tex}.pdf" "$pkg/docs/"
done
cp LICENSE.LPPL "$pkg/LICENSE"
sed -e "s/VERSION/$version/" -e "s/DATE/$date/" latex/README-CTAN.md > "$pkg/README.md"
rm -f "$out/pith.zip"
(cd "$work/ctan" && python3 -m zipfile -c "$out/pith.zip" pith >/dev/null)
echo "built $out/pith.zip (pith $version, $date)"
