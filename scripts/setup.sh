#!/usr/bin/env bash
# Installs everything pith-tex needs on a fresh Debian/Ubuntu machine: TeX Live from the
# distribution (every route arXiv uses, plus the classes the tests compile), the PDF/QR
# readers the tests use, and this package with its test extras.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
  make jq ghostscript poppler-utils zbar-tools lmodern \
  texlive-latex-base texlive-latex-recommended texlive-latex-extra \
  texlive-fonts-recommended texlive-plain-generic texlive-xetex texlive-luatex \
  texlive-publishers >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null  # make test-floors
$SUDO apt-get install -y -qq --no-install-recommends latexml >/dev/null  # arXiv's HTML view (LaTeXML)

python3 -m pip install -q -e '.[test]'
