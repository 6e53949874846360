//! Why a translation fails: the error of every stage of the pipeline
//! (parsing, the tableau, the subset construction, products, lazy
//! monitors), at the bottom of the crate so that no stage imports it from
//! the facade above it ([`crate::translate`] re-exports it).

use std::fmt;

use crate::formula::ParseError;

/// Why a translation failed.
#[derive(Clone, Debug)]
pub struct BuildError {
    pub(crate) kind: BuildErrorKind,
}

/// The kinds of [`BuildError`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The formula does not parse.
    Parse(ParseError),
    /// An automaton grew beyond the state limit.
    TooManyStates {
        /// Which automaton.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// The decision diagrams of a monitor's transitions grew beyond their
    /// node budget, which follows the state limit (one operation can
    /// build a diagram exponential in its operands long before the states
    /// are too many).
    TooManyNodes {
        /// The node budget.
        limit: usize,
        /// The state limit it follows.
        max_states: usize,
    },
    /// The construction needed more memory than its byte budget
    /// (`Config::max_memory`).
    OutOfMemory {
        /// The budget, in bytes.
        limit: usize,
    },
    /// A past operator applies to a future-time formula.
    PastOverFuture {
        /// The offending subformula, in Spot syntax.
        subformula: String,
    },
    /// A lazy monitor was asked of a formula outside the syntactic safety
    /// fragment it is built from.
    NotLazy {
        /// The first subformula outside the fragment, in Spot syntax.
        subformula: String,
    },
    /// An edge label of the automaton has no formula small enough to
    /// write (see [`LabelError`](crate::automaton::LabelError)).
    Label(crate::automaton::LabelError),
    /// More propositions than a monitor's letters have bits.
    TooManyPropositions {
        /// How many the formula has.
        count: usize,
        /// The most there can be.
        limit: usize,
    },
}

impl BuildError {
    pub(crate) fn too_many_states(what: &'static str, limit: usize) -> BuildError {
        BuildError {
            kind: BuildErrorKind::TooManyStates { what, limit },
        }
    }

    pub(crate) fn too_many_nodes(limit: usize, max_states: usize) -> BuildError {
        BuildError {
            kind: BuildErrorKind::TooManyNodes { limit, max_states },
        }
    }

    pub(crate) fn out_of_memory(limit: usize) -> BuildError {
        BuildError {
            kind: BuildErrorKind::OutOfMemory { limit },
        }
    }

    pub(crate) fn label(e: crate::automaton::LabelError) -> BuildError {
        BuildError {
            kind: BuildErrorKind::Label(e),
        }
    }

    pub(crate) fn too_many_propositions(count: usize) -> BuildError {
        BuildError {
            kind: BuildErrorKind::TooManyPropositions { count, limit: 64 },
        }
    }

    /// What went wrong.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, BuildErrorKind};
    /// let e = Builder::new().build("G(req ->").unwrap_err();
    /// assert!(matches!(e.kind(), BuildErrorKind::Parse(_)));
    /// let e = Builder::new().build("Y F a").unwrap_err();
    /// let BuildErrorKind::PastOverFuture { subformula } = e.kind() else { panic!() };
    /// assert_eq!(subformula, "YFa");
    /// ```
    pub fn kind(&self) -> &BuildErrorKind {
        &self.kind
    }

    /// The parse error, if that is what this is.
    ///
    /// ```
    /// # use monitor_core::formula::ParseErrorKind;
    /// # use monitor_core::translate::Builder;
    /// let e = Builder::new().build("G(req -> X ack").unwrap_err();
    /// let p = e.parse_error().unwrap();
    /// // Line 1, column 2: the parenthesis never closed.
    /// assert!(matches!(p.kind(), ParseErrorKind::UnclosedParenthesis));
    /// assert_eq!((p.line(), p.column()), (1, 2));
    /// ```
    pub fn parse_error(&self) -> Option<&ParseError> {
        match &self.kind {
            BuildErrorKind::Parse(e) => Some(e),
            _ => None,
        }
    }

    /// The state limit that was exceeded, if that is what this is (or the
    /// node budget, which follows it: raising the state limit raises it).
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().max_states(Some(3)));
    /// assert_eq!(b.build("G(req -> X X ack)").unwrap_err().state_limit(), Some(3));
    /// assert_eq!(b.build("G(req ->").unwrap_err().state_limit(), None);
    /// ```
    pub fn state_limit(&self) -> Option<usize> {
        match self.kind {
            BuildErrorKind::TooManyStates { limit, .. } => Some(limit),
            BuildErrorKind::TooManyNodes { max_states, .. } => Some(max_states),
            _ => None,
        }
    }

    /// The byte budget that was exceeded, if that is what this is.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().max_memory(Some(1 << 20)));
    /// // 2^12 subsets of pending requests do not fit in 1 MiB.
    /// let f = (0..12).map(|i| format!("G(a{i} -> X b{i})")).collect::<Vec<_>>().join(" & ");
    /// let e = b.build(&f).unwrap_err();
    /// assert_eq!(e.memory_limit(), Some(1 << 20));
    /// assert_eq!(e.to_string(), "the construction needs more than 1 MiB of memory");
    /// assert_eq!(b.build("G(req -> X ack)")?.dfa().num_states(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn memory_limit(&self) -> Option<usize> {
        match self.kind {
            BuildErrorKind::OutOfMemory { limit } => Some(limit),
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BuildErrorKind::Parse(e) => e.fmt(f),
            BuildErrorKind::Label(e) => e.fmt(f),
            BuildErrorKind::TooManyStates { what, limit } => {
                write!(f, "the {what} exceeds the limit of {limit} states")
            }
            BuildErrorKind::TooManyNodes { limit, max_states } => write!(
                f,
                "the decision diagrams of the monitor's transitions exceed their budget of {limit} nodes, \
                 which follows the limit of {max_states} states"
            ),
            BuildErrorKind::OutOfMemory { limit } => write!(
                f,
                "the construction needs more than {} of memory",
                crate::budget::format_bytes(*limit)
            ),
            BuildErrorKind::PastOverFuture { subformula } => write!(
                f,
                "past operators must apply to past-time formulas; `{subformula}` applies one to a future-time formula"
            ),
            BuildErrorKind::NotLazy { subformula } => write!(
                f,
                "lazy monitors take syntactic safety formulas (X, G, W, R, &, | over past formulas; no SEREs), and `{subformula}` is outside them; build the monitor eagerly"
            ),
            BuildErrorKind::TooManyPropositions { count, limit } => write!(
                f,
                "the formula has {count} propositions; lazy monitors take at most {limit}"
            ),
        }
    }
}

impl std::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            BuildErrorKind::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseError> for BuildError {
    fn from(e: ParseError) -> BuildError {
        BuildError {
            kind: BuildErrorKind::Parse(e),
        }
    }
}
