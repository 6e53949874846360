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
//! A round recomputes only the signatures of the states whose successors
//! changed class (as Hopcroft's algorithm revisits only the predecessors
//! of a split), and costs their diagrams; the number of rounds is the
//! depth of the longest distinguishing suffix (`k` for a bounded
//! operator's chain of `k` states, each round then costing a few states).
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
    let mut size: Vec<usize> = Vec::new();
    for &c in &class {
        if size.len() <= c as usize {
            size.resize(c as usize + 1, 0);
        }
        size[c as usize] += 1;
    }
    // The signature every member of a class had when it was last split
    // (none before the first round, where every state is dirty).
    let mut class_sig: Vec<Option<Node>> = vec![None; size.len()];
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
    // each round recomputes the signatures of those states (the dirty ones)
    // only, and touches nothing else: the members of a class that are not
    // dirty all still have the class's signature, `class_sig`, so they
    // stay together with the dirty members of that signature (keeping the
    // class number), and only the other dirty members move to new classes
    // (making their predecessors dirty). A round used to regroup every
    // member of each class it touched: on a chain of `k` states, where
    // each round splits one state off the chain (bounded operators:
    // `F[0:k]`, `G[0:k]`, counted SEREs), that was `k` rounds of `k`
    // states, quadratic, where now each round costs its dirty states.
    let mut sig = vec![Node::FALSE; n];
    let mut dirty: Vec<u32> = (0..n as u32).collect();
    let mut is_dirty = vec![false; n];
    let mut cache = ApplyCache::default();
    while !dirty.is_empty() {
        // Emptied every round (the renaming changes); replaced when it is
        // much larger than this round's work, since clearing costs its
        // capacity: a chain's rounds of one state each, after a first
        // round over all states, would be quadratic again.
        if cache.capacity() > 64 * (dirty.len() + 16) {
            cache = ApplyCache::default();
        } else {
            cache.clear();
        }
        for &s in &dirty {
            sig[s as usize] = rename_targets(mgr, det.diagrams[s as usize], &mut cache, |t| {
                class[t as usize]
            });
        }
        // The dirty states by class, then by signature: each run of one
        // class is split into runs of one signature (ordered by state
        // number within it, so that the result does not depend on hashing).
        dirty.sort_unstable_by_key(|&s| (class[s as usize], sig[s as usize], s));
        let mut next_dirty = Vec::new();
        let mut i = 0;
        while i < dirty.len() {
            let c = class[dirty[i] as usize];
            let mut j = i;
            while j < dirty.len() && class[dirty[j] as usize] == c {
                j += 1;
            }
            let block = &dirty[i..j];
            i = j;
            let rest = size[c as usize] - block.len();
            let mut groups: Vec<&[u32]> = block
                .chunk_by(|&a, &b| sig[a as usize] == sig[b as usize])
                .collect();
            // The group that keeps the class number: the one with the
            // signature of the members that are not dirty, if there are
            // any; otherwise the largest (the first of equal sizes).
            let keep = if rest > 0 {
                groups
                    .iter()
                    .position(|g| Some(sig[g[0] as usize]) == class_sig[c as usize])
            } else {
                let largest = groups.iter().map(|g| g.len()).max().expect("a group");
                groups.iter().position(|g| g.len() == largest)
            };
            let kept = match keep {
                Some(k) => {
                    let g = groups.remove(k);
                    class_sig[c as usize] = Some(sig[g[0] as usize]);
                    g.len()
                }
                None => 0,
            };
            size[c as usize] = rest + kept;
            for part in groups {
                let id = size.len() as u32;
                size.push(part.len());
                class_sig.push(Some(sig[part[0] as usize]));
                for &s in part {
                    class[s as usize] = id;
                    for &p in &preds[s as usize] {
                        if !is_dirty[p as usize] {
                            is_dirty[p as usize] = true;
                            next_dirty.push(p);
                        }
                    }
                }
            }
        }
        for &s in &next_dirty {
            is_dirty[s as usize] = false;
        }
        dirty = next_dirty;
    }
    let num_classes = size.len();
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
