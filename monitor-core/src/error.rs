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

    /// The state limit that was exceeded, if that is what this is.
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
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            BuildErrorKind::Parse(e) => e.fmt(f),
            BuildErrorKind::TooManyStates { what, limit } => write!(
                f,
                "the {what} exceeds the limit of {limit} states"
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
