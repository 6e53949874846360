//! The derivative automaton built on demand, one state and one letter at a
//! time, for [`crate::lazy::LazyMonitor`].
//!
//! A state is what the eager construction ([`super::derivatives`]) makes
//! of it: a BDD over obligations and a memory of the past registers. Its
//! successor on a letter is its BDD with each obligation replaced by its
//! expansion *restricted to that letter*, so that no transition diagram
//! over the whole alphabet is built: `Gp1 | … | Gp30` has `2^30` states
//! and a diagram with `2^k` targets in a state of `k` disjuncts, but one
//! successor per letter read.
//!
//! # Verdicts without the whole automaton
//!
//! A state whose BDD is `false` is an informative bad prefix, `true` an
//! informative good one; nothing more is needed for the informative
//! monitor. The exact monitor also rejects the *doomed* states (every path
//! from them reaches `false`), which the eager construction finds on the
//! finished automaton. Here each new state is searched: the BDDs are
//! monotone in the obligations, so a state is satisfiable iff one of its
//! cubes (a conjunction of obligations, from a path to `true`) is, and a
//! cube is iff it has an infinite path in the graph whose edges go from a
//! cube to the cubes of its expansion (a path never reaching `false`
//! describes a word satisfying the formula: every violation of these
//! formulas is informative). The search is a depth-first search of that
//! graph for a cycle or the empty cube, greedy (fewest obligations
//! first), memoized (a cube explored without success has no infinite
//! path). Dually, with three verdicts, a state is universal iff none of
//! its clauses (disjunctions of obligations, from the paths to `false`)
//! reaches the empty clause. Both searches have a budget, in steps and
//! in memory (the cache's capacity); a search over budget leaves the
//! state undecided and the monitor informative from then on (the caller
//! is told).

use rustc_hash::{FxHashMap, FxHashSet};

use super::derivatives::Expander;
use crate::automaton::label::label;
use crate::automaton::{Alphabet, Guard, LabelError};
use crate::budget::Budget;
use crate::dd::{Cube, Manager, Node};
use crate::formula::Formula;
use crate::Verdict;

/// What a search looks for from a cube or clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Goal {
    /// An infinite path (a cycle) or the empty cube: the cube is
    /// satisfiable.
    Live,
    /// The empty clause: the clause can become `false`.
    Falsify,
    /// The empty cube (a cycle does not count): the cube can become
    /// `true`, an informative good prefix.
    Satisfy,
}

/// The steps through decision diagrams a search may take per state of the
/// state limit (expanding a cube walks a few dozen nodes).
const STEPS_PER_STATE: usize = 64;

/// A cube or clause with its memory.
type Key = (Node, u32);

/// The successors of a cube or clause, walked one at a time.
struct Successors {
    /// Its expansion (over the letter and the next obligations).
    composed: Node,
    /// The letters leading to each next memory.
    parts: std::sync::Arc<[(Node, u32)]>,
    /// The next part to walk, and the memory of the one being walked.
    part: usize,
    mem: u32,
    /// The paths left to walk in the current part: a node, and the
    /// obligations kept on the way to it.
    paths: Vec<(Node, Vec<u32>)>,
}

impl Successors {
    /// The cubes or clauses of state `(node, mem)` itself (no letter
    /// read).
    fn terms(node: Node, mem: u32) -> Successors {
        Successors {
            composed: node,
            parts: std::sync::Arc::new([(Node::TRUE, mem)]),
            part: 0,
            mem,
            paths: Vec::new(),
        }
    }
}

/// A state of the lazy automaton.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LazyState {
    pub(crate) node: Node,
    pub(crate) mem: u32,
    pub(crate) verdict: Verdict,
    /// Whether no word leads from the state to a violation, once
    /// [`LazyDfa::never_violated`] decided it.
    pub(crate) safe: Option<bool>,
}

/// The derivative automaton of one formula, built on demand.
#[derive(Clone)]
pub(crate) struct LazyDfa {
    aps: Alphabet,
    mgr: Manager,
    ex: Expander,
    /// Whether doomed (and, with three verdicts, universal) states are
    /// searched for.
    exact: bool,
    three: bool,
    /// The state limit: one search takes at most [`STEPS_PER_STATE`] steps
    /// through diagrams per state of it.
    search_limit: usize,
    /// The memory (as [`LazyDfa::memory`] counts it) beyond which a search
    /// stops as over budget: the cache's capacity, so that the nodes a
    /// long search creates stay within it too.
    memory_limit: usize,
    /// Set when a search ran over budget: no more searches.
    gave_up: bool,
    /// The byte budget of the manager (the configuration's
    /// `max_memory`), a new one at each restart: the cache's capacity is
    /// checked between transitions, on an estimate, and this bounds what
    /// one transition (or one search) allocates in diagrams.
    max_memory: usize,
    states: Vec<LazyState>,
    index: FxHashMap<(Node, u32), u32>,
    /// The outcome of finished searches from cubes (`Live`) and clauses
    /// (`Falsify`): whether the goal is reachable.
    live: FxHashMap<(Node, u32), bool>,
    falsifiable: FxHashMap<(Node, u32), bool>,
    /// Whether a cube can become `true` (searched for keyed runs that can
    /// stop, [`LazyDfa::never_violated`]).
    satisfiable: FxHashMap<(Node, u32), bool>,
    /// Expansions of states, cubes and clauses (over the letter and the
    /// next obligations).
    composed: FxHashMap<(Node, u32), Node>,
    /// Scratch memo of one successor computation (kept for its capacity).
    by_letter: FxHashMap<(Node, u32), Node>,
    /// Searches run, and the cubes and clauses they expanded.
    pub(crate) searches: u64,
    pub(crate) expanded: u64,
}

impl LazyDfa {
    /// The automaton of `f` (in negation normal form, satisfying
    /// [`super::derivatives::applies`]); its start state is state 0.
    pub(crate) fn new(
        f: &Formula,
        aps: Alphabet,
        exact: bool,
        three: bool,
        search_limit: usize,
        max_memory: usize,
    ) -> LazyDfa {
        let mut mgr = Manager::with_budget(Budget::new(max_memory));
        let mut ex = Expander::new(f, &aps);
        let mut start = ex.later(&mut mgr, &aps, 0, f);
        if exact {
            start = ex.without_conflicts(&mut mgr, &aps, start);
        }
        let mut dfa = LazyDfa {
            aps,
            mgr,
            ex,
            exact,
            three,
            search_limit,
            memory_limit: crate::lazy::DEFAULT_CACHE_CAPACITY,
            gave_up: false,
            max_memory,
            states: Vec::new(),
            index: FxHashMap::default(),
            live: FxHashMap::default(),
            falsifiable: FxHashMap::default(),
            satisfiable: FxHashMap::default(),
            composed: FxHashMap::default(),
            by_letter: FxHashMap::default(),
            searches: 0,
            expanded: 0,
        };
        dfa.state_of(start, 0);
        dfa
    }

    pub(crate) fn alphabet(&self) -> &Alphabet {
        &self.aps
    }

    pub(crate) fn state(&self, q: u32) -> LazyState {
        self.states[q as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.states.len()
    }

    /// Bounds the memory of the searches from now on (at least 1 MiB, so
    /// that a cache emptied at every transition still decides small
    /// states).
    pub(crate) fn set_memory_limit(&mut self, bytes: usize) {
        self.memory_limit = bytes.max(1 << 20);
    }

    /// Whether the manager's byte budget refused a growth: every node,
    /// state and verdict computed since is wrong (the caller drops them by
    /// a [`LazyDfa::restart`], or fails).
    pub(crate) fn out_of_memory(&self) -> bool {
        self.mgr.exhausted()
    }

    /// Moves the manager out of its budget, for explanations (covers of
    /// letters, pending formulas): the budget refusing a growth midway
    /// would leave them wrong. The caller restarts (a new manager in a
    /// new budget) after them.
    pub(crate) fn lift_budget(&mut self) {
        self.mgr.lift_budget();
    }

    /// Puts the manager back into its byte budget after an explanation
    /// ([`LazyDfa::lift_budget`]); `false` when the budget cannot hold what
    /// it grew to (the caller restarts).
    pub(crate) fn restore_budget(&mut self) -> bool {
        self.mgr.impose_budget(self.max_memory)
    }

    /// The byte budget of the manager.
    pub(crate) fn max_memory(&self) -> usize {
        self.max_memory
    }

    /// Whether every verdict so far is the exact monitor's (no search ran
    /// over budget).
    pub(crate) fn gave_up(&self) -> bool {
        self.gave_up
    }

    /// A rough count of the bytes held (nodes, states, memos).
    pub(crate) fn memory(&self) -> usize {
        // A node: 12 bytes, its unique-table entry (~24) and computed
        // slot (~20); memo entries ~24-48 bytes.
        self.mgr.len() * 64
            + self.states.len() * 48
            + (self.live.len()
                + self.falsifiable.len()
                + self.satisfiable.len()
                + self.composed.len())
                * 32
            + self.ex.cached() * 64
    }

    /// The state of `(node, mem)`, classified when new.
    fn state_of(&mut self, node: Node, mem: u32) -> u32 {
        if let Some(&q) = self.index.get(&(node, mem)) {
            return q;
        }
        let verdict = self.classify(node, mem);
        let q = self.states.len() as u32;
        self.states.push(LazyState {
            node,
            mem,
            verdict,
            safe: None,
        });
        self.index.insert((node, mem), q);
        q
    }

    fn classify(&mut self, node: Node, mem: u32) -> Verdict {
        if node == Node::FALSE {
            return Verdict::Violated;
        }
        if node == Node::TRUE {
            return if self.three {
                Verdict::Satisfied
            } else {
                Verdict::Undecided
            };
        }
        if !self.exact || self.gave_up {
            return Verdict::Undecided;
        }
        match self.search(node, mem, Goal::Live) {
            Some(false) => return Verdict::Violated,
            Some(true) => {}
            None => {
                self.gave_up = true;
                return Verdict::Undecided;
            }
        }
        if self.three {
            match self.search(node, mem, Goal::Falsify) {
                Some(false) => return Verdict::Satisfied,
                Some(true) => {}
                None => self.gave_up = true,
            }
        }
        Verdict::Undecided
    }

    /// Whether no word leads state `q` to a violation (its formula can
    /// never become `false`: none of its clauses reaches the empty
    /// clause) nor, with three verdicts, to a satisfied state, decided
    /// once per state; `false` when a search is over budget. The searches
    /// never make the monitor informative: they only tell which runs can
    /// stop. (With exact verdicts, a state no word violates is universal:
    /// satisfied itself with three verdicts, which needs no search.)
    ///
    /// A search that the byte budget refused midway answers `false`
    /// without remembering it: the next transition built finds the
    /// manager exhausted and starts over ([`LazyDfa::out_of_memory`]).
    pub(crate) fn never_violated(&mut self, q: u32) -> bool {
        let LazyState {
            node,
            mem,
            verdict,
            safe,
        } = self.states[q as usize];
        if let Some(safe) = safe {
            return safe;
        }
        let safe = if verdict == Verdict::Violated || node == Node::FALSE {
            false
        } else if verdict == Verdict::Satisfied || node == Node::TRUE {
            true
        } else if self.three && self.exact {
            false
        } else {
            self.search(node, mem, Goal::Falsify) == Some(false)
                && (!self.three || self.search(node, mem, Goal::Satisfy) == Some(false))
        };
        if self.out_of_memory() {
            return false;
        }
        self.states[q as usize].safe = Some(safe);
        safe
    }

    /// The successor of state `q` on `letter` (bit `i` for proposition
    /// `i`).
    pub(crate) fn successor(&mut self, q: u32, letter: u64) -> u32 {
        let LazyState { node, mem, .. } = self.states[q as usize];
        let next_mem = self
            .ex
            .past
            .next_memory(mem, &letter, &mut self.mgr, &self.aps);
        let n = match self.cube_vars(node) {
            Some(vars) => self.compose_cube(&vars, mem, letter),
            None => {
                let n = self.compose_letter(node, mem, letter);
                if self.exact {
                    self.ex.without_conflicts(&mut self.mgr, &self.aps, n)
                } else {
                    n
                }
            }
        };
        self.state_of(n, next_mem)
    }

    /// The variables of `s` if it is a conjunction of obligations (the
    /// usual state: every `G` a conjunct).
    fn cube_vars(&self, s: Node) -> Option<Vec<u32>> {
        let cube = self.mgr.as_cube(s)?;
        cube.iter()
            .all(|&(_, positive)| positive)
            .then(|| cube.into_iter().map(|(v, _)| v).collect())
    }

    /// [`LazyDfa::compose_letter`] of a conjunction: the conjunction of
    /// the expansions, combined deepest first, so that each one (mostly a
    /// variable, the letter being known) lands above the result so far.
    /// Replacing the variables one by one from the top, as the general
    /// case does, walks down the result for each: quadratic in the
    /// obligations (a 20-bit counter's states have dozens).
    ///
    /// For exact monitors, the result is without conflicts
    /// ([`Expander::without_conflicts`]), and the obligations the
    /// conjunction asserts falsify, in the other expansions, those that
    /// conflict with them (unit propagation), so that the disjuncts to
    /// remove are never built.
    fn compose_cube(&mut self, vars: &[u32], mem: u32, letter: u64) -> Node {
        let mut parts = Vec::with_capacity(vars.len());
        for &v in vars {
            let e = self.ex.step(&mut self.mgr, &self.aps, v, mem);
            let e = restrict_to_letter(&self.mgr, self.ex.base(), e, letter);
            if e == Node::FALSE {
                return Node::FALSE;
            }
            if e != Node::TRUE {
                parts.push(e);
            }
        }
        if self.exact {
            let mut asserted: Vec<u32> = Vec::new();
            let mut forbidden: FxHashSet<u32> = FxHashSet::default();
            loop {
                let mut changed = false;
                let mut rest = Vec::with_capacity(parts.len());
                for mut p in std::mem::take(&mut parts) {
                    if !forbidden.is_empty() {
                        for w in self.mgr.support(p) {
                            if forbidden.contains(&w) {
                                p = self.mgr.restrict(p, w, false);
                            }
                        }
                    }
                    if p == Node::FALSE {
                        return Node::FALSE;
                    }
                    if p == Node::TRUE {
                        continue;
                    }
                    match self.cube_vars(p) {
                        Some(vs) => {
                            for v in vs {
                                if forbidden.contains(&v) {
                                    return Node::FALSE;
                                }
                                let ws = self.ex.conflicting(&mut self.mgr, &self.aps, v);
                                forbidden.extend(ws.iter().copied());
                                asserted.push(v);
                            }
                            changed = true;
                        }
                        None => rest.push(p),
                    }
                }
                parts = rest;
                if !changed {
                    break;
                }
            }
            if parts.is_empty() {
                // A conjunction without conflicts: the chain, bottom up.
                asserted.sort_unstable_by(|a, b| b.cmp(a));
                asserted.dedup();
                return asserted
                    .into_iter()
                    .fold(Node::TRUE, |acc, v| self.mgr.mk(v, Node::FALSE, acc));
            }
            parts.extend(asserted.into_iter().map(|v| self.mgr.var(v)));
        }
        let top = |m: &Manager, n: Node| m.var_of(n).unwrap_or(u32::MAX);
        parts.sort_by_key(|&n| std::cmp::Reverse(top(&self.mgr, n)));
        let mut acc = Node::TRUE;
        for p in parts {
            acc = self.mgr.and(p, acc);
        }
        if self.exact {
            acc = self.ex.without_conflicts(&mut self.mgr, &self.aps, acc);
        }
        acc
    }

    /// `s` with each obligation replaced by its expansion on `letter`.
    fn compose_letter(&mut self, s: Node, mem: u32, letter: u64) -> Node {
        let base = self.ex.base();
        self.by_letter.clear();
        self.ex.compose_with(
            &mut self.mgr,
            &self.aps,
            s,
            mem,
            &mut self.by_letter,
            &mut |m, e| restrict_to_letter(m, base, e, letter),
        )
    }

    /// `s` with each obligation replaced by its whole expansion: a BDD
    /// over the letter and the next obligations.
    fn compose(&mut self, s: Node, mem: u32) -> Node {
        self.ex
            .compose(&mut self.mgr, &self.aps, s, mem, &mut self.composed)
    }

    /// The successors of `(t, mem)` in the search for `goal`, one at a
    /// time ([`LazyDfa::next_successor`]).
    fn successors(&mut self, t: Node, mem: u32) -> Successors {
        self.expanded += 1;
        let composed = self.compose(t, mem);
        let parts = self.ex.past.partition(mem, &mut self.mgr, &self.aps);
        Successors {
            composed,
            parts,
            part: 0,
            mem,
            paths: Vec::new(),
        }
    }

    /// The next cube (`Live`: the positive obligations on a path to
    /// `true`) or clause (`Falsify`: the negative ones on a path to
    /// `false`), propositions ignored, with its memory: the paths are
    /// walked one at a time, those with fewer obligations first, since a
    /// state's diagram can have exponentially many (`k` deadlines pending,
    /// each a disjunction of `n` obligations: `n^k` paths). `Some(None)`
    /// when there are no more; `None` when the budget runs out.
    fn next_successor(
        &mut self,
        it: &mut Successors,
        goal: Goal,
        budget: &mut usize,
    ) -> Option<Option<Key>> {
        let base = self.ex.base();
        let (target, keep) = match goal {
            Goal::Live | Goal::Satisfy => (Node::TRUE, true),
            Goal::Falsify => (Node::FALSE, false),
        };
        loop {
            let Some((n, vars)) = it.paths.pop() else {
                let Some(&(guard, next_mem)) = it.parts.get(it.part) else {
                    return Some(None);
                };
                it.part += 1;
                it.mem = next_mem;
                let x = match goal {
                    Goal::Live | Goal::Satisfy => self.mgr.and(it.composed, guard),
                    Goal::Falsify => {
                        let outside = self.mgr.not(guard);
                        self.mgr.or(it.composed, outside)
                    }
                };
                it.paths.push((x, Vec::new()));
                continue;
            };
            *budget = budget.checked_sub(1)?;
            if *budget % 256 == 0 && self.memory() > self.memory_limit {
                return None;
            }
            let Some((lo, hi)) = self.mgr.children(n) else {
                if n != target {
                    continue;
                }
                let mut t = target;
                for &v in vars.iter().rev() {
                    let x = self.mgr.var(v);
                    t = if keep {
                        self.mgr.and(x, t)
                    } else {
                        self.mgr.or(x, t)
                    };
                }
                return Some(Some((t, it.mem)));
            };
            let v = self.mgr.var_of(n).expect("an inner node");
            if v < base {
                it.paths.push((hi, vars.clone()));
                it.paths.push((lo, vars));
                continue;
            }
            // The branch that leaves the obligation out of the term is
            // walked first (pushed last).
            let (without, with) = if keep { (lo, hi) } else { (hi, lo) };
            let mut more = vars.clone();
            more.push(v);
            it.paths.push((with, more));
            it.paths.push((without, vars));
        }
    }

    /// Whether a cube (`Live`) or clause (`Falsify`) of state `(node,
    /// mem)` reaches the goal; `None` over budget.
    fn search(&mut self, node: Node, mem: u32, goal: Goal) -> Option<bool> {
        self.searches += 1;
        let mut budget = self.search_limit.saturating_mul(STEPS_PER_STATE);
        let mut terms = Successors::terms(node, mem);
        while let Some(t) = self.next_successor(&mut terms, goal, &mut budget)? {
            if self.search_from(t, goal, &mut budget)? {
                return Some(true);
            }
        }
        Some(false)
    }

    fn search_from(&mut self, root: Key, goal: Goal, budget: &mut usize) -> Option<bool> {
        let reached = |n: Node| match goal {
            Goal::Live | Goal::Satisfy => n == Node::TRUE,
            Goal::Falsify => n == Node::FALSE,
        };
        if reached(root.0) {
            return Some(true);
        }
        let memo = |s: &Self, k: &Key| match goal {
            Goal::Live => s.live.get(k).copied(),
            Goal::Falsify => s.falsifiable.get(k).copied(),
            Goal::Satisfy => s.satisfiable.get(k).copied(),
        };
        if let Some(r) = memo(self, &root) {
            return Some(r);
        }
        let first = self.successors(root.0, root.1);
        let mut stack: Vec<(Key, Successors)> = vec![(root, first)];
        let mut on_stack: FxHashSet<Key> = FxHashSet::default();
        let mut visited: FxHashSet<Key> = FxHashSet::default();
        on_stack.insert(root);
        visited.insert(root);
        let success = loop {
            let Some((_, it)) = stack.last_mut() else {
                break false;
            };
            let Some(child) = self.next_successor(it, goal, budget)? else {
                let (k, _) = stack.pop().expect("a frame");
                on_stack.remove(&k);
                if goal == Goal::Live {
                    // Every path from it was explored: a cycle would have
                    // been found on the way.
                    self.live.insert(k, false);
                }
                continue;
            };
            if reached(child.0) {
                break true;
            }
            if on_stack.contains(&child) {
                if goal == Goal::Live {
                    break true; // a cycle: an infinite path
                }
                continue;
            }
            match memo(self, &child) {
                Some(true) => break true,
                Some(false) => continue,
                None => {}
            }
            if !visited.insert(child) {
                continue;
            }
            let next = self.successors(child.0, child.1);
            on_stack.insert(child);
            stack.push((child, next));
        };
        if success {
            for (k, _) in &stack {
                match goal {
                    Goal::Live => self.live.insert(*k, true),
                    Goal::Falsify => self.falsifiable.insert(*k, true),
                    Goal::Satisfy => self.satisfiable.insert(*k, true),
                };
            }
        } else if goal != Goal::Live {
            // The whole search failed: nothing it met can reach the goal.
            let memo = if goal == Goal::Falsify {
                &mut self.falsifiable
            } else {
                &mut self.satisfiable
            };
            for k in visited {
                memo.insert(k, false);
            }
        }
        Some(success)
    }

    /// The letters that make state `q` `false` at once, as a guard: the
    /// complement of those after which it can still hold, the next
    /// obligations assumed (the BDDs are monotone in them).
    pub(crate) fn violating(&mut self, q: u32) -> Result<Guard, LabelError> {
        let LazyState { node, mem, .. } = self.states[q as usize];
        let base = self.ex.base();
        let mut tops = FxHashMap::default();
        let holds = self.ex.compose_with(
            &mut self.mgr,
            &self.aps,
            node,
            mem,
            &mut FxHashMap::default(),
            &mut |m, e| letters_of(m, base, e, &mut tops),
        );
        let bad = self.mgr.not(holds);
        label(&mut self.mgr, bad)
    }

    /// What state `q` requires from the next letter on, as a formula of at
    /// most `max_terms` disjuncts, and whether there were more.
    ///
    /// The cover is computed under a cap ([`Manager::isop_capped`]): a
    /// state can have exponentially many prime implicants (`(X b0 | X c0)
    /// & … & (X b29 | X c29)` has `2^30`), which the full cover wrote out
    /// before keeping a few. Over the cap, the terms are the first paths
    /// of the diagram (implicants, if not prime, and not in the
    /// formulas' order), found in time linear in their length.
    pub(crate) fn pending(&mut self, q: u32, max_terms: usize) -> (Formula, bool) {
        const MAX_LITERALS: usize = 1 << 16;
        const MAX_NODES: usize = 1 << 16;
        let node = self.states[q as usize].node;
        let cubes = match self.mgr.isop_capped(node, MAX_LITERALS, MAX_NODES) {
            Some(cubes) => cubes,
            None => first_paths(&self.mgr, node, max_terms + 1),
        };
        let more = cubes.len() > max_terms;
        let mut terms: Vec<Formula> = cubes
            .iter()
            .map(|c| {
                Formula::and(c.iter().filter(|&&(_, pos)| pos).map(|&(v, _)| {
                    let (d, f) = self.ex.obligation(v).clone();
                    Formula::next_n(f, d as usize)
                }))
            })
            .collect();
        // The first terms in the formulas' order (`Gp2 | Gp3 | …`, as
        // printed), not the diagram's.
        terms.sort();
        terms.truncate(max_terms);
        (Formula::or(terms), more)
    }

    /// Starts over with a new manager (in a new budget) and no states but
    /// `keep` (their verdicts kept, computed before any refused growth);
    /// returns their new numbers.
    pub(crate) fn restart(&mut self, keep: &[u32]) -> Vec<u32> {
        let old = std::mem::replace(
            &mut self.mgr,
            Manager::with_budget(Budget::new(self.max_memory)),
        );
        let kept: Vec<LazyState> = keep.iter().map(|&q| self.states[q as usize]).collect();
        self.ex.forget();
        self.states.clear();
        self.index.clear();
        self.live.clear();
        self.falsifiable.clear();
        self.satisfiable.clear();
        self.composed.clear();
        self.by_letter.clear();
        let mut memo = FxHashMap::default();
        kept.into_iter()
            .map(|s| {
                let node = self.mgr.import(&old, s.node, &mut memo);
                if let Some(&q) = self.index.get(&(node, s.mem)) {
                    return q;
                }
                let q = self.states.len() as u32;
                self.states.push(LazyState { node, ..s });
                self.index.insert((node, s.mem), q);
                q
            })
            .collect()
    }
}

/// The cubes of the first `k` paths from `n` to `true` (depth first,
/// `lo` before `hi`): in a reduced diagram every node but `false` reaches
/// `true`, so each path costs its length.
fn first_paths(mgr: &Manager, n: Node, k: usize) -> Vec<Cube> {
    fn walk(mgr: &Manager, n: Node, path: &mut Cube, k: usize, out: &mut Vec<Cube>) {
        if out.len() >= k || n == Node::FALSE {
            return;
        }
        let Some(v) = mgr.var_of(n) else {
            // A leaf other than `false`: `true` in a BDD.
            out.push(path.clone());
            return;
        };
        let (lo, hi) = mgr.children(n).expect("an inner node");
        for (child, pos) in [(lo, false), (hi, true)] {
            path.push((v, pos));
            walk(mgr, child, path, k, out);
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(mgr, n, &mut Vec::new(), k, &mut out);
    out
}

/// `n` (an expansion) after the letter: propositions are tested above
/// obligations, so following the letter through them leaves a BDD over
/// the next obligations.
fn restrict_to_letter(mgr: &Manager, base: u32, mut n: Node, letter: u64) -> Node {
    while let Some(v) = mgr.var_of(n).filter(|&v| v < base) {
        let (lo, hi) = mgr.children(n).expect("an inner node");
        n = if (letter >> v) & 1 == 1 { hi } else { lo };
    }
    n
}

/// The letters after which the expansion `n` can hold: each obligation
/// part that is not `false` becomes `true`.
fn letters_of(mgr: &mut Manager, base: u32, n: Node, memo: &mut FxHashMap<Node, Node>) -> Node {
    match mgr.var_of(n) {
        Some(v) if v < base => {
            if let Some(&r) = memo.get(&n) {
                return r;
            }
            let (lo, hi) = mgr.children(n).expect("an inner node");
            let lo = letters_of(mgr, base, lo, memo);
            let hi = letters_of(mgr, base, hi, memo);
            let r = mgr.mk(v, lo, hi);
            memo.insert(n, r);
            r
        }
        _ if n == Node::FALSE => Node::FALSE,
        _ => Node::TRUE,
    }
}
