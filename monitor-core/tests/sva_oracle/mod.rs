//! An independent oracle for SystemVerilog Assertions (IEEE 1800-2017
//! §16): its own syntax tree of sequences and properties ([`ast`]),
//! printers to SVA text (fully parenthesized and with the fewest
//! parentheses Table 16-3 allows) and to PSL text for the shared fragment
//! ([`print`]), a seeded generator and proptest strategies ([`random`]),
//! and a brute-force evaluator on lassos written from Annex F
//! ([`eval`]). It shares nothing with the crate's SVA front end but the
//! text syntax, and nothing with the crate's automata.
//!
//! ```ignore
//! let p = Prop::Implication { s: b(ap(0)), overlap: false, p: bx(Prop::Seq(b(ap(1)))) };
//! assert_eq!(print::sva(&p, Parens::Minimal), "a |=> b");
//! // a, then b, then nothing forever.
//! assert!(Oracle::new(&p).holds(&Lasso::new(vec![0b01, 0b10], vec![0])));
//! ```

// Each test uses a part of the oracle.
#![allow(dead_code, unused_imports)]

pub mod ast;
pub mod eval;
pub mod print;
pub mod random;

pub use ast::{ap, b, bx, Abort, Bool, Prop, Sampled, Seq};
pub use eval::Oracle;
pub use print::{psl, sva, Parens};
pub use random::{Gen, GenConfig};
