//! Safety formulas to deterministic automata by formula derivatives, with
//! no nondeterministic detour.
//!
//! A state is a formula: what must hold from the current position on, a
//! positive Boolean combination of *obligations* (subformulas of the input
//! that are not `∧`/`∨`), kept as a BDD over one variable per obligation,
//! so that Boolean-equivalent combinations are one state (absorption,
//! `a ∧ a`, ... come for free). Reading a letter replaces each obligation
//! by its expansion (`G ψ = ψ ∧ X G ψ`, `ψ W χ = χ ∨ (ψ ∧ X(ψ W χ))`,
//! `ψ R χ = χ ∧ (ψ ∨ X(ψ R χ))`, `X ψ` is `ψ` from the next position),
//! a BDD over the propositions of the letter (tested first) and the
//! obligations of the next position (below them); the cut between the two
//! layers is the successor of every letter, found without enumerating the
//! alphabet. Past subformulas are evaluated by [`PastMachine`] registers,
//! which become part of the state. This is Brzozowski's derivative on
//! formulas, the progression of runtime verification.
//!
//! # Exactness
//!
//! The construction applies to formulas in negation normal form built
//! from `X`, `G`, `W`, `R`, `∧`, `∨` over past formulas (Spot's syntactic
//! safety class, without SEREs). For them a state whose BDD is `false` is
//! reached exactly on the *informative* bad prefixes, and every violating
//! word has one: its negation is a syntactic guarantee formula, satisfied
//! by a word only through a finite prefix that fulfils it whatever
//! follows (every `F`, `U`, `M` fulfilled, every `X` stepped), and the
//! progression, monotone in the obligations, is `false` after that prefix.
//! (For exact monitors, states also lose the conjunctions of obligations
//! no letter satisfies together, `X b ∧ X ¬b`: the same language, `false`
//! sooner.) So a state has an empty language iff every path from it
//! reaches `false`; those states are merged into the rejecting sink, and what is
//! left, minimized, is the minimal monitor of all bad prefixes, the same
//! as the tableau route's. Before that merge the automaton rejects
//! exactly the informative bad prefixes (Kupferman–Vardi: `¬f` fulfilled
//! within the prefix, whatever follows), the informative monitor; and the
//! argument shows that these formulas are never *pathologic*.
//!
//! # Cost
//!
//! The states are formulas, not sets of Büchi states, so the automaton
//! built is the derivative automaton, usually close to the minimal
//! monitor: `G((req ∧ X req ∧ … ∧ X^{n-1} req) → X^n gnt)` has `n + 1`
//! derivatives where the tableau has `~2^n` Büchi states. Obligation
//! variables are ordered parents first (`X^k p` above `X^{k-1} p`), so that
//! the BDDs of successive deadlines share their tails.

use rustc_hash::FxHashMap;

use super::emptiness::finite_paths_only;
use super::past::PastMachine;
use crate::automaton::dfa::DetAutomaton;
use crate::automaton::dfa::VIOLATION_LEAF;
use crate::automaton::{Alphabet, Verdict};
use crate::budget::{table_bytes, vec_bytes};
use crate::dd::{ApplyCache, Manager, Node};
use crate::error::BuildError;
use crate::formula::{Formula, Op};

/// Whether the derivative construction applies to `f` (in negation normal
/// form): only `X`, `G`, `W`, `R`, `∧`, `∨` over formulas without future
/// operators.
pub(crate) fn applies(f: &Formula) -> bool {
    outside(f).is_none()
}

/// The first subformula (from the root, operands left to right) that puts
/// `f` outside the fragment of [`applies`].
///
/// Each distinct subformula is visited once: the walk of the tree visited
/// each window of `G[0:k] F[0:k] b` once per position of the outer one
/// (`k²` visits).
pub(crate) fn outside(f: &Formula) -> Option<Formula> {
    let mut seen: rustc_hash::FxHashSet<Formula> = Default::default();
    let mut todo = vec![f.clone()];
    while let Some(g) = todo.pop() {
        if !g.has_future() || !seen.insert(g.clone()) {
            continue;
        }
        match g.op() {
            Op::And | Op::Or | Op::X | Op::G | Op::W | Op::R => {
                todo.extend(g.children().iter().rev().cloned());
            }
            _ => return Some(g),
        }
    }
    None
}

/// Which bad prefixes the automaton rejects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rejects {
    /// All of them: states with an empty language are merged into the
    /// rejecting sink.
    Bad,
    /// The informative ones: where the formula becomes `false`.
    Informative,
}

/// The deterministic automaton of the bad prefixes of `f` (which must
/// satisfy [`applies`]), not minimized.
pub(crate) fn derivative_automaton(
    f: &Formula,
    aps: &Alphabet,
    mgr: &mut Manager,
    rejects: Rejects,
    max_states: usize,
) -> Result<DetAutomaton, BuildError> {
    debug_assert!(applies(f), "{f} is not in the derivative fragment");
    let mut d = Derivatives::new(f, aps, mgr, max_states);
    d.prune = rejects == Rejects::Bad;
    // The start: `f` holds at position 0 (the position after -1).
    let start = d.ex.later(d.mgr, d.aps, 0, f);
    let start = d.pruned(start);
    if start == Node::FALSE {
        return Ok(DetAutomaton::rejecting_all(d.mgr));
    }
    d.state_of(start, 0)?;
    let mut diagrams = Vec::new();
    let mut account = d.mgr.budget().account();
    let mut k = 0;
    while k < d.states.len() {
        let (s, mem) = d.states[k];
        let now = d.compose(s, mem);
        let parts = d.ex.past.partition(mem, d.mgr, d.aps);
        let mut t = d.mgr.leaf(VIOLATION_LEAF);
        for &(guard, next_mem) in parts.iter() {
            // Only the letters of this part lead to `next_mem`: the others
            // must not register states (they would be unreachable).
            let part = d.mgr.and(now, guard);
            let c = d.cut(part, next_mem)?;
            t = d.mgr.ite(guard, c, t);
        }
        diagrams.push(t);
        // The memos of the construction and its states, in the budget.
        // Charged after each state: what one state adds to them is
        // bounded by the nodes it makes, which the node limit and the
        // manager's own charge bound; over the whole automaton they grow
        // as states times the nodes of their diagrams (`G(a -> F[0:k]
        // b)`: k states of k deadlines).
        if !account.set(d.memo_bytes() + vec_bytes::<Node>(diagrams.capacity()))
            || d.mgr.exhausted()
        {
            return Err(BuildError::out_of_memory(d.mgr.budget().limit()));
        }
        k += 1;
    }
    drop(account);
    Ok(match rejects {
        Rejects::Bad => without_doomed_states(d.mgr, diagrams)?,
        Rejects::Informative => {
            let verdicts = vec![Verdict::Undecided; diagrams.len()];
            DetAutomaton { diagrams, verdicts }
        }
    })
}

struct Derivatives<'a> {
    mgr: &'a mut Manager,
    aps: &'a Alphabet,
    ex: Expander,
    max_states: usize,
    /// Whether states lose their conflicting obligations (exact monitors).
    prune: bool,
    compose_cache: FxHashMap<(Node, u32), Node>,
    cut_cache: FxHashMap<(Node, u32), Node>,
    /// The states: a BDD over obligations, and a memory of the past
    /// registers.
    states: Vec<(Node, u32)>,
    index: FxHashMap<(Node, u32), u32>,
}

/// The expansions of a formula's obligations, shared by the eager
/// construction and the lazy monitor ([`crate::lazy::LazyMonitor`]).
///
/// The BDDs live in a manager given to each call; [`Expander::forget`]
/// drops them (the obligations and their variables stay), for a new
/// manager.
#[derive(Clone)]
pub(crate) struct Expander {
    /// The number of propositions: obligation variables come after them.
    base: u32,
    pub(crate) past: PastMachine,
    /// The BDD variable of each obligation `(d, f)`: the *core* `f` (not
    /// `∧`, `∨`, `X` or a constant) holds `d` positions after the current
    /// one. `X` is distributed over `∧` and `∨` down to the cores, so that
    /// `X(b | X b)` and `X b | X X b` are the same two variables.
    var: FxHashMap<(u32, Formula), u32>,
    /// The obligation of each variable, from the first obligation variable.
    obligation: Vec<(u32, Formula)>,
    /// [`Expander::at`].
    cache: FxHashMap<(Option<u32>, Formula, u32), Node>,
    /// For each variable of a propositional obligation, the variables of
    /// the obligations no letter satisfies together with it at the same
    /// offset (`b` and `!b`), found once.
    conflicts: Option<FxHashMap<u32, Vec<u32>>>,
}

/// Every obligation `(d, f)` the construction can meet: each core with
/// the largest offset it is referred to at (it is then met at every
/// smaller offset, as time passes).
///
/// The largest offsets are the longest paths from the root in the graph
/// of subformulas (an `X` adds one, `∧` and `∨` nothing; a core's
/// expansion reaches its operands at the current position, offset −1),
/// found in one pass over the subformulas, parents first. Walking the
/// pairs (offset, subformula) instead met each window of
/// `G[0:k] F[0:k] b` at each of its `k` offsets: `k²` pairs, 3 GB for
/// k = 10,000 before any limit was checked.
fn obligations(f: &Formula) -> Vec<(u32, Formula)> {
    let order = parents_first(f);
    // The largest offset each subformula is reached at (−1: the current
    // position), final when its turn comes (its parents are before it).
    let mut reach: FxHashMap<Formula, i64> = FxHashMap::default();
    reach.insert(f.clone(), 0);
    let mut deepest: FxHashMap<Formula, u32> = FxHashMap::default();
    let raise = |reach: &mut FxHashMap<Formula, i64>, c: &Formula, d: i64| {
        let r = reach.entry(c.clone()).or_insert(d);
        *r = (*r).max(d);
    };
    for g in &order {
        let Some(&d) = reach.get(g) else {
            continue;
        };
        match g.op() {
            Op::True | Op::False => {}
            Op::And | Op::Or => {
                for c in g.children() {
                    raise(&mut reach, c, d);
                }
            }
            Op::X => raise(&mut reach, g.child(0), d + 1),
            // A core now without future operators is read from the
            // letter: no obligation.
            _ if d < 0 && !g.has_future() => {}
            _ => {
                // A core; with future operators, its expansion needs its
                // operands now and itself from the next position on.
                deepest.insert(g.clone(), d.max(0) as u32);
                if g.has_future() {
                    for c in g.children() {
                        raise(&mut reach, c, -1);
                    }
                }
            }
        }
    }
    // Later offsets first (their BDDs are above), then parents first, and
    // operands in the order of the alphabet (left to right), so that the
    // expansion of each obligation goes above what the obligations below
    // it expand to: in the other order, each of the `n` operands of
    // `p0 & … & pn` went to the bottom of the diagram of the others.
    let mut out: Vec<(u32, Formula)> = Vec::new();
    let mut rank = Vec::new();
    for (i, g) in order.iter().enumerate() {
        if let Some(&d) = deepest.get(g) {
            for k in 0..=d {
                out.push((k, g.clone()));
                rank.push(i);
            }
        }
    }
    // Deepest offsets first, then the order of the subformulas.
    let mut by: Vec<usize> = (0..out.len()).collect();
    by.sort_by_key(|&j| (std::cmp::Reverse(out[j].0), rank[j]));
    by.into_iter().map(|j| out[j].clone()).collect()
}

/// [`obligations`] as it was computed, walking every pair (offset,
/// subformula): the reference of the longest paths.
#[cfg(test)]
fn obligations_by_walk(f: &Formula) -> Vec<(u32, Formula)> {
    let mut deepest: FxHashMap<Formula, u32> = FxHashMap::default();
    let mut order: Vec<Formula> = Vec::new();
    let mut todo: Vec<(Option<u32>, Formula)> = vec![(Some(0), f.clone())];
    let mut expanded: rustc_hash::FxHashSet<Formula> = Default::default();
    let mut seen: rustc_hash::FxHashSet<(Option<u32>, Formula)> = Default::default();
    while let Some((d, g)) = todo.pop() {
        if !seen.insert((d, g.clone())) {
            continue;
        }
        match (d, g.op()) {
            (_, Op::True | Op::False) => {}
            (_, Op::And | Op::Or) => todo.extend(g.children().iter().map(|c| (d, c.clone()))),
            (Some(d), Op::X) => todo.push((Some(d + 1), g.child(0).clone())),
            (None, Op::X) => todo.push((Some(0), g.child(0).clone())),
            (Some(d), _) => {
                let e = deepest.entry(g.clone()).or_insert_with(|| {
                    order.push(g.clone());
                    d
                });
                *e = (*e).max(d);
                if g.has_future() && expanded.insert(g.clone()) {
                    todo.push((None, g.clone()));
                }
            }
            (None, _) if !g.has_future() => {}
            (None, _) => {
                todo.extend(g.children().iter().map(|c| (None, c.clone())));
                todo.push((Some(0), g.clone()));
            }
        }
    }
    let rank: FxHashMap<Formula, usize> = parents_first(f)
        .into_iter()
        .enumerate()
        .map(|(i, g)| (g, i))
        .collect();
    let mut out: Vec<(u32, Formula)> = order
        .into_iter()
        .flat_map(|g| {
            let d = deepest[&g];
            (0..=d).map(move |k| (k, g.clone()))
        })
        .collect();
    out.sort_by_key(|(d, g)| {
        (
            std::cmp::Reverse(*d),
            rank.get(g).copied().unwrap_or(usize::MAX),
        )
    });
    out
}

/// The distinct subformulas of `f`, each before its operands and the
/// operands left to right: the reverse of a post-order that visits the
/// operands right to left (iterative, for deep formulas).
fn parents_first(f: &Formula) -> Vec<Formula> {
    let mut seen: rustc_hash::FxHashSet<Formula> = Default::default();
    let mut out = Vec::new();
    let mut stack: Vec<(Formula, bool)> = vec![(f.clone(), false)];
    while let Some((g, expanded)) = stack.pop() {
        if expanded {
            out.push(g);
            continue;
        }
        if !seen.insert(g.clone()) {
            continue;
        }
        stack.push((g.clone(), true));
        stack.extend(
            g.children()
                .iter()
                .filter(|c| !seen.contains(*c))
                .map(|c| (c.clone(), false)),
        );
    }
    out.reverse();
    out
}

impl Expander {
    /// The obligations of `f` (which must satisfy [`applies`]) over the
    /// propositions `aps`.
    pub(crate) fn new(f: &Formula, aps: &Alphabet) -> Expander {
        let base = aps.len() as u32;
        let obligation = obligations(f);
        let var = obligation
            .iter()
            .enumerate()
            .map(|(i, o)| (o.clone(), base + i as u32))
            .collect();
        Expander {
            base,
            past: PastMachine::new(f),
            var,
            obligation,
            cache: FxHashMap::default(),
            conflicts: None,
        }
    }

    /// `s` without the conjunctions of conflicting propositional
    /// obligations (`X b ∧ X ¬b`): the same language, and still monotone
    /// in the obligations, but where the conflict is unsatisfiable rather
    /// than left for the letter to falsify. Obligations being separate
    /// variables, the BDD cannot see that `b` and `¬b` at the same offset
    /// exclude each other, and states carry (and multiply) such dead
    /// disjuncts: a 20-bit counter's states are disjunctions of three
    /// cubes, two of them contradictory. Only for exact monitors:
    /// informative prefixes are syntactic, and see the conflict only when
    /// the letter comes.
    pub(crate) fn without_conflicts(&mut self, mgr: &mut Manager, aps: &Alphabet, s: Node) -> Node {
        let conflicts = self.conflicts(mgr, aps);
        if conflicts.is_empty() {
            s
        } else {
            prune(mgr, conflicts, s, Vec::new(), &mut FxHashMap::default())
        }
    }

    /// The variables that conflict with `v`.
    pub(crate) fn conflicting(&mut self, mgr: &mut Manager, aps: &Alphabet, v: u32) -> &[u32] {
        self.conflicts(mgr, aps).get(&v).map_or(&[], Vec::as_slice)
    }

    fn conflicts(&mut self, mgr: &mut Manager, aps: &Alphabet) -> &FxHashMap<u32, Vec<u32>> {
        if self.conflicts.is_none() {
            self.conflicts = Some(self.find_conflicts(mgr, aps));
        }
        self.conflicts.as_ref().expect("found")
    }

    fn find_conflicts(&mut self, mgr: &mut Manager, aps: &Alphabet) -> FxHashMap<u32, Vec<u32>> {
        let mut cores: Vec<Formula> = Vec::new();
        let mut seen: rustc_hash::FxHashSet<&Formula> = Default::default();
        for (_, f) in &self.obligation {
            if !f.has_future() && !f.has_past() && seen.insert(f) {
                cores.push(f.clone());
            }
        }
        let letters: Vec<Node> = cores
            .iter()
            .map(|f| self.past.eval(f, 0, mgr, aps))
            .collect();
        // Two satisfiable letters over disjoint propositions are satisfied
        // together, so only the cores that share a proposition are
        // compared (and an unsatisfiable one with every other): comparing
        // every pair made `p0 & … & pN` quadratic in time and in nodes.
        let mut by_proposition: FxHashMap<u32, Vec<usize>> = FxHashMap::default();
        let mut never = Vec::new();
        for (i, &l) in letters.iter().enumerate() {
            if l == Node::FALSE {
                never.push(i);
            }
            for v in mgr.support(l) {
                by_proposition.entry(v).or_default().push(i);
            }
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for sharing in by_proposition.values() {
            for (k, &i) in sharing.iter().enumerate() {
                pairs.extend(sharing[k + 1..].iter().map(|&j| (i.min(j), i.max(j))));
            }
        }
        for &i in &never {
            pairs.extend(
                (0..cores.len())
                    .filter(|&j| j != i)
                    .map(|j| (i.min(j), i.max(j))),
            );
        }
        pairs.sort_unstable();
        pairs.dedup();
        // The variables of each core, by offset.
        let mut vars_of: Vec<Vec<(u32, u32)>> = vec![Vec::new(); cores.len()];
        let core_index: FxHashMap<&Formula, usize> =
            cores.iter().enumerate().map(|(i, f)| (f, i)).collect();
        for (&(d, ref f), &v) in &self.var {
            if let Some(&i) = core_index.get(f) {
                vars_of[i].push((d, v));
            }
        }
        let mut out: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        for (i, j) in pairs {
            if mgr.and(letters[i], letters[j]) != Node::FALSE {
                continue;
            }
            for &(d, v) in &vars_of[i] {
                if let Some(&w) = self.var.get(&(d, cores[j].clone())) {
                    out.entry(v).or_default().push(w);
                    out.entry(w).or_default().push(v);
                }
            }
        }
        out
    }

    /// The first obligation variable (those below are propositions).
    pub(crate) fn base(&self) -> u32 {
        self.base
    }

    /// The obligation `(d, f)` of variable `v`: `f` holds `d` positions
    /// after the current one.
    pub(crate) fn obligation(&self, v: u32) -> &(u32, Formula) {
        &self.obligation[(v - self.base) as usize]
    }

    /// Drops every BDD (before the manager they live in is replaced).
    pub(crate) fn forget(&mut self) {
        self.cache.clear();
        self.past.forget_diagrams();
    }

    /// How many expansions are remembered.
    pub(crate) fn cached(&self) -> usize {
        self.cache.len() + self.past.cached()
    }

    /// `f` holds `d` positions after the next one: a BDD over obligation
    /// variables (relative to the next position).
    pub(crate) fn later(&mut self, mgr: &mut Manager, aps: &Alphabet, d: u32, f: &Formula) -> Node {
        self.at(mgr, aps, Some(d), f, 0)
    }

    /// `f` holds at the current position, in memory `mem`: a BDD over the
    /// current letter and the obligations of the next position.
    fn now(&mut self, mgr: &mut Manager, aps: &Alphabet, f: &Formula, mem: u32) -> Node {
        self.at(mgr, aps, None, f, mem)
    }

    /// `f` holds at offset `d` after the next position, or now (`None`).
    ///
    /// Nested `∧`/`∨` (also through `X`: `b ∨ X(b ∨ X b)`) are gathered
    /// into one n-ary operation whose operands are combined deepest
    /// variable first: each step then adds one node above the result so
    /// far, where the nested order would build every suffix (`F[0:k] b`:
    /// `k²/2` nodes). It also keeps the recursion shallow on long `X`
    /// chains.
    fn at(
        &mut self,
        mgr: &mut Manager,
        aps: &Alphabet,
        d: Option<u32>,
        f: &Formula,
        mem: u32,
    ) -> Node {
        // Offsets are obligation variables: only `now` reads the memory.
        let mem = if d.is_none() && f.has_past() { mem } else { 0 };
        match f.op() {
            Op::True => return Node::TRUE,
            Op::False => return Node::FALSE,
            _ => {}
        }
        let key = (d, f.clone(), mem);
        if let Some(&n) = self.cache.get(&key) {
            return n;
        }
        let n = match (d, f.op()) {
            (_, Op::And | Op::Or) => {
                let op = f.op();
                let mut parts = Vec::new();
                let mut todo = vec![(d, f.clone())];
                while let Some((mut d, mut g)) = todo.pop() {
                    if mgr.stopped() {
                        // Over a node limit or the budget: the result is
                        // discarded (`G[0:k] F[0:k] b` gathers `k²`
                        // operands, long after the limit).
                        return Node::FALSE;
                    }
                    // Through X: one offset further.
                    while g.op() == Op::X {
                        d = Some(d.map_or(0, |d| d + 1));
                        g = g.child(0).clone();
                    }
                    if g.op() == op {
                        todo.extend(g.children().iter().map(|c| (d, c.clone())));
                    } else {
                        parts.push(self.at(mgr, aps, d, &g, mem));
                    }
                }
                // Deepest first (a leaf's "top" is past every variable).
                let top = |m: &Manager, n: Node| m.var_of(n).unwrap_or(u32::MAX);
                parts.sort_by_key(|&n| std::cmp::Reverse(top(mgr, n)));
                let and = op == Op::And;
                let mut acc = if and { Node::TRUE } else { Node::FALSE };
                for p in parts {
                    acc = if and { mgr.and(p, acc) } else { mgr.or(p, acc) };
                }
                acc
            }
            (Some(d), Op::X) => self.at(mgr, aps, Some(d + 1), f.child(0), mem),
            (Some(d), _) => {
                let v = self.var[&(d, f.clone())];
                mgr.var(v)
            }
            (None, _) if !f.has_future() => self.past.eval(f, mem, mgr, aps),
            (None, Op::X) => self.at(mgr, aps, Some(0), f.child(0), mem),
            (None, Op::G) => {
                let a = self.now(mgr, aps, f.child(0), mem);
                let me = self.later(mgr, aps, 0, f);
                mgr.and(a, me)
            }
            (None, Op::W | Op::R) => {
                let a = self.now(mgr, aps, f.child(0), mem);
                let b = self.now(mgr, aps, f.child(1), mem);
                let me = self.later(mgr, aps, 0, f);
                if f.op() == Op::W {
                    // b | (a & X f)
                    let stay = mgr.and(a, me);
                    mgr.or(b, stay)
                } else {
                    // b & (a | X f)
                    let stay = mgr.or(a, me);
                    mgr.and(b, stay)
                }
            }
            (None, op) => unreachable!("{op:?} outside the derivative fragment"),
        };
        if !mgr.stopped() {
            self.cache.insert(key, n);
        }
        n
    }

    /// What a state's obligation `v` becomes on reading the current
    /// letter: its expansion now, or the same obligation one position
    /// closer.
    pub(crate) fn step(&mut self, mgr: &mut Manager, aps: &Alphabet, v: u32, mem: u32) -> Node {
        let (d, f) = self.obligation(v).clone();
        if d == 0 {
            self.now(mgr, aps, &f, mem)
        } else {
            let w = self.var[&(d - 1, f)];
            mgr.var(w)
        }
    }
}

impl Expander {
    /// `s` (a BDD over obligations) with every obligation replaced by what
    /// it becomes on reading the current letter in memory `mem`: a BDD
    /// over the letter and the next obligations (`memo` keeps the results
    /// of one manager).
    pub(crate) fn compose(
        &mut self,
        mgr: &mut Manager,
        aps: &Alphabet,
        s: Node,
        mem: u32,
        memo: &mut FxHashMap<(Node, u32), Node>,
    ) -> Node {
        self.compose_with(mgr, aps, s, mem, memo, &mut |_, e| e)
    }

    /// [`Expander::compose`] with each expansion passed through `map`
    /// first (restricted to a letter, for the lazy monitor); `memo` must
    /// not outlive `map`.
    pub(crate) fn compose_with(
        &mut self,
        mgr: &mut Manager,
        aps: &Alphabet,
        s: Node,
        mem: u32,
        memo: &mut FxHashMap<(Node, u32), Node>,
        map: &mut impl FnMut(&mut Manager, Node) -> Node,
    ) -> Node {
        let Some(v) = mgr.var_of(s) else {
            return s;
        };
        if let Some(&n) = memo.get(&(s, mem)) {
            return n;
        }
        let (lo, hi) = mgr.children(s).expect("an inner node");
        let e = self.step(mgr, aps, v, mem);
        let e = map(mgr, e);
        let lo = self.compose_with(mgr, aps, lo, mem, memo, map);
        let hi = self.compose_with(mgr, aps, hi, mem, memo, map);
        let n = mgr.ite(e, hi, lo);
        memo.insert((s, mem), n);
        n
    }
}

impl<'a> Derivatives<'a> {
    fn new(f: &Formula, aps: &'a Alphabet, mgr: &'a mut Manager, max_states: usize) -> Self {
        Derivatives {
            ex: Expander::new(f, aps),
            mgr,
            aps,
            max_states,
            prune: false,
            compose_cache: FxHashMap::default(),
            cut_cache: FxHashMap::default(),
            states: Vec::new(),
            index: FxHashMap::default(),
        }
    }

    /// A state's BDD with every obligation replaced by what it becomes on
    /// reading the current letter in memory `mem`.
    fn compose(&mut self, s: Node, mem: u32) -> Node {
        self.ex
            .compose(self.mgr, self.aps, s, mem, &mut self.compose_cache)
    }

    /// The transition diagram of an expansion: its proposition layer, with
    /// each sub-BDD over obligations (a successor) replaced by the leaf of
    /// its state (in memory `mem`), `false` by the rejecting sink.
    fn cut(&mut self, n: Node, mem: u32) -> Result<Node, BuildError> {
        if n == Node::FALSE {
            return Ok(self.mgr.leaf(VIOLATION_LEAF));
        }
        let v = match self.mgr.var_of(n) {
            Some(v) if v < self.ex.base() => v,
            _ => {
                let s = self.pruned(n);
                if s == Node::FALSE {
                    return Ok(self.mgr.leaf(VIOLATION_LEAF));
                }
                let q = self.state_of(s, mem)?;
                return Ok(self.mgr.leaf(q));
            }
        };
        if let Some(&c) = self.cut_cache.get(&(n, mem)) {
            return Ok(c);
        }
        let (lo, hi) = self.mgr.children(n).expect("an inner node");
        let lo = self.cut(lo, mem)?;
        let hi = self.cut(hi, mem)?;
        let c = self.mgr.mk(v, lo, hi);
        self.cut_cache.insert((n, mem), c);
        Ok(c)
    }

    /// `s` without conflicting propositional obligations, for exact
    /// monitors ([`Expander::without_conflicts`]).
    fn pruned(&mut self, s: Node) -> Node {
        if self.prune {
            self.ex.without_conflicts(self.mgr, self.aps, s)
        } else {
            s
        }
    }

    /// The bytes of the memos, the states and their index.
    fn memo_bytes(&self) -> usize {
        type Entry = ((Node, u32), Node);
        table_bytes::<Entry>(self.compose_cache.capacity())
            + table_bytes::<Entry>(self.cut_cache.capacity())
            + table_bytes::<((Node, u32), u32)>(self.index.capacity())
            + vec_bytes::<(Node, u32)>(self.states.capacity())
            + table_bytes::<((Option<u32>, Formula, u32), Node)>(self.ex.cache.capacity())
    }

    fn state_of(&mut self, s: Node, mem: u32) -> Result<u32, BuildError> {
        if let Some(&q) = self.index.get(&(s, mem)) {
            return Ok(q);
        }
        if self.states.len() >= self.max_states {
            return Err(BuildError::too_many_states(
                "derivative automaton",
                self.max_states,
            ));
        }
        let q = self.states.len() as u32;
        self.states.push((s, mem));
        self.index.insert((s, mem), q);
        Ok(q)
    }
}

/// The monotone BDD `s` without its cubes (paths to `true`, read as
/// conjunctions of their positive variables) that contain a conflicting
/// pair, with the variables `forbidden` (sorted) false: one pass, where
/// the cubes through the high branch of `v` have the variables
/// conflicting with `v` forbidden below it.
fn prune(
    mgr: &mut Manager,
    conflicts: &FxHashMap<u32, Vec<u32>>,
    s: Node,
    mut forbidden: Vec<u32>,
    memo: &mut FxHashMap<(Node, Vec<u32>), Node>,
) -> Node {
    let Some(v) = mgr.var_of(s) else {
        return s;
    };
    forbidden.retain(|&w| w >= v);
    let (lo, hi) = mgr.children(s).expect("an inner node");
    if forbidden.first() == Some(&v) {
        return prune(mgr, conflicts, lo, forbidden, memo);
    }
    if let Some(&r) = memo.get(&(s, forbidden.clone())) {
        return r;
    }
    let key = (s, forbidden.clone());
    let lo_pruned = prune(mgr, conflicts, lo, forbidden.clone(), memo);
    if let Some(ws) = conflicts.get(&v) {
        forbidden.extend_from_slice(ws);
        forbidden.sort_unstable();
        forbidden.dedup();
    }
    let hi_pruned = prune(mgr, conflicts, hi, forbidden, memo);
    // Monotone again: the high branch keeps the cubes without `v`.
    let hi_pruned = mgr.or(hi_pruned, lo_pruned);
    let r = mgr.mk(v, lo_pruned, hi_pruned);
    memo.insert(key, r);
    r
}

/// Merges into the rejecting sink every state from which every path is
/// rejected (an empty language), and renumbers the others in order.
fn without_doomed_states(
    mgr: &mut Manager,
    diagrams: Vec<Node>,
) -> Result<DetAutomaton, BuildError> {
    let n = diagrams.len();
    // The successor lists and their reverse, charged as they are listed:
    // `n` states can have `n²` edges (`G(a0 -> X b0) & … & G(a13 -> X
    // b13)`: 2^14 states, each reaching every other; 3 GB).
    let mut account = mgr.budget().account();
    let mut succ: Vec<Vec<u32>> = Vec::with_capacity(n);
    for &d in &diagrams {
        let mut l = mgr.leaves(d);
        l.retain(|&q| q != VIOLATION_LEAF);
        let bytes = vec_bytes::<u32>(l.capacity())
            + vec_bytes::<usize>(l.len())
            + 2 * std::mem::size_of::<Vec<u32>>();
        if !account.add(bytes) {
            return Err(BuildError::out_of_memory(mgr.budget().limit()));
        }
        succ.push(l);
    }
    // Doomed: every path is finite, i.e. ends in the sink.
    let doomed = finite_paths_only(&succ, &vec![true; n]);
    drop((succ, account));
    if doomed[0] {
        return Ok(DetAutomaton::rejecting_all(mgr));
    }
    let mut number = vec![VIOLATION_LEAF; n];
    let mut next = 0;
    for q in 0..n {
        if !doomed[q] {
            number[q] = next;
            next += 1;
        }
    }
    let mut cache = ApplyCache::default();
    let diagrams: Vec<Node> = diagrams
        .into_iter()
        .enumerate()
        .filter(|&(q, _)| !doomed[q])
        .map(|(_, d)| {
            mgr.map_leaves(d, &mut cache, &mut |q| {
                if q == VIOLATION_LEAF {
                    q
                } else {
                    number[q as usize]
                }
            })
        })
        .collect();
    let verdicts = vec![Verdict::Undecided; diagrams.len()];
    Ok(DetAutomaton { diagrams, verdicts })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::RandomLtl;
    use crate::formula::{parse, Op};

    /// The longest paths find the obligations the walk of every (offset,
    /// subformula) pair found, in the same order: on random formulas of
    /// the fragment (with past operands, and shared subformulas), and on
    /// windows.
    #[test]
    fn obligations_are_the_longest_paths() {
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 14)
            .with_past()
            .weight(Op::X, 4)
            .weight(Op::And, 3)
            .weight(Op::Or, 3)
            .weight(Op::U, 0)
            .weight(Op::M, 0)
            .weight(Op::F, 0)
            .seed(36);
        let mut checked = 0;
        for _ in 0..3000 {
            let f = random_ltl.next_formula().nnf();
            if !applies(&f) {
                continue;
            }
            assert_eq!(obligations(&f), obligations_by_walk(&f), "{f}");
            checked += 1;
        }
        assert!(checked > 1000, "{checked} formulas of the fragment");
        for text in [
            "G[0:20] F[0:30] b",
            "G(a -> F[0:10] X[3] b) & X[5] G(c W X d)",
            "X(G(a R Xb) | XX G b) & (XXa W (b & Xa))",
            "G(a -> (Y b & X(c | H d)))",
        ] {
            let f = parse(text).unwrap().nnf();
            assert!(applies(&f), "{text}");
            assert_eq!(obligations(&f), obligations_by_walk(&f), "{text}");
        }
    }
}
