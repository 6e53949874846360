//! `mongen`: compile LTL and PSL safety properties into minimal
//! deterministic monitors.

use std::fmt::Write as _;
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

mod check_cmd;
mod cli_input;
mod hardware_flow;
mod progress;
mod stats;
mod vunit_input;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use cli_input::{ordered_items, read_sources, short, Item, Source};
use mongen::emit::hardware::clocking::{Clock, ClockEdge, Clocking, Reset};
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
    classify, compare_informative, is_stutter_invariant, lasso_text, transducer,
    transducer_is_exact,
};
use monitor_core::formula::families::{generate, FAMILIES};
use monitor_core::formula::simplify::simplify;
use monitor_core::formula::{
    ActiveLevel, ClockEdge as FormulaClockEdge, Directive, DirectiveKind, Formula,
};
use monitor_core::translate::{
    Builder, Config, Prefixes, Route, Translation, Verdicts, DEFAULT_MAX_STATES,
};
use progress::Spinner;
use stats::{StatsArg, CLASSIFY_DIRECTIVES, COMPILE_DIRECTIVES};

/// The exit statuses, for the top-level help and the manual.
const EXIT_STATUS: &str = "\
Exit status:
  0  success (check: no property is violated)
  1  check: a property is violated
  2  an error: a bad argument, an unreadable file, a formula that does not
     parse, a state limit exceeded... (a formula that fails is reported
     and the others are processed; a bad argument or an unreadable input
     stops before any work)";

/// The exit statuses of the commands that read formulas (all but check).
const EXIT_STATUS_FORMULAS: &str = "\
Exit status:
  0  every formula was processed
  2  an error (a bad argument, an unreadable file, a formula that does not
     parse, a state limit exceeded...); a formula that fails is reported
     and the others are processed, a bad argument or an unreadable file
     stops before any work";

/// The exit statuses of `check`.
const EXIT_STATUS_CHECK: &str = "\
Exit status:
  0  every property holds on every trace (or is undecided)
  1  a property is violated
  2  an error: a bad argument, an unreadable trace, a formula that does not
     parse, a field missing from a trace...";

/// Compile temporal safety properties, in LTL with past (Spot/Spin syntax)
/// or PSL (IEEE 1850, with --psl), into deterministic, minimal monitors of
/// their bad prefixes; classify them; check traces against them.
#[derive(Parser, Debug)]
#[command(
    name = "mongen",
    version,
    propagate_version = true,
    max_term_width = 100,
    after_help = EXIT_STATUS,
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: boxing CompileArgs would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
enum Command {
    /// Compile formulas into monitors (HOA by default).
    #[command(after_help = EXIT_STATUS_FORMULAS)]
    Compile(CompileArgs),
    /// Tell whether formulas are safety, guarantee, liveness,
    /// stutter-invariant or pathologic.
    #[command(after_help = EXIT_STATUS_FORMULAS)]
    Classify(ClassifyArgs),
    /// Print formulas back in Spot, Spin, NuSMV or PSL syntax.
    #[command(after_help = EXIT_STATUS_FORMULAS)]
    Print(PrintArgs),
    /// Generate formulas of the benchmark families (Spot's genltl names).
    Genltl(GenArgs),
    /// Check traces (CSV, JSON Lines, VCD) against properties: exit 0 if
    /// they hold, 1 if one is violated, 2 on bad input.
    #[command(after_help = EXIT_STATUS_CHECK)]
    Check(check_cmd::CheckArgs),
    /// Write a shell completion script on standard output (bash: `source
    /// <(mongen completions bash)`).
    Completions(CompletionsArgs),
    /// Write the manual page (roff) on standard output, or one page per
    /// command into a directory.
    Man(ManArgs),
}

/// Where formulas come from: as with Spot's tools, `-f`, positional
/// arguments and `-F` files, processed in the order given.
#[derive(Args, Debug)]
struct Input {
    /// Formulas to process ('-': read formulas from standard input, one per
    /// line, as -F - does).
    #[arg(value_name = "FORMULA")]
    formulas: Vec<String>,
    /// Process FORMULA (repeatable; the same as a FORMULA argument).
    #[arg(short = 'f', long = "formula", value_name = "FORMULA")]
    formula: Vec<String>,
    /// Read formulas from FILE, one per line ('-' for standard input;
    /// blank lines and lines starting with '#' are skipped), or, with
    /// FILE/COL, from column COL of a CSV file: COL is a number from 1
    /// (negative: the first line is a header and is skipped) or the name
    /// of a column in the header line. A file named FILE/COL is read as a
    /// plain file.
    #[arg(
        short = 'F',
        long = "file",
        value_name = "FILE[/COL]",
        allow_hyphen_values = true
    )]
    files: Vec<PathBuf>,
    /// Read the formulas as PSL (IEEE 1850, Verilog flavour or NuSMV
    /// syntax: `always {req; !ack[*0:3]} |=> ack`) instead of LTL.
    #[arg(long)]
    psl: bool,
    /// The formulas and files, in command-line order (filled in from the
    /// matches, which know the order).
    #[arg(skip)]
    items: Vec<Item>,
}

impl Input {
    /// The argument ids of formulas (`true`: a `-` there reads standard
    /// input) and of files.
    const FORMULA_IDS: &'static [(&'static str, bool)] = &[("formulas", true), ("formula", false)];
    const FILE_ID: &'static str = "files";

    fn sources(&self) -> Result<Vec<Source>, String> {
        if self.items.is_empty() {
            return Err(
                "no formula given (pass FORMULA arguments, -f FORMULA, or -F FILE; '-' reads standard input)"
                    .into(),
            );
        }
        let sources = read_sources(&self.items, self.psl)?;
        if sources.is_empty() {
            return Err(
                "no formula given: the input holds none (blank lines and lines starting with '#' are skipped)"
                    .into(),
            );
        }
        Ok(sources)
    }
}

#[derive(Args, Debug)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
struct ManArgs {
    /// Write mongen.1 and one page per command (mongen-compile.1, ...)
    /// into DIR (created if need be) instead of mongen.1 on standard
    /// output.
    #[arg(long, value_name = "DIR")]
    dir: Option<PathBuf>,
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

/// Which never claim `--target promela` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ClaimKind {
    /// A Büchi claim for a property that is not safety, else the safety
    /// claim.
    Auto,
    /// The minimal deterministic claim of the bad prefixes (pan -DSAFETY);
    /// for a property that is not safety, those of its safety closure.
    Safety,
    /// A Büchi claim of the negation (pan -a), for any property.
    Buchi,
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
    /// Print statistics: without FORMAT, sizes, time and peak memory on
    /// standard error; with FORMAT, one line per formula instead of the
    /// monitor (--stats='%s %e %t').
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_parser = |s: &str| stats::parse_stats_arg(s, COMPILE_DIRECTIVES),
        long_help = stats::long_help(COMPILE_STATS_HELP, COMPILE_DIRECTIVES),
    )]
    stats: Option<StatsArg>,
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
    /// the k-th is NAME_k. With --vunit, the checkers are named by the
    /// directives' labels, and NAME (the unit's name by default) names the
    /// bind file, the formal harness and the SymbiYosys project.
    /// [default: monitor]
    #[arg(long, value_name = "NAME")]
    name: Option<String>,
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
    /// Promela: which never claim.
    #[arg(long, value_enum, default_value_t = ClaimKind::Auto)]
    claim: ClaimKind,
    /// HOA: a Büchi automaton of the formula (`Acceptance: 1 Inf(0)`; the
    /// never claim of --claim buchi is that of its negation) instead of
    /// the monitor.
    #[arg(long)]
    buchi: bool,
    /// Verilog: the state encoding.
    #[arg(long, value_enum, default_value_t = Encoding::Auto)]
    encoding: Encoding,
    /// Verilog: how the transition function is written.
    #[arg(long, value_enum, default_value_t = Logic::Minimized)]
    logic: Logic,
    /// Verilog, SVA, SystemC: the clock port and the edge the checker samples on
    /// (NAME[:posedge|negedge]; default clk:posedge).
    #[arg(long, value_name = "NAME[:EDGE]")]
    clock: Option<Clock>,
    /// Verilog, SVA, SystemC: the reset port, which restarts the check
    /// (NAME[:low|high][:sync|async]; low and sync unless given; default
    /// rst_n:low:sync).
    #[arg(long, value_name = "NAME[:LEVEL][:KIND]", conflicts_with = "no_reset",
          value_parser = |s: &str| s.parse::<Reset>().map(|_| s.to_string()))]
    reset: Option<String>,
    /// Verilog, SVA, SystemC: no reset port; the registers start in the initial
    /// state.
    #[arg(long)]
    no_reset: bool,
    /// Verilog, SVA: also write NAME_bind.sv beside --output, binding the
    /// checkers into every instance of MODULE (SystemVerilog bind: for
    /// Verilator and commercial tools; Icarus and Yosys do not honour it).
    /// Without MODULE, the module of the --vunit.
    #[arg(long, value_name = "MODULE", num_args = 0..=1, default_missing_value = "")]
    bind: Option<String>,
    /// Verilog, SVA: also write beside --output a formal harness
    /// NAME_formal.sv (MODULE, from --design, with the checkers on its
    /// ports) and a SymbiYosys project NAME.sby that proves it. Without
    /// MODULE, the module of the --vunit.
    #[arg(long, value_name = "MODULE", num_args = 0..=1, default_missing_value = "",
          requires = "design")]
    sby: Option<String>,
    /// The design's Verilog files (repeatable): --sby proves them; with
    /// --sby, --bind or --vunit, the checkers read the module's signals
    /// with their widths (as with --input).
    #[arg(long, value_name = "FILE")]
    design: Vec<PathBuf>,
    /// Verilog, SVA: a signal of the design, with its width (repeatable):
    /// NAME (one bit), NAME:WIDTH, NAME:[MSB:LSB], NAME:sWIDTH (signed).
    /// The checker then has an input per signal its propositions read (a
    /// vector port `count`) and computes the propositions inside (`count >
    /// 5`, `data[3]`, `state inside {1, 2}`, or --define expressions over
    /// the signals), with widths checked.
    #[arg(long = "input", value_name = "NAME[:WIDTH]",
          value_parser = mongen::hdl::parse_input_spec)]
    inputs: Vec<mongen::hdl::HdlInput>,
    /// Read the properties from the PSL verification units of FILE (`vunit
    /// NAME (MODULE) { default clock = (posedge clk); a1: assert ...; }`):
    /// one checker per directive, named by its label; `assume` and
    /// `restrict` make checkers that formal tools assume, `cover` ones
    /// they cover (--target verilog and sva).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["formulas", "formula", "files"])]
    vunit: Option<PathBuf>,
    /// --sby: the depth of induction and bounded model checking.
    #[arg(long, value_name = "N", default_value_t = 20)]
    depth: u32,
}

impl CompileArgs {
    /// The checkers' clock and reset, or why the options do not apply.
    fn clocking(&self) -> Result<Clocking, String> {
        let hardware = matches!(self.target, Target::Verilog | Target::Sva | Target::Systemc);
        if !hardware && (self.clock.is_some() || self.reset.is_some() || self.no_reset) {
            return Err(
                "--clock, --reset and --no-reset are for --target verilog, sva and systemc".into(),
            );
        }
        let reset = match (&self.reset, self.no_reset) {
            (_, true) => None,
            (None, false) => Some(Reset::default()),
            (Some(spec), false) => {
                let r: Reset = spec.parse()?;
                if !spec.contains(":low")
                    && !spec.contains(":high")
                    && Reset::looks_active_high(&r.name)
                {
                    eprintln!(
                        "mongen: warning: --reset {spec}: active low by default; write {}:high if it is active high",
                        r.name
                    );
                }
                Some(r)
            }
        };
        let clocking = Clocking {
            clock: self.clock.clone().unwrap_or_default(),
            reset,
        };
        match self.target {
            Target::Verilog | Target::Sva => mongen::emit::verilog::check_clocking(&clocking),
            Target::Systemc => mongen::emit::systemc::check_clocking(
                &clocking,
                self.name.as_deref().unwrap_or("monitor"),
            ),
            _ => Ok(()),
        }
        .map_err(|e| e.to_string())?;
        Ok(clocking)
    }
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

/// The long help of `compile --stats`, before the directives.
const COMPILE_STATS_HELP: &str = "\
Print statistics about each formula.

--stats (no FORMAT): two lines per formula on standard error after its \
output: the states of the monitor with the sizes of the intermediate \
automata, the wall-clock time of all the work done for the formula, and \
the peak memory; then that time split into parsing, translation (with the \
safety analysis), the --informative comparison and writing the output.

--stats=FORMAT: as Spot's ltl2tgba --stats, one line per formula on the \
output (standard output or -o FILE) INSTEAD of the monitor, FORMAT with \
its %-directives replaced; for instance --stats='%s states, %e edges, %t \
transitions: %f'. Unknown directives are an error.";

/// The long help of `classify --stats`, before the directives.
const CLASSIFY_STATS_HELP: &str = "\
Print statistics about each formula.

--stats (no FORMAT): one line per formula on standard error: the states \
of the exact monitor, the wall-clock time of all the work done for the \
formula (parsing and every analysis) and the peak memory.

--stats=FORMAT: one line per formula on standard output INSTEAD of the \
classification, FORMAT with its %-directives replaced; for instance \
--stats='%r s, %M MiB: %f'. Unknown directives are an error.";

#[derive(Args, Debug)]
struct ClassifyArgs {
    #[command(flatten)]
    input: Input,
    /// One JSON object per formula and per line.
    #[arg(long)]
    json: bool,
    /// Print statistics: without FORMAT, states, time and peak memory on
    /// standard error; with FORMAT, one line per formula instead of the
    /// classification (--stats='%r %f').
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_parser = |s: &str| stats::parse_stats_arg(s, CLASSIFY_DIRECTIVES),
        long_help = stats::long_help(CLASSIFY_STATS_HELP, CLASSIFY_DIRECTIVES),
    )]
    stats: Option<StatsArg>,
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
    /// The spinner of the formula being processed, hidden while messages
    /// are written.
    spinner: Option<Spinner>,
}

impl Run {
    fn new(path: Option<PathBuf>) -> Run {
        Run {
            out: String::new(),
            output: Output::new(path),
            raw: None,
            withhold: false,
            errors: 0,
            spinner: None,
        }
    }

    fn error(&mut self, msg: &str) {
        self.errors += 1;
        self.note(&format!("mongen: error: {msg}"));
    }

    /// Writes a line on standard error (with the spinner hidden).
    fn note(&self, msg: &str) {
        progress::eprint_line(&self.spinner, msg);
    }

    /// Names what is being done to the current formula, on its spinner.
    fn stage(&self, what: &str) {
        progress::stage(&self.spinner, what);
    }

    /// Writes `line` and a line end to the output now, flushed (lines of
    /// `--stats=FORMAT` and `classify` appear as they are computed).
    fn line_now(&mut self, line: &str) {
        self.stream(|w| {
            writeln!(w, "{line}")?;
            w.flush()
        });
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
        // Nothing written (every formula failed): no file, neither an
        // empty one nor the output of an earlier run, which would pass
        // for this one's (as a compiler leaves no object file).
        if rest.is_empty() && matches!(self.sink, Sink::Unopened) {
            if let Some(path) = &self.path {
                match std::fs::remove_file(path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => {
                        return Err(format!("cannot remove {}: {e}", path.display()))
                    }
                    _ => {}
                }
            }
            return Ok(());
        }
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

/// How the work on one formula was spent (`--stats`).
#[derive(Default)]
struct Phases {
    parse: Duration,
    translation: Duration,
    informative: Option<Duration>,
    output: Option<Duration>,
}

fn compile(args: &CompileArgs, run: &mut Run) -> Result<(), String> {
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
    let clocking = args.clocking()?;
    let vunits = match &args.vunit {
        Some(path) => {
            if args.input.psl {
                eprintln!("mongen: warning: --psl is implied by --vunit");
            }
            Some(vunit_input::read_vunits(path)?)
        }
        None => None,
    };
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
    let signals = hardware_flow::checker_signals(
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
                let f = src.parse_directive();
                (f, start.elapsed())
            })
            .collect(),
    };
    // PSL clocks and resets become the checkers' (one for all).
    let clocking = directive_clocking(args, clocking, &sources, &parsed)?;
    let roles: Vec<CheckerRole> = parsed.iter().map(|(p, _)| checker_role(p)).collect();
    let parsed: Vec<(Result<Formula, String>, Duration)> = parsed
        .into_iter()
        .map(|(r, d)| (r.map(|(f, _)| f), d))
        .collect();
    check_defines_used(
        &args.defines,
        parsed.iter().filter_map(|(f, _)| f.as_ref().ok()),
    )?;
    // The spinner stays off while the monitors are written to the
    // terminal it would draw on.
    let output_on_terminal = args.output.is_none() && io::stdout().is_terminal();
    // Several formulas give several modules (claims, checkers): number
    // their names.
    let numbered = sources.len() > 1;
    // The checkers a bind file or a formal harness instantiates.
    let flow = hardware_flow::Flow::new(args, &base_name, bind_module, sby_module)?;
    let mut checkers = Vec::new();
    for (k, (src, (parsed, parse_time))) in sources.iter().zip(parsed).enumerate() {
        let start = Instant::now();
        let mut phases = Phases {
            parse: parse_time,
            ..Phases::default()
        };
        let f = match parsed {
            Ok(f) => f,
            Err(e) => {
                run.error(&e);
                continue;
            }
        };
        run.spinner = Spinner::start(k + 1, sources.len(), &src.label(&f), "translating");
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
        let property = src.written().map_or_else(|| f.to_spot(), str::to_string);
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
        let job = TargetJob {
            args,
            cfg: &cfg,
            builder: &builder,
            formula: &f,
            property: &property,
            name: &name,
            suffix: &suffix,
            clocking: &clocking,
            signals: &signals,
            role: roles[k],
            label: src.label(&f),
        };
        let out = write_target(&job, t.as_ref(), &mut smv, &mut checkers, run);
        match out {
            Ok(text) => run.out.push_str(&text),
            Err(e) => run.error(&format!("{}: {e}", job.label)),
        }
        run.spinner = None;
        if let (Some(StatsArg::Human), Some(t)) = (&args.stats, &t) {
            // The time includes writing: what is pending goes out now.
            run.stream(|w| w.flush());
            phases.output = Some(output_start.elapsed());
            let total = phases.parse + start.elapsed();
            human_stats(&job.label, t, total, &phases);
        }
    }
    if let Some(flow) = &flow {
        if run.errors > 0 {
            return Err(
                "the bind file and formal harness are not written, as some properties failed"
                    .into(),
            );
        }
        for file in flow.write(&checkers, &clocking)? {
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
fn translation_config(args: &CompileArgs) -> Config {
    Config::new()
        .max_states(Some(args.max_states))
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

/// What a PSL directive makes of its checker (a plain formula asserts).
fn checker_role(p: &ParsedDirective) -> CheckerRole {
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
fn check_defines_used<'a>(
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
        Some(((name, _), _)) => Err(format!(
            "--define {name}: no formula has a proposition of that name"
        )),
        None => Ok(()),
    }
}

/// One formula's output job for `compile`: what the target needs besides
/// the monitor.
struct TargetJob<'a> {
    args: &'a CompileArgs,
    cfg: &'a Config,
    builder: &'a Builder,
    formula: &'a Formula,
    /// The property as written (what the automaton is named after).
    property: &'a str,
    /// The name of the generated module, claim or type.
    name: &'a str,
    /// Numbers a name when there are several formulas.
    suffix: &'a dyn Fn(&str) -> String,
    clocking: &'a Clocking,
    signals: &'a [mongen::hdl::HdlInput],
    role: CheckerRole,
    /// The formula in messages.
    label: String,
}

/// Writes the monitor of one formula (or its claim, observer or
/// checker) in the target's format. HOA, DOT and JSON go to the output
/// at once, state by state (the returned text is then empty); an SMV
/// observer joins the model; a Verilog checker joins the bind file or
/// formal harness.
fn write_target(
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
                run.stream(|w| write_buchi_hoa(&a, &opts, w));
                Ok(String::new())
            }
            Err(e) => Err(cli_input::explain(&e)),
        },
        (t, Target::Promela) if t.is_none_or(|t| buchi_claim(args, t)) => builder
            .build_buchi_from_formula(&Formula::not((*f).clone()))
            .map_err(|e| cli_input::explain(&e))
            .and_then(|mut negation| {
                negation.set_name(*property);
                let opts = PromelaOptions {
                    common,
                    // The monitor's answer is about its safety closure:
                    // ask about the property.
                    stutter_invariant: is_stutter_invariant(f, cfg).ok().flatten().unwrap_or(false),
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
                    stutter_invariant: t.dfa().is_stutter_invariant(),
                    file: claim_file(args),
                }),
                Target::Systemc => Box::new(SystemcOptions {
                    common,
                    clocking: (*clocking).clone(),
                }),
                // No option of their own.
                Target::Dot | Target::Rust => target.backend(common),
                Target::Smv | Target::Verilog | Target::Sva => unreachable!("written above"),
            };
            if target.streams() {
                // HOA, DOT and JSON go to the output now, state by state
                // (nothing is left in `run.out`).
                run.stream(|w| backend.write(t.dfa(), w));
                Ok(String::new())
            } else {
                backend.emit(t.dfa()).map_err(|e| e.to_string())
            }
        }
        (None, _) => unreachable!("only SMV and Büchi automata go without a monitor"),
    }
}

/// The file name a never claim's usage comment gives.
fn claim_file(args: &CompileArgs) -> String {
    args.output
        .as_ref()
        .map_or("claim.pml".into(), |p| p.display().to_string())
}

/// A Verilog or SystemVerilog checker's options, from `compile`'s.
fn verilog_options(job: &TargetJob<'_>, common: Common) -> VerilogOptions {
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

/// A formula read for `compile`, with its PSL directive if any.
type ParsedDirective = Result<(Formula, Option<Directive>), String>;

/// The checkers' clocking once the PSL directives' clocks and resets are
/// taken in: they must agree with each other and with --clock/--reset, and
/// only hardware checkers have them.
fn directive_clocking(
    args: &CompileArgs,
    mut clocking: Clocking,
    sources: &[Source],
    parsed: &[(ParsedDirective, Duration)],
) -> Result<Clocking, String> {
    let hardware = matches!(args.target, Target::Verilog | Target::Sva | Target::Systemc);
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
            let Some((name, level)) = dis.signal() else {
                return Err(format!(
                    "{}: the reset condition is not one signal (`rst` or `!rst_n`); a checker's \
                     reset is a port: compute the condition in the design",
                    label()
                ));
            };
            let reset = Reset {
                name: name.to_string(),
                active_low: level == ActiveLevel::Low,
                asynchronous: !dis.synchronous,
            };
            match &reset_from {
                Some(from) if clocking.reset.as_ref() != Some(&reset) => {
                    return Err(format!(
                        "{}: its reset `{reset}` differs from {from}'s; a set of checkers has one reset",
                        label()
                    ))
                }
                _ => {
                    clocking.reset = Some(reset);
                    reset_from = Some(label());
                }
            }
        }
    }
    Ok(clocking)
}

/// `--stats` without FORMAT: the sizes, the time of all the work done for
/// the formula and the peak memory (one line, read by the benchmark
/// scripts), then where the time went.
fn human_stats(label: &str, t: &Translation, total: Duration, phases: &Phases) {
    let s = t.stats();
    let built = match s.route {
        Route::Derivatives => format!("derivatives {}", s.subset_states),
        _ => format!("Büchi {}, subsets {}", s.nba_states, s.subset_states),
    };
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let mut line = format!(
        "mongen: stats: `{label}`: {} states ({built}), {:.3} ms, peak memory ",
        s.states,
        ms(total),
    );
    match stats::peak_rss_kib() {
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
fn compile_directive(d: char, f: &Formula, t: &Translation, src: &Source, seconds: f64) -> String {
    match d {
        'f' => f.to_spot(),
        's' => t.dfa().num_states().to_string(),
        'e' => t.dfa().num_edges().to_string(),
        't' => stats::transitions(t.dfa()).to_string(),
        'x' => t.dfa().alphabet().len().to_string(),
        _ => common_directive(d, src, seconds),
    }
}

/// The directives that `compile` and `classify` share.
fn common_directive(d: char, src: &Source, seconds: f64) -> String {
    match d {
        'r' => format!("{seconds:.6}"),
        'M' => stats::peak_mib_text(),
        'F' => src.file.clone().unwrap_or_default(),
        'L' => src
            .file
            .as_ref()
            .map_or_else(String::new, |_| src.line.to_string()),
        '<' => src
            .csv
            .as_ref()
            .map_or_else(String::new, |c| c.before.clone()),
        '>' => src
            .csv
            .as_ref()
            .map_or_else(String::new, |c| c.after.clone()),
        '%' => "%".into(),
        // The format was checked against the directives when parsed.
        _ => String::new(),
    }
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

/// Whether `--target promela` writes a Büchi claim for `t`.
fn buchi_claim(args: &CompileArgs, t: &Translation) -> bool {
    match args.claim {
        ClaimKind::Buchi => true,
        ClaimKind::Safety => false,
        ClaimKind::Auto => t.is_safety() == Some(false),
    }
}

/// Warnings and notes about one translation, on standard error; the time
/// of the informative comparison (with `--informative`).
fn report(
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
            "mongen: note: `{}`: deciding whether it is a safety property needs more than {} states; \
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
                "mongen: note: `{}`: informative monitor {} states, exact monitor {} states; \
                 shortest bad prefix that is not informative: {w}",
                src.label(f),
                r.informative_states,
                r.exact_states
            ),
            None => format!(
                "mongen: note: `{}`: every bad prefix is informative (informative monitor {} states, exact {} states)",
                src.label(f),
                r.informative_states,
                r.exact_states
            ),
        }),
        Err(e) => run.error(&src.describe(f, &e)),
    }
    Some(took)
}

/// The SMV observer: the DFA or the transducer (see `SmvEncoding`).
fn emit_smv(
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

/// What the spinner says while `classify` works on a formula.
const CLASSIFYING: &str = "deciding safety, guarantee, liveness, stutter-invariance and pathologic";

fn classify_cmd(args: &ClassifyArgs, run: &mut Run) -> Result<(), String> {
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
    let cfg = Config::new().max_states(Some(args.max_states));
    let sources = args.input.sources()?;
    for (k, src) in sources.iter().enumerate() {
        let start = Instant::now();
        let f = match src.parse() {
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
        run.stream(|w| w.flush());
        if args.stats == Some(StatsArg::Human) {
            let n = c.monitor_states;
            eprintln!(
                "mongen: stats: `{}`: {n} state{}, {:.3} ms, peak memory {} MiB",
                src.label(&f),
                if n == 1 { "" } else { "s" },
                start.elapsed().as_secs_f64() * 1e3,
                stats::peak_mib_text()
            );
        }
    }
    Ok(())
}

fn print_cmd(args: &PrintArgs, run: &mut Run) -> Result<(), String> {
    for src in args.input.sources()? {
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

/// `mongen completions SHELL`.
fn completions(args: &CompletionsArgs, run: &mut Run) -> Result<(), String> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "mongen", &mut script);
    run.raw = Some(script);
    Ok(())
}

/// The exit statuses of a command's manual page.
fn exit_status_of(name: &str) -> &'static str {
    match name {
        "mongen" => EXIT_STATUS,
        "check" => EXIT_STATUS_CHECK,
        "compile" | "classify" | "print" => EXIT_STATUS_FORMULAS,
        _ => "Exit status:\n  0  success\n  2  an error (a bad argument, an unreadable file...)",
    }
}

/// Text for roff: backslashes escaped, and no line starting with a
/// control character.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// The manual page of `cmd` (built): clap_mangen's sections, with the
/// exit statuses in a section of their own (as a list, not filled into a
/// paragraph).
fn man_page(cmd: &clap::Command) -> io::Result<Vec<u8>> {
    let man =
        clap_mangen::Man::new(cmd.clone()).source(format!("mongen {}", env!("CARGO_PKG_VERSION")));
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    if cmd.get_arguments().any(|a| !a.is_hide_set()) {
        man.render_options_section(&mut out)?;
    }
    if cmd.get_subcommands().any(|c| !c.is_hide_set()) {
        man.render_subcommands_section(&mut out)?;
    }
    // "N  what" lines (what may go on over indented lines): tagged
    // paragraphs.
    out.extend_from_slice(b".SH \"EXIT STATUS\"\n");
    for line in exit_status_of(cmd.get_name()).lines().skip(1) {
        let text = line.trim();
        let tagged = text
            .split_once("  ")
            .filter(|(code, _)| code.chars().all(|c| c.is_ascii_digit()));
        let roff = match tagged {
            Some((code, what)) => format!(".TP\n{code}\n{}\n", roff_text(what.trim())),
            None => format!("{}\n", roff_text(text)),
        };
        out.extend_from_slice(roff.as_bytes());
    }
    man.render_version_section(&mut out)?;
    Ok(out)
}

/// `mongen man [--dir DIR]`.
fn man(args: &ManArgs, run: &mut Run) -> Result<(), String> {
    let mut cmd = Cli::command().disable_help_subcommand(true);
    cmd.build();
    let failed = |e: io::Error| format!("cannot write the manual page: {e}");
    let Some(dir) = &args.dir else {
        run.raw = Some(man_page(&cmd).map_err(failed)?);
        return Ok(());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut pages = vec![cmd.clone()];
    pages.extend(cmd.get_subcommands().cloned());
    for page in &pages {
        let file_name = format!(
            "{}.1",
            page.get_display_name().unwrap_or_else(|| page.get_name())
        );
        let path = dir.join(file_name);
        let text = man_page(page).map_err(failed)?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        let _ = writeln!(run.out, "{}", path.display());
    }
    Ok(())
}

/// The command line, with the formulas and files of each command in the
/// order given (clap's derive keeps each argument's values apart).
fn parse_command_line() -> Cli {
    let matches = Cli::command().get_matches();
    let mut cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let Some((_, sub)) = matches.subcommand() {
        let input = match &mut cli.command {
            Command::Compile(a) => Some(&mut a.input),
            Command::Classify(a) => Some(&mut a.input),
            Command::Print(a) => Some(&mut a.input),
            Command::Check(a) => {
                a.items = ordered_items(
                    sub,
                    check_cmd::CheckArgs::FORMULA_IDS,
                    check_cmd::CheckArgs::FILE_ID,
                );
                None
            }
            _ => None,
        };
        if let Some(input) = input {
            input.items = ordered_items(sub, Input::FORMULA_IDS, Input::FILE_ID);
        }
    }
    cli
}

fn real_main() -> ExitCode {
    let cli = parse_command_line();
    let path = match &cli.command {
        Command::Compile(a) => a.output.clone(),
        _ => None,
    };
    let mut run = Run::new(path);
    let mut violated = false;
    let result = match &cli.command {
        Command::Compile(a) => compile(a, &mut run),
        Command::Classify(a) => classify_cmd(a, &mut run),
        Command::Print(a) => print_cmd(a, &mut run),
        Command::Genltl(a) => genltl(a, &mut run),
        Command::Check(a) => check_cmd::check(a, &mut run).map(|v| violated = v),
        Command::Completions(a) => completions(a, &mut run),
        Command::Man(a) => man(a, &mut run),
    };
    run.spinner = None;
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
