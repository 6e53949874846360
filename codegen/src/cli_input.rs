//! Where formulas come from, as Spot's tools take them: arguments (`-f`,
//! `--formula` or positional), files of one formula per line (`-F FILE`,
//! `-` for standard input), and columns of CSV files (`-F FILE/COL`).
//!
//! `compile`, `classify`, `print` and `check` all read their formulas
//! through [`read_sources`], in the order of the command line.

use std::io::{self, Read};
use std::path::{Path, PathBuf};

use clap::ArgMatches;
use monitor_core::formula::metric::{parse_cycles, ClockPeriod, TimedComponent};
use monitor_core::formula::sva::{parse_sva_directive_with, Signals};
use monitor_core::formula::{
    parse, parse_directive, parse_psl, parse_sva_directive, Directive, Formula, ParseError,
    ParseErrorKind,
};
use monitor_core::translate::BuildError;

/// One formula argument or file argument, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// A formula given on the command line.
    Formula(String),
    /// `-F FILE[/COL]`, or a positional `-` (standard input).
    File(PathBuf),
}

/// The formula and file arguments of `matches` in the order they were
/// given: the values of the arguments `formula_ids` (formulas; with
/// `dash_is_stdin`, a positional `-` reads standard input) and of
/// `file_id` (files).
pub fn ordered_items(
    matches: &ArgMatches,
    formula_ids: &[(&str, bool)],
    file_id: &str,
) -> Vec<Item> {
    let mut items: Vec<(usize, Item)> = Vec::new();
    for &(id, dash_is_stdin) in formula_ids {
        let values = matches.get_many::<String>(id).into_iter().flatten();
        let indices = matches.indices_of(id).into_iter().flatten();
        for (i, v) in indices.zip(values) {
            let item = if dash_is_stdin && v == "-" {
                Item::File(PathBuf::from("-"))
            } else {
                Item::Formula(v.clone())
            };
            items.push((i, item));
        }
    }
    let values = matches.get_many::<PathBuf>(file_id).into_iter().flatten();
    let indices = matches.indices_of(file_id).into_iter().flatten();
    for (i, v) in indices.zip(values) {
        items.push((i, Item::File(v.clone())));
    }
    items.sort_by_key(|(i, _)| *i);
    items.into_iter().map(|(_, item)| item).collect()
}

/// The column of a CSV file that holds the formulas (`-F FILE/COL`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Column {
    /// A 1-based column number; `header`: the first line is dropped
    /// (Spot's negative COL).
    Number { column: usize, header: bool },
    /// A column named in the header line (the first line).
    Name(String),
}

/// What `-F SPEC` reads: a plain file (one formula per line) or a column
/// of a CSV file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileSpec {
    /// The file (`-` for standard input).
    pub path: PathBuf,
    pub column: Option<Column>,
}

/// Splits `-F FILE/COL` as Spot does: if a file named `FILE/COL` exists,
/// it is a plain file; otherwise, if `FILE` is a file (or `-`), `COL` is a
/// column: a number from 1 (a negative number also drops the first line)
/// or the name of a column in the header line.
pub fn file_spec(spec: &Path) -> Result<FileSpec, String> {
    let plain = FileSpec {
        path: spec.to_path_buf(),
        column: None,
    };
    if spec.as_os_str() == "-" || spec.exists() {
        return Ok(plain);
    }
    let Some((file, col)) = spec.to_str().and_then(|s| s.rsplit_once('/')) else {
        return Ok(plain);
    };
    let path = PathBuf::from(file);
    if file.is_empty() || col.is_empty() || !(file == "-" || path.is_file()) {
        return Ok(plain);
    }
    let column = match col.parse::<i64>() {
        Ok(0) => {
            return Err(format!(
            "-F {}: CSV columns are numbered from 1 (a negative number also skips the header line)",
            spec.display()
        ))
        }
        Ok(n) => Column::Number {
            column: usize::try_from(n.unsigned_abs())
                .map_err(|_| format!("-F {}: no such column", spec.display()))?,
            header: n < 0,
        },
        Err(_) => Column::Name(col.to_string()),
    };
    Ok(FileSpec {
        path,
        column: Some(column),
    })
}

/// Where a formula read from a CSV column was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CsvField {
    /// The 1-based column.
    pub column: usize,
    /// Its name, when the file has a header line.
    pub name: Option<String>,
    /// The fields before and after the formula's, as CSV (Spot's `%<`
    /// and `%>`).
    pub before: String,
    pub after: String,
}

/// The language of the formulas: LTL (Spot's syntax), PSL (`--psl`) or
/// SVA (`--sva`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Ltl,
    Psl,
    Sva,
}

impl Language {
    /// The language of `--psl` and `--sva` (at most one of them is set).
    pub fn of(psl: bool, sva: bool) -> Language {
        match (psl, sva) {
            (_, true) => Language::Sva,
            (true, false) => Language::Psl,
            (false, false) => Language::Ltl,
        }
    }
}

/// A formula and where it came from, for error messages and `--stats`.
#[derive(Clone, Debug)]
pub struct Source {
    pub text: String,
    /// The file (`-` for standard input); `None` on the command line.
    pub file: Option<String>,
    /// The 1-based line in the file (1 on the command line).
    pub line: usize,
    /// The column, for a formula of a CSV file.
    pub csv: Option<CsvField>,
    pub lang: Language,
}

impl Source {
    pub fn parse(&self) -> Result<Formula, String> {
        let parsed = match self.lang {
            Language::Psl => parse_psl(&self.text),
            Language::Ltl => parse(&self.text),
            Language::Sva => {
                // An assertion: its property at every tick. A clock or a
                // reset would be lost here: `compile` and `check` take them
                // (with `parse_directive`).
                let d =
                    parse_sva_directive(&self.text).map_err(|e| self.describe_parse_error(e))?;
                if d.clock.is_some() || d.disable.is_some() {
                    let what = if d.clock.is_some() {
                        "a clock"
                    } else {
                        "a `disable iff` reset"
                    };
                    return Err(self.describe_parse_error(d.error(
                        &self.text,
                        format!(
                            "this assertion has {what}, which `mongen compile` gives its \
                             checker and `mongen check` samples and resets with: leave it out here"
                        ),
                    )));
                }
                Ok(d.formula)
            }
        };
        parsed.map_err(|e| self.describe_parse_error(e))
    }

    /// For `compile` and `classify`: the formula of [`Source::parse`],
    /// its time bounds (LTL's `F[0:50ns] p`) converted to cycles of
    /// `period` (`--clock-period`), or, without a period, refused with
    /// what to do instead.
    pub fn parse_cycles(&self, period: Option<&ClockPeriod>) -> Result<Formula, String> {
        match (self.lang, period) {
            (Language::Ltl, Some(period)) => {
                parse_cycles(&self.text, period).map_err(|e| self.describe_parse_error(e))
            }
            (_, Some(_)) => Err(self.describe_message(
                "--clock-period converts the time bounds of LTL formulas (`F[0:50ns] p`); PSL \
                 and SVA have none: leave it out",
            )),
            (_, None) => self.parse().map_err(|e| self.hint_clock_period(e)),
        }
    }

    /// A message about the whole formula, prefixed by where it is.
    fn describe_message(&self, message: &str) -> String {
        match &self.file {
            Some(f) => format!("{f}: line {}: {message}", self.line),
            None => message.to_string(),
        }
    }

    /// An error of [`Source::parse`] for `compile` and `classify`: a time
    /// bound refused says to count cycles or to give the clock period.
    fn hint_clock_period(&self, described: String) -> String {
        let Language::Ltl = self.lang else {
            return described;
        };
        match parse(&self.text) {
            Err(e) if e.kind() == &ParseErrorKind::TimeBound => described.replacen(
                &e.message(),
                "a time bound is for `mongen check --time`; a compiled monitor or checker counts \
                 events or cycles: write the bound as a count (`F[0:5] p`), or give the clock \
                 period to convert it to cycles (`--clock-period 10ns`)",
                1,
            ),
            _ => described,
        }
    }

    /// For `check`: the formula with its past metric operators
    /// (`O[0:5s] p`) read as propositions and their timed components
    /// ([`parse_metric`](monitor_core::formula::metric::parse_metric)), for
    /// LTL; PSL and SVA have none.
    pub fn parse_timed(&self) -> Result<(Formula, Vec<TimedComponent>), String> {
        match self.lang {
            Language::Ltl => monitor_core::formula::metric::parse_metric(&self.text)
                .map(|m| (m.formula, m.timed))
                .map_err(|e| self.describe_parse_error(e)),
            _ => self.parse().map(|f| (f, Vec::new())),
        }
    }

    /// For `compile`: a PSL property as a directive, whose clock and reset
    /// (`@(posedge clk)`, `disable iff`, an outermost `abort`) a hardware
    /// checker takes; an LTL formula as [`Source::parse`] reads it.
    /// An SVA property is read with the widths of the signals (`--input`,
    /// `--design`): its vector expressions (`&v`, `$onehot(v)`, `$past(v)
    /// == v`, ...) need them.
    pub fn parse_directive_with(
        &self,
        signals: &Signals,
    ) -> Result<(Formula, Option<Directive>), String> {
        let d = match self.lang {
            Language::Ltl => return self.parse().map(|f| (f, None)),
            Language::Psl => parse_directive(&self.text),
            Language::Sva => parse_sva_directive_with(&self.text, signals),
        };
        let d = d.map_err(|e| self.describe_parse_error(e))?;
        Ok((d.formula.clone(), Some(d)))
    }

    /// For `compile`: [`Source::parse_directive_with`], an LTL formula
    /// read by [`Source::parse_cycles`] (its time bounds converted to
    /// cycles of `period`, `--clock-period`, or refused with what to do).
    pub fn parse_directive_in_cycles(
        &self,
        signals: &Signals,
        period: Option<&ClockPeriod>,
    ) -> Result<(Formula, Option<Directive>), String> {
        match (self.lang, period) {
            (Language::Ltl, _) | (_, Some(_)) => self.parse_cycles(period).map(|f| (f, None)),
            (_, None) => self.parse_directive_with(signals),
        }
    }

    fn describe_parse_error(&self, e: ParseError) -> String {
        let shown = match self.vunit_hint() {
            Some(hint) => e.to_string().replacen(&e.message(), &hint, 1),
            None => e.to_string(),
        };
        let Some(f) = &self.file else {
            return shown;
        };
        let Some(csv) = &self.csv else {
            let moved = e.clone().at_line(self.line);
            return match self.vunit_hint() {
                Some(hint) => format!(
                    "{f}: {}",
                    moved.to_string().replacen(&e.message(), &hint, 1)
                ),
                None => format!("{f}: {moved}"),
            };
        };
        // The caret points into the field: say where the field is, and
        // the column within it.
        let shown = e.to_string();
        let snippet = shown.split_once('\n').map_or("", |(_, rest)| rest);
        let name = csv
            .name
            .as_ref()
            .map_or_else(String::new, |n| format!(" (`{n}`)"));
        format!(
            "{f}: syntax error at line {}, CSV column {}{name}, column {} of the formula: {}\n{snippet}",
            self.line + e.line() - 1,
            csv.column,
            e.column(),
            e.message()
        )
    }

    /// What to do with a verification unit (or a declaration that belongs
    /// in one) given where one property is expected: the parser's message
    /// names its Rust function, the user needs the option.
    fn vunit_hint(&self) -> Option<String> {
        if self.lang != Language::Psl {
            return None;
        }
        let mut words = self
            .text
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty());
        let first = words.next()?;
        let rest = self.text.trim_start().strip_prefix(first)?.trim_start();
        let declaration =
            matches!(first, "default" | "property" | "sequence") && !rest.starts_with(['(', '{']);
        if first == "vunit" {
            Some(
                "this is a verification unit: give its file with --vunit FILE (-f and -F read one property each)"
                    .to_string(),
            )
        } else if declaration {
            Some(format!(
                "`{first}` declarations belong in a verification unit: give its file with --vunit FILE"
            ))
        } else {
            None
        }
    }

    /// A PSL property as the user wrote it (without `assert`/`PSLSPEC`,
    /// SVA's `property` after `assert`, and `;`); `None` for LTL.
    pub fn written(&self) -> Option<&str> {
        match self.lang {
            Language::Ltl => return None,
            // The property of the assertion, without its declarations,
            // label and directive keywords.
            Language::Sva => {
                return Some(match parse_sva_directive(&self.text) {
                    Ok(d) => &self.text[d.span],
                    Err(_) => self.text.trim(),
                })
            }
            Language::Psl => {}
        }
        let text = self.text.trim();
        let text = ["assert ", "PSLSPEC "]
            .iter()
            .find_map(|k| text.strip_prefix(k))
            .map_or(text, |rest| {
                // `assert property (…)`: the property is the parenthesis.
                let rest = rest.trim_start();
                match rest.strip_prefix("property") {
                    Some(p) if p.starts_with(|c: char| c == '(' || c.is_whitespace()) => p,
                    _ => rest,
                }
            });
        Some(text.trim_start().trim_end_matches(';').trim_end())
    }

    /// The formula for a diagnostic: PSL as the user wrote it, LTL in
    /// Spot syntax; long ones cut.
    pub fn label(&self, f: &Formula) -> String {
        match self.written() {
            Some(text) => shorten(text),
            None => short(f),
        }
    }

    pub fn describe(&self, f: &Formula, e: &BuildError) -> String {
        format!("{}: {}", self.label(f), explain(e))
    }
}

/// A build error, with what to do about a state limit or the memory
/// budget.
pub fn explain(e: &BuildError) -> String {
    if e.state_limit().is_some() {
        format!("{e}; raise it with --max-states N if this blow-up is expected")
    } else if e.memory_limit().is_some() {
        format!("{e} (--max-memory); raise it with --max-memory SIZE (such as 4G) if this blow-up is expected and the machine has the memory")
    } else {
        e.to_string()
    }
}

/// A formula for a diagnostic: long ones are cut (the whole formula is in
/// the input anyway).
pub fn short(f: &Formula) -> String {
    // Printed only as far as shown: the text of nested windows is
    // quadratic in the formula (`G[0:k] F[0:k] b`: 700 MB for k = 10,000).
    shorten(&f.to_spot_within(400))
}

/// Long text cut for a diagnostic.
pub fn shorten(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        let head: String = text.chars().take(72).collect();
        format!("{head} …")
    }
}

/// The formulas of `items`, in order: formulas as given, files read line
/// by line (blank lines and lines starting with `#` skipped) or by CSV
/// column. Standard input can be read once.
/// The signals of `--input` and `--design` as the SVA front end reads
/// them (a range with a negative index is left out: its width is then
/// not known, and a vector expression over it is refused).
pub fn sva_signals(inputs: &[mongen::hdl::HdlInput]) -> Signals {
    inputs.iter().fold(Signals::new(), |s, i| {
        let (Ok(msb), Ok(lsb)) = (u32::try_from(i.msb), u32::try_from(i.lsb)) else {
            return s;
        };
        match (i.scalar, i.signed) {
            (true, _) => s.scalar(&i.name),
            (false, false) => s.vector(&i.name, msb, lsb),
            (false, true) => s.signed_vector(&i.name, msb, lsb),
        }
    })
}

pub fn read_sources(items: &[Item], lang: Language) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for item in items {
        match item {
            Item::Formula(text) => out.push(Source {
                text: text.clone(),
                file: None,
                line: 1,
                csv: None,
                lang,
            }),
            Item::File(spec) => {
                let spec = file_spec(spec)?;
                let name = spec.path.display().to_string();
                let bytes = if name == "-" {
                    if stdin_read {
                        return Err(
                            "standard input is given twice as a source of formulas ('-' or -F -)"
                                .into(),
                        );
                    }
                    stdin_read = true;
                    let mut b = Vec::new();
                    io::stdin()
                        .read_to_end(&mut b)
                        .map_err(|e| format!("cannot read standard input: {e}"))?;
                    b
                } else {
                    std::fs::read(&spec.path).map_err(|e| format!("cannot read {name}: {e}"))?
                };
                match &spec.column {
                    None => read_lines(&name, &bytes, lang, &mut out)?,
                    Some(col) => read_csv(&name, &bytes, col, lang, &mut out)?,
                }
            }
        }
    }
    Ok(out)
}

/// One formula per line; blank lines and lines starting with `#` skipped.
fn read_lines(
    name: &str,
    bytes: &[u8],
    lang: Language,
    out: &mut Vec<Source>,
) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let line = 1 + memchr::memchr_iter(b'\n', &bytes[..e.valid_up_to()]).count();
        format!("{name}: line {line} is not valid UTF-8")
    })?;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        out.push(Source {
            text: line.to_string(),
            file: Some(name.to_string()),
            line: i + 1,
            csv: None,
            lang,
        });
    }
    Ok(())
}

/// The formulas of one column of a CSV file. Empty lines and lines
/// starting with `#` are skipped; a line without the column, or with an
/// empty field there, is an error.
fn read_csv(
    name: &str,
    bytes: &[u8],
    column: &Column,
    lang: Language,
    out: &mut Vec<Source>,
) -> Result<(), String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .comment(Some(b'#'))
        .from_reader(bytes);
    let mut records = reader.records();
    let mut lines = LineCounter::new(bytes);
    let mut next = || -> Result<Option<(usize, csv::StringRecord)>, String> {
        match records.next() {
            None => Ok(None),
            Some(Err(e)) => Err(csv_error(name, &e, &mut lines)),
            Some(Ok(r)) => {
                let line = lines.record_line(r.position());
                Ok(Some((line, r)))
            }
        }
    };
    let (index, header) = match column {
        Column::Number { column, header } => {
            if *header {
                next()?;
            }
            (column - 1, None)
        }
        Column::Name(wanted) => {
            let Some((line, head)) = next()? else {
                return Err(format!(
                    "{name}: no header line to find the column `{wanted}` in (the file is empty)"
                ));
            };
            let Some(index) = head.iter().position(|h| h.trim() == wanted) else {
                let names: Vec<String> = head.iter().map(|h| format!("`{}`", h.trim())).collect();
                return Err(format!(
                    "{name}: line {line}: no column named `{wanted}` in the header line (its columns: {})",
                    names.join(", ")
                ));
            };
            (index, Some(wanted.clone()))
        }
    };
    let what = || match &header {
        Some(h) => format!("column {} (`{h}`)", index + 1),
        None => format!("column {}", index + 1),
    };
    while let Some((line, record)) = next()? {
        let Some(field) = record.get(index) else {
            return Err(format!(
                "{name}: line {line}: no {} (the line has {} field{})",
                what(),
                record.len(),
                if record.len() == 1 { "" } else { "s" }
            ));
        };
        if field.trim().is_empty() {
            return Err(format!("{name}: line {line}: {} is empty", what()));
        }
        let fields: Vec<&str> = record.iter().collect();
        out.push(Source {
            text: field.to_string(),
            file: Some(name.to_string()),
            line,
            csv: Some(CsvField {
                column: index + 1,
                name: header.clone(),
                before: csv_line(&fields[..index]),
                after: csv_line(&fields[index + 1..]),
            }),
            lang,
        });
    }
    Ok(())
}

/// The lines of CSV records. The `csv` crate's positions count neither
/// the empty lines nor the comment lines it skips, and a record's position
/// is where reading it began, before the lines skipped: the line is found
/// in the text itself, from that byte on.
struct LineCounter<'a> {
    bytes: &'a [u8],
    /// A byte offset and the 1-based line it is on.
    at: usize,
    line: usize,
}

impl<'a> LineCounter<'a> {
    fn new(bytes: &'a [u8]) -> LineCounter<'a> {
        LineCounter {
            bytes,
            at: 0,
            line: 1,
        }
    }

    /// The line where the record read from `position` on begins.
    fn record_line(&mut self, position: Option<&csv::Position>) -> usize {
        let Some(p) = position else {
            return self.line;
        };
        let mut start = usize::try_from(p.byte())
            .unwrap_or(usize::MAX)
            .min(self.bytes.len());
        // Skip the empty lines and comment lines before the record.
        loop {
            let rest = &self.bytes[start..];
            let skip = if rest.starts_with(b"\n") {
                1
            } else if rest.starts_with(b"\r\n") {
                2
            } else if rest.starts_with(b"#") {
                memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1)
            } else {
                break;
            };
            start += skip;
        }
        if start < self.at {
            // Not expected (records come in order): count from the start.
            self.at = 0;
            self.line = 1;
        }
        self.line += memchr::memchr_iter(b'\n', &self.bytes[self.at..start]).count();
        self.at = start;
        self.line
    }
}

/// A CSV reading error, with the file and the line.
fn csv_error(name: &str, e: &csv::Error, lines: &mut LineCounter) -> String {
    let line = e.position().map(|p| lines.record_line(Some(p)));
    match (e.kind(), line) {
        (csv::ErrorKind::Io(io), _) => format!("cannot read {name}: {io}"),
        (csv::ErrorKind::Utf8 { err, .. }, Some(line)) => format!(
            "{name}: line {line}: field {} is not valid UTF-8",
            err.field() + 1
        ),
        (_, Some(line)) => format!("{name}: line {line}: {e}"),
        (_, None) => format!("{name}: {e}"),
    }
}

/// Fields written back as one CSV line (quoted where needed).
fn csv_line(fields: &[&str]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .from_writer(Vec::new());
    // One empty field is written `""` by the csv crate (not to look like
    // an empty line): here it is the empty text that it is.
    if fields.is_empty() || fields == [""] || w.write_record(fields).is_err() {
        return String::new();
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes)
        .unwrap_or_default()
        .trim_end_matches('\n')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_psl_drops_the_directive_keywords() {
        let psl = |text: &str| Source {
            text: text.into(),
            file: None,
            line: 1,
            csv: None,
            lang: Language::Psl,
        };
        let cases = [
            ("always (a -> next b)", "always (a -> next b)"),
            ("assert always a;", "always a"),
            ("PSLSPEC always a ;", "always a"),
            (
                "assert property (@(posedge clk) disable iff (!rst_n) always a);",
                "(@(posedge clk) disable iff (!rst_n) always a)",
            ),
            ("assert  property(always a);", "(always a)"),
            // A proposition named like the keyword stays.
            ("assert property_ok -> next b", "property_ok -> next b"),
            ("assume always a", "assume always a"),
        ];
        for (text, want) in cases {
            assert_eq!(psl(text).written(), Some(want), "{text}");
        }
        assert_eq!(
            Source {
                lang: Language::Ltl,
                ..psl("G a")
            }
            .written(),
            None
        );
    }

    #[test]
    fn sva_sources_are_assertions() {
        let sva = |text: &str| Source {
            text: text.into(),
            file: None,
            line: 1,
            csv: None,
            lang: Language::Sva,
        };
        // The property of the assertion, without declarations, label and
        // keywords.
        let s = sva(
            "sequence s; a ##1 b; endsequence p1: assert property (s |=> c) else $error(\"x\");",
        );
        assert_eq!(s.written(), Some("s |=> c"));
        assert_eq!(sva("req |-> ack").written(), Some("req |-> ack"));
        // Checked at every tick.
        assert_eq!(
            s.parse().unwrap(),
            parse_psl("always {a; b; true} |-> c").unwrap()
        );
        // `compile` and `check` take the clock and the reset; the others
        // refuse them.
        let c = sva("@(posedge clk) disable iff (rst) a |=> b");
        // (The reset is in the formula too: it disables an attempt that a
        // reset at the next tick would cut.)
        let (f, d) = c.parse_directive_with(&Signals::new()).unwrap();
        assert_eq!(f, parse_psl("always ((a -> next b) abort rst)").unwrap());
        assert!(d.unwrap().clock.is_some());
        // Vector expressions read the widths of --input and --design.
        let v = sva("^v");
        assert!(v.parse_directive_with(&Signals::new()).is_err());
        let signals = sva_signals(&[
            mongen::hdl::HdlInput::bits("v", 2),
            mongen::hdl::HdlInput::vector("n", 3, -1),
        ]);
        let (f, _) = v.parse_directive_with(&signals).unwrap();
        assert_eq!(f, parse("G (\"v[0]\" xor \"v[1]\")").unwrap());
        // A negative index: the width is not known to the front end.
        assert!(sva("^n").parse_directive_with(&signals).is_err());
        assert!(c.parse().unwrap_err().contains("`mongen check` samples"));
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("mongen-input-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn file_specs_follow_spots_rule() {
        let d = temp_dir("spec");
        let csv = d.join("f.csv");
        std::fs::write(&csv, "a,b\n").unwrap();
        let spec = |s: &str| file_spec(Path::new(s));
        let c = csv.to_str().unwrap();
        assert_eq!(
            spec(&format!("{c}/2")).unwrap().column,
            Some(Column::Number {
                column: 2,
                header: false
            })
        );
        assert_eq!(
            spec(&format!("{c}/-1")).unwrap().column,
            Some(Column::Number {
                column: 1,
                header: true
            })
        );
        assert_eq!(
            spec(&format!("{c}/name")).unwrap().column,
            Some(Column::Name("name".into()))
        );
        assert!(spec(&format!("{c}/0"))
            .unwrap_err()
            .contains("numbered from 1"));
        assert_eq!(spec(c).unwrap().column, None);
        assert_eq!(
            spec("-/3").unwrap(),
            FileSpec {
                path: "-".into(),
                column: Some(Column::Number {
                    column: 3,
                    header: false
                })
            }
        );
        // A directory's file, or a missing file: plain paths (reading
        // them reports the error on the whole path).
        let sub = d.join("sub");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(spec(sub.join("x").to_str().unwrap()).unwrap().column, None);
        assert_eq!(spec("/nonexistent/f.csv/2").unwrap().column, None);
        // A file literally named FILE/COL wins.
        std::fs::write(sub.join("2"), "G a\n").unwrap();
        assert_eq!(spec(sub.join("2").to_str().unwrap()).unwrap().column, None);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn csv_columns_by_number_and_name() {
        let mut out = Vec::new();
        let text = b"id,formula,note\n1,G a,\"x, y\"\n# comment\n\n2,\"G(a -> X b)\",z\n";
        read_csv(
            "t.csv",
            text,
            &Column::Name("formula".into()),
            Language::Ltl,
            &mut out,
        )
        .unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].text, "G a");
        assert_eq!(out[0].line, 2);
        let f = out[0].csv.as_ref().unwrap();
        assert_eq!((f.before.as_str(), f.after.as_str()), ("1", "\"x, y\""));
        assert_eq!(out[1].text, "G(a -> X b)");
        assert_eq!(out[1].line, 5);
        let mut out = Vec::new();
        let e = read_csv(
            "t.csv",
            text,
            &Column::Number {
                column: 2,
                header: false,
            },
            Language::Ltl,
            &mut out,
        );
        assert!(e.is_ok());
        assert_eq!(out[0].text, "formula", "no header: the first line is data");
        let mut out = Vec::new();
        let e = read_csv(
            "t.csv",
            b"a,b\n1\n",
            &Column::Number {
                column: 2,
                header: true,
            },
            Language::Ltl,
            &mut out,
        )
        .unwrap_err();
        assert_eq!(e, "t.csv: line 2: no column 2 (the line has 1 field)");
        let e = read_csv(
            "t.csv",
            b"a,b\n",
            &Column::Name("c".into()),
            Language::Ltl,
            &mut out,
        )
        .unwrap_err();
        assert_eq!(
            e,
            "t.csv: line 1: no column named `c` in the header line (its columns: `a`, `b`)"
        );
        let e = read_csv(
            "t.csv",
            b"",
            &Column::Name("c".into()),
            Language::Ltl,
            &mut out,
        )
        .unwrap_err();
        assert!(e.contains("the file is empty"), "{e}");
        let e = read_csv(
            "t.csv",
            b"f\n \n",
            &Column::Name("f".into()),
            Language::Ltl,
            &mut out,
        );
        // A line of blanks is a record with one blank field.
        assert_eq!(e.unwrap_err(), "t.csv: line 2: column 1 (`f`) is empty");
        let e = read_csv(
            "t.csv",
            b"f\nG a\n\xff\n",
            &Column::Name("f".into()),
            Language::Ltl,
            &mut out,
        )
        .unwrap_err();
        assert_eq!(e, "t.csv: line 3: field 1 is not valid UTF-8");
    }

    #[test]
    fn csv_lines_count_the_skipped_lines() {
        let mut out = Vec::new();
        let text = b"a\n# one\n\n\r\n# two\nb\n\"c\nd\"\n\ne\n";
        read_csv(
            "t.csv",
            text,
            &Column::Number {
                column: 1,
                header: false,
            },
            Language::Ltl,
            &mut out,
        )
        .unwrap();
        let lines: Vec<(usize, &str)> = out.iter().map(|s| (s.line, s.text.as_str())).collect();
        assert_eq!(lines, [(1, "a"), (6, "b"), (7, "c\nd"), (10, "e")]);
    }

    #[test]
    fn csv_parse_errors_point_into_the_field() {
        let mut out = Vec::new();
        read_csv(
            "t.csv",
            b"id,f\n7,G(a U )\n",
            &Column::Name("f".into()),
            Language::Ltl,
            &mut out,
        )
        .unwrap();
        let e = out[0].parse().unwrap_err();
        assert_eq!(
            e,
            "t.csv: syntax error at line 2, CSV column 2 (`f`), column 7 of the formula: expected a formula, found `)`\n  G(a U )\n        ^"
        );
    }

    #[test]
    fn plain_files_report_bad_utf8_with_the_line() {
        let mut out = Vec::new();
        let e = read_lines("p.ltl", b"G a\nG b\nG \xffc\n", Language::Ltl, &mut out).unwrap_err();
        assert_eq!(e, "p.ltl: line 3 is not valid UTF-8");
    }
}
