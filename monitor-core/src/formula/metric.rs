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
//! refuses a time bound ([`ParseErrorKind::TimeBound`](super::ParseErrorKind::TimeBound)):
//! a monitor compiled alone counts events or cycles, and has no clock.
//! [`parse_cycles`] converts the bounds to counts of the cycles of a clock
//! of a given period (`mongen compile --clock-period 10ns`).
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

/// Parses a formula whose time bounds are converted to counts of clock
/// cycles, for a monitor that reads one letter per cycle of a clock of
/// period `period` (a hardware checker): each bound becomes bound / period
/// cycles, which must be a whole number (otherwise an error with a caret
/// at the bound names the two nearest counts).
///
/// Over a clocked trace, the events are the cycles, at the times
/// `k · period`: the distance of two events is a whole number of periods,
/// so the point-based meaning of the [module documentation](self) is
/// exactly that of the counts. `F[a:b] f` is `F[a/p:b/p] f` and `G[a:b] f`
/// is `G[a/p:b/p] f`; the operators that have no counted form are spelled
/// out: `f U[n:m] g` (in cycles) is `f & X(… f & X(g | (f & X(g | …))))`,
/// `O[n:m] f` is `Y^n (f | Y(f | …))`, `H[n:m] f` is `Z^n (f & Z(f & …))`
/// (`Z`: no cycle before the first one is checked) and `f S[n:m] g` is
/// `f & Y(… f & Y(g | (f & Y(g | …))))`. An upper bound may be left
/// unbounded on every operator (`O[20ns:] f` is `YY O f`, `F[20ns:] f` is
/// `XX F f`): the result is a formula of counts, whatever property it is.
/// Unlike [`parse_metric`], operands may be any formula (past operators
/// still need past-time operands, as everywhere). Counts are limited to
/// [`MAX_BOUND`](super::parse::MAX_BOUND) cycles, as written counts are.
///
/// ```
/// use monitor_core::formula::metric::{parse_cycles, ClockPeriod};
/// use monitor_core::formula::parse;
///
/// let period = ClockPeriod::parse("10ns")?;
/// assert_eq!(parse_cycles("G(req -> F[0:50ns] ack)", &period)?, parse("G(req -> F[0:5] ack)")?);
/// assert_eq!(parse_cycles("O[20ns:30ns] a", &period)?, parse("YY(a | Ya)")?);
/// assert_eq!(parse_cycles("a U[0:10ns] b", &period)?, parse("b | (a & Xb)")?);
/// // A bound that is no whole number of cycles.
/// let err = parse_cycles("G(req -> F[0:55ns] ack)", &period).unwrap_err();
/// assert_eq!(err.to_string(), "syntax error at line 1, column 14: `55ns` is not a whole \
///     number of clock periods of 10ns: it lies between 5 cycles (50ns) and 6 cycles (60ns)\n  \
///     G(req -> F[0:55ns] ack)\n               ^^^^");
/// // Sub-nanosecond periods are exact too.
/// let fast = ClockPeriod::parse("2.5ns")?;
/// assert_eq!(parse_cycles("F[5ns:10ns] a", &fast)?, parse("F[2:4] a")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_cycles(input: &str, period: &ClockPeriod) -> Result<Formula, ParseError> {
    super::parse::parse_with_period(input, period)
}

/// The period of the clock whose cycles a checker counts
/// ([`parse_cycles`]): a positive time with a unit, in the units of the
/// bounds (`10ns`, `2.5ns`, `1us`), exact to the femtosecond.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockPeriod {
    /// The period in femtoseconds (10^-15 s).
    femtoseconds: u128,
    /// As written, for messages.
    text: String,
}

/// Femtoseconds per nanosecond.
const FEMTOS_PER_NS: u128 = 1_000_000;

impl ClockPeriod {
    /// Reads a period: a number (a decimal if it is a whole number of
    /// femtoseconds) and a unit, `ns`, `us`, `ms`, `s`, `m` or `min`, `h`,
    /// `d`; zero is refused.
    ///
    /// ```
    /// use monitor_core::formula::metric::ClockPeriod;
    ///
    /// assert_eq!(ClockPeriod::parse("2.5ns")?.femtoseconds(), 2_500_000);
    /// assert_eq!(ClockPeriod::parse("1us")?.to_string(), "1us");
    /// assert!(ClockPeriod::parse("10").unwrap_err().contains("needs a unit"));
    /// assert!(ClockPeriod::parse("0ns").unwrap_err().contains("more than 0"));
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(text: &str) -> Result<ClockPeriod, String> {
        let text = text.trim();
        let digits = text
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        let (number, unit) = text.split_at(digits);
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if whole.is_empty() || (number.contains('.') && fraction.is_empty()) {
            return Err(format!(
                "expected a clock period such as `10ns` or `2.5ns`, found `{}`",
                text.escape_debug()
            ));
        }
        if unit.is_empty() {
            return Err(format!(
                "the clock period `{text}` needs a unit: ns, us, ms, s, m or min, h, d \
                 (`{text}ns`)"
            ));
        }
        let Some(&(_, scale)) = UNITS.iter().find(|(u, _)| *u == unit) else {
            return Err(format!(
                "unknown unit `{}` in the clock period `{}`: the units are ns, us, ms, s, m or \
                 min, h, d",
                unit.escape_debug(),
                text.escape_debug()
            ));
        };
        let too_large = || {
            format!(
                "the clock period `{text}` exceeds the largest time, {} ns",
                i64::MAX
            )
        };
        if whole.len() + fraction.len() > 30 {
            return Err(too_large());
        }
        let numerator: u128 = format!("{whole}{fraction}")
            .parse()
            .map_err(|_| too_large())?;
        let denominator = 10u128.pow(fraction.len() as u32);
        let scaled = numerator
            .checked_mul(scale * FEMTOS_PER_NS)
            .ok_or_else(too_large)?;
        if scaled % denominator != 0 {
            return Err(format!(
                "the clock period `{text}` is not a whole number of femtoseconds"
            ));
        }
        let femtoseconds = scaled / denominator;
        if femtoseconds == 0 {
            return Err(format!("the clock period `{text}` must be more than 0"));
        }
        if femtoseconds > i64::MAX as u128 * FEMTOS_PER_NS {
            return Err(too_large());
        }
        Ok(ClockPeriod {
            femtoseconds,
            text: text.to_string(),
        })
    }

    /// The period in femtoseconds.
    ///
    /// ```
    /// use monitor_core::formula::metric::ClockPeriod;
    ///
    /// assert_eq!(ClockPeriod::parse("1us")?.femtoseconds(), 1_000_000_000);
    /// # Ok::<(), String>(())
    /// ```
    pub fn femtoseconds(&self) -> u128 {
        self.femtoseconds
    }

    /// The number of cycles in `nanos` nanoseconds, or the message of
    /// why it is none: not a whole number of periods (naming `written`,
    /// the bound as written, and the two nearest counts), or more than
    /// `most` cycles.
    pub(crate) fn cycles(&self, nanos: i64, written: &str, most: u32) -> Result<u32, String> {
        let femtos = u128::try_from(nanos).unwrap_or(0) * FEMTOS_PER_NS;
        let below = femtos / self.femtoseconds;
        if femtos % self.femtoseconds != 0 {
            let count = |k: u128| {
                format!(
                    "{k} cycle{} ({})",
                    if k == 1 { "" } else { "s" },
                    format_femtoseconds(k * self.femtoseconds)
                )
            };
            return Err(format!(
                "`{written}` is not a whole number of clock periods of {}: it lies between {} \
                 and {}",
                self,
                count(below),
                count(below + 1)
            ));
        }
        match u32::try_from(below) {
            Ok(n) if n <= most => Ok(n),
            _ => Err(format!(
                "`{written}` is {below} cycles of {}, more than the largest count, {most}",
                self
            )),
        }
    }
}

impl fmt::Display for ClockPeriod {
    /// As written: `10ns`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A time in femtoseconds in the largest unit that writes it whole
/// (`50ns`, `2us`), or in nanoseconds with a decimal (`7.5ns`).
fn format_femtoseconds(femtos: u128) -> String {
    if femtos == 0 {
        return "0".into();
    }
    for &(unit, scale) in UNITS.iter().rev().filter(|(u, _)| *u != "min") {
        let scale = scale * FEMTOS_PER_NS;
        if femtos % scale == 0 {
            return format!("{}{unit}", femtos / scale);
        }
    }
    let ns = femtos / FEMTOS_PER_NS;
    let fraction = format!("{:06}", femtos % FEMTOS_PER_NS);
    format!("{ns}.{}ns", fraction.trim_end_matches('0'))
}

/// A constructor of a unary operator (`Formula::yesterday`).
type Unop = fn(Formula) -> Formula;

/// The formula of counts for a metric operator whose interval `cycles`
/// is in clock cycles ([`parse_cycles`]).
pub(crate) fn counted(kind: TimedKind, cycles: TimeInterval, operands: Vec<Formula>) -> Formula {
    let lo = u32::try_from(cycles.lo).expect("counts are at most MAX_BOUND");
    let hi = cycles
        .hi
        .map(|h| u32::try_from(h).expect("counts are at most MAX_BOUND"));
    let f = operands[0].clone();
    match kind {
        TimedKind::Eventually | TimedKind::Always => {
            let op = if kind == TimedKind::Eventually {
                Op::F
            } else {
                Op::G
            };
            match hi {
                Some(hi) => Formula::bounded(op, lo, hi, f),
                None => Formula::next_n(Formula::unop(op, f), lo as usize),
            }
        }
        TimedKind::Until => {
            let g = operands[1].clone();
            // `f U[0:k] g` is `g | (f & X f U[0:k-1] g)`, `f U[0:0] g` is `g`;
            // then `f U[n:m] g` is `f & X(f U[n-1:m-1] g)`, n times.
            let window = match hi {
                Some(hi) => (lo..hi).fold(g.clone(), |w, _| {
                    Formula::or([g.clone(), Formula::and([f.clone(), Formula::next(w)])])
                }),
                None => Formula::until(f.clone(), g),
            };
            (0..lo).fold(window, |w, _| Formula::and([f.clone(), Formula::next(w)]))
        }
        TimedKind::Once | TimedKind::Historically => {
            let (step, join, unbounded): (Unop, Op, Unop) = if kind == TimedKind::Once {
                (Formula::yesterday, Op::Or, Formula::once)
            } else {
                (Formula::weak_yesterday, Op::And, Formula::historically)
            };
            let window = match hi {
                Some(hi) => (lo..hi).fold(f.clone(), |w, _| {
                    Formula::multop(join, [f.clone(), step(w)])
                }),
                None => unbounded(f),
            };
            (0..lo).fold(window, |w, _| step(w))
        }
        TimedKind::Since => {
            let g = operands[1].clone();
            // As `U`, looking back.
            let window = match hi {
                Some(hi) => (lo..hi).fold(g.clone(), |w, _| {
                    Formula::or([g.clone(), Formula::and([f.clone(), Formula::yesterday(w)])])
                }),
                None => Formula::since(f.clone(), g),
            };
            (0..lo).fold(window, |w, _| {
                Formula::and([f.clone(), Formula::yesterday(w)])
            })
        }
    }
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
        assert_eq!(e.kind(), &crate::formula::ParseErrorKind::TimeBound);
        assert_eq!(
            e.to_string(),
            "syntax error at line 1, column 12: a time bound is checked only on logs with times \
             (`mongen check --time FIELD`) or converted to cycles with a clock period; a compiled \
             monitor has no clock: it counts events or cycles (`F[0:5] p`)\n  \
             G(fail -> !O[1ms:10s] fail)\n             ^^^^^^^^^^"
        );
        // The future ones too.
        let e = crate::formula::parse("F[0:5s] a").unwrap_err();
        assert!(e.message().contains("a compiled monitor has no clock"));
        // Unbounded, the same (a log's deadline needs an upper bound; a
        // count does not).
        let e = crate::formula::parse("G(a -> F[1s:] b)").unwrap_err();
        assert_eq!(e.kind(), &crate::formula::ParseErrorKind::TimeBound);
    }

    fn cycles(text: &str, period: &str) -> Formula {
        let period = ClockPeriod::parse(period).unwrap();
        parse_cycles(text, &period).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn cycles_error(text: &str, period: &str) -> String {
        let period = ClockPeriod::parse(period).unwrap();
        match parse_cycles(text, &period) {
            Ok(f) => panic!("{text}: parsed as {}", f.to_spot()),
            Err(e) => e.to_string(),
        }
    }

    fn p(text: &str) -> Formula {
        crate::formula::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn bounds_become_counts_of_cycles() {
        // The counted operators keep their form.
        assert_eq!(cycles("F[0:50ns] a", "10ns"), p("F[0:5] a"));
        assert_eq!(cycles("G[1us:2us] a", "100ns"), p("G[10:20] a"));
        assert_eq!(cycles("F[20ns] a", "10ns"), p("XX a"));
        assert_eq!(cycles("F[20ns:] a", "10ns"), p("XX F a"));
        assert_eq!(cycles("G[0:$] a", "10ns"), p("G a"));
        // Counts beside the converted bounds stay counts.
        assert_eq!(
            cycles("G[0:3] (req -> F[0:1ms] ack)", "0.5ms"),
            p("G[0:3] (req -> F[0:2] ack)")
        );
        // Until, spelled out.
        assert_eq!(cycles("a U[0:0s] b", "1s"), p("b"));
        assert_eq!(cycles("a U[0:2s] b", "1s"), p("b | (a & X(b | (a & Xb)))"));
        assert_eq!(cycles("a U[1s:2s] b", "1s"), p("a & X(b | (a & Xb))"));
        assert_eq!(cycles("a U[2s:] b", "1s"), p("a & X(a & X(a U b))"));
        // The past ones: `Y` for `O` and `S`, `Z` for `H`.
        assert_eq!(cycles("O[0:20ns] a", "10ns"), p("a | Y(a | Ya)"));
        assert_eq!(cycles("O[10ns:] a", "10ns"), p("Y O a"));
        assert_eq!(cycles("H[10ns:20ns] a", "10ns"), p("Z(a & Z a)"));
        assert_eq!(cycles("H[20ns:] a", "10ns"), p("ZZ H a"));
        assert_eq!(cycles("a S[0:10ns] b", "10ns"), p("b | (a & Y b)"));
        assert_eq!(cycles("a S[10ns:20ns] b", "10ns"), p("a & Y(b | (a & Yb))"));
        assert_eq!(cycles("a S[10ns:] b", "10ns"), p("a & Y(a S b)"));
        // Any operand: future ones inside, nested, units mixed.
        assert_eq!(
            cycles("G(req -> F[0:1us] (a U[10ns:10ns] b))", "5ns"),
            p("G(req -> F[0:200] (a & X(a & Xb)))")
        );
        assert_eq!(cycles("F[0:2ns] a", "0.5ns"), p("F[0:4] a"));
        // Bounds are whole nanoseconds, as everywhere.
        assert!(cycles_error("F[0:1.5ns] a", "0.5ns").contains("not a whole number of nanoseconds"));
        assert_eq!(cycles("F[500ms:1s] a", "250ms"), p("F[2:4] a"));
    }

    #[test]
    fn bounds_that_are_no_whole_number_of_cycles_are_refused() {
        assert_eq!(
            cycles_error("O[0:25ns] a", "10ns"),
            "syntax error at line 1, column 5: `25ns` is not a whole number of clock periods of \
             10ns: it lies between 2 cycles (20ns) and 3 cycles (30ns)\n  O[0:25ns] a\n      ^^^^"
        );
        // The lower bound too, and the one bound of `[b]`.
        assert!(cycles_error("F[5ns:20ns] a", "10ns").contains(
            "`5ns` is not a whole number of clock periods of 10ns: it lies between 0 \
                       cycles (0) and 1 cycle (10ns)\n  F[5ns:20ns] a\n    ^^^"
        ));
        assert!(cycles_error("F[15ns] a", "10ns").contains("`15ns` is not a whole number"));
        // Nearest counts in the largest unit that writes them whole.
        assert!(cycles_error("F[0:1.1us] a", "1us").contains("1 cycle (1us) and 2 cycles (2us)"));
        assert!(
            cycles_error("F[0:8ns] a", "2.5ns").contains("3 cycles (7.5ns) and 4 cycles (10ns)")
        );
        // More cycles than a count may have.
        assert!(cycles_error("F[0:1ms] a", "10ns")
            .contains("`1ms` is 100000 cycles of 10ns, more than the largest count, 10000"));
        // What is wrong without a period is still wrong.
        assert!(cycles_error("O[0:5] a", "10ns").contains("give its bounds a unit"));
        assert!(cycles_error("X[10ns] a", "10ns").contains("future operator `X`"));
        assert!(cycles_error("O[0:5sec] a", "10ns").contains("unknown unit `sec`"));
        // Past operators still need past operands (the translator says so).
        assert_eq!(cycles("O[0:10ns] F a", "10ns"), p("F a | Y F a"));
    }

    #[test]
    fn clock_periods() {
        let fs = |t: &str| ClockPeriod::parse(t).map(|p| p.femtoseconds());
        assert_eq!(fs("10ns"), Ok(10_000_000));
        assert_eq!(fs("2.5ns"), Ok(2_500_000));
        assert_eq!(fs("0.000001ns"), Ok(1));
        assert_eq!(fs("1us"), Ok(1_000_000_000));
        assert_eq!(fs(" 1s "), Ok(1_000_000_000_000_000));
        assert!(fs("0.0000001ns")
            .unwrap_err()
            .contains("not a whole number of femtoseconds"));
        assert!(fs("0ns").unwrap_err().contains("more than 0"));
        assert!(fs("10").unwrap_err().contains("needs a unit"));
        assert!(fs("10ps").unwrap_err().contains("unknown unit `ps`"));
        assert!(fs("ns").unwrap_err().contains("expected a clock period"));
        assert!(fs("1.ns").unwrap_err().contains("expected a clock period"));
        assert!(fs("-1ns").unwrap_err().contains("expected a clock period"));
        assert!(fs("300000d").unwrap_err().contains("exceeds the largest"));
        assert!(fs("99999999999999999999999999999999d")
            .unwrap_err()
            .contains("exceeds"));
        assert_eq!(format_femtoseconds(7_500_000), "7.5ns");
        assert_eq!(format_femtoseconds(120 * 1_000_000_000_000_000), "2m");
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
