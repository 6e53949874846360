//! SEREs as automata: Antimirov's partial derivatives (linear forms).
//!
//! The linear form of a SERE `r` is a list of pairs `(b, r')`: a word
//! `ℓw` matches `r` iff for some pair the letter `ℓ` satisfies the Boolean
//! `b` and `w` matches the residual `r'`. The residuals of a SERE, closed
//! under linear forms, are finitely many (Antimirov 1996, extended to
//! fusion and length-matching intersection); the tableau uses them as the
//! states of the SERE automata, so a SERE never needs an automaton of its
//! own: the residual is part of the obligation (`{r'} |-> f`).
//!
//! ```text
//! lf(b)          = (b, [*0])
//! lf([*0])       = ∅
//! lf(r;s)        = { (b, r';s) } ∪ (lf(s) if r accepts the empty word)
//! lf(r:s)        = { (b, r':s) } ∪ { (b∧c, s') | (b,r') ∈ lf(r), r' ∋ ε, (c,s') ∈ lf(s) }
//! lf(r|s)        = lf(r) ∪ lf(s)
//! lf(r&&s)       = { (b∧c, r'&&s') }
//! lf(r[*i..j])   = { (b, r';r[*i-1..j-1]) }          (j ≥ 1)
//! lf(r[:*0..j])  = { (1, [*0]) } ∪ { (b, r':r[:*0..j-1]) | r' ≠ [*0] }       (j ≥ 1)
//! lf(r[:*i..j])  = { (e, [*0]) } ∪ { (b, r':r[:*i-1..j-1]), (e∧b, r':r[:*0..j-1]) | r' ≠ [*0] }
//!                  (i, j ≥ 1; e = ∨ { b | (b,r') ∈ lf(r), r' ∋ ε }: the
//!                  letters that match `r` alone)
//! lf(fm(r))      = ∅ if r accepts the empty word, else
//!                  { (∧_{i∈S} b_i ∧ ∧_{i∉S} ¬b_i, fm(|_{i∈S} r_i)) | ∅ ≠ S }
//!                  over the steps (b_i, r_i) of lf(r)
//! ```
//!
//! The fusion power (Spot's `r[:*i..j]`, `i` to `j` non-empty copies of
//! `r` fused, zero copies being one letter) is not unrolled copy by copy: a copy
//! that is a single letter `ℓ` fuses into its neighbours without a trace
//! (`ℓ:u = u` when `ℓ` starts `u`), so it only adds one to the count, and
//! any number of them fit on one letter where two copies meet (or on the
//! first or last letter) if that letter matches `r` alone (`e`). So a
//! word matches `r[:*i..j]` iff it is one letter (satisfying `e`, or any
//! if `i = 0`), or it is `u1:…:uk` with copies of two letters or more,
//! `k ≤ j`, and `k ≥ i` or one of those meeting letters satisfies `e`.
//! The linear form reads the first copy's first letter: either it
//! satisfies `e` (the lower bound is met) or the count goes on. Unrolling
//! the single-letter copies one by one instead (Spot's translation) makes
//! linear forms as long as `i`, and `i²` work over the residuals.
//!
//! `first_match` (SVA, IEEE 1800-2017 §16.9.8) is the one operator that
//! is not monotone: a word matches `fm(r)` when it matches `r` and no
//! proper prefix does, so its step must know *every* residual the letter
//! leads `r` to, not one. Its linear form is therefore deterministic:
//! the letters are split by which guards they satisfy (Brzozowski's
//! derivative `d_ℓ fm(r) = fm(d_ℓ r)`, `∅` once `r` has matched).
//!
//! A letter of a word cut by `abort` (⊤, which satisfies every Boolean)
//! needs forms of its own, the *top forms*: Annex F of IEEE 1800-2017
//! reads the prefixes that block a first match with ⊤ letters turned into
//! ⊥ (which match nothing), so from the first ⊤ letter on nothing blocks
//! and `fm(r)` steps as `r`. The top form of every other operator is its
//! linear form with every guard `true`.

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::budget::{Account, Budget};
use crate::dd::{Manager, Node};
use crate::formula::{Formula, Op};

/// One step of a SERE: a Boolean guard and the residual SERE.
pub(crate) type Step = (Formula, Formula);

/// Linear forms and the questions the tableau asks about residuals,
/// memoized.
pub(crate) struct Seres {
    /// Linear forms, for real letters (`false`) and ⊤ letters (`true`).
    forms: FxHashMap<(Formula, bool), Rc<[Step]>>,
    alive: FxHashMap<Formula, bool>,
    completable: FxHashMap<Formula, bool>,
    /// The construction's budget, charged for the products of `&&` (the
    /// linear form of `r1 && … && rk` can have the product of their sizes:
    /// `{(p0;q0 | r0;s0) && … && (p29;q29 | r29;s29)}` has 2^30 steps).
    budget: Budget,
    /// The guards of `first_match`'s steps as decision diagrams (made on
    /// the first `first_match`).
    guards: Option<GuardBdds>,
}

/// Boolean formulas as decision diagrams, each proposition and each past
/// subformula a variable (so unsatisfiable here is unsatisfiable).
struct GuardBdds {
    mgr: Manager,
    vars: FxHashMap<Formula, u32>,
    memo: FxHashMap<Formula, Node>,
}

impl GuardBdds {
    fn bdd(&mut self, f: &Formula) -> Node {
        if let Some(&n) = self.memo.get(f) {
            return n;
        }
        let kids = |s: &mut Self| -> Vec<Node> { f.children().iter().map(|c| s.bdd(c)).collect() };
        let n = match f.op() {
            Op::True => Node::TRUE,
            Op::False => Node::FALSE,
            Op::Not => {
                let a = kids(self)[0];
                self.mgr.not(a)
            }
            Op::And | Op::Or => {
                let k = kids(self);
                let and = f.op() == Op::And;
                let mut acc = if and { Node::TRUE } else { Node::FALSE };
                for &c in k.iter().rev() {
                    acc = if and {
                        self.mgr.and(c, acc)
                    } else {
                        self.mgr.or(c, acc)
                    };
                }
                acc
            }
            Op::Implies | Op::Equiv | Op::Xor => {
                let k = kids(self);
                match f.op() {
                    Op::Implies => {
                        let na = self.mgr.not(k[0]);
                        self.mgr.or(na, k[1])
                    }
                    Op::Xor => self.mgr.xor(k[0], k[1]),
                    _ => {
                        let x = self.mgr.xor(k[0], k[1]);
                        self.mgr.not(x)
                    }
                }
            }
            _ => {
                let next = self.vars.len() as u32;
                let v = *self.vars.entry(f.clone()).or_insert(next);
                self.mgr.var(v)
            }
        };
        self.memo.insert(f.clone(), n);
        n
    }
}

impl Default for Seres {
    fn default() -> Seres {
        Seres::with_budget(Budget::unlimited())
    }
}

impl Seres {
    /// Linear forms whose `&&` products are charged to `budget`. When the
    /// budget refuses one, the form is cut short and the budget is marked
    /// exceeded: the construction fails, so the wrong form is never read.
    pub(crate) fn with_budget(budget: Budget) -> Seres {
        Seres {
            forms: FxHashMap::default(),
            alive: FxHashMap::default(),
            completable: FxHashMap::default(),
            budget,
            guards: None,
        }
    }

    /// The linear form of `r`.
    pub(crate) fn linear_form(&mut self, r: &Formula) -> Rc<[Step]> {
        self.form(r, false)
    }

    /// The top form of `r`: the residuals after one ⊤ letter (every guard
    /// `true`).
    fn top_form(&mut self, r: &Formula) -> Rc<[Step]> {
        self.form(r, true)
    }

    /// The linear form of `r` (`top`: its top form).
    fn form(&mut self, r: &Formula, top: bool) -> Rc<[Step]> {
        if let Some(l) = self.forms.get(&(r.clone(), top)) {
            return l.clone();
        }
        let mut out: Vec<Step> = Vec::new();
        match r.op() {
            Op::EmptyWord => {}
            Op::Concat => {
                let head = r.child(0);
                let rest = Formula::concat(r.children()[1..].to_vec());
                for (b, h) in self.form(head, top).iter() {
                    out.push((b.clone(), Formula::concat([h.clone(), rest.clone()])));
                }
                if head.accepts_empty_word() {
                    out.extend(self.form(&rest, top).iter().cloned());
                }
            }
            Op::Fusion => {
                let head = r.child(0);
                let rest = Formula::fusion(r.children()[1..].to_vec());
                let rest_form = self.form(&rest, top);
                for (b, h) in self.form(head, top).iter() {
                    // A head that matched its whole word leaves nothing
                    // for the shared letter: a dead residual.
                    if h.op() != Op::EmptyWord {
                        out.push((b.clone(), Formula::fusion([h.clone(), rest.clone()])));
                    }
                    if h.accepts_empty_word() {
                        // The letter that ended `head` also starts `rest`.
                        for (c, s) in rest_form.iter() {
                            out.push((Formula::and([b.clone(), c.clone()]), s.clone()));
                        }
                    }
                }
            }
            Op::OrRat => {
                for c in r.children() {
                    out.extend(self.form(c, top).iter().cloned());
                }
            }
            Op::AndRat => {
                let mut acc: Vec<(Formula, Vec<Formula>)> = vec![(Formula::tt(), Vec::new())];
                let mut account: Account = self.budget.account();
                for c in r.children() {
                    let form = self.form(c, top);
                    // Charged before it is made (each step holds its
                    // guard and one residual per operand so far).
                    let steps = acc.len().saturating_mul(form.len());
                    let step = std::mem::size_of::<(Formula, Vec<Formula>)>()
                        + std::mem::size_of_val(r.children());
                    if !account.set(steps.saturating_mul(step)) {
                        acc.clear();
                        break;
                    }
                    let mut next = Vec::with_capacity(steps);
                    for (b, parts) in &acc {
                        for (c, s) in form.iter() {
                            let mut p = parts.clone();
                            p.push(s.clone());
                            next.push((Formula::and([b.clone(), c.clone()]), p));
                        }
                    }
                    acc = next;
                }
                out.extend(acc.into_iter().map(|(b, p)| (b, Formula::sere_and(p))));
            }
            Op::Star => {
                let (lo, hi) = r.star_bounds().expect("star");
                let body = r.child(0);
                if hi != Some(0) {
                    let again =
                        Formula::star(body.clone(), lo.saturating_sub(1), hi.map(|h| h - 1));
                    for (b, h) in self.form(body, top).iter() {
                        out.push((b.clone(), Formula::concat([h.clone(), again.clone()])));
                    }
                }
            }
            Op::FStar => {
                let (lo, hi) = r.fusion_power_bounds().expect("fusion power");
                let body = r.child(0);
                let form = self.form(body, top);
                // The constructor makes `r[:*i..0]` the Boolean `1`.
                debug_assert!(hi != Some(0), "{r}");
                let down = hi.map(|h| h.saturating_sub(1));
                let any = Formula::fusion_power(body.clone(), 0, down);
                if lo == 0 {
                    out.push((Formula::tt(), Formula::empty_word()));
                    for (b, h) in form.iter() {
                        if h.op() != Op::EmptyWord {
                            out.push((b.clone(), Formula::fusion([h.clone(), any.clone()])));
                        }
                    }
                } else {
                    let alone = Formula::or(
                        form.iter()
                            .filter(|(_, h)| h.accepts_empty_word())
                            .map(|(b, _)| b.clone()),
                    );
                    let again = Formula::fusion_power(body.clone(), lo - 1, down);
                    if !alone.is_false() {
                        out.push((alone.clone(), Formula::empty_word()));
                    }
                    for (b, h) in form.iter() {
                        if h.op() == Op::EmptyWord {
                            continue;
                        }
                        out.push((b.clone(), Formula::fusion([h.clone(), again.clone()])));
                        if !alone.is_false() {
                            let met = Formula::and([alone.clone(), b.clone()]);
                            out.push((met, Formula::fusion([h.clone(), any.clone()])));
                        }
                    }
                }
            }
            Op::FirstMatch if top => {
                // From a ⊤ letter on, no prefix blocks (see the module
                // documentation): `fm(r)` steps as `r`.
                if !r.child(0).accepts_empty_word() {
                    out.extend(self.form(r.child(0), true).iter().cloned());
                }
            }
            Op::FirstMatch => {
                if !r.child(0).accepts_empty_word() {
                    let form = self.form(r.child(0), false);
                    out.extend(self.first_match_steps(&form));
                }
            }
            _ if top => {
                debug_assert!(!r.has_future(), "{r} is not a SERE");
                out.push((Formula::tt(), Formula::empty_word()));
            }
            _ => {
                debug_assert!(!r.has_future(), "{r} is not a SERE");
                out.push((r.clone(), Formula::empty_word()));
            }
        }
        // Merge the steps with the same residual.
        let mut index: FxHashMap<Formula, usize> = FxHashMap::default();
        let mut merged: Vec<Step> = Vec::with_capacity(out.len());
        for (b, s) in out {
            match index.get(&s) {
                Some(&i) => merged[i].0 = Formula::or([merged[i].0.clone(), b]),
                None => {
                    index.insert(s.clone(), merged.len());
                    merged.push((b, s));
                }
            }
        }
        let l: Rc<[Step]> = Rc::from(merged);
        self.forms.insert((r.clone(), top), l.clone());
        l
    }

    /// The steps of `fm(r)` from the steps of `r` (which does not accept
    /// the empty word): one per set `S` of steps some letter satisfies
    /// together and no other, to `fm(|_{i∈S} r_i)`, guarded by the
    /// conjunction of their guards and of the negations of the others
    /// (only of those that split the letters). The sets are disjoint sets
    /// of letters, so there are at most `2^v` of them for `v` variables
    /// (propositions and past subformulas); they are charged to the
    /// budget before they are made, as the products of `&&`.
    fn first_match_steps(&mut self, form: &[Step]) -> Vec<Step> {
        let budget = self.budget.clone();
        let guards = self.guards.get_or_insert_with(|| GuardBdds {
            mgr: Manager::with_budget(budget),
            vars: FxHashMap::default(),
            memo: FxHashMap::default(),
        });
        let mut parts: Vec<(Formula, Node, Vec<Formula>)> =
            vec![(Formula::tt(), Node::TRUE, Vec::new())];
        let mut account: Account = self.budget.account();
        for (b, s) in form {
            let cells = parts.len().saturating_mul(2);
            let cell = std::mem::size_of::<(Formula, Node, Vec<Formula>)>()
                + form.len() * std::mem::size_of::<Formula>();
            if !account.set(cells.saturating_mul(cell)) {
                return Vec::new();
            }
            let bb = guards.bdd(b);
            let mut next = Vec::with_capacity(cells);
            for (g, gb, members) in parts {
                let inside = guards.mgr.and(gb, bb);
                let outside = guards.mgr.diff(gb, bb);
                if inside != Node::FALSE {
                    let guard = if outside == Node::FALSE {
                        g.clone()
                    } else {
                        Formula::and([g.clone(), b.clone()])
                    };
                    let mut m = members.clone();
                    m.push(s.clone());
                    next.push((guard, inside, m));
                }
                if outside != Node::FALSE {
                    let guard = if inside == Node::FALSE {
                        g
                    } else {
                        Formula::and([g, Formula::not(b.clone())])
                    };
                    next.push((guard, outside, members));
                }
            }
            parts = next;
            if guards.mgr.exhausted() {
                // The diagrams are wrong from here on; the budget is
                // marked exceeded, so the construction fails.
                return Vec::new();
            }
        }
        parts
            .into_iter()
            .filter(|(_, _, m)| !m.is_empty())
            .map(|(g, _, m)| (g, Formula::first_match(Formula::sere_or(m))))
            .collect()
    }

    /// The residuals reachable from `r` (itself included) through steps
    /// whose guard passes `keep`, of the linear forms (`top`: of the top
    /// forms).
    fn reachable(&mut self, r: &Formula, top: bool, keep: fn(&Formula) -> bool) -> Vec<Formula> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![r.clone()];
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            for (b, t) in self.form(&s, top).iter() {
                if keep(b) && !seen.contains(t) {
                    stack.push(t.clone());
                }
            }
            out.push(s);
        }
        out
    }

    /// Whether `r` matches some non-empty word. Guards are only checked
    /// for being the constant `false` (an over-approximation, which only
    /// keeps an obligation that can never fire).
    pub(crate) fn alive(&mut self, r: &Formula) -> bool {
        if let Some(&a) = self.alive.get(r) {
            return a;
        }
        let mut a = false;
        for (b, s) in self.linear_form(r).iter() {
            if !b.is_false() {
                let reach = self.reachable(s, false, |b| !b.is_false());
                if reach.iter().any(Formula::accepts_empty_word) {
                    a = true;
                    break;
                }
            }
        }
        self.alive.insert(r.clone(), a);
        a
    }

    /// Whether `r` matches some word of letters that satisfy every Boolean
    /// (IEEE 1850's ⊤), the empty word included.
    pub(crate) fn completable(&mut self, r: &Formula) -> bool {
        if let Some(&c) = self.completable.get(r) {
            return c;
        }
        let c = self
            .reachable(r, true, |_| true)
            .iter()
            .any(Formula::accepts_empty_word);
        self.completable.insert(r.clone(), c);
        c
    }

    /// The value of an NNF formula on the word whose letters all satisfy
    /// every Boolean (`top`, IEEE 1850's ⊤) or none (`!top`, ⊥). As in the
    /// standard, a negation reads the complemented word (⊤ and ⊥
    /// swapped), so the negative operators `!{r}` and `{r} |-> f` see
    /// their SERE letters the other way round; this keeps every formula
    /// monotone (⊤ letters only help), which `abort` relies on.
    pub(crate) fn on_constant_word(&mut self, f: &Formula, top: bool) -> bool {
        if !f.has_future() {
            return top;
        }
        let c = |s: &mut Self, i: usize| s.on_constant_word(f.child(i), top);
        match f.op() {
            Op::And => (0..f.children().len()).all(|i| c(self, i)),
            Op::Or => (0..f.children().len()).any(|i| c(self, i)),
            Op::X | Op::F | Op::G => c(self, 0),
            // On a constant word `a U b` and `a R b` are `b`, `a W b` is
            // `a | b`, `a M b` is `a & b`.
            Op::U | Op::R => c(self, 1),
            Op::W => c(self, 0) || c(self, 1),
            Op::M => c(self, 0) && c(self, 1),
            Op::Closure => top && self.top_match(f.child(0)),
            Op::EConcat | Op::EConcatMarked => top && self.top_match(f.child(0)) && c(self, 1),
            // !{r} = !({r} on the complement); {r} |-> f = !({r} <>-> !f)
            // on the complement.
            Op::NegClosure | Op::NegClosureMarked => top || !self.top_match(f.child(0)),
            Op::UConcat => top || !self.top_match(f.child(0)) || c(self, 1),
            // The condition holds at once on ⊤ (cut: the same word), never
            // on ⊥; either way the operand is read on the same word.
            Op::Abort | Op::AbortBottom => c(self, 0),
            op => unreachable!("{op:?} in an NNF formula with future operators"),
        }
    }

    /// Whether `r` has a non-empty match made of ⊤ letters (which
    /// satisfy `false`: the letters of a word cut by `abort`).
    pub(crate) fn top_match(&mut self, r: &Formula) -> bool {
        let form = self.top_form(r);
        form.iter().any(|(_, s)| self.completable(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::parse_psl;
    use crate::formula::random::{random_sere, with_fusion_powers, SplitMix64};

    const APS: [&str; 2] = ["a", "b"];

    fn boolean(b: &Formula, letter: u64) -> bool {
        match b.op() {
            Op::True => true,
            Op::False => false,
            Op::Ap => {
                let i = APS.iter().position(|a| Some(*a) == b.ap_name()).unwrap();
                letter >> i & 1 == 1
            }
            Op::Not => !boolean(b.child(0), letter),
            Op::And => b.children().iter().all(|c| boolean(c, letter)),
            Op::Or => b.children().iter().any(|c| boolean(c, letter)),
            op => panic!("{op:?} in a SERE letter"),
        }
    }

    /// `w` matches `r`, by the definitions (enumerating every split).
    fn brute(r: &Formula, w: &[u64]) -> bool {
        let n = w.len();
        match r.op() {
            Op::EmptyWord => n == 0,
            Op::Concat => {
                let rest = Formula::concat(r.children()[1..].to_vec());
                (0..=n).any(|k| brute(r.child(0), &w[..k]) && brute(&rest, &w[k..]))
            }
            Op::Fusion => {
                let rest = Formula::fusion(r.children()[1..].to_vec());
                (1..=n).any(|k| brute(r.child(0), &w[..k]) && brute(&rest, &w[k - 1..]))
            }
            Op::OrRat => r.children().iter().any(|c| brute(c, w)),
            Op::AndRat => r.children().iter().all(|c| brute(c, w)),
            Op::Star => {
                let (lo, hi) = r.star_bounds().unwrap();
                let top = hi.unwrap_or(lo.max(n as u32)).min(lo.max(n as u32));
                (lo..=top).any(|k| power(r.child(0), k, w))
            }
            Op::FirstMatch => brute(r.child(0), w) && (0..n).all(|k| !brute(r.child(0), &w[..k])),
            Op::FStar => {
                // More copies than letters need a one-letter copy, which
                // can be dropped: `k ≤ max(lo, n)` copies suffice.
                let (lo, hi) = r.fusion_power_bounds().unwrap();
                let top = hi.unwrap_or(u32::MAX).min(lo.max(n as u32));
                (lo..=top).any(|k| fused_power(r.child(0), k, w))
            }
            _ => n == 1 && boolean(r, w[0]),
        }
    }

    /// `w` is `u1:…:uk` with every `ui` a non-empty match of `r`
    /// (consecutive pieces share one letter); `k = 0` is any one letter.
    fn fused_power(r: &Formula, k: u32, w: &[u64]) -> bool {
        match k {
            0 => w.len() == 1,
            1 => !w.is_empty() && brute(r, w),
            _ => (1..=w.len()).any(|j| brute(r, &w[..j]) && fused_power(r, k - 1, &w[j - 1..])),
        }
    }

    fn power(r: &Formula, k: u32, w: &[u64]) -> bool {
        if k == 0 {
            return w.is_empty();
        }
        (0..=w.len()).any(|j| brute(r, &w[..j]) && power(r, k - 1, &w[j..]))
    }

    /// `w` matches `r`, by running the residuals of the linear forms.
    fn by_linear_forms(seres: &mut Seres, r: &Formula, w: &[u64]) -> bool {
        let mut cur = vec![r.clone()];
        for &l in w {
            let mut next = Vec::new();
            for t in &cur {
                for (b, s) in seres.linear_form(t).iter() {
                    if boolean(b, l) && !next.contains(s) {
                        next.push(s.clone());
                    }
                }
            }
            cur = next;
        }
        cur.iter().any(Formula::accepts_empty_word)
    }

    /// `r` with `first_match` around some of its SEREs.
    fn with_first_matches(r: &Formula, rng: &mut SplitMix64) -> Formula {
        r.map_bottom_up(|g| {
            if g.op().is_sere() && rng.chance(1, 2) {
                Formula::first_match(g.clone())
            } else {
                g.clone()
            }
        })
    }

    #[test]
    fn linear_forms_agree_with_the_brute_force_matcher() {
        let mut seres = Seres::default();
        let mut matched = 0;
        let mut first_matches = 0;
        for seed in 0..800u64 {
            let mut rng = SplitMix64::new(seed);
            let r = random_sere(&mut rng, &APS, 1 + (seed % 7) as usize);
            // Half of them with `first_match` inside.
            let r = if seed % 2 == 1 {
                with_first_matches(&r, &mut rng)
            } else {
                r
            };
            first_matches += usize::from(
                r.subformulas_postorder()
                    .iter()
                    .any(|g| g.op() == Op::FirstMatch),
            );
            let residuals = seres.reachable(&r, false, |_| true).len();
            for len in 0..=5usize {
                for code in 0..(1u64 << (2 * len)) {
                    let w: Vec<u64> = (0..len).map(|i| code >> (2 * i) & 3).collect();
                    let expected = brute(&r, &w);
                    matched += usize::from(expected);
                    assert_eq!(
                        by_linear_forms(&mut seres, &r, &w),
                        expected,
                        "seed {seed}: {r} on {w:?}"
                    );
                }
            }
            assert!(
                residuals < 200,
                "seed {seed}: {r} has {residuals} residuals"
            );
        }
        assert!(
            matched > 5_000,
            "the random SEREs match too rarely ({matched})"
        );
        assert!(first_matches >= 70, "{first_matches} with first_match");
    }

    /// Spot's fusion power, nested and around every kind of SERE, against
    /// the brute-force matcher (which reads it from the definition).
    #[test]
    fn linear_forms_of_fusion_powers_agree_with_the_brute_force_matcher() {
        let mut seres = Seres::default();
        let (mut matched, mut powered, mut unbounded) = (0, 0, 0);
        for seed in 0..600u64 {
            let mut rng = SplitMix64::new(seed ^ 0x5eed_f5a7);
            let r = random_sere(&mut rng, &APS, 1 + (seed % 6) as usize);
            let r = with_fusion_powers(&r, &mut rng);
            let r = if seed % 5 == 4 {
                with_first_matches(&r, &mut rng)
            } else {
                r
            };
            let powers: Vec<Formula> = r
                .subformulas_postorder()
                .into_iter()
                .filter(|g| g.op() == Op::FStar)
                .collect();
            if powers.is_empty() {
                continue;
            }
            powered += 1;
            unbounded += usize::from(
                powers
                    .iter()
                    .any(|g| g.fusion_power_bounds().unwrap().1.is_none()),
            );
            // Nested counts multiply (`{b;0;0}[*2..][:*3..5][*2][:*3..4]`
            // has 246), but stay finite.
            let residuals = seres.reachable(&r, false, |_| true).len();
            assert!(
                residuals < 1000,
                "seed {seed}: {r} has {residuals} residuals"
            );
            for len in 0..=5usize {
                for code in 0..(1u64 << (2 * len)) {
                    let w: Vec<u64> = (0..len).map(|i| code >> (2 * i) & 3).collect();
                    let expected = brute(&r, &w);
                    matched += usize::from(expected);
                    assert_eq!(
                        by_linear_forms(&mut seres, &r, &w),
                        expected,
                        "seed {seed}: {r} on {w:?}"
                    );
                }
            }
        }
        assert!(
            powered >= 200 && unbounded >= 100,
            "{powered} powered, {unbounded} unbounded"
        );
        assert!(matched > 5_000, "the powers match too rarely ({matched})");
    }

    /// The edge cases of the fusion power, against the brute-force matcher
    /// on every word of up to six letters.
    #[test]
    fn fusion_power_edge_cases() {
        let mut seres = Seres::default();
        let p = |s: &str| crate::formula::parse(s).unwrap().child(0).clone();
        for (text, some_match) in [
            // A copy never matches the empty word: {a[*]}[:+] is a[+].
            ("{a[*][:+]}", true),
            ("{a[*][:*]}", true),
            ("{{a[*];b[*]}[:*2..]}", true),
            // Zero copies: one letter.
            ("{{a;b}[:*0..1]}", true),
            // {a;b}[:+] is a;(a&b)[*];b.
            ("{{a;b}[:+]}", true),
            ("{{a;b}[:*3..]}", true),
            ("{{a;b}[:*2..4]}", true),
            // Nested: even numbers of copies; and the empty word's power.
            ("{{a;b}[:*2][:+]}", true),
            ("{{a;b}[:+][:*2..3]}", true),
            ("{{a | {a;b}}[:*3..]}", true),
            ("{{[*0];[*0]}[:+] | b}", true),
            // Inside fusion and intersection.
            ("{{a;b}[:+]:{b;a}[:*]}", true),
            ("{{a;b}[:+] && {1;1;1}}", true),
            ("{{{a;b}[:+] && {a;b}}}", true),
        ] {
            let r = p(text);
            assert!(
                r.subformulas_postorder()
                    .iter()
                    .any(|g| g.op() == Op::FStar),
                "{text} read as {r}"
            );
            let mut any = false;
            for len in 0..=6usize {
                for code in 0..(1u64 << (2 * len)) {
                    let w: Vec<u64> = (0..len).map(|i| code >> (2 * i) & 3).collect();
                    let expected = brute(&r, &w);
                    any |= expected;
                    assert_eq!(
                        by_linear_forms(&mut seres, &r, &w),
                        expected,
                        "{text} on {w:?}"
                    );
                }
            }
            assert_eq!(any, some_match, "{text}");
        }
        // By hand: a = 1, b = 2, ab = 3. {a;b}[:+] is a;(a&b)[*];b.
        let r = p("{{a;b}[:+]}");
        let cases: [(&[u64], bool); 6] = [
            (&[1, 2], true),
            (&[1, 3, 2], true),
            (&[1, 3, 3, 2], true),
            (&[1, 1, 2], false),
            (&[1, 2, 2], false),
            (&[3], false),
        ];
        for (w, m) in cases {
            assert_eq!(brute(&r, w), m, "{w:?}");
            assert_eq!(by_linear_forms(&mut seres, &r, w), m, "{w:?}");
        }
        // {a[*]}[:+] is a[+]: the empty copy fuses with nothing.
        let r = p("{a[*][:+]}");
        let words: [&[u64]; 4] = [&[], &[1], &[1, 1, 3], &[2]];
        for w in words {
            let m = !w.is_empty() && w.iter().all(|l| l & 1 == 1);
            assert_eq!(brute(&r, w), m, "{w:?}");
            assert_eq!(by_linear_forms(&mut seres, &r, w), m, "{w:?}");
        }
        // r[:*0] is any one letter (`1`); [*0][:+] matches nothing.
        let r = Formula::fusion_power(p("{a;b}"), 0, Some(0));
        assert_eq!(r, Formula::tt());
        let r = p("{[*0][:+]}");
        assert!(!seres.alive(&r));
        assert!(!seres.completable(&r));
    }

    fn sere(s: &str) -> Formula {
        parse_psl(s).unwrap().child(0).clone()
    }

    #[test]
    fn products_of_intersections_are_charged_before_they_are_made() {
        // 2^24 steps: refused by a 64 MiB budget, at once, and the budget
        // marked exceeded (so that the construction fails).
        let text: Vec<String> = (0..24)
            .map(|i| format!("({{p{i};q{i}}} | {{r{i};s{i}}})"))
            .collect();
        let r = sere(&format!("{{{}}}", text.join(" && ")));
        let budget = Budget::new(64 << 20);
        let mut seres = Seres::with_budget(budget.clone());
        let f = seres.linear_form(&r);
        assert!(
            budget.exceeded(),
            "{:?} {} {}",
            r.op(),
            r.children().len(),
            f.len()
        );
        // A small product fits.
        let budget = Budget::new(64 << 20);
        let form = Seres::with_budget(budget.clone())
            .linear_form(&sere("{({a;b} | {b;a}) && {(a | b); a}}"));
        assert!(!budget.exceeded());
        assert_eq!(form.len(), 2);
    }

    #[test]
    fn residuals_are_finite_and_questions_answered() {
        let mut s = Seres::default();
        let r = sere("{{a;b}[*]; c}");
        let all = s.reachable(&r, false, |_| true);
        assert!(all.len() <= 4, "{all:?}");
        assert!(s.alive(&r));
        assert!(s.completable(&r));
        // {a ; false}: no real match, but completable with ⊤.
        let r = sere("{a; false}");
        assert!(!s.alive(&r));
        assert!(s.completable(&r));
        // {a} && {b;c}: lengths never agree.
        let r = sere("{{a} && {b;c}}");
        assert!(!s.alive(&r));
        assert!(!s.completable(&r));
    }
}
