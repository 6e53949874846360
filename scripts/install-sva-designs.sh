#!/usr/bin/env bash
# Installs the real designs with concurrent SVA that the SVA tests read
# (examples/hardware/sva/): we do not copy them into the repository, they
# come from PyPI, where the LiteX project publishes the sources of open CPUs
# as `pythondata-cpu-*` packages (wheels of SystemVerilog files, with their
# licences). Pinned below by version and SHA-256; unpacked, not installed
# (they hold no code to run), under PREFIX/share/mongen/sva-designs/NAME.
# Idempotent.
#   scripts/install-sva-designs.sh [PREFIX]   (default ~/.local)
set -euo pipefail
PREFIX=${1:-$HOME/.local}
dest="$PREFIX/share/mongen/sva-designs"

# name  version  sha256 of the wheel
packages=(
  "pythondata-cpu-cv32e40p 1.0.1.post1909 424a04b65d854903ada62feb94a78346e60dc84c5487ed1f32405666eee6f8c3"
  "pythondata-cpu-cva6 4.2.0.post435 7cb13e1c2f9d30641bc583ca88a2f39f7bb37167d0ef5ca495338a031c88a3bb"
  "pythondata-cpu-ibex 0.0.post2937 bcb32ffccc75097248a11b3e52031eca92d21c6c6161a29151c8c79d6157e1c9"
)

SUDO=""
if ((EUID != 0)) && command -v sudo >/dev/null 2>&1; then SUDO=sudo; fi
if ! command -v unzip >/dev/null 2>&1; then
  echo "install-sva-designs: apt-get installing unzip"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends unzip >/dev/null
fi

mkdir -p "$dest"
for p in "${packages[@]}"; do
  read -r name version sha <<<"$p"
  module=${name//-/_}
  dir="$dest/$module"
  if [[ -f "$dir/.version" && $(cat "$dir/.version") == "$version" ]]; then continue; fi
  echo "install-sva-designs: $name $version from PyPI into $dir"
  tmp=$(mktemp -d)
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$tmp" "$name==$version"
  wheel=$(ls "$tmp"/*.whl)
  echo "$sha  $wheel" | sha256sum -c --quiet -
  rm -rf "$dir"
  mkdir -p "$dir"
  unzip -q "$wheel" -d "$dir"
  echo "$version" > "$dir/.version"
  rm -rf "$tmp"
done
echo "install-sva-designs: $dest"
