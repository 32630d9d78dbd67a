#!/usr/bin/env bash
# Sets up a machine to build the example and run the tests: TeX Live and the PDF/QR tools
# from the distribution (every route arXiv uses, plus the classes the tests compile), then
# a project virtual environment .venv with pith-tex and its test and lint extras, which the
# Makefile uses.  A venv because Debian 12 and Ubuntu 24.04 refuse `pip install` into the system
# Python (PEP 668, "externally managed").  Root (or sudo) is needed only when a
# distribution package is missing; run it again any time, it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(
  make jq ghostscript poppler-utils zbar-tools lmodern python3 python3-venv
  texlive-latex-base texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended texlive-plain-generic texlive-xetex texlive-luatex
  texlive-publishers
  latexmk  # the README's compile route and the CTAN manual's one build command
  latexml  # arXiv's HTML view: pith-tex check's html line and its tests
  valgrind  # make bench: instruction counts (deterministic compile cost)
  nodejs  # the tests' pdf.js oracle (tests/pdfjs; pdfjs-dist 5 needs node >= 20.19)
  fonts-dejavu-core  # a TrueType program the tests' forged fonts are made from
)

missing=()
if command -v dpkg-query >/dev/null; then
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
else
  echo "setup.sh: not a Debian/Ubuntu system: install TeX Live, poppler, zbar, ghostscript" \
       "and Python 3 yourself (see README.md), then run this again" >&2
fi
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || {
      echo "setup.sh: these packages are missing and installing them needs root:" \
           "${missing[*]}" >&2
      exit 1
    }
    SUDO="sudo"
  fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The project venv (re-created when broken, e.g. after the system Python changed).
if ! .venv/bin/python -c "import sys" 2>/dev/null; then
  rm -rf .venv
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
# scale: the Dask tests (tests/python/verify/test_py_archive.py); lint: make lint
.venv/bin/python -m pip install -q -e '.[test,scale,lint]'

# pdf.js (Firefox's PDF engine) for the tests only: pdfjs-dist and @napi-rs/canvas at the
# versions of tests/pdfjs/package-lock.json, in tests/pdfjs/node_modules (git-ignored).
if ! command -v npm >/dev/null; then  # Debian packages npm apart from nodejs
  [ "$(id -u)" = 0 ] && apt-get install -y -qq --no-install-recommends npm >/dev/null \
    || sudo apt-get install -y -qq --no-install-recommends npm >/dev/null
fi
if ! (cd tests/pdfjs && npm ls --silent >/dev/null 2>&1); then
  (cd tests/pdfjs && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# pith.sty is generated from its literate source latex/pith.dtx (docstrip, latex/pith.ins):
# the tests, the example and the wheel read the generated file.
make -s latex/pith.sty
echo "setup.sh: ready; pith-tex is .venv/bin/pith-tex (make example, make test use it)"
