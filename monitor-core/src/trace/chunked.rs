//! Checking a large log on several cores.
//!
//! CSV (without quoted fields) and JSON Lines hold one event per line, so
//! a log can be cut at line ends into chunks that are read independently.
//! The log is read in batches of a few chunks per core; on rayon's pool,
//! each chunk is parsed, its events turned into the letters of every
//! property, and each property's run over the chunk summarized from every
//! state ([`Summary`]). The summaries are then applied in order: a
//! property's monitor jumps over a chunk in which nothing happens to it;
//! a chunk in which some property is violated or satisfied (or which
//! cannot be read) is read again, in order, by the one-pass
//! [`Checker`], which explains the violation, counts restarts (`--all`)
//! and reports errors exactly as a sequential run does. The reports are
//! therefore those of [`Checker::run`] on the whole log, line numbers
//! and explanations included; memory stays that of one batch.
//!
//! A CSV log with a quote (`"`) may have a line break inside a field:
//! from the first batch that has one, the rest is checked in one pass; so
//! is the rest of a log from a line longer than a batch. CSV lines end at
//! `\n`, `\r\n` or a lone `\r`, as the `csv` crate reads them (JSON Lines
//! at `\n`), and no chunk is cut between the `\r` and the `\n` of a line
//! end; the header row is read by [`CsvReader::new`], as one pass reads it.
//! `tests/reader_fuzz.rs` compares this path with one pass on damaged and
//! random logs.
//!
//! ```
//! use monitor_core::trace::check::{Checker, Options, Property};
//! use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
//! use monitor_core::trace::expr::Expr;
//! use monitor_core::MonitorTable;
//!
//! let mut log = String::from("req,ack\n");
//! for i in 0..10_000 {
//!     log.push_str(if i == 7_000 { "1,0\n" } else { "0,1\n" });
//! }
//! let table = MonitorTable::from_ltl("G(req -> X !ack)")?;
//! let bindings = vec![Expr::parse("req")?, Expr::parse("ack")?];
//! let props = vec![Property::new("G(req -> X !ack)", table, bindings)];
//! let mut checker = Checker::new(props, Options::default());
//! let reports = check_lines(&mut checker, LineFormat::Csv, "log.csv", log.as_bytes(), Chunking::Bytes(4096))?;
//! // The 7001st record is on line 7002; the violation is one line later.
//! assert_eq!(reports[0].violations[0].at.line, Some(7_003));
//! assert_eq!(reports[0].events, 10_000);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::Read;

use rayon::prelude::*;

use super::check::{Bound, Checker, Report};
use super::reader::{line_ends, CsvReader, JsonlReader, Position, Reader, TraceError, UnquotedCsv};
use super::time::{Clock, Time, TimeForm, Timed, Unit};
use crate::runtime::Summary;

/// The line-based formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineFormat {
    /// CSV with a header row.
    Csv,
    /// JSON Lines.
    Jsonl,
}

/// How a log is cut into chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Chunking {
    /// Chunks of about this many bytes (cut at the next line end).
    Bytes(usize),
    /// Chunks of this many lines.
    Lines(usize),
}

impl Default for Chunking {
    /// Chunks of 1 MiB.
    fn default() -> Self {
        Chunking::Bytes(1 << 20)
    }
}

/// What one chunk of a trace does to every property of a checker: for
/// each property, the summary of its monitor's run over the chunk from
/// every state ([`Summary`]), with the chunk's number of events and
/// lines, and its last events (for the explanations of violations just
/// after it). It is made where the chunk is (a core, a Spark executor:
/// [`ChunkedCheck::summarize`]), sent as bytes
/// ([`ChunkSummary::to_bytes`]: a few integers per monitor state), and
/// applied, in order, where the trace is checked ([`ChunkedCheck::skip`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkSummary {
    events: u64,
    lines: u64,
    /// Whether every event of the chunk could be read and evaluated (if
    /// not, the checker reads the chunk again and says why).
    readable: bool,
    /// For each property: the summary of its run over the chunk (`None`
    /// for a decided property, one of more than 64 propositions, or a
    /// lazy monitor).
    summaries: Vec<Option<Summary>>,
    /// With [`Options::all`](super::check::Options::all), the same
    /// summaries in restarting mode, to foresee which chunks must be read
    /// ([`ChunkedCheck::plan`]); empty otherwise.
    restarting: Vec<Option<Summary>>,
    /// The last events (position within the chunk, atoms), for
    /// explanations of later violations.
    tail: Vec<(Position, Vec<u64>)>,
    /// The texts of the fields shown ([`Checker::set_show`]) at each
    /// event of `tail`; empty when none is shown.
    tail_shown: Vec<Vec<Option<String>>>,
    /// With times ([`Checker::set_time`](super::check::Checker::set_time)):
    /// the chunk's times read on their own (`None` without times).
    times: Option<ChunkTimes>,
}

/// The times of a chunk, read from its first event on with nothing
/// before it: what the chunk does to the clock when its first time is not
/// before the latest time of the chunks before it (then no time of the
/// chunk is compared with an earlier chunk's but the first). Otherwise the
/// chunk is read again, after the others, to say which time goes back
/// (strict) or to take its events at the times before (lenient).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ChunkTimes {
    /// The first event's time (`None`: no event).
    first: Option<Time>,
    /// The latest time and its event's line within the chunk.
    latest: Option<(Time, Option<u64>)>,
    /// How many events went back within the chunk (lenient).
    late: u64,
}

/// Writes an optional time: a flag, its nanoseconds, its form.
fn put_time(out: &mut Vec<u8>, t: Option<Time>) {
    let Some(t) = t else {
        out.push(0);
        return;
    };
    out.push(1);
    out.extend_from_slice(&t.nanos.to_le_bytes());
    out.push(match t.form {
        TimeForm::Number(u) => Unit::ALL.iter().position(|&v| v == u).unwrap_or(0) as u8,
        TimeForm::Rfc3339 => Unit::ALL.len() as u8,
    });
}

/// Reads what [`put_time`] wrote.
fn take_time(b: &mut &[u8]) -> Option<Option<Time>> {
    use crate::runtime::summary::{take, take_u64};
    match take(b, 1)? {
        [0] => return Some(None),
        [1] => {}
        _ => return None,
    }
    let nanos = take_u64(b)? as i64;
    let form = match usize::from(take(b, 1)?[0]) {
        u if u < Unit::ALL.len() => TimeForm::Number(Unit::ALL[u]),
        u if u == Unit::ALL.len() => TimeForm::Rfc3339,
        _ => return None,
    };
    Some(Some(Time { nanos, form }))
}

/// The first bytes of [`ChunkSummary::to_bytes`].
const MAGIC: &[u8; 8] = b"mgchunk3";

impl ChunkSummary {
    /// The number of events of the chunk.
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let s = check.summarize(piece("0\n1\n0\n"), 3);
    /// assert_eq!(s.events(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Whether every event of the chunk could be read and evaluated (a
    /// chunk that could not is read again by the checker, which reports
    /// why).
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert!(check.summarize(piece("0\n1\n"), 2).is_readable());
    /// // `2` is not a Boolean: the checker reads the chunk again and says so.
    /// assert!(!check.summarize(piece("0\n2\n"), 2).is_readable());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_readable(&self) -> bool {
        self.readable
    }

    /// The summary as bytes, to send to the machine that combines
    /// summaries; read back with [`ChunkSummary::from_bytes`].
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::chunked::{ChunkSummary, ChunkedCheck};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// let chunk = "a\n1\n0\n1\n";
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("t", chunk.as_bytes())?)?;
    /// let s = check.summarize(CsvReader::new("t", chunk.as_bytes())?, 0);
    /// assert_eq!(ChunkSummary::from_bytes(&s.to_bytes()), Some(s));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        let opt = |out: &mut Vec<u8>, v: Option<u64>| match v {
            Some(v) => {
                out.push(1);
                out.extend_from_slice(&v.to_le_bytes());
            }
            None => out.push(0),
        };
        out.extend_from_slice(&self.events.to_le_bytes());
        out.extend_from_slice(&self.lines.to_le_bytes());
        out.push(u8::from(self.readable));
        for list in [&self.summaries, &self.restarting] {
            out.extend_from_slice(&(list.len() as u64).to_le_bytes());
            for s in list {
                match s {
                    Some(s) => {
                        out.push(1);
                        s.encode(&mut out);
                    }
                    None => out.push(0),
                }
            }
        }
        out.extend_from_slice(&(self.tail.len() as u64).to_le_bytes());
        for (at, bits) in &self.tail {
            out.extend_from_slice(&at.index.to_le_bytes());
            opt(&mut out, at.line);
            opt(&mut out, at.time);
            put_time(&mut out, at.timestamp);
            out.extend_from_slice(&(bits.len() as u64).to_le_bytes());
            for w in bits {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out.extend_from_slice(&(self.tail_shown.len() as u64).to_le_bytes());
        for values in &self.tail_shown {
            out.extend_from_slice(&(values.len() as u64).to_le_bytes());
            for v in values {
                match v {
                    Some(text) => {
                        out.push(1);
                        out.extend_from_slice(&(text.len() as u64).to_le_bytes());
                        out.extend_from_slice(text.as_bytes());
                    }
                    None => out.push(0),
                }
            }
        }
        match &self.times {
            None => out.push(0),
            Some(t) => {
                out.push(1);
                put_time(&mut out, t.first);
                put_time(&mut out, t.latest.map(|(t, _)| t));
                opt(&mut out, t.latest.and_then(|(_, line)| line));
                out.extend_from_slice(&t.late.to_le_bytes());
            }
        }
        out
    }

    /// Reads a summary written by [`ChunkSummary::to_bytes`]; `None` if
    /// the bytes are not one.
    ///
    /// ```
    /// use monitor_core::trace::chunked::ChunkSummary;
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    ///
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let s = check.summarize(piece("0\n1\n"), 2);
    /// let bytes = s.to_bytes();
    /// assert_eq!(ChunkSummary::from_bytes(&bytes), Some(s));
    /// assert_eq!(ChunkSummary::from_bytes(&bytes[..bytes.len() - 1]), None);
    /// assert_eq!(ChunkSummary::from_bytes(b"not a summary"), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_bytes(bytes: &[u8]) -> Option<ChunkSummary> {
        use crate::runtime::summary::{take, take_u64};
        let mut b = bytes;
        if take(&mut b, MAGIC.len())? != MAGIC {
            return None;
        }
        let flag = |b: &mut &[u8]| match take(b, 1)? {
            [0] => Some(false),
            [1] => Some(true),
            _ => None,
        };
        let opt = |b: &mut &[u8]| -> Option<Option<u64>> {
            Some(if flag(b)? { Some(take_u64(b)?) } else { None })
        };
        // A count is at most one item per remaining byte.
        let count = |b: &mut &[u8]| -> Option<usize> {
            let n = usize::try_from(take_u64(b)?).ok()?;
            (n <= b.len()).then_some(n)
        };
        let events = take_u64(&mut b)?;
        let lines = take_u64(&mut b)?;
        let readable = flag(&mut b)?;
        let mut lists = [Vec::new(), Vec::new()];
        for list in &mut lists {
            let n = count(&mut b)?;
            for _ in 0..n {
                list.push(if flag(&mut b)? {
                    Some(Summary::decode(&mut b)?)
                } else {
                    None
                });
            }
        }
        let n = count(&mut b)?;
        let mut tail = Vec::with_capacity(n);
        for _ in 0..n {
            let index = take_u64(&mut b)?;
            let line = opt(&mut b)?;
            let time = opt(&mut b)?;
            let timestamp = take_time(&mut b)?;
            let words = count(&mut b)?;
            let bits = (0..words)
                .map(|_| take_u64(&mut b))
                .collect::<Option<Vec<u64>>>()?;
            tail.push((
                Position {
                    index,
                    line,
                    time,
                    timestamp,
                },
                bits,
            ));
        }
        let n = count(&mut b)?;
        let mut tail_shown = Vec::with_capacity(n);
        for _ in 0..n {
            let fields = count(&mut b)?;
            let mut values = Vec::with_capacity(fields);
            for _ in 0..fields {
                values.push(if flag(&mut b)? {
                    let len = count(&mut b)?;
                    Some(String::from_utf8(take(&mut b, len)?.to_vec()).ok()?)
                } else {
                    None
                });
            }
            tail_shown.push(values);
        }
        let times = if flag(&mut b)? {
            let first = take_time(&mut b)?;
            let latest = take_time(&mut b)?;
            let line = opt(&mut b)?;
            let late = take_u64(&mut b)?;
            Some(ChunkTimes {
                first,
                latest: latest.map(|t| (t, line)),
                late,
            })
        } else {
            None
        };
        let [summaries, restarting] = lists;
        b.is_empty().then_some(ChunkSummary {
            times,
            events,
            lines,
            readable,
            summaries,
            restarting,
            tail,
            tail_shown,
        })
    }
}

/// A trace checked chunk by chunk, in order: each chunk is either skipped
/// with its summary, when nothing happens to any property in it, or read
/// by the [`Checker`], which explains violations as a run over the whole
/// trace does. The chunks may be summarized anywhere (other cores, other
/// machines), from the same properties and fields; the reports are those
/// of [`Checker::run`] on the whole trace.
///
/// ```
/// use monitor_core::trace::check::{Checker, Options, Property};
/// use monitor_core::trace::chunked::ChunkedCheck;
/// use monitor_core::trace::expr::Expr;
/// use monitor_core::trace::reader::CsvReader;
/// use monitor_core::MonitorTable;
///
/// let chunks = ["a\n0\n1\n", "a\n0\n0\n", "a\n1\n1\n"];
/// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
/// let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
/// // Where the chunks are: their summaries.
/// let mut worker = Checker::new(props.clone(), Options::default());
/// let check = ChunkedCheck::new(&mut worker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
/// let summaries: Vec<_> = chunks
///     .iter()
///     .map(|c| check.summarize(CsvReader::new("log", c.as_bytes()).unwrap(), 0))
///     .collect();
/// // Where the trace is checked: the first two chunks are skipped, the
/// // third one (a violation) is read.
/// let mut checker = Checker::new(props, Options::default());
/// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
/// assert_eq!(check.plan(&summaries), [false, false, true]);
/// for (c, s) in chunks.iter().zip(&summaries) {
///     if !check.skip(s) {
///         let mut r = CsvReader::with_headers("log", vec!["a".into()], &c.as_bytes()[2..], check.index(), 0);
///         check.read(&mut r, 0)?;
///     }
/// }
/// let reports = check.finish();
/// assert_eq!(reports[0].violations[0].at.index, 5);
/// assert_eq!(reports[0].events, 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ChunkedCheck<'c> {
    checker: &'c mut Checker,
    bound: Bound,
    /// The index of the next event.
    index: u64,
    /// The line of the next event.
    line: u64,
}

impl<'c> ChunkedCheck<'c> {
    /// Starts checking a trace whose fields are those of `reader` (only
    /// their names are read: a reader of an empty trace of the same
    /// format will do), with every monitor in its initial state.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::chunked::ChunkedCheck;
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// // Only the header row is read.
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert_eq!((check.index(), check.line()), (0, 1));
    /// drop(check);
    /// let err = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"b\n"[..])?).err().unwrap();
    /// assert_eq!(err.message, "no column `a` (the columns are: b)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new<R: Reader + ?Sized>(
        checker: &'c mut Checker,
        reader: &mut R,
    ) -> Result<ChunkedCheck<'c>, TraceError> {
        checker.begin();
        let bound = checker.bind(reader)?;
        Ok(ChunkedCheck {
            checker,
            bound,
            index: 0,
            line: 1,
        })
    }

    /// The check with its first chunk starting at line `line` of the
    /// input (counted from 1; `new` starts at line 1): 2 for a CSV file
    /// whose header row is read apart, so that positions are the file's.
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G !a")?;
    /// # let props = vec![Property::new("G !a", table, vec![Expr::parse("a")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// let headers = CsvReader::new("log", &b"a\n"[..])?;
    /// let check = ChunkedCheck::new(&mut checker, &mut { headers })?.starting_at_line(2);
    /// assert_eq!(check.line(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn starting_at_line(mut self, line: u64) -> ChunkedCheck<'c> {
        self.line = line;
        self
    }

    /// The index of the next event (the first event of the next chunk).
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert_eq!(check.index(), 0);
    /// let s = check.summarize(piece("0\n1\n0\n"), 3);
    /// assert!(check.skip(&s));
    /// assert_eq!(check.index(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The line of the next event, for formats with lines (from 1, and
    /// what [`ChunkedCheck::read`] and [`ChunkedCheck::skip`] added).
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert_eq!(check.line(), 1);
    /// let s = check.summarize(piece("0\n\n1\n"), 3); // a blank line
    /// assert!(check.skip(&s));
    /// assert_eq!((check.index(), check.line()), (2, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn line(&self) -> u64 {
        self.line
    }

    /// Summarizes a chunk (read by `reader`, whose events count from 0 and
    /// lines from 1; `lines`: its number of line ends, 0 for formats
    /// without lines). This reads the chunk in full but changes nothing:
    /// chunks are summarized in any order, on any thread.
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let quiet = check.summarize(piece("0\n1\n"), 2);
    /// let bad = check.summarize(piece("1\n1\n"), 2); // a violation from any state
    /// assert_eq!((quiet.events(), bad.events()), (2, 2));
    /// assert_eq!(check.plan(&[quiet, bad]), [false, true]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn summarize<R: Reader>(&self, reader: R, lines: u64) -> ChunkSummary {
        self.summarize_with(reader, lines, self.checker.options().all)
    }

    /// [`ChunkedCheck::summarize`], with restarting summaries or not.
    fn summarize_with<R: Reader>(
        &self,
        mut reader: R,
        lines: u64,
        restarting: bool,
    ) -> ChunkSummary {
        let Some(field) = self.bound.time else {
            return self.summarize_events(&mut reader, lines, restarting);
        };
        // The chunk's times on their own, from a clock of its own.
        let mut clock = Clock::default();
        let mut timed = Timed {
            inner: &mut reader,
            clock: &mut clock,
            field,
            now: None,
        };
        let mut summary = self.summarize_events(&mut timed, lines, restarting);
        if summary.readable {
            summary.times = Some(ChunkTimes {
                first: summary.times.and_then(|t| t.first),
                latest: clock.latest,
                late: clock.late,
            });
        }
        summary
    }

    /// [`ChunkedCheck::summarize_with`], the times (if any) read by
    /// `reader` (the first one kept in the summary's `times`).
    fn summarize_events<R: Reader + ?Sized>(
        &self,
        reader: &mut R,
        lines: u64,
        restarting: bool,
    ) -> ChunkSummary {
        let (checker, bound) = (&*self.checker, &self.bound);
        let n = checker.len();
        let unreadable = ChunkSummary {
            events: 0,
            lines,
            readable: false,
            summaries: vec![None; n],
            restarting: Vec::new(),
            tail: Vec::new(),
            tail_shown: Vec::new(),
            times: None,
        };
        if !self.summarizes() {
            return unreadable;
        }
        bound.attach(reader);
        let mut first_time: Option<Time> = None;
        let live: Vec<usize> = (0..n).filter(|&i| checker.state(i).is_some()).collect();
        // The atoms of every event, one after the other (`words` each); the
        // letters of one property at a time are made from them, so that the
        // letters in memory are those of one property (they stay in cache).
        let words = bound.words;
        let mut all: Vec<u64> = Vec::new();
        let keep = checker.context() + 1;
        let mut positions: std::collections::VecDeque<Position> =
            std::collections::VecDeque::with_capacity(keep);
        // The shown fields' texts at the events of `positions`.
        let show = !bound.show.is_empty();
        let mut shown: std::collections::VecDeque<Vec<Option<String>>> =
            std::collections::VecDeque::with_capacity(if show { keep } else { 0 });
        let mut bits = vec![0u64; words];
        let mut events = 0u64;
        loop {
            match reader.advance() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => return unreadable,
            }
            events += 1;
            if events == 1 {
                first_time = reader.position().timestamp;
            }
            if bound.eval(&*reader, &mut bits).is_err() {
                return unreadable;
            }
            all.extend_from_slice(&bits);
            if positions.len() == keep {
                positions.pop_front();
            }
            positions.push_back(reader.position());
            if show {
                // (The oldest entry's vector is reused.)
                let mut values = if shown.len() == keep {
                    shown.pop_front().unwrap_or_default()
                } else {
                    Vec::new()
                };
                bound.shown_values(&*reader, &mut values);
                shown.push_back(values);
            }
        }
        let mut summaries: Vec<Option<Summary>> = vec![None; n];
        let mut restarts: Vec<Option<Summary>> = vec![None; if restarting { n } else { 0 }];
        let mut letters: Vec<u64> = Vec::with_capacity(events as usize);
        for &i in &live {
            letters.clear();
            if !checker.letters(i, &all, words, &mut letters) {
                // More than 64 propositions: read again in one pass.
                continue;
            }
            if let Some(t) = checker.table(i) {
                summaries[i] = Some(Summary::of_letters(&t, &letters));
                if restarting {
                    restarts[i] = Some(Summary::of_letters_restarting(&t, &letters));
                }
            }
        }
        let first = events as usize - positions.len();
        let tail = positions
            .into_iter()
            .enumerate()
            .map(|(k, at)| {
                (
                    at,
                    all[(first + k) * words..(first + k + 1) * words].to_vec(),
                )
            })
            .collect();
        ChunkSummary {
            events,
            lines,
            readable: true,
            summaries,
            restarting: restarts,
            tail,
            tail_shown: shown.into(),
            times: Some(ChunkTimes {
                first: first_time,
                latest: None,
                late: 0,
            }),
        }
    }

    /// Whether chunks can be summarized: not with a lazy monitor (no table
    /// to summarize with) or a reset (held monitors). Otherwise every
    /// chunk is read.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    ///
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert!(check.summarizes());
    /// let lazy = LazyMonitor::from_ltl("G(a -> X !a)")?;
    /// let mut checker = Checker::new(vec![Property::lazy("lazy", lazy, vec![Expr::parse("a")?])], Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// assert!(!check.summarizes());
    /// assert!(!check.summarize(piece("0\n"), 1).is_readable());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn summarizes(&self) -> bool {
        !self.bound.has_reset() && !self.checker.has_lazy() && !self.checker.has_timed()
    }

    /// Skips the chunk `summary` summarizes if nothing happens in it to
    /// any property (no violation, no good prefix, every event readable):
    /// the monitors jump to where the chunk leaves them. Returns `false`,
    /// changing nothing, if the chunk must be read
    /// ([`ChunkedCheck::read`]).
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let first = check.summarize(piece("0\n1\n"), 2);
    /// let second = check.summarize(piece("1\n0\n"), 2);
    /// assert!(check.skip(&first)); // the monitor is now after an `a`
    /// assert!(!check.skip(&second)); // `a` again: a violation, to be read
    /// assert_eq!(check.index(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn skip(&mut self, summary: &ChunkSummary) -> bool {
        if !summary.readable || summary.summaries.len() != self.checker.len() {
            return false;
        }
        // A summary without the texts of the fields shown (made by a
        // checker that shows none) cannot stand for the chunk's events in
        // an explanation.
        if !self.bound.show.is_empty() && summary.tail_shown.len() != summary.tail.len() {
            return false;
        }
        // With times: a chunk whose first time is before the latest so far
        // is read again (see `ChunkTimes`).
        let times = match (self.bound.time, &summary.times) {
            (None, _) => None,
            (Some(_), None) => return false,
            (Some(_), Some(t)) => {
                if goes_back(t, &self.checker.clock) {
                    return false;
                }
                Some(*t)
            }
        };
        // Where each property's monitor is after the chunk, if nothing
        // happens to any of them in it.
        let mut ends = Vec::new();
        for i in 0..self.checker.len() {
            let Some(q) = self.checker.state(i) else {
                continue;
            };
            let Some(s) = &summary.summaries[i] else {
                return false;
            };
            let fits = self.checker.table(i).map(|t| t.num_states()) == Some(s.num_states());
            let run = s.run_from(q);
            if !fits || run.violated_at.is_some() || run.satisfied_at.is_some() {
                return false;
            }
            let Some(end) = run.end else { return false };
            ends.push((i, end));
        }
        for (i, q) in ends {
            self.checker.set_state(i, q);
        }
        let (index, line) = (self.index, self.line);
        let tail = summary.tail.iter().enumerate().map(|(k, (at, bits))| {
            let at = Position {
                index: at.index + index,
                line: at.line.map(|l| l + line - 1),
                time: at.time,
                timestamp: at.timestamp,
            };
            let shown = summary.tail_shown.get(k).map_or(&[][..], Vec::as_slice);
            (at, bits.as_slice(), shown)
        });
        self.checker.skip(summary.events, tail);
        if let Some(t) = times {
            let clock = &mut self.checker.clock;
            if let Some((latest, at)) = t.latest {
                clock.latest = Some((latest, at.map(|l| l + line - 1)));
            }
            clock.late += t.late;
        }
        self.index += summary.events;
        self.line += summary.lines;
        true
    }

    /// Reads a chunk with the checker (`reader` numbers its events from
    /// [`ChunkedCheck::index`] and its lines from [`ChunkedCheck::line`];
    /// `lines`: the chunk's number of line ends).
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let first = check.summarize(piece("0\n1\n"), 2);
    /// assert!(check.skip(&first));
    /// let chunk = "1\n0\n";
    /// let mut r = CsvReader::with_headers("log", vec!["a".into()], chunk.as_bytes(), check.index(), check.line());
    /// check.read(&mut r, 2)?;
    /// assert_eq!((check.index(), check.line()), (4, 5));
    /// let v = &check.finish()[0].violations[0];
    /// assert_eq!((v.at.index, v.at.line), (2, Some(3)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        lines: u64,
    ) -> Result<(), TraceError> {
        self.bound.attach(reader);
        let before = self.checker.events();
        self.checker.feed(reader, &self.bound, &mut |_, _| {})?;
        self.index += self.checker.events() - before;
        self.line += lines;
        Ok(())
    }

    /// Which of the chunks `summaries` summarizes, in order, will have to
    /// be read ([`ChunkedCheck::skip`] refusing them), foreseen from the
    /// summaries alone: the chunks where some property is violated or
    /// satisfied (or that cannot be read). This lets a distributed
    /// checker fetch them all at once. (From a chunk that cannot be read
    /// on, nothing is foreseen.)
    ///
    /// ```
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    /// let mut checker = Checker::new(props, Options::default());
    /// let check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// let summaries: Vec<_> = ["0\n1\n", "1\n0\n", "1\n1\n"]
    ///     .into_iter()
    ///     .map(|c| check.summarize(piece(c), 2))
    ///     .collect();
    /// // The second chunk violates the property; after it, nothing is checked.
    /// assert_eq!(check.plan(&summaries), [false, true, false]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn plan(&self, summaries: &[ChunkSummary]) -> Vec<bool> {
        let all = self.checker.options().all;
        let mut states: Vec<Option<u32>> = (0..self.checker.len())
            .map(|i| self.checker.state(i))
            .collect();
        let mut need = vec![false; summaries.len()];
        let mut clock = self.checker.clock;
        for (k, c) in summaries.iter().enumerate() {
            let list = if all { &c.restarting } else { &c.summaries };
            if !c.readable || list.len() != states.len() {
                need[k] = true;
                break;
            }
            if self.bound.time.is_some() {
                let Some(t) = &c.times else {
                    need[k] = true;
                    break;
                };
                // Read again, the chunk leaves the latest time the later of
                // the two (or stops at an error).
                need[k] |= goes_back(t, &clock);
                if let Some((latest, _)) = t.latest {
                    if clock.latest.is_none_or(|(l, _)| l.nanos <= latest.nanos) {
                        clock.latest = Some((latest, None));
                    }
                }
            }
            for (i, state) in states.iter_mut().enumerate() {
                let Some(q) = *state else { continue };
                let Some(s) = &list[i] else {
                    need[k] = true;
                    *state = None;
                    continue;
                };
                let run = s.run_from(q);
                if run.violated_at.is_some() || run.satisfied_at.is_some() {
                    need[k] = true;
                }
                // Decided (satisfied, or violated without restarts), or
                // where the run ends.
                *state = if run.satisfied_at.is_some() {
                    None
                } else {
                    run.end
                };
            }
        }
        need
    }

    /// The reports, once every chunk is skipped or read.
    ///
    /// ```
    /// use monitor_core::Verdict;
    /// # use monitor_core::trace::check::{Checker, Options, Property};
    /// # use monitor_core::trace::chunked::ChunkedCheck;
    /// # use monitor_core::trace::expr::Expr;
    /// # use monitor_core::trace::reader::CsvReader;
    /// # use monitor_core::MonitorTable;
    /// # let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// # let props = vec![Property::new("G(a -> X !a)", table, vec![Expr::parse("a")?])];
    /// # let piece = |text: &'static str| CsvReader::with_headers("log", vec!["a".into()], text.as_bytes(), 0, 1);
    ///
    /// let mut checker = Checker::new(props, Options::default());
    /// let mut check = ChunkedCheck::new(&mut checker, &mut CsvReader::new("log", &b"a\n"[..])?)?;
    /// for c in ["0\n1\n", "0\n0\n"] {
    ///     let s = check.summarize(piece(c), 2);
    ///     assert!(check.skip(&s));
    /// }
    /// let reports = check.finish();
    /// assert_eq!((reports[0].verdict, reports[0].events), (Verdict::Undecided, 4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn finish(self) -> Vec<Report> {
        self.checker.finish()
    }
}

/// Whether the first time of a chunk (`times`) goes back from the latest
/// time before it (`clock`).
fn goes_back(times: &ChunkTimes, clock: &Clock) -> bool {
    match (times.first, clock.latest) {
        (Some(first), Some((latest, _))) => first.nanos < latest.nanos,
        _ => false,
    }
}

/// Checks the log `input` with `checker`, in chunks on rayon's pool (see
/// the [module documentation](self)); the reports are those of
/// [`Checker::run`].
///
/// ```
/// use monitor_core::trace::check::{Checker, Options, Property};
/// use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
/// use monitor_core::trace::expr::Expr;
/// use monitor_core::trace::reader::JsonlReader;
/// use monitor_core::MonitorTable;
///
/// let log: String = (0..100).map(|i| format!("{{\"latency\": {}}}\n", if i == 60 { 500 } else { 20 })).collect();
/// let table = MonitorTable::from_ltl("G !slow")?;
/// let props = vec![Property::new("G !slow", table, vec![Expr::parse("latency > 100")?])];
/// let mut checker = Checker::new(props, Options::default());
/// let chunked = check_lines(&mut checker, LineFormat::Jsonl, "log", log.as_bytes(), Chunking::Lines(8))?;
/// assert_eq!(chunked[0].violations[0].at.line, Some(61));
/// // The reports of a run in one pass.
/// let whole = checker.run(&mut JsonlReader::new("log", log.as_bytes()))?;
/// assert_eq!(chunked, whole);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_lines<R: Read>(
    checker: &mut Checker,
    format: LineFormat,
    source: &str,
    input: R,
    chunking: Chunking,
) -> Result<Vec<Report>, TraceError> {
    let log = LineLog::open(format, source, input)?;
    let mut check = ChunkedCheck::new(checker, &mut *log.reader(&[], 0, log.line()))?
        .starting_at_line(log.line());
    log.check(&mut check, chunking)?;
    Ok(check.finish())
}

/// A check that the chunk driver ([`LineLog::check`]) runs over a log of
/// lines: each chunk is digested on rayon's pool, in any order, by
/// [`LineCheck::digest`] on the check's [`LineCheck::shared`] part (which
/// is all a digest reads), then the digests are applied in order; what a
/// digest cannot settle is read again, in order, in one pass
/// ([`LineCheck::read`]).
pub(crate) trait LineCheck {
    /// What a digest reads: the fields bound, the options.
    type Shared: Sync + Send;
    /// What one chunk comes to.
    type Digest: Send;

    /// The part the digests read.
    fn shared(&self) -> &Self::Shared;

    /// The part the digests read, apart from the check, if applying
    /// digests changes nothing a digest reads: then the next batch is
    /// digested while a batch is applied.
    fn detached(&self) -> Option<std::sync::Arc<Self::Shared>> {
        None
    }

    /// Whether chunks can be digested at all (if not, the log is read in
    /// one pass).
    fn digests(&self) -> bool;

    /// Digests a chunk read by `reader` (its events counted from 0 and its
    /// lines from 1), which ends `lines` lines.
    fn digest<R: Reader>(shared: &Self::Shared, reader: R, lines: u64) -> Self::Digest;

    /// Whether the check needs no more of the log: the driver stops
    /// reading it.
    fn done(&self) -> bool {
        false
    }

    /// Applies the digest of the next chunk (`chunk`, its bytes) (or
    /// fails, as one pass would at the same event). `None`:
    /// the chunk is done; `Some(line)`: the chunk is to be read in one
    /// pass from its line `line` (counted from 1) on, [`LineCheck::index`]
    /// and [`LineCheck::line`] being those of that line's first event.
    fn apply(&mut self, digest: Self::Digest, chunk: &[u8]) -> Result<Option<u64>, TraceError>;

    /// Reads on in one pass: `reader` numbers its events from
    /// [`LineCheck::index`] and its lines from [`LineCheck::line`], and
    /// ends `lines` lines (0 where that is not known: the rest of the
    /// log).
    fn read<R: Reader + ?Sized>(&mut self, reader: &mut R, lines: u64) -> Result<(), TraceError>;

    /// The index of the next event.
    fn index(&self) -> u64;

    /// The line of the next event.
    fn line(&self) -> u64;
}

impl LineCheck for ChunkedCheck<'_> {
    type Shared = Self;
    type Digest = ChunkSummary;

    fn shared(&self) -> &Self {
        self
    }

    fn digests(&self) -> bool {
        self.summarizes()
    }

    fn digest<R: Reader>(check: &Self, reader: R, lines: u64) -> ChunkSummary {
        check.summarize_with(reader, lines, false)
    }

    fn apply(&mut self, summary: ChunkSummary, _: &[u8]) -> Result<Option<u64>, TraceError> {
        Ok((!self.skip(&summary)).then_some(1))
    }

    fn read<R: Reader + ?Sized>(&mut self, reader: &mut R, lines: u64) -> Result<(), TraceError> {
        ChunkedCheck::read(self, reader, lines)
    }

    fn index(&self) -> u64 {
        self.index
    }

    fn line(&self) -> u64 {
        self.line
    }
}

/// A log of lines (CSV, JSON Lines) opened for chunked checking: its
/// header row read (CSV) and its byte-order mark dropped (JSON Lines), as
/// one pass reads them, the bytes read ahead kept.
pub(crate) struct LineLog<'s, R> {
    format: LineFormat,
    source: &'s str,
    /// The CSV header row.
    headers: Vec<String>,
    /// The line of the first event.
    line: u64,
    /// Bytes read, not yet checked.
    buf: Vec<u8>,
    /// A batch's buffer once checked, for the next batch: a batch is
    /// megabytes, and a fresh one each time cost the kernel's mapping and
    /// zeroing of its pages (a tenth of the time of keyed checking).
    spare: Vec<u8>,
    eof: bool,
    input: R,
}

impl<'s, R: Read> LineLog<'s, R> {
    /// Opens a log: reads its header row (CSV) or byte-order mark (JSON
    /// Lines).
    pub(crate) fn open(
        format: LineFormat,
        source: &'s str,
        mut input: R,
    ) -> Result<LineLog<'s, R>, TraceError> {
        // CSV: the header row, read by the `csv` crate as one pass reads it
        // (a byte-order mark, blank lines, quotes, any line end), which
        // gives back what it read ahead.
        let (mut headers, mut line, mut drop_lf, mut buf) = (Vec::new(), 1, false, Vec::new());
        if format == LineFormat::Csv {
            let (h, l, cr, rest, _) = CsvReader::new(source, &mut input)?.into_rest();
            (headers, line, drop_lf, buf) = (h, l, cr, rest);
        }
        let mut log = LineLog {
            format,
            source,
            headers,
            line,
            buf,
            spare: Vec::new(),
            eof: false,
            input,
        };
        if drop_lf {
            // The header ended at a `\r` that was the last byte read: a
            // `\n` after it belongs to the same line end.
            log.fill(1)?;
            if log.buf.first() == Some(&b'\n') {
                log.buf.remove(0);
            }
        }
        if format == LineFormat::Jsonl {
            // A byte-order mark at the start of the file (only there).
            // (An error reading it is at line 1, as one pass says.)
            log.fill(BOM.len()).map_err(|e| TraceError {
                at: Some("line 1".into()),
                ..e
            })?;
            if log.buf.starts_with(BOM) {
                log.buf.drain(..BOM.len());
            }
        }
        Ok(log)
    }

    /// The line of the first event.
    pub(crate) fn line(&self) -> u64 {
        self.line
    }

    /// A one-pass reader of `bytes`, whole lines of the log, whose first
    /// event has index `index` and is on line `line` (for an empty
    /// `bytes`: a reader of the log's fields, to bind them).
    pub(crate) fn reader<'b>(
        &self,
        bytes: &'b [u8],
        index: u64,
        line: u64,
    ) -> Box<dyn Reader + 'b> {
        line_reader(self.format, self.source, &self.headers, bytes, index, line)
    }

    /// The CSV header row (empty for JSON Lines).
    pub(crate) fn headers(&self) -> &[String] {
        &self.headers
    }

    /// Reads until `buf` holds `want` bytes or the input ends.
    fn fill(&mut self, want: usize) -> Result<(), TraceError> {
        let mut block = [0u8; 1 << 16];
        self.buf.reserve(want.saturating_sub(self.buf.len()));
        while self.buf.len() < want && !self.eof {
            match self.input.read(&mut block) {
                Ok(0) => self.eof = true,
                Ok(n) => self.buf.extend_from_slice(&block[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(TraceError {
                        source: self.source.to_string(),
                        at: None,
                        message: e.to_string(),
                    });
                }
            }
        }
        Ok(())
    }

    /// Checks the log with `check`, in chunks on rayon's pool (see the
    /// [module documentation](self)). A check whose digests read nothing
    /// that applying changes ([`LineCheck::detached`]) has each batch's
    /// chunks digested while the previous batch's digests are applied.
    pub(crate) fn check<C: LineCheck>(
        mut self,
        check: &mut C,
        chunking: Chunking,
    ) -> Result<(), TraceError> {
        let format = self.format;
        if !check.digests() {
            // One pass.
            let rest = std::io::Cursor::new(std::mem::take(&mut self.buf)).chain(self.input);
            return one_pass(check, format, self.source, self.headers, rest);
        }
        let detached = check.detached();
        let threads = rayon::current_num_threads().max(1);
        let target = match chunking {
            Chunking::Bytes(n) => n.max(1).saturating_mul(4 * threads),
            Chunking::Lines(_) => 1 << 20,
        };
        // An error reading the input (a compressed file cut short): the
        // whole lines read before it are checked, as one pass checks them,
        // then the error is returned.
        let mut failed: Option<TraceError> = None;
        // A batch digested, not yet applied (with a detached check).
        let mut pending: Option<Batch<C::Digest>> = None;
        loop {
            if check.done() {
                // (What is left of the log, and an error reading it, does
                // not matter.)
                return Ok(());
            }
            if failed.is_none() {
                if let Err(e) = self.fill(target) {
                    let whole = last_cut(format, &self.buf).unwrap_or(0);
                    self.buf.truncate(whole);
                    self.eof = true;
                    failed = Some(e);
                }
            }
            // The batch ends at the last line end (or the end of the input).
            let end = if self.eof {
                self.buf.len()
            } else {
                match last_cut(format, &self.buf) {
                    Some(end) => end,
                    None => {
                        // A line longer than a batch: the rest in one pass,
                        // in constant memory.
                        self.shape().apply(check, pending.take())?;
                        let rest =
                            std::io::Cursor::new(std::mem::take(&mut self.buf)).chain(self.input);
                        return one_pass(check, format, self.source, self.headers, rest);
                    }
                }
            };
            if end == 0 {
                break;
            }
            // The bytes after the batch's last line go to the spare
            // buffer, which becomes the one read into.
            let mut rest = std::mem::take(&mut self.spare);
            rest.clear();
            rest.extend_from_slice(&self.buf[end..]);
            self.buf.truncate(end);
            let bytes = std::mem::replace(&mut self.buf, rest);
            if format == LineFormat::Csv && memchr::memchr(b'"', &bytes).is_some() {
                // Quoted fields may hold line breaks: the rest in one pass
                // (after an error, only the lines before it).
                self.shape().apply(check, pending.take())?;
                let rest = std::io::Cursor::new(bytes)
                    .chain(std::io::Cursor::new(std::mem::take(&mut self.buf)));
                return match failed {
                    Some(e) => {
                        one_pass(check, format, self.source, self.headers, rest)?;
                        Err(e)
                    }
                    None => one_pass(
                        check,
                        format,
                        self.source,
                        self.headers,
                        rest.chain(self.input),
                    ),
                };
            }
            let chunks = cut(format, &bytes, chunking);
            match &detached {
                Some(shared) => {
                    let before = pending.take();
                    let shape = self.shape();
                    let mut digests = Vec::new();
                    // The digests on the pool, the batch before applied on
                    // this thread (the check may not be sent to another).
                    let applied = rayon::in_place_scope(|scope| {
                        scope.spawn(|_| digests = shape.digest::<C>(shared, &bytes, &chunks));
                        shape.apply(check, before)
                    });
                    if let Some(spare) = applied? {
                        self.spare = spare;
                    }
                    pending = Some(Batch {
                        bytes,
                        chunks,
                        digests,
                    });
                }
                None => {
                    let digests = self.shape().digest::<C>(check.shared(), &bytes, &chunks);
                    let applied = self.shape().apply(
                        check,
                        Some(Batch {
                            bytes,
                            chunks,
                            digests,
                        }),
                    )?;
                    if let Some(spare) = applied {
                        self.spare = spare;
                    }
                }
            }
        }
        self.shape().apply(check, pending.take())?;
        match failed {
            _ if check.done() => Ok(()),
            // JSON Lines reads line by line: one pass says the error is at
            // the line it was reading (CSV's reader says no line).
            Some(e) if format == LineFormat::Jsonl => Err(TraceError {
                at: Some(format!("line {}", check.line())),
                ..e
            }),
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The format, name and header row of the log.
    fn shape(&self) -> LineShape<'_> {
        LineShape {
            format: self.format,
            source: self.source,
            headers: &self.headers,
        }
    }
}

/// What reading a piece of a log needs: its format, name and header row.
#[derive(Clone, Copy)]
struct LineShape<'a> {
    format: LineFormat,
    source: &'a str,
    headers: &'a [String],
}

impl LineShape<'_> {
    /// Digests the chunks of a batch, on rayon's pool.
    fn digest<C: LineCheck>(
        &self,
        shared: &C::Shared,
        bytes: &[u8],
        chunks: &[std::ops::Range<usize>],
    ) -> Vec<C::Digest> {
        let (format, source, headers) = (self.format, self.source, self.headers);
        chunks
            .par_iter()
            .map(|r| {
                let bytes = &bytes[r.clone()];
                let lines = lines_of(format, bytes);
                match format {
                    LineFormat::Csv => C::digest(
                        shared,
                        UnquotedCsv::new(source, headers, bytes, 0, 1),
                        lines,
                    ),
                    LineFormat::Jsonl => {
                        C::digest(shared, JsonlReader::starting_at(source, bytes, 0, 1), lines)
                    }
                }
            })
            .collect()
    }

    /// Applies a batch's digests in order, reading in one pass what they
    /// leave; gives the batch's buffer back.
    fn apply<C: LineCheck>(
        &self,
        check: &mut C,
        batch: Option<Batch<C::Digest>>,
    ) -> Result<Option<Vec<u8>>, TraceError> {
        let Some(batch) = batch else {
            return Ok(None);
        };
        for (range, digest) in batch.chunks.iter().zip(batch.digests) {
            if check.done() {
                break;
            }
            let bytes = &batch.bytes[range.clone()];
            let Some(from) = check.apply(digest, bytes)? else {
                continue;
            };
            // Read again, in order, in one pass.
            let rest = &bytes[line_start(self.format, bytes, from)..];
            let mut reader = line_reader(
                self.format,
                self.source,
                self.headers,
                rest,
                check.index(),
                check.line(),
            );
            check.read(&mut *reader, lines_of(self.format, rest))?;
        }
        Ok(Some(batch.bytes))
    }
}

/// A batch of chunks and their digests.
struct Batch<D> {
    bytes: Vec<u8>,
    chunks: Vec<std::ops::Range<usize>>,
    digests: Vec<D>,
}

/// A one-pass reader of `bytes`, whole lines of a log of the format with
/// the header row `headers` (CSV), whose first event has index `index`
/// and is on line `line`.
pub(crate) fn line_reader<'b>(
    format: LineFormat,
    source: &str,
    headers: &[String],
    bytes: &'b [u8],
    index: u64,
    line: u64,
) -> Box<dyn Reader + 'b> {
    match format {
        LineFormat::Csv => Box::new(CsvReader::with_headers(
            source,
            headers.to_vec(),
            bytes,
            index,
            line,
        )),
        LineFormat::Jsonl => Box::new(JsonlReader::starting_at(source, bytes, index, line)),
    }
}

/// Checks the rest of a log, from where `check` is, in one pass.
fn one_pass<C: LineCheck, R: Read>(
    check: &mut C,
    format: LineFormat,
    source: &str,
    headers: Vec<String>,
    rest: R,
) -> Result<(), TraceError> {
    let (index, line) = (check.index(), check.line());
    match format {
        LineFormat::Csv => {
            let mut r = CsvReader::with_headers(source, headers, rest, index, line);
            check.read(&mut r, 0)
        }
        LineFormat::Jsonl => {
            let rest = std::io::BufReader::with_capacity(1 << 16, rest);
            let mut r = JsonlReader::starting_at(source, rest, index, line);
            check.read(&mut r, 0)
        }
    }
}

/// Where line `line` (counted from 1) of `bytes`, whole lines of the
/// format, starts.
pub(crate) fn line_start(format: LineFormat, bytes: &[u8], line: u64) -> usize {
    match line.checked_sub(2) {
        None => 0,
        Some(n) => cuts(format, bytes, 0, true)
            .nth(usize::try_from(n).unwrap_or(usize::MAX))
            .unwrap_or(bytes.len()),
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// How many lines `bytes` (whole lines of the format) ends.
fn lines_of(format: LineFormat, bytes: &[u8]) -> u64 {
    match format {
        LineFormat::Csv => line_ends(bytes, false),
        LineFormat::Jsonl => memchr::memchr_iter(b'\n', bytes).count() as u64,
    }
}

/// Whether `bytes[..at]` ends at a line end of the format, after which
/// the next piece can start: a `\n`, or for CSV a `\r` whose line end
/// does not go on with a `\n` (which must be known: `at` is before the end
/// of `bytes`, or `bytes` is all there is).
fn is_cut(format: LineFormat, bytes: &[u8], at: usize, whole: bool) -> bool {
    match (format, at.checked_sub(1).map(|p| bytes[p])) {
        (_, Some(b'\n')) => true,
        (LineFormat::Csv, Some(b'\r')) => match bytes.get(at) {
            Some(&next) => next != b'\n',
            None => whole,
        },
        _ => false,
    }
}

/// The line ends of the format in `bytes` after which a piece can start
/// (see [`is_cut`]), from the first, as the offsets after them.
fn cuts(
    format: LineFormat,
    bytes: &[u8],
    from: usize,
    whole: bool,
) -> impl Iterator<Item = usize> + '_ {
    let found: Box<dyn Iterator<Item = usize>> = match format {
        LineFormat::Csv => Box::new(memchr::memchr2_iter(b'\n', b'\r', &bytes[from..])),
        LineFormat::Jsonl => Box::new(memchr::memchr_iter(b'\n', &bytes[from..])),
    };
    found
        .map(move |p| from + p + 1)
        .filter(move |&at| is_cut(format, bytes, at, whole))
}

/// The end of the last whole line of `buf` (more may follow it), if any.
fn last_cut(format: LineFormat, buf: &[u8]) -> Option<usize> {
    let mut hay = buf.len();
    loop {
        let p = match format {
            LineFormat::Csv => memchr::memrchr2(b'\n', b'\r', &buf[..hay]),
            LineFormat::Jsonl => memchr::memrchr(b'\n', &buf[..hay]),
        }?;
        if is_cut(format, buf, p + 1, false) {
            return Some(p + 1);
        }
        hay = p;
    }
}

/// The chunks of a batch (whole lines).
fn cut(format: LineFormat, batch: &[u8], chunking: Chunking) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < batch.len() {
        let end = match chunking {
            Chunking::Bytes(n) => {
                let at = start + n.max(1) - 1;
                if at >= batch.len() {
                    batch.len()
                } else {
                    cuts(format, batch, at, true).next().unwrap_or(batch.len())
                }
            }
            Chunking::Lines(n) => cuts(format, batch, start, true)
                .nth(n.max(1) - 1)
                .unwrap_or(batch.len()),
        };
        chunks.push(start..end);
        start = end;
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::summary::tests::monitor_of;
    use crate::trace::check::{Options, Property};
    use crate::trace::expr::Expr;
    use crate::MonitorTable;

    /// A random log over fields a, b, c (and n, a number), as CSV and
    /// JSON Lines; `damage` puts a value that is not a Boolean on one line.
    fn log(
        rng: &mut SplitMix64,
        len: usize,
        damage: Option<usize>,
        quote: bool,
    ) -> (String, String) {
        let mut csv = String::from("a,b,c,n\n");
        let mut jsonl = String::new();
        for k in 0..len {
            let l = rng.next_u64();
            let n = (l >> 8) % 100;
            let a = if damage == Some(k) {
                "maybe".to_string()
            } else {
                (l & 1).to_string()
            };
            if quote && k == len / 2 {
                csv.push_str(&format!("\"{a}\",{},{},{n}\n", (l >> 1) & 1, (l >> 2) & 1));
            } else {
                csv.push_str(&format!("{a},{},{},{n}\n", (l >> 1) & 1, (l >> 2) & 1));
            }
            if k % 17 == 5 {
                // A blank line: not an event in CSV.
                csv.push('\n');
            }
            let a = if damage == Some(k) {
                "\"maybe\"".to_string()
            } else {
                (l & 1 == 1).to_string()
            };
            jsonl.push_str(&format!(
                "{{\"a\": {a}, \"x\": {{\"b\": {}}}, \"c\": {}, \"n\": {n}}}\n",
                (l >> 1) & 1,
                (l >> 2) & 1
            ));
        }
        (csv, jsonl)
    }

    /// Stopping at the first violation, and counting them all with few
    /// reports and little context.
    fn option_sets() -> [Options; 2] {
        [
            Options::default(),
            Options {
                all: true,
                max_reports: 3,
                context: 2,
                strict_fields: true,
            },
        ]
    }

    /// Up to three random properties over a, b, c and `n < 10`, of both
    /// kinds of verdicts.
    fn random_properties(random_ltl: &mut RandomLtl, i: usize) -> Vec<Property> {
        let mut props = Vec::new();
        for j in 0..3 {
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, (i + j) % 3 == 0) else {
                continue;
            };
            let t = table.table();
            let bindings: Vec<Expr> = (0..t.props as usize)
                .map(|p| match t.proposition(p) {
                    "n_small" => Expr::parse("n < 10").unwrap(),
                    name => Expr::parse(name).unwrap(),
                })
                .collect();
            props.push(Property::new(&f.to_spot(), table, bindings));
        }
        props
    }

    /// Thread pools of 1, 2 and 3 threads, to check in chunks on each.
    fn pools_of_1_to_3_threads() -> Vec<rayon::ThreadPool> {
        [1, 2, 3]
            .iter()
            .map(|&t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            })
            .collect()
    }

    /// Times that go back, at chunk boundaries or inside chunks, give the
    /// error (strict) or the times and counts (lenient) of one pass, for
    /// every chunk size and thread count; and the times reported are the
    /// running maximum of the times written, computed apart.
    #[test]
    fn times_across_chunks_are_those_of_one_pass() {
        use crate::trace::time::{TimeOrder, TimeSpec};
        let mut rng = SplitMix64::new(0x71u64);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c", "n_small"], 6).seed(5);
        let pools = pools_of_1_to_3_threads();
        let (mut went_back, mut late_seen) = (0, 0);
        for i in 0..40 {
            let props = random_properties(&mut random_ltl, i);
            let len = 1 + (rng.next_u64() % 200) as usize;
            let (csv, jsonl) = log(&mut rng, len, None, false);
            // A time column: mostly steps of 0 to 2 ms, and on some logs a
            // few steps back.
            let backs = i % 3;
            let mut t: i64 = 1_000;
            let mut times = Vec::new();
            for _ in 0..len {
                let r = rng.next_u64();
                t += if backs > 0 && r % 40 < backs as u64 {
                    -(((r >> 8) % 5) as i64)
                } else {
                    ((r >> 8) % 3) as i64
                };
                times.push(t);
            }
            let mut rows = csv.lines();
            let mut csv_t = format!("ts,{}\n", rows.next().unwrap());
            let mut k = 0;
            for row in rows {
                if row.is_empty() {
                    csv_t.push('\n');
                    continue;
                }
                csv_t.push_str(&format!(
                    "{}.{:03},{row}\n",
                    times[k] / 1000,
                    times[k] % 1000
                ));
                k += 1;
            }
            let jsonl_t: String = jsonl
                .lines()
                .zip(&times)
                .map(|(l, t)| format!("{{\"ts\": {t}, {}\n", &l[1..]))
                .collect();
            for order in [TimeOrder::Strict, TimeOrder::Lenient] {
                for options in option_sets() {
                    for (format, text, spec) in [
                        (LineFormat::Csv, &csv_t, "ts"),
                        (LineFormat::Jsonl, &jsonl_t, "ts:ms"),
                    ] {
                        let mut props = props.clone();
                        if format == LineFormat::Jsonl {
                            for p in &mut props {
                                for e in &mut p.bindings {
                                    if *e == Expr::parse("b").unwrap() {
                                        *e = Expr::parse("x.b").unwrap();
                                    }
                                }
                            }
                        }
                        let mut checker = Checker::new(props, options);
                        checker.set_time(Some(TimeSpec::parse(spec).unwrap()), order);
                        let want = match format {
                            LineFormat::Csv => CsvReader::new("t", text.as_bytes())
                                .and_then(|mut r| checker.run(&mut r)),
                            LineFormat::Jsonl => {
                                checker.run(&mut JsonlReader::new("t", text.as_bytes()))
                            }
                        };
                        let so_far = checker.reports_so_far();
                        went_back += usize::from(want.is_err());
                        if let Ok(reports) = &want {
                            late_seen += usize::from(reports.iter().any(|r| r.late_events > 0));
                            // The times reported: the running maximum.
                            for r in reports {
                                for v in &r.violations {
                                    for (at, _) in &v.recent {
                                        let k = at.index as usize;
                                        let max = times[..=k].iter().max().unwrap();
                                        assert_eq!(at.timestamp.unwrap().nanos, max * 1_000_000);
                                    }
                                }
                            }
                        }
                        for pool in &pools {
                            for chunking in [
                                Chunking::Lines(1),
                                Chunking::Lines(2),
                                Chunking::Lines(7),
                                Chunking::Bytes(100),
                                Chunking::Bytes(3),
                            ] {
                                let got = pool.install(|| {
                                    check_lines(
                                        &mut checker,
                                        format,
                                        "t",
                                        text.as_bytes(),
                                        chunking,
                                    )
                                });
                                assert_eq!(got, want, "{format:?} {chunking:?} {order:?}\n{text}");
                                assert_eq!(checker.reports_so_far(), so_far);
                            }
                        }
                    }
                }
            }
        }
        assert!(went_back > 10 && late_seen > 10, "{went_back} {late_seen}");
    }

    #[test]
    fn every_chunk_size_and_thread_count_gives_the_reports_of_one_pass() {
        let mut rng = SplitMix64::new(0xc4u64);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c", "n_small"], 7)
            .seed(11)
            .with_past();
        let pools = pools_of_1_to_3_threads();
        let (mut compared, mut errors) = (0, 0);
        for i in 0..50 {
            let props = random_properties(&mut random_ltl, i);
            let len = 1 + (rng.next_u64() % 400) as usize;
            let damage = (i % 7 == 3).then(|| (rng.next_u64() % len as u64) as usize);
            let (csv, jsonl) = log(&mut rng, len, damage, i % 11 == 4);
            let jsonl = jsonl.replace("\"x\": {\"b\"", "\"b\": 0, \"x\": {\"b\"");
            for options in option_sets() {
                for (format, text) in [(LineFormat::Csv, &csv), (LineFormat::Jsonl, &jsonl)] {
                    let mut props = props.clone();
                    if format == LineFormat::Jsonl {
                        // JSON reads b by its path.
                        for p in &mut props {
                            for e in &mut p.bindings {
                                if *e == Expr::parse("b").unwrap() {
                                    *e = Expr::parse("x.b").unwrap();
                                }
                            }
                        }
                    }
                    let mut checker = Checker::new(props, options);
                    // Every other round shows fields (a JSON path absent
                    // from every event too): the chunks' last events carry
                    // them to the explanations.
                    let show = i % 2 == 0;
                    if show {
                        checker.set_show(match format {
                            LineFormat::Csv => vec!["n".into(), "c".into()],
                            LineFormat::Jsonl => vec!["n".into(), "x.b".into(), "zz".into()],
                        });
                    }
                    let want = match format {
                        LineFormat::Csv => CsvReader::new("t", text.as_bytes())
                            .and_then(|mut r| checker.run(&mut r)),
                        LineFormat::Jsonl => {
                            checker.run(&mut JsonlReader::new("t", text.as_bytes()))
                        }
                    };
                    if show {
                        shown_rows(&checker.reports_so_far(), text, format);
                    }
                    // A damaged value is an error if a property reads it.
                    errors += usize::from(want.is_err());
                    assert!(want.is_ok() || damage.is_some(), "{want:?}");
                    // After an error, the reports of the events before it:
                    // those of the log cut before the damaged line.
                    let so_far = checker.reports_so_far();
                    if want.is_err() {
                        let bad = text.find("maybe").expect("the damage");
                        let cut = text[..bad].rfind('\n').map_or(0, |n| n + 1);
                        let prefix = &text[..cut];
                        let whole = match format {
                            LineFormat::Csv => CsvReader::new("t", prefix.as_bytes())
                                .and_then(|mut r| checker.run(&mut r)),
                            LineFormat::Jsonl => {
                                checker.run(&mut JsonlReader::new("t", prefix.as_bytes()))
                            }
                        };
                        assert_eq!(Ok(so_far.clone()), whole, "{format:?} cut at {cut}");
                    }
                    for pool in &pools {
                        for chunking in [
                            Chunking::Lines(1),
                            Chunking::Lines(2),
                            Chunking::Lines(7),
                            Chunking::Lines(1000),
                            Chunking::Lines(usize::MAX),
                            Chunking::Bytes(100),
                            // Batches shorter than a line: one pass.
                            Chunking::Bytes(3),
                        ] {
                            let got = pool.install(|| {
                                check_lines(&mut checker, format, "t", text.as_bytes(), chunking)
                            });
                            assert_eq!(
                                got,
                                want,
                                "{format:?}, {chunking:?}, {} threads",
                                pool.current_num_threads()
                            );
                            if got.is_err() {
                                assert_eq!(
                                    checker.reports_so_far(),
                                    so_far,
                                    "before the error: {format:?}, {chunking:?}, {} threads",
                                    pool.current_num_threads()
                                );
                            }
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 2000, "{compared}");
        assert!(errors > 4, "{errors}");
    }

    /// A reader of `bytes` that fails after them (a compressed file cut
    /// short), in blocks of `block` bytes.
    struct FailingAfter<'a> {
        bytes: &'a [u8],
        block: usize,
    }

    impl Read for FailingAfter<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.bytes.is_empty() {
                return Err(std::io::Error::other("the data is cut short"));
            }
            let n = self.block.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// An input that fails part way is an error, after the whole lines
    /// read before it are checked, as one pass checks them: the reports so
    /// far are those of one pass, whatever the chunks and threads.
    #[test]
    fn an_input_error_comes_after_the_lines_before_it() {
        let mut rng = SplitMix64::new(0xe4);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c", "n_small"], 7).seed(5);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut compared = 0;
        for i in 0..40 {
            let mut props = random_properties(&mut random_ltl, i);
            let len = 1 + (rng.next_u64() % 3000) as usize;
            let (csv, jsonl) = log(&mut rng, len, None, false);
            let block = 1 + (rng.next_u64() % 5000) as usize;
            for format in [LineFormat::Csv, LineFormat::Jsonl] {
                let text = if format == LineFormat::Csv {
                    csv.as_bytes()
                } else {
                    // JSON reads b by its path.
                    for p in &mut props {
                        for e in &mut p.bindings {
                            if *e == Expr::parse("b").unwrap() {
                                *e = Expr::parse("x.b").unwrap();
                            }
                        }
                    }
                    jsonl.as_bytes()
                };
                let cut = 8 + (rng.next_u64() % (text.len() as u64 - 8)) as usize;
                let input = || FailingAfter {
                    bytes: &text[..cut],
                    block,
                };
                for options in option_sets() {
                    let mut checker = Checker::new(props.clone(), options);
                    let e = match format {
                        LineFormat::Csv => {
                            CsvReader::new("t", input()).and_then(|mut r| checker.run(&mut r))
                        }
                        LineFormat::Jsonl => checker
                            .run(&mut JsonlReader::new("t", std::io::BufReader::new(input()))),
                    }
                    .unwrap_err();
                    assert!(e.message.contains("cut short"), "{e}");
                    let want = checker.reports_so_far();
                    for chunking in [
                        Chunking::Lines(3),
                        Chunking::Bytes(100),
                        Chunking::Bytes(1 << 20),
                    ] {
                        let got = pool
                            .install(|| check_lines(&mut checker, format, "t", input(), chunking))
                            .unwrap_err();
                        assert_eq!(got, e, "{format:?} cut at {cut}, {chunking:?}");
                        assert_eq!(
                            checker.reports_so_far(),
                            want,
                            "{format:?} cut at {cut}, {chunking:?}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 400, "{compared}");
    }

    /// The fields shown at each event of each explanation are those of
    /// the event's line in `text` (a log of [`log`]; every explanation
    /// shows `n`, then for CSV `c`, for JSON Lines `x.b` and `zz`, which
    /// no event has).
    fn shown_rows(reports: &[Report], text: &str, format: LineFormat) {
        let lines: Vec<&str> = text.lines().collect();
        for v in reports.iter().flat_map(|r| &r.violations) {
            assert_eq!(v.shown.len(), v.recent.len());
            for ((at, _), shown) in v.recent.iter().zip(&v.shown) {
                let line = lines[at.line.unwrap() as usize - 1];
                let want: Vec<(String, Option<String>)> = match format {
                    LineFormat::Csv => {
                        let cells: Vec<&str> = line.split(',').collect();
                        vec![
                            ("n".into(), Some(cells[3].to_string())),
                            ("c".into(), Some(cells[2].trim_matches('"').to_string())),
                        ]
                    }
                    LineFormat::Jsonl => {
                        let row: serde_json::Value = serde_json::from_str(line).unwrap();
                        vec![
                            ("n".into(), Some(row["n"].to_string())),
                            ("x.b".into(), Some(row["x"]["b"].to_string())),
                            ("zz".into(), None),
                        ]
                    }
                };
                assert_eq!(shown, &want, "{at:?} {line}");
            }
        }
    }

    #[test]
    fn a_property_jumps_over_the_chunks_where_nothing_happens() {
        // Chunks where the property is not violated are not read again:
        // the summary must carry the monitor's state across them.
        let mut log = String::from("a,b\n");
        for k in 0..5000 {
            // `a` once, then `b` 3000 events later.
            log.push_str(if k == 1000 {
                "1,0\n"
            } else if k == 4000 {
                "0,1\n"
            } else {
                "0,0\n"
            });
        }
        let table = MonitorTable::from_ltl("G(b -> O a)").unwrap();
        let t = table.table();
        let bindings = (0..t.props as usize)
            .map(|p| Expr::parse(t.proposition(p)).unwrap())
            .collect();
        let mut checker = Checker::new(
            vec![Property::new("p", table, bindings)],
            Options::default(),
        );
        let r = check_lines(
            &mut checker,
            LineFormat::Csv,
            "t",
            log.as_bytes(),
            Chunking::Lines(10),
        )
        .unwrap();
        assert_eq!(r[0].verdict, crate::Verdict::Undecided);
        let log = log.replacen("1,0\n", "0,0\n", 1);
        let r = check_lines(
            &mut checker,
            LineFormat::Csv,
            "t",
            log.as_bytes(),
            Chunking::Lines(10),
        )
        .unwrap();
        assert_eq!(r[0].violations[0].at.line, Some(4002));
        assert_eq!(r[0].violations[0].recent.len(), 5);
    }

    /// A summary made by a checker that shows no field cannot stand for
    /// its chunk's events in the explanation of a checker that shows some:
    /// the chunk is read instead, and the fields are shown.
    #[test]
    fn a_summary_without_the_shown_fields_is_read_again() {
        let table = MonitorTable::from_ltl("G(a -> X !a)").unwrap();
        let props = vec![Property::new("p", table, vec![Expr::parse("a").unwrap()])];
        let headers: Vec<String> = vec!["a".into(), "id".into()];
        let empty = || CsvReader::with_headers("t", headers.clone(), &[][..], 0, 2);
        let chunks = ["0,x\n1,y\n", "1,z\n0,w\n"];
        let mut worker = Checker::new(props.clone(), Options::default());
        let w = ChunkedCheck::new(&mut worker, &mut empty()).unwrap();
        let summaries: Vec<ChunkSummary> = chunks
            .iter()
            .map(|c| w.summarize(UnquotedCsv::new("t", &headers, c.as_bytes(), 0, 1), 2))
            .collect();
        let mut checker = Checker::new(props, Options::default());
        checker.set_show(vec!["id".into()]);
        let mut check = ChunkedCheck::new(&mut checker, &mut empty())
            .unwrap()
            .starting_at_line(2);
        let mut read = Vec::new();
        for (c, s) in chunks.iter().zip(&summaries) {
            if check.skip(s) {
                read.push(false);
                continue;
            }
            read.push(true);
            let (index, line) = (check.index(), check.line());
            let mut r = CsvReader::with_headers("t", headers.clone(), c.as_bytes(), index, line);
            check.read(&mut r, s.lines).unwrap();
        }
        assert_eq!(read, [true, true]);
        let reports = check.finish();
        let ids: Vec<_> = reports[0].violations[0]
            .shown
            .iter()
            .map(|f| f[0].1.clone().unwrap())
            .collect();
        assert_eq!(ids, ["x", "y", "z"]);
    }

    /// Chunks summarized elsewhere (by other checkers, through bytes) and
    /// combined in order give the reports of one pass, and the plan made
    /// from the summaries names exactly the chunks that are read.
    #[test]
    fn summaries_sent_as_bytes_and_combined_give_the_reports_of_one_pass() {
        let mut rng = SplitMix64::new(0x5a7);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c", "n_small"], 7).seed(29);
        let (mut compared, mut planned_reads) = (0, 0);
        for i in 0..150 {
            let props = random_properties(&mut random_ltl, i);
            let len = 1 + (rng.next_u64() % 300) as usize;
            let (csv, _) = log(&mut rng, len, None, false);
            let csv = csv.replace("\n\n", "\n");
            let header = "a,b,c,n";
            let rows: Vec<&str> = csv.lines().skip(1).collect();
            // Chunks of random sizes, some empty.
            let mut chunks: Vec<String> = Vec::new();
            let mut at = 0;
            while at < rows.len() {
                let n = (rng.next_u64() % 40) as usize;
                let end = (at + n).min(rows.len());
                chunks.push(rows[at..end].iter().map(|r| format!("{r}\n")).collect());
                at = end;
            }
            let headers: Vec<String> = header.split(',').map(String::from).collect();
            for options in option_sets() {
                // Odd rounds show fields, which the summaries carry.
                let show = |c: &mut Checker| {
                    if i % 2 == 1 {
                        c.set_show(vec!["n".into(), "c".into()]);
                    }
                };
                let mut one_pass = Checker::new(props.clone(), options);
                show(&mut one_pass);
                let want = one_pass
                    .run(&mut CsvReader::new("t", csv.as_bytes()).unwrap())
                    .unwrap();
                if i % 2 == 1 {
                    shown_rows(&want, &csv, LineFormat::Csv);
                }
                let mut worker = Checker::new(props.clone(), options);
                show(&mut worker);
                let empty = || CsvReader::with_headers("t", headers.clone(), &[][..], 0, 2);
                let w = ChunkedCheck::new(&mut worker, &mut empty()).unwrap();
                let summaries: Vec<ChunkSummary> = chunks
                    .iter()
                    .map(|c| {
                        let s = w.summarize(UnquotedCsv::new("t", &headers, c.as_bytes(), 0, 1), 0);
                        let bytes = s.to_bytes();
                        if i < 10 {
                            // Truncated, it is not a summary.
                            for k in 0..bytes.len() {
                                assert_eq!(ChunkSummary::from_bytes(&bytes[..k]), None);
                            }
                        }
                        ChunkSummary::from_bytes(&bytes).expect("round trip")
                    })
                    .collect();
                let mut checker = Checker::new(props.clone(), options);
                show(&mut checker);
                let mut check = ChunkedCheck::new(&mut checker, &mut empty())
                    .unwrap()
                    .starting_at_line(2);
                let plan = check.plan(&summaries);
                let mut read = Vec::new();
                for (c, s) in chunks.iter().zip(&summaries) {
                    let skipped = check.skip(s);
                    read.push(!skipped);
                    if !skipped {
                        let (index, line) = (check.index(), check.line());
                        let mut r = CsvReader::with_headers(
                            "t",
                            headers.clone(),
                            c.as_bytes(),
                            index,
                            line,
                        );
                        check.read(&mut r, s.lines).unwrap();
                    }
                    // Without blank lines, a chunk's lines are its events.
                    check.line += s.events - s.lines;
                }
                assert_eq!(check.finish(), want, "{options:?}");
                assert_eq!(plan, read, "{options:?}");
                planned_reads += read.iter().filter(|&&r| r).count();
                compared += 1;
            }
        }
        assert!(
            compared > 250 && planned_reads > 50,
            "{compared} {planned_reads}"
        );
        // Bytes that are not a summary.
        let mut rng = SplitMix64::new(3);
        for n in 0..200 {
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            assert_eq!(ChunkSummary::from_bytes(&bytes), None);
        }
    }
}
