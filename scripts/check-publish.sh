#!/usr/bin/env bash
# Packages every published crate in the order they depend on each other
# (monitor-core, mongen, monitor-macros) and builds each package as
# crates.io would, against the others' packages: `cargo publish --dry-run`,
# which uploads nothing. Needs the crates.io index (network).
set -euo pipefail
cd "$(dirname "$0")/.."
# --allow-dirty: a checkout may carry untracked build links (target/); the
# packages hold only the files `cargo package --list` names.
cargo publish --workspace --dry-run --allow-dirty --quiet
for krate in monitor-core mongen monitor-macros; do
  list="$(cargo package --list --allow-dirty -p "$krate")"
  for file in Cargo.toml README.md LICENSE-MIT LICENSE-APACHE src/lib.rs; do
    grep -qx "$file" <<<"$list" || { echo "$krate: $file missing from the package" >&2; exit 1; }
  done
done
grep -qx "templates/promela/never.pml" <<<"$(cargo package --list --allow-dirty -p mongen)" \
  || { echo "mongen: the askama templates are missing from the package" >&2; exit 1; }
echo "publish dry run: monitor-core, mongen, monitor-macros package and build"
