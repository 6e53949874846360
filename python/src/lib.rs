//! The native part of the `mongen` Python package: monitors compiled from
//! LTL/PSL/SVA, stepped from Python, emitted to every target, and traces
//! checked with the same reports as `mongen check --json`. The Python
//! side (`python/mongen/__init__.py`) wraps these in dataclasses and
//! typed signatures.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::Path;

use arrow_array::ffi_stream::{ArrowArrayStreamReader, FFI_ArrowArrayStream};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, Schema};
use mongen::emit::json::JsonOptions;
use mongen::emit::{Backend, Common, Target, UnknownTarget};
use mongen::trace_report::{
    bind_timed, keyed_report_json, partial_report_json, report_json, reports_before_error,
};
use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::metric::{parse_metric, TimedComponent};
use monitor_core::formula::{parse_psl, parse_sva_directive, ClockEdge, DirectiveKind, Formula};
use monitor_core::runtime::Cursor;
use monitor_core::trace::check::{Checker, Engine, Options, Property, Report};
use monitor_core::trace::chunked::{check_lines, ChunkSummary, ChunkedCheck, Chunking, LineFormat};
use monitor_core::trace::escape;
use monitor_core::trace::expr::Cell;
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport, Unkeyed};
use monitor_core::trace::reader::{CsvReader, Edge, JsonlReader, Reader, TraceError, VcdReader};
use monitor_core::trace::time::{TimeFormat, TimeOrder, TimeSpec};
use monitor_core::translate::{Builder, Config, Verdicts, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES};
use monitor_core::{MonitorTable, Verdict};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyCapsule, PyDict, PyMapping};
use rayon::prelude::*;

mod arrow;
use arrow::{time_spec, ArrowReader};

/// The language of the properties: LTL (Spot/Spin syntax, with past),
/// PSL (`psl=True`) or SVA (`sva=True`), as `mongen --psl` and `--sva`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Language {
    Ltl,
    Psl,
    Sva,
}

impl Language {
    fn of(psl: bool, sva: bool) -> PyResult<Language> {
        match (psl, sva) {
            (true, true) => Err(PyValueError::new_err(
                "psl=True and sva=True: a property is in one language, give one of them",
            )),
            (true, false) => Ok(Language::Psl),
            (false, true) => Ok(Language::Sva),
            (false, false) => Ok(Language::Ltl),
        }
    }
}

/// A property read: its formula, the name it is reported by (PSL and
/// SVA as written; LTL in Spot's syntax), and the clock of an SVA
/// assertion (`@(posedge clk)`, or a default clocking).
struct Parsed {
    formula: Formula,
    label: String,
    clock: Option<(String, Edge)>,
    /// The timed components of an LTL formula's metric operators
    /// (`F[0:500ms] p`, `O[0:5s] p`), whose propositions they compute;
    /// none for PSL and SVA.
    timed: Vec<TimedComponent>,
}

/// Parses `text` in `lang`. SVA is read as `mongen --sva` reads it: an
/// assertion (`[LABEL:] assert property (...);` or a bare property, with
/// its declarations), whose property is checked at every tick (§16.14);
/// its `disable iff` is in the formula (an attempt in reset is disabled),
/// its clock comes beside it, and a cover is refused (it reports matches,
/// not failures).
fn parse_property(text: &str, lang: Language) -> PyResult<Parsed> {
    let error = |e: monitor_core::formula::ParseError| PyValueError::new_err(e.to_string());
    match lang {
        Language::Ltl => {
            let m = parse_metric(text).map_err(error)?;
            // A timed property is reported as written (as `mongen check`
            // does): printed, its metric operators would be quoted
            // propositions.
            let label = if m.timed.is_empty() {
                m.formula.to_spot()
            } else {
                text.trim().to_string()
            };
            Ok(Parsed {
                formula: m.formula,
                label,
                clock: None,
                timed: m.timed,
            })
        }
        Language::Psl => Ok(Parsed {
            formula: parse_psl(text).map_err(error)?,
            label: text.trim().to_string(),
            clock: None,
            timed: Vec::new(),
        }),
        Language::Sva => {
            let d = parse_sva_directive(text).map_err(error)?;
            if d.kind == DirectiveKind::Cover {
                return Err(error(d.error(
                    text,
                    "a cover reports the matches of its sequence, not failures: check the \
                     sequence with `assert property (not ...)`",
                )));
            }
            let clock = d.clock.as_ref().map(|c| {
                let edge = match c.edge {
                    ClockEdge::Posedge => Edge::Posedge,
                    ClockEdge::Negedge => Edge::Negedge,
                };
                (c.signal.clone(), edge)
            });
            Ok(Parsed {
                label: d.text.trim().to_string(),
                formula: d.formula,
                clock,
                timed: Vec::new(),
            })
        }
    }
}

/// A clock as SVA writes it.
fn clock_text((signal, edge): &(String, Edge)) -> String {
    let edge = match edge {
        Edge::Posedge => "posedge",
        Edge::Negedge => "negedge",
    };
    format!("@({edge} {signal})")
}

/// The configuration of `compile`, `check` and `spark.check`: their
/// `max_memory` is `--max-memory`'s budget, the default's too
/// (`DEFAULT_MAX_MEMORY`, 1 GiB) when it is not given.
fn config(verdicts: u8, max_states: Option<usize>, max_memory: Option<usize>) -> PyResult<Config> {
    let verdicts = match verdicts {
        2 => Verdicts::Two,
        3 => Verdicts::Three,
        v => {
            return Err(PyValueError::new_err(format!(
                "verdicts is 2 or 3, not {v}"
            )))
        }
    };
    // As `--max-memory`: below 1 MiB, not even an empty construction fits.
    if let Some(bytes) = max_memory.filter(|&b| b < 1 << 20) {
        return Err(PyValueError::new_err(format!(
            "max_memory: {bytes} bytes is less than the smallest budget, 1 MiB (1048576)"
        )));
    }
    Ok(Config::new()
        .verdicts(verdicts)
        .max_states(Some(max_states.unwrap_or(DEFAULT_MAX_STATES)))
        .max_memory(Some(max_memory.unwrap_or(DEFAULT_MAX_MEMORY))))
}

fn verdict_word(v: Verdict, three: bool) -> &'static str {
    match v {
        Verdict::Violated => "violated",
        Verdict::Satisfied => "satisfied",
        Verdict::Undecided if three => "undecided",
        Verdict::Undecided => "holds",
    }
}

/// A monitor: the minimal deterministic automaton of a property's bad
/// prefixes, stepped one event at a time.
#[pyclass(module = "mongen._native")]
struct Monitor {
    dfa: BadPrefixDfa,
    table: MonitorTable,
    cursor: Cursor,
    three: bool,
    safety: Option<bool>,
    /// Events read since the start (or the last reset).
    position: u64,
    /// The index of the event that violated the property (the cursor
    /// keeps the state it was read in).
    violated_at: Option<u64>,
}

impl Monitor {
    /// The letter of one event: a mapping from proposition names to
    /// truth values, or a sequence of them in the order of
    /// `propositions`.
    fn letter(&self, event: &Bound<'_, PyAny>) -> PyResult<u64> {
        let t = self.table.table();
        let n = t.props as usize;
        let mut letter = 0u64;
        if let Ok(m) = event.downcast::<PyMapping>() {
            for i in 0..n {
                let name = t.proposition(i);
                let v = m.get_item(name).map_err(|_| {
                    PyKeyError::new_err(format!(
                        "the event has no value for the proposition `{name}`"
                    ))
                })?;
                if v.is_truthy()? {
                    letter |= 1 << i;
                }
            }
            return Ok(letter);
        }
        if event.is_instance_of::<pyo3::types::PyString>() {
            return Err(PyTypeError::new_err(
                "an event is a mapping from propositions to truth values, or a sequence of truth values",
            ));
        }
        let values: Vec<Bound<'_, PyAny>> = event
            .try_iter()
            .map_err(|_| {
                PyTypeError::new_err(
                    "an event is a mapping from propositions to truth values, or a sequence of truth values",
                )
            })?
            .collect::<PyResult<_>>()?;
        if values.len() != n {
            return Err(PyValueError::new_err(format!(
                "the event has {} values, the monitor {n} propositions ({})",
                values.len(),
                (0..n)
                    .map(|i| t.proposition(i))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        for (i, v) in values.iter().enumerate() {
            if v.is_truthy()? {
                letter |= 1 << i;
            }
        }
        Ok(letter)
    }

    fn advance(&mut self, letter: u64) -> Verdict {
        let t = self.table.table();
        let was_violated = self.cursor.is_violated(&t);
        let v = self.cursor.step(&t, letter);
        if v == Verdict::Violated && !was_violated {
            self.violated_at = Some(self.position);
        }
        self.position += 1;
        v
    }
}

#[pymethods]
impl Monitor {
    /// Reads one event; returns the verdict after it.
    fn step(&mut self, event: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let letter = self.letter(event)?;
        Ok(verdict_word(self.advance(letter), self.three))
    }

    /// Reads events until the verdict is final (violated, or satisfied
    /// with three verdicts) or the events end; returns the verdict.
    fn run(&mut self, events: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        let t = self.table.table();
        let mut v = self.cursor.verdict(&t);
        if v != Verdict::Undecided {
            return Ok(verdict_word(v, self.three));
        }
        // No event is taken from the iterator past the final verdict.
        for event in events.try_iter()? {
            let letter = self.letter(&event?)?;
            v = self.advance(letter);
            if v != Verdict::Undecided {
                break;
            }
        }
        Ok(verdict_word(v, self.three))
    }

    /// Back to the initial state, as if no event had been read.
    fn reset(&mut self) {
        self.cursor.reset();
        self.position = 0;
        self.violated_at = None;
    }

    /// The verdict now: "holds" (two verdicts) or "undecided" (three),
    /// "violated", or "satisfied" (three verdicts: every continuation
    /// satisfies the property).
    #[getter]
    fn verdict(&self) -> &'static str {
        verdict_word(self.cursor.verdict(&self.table.table()), self.three)
    }

    /// The number of events read.
    #[getter]
    fn position(&self) -> u64 {
        self.position
    }

    /// The propositions, in the order of sequence events.
    #[getter]
    fn propositions(&self) -> Vec<String> {
        let t = self.table.table();
        (0..t.props as usize)
            .map(|i| t.proposition(i).to_string())
            .collect()
    }

    /// The property, as the monitor names it.
    #[getter]
    fn formula(&self) -> String {
        self.dfa.name().to_string()
    }

    /// The number of states of the monitor.
    #[getter]
    fn num_states(&self) -> usize {
        self.dfa.num_states()
    }

    /// Whether the property is a safety property (None: not decided
    /// within the state limit). The monitor of one that is not detects
    /// the bad prefixes of its safety closure only.
    #[getter]
    fn is_safety(&self) -> Option<bool> {
        self.safety
    }

    /// The violation as a dict (None while the property is not
    /// violated): the 0-based index of the violating event, the
    /// explanation, a shortest word leading to the state it was read in
    /// (`after`), the letters that violate from there, and a shortest bad
    /// prefix of the property.
    fn _violation<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(position) = self.violated_at else {
            return Ok(None);
        };
        let t = self.table.table();
        let v = self.cursor.violation(&t).expect("the cursor is violated");
        let v = monitor_core::runtime::Violation {
            position: Some(position),
            ..v
        };
        let d = PyDict::new(py);
        d.set_item("position", position)?;
        d.set_item("explanation", v.to_string())?;
        d.set_item("after", v.after)?;
        d.set_item("letters", v.letters)?;
        d.set_item("shortest", v.shortest)?;
        Ok(Some(d))
    }

    /// The monitor in a target's format: "hoa", "json", "dot", "promela"
    /// (a never claim), "smv" (a NuSMV observer module), "verilog", "sva",
    /// "systemc", "rust". `name` names the claim, module or type.
    #[pyo3(signature = (target, name = "monitor"))]
    fn emit(&self, target: &str, name: &str) -> PyResult<String> {
        let target: Target = target
            .parse()
            .map_err(|e: UnknownTarget| PyValueError::new_err(e.to_string()))?;
        let common = Common {
            name: name.into(),
            three_valued: self.three,
            ..Common::default()
        };
        // What the compiled monitor knows beyond its automaton.
        let backend: Box<dyn Backend> = match target {
            Target::Json => Box::new(JsonOptions {
                common,
                safety: self.safety,
            }),
            _ => target.backend(common),
        };
        backend
            .emit(&self.dfa)
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<mongen.Monitor `{}`: {} states, {} after {} events>",
            self.dfa.name(),
            self.dfa.num_states(),
            self.verdict(),
            self.position
        )
    }
}

/// Compiles a property into its monitor (`max_memory`: the byte budget
/// of the construction, by default `DEFAULT_MAX_MEMORY`, 1 GiB).
#[pyfunction]
#[pyo3(signature = (formula, psl = false, verdicts = 2, max_states = None, max_memory = None, sva = false))]
fn compile(
    formula: &str,
    psl: bool,
    verdicts: u8,
    max_states: Option<usize>,
    max_memory: Option<usize>,
    sva: bool,
) -> PyResult<Monitor> {
    let lang = Language::of(psl, sva)?;
    let parsed = parse_property(formula, lang)?;
    if let Some(clock) = &parsed.clock {
        return Err(PyValueError::new_err(format!(
            "{}: the clock `{}` is for checking a VCD waveform (mongen.check samples it \
             there); a monitor reads one event per clock tick: leave the clock out",
            parsed.label,
            clock_text(clock)
        )));
    }
    if let Some(c) = parsed.timed.first() {
        return Err(PyValueError::new_err(format!(
            "{}: `{}` is bounded in time, which needs each event's time: check traces with \
             it with mongen.check(..., time=\"FIELD\"); a monitor stepped one event at a \
             time counts events (`F[0:5] p` is five events later)",
            parsed.label,
            escape(&c.name)
        )));
    }
    let f = parsed.formula;
    let cfg = config(verdicts, max_states, max_memory)?;
    let mut b = Builder::new();
    b.configure(cfg);
    let mut t = b
        .build_from_formula(&f)
        .map_err(|e| PyValueError::new_err(format!("{formula}: {e}")))?;
    if lang != Language::Ltl {
        t.set_name(&parsed.label);
    }
    let safety = t.is_safety();
    let dfa = t.into_dfa();
    let table = MonitorTable::from_dfa(&dfa);
    Ok(Monitor {
        dfa,
        table,
        cursor: Cursor::new(),
        three: verdicts == 3,
        safety,
        position: 0,
        violated_at: None,
    })
}

/// The format of a trace file: given, or from its extension.
fn trace_format(path: &str, format: Option<&str>) -> PyResult<&'static str> {
    let ext = Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match format.map(str::to_ascii_lowercase).as_deref().or(ext.as_deref()) {
        Some("csv") => Ok("csv"),
        Some("jsonl" | "ndjson" | "json") => Ok("jsonl"),
        Some("vcd") => Ok("vcd"),
        _ => Err(PyValueError::new_err(format!(
            "{path}: unknown trace format (the extension is not .csv, .jsonl, .ndjson, .json or .vcd); give it with format='csv'|'jsonl'|'vcd'"
        ))),
    }
}

/// Properties bound to the fields of traces, ready to check them: files
/// (CSV, JSON Lines, VCD), Arrow data (tables and data frames), and, for
/// Spark, chunks of a trace summarized where they are and combined in
/// order on the driver.
#[pyclass(module = "mongen._native", frozen)]
struct TraceChecker {
    properties: Vec<Property>,
    options: Options,
    three: bool,
    /// The clock of the SVA assertions, which samples VCD waveforms where
    /// `check` is given none.
    clock: Option<(String, Edge)>,
    /// Whether some property has time bounds (`O[0:5s] p`): the first
    /// such, in words, for errors.
    timed: Option<String>,
    /// Whether some property has a deadline (`F[0:500ms] p`), in words.
    looks_ahead: Option<String>,
}

impl TraceChecker {
    fn checker(&self) -> Checker {
        Checker::new(self.properties.clone(), self.options)
    }

    /// A checker reading the events' times as `time` says, in the order
    /// `order` says, the trace lasting until `end_time` (as `mongen check
    /// --end-time` reads it: in the time field's form). Properties with
    /// time bounds need the times.
    fn timed_checker(
        &self,
        time: Option<TimeSpec>,
        order: TimeOrder,
        end_time: Option<&str>,
    ) -> PyResult<Checker> {
        if let (Some(timed), None) = (&self.timed, &time) {
            return Err(PyValueError::new_err(format!(
                "{timed}: give the field that holds each event's time, time=\"FIELD[:UNIT]\""
            )));
        }
        let end = match (end_time, &time) {
            (None, _) => None,
            (Some(_), None) => {
                return Err(PyValueError::new_err(
                    "end_time is the time the trace lasted until: give time= too",
                ))
            }
            (Some(end), Some(spec)) => Some(end_nanos(spec, end)?),
        };
        let mut checker = self.checker();
        checker.set_time(time, order);
        checker.set_end_time(end);
        Ok(checker)
    }

    /// Keys (`by=`) take past time bounds, given the times, and no
    /// deadlines yet.
    fn timed_for_keys(&self, time: Option<&str>) -> PyResult<()> {
        if let Some(ahead) = &self.looks_ahead {
            return Err(PyValueError::new_err(format!(
                "{ahead}: deadlines are not supported with by= yet; past time bounds (`O`, `H`, \
                 `S`) are"
            )));
        }
        match (&self.timed, time) {
            (Some(timed), None) => Err(PyValueError::new_err(format!(
                "{timed}: give the field that holds each event's time, time=\"FIELD[:UNIT]\""
            ))),
            _ => Ok(()),
        }
    }

    /// The reports (JSON text) as `mongen check --json` writes them: with
    /// `late_events` when times went back (lenient order), as `mongen check
    /// --time-order lenient --json`.
    fn reports(&self, source: &str, reports: &[Report], order: TimeOrder) -> Vec<String> {
        reports
            .iter()
            .map(|r| late(report_json(source, r, self.three), r.late_events, order).to_string())
            .collect()
    }

    /// Why data that is not a waveform cannot be read with the
    /// assertions' clock.
    fn clock_refused(&self, what: &str) -> String {
        format!(
            "{what}: the assertions' clock `{}` samples VCD waveforms; the events of other \
             traces are the clock ticks: leave the clock out",
            self.clock.as_ref().map(clock_text).unwrap_or_default()
        )
    }

    /// No clock for Arrow data (its rows are the ticks).
    fn no_clock(&self, what: &str) -> PyResult<()> {
        match self.clock {
            Some(_) => Err(PyValueError::new_err(self.clock_refused(what))),
            None => Ok(()),
        }
    }

    /// A checker of these properties on each key's slice of a trace
    /// (`mongen check --by`): `by` the key fields, `unkeyed` what a row
    /// without a key is ("error", "broadcast" or "skip"), `key_limit` the
    /// most live keys, `end_key` an expression that closes its key.
    fn keyed_checker(
        &self,
        by: &[String],
        unkeyed: &str,
        key_limit: Option<usize>,
        end_key: Option<&str>,
    ) -> PyResult<KeyedChecker> {
        if by.is_empty() {
            return Err(PyValueError::new_err(
                "by: give a key field (a column name) or a list of them",
            ));
        }
        if by.iter().any(String::is_empty) {
            return Err(PyValueError::new_err(
                "by: a key field has a name, not \"\"",
            ));
        }
        let unkeyed = match unkeyed {
            "error" => Unkeyed::Error,
            "broadcast" => Unkeyed::Broadcast,
            "skip" => Unkeyed::Skip,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unkeyed is \"error\", \"broadcast\" or \"skip\", not {other:?}"
                )))
            }
        };
        let end_key = match end_key {
            Some(e) => {
                Some(Expr::parse(e).map_err(|m| PyValueError::new_err(format!("end_key: {m}")))?)
            }
            None => None,
        };
        let by: Vec<&str> = by.iter().map(String::as_str).collect();
        Ok(KeyedChecker::new(
            self.properties.clone(),
            self.options,
            &by,
            KeyedOptions {
                unkeyed,
                key_limit,
                end_key,
                // Arrow data and files alike are read once, each key
                // keeping its last events for explanations.
                explain_later: false,
            },
        ))
    }

    /// The reports of a keyed check (JSON text), as `mongen check --by
    /// --json` writes them.
    /// With `late_events` under a lenient order, as the CLI's.
    fn keyed_reports(
        &self,
        source: &str,
        report: &KeyedReport,
        complete: bool,
        order: TimeOrder,
    ) -> Vec<String> {
        keyed_report_json(source, report, self.three, complete)
            .into_iter()
            .map(|r| late(r, report.late_events, order).to_string())
            .collect()
    }

    /// A keyed check's error as a `TraceReadError` that carries `before`
    /// and the reports of the events read before it (none when it came
    /// before the first event), in the words of `mongen.check`.
    fn keyed_error(
        &self,
        py: Python<'_>,
        checker: &KeyedChecker,
        source: &str,
        e: TraceError,
        mut before: Vec<String>,
        order: TimeOrder,
    ) -> PyErr {
        let so_far = checker.report();
        if so_far.events > 0 {
            before.extend(self.keyed_reports(source, &so_far, false, order));
        }
        let e = TraceError {
            message: keyed_words(&e.message),
            ..e
        };
        trace_error_with(py, e, before)
    }

    /// The reports of the events read before an error (`"complete":
    /// false`), as `mongen check --json` writes them.
    fn partial_reports(&self, source: &str, reports: &[Report], order: TimeOrder) -> Vec<String> {
        reports
            .iter()
            .map(|r| {
                let json = partial_report_json(source, r, self.three);
                late(json, r.late_events, order).to_string()
            })
            .collect()
    }
}

/// A report with its count of events whose times went back, under a
/// lenient order (`--time-order lenient --json` adds it; strict, none goes
/// back).
fn late(mut json: serde_json::Value, late_events: u64, order: TimeOrder) -> serde_json::Value {
    if order == TimeOrder::Lenient {
        json["late_events"] = late_events.into();
    }
    json
}

/// `time_order`: "strict" (a time that goes back is an error) or
/// "lenient" (taken at the time before it, and counted).
fn time_order(order: &str) -> PyResult<TimeOrder> {
    match order {
        "strict" => Ok(TimeOrder::Strict),
        "lenient" => Ok(TimeOrder::Lenient),
        other => Err(PyValueError::new_err(format!(
            "time_order is \"strict\" or \"lenient\", not {other:?}"
        ))),
    }
}

/// The times of Arrow data whose schema is `schema` ([`time_spec`]).
fn arrow_time(time: Option<&str>, schema: &Schema) -> PyResult<Option<TimeSpec>> {
    time.map(|t| time_spec(t, schema).map_err(PyValueError::new_err))
        .transpose()
}

/// The times of trace files: `time` as `mongen check --time` reads it.
fn file_time(time: Option<&str>) -> PyResult<Option<TimeSpec>> {
    time.map(|t| TimeSpec::parse(t).map_err(|m| PyValueError::new_err(format!("time: {m}"))))
        .transpose()
}

/// `end_time` in nanoseconds: written as the time field's values are (a
/// number of its unit, or a date-time); a column of time stamps also
/// takes an RFC 3339 date-time (as Python's `datetime.isoformat()` writes
/// one).
fn end_nanos(spec: &TimeSpec, end: &str) -> PyResult<i64> {
    let text = Some(Cell::Text(end.trim()));
    let read = spec.format.read(text).or_else(|e| match spec.format {
        TimeFormat::Epoch(_) => TimeFormat::Rfc3339.read(text).map_err(|_| e),
        _ => Err(e),
    });
    read.map(|t| t.nanos)
        .map_err(|e| PyValueError::new_err(format!("end_time {end:?}: {e}")))
}

/// A message of the checker in the words of `mongen.check`'s arguments
/// where it names the options of `mongen check` about times.
fn time_words(message: &str) -> String {
    message
        .replace("--time-order lenient", "time_order=\"lenient\"")
        .replace("`--time FIELD`", "time=\"FIELD\"")
        .replace("--time ", "time=")
}

create_exception!(
    _native,
    TraceReadError,
    PyValueError,
    "A trace could not be read to its end; `reports` holds the reports (JSON text) of what was read before: earlier traces whole, and the events before the error."
);

/// A trace error as Python's ValueError.
fn trace_error(e: TraceError) -> PyErr {
    PyValueError::new_err(time_words(&e.to_string()))
}

/// A trace error as a `TraceReadError` (a ValueError) that carries the
/// reports read before it (`reports`): bad input loses nothing.
fn trace_error_with(py: Python<'_>, e: TraceError, reports: Vec<String>) -> PyErr {
    let err = TraceReadError::new_err(time_words(&e.to_string()));
    if let Err(set) = err.value(py).setattr("reports", reports) {
        return set;
    }
    err
}

/// A keyed checker's message in the words of `mongen.check`'s arguments:
/// the checker names the options of `mongen check` (`--by`, `--unkeyed
/// broadcast`, `--key-limit 2`, `--end-key`), which a Python caller did not
/// write.
fn keyed_words(message: &str) -> String {
    let message = if let Some(rest) = message.strip_prefix("--by ") {
        format!("by={rest}")
    } else if let Some(rest) = message.strip_prefix("--end-key: ") {
        format!("end_key: {rest}")
    } else {
        message.to_string()
    };
    message
        .replace("(--by)", "(by=)")
        .replace("--unkeyed broadcast", "unkeyed=\"broadcast\"")
        .replace("--unkeyed skip", "unkeyed=\"skip\"")
        .replace("(--key-limit ", "(key_limit=")
        .replace("with --end-key", "with end_key=")
}

/// The Arrow stream of an object that exports one (`__arrow_c_stream__`:
/// pyarrow tables and readers, polars and pandas data frames).
fn arrow_stream(data: &Bound<'_, PyAny>) -> PyResult<ArrowArrayStreamReader> {
    let capsule = data.call_method0("__arrow_c_stream__").map_err(|_| {
        PyTypeError::new_err(
            "expected Arrow data (an object with __arrow_c_stream__: a pyarrow Table or RecordBatchReader, a polars or pandas DataFrame)",
        )
    })?;
    let capsule = capsule.downcast::<PyCapsule>()?;
    let named = capsule
        .name()?
        .is_some_and(|n| n.to_bytes() == b"arrow_array_stream");
    if !named {
        return Err(PyTypeError::new_err(
            "__arrow_c_stream__ returned a capsule that is not an arrow_array_stream",
        ));
    }
    // SAFETY: the capsule holds an `ArrowArrayStream` (its name says so);
    // `from_raw` moves it out and leaves a released stream in its place,
    // which the capsule's destructor then leaves alone (the protocol's
    // rule for consumers).
    unsafe { ArrowArrayStreamReader::from_raw(capsule.pointer() as *mut FFI_ArrowArrayStream) }
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The column names of a stream's schema.
fn column_names(stream: &ArrowArrayStreamReader) -> Vec<String> {
    use arrow_array::RecordBatchReader;
    stream
        .schema()
        .fields()
        .iter()
        .map(|f| f.name().clone())
        .collect()
}

/// Rows per chunk of Arrow data checked in parallel.
const ARROW_CHUNK_ROWS: usize = 1 << 16;

/// Checks Arrow batches as `check_lines` checks a log: chunks of rows
/// summarized on rayon's pool, skipped where nothing happens, read by the
/// checker where something does.
fn check_batches(
    checker: &mut Checker,
    source: &str,
    names: Vec<String>,
    mut batches: impl Iterator<Item = Result<RecordBatch, ArrowError>>,
) -> Result<Vec<Report>, TraceError> {
    let reader = |batches, index| ArrowReader::new(source, names.clone(), batches, index);
    let mut check = ChunkedCheck::new(checker, &mut reader(Vec::new().into_iter(), 0))?;
    if !check.summarizes() {
        check.read(&mut reader(batches.collect::<Vec<_>>().into_iter(), 0), 0)?;
        return Ok(check.finish());
    }
    let want = 4 * rayon::current_num_threads().max(1);
    let mut pending: Vec<RecordBatch> = Vec::with_capacity(want);
    let mut ended = false;
    while !ended {
        while pending.len() < want {
            match batches.next() {
                None => {
                    ended = true;
                    break;
                }
                Some(Err(e)) => {
                    return Err(TraceError {
                        source: source.to_string(),
                        at: None,
                        message: e.to_string(),
                    })
                }
                Some(Ok(b)) => {
                    let mut at = 0;
                    while at < b.num_rows() {
                        let n = ARROW_CHUNK_ROWS.min(b.num_rows() - at);
                        pending.push(b.slice(at, n));
                        at += n;
                    }
                }
            }
        }
        let summaries: Vec<Result<ChunkSummary, TraceError>> = {
            let check = &check;
            pending
                .par_iter()
                .map(|b| Ok(check.summarize(reader(vec![Ok(b.clone())].into_iter(), 0), 0)))
                .collect()
        };
        for (b, s) in pending.drain(..).zip(summaries) {
            if !check.skip(&s?) {
                let index = check.index();
                check.read(&mut reader(vec![Ok(b)].into_iter(), index), 0)?;
            }
        }
    }
    Ok(check.finish())
}

#[pymethods]
impl TraceChecker {
    /// Compiles the properties and binds their propositions to fields
    /// (`defines`: (proposition, expression) pairs); each construction
    /// within `max_memory` bytes (`DEFAULT_MAX_MEMORY` if None).
    #[new]
    #[pyo3(signature = (properties, defines, psl, verdicts, all, max_reports, max_states, max_memory = None, sva = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        properties: Vec<String>,
        defines: Vec<(String, String)>,
        psl: bool,
        verdicts: u8,
        all: bool,
        max_reports: usize,
        max_states: Option<usize>,
        max_memory: Option<usize>,
        sva: bool,
    ) -> PyResult<TraceChecker> {
        if properties.is_empty() {
            return Err(PyValueError::new_err("no property given"));
        }
        let lang = Language::of(psl, sva)?;
        let cfg = config(verdicts, max_states, max_memory)?;
        let mut b = Builder::new();
        b.configure(cfg);
        let mut monitors = Vec::new();
        let mut clock: Option<(String, Edge)> = None;
        let (mut timed, mut looks_ahead) = (None, None);
        for text in &properties {
            let parsed = parse_property(text, lang)?;
            // One clock samples a waveform for every property (as `mongen
            // check --sva`, which says to check one clock at a time).
            if let Some(c) = parsed.clock {
                match &clock {
                    Some(other) if *other != c => {
                        return Err(PyValueError::new_err(format!(
                            "the assertions have two clocks ({} and {}): check them one clock at a time",
                            clock_text(other),
                            clock_text(&c)
                        )))
                    }
                    _ => clock = Some(c),
                }
            }
            let t = b
                .build_from_formula(&parsed.formula)
                .map_err(|e| PyValueError::new_err(format!("{text}: {e}")))?;
            if timed.is_none() {
                timed = parsed.timed.first().map(|c| {
                    format!(
                        "`{}` has time bounds (`{}`)",
                        escape(&parsed.label),
                        escape(&c.name)
                    )
                });
            }
            if looks_ahead.is_none() {
                looks_ahead = parsed.timed.iter().find(|c| c.kind.is_future()).map(|c| {
                    format!(
                        "`{}` looks ahead in time (`{}`)",
                        escape(&parsed.label),
                        escape(&c.name)
                    )
                });
            }
            monitors.push((
                parsed.label,
                Engine::Eager(MonitorTable::from_dfa(t.dfa())),
                parsed.timed,
            ));
        }
        let properties = bind_timed(monitors, &defines).map_err(PyValueError::new_err)?;
        Ok(TraceChecker {
            properties,
            options: Options {
                all,
                max_reports,
                ..Options::default()
            },
            three: verdicts == 3,
            clock,
            timed,
            looks_ahead,
        })
    }

    /// The clock of the SVA assertions (`@(posedge clk)`), None without.
    #[getter]
    fn clock(&self) -> Option<String> {
        self.clock.as_ref().map(clock_text)
    }

    /// The fields the properties read, in order, once each.
    fn fields(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for f in self.properties.iter().flat_map(Property::fields) {
            if !out.contains(&f) {
                out.push(f);
            }
        }
        out
    }

    /// Checks trace files; one report (JSON text) per trace and property.
    /// `time` (`FIELD[:UNIT]`) and `time_order` are `mongen check --time`
    /// and `--time-order`.
    #[pyo3(signature = (traces, format, clock, time = None, time_order = "strict", end_time = None))]
    #[allow(clippy::too_many_arguments)]
    fn check_files(
        &self,
        py: Python<'_>,
        traces: Vec<String>,
        format: Option<String>,
        clock: Option<String>,
        time: Option<&str>,
        time_order: &str,
        end_time: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let order = self::time_order(time_order)?;
        let time = file_time(time)?;
        let clock = match clock.as_deref() {
            None => None,
            Some(c) => Some(match c.rsplit_once(':') {
                Some((n, "posedge")) => (n.to_string(), Edge::Posedge),
                Some((n, "negedge")) => (n.to_string(), Edge::Negedge),
                Some((_, e)) => {
                    return Err(PyValueError::new_err(format!(
                        "clock {c}: the edge is posedge or negedge, not `{e}`"
                    )))
                }
                None => (c.to_string(), Edge::Posedge),
            }),
        };
        // The assertions' clock where none is given (as `mongen check`).
        let given = clock.is_some();
        let clock = clock.or_else(|| self.clock.clone());
        let mut checker = self.timed_checker(time.clone(), order, end_time)?;
        let mut out = Vec::new();
        for path in &traces {
            let kind = trace_format(path, format.as_deref())?;
            if kind == "vcd" && time.is_some() {
                return Err(PyValueError::new_err(format!(
                    "{path}: time reads times from a field of CSV and JSON Lines logs; a VCD \
                     waveform has its own times (`#t` in its $timescale), reported with each event"
                )));
            }
            if kind != "vcd" && clock.is_some() {
                return Err(PyValueError::new_err(if given {
                    format!("{path}: a clock is for VCD waveforms")
                } else {
                    self.clock_refused(path)
                }));
            }
            let file = File::open(path).map_err(|e| {
                PyErr::new::<pyo3::exceptions::PyOSError, _>(format!("cannot read {path}: {e}"))
            })?;
            let input: Box<dyn Read + Send> = Box::new(file);
            // The file is read and checked without the GIL (on every core
            // for CSV and JSON Lines, as `mongen check`).
            let reports: Result<Vec<Report>, TraceError> = py.detach(|| match kind {
                "csv" => check_lines(
                    &mut checker,
                    LineFormat::Csv,
                    path,
                    input,
                    Chunking::default(),
                ),
                "jsonl" => check_lines(
                    &mut checker,
                    LineFormat::Jsonl,
                    path,
                    input,
                    Chunking::default(),
                ),
                _ => {
                    let clock = clock.as_ref().map(|(n, e)| (n.as_str(), *e));
                    let mut r =
                        VcdReader::new(path, BufReader::with_capacity(1 << 16, input), clock)?;
                    checker.run(&mut r)
                }
            });
            match reports {
                Ok(reports) => out.extend(self.reports(path, &reports, order)),
                Err(e) => {
                    let so_far = reports_before_error(&mut checker);
                    out.extend(self.partial_reports(path, &so_far, order));
                    return Err(trace_error_with(py, e, out));
                }
            }
        }
        Ok(out)
    }

    /// Checks Arrow data (rows are events, in order); one report (JSON
    /// text) per property, the trace named `name`. `time`: the column of
    /// the events' times ([`time_spec`]), in the order `time_order` says;
    /// `end_time` as in `check_files`.
    #[pyo3(signature = (data, name, time, time_order = "strict", end_time = None))]
    fn check_arrow(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        name: &str,
        time: Option<&str>,
        time_order: &str,
        end_time: Option<&str>,
    ) -> PyResult<Vec<String>> {
        use arrow_array::RecordBatchReader;
        self.no_clock(name)?;
        let order = self::time_order(time_order)?;
        let stream = arrow_stream(data)?;
        let names = column_names(&stream);
        let mut checker =
            self.timed_checker(arrow_time(time, &stream.schema())?, order, end_time)?;
        match py.detach(|| check_batches(&mut checker, name, names, stream)) {
            Ok(reports) => Ok(self.reports(name, &reports, order)),
            Err(e) => {
                let so_far = reports_before_error(&mut checker);
                Err(trace_error_with(
                    py,
                    e,
                    self.partial_reports(name, &so_far, order),
                ))
            }
        }
    }

    /// Checks each key's slice of trace files (CSV, JSON Lines; `mongen
    /// check --by`): one report (JSON text) per trace and property, as
    /// `mongen check --by --json` writes them.
    #[pyo3(signature = (traces, format, by, unkeyed, key_limit, end_key, time = None, time_order = "strict"))]
    #[allow(clippy::too_many_arguments)]
    fn check_files_by(
        &self,
        py: Python<'_>,
        traces: Vec<String>,
        format: Option<String>,
        by: Vec<String>,
        unkeyed: &str,
        key_limit: Option<usize>,
        end_key: Option<&str>,
        time: Option<&str>,
        time_order: &str,
    ) -> PyResult<Vec<String>> {
        self.timed_for_keys(time)?;
        let order = self::time_order(time_order)?;
        let mut checker = self.keyed_checker(&by, unkeyed, key_limit, end_key)?;
        checker.set_time(file_time(time)?, order);
        let mut out = Vec::new();
        for path in &traces {
            let kind = trace_format(path, format.as_deref())?;
            if kind == "vcd" {
                return Err(PyValueError::new_err(format!(
                    "{path}: by= is for CSV and JSON Lines files and Arrow data, not VCD waveforms"
                )));
            }
            if self.clock.is_some() {
                return Err(PyValueError::new_err(self.clock_refused(path)));
            }
            let file = File::open(path).map_err(|e| {
                PyErr::new::<pyo3::exceptions::PyOSError, _>(format!("cannot read {path}: {e}"))
            })?;
            // One pass, without the GIL (as `mongen check --by`).
            let result = py.detach(|| match kind {
                "csv" => CsvReader::new(path, file).and_then(|mut r| checker.run(&mut r)),
                _ => checker.run(&mut JsonlReader::new(
                    path,
                    BufReader::with_capacity(1 << 16, file),
                )),
            });
            match result {
                Ok(report) => out.extend(self.keyed_reports(path, &report, true, order)),
                Err(e) => return Err(self.keyed_error(py, &checker, path, e, out, order)),
            }
        }
        Ok(out)
    }

    /// Checks each key's slice of Arrow data (rows are events, in order;
    /// `mongen check --by`): one report (JSON text) per property, as
    /// `mongen check --by --json` writes them, the trace named `name`.
    #[pyo3(signature = (data, name, time, by, unkeyed, key_limit, end_key, time_order = "strict"))]
    #[allow(clippy::too_many_arguments)]
    fn check_arrow_by(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        name: &str,
        time: Option<&str>,
        by: Vec<String>,
        unkeyed: &str,
        key_limit: Option<usize>,
        end_key: Option<&str>,
        time_order: &str,
    ) -> PyResult<Vec<String>> {
        self.timed_for_keys(time)?;
        use arrow_array::RecordBatchReader;
        self.no_clock(name)?;
        let order = self::time_order(time_order)?;
        let mut checker = self.keyed_checker(&by, unkeyed, key_limit, end_key)?;
        let stream = arrow_stream(data)?;
        checker.set_time(arrow_time(time, &stream.schema())?, order);
        let names = column_names(&stream);
        let result = py.detach(|| {
            let mut r = ArrowReader::new(name, names, stream, 0);
            checker.run(&mut r)
        });
        match result {
            Ok(report) => Ok(self.keyed_reports(name, &report, true, order)),
            Err(e) => Err(self.keyed_error(py, &checker, name, e, Vec::new(), order)),
        }
    }

    /// The summary of one chunk of a trace (a Spark partition), as bytes
    /// for `combine`; with its times (`time`, `time_order`: as in
    /// `check_arrow`), whose order `combine` checks across chunks.
    #[pyo3(signature = (data, time = None, time_order = "strict"))]
    fn summarize<'py>(
        &self,
        py: Python<'py>,
        data: &Bound<'py, PyAny>,
        time: Option<&str>,
        time_order: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        use arrow_array::RecordBatchReader;
        self.no_clock("chunk")?;
        let order = self::time_order(time_order)?;
        let stream = arrow_stream(data)?;
        let names = column_names(&stream);
        let mut checker = self.timed_checker(arrow_time(time, &stream.schema())?, order, None)?;
        let bytes = py
            .detach(|| -> Result<Vec<u8>, TraceError> {
                let check = ChunkedCheck::new(
                    &mut checker,
                    &mut ArrowReader::columns_only("chunk", names.clone()),
                )?;
                let summary = check.summarize(ArrowReader::new("chunk", names, stream, 0), 0);
                Ok(summary.to_bytes())
            })
            .map_err(trace_error)?;
        Ok(PyBytes::new(py, &bytes))
    }

    /// Combines the summaries of a trace's chunks, in order (of a trace
    /// whose columns are `names`): the chunks where something happens are
    /// read, from the Arrow data `fetch(indices)` returns for them (a dict
    /// from chunk index to Arrow data; called once with every chunk the
    /// summaries foresee, and again for any other). Returns one report
    /// (JSON text) per property, the trace named `name`. `time` and
    /// `time_order` are those of `summarize`; `like`, Arrow data (no row
    /// needed) with the time column's type, which says how it is read.
    #[pyo3(signature = (names, summaries, fetch, name, time, time_order = "strict", like = None))]
    #[allow(clippy::too_many_arguments)]
    fn combine(
        &self,
        names: Vec<String>,
        summaries: Vec<Vec<u8>>,
        fetch: &Bound<'_, PyAny>,
        name: &str,
        time: Option<&str>,
        time_order: &str,
        like: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        use arrow_array::RecordBatchReader;
        self.no_clock(name)?;
        let order = self::time_order(time_order)?;
        let schema = match like {
            Some(l) => arrow_stream(l)?.schema(),
            None => std::sync::Arc::new(Schema::empty()),
        };
        let time = arrow_time(time, &schema)?;
        let summaries = summaries
            .iter()
            .enumerate()
            .map(|(k, b)| {
                ChunkSummary::from_bytes(b).ok_or_else(|| {
                    PyValueError::new_err(format!("chunk {k}: not a summary of mongen's"))
                })
            })
            .collect::<PyResult<Vec<_>>>()?;
        let mut checker = self.timed_checker(time, order, None)?;
        let mut check = ChunkedCheck::new(
            &mut checker,
            &mut ArrowReader::columns_only(name, names.clone()),
        )
        .map_err(trace_error)?;
        let plan = check.plan(&summaries);
        let wanted: Vec<usize> = (0..plan.len()).filter(|&k| plan[k]).collect();
        let mut fetched = if wanted.is_empty() {
            None
        } else {
            Some(fetch.call1((wanted,))?)
        };
        for (k, s) in summaries.iter().enumerate() {
            if check.skip(s) {
                continue;
            }
            let data = match fetched.as_ref().map(|f| f.get_item(k)) {
                Some(Ok(d)) => d,
                _ => {
                    // Not foreseen (a chunk read after one that could not
                    // be): fetched on its own.
                    let f = fetch.call1((vec![k],))?;
                    let d = f.get_item(k)?;
                    fetched.get_or_insert(f);
                    d
                }
            };
            let stream = arrow_stream(&data)?;
            let before = check.index();
            let mut r = ArrowReader::new(name, names.clone(), stream, before);
            check.read(&mut r, 0).map_err(trace_error)?;
            let read = check.index() - before;
            if s.events() != read && s.is_readable() {
                return Err(PyValueError::new_err(format!(
                    "chunk {k} had {} events when summarized and {read} when read again: the data is not the same twice (persist or checkpoint it)",
                    s.events()
                )));
            }
        }
        Ok(self.reports(name, &check.finish(), order))
    }

    /// Checks each run of rows with equal values of the columns `keys`
    /// (rows sorted by key, then in trace order) as its own trace.
    /// Returns the violations reported in detail, as columns: the row
    /// (from 0, over all the data), the property, the event's index in
    /// its trace, and the explanation.
    /// `time`: the column of the events' times, which must not go back
    /// within a key (the rows are sorted by it).
    #[pyo3(signature = (data, keys, time = None))]
    #[allow(clippy::type_complexity)]
    fn check_groups(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        keys: Vec<String>,
        time: Option<&str>,
    ) -> PyResult<(Vec<u64>, Vec<String>, Vec<u64>, Vec<String>)> {
        use arrow_array::RecordBatchReader;
        self.no_clock("data")?;
        let stream = arrow_stream(data)?;
        let schema = stream.schema();
        let time = arrow_time(time, &schema)?;
        let names = column_names(&stream);
        let mut columns_of = ArrowReader::columns_only("data", names.clone());
        let key_ids = keys
            .iter()
            .map(|k| columns_of.resolve(k).map_err(PyValueError::new_err))
            .collect::<PyResult<Vec<usize>>>()?;
        let mut checker = self.timed_checker(time, TimeOrder::Strict, None)?;
        py.detach(|| -> Result<_, String> {
            let batches = stream
                .collect::<Result<Vec<RecordBatch>, ArrowError>>()
                .map_err(|e| e.to_string())?;
            let all = arrow_select::concat::concat_batches(&schema, &batches)
                .map_err(|e| e.to_string())?;
            let (mut rows, mut props, mut index, mut why) = (vec![], vec![], vec![], vec![]);
            if all.num_rows() == 0 {
                return Ok((rows, props, index, why));
            }
            let columns: Vec<ArrayRef> = key_ids.iter().map(|&k| all.column(k).clone()).collect();
            let groups = arrow_ord::partition::partition(&columns).map_err(|e| e.to_string())?;
            for range in groups.ranges() {
                let slice = all.slice(range.start, range.len());
                // The trace is named by its key (`session=s3`).
                let name = keys
                    .iter()
                    .zip(&columns)
                    .map(|(k, c)| {
                        let v = arrow_cast::display::array_value_to_string(c, range.start)
                            .unwrap_or_default();
                        format!("{k}={v}")
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                let mut r = ArrowReader::new(&name, names.clone(), vec![Ok(slice)].into_iter(), 0);
                let reports = checker
                    .run(&mut r)
                    .map_err(|e| time_words(&e.to_string()))?;
                for rep in &reports {
                    for v in &rep.violations {
                        rows.push(range.start as u64 + v.at.index);
                        props.push(rep.property.clone());
                        index.push(v.at.index);
                        why.push(v.explanation.clone());
                    }
                }
            }
            Ok((rows, props, index, why))
        })
        .map_err(PyValueError::new_err)
    }
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Monitor>()?;
    m.add_function(wrap_pyfunction!(compile, m)?)?;
    m.add_class::<TraceChecker>()?;
    m.add("DEFAULT_MAX_STATES", DEFAULT_MAX_STATES)?;
    m.add("DEFAULT_MAX_MEMORY", DEFAULT_MAX_MEMORY)?;
    m.add("TraceReadError", m.py().get_type::<TraceReadError>())?;
    Ok(())
}
