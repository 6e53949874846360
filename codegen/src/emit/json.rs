//! A JSON description of a monitor, for scripts (schema in the README).
//!
//! One object per monitor, on one line:
//!
//! ```json
//! {"formula":"G(req -> Xack)","aps":["req","ack"],"verdicts":2,
//!  "prefixes":"exact","safety":true,"start":0,
//!  "shortest_violation":["req","!ack"],
//!  "states":[{"id":0,"verdict":"undecided","parent":null,"letter":null,
//!             "edges":[{"guard":"!req","cubes":[["!req"]],"target":0}, …],
//!             "violation":null}, …]}
//! ```
//!
//! Guards are given twice: as text in Spot syntax and as a list of cubes,
//! each a list of literals `name` or `!name`. `violation` is the guard
//! leading to the rejecting sink (null if none). `parent` and `letter`
//! form the tree of shortest words: a shortest word to a state is the word
//! to its parent followed by its `letter` (both null for the start).

use monitor_core::automaton::{BadPrefixDfa, Guard, Target};
use serde::Serialize;

/// Facts about the monitor that are not in the automaton itself.
#[derive(Clone, Debug, Default)]
pub struct JsonOptions {
    /// Whether the monitor recognizes informative bad prefixes only.
    pub informative: bool,
    /// Whether the formula is a safety property, if known.
    pub safety: Option<bool>,
    /// Whether the monitor was built with three-valued verdicts.
    pub three_valued: bool,
}

#[derive(Serialize)]
struct GuardJson {
    guard: String,
    cubes: Vec<Vec<String>>,
}

#[derive(Serialize)]
struct EdgeJson {
    #[serde(flatten)]
    guard: GuardJson,
    target: u32,
}

#[derive(Serialize)]
struct StateJson {
    id: u32,
    verdict: &'static str,
    parent: Option<u32>,
    letter: Option<String>,
    edges: Vec<EdgeJson>,
    violation: Option<GuardJson>,
}

#[derive(Serialize)]
struct MonitorJson<'a> {
    formula: &'a str,
    aps: &'a [String],
    verdicts: u8,
    prefixes: &'static str,
    safety: Option<bool>,
    start: u32,
    shortest_violation: Option<Vec<String>>,
    states: Vec<StateJson>,
}

fn guard_json(dfa: &BadPrefixDfa, g: &Guard) -> GuardJson {
    let aps = dfa.alphabet();
    GuardJson {
        guard: g.display(aps).to_string(),
        cubes: g
            .cubes()
            .iter()
            .map(|c| {
                c.iter()
                    .map(|&(v, pos)| format!("{}{}", if pos { "" } else { "!" }, aps.name(v)))
                    .collect()
            })
            .collect(),
    }
}

/// Writes `dfa` as one line of JSON (without the final newline).
pub fn emit_json(dfa: &BadPrefixDfa, opts: &JsonOptions) -> String {
    let aps = dfa.alphabet();
    let word = |w: &[Guard]| {
        w.iter()
            .map(|g| g.display(aps).to_string())
            .collect::<Vec<_>>()
    };
    let tree = dfa.access_tree();
    let states = (0..dfa.num_states() as u32)
        .map(|s| {
            let mut edges = Vec::new();
            let mut violation = None;
            for e in dfa.edges(s) {
                match e.target {
                    Target::State(t) => edges.push(EdgeJson {
                        guard: guard_json(dfa, &e.guard),
                        target: t,
                    }),
                    Target::Violation => violation = Some(guard_json(dfa, &e.guard)),
                }
            }
            StateJson {
                id: s,
                verdict: dfa.verdict(s).as_str(),
                parent: tree[s as usize].as_ref().map(|(p, _)| *p),
                letter: tree[s as usize]
                    .as_ref()
                    .map(|(_, l)| l.display(aps).to_string()),
                edges,
                violation,
            }
        })
        .collect();
    let m = MonitorJson {
        formula: dfa.name(),
        aps: aps.names(),
        verdicts: if opts.three_valued { 3 } else { 2 },
        prefixes: if opts.informative {
            "informative"
        } else {
            "exact"
        },
        safety: opts.safety,
        start: dfa.start(),
        shortest_violation: dfa.shortest_violation().map(|w| word(&w)),
        states,
    };
    serde_json::to_string(&m).expect("monitor serializes")
}
