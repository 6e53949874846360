//! LTL with past to symbolic transducers (LHJ10, Sect. III-C).
//!
//! Built on the negation of the property in negation normal form, bottom
//! up with one variable per temporal subformula (shared subformulas share
//! their variable), following the fixpoint laws under the strong
//! semantics on finite words:
//!
//! | subformula | variable `v` | `trans` | `finals` |
//! |---|---|---|---|
//! | `X a` | `x` | `x <-> next(a)` | `!x` |
//! | `a U b`, `a W b`, `F b` | `u` | `u <-> (b \| a & next(u))` | `u <-> b` |
//! | `a R b`, `a M b`, `G b` | `r` | `r <-> (b & (a \| next(r)))` | `r <-> (a & b)` |
//!
//! (On finite words and in the strong sense, `W` behaves as `U` and `R` as
//! `M`: nothing can be postponed past the end.) Past subformulas get
//! deterministic registers with the same recurrences as the tableau.
//!
//! PSL: the tail implication `{r} |-> f` and tail conjunction
//! `{r} <>-> f` of LHJ10 simulate the automaton of `r`, whose states
//! are the residuals of its linear forms (`super::sere`). Each pair
//! (residual `t`, `f`) gets a variable meaning "`{t} |-> f` must hold
//! here" (resp. `<>->`), constrained in one direction only, as in the
//! paper: for every step `(b, t')` of `t`,
//!
//! | subformula | `trans` (with `v` true and `b` read) | `finals` |
//! |---|---|---|
//! | `{t} \|-> f` | `f` now if `t'` ends a match; `next(v(t'))` if `t'` can go on | no copy goes on |
//! | `{t} <>-> f` | some step: a match with `f` now, or `next(v(t'))` | some step ends a match with `f` |
//! | `!{t}` | no match now; `next(v(t'))` while `t'` can be completed | every copy dies |
//!
//! The weak closure `{r}` is `{r} <>-> true` under the strong semantics
//! on finite words. `f abort b` reads `f` on the word cut at the first `b`
//! (⊤ letters from there, ⊥ for the dual): the variables of `f` get a
//! second, cut copy whose constraints switch, where the cut happens, to
//! the subformula's value on the constant word. A variable set to true commits the execution to its
//! subformula, so executions that start with the negated property true
//! and end in a final state read exactly its informative bad prefixes; a
//! one-directional variable is enough because every variable is used
//! positively (the formula is in negation normal form).

use rustc_hash::FxHashMap;

use super::sere::Seres;
use crate::automaton::{Alphabet, TExpr, TVar, Transducer};
use crate::formula::{Formula, Op};

struct Builder<'a> {
    aps: &'a Alphabet,
    vars: Vec<TVar>,
    trans: Vec<TExpr>,
    finals: Vec<TExpr>,
    memo: FxHashMap<Formula, TExpr>,
    /// Temporal subformulas, by the cut they are read under.
    cut_memo: FxHashMap<(Formula, Cut), TExpr>,
    seres: Seres,
}

impl Builder<'_> {
    fn var(&mut self, meaning: &Formula, register: Option<(bool, TExpr)>) -> u32 {
        let v = self.vars.len() as u32;
        self.vars.push(TVar {
            meaning: meaning.to_spot(),
            register,
        });
        v
    }

    /// The value of a formula without future operators, at the current
    /// position, given the registers.
    fn past(&mut self, f: &Formula) -> TExpr {
        if let Some(e) = self.memo.get(f) {
            return e.clone();
        }
        let e = match f.op() {
            Op::True | Op::False => TExpr::Const(f.is_true()),
            Op::Ap => TExpr::Ap(
                self.aps
                    .index(f.ap_name().expect("ap"))
                    .expect("known proposition"),
            ),
            Op::Not => TExpr::not(self.past(f.child(0))),
            Op::And => {
                let kids: Vec<TExpr> = f.children().iter().map(|c| self.past(c)).collect();
                TExpr::and(kids)
            }
            Op::Or => {
                let kids: Vec<TExpr> = f.children().iter().map(|c| self.past(c)).collect();
                TExpr::or(kids)
            }
            Op::Implies => {
                let (a, b) = (self.past(f.child(0)), self.past(f.child(1)));
                TExpr::or([TExpr::not(a), b])
            }
            Op::Equiv => {
                let (a, b) = (self.past(f.child(0)), self.past(f.child(1)));
                TExpr::iff(a, b)
            }
            Op::Xor => {
                let (a, b) = (self.past(f.child(0)), self.past(f.child(1)));
                TExpr::not(TExpr::iff(a, b))
            }
            op @ (Op::Y | Op::Z) => {
                // The register holds the operand's previous value.
                let a = self.past(f.child(0));
                let r = self.var(f, Some((op == Op::Z, a)));
                TExpr::Var(r)
            }
            op => {
                // O, H, S, B, T: the register holds the formula's own
                // previous value; the value now follows the recurrence.
                // (Operands first: they may need registers of their own.)
                let (a, b) = match op {
                    Op::O => (TExpr::Const(true), self.past(f.child(0))),
                    Op::H => (self.past(f.child(0)), TExpr::Const(false)),
                    _ => (self.past(f.child(0)), self.past(f.child(1))),
                };
                let r = self.vars.len() as u32;
                let prev = TExpr::Var(r);
                let now = if op == Op::T {
                    TExpr::and([b, TExpr::or([a, prev])])
                } else {
                    TExpr::or([b, TExpr::and([a, prev])])
                };
                let init = matches!(op, Op::H | Op::B | Op::T);
                let got = self.var(f, Some((init, now.clone())));
                debug_assert_eq!(got, r);
                now
            }
        };
        self.memo.insert(f.clone(), e.clone());
        e
    }

    /// The value of an NNF formula (strong finite semantics).
    fn expr(&mut self, f: &Formula) -> TExpr {
        self.expr_in(f, &Cut::none())
    }

    /// The value of `f` on the word cut by `cut`: from the first position
    /// where `cut.stop` holds, every letter is ⊤ or ⊥ (`cut.kind` there),
    /// so the value is the formula's value on that constant word.
    fn expr_in(&mut self, f: &Formula, cut: &Cut) -> TExpr {
        if !f.has_future() {
            let real = self.past(f);
            // Boolean leaves: ⊤ satisfies them all, ⊥ none.
            return TExpr::or([
                TExpr::and([cut.stop.clone(), cut.kind.clone()]),
                TExpr::and([TExpr::not(cut.stop.clone()), real]),
            ]);
        }
        let key = (f.clone(), cut.clone());
        if let Some(e) = self.cut_memo.get(&key) {
            return e.clone();
        }
        let e = match f.op() {
            Op::And => {
                let kids: Vec<TExpr> = f.children().iter().map(|c| self.expr_in(c, cut)).collect();
                TExpr::and(kids)
            }
            Op::Or => {
                let kids: Vec<TExpr> = f.children().iter().map(|c| self.expr_in(c, cut)).collect();
                TExpr::or(kids)
            }
            Op::X => {
                let a = self.expr_in(f.child(0), cut);
                let x = self.var_in(f, cut);
                let at_cut = self.constant(f, cut);
                self.trans.push(TExpr::iff(
                    TExpr::Var(x),
                    cut.choose(at_cut.clone(), TExpr::next(a)),
                ));
                // At the end of the word `X a` is not established, but
                // `X true` is (as in the tableau, whose obligation `true`
                // is met at once), except where the letters after a cut
                // are ⊥ (only under `abort`: elsewhere NNF folds it).
                let at_end = if f.child(0).is_true() {
                    cut.kind.clone()
                } else {
                    TExpr::Const(false)
                };
                self.finals
                    .push(TExpr::iff(TExpr::Var(x), cut.choose(at_cut, at_end)));
                TExpr::Var(x)
            }
            Op::U | Op::W | Op::F => {
                let (a, b) = if f.op() == Op::F {
                    (TExpr::Const(true), self.expr_in(f.child(0), cut))
                } else {
                    (self.expr_in(f.child(0), cut), self.expr_in(f.child(1), cut))
                };
                let u = self.var_in(f, cut);
                let at_cut = self.constant(f, cut);
                let step = TExpr::or([b.clone(), TExpr::and([a, TExpr::next(TExpr::Var(u))])]);
                self.trans
                    .push(TExpr::iff(TExpr::Var(u), cut.choose(at_cut.clone(), step)));
                self.finals
                    .push(TExpr::iff(TExpr::Var(u), cut.choose(at_cut, b)));
                TExpr::Var(u)
            }
            Op::R | Op::M | Op::G => {
                let (a, b) = if f.op() == Op::G {
                    (TExpr::Const(false), self.expr_in(f.child(0), cut))
                } else {
                    (self.expr_in(f.child(0), cut), self.expr_in(f.child(1), cut))
                };
                let r = self.var_in(f, cut);
                let at_cut = self.constant(f, cut);
                let step = TExpr::and([
                    b.clone(),
                    TExpr::or([a.clone(), TExpr::next(TExpr::Var(r))]),
                ]);
                self.trans
                    .push(TExpr::iff(TExpr::Var(r), cut.choose(at_cut.clone(), step)));
                self.finals.push(TExpr::iff(
                    TExpr::Var(r),
                    cut.choose(at_cut, TExpr::and([a, b])),
                ));
                TExpr::Var(r)
            }
            Op::UConcat | Op::EConcat | Op::Closure | Op::NegClosure => self.sere_var(f, cut),
            Op::Abort | Op::AbortBottom => {
                // A cut inside a cut: whichever comes first; at the same
                // position the outer one (its letter is already special).
                let b = self.past(f.child(1));
                let kind = TExpr::Const(f.op() == Op::Abort);
                let inner = Cut {
                    stop: TExpr::or([cut.stop.clone(), b]),
                    kind: TExpr::or([
                        TExpr::and([cut.stop.clone(), cut.kind.clone()]),
                        TExpr::and([TExpr::not(cut.stop.clone()), kind]),
                    ]),
                };
                self.expr_in(f.child(0), &inner)
            }
            op => unreachable!("{op:?} with future operators in NNF"),
        };
        self.cut_memo.insert(key, e.clone());
        e
    }

    /// A variable for `f` under `cut`.
    fn var_in(&mut self, f: &Formula, cut: &Cut) -> u32 {
        let v = self.var(f, None);
        if !cut.is_none() {
            self.vars[v as usize].meaning.push_str(" (under abort)");
        }
        v
    }

    /// Whether the residual `t` of a SERE needs a variable of its own:
    /// while real letters can still complete it, and under a cut while ⊤
    /// letters can (they satisfy `false`, so `{true;false}! abort b`
    /// holds on !b b b …: the value at the cut depends on the residual).
    fn keeps(&mut self, t: &Formula, cut: &Cut) -> bool {
        self.seres.alive(t) || (!cut.is_none() && self.seres.top_match(t))
    }

    /// The value of `f` on the constant word where the cut happens.
    fn constant(&mut self, f: &Formula, cut: &Cut) -> TExpr {
        if cut.is_none() {
            return TExpr::Const(false);
        }
        let on_top = self.seres.on_constant_word(f, true);
        let on_bottom = self.seres.on_constant_word(f, false);
        TExpr::or([
            TExpr::and([cut.kind.clone(), TExpr::Const(on_top)]),
            TExpr::and([TExpr::not(cut.kind.clone()), TExpr::Const(on_bottom)]),
        ])
    }

    /// The variable of a PSL subformula over a SERE (see the module
    /// documentation). Variables of residuals are created on demand, so a
    /// cycle of residuals refers to variables through the memo. Under a
    /// cut, every constraint is released where the cut happens, and the
    /// variable then commits to the formula's value on the constant word.
    fn sere_var(&mut self, f: &Formula, cut: &Cut) -> TExpr {
        // Seed 003: the weak closure is the tail conjunction with `true`
        // under the strong semantics on finite words.
        let f = if f.op() == Op::Closure {
            Formula::econcat(f.child(0).clone(), Formula::tt())
        } else {
            f.clone()
        };
        if !matches!(f.op(), Op::UConcat | Op::EConcat | Op::NegClosure) {
            // The constructors folded it into a constant.
            return self.expr_in(&f, cut);
        }
        let key = (f.clone(), cut.clone());
        if let Some(e) = self.cut_memo.get(&key) {
            return e.clone();
        }
        let v = self.var_in(&f, cut);
        let me = TExpr::Var(v);
        self.cut_memo.insert(key, me.clone());
        // Before the cut the constraints below apply; at it, the value on
        // the constant word.
        let at_cut = self.constant(&f, cut);
        let not_me = TExpr::or([TExpr::not(me.clone()), cut.stop.clone()]);
        let commit = TExpr::or([TExpr::not(me.clone()), TExpr::not(cut.stop.clone()), at_cut]);
        self.trans.push(commit.clone());
        self.finals.push(commit);
        let r = f.child(0).clone();
        let steps = self.seres.linear_form(&r);
        let mut some_step = Vec::new();
        let mut some_end = Vec::new();
        for (b, t) in steps.iter() {
            let guard = self.past(b);
            let ends = t.accepts_empty_word();
            match f.op() {
                Op::UConcat => {
                    let now = if ends {
                        self.expr_in(f.child(1), cut)
                    } else {
                        TExpr::Const(true)
                    };
                    let keep = self.keeps(t, cut);
                    let later = if keep {
                        let rest = Formula::uconcat(t.clone(), f.child(1).clone());
                        TExpr::next(self.sere_var(&rest, cut))
                    } else {
                        TExpr::Const(true)
                    };
                    let pre = TExpr::or([not_me.clone(), TExpr::not(guard)]);
                    self.trans
                        .push(TExpr::or([pre.clone(), TExpr::and([now.clone(), later])]));
                    self.finals
                        .push(TExpr::or([pre, TExpr::and([now, TExpr::Const(!keep)])]));
                }
                Op::EConcat => {
                    if ends {
                        let now = self.expr_in(f.child(1), cut);
                        let hit = TExpr::and([guard.clone(), now]);
                        some_step.push(hit.clone());
                        some_end.push(hit);
                    }
                    if self.keeps(t, cut) {
                        let rest = Formula::econcat(t.clone(), f.child(1).clone());
                        let rest = self.sere_var(&rest, cut);
                        some_step.push(TExpr::and([guard, TExpr::next(rest)]));
                    }
                }
                _ => {
                    // !{r}: no match now; the copy lives on while ⊤ letters
                    // could still complete it.
                    let pre = TExpr::or([not_me.clone(), TExpr::not(guard)]);
                    let go_on = self.seres.completable(t);
                    let later = if ends {
                        TExpr::Const(false)
                    } else if go_on {
                        TExpr::next(self.sere_var(&Formula::neg_closure(t.clone()), cut))
                    } else {
                        TExpr::Const(true)
                    };
                    self.trans.push(TExpr::or([pre.clone(), later]));
                    self.finals
                        .push(TExpr::or([pre, TExpr::Const(!ends && !go_on)]));
                }
            }
        }
        if f.op() == Op::EConcat {
            self.trans
                .push(TExpr::or([not_me.clone(), TExpr::or(some_step)]));
            self.finals.push(TExpr::or([not_me, TExpr::or(some_end)]));
        }
        me
    }
}

/// Where a word is cut by `abort`: from the first position where `stop`
/// holds, the letters are ⊤ (`kind` true there) or ⊥.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Cut {
    stop: TExpr,
    kind: TExpr,
}

impl Cut {
    fn none() -> Cut {
        Cut {
            stop: TExpr::Const(false),
            kind: TExpr::Const(false),
        }
    }

    fn is_none(&self) -> bool {
        self.stop == TExpr::Const(false)
    }

    /// `at_cut` where the cut happens, `before` elsewhere.
    fn choose(&self, at_cut: TExpr, before: TExpr) -> TExpr {
        if self.is_none() {
            return before;
        }
        TExpr::or([
            TExpr::and([self.stop.clone(), at_cut]),
            TExpr::and([TExpr::not(self.stop.clone()), before]),
        ])
    }
}

/// The transducer of the informative bad prefixes of `property` (which
/// must have no past operator over a future formula). The formula is used
/// as written: informativeness depends on its syntax.
pub(crate) fn build(property: &Formula, aps: &Alphabet) -> Transducer {
    let mut b = Builder {
        aps,
        vars: Vec::new(),
        trans: Vec::new(),
        finals: Vec::new(),
        memo: FxHashMap::default(),
        cut_memo: FxHashMap::default(),
        seres: Seres::default(),
    };
    let init = b.expr(&Formula::not(property.clone()).nnf());
    Transducer {
        property: property.to_spot(),
        alphabet: aps.clone(),
        vars: b.vars,
        init,
        trans: b.trans,
        finals: b.finals,
    }
}
