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
//! let mut gen = RandomLtl::new(&["a", "b"], 7).seed(42);
//! let f = gen.next_formula();
//! assert_eq!(f, RandomLtl::new(&["a", "b"], 7).seed(42).next_formula());
//! ```

use super::{Formula, Op};

/// A deterministic 64-bit generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started at `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        // Multiply-shift: unbiased enough for test generation.
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// True with probability `num/den`.
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
    /// Formulas of tree size `size` over the propositions `aps`, with
    /// Spot's default weights: propositions 3, every LTL operator and the
    /// constants 1.
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
    pub fn seed(mut self, seed: u64) -> RandomLtl {
        self.rng = SplitMix64::new(seed);
        self
    }

    /// Sets the weight of an operator (0 disables it). `Op::Ap` is the
    /// weight of propositions.
    pub fn weight(mut self, op: Op, w: u32) -> RandomLtl {
        match self.weights.iter_mut().find(|(o, _)| *o == op) {
            Some(e) => e.1 = w,
            None => self.weights.push((op, w)),
        }
        self
    }

    /// Enables the past operators `Y Z O H S B T` with weight 1 each
    /// (their operands are drawn from past and Boolean operators only).
    pub fn with_past(mut self) -> RandomLtl {
        self.past = true;
        for op in [Op::Y, Op::Z, Op::O, Op::H, Op::S, Op::B, Op::T] {
            self = self.weight(op, 1);
        }
        self
    }

    /// Changes the size of the next formulas.
    pub fn size(mut self, size: usize) -> RandomLtl {
        self.size = size.max(1);
        self
    }

    /// Draws the next formula.
    pub fn next_formula(&mut self) -> Formula {
        let size = self.size;
        self.gen(size, false)
    }

    fn gen(&mut self, size: usize, past_only: bool) -> Formula {
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
                let c = self.gen(size - 1, sub_past);
                Formula::unop(op, c)
            }
            _ => {
                let left = 1 + self.rng.below(size as u64 - 2) as usize;
                let a = self.gen(left, sub_past);
                let b = self.gen(size - 1 - left, sub_past);
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
