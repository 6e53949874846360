//! Graphviz DOT, for people.
//!
//! States are circles numbered as in every other output; the start state
//! has an incoming arrow; satisfied states (three-valued mode) are green
//! double circles. The rejecting sink, implicit elsewhere, is drawn as a
//! red box `violation` reached by dashed red edges, so the letters that
//! violate the property are visible at each state. Guards use the
//! proposition names (`req & !ack`).

use std::fmt::Write;

use monitor_core::automaton::{BadPrefixDfa, Target, Verdict};

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

/// Writes `dfa` as a Graphviz digraph.
pub fn emit_dot(dfa: &BadPrefixDfa) -> String {
    let aps = dfa.alphabet();
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", quote(dfa.name()));
    let _ = writeln!(out, "  rankdir=LR");
    let _ = writeln!(
        out,
        "  label={}",
        quote(&format!("{}\n{} states", dfa.name(), dfa.num_states()))
    );
    let _ = writeln!(out, "  labelloc=\"t\"");
    let _ = writeln!(out, "  node [shape=circle]");
    let _ = writeln!(out, "  I [label=\"\", style=invis, width=0]");
    let _ = writeln!(out, "  I -> {}", dfa.start());
    let mut sink = false;
    for s in 0..dfa.num_states() as u32 {
        match dfa.verdict(s) {
            Verdict::Satisfied => {
                let _ = writeln!(
                    out,
                    "  {s} [label=\"{s}\", shape=doublecircle, style=filled, fillcolor=palegreen]"
                );
            }
            Verdict::Violated => {
                let _ = writeln!(
                    out,
                    "  {s} [label=\"{s}\", style=filled, fillcolor=mistyrose]"
                );
            }
            Verdict::Undecided => {
                let _ = writeln!(out, "  {s} [label=\"{s}\"]");
            }
        }
    }
    for s in 0..dfa.num_states() as u32 {
        for e in dfa.edges(s) {
            let label = quote(&e.guard.display(aps).to_string());
            match e.target {
                Target::State(t) => {
                    let _ = writeln!(out, "  {s} -> {t} [label={label}]");
                }
                Target::Violation => {
                    sink = true;
                    let _ = writeln!(
                        out,
                        "  {s} -> violation [label={label}, color=red, fontcolor=red, style=dashed]"
                    );
                }
            }
        }
    }
    if sink {
        let _ = writeln!(out, "  violation [shape=box, color=red, fontcolor=red]");
    }
    out.push_str("}\n");
    out
}
