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
use monitor_core::automaton::{Alphabet, BadPrefixDfa, Target, Verdict};

use super::branches::{access_note, chain, unused_propositions};
use super::names::{
    bind_where, comment_safe, guard_text, is_identifier, verilog_usable, Binding, VERILOG_KEYWORDS,
    VERILOG_OPS,
};
use super::EmitError;

/// How the state register encodes the monitor state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateEncoding {
    /// State `k` is the number `k` in ceil(log2 n) bits.
    Binary,
    /// State `k` is bit `k` of an n-bit register.
    OneHot,
}

impl StateEncoding {
    /// The encoding chosen by size: one-hot from 3 to 16 states (fewer
    /// cells after synthesis, see `scripts/bench-hardware.sh`), binary for
    /// 2 states (1 flip-flop either way) and above 16.
    pub fn for_states(n: usize) -> StateEncoding {
        if (3..=16).contains(&n) {
            StateEncoding::OneHot
        } else {
            StateEncoding::Binary
        }
    }

    /// The number of flip-flops holding the state of an `n`-state monitor.
    ///
    /// ```
    /// use codegen::emit::verilog::StateEncoding;
    /// assert_eq!(StateEncoding::Binary.state_bits(5), 3);
    /// assert_eq!(StateEncoding::OneHot.state_bits(5), 5);
    /// assert_eq!(StateEncoding::Binary.state_bits(1), 0);
    /// ```
    pub fn state_bits(self, n: usize) -> usize {
        match self {
            _ if n <= 1 => 0,
            StateEncoding::Binary => (usize::BITS - (n - 1).leading_zeros()) as usize,
            StateEncoding::OneHot => n,
        }
    }
}

/// Options of [`emit_verilog`].
#[derive(Clone, Debug)]
pub struct VerilogOptions {
    /// The module is `NAME_checker`.
    pub name: String,
    /// Propositions bound to expressions of the design, used in the
    /// instantiation printed in the header (`--define req='req_i[0]'`).
    pub defines: Vec<(String, String)>,
    /// The state encoding; `None` chooses by size
    /// ([`StateEncoding::for_states`]).
    pub encoding: Option<StateEncoding>,
    /// Whether the monitor rejects only informative bad prefixes.
    pub informative: bool,
    /// Whether the monitor has three-valued verdicts (adds `satisfied`).
    pub three_valued: bool,
}

impl Default for VerilogOptions {
    fn default() -> Self {
        VerilogOptions {
            name: "monitor".into(),
            defines: Vec::new(),
            encoding: None,
            informative: false,
            three_valued: false,
        }
    }
}

/// Names the checker uses itself; propositions are renamed around them.
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
    bad: String,
}

/// The ports of the propositions of `aps` in a Verilog checker: the
/// identifiers (mangled where needed) and the expressions they are bound
/// to in the instantiation example.
///
/// ```
/// use codegen::emit::verilog::verilog_bindings;
/// use monitor_core::automaton::Alphabet;
///
/// let b = verilog_bindings(&Alphabet::new(["req", "module", "x > 3", "clk"]), &[]);
/// let ports: Vec<&str> = b.iter().map(|b| b.ident.as_str()).collect();
/// assert_eq!(ports, ["req", "p_module", "x___3", "p_clk"]);
/// ```
pub fn verilog_bindings(aps: &Alphabet, defines: &[(String, String)]) -> Vec<Binding> {
    bind_where(
        aps,
        |s| verilog_usable(s) && !VERILOG_RESERVED.contains(&s),
        |s| VERILOG_KEYWORDS.contains(&s),
        defines,
    )
}

/// A Verilog string literal's contents for `$error` (a format string).
fn format_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '%' => out.push_str("%%"),
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
        return Err(EmitError::Name(module));
    }
    Ok(module)
}

/// Writes `dfa` as a Verilog checker module.
///
/// ```
/// use codegen::emit::verilog::{emit_verilog, VerilogOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let v = emit_verilog(&dfa, &VerilogOptions::default())?;
/// assert!(v.contains("module monitor_checker (\n  input  wire clk,\n"));
/// assert!(v.contains("  assign fail = rst_n && !violated_q && bad;\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_verilog(dfa: &BadPrefixDfa, opts: &VerilogOptions) -> Result<String, EmitError> {
    let module = module_name(&opts.name)?;
    let n = dfa.num_states();
    let encoding = opts
        .encoding
        .unwrap_or_else(|| StateEncoding::for_states(n));
    let width = encoding.state_bits(n);
    let binary = encoding == StateEncoding::Binary || width == 0;
    let bindings = verilog_bindings(dfa.alphabet(), &opts.defines);
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let code = |k: usize| format!("{width}'d{k}");
    let action = |t: Target| match t {
        Target::Violation => "bad = 1'b1;".to_string(),
        Target::State(t) if binary => format!("state_d = {};", code(t as usize)),
        Target::State(t) => format!("state_d[{t}] = 1'b1;"),
    };
    let mut states = Vec::with_capacity(n);
    for s in 0..n as u32 {
        // Binary: `state_d` defaults to `state_q`, so the self-loop is
        // implicit; one state: staying needs no statement.
        let implicit = binary.then_some(Target::State(s));
        let mut lines = Vec::new();
        let links = if width == 0 {
            Vec::new()
        } else {
            chain(dfa, s, implicit)
        };
        for (i, b) in links.into_iter().enumerate() {
            let act = action(b.target);
            let els = if i > 0 { "else " } else { "" };
            match b.guard {
                Some(g) => lines.push(format!(
                    "{els}if ({}) {act}",
                    guard_text(&g, &idents, &VERILOG_OPS)
                )),
                None => lines.push(format!("{els}{act}")),
            }
        }
        if lines.is_empty() && binary && width > 0 {
            lines.push("state_d = state_q;".into());
        }
        states.push(StateView {
            head: if width == 0 {
                String::new()
            } else if binary {
                format!("{}:", code(s as usize))
            } else {
                format!("if (state_q[{s}])")
            },
            note: access_note(dfa, s),
            lines,
        });
    }
    let unused: Vec<&str> = unused_propositions(dfa)
        .iter()
        .zip(&idents)
        .filter(|(u, _)| **u)
        .map(|(_, id)| id.as_str())
        .collect();
    let good: Vec<String> = (0..n)
        .filter(|&s| dfa.verdict(s as u32) == Verdict::Satisfied)
        .map(|s| {
            if width == 0 {
                "1'b1".to_string()
            } else if binary {
                format!("state_d == {}", code(s))
            } else {
                format!("state_d[{s}]")
            }
        })
        .collect();
    let mut ports = vec![
        "  input  wire clk".to_string(),
        "  input  wire rst_n".to_string(),
    ];
    ports.extend(idents.iter().map(|id| format!("  input  wire {id}")));
    ports.push("  output wire violated".into());
    ports.push("  output wire fail".into());
    if opts.three_valued {
        ports.push("  output wire satisfied".into());
    }
    let mut connections: Vec<String> = vec![".clk(clk)".into(), ".rst_n(rst_n)".into()];
    connections.extend(
        bindings
            .iter()
            .map(|b| format!(".{}({})", b.ident, comment_safe(&b.expr))),
    );
    connections.push(".violated(violated)".into());
    connections.push(".fail(fail)".into());
    if opts.three_valued {
        connections.push(".satisfied(satisfied)".into());
    }
    let message = format_string(&format!("{module}: property {} violated", dfa.name()));
    let bad = guard_text(&dfa.violation_guard(0), &idents, &VERILOG_OPS);
    let view = Checker {
        bad,
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.informative,
        three_valued: opts.three_valued,
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
            .map(|b| (b.comment_name(), b.ident.clone()))
            .collect(),
        instance: format!("{module} chk ({});", connections.join(", ")),
        module,
        ports: ports.join(",\n"),
        width,
        binary,
        state_reset: if binary {
            code(0)
        } else {
            format!("{width}'d1")
        },
        state_default: if binary {
            "state_q".into()
        } else {
            format!("{width}'d0")
        },
        states,
        default_item: binary && width > 0 && n < 1 << width,
        unused: if unused.is_empty() {
            String::new()
        } else {
            format!("1'b0, {}, 1'b0", unused.join(", "))
        },
        satisfied: if good.is_empty() {
            "1'b0".into()
        } else {
            good.join(" || ")
        },
        onehot_legal: if binary {
            String::new()
        } else {
            format!("state_q != {width}'d0 && (state_q & (state_q - {width}'d1)) == {width}'d0")
        },
        message,
    };
    let mut text = view
        .render()
        .map_err(|e| EmitError::Template(e.to_string()))?;
    text.push('\n');
    Ok(text)
}
