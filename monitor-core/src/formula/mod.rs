//! Temporal formulas: LTL with past-time operators, as a hash-consed DAG.
//!
//! This is the formula layer (Spot's `tl/`): parsing, printing, rewriting
//! and classification. It knows nothing about automata or back ends.
//!
//! # Overview
//!
//! * [`Formula`] is a cheap, reference-counted handle to a node of a global,
//!   hash-consed DAG: two structurally equal formulas are the same node, so
//!   equality and hashing are pointer operations.
//! * [`Op`] lists the operators, one line each.
//! * [`parse()`] reads Spot/Spin syntax (plus past operators, and Spot's SEREs) and reports
//!   errors with a line, a column and a caret ([`ParseError`]).
//! * [`Formula::to_spot`] and [`Formula::to_spin`] print it back.
//! * [`simplify()`](simplify::simplify) rewrites it; [`Formula::nnf`] pushes negations down.
//! * [`eval`] is a brute-force evaluator on ultimately periodic words,
//!   the reference the automata are tested against.
//! * `random` generates random formulas (in the manner of Spot's
//!   `randltl`) and `families` the benchmark families (Spot's `genltl`)
//!   (feature `generators`).
//!
//! # Example
//!
//! ```
//! use monitor_core::formula::{parse, Op};
//!
//! let f = parse("G(req -> X ack)")?;
//! assert_eq!(f.op(), Op::G);
//! assert_eq!(f.to_spot(), "G(req -> Xack)");
//! assert_eq!(f.to_spin()?, "[] (req -> (X ack))");
//! // Hash-consing: the same formula is the same node.
//! assert_eq!(f, parse("[](req -> X ack)")?);
//! assert!(f.is_syntactic_safety());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Past-time operators
//!
//! `Y` (yesterday: false at the first position), `Z` (weak yesterday: true
//! at the first position), `O` (once), `H` (historically), `S` (since,
//! strong: the right operand must have happened), `B` (back-to, the weak
//! since: `a B b` is `(a S b) | H a`) and `T` (trigger, the dual of since as
//! in NuSMV: `a T b` is `!(!a S !b)`). The automaton construction evaluates
//! past subformulas deterministically, so their operands must themselves be
//! past-time (or Boolean) formulas; a past operator applied to a future-time
//! formula, such as `O(F p)`, is rejected with a clear error by the
//! translator (the parser and the reference evaluator accept it).

pub mod atom;
mod construct;
mod cursor;
pub mod eval;
#[cfg(any(test, feature = "generators"))]
pub mod families;
pub mod metric;
mod nnf;
mod node;
mod op;
pub mod parse;
pub mod print;
pub mod psl;
#[cfg(any(test, feature = "generators"))]
pub mod random;
pub mod simplify;
pub mod sva;
pub mod vunit;

pub use node::Formula;
pub use op::Op;
pub use parse::{parse, ParseError, ParseErrorKind};
pub use print::SpinError;
pub use psl::{parse_psl, PslPrintError};
pub use sva::{parse_sva, parse_sva_directive};
pub use vunit::{
    parse_directive, parse_vunits, ActiveLevel, Clock, ClockEdge, Directive, DirectiveKind,
    Disable, Vunit,
};
