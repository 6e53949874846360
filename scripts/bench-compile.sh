#!/usr/bin/env bash
# Translation benchmark: time, states and peak memory per formula.
#
#   scripts/bench-compile.sh [--quick]
#
# Each formula is translated by `mongen compile --stats` in its own process
# (so the peak resident memory is that formula's), on the Dwyer safety
# patterns, Rozier's safety set and the scaling families or-g and
# rv-counter for growing n. Times are wall-clock milliseconds of all the
# work for the formula but writing the monitor (`--stats=FORMAT`'s `%r`:
# parsing, translation, safety analysis); peak memory is the process's. The
# last lines compare with the targets of the core issue: a pattern well
# under a millisecond, or-g 14 and the 12-bit counter under a second each.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=target/release/mongen
quick=${1:-}

# One line of stats for one formula: "states ms peak_mib".
stats() {
  "$M" compile -q --stats='%s %r %M' --max-states 5000000 -f "$1" \
    | awk '{ printf "%s %.3f %s\n", $1, $2 * 1000, $3 }'
}

row() { printf '%-28s %8s %10s %10s\n' "$@"; }

row "formula" "states" "ms" "peak MiB"
worst_pattern=0
while IFS= read -r f; do
  read -r s ms mem <<<"$(stats "$f")"
  row "dwyer: ${f:0:20}" "$s" "$ms" "$mem"
  worst_pattern=$(awk -v a="$worst_pattern" -v b="$ms" 'BEGIN{print (b>a)?b:a}')
done < <(grep -v '^#' examples/properties/dwyer-safety.ltl)
i=0
while IFS= read -r f; do
  read -r s ms mem <<<"$(stats "$f")"
  row "rozier-safety $i" "$s" "$ms" "$mem"
  i=$((i + 1))
done < <(grep -v '^#' monitor-core/data/rozier-safety.ltl)

if [[ $quick == --quick ]]; then sizes_g="4 8 10"; sizes_c="4 6 8"; else sizes_g="4 6 8 10 12 14"; sizes_c="2 4 6 8 10 12"; fi
declare -A last
for n in $sizes_g; do
  read -r s ms mem <<<"$(stats "$("$M" genltl or-g "$n")")"
  row "or-g $n" "$s" "$ms" "$mem"; last[or-g]=$ms
done
for fam in rv-counter rv-counter-linear rv-counter-carry rv-counter-carry-linear; do
  for n in $sizes_c; do
    read -r s ms mem <<<"$(stats "$("$M" genltl "$fam" "$n")")"
    row "$fam $n" "$s" "$ms" "$mem"; last[$fam]=$ms
  done
done

echo
echo "targets (measured in this run):"
printf '  slowest Dwyer pattern: %s ms (target: well under 1 ms)\n' "$worst_pattern"
printf '  or-g, largest n:       %s ms (target for n = 14: under 1000 ms)\n' "${last[or-g]}"
printf '  rv-counter, largest n: %s ms (target for n = 12: under 1000 ms)\n' "${last[rv-counter]}"
