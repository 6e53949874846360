//! `mongen check --summary` over several traces: after one line per trace
//! and property, one line per property that totals them (how many traces
//! violated it, how many violations and events in all), so that a check
//! over a folder of logs ends with the answer.

use std::fmt::Write as _;

use monitor_core::trace::check::Report;
use monitor_core::trace::keyed::KeyedReport;
use monitor_core::trace::{escape, escape_json};
use monitor_core::Verdict;

use super::plural;
use crate::Run;

/// One property's counts over the traces checked so far.
#[derive(Clone, Debug, Default)]
struct Total {
    name: String,
    traces_violated: u64,
    violation_count: u64,
    events: u64,
    /// Events whose times went back (--time-order lenient), in all.
    late_events: u64,
    /// With --by: keys seen and keys that violated it, over all traces.
    keys: u64,
    keys_violated: u64,
}

/// The totals of every property over the traces of one `mongen check`.
#[derive(Debug, Default)]
pub(super) struct Totals {
    properties: Vec<Total>,
    /// How many traces were reported (read whole or in part).
    traces: u64,
    /// How many of them could not be read to their end.
    incomplete: u64,
    /// Whether the counts are per key (--by).
    keyed: bool,
}

impl Totals {
    /// The property at `p`, named `name`, created as the first trace
    /// reports it (every trace checks the same properties, in order).
    fn property(&mut self, p: usize, name: &str) -> &mut Total {
        if self.properties.len() <= p {
            self.properties.resize_with(p + 1, Total::default);
        }
        let t = &mut self.properties[p];
        if t.name.is_empty() {
            t.name = name.to_string();
        }
        t
    }

    /// Adds the reports of one trace (`complete`: read to its end).
    pub(super) fn add(&mut self, reports: &[Report], complete: bool) {
        self.traces += 1;
        self.incomplete += u64::from(!complete);
        for (p, r) in reports.iter().enumerate() {
            let t = self.property(p, &r.property);
            t.traces_violated += u64::from(r.verdict == Verdict::Violated);
            t.violation_count += r.violation_count;
            t.events += r.events;
            t.late_events += r.late_events;
        }
    }

    /// Adds the report of one trace checked with --by.
    pub(super) fn add_keyed(&mut self, report: &KeyedReport, complete: bool) {
        self.keyed = true;
        self.traces += 1;
        self.incomplete += u64::from(!complete);
        for (p, r) in report.properties.iter().enumerate() {
            let t = self.property(p, &r.name);
            t.traces_violated += u64::from(r.keys_violated > 0);
            t.violation_count += r.violation_count;
            t.events += report.events;
            t.late_events += report.late_events;
            t.keys += report.keys;
            t.keys_violated += r.keys_violated;
        }
    }

    /// Writes the totals: one line (or, with `json`, one object whose
    /// `trace` is null) per property, when more than one trace was
    /// reported. `lenient`: times were read with --time-order lenient
    /// (then the objects count `late_events`, as each trace's do).
    pub(super) fn write(&self, run: &mut Run, json: bool, lenient: bool) {
        if self.traces < 2 {
            return;
        }
        for t in &self.properties {
            let verdict = if t.traces_violated > 0 {
                "violated"
            } else {
                "holds"
            };
            if json {
                let mut o = serde_json::json!({
                    "trace": null,
                    "total": true,
                    "property": t.name,
                    "verdict": verdict,
                    "traces": self.traces,
                    "traces_violated": t.traces_violated,
                    "traces_incomplete": self.incomplete,
                    "events": t.events,
                    "violation_count": t.violation_count,
                });
                if lenient {
                    o["late_events"] = t.late_events.into();
                }
                if self.keyed {
                    o["keys"] = t.keys.into();
                    o["keys_violated"] = t.keys_violated.into();
                }
                let _ = writeln!(run.out, "{}", escape_json(&o.to_string()));
                continue;
            }
            let traces = plural(self.traces, "trace", "traces");
            let keys = match (self.keyed, t.traces_violated > 0) {
                (false, _) => String::new(),
                (true, true) => format!(
                    ", by {} of {}",
                    t.keys_violated,
                    plural(t.keys, "key", "keys")
                ),
                (true, false) => format!(" for {}", plural(t.keys, "key", "keys")),
            };
            let incomplete = match self.incomplete {
                0 => String::new(),
                n => format!(
                    "; {} not read to {} end",
                    plural(n, "trace", "traces"),
                    if n == 1 { "its" } else { "their" }
                ),
            };
            let events = format!(
                "{} read{}",
                plural(t.events, "event", "events"),
                super::late_text(t.late_events)
            );
            let property = escape(&t.name);
            let _ = if t.traces_violated > 0 {
                writeln!(
                    run.out,
                    "total: `{property}`: violated in {} of {traces}{keys}, {}; {events}{incomplete}",
                    t.traces_violated,
                    plural(t.violation_count, "violation", "violations"),
                )
            } else {
                writeln!(
                    run.out,
                    "total: `{property}`: holds on {traces}{keys} ({events}, no violation){incomplete}",
                )
            };
        }
    }
}
