#!/usr/bin/env bash
# The hostile tests against the lowest dependency versions pyproject.toml allows: a floor
# that lets a vulnerable release in is a bug this catches.  A separate venv (its own
# directory, removed afterwards) gets every runtime dependency pinned at its floor for this
# Python (markers applied), this package without its deps, and the test tools; then every
# test marked `hostile` runs in it.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV="$(mktemp -d "${TMPDIR:-/tmp}/pith-floors.XXXXXX")"
trap 'rm -rf "$VENV"' EXIT

"$PYTHON" -m venv "$VENV" || { echo "test-floors: $PYTHON -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
PIP=("$VENV/bin/python" -m pip install -q --disable-pip-version-check)
"${PIP[@]}" packaging "tomli; python_version < '3.11'"
PINS="$("$VENV/bin/python" - <<'PY'
import sys
try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib
from packaging.markers import Marker
from packaging.requirements import Requirement

deps = tomllib.load(open("pyproject.toml", "rb"))["project"]["dependencies"]
for d in deps:
    r = Requirement(d)
    if r.marker is not None and not r.marker.evaluate():
        continue
    floors = [s.version for s in r.specifier if s.operator == ">="]
    if len(floors) != 1:
        sys.exit("no single >= floor for %r" % d)
    print("%s==%s" % (r.name, floors[0]))
PY
)"
echo "floors: $(echo $PINS)"
"${PIP[@]}" $PINS
"${PIP[@]}" --no-deps -e .
"${PIP[@]}" pytest pytest-xdist hypothesis fonttools  # fonttools: tests/support/reader_tricks.py builds a TrueType program
"$VENV/bin/python" -m pip check
PYTHONPATH="$PWD/pyhelper" "$VENV/bin/python" -m pytest -q -m hostile -n "${FLOORS_WORKERS:-2}" \
  tests/python tests/resolver
