//! Büchi automata for never claims of properties that are not safety
//! (`Builder::build_buchi`).

use crate::algo::degeneralize::{degeneralize, merge_bisimilar};
use crate::algo::emptiness::prune;
use crate::algo::simulation;
use crate::automaton::label::label;
use crate::automaton::{BuchiAutomaton, BuchiEdge, Nba, StateId};
use crate::formula::{parse, Formula};

use super::pipeline::Pipeline;
use super::{BuildError, Builder};

impl Builder {
    /// Parses `formula` and builds a Büchi automaton of the words that
    /// satisfy it (for a never claim: of its negation).
    ///
    /// The tableau's generalized Büchi automaton, its useless states
    /// removed, degeneralized to accepting states, pruned again, its
    /// bisimilar states merged, and reduced by direct simulation (states
    /// that simulate each other merged, edges to a state that another
    /// target of the same letters simulates removed). The state limit of the configuration
    /// applies to every stage.
    ///
    /// ```
    /// use monitor_core::automaton::StateId;
    /// use monitor_core::translate::Builder;
    ///
    /// // The claim of `G(req -> F ack)`: a request never answered.
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// assert_eq!(a.num_states(), 2);
    /// assert_eq!(a.nondeterministic_states(), 1);
    /// let starved = StateId::new(1);
    /// assert!(a.is_accepting(starved) && !a.is_accepting(a.start().unwrap()));
    /// # Ok::<(), monitor_core::translate::BuildError>(())
    /// ```
    pub fn build_buchi(&self, formula: &str) -> Result<BuchiAutomaton, BuildError> {
        let f = parse(formula)?;
        self.build_buchi_from_formula(&f)
    }

    /// Builds a Büchi automaton of the words that satisfy `f` (see
    /// [`Builder::build_buchi`]).
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// # use monitor_core::translate::Builder;
    /// // The never claim of `G(req -> F ack)`: the automaton of its negation.
    /// let f = Formula::not(parse("G(req -> F ack)")?);
    /// let claim = Builder::new().build_buchi_from_formula(&f)?;
    /// assert_eq!((claim.num_states(), claim.num_edges()), (2, 3));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build_buchi_from_formula(&self, f: &Formula) -> Result<BuchiAutomaton, BuildError> {
        let mut pipe = Pipeline::new(f, &self.config)?;
        let g = pipe.simplified.clone();
        let max = pipe.max_states;
        pipe.within_budget(|p| {
            let tgba = p.nba(&g)?;
            let (sba, accepting) = degeneralize(&tgba, max)?;
            let (pruned, map) = prune(&sba);
            let mut kept = vec![false; pruned.len()];
            for (old, new) in map.iter().enumerate() {
                if let Some(n) = new {
                    kept[*n as usize] = accepting[old];
                }
            }
            let (merged, accepting) = merge_bisimilar(&mut p.mgr, &pruned, &kept);
            let (simulated, accepting) = simulation::reduce(&mut p.mgr, &merged, &accepting);
            let (reduced, accepting) = merge_bisimilar(&mut p.mgr, &simulated, &accepting);
            let distance = distance_to_acceptance(&reduced, &accepting);
            let mut states = Vec::with_capacity(reduced.len());
            for (s, (edges, &acc)) in reduced.states.iter().zip(&accepting).enumerate() {
                let mut labelled = Vec::with_capacity(edges.len());
                for e in edges {
                    labelled.push(BuchiEdge {
                        // A sum of products when small, else factored.
                        guard: label(&mut p.mgr, e.guard).map_err(|err| {
                            BuildError::label(err.in_state(StateId::new(s as u32)))
                        })?,
                        target: StateId::new(e.dst),
                    });
                }
                let mut edges = labelled;
                // Pan tries a state's options in order: the way to
                // an accepting state first, so that a violation's
                // cycle is found early (as Spin's own claims do).
                edges.sort_by_key(|e| {
                    (
                        distance[e.target.as_usize()],
                        e.target.as_u32() == s as u32,
                        e.target,
                    )
                });
                states.push((acc, edges));
            }
            Ok(BuchiAutomaton::new(p.aps.clone(), p.name.clone(), states))
        })
    }
}

/// Per state of `nba`: the number of edges to the nearest accepting state
/// (0 for an accepting one).
fn distance_to_acceptance(nba: &Nba, accepting: &[bool]) -> Vec<usize> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nba.len()];
    for (s, edges) in nba.states.iter().enumerate() {
        for e in edges {
            preds[e.dst as usize].push(s as u32);
        }
    }
    let mut distance = vec![usize::MAX; nba.len()];
    let mut queue = std::collections::VecDeque::new();
    for (s, &acc) in accepting.iter().enumerate() {
        if acc {
            distance[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(t) = queue.pop_front() {
        for &p in &preds[t] {
            if distance[p as usize] == usize::MAX {
                distance[p as usize] = distance[t] + 1;
                queue.push_back(p as usize);
            }
        }
    }
    distance
}
