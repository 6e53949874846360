//! Time bounds converted to counts of clock cycles (issue 32, item 5:
//! `mongen compile --clock-period`) against the timed check they come
//! from.
//!
//! A random formula mixing the metric operators (`F`, `G`, `U`, `O`, `H`,
//! `S` with intervals that are multiples of the period, past ones
//! sometimes unbounded) with Boolean operators and `Y`, and a random
//! trace with one event per cycle, at the times `t0 + k · period`:
//!
//! * the timed side is a [`Checker`] with times over the formula as
//!   [`parse_metric`] reads it, `G(φ | d)` (`d` always false), which
//!   reports the first event where `φ` fails (the obligation's letter);
//! * the counted side is [`parse_cycles`]'s formula `ψ`: for each event
//!   `i`, the exact monitor of `X[i] ψ` reads the whole trace and is
//!   violated iff `ψ` fails at `i` whatever follows.
//!
//! Where both are decided, at the events whose windows (every nested
//! deadline, and the event past it the timed check waits for) end inside
//! the trace, the first event where `ψ` fails is the one the timed check
//! reports; where no such event fails, the timed check reports none
//! before the undecided tail.

use monitor_core::formula::metric::{parse_cycles, ClockPeriod};
use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::reader::CsvReader;
use monitor_core::trace::time::{TimeOrder, TimeSpec};
use monitor_core::{Monitor, Verdict};
use proptest::prelude::*;

mod common;

/// An interval in cycles, `[lo:hi]`, `hi` `None`: unbounded (past only).
#[derive(Clone, Copy, Debug)]
struct Cycles {
    lo: u32,
    hi: Option<u32>,
}

/// A formula, the test's own syntax tree.
#[derive(Clone, Debug)]
enum M {
    Ap(usize),
    Not(Box<M>),
    And(Box<M>, Box<M>),
    Or(Box<M>, Box<M>),
    Y(Box<M>),
    O(Cycles, Box<M>),
    H(Cycles, Box<M>),
    S(Cycles, Box<M>, Box<M>),
    F(Cycles, Box<M>),
    G(Cycles, Box<M>),
    U(Cycles, Box<M>, Box<M>),
}

const NAMES: [&str; 3] = ["a", "b", "c"];

/// A clock period: its text, its length in nanoseconds, and the units a
/// bound may be written in (name, nanoseconds), each dividing the bounds
/// written in it.
struct Period {
    text: &'static str,
    ns: i64,
    units: &'static [(&'static str, i64)],
}

const PERIODS: [Period; 4] = [
    Period {
        text: "1ns",
        ns: 1,
        units: &[("ns", 1)],
    },
    Period {
        text: "3ns",
        ns: 3,
        units: &[("ns", 1)],
    },
    Period {
        text: "10ns",
        ns: 10,
        units: &[("ns", 1), ("us", 1000)],
    },
    Period {
        text: "0.5us",
        ns: 500,
        units: &[("ns", 1), ("us", 1000), ("ms", 1_000_000)],
    },
];

/// `cycles` cycles of `period` as a bound in unit `unit` (a decimal
/// where the unit is larger).
fn bound(cycles: u32, period: &Period, unit: usize) -> String {
    let ns = i64::from(cycles) * period.ns;
    let (name, scale) = period.units[unit % period.units.len()];
    if ns == 0 {
        // With a unit: `[0:0]` alone would be a count of events.
        return format!("0{name}");
    }
    let whole = ns / scale;
    let rest = ns % scale;
    if rest == 0 {
        return format!("{whole}{name}");
    }
    let digits = scale.to_string().len() - 1;
    let fraction = format!("{rest:0digits$}");
    format!("{whole}.{}{name}", fraction.trim_end_matches('0'))
}

impl M {
    /// Fully parenthesized text, the bounds written in `period`'s units
    /// (`unit` chooses which, varied along the formula).
    fn text(&self, period: &Period, unit: &mut usize) -> String {
        let mut interval = |c: &Cycles| {
            *unit += 1;
            let lo = bound(c.lo, period, *unit);
            *unit += 1;
            match c.hi {
                Some(hi) => format!("[{lo}:{}]", bound(hi, period, *unit)),
                None => format!("[{lo}:]"),
            }
        };
        match self {
            M::Ap(i) => NAMES[*i].to_string(),
            M::Not(f) => format!("(!{})", f.text(period, unit)),
            M::And(f, g) => format!("({} & {})", f.text(period, unit), g.text(period, unit)),
            M::Or(f, g) => format!("({} | {})", f.text(period, unit), g.text(period, unit)),
            M::Y(f) => format!("(Y {})", f.text(period, unit)),
            M::O(c, f) => format!("(O{} {})", interval(c), f.text(period, unit)),
            M::H(c, f) => format!("(H{} {})", interval(c), f.text(period, unit)),
            M::F(c, f) => format!("(F{} {})", interval(c), f.text(period, unit)),
            M::G(c, f) => format!("(G{} {})", interval(c), f.text(period, unit)),
            M::S(c, f, g) => {
                let i = interval(c);
                format!("({} S{i} {})", f.text(period, unit), g.text(period, unit))
            }
            M::U(c, f, g) => {
                let i = interval(c);
                format!("({} U{i} {})", f.text(period, unit), g.text(period, unit))
            }
        }
    }

    /// How many events after an event the timed check may read before
    /// its letter is complete: every nested deadline, and one event past
    /// each (an upper bound).
    fn horizon(&self) -> usize {
        match self {
            M::Ap(_) => 0,
            M::Not(f) | M::Y(f) | M::O(_, f) | M::H(_, f) => f.horizon(),
            M::And(f, g) | M::Or(f, g) | M::S(_, f, g) => f.horizon().max(g.horizon()),
            M::F(c, f) | M::G(c, f) => {
                c.hi.expect("future ones are bounded") as usize + 1 + f.horizon()
            }
            M::U(c, f, g) => {
                c.hi.expect("future ones are bounded") as usize + 1 + f.horizon().max(g.horizon())
            }
        }
    }
}

fn cycles(past: bool) -> impl Strategy<Value = Cycles> {
    let unbounded = if past { 0.2 } else { 0.0 };
    (0u32..4, 0u32..4, proptest::bool::weighted(unbounded)).prop_map(|(a, b, open)| Cycles {
        lo: a.min(b),
        hi: (!open).then_some(a.max(b)),
    })
}

fn formula() -> impl Strategy<Value = M> {
    let leaf = (0usize..3).prop_map(M::Ap);
    leaf.prop_recursive(4, 14, 2, |inner| {
        let b = |f: M| Box::new(f);
        prop_oneof![
            1 => inner.clone().prop_map(move |f| M::Not(b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::And(b(f), b(g))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::Or(b(f), b(g))),
            1 => inner.clone().prop_map(move |f| M::Y(b(f))),
            1 => (cycles(true), inner.clone()).prop_map(move |(c, f)| M::O(c, b(f))),
            1 => (cycles(true), inner.clone()).prop_map(move |(c, f)| M::H(c, b(f))),
            1 => (cycles(true), inner.clone(), inner.clone())
                .prop_map(move |(c, f, g)| M::S(c, b(f), b(g))),
            2 => (cycles(false), inner.clone()).prop_map(move |(c, f)| M::F(c, b(f))),
            2 => (cycles(false), inner.clone()).prop_map(move |(c, f)| M::G(c, b(f))),
            2 => (cycles(false), inner.clone(), inner.clone())
                .prop_map(move |(c, f, g)| M::U(c, b(f), b(g))),
        ]
    })
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

/// A checker of `G(text | d)` with times from `ts` in nanoseconds (`d`,
/// always 0, keeps the exact monitor from deciding before `text` fails).
fn timed_checker(text: &str) -> Result<Checker, String> {
    let p = common::timed_property(&format!("G({text} | d)"))?;
    let p = Property {
        name: text.to_string(),
        ..p
    };
    let mut checker = Checker::new(vec![p], Options::default());
    checker.set_time(Some(TimeSpec::parse("ts:ns").unwrap()), TimeOrder::Strict);
    Ok(checker)
}

/// Whether `ψ` fails at event `at` of `letters` whatever follows: the
/// exact monitor of `X[at] ψ` after the whole trace.
fn fails_at(psi: &str, at: usize, letters: &[[bool; 3]]) -> Result<bool, String> {
    let shifted = format!("X[{at}] ({psi})");
    let mut m = Monitor::from_ltl(&shifted).map_err(|e| format!("{shifted}: {e}"))?;
    let order: Vec<Option<usize>> = (0..m.table().props as usize)
        .map(|i| NAMES.iter().position(|n| *n == m.table().proposition(i)))
        .collect();
    for l in letters {
        let letter = order
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_some_and(|p| l[p]))
            .fold(0u64, |w, (bit, _)| w | 1 << bit);
        m.step(letter);
    }
    Ok(m.verdict() == Verdict::Violated)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// The counted formula's monitor fails first at the event where the
    /// timed check reports the first violation, over a clocked trace.
    #[test]
    fn counted_bounds_agree_with_the_timed_check(
        f in formula(),
        period in 0usize..PERIODS.len(),
        unit in 0usize..3,
        letters in prop::collection::vec(any::<[bool; 3]>(), 1..24),
        start in 0i64..1000,
    ) {
        let period = &PERIODS[period];
        let text = f.text(period, &mut unit.clone());
        let n = letters.len();
        let times: Vec<i64> = (0..n as i64).map(|k| start * period.ns + k * period.ns).collect();
        let clock = ClockPeriod::parse(period.text).unwrap();
        let psi = parse_cycles(&text, &clock)
            .map_err(|e| TestCaseError::fail(format!("{text} at {}: {e}", period.text)))?
            .to_spot();
        // A past operator over a future time bound (`Y F[0:10ns] a`) reads
        // a proposition on the timed side; counted, it is the past of a
        // future formula, which the translator refuses (saying so).
        if let Err(e) = Monitor::from_ltl(&psi) {
            let message = e.to_string();
            if !message.contains("past operators must apply to past-time") {
                return Err(TestCaseError::fail(format!("{psi}: {message}")));
            }
            return Err(TestCaseError::reject("a past operator over a future one"));
        }
        // The events whose values both sides have decided.
        let decided = n.saturating_sub(f.horizon() + 1);
        let mut first = None;
        for at in 0..decided {
            if fails_at(&psi, at, &letters).map_err(TestCaseError::fail)? {
                first = Some(at);
                break;
            }
        }
        let mut checker = timed_checker(&text).map_err(TestCaseError::fail)?;
        let log = csv(&letters, &times);
        let reports = checker
            .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let timed = reports[0].violations.first().map(|v| {
            v.recent.last().map(|(p, _)| p.index as usize).expect("the obligation's event")
        });
        match first {
            Some(at) => prop_assert_eq!(
                timed, Some(at),
                "{} at {} is `{}`, over\n{}", text, period.text, psi, log
            ),
            None => prop_assert!(
                timed.is_none_or(|i| i >= decided),
                "{} at {} is `{}`: the timed check fails at {:?}, the counted one not before {}, over\n{}",
                text, period.text, psi, timed, decided, log
            ),
        }
    }
}

/// The shapes of the brief, by hand, at 10 ns: `F[0:50ns]` is five
/// cycles, the bounds of `U` and `S` are closed at both ends, and `H`
/// checks nothing before the first cycle.
#[test]
fn the_brief_by_hand() {
    let period = ClockPeriod::parse("10ns").unwrap();
    let at = |text: &str, letters: &[[bool; 3]], i: usize| {
        let psi = parse_cycles(text, &period).unwrap().to_spot();
        !fails_at(&psi, i, letters).unwrap()
    };
    let a = [true, false, false];
    let b = [false, true, false];
    let ab = [true, true, false];
    let none = [false; 3];
    // `b` five cycles after: within `F[0:50ns]`, not `F[0:40ns]`.
    let trace = [a, none, none, none, none, b, none];
    assert!(at("F[0:50ns] b", &trace, 0));
    assert!(!at("F[0:40ns] b", &trace, 0));
    assert!(at("F[50ns:50ns] b", &trace, 0));
    // `a U[20ns:30ns] b`: `b` at 2 or 3 cycles, `a` until then.
    assert!(at("a U[20ns:30ns] b", &[a, a, b, none], 0));
    assert!(at("a U[20ns:30ns] b", &[a, a, a, b], 0));
    assert!(!at("a U[20ns:30ns] b", &[a, b, none, none], 0));
    assert!(!at("a U[20ns:30ns] b", &[a, none, b, none], 0));
    assert!(!at("a U[20ns:30ns] b", &[a, a, a, a, b], 0));
    // `a S[10ns:20ns] b`: `b` one or two cycles ago, `a` since (not at it).
    assert!(at("a S[10ns:20ns] b", &[b, a, a], 2));
    assert!(at("a S[10ns:20ns] b", &[none, b, a], 2));
    assert!(!at("a S[10ns:20ns] b", &[b, none, a], 2));
    assert!(!at("a S[10ns:20ns] b", &[b, a, a, ab], 3));
    assert!(!at("a S[10ns:20ns] b", &[none, none, ab], 2));
    // `H[10ns:]` at the first cycle: nothing before it.
    assert!(at("H[10ns:] a", &[none], 0));
    assert!(!at("H[10ns:] a", &[none, a], 1));
    assert!(at("O[20ns:] b", &[b, none, none, none], 3));
    assert!(!at("O[20ns:] b", &[none, none, b, none], 3));
}
