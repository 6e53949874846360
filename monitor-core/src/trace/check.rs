//! Running several monitors over one trace, in one pass.
//!
//! Every proposition of every property is an [`Expr`] over the fields of
//! an event; each distinct expression is evaluated once per event, the
//! letters of all properties are gathered from those bits, and each
//! property's run is a `u32` state ([`Cursor`]). A violation is reported
//! with its position, the runtime's explanation, the values of the fields
//! the property reads, and the propositions of the events just before.
//!
//! ```
//! use monitor_core::trace::check::{Checker, Property, Options};
//! use monitor_core::trace::expr::Expr;
//! use monitor_core::trace::reader::CsvReader;
//! use monitor_core::{MonitorTable, Verdict};
//!
//! let log = "time,req,ack\n0,1,0\n1,0,1\n2,1,0\n3,0,0\n";
//! let table = MonitorTable::from_ltl("G(req -> X ack)")?;
//! let bindings = vec![Expr::parse("req")?, Expr::parse("ack")?];
//! let mut checker = Checker::new(vec![Property::new("G(req -> X ack)", table, bindings)], Options::default());
//! let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
//! assert_eq!(reports[0].verdict, Verdict::Violated);
//! assert_eq!(reports[0].violations[0].at.line, Some(5)); // the 4th record
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::expr::{is_missing, Cell, Expr, FieldVsNumber, FieldVsText};
use super::future::Delayed;
use super::metric::{Evaluator, TimedPropositions};
use super::number::Num;
use super::reader::{Position, Reader, TraceError};
use super::time::{Clock, Time, TimeField, TimeFormat, TimeOrder, TimeSpec, Timed};
use crate::lazy::LazyMonitor;
use crate::runtime::{Cursor, MonitorTable, Transitions, VIOLATION};
use crate::Verdict;

/// The most atoms for which the letters of every valuation are tabulated
/// (4096 valuations).
const LUT_ATOMS: usize = 12;

/// A property to check: its monitor and what its propositions mean.
#[derive(Clone, Debug)]
pub struct Property {
    /// The property, as the user wrote it.
    pub name: String,
    /// The monitor.
    pub monitor: Engine,
    /// One expression per proposition of the monitor, in its order (that
    /// of a proposition computed by a timed component is not read: any,
    /// such as `Expr::Const(false)`).
    pub bindings: Vec<Expr>,
    /// The timed components that compute some of the monitor's
    /// propositions (a property with past metric operators,
    /// [`Property::with_timed`]); `None`: every proposition is read from
    /// the event.
    pub timed: Option<TimedPropositions>,
}

/// A property's monitor: built before the check, or while it runs.
#[derive(Clone, Debug)]
pub enum Engine {
    /// A monitor built whole ([`MonitorTable`]).
    Eager(MonitorTable),
    /// A monitor that builds the states the trace visits
    /// ([`LazyMonitor`]); its properties are checked in one pass.
    Lazy(Box<LazyMonitor>),
}

impl Engine {
    /// The name of proposition `i` (bit `i` of a letter).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::trace::check::Engine;
    /// use monitor_core::MonitorTable;
    ///
    /// let eager = Engine::Eager(MonitorTable::from_ltl("G(req -> X ack)")?);
    /// assert_eq!((eager.proposition(0), eager.proposition(1)), ("req", "ack"));
    /// let lazy = Engine::Lazy(Box::new(LazyMonitor::from_ltl("G(req -> X ack)")?));
    /// assert_eq!((lazy.proposition(1), lazy.proposition(2)), ("ack", ""));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn proposition(&self, i: usize) -> &str {
        match self {
            Engine::Eager(t) => t.table().proposition(i),
            Engine::Lazy(m) => m.propositions().get(i).map_or("", String::as_str),
        }
    }

    /// The number of propositions.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::trace::check::Engine;
    /// use monitor_core::MonitorTable;
    ///
    /// assert_eq!(Engine::Eager(MonitorTable::from_ltl("G(a -> X(b | c))")?).props(), 3);
    /// assert_eq!(Engine::Lazy(Box::new(LazyMonitor::from_ltl("G a")?)).props(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn props(&self) -> usize {
        match self {
            Engine::Eager(t) => t.table().props as usize,
            Engine::Lazy(m) => m.propositions().len(),
        }
    }
}

impl Property {
    /// A property with a monitor built whole.
    ///
    /// ```
    /// use monitor_core::trace::check::{Engine, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::MonitorTable;
    ///
    /// // The propositions `req` and `ack` stand for conditions on a log's fields.
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let bindings = vec![Expr::parse("method == \"POST\"")?, Expr::parse("status < 300")?];
    /// let p = Property::new("posts succeed", table, bindings);
    /// assert_eq!(p.name, "posts succeed");
    /// assert!(matches!(p.monitor, Engine::Eager(_)));
    /// assert_eq!(p.fields(), ["method", "status"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(name: &str, table: MonitorTable, bindings: Vec<Expr>) -> Property {
        Property {
            name: name.to_string(),
            monitor: Engine::Eager(table),
            bindings,
            timed: None,
        }
    }

    /// A property with a lazy monitor.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::Verdict;
    ///
    /// let m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// let p = Property::lazy("G(req -> X ack)", m, vec![Expr::parse("req")?, Expr::parse("ack")?]);
    /// let mut checker = Checker::new(vec![p], Options::default());
    /// let log = "req,ack\n1,0\n0,1\n1,0\n0,0\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].verdict, Verdict::Violated);
    /// assert_eq!(reports[0].violations[0].at.line, Some(5));
    /// // The states it built: `ack` due or not, and the violation.
    /// assert_eq!(reports[0].lazy.map(|s| s.states), Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lazy(name: &str, monitor: LazyMonitor, bindings: Vec<Expr>) -> Property {
        Property {
            name: name.to_string(),
            monitor: Engine::Lazy(Box::new(monitor)),
            bindings,
            timed: None,
        }
    }

    /// The property whose propositions named by `timed`'s components are
    /// computed by them, from the events' times
    /// ([`Checker::set_time`], which a check then needs) and the
    /// propositions `timed.inputs`.
    ///
    /// ```
    /// use monitor_core::formula::metric::parse_metric;
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::metric::TimedPropositions;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::trace::time::{TimeOrder, TimeSpec};
    /// use monitor_core::MonitorTable;
    ///
    /// // No two failures within 10 s.
    /// let m = parse_metric("G(fail -> !O[1s:10s] fail)")?;
    /// let table = MonitorTable::from_ltl(&m.formula.to_spot())?;
    /// let props: Vec<String> = (0..table.table().props as usize).map(|i| table.table().proposition(i).to_string()).collect();
    /// assert_eq!(props, ["fail", "O[1s:10s] fail"]);
    /// let timed = TimedPropositions { components: m.timed, inputs: vec![("fail".into(), Expr::parse("fail")?)] };
    /// let bindings = vec![Expr::parse("fail")?, Expr::Const(false)];
    /// let p = Property::new("no two failures within 10 s", table, bindings).with_timed(timed);
    /// let mut checker = Checker::new(vec![p], Options::default());
    /// checker.set_time(Some(TimeSpec::parse("ts:s")?), TimeOrder::Strict);
    /// let log = "ts,fail\n0,1\n5,0\n11,1\n20,1\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].violations[0].at.line, Some(5)); // 9 s after the one at 11 s
    /// // Without times, no check.
    /// checker.set_time(None, TimeOrder::Strict);
    /// let e = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?).unwrap_err();
    /// assert!(e.message.contains("--time"), "{e}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_timed(mut self, timed: TimedPropositions) -> Property {
        self.timed = Some(timed);
        self
    }

    /// The fields the property's propositions read, in order, once each.
    ///
    /// ```
    /// use monitor_core::trace::check::Property;
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(slow -> X ok)")?;
    /// let bindings = vec![Expr::parse("latency > 100")?, Expr::parse("ok & latency < 5")?];
    /// let p = Property::new("p", table, bindings);
    /// assert_eq!(p.fields(), ["latency", "ok"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fields(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let inputs = self
            .timed
            .iter()
            .flat_map(|t| t.inputs.iter().map(|(_, e)| e));
        for e in self.bindings.iter().chain(inputs) {
            for f in e.fields() {
                if !out.contains(&f) {
                    out.push(f);
                }
            }
        }
        out
    }
}

/// How to check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Restart a monitor after each violation and report every one
    /// (otherwise a property is done at its first violation).
    pub all: bool,
    /// With `all`: how many violations are reported in detail per
    /// property (all are counted; 0: none is explained). Without `all`,
    /// the one violation is.
    pub max_reports: usize,
    /// How many events before a violation are shown.
    pub context: usize,
    /// Whether a missing field (absent, an empty cell, JSON's `null`) in a
    /// proposition is an error ([`Expr::eval_strict`]) rather than SQL's
    /// NULL, which makes the atom reading it false ([`Expr::eval`], the
    /// default).
    pub strict_fields: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            all: false,
            max_reports: 10,
            context: 4,
            strict_fields: false,
        }
    }
}

/// One violation, explained.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationReport {
    /// The event that completed the bad prefix.
    pub at: Position,
    /// The runtime's explanation (`after ..., the letter satisfied ...`).
    pub explanation: String,
    /// A shortest word leading to the state where it happened.
    pub after: String,
    /// The letters that violate the property from there.
    pub letters: String,
    /// The fields the property reads, and their values at the event.
    pub values: Vec<(String, String)>,
    /// The events before it (at most [`Options::context`]), with the
    /// propositions that held, and the violating event last.
    pub recent: Vec<(Position, Vec<String>)>,
    /// The fields asked to be shown ([`Checker::set_show`]) at each event
    /// of `recent`, in its order (the violating event last): each field's
    /// name and its text there (a JSON string without its quotes, any
    /// other value as JSON writes it), `None` where the event has no such
    /// field. Empty when no field is shown.
    pub shown: Vec<Vec<(String, Option<String>)>>,
}

/// The outcome of one property on one trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The property, as written.
    pub property: String,
    /// The verdict at the end (violated if any violation happened).
    pub verdict: Verdict,
    /// The first event after which the property was satisfied
    /// (three-valued monitors).
    pub satisfied_at: Option<Position>,
    /// The violations reported in detail (with [`Options::all`], at most
    /// [`Options::max_reports`] of them; otherwise the one).
    pub violations: Vec<ViolationReport>,
    /// Where the first violation happened (also when none is reported in
    /// detail: [`Options::max_reports`] 0).
    pub first_violation: Option<Position>,
    /// How many violations happened (with [`Options::all`], possibly more
    /// than reported).
    pub violation_count: u64,
    /// How many events were read: the whole trace (reading goes on after
    /// every property is decided).
    pub events: u64,
    /// Lazy monitors: the first event whose verdict may be informative
    /// rather than exact (a search for exact verdicts went over the state
    /// limit there; violations from then on are reported at their first
    /// informative bad prefix).
    pub inexact_at: Option<Position>,
    /// Lazy monitors: what the monitor built.
    pub lazy: Option<crate::lazy::LazyStats>,
    /// With times ([`Checker::set_time`]) and
    /// [`TimeOrder::Lenient`]: how many events' times went back (each
    /// taken at the latest time before it). The same in every report of
    /// a trace.
    pub late_events: u64,
}

pub(crate) struct Run {
    pub(crate) monitor: Engine,
    /// The run of an eager monitor (a lazy one keeps its own).
    cursor: Cursor,
    /// Global atom of each proposition.
    pub(crate) atoms: Vec<usize>,
    /// Fields the property reads (name, reader's index).
    pub(crate) fields: Vec<(String, usize)>,
    done: bool,
    /// Whether the reset holds this monitor ([`Checker::set_held_in_reset`]).
    held: bool,
    /// Held in reset at the current event, while the others step: it
    /// neither steps nor reports.
    paused: bool,
    /// The states the monitor may be in, when it read unknown values (x,
    /// z) that mattered (one per way of reading them); empty when it is in
    /// one state.
    maybe: Vec<u32>,
    /// Stepped at the current event by [`step_uncertain`], not by the
    /// lanes.
    aside: bool,
    pub(crate) report: Report,
    /// A scratch letter for properties of more than 64 propositions.
    wide: Vec<bool>,
    /// The timed components computing some of its propositions.
    timed: Option<TimedRun>,
    /// Whether its letters complete after a delay (it has future timed
    /// components): it steps in [`step_delayed`], not in the lanes.
    delayed: bool,
}

/// A property's timed components at work: their evaluator, the global
/// atoms of their inputs, and the atom each component's proposition
/// takes (`None` for a component only nested in another).
struct TimedRun {
    engine: TimedEngine,
    inputs: Vec<usize>,
    outputs: Vec<Option<usize>>,
}

/// A property's past timed components ([`Run::past_timed`]).
pub(crate) struct PastTimed<'a> {
    pub(crate) evaluator: &'a Evaluator,
    pub(crate) inputs: &'a [usize],
    pub(crate) outputs: &'a [Option<usize>],
}

impl PastTimed<'_> {
    /// Steps `evaluator` (a copy of this one) on an event at `time`
    /// whose atoms are `bits`, and sets the components' atoms in `bits`.
    pub(crate) fn step(&self, evaluator: &mut Evaluator, time: i64, bits: &mut [u64]) {
        evaluator.step(time, |i| atom_bit(bits, self.inputs[i]) == 1);
        set_outputs(bits, self.outputs, evaluator.outputs());
    }
}

/// How a property's timed components are computed.
enum TimedEngine {
    /// Past operators only: each event's letter is complete when it is
    /// read.
    Past(Evaluator),
    /// Some look ahead: letters complete after a delay
    /// ([`trace::future`](super::future)).
    Future(Box<FutureRun>),
}

/// A property whose letters complete after a delay. It steps on its own,
/// not in the [`Lanes`]: its letters come out of step with the events
/// (none at one event, several at the next), and its explanations refer
/// to the letters' own events, not to the last events read.
struct FutureRun {
    delayed: Delayed,
    /// The events whose letters are not complete yet: their positions and
    /// atoms (the components' atoms not set).
    waiting: std::collections::VecDeque<Position>,
    /// Their atoms, `words` after `words` (one allocation for all).
    waiting_bits: std::collections::VecDeque<u64>,
    /// The words of an event's atoms.
    words: usize,
    /// The last complete letters, oldest first (at most
    /// [`Options::context`] + 1), for explanations.
    recent: std::collections::VecDeque<(Position, Vec<u64>)>,
    /// The last event read.
    last: Option<Position>,
    /// Whether the end of the input was taken into account
    /// ([`Checker::finish`]).
    ended: bool,
    /// Scratch: the components' values at a letter.
    values: Vec<bool>,
}

impl FutureRun {
    fn reset(&mut self) {
        self.delayed.reset();
        self.waiting.clear();
        self.waiting_bits.clear();
        self.recent.clear();
        self.last = None;
        self.ended = false;
    }
}

/// The value of atom `k` in an event's `bits` of all the checker's atoms.
pub(crate) fn atom_bit(bits: &[u64], k: usize) -> u64 {
    (bits[k / 64] >> (k % 64)) & 1
}

/// Sets atom `k` of an event's `bits` to `value`.
fn set_atom(bits: &mut [u64], k: usize, value: bool) {
    let bit = 1u64 << (k % 64);
    if value {
        bits[k / 64] |= bit;
    } else {
        bits[k / 64] &= !bit;
    }
}

/// Sets the atoms of a property's timed components (`outputs`: each
/// component's atom, if its proposition has one) to their `values`.
fn set_outputs(bits: &mut [u64], outputs: &[Option<usize>], values: &[bool]) {
    for (&out, &value) in outputs.iter().zip(values) {
        if let Some(k) = out {
            set_atom(bits, k, value);
        }
    }
}

impl Run {
    /// The monitor's letter at an event whose atoms are `bits`: bit `b` is
    /// the value of the run's proposition `b` (of at most 64).
    pub(crate) fn letter(&self, bits: &[u64]) -> u64 {
        debug_assert!(self.atoms.len() <= 64);
        let mut letter = 0u64;
        for (b, &k) in self.atoms.iter().enumerate() {
            letter |= atom_bit(bits, k) << b;
        }
        letter
    }

    fn reset(&mut self) {
        self.maybe.clear();
        match &mut self.monitor {
            Engine::Eager(_) => self.cursor.reset(),
            Engine::Lazy(m) => m.reset(),
        }
    }

    /// Its timed components when none looks ahead: their evaluator (as
    /// before the first event), the atoms of their inputs, and the atom
    /// each component's proposition takes. (Keyed checking runs a copy
    /// for each key.)
    pub(crate) fn past_timed(&self) -> Option<PastTimed<'_>> {
        let t = self.timed.as_ref()?;
        match &t.engine {
            TimedEngine::Past(evaluator) => Some(PastTimed {
                evaluator,
                inputs: &t.inputs,
                outputs: &t.outputs,
            }),
            TimedEngine::Future(_) => None,
        }
    }

    /// Whether some timed component looks ahead (`F[0:1s] p`): its
    /// letters complete after a delay.
    pub(crate) fn looks_ahead(&self) -> bool {
        self.delayed
    }

    /// The eager monitor, if it is one.
    pub(crate) fn table(&self) -> Option<&MonitorTable> {
        match &self.monitor {
            Engine::Eager(table) => Some(table),
            Engine::Lazy(_) => None,
        }
    }
}

/// Runs properties over traces (see the [module documentation](self)).
pub struct Checker {
    runs: Vec<Run>,
    atoms: Vec<Expr>,
    atom_names: Vec<String>,
    options: Options,
    reset: Option<Expr>,
    lanes: Lanes,
    /// The last events, for explanations.
    ring: Ring,
    events: u64,
    /// The fields shown at the events of explanations
    /// ([`Checker::set_show`]).
    show: Vec<String>,
    /// The time field and what a time that goes back does
    /// ([`Checker::set_time`]).
    time: Option<(TimeSpec, TimeOrder)>,
    /// The times read so far.
    pub(crate) clock: Clock,
    /// The time the input is taken to have lasted until
    /// ([`Checker::set_end_time`]), in nanoseconds.
    end_time: Option<i64>,
    /// Why the timed propositions of a property cannot be computed (an
    /// error when a trace is read).
    invalid_timed: Option<String>,
}

/// The propositions of all properties bound to the fields of one reader:
/// what turns an event into the bits of the atoms.
pub(crate) struct Bound {
    atoms: Vec<Expr>,
    /// How each atom is evaluated.
    fast: Vec<FastAtom>,
    /// The fields compared with numbers ([`FastAtom::Number`]), whose
    /// numbers are read once per event.
    number_fields: Vec<usize>,
    names: Vec<String>,
    reset: Option<Expr>,
    /// The fields, in the order they were resolved.
    fields: Vec<String>,
    /// The reader's ids of the fields shown ([`Checker::set_show`]).
    pub(crate) show: Vec<usize>,
    /// The time field ([`Checker::set_time`]).
    pub(crate) time: Option<TimeField>,
    /// How many `u64` words the atoms' bits take.
    pub(crate) words: usize,
    /// [`Options::strict_fields`].
    strict: bool,
    /// When every atom tests a whole field's text for equality with a
    /// string, the tests by field ([`Bound::eval_equalities`]).
    equalities: Option<Vec<FieldEqualities>>,
}

/// The atoms that test one field's text for equality with strings
/// (`event == "request"`, `event != "response"`): the most common atoms
/// of logs, evaluated with the field read once and no other dispatch
/// (issue 30's throughput goal).
struct FieldEqualities {
    /// The field's index.
    id: usize,
    /// Per atom: the string, whether the atom holds when the text equals
    /// it (`==`) or when it differs (`!=`), the atom's index.
    tests: Vec<(Box<str>, bool, usize)>,
}

/// The ways to evaluate an atom, the common ones first.
enum FastAtom {
    /// A field read as a Boolean: the field's index and name.
    Plain(usize, String),
    /// A field compared with a number, the field's number being
    /// `number_fields[slot]`'s.
    Number(FieldVsNumber, usize),
    /// A field's text compared with strings.
    Text(FieldVsText),
    /// Any other expression.
    General,
}

/// The atoms `fast` by field, if every one is an equality test of a
/// field's text ([`FieldEqualities`]).
fn equalities(fast: &[FastAtom]) -> Option<Vec<FieldEqualities>> {
    let mut fields: Vec<FieldEqualities> = Vec::new();
    for (k, a) in fast.iter().enumerate() {
        let FastAtom::Text(t) = a else {
            return None;
        };
        let (s, equal) = t.equality()?;
        let test = (Box::from(s), equal, k);
        match fields.iter_mut().find(|f| f.id == t.id) {
            Some(f) => f.tests.push(test),
            None => fields.push(FieldEqualities {
                id: t.id,
                tests: vec![test],
            }),
        }
    }
    Some(fields)
}

/// How many fields compared with numbers share their number.
const NUMBER_FIELDS: usize = 8;

impl Bound {
    /// Sets `bits` to the atoms' values at the reader's current event.
    #[inline]
    pub(crate) fn eval<R: Reader + ?Sized>(
        &self,
        reader: &R,
        bits: &mut [u64],
    ) -> Result<(), TraceError> {
        if let Some(fields) = &self.equalities {
            bits.iter_mut().for_each(|w| *w = 0);
            if Self::eval_equalities(fields, self.strict, reader, bits) {
                return Ok(());
            }
            // A value that is not text: the general way says what it is.
        }
        self.eval_general(reader, bits)
    }

    /// [`Bound::eval`] of any atoms (apart, so that the equalities' path
    /// stays small).
    #[inline(never)]
    fn eval_general<R: Reader + ?Sized>(
        &self,
        reader: &R,
        bits: &mut [u64],
    ) -> Result<(), TraceError> {
        bits.iter_mut().for_each(|w| *w = 0);
        if self.number_fields.is_empty() {
            // (Most logs' atoms compare texts: no numbers to set up.)
            return self.eval_atoms(reader, bits, &[], &[]);
        }
        let mut numbers = [None; NUMBER_FIELDS];
        let mut vectors = [false; NUMBER_FIELDS];
        for ((n, v), &id) in numbers
            .iter_mut()
            .zip(&mut vectors)
            .zip(&self.number_fields)
        {
            let cell = reader.cell(id);
            *v = matches!(cell, Some(Cell::Bits(_)));
            *n = cell.and_then(|c| c.as_num().ok());
        }
        self.eval_atoms(reader, bits, &numbers, &vectors)
    }

    /// [`Bound::eval`] of atoms that are all equality tests of fields'
    /// texts (`fields`), as [`FieldVsText::holds`] evaluates each (a
    /// missing field: false unless `strict`); false, leaving `bits` to be
    /// cleared, at a value that is not text (a JSON number, an absent
    /// field when `strict`), which the general evaluation reads or
    /// refuses.
    #[inline(always)]
    fn eval_equalities<R: Reader + ?Sized>(
        fields: &[FieldEqualities],
        strict: bool,
        reader: &R,
        bits: &mut [u64],
    ) -> bool {
        for f in fields {
            let text = match reader.cell(f.id) {
                // NULL: every comparison false.
                cell if !strict && is_missing(cell) => continue,
                Some(Cell::Text(text)) => text,
                Some(Cell::Json(serde_json::Value::String(text))) => text.as_str(),
                _ => return false,
            };
            for (s, equal, k) in &f.tests {
                if (text == &**s) == *equal {
                    bits[k / 64] |= 1 << (k % 64);
                }
            }
        }
        true
    }

    /// [`Bound::eval`] once the numbers of the fields compared with
    /// numbers are read: `numbers[slot]` (`None` if not a number) and
    /// whether it is a vector's, `vectors[slot]`.
    #[inline(always)]
    fn eval_atoms<R: Reader + ?Sized>(
        &self,
        reader: &R,
        bits: &mut [u64],
        numbers: &[Option<Num<'_>>],
        vectors: &[bool],
    ) -> Result<(), TraceError> {
        for (k, a) in self.atoms.iter().enumerate() {
            let general = || {
                self.value(a, reader)
                    .map_err(|e| format!("proposition `{}`: {e}", self.names[k]))
            };
            let value = match &self.fast[k] {
                FastAtom::Plain(id, field) => match reader.cell(*id) {
                    // NULL: false.
                    cell if !self.strict && is_missing(cell) => Ok(false),
                    Some(cell) => {
                        cell.truth()
                            .ok_or(())
                            .or_else(|()| cell.as_bool())
                            .map_err(|e| {
                                let name = &self.names[k];
                                if field == name {
                                    format!("`{field}`: {e}")
                                } else {
                                    format!("proposition `{name}`: `{field}`: {e}")
                                }
                            })
                    }
                    None => Err(format!("no field `{field}` in this event")),
                },
                FastAtom::Number(c, slot) => match numbers[*slot] {
                    // A vector against a negative integer: Verilog's
                    // comparison, the general evaluation's.
                    Some(_) if c.not_for_vectors && vectors[*slot] => general(),
                    Some(n) => Ok(c.holds(n)),
                    // Missing or not a number: the general evaluation
                    // says why.
                    None => general(),
                },
                FastAtom::Text(t) => match reader.cell(t.id) {
                    // NULL: false.
                    cell if !self.strict && is_missing(cell) => Ok(false),
                    Some(Cell::Text(text)) => Ok(t.holds(text)),
                    Some(Cell::Json(serde_json::Value::String(text))) => Ok(t.holds(text)),
                    // Absent (strict), or a value the general evaluation
                    // writes as text or refuses.
                    _ => general(),
                },
                FastAtom::General => general(),
            };
            match value {
                Ok(true) => bits[k / 64] |= 1 << (k % 64),
                Ok(false) => {}
                Err(e) => return Err(reader.error_here(e)),
            }
        }
        Ok(())
    }

    /// Sets `bits` to the atoms' values at the reader's current event as
    /// [`Bound::eval`] does, but an atom that cannot be evaluated because a
    /// field it reads is unknown (`x`, `z`) is set to 0 and returned; any
    /// other error is an error.
    fn eval_unknowns<R: Reader + ?Sized>(
        &self,
        reader: &R,
        bits: &mut [u64],
    ) -> Result<Vec<usize>, TraceError> {
        bits.iter_mut().for_each(|w| *w = 0);
        let mut unknown = Vec::new();
        for (k, a) in self.atoms.iter().enumerate() {
            let cell = |id| reader.cell(id);
            match self.value(a, reader) {
                Ok(true) => bits[k / 64] |= 1 << (k % 64),
                Ok(false) => {}
                Err(_) if a.reads_unknown(&cell) => unknown.push(k),
                Err(e) => {
                    return Err(reader.error_here(format!("proposition `{}`: {e}", self.names[k])));
                }
            }
        }
        Ok(unknown)
    }

    /// Whether the monitors are held in reset at the current event.
    #[inline]
    fn in_reset<R: Reader + ?Sized>(&self, reader: &R) -> bool {
        match &self.reset {
            Some(r) => self.value(r, reader).unwrap_or(true),
            None => false,
        }
    }

    /// The value of `e` (bound to the reader's fields) at the reader's
    /// current event, a missing field being NULL or an error
    /// ([`Options::strict_fields`]).
    #[inline]
    pub(crate) fn value<R: Reader + ?Sized>(
        &self,
        e: &Expr,
        reader: &R,
    ) -> Result<bool, super::expr::ValueError> {
        if self.strict {
            e.eval_strict(&|id| reader.cell(id))
        } else {
            e.eval(&|id| reader.cell(id))
        }
    }

    /// Sets `values` to the texts of the fields shown at the reader's
    /// current event ([`shown_text`]).
    pub(crate) fn shown_values<R: Reader + ?Sized>(
        &self,
        reader: &R,
        values: &mut Vec<Option<String>>,
    ) {
        values.clear();
        values.extend(self.show.iter().map(|&id| shown_text(reader.cell(id))));
    }

    /// Whether a reset expression is bound.
    pub(crate) fn has_reset(&self) -> bool {
        self.reset.is_some()
    }

    /// Resolves the fields in `reader` (of the format of the reader
    /// bound), so that they have the indices the atoms use.
    pub(crate) fn attach<R: Reader + ?Sized>(&self, reader: &mut R) {
        for f in &self.fields {
            let _ = reader.resolve(f);
        }
    }
}

/// The last events of a trace (position, atoms), for explanations, and
/// the texts of the fields shown at them (when some are: see
/// [`Checker::set_show`]).
struct Ring {
    entries: Vec<(Position, Vec<u64>)>,
    /// The shown fields' texts at each entry (empty when none is shown).
    shown: Vec<Vec<Option<String>>>,
    next: usize,
    len: usize,
}

impl Ring {
    fn new(keep: usize, words: usize) -> Ring {
        Ring {
            entries: vec![(Position::default(), vec![0; words]); keep],
            shown: Vec::new(),
            next: 0,
            len: 0,
        }
    }

    /// The shown fields' texts of the entry pushed last, to be set.
    fn last_shown(&mut self) -> &mut Vec<Option<String>> {
        let keep = self.entries.len();
        if self.shown.len() != keep {
            self.shown = vec![Vec::new(); keep];
        }
        &mut self.shown[(self.next + keep - 1) % keep]
    }

    /// Oldest first, with the shown fields' texts (empty when none is
    /// shown).
    fn iter_shown(&self) -> impl Iterator<Item = (&(Position, Vec<u64>), &[Option<String>])> {
        let keep = self.entries.len();
        (0..self.len).map(move |i| {
            let slot = (self.next + keep - self.len + i) % keep;
            let shown = self.shown.get(slot).map_or(&[][..], Vec::as_slice);
            (&self.entries[slot], shown)
        })
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn push(&mut self, at: Position, bits: &[u64]) {
        let keep = self.entries.len();
        let slot = &mut self.entries[self.next];
        slot.0 = at;
        slot.1.copy_from_slice(bits);
        self.next = (self.next + 1) % keep;
        self.len = (self.len + 1).min(keep);
    }

    /// Oldest first.
    fn iter(&self) -> impl Iterator<Item = &(Position, Vec<u64>)> {
        let keep = self.entries.len();
        (0..self.len).map(move |i| &self.entries[(self.next + keep - self.len + i) % keep])
    }
}

impl Checker {
    /// A checker of `properties`.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// // Two properties sharing the proposition `busy`.
    /// let busy = Expr::parse("state == 2")?;
    /// let props = vec![
    ///     Property::new("G !busy", MonitorTable::from_ltl("G !busy")?, vec![busy.clone()]),
    ///     Property::new("G(busy -> X !busy)", MonitorTable::from_ltl("G(busy -> X !busy)")?, vec![busy]),
    /// ];
    /// let mut checker = Checker::new(props, Options::default());
    /// let log = "state\n1\n2\n1\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// let verdicts: Vec<_> = reports.iter().map(|r| (r.property.as_str(), r.verdict)).collect();
    /// assert_eq!(verdicts, [("G !busy", Verdict::Violated), ("G(busy -> X !busy)", Verdict::Undecided)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(properties: Vec<Property>, options: Options) -> Checker {
        let mut atoms: Vec<Expr> = Vec::new();
        let mut atom_names: Vec<String> = Vec::new();
        // The atoms set by timed components, each a property's own.
        let mut computed: Vec<bool> = Vec::new();
        // Timed propositions that do not fit their property (a bad
        // operand, an input without a meaning): an error when a trace is
        // read.
        let mut invalid: Option<String> = None;
        let mut atom_of = |e: &Expr, name: &str, own: bool| {
            let shared = (!own)
                .then(|| (0..atoms.len()).find(|&k| !computed[k] && atoms[k] == *e))
                .flatten();
            shared.unwrap_or_else(|| {
                atoms.push(e.clone());
                atom_names.push(name.to_string());
                computed.push(own);
                atoms.len() - 1
            })
        };
        let runs: Vec<Run> = properties
            .into_iter()
            .map(|p| {
                let is_timed = |name: &str| {
                    p.timed
                        .as_ref()
                        .is_some_and(|t| t.components.iter().any(|c| c.name == name))
                };
                let ids: Vec<usize> = p
                    .bindings
                    .iter()
                    .enumerate()
                    .map(|(i, e)| {
                        let name = p.monitor.proposition(i);
                        atom_of(e, name, is_timed(name))
                    })
                    .collect();
                let timed = p.timed.as_ref().map(|t| {
                    let inputs = t
                        .inputs
                        .iter()
                        .map(|(name, e)| atom_of(e, name, false))
                        .collect();
                    let outputs = t
                        .components
                        .iter()
                        .map(|c| {
                            (0..p.monitor.props())
                                .find(|&i| p.monitor.proposition(i) == c.name)
                                .map(|i| ids[i])
                        })
                        .collect();
                    let input = |name: &str| t.inputs.iter().position(|(n, _)| n == name);
                    let engine = if t.components.iter().any(|c| c.kind.is_future()) {
                        Delayed::new(&t.components, input).map(|delayed| {
                            TimedEngine::Future(Box::new(FutureRun {
                                delayed,
                                waiting: Default::default(),
                                waiting_bits: Default::default(),
                                words: 0,
                                recent: Default::default(),
                                last: None,
                                ended: false,
                                values: Vec::new(),
                            }))
                        })
                    } else {
                        Evaluator::new(&t.components, &[], input).map(TimedEngine::Past)
                    };
                    (engine, inputs, outputs)
                });
                let timed = match timed {
                    Some((Ok(engine), inputs, outputs)) => Some(TimedRun {
                        engine,
                        inputs,
                        outputs,
                    }),
                    Some((Err(e), _, _)) => {
                        invalid
                            .get_or_insert(format!("the timed propositions of `{}`: {e}", p.name));
                        None
                    }
                    None => None,
                };
                let fields: Vec<(String, usize)> =
                    p.fields().into_iter().map(|f| (f, usize::MAX)).collect();
                let props = p.monitor.props();
                Run {
                    atoms: ids,
                    fields,
                    done: false,
                    held: true,
                    paused: false,
                    maybe: Vec::new(),
                    aside: false,
                    report: Report {
                        property: p.name,
                        verdict: Verdict::Undecided,
                        satisfied_at: None,
                        violations: Vec::new(),
                        first_violation: None,
                        violation_count: 0,
                        events: 0,
                        inexact_at: None,
                        lazy: None,
                        late_events: 0,
                    },
                    monitor: p.monitor,
                    cursor: Cursor::new(),
                    wide: vec![false; props],
                    delayed: timed
                        .as_ref()
                        .is_some_and(|t| matches!(t.engine, TimedEngine::Future(_))),
                    timed,
                }
            })
            .collect();
        let lanes = Lanes::new(&runs, atoms.len());
        let ring = Ring::new(options.context + 1, atoms.len().div_ceil(64).max(1));
        Checker {
            runs,
            atoms,
            atom_names,
            options,
            reset: None,
            lanes,
            ring,
            events: 0,
            show: Vec::new(),
            time: None,
            clock: Clock::default(),
            end_time: None,
            invalid_timed: invalid,
        }
    }

    /// Shows the fields `show` (a CSV column, a JSON Lines dotted path, a
    /// VCD signal) at each event of the explanation of a violation
    /// ([`ViolationReport::shown`]): the context of a violation, such as
    /// a session, a request id or a time stamp. A field that the trace
    /// has not (an unknown column or signal) is an error when the trace
    /// is read; a field absent from one event (JSON Lines) is shown as
    /// absent there.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::JsonlReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G !err")?;
    /// let props = vec![Property::new("G !err", table, vec![Expr::parse("err")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// checker.set_show(vec!["req.id".into(), "user".into()]);
    /// let log = "{\"err\": false, \"req\": {\"id\": 7}, \"user\": \"ann\"}\n{\"err\": true, \"req\": {\"id\": 8}}\n";
    /// let reports = checker.run(&mut JsonlReader::new("log", log.as_bytes()))?;
    /// let v = &reports[0].violations[0];
    /// // One list per event of the explanation, the violating one last.
    /// assert_eq!(v.shown.len(), v.recent.len());
    /// let last = v.shown.last().unwrap();
    /// assert_eq!(last[0], ("req.id".to_string(), Some("8".to_string())));
    /// assert_eq!(last[1], ("user".to_string(), None)); // absent here
    /// assert_eq!(v.shown[0][1].1.as_deref(), Some("ann"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_show(&mut self, show: Vec<String>) {
        self.show = show;
    }

    /// Reads each event's time from the field `time` names (a CSV
    /// column, a JSON Lines path; see [`TimeSpec`]): the positions of the
    /// reports have it ([`Position::timestamp`]). Times must not
    /// decrease: one that goes back is an error at its event
    /// ([`TimeOrder::Strict`]) or is taken at the latest time before it
    /// and counted ([`TimeOrder::Lenient`], [`Report::late_events`]). A
    /// missing, empty or unreadable time is an error at its event. `None`:
    /// no times (the default).
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::trace::time::{TimeOrder, TimeSpec};
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G !err")?;
    /// let props = vec![Property::new("G !err", table, vec![Expr::parse("err")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// checker.set_time(Some(TimeSpec::parse("ts:ms")?), TimeOrder::Strict);
    /// let log = "ts,err\n1000,0\n1250.5,1\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// let at = reports[0].violations[0].at.timestamp.unwrap();
    /// assert_eq!((at.nanos, at.to_string()), (1_250_500_000, "1250.5".to_string()));
    /// // A time that goes back is an error naming both times.
    /// let log = "ts,err\n1000,0\n999,0\n";
    /// let e = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?).unwrap_err();
    /// assert_eq!(e.at.as_deref(), Some("line 3"));
    /// assert!(e.message.starts_with("the time goes back: 999 here, after 1000 at line 2"));
    /// // Lenient: taken at 1000, and counted.
    /// checker.set_time(Some(TimeSpec::parse("ts:ms")?), TimeOrder::Lenient);
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].late_events, 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time(&mut self, time: Option<TimeSpec>, order: TimeOrder) {
        self.time = time.map(|t| (t, order));
    }

    /// The time field and order ([`Checker::set_time`]).
    pub fn time(&self) -> Option<(&TimeSpec, TimeOrder)> {
        self.time.as_ref().map(|(t, o)| (t, *o))
    }

    /// The fields shown ([`Checker::set_show`]).
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options};
    ///
    /// let mut checker = Checker::new(Vec::new(), Options::default());
    /// assert!(checker.show().is_empty());
    /// checker.set_show(vec!["ts".into()]);
    /// assert_eq!(checker.show(), ["ts"]);
    /// ```
    pub fn show(&self) -> &[String] {
        &self.show
    }

    /// Holds every monitor in its initial state at the events where
    /// `reset` is true (a reset signal of a waveform: `!rst_n`); an
    /// unknown value (x, z) counts as in reset. Checking starts at the
    /// first event out of reset.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G !err")?;
    /// let props = vec![Property::new("G !err", table, vec![Expr::parse("err")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// checker.set_reset(Some(Expr::parse("!rst_n")?));
    /// // `err` is 1 in reset (line 2): only the one on line 4 counts.
    /// let log = "rst_n,err\n0,1\n1,0\n1,1\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].violations[0].at.line, Some(4));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_reset(&mut self, reset: Option<Expr>) {
        self.reset = reset;
    }

    /// Whether the reset ([`Checker::set_reset`]) holds the monitor of
    /// property `i` (the `i`-th given to [`Checker::new`]); it holds every
    /// one unless told otherwise. An SVA assertion without `disable iff`
    /// is checked in reset too: it is not held, while the others are.
    ///
    /// # Panics
    ///
    /// If there is no property `i`.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let err = || Property::new("G !err", MonitorTable::from_ltl("G !err").unwrap(), vec![Expr::parse("err").unwrap()]);
    /// let mut checker = Checker::new(vec![err(), err()], Options::default());
    /// checker.set_reset(Some(Expr::parse("!rst_n")?));
    /// checker.set_held_in_reset(1, false);
    /// // `err` is 1 in reset (line 2): the second monitor sees it.
    /// let log = "rst_n,err\n0,1\n1,0\n1,1\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].violations[0].at.line, Some(4));
    /// assert_eq!(reports[1].violations[0].at.line, Some(2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_held_in_reset(&mut self, i: usize, held: bool) {
        self.runs[i].held = held;
    }

    /// The options.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options};
    ///
    /// let options = Options { all: true, ..Options::default() };
    /// let checker = Checker::new(Vec::new(), options);
    /// assert_eq!(checker.options(), options);
    /// assert_eq!((checker.options().max_reports, checker.options().context), (10, 4));
    /// ```
    pub fn options(&self) -> Options {
        self.options
    }

    /// Takes each trace to have lasted until `end` (nanoseconds, as the
    /// times of [`Checker::set_time`]): at the end of the input, every
    /// obligation of a future time bound (`F[0:5s] p`) whose deadline is
    /// before `end` is decided as if an event at `end` had been read.
    /// Without it, the input ends at its last event, and the letters still
    /// waiting for their deadlines are read every way: a violation is
    /// reported only if every way violates.
    ///
    /// ```
    /// use monitor_core::formula::metric::parse_metric;
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::metric::TimedPropositions;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::trace::time::{TimeOrder, TimeSpec};
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let m = parse_metric("G(req -> F[0:500ms] resp)")?;
    /// let table = MonitorTable::from_ltl(&m.formula.to_spot())?;
    /// let t = table.table();
    /// let bindings = (0..t.props as usize).map(|i| match t.proposition(i) {
    ///     "req" => Expr::parse("req"),
    ///     _ => Ok(Expr::Const(false)), // the timed proposition
    /// }).collect::<Result<Vec<_>, _>>()?;
    /// let inputs = vec![("resp".to_string(), Expr::parse("resp")?)];
    /// let timed = TimedPropositions { components: m.timed, inputs };
    /// let p = Property::new("G(req -> F[0:500ms] resp)", table, bindings).with_timed(timed);
    /// let mut checker = Checker::new(vec![p], Options::default());
    /// checker.set_time(Some(TimeSpec::parse("ts:ms")?), TimeOrder::Strict);
    /// // A request at 100 ms, unanswered when the log ends at 300 ms.
    /// let log = "ts,req,resp\n100,1,0\n300,0,0\n";
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].verdict, Verdict::Undecided); // its deadline had not passed
    /// // The log is known to have lasted until 1 s: the deadline, 600 ms, passed.
    /// checker.set_end_time(Some(1_000_000_000));
    /// let reports = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(reports[0].verdict, Verdict::Violated);
    /// assert!(reports[0].violations[0].explanation.contains("past its deadline 600"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_end_time(&mut self, end: Option<i64>) {
        self.end_time = end;
    }

    /// Checks one trace; the monitors start afresh.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let props = vec![Property::new("G !a", table, vec![Expr::parse("a")?])];
    /// let mut checker = Checker::new(props, Options { all: true, ..Options::default() });
    /// let reports = checker.run(&mut CsvReader::new("one.csv", "a\n1\n0\n1\n".as_bytes())?)?;
    /// assert_eq!((reports[0].violation_count, reports[0].events), (2, 3));
    /// // The next trace starts afresh.
    /// let reports = checker.run(&mut CsvReader::new("two.csv", "a\n0\n".as_bytes())?)?;
    /// assert_eq!((reports[0].verdict, reports[0].violation_count), (Verdict::Undecided, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<Vec<Report>, TraceError> {
        self.run_reporting(reader, |_, _| {})
    }

    /// Checks one trace as [`Checker::run`] does, and calls
    /// `on_violation(property, report)` as each violation reported in
    /// detail happens (to follow a growing log).
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Property, Options};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::JsonlReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let log = "{\"up\": true}\n{\"up\": false}\n{\"up\": true}\n";
    /// let table = MonitorTable::from_ltl("G up")?;
    /// let mut checker = Checker::new(vec![Property::new("G up", table, vec![Expr::parse("up")?])], Options::default());
    /// let mut seen = Vec::new();
    /// checker.run_reporting(&mut JsonlReader::new("log", log.as_bytes()), |p, v| seen.push((p.to_string(), v.at.line)))?;
    /// assert_eq!(seen, [("G up".to_string(), Some(2))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_reporting<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        mut on_violation: impl FnMut(&str, &ViolationReport),
    ) -> Result<Vec<Report>, TraceError> {
        self.begin();
        let bound = self.bind(reader)?;
        self.feed(reader, &bound, &mut on_violation)?;
        Ok(self.finish())
    }

    /// Starts afresh: every monitor in its initial state, nothing read.
    pub(crate) fn begin(&mut self) {
        for r in &mut self.runs {
            r.reset();
            r.done = false;
            r.report.verdict = Verdict::Undecided;
            r.report.satisfied_at = None;
            r.report.violations.clear();
            r.report.first_violation = None;
            r.report.violation_count = 0;
            r.report.events = 0;
            r.report.inexact_at = None;
            r.report.lazy = None;
            if let Some(t) = &mut r.timed {
                match &mut t.engine {
                    TimedEngine::Past(e) => e.reset(),
                    TimedEngine::Future(f) => f.reset(),
                }
            }
        }
        self.lanes.states.iter_mut().for_each(|s| *s = 0);
        self.ring.clear();
        self.events = 0;
        self.clock = Clock::default();
    }

    /// Binds the propositions (and the fields shown in explanations) to
    /// the fields of `reader`.
    pub(crate) fn bind<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<Bound, TraceError> {
        let source = reader.source().to_string();
        let unknown = |message: String| TraceError {
            source: source.clone(),
            at: None,
            message,
        };
        if let Some(m) = &self.invalid_timed {
            return Err(unknown(m.clone()));
        }
        if self.time.is_none() {
            if let Some(r) = self.runs.iter().find(|r| r.timed.is_some()) {
                return Err(unknown(format!(
                    "`{}` has time bounds: give the field that holds each event's time, \
                     --time FIELD[:UNIT]",
                    r.report.property
                )));
            }
        }
        // The names, in the order they are resolved: another reader of
        // the same format gives them the same indices (`Bound::attach`).
        let mut fields: Vec<String> = Vec::new();
        let mut resolve = |n: &str| {
            fields.push(n.to_string());
            reader.resolve(n)
        };
        let mut atoms = self.atoms.clone();
        for a in &mut atoms {
            a.resolve(&mut resolve).map_err(unknown)?;
        }
        // Most propositions are a field read as a Boolean, compared with a
        // number or with strings: read them directly, each number once.
        let mut number_fields = Vec::new();
        let fast: Vec<FastAtom> = atoms
            .iter()
            .map(|a| match (a, FieldVsText::of(a)) {
                (Expr::Field(f), _) if f.select.is_none() => FastAtom::Plain(f.id, f.name.clone()),
                (_, Some(t)) => FastAtom::Text(t),
                _ => match FieldVsNumber::of(a) {
                    Some(c) => match number_fields.iter().position(|&id| id == c.id) {
                        Some(slot) => FastAtom::Number(c, slot),
                        None if number_fields.len() < NUMBER_FIELDS => {
                            number_fields.push(c.id);
                            FastAtom::Number(c, number_fields.len() - 1)
                        }
                        None => FastAtom::General,
                    },
                    None => FastAtom::General,
                },
            })
            .collect();
        let equalities = equalities(&fast);
        let mut reset = self.reset.clone();
        if let Some(r) = &mut reset {
            r.resolve(&mut resolve)
                .map_err(|m| unknown(format!("--reset: {m}")))?;
        }
        for r in &mut self.runs {
            for (f, id) in &mut r.fields {
                *id = resolve(f).map_err(unknown)?;
            }
        }
        let mut show = Vec::with_capacity(self.show.len());
        for f in &self.show {
            show.push(resolve(f).map_err(|m| unknown(format!("--show {f}: {m}")))?);
        }
        let time = match &self.time {
            Some((spec, order)) => Some(TimeField {
                id: resolve(&spec.field).map_err(|m| {
                    // `ts:fortnight`: a field named whole, since what
                    // follows its colon is no unit; most likely a typo.
                    let units = match spec.field.rsplit_once(':') {
                        Some((_, unit)) if spec.format == TimeFormat::Auto => format!(
                            "; or, if `{unit}` is meant as a unit, it is none of \
                             ns, us, ms, s, m, h, rfc3339"
                        ),
                        _ => String::new(),
                    };
                    unknown(format!("--time {}: {m}{units}", spec.field))
                })?,
                format: spec.format,
                order: *order,
            }),
            None => None,
        };
        Ok(Bound {
            time,
            strict: self.options.strict_fields,
            words: atoms.len().div_ceil(64).max(1),
            atoms,
            fast,
            equalities,
            number_fields,
            names: self.atom_names.clone(),
            reset,
            fields,
            show,
        })
    }

    /// Reads `reader` to its end, the monitors going on from where they
    /// are.
    pub(crate) fn feed<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        bound: &Bound,
        on_violation: &mut dyn FnMut(&str, &ViolationReport),
    ) -> Result<(), TraceError> {
        let Some(field) = bound.time else {
            return self.feed_events(reader, bound, on_violation);
        };
        // The clock goes on from where it is (the chunks of a log are
        // read one after the other).
        let mut clock = self.clock;
        let mut timed = Timed {
            inner: reader,
            clock: &mut clock,
            field,
            now: None,
        };
        let fed = self.feed_events(&mut timed, bound, on_violation);
        self.clock = clock;
        fed
    }

    /// [`Checker::feed`], the times (if any) read by `reader`.
    fn feed_events<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        bound: &Bound,
        on_violation: &mut dyn FnMut(&str, &ViolationReport),
    ) -> Result<(), TraceError> {
        let Checker {
            runs,
            lanes,
            ring,
            options,
            events,
            show,
            ..
        } = self;
        let mut bits = vec![0u64; bound.words];
        let lazy = runs.iter().any(|r| matches!(r.monitor, Engine::Lazy(_)));
        let timed = runs.iter().any(|r| r.timed.is_some());
        let delayed = runs.iter().any(|r| r.delayed);
        // Whether the reset holds every monitor (then an event in reset is
        // not even evaluated), or some step through it.
        let all_held = runs.iter().all(|r| r.held);
        // The unknown atoms of the current event, and whether some run is
        // in one of several states (see `step_uncertain`).
        let mut unknown: Vec<usize> = Vec::new();
        let mut uncertain = runs.iter().any(|r| !r.maybe.is_empty());
        while reader.advance()? {
            *events += 1;
            let in_reset = bound.in_reset(reader);
            if in_reset && all_held {
                lanes.reset_all(runs);
                ring.clear();
                continue;
            }
            if in_reset || reader.restarted() {
                // Held in reset, or an asynchronous reset pulsed since the
                // last event.
                if all_held {
                    ring.clear();
                }
                lanes.reset_held(runs);
            }
            if in_reset {
                runs.iter_mut()
                    .filter(|r| r.held)
                    .for_each(|r| r.paused = true);
            }
            unknown.clear();
            if let Err(e) = bound.eval(reader, &mut bits) {
                // Unknown values (x, z), as in a design before its reset, are
                // read both ways (see `step_uncertain`); other bad values are
                // errors.
                match bound.eval_unknowns(reader, &mut bits) {
                    Ok(u) if u.len() <= MAX_UNKNOWN_ATOMS => unknown = u,
                    Ok(u) => {
                        *events -= 1;
                        runs.iter_mut().for_each(|r| r.paused = false);
                        let names: Vec<String> =
                            u.iter().map(|&k| format!("`{}`", bound.names[k])).collect();
                        return Err(reader.error_here(format!(
                            "{} propositions are unknown (x/z) here ({}): at most \
                             {MAX_UNKNOWN_ATOMS} are read both ways",
                            u.len(),
                            names.join(", ")
                        )));
                    }
                    _ => {
                        // The event was not checked: the reports so far end before it.
                        *events -= 1;
                        runs.iter_mut().for_each(|r| r.paused = false);
                        return Err(e);
                    }
                }
            }
            if timed {
                // The times are read (`Checker::bind` made sure).
                let now = reader.position().timestamp.map_or(0, |t| t.nanos);
                for r in runs.iter_mut() {
                    if let Some(t) = &mut r.timed {
                        let evaluator = match &mut t.engine {
                            TimedEngine::Past(e) => e,
                            TimedEngine::Future(f) => {
                                let here = reader.position();
                                if !r.done {
                                    let inputs = &t.inputs;
                                    f.delayed.push(now, |i| atom_bit(&bits, inputs[i]) == 1);
                                    f.waiting.push_back(here.clone());
                                    f.waiting_bits.extend(&bits);
                                    f.words = bits.len();
                                }
                                f.last = Some(here);
                                continue;
                            }
                        };
                        evaluator.step(now, |i| atom_bit(&bits, t.inputs[i]) == 1);
                        set_outputs(&mut bits, &t.outputs, evaluator.outputs());
                    }
                }
            }
            ring.push(reader.position(), &bits);
            if !bound.show.is_empty() {
                bound.shown_values(&*reader, ring.last_shown());
            }
            // Every property steps; the rare events (a violation, a good
            // prefix) come back to be reported.
            let mut on_verdict = |r: &mut Run, verdict| match verdict {
                Verdict::Violated => {
                    r.report.violation_count += 1;
                    r.report.verdict = Verdict::Violated;
                    r.report
                        .first_violation
                        .get_or_insert_with(|| reader.position());
                    let limit = if options.all { options.max_reports } else { 1 };
                    if r.report.violations.len() < limit {
                        let v = explain(r, &*reader, ring, show);
                        on_violation(&r.report.property, &v);
                        r.report.violations.push(v);
                    }
                    if options.all {
                        r.reset();
                    } else {
                        r.done = true;
                    }
                }
                Verdict::Satisfied => {
                    if r.report.satisfied_at.is_none() {
                        r.report.satisfied_at = Some(reader.position());
                        if r.report.violation_count == 0 {
                            r.report.verdict = Verdict::Satisfied;
                        }
                    }
                    // A good prefix stays good: no violation can follow.
                    r.done = true;
                }
                // A lazy monitor whose verdicts just became informative.
                Verdict::Undecided => {
                    r.report.inexact_at.get_or_insert_with(|| reader.position());
                }
            };
            if uncertain || !unknown.is_empty() {
                match step_uncertain(runs, &bits, &unknown, lanes, bound, &mut on_verdict) {
                    Ok(u) => uncertain = u,
                    Err(m) => {
                        *events -= 1;
                        runs.iter_mut().for_each(|r| {
                            r.paused = false;
                            r.aside = false;
                        });
                        return Err(reader.error_here(m));
                    }
                }
                lanes.step(&bits, runs, &mut on_verdict);
                // The lanes of the runs stepped aside take their states.
                for (j, &i) in lanes.fast.iter().enumerate() {
                    let r = &mut runs[i];
                    if r.aside {
                        lanes.states[j] = if r.maybe.is_empty() {
                            r.cursor.state()
                        } else {
                            0
                        };
                    }
                }
                runs.iter_mut().for_each(|r| r.aside = false);
            } else {
                lanes.step(&bits, runs, &mut on_verdict);
            }
            if delayed {
                for r in runs.iter_mut().filter(|r| r.delayed && !r.done) {
                    step_delayed(r, Some(reader.position()), *options, on_violation);
                }
            }
            if in_reset {
                // The held monitors stay in their initial state.
                runs.iter_mut().for_each(|r| r.paused = false);
                lanes.reset_held(runs);
            }
            if lazy {
                // A lazy monitor that could not build its transition within
                // the byte budget read no more: its verdict would be wrong.
                for r in runs.iter() {
                    if let Engine::Lazy(m) = &r.monitor {
                        if let Some(e) = m.error() {
                            return Err(reader.error_here(format!(
                                "the lazy monitor of `{}` stopped: {e} for one transition (raise --max-memory)",
                                r.report.property
                            )));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// The reports of the events read so far. After [`Checker::run`] (or
    /// [`check_lines`](super::chunked::check_lines)) stopped at an error in
    /// the trace, they are the reports of the events before it, the same as
    /// those of the trace cut before the bad event: a violation found
    /// before bad input is not lost.
    ///
    /// ```
    /// use monitor_core::trace::check::{Checker, Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let props = vec![Property::new("G !a", table, vec![Expr::parse("a")?])];
    /// let mut checker = Checker::new(props, Options::default());
    /// let log = "a\n0\n1\nmaybe\n0\n";
    /// let err = checker.run(&mut CsvReader::new("log", log.as_bytes())?).unwrap_err();
    /// assert_eq!(err.at.as_deref(), Some("line 4"));
    /// let reports = checker.reports_so_far();
    /// assert_eq!((reports[0].verdict, reports[0].events), (Verdict::Violated, 2));
    /// assert_eq!(reports[0].violations[0].at.line, Some(3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reports_so_far(&mut self) -> Vec<Report> {
        self.finish()
    }

    /// The reports, once the whole trace is read. The letters of
    /// properties that look ahead still waiting are decided by the end of
    /// the input first ([`Checker::set_end_time`]).
    pub(crate) fn finish(&mut self) -> Vec<Report> {
        let options = self.options;
        for r in self.runs.iter_mut().filter(|r| r.delayed) {
            end_delayed(r, self.end_time, options);
        }
        let (events, late) = (self.events, self.clock.late);
        self.runs
            .iter_mut()
            .map(|r| {
                r.report.events = events;
                r.report.late_events = late;
                if let Engine::Lazy(m) = &r.monitor {
                    r.report.lazy = Some(m.stats());
                }
                r.report.clone()
            })
            .collect()
    }

    /// The number of properties.
    pub(crate) fn len(&self) -> usize {
        self.runs.len()
    }

    /// The current state of property `i`'s monitor; `None` once it is
    /// decided (its report will not change).
    pub(crate) fn state(&self, i: usize) -> Option<u32> {
        let r = &self.runs[i];
        if r.done {
            return None;
        }
        Some(match self.lanes.lane_of[i] {
            Some(j) => self.lanes.states[j],
            None => match &r.monitor {
                Engine::Eager(_) => r.cursor.state(),
                // Never summarized (see `Checker::has_lazy`).
                Engine::Lazy(_) => return None,
            },
        })
    }

    /// Moves the (undecided) monitor of property `i` to `state`, the end
    /// of a summarized piece of the trace in which nothing happened.
    pub(crate) fn set_state(&mut self, i: usize, state: u32) {
        match self.lanes.lane_of[i] {
            Some(j) => self.lanes.states[j] = state,
            None => {
                let r = &mut self.runs[i];
                if let Engine::Eager(table) = &r.monitor {
                    r.cursor.reset();
                    r.cursor.enter(&table.table(), state);
                }
            }
        }
    }

    /// The monitor of property `i`, if it is built whole.
    pub(crate) fn table(&self, i: usize) -> Option<crate::runtime::Table<'_>> {
        self.runs[i].table().map(MonitorTable::table)
    }

    /// Whether some property has a lazy monitor (then the trace is read in
    /// one pass: a lazy monitor has no table to summarize pieces with).
    pub(crate) fn has_lazy(&self) -> bool {
        self.runs.iter().any(|r| r.table().is_none())
    }

    /// Whether some property has timed components (then the trace is read
    /// in one pass: a piece's letters depend on the times and operands
    /// before it, which a summary of the piece alone does not know).
    pub(crate) fn has_timed(&self) -> bool {
        self.runs.iter().any(|r| r.timed.is_some())
    }

    /// Appends to `letters` the letters of property `i` (at most 64
    /// propositions) in the events whose atoms are `all` (`words` each);
    /// `false` for wider properties.
    pub(crate) fn letters(
        &self,
        i: usize,
        all: &[u64],
        words: usize,
        letters: &mut Vec<u64>,
    ) -> bool {
        let r = &self.runs[i];
        if let (Some(j), false) = (self.lanes.lane_of[i], self.lanes.lut.is_empty()) {
            // One property's column (2^atoms bytes) stays in the first
            // level cache; an event's row of all properties would not.
            let column =
                &self.lanes.lut_columns[j << self.lanes.lut_atoms..][..1 << self.lanes.lut_atoms];
            debug_assert_eq!(words, 1);
            letters.extend(all.iter().map(|&g| u64::from(column[g as usize])));
            return true;
        }
        if r.atoms.len() > 64 {
            return false;
        }
        letters.extend(all.chunks_exact(words).map(|bits| r.letter(bits)));
        true
    }

    /// Records events read elsewhere (in a summarized piece): `n` more
    /// events, and the last ones for explanations (with the texts of the
    /// fields shown at them, when some are).
    pub(crate) fn skip<'a>(
        &mut self,
        n: u64,
        last: impl Iterator<Item = (Position, &'a [u64], &'a [Option<String>])>,
    ) {
        self.events += n;
        for (at, bits, shown) in last {
            self.ring.push(at, bits);
            if !self.show.is_empty() {
                let slot = self.ring.last_shown();
                slot.clear();
                slot.extend_from_slice(shown);
            }
        }
    }

    /// How many events were read since [`Checker::begin`].
    pub(crate) fn events(&self) -> u64 {
        self.events
    }

    /// How many events before a violation are shown.
    pub(crate) fn context(&self) -> usize {
        self.options.context
    }

    /// The properties' runs, in the order given to [`Checker::new`].
    pub(crate) fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The runs, to step from outside (keyed checking steps each key's
    /// runs of lazy monitors through the one monitor).
    pub(crate) fn runs_mut(&mut self) -> &mut [Run] {
        &mut self.runs
    }
}

/// The properties' runs laid out for speed: the state, transition table
/// and atoms of every small monitor in flat arrays, stepped in two tight
/// passes (letters, then states) whose iterations are independent, so the
/// processor overlaps the table lookups of all properties; larger monitors
/// (and three-valued ones, whose good prefixes must be seen) step through
/// their [`Cursor`].
struct Lanes {
    /// The runs that step in the fast passes, and their data.
    fast: Vec<usize>,
    base: Vec<u32>,
    shift: Vec<u32>,
    atoms: Vec<[u8; 8]>,
    arity: Vec<u8>,
    states: Vec<u32>,
    letters: Vec<u32>,
    next: Vec<u32>,
    /// With at most [`LUT_ATOMS`] atoms: the letter of every fast run for
    /// every valuation `v` of the atoms, at `v * fast.len() + j`, so that
    /// an event's letters are one slice.
    lut: Vec<u32>,
    /// The same letters by lane (at most 8 atoms: a byte), at
    /// `j << lut_atoms | v`, for the letters of one run over many events.
    lut_columns: Vec<u8>,
    lut_atoms: usize,
    /// The lane of each run, if it is fast.
    lane_of: Vec<Option<usize>>,
    /// The targets of the last step.
    targets: Vec<u32>,
    /// The other runs.
    slow: Vec<usize>,
}

impl Lanes {
    fn new(runs: &[Run], num_atoms: usize) -> Lanes {
        let mut l = Lanes {
            fast: Vec::new(),
            base: Vec::new(),
            shift: Vec::new(),
            atoms: Vec::new(),
            arity: Vec::new(),
            states: Vec::new(),
            letters: Vec::new(),
            next: Vec::new(),
            lut: Vec::new(),
            lut_columns: Vec::new(),
            lut_atoms: 0,
            lane_of: Vec::new(),
            targets: Vec::new(),
            slow: Vec::new(),
        };
        for (i, r) in runs.iter().enumerate() {
            if r.delayed {
                // Stepped by `step_delayed`, never in the lanes.
                continue;
            }
            let Some(table) = r.table() else {
                l.slow.push(i);
                continue;
            };
            let t = table.table();
            let three = t.verdicts.contains(&Verdict::Satisfied);
            match t.transitions {
                Transitions::Dense(next)
                    if num_atoms <= 64
                        && r.atoms.len() <= 8
                        && !three
                        && l.next.len() + next.len() < u32::MAX as usize =>
                {
                    l.fast.push(i);
                    l.base.push(l.next.len() as u32);
                    l.shift.push(t.props);
                    let mut a = [0u8; 8];
                    for (j, &k) in r.atoms.iter().enumerate() {
                        a[j] = k as u8;
                    }
                    l.atoms.push(a);
                    l.arity.push(r.atoms.len() as u8);
                    l.states.push(0);
                    l.next.extend_from_slice(next);
                }
                _ => l.slow.push(i),
            }
        }
        l.letters = vec![0; l.fast.len()];
        l.targets = vec![0; l.fast.len()];
        l.lane_of = vec![None; runs.len()];
        for (j, &i) in l.fast.iter().enumerate() {
            l.lane_of[i] = Some(j);
        }
        if num_atoms <= LUT_ATOMS {
            let f = l.fast.len();
            l.lut = vec![0; f << num_atoms];
            l.lut_columns = vec![0; f << num_atoms];
            l.lut_atoms = num_atoms;
            for v in 0..1usize << num_atoms {
                l.gather(v as u64);
                l.lut[v * f..(v + 1) * f].copy_from_slice(&l.letters);
                for (j, &letter) in l.letters.iter().enumerate() {
                    // Fast runs have at most 8 atoms.
                    l.lut_columns[j << num_atoms | v] = letter as u8;
                }
            }
        }
        l
    }

    /// Sets `letters` to the fast runs' letters where the atoms are `g`.
    #[inline]
    fn gather(&mut self, g: u64) {
        for (j, (a, &n)) in self.atoms.iter().zip(&self.arity).enumerate() {
            let mut letter = 0u32;
            for (b, &k) in a[..n as usize].iter().enumerate() {
                letter |= (((g >> k) & 1) as u32) << b;
            }
            self.letters[j] = letter;
        }
    }

    fn reset_all(&mut self, runs: &mut [Run]) {
        for r in runs.iter_mut().filter(|r| !r.done) {
            r.reset();
        }
        for (j, &i) in self.fast.iter().enumerate() {
            if !runs[i].done {
                self.states[j] = 0;
            }
        }
    }

    /// Resets the runs the reset holds.
    fn reset_held(&mut self, runs: &mut [Run]) {
        for r in runs.iter_mut().filter(|r| !r.done && r.held) {
            r.reset();
        }
        for (j, &i) in self.fast.iter().enumerate() {
            if !runs[i].done && runs[i].held {
                self.states[j] = 0;
            }
        }
    }

    /// Steps every live run on the letter of atoms `bits`; `report` gets
    /// the runs that are violated or satisfied.
    #[inline]
    fn step(&mut self, bits: &[u64], runs: &mut [Run], mut report: impl FnMut(&mut Run, Verdict)) {
        let g = bits[0];
        let f = self.fast.len();
        if self.lut.is_empty() {
            self.gather(g);
        } else {
            let v = g as usize;
            self.letters.copy_from_slice(&self.lut[v * f..(v + 1) * f]);
        }
        let mut violated = false;
        for j in 0..self.states.len() {
            let s = self.states[j];
            let t = self.next[(self.base[j] + (s << self.shift[j]) + self.letters[j]) as usize];
            violated |= t == VIOLATION;
            self.targets[j] = t;
            // A violated run keeps its state: the cursor explains from it.
            self.states[j] = if t == VIOLATION { s } else { t };
        }
        if violated {
            for j in 0..self.states.len() {
                let s = self.states[j];
                let i = self.fast[j];
                let r = &mut runs[i];
                if r.done || r.paused || r.aside {
                    continue;
                }
                // (Not recomputed from `states`: the runs that did not
                // violate have already moved.)
                if self.targets[j] == VIOLATION {
                    let Engine::Eager(table) = &r.monitor else {
                        unreachable!("lazy monitors step slowly")
                    };
                    let table = table.table();
                    r.cursor.reset();
                    r.cursor.enter(&table, s);
                    r.cursor.enter(&table, VIOLATION);
                    report(r, Verdict::Violated);
                    // A restarted run (--all) starts again from state 0.
                    self.states[j] = 0;
                }
            }
        }
        for &i in &self.slow {
            let r = &mut runs[i];
            if r.done || r.paused || r.aside {
                continue;
            }
            let verdict = if r.atoms.len() <= 64 {
                let letter = r.letter(bits);
                match &mut r.monitor {
                    Engine::Eager(table) => r.cursor.step(&table.table(), letter),
                    Engine::Lazy(m) => m.step(letter),
                }
            } else {
                for (b, &k) in r.atoms.iter().enumerate() {
                    r.wide[b] = atom_bit(bits, k) == 1;
                }
                match &mut r.monitor {
                    Engine::Eager(table) => r.cursor.step_with(&table.table(), r.wide.as_slice()),
                    // Lazy monitors have at most 64 propositions.
                    Engine::Lazy(m) => m.step_with(r.wide.as_slice()),
                }
            };
            if let Engine::Lazy(m) = &r.monitor {
                if m.inexact_from().is_some() && r.report.inexact_at.is_none() {
                    // (Reported as an undecided verdict.)
                    report(r, Verdict::Undecided);
                }
            }
            if verdict != Verdict::Undecided {
                report(r, verdict);
            }
        }
    }
}

/// At most this many unknown atoms are tried both ways.
const MAX_UNKNOWN_ATOMS: usize = 6;

/// Steps, at an event whose `unknown` atoms (0 in `bits`) have unknown
/// values (x, z), the runs that read one, and the runs already in several
/// possible states: each from each of its possible states on each way of
/// reading the unknown values (a set of at most as many states as the
/// monitor has). A verdict is reported when every way gives it (a
/// violation only then); where some ways violate and others do not, the
/// verdict depends on the unknown values: an error. These runs are set
/// `aside` for the lanes, the one state of a run back in one state in its
/// cursor. Returns whether some run is still in several states.
///
/// Lazy monitors (which build transitions as they go) and runs of more
/// than 64 propositions cannot be stepped so: an unknown value they read is
/// an error.
fn step_uncertain(
    runs: &mut [Run],
    bits: &[u64],
    unknown: &[usize],
    lanes: &Lanes,
    bound: &Bound,
    report: &mut impl FnMut(&mut Run, Verdict),
) -> Result<bool, String> {
    let mut uncertain = false;
    for (i, r) in runs.iter_mut().enumerate() {
        if r.done || r.paused {
            continue;
        }
        if r.delayed {
            if unknown.is_empty() {
                continue;
            }
            return Err(format!(
                "unknown (x/z) values where `{}` looks ahead (a future time bound) are not \
                 supported yet",
                r.report.property
            ));
        }
        // The run's propositions that are unknown.
        let local: Vec<usize> = r
            .atoms
            .iter()
            .enumerate()
            .filter(|(_, k)| unknown.contains(k))
            .map(|(b, _)| b)
            .collect();
        if local.is_empty() && r.maybe.is_empty() {
            continue;
        }
        let names = || {
            let mut names: Vec<String> = Vec::new();
            for &k in r.atoms.iter().filter(|k| unknown.contains(k)) {
                let name = format!("`{}`", bound.names[k]);
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            names.join(", ")
        };
        let (Engine::Eager(table), true) = (&r.monitor, r.atoms.len() <= 64) else {
            return Err(format!(
                "{} unknown (x/z), which `{}` reads: {}",
                names(),
                r.report.property,
                if r.atoms.len() > 64 {
                    "a monitor of more than 64 propositions cannot read it both ways"
                } else {
                    "a lazy monitor cannot read it both ways (leave out --lazy)"
                }
            ));
        };
        let t = table.table();
        let from = if r.maybe.is_empty() {
            vec![match lanes.lane_of[i] {
                Some(j) => lanes.states[j],
                None => r.cursor.state(),
            }]
        } else {
            std::mem::take(&mut r.maybe)
        };
        let letter = r.letter(bits);
        let mut to: Vec<u32> = Vec::new();
        for &s in &from {
            for c in 0u64..1 << local.len() {
                let mut l = letter;
                for (n, &b) in local.iter().enumerate() {
                    l |= ((c >> n) & 1) << b;
                }
                to.push(t.next(s, l));
            }
        }
        to.sort_unstable();
        to.dedup();
        r.aside = true;
        let violated = to.contains(&VIOLATION);
        if violated && to.len() > 1 {
            let shown = names();
            return Err(format!(
                "whether `{}` is violated here depends on unknown (x/z) values it read{}",
                r.report.property,
                if shown.is_empty() {
                    String::new()
                } else {
                    format!(" ({shown} here)")
                }
            ));
        }
        if violated {
            // Every way violates: explained from one of the states.
            r.cursor.reset();
            r.cursor.enter(&t, from[0]);
            r.cursor.enter(&t, VIOLATION);
            report(r, Verdict::Violated);
            continue;
        }
        let satisfied = to
            .iter()
            .all(|&s| t.verdicts[s as usize] == Verdict::Satisfied);
        r.cursor.reset();
        r.cursor.enter(&t, to[0]);
        if to.len() > 1 {
            r.maybe = to;
            uncertain = true;
        }
        if satisfied {
            report(r, Verdict::Satisfied);
        }
    }
    Ok(uncertain)
}

/// Steps delayed run `r` (not done) on every letter now complete; `at`:
/// the event just read, which completed them (`None`: the end of the
/// input).
fn step_delayed(
    r: &mut Run,
    at: Option<Position>,
    options: Options,
    on_violation: &mut dyn FnMut(&str, &ViolationReport),
) {
    let Some(mut timed) = r.timed.take() else {
        return;
    };
    let TimedEngine::Future(f) = &mut timed.engine else {
        unreachable!("a delayed run has future components")
    };
    while !r.done {
        let Some(letter) = f.delayed.pop(&mut f.values) else {
            break;
        };
        let pos = f.waiting.pop_front().expect("a letter per event");
        // The oldest recent letter's words are reused (no allocation per
        // letter).
        let mut bits = if f.recent.len() > options.context {
            f.recent.pop_front().map(|(_, b)| b).unwrap_or_default()
        } else {
            Vec::new()
        };
        bits.clear();
        bits.extend(f.waiting_bits.drain(..f.words));
        set_outputs(&mut bits, &timed.outputs, &f.values);
        f.recent.push_back((pos.clone(), bits));
        if f.recent.len() > options.context + 1 {
            f.recent.pop_front();
        }
        let bits = &f.recent.back().expect("just pushed").1;
        let verdict = if r.atoms.len() <= 64 {
            let l = r.letter(bits);
            match &mut r.monitor {
                Engine::Eager(table) => r.cursor.step(&table.table(), l),
                Engine::Lazy(m) => m.step(l),
            }
        } else {
            for (b, &k) in r.atoms.iter().enumerate() {
                r.wide[b] = atom_bit(bits, k) == 1;
            }
            match &mut r.monitor {
                Engine::Eager(table) => r.cursor.step_with(&table.table(), r.wide.as_slice()),
                Engine::Lazy(m) => m.step_with(r.wide.as_slice()),
            }
        };
        if let Engine::Lazy(m) = &r.monitor {
            if m.inexact_from().is_some() && r.report.inexact_at.is_none() {
                r.report.inexact_at = Some(pos.clone());
            }
        }
        let reported = at.clone().or_else(|| f.last.clone()).unwrap_or_default();
        match verdict {
            Verdict::Violated => {
                let why = |why: String| {
                    let by = match &at {
                        Some(p) => format!("by {p}{}", time_of(p)),
                        None => "by the end of the input".to_string(),
                    };
                    let deadline = match (letter.deadline, &pos.timestamp) {
                        (Some(d), Some(t)) => format!(
                            ", past its deadline {}",
                            Time {
                                nanos: d,
                                form: t.form
                            }
                        ),
                        (Some(d), None) => format!(", past its deadline {d} ns"),
                        (None, _) => String::new(),
                    };
                    if at.as_ref() == Some(&pos) {
                        why
                    } else {
                        format!("{why}; decided for {pos}{} {by}{deadline}", time_of(&pos))
                    }
                };
                report_delayed(r, f, reported, options, on_violation, why);
            }
            Verdict::Satisfied => {
                if r.report.satisfied_at.is_none() {
                    r.report.satisfied_at = Some(reported);
                    if r.report.violation_count == 0 {
                        r.report.verdict = Verdict::Satisfied;
                    }
                }
                r.done = true;
            }
            Verdict::Undecided => {}
        }
    }
    r.timed = Some(timed);
}

/// ` (time T)` of an event with a time, else nothing.
fn time_of(p: &Position) -> String {
    p.timestamp
        .map_or_else(String::new, |t| format!(" (time {t})"))
}

/// Records a violation of delayed run `r` reported at `at`, explained by
/// its monitor (the monitor's words passed through `why`) and the last
/// complete letters.
fn report_delayed(
    r: &mut Run,
    f: &FutureRun,
    at: Position,
    options: Options,
    on_violation: &mut dyn FnMut(&str, &ViolationReport),
    why: impl FnOnce(String) -> String,
) {
    r.report.violation_count += 1;
    r.report.verdict = Verdict::Violated;
    r.report.first_violation.get_or_insert_with(|| at.clone());
    let limit = if options.all { options.max_reports } else { 1 };
    if r.report.violations.len() < limit {
        let (explanation, after, letters) = match &mut r.monitor {
            Engine::Eager(table) => {
                let t = table.table();
                let w = r.cursor.violation(&t).expect("violated");
                (w.to_string(), w.after.to_string(), w.letters.to_string())
            }
            Engine::Lazy(m) => {
                let w = m.violation().expect("violated");
                (w.to_string(), String::new(), w.letters)
            }
        };
        let recent = f
            .recent
            .iter()
            .map(|(pos, bits)| {
                let held: Vec<String> = r
                    .atoms
                    .iter()
                    .enumerate()
                    .filter(|&(_, &k)| atom_bit(bits, k) == 1)
                    .map(|(i, _)| r.monitor.proposition(i).to_string())
                    .collect();
                (pos.clone(), held)
            })
            .collect();
        // The fields' values are not kept for the letters that waited:
        // the recent letters show the propositions instead.
        let v = ViolationReport {
            at,
            explanation: why(explanation),
            after,
            letters,
            values: Vec::new(),
            recent,
            shown: Vec::new(),
        };
        on_violation(&r.report.property, &v);
        r.report.violations.push(v);
    }
    if options.all {
        r.reset();
    } else {
        r.done = true;
    }
}

/// The end of the input for delayed run `r`: the letters its end time
/// decides are stepped, and those still waiting are read every way (the
/// log ended before their deadlines): a violation only if every way
/// violates. Once per trace.
fn end_delayed(r: &mut Run, end: Option<i64>, options: Options) {
    let Some(TimedRun {
        engine: TimedEngine::Future(f),
        ..
    }) = &mut r.timed
    else {
        return;
    };
    if f.ended {
        return;
    }
    f.ended = true;
    f.delayed.finish(end);
    step_delayed(r, None, options, &mut |_, _| {});
    if r.done {
        return;
    }
    let Some(mut timed) = r.timed.take() else {
        return;
    };
    let TimedEngine::Future(f) = &mut timed.engine else {
        unreachable!("checked above")
    };
    // Every way: the states the monitor may be in, each letter's unknown
    // propositions read both ways. Eager monitors of at most 64
    // propositions only (a lazy one would build transitions for nothing).
    if let (Engine::Eager(table), true) = (&r.monitor, r.atoms.len() <= 64) {
        let t = table.table();
        let mut states = vec![r.cursor.state()];
        for k in 0..f.delayed.pending() {
            let (_, _, known) = f.delayed.pending_letter(k);
            let pos = &f.waiting[k as usize];
            let at = k as usize * f.words;
            let mut bits: Vec<u64> = f.waiting_bits.range(at..at + f.words).copied().collect();
            let mut unknown = Vec::new();
            for (&out, value) in timed.outputs.iter().zip(&known) {
                if let Some(a) = out {
                    match value {
                        Some(v) => set_atom(&mut bits, a, *v),
                        None => unknown.extend(r.atoms.iter().position(|&x| x == a)),
                    }
                }
            }
            if unknown.len() > MAX_UNKNOWN_ATOMS {
                // Too many ways: undecided.
                break;
            }
            let letter = r.letter(&bits);
            let mut next: Vec<u32> = Vec::new();
            for &s in &states {
                for c in 0u64..1 << unknown.len() {
                    let mut l = letter;
                    for (n, &b) in unknown.iter().enumerate() {
                        l = (l & !(1 << b)) | (((c >> n) & 1) << b);
                    }
                    let to = t.next(s, l);
                    if to != VIOLATION {
                        next.push(to);
                    }
                }
            }
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                // Every way violates by this letter.
                r.cursor.reset();
                r.cursor.enter(&t, states[0]);
                r.cursor.enter(&t, VIOLATION);
                f.recent.push_back((pos.clone(), bits));
                if f.recent.len() > options.context + 1 {
                    f.recent.pop_front();
                }
                let at = f.last.clone().unwrap_or_default();
                let pos = pos.clone();
                let why = |why: String| {
                    format!(
                        "{why}; for {pos}{}, whose deadline had not passed when the input \
                         ended: every value of its waiting propositions violates",
                        time_of(&pos)
                    )
                };
                report_delayed(
                    r,
                    f,
                    at,
                    Options {
                        all: false,
                        ..options
                    },
                    &mut |_, _| {},
                    why,
                );
                break;
            }
            states = next;
        }
    }
    r.timed = Some(timed);
}

/// A field's value as a violation's explanation shows it.
pub(crate) fn cell_text(cell: Option<Cell<'_>>) -> String {
    match cell {
        None => "(absent)".to_string(),
        Some(Cell::Text(s)) => s.to_string(),
        Some(Cell::Json(v)) => v.to_string(),
        Some(Cell::Bits(b)) => String::from_utf8_lossy(b).into_owned(),
        Some(Cell::Real(x)) => x.to_string(),
        Some(Cell::Bool(b)) => b.to_string(),
        Some(Cell::Int(i)) => i.to_string(),
    }
}

/// The report of a violation that just happened.
fn explain<R: Reader + ?Sized>(
    r: &mut Run,
    reader: &R,
    ring: &Ring,
    show: &[String],
) -> ViolationReport {
    let (explanation, after, letters) = match &mut r.monitor {
        Engine::Eager(table) => {
            let t = table.table();
            let why = r.cursor.violation(&t).expect("violated");
            (
                why.to_string(),
                why.after.to_string(),
                why.letters.to_string(),
            )
        }
        Engine::Lazy(m) => {
            let why = m.violation().expect("violated");
            (why.to_string(), String::new(), why.letters)
        }
    };
    let values = r
        .fields
        .iter()
        .map(|(name, id)| (name.clone(), cell_text(reader.cell(*id))))
        .collect();
    let recent = ring
        .iter()
        .map(|(pos, bits)| {
            let held: Vec<String> = r
                .atoms
                .iter()
                .enumerate()
                .filter(|&(_, &k)| atom_bit(bits, k) == 1)
                .map(|(i, _)| r.monitor.proposition(i).to_string())
                .collect();
            (pos.clone(), held)
        })
        .collect();
    let shown = if show.is_empty() {
        Vec::new()
    } else {
        ring.iter_shown()
            .map(|(_, values)| shown_pairs(show, values))
            .collect()
    };
    ViolationReport {
        at: reader.position(),
        explanation,
        after,
        letters,
        values,
        recent,
        shown,
    }
}

/// The shown fields `show` paired with their texts `values` at one event
/// (absent where `values` has none: an event kept before the fields were
/// shown).
pub(crate) fn shown_pairs(
    show: &[String],
    values: &[Option<String>],
) -> Vec<(String, Option<String>)> {
    show.iter()
        .enumerate()
        .map(|(i, f)| (f.clone(), values.get(i).cloned().flatten()))
        .collect()
}

/// The text of a field shown at an event ([`Checker::set_show`]): a JSON
/// string without its quotes, any other value as JSON writes it; `None`
/// where the event has no such field.
pub(crate) fn shown_text(cell: Option<Cell<'_>>) -> Option<String> {
    Some(match cell? {
        Cell::Text(s) => s.to_string(),
        Cell::Json(serde_json::Value::String(s)) => s.clone(),
        Cell::Json(v) => v.to_string(),
        Cell::Bits(b) => String::from_utf8_lossy(b).into_owned(),
        Cell::Real(x) => x.to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Int(i) => i.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::summary::tests::monitor_of;
    use crate::trace::reader::{CsvReader, JsonlReader};

    #[test]
    fn checking_a_csv_log_equals_the_monitor_step_by_step() {
        let mut rng = SplitMix64::new(7);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 8).seed(3).with_past();
        for i in 0..200 {
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, i % 2 == 1) else {
                continue;
            };
            let t = table.table();
            let len = (rng.next_u64() % 40) as usize;
            let letters: Vec<u64> = (0..len).map(|_| rng.next_u64() & 7).collect();
            let mut csv = String::from("a,b,c\n");
            let mut jsonl = String::new();
            for l in &letters {
                csv.push_str(&format!("{},{},{}\n", l & 1, (l >> 1) & 1, (l >> 2) & 1));
                jsonl.push_str(&format!(
                    "{{\"a\": {}, \"b\": {}, \"c\": {}}}\n",
                    l & 1 == 1,
                    (l >> 1) & 1,
                    (l >> 2) & 1
                ));
            }
            // The reference: the table, letter by letter, with letters
            // renumbered to the table's propositions.
            let names: Vec<&str> = (0..t.props as usize).map(|i| t.proposition(i)).collect();
            let mut c = Cursor::new();
            let mut first_violation = None;
            let mut first_satisfied = None;
            for (k, l) in letters.iter().enumerate() {
                let mut letter = 0u64;
                for (i, n) in names.iter().enumerate() {
                    let bit = ["a", "b", "c"].iter().position(|x| x == n).unwrap();
                    letter |= ((l >> bit) & 1) << i;
                }
                match c.step(&t, letter) {
                    Verdict::Violated => {
                        first_violation = Some(k as u64);
                        break;
                    }
                    Verdict::Satisfied if first_satisfied.is_none() => {
                        first_satisfied = Some(k as u64);
                        break;
                    }
                    _ => {}
                }
            }
            let bindings: Vec<Expr> = names.iter().map(|n| Expr::parse(n).unwrap()).collect();
            let prop = Property::new(&f.to_spot(), table.clone(), bindings);
            let mut checker = Checker::new(vec![prop], Options::default());
            // CSV lines start after the header; JSON Lines at line 1.
            for (reports, first_line) in [
                (
                    checker
                        .run(&mut CsvReader::new("t.csv", csv.as_bytes()).unwrap())
                        .unwrap(),
                    2,
                ),
                (
                    checker
                        .run(&mut JsonlReader::new("t.jsonl", jsonl.as_bytes()))
                        .unwrap(),
                    1,
                ),
            ] {
                let r = &reports[0];
                assert_eq!(
                    r.violations.first().map(|v| v.at.index),
                    first_violation,
                    "{f}: {letters:?}"
                );
                assert_eq!(
                    r.satisfied_at.as_ref().map(|p| p.index),
                    first_satisfied,
                    "{f}"
                );
                if let Some(v) = r.violations.first() {
                    assert_eq!(v.at.line, Some(v.at.index + first_line), "{f}");
                    assert_eq!(v.recent.last().map(|(p, _)| p), Some(&v.at));
                }
            }
        }
    }

    #[test]
    fn properties_checked_together_are_each_checked_right() {
        // A violation of one property must not disturb the others (it
        // once did: the other runs stepped twice). 16 atoms is more than
        // LUT_ATOMS (letters gathered per event), 10 fewer (tabulated).
        for width in [16usize, 10] {
            several_properties(width);
        }
    }

    fn several_properties(width: usize) {
        let mut rng = SplitMix64::new(41 + width as u64);
        let names: Vec<String> = (0..width).map(|i| format!("f{i}")).collect();
        let mut csv = names.join(",") + "\n";
        let rows: Vec<u64> = (0..300).map(|_| rng.next_u64() | rng.next_u64()).collect();
        for r in &rows {
            let cells: Vec<String> = (0..width).map(|i| ((r >> i) & 1).to_string()).collect();
            csv.push_str(&(cells.join(",") + "\n"));
        }
        let props: Vec<Property> = (0..width - 1)
            .map(|i| {
                let f = format!("G(f{i} -> X f{})", i + 1);
                let table = MonitorTable::from_ltl(&f).unwrap();
                let t = table.table();
                let b = (0..t.props as usize)
                    .map(|p| Expr::parse(t.proposition(p)).unwrap())
                    .collect();
                Property::new(&f, table, b)
            })
            .collect();
        let mut checker = Checker::new(props, Options::default());
        let reports = checker
            .run(&mut CsvReader::new("t.csv", csv.as_bytes()).unwrap())
            .unwrap();
        for (i, r) in reports.iter().enumerate() {
            // The reference: the first k with f_i at k and not f_{i+1} at k + 1.
            let want = (0..rows.len() - 1)
                .find(|&k| (rows[k] >> i) & 1 == 1 && (rows[k + 1] >> (i + 1)) & 1 == 0)
                .map(|k| k as u64 + 1);
            assert_eq!(
                r.violations.first().map(|v| v.at.index),
                want,
                "{}",
                r.property
            );
        }
    }

    /// A reset that holds some monitors and not others: each property's
    /// reports are those of a checker of it alone, with the reset if it
    /// holds it and without otherwise, whatever the engine (fast lanes,
    /// three-valued cursors, lazy monitors).
    #[test]
    fn a_reset_holds_only_the_monitors_it_is_told_to() {
        let mut rng = SplitMix64::new(11);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 7).seed(5).with_past();
        let mut checked = 0;
        for round in 0..60 {
            let mut formulas = Vec::new();
            while formulas.len() < 6 {
                let f = random_ltl.next_formula();
                let lazy = crate::lazy::LazyMonitor::new(&f, &crate::translate::Config::new());
                if monitor_of(&f, false).is_some() && lazy.is_ok() {
                    formulas.push(f);
                }
            }
            let make = |k: usize, f: &crate::formula::Formula| -> Property {
                let name = format!("p{k}");
                let monitor = match k % 3 {
                    0 => Engine::Eager(monitor_of(f, false).unwrap()),
                    1 => Engine::Eager(monitor_of(f, true).unwrap()),
                    _ => Engine::Lazy(Box::new(
                        crate::lazy::LazyMonitor::new(f, &crate::translate::Config::new()).unwrap(),
                    )),
                };
                let props: Vec<String> = (0..monitor.props())
                    .map(|i| monitor.proposition(i).to_string())
                    .collect();
                Property {
                    name,
                    monitor,
                    bindings: props.iter().map(|p| Expr::parse(p).unwrap()).collect(),
                    timed: None,
                }
            };
            let held: Vec<bool> = (0..formulas.len())
                .map(|_| rng.next_u64() % 2 == 0)
                .collect();
            let mut csv = String::from("r,a,b,c\n");
            for _ in 0..(rng.next_u64() % 30) {
                let l = rng.next_u64();
                // Resets come in runs: at the start, in the middle.
                let r = u64::from(l % 5 == 0);
                csv.push_str(&format!(
                    "{r},{},{},{}\n",
                    (l >> 3) & 1,
                    (l >> 4) & 1,
                    (l >> 5) & 1
                ));
            }
            let reset = Expr::parse("r").unwrap();
            let options = Options {
                all: round % 2 == 0,
                ..Options::default()
            };
            let props = formulas
                .iter()
                .enumerate()
                .map(|(k, f)| make(k, f))
                .collect();
            let mut together = Checker::new(props, options);
            together.set_reset(Some(reset.clone()));
            for (i, &h) in held.iter().enumerate() {
                together.set_held_in_reset(i, h);
            }
            let reports = together
                .run(&mut CsvReader::new("t.csv", csv.as_bytes()).unwrap())
                .unwrap();
            for (k, f) in formulas.iter().enumerate() {
                let mut alone = Checker::new(vec![make(k, f)], options);
                if held[k] {
                    alone.set_reset(Some(reset.clone()));
                }
                let want = alone
                    .run(&mut CsvReader::new("t.csv", csv.as_bytes()).unwrap())
                    .unwrap();
                let at =
                    |r: &Report| -> Vec<u64> { r.violations.iter().map(|v| v.at.index).collect() };
                assert_eq!(
                    (
                        reports[k].verdict,
                        reports[k].violation_count,
                        at(&reports[k])
                    ),
                    (want[0].verdict, want[0].violation_count, at(&want[0])),
                    "{} (held: {}) on\n{csv}",
                    f.to_spot(),
                    held[k]
                );
                checked += usize::from(want[0].violation_count > 0);
            }
        }
        assert!(checked > 20, "too few violations to compare: {checked}");
    }

    /// Unknown values (x, z) in a waveform are read both ways: the
    /// verdicts equal those of every way of reading them where they all
    /// agree, and where some way violates and another does not, the check
    /// stops with an error at that event. The reference: the trace checked
    /// once per way of reading its unknown values, as plain 0s and 1s.
    #[test]
    fn unknown_values_are_read_both_ways() {
        use crate::trace::reader::VcdReader;
        let mut rng = SplitMix64::new(23);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 7).seed(9).with_past();
        let (mut decided, mut errors) = (0, 0);
        for round in 0..300 {
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, round % 3 == 0) else {
                continue;
            };
            let len = 1 + (rng.next_u64() % 7) as usize;
            // Each event: a, b, c as 0, 1 or x (an x now and then).
            let events: Vec<[u8; 3]> = (0..len)
                .map(|_| {
                    let mut e = [b'0'; 3];
                    for v in &mut e {
                        let r = rng.next_u64() % 10;
                        *v = if r == 0 {
                            b'x'
                        } else if r < 5 {
                            b'0'
                        } else {
                            b'1'
                        };
                    }
                    e
                })
                .collect();
            let xs: Vec<(usize, usize)> = (0..len)
                .flat_map(|t| (0..3).map(move |p| (t, p)))
                .filter(|&(t, p)| events[t][p] == b'x')
                .collect();
            if xs.len() > 4 {
                continue;
            }
            let mut vcd = String::from(
                "$var wire 1 ! a $end\n$var wire 1 \" b $end\n$var wire 1 # c $end\n$enddefinitions $end\n",
            );
            for (t, e) in events.iter().enumerate() {
                vcd.push_str(&format!(
                    "#{t}\n{}!\n{}\"\n{}#\n",
                    e[0] as char, e[1] as char, e[2] as char
                ));
            }
            let t = table.table();
            let names: Vec<String> = (0..t.props as usize)
                .map(|i| t.proposition(i).to_string())
                .collect();
            let property = || {
                Property::new(
                    "p",
                    table.clone(),
                    names.iter().map(|n| Expr::parse(n).unwrap()).collect(),
                )
            };
            // The reference: each way, checked as a CSV of 0s and 1s.
            let mut firsts = Vec::new();
            for way in 0u32..1 << xs.len() {
                let mut csv = String::from("a,b,c\n");
                for (ti, e) in events.iter().enumerate() {
                    let v: Vec<String> = (0..3)
                        .map(|p| match xs.iter().position(|&x| x == (ti, p)) {
                            Some(n) => ((way >> n) & 1).to_string(),
                            None => (e[p] as char).to_string(),
                        })
                        .collect();
                    csv.push_str(&v.join(","));
                    csv.push('\n');
                }
                let mut c = Checker::new(vec![property()], Options::default());
                let r = c
                    .run(&mut CsvReader::new("t.csv", csv.as_bytes()).unwrap())
                    .unwrap();
                firsts.push((
                    r[0].violations.first().map(|v| v.at.index),
                    r[0].satisfied_at.as_ref().map(|p| p.index),
                ));
            }
            let first = firsts.iter().filter_map(|f| f.0).min();
            let mut c = Checker::new(vec![property()], Options::default());
            let got = c.run(&mut VcdReader::new("t.vcd", vcd.as_bytes(), None).unwrap());
            let ctx = format!("{} on {events:?}: {firsts:?}", f.to_spot());
            match first {
                // Some way violates first at `m`: all ways then, or an error there.
                Some(m) if firsts.iter().all(|f| f.0 == Some(m)) => {
                    let r = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    assert_eq!(
                        r[0].violations.first().map(|v| v.at.index),
                        Some(m),
                        "{ctx}"
                    );
                    decided += 1;
                }
                Some(m) => {
                    let e = got.expect_err(&ctx);
                    assert_eq!(e.at, Some(format!("time {m} (cycle {m})")), "{ctx}: {e}");
                    assert!(
                        e.message.contains("depends on unknown (x/z) values"),
                        "{ctx}: {e}"
                    );
                    errors += 1;
                }
                None => {
                    let r = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    assert_eq!(r[0].violation_count, 0, "{ctx}");
                    // A good prefix is reported where every way has one.
                    let sat = firsts.iter().map(|f| f.1).collect::<Option<Vec<_>>>();
                    let want = sat.map(|s| *s.iter().max().unwrap());
                    assert_eq!(r[0].satisfied_at.as_ref().map(|p| p.index), want, "{ctx}");
                }
            }
        }
        assert!(
            decided > 10 && errors > 10,
            "decided {decided}, errors {errors}"
        );
    }

    /// Past 6 unknown propositions at one event, the error names them and
    /// the limit.
    #[test]
    fn too_many_unknown_values_name_the_limit() {
        use crate::trace::reader::VcdReader;
        let names = ["a", "b", "c", "d", "e", "f", "g"];
        let mut vcd = String::new();
        for (i, n) in names.iter().enumerate() {
            vcd.push_str(&format!(
                "$var wire 1 {} {n} $end\n",
                (b'!' + i as u8) as char
            ));
        }
        vcd.push_str("$enddefinitions $end\n#0\n");
        for i in 0..names.len() {
            vcd.push_str(&format!("x{}\n", (b'!' + i as u8) as char));
        }
        let f = "G(a | b | c | d | e | f | g)";
        let table = MonitorTable::from_ltl(f).unwrap();
        let t = table.table();
        let bindings = (0..t.props as usize)
            .map(|i| Expr::parse(t.proposition(i)).unwrap())
            .collect();
        let mut c = Checker::new(
            vec![Property::new(f, table.clone(), bindings)],
            Options::default(),
        );
        let e = c
            .run(&mut VcdReader::new("t.vcd", vcd.as_bytes(), None).unwrap())
            .unwrap_err();
        assert!(
            e.message
                .starts_with("7 propositions are unknown (x/z) here (`a`, `b`"),
            "{e}"
        );
        assert!(e.message.ends_with("at most 6 are read both ways"), "{e}");
    }

    /// The string tests of a whole field are read from its text
    /// (`tests/text_atoms.rs` checks that path against the general one);
    /// a selected field or a string against a string is the general
    /// evaluation's.
    #[test]
    fn a_field_against_strings_is_a_text_atom() {
        let texts = [
            "x == \"a\"",
            "\"a\" <= x",
            "x !== \"a\"",
            "x in [\"a\", \"b\"]",
            "x not in [\"a\"]",
            "x contains \"a\"",
            "x matches /a/",
        ];
        let general = [
            "x[0] == \"1\"",
            "\"a\" == \"a\"",
            "x in [1, \"a\"]",
            "!(x == \"a\")",
        ];
        let table = MonitorTable::from_ltl("p").unwrap();
        let bindings = texts
            .iter()
            .chain(&general)
            .map(|t| Expr::parse(t).unwrap());
        let properties = bindings
            .map(|b| Property::new("p", table.clone(), vec![b]))
            .collect();
        let mut c = Checker::new(properties, Options::default());
        let bound = c
            .bind(&mut CsvReader::new("t.csv", "x\n".as_bytes()).unwrap())
            .unwrap();
        let kinds: Vec<bool> = bound
            .fast
            .iter()
            .map(|f| matches!(f, FastAtom::Text(_)))
            .collect();
        let want: Vec<bool> = texts
            .iter()
            .map(|_| true)
            .chain(general.iter().map(|_| false))
            .collect();
        assert_eq!(kinds, want);
    }
}
