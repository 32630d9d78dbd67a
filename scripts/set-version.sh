#!/usr/bin/env bash
# Set the one version of pith-tex and pith.sty: scripts/set-version.sh 1.1.0 [YYYY-MM-DD]
# It rewrites pith_tex.__version__ (which the wheel's metadata reads) and pith.sty's
# \ProvidesExplPackage line (and the version in the include-newer log test);
# tests/python/test_py_version.py fails if they ever differ.  The rule for moving it:
# docs/development.md, "Versions, licences, CTAN".
set -euo pipefail
cd "$(dirname "$0")/.."
version="${1:?usage: scripts/set-version.sh X.Y.Z [YYYY-MM-DD]}"
date="${2:-$(date -u +%Y-%m-%d)}"
[[ "$version" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || { echo "version must be X.Y.Z" >&2; exit 2; }
[[ "$date" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}$ ]] || { echo "date must be YYYY-MM-DD" >&2; exit 2; }
sed -i -E "s/^__version__ = \"[^\"]*\"/__version__ = \"$version\"/" pyhelper/pith_tex/__init__.py
sed -i -E "s/^\\\\ProvidesExplPackage\{pith\}\{[^}]*\}\{[^}]*\}/\\\\ProvidesExplPackage{pith}{$date}{$version}/" latex/pith.sty
# The log test of an include newer than pith.sty names pith.sty's version.
sed -i -E "s/(newer than this pith\.sty )[0-9]+\.[0-9]+\.[0-9]+ /\1$version /" \
  latex/testfiles/include-newer.tlg
grep -n "^__version__" pyhelper/pith_tex/__init__.py
grep -n "^\\\\ProvidesExplPackage" latex/pith.sty
