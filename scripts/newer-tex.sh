#!/bin/bash
# Run pith-tex's LaTeX tests on a newer TeX Live than the machine's: a Debian
# chroot (sid by default: TeX Live 2026 at the time of writing) made with
# debootstrap, outside the repository.  Not run by CI; see docs/texlive.md.
#
#   sudo scripts/newer-tex.sh                  # build (once) and run tests/latex
#   sudo scripts/newer-tex.sh tests/latex/test_latex_qr.py -k pdflatex
#
# Environment: CHROOT (default /work/chroot-sid), SUITE (sid or trixie),
# MIRROR (default: the first Debian URI in /etc/apt/sources.list*).
# Needs root (debootstrap, chroot, bind mounts) and about 4 GB of disk.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
CHROOT=${CHROOT:-/work/chroot-sid}
SUITE=${SUITE:-sid}
if [ -z "${MIRROR:-}" ]; then
  # Commented-out lines are skipped: Debian images note a snapshot.debian.org URI there,
  # which has no current sid.
  MIRROR=$(grep -hvE '^[[:space:]]*#' /etc/apt/sources.list /etc/apt/sources.list.d/* 2>/dev/null \
             | grep -oE 'https?://[^ ]*/debian/?' | grep -v security | head -n1 || true)
  MIRROR=${MIRROR:-http://deb.debian.org/debian}
fi
case "$CHROOT" in "$REPO"|"$REPO"/*) echo "CHROOT must be outside the repository" >&2; exit 2;; esac

PACKAGES="texlive-latex-base texlive-latex-recommended texlive-latex-extra
  texlive-fonts-recommended texlive-plain-generic texlive-xetex texlive-luatex
  texlive-publishers lmodern poppler-utils zbar-tools ghostscript make latexml latexmk
  python3 python3-venv python3-pip"
PYDEPS="click requests qrcode cryptography platformdirs pypdf pypdfium2 pytest pytest-xdist hypothesis zxing-cpp"

if [ ! -x "$CHROOT/usr/bin/pdflatex" ]; then
  command -v debootstrap >/dev/null || apt-get install -y debootstrap
  [ -x "$CHROOT/bin/sh" ] || debootstrap --variant=minbase "$SUITE" "$CHROOT" "$MIRROR"
  cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
  chroot "$CHROOT" apt-get -o Acquire::Check-Valid-Until=false update
  # shellcheck disable=SC2086
  chroot "$CHROOT" env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends $PACKAGES
fi

# Python wheels: downloaded by the host's pip (its proxy and CA settings),
# installed offline in the chroot's venv for the chroot's Python.
if [ ! -x "$CHROOT/opt/venv/bin/pytest" ]; then
  pyver=$(chroot "$CHROOT" python3 -c 'import sys; print("%d%d" % sys.version_info[:2])')
  mkdir -p "$CHROOT/root/wheels"
  # shellcheck disable=SC2086
  python3 -m pip download -q --only-binary=:all: --python-version "$pyver" \
    --implementation cp --abi "cp$pyver" --platform manylinux_2_28_x86_64 \
    --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform any \
    -d "$CHROOT/root/wheels" $PYDEPS
  chroot "$CHROOT" python3 -m venv /opt/venv
  # shellcheck disable=SC2086
  chroot "$CHROOT" env PIP_CONFIG_FILE=/dev/null /opt/venv/bin/pip install -q --no-index \
    --find-links /root/wheels $PYDEPS
fi

# The repository at the same path inside, for the test run only.
mounts=()
cleanup() { for ((i=${#mounts[@]}-1; i>=0; i--)); do umount "${mounts[$i]}" || true; done; }
trap cleanup EXIT
for m in proc dev; do
  if ! mountpoint -q "$CHROOT/$m"; then mount --bind "/$m" "$CHROOT/$m"; mounts+=("$CHROOT/$m"); fi
done
mkdir -p "$CHROOT$REPO"
if ! mountpoint -q "$CHROOT$REPO"; then mount --bind "$REPO" "$CHROOT$REPO"; mounts+=("$CHROOT$REPO"); fi

chroot "$CHROOT" pdftex --version | head -n1
[ $# -gt 0 ] || set -- -n 2 tests/latex
chroot "$CHROOT" env -i PATH=/opt/venv/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
  PYTHONPATH="$REPO/pyhelper" PYTHONDONTWRITEBYTECODE=1 \
  bash -c 'cd "$1" && shift && python -m pytest -q -p no:cacheprovider -rs "$@"' _ "$REPO" "$@"
