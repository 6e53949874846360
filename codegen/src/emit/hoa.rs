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
//!
//! Büchi automata ([`write_buchi_hoa`]) are written with state-based
//! Büchi acceptance (`acc-name: Buchi`, `Acceptance: 1 Inf(0)`), as Spot's
//! `ltl2tgba -B` prints them.

use std::io::{self, Write};

use monitor_core::automaton::{BadPrefixDfa, BuchiAutomaton, Target, Verdict};
// HOA strings have the same escapes as Spot's quoted names.
use monitor_core::formula::print::double_quoted as quote;

use super::{Backend, Common, EmitError};

/// Options of [`emit_hoa`] and [`write_hoa`].
#[derive(Clone, Debug, Default)]
pub struct HoaOptions {
    /// Of the shared options, HOA reads `three_valued` (which adds the
    /// `mongen-verdicts: 3` header). The `name:` header is the
    /// automaton's name ([`BadPrefixDfa::name`], the formula).
    pub common: Common,
    /// Whether the property is known to be stutter-invariant (adds the
    /// `stutter-invariant` property); `None` or `Some(false)` add nothing.
    pub stutter_invariant: Option<bool>,
}

impl Backend for HoaOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_hoa(dfa, self)
    }

    fn write(&self, dfa: &BadPrefixDfa, out: &mut dyn Write) -> io::Result<()> {
        write_hoa(dfa, self, out)
    }
}

/// `dfa` in HOA format (see [`write_hoa`]); an edge label too large to
/// write is an error. Labels are sums of products when small, factored
/// formulas (`0&(1 | 2)&(3 | 4)`) otherwise.
///
/// ```
/// use mongen::emit::hoa::{emit_hoa, HoaOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let hoa = emit_hoa(&dfa, &HoaOptions::default())?;
/// assert!(hoa.contains("\nAP: 2 \"req\" \"ack\"\nacc-name: all\nAcceptance: 0 t\n"));
/// // The rejecting sink is left out: state 1 has no edge for `!ack`.
/// assert!(hoa.ends_with("State: 1\n[!0&1] 0\n[0&1] 1\n--END--\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_hoa(dfa: &BadPrefixDfa, opts: &HoaOptions) -> Result<String, EmitError> {
    super::written(|out| write_hoa(dfa, opts, out))
}

/// Writes `dfa` in HOA format to `out`, state by state (the edges of one
/// state at a time are in memory). `out` should be buffered.
///
/// ```
/// use mongen::emit::hoa::{write_hoa, HoaOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !err")?.into_dfa();
/// let opts = HoaOptions { stutter_invariant: Some(true), ..HoaOptions::default() };
/// let mut out = Vec::new();
/// write_hoa(&dfa, &opts, &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert!(text.contains(" state-acc deterministic stutter-invariant\ntool: \"mongen\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_hoa(
    dfa: &BadPrefixDfa,
    opts: &HoaOptions,
    out: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    let aps = dfa.alphabet();
    writeln!(out, "HOA: v1")?;
    writeln!(out, "name: {}", quote(dfa.name()))?;
    writeln!(out, "States: {}", dfa.num_states())?;
    writeln!(out, "Start: {}", dfa.start())?;
    write!(out, "AP: {}", aps.len())?;
    for n in aps.names() {
        write!(out, " {}", quote(n))?;
    }
    writeln!(out)?;
    writeln!(out, "acc-name: all")?;
    writeln!(out, "Acceptance: 0 t")?;
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
    writeln!(out, "properties: {}", props.join(" "))?;
    writeln!(out, "tool: \"mongen\" \"{}\"", env!("CARGO_PKG_VERSION"))?;
    if opts.common.three_valued {
        writeln!(out, "mongen-verdicts: 3")?;
    }
    writeln!(out, "--BODY--")?;
    // One working manager for the labels of all states.
    let mut labels = dfa.labeler();
    for s in dfa.states() {
        if dfa.verdict(s) == Verdict::Satisfied {
            writeln!(out, "State: {s} \"satisfied\"")?;
        } else {
            writeln!(out, "State: {s}")?;
        }
        for e in labels.edges(s).map_err(super::label_error)? {
            if let Target::State(t) = e.target {
                writeln!(out, "[{}] {t}", e.guard.to_hoa())?;
            }
        }
    }
    writeln!(out, "--END--")
}

/// Writes the Büchi automaton `a` in HOA format to `out`: `Acceptance: 1
/// Inf(0)`, the accepting states in set 0. An automaton with no state (an
/// empty language) is written as Spot writes `false`: one state, no edge.
/// `opts.common.three_valued` does not apply.
///
/// ```
/// use monitor_core::translate::Builder;
/// use mongen::emit::hoa::{write_buchi_hoa, HoaOptions};
///
/// let a = Builder::new().build_buchi("GF p")?;
/// let mut out = Vec::new();
/// write_buchi_hoa(&a, &HoaOptions::default(), &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert!(text.contains("Acceptance: 1 Inf(0)\n"));
/// assert!(text.contains("State: 0\n[0] 1\n[!0] 0\nState: 1 {0}\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_buchi_hoa(
    a: &BuchiAutomaton,
    opts: &HoaOptions,
    out: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    let aps = a.alphabet();
    let name = a.name();
    writeln!(out, "HOA: v1")?;
    writeln!(out, "name: {}", quote(name))?;
    writeln!(out, "States: {}", a.num_states().max(1))?;
    writeln!(out, "Start: 0")?;
    write!(out, "AP: {}", aps.len())?;
    for n in aps.names() {
        write!(out, " {}", quote(n))?;
    }
    writeln!(out)?;
    writeln!(out, "acc-name: Buchi")?;
    writeln!(out, "Acceptance: 1 Inf(0)")?;
    let mut props = vec!["trans-labels", "explicit-labels", "state-acc"];
    if a.is_deterministic() {
        props.push("deterministic");
    }
    if opts.stutter_invariant == Some(true) {
        props.push("stutter-invariant");
    }
    writeln!(out, "properties: {}", props.join(" "))?;
    writeln!(out, "tool: \"mongen\" \"{}\"", env!("CARGO_PKG_VERSION"))?;
    writeln!(out, "--BODY--")?;
    if a.num_states() == 0 {
        writeln!(out, "State: 0")?;
    }
    for s in a.states() {
        if a.is_accepting(s) {
            writeln!(out, "State: {s} {{0}}")?;
        } else {
            writeln!(out, "State: {s}")?;
        }
        for e in a.edges(s) {
            writeln!(out, "[{}] {}", e.guard.to_hoa(), e.target)?;
        }
    }
    writeln!(out, "--END--")
}
