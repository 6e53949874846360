//! Emitters for the monitors built by [`monitor_core`], and the `mongen`
//! command-line tool.
//!
//! Each back end is one small module of [`emit`] that only reads a
//! finished [`BadPrefixDfa`](monitor_core::automaton::BadPrefixDfa):
//! [`emit::hoa`] (HOA v1 in Spot's monitor convention), [`emit::dot`]
//! (Graphviz), [`emit::json`] (a documented JSON description, see the
//! README), [`emit::promela`] (never claims for Spin), [`emit::smv`]
//! (NuSMV observers), [`emit::verilog`] (synthesizable checkers, Verilog or
//! SystemVerilog), [`emit::systemc`] and [`emit::rust`]. Their options
//! share [`emit::Common`] and implement [`emit::Backend`];
//! [`emit::Target`] picks a back end by its `--target` name. [`hdl`] reads
//! a design's signals for the hardware checkers.
//!
//! ```
//! use monitor_core::translate::Builder;
//! use mongen::emit::hoa::{emit_hoa, HoaOptions};
//!
//! let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
//! let hoa = emit_hoa(&dfa, &HoaOptions::default())?;
//! assert!(hoa.starts_with("HOA: v1\nname: \"G(req -> Xack)\"\nStates: 2\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod emit;
pub mod hdl;
#[cfg(feature = "trace")]
pub mod trace_report;
