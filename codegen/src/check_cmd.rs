//! `mongen check`: properties over traces (CSV, JSON Lines).

use std::fmt::Write as _;
use std::io::{self, BufReader, Read, Write as _};
use std::path::Path;

use mongen::emit::hardware::clocking::Reset;
use mongen::trace_report::{
    bind_timed, live_json, partial_report_json, report_json, reports_before_error, verdict_word,
};
use monitor_core::lazy::LazyMonitor;
use monitor_core::trace::check::{Checker, Engine, Options, Report, ViolationReport};
use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::reader::{CsvReader, Edge, JsonlReader, Position, TraceError, VcdReader};
use monitor_core::trace::{escape, escape_json};
use monitor_core::translate::{Builder, Config, Verdicts};
use monitor_core::{MonitorTable, Verdict};

use super::cli_input::{file_spec, read_sources, Item, Language, Source};
use super::vunit_input::{read_vunits, VunitProperties};
use super::{CheckArgs, Run, TimeOrderArg, TraceFormat};
use monitor_core::formula::metric::TimedComponent;
use monitor_core::formula::{ActiveLevel, ClockEdge, Directive, DirectiveKind, Formula};

mod input;
mod keyed;
mod totals;

use input::{Compression, Follow, Progress};
use totals::Totals;

/// A clock signal and its sampling edge.
type ClockSpec = (String, Edge);

/// The reset of the properties checked in a waveform.
#[derive(Clone, Debug, PartialEq)]
enum ResetSpec {
    /// One signal, as `--reset` writes it (`rst_n:low:async`).
    Signal(String),
    /// A condition of the signals (a compound `disable iff`), in the
    /// syntax of [`Expr`]: the monitors are held while it is true.
    Condition {
        expression: String,
        asynchronous: bool,
    },
}

impl std::fmt::Display for ResetSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResetSpec::Signal(s) => write!(f, "{s}"),
            ResetSpec::Condition { expression, .. } => write!(f, "disable iff ({expression})"),
        }
    }
}

/// The clock (signal and edge) and the reset (as `--reset` writes it) of
/// the directives of a vunit that are checked, or why they have none in
/// common (unless the options give them: `clock_given`, `reset_given`).
fn vunit_clocking(
    v: &VunitProperties,
    clock_given: bool,
    reset_given: bool,
) -> Result<(Option<ClockSpec>, Option<ResetSpec>), String> {
    let checked: Vec<&Directive> = v
        .directives
        .iter()
        .filter(|d| d.kind != DirectiveKind::Cover)
        .collect();
    directives_clocking(&checked, clock_given, reset_given)
}

/// The clock and the reset of `checked` (a vunit's directives, or SVA
/// assertions), or why they have none in common (unless the options give
/// them: `clock_given`, `reset_given`).
fn directives_clocking(
    checked: &[&Directive],
    clock_given: bool,
    reset_given: bool,
) -> Result<(Option<ClockSpec>, Option<ResetSpec>), String> {
    let mut clocks: Vec<ClockSpec> = Vec::new();
    let mut resets: Vec<ResetSpec> = Vec::new();
    for d in checked {
        let clock = d.clock.as_ref().map(|c| {
            let edge = match c.edge {
                ClockEdge::Posedge => Edge::Posedge,
                ClockEdge::Negedge => Edge::Negedge,
            };
            (c.signal.clone(), edge)
        });
        let reset = match &d.disable {
            _ if reset_given => None,
            None => None,
            Some(dis) => match dis.signal() {
                Some((name, level)) => Some(ResetSpec::Signal(format!(
                    "{name}:{}:{}",
                    if level == ActiveLevel::Low {
                        "low"
                    } else {
                        "high"
                    },
                    if dis.synchronous { "sync" } else { "async" }
                ))),
                // A compound condition (`!rst_ni || flush_i`) holds the
                // monitors while it is true, as the checker's port does.
                None => match crate::compile_cmd::condition_text(
                    &dis.condition,
                    &crate::compile_cmd::condition_atom,
                    "true",
                    "false",
                ) {
                    Some(expression) => Some(ResetSpec::Condition {
                        expression,
                        asynchronous: !dis.synchronous,
                    }),
                    None => {
                        return Err(format!(
                            "the reset `{}` is not a Boolean expression of the trace's signals: \
                             give one with --reset NAME[:low|high][:sync|async]",
                            dis.condition
                        ))
                    }
                },
            },
        };
        if let Some(c) = clock {
            if !clocks.contains(&c) {
                clocks.push(c);
            }
        }
        if let Some(r) = reset {
            if !resets.contains(&r) {
                resets.push(r);
            }
        }
    }
    if clocks.len() > 1 && !clock_given {
        return Err(format!(
            "the properties have {} clocks ({}): check them one clock at a time, with --clock",
            clocks.len(),
            clocks
                .iter()
                .map(|(n, e)| format!(
                    "{} {n}",
                    if *e == Edge::Posedge {
                        "posedge"
                    } else {
                        "negedge"
                    }
                ))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if resets.len() > 1 && !reset_given {
        return Err(format!(
            "the properties have {} resets ({}): give the one to use with --reset",
            resets.len(),
            resets
                .iter()
                .map(ResetSpec::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Ok((clocks.pop(), resets.pop()))
}

/// What `mongen check` found: whether some property was violated.
pub fn check(args: &CheckArgs, run: &mut Run) -> Result<bool, String> {
    if args.items.is_empty() && args.vunit.is_none() && args.sv.file.is_none() {
        return Err(
            "no property given (pass -f FORMULA, -F FILE, --vunit FILE or --sv FILE)".into(),
        );
    }
    let stdin_properties = args.items.iter().any(|i| match i {
        Item::File(p) => file_spec(p).is_ok_and(|s| s.path.as_os_str() == "-"),
        Item::Formula(_) => false,
    });
    if stdin_properties && args.traces.iter().any(|t| t.as_os_str() == "-") {
        return Err("standard input cannot hold both the properties (-F -) and a trace (-)".into());
    }
    let vunits = match &args.vunit {
        Some(path) => Some(read_vunits(path)?),
        None => args.sv.read(&args.items)?,
    };
    if let Some(v) = &vunits {
        v.report_refused(run)?;
    }
    // Each property: its source, its formula and the name it is reported by.
    let mut properties_in: Vec<(Source, Formula, String)> = Vec::new();
    // The timed components of each (its past metric operators, LTL only).
    let mut timed_in: Vec<Vec<TimedComponent>> = Vec::new();
    // Whether the reset holds it: a directive (of a vunit, or an SVA
    // assertion) without `disable iff` is checked in reset too, unless
    // --reset says to hold every property.
    let mut held: Vec<bool> = Vec::new();
    let sources = match &vunits {
        Some(v) => {
            for (k, d) in v.directives.iter().enumerate() {
                if d.kind == DirectiveKind::Cover {
                    if !args.quiet {
                        eprintln!(
                            "mongen: note: `{}`: a cover directive, not checked",
                            escape(&v.names[k])
                        );
                    }
                    continue;
                }
                properties_in.push((v.sources[k].clone(), d.formula.clone(), v.names[k].clone()));
                timed_in.push(Vec::new());
                held.push(args.reset.is_some() || d.disable.is_some());
            }
            if properties_in.is_empty() {
                return Err(format!(
                    "{}: no assert, assume or restrict directive to check",
                    args.vunit
                        .as_ref()
                        .or(args.sv.file.as_ref())
                        .map_or(String::new(), |p| escape(&p.display().to_string())
                            .into_owned())
                ));
            }
            Vec::new()
        }
        None => read_sources(&args.items, Language::of(args.psl, args.sva))?,
    };
    // SVA assertions bring their clock and reset, as a vunit's directives.
    let mut assertions: Vec<Directive> = Vec::new();
    let sva_signals = crate::cli_input::sva_signals(&args.inputs);
    for src in &sources {
        let f = if src.lang == Language::Sva {
            let (f, d) = src.parse_directive_with(&sva_signals)?;
            held.push(args.reset.is_some() || d.as_ref().is_none_or(|d| d.disable.is_some()));
            if let Some(d) = d {
                if d.kind == DirectiveKind::Cover {
                    return Err(format!(
                        "`{}`: a cover, not checked (check its sequence with `assert property (not ...)`)",
                        escape(&src.label(&f))
                    ));
                }
                assertions.push(d);
            }
            timed_in.push(Vec::new());
            f
        } else {
            held.push(true);
            let (f, timed) = src.parse_timed()?;
            timed_in.push(timed);
            f
        };
        // A timed property is reported as written: printed, its metric
        // operators would be quoted propositions.
        let label = match src.written() {
            Some(w) => w.to_string(),
            None if timed_in.last().is_some_and(|t| !t.is_empty()) => src.text.trim().to_string(),
            None => f.to_spot(),
        };
        properties_in.push((src.clone(), f, label));
    }
    if properties_in.is_empty() {
        return Err(
            "no property given: the input holds none (blank lines and lines starting with '#' are skipped)"
                .into(),
        );
    }
    let config = Config::new()
        .max_states(Some(args.max_states))
        .max_memory(Some(args.max_memory))
        .verdicts(if args.verdicts == 3 {
            Verdicts::Three
        } else {
            Verdicts::Two
        });
    let mut builder = Builder::new();
    builder.configure(config.clone());
    let mut monitors = Vec::new();
    // An --sv file's assertion whose monitor cannot be built (past a
    // budget) is an error, as a refused one is: the others are checked.
    let one_by_one = vunits.as_ref().is_some_and(|v| v.sv.is_some());
    let count = properties_in.len();
    let mut built_held = Vec::with_capacity(held.len());
    for (k, (src, f, label)) in properties_in.into_iter().enumerate() {
        let built = if args.lazy {
            LazyMonitor::new(&f, &config)
                .map(|m| Engine::Lazy(Box::new(m.with_cache_capacity(args.lazy_cache << 20))))
        } else {
            builder.build_from_formula(&f).map(|t| {
                if t.is_safety() == Some(false) && !args.quiet {
                    eprintln!(
                        "mongen: warning: `{}` is not a safety property; only the bad prefixes of its safety closure are detected",
                        escape(&label)
                    );
                }
                Engine::Eager(MonitorTable::from_dfa(t.dfa()))
            })
        };
        match built {
            Ok(monitor) => {
                monitors.push((label, monitor, std::mem::take(&mut timed_in[k])));
                built_held.push(held[k]);
            }
            Err(e) if one_by_one => {
                run.error(&format!("`{}`: {}", escape(&label), src.describe(&f, &e)))
            }
            Err(e) => return Err(src.describe(&f, &e)),
        }
    }
    if monitors.is_empty() {
        return Err(format!(
            "none of the {count} assertions has a monitor to check"
        ));
    }
    let held = built_held;
    let timed = monitors
        .iter()
        .find(|(_, _, t)| !t.is_empty())
        .map(|(label, _, t)| {
            format!(
                "`{}` has time bounds (`{}`)",
                escape(label),
                escape(&t[0].name)
            )
        });
    if let Some(timed) = &timed {
        if args.time.is_none() {
            return Err(format!(
                "{timed}: give the field that holds each event's time, --time FIELD[:UNIT]"
            ));
        }
        // Past bounds are computed per key; deadlines not yet.
        let looks_ahead = monitors
            .iter()
            .find_map(|(label, _, t)| Some((label, t.iter().find(|c| c.kind.is_future())?)));
        if let (Some((label, c)), false) = (looks_ahead, args.by.is_empty()) {
            return Err(format!(
                "`{}` looks ahead in time (`{}`): deadlines are not supported with --by yet; \
                 past time bounds (`O`, `H`, `S`) are",
                escape(label),
                escape(&c.name)
            ));
        }
    }
    let properties = bind_timed(monitors, &args.defines)?;
    let options = Options {
        all: args.all,
        max_reports: args.max_reports,
        strict_fields: args.strict_fields,
        ..Options::default()
    };
    if let Some(f) = args.show.iter().find(|f| f.is_empty()) {
        return Err(format!("--show `{f}`: a field has a name"));
    }
    // --by checks each key apart, with its own checker.
    let keyed_properties = (!args.by.is_empty()).then(|| properties.clone());
    let mut checker = Checker::new(properties, options);
    checker.set_show(args.show.clone());
    checker.set_time(args.time.clone(), args.time_order.into());
    if let (Some(end), Some(spec)) = (&args.end_time, &args.time) {
        let t = spec
            .format
            .read(Some(monitor_core::trace::expr::Cell::Text(end.trim())))
            .map_err(|e| format!("--end-time {}: {e}", escape(end)))?;
        checker.set_end_time(Some(t.nanos));
    }
    let clock = match &args.clock {
        None => None,
        Some(c) => Some(match c.rsplit_once(':') {
            Some((n, "posedge")) => (n.to_string(), Edge::Posedge),
            Some((n, "negedge")) => (n.to_string(), Edge::Negedge),
            Some((_, e)) => {
                return Err(format!(
                    "--clock {c}: the edge is posedge or negedge, not `{e}`"
                ))
            }
            None => (c.clone(), Edge::Posedge),
        }),
    };
    // A vunit's (or the SVA assertions') clock and reset, where the
    // options give none.
    let given = args.reset.clone().map(ResetSpec::Signal);
    let (clock, reset) = match &vunits {
        Some(v) => {
            let (c, r) = vunit_clocking(v, clock.is_some(), args.reset.is_some())?;
            (clock.or(c), given.or(r))
        }
        None if !assertions.is_empty() => {
            let checked: Vec<&Directive> = assertions.iter().collect();
            let (c, r) = directives_clocking(&checked, clock.is_some(), args.reset.is_some())?;
            (clock.or(c), given.or(r))
        }
        None => (clock, given),
    };
    // On logs (every trace CSV or JSON Lines), an SVA assertion's
    // `disable iff` is the one in its formula (`accept_on`, the
    // standard's meaning for every attempt), as `mongen.check(...,
    // sva=True)` reads it: a row has no reset to hold the monitor in.
    // (A PSL vunit's reset is only beside its formula: still refused.)
    let sva_only = assertions.len() + vunits.as_ref().map_or(0, |v| v.directives.len()) > 0
        && vunits.as_ref().is_none_or(|v| v.sv.is_some());
    let logs_only = args.traces.iter().all(|p| {
        let format = args.format.map_or_else(|| format_of(p), Ok);
        format.is_ok_and(|f| f != TraceFormat::Vcd)
    });
    let reset = if sva_only && logs_only && args.reset.is_none() {
        None
    } else {
        reset
    };
    let pool = match args.jobs {
        Some(n) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(n.into())
                .build()
                .map_err(|e| format!("--jobs {n}: {e}"))?,
        ),
        None => None,
    };
    if let Some(properties) = keyed_properties {
        if clock.is_some() || reset.is_some() {
            return Err(format!(
                "--by is for CSV and JSON Lines; --clock and --reset{} are for VCD waveforms",
                if vunits.is_some() || !assertions.is_empty() {
                    " (and a vunit's or an assertion's clock and disable iff)"
                } else {
                    ""
                }
            ));
        }
        return keyed::check(args, run, properties, options, pool.as_ref());
    }
    let mut async_reset = None;
    let mut async_condition = None;
    match &reset {
        Some(ResetSpec::Signal(spec)) => {
            let r = Reset::parse_signal(spec).map_err(|e| format!("--reset {spec}: {e}"))?;
            let e = Expr::parse(&format!(
                "{}{}",
                if r.active_low { "!" } else { "" },
                r.name
            ))
            .map_err(|e| format!("--reset {spec}: {e}"))?;
            checker.set_reset(Some(e));
            if r.asynchronous {
                async_reset = Some(r);
            }
        }
        Some(ResetSpec::Condition {
            expression,
            asynchronous,
        }) => {
            let e = Expr::parse(expression)
                .map_err(|e| format!("the reset condition `{expression}`: {e}"))?;
            if *asynchronous {
                async_condition = Some(e.clone());
            }
            checker.set_reset(Some(e));
        }
        None => {}
    }
    if reset.is_some() {
        for (i, &h) in held.iter().enumerate() {
            checker.set_held_in_reset(i, h);
        }
    }
    if args.follow && args.traces.len() > 1 {
        return Err("--follow follows one trace".into());
    }
    let mut violated = false;
    let mut totals = Totals::default();
    for path in &args.traces {
        let name = path.display().to_string();
        // The name as messages show it (a file name may hold anything).
        let shown = escape(&name).into_owned();
        let format = match args.format {
            Some(f) => f,
            None => format_of(path)?,
        };
        if format != TraceFormat::Vcd && (clock.is_some() || reset.is_some()) {
            return Err(format!(
                "{shown}: --clock and --reset{} are for VCD waveforms",
                if vunits.is_some() || !assertions.is_empty() {
                    " (and a vunit's or an assertion's clock and disable iff)"
                } else {
                    ""
                }
            ));
        }
        if args.time.is_some() && format == TraceFormat::Vcd {
            return Err(format!(
                "{shown}: --time reads times from a field of CSV and JSON Lines logs; a VCD \
                 waveform has its own times (`#t` in its $timescale), shown with each event"
            ));
        }
        if args.follow && format == TraceFormat::Vcd {
            return Err(format!(
                "{shown}: --follow is for CSV and JSON Lines, not VCD waveforms"
            ));
        }
        // The bar lives until the trace is checked (and clears itself).
        let Some((input, progress)) = open_input(args, path, &name, &shown, format, run) else {
            continue;
        };
        let lines = match format {
            TraceFormat::Csv => Some(LineFormat::Csv),
            TraceFormat::Jsonl => Some(LineFormat::Jsonl),
            TraceFormat::Vcd => None,
        };
        // --follow: each violation as it happens, on standard output.
        let mut live = |property: &str, v: &ViolationReport| {
            let mut s = String::new();
            if args.json {
                let json = live_json(&name, property, v).to_string();
                let _ = writeln!(s, "{}", escape_json(&json));
            } else {
                live_text(&mut s, &name, property, v);
            }
            emit_now(&s);
        };
        let result: Result<Vec<Report>, TraceError> = match (format, lines) {
            (_, Some(_)) if args.follow => {
                if format == TraceFormat::Csv {
                    CsvReader::new(&name, input)
                        .and_then(|mut r| checker.run_reporting(&mut r, &mut live))
                } else {
                    let mut r = JsonlReader::new(&name, BufReader::with_capacity(1 << 16, input));
                    checker.run_reporting(&mut r, &mut live)
                }
            }
            // Timed properties are read in one pass: a piece's metric
            // propositions depend on the times and operands before it,
            // which a chunk's summary does not carry.
            (_, Some(lines))
                if timed.is_none() && pool.as_ref().is_none_or(|p| p.current_num_threads() > 1) =>
            {
                let go = || check_lines(&mut checker, lines, &name, input, Chunking::default());
                match &pool {
                    Some(p) => p.install(go),
                    None => go(),
                }
            }
            (TraceFormat::Csv, _) => {
                CsvReader::new(&name, input).and_then(|mut r| checker.run(&mut r))
            }
            (TraceFormat::Jsonl, _) => {
                let mut r = JsonlReader::new(&name, BufReader::with_capacity(1 << 16, input));
                checker.run(&mut r)
            }
            (TraceFormat::Vcd, _) => {
                let clock = clock.as_ref().map(|(n, e)| (n.as_str(), *e));
                VcdReader::new(&name, BufReader::with_capacity(1 << 16, input), clock).and_then(
                    |mut r| {
                        if let Some(reset) = &async_reset {
                            r.set_async_reset(&reset.name, !reset.active_low)?;
                        }
                        if let Some(condition) = &async_condition {
                            r.set_async_reset_condition(condition.clone())?;
                        }
                        checker.run(&mut r)
                    },
                )
            }
        };
        drop(progress);
        // Bad input ends the check of this trace, but what was read before
        // it is reported: its violations are facts.
        let (reports, complete) = match result {
            Ok(reports) => (reports, true),
            Err(e) => {
                let so_far = reports_before_error(&mut checker);
                report(run, args, &name, &so_far, false);
                totals.add(&so_far, false);
                violated |= so_far.iter().any(|r| r.verdict == Verdict::Violated);
                run.error(&e.to_string());
                continue;
            }
        };
        report(run, args, &name, &reports, complete);
        totals.add(&reports, complete);
        violated |= reports.iter().any(|r| r.verdict == Verdict::Violated);
    }
    if args.summary {
        totals.write(run, args.json, args.time_order == TimeOrderArg::Lenient);
    }
    Ok(violated)
}

/// The input of one trace (a file, followed with --follow, or standard
/// input), with its progress bar (which lives until the trace is checked);
/// `None` (an error told to `run`) if it cannot be read.
pub(crate) fn open_input(
    args: &CheckArgs,
    path: &Path,
    name: &str,
    shown: &str,
    format: TraceFormat,
    run: &mut Run,
) -> Option<(Box<dyn Read + Send>, Option<Progress>)> {
    // The bar lives until the trace is checked (and clears itself).
    let mut progress = None;
    let compression = (name != "-").then(|| Compression::of(path)).flatten();
    if let (Some(c), true) = (compression, args.follow) {
        run.error(&format!(
            "{shown}: --follow reads a plain file as it grows, not {} data",
            c.name()
        ));
        return None;
    }
    let mut input: Box<dyn Read + Send> = if name == "-" {
        // Standard input, followed or not, ends when it is closed.
        Box::new(io::stdin())
    } else {
        let file = match std::fs::File::open(path) {
            Ok(file) => file,
            Err(e) => {
                // The other traces are still checked.
                run.error(&format!("cannot read {shown}: {e}"));
                return None;
            }
        };
        let size = file
            .metadata()
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| m.len());
        match size {
            // A pipe or a device has no end to wait past.
            Some(_) if args.follow => Box::new(Follow::new(file, path)),
            Some(size) => {
                // The bar counts the bytes of the file; the line ends
                // counted there are not the events of a compressed one.
                let lines = format != TraceFormat::Vcd && compression.is_none();
                progress = Progress::new(name, size, lines);
                Box::new(file)
            }
            _ => Box::new(file),
        }
    };
    if let Some(p) = &progress {
        input = Box::new(p.wrap(input));
    }
    if let Some(c) = compression {
        // (Read in a stream: chunked checking (-j) cuts the bytes it
        // decompresses, as it does a plain file's.)
        input = match c.decoder(input) {
            Ok(d) => Box::new(d),
            Err(e) => {
                run.error(&format!("cannot read {shown} ({} data): {e}", c.name()));
                return None;
            }
        };
    }
    Some((input, progress))
}

/// Writes the reports of one trace; `complete`: the trace was read to its
/// end (otherwise the reports are those of the events before an error).
fn report(run: &mut Run, args: &CheckArgs, name: &str, reports: &[Report], complete: bool) {
    let three = args.verdicts == 3;
    for r in reports {
        if args.json {
            let mut json = if complete {
                report_json(name, r, three)
            } else {
                partial_report_json(name, r, three)
            };
            if args.summary {
                summary_json(&mut json, r);
            }
            if args.time_order == TimeOrderArg::Lenient {
                json["late_events"] = r.late_events.into();
            }
            let _ = writeln!(run.out, "{}", escape_json(&json.to_string()));
        } else if args.summary {
            // The first line of the report: its counts, no explanation.
            let counts = Report {
                violations: Vec::new(),
                ..r.clone()
            };
            text(&mut run.out, name, &counts, three, complete);
        } else {
            text(&mut run.out, name, r, three, complete);
        }
    }
}

/// A report object of `--json` as `--summary` writes it: without the
/// explained `violations`, with where the first one happened.
fn summary_json(json: &mut serde_json::Value, r: &Report) {
    if let Some(o) = json.as_object_mut() {
        o.remove("violations");
        o.insert(
            "first_violation".into(),
            r.first_violation
                .as_ref()
                .map_or(serde_json::Value::Null, mongen::trace_report::position_json),
        );
    }
}

pub(crate) fn format_of(path: &Path) -> Result<TraceFormat, String> {
    let name = escape(&path.display().to_string()).into_owned();
    if name == "-" {
        return Err("standard input: give its format with --format csv|jsonl|vcd".into());
    }
    // A compressed trace's format is the extension before (`.csv.gz`).
    let compression = Compression::of(path);
    let inner = match (compression, path.file_stem()) {
        (Some(_), Some(stem)) => Path::new(stem),
        _ => path,
    };
    match inner
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
        .as_deref()
    {
        Some("csv") => Ok(TraceFormat::Csv),
        Some("jsonl" | "ndjson" | "json") => Ok(TraceFormat::Jsonl),
        Some("vcd") => Ok(TraceFormat::Vcd),
        _ => Err(format!(
            "{name}: unknown trace format (the extension is not .csv, .jsonl, .ndjson, .json or .vcd{}); give it with --format csv|jsonl|vcd",
            match compression {
                Some(c) => format!(" before the {} one", c.name()),
                None => ", each perhaps followed by .gz, .zst or .zstd".into(),
            }
        )),
    }
}

/// Where an event is: lines say where in the file, with the index in the
/// trace (and the time, with --time); time stamps come with their cycle.
pub(crate) fn at(p: &Position) -> String {
    match (p.line, p.timestamp) {
        (Some(_), Some(t)) => format!("{p} (event {}, time {})", p.index, escape(&t.to_string())),
        (Some(_), None) => format!("{p} (event {})", p.index),
        (None, _) => p.to_string(),
    }
}

/// An event of an explanation: its line (or VCD time), and its time with
/// --time.
pub(crate) fn event_label(p: &Position) -> String {
    match p.timestamp {
        Some(t) => format!("{p} (time {})", escape(&t.to_string())),
        None => p.to_string(),
    }
}

/// The events whose times went back (--time-order lenient), after the
/// count of events read.
pub(crate) fn late_text(late: u64) -> String {
    if late == 0 {
        return String::new();
    }
    format!(
        ", {} taken at the time before (it went back)",
        plural(late, "event", "events")
    )
}

/// Writes `s` on standard output at once (a violation as it happens). A
/// closed standard output ends `mongen` as the final write would: quietly
/// (with status 1, since a property was violated) if it was a pipe,
/// with an error otherwise.
pub(crate) fn emit_now(s: &str) {
    let mut stdout = io::stdout().lock();
    match stdout.write_all(s.as_bytes()).and_then(|()| stdout.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => std::process::exit(1),
        Err(e) => {
            eprintln!("mongen: error: cannot write the output: {e}");
            std::process::exit(2)
        }
    }
}

/// A violation as it happens (`--follow`): the line of the final report
/// without its counts, then the violation as the report explains it.
fn live_text(out: &mut String, trace: &str, property: &str, v: &ViolationReport) {
    let _ = writeln!(
        out,
        "{}: `{}`: violated at {}",
        escape(trace),
        escape(property),
        at(&v.at)
    );
    violation_text(out, v);
}

/// The explanation of one violation, as the report shows each. Names
/// and values come from the trace and the properties: each is escaped.
pub(crate) fn violation_text(out: &mut String, v: &ViolationReport) {
    let _ = writeln!(out, "  {}", escape(&v.explanation));
    if !v.values.is_empty() {
        let values: Vec<String> = v
            .values
            .iter()
            .map(|(f, x)| format!("{} = {}", escape(f), escape(x)))
            .collect();
        let _ = writeln!(out, "  values: {}", values.join(", "));
    }
    for (k, (p, held)) in v.recent.iter().enumerate() {
        let mark = if *p == v.at { "  <- violation" } else { "" };
        let held = if held.is_empty() {
            "(no proposition holds)".to_string()
        } else {
            escape(&held.join(", ")).into_owned()
        };
        let shown = match v.shown.get(k) {
            Some(fields) if !fields.is_empty() => format!("  [{}]", shown_label(fields)),
            _ => String::new(),
        };
        let _ = writeln!(out, "    {}: {held}{shown}{mark}", event_label(p));
    }
}

/// Whether a name or a value reads plainly in `field=value`: it is not
/// empty, and it is letters, digits, `_-./@+#` and `also` (otherwise it
/// is written as a JSON string).
fn plain(value: &str, also: &str) -> bool {
    !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_alphanumeric() || "_-./@+#".contains(c) || also.contains(c))
}

/// A name or a value as `field=value` writes it: plainly when it is
/// letters, digits and `_-./@+#`, otherwise as a JSON string (`"Ann
/// Lee"`), with the characters a terminal acts on escaped.
/// `n` and the noun for its count: `1 key`, `3 keys`.
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

pub(crate) fn quoted(s: &str) -> String {
    quoted_with(s, "")
}

/// [`quoted`], with the characters of `also` plain too.
fn quoted_with(s: &str, also: &str) -> String {
    if plain(s, also) {
        s.to_string()
    } else {
        escape_json(&serde_json::Value::String(s.to_string()).to_string()).into_owned()
    }
}

/// The fields shown at an event (--show), as `ts=10:00:02, user="Ann
/// Lee"` (a colon is plain here, for times: the list ends at `]`); a
/// field absent from the event is `user=(absent)` (a value that reads
/// `(absent)` is quoted).
fn shown_label(fields: &[(String, Option<String>)]) -> String {
    fields
        .iter()
        .map(|(f, v)| match v {
            Some(v) => format!("{}={}", quoted_with(f, ":"), quoted_with(v, ":")),
            None => format!("{}=(absent)", quoted_with(f, ":")),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The note of a lazy monitor whose verdicts became informative.
fn inexact_text(out: &mut String, r: &Report) {
    if let Some(p) = &r.inexact_at {
        inexact_note(out, p, "");
    }
}

/// The note of a lazy monitor whose verdicts became informative at `p`;
/// `whose` says whose verdicts, if not the trace's (with --by: every
/// key's, the monitor being shared).
fn inexact_note(out: &mut String, p: &Position, whose: &str) {
    let _ = writeln!(
        out,
        "  note: from {} on, {whose}violations are reported at their first informative bad prefix (deciding exact verdicts lazily went beyond --max-states)",
        at(p)
    );
}

fn text(out: &mut String, trace: &str, r: &Report, three: bool, complete: bool) {
    let (trace, property) = (escape(trace), escape(&r.property));
    let events = format!(
        "{} event{} read{}{}",
        r.events,
        if r.events == 1 { "" } else { "s" },
        if complete { "" } else { " before the error" },
        late_text(r.late_events)
    );
    match r.verdict {
        Verdict::Violated => {
            let first = r.first_violation.as_ref().expect("violated");
            let _ = write!(out, "{trace}: `{property}`: violated at {}", at(first));
            if r.violation_count > 1 {
                let _ = write!(out, ", {} violations in all", r.violation_count);
            }
            let _ = writeln!(out, "; {events}");
            for v in &r.violations {
                if r.violations.len() > 1 {
                    let _ = writeln!(out, "  at {}:", at(&v.at));
                }
                violation_text(out, v);
            }
            // (--max-reports 0 asks for no explanation, and gets none.)
            if !r.violations.is_empty() && (r.violations.len() as u64) < r.violation_count {
                let _ = writeln!(
                    out,
                    "  ({} more, not explained: raise --max-reports)",
                    r.violation_count - r.violations.len() as u64
                );
            }
        }
        Verdict::Satisfied => {
            let _ = writeln!(
                out,
                "{trace}: `{property}`: satisfied at {}; every continuation satisfies it",
                at(r.satisfied_at.as_ref().expect("satisfied"))
            );
        }
        Verdict::Undecided => {
            let _ = writeln!(
                out,
                "{trace}: `{property}`: {} ({events}, no violation)",
                verdict_word(r, three)
            );
        }
    }
    inexact_text(out, r);
}
