#!/usr/bin/env bash
# NuSMV with our observers versus NuSMV's own LTL model checking.
#
#   scripts/bench-nusmv.sh
#
# For each model and safety property: the time of NuSMV on the property as
# an LTLSPEC (check_ltlspec, its tableau and fair-cycle search) versus as an
# INVARSPEC on our observer (check_invar), explicit-DFA and transducer
# encodings (seed 003, Fig. 4-5 style). Counterexamples are not computed
# (-dcx) so that only the verification is timed. Wall-clock seconds on this
# machine, one run each; ratios are LTL time / observer time.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
M=$PWD/target/release/mongen
NUSMV=${NUSMV:-$(command -v NuSMV || echo "$HOME/.local/bin/NuSMV")}
[[ -x $NUSMV ]] || { echo "NuSMV not found: run scripts/install-tools.sh" >&2; exit 1; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# A k-bit counter with named points (for the generated cases).
counter_model() {
  local k=$1 max=$(( (1 << $1) - 1 ))
  cat <<SMV
MODULE main
VAR
  x : 0..$max;
ASSIGN
  init(x) := 0;
  next(x) := case x = $max : 0; TRUE : x + 1; esac;
DEFINE
  top := x = $max;
  zero := x = 0;
  p := x = 10;
  q := x = 13;
SMV
}

# A k-cell shift register fed by a free input: 2^k states, no arithmetic.
shift_model() {
  local k=$1
  echo "MODULE main"
  echo "VAR"
  echo "  i : boolean;"
  for ((j = 0; j < k; j++)); do echo "  r$j : boolean;"; done
  echo "ASSIGN"
  echo "  init(r0) := FALSE; next(r0) := i;"
  for ((j = 1; j < k; j++)); do echo "  init(r$j) := FALSE; next(r$j) := r$((j - 1));"; done
}

seconds() { # command... -> elapsed seconds and the verdict line
  local start end out
  start=$(date +%s.%N)
  out=$("$@" 2>&1) || { echo "NuSMV failed: $out" >&2; exit 1; }
  end=$(date +%s.%N)
  local verdict
  verdict=$(grep -E '^-- (specification|invariant)' <<<"$out" | grep -oE 'is (true|false)' | head -1)
  echo "$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.3f", b - a}') ${verdict#is }"
}

row() { printf '%-22s %-32s %8s %8s %8s %7s %7s\n' "$@"; }
row model property ltl dfa trans ratio_d verdict

bench() { # model-file property
  local model=$1 property=$2 name=$3
  cp "$model" "$T/ltl.smv"; cp "$model" "$T/dfa.smv"; cp "$model" "$T/tr.smv"
  echo "LTLSPEC $("$M" print --smv "$property")" >> "$T/ltl.smv"
  "$M" compile -q -t smv --smv-encoding dfa "$property" >> "$T/dfa.smv"
  "$M" compile -q -t smv --smv-encoding transducer "$property" >> "$T/tr.smv"
  read -r tl vl < <(seconds "$NUSMV" -dcx "$T/ltl.smv")
  read -r td vd < <(seconds "$NUSMV" -dcx "$T/dfa.smv")
  read -r tt vt < <(seconds "$NUSMV" -dcx "$T/tr.smv")
  [[ $vl == "$vd" ]] || { echo "verdicts differ on $name / $property: $vl $vd" >&2; exit 1; }
  row "$name" "$property" "$tl" "$td" "$tt" "$(awk -v a="$tl" -v b="$td" 'BEGIN {printf "%.1f", (b > 0 ? a / b : 0)}')" "$vl"
}

for prop in 'G !(crit0 & crit1)' 'G(crit0 -> O try0)' 'G(try0 -> (!crit1 W crit0))'; do
  bench codegen/tests/models/mutex.smv "$prop" mutex.smv
done
for prop in 'G(req -> (req W ack))' 'G((req & !ack) -> X ack)' 'G(ack -> req)'; do
  bench codegen/tests/models/handshake.smv "$prop" handshake.smv
done
for k in 16 24 32; do
  shift_model "$k" > "$T/shift.smv"
  for prop in 'G(r0 -> X X X X r4)' 'G(i -> F[1:8] r7)' 'G((r0 & X !r0) -> X X (r2 & !r1))' 'G(r3 -> ((r4 | !r4) W r5))' 'G(r0 -> X(r1 U r2))'; do
    bench "$T/shift.smv" "$prop" "shift ${k} cells"
  done
done
for k in 6 8 10 12; do
  counter_model "$k" > "$T/counter.smv"
  for prop in 'G(top -> X zero)' 'G(p -> X X X q)' 'G(p -> (!zero W q))'; do
    bench "$T/counter.smv" "$prop" "counter ${k} bits"
  done
done
