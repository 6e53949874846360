//! Past metric operators (issue 32) against a brute-force evaluator
//! written from their definitions, over finite timed words:
//!
//! * random past metric formulas (metric operators nested in metric
//!   operators and in `Y`, `S`, `B`, `T`; bounds in random units, some
//!   unbounded above) and random timed traces (bursts of equal times, gaps
//!   longer than every bound), printed as text and read back by
//!   [`parse_metric`]: the [`Evaluator`]'s value at every position is the
//!   brute force's;
//! * `G(φ | d)` checked by a [`Checker`] over the trace as a CSV log with
//!   `--time` (`d` always false): its first violation is the first
//!   position where the brute force says `φ` fails, in one pass and
//!   through `check_lines` in chunks;
//! * the same by key (`--by`, rows without a key broadcast, keys closed
//!   and opened again): each key instance's
//!   first violation is the brute force's on the key's slice alone, in one
//!   pass and in chunks on two threads.
//!
//! The brute force knows nothing of the parser, the components or the
//! interval compression: it computes each subformula's value at every
//! position from the definitions, O(n²) per operator.

use monitor_core::formula::metric::parse_metric;
use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport, Unkeyed};
use monitor_core::trace::metric::{Evaluator, TimedPropositions};
use monitor_core::trace::reader::CsvReader;
use monitor_core::trace::time::{TimeOrder, TimeSpec};
use monitor_core::MonitorTable;
use proptest::prelude::*;

mod common;

/// A bound as written: a number and its unit (`""`: a bare 0).
#[derive(Clone, Debug)]
struct Written {
    number: u64,
    unit: &'static str,
}

impl Written {
    fn nanos(&self) -> i64 {
        let scale: i64 = match self.unit {
            "" | "ns" => 1,
            "us" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" | "min" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            "d" => 86_400_000_000_000,
            u => panic!("unit {u}"),
        };
        self.number as i64 * scale
    }

    fn text(&self) -> String {
        format!("{}{}", self.number, self.unit)
    }
}

/// An interval as written: `[lo:hi]`, `hi` `None` for unbounded above.
#[derive(Clone, Debug)]
struct Interval {
    lo: Written,
    hi: Option<Written>,
    separator: &'static str,
}

impl Interval {
    fn contains(&self, d: i64) -> bool {
        d >= self.lo.nanos() && self.hi.as_ref().is_none_or(|h| d <= h.nanos())
    }

    fn text(&self) -> String {
        let hi = self.hi.as_ref().map_or_else(String::new, Written::text);
        format!("[{}{}{hi}]", self.lo.text(), self.separator)
    }
}

/// A past metric formula, the test's own syntax tree.
#[derive(Clone, Debug)]
enum M {
    Ap(usize),
    Not(Box<M>),
    And(Box<M>, Box<M>),
    Or(Box<M>, Box<M>),
    Y(Box<M>),
    Z(Box<M>),
    O(Box<M>),
    H(Box<M>),
    S(Box<M>, Box<M>),
    B(Box<M>, Box<M>),
    T(Box<M>, Box<M>),
    TimedO(Interval, Box<M>),
    TimedH(Interval, Box<M>),
    TimedS(Interval, Box<M>, Box<M>),
}

const NAMES: [&str; 3] = ["a", "b", "c"];

impl M {
    /// Fully parenthesized text in the LTL syntax.
    fn text(&self) -> String {
        match self {
            M::Ap(i) => NAMES[*i].to_string(),
            M::Not(f) => format!("(!{})", f.text()),
            M::And(f, g) => format!("({} & {})", f.text(), g.text()),
            M::Or(f, g) => format!("({} | {})", f.text(), g.text()),
            M::Y(f) => format!("(Y {})", f.text()),
            M::Z(f) => format!("(Z {})", f.text()),
            M::O(f) => format!("(O {})", f.text()),
            M::H(f) => format!("(H {})", f.text()),
            M::S(f, g) => format!("({} S {})", f.text(), g.text()),
            M::B(f, g) => format!("({} B {})", f.text(), g.text()),
            M::T(f, g) => format!("({} T {})", f.text(), g.text()),
            M::TimedO(i, f) => format!("(O{} {})", i.text(), f.text()),
            M::TimedH(i, f) => format!("(H{} {})", i.text(), f.text()),
            M::TimedS(i, f, g) => format!("({} S{} {})", f.text(), i.text(), g.text()),
        }
    }

    /// The value at every position of the timed word `(letters, times)`,
    /// from the definitions.
    fn values(&self, letters: &[[bool; 3]], times: &[i64]) -> Vec<bool> {
        let n = letters.len();
        let all = |p: &dyn Fn(usize) -> bool| (0..n).map(p).collect::<Vec<bool>>();
        // g at j, and f at every k in (j, i].
        let since = |f: &[bool], g: &[bool], i: usize, j: usize| g[j] && (j + 1..=i).all(|k| f[k]);
        match self {
            M::Ap(p) => all(&|i| letters[i][*p]),
            M::Not(f) => f.values(letters, times).iter().map(|v| !v).collect(),
            M::And(f, g) => {
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                all(&|i| f[i] && g[i])
            }
            M::Or(f, g) => {
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                all(&|i| f[i] || g[i])
            }
            M::Y(f) => {
                let f = f.values(letters, times);
                all(&|i| i > 0 && f[i - 1])
            }
            M::Z(f) => {
                let f = f.values(letters, times);
                all(&|i| i == 0 || f[i - 1])
            }
            M::O(f) => {
                let f = f.values(letters, times);
                all(&|i| (0..=i).any(|j| f[j]))
            }
            M::H(f) => {
                let f = f.values(letters, times);
                all(&|i| (0..=i).all(|j| f[j]))
            }
            M::S(f, g) => {
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                all(&|i| (0..=i).any(|j| since(&f, &g, i, j)))
            }
            M::B(f, g) => {
                // (f S g) | H f
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                all(&|i| (0..=i).any(|j| since(&f, &g, i, j)) || (0..=i).all(|j| f[j]))
            }
            M::T(f, g) => {
                // !(!f S !g)
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                let (nf, ng): (Vec<bool>, Vec<bool>) = (
                    f.iter().map(|v| !v).collect(),
                    g.iter().map(|v| !v).collect(),
                );
                all(&|i| !(0..=i).any(|j| since(&nf, &ng, i, j)))
            }
            M::TimedO(iv, f) => {
                let f = f.values(letters, times);
                all(&|i| (0..=i).any(|j| iv.contains(times[i] - times[j]) && f[j]))
            }
            M::TimedH(iv, f) => {
                let f = f.values(letters, times);
                all(&|i| (0..=i).all(|j| !iv.contains(times[i] - times[j]) || f[j]))
            }
            M::TimedS(iv, f, g) => {
                let (f, g) = (f.values(letters, times), g.values(letters, times));
                all(&|i| (0..=i).any(|j| iv.contains(times[i] - times[j]) && since(&f, &g, i, j)))
            }
        }
    }
}

/// Bounds in nanoseconds around the traces' gaps (1 ns to 100 µs), in
/// every unit that writes them exactly, some of them large units.
fn written() -> impl Strategy<Value = Written> {
    prop_oneof![
        Just(Written {
            number: 0,
            unit: ""
        }),
        // Small, as the smallest gaps: the windows' edges fall on events.
        (0u64..6).prop_map(|number| Written { number, unit: "ns" }),
        (0u64..6).prop_map(|number| Written { number, unit: "ns" }),
        (0u64..40).prop_map(|number| Written { number, unit: "ns" }),
        (0u64..40).prop_map(|number| Written {
            number: number * 1000,
            unit: "ns"
        }),
        (0u64..40).prop_map(|number| Written { number, unit: "us" }),
        // Longer than every trace: the window holds everything.
        (1u64..3).prop_map(|number| Written { number, unit: "ms" }),
        (1u64..3).prop_map(|number| Written { number, unit: "s" }),
        Just(Written {
            number: 1,
            unit: "min"
        }),
        Just(Written {
            number: 1,
            unit: "d"
        }),
    ]
}

fn interval() -> impl Strategy<Value = Interval> {
    (
        written(),
        prop_oneof![4 => written().prop_map(Some), 1 => Just(None)],
        prop_oneof![Just(":"), Just(".."), Just(",")],
    )
        .prop_map(|(a, b, separator)| {
            let (lo, hi) = match b {
                Some(b) if b.nanos() < a.nanos() => (b, Some(a)),
                Some(b) => (a, Some(b)),
                None => (a, None),
            };
            // A bare 0 needs a unit beside it.
            let mut lo = lo;
            if lo.unit.is_empty() && hi.as_ref().is_none_or(|h| h.unit.is_empty()) {
                lo.unit = "ns";
            }
            Interval { lo, hi, separator }
        })
}

fn formula() -> impl Strategy<Value = M> {
    let leaf = (0usize..3).prop_map(M::Ap);
    leaf.prop_recursive(5, 24, 2, |inner| {
        let b = |f: M| Box::new(f);
        prop_oneof![
            1 => inner.clone().prop_map(move |f| M::Not(b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::And(b(f), b(g))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::Or(b(f), b(g))),
            1 => inner.clone().prop_map(move |f| M::Y(b(f))),
            1 => inner.clone().prop_map(move |f| M::Z(b(f))),
            1 => inner.clone().prop_map(move |f| M::O(b(f))),
            1 => inner.clone().prop_map(move |f| M::H(b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::S(b(f), b(g))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::B(b(f), b(g))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::T(b(f), b(g))),
            3 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedO(i, b(f))),
            3 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedH(i, b(f))),
            3 => (interval(), inner.clone(), inner.clone())
                .prop_map(move |(i, f, g)| M::TimedS(i, b(f), b(g))),
        ]
    })
}

/// A timed word: letters over a, b, c and non-decreasing times, with
/// bursts of equal times and gaps longer than every bound.
fn timed_word() -> impl Strategy<Value = (Vec<[bool; 3]>, Vec<i64>)> {
    let gap = prop_oneof![
        3 => Just(0i64),
        3 => 1i64..4,
        3 => 1i64..50,
        3 => (1i64..50).prop_map(|g| g * 1000),
        1 => Just(100_000_000_000_000i64),
    ];
    (
        0i64..1_000_000,
        prop::collection::vec((any::<[bool; 3]>(), gap), 0..60),
    )
        .prop_map(|(start, events)| {
            let mut t = start;
            let mut letters = Vec::new();
            let mut times = Vec::new();
            for (l, g) in events {
                t += g;
                letters.push(l);
                times.push(t);
            }
            (letters, times)
        })
}

fn input(name: &str) -> Option<usize> {
    NAMES.iter().position(|n| *n == name)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    /// The evaluator's value at every position is the brute force's.
    #[test]
    fn the_evaluator_agrees_with_the_definitions(f in formula(), (letters, times) in timed_word()) {
        let text = f.text();
        let m = parse_metric(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let mut ev = Evaluator::new(&m.timed, std::slice::from_ref(&m.formula), input)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let expected = f.values(&letters, &times);
        for (i, (l, &t)) in letters.iter().zip(&times).enumerate() {
            ev.step(t, |k| l[k]);
            prop_assert_eq!(ev.roots()[0], expected[i], "{} at {} (times {:?})", text, i, &times[..=i]);
        }
    }
}

/// The trace as a CSV log, times in nanoseconds.
fn csv(letters: &[[bool; 3]], times: &[i64]) -> String {
    let mut s = String::from("ts,a,b,c,d\n");
    for (l, t) in letters.iter().zip(times) {
        s.push_str(&format!(
            "{t},{},{},{},0\n",
            u8::from(l[0]),
            u8::from(l[1]),
            u8::from(l[2])
        ));
    }
    s
}

/// A checker of `G(text | d)`, times from `ts` in nanoseconds. The
/// column `d` is always 0, but the monitor cannot know it: without it, the
/// exact monitor of `G(Z a)` reports its violation at the first `!a`,
/// where every continuation violates it, one event before `Z a` fails.
fn checker_of(text: &str) -> Result<Checker, String> {
    let mut checker = Checker::new(vec![property_of(text)?], Options::default());
    checker.set_time(Some(TimeSpec::parse("ts:ns").unwrap()), TimeOrder::Strict);
    Ok(checker)
}

/// The property `G(text | d)` of [`checker_of`], reported as `text`.
fn property_of(text: &str) -> Result<Property, String> {
    let p = common::timed_property(&format!("G({text} | d)"))?;
    Ok(Property {
        name: text.to_string(),
        ..p
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// `G(φ | d)` checked over the log (`d` always false) is first violated
    /// where the brute force first says `φ` fails, in one pass and in
    /// chunks.
    #[test]
    fn the_check_finds_the_first_violation(f in formula(), (letters, times) in timed_word()) {
        let text = f.text();
        let mut checker = checker_of(&text).map_err(TestCaseError::fail)?;
        let expected = f.values(&letters, &times).iter().position(|v| !v).map(|i| i as u64);
        let log = csv(&letters, &times);
        let reports = checker
            .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let found = reports[0].first_violation.as_ref().map(|p| p.index);
        prop_assert_eq!(found, expected, "G({}) over\n{}", text, log);
        for chunking in [Chunking::Lines(1), Chunking::Lines(3)] {
            let reports = check_lines(&mut checker, LineFormat::Csv, "log.csv", log.as_bytes(), chunking)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            let found = reports[0].first_violation.as_ref().map(|p| p.index);
            prop_assert_eq!(found, expected, "chunks {:?}: G({}) over\n{}", chunking, text, log);
        }
    }
}

/// Memory does not grow with the event rate: `O[0:10s] f` over ten
/// seconds of events at one per microsecond keeps one interval.
#[test]
fn the_kept_intervals_do_not_grow_with_the_rate() {
    let m = parse_metric("O[0:10s] a & O[1s:2s] a").unwrap();
    let mut ev = Evaluator::new(&m.timed, &[], input).unwrap();
    let mut most = 0;
    for i in 0..20_000_000i64 {
        ev.step(i * 1000, |_| i % 3 == 0);
        most = most.max(ev.kept());
    }
    assert!(most <= 4, "{most} intervals kept");
}

/// JSON Lines logs are read as CSV ones, and a keyed check refuses a
/// deadline (a future bound: each key would need its own delayed
/// letters) rather than reading its propositions as false.
#[test]
fn json_lines_and_keys() {
    use monitor_core::trace::reader::JsonlReader;

    let text = "(a S[0:5us] b)";
    let log = "{\"ts\": 0, \"a\": 0, \"b\": 1, \"c\": 0, \"d\": 0}\n\
               {\"ts\": 3000, \"a\": 1, \"b\": 0, \"c\": 0, \"d\": 0}\n\
               {\"ts\": 6000, \"a\": 1, \"b\": 0, \"c\": 0, \"d\": 0}\n";
    let mut checker = checker_of(text).unwrap();
    let reports = checker
        .run(&mut JsonlReader::new("log", log.as_bytes()))
        .unwrap();
    // b at 0 is 6 µs old at 6000: too old.
    assert_eq!(
        reports[0].first_violation.as_ref().map(|p| p.index),
        Some(2)
    );

    // A keyed check of a deadline (a future bound) is refused, with what
    // it does check.
    let m = parse_metric("G(F[0:1s] a)").unwrap();
    let table = MonitorTable::from_ltl(&m.formula.to_spot()).unwrap();
    let timed = TimedPropositions {
        components: m.timed,
        inputs: vec![("a".into(), Expr::parse("a").unwrap())],
    };
    let p = Property::new("p", table, vec![Expr::Const(false)]).with_timed(timed);
    let mut keyed = KeyedChecker::new(vec![p], Options::default(), &["k"], KeyedOptions::default());
    keyed.set_time(Some(TimeSpec::parse("ts:ns").unwrap()), TimeOrder::Strict);
    let log = "ts,k,a\n0,x,1\n";
    let e = keyed
        .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
        .unwrap_err();
    assert!(e.message.contains("not supported with keys"), "{e}");
    assert!(e.message.contains("past time bounds"), "{e}");
}

/// A keyed checker of `G(text | d)` (see [`checker_of`]) by the field
/// `k`, rows without a key broadcast, a key closed by a row where `e`
/// holds.
fn keyed_checker_of(text: &str) -> Result<KeyedChecker, String> {
    let options = KeyedOptions {
        unkeyed: Unkeyed::Broadcast,
        end_key: Some(Expr::parse("e").unwrap()),
        ..KeyedOptions::default()
    };
    let mut keyed = KeyedChecker::new(
        vec![property_of(text)?],
        Options::default(),
        &["k"],
        options,
    );
    keyed.set_time(Some(TimeSpec::parse("ts:ns").unwrap()), TimeOrder::Strict);
    Ok(keyed)
}

/// An event of a keyed log: its key (`None`: an empty key field, a row
/// broadcast to every key) and whether it closes its key.
#[derive(Clone, Copy, Debug)]
struct KeyedRow {
    key: Option<u8>,
    ends: bool,
}

/// The trace as a keyed CSV log.
fn keyed_csv(letters: &[[bool; 3]], times: &[i64], rows: &[KeyedRow]) -> String {
    let mut s = String::from("ts,k,a,b,c,d,e\n");
    for ((l, t), r) in letters.iter().zip(times).zip(rows) {
        let k = r.key.map_or(String::new(), |k| format!("key{k}"));
        s.push_str(&format!(
            "{t},{k},{},{},{},0,{}\n",
            u8::from(l[0]),
            u8::from(l[1]),
            u8::from(l[2]),
            u8::from(r.ends)
        ));
    }
    s
}

/// The slices of a keyed log, by brute force: for each instance of each
/// key (from its first row, or its first row after a row that closed it,
/// to the row that closes it or the end), the events it reads: every row
/// without a key before its first row, then its rows and the rows without
/// a key, in order.
fn slices(rows: &[KeyedRow]) -> Vec<(u8, Vec<usize>)> {
    let mut out = Vec::new();
    for key in 0..3u8 {
        let mut current: Option<Vec<usize>> = None;
        for (i, r) in rows.iter().enumerate() {
            match r.key {
                None => {
                    if let Some(c) = &mut current {
                        c.push(i);
                    }
                }
                Some(k) if k == key => {
                    let c = current
                        .get_or_insert_with(|| (0..i).filter(|&j| rows[j].key.is_none()).collect());
                    c.push(i);
                    if r.ends {
                        out.push((key, current.take().unwrap()));
                    }
                }
                Some(_) => {}
            }
        }
        out.extend(current.map(|c| (key, c)));
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Checked by key (`--by k`, rows without a key broadcast, `--end-key
    /// e`), each key instance's first violation is where the brute force
    /// first says `φ` fails on the instance's slice alone (at the times
    /// of its events), in one pass and in chunks on two threads.
    #[test]
    fn each_key_is_checked_on_its_slice_alone(
        f in formula(),
        (letters, times) in timed_word(),
        row_seed in prop::collection::vec((0u8..4, 0u8..8), 60),
    ) {
        let text = f.text();
        // Keys 0 to 2, and 3 for no key (one in four); one row in eight
        // closes its key.
        let rows: Vec<KeyedRow> = row_seed
            .iter()
            .take(letters.len())
            .map(|&(k, e)| KeyedRow { key: (k < 3).then_some(k), ends: e == 0 })
            .collect();
        let mut expected = Vec::new();
        for (key, slice) in slices(&rows) {
            let sl: Vec<[bool; 3]> = slice.iter().map(|&i| letters[i]).collect();
            let st: Vec<i64> = slice.iter().map(|&i| times[i]).collect();
            if let Some(j) = f.values(&sl, &st).iter().position(|v| !v) {
                expected.push((format!("key{key}"), slice[j] as u64));
            }
        }
        expected.sort();
        let log = keyed_csv(&letters, &times, &rows);
        let mut keyed = keyed_checker_of(&text).map_err(TestCaseError::fail)?;
        let found = |report: KeyedReport| {
            let mut v: Vec<(String, u64)> = report.violations.iter().map(|v| (v.key[0].clone(), v.first.index)).collect();
            v.sort();
            v
        };
        let report = keyed
            .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(found(report), expected.clone(), "G({}) by k over\n{}", text, log);
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for chunking in [Chunking::Lines(1), Chunking::Lines(4)] {
            let report = pool
                .install(|| keyed.run_lines(LineFormat::Csv, "log.csv", log.as_bytes(), chunking))
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(found(report), expected.clone(), "chunks {:?}: G({}) by k over\n{}", chunking, text, log);
        }
    }
}
