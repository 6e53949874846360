#!/usr/bin/env bash
# The whole test suite, as CI runs it: installs the tools the tests run
# (Spin, NuSMV, Icarus Verilog, Verilator, Yosys, SystemC), then formatting, lints, documentation and every test of the
# workspace (release build: the property tests translate thousands of
# formulas).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "[${SECONDS}s] == external tools (Spin, NuSMV, Icarus Verilog, Verilator, Yosys, SystemC)"
scripts/install-tools.sh
echo "[${SECONDS}s] == cargo fmt --check"
cargo fmt --all -- --check
echo "[${SECONDS}s] == cargo clippy"
cargo clippy --workspace --all-targets --release -- -D warnings
echo "[${SECONDS}s] == monitor-core without std (the no_std runtime)"
cargo clippy -p monitor-core --no-default-features --release -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p monitor-core --no-default-features --no-deps --release --quiet
echo "[${SECONDS}s] == cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --release --quiet
# monitor-core alone, default features only (no links into optional modules).
RUSTDOCFLAGS="-D warnings" cargo doc -p monitor-core --no-deps --release --quiet
echo "[${SECONDS}s] == mongen as a library without the CLI (as the Python package builds it)"
cargo check -p mongen --no-default-features --features trace
echo "[${SECONDS}s] == cargo test"
cargo test --workspace --release
echo "[${SECONDS}s] == monitor-core's unit tests with debug assertions and overflow checks"
# The `checked` profile (Cargo.toml): release with debug-assertions and
# overflow-checks, the assertions of a debug build, optimized.
cargo test -p monitor-core --lib --profile checked
echo "[${SECONDS}s] == the Python package (python/: maturin wheel, pytest)"
scripts/test-python.sh
echo "[${SECONDS}s] == examples/hardware/run.sh (the arbiter example end to end)"
OUT="$(mktemp -d)" examples/hardware/run.sh
echo "[${SECONDS}s] == cargo publish --dry-run (every published crate packages and builds)"
scripts/check-publish.sh
echo "[${SECONDS}s] == all passed"
