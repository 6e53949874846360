//! SystemC checker modules.
//!
//! The minimal monitor becomes a header `NAME_checker.h` declaring
//! `SC_MODULE(NAME_checker)` with the ports of the Verilog checker
//! ([`super::verilog`]) and the same cycle semantics: `sc_in<bool>` ports
//! `clk`, `rst_n` (synchronous, active low) and one per proposition;
//! `sc_out<bool>` ports `fail` (the cycle that completes a bad prefix),
//! `violated` (sticky until reset) and, for three-valued monitors,
//! `satisfied`, all computed from the state and the current inputs.
//!
//! The transition function is a `switch` over the states with one `if`
//! per edge and simplified guards, the encoding Tabakov, Rozier and Vardi
//! found fastest for SystemC monitors; a clocked `SC_METHOD` commits it on
//! the rising edge, a second `SC_METHOD` keeps the outputs up to date.
//! The header builds with `g++ -std=c++17 -Wall -Wextra -Werror` against
//! SystemC 2.3.

use askama::Template;
use monitor_core::automaton::{Alphabet, BadPrefixDfa, Target, Verdict};
use monitor_core::formula::atom::Syntax;

use super::hardware::branches::{access_note, chain};
use super::hardware::clocking::{ClockEdge, Clocking};
use super::hardware::HardwareClocking;
use super::names::{
    bind_where, comment_safe, cpp_usable, guard_text, is_identifier, Binding, C_OPS,
};
use super::{Backend, Common, EmitError};

/// Options of [`emit_systemc`].
#[derive(Clone, Debug, Default)]
pub struct SystemcOptions {
    /// The module is `NAME_checker`; propositions bound to signals of the
    /// design are used in the binding example printed in the header;
    /// whether the monitor rejects only informative bad prefixes;
    /// three-valued verdicts add `satisfied`.
    pub common: Common,
    /// The clock and reset ports.
    pub clocking: Clocking,
}

impl Backend for SystemcOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_systemc(dfa, self)
    }
}

/// Names the module uses itself (members, and the SystemC names of its
/// internal signals); propositions are renamed around them.
pub const SYSTEMC_RESERVED: &[&str] = &[
    "clk",
    "rst_n",
    "violated",
    "fail",
    "satisfied",
    "state_q",
    "violated_q",
    "state_q_",
    "violated_q_",
    "step",
    "tick",
    "evaluate",
    "good_state",
    "bad",
    "next",
    "on",
    "s",
];

struct StateView {
    value: usize,
    note: String,
    lines: Vec<String>,
}

#[derive(Template)]
#[template(path = "systemc/checker.h")]
struct Checker {
    formula: String,
    version: &'static str,
    informative: bool,
    three_valued: bool,
    num_states: String,
    bindings: Vec<(String, String)>,
    binds: Vec<(String, String)>,
    module: String,
    guard: String,
    idents: Vec<String>,
    initializers: String,
    states: Vec<StateView>,
    good: String,
    clock_doc: Vec<String>,
    reset_doc: String,
    clock_ports: Vec<String>,
    tick_events: String,
    reset_port: String,
    reset_active: String,
    async_reset: bool,
    edge_word: &'static str,
    on: String,
}

/// The ports of the propositions of `aps` in the SystemC checker
/// `NAME_checker`: the identifiers (mangled where needed) and the
/// expressions they are bound to in the binding example.
///
/// ```
/// use mongen::emit::systemc::systemc_bindings;
/// use monitor_core::automaton::Alphabet;
///
/// let aps = Alphabet::new(["req", "class", "x > 3", "EOF", "sensitive"]);
/// let b = systemc_bindings(&aps, "monitor", &[], &Default::default())?;
/// let ports: Vec<&str> = b.iter().map(|b| b.ident.as_str()).collect();
/// assert_eq!(ports, ["req", "p_class", "x_3", "p_EOF", "p_sensitive"]);
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn systemc_bindings(
    aps: &Alphabet,
    name: &str,
    defines: &[(String, String)],
    clocking: &Clocking,
) -> Result<Vec<Binding>, EmitError> {
    let module = format!("{name}_checker");
    let ports = clocking.port_names();
    bind_where(
        aps,
        |s| cpp_usable(s) && !SYSTEMC_RESERVED.contains(&s) && s != module && !ports.contains(&s),
        |s| !cpp_usable(s),
        defines,
        Syntax::Cpp,
    )
}

/// Checks that a clocking's ports can be ports of the SystemC checker
/// `NAME_checker` (not C++ keywords or macros, not the module's own names).
///
/// ```
/// use mongen::emit::systemc::check_clocking;
/// use mongen::emit::hardware::clocking::Clocking;
///
/// let c = Clocking { clock: "errno".parse()?, ..Clocking::default() };
/// assert!(check_clocking(&c, "monitor").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn check_clocking(clocking: &Clocking, name: &str) -> Result<(), EmitError> {
    let module = format!("{name}_checker");
    clocking.validate(|s| cpp_usable(s) && s != module, SYSTEMC_RESERVED)
}

/// Writes `dfa` as a SystemC checker header.
///
/// ```
/// use mongen::emit::systemc::{emit_systemc, SystemcOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let h = emit_systemc(&dfa, &SystemcOptions::default())?;
/// assert!(h.contains("SC_MODULE(monitor_checker) {\n  sc_core::sc_in<bool> clk;\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_systemc(dfa: &BadPrefixDfa, opts: &SystemcOptions) -> Result<String, EmitError> {
    let module = format!("{}_checker", opts.common.name);
    if !is_identifier(&module) || !cpp_usable(&module) {
        return Err(EmitError::Name(opts.common.name.clone()));
    }
    let clocking = &opts.clocking;
    check_clocking(clocking, &opts.common.name)?;
    let bindings = systemc_bindings(
        dfa.alphabet(),
        &opts.common.name,
        &opts.common.defines,
        clocking,
    )?;
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let reads: Vec<String> = idents.iter().map(|id| format!("{id}.read()")).collect();
    // One working manager for the labels of all states.
    let mut labels = dfa.labeler();
    let states = dfa
        .states()
        .map(|s| {
            let lines = chain(&mut labels, s, None)?
                .into_iter()
                .map(|b| {
                    let act = match b.target {
                        Target::Violation => "{ bad = true; return s; }".to_string(),
                        Target::State(t) => format!("return {t};"),
                    };
                    match b.guard {
                        Some(g) => format!("if ({}) {act}", guard_text(&g, &reads, &C_OPS)),
                        None => act
                            .trim_start_matches("{ ")
                            .trim_end_matches(" }")
                            .to_string(),
                    }
                })
                .collect();
            Ok(StateView {
                value: s.as_usize(),
                note: access_note(dfa, s),
                lines,
            })
        })
        .collect::<Result<Vec<_>, EmitError>>()?;
    let good: Vec<String> = dfa
        .states()
        .filter(|&s| dfa.verdict(s) == Verdict::Satisfied)
        .map(|s| format!("s == {s}"))
        .collect();
    let clock_ports: Vec<String> = clocking
        .port_names()
        .iter()
        .map(|p| p.to_string())
        .collect();
    let mut members: Vec<String> = clock_ports.clone();
    members.extend(idents.iter().cloned());
    members.extend(["violated".into(), "fail".into()]);
    if opts.common.three_valued {
        members.push("satisfied".into());
    }
    members.extend(["state_q_".into(), "violated_q_".into()]);
    let initializers = members
        .iter()
        .map(|m| format!("{m}(\"{}\")", m.trim_end_matches('_')))
        .collect::<Vec<_>>()
        .join(", ");
    let hw = HardwareClocking::new(clocking);
    let view = Checker {
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.common.informative,
        three_valued: opts.common.three_valued,
        num_states: super::names::states(dfa.num_states()),
        bindings: bindings
            .iter()
            .map(|b| (b.comment_name(), b.ident.clone()))
            .collect(),
        binds: bindings
            .iter()
            .map(|b| (b.ident.clone(), comment_safe(&b.expr)))
            .collect(),
        guard: format!("MONGEN_{module}_H"),
        module,
        idents,
        initializers,
        states,
        clock_doc: hw.port_doc(),
        reset_doc: hw.reset_doc.replace(" 0 ", " false "),
        tick_events: {
            let edge = |e: ClockEdge| match e {
                ClockEdge::Posedge => "pos",
                ClockEdge::Negedge => "neg",
            };
            let mut ev = format!("{}.{}()", clocking.clock.name, edge(clocking.clock.edge));
            if let Some(r) = clocking.reset.as_ref().filter(|r| r.asynchronous) {
                let assert = if r.active_low { "neg" } else { "pos" };
                ev.push_str(&format!(" << {}.{assert}()", r.name));
            }
            ev
        },
        reset_port: clocking
            .reset
            .as_ref()
            .map_or(String::new(), |r| r.name.clone()),
        reset_active: clocking.reset.as_ref().map_or(String::new(), |r| {
            format!("{}{}.read()", if r.active_low { "!" } else { "" }, r.name)
        }),
        async_reset: clocking.reset.as_ref().is_some_and(|r| r.asynchronous),
        edge_word: match clocking.clock.edge {
            ClockEdge::Posedge => "rising",
            ClockEdge::Negedge => "falling",
        },
        on: clocking.reset.as_ref().map_or(String::new(), |r| {
            format!(
                "{}{}.read() && ",
                if r.active_low { "" } else { "!" },
                r.name
            )
        }),
        clock_ports,
        good: if good.is_empty() {
            "false".into()
        } else {
            good.join(" || ")
        },
    };
    super::render(&view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::translate::{Builder, Config, Verdicts};

    #[test]
    fn switch_encoding_with_guards_on_ports() {
        let dfa = Builder::new().build("G(req -> X ack)").unwrap().into_dfa();
        let h = emit_systemc(&dfa, &SystemcOptions::default()).unwrap();
        println!("{h}");
        assert!(
            h.contains("    switch (s) {\n      case 0:  // start\n"),
            "{h}"
        );
        assert!(
            h.contains("        if (!ack.read()) { bad = true; return s; }\n"),
            "{h}"
        );
        assert!(
            h.contains("    sensitive << rst_n << req << ack << state_q_ << violated_q_;\n"),
            "{h}"
        );
        assert!(h.starts_with("// Checker for the safety property\n"), "{h}");
        assert!(h.ends_with("#endif  // MONGEN_monitor_checker_H\n"), "{h}");
        assert!(!h.contains("satisfied"), "{h}");
    }

    #[test]
    fn three_valued_checkers_know_good_states() {
        let mut b = Builder::new();
        b.configure(Config::new().verdicts(Verdicts::Three));
        let dfa = b.build("a W b").unwrap().into_dfa();
        let h = emit_systemc(
            &dfa,
            &SystemcOptions {
                common: Common {
                    three_valued: true,
                    ..Common::default()
                },
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            h.contains("  static bool good_state(unsigned s) { return s == "),
            "{h}"
        );
        assert!(
            h.contains(
                "satisfied.write(rst_n.read() && !violated_q_.read() && !bad && good_state(next));"
            ),
            "{h}"
        );
        // `G a` is never satisfied.
        let never = b.build("G a").unwrap().into_dfa();
        let h = emit_systemc(
            &never,
            &SystemcOptions {
                common: Common {
                    three_valued: true,
                    ..Common::default()
                },
                ..Default::default()
            },
        )
        .unwrap();
        assert!(h.contains("    satisfied.write(false);\n"), "{h}");
        assert!(!h.contains("good_state"), "{h}");
    }
}
