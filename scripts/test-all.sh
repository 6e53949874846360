#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the tools the tests run
# (Spin, NuSMV, Icarus Verilog, Verilator, Yosys, SystemC), then formatting, lints, documentation and every test of the
# workspace (release build: the property tests translate thousands of
# formulas).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== external tools (Spin, NuSMV, Icarus Verilog, Verilator, Yosys, SystemC)"
scripts/install-tools.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "== monitor-core without std (the no_std runtime)"
cargo clippy -p monitor-core --no-default-features --release -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p monitor-core --no-default-features --no-deps --release --quiet
echo "== cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --release --quiet
# monitor-core alone, default features only (no links into optional modules).
RUSTDOCFLAGS="-D warnings" cargo doc -p monitor-core --no-deps --release --quiet
echo "== mongen as a library without the CLI (as the Python package builds it)"
cargo check -p mongen --no-default-features --features trace
echo "== cargo test"
cargo test --workspace --release
echo "== monitor-core's unit tests in a debug build (debug assertions on)"
cargo test -p monitor-core --lib
echo "== the Python package (python/: maturin wheel, pytest)"
scripts/test-python.sh
echo "== examples/hardware/run.sh (the arbiter example end to end)"
OUT="$(mktemp -d)" examples/hardware/run.sh
echo "== cargo publish --dry-run (every published crate packages and builds)"
scripts/check-publish.sh
