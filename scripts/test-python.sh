#!/usr/bin/env bash
# The Python package (python/): builds its wheel with maturin, installs it
# into a fresh virtual environment (as `pip install` would on a user's
# machine) and runs its tests with pytest, against the mongen binary
# (target/release/mongen, built here), with pyarrow, polars and pandas
# data, and on a local Spark (pyspark; the Java runtime comes from
# scripts/install-tools.sh).
#
#   scripts/test-python.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/target/pyenv
cargo build --release -q -p mongen
echo "== the Python package: lints"
cargo fmt --manifest-path python/Cargo.toml -- --check
CARGO_TARGET_DIR=$ROOT/target/python cargo clippy --manifest-path python/Cargo.toml --release -- -D warnings
echo "== the Python package: wheel (maturin), installed in a fresh virtual environment"
rm -rf "$VENV" "$ROOT/target/wheels"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.7,<2" "pytest>=7" \
  "pyarrow>=14" "polars>=1" "pandas>=2.2,<3" "pyspark>=4,<5"
(cd python && VIRTUAL_ENV=$VENV CARGO_TARGET_DIR=$ROOT/target/python \
  "$VENV/bin/maturin" build --release -o "$ROOT/target/wheels")
"$VENV/bin/pip" install -q --disable-pip-version-check "$ROOT"/target/wheels/mongen-*.whl
echo "== the Python package: pytest"
# From another folder, so that the installed package is the one tested.
(cd "$ROOT/target" && MONGEN_BIN=$ROOT/target/release/mongen PYSPARK_PYTHON="$VENV/bin/python" \
  "$VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/python/tests")
