//! Helpers shared by the integration tests of `monitor-core`.

#![allow(dead_code)]

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::random::SplitMix64;
use monitor_core::formula::Formula;
use monitor_core::translate::{Builder, Config};
use monitor_core::word::Lasso;

/// The monitor of `f` with `cfg` (safety not checked: only the monitor
/// is wanted); panics with the formula if it cannot be built.
pub fn dfa_of(f: &Formula, cfg: Config) -> BadPrefixDfa {
    Builder::new()
        .configure(cfg.check_safety(false))
        .build_from_formula(f)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
        .into_dfa()
}

/// A random lasso of letters below `letters`: a prefix of at most
/// `max_prefix` letters and a cycle of 1 to `max_cycle`.
pub fn random_lasso(
    rng: &mut SplitMix64,
    letters: u64,
    max_prefix: u64,
    max_cycle: u64,
) -> Lasso<u64> {
    let p = rng.below(max_prefix + 1);
    let c = 1 + rng.below(max_cycle);
    Lasso::new(
        (0..p).map(|_| rng.below(letters)).collect(),
        (0..c).map(|_| rng.below(letters)).collect(),
    )
}

/// PSL constants under `abort`: a cut word goes on with letters
/// satisfying every Boolean, `false` included (IEEE 1850's ⊤), or none,
/// so a residual only such letters complete still decides the formula at
/// the cut, and `X false` is not `false`. Checked as monitors
/// (`reference.rs`) and as Büchi automata (`buchi.rs`).
pub const CONSTANTS_UNDER_ABORT: [&str; 11] = [
    "({true; false}!) abort b",
    "!(({true; false}!) abort b)",
    "({true; false} |-> a) abort b",
    "!(({true; false} |-> a) abort b)",
    "a -> (({true; false}!) abort b)",
    "(next false) abort b",
    "(eventually! false) abort b",
    "(a until! false) abort b",
    "!((next true) abort b)",
    "({true; true} |-> false) abort b",
    "(always (a -> next false)) abort b",
];

/// A random interleaved log, the CSV of the keyed tests: `rows` rows
/// over the keys `k0` to `k{keys - 1}` (with `missing`, about one row in
/// 17 without a key), and the fields `a`, `b`, `c` (random bits) and
/// `end` (true about one row in 23, to close a key).
pub fn interleaved_log(rng: &mut SplitMix64, rows: usize, keys: u64, missing: bool) -> String {
    let mut text = String::from("k,a,b,c,end\n");
    for _ in 0..rows {
        let r = rng.next_u64();
        let key = if missing && r % 17 == 0 {
            String::new()
        } else {
            format!("k{}", (r >> 8) % keys)
        };
        let (a, b, c) = ((r >> 32) & 1, (r >> 33) & 1, (r >> 34) & 1);
        let end = u64::from((r >> 40) % 23 == 0);
        text.push_str(&format!("{key},{a},{b},{c},{end}\n"));
    }
    text
}

/// The property `text` with metric operators (`O[0:5s] a`, `F[0:1ms] b`)
/// checked as `mongen check --time` checks it: its monitor over the
/// letters formula, its propositions bound to the fields of their names,
/// its timed components' inputs too; reported as `text`.
pub fn timed_property(text: &str) -> Result<monitor_core::trace::check::Property, String> {
    use monitor_core::formula::metric::parse_metric;
    use monitor_core::trace::check::Property;
    use monitor_core::trace::expr::Expr;
    use monitor_core::trace::metric::TimedPropositions;
    use monitor_core::MonitorTable;

    let m = parse_metric(text).map_err(|e| e.to_string())?;
    let table = MonitorTable::from_ltl(&m.formula.to_spot()).map_err(|e| e.to_string())?;
    let bindings = (0..table.table().props as usize)
        .map(|i| {
            let name = table.table().proposition(i);
            if m.is_timed(name) {
                Expr::Const(false)
            } else {
                Expr::parse(name).unwrap()
            }
        })
        .collect();
    let inputs = TimedPropositions::input_names(&m.timed)
        .into_iter()
        .map(|n| {
            let e = Expr::parse(&n).unwrap();
            (n, e)
        })
        .collect();
    let timed = TimedPropositions {
        components: m.timed,
        inputs,
    };
    Ok(Property::new(text, table, bindings).with_timed(timed))
}
