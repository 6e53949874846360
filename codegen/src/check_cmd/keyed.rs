//! `mongen check --by`: each key's events of an interleaved log checked
//! apart, and the reports that name the keys.

use std::fmt::Write as _;
use std::io::{self, BufReader};

use mongen::trace_report::{
    key_json, keyed_counts_json, keyed_verdict_word, lazy_json, position_json, top_violators,
    write_keyed_report_json,
};
use monitor_core::trace::check::{Options, Property, ViolationReport};
use monitor_core::trace::chunked::{Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, KeyedReport, Unkeyed};
use monitor_core::trace::reader::{CsvReader, JsonlReader, Position};
use monitor_core::trace::{escape, escape_json};

use super::totals::Totals;
use super::{at, emit_now, format_of, inexact_note, open_input, plural, quoted, violation_text};
use crate::{CheckArgs, Run, TraceFormat, UnkeyedRows};

/// Checks every trace of `args` with `--by`: whether some property was
/// violated by some key.
pub(super) fn check(
    args: &CheckArgs,
    run: &mut Run,
    properties: Vec<Property>,
    options: Options,
    pool: Option<&rayon::ThreadPool>,
) -> Result<bool, String> {
    if args.follow && args.traces.len() > 1 {
        return Err("--follow follows one trace".into());
    }
    let by: Vec<&str> = args.by.iter().map(String::as_str).collect();
    if let Some(f) = by.iter().find(|f| f.is_empty()) {
        return Err(format!("--by `{f}`: a key field has a name"));
    }
    let keyed = KeyedOptions {
        unkeyed: match args.unkeyed {
            UnkeyedRows::Error => Unkeyed::Error,
            UnkeyedRows::Broadcast => Unkeyed::Broadcast,
            UnkeyedRows::Skip => Unkeyed::Skip,
        },
        key_limit: args.key_limit,
        end_key: match &args.end_key {
            Some(e) => Some(Expr::parse(e).map_err(|m| format!("--end-key {e}: {m}"))?),
            None => None,
        },
        explain_later: false,
    };
    let mut violated = false;
    let mut totals = Totals::default();
    for path in &args.traces {
        let name = path.display().to_string();
        let shown = escape(&name).into_owned();
        let format = match args.format {
            Some(f) => f,
            None => format_of(path)?,
        };
        if format == TraceFormat::Vcd {
            return Err(format!(
                "{shown}: --by is for CSV and JSON Lines, not VCD waveforms"
            ));
        }
        // A file that can be read again: its keys keep no events, and the
        // violations to explain are explained by a second reading of the
        // keys that violated, as far as the last one explained. The
        // summary explains none (and lists no key): its keys keep no
        // events either, and a key that violated is forgotten once its
        // monitors are done.
        let again =
            !args.follow && name != "-" && std::fs::metadata(path).is_ok_and(|m| m.is_file());
        let mut checker = KeyedChecker::new(
            properties.clone(),
            options,
            &by,
            KeyedOptions {
                explain_later: again || args.summary,
                ..keyed.clone()
            },
        );
        checker.set_show(args.show.clone());
        checker.set_time(args.time.clone(), args.time_order.into());
        checker.set_counts_only(args.summary);
        let Some((input, progress)) = open_input(args, path, &name, &shown, format, run) else {
            continue;
        };
        let mut live = |key: &[String], property: &str, v: &ViolationReport| {
            if !args.follow {
                return;
            }
            let mut s = String::new();
            if args.json {
                let mut json = mongen::trace_report::live_json(&name, property, v);
                json["key"] = key_json(&args.by, key);
                let _ = writeln!(s, "{}", escape_json(&json.to_string()));
            } else {
                let _ = writeln!(
                    s,
                    "{}: {}: `{}`: violated at {}",
                    escape(&name),
                    key_label(&args.by, key),
                    escape(property),
                    at(&v.at)
                );
                violation_text(&mut s, v);
            }
            emit_now(&s);
        };
        let lines = match format {
            TraceFormat::Csv => LineFormat::Csv,
            _ => LineFormat::Jsonl,
        };
        let result = match format {
            // On all cores (or -j N): chunks read and their keys hashed
            // in parallel, the keys' monitors stepped in order. (On one
            // core too: the keys of a batch known before their monitors
            // are stepped, the loads of the lookups start ahead.)
            _ if !args.follow => {
                let go = || {
                    checker.read_lines_reporting(
                        lines,
                        &name,
                        input,
                        Chunking::default(),
                        &mut live,
                    )
                };
                match pool {
                    Some(p) => p.install(go),
                    None => go(),
                }
            }
            TraceFormat::Csv => CsvReader::new(&name, input)
                .and_then(|mut r| checker.read_reporting(&mut r, &mut live)),
            _ => {
                let mut r = JsonlReader::new(&name, BufReader::with_capacity(1 << 16, input));
                checker.read_reporting(&mut r, &mut live)
            }
        };
        drop(progress);
        // Taken, not copied: the violating keys are held once.
        let mut report = checker.take_report();
        let error = result.err();
        if again && !args.summary && !report.violations.is_empty() {
            let explained = explain(
                args,
                run,
                path,
                &name,
                &shown,
                format,
                &mut checker,
                &mut report,
                pool,
            );
            if let (Err(e), None) = (explained, &error) {
                // The trace changed, or cannot be opened again: the counts
                // stand, unexplained. (After an error in the trace, the
                // second reading stops at it too.)
                run.error(&format!(
                    "{e} (reading the trace again to explain its violations)"
                ));
            }
        }
        violated |= report.properties.iter().any(|p| p.keys_violated > 0);
        match error {
            None => {
                run.write_now(|w| write_report(w, args, &name, &report, &checker, true));
                totals.add_keyed(&report, true);
            }
            Some(e) => {
                // What was read before bad input is reported: its
                // violations are facts.
                if report.events > 0 {
                    run.write_now(|w| write_report(w, args, &name, &report, &checker, false));
                    totals.add_keyed(&report, false);
                }
                run.error(&e.to_string());
            }
        }
    }
    if args.summary {
        totals.write(
            run,
            args.json,
            args.time_order == crate::TimeOrderArg::Lenient,
        );
    }
    Ok(violated)
}

/// Explains the violations of `report` by reading the trace at `path`
/// again ([`KeyedChecker::explain`]).
#[allow(clippy::too_many_arguments)]
fn explain(
    args: &CheckArgs,
    run: &mut Run,
    path: &std::path::Path,
    name: &str,
    shown: &str,
    format: TraceFormat,
    checker: &mut KeyedChecker,
    report: &mut KeyedReport,
    pool: Option<&rayon::ThreadPool>,
) -> Result<(), String> {
    let Some((input, progress)) = open_input(args, path, name, shown, format, run) else {
        return Ok(());
    };
    let lines = match format {
        TraceFormat::Csv => LineFormat::Csv,
        _ => LineFormat::Jsonl,
    };
    let result = match format {
        _ if pool.is_none_or(|p| p.current_num_threads() > 1) => {
            let go = || checker.explain_lines(lines, name, input, Chunking::default(), report);
            match pool {
                Some(p) => p.install(go),
                None => go(),
            }
        }
        TraceFormat::Csv => {
            CsvReader::new(name, input).and_then(|mut r| checker.explain(&mut r, report))
        }
        _ => {
            let mut r = JsonlReader::new(name, BufReader::with_capacity(1 << 16, input));
            checker.explain(&mut r, report)
        }
    };
    drop(progress);
    result.map_err(|e| e.to_string())
}

/// The note of a lazy monitor whose verdicts became informative at
/// `at` (the monitor is shared by the keys: theirs all did).
fn inexact_text(out: &mut impl io::Write, at: &Option<Position>) -> io::Result<()> {
    let mut s = String::new();
    if let Some(p) = at {
        inexact_note(&mut s, p, "every key's ");
    }
    out.write_all(s.as_bytes())
}

/// A key as the text reports write it: `session=s42`, several fields
/// joined by commas, and a name or a value that is empty or holds other
/// characters than letters, digits and `_-./@+#` written as a JSON string
/// (`user="Ann Lee"`), with the characters a terminal acts on escaped.
pub(crate) fn key_label(by: &[String], key: &[String]) -> String {
    let quote = quoted;
    by.iter()
        .zip(key)
        .map(|(f, v)| format!("{}={}", quote(f), quote(v)))
        .collect::<Vec<_>>()
        .join(",")
}

/// Writes the report of one trace; `checker` tells what its lazy
/// monitors did (`--lazy`). Each key's part is made and written in turn:
/// the report of many violating keys is never held whole.
fn write_report(
    out: &mut impl io::Write,
    args: &CheckArgs,
    name: &str,
    r: &KeyedReport,
    checker: &KeyedChecker,
    complete: bool,
) -> io::Result<()> {
    let three = args.verdicts == 3;
    let by = r.by.join(",");
    let (inexact, lazy) = (checker.inexact_at(), checker.lazy_stats());
    if args.json {
        for (p, mut json) in keyed_counts_json(name, r, three, complete)
            .into_iter()
            .enumerate()
        {
            if let (Some(o), Some(stats)) = (json.as_object_mut(), &lazy[p]) {
                // As a trace's report with --lazy.
                o.insert(
                    "inexact_at".into(),
                    inexact[p].as_ref().map(position_json).into(),
                );
                o.insert("lazy".into(), lazy_json(stats));
            }
            if args.time_order == crate::TimeOrderArg::Lenient {
                json["late_events"] = r.late_events.into();
            }
            if args.summary {
                // The counts only: the violating keys' objects are never
                // made.
                writeln!(out, "{}", escape_json(&json.to_string()))?;
            } else {
                write_keyed_report_json(out, &json, r, p)?;
            }
        }
        return Ok(());
    }
    for (p, prop) in r.properties.iter().enumerate() {
        let verdict = keyed_verdict_word(prop, r.keys, three);
        let (trace, property) = (escape(name), escape(&prop.name));
        let events = format!(
            "{} read{}{}",
            plural(r.events, "event", "events"),
            if complete { "" } else { " before the error" },
            super::late_text(r.late_events)
        );
        let keys = format!("{} (by {})", plural(r.keys, "key", "keys"), escape(&by));
        if prop.keys_violated == 0 {
            let satisfied = if three && prop.keys_satisfied > 0 {
                format!(", satisfied for good by {}", prop.keys_satisfied)
            } else {
                String::new()
            };
            writeln!(
                out,
                "{trace}: `{property}`: {verdict} for {keys}{satisfied}; no violation; {events}"
            )?;
            inexact_text(out, &inexact[p])?;
            continue;
        }
        writeln!(
            out,
            "{trace}: `{property}`: violated by {} of {keys}{}; {events}",
            prop.keys_violated,
            if prop.violation_count > prop.keys_violated {
                format!(
                    ", {} in all",
                    plural(prop.violation_count, "violation", "violations")
                )
            } else {
                String::new()
            }
        )?;
        if args.summary {
            // The counts only.
            inexact_text(out, &inexact[p])?;
            continue;
        }
        let mut unexplained = 0u64;
        for v in r.violations.iter().filter(|v| v.property == p) {
            write!(
                out,
                "  {}: violated at {}",
                key_label(&r.by, &v.key),
                at(&v.first)
            )?;
            if v.count > 1 {
                write!(out, ", {}", plural(v.count, "violation", "violations"))?;
            }
            writeln!(out)?;
            unexplained += v.count - v.reports.len() as u64;
            for e in &v.reports {
                let mut s = String::new();
                if v.reports.len() > 1 {
                    let _ = writeln!(s, "  at {}:", at(&e.at));
                }
                violation_text(&mut s, e);
                // One level deeper than a property's own report.
                for line in s.lines() {
                    writeln!(out, "  {line}")?;
                }
            }
        }
        if unexplained > 0 && args.max_reports > 0 {
            writeln!(
                out,
                "  ({} not explained: raise --max-reports)",
                plural(unexplained, "violation", "violations")
            )?;
        }
        if prop.violation_count > prop.keys_violated {
            let names: Vec<String> = top_violators(r, p)
                .iter()
                .map(|v| format!("{} ({})", key_label(&r.by, &v.key), v.count))
                .collect();
            writeln!(out, "  top violators: {}", names.join(", "))?;
        }
        inexact_text(out, &inexact[p])?;
    }
    if !args.summary {
        let unkeyed = match (r.unkeyed, args.unkeyed) {
            (0, _) => String::new(),
            (n, UnkeyedRows::Broadcast) => {
                format!(
                    "; {} without a key sent to every key",
                    plural(n, "row", "rows")
                )
            }
            (n, _) => format!("; {} without a key skipped", plural(n, "row", "rows")),
        };
        let violated = r.properties.iter().filter(|p| p.keys_violated > 0).count() as u64;
        writeln!(
            out,
            "{}: {} (by {}){unkeyed}; {} of {} violated",
            escape(name),
            plural(r.keys, "key", "keys"),
            escape(&by),
            violated,
            plural(r.properties.len() as u64, "property", "properties"),
        )?;
    }
    Ok(())
}
