#!/usr/bin/env bash
# What a crate using #[monitor] compiles: the cold debug build of a
# one-file crate with one struct monitor (the README's `Bus`), from an empty
# target directory, against the working tree's crates, and against those
# of BASE (a git revision) if given. Prints the seconds and the number of
# libraries compiled for each, REPEAT times, alternating.
#
#   scripts/bench-macro-deps.sh [BASE]      # e.g. 5d04cb4, before monitor-expand
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BASE=${1:-}
REPEAT=${REPEAT:-2}
T=$(mktemp -d)
cleanup() {
  if [ -n "$BASE" ]; then git -C "$ROOT" worktree remove --force "$T/base-src" 2>/dev/null || true; fi
  rm -rf "$T"
}
trap cleanup EXIT

# A scratch crate depending on monitor-core and monitor-macros under $2.
scratch() {
  local dir=$1 crates=$2
  mkdir -p "$dir/src"
  cat > "$dir/Cargo.toml" <<TOML
[package]
name = "macro-deps-bench"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
monitor-core = { path = "$crates/monitor-core" }
monitor-macros = { path = "$crates/monitor-macros" }

[workspace]
TOML
  cat > "$dir/src/main.rs" <<'RS'
use monitor_macros::monitor;

#[monitor(ltl = "G(req -> X(ack | X ack))")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {
    let mut m = BusMonitor::new();
    println!("{:?}", m.observe(&Bus { req: true, ack: false }));
}
RS
  # The same dependency versions as the workspace builds.
  cp "$crates/Cargo.lock" "$dir/Cargo.lock"
}

scratch "$T/head" "$ROOT"
labels=(head)
if [ -n "$BASE" ]; then
  git -C "$ROOT" worktree add --detach "$T/base-src" "$BASE" > /dev/null 2>&1
  scratch "$T/base" "$T/base-src"
  labels=(base head)
fi
# Dependencies are fetched first, so that the timings are builds only.
for l in "${labels[@]}"; do
  (cd "$T/$l" && cargo fetch -q)
done
for r in $(seq 1 "$REPEAT"); do
  for l in "${labels[@]}"; do
    dir="$T/$l"
    rm -rf "$dir/target"
    start=$(date +%s.%N)
    (cd "$dir" && cargo build -q)
    end=$(date +%s.%N)
    libs=$(find "$dir/target/debug/deps" -name '*.rlib' -o -name '*.so' | wc -l)
    printf '%-5s run %d: %6.1f s, %2d libraries\n' "$l" "$r" "$(awk "BEGIN { print $end - $start }")" "$libs"
  done
done
