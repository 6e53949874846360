#!/usr/bin/env bash
# Packages every published crate in the order they depend on each other
# (monitor-core, monitor-expand, mongen-sv, mongen, monitor-macros) and builds each package as
# crates.io would, against the others' packages: `cargo publish --dry-run`,
# which uploads nothing. Needs the crates.io index (network).
set -euo pipefail
cd "$(dirname "$0")/.."
# Cargo verifies each package against the others unpacked from a local
# staging registry, and takes a registry crate it has unpacked or built before
# under the same name and version as unchanged (registry/src/-<hash>/ and the
# fingerprints in target/debug): a later run would build mongen against an old
# monitor-core. Our crates are not on crates.io, so every unpacked copy and
# every debug build of them is from an earlier run; both go.
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
for krate in monitor-core monitor-expand mongen-sv mongen monitor-macros; do
  rm -rf "$cargo_home"/registry/src/-*/"$krate"-[0-9]* "$cargo_home"/registry/cache/-*/"$krate"-[0-9]*
done
cargo clean --quiet -p monitor-core -p monitor-expand -p mongen-sv -p mongen -p monitor-macros
# --allow-dirty: a checkout may carry untracked build links (target/); the
# packages hold only the files `cargo package --list` names.
# The verification builds are debug builds that nothing runs: without debug
# information and incremental caches they take far less time and disk.
CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0 \
  cargo publish --workspace --dry-run --allow-dirty --quiet
for krate in monitor-core monitor-expand mongen-sv mongen monitor-macros; do
  list="$(cargo package --list --allow-dirty -p "$krate")"
  for file in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE src/lib.rs; do
    grep -qx "$file" <<<"$list" || { echo "$krate: $file missing from the package" >&2; exit 1; }
  done
done
grep -qx "templates/promela/never.pml" <<<"$(cargo package --list --allow-dirty -p mongen)" \
  || { echo "mongen: the askama templates are missing from the package" >&2; exit 1; }
# The proc macro compiles the compiler and the token tools, nothing of the
# command line or the text targets (askama, serde, prettyplease, clap).
macro_deps="$(cargo tree -p monitor-macros -e normal --prefix none)"
for heavy in mongen askama serde prettyplease clap; do
  if grep -q "^$heavy v" <<<"$macro_deps"; then
    echo "monitor-macros depends on $heavy:" >&2
    cargo tree -p monitor-macros -e normal -i "$heavy" >&2
    exit 1
  fi
done
echo "publish dry run: monitor-core, monitor-expand, mongen-sv, mongen, monitor-macros package and build"
