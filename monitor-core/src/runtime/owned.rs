//! Tables built at run time from a finished monitor.

use rustc_hash::FxHashMap;

use super::{Table, Transitions, Verdict, LEAF, VIOLATION};
use crate::automaton::BadPrefixDfa;
use crate::dd::Node;

/// Dense transition arrays up to this many entries (16 KiB); decision
/// diagrams beyond.
const DENSE_LIMIT: usize = 4096;

/// Explanations (shortest words, violating letters) for monitors up to
/// this many states; larger tables leave them empty.
const EXPLAIN_LIMIT: usize = 4096;
/// The longest violating-letters explanation shown, in literals (a state's
/// violation guard can be a large formula: the table's texts are for
/// messages).
const EXPLAIN_LITERALS: usize = 4096;

/// How a table stores its transition function.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// Dense when the array has at most 4096 entries (16 KiB), decision
    /// diagrams otherwise.
    #[default]
    Auto,
    /// One entry per state and letter: one memory access per step (up to
    /// 2^20 entries; larger tables use diagrams).
    Dense,
    /// Decision diagrams: one test per proposition on the path; size
    /// linear in the diagrams, whatever the number of propositions.
    Diagram,
}

/// The owned form of a [`Table`], built from a [`BadPrefixDfa`].
///
/// ```
/// use monitor_core::{MonitorTable, Monitor, Verdict};
///
/// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
/// let t = table.table();
/// assert_eq!(t.num_states(), 2);
/// assert_eq!((t.proposition(0), t.proposition(1)), ("req", "ack"));
/// let mut m = Monitor::new(&t);
/// assert_eq!(m.step(0b01), Verdict::Undecided);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonitorTable {
    props: u32,
    verdicts: Vec<Verdict>,
    dense: Option<Vec<u32>>,
    roots: Vec<u32>,
    nodes: Vec<[u32; 3]>,
    events: Vec<u32>,
    text: String,
    spans: Vec<u32>,
}

impl MonitorTable {
    /// The table of a monitor, for letters over all its propositions.
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// use monitor_core::MonitorTable;
    ///
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let table = MonitorTable::from_dfa(&dfa);
    /// assert_eq!(table.table().num_states(), dfa.num_states());
    /// assert_eq!(table, MonitorTable::from_ltl("G(req -> X ack)")?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_dfa(dfa: &BadPrefixDfa) -> MonitorTable {
        MonitorTable::from_dfa_with(dfa, Layout::Auto)
    }

    /// [`MonitorTable::from_dfa`] with a chosen [`Layout`].
    ///
    /// ```
    /// use monitor_core::runtime::{Layout, Transitions};
    /// use monitor_core::translate::Builder;
    /// use monitor_core::MonitorTable;
    ///
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let dense = MonitorTable::from_dfa_with(&dfa, Layout::Dense);
    /// let diagram = MonitorTable::from_dfa_with(&dfa, Layout::Diagram);
    /// let (d, g) = (dense.table(), diagram.table());
    /// // 2 states times 4 letters.
    /// assert!(matches!(d.transitions, Transitions::Dense(next) if next.len() == 8));
    /// assert!(matches!(g.transitions, Transitions::Diagram { .. }));
    /// for letter in 0..4 {
    ///     assert_eq!(d.next(1, letter), g.next(1, letter));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_dfa_with(dfa: &BadPrefixDfa, layout: Layout) -> MonitorTable {
        let mut t = MonitorTable::transitions(dfa, layout);
        t.explain_letters(dfa);
        t
    }

    /// The table of a monitor of events: each step is a letter in which
    /// exactly one proposition (the event) holds. The table gets an array
    /// of event transitions, and explanations name events.
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// use monitor_core::MonitorTable;
    ///
    /// let dfa = Builder::new().build("G(open -> X close)")?.into_dfa();
    /// let table = MonitorTable::from_dfa_events(&dfa);
    /// let t = table.table();
    /// assert_eq!(t.events.len(), 2 * t.num_states()); // 2 events
    /// let after_open = t.next_event(0, 0);
    /// assert_eq!(t.access(after_open), "open");
    /// assert_eq!(t.violating(after_open), "open"); // an event, not `!close`
    /// assert_eq!(t.shortest_violation(), "open; open");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_dfa_events(dfa: &BadPrefixDfa) -> MonitorTable {
        let mut t = MonitorTable::transitions(dfa, Layout::Auto);
        let n = dfa.num_states();
        let k = dfa.alphabet().len();
        let mut events = vec![VIOLATION; k * n];
        let mut bits = vec![false; k];
        for e in 0..k {
            bits[e] = true;
            for s in dfa.states() {
                events[e * n + s.as_usize()] = dfa.step(s, &bits).to_leaf();
            }
            bits[e] = false;
        }
        t.events = events;
        t.explain_events(dfa);
        t
    }

    fn transitions(dfa: &BadPrefixDfa, layout: Layout) -> MonitorTable {
        let n = dfa.num_states();
        let props = dfa.alphabet().len() as u32;
        let verdicts: Vec<Verdict> = dfa.states().map(|s| dfa.verdict(s)).collect();
        let limit = match layout {
            Layout::Auto => DENSE_LIMIT,
            Layout::Dense => 1 << 20,
            Layout::Diagram => 0,
        };
        let dense_size = (props < 32)
            .then(|| n.checked_mul(1usize << props))
            .flatten()
            .filter(|&size| size <= limit);
        let mut t = MonitorTable {
            props,
            verdicts,
            dense: None,
            roots: Vec::new(),
            nodes: Vec::new(),
            events: Vec::new(),
            text: String::new(),
            spans: Vec::new(),
        };
        if let Some(size) = dense_size {
            let mut next = Vec::with_capacity(size);
            for s in dfa.states() {
                for letter in 0..1u64 << props {
                    next.push(dfa.step(s, &letter).to_leaf());
                }
            }
            t.dense = Some(next);
        } else {
            // The diagrams of all states, sharing nodes.
            let mgr = dfa.manager();
            let mut index: FxHashMap<Node, u32> = FxHashMap::default();
            for s in dfa.states() {
                let root = flatten(mgr, dfa.diagram(s), &mut index, &mut t.nodes);
                t.roots.push(root);
            }
        }
        t
    }

    /// Explanations in terms of letters (Boolean formulas).
    fn explain_letters(&mut self, dfa: &BadPrefixDfa) {
        let aps = dfa.alphabet();
        let n = dfa.num_states();
        let mut texts: Vec<String> = vec![dfa.name().to_string()];
        texts.extend(aps.names().iter().cloned());
        let word = |w: &[crate::automaton::Guard]| {
            w.iter()
                .map(|g| g.display(aps).to_string())
                .collect::<Vec<_>>()
                .join("; ")
        };
        if n <= EXPLAIN_LIMIT {
            let words = access_words(dfa);
            // One working manager for the guards of all states.
            let mut labels = dfa.labeler();
            for s in dfa.states() {
                texts.push(word(&words[s.as_usize()]));
                texts.push(match labels.violation_guard(s) {
                    Ok(g) if g.is_false() => String::new(),
                    Ok(g) if g.literals() <= EXPLAIN_LITERALS => g.display(aps).to_string(),
                    Ok(g) => format!("a condition of {} literals, too long to show", g.literals()),
                    Err(e) => e.to_string(),
                });
            }
            texts.push(
                dfa.shortest_violation()
                    .map_or_else(String::new, |w| word(&w)),
            );
        } else {
            texts.extend(std::iter::repeat_n(String::new(), 2 * n + 1));
        }
        self.set_texts(texts);
    }

    /// Explanations in terms of events (one proposition per step).
    fn explain_events(&mut self, dfa: &BadPrefixDfa) {
        let aps = dfa.alphabet();
        let n = dfa.num_states();
        let k = aps.len();
        let mut texts: Vec<String> = vec![dfa.name().to_string()];
        texts.extend(aps.names().iter().cloned());
        // Breadth-first search over events.
        let mut parent: Vec<Option<(u32, usize)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut order = std::collections::VecDeque::from([0u32]);
        seen[0] = true;
        let mut shortest: Option<Vec<usize>> = None;
        let path = |parent: &[Option<(u32, usize)>], s: u32| {
            let mut w = Vec::new();
            let mut cur = s as usize;
            while let Some((p, e)) = parent[cur] {
                w.push(e);
                cur = p as usize;
            }
            w.reverse();
            w
        };
        while let Some(s) = order.pop_front() {
            for e in 0..k {
                match self.events[e * n + s as usize] {
                    VIOLATION if shortest.is_none() => {
                        let mut w = path(&parent, s);
                        w.push(e);
                        shortest = Some(w);
                    }
                    VIOLATION => {}
                    t if !seen[t as usize] => {
                        seen[t as usize] = true;
                        parent[t as usize] = Some((s, e));
                        order.push_back(t);
                    }
                    _ => {}
                }
            }
        }
        let names = |w: &[usize]| {
            w.iter()
                .map(|&e| aps.name(e as u32))
                .collect::<Vec<_>>()
                .join("; ")
        };
        for (s, &reached) in seen.iter().enumerate() {
            texts.push(if reached {
                names(&path(&parent, s as u32))
            } else {
                String::new()
            });
            let bad: Vec<&str> = (0..k)
                .filter(|&e| self.events[e * n + s] == VIOLATION)
                .map(|e| aps.name(e as u32))
                .collect();
            texts.push(bad.join(" | "));
        }
        texts.push(shortest.map_or_else(String::new, |w| names(&w)));
        self.set_texts(texts);
    }

    fn set_texts(&mut self, texts: Vec<String>) {
        self.text.clear();
        self.spans.clear();
        for t in texts {
            self.spans.push(self.text.len() as u32);
            self.text.push_str(&t);
        }
        self.spans.push(self.text.len() as u32);
    }

    /// The table, borrowing this one's arrays.
    ///
    /// ```
    /// use monitor_core::runtime::Transitions;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// assert_eq!(t.props, 2);
    /// assert_eq!(t.verdicts, [Verdict::Undecided, Verdict::Undecided]);
    /// assert!(matches!(t.transitions, Transitions::Dense(_)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self) -> Table<'_> {
        Table {
            props: self.props,
            verdicts: &self.verdicts,
            transitions: match &self.dense {
                Some(next) => Transitions::Dense(next),
                None => Transitions::Diagram {
                    roots: &self.roots,
                    nodes: &self.nodes,
                },
            },
            events: &self.events,
            text: &self.text,
            spans: &self.spans,
        }
    }
}

/// The reference of diagram `d` in `nodes`, adding its inner nodes.
fn flatten(
    mgr: &crate::dd::Manager,
    d: Node,
    index: &mut FxHashMap<Node, u32>,
    nodes: &mut Vec<[u32; 3]>,
) -> u32 {
    if let Some(v) = mgr.leaf_value(d) {
        return if v == VIOLATION { u32::MAX } else { LEAF | v };
    }
    if let Some(&i) = index.get(&d) {
        return i;
    }
    let (lo, hi) = mgr.children(d).expect("an inner node");
    let var = mgr.var_of(d).expect("an inner node");
    let lo = flatten(mgr, lo, index, nodes);
    let hi = flatten(mgr, hi, index, nodes);
    let i = nodes.len() as u32;
    nodes.push([var, lo, hi]);
    index.insert(d, i);
    i
}

/// A shortest word (of cubes) to every state, from one breadth-first tree:
/// [`BadPrefixDfa::access_tree`]'s (the same order of states and of the
/// paths of their diagrams, the same generalized cubes), but a path's cube
/// is generalized only when it reaches a state first. `access_tree`
/// generalizes the path to every target of every state, each a walk of the
/// diagram per literal: with `2^k` targets per state (`k` requests
/// pending), most of the table's time (9 of 10 s for 1,024 states over 20
/// propositions), for words that keep one path per state.
fn access_words(dfa: &BadPrefixDfa) -> Vec<Vec<crate::automaton::Guard>> {
    use crate::automaton::Guard;
    let n = dfa.num_states();
    let mgr = dfa.manager();
    let mut parent: Vec<Option<(u32, Guard)>> = vec![None; n];
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        seen[0] = true;
        queue.push_back(dfa.start());
    }
    while let Some(s) = queue.pop_front() {
        let d = dfa.diagram(s);
        for (leaf, cube) in mgr.leaf_paths(d) {
            if leaf == VIOLATION || seen[leaf as usize] {
                continue;
            }
            seen[leaf as usize] = true;
            let cube = mgr.generalize_cube(d, cube, leaf);
            parent[leaf as usize] = Some((s.as_usize() as u32, Guard::from_cubes(vec![cube])));
            queue.push_back(crate::automaton::StateId::new(leaf));
        }
    }
    (0..n)
        .map(|s| {
            let mut word = Vec::new();
            let mut cur = s;
            while let Some((p, letter)) = &parent[cur] {
                word.push(letter.clone());
                cur = *p as usize;
            }
            word.reverse();
            word
        })
        .collect()
}
