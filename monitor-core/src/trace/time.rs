//! Times of events: the field that `mongen check --time FIELD[:UNIT]`
//! names, read as an exact number of nanoseconds.
//!
//! # Overview
//!
//! * [`TimeSpec`]: which field holds the time and how it is written
//!   ([`TimeFormat`]: integers or decimals in a [`Unit`], RFC 3339
//!   date-times, or either);
//! * [`Time`]: one event's time, nanoseconds and the form it was written
//!   in (to show it as written);
//! * [`TimeOrder`]: whether a time that goes back is an error or is taken
//!   as the time before it.
//!
//! [`Checker::set_time`](super::check::Checker::set_time) reads the times
//! of a trace; they are in every [`Position`] of
//! its reports ([`Position::timestamp`](super::reader::Position::timestamp)).
//!
//! # Why nanoseconds in an `i64`
//!
//! A time is an exact integer, so that the metric operators to come
//! (`F[0:500ms] p`) compare deadlines without rounding: nanoseconds are
//! the finest unit logs write (and what Arrow's and jiff's time stamps
//! count), and an `i64` of them spans 1677-09-21 to 2262-04-11 around the
//! epoch, or ±292 years from 0 of a trace, which every log fits. It is
//! signed so that a date-time before 1970 is a negative number rather than
//! an error (a `u64` would refuse it), and it is Arrow's `timestamp[ns]`
//! as it is, with no conversion at the boundary with Python. An `i128`
//! would cover more years than any log, at twice the size in every
//! position and chunk summary. A time outside the `i64` range is an error
//! that says so, never a silent wrap.
//!
//! # Why jiff
//!
//! RFC 3339 date-times are parsed by `jiff` (`Timestamp`'s parser): it
//! reads the offset (`Z`, `+02:00`) and fractions down to nanoseconds
//! exactly, and gives nanoseconds as an integer (`as_nanosecond`), with no
//! time-zone database needed for a numeric offset. chrono would do the
//! same job with a `DateTime<FixedOffset>`; jiff's parser refuses
//! `24:00:00` rather than normalizing it, its errors say what is wrong,
//! and without default features it brings no dependencies beyond its own
//! crates. A leap second (`23:59:60`) is read as `23:59:59`, as jiff
//! reads it.
//!
//! ```
//! use monitor_core::trace::time::{Time, TimeFormat, TimeSpec, Unit};
//! use monitor_core::trace::expr::Cell;
//!
//! let spec = TimeSpec::parse("ts:ms")?;
//! assert_eq!((spec.field.as_str(), spec.format), ("ts", TimeFormat::Unit(Unit::Ms)));
//! let t = spec.format.read(Some(Cell::Text("1500")))?;
//! assert_eq!(t.nanos, 1_500_000_000);
//! assert_eq!(t.to_string(), "1500"); // as written, in its unit
//! let t = TimeFormat::Auto.read(Some(Cell::Text("1969-12-31T23:59:59Z")))?;
//! assert_eq!(t.nanos, -1_000_000_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use super::expr::Cell;
use super::reader::{Position, Reader, TraceError};

/// A unit of integer (or decimal) times.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Nanoseconds (`ns`).
    Ns,
    /// Microseconds (`us`).
    Us,
    /// Milliseconds (`ms`).
    Ms,
    /// Seconds (`s`), the default.
    S,
    /// Minutes (`m`).
    M,
    /// Hours (`h`).
    H,
}

impl Unit {
    /// Every unit, finest first.
    pub const ALL: [Unit; 6] = [Unit::Ns, Unit::Us, Unit::Ms, Unit::S, Unit::M, Unit::H];

    /// The unit's name as `--time` writes it (`ns`, `us`, `ms`, `s`, `m`,
    /// `h`).
    ///
    /// ```
    /// use monitor_core::trace::time::Unit;
    /// assert_eq!(Unit::Ms.name(), "ms");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Unit::Ns => "ns",
            Unit::Us => "us",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::M => "m",
            Unit::H => "h",
        }
    }

    /// How many nanoseconds one unit is.
    ///
    /// ```
    /// use monitor_core::trace::time::Unit;
    /// assert_eq!(Unit::H.nanos(), 3_600_000_000_000);
    /// ```
    pub fn nanos(self) -> i64 {
        match self {
            Unit::Ns => 1,
            Unit::Us => 1_000,
            Unit::Ms => 1_000_000,
            Unit::S => 1_000_000_000,
            Unit::M => 60_000_000_000,
            Unit::H => 3_600_000_000_000,
        }
    }

    fn words(self) -> &'static str {
        match self {
            Unit::Ns => "nanoseconds",
            Unit::Us => "microseconds",
            Unit::Ms => "milliseconds",
            Unit::S => "seconds",
            Unit::M => "minutes",
            Unit::H => "hours",
        }
    }
}

/// How the time field is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeFormat {
    /// `--time ts`: each value decides: a number is in seconds, any other
    /// text an RFC 3339 date-time (both count from the Unix epoch, so the
    /// two may mix).
    Auto,
    /// `--time ts:ms`: numbers in that unit: integers, or decimals that
    /// are a whole number of nanoseconds (`12.5` seconds; `0.5` ns is an
    /// error). No exponent, no float: every time is exact.
    Unit(Unit),
    /// `--time ts:rfc3339`: RFC 3339 / ISO 8601 date-times with an offset
    /// (`2024-05-01T12:00:00.250Z`, `2024-05-01 14:00:00+02:00`).
    Rfc3339,
    /// Integers counting a unit since the Unix epoch, which are date-times
    /// and shown as such (RFC 3339, in UTC): Arrow's time stamps
    /// (`timestamp[ms, tz=...]` counts milliseconds since the epoch in UTC
    /// whatever its zone). No `--time` argument names it: the Python
    /// package picks it for a time-stamp column.
    ///
    /// ```
    /// use monitor_core::trace::time::{TimeFormat, Unit};
    /// use monitor_core::trace::expr::Cell;
    ///
    /// let t = TimeFormat::Epoch(Unit::Ms).read(Some(Cell::Int(1_250)))?;
    /// assert_eq!((t.nanos, t.to_string()), (1_250_000_000, "1970-01-01T00:00:01.25Z".to_string()));
    /// # Ok::<(), String>(())
    /// ```
    Epoch(Unit),
}

/// Which field holds the events' times, and how it is written: the
/// argument of `--time`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeSpec {
    /// The field (a CSV column, a JSON Lines dotted path).
    pub field: String,
    /// How its values are written.
    pub format: TimeFormat,
}

impl TimeSpec {
    /// Reads `FIELD` or `FIELD:FORMAT`, where FORMAT is a [`Unit`]
    /// (`ns`, `us`, `ms`, `s`, `m`, `h`) or `rfc3339`. A field whose name
    /// has a colon is named whole when what follows its last colon is no
    /// format.
    ///
    /// ```
    /// use monitor_core::trace::time::{TimeFormat, TimeSpec, Unit};
    ///
    /// assert_eq!(TimeSpec::parse("ts")?.format, TimeFormat::Auto);
    /// assert_eq!(TimeSpec::parse("ts:rfc3339")?.format, TimeFormat::Rfc3339);
    /// assert_eq!(TimeSpec::parse("req.at:us")?, TimeSpec { field: "req.at".into(), format: TimeFormat::Unit(Unit::Us) });
    /// assert_eq!(TimeSpec::parse("a:b")?.field, "a:b");
    /// assert!(TimeSpec::parse(":ms").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse(arg: &str) -> Result<TimeSpec, String> {
        let (field, format) = match arg.rsplit_once(':') {
            Some((field, "rfc3339")) => (field, TimeFormat::Rfc3339),
            Some((field, unit)) => match Unit::ALL.iter().find(|u| u.name() == unit) {
                Some(&u) => (field, TimeFormat::Unit(u)),
                None => (arg, TimeFormat::Auto),
            },
            None => (arg, TimeFormat::Auto),
        };
        if field.is_empty() {
            return Err(format!(
                "`{arg}` names no field: write FIELD or FIELD:UNIT (ns, us, ms, s, m, h, rfc3339)"
            ));
        }
        Ok(TimeSpec {
            field: field.to_string(),
            format,
        })
    }
}

/// How one time was written, to show it the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeForm {
    /// A number in this unit.
    Number(Unit),
    /// An RFC 3339 date-time (shown in UTC).
    Rfc3339,
}

/// An event's time: exact nanoseconds (since the Unix epoch for date-times
/// and numbers read as such; since whatever 0 the log counts from
/// otherwise), and the form it was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Time {
    /// Nanoseconds (see the [module documentation](self) for the range).
    pub nanos: i64,
    /// How it was written.
    pub form: TimeForm,
}

impl fmt::Display for Time {
    /// The time in the form it was written: a number in its unit (a
    /// decimal where it is not whole: `12.5`), or an RFC 3339 date-time in
    /// UTC (`2024-05-01T10:00:00.25Z`, whatever offset it was written
    /// with).
    ///
    /// ```
    /// use monitor_core::trace::time::{Time, TimeForm, Unit};
    ///
    /// let t = Time { nanos: -12_500_000_000, form: TimeForm::Number(Unit::S) };
    /// assert_eq!(t.to_string(), "-12.5");
    /// let t = Time { nanos: 250_000_000, form: TimeForm::Rfc3339 };
    /// assert_eq!(t.to_string(), "1970-01-01T00:00:00.25Z");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.form {
            TimeForm::Number(unit) => {
                let per = i128::from(unit.nanos());
                let n = i128::from(self.nanos);
                let sign = if n < 0 { "-" } else { "" };
                let (whole, frac) = (n.abs() / per, n.abs() % per);
                if frac == 0 {
                    return write!(f, "{sign}{whole}");
                }
                // The fraction's digits: as many as the unit has decimal
                // places of nanoseconds; a minute's or an hour's fraction
                // that is a finite decimal has at most 11 or 13 digits
                // (60e9 = 2^11·3·5^10, 3600e9 = 2^13·3^2·5^11): 15
                // digits show those exactly and the others truncated.
                let places = match unit {
                    Unit::M | Unit::H => 15,
                    Unit::Ns => 0,
                    Unit::Us => 3,
                    Unit::Ms => 6,
                    Unit::S => 9,
                };
                let scaled = frac * 10i128.pow(places as u32) / per;
                let digits = format!("{scaled:0places$}");
                write!(f, "{sign}{whole}.{}", digits.trim_end_matches('0'))
            }
            TimeForm::Rfc3339 => match jiff::Timestamp::from_nanosecond(i128::from(self.nanos)) {
                Ok(ts) => write!(f, "{ts}"),
                Err(_) => write!(f, "{}ns", self.nanos),
            },
        }
    }
}

impl TimeFormat {
    /// The time of a field's value (`None`: absent from the event), or
    /// why it is none: missing, empty, not a number of the unit, not a
    /// date-time, finer than a nanosecond or out of range.
    ///
    /// ```
    /// use monitor_core::trace::time::{TimeFormat, Unit};
    /// use monitor_core::trace::expr::Cell;
    ///
    /// let s = TimeFormat::Unit(Unit::S);
    /// assert_eq!(s.read(Some(Cell::Text("12.5")))?.nanos, 12_500_000_000);
    /// assert_eq!(s.read(Some(Cell::Int(-3)))?.nanos, -3_000_000_000);
    /// assert!(TimeFormat::Unit(Unit::Ns).read(Some(Cell::Text("0.5"))).is_err());
    /// assert!(s.read(Some(Cell::Text(""))).is_err());
    /// let json = serde_json::json!("2024-01-01T00:00:00+01:00");
    /// assert_eq!(TimeFormat::Rfc3339.read(Some(Cell::Json(&json)))?.nanos, 1_704_063_600_000_000_000);
    /// # Ok::<(), String>(())
    /// ```
    pub fn read(self, cell: Option<Cell<'_>>) -> Result<Time, String> {
        // Integers (Arrow's columns; the lines of a log are text): a
        // product, not a text to parse. An RFC 3339 time reads one as
        // text, for its error.
        let number = match self {
            TimeFormat::Unit(u) => Some((u, TimeForm::Number(u))),
            TimeFormat::Auto => Some((Unit::S, TimeForm::Number(Unit::S))),
            TimeFormat::Epoch(u) => Some((u, TimeForm::Rfc3339)),
            TimeFormat::Rfc3339 => None,
        };
        if let (Some(Cell::Int(i)), Some((unit, form))) = (cell, number) {
            return match i.checked_mul(unit.nanos()) {
                Some(nanos) => Ok(Time { nanos, form }),
                None if form == TimeForm::Rfc3339 => Err(format!(
                    "the time {i} ({}) is out of range: date-times are read from 1677-09-21 to \
                     2262-04-11 (nanoseconds in 64 bits)",
                    unit.words()
                )),
                None => Err(format!(
                    "the time `{i}` is out of range (at most ±292 years of nanoseconds around 0)"
                )),
            };
        }
        let owned;
        let text: &str = match cell {
            None | Some(Cell::Json(serde_json::Value::Null)) => {
                return Err("no time (the field is absent)".to_string());
            }
            Some(Cell::Text(t)) => t,
            Some(Cell::Json(serde_json::Value::String(t))) => t,
            Some(Cell::Json(serde_json::Value::Number(n))) => {
                owned = n.to_string();
                &owned
            }
            Some(Cell::Int(i)) => {
                owned = i.to_string();
                &owned
            }
            Some(other) => {
                return Err(format!(
                    "the time {} is neither a number nor a date-time",
                    super::check::cell_text(Some(other))
                ));
            }
        };
        if let (Some((unit, form)), Some(whole)) = (number, plain_digits(text)) {
            // The common time of a log, a count of units in digits alone:
            // read at once (the general reading, with its trims, checks
            // and fraction, took half of a row's time). Out of range, the
            // general reading says so.
            if let Some(nanos) = whole.checked_mul(unit.nanos()) {
                return Ok(Time { nanos, form });
            }
        }
        let text = text.trim();
        if text.is_empty() {
            return Err("no time (the field is empty)".to_string());
        }
        let number = |unit: Unit| {
            number_nanos(text, unit).map(|nanos| Time {
                nanos,
                form: TimeForm::Number(unit),
            })
        };
        match self {
            TimeFormat::Unit(unit) => number(unit),
            TimeFormat::Epoch(unit) => number(unit).map(|t| Time {
                form: TimeForm::Rfc3339,
                ..t
            }),
            TimeFormat::Rfc3339 => date_time(text),
            TimeFormat::Auto if looks_numeric(text) => number(Unit::S),
            TimeFormat::Auto => date_time(text).map_err(|e| {
                format!("{e} (`--time FIELD` reads a number of seconds or a date-time)")
            }),
        }
    }
}

/// The value of `text` when it is 1 to 18 ASCII digits and nothing else
/// (below 10^18: no overflow).
#[inline]
fn plain_digits(text: &str) -> Option<i64> {
    let bytes = text.as_bytes();
    if bytes.is_empty() || bytes.len() > 18 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        bytes
            .iter()
            .fold(0i64, |w, &b| w * 10 + i64::from(b - b'0')),
    )
}

/// Whether `text` is meant as a number (a sign, digits, a point) rather
/// than a date-time (which has `-` or `:` after its first digits).
fn looks_numeric(text: &str) -> bool {
    let body = text.strip_prefix(['-', '+']).unwrap_or(text);
    !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// `text`, a decimal number of `unit`s, in nanoseconds, exactly.
fn number_nanos(text: &str, unit: Unit) -> Result<i64, String> {
    let bad = || {
        format!(
            "the time `{text}` is not a number of {} (digits, a sign, a decimal point)",
            unit.words()
        )
    };
    let (negative, body) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, frac) = match body.bytes().position(|b| b == b'.') {
        Some(k) => (&body[..k], &body[k + 1..]),
        None => (body, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) {
        return Err(bad());
    }
    let frac = frac.trim_end_matches('0');
    let out_of_range = || {
        format!("the time `{text}` is out of range (at most ±292 years of nanoseconds around 0)")
    };
    // Whole units (in a u64: a time of more is out of range anyway), then
    // the fraction: `frac` / 10^k of a unit must be a whole number of
    // nanoseconds. Exact integers, no float.
    let mut w: u64 = 0;
    for b in whole.bytes() {
        w = w
            .checked_mul(10)
            .and_then(|w| w.checked_add(u64::from(b - b'0')))
            .ok_or_else(out_of_range)?;
    }
    // Below 2^64 · 2^42: no overflow.
    let per = i128::from(unit.nanos());
    let mut n = i128::from(w) * per;
    if !frac.is_empty() {
        // A unit is 2^a·3^b·5^c nanoseconds with a ≤ 13 and c ≤ 11: a
        // fraction whose last digit is not 0 and that has more than 13
        // digits is never a whole number of nanoseconds (and 10^13 times a
        // unit fits an i128).
        if frac.len() > 13 {
            return Err(finer(text));
        }
        let f: i128 = frac.parse().map_err(|_| bad())?;
        let scale = 10i128.pow(frac.len() as u32);
        let scaled = f * per;
        if scaled % scale != 0 {
            return Err(finer(text));
        }
        n += scaled / scale;
    }
    let n = if negative { -n } else { n };
    i64::try_from(n).map_err(|_| out_of_range())
}

fn finer(text: &str) -> String {
    format!("the time `{text}` is finer than a nanosecond")
}

/// An RFC 3339 date-time, in nanoseconds since the epoch.
fn date_time(text: &str) -> Result<Time, String> {
    let ts: jiff::Timestamp = text.parse().map_err(|e: jiff::Error| {
        format!("the time `{text}` is not an RFC 3339 date-time with an offset (as in 2024-05-01T12:00:00Z): {e}")
    })?;
    let nanos = i64::try_from(ts.as_nanosecond()).map_err(|_| {
        format!(
            "the time `{text}` is out of range: date-times are read from 1677-09-21 to 2262-04-11 \
             (nanoseconds in 64 bits)"
        )
    })?;
    Ok(Time {
        nanos,
        form: TimeForm::Rfc3339,
    })
}

/// What to do with a time that goes back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TimeOrder {
    /// An error naming the event and both times (the default).
    #[default]
    Strict,
    /// The event is taken at the time before it (the latest so far) and
    /// counted ([`Report::late_events`](super::check::Report::late_events)).
    Lenient,
}

/// The times read so far: what the next time is compared with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Clock {
    /// The latest time so far, and the line of its event (for the error
    /// of a time that goes back).
    pub(crate) latest: Option<(Time, Option<u64>)>,
    /// How many events went back (lenient).
    pub(crate) late: u64,
}

impl Clock {
    /// The time of the event just read (`time`, read from its field, at
    /// line `line`), after the ones before: the time itself, or, for one
    /// that goes back, the error or (lenient) the latest time so far.
    pub(crate) fn tick(
        &mut self,
        time: Time,
        line: Option<u64>,
        order: TimeOrder,
    ) -> Result<Time, String> {
        match self.latest {
            Some((latest, at)) if time.nanos < latest.nanos => match order {
                TimeOrder::Strict => {
                    let before = match at {
                        Some(l) => format!("line {l}"),
                        None => "the event before".to_string(),
                    };
                    Err(format!(
                        "the time goes back: {time} here, after {latest} at {before} \
                         (times must not decrease; --time-order lenient takes such an event at the time before it)"
                    ))
                }
                TimeOrder::Lenient => {
                    self.late += 1;
                    Ok(Time {
                        nanos: latest.nanos,
                        form: time.form,
                    })
                }
            },
            _ => {
                self.latest = Some((time, line));
                Ok(time)
            }
        }
    }
}

/// The time field bound to a reader's fields: its index, how it is
/// written, and what a time that goes back does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeField {
    pub(crate) id: usize,
    pub(crate) format: TimeFormat,
    pub(crate) order: TimeOrder,
}

/// A reader whose events carry their times: each event read has its time
/// field read and ordered by `clock`, and its position has the time
/// ([`Position::timestamp`]). A bad time or one that goes back (strict) is
/// an error at the event, as a bad value is.
pub(crate) struct Timed<'a, R: ?Sized> {
    pub(crate) inner: &'a mut R,
    pub(crate) clock: &'a mut Clock,
    pub(crate) field: TimeField,
    pub(crate) now: Option<Time>,
}

impl<R: Reader + ?Sized> Reader for Timed<'_, R> {
    fn source(&self) -> &str {
        self.inner.source()
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        self.inner.resolve(name)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        self.now = None;
        if !self.inner.advance()? {
            return Ok(false);
        }
        let f = self.field;
        let time = f
            .format
            .read(self.inner.cell(f.id))
            .map_err(|m| self.inner.error_here(m))?;
        let line = self.inner.position().line;
        let time = self
            .clock
            .tick(time, line, f.order)
            .map_err(|m| self.inner.error_here(m))?;
        self.now = Some(time);
        Ok(true)
    }

    #[inline]
    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.inner.cell(id)
    }

    fn position(&self) -> Position {
        Position {
            timestamp: self.now,
            ..self.inner.position()
        }
    }

    fn restarted(&self) -> bool {
        self.inner.restarted()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Days from 1970-01-01 to a civil date (proleptic Gregorian), by
    /// counting years and months one at a time: the reference for jiff.
    fn days_from_epoch(year: i64, month: i64, day: i64) -> i64 {
        let leap = |y: i64| (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
        let mut days = 0i64;
        if year >= 1970 {
            for y in 1970..year {
                days += if leap(y) { 366 } else { 365 };
            }
        } else {
            for y in year..1970 {
                days -= if leap(y) { 366 } else { 365 };
            }
        }
        let lengths = [
            31,
            if leap(year) { 29 } else { 28 },
            31,
            30,
            31,
            30,
            31,
            31,
            30,
            31,
            30,
            31,
        ];
        days += lengths[..(month - 1) as usize].iter().sum::<i64>();
        days + day - 1
    }

    proptest! {
        /// Digits alone, read at once, are what the general reading of a
        /// number of units gives (or out of range for both), up to 19
        /// digits, leading zeros included.
        #[test]
        fn plain_digits_read_as_numbers_of_units(digits in "[0-9]{1,19}", unit in 0usize..6) {
            let unit = Unit::ALL[unit];
            let fast = TimeFormat::Unit(unit).read(Some(Cell::Text(&digits)));
            let general = number_nanos(&digits, unit);
            prop_assert_eq!(fast.as_ref().map(|t| t.nanos).map_err(|e| e.clone()), general);
            if let Ok(t) = fast {
                prop_assert_eq!(t.form, TimeForm::Number(unit));
                prop_assert_eq!(TimeFormat::Epoch(unit).read(Some(Cell::Text(&digits))).map(|t| t.nanos), Ok(t.nanos));
            }
            if unit == Unit::S {
                prop_assert_eq!(TimeFormat::Auto.read(Some(Cell::Text(&digits))), fast);
            }
        }

        /// Date-times read by jiff equal the nanoseconds counted by hand,
        /// before and after 1970, with fractions and offsets.
        #[test]
        fn date_times_are_the_nanoseconds_counted_by_hand(
            year in 1678i64..2262, month in 1i64..=12, day in 1i64..=28,
            hour in 0i64..24, minute in 0i64..60, second in 0i64..60,
            frac in 0i64..1_000_000_000, digits in 0usize..=9,
            offset_min in -(23 * 60 + 59)..(23 * 60 + 59i64), zulu: bool, space: bool,
        ) {
            let offset_min = if zulu { 0 } else { offset_min };
            let frac = frac - frac % 10i64.pow(9 - digits as u32);
            let frac_text = if digits == 0 { String::new() } else {
                format!(".{:09}", frac)[..=digits].to_string()
            };
            let offset = if zulu { "Z".to_string() } else {
                let sign = if offset_min < 0 { '-' } else { '+' };
                format!("{sign}{:02}:{:02}", offset_min.abs() / 60, offset_min.abs() % 60)
            };
            let sep = if space { ' ' } else { 'T' };
            let text = format!("{year:04}-{month:02}-{day:02}{sep}{hour:02}:{minute:02}:{second:02}{frac_text}{offset}");
            let seconds = days_from_epoch(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset_min * 60;
            let expected = i128::from(seconds) * 1_000_000_000 + i128::from(frac);
            match TimeFormat::Rfc3339.read(Some(Cell::Text(&text))) {
                Ok(t) => {
                    prop_assert_eq!(i128::from(t.nanos), expected, "{}", text);
                    // Shown in UTC, it reads back the same.
                    let back = TimeFormat::Rfc3339.read(Some(Cell::Text(&t.to_string()))).unwrap();
                    prop_assert_eq!(back, t);
                    prop_assert_eq!(TimeFormat::Auto.read(Some(Cell::Text(&text))).unwrap(), t);
                }
                Err(e) => prop_assert!(i64::try_from(expected).is_err(), "{}: {}", text, e),
            }
        }

        /// Numbers in a unit are exact: an integer and a decimal fraction
        /// give whole units times the unit plus the fraction's
        /// nanoseconds, as integers; shown, they read back the same.
        #[test]
        fn numbers_are_exact_in_every_unit(
            whole in -1_000_000_000i64..1_000_000_000, nanos in 0i64..3_600_000_000_000, unit in 0usize..6,
        ) {
            let unit = Unit::ALL[unit];
            let nanos = nanos % unit.nanos();
            let sign = if whole < 0 { "-" } else { "" };
            let expected = i128::from(whole) * i128::from(unit.nanos())
                + if whole < 0 { -i128::from(nanos) } else { i128::from(nanos) };
            // The fraction as a decimal of the unit, when it is one.
            let per = u128::from(unit.nanos() as u64);
            let text = if nanos == 0 {
                format!("{whole}")
            } else {
                let mut digits = String::new();
                let (mut rem, mut k) = (nanos as u128, 0);
                while rem != 0 && k < 40 {
                    rem *= 10;
                    digits.push(char::from(b'0' + (rem / per) as u8));
                    rem %= per;
                    k += 1;
                }
                if rem != 0 {
                    // Not a finite decimal of the unit (minutes, hours).
                    return Ok(());
                }
                format!("{sign}{}.{digits}", whole.abs())
            };
            let t = TimeFormat::Unit(unit).read(Some(Cell::Text(&text)));
            match i64::try_from(expected) {
                Ok(e) => {
                    let t = t.unwrap();
                    prop_assert_eq!(t.nanos, e, "{}", text);
                    prop_assert_eq!(TimeFormat::Unit(unit).read(Some(Cell::Text(&t.to_string()))).unwrap(), t);
                }
                Err(_) => prop_assert!(t.is_err()),
            }
        }

        /// An integer (an Arrow column's value) is its product with the
        /// unit, counted in i128, or out of range: in a unit (shown as a
        /// number) and since the epoch (Arrow's time stamps, shown as a
        /// date-time whose text reads back to the same nanoseconds).
        #[test]
        fn integers_are_products_with_their_unit(i in any::<i64>(), small in -10_000_000_000i64..10_000_000_000, unit in 0usize..6) {
            let unit = Unit::ALL[unit];
            for i in [i, small] {
                let expected = i64::try_from(i128::from(i) * i128::from(unit.nanos())).ok();
                let number = TimeFormat::Unit(unit).read(Some(Cell::Int(i)));
                let epoch = TimeFormat::Epoch(unit).read(Some(Cell::Int(i)));
                match expected {
                    Some(e) => {
                        prop_assert_eq!(number.unwrap(), Time { nanos: e, form: TimeForm::Number(unit) });
                        let t = epoch.unwrap();
                        prop_assert_eq!(t, Time { nanos: e, form: TimeForm::Rfc3339 });
                        prop_assert_eq!(TimeFormat::Rfc3339.read(Some(Cell::Text(&t.to_string()))).unwrap(), t);
                    }
                    None => prop_assert!(number.is_err() && epoch.is_err()),
                }
            }
        }

        /// A lenient clock gives each event the running maximum of the
        /// times, and counts the events below it; a strict one fails at
        /// the first of them.
        #[test]
        fn clocks_keep_times_non_decreasing(times in proptest::collection::vec(-5i64..5, 0..30)) {
            let mut lenient = Clock::default();
            let mut strict = Clock::default();
            let mut max: Option<i64> = None;
            let mut late = 0;
            let mut failed = false;
            for (k, &n) in times.iter().enumerate() {
                let t = Time { nanos: n, form: TimeForm::Number(Unit::Ns) };
                let going_back = max.is_some_and(|m| n < m);
                late += u64::from(going_back);
                let expected = max.map_or(n, |m| m.max(n));
                max = Some(expected);
                prop_assert_eq!(lenient.tick(t, Some(k as u64), TimeOrder::Lenient).unwrap().nanos, expected);
                if !failed {
                    let r = strict.tick(t, Some(k as u64), TimeOrder::Strict);
                    prop_assert_eq!(r.is_err(), going_back);
                    failed = going_back;
                }
            }
            prop_assert_eq!(lenient.late, late);
        }
    }

    #[test]
    fn a_fixed_table_of_times() {
        // Computed apart (Python: datetime.fromisoformat(...).timestamp()).
        let table = [
            ("1970-01-01T00:00:00Z", 0),
            ("2024-02-29T23:59:59.999999999Z", 1_709_251_199_999_999_999),
            ("1969-07-20T20:17:40Z", -14_182_940_000_000_000),
            ("2000-01-01T01:00:00+01:00", 946_684_800_000_000_000),
            ("1677-09-21T00:12:44Z", -9_223_372_036_000_000_000),
        ];
        for (text, nanos) in table {
            assert_eq!(
                TimeFormat::Auto.read(Some(Cell::Text(text))).unwrap().nanos,
                nanos,
                "{text}"
            );
        }
        let errors = [
            (TimeFormat::Rfc3339, "2024-01-01T00:00:00", "offset"),
            (TimeFormat::Rfc3339, "1500", "RFC 3339"),
            (
                TimeFormat::Unit(Unit::S),
                "12:00",
                "not a number of seconds",
            ),
            (TimeFormat::Unit(Unit::S), "1e3", "not a number"),
            (
                TimeFormat::Unit(Unit::Ms),
                "1.0000005",
                "finer than a nanosecond",
            ),
            (TimeFormat::Unit(Unit::H), "3000000", "out of range"),
            (TimeFormat::Auto, "1000-01-01T00:00:00Z", "out of range"),
            (TimeFormat::Auto, "", "empty"),
            (
                TimeFormat::Auto,
                "soon",
                "a number of seconds or a date-time",
            ),
        ];
        for (format, text, says) in errors {
            let e = format.read(Some(Cell::Text(text))).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
        assert!(TimeFormat::Auto.read(None).unwrap_err().contains("absent"));
    }
}
