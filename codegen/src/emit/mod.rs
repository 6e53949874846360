//! One emitter per target. Emitters read a finished monitor; they never
//! see formulas or intermediate automata.

pub mod dot;
pub mod hoa;
pub mod json;
