#!/usr/bin/env bash
# Translation routes benchmark: `mongen compile --route tableau` (Büchi
# tableau, then subsets) beside `--route auto` (formula derivatives where
# they apply: syntactic safety LTL without SEREs), on the same formulas in
# the same run: states of the minimal monitor, intermediate sizes, time
# and peak memory of each route, and time(auto) / time(tableau).
#
#   scripts/bench-routes.sh [--quick]
#
# Each (formula, route) is translated by `mongen compile --stats` in its
# own process (so the peak resident memory is that formula's), with
# --max-states 5000000 and a timeout of 60 s (10 s with --quick, which
# also takes fewer sizes); the fastest of 5 runs under 200 ms, of 3 under
# 2 s. Rows: the X-chain premise G((req & X[1] req & ...) -> X[n] gnt)
# (the tableau skipped beyond n = 13: n = 14 takes 50 s and 11 GB),
# G(a -> F[0:n] b), a PSL `within` family, Rozier's counters and or-g,
# then one summary row each for the Dwyer patterns, Rozier's safety set
# and 2 x 200 random formulas. The last lines check the goals: the X chain
# at n = 32 under 50 ms and 50 MiB, time(auto) / time(tableau) at most 1.2
# where the tableau takes 5 ms or more. All figures come from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p mongen
cargo build --release -q -p mongen-examples --bin bench_routes
exec target/release/bench_routes --mongen target/release/mongen "$@"
