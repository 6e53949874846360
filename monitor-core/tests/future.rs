//! Future metric operators (issue 32, "obligations that expire") against a
//! brute-force evaluator written from their definitions, over finite
//! timed words:
//!
//! * random formulas mixing future (`F[a:b]`, `G[a:b]`, `U[a:b]`) and past
//!   (`O[a:b]`, `H[a:b]`, `S[a:b]`, `Y`, `O`, `S`) operators, nested either
//!   way, and random timed traces (bursts of equal times, gaps longer than
//!   every bound), printed as text and read back by [`parse_metric`]: each
//!   component's value at every event is the brute force's, and each
//!   letter is handed out by [`Delayed`] exactly after the event the
//!   resolution rule names (never earlier: it would not be certain; never
//!   later), with and without an end time;
//! * `G(φ | d)` checked by a [`Checker`] over the trace as a CSV log (`d`
//!   always false): the first violation is reported at the event that
//!   completed the first letter where `φ` fails (its obligation's line
//!   named in the explanation), at the end of the input if the end time
//!   decides it, or, for letters still waiting at the end, only if every
//!   value of their waiting propositions violates (a brute force over
//!   every value), with and without an end time.
//!
//! The brute force knows nothing of the parser or of `Delayed`'s queues:
//! it computes every subformula's value over the whole trace from the
//! definitions, and, for each metric subformula and event, the first
//! number of events read after which the rule of the module
//! documentation of `trace::future` decides it, by trying every prefix.

use monitor_core::formula::metric::parse_metric;
use monitor_core::trace::check::{Checker, Options};
use monitor_core::trace::future::Delayed;
use monitor_core::trace::reader::CsvReader;
use monitor_core::trace::time::{TimeOrder, TimeSpec};
use proptest::prelude::*;

mod common;

/// A time interval in nanoseconds, `[lo:hi]`.
#[derive(Clone, Copy, Debug)]
struct Interval {
    lo: i64,
    hi: i64,
}

impl Interval {
    fn contains(&self, d: i64) -> bool {
        self.lo <= d && d <= self.hi
    }

    fn text(&self) -> String {
        format!("[{}ns:{}ns]", self.lo, self.hi)
    }
}

/// A formula, the test's own syntax tree.
#[derive(Clone, Debug)]
enum M {
    Ap(usize),
    Not(Box<M>),
    And(Box<M>, Box<M>),
    Or(Box<M>, Box<M>),
    Y(Box<M>),
    O(Box<M>),
    S(Box<M>, Box<M>),
    TimedO(Interval, Box<M>),
    TimedH(Interval, Box<M>),
    TimedS(Interval, Box<M>, Box<M>),
    TimedF(Interval, Box<M>),
    TimedG(Interval, Box<M>),
    TimedU(Interval, Box<M>, Box<M>),
}

const NAMES: [&str; 3] = ["a", "b", "c"];

/// "Never" as a number of events read.
const NEVER: usize = usize::MAX;

/// What the brute force finds for one formula: its value at every event
/// (the metric ones also list, in `analyse`'s `out`, the first number of
/// events read after which each value is decided: `n + 1` of `n` events
/// at the end, with the end time; `NEVER`).
struct Found {
    values: Vec<bool>,
}

impl M {
    fn is_metric(&self) -> bool {
        matches!(
            self,
            M::TimedO(..)
                | M::TimedH(..)
                | M::TimedS(..)
                | M::TimedF(..)
                | M::TimedG(..)
                | M::TimedU(..)
        )
    }

    /// The text without the outer parentheses of a metric operator: the
    /// name `parse_metric` gives its component.
    fn name(&self) -> String {
        match self {
            M::TimedO(i, f) => format!("O{} {}", i.text(), f.text()),
            M::TimedH(i, f) => format!("H{} {}", i.text(), f.text()),
            M::TimedS(i, f, g) => format!("{} S{} {}", f.text(), i.text(), g.text()),
            M::TimedF(i, f) => format!("F{} {}", i.text(), f.text()),
            M::TimedG(i, f) => format!("G{} {}", i.text(), f.text()),
            M::TimedU(i, f, g) => format!("{} U{} {}", f.text(), i.text(), g.text()),
            _ => self.text(),
        }
    }

    /// Fully parenthesized text in the LTL syntax.
    fn text(&self) -> String {
        match self {
            M::Ap(i) => NAMES[*i].to_string(),
            M::Not(f) => format!("(!{})", f.text()),
            M::And(f, g) => format!("({} & {})", f.text(), g.text()),
            M::Or(f, g) => format!("({} | {})", f.text(), g.text()),
            M::Y(f) => format!("(Y {})", f.text()),
            M::O(f) => format!("(O {})", f.text()),
            M::S(f, g) => format!("({} S {})", f.text(), g.text()),
            _ => format!("({})", self.name()),
        }
    }

    fn children(&self) -> Vec<&M> {
        match self {
            M::Ap(_) => vec![],
            M::Not(f) | M::Y(f) | M::O(f) | M::TimedO(_, f) | M::TimedH(_, f) => vec![f],
            M::TimedF(_, f) | M::TimedG(_, f) => vec![f],
            M::And(f, g) | M::Or(f, g) | M::S(f, g) => vec![f, g],
            M::TimedS(_, f, g) | M::TimedU(_, f, g) => vec![f, g],
        }
    }

    /// The values of a formula over the letters, its metric subformulas
    /// read from `metric` (by name) rather than computed.
    fn top_values(&self, letters: &[[bool; 3]], metric: &dyn Fn(&str) -> Vec<bool>) -> Vec<bool> {
        if self.is_metric() {
            return metric(&self.name());
        }
        let n = letters.len();
        let kids: Vec<Vec<bool>> = self
            .children()
            .iter()
            .map(|c| c.top_values(letters, metric))
            .collect();
        let all = |p: &dyn Fn(usize) -> bool| (0..n).map(p).collect::<Vec<bool>>();
        let v = |k: usize| &kids[k];
        match self {
            M::Ap(p) => all(&|i| letters[i][*p]),
            M::Not(_) => all(&|i| !v(0)[i]),
            M::And(..) => all(&|i| v(0)[i] && v(1)[i]),
            M::Or(..) => all(&|i| v(0)[i] || v(1)[i]),
            M::Y(_) => all(&|i| i > 0 && v(0)[i - 1]),
            M::O(_) => all(&|i| (0..=i).any(|j| v(0)[j])),
            M::S(..) => all(&|i| (0..=i).any(|j| v(1)[j] && (j + 1..=i).all(|k| v(0)[k]))),
            _ => unreachable!("metric ones are read"),
        }
    }

    /// The metric subformulas an operand reads directly (not inside
    /// another metric one).
    fn metric_leaves<'a>(&'a self, out: &mut Vec<&'a M>) {
        for c in self.children() {
            if c.is_metric() {
                out.push(c);
            } else {
                c.metric_leaves(out);
            }
        }
    }

    /// Every metric subformula (inner ones first), with what the brute
    /// force finds, over `letters` and `times`; `end`: the time the input
    /// is taken to last until, at its end.
    fn analyse(
        &self,
        letters: &[[bool; 3]],
        times: &[i64],
        end: i64,
        out: &mut Vec<(String, Vec<bool>, Vec<usize>)>,
    ) -> Found {
        let n = letters.len();
        let kids: Vec<Found> = self
            .children()
            .iter()
            .map(|c| c.analyse(letters, times, end, out))
            .collect();
        let all = |p: &dyn Fn(usize) -> bool| (0..n).map(p).collect::<Vec<bool>>();
        let v = |k: usize| &kids[k].values;
        let values = match self {
            M::Ap(p) => all(&|i| letters[i][*p]),
            M::Not(_) => all(&|i| !v(0)[i]),
            M::And(..) => all(&|i| v(0)[i] && v(1)[i]),
            M::Or(..) => all(&|i| v(0)[i] || v(1)[i]),
            M::Y(_) => all(&|i| i > 0 && v(0)[i - 1]),
            M::O(_) => all(&|i| (0..=i).any(|j| v(0)[j])),
            M::S(..) => all(&|i| (0..=i).any(|j| v(1)[j] && (j + 1..=i).all(|k| v(0)[k]))),
            M::TimedO(iv, _) => {
                all(&|i| (0..=i).any(|j| iv.contains(times[i] - times[j]) && v(0)[j]))
            }
            M::TimedH(iv, _) => {
                all(&|i| (0..=i).all(|j| !iv.contains(times[i] - times[j]) || v(0)[j]))
            }
            M::TimedS(iv, ..) => all(&|i| {
                (0..=i).any(|j| {
                    iv.contains(times[i] - times[j]) && v(1)[j] && (j + 1..=i).all(|k| v(0)[k])
                })
            }),
            M::TimedF(iv, _) => {
                all(&|i| (i..n).any(|j| iv.contains(times[j] - times[i]) && v(0)[j]))
            }
            M::TimedG(iv, _) => {
                all(&|i| (i..n).all(|j| !iv.contains(times[j] - times[i]) || v(0)[j]))
            }
            M::TimedU(iv, ..) => all(&|i| {
                (i..n)
                    .any(|j| iv.contains(times[j] - times[i]) && v(1)[j] && (i..j).all(|k| v(0)[k]))
            }),
        };
        if !self.is_metric() {
            return Found { values };
        }
        // When the operands are known at each event: once the event is
        // read and every metric subformula they read is known there and
        // at every event before (values are handed on in order).
        let mut leaves = Vec::new();
        self.metric_leaves(&mut leaves);
        let released: Vec<Vec<usize>> = leaves
            .iter()
            .map(|l| {
                let d = out
                    .iter()
                    .find(|(name, ..)| *name == l.name())
                    .expect("inner ones first")
                    .2
                    .clone();
                prefix_max(&d)
            })
            .collect();
        let ready: Vec<usize> = (0..n)
            .map(|k| released.iter().map(|r| r[k]).fold(k + 1, usize::max))
            .collect();
        // The value of the operand(s) at j: kids 0 (and 1).
        let newest = |m: usize| {
            if m > n {
                times[n - 1].max(end)
            } else {
                times[m - 1]
            }
        };
        let decided: Vec<usize> = (0..n)
            .map(|i| {
                let future = matches!(self, M::TimedF(..) | M::TimedG(..) | M::TimedU(..));
                if !future {
                    return ready[i];
                }
                let (iv, negate) = match self {
                    M::TimedF(iv, _) | M::TimedU(iv, ..) => (*iv, false),
                    M::TimedG(iv, _) => (*iv, true),
                    _ => unreachable!(),
                };
                let hi = times[i] + iv.hi;
                // The last event at or before the deadline.
                let last = (i..n).take_while(|&j| times[j] <= hi).last().unwrap();
                for m in i + 1..=n + 1 {
                    let known = |j: usize| j < n && ready[j] <= m;
                    let in_window = |j: usize| iv.contains(times[j] - times[i]);
                    let witness = match self {
                        M::TimedU(..) => (i..n).any(|j| {
                            known(j) && in_window(j) && v(1)[j] && (i..j).all(|k| v(0)[k])
                        }),
                        _ => (i..n).any(|j| known(j) && in_window(j) && v(0)[j] != negate),
                    };
                    let fails = matches!(self, M::TimedU(..))
                        && (i..n).any(|f| {
                            known(f) && !v(0)[f] && !(i..=f).any(|j| in_window(j) && v(1)[j])
                        });
                    let closed = newest(m) > hi && known(last);
                    if witness || fails || closed {
                        return m;
                    }
                }
                NEVER
            })
            .collect();
        out.push((self.name(), values.clone(), decided));
        Found { values }
    }
}

fn prefix_max(d: &[usize]) -> Vec<usize> {
    let mut most = 0;
    d.iter()
        .map(|&x| {
            most = most.max(x);
            most
        })
        .collect()
}

fn interval() -> impl Strategy<Value = Interval> {
    let ns = prop_oneof![0i64..6, 0i64..40, (0i64..40).prop_map(|x| x * 1000)];
    (ns.clone(), ns).prop_map(|(a, b)| Interval {
        lo: a.min(b),
        hi: a.max(b),
    })
}

fn formula() -> impl Strategy<Value = M> {
    let leaf = (0usize..3).prop_map(M::Ap);
    leaf.prop_recursive(4, 16, 2, |inner| {
        let b = |f: M| Box::new(f);
        prop_oneof![
            1 => inner.clone().prop_map(move |f| M::Not(b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::And(b(f), b(g))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::Or(b(f), b(g))),
            1 => inner.clone().prop_map(move |f| M::Y(b(f))),
            1 => inner.clone().prop_map(move |f| M::O(b(f))),
            1 => (inner.clone(), inner.clone()).prop_map(move |(f, g)| M::S(b(f), b(g))),
            1 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedO(i, b(f))),
            1 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedH(i, b(f))),
            1 => (interval(), inner.clone(), inner.clone())
                .prop_map(move |(i, f, g)| M::TimedS(i, b(f), b(g))),
            3 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedF(i, b(f))),
            3 => (interval(), inner.clone()).prop_map(move |(i, f)| M::TimedG(i, b(f))),
            3 => (interval(), inner.clone(), inner.clone())
                .prop_map(move |(i, f, g)| M::TimedU(i, b(f), b(g))),
        ]
    })
}

/// A timed word: letters over a, b, c and non-decreasing times, with
/// bursts of equal times and gaps longer than every bound.
pub fn timed_word() -> impl Strategy<Value = (Vec<[bool; 3]>, Vec<i64>)> {
    let gap = prop_oneof![
        3 => Just(0i64),
        3 => 1i64..4,
        3 => 1i64..50,
        3 => (1i64..50).prop_map(|g| g * 1000),
        1 => Just(1_000_000_000i64),
    ];
    (
        0i64..1_000_000,
        prop::collection::vec((any::<[bool; 3]>(), gap), 1..40),
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

    /// Every letter is handed out after the event the rule names, with
    /// the values of the definitions; at the end, the letters left hold
    /// the values known.
    #[test]
    fn letters_are_complete_when_the_rule_says(
        f in formula(),
        (letters, times) in timed_word(),
        end in prop_oneof![Just(None), (0i64..3000).prop_map(Some)],
    ) {
        let text = f.text();
        let m = parse_metric(&text).map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let n = letters.len();
        let last = times[n - 1];
        let end_time = end.map(|e| last + e);
        let mut found = Vec::new();
        f.analyse(&letters, &times, end_time.unwrap_or(last), &mut found);
        // The components in parse order, with the brute force's findings.
        let mut expected = Vec::new();
        for c in &m.timed {
            let (_, values, decided) = found
                .iter()
                .find(|(name, ..)| *name == c.name)
                .ok_or_else(|| TestCaseError::fail(format!("{text}: no {}", c.name)))?;
            expected.push((values.clone(), prefix_max(decided)));
        }
        if expected.is_empty() {
            return Ok(());
        }
        let complete: Vec<usize> = (0..n)
            .map(|i| expected.iter().map(|(_, r)| r[i]).max().unwrap())
            .collect();
        let mut d = Delayed::new(&m.timed, input)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        let mut values = Vec::new();
        let mut next = 0usize;
        let mut check = |d: &mut Delayed, next: &mut usize, read: usize| -> Result<(), TestCaseError> {
            while let Some(l) = d.pop(&mut values) {
                let i = l.position as usize;
                prop_assert_eq!(i, *next);
                prop_assert_eq!(l.time, times[i]);
                prop_assert_eq!(complete[i], read, "{}: letter {} complete after {} events (times {:?})", text, i, read, &times);
                for (k, (v, _)) in expected.iter().enumerate() {
                    prop_assert_eq!(values[k], v[i], "{}: {} at {}", text, m.timed[k].name, i);
                }
                *next += 1;
            }
            Ok(())
        };
        for (i, (l, &t)) in letters.iter().zip(&times).enumerate() {
            d.push(t, |k| l[k]);
            check(&mut d, &mut next, i + 1)?;
            prop_assert!(next >= n || complete[next] > i + 1, "{}: letter {} not handed out after {} events", text, next, i + 1);
        }
        d.finish(end_time);
        check(&mut d, &mut next, n + 1)?;
        // What is left is what the end does not decide.
        prop_assert_eq!(d.pending() as usize, n - next);
        for k in 0..d.pending() {
            let (p, _, known) = d.pending_letter(k);
            let p = p as usize;
            prop_assert_eq!(complete[p], NEVER);
            for (c, (v, r)) in expected.iter().enumerate() {
                let want = (r[p] != NEVER).then_some(v[p]);
                prop_assert_eq!(known[c], want, "{}: {} at {} (left at the end)", text, m.timed[c].name, p);
            }
        }
    }
}

/// `G(req -> F[0:5ms] resp)`: the obligation of each request is kept
/// until its deadline passes or a response comes; memory is the events
/// within the window, not the trace.
#[test]
fn obligations_expire_and_memory_follows_the_window() {
    let m = parse_metric("F[0:5ms] resp").unwrap();
    let mut d = Delayed::new(&m.timed, |n| (n == "resp").then_some(0)).unwrap();
    let mut values = Vec::new();
    let ms = 1_000_000;
    let mut most = 0;
    let mut handed = 0;
    // One event per 10 µs, a response every 10 ms: at most 5 ms of events
    // wait (500 of them).
    for i in 0..200_000i64 {
        d.push(i * 10_000, |_| i % 1000 == 999);
        while d.pop(&mut values).is_some() {
            handed += 1;
        }
        most = most.max(d.kept());
    }
    assert!(most <= 1100, "{most} kept");
    assert!(handed > 199_000);
    // The deadline of the event at 0 is 5 ms: an event at 5 ms does not
    // pass it, one just after does.
    let mut d = Delayed::new(&m.timed, |n| (n == "resp").then_some(0)).unwrap();
    d.push(0, |_| false);
    d.push(5 * ms, |_| false);
    assert!(d.pop(&mut values).is_none());
    d.push(5 * ms + 1, |_| false);
    let l = d.pop(&mut values).unwrap();
    assert_eq!(
        (l.position, l.deadline, values[0]),
        (0, Some(5 * ms), false)
    );
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

/// A checker of `property`, times from `ts` in nanoseconds.
fn checker_of(property: &str, all: bool) -> Result<Checker, String> {
    let p = common::timed_property(property)?;
    let options = Options {
        all,
        ..Options::default()
    };
    let mut checker = Checker::new(vec![p], options);
    checker.set_time(Some(TimeSpec::parse("ts:ns").unwrap()), TimeOrder::Strict);
    Ok(checker)
}

/// Where the brute force says `G(f | d)` is first violated over the word:
/// the event the report is at, and the letter (the obligation's event)
/// that failed; `None`: not violated, `Err(())`: too many ways to try.
fn first_violation(
    f: &M,
    letters: &[[bool; 3]],
    times: &[i64],
    end: i64,
) -> Result<Option<(usize, usize)>, ()> {
    let n = letters.len();
    let mut found = Vec::new();
    f.analyse(letters, times, end, &mut found);
    let lookup = |name: &str| found.iter().find(|(m, ..)| m == name).unwrap();
    // The metric subformulas the letters read.
    let mut top = Vec::new();
    if f.is_metric() {
        top.push(f);
    } else {
        f.metric_leaves(&mut top);
    }
    // Every component's letter: the letters complete in order.
    let complete: Vec<usize> = (0..n)
        .map(|i| {
            found
                .iter()
                .map(|(_, _, d)| prefix_max(d)[i])
                .fold(i + 1, usize::max)
        })
        .collect();
    let values = f.top_values(letters, &|name| lookup(name).1.clone());
    let first_false = values.iter().position(|v| !v);
    let waiting = complete.iter().position(|&c| c == NEVER).unwrap_or(n);
    if let Some(i) = first_false.filter(|&i| i < waiting) {
        return Ok(Some((complete[i].min(n) - 1, i)));
    }
    // The letters from `waiting` on: their unknown components every way.
    let mut unknown: Vec<(String, usize)> = Vec::new();
    for t in &top {
        let (name, _, d) = lookup(&t.name());
        let released = prefix_max(d);
        for (p, &r) in released.iter().enumerate().skip(waiting) {
            if r == NEVER && !unknown.contains(&(name.clone(), p)) {
                unknown.push((name.clone(), p));
            }
        }
    }
    if unknown.len() > 12 {
        return Err(());
    }
    let mut latest = 0;
    for way in 0u32..1 << unknown.len() {
        let values = f.top_values(letters, &|name| {
            let mut v = lookup(name).1.clone();
            for (k, (u, p)) in unknown.iter().enumerate() {
                if u == name {
                    v[*p] = (way >> k) & 1 == 1;
                }
            }
            v
        });
        match values.iter().position(|v| !v) {
            Some(i) => latest = latest.max(i),
            None => return Ok(None),
        }
    }
    Ok(Some((n - 1, latest)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// `G(φ | d)` checked over the log is first violated where the brute
    /// force says, its obligation named, with and without an end time.
    #[test]
    fn the_check_reports_at_the_event_that_decided(
        f in formula(),
        (letters, times) in timed_word(),
        end in prop_oneof![Just(None), (0i64..3000).prop_map(Some)],
    ) {
        let text = f.text();
        let n = letters.len();
        let last = times[n - 1];
        let end_time = end.map(|e| last + e);
        let Ok(expected) = first_violation(&f, &letters, &times, end_time.unwrap_or(last)) else {
            return Ok(());
        };
        let property = format!("G({text} | d)");
        let mut checker = checker_of(&property, false).map_err(TestCaseError::fail)?;
        checker.set_end_time(end_time);
        let log = csv(&letters, &times);
        let reports = checker
            .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let r = &reports[0];
        let found = r.first_violation.as_ref().map(|p| p.index as usize);
        prop_assert_eq!(found, expected.map(|(at, _)| at), "{} (end {:?}) over\n{}", property, end_time, log);
        if let Some((at, letter)) = expected {
            let why = &r.violations[0].explanation;
            let line = format!("line {}", letter + 2);
            if at != letter {
                prop_assert!(why.contains(&format!("for {line}")), "{}: {} over\n{}", property, why, log);
            }
            let recent = &r.violations[0].recent;
            prop_assert_eq!(recent.last().map(|(p, _)| p.index as usize), Some(letter), "{}", why);
        }
    }
}

/// The shapes of the brief, by hand: a request unanswered within 5 ms is
/// reported at the first event past its deadline; `b U[1ms:3ms] c`.
#[test]
fn requests_and_untils() {
    let ms = 1_000_000;
    let check = |property: &str, log: &str, end: Option<i64>| {
        let mut checker = checker_of(property, true).unwrap();
        checker.set_end_time(end);
        let reports = checker
            .run(&mut CsvReader::new("log.csv", log.as_bytes()).unwrap())
            .unwrap();
        reports[0]
            .violations
            .iter()
            .map(|v| (v.at.index, v.explanation.clone()))
            .collect::<Vec<_>>()
    };
    // a = req, b = resp. Requests at 0 (answered at 3 ms) and 10 ms (not).
    let log = format!(
        "ts,a,b,c,d\n0,1,0,0,0\n{},0,1,0,0\n{},1,0,0,0\n{},0,0,0,0\n{},0,0,0,0\n",
        3 * ms,
        10 * ms,
        15 * ms,
        15 * ms + 1
    );
    let v = check("G(a -> F[0:5ms] b)", &log, None);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].0, 4);
    assert!(
        v[0].1.ends_with(
            "decided for line 4 (time 10000000) by line 6 (time 15000001), past its deadline \
             15000000"
        ),
        "{}",
        v[0].1
    );
    // Cut before the deadline passed: undecided, unless the end time says
    // the log lasted past it.
    let cut: String = log.lines().take(5).map(|l| format!("{l}\n")).collect();
    assert_eq!(check("G(a -> F[0:5ms] b)", &cut, None), []);
    assert_eq!(check("G(a -> F[0:5ms] b)", &cut, Some(15 * ms)), []);
    let v = check("G(a -> F[0:5ms] b)", &cut, Some(15 * ms + 1));
    assert_eq!(v[0].0, 3);
    assert!(v[0].1.contains("decided for line 4 (time 10000000) by the end of the input, past its deadline 15000000"), "{}", v[0].1);
    // A request that can never be answered in time is violated whatever
    // follows: `G(a -> G[0:5ms] !b) ` with b at once.
    let v = check(
        "G(a -> (b U[1ms:3ms] c))",
        "ts,a,b,c,d\n0,1,1,0,0\n1000000,0,0,0,0\n",
        None,
    );
    assert_eq!(v[0].0, 1, "{v:?}");
    assert!(
        v[0].1
            .contains("decided for line 2 (time 0) by line 3 (time 1000000)"),
        "{}",
        v[0].1
    );
    // At the end, letters read every way: `G[0:1ms] !a` at the last event
    // with a could still hold, `!a & G[0:1ms] a` at an `a` cannot.
    assert_eq!(
        check("G(a -> F[0:1ms] b)", "ts,a,b,c,d\n0,1,0,0,0\n", None),
        []
    );
    let v = check("G(!a | (c & F[0:1ms] b))", "ts,a,b,c,d\n0,1,0,0,0\n", None);
    assert_eq!(v[0].0, 0, "{v:?}");
    assert!(
        v[0].1
            .contains("every value of its waiting propositions violates"),
        "{}",
        v[0].1
    );
}
