//! `mongen check --by --json` written key by key
//! ([`write_keyed_report_json`]): its text is that of the whole report's
//! object ([`keyed_report_json`], serialized and escaped as the command
//! wrote it before), on random logs whose keys and shown fields hold
//! quotes, backslashes, non-ASCII and characters a terminal acts on; and
//! the memory it takes while writing is one key's, where the whole object
//! takes memory in proportion to the keys. The top violators, selected
//! in one pass, are the first of the keys sorted.
//!
//! (One test in this binary: the counting allocator counts every
//! thread's bytes.)

#[path = "../../monitor-core/tests/support/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::peak_of;

use mongen::trace_report::{
    keyed_counts_json, keyed_report_json, top_violators, write_keyed_report_json, TOP_VIOLATORS,
};
use monitor_core::formula::random::SplitMix64;
use monitor_core::trace::check::{Options, Property};
use monitor_core::trace::escape_json;
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport};
use monitor_core::trace::reader::JsonlReader;
use monitor_core::MonitorTable;

/// The properties checked: one violated at once, one a step later.
fn properties() -> Vec<Property> {
    ["G !a", "G(a -> X b)"]
        .iter()
        .map(|f| {
            let table = MonitorTable::from_ltl(f).unwrap();
            let t = table.table();
            let bindings = (0..t.props as usize)
                .map(|i| Expr::parse(t.proposition(i)).unwrap())
                .collect();
            Property::new(f, table, bindings)
        })
        .collect()
}

/// A random text of a few characters, among them quotes, backslashes,
/// non-ASCII letters and characters a terminal acts on.
fn text(rng: &mut SplitMix64) -> String {
    const CHARS: [char; 12] = [
        'a', 'b', '"', '\\', 'é', '語', '\u{1b}', '\u{7}', '\u{9b}', '\u{202e}', ',', ' ',
    ];
    (0..1 + rng.below(5))
        .map(|_| CHARS[rng.below(CHARS.len() as u64) as usize])
        .collect()
}

/// Checks a JSON Lines log of `rows` rows over `keys` keys by its field
/// `k`, showing its field `note`.
fn check(rows: &[(String, bool, bool, String)], options: Options) -> KeyedReport {
    let mut log = String::new();
    for (k, a, b, note) in rows {
        let row = serde_json::json!({"k": k, "a": a, "b": b, "note": note});
        log.push_str(&row.to_string());
        log.push('\n');
    }
    let mut checker = KeyedChecker::new(properties(), options, &["k"], KeyedOptions::default());
    checker.set_show(vec!["note".into()]);
    checker
        .run(&mut JsonlReader::new("t.jsonl", log.as_bytes()))
        .unwrap()
}

/// Each property's report as `write_keyed_report_json` writes it, and as
/// the whole object serialized and escaped; `three`, `complete` as the
/// command's, and with `lazy` the fields of `--lazy` added to both.
fn both(r: &KeyedReport, three: bool, complete: bool, lazy: bool) -> Vec<(String, String)> {
    let heads = keyed_counts_json("t.jsonl", r, three, complete);
    let wholes = keyed_report_json("t.jsonl", r, three, complete);
    heads
        .into_iter()
        .zip(wholes)
        .enumerate()
        .map(|(p, (mut head, mut whole))| {
            if lazy {
                // As the command adds them with --lazy.
                for json in [&mut head, &mut whole] {
                    json["inexact_at"] = serde_json::json!({"index": 3, "line": 4, "time": null});
                    json["lazy"] = serde_json::json!({"states_built": 2});
                }
            }
            let mut out = Vec::new();
            write_keyed_report_json(&mut out, &head, r, p).unwrap();
            let whole = format!("{}\n", escape_json(&whole.to_string()));
            (String::from_utf8(out).unwrap(), whole)
        })
        .collect()
}

#[test]
fn keyed_json_is_written_key_by_key_as_the_whole_object() {
    // The text: that of the whole object.
    let mut rng = SplitMix64::new(30);
    let (mut written_keys, mut tied) = (0, 0);
    for round in 0..300u64 {
        let keys: Vec<String> = (0..1 + rng.below(12)).map(|_| text(&mut rng)).collect();
        let rows: Vec<_> = (0..rng.below(60))
            .map(|_| {
                let k = keys[rng.below(keys.len() as u64) as usize].clone();
                let r = rng.next_u64();
                let note = text(&mut rng);
                (k, r % 5 == 0, r % 3 == 0, note)
            })
            .collect();
        let options = Options {
            all: round % 2 == 1,
            max_reports: rng.below(4) as usize,
            context: (round % 3) as usize,
            ..Options::default()
        };
        let report = check(&rows, options);
        for (written, whole) in both(&report, round % 3 == 0, round % 5 != 0, round % 4 == 3) {
            assert_eq!(written, whole, "{rows:?} {options:?}");
        }
        // The top violators, selected in one pass: the first of the keys
        // sorted by count (most first), then first violation.
        for p in 0..report.properties.len() {
            let mut want: Vec<_> = report
                .violations
                .iter()
                .filter(|v| v.property == p)
                .collect();
            want.sort_by_key(|v| (std::cmp::Reverse(v.count), v.first.index));
            want.truncate(TOP_VIOLATORS);
            assert_eq!(top_violators(&report, p), want, "{rows:?} {options:?}");
            tied += usize::from(want.windows(2).any(|w| w[0].count == w[1].count));
        }
        written_keys += report.violations.len();
    }
    assert!(
        written_keys > 1000 && tied > 100,
        "{written_keys} violating keys written, {tied} top violators with ties"
    );

    // The memory: one key's. Every key violates `G !a` at its second
    // event, explained (its two events, their fields shown).
    const KEYS: usize = 20_000;
    let rows: Vec<_> = (0..2 * KEYS)
        .map(|i| {
            (
                format!("session-{}", i % KEYS),
                i >= KEYS,
                false,
                "x".repeat(40),
            )
        })
        .collect();
    let options = Options {
        max_reports: KEYS,
        ..Options::default()
    };
    let report = check(&rows, options);
    assert_eq!(report.violations.len(), KEYS);
    let head = &keyed_counts_json("t.jsonl", &report, false, true)[0];
    let (streamed, written) = peak_of(|| {
        let mut out = std::io::sink();
        write_keyed_report_json(&mut out, head, &report, 0)
    });
    written.unwrap();
    let (whole, json) = peak_of(|| keyed_report_json("t.jsonl", &report, false, true));
    drop(json);
    eprintln!("peak bytes: written key by key {streamed}, whole {whole} ({KEYS} keys)");
    // (21 KB when measured: a key's object and its text, the head's.)
    assert!(
        streamed <= 64 << 10,
        "{streamed} bytes, {whole} for the whole"
    );
    assert!(whole >= KEYS * 1000, "{whole} bytes for the whole");
}
