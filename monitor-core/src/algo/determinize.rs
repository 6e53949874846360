//! Subset construction on multi-terminal decision diagrams.
//!
//! Each NBA state `q` gets a diagram mapping a letter to the *set* of its
//! successors (leaves are interned sets). The diagram of a subset `S` is
//! the leafwise union of the diagrams of its members; its leaves are the
//! successor subsets. The alphabet is never enumerated: a state with `k`
//! distinguishable successors costs about `k` diagram nodes per variable
//! tested, whatever the number of propositions.
//!
//! Two readings of the subsets:
//!
//! * [`SubsetMode::Exact`]: the input has no state with an empty language
//!   (see [`prune`](super::emptiness::prune)), so the empty subset, reached
//!   exactly on the bad prefixes, becomes the rejecting sink.
//! * [`SubsetMode::Informative`]: the input is the finite-word tableau of
//!   `!φ`; a subset containing a discharged state (all obligations met)
//!   has read an informative bad prefix and becomes the sink, while the
//!   empty subset is an ordinary state that never rejects.

use rustc_hash::FxHashMap;

use super::interner::Interner;
use crate::automaton::dfa::DetAutomaton;
use crate::automaton::dfa::VIOLATION_LEAF;
use crate::automaton::{Nba, Verdict};
use crate::budget::{vec_bytes, Account};
use crate::dd::{ApplyCache, Manager, Node};
use crate::error::BuildError;

#[derive(Clone, Debug)]
pub(crate) enum SubsetMode {
    Exact,
    /// Per NBA state: whether it is discharged.
    Informative(Vec<bool>),
}

/// Interned sets of NBA states; set 0 is the empty set.
struct SetTable {
    sets: Interner<Box<[u32]>>,
    /// The bytes of the sets themselves.
    set_bytes: usize,
    /// The table's bytes, in the construction's budget: the subsets can
    /// outgrow the diagrams (`p0 U … U p1989`: 340 MB of subsets).
    account: Account,
}

impl SetTable {
    /// The number of `set`; a new set is charged first. Out of budget,
    /// the empty set (the budget is marked exceeded: the construction
    /// fails).
    fn intern(&mut self, set: Box<[u32]>) -> u32 {
        if let Some(i) = self.sets.get_index(&set) {
            return i;
        }
        let own = vec_bytes::<u32>(set.len());
        if !self
            .account
            .set(self.sets.bytes_after_insert() + self.set_bytes + own)
        {
            return 0;
        }
        self.set_bytes += own;
        self.sets.intern(set)
    }

    fn get(&self, i: u32) -> &[u32] {
        self.sets.get(i)
    }

    fn union(&mut self, a: u32, b: u32) -> u32 {
        if a == b || b == 0 {
            return a;
        }
        if a == 0 {
            return b;
        }
        let (x, y) = (self.get(a), self.get(b));
        let mut out = Vec::with_capacity(x.len() + y.len());
        let (mut i, mut j) = (0, 0);
        while i < x.len() || j < y.len() {
            if j == y.len() || (i < x.len() && x[i] < y[j]) {
                out.push(x[i]);
                i += 1;
            } else if i == x.len() || y[j] < x[i] {
                out.push(y[j]);
                j += 1;
            } else {
                out.push(x[i]);
                i += 1;
                j += 1;
            }
        }
        self.intern(out.into_boxed_slice())
    }
}

/// Determinizes `nba` (see the module documentation).
pub(crate) fn determinize(
    mgr: &mut Manager,
    nba: &Nba,
    mode: &SubsetMode,
    max_states: usize,
) -> Result<DetAutomaton, BuildError> {
    let Some(init) = nba.init else {
        return Ok(match mode {
            SubsetMode::Exact => DetAutomaton::rejecting_all(mgr),
            // No run at all: nothing is ever informatively violated.
            SubsetMode::Informative(_) => {
                let l = mgr.leaf(0);
                DetAutomaton {
                    diagrams: vec![l],
                    verdicts: vec![Verdict::Undecided],
                }
            }
        });
    };
    let mut table = SetTable {
        sets: Interner::default(),
        set_bytes: 0,
        account: mgr.budget().account(),
    };
    assert_eq!(table.intern(Box::from([])), 0);
    let empty_leaf = mgr.leaf(0);
    let mut union_cache = ApplyCache::default();
    // Per NBA state, its successor-set diagram (built on demand).
    let mut succ: Vec<Option<Node>> = vec![None; nba.len()];
    let mut state_diagram =
        |q: u32, mgr: &mut Manager, table: &mut SetTable, cache: &mut ApplyCache| {
            if let Some(d) = succ[q as usize] {
                return d;
            }
            let mut d = empty_leaf;
            for e in &nba.states[q as usize] {
                let single = table.intern(Box::from([e.dst]));
                let leaf = mgr.leaf(single);
                let part = mgr.ite(e.guard, leaf, empty_leaf);
                d = mgr.apply2(d, part, cache, &mut |a, b| table.union(a, b));
            }
            succ[q as usize] = Some(d);
            d
        };
    let is_final = |set: &[u32]| match mode {
        SubsetMode::Exact => set.is_empty(),
        SubsetMode::Informative(discharged) => set.iter().any(|&q| discharged[q as usize]),
    };
    let start = table.intern(Box::from([init]));
    let mut dfa_of_set: FxHashMap<u32, u32> = FxHashMap::default();
    let mut order: Vec<u32> = Vec::new();
    let mut raw: Vec<Node> = Vec::new();
    if is_final(table.get(start)) {
        return Ok(DetAutomaton::rejecting_all(mgr));
    }
    dfa_of_set.insert(start, 0);
    order.push(start);
    let mut k = 0;
    while k < order.len() {
        let set: Box<[u32]> = table.get(order[k]).into();
        let mut d = empty_leaf;
        for &q in set.iter() {
            let dq = state_diagram(q, mgr, &mut table, &mut union_cache);
            d = mgr.apply2(d, dq, &mut union_cache, &mut |a, b| table.union(a, b));
        }
        if mgr.exhausted() {
            return Err(BuildError::out_of_memory(mgr.budget().limit()));
        }
        for leaf in mgr.leaves(d) {
            if !dfa_of_set.contains_key(&leaf) && !is_final(table.get(leaf)) {
                if order.len() >= max_states {
                    return Err(BuildError::too_many_states(
                        "deterministic automaton",
                        max_states,
                    ));
                }
                dfa_of_set.insert(leaf, order.len() as u32);
                order.push(leaf);
            }
        }
        raw.push(d);
        k += 1;
    }
    let mut rename = ApplyCache::default();
    let diagrams = raw
        .into_iter()
        .map(|d| {
            mgr.map_leaves(d, &mut rename, &mut |set| {
                dfa_of_set.get(&set).copied().unwrap_or(VIOLATION_LEAF)
            })
        })
        .collect::<Vec<_>>();
    let verdicts = vec![Verdict::Undecided; diagrams.len()];
    Ok(DetAutomaton { diagrams, verdicts })
}
