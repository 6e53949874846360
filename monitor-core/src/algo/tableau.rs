//! LTL with past to transition-based generalized Büchi automata.
//!
//! A tableau construction in the manner of Couvreur's (FM'99) and Spot's
//! `ltl_to_tgba_fm`, on formulas in negation normal form:
//!
//! * A state is a pair (obligations, past memory). The obligations are a
//!   conjunction of subformulas that must hold from the next position on;
//!   the memory holds the registers of the past subformulas (below).
//! * The *expansion* of a formula is a list of terms `(guard, next,
//!   promises)`: the letters in `guard` can be read now if the formulas in
//!   `next` hold from the next position; `promises` are the eventualities
//!   (`U`, `F`, `M` subformulas) postponed by this choice. Expansions
//!   follow the fixpoint laws, e.g. `a U b = b | (a & X(a U b))`.
//! * The edge built from a term is in the acceptance set of every
//!   eventuality it does not postpone: a run is accepting iff no
//!   eventuality is postponed forever.
//! * Terms are simplified by *domination*: a term whose obligations and
//!   promises include those of another term is not needed on the letters
//!   of that other term (its runs can switch to the other term's weaker
//!   obligations; the semantic, eagerly-fulfilling run is always kept), so
//!   its guard is reduced. This removes most nondeterminism.
//!
//! # Past
//!
//! Past subformulas are evaluated, not guessed: every past operator gets
//! a register holding its value (or, for `Y` and `Z`, its operand's value)
//! at the previous position, so the value of a past formula at the current
//! position is a Boolean function of the registers and the current letter.
//! The registers are part of the state and are updated deterministically.
//! This requires the operands of past operators to be past formulas; a
//! past operator over a future formula is rejected by the translator.
//!
//! # PSL
//!
//! SEREs are expanded by their linear forms ([`super::sere`]), made
//! deterministic letter by letter: the letters are partitioned by the
//! union `r'` of the residuals whose guards they satisfy (Brzozowski's
//! derivative, up to the normalization of `|`). The obligation
//! `{r} |-> f` reads one letter and leaves `{r'} |-> f` (and `f` now if
//! `r'` accepts the empty word), `{r} <>-> f` either ends a match or
//! leaves `{r'} <>-> f`, the weak closure `{r}` lives while `r'` can be
//! completed to a match, and `!{r}` waits for it to die. These rest on
//! `{r1|r2} |-> f = ({r1} |-> f) & ({r2} |-> f)`, `{r1|r2} = {r1} | {r2}`
//! and their duals, so one obligation per instance is enough.
//!
//! `{r} <>-> f` and `!{r}` are eventualities, and when `r` has unbounded
//! repetitions their residuals form cycles of *different* formulas, so
//! Couvreur's one-mark-per-formula acceptance is wrong for them (two
//! overlapping instances can keep the family pending forever although
//! each one is fulfilled). They use a breakpoint instead (Miyano–Hayashi,
//! as Spot's `<>+>`): the *marked* copies are the instances owed since
//! the last breakpoint; an edge whose destination holds no marked
//! obligation is accepting for the breakpoint mark, and marks every
//! pending instance of its destination.
//!
//! # Informative mode
//!
//! Without acceptance conditions and with the `true` obligation as the
//! only final state, the same automaton, read on finite words, accepts
//! exactly the prefixes on which the formula is *informatively* satisfied
//! (Kupferman–Vardi): every obligation discharged within the word. Built
//! for `!φ`, it accepts the informative bad prefixes of `φ`: this is the
//! forward version of Latvala's `translate` (Latvala03, §3.2).

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::past::PastMachine;
use super::sere::Seres;
use crate::automaton::{edges_bytes, Alphabet, Marks, Nba, NbaEdge};
use crate::budget::{vec_bytes, Account};
use crate::dd::{Manager, Node};
use crate::error::BuildError;
use crate::formula::simplify::Implications;
use crate::formula::{Formula, Op};

/// One choice of the expansion of a formula.
#[derive(Clone, Debug)]
struct Term {
    guard: Node,
    /// Local numbers of the obligations (see `Tableau::formulas`), sorted,
    /// deduplicated, without `true`; `And`s flattened.
    next: Vec<u32>,
    /// Postponed eventualities (indices).
    promises: Marks,
}

/// What the tableau builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableauMode {
    /// A generalized Büchi automaton of the formula.
    Buchi,
    /// No acceptance; the `true` obligation is reported as final (for the
    /// informative-prefix automaton).
    Finite,
}

/// The result of the tableau construction.
pub(crate) struct TableauAutomaton {
    pub nba: Nba,
    /// Per state: whether its obligations are `true` (all discharged).
    pub discharged: Vec<bool>,
    /// The bytes of `nba`, in the construction's budget while it lives.
    _account: Account,
}

impl Term {
    /// The bytes of the term (for the byte budget).
    fn bytes(&self) -> usize {
        std::mem::size_of::<Term>()
            + vec_bytes::<u32>(self.next.capacity())
            + self.promises.heap_bytes()
    }
}

/// The bytes of the product of `xs` and `ys`, before it is made: each
/// pair may give a term with the obligations and marks of both.
fn product_bytes(xs: &[Term], ys: &[Term]) -> usize {
    let x = xs.iter().map(Term::bytes).max().unwrap_or(0);
    let y = ys.iter().map(Term::bytes).max().unwrap_or(0);
    xs.len().saturating_mul(ys.len()).saturating_mul(x + y)
}

pub(crate) struct Tableau<'a> {
    mgr: &'a mut Manager,
    aps: &'a Alphabet,
    eventualities: FxHashMap<Formula, usize>,
    past: PastMachine,
    /// Obligations get local numbers: terms then hold plain integers
    /// (cheap to copy, sort and compare; no reference counting).
    formulas: Vec<Formula>,
    numbers: FxHashMap<Formula, u32>,
    /// Per obligation number: how many `X` lead the formula.
    x_depth: Vec<u32>,
    /// Keyed by obligation, memory state and `cut`.
    terms: FxHashMap<(u32, u32, bool), Rc<[Term]>>,
    /// The bytes of `terms`, in the construction's budget (the expansions
    /// of `p0 U p1 U … U pn` hold `n²/2` terms of `n` marks each).
    terms_account: Account,
    implications: Implications,
    /// `implies[j][i]`: whether obligation `j` implies obligation `i`
    /// (0: not known yet, 1: no, 2: yes). Dense: numbers are small.
    implies: Vec<Vec<u8>>,
    mode: TableauMode,
    seres: Seres,
    /// Whether the terms being built are those of an operand of `abort`,
    /// whose word may go on with ⊤ or ⊥ letters (see [`Tableau::keeps`]).
    cut: bool,
    /// Whether some SERE eventuality needs the breakpoint (its mark is
    /// the last one).
    breakpoint: bool,
}

/// Whether `f` is a SERE eventuality tracked by the breakpoint (possibly
/// inside `abort`).
fn tracked(f: &Formula) -> bool {
    match f.op() {
        Op::EConcat | Op::NegClosure => f.child(0).has_unbounded_repetition(),
        Op::Abort | Op::AbortBottom => tracked(f.child(0)),
        _ => false,
    }
}

/// Whether `f` is a marked SERE eventuality (possibly inside `abort`).
fn is_marked(f: &Formula) -> bool {
    match f.op() {
        Op::EConcatMarked | Op::NegClosureMarked => true,
        Op::Abort | Op::AbortBottom => is_marked(f.child(0)),
        _ => false,
    }
}

/// The marked copy of a tracked SERE eventuality.
fn marked(f: &Formula) -> Formula {
    match f.op() {
        Op::EConcat => Formula::econcat_marked(f.child(0).clone(), f.child(1).clone()),
        Op::NegClosure => Formula::neg_closure_marked(f.child(0).clone()),
        Op::Abort => Formula::abort(marked(f.child(0)), f.child(1).clone()),
        Op::AbortBottom => Formula::abort_bottom(marked(f.child(0)), f.child(1).clone()),
        _ => f.clone(),
    }
}

impl<'a> Tableau<'a> {
    /// Translates `f`, which must be in negation normal form, have no past
    /// operator over a future formula, and use only propositions of `aps`.
    pub(crate) fn translate(
        f: &Formula,
        aps: &'a Alphabet,
        mgr: &'a mut Manager,
        mode: TableauMode,
        max_states: usize,
    ) -> Result<TableauAutomaton, BuildError> {
        debug_assert!(f.is_nnf(), "{f} is not in NNF");
        let mut eventualities = FxHashMap::default();
        if mode == TableauMode::Buchi {
            for g in f.subformulas_postorder() {
                if g.has_future() && matches!(g.op(), Op::U | Op::F | Op::M) {
                    let n = eventualities.len();
                    eventualities.insert(g, n);
                }
            }
        }
        let terms_account = mgr.budget().account();
        let seres = Seres::with_budget(mgr.budget().clone());
        // The memo of implications in the budget: past it, obligations
        // are compared less (kept, never dropped wrongly).
        let implications = Implications::within(usize::MAX, mgr.budget());
        let mut t = Tableau {
            mgr,
            aps,
            eventualities,
            past: PastMachine::new(f),
            formulas: Vec::new(),
            numbers: FxHashMap::default(),
            x_depth: Vec::new(),
            terms: FxHashMap::default(),
            terms_account,
            implications,
            implies: Vec::new(),
            mode,
            seres,
            cut: false,
            breakpoint: mode == TableauMode::Buchi && f.subformulas_postorder().iter().any(tracked),
        };
        t.build(f, max_states)
    }

    fn build(&mut self, f: &Formula, max_states: usize) -> Result<TableauAutomaton, BuildError> {
        let all = Marks::all(self.eventualities.len());
        let bp_mark = self.eventualities.len();
        // A state is a set of obligations (sorted numbers) and a memory.
        type Key = (Rc<[u32]>, u32);
        let mut index: FxHashMap<Key, u32> = FxHashMap::default();
        let mut keys: Vec<Key> = Vec::new();
        let mut nba = Nba {
            num_marks: self.eventualities.len() + usize::from(self.breakpoint),
            ..Nba::default()
        };
        let mut init: Vec<u32> = self.obligation(f);
        init.sort_unstable();
        init.dedup();
        let init: Key = (Rc::from(init), 0u32);
        index.insert(init.clone(), 0);
        keys.push(init);
        nba.init = Some(0);
        // The automaton, the states' keys and their index, in the budget.
        let mut account = self.mgr.budget().account();
        let mut bytes = 0usize;
        let mut s = 0usize;
        while s < keys.len() {
            let (set, mem) = keys[s].clone();
            let terms = self.state_terms(&set, mem);
            let parts = self.past.partition(mem, self.mgr, self.aps);
            let mut edges = Vec::new();
            for term in terms.iter() {
                let mut next = self.reduce(term.next.clone());
                let mut marks = all.difference(&term.promises);
                if self.breakpoint && self.apply_breakpoint(&mut next) {
                    marks.insert(bp_mark);
                }
                let dest: Rc<[u32]> = Rc::from(next.as_slice());
                for &(pg, next_mem) in parts.iter() {
                    let guard = self.mgr.and(term.guard, pg);
                    if guard == Node::FALSE {
                        continue;
                    }
                    let key = (dest.clone(), next_mem);
                    let dst = match index.get(&key) {
                        Some(&d) => d,
                        None => {
                            let d = keys.len() as u32;
                            if keys.len() >= max_states {
                                return Err(BuildError::too_many_states(
                                    "Büchi automaton",
                                    max_states,
                                ));
                            }
                            index.insert(key.clone(), d);
                            keys.push(key);
                            d
                        }
                    };
                    edges.push(NbaEdge {
                        guard,
                        dst,
                        marks: marks.clone(),
                    });
                }
            }
            bytes += edges_bytes(&edges)
                + std::mem::size_of::<Vec<NbaEdge>>()
                + 2 * (std::mem::size_of::<Key>() + 8 + 4 * set.len());
            if !account.set(bytes) || self.mgr.exhausted() {
                return Err(BuildError::out_of_memory(self.mgr.budget().limit()));
            }
            nba.states.push(edges);
            s += 1;
        }
        nba.merge_parallel_edges(self.mgr);
        let discharged = keys.iter().map(|(set, _)| set.is_empty()).collect();
        drop((index, keys));
        account.set(nba.heap_bytes());
        Ok(TableauAutomaton {
            nba,
            discharged,
            _account: account,
        })
    }

    /// The breakpoint on a destination: if it owes no marked obligation,
    /// the edge is accepting and every tracked obligation becomes marked
    /// (owed until the next breakpoint). Otherwise unmarked copies of
    /// marked obligations are dropped (the marked copy carries them).
    fn apply_breakpoint(&mut self, next: &mut Vec<u32>) -> bool {
        let owes = next.iter().any(|&n| is_marked(&self.formulas[n as usize]));
        if owes {
            let mut out = Vec::with_capacity(next.len());
            for &n in next.iter() {
                let f = self.formulas[n as usize].clone();
                if tracked(&f)
                    && self.numbers.contains_key(&marked(&f))
                    && next.contains(&self.numbers[&marked(&f)])
                {
                    continue;
                }
                out.push(n);
            }
            *next = out;
            return false;
        }
        let mut out: Vec<u32> = Vec::with_capacity(next.len());
        for &n in next.iter() {
            let f = self.formulas[n as usize].clone();
            out.push(if tracked(&f) {
                self.number(&marked(&f))
            } else {
                n
            });
        }
        out.sort_unstable();
        out.dedup();
        *next = out;
        true
    }

    /// The expansion of a conjunction of obligations.
    fn state_terms(&mut self, set: &[u32], mem: u32) -> Rc<[Term]> {
        match set {
            [] => self.single(Node::TRUE, Vec::new(), Marks::empty()),
            [one] => {
                let f = self.formulas[*one as usize].clone();
                self.terms(&f, mem)
            }
            _ => {
                // Multiply the smallest expansions first: single-term
                // obligations (literals, X) constrain the guards early, so
                // the intermediate lists stay small.
                let mut parts: Vec<Rc<[Term]>> = Vec::with_capacity(set.len());
                for &c in set {
                    let f = self.formulas[c as usize].clone();
                    parts.push(self.terms(&f, mem));
                }
                parts.sort_by_key(|p| p.len());
                let mut acc: Vec<Term> = parts[0].to_vec();
                // The products are charged before they are made: the
                // expansion of one state can be exponential in its
                // obligations (`Fp0 & … & Fp2999`: one term per subset of
                // the `p` that hold).
                let mut account = self.mgr.budget().account();
                // The obligations of the terms are sorted once, at the
                // end: merging them into a new sorted list at each part
                // made a state of `k` obligations cost `k²` (the pending
                // counts of `always next_event(b)[k] c`, in `k` states).
                for p in &parts[1..] {
                    if acc.is_empty() {
                        break;
                    }
                    let held = acc.iter().map(Term::bytes).sum::<usize>();
                    if !account.set(held.saturating_add(product_bytes(&acc, p))) {
                        // The budget is marked exceeded: the caller fails.
                        acc.clear();
                        break;
                    }
                    acc = self.product_unsorted(acc, p);
                }
                for t in &mut acc {
                    t.next.sort_unstable();
                    t.next.dedup();
                }
                Rc::from(self.simplify(acc))
            }
        }
    }

    fn single(&self, guard: Node, next: Vec<u32>, promises: Marks) -> Rc<[Term]> {
        if guard == Node::FALSE {
            return Rc::from(Vec::new());
        }
        Rc::from(vec![Term {
            guard,
            next,
            promises,
        }])
    }

    fn promise(&self, f: &Formula) -> Marks {
        let mut m = Marks::empty();
        if let Some(&i) = self.eventualities.get(f) {
            m.insert(i);
        }
        m
    }

    fn number(&mut self, f: &Formula) -> u32 {
        if let Some(&n) = self.numbers.get(f) {
            return n;
        }
        let n = self.formulas.len() as u32;
        let mut depth = 0;
        let mut g = f;
        while g.op() == Op::X {
            depth += 1;
            g = g.child(0);
        }
        self.formulas.push(f.clone());
        self.x_depth.push(depth);
        self.numbers.insert(f.clone(), n);
        n
    }

    /// The obligations `f` stands for, as sorted numbers. Under an
    /// `abort`, `true` is one too: the obligation goes on under the abort,
    /// and `true` fails on ⊥ letters (after a cut of the dual).
    fn obligation(&mut self, f: &Formula) -> Vec<u32> {
        let mut v: Vec<u32> = match f.op() {
            Op::True if !self.cut => Vec::new(),
            Op::And => f.children().iter().map(|c| self.number(c)).collect(),
            _ => vec![self.number(f)],
        };
        v.sort_unstable();
        v
    }

    /// The expansion of `f` in memory `mem`.
    fn terms(&mut self, f: &Formula, mem: u32) -> Rc<[Term]> {
        // Formulas without past operators do not depend on the memory.
        let mem = if f.has_past() { mem } else { 0 };
        let key = (self.number(f), mem, self.cut);
        if let Some(t) = self.terms.get(&key) {
            return t.clone();
        }
        if self.mgr.exhausted() {
            // Out of budget: whatever is returned is discarded (the state
            // loop fails), so stop expanding at once.
            return Rc::from(Vec::new());
        }
        let none = Marks::empty;
        let r: Rc<[Term]> = if !f.has_future() {
            let g = self.past.eval(f, mem, self.mgr, self.aps);
            self.single(g, Vec::new(), none())
        } else {
            match f.op() {
                Op::And => {
                    let set: Vec<u32> = f.children().iter().map(|c| self.number(c)).collect();
                    self.state_terms(&set, mem)
                }
                Op::Or => {
                    let mut all = Vec::new();
                    for c in f.children() {
                        all.extend(self.terms(c, mem).iter().cloned());
                    }
                    Rc::from(self.simplify(all))
                }
                Op::X => {
                    let next = self.obligation(f.child(0));
                    self.single(Node::TRUE, next, none())
                }
                Op::F | Op::G => {
                    let a = self.terms(f.child(0), mem);
                    let promise = if f.op() == Op::F {
                        self.promise(f)
                    } else {
                        none()
                    };
                    let me = self.number(f);
                    let stay = self.single(Node::TRUE, vec![me], promise);
                    let v = if f.op() == Op::F {
                        a.iter().chain(stay.iter()).cloned().collect()
                    } else {
                        self.product(&a, &stay)
                    };
                    Rc::from(self.simplify(v))
                }
                Op::U | Op::W | Op::R | Op::M => {
                    let a = self.terms(f.child(0), mem);
                    let b = self.terms(f.child(1), mem);
                    let promise = if matches!(f.op(), Op::U | Op::M) {
                        self.promise(f)
                    } else {
                        none()
                    };
                    let me = self.number(f);
                    let stay = self.single(Node::TRUE, vec![me], promise);
                    let v = if matches!(f.op(), Op::U | Op::W) {
                        // b | (a & X f)
                        let mut v: Vec<Term> = b.to_vec();
                        v.extend(self.product(&a, &stay));
                        v
                    } else {
                        // b & (a | X f)
                        let either: Vec<Term> = a.iter().chain(stay.iter()).cloned().collect();
                        self.product(&b, &either)
                    };
                    Rc::from(self.simplify(v))
                }
                Op::UConcat => self.uconcat_terms(f.child(0), f.child(1), mem),
                Op::EConcat | Op::EConcatMarked => {
                    self.econcat_terms(f.child(0), f.child(1), f.op() == Op::EConcatMarked, mem)
                }
                // Seed 003's strong finite semantics: `{r}` is `{r}!`. Its
                // negation `!{r}` is discharged when the prefix can no
                // longer be completed, as on infinite words: with letters
                // satisfying every Boolean (IEEE 1850's ⊤), so that an
                // informative bad prefix is always a bad prefix.
                Op::Closure if self.mode == TableauMode::Finite => {
                    self.econcat_terms(f.child(0), &Formula::tt(), false, mem)
                }
                Op::Closure => self.closure_terms(f.child(0), mem),
                Op::Abort | Op::AbortBottom => {
                    self.abort_terms(f.child(0), f.child(1), f.op() == Op::Abort, mem)
                }
                Op::NegClosure | Op::NegClosureMarked => {
                    self.neg_closure_terms(f.child(0), f.op() == Op::NegClosureMarked, mem)
                }
                op => unreachable!("{op:?} in an NNF formula with future operators"),
            }
        };
        // The list, its entry, and the budget's verdict: over it, the
        // budget is marked exceeded and the state loop fails.
        let bytes = r.iter().map(Term::bytes).sum::<usize>() + 48;
        self.terms_account.add(bytes);
        self.terms.insert(key, r.clone());
        r
    }

    /// `f abort b` (`top`) and its dual (`!top`): at the first `b` the
    /// letters become ⊤ (resp. ⊥) for good, so the pending `f` is decided
    /// by its value on the constant word; before it, `f` is expanded on
    /// the real letter and each obligation it leaves stays under the same
    /// abort (the cut is the same for all of them).
    fn abort_terms(&mut self, f: &Formula, b: &Formula, top: bool, mem: u32) -> Rc<[Term]> {
        let cond = self.past.eval(b, mem, self.mgr, self.aps);
        let mut all = Vec::new();
        if self.seres.on_constant_word(f, top) {
            all.extend(
                self.single(cond, Vec::new(), Marks::empty())
                    .iter()
                    .cloned(),
            );
        }
        let before = self.mgr.not(cond);
        let outer = std::mem::replace(&mut self.cut, true);
        let inner = self.terms(f, mem);
        self.cut = outer;
        for t in inner.iter() {
            let guard = self.mgr.and(t.guard, before);
            if guard == Node::FALSE {
                continue;
            }
            let mut next = Vec::with_capacity(t.next.len());
            for &o in &t.next {
                let g = self.formulas[o as usize].clone();
                let wrapped = if top {
                    Formula::abort(g, b.clone())
                } else {
                    Formula::abort_bottom(g, b.clone())
                };
                next.extend(self.obligation(&wrapped));
            }
            next.sort_unstable();
            next.dedup();
            all.push(Term {
                guard,
                next,
                promises: t.promises.clone(),
            });
        }
        Rc::from(self.simplify(all))
    }

    /// The letters partitioned by the residual of `r` they lead to: the
    /// union of the residuals of the steps whose guards they satisfy (a
    /// deterministic step, as Brzozowski's derivatives: one obligation per
    /// instance of a SERE operator instead of one per residual, which
    /// keeps the automaton small when residuals are nondeterministic).
    /// Letters that satisfy no guard are in no class.
    fn sere_classes(&mut self, r: &Formula, mem: u32) -> Vec<(Node, Formula)> {
        let form = self.seres.linear_form(r);
        let mut parts: Vec<(Node, Vec<Formula>)> = vec![(Node::TRUE, Vec::new())];
        for (b, s) in form.iter() {
            let g = self.past.eval(b, mem, self.mgr, self.aps);
            if g == Node::FALSE {
                continue;
            }
            let mut next = Vec::with_capacity(parts.len() * 2);
            for (p, members) in parts {
                let inside = self.mgr.and(p, g);
                let outside = self.mgr.diff(p, g);
                if inside != Node::FALSE {
                    let mut m = members.clone();
                    m.push(s.clone());
                    next.push((inside, m));
                }
                if outside != Node::FALSE {
                    next.push((outside, members));
                }
            }
            parts = next;
        }
        parts
            .into_iter()
            .filter(|(_, m)| !m.is_empty())
            .map(|(g, m)| (g, Formula::sere_or(m)))
            .collect()
    }

    /// The letters in no class of `classes`.
    fn outside(&mut self, classes: &[(Node, Formula)]) -> Node {
        let mut any = Node::FALSE;
        for (g, _) in classes {
            any = self.mgr.or(any, *g);
        }
        self.mgr.not(any)
    }

    /// Whether the residual `u` of a SERE is kept as an obligation: while
    /// real letters can still complete it, and under an `abort` while ⊤
    /// letters can (they satisfy `false`: `({true;false}!) abort b` holds
    /// on !b b b …, where the residual `false` meets the cut).
    fn keeps(&mut self, u: &Formula) -> bool {
        self.seres.alive(u) || (self.cut && self.seres.top_match(u))
    }

    /// `{r} |-> f`: `f` now if the letter ends a match, and `{r'} |-> f`
    /// next while the residual `r'` can still match.
    fn uconcat_terms(&mut self, r: &Formula, f: &Formula, mem: u32) -> Rc<[Term]> {
        let classes = self.sere_classes(r, mem);
        let off = self.outside(&classes);
        let mut all = self.single(off, Vec::new(), Marks::empty()).to_vec();
        for (g, u) in classes {
            let next = if self.keeps(&u) {
                self.obligation(&Formula::uconcat(u.clone(), f.clone()))
            } else {
                Vec::new()
            };
            let on = self.single(g, next, Marks::empty());
            if u.accepts_empty_word() {
                let now = self.terms(f, mem);
                all.extend(self.product(&on, &now));
            } else {
                all.extend(on.iter().cloned());
            }
        }
        Rc::from(self.simplify(all))
    }

    /// `{r} <>-> f`: the letter ends a match where `f` holds now, or the
    /// residual goes on as `{r'} <>-> f` (marked if this one is).
    fn econcat_terms(&mut self, r: &Formula, f: &Formula, is_marked: bool, mem: u32) -> Rc<[Term]> {
        let mut all: Vec<Term> = Vec::new();
        for (g, u) in self.sere_classes(r, mem) {
            if u.accepts_empty_word() {
                let now = self.terms(f, mem);
                let here = self.single(g, Vec::new(), Marks::empty());
                all.extend(self.product(&here, &now));
            }
            if self.keeps(&u) {
                let rest = if is_marked {
                    Formula::econcat_marked(u.clone(), f.clone())
                } else {
                    Formula::econcat(u.clone(), f.clone())
                };
                let next = self.obligation(&rest);
                all.extend(self.single(g, next, Marks::empty()).iter().cloned());
            }
        }
        Rc::from(self.simplify(all))
    }

    /// The weak closure `{r}`: the letter ends a match, or leaves a
    /// residual that letters satisfying every Boolean can still complete.
    fn closure_terms(&mut self, r: &Formula, mem: u32) -> Rc<[Term]> {
        let mut all: Vec<Term> = Vec::new();
        for (g, u) in self.sere_classes(r, mem) {
            if u.accepts_empty_word() {
                all.extend(self.single(g, Vec::new(), Marks::empty()).iter().cloned());
            } else if self.seres.completable(&u) {
                let next = self.obligation(&Formula::closure(u.clone()));
                all.extend(self.single(g, next, Marks::empty()).iter().cloned());
            }
        }
        Rc::from(self.simplify(all))
    }

    /// `!{r}`: no match ends now, and the residual is dead or must die
    /// later.
    fn neg_closure_terms(&mut self, r: &Formula, is_marked: bool, mem: u32) -> Rc<[Term]> {
        let classes = self.sere_classes(r, mem);
        let off = self.outside(&classes);
        let mut all = self.single(off, Vec::new(), Marks::empty()).to_vec();
        for (g, u) in classes {
            if u.accepts_empty_word() {
                continue;
            }
            let next = if self.seres.completable(&u) {
                let rest = if is_marked {
                    Formula::neg_closure_marked(u.clone())
                } else {
                    Formula::neg_closure(u.clone())
                };
                self.obligation(&rest)
            } else {
                Vec::new()
            };
            all.extend(self.single(g, next, Marks::empty()).iter().cloned());
        }
        Rc::from(self.simplify(all))
    }

    /// Removes from a set of obligations those implied by another one
    /// (the conjunction is unchanged). Without this, pending deadlines
    /// such as `F[0:3] b` and `F[0:7] b` would coexist and bounded
    /// response properties would need exponentially many states.
    ///
    /// Only obligations with the same number of leading `X` are compared:
    /// that is where implied obligations pile up, and it keeps the cost
    /// far below all pairs on states with many pending `X` obligations.
    fn reduce(&mut self, next: Vec<u32>) -> Vec<u32> {
        /// Comparisons always allowed (all pairs of 64 obligations).
        const MIN_REDUCE_PAIRS: usize = 1 << 12;
        if next.len() < 2 {
            return next;
        }
        let mut keep = vec![true; next.len()];
        // A budget of comparisons: the sets where implied obligations pile
        // up stay small (reduced at each step), and a large set is one
        // whose obligations do not imply each other (the pending counts
        // of `always next_event(b)[k] c`, up to `k` of them in each of
        // `k` states), where comparing all pairs made the tableau cubic.
        // Past it, obligations are kept: the conjunction is the same.
        let mut budget = next.len().saturating_mul(8).max(MIN_REDUCE_PAIRS);
        for i in 0..next.len() {
            if budget == 0 {
                break;
            }
            for j in 0..next.len() {
                if i == j
                    || !keep[j]
                    || self.x_depth[next[i] as usize] != self.x_depth[next[j] as usize]
                {
                    continue;
                }
                if budget == 0 {
                    break;
                }
                budget -= 1;
                // A SERE eventuality that the breakpoint tracks carries its
                // debt in the obligations themselves (not in the term's
                // promises, as `U` does): even implied, it stays. (Dropped
                // as implied by `G({a[+]} <>-> b)` at the next position,
                // the residual of this position's instance left nothing
                // owed, and a a a … was accepted.)
                let fi = &self.formulas[next[i] as usize];
                if tracked(fi) || is_marked(fi) {
                    break;
                }
                // j implies i: drop i (of two equivalent ones, the later).
                if self.obligation_implies(next[j], next[i])
                    && (j < i || !self.obligation_implies(next[i], next[j]))
                {
                    keep[i] = false;
                    break;
                }
            }
        }
        next.iter()
            .zip(&keep)
            .filter(|&(_, &k)| k)
            .map(|(&x, _)| x)
            .collect()
    }

    fn obligation_implies(&mut self, j: u32, i: u32) -> bool {
        let (j, i) = (j as usize, i as usize);
        if self.implies.len() <= j {
            self.implies.resize(j + 1, Vec::new());
        }
        if self.implies[j].len() <= i {
            self.implies[j].resize(i + 1, 0);
        }
        match self.implies[j][i] {
            1 => false,
            2 => true,
            _ => {
                let r = self
                    .implications
                    .implies(&self.formulas[j], &self.formulas[i]);
                self.implies[j][i] = if r { 2 } else { 1 };
                r
            }
        }
    }

    /// [`Tableau::product`] with the obligations of each term appended,
    /// not merged (the caller sorts them), and each term of `xs` moved into
    /// its last product instead of copied: linear in the obligations when
    /// the terms do not split.
    fn product_unsorted(&mut self, xs: Vec<Term>, ys: &[Term]) -> Vec<Term> {
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for mut x in xs {
            let guards: Vec<(usize, Node)> = ys
                .iter()
                .enumerate()
                .filter_map(|(k, y)| {
                    let g = self.mgr.and(x.guard, y.guard);
                    (g != Node::FALSE).then_some((k, g))
                })
                .collect();
            let Some((&(last, guard), rest)) = guards.split_last() else {
                continue;
            };
            for &(k, guard) in rest {
                let mut next = x.next.clone();
                next.extend_from_slice(&ys[k].next);
                let mut promises = x.promises.clone();
                promises.union_with(&ys[k].promises);
                out.push(Term {
                    guard,
                    next,
                    promises,
                });
            }
            x.guard = guard;
            x.next.extend_from_slice(&ys[last].next);
            x.promises.union_with(&ys[last].promises);
            out.push(x);
        }
        out
    }

    fn product(&mut self, xs: &[Term], ys: &[Term]) -> Vec<Term> {
        let mut account = self.mgr.budget().account();
        if !account.set(product_bytes(xs, ys)) {
            // The budget is marked exceeded: the caller fails.
            return Vec::new();
        }
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for x in xs {
            for y in ys {
                let guard = self.mgr.and(x.guard, y.guard);
                if guard == Node::FALSE {
                    continue;
                }
                let next = merge(&x.next, &y.next);
                let mut promises = x.promises.clone();
                promises.union_with(&y.promises);
                out.push(Term {
                    guard,
                    next,
                    promises,
                });
            }
        }
        out
    }

    /// Merges terms with equal obligations and promises, then removes from
    /// each term the letters of the terms that dominate it.
    fn simplify(&mut self, terms: Vec<Term>) -> Vec<Term> {
        if self.mgr.exhausted() {
            // Out of budget (found on the way back up from the operands):
            // the result is discarded, so do not spend time on it.
            return Vec::new();
        }
        let mut merged: Vec<Term> = Vec::with_capacity(terms.len());
        let mut index: FxHashMap<(Vec<u32>, Marks), usize> = FxHashMap::default();
        for mut t in terms {
            if self.mode == TableauMode::Finite {
                t.promises = Marks::empty();
            }
            match index.get(&(t.next.clone(), t.promises.clone())) {
                Some(&i) => merged[i].guard = self.mgr.or(merged[i].guard, t.guard),
                None => {
                    index.insert((t.next.clone(), t.promises.clone()), merged.len());
                    merged.push(t);
                }
            }
        }
        let n = merged.len();
        let mut out = Vec::with_capacity(n);
        // A budget of comparisons, as in `reduce`: all pairs of up to 256
        // terms, then linear. Removing the letters of a dominating term
        // only drops runs that the dominating term's run subsumes (more
        // obligations, fewer marks), so a term that is not compared keeps
        // them, and the language is the same. Comparing all pairs made
        // `p0 U p1 U … U pn` cubic (`n` expansions of up to `n` terms):
        // 30 s for n = 1990 before any limit could stop it.
        const MIN_DOMINANCE_PAIRS: usize = 1 << 16;
        let mut pairs = n.saturating_mul(16).max(MIN_DOMINANCE_PAIRS);
        for i in 0..n {
            let mut dominated = Node::FALSE;
            let compared = if pairs >= n {
                pairs -= n;
                n
            } else {
                0
            };
            for j in 0..compared {
                if i != j
                    && is_subset(&merged[j].next, &merged[i].next)
                    && merged[i].promises.is_superset(&merged[j].promises)
                {
                    dominated = self.mgr.or(dominated, merged[j].guard);
                }
            }
            let guard = self.mgr.diff(merged[i].guard, dominated);
            if guard != Node::FALSE {
                out.push(Term {
                    guard,
                    next: merged[i].next.clone(),
                    promises: merged[i].promises.clone(),
                });
            }
        }
        out
    }
}

/// The union of two sorted, deduplicated lists.
fn merge(a: &[u32], b: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i]);
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j]);
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i]);
                i += 1;
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// Whether sorted `a` is a subset of sorted `b`.
fn is_subset(a: &[u32], b: &[u32]) -> bool {
    if a.len() > b.len() {
        return false;
    }
    let mut j = 0;
    for x in a {
        while j < b.len() && b[j] < *x {
            j += 1;
        }
        if j == b.len() || b[j] != *x {
            return false;
        }
        j += 1;
    }
    true
}
