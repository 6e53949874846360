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
//! ```

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::budget::{Account, Budget};
use crate::formula::{Formula, Op};

/// One step of a SERE: a Boolean guard and the residual SERE.
pub(crate) type Step = (Formula, Formula);

/// Linear forms and the questions the tableau asks about residuals,
/// memoized.
pub(crate) struct Seres {
    forms: FxHashMap<Formula, Rc<[Step]>>,
    alive: FxHashMap<Formula, bool>,
    completable: FxHashMap<Formula, bool>,
    /// The construction's budget, charged for the products of `&&` (the
    /// linear form of `r1 && … && rk` can have the product of their sizes:
    /// `{(p0;q0 | r0;s0) && … && (p29;q29 | r29;s29)}` has 2^30 steps).
    budget: Budget,
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
        }
    }

    /// The linear form of `r`.
    pub(crate) fn linear_form(&mut self, r: &Formula) -> Rc<[Step]> {
        if let Some(l) = self.forms.get(r) {
            return l.clone();
        }
        let mut out: Vec<Step> = Vec::new();
        match r.op() {
            Op::EmptyWord => {}
            Op::Concat => {
                let head = r.child(0);
                let rest = Formula::concat(r.children()[1..].to_vec());
                for (b, h) in self.linear_form(head).iter() {
                    out.push((b.clone(), Formula::concat([h.clone(), rest.clone()])));
                }
                if head.accepts_empty_word() {
                    out.extend(self.linear_form(&rest).iter().cloned());
                }
            }
            Op::Fusion => {
                let head = r.child(0);
                let rest = Formula::fusion(r.children()[1..].to_vec());
                let rest_form = self.linear_form(&rest);
                for (b, h) in self.linear_form(head).iter() {
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
                    out.extend(self.linear_form(c).iter().cloned());
                }
            }
            Op::AndRat => {
                let mut acc: Vec<(Formula, Vec<Formula>)> = vec![(Formula::tt(), Vec::new())];
                let mut account: Account = self.budget.account();
                for c in r.children() {
                    let form = self.linear_form(c);
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
                    for (b, h) in self.linear_form(body).iter() {
                        out.push((b.clone(), Formula::concat([h.clone(), again.clone()])));
                    }
                }
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
        self.forms.insert(r.clone(), l.clone());
        l
    }

    /// The residuals reachable from `r` (itself included) through steps
    /// whose guard passes `keep`.
    fn reachable(&mut self, r: &Formula, keep: fn(&Formula) -> bool) -> Vec<Formula> {
        let mut seen = FxHashSet::default();
        let mut stack = vec![r.clone()];
        let mut out = Vec::new();
        while let Some(s) = stack.pop() {
            if !seen.insert(s.clone()) {
                continue;
            }
            for (b, t) in self.linear_form(&s).iter() {
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
                let reach = self.reachable(s, |b| !b.is_false());
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
            .reachable(r, |_| true)
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
        let form = self.linear_form(r);
        form.iter().any(|(_, s)| self.completable(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::parse_psl;
    use crate::formula::random::{random_sere, SplitMix64};

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
            _ => n == 1 && boolean(r, w[0]),
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

    #[test]
    fn linear_forms_agree_with_the_brute_force_matcher() {
        let mut seres = Seres::default();
        let mut matched = 0;
        for seed in 0..400u64 {
            let mut rng = SplitMix64::new(seed);
            let r = random_sere(&mut rng, &APS, 1 + (seed % 7) as usize);
            let residuals = seres.reachable(&r, |_| true).len();
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
        let all = s.reachable(&r, |_| true);
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
