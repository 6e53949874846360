//! The expansion of the `#[monitor(...)]` attribute, as a normal library:
//! `monitor-macros` is a thin wrapper around [`expand`], which is
//! unit-tested here (in the manner of `serde_derive`'s internals).
//!
//! The crate depends on `monitor-core`, `syn`, `quote` and `proc-macro2`
//! only, so a crate using `#[monitor]` compiles no emitter, template engine
//! or command line. [`rust::monitor_type`] generates the monitor type; the
//! same generator serves `mongen compile --target rust`.
//!
//! ```
//! use quote::quote;
//!
//! let tokens = monitor_expand::expand(
//!     quote!(ltl = "G(req -> X ack)"),
//!     quote!(struct Bus { req: bool, ack: bool }),
//! );
//! let code = tokens.to_string();
//! assert!(code.contains("struct BusMonitor"));
//! // A mistake is a compile error at its span, not a panic.
//! let error = monitor_expand::expand(quote!(ltl = "G(req ->"), quote!(struct Bus { req: bool }));
//! assert!(error.to_string().contains("compile_error"));
//! ```

#![warn(missing_docs)]

mod attr;
pub mod rust;

pub use attr::expand;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[allow(dead_code)]
struct Readme;
