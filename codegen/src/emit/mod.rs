//! One emitter per target. Emitters read a finished monitor (or, for the
//! SMV transducer encoding, a finished transducer); they never see
//! formulas or intermediate automata.
//!
//! Every target's options implement [`Backend`] and hold the options all
//! targets share ([`Common`]); [`Target::backend`] gives a target's back
//! end with default options, for a target chosen at run time.

use std::fmt;

mod backend;
pub mod dot;
pub mod formal;
pub mod hardware;
pub mod hoa;
pub mod json;
pub mod names;
pub mod promela;
pub mod rust;
pub mod smv;
pub mod smv_model;
pub mod systemc;
pub mod verilog;

pub use backend::{Backend, Common, Target, UnknownTarget};

/// The text a streaming writer (`write_hoa`, `write_dot`, `write_json`)
/// writes, as a string. Writing to memory fails only on an edge label
/// too large to write ([`label_error`]).
fn written(write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<String, EmitError> {
    let mut out = Vec::new();
    write(&mut out).map_err(|e| EmitError::Label(e.to_string()))?;
    Ok(String::from_utf8(out).expect("the writers write UTF-8"))
}

/// A label error as the error of a streaming writer: an [`EmitError`]
/// (of kind `InvalidInput`, as [`Backend::write`]'s), so that a caller
/// tells it from a failure of the output itself.
pub(crate) fn label_error(e: monitor_core::automaton::LabelError) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidInput, EmitError::from(e))
}

/// What to do about a label with no small formula (after the
/// [`LabelError`](monitor_core::automaton::LabelError)'s own message).
const LABEL_ADVICE: &str = "of the targets, only rust takes such a monitor \
     (it steps the monitor's table, as `mongen check` does); \
     or write the property over fewer propositions";

/// Why a monitor could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EmitError {
    /// The requested name is not an identifier of the target (or is one of
    /// its keywords).
    Name(String),
    /// The requested SMV instance name is not an identifier (or is a
    /// keyword).
    Instance(String),
    /// A proposition cannot be written in the target (a number or a
    /// select beyond the target's integers).
    Proposition {
        /// The proposition.
        name: String,
        /// Why.
        reason: String,
    },
    /// A clock or reset port name the target cannot use.
    Port {
        /// `--clock` or `--reset`.
        option: &'static str,
        /// The name.
        name: String,
        /// Why.
        reason: String,
    },
    /// A bind file, harness or SymbiYosys project cannot be written.
    Formal(String),
    /// An edge label has no formula small enough to write
    /// ([`LabelError`](monitor_core::automaton::LabelError)).
    Label(String),
    /// A proposition over the design's signals is wrong (an unknown
    /// signal, a width mismatch, a comparison that is always false).
    Signal {
        /// The proposition.
        name: String,
        /// What is wrong.
        message: String,
        /// The proposition's Verilog text with carets under the problem.
        caret: String,
    },
    /// A template failed to render (a bug).
    Template(String),
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::Name(n) => write!(
                f,
                "--name {n}: not usable as a name in this target (use letters, digits and _, not a keyword)"
            ),
            EmitError::Instance(n) => write!(
                f,
                "--instance {n}: not usable as an instance name (use letters, digits and _, not a keyword)"
            ),
            EmitError::Proposition { name, reason } => {
                let name = names::comment_safe(name);
                write!(f, "the proposition `{name}` cannot be written for this target: {reason}")
            }
            EmitError::Port { option, name, reason } => {
                write!(f, "{option} {name}: not usable as a port name: {reason}")
            }
            EmitError::Formal(e) | EmitError::Label(e) => f.write_str(e),
            EmitError::Signal {
                name,
                message,
                caret,
            } => {
                write!(f, "the proposition `{name}`: {message}")?;
                for line in caret.lines() {
                    write!(f, "\n    {line}")?;
                }
                Ok(())
            }
            EmitError::Template(e) => write!(f, "template error: {e}"),
        }
    }
}

impl std::error::Error for EmitError {}

impl From<monitor_core::automaton::LabelError> for EmitError {
    fn from(e: monitor_core::automaton::LabelError) -> EmitError {
        EmitError::Label(format!("{e}; {LABEL_ADVICE}"))
    }
}

/// Renders a template of a text target, ending the text with a newline.
pub(crate) fn render(view: &impl askama::Template) -> Result<String, EmitError> {
    let mut text = view
        .render()
        .map_err(|e| EmitError::Template(e.to_string()))?;
    text.push('\n');
    Ok(text)
}
