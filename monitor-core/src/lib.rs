//! Compile temporal safety properties into deterministic, minimal monitors.
//!
//! placeholder overview, rewritten once the pipeline is tested.

#![warn(missing_docs)]

pub mod algo;
pub mod automaton;
pub mod dd;
pub mod formula;
pub mod translate;
mod valuation;

pub use valuation::Valuation;
