//! Keyed checking with lazy monitors (`mongen check --by --lazy`): one
//! lazy automaton per property, shared by every key, each key holding its
//! state. Its reports are those of the eager monitors, on random formulas
//! and random interleaved logs of many keys, with caches so small that
//! they are emptied (and the keys' states renumbered) again and again.

mod common;

use common::interleaved_log;
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::formula::{parse, Formula, Op};
use monitor_core::lazy::LazyMonitor;
use monitor_core::trace::check::{Options, Property};
use monitor_core::trace::chunked::{Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport, Unkeyed};
use monitor_core::trace::reader::CsvReader;
use monitor_core::translate::{BuildErrorKind, Builder, Config, Prefixes, Verdicts};
use monitor_core::MonitorTable;

/// Random formulas leaning to the syntactic safety fragment (the lazy
/// monitors' own).
fn safety_leaning(rng: &mut SplitMix64, size: usize) -> Formula {
    RandomLtl::new(&["a", "b", "c"], size)
        .with_past()
        .weight(Op::F, 0)
        .weight(Op::U, 0)
        .weight(Op::M, 0)
        .weight(Op::Equiv, 0)
        .weight(Op::Xor, 0)
        .weight(Op::G, 2)
        .weight(Op::X, 2)
        .seed(rng.next_u64())
        .next_formula()
}

/// The eager and the lazy monitor of `f` under `cfg`; `None` if it has no
/// lazy monitor.
fn monitors(f: &Formula, cfg: &Config) -> Option<(MonitorTable, LazyMonitor)> {
    let lazy = match LazyMonitor::new(f, cfg) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), BuildErrorKind::NotLazy { .. }) => return None,
        Err(e) => panic!("{f}: {e}"),
    };
    let mut b = Builder::new();
    b.configure(cfg.clone());
    let eager = MonitorTable::from_dfa(b.build_from_formula(f).unwrap().dfa());
    Some((eager, lazy))
}

/// The propositions of a monitor as expressions over the log's fields.
fn bindings(names: &[String]) -> Vec<Expr> {
    names.iter().map(|n| Expr::parse(n).unwrap()).collect()
}

/// The report without the explanations' texts (the lazy monitor explains
/// in its own words: what was required, not a word to the violating
/// state).
fn without_texts(mut r: KeyedReport) -> KeyedReport {
    for v in &mut r.violations {
        for e in &mut v.reports {
            e.explanation.clear();
            e.after.clear();
            e.letters.clear();
        }
    }
    r
}

/// Checks `text` in one pass, or (half the logs) in chunks of a few rows
/// on three threads, which gives the same report.
fn run(checker: &mut KeyedChecker, text: &str) -> KeyedReport {
    if text.len() % 2 == 0 {
        return checker
            .run(&mut CsvReader::new("t.csv", text.as_bytes()).unwrap())
            .unwrap();
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
    let chunking = Chunking::Lines(1 + text.len() % 13);
    pool.install(|| checker.run_lines(LineFormat::Csv, "t.csv", text.as_bytes(), chunking))
        .unwrap()
}

/// The oracle: keyed checking with lazy monitors whose caches are
/// emptied as often as they may be (a cache of 0 bytes: once per as many
/// new transitions as live keys) reports what it reports with
/// the eager monitors, but for the explanations' texts, which are those
/// of lazy monitors with a roomy cache (no renumbering); explained later
/// (a second reading of the violating keys), the same again.
#[test]
fn keyed_lazy_reports_are_the_eager_ones() {
    let mut rng = SplitMix64::new(4);
    let mut compared = [0usize; 4];
    let (mut violations, mut clears, mut dropped, mut satisfied) = (0, 0u64, 0, 0);
    for round in 0..400u64 {
        let (prefixes, verdicts) = [
            (Prefixes::Exact, Verdicts::Two),
            (Prefixes::Informative, Verdicts::Two),
            (Prefixes::Exact, Verdicts::Three),
            (Prefixes::Informative, Verdicts::Three),
        ][(round % 4) as usize];
        let cfg = Config::new().prefixes(prefixes).verdicts(verdicts);
        let mut formulas = Vec::new();
        let mut tries = 0;
        while formulas.len() < 1 + (round % 3) as usize && tries < 50 {
            tries += 1;
            let size = 3 + (rng.next_u64() % 10) as usize;
            let f = safety_leaning(&mut rng, size);
            if let Some(m) = monitors(&f, &cfg) {
                formulas.push((f.to_spot(), m));
            }
        }
        if formulas.is_empty() {
            continue;
        }
        compared[(round % 4) as usize] += 1;
        let keys = 1 + rng.next_u64() % 60;
        let rows = (rng.next_u64() % 400) as usize;
        let unkeyed = [Unkeyed::Skip, Unkeyed::Broadcast][(round / 4 % 2) as usize];
        let text = interleaved_log(&mut rng, rows, keys, true);
        let options = Options {
            all: round % 2 == 1,
            max_reports: 10_000,
            context: (round % 4) as usize,
            ..Options::default()
        };
        let end_key = (round % 5 == 0).then(|| Expr::parse("end").unwrap());
        // A cache of 0 bytes is emptied as often as it may be; one of a few
        // KiB, every few transitions.
        let capacity = [0, 4 << 10, 64 << 10][(round % 3) as usize];
        let checker = |lazy: Option<usize>, explain_later: bool| {
            let props = formulas
                .iter()
                .map(|(name, (eager, m))| match lazy {
                    None => {
                        let t = eager.table();
                        let names: Vec<String> = (0..t.props as usize)
                            .map(|i| t.proposition(i).to_string())
                            .collect();
                        Property::new(name, eager.clone(), bindings(&names))
                    }
                    Some(c) => Property::lazy(
                        name,
                        m.clone().with_cache_capacity(c),
                        bindings(m.propositions()),
                    ),
                })
                .collect();
            KeyedChecker::new(
                props,
                options,
                &["k"],
                KeyedOptions {
                    unkeyed,
                    end_key: end_key.clone(),
                    explain_later,
                    ..KeyedOptions::default()
                },
            )
        };
        let names: Vec<&str> = formulas.iter().map(|(n, _)| n.as_str()).collect();
        let ctx = format!("{names:?} {cfg:?} {options:?} cache {capacity} on\n{text}");
        let eager = run(&mut checker(None, false), &text);
        let mut tight = checker(Some(capacity), false);
        let lazy = run(&mut tight, &text);
        let (l, e) = (without_texts(lazy.clone()), without_texts(eager.clone()));
        assert_eq!(
            (l.keys, l.live, l.events, l.unkeyed, &l.properties),
            (e.keys, e.live, e.events, e.unkeyed, &e.properties),
            "{ctx}"
        );
        assert_eq!(l.violations, e.violations, "{ctx}");
        assert!(tight.inexact_at().iter().all(Option::is_none), "{ctx}");
        let stats: Vec<_> = tight.lazy_stats().into_iter().map(Option::unwrap).collect();
        clears += stats.iter().map(|s| s.cache_clears).sum::<u64>();
        // Explanations: those of a cache that is never emptied.
        let roomy = run(&mut checker(Some(1 << 30), false), &text);
        assert_eq!(lazy, roomy, "{ctx}");
        for v in lazy.violations.iter().flat_map(|v| &v.reports) {
            assert!(
                v.explanation.contains("violated"),
                "{}: {ctx}",
                v.explanation
            );
        }
        // Explained by a second reading (also where two instances of a
        // key, closed and seen again, violate first at the same row
        // broadcast).
        let mut later = checker(Some(capacity), true);
        let mut report = run(&mut later, &text);
        later
            .explain(
                &mut CsvReader::new("t.csv", text.as_bytes()).unwrap(),
                &mut report,
            )
            .unwrap();
        assert_eq!(report, lazy, "explained later: {ctx}");
        violations += lazy.violations.len();
        dropped += usize::from(lazy.live < eager.keys);
        satisfied += lazy
            .properties
            .iter()
            .map(|p| p.keys_satisfied)
            .sum::<u64>();
    }
    assert!(
        compared.iter().all(|&n| n > 60)
            && violations > 2000
            && clears > 1_000
            && dropped > 100
            && satisfied > 100,
        "{compared:?} compared, {violations} violations, {clears} cache clears, \
         {dropped} with keys dropped, {satisfied} satisfied"
    );
}

/// A key's state survives the emptying of the cache: with a cache emptied
/// as often as it may be, two interleaved keys of a counter-like
/// property keep their places.
#[test]
fn keys_keep_their_states_across_cache_clears() {
    let m = LazyMonitor::from_ltl("G(a -> X X b)")
        .unwrap()
        .with_cache_capacity(0);
    let p = Property::lazy("p", m, bindings(&["a".into(), "b".into()]));
    let mut checker =
        KeyedChecker::new(vec![p], Options::default(), &["k"], KeyedOptions::default());
    // x: a, then b two events later (held); y: a, then no b two events later.
    let log = "k,a,b\nx,1,0\ny,1,0\nx,0,0\ny,0,0\nx,0,1\ny,0,0\n";
    let report = run(&mut checker, log);
    let v: Vec<_> = report
        .violations
        .iter()
        .map(|v| (v.key[0].as_str(), v.first.line))
        .collect();
    assert_eq!(v, [("y", Some(7))]);
    assert!(checker.lazy_stats()[0].unwrap().cache_clears >= 3);
}

/// Round `round`'s formula for a monitor of one state: every other
/// round, after `c`, `a` must hold for ever, but each `a` forbids `a` k
/// letters later: `c` is a bad prefix, which a search of one state cannot
/// see (as random formulas mostly can); else a random formula.
fn hard_for_one_state(rng: &mut SplitMix64, round: u64) -> Formula {
    if round % 2 == 0 {
        let k = 1 + round / 2 % 6;
        let x = "X ".repeat(k as usize);
        parse(&format!("G(c -> ((a W b) & G !b & G(a -> {x}!a)))")).unwrap()
    } else {
        safety_leaning(rng, 4 + (round % 9) as usize)
    }
}

/// With a state limit too small for exact verdicts, the shared monitor
/// turns informative (for every key, from the event where a search gave
/// up, which the checker tells): each key's violations are then reported
/// at the latest at their informative bad prefix, never before the exact
/// monitor reports them, and never wrongly.
#[test]
fn inexact_keyed_lazy_verdicts_are_late_never_wrong() {
    let mut rng = SplitMix64::new(9);
    let (mut inexact, mut later) = (0, 0);
    for round in 0..200u64 {
        let exact = Config::new();
        let tight = Config::new().max_states(Some(1));
        let f = hard_for_one_state(&mut rng, round);
        let (Some((eager, _)), Ok(lazy)) = (monitors(&f, &exact), LazyMonitor::new(&f, &tight))
        else {
            continue;
        };
        let text = interleaved_log(&mut rng, 300, 1 + round % 20, false);
        let t = eager.table();
        let names: Vec<String> = (0..t.props as usize)
            .map(|i| t.proposition(i).to_string())
            .collect();
        let mut e = KeyedChecker::new(
            vec![Property::new("p", eager.clone(), bindings(&names))],
            Options::default(),
            &["k"],
            KeyedOptions::default(),
        );
        let names = lazy.propositions().to_vec();
        let mut z = KeyedChecker::new(
            vec![Property::lazy(
                "p",
                lazy.with_cache_capacity(2 << 10),
                bindings(&names),
            )],
            Options::default(),
            &["k"],
            KeyedOptions::default(),
        );
        let (want, got) = (run(&mut e, &text), run(&mut z, &text));
        let ctx = format!("{f} on\n{text}");
        for v in &got.violations {
            let w = want
                .violations
                .iter()
                .find(|w| w.key == v.key)
                .unwrap_or_else(|| panic!("{:?} wrongly violated: {ctx}", v.key));
            assert!(
                w.first.index <= v.first.index,
                "{:?} too soon: {ctx}",
                v.key
            );
            later += usize::from(w.first.index < v.first.index);
        }
        match z.inexact_at()[0].clone() {
            Some(at) => {
                inexact += 1;
                // Exact until then.
                for w in want.violations.iter().filter(|w| w.first.index < at.index) {
                    assert!(
                        got.violations
                            .iter()
                            .any(|v| v.key == w.key && v.first == w.first),
                        "{:?}: {ctx}",
                        w.key
                    );
                }
            }
            None => assert_eq!(got, want_with_texts(&got, &want), "{ctx}"),
        }
    }
    assert!(
        inexact > 20 && later > 5,
        "{inexact} inexact, {later} reported later"
    );
}

/// `want` (eager) with the explanations' texts of `got` (lazy), to compare
/// the rest.
fn want_with_texts(got: &KeyedReport, want: &KeyedReport) -> KeyedReport {
    let mut w = without_texts(want.clone());
    let g = got.clone();
    if g.violations.len() == w.violations.len() {
        for (wv, gv) in w.violations.iter_mut().zip(&g.violations) {
            for (we, ge) in wv.reports.iter_mut().zip(&gv.reports) {
                we.explanation = ge.explanation.clone();
                we.letters = ge.letters.clone();
            }
        }
    }
    w
}

/// An inexact lazy monitor (its state budget too small for exact
/// verdicts, so that it turns informative midway) explained later: the
/// second reading of the violating keys gives the report of one reading
/// with kept events, verdicts, positions and explanations alike.
#[test]
fn inexact_keyed_lazy_explained_later_is_explained_as_in_one_reading() {
    let mut rng = SplitMix64::new(12);
    let (mut inexact, mut explained, mut exact, mut compared) = (0, [0; 2], 0, 0);
    for round in 0..200u64 {
        let tight = Config::new().max_states(Some(1));
        let f = hard_for_one_state(&mut rng, round);
        let Ok(lazy) = LazyMonitor::new(&f, &tight) else {
            continue;
        };
        let text = interleaved_log(&mut rng, 300, 1 + round % 20, round % 3 == 0);
        let options = Options {
            all: round % 2 == 1,
            max_reports: [1, 3, 10_000][(round % 3) as usize],
            context: (round % 4) as usize,
            ..Options::default()
        };
        let keyed = KeyedOptions {
            unkeyed: [Unkeyed::Skip, Unkeyed::Broadcast][(round / 2 % 2) as usize],
            end_key: (round % 5 == 0).then(|| Expr::parse("end").unwrap()),
            ..KeyedOptions::default()
        };
        let checker = |explain_later: bool| {
            let names = lazy.propositions().to_vec();
            let p = Property::lazy(
                "p",
                lazy.clone().with_cache_capacity(2 << 10),
                bindings(&names),
            );
            KeyedChecker::new(
                vec![p],
                options,
                &["k"],
                KeyedOptions {
                    explain_later,
                    ..keyed.clone()
                },
            )
        };
        let ctx = format!("{f} {options:?} {keyed:?} on\n{text}");
        let mut one = checker(false);
        let want = run(&mut one, &text);
        let mut later = checker(true);
        let mut got = run(&mut later, &text);
        assert_eq!(later.inexact_at(), one.inexact_at(), "{ctx}");
        later
            .explain(
                &mut CsvReader::new("t.csv", text.as_bytes()).unwrap(),
                &mut got,
            )
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert_eq!(got, want, "explained later: {ctx}");
        compared += 1;
        let explained_keys = want.violations.iter().filter(|v| !v.reports.is_empty());
        match one.inexact_at()[0].clone() {
            Some(at) => {
                inexact += 1;
                // Violations explained from before the monitor turned
                // informative and from after.
                for v in explained_keys {
                    explained[usize::from(v.first.index >= at.index)] += 1;
                }
            }
            None => exact += explained_keys.count(),
        }
    }
    eprintln!(
        "{compared} compared, {inexact} inexact, {explained:?} keys explained before and after, \
         {exact} exact"
    );
    assert!(
        compared > 150 && inexact > 20 && explained.iter().all(|&n| n > 30) && exact > 300,
        "{compared} compared, {inexact} inexact, {explained:?} keys explained before and \
         after the monitor turned informative, {exact} with exact monitors"
    );
}
