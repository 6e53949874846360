#!/usr/bin/env bash
# Spin with our never claims versus Spin's own, on the test models.
#
#   scripts/bench-spin.sh
#
# For each model and X-free safety property: our claim (mongen, pan -DSAFETY)
# against Spin's Büchi claim for the negation (spin -f, pan -a). Prints the
# states stored and transitions visited (Spin's own statistics: the stable
# measure of Blahoudek et al., seed 004), and the ratio ours/Spin's. When
# the property fails, both stop at the first counterexample.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=$PWD/target/release/mongen
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

stats() { # pan output -> "stored transitions errors"
  awk '/states, stored/ {s=$1} /transitions \(/ {t=$1} /errors:/ {for (i=1;i<=NF;i++) if ($i=="errors:") e=$(i+1)} END {print s, t, e}'
}

printf '%-18s %-38s %9s %9s %9s %9s %7s %6s\n' model property ours_st spin_st ours_tr spin_tr ratio fails
while IFS='|' read -r model property; do
  [[ -z $model || $model == \#* ]] && continue
  cp "$model" "$T/model.pml"
  (cd "$T" && "$M" compile -q -t promela -o claim.pml "$property" \
    && spin -a -N claim.pml model.pml >/dev/null \
    && gcc -O2 -DSAFETY $(grep -q DNOREDUCE claim.pml && grep -q 'not stutter-invariant' claim.pml && echo -DNOREDUCE) -o pan pan.c \
    && ./pan -m100000 > ours.txt)
  spinltl=$("$M" print --spin "$property")
  (cd "$T" && spin -f "!($spinltl)" > spin_claim.pml && spin -a -N spin_claim.pml model.pml >/dev/null \
    && gcc -O2 -o pan pan.c && ./pan -a -m100000 > theirs.txt)
  read -r os ot oe < <(stats < "$T/ours.txt")
  read -r ss st se < <(stats < "$T/theirs.txt")
  [[ $oe == "$se" || ($oe -gt 0 && $se -gt 0) ]] || { echo "verdicts differ on $model / $property" >&2; exit 1; }
  printf '%-18s %-38s %9s %9s %9s %9s %7.2f %6s\n' "$(basename "$model")" "$property" "$os" "$ss" "$ot" "$st" \
    "$(awk -v a="$ot" -v b="$st" 'BEGIN {print a/b}')" "$([[ $oe -gt 0 ]] && echo yes || echo no)"
done <<'CASES'
codegen/tests/models/peterson.pml|G !(crit0 && crit1)
codegen/tests/models/peterson.pml|!crit0 W try0
codegen/tests/models/peterson.pml|G(try0 -> (!crit1 W crit0))
codegen/tests/models/peterson.pml|G !crit0
codegen/tests/models/peterson_bug.pml|G !(crit0 && crit1)
codegen/tests/models/handshake.pml|G(req -> (req W ack))
codegen/tests/models/handshake.pml|G(ack -> req)
codegen/tests/models/handshake_bug.pml|G(ack -> (ack W !req))
bench/models/philosophers.pml|G !(eat0 && eat1)
bench/models/philosophers.pml|G((hungry0 && !eat0) -> (!eat3 W eat0))
bench/models/philosophers.pml|G !(eat0 && eat2)
bench/models/philosophers.pml|G(hungry1 -> (hungry1 W eat1))
bench/models/philosophers.pml|!eat1 W eat0
CASES
