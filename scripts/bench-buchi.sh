#!/usr/bin/env bash
# Spin with our Büchi never claims versus Spin's own, on liveness properties.
#
#   scripts/bench-buchi.sh
#
# For each model, property and fairness setting: our claim (mongen compile
# -t promela, a Büchi automaton of the negation) and Spin's (spin -f of the
# negation), both under pan -a (and -f). Prints the claims' sizes (states,
# edges; ours also its nondeterministic states), and pan's states stored,
# transitions and memory for the states (MB, pan's "equivalent memory
# usage", without its fixed hash table) for each, with the ratio of transitions
# ours/Spin's: seed 004's measure (Blahoudek et al.: Spin's own counters,
# not time). Stops with an error if the verdicts differ.
#
# Then the claims' sizes alone on the 55 specification patterns of Dwyer et
# al. (../shared/data/dwyer-patterns.ltl, or the file given as $DWYER):
# ours and spin -f's (which reads no X, and is stopped beyond 2 GB or 10 s),
# with the totals over the patterns both translate.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=$PWD/target/release/mongen
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

stats() { # pan output -> "stored transitions memory_MB errors"
  awk '/states, stored/ {s=$1} /transitions \(/ {t=$1}
       /equivalent memory usage for states/ {m=$1}
       /errors:/ {for (i=1;i<=NF;i++) if ($i=="errors:") e=$(i+1)}
       END {print s, t, m, e}'
}
claim_size() { # claim file -> "states edges"
  awk '/^[A-Za-z_][A-Za-z_0-9]*:/ {s++} /::/ {e++} END {print s+0, e+0}' "$1"
}

printf '%-18s %-30s %-4s %5s %5s %5s %5s %5s %9s %9s %10s %10s %7s %7s %6s %5s\n' \
  model property fair ost oed ond sst sed ours_st spin_st ours_tr spin_tr ours_MB spin_MB ratio fails
while IFS='%' read -r model property spinltl; do
  [[ -z $model || $model == \#* ]] && continue
  cp "$model" "$T/model.pml"
  # Fields: model % property [% the property in Spin's syntax, for
  # propositions that are expressions, which `mongen print --spin` cannot
  # write].
  [[ -n $spinltl ]] || spinltl=$("$M" print --spin "$property")
  (cd "$T" && "$M" compile -q -t promela --claim buchi -o claim.pml "$property" \
    && spin -f "!($spinltl)" > spin_claim.pml)
  read -r ost oed < <(claim_size "$T/claim.pml")
  ond=$(sed -n 's/.* \([0-9]*\) nondeterministic.*/\1/p' "$T/claim.pml" | head -1)
  read -r sst sed < <(claim_size "$T/spin_claim.pml")
  noreduce=$(grep -q -- '-DNOREDUCE' "$T/claim.pml" && echo -DNOREDUCE || true)
  for fair in no yes; do
    flag=$([[ $fair == yes ]] && echo -f || true)
    (cd "$T" && spin -a -N claim.pml model.pml >/dev/null && gcc -O2 $noreduce -o pan pan.c \
      && ./pan -a $flag -m1000000 > ours.txt)
    (cd "$T" && spin -a -N spin_claim.pml model.pml >/dev/null && gcc -O2 $noreduce -o pan pan.c \
      && ./pan -a $flag -m1000000 > theirs.txt)
    read -r os ot om oe < <(stats < "$T/ours.txt")
    read -r ss st sm se < <(stats < "$T/theirs.txt")
    [[ $oe == "$se" || ($oe -gt 0 && $se -gt 0) ]] \
      || { echo "verdicts differ on $model / $property (fair: $fair)" >&2; exit 1; }
    printf '%-18s %-30s %-4s %5s %5s %5s %5s %5s %9s %9s %10s %10s %7s %7s %6.2f %5s\n' \
      "$(basename "$model")" "$property" "$fair" "$ost" "$oed" "$ond" "$sst" "$sed" "$os" "$ss" "$ot" "$st" "$om" "$sm" \
      "$(awk -v a="$ot" -v b="$st" 'BEGIN {print a/b}')" "$([[ $oe -gt 0 ]] && echo yes || echo no)"
  done
done <<'CASES'
codegen/tests/models/peterson.pml%G(try0 -> F crit0)
codegen/tests/models/peterson.pml%GF crit1
codegen/tests/models/peterson.pml%GF crit0 -> GF !crit0
codegen/tests/models/peterson.pml%G(try0 -> F(crit0 | crit1))
codegen/tests/models/peterson_bug.pml%G(try1 -> F crit1)
codegen/tests/models/handshake.pml%G(req -> F ack)
codegen/tests/models/handshake.pml%GF ack -> GF !req
codegen/tests/models/handshake.pml%FG req
codegen/tests/models/ncrit.pml%GF "ncrit == 0"%[]<>(ncrit == 0)
bench/models/philosophers.pml%G(hungry0 -> F eat0)
bench/models/philosophers.pml%GF eat0 & GF eat1
bench/models/philosophers.pml%GF eat1 -> GF !eat1
bench/models/philosophers.pml%G(hungry1 -> F(eat0 | eat1 | eat2 | eat3))
bench/models/philosophers.pml%G(hungry0 -> F(eat0 & F !eat0))
bench/models/philosophers.pml%G((hungry0 & F eat0) -> (!eat1 U eat0))
bench/models/philosophers.pml%F eat0 -> (!eat1 U eat0)
bench/models/philosophers.pml%G(hungry2 -> ((!eat1 & !eat3) U eat2))
codegen/tests/models/peterson.pml%G((try0 & F crit0) -> (!crit1 U crit0))
codegen/tests/models/peterson.pml%F crit0 -> (!crit1 U crit0)
codegen/tests/models/leader.pml%F elected
codegen/tests/models/leader.pml%FG "nr_leaders == 1"%<>[](nr_leaders == 1)
codegen/tests/models/leader.pml%G(tick -> F elected)
codegen/tests/models/leader.pml%F "nr_leaders == 1" -> (!tick U "nr_leaders == 1")%<>(nr_leaders == 1) -> (!tick U (nr_leaders == 1))
codegen/tests/models/philosophers.pml%G(hungry0 -> F eating0)
codegen/tests/models/philosophers.pml%GF(eating0 | eating1 | eating2)
codegen/tests/models/philosophers.pml%G((hungry0 & F eating0) -> (!eating1 U eating0))
codegen/tests/models/buffer.pml%G(put -> F got)
codegen/tests/models/buffer.pml%GF got
codegen/tests/models/buffer.pml%G((put & F got) -> (!put U got))
codegen/tests/models/sliding_window.pml%G(sent -> F delivered)
codegen/tests/models/sliding_window.pml%G(lost -> F !lost)
codegen/tests/models/sliding_window.pml%G((sent & F delivered) -> (!lost U delivered))
CASES

DWYER=${DWYER:-../shared/data/dwyer-patterns.ltl}
[[ -f $DWYER ]] || { echo "no $DWYER: skipping the claim sizes on Dwyer's patterns"; exit 0; }
echo
printf '%-70s %5s %5s %5s %9s %9s\n' "Dwyer pattern (claim of its negation)" ost oed ond sst sed
read -r tos toe tss tse both better worse nx big < <(echo 0 0 0 0 0 0 0 0 0)
while read -r f; do
  [[ -z $f ]] && continue
  "$M" compile -q -t promela --claim buchi -o "$T/claim.pml" "$f"
  read -r os oe < <(claim_size "$T/claim.pml")
  ond=$(sed -n 's/.* \([0-9]*\) nondeterministic.*/\1/p' "$T/claim.pml" | head -1)
  spinltl=$("$M" print --spin "$f")
  if [[ $spinltl == *X* ]]; then
    ss=X; se=-; nx=$((nx + 1))
  elif ! (ulimit -v 2000000; timeout 10 spin -f "!($spinltl)" > "$T/spin_claim.pml" 2>/dev/null); then
    ss=blowup; se=-; big=$((big + 1))
  else
    read -r ss se < <(claim_size "$T/spin_claim.pml")
    both=$((both + 1)); tos=$((tos + os)); toe=$((toe + oe)); tss=$((tss + ss)); tse=$((tse + se))
    if ((os + oe < ss + se)); then better=$((better + 1)); elif ((os + oe > ss + se)); then worse=$((worse + 1)); fi
  fi
  printf '%-70.70s %5s %5s %5s %9s %9s\n' "$f" "$os" "$oe" "$ond" "$ss" "$se"
done < "$DWYER"
echo "patterns both translate: $both; states ours $tos, spin -f $tss; edges ours $toe, spin -f $tse;" \
  "ours smaller on $better, larger on $worse; spin -f reads no X on $nx, blows up on $big"
