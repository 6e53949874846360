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

use crate::formula::{Formula, Op};

/// One step of a SERE: a Boolean guard and the residual SERE.
pub(crate) type Step = (Formula, Formula);

/// Linear forms and the questions the tableau asks about residuals,
/// memoized.
#[derive(Default)]
pub(crate) struct Seres {
    forms: FxHashMap<Formula, Rc<[Step]>>,
    alive: FxHashMap<Formula, bool>,
    completable: FxHashMap<Formula, bool>,
}

impl Seres {
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
                    let fused = Formula::fusion([h.clone(), rest.clone()]);
                    if !fused.is_false() {
                        out.push((b.clone(), fused));
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
                for c in r.children() {
                    let form = self.linear_form(c);
                    let mut next = Vec::with_capacity(acc.len() * form.len());
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::parse_psl;

    fn sere(s: &str) -> Formula {
        parse_psl(s).unwrap().child(0).clone()
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
