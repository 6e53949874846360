//! Putting hardware checkers to work on a design: a SystemVerilog `bind`
//! file, a formal harness (the design module with its checkers), and a
//! SymbiYosys project that proves the harness.
//!
//! Which tools honour `bind` decides which of these a flow uses: Verilator
//! and commercial tools read the bind file; Icarus Verilog 11 rejects it;
//! Yosys 0.23 parses it and then drops the checkers as unused modules,
//! which leaves nothing to prove and *proves any design*. For Yosys the
//! checkers are instantiated: in the design by hand, or in the harness
//! [`emit_formal_harness`] writes around the design module, and the
//! SymbiYosys project [`emit_sby`] checks that every checker is
//! instantiated before proving (`select -assert-min 1 t:CHECKER`), so a
//! checker that is not there stops the proof with an error.
//!
//! ```
//! use mongen::emit::formal::{emit_bind, CheckerInstance};
//! use mongen::emit::verilog::{checker_instance, VerilogOptions};
//! use monitor_core::translate::Builder;
//!
//! let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
//! let chk = checker_instance(&dfa, &VerilogOptions::default())?;
//! let bind = emit_bind("arbiter", &[chk])?;
//! assert!(bind.contains(
//!     "bind arbiter monitor_checker monitor_chk (.clk(clk), .rst_n(rst_n), .req(req), .ack(ack), .violated(), .fail());"
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use askama::Template;

use super::hardware::clocking::Clocking;
use super::names::{comment_safe, is_identifier, verilog_usable};
use super::verilog::CheckerRole;
use super::EmitError;
use crate::hdl::{check_expression, HdlInput};

/// A checker as a bind file or a harness instantiates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerInstance {
    /// The checker module (`NAME_checker`).
    pub module: String,
    /// The instance name (`NAME_chk`).
    pub instance: String,
    /// The property, for a comment.
    pub formula: String,
    /// Each port and the expression of the design it reads; outputs have
    /// an empty expression (left unconnected).
    pub connections: Vec<(String, String)>,
    /// Whether the checker asserts, assumes or covers.
    pub role: CheckerRole,
}

impl CheckerInstance {
    fn connection_list(&self) -> String {
        self.connections
            .iter()
            .map(|(p, e)| format!(".{p}({})", comment_safe(e)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The direction of a design module's port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortDirection {
    /// `input`
    Input,
    /// `output`
    Output,
    /// `inout`
    Inout,
}

/// A port of the design module a harness wraps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignPort {
    /// The name and range.
    pub signal: HdlInput,
    /// The direction.
    pub direction: PortDirection,
}

struct InstanceView {
    module: String,
    instance: String,
    formula: String,
    connections: String,
}

fn views(checkers: &[CheckerInstance]) -> Vec<InstanceView> {
    checkers
        .iter()
        .map(|c| InstanceView {
            module: c.module.clone(),
            instance: c.instance.clone(),
            formula: comment_safe(&c.formula),
            connections: c.connection_list(),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "verilog/bind.sv")]
struct Bind {
    version: &'static str,
    target: String,
    checkers: Vec<InstanceView>,
}

fn module_identifier(option: &str, name: &str) -> Result<(), EmitError> {
    if is_identifier(name) && verilog_usable(name) {
        Ok(())
    } else {
        Err(EmitError::Formal(format!(
            "{option} {name}: not a Verilog module name"
        )))
    }
}

/// A SystemVerilog file that binds `checkers` into every instance of the
/// module `target`.
///
/// See the [module](self) documentation for an example and for the tools
/// that honour `bind`.
///
/// ```
/// use mongen::emit::formal::emit_bind;
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !overflow")?.into_dfa();
/// let chk = checker_instance(&dfa, &VerilogOptions::default())?;
/// assert!(emit_bind("fifo", &[chk.clone()])?.contains("bind fifo monitor_checker monitor_chk ("));
/// let err = emit_bind("2fifo", &[chk]).unwrap_err();
/// assert_eq!(err.to_string(), "--bind 2fifo: not a Verilog module name");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_bind(target: &str, checkers: &[CheckerInstance]) -> Result<String, EmitError> {
    module_identifier("--bind", target)?;
    super::render(&Bind {
        version: env!("CARGO_PKG_VERSION"),
        target: target.to_string(),
        checkers: views(checkers),
    })
}

/// Options of [`emit_formal_harness`].
#[derive(Clone, Debug)]
pub struct HarnessOptions {
    /// The harness module's name.
    pub module: String,
    /// The design module.
    pub design: String,
    /// The design module's ports.
    pub ports: Vec<DesignPort>,
    /// The checkers' clock and reset (ports of the design).
    pub clocking: Clocking,
    /// Who reads the harness, for its header (`tasks.sby`).
    pub reader: String,
}

#[derive(Template)]
#[template(path = "verilog/formal_top.sv")]
struct Harness {
    version: &'static str,
    module: String,
    design: String,
    count: usize,
    sby: String,
    ports: String,
    design_connections: String,
    checkers: Vec<InstanceView>,
    has_reset: bool,
    clock_event: String,
    reset_active: String,
}

fn range_text(s: &HdlInput) -> String {
    let signed = if s.signed { "signed " } else { "" };
    if s.scalar {
        signed.to_string()
    } else {
        format!("{signed}[{}:{}] ", s.msb, s.lsb)
    }
}

/// A harness module: the design module with its ports brought out (its
/// inputs are the harness's, free for a prover), and the checkers
/// connected to them; under `FORMAL`, the reset is assumed active in the
/// first cycle. An error names a checker that reads something other than
/// the design's ports (Yosys cannot reach inside a module: instantiate
/// that checker in the design).
///
/// ```
/// use mongen::emit::formal::{emit_formal_harness, DesignPort, HarnessOptions, PortDirection};
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use mongen::hdl::HdlInput;
/// use monitor_core::translate::Builder;
///
/// let port = |n: &str, d| DesignPort { signal: HdlInput::scalar(n), direction: d };
/// let opts = HarnessOptions {
///     module: "monitor_formal".into(),
///     design: "arbiter".into(),
///     ports: vec![
///         port("clk", PortDirection::Input),
///         port("rst_n", PortDirection::Input),
///         port("req", PortDirection::Input),
///         port("ack", PortDirection::Output),
///     ],
///     clocking: Default::default(),
///     reader: "monitor.sby".into(),
/// };
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let chk = checker_instance(&dfa, &VerilogOptions::default())?;
/// let v = emit_formal_harness(&opts, &[chk.clone()])?;
/// assert!(v.contains("  arbiter dut (.clk(clk), .rst_n(rst_n), .req(req), .ack(ack));"));
/// assert!(v.contains("  always @* if (f_init) assume (!rst_n);"));
///
/// let inside = Builder::new().build("G(busy -> X ack)")?.into_dfa();
/// let err = emit_formal_harness(&opts, &[checker_instance(&inside, &VerilogOptions::default())?]);
/// assert!(err.unwrap_err().to_string().contains("`busy`"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_formal_harness(
    opts: &HarnessOptions,
    checkers: &[CheckerInstance],
) -> Result<String, EmitError> {
    module_identifier("--name", &opts.module)?;
    module_identifier("--sby", &opts.design)?;
    let signals: Vec<HdlInput> = opts.ports.iter().map(|p| p.signal.clone()).collect();
    let is_port = |n: &str| signals.iter().any(|s| s.name == n);
    for name in opts.clocking.port_names() {
        if !is_port(name) {
            return Err(EmitError::Formal(format!(
                "the module {} has no port `{name}` for the checkers' clock or reset \
                 (--clock, --reset, --no-reset)",
                opts.design
            )));
        }
    }
    for c in checkers {
        for (port, expr) in &c.connections {
            if expr.is_empty() {
                continue;
            }
            check_expression(expr, &signals).map_err(|e| {
                EmitError::Formal(format!(
                    "{} (port {port}): `{expr}`: {}; a harness connects the checkers to the \
                     ports of {} only, as Yosys reaches inside no module (no bind, no \
                     hierarchical names): instantiate this checker in {} itself",
                    c.module, e.message, opts.design, opts.design
                ))
            })?;
        }
    }
    let ports = opts
        .ports
        .iter()
        .map(|p| match p.direction {
            PortDirection::Input => {
                format!("  input  wire {}{}", range_text(&p.signal), p.signal.name)
            }
            PortDirection::Inout => {
                format!("  inout  wire {}{}", range_text(&p.signal), p.signal.name)
            }
            PortDirection::Output => {
                format!("  output wire {}{}", range_text(&p.signal), p.signal.name)
            }
        })
        .collect::<Vec<_>>()
        .join(",\n");
    let hw = super::hardware::HardwareClocking::new(&opts.clocking);
    super::render(&Harness {
        version: env!("CARGO_PKG_VERSION"),
        module: opts.module.clone(),
        design: opts.design.clone(),
        count: checkers.len(),
        sby: opts.reader.clone(),
        ports,
        design_connections: opts
            .ports
            .iter()
            .map(|p| format!(".{0}({0})", p.signal.name))
            .collect::<Vec<_>>()
            .join(", "),
        checkers: views(checkers),
        has_reset: opts.clocking.reset.is_some(),
        clock_event: hw.clock_event,
        reset_active: hw.reset_active,
    })
}

/// Options of [`emit_sby`].
#[derive(Clone, Debug)]
pub struct SbyOptions {
    /// The project file's name (`monitor.sby`), for its usage lines.
    pub file: String,
    /// The design module.
    pub design: String,
    /// The harness module (the top of the proof).
    pub top: String,
    /// The harness file's name.
    pub harness: String,
    /// The files to read (design, checkers, harness), as `[files]` lists
    /// them: paths from the project file's folder.
    pub files: Vec<String>,
    /// The depth of induction and of bounded model checking.
    pub depth: u32,
    /// The SMT solver of `smtbmc` (`z3`, `yices`, `boolector`).
    pub solver: String,
}

#[derive(Template)]
#[template(path = "sby/project.sby")]
struct Sby {
    version: &'static str,
    design: String,
    harness: String,
    count: usize,
    assumptions: usize,
    covers: usize,
    file: String,
    depth: u32,
    engine: String,
    top: String,
    files: Vec<String>,
    file_names: Vec<String>,
    checkers: Vec<InstanceView>,
    yosys_script: String,
}

/// The base name of a path, as SymbiYosys copies `[files]` into one
/// folder.
fn base_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}

/// A SymbiYosys project proving the harness `top`: tasks `prove`
/// (k-induction) and `bmc`, and `cover` when a checker covers, engine
/// `smtbmc`, and a script that stops with an error when a checker is not
/// instantiated.
///
/// ```
/// use mongen::emit::formal::{emit_sby, CheckerInstance, SbyOptions};
/// use mongen::emit::verilog::CheckerRole;
///
/// let chk = CheckerInstance {
///     module: "p_checker".into(),
///     instance: "p_chk".into(),
///     formula: "G a".into(),
///     connections: vec![],
///     role: CheckerRole::Assert,
/// };
/// let opts = SbyOptions {
///     file: "p.sby".into(),
///     design: "dut".into(),
///     top: "p_formal".into(),
///     harness: "p_formal.sv".into(),
///     files: vec!["../rtl/dut.v".into(), "p_checker.v".into(), "p_formal.sv".into()],
///     depth: 20,
///     solver: "z3".into(),
/// };
/// let sby = emit_sby(&opts, &[chk])?;
/// assert!(sby.contains("read_verilog -formal -sv dut.v p_checker.v p_formal.sv\nprep -top p_formal\n"));
/// assert!(sby.contains("select -assert-min 1 t:p_checker\n"));
/// assert!(sby.contains("[files]\n../rtl/dut.v\n"));
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn emit_sby(opts: &SbyOptions, checkers: &[CheckerInstance]) -> Result<String, EmitError> {
    let file_names: Vec<String> = opts.files.iter().map(|f| base_name(f)).collect();
    let mut script = format!(
        "read_verilog -formal -sv {}; prep -top {}; ",
        opts.files.join(" "),
        opts.top
    );
    for c in checkers {
        script.push_str(&format!("select -assert-min 1 t:{}; ", c.module));
    }
    script.push_str("flatten; ");
    // `sat` cannot read cover cells: it proves the assertions only.
    if checkers.iter().any(|c| c.role == CheckerRole::Cover) {
        script.push_str("chformal -cover -remove; ");
    }
    script.push_str(&format!(
        "async2sync; dffunmap; sat -tempinduct -prove-asserts -set-assumes -maxsteps {} {}",
        opts.depth, opts.top
    ));
    super::render(&Sby {
        version: env!("CARGO_PKG_VERSION"),
        design: opts.design.clone(),
        harness: opts.harness.clone(),
        count: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Assert)
            .count(),
        assumptions: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Assume)
            .count(),
        covers: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Cover)
            .count(),
        file: opts.file.clone(),
        depth: opts.depth,
        // SymbiYosys runs z3 incrementally, without unrolling, by default;
        // z3 4.8 (Debian 12's) then stalls in the first step on designs as
        // small as a FIFO's read side, and solves them at once unrolled.
        engine: if opts.solver == "z3" {
            "smtbmc --unroll z3".to_string()
        } else {
            format!("smtbmc {}", opts.solver)
        },
        top: opts.top.clone(),
        files: opts.files.clone(),
        file_names,
        checkers: views(checkers),
        yosys_script: script,
    })
}
