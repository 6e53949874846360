//! The negation normal form, and the constant folds that hold outside
//! `abort` only.

use rustc_hash::FxHashMap;

use super::{Formula, Op};

impl Formula {
    /// Negation normal form: negations only in front of propositions and
    /// pure-past subformulas; `->`, `<->` and `xor` expanded (outside
    /// pure-past subformulas, which are evaluated as they are). Outside
    /// `abort`, the constants the constructors leave are folded (`X 0`
    /// is `0`; see [`Formula::unop`]).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("!(a U (b -> X c))")?;
    /// assert_eq!(f.nnf().to_spot(), "!a R (b & X!c)");
    /// assert_eq!(parse("a U X X !true")?.nnf().to_spot(), "a U 0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nnf(&self) -> Formula {
        let mut memo: FxHashMap<(Formula, bool, bool), Formula> = FxHashMap::default();
        nnf_rec(self, false, false, &mut memo)
    }

    /// The negation normal form of the operand of an `abort`, where no
    /// constant is folded (on the words `abort` cuts, `X 0` is not `0`).
    pub(crate) fn nnf_under_abort(&self) -> Formula {
        let mut memo: FxHashMap<(Formula, bool, bool), Formula> = FxHashMap::default();
        nnf_rec(self, false, true, &mut memo)
    }
}

fn nnf_rec(
    f: &Formula,
    neg: bool,
    cut: bool,
    memo: &mut FxHashMap<(Formula, bool, bool), Formula>,
) -> Formula {
    if let Some(r) = memo.get(&(f.clone(), neg, cut)) {
        return r.clone();
    }
    let pos = |g: &Formula, memo: &mut FxHashMap<_, _>| nnf_rec(g, false, cut, memo);
    let ngt = |g: &Formula, memo: &mut FxHashMap<_, _>| nnf_rec(g, true, cut, memo);
    let r = if !f.has_future() && (f.has_past() || f.op() == Op::Ap) {
        // Pure-past formulas (and propositions) are leaves of the NNF.
        if neg {
            Formula::not(f.clone())
        } else {
            f.clone()
        }
    } else {
        let (a, b) = (f.children().first(), f.children().get(1));
        match (f.op(), neg) {
            (Op::True | Op::False, _) => Formula::constant(f.is_true() != neg),
            (Op::Ap, _) => unreachable!("handled above"),
            (Op::Not, _) => nnf_rec(f.child(0), !neg, cut, memo),
            (Op::And, false) | (Op::Or, true) => Formula::and(
                f.children()
                    .iter()
                    .map(|c| nnf_rec(c, neg, cut, memo))
                    .collect::<Vec<_>>(),
            ),
            (Op::Or, false) | (Op::And, true) => Formula::or(
                f.children()
                    .iter()
                    .map(|c| nnf_rec(c, neg, cut, memo))
                    .collect::<Vec<_>>(),
            ),
            (Op::X, _) => Formula::next(nnf_rec(a.unwrap(), neg, cut, memo)),
            (Op::F, false) | (Op::G, true) => {
                Formula::eventually(nnf_rec(a.unwrap(), neg, cut, memo))
            }
            (Op::G, false) | (Op::F, true) => Formula::always(nnf_rec(a.unwrap(), neg, cut, memo)),
            (Op::Implies, false) => {
                let (x, y) = (ngt(a.unwrap(), memo), pos(b.unwrap(), memo));
                Formula::or([x, y])
            }
            (Op::Implies, true) => {
                let (x, y) = (pos(a.unwrap(), memo), ngt(b.unwrap(), memo));
                Formula::and([x, y])
            }
            (Op::Equiv, _) | (Op::Xor, _) => {
                // a <-> b  ==  (a & b) | (!a & !b);  a xor b  ==  (a & !b) | (!a & b)
                let same = (f.op() == Op::Equiv) != neg;
                let (pa, na) = (pos(a.unwrap(), memo), ngt(a.unwrap(), memo));
                let (pb, nb) = (pos(b.unwrap(), memo), ngt(b.unwrap(), memo));
                if same {
                    Formula::or([Formula::and([pa, pb]), Formula::and([na, nb])])
                } else {
                    Formula::or([Formula::and([pa, nb]), Formula::and([na, pb])])
                }
            }
            (Op::U | Op::R | Op::W | Op::M, _) => {
                let op = match (f.op(), neg) {
                    (op, false) => op,
                    (Op::U, true) => Op::R,
                    (Op::R, true) => Op::U,
                    (Op::W, true) => Op::M,
                    (Op::M, true) => Op::W,
                    _ => unreachable!(),
                };
                let (x, y) = (
                    nnf_rec(a.unwrap(), neg, cut, memo),
                    nnf_rec(b.unwrap(), neg, cut, memo),
                );
                Formula::binop(op, x, y)
            }
            // A SERE on its own (not a formula) is left as it is.
            (op, _) if op.is_sere() => f.clone(),
            // PSL: the SERE is kept as it is; the dualities of LHJ10.
            (Op::Closure, false) | (Op::NegClosure | Op::NegClosureMarked, true) => {
                Formula::closure(a.unwrap().clone())
            }
            (Op::Closure, true) => Formula::neg_closure(a.unwrap().clone()),
            (Op::NegClosure, false) => f.clone(),
            (Op::NegClosureMarked, false) => f.clone(),
            (Op::UConcat, false) | (Op::EConcat | Op::EConcatMarked, true) => {
                Formula::uconcat(a.unwrap().clone(), nnf_rec(b.unwrap(), neg, cut, memo))
            }
            (Op::EConcat, false) | (Op::UConcat, true) => {
                Formula::econcat(a.unwrap().clone(), nnf_rec(b.unwrap(), neg, cut, memo))
            }
            (Op::EConcatMarked, false) => {
                Formula::econcat_marked(a.unwrap().clone(), nnf_rec(b.unwrap(), false, cut, memo))
            }
            (Op::Abort, false) | (Op::AbortBottom, true) => {
                Formula::abort(nnf_rec(a.unwrap(), neg, true, memo), b.unwrap().clone())
            }
            (Op::AbortBottom, false) | (Op::Abort, true) => {
                Formula::abort_bottom(nnf_rec(a.unwrap(), neg, true, memo), b.unwrap().clone())
            }
            // Past operators over future formulas: keep the structure (the
            // translator rejects them); negate at the top.
            (op, _) if op.is_past() => {
                let kids = f.children().iter().map(|c| pos(c, memo)).collect();
                let g = f.with_children(kids);
                if neg {
                    Formula::not(g)
                } else {
                    g
                }
            }
            _ => unreachable!("all operators handled"),
        }
    };
    // The constants the constructors leave (see `Formula::unop`), outside
    // `abort`: every route then reads `X 0` as `0`, as it always did.
    let r = match fold_constant(&r) {
        Some(c) if !cut => c,
        _ => r,
    };
    memo.insert((f.clone(), neg, cut), r.clone());
    r
}

/// The constant folds that hold on the words of a model but not on the
/// words `abort` cuts (see [`Formula::unop`]), at the root of `f`: `X 1 =
/// 1`, `X 0 = 0`, `F 0 = 0`, `G 1 = 1`, `{r} |-> 1 = 1`, `{r} <>-> 0 = 0`.
pub(crate) fn fold_constant(f: &Formula) -> Option<Formula> {
    let kids = f.children();
    match f.op() {
        Op::X if kids[0].is_true() || kids[0].is_false() => Some(kids[0].clone()),
        Op::F if kids[0].is_false() => Some(Formula::ff()),
        Op::G if kids[0].is_true() => Some(Formula::tt()),
        Op::UConcat if kids[1].is_true() => Some(Formula::tt()),
        Op::EConcat | Op::EConcatMarked if kids[1].is_false() => Some(Formula::ff()),
        _ => None,
    }
}
