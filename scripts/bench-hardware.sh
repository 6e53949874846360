#!/usr/bin/env bash
# Size of the Verilog checkers after synthesis, per property.
#
#   scripts/bench-hardware.sh [FILE]
#
# For each safety property (the Dwyer patterns that are safety, the arbiter
# example, bounded response with growing bounds and Rozier's counters, or
# the lines of FILE): the monitor's states, then Yosys `synth` cells and
# flip-flops of the checker in each state encoding (binary, one-hot) and
# each form of the transition function (minimized sums of products, case
# statement), and for what mongen chooses by default. Cell counts are
# Yosys's generic gates ($_AND_, $_MUX_, ...) plus flip-flops; the same
# Yosys run synthesizes every variant. The last lines sum each column.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=$PWD/target/release/mongen
command -v yosys >/dev/null || { echo "yosys not found: run scripts/install-tools.sh" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

if [[ $# -gt 0 ]]; then
  grep -v '^\s*#' "$1" | grep -v '^\s*$' > "$T/props"
else
  "$M" classify --json -F monitor-core/data/dwyer-patterns.ltl |
    python3 -c 'import json,sys
for l in sys.stdin:
    o = json.loads(l)
    if o["safety"]: print(o["formula"])' > "$T/props"
  grep -v '^\s*#' examples/hardware/properties.ltl | grep -v '^\s*$' >> "$T/props"
  for k in 2 4 8 16 32 64; do echo "G(req -> F[0:$k] ack)"; done >> "$T/props"
  for n in 2 3 4; do "$M" genltl rv-counter "$n"; done >> "$T/props"
fi

variants=("binary minimized" "binary case" "onehot minimized" "onehot case" "auto minimized")
for v in "${variants[@]}"; do
  read -r enc logic <<<"$v"
  tag="${enc}_$logic"
  : > "$T/$tag.v"
  k=0
  while IFS= read -r f; do
    k=$((k + 1))
    "$M" compile -q -t verilog --encoding "$enc" --logic "$logic" --name "p$k" "$f" >> "$T/$tag.v"
  done < "$T/props"
  yosys -q -p "read_verilog $T/$tag.v; synth; tee -q -o $T/$tag.stat stat" > /dev/null
  # module -> "cells/ffs"
  awk '/^=== / {m = $2} /Number of cells:/ {c[m] = $4}
       /\$_.*DFF/ {f[m] += $2}
       END {for (m in c) printf "%s %d/%d\n", m, c[m], f[m] + 0}' "$T/$tag.stat" |
    sed 's/_checker / /' | sort > "$T/$tag.res"
done

printf "%-58s %6s" "property" "states"
for v in "${variants[@]}"; do printf " %16s" "${v/ /\/}"; done
printf "\n"
k=0
declare -A total_c total_f
while IFS= read -r f; do
  k=$((k + 1))
  states=$("$M" compile -q -t json "$f" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["states"]))')
  short=$f
  (( ${#short} > 56 )) && short="${short:0:53}..."
  printf "%-58s %6s" "$short" "$states"
  for v in "${variants[@]}"; do
    tag="${v/ /_}"
    r=$(awk -v m="p$k" '$1 == m {print $2}' "$T/$tag.res")
    printf " %16s" "$r"
    total_c[$tag]=$(( ${total_c[$tag]:-0} + ${r%/*} ))
    total_f[$tag]=$(( ${total_f[$tag]:-0} + ${r#*/} ))
  done
  printf "\n"
done < "$T/props"
printf "%-58s %6s" "total (cells/flip-flops)" ""
for v in "${variants[@]}"; do tag="${v/ /_}"; printf " %16s" "${total_c[$tag]}/${total_f[$tag]}"; done
printf "\n"
