//! Compile temporal safety properties into deterministic, minimal monitors.
//!
//! placeholder overview, rewritten below once the pipeline exists.

#![warn(missing_docs)]

pub mod formula;
mod valuation;

pub use valuation::Valuation;
