//! Metric operators: past `O[0:5s] f`, `H[1ms:1m] f`, `f S[0:2s] g` and
//! future `F[0:500ms] f`, `G[0:1s] f`, `f U[1s:5s] g`, whose intervals are
//! times (nanoseconds) rather than counts of events.
//!
//! A metric operator is not an [`Op`]: the automata read letters, and the
//! truth of `O[0:5s] f` at an event depends on the times of the events,
//! which no letter carries. [`parse_metric`] therefore returns the
//! *letters formula*, where each metric subformula is replaced by a
//! proposition named by its text (so that reports read naturally:
//! `O[0:5s] fail` held here), and the *timed components*
//! ([`TimedComponent`]) that compute those propositions event by event
//! from the events' times (the trace layer's `trace::metric`). The rest of
//! the formula is compiled to a monitor as any other.
//!
//! # Syntax
//!
//! `O[a:b] f`, `H[a:b] f`, `f S[a:b] g`, `F[a:b] f`, `G[a:b] f` and
//! `f U[a:b] g`, with `:`, `..` or `,` between the bounds, and `$`, `inf`
//! or nothing for an unbounded upper bound (`O[5s:] f`; past operators
//! only: a future obligation without a deadline is not safety). A bound is a number with a unit: `ns`, `us`, `ms`, `s`,
//! `m` or `min`, `h`, `d` (a day is 24 h); a decimal (`1.5s`, `0.25ms`)
//! is accepted when it is a whole number of nanoseconds (`0.5ns` is not).
//! `0` needs no unit (`O[0:5s]`); any other bound without a unit beside
//! one with a unit is an error, as is a lower bound above the upper one
//! or a time past `i64::MAX` nanoseconds (about 292 years). The two
//! bounds may have different units (`O[500ms:2s]`). Intervals are closed.
//!
//! # Semantics
//!
//! Point-based, over the timed word `(σ_i, t_i)` with non-decreasing
//! times `t_i`:
//!
//! * `O[a:b] f` holds at `i` iff some `j ≤ i` has `a ≤ t_i − t_j ≤ b` and
//!   `f` at `j`;
//! * `H[a:b] f` is `!O[a:b] !f`;
//! * `f S[a:b] g` holds at `i` iff some `j ≤ i` has `a ≤ t_i − t_j ≤ b`,
//!   `g` at `j`, and `f` at every `k` with `j < k ≤ i`;
//! * `F[a:b] f` holds at `i` iff some `j ≥ i` has `a ≤ t_j − t_i ≤ b` and
//!   `f` at `j`;
//! * `G[a:b] f` is `!F[a:b] !f`;
//! * `f U[a:b] g` holds at `i` iff some `j ≥ i` has `a ≤ t_j − t_i ≤ b`,
//!   `g` at `j`, and `f` at every `k` with `i ≤ k < j`.
//!
//! The operands are past-time formulas (Boolean operators, `Y`, `Z`, `O`,
//! `H`, `S`, `B`, `T`) and metric operators again, past or future. Not
//! yet supported, with an error that says so: future operators without a
//! time bound (`X`, `F`, `U`, …) inside a metric operand. A bound without
//! a unit keeps its meaning for `X`, `F` and `G` (a count of events); the
//! past operators take none.
//!
//! A future component's value at event `i` is known only once an event
//! past its deadline `t_i + b` is read, or once it is decided earlier
//! (`F` found its operand in the window): the trace layer
//! (`trace::future`) computes the letters with that delay.
//!
//! [`parse`](super::parse()) (and so `mongen compile` and every target)
//! refuses a time bound: a monitor compiled alone counts events or
//! cycles, and has no clock.
//!
//! ```
//! use monitor_core::formula::metric::{parse_metric, TimedKind};
//!
//! let m = parse_metric("G(fail -> !O[1ms:10s] fail)")?;
//! assert_eq!(m.formula.to_spot(), "G(fail -> !\"O[1ms:10s] fail\")");
//! let c = &m.timed[0];
//! assert_eq!((c.name.as_str(), c.kind), ("O[1ms:10s] fail", TimedKind::Once));
//! assert_eq!((c.interval.lo, c.interval.hi), (1_000_000, Some(10_000_000_000)));
//! assert_eq!(c.operands[0].to_spot(), "fail");
//!
//! let m = parse_metric("G(req -> F[0:500ms] resp)")?;
//! assert_eq!(m.timed[0].kind, TimedKind::Eventually);
//! assert!(m.timed[0].kind.is_future());
//!
//! let err = parse_metric("G(req -> F[1s:] resp)").unwrap_err();
//! assert!(err.message().contains("needs an upper bound"), "{err}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::{Formula, Op, ParseError};

/// A closed interval of times, in nanoseconds: `[lo, hi]`, or `[lo, ∞)`
/// when `hi` is `None`.
///
/// ```
/// use monitor_core::formula::metric::TimeInterval;
///
/// let i = TimeInterval { lo: 0, hi: Some(5_000_000_000) };
/// assert!(i.contains(5_000_000_000) && !i.contains(5_000_000_001));
/// assert!(TimeInterval { lo: 7, hi: None }.contains(i64::MAX as i128 * 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeInterval {
    /// The lower bound, in nanoseconds (at least 0).
    pub lo: i64,
    /// The upper bound, in nanoseconds (at least `lo`); `None`: unbounded.
    pub hi: Option<i64>,
}

impl TimeInterval {
    /// Whether the distance `d` (nanoseconds, as an `i128` so that the
    /// difference of any two `i64` times fits) lies in the interval.
    pub fn contains(&self, d: i128) -> bool {
        d >= i128::from(self.lo) && self.hi.is_none_or(|hi| d <= i128::from(hi))
    }
}

impl fmt::Display for TimeInterval {
    /// In nanoseconds: `[0ns:5000000000ns]`, `[7ns:]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hi {
            Some(hi) => write!(f, "[{}ns:{hi}ns]", self.lo),
            None => write!(f, "[{}ns:]", self.lo),
        }
    }
}

/// Which metric operator a [`TimedComponent`] computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimedKind {
    /// `O[a:b] f`: `f` held at some event whose time is `a` to `b` before now.
    Once,
    /// `H[a:b] f`: `f` held at every event whose time is `a` to `b` before
    /// now (`!O[a:b] !f`).
    Historically,
    /// `f S[a:b] g`: `g` held at some event `a` to `b` before now, and `f`
    /// at every event after it up to now.
    Since,
    /// `F[a:b] f`: `f` holds at some event whose time is `a` to `b` after
    /// now (an obligation that expires at `t + b`).
    Eventually,
    /// `G[a:b] f`: `f` holds at every event whose time is `a` to `b` after
    /// now (`!F[a:b] !f`).
    Always,
    /// `f U[a:b] g`: `g` holds at some event `a` to `b` after now, and `f`
    /// at every event from now until before it.
    Until,
}

impl TimedKind {
    /// Whether the operator looks ahead (`F`, `G`, `U`): its value at an
    /// event is known only once the events up to its deadline are read.
    ///
    /// ```
    /// use monitor_core::formula::metric::TimedKind;
    ///
    /// assert!(TimedKind::Until.is_future() && !TimedKind::Since.is_future());
    /// ```
    pub fn is_future(self) -> bool {
        matches!(
            self,
            TimedKind::Eventually | TimedKind::Always | TimedKind::Until
        )
    }
}

/// One metric subformula, replaced in the letters formula by the
/// proposition [`name`](TimedComponent::name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimedComponent {
    /// The proposition that stands for it: its text as written, blanks
    /// collapsed to one space (`O[0:5s] fail`).
    pub name: String,
    /// The operator.
    pub kind: TimedKind,
    /// Its interval, in nanoseconds.
    pub interval: TimeInterval,
    /// Its operands (one for `O` and `H`; `[f, g]` for `f S g`): past-time
    /// formulas over the formula's propositions and the names of the
    /// components before this one.
    pub operands: Vec<Formula>,
}

/// A formula with metric operators: the letters formula and its timed
/// components ([module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MetricFormula {
    /// The formula, each metric subformula replaced by the proposition
    /// named by its component.
    pub formula: Formula,
    /// The components, in dependency order: a component's operands name
    /// only components before it.
    pub timed: Vec<TimedComponent>,
}

impl MetricFormula {
    /// Whether proposition `name` of [`MetricFormula::formula`] is computed
    /// by a timed component (rather than read from an event).
    ///
    /// ```
    /// use monitor_core::formula::metric::parse_metric;
    ///
    /// let m = parse_metric("G(a -> O[0:1s] b)")?;
    /// assert!(m.is_timed("O[0:1s] b") && !m.is_timed("a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_timed(&self, name: &str) -> bool {
        self.timed.iter().any(|c| c.name == name)
    }
}

/// Parses a formula that may hold past metric operators (see the [module
/// documentation](self)); without any, it is [`parse`](super::parse())'s
/// formula and no component.
///
/// ```
/// use monitor_core::formula::metric::{parse_metric, TimedKind};
///
/// // Nested: the inner component comes first, named in the outer one's operand.
/// let m = parse_metric("H[0:1m] (ok S[0:2s] O[1.5s:] start)")?;
/// let names: Vec<_> = m.timed.iter().map(|c| c.name.as_str()).collect();
/// assert_eq!(names, ["O[1.5s:] start", "ok S[0:2s] O[1.5s:] start", "H[0:1m] (ok S[0:2s] O[1.5s:] start)"]);
/// assert_eq!(m.timed[0].interval.hi, None);
/// assert_eq!(m.timed[1].operands[1].ap_name(), Some("O[1.5s:] start"));
/// assert_eq!(m.timed[2].kind, TimedKind::Historically);
///
/// let err = parse_metric("O[5s:1s] a").unwrap_err();
/// assert_eq!(err.to_string(), "syntax error at line 1, column 2: the upper bound 1s is smaller \
///     than the lower bound 5s\n  O[5s:1s] a\n   ^^^^^^^");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_metric(input: &str) -> Result<MetricFormula, ParseError> {
    let (formula, timed) = super::parse::parse_with_time(input)?;
    Ok(MetricFormula { formula, timed })
}

/// The operators allowed in a metric operand (past-time and Boolean).
pub(crate) fn allowed_in_operand(op: Op) -> bool {
    use Op::*;
    matches!(
        op,
        False | True | Ap | Not | And | Or | Implies | Equiv | Xor | Y | Z | O | H | S | B | T
    )
}

/// The units of time bounds and their lengths in nanoseconds.
const UNITS: &[(&str, u128)] = &[
    ("ns", 1),
    ("us", 1_000),
    ("ms", 1_000_000),
    ("s", 1_000_000_000),
    ("min", 60_000_000_000),
    ("m", 60_000_000_000),
    ("h", 3_600_000_000_000),
    ("d", 86_400_000_000_000),
];

/// One bound of an interval as written: a number and perhaps a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrittenBound {
    /// Nanoseconds with a unit; the number itself without one.
    pub(crate) value: i64,
    /// Whether a unit was written.
    pub(crate) unit: bool,
}

/// Whether `text` (one bound, trimmed) looks like a time: digits then a
/// letter or a `.` (`5s`, `1.5ms`, `3sec`), rather than a count of events.
pub(crate) fn looks_timed(text: &str) -> bool {
    text.starts_with(|c: char| c.is_ascii_digit())
        && text.contains(|c: char| c.is_ascii_alphabetic() || c == '.')
}

/// Reads one bound (trimmed, not empty): `5`, `5s`, `1.5ms`.
pub(crate) fn read_bound(text: &str) -> Result<WrittenBound, String> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(format!(
            "expected a time such as `5s` or `500ms`, found `{}`",
            text.escape_debug()
        ));
    }
    let (whole, rest) = text.split_at(digits);
    let (fraction, unit) = match rest.strip_prefix('.') {
        Some(r) => {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 {
                return Err(format!(
                    "expected digits after the `.` of `{}`",
                    text.escape_debug()
                ));
            }
            r.split_at(n)
        }
        None => ("", rest),
    };
    let too_large = || format!("the time `{text}` exceeds the largest, {} ns", i64::MAX);
    if unit.is_empty() {
        if !fraction.is_empty() {
            return Err(format!(
                "`{text}` has no unit: give one (ns, us, ms, s, m or min, h, d)"
            ));
        }
        let value: i64 = whole.parse().map_err(|_| too_large())?;
        return Ok(WrittenBound { value, unit: false });
    }
    let Some(&(_, scale)) = UNITS.iter().find(|(u, _)| *u == unit) else {
        return Err(format!(
            "unknown unit `{}` in `{}`: the units are ns, us, ms, s, m or min, h, d",
            unit.escape_debug(),
            text.escape_debug()
        ));
    };
    // The number as an integer over 10^(fraction digits): exact, or an
    // error (no rounding).
    let digits_total = whole.len() + fraction.len();
    if digits_total > 30 {
        return Err(too_large());
    }
    let numerator: u128 = format!("{whole}{fraction}")
        .parse()
        .map_err(|_| too_large())?;
    let denominator = 10u128.pow(fraction.len() as u32);
    let scaled = numerator.checked_mul(scale).ok_or_else(too_large)?;
    if scaled % denominator != 0 {
        return Err(format!(
            "`{text}` is not a whole number of nanoseconds: times are exact nanoseconds"
        ));
    }
    let nanos = i64::try_from(scaled / denominator).map_err(|_| too_large())?;
    Ok(WrittenBound {
        value: nanos,
        unit: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ns(text: &str) -> i64 {
        let b = read_bound(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(b.unit, "{text}");
        b.value
    }

    #[test]
    fn units_and_decimals_are_exact_nanoseconds() {
        assert_eq!(ns("7ns"), 7);
        assert_eq!(ns("3us"), 3_000);
        assert_eq!(ns("500ms"), 500_000_000);
        assert_eq!(ns("1.5s"), 1_500_000_000);
        assert_eq!(ns("2m"), 120_000_000_000);
        assert_eq!(ns("2min"), 120_000_000_000);
        assert_eq!(ns("1h"), 3_600_000_000_000);
        assert_eq!(ns("1d"), 86_400_000_000_000);
        assert_eq!(ns("0.000000001s"), 1);
        assert_eq!(ns("0.25ms"), 250_000);
        assert_eq!(ns("9223372036854775807ns"), i64::MAX);
        assert_eq!(
            read_bound("5"),
            Ok(WrittenBound {
                value: 5,
                unit: false
            })
        );
    }

    fn interval(text: &str) -> (TimedKind, TimeInterval) {
        let m = parse_metric(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let c = m.timed.last().expect("a component");
        (c.kind, c.interval)
    }

    fn error(text: &str) -> String {
        match parse_metric(text) {
            Ok(m) => panic!("{text}: parsed as {m:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn intervals_in_every_spelling() {
        let s = 1_000_000_000;
        let iv = |lo, hi| TimeInterval { lo, hi };
        assert_eq!(interval("O[0:5s] a"), (TimedKind::Once, iv(0, Some(5 * s))));
        assert_eq!(
            interval("O[0..5s] a"),
            (TimedKind::Once, iv(0, Some(5 * s)))
        );
        assert_eq!(
            interval("O [ 0 , 5s ] a"),
            (TimedKind::Once, iv(0, Some(5 * s)))
        );
        assert_eq!(
            interval("H[500ms:1.5s] a"),
            (TimedKind::Historically, iv(s / 2, Some(3 * s / 2)))
        );
        assert_eq!(interval("O[5s:] a"), (TimedKind::Once, iv(5 * s, None)));
        assert_eq!(interval("O[5s:$] a"), (TimedKind::Once, iv(5 * s, None)));
        assert_eq!(interval("O[5s..inf] a"), (TimedKind::Once, iv(5 * s, None)));
        assert_eq!(
            interval("O[2s] a"),
            (TimedKind::Once, iv(2 * s, Some(2 * s)))
        );
        assert_eq!(
            interval("a S[1m:1h] b"),
            (TimedKind::Since, iv(60 * s, Some(3600 * s)))
        );
        assert_eq!(
            interval("a S [0:1d] b"),
            (TimedKind::Since, iv(0, Some(86_400 * s)))
        );
        assert_eq!(interval("O[1min:2min] a").1, iv(60 * s, Some(120 * s)));
        assert_eq!(
            interval("F[0:500ms] a"),
            (TimedKind::Eventually, iv(0, Some(s / 2)))
        );
        assert_eq!(
            interval("G [1s..2s] a"),
            (TimedKind::Always, iv(s, Some(2 * s)))
        );
        assert_eq!(
            interval("a U[1ms:3ms] b"),
            (TimedKind::Until, iv(1_000_000, Some(3_000_000)))
        );
        assert_eq!(
            interval("F[2s] a"),
            (TimedKind::Eventually, iv(2 * s, Some(2 * s)))
        );
        // Counts of events beside times: `G[0:3]` counts, `F[0:1s]` times.
        let m = parse_metric("G[0:3] (req -> F[0:1s] resp)").unwrap();
        assert_eq!(m.timed.len(), 1);
        assert_eq!(
            m.formula,
            crate::formula::parse("G[0:3] (req -> \"F[0:1s] resp\")").unwrap()
        );
        // Counts of events stay as they were for the future operators.
        assert_eq!(parse_metric("F[0:2] a").unwrap().timed, []);
        assert_eq!(
            parse_metric("F[0:2] a").unwrap().formula,
            crate::formula::parse("F[0:2] a").unwrap()
        );
        // `[]` after an operator is still `G`.
        assert_eq!(
            parse_metric("O[]a").unwrap().formula,
            crate::formula::parse("O G a").unwrap()
        );
    }

    #[test]
    fn the_letters_formula_and_its_components() {
        let m = parse_metric("G((req & !O[0:5s] (ack | Y  ack)) -> X err)").unwrap();
        assert_eq!(m.timed.len(), 1);
        let c = &m.timed[0];
        // The name is the text, blanks collapsed.
        assert_eq!(c.name, "O[0:5s] (ack | Y ack)");
        assert_eq!(c.operands[0], crate::formula::parse("ack | Y ack").unwrap());
        assert_eq!(
            m.formula,
            crate::formula::parse("G((req & !\"O[0:5s] (ack | Y ack)\") -> X err)").unwrap()
        );
        // The same text twice is one component.
        let m = parse_metric("O[0:1s] a & Y O[0:1s] a").unwrap();
        assert_eq!(m.timed.len(), 1);
        // Future and past nested either way, the inner one first.
        let m = parse_metric("G(a -> (b U[1ms:3ms] O[0:1s] F[0:2s] c))").unwrap();
        let names: Vec<_> = m.timed.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "F[0:2s] c",
                "O[0:1s] F[0:2s] c",
                "b U[1ms:3ms] O[0:1s] F[0:2s] c"
            ]
        );
        assert_eq!(m.timed[2].operands[0].to_spot(), "b");
        // `S` is right associative: the inner one first.
        let m = parse_metric("a S[0:1s] b S[0:2s] c").unwrap();
        let names: Vec<_> = m.timed.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["b S[0:2s] c", "a S[0:1s] b S[0:2s] c"]);
    }

    #[test]
    fn errors_point_at_the_interval() {
        assert_eq!(
            error("G(a -> O[0:5] b)"),
            "syntax error at line 1, column 9: the interval of `O` is a time: give its bounds a \
             unit, as in `O[0:5s]` (ns, us, ms, s, m or min, h, d); counting events is for `X`, \
             `F` and `G`\n  G(a -> O[0:5] b)\n          ^^^^^"
        );
        assert_eq!(
            error("O[1:5s] b"),
            "syntax error at line 1, column 3: `1` has no unit, while the other bound has one: \
             write it with its unit, as `1s` (only 0 goes without)\n  O[1:5s] b\n    ^"
        );
        assert_eq!(
            error("O[0:5sec] b"),
            "syntax error at line 1, column 5: unknown unit `sec` in `5sec`: the units are ns, \
             us, ms, s, m or min, h, d\n  O[0:5sec] b\n      ^^^^"
        );
        assert!(
            error("O[2s:1s] b").contains("the upper bound 1s is smaller than the lower bound 2s")
        );
        assert!(error("O[0:0.5ns] b").contains("not a whole number of nanoseconds"));
        assert!(error("O[0:300000d] b").contains("exceeds the largest"));
        assert!(error("O[0:5s b").contains("this `[` is never closed"));
        let unbounded = error("G(req -> F[1s:] resp)");
        assert!(
            unbounded.contains("`F` with a time bound needs an upper bound"),
            "{unbounded}"
        );
        assert!(
            unbounded.ends_with("\n  G(req -> F[1s:] resp)\n            ^^^^^"),
            "{unbounded}"
        );
        assert!(error("G[1ms:] a").contains("`G` with a time bound needs an upper bound"));
        assert!(error("a U[1s:inf] b").contains("`U` with a time bound needs an upper bound"));
        assert!(error("X[1s] b").contains("time bound on the future operator `X`"));
        assert!(error("a W[0:1s] b").contains("future operator `W`"));
        assert!(error("F[1:5s] b").contains("`1` has no unit"));
        let inside = error("F[0:1s] X b");
        assert!(
            inside.contains("the future operator `X` inside `F[0:1s]` is not supported yet"),
            "{inside}"
        );
        assert!(error("G[0:1s] (a U b)").contains("the future operator `U` inside `G[0:1s]`"));
        assert!(error("a U[0:1s] F[0:2] b").contains("the future operator `X` inside `U[0:1s]`"));
        assert!(error("a B[0:1s] b").contains("`B` takes no time interval"));
        assert!(error("F[0:4x] b").contains("unknown unit `x`"));
        assert!(
            error("O[-1s:2s] b").contains("expected a time interval after `O`, such as `[0:5s]`")
        );
        assert!(error("a S [x] b").contains("expected a time interval after `S`"));
        let nested = error("O[0:5s] F b");
        assert!(
            nested.contains("the future operator `F` inside `O[0:5s]` is not supported yet"),
            "{nested}"
        );
        assert!(error("O[0:5s] {a;b}").contains("a SERE inside"));
        assert!(error("{a ; O[0:5s] b}").contains("is a temporal operator"));
        assert!(
            error("\"O[0:1s] a\" & O[0:1s] a").contains("has the name of the metric subformula")
        );
    }

    #[test]
    fn without_times_a_time_bound_is_an_error() {
        let e = crate::formula::parse("G(fail -> !O[1ms:10s] fail)").unwrap_err();
        assert_eq!(
            e.to_string(),
            "syntax error at line 1, column 12: a time bound is checked only on logs with times \
             (`mongen check --time FIELD`); a compiled monitor has no clock: it counts events or \
             cycles (`F[0:5] p`)\n  G(fail -> !O[1ms:10s] fail)\n             ^^^^^^^^^^"
        );
        // The future ones too.
        let e = crate::formula::parse("F[0:5s] a").unwrap_err();
        assert!(e.message().contains("a compiled monitor has no clock"));
    }

    #[test]
    fn bad_bounds_say_why() {
        let e = |t: &str| read_bound(t).unwrap_err();
        assert!(e("0.5ns").contains("not a whole number of nanoseconds"));
        assert!(e("5sec").contains("unknown unit `sec`"));
        assert!(e("1.5").contains("has no unit"));
        assert!(e("9223372036854775808ns").contains("exceeds the largest"));
        assert!(e("300000d").contains("exceeds the largest"));
        assert!(e("1000000000000000000000000000000000000s").contains("exceeds"));
        assert!(e("5.s").contains("digits after"));
    }
}
