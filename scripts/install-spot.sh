#!/usr/bin/env bash
# Builds Spot's command-line tools (randltl, ltlfilt, ltl2tgba, autfilt)
# from a Spot source tree outside this repository, for the comparisons
# that run where Spot is installed (scripts/check-vs-spot.sh). Spot is GPL:
# it is run, never linked or vendored. Neither Debian nor PyPI ships it.
#
#   scripts/install-spot.sh SRC [PREFIX]
#
# SRC: an unpacked release tarball (spot-2.12.1.tar.gz from the LRDE) or a
# checkout of Spot's repository (then autoconf, automake, libtool and
# libltdl-dev are installed first: the checkout has no configure script).
# PREFIX defaults to ~/.local/spot; the tools go to PREFIX/bin. Without the
# Python bindings and the documentation (about 25 minutes on 2 cores).
set -euo pipefail
SRC=${1:?usage: scripts/install-spot.sh SRC [PREFIX]}
PREFIX=${2:-$HOME/.local/spot}
SRC=$(cd "$SRC" && pwd)
if [[ -x $PREFIX/bin/ltl2tgba ]]; then
  echo "install-spot: $("$PREFIX/bin/ltl2tgba" --version | head -1) is at $PREFIX/bin"
  exit 0
fi
cd "$SRC"
if [[ ! -x configure ]]; then
  SUDO=""
  if ((EUID != 0)) && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    autoconf automake libtool libltdl-dev bison flex g++ make >/dev/null
  autoreconf -vfi >/dev/null
fi
./configure -q --disable-python --disable-static --disable-devel --prefix="$PREFIX"
# The libraries and the tools only (the tests and the manual need more).
for d in picosat buddy lib ltdl spot bin; do make -s -j"$(nproc)" -C "$d"; done
for d in picosat buddy lib ltdl spot bin; do make -s -C "$d" install; done
echo "install-spot: $("$PREFIX/bin/ltl2tgba" --version | head -1) installed at $PREFIX/bin"
