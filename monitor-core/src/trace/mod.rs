//! Checking traces: logs (CSV, JSON Lines) and, soon, waveforms, against
//! monitors.
//!
//! * [`expr`]: what a proposition means over the fields of an event
//!   (`latency > 100`, `level == "ERROR"`, `data[3]`);
//! * [`reader`]: the formats, read one event at a time;
//! * [`time`]: the events' times (`--time FIELD`), exact nanoseconds;
//! * [`check`]: several monitors over a trace in one pass, with
//!   explained violations;
//! * [`metric`]: the timed components of past metric operators
//!   (`O[0:5s] p`), computed per event from the events' times;
//! * [`future`]: timed components that look ahead (`F[0:500ms] p`), whose
//!   values, and so the letters, are complete after a delay;
//! * [`keyed`]: one monitor per key (a session, a request) in an
//!   interleaved log;
//! * [`chunked`]: large logs checked on several cores, with the same
//!   reports.
//!
//! The chunk summaries that let a long trace be checked in parallel are
//! [`runtime::Summary`](crate::runtime::Summary).

mod arith;
pub mod check;
pub mod chunked;
pub mod expr;
pub mod future;
pub mod keyed;
pub mod metric;
mod number;
pub mod parallel;
pub mod reader;
pub mod time;

#[cfg(test)]
mod fuzz;

use std::borrow::Cow;
use std::fmt::Write as _;

use crate::formula::parse::hidden_on_terminal as hidden;

/// Text read from a trace (a column name, a signal name, a JSON key, a
/// value, a file name) made safe to print on a terminal: the characters a
/// terminal or a text viewer acts on instead of showing — control
/// characters (C0 such as ESC, DEL, C1 such as CSI, and line breaks and
/// tabs, which would let a field forge report lines) and the Unicode
/// formatting characters that reorder or hide text (bidirectional
/// overrides and isolates, zero-width characters, the byte-order mark) —
/// are written as Rust writes them in `{:?}` (`\u{1b}`, `\n`,
/// `\u{202e}`), as values in the readers' error messages already are.
/// Everything else, quotes and backslashes included, is left as it is, so
/// that ordinary text reads as written and escaping twice changes nothing.
///
/// Every message of [`reader::TraceError`] goes through it, and so does
/// every piece of trace text `mongen check` writes in its reports.
///
/// ```
/// use monitor_core::trace::escape;
///
/// assert_eq!(escape("req.valid"), "req.valid");
/// assert_eq!(escape("\u{1b}[2Jhi"), "\\u{1b}[2Jhi");
/// assert_eq!(escape("a\nb\u{202e}c"), "a\\nb\\u{202e}c");
/// assert_eq!(escape(&escape("\u{9b}31m")), escape("\u{9b}31m"));
/// ```
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) => {
                let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// Compact JSON text (as `serde_json` writes a value) with the characters [`escape`] escapes
/// written as `\uXXXX` escapes: the same JSON value, that a terminal shows
/// as it is (`serde_json` leaves DEL, C1 controls and Unicode formatting
/// characters raw in strings). Outside its strings compact JSON has none
/// of them, so the text is rewritten character by character.
///
/// ```
/// use monitor_core::trace::escape_json;
///
/// let json = serde_json::json!({"c\u{9b}": "a\u{202e}b\u{1b}"}).to_string();
/// assert_eq!(escape_json(&json), r#"{"c\u009b":"a\u202eb\u001b"}"#);
/// let back: serde_json::Value = serde_json::from_str(&escape_json(&json))?;
/// assert_eq!(back, serde_json::from_str::<serde_json::Value>(&json)?);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn escape_json(json: &str) -> Cow<'_, str> {
    if !json.chars().any(hidden) {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 8);
    for c in json.chars() {
        if hidden(c) {
            // Every character `hidden` takes is in the Basic Multilingual
            // Plane: one `\uXXXX` each.
            let _ = write!(out, "\\u{:04x}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}
