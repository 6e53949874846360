//! Minimization by signature refinement (Moore) on transition diagrams.
//!
//! Start from the partition by verdict (the rejecting sink is a class of
//! its own); in each round, the *signature* of a state is its class and its
//! transition diagram with every target renamed to the target's class.
//! Because diagrams are hash-consed, a signature is a pair of numbers, and
//! two states stay together iff they go to the same classes on every
//! letter. Rounds stop when no class splits; the quotient is then the
//! minimal complete DFA (the input must be deterministic and complete,
//! which diagrams are by construction).
//!
//! Each round costs one traversal of the diagrams; the number of rounds is
//! the depth of the longest distinguishing suffix, small for monitors.
//! States are renumbered in a breadth-first order that depends only on
//! the language ([`canonical_order`]), so equal languages give identical
//! automata.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::automaton::dfa::DetAutomaton;
use crate::automaton::dfa::VIOLATION_LEAF;
use crate::dd::{ApplyCache, Manager, Node};

/// Returns the minimal automaton equivalent to `det` (same verdicts on
/// every word).
pub(crate) fn minimize(mgr: &mut Manager, det: &DetAutomaton) -> DetAutomaton {
    let n = det.len();
    // Initial partition: by verdict.
    let mut class: Vec<u32> = {
        let mut ids = FxHashMap::default();
        det.verdicts
            .iter()
            .map(|v| {
                let k = ids.len() as u32;
                *ids.entry(*v).or_insert(k)
            })
            .collect()
    };
    let mut members: Vec<Vec<u32>> = Vec::new();
    for (s, &c) in class.iter().enumerate() {
        if members.len() <= c as usize {
            members.resize(c as usize + 1, Vec::new());
        }
        members[c as usize].push(s as u32);
    }
    // Predecessors, to know whose signature a split can change.
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for s in 0..n {
        for leaf in mgr.leaves(det.diagrams[s]) {
            if leaf != VIOLATION_LEAF {
                preds[leaf as usize].push(s as u32);
            }
        }
    }
    // sig[s]: the diagram of s with targets renamed to their classes. A
    // state's signature only changes when a successor changes class, so
    // each round recomputes the signatures of those states only; when a
    // class splits, its largest part keeps the class number (so only the
    // smaller parts make predecessors dirty, as in Hopcroft's algorithm).
    let mut sig = vec![crate::dd::Node::FALSE; n];
    let mut dirty: Vec<u32> = (0..n as u32).collect();
    let mut is_dirty = vec![false; n];
    let mut cache = ApplyCache::default();
    while !dirty.is_empty() {
        cache.clear();
        for &s in &dirty {
            sig[s as usize] = rename_targets(mgr, det.diagrams[s as usize], &mut cache, |t| {
                class[t as usize]
            });
        }
        let mut touched: Vec<u32> = dirty.iter().map(|&s| class[s as usize]).collect();
        touched.sort_unstable();
        touched.dedup();
        let mut next_dirty = Vec::new();
        for c in touched {
            let block = std::mem::take(&mut members[c as usize]);
            let mut groups: FxHashMap<crate::dd::Node, Vec<u32>> = FxHashMap::default();
            for &s in &block {
                groups.entry(sig[s as usize]).or_default().push(s);
            }
            if groups.len() == 1 {
                members[c as usize] = block;
                continue;
            }
            let mut parts: Vec<Vec<u32>> = groups.into_values().collect();
            // Largest first keeps the number; ties broken by the smallest
            // member, so the result does not depend on hashing order.
            parts.sort_by_key(|p| (std::cmp::Reverse(p.len()), p[0]));
            let mut parts = parts.into_iter();
            members[c as usize] = parts.next().expect("a part");
            for part in parts {
                let id = members.len() as u32;
                for &s in &part {
                    class[s as usize] = id;
                    for &p in &preds[s as usize] {
                        if !is_dirty[p as usize] {
                            is_dirty[p as usize] = true;
                            next_dirty.push(p);
                        }
                    }
                }
                members.push(part);
            }
        }
        for &s in &next_dirty {
            is_dirty[s as usize] = false;
        }
        dirty = next_dirty;
    }
    let num_classes = members.len();
    // Quotient: classes numbered by their first member (state 0's class
    // is 0), then put in canonical order.
    let mut number = vec![u32::MAX; num_classes];
    let mut reps = Vec::with_capacity(num_classes);
    for (s, &c) in class.iter().enumerate() {
        if number[c as usize] == u32::MAX {
            number[c as usize] = reps.len() as u32;
            reps.push(s);
        }
    }
    let quotient = select(mgr, det, &reps, |t| number[class[t as usize] as usize]);
    canonical_order(mgr, quotient)
}

/// The diagram `d` with every target state `t` renamed `rename(t)` (the
/// rejecting sink stays). `cache` must not outlive the renaming.
fn rename_targets(
    mgr: &mut Manager,
    d: Node,
    cache: &mut ApplyCache,
    rename: impl Fn(u32) -> u32,
) -> Node {
    mgr.map_leaves(d, cache, &mut |leaf| {
        if leaf == VIOLATION_LEAF {
            VIOLATION_LEAF
        } else {
            rename(leaf)
        }
    })
}

/// The automaton made of the states `states` of `det`, in that order, with
/// targets renamed by `rename` (which must map into the new numbering).
fn select(
    mgr: &mut Manager,
    det: &DetAutomaton,
    states: &[usize],
    rename: impl Fn(u32) -> u32,
) -> DetAutomaton {
    let mut cache = ApplyCache::default();
    let diagrams = states
        .iter()
        .map(|&s| rename_targets(mgr, det.diagrams[s], &mut cache, &rename))
        .collect();
    let verdicts = states.iter().map(|&s| det.verdicts[s]).collect();
    DetAutomaton { diagrams, verdicts }
}

/// Renumbers states in the order a breadth-first search discovers them
/// when successors are visited along the diagram (low branches first).
/// The result depends only on the language, not on the input numbering.
pub(crate) fn canonical_order(mgr: &mut Manager, det: DetAutomaton) -> DetAutomaton {
    let n = det.len();
    if n == 0 {
        return det;
    }
    let mut number: Vec<Option<u32>> = vec![None; n];
    let mut order = vec![0usize];
    number[0] = Some(0);
    let mut queue = VecDeque::from([0usize]);
    while let Some(s) = queue.pop_front() {
        for leaf in mgr.leaves_in_order(det.diagrams[s]) {
            if leaf != VIOLATION_LEAF && number[leaf as usize].is_none() {
                number[leaf as usize] = Some(order.len() as u32);
                order.push(leaf as usize);
                queue.push_back(leaf as usize);
            }
        }
    }
    select(mgr, &det, &order, |t| {
        number[t as usize].expect("reachable")
    })
}
