//! Synthesizable Verilog-2001 checkers.
//!
//! The minimal monitor becomes a module `NAME_checker` with a clock, a
//! synchronous active-low reset, one input per proposition, and Mealy
//! outputs computed from the state and this cycle's inputs:
//!
//! * `fail`: 1 in the cycle whose inputs complete a bad prefix, for that
//!   cycle only;
//! * `violated`: 1 from that cycle until reset;
//! * `satisfied` (three-valued monitors): 1 from the cycle whose inputs
//!   complete a good prefix.
//!
//! All outputs are 0 while `rst_n` is low. After a violation the state
//! register holds (its value shows where the violation happened). The
//! state is encoded in binary (ceil(log2 n) flip-flops, none for one
//! state) or one-hot (n flip-flops), plus one flip-flop for `violated`.
//! Binary codes that are no state count as a violation, so a corrupted
//! state is reported rather than ignored.
//!
//! Inside `` `ifdef FORMAL `` (Yosys `read_verilog -formal`) the module
//! asserts `!fail` on every clock edge out of reset, and for one-hot
//! encoding that the state is one-hot, which makes the assertion
//! inductive; inside `` `ifdef ASSERTIONS `` (Verilator `--assert`, Icarus
//! `-g2012`) the assertion has an `$error` naming the property.

use askama::Template;
use monitor_core::automaton::{Alphabet, BadPrefixDfa, Guard, LabelError, Target, Verdict};
use monitor_core::formula::atom::Syntax;

use super::hardware::branches::{access_note, chain};
use super::hardware::clocking::Clocking;
use super::hardware::logic::{minimized_logic, Logic};
use super::hardware::HardwareClocking;
pub use super::hardware::StateEncoding;
use super::names::{
    bind_where, comment_safe, guard_text, is_identifier, verilog_usable, Binding, VERILOG_KEYWORDS,
    VERILOG_OPS,
};
use super::{Backend, Common, EmitError};
use crate::hdl::{check_expression, HdlInput};

/// Options of [`emit_verilog`].
#[derive(Clone, Debug)]
pub struct VerilogOptions {
    /// The module is `NAME_checker`; propositions bound to expressions of
    /// the design are used in the instantiation printed in the header
    /// (`--define req='req_i[0]'`); whether the monitor rejects only
    /// informative bad prefixes; three-valued verdicts add `satisfied`.
    pub common: Common,
    /// The state encoding; `None` chooses the smaller logic
    /// ([`choose_encoding`]).
    pub encoding: Option<StateEncoding>,
    /// How the transition function is written.
    pub logic: VerilogLogic,
    /// The clock and reset ports.
    pub clocking: Clocking,
    /// Verilog-2001 with immediate assertions, or SystemVerilog with
    /// concurrent ones.
    pub dialect: Dialect,
    /// The design's signals, with their ranges (`--input count:4`, or the
    /// module of `--design`). When there are any, the checker has one
    /// input per signal its propositions read, declared as the design
    /// declares it, and computes each proposition inside
    /// ([`check_expression`]: `count > 5`
    /// with `count` 4 bits wide is `wire count___5 = count > 4'd5;`), so
    /// that an instance connects `.count(count)`. A proposition that is a
    /// name not among them is a one-bit input. Without signals, each
    /// proposition is a one-bit input whose connection computes it.
    pub signals: Vec<HdlInput>,
    /// What formal tools and simulations do with `fail`.
    pub role: CheckerRole,
}

/// What a checker's `fail` means to the tools that read it: a PSL
/// directive's kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CheckerRole {
    /// `assert (!fail)`: the design must satisfy the property.
    #[default]
    Assert,
    /// `assume (!fail)`: formal tools consider only the environments that
    /// satisfy it (PSL `assume` and `restrict`); simulations report a
    /// failure as an error.
    Assume,
    /// `cover (fail)`: formal tools look for a run that completes the
    /// covered sequence; simulations display it.
    Cover,
}

impl CheckerRole {
    /// The SystemVerilog keyword.
    ///
    /// ```
    /// use mongen::emit::verilog::CheckerRole;
    ///
    /// assert_eq!(CheckerRole::Assume.keyword(), "assume");
    /// assert_eq!(CheckerRole::default().keyword(), "assert");
    /// ```
    pub fn keyword(self) -> &'static str {
        match self {
            CheckerRole::Assert => "assert",
            CheckerRole::Assume => "assume",
            CheckerRole::Cover => "cover",
        }
    }
}

/// The language of a hardware checker.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// Verilog-2001; immediate assertions under `` `ifdef FORMAL `` and
    /// `` `ifdef ASSERTIONS ``.
    #[default]
    Verilog,
    /// SystemVerilog with concurrent assertions (`assert property
    /// (@(posedge clk) disable iff (!rst_n) !fail)`, a `cover property` of
    /// `satisfied` for three-valued monitors), and immediate ones for
    /// Yosys (`` `ifdef YOSYS ``), whose open front end reads no clocking
    /// events.
    Sva,
}

/// How a Verilog checker writes its transition function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VerilogLogic {
    /// Minimized sums of products over the state bits and propositions,
    /// using the monitor's don't-cares (much smaller after synthesis),
    /// unless a `case` statement is smaller.
    #[default]
    Minimized,
    /// A `case` statement with one line per edge (readable).
    Case,
}

impl Default for VerilogOptions {
    fn default() -> Self {
        VerilogOptions {
            common: Common::default(),
            logic: VerilogLogic::Minimized,
            encoding: None,
            clocking: Clocking::default(),
            dialect: Dialect::Verilog,
            signals: Vec::new(),
            role: CheckerRole::Assert,
        }
    }
}

impl Backend for VerilogOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_verilog(dfa, self)
    }
}

/// Names the checker uses itself; propositions are renamed around them.
/// The default clock and reset (`clk`, `rst_n`) are reserved too, whatever
/// the clocking, so that a checker's ports do not change with it.
pub const VERILOG_RESERVED: &[&str] = &[
    "clk",
    "rst_n",
    "violated",
    "fail",
    "satisfied",
    "state_q",
    "state_d",
    "violated_q",
    "bad",
    "_unused_ok",
];

/// One `case` item (binary) or `if (state_q[k])` block (one-hot).
struct StateView {
    head: String,
    note: String,
    lines: Vec<String>,
    /// The guards tested, to measure the size.
    guards: Vec<Guard>,
}

/// How the transition function is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// One state: only `bad`, from the inputs.
    Single,
    /// Minimized sums of products (`assign state_d[k] = …`).
    Minimized,
    /// A `case` statement (binary) or `if` blocks (one-hot), one edge per
    /// line.
    Case,
}

impl Form {
    fn as_str(self) -> &'static str {
        match self {
            Form::Single => "single",
            Form::Minimized => "minimized",
            Form::Case => "case",
        }
    }
}

/// Above this many states the minimized form lists no states in a comment.
const STATE_LIST_LIMIT: usize = 64;

/// The transitions of `dfa` as `case` items (binary) or `if` blocks
/// (one-hot), one edge per line; empty for one state.
fn case_form(
    dfa: &BadPrefixDfa,
    width: usize,
    binary: bool,
    idents: &[String],
) -> Result<Vec<StateView>, LabelError> {
    if width == 0 {
        return Ok(Vec::new());
    }
    // One working manager for the labels of all states.
    let mut labels = dfa.labeler();
    let code = |k: usize| format!("{width}'d{k}");
    let action = |t: Target| match t {
        Target::Violation => "bad = 1'b1;".to_string(),
        Target::State(t) if binary => format!("state_d = {};", code(t.as_usize())),
        Target::State(t) => format!("state_d[{t}] = 1'b1;"),
    };
    dfa.states()
        .map(|s| {
            // Binary: `state_d` defaults to `state_q`, so the self-loop
            // may stay implicit.
            let implicit = binary.then_some(Target::State(s));
            let mut lines = Vec::new();
            let mut guards = Vec::new();
            for (i, b) in chain(&mut labels, s, implicit)?.into_iter().enumerate() {
                let act = action(b.target);
                let els = if i > 0 { "else " } else { "" };
                match b.guard {
                    Some(g) => {
                        lines.push(format!(
                            "{els}if ({}) {act}",
                            guard_text(&g, idents, &VERILOG_OPS)
                        ));
                        guards.push(g);
                    }
                    None => lines.push(format!("{els}{act}")),
                }
            }
            if lines.is_empty() && binary {
                lines.push("state_d = state_q;".into());
            }
            Ok(StateView {
                head: if binary {
                    format!("{}:", code(s.as_usize()))
                } else {
                    format!("if (state_q[{s}])")
                },
                note: access_note(dfa, s),
                lines,
                guards,
            })
        })
        .collect()
}

#[derive(Template)]
#[template(path = "verilog/checker.v")]
struct Checker {
    formula: String,
    version: &'static str,
    informative: bool,
    three_valued: bool,
    num_states: String,
    encoding_note: String,
    bindings: Vec<(String, String)>,
    /// Propositions computed inside from the design's signals.
    computed: bool,
    wires: Vec<String>,
    /// A port has an ascending range.
    ascending: bool,
    module: String,
    instance: String,
    ports: String,
    width: usize,
    binary: bool,
    state_reset: String,
    state_default: String,
    states: Vec<StateView>,
    default_item: bool,
    unused: String,
    satisfied: String,
    onehot_legal: String,
    message: String,
    role: &'static str,
    role_label: &'static str,
    clock_doc: Vec<String>,
    sva: bool,
    async_reset: bool,
    disable: String,
    reset_doc: String,
    has_reset: bool,
    on: String,
    sensitivity: String,
    reset_active: String,
    clock_event: String,
    formal_guard: String,
    init_state: String,
    init_violated: String,
    form: &'static str,
    assigns: Vec<String>,
    state_list: Vec<(String, String)>,
}

/// The ports of the propositions of `aps` in a Verilog checker: the
/// identifiers (mangled where needed) and the expressions they are bound
/// to in the instantiation example.
///
/// ```
/// use mongen::emit::verilog::verilog_bindings;
/// use monitor_core::automaton::Alphabet;
///
/// use mongen::emit::hardware::clocking::Clocking;
///
/// let aps = Alphabet::new(["req", "module", "x > 3", "clk", "clk_i"]);
/// let clocking = Clocking { clock: "clk_i".parse()?, ..Clocking::default() };
/// let b = verilog_bindings(&aps, &[], &clocking)?;
/// let ports: Vec<&str> = b.iter().map(|b| b.ident.as_str()).collect();
/// assert_eq!(ports, ["req", "p_module", "x___3", "p_clk", "p_clk_i"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn verilog_bindings(
    aps: &Alphabet,
    defines: &[(String, String)],
    clocking: &Clocking,
) -> Result<Vec<Binding>, EmitError> {
    let ports = clocking.port_names();
    bind_where(
        aps,
        |s| verilog_usable(s) && !VERILOG_RESERVED.contains(&s) && !ports.contains(&s),
        |s| VERILOG_KEYWORDS.contains(&s),
        defines,
        Syntax::Verilog,
    )
}

/// Checks that a clocking's ports can be ports of a Verilog checker (not
/// keywords, not the checker's own names, two different names).
///
/// ```
/// use mongen::emit::verilog::check_clocking;
/// use mongen::emit::hardware::clocking::Clocking;
///
/// let c = Clocking { clock: "always".parse()?, ..Clocking::default() };
/// assert!(check_clocking(&c).is_err());
/// # Ok::<(), String>(())
/// ```
pub fn check_clocking(clocking: &Clocking) -> Result<(), EmitError> {
    clocking.validate(verilog_usable, VERILOG_RESERVED)
}

/// An input port of a checker.
struct InputPort {
    /// Its declaration in the port list (`input  wire [3:0] count`).
    declaration: String,
    /// Its name.
    name: String,
    /// What an instance connects to it (`count`, `x > 3`).
    connection: String,
    /// A vector declared `[lsb:msb]` (Verilator warns, LITENDIAN).
    ascending: bool,
    /// A vector (all of its bits go to the sink of unused signals, as a
    /// proposition may read some of them only).
    vector: bool,
}

/// What a checker reads: its propositions' bindings, its input ports and,
/// over the design's signals, the wires that compute the propositions
/// (identifier, Verilog text).
struct CheckerInputs {
    bindings: Vec<Binding>,
    ports: Vec<InputPort>,
    wires: Vec<(String, String)>,
}

/// The inputs of the checker of `aps` (see [`VerilogOptions::signals`]).
fn checker_inputs(aps: &Alphabet, opts: &VerilogOptions) -> Result<CheckerInputs, EmitError> {
    let clock_ports = opts.clocking.port_names();
    if opts.signals.is_empty() {
        let bindings = verilog_bindings(aps, &opts.common.defines, &opts.clocking)?;
        let ports = bindings
            .iter()
            .map(|b| InputPort {
                declaration: format!("input  wire {}", b.ident),
                name: b.ident.clone(),
                connection: b.expr.clone(),
                ascending: false,
                vector: false,
            })
            .collect();
        return Ok(CheckerInputs {
            bindings,
            ports,
            wires: Vec::new(),
        });
    }
    // The reset port is connected to the design's signal of its name: a
    // proposition may read it (a `disable iff` folded into a formula that
    // reads past values does), and then reads the port. A checker without
    // a reset (its assertion has no `disable iff` beside others that have)
    // may read the design's `rst_n`: it has no port of that name.
    let reset = opts.clocking.reset.as_ref().map(|r| r.name.as_str());
    let own = |s: &str| {
        let reserved = VERILOG_RESERVED.contains(&s) && (s != "rst_n" || reset.is_some());
        (reserved || clock_ports.contains(&s)) && Some(s) != reset
    };
    let mut declared = opts.signals.clone();
    let mut bindings = bind_where(
        aps,
        |s| verilog_usable(s) && !own(s) && !declared.iter().any(|d| d.name == s),
        |s| VERILOG_KEYWORDS.contains(&s),
        &opts.common.defines,
        Syntax::Verilog,
    )?;
    // A proposition that is an undeclared name is a one-bit signal.
    for b in &bindings {
        if is_identifier(&b.expr)
            && !VERILOG_KEYWORDS.contains(&b.expr.as_str())
            && !declared.iter().any(|d| d.name == b.expr)
        {
            declared.push(HdlInput::scalar(b.expr.clone()));
        }
    }
    let mut read = vec![false; declared.len()];
    let mut wires = Vec::new();
    for b in &mut bindings {
        let checked = check_expression(&b.expr, &declared).map_err(|e| EmitError::Signal {
            name: b.name.clone(),
            message: e.message.clone(),
            caret: e.caret(&b.expr),
        })?;
        for r in &checked.reads {
            if own(r) {
                return Err(EmitError::Signal {
                    name: b.name.clone(),
                    message: format!(
                        "it reads `{r}`, which is also the name of one of the checker's own ports \
                         or registers ({}): compute the proposition in the design",
                        VERILOG_RESERVED.join(", ")
                    ),
                    caret: b.expr.clone(),
                });
            }
            if Some(r.as_str()) == reset {
                continue;
            }
            if let Some(k) = declared.iter().position(|d| &d.name == r) {
                read[k] = true;
            }
        }
        // A one-bit signal is its own proposition: no wire.
        if declared.iter().any(|d| d.scalar && d.name == checked.text) {
            b.ident = checked.text;
        } else {
            wires.push((b.ident.clone(), checked.text));
        }
    }
    let ports = declared
        .iter()
        .zip(read)
        .filter(|(_, read)| *read)
        .map(|(d, _)| InputPort {
            declaration: d
                .port_declaration()
                .replacen("input wire", "input  wire", 1),
            name: crate::hdl::expr::verilog_name(&d.name),
            connection: crate::hdl::expr::verilog_name(&d.name),
            ascending: !d.scalar && d.msb < d.lsb,
            vector: !d.scalar,
        })
        .collect();
    Ok(CheckerInputs {
        bindings,
        ports,
        wires,
    })
}

/// The ports of a checker and what they read: clock and reset, the
/// inputs, then the outputs (empty).
fn instance_connections(inputs: &CheckerInputs, opts: &VerilogOptions) -> Vec<(String, String)> {
    let mut c: Vec<(String, String)> = opts
        .clocking
        .port_names()
        .iter()
        .map(|p| (p.to_string(), p.to_string()))
        .collect();
    // A reset that is a condition (a compound `disable iff`) is driven by
    // it.
    if let Some(cond) = opts
        .clocking
        .reset
        .as_ref()
        .and_then(|r| r.condition.as_ref())
    {
        if let Some(port) = c.get_mut(1) {
            port.1 = cond.expression.clone();
        }
    }
    c.extend(
        inputs
            .ports
            .iter()
            .map(|p| (p.name.clone(), p.connection.clone())),
    );
    c.push(("violated".into(), String::new()));
    c.push(("fail".into(), String::new()));
    if opts.common.three_valued {
        c.push(("satisfied".into(), String::new()));
    }
    c
}

/// The checker `emit_verilog(dfa, opts)` writes, as a bind file or a
/// formal harness instantiates it (instance `NAME_chk`, outputs
/// unconnected).
///
/// ```
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use mongen::hdl::HdlInput;
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(\"x > 3\" -> X ack)")?.into_dfa();
/// let c = checker_instance(&dfa, &VerilogOptions::default())?;
/// assert_eq!(c.module, "monitor_checker");
/// assert_eq!(c.connections[2], ("x___3".to_string(), "x > 3".to_string()));
///
/// // Over the design's signals, the checker reads `x` itself.
/// let opts = VerilogOptions { signals: vec![HdlInput::bits("x", 4)], ..Default::default() };
/// let c = checker_instance(&dfa, &opts)?;
/// assert_eq!(c.connections[2], ("x".to_string(), "x".to_string()));
/// assert_eq!(c.connections[3], ("ack".to_string(), "ack".to_string()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn checker_instance(
    dfa: &BadPrefixDfa,
    opts: &VerilogOptions,
) -> Result<super::formal::CheckerInstance, EmitError> {
    let module = module_name(&opts.common.name)?;
    check_clocking(&opts.clocking)?;
    let inputs = checker_inputs(dfa.alphabet(), opts)?;
    Ok(super::formal::CheckerInstance {
        instance: format!("{}_chk", opts.common.name),
        module,
        formula: dfa.name().to_string(),
        connections: instance_connections(&inputs, opts),
        role: opts.role,
    })
}

/// A Verilog string literal's contents for `$error` (a format string):
/// one line of printable ASCII, with no `/*` or `//` in it, as Icarus
/// 11's preprocessor reads a comment opener after an escaped quote inside
/// a string (`"a\"/*"` swallowed the rest of the file).
fn format_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '%' => out.push_str("%%"),
            '/' if matches!(chars.peek(), Some('*' | '/')) => out.push_str("\\057"),
            c if c.is_control() || !c.is_ascii() => out.push('?'),
            c => out.push(c),
        }
    }
    out
}

/// The module name `NAME_checker`, if usable.
fn module_name(name: &str) -> Result<String, EmitError> {
    let module = format!("{name}_checker");
    if !is_identifier(&module) || !verilog_usable(&module) {
        return Err(EmitError::Name(name.to_string()));
    }
    Ok(module)
}

/// A way to write a checker: its encoding, its transition function in
/// both forms (the minimized one when it is used), and its estimated size.
struct Plan {
    encoding: StateEncoding,
    width: usize,
    case: Vec<StateView>,
    logic: Option<Logic>,
    /// Literals of the transition function plus flip-flops, which
    /// predicts Yosys's cell count (see `scripts/bench-hardware.sh`); a
    /// `case` statement counts four times its guards' literals and states
    /// (its priority chains and state decoding synthesize to that).
    cost: usize,
}

fn plan(
    dfa: &BadPrefixDfa,
    encoding: StateEncoding,
    logic: VerilogLogic,
    idents: &[String],
) -> Result<Plan, LabelError> {
    let n = dfa.num_states();
    let width = encoding.state_bits(n);
    let binary = encoding == StateEncoding::Binary || width == 0;
    let case = case_form(dfa, width, binary, idents)?;
    let case_cost = 4 * case
        .iter()
        .flat_map(|s| &s.guards)
        .map(Guard::literals)
        .sum::<usize>()
        + 4 * n;
    // The minimized sums of products, unless the case statement is
    // estimated smaller (functions with no small two-level form).
    let logic = match logic {
        VerilogLogic::Minimized => minimized_logic(dfa, encoding, case_cost),
        VerilogLogic::Case => None,
    };
    let cost = logic.as_ref().map_or(case_cost, Logic::literals) + width;
    Ok(Plan {
        encoding,
        width,
        case,
        logic,
        cost,
    })
}

/// The plan of the smaller estimated size; binary on ties (fewer
/// flip-flops).
fn plan_auto(
    dfa: &BadPrefixDfa,
    logic: VerilogLogic,
    idents: &[String],
) -> Result<Plan, LabelError> {
    let binary = plan(dfa, StateEncoding::Binary, logic, idents)?;
    if dfa.num_states() <= 2 {
        return Ok(binary);
    }
    let one_hot = plan(dfa, StateEncoding::OneHot, logic, idents)?;
    Ok(if one_hot.cost < binary.cost {
        one_hot
    } else {
        binary
    })
}

/// The state encoding [`emit_verilog`] chooses when none is given: the
/// one whose transition function is estimated smaller (literals of the
/// logic plus flip-flops), binary on ties.
///
/// ```
/// use mongen::emit::verilog::{choose_encoding, StateEncoding};
/// use monitor_core::translate::Builder;
///
/// let bounded = Builder::new().build("G(req -> F[0:32] ack)")?.into_dfa();
/// assert_eq!(choose_encoding(&bounded), StateEncoding::Binary);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn choose_encoding(dfa: &BadPrefixDfa) -> StateEncoding {
    let idents: Vec<String> = dfa.alphabet().names().to_vec();
    // A monitor with a label too large to write has no checker: any
    // encoding will do.
    plan_auto(dfa, VerilogLogic::Minimized, &idents).map_or(StateEncoding::Binary, |p| p.encoding)
}

/// Writes `dfa` as a Verilog checker module.
///
/// ```
/// use mongen::emit::verilog::{emit_verilog, VerilogOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let v = emit_verilog(&dfa, &VerilogOptions::default())?;
/// assert!(v.contains("module monitor_checker (\n  input  wire clk,\n"));
/// assert!(v.contains("  assign fail = rst_n && !violated_q && bad;\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_verilog(dfa: &BadPrefixDfa, opts: &VerilogOptions) -> Result<String, EmitError> {
    let module = module_name(&opts.common.name)?;
    let clocking = &opts.clocking;
    check_clocking(clocking)?;
    let n = dfa.num_states();
    let inputs = checker_inputs(dfa.alphabet(), opts)?;
    let bindings = &inputs.bindings;
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let Plan {
        encoding,
        width,
        case,
        logic,
        cost: _,
    } = match opts.encoding {
        Some(e) => plan(dfa, e, opts.logic, &idents)?,
        None => plan_auto(dfa, opts.logic, &idents)?,
    };
    let binary = encoding == StateEncoding::Binary || width == 0;
    let code = |k: usize| format!("{width}'d{k}");
    let state_name = |s: usize| {
        if binary {
            code(s)
        } else {
            format!("state_q[{s}]")
        }
    };
    // Variables of the two-level logic: the state bits, then the
    // propositions.
    let vars: Vec<String> = (0..width)
        .map(|b| format!("state_q[{b}]"))
        .chain(idents.iter().cloned())
        .collect();
    let mut used = vec![false; width + idents.len()];
    let mut mark = |g: &Guard, offset: usize| {
        for v in g.propositions() {
            used[v as usize + offset] = true;
        }
    };
    let (form, assigns, satisfied) = if width == 0 {
        let g = dfa.violation_guard(dfa.start())?;
        mark(&g, width);
        let good = if dfa.verdict(dfa.start()) == Verdict::Satisfied {
            "1'b1"
        } else {
            "1'b0"
        };
        let bad = guard_text(&g, &idents, &VERILOG_OPS);
        (
            Form::Single,
            vec![format!("wire bad = {bad};")],
            good.to_string(),
        )
    } else if let Some(l) = &logic {
        let mut lines = Vec::new();
        for (b, g) in l.state_d.iter().enumerate() {
            mark(g, 0);
            lines.push(format!(
                "assign state_d[{b}] = {};",
                guard_text(g, &vars, &VERILOG_OPS)
            ));
        }
        mark(&l.bad, 0);
        lines.push(format!(
            "assign bad = {};",
            guard_text(&l.bad, &vars, &VERILOG_OPS)
        ));
        let satisfied = if opts.common.three_valued {
            mark(&l.satisfied, 0);
            guard_text(&l.satisfied, &vars, &VERILOG_OPS)
        } else {
            String::new()
        };
        (Form::Minimized, lines, satisfied)
    } else {
        for s in &case {
            for g in &s.guards {
                mark(g, width);
            }
        }
        used[..width].iter_mut().for_each(|u| *u = true);
        let good: Vec<String> = dfa
            .states()
            .filter(|&s| dfa.verdict(s) == Verdict::Satisfied)
            .map(|s| {
                if binary {
                    format!("state_d == {}", code(s.as_usize()))
                } else {
                    format!("state_d[{s}]")
                }
            })
            .collect();
        let satisfied = if good.is_empty() {
            "1'b0".to_string()
        } else {
            good.join(" || ")
        };
        (Form::Case, Vec::new(), satisfied)
    };
    let unused: Vec<&str> = vars
        .iter()
        .zip(&used)
        .filter(|(_, u)| !**u)
        .map(|(v, _)| v.as_str())
        .chain(
            inputs
                .ports
                .iter()
                .filter(|p| p.vector)
                .map(|p| p.name.as_str()),
        )
        .collect();
    let state_list = if form == Form::Minimized && n <= STATE_LIST_LIMIT {
        dfa.states()
            .map(|s| (state_name(s.as_usize()), access_note(dfa, s)))
            .collect()
    } else {
        Vec::new()
    };
    let mut ports: Vec<String> = clocking
        .port_names()
        .iter()
        .map(|p| format!("  input  wire {p}"))
        .collect();
    ports.extend(inputs.ports.iter().map(|p| format!("  {}", p.declaration)));
    ports.push("  output wire violated".into());
    ports.push("  output wire fail".into());
    if opts.common.three_valued {
        ports.push("  output wire satisfied".into());
    }
    let connections: Vec<String> = instance_connections(&inputs, opts)
        .into_iter()
        .map(|(p, e)| {
            let e = if e.is_empty() {
                p.clone()
            } else {
                comment_safe(&e)
            };
            format!(".{p}({e})")
        })
        .collect();
    let message = format_string(&match opts.role {
        CheckerRole::Assert => format!("{module}: property {} violated", dfa.name()),
        CheckerRole::Assume => format!("{module}: assumption {} violated", dfa.name()),
        CheckerRole::Cover => format!("{module}: covered {}", dfa.name()),
    });
    let hw = HardwareClocking::new(clocking);
    let state_reset = if binary {
        code(0)
    } else {
        format!("{width}'d1")
    };
    let view = Checker {
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.common.informative,
        three_valued: opts.common.three_valued,
        num_states: super::names::states(n),
        encoding_note: match (width, binary) {
            (0, _) => "one state, no state register; one flip-flop for `violated`".into(),
            (w, true) => format!(
                "binary, {w} flip-flop{} (state_q), plus one for `violated`",
                if w == 1 { "" } else { "s" }
            ),
            (w, false) => format!("one-hot, {w} flip-flops (state_q), plus one for `violated`"),
        },
        bindings: bindings
            .iter()
            .map(|b| {
                let wire = inputs.wires.iter().find(|(id, _)| *id == b.ident);
                let target = match wire {
                    Some((id, text)) => format!("{id} = {}", comment_safe(text)),
                    None => b.ident.clone(),
                };
                (b.comment_name(), target)
            })
            .collect(),
        computed: !opts.signals.is_empty(),
        wires: inputs
            .wires
            .iter()
            .map(|(id, text)| match two_valued(text) {
                // A formal model is two-valued: no bit is x or z. Yosys
                // (0.70, with smtbmc) reads `$isunknown` of a free input
                // as 1, which would refute `!$isunknown(v)` in any design.
                Some(formal) => format!(
                    "`ifdef FORMAL\n  wire {id} = {formal};  // two-valued: nothing is unknown\n\
                     `else\n  wire {id} = {text};\n`endif"
                ),
                None => format!("wire {id} = {text};"),
            })
            .collect(),
        ascending: inputs.ports.iter().any(|p| p.ascending),
        instance: format!("{module} chk ({});", connections.join(", ")),
        module,
        ports: ports.join(",\n"),
        width,
        binary,
        form: form.as_str(),
        assigns,
        state_list,
        state_reset: state_reset.clone(),
        state_default: if binary {
            "state_q".into()
        } else {
            format!("{width}'d0")
        },
        default_item: binary && width > 0 && n < 1 << width,
        states: case,
        unused: if unused.is_empty() {
            String::new()
        } else {
            format!("1'b0, {}, 1'b0", unused.join(", "))
        },
        satisfied,
        onehot_legal: if binary {
            String::new()
        } else {
            format!("state_q != {width}'d0 && (state_q & (state_q - {width}'d1)) == {width}'d0")
        },
        message,
        role: opts.role.keyword(),
        role_label: match opts.role {
            CheckerRole::Assert => "a_fail",
            CheckerRole::Assume => "m_fail",
            CheckerRole::Cover => "c_fail",
        },
        clock_doc: hw.port_doc(),
        sva: opts.dialect == Dialect::Sva,
        async_reset: clocking.reset.as_ref().is_some_and(|r| r.asynchronous),
        disable: if hw.reset_active.is_empty() {
            String::new()
        } else {
            format!(" disable iff ({})", hw.reset_active)
        },
        reset_doc: hw.reset_doc,
        has_reset: clocking.reset.is_some(),
        on: hw.on,
        sensitivity: hw.sensitivity,
        reset_active: hw.reset_active,
        clock_event: hw.clock_event,
        formal_guard: hw.formal_guard,
        init_state: if clocking.reset.is_none() && width > 0 {
            format!(" = {state_reset}")
        } else {
            String::new()
        },
        init_violated: if clocking.reset.is_none() {
            " = 1'b0".into()
        } else {
            String::new()
        },
    };
    super::render(&view)
}

/// A proposition's text with each `$isunknown(...)` read as `1'b0`, as in
/// a two-valued model (a formal proof's); `None` when it reads none.
fn two_valued(text: &str) -> Option<String> {
    const CALL: &str = "$isunknown(";
    if !text.contains(CALL) {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(CALL) {
        out.push_str(&rest[..at]);
        let after = &rest[at + CALL.len()..];
        let mut depth = 1usize;
        let mut end = after.len();
        for (k, c) in after.char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push_str("1'b0");
        rest = &after[end..];
    }
    out.push_str(rest);
    Some(out)
}

#[cfg(test)]
mod tests {

    #[test]
    fn isunknown_is_false_in_a_two_valued_model() {
        assert_eq!(two_valued("a && b"), None);
        assert_eq!(
            two_valued("!$isunknown(v[(3):0]) && ($isunknown(w) || x)").as_deref(),
            Some("!1'b0 && (1'b0 || x)")
        );
    }
    use super::*;
    use monitor_core::translate::{Builder, Config, Verdicts};

    fn dfa(f: &str, three: bool) -> BadPrefixDfa {
        let mut b = Builder::new();
        if three {
            b.configure(Config::new().verdicts(Verdicts::Three));
        }
        b.build(f).unwrap().into_dfa()
    }

    #[test]
    fn minimized_logic_uses_the_dont_cares() {
        // The state is the last values of req0 and req1.
        let d = dfa("G((gnt0 -> Y req0) & (gnt1 -> Y req1))", false);
        let opts = VerilogOptions {
            encoding: Some(StateEncoding::Binary),
            ..Default::default()
        };
        let v = emit_verilog(&d, &opts).unwrap();
        println!("{v}");
        assert!(v.contains("  wire [1:0] state_d;\n"), "{v}");
        let assigns: Vec<&str> = v
            .lines()
            .filter(|l| l.starts_with("  assign state_d"))
            .collect();
        assert_eq!(assigns.len(), 2, "{v}");
        // One literal each: a proposition's value of this cycle.
        for a in assigns {
            assert!(!a.contains("&&") && !a.contains("||"), "{a}");
        }
        assert!(v.contains("  //   2'd0: start\n"), "{v}");
    }

    #[test]
    fn case_form_and_corrupted_codes() {
        let d = dfa("G(req -> X(ack | X ack))", false);
        assert_eq!(d.num_states(), 3);
        let opts = VerilogOptions {
            encoding: Some(StateEncoding::Binary),
            logic: VerilogLogic::Case,
            ..Default::default()
        };
        let v = emit_verilog(&d, &opts).unwrap();
        assert!(
            v.contains("    case (state_q)\n      2'd0: begin  // start\n"),
            "{v}"
        );
        assert!(v.contains("      default: bad = 1'b1;"), "{v}");
        assert!(v.contains("  reg [1:0] state_d;\n"), "{v}");
        let one_hot = emit_verilog(
            &d,
            &VerilogOptions {
                encoding: Some(StateEncoding::OneHot),
                logic: VerilogLogic::Case,
                ..Default::default()
            },
        )
        .unwrap();
        assert!(one_hot.contains("    if (state_q[2]) begin"), "{one_hot}");
        assert!(one_hot.contains("state_q <= 3'd1;"), "{one_hot}");
        assert!(
            one_hot.contains("assert (state_q != 3'd0 && (state_q & (state_q - 3'd1)) == 3'd0);"),
            "{one_hot}"
        );
    }

    #[test]
    fn single_state_checkers_and_unused_inputs() {
        let d = dfa("G b & (X a | X !a)", false);
        assert_eq!(d.num_states(), 1);
        let v = emit_verilog(&d, &VerilogOptions::default()).unwrap();
        assert!(v.contains("  wire bad = !b;\n"), "{v}");
        assert!(!v.contains("state_q"), "{v}");
        assert!(v.contains("  wire _unused_ok = &{1'b0, a, 1'b0};\n"), "{v}");
        let never = emit_verilog(&dfa("true", true), &VerilogOptions::default()).unwrap();
        assert!(never.contains("  wire bad = 1'b0;\n"), "{never}");
    }

    #[test]
    fn three_valued_and_messages() {
        let d = dfa("a W \"b%\"", true);
        let v = emit_verilog(
            &d,
            &VerilogOptions {
                common: Common {
                    three_valued: true,
                    ..Common::default()
                },
                ..Default::default()
            },
        )
        .unwrap();
        assert!(v.contains("  output wire satisfied\n"), "{v}");
        assert!(
            v.contains("  assign satisfied = rst_n && !violated_q && !bad && ("),
            "{v}"
        );
        // The property in a $error format string: quotes and % escaped.
        assert!(
            v.contains("$error(\"monitor_checker: property a W \\\"b%%\\\" violated\");"),
            "{v}"
        );
        assert_eq!(
            emit_verilog(
                &d,
                &VerilogOptions {
                    common: Common::named("1x"),
                    ..Default::default()
                }
            ),
            Err(EmitError::Name("1x".into()))
        );
    }
}
