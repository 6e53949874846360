//! The reports of `mongen check`, shared by the command line and the
//! Python package: a property's verdict over one trace as a JSON object
//! (`mongen check --json`), the same by key (`mongen check --by --json`,
//! `mongen.check(..., by=...)`), and the propositions of monitors bound to
//! expressions over a trace's fields (`--define`).

use monitor_core::formula::metric::TimedComponent;
use monitor_core::trace::check::{Checker, Engine, Property, Report, ViolationReport};
use monitor_core::trace::escape;
use monitor_core::trace::expr::{Expr, FieldRef};
use monitor_core::trace::keyed::{KeyViolations, KeyedProperty, KeyedReport};
use monitor_core::trace::metric::TimedPropositions;
use monitor_core::trace::reader::Position;
use monitor_core::Verdict;

/// The properties of a check: each monitor (with the name it is reported
/// by) and its propositions bound to expressions over the trace's fields.
/// A proposition is the expression `defines` gives for it (the last one
/// for a name, as `--define` options), else the field of its name read as
/// a Boolean, or itself read as an expression (`"latency > 100"`). A
/// name that starts with a backslash is a Verilog escaped identifier
/// (`"\\req+1"` in a formula, `--define r='\req+1'`): the field of that
/// name, as a VCD dump writes it, whatever its characters. A definition no
/// monitor uses is an error (a misspelt name).
///
/// ```
/// use monitor_core::trace::check::Engine;
/// use monitor_core::translate::Builder;
/// use monitor_core::MonitorTable;
/// use mongen::trace_report::bind;
///
/// let t = Builder::new().build("G(slow -> X ok)")?;
/// let engine = Engine::Eager(MonitorTable::from_dfa(t.dfa()));
/// let defines = [("slow".to_string(), "latency > 100".to_string())];
/// let properties = bind(vec![("latency".into(), engine)], &defines)?;
/// assert_eq!(properties[0].bindings.len(), 2);
/// // A Verilog escaped identifier names a signal of a waveform.
/// let t = Builder::new().build("G !\"\\\\req+1\"")?;
/// let engine = Engine::Eager(MonitorTable::from_dfa(t.dfa()));
/// let properties = bind(vec![("p".into(), engine)], &[])?;
/// assert_eq!(properties[0].bindings[0].fields(), ["\\req+1"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bind(
    monitors: Vec<(String, Engine)>,
    defines: &[(String, String)],
) -> Result<Vec<Property>, String> {
    let monitors = monitors
        .into_iter()
        .map(|(label, monitor)| (label, monitor, Vec::new()))
        .collect();
    bind_timed(monitors, defines)
}

/// [`bind`], for monitors whose formulas had past metric operators: each
/// with its timed components
/// ([`parse_metric`](monitor_core::formula::metric::parse_metric)), whose
/// propositions are computed rather than bound, and whose operands'
/// propositions are bound as the monitor's are.
///
/// ```
/// use monitor_core::formula::metric::parse_metric;
/// use monitor_core::trace::check::Engine;
/// use monitor_core::translate::Builder;
/// use monitor_core::MonitorTable;
/// use mongen::trace_report::bind_timed;
///
/// let m = parse_metric("G(req -> !O[1s:5s] fail)")?;
/// let t = Builder::new().build_from_formula(&m.formula)?;
/// let engine = Engine::Eager(MonitorTable::from_dfa(t.dfa()));
/// let defines = [("fail".to_string(), "status >= 500".to_string())];
/// let p = bind_timed(vec![("p".into(), engine, m.timed)], &defines)?;
/// assert_eq!(p[0].fields(), ["req", "status"]);
/// assert_eq!(p[0].timed.as_ref().unwrap().inputs[0].0, "fail");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn bind_timed(
    monitors: Vec<(String, Engine, Vec<TimedComponent>)>,
    defines: &[(String, String)],
) -> Result<Vec<Property>, String> {
    let mut used = vec![false; defines.len()];
    let mut properties = Vec::with_capacity(monitors.len());
    for (label, monitor, components) in monitors {
        let mut meaning = |ap: &str| {
            let def = defines.iter().rposition(|(n, _)| n == ap);
            if let Some(k) = def {
                used[k] = true;
            }
            let text = def.map_or(ap, |k| defines[k].1.as_str());
            field_or_expression(text).map_err(|e| {
                // (Names as the user wrote them: shown escaped.)
                let (label, ap) = (escape(&label), escape(ap));
                match def {
                    Some(_) => format!("--define {ap}: {e}"),
                    None => format!(
                        "`{label}`: the proposition `{ap}` is neither a field nor an expression over fields; bind it with --define {ap}=EXPR ({e})"
                    ),
                }
            })
        };
        let mut bindings = Vec::new();
        for ap in (0..monitor.props()).map(|i| monitor.proposition(i)) {
            if components.iter().any(|c| c.name == ap) {
                // Computed by its component, never read.
                bindings.push(Expr::Const(false));
            } else {
                bindings.push(meaning(ap)?);
            }
        }
        let timed = if components.is_empty() {
            None
        } else {
            let mut inputs = Vec::new();
            for name in TimedPropositions::input_names(&components) {
                let e = meaning(&name)?;
                inputs.push((name, e));
            }
            Some(TimedPropositions { components, inputs })
        };
        properties.push(Property {
            name: label,
            monitor,
            bindings,
            timed,
        });
    }
    for ((name, _), used) in defines.iter().zip(used) {
        if !used {
            return Err(unused_define(name, "property"));
        }
    }
    Ok(properties)
}

/// The error of `--define NAME` that no `what` (property, formula) reads;
/// when the LTL parser reads `NAME` as an operator applied to the rest of
/// it (`Fail` is `F ail`, as in Spot), it says so and how to quote it.
///
/// ```
/// use mongen::trace_report::unused_define;
/// let e = unused_define("Fail", "property");
/// assert!(e.contains("`Fail` reads as `F ail`"), "{e}");
/// assert!(e.contains("\"Fail\""), "{e}");
/// assert!(!unused_define("busy", "formula").contains("reads as"));
/// ```
pub fn unused_define(name: &str, what: &str) -> String {
    let mut message = format!("--define {name}: no {what} has a proposition of that name");
    let operator = name.chars().next().filter(|c| "FGXRUWM".contains(*c));
    let rest = &name[operator.map_or(0, char::len_utf8)..];
    let read = monitor_core::formula::parse(name).ok();
    if let (Some(op), Some(f)) = (operator, read) {
        if f.ap_name() != Some(name) && !rest.is_empty() {
            message.push_str(&format!(
                "; in LTL, `{name}` reads as `{op} {rest}` (as in Spot, an upper-case `{op}` \
                 that begins a name is an operator): write the proposition in double quotes, \
                 \"{name}\", where the formula reads it"
            ));
        }
    }
    message
}

/// `text` read as an expression over fields, or, for a Verilog escaped
/// identifier (a backslash, then any characters but white space), as the
/// field of that name: no expression could name it.
fn field_or_expression(text: &str) -> Result<Expr, monitor_core::trace::expr::ExprError> {
    if text.starts_with('\\') && text.len() > 1 && !text.contains(char::is_whitespace) {
        return Ok(Expr::Field(FieldRef {
            name: text.to_string(),
            select: None,
            id: 0,
        }));
    }
    Expr::parse(text)
}

/// The word for a report's verdict: `violated`, `satisfied`, and, when
/// nothing is decided, `undecided` with three verdicts, `holds` with two.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::verdict_word;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = Checker::new(vec![p], Options::default());
/// let reports = checker.run(&mut CsvReader::new("t.csv", "a\n0\n0\n".as_bytes())?)?;
/// assert_eq!(verdict_word(&reports[0], false), "holds");
/// assert_eq!(verdict_word(&reports[0], true), "undecided");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verdict_word(r: &Report, three: bool) -> &'static str {
    match r.verdict {
        Verdict::Violated => "violated",
        Verdict::Satisfied => "satisfied",
        Verdict::Undecided if three => "undecided",
        Verdict::Undecided => "holds",
    }
}

/// A position in a trace: its index, and its line or time when known.
/// A VCD time is its number (in the dump's `$timescale`); a time read
/// from a field (`--time`) is its text as written (a number in its unit,
/// or an RFC 3339 date-time shown in UTC) in `time`, and exact
/// nanoseconds in `time_ns` (since the epoch for date-times).
///
/// ```
/// use mongen::trace_report::position_json;
/// use monitor_core::trace::reader::Position;
/// use monitor_core::trace::time::{Time, TimeForm, Unit};
///
/// let p = Position { index: 2, line: Some(4), time: None, timestamp: None };
/// assert_eq!(position_json(&p), serde_json::json!({"index": 2, "line": 4, "time": null}));
/// let t = Time { nanos: 1_500_000, form: TimeForm::Number(Unit::Ms) };
/// let p = Position { timestamp: Some(t), ..p };
/// assert_eq!(position_json(&p), serde_json::json!({"index": 2, "line": 4, "time": "1.5", "time_ns": 1_500_000}));
/// ```
pub fn position_json(p: &Position) -> serde_json::Value {
    match p.timestamp {
        Some(t) => serde_json::json!({
            "index": p.index,
            "line": p.line,
            "time": t.to_string(),
            "time_ns": t.nanos,
        }),
        None => serde_json::json!({"index": p.index, "line": p.line, "time": p.time}),
    }
}

/// One violation, as in the report's `violations`.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::violation_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = Checker::new(vec![p], Options::default());
/// let reports = checker.run(&mut CsvReader::new("t.csv", "a\n0\n1\n".as_bytes())?)?;
/// let v = violation_json(&reports[0].violations[0]);
/// assert_eq!((v["index"].clone(), v["line"].clone()), (1.into(), 3.into()));
/// assert_eq!(v["values"], serde_json::json!({"a": "1"}));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn violation_json(v: &ViolationReport) -> serde_json::Value {
    let values: serde_json::Map<String, serde_json::Value> = v
        .values
        .iter()
        .map(|(f, x)| (f.clone(), serde_json::Value::String(x.clone())))
        .collect();
    let recent: Vec<serde_json::Value> = v
        .recent
        .iter()
        .enumerate()
        .map(|(k, (p, held))| {
            let mut o = position_json(p);
            o["holds"] = held.clone().into();
            if let Some(fields) = v.shown.get(k) {
                o["shown"] = shown_json(fields);
            }
            o
        })
        .collect();
    let mut o = position_json(&v.at);
    o["explanation"] = v.explanation.clone().into();
    o["after"] = v.after.clone().into();
    o["letters"] = v.letters.clone().into();
    o["values"] = values.into();
    // The violating event is the last of `recent`.
    if let Some(fields) = v.shown.last() {
        o["shown"] = shown_json(fields);
    }
    o["recent"] = recent.into();
    o
}

/// The fields shown at an event (`--show`): an object of each field's
/// text, `null` where the event has no such field.
///
/// ```
/// use mongen::trace_report::shown_json;
///
/// let fields = [("ts".to_string(), Some("12".to_string())), ("user".to_string(), None)];
/// assert_eq!(shown_json(&fields), serde_json::json!({"ts": "12", "user": null}));
/// ```
pub fn shown_json(fields: &[(String, Option<String>)]) -> serde_json::Value {
    fields
        .iter()
        .map(|(f, v)| {
            (
                f.clone(),
                v.clone().map_or(serde_json::Value::Null, Into::into),
            )
        })
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// A violation as it happens (`mongen check --follow`).
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::live_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = Checker::new(vec![p], Options::default());
/// let reports = checker.run(&mut CsvReader::new("t.csv", "a\n0\n1\n".as_bytes())?)?;
/// let live = live_json("t.csv", "G !a", &reports[0].violations[0]);
/// assert_eq!((live["trace"].as_str(), live["property"].as_str()), (Some("t.csv"), Some("G !a")));
/// assert_eq!(live["violation"]["line"], 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn live_json(trace: &str, property: &str, v: &ViolationReport) -> serde_json::Value {
    serde_json::json!({
        "trace": trace,
        "property": property,
        "violation": violation_json(v),
    })
}

/// The report of one property over one trace, as `mongen check --json`
/// writes it (one object per line).
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::report_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = Checker::new(vec![p], Options::default());
/// let reports = checker.run(&mut CsvReader::new("t.csv", "a\n0\n1\n0\n".as_bytes())?)?;
/// let r = report_json("t.csv", &reports[0], false);
/// assert_eq!((r["verdict"].as_str(), r["property"].as_str()), (Some("violated"), Some("G !a")));
/// assert_eq!((r["events"].as_u64(), r["violation_count"].as_u64()), (Some(3), Some(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn report_json(trace: &str, r: &Report, three: bool) -> serde_json::Value {
    let violations: Vec<serde_json::Value> = r.violations.iter().map(violation_json).collect();
    serde_json::json!({
        "trace": trace,
        "property": r.property,
        "verdict": verdict_word(r, three),
        "events": r.events,
        "violation_count": r.violation_count,
        "violations": violations,
        "satisfied_at": r.satisfied_at.as_ref().map(position_json),
        "inexact_at": r.inexact_at.as_ref().map(position_json),
        "lazy": r.lazy.as_ref().map(lazy_json),
    })
}

/// What a lazy monitor built, as `--json` writes it (`lazy`).
///
/// ```
/// use monitor_core::lazy::LazyMonitor;
///
/// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
/// m.step(0b01);
/// let json = mongen::trace_report::lazy_json(&m.stats());
/// assert_eq!((json["states_built"].as_u64(), json["cache_clears"].as_u64()), (Some(2), Some(0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn lazy_json(s: &monitor_core::lazy::LazyStats) -> serde_json::Value {
    serde_json::json!({
        "states_built": s.states_built,
        "transitions_built": s.transitions_built,
        "cache_clears": s.cache_clears,
        "peak_memory": s.peak_memory,
    })
}

/// The reports of the events `checker` read before an error in a trace
/// ([`Checker::reports_so_far`]); none when the error came before the
/// first event (an unknown column, a bad header: nothing was checked).
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::reports_before_error;
///
/// # let p = || Property::new("G !a", MonitorTable::from_ltl("G !a").unwrap(), vec![Expr::parse("a").unwrap()]);
/// let mut checker = Checker::new(vec![p()], Options::default());
/// assert!(checker.run(&mut CsvReader::new("t.csv", "a\n1\nmaybe\n".as_bytes())?).is_err());
/// assert_eq!(reports_before_error(&mut checker)[0].violation_count, 1);
/// let mut checker = Checker::new(vec![p()], Options::default());
/// assert!(checker.run(&mut CsvReader::new("t.csv", "b\n1\n".as_bytes())?).is_err());
/// assert!(reports_before_error(&mut checker).is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn reports_before_error(checker: &mut Checker) -> Vec<Report> {
    let so_far = checker.reports_so_far();
    if so_far.first().is_some_and(|r| r.events > 0) {
        so_far
    } else {
        Vec::new()
    }
}

/// [`report_json`] of a report of the events read before an error: the
/// same object, with `"complete": false`.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::partial_report_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = Checker::new(vec![p], Options::default());
/// assert!(checker.run(&mut CsvReader::new("t.csv", "a\n1\nmaybe\n".as_bytes())?).is_err());
/// let r = partial_report_json("t.csv", &checker.reports_so_far()[0], false);
/// assert_eq!((r["complete"].as_bool(), r["events"].as_u64()), (Some(false), Some(1)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn partial_report_json(trace: &str, r: &Report, three: bool) -> serde_json::Value {
    let mut json = report_json(trace, r, three);
    json["complete"] = serde_json::Value::Bool(false);
    json
}

/// How many of the keys with the most violations a keyed report names
/// (`top`).
pub const TOP_VIOLATORS: usize = 5;

/// A key as a JSON object of field to value.
///
/// ```
/// use mongen::trace_report::key_json;
///
/// let by = ["host".to_string(), "pid".to_string()];
/// let key = ["db1".to_string(), "42".to_string()];
/// assert_eq!(key_json(&by, &key), serde_json::json!({"host": "db1", "pid": "42"}));
/// ```
pub fn key_json(by: &[String], key: &[String]) -> serde_json::Value {
    by.iter()
        .zip(key)
        .map(|(f, v)| (f.clone(), serde_json::Value::String(v.clone())))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// The keys of property `p` with the most violations, most first (and
/// first violated first among equals), at most [`TOP_VIOLATORS`].
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, keyed::*, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::top_violators;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let options = Options { all: true, ..Options::default() };
/// let mut checker = KeyedChecker::new(vec![p], options, &["k"], KeyedOptions::default());
/// let log = "k,a\nx,1\ny,1\ny,1\n";
/// let report = checker.run(&mut CsvReader::new("t.csv", log.as_bytes())?)?;
/// let top: Vec<_> = top_violators(&report, 0).iter().map(|v| (v.key[0].as_str(), v.count)).collect();
/// assert_eq!(top, [("y", 2), ("x", 1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn top_violators(report: &KeyedReport, p: usize) -> Vec<&KeyViolations> {
    // A selection of the few best in one pass (as a stable sort of all
    // the keys cut short, in O(1) memory beyond them): a key goes after
    // the ones it does not beat, those listed before it among equals.
    let mut top: Vec<&KeyViolations> = Vec::with_capacity(TOP_VIOLATORS + 1);
    for v in report.violations.iter().filter(|v| v.property == p) {
        let at = top.partition_point(|t| {
            t.count > v.count || (t.count == v.count && t.first.index <= v.first.index)
        });
        if at < TOP_VIOLATORS {
            top.insert(at, v);
            top.truncate(TOP_VIOLATORS);
        }
    }
    top
}

/// The word for a property's verdict over all keys: `violated` when some
/// key violated it; with three verdicts `satisfied` when every key (and
/// at least one) satisfied it for good, else `undecided`; with two,
/// `holds`.
///
/// ```
/// use monitor_core::trace::keyed::KeyedProperty;
/// use mongen::trace_report::keyed_verdict_word;
///
/// let p = KeyedProperty { name: "p".into(), keys_violated: 0, keys_satisfied: 2, violation_count: 0 };
/// assert_eq!(keyed_verdict_word(&p, 2, true), "satisfied");
/// assert_eq!(keyed_verdict_word(&p, 3, true), "undecided");
/// assert_eq!(keyed_verdict_word(&p, 3, false), "holds");
/// ```
pub fn keyed_verdict_word(p: &KeyedProperty, keys: u64, three: bool) -> &'static str {
    if p.keys_violated > 0 {
        "violated"
    } else if three && p.keys_satisfied == keys && keys > 0 {
        "satisfied"
    } else if three {
        "undecided"
    } else {
        "holds"
    }
}

/// The counts of a keyed check of one trace, one object per property, as
/// `mongen check --by --summary --json` writes them: the key fields
/// (`by`), the counts of events, rows without a key, keys, keys violated
/// and satisfied, and violations; with `"complete": false` when
/// `complete` is false (the events read before an error). No key is
/// named: [`keyed_report_json`] adds the violating keys.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, keyed::*, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::keyed_counts_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["k"], KeyedOptions::default());
/// checker.set_counts_only(true);
/// let report = checker.run(&mut CsvReader::new("t.csv", "k,a\nx,0\ny,1\n".as_bytes())?)?;
/// let r = &keyed_counts_json("t.csv", &report, false, true)[0];
/// assert_eq!((r["keys"].as_u64(), r["keys_violated"].as_u64()), (Some(2), Some(1)));
/// assert_eq!(r["verdict"], "violated");
/// assert!(r.get("violations").is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn keyed_counts_json(
    trace: &str,
    r: &KeyedReport,
    three: bool,
    complete: bool,
) -> Vec<serde_json::Value> {
    r.properties
        .iter()
        .map(|prop| {
            let mut json = serde_json::json!({
                "trace": trace,
                "property": prop.name,
                "by": r.by,
                "verdict": keyed_verdict_word(prop, r.keys, three),
                "events": r.events,
                "unkeyed": r.unkeyed,
                "keys": r.keys,
                "keys_violated": prop.keys_violated,
                "keys_satisfied": prop.keys_satisfied,
                "violation_count": prop.violation_count,
            });
            if !complete {
                json["complete"] = false.into();
            }
            json
        })
        .collect()
}

/// The reports of a keyed check of one trace, one per property, as
/// `mongen check --by --json` writes them: the counts of
/// [`keyed_counts_json`], each violating key (`key`, `first`, its count,
/// its violations explained) and the top violators.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, keyed::*, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::keyed_report_json;
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["k"], KeyedOptions::default());
/// let report = checker.run(&mut CsvReader::new("t.csv", "k,a\nx,0\ny,1\n".as_bytes())?)?;
/// let r = &keyed_report_json("t.csv", &report, false, true)[0];
/// assert_eq!((r["keys"].as_u64(), r["keys_violated"].as_u64()), (Some(2), Some(1)));
/// assert_eq!(r["violations"][0]["key"], serde_json::json!({"k": "y"}));
/// assert_eq!(r["violations"][0]["first"]["line"], 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn keyed_report_json(
    trace: &str,
    r: &KeyedReport,
    three: bool,
    complete: bool,
) -> Vec<serde_json::Value> {
    keyed_counts_json(trace, r, three, complete)
        .into_iter()
        .enumerate()
        .map(|(p, mut json)| {
            let violations: Vec<serde_json::Value> = r
                .violations
                .iter()
                .filter(|v| v.property == p)
                .map(|v| key_violations_json(&r.by, v))
                .collect();
            json["violations"] = violations.into();
            json["top"] = top_json(r, p);
            json
        })
        .collect()
}

/// One violating key of a keyed report, as in its `violations`: the key,
/// its first violation, its count and its violations explained.
fn key_violations_json(by: &[String], v: &KeyViolations) -> serde_json::Value {
    serde_json::json!({
        "key": key_json(by, &v.key),
        "first": position_json(&v.first),
        "violation_count": v.count,
        "violations": v.reports.iter().map(violation_json).collect::<Vec<_>>(),
    })
}

/// The top violators of property `p`, as a keyed report's `top`.
fn top_json(r: &KeyedReport, p: usize) -> serde_json::Value {
    top_violators(r, p)
        .iter()
        .map(|v| serde_json::json!({"key": key_json(&r.by, &v.key), "violation_count": v.count}))
        .collect::<Vec<_>>()
        .into()
}

/// Writes the report of property `p` of a keyed check as `mongen check
/// --by --json` does, on one line: `head` (the property's object of
/// [`keyed_counts_json`], with any fields the caller adds) with the top
/// violators and the violating keys, the characters a terminal acts on
/// escaped ([`escape_json`](monitor_core::trace::escape_json)). The text
/// is that of the [`keyed_report_json`] object, but each key's object is
/// made and written in turn: the memory it takes is one key's, however
/// many keys violated (the whole object of 10^5 keys took hundreds of
/// megabytes).
///
/// # Errors
///
/// Those of `out`.
///
/// ```
/// # use monitor_core::trace::{check::*, expr::Expr, keyed::*, reader::CsvReader};
/// # use monitor_core::MonitorTable;
/// use mongen::trace_report::{keyed_counts_json, keyed_report_json, write_keyed_report_json};
///
/// # let p = Property::new("G !a", MonitorTable::from_ltl("G !a")?, vec![Expr::parse("a")?]);
/// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["k"], KeyedOptions::default());
/// let report = checker.run(&mut CsvReader::new("t.csv", "k,a\nx,1\ny,0\nz,1\n".as_bytes())?)?;
/// let head = &keyed_counts_json("t.csv", &report, false, true)[0];
/// let mut out = Vec::new();
/// write_keyed_report_json(&mut out, head, &report, 0)?;
/// let whole = &keyed_report_json("t.csv", &report, false, true)[0];
/// assert_eq!(String::from_utf8(out)?, format!("{whole}\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_keyed_report_json(
    out: &mut impl std::io::Write,
    head: &serde_json::Value,
    r: &KeyedReport,
    p: usize,
) -> std::io::Result<()> {
    use monitor_core::trace::escape_json;
    let mut json = head.clone();
    if let Some(o) = json.as_object_mut() {
        o.insert("top".into(), top_json(r, p));
        // Inserted last, and (serde_json's objects being sorted by name)
        // the last name of a report: the object's text ends with it.
        o.remove("violations");
        o.insert("violations".into(), serde_json::Value::Array(Vec::new()));
    }
    let text = json.to_string();
    let Some(open) = text.strip_suffix("[]}") else {
        // (A head with a name after `violations`: written whole.)
        let violations = r.violations.iter().filter(|v| v.property == p);
        json["violations"] = violations
            .map(|v| key_violations_json(&r.by, v))
            .collect::<Vec<_>>()
            .into();
        return writeln!(out, "{}", escape_json(&json.to_string()));
    };
    out.write_all(escape_json(open).as_bytes())?;
    out.write_all(b"[")?;
    let mut first = true;
    for v in r.violations.iter().filter(|v| v.property == p) {
        if !first {
            out.write_all(b",")?;
        }
        first = false;
        let key = key_violations_json(&r.by, v).to_string();
        out.write_all(escape_json(&key).as_bytes())?;
    }
    out.write_all(b"]}\n")
}
