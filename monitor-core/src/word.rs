//! Words: the ultimately periodic words (lassos) that the reference
//! evaluator reads, that automata run on, and that analyses return as
//! witnesses. Letters are any type: bit masks (`u64`, see
//! [`Valuation`](crate::Valuation)), or one `bool` per proposition.
//!
//! ```
//! use monitor_core::word::Lasso;
//!
//! // a, then (b c) forever.
//! let w = Lasso::new(vec!['a'], vec!['b', 'c']);
//! assert_eq!((0..5).map(|i| *w.letter(i)).collect::<String>(), "abcbc");
//! ```

/// An ultimately periodic word `prefix · cycle^ω`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Lasso<L> {
    /// The letters read once.
    pub prefix: Vec<L>,
    /// The letters repeated forever (never empty).
    pub cycle: Vec<L>,
}

impl<L> Lasso<L> {
    /// A lasso. Panics if `cycle` is empty.
    ///
    /// ```
    /// # use monitor_core::word::Lasso;
    /// let w = Lasso::new(vec![0u64], vec![1, 2]);
    /// assert_eq!((w.prefix, w.cycle), (vec![0], vec![1, 2]));
    /// assert!(std::panic::catch_unwind(|| Lasso::new(vec![0u64], vec![])).is_err());
    /// ```
    pub fn new(prefix: Vec<L>, cycle: Vec<L>) -> Lasso<L> {
        assert!(!cycle.is_empty(), "the cycle of a lasso cannot be empty");
        Lasso { prefix, cycle }
    }

    /// The letter at position `i` of the infinite word.
    ///
    /// ```
    /// # use monitor_core::word::Lasso;
    /// // a, then (b c) forever: a b c b c b ...
    /// let w = Lasso::new(vec!['a'], vec!['b', 'c']);
    /// assert_eq!((*w.letter(0), *w.letter(1), *w.letter(4), *w.letter(5)), ('a', 'b', 'c', 'b'));
    /// ```
    pub fn letter(&self, i: usize) -> &L {
        if i < self.prefix.len() {
            &self.prefix[i]
        } else {
            &self.cycle[(i - self.prefix.len()) % self.cycle.len()]
        }
    }
}
