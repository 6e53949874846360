//! Readers of traces: one event at a time, fields by name.

use std::fmt;
use std::io::{BufRead, Read};

use super::expr::{Cell, Expr};
use super::time::Time;

/// Where an event is in its trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// The event's index, from 0.
    pub index: u64,
    /// The line of the file (CSV and JSON Lines; 1-based).
    pub line: Option<u64>,
    /// The time stamp, as written in the dump (VCD: in its `$timescale`),
    /// or a data frame's integer time column.
    pub time: Option<u64>,
    /// The event's time from its time field
    /// ([`Checker::set_time`](super::check::Checker::set_time),
    /// `--time FIELD`): exact nanoseconds, and the form it was written in.
    pub timestamp: Option<Time>,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.time) {
            (Some(l), _) => write!(f, "line {l}"),
            (None, Some(t)) => write!(f, "time {t} (cycle {})", self.index),
            (None, None) => write!(f, "event {}", self.index),
        }
    }
}

/// Why a trace cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceError {
    /// The trace (a file name, or `-`).
    pub source: String,
    /// Where, when known.
    pub at: Option<String>,
    /// What was expected.
    pub message: String,
}

impl fmt::Display for TraceError {
    /// The source, the place and the message, each [escaped](super::escape)
    /// (they may quote the trace: names of columns, signals and keys).
    ///
    /// ```
    /// use monitor_core::trace::reader::TraceError;
    ///
    /// let e = TraceError {
    ///     source: "log\u{1b}[2J.csv".into(),
    ///     at: Some("line 3".into()),
    ///     message: "no column `\u{1b}[31mreq`".into(),
    /// };
    /// assert_eq!(e.to_string(), "log\\u{1b}[2J.csv, line 3: no column `\\u{1b}[31mreq`");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use super::escape;
        let (source, message) = (escape(&self.source), escape(&self.message));
        match &self.at {
            Some(at) => write!(f, "{source}, {}: {message}", escape(at)),
            None => write!(f, "{source}: {message}"),
        }
    }
}

impl std::error::Error for TraceError {}

/// A trace read event by event.
pub trait Reader {
    /// The trace's name (a file, or `-`), for messages.
    fn source(&self) -> &str;

    /// The index of the field `name` (a CSV column, a JSON path `a.b`, a
    /// VCD signal), or why there is none.
    fn resolve(&mut self, name: &str) -> Result<usize, String>;

    /// Moves to the next event; `false` at the end of the trace.
    fn advance(&mut self) -> Result<bool, TraceError>;

    /// Field `id` of the current event (`None`: absent from this event).
    fn cell(&self, id: usize) -> Option<Cell<'_>>;

    /// Where the current event is.
    fn position(&self) -> Position;

    /// Whether an asynchronous reset was active since the previous event
    /// without being active at this one (a pulse between two clock edges):
    /// the monitors restart before this event, as a checker's registers do.
    fn restarted(&self) -> bool {
        false
    }

    /// An error at the current event.
    fn error_here(&self, message: String) -> TraceError {
        TraceError {
            source: self.source().to_string(),
            at: Some(self.position().to_string()),
            message,
        }
    }
}

/// CSV with a header row (the `csv` crate).
///
/// A line ends at `\n`, `\r\n` or a lone `\r`, as the `csv` crate reads
/// them, and positions count lines the same way. A quoted field that is
/// still open at the end of the input is an error naming where its quote
/// opened (the `csv` crate would take the rest of the file into the field).
/// Two columns of the same name are an error, since a formula could not
/// say which one it means.
pub struct CsvReader<R: Read> {
    source: String,
    reader: csv::Reader<LineCounter<R>>,
    headers: Vec<String>,
    record: csv::StringRecord,
    index: u64,
    started: bool,
    /// The line the current record starts on.
    line: u64,
}

/// The input of a CSV reader: remembers the bytes not yet behind a record
/// and counts the line ends before them, so that a record gets the line it
/// starts on (the `csv` crate's count includes the blank lines skipped
/// before a record and lags on CRLF line ends).
struct LineCounter<R> {
    inner: R,
    /// Bytes served before `inner`'s (a pieces's blank line: see
    /// [`CsvReader::with_headers`]).
    prefix: &'static [u8],
    window: Vec<u8>,
    /// The offset in the input of `window[start]`.
    base: u64,
    start: usize,
    /// The line of `window[start]` (1-based).
    line: u64,
    /// Whether the byte before `window[start]` is a `\r` (then a `\n` at
    /// `window[start]` ends no line of its own).
    after_cr: bool,
    /// Whether `inner` has ended (only then can a record end in an open
    /// quote).
    ended: bool,
}

impl<R: Read> Read for LineCounter<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = if self.prefix.is_empty() {
            let n = self.inner.read(buf)?;
            self.ended |= n == 0 && !buf.is_empty();
            n
        } else {
            let n = self.prefix.len().min(buf.len());
            buf[..n].copy_from_slice(&self.prefix[..n]);
            self.prefix = &self.prefix[n..];
            n
        };
        if self.start > (1 << 16) && self.start * 2 > self.window.len() {
            self.window.drain(..self.start);
            self.start = 0;
        }
        self.window.extend_from_slice(&buf[..n]);
        Ok(n)
    }
}

impl<R> LineCounter<R> {
    fn new(inner: R, first_line: u64) -> LineCounter<R> {
        LineCounter {
            inner,
            prefix: b"",
            window: Vec::new(),
            base: 0,
            start: 0,
            line: first_line.max(1),
            after_cr: false,
            ended: false,
        }
    }

    /// The bytes from `window[start]` to offset `byte` of the input.
    fn upto(&self, byte: u64) -> &[u8] {
        let end = (byte.saturating_sub(self.base) as usize).min(self.window.len() - self.start);
        &self.window[self.start..self.start + end]
    }

    /// The number of line-end bytes (`\n`, `\r`) at and after offset `byte`
    /// (the blank lines the `csv` crate skips before a record it says
    /// starts at `byte`).
    fn blank_after(&self, byte: u64) -> usize {
        let before = self.upto(byte).len();
        self.window[self.start + before..]
            .iter()
            .take_while(|&&b| b == b'\n' || b == b'\r')
            .count()
    }

    /// The line of the first byte at or after `byte` that is not a line
    /// end (where a record that the `csv` crate says starts at `byte`
    /// really starts).
    fn line_of_record(&self, byte: u64) -> u64 {
        let k = self.upto(byte).len() + self.blank_after(byte);
        self.line + line_ends(&self.window[self.start..self.start + k], self.after_cr)
    }

    /// Forgets the input before offset `byte`.
    fn forget_before(&mut self, byte: u64) {
        let k = self.upto(byte).len();
        let gone = &self.window[self.start..self.start + k];
        let (ends, last) = (line_ends(gone, self.after_cr), gone.last().copied());
        self.line += ends;
        if let Some(last) = last {
            self.after_cr = last == b'\r';
        }
        self.start += k;
        self.base += k as u64;
    }
}

/// How many line ends `bytes` has: a `\n`, a `\r\n` or a lone `\r` is
/// one (as the `csv` crate reads them); `after_cr`: whether the byte
/// before `bytes` is a `\r` (so that a first `\n` is the end of its line).
pub(crate) fn line_ends(bytes: &[u8], after_cr: bool) -> u64 {
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(|&i| {
            bytes[i] == b'\r'
                || !(if i == 0 {
                    after_cr
                } else {
                    bytes[i - 1] == b'\r'
                })
        })
        .count() as u64
}

/// Where the quoted field that `raw` leaves open starts (its offset in
/// `raw`), if one is open at its end; `raw` is a record's bytes as the
/// `csv` crate reads them (RFC 4180 with its leniencies: a quote opens a
/// field only at its start, `""` in a quoted field is a quote, and text
/// after a closing quote joins the field).
fn open_quote(raw: &[u8]) -> Option<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        Start,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let mut s = S::Start;
    let mut opened = 0;
    for (i, &b) in raw.iter().enumerate() {
        s = match (s, b) {
            (S::Start, b'"') => {
                opened = i;
                S::Quoted
            }
            (S::Quoted, b'"') => S::QuoteInQuoted,
            (S::Quoted, _) => S::Quoted,
            (S::QuoteInQuoted, b'"') => S::Quoted,
            (_, b',' | b'\n' | b'\r') => S::Start,
            (_, _) => S::Unquoted,
        };
    }
    (s == S::Quoted).then_some(opened)
}

impl<R: Read> CsvReader<R> {
    /// Reads the header row.
    ///
    /// ```
    /// use monitor_core::trace::expr::Cell;
    /// use monitor_core::trace::reader::{CsvReader, Reader};
    ///
    /// let mut r = CsvReader::new("log.csv", "time, req,ack\n0,1,0\n1,0,1\n".as_bytes())?;
    /// let req = r.resolve("req")?;
    /// assert!(r.advance()?);
    /// assert_eq!(r.cell(req), Some(Cell::Text("1")));
    /// assert_eq!(r.position().line, Some(2));
    /// assert!(r.advance()?);
    /// assert!(!r.advance()?);
    /// // Two columns of one name: which one would `req` be?
    /// let e = CsvReader::new("log.csv", "req,ack,req\n".as_bytes()).err().unwrap();
    /// assert_eq!(e.to_string(), "log.csv, line 1: columns 1 and 3 are both named `req`");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(source: &str, input: R) -> Result<CsvReader<R>, TraceError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(true)
            .from_reader(LineCounter::new(input, 1));
        let headers = reader
            .headers()
            .map(|h| h.iter().map(|h| h.trim().to_string()).collect::<Vec<_>>());
        let headers = headers.map_err(|e| csv_error(source, e, reader.get_ref()))?;
        let start = reader
            .byte_headers()
            .ok()
            .and_then(|h| h.position())
            .map_or(0, |p| p.byte());
        let end = reader.position().byte();
        let lines = reader.get_ref();
        let at = lines.line_of_record(start);
        if let Some(e) = unclosed(source, lines, start, end, at) {
            return Err(e);
        }
        for (j, h) in headers.iter().enumerate() {
            if let Some(i) = headers[..j].iter().position(|g| g == h) {
                return Err(TraceError {
                    source: source.to_string(),
                    at: Some(format!("line {at}")),
                    message: format!("columns {} and {} are both named `{h}`", i + 1, j + 1),
                });
            }
        }
        reader.get_mut().forget_before(end);
        Ok(CsvReader {
            source: source.to_string(),
            reader,
            headers,
            record: csv::StringRecord::new(),
            index: 0,
            started: false,
            line: 1,
        })
    }

    /// A reader of a piece of a longer file, without its header row:
    /// `headers` are the file's columns, the piece's first line is line
    /// `first_line` of the file and holds event `first_index`. A
    /// byte-order mark at the start of the piece is data, as it is in the
    /// middle of a file.
    ///
    /// ```
    /// use monitor_core::trace::reader::{CsvReader, Reader};
    ///
    /// let headers = vec!["req".to_string(), "ack".to_string()];
    /// let mut r = CsvReader::with_headers("log.csv", headers, "1,0\n\n0,1\n".as_bytes(), 10, 12);
    /// assert!(r.advance()?);
    /// assert!(r.advance()?);
    /// assert_eq!((r.position().index, r.position().line), (11, Some(14)));
    /// # Ok::<(), monitor_core::trace::reader::TraceError>(())
    /// ```
    pub fn with_headers(
        source: &str,
        headers: Vec<String>,
        input: R,
        first_index: u64,
        first_line: u64,
    ) -> CsvReader<R> {
        // The `csv` crate drops a byte-order mark at the start of its
        // input; a blank line before the piece (skipped, and not counted:
        // the count starts a line earlier) keeps it.
        let mut lines = LineCounter::new(input, first_line);
        lines.line -= 1;
        lines.prefix = b"\n";
        let reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .from_reader(lines);
        CsvReader {
            source: source.to_string(),
            reader,
            headers,
            record: csv::StringRecord::new(),
            index: first_index,
            started: false,
            line: first_line,
        }
    }

    /// The column names.
    ///
    /// ```
    /// use monitor_core::trace::reader::CsvReader;
    ///
    /// let r = CsvReader::new("log.csv", "time, req,ack\n0,1,0\n".as_bytes())?;
    /// assert_eq!(r.headers(), ["time", "req", "ack"]); // trimmed
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn headers(&self) -> &[String] {
        &self.headers
    }

    /// What is left after the header row, for a reader that goes on by
    /// pieces: the line the rest starts on, and the bytes read ahead of
    /// the header's end (then the rest of `input`). A `\n` that ends the
    /// header's line after a `\r` is dropped from those bytes, so that no
    /// piece starts in the middle of a line end.
    ///
    /// Returns the headers, the line, whether a `\n` that may come first
    /// in the rest of `input` is still to be dropped (the header ended at
    /// the last byte read, a `\r`), the bytes and the input.
    pub(crate) fn into_rest(self) -> (Vec<String>, u64, bool, Vec<u8>, R) {
        let mut lines = self.reader.into_inner();
        let mut rest = lines.window.split_off(lines.start);
        let mut drop_lf = lines.after_cr;
        if drop_lf && !rest.is_empty() {
            if rest[0] == b'\n' {
                rest.remove(0);
            }
            drop_lf = false;
        }
        (self.headers, lines.line, drop_lf, rest, lines.inner)
    }
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The error of a record that leaves a quoted field open at the end of the
/// input: the record is the input from offset `start` to `end` and starts
/// on line `line`.
fn unclosed<R>(
    source: &str,
    lines: &LineCounter<R>,
    start: u64,
    end: u64,
    line: u64,
) -> Option<TraceError> {
    if !lines.ended {
        // The `csv` crate ended the record at a line end.
        return None;
    }
    let from = lines.upto(start).len() + lines.blank_after(start);
    let to = lines.upto(end).len().max(from);
    let mut raw = &lines.window[lines.start + from..lines.start + to];
    memchr::memchr(b'"', raw)?;
    if lines.base + from as u64 == 0 && raw.starts_with(BOM) {
        // The `csv` crate drops it.
        raw = &raw[BOM.len()..];
    }
    let q = open_quote(raw)?;
    let before = &raw[..q];
    let line_start = memchr::memrchr2(b'\n', b'\r', before).map_or(0, |p| p + 1);
    let column = String::from_utf8_lossy(&before[line_start..])
        .chars()
        .count()
        + 1;
    Some(TraceError {
        source: source.to_string(),
        at: Some(format!(
            "line {}, column {column}",
            line + line_ends(before, false)
        )),
        message: "the quoted field that starts here is not closed before the end of the input"
            .into(),
    })
}

fn csv_error<R>(source: &str, e: csv::Error, lines: &LineCounter<R>) -> TraceError {
    let at = e
        .position()
        .map(|p| format!("line {}", lines.line_of_record(p.byte())));
    let message = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8".to_string(),
        csv::ErrorKind::Io(io) => io.to_string(),
        _ => e.to_string(),
    };
    TraceError {
        source: source.to_string(),
        at,
        message,
    }
}

impl<R: Read> Reader for CsvReader<R> {
    fn source(&self) -> &str {
        &self.source
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        column(&self.headers, name)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        let more = self
            .reader
            .read_record(&mut self.record)
            .map_err(|e| csv_error(&self.source, e, self.reader.get_ref()))?;
        if more {
            let start = self.record.position().map_or(0, |p| p.byte());
            let lines = self.reader.get_ref();
            self.line = lines.line_of_record(start);
            let end = self.reader.position().byte();
            if let Some(e) = unclosed(&self.source, lines, start, end, self.line) {
                return Err(e);
            }
            self.reader.get_mut().forget_before(end);
            if self.record.len() != self.headers.len() {
                return Err(self.error_here(width_error(self.record.len(), self.headers.len())));
            }
        }
        Ok(more)
    }

    #[inline]
    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.record.get(id).map(Cell::Text)
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: Some(self.line),
            time: None,
            timestamp: None,
        }
    }
}

/// The index of column `name`.
fn column(headers: &[String], name: &str) -> Result<usize, String> {
    headers.iter().position(|h| h == name).ok_or_else(|| {
        // `Fail` in an LTL formula is `F ail`, as in Spot: a column whose
        // name is `name` after such operators is what was meant.
        let meant = headers.iter().find(|h| {
            h.len() > name.len()
                && h.ends_with(name)
                && h[..h.len() - name.len()]
                    .chars()
                    .all(|c| "FGXOHYZ".contains(c))
        });
        let hint = match meant {
            Some(h) => format!(
                "; in LTL, `{h}` reads as `{} {name}` (as in Spot, an upper-case F, G, X, O, \
                 H, Y or Z that begins a name is an operator): write \"{h}\" in double quotes",
                &h[..h.len() - name.len()]
            ),
            None => String::new(),
        };
        format!(
            "no column `{name}` (the columns are: {}){hint}",
            headers.join(", ")
        )
    })
}

fn width_error(fields: usize, columns: usize) -> String {
    format!("{fields} fields where the header has {columns}")
}

/// A piece of a CSV file that has no quotes, read by splitting it at line
/// ends (`\n`, `\r`, `\r\n`; blank lines skipped) into records and at
/// commas into fields: the records, fields and lines the `csv` crate reads
/// there (tested against it), at a fraction of its cost. The parallel
/// checker summarizes pieces with it; a piece it cannot read (invalid
/// UTF-8, a row of the wrong width) is read again by [`CsvReader`], which
/// says why. A piece never starts between the `\r` and the `\n` of a
/// line end.
pub(crate) struct UnquotedCsv<'a> {
    source: &'a str,
    headers: &'a [String],
    bytes: &'a [u8],
    /// The piece as text, when it is all UTF-8 (most are: then a record
    /// needs no check of its own).
    text: Option<&'a str>,
    /// The next byte to read.
    at: usize,
    record: &'a str,
    /// Where each field of `record` ends.
    ends: Vec<usize>,
    index: u64,
    started: bool,
    line: u64,
}

impl<'a> UnquotedCsv<'a> {
    /// A reader of `bytes` (without quotes), a piece of a file of columns
    /// `headers`, whose first line is line `first_line` and holds event
    /// `first_index`.
    pub(crate) fn new(
        source: &'a str,
        headers: &'a [String],
        bytes: &'a [u8],
        first_index: u64,
        first_line: u64,
    ) -> UnquotedCsv<'a> {
        debug_assert!(memchr::memchr(b'"', bytes).is_none());
        UnquotedCsv {
            source,
            headers,
            bytes,
            text: std::str::from_utf8(bytes).ok(),
            at: 0,
            record: "",
            ends: Vec::with_capacity(headers.len()),
            index: first_index,
            started: false,
            line: first_line,
        }
    }
}

/// The length of the record `bytes` starts with (up to its first `\n` or
/// `\r`, or all of `bytes`), its commas' offsets appended to `out`: one
/// pass, eight bytes at a time, where a search for the line end
/// (`memchr2`, set up anew for each record of a few dozen bytes) and then
/// for the commas took two.
#[inline]
fn record_commas(bytes: &[u8], out: &mut Vec<usize>) -> usize {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const COMMAS: u64 = 0x2c2c_2c2c_2c2c_2c2c;
    const NEWLINES: u64 = 0x0a0a_0a0a_0a0a_0a0a;
    const RETURNS: u64 = 0x0d0d_0d0d_0d0d_0d0d;
    // The high bit of each byte of `w` that is zero, and of no other:
    // adding 0x7f carries into the high bit of a byte whose low bits are
    // not all zero, and `| w` sets it for a byte whose own high bit is
    // set (no carry crosses a byte).
    let zeros = |w: u64| !(((w & LOW7) + LOW7) | w | LOW7);
    let mut words = bytes.chunks_exact(8);
    let mut base = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().expect("eight bytes"));
        let ends = zeros(w ^ NEWLINES) | zeros(w ^ RETURNS);
        let mut found = zeros(w ^ COMMAS);
        if ends != 0 {
            // The commas before the first line end, then the end.
            let end = ends.trailing_zeros() as usize / 8;
            found &= (1u64 << (end * 8)).wrapping_sub(1);
            while found != 0 {
                out.push(base + found.trailing_zeros() as usize / 8);
                found &= found - 1;
            }
            return base + end;
        }
        while found != 0 {
            out.push(base + found.trailing_zeros() as usize / 8);
            found &= found - 1;
        }
        base += 8;
    }
    for (k, &b) in words.remainder().iter().enumerate() {
        match b {
            b'\n' | b'\r' => return base + k,
            b',' => out.push(base + k),
            _ => {}
        }
    }
    bytes.len()
}

impl Reader for UnquotedCsv<'_> {
    fn source(&self) -> &str {
        self.source
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        column(self.headers, name)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        let bytes = self.bytes;
        while let Some(&b) = bytes.get(self.at) {
            match b {
                // A `\n` after a `\r` ends the same line.
                b'\n' if self.at > 0 && bytes[self.at - 1] == b'\r' => {}
                b'\n' | b'\r' => self.line += 1,
                _ => break,
            }
            self.at += 1;
        }
        if self.at == bytes.len() {
            return Ok(false);
        }
        let start = self.at;
        self.ends.clear();
        let end = start + record_commas(&bytes[start..], &mut self.ends);
        self.at = end;
        self.record = match self.text {
            Some(text) => &text[start..end],
            None => std::str::from_utf8(&bytes[start..end])
                .map_err(|_| self.error_here("invalid UTF-8".to_string()))?,
        };
        self.ends.push(self.record.len());
        if self.ends.len() != self.headers.len() {
            return Err(self.error_here(width_error(self.ends.len(), self.headers.len())));
        }
        Ok(true)
    }

    #[inline]
    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        let end = *self.ends.get(id)?;
        let start = if id == 0 { 0 } else { self.ends[id - 1] + 1 };
        Some(Cell::Text(&self.record[start..end]))
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: Some(self.line),
            time: None,
            timestamp: None,
        }
    }
}

/// JSON Lines: one JSON object per line; fields by name or dotted path.
///
/// Each line is parsed in full (so that a malformed line is an error), but
/// only the values of the fields that were resolved are kept: no map is
/// built for the others.
pub struct JsonlReader<R: BufRead> {
    source: String,
    input: R,
    paths: Vec<Vec<String>>,
    /// The resolved paths as a tree, rebuilt when a path is added.
    wanted: Vec<Wanted>,
    line: String,
    /// The value of each resolved path in the current event.
    values: Vec<Option<serde_json::Value>>,
    line_no: u64,
    index: u64,
    started: bool,
    /// Whether the input is the start of the file, where a byte-order
    /// mark is dropped.
    at_start: bool,
}

/// A key wanted at one level of the objects, and what is wanted in it.
#[derive(Clone, Debug)]
struct Wanted {
    key: String,
    /// The path that ends here.
    id: Option<usize>,
    /// The paths that go on into its value.
    inner: Vec<Wanted>,
}

fn want(tree: &mut Vec<Wanted>, path: &[String], id: usize) {
    let Some((first, rest)) = path.split_first() else {
        return;
    };
    let i = match tree.iter().position(|w| w.key == *first) {
        Some(i) => i,
        None => {
            tree.push(Wanted {
                key: first.clone(),
                id: None,
                inner: Vec::new(),
            });
            tree.len() - 1
        }
    };
    if rest.is_empty() {
        tree[i].id = Some(id);
    } else {
        want(&mut tree[i].inner, rest, id);
    }
}

/// Fills in the values of the wanted paths found below one JSON value
/// taken whole.
fn pick(tree: &[Wanted], v: &serde_json::Value, out: &mut [Option<serde_json::Value>]) {
    for w in tree {
        if let Some(x) = v.get(&w.key) {
            if let Some(id) = w.id {
                out[id] = Some(x.clone());
            }
            pick(&w.inner, x, out);
        }
    }
}

/// Deserializes an object, keeping the wanted values and skipping the
/// rest; `top` requires an object.
struct Picker<'a> {
    tree: &'a [Wanted],
    out: &'a mut [Option<serde_json::Value>],
    top: bool,
}

impl<'de> serde::de::DeserializeSeed<'de> for Picker<'_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

/// Which wanted key a key of the object is.
struct KeySeed<'a>(&'a [Wanted]);

/// A key as [`KeySeed`] reads it.
enum Key {
    /// The wanted key of this index.
    Wanted(usize),
    /// A key not wanted.
    Other,
    /// Not a key but a number: serde_json, whose `arbitrary_precision`
    /// keeps the digits of numbers (to compare them exactly), hands a
    /// number that is no 64-bit integer to a visitor as a map of one entry
    /// under this key.
    Number,
}

/// serde_json's key for numbers kept as written ([`Key::Number`]).
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de> serde::de::DeserializeSeed<'de> for KeySeed<'_> {
    type Value = Key;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed<'_> {
    type Value = Key;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Key, E> {
        if key == NUMBER_TOKEN {
            return Ok(Key::Number);
        }
        Ok(self
            .0
            .iter()
            .position(|w| w.key == key)
            .map_or(Key::Other, Key::Wanted))
    }
}

impl<'de> serde::de::Visitor<'de> for Picker<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.top { "a JSON object" } else { "a value" })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(k) = map.next_key_seed(KeySeed(self.tree))? {
            let k = match k {
                // A number where an object may be: nothing is below it,
                // and a line must be an object.
                Key::Number if self.top => {
                    return Err(serde::de::Error::invalid_type(
                        serde::de::Unexpected::Other("number"),
                        &self,
                    ));
                }
                Key::Number | Key::Other => None,
                Key::Wanted(i) => Some(i),
            };
            match k.map(|i| &self.tree[i]) {
                None => {
                    map.next_value::<serde::de::IgnoredAny>()?;
                }
                Some(w) if w.id.is_some() => {
                    let v: serde_json::Value = map.next_value()?;
                    // A later duplicate key wins, as in serde_json's maps.
                    for u in &w.inner {
                        clear(u, self.out);
                    }
                    pick(&w.inner, &v, self.out);
                    self.out[w.id.unwrap_or_default()] = Some(v);
                }
                Some(w) => {
                    for u in &w.inner {
                        clear(u, self.out);
                    }
                    map.next_value_seed(Picker {
                        tree: &w.inner,
                        out: &mut *self.out,
                        top: false,
                    })?;
                }
            }
        }
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        if self.top {
            return Err(serde::de::Error::invalid_type(
                serde::de::Unexpected::Seq,
                &self,
            ));
        }
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(())
    }

    fn visit_bool<E: serde::de::Error>(self, v: bool) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Bool(v))
    }
    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Signed(v))
    }
    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Unsigned(v))
    }
    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Float(v))
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Str(v))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.scalar(serde::de::Unexpected::Unit)
    }
}

impl Picker<'_> {
    /// A scalar where an object may be: nothing is below it.
    fn scalar<E: serde::de::Error>(self, what: serde::de::Unexpected<'_>) -> Result<(), E> {
        if self.top {
            Err(E::invalid_type(what, &self))
        } else {
            Ok(())
        }
    }
}

fn clear(w: &Wanted, out: &mut [Option<serde_json::Value>]) {
    if let Some(id) = w.id {
        out[id] = None;
    }
    for u in &w.inner {
        clear(u, out);
    }
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader of `input` (a whole file: a byte-order mark at its start is
    /// dropped).
    ///
    /// ```
    /// use monitor_core::trace::expr::Cell;
    /// use monitor_core::trace::reader::{JsonlReader, Reader};
    ///
    /// let log = "{\"req\": {\"kind\": \"GET\"}}\n{\"req\": {}}\n";
    /// let mut r = JsonlReader::new("log.jsonl", log.as_bytes());
    /// let kind = r.resolve("req.kind")?;
    /// assert!(r.advance()?);
    /// assert_eq!(r.cell(kind), Some(Cell::Json(&serde_json::json!("GET"))));
    /// assert!(r.advance()?);
    /// assert_eq!(r.cell(kind), None); // absent from the second event
    /// assert_eq!(r.position().line, Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(source: &str, input: R) -> JsonlReader<R> {
        JsonlReader {
            source: source.to_string(),
            input,
            paths: Vec::new(),
            wanted: Vec::new(),
            line: String::new(),
            values: Vec::new(),
            line_no: 0,
            index: 0,
            started: false,
            at_start: true,
        }
    }

    /// A reader of a piece of a longer file: its first line is line
    /// `first_line` of the file and holds event `first_index` (a
    /// byte-order mark there is not at the start of the file: it is an
    /// error, as JSON does not allow one).
    ///
    /// ```
    /// use monitor_core::trace::reader::{JsonlReader, Reader};
    ///
    /// let piece = "{\"up\": true}\n{\"up\": false}\n";
    /// let mut r = JsonlReader::starting_at("log.jsonl", piece.as_bytes(), 100, 201);
    /// assert!(r.advance()?);
    /// assert!(r.advance()?);
    /// assert_eq!((r.position().index, r.position().line), (101, Some(202)));
    /// # Ok::<(), monitor_core::trace::reader::TraceError>(())
    /// ```
    pub fn starting_at(
        source: &str,
        input: R,
        first_index: u64,
        first_line: u64,
    ) -> JsonlReader<R> {
        let mut r = JsonlReader::new(source, input);
        r.index = first_index;
        r.line_no = first_line.saturating_sub(1);
        r.at_start = false;
        r
    }
}

impl<R: BufRead> Reader for JsonlReader<R> {
    fn source(&self) -> &str {
        &self.source
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        let path: Vec<String> = name.split('.').map(str::to_string).collect();
        if let Some(i) = self.paths.iter().position(|p| *p == path) {
            return Ok(i);
        }
        want(&mut self.wanted, &path, self.paths.len());
        self.paths.push(path);
        self.values.push(None);
        Ok(self.paths.len() - 1)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        self.line.clear();
        if std::mem::take(&mut self.at_start) {
            // A byte-order mark at the start of the file is no part of its
            // first line (a file of only one has no line).
            if let Ok(b) = self.input.fill_buf() {
                if b.starts_with(BOM) {
                    self.input.consume(BOM.len());
                }
            }
        }
        let n = self
            .input
            .read_line(&mut self.line)
            .map_err(|e| TraceError {
                source: self.source.clone(),
                at: Some(format!("line {}", self.line_no + 1)),
                message: if e.kind() == std::io::ErrorKind::InvalidData {
                    "invalid UTF-8".into()
                } else {
                    e.to_string()
                },
            })?;
        if n == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        let text = self.line.trim_end_matches(['\n', '\r']);
        self.values.iter_mut().for_each(|v| *v = None);
        let mut de = serde_json::Deserializer::from_str(text);
        let picked = serde::de::DeserializeSeed::deserialize(
            Picker {
                tree: &self.wanted,
                out: &mut self.values,
                top: true,
            },
            &mut de,
        )
        .and_then(|()| de.end());
        if let Err(e) = picked {
            if e.classify() == serde_json::error::Category::Data {
                return Err(
                    self.error_here(format!("expected a JSON object, found {}", truncate(text)))
                );
            }
            return Err(TraceError {
                source: self.source.clone(),
                at: Some(format!(
                    "line {}, column {}",
                    self.line_no,
                    e.column().max(1)
                )),
                message: if text.trim().is_empty() {
                    "an empty line (JSON Lines has one JSON object per line)".into()
                } else {
                    // serde_json's message ends with its own (one-line) position.
                    let m = e.to_string();
                    let m = m
                        .rsplit_once(" at line ")
                        .map_or(m.as_str(), |(m, _)| m)
                        .to_string();
                    format!("invalid JSON: {m}")
                },
            });
        }
        Ok(true)
    }

    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.values.get(id)?.as_ref().map(Cell::Json)
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: Some(self.line_no),
            time: None,
            timestamp: None,
        }
    }
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 60 {
        format!("{}…", s.chars().take(60).collect::<String>())
    } else {
        s.to_string()
    }
}

/// Which clock edge samples a waveform.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Edge {
    /// The rising edge (0 to 1; also 0 to x or z, and x or z to 1, as in
    /// Verilog; the first value dumped is no edge).
    #[default]
    Posedge,
    /// The falling edge (1 to 0; also 1 to x or z, and x or z to 0).
    Negedge,
}

/// A signal of a waveform and its current value.
#[derive(Clone, Debug)]
struct Signal {
    name: String,
    width: usize,
    /// `0`, `1`, `x`, `z`, most significant bit first; empty until dumped.
    bits: Vec<u8>,
    real: Option<f64>,
}

/// VCD (IEEE 1364 value change dumps, with the `vcd` crate): an event per
/// clock edge, with the values the signals had just before it (what a
/// clocked checker samples), or, without a clock, an event per time step
/// with the values at its end.
pub struct VcdReader<R: BufRead> {
    source: String,
    parser: vcd::Parser<VcdInput<R>>,
    /// Every variable: full hierarchical name, its code, its width.
    vars: Vec<(String, vcd::IdCode, u32, bool)>,
    /// The signals read (resolved names and the clock), by slot.
    signals: Vec<Signal>,
    slot_of: rustc_hash::FxHashMap<vcd::IdCode, usize>,
    clock: Option<(usize, Edge)>,
    /// An asynchronous reset: its slot and a digit at which it is inactive.
    async_reset: Option<(usize, u8)>,
    /// An asynchronous reset condition (a compound `disable iff`) and the
    /// slots it reads.
    async_condition: Option<(Expr, Vec<usize>)>,
    /// Whether that reset was active since the last event, and whether it
    /// was when the current event was read.
    reset_seen: bool,
    restarted: bool,
    /// Changes of the current time step, applied after its event (with a
    /// clock: the event reads the values before them): the slot, its
    /// digits (a range of `pending_bits`) or real value.
    pending: Vec<(usize, std::ops::Range<usize>, Option<f64>)>,
    pending_bits: Vec<u8>,
    /// The time step being read, and whether it had changes.
    time: Option<u64>,
    event_time: u64,
    index: u64,
    started: bool,
    ended: bool,
}

impl<R: BufRead> VcdReader<R> {
    /// Reads the header; `clock` names the signal whose edges sample the
    /// others (`None`: every time step is an event).
    ///
    /// ```
    /// use monitor_core::trace::expr::Cell;
    /// use monitor_core::trace::reader::{Edge, Reader, VcdReader};
    ///
    /// let dump = "$scope module tb $end
    /// $var wire 1 ! clk $end
    /// $var wire 4 % count $end
    /// $upscope $end
    /// $enddefinitions $end
    /// #0 0! b0000 % #5 1! b0001 % #10 0! #15 1! b0010 % #20 0!\n";
    /// let mut r = VcdReader::new("t.vcd", dump.as_bytes(), Some(("clk", Edge::Posedge)))?;
    /// let count = r.resolve("count")?;
    /// let mut seen = Vec::new();
    /// while r.advance()? {
    ///     // The values just before each rising edge.
    ///     assert_eq!(r.cell(count), Some(Cell::Bits(if seen.is_empty() { b"0000" } else { b"0001" })));
    ///     seen.push(r.position().to_string());
    /// }
    /// assert_eq!(seen, ["time 5 (cycle 0)", "time 15 (cycle 1)"]);
    /// // Without a clock, every time step is an event.
    /// let mut r = VcdReader::new("t.vcd", dump.as_bytes(), None)?;
    /// let mut events = 0;
    /// while r.advance()? {
    ///     events += 1;
    /// }
    /// assert_eq!(events, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        source: &str,
        input: R,
        clock: Option<(&str, Edge)>,
    ) -> Result<VcdReader<R>, TraceError> {
        let mut parser = vcd::Parser::new(VcdInput::new(input));
        let header = parser
            .parse_header()
            .map_err(|e| vcd_error(source, &e, &mut parser, true))?;
        let mut vars = Vec::new();
        fn walk(
            items: &[vcd::ScopeItem],
            prefix: &str,
            out: &mut Vec<(String, vcd::IdCode, u32, bool)>,
        ) {
            for item in items {
                match item {
                    vcd::ScopeItem::Scope(s) => {
                        walk(&s.items, &format!("{prefix}{}.", s.identifier), out)
                    }
                    vcd::ScopeItem::Var(v) => {
                        let mut name = format!("{prefix}{}", v.reference);
                        if let Some(vcd::ReferenceIndex::BitSelect(i)) = v.index {
                            // A bit dumped alone: `data[3]` is its name.
                            name = format!("{name}[{i}]");
                        }
                        out.push((name, v.code, v.size, v.var_type == vcd::VarType::Real));
                    }
                    _ => {}
                }
            }
        }
        walk(&header.items, "", &mut vars);
        let mut r = VcdReader {
            source: source.to_string(),
            parser,
            vars,
            signals: Vec::new(),
            slot_of: Default::default(),
            clock: None,
            async_reset: None,
            async_condition: None,
            reset_seen: false,
            restarted: false,
            pending: Vec::new(),
            pending_bits: Vec::new(),
            time: None,
            event_time: 0,
            index: 0,
            started: false,
            ended: false,
        };
        if let Some((name, edge)) = clock {
            let slot = r.resolve(name).map_err(|m| TraceError {
                source: source.to_string(),
                at: None,
                message: format!("--clock: {m}"),
            })?;
            if r.signals[slot].width != 1 {
                return Err(TraceError {
                    source: source.to_string(),
                    at: None,
                    message: format!(
                        "--clock {name}: a {}-bit signal, not a clock",
                        r.signals[slot].width
                    ),
                });
            }
            r.clock = Some((slot, edge));
        }
        Ok(r)
    }

    /// Makes `name` an asynchronous reset (active at 1 if `active_high`,
    /// else at 0; an unknown value counts as active): with a clock, a reset
    /// pulse that starts and ends between two edges, which restarts a
    /// checker with an asynchronous reset, restarts the monitors before the
    /// next edge's event ([`Reader::restarted`]). Holding the monitors while
    /// the reset is active at an edge is the checker's reset expression's
    /// job ([`Checker::set_reset`](super::check::Checker::set_reset)).
    ///
    /// ```
    /// use monitor_core::trace::reader::{Edge, Reader, VcdReader};
    ///
    /// // rst_n pulses low between the edges at 5 and 15.
    /// let dump = "$scope module tb $end
    /// $var wire 1 ! clk $end
    /// $var wire 1 \" rst_n $end
    /// $upscope $end
    /// $enddefinitions $end
    /// #0 0! 1\" #5 1! #10 0! 0\" #11 1\" #15 1! #20 0! #25 1!\n";
    /// let mut r = VcdReader::new("t.vcd", dump.as_bytes(), Some(("clk", Edge::Posedge)))?;
    /// r.set_async_reset("rst_n", false)?;
    /// let mut restarts = Vec::new();
    /// while r.advance()? {
    ///     restarts.push(r.restarted());
    /// }
    /// assert_eq!(restarts, [false, true, false]);
    /// # Ok::<(), monitor_core::trace::reader::TraceError>(())
    /// ```
    pub fn set_async_reset(&mut self, name: &str, active_high: bool) -> Result<(), TraceError> {
        let slot = self.resolve(name).map_err(|m| TraceError {
            source: self.source.clone(),
            at: None,
            message: format!("--reset: {m}"),
        })?;
        if self.signals[slot].width != 1 {
            return Err(TraceError {
                source: self.source.clone(),
                at: None,
                message: format!(
                    "--reset {name}: a {}-bit signal, not a reset",
                    self.signals[slot].width
                ),
            });
        }
        self.async_reset = Some((slot, if active_high { b'0' } else { b'1' }));
        Ok(())
    }

    /// Makes the condition `reset` (`!rst_ni || flush_i`, over the
    /// trace's signals) an asynchronous reset, as
    /// [`VcdReader::set_async_reset`] does for one signal: a pulse of the
    /// condition between two edges (a time step after which it is true, or
    /// unknown) restarts the monitors before the next edge's event.
    ///
    /// ```
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::{Edge, Reader, VcdReader};
    ///
    /// // flush pulses high between the edges at 5 and 15.
    /// let dump = "$scope module tb $end
    /// $var wire 1 ! clk $end
    /// $var wire 1 \" rst_n $end
    /// $var wire 1 # flush $end
    /// $upscope $end
    /// $enddefinitions $end
    /// #0 0! 1\" 0# #5 1! #10 0! 1# #11 0# #15 1! #20 0! #25 1!\n";
    /// let mut r = VcdReader::new("t.vcd", dump.as_bytes(), Some(("clk", Edge::Posedge)))?;
    /// r.set_async_reset_condition(Expr::parse("!rst_n || flush")?)?;
    /// let mut restarts = Vec::new();
    /// while r.advance()? {
    ///     restarts.push(r.restarted());
    /// }
    /// assert_eq!(restarts, [false, true, false]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_async_reset_condition(&mut self, mut reset: Expr) -> Result<(), TraceError> {
        let mut slots = Vec::new();
        reset
            .resolve(&mut |name: &str| {
                let slot = self.resolve(name)?;
                slots.push(slot);
                Ok::<usize, String>(slot)
            })
            .map_err(|m| TraceError {
                source: self.source.clone(),
                at: None,
                message: format!("the reset condition: {m}"),
            })?;
        self.async_condition = Some((reset, slots));
        Ok(())
    }

    /// The full names of the signals.
    ///
    /// ```
    /// use monitor_core::trace::reader::VcdReader;
    ///
    /// let dump = "$scope module tb $end
    /// $var wire 1 ! clk $end
    /// $scope module dut $end
    /// $var wire 8 % data $end
    /// $upscope $end
    /// $upscope $end
    /// $enddefinitions $end
    /// #0 0! b0 %\n";
    /// let r = VcdReader::new("t.vcd", dump.as_bytes(), None)?;
    /// assert_eq!(r.signal_names().collect::<Vec<_>>(), ["tb.clk", "tb.dut.data"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn signal_names(&self) -> impl Iterator<Item = &str> {
        self.vars.iter().map(|v| v.0.as_str())
    }

    fn apply(s: &mut Signal, bits: &[u8], real: Option<f64>) {
        s.real = real;
        if real.is_some() {
            // No bits (a clock or a reset given a real value has no level).
            s.bits.clear();
        } else {
            // Vectors may be written shorter than their width: extend with
            // 0, or with x or z when the first digit is one.
            let fill = match bits.first() {
                Some(b'x') => b'x',
                Some(b'z') => b'z',
                _ => b'0',
            };
            s.bits.clear();
            if bits.len() < s.width {
                s.bits.resize(s.width - bits.len(), fill);
            }
            let skip = bits.len().saturating_sub(s.width);
            s.bits.extend_from_slice(&bits[skip..]);
        }
    }

    fn apply_pending(&mut self) {
        let reset = self.async_reset;
        let mut touched = false;
        for (slot, bits, real) in self.pending.drain(..) {
            let s = &mut self.signals[slot];
            Self::apply(s, &self.pending_bits[bits], real);
            // Every value a reset takes counts, even between two edges.
            if let Some((r, inactive)) = reset {
                self.reset_seen |= r == slot && s.bits.first() != Some(&inactive);
            }
            touched |= self
                .async_condition
                .as_ref()
                .is_some_and(|(_, slots)| slots.contains(&slot));
        }
        // A condition is read once its signals have all taken the time
        // step's values (between two of them, a simultaneous change of two
        // signals would look like a pulse).
        if let (true, Some((condition, _))) = (touched, &self.async_condition) {
            let signals = &self.signals;
            // Unknown counts as active, as for one signal.
            self.reset_seen |= condition
                .eval(&|id| signals.get(id).map(signal_cell))
                .unwrap_or(true);
        }
        self.pending_bits.clear();
    }

    /// Whether the clock has its sampling edge in the pending changes.
    fn clock_edge(&self) -> bool {
        let Some((slot, edge)) = self.clock else {
            return false;
        };
        let before = self.signals[slot].bits.first().copied();
        let after = self
            .pending
            .iter()
            .rev()
            .find(|(s, _, _)| *s == slot)
            .and_then(|(_, b, _)| self.pending_bits[b.clone()].last().copied());
        // A clock's first value is where it starts, no edge (whether a
        // simulator's checker sees its variable's x turn into that value at
        // time 0 is a race).
        let (Some(before), Some(after)) = (before, after) else {
            return false;
        };
        // IEEE 1364-2005 §9.7.2 (IEEE 1800-2017 §9.4.2, table 9-2): a
        // change from 0 to x or z, and from x or z to 1, is a posedge too
        // (dually a negedge), as simulators and the checkers in them count
        // it; a clock that is x until its first 1 has its first edge there.
        // (Anything else, a real number, is no level: no edge.)
        let level = |v: u8| match v {
            b'0' => Some(0),
            b'1' => Some(2),
            b'x' | b'X' | b'z' | b'Z' => Some(1),
            _ => None,
        };
        let (Some(b), Some(a)) = (level(before), level(after)) else {
            return false;
        };
        match edge {
            Edge::Posedge => b < a,
            Edge::Negedge => b > a,
        }
    }

    /// Ends the time step being read: whether it is an event.
    fn end_step(&mut self) -> bool {
        let Some(t) = self.time else {
            // Values dumped before the first time stamp are the start.
            self.apply_pending();
            return false;
        };
        if self.clock.is_some() {
            if self.clock_edge() {
                // The event reads the values before this step's changes,
                // which `advance` applies next.
                self.event_time = t;
                self.restarted = std::mem::take(&mut self.reset_seen);
                return true;
            }
            self.apply_pending();
            false
        } else {
            self.apply_pending();
            self.event_time = t;
            true
        }
    }
}

/// A VCD digit.
fn digit(v: vcd::Value) -> u8 {
    match v {
        vcd::Value::V0 => b'0',
        vcd::Value::V1 => b'1',
        vcd::Value::X => b'x',
        vcd::Value::Z => b'z',
    }
}

/// The input of the VCD parser: the dump without a byte-order mark at its
/// start, then a line end (the parser takes a last value change cut by the
/// end of the file, as in a dump still being written). It keeps the last
/// bytes the parser read, so that an error can quote the text it is in and
/// tell a dump cut short (the parser read past its end) from bad text.
struct VcdInput<R> {
    inner: R,
    /// The first bytes of the dump, read to look for a byte-order mark,
    /// and how many of them were served.
    head: Vec<u8>,
    served: usize,
    /// Whether `head` was read, the dump ended, and the line end after it
    /// was served.
    started: bool,
    ended: bool,
    past_end: bool,
    /// The last bytes read, `recent_len` of them, ending at `recent_at`
    /// (a ring).
    recent: [u8; RECENT],
    recent_at: usize,
    recent_len: usize,
    /// The line ends read in the dump (not the one after it).
    line_ends: u64,
    /// Whether the last byte of the dump read is a line end.
    at_line_end: bool,
}

/// How many of the last bytes read a VCD error can quote.
const RECENT: usize = 128;

impl<R: BufRead> VcdInput<R> {
    fn new(inner: R) -> VcdInput<R> {
        VcdInput {
            inner,
            head: Vec::new(),
            served: 0,
            started: false,
            ended: false,
            past_end: false,
            recent: [0; RECENT],
            recent_at: 0,
            recent_len: 0,
            line_ends: 0,
            at_line_end: false,
        }
    }

    /// The last line of the dump (where a dump cut short ends).
    fn last_line(&self) -> u64 {
        self.line_ends + u64::from(!self.at_line_end).max(u64::from(self.line_ends == 0))
    }

    /// The text of the last line read that has any, trimmed and cut short.
    fn snippet(&self) -> String {
        let mut bytes = Vec::with_capacity(self.recent_len);
        for k in 0..self.recent_len {
            bytes.push(self.recent[(self.recent_at + RECENT - self.recent_len + k) % RECENT]);
        }
        let text = String::from_utf8_lossy(&bytes);
        let line = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim();
        truncate(line)
    }
}

impl<R: BufRead> VcdInput<R> {
    /// Notes bytes read from the dump.
    #[inline]
    fn record(&mut self, taken: &[u8]) {
        for &b in taken {
            self.recent[self.recent_at] = b;
            self.recent_at = (self.recent_at + 1) % RECENT;
            self.line_ends += u64::from(b == b'\n');
        }
        self.recent_len = (self.recent_len + taken.len()).min(RECENT);
        if let Some(&b) = taken.last() {
            self.at_line_end = b == b'\n';
        }
    }
}

impl<R: BufRead> Read for VcdInput<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // The parser reads a byte at a time: the dump's bytes go straight
        // through.
        if self.started && self.served >= self.head.len() && !self.ended {
            let n = self.inner.read(buf)?;
            if n > 0 || buf.is_empty() {
                self.record(&buf[..n]);
                return Ok(n);
            }
        }
        let n = {
            let b = self.fill_buf()?;
            let n = b.len().min(buf.len());
            buf[..n].copy_from_slice(&b[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for VcdInput<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if !self.started {
            self.started = true;
            while self.head.len() < BOM.len() {
                let b = self.inner.fill_buf()?;
                if b.is_empty() {
                    break;
                }
                let n = b.len().min(BOM.len() - self.head.len());
                self.head.extend_from_slice(&b[..n]);
                self.inner.consume(n);
            }
            if self.head == BOM {
                self.head.clear();
            }
        }
        if self.served < self.head.len() {
            return Ok(&self.head[self.served..]);
        }
        if !self.ended {
            if !self.inner.fill_buf()?.is_empty() {
                return self.inner.fill_buf();
            }
            self.ended = true;
        }
        Ok(if self.past_end { &[] } else { b"\n" })
    }

    fn consume(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        // (Only what `fill_buf` just gave is consumed.)
        let taken: Vec<u8> = if self.served < self.head.len() {
            self.head[self.served..self.served + n].to_vec()
        } else if !self.ended {
            match self.inner.fill_buf() {
                Ok(b) => b[..n.min(b.len())].to_vec(),
                Err(_) => Vec::new(),
            }
        } else {
            // The line end after the dump: not one of its lines.
            let (ends, at_end) = (self.line_ends, self.at_line_end);
            self.record(b"\n");
            (self.line_ends, self.at_line_end) = (ends, at_end);
            Vec::new()
        };
        self.record(&taken);
        if self.served < self.head.len() {
            self.served += n;
        } else if !self.ended {
            self.inner.consume(n);
        } else {
            self.past_end = true;
        }
    }
}

/// What is wrong with a dump, and where: the parser's message, the text it
/// is in, and whether the dump was cut short (the parser needed text past
/// its end: a truncated file says so instead of blaming what it cut).
fn vcd_error<R: BufRead>(
    source: &str,
    e: &std::io::Error,
    parser: &mut vcd::Parser<VcdInput<R>>,
    in_header: bool,
) -> TraceError {
    let parse = e
        .get_ref()
        .and_then(|i| i.downcast_ref::<vcd::ParseError>());
    let line = parse.map_or(parser.line(), vcd::ParseError::line);
    let input = parser.reader();
    let (cut, near) = (input.past_end, input.snippet());
    // Cut short: where the dump ends.
    let line = if cut { input.last_line() } else { line };
    let near = if near.is_empty() {
        String::new()
    } else {
        format!(" in `{near}`")
    };
    let message = match parse.map(vcd::ParseError::kind) {
        _ if cut && in_header => {
            format!("the dump ends before `$enddefinitions` (its header is cut short{near})")
        }
        _ if cut => format!("the dump ends in the middle of a command{near} (cut short)"),
        Some(
            vcd::ParseErrorKind::ParseIntError(_) | vcd::ParseErrorKind::InvalidTimescaleUnit(_),
        ) if near.starts_with(" in `$timescale") => format!(
            "`$timescale` needs a number and a unit, as in `$timescale 1ns $end`{}",
            near.replacen(" in", ", not", 1)
        ),
        Some(
            k @ (vcd::ParseErrorKind::ParseIntError(_) | vcd::ParseErrorKind::ParseFloatError(_)),
        ) => format!("expected a number{near} ({k})"),
        Some(k) => format!("{k}{near}"),
        None => format!("{e}{near}"),
    };
    TraceError {
        source: source.to_string(),
        at: Some(format!("line {line}")),
        message,
    }
}

impl<R: BufRead> Reader for VcdReader<R> {
    fn source(&self) -> &str {
        &self.source
    }

    fn resolve(&mut self, name: &str) -> Result<usize, String> {
        let matches: Vec<&(String, vcd::IdCode, u32, bool)> = self
            .vars
            .iter()
            .filter(|(full, ..)| full == name || full.ends_with(&format!(".{name}")))
            .collect();
        let Some(&&(ref full, code, width, real)) = matches.first() else {
            let some: Vec<&str> = self.vars.iter().take(12).map(|v| v.0.as_str()).collect();
            return Err(format!(
                "no signal `{name}` in the dump (its signals include: {}{})",
                some.join(", "),
                if self.vars.len() > 12 { ", …" } else { "" }
            ));
        };
        // Several names of one signal (ports of nested modules) are one.
        if let Some(other) = matches.iter().find(|m| m.1 != code) {
            return Err(format!(
                "`{name}` is ambiguous: `{full}` and `{}` are different signals; give the hierarchical name",
                other.0
            ));
        }
        if let Some(&slot) = self.slot_of.get(&code) {
            return Ok(slot);
        }
        self.signals.push(Signal {
            name: full.clone(),
            width: if real { 1 } else { width.max(1) as usize },
            bits: Vec::new(),
            real: None,
        });
        self.slot_of.insert(code, self.signals.len() - 1);
        Ok(self.signals.len() - 1)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        if self.ended {
            return Ok(false);
        }
        // With a clock, the last event's step still has its changes.
        self.apply_pending();
        loop {
            let Some(cmd) = self.parser.next() else {
                self.ended = true;
                let event = self.end_step();
                self.time = None;
                return Ok(event);
            };
            let line = self.parser.line();
            let cmd = cmd.map_err(|e| vcd_error(&self.source, &e, &mut self.parser, false))?;
            match cmd {
                // The same time again (simulators write `#t` once per
                // delta cycle, some dumps once per process): the same
                // step, whose event has the values at its end.
                vcd::Command::Timestamp(t) if self.time == Some(t) => {}
                vcd::Command::Timestamp(t) => {
                    let event = self.end_step();
                    if self.time.is_some_and(|prev| t < prev) {
                        return Err(TraceError {
                            source: self.source.clone(),
                            at: Some(format!("line {line}")),
                            message: format!(
                                "time #{t} goes back (after #{})",
                                self.time.unwrap_or(0)
                            ),
                        });
                    }
                    self.time = Some(t);
                    if event {
                        return Ok(true);
                    }
                }
                vcd::Command::ChangeScalar(code, v) => {
                    if let Some(&slot) = self.slot_of.get(&code) {
                        let at = self.pending_bits.len();
                        self.pending_bits.push(digit(v));
                        self.pending.push((slot, at..at + 1, None));
                    }
                }
                vcd::Command::ChangeVector(code, v) => {
                    if let Some(&slot) = self.slot_of.get(&code) {
                        let at = self.pending_bits.len();
                        self.pending_bits.extend(v.iter().map(digit));
                        self.pending.push((slot, at..self.pending_bits.len(), None));
                    }
                }
                vcd::Command::ChangeReal(code, x) => {
                    if let Some(&slot) = self.slot_of.get(&code) {
                        let at = self.pending_bits.len();
                        self.pending.push((slot, at..at, Some(x)));
                    }
                }
                _ => {}
            }
        }
    }

    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.signals.get(id).map(signal_cell)
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: None,
            time: Some(self.event_time),
            timestamp: None,
        }
    }

    fn restarted(&self) -> bool {
        self.restarted
    }
}

impl<R: BufRead> VcdReader<R> {
    /// The full name of signal `id`.
    ///
    /// ```
    /// use monitor_core::trace::reader::{Reader, VcdReader};
    ///
    /// let dump = "$scope module tb $end
    /// $var wire 1 ! clk $end
    /// $var wire 8 % data $end
    /// $upscope $end
    /// $enddefinitions $end
    /// #0 0! b0 %\n";
    /// let mut r = VcdReader::new("t.vcd", dump.as_bytes(), None)?;
    /// let data = r.resolve("data")?;
    /// assert_eq!(r.signal_name(data), Some("tb.data"));
    /// assert_eq!(r.signal_name(data + 1), None); // not resolved
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn signal_name(&self, id: usize) -> Option<&str> {
        self.signals.get(id).map(|s| s.name.as_str())
    }
}

/// A VCD signal's current value as a cell.
fn signal_cell(s: &Signal) -> Cell<'_> {
    if let Some(r) = s.real {
        return Cell::Real(r);
    }
    if s.bits.is_empty() {
        // Never dumped: unknown.
        return Cell::Bits(b"x");
    }
    Cell::Bits(&s.bits)
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_column_read_as_an_operator_and_a_name_is_named() {
        let headers = ["event".to_string(), "Fail".to_string()];
        let e = super::column(&headers, "ail").unwrap_err();
        assert!(e.contains("`Fail` reads as `F ail`"), "{e}");
        assert!(e.contains("write \"Fail\" in double quotes"), "{e}");
        let e = super::column(&headers, "vent").unwrap_err();
        assert!(!e.contains("reads as"), "{e}");
        assert_eq!(super::column(&headers, "Fail"), Ok(1));
    }

    use super::*;

    /// What a reader reads: per event, its fields and position, or the
    /// error (the message and where).
    fn read_all(
        r: &mut impl Reader,
        width: usize,
    ) -> Vec<Result<(Vec<String>, Position), TraceError>> {
        let mut out = Vec::new();
        loop {
            match r.advance() {
                Ok(true) => {
                    let fields = (0..width)
                        .map(|id| match r.cell(id) {
                            Some(Cell::Text(t)) => t.to_string(),
                            other => panic!("{other:?}"),
                        })
                        .collect();
                    out.push(Ok((fields, r.position())));
                }
                Ok(false) => return out,
                Err(e) => {
                    out.push(Err(e));
                    return out;
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// On pieces without quotes, the hand-written reader reads the
        /// `csv` crate's records, fields and lines (a lone `\r` ends a
        /// line), and the same errors; a byte-order mark is data in both.
        #[test]
        fn unquoted_csv_reads_what_the_csv_crate_reads(
            pieces in proptest::collection::vec(0usize..12, 0..60),
            width in 1usize..4,
            first_index in 0u64..5,
            first_line in 1u64..5,
        ) {
            const PIECES: [&[u8]; 12] = [
                b"0", b"1", b"ab", b",", b"\n", b"\r", b"\r\n", b" ", b"\xef\xbb\xbf",
                b"\xff", "é".as_bytes(), b"\n\n",
            ];
            let bytes: Vec<u8> = pieces.iter().flat_map(|&p| PIECES[p].iter().copied()).collect();
            let headers: Vec<String> = (0..width).map(|k| format!("f{k}")).collect();
            let theirs = read_all(
                &mut CsvReader::with_headers("t.csv", headers.clone(), &bytes[..], first_index, first_line),
                width,
            );
            let ours = read_all(
                &mut UnquotedCsv::new("t.csv", &headers, &bytes, first_index, first_line),
                width,
            );
            let shown = String::from_utf8_lossy(&bytes);
            proptest::prop_assert_eq!(&ours, &theirs, "{:?}", shown);
        }
    }

    proptest::proptest! {
        /// A record's end and commas found eight bytes at a time are those
        /// found one byte at a time, whatever the other bytes.
        #[test]
        fn record_ends_and_commas_are_found_a_word_at_a_time(
            bytes in proptest::collection::vec(
                proptest::sample::select(vec![
                    b',', b'\n', b'\r', b'+', b'-', 0, 0x0b, 0x8a, 0x8d, 0xac, 0x7f, 0xff, b'a',
                ]),
                0..40,
            ),
        ) {
            let mut found = Vec::new();
            let end = record_commas(&bytes, &mut found);
            let want_end = bytes.iter().position(|&b| b == b'\n' || b == b'\r').unwrap_or(bytes.len());
            let want: Vec<usize> = (0..want_end).filter(|&k| bytes[k] == b',').collect();
            proptest::prop_assert_eq!(end, want_end);
            proptest::prop_assert_eq!(found, want);
        }
    }

    fn csv_lines(text: &str) -> Vec<(u64, Option<u64>, String)> {
        let mut r = CsvReader::new("t.csv", text.as_bytes()).unwrap();
        let mut out = Vec::new();
        while r.advance().unwrap() {
            let p = r.position();
            out.push((p.index, p.line, r.record.get(0).unwrap_or("").to_string()));
        }
        out
    }

    #[test]
    fn csv_records_have_the_line_they_start_on() {
        let l = |v: &[(u64, u64, &str)]| -> Vec<(u64, Option<u64>, String)> {
            v.iter()
                .map(|&(i, l, s)| (i, Some(l), s.to_string()))
                .collect()
        };
        // Blank lines are not events, but they are lines.
        assert_eq!(
            csv_lines("h\n1\n\n2\n\n\n3"),
            l(&[(0, 2, "1"), (1, 4, "2"), (2, 7, "3")])
        );
        // CRLF line ends, blank CRLF lines.
        assert_eq!(
            csv_lines("h\r\n1\r\n\r\n2\r\n3"),
            l(&[(0, 2, "1"), (1, 4, "2"), (2, 5, "3")])
        );
        // A quoted field over two lines: the next record is two lines on.
        assert_eq!(
            csv_lines("h\n\"a\nb\"\n\n4\n"),
            l(&[(0, 2, "a\nb"), (1, 5, "4")])
        );
        // Errors are at the line of the record too.
        let mut r = CsvReader::new("t.csv", "a,b\n1,2\n\n\n3\n".as_bytes()).unwrap();
        assert!(r.advance().unwrap());
        let e = r.advance().unwrap_err();
        assert_eq!(
            e.to_string(),
            "t.csv, line 5: 1 fields where the header has 2"
        );
        let mut r = CsvReader::new("t.csv", &b"a\n1\n\n\xff\n"[..]).unwrap();
        assert!(r.advance().unwrap());
        assert_eq!(
            r.advance().unwrap_err().to_string(),
            "t.csv, line 4: invalid UTF-8"
        );
        // Long logs: the window of remembered bytes is trimmed as it goes.
        let mut big = String::from("x\n");
        for k in 0..100_000 {
            big.push_str(if k % 3 == 0 { "1\n\n" } else { "0\r\n" });
        }
        let lines = csv_lines(&big);
        assert_eq!(lines.len(), 100_000);
        // Record k is on line 2 + k + (the blank lines before it: one per j < k, j % 3 == 0).
        assert_eq!(lines[99_999].1, Some(2 + 99_999 + 33_333));
    }

    /// A clock of period 10 (rising at 5, 15, 25, …), `rst_n` low until
    /// 12, `d` a 4-bit vector and `v` a bit changed at the rising edges
    /// (as registers are) and between them.
    const DUMP: &str = "$timescale 1ns $end
$scope module tb $end
$var reg 1 ! clk $end
$var reg 1 \" rst_n $end
$var wire 4 # d [3:0] $end
$var wire 1 $ v $end
$scope module dut $end
$var wire 1 $ v $end
$var wire 1 % w $end
$upscope $end
$upscope $end
$enddefinitions $end
#0
$dumpvars
0!
0\"
bx #
0$
1%
$end
#5
1!
b1010 #
#10
0!
1$
#12
1\"
#15
1!
0$
b11 #
#20
0!
#25
1!
";

    fn read(clock: Option<(&str, Edge)>, fields: &[&str]) -> Vec<(Option<u64>, Vec<String>)> {
        let mut r = VcdReader::new("t.vcd", DUMP.as_bytes(), clock).unwrap();
        let ids: Vec<usize> = fields.iter().map(|f| r.resolve(f).unwrap()).collect();
        let mut out = Vec::new();
        while r.advance().unwrap() {
            let vals = ids
                .iter()
                .map(|&i| match r.cell(i) {
                    Some(Cell::Bits(b)) => String::from_utf8(b.to_vec()).unwrap(),
                    other => format!("{other:?}"),
                })
                .collect();
            out.push((r.position().time, vals));
        }
        out
    }

    #[test]
    fn clock_edges_sample_the_values_before_the_edge() {
        let s = |t: u64, v: &[&str]| (Some(t), v.iter().map(|x| x.to_string()).collect::<Vec<_>>());
        assert_eq!(
            read(Some(("clk", Edge::Posedge)), &["d", "v", "rst_n"]),
            [
                s(5, &["xxxx", "0", "0"]),
                s(15, &["1010", "1", "1"]),
                s(25, &["0011", "0", "1"]),
            ]
        );
        assert_eq!(
            read(Some(("tb.clk", Edge::Negedge)), &["tb.d"]),
            [s(10, &["1010"]), s(20, &["0011"])]
        );
        // Without a clock: every time step, with its values at its end.
        let steps = read(None, &["v"]);
        assert_eq!(steps.len(), 7);
        assert_eq!(steps[2], s(10, &["1"]));
    }

    /// Edges through x and z count as Verilog counts them (IEEE 1364
    /// §9.7.2): Icarus counts four posedges and four negedges of this clock.
    #[test]
    fn clock_edges_through_unknown_values_are_edges() {
        let dump = "$var wire 1 ! clk $end\n$enddefinitions $end\n\
                    #0\n0!\n#5\nx!\n#10\n1!\n#15\n0!\n#20\nz!\n#25\n0!\n#30\n1!\n#35\nx!\n#40\n0!\n";
        let edges = |edge| {
            let mut r = VcdReader::new("t.vcd", dump.as_bytes(), Some(("clk", edge))).unwrap();
            let mut times = Vec::new();
            while r.advance().unwrap() {
                times.push(r.position().time.unwrap());
            }
            times
        };
        assert_eq!(edges(Edge::Posedge), [5, 10, 20, 30]);
        assert_eq!(edges(Edge::Negedge), [15, 25, 35, 40]);
    }

    /// Which events follow an asynchronous reset pulse: `rst_n` pulses
    /// low between the edges at 5 and 15, goes low in the step of the edge
    /// at 25 (after it samples) and high before 35, is low at the edge at
    /// 45, and glitches low and high in one step before 65. (The dump has
    /// no line end after its last change, which is read all the same.)
    #[test]
    fn asynchronous_reset_pulses_restart_the_next_event() {
        let dump = "$scope module tb $end
$var wire 1 ! clk $end
$var wire 1 \" rst_n $end
$upscope $end
$enddefinitions $end
            #0 0! 1\" #5 1! #10 0! 0\" #11 1\" #15 1! #20 0! #25 1! 0\" #30 0! 1\" #35 1!
            #40 0! 0\" #45 1! #50 0! 1\" #55 1! #60 0! 0\" 1\" #65 1! #70 0! #75 1!";
        let events = |reset: Option<&str>| {
            let mut r =
                VcdReader::new("t.vcd", dump.as_bytes(), Some(("clk", Edge::Posedge))).unwrap();
            let id = r.resolve("rst_n").unwrap();
            if let Some(name) = reset {
                r.set_async_reset(name, false).unwrap();
            }
            let mut out = Vec::new();
            while r.advance().unwrap() {
                let level = matches!(r.cell(id), Some(Cell::Bits(b"1")));
                out.push((r.position().time.unwrap(), level, r.restarted()));
            }
            out
        };
        assert_eq!(
            events(Some("rst_n")),
            [
                (5, true, false),
                (15, true, true),
                (25, true, false),
                (35, true, true),
                // Low at the edge: held in reset by the level.
                (45, false, true),
                (55, true, false),
                (65, true, true),
                (75, true, false),
            ]
        );
        // Without it, no event restarts.
        assert!(events(None).iter().all(|e| !e.2));
        let mut r = VcdReader::new("t.vcd", dump.as_bytes(), None).unwrap();
        let e = r.set_async_reset("nope", false).unwrap_err();
        assert!(e.message.contains("no signal `nope`"), "{e}");
    }

    #[test]
    fn names_and_errors() {
        let mut r = VcdReader::new("t.vcd", DUMP.as_bytes(), None).unwrap();
        // `v` is one signal under two names; `w` only in dut.
        assert_eq!(r.resolve("v"), r.resolve("tb.dut.v"));
        assert!(r.resolve("dut.w").is_ok());
        let e = r.resolve("nope").unwrap_err();
        assert!(
            e.contains("no signal `nope`") && e.contains("tb.clk"),
            "{e}"
        );
        let e = VcdReader::new("t.vcd", DUMP.as_bytes(), Some(("d", Edge::Posedge)))
            .err()
            .unwrap();
        assert!(e.message.contains("4-bit signal, not a clock"), "{e}");
        // A dump cut in its header, and garbage in its body.
        let cut = &DUMP[..DUMP.find("$enddefinitions").unwrap()];
        let e = VcdReader::new("t.vcd", cut.as_bytes(), None).err().unwrap();
        assert!(e.message.contains("before `$enddefinitions`"), "{e}");
        let bad = format!("{DUMP}#30\nq!\n");
        let mut r = VcdReader::new("t.vcd", bad.as_bytes(), None).unwrap();
        r.resolve("clk").unwrap();
        let e = loop {
            match r.advance() {
                Ok(true) => {}
                Ok(false) => panic!("no error"),
                Err(e) => break e,
            }
        };
        assert!(
            e.to_string().contains("line 38: unexpected character"),
            "{e}"
        );
        let back = format!("{DUMP}#3\n");
        let mut r = VcdReader::new("t.vcd", back.as_bytes(), None).unwrap();
        let e = loop {
            match r.advance() {
                Ok(true) => {}
                Ok(false) => panic!("no error"),
                Err(e) => break e,
            }
        };
        assert!(e.message.contains("goes back"), "{e}");
    }
}
