//! Emitters for the monitors built by [`monitor_core`], and the `mongen`
//! command-line tool.
//!
//! Each back end is one small module of [`emit`] that only reads a
//! finished [`BadPrefixDfa`](monitor_core::automaton::BadPrefixDfa):
//!
//! * [`emit::hoa`]: HOA v1 in Spot's monitor convention;
//! * [`emit::dot`]: Graphviz, with readable guards;
//! * [`emit::json`]: a documented JSON description (see the README).
//!
//! ```
//! use monitor_core::translate::Builder;
//! use mongen::emit::hoa::{emit_hoa, HoaOptions};
//!
//! let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
//! let hoa = emit_hoa(&dfa, &HoaOptions::default());
//! assert!(hoa.starts_with("HOA: v1\nname: \"G(req -> Xack)\"\nStates: 2\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod emit;
pub mod hdl;
#[cfg(feature = "trace")]
pub mod trace_report;
