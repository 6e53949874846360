//! [proptest] strategies for formulas and words (feature `proptest`), so
//! that a property-based test that fails shrinks to a small formula and a
//! short word instead of reporting a seed.
//!
//! Formulas are built with the crate's constructors (the trivial
//! rewrites apply); past operators only get past or Boolean operands, so
//! every generated formula is inside the fragment the translator accepts.
//! A formula shrinks by shrinking its operands, and towards a leaf (the
//! first proposition first); a lasso towards fewer letters where nothing
//! holds.
//!
//! ```
//! use monitor_core::formula::eval::holds;
//! use monitor_core::formula::Formula;
//! use monitor_core::strategy;
//! use proptest::prelude::*;
//! use proptest::test_runner::TestRunner;
//!
//! // Every formula or its negation holds on a word; the evaluator says
//! // which, and the strategies give random formulas and words.
//! let mut runner = TestRunner::default();
//! let aps = ["a".to_string(), "b".to_string()];
//! runner
//!     .run(
//!         &(strategy::ltl_with_past(&["a", "b"], 3), strategy::lasso(2, 3, 3)),
//!         |(f, w)| {
//!             prop_assert!(holds(&Formula::or([f.clone(), !f.clone()]), &aps, &w), "{f}");
//!             Ok(())
//!         },
//!     )
//!     .unwrap();
//! ```

use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::BoxedStrategy;

use crate::formula::{Formula, Op};
use crate::word::Lasso;

/// Propositions (weight 3, as Spot's `randltl`) and the constants.
fn leaves(aps: &[&str]) -> BoxedStrategy<Formula> {
    let aps: Vec<Formula> = aps.iter().map(|a| Formula::ap(a)).collect();
    assert!(!aps.is_empty(), "formulas need at least one proposition");
    prop_oneof![
        3 => select(aps),
        1 => Just(Formula::tt()),
        1 => Just(Formula::ff()),
    ]
    .boxed()
}

/// Formulas of nesting depth at most `depth` over `leaves`, with the
/// Boolean operators and the unary and binary operators given.
fn over(
    leaves: BoxedStrategy<Formula>,
    depth: u32,
    unary: &'static [Op],
    binary: &'static [Op],
) -> BoxedStrategy<Formula> {
    leaves
        .prop_recursive(depth, 64, 2, move |inner| {
            prop_oneof![
                (select(unary), inner.clone()).prop_map(|(op, f)| Formula::unop(op, f)),
                (select(binary), inner.clone(), inner.clone())
                    .prop_map(|(op, a, b)| Formula::binop(op, a, b)),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| Formula::and([a, b])),
                (inner.clone(), inner).prop_map(|(a, b)| Formula::or([a, b])),
            ]
        })
        .boxed()
}

const FUTURE_UNARY: &[Op] = &[Op::Not, Op::X, Op::F, Op::G];
const FUTURE_BINARY: &[Op] = &[Op::Implies, Op::Equiv, Op::Xor, Op::U, Op::R, Op::W, Op::M];
const PAST_UNARY: &[Op] = &[Op::Not, Op::Y, Op::Z, Op::O, Op::H];
const PAST_BINARY: &[Op] = &[Op::Implies, Op::Equiv, Op::Xor, Op::S, Op::B, Op::T];

/// LTL formulas (no past) over `aps` of nesting depth at most `depth`.
///
/// ```
/// use monitor_core::strategy;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let f = strategy::ltl(&["p", "q"], 4).new_tree(&mut TestRunner::default()).unwrap().current();
/// assert!(!f.has_past());
/// ```
pub fn ltl(aps: &[&str], depth: u32) -> BoxedStrategy<Formula> {
    over(leaves(aps), depth, FUTURE_UNARY, FUTURE_BINARY)
}

/// Pure-past formulas (`Y`, `Z`, `O`, `H`, `S`, `B`, `T` and Boolean
/// operators) over `aps` of nesting depth at most `depth`.
///
/// ```
/// # use monitor_core::strategy;
/// # use proptest::strategy::{Strategy, ValueTree};
/// # use proptest::test_runner::TestRunner;
/// let (s, mut runner) = (strategy::past(&["p", "q"], 3), TestRunner::default());
/// let f = s.new_tree(&mut runner).unwrap().current();
/// assert!(!f.has_future() && f.past_depth() <= 3);
/// ```
pub fn past(aps: &[&str], depth: u32) -> BoxedStrategy<Formula> {
    over(leaves(aps), depth, PAST_UNARY, PAST_BINARY)
}

/// LTL formulas whose leaves may be pure-past formulas (of depth at most
/// 2): the fragment of LTL with past that the translator accepts.
///
/// ```
/// # use monitor_core::strategy;
/// # use proptest::strategy::{Strategy, ValueTree};
/// # use proptest::test_runner::TestRunner;
/// let (s, mut runner) = (strategy::ltl_with_past(&["p", "q"], 3), TestRunner::default());
/// let f = s.new_tree(&mut runner).unwrap().current();
/// assert!(!f.has_past_over_future()); // the translator accepts it
/// ```
pub fn ltl_with_past(aps: &[&str], depth: u32) -> BoxedStrategy<Formula> {
    let leaves = prop_oneof![
        2 => leaves(aps),
        1 => past(aps, 2),
    ]
    .boxed();
    over(leaves, depth, FUTURE_UNARY, FUTURE_BINARY)
}

/// Lassos over `props` propositions (letters are bit masks, bit `i` for
/// proposition `i`; `props <= 63`): at most `max_prefix` letters, then a
/// cycle of 1 to `max_cycle`. A lasso shrinks towards a shorter one with
/// letters where nothing holds.
///
/// ```
/// # use monitor_core::strategy;
/// # use proptest::strategy::{Strategy, ValueTree};
/// # use proptest::test_runner::TestRunner;
/// let w = strategy::lasso(2, 3, 2).new_tree(&mut TestRunner::default()).unwrap().current();
/// assert!(w.prefix.len() <= 3 && (1..=2).contains(&w.cycle.len()));
/// assert!(w.prefix.iter().chain(&w.cycle).all(|&letter| letter < 0b100)); // 2 propositions
/// ```
pub fn lasso(props: usize, max_prefix: usize, max_cycle: usize) -> BoxedStrategy<Lasso<u64>> {
    assert!(props <= 63, "at most 63 propositions");
    assert!(max_cycle >= 1, "a cycle has at least one letter");
    let letter = 0..(1u64 << props);
    (
        proptest::collection::vec(letter.clone(), 0..=max_prefix),
        proptest::collection::vec(letter, 1..=max_cycle),
    )
        .prop_map(|(prefix, cycle)| Lasso::new(prefix, cycle))
        .boxed()
}
