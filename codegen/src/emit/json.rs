//! A JSON description of a monitor, for scripts (schema in the README).
//!
//! One object per monitor, on one line:
//!
//! ```json
//! {"formula":"G(req -> Xack)","aps":["req","ack"],"verdicts":2,
//!  "prefixes":"exact","safety":true,"start":0,
//!  "shortest_violation":["req","!ack"],
//!  "states":[{"id":0,"verdict":"undecided","parent":null,"letter":null,
//!             "edges":[{"guard":"!req",
//!                       "cubes":[[{"ap":0,"name":"req","value":false}]],
//!                       "target":0}, …],
//!             "violation":null}, …]}
//! ```
//!
//! Guards are given twice: as text in Spot syntax (names that are not
//! plain identifiers quoted, as Spot does) and as a list of cubes, each a
//! list of literals `{"ap": number, "name": name, "value": bool}`, the
//! number being the proposition's index in `aps`. A guard whose sum of
//! products is large next to its decision diagram is factored: its
//! `cubes` are null and `expr` is the formula as a tree, each node
//! `{"and": [...]}`, `{"or": [...]}` or a literal. `violation` is the guard
//! leading to the rejecting sink (null if none). `parent` and `letter`
//! form the tree of shortest words: a shortest word to a state is the word
//! to its parent followed by its `letter` (both null for the start).

use std::io::{self, Write};

use monitor_core::automaton::{Alphabet, BadPrefixDfa, Guard, GuardExpr, StateId, Target};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

use super::{Backend, Common, EmitError};

/// Facts about the monitor that are not in the automaton itself.
#[derive(Clone, Debug, Default)]
pub struct JsonOptions {
    /// Of the shared options, JSON reads `informative` (`"prefixes"`) and
    /// `three_valued` (`"verdicts"`); `"formula"` is the automaton's
    /// name.
    pub common: Common,
    /// Whether the formula is a safety property, if known.
    pub safety: Option<bool>,
}

/// As a back end, JSON writes one line: the object and a line break.
impl Backend for JsonOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        super::written(|out| Backend::write(self, dfa, out))
    }

    fn write(&self, dfa: &BadPrefixDfa, out: &mut dyn Write) -> io::Result<()> {
        write_json(dfa, self, out)?;
        writeln!(out)
    }
}

/// A guard's fields, written from the guard itself (no string is made for
/// its text or its literals).
#[derive(Serialize)]
struct GuardJson<'a> {
    guard: GuardText<'a>,
    /// Null for a factored guard, which has `expr` instead.
    cubes: Option<Cubes<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expr: Option<ExprJson<'a>>,
}

impl<'a> GuardJson<'a> {
    fn new(guard: &'a Guard, aps: &'a Alphabet) -> Self {
        GuardJson {
            guard: GuardText(guard, aps),
            cubes: guard.cubes().map(|c| Cubes(c, aps)),
            expr: guard.factored().map(|e| ExprJson(e, aps)),
        }
    }
}

/// A factored guard as a tree: `{"and": [...]}`, `{"or": [...]}`, or a
/// literal (as in cubes).
struct ExprJson<'a>(&'a GuardExpr, &'a Alphabet);

impl Serialize for ExprJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let aps = self.1;
        match self.0 {
            GuardExpr::Literal(v, value) => Literal {
                ap: *v,
                name: aps.name(*v),
                value: *value,
            }
            .serialize(s),
            GuardExpr::And(xs) | GuardExpr::Or(xs) => {
                let op = if matches!(self.0, GuardExpr::And(_)) {
                    "and"
                } else {
                    "or"
                };
                let mut map = s.serialize_map(Some(1))?;
                map.serialize_entry(op, &Operands(xs, aps))?;
                map.end()
            }
        }
    }
}

struct Operands<'a>(&'a [std::sync::Arc<GuardExpr>], &'a Alphabet);

impl Serialize for Operands<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|x| ExprJson(x, self.1)))
    }
}

/// A guard in Spot syntax, as a JSON string.
struct GuardText<'a>(&'a Guard, &'a Alphabet);

impl Serialize for GuardText<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(&self.0.display(self.1))
    }
}

/// A guard's cubes, each a list of literals.
struct Cubes<'a>(&'a [Vec<(u32, bool)>], &'a Alphabet);

impl Serialize for Cubes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let aps = self.1;
        s.collect_seq(self.0.iter().map(|c| Literals(c, aps)))
    }
}

/// A cube: its literals.
struct Literals<'a>(&'a [(u32, bool)], &'a Alphabet);

impl Serialize for Literals<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let aps = self.1;
        s.collect_seq(self.0.iter().map(|&(v, value)| Literal {
            ap: v,
            name: aps.name(v),
            value,
        }))
    }
}

/// A literal: the proposition's number in `aps`, its name beside it, and
/// the value it must have. A literal is never text to split: a proposition
/// may be named `!a` (a string such as `"!a"` would read as the negation of
/// `a`).
#[derive(Serialize)]
struct Literal<'a> {
    ap: u32,
    name: &'a str,
    value: bool,
}

#[derive(Serialize)]
struct EdgeJson<'a> {
    #[serde(flatten)]
    guard: GuardJson<'a>,
    target: u32,
}

#[derive(Serialize)]
struct StateJson<'a> {
    id: u32,
    verdict: &'static str,
    parent: Option<u32>,
    letter: Option<String>,
    edges: Vec<EdgeJson<'a>>,
    violation: Option<GuardJson<'a>>,
}

/// The states, each made (its edges computed) when it is written.
struct States<'a> {
    dfa: &'a BadPrefixDfa,
    /// [`BadPrefixDfa::access_tree`].
    tree: &'a [Option<(StateId, Guard)>],
    /// The label error that stopped the writing, if one did.
    failed: &'a std::cell::RefCell<Option<monitor_core::automaton::LabelError>>,
}

impl Serialize for States<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (dfa, aps) = (self.dfa, self.dfa.alphabet());
        let n = dfa.num_states();
        let mut seq = serializer.serialize_seq(Some(n))?;
        // One working manager for the labels of all states.
        let mut labels = dfa.labeler();
        for s in dfa.states() {
            let edges = labels.edges(s).map_err(|e| {
                let text = e.to_string();
                // Kept for `write_json`, which returns it as the label
                // error it is (serde_json's error keeps only the text).
                *self.failed.borrow_mut() = Some(e);
                serde::ser::Error::custom(text)
            })?;
            let mut state = StateJson {
                id: s.as_u32(),
                verdict: dfa.verdict(s).as_str(),
                parent: self.tree[s.as_usize()].as_ref().map(|(p, _)| p.as_u32()),
                letter: self.tree[s.as_usize()]
                    .as_ref()
                    .map(|(_, l)| l.display(aps).to_string()),
                edges: Vec::with_capacity(edges.len()),
                violation: None,
            };
            for e in &edges {
                match e.target {
                    Target::State(t) => state.edges.push(EdgeJson {
                        guard: GuardJson::new(&e.guard, aps),
                        target: t.as_u32(),
                    }),
                    Target::Violation => state.violation = Some(GuardJson::new(&e.guard, aps)),
                }
            }
            seq.serialize_element(&state)?;
        }
        seq.end()
    }
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
    states: States<'a>,
}

/// `dfa` as one line of JSON, without the final newline (see
/// [`write_json`]).
///
/// ```
/// use mongen::emit::json::{emit_json, JsonOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let json = emit_json(&dfa, &JsonOptions::default())?;
/// assert!(json.starts_with("{\"formula\":\"G(req -> Xack)\",\"aps\":[\"req\",\"ack\"],"));
/// let v: serde_json::Value = serde_json::from_str(&json)?;
/// assert_eq!(v["shortest_violation"], serde_json::json!(["req", "!ack"]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_json(dfa: &BadPrefixDfa, opts: &JsonOptions) -> Result<String, EmitError> {
    super::written(|out| write_json(dfa, opts, out))
}

/// Writes `dfa` to `out` as one line of JSON, without the final newline,
/// state by state (the edges of one state at a time are in memory). `out`
/// should be buffered.
///
/// ```
/// use mongen::emit::json::{write_json, JsonOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !err")?.into_dfa();
/// let mut out = Vec::new();
/// write_json(&dfa, &JsonOptions { safety: Some(true), ..JsonOptions::default() }, &mut out)?;
/// let text = String::from_utf8(out)?;
/// assert!(text.contains(r#""verdicts":2,"prefixes":"exact","safety":true,"start":0,"#));
/// assert!(text.ends_with("}]}"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_json(
    dfa: &BadPrefixDfa,
    opts: &JsonOptions,
    out: &mut (impl Write + ?Sized),
) -> io::Result<()> {
    let aps = dfa.alphabet();
    let word = |w: &[Guard]| {
        w.iter()
            .map(|g| g.display(aps).to_string())
            .collect::<Vec<_>>()
    };
    let tree = dfa.access_tree();
    let failed = std::cell::RefCell::new(None);
    let m = MonitorJson {
        formula: dfa.name(),
        aps: aps.names(),
        verdicts: if opts.common.three_valued { 3 } else { 2 },
        prefixes: if opts.common.informative {
            "informative"
        } else {
            "exact"
        },
        safety: opts.safety,
        start: dfa.start().as_u32(),
        shortest_violation: dfa.shortest_violation().map(|w| word(&w)),
        states: States {
            dfa,
            tree: &tree,
            failed: &failed,
        },
    };
    serde_json::to_writer(out, &m).map_err(|e| match failed.take() {
        Some(label) => super::label_error(label),
        None => e.into(),
    })
}
