//! Products of automata.
//!
//! * [`with_safety_dfa`]: an NBA synchronized with a deterministic monitor
//!   read as a safety automaton (runs must avoid the rejecting sink). The
//!   product is empty iff every word of the NBA has a prefix the monitor
//!   rejects; this is how safety and pathologic formulas are recognized.
//! * [`stutter_product`]: `sl(A) × B`, where `sl(A)` accepts the words
//!   obtained from words of `A` by repeating letters (Michaud and
//!   Duret-Lutz's self-loopization, made exact for symbolic labels by
//!   tracking the set of letters the repeated letter may be).
//! * [`three_valued`]: the monitor of `φ` and the monitor of `!φ` run
//!   together, giving satisfied, violated or undecided verdicts.
//! * [`first_difference`]: a shortest word on which two monitors disagree.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::interner::Interner;
use crate::automaton::dfa::DetAutomaton;
use crate::automaton::dfa::VIOLATION_LEAF;
use crate::automaton::{Nba, NbaEdge, Verdict};
use crate::dd::{ApplyCache, Cube, Manager, Node};
use crate::error::BuildError;

/// The product of `nba` with the monitor `det`, keeping only runs that
/// never reach the monitor's rejecting sink.
pub(crate) fn with_safety_dfa(
    mgr: &mut Manager,
    nba: &Nba,
    det: &DetAutomaton,
    max_states: usize,
) -> Result<Nba, BuildError> {
    let mut out = Nba {
        num_marks: nba.num_marks,
        ..Nba::default()
    };
    let Some(init) = nba.init else {
        return Ok(out);
    };
    if det.len() == 0 || det.verdicts[0] == Verdict::Violated {
        return Ok(out);
    }
    let mut guards: FxHashMap<u32, Vec<(u32, Node)>> = FxHashMap::default();
    let mut states: Interner<(u32, u32)> = Interner::default();
    states.intern((init, 0));
    out.init = Some(0);
    let mut k = 0;
    while k < states.len() {
        let (q, d) = *states.get(k as u32);
        let dg = guards
            .entry(d)
            .or_insert_with(|| mgr.leaf_guards(det.diagrams[d as usize]))
            .clone();
        let mut edges = Vec::new();
        for e in &nba.states[q as usize] {
            for &(leaf, h) in &dg {
                if leaf == VIOLATION_LEAF {
                    continue;
                }
                let g = mgr.and(e.guard, h);
                if g == Node::FALSE {
                    continue;
                }
                let dst = states.intern((e.dst, leaf));
                if states.len() > max_states {
                    return Err(BuildError::too_many_states("product automaton", max_states));
                }
                edges.push(NbaEdge {
                    guard: g,
                    dst,
                    marks: e.marks.clone(),
                });
            }
        }
        out.states.push(edges);
        k += 1;
    }
    Ok(out)
}

#[derive(Clone, PartialEq, Eq, Hash)]
enum StutterKey {
    Normal(u32, u32),
    /// A has read the letter; B reads it again, which must be in the set.
    Repeat(u32, u32, Node),
}

/// `sl(a) × b`: non-empty iff some word of `a`, with some letters
/// repeated, is a word of `b`.
pub(crate) fn stutter_product(
    mgr: &mut Manager,
    a: &Nba,
    b: &Nba,
    max_states: usize,
) -> Result<Nba, BuildError> {
    // Marks: a's, then b's, then one for "a moved" (so that a run cannot
    // repeat one letter forever).
    let na = a.num_marks;
    let nb = b.num_marks;
    let a_step = na + nb;
    let mut out = Nba {
        num_marks: na + nb + 1,
        ..Nba::default()
    };
    let (Some(ia), Some(ib)) = (a.init, b.init) else {
        return Ok(out);
    };
    let mut states: Interner<StutterKey> = Interner::default();
    states.intern(StutterKey::Normal(ia, ib));
    out.init = Some(0);
    let mut k = 0;
    while k < states.len() {
        let key = states.get(k as u32).clone();
        let mut edges = Vec::new();
        match key {
            StutterKey::Normal(qa, qb) => {
                for ea in &a.states[qa as usize] {
                    for eb in &b.states[qb as usize] {
                        let g = mgr.and(ea.guard, eb.guard);
                        if g == Node::FALSE {
                            continue;
                        }
                        let mut marks = ea.marks.clone();
                        marks.union_with(&eb.marks.shifted(na));
                        marks.insert(a_step);
                        for next in [
                            StutterKey::Normal(ea.dst, eb.dst),
                            StutterKey::Repeat(ea.dst, eb.dst, g),
                        ] {
                            let dst = states.intern(next);
                            edges.push(NbaEdge {
                                guard: g,
                                dst,
                                marks: marks.clone(),
                            });
                        }
                    }
                }
            }
            StutterKey::Repeat(qa, qb, set) => {
                for eb in &b.states[qb as usize] {
                    let g = mgr.and(set, eb.guard);
                    if g == Node::FALSE {
                        continue;
                    }
                    let marks = eb.marks.shifted(na);
                    for next in [
                        StutterKey::Normal(qa, eb.dst),
                        StutterKey::Repeat(qa, eb.dst, g),
                    ] {
                        let dst = states.intern(next);
                        edges.push(NbaEdge {
                            guard: g,
                            dst,
                            marks: marks.clone(),
                        });
                    }
                }
            }
        }
        if states.len() > max_states {
            return Err(BuildError::too_many_states(
                "stutter-check product",
                max_states,
            ));
        }
        out.states.push(edges);
        k += 1;
    }
    Ok(out)
}

/// The three-valued monitor from the monitors of `φ` (`pos`) and `!φ`
/// (`neg`): violated when `pos` rejects, satisfied when `neg` rejects.
pub(crate) fn three_valued(
    mgr: &mut Manager,
    pos: &DetAutomaton,
    neg: &DetAutomaton,
    max_states: usize,
) -> Result<DetAutomaton, BuildError> {
    if pos.verdicts[0] == Verdict::Violated {
        return Ok(DetAutomaton::rejecting_all(mgr));
    }
    const SAT: u32 = u32::MAX - 1;
    let satisfied_sink = |mgr: &mut Manager, me: u32| (mgr.leaf(me), Verdict::Satisfied);
    if neg.verdicts[0] == Verdict::Violated {
        let (d, v) = satisfied_sink(mgr, 0);
        return Ok(DetAutomaton {
            diagrams: vec![d],
            verdicts: vec![v],
        });
    }
    let mut states: Interner<(u32, u32)> = Interner::default();
    states.intern((0, 0));
    let mut cache = ApplyCache::default();
    let mut raw = Vec::new();
    let mut k = 0;
    while k < states.len() {
        let (a, b) = *states.get(k as u32);
        let d = mgr.apply2(
            pos.diagrams[a as usize],
            neg.diagrams[b as usize],
            &mut cache,
            &mut |la, lb| {
                if la == VIOLATION_LEAF {
                    VIOLATION_LEAF
                } else if lb == VIOLATION_LEAF {
                    SAT
                } else {
                    states.intern((la, lb))
                }
            },
        );
        if states.len() > max_states {
            return Err(BuildError::too_many_states(
                "three-valued automaton",
                max_states,
            ));
        }
        raw.push(d);
        k += 1;
    }
    let sat_state = raw.len() as u32;
    let mut rename = ApplyCache::default();
    let mut diagrams: Vec<Node> = raw
        .into_iter()
        .map(|d| {
            mgr.map_leaves(d, &mut rename, &mut |l| {
                if l == SAT {
                    sat_state
                } else {
                    l
                }
            })
        })
        .collect();
    let mut verdicts = vec![Verdict::Undecided; diagrams.len()];
    let (d, v) = satisfied_sink(mgr, sat_state);
    diagrams.push(d);
    verdicts.push(v);
    Ok(DetAutomaton { diagrams, verdicts })
}

fn verdict_of(det: &DetAutomaton, leaf: u32) -> Verdict {
    if leaf == VIOLATION_LEAF {
        Verdict::Violated
    } else {
        det.verdicts[leaf as usize]
    }
}

/// A shortest word after which `x` and `y` give different verdicts, with
/// the two verdicts (`None` if they agree on every word).
pub(crate) fn first_difference(
    mgr: &mut Manager,
    x: &DetAutomaton,
    y: &DetAutomaton,
) -> Option<(Vec<Cube>, Verdict, Verdict)> {
    let (vx, vy) = (x.verdicts[0], y.verdicts[0]);
    if vx != vy {
        return Some((Vec::new(), vx, vy));
    }
    // Visited pairs of states, and the pairs of leaves of product diagrams.
    let mut visited: Interner<(u32, u32)> = Interner::default();
    let mut leaves: Interner<(u32, u32)> = Interner::default();
    let mut parent: Vec<Option<(u32, Cube)>> = Vec::new();
    visited.intern((0, 0));
    parent.push(None);
    let mut queue = VecDeque::from([0u32]);
    let mut cache = ApplyCache::default();
    while let Some(p) = queue.pop_front() {
        let (a, b) = *visited.get(p);
        let d = mgr.apply2(
            x.diagrams[a as usize],
            y.diagrams[b as usize],
            &mut cache,
            &mut |la, lb| leaves.intern((la, lb)),
        );
        for (leaf, cube) in mgr.leaf_paths(d) {
            let (la, lb) = *leaves.get(leaf);
            let (va, vb) = (verdict_of(x, la), verdict_of(y, lb));
            if va != vb {
                let mut word = vec![cube];
                let mut cur = p;
                while let Some((q, c)) = &parent[cur as usize] {
                    word.push(c.clone());
                    cur = *q;
                }
                word.reverse();
                return Some((word, va, vb));
            }
            if la == VIOLATION_LEAF || lb == VIOLATION_LEAF {
                continue;
            }
            if visited.get_index(&(la, lb)).is_none() {
                let id = visited.intern((la, lb));
                parent.push(Some((p, cube)));
                queue.push_back(id);
            }
        }
    }
    None
}
