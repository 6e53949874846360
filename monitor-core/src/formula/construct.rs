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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::tt().to_spot(), "1");
    /// assert!(Formula::tt().is_true());
    /// ```
    pub fn tt() -> Formula {
        intern(Op::True, "", Vec::new())
    }

    /// The constant `false`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::ff().to_spot(), "0");
    /// assert_eq!(Formula::ff(), !Formula::tt());
    /// ```
    pub fn ff() -> Formula {
        intern(Op::False, "", Vec::new())
    }

    /// A Boolean constant.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::constant(true), Formula::tt());
    /// assert_eq!(Formula::constant(false).to_spot(), "0");
    /// ```
    pub fn constant(value: bool) -> Formula {
        if value {
            Formula::tt()
        } else {
            Formula::ff()
        }
    }

    /// An atomic proposition (any non-empty name; names that are not plain
    /// identifiers print in double quotes).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::ap("req").to_spot(), "req");
    /// assert_eq!(Formula::ap("x > 3").to_spot(), "\"x > 3\"");
    /// // `F` alone would read as the operator.
    /// assert_eq!(Formula::ap("F").to_spot(), "\"F\"");
    /// ```
    pub fn ap(name: &str) -> Formula {
        intern(Op::Ap, name, Vec::new())
    }

    /// Negation. (Also available as the `!` operator on formulas; the
    /// associated function reads like the other constructors.)
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::not(a.clone()).to_spot(), "!a");
    /// assert_eq!(Formula::not(Formula::not(a.clone())), a);
    /// assert_eq!(Formula::not(Formula::tt()), Formula::ff());
    /// ```
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
    /// Panics if `op` is not unary, or is `Star` (which needs its bounds:
    /// [`Formula::star`]).
    ///
    /// ```
    /// # use monitor_core::formula::{Formula, Op};
    /// assert_eq!(Formula::unop(Op::G, Formula::ap("a")).to_spot(), "Ga");
    /// assert_eq!(Formula::unop(Op::F, Formula::tt()), Formula::tt());
    /// // `X 1` is left to `simplify` (it is not `1` on a word cut by `abort`).
    /// assert_eq!(Formula::unop(Op::X, Formula::tt()).to_spot(), "X(1)");
    /// ```
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
            Op::FirstMatch => Formula::first_match(f),
            Op::Closure => Formula::closure(f),
            Op::NegClosure => Formula::neg_closure(f),
            Op::NegClosureMarked => Formula::neg_closure_marked(f),
            Op::Star => panic!("Star needs its bounds: build it with Formula::star"),
            Op::FStar => panic!("FStar needs its bounds: build it with Formula::fusion_power"),
            _ => panic!("{op:?} is not a unary operator"),
        }
    }

    /// A binary operator (`Implies`, `Equiv`, `Xor`, `U`, `R`, `W`, `M`,
    /// `S`, `B`, `T`).
    ///
    /// Panics if `op` is not binary.
    ///
    /// ```
    /// # use monitor_core::formula::{Formula, Op};
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::binop(Op::U, a.clone(), b).to_spot(), "a U b");
    /// // No rewrite beyond the trivial ones: `1 -> a` stays.
    /// assert_eq!(Formula::binop(Op::Implies, Formula::tt(), a).to_spot(), "1 -> a");
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::{Formula, Op};
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let f = Formula::multop(Op::Or, [b.clone(), Formula::ff(), a.clone(), b]);
    /// assert_eq!(f.to_spot(), "a | b");
    /// assert_eq!(Formula::multop(Op::And, [a, Formula::ff()]), Formula::ff());
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let f = Formula::and([b.clone(), Formula::tt(), Formula::and([a.clone(), b])]);
    /// assert_eq!(f.to_spot(), "a & b"); // flattened, sorted, `true` and duplicates dropped
    /// assert_eq!(Formula::and([]), Formula::tt());
    /// ```
    pub fn and(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::And, operands)
    }

    /// Disjunction of any number of operands (`false` if none).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::or([b.clone(), a.clone(), a.clone()]).to_spot(), "a | b");
    /// assert_eq!(Formula::or([a, Formula::tt()]), Formula::tt());
    /// assert_eq!(Formula::or([]), Formula::ff());
    /// ```
    pub fn or(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::Or, operands)
    }

    /// `a -> b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::implies(a, Formula::next(b)).to_spot(), "a -> Xb");
    /// ```
    pub fn implies(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Implies, a, b)
    }

    /// `a <-> b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::equiv(a, b).to_spot(), "a <-> b");
    /// ```
    pub fn equiv(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Equiv, a, b)
    }

    /// `a xor b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::xor(a, b).to_spot(), "a xor b");
    /// ```
    pub fn xor(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Xor, a, b)
    }

    /// `X f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::next(a.clone()).to_spot(), "Xa");
    /// assert_eq!(Formula::next(Formula::and([a, b])).to_spot(), "X(a & b)");
    /// ```
    pub fn next(f: Formula) -> Formula {
        Formula::unop(Op::X, f)
    }

    /// `X` applied `n` times.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::next_n(a.clone(), 3).to_spot(), "XXXa");
    /// assert_eq!(Formula::next_n(a.clone(), 0), a);
    /// ```
    pub fn next_n(f: Formula, n: usize) -> Formula {
        (0..n).fold(f, |g, _| Formula::next(g))
    }

    /// `F[lo:hi] f` (`op` is [`Op::F`]) or `G[lo:hi] f` (`op` is [`Op::G`]),
    /// nested as Spot expands them: `F[2:4] f` is `XX(f | X(f | X f))`,
    /// `G[2:4] f` is `XX(f & X(f & X f))`, linear in `hi`.
    ///
    /// A window of the same operator directly below is merged into this
    /// one: `F[a:b] F[c:d] f` is `F[a+c:b+d] f` and `G[a:b] G[c:d] f` is
    /// `G[a+c:b+d] f` (the positions `i + j`, `i` in `[a, b]` and `j` in
    /// `[c, d]`, are exactly `[a+c, b+d]`). Nested, the windows are the
    /// same language with every sum `i + j` spelled apart: simplifying
    /// them into one cost cubic time (`F[0:1000] F[0:1000] b`: 77 s),
    /// where merged they are the window `F[0:2000] b`. The operand is
    /// recognized by its shape, as this function builds it, whoever built
    /// it.
    ///
    /// Panics if `op` is not `F` or `G`, or if `lo > hi`.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula, Op};
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::bounded(Op::F, 2, 4, a.clone()), parse("XX(a | X(a | Xa))")?);
    /// assert_eq!(Formula::bounded(Op::G, 1, 1, a.clone()), parse("Xa")?);
    /// let inner = Formula::bounded(Op::F, 0, 3, a.clone());
    /// assert_eq!(Formula::bounded(Op::F, 1, 2, inner), Formula::bounded(Op::F, 1, 5, a));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn bounded(op: Op, lo: u32, hi: u32, f: Formula) -> Formula {
        assert!(matches!(op, Op::F | Op::G), "{op:?} has no bounded form");
        assert!(lo <= hi, "bounds [{lo}:{hi}] out of order");
        if let Some((lo2, hi2, g)) = f.as_window(op) {
            if let (Some(l), Some(h)) = (lo.checked_add(lo2), hi.checked_add(hi2)) {
                return Formula::bounded(op, l, h, g);
            }
        }
        let multop = if op == Op::F { Op::Or } else { Op::And };
        let mut body = f.clone();
        for _ in lo..hi {
            body = Formula::multop(multop, [f.clone(), Formula::next(body)]);
        }
        Formula::next_n(body, lo as usize)
    }

    /// `Some((lo, hi, g))` if `self` is `op[lo:hi] g` as
    /// [`Formula::bounded`] builds it, with `lo < hi` (an `X` chain is left
    /// alone). Verified level by level: the result is the same formula,
    /// not only an equivalent one.
    fn as_window(&self, op: Op) -> Option<(u32, u32, Formula)> {
        let multop = if op == Op::F { Op::Or } else { Op::And };
        let mut lo = 0u32;
        let mut h = self;
        while h.op() == Op::X {
            lo = lo.checked_add(1)?;
            h = h.child(0);
        }
        if h.op() != multop {
            return None;
        }
        // `h` is `g op X(next)`, with the operands of `g` flattened into
        // it when `g` is itself an `op`; `g` may have `X` operands of its
        // own, so a few candidates for `X(next)` are tried.
        for x in h.children().iter().filter(|c| c.op() == Op::X).take(4) {
            let g = Formula::multop(multop, h.children().iter().filter(|c| *c != x).cloned());
            let g_ops: &[Formula] = if g.op() == multop {
                g.children()
            } else {
                std::slice::from_ref(&g)
            };
            // `cur` is the level below: `g`, or `g op X(level below)`.
            let mut cur = x.child(0).clone();
            let mut m = 1u32;
            loop {
                if cur == g {
                    return Some((lo, lo.checked_add(m)?, g));
                }
                if cur.op() != multop || cur.children().len() != g_ops.len() + 1 {
                    break;
                }
                // The operands of `cur` but one `X` are those of `g` (both
                // sorted), the one left out is the next level.
                let next = cur.children().iter().enumerate().find_map(|(i, y)| {
                    let rest = cur.children()[..i].iter().chain(&cur.children()[i + 1..]);
                    (y.op() == Op::X && rest.eq(g_ops.iter())).then(|| y.child(0).clone())
                });
                match next {
                    Some(n) => {
                        cur = n;
                        m = m.checked_add(1)?;
                    }
                    None => break,
                }
            }
        }
        None
    }

    /// `F f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::eventually(Formula::ap("a")).to_spot(), "Fa");
    /// assert_eq!(Formula::eventually(Formula::tt()), Formula::tt());
    /// ```
    pub fn eventually(f: Formula) -> Formula {
        Formula::unop(Op::F, f)
    }

    /// `G f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::always(Formula::ap("a")).to_spot(), "Ga");
    /// assert_eq!(Formula::always(Formula::ff()), Formula::ff());
    /// ```
    pub fn always(f: Formula) -> Formula {
        Formula::unop(Op::G, f)
    }

    /// `a U b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::until(a, b).to_spot(), "a U b");
    /// ```
    pub fn until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::U, a, b)
    }

    /// `a R b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::release(a, b).to_spot(), "a R b");
    /// ```
    pub fn release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::R, a, b)
    }

    /// `a W b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::weak_until(a, b).to_spot(), "a W b");
    /// ```
    pub fn weak_until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::W, a, b)
    }

    /// `a M b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::strong_release(a, b).to_spot(), "a M b");
    /// ```
    pub fn strong_release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::M, a, b)
    }

    /// `Y f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::yesterday(Formula::ap("a")).to_spot(), "Ya");
    /// assert_eq!(Formula::yesterday(Formula::ff()), Formula::ff());
    /// ```
    pub fn yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Y, f)
    }

    /// `Z f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::weak_yesterday(Formula::ap("a")).to_spot(), "Za");
    /// assert_eq!(Formula::weak_yesterday(Formula::tt()), Formula::tt());
    /// ```
    pub fn weak_yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Z, f)
    }

    /// `O f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::once(Formula::ap("a")).to_spot(), "Oa");
    /// assert_eq!(Formula::once(Formula::tt()), Formula::tt());
    /// ```
    pub fn once(f: Formula) -> Formula {
        Formula::unop(Op::O, f)
    }

    /// `H f`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::historically(Formula::ap("a")).to_spot(), "Ha");
    /// assert_eq!(Formula::historically(Formula::ff()), Formula::ff());
    /// ```
    pub fn historically(f: Formula) -> Formula {
        Formula::unop(Op::H, f)
    }

    /// `a S b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::since(a, b).to_spot(), "a S b");
    /// ```
    pub fn since(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::S, a, b)
    }

    /// `a B b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::back_to(a, b).to_spot(), "a B b");
    /// ```
    pub fn back_to(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::B, a, b)
    }

    /// `a T b`.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::trigger(a, b).to_spot(), "a T b");
    /// ```
    pub fn trigger(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::T, a, b)
    }

    /// Rebuilds a node of the same operator with new operands.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// let (c, d) = (Formula::ap("c"), Formula::ap("d"));
    /// assert_eq!(parse("a U b")?.with_children(vec![c, d.clone()]).to_spot(), "c U d");
    /// // Rebuilt with the constructor, and its trivial rewrites.
    /// assert_eq!(parse("a & b")?.with_children(vec![Formula::tt(), d.clone()]), d);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
            Op::FStar => {
                let [c]: [Formula; 1] = children.try_into().expect("one operand");
                let (lo, hi) = self.fusion_power_bounds().expect("fusion power");
                Formula::fusion_power(c, lo, hi)
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
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// let f = parse("G(a & b) | F c")?;
    /// let b_true = |g: &Formula| if g.ap_name() == Some("b") { Formula::tt() } else { g.clone() };
    /// let g = f.map_bottom_up(b_true);
    /// assert_eq!(g.to_spot(), "Fc | Ga"); // `a & 1` became `a` on the way up
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// assert_eq!(Formula::empty_word().to_spot(), "[*0]");
    /// assert!(Formula::empty_word().accepts_empty_word());
    /// ```
    pub fn empty_word() -> Formula {
        intern(Op::EmptyWord, "", Vec::new())
    }

    /// Concatenation `r1 ; r2 ; ...` (`[*0]` if there is no operand).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let ba = Formula::concat([b, a.clone()]);
    /// let r = Formula::concat([a.clone(), Formula::empty_word(), ba]);
    /// assert_eq!(r.to_spot(), "a;b;a");
    /// assert_eq!(Formula::concat([a, Formula::ff()]).to_spot(), "a;0"); // `false` is kept
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::fusion([a.clone(), Formula::star(b, 0, None)]).to_spot(), "a:b[*]");
    /// assert_eq!(Formula::fusion([a.clone()]), a);
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let ab = Formula::concat([a.clone(), b.clone()]);
    /// assert_eq!(Formula::sere_or([ab, a.clone()]).to_spot(), "a | {a;b}");
    /// assert_eq!(Formula::sere_or([a.clone(), b.clone()]), Formula::or([a, b]));
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let ab = Formula::concat([a.clone(), b.clone()]);
    /// let bs = Formula::star(b.clone(), 0, None);
    /// assert_eq!(Formula::sere_and([ab, bs]).to_spot(), "{a;b} && b[*]");
    /// assert_eq!(Formula::sere_and([a.clone(), b.clone()]), Formula::and([a, b]));
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let ab = Formula::concat([a.clone(), b.clone()]);
    /// let f = Formula::sere_and_nlm(ab, b.clone());
    /// assert_eq!(f.to_spot(), "{b && {a;b;[*]}} | {{a;b} && {b;[*]}}");
    /// assert_eq!(Formula::sere_and_nlm(a.clone(), b.clone()), Formula::and([a, b]));
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::star(a.clone(), 2, Some(3)).to_spot(), "a[*2..3]");
    /// assert_eq!(Formula::star(a.clone(), 1, Some(1)), a);
    /// assert_eq!(Formula::star(a, 0, Some(0)), Formula::empty_word());
    /// ```
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

    /// Spot's fusion power `r[:*min..max]` (`max = None`: unbounded):
    /// between `min` and `max` copies of `r` fused, `r:r:…:r`, where zero
    /// copies is one letter (`1`, the unit of fusion on non-empty words)
    /// and one copy is `r` without the empty word (which fuses with
    /// nothing). Panics if `max < min`.
    ///
    /// Spot's trivial identities are applied: `r[:*0]` is `1`, the power
    /// of a Boolean `b` is `1` (`min = 0`) or `b` (`b:b` is `b`),
    /// `[*0][:*0..j]` is `1`, and `r[:*1]` is `r` when `r` does not accept
    /// the empty word.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let ab = Formula::concat([a.clone(), b.clone()]);
    /// assert_eq!(Formula::fusion_power(ab.clone(), 1, None).to_spot(), "{a;b}[:+]");
    /// assert_eq!(Formula::fusion_power(ab.clone(), 2, Some(4)).to_spot(), "{a;b}[:*2..4]");
    /// assert_eq!(Formula::fusion_power(ab.clone(), 1, Some(1)), ab);
    /// assert_eq!(Formula::fusion_power(ab, 0, Some(0)), Formula::tt());
    /// assert_eq!(Formula::fusion_power(a.clone(), 0, None), Formula::tt());
    /// assert_eq!(Formula::fusion_power(a.clone(), 2, None), a);
    /// ```
    pub fn fusion_power(r: Formula, min: u32, max: Option<u32>) -> Formula {
        let hi = max.unwrap_or(u32::MAX);
        assert!(min <= hi, "fusion power [:*{min}..{hi}] with max < min");
        if hi == 0 || (min == 0 && (!r.has_future() || r.op() == Op::EmptyWord)) {
            return Formula::tt();
        }
        // `b:b` is `b` (both read the same letter), also on a ⊤ letter.
        if !r.has_future() || ((min, hi) == (1, 1) && !r.accepts_empty_word()) {
            return r;
        }
        intern_with_bounds(Op::FStar, "", (min, hi), vec![r])
    }

    /// `first_match(r)` (IEEE 1800-2017 §16.9.8): the words of `r` that
    /// have no proper prefix in `r`. It is `r` itself when no two words of
    /// `r` can be prefixes of each other: a Boolean, or a SERE whose words
    /// all have the same length; and `[*0]` when `r` matches the empty
    /// word (the empty word is a prefix of every other).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let r = Formula::concat([a.clone(), Formula::star(Formula::tt(), 0, Some(2)), b.clone()]);
    /// assert_eq!(Formula::first_match(r).to_spot(), "first_match(a;[*0..2];b)");
    /// // Every word of `a;b` has length 2: nothing to choose.
    /// let ab = Formula::concat([a.clone(), b.clone()]);
    /// assert_eq!(Formula::first_match(ab.clone()), ab);
    /// assert_eq!(Formula::first_match(Formula::star(a, 0, None)), Formula::empty_word());
    /// ```
    pub fn first_match(r: Formula) -> Formula {
        if r.accepts_empty_word() {
            return Formula::empty_word();
        }
        if !r.has_future() || r.op() == Op::FirstMatch || fixed_length(&r).is_some() {
            return r;
        }
        intern(Op::FirstMatch, "", vec![r])
    }

    /// The weak closure `{r}`. (`{first_match(r)}` is `{r}`: a word
    /// completes to a match of one iff it completes to a match of the
    /// other, the shortest.)
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// assert_eq!(Formula::closure(r).to_spot(), "{a;b}");
    /// ```
    pub fn closure(r: Formula) -> Formula {
        intern(Op::Closure, "", vec![without_first_match(r)])
    }

    /// The negated closure `!{r}` (also what `Formula::not` of a closure
    /// becomes in negation normal form).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// assert_eq!(Formula::neg_closure(r.clone()).to_spot(), "!{a;b}");
    /// assert_eq!(Formula::not(Formula::closure(r.clone())).nnf(), Formula::neg_closure(r));
    /// ```
    pub fn neg_closure(r: Formula) -> Formula {
        intern(Op::NegClosure, "", vec![without_first_match(r)])
    }

    /// The marked negated closure (internal to the tableau).
    ///
    /// ```
    /// # use monitor_core::formula::{Formula, Op};
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// let f = Formula::neg_closure_marked(r.clone());
    /// assert_eq!((f.op(), f.child(0)), (Op::NegClosureMarked, &r));
    /// ```
    pub fn neg_closure_marked(r: Formula) -> Formula {
        intern(Op::NegClosureMarked, "", vec![without_first_match(r)])
    }

    /// Suffix implication `{r} |-> f`. (`{r} |-> true` is not folded into
    /// `true`: on a word cut by `abort` into ⊥ letters, `true` fails at
    /// the end of a match inside the cut; `simplify` folds it outside
    /// `abort`.)
    ///
    /// ```
    /// # use monitor_core::formula::{simplify::simplify, Formula};
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// assert_eq!(Formula::uconcat(r.clone(), Formula::ap("c")).to_spot(), "{a;b}[]-> c");
    /// let f = Formula::uconcat(r, Formula::tt());
    /// assert_eq!((f.to_spot(), simplify(&f)), ("{a;b}[]-> 1".to_string(), Formula::tt()));
    /// ```
    pub fn uconcat(r: Formula, f: Formula) -> Formula {
        intern(Op::UConcat, "", vec![r, f])
    }

    /// Suffix conjunction `{r} <>-> f`; `{r}!` is `econcat(r, true)`.
    /// (`{r} <>-> false` is not folded into `false`, which holds at the
    /// end of a match inside a cut into ⊤ letters. `{first_match(r)}!` is
    /// `{r}!`: `r` has a match iff it has a shortest one.)
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// assert_eq!(Formula::econcat(r.clone(), Formula::ap("c")).to_spot(), "{a;b}<>-> c");
    /// assert_eq!(Formula::econcat(r, Formula::tt()).to_spot(), "{a;b}!");
    /// ```
    pub fn econcat(r: Formula, f: Formula) -> Formula {
        let r = if f.is_true() {
            without_first_match(r)
        } else {
            r
        };
        intern(Op::EConcat, "", vec![r, f])
    }

    /// The marked suffix conjunction (internal to the tableau).
    ///
    /// ```
    /// # use monitor_core::formula::{Formula, Op};
    /// let r = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// let f = Formula::econcat_marked(r.clone(), Formula::ap("c"));
    /// assert_eq!((f.op(), f.children()), (Op::EConcatMarked, &[r, Formula::ap("c")][..]));
    /// ```
    pub fn econcat_marked(r: Formula, f: Formula) -> Formula {
        let r = if f.is_true() {
            without_first_match(r)
        } else {
            r
        };
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
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// let f = Formula::abort_bottom(a.clone(), b.clone());
    /// assert_eq!(f, Formula::and([a.clone(), Formula::not(b.clone())]));
    /// assert_eq!(Formula::abort_bottom(Formula::always(a), b).to_spot(), "(Ga) abort_bottom b");
    /// ```
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

/// `r` without an outer `first_match`, where only whether a match exists
/// counts (closures, `{r}!`). Exact also on words cut by `abort`: the
/// shortest match of `r` is a first match, since a proper prefix that
/// matches with its ⊤ letters read as ⊥ (IEEE 1800-2017 F.3.3) has no ⊤
/// letter and so is a shorter match.
fn without_first_match(r: Formula) -> Formula {
    if r.op() == Op::FirstMatch {
        r.child(0).clone()
    } else {
        r
    }
}

/// The length of every word of the SERE `r`, when it is the same for all
/// (`None` when it is not, or not known by these rules); a SERE with no
/// word may have any answer.
fn fixed_length(r: &Formula) -> Option<u32> {
    if !r.has_future() {
        return Some(1);
    }
    let kids = || r.children().iter().map(fixed_length);
    match r.op() {
        Op::EmptyWord => Some(0),
        Op::Concat => kids().try_fold(0u32, |acc, k| acc.checked_add(k?)),
        // Consecutive operands share a letter.
        Op::Fusion => kids()
            .try_fold(0u32, |acc, k| acc.checked_add(k?))?
            .checked_sub(r.children().len() as u32 - 1),
        // One operand of fixed length fixes the intersection's.
        Op::AndRat => kids().flatten().next(),
        Op::OrRat => {
            let mut all = kids();
            let first = all.next()??;
            all.all(|k| k == Some(first)).then_some(first)
        }
        Op::Star => match r.star_bounds()? {
            (lo, Some(hi)) if lo == hi => fixed_length(r.child(0))?.checked_mul(lo),
            _ => None,
        },
        // `k` copies of length `n` share `k - 1` letters; zero copies is one letter.
        Op::FStar => match r.fusion_power_bounds()? {
            (0, Some(0)) => Some(1),
            (lo, Some(hi)) if lo == hi => fixed_length(r.child(0))?
                .checked_sub(1)?
                .checked_mul(lo)?
                .checked_add(1),
            _ => None,
        },
        Op::FirstMatch => fixed_length(r.child(0)),
        _ => None,
    }
}
