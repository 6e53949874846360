//! Automata: the nondeterministic Büchi automata the translation goes
//! through and the deterministic monitors it produces.
//!
//! This is the automaton layer (Spot's `twa/`). Algorithms that build or
//! transform automata live in the crate's internal `algo` module, driven by
//! [`crate::translate`].
//!
//! # Overview
//!
//! * [`Alphabet`]: the ordered atomic propositions; proposition `i` is BDD
//!   variable `i` and bit `i` of a letter.
//! * [`Nba`]: a transition-based generalized Büchi automaton with BDD
//!   guards (an intermediate form).
//! * [`BadPrefixDfa`]: the finished, complete, deterministic and minimal
//!   monitor, with one multi-terminal decision diagram per state, the
//!   verdict of each state and a shortest word reaching it.
//! * [`BuchiAutomaton`]: a Büchi automaton with accepting states and
//!   simplified guards, for properties that are not safety (Spin's never
//!   claims of liveness properties).
//! * [`Transducer`]: the linear-size symbolic observer of informative bad
//!   prefixes (for symbolic model checkers).

mod buchi;
pub(crate) mod dfa;
pub(crate) mod label;
mod nba;
mod transducer;

pub use buchi::{BuchiAutomaton, BuchiEdge};
pub use dfa::{BadPrefixDfa, Edge, StateId, Target, Verdict};
pub use label::{Guard, GuardExpr, GuardSyntax, LabelError, Labeler, MAX_LABEL_LITERALS};
pub(crate) use nba::edges_bytes;
pub use nba::{Marks, Nba, NbaEdge};
pub use transducer::{TExpr, TVar, Transducer};

use rustc_hash::FxHashMap;

/// The ordered atomic propositions of an automaton.
///
/// ```
/// use monitor_core::automaton::Alphabet;
/// let ab = Alphabet::new(["req", "ack"]);
/// assert_eq!(ab.index("ack"), Some(1));
/// assert_eq!(ab.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alphabet {
    names: Vec<String>,
    index: FxHashMap<String, u32>,
}

impl Alphabet {
    /// An alphabet of the given propositions, in order (duplicates are
    /// ignored).
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// let ab = Alphabet::new(["req", "ack", "req"]);
    /// assert_eq!(ab.names(), ["req", "ack"]);
    /// ```
    pub fn new<S: Into<String>>(names: impl IntoIterator<Item = S>) -> Alphabet {
        let mut ab = Alphabet::default();
        for n in names {
            ab.push(n.into());
        }
        ab
    }

    /// Adds a proposition at the end (if new) and returns its index.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// let mut ab = Alphabet::new(["req"]);
    /// assert_eq!(ab.push("ack".into()), 1);
    /// assert_eq!(ab.push("req".into()), 0); // already there
    /// assert_eq!(ab.len(), 2);
    /// ```
    pub fn push(&mut self, name: String) -> u32 {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.names.len() as u32;
        self.index.insert(name.clone(), i);
        self.names.push(name);
        i
    }

    /// The index of a proposition.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// let ab = Alphabet::new(["req", "ack"]);
    /// assert_eq!(ab.index("ack"), Some(1));
    /// assert_eq!(ab.index("err"), None);
    /// ```
    pub fn index(&self, name: &str) -> Option<u32> {
        self.index.get(name).copied()
    }

    /// The propositions, in order.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// let ab = Alphabet::new(["req", "ack"]);
    /// assert_eq!(ab.names(), ["req", "ack"]);
    /// ```
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The name of proposition `i`.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// let ab = Alphabet::new(["req", "ack"]);
    /// assert_eq!((ab.name(0), ab.name(1)), ("req", "ack"));
    /// ```
    pub fn name(&self, i: u32) -> &str {
        &self.names[i as usize]
    }

    /// The number of propositions.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// assert_eq!(Alphabet::new(["req", "ack"]).len(), 2);
    /// assert_eq!(Alphabet::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether there is no proposition.
    ///
    /// ```
    /// # use monitor_core::automaton::Alphabet;
    /// assert!(Alphabet::default().is_empty());
    /// assert!(!Alphabet::new(["req"]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}
