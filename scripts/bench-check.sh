#!/usr/bin/env bash
# Trace-checking benchmark: events per second of `mongen check`'s engine
# (monitor_core::trace) on generated traces, beside the time the format's
# own reader (the csv crate, serde_json, the vcd crate) takes to read the
# same trace, for 1, 8 and 64 properties at once; and the monitors alone on
# pre-encoded letters, one run against chunk summaries on every core.
#
#   scripts/bench-check.sh [EVENTS]     (default 10000000)
#
# The traces (about 20 + 57 + 52 bytes per event) are generated in a
# temporary folder and removed at the end; all figures come from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen-examples --bin bench_check
exec target/release/bench_check "${1:-10000000}"
