//! `mongen`: compile LTL safety properties into minimal deterministic monitors.

use std::fmt::Write as _;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

mod check_cmd;

use clap::{Args, Parser, Subcommand, ValueEnum};
use mongen::emit::dot::write_dot;
use mongen::emit::hoa::{write_hoa, HoaOptions};
use mongen::emit::json::{write_json, JsonOptions};
use mongen::emit::promela::{emit_promela, PromelaOptions};
use mongen::emit::rust::{emit_rust, RustOptions};
use mongen::emit::smv::{
    emit_smv_dfa, emit_smv_transducer, SmvNamespace, SmvObserver, SmvOptions, RESERVED_PREFIX,
};
use mongen::emit::smv_model::SmvModel;
use mongen::emit::systemc::{emit_systemc, SystemcOptions};
use mongen::emit::verilog::{emit_verilog, StateEncoding, VerilogLogic, VerilogOptions};
use monitor_core::formula::families::{generate, FAMILIES};
use monitor_core::formula::simplify::simplify;
use monitor_core::formula::{parse, parse_psl, Formula, ParseError};
use monitor_core::translate::{
    classify, compare_informative, lasso_text, transducer, BuildError, Builder, Config, Prefixes,
    Route, Translation, Verdicts, DEFAULT_MAX_STATES,
};

/// Compile temporal safety properties (LTL with past, Spot/Spin syntax) into
/// deterministic, minimal monitors of their bad prefixes.
#[derive(Parser, Debug)]
#[command(name = "mongen", version, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Compile formulas into monitors (HOA by default).
    Compile(CompileArgs),
    /// Tell whether formulas are safety, guarantee, liveness,
    /// stutter-invariant or pathologic.
    Classify(ClassifyArgs),
    /// Print formulas back in Spot or Spin syntax.
    Print(PrintArgs),
    /// Generate formulas of the benchmark families (Spot's genltl names).
    Genltl(GenArgs),
    /// Check traces (CSV, JSON Lines) against properties: exit 0 if they
    /// hold, 1 if one is violated, 2 on bad input.
    Check(check_cmd::CheckArgs),
}

#[derive(Args, Debug)]
struct Input {
    /// Formulas to process.
    #[arg(value_name = "FORMULA")]
    formulas: Vec<String>,
    /// Read formulas from FILE, one per line ('-' for standard input);
    /// blank lines and lines starting with '#' are skipped.
    #[arg(short = 'F', long = "file", value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Read the formulas as PSL (IEEE 1850, Verilog flavour or NuSMV
    /// syntax: `always {req; !ack[*0:3]} |=> ack`) instead of LTL.
    #[arg(long)]
    psl: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Target {
    /// HOA v1, Spot's monitor convention (missing transition = violation).
    Hoa,
    /// Graphviz, with the violating letters drawn to a red sink.
    Dot,
    /// One JSON object per monitor and per line.
    Json,
    /// A Promela never claim for Spin's safety mode (pan -DSAFETY).
    Promela,
    /// A NuSMV observer module with its INVARSPEC, to append to a model.
    Smv,
    /// A synthesizable Verilog-2001 checker module (NAME_checker).
    Verilog,
    /// A SystemC checker module, the header NAME_checker.h.
    Systemc,
    /// A Rust monitor type NameMonitor (needs the crate monitor-core).
    Rust,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Encoding {
    /// The smaller estimated logic (binary on ties).
    Auto,
    /// ceil(log2 n) flip-flops.
    Binary,
    /// One flip-flop per state.
    Onehot,
}

/// How the exact monitor is built (`--route`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum RouteArg {
    /// Formula derivatives where they apply (syntactic safety formulas
    /// without SEREs), the tableau elsewhere.
    Auto,
    /// Always the Büchi tableau and the subset construction.
    Tableau,
    /// Formula derivatives where they apply.
    Derivatives,
}

impl From<RouteArg> for Route {
    fn from(r: RouteArg) -> Route {
        match r {
            RouteArg::Auto => Route::Auto,
            RouteArg::Tableau => Route::Tableau,
            RouteArg::Derivatives => Route::Derivatives,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SmvEncoding {
    /// The explicit DFA, unless it is large and the transducer is exact.
    Auto,
    /// The minimal DFA as an enumerated state variable.
    Dfa,
    /// The symbolic transducer (informative bad prefixes; linear size).
    Transducer,
}

/// A `--define NAME=EXPR`.
fn parse_define(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, expr)) if !name.trim().is_empty() && !expr.trim().is_empty() => {
            Ok((name.trim().to_string(), expr.trim().to_string()))
        }
        _ => Err(format!("expected NAME=EXPR, found `{s}`")),
    }
}

#[derive(Args, Debug)]
struct CompileArgs {
    #[command(flatten)]
    input: Input,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Target::Hoa)]
    target: Target,
    /// Reject only the informative bad prefixes (Latvala's construction);
    /// reports on standard error where this differs from the exact monitor.
    #[arg(long)]
    informative: bool,
    /// 2: violated/undecided; 3: also detect good prefixes (satisfied).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    verdicts: u8,
    /// Stop with an error when an automaton exceeds N states.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    max_states: usize,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print sizes, time and peak memory of each translation on standard error.
    #[arg(long)]
    stats: bool,
    /// How the exact monitor is built (the monitor is the same; the cost
    /// differs).
    #[arg(long, value_enum, default_value_t = RouteArg::Auto)]
    route: RouteArg,
    /// Do not warn about formulas that are not safety properties.
    #[arg(short, long)]
    quiet: bool,
    /// Name of what is generated: the never claim, the SMV module
    /// (NAME_observer), the Verilog module and SystemC class
    /// (NAME_checker), the Rust type (NameMonitor). With several formulas,
    /// the k-th is NAME_k.
    #[arg(long, value_name = "NAME", default_value = "monitor")]
    name: String,
    /// Bind a proposition to an expression of the model (repeatable), e.g.
    /// --define p='ncrit <= 1'.
    #[arg(long = "define", value_name = "NAME=EXPR", value_parser = parse_define)]
    defines: Vec<(String, String)>,
    /// SMV: the observer's instance name in `main` (default: `obs` with
    /// --model, `mg_obs` without).
    #[arg(long, value_name = "NAME")]
    instance: Option<String>,
    /// SMV: write MODEL with the observers in it (their instances and
    /// INVARSPECs at the end of `main`, wherever `main` is; their modules
    /// at the end), using names that clash with none of the model's.
    #[arg(long, value_name = "MODEL.smv")]
    model: Option<PathBuf>,
    /// SMV: the observer's encoding.
    #[arg(long, value_enum, default_value_t = SmvEncoding::Auto)]
    smv_encoding: SmvEncoding,
    /// Verilog: the state encoding.
    #[arg(long, value_enum, default_value_t = Encoding::Auto)]
    encoding: Encoding,
    /// Verilog: how the transition function is written.
    #[arg(long, value_enum, default_value_t = Logic::Minimized)]
    logic: Logic,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Logic {
    /// Sums of products minimized with the monitor's don't-cares (smaller
    /// after synthesis), unless a case statement is smaller.
    Minimized,
    /// A case statement, one line per edge (readable).
    Case,
}

/// Above this many states, the SMV observer is the transducer when that is
/// exact (a non-pathologic safety property).
const SMV_DFA_LIMIT: usize = 1000;

#[derive(Args, Debug)]
struct ClassifyArgs {
    #[command(flatten)]
    input: Input,
    /// One JSON object per formula and per line.
    #[arg(long)]
    json: bool,
    /// Stop with an error when an automaton exceeds N states.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    max_states: usize,
}

#[derive(Args, Debug)]
struct PrintArgs {
    #[command(flatten)]
    input: Input,
    /// Print in Spin syntax instead of Spot's.
    #[arg(long, conflicts_with = "smv")]
    spin: bool,
    /// Print in NuSMV's LTL syntax (for LTLSPEC) instead of Spot's.
    #[arg(long)]
    smv: bool,
    /// Print in PSL (Verilog flavour, fully parenthesized) instead of
    /// Spot's syntax: LTL properties for PSL tools, or PSL read back.
    #[arg(long = "to-psl", conflicts_with_all = ["spin", "smv"])]
    to_psl: bool,
    /// Simplify first.
    #[arg(long)]
    simplify: bool,
    /// Put in negation normal form.
    #[arg(long)]
    nnf: bool,
}

#[derive(Args, Debug)]
struct GenArgs {
    /// The family (see --list).
    #[arg(value_name = "FAMILY", required_unless_present = "list")]
    family: Option<String>,
    /// The first (or only) member to print.
    #[arg(value_name = "N", required_unless_present = "list")]
    from: Option<usize>,
    /// The last member to print.
    #[arg(value_name = "M")]
    to: Option<usize>,
    /// List the families.
    #[arg(long)]
    list: bool,
}

/// A formula and where it came from, for error messages.
struct Source {
    text: String,
    file: Option<String>,
    line: usize,
    psl: bool,
}

impl Source {
    fn parse(&self) -> Result<Formula, String> {
        let parsed = if self.psl {
            parse_psl(&self.text)
        } else {
            parse(&self.text)
        };
        parsed.map_err(|e| self.describe_parse_error(e))
    }

    fn describe_parse_error(&self, e: ParseError) -> String {
        match &self.file {
            Some(f) => format!("{f}: {}", e.at_line(self.line)),
            None => e.to_string(),
        }
    }

    /// A PSL property as the user wrote it (without `assert`/`PSLSPEC`
    /// and `;`); `None` for LTL.
    fn written(&self) -> Option<&str> {
        if !self.psl {
            return None;
        }
        let text = self.text.trim();
        let text = ["assert ", "PSLSPEC "]
            .iter()
            .find_map(|k| text.strip_prefix(k))
            .unwrap_or(text);
        Some(text.trim_start().trim_end_matches(';').trim_end())
    }

    /// The formula for a diagnostic: PSL as the user wrote it, LTL in
    /// Spot syntax; long ones cut.
    fn label(&self, f: &Formula) -> String {
        match self.written() {
            Some(text) => shorten(text),
            None => short(f),
        }
    }

    fn describe(&self, f: &Formula, e: &BuildError) -> String {
        let mut msg = format!("{}: {e}", self.label(f));
        if e.state_limit().is_some() {
            msg.push_str("; raise it with --max-states N if this blow-up is expected");
        }
        msg
    }
}

/// A formula for a diagnostic: long ones are cut (the whole formula is in
/// the input anyway).
fn short(f: &Formula) -> String {
    shorten(&f.to_spot())
}

/// Long text cut for a diagnostic.
fn shorten(text: &str) -> String {
    if text.chars().count() <= 80 {
        text.to_string()
    } else {
        let head: String = text.chars().take(72).collect();
        format!("{head} …")
    }
}

fn read_sources(input: &Input) -> Result<Vec<Source>, String> {
    let mut out = Vec::new();
    for path in &input.files {
        let name = path.display().to_string();
        let text = if name == "-" {
            let mut s = String::new();
            io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            s
        } else {
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?
        };
        for (i, line) in text.lines().enumerate() {
            let t = line.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            out.push(Source {
                text: line.to_string(),
                file: Some(name.clone()),
                line: i + 1,
                psl: input.psl,
            });
        }
    }
    for f in &input.formulas {
        out.push(Source {
            text: f.clone(),
            file: None,
            line: 1,
            psl: input.psl,
        });
    }
    if out.is_empty() {
        return Err("no formula given (pass FORMULA arguments or -F FILE)".into());
    }
    Ok(out)
}

/// Collects output and errors; formulas that fail do not stop the others.
struct Run {
    /// Output written at the end.
    out: String,
    /// Where the output goes.
    output: Output,
    /// Output that replaces `out`: a model with observers, byte for byte.
    raw: Option<Vec<u8>>,
    /// Whether nothing at all is written (not even `-o`'s file).
    withhold: bool,
    errors: usize,
}

impl Run {
    fn error(&mut self, msg: &str) {
        self.errors += 1;
        eprintln!("mongen: error: {msg}");
    }

    /// Writes `out` and then `write`'s text now, instead of at the end:
    /// for monitors written state by state (HOA, DOT, JSON), whose text
    /// can be much larger than the monitor.
    fn stream(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| {
            w.write_all(pending.as_bytes())?;
            write(w)
        });
    }
}

/// The `-o` file or standard output. The file is created when something
/// is first written, at the latest at the end. Write errors are reported
/// at the end, as when everything is written at the end.
struct Output {
    path: Option<PathBuf>,
    sink: Sink,
}

/// The file or standard output, buffered (emitters write small pieces).
type Stream = io::BufWriter<Box<dyn Write>>;

enum Sink {
    /// Nothing written yet.
    Unopened,
    Open(Stream),
    /// Standard output is a closed pipe (`mongen … | head`): not an error;
    /// the rest is dropped.
    Closed,
    /// Writing failed: the message; the rest is dropped.
    Failed(String),
}

impl Output {
    fn new(path: Option<PathBuf>) -> Output {
        Output {
            path,
            sink: Sink::Unopened,
        }
    }

    /// Runs `write` on the output, opened first if need be; does nothing
    /// once writing has failed or the pipe is closed.
    fn write(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        if let Sink::Unopened = self.sink {
            self.sink = match &self.path {
                Some(path) => match std::fs::File::create(path) {
                    Ok(f) => Sink::Open(io::BufWriter::new(Box::new(f))),
                    Err(e) => self.failure(e),
                },
                None => Sink::Open(io::BufWriter::new(Box::new(io::stdout().lock()))),
            };
        }
        if let Sink::Open(w) = &mut self.sink {
            if let Err(e) = write(w) {
                self.sink = self.failure(e);
            }
        }
    }

    fn failure(&self, e: io::Error) -> Sink {
        match &self.path {
            Some(path) => Sink::Failed(format!("cannot write {}: {e}", path.display())),
            None if e.kind() == io::ErrorKind::BrokenPipe => Sink::Closed,
            None => Sink::Failed(format!("cannot write the output: {e}")),
        }
    }

    /// Writes the rest and flushes; the error of this or any earlier
    /// write.
    fn finish(&mut self, rest: &[u8]) -> Result<(), String> {
        self.write(|w| {
            w.write_all(rest)?;
            w.flush()
        });
        match &self.sink {
            Sink::Failed(e) => Err(e.clone()),
            _ => Ok(()),
        }
    }
}

fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn compile(args: &CompileArgs, run: &mut Run) -> Result<(), String> {
    let sources = read_sources(&args.input)?;
    let three = args.verdicts == 3;
    let cfg = Config::new()
        .max_states(Some(args.max_states))
        .verdicts(if three {
            Verdicts::Three
        } else {
            Verdicts::Two
        })
        .prefixes(if args.informative {
            Prefixes::Informative
        } else {
            Prefixes::Exact
        })
        .route(args.route.into());
    let mut builder = Builder::new();
    builder.configure(cfg.clone());
    let mut smv = SmvContext::new(args)?;
    // A --define must name a proposition of some formula (a misspelt one
    // would silently leave the proposition unbound).
    let parsed: Vec<Result<Formula, String>> = sources.iter().map(Source::parse).collect();
    let mut used = vec![false; args.defines.len()];
    for f in parsed.iter().flatten() {
        let aps = f.atomic_propositions();
        for (k, (name, _)) in args.defines.iter().enumerate() {
            used[k] |= aps.contains(name);
        }
    }
    for ((name, _), used) in args.defines.iter().zip(used) {
        if !used {
            return Err(format!(
                "--define {name}: no formula has a proposition of that name"
            ));
        }
    }
    // Several formulas give several modules (claims, checkers): number
    // their names.
    let numbered = sources.len() > 1;
    for (k, (src, parsed)) in sources.iter().zip(parsed).enumerate() {
        let f = match parsed {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        let suffix = |s: &str| {
            if numbered {
                format!("{s}_{}", k + 1)
            } else {
                s.to_string()
            }
        };
        let name = suffix(&args.name);
        let smv_transducer =
            args.target == Target::Smv && args.smv_encoding == SmvEncoding::Transducer;
        let t = if smv_transducer {
            None
        } else {
            match builder.build_from_formula(&f) {
                Ok(mut t) => {
                    // PSL users read their property as they wrote it
                    // (Spot's PSL syntax is not theirs).
                    if let Some(text) = src.written() {
                        t.set_name(text);
                    }
                    Some(t)
                }
                Err(e)
                    if args.target == Target::Smv
                        && args.smv_encoding == SmvEncoding::Auto
                        && e.state_limit().is_some() =>
                {
                    eprintln!(
                        "mongen: warning: `{}`: the monitor exceeds {} states; using the transducer encoding, \
                         which detects the informative bad prefixes (every violation when the formula is a \
                         non-pathologic safety property)",
                        src.label(&f),
                        args.max_states
                    );
                    None
                }
                Err(e) => {
                    run.error(&src.describe(&f, &e));
                    continue;
                }
            }
        };
        if let Some(t) = &t {
            report(args, &cfg, &f, t, src, run);
        }
        let out = match (&t, args.target) {
            // HOA, DOT and JSON go to the output now, state by state
            // (nothing is left in `run.out`).
            (Some(t), Target::Hoa) => {
                let opts = HoaOptions {
                    name: None,
                    stutter_invariant: Some(f.is_next_free()),
                    three_valued: three,
                };
                run.stream(|w| write_hoa(t.dfa(), &opts, w));
                Ok(String::new())
            }
            (Some(t), Target::Dot) => {
                run.stream(|w| write_dot(t.dfa(), w));
                Ok(String::new())
            }
            (Some(t), Target::Json) => {
                let opts = JsonOptions {
                    informative: args.informative,
                    safety: t.is_safety(),
                    three_valued: three,
                };
                run.stream(|w| {
                    write_json(t.dfa(), &opts, w)?;
                    writeln!(w)
                });
                Ok(String::new())
            }
            (Some(t), Target::Promela) => emit_promela(
                t.dfa(),
                &PromelaOptions {
                    name: name.clone(),
                    defines: args.defines.clone(),
                    stutter_invariant: t.dfa().is_stutter_invariant(),
                    informative: args.informative,
                    file: args
                        .output
                        .as_ref()
                        .map_or("claim.pml".into(), |p| p.display().to_string()),
                },
            )
            .map_err(|e| e.to_string()),
            (t, Target::Smv) => {
                let (name, instance) =
                    smv.names(&name, args.instance.as_deref().map(suffix), &suffix("obs"));
                match instance {
                    Err(e) => Err(e),
                    Ok(instance) => emit_smv(
                        args,
                        &cfg,
                        &f,
                        t.as_ref(),
                        SmvOptions {
                            name,
                            instance,
                            defines: args.defines.clone(),
                            informative: args.informative,
                            three_valued: three,
                            namespace: smv.namespace(),
                        },
                        smv.model.as_ref(),
                    )
                    .map(|obs| smv.add(obs)),
                }
            }
            (Some(t), Target::Verilog) => emit_verilog(
                t.dfa(),
                &VerilogOptions {
                    name: name.clone(),
                    defines: args.defines.clone(),
                    encoding: match args.encoding {
                        Encoding::Auto => None,
                        Encoding::Binary => Some(StateEncoding::Binary),
                        Encoding::Onehot => Some(StateEncoding::OneHot),
                    },
                    informative: args.informative,
                    three_valued: three,
                    logic: match args.logic {
                        Logic::Minimized => VerilogLogic::Minimized,
                        Logic::Case => VerilogLogic::Case,
                    },
                },
            )
            .map_err(|e| e.to_string()),
            (Some(t), Target::Rust) => emit_rust(
                t.dfa(),
                &RustOptions {
                    name: name.clone(),
                    three_valued: three,
                },
            )
            .map_err(|e| e.to_string()),
            (Some(t), Target::Systemc) => emit_systemc(
                t.dfa(),
                &SystemcOptions {
                    name: name.clone(),
                    defines: args.defines.clone(),
                    informative: args.informative,
                    three_valued: three,
                },
            )
            .map_err(|e| e.to_string()),
            (None, _) => unreachable!("only SMV goes without a monitor"),
        };
        match out {
            Ok(text) => run.out.push_str(&text),
            Err(e) => run.error(&format!("{}: {e}", src.label(&f))),
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

/// SMV observers of one run: appended one after the other, or, with
/// `--model`, collected and put into the model.
struct SmvContext {
    model: Option<SmvModel>,
    /// Names already given (modules, instances), with `--model`.
    taken: std::collections::BTreeSet<String>,
    observers: Vec<SmvObserver>,
}

impl SmvContext {
    fn new(args: &CompileArgs) -> Result<SmvContext, String> {
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

    fn namespace(&self) -> SmvNamespace {
        match &self.model {
            Some(m) => SmvNamespace::Avoiding(m.constants().clone()),
            None => SmvNamespace::Reserved,
        }
    }

    /// The name of the observer (its module is `NAME_observer`) and of its
    /// instance (`explicit`, when the user gave one).
    /// The default instance is `default`, with the reserved prefix when
    /// the model is not known.
    fn names(
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
    fn add(&mut self, obs: SmvObserver) -> String {
        if self.model.is_some() {
            self.observers.push(obs);
            String::new()
        } else {
            obs.appendable()
        }
    }

    /// The model with the observers, with `--model`.
    fn finish(&self) -> Option<Vec<u8>> {
        let model = self.model.as_ref()?;
        let mains: Vec<String> = self.observers.iter().map(|o| o.main.clone()).collect();
        let modules: Vec<String> = self.observers.iter().map(|o| o.module.clone()).collect();
        Some(model.insert(&mains, &modules))
    }
}

/// Warnings and notes about one translation, on standard error.
fn report(
    args: &CompileArgs,
    cfg: &Config,
    f: &Formula,
    t: &Translation,
    src: &Source,
    run: &mut Run,
) {
    if t.is_safety() == Some(false) && !args.quiet {
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
        eprintln!("{msg}");
    }
    if t.is_safety().is_none() && !args.quiet {
        eprintln!(
            "mongen: note: `{}`: deciding whether it is a safety property needs more than {} states; \
             the monitor rejects exactly the bad prefixes of its safety closure either way",
            src.label(f),
            args.max_states
        );
    }
    if args.informative {
        match compare_informative(f, cfg) {
            Ok(r) => match r.word_text() {
                Some(w) => eprintln!(
                    "mongen: note: `{}`: informative monitor {} states, exact monitor {} states; \
                     shortest bad prefix that is not informative: {w}",
                    src.label(f),
                    r.informative_states,
                    r.exact_states
                ),
                None => eprintln!(
                    "mongen: note: `{}`: every bad prefix is informative (informative monitor {} states, exact {} states)",
                    src.label(f),
                    r.informative_states,
                    r.exact_states
                ),
            },
            Err(e) => run.error(&src.describe(f, &e)),
        }
    }
    if args.stats {
        let s = t.stats();
        let built = match s.route {
            Route::Derivatives => format!("derivatives {}", s.subset_states),
            _ => format!("Büchi {}, subsets {}", s.nba_states, s.subset_states),
        };
        let mut line = format!(
            "mongen: stats: `{}`: {} states ({built}), {:.3} ms",
            src.label(f),
            s.states,
            s.time.as_secs_f64() * 1e3
        );
        if let Some(kib) = peak_rss_kib() {
            let _ = write!(line, ", peak memory {:.1} MiB", kib as f64 / 1024.0);
        }
        eprintln!("{line}");
    }
}

/// The SMV observer: the DFA or the transducer (see `SmvEncoding`).
fn emit_smv(
    args: &CompileArgs,
    cfg: &Config,
    f: &Formula,
    t: Option<&Translation>,
    opts: SmvOptions,
    model: Option<&SmvModel>,
) -> Result<SmvObserver, String> {
    let three = opts.three_valued;
    // The transducer is exact for non-pathologic safety properties.
    let transducer_exact = || {
        classify(f, cfg)
            .ok()
            .is_some_and(|c| c.safety == Some(true) && c.pathologic == Some(false))
    };
    // The transducer reads the next letter (`next(p)`), which NuSMV
    // forbids for input variables (IVAR, a process's `running`).
    let input = model.and_then(|m| {
        f.atomic_propositions().iter().find_map(|ap| {
            let expr = opts
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
        eprintln!(
            "mongen: warning: `{}`: the proposition `{ap}` may read the input variable `{var}`, and NuSMV \
             rejects the transducer encoding then (it reads the next letter, `next` of an input); \
             use --smv-encoding dfa",
            short(f)
        );
    }
    if use_transducer {
        if three {
            return Err("three-valued verdicts need --smv-encoding dfa".into());
        }
        if args.smv_encoding == SmvEncoding::Transducer && !args.quiet && !transducer_exact() {
            eprintln!(
                "mongen: warning: `{}` is not known to be a non-pathologic safety property: the transducer \
                 detects its informative bad prefixes only, and may miss violations",
                short(f)
            );
        }
        let tr = transducer(f).map_err(|e| e.to_string())?;
        emit_smv_transducer(&tr, &opts).map_err(|e| e.to_string())
    } else {
        let t = t.expect("a monitor unless the transducer is used");
        emit_smv_dfa(t.dfa(), &opts).map_err(|e| e.to_string())
    }
}

fn classify_cmd(args: &ClassifyArgs, run: &mut Run) -> Result<(), String> {
    let cfg = Config::new().max_states(Some(args.max_states));
    for src in read_sources(&args.input)? {
        let f = match src.parse() {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        let c = match classify(&f, &cfg) {
            Ok(c) => c,
            Err(e) => {
                run.error(&src.describe(&f, &e));
                continue;
            }
        };
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
            let _ = writeln!(run.out, "{line}");
        }
    }
    Ok(())
}

fn print_cmd(args: &PrintArgs, run: &mut Run) -> Result<(), String> {
    for src in read_sources(&args.input)? {
        let mut f = match src.parse() {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        if args.simplify {
            f = simplify(&f);
        }
        if args.nnf {
            f = f.nnf();
        }
        if args.smv && f.is_psl() {
            run.error(&format!(
                "{f}: NuSMV's LTLSPEC has no SEREs; compile the property to an observer \
                 with `mongen compile --psl --target smv`"
            ));
        } else if args.smv {
            let _ = writeln!(run.out, "{}", f.to_nusmv());
        } else if args.to_psl {
            match f.to_psl() {
                Ok(s) => {
                    let _ = writeln!(run.out, "{s}");
                }
                Err(e) => run.error(&format!("{f}: {e}")),
            }
        } else if args.spin {
            match f.to_spin() {
                Ok(s) => {
                    let _ = writeln!(run.out, "{s}");
                }
                Err(e) => run.error(&format!("{f}: {e}")),
            }
        } else {
            let _ = writeln!(run.out, "{f}");
        }
    }
    Ok(())
}

fn genltl(args: &GenArgs, run: &mut Run) -> Result<(), String> {
    if args.list {
        for (name, what) in FAMILIES {
            let _ = writeln!(run.out, "{name:<26} {what}");
        }
        return Ok(());
    }
    let family = args.family.as_deref().expect("required by clap");
    let from = args.from.expect("required by clap");
    let to = args.to.unwrap_or(from);
    for n in from..=to {
        let f = generate(family, n)?;
        let _ = writeln!(run.out, "{f}");
    }
    Ok(())
}

fn real_main() -> ExitCode {
    let cli = Cli::parse();
    let path = match &cli.command {
        Command::Compile(a) => a.output.clone(),
        _ => None,
    };
    let mut run = Run {
        out: String::new(),
        output: Output::new(path),
        raw: None,
        withhold: false,
        errors: 0,
    };
    let mut violated = false;
    let result = match &cli.command {
        Command::Compile(a) => compile(a, &mut run),
        Command::Classify(a) => classify_cmd(a, &mut run),
        Command::Print(a) => print_cmd(a, &mut run),
        Command::Genltl(a) => genltl(a, &mut run),
        Command::Check(a) => check_cmd::check(a, &mut run).map(|v| violated = v),
    };
    if let Err(e) = result {
        run.error(&e);
    }
    let bytes = run
        .raw
        .take()
        .unwrap_or_else(|| std::mem::take(&mut run.out).into_bytes());
    let written = if run.withhold {
        Ok(())
    } else {
        run.output.finish(&bytes)
    };
    if let Err(e) = written {
        run.error(&e);
    }
    if run.errors > 0 {
        ExitCode::from(2)
    } else if violated {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn main() -> ExitCode {
    // The translator recurses on formulas: give it room for deep ones.
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(real_main)
        .expect("spawn the main thread")
        .join()
        .unwrap_or(ExitCode::from(101))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
