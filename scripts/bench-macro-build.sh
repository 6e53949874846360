#!/usr/bin/env bash
# The compile time one #[monitor] adds to a crate.
#
#   scripts/bench-macro-build.sh [N]
#
# Builds a scratch crate (debug profile, dependencies built once) three
# ways: N structs without monitors, the same N structs each with a
# #[monitor] (N different safety properties, Dwyer patterns over five
# propositions), and N impl blocks with method-call monitors. Each variant
# is rebuilt from a touched source REPEAT times; the script prints the
# median build time of each and the added time per monitor. Ratios, not
# absolute times, are comparable across machines.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
N=${1:-20}
REPEAT=${REPEAT:-5}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cargo build -q --release -p mongen --bin mongen
mapfile -t PATTERNS < <(target/release/mongen classify --json -F monitor-core/data/dwyer-patterns.ltl |
  python3 -c 'import json,sys
for l in sys.stdin:
    o = json.loads(l)
    if o["safety"] and "p4" not in o["formula"]: print(o["formula"])')

mkdir -p "$T/crate/src"
cat > "$T/crate/Cargo.toml" <<TOML
[package]
name = "monitor-build-bench"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
monitor-core = { path = "$ROOT/monitor-core", default-features = false }
monitor-macros = { path = "$ROOT/monitor-macros" }

[workspace]
TOML

variant() { # $1: plain | struct | impl
  {
    echo "#![allow(dead_code)]"
    [[ $1 == plain ]] || echo "use monitor_macros::monitor;"
    for ((i = 0; i < N; i++)); do
      f=${PATTERNS[$((i % ${#PATTERNS[@]}))]}
      case $1 in
        plain) echo "struct S$i { p0: bool, p1: bool, p2: bool, p3: bool }" ;;
        struct)
          echo "#[monitor(ltl = \"$f\")]"
          echo "struct S$i { p0: bool, p1: bool, p2: bool, p3: bool }"
          ;;
        impl)
          echo "struct S$i { monitor: S${i}Monitor }"
          echo "#[monitor(ltl = \"G(p0 -> X(!p0 W p1)) & (!p2 W p0) & G(p3 -> X !p3)\", on_violation = ignore)]"
          echo "impl S$i { fn p0(&mut self) {} fn p1(&mut self) {} fn p2(&mut self) {} fn p3(&mut self) {} }"
          ;;
      esac
    done
    echo "fn main() {}"
  } > "$T/crate/src/main.rs"
}

median() { sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

measure() { # $1: variant; prints the median build time in ms
  variant "$1"
  (cd "$T/crate" && cargo build -q 2>/dev/null)  # dependencies, once
  for ((r = 0; r < REPEAT; r++)); do
    touch "$T/crate/src/main.rs"
    local t0 t1
    t0=$(date +%s%N)
    (cd "$T/crate" && cargo build -q)
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
  done | median
}

plain=$(measure plain)
structs=$(measure struct)
impls=$(measure impl)
echo "crate with $N structs, median of $REPEAT debug builds:"
echo "  no monitors:               $plain ms"
echo "  $N #[monitor] structs:      $structs ms  (+$(((structs - plain) / N)) ms per monitor)"
echo "  $N #[monitor] impl blocks:  $impls ms  (+$(((impls - plain) / N)) ms per monitor)"
