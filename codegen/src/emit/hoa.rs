//! HOA v1 (Hanoi Omega-Automata format) in Spot's monitor convention.
//!
//! Every state is accepting (`acc-name: all`, `Acceptance: 0 t`) and the
//! rejecting sink is left out: a letter with no transition is a violation.
//! This is how Spot prints `ltl2tgba -M -D`, so `autfilt` and other HOA
//! tools read the monitor as the safety automaton of the property.
//! Several automata can be written one after another in one stream.
//!
//! Three-valued monitors name their satisfied states `"satisfied"` and
//! add the optional header `mongen-verdicts: 3`; tools that do not know it
//! ignore it (lowercase header names are optional in HOA).

use std::fmt::Write;

use monitor_core::automaton::{BadPrefixDfa, Target, Verdict};
// HOA strings have the same escapes as Spot's quoted names.
use monitor_core::formula::print::double_quoted as quote;

/// Options of [`emit_hoa`].
#[derive(Clone, Debug, Default)]
pub struct HoaOptions {
    /// The `name:` header (default: the automaton's name, i.e. the formula).
    pub name: Option<String>,
    /// Whether the property is known to be stutter-invariant (adds the
    /// `stutter-invariant` property); `None` or `Some(false)` add nothing.
    pub stutter_invariant: Option<bool>,
    /// Whether the monitor was built with three-valued verdicts (adds the
    /// `mongen-verdicts: 3` header).
    pub three_valued: bool,
}

/// Writes `dfa` in HOA format.
pub fn emit_hoa(dfa: &BadPrefixDfa, opts: &HoaOptions) -> String {
    let mut out = String::new();
    let aps = dfa.alphabet();
    let name = opts.name.as_deref().unwrap_or(dfa.name());
    let _ = writeln!(out, "HOA: v1");
    let _ = writeln!(out, "name: {}", quote(name));
    let _ = writeln!(out, "States: {}", dfa.num_states());
    let _ = writeln!(out, "Start: {}", dfa.start());
    let _ = write!(out, "AP: {}", aps.len());
    for n in aps.names() {
        let _ = write!(out, " {}", quote(n));
    }
    out.push('\n');
    let _ = writeln!(out, "acc-name: all");
    let _ = writeln!(out, "Acceptance: 0 t");
    let mut props = vec![
        "trans-labels",
        "explicit-labels",
        "state-acc",
        "deterministic",
    ];
    if dfa.never_violates() {
        props.push("complete");
    }
    if opts.stutter_invariant == Some(true) {
        props.push("stutter-invariant");
    }
    let _ = writeln!(out, "properties: {}", props.join(" "));
    let _ = writeln!(out, "tool: \"mongen\" \"{}\"", env!("CARGO_PKG_VERSION"));
    if opts.three_valued {
        let _ = writeln!(out, "mongen-verdicts: 3");
    }
    let _ = writeln!(out, "--BODY--");
    for s in 0..dfa.num_states() as u32 {
        if dfa.verdict(s) == Verdict::Satisfied {
            let _ = writeln!(out, "State: {s} \"satisfied\"");
        } else {
            let _ = writeln!(out, "State: {s}");
        }
        for e in dfa.edges(s) {
            if let Target::State(t) = e.target {
                let _ = writeln!(out, "[{}] {t}", e.guard.to_hoa());
            }
        }
    }
    let _ = writeln!(out, "--END--");
    out
}
