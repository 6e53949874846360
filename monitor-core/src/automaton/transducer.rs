//! Symbolic transducers (Launiainen, Heljanko and Junttila, LHJ10):
//! linear-size observers of informative bad prefixes.
//!
//! A transducer has Boolean state variables, the propositions as inputs,
//! and three constraints: `init` on the first state, `trans` on every pair
//! of consecutive states (it may use [`TExpr::Next`]), and `finals` on the
//! last state of an execution. It is built for the negation of the
//! property, one variable per temporal subformula holding that
//! subformula's truth value under the *strong* semantics on finite words:
//! an execution that starts with the negation true and ends in a state
//! satisfying `finals` reads an informative bad prefix of the property,
//! and every informative bad prefix has such an execution. The
//! construction is linear in the formula; the nondeterminism (values
//! guessed and checked one step later) is left to the model checker.
//!
//! Past operators do not need guessing: their registers are updated
//! deterministically ([`TVar::register`]).
//!
//! See the `mongen` crate's SMV emitter for the NuSMV module.

use super::Alphabet;

/// An expression over the inputs (propositions) and the state variables.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TExpr {
    /// A constant.
    Const(bool),
    /// Proposition number `i` of the alphabet (an input).
    Ap(u32),
    /// State variable number `i`.
    Var(u32),
    /// The value of the expression in the next state.
    Next(Box<TExpr>),
    /// Negation.
    Not(Box<TExpr>),
    /// Conjunction.
    And(Vec<TExpr>),
    /// Disjunction.
    Or(Vec<TExpr>),
    /// Equivalence.
    Iff(Box<TExpr>, Box<TExpr>),
}

impl TExpr {
    /// `!e`. (A constructor like the others, not `std::ops::Not`.)
    ///
    /// ```
    /// # use monitor_core::automaton::TExpr;
    /// assert_eq!(TExpr::not(TExpr::Const(true)), TExpr::Const(false));
    /// assert_eq!(TExpr::not(TExpr::not(TExpr::Var(0))), TExpr::Var(0));
    /// assert_eq!(TExpr::not(TExpr::Ap(1)), TExpr::Not(Box::new(TExpr::Ap(1))));
    /// ```
    #[allow(clippy::should_implement_trait)]
    pub fn not(e: TExpr) -> TExpr {
        match e {
            TExpr::Const(b) => TExpr::Const(!b),
            TExpr::Not(x) => *x,
            other => TExpr::Not(Box::new(other)),
        }
    }

    /// Conjunction, without constants.
    ///
    /// ```
    /// # use monitor_core::automaton::TExpr;
    /// assert_eq!(TExpr::and([TExpr::Const(true), TExpr::Ap(0)]), TExpr::Ap(0));
    /// assert_eq!(TExpr::and([TExpr::Ap(0), TExpr::Const(false)]), TExpr::Const(false));
    /// assert_eq!(TExpr::and([]), TExpr::Const(true));
    /// ```
    pub fn and(parts: impl IntoIterator<Item = TExpr>) -> TExpr {
        let mut v = Vec::new();
        for p in parts {
            match p {
                TExpr::Const(true) => {}
                TExpr::Const(false) => return TExpr::Const(false),
                TExpr::And(xs) => v.extend(xs),
                other => v.push(other),
            }
        }
        match v.len() {
            0 => TExpr::Const(true),
            1 => v.pop().expect("one"),
            _ => TExpr::And(v),
        }
    }

    /// Disjunction, without constants.
    ///
    /// ```
    /// # use monitor_core::automaton::TExpr;
    /// assert_eq!(TExpr::or([TExpr::Const(false), TExpr::Ap(0)]), TExpr::Ap(0));
    /// assert_eq!(TExpr::or([TExpr::Ap(0), TExpr::Const(true)]), TExpr::Const(true));
    /// // Nested disjunctions are flattened.
    /// let ab = TExpr::or([TExpr::Ap(0), TExpr::Ap(1)]);
    /// let flat = TExpr::Or(vec![TExpr::Ap(0), TExpr::Ap(1), TExpr::Var(0)]);
    /// assert_eq!(TExpr::or([ab, TExpr::Var(0)]), flat);
    /// ```
    pub fn or(parts: impl IntoIterator<Item = TExpr>) -> TExpr {
        let mut v = Vec::new();
        for p in parts {
            match p {
                TExpr::Const(false) => {}
                TExpr::Const(true) => return TExpr::Const(true),
                TExpr::Or(xs) => v.extend(xs),
                other => v.push(other),
            }
        }
        match v.len() {
            0 => TExpr::Const(false),
            1 => v.pop().expect("one"),
            _ => TExpr::Or(v),
        }
    }

    /// `a <-> b`.
    ///
    /// ```
    /// # use monitor_core::automaton::TExpr;
    /// assert_eq!(TExpr::iff(TExpr::Const(true), TExpr::Ap(0)), TExpr::Ap(0));
    /// assert_eq!(TExpr::iff(TExpr::Var(0), TExpr::Const(false)), TExpr::not(TExpr::Var(0)));
    /// ```
    pub fn iff(a: TExpr, b: TExpr) -> TExpr {
        match (a, b) {
            (TExpr::Const(true), x) | (x, TExpr::Const(true)) => x,
            (TExpr::Const(false), x) | (x, TExpr::Const(false)) => TExpr::not(x),
            (a, b) => TExpr::Iff(Box::new(a), Box::new(b)),
        }
    }

    /// The value in the next state.
    ///
    /// ```
    /// # use monitor_core::automaton::TExpr;
    /// assert_eq!(TExpr::next(TExpr::Var(1)), TExpr::Next(Box::new(TExpr::Var(1))));
    /// assert_eq!(TExpr::next(TExpr::Const(false)), TExpr::Const(false));
    /// ```
    pub fn next(e: TExpr) -> TExpr {
        match e {
            TExpr::Const(b) => TExpr::Const(b),
            other => TExpr::Next(Box::new(other)),
        }
    }
}

/// A state variable of a [`Transducer`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TVar {
    /// What the variable stands for, in Spot syntax (for comments).
    pub meaning: String,
    /// For a past register: its initial value and its next value (an
    /// expression over the current state). `None`: the variable is
    /// constrained by `trans` and `finals` only.
    pub register: Option<(bool, TExpr)>,
}

/// A symbolic transducer accepting the informative bad prefixes of a
/// property (see the module documentation).
#[derive(Clone, Debug)]
pub struct Transducer {
    /// The property (in Spot syntax) whose bad prefixes are detected.
    pub property: String,
    /// The inputs.
    pub alphabet: Alphabet,
    /// The state variables.
    pub vars: Vec<TVar>,
    /// Holds in the first state: the negated property is true there.
    pub init: TExpr,
    /// Conjuncts holding between every state and the next.
    pub trans: Vec<TExpr>,
    /// Conjuncts holding in a final state (where the prefix ends).
    pub finals: Vec<TExpr>,
}

impl Transducer {
    /// The number of state variables.
    ///
    /// ```
    /// # use monitor_core::analysis::transducer;
    /// # use monitor_core::formula::parse;
    /// // !G a = F !a: one variable, for the F.
    /// let t = transducer(&parse("G a")?)?;
    /// assert_eq!((t.num_vars(), t.vars[0].meaning.as_str()), (1, "F!a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_vars(&self) -> usize {
        self.vars.len()
    }
}
