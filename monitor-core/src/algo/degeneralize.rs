//! Generalized Büchi automata to Büchi automata with accepting states (what
//! a Spin never claim is), and a reduction of the result.
//!
//! * [`degeneralize`]: the counter construction. A state is a pair (state
//!   of the TGBA, level); the level counts the acceptance sets seen in
//!   order since the last accepting state. An edge that carries sets
//!   `level, level+1, …` raises the level past them; reaching the number
//!   of sets, its destination is the accepting copy, whose level restarts
//!   at 0. Only the reachable pairs are built. An edge between two SCCs
//!   restarts the count (as Spot's degeneralization does): an accepting
//!   run ends in one SCC, and the sets seen before it entered do not
//!   matter, so fewer pairs are reached.
//! * [`merge_bisimilar`]: states with the same acceptance and, per class
//!   of destinations, the same letters are merged (signature refinement,
//!   as `minimize` does for monitors). Bisimilar states have the same
//!   language; this folds the copies the counter makes of states where no
//!   set is pending, and the duplicates of the tableau. A state on no cycle
//!   is passed at most once, so whether it is accepting does not matter:
//!   the refinement is run with those states accepting and with them not,
//!   and the smaller quotient is kept (the initial state of `G(r -> F a)`
//!   then merges with its accepting copy), the one where they are not on a
//!   tie. Before, SCCs whose every cycle is accepting are made accepting
//!   whole (weak), as BDKS14 advises for Spin's nested search.
//!
//! The automata returned keep the form of [`Nba`] with one acceptance set,
//! the edges that leave an accepting state, so that `emptiness::prune`
//! applies to them as it is; the accepting states are returned beside.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::emptiness::scc_numbers;
use crate::automaton::{Marks, Nba, NbaEdge};
use crate::dd::{Manager, Node};
use crate::error::BuildError;

/// The Büchi automaton of `nba` (any number of acceptance sets), with its
/// accepting states; fails beyond `max_states` states.
pub(crate) fn degeneralize(nba: &Nba, max_states: usize) -> Result<(Nba, Vec<bool>), BuildError> {
    let n = nba.num_marks;
    let Some(init) = nba.init else {
        return Ok((Nba::default(), Vec::new()));
    };
    let mut index: FxHashMap<(u32, usize), u32> = FxHashMap::default();
    let mut pairs: Vec<(u32, usize)> = Vec::new();
    let mut queue = VecDeque::new();
    let mut id = |pair: (u32, usize), pairs: &mut Vec<(u32, usize)>, queue: &mut VecDeque<u32>| {
        *index.entry(pair).or_insert_with(|| {
            pairs.push(pair);
            let i = pairs.len() as u32 - 1;
            queue.push_back(i);
            i
        })
    };
    // Without acceptance sets every run is accepting: one level, accepting.
    let top = n;
    let start = id((init, if n == 0 { top } else { 0 }), &mut pairs, &mut queue);
    debug_assert_eq!(start, 0);
    let (comp, _) = scc_numbers(nba);
    let mut states: Vec<Vec<NbaEdge>> = Vec::new();
    while let Some(i) = queue.pop_front() {
        if pairs.len() > max_states {
            return Err(BuildError::too_many_states("Büchi automaton", max_states));
        }
        let (q, level) = pairs[i as usize];
        let from = if level == top { 0 } else { level };
        let accepting = level == top;
        let mut edges = Vec::new();
        for e in &nba.states[q as usize] {
            let mut to = from;
            if comp[e.dst as usize] != comp[q as usize] {
                to = 0;
            } else {
                while to < n && e.marks.contains(to) {
                    to += 1;
                }
            }
            let dst = id((e.dst, to), &mut pairs, &mut queue);
            edges.push(NbaEdge {
                guard: e.guard,
                dst,
                marks: if accepting {
                    Marks::all(1)
                } else {
                    Marks::empty()
                },
            });
        }
        debug_assert_eq!(states.len(), i as usize);
        states.push(edges);
    }
    let accepting = pairs.iter().map(|&(_, level)| level == top).collect();
    Ok((
        Nba {
            states,
            init: Some(start),
            num_marks: 1,
        },
        accepting,
    ))
}

/// Merges the bisimilar states of `nba` (its edges leaving the states of
/// `accepting` carry set 0, as [`degeneralize`] makes them); returns the
/// quotient, with its initial state first, and its accepting states.
pub(crate) fn merge_bisimilar(
    mgr: &mut Manager,
    nba: &Nba,
    accepting: &[bool],
) -> (Nba, Vec<bool>) {
    let (comp, cyclic) = scc_numbers(nba);
    let accepting = weak(nba, accepting, &comp, &cyclic);
    let with = |value: bool| -> Vec<bool> {
        accepting
            .iter()
            .zip(&cyclic)
            .map(|(&a, &c)| if c { a } else { value })
            .collect()
    };
    // Transient states are best not accepting: pan starts a nested search
    // from every accepting state it backtracks from (BDKS14, §4.3).
    let (b, acc_b) = quotient(mgr, nba, &with(false));
    if cyclic.iter().all(|&c| c) {
        return (b, acc_b);
    }
    let (a, acc_a) = quotient(mgr, nba, &with(true));
    if a.len() < b.len() {
        (a, acc_a)
    } else {
        (b, acc_b)
    }
}

/// The acceptance made weak where it can be: an SCC whose every cycle
/// passes an accepting state (its other states form no cycle) has all its
/// states accepting, which accepts the same words. Pan's nested search
/// then closes such cycles in its first pass (BDKS14, §4.2).
fn weak(nba: &Nba, accepting: &[bool], comp: &[u32], cyclic: &[bool]) -> Vec<bool> {
    let n = nba.len();
    // Per SCC: whether it has an accepting state.
    let sccs = comp.iter().map(|&c| c as usize + 1).max().unwrap_or(0);
    let mut has_accepting = vec![false; sccs];
    for s in 0..n {
        has_accepting[comp[s] as usize] |= accepting[s] && cyclic[s];
    }
    // The non-accepting states of those SCCs, with their edges inside.
    let inner: Vec<Vec<u32>> = (0..n)
        .map(|s| {
            if accepting[s] || !has_accepting[comp[s] as usize] {
                return Vec::new();
            }
            nba.states[s]
                .iter()
                .filter(|e| comp[e.dst as usize] == comp[s] && !accepting[e.dst as usize])
                .map(|e| e.dst)
                .collect()
        })
        .collect();
    let mut weak_scc = has_accepting;
    for scc in super::emptiness::tarjan(&inner) {
        let s = scc[0] as usize;
        if scc.len() > 1 || inner[s].contains(&scc[0]) {
            weak_scc[comp[s] as usize] = false;
        }
    }
    (0..n)
        .map(|s| accepting[s] || weak_scc[comp[s] as usize])
        .collect()
}

/// The quotient of `nba` by the bisimulation that respects `accepting`.
fn quotient(mgr: &mut Manager, nba: &Nba, accepting: &[bool]) -> (Nba, Vec<bool>) {
    let Some(init) = nba.init else {
        return (Nba::default(), Vec::new());
    };
    let n = nba.len();
    let mut class: Vec<u32> = accepting.iter().map(|&a| a as u32).collect();
    let mut count = {
        let mut seen = [false; 2];
        for &c in &class {
            seen[c as usize] = true;
        }
        seen.iter().filter(|&&s| s).count()
    };
    loop {
        // Signature: the class, and per destination class the letters.
        let mut numbers: FxHashMap<(u32, Vec<(u32, Node)>), u32> = FxHashMap::default();
        let mut next = vec![0u32; n];
        for s in 0..n {
            let mut by_class: Vec<(u32, Node)> = Vec::new();
            for e in &nba.states[s] {
                let c = class[e.dst as usize];
                match by_class.iter_mut().find(|(d, _)| *d == c) {
                    Some((_, g)) => *g = mgr.or(*g, e.guard),
                    None => by_class.push((c, e.guard)),
                }
            }
            by_class.retain(|&(_, g)| g != Node::FALSE);
            by_class.sort_unstable_by_key(|&(c, g)| (c, g.index()));
            let k = numbers.len() as u32;
            next[s] = *numbers.entry((class[s], by_class)).or_insert(k);
        }
        let refined = numbers.len();
        class = next;
        if refined == count {
            break;
        }
        count = refined;
    }
    // Each class has the edges of one of its states (they are bisimilar).
    let mut member: Vec<Option<usize>> = vec![None; count];
    for s in 0..n {
        member[class[s] as usize].get_or_insert(s);
    }
    let edges: Vec<Vec<(usize, Node)>> = member
        .iter()
        .map(|m| {
            let s = m.expect("a class has a state");
            nba.states[s]
                .iter()
                .map(|e| (class[e.dst as usize] as usize, e.guard))
                .collect()
        })
        .collect();
    let acc: Vec<bool> = member
        .iter()
        .map(|m| accepting[m.expect("a state")])
        .collect();
    renumbered(mgr, class[init as usize] as usize, &edges, &acc)
}

/// The automaton of the states reachable from `start` by `edges` (per
/// state, its targets and guards), numbered breadth first from `start`,
/// with parallel edges merged, false ones dropped, and the edges leaving
/// the accepting states in set 0; and its accepting states.
pub(crate) fn renumbered(
    mgr: &mut Manager,
    start: usize,
    edges: &[Vec<(usize, Node)>],
    accepting: &[bool],
) -> (Nba, Vec<bool>) {
    let mut number: Vec<Option<u32>> = vec![None; edges.len()];
    let mut order = vec![start];
    number[start] = Some(0);
    let mut i = 0;
    while i < order.len() {
        let s = order[i];
        i += 1;
        for &(d, g) in &edges[s] {
            if g != Node::FALSE && number[d].is_none() {
                number[d] = Some(order.len() as u32);
                order.push(d);
            }
        }
    }
    let states = order
        .iter()
        .map(|&s| {
            let mut out: Vec<NbaEdge> = Vec::new();
            for &(d, guard) in &edges[s] {
                let Some(dst) = number[d] else { continue };
                match out.iter_mut().find(|x| x.dst == dst) {
                    Some(x) => x.guard = mgr.or(x.guard, guard),
                    None => out.push(NbaEdge {
                        guard,
                        dst,
                        marks: if accepting[s] {
                            Marks::all(1)
                        } else {
                            Marks::empty()
                        },
                    }),
                }
            }
            out.retain(|e| e.guard != Node::FALSE);
            out.sort_by_key(|e| e.dst);
            out
        })
        .collect();
    let accepting = order.iter().map(|&s| accepting[s]).collect();
    (
        Nba {
            states,
            init: Some(0),
            num_marks: 1,
        },
        accepting,
    )
}
