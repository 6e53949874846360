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

use super::determinize::DetAutomaton;
use crate::automaton::dfa::VIOLATION_LEAF;
use crate::dd::{ApplyCache, Manager};

/// Returns the minimal automaton equivalent to `det` (same verdicts on
/// every word).
pub(crate) fn minimize(mgr: &mut Manager, det: &DetAutomaton) -> DetAutomaton {
    let n = det.len();
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
    let mut num_classes = class.iter().copied().max().map_or(0, |m| m + 1) as usize;
    loop {
        let mut cache = ApplyCache::default();
        let mut sigs: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let mut next = Vec::with_capacity(n);
        for s in 0..n {
            let renamed = mgr.map_leaves(det.diagrams[s], &mut cache, &mut |leaf| {
                if leaf == VIOLATION_LEAF {
                    VIOLATION_LEAF
                } else {
                    class[leaf as usize]
                }
            });
            let key = (class[s], renamed.index());
            let k = sigs.len() as u32;
            next.push(*sigs.entry(key).or_insert(k));
        }
        let count = sigs.len();
        class = next;
        if count == num_classes {
            break;
        }
        num_classes = count;
    }
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
    let mut cache = ApplyCache::default();
    let diagrams = reps
        .iter()
        .map(|&s| {
            mgr.map_leaves(det.diagrams[s], &mut cache, &mut |leaf| {
                if leaf == VIOLATION_LEAF {
                    VIOLATION_LEAF
                } else {
                    number[class[leaf as usize] as usize]
                }
            })
        })
        .collect();
    let verdicts = reps.iter().map(|&s| det.verdicts[s]).collect();
    canonical_order(mgr, DetAutomaton { diagrams, verdicts })
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
        for leaf in diagram_order(mgr, det.diagrams[s]) {
            if leaf != VIOLATION_LEAF && number[leaf as usize].is_none() {
                number[leaf as usize] = Some(order.len() as u32);
                order.push(leaf as usize);
                queue.push_back(leaf as usize);
            }
        }
    }
    let mut cache = ApplyCache::default();
    let diagrams = order
        .iter()
        .map(|&s| {
            mgr.map_leaves(det.diagrams[s], &mut cache, &mut |leaf| {
                if leaf == VIOLATION_LEAF {
                    VIOLATION_LEAF
                } else {
                    number[leaf as usize].expect("reachable")
                }
            })
        })
        .collect();
    let verdicts = order.iter().map(|&s| det.verdicts[s]).collect();
    DetAutomaton { diagrams, verdicts }
}

/// The leaves of a diagram in depth-first order, low branches first (a
/// numbering-independent order).
fn diagram_order(mgr: &Manager, d: crate::dd::Node) -> Vec<u32> {
    let mut out = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    let mut stack = vec![d];
    while let Some(x) = stack.pop() {
        if !seen.insert(x) {
            continue;
        }
        match mgr.children(x) {
            Some((lo, hi)) => {
                stack.push(hi);
                stack.push(lo);
            }
            None => out.push(mgr.leaf_value(x).expect("leaf")),
        }
    }
    out
}
