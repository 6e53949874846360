//! Keyed checking that keeps the counts only (`mongen check --by
//! --summary`): its report is the full report without the violating keys
//! (the counts the same), and it gives `on_violation` the same violations
//! as they happen, on random properties and random interleaved logs, in
//! one pass and in chunks. (The full report is the one the keyed oracle
//! tests compare with a brute-force slicer.)

mod common;

use common::interleaved_log;
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::trace::check::{Options, Property, ViolationReport};
use monitor_core::trace::chunked::{Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport, Unkeyed};
use monitor_core::trace::reader::CsvReader;
use monitor_core::MonitorTable;

/// What `on_violation` was given: the key, the property, the violation.
type Seen = Vec<(Vec<String>, String, ViolationReport)>;

/// Checks `text` in one pass, or in chunks of a few rows on two threads
/// (`chunked`), with the violations given as they happen.
fn run(checker: &mut KeyedChecker, text: &str, chunked: bool) -> (KeyedReport, Seen) {
    let mut seen = Vec::new();
    let mut on = |k: &[String], p: &str, v: &ViolationReport| {
        seen.push((k.to_vec(), p.to_string(), v.clone()))
    };
    let report = if chunked {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let chunking = Chunking::Lines(1 + text.len() % 7);
        pool.install(|| {
            checker.run_lines_reporting(
                LineFormat::Csv,
                "t.csv",
                text.as_bytes(),
                chunking,
                &mut on,
            )
        })
    } else {
        let mut reader = CsvReader::new("t.csv", text.as_bytes()).unwrap();
        checker.run_reporting(&mut reader, &mut on)
    };
    (report.unwrap(), seen)
}

#[test]
fn counting_only_reports_the_counts_of_the_full_report() {
    let mut rng = SplitMix64::new(30);
    let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 8).seed(30).with_past();
    let (mut rounds, mut violated_keys, mut seen_violations) = (0, 0u64, 0);
    for round in 0..300u64 {
        let mut properties = Vec::new();
        while properties.len() < 1 + (round % 3) as usize {
            let f = random_ltl.next_formula().to_spot();
            if let Ok(table) = MonitorTable::from_ltl(&f) {
                properties.push((f, table));
            }
        }
        let props = || {
            properties
                .iter()
                .map(|(f, table)| {
                    let t = table.table();
                    let bindings = (0..t.props as usize)
                        .map(|i| Expr::parse(t.proposition(i)).unwrap())
                        .collect();
                    Property::new(f, table.clone(), bindings)
                })
                .collect::<Vec<_>>()
        };
        let (rows, keys) = ((rng.next_u64() % 300) as usize, 1 + rng.next_u64() % 40);
        let text = interleaved_log(&mut rng, rows, keys, true);
        let options = Options {
            all: round % 2 == 1,
            max_reports: (rng.next_u64() % 4) as usize,
            context: (round % 3) as usize,
            ..Options::default()
        };
        let keyed = KeyedOptions {
            unkeyed: [Unkeyed::Skip, Unkeyed::Broadcast][(round / 2 % 2) as usize],
            end_key: (round % 5 == 0).then(|| Expr::parse("end").unwrap()),
            explain_later: round % 7 == 3,
            ..KeyedOptions::default()
        };
        let chunked = round % 3 == 2;
        let checker = |counts_only: bool| {
            let mut c = KeyedChecker::new(props(), options, &["k"], keyed.clone());
            c.set_counts_only(counts_only);
            c
        };
        let (full, full_seen) = run(&mut checker(false), &text, chunked);
        let mut counting = checker(true);
        let (counts, seen) = run(&mut counting, &text, chunked);
        let ctx = format!("{properties:?} {options:?} {keyed:?} chunked {chunked} on\n{text}");
        let mut want = full.clone();
        want.violations.clear();
        assert_eq!(counts, want, "{ctx}");
        assert_eq!(counting.report(), want, "{ctx}");
        assert_eq!(seen, full_seen, "{ctx}");
        rounds += 1;
        violated_keys += full.properties.iter().map(|p| p.keys_violated).sum::<u64>();
        seen_violations += seen.len();
    }
    assert!(
        rounds == 300 && violated_keys > 3000 && seen_violations > 300,
        "{rounds} rounds, {violated_keys} keys violated, {seen_violations} violations given"
    );
}
