#!/usr/bin/env bash
# The arbiter example end to end, in one command:
#   examples/hardware/run.sh
# 1. compiles each property of properties.ltl, then of properties.psl (PSL),
#    into a Verilog checker (build/prop_K_checker.v) and a SystemC checker
#    (build/prop_K_checker.h);
# 2. lints the checkers with verilator -Wall;
# 3. simulates the round-robin arbiter (arbiter.v) and a buggy one
#    (arbiter_bug.v) with the checkers bound in (arbiter_top.v), with Icarus
#    Verilog and the assertions on: the first passes, the second fails; and
#    the same with a SystemC model of both and the SystemC checkers
#    (arbiter_sc.cpp); the simulations' waveforms, checked by `mongen check
#    --clock clk --reset rst_n`, fail exactly where the checkers' `fail` rose;
# 4. proves the checkers' assertions on the arbiter with Yosys
#    (sat -tempinduct) and finds a counterexample for the buggy one;
# 5. prints the size of each checker after synthesis.
# Needs iverilog, verilator, yosys, g++ and SystemC (scripts/install-tools.sh).
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-build}
mkdir -p "$out"
cargo build -q --release --manifest-path ../../Cargo.toml --bin mongen
mongen="${CARGO_TARGET_DIR:-../../target}/release/mongen"

echo "== 1. checkers from properties.ltl and properties.psl"
k=0
checkers=()
# The properties in checker order (prop_K is properties[K-1]), and whether
# each is PSL, for step 3a.
properties=()
is_psl=()
for file in properties.ltl properties.psl; do
  lang=()
  [[ $file == *.psl ]] && lang=(--psl)
  while IFS= read -r line; do
    [[ -z "${line// /}" || "$line" == \#* ]] && continue
    k=$((k + 1))
    "$mongen" compile "${lang[@]}" -t verilog --name "prop_$k" "$line" -o "$out/prop_${k}_checker.v"
    "$mongen" compile "${lang[@]}" -t systemc --name "prop_$k" "$line" -o "$out/prop_${k}_checker.h"
    checkers+=("$out/prop_${k}_checker.v")
    properties+=("$line")
    is_psl+=("${#lang[@]}")
    echo "prop_${k}_checker: $line"
  done < "$file"
done

echo "== 2. verilator --lint-only -Wall"
for c in "${checkers[@]}"; do
  verilator --lint-only -Wall "$c"
done
echo "no warnings"

echo "== 3. simulation (Icarus Verilog, assertions on)"
for design in arbiter arbiter_bug; do
  iverilog -g2012 -DASSERTIONS -DDUMP -o "$out/$design.sim" arbiter_tb.v arbiter_top.v "$design.v" "${checkers[@]}"
  echo "-- $design.v"
  # In a folder of its own: the waveform is $out/$design/arbiter_tb.vcd.
  mkdir -p "$out/$design"
  (cd "$out/$design" && vvp -n "../$design.sim") | tee "$out/$design.log" | head -5
done
grep -q "no violation" "$out/arbiter.log"
grep -q "a property is violated" "$out/arbiter_bug.log"

echo "== 3a. the waveforms, checked by mongen check --clock clk --reset rst_n"
# Each property's first violation in the dump must be where its simulated
# checker raised `fail` (read off the same dump: arbiter_top's f[k-1]).
first_violation() {
  local report
  # Exit status 1 says a property is violated; the report says where.
  report=$("$mongen" check "$@" --clock clk --reset rst_n) || [[ $? == 1 ]]
  grep -o 'violated at time [0-9]* (cycle [0-9]*)' <<< "$report" || echo "holds"
}
for design in arbiter arbiter_bug; do
  vcd="$out/$design/arbiter_tb.vcd"
  for i in "${!properties[@]}"; do
    k=$((i + 1))
    lang=()
    [[ ${is_psl[$i]} == 1 ]] && lang=(--psl)
    ours=$(first_violation "${lang[@]}" -f "${properties[$i]}" "$vcd")
    checker=$(first_violation -f 'G !fail' --define "fail=arbiter_tb.top.f[$i]" "$vcd")
    if [[ "$ours" != "$checker" ]]; then
      echo "$design, prop_$k: mongen check: $ours; the checker's fail: $checker" >&2
      exit 1
    fi
    echo "$design.v prop_$k: $ours (as the checker)"
  done
done

echo "== 3b. simulation (SystemC checkers, g++ -Wall -Wextra -Werror)"
for variant in arbiter arbiter_bug; do
  flags=()
  [[ $variant == arbiter_bug ]] && flags=(-DBUGGY)
  g++ -std=c++17 -Wall -Wextra -Werror "${flags[@]}" -I"$out" -o "$out/${variant}_sc" arbiter_sc.cpp -lsystemc
  echo "-- arbiter_sc.cpp ${flags[*]}"
  SC_COPYRIGHT_MESSAGE=DISABLE "$out/${variant}_sc" | tee "$out/${variant}_sc.log" | head -3
done
grep -q "no violation" "$out/arbiter_sc.log"
grep -q "a property is violated" "$out/arbiter_bug_sc.log"

echo "== 4. formal (Yosys sat -tempinduct -prove-asserts)"
prove() {
  yosys -p "read_verilog -formal arbiter_top.v $1.v ${checkers[*]}; prep -top arbiter_top; flatten; \
    async2sync; dffunmap; sat -tempinduct -prove-asserts -set-assumes -maxsteps 24 \
    -show rst_n,req0,req1,gnt0,gnt1 arbiter_top" > "$out/$1.formal.log" 2>&1
}
prove arbiter
grep -q "Induction step proven: SUCCESS" "$out/arbiter.formal.log"
echo "arbiter.v: every assertion proven"
prove arbiter_bug
if ! grep -q "model found for base case: FAIL" "$out/arbiter_bug.formal.log"; then
  echo "arbiter_bug.v: no counterexample found (unexpected)" >&2
  exit 1
fi
echo "arbiter_bug.v: counterexample (the last table of $out/arbiter_bug.formal.log):"
awk '/Time Signal Name/ {buf = ""; keep = 1} keep && /^$/ {keep = 0} keep {buf = buf $0 "\n"} END {printf "%s", buf}' \
  "$out/arbiter_bug.formal.log" | grep -E '^ +[0-9]+ ' | awk '{
    if ($1 != step) { if (step != "") print line; step = $1; line = "  step " $1 ":" }
    line = line " " substr($2, 2) "=" $3
  } END { print line }' 

echo "== 5. synthesis (Yosys synth; cells and flip-flops)"
for c in "${checkers[@]}"; do
  m=$(basename "$c" .v)
  yosys -q -p "read_verilog $c; synth -top $m; tee -q -o $out/$m.stat stat" >/dev/null
  cells=$(awk '/Number of cells:/ {print $4}' "$out/$m.stat")
  ffs=$(awk '/\$_.*DFF/ {n += $2} END {print n + 0}' "$out/$m.stat")
  echo "$m: $cells cells, $ffs flip-flops"
done
