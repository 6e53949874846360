//! `mongen classify`: safety, guarantee, liveness, stutter-invariance
//! and pathologic safety, per formula.

use std::fmt::Write as _;
use std::time::Instant;

use crate::progress::Spinner;
use crate::stats::{common_directive, StatsArg};
use monitor_core::analysis::classify;
use monitor_core::formula::Formula;
use monitor_core::translate::{Builder, Config};

use crate::args::*;
use crate::output::*;

/// What the spinner says while `classify` works on a formula.
pub(crate) const CLASSIFYING: &str =
    "deciding safety, guarantee, liveness, stutter-invariance and pathologic";

pub(crate) fn classify_cmd(args: &ClassifyArgs, run: &mut Run) -> Result<(), String> {
    let format = match &args.stats {
        Some(StatsArg::Format(f)) => Some(f),
        _ => None,
    };
    if format.is_some() && args.json {
        return Err(
            "--stats=FORMAT prints statistics instead of the classification: it does not go with --json"
                .into(),
        );
    }
    let cfg = Config::new()
        .max_states(Some(args.max_states))
        .max_memory(Some(args.max_memory));
    let sources = args.input.sources()?;
    for (k, src) in sources.iter().enumerate() {
        let start = Instant::now();
        let f = match src.parse_cycles(args.clock_period.as_ref()) {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        run.spinner = Spinner::start(k + 1, sources.len(), &src.label(&f), CLASSIFYING);
        let classified = classify(&f, &cfg);
        // Cleared before anything is written.
        run.spinner = None;
        let c = match classified {
            Ok(c) => c,
            Err(e) => {
                run.error(&src.describe(&f, &e));
                continue;
            }
        };
        if let Some(format) = format {
            let seconds = start.elapsed().as_secs_f64();
            let line = format.render(|d| match d {
                'f' => f.to_spot(),
                's' => c.monitor_states.to_string(),
                'x' => c.alphabet.len().to_string(),
                _ => common_directive(d, src, seconds),
            });
            run.line_now(&line);
            continue;
        }
        // Spin's users check the properties that are not safety with a
        // Büchi claim of the negation (`compile -t promela`): its size.
        let claim_states = (c.safety == Some(false)).then(|| {
            Builder::new()
                .configure(cfg.clone())
                .build_buchi_from_formula(&Formula::not(f.clone()))
                .map(|a| a.num_states())
        });
        if args.json {
            let v = serde_json::json!({
                "formula": f.to_spot(),
                "safety": c.safety,
                "syntactic_safety": c.syntactic_safety,
                "guarantee": c.guarantee,
                "syntactic_guarantee": c.syntactic_guarantee,
                "liveness": c.liveness,
                "stutter_invariant": c.stutter_invariant,
                "pathologic": c.pathologic,
                "states": c.monitor_states,
                "informative_states": c.informative_states,
                "non_safety_witness": c.witness_text(),
                "buchi_claim_states": claim_states.as_ref().and_then(|n| n.as_ref().ok()),
            });
            let _ = writeln!(run.out, "{v}");
        } else {
            let mut tags: Vec<&str> = Vec::new();
            tags.push(match (c.safety, c.syntactic_safety) {
                (Some(true), true) => "safety (syntactic)",
                (Some(true), false) => "safety",
                (Some(false), _) => "not safety",
                (None, _) => "safety unknown (state limit)",
            });
            match c.guarantee {
                Some(true) if c.syntactic_guarantee => tags.push("guarantee (syntactic)"),
                Some(true) => tags.push("guarantee"),
                Some(false) => {}
                None => tags.push("guarantee unknown (state limit)"),
            }
            if c.liveness {
                tags.push("liveness");
            }
            tags.push(match c.stutter_invariant {
                Some(true) => "stutter-invariant",
                Some(false) => "stutter-sensitive",
                None => "stutter-invariance unknown (state limit)",
            });
            if c.safety == Some(true) {
                match c.pathologic {
                    Some(true) => tags.push("pathologic"),
                    Some(false) => {}
                    None => tags.push("pathologic unknown (state limit)"),
                }
            }
            let n = c.monitor_states;
            let mut line = format!(
                "{}: {}; monitor: {n} state{}",
                src.written().map_or_else(|| f.to_spot(), str::to_string),
                tags.join(", "),
                if n == 1 { "" } else { "s" }
            );
            if let Some(w) = c.witness_text() {
                let _ = write!(line, "; `{w}` violates it without a bad prefix");
            }
            match claim_states {
                Some(Ok(n)) => {
                    let s = if n == 1 { "" } else { "s" };
                    let _ = write!(line, "; Büchi claim of the negation: {n} state{s}");
                }
                Some(Err(_)) => {
                    let _ = write!(line, "; Büchi claim of the negation: over --max-states");
                }
                None => {}
            }
            let _ = writeln!(run.out, "{line}");
        }
        // Each line as it is known (a classification can take minutes).
        run.flush();
        if args.stats == Some(StatsArg::Human) {
            let n = c.monitor_states;
            eprintln!(
                "mongen: stats: `{}`: {n} state{}, {:.3} ms, peak memory {} MiB",
                src.label(&f),
                if n == 1 { "" } else { "s" },
                start.elapsed().as_secs_f64() * 1e3,
                crate::stats::peak_mib_text()
            );
        }
    }
    Ok(())
}
