#!/usr/bin/env bash
# Spot's own random PSL formulas (randltl --psl), the safety ones (ltlfilt
# --safety), compiled by mongen's LTL front end (Spot's syntax, SEREs
# included) and by Spot's `ltl2tgba -M -D`: both give the minimal
# deterministic monitor of the formula's bad prefixes, so the two must
# recognize the same language (autfilt --equivalent-to) with as many
# states. Prints the counts, each disagreement, and the time each tool
# took on the whole set in one process, in the same run; exits 1 on any
# disagreement.
#
#   scripts/check-vs-spot.sh [N] [SEED]      (MONGEN=PATH: use that mongen)
#
# N formulas (default 500) over a, b, c, d from Spot's seed SEED (default 1).
# Spot's tools are taken from SPOT_BIN (default ~/.local/spot/bin, where
# scripts/install-spot.sh builds them) or PATH. Spot is in neither Debian
# nor PyPI, so this is not part of scripts/test-all.sh; without Spot it
# stops with exit 2 and says so.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-500}
SEED=${2:-1}
export PATH=${SPOT_BIN:-$HOME/.local/spot/bin}:$PATH
if ! command -v ltl2tgba >/dev/null 2>&1; then
  echo "check-vs-spot: Spot's ltl2tgba is not installed (SPOT_BIN, PATH): build it from Spot's" \
    "sources with scripts/install-spot.sh SRC" >&2
  exit 2
fi
# MONGEN=PATH: a mongen already built (the script then builds nothing).
if [[ -z ${MONGEN:-} ]]; then
  cargo build --release -q -p mongen
  MONGEN=$PWD/target/release/mongen
fi
M=$MONGEN
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

randltl --psl --seed="$SEED" -n $((N * 20)) a b c d >"$W/random"
ltlfilt --safety --unique -F "$W/random" >"$W/safety"
head -n "$N" "$W/safety" >"$W/formulas"
n=$(wc -l <"$W/formulas")
echo "check-vs-spot: $(ltl2tgba --version | head -1), $n safety formulas (randltl --psl --seed=$SEED)"

# The whole set in one process each: time and states per formula.
t0=$(date +%s.%N)
ltl2tgba -M -D -F "$W/formulas" --stats='%s' >"$W/spot.states"
t1=$(date +%s.%N)
"$M" compile -q --max-states 1000000 -F "$W/formulas" --stats='%s' >"$W/mongen.states" 2>"$W/mongen.err" || true
t2=$(date +%s.%N)

same=0
differ=0
refused=0
k=0
while IFS= read -r f; do
  k=$((k + 1))
  ltl2tgba -M -D -f "$f" >"$W/s.hoa"
  if ! "$M" compile -q --max-states 1000000 -f "$f" -o "$W/m.hoa" 2>"$W/m.err"; then
    refused=$((refused + 1))
    echo "REFUSED #$k $f: $(head -c 300 "$W/m.err")"
    continue
  fi
  ss=$(autfilt --stats='%s' "$W/s.hoa")
  ms=$(autfilt --stats='%s' "$W/m.hoa")
  eq=$(autfilt -c --equivalent-to="$W/s.hoa" "$W/m.hoa" || true)
  if [[ $eq == 1 && $ss == "$ms" ]]; then
    same=$((same + 1))
  else
    differ=$((differ + 1))
    echo "DIFFER #$k $f: Spot $ss states, mongen $ms states, $([[ $eq == 1 ]] && echo "same language" || echo "OTHER LANGUAGE")"
  fi
done <"$W/formulas"

awk -v a="$t0" -v b="$t1" -v c="$t2" -v n="$n" 'BEGIN {
  printf "time on the whole set (one process each): ltl2tgba -M -D %.2f s, mongen %.2f s (ratio %.2f)\n",
    b - a, c - b, (b - a > 0) ? (c - b) / (b - a) : 0
}'
paste "$W/spot.states" "$W/mongen.states" 2>/dev/null \
  | awk '{ s += $1; m += $2 } END { printf "states in all: Spot %d, mongen %d\n", s, m }'
echo "check-vs-spot: $same equal (language and states), $differ differ, $refused refused by mongen, of $n"
((differ == 0 && refused == 0))
