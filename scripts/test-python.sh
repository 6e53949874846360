#!/usr/bin/env bash
# The Python package (python/): builds its wheel with maturin; installs it
# with its spark extra alone into a fresh virtual environment, as a user
# would (`pip install "mongen[spark]"`), and checks a DataFrame on a local
# Spark with it; then adds its test extra there and runs its tests with
# pytest, against the mongen binary
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
echo "== the Python package: wheel (maturin)"
rm -rf "$VENV" "$ROOT/target/wheels" "$ROOT/target/pyenv-user"
python3 -m venv "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check "maturin>=1.7,<2"
(cd python && VIRTUAL_ENV=$VENV CARGO_TARGET_DIR=$ROOT/target/python \
  "$VENV/bin/maturin" build --release -o "$ROOT/target/wheels")
WHEEL=$(ls "$ROOT"/target/wheels/mongen-*.whl)
echo "== the Python package: pip install \"mongen[spark]\" alone in a fresh environment, then a Spark check"
# What a user does (README): the wheel with its spark extra, nothing else
# installed by hand; the extra must bring all that mongen.spark needs.
USER_VENV=$ROOT/target/pyenv-user
python3 -m venv "$USER_VENV"
"$USER_VENV/bin/pip" install -q --disable-pip-version-check "$WHEEL[spark]"
(cd "$ROOT/target" && "$USER_VENV/bin/python" "$ROOT/python/scripts/user_install_check.py")
echo "== the Python package: the wheel with its test extra, and pytest"
# The same environment, the test extra added: its spark, pyarrow and pandas
# are already there (a second environment installed them all again).
"$USER_VENV/bin/pip" install -q --disable-pip-version-check "$WHEEL[test]"
echo "== the Python package: pytest"
# From another folder, so that the installed package is the one tested.
(cd "$ROOT/target" && MONGEN_BIN=$ROOT/target/release/mongen PYSPARK_PYTHON="$USER_VENV/bin/python" \
  "$USER_VENV/bin/python" -m pytest -q -p no:cacheprovider "$ROOT/python/tests")
