//! Differential fuzzing of the trace readers (issue 36, "hostile input").
//!
//! On raw bytes and on structured inputs mutated at the byte level (CR, LF
//! and CRLF line ends mixed, quotes, byte-order marks, empty fields, long
//! lines, invalid UTF-8, truncations):
//!
//! * the parallel check of CSV and JSON Lines logs ([`check_lines`], in
//!   chunks of 1, 2, 7 and 1000 lines or of a few bytes, on 1, 2 and 3
//!   threads) gives the reports (or the error) of one pass;
//! * each reader reads what an independent reader reads — the `csv` crate
//!   (with the rules this project adds: a quote still open at the end is
//!   an error, a row of the wrong width is one, two columns of one name
//!   are one; lines end at `\n`, `\r\n` or a lone `\r`), `serde_json` on
//!   each line, and the `vcd` crate's commands run through the documented
//!   semantics of time steps and clock edges — or both report an error.
//!
//! The inputs that found bugs are kept in `tests/corpus/` and replayed by
//! [`the_corpus_replays`].

use std::sync::OnceLock;

use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
use monitor_core::trace::expr::{Cell, Expr};
use monitor_core::trace::reader::{CsvReader, Edge, JsonlReader, Reader, VcdReader};
use monitor_core::MonitorTable;
use proptest::prelude::*;

// ---------------------------------------------------------------------------
// The parallel path against one pass.

fn pools() -> &'static [rayon::ThreadPool] {
    static POOLS: OnceLock<Vec<rayon::ThreadPool>> = OnceLock::new();
    POOLS.get_or_init(|| {
        [1, 2, 3]
            .into_iter()
            .map(|n| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .unwrap()
            })
            .collect()
    })
}

const CHUNKINGS: [Chunking; 6] = [
    Chunking::Lines(1),
    Chunking::Lines(2),
    Chunking::Lines(7),
    Chunking::Lines(1000),
    // Batches of a few bytes: lines longer than a batch, read in one pass.
    Chunking::Bytes(1),
    Chunking::Bytes(7),
];

fn property(formula: &str, bindings: &[(&str, &str)]) -> Property {
    let table = MonitorTable::from_ltl(formula).unwrap();
    let t = table.table();
    let exprs = (0..t.props as usize)
        .map(|i| {
            let name = t.proposition(i);
            let text = bindings
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(name, |(_, e)| e);
            Expr::parse(text).unwrap()
        })
        .collect();
    Property::new(formula, table, exprs)
}

/// The checkers the paths are compared with: one whose property every
/// event violates (every event is explained, with the text of every
/// field: the reports show all that was read, and every chunk is read
/// again by the checker), and ones over Booleans, violated now and then
/// (most chunks are skipped with their summaries), stopping at the first
/// violation or counting them all, a missing field being an error or
/// NULL.
fn checkers() -> Vec<Checker> {
    let every = "a == \"\" || a != \"\" || b == \"\" || b != \"\" || c == \"\" || c != \"\"";
    vec![
        Checker::new(
            vec![property("G !p", &[("p", every)])],
            // Strict: a missing field is an error, as a row of the wrong
            // width is (as NULL, `a == ""` would be false of it).
            Options {
                all: true,
                max_reports: usize::MAX,
                context: 2,
                strict_fields: true,
            },
        ),
        Checker::new(
            vec![
                property("G(a -> X !b)", &[]),
                property("G !q", &[("q", "c == \"x\"")]),
            ],
            Options::default(),
        ),
        Checker::new(
            vec![property("G(a -> X !b)", &[])],
            Options {
                all: true,
                max_reports: 2,
                context: 1,
                strict_fields: true,
            },
        ),
    ]
}

/// The parallel check of `bytes` gives the reports of one pass.
fn parallel_is_one_pass(format: LineFormat, bytes: &[u8]) -> Result<(), TestCaseError> {
    let shown = String::from_utf8_lossy(bytes).into_owned();
    for mut checker in checkers() {
        let want = match format {
            LineFormat::Csv => CsvReader::new("t", bytes).and_then(|mut r| checker.run(&mut r)),
            LineFormat::Jsonl => checker.run(&mut JsonlReader::new("t", bytes)),
        };
        for pool in pools() {
            for chunking in CHUNKINGS {
                let got = pool.install(|| check_lines(&mut checker, format, "t", bytes, chunking));
                prop_assert_eq!(
                    &got,
                    &want,
                    "{:?} {:?} on {} threads: {:?}",
                    format,
                    chunking,
                    pool.current_num_threads(),
                    shown
                );
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// The readers against independent readers.

/// What a reader read: each event's position and fields, and whether it
/// stopped at an error.
#[derive(Debug, PartialEq)]
struct Read {
    events: Vec<(u64, Vec<Option<String>>)>,
    error: bool,
}

fn shown(c: Option<Cell<'_>>) -> Option<String> {
    c.map(|c| match c {
        Cell::Text(t) => t.to_string(),
        Cell::Json(v) => v.to_string(),
        Cell::Bits(b) => String::from_utf8_lossy(b).into_owned(),
        Cell::Real(x) => format!("real {x}"),
        Cell::Bool(b) => b.to_string(),
        Cell::Int(i) => i.to_string(),
    })
}

/// Reads every event of `r` (fields `ids`; `at`: a line or a time).
fn read_all<R: Reader>(r: &mut R, ids: &[usize], time: bool) -> Read {
    let mut events = Vec::new();
    loop {
        match r.advance() {
            Ok(true) => {
                let p = r.position();
                let at = if time { p.time } else { p.line }.unwrap_or(u64::MAX);
                events.push((at, ids.iter().map(|&i| shown(r.cell(i))).collect()));
            }
            Ok(false) => {
                return Read {
                    events,
                    error: false,
                };
            }
            Err(_) => {
                return Read {
                    events,
                    error: true,
                };
            }
        }
    }
}

/// Line ends as the `csv` crate reads them: `\n`, `\r\n`, a lone `\r`.
fn csv_lines_before(bytes: &[u8]) -> u64 {
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                n += 1;
                i += 1;
            }
            b'\r' | b'\n' => n += 1,
            _ => {}
        }
        i += 1;
    }
    n
}

/// Whether `raw` (a record to the end of the input) leaves a quoted field
/// open: a field that starts with a quote is closed by a quote that is not
/// doubled; text after it (and a quote inside an unquoted field) is data.
fn left_open(raw: &[u8]) -> bool {
    let mut i = 0;
    loop {
        // The start of a field.
        if raw.get(i) == Some(&b'"') {
            i += 1;
            loop {
                match raw.get(i) {
                    None => return true,
                    Some(b'"') if raw.get(i + 1) == Some(&b'"') => i += 2,
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(_) => i += 1,
                }
            }
        }
        // The rest of the field.
        while let Some(&b) = raw.get(i) {
            i += 1;
            if matches!(b, b',' | b'\n' | b'\r') {
                break;
            }
        }
        if i >= raw.len() {
            return false;
        }
    }
}

/// CSV as the `csv` crate reads it, with this project's rules.
fn csv_reference(bytes: &[u8], names: &[&str]) -> Read {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes);
    let mut records = Vec::new();
    let mut error = false;
    for rec in r.records() {
        match rec {
            Ok(rec) => {
                let start = rec.position().map_or(0, |p| p.byte()) as usize;
                records.push((start, rec));
            }
            Err(_) => {
                error = true;
                break;
            }
        }
    }
    let mut events = Vec::new();
    let Some(((header_start, header), rest)) = records.split_first() else {
        return Read { events, error };
    };
    let opens = |start: usize| {
        // The record starts after the blank lines the csv crate skips
        // (and after a byte-order mark it drops at the start).
        let mut s = start;
        while matches!(bytes.get(s), Some(b'\n' | b'\r')) {
            s += 1;
        }
        let raw = &bytes[s..];
        let raw = if s == 0 {
            raw.strip_prefix(b"\xef\xbb\xbf").unwrap_or(raw)
        } else {
            raw
        };
        (s, left_open(raw))
    };
    let last = records.len() - 1;
    let headers: Vec<String> = header.iter().map(|h| h.trim().to_string()).collect();
    if (last == 0 && !error && opens(*header_start).1)
        || (1..headers.len()).any(|j| headers[..j].contains(&headers[j]))
    {
        return Read {
            events,
            error: true,
        };
    }
    let ids: Vec<Option<usize>> = names
        .iter()
        .map(|n| headers.iter().position(|h| h == n))
        .collect();
    for (k, (start, rec)) in rest.iter().enumerate() {
        let (s, open) = opens(*start);
        if (k + 1 == last && !error && open) || rec.len() != headers.len() {
            return Read {
                events,
                error: true,
            };
        }
        let fields = ids
            .iter()
            .map(|id| id.and_then(|i| rec.get(i)).map(str::to_string))
            .collect();
        events.push((1 + csv_lines_before(&bytes[..s]), fields));
    }
    Read { events, error }
}

fn csv_ours(bytes: &[u8], names: &[&str]) -> Read {
    let Ok(mut r) = CsvReader::new("t.csv", bytes) else {
        return Read {
            events: Vec::new(),
            error: true,
        };
    };
    // A column that is not there reads as absent in both.
    let ids: Vec<usize> = names
        .iter()
        .map(|n| r.resolve(n).unwrap_or(usize::MAX))
        .collect();
    read_all(&mut r, &ids, false)
}

/// JSON Lines as `serde_json` reads each line.
fn jsonl_reference(bytes: &[u8], paths: &[&str]) -> Read {
    let mut events = Vec::new();
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut lines: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    for (k, line) in lines.into_iter().enumerate() {
        let Ok(text) = std::str::from_utf8(line) else {
            return Read {
                events,
                error: true,
            };
        };
        let text = text.trim_end_matches('\r');
        let Ok(serde_json::Value::Object(o)) = serde_json::from_str::<serde_json::Value>(text)
        else {
            return Read {
                events,
                error: true,
            };
        };
        let o = serde_json::Value::Object(o);
        let fields = paths
            .iter()
            .map(|p| {
                p.split('.')
                    .try_fold(&o, |v, key| v.get(key))
                    .map(|v| v.to_string())
            })
            .collect();
        events.push((k as u64 + 1, fields));
    }
    Read {
        events,
        error: false,
    }
}

fn jsonl_ours(bytes: &[u8], paths: &[&str]) -> Read {
    let mut r = JsonlReader::new("t.jsonl", bytes);
    let ids: Vec<usize> = paths.iter().map(|p| r.resolve(p).unwrap()).collect();
    read_all(&mut r, &ids, false)
}

/// The signals of the VCD header the generated dumps share.
const VCD_HEADER: &str = "$timescale 1ns $end
$scope module t $end
$var wire 1 ! clk $end
$var wire 3 \" v [2:0] $end
$var real 64 # r $end
$var wire 1 % \\req+1 $end
$upscope $end
$enddefinitions $end
";
const VCD_SIGNALS: [(&str, &str, usize); 4] = [
    ("clk", "!", 1),
    ("v", "\"", 3),
    ("r", "#", 0),
    ("\\req+1", "%", 1),
];

/// A VCD dump as the `vcd` crate's commands read, with the documented
/// semantics: without a clock, one event per distinct time with the values
/// at the end of its step; with `clk` rising, one per step where it rises
/// (0 to 1, x or z; x or z to 1), with the values before the step. Never-dumped bits are `x`; a vector
/// written short is extended with `0` (or its first digit if `x` or `z`).
fn vcd_reference(bytes: &[u8], clocked: bool) -> Read {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    let mut input = bytes.to_vec();
    input.push(b'\n');
    let mut p = vcd::Parser::new(&input[..]);
    let mut events = Vec::new();
    let header = match p.parse_header() {
        Ok(h) => h,
        Err(_) => {
            return Read {
                events,
                error: true,
            };
        }
    };
    // The signals by name (in any scope), each one code and width, or none
    // (absent, or two signals of that name).
    // (A name is the full dotted name, or any dotted suffix of it.)
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
                    let index = match v.index {
                        Some(vcd::ReferenceIndex::BitSelect(i)) => format!("[{i}]"),
                        _ => String::new(),
                    };
                    out.push((
                        format!("{prefix}{}{index}", v.reference),
                        v.code,
                        v.size,
                        v.var_type == vcd::VarType::Real,
                    ))
                }
                _ => {}
            }
        }
    }
    let mut vars = Vec::new();
    walk(&header.items, "", &mut vars);
    let signals: Vec<Option<(vcd::IdCode, usize)>> = VCD_SIGNALS
        .iter()
        .map(|(name, ..)| {
            let found: Vec<_> = vars
                .iter()
                .filter(|v| v.0 == *name || v.0.ends_with(&format!(".{name}")))
                .collect();
            let first = found.first()?;
            if found.iter().any(|v| v.1 != first.1) {
                return None;
            }
            Some((first.1, if first.3 { 1 } else { first.2.max(1) as usize }))
        })
        .collect();
    if clocked && !matches!(signals[0], Some((_, 1))) {
        return Read {
            events,
            error: true,
        };
    }
    let mut now: Vec<Option<String>> = VCD_SIGNALS.iter().map(|_| None).collect();
    // A signal never dumped is unknown: one `x`.
    let snapshot = |now: &Vec<Option<String>>| -> Vec<Option<String>> {
        now.iter()
            .zip(&signals)
            .map(|(v, s)| s.map(|_| v.clone().unwrap_or_else(|| "x".to_string())))
            .collect()
    };
    let fit = |digits: String, width: usize| -> String {
        let fill = match digits.as_bytes().first() {
            Some(b'x') => 'x',
            Some(b'z') => 'z',
            _ => '0',
        };
        if digits.len() >= width {
            digits[digits.len() - width..].to_string()
        } else {
            format!("{}{digits}", fill.to_string().repeat(width - digits.len()))
        }
    };
    let mut time: Option<u64> = None;
    let mut before = snapshot(&now);
    // Whether the clock had a value dumped before the step: its first
    // value is no edge.
    let mut clock_dumped = false;
    let mut end_step = |time: Option<u64>,
                        before: &mut Vec<Option<String>>,
                        now: &Vec<Option<String>>,
                        events: &mut Vec<(u64, Vec<Option<String>>)>| {
        let was_dumped = std::mem::replace(&mut clock_dumped, now[0].is_some());
        if let Some(t) = time {
            let after = snapshot(now);
            if !clocked {
                events.push((t, after.clone()));
            } else if was_dumped
                && matches!(
                    // IEEE 1364 §9.7.2's posedges.
                    (before[0].as_deref(), after[0].as_deref()),
                    (Some("0"), Some("1" | "x" | "z")) | (Some("x" | "z"), Some("1"))
                )
            {
                events.push((t, before.clone()));
            }
            *before = after;
        } else {
            *before = snapshot(now);
        }
    };
    for cmd in p.by_ref() {
        let Ok(cmd) = cmd else {
            return Read {
                events,
                error: true,
            };
        };
        let slot =
            |code: &vcd::IdCode| signals.iter().position(|s| s.is_some_and(|s| s.0 == *code));
        match cmd {
            vcd::Command::Timestamp(t) if time == Some(t) => {}
            vcd::Command::Timestamp(t) => {
                // Time going back is an error, before the step's event.
                if time.is_some_and(|prev| t < prev) {
                    return Read {
                        events,
                        error: true,
                    };
                }
                end_step(time, &mut before, &now, &mut events);
                time = Some(t);
            }
            vcd::Command::ChangeScalar(code, v) => {
                if let Some(i) = slot(&code) {
                    let width = signals[i].map_or(1, |s| s.1);
                    for (j, s) in signals.iter().enumerate() {
                        if s.is_some_and(|s| s.0 == code) {
                            now[j] = Some(fit(v.to_string(), width));
                        }
                    }
                }
            }
            vcd::Command::ChangeVector(code, v) => {
                if let Some(i) = slot(&code) {
                    let digits: String = v.iter().map(|d| d.to_string()).collect();
                    let width = signals[i].map_or(1, |s| s.1);
                    for (j, s) in signals.iter().enumerate() {
                        if s.is_some_and(|s| s.0 == code) {
                            now[j] = Some(fit(digits.clone(), width));
                        }
                    }
                }
            }
            vcd::Command::ChangeReal(code, x) => {
                for (j, s) in signals.iter().enumerate() {
                    if s.is_some_and(|s| s.0 == code) {
                        now[j] = Some(format!("real {x}"));
                    }
                }
            }
            _ => {}
        }
    }
    end_step(time, &mut before, &now, &mut events);
    Read {
        events,
        error: false,
    }
}

fn vcd_ours(bytes: &[u8], clocked: bool) -> Read {
    let clock = clocked.then_some(("clk", Edge::Posedge));
    let Ok(mut r) = VcdReader::new("t.vcd", bytes, clock) else {
        return Read {
            events: Vec::new(),
            error: true,
        };
    };
    // A signal that is not there (or not one) reads as absent in both.
    let ids: Vec<usize> = VCD_SIGNALS
        .iter()
        .map(|(n, ..)| r.resolve(n).unwrap_or(usize::MAX))
        .collect();
    read_all(&mut r, &ids, true)
}

/// Every check of one input of `format`.
fn check_all(format: &str, bytes: &[u8]) -> Result<(), TestCaseError> {
    let shown = String::from_utf8_lossy(bytes).into_owned();
    match format {
        "csv" => {
            let names = ["a", "b", "c"];
            prop_assert_eq!(
                csv_ours(bytes, &names),
                csv_reference(bytes, &names),
                "{:?}",
                shown
            );
            parallel_is_one_pass(LineFormat::Csv, bytes)
        }
        "jsonl" => {
            let paths = ["a", "b", "c", "x.y"];
            prop_assert_eq!(
                jsonl_ours(bytes, &paths),
                jsonl_reference(bytes, &paths),
                "{:?}",
                shown
            );
            parallel_is_one_pass(LineFormat::Jsonl, bytes)
        }
        "vcd" => {
            for clocked in [false, true] {
                prop_assert_eq!(
                    vcd_ours(bytes, clocked),
                    vcd_reference(bytes, clocked),
                    "clocked: {}: {:?}",
                    clocked,
                    shown
                );
            }
            Ok(())
        }
        _ => unreachable!("{format}"),
    }
}

// ---------------------------------------------------------------------------
// Inputs.

/// Pieces of CSV: line ends of every kind, quotes (closed, doubled, open),
/// a byte-order mark, empty and long fields, invalid UTF-8.
const CSV_PIECES: &[&[u8]] = &[
    b"0",
    b"1",
    b"x",
    b",",
    b",",
    b"\n",
    b"\r",
    b"\r\n",
    b"\n\n",
    b"\"",
    b"\"\"",
    b"\"1\"",
    b"\"x,\ny\"",
    b"\"a\rb\"",
    b"\xef\xbb\xbf",
    b" ",
    b"\xff",
    "é".as_bytes(),
    b"a,b,c",
    b"0,1,x",
    b"1,0,",
    b",,",
    b"1,1,\"oops",
];

const CSV_HEADERS: &[&[u8]] = &[
    b"a,b,c\n",
    b"a,b,c\r",
    b"a,b,c\r\n",
    b"\xef\xbb\xbfa,b,c\n",
    b"\n\r\na, b ,c\r",
    b"\"a\",b,\"c\"\n",
    b"a,b\n",
    b"a,b,a\n",
    b"\"a,b,c\n",
    b"",
];

const JSONL_PIECES: &[&[u8]] = &[
    b"{\"a\": true, \"b\": 0, \"c\": \"x\"}",
    b"{\"a\": 1, \"x\": {\"y\": [1, 2]}, \"a\": false}",
    b"{\"c\": \"\\u001b[31m\", \"b\": 1e400}",
    b"{}",
    b"[1]",
    b"7",
    b"{\"a\": ",
    b"\n",
    b"\r\n",
    b"\r",
    b"\xef\xbb\xbf",
    b" ",
    b"\xff",
    b"{\"x\": 1}",
    b"{\"x\": {\"y\": null}, \"b\": \"1\"}",
];

const VCD_PIECES: &[&str] = &[
    "#0\n",
    "#5\n",
    "#10\n",
    "#10\n",
    "#3\n",
    "#20 ",
    "0!\n",
    "1!\n",
    "x!\n",
    "1!",
    "b101 \"\n",
    "b1 \"\n",
    "bz \"\n",
    "bx0 \"\n",
    "r1.5 #\n",
    "r-2 #\n",
    "1%\n",
    "0%\n",
    "$dumpvars\n",
    "$end\n",
    "\n",
    " ",
    "b1111 \"\n",
    "z!\n",
    "$comment hi $end\n",
];

/// A structured input of pieces, then mutated: cut short, and a few bytes
/// replaced.
fn mutated(
    heads: Vec<Vec<u8>>,
    pieces: Vec<Vec<u8>>,
    max_pieces: usize,
) -> impl Strategy<Value = Vec<u8>> {
    (
        0..heads.len(),
        prop::collection::vec(0..pieces.len(), 0..max_pieces),
        any::<bool>(),
        any::<prop::sample::Index>(),
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
        0u8..8,
    )
        .prop_map(move |(h, ps, cut, at, flips, long)| {
            let mut bytes = heads[h].clone();
            for (k, &p) in ps.iter().enumerate() {
                bytes.extend_from_slice(&pieces[p]);
                if long == 0 && k == 1 {
                    // A long line: longer than any batch of the tests.
                    bytes.extend(std::iter::repeat_n(b'1', 3000));
                }
            }
            if cut && !bytes.is_empty() {
                bytes.truncate(at.index(bytes.len() + 1));
            }
            for (i, b) in flips {
                if !bytes.is_empty() {
                    let i = i.index(bytes.len());
                    bytes[i] = b;
                }
            }
            bytes
        })
}

fn owned(list: &[&[u8]]) -> Vec<Vec<u8>> {
    list.iter().map(|p| p.to_vec()).collect()
}

fn csv_inputs() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => mutated(owned(CSV_HEADERS), owned(CSV_PIECES), 40),
        1 => (0..CSV_HEADERS.len(), prop::collection::vec(any::<u8>(), 0..80))
            .prop_map(|(h, raw)| [CSV_HEADERS[h], &raw[..]].concat()),
    ]
}

fn jsonl_inputs() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => mutated(vec![Vec::new()], owned(JSONL_PIECES), 24),
        1 => prop::collection::vec(any::<u8>(), 0..80),
    ]
}

fn vcd_inputs() -> impl Strategy<Value = Vec<u8>> {
    let heads = vec![
        VCD_HEADER.as_bytes().to_vec(),
        [b"\xef\xbb\xbf", VCD_HEADER.as_bytes()].concat(),
        VCD_HEADER.replace("\n", "\r\n").into_bytes(),
    ];
    let pieces: Vec<Vec<u8>> = VCD_PIECES.iter().map(|p| p.as_bytes().to_vec()).collect();
    prop_oneof![
        4 => mutated(heads, pieces, 30),
        1 => prop::collection::vec(any::<u8>(), 0..60)
            .prop_map(|raw| [VCD_HEADER.as_bytes(), &raw[..]].concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn csv_readers_agree(bytes in csv_inputs()) {
        check_all("csv", &bytes)?;
    }

    #[test]
    fn jsonl_readers_agree(bytes in jsonl_inputs()) {
        check_all("jsonl", &bytes)?;
    }

    #[test]
    fn vcd_readers_agree(bytes in vcd_inputs()) {
        check_all("vcd", &bytes)?;
    }
}

/// The inputs of `tests/corpus/`, each checked as the fuzzing checks
/// random ones: found bugs stay found.
#[test]
fn the_corpus_replays() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut replayed = 0;
    for format in ["csv", "jsonl", "vcd"] {
        let mut files: Vec<_> = std::fs::read_dir(dir.join(format))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        files.sort();
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            if let Err(e) = check_all(format, &bytes) {
                panic!("{}: {e}", path.display());
            }
            replayed += 1;
        }
    }
    assert!(replayed >= 20, "{replayed}");
}
