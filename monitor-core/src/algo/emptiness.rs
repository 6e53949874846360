//! Strongly connected components, emptiness of generalized Büchi automata
//! with lasso witnesses, and removal of states with an empty language.
//!
//! An SCC is *accepting* if it has an internal edge and the marks of its
//! internal edges cover every acceptance set; a state has a non-empty
//! language iff it reaches an accepting SCC. Tarjan's algorithm (iterative)
//! emits SCCs successors first, so one pass decides every state.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use crate::automaton::{Marks, Nba, NbaEdge};
use crate::dd::{Cube, Manager, Node};
use crate::word::Lasso;

/// Per node of the graph `succ` (distinct successors per node), whether
/// every path from it that stays among the nodes `inside` is finite: it
/// cannot run forever inside (no cycle reachable there). Nodes outside
/// get `false`. Counts down the successors of each node, as Kahn's
/// topological sort.
pub(crate) fn finite_paths_only(succ: &[Vec<u32>], inside: &[bool]) -> Vec<bool> {
    let n = succ.len();
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut left = vec![0usize; n];
    for q in (0..n).filter(|&q| inside[q]) {
        for &r in &succ[q] {
            if inside[r as usize] {
                pred[r as usize].push(q);
                left[q] += 1;
            }
        }
    }
    let mut finite = vec![false; n];
    let mut ready: Vec<usize> = (0..n).filter(|&q| inside[q] && left[q] == 0).collect();
    while let Some(q) = ready.pop() {
        finite[q] = true;
        for &p in &pred[q] {
            left[p] -= 1;
            if left[p] == 0 {
                ready.push(p);
            }
        }
    }
    finite
}

/// The SCCs of a graph, each SCC listed after every SCC it can reach.
pub(crate) fn tarjan(succ: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let n = succ.len();
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut sccs = Vec::new();
    let mut counter = 0u32;
    // Explicit call stack: (node, next successor position).
    let mut call: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != UNSEEN {
            continue;
        }
        call.push((root, 0));
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut pos)) = call.last_mut() {
            if let Some(&w) = succ[v as usize].get(*pos) {
                *pos += 1;
                if index[w as usize] == UNSEEN {
                    index[w as usize] = counter;
                    low[w as usize] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut scc = Vec::new();
                    loop {
                        let w = stack.pop().expect("scc member");
                        on_stack[w as usize] = false;
                        scc.push(w);
                        if w == v {
                            break;
                        }
                    }
                    sccs.push(scc);
                }
            }
        }
    }
    sccs
}

/// The successors of each state.
pub(crate) fn adjacency(nba: &Nba) -> Vec<Vec<u32>> {
    nba.states
        .iter()
        .map(|edges| edges.iter().map(|e| e.dst).collect())
        .collect()
}

/// Per state: its SCC number (SCCs numbered as [`tarjan`] lists them), and
/// whether it lies on a cycle.
pub(crate) fn scc_numbers(nba: &Nba) -> (Vec<u32>, Vec<bool>) {
    let succ = adjacency(nba);
    let sccs = tarjan(&succ);
    let mut comp = vec![0u32; nba.len()];
    let mut cyclic = vec![false; nba.len()];
    for (i, scc) in sccs.iter().enumerate() {
        let on_cycle = scc.len() > 1 || succ[scc[0] as usize].contains(&scc[0]);
        for &s in scc {
            comp[s as usize] = i as u32;
            cyclic[s as usize] = on_cycle;
        }
    }
    (comp, cyclic)
}

/// Per state: its SCC number, and per SCC: whether it is accepting.
fn accepting_sccs(nba: &Nba) -> (Vec<u32>, Vec<Vec<u32>>, Vec<bool>) {
    let sccs = tarjan(&adjacency(nba));
    let mut comp = vec![0u32; nba.len()];
    for (i, scc) in sccs.iter().enumerate() {
        for &s in scc {
            comp[s as usize] = i as u32;
        }
    }
    let all = Marks::all(nba.num_marks);
    let accepting = sccs
        .iter()
        .enumerate()
        .map(|(i, scc)| {
            let mut marks = Marks::empty();
            let mut internal = false;
            for &s in scc {
                for e in &nba.states[s as usize] {
                    if comp[e.dst as usize] == i as u32 {
                        internal = true;
                        marks.union_with(&e.marks);
                    }
                }
            }
            internal && marks.is_superset(&all)
        })
        .collect();
    (comp, sccs, accepting)
}

/// Per state: whether its language is non-empty.
pub(crate) fn nonempty_states(nba: &Nba) -> Vec<bool> {
    let (comp, sccs, accepting) = accepting_sccs(nba);
    let mut good_scc = vec![false; sccs.len()];
    for (i, scc) in sccs.iter().enumerate() {
        // Successor SCCs come earlier in `sccs`.
        good_scc[i] = accepting[i]
            || scc.iter().any(|&s| {
                nba.states[s as usize].iter().any(|e| {
                    comp[e.dst as usize] != i as u32 && good_scc[comp[e.dst as usize] as usize]
                })
            });
    }
    comp.iter().map(|&c| good_scc[c as usize]).collect()
}

/// Whether every infinite run of `nba` is accepting: no cycle avoids an
/// acceptance set. Checked per set by looking for a cycle among the edges
/// that lack it. For a pruned automaton this proves that its language is
/// a safety property (it equals its closure, the words with infinite runs),
/// without any product.
pub(crate) fn every_cycle_accepting(nba: &Nba) -> bool {
    let comp = {
        let sccs = tarjan(&adjacency(nba));
        let mut comp = vec![0u32; nba.len()];
        for (i, scc) in sccs.iter().enumerate() {
            for &s in scc {
                comp[s as usize] = i as u32;
            }
        }
        comp
    };
    (0..nba.num_marks).all(|m| {
        // Edges inside an SCC that miss mark m.
        let sub: Vec<Vec<u32>> = nba
            .states
            .iter()
            .enumerate()
            .map(|(s, edges)| {
                edges
                    .iter()
                    .filter(|e| comp[e.dst as usize] == comp[s] && !e.marks.contains(m))
                    .map(|e| e.dst)
                    .collect()
            })
            .collect();
        tarjan(&sub).iter().all(|scc| {
            // A cycle: an SCC with two states, or one with a self-loop.
            scc.len() == 1 && !sub[scc[0] as usize].contains(&scc[0])
        })
    })
}

/// Removes the states with an empty language (and unreachable ones).
/// Returns the pruned automaton and, per old state, its new number.
pub(crate) fn prune(nba: &Nba) -> (Nba, Vec<Option<u32>>) {
    let good = nonempty_states(nba);
    let mut map: Vec<Option<u32>> = vec![None; nba.len()];
    let mut order = Vec::new();
    if let Some(init) = nba.init.filter(|&i| good[i as usize]) {
        let mut queue = VecDeque::from([init]);
        map[init as usize] = Some(0);
        order.push(init);
        while let Some(s) = queue.pop_front() {
            for e in &nba.states[s as usize] {
                if good[e.dst as usize] && map[e.dst as usize].is_none() {
                    map[e.dst as usize] = Some(order.len() as u32);
                    order.push(e.dst);
                    queue.push_back(e.dst);
                }
            }
        }
    }
    let states = order
        .iter()
        .map(|&s| {
            nba.states[s as usize]
                .iter()
                .filter_map(|e| {
                    map[e.dst as usize].map(|d| NbaEdge {
                        guard: e.guard,
                        dst: d,
                        marks: e.marks.clone(),
                    })
                })
                .collect()
        })
        .collect();
    let pruned = Nba {
        states,
        init: (!order.is_empty()).then_some(0),
        num_marks: nba.num_marks,
    };
    (pruned, map)
}

/// A full letter (every proposition assigned; unmentioned ones false) of
/// a guard.
pub(crate) fn letter_of(mgr: &Manager, guard: Node, num_aps: usize) -> Vec<bool> {
    let cube: Cube = mgr.sat_cube(guard).expect("satisfiable guard");
    let mut letter = vec![false; num_aps];
    for (v, pos) in cube {
        letter[v as usize] = pos;
    }
    letter
}

/// An accepted lasso of `nba`, if its language is not empty.
pub(crate) fn accepted_lasso(mgr: &Manager, nba: &Nba, num_aps: usize) -> Option<Lasso<Vec<bool>>> {
    let init = nba.init?;
    let (comp, _, accepting) = accepting_sccs(nba);
    // Shortest path from init to a state of an accepting SCC.
    let mut parent: FxHashMap<u32, (u32, usize)> = FxHashMap::default();
    let mut queue = VecDeque::from([init]);
    let mut seen = vec![false; nba.len()];
    seen[init as usize] = true;
    let mut entry = None;
    while let Some(s) = queue.pop_front() {
        if accepting[comp[s as usize] as usize] {
            entry = Some(s);
            break;
        }
        for (k, e) in nba.states[s as usize].iter().enumerate() {
            if !seen[e.dst as usize] {
                seen[e.dst as usize] = true;
                parent.insert(e.dst, (s, k));
                queue.push_back(e.dst);
            }
        }
    }
    let entry = entry?;
    let mut prefix_edges = Vec::new();
    let mut cur = entry;
    while let Some(&(p, k)) = parent.get(&cur) {
        prefix_edges.push(&nba.states[p as usize][k]);
        cur = p;
    }
    prefix_edges.reverse();
    // A cycle through the SCC from `entry` covering every mark: visit an
    // internal edge of each missing mark in turn, then come back.
    let c = comp[entry as usize];
    let in_scc = |s: u32| comp[s as usize] == c;
    let mut cycle_edges: Vec<&NbaEdge> = Vec::new();
    let mut covered = Marks::empty();
    let all = Marks::all(nba.num_marks);
    let mut at = entry;
    // Path (within the SCC) from `from` to the source of an edge satisfying `want`.
    let path_to = |from: u32, want: &dyn Fn(&NbaEdge) -> bool| -> Option<Vec<&NbaEdge>> {
        let mut parent: FxHashMap<u32, (u32, usize)> = FxHashMap::default();
        let mut queue = VecDeque::from([from]);
        let mut seen = rustc_hash::FxHashSet::default();
        seen.insert(from);
        while let Some(s) = queue.pop_front() {
            for (k, e) in nba.states[s as usize].iter().enumerate() {
                if !in_scc(e.dst) {
                    continue;
                }
                if want(e) {
                    let mut path = vec![e];
                    let mut cur = s;
                    while let Some(&(p, k2)) = parent.get(&cur) {
                        path.push(&nba.states[p as usize][k2]);
                        cur = p;
                    }
                    path.reverse();
                    return Some(path);
                }
                if seen.insert(e.dst) {
                    parent.insert(e.dst, (s, k));
                    queue.push_back(e.dst);
                }
            }
        }
        None
    };
    loop {
        let missing: Vec<usize> = all.difference(&covered).iter().collect();
        let Some(&m) = missing.first() else { break };
        let path = path_to(at, &|e: &NbaEdge| e.marks.contains(m))?;
        for e in &path {
            covered.union_with(&e.marks);
        }
        at = path.last().expect("non-empty path").dst;
        cycle_edges.extend(path);
    }
    // Close the cycle (at least one edge).
    if cycle_edges.is_empty() || at != entry {
        let back = path_to(at, &|e: &NbaEdge| e.dst == entry)?;
        cycle_edges.extend(back);
    }
    let letter = |e: &NbaEdge| letter_of(mgr, e.guard, num_aps);
    Some(Lasso::new(
        prefix_edges.into_iter().map(letter).collect(),
        cycle_edges.into_iter().map(letter).collect(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tarjan_orders_successors_first() {
        // 0 -> 1 -> 2 -> 1, 0 -> 3
        let g = vec![vec![1, 3], vec![2], vec![1], vec![]];
        let sccs = tarjan(&g);
        let pos = |s: u32| sccs.iter().position(|c| c.contains(&s)).unwrap();
        assert_eq!(sccs.len(), 3);
        assert!(pos(1) < pos(0) && pos(3) < pos(0));
        assert_eq!(pos(1), pos(2));
    }
}
