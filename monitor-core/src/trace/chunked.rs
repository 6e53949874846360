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
//! is the rest of a log from a line longer than a batch.
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
use super::reader::{CsvReader, JsonlReader, Position, Reader, TraceError, UnquotedCsv};
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

/// What the parallel pass learned about one chunk.
struct Piece {
    events: u64,
    lines: u64,
    /// For each property: the summary of its run over the chunk (`None`
    /// for a decided property, or one of more than 64 propositions).
    summaries: Vec<Option<Summary>>,
    /// The last events (position within the chunk, atoms), for
    /// explanations of later violations.
    tail: Vec<(Position, Vec<u64>)>,
}

/// Checks the log `input` with `checker`, in chunks on rayon's pool (see
/// the [module documentation](self)); the reports are those of
/// [`Checker::run`].
pub fn check_lines<R: Read>(
    checker: &mut Checker,
    format: LineFormat,
    source: &str,
    mut input: R,
    chunking: Chunking,
) -> Result<Vec<Report>, TraceError> {
    let io_error = |e: std::io::Error| TraceError {
        source: source.to_string(),
        at: None,
        message: e.to_string(),
    };
    let mut buf: Vec<u8> = Vec::new();
    let mut eof = false;
    // Reads until `buf` holds `want` bytes or the input ends.
    let mut fill = |buf: &mut Vec<u8>, want: usize, eof: &mut bool| -> Result<(), TraceError> {
        let mut block = [0u8; 1 << 16];
        while buf.len() < want && !*eof {
            match input.read(&mut block) {
                Ok(0) => *eof = true,
                Ok(n) => buf.extend_from_slice(&block[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io_error(e)),
            }
        }
        Ok(())
    };
    checker.begin();
    let (mut index, mut line) = (0u64, 1u64);
    // CSV: the header row.
    let mut headers = Vec::new();
    if format == LineFormat::Csv {
        let mut end = None;
        while end.is_none() {
            end = memchr::memchr(b'\n', &buf).map(|p| p + 1);
            if end.is_none() {
                if eof {
                    end = Some(buf.len());
                } else {
                    let want = buf.len() + (1 << 16);
                    fill(&mut buf, want, &mut eof)?;
                }
            }
        }
        let end = end.unwrap_or_default();
        if memchr::memchr(b'"', &buf[..end]).is_some() {
            // A quoted header may span lines: one pass.
            let rest = std::io::Cursor::new(buf).chain(input);
            let mut r = CsvReader::new(source, rest)?;
            let bound = checker.bind(&mut r)?;
            checker.feed(&mut r, &bound, &mut |_, _| {})?;
            return Ok(checker.finish());
        }
        headers = CsvReader::new(source, &buf[..end])?.headers().to_vec();
        buf.drain(..end);
        line = 2;
    }
    let bound = match format {
        LineFormat::Csv => checker.bind(&mut CsvReader::with_headers(
            source,
            headers.clone(),
            &[][..],
            0,
            line,
        ))?,
        LineFormat::Jsonl => checker.bind(&mut JsonlReader::new(source, &[][..]))?,
    };
    if bound.has_reset() || checker.has_lazy() {
        // Held monitors, or lazy ones (no table to summarize with): one
        // pass.
        let rest = std::io::Cursor::new(buf).chain(input);
        return one_pass(checker, format, source, headers, &bound, rest, index, line);
    }
    let threads = rayon::current_num_threads().max(1);
    let target = match chunking {
        Chunking::Bytes(n) => n.max(1).saturating_mul(4 * threads),
        Chunking::Lines(_) => 1 << 20,
    };
    loop {
        fill(&mut buf, target, &mut eof)?;
        // The batch ends at the last line end (or the end of the input).
        let end = if eof {
            buf.len()
        } else {
            match memchr::memrchr(b'\n', &buf) {
                Some(p) => p + 1,
                None => {
                    // A line longer than a batch (or line ends that are
                    // not `\n`): the rest in one pass, in constant memory.
                    let rest = std::io::Cursor::new(std::mem::take(&mut buf)).chain(input);
                    return one_pass(checker, format, source, headers, &bound, rest, index, line);
                }
            }
        };
        if end == 0 {
            break;
        }
        let batch = &buf[..end];
        if format == LineFormat::Csv && memchr::memchr(b'"', batch).is_some() {
            // Quoted fields may hold line breaks: the rest in one pass.
            let rest = std::io::Cursor::new(std::mem::take(&mut buf)).chain(input);
            return one_pass(checker, format, source, headers, &bound, rest, index, line);
        }
        let chunks = cut(batch, chunking);
        let pieces: Vec<Option<Piece>> = {
            let checker = &*checker;
            let bound = &bound;
            let headers = &headers;
            chunks
                .par_iter()
                .map(|r| {
                    let bytes = &batch[r.clone()];
                    match format {
                        LineFormat::Csv => summarize(
                            checker,
                            bound,
                            UnquotedCsv::new(source, headers, bytes, 0, 1),
                            bytes,
                        ),
                        LineFormat::Jsonl => {
                            summarize(checker, bound, JsonlReader::new(source, bytes), bytes)
                        }
                    }
                })
                .collect()
        };
        for (range, piece) in chunks.iter().zip(pieces) {
            let bytes = &batch[range.clone()];
            let skipped = piece.and_then(|p| {
                // Where each property's monitor is after the chunk, if
                // nothing happens to any of them in it.
                let mut ends = Vec::new();
                for i in 0..checker.len() {
                    let Some(q) = checker.state(i) else { continue };
                    let run = p.summaries[i].as_ref()?.run_from(q);
                    if run.violated_at.is_some() || run.satisfied_at.is_some() {
                        return None;
                    }
                    ends.push((i, run.end?));
                }
                Some((p, ends))
            });
            match skipped {
                Some((p, ends)) => {
                    for (i, q) in ends {
                        checker.set_state(i, q);
                    }
                    let tail = p.tail.iter().map(|(at, bits)| {
                        let at = Position {
                            index: at.index + index,
                            line: at.line.map(|l| l + line - 1),
                            time: None,
                        };
                        (at, bits.as_slice())
                    });
                    checker.skip(p.events, tail);
                    index += p.events;
                    line += p.lines;
                }
                None => {
                    // Read again, in order, by the checker itself.

                    let before = checker.events();
                    match format {
                        LineFormat::Csv => {
                            let mut r = CsvReader::with_headers(
                                source,
                                headers.clone(),
                                bytes,
                                index,
                                line,
                            );
                            checker.feed(&mut r, &bound, &mut |_, _| {})?
                        }
                        LineFormat::Jsonl => {
                            let mut r = JsonlReader::starting_at(source, bytes, index, line);
                            bound.attach(&mut r);
                            checker.feed(&mut r, &bound, &mut |_, _| {})?
                        }
                    }
                    index += checker.events() - before;
                    line += memchr::memchr_iter(b'\n', bytes).count() as u64;
                }
            }
        }
        buf.drain(..end);
    }
    Ok(checker.finish())
}

/// Checks the rest of a log, from event `index` on line `line`, in one
/// pass.
#[allow(clippy::too_many_arguments)]
fn one_pass<R: Read>(
    checker: &mut Checker,
    format: LineFormat,
    source: &str,
    headers: Vec<String>,
    bound: &Bound,
    rest: R,
    index: u64,
    line: u64,
) -> Result<Vec<Report>, TraceError> {
    match format {
        LineFormat::Csv => {
            let mut r = CsvReader::with_headers(source, headers, rest, index, line);
            checker.feed(&mut r, bound, &mut |_, _| {})?;
        }
        LineFormat::Jsonl => {
            let rest = std::io::BufReader::with_capacity(1 << 16, rest);
            let mut r = JsonlReader::starting_at(source, rest, index, line);
            bound.attach(&mut r);
            checker.feed(&mut r, bound, &mut |_, _| {})?;
        }
    }
    Ok(checker.finish())
}

/// The chunks of a batch (whole lines).
fn cut(batch: &[u8], chunking: Chunking) -> Vec<std::ops::Range<usize>> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < batch.len() {
        let end = match chunking {
            Chunking::Bytes(n) => {
                let at = start + n.max(1) - 1;
                if at >= batch.len() {
                    batch.len()
                } else {
                    memchr::memchr(b'\n', &batch[at..]).map_or(batch.len(), |p| at + p + 1)
                }
            }
            Chunking::Lines(n) => memchr::memchr_iter(b'\n', &batch[start..])
                .nth(n.max(1) - 1)
                .map_or(batch.len(), |p| start + p + 1),
        };
        chunks.push(start..end);
        start = end;
    }
    chunks
}

/// Reads a chunk and summarizes every undecided property's run over it;
/// `None` if the chunk cannot be read (the sequential pass reports why).
fn summarize<R: Reader>(
    checker: &Checker,
    bound: &Bound,
    mut reader: R,
    bytes: &[u8],
) -> Option<Piece> {
    bound.attach(&mut reader);
    let live: Vec<usize> = (0..checker.len())
        .filter(|&i| checker.state(i).is_some())
        .collect();
    // The atoms of every event, one after the other (`words` each); the
    // letters of one property at a time are made from them, so that the
    // letters in memory are those of one property (they stay in cache).
    let words = bound.words;
    let mut all: Vec<u64> = Vec::new();
    let keep = checker.context() + 1;
    let mut positions: std::collections::VecDeque<Position> =
        std::collections::VecDeque::with_capacity(keep);
    let mut bits = vec![0u64; words];
    let mut events = 0u64;
    while reader.advance().ok()? {
        events += 1;
        bound.eval(&reader, &mut bits).ok()?;
        all.extend_from_slice(&bits);
        if positions.len() == keep {
            positions.pop_front();
        }
        positions.push_back(reader.position());
    }
    let mut summaries: Vec<Option<Summary>> = vec![None; checker.len()];
    let mut letters: Vec<u64> = Vec::with_capacity(events as usize);
    for &i in &live {
        letters.clear();
        if !checker.letters(i, &all, words, &mut letters) {
            // More than 64 propositions: read again in one pass.
            continue;
        }
        if let Some(t) = checker.table(i) {
            summaries[i] = Some(Summary::of_letters(&t, &letters));
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
    Some(Piece {
        events,
        lines: memchr::memchr_iter(b'\n', bytes).count() as u64,
        summaries,
        tail,
    })
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

    #[test]
    fn every_chunk_size_and_thread_count_gives_the_reports_of_one_pass() {
        let mut rng = SplitMix64::new(0xc4u64);
        let mut gen = RandomLtl::new(&["a", "b", "c", "n_small"], 7)
            .seed(11)
            .with_past();
        let pools: Vec<rayon::ThreadPool> = [1, 2, 3]
            .iter()
            .map(|&t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            })
            .collect();
        let (mut compared, mut errors) = (0, 0);
        for i in 0..50 {
            // A few properties at once, of both kinds of verdicts.
            let mut props = Vec::new();
            for j in 0..3 {
                let f = gen.next_formula();
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
            let len = 1 + (rng.next_u64() % 400) as usize;
            let damage = (i % 7 == 3).then(|| (rng.next_u64() % len as u64) as usize);
            let (csv, jsonl) = log(&mut rng, len, damage, i % 11 == 4);
            let jsonl = jsonl.replace("\"x\": {\"b\"", "\"b\": 0, \"x\": {\"b\"");
            for options in [
                Options::default(),
                Options {
                    all: true,
                    max_reports: 3,
                    context: 2,
                },
            ] {
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
                    let want = match format {
                        LineFormat::Csv => CsvReader::new("t", text.as_bytes())
                            .and_then(|mut r| checker.run(&mut r)),
                        LineFormat::Jsonl => {
                            checker.run(&mut JsonlReader::new("t", text.as_bytes()))
                        }
                    };
                    // A damaged value is an error if a property reads it.
                    errors += usize::from(want.is_err());
                    assert!(want.is_ok() || damage.is_some(), "{want:?}");
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
                            compared += 1;
                        }
                    }
                }
            }
        }
        assert!(compared > 2000, "{compared}");
        assert!(errors > 4, "{errors}");
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
}
