//! Random formulas, in the manner of Spot's `randltl`.
//!
//! A formula of size `n` (counting propositions, constants and operators)
//! is drawn by choosing an operator with probability proportional to its
//! weight and splitting the remaining size uniformly between the operands.
//! Past operators, when enabled, only get past or Boolean operands, so
//! every generated formula is inside the fragment the translator accepts.
//!
//! The generator is seeded and uses its own SplitMix64 stream, so a seed
//! names the same formula on every platform and version of this crate.
//!
//! ```
//! use monitor_core::formula::random::RandomLtl;
//!
//! let mut random_ltl = RandomLtl::new(&["a", "b"], 7).seed(42);
//! let f = random_ltl.next_formula();
//! assert_eq!(f, RandomLtl::new(&["a", "b"], 7).seed(42).next_formula());
//! ```

use super::{Formula, Op};

/// A deterministic 64-bit generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started at `seed`.
    ///
    /// ```
    /// # use monitor_core::formula::random::SplitMix64;
    /// let (mut r, mut s) = (SplitMix64::new(7), SplitMix64::new(7));
    /// assert_eq!(r.next_u64(), s.next_u64()); // a seed names a stream
    /// assert_ne!(SplitMix64::new(8).next_u64(), s.next_u64());
    /// ```
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    ///
    /// ```
    /// # use monitor_core::formula::random::SplitMix64;
    /// let mut r = SplitMix64::new(0);
    /// assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF); // SplitMix64's reference stream
    /// assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    /// ```
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    ///
    /// ```
    /// # use monitor_core::formula::random::SplitMix64;
    /// let mut r = SplitMix64::new(1);
    /// let rolls: Vec<u64> = (0..6).map(|_| r.below(6)).collect();
    /// assert_eq!(rolls, [3, 4, 5, 2, 2, 4]);
    /// ```
    pub fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for test generation.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `num/den`.
    ///
    /// ```
    /// # use monitor_core::formula::random::SplitMix64;
    /// let mut r = SplitMix64::new(1);
    /// assert!((0..100).all(|_| !r.chance(0, 3) && r.chance(3, 3)));
    /// let heads = (0..1000).filter(|_| r.chance(1, 2)).count();
    /// assert_eq!(heads, 534); // about half
    /// ```
    pub fn chance(&mut self, num: u64, den: u64) -> bool {
        self.below(den) < num
    }
}

/// A random formula generator.
#[derive(Clone, Debug)]
pub struct RandomLtl {
    aps: Vec<Formula>,
    size: usize,
    rng: SplitMix64,
    /// (operator, weight); `Op::Ap` stands for "a proposition".
    weights: Vec<(Op, u32)>,
    past: bool,
}

impl RandomLtl {
    /// Formulas of tree size `size` over the propositions `aps` (or smaller,
    /// once the constructors' trivial rewrites have applied), with
    /// Spot's default weights: propositions 3, every LTL operator and the
    /// constants 1.
    ///
    /// ```
    /// # use monitor_core::formula::random::RandomLtl;
    /// let mut random_ltl = RandomLtl::new(&["a", "b"], 5);
    /// assert_eq!(random_ltl.next_formula().to_spot(), "!a"); // shrunk by the trivial rewrites
    /// assert!(random_ltl.take(100).all(|f| f.tree_size() <= 5));
    /// ```
    pub fn new(aps: &[&str], size: usize) -> RandomLtl {
        use Op::*;
        let mut weights = vec![(Ap, 3), (True, 1), (False, 1), (Not, 1)];
        for op in [X, F, G, Implies, Equiv, Xor, U, R, W, M, And, Or] {
            weights.push((op, 1));
        }
        RandomLtl {
            aps: aps.iter().map(|a| Formula::ap(a)).collect(),
            size: size.max(1),
            rng: SplitMix64::new(0),
            weights,
            past: false,
        }
    }

    /// Restarts the stream at `seed`.
    ///
    /// ```
    /// # use monitor_core::formula::random::RandomLtl;
    /// let random_ltl = RandomLtl::new(&["a", "b"], 5);
    /// assert_eq!(random_ltl.clone().seed(1).next_formula().to_spot(), "b U a");
    /// assert_eq!(random_ltl.seed(2).next_formula().to_spot(), "(a U 1) U 1");
    /// ```
    pub fn seed(mut self, seed: u64) -> RandomLtl {
        self.rng = SplitMix64::new(seed);
        self
    }

    /// Sets the weight of an operator (0 disables it). `Op::Ap` is the
    /// weight of propositions.
    ///
    /// ```
    /// # use monitor_core::formula::{random::RandomLtl, Op};
    /// // Size 2 is a unary operator and a leaf; only `X` is left.
    /// let random_ltl = RandomLtl::new(&["a"], 2).weight(Op::Not, 0).weight(Op::F, 0).weight(Op::G, 0);
    /// assert!(random_ltl.take(20).all(|f| f.op() == Op::X));
    /// ```
    pub fn weight(mut self, op: Op, w: u32) -> RandomLtl {
        match self.weights.iter_mut().find(|(o, _)| *o == op) {
            Some(e) => e.1 = w,
            None => self.weights.push((op, w)),
        }
        self
    }

    /// Enables the past operators `Y Z O H S B T` with weight 1 each
    /// (their operands are drawn from past and Boolean operators only).
    ///
    /// ```
    /// # use monitor_core::formula::random::RandomLtl;
    /// let mut random_ltl = RandomLtl::new(&["a", "b"], 8).with_past().seed(3);
    /// let fs: Vec<_> = random_ltl.by_ref().take(100).collect();
    /// assert!(fs.iter().any(|f| f.has_past()));
    /// assert!(fs.iter().all(|f| !f.has_past_over_future())); // what the translator accepts
    /// ```
    pub fn with_past(mut self) -> RandomLtl {
        self.past = true;
        for op in [Op::Y, Op::Z, Op::O, Op::H, Op::S, Op::B, Op::T] {
            self = self.weight(op, 1);
        }
        self
    }

    /// Changes the size of the next formulas.
    ///
    /// ```
    /// # use monitor_core::formula::random::RandomLtl;
    /// let random_ltl = RandomLtl::new(&["a", "b"], 10).size(1);
    /// assert!(random_ltl.take(50).all(|f| f.tree_size() == 1)); // propositions and constants
    /// ```
    pub fn size(mut self, size: usize) -> RandomLtl {
        self.size = size.max(1);
        self
    }

    /// Draws the next formula.
    ///
    /// ```
    /// # use monitor_core::formula::random::RandomLtl;
    /// let mut random_ltl = RandomLtl::new(&["a", "b"], 7).seed(42);
    /// assert_eq!(random_ltl.next_formula().to_spot(), "a W 1");
    /// assert_eq!(random_ltl.next_formula().to_spot(), "F((a xor a) xor F(0))");
    /// ```
    pub fn next_formula(&mut self) -> Formula {
        let size = self.size;
        self.generate(size, false)
    }

    fn generate(&mut self, size: usize, past_only: bool) -> Formula {
        let ok = |op: Op| {
            let arity = op.arity().unwrap_or(2);
            let fits = match size {
                1 => arity == 0,
                2 => arity == 1,
                _ => arity >= 1,
            };
            fits && !(past_only && op.is_future())
        };
        let choices: Vec<(Op, u32)> = self
            .weights
            .iter()
            .copied()
            .filter(|&(op, w)| w > 0 && ok(op))
            .collect();
        let total: u64 = choices.iter().map(|&(_, w)| u64::from(w)).sum();
        if total == 0 {
            // Nothing fits (e.g. no unary operator enabled for size 2):
            // fall back to a proposition.
            return self.pick_ap();
        }
        let mut r = self.rng.below(total);
        let mut op = choices[0].0;
        for &(o, w) in &choices {
            if r < u64::from(w) {
                op = o;
                break;
            }
            r -= u64::from(w);
        }
        let sub_past = past_only || op.is_past();
        match op.arity() {
            Some(0) => match op {
                Op::Ap => self.pick_ap(),
                other => Formula::constant(other == Op::True),
            },
            Some(1) => {
                let c = self.generate(size - 1, sub_past);
                Formula::unop(op, c)
            }
            _ => {
                let left = 1 + self.rng.below(size as u64 - 2) as usize;
                let a = self.generate(left, sub_past);
                let b = self.generate(size - 1 - left, sub_past);
                match op {
                    Op::And | Op::Or => Formula::multop(op, [a, b]),
                    _ => Formula::binop(op, a, b),
                }
            }
        }
    }

    fn pick_ap(&mut self) -> Formula {
        let i = self.rng.below(self.aps.len() as u64) as usize;
        self.aps[i].clone()
    }
}

impl Iterator for RandomLtl {
    type Item = Formula;
    fn next(&mut self) -> Option<Formula> {
        Some(self.next_formula())
    }
}

/// A random SERE of about `size` nodes over `aps` (Booleans, `[*0]`,
/// `;`, `:`, `|`, `&&`, `&` and bounded and unbounded repetitions), for
/// property tests of the PSL translation.
///
/// ```
/// use monitor_core::formula::random::{random_sere, SplitMix64};
/// let r = random_sere(&mut SplitMix64::new(7), &["a", "b"], 5);
/// assert!(r.is_psl() || r.is_boolean());
/// ```
pub fn random_sere(rng: &mut SplitMix64, aps: &[&str], size: usize) -> Formula {
    let leaf = |rng: &mut SplitMix64| -> Formula {
        let pick = |rng: &mut SplitMix64| Formula::ap(aps[rng.below(aps.len() as u64) as usize]);
        let a = pick(rng);
        match rng.below(8) {
            0 => Formula::tt(),
            1 => Formula::not(a),
            2 => Formula::and([a, pick(rng)]),
            3 => Formula::ff(),
            4 if rng.chance(1, 3) => Formula::empty_word(),
            _ => a,
        }
    };
    if size <= 1 {
        return leaf(rng);
    }
    let split = |rng: &mut SplitMix64| {
        let l = 1 + rng.below((size - 1) as u64) as usize;
        (l, size - 1 - l.min(size - 1)).max((1, 1))
    };
    match rng.below(9) {
        0..=2 => {
            let (l, r) = split(rng);
            Formula::concat([random_sere(rng, aps, l), random_sere(rng, aps, r)])
        }
        3 => {
            let (l, r) = split(rng);
            Formula::fusion([random_sere(rng, aps, l), random_sere(rng, aps, r)])
        }
        4 => {
            let (l, r) = split(rng);
            Formula::sere_or([random_sere(rng, aps, l), random_sere(rng, aps, r)])
        }
        5 => {
            let (l, r) = split(rng);
            Formula::sere_and([random_sere(rng, aps, l), random_sere(rng, aps, r)])
        }
        6 => {
            let (l, r) = split(rng);
            Formula::sere_and_nlm(random_sere(rng, aps, l), random_sere(rng, aps, r))
        }
        _ => {
            let lo = rng.below(3) as u32;
            let hi = if rng.chance(1, 2) {
                None
            } else {
                Some(lo + rng.below(3) as u32)
            };
            Formula::star(random_sere(rng, aps, size - 1), lo, hi)
        }
    }
}

/// `f` with some of its SEREs raised to a random fusion power (Spot's
/// `r[:*i..j]`, `r[:*i..]`, `r[:+]`, `r[:*]` with `i ≤ 3`): each SERE
/// subformula, innermost first, with probability `1/3`, so that powers
/// nest. A separate pass rather than an operator of [`random_sere`], so
/// that the seeds of the other generators name the same formulas as
/// before.
///
/// ```
/// use monitor_core::formula::random::{random_sere, with_fusion_powers, SplitMix64};
/// use monitor_core::formula::Op;
/// let mut rng = SplitMix64::new(1);
/// let powered = (0..20)
///     .map(|_| {
///         let r = random_sere(&mut rng, &["a", "b"], 5);
///         with_fusion_powers(&r, &mut rng)
///     })
///     .filter(|r| r.subformulas_postorder().iter().any(|g| g.op() == Op::FStar))
///     .count();
/// assert!(powered > 0);
/// ```
pub fn with_fusion_powers(f: &Formula, rng: &mut SplitMix64) -> Formula {
    f.map_bottom_up(|g| {
        if g.op().is_sere() && rng.chance(1, 3) {
            let lo = rng.below(4) as u32;
            let hi = if rng.chance(1, 2) {
                None
            } else {
                Some(lo + rng.below(3) as u32)
            };
            Formula::fusion_power(g.clone(), lo, hi)
        } else {
            g.clone()
        }
    })
}

/// A random PSL formula of about `size` nodes over `aps`: LTL operators,
/// suffix implication and conjunction, weak closures and their negations,
/// `abort`.
///
/// ```
/// # use monitor_core::formula::random::{random_psl, SplitMix64};
/// let f = random_psl(&mut SplitMix64::new(3), &["a", "b"], 6);
/// assert_eq!(f.to_spot(), "G({!b;0[*1..3]}<>-> a)");
/// ```
pub fn random_psl(rng: &mut SplitMix64, aps: &[&str], size: usize) -> Formula {
    if size <= 1 {
        return Formula::ap(aps[rng.below(aps.len() as u64) as usize]);
    }
    let sub = |rng: &mut SplitMix64, n: usize| random_psl(rng, aps, n.max(1));
    let sere_size = |rng: &mut SplitMix64| 1 + rng.below(size.min(6) as u64) as usize;
    match rng.below(12) {
        0 => Formula::not(sub(rng, size - 1)),
        1 => Formula::always(sub(rng, size - 1)),
        2 => Formula::eventually(sub(rng, size - 1)),
        3 => Formula::next(sub(rng, size - 1)),
        4 => Formula::and([sub(rng, size / 2), sub(rng, size / 2)]),
        5 => Formula::or([sub(rng, size / 2), sub(rng, size / 2)]),
        6 => Formula::until(sub(rng, size / 2), sub(rng, size / 2)),
        7 => {
            let n = sere_size(rng);
            Formula::uconcat(random_sere(rng, aps, n), sub(rng, size.saturating_sub(n)))
        }
        8 => {
            let n = sere_size(rng);
            Formula::econcat(random_sere(rng, aps, n), sub(rng, size.saturating_sub(n)))
        }
        9 => {
            let n = sere_size(rng);
            Formula::closure(random_sere(rng, aps, n))
        }
        10 => {
            let n = sere_size(rng);
            Formula::neg_closure(random_sere(rng, aps, n))
        }
        11 if rng.chance(1, 2) => {
            let b = Formula::ap(aps[rng.below(aps.len() as u64) as usize]);
            Formula::abort(sub(rng, size - 1), b)
        }
        _ => Formula::weak_until(sub(rng, size / 2), sub(rng, size / 2)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_fragment() {
        let mut g = RandomLtl::new(&["a", "b", "c"], 9).with_past().seed(3);
        for _ in 0..500 {
            let f = g.next_formula();
            assert!(!f.has_past_over_future(), "{f}");
            // Constructors may fold constants, so the size is an upper bound.
            assert!(f.tree_size() <= 9, "{f}");
        }
    }
}
