//! Checking traces: logs (CSV, JSON Lines) and, soon, waveforms, against
//! monitors.
//!
//! * [`expr`]: what a proposition means over the fields of an event
//!   (`latency > 100`, `level == "ERROR"`, `data[3]`);
//! * [`reader`]: the formats, read one event at a time;
//! * [`check`]: several monitors over a trace in one pass, with
//!   explained violations;
//! * [`chunked`]: large logs checked on several cores, with the same
//!   reports.
//!
//! The chunk summaries that let a long trace be checked in parallel are
//! [`runtime::Summary`](crate::runtime::Summary).

pub mod check;
pub mod chunked;
pub mod expr;
mod number;
pub mod parallel;
pub mod reader;

#[cfg(test)]
mod fuzz;
