#!/usr/bin/env bash
# Counted and bounded operators: construction time per count k (issue 36,
# item 12). For each family, k = 1000, 2000, 4000, 8000 (fewer with
# --quick), the states of the minimal monitor, the time and peak memory of
# `mongen compile --stats=FORMAT` (CPU time of the process, which does
# not write the monitor; the fastest of 3 runs), and the ratio
# of each time to the previous k's: about 2 when the cost is linear in k,
# 4 when quadratic. The last family, G[0:k] F[0:k] b, has a minimal monitor
# quadratic in k (about k^2/2 states: a position in the window and a
# deadline), so it is measured at smaller k; there doubling k should about
# quadruple the time.
#
#   scripts/bench-counting.sh [--quick] [MONGEN]
#
# A run that exceeds 120 s or --max-states 5000000 prints `-`.
set -uo pipefail
cd "$(dirname "$0")/.."
quick=""
if [[ ${1:-} == --quick ]]; then quick=1; shift; fi
M=${1:-}
if [[ -z $M ]]; then
  cargo build --release -q -p mongen || exit 1
  M=target/release/mongen
fi
if [[ -n $quick ]]; then ks="1000 2000 4000"; else ks="1000 2000 4000 8000"; fi

# "states ms peak_mib" of one formula, or "- - -": ms is the CPU time
# (user and system) of the whole `mongen compile --stats=FORMAT` process,
# the fastest of three runs (one past a second). CPU time, not wall-clock:
# on a shared machine the wall-clock time of one run can be several times
# its CPU time.
stats() {
  local best="" out t s mem
  for _ in 1 2 3; do
    out=$({ TIMEFORMAT='%3U %3S'; time timeout 120 "$M" compile -q --stats='%s %M' \
      --max-states 5000000 "$@" 2>/dev/null; } 2>&1) || { echo "- - -"; return; }
    read -r s mem <<<"$(head -n 1 <<<"$out")"
    t=$(tail -n 1 <<<"$out" | awk '{printf "%.1f", ($1 + $2) * 1000}')
    if [[ -z $best ]] || awk -v a="$t" -v b="${best#* }" 'BEGIN{exit !(a < b)}'; then
      best="$s $t"
    fi
    awk -v a="$t" 'BEGIN{exit !(a > 1000)}' && break
  done
  echo "$best $mem"
}

printf '%-36s %6s %8s %10s %6s %9s\n' "family" "k" "states" "CPU ms" "ratio" "peak MiB"
family() {
  local name=$1 flag=$2 template=$3 sizes=$4 prev="" s ms mem ratio
  for k in $sizes; do
    read -r s ms mem <<<"$(stats $flag -f "${template//K/$k}")"
    ratio="-"
    if [[ -n $prev && $prev != - && $ms != - ]]; then
      ratio=$(awk -v a="$ms" -v b="$prev" 'BEGIN{printf "%.2f", (b > 0) ? a / b : 0}')
    fi
    printf '%-36s %6s %8s %10s %6s %9s\n' "$name" "$k" "$s" "$ms" "$ratio" "$mem"
    prev=$ms
    [[ $ms == - ]] && break
  done
}
family "always next_a[1:k] (c)" --psl "always next_a[1:K] (c)" "$ks"
family "always next_e[1:k] (c)" --psl "always next_e[1:K] (c)" "$ks"
family "always next_event(b)[k] (c)" --psl "always next_event(b)[K] (c)" "$ks"
family "{a[=k]} |=> c" --psl "{a[=K]} |=> c" "$ks"
family "{a[->k]} |=> c" --psl "{a[->K]} |=> c" "$ks"
family "{a[*k]} |-> b" --psl "{a[*K]} |-> b" "$ks"
family "G[0:k] b" "" "G[0:K] b" "$ks"
family "G(a -> F[0:k] b)" "" "G(a -> F[0:K] b)" "$ks"
family "G(a -> F[0:k] F[0:k] b)" "" "G(a -> F[0:K] F[0:K] b)" "$ks"
family "G(a -> G[0:k] b)" "" "G(a -> G[0:K] b)" "$ks"
family "a -> X[k] X[k] b" "" "a -> X[K] X[K] b" "$ks"
family "G[0:k] F[0:k] b (k^2/2 states)" "" "G[0:K] F[0:K] b" "50 100 200 400"
