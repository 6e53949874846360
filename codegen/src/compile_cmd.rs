//! `mongen compile`: formulas to monitors, claims, observers and checkers.

use std::fmt::Write as _;
use std::io::{self, IsTerminal};
use std::time::{Duration, Instant};

use crate::cli_input::{short, Source};
use crate::progress::Spinner;
use crate::stats::{common_directive, StatsArg};
use mongen::emit::hardware::clocking::{Clock, ClockEdge, Clocking, Reset, ResetCondition};
use mongen::emit::hoa::{write_buchi_hoa, HoaOptions};
use mongen::emit::json::JsonOptions;
use mongen::emit::promela::{emit_buchi_claim, PromelaOptions};
use mongen::emit::smv::{
    emit_smv_dfa, emit_smv_transducer, SmvNamespace, SmvObserver, SmvOptions, RESERVED_PREFIX,
};
use mongen::emit::smv_model::SmvModel;
use mongen::emit::systemc::SystemcOptions;
use mongen::emit::verilog::{
    checker_instance, emit_verilog, CheckerRole, Dialect, StateEncoding, VerilogLogic,
    VerilogOptions,
};
use mongen::emit::{Backend, Common, Target};
use monitor_core::analysis::{
    compare_informative, is_stutter_invariant, lasso_text, transducer, transducer_is_exact,
};
use monitor_core::formula::{
    ActiveLevel, ClockEdge as FormulaClockEdge, Directive, DirectiveKind, Formula, Op,
};
use monitor_core::translate::{Builder, Config, Prefixes, Route, Translation, Verdicts};

use crate::args::*;
use crate::output::*;

/// Above this many states, the SMV observer is the transducer when that is
/// exact (a non-pathologic safety property).
pub(crate) const SMV_DFA_LIMIT: usize = 1000;

/// How the work on one formula was spent (`--stats`).
#[derive(Default)]
pub(crate) struct Phases {
    pub(crate) parse: Duration,
    pub(crate) translation: Duration,
    pub(crate) informative: Option<Duration>,
    pub(crate) output: Option<Duration>,
}

pub(crate) fn compile(args: &CompileArgs, run: &mut Run) -> Result<(), String> {
    let format = match &args.stats {
        Some(StatsArg::Format(f)) => Some(f),
        _ => None,
    };
    if format.is_some() && args.model.is_some() {
        return Err(
            "--stats=FORMAT prints statistics instead of the monitors: it does not go with --model"
                .into(),
        );
    }
    if args.claim != ClaimKind::Auto && args.target != Target::Promela {
        return Err("--claim is for --target promela".into());
    }
    if args.buchi && (args.target != Target::Hoa || args.verdicts == 3) {
        return Err(
            "--buchi writes a Büchi automaton in HOA: it is for --target hoa, with two verdicts"
                .into(),
        );
    }
    if let Err(e) = output_is_no_input(args) {
        // The file is the user's input: a failed run's output removal must
        // not take it.
        run.withhold = true;
        return Err(e);
    }
    let clocking = args.clocking()?;
    let mut vunits = match &args.vunit {
        Some(path) => {
            if args.input.psl {
                eprintln!("mongen: warning: --psl is implied by --vunit");
            }
            Some(crate::vunit_input::read_vunits(path)?)
        }
        None => {
            let mut read = args.sv.read(&args.input.items)?;
            if let Some(v) = &read {
                v.report_refused(run)?;
            }
            if let Some(v) = read.as_mut().filter(|_| !args.target.is_hardware()) {
                for note in crate::sv_input::unclocked(v) {
                    run.note(&format!("mongen: note: {note}"));
                }
                if v.directives.is_empty() {
                    return Err(format!(
                        "{}: no assertion to compile for --target {} (only assumptions, \
                         restrictions and covers)",
                        v.file, args.target
                    ));
                }
            }
            read
        }
    };
    if vunits.is_some() && args.clock_period.is_some() {
        return Err(
            "--clock-period converts the time bounds of LTL formulas (`F[0:50ns] p`); the PSL \
             and SVA properties of --vunit and --sv have none: leave it out"
                .into(),
        );
    }
    // What is generated is named by --name, or the vunit's name.
    let base_name = match (&args.name, &vunits) {
        (Some(n), _) => n.clone(),
        (None, Some(v)) => v.unit_name().unwrap_or("monitor").to_string(),
        (None, None) => "monitor".to_string(),
    };
    let sources = match &vunits {
        Some(v) => v.sources.clone(),
        None => args.input.sources()?,
    };
    // --bind and --sby without a module take the vunit's.
    let module_of = |given: &Option<String>, option: &str| -> Result<Option<String>, String> {
        match given.as_deref() {
            None => Ok(None),
            Some("") => match &vunits {
                Some(v) => v.module().map(|m| Some(m.to_string())),
                None => Err(format!(
                    "{option} needs a MODULE (or a --vunit that names one)"
                )),
            },
            Some(m) => Ok(Some(m.to_string())),
        }
    };
    let bind_module = module_of(&args.bind, "--bind")?;
    let sby_module = module_of(&args.sby, "--sby")?;
    let signals = crate::hardware_flow::checker_signals(
        args,
        sby_module
            .as_deref()
            .or(bind_module.as_deref())
            .or(vunits.as_ref().and_then(|v| v.module().ok())),
    )?;
    let cfg = translation_config(args);
    let mut builder = Builder::new();
    builder.configure(cfg.clone());
    let mut smv = SmvContext::new(args)?;
    let sva_signals = crate::cli_input::sva_signals(&signals);
    let parsed: Vec<(ParsedDirective, Duration)> = match &vunits {
        Some(v) => v
            .directives
            .iter()
            .map(|d| (Ok((d.formula.clone(), Some(d.clone()))), Duration::ZERO))
            .collect(),
        None => sources
            .iter()
            .map(|src| {
                let start = Instant::now();
                let f = src.parse_directive_in_cycles(&sva_signals, args.clock_period.as_ref());
                (f, start.elapsed())
            })
            .collect(),
    };
    // PSL and SVA clocks and resets become the checkers' (one clock, one
    // reset signal for all; a checker whose directive has no reset has none).
    let (clocking, held) = directive_clocking(args, clocking, &sources, &parsed, vunits.is_some())?;
    let mut roles: Vec<CheckerRole> = parsed.iter().map(|(p, _)| checker_role(p)).collect();
    assumed_by_name(args, vunits.as_ref(), &mut roles)?;
    let parsed: Vec<(Result<Formula, String>, Duration)> = parsed
        .into_iter()
        .map(|(r, d)| (r.map(|(f, _)| f), d))
        .collect();
    check_defines_used(
        &args.defines,
        parsed.iter().filter_map(|(f, _)| f.as_ref().ok()),
    )?;
    for (src, (f, _)) in sources.iter().zip(&parsed) {
        if let Ok(f) = f {
            sva_past_of_vectors(src, f, &signals)?;
        }
    }
    // The spinner stays off while the monitors are written to the
    // terminal it would draw on.
    let output_on_terminal = args.output.is_none() && io::stdout().is_terminal();
    // Several formulas give several modules (claims, checkers): number
    // their names.
    let numbered = sources.len() > 1;
    // The checkers a bind file or a formal harness instantiates.
    let flow = crate::hardware_flow::Flow::new(
        args,
        &base_name,
        bind_module,
        sby_module,
        vunits.as_mut().and_then(|v| v.sv.take()),
    )?;
    let mut checkers = Vec::new();
    // The properties that --bind and --sby go without (--keep-going):
    // those the SVA front end refused, then those that failed here.
    let mut left_out: Vec<String> = vunits
        .as_ref()
        .map(|v| v.refused.iter().map(|(name, _)| name.clone()).collect())
        .unwrap_or_default();
    for (k, (src, (parsed, parse_time))) in sources.iter().zip(parsed).enumerate() {
        let start = Instant::now();
        let mut phases = Phases {
            parse: parse_time,
            ..Phases::default()
        };
        let suffix = |s: &str| {
            if numbered {
                format!("{s}_{}", k + 1)
            } else {
                s.to_string()
            }
        };
        let name = match &vunits {
            Some(v) => v.names[k].clone(),
            None => suffix(&base_name),
        };
        let f = match parsed {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                left_out.push(name);
                continue;
            }
        };
        run.spinner = Spinner::start(k + 1, sources.len(), &src.label(&f), "translating");
        // --stats=FORMAT reports on the monitor whatever the target.
        let smv_transducer = format.is_none()
            && args.target == Target::Smv
            && args.smv_encoding == SmvEncoding::Transducer;
        // A Büchi automaton asked for by name needs no monitor (which can
        // be far larger, or beyond --max-states).
        let buchi_only = format.is_none()
            && ((args.target == Target::Hoa && args.buchi)
                || (args.target == Target::Promela && args.claim == ClaimKind::Buchi));
        // What the automaton is named after: the property as written.
        // (Cut past 16 MiB, as the library cuts a monitor's name: the
        // text of nested windows is quadratic in the formula.)
        let property = src
            .written()
            .map_or_else(|| f.to_spot_within(1 << 24), str::to_string);
        let t = if smv_transducer || buchi_only {
            None
        } else {
            let built = builder.build_from_formula(&f);
            phases.translation = start.elapsed();
            match built {
                Ok(mut t) => {
                    // PSL users read their property as they wrote it
                    // (Spot's PSL syntax is not theirs).
                    if let Some(text) = src.written() {
                        t.set_name(text);
                    }
                    Some(t)
                }
                Err(e)
                    if format.is_none()
                        && args.target == Target::Smv
                        && args.smv_encoding == SmvEncoding::Auto
                        && e.state_limit().is_some() =>
                {
                    run.note(&format!(
                        "mongen: warning: `{}`: the monitor exceeds {} states; using the transducer encoding, \
                         which detects the informative bad prefixes (every violation when the formula is a \
                         non-pathologic safety property)",
                        src.label(&f),
                        args.max_states
                    ));
                    None
                }
                Err(e) => {
                    run.spinner = None;
                    run.error(&src.describe(&f, &e));
                    left_out.push(name);
                    continue;
                }
            }
        };
        if let Some(t) = &t {
            phases.informative = report(args, &cfg, &f, t, src, run);
        }
        if let (Some(format), Some(t)) = (format, &t) {
            let seconds = (phases.parse + start.elapsed()).as_secs_f64();
            run.spinner = None;
            let line = format.render(|d| compile_directive(d, &f, t, src, seconds));
            run.line_now(&line);
            continue;
        }
        if output_on_terminal {
            run.spinner = None;
        }
        let output_start = Instant::now();
        run.stage(&format!("writing the {} output", args.target.title()));
        // `--sv`: the checker's ports have the widths that the
        // assertion's module declares (`v |-> ack` reads `v != 0` of an
        // 8-bit `v`, not its bit 0), unless --design or --input says
        // otherwise.
        let own_signals;
        let signals: &[mongen::hdl::HdlInput] =
            match vunits.as_ref().and_then(|v| v.declared.get(k)) {
                Some(declared) if !declared.is_empty() => {
                    let mut all = declared.clone();
                    crate::hardware_flow::override_signals(&mut all, &signals);
                    own_signals = all;
                    &own_signals
                }
                _ => &signals,
            };
        // A directive without `disable iff` (or whose `disable iff` reads
        // past values and is part of its formula) is checked in reset too.
        let own_clocking;
        let job = TargetJob {
            args,
            cfg: &cfg,
            builder: &builder,
            formula: &f,
            property: &property,
            name: &name,
            suffix: &suffix,
            clocking: if held[k] {
                &clocking
            } else {
                own_clocking = Clocking {
                    reset: None,
                    ..clocking.clone()
                };
                &own_clocking
            },
            signals,
            role: roles[k],
            label: src.label(&f),
        };
        let out = write_target(&job, t.as_ref(), &mut smv, &mut checkers, run);
        match out {
            Ok(text) => run.out.push_str(&text),
            Err(e) => {
                run.error(&format!("{}: {e}", job.label));
                left_out.push(name.clone());
            }
        }
        run.spinner = None;
        if let (Some(StatsArg::Human), Some(t)) = (&args.stats, &t) {
            // The time includes writing: what is pending goes out now.
            run.flush();
            phases.output = Some(output_start.elapsed());
            let total = phases.parse + start.elapsed();
            human_stats(&job.label, t, total, &phases);
        }
    }
    if let Some(flow) = &flow {
        if run.errors > 0 && !args.keep_going {
            return Err(
                "the bind file and formal harness are not written, as some properties failed \
                 (--keep-going writes them with the others, and names those left out)"
                    .into(),
            );
        }
        for file in flow.write(&checkers, &clocking, &left_out)? {
            if args.stats.is_none() {
                eprintln!("mongen: wrote {}", file.display());
            }
        }
    }
    if let Some(model) = smv.finish() {
        // A model with fewer observers than asked for would look checked.
        if run.errors > 0 {
            run.withhold = true;
            return Err("the model is not written, as some properties failed".into());
        }
        run.raw = Some(model);
    }
    Ok(())
}

/// The translation settings of `compile`'s options.
pub(crate) fn translation_config(args: &CompileArgs) -> Config {
    Config::new()
        .max_states(Some(args.max_states))
        .max_memory(Some(args.max_memory))
        .verdicts(if args.verdicts == 3 {
            Verdicts::Three
        } else {
            Verdicts::Two
        })
        .prefixes(if args.informative {
            Prefixes::Informative
        } else {
            Prefixes::Exact
        })
        .route(args.route.into())
}

/// `--assume NAME`: the assertions named become assumptions.
fn assumed_by_name(
    args: &CompileArgs,
    vunits: Option<&crate::vunit_input::VunitProperties>,
    roles: &mut [CheckerRole],
) -> Result<(), String> {
    use mongen::emit::names::comment_safe;
    if args.assume.is_empty() {
        return Ok(());
    }
    let Some(v) = vunits else {
        return Err("--assume names assertions of --sv or --vunit by their labels".into());
    };
    for name in &args.assume {
        let Some(k) = v.names.iter().position(|n| n == name) else {
            let refused = v.refused.iter().any(|(n, _)| n == name);
            return Err(if refused {
                format!(
                    "--assume {}: that assertion is refused (see its error)",
                    comment_safe(name)
                )
            } else {
                format!(
                    "--assume {}: no assertion of that name in {}; its names: {}",
                    comment_safe(name),
                    v.file,
                    comment_safe(&v.names.join(", "))
                )
            });
        };
        match roles[k] {
            CheckerRole::Cover => {
                return Err(format!(
                    "--assume {}: a cover cannot be assumed",
                    comment_safe(name)
                ));
            }
            _ => roles[k] = CheckerRole::Assume,
        }
    }
    Ok(())
}

/// What a PSL directive makes of its checker (a plain formula asserts).
pub(crate) fn checker_role(p: &ParsedDirective) -> CheckerRole {
    match p {
        Ok((_, Some(d))) => match d.kind {
            DirectiveKind::Assert => CheckerRole::Assert,
            DirectiveKind::Assume | DirectiveKind::Restrict => CheckerRole::Assume,
            DirectiveKind::Cover => CheckerRole::Cover,
        },
        _ => CheckerRole::Assert,
    }
}

/// A `--define` must name a proposition of some formula (a misspelt one
/// would silently leave the proposition unbound).
pub(crate) fn check_defines_used<'a>(
    defines: &[(String, String)],
    formulas: impl Iterator<Item = &'a Formula>,
) -> Result<(), String> {
    let mut used = vec![false; defines.len()];
    for f in formulas {
        let aps = f.atomic_propositions();
        for (k, (name, _)) in defines.iter().enumerate() {
            used[k] |= aps.contains(name);
        }
    }
    match defines.iter().zip(used).find(|(_, used)| !used) {
        Some(((name, _), _)) => Err(mongen::trace_report::unused_define(name, "formula")),
        None => Ok(()),
    }
}

/// One formula's output job for `compile`: what the target needs besides
/// the monitor.
pub(crate) struct TargetJob<'a> {
    pub(crate) args: &'a CompileArgs,
    pub(crate) cfg: &'a Config,
    pub(crate) builder: &'a Builder,
    pub(crate) formula: &'a Formula,
    /// The property as written (what the automaton is named after).
    pub(crate) property: &'a str,
    /// The name of the generated module, claim or type.
    pub(crate) name: &'a str,
    /// Numbers a name when there are several formulas.
    pub(crate) suffix: &'a dyn Fn(&str) -> String,
    pub(crate) clocking: &'a Clocking,
    pub(crate) signals: &'a [mongen::hdl::HdlInput],
    pub(crate) role: CheckerRole,
    /// The formula in messages.
    pub(crate) label: String,
}

/// Writes the monitor of one formula (or its claim, observer or
/// checker) in the target's format. HOA, DOT and JSON go to the output
/// at once, state by state (the returned text is then empty); an SMV
/// observer joins the model; a Verilog checker joins the bind file or
/// formal harness.
pub(crate) fn write_target(
    job: &TargetJob<'_>,
    t: Option<&Translation>,
    smv: &mut SmvContext,
    checkers: &mut Vec<mongen::emit::formal::CheckerInstance>,
    run: &mut Run,
) -> Result<String, String> {
    let TargetJob {
        args,
        cfg,
        builder,
        formula: f,
        property,
        name,
        suffix,
        clocking,
        label,
        ..
    } = job;
    let common = Common {
        name: name.to_string(),
        defines: args.defines.clone(),
        informative: args.informative,
        three_valued: args.verdicts == 3,
    };
    match (t, args.target) {
        (_, Target::Hoa) if args.buchi => match builder.build_buchi_from_formula(f) {
            Ok(mut a) => {
                a.set_name(*property);
                let opts = HoaOptions {
                    common: Common::default(),
                    stutter_invariant: Some(f.is_next_free()),
                };
                run.stream(|w| write_buchi_hoa(&a, &opts, w))
                    .map(|()| String::new())
            }
            Err(e) => Err(crate::cli_input::explain(&e)),
        },
        (t, Target::Promela) if t.is_none_or(|t| buchi_claim(args, t)) => builder
            .build_buchi_from_formula(&Formula::not((*f).clone()))
            .map_err(|e| crate::cli_input::explain(&e))
            .and_then(|mut negation| {
                negation.set_name(*property);
                let opts = PromelaOptions {
                    common,
                    // The monitor's answer is about its safety closure:
                    // ask about the property.
                    stutter_invariant: is_stutter_invariant(f, cfg).ok().flatten(),
                    file: claim_file(args),
                };
                emit_buchi_claim(&negation, &opts).map_err(|e| e.to_string())
            }),
        (t, Target::Smv) => {
            let (name, instance) =
                smv.names(name, args.instance.as_deref().map(suffix), &suffix("obs"));
            let opts = SmvOptions {
                common: Common { name, ..common },
                instance: instance?,
                namespace: smv.namespace(),
            };
            emit_smv(args, cfg, f, t, opts, smv.model.as_ref(), run).map(|obs| smv.add(obs))
        }
        (Some(t), Target::Verilog | Target::Sva) => {
            let opts = verilog_options(job, common);
            let text = emit_verilog(t.dfa(), &opts).map_err(|e| e.to_string());
            if text.is_ok() && (args.bind.is_some() || args.sby.is_some()) {
                match checker_instance(t.dfa(), &opts) {
                    Ok(c) => checkers.push(c),
                    Err(e) => run.error(&format!("{label}: {e}")),
                }
            }
            text
        }
        (Some(t), target) => {
            let backend: Box<dyn Backend> = match target {
                Target::Hoa => Box::new(HoaOptions {
                    common,
                    stutter_invariant: Some(f.is_next_free()),
                }),
                Target::Json => Box::new(JsonOptions {
                    common,
                    safety: t.is_safety(),
                }),
                Target::Promela => Box::new(PromelaOptions {
                    common,
                    stutter_invariant: None,
                    file: claim_file(args),
                }),
                Target::Systemc => Box::new(SystemcOptions {
                    common,
                    clocking: (*clocking).clone(),
                }),
                // No option of the command line's own (DOT, Rust; SMV,
                // Verilog and SVA are written above).
                _ => target.backend(common),
            };
            if target.streams() {
                // HOA, DOT and JSON go to the output now, state by state
                // (nothing is left in `run.out`); a label too large to
                // write is this formula's error, its partial text taken
                // back out of the file.
                run.stream(|w| backend.write(t.dfa(), w))
                    .map(|()| String::new())
            } else {
                backend.emit(t.dfa()).map_err(|e| e.to_string())
            }
        }
        (None, _) => unreachable!("only SMV and Büchi automata go without a monitor"),
    }
}

/// The file name a never claim's usage comment gives.
pub(crate) fn claim_file(args: &CompileArgs) -> String {
    args.output
        .as_ref()
        .map_or("claim.pml".into(), |p| p.display().to_string())
}

/// A Verilog or SystemVerilog checker's options, from `compile`'s.
pub(crate) fn verilog_options(job: &TargetJob<'_>, common: Common) -> VerilogOptions {
    let args = job.args;
    VerilogOptions {
        common,
        encoding: match args.encoding {
            Encoding::Auto => None,
            Encoding::Binary => Some(StateEncoding::Binary),
            Encoding::Onehot => Some(StateEncoding::OneHot),
        },
        logic: match args.logic {
            Logic::Minimized => VerilogLogic::Minimized,
            Logic::Case => VerilogLogic::Case,
        },
        clocking: job.clocking.clone(),
        dialect: if args.target == Target::Sva {
            Dialect::Sva
        } else {
            Dialect::Verilog
        },
        signals: job.signals.to_vec(),
        role: job.role,
    }
}

/// Refuses an --output that is one of the files read (`--sv`, `--design`,
/// `--vunit`, `--model`, `-F`): writing it would replace the user's source
/// (and a failed run, which leaves no output, would delete it).
fn output_is_no_input(args: &CompileArgs) -> Result<(), String> {
    let Some(out) = &args.output else {
        return Ok(());
    };
    let mut inputs: Vec<(&str, std::path::PathBuf)> = Vec::new();
    inputs.extend(args.sv.file.iter().map(|f| ("--sv", f.clone())));
    inputs.extend(args.design.iter().map(|f| ("--design", f.clone())));
    inputs.extend(args.vunit.iter().map(|f| ("--vunit", f.clone())));
    inputs.extend(args.model.iter().map(|f| ("--model", f.clone())));
    for item in &args.input.items {
        if let crate::cli_input::Item::File(spec) = item {
            if let Ok(spec) = crate::cli_input::file_spec(spec) {
                inputs.push(("-F", spec.path));
            }
        }
    }
    match inputs
        .iter()
        .find(|(_, input)| crate::output::same_file(out, input))
    {
        Some((option, _)) => Err(format!(
            "--output {}: it is the file given to {option}, which the output would replace",
            crate::output::shown_path(out)
        )),
        None => Ok(()),
    }
}

/// A formula read for `compile`, with its PSL directive if any.
pub(crate) type ParsedDirective = Result<(Formula, Option<Directive>), String>;

/// The checkers' clocking once the PSL and SVA directives' clocks and
/// resets are taken in: they must agree with each other and with
/// --clock/--reset, and only hardware checkers have them. Also, per
/// directive, whether its checker has the reset: with --reset, every
/// checker; else, when the reset is a directive's `disable iff` (or
/// outermost `abort`), or the directives come from a file (`--vunit`,
/// `--sv`: the design's own reset is in their `disable iff`, or there is
/// none), only the checkers of directives that have one, as the standards
/// say (the others are checked in reset too); otherwise (formulas given
/// alone) every checker has the default reset.
pub(crate) fn directive_clocking(
    args: &CompileArgs,
    mut clocking: Clocking,
    sources: &[Source],
    parsed: &[(ParsedDirective, Duration)],
    from_file: bool,
) -> Result<(Clocking, Vec<bool>), String> {
    let disables = |p: &ParsedDirective| matches!(p, Ok((_, Some(d))) if d.disable.is_some());
    let from_directives = args.reset.is_none()
        && !args.no_reset
        && (from_file || parsed.iter().any(|(p, _)| disables(p)));
    let held = parsed
        .iter()
        .map(|(p, _)| !from_directives || disables(p) || !matches!(p, Ok((_, Some(_)))))
        .collect();
    if from_directives && !parsed.iter().any(|(p, _)| disables(p)) {
        // No directive of the file has a reset: neither do the checkers.
        clocking.reset = None;
    }
    let hardware = args.target.is_hardware();
    let mut clock_from: Option<String> = args.clock.as_ref().map(|_| "--clock".to_string());
    let mut reset_from: Option<String> = (args.reset.is_some() || args.no_reset).then(|| {
        if args.no_reset {
            "--no-reset"
        } else {
            "--reset"
        }
        .to_string()
    });
    for (src, (p, _)) in sources.iter().zip(parsed) {
        let Ok((_, Some(d))) = p else { continue };
        let label = || format!("`{}`", src.text.trim());
        if d.kind != DirectiveKind::Assert && !matches!(args.target, Target::Verilog | Target::Sva)
        {
            return Err(format!(
                "{}: {} directives are compiled for --target verilog and sva (checkers that \
                 formal tools assume or cover); other targets check assertions: write `assert`",
                label(),
                d.kind
            ));
        }
        if !hardware && (d.clock.is_some() || d.disable.is_some()) {
            return Err(format!(
                "{}: a clock or reset (`@`, `disable iff`, an outermost `abort`) is for the \
                 hardware checkers (--target verilog, sva, systemc): other monitors read one \
                 letter per cycle; leave it out",
                label()
            ));
        }
        if let Some(c) = &d.clock {
            let edge = match c.edge {
                FormulaClockEdge::Posedge => ClockEdge::Posedge,
                FormulaClockEdge::Negedge => ClockEdge::Negedge,
            };
            let clock = Clock {
                name: c.signal.clone(),
                edge,
            };
            match &clock_from {
                Some(from) if clocking.clock != clock => {
                    return Err(format!(
                        "{}: its clock `@({c})` differs from {from}'s `{}`; a set of checkers has one clock",
                        label(),
                        clocking.clock
                    ))
                }
                _ => {
                    clocking.clock = clock;
                    clock_from = Some(label());
                }
            }
        }
        if let Some(dis) = &d.disable {
            let reset = match dis.signal() {
                Some((name, level)) => Reset {
                    name: name.to_string(),
                    active_low: level == ActiveLevel::Low,
                    asynchronous: !dis.synchronous,
                    condition: None,
                },
                // A compound condition (`!rst_ni || flush_i`) drives an
                // active-high port where the checker is instantiated.
                None => {
                    let text = |f: &Formula| condition_text(f, &condition_atom, "1'b1", "1'b0");
                    let (Some(expression), Some(initial)) = (
                        text(&dis.condition),
                        initial_reset(&dis.condition).as_ref().and_then(text),
                    ) else {
                        return Err(format!(
                            "{}: the reset condition `{}` is not a Boolean expression of the \
                             design's signals",
                            label(),
                            dis.condition
                        ));
                    };
                    Reset {
                        name: "disable_iff".into(),
                        active_low: false,
                        asynchronous: !dis.synchronous,
                        condition: Some(ResetCondition {
                            expression,
                            initial,
                        }),
                    }
                }
            };
            let shown = |r: &Reset| match &r.condition {
                Some(c) => format!("disable iff ({})", c.expression),
                None => r.to_string(),
            };
            match &reset_from {
                Some(from) if clocking.reset.as_ref() != Some(&reset) => {
                    return Err(format!(
                        "{}: its reset `{}` differs from {from}'s; a set of checkers has one reset",
                        label(),
                        shown(&reset)
                    ))
                }
                _ => {
                    clocking.reset = Some(reset);
                    reset_from = Some(label());
                }
            }
        }
    }
    Ok((clocking, held))
}

/// The text of the Boolean formula `f` (a reset condition) with `!`,
/// `&&` and `||` (the syntax of Verilog and of `check`'s expressions),
/// each atom written by `atom`, the constants as `t` and `f`; `None` for a
/// temporal formula.
pub(crate) fn condition_text(
    f: &Formula,
    atom: &dyn Fn(&str) -> String,
    t: &str,
    ff: &str,
) -> Option<String> {
    // Operands in parentheses, but for atoms and negated atoms.
    let operand = |c: &Formula| -> Option<String> {
        let text = condition_text(c, atom, t, ff)?;
        let plain = matches!(c.op(), Op::Ap | Op::True | Op::False)
            || (c.op() == Op::Not && c.child(0).op() == Op::Ap);
        Some(if plain { text } else { format!("({text})") })
    };
    let parts = |sep: &str| -> Option<String> {
        let inner: Option<Vec<String>> = f.children().iter().map(operand).collect();
        Some(inner?.join(sep))
    };
    Some(match f.op() {
        Op::True => t.to_string(),
        Op::False => ff.to_string(),
        Op::Ap => atom(f.ap_name()?),
        Op::Not => format!("!{}", operand(f.child(0))?),
        Op::And => parts(" && ")?,
        Op::Or => parts(" || ")?,
        Op::Implies => format!("!{} || {}", operand(f.child(0))?, operand(f.child(1))?),
        _ => return None,
    })
}

/// The text of an atom in a condition: a name as it is, an expression
/// (`x == 3`) in parentheses.
pub(crate) fn condition_atom(a: &str) -> String {
    if a.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
    {
        a.to_string()
    } else {
        format!("({a})")
    }
}

/// What a proof assumes in its first cycle for the reset condition `c`:
/// the terms of its disjunction that are a reset signal (named `rst` or
/// `reset`, in any case: `!rst_ni` of `!rst_ni || flush_i`), all active:
/// the design's own reset, so that the proof starts from its reset state
/// (assuming `c` alone, `flush_i` could excuse a design in any state).
/// `c` itself when no term is one.
pub(crate) fn initial_reset(c: &Formula) -> Option<Formula> {
    let mut terms = Vec::new();
    let mut stack = vec![c];
    while let Some(f) = stack.pop() {
        if f.op() == Op::Or {
            stack.extend(f.children());
        } else {
            terms.push(f);
        }
    }
    let named_reset = |n: &str| {
        let n = n.to_ascii_lowercase();
        n.contains("rst") || n.contains("reset")
    };
    let signal = |f: &Formula| {
        let atom = if f.op() == Op::Not { f.child(0) } else { f };
        atom.ap_name().is_some_and(named_reset)
    };
    let mut resets: Vec<Formula> = terms.into_iter().filter(|f| signal(f)).cloned().collect();
    resets.reverse();
    Some(match resets.len() {
        0 => c.clone(),
        1 => resets.pop()?,
        _ => Formula::and(resets),
    })
}

/// `--stats` without FORMAT: the sizes, the time of all the work done for
/// the formula and the peak memory (one line, read by the benchmark
/// scripts), then where the time went.
pub(crate) fn human_stats(label: &str, t: &Translation, total: Duration, phases: &Phases) {
    let s = t.stats();
    let built = match s.route {
        Route::Derivatives => format!("derivatives {}", s.subset_states),
        _ => format!("Büchi {}, subsets {}", s.nba_states, s.subset_states),
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut line = format!(
        "mongen: stats: `{label}`: {} ({built}), {:.3} ms, peak memory ",
        mongen::emit::names::states(s.states),
        ms(total),
    );
    match crate::stats::peak_rss_kib() {
        Some(kib) => {
            let _ = write!(line, "{:.1} MiB", kib as f64 / 1024.0);
        }
        None => line.push_str("unknown"),
    }
    let mut split = format!(
        "mongen: stats: `{label}`: time: parse {:.3} ms, translation and safety analysis {:.3} ms",
        ms(phases.parse),
        ms(phases.translation)
    );
    if let Some(d) = phases.informative {
        let _ = write!(split, ", informative comparison {:.3} ms", ms(d));
    }
    if let Some(d) = phases.output {
        let _ = write!(split, ", output {:.3} ms", ms(d));
    }
    eprintln!("{line}\n{split}");
}

/// The value of a `compile --stats=FORMAT` directive.
pub(crate) fn compile_directive(
    d: char,
    f: &Formula,
    t: &Translation,
    src: &Source,
    seconds: f64,
) -> String {
    match d {
        'f' => f.to_spot(),
        's' => t.dfa().num_states().to_string(),
        'e' => t.dfa().num_edges().to_string(),
        't' => crate::stats::transitions(t.dfa()).to_string(),
        'x' => t.dfa().alphabet().len().to_string(),
        _ => common_directive(d, src, seconds),
    }
}

/// SMV observers of one run: appended one after the other, or, with
/// `--model`, collected and put into the model.
pub(crate) struct SmvContext {
    pub(crate) model: Option<SmvModel>,
    /// Names already given (modules, instances), with `--model`.
    pub(crate) taken: std::collections::BTreeSet<String>,
    pub(crate) observers: Vec<SmvObserver>,
}

impl SmvContext {
    pub(crate) fn new(args: &CompileArgs) -> Result<SmvContext, String> {
        let model = match &args.model {
            Some(_) if args.target != Target::Smv => {
                return Err("--model is for --target smv".into());
            }
            Some(path) => {
                let text = std::fs::read(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                Some(SmvModel::read(&text).map_err(|e| format!("{}: {e}", path.display()))?)
            }
            None => None,
        };
        Ok(SmvContext {
            model,
            taken: Default::default(),
            observers: Vec::new(),
        })
    }

    pub(crate) fn namespace(&self) -> SmvNamespace {
        match &self.model {
            Some(m) => SmvNamespace::Avoiding(m.constants().clone()),
            None => SmvNamespace::Reserved,
        }
    }

    /// The name of the observer (its module is `NAME_observer`) and of its
    /// instance (`explicit`, when the user gave one).
    /// The default instance is `default`, with the reserved prefix when
    /// the model is not known.
    pub(crate) fn names(
        &mut self,
        name: &str,
        explicit: Option<String>,
        default: &str,
    ) -> (String, Result<String, String>) {
        let Some(model) = &self.model else {
            let instance = explicit.unwrap_or_else(|| format!("{RESERVED_PREFIX}{default}"));
            return (name.to_string(), Ok(instance));
        };
        let module_name = model.fresh_module(name, &mut self.taken);
        let instance = match explicit {
            Some(i) if model.uses(&i) || self.taken.contains(&i) => Err(format!(
                "--instance {i}: the model already uses the name `{i}`"
            )),
            Some(i) => {
                self.taken.insert(i.clone());
                Ok(i)
            }
            None => Ok(model.fresh_name(default, &mut self.taken)),
        };
        (module_name, instance)
    }

    /// Records an observer; returns the text to print now (none with
    /// `--model`: the model is printed at the end).
    pub(crate) fn add(&mut self, obs: SmvObserver) -> String {
        if self.model.is_some() {
            self.observers.push(obs);
            String::new()
        } else {
            obs.appendable()
        }
    }

    /// The model with the observers, with `--model`.
    pub(crate) fn finish(&self) -> Option<Vec<u8>> {
        let model = self.model.as_ref()?;
        let mains: Vec<String> = self.observers.iter().map(|o| o.main.clone()).collect();
        let modules: Vec<String> = self.observers.iter().map(|o| o.module.clone()).collect();
        Some(model.insert(&mains, &modules))
    }
}

/// Whether `--target promela` writes a Büchi claim for `t`.
pub(crate) fn buchi_claim(args: &CompileArgs, t: &Translation) -> bool {
    match args.claim {
        ClaimKind::Buchi => true,
        ClaimKind::Safety => false,
        ClaimKind::Auto => t.is_safety() == Some(false),
    }
}

/// Warnings and notes about one translation, on standard error; the time
/// of the informative comparison (with `--informative`).
pub(crate) fn report(
    args: &CompileArgs,
    cfg: &Config,
    f: &Formula,
    t: &Translation,
    src: &Source,
    run: &mut Run,
) -> Option<Duration> {
    // A Büchi automaton checks the whole property: no closure to warn of.
    let buchi = args.buchi || (args.target == Target::Promela && buchi_claim(args, t));
    if t.is_safety() == Some(false) && !args.quiet && !buchi {
        let mut msg = format!(
            "mongen: warning: `{}` is not a safety property; the monitor rejects the bad prefixes of its safety closure",
            src.label(f)
        );
        if let Some(w) = t.non_safety_witness() {
            let _ = write!(
                msg,
                " (`{}` violates it but has no bad prefix)",
                lasso_text(w, t.dfa().alphabet())
            );
        }
        run.note(&msg);
    }
    if t.is_safety().is_none() && !args.quiet {
        run.note(&format!(
            "mongen: note: `{}`: deciding whether it is a safety property goes beyond {} states or --max-memory; \
             the monitor rejects exactly the bad prefixes of its safety closure either way",
            src.label(f),
            args.max_states
        ));
    }
    if !args.informative {
        return None;
    }
    run.stage("comparing the informative monitor with the exact one");
    let start = Instant::now();
    let compared = compare_informative(f, cfg);
    let took = start.elapsed();
    match compared {
        Ok(r) => run.note(&match r.word_text() {
            Some(w) => format!(
                "mongen: note: `{}`: informative monitor {}, exact monitor {}; \
                 shortest bad prefix that is not informative: {w}",
                src.label(f),
                mongen::emit::names::states(r.informative_states),
                mongen::emit::names::states(r.exact_states)
            ),
            None => format!(
                "mongen: note: `{}`: every bad prefix is informative (informative monitor {}, exact {})",
                src.label(f),
                mongen::emit::names::states(r.informative_states),
                mongen::emit::names::states(r.exact_states)
            ),
        }),
        Err(e) => run.error(&src.describe(f, &e)),
    }
    Some(took)
}

/// The SMV observer: the DFA or the transducer (see `SmvEncoding`).
pub(crate) fn emit_smv(
    args: &CompileArgs,
    cfg: &Config,
    f: &Formula,
    t: Option<&Translation>,
    opts: SmvOptions,
    model: Option<&SmvModel>,
    run: &Run,
) -> Result<SmvObserver, String> {
    let three = opts.common.three_valued;
    // The transducer is exact for non-pathologic safety properties.
    let transducer_exact = || transducer_is_exact(f, cfg).ok().flatten() == Some(true);
    // The transducer reads the next letter (`next(p)`), which NuSMV
    // forbids for input variables (IVAR, a process's `running`).
    let input = model.and_then(|m| {
        f.atomic_propositions().iter().find_map(|ap| {
            let expr = opts
                .common
                .defines
                .iter()
                .rev()
                .find(|(n, _)| n == ap)
                .map_or(ap.as_str(), |(_, e)| e.as_str());
            m.reads_input(expr).map(|i| (ap.clone(), i))
        })
    });
    let use_transducer = match (args.smv_encoding, t) {
        (SmvEncoding::Dfa, _) => false,
        (SmvEncoding::Transducer, _) | (_, None) => true,
        (SmvEncoding::Auto, Some(t)) => {
            t.dfa().num_states() > SMV_DFA_LIMIT && !three && input.is_none() && transducer_exact()
        }
    };
    if let (true, Some((ap, var))) = (use_transducer, &input) {
        run.note(&format!(
            "mongen: warning: `{}`: the proposition `{ap}` may read the input variable `{var}`, and NuSMV \
             rejects the transducer encoding then (it reads the next letter, `next` of an input); \
             use --smv-encoding dfa",
            short(f)
        ));
    }
    if use_transducer {
        if three {
            return Err("three-valued verdicts need --smv-encoding dfa".into());
        }
        if args.smv_encoding == SmvEncoding::Transducer && !args.quiet && !transducer_exact() {
            run.note(&format!(
                "mongen: warning: `{}` is not known to be a non-pathologic safety property: the transducer \
                 detects its informative bad prefixes only, and may miss violations",
                short(f)
            ));
        }
        let tr = transducer(f).map_err(|e| e.to_string())?;
        emit_smv_transducer(&tr, &opts).map_err(|e| e.to_string())
    } else {
        let t = t.expect("a monitor unless the transducer is used");
        emit_smv_dfa(t.dfa(), &opts).map_err(|e| e.to_string())
    }
}

/// SVA's sampled-value functions read vectors whole (`$stable(count)`,
/// `$past(data)`), and `$rose`/`$fell` their least significant bit; the
/// formula reads propositions, a vector being "nonzero". The front end
/// reads their arguments as 1-bit signals: a past value of a signal
/// declared wider (`--input NAME:WIDTH`, `--design`) is refused rather
/// than checked with another meaning.
fn sva_past_of_vectors(
    src: &Source,
    f: &Formula,
    signals: &[mongen::hdl::HdlInput],
) -> Result<(), String> {
    if src.lang != crate::cli_input::Language::Sva || !f.has_past() {
        return Ok(());
    }
    let mut past_read = std::collections::BTreeSet::new();
    for g in f.subformulas_postorder() {
        if matches!(
            g.op(),
            Op::Y | Op::Z | Op::O | Op::H | Op::S | Op::B | Op::T
        ) {
            past_read.extend(g.atomic_propositions());
        }
    }
    for name in past_read {
        if let Some(s) = signals.iter().find(|s| s.name == name && s.msb != s.lsb) {
            return Err(format!(
                "{}: `{name}` is {} bits wide, and SVA's sampled-value functions ($past, $rose, \
                 $fell, $stable, $changed) read their arguments as 1-bit signals here: compare \
                 the vector (`$stable({name} == 3)`) or give its bits (`$rose({name}[0])`)",
                src.label(f),
                s.msb.abs_diff(s.lsb) + 1
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::formula::sva::parse_sva_directive;

    /// The reset condition of an SVA assertion, its Verilog text and its
    /// first-cycle assumption.
    fn reset(condition: &str) -> (String, String) {
        let d = parse_sva_directive(&format!(
            "assert property (@(posedge clk) disable iff ({condition}) a);"
        ))
        .unwrap();
        let c = d.disable.unwrap().condition;
        let text = |f: &Formula| condition_text(f, &condition_atom, "1'b1", "1'b0").unwrap();
        (text(&c), text(&initial_reset(&c).unwrap()))
    }

    #[test]
    fn compound_resets_as_verilog_and_their_first_cycle() {
        let (e, i) = reset("!rst_ni || flush_i");
        assert!(
            e == "!rst_ni || flush_i" || e == "flush_i || !rst_ni",
            "{e}"
        );
        assert_eq!(i, "!rst_ni");
        let (e, i) = reset("rst || (halt && !go)");
        assert!(e.contains("rst") && e.contains("halt && !go"), "{e}");
        assert_eq!(i, "rst");
        // Two resets: both active; none named so: the condition itself.
        let (_, i) = reset("!rst_ni || Reset || flush");
        assert!(i == "!rst_ni && Reset" || i == "Reset && !rst_ni", "{i}");
        let (e, i) = reset("halt && !go");
        assert_eq!(i, e);
        // A vector comparison is an atom in parentheses.
        let (e, _) = reset("!rst_ni || (count == 3)");
        assert!(e.contains("(count == 3)"), "{e}");
    }

    #[test]
    fn temporal_conditions_have_no_text() {
        let past = Formula::or(vec![
            Formula::ap("rst"),
            Formula::yesterday(Formula::ap("x")),
        ]);
        assert_eq!(condition_text(&past, &condition_atom, "1", "0"), None);
    }
}
