//! Direct simulation of Büchi automata with accepting states, and the two
//! reductions it justifies (Etessami and Holzmann, "Optimizing Büchi
//! automata", CONCUR 2000; Somenzi and Bloem, CAV 2000).
//!
//! State `q` *directly simulates* `p` when `q` is accepting if `p` is, and
//! every edge `p -ℓ-> p'` is matched, letter by letter, by edges `q -ℓ-> q'`
//! with `q'` simulating `p'`. Then every word accepted from `p` is accepted
//! from `q`, run for run, and:
//!
//! * states that simulate each other have the same language and are
//!   merged;
//! * on a letter that takes a state both to `p` and to a state `q` that
//!   strictly simulates it, the edge to `p` is not needed ("little
//!   brothers"): its guard loses those letters. This removes
//!   nondeterminism and makes guards more restrictive, which BDKS14 finds
//!   makes Spin's product smaller.
//!
//! The relation is the greatest fixpoint of the matching condition,
//! computed by refining the relation that respects acceptance; guards are
//! decision diagrams, so "letter by letter" is one implication per edge.

use super::degeneralize::renumbered;
use crate::automaton::Nba;
use crate::dd::{Manager, Node};

/// Automata larger than this are left as they are: the relation is
/// quadratic in the states.
const MAX_STATES: usize = 400;

/// `sim[p][q]`: `q` directly simulates `p`.
fn direct_simulation(mgr: &mut Manager, nba: &Nba, accepting: &[bool]) -> Vec<Vec<bool>> {
    let n = nba.len();
    let mut sim: Vec<Vec<bool>> = (0..n)
        .map(|p| (0..n).map(|q| !accepting[p] || accepting[q]).collect())
        .collect();
    let mut changed = true;
    while changed {
        changed = false;
        for p in 0..n {
            for q in 0..n {
                if p == q || !sim[p][q] {
                    continue;
                }
                let matched = nba.states[p].iter().all(|e| {
                    let mut cover = Node::FALSE;
                    for f in &nba.states[q] {
                        if sim[e.dst as usize][f.dst as usize] {
                            cover = mgr.or(cover, f.guard);
                        }
                    }
                    mgr.implies(e.guard, cover)
                });
                if !matched {
                    sim[p][q] = false;
                    changed = true;
                }
            }
        }
    }
    sim
}

/// Reduces `nba` (accepting states `accepting`; the edges leaving them in
/// set 0) by direct simulation: merges simulation-equivalent states and
/// prunes the edges to little brothers. Returns the automaton, initial
/// state first and every state reachable, and its accepting states.
pub(crate) fn reduce(mgr: &mut Manager, nba: &Nba, accepting: &[bool]) -> (Nba, Vec<bool>) {
    let n = nba.len();
    let Some(init) = nba.init else {
        return (nba.clone(), accepting.to_vec());
    };
    if n > MAX_STATES {
        return (nba.clone(), accepting.to_vec());
    }
    let sim = direct_simulation(mgr, nba, accepting);
    // The representative of each state: the first state equivalent to it.
    let rep: Vec<usize> = (0..n)
        .map(|p| (0..n).find(|&q| sim[p][q] && sim[q][p]).unwrap_or(p))
        .collect();
    // Strict simulation between representatives.
    let above = |p: usize, q: usize| sim[p][q] && !sim[q][p];
    let mut edges_of: Vec<Vec<(usize, Node)>> = vec![Vec::new(); n];
    for s in (0..n).filter(|&s| rep[s] == s) {
        // The edges of the representative, into representatives, parallel
        // ones merged.
        let mut edges: Vec<(usize, Node)> = Vec::new();
        for e in &nba.states[s] {
            let d = rep[e.dst as usize];
            match edges.iter_mut().find(|(t, _)| *t == d) {
                Some((_, g)) => *g = mgr.or(*g, e.guard),
                None => edges.push((d, e.guard)),
            }
        }
        // Little brothers lose the letters of their big brothers (the
        // guards as they were: the greatest ones keep theirs).
        let original = edges.clone();
        for (d, g) in &mut edges {
            for &(big, big_guard) in &original {
                if big != *d && above(*d, big) {
                    let lost = mgr.not(big_guard);
                    *g = mgr.and(*g, lost);
                }
            }
        }
        edges_of[s] = edges;
    }
    renumbered(mgr, rep[init as usize], &edges_of, accepting)
}
