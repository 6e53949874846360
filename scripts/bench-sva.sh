#!/usr/bin/env bash
# SVA front end benchmark (IEEE 1800-2017 concurrent assertions): figures,
# not a timed test.
#
#   scripts/bench-sva.sh [--no-sby]      (MONGEN=PATH: use that mongen)
#
# 1. Compile time per property, for the real designs that
#    scripts/install-sva-designs.sh unpacks (examples/hardware/sva/README.md)
#    and examples/hardware/sva/handshake.sv: `mongen compile --sv FILE -t
#    verilog --stats`, the wall-clock milliseconds of all the work for each
#    property (translation, safety analysis, writing its checker; assume and
#    cover directives included), one process per design; per design the
#    properties read, their median and maximum, and the wall time of the
#    whole process, and what of it is not the properties' (the process's
#    start, and sv-parser preprocessing and parsing the file: a cost per
#    file, paid again by each process that reads it). Goal: < 20 ms per
#    property. lowRISC's prim_arbiter_ppc is read with the
#    assertions mongen refuses blanked, as codegen/tests/tools_sva_designs.rs
#    does; rr_arb_tree is read with its defaults (six properties).
# 2. Checker size: Yosys `synth` cells (generic gates and flip-flops) of
#    mongen's checker (`-t verilog`) next to the same property written by
#    hand with `$past`-style registers and an immediate assertion
#    (examples/hardware/sva/bench/hand.v). Columns: mongen's checker alone;
#    `tied`, with its reset proposition p_RST connected to the reset RST as
#    its harness does; `hand`; `hand+flag`, the hand-written checker with
#    mongen's sticky `violated` flag added (the same outputs as mongen's,
#    which the bare hand-written one lacks). Both are simulated by Icarus on random stimuli with
#    resets in mid-run; the line says `agree` when, in every cycle, mongen's
#    `fail` is the hand-written `bad` of the first violation (since the
#    last reset when the checker has a reset port) and hand+flag's `fail`,
#    else the script stops with the cycles where they differ.
# 3. SymbiYosys: `mongen compile --sv ... --sby` on handshake.sv, on the
#    CV32E40P FIFO (its two properties constrain its inputs, so a proof
#    with free inputs refutes them: the figure is the time to the
#    counterexample), and on the proofs of real designs of
#    codegen/tests/tools_sva_proofs.rs (the CV32E40P load-store unit,
#    prim_packer_fifo, PULP's counter properties); then `sby -f`, wall
#    time and the status of each task. Needs
#    scripts/install-sby.sh; skipped with --no-sby or without sby.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# MONGEN=PATH: a mongen already built (the script then builds nothing).
if [[ -z ${MONGEN:-} ]]; then
  cargo build --release -q -p mongen
  MONGEN=$ROOT/target/release/mongen
fi
M=$MONGEN
for tool in yosys iverilog; do
  command -v $tool >/dev/null || { echo "$tool not found: run scripts/install-tools.sh" >&2; exit 1; }
done
export PATH="$HOME/.local/bin:$PATH"
SBY=1
[[ ${1:-} == --no-sby ]] && SBY=0
command -v sby >/dev/null || SBY=0
D=${SVA_DESIGNS:-$HOME/.local/share/mongen/sva-designs}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

CV32=$D/pythondata_cpu_cv32e40p/pythondata_cpu_cv32e40p/system_verilog/rtl/cv32e40p_fifo.sv
CC=$D/pythondata_cpu_cva6/pythondata_cpu_cva6/system_verilog/common/submodules/common_cells/src
PRIM=$D/pythondata_cpu_ibex/pythondata_cpu_ibex/system_verilog/vendor/lowrisc_ip/ip/prim/rtl
HS=$ROOT/examples/hardware/sva/handshake.sv
now() { date +%s%N; }

# lowRISC's arbiter with the assertions mongen reads (the twelve of
# tools_sva_designs.rs), the three it refuses and DataFlow_A's generate
# block blanked (a refused assertion makes the run exit with 2).
if [[ -f $PRIM/prim_arbiter_ppc.sv ]]; then
  python3 - "$PRIM/prim_arbiter_ppc.sv" > "$T/prim_arbiter_ppc.sv" <<'EOF'
import re, sys
src = open(sys.argv[1]).read()
keep = {"NoReadyValidNoGrant_A", "ValidKnown_A", "GrantKnown_A", "IdxKnown_A",
        "CheckHotOne_A", "GntImpliesReady_A", "GntImpliesValid_A",
        "ReqAndReadyImplyGrant_A", "ReqImpliesValid_A", "ReadyAndValidImplyGrant_A",
        "IndexIsCorrect_A", "LockArbDecision_A"}
blank = lambda s: re.sub(r"[^\n]", " ", s)
out, i = [], 0
for m in re.finditer(r"`(ASSERT|ASSUME|ASSERT_KNOWN|ASSERT_INIT)\(", src):
    if m.start() < i:
        continue
    depth, j = 0, m.end() - 1
    while True:
        depth += {"(": 1, ")": -1}.get(src[j], 0)
        j += 1
        if depth == 0:
            break
    call = src[m.start():j]
    name = call[m.end() - m.start():].split(",")[0].strip()
    out.append(src[i:m.start()])
    out.append(call if name in keep else blank(call))
    i = j
out.append(src[i:])
text = "".join(out)
at = text.index("if (EnDataPort) begin: gen_data_port_assertion")
end = text.index("\nend\n", at) + len("\nend")
print(text[:at] + blank(text[at:end]) + text[end:], end="")
EOF
fi

echo "== 1. compile time per property (mongen compile --sv FILE -t verilog --stats; goal < 20 ms)"
printf '%-18s %-22s %6s %10s %10s %12s %12s\n' design flags props "median ms" "max ms" "process ms" "rest ms"
design() { # name file flags...
  local name=$1 file=$2
  shift 2
  if [[ ! -f $file ]]; then
    printf '%-18s %s\n' "$name" "not installed (scripts/install-sva-designs.sh)"
    return
  fi
  local t0 t1 ok=1
  t0=$(now)
  "$M" compile -q --sv "$file" "$@" -t verilog -o "$T/$name.v" --stats 2> "$T/err" || ok=0
  t1=$(now)
  local flags=${*//$PRIM/\$PRIM}
  if [[ $ok == 0 ]]; then
    printf '%-18s %-22s %6s   %s\n' "$name" "$flags" 0 \
      "refused: $(grep -m1 -o 'error: .*' "$T/err" | sed 's/error: [^ ]*: //' | cut -c1-60)..."
    return
  fi
  # "mongen: stats: `PROP`: N states (...), T ms, peak memory ...": T is
  # all the work for the property, its checker's output included.
  grep -E '^mongen: stats: .*, [0-9.]+ ms, peak memory' "$T/err" |
    sed -E 's/.*, ([0-9.]+) ms, peak memory.*/\1/' | sort -g |
    awk -v n="$name" -v f="$flags" -v p="$(( (t1 - t0) / 1000 ))" '
    {ms[NR] = $1; sum += $1}
    END {
      med = (NR % 2) ? ms[(NR + 1) / 2] : (ms[NR / 2] + ms[NR / 2 + 1]) / 2
      printf "%-18s %-22s %6d %10.3f %10.3f %12.1f %12.1f\n", n, f, NR, med, ms[NR], p / 1000, p / 1000 - sum
    }'
}
design handshake "$HS" -D FORMAL
design cv32e40p_fifo "$CV32" -D CV32E40P_ASSERT_ON
design fifo_v3 "$CC/fifo_v3.sv"
design prim_arbiter_ppc "$T/prim_arbiter_ppc.sv" -I "$PRIM"
design rr_arb_tree "$CC/rr_arb_tree.sv"

echo
echo "== 2. checker size: Yosys synth cells/flip-flops, mongen's checker and a hand-written one"
# name  mongen module  where mongen reads it from
cat > "$T/props" <<EOF
full_write|full_write_checker|--sv $CV32 -D CV32E40P_ASSERT_ON
a_grant|a_grant_checker|--sv $HS -D FORMAL
a_grant_after_busy|a_grant_after_busy_checker|--sv $HS -D FORMAL
range|range_checker|--name range --sva @(posedge clk) disable iff (!rst_n) req |-> ##[1:3] ack
seq|seq_checker|--name seq --sva @(posedge clk) disable iff (!rst_n) req ##1 req |=> gnt
EOF
HAND=$ROOT/examples/hardware/sva/bench/hand.v
cells() { # file top -> "cells/ffs"
  yosys -q -p "read_verilog -sv $1; hierarchy -top $2; synth -flatten -top $2; tee -q -o $T/stat stat" > /dev/null
  awk '/Number of cells:/ {c = $4} /\$_.*DFF/ {f += $2} END {printf "%d/%d\n", c, f}' "$T/stat"
}
printf '%-20s %-56s %7s %7s %7s %9s  %s\n' property "property (as mongen reads it)" mongen tied hand hand+flag "random simulation"
while IFS='|' read -r name mod src; do
  if [[ $src == *--sva* ]]; then
    read -r o1 o2 o3 prop <<<"$src"
    "$M" compile -q -t verilog "$o1" "$o2" "$o3" "$prop" -o "$T/m_$name.v"
  else
    # shellcheck disable=SC2086
    "$M" compile -q -t verilog $src -o "$T/m_$name.v" 2>/dev/null || {
      printf '%-20s %s\n' "$name" "not installed"; continue; }
  fi
  # The property's line in the checker's header comment.
  header=$(awk -v m="$mod" '/^\/\/ Checker for/ {getline; p = $0} $0 ~ "^module " m " " {sub(/^\/\/ +/, "", p); print p; exit}' "$T/m_$name.v")
  # Random simulation: both checkers on the same inputs, inputs changed on
  # the falling edge, compared in mid-cycle (fail is a Mealy output).
  ports=$(awk -v m="$mod" '$0 ~ "^module " m " " {on = 1; next} on && /\);/ {exit}
    on && /input/ {gsub(/[,;]/, ""); print $NF}' "$T/m_$name.v")
  hports=$(awk -v m="hand_$name" '$0 ~ "^module " m " " {on = 1; next} on && /\);/ {exit}
    on {gsub(/input wire|output wire|,/, " "); print}' "$HAND" | tr -s ' \n' '\n\n' | grep -v -e '^$' -e '^bad$')
  clk=$(head -1 <<<"$ports")
  hports=$(grep -v -x "$clk" <<<"$hports")
  rst=$(grep -o -E 'rst_ni?' <<<"$ports" | head -1)
  # Without a reset port mongen's flag is never cleared: after the first
  # violation there is nothing left to compare, so many short runs.
  sticky_clear=0 runs=50 cycles=400
  # (A reset port is one the checker's registers are reset by: a
  # `disable iff` that became part of the formula leaves `rst_n` an
  # input of the formula only, and the flag sticky.)
  awk -v m="$mod" '$0 ~ "^module " m " " {on = 1} on {print} on && /^endmodule/ {exit}' "$T/m_$name.v" \
    | grep -q -E "if \(!?$rst\)" && { sticky_clear=1 runs=1 cycles=20000; }
  sigs=$(grep -v -x -e "$clk" -e "$rst" -e "p_$rst" <<<"$ports")
  # tied: mongen's checker with its reset proposition p_RST on the reset,
  # as its harness connects it; hand_flag: the hand-written checker with
  # mongen's sticky flag, the same outputs as mongen's.
  reset_edge=""
  [[ $sticky_clear == 1 ]] && reset_edge=" or negedge $rst"
  {
    printf 'module tied (input wire %s, input wire %s' "$clk" "$rst"
    for q in $sigs; do printf ', input wire %s' "$q"; done
    echo ", output wire fail);"
    printf '  wire violated;\n  %s m (.%s(%s)' "$mod" "$clk" "$clk"
    for p in $ports; do [[ $p == "$clk" ]] && continue; [[ $p == "p_$rst" ]] && { printf ', .%s(%s)' "$p" "$rst"; continue; }; printf ', .%s(%s)' "$p" "$p"; done
    echo ", .violated(violated), .fail(fail));"
    echo "endmodule"
    printf 'module hand_flag (input wire %s, input wire %s' "$clk" "$rst"
    for q in $sigs; do printf ', input wire %s' "$q"; done
    echo ", output wire fail);"
    printf '  wire bad;\n  hand_%s h (.%s(%s)' "$name" "$clk" "$clk"
    for p in $hports; do printf ', .%s(%s)' "$p" "$p"; done
    echo ", .bad(bad));"
    if [[ $sticky_clear == 1 ]]; then
      echo "  reg violated_q;"
      echo "  wire violated = $rst && (violated_q || bad);"
      echo "  assign fail = $rst && !violated_q && bad;"
      echo "  always @(posedge $clk$reset_edge) if (!$rst) violated_q <= 1'b0; else violated_q <= violated;"
    else
      echo "  reg violated_q = 1'b0;"
      echo "  assign fail = !violated_q && bad;"
      echo "  always @(posedge $clk) violated_q <= violated_q || bad;"
    fi
    echo "endmodule"
  } > "$T/w_$name.v"
  mc=$(cells "$T/m_$name.v" "$mod")
  tc=$(cells "$T/m_$name.v $T/w_$name.v" tied)
  hc=$(cells "$HAND" "hand_$name")
  fc=$(cells "$HAND $T/w_$name.v" hand_flag)
  {
    echo "module tb;"
    echo "  reg $clk = 0, $rst = 0;"
    for s in $sigs; do echo "  reg $s = 0;"; done
    echo "  wire fail, violated, bad; reg seen = 0; integer k, seed = 1, errors = 0, fails = 0;"
    printf '  %s m (.%s(%s)' "$mod" "$clk" "$clk"
    for p in $ports; do [[ $p == "$clk" ]] && continue; [[ $p == "p_$rst" ]] && { printf ', .%s(%s)' "$p" "$rst"; continue; }; printf ', .%s(%s)' "$p" "$p"; done
    echo ", .violated(violated), .fail(fail));"
    printf '  hand_%s h (.%s(%s)' "$name" "$clk" "$clk"
    for p in $hports; do printf ', .%s(%s)' "$p" "$p"; done
    echo ", .bad(bad));"
    printf '  wire hf_fail;\n  hand_flag hf (.%s(%s), .%s(%s)' "$clk" "$clk" "$rst" "$rst"
    for q in $sigs; do printf ', .%s(%s)' "$q" "$q"; done
    echo ", .fail(hf_fail));"
    echo "  always #5 $clk = !$clk;"
    echo "  initial begin"
    echo "    if (\$value\$plusargs(\"seed=%d\", seed)) ;"
    echo "    for (k = 0; k < $cycles; k = k + 1) begin"
    echo "      @(negedge $clk);"
    echo "      $rst = (k < 2) ? 0 : (\$random(seed) % 40 != 0);"
    for s in $sigs; do echo "      $s = \$random(seed);"; done
    echo "      #1;"
    echo "      if (fail !== (bad && !seen) || hf_fail !== fail) begin errors = errors + 1;"
    echo "        if (errors < 5) \$display(\"cycle %0d: mongen fail %b, hand bad %b, seen %b\", k, fail, bad, seen); end"
    echo "      if (fail) fails = fails + 1;"
    echo "      if (bad) seen = 1;"
    [[ $sticky_clear == 1 ]] && echo "      if (!$rst) seen = 0;"
    echo "    end"
    echo "    \$display(\"%0d %0d\", errors, fails);"
    echo "    \$finish;"
    echo "  end"
    echo "endmodule"
  } > "$T/tb_$name.v"
  iverilog -g2012 -o "$T/tb_$name" "$T/tb_$name.v" "$T/w_$name.v" "$T/m_$name.v" "$HAND"
  errors=0 fails=0
  for ((r = 1; r <= runs; r++)); do
    vvp -n "$T/tb_$name" +seed=$r > "$T/sim"
    read -r e f < <(tail -1 "$T/sim")
    errors=$((errors + e)) fails=$((fails + f))
    ((e == 0)) || { echo "seed $r:" >&2; head -n -1 "$T/sim" >&2; }
  done
  if [[ $errors != 0 ]]; then
    echo "bench-sva: $name: mongen's checker and the hand-written one disagree" >&2
    exit 1
  fi
  printf '%-20s %-56s %7s %7s %7s %9s  %s\n' "$name" "${header:0:56}" "$mc" "$tc" "$hc" "$fc" "agree ($runs x $cycles cycles, $fails first violations)"
done < "$T/props"

echo
echo "== 3. SymbiYosys: mongen compile --sv FILE -t verilog --sby MODULE --design FILE; sby -f"
if [[ $SBY == 0 ]]; then
  echo "skipped (--no-sby, or sby not found: scripts/install-sby.sh)"
  exit 0
fi
printf '%-16s %6s %8s %10s  %s\n' design props depth "wall s" "status of the tasks (prove, bmc, cover)"
sby_run() { # name module file "other design files" flags...
  local name=$1 mod=$2 file=$3 others=$4
  shift 4
  [[ -f $file ]] || { printf '%-16s %s\n' "$name" "not installed"; return; }
  mkdir -p "$T/sby_$name"
  cp "$file" "$T/sby_$name/"
  local base x
  local designs=()
  for x in $others; do
    cp "$x" "$T/sby_$name/"
    designs+=(--design "$(basename "$x")")
  done
  base=$(basename "$file")
  (
    cd "$T/sby_$name"
    # (--keep-going exits with 2 for the assertions it leaves out.)
    "$M" compile -q --sv "$base" "$@" -t verilog --sby "$mod" "${designs[@]}" --design "$base" \
      --name "$name" -o checkers.v 2> mongen.log || [[ -f $name.sby ]]
    props=$(grep -c '^module .*_checker' checkers.v)
    depth=$(awk '/^depth/ {print $2}' "$name.sby")
    t0=$(now)
    sby -f "$name.sby" > sby.log 2>&1 || true
    t1=$(now)
    status=$(grep -o -E 'DONE \([A-Z]+' sby.log | sed 's/DONE (//' | sort | uniq -c | awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}' || true)
    refuted=$(grep -m1 -o -E 'Assert failed in [^:]*' sby.log | sed 's/.*\.//' || true)
    if [[ -n $refuted ]]; then
      status="$status ($refuted, step $(grep -m1 -B1 -E 'BMC failed|Assert failed' sby.log | grep -o -E 'step [0-9]+' | head -1 | cut -d' ' -f2))"
    fi
    printf '%-16s %6s %8s %10.2f  %s\n' "$name" "$props" "$depth" "$(( (t1 - t0) / 1000000 ))e-3" "${status:-see sby.log}"
  )
}
sby_run handshake handshake "$HS" "" -D FORMAL
sby_run cv32e40p_fifo cv32e40p_fifo "$CV32" "" -D CV32E40P_ASSERT_ON
# The proofs of codegen/tests/tools_sva_proofs.rs (examples/hardware/sva).
CVRTL=$(dirname "$CV32")
sby_run cv32e40p_lsu cv32e40p_load_store_unit "$CVRTL/cv32e40p_load_store_unit.sv" \
  "$CVRTL/include/cv32e40p_pkg.sv $CVRTL/cv32e40p_obi_interface.sv" -D CV32E40P_ASSERT_ON \
  --assume a_no_error --assume a_no_spurious_rvalid --design-reset rst_n
sby_run prim_packer_fifo prim_packer_fifo "$PRIM/prim_packer_fifo.sv" "" -I "$PRIM" \
  --keep-going --design-reset rst_ni
sby_run counter counter "$CC/../formal/counter_properties.sv" "$CC/delta_counter.sv $CC/counter.sv" \
  --keep-going
