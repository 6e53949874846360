//! Verilog propositions over design signals.
//!
//! A checker has one input per proposition today; these modules let a
//! checker take the design's vectors instead and compute each proposition
//! inside:
//!
//! * [`expr`] checks a proposition (`count > 5`, `grant[1:0] == 2'b01`)
//!   against the inputs the checker declares and normalizes it into
//!   lint-clean Verilog for `wire p = <text>;`;
//! * [`ports`] reads a Verilog or SystemVerilog source and lists the
//!   signals of a module with their ranges, so that the checker's inputs
//!   can be declared as the design declares them.
//!
//! ```
//! use mongen::hdl::{check_expression, module_signals};
//!
//! let design = "module fifo #(parameter DEPTH = 16) (
//!                   input wire clk,
//!                   output reg [$clog2(DEPTH):0] count);
//!               endmodule";
//! let inputs: Vec<_> = module_signals(design, "fifo", &[])?
//!     .iter()
//!     .map(|s| s.to_input())
//!     .collect();
//! let p = check_expression("count > 5", &inputs)?;
//! assert_eq!(p.text, "count > 5'd5");
//! assert_eq!(p.reads, ["count"]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod expr;
pub mod ports;

pub use expr::{check_expression, parse_input_spec, CheckedExpr, ExprError, HdlInput};
pub use ports::{module_signals, Direction, HdlSignal, PortsError};
