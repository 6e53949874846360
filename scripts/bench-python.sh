#!/usr/bin/env bash
# Throughput of the Python package on Arrow data and of mongen.spark on a
# local Spark, against `mongen check` on the same events as CSV, in one
# run (figures as ratios); and what a Spark partition costs (its summary's
# size, the executor's time, the driver's combine).
#
#   scripts/bench-python.sh [EVENTS [SPARK_EVENTS]]   (10^7 and 10^8 by default;
#                                                      SPARK_EVENTS=0: no Spark)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
EVENTS=${1:-10000000}
SPARK_EVENTS=${2:-100000000}
VENV=$ROOT/target/benchenv
WORK=$ROOT/target/bench-python
cargo build --release -q -p mongen
[[ -x $VENV/bin/python ]] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.7,<2" numpy \
  "pyarrow>=14" "pandas>=2.2,<3" "pyspark>=4,<5"
rm -rf "$ROOT/target/bench-wheels"
(cd python && VIRTUAL_ENV=$VENV CARGO_TARGET_DIR=$ROOT/target/python \
  "$VENV/bin/maturin" build --release -q -o "$ROOT/target/bench-wheels")
"$VENV/bin/pip" install -q --disable-pip-version-check --force-reinstall --no-deps \
  "$ROOT"/target/bench-wheels/mongen-*.whl
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
PYSPARK_PYTHON="$VENV/bin/python" "$VENV/bin/python" python/bench/bench_scale.py \
  "$EVENTS" "$SPARK_EVENTS" "$WORK" "$ROOT/target/release/mongen" 2> >(grep -v -E "WARN|^\s*$|Stage" >&2)
rm -rf "$WORK"
