//! Readers of traces: one event at a time, fields by name.

use std::fmt;
use std::io::{BufRead, Read};

use super::expr::Cell;

/// Where an event is in its trace.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// The event's index, from 0.
    pub index: u64,
    /// The line of the file (CSV and JSON Lines; 1-based).
    pub line: Option<u64>,
    /// The time stamp, as written in the dump (VCD).
    pub time: Option<u64>,
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
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some(at) => write!(f, "{}, {at}: {}", self.source, self.message),
            None => write!(f, "{}: {}", self.source, self.message),
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
pub struct CsvReader<R: Read> {
    source: String,
    reader: csv::Reader<R>,
    headers: Vec<String>,
    record: csv::StringRecord,
    index: u64,
    started: bool,
}

impl<R: Read> CsvReader<R> {
    /// Reads the header row.
    pub fn new(source: &str, input: R) -> Result<CsvReader<R>, TraceError> {
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(true)
            .flexible(false)
            .from_reader(input);
        let headers = reader
            .headers()
            .map_err(|e| csv_error(source, e))?
            .iter()
            .map(|h| h.trim().to_string())
            .collect();
        Ok(CsvReader {
            source: source.to_string(),
            reader,
            headers,
            record: csv::StringRecord::new(),
            index: 0,
            started: false,
        })
    }

    /// The column names.
    pub fn headers(&self) -> &[String] {
        &self.headers
    }
}

fn csv_error(source: &str, e: csv::Error) -> TraceError {
    let at = e.position().map(|p| format!("line {}", p.line()));
    let message = match e.kind() {
        csv::ErrorKind::Utf8 { .. } => "invalid UTF-8".to_string(),
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
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
        self.headers.iter().position(|h| h == name).ok_or_else(|| {
            format!(
                "no column `{name}` (the columns are: {})",
                self.headers.join(", ")
            )
        })
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        self.reader
            .read_record(&mut self.record)
            .map_err(|e| csv_error(&self.source, e))
    }

    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        self.record.get(id).map(Cell::Text)
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: self.record.position().map(|p| p.line()),
            time: None,
        }
    }
}

/// JSON Lines: one JSON object per line; fields by name or dotted path.
pub struct JsonlReader<R: BufRead> {
    source: String,
    input: R,
    paths: Vec<Vec<String>>,
    line: String,
    value: serde_json::Value,
    line_no: u64,
    index: u64,
    started: bool,
}

impl<R: BufRead> JsonlReader<R> {
    /// A reader of `input`.
    pub fn new(source: &str, input: R) -> JsonlReader<R> {
        JsonlReader {
            source: source.to_string(),
            input,
            paths: Vec::new(),
            line: String::new(),
            value: serde_json::Value::Null,
            line_no: 0,
            index: 0,
            started: false,
        }
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
        self.paths.push(path);
        Ok(self.paths.len() - 1)
    }

    fn advance(&mut self) -> Result<bool, TraceError> {
        if self.started {
            self.index += 1;
        }
        self.started = true;
        self.line.clear();
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
        self.value = serde_json::from_str(text).map_err(|e| TraceError {
            source: self.source.clone(),
            at: Some(format!("line {}, column {}", self.line_no, e.column().max(1))),
            message: if text.trim().is_empty() {
                "an empty line (JSON Lines has one JSON object per line)".into()
            } else {
                // serde_json's message ends with its own (one-line) position.
                let m = e.to_string();
                let m = m.rsplit_once(" at line ").map_or(m.as_str(), |(m, _)| m).to_string();
                format!("invalid JSON: {m}")
            },
        })?;
        if !self.value.is_object() {
            return Err(
                self.error_here(format!("expected a JSON object, found {}", truncate(text)))
            );
        }
        Ok(true)
    }

    fn cell(&self, id: usize) -> Option<Cell<'_>> {
        let mut v = &self.value;
        for key in self.paths.get(id)? {
            v = v.get(key)?;
        }
        Some(Cell::Json(v))
    }

    fn position(&self) -> Position {
        Position {
            index: self.index,
            line: Some(self.line_no),
            time: None,
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
