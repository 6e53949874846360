//! The command line: every command's arguments (clap), apart from the
//! code that runs them (`compile_cmd`, `classify_cmd`, `check_cmd`, …).

use std::path::PathBuf;

use crate::cli_input::{read_sources, Item, Language, Source};
use crate::stats::{StatsArg, CLASSIFY_DIRECTIVES, COMPILE_DIRECTIVES};
use clap::{Args, Parser, Subcommand, ValueEnum};
use mongen::emit::hardware::clocking::{Clock, Clocking, Reset};
use mongen::emit::Target;
use monitor_core::formula::metric::ClockPeriod;
use monitor_core::translate::{Route, DEFAULT_MAX_STATES};

/// `--max-memory`'s default, as the help shows it (`DEFAULT_MAX_MEMORY`).
const DEFAULT_MAX_MEMORY_TEXT: &str = "1G";

/// The exit statuses, for the top-level help and the manual.
pub(crate) const EXIT_STATUS: &str = "\
Exit status:
  0  success (check: no property is violated)
  1  check: a property is violated
  2  an error: a bad argument, an unreadable file, a formula that does not
     parse, a state limit exceeded... (a formula that fails is reported
     and the others are processed; a bad argument or an unreadable input
     stops before any work)";

/// The exit statuses of the commands that read formulas (all but check).
pub(crate) const EXIT_STATUS_FORMULAS: &str = "\
Exit status:
  0  every formula was processed
  2  an error (a bad argument, an unreadable file, a formula that does not
     parse, a state limit exceeded...); a formula that fails is reported
     and the others are processed, a bad argument or an unreadable file
     stops before any work";

/// The exit statuses of `check`.
pub(crate) const EXIT_STATUS_CHECK: &str = "\
Exit status:
  0  every property holds on every trace (or is undecided)
  1  a property is violated
  2  an error: a bad argument, an unreadable trace, a formula that does not
     parse, a field missing from a trace... (what was read of a trace before
     bad input is reported, and the other traces are checked)";

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
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

// Parsed once per run: boxing CompileArgs would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub(crate) enum Command {
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
    Check(CheckArgs),
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
pub(crate) struct Input {
    /// Formulas to process ('-': read formulas from standard input, one per
    /// line, as -F - does).
    #[arg(value_name = "FORMULA")]
    pub(crate) formulas: Vec<String>,
    /// Process FORMULA (repeatable; the same as a FORMULA argument).
    #[arg(short = 'f', long = "formula", value_name = "FORMULA")]
    pub(crate) formula: Vec<String>,
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
    pub(crate) files: Vec<PathBuf>,
    /// Read the formulas as PSL (IEEE 1850, Verilog flavour or NuSMV
    /// syntax: `always {req; !ack[*0:3]} |=> ack`) instead of LTL.
    #[arg(long)]
    pub(crate) psl: bool,
    /// Read the formulas as SVA assertions (IEEE 1800-2017 §16:
    /// `req |-> ##[1:3] ack`, `@(posedge clk) disable iff (rst) req |=>
    /// ack`), checked at every clock tick, instead of LTL.
    #[arg(long, conflicts_with = "psl")]
    pub(crate) sva: bool,
    /// The formulas and files, in command-line order (filled in from the
    /// matches, which know the order).
    #[arg(skip)]
    pub(crate) items: Vec<Item>,
}

impl Input {
    /// The argument ids of formulas (`true`: a `-` there reads standard
    /// input) and of files.
    pub(crate) const FORMULA_IDS: &'static [(&'static str, bool)] =
        &[("formulas", true), ("formula", false)];
    pub(crate) const FILE_ID: &'static str = "files";

    pub(crate) fn sources(&self) -> Result<Vec<Source>, String> {
        if self.items.is_empty() {
            return Err(
                "no formula given (pass FORMULA arguments, -f FORMULA, or -F FILE; '-' reads standard input)"
                    .into(),
            );
        }
        let sources = read_sources(&self.items, Language::of(self.psl, self.sva))?;
        if sources.is_empty() {
            return Err(
                "no formula given: the input holds none (blank lines and lines starting with '#' are skipped)"
                    .into(),
            );
        }
        Ok(sources)
    }
}

/// `--sv FILE` and its preprocessor's options, shared by compile and
/// check.
#[derive(Args, Debug, Default)]
pub(crate) struct SvArgs {
    /// Read the properties from the concurrent assertions of the
    /// SystemVerilog FILE (IEEE 1800-2017: `assert`, `assume`, `cover` and
    /// `restrict property`, as module items and in `always` procedures,
    /// with their module's `sequence`, `property` and `let` declarations,
    /// `default clocking` and `default disable iff`): one property per
    /// assertion, named by its label (or MODULE_k), with its clock and
    /// `disable iff`.
    #[arg(id = "sv", long = "sv", value_name = "FILE",
          conflicts_with_all = ["formulas", "files", "vunit", "psl", "sva"])]
    pub(crate) file: Option<PathBuf>,
    /// --sv: define a preprocessor macro (repeatable), as `define NAME
    /// VALUE at the top of the file would.
    // Its own id: `defines` is also the id of compile's and check's
    // `--define NAME=EXPR`, whose parser clap would give `-D`.
    #[arg(
        id = "sv_define",
        short = 'D',
        value_name = "NAME[=VALUE]",
        requires = "sv"
    )]
    pub(crate) defines: Vec<String>,
    /// --sv: a directory searched by `include (repeatable).
    #[arg(id = "sv_include", short = 'I', value_name = "DIR", requires = "sv")]
    pub(crate) include_dirs: Vec<PathBuf>,
    /// --sv: give a module parameter a value (repeatable), in place of its
    /// default, where generate loops and generate `if`/`case` around
    /// assertions are unrolled.
    #[arg(
        id = "sv_parameter",
        short = 'P',
        value_name = "NAME=VALUE",
        requires = "sv"
    )]
    pub(crate) parameters: Vec<String>,
}

impl SvArgs {
    /// The assertions of --sv, when given (`items`: the command's -f and
    /// -F, which do not go with it).
    pub(crate) fn read(
        &self,
        items: &[Item],
    ) -> Result<Option<crate::vunit_input::VunitProperties>, String> {
        let Some(path) = &self.file else {
            return Ok(None);
        };
        if !items.is_empty() {
            return Err("--sv reads the properties of its file: give no -f or -F with it".into());
        }
        let options = crate::sv_input::SvOptions {
            defines: &self.defines,
            include_dirs: &self.include_dirs,
            parameters: &self.parameters,
        };
        crate::sv_input::read_sv(path, &options).map(Some)
    }
}

#[derive(Args, Debug)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum, value_name = "SHELL")]
    pub(crate) shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub(crate) struct ManArgs {
    /// Write mongen.1 and one page per command (mongen-compile.1, ...)
    /// into DIR (created if need be) instead of mongen.1 on standard
    /// output.
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Encoding {
    /// The smaller estimated logic (binary on ties).
    Auto,
    /// ceil(log2 n) flip-flops.
    Binary,
    /// One flip-flop per state.
    Onehot,
}

/// How the exact monitor is built (`--route`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum RouteArg {
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
pub(crate) enum SmvEncoding {
    /// The explicit DFA, unless it is large and the transducer is exact.
    Auto,
    /// The minimal DFA as an enumerated state variable.
    Dfa,
    /// The symbolic transducer (informative bad prefixes; linear size).
    Transducer,
}

/// Which never claim `--target promela` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ClaimKind {
    /// A Büchi claim for a property that is not safety, else the safety
    /// claim.
    Auto,
    /// The minimal deterministic claim of the bad prefixes (pan -DSAFETY);
    /// for a property that is not safety, those of its safety closure.
    Safety,
    /// A Büchi claim of the negation (pan -a), for any property.
    Buchi,
}

/// A `--max-memory SIZE`: bytes, or a number with `K`, `M`, `G` or `T`
/// (powers of 1024; `KiB`, `MB` and the like are read the same).
pub(crate) fn parse_size(s: &str) -> Result<usize, String> {
    let t = s.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (number, unit) = t.split_at(digits);
    let bad = || format!("expected a size such as 512M, 2G or a number of bytes, found `{s}`");
    if number.is_empty() {
        return Err(bad());
    }
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(bad()),
    };
    let n: usize = number.parse().map_err(|_| format!("`{s}` is too large"))?;
    let bytes = n
        .checked_mul(1usize << shift)
        .ok_or_else(|| format!("`{s}` is too large"))?;
    // Below this, not even the decision diagrams' first tables fit.
    if bytes < 1 << 20 {
        return Err(format!("`{s}` is less than the smallest budget, 1M"));
    }
    Ok(bytes)
}

/// A `--define NAME=EXPR`.
pub(crate) fn parse_define(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((name, expr)) if !name.trim().is_empty() && !expr.trim().is_empty() => {
            Ok((name.trim().to_string(), expr.trim().to_string()))
        }
        _ => Err(format!("expected NAME=EXPR, found `{s}`")),
    }
}

#[derive(Args, Debug)]
pub(crate) struct CompileArgs {
    #[command(flatten)]
    pub(crate) input: Input,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Target::Hoa)]
    pub(crate) target: Target,
    /// Reject only the informative bad prefixes (Latvala's construction);
    /// reports on standard error where this differs from the exact monitor.
    #[arg(long)]
    pub(crate) informative: bool,
    /// 2: violated/undecided; 3: also detect good prefixes (satisfied).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) verdicts: u8,
    /// Stop with an error when an automaton exceeds N states.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    pub(crate) max_states: usize,
    /// Stop with an error when building a monitor needs more than SIZE
    /// bytes of memory (512M, 2G, or bytes).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_MEMORY_TEXT, value_parser = parse_size)]
    pub(crate) max_memory: usize,
    /// Write to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Print statistics: without FORMAT, sizes, time and peak memory on
    /// standard error; with FORMAT, one line per formula instead of the
    /// monitor (--stats='%s %e %t').
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_parser = |s: &str| crate::stats::parse_stats_arg(s, COMPILE_DIRECTIVES),
        long_help = crate::stats::long_help(COMPILE_STATS_HELP, COMPILE_DIRECTIVES),
    )]
    pub(crate) stats: Option<StatsArg>,
    /// How the exact monitor is built (the monitor is the same; the cost
    /// differs).
    #[arg(long, value_enum, default_value_t = RouteArg::Auto)]
    pub(crate) route: RouteArg,
    /// Do not warn about formulas that are not safety properties.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// Name of what is generated: the never claim, the SMV module
    /// (NAME_observer), the Verilog module and SystemC class
    /// (NAME_checker), the Rust type (NameMonitor). With several formulas,
    /// the k-th is NAME_k. With --vunit, the checkers are named by the
    /// directives' labels, and NAME (the unit's name by default) names the
    /// bind file, the formal harness and the SymbiYosys project.
    /// [default: monitor]
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
    /// Bind a proposition to an expression of the model (repeatable), e.g.
    /// --define p='ncrit <= 1'.
    #[arg(long = "define", value_name = "NAME=EXPR", value_parser = parse_define)]
    pub(crate) defines: Vec<(String, String)>,
    /// SMV: the observer's instance name in `main` (default: `obs` with
    /// --model, `mg_obs` without).
    #[arg(long, value_name = "NAME")]
    pub(crate) instance: Option<String>,
    /// SMV: write MODEL with the observers in it (their instances and
    /// INVARSPECs at the end of `main`, wherever `main` is; their modules
    /// at the end), using names that clash with none of the model's.
    #[arg(long, value_name = "MODEL.smv")]
    pub(crate) model: Option<PathBuf>,
    /// SMV: the observer's encoding.
    #[arg(long, value_enum, default_value_t = SmvEncoding::Auto)]
    pub(crate) smv_encoding: SmvEncoding,
    /// Promela: which never claim.
    #[arg(long, value_enum, default_value_t = ClaimKind::Auto)]
    pub(crate) claim: ClaimKind,
    /// HOA: a Büchi automaton of the formula (`Acceptance: 1 Inf(0)`; the
    /// never claim of --claim buchi is that of its negation) instead of
    /// the monitor.
    #[arg(long)]
    pub(crate) buchi: bool,
    /// Convert the time bounds of LTL formulas (`F[0:50ns] p`, `O[1us:] p`,
    /// for `mongen check --time`) to counts of cycles of a clock of period
    /// PERIOD (10ns, 2.5ns, 1us): `F[0:50ns] p` at 10ns is `F[0:5] p`. Each
    /// bound must be a whole number of cycles. Without it, a time bound is
    /// an error: a compiled monitor counts events or cycles.
    #[arg(long, value_name = "PERIOD", value_parser = ClockPeriod::parse)]
    pub(crate) clock_period: Option<ClockPeriod>,
    /// Verilog: the state encoding.
    #[arg(long, value_enum, default_value_t = Encoding::Auto)]
    pub(crate) encoding: Encoding,
    /// Verilog: how the transition function is written.
    #[arg(long, value_enum, default_value_t = Logic::Minimized)]
    pub(crate) logic: Logic,
    /// Verilog, SVA, SystemC: the clock port and the edge the checker samples on
    /// (NAME[:posedge|negedge]; default clk:posedge).
    #[arg(long, value_name = "NAME[:EDGE]")]
    pub(crate) clock: Option<Clock>,
    /// Verilog, SVA, SystemC: the reset port, which restarts the check
    /// (NAME[:low|high][:sync|async]; low and sync unless given; default
    /// rst_n:low:sync).
    #[arg(long, value_name = "NAME[:LEVEL][:KIND]", conflicts_with = "no_reset",
          value_parser = |s: &str| s.parse::<Reset>().map(|_| s.to_string()))]
    pub(crate) reset: Option<String>,
    /// Verilog, SVA, SystemC: no reset port; the registers start in the initial
    /// state.
    #[arg(long)]
    pub(crate) no_reset: bool,
    /// Verilog, SVA: also write NAME_bind.sv beside --output, binding the
    /// checkers into every instance of MODULE (SystemVerilog bind: for
    /// Verilator and commercial tools; Icarus and Yosys do not honour it).
    /// Without MODULE, the module of the --vunit.
    #[arg(long, value_name = "MODULE", num_args = 0..=1, default_missing_value = "")]
    pub(crate) bind: Option<String>,
    /// Verilog, SVA: also write beside --output a formal harness
    /// NAME_formal.sv (MODULE, from --design, with the checkers on its
    /// ports) and a SymbiYosys project NAME.sby that proves it. Without
    /// MODULE, the module of the --vunit.
    #[arg(long, value_name = "MODULE", num_args = 0..=1, default_missing_value = "",
          requires = "design")]
    pub(crate) sby: Option<String>,
    /// --sv, --vunit: make the assertion of this name (its label, as
    /// its checker is named) an assumption (repeatable): an assertion on
    /// the module's inputs holds in its environment, which a proof of
    /// the module alone must assume (Yosys's `chformal -assert2assume`).
    #[arg(long = "assume", value_name = "NAME")]
    pub(crate) assume: Vec<String>,
    /// --bind, --sby: write the bind file, the harness and the project
    /// even when some properties are refused or fail, with the others;
    /// the project's header names those left out, and the run still
    /// reports their errors and exits with 2.
    #[arg(long)]
    pub(crate) keep_going: bool,
    /// The design's Verilog files (repeatable): --sby proves them; with
    /// --sby, --bind or --vunit, the checkers read the module's signals
    /// with their widths (as with --input).
    #[arg(long, value_name = "FILE")]
    pub(crate) design: Vec<PathBuf>,
    /// Verilog, SVA: a signal of the design, with its width (repeatable):
    /// NAME (one bit), NAME:WIDTH, NAME:[MSB:LSB], NAME:sWIDTH (signed).
    /// The checker then has an input per signal its propositions read (a
    /// vector port `count`) and computes the propositions inside (`count >
    /// 5`, `data[3]`, `state inside {1, 2}`, or --define expressions over
    /// the signals), with widths checked.
    #[arg(long = "input", value_name = "NAME[:WIDTH]",
          value_parser = mongen::hdl::parse_input_spec)]
    pub(crate) inputs: Vec<mongen::hdl::HdlInput>,
    /// Read the properties from the PSL verification units of FILE (`vunit
    /// NAME (MODULE) { default clock = (posedge clk); a1: assert ...; }`):
    /// one checker per directive, named by its label; `assume` and
    /// `restrict` make checkers that formal tools assume, `cover` ones
    /// they cover (--target verilog and sva).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["formulas", "formula", "files"])]
    pub(crate) vunit: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) sv: SvArgs,
    /// --sby: the design's reset, which the proof holds active in its
    /// first cycle (NAME[:low|high]; low unless given), so that it starts
    /// from the design's reset state. Default: the checkers' reset (their
    /// `disable iff`); without one, the proof starts in any state.
    #[arg(long, value_name = "NAME[:LEVEL]", requires = "sby",
          value_parser = |s: &str| s.parse::<Reset>())]
    pub(crate) design_reset: Option<Reset>,
    /// --sby: the depth of induction and bounded model checking.
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub(crate) depth: u32,
}

impl CompileArgs {
    /// The checkers' clock and reset, or why the options do not apply.
    pub(crate) fn clocking(&self) -> Result<Clocking, String> {
        let hardware = self.target.is_hardware();
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
pub(crate) enum Logic {
    /// Sums of products minimized with the monitor's don't-cares (smaller
    /// after synthesis), unless a case statement is smaller.
    Minimized,
    /// A case statement, one line per edge (readable).
    Case,
}

/// The long help of `compile --stats`, before the directives.
pub(crate) const COMPILE_STATS_HELP: &str = "\
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
pub(crate) const CLASSIFY_STATS_HELP: &str = "\
Print statistics about each formula.

--stats (no FORMAT): one line per formula on standard error: the states \
of the exact monitor, the wall-clock time of all the work done for the \
formula (parsing and every analysis) and the peak memory.

--stats=FORMAT: one line per formula on standard output INSTEAD of the \
classification, FORMAT with its %-directives replaced; for instance \
--stats='%r s, %M MiB: %f'. Unknown directives are an error.";

#[derive(Args, Debug)]
pub(crate) struct ClassifyArgs {
    #[command(flatten)]
    pub(crate) input: Input,
    /// One JSON object per formula and per line.
    #[arg(long)]
    pub(crate) json: bool,
    /// Print statistics: without FORMAT, states, time and peak memory on
    /// standard error; with FORMAT, one line per formula instead of the
    /// classification (--stats='%r %f').
    #[arg(
        long,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "",
        value_parser = |s: &str| crate::stats::parse_stats_arg(s, CLASSIFY_DIRECTIVES),
        long_help = crate::stats::long_help(CLASSIFY_STATS_HELP, CLASSIFY_DIRECTIVES),
    )]
    pub(crate) stats: Option<StatsArg>,
    /// Stop with an error when an automaton exceeds N states.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    pub(crate) max_states: usize,
    /// Stop with an error when building a monitor needs more than SIZE
    /// bytes of memory (512M, 2G, or bytes).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_MEMORY_TEXT, value_parser = parse_size)]
    pub(crate) max_memory: usize,
    /// Classify the formula whose time bounds (`F[0:50ns] p`) are counts
    /// of cycles of a clock of period PERIOD, as `mongen compile
    /// --clock-period` compiles it.
    #[arg(long, value_name = "PERIOD", value_parser = ClockPeriod::parse)]
    pub(crate) clock_period: Option<ClockPeriod>,
}

#[derive(Args, Debug)]
pub(crate) struct PrintArgs {
    #[command(flatten)]
    pub(crate) input: Input,
    /// Print in Spin syntax instead of Spot's.
    #[arg(long, conflicts_with = "smv")]
    pub(crate) spin: bool,
    /// Print in NuSMV's LTL syntax (for LTLSPEC) instead of Spot's.
    #[arg(long)]
    pub(crate) smv: bool,
    /// Print in PSL (Verilog flavour, fully parenthesized) instead of
    /// Spot's syntax: LTL properties for PSL tools, or PSL read back.
    #[arg(long = "to-psl", conflicts_with_all = ["spin", "smv"])]
    pub(crate) to_psl: bool,
    /// Simplify first.
    #[arg(long)]
    pub(crate) simplify: bool,
    /// Put in negation normal form.
    #[arg(long)]
    pub(crate) nnf: bool,
}

#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// The family (see --list).
    #[arg(value_name = "FAMILY", required_unless_present = "list")]
    pub(crate) family: Option<String>,
    /// The first (or only) member to print.
    #[arg(value_name = "N", required_unless_present = "list")]
    pub(crate) from: Option<usize>,
    /// The last member to print.
    #[arg(value_name = "M")]
    pub(crate) to: Option<usize>,
    /// List the families.
    #[arg(long)]
    pub(crate) list: bool,
}

/// The formats of traces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TraceFormat {
    /// CSV with a header row.
    Csv,
    /// JSON Lines: one JSON object per line.
    Jsonl,
    /// VCD: a value change dump (IEEE 1364).
    Vcd,
}

#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// A property to check (repeatable).
    #[arg(short = 'f', long = "formula", value_name = "FORMULA")]
    pub(crate) formulas: Vec<String>,
    /// Read properties from FILE, one per line ('-' for standard input;
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
    pub(crate) files: Vec<PathBuf>,
    /// The properties and files, in command-line order (filled in from
    /// the matches).
    #[arg(skip)]
    pub(crate) items: Vec<Item>,
    /// Check the `assert`, `assume` and `restrict` directives of the PSL
    /// verification units of FILE, named by their labels, sampled at the
    /// vunit's clock and restarted by its `disable iff` (an asynchronous
    /// reset), unless --clock and --reset say otherwise; `cover`
    /// directives are not checked.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["formulas", "files"])]
    pub(crate) vunit: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) sv: SvArgs,
    /// Read the properties as PSL instead of LTL.
    #[arg(long)]
    pub(crate) psl: bool,
    /// Read the properties as SVA assertions (IEEE 1800-2017 §16),
    /// checked at every cycle, instead of LTL.
    #[arg(long, conflicts_with = "psl")]
    pub(crate) sva: bool,
    /// --sva: a signal's width (repeatable): NAME (one bit), NAME:WIDTH,
    /// NAME:[MSB:LSB], NAME:sWIDTH (signed), which vector expressions
    /// (`&v`, `$onehot(v)`, `$past(v) == v`) need.
    #[arg(long = "input", value_name = "NAME[:WIDTH]", requires = "sva",
          value_parser = mongen::hdl::parse_input_spec)]
    pub(crate) inputs: Vec<mongen::hdl::HdlInput>,
    /// Bind a proposition to an expression over the trace's fields
    /// (repeatable): --define slow='latency > 100',
    /// --define err='level == "ERROR"'. A proposition without one reads
    /// the field of its name as a Boolean, or is itself an expression
    /// ("latency > 100" in quotes).
    #[arg(long = "define", value_name = "NAME=EXPR", value_parser = parse_define)]
    pub(crate) defines: Vec<(String, String)>,
    /// CSV and JSON Lines: a missing field (an empty cell, a JSON key
    /// absent from the line, `null`) in a proposition is an error naming
    /// the line. Without it, a missing field is SQL's NULL: a comparison
    /// or a Boolean reading it is false (`has(x)`, `x == null` test it).
    #[arg(long)]
    pub(crate) strict_fields: bool,
    /// CSV and JSON Lines: each event's time is in FIELD, shown with each
    /// event of a report. UNIT: integers or decimals in ns, us, ms, s
    /// (the default) or m, h (`ts:ms`), or `rfc3339`: date-times with an
    /// offset (2024-05-01T12:00:00.5Z). Without a unit, a number is in
    /// seconds and other text a date-time. Times must not decrease (see
    /// --time-order); a missing or unreadable time is an error. VCD
    /// waveforms have their own times.
    #[arg(long, value_name = "FIELD[:UNIT]", value_parser = parse_time_spec)]
    pub(crate) time: Option<monitor_core::trace::time::TimeSpec>,
    /// With --time: a time that goes back is an error naming the line and
    /// both times (strict), or the event is taken at the time before it
    /// and counted in the report (lenient).
    #[arg(long, value_enum, value_name = "ORDER", default_value_t = TimeOrderArg::Strict, requires = "time")]
    pub(crate) time_order: TimeOrderArg,
    /// With --time: each trace is taken to have lasted until time T
    /// (written as the time field's values, in its unit): at its end, a
    /// future time bound's deadline (`F[0:500ms] p`) before T has passed,
    /// as if an event at T had been read. Without it, the trace ends at its
    /// last event, and obligations whose deadlines had not passed are
    /// violated only if they fail whatever would have followed.
    #[arg(long, value_name = "T", requires = "time")]
    pub(crate) end_time: Option<String>,
    /// The traces ('-' for standard input, with --format).
    #[arg(value_name = "TRACE", required = true)]
    pub(crate) traces: Vec<PathBuf>,
    /// The traces' format (default: from the extension: .csv, .jsonl,
    /// .ndjson, .json, .vcd; each may be followed by .gz or .zst, a
    /// compressed trace).
    #[arg(long, value_enum)]
    pub(crate) format: Option<TraceFormat>,
    /// VCD: sample the signals at the edges of this clock, with the values
    /// they had just before the edge (NAME[:posedge|negedge]; posedge by
    /// default). Without it, every time step is an event.
    #[arg(long, value_name = "NAME[:EDGE]")]
    pub(crate) clock: Option<String>,
    /// VCD: hold the monitors in their initial state while this reset is
    /// active at a clock edge (NAME[:low|high][:sync|async]; low and sync
    /// by default, like `rst_n`); an async one also restarts them when it
    /// pulses between two edges, as it resets a checker's registers.
    #[arg(long, value_name = "NAME[:LEVEL][:KIND]")]
    pub(crate) reset: Option<String>,
    /// 2: holds/violated; 3: also detect when the property is satisfied
    /// for good.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..=3))]
    pub(crate) verdicts: u8,
    /// Restart a property after each violation and count every one.
    #[arg(long)]
    pub(crate) all: bool,
    /// With --all: how many violations per property are explained.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub(crate) max_reports: usize,
    /// One JSON object per trace and property and per line.
    #[arg(long)]
    pub(crate) json: bool,
    /// Stop with an error when an automaton exceeds N states.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_STATES)]
    pub(crate) max_states: usize,
    /// Stop with an error when building a monitor needs more than SIZE
    /// bytes of memory (512M, 2G, or bytes).
    #[arg(long, value_name = "SIZE", default_value = DEFAULT_MAX_MEMORY_TEXT, value_parser = parse_size)]
    pub(crate) max_memory: usize,
    /// Do not warn about properties that are not safety properties.
    #[arg(short, long)]
    pub(crate) quiet: bool,
    /// CSV and JSON Lines: check on N cores (default: all), the log cut
    /// in chunks of 1 MiB; 1 reads it in one pass.
    #[arg(short = 'j', long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub(crate) jobs: Option<u16>,
    /// Build each monitor while checking, only the states the trace
    /// visits, in a cache of bounded memory (for monitors too large to
    /// build whole, like `Gp1 | ... | Gp30`); syntactic safety formulas,
    /// one pass.
    #[arg(long)]
    pub(crate) lazy: bool,
    /// With --lazy: the memory of each monitor's cache, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 32, requires = "lazy")]
    pub(crate) lazy_cache: usize,
    /// CSV and JSON Lines: keep reading the trace as it grows, like
    /// `tail -f`, and report each violation as it happens (in one pass);
    /// the summary comes when the input ends (standard input closed).
    #[arg(long)]
    pub(crate) follow: bool,
    /// CSV and JSON Lines: check each key's events apart (an interleaved
    /// log of sessions, requests, devices): the key is the values of
    /// these fields (JSON Lines: dotted paths); each key's monitors start
    /// at its first event.
    #[arg(long, value_name = "FIELD[,FIELD...]", value_delimiter = ',')]
    pub(crate) by: Vec<String>,
    /// With --by: rows where a key field is missing or empty are an
    /// error, or are sent to every key (those seen so far and, replayed
    /// first, those seen later), or are skipped.
    #[arg(long, value_enum, value_name = "WHAT", default_value_t = UnkeyedRows::Error, requires = "by")]
    pub(crate) unkeyed: UnkeyedRows,
    /// With --by: stop with an error when more than N keys are live at
    /// once (keys closed by --end-key, and keys whose monitors can never
    /// be violated again, are not live).
    #[arg(long, value_name = "N", requires = "by")]
    pub(crate) key_limit: Option<usize>,
    /// With --by: an expression over the fields, as in --define, true at
    /// the last event of its key (`event == "logout"`): the key's monitors
    /// are freed after it, and a later row of that key starts anew.
    #[arg(long, value_name = "EXPR", requires = "by")]
    pub(crate) end_key: Option<String>,
    /// Show these fields at each event of a violation's explanation
    /// (repeatable; JSON Lines: dotted paths; VCD: signals), such as a
    /// request id or a time stamp; a field absent from an event is shown
    /// as absent there.
    #[arg(long, value_name = "FIELD[,FIELD...]", value_delimiter = ',')]
    pub(crate) show: Vec<String>,
    /// One line per trace and property with its counts (events,
    /// violations; with --by, keys and keys violated), no explanation:
    /// for checks over many files. With --json, one object each, without
    /// `violations`.
    #[arg(long, conflicts_with = "follow")]
    pub(crate) summary: bool,
}

/// `--time FIELD[:UNIT]`.
fn parse_time_spec(arg: &str) -> Result<monitor_core::trace::time::TimeSpec, String> {
    monitor_core::trace::time::TimeSpec::parse(arg)
}

/// What `check --time` does with a time that goes back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum TimeOrderArg {
    /// An error naming the line and both times.
    Strict,
    /// Take the event at the time before it, and count it.
    Lenient,
}

impl From<TimeOrderArg> for monitor_core::trace::time::TimeOrder {
    fn from(o: TimeOrderArg) -> Self {
        match o {
            TimeOrderArg::Strict => monitor_core::trace::time::TimeOrder::Strict,
            TimeOrderArg::Lenient => monitor_core::trace::time::TimeOrder::Lenient,
        }
    }
}

/// What `check --by` does with rows without a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum UnkeyedRows {
    /// Stop with an error naming the line.
    Error,
    /// Send the row to every key's events.
    Broadcast,
    /// Drop the row.
    Skip,
}

impl CheckArgs {
    /// The argument ids of properties and of files, for
    /// [`super::cli_input::ordered_items`].
    pub(crate) const FORMULA_IDS: &'static [(&'static str, bool)] = &[("formulas", false)];
    pub(crate) const FILE_ID: &'static str = "files";
}
