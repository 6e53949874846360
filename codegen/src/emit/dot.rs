//! Graphviz DOT, for people.
//!
//! States are circles numbered as in every other output; the start state
//! has an incoming arrow; satisfied states (three-valued mode) are green
//! double circles. The rejecting sink, implicit elsewhere, is drawn as a
//! red box `violation` reached by dashed red edges, so the letters that
//! violate the property are visible at each state. Guards use the
//! proposition names (`req & !ack`).

use std::io::{self, Write};

use monitor_core::automaton::{BadPrefixDfa, Target, Verdict};

use super::{Backend, Common, EmitError};

/// The DOT back end: a graph reads none of the shared options (it is
/// labelled with the automaton's name, the formula).
#[derive(Clone, Debug, Default)]
pub struct DotOptions {
    /// Not read.
    pub common: Common,
}

impl Backend for DotOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_dot(dfa)
    }

    fn write(&self, dfa: &BadPrefixDfa, out: &mut dyn Write) -> io::Result<()> {
        write_dot(dfa, out)
    }
}

/// A DOT string literal.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `dfa` as a Graphviz digraph (see [`write_dot`]); an edge label too
/// large to write is an error.
///
/// ```
/// use mongen::emit::dot::emit_dot;
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let dot = emit_dot(&dfa)?;
/// assert!(dot.starts_with("digraph \"G(req -> Xack)\" {\n  rankdir=LR\n"));
/// assert!(dot.contains("  1 -> violation [label=\"!ack\", color=red, fontcolor=red,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_dot(dfa: &BadPrefixDfa) -> Result<String, EmitError> {
    super::written(|out| write_dot(dfa, out))
}

/// Writes `dfa` as a Graphviz digraph to `out`, state by state (the edges
/// of one state at a time are in memory). `out` should be buffered.
///
/// ```
/// use mongen::emit::dot::{emit_dot, write_dot};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !err")?.into_dfa();
/// let mut out = Vec::new();
/// write_dot(&dfa, &mut out)?;
/// assert!(String::from_utf8(out.clone())?.contains("  I -> 0\n  0 [label=\"0\"]\n"));
/// assert_eq!(out, emit_dot(&dfa)?.into_bytes());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_dot(dfa: &BadPrefixDfa, out: &mut (impl Write + ?Sized)) -> io::Result<()> {
    let aps = dfa.alphabet();
    writeln!(out, "digraph {} {{", quote(dfa.name()))?;
    writeln!(out, "  rankdir=LR")?;
    writeln!(
        out,
        "  label={}",
        quote(&format!(
            "{}\n{}",
            dfa.name(),
            super::names::states(dfa.num_states())
        ))
    )?;
    writeln!(out, "  labelloc=\"t\"")?;
    writeln!(out, "  node [shape=circle]")?;
    writeln!(out, "  I [label=\"\", style=invis, width=0]")?;
    writeln!(out, "  I -> {}", dfa.start())?;
    let mut sink = false;
    for s in dfa.states() {
        match dfa.verdict(s) {
            Verdict::Satisfied => writeln!(
                out,
                "  {s} [label=\"{s}\", shape=doublecircle, style=filled, fillcolor=palegreen]"
            )?,
            Verdict::Violated => writeln!(
                out,
                "  {s} [label=\"{s}\", style=filled, fillcolor=mistyrose]"
            )?,
            Verdict::Undecided => writeln!(out, "  {s} [label=\"{s}\"]")?,
        }
    }
    // One working manager for the labels of all states.
    let mut labels = dfa.labeler();
    for s in dfa.states() {
        for e in labels.edges(s).map_err(super::label_error)? {
            let label = quote(&e.guard.display(aps).to_string());
            match e.target {
                Target::State(t) => writeln!(out, "  {s} -> {t} [label={label}]")?,
                Target::Violation => {
                    sink = true;
                    writeln!(
                        out,
                        "  {s} -> violation [label={label}, color=red, fontcolor=red, style=dashed]"
                    )?;
                }
            }
        }
    }
    if sink {
        writeln!(out, "  violation [shape=box, color=red, fontcolor=red]")?;
    }
    writeln!(out, "}}")
}
