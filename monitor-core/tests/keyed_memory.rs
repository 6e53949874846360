//! The memory of keyed checking's violated keys (issue 30): a counting
//! allocator measures the peak of the bytes allocated while a log of many
//! keys is checked and its report made, on a log where every key violates
//! and on one where none does (every key live to the end).
//!
//! (One test in this binary: the allocator counts every thread's bytes.)

#[path = "support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::peak_of;

use monitor_core::trace::check::{Options, Property};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport};
use monitor_core::trace::reader::CsvReader;
use monitor_core::MonitorTable;

/// A log of `keys` sessions, ten events each, interleaved: each session
/// alternates `req` and `resp` (which violates `G(req -> X req)` at the
/// session's second event, and never `G(req -> X (req | resp))`).
fn log(keys: usize) -> String {
    let mut log = String::from("session,req,resp\n");
    for round in 0..10 {
        let req = u8::from(round % 2 == 0);
        for k in 0..keys {
            log.push_str(&format!("s{k},{req},{}\n", 1 - req));
        }
    }
    log
}

/// Checks `log` by session with the property `ltl` (over `req` and
/// `resp`): the counts only, or the violations listed (explained as the
/// log is read, each key keeping its last events, or later, keeping
/// none); the report copied from the checker ([`KeyedChecker::run`]) or,
/// with `taken`, taken from it.
fn check(
    ltl: &str,
    log: &str,
    counts_only: bool,
    explain_later: bool,
    options: Options,
    taken: bool,
) -> KeyedReport {
    let table = MonitorTable::from_ltl(ltl).unwrap();
    let bindings = (0..table.table().props as usize)
        .map(|i| Expr::parse(table.table().proposition(i)).unwrap())
        .collect();
    let p = Property::new(ltl, table, bindings);
    let mut checker = KeyedChecker::new(
        vec![p],
        options,
        &["session"],
        KeyedOptions {
            explain_later,
            ..KeyedOptions::default()
        },
    );
    checker.set_counts_only(counts_only);
    let mut reader = CsvReader::new("log.csv", log.as_bytes()).unwrap();
    if taken {
        // The report taken from the checker, not copied.
        checker.read_reporting(&mut reader, |_, _, _| {}).unwrap();
        return checker.take_report();
    }
    checker.run(&mut reader).unwrap()
}

/// The peak of the bytes per violated key beyond those of a live key: 45
/// counting only, 430 listed (360 with the report taken from the
/// checker, not copied), when measured (with `Options::all` or not), against 474 counting only before the violations were counted
/// apart (each violated key's entry, its key's text, the index of the
/// entries, and the report's copy of them all).
#[test]
fn a_violated_key_costs_no_more_than_a_live_one() {
    const KEYS: usize = 20_000;
    let text = log(KEYS);
    for all in [false, true] {
        let options = Options {
            all,
            ..Options::default()
        };
        let holds = "G(req -> X (req | resp))";
        let fails = "G(req -> X req)";
        for explain_later in [true, false] {
            let (live, report) =
                peak_of(|| check(holds, &text, false, explain_later, options, false));
            assert_eq!(report.keys, KEYS as u64);
            assert_eq!(
                (report.live, report.properties[0].keys_violated),
                (KEYS as u64, 0)
            );
            let (listed, report) =
                peak_of(|| check(fails, &text, false, explain_later, options, false));
            assert_eq!(report.violations.len(), KEYS);
            let (taken, taken_report) =
                peak_of(|| check(fails, &text, false, explain_later, options, true));
            assert_eq!(taken_report, report);
            let (counted, report) =
                peak_of(|| check(fails, &text, true, explain_later, options, false));
            assert_eq!(report.properties[0].keys_violated, KEYS as u64);
            assert!(report.violations.is_empty());
            let beyond = |peak: usize| peak.saturating_sub(live) / KEYS;
            let ctx = format!(
                "all {all}, explained later {explain_later}: peak bytes per key: live {}, \
                 violated counted {}, violated listed {} (taken {})",
                live / KEYS,
                counted / KEYS,
                listed / KEYS,
                taken / KEYS
            );
            eprintln!("{ctx}");
            assert!(beyond(counted) <= 128, "{ctx}");
            // (A key's explanation is hundreds of bytes: explaining every
            // violated key would show.)
            assert!(beyond(listed) <= 1024, "{ctx}");
            // Taken, the report is not a second copy of every key's entry
            // and text (70 bytes a key less when measured).
            assert!(taken / KEYS + 48 <= listed / KEYS, "{ctx}");
        }
    }
}
