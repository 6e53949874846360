#!/usr/bin/env bash
# PSL translation benchmark: time and states per property, each next to an
# LTL spelling of the same property, in the same run.
#
#   scripts/bench-psl.sh
#
# Families of the hardware idioms with growing bounds n: a response within
# n cycles written with a SERE ({req} |=> {[*0:n]; ack}) and with F[0:n]; a
# request held n cycles ({req[*n]} |=> gnt) and its X chain; n consecutive
# waits (never {(req && !gnt)[*n]}); and SERE-only shapes (goto repetition,
# intersection) without an LTL twin. Times are wall-clock milliseconds of
# the work but writing the monitor (`--stats='%s %r'`: parsing, translation,
# safety analysis), one process per property.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=target/release/mongen

stats() {
  "$M" compile -q --stats='%s %r' --max-states 5000000 "$@" \
    | awk '{ printf "%s %.3f\n", $1, $2 * 1000 }'
}

xs() { local s=""; for ((k = 0; k < $1; k++)); do s+="X "; done; printf '%s' "$s"; }

printf '%-44s %7s %9s   %-34s %7s %9s %7s\n' "PSL" "states" "ms" "LTL" "states" "ms" "ratio"
pair() {
  read -r ps pms <<<"$(stats --psl "$1")"
  read -r ls lms <<<"$(stats "$2")"
  ratio=$(awk -v a="$pms" -v b="$lms" 'BEGIN{printf "%.2f", (b > 0) ? a / b : 0}')
  printf '%-44s %7s %9s   %-34s %7s %9s %7s\n' "${1:0:44}" "$ps" "$pms" "${2:0:34}" "$ls" "$lms" "$ratio"
}
for n in 4 16 64 256; do
  pair "always {req} |=> {[*0:$n]; ack}" "G(req -> X F[0:$n] ack)"
done
for n in 4 8 12; do
  chain="req"
  for ((k = 1; k < n; k++)); do chain="$chain & $(xs "$k")req"; done
  pair "always {req[*$n]} |=> gnt" "G(($chain) -> $(xs "$n")gnt)"
done
for n in 4 16 64; do
  body="(req & !gnt)"
  for ((k = 1; k < n; k++)); do body="$body & $(xs "$k")(req & !gnt)"; done
  pair "never {(req && !gnt)[*$n]}" "G!($body)"
done
echo
printf '%-44s %7s %9s\n' "PSL only" "states" "ms"
for f in "always {a} |=> {b[->3]; c}" "always {a; b[*]; c} |=> {d[*2:4]; e}" \
  "always {{a; b[*1:8]} && {c[*2:9]}} |-> d" "never {{a[*]; b} && {c[*]; d[*3]}}" \
  "always {req} |=> {busy[*]; done}!" "always {s} |=> {{a[*4]} within {b[*1:12]}}"; do
  read -r ps pms <<<"$(stats --psl "$f")"
  printf '%-44s %7s %9s\n' "${f:0:44}" "$ps" "$pms"
done
