//! The constructors of formulas (LTL with past, then PSL), which apply
//! only trivial rewrites, and rebuilding a formula bottom-up.

use rustc_hash::FxHashMap;

use super::node::{intern, intern_with_bounds};
use super::{Formula, Op};

/// Constructors. They apply only trivial rewrites (constants, double
/// negation, flattening, sorting and deduplicating `&` and `|`), like
/// Spot's; everything else is the job of [`simplify`](super::simplify).
impl Formula {
    /// The constant `true`.
    pub fn tt() -> Formula {
        intern(Op::True, "", Vec::new())
    }

    /// The constant `false`.
    pub fn ff() -> Formula {
        intern(Op::False, "", Vec::new())
    }

    /// A Boolean constant.
    pub fn constant(value: bool) -> Formula {
        if value {
            Formula::tt()
        } else {
            Formula::ff()
        }
    }

    /// An atomic proposition (any non-empty name; names that are not plain
    /// identifiers print in double quotes).
    pub fn ap(name: &str) -> Formula {
        intern(Op::Ap, name, Vec::new())
    }

    /// Negation. (Also available as the `!` operator on formulas; the
    /// associated function reads like the other constructors.)
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Formula) -> Formula {
        match f.op() {
            Op::True => Formula::ff(),
            Op::False => Formula::tt(),
            Op::Not => f.child(0).clone(),
            _ => intern(Op::Not, "", vec![f]),
        }
    }

    /// A unary operator (`Not`, `X`, `F`, `G`, `Y`, `Z`, `O`, `H`).
    ///
    /// Panics if `op` is not unary.
    pub fn unop(op: Op, f: Formula) -> Formula {
        match op {
            Op::Not => Formula::not(f),
            // Constants are fixpoints of these operators, on the words of
            // a model. Not all of them on a word cut by `abort`, whose
            // letters from the cut on satisfy every Boolean (⊤, `false`
            // included) or none (⊥, `true` included): there `X false`
            // holds one letter before the cut and `false` does not, nor
            // does `F false` anywhere before it, and dually `X true` and
            // `G true` fail before a ⊥ cut. Only the folds that hold on
            // such words are made here; `simplify` makes the others,
            // outside `abort`.
            Op::F | Op::O | Op::H if f.op() == Op::True => f,
            Op::G | Op::O | Op::H if f.op() == Op::False => f,
            Op::Y if f.is_false() => f,
            Op::Z if f.is_true() => f,
            Op::X | Op::F | Op::G | Op::Y | Op::Z | Op::O | Op::H => intern(op, "", vec![f]),
            Op::Closure => Formula::closure(f),
            Op::NegClosure => Formula::neg_closure(f),
            Op::NegClosureMarked => Formula::neg_closure_marked(f),
            _ => panic!("{op:?} is not a unary operator"),
        }
    }

    /// A binary operator (`Implies`, `Equiv`, `Xor`, `U`, `R`, `W`, `M`,
    /// `S`, `B`, `T`).
    ///
    /// Panics if `op` is not binary.
    pub fn binop(op: Op, a: Formula, b: Formula) -> Formula {
        assert_eq!(op.arity(), Some(2), "{op:?} is not a binary operator");
        match op {
            Op::UConcat => Formula::uconcat(a, b),
            Op::EConcat => Formula::econcat(a, b),
            Op::EConcatMarked => Formula::econcat_marked(a, b),
            Op::Abort => Formula::abort(a, b),
            Op::AbortBottom => Formula::abort_bottom(a, b),
            _ => intern(op, "", vec![a, b]),
        }
    }

    /// An n-ary `And` or `Or`.
    ///
    /// Panics if `op` is neither.
    pub fn multop(op: Op, operands: impl IntoIterator<Item = Formula>) -> Formula {
        let (neutral, absorbing) = match op {
            Op::And => (Op::True, Op::False),
            Op::Or => (Op::False, Op::True),
            _ => panic!("{op:?} is not an n-ary operator"),
        };
        let mut v: Vec<Formula> = Vec::new();
        for f in operands {
            if f.op() == op {
                v.extend(f.children().iter().cloned());
            } else if f.op() == absorbing {
                return f;
            } else if f.op() != neutral {
                v.push(f);
            }
        }
        v.sort();
        v.dedup();
        match v.len() {
            0 => Formula::constant(op == Op::And),
            1 => v.pop().expect("one operand"),
            _ => intern(op, "", v),
        }
    }

    /// Conjunction of any number of operands (`true` if none).
    pub fn and(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::And, operands)
    }

    /// Disjunction of any number of operands (`false` if none).
    pub fn or(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::Or, operands)
    }

    /// `a -> b`.
    pub fn implies(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Implies, a, b)
    }

    /// `a <-> b`.
    pub fn equiv(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Equiv, a, b)
    }

    /// `a xor b`.
    pub fn xor(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Xor, a, b)
    }

    /// `X f`.
    pub fn next(f: Formula) -> Formula {
        Formula::unop(Op::X, f)
    }

    /// `X` applied `n` times.
    pub fn next_n(f: Formula, n: usize) -> Formula {
        (0..n).fold(f, |g, _| Formula::next(g))
    }

    /// `F f`.
    pub fn eventually(f: Formula) -> Formula {
        Formula::unop(Op::F, f)
    }

    /// `G f`.
    pub fn always(f: Formula) -> Formula {
        Formula::unop(Op::G, f)
    }

    /// `a U b`.
    pub fn until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::U, a, b)
    }

    /// `a R b`.
    pub fn release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::R, a, b)
    }

    /// `a W b`.
    pub fn weak_until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::W, a, b)
    }

    /// `a M b`.
    pub fn strong_release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::M, a, b)
    }

    /// `Y f`.
    pub fn yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Y, f)
    }

    /// `Z f`.
    pub fn weak_yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Z, f)
    }

    /// `O f`.
    pub fn once(f: Formula) -> Formula {
        Formula::unop(Op::O, f)
    }

    /// `H f`.
    pub fn historically(f: Formula) -> Formula {
        Formula::unop(Op::H, f)
    }

    /// `a S b`.
    pub fn since(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::S, a, b)
    }

    /// `a B b`.
    pub fn back_to(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::B, a, b)
    }

    /// `a T b`.
    pub fn trigger(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::T, a, b)
    }

    /// Rebuilds a node of the same operator with new operands.
    pub fn with_children(&self, children: Vec<Formula>) -> Formula {
        match self.op() {
            Op::True | Op::False | Op::Ap | Op::EmptyWord => self.clone(),
            Op::And | Op::Or => Formula::multop(self.op(), children),
            Op::Concat => Formula::concat(children),
            Op::Fusion => Formula::fusion(children),
            Op::OrRat => Formula::sere_or(children),
            Op::AndRat => Formula::sere_and(children),
            Op::Star => {
                let [c]: [Formula; 1] = children.try_into().expect("one operand");
                let (lo, hi) = self.star_bounds().expect("star");
                Formula::star(c, lo, hi)
            }
            op if op.arity() == Some(1) => {
                let [c]: [Formula; 1] = children.try_into().expect("one operand");
                Formula::unop(op, c)
            }
            op => {
                let [a, b]: [Formula; 2] = children.try_into().expect("two operands");
                Formula::binop(op, a, b)
            }
        }
    }

    /// Applies `f` bottom-up to every distinct subformula (memoized), so
    /// that `f` sees nodes whose operands were already rewritten.
    pub fn map_bottom_up(&self, mut f: impl FnMut(&Formula) -> Formula) -> Formula {
        let mut memo: FxHashMap<Formula, Formula> = FxHashMap::default();
        for g in self.subformulas_postorder() {
            let kids: Vec<Formula> = g.children().iter().map(|c| memo[c].clone()).collect();
            let rebuilt = if kids.iter().zip(g.children()).all(|(a, b)| a == b) {
                g.clone()
            } else {
                g.with_children(kids)
            };
            let out = f(&rebuilt);
            memo.insert(g, out);
        }
        memo.remove(self).expect("root was visited")
    }
}

/// PSL constructors: SEREs and the operators over them. Like the others
/// they only apply trivial rewrites: flattening, the empty word, and
/// SEREs made only of Booleans become Booleans. The Boolean `false`
/// matches no letter of a word, but IEEE 1850's weak closure completes
/// words with letters that satisfy every Boolean, so `false` is kept
/// inside SEREs (`{a;false}` is not `{false}`), and the operators over a
/// `false` SERE are not folded either (words cut by `abort` have such
/// letters).
///
/// ```
/// use monitor_core::formula::Formula;
/// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
/// let r = Formula::concat([a.clone(), Formula::star(b.clone(), 0, None), a.clone()]);
/// assert_eq!(r.to_spot(), "a;b[*];a");
/// assert_eq!(Formula::uconcat(r.clone(), b.clone()).to_spot(), "{a;b[*];a}[]-> b");
/// assert_eq!(Formula::econcat(r, Formula::tt()).to_spot(), "{a;b[*];a}!");
/// // A union of Booleans is a Boolean.
/// assert_eq!(Formula::sere_or([a.clone(), b.clone()]), Formula::or([a, b]));
/// ```
impl Formula {
    /// The empty SERE `[*0]`.
    pub fn empty_word() -> Formula {
        intern(Op::EmptyWord, "", Vec::new())
    }

    /// Concatenation `r1 ; r2 ; ...` (`[*0]` if there is no operand).
    pub fn concat(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::Concat => v.extend(f.children().iter().cloned()),
                Op::EmptyWord => {}
                // `false` is not absorbing: the weak closure completes a
                // prefix with letters that satisfy every Boolean, `false`
                // included (IEEE 1850's ⊤), so `{a;false}` is not `{false}`.
                _ => v.push(f),
            }
        }
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::Concat, "", v),
        }
    }

    /// Fusion `r1 : r2 : ...`: consecutive operands share one letter, so
    /// an operand matching only the empty word makes it match nothing.
    /// (It is not folded into `false`, which matches a ⊤ letter of a word
    /// cut by `abort`.)
    pub fn fusion(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::Fusion => v.extend(f.children().iter().cloned()),
                _ => v.push(f),
            }
        }
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::Fusion, "", v),
        }
    }

    /// Union `r1 | r2 | ...` (`false` if none).
    pub fn sere_or(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::OrRat => v.extend(f.children().iter().cloned()),
                // `false` is no empty language: it matches one ⊤ letter
                // (`[*0] | false` is not `[*0]` on a word cut by `abort`);
                // among Booleans, `or` drops it.
                _ => v.push(f),
            }
        }
        if v.iter().all(Formula::is_boolean) {
            return Formula::or(v);
        }
        v.sort();
        v.dedup();
        match v.len() {
            1 => v.pop().expect("one operand"),
            _ => intern(Op::OrRat, "", v),
        }
    }

    /// Length-matching intersection `r1 && r2 && ...` (`[*0]` if none).
    pub fn sere_and(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::AndRat => v.extend(f.children().iter().cloned()),
                _ => v.push(f),
            }
        }
        if !v.is_empty() && v.iter().all(Formula::is_boolean) {
            return Formula::and(v);
        }
        v.sort();
        v.dedup();
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::AndRat, "", v),
        }
    }

    /// The non-length-matching intersection `r1 & r2` of PSL: both match,
    /// one of them possibly on a prefix of the other's match. It is
    /// written `{r1 ; [*]} && r2 | r1 && {r2 ; [*]}`.
    pub fn sere_and_nlm(a: Formula, b: Formula) -> Formula {
        if a.is_boolean() && b.is_boolean() {
            return Formula::and([a, b]);
        }
        let any = Formula::star(Formula::tt(), 0, None);
        Formula::sere_or([
            Formula::sere_and([Formula::concat([a.clone(), any.clone()]), b.clone()]),
            Formula::sere_and([a, Formula::concat([b, any])]),
        ])
    }

    /// Repetition `r[*min..max]`; `max = None` is unbounded. Panics if
    /// `max < min`.
    pub fn star(r: Formula, min: u32, max: Option<u32>) -> Formula {
        let hi = max.unwrap_or(u32::MAX);
        assert!(min <= hi, "repetition [*{min}..{hi}] with max < min");
        match r.op() {
            _ if hi == 0 => Formula::empty_word(),
            Op::EmptyWord => r,
            _ if (min, hi) == (1, 1) => r,
            // r[*][*] = r[*]
            Op::Star if (min, hi) == (0, u32::MAX) && r.star_bounds() == Some((0, None)) => r,
            _ => intern_with_bounds(Op::Star, "", (min, hi), vec![r]),
        }
    }

    /// The weak closure `{r}`.
    pub fn closure(r: Formula) -> Formula {
        intern(Op::Closure, "", vec![r])
    }

    /// The negated closure `!{r}` (also what `Formula::not` of a closure
    /// becomes in negation normal form).
    pub fn neg_closure(r: Formula) -> Formula {
        intern(Op::NegClosure, "", vec![r])
    }

    /// The marked negated closure (internal to the tableau).
    pub fn neg_closure_marked(r: Formula) -> Formula {
        intern(Op::NegClosureMarked, "", vec![r])
    }

    /// Suffix implication `{r} |-> f`. (`{r} |-> true` is not folded into
    /// `true`: on a word cut by `abort` into ⊥ letters, `true` fails at
    /// the end of a match inside the cut; `simplify` folds it outside
    /// `abort`.)
    pub fn uconcat(r: Formula, f: Formula) -> Formula {
        intern(Op::UConcat, "", vec![r, f])
    }

    /// Suffix conjunction `{r} <>-> f`; `{r}!` is `econcat(r, true)`.
    /// (`{r} <>-> false` is not folded into `false`, which holds at the
    /// end of a match inside a cut into ⊤ letters.)
    pub fn econcat(r: Formula, f: Formula) -> Formula {
        intern(Op::EConcat, "", vec![r, f])
    }

    /// The marked suffix conjunction (internal to the tableau).
    pub fn econcat_marked(r: Formula, f: Formula) -> Formula {
        intern(Op::EConcatMarked, "", vec![r, f])
    }

    /// PSL's `f abort b` (`b` a Boolean). On a Boolean `f` it is `f | b`
    /// (at the first `b` every letter satisfies `f`); nested aborts join
    /// their conditions.
    ///
    /// ```
    /// use monitor_core::formula::{Formula, parse};
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::abort(a.clone(), b.clone()), Formula::or([a.clone(), b.clone()]));
    /// let g = Formula::always(a);
    /// assert_eq!(Formula::abort(g.clone(), b).to_spot(), "(Ga) abort b");
    /// ```
    pub fn abort(f: Formula, b: Formula) -> Formula {
        assert!(!b.has_future(), "the condition of abort must be a Boolean");
        if !f.has_future() {
            return Formula::or([f, b]);
        }
        if b.is_false() {
            return f;
        }
        if f.op() == Op::Abort {
            let inner = Formula::or([f.child(1).clone(), b]);
            return Formula::abort(f.child(0).clone(), inner);
        }
        intern(Op::Abort, "", vec![f, b])
    }

    /// The dual of [`Formula::abort`] (`!(f abort b)` is
    /// `abort_bottom(!f, b)`): on a Boolean `f` it is `f & !b`.
    pub fn abort_bottom(f: Formula, b: Formula) -> Formula {
        assert!(!b.has_future(), "the condition of abort must be a Boolean");
        if !f.has_future() {
            return Formula::and([f, Formula::not(b)]);
        }
        if b.is_false() {
            return f;
        }
        if f.op() == Op::AbortBottom {
            let inner = Formula::or([f.child(1).clone(), b]);
            return Formula::abort_bottom(f.child(0).clone(), inner);
        }
        intern(Op::AbortBottom, "", vec![f, b])
    }
}
