#!/usr/bin/env bash
# Time bounds benchmark (`mongen check --time` with metric operators, issue
# 32): events per second and peak memory (RSS) of five timed properties
# over logs of EVENTS events at 10^2 to 10^6 events per second of trace
# time, beside, in the same run:
#   - the read limit: the same file checked with a property without time
#     bounds (`G(resp -> !fail)`, its times read all the same), on the
#     default threads and in one pass (`-j 1`), as timed properties are
#     read;
#   - peak memory across rates and across lengths (EVENTS/100, EVENTS/10,
#     EVENTS at one rate), where the claims are that the past operators'
#     memory does not grow with the length and at most logarithmically
#     with the rate (the future ones keep every event of their window: they
#     grow linearly with the rate);
#   - reelay (PyPI `reelay`, installed with pip in a temporary venv) on the
#     two past properties, on a prefix of each log (it is slow): its
#     discrete-time monitor counts each update as one time step, and the
#     events here are evenly spaced (one every 1/RATE s), so a bound of
#     10 s is 10·RATE of its steps and both meanings agree exactly. Its
#     value at every event is checked against mongen's (`G(f <-> v)` with
#     reelay's values as a column v must hold) and its count of events
#     where f is false against `mongen check --all`'s violations (the same
#     for these properties: their monitors keep no state outside the timed
#     components, so restarting after a violation forgets nothing).
#
#   scripts/bench-metric.sh [EVENTS]    (default 10000000, or $BENCH_METRIC_EVENTS)
#
# The events (CSV: `ts,req,resp,fail`, times in microseconds) come from a
# small deterministic Python generator, once, and each rate's log is that
# sequence with its times (awk), written to a temporary folder (removed at
# the end) before its timing. One event in 10^3 is a request, answered
# 1 to 10^4 events later (one in 10^3 never is), and one in 10^4 a
# failure: at each rate some gaps are longer than the bounds and some
# shorter, and the properties are checked with `--all` (every violation
# counted, none explained) so that every run reads and evaluates its whole
# log. (P2 as written is violated by every failure but the first: the
# failure itself is `fail & Y O fail`, 0 s before it.)
# $BENCH_METRIC_REELAY_EVENTS (default 100000) sets reelay's prefix;
# $BENCH_METRIC_RATES (default "100 1000 10000 100000 1000000") the rates.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-${BENCH_METRIC_EVENTS:-10000000}}
REELAY_N=${BENCH_METRIC_REELAY_EVENTS:-100000}
RATES=${BENCH_METRIC_RATES:-100 1000 10000 100000 1000000}
if [ "$REELAY_N" -gt "$N" ]; then REELAY_N=$N; fi
for RATE in $RATES; do
  if [ $((1000000 % RATE)) -ne 0 ]; then
    echo "a rate must divide 10^6 (whole microseconds between events): $RATE" >&2
    exit 2
  fi
done
cargo build --release -q -p mongen
M=$PWD/target/release/mongen
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

cat > "$T/gen.py" <<'EOF'
# The events, without times: `req,resp,fail` (0 or 1) per line. Requests
# are one event in 10^3, each answered after 1 to 10^4 events (uniform in
# their logarithm; one in 10^3 never); failures one in 10^4. The same
# sequence is spaced by each rate, so the bounds (0.5 s to 10 s) meet
# these gaps at each rate somewhere.
import random, sys
n, path = int(sys.argv[1]), sys.argv[2]
rng = random.Random(32)
due = set()  # the indices of events where a response is due
with open(path, "w") as out:
    out.write("req,resp,fail\n")
    lines = []
    for i in range(n):
        resp = i in due
        if resp:
            due.discard(i)
        req = not resp and rng.random() < 1e-3
        if req and rng.random() >= 1e-3:
            due.add(i + int(10 ** rng.uniform(0, 4)))
        fail = rng.random() < 1e-4
        lines.append(f"{int(req)},{int(resp)},{int(fail)}\n")
        if len(lines) >= 100000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))
EOF

cat > "$T/reelay_check.py" <<'EOF'
# reelay's discrete-time monitors of the past properties' bodies on the
# rows of a CSV log (parsed before the timing); writes the log with each
# body's value as a column (v2, v5) and prints the seconds of the updates
# and, per body, the count of events where it is false.
import csv, sys, time
import reelay
src, dst, rate = sys.argv[1], sys.argv[2], int(sys.argv[3])
fail, req, resp = "{fail: true}", "{req: true}", "{resp: true}"
bodies = {
    # fail -> !O[0:10s] (fail & Y O fail)
    "v2": f"({fail}) implies (not (once[0:{10 * rate}](({fail}) and (pre(once({fail}))))))",
    # resp -> (!fail S[0:1s] req)
    "v5": f"({resp}) implies ((not ({fail})) since[0:{rate}] ({req}))",
}
with open(src) as f:
    header = next(csv.reader(f))
    rows = [line.rstrip("\n").split(",") for line in f]
events = [{k: v == "1" for k, v in zip(header[1:], row[1:])} for row in rows]
values = {}
seconds = 0.0
for name, body in bodies.items():
    m = reelay.discrete_timed_monitor(pattern=body, condense=False)
    start = time.perf_counter()
    values[name] = [m.update(e)["value"] for e in events]
    seconds += time.perf_counter() - start
with open(dst, "w") as out:
    out.write(",".join(header + list(bodies)) + "\n")
    for i, row in enumerate(rows):
        out.write(",".join(row + [str(int(values[n][i])) for n in bodies]) + "\n")
print(seconds, *(sum(1 for v in values[n] if not v) for n in bodies))
EOF

READ='G(resp -> !fail)'
P1='G(req -> F[0:500ms] resp)'
P2='G(fail -> !O[0:10s] (fail & Y O fail))'
P3='G(req -> G[0:1s] !fail)'
P4='G(req -> (!fail U[0:500ms] resp))'
P5='G(resp -> (!fail S[0:1s] req))'
PROPS=("$READ" "$P1" "$P2" "$P3" "$P4" "$P5")
LABELS=("read limit (no time bound)" "P1 F[0:500ms]" "P2 O[0:10s], Y O" "P3 G[0:1s]" "P4 U[0:500ms]" "P5 S[0:1s]")

# run NAME EVENTS CMD...: times CMD (exit 0 or 1: a violation is no
# failure) and prints its line; leaves the seconds in $SECS, the peak KB in
# $PEAK_KB and standard output in $T/out.
run() {
  local name=$1 n=$2; shift 2
  local rc=0
  /usr/bin/time -f '%e %M' -o "$T/time" "$@" > "$T/out" 2> "$T/err" || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "FAILED ($rc): $name"; cat "$T/err"; exit 1
  fi
  # (GNU time writes a line on a non-zero exit status first.)
  read -r SECS PEAK_KB < <(tail -n 1 "$T/time")
  awk -v name="$name" -v s="$SECS" -v kb="$PEAK_KB" -v n="$n" \
    'BEGIN { printf "  %-30s %7.2f s %8.2f M events/s %8.1f MB peak\n", name, s, (s > 0 ? n / s / 1e6 : 0), kb / 1024 }'
}

# count: the violation count of mongen's --json report in $T/out.
count() {
  python3 -c 'import json, sys; print(json.loads(sys.stdin.readline())["violation_count"])' < "$T/out"
}

# with_times RATE SRC DST: the events of SRC with times, one every 1/RATE s.
with_times() {
  awk -v dt=$((1000000 / $1)) 'NR == 1 { print "ts," $0; next } { printf "%.0f,%s\n", (NR - 2) * dt, $0 }' "$2" > "$3"
}

REELAY_OK=0
if python3 -m venv "$T/venv" > /dev/null 2>&1 &&
   "$T/venv/bin/pip" install -q reelay > "$T/pip.log" 2>&1; then
  REELAY_OK=1
else
  echo "reelay not measured: pip install reelay failed in a venv:"
  tail -n 3 "$T/pip.log" | sed 's/^/    /'
fi

echo "mongen check --time ts:us --all: $N events per log; $(nproc) cores; default threads"
for i in 1 2 3 4 5; do echo "  P$i: ${PROPS[$i]}"; done
echo "  read limit: $READ"
python3 "$T/gen.py" "$N" "$T/events.csv"
declare -A PEAK
for RATE in $RATES; do
  with_times "$RATE" "$T/events.csv" "$T/log.csv"
  echo
  echo "$RATE events/s of trace time ($(awk -v n="$N" -v r="$RATE" 'BEGIN { printf "%.0f", n / r }') s of trace), $(( $(stat -c %s "$T/log.csv") / 1000000 )) MB"
  for i in 0 1 2 3 4 5; do
    run "${LABELS[$i]}" "$N" "$M" check --time ts:us --all --json --max-reports 0 -f "${PROPS[$i]}" "$T/log.csv"
    [ "$i" -eq 0 ] && READ_SECS=$SECS
    PEAK[$RATE,$i]=$PEAK_KB
    echo "    $(count) violations; $(awk -v s="$SECS" -v r="$READ_SECS" 'BEGIN { printf "%.2f", s / r }')x the read limit's time"
    if [ "$i" -eq 0 ]; then
      # Timed properties are read in one pass (`-j` does not split them):
      # the read limit of one pass too.
      run "read limit, -j 1 (one pass)" "$N" "$M" check -j 1 --time ts:us --all --json --max-reports 0 -f "$READ" "$T/log.csv"
    fi
  done
  if [ "$REELAY_OK" = 1 ]; then
    head -n $((REELAY_N + 1)) "$T/log.csv" > "$T/prefix.csv"
    "$T/venv/bin/python" "$T/reelay_check.py" "$T/prefix.csv" "$T/prefix-v.csv" "$RATE" > "$T/reelay.out"
    read -r RSECS RFALSE2 RFALSE5 < "$T/reelay.out"
    for i in 2 5; do
      RF=$RFALSE2; [ "$i" -eq 5 ] && RF=$RFALSE5
      run "P$i on the prefix (mongen)" "$REELAY_N" "$M" check --time ts:us --all --json --max-reports 0 -f "${PROPS[$i]}" "$T/prefix.csv"
      MC=$(count)
      BODY=${PROPS[$i]#G(}
      BODY=${BODY%)}
      run "P$i <-> reelay, each event" "$REELAY_N" "$M" check --time ts:us --json --max-reports 0 -f "G(($BODY) <-> v$i)" "$T/prefix-v.csv"
      if [ "$(count)" != 0 ] || [ "$MC" != "$RF" ]; then
        echo "MISMATCH on P$i at $RATE events/s: mongen $MC violations, reelay false at $RF events; mongen and reelay differ at $(count) events"
        python3 -c 'import json, sys; r = json.loads(sys.stdin.readline()); print("  first at event", r["violations"][0]["index"] if r["violations"] else "?")' < "$T/out"
        exit 1
      fi
    done
    awk -v s="$RSECS" -v n="$REELAY_N" -v a="$RFALSE2" -v b="$RFALSE5" 'BEGIN {
      printf "  reelay, first %d events: %.2f s of updates for P2 and P5, %.3f M events/s per property; false at %d and %d events (mongen agrees at every event)\n",
        n, s, (s > 0 ? 2 * n / s / 1e6 : 0), a, b
    }'
  fi
done

# The memory across lengths: the prefixes of the log at the middle rate.
RATE_LIST=($RATES)
MID=${RATE_LIST[$(( ${#RATE_LIST[@]} / 2 ))]}
echo
echo "peak memory (MB) by rate, $N events:"
printf '  %-30s' "rate (events/s)"; for RATE in $RATES; do printf ' %9s' "$RATE"; done; echo
for i in 0 1 2 3 4 5; do
  printf '  %-30s' "${LABELS[$i]}"
  for RATE in $RATES; do awk -v kb="${PEAK[$RATE,$i]}" 'BEGIN { printf " %9.1f", kb / 1024 }'; done
  echo
done
echo
echo "peak memory (MB) by length, $MID events/s:"
with_times "$MID" "$T/events.csv" "$T/log.csv"
LENGTHS="$((N / 100)) $((N / 10)) $N"
printf '  %-30s' "events"; for L in $LENGTHS; do printf ' %9s' "$L"; done; echo
for L in $((N / 100)) $((N / 10)); do
  head -n $((L + 1)) "$T/log.csv" > "$T/len$L.csv"
done
for i in 0 1 2 3 4 5; do
  printf '  %-30s' "${LABELS[$i]}"
  for L in $((N / 100)) $((N / 10)); do
    run "${LABELS[$i]}" "$L" "$M" check --time ts:us --all --json --max-reports 0 -f "${PROPS[$i]}" "$T/len$L.csv" > /dev/null
    awk -v kb="$PEAK_KB" 'BEGIN { printf " %9.1f", kb / 1024 }'
  done
  awk -v kb="${PEAK[$MID,$i]}" 'BEGIN { printf " %9.1f", kb / 1024 }'
  echo
done
