//! Algorithms on automata, one per file (Spot's `twaalgos/`).
//!
//! * `tableau`: LTL with past to generalized Büchi automata (and the
//!   finite-word tableau of informative prefixes).
//! * `past`: the registers that evaluate past subformulas.
//! * `emptiness`: SCCs, emptiness with lasso witnesses, pruning of states
//!   with an empty language.
//! * `derivatives`: syntactic safety formulas straight to deterministic
//!   automata by formula derivatives (no Büchi automaton).
//! * `lazy`: the derivative automaton built on demand while a monitor runs.
//! * `degeneralize`: generalized Büchi automata to Büchi automata with
//!   accepting states, and the merge of their bisimilar states.
//! * `determinize`: subset construction on decision diagrams.
//! * `minimize`: signature refinement to the minimal DFA.
//! * `simulation`: direct simulation of Büchi automata, and the merges
//!   and edge removals it allows.
//! * `sere`: linear forms of SEREs (the SERE automata of the tableau).
//! * `product`: products used by the analyses (safety, pathologic,
//!   stutter-invariance), the three-valued monitor and language
//!   comparison.
//!
//! They are driven by [`crate::translate`], the only orchestrator.

pub(crate) mod degeneralize;
pub(crate) mod derivatives;
pub(crate) mod determinize;
pub(crate) mod emptiness;
pub(crate) mod interner;
pub(crate) mod lazy;
pub(crate) mod minimize;
pub(crate) mod past;
pub(crate) mod product;
pub(crate) mod sere;
pub(crate) mod simulation;
pub(crate) mod tableau;
pub(crate) mod transducer;
