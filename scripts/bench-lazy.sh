#!/usr/bin/env bash
# Lazy monitors benchmark: events per second of the eager monitor (built
# whole) and the lazy one (built while it runs) on the same pre-encoded
# traces, in the same run; the states the lazy one built, how often it
# emptied its cache, the peak of its cache and the process's peak memory.
#
#   scripts/bench-lazy.sh [--events N] [--counter-events N]
#
# Rows: a response property and the X-chain premise (n = 16) on random
# letters, Gp1 | ... | Gpk for k = 12 and k = 30 (2^30 states: lazy only),
# Rozier's counter with carry on its unique model, 8 and 20 bits (the
# latter lazy only, 10^6 events by default). N defaults to 10^7. Both
# monitors must report the same violations at the same events.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen-examples --bin bench_lazy
exec target/release/bench_lazy "$@"
