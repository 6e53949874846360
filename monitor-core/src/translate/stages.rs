//! The stages of the tableau route, one at a time: formula → Büchi
//! automaton ([`NbaStage`], which owns its decision-diagram manager) →
//! subset construction ([`SubsetStage`]) → minimal monitor
//! ([`BadPrefixDfa`]).
//!
//! [`Builder`](super::Builder) runs these stages and more (the derivative
//! route when it applies, informative prefixes, three verdicts, the
//! safety check); the stages are for looking at the automata in between
//! and at their sizes. They build the exact two-valued monitor, which is
//! what the Builder builds with its default prefixes and verdicts: the
//! same minimal automaton (it is unique). Of the [`Config`] they read the
//! state limit and `simplify` only.
//!
//! The tableau and the subset construction each stop at the state limit,
//! and each has its own budget of decision-diagram nodes (the Builder
//! gives the two one budget, so a stage can succeed a little beyond where
//! the Builder stops); minimization only merges states and is not
//! bounded.
//!
//! ```
//! use monitor_core::formula::parse;
//! use monitor_core::translate::stages::NbaStage;
//! use monitor_core::translate::{Builder, Config};
//!
//! let f = parse("G(req -> X(ack | X ack))")?;
//! let nba = NbaStage::build(&f, &Config::new())?;
//! assert_eq!(nba.num_states(), 3);
//! let subsets = nba.determinize()?;
//! assert_eq!(subsets.num_states(), 3);
//! let dfa = subsets.minimize();
//! assert_eq!(dfa.num_states(), 3);
//! // The Builder's monitor, state for state.
//! let built = Builder::new().build_from_formula(&f)?.into_dfa();
//! assert!(dfa.first_difference(&built).is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use crate::algo::determinize::{determinize, SubsetMode};
use crate::algo::minimize::minimize;
use crate::automaton::dfa::DetAutomaton;
use crate::automaton::{Alphabet, BadPrefixDfa, Nba};
use crate::dd::Manager;
use crate::formula::Formula;

use super::pipeline::Pipeline;
use super::{BuildError, Config};

/// The generalized Büchi automaton of a formula (simplified if the
/// configuration says so), built by the tableau (Couvreur99) and pruned
/// of the states from which no word is accepted: a prefix is bad exactly
/// when it has no run left.
pub struct NbaStage {
    pipe: Pipeline,
    nba: Nba,
}

impl NbaStage {
    /// The pruned Büchi automaton of `f`, within the state limit of `cfg`
    /// (of which only the state limit and `simplify` are read).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// use monitor_core::translate::stages::NbaStage;
    /// use monitor_core::translate::Config;
    ///
    /// // `p U q`: waiting for `q`, then done (one accepting state).
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// assert_eq!(stage.num_states(), 2);
    /// assert_eq!(stage.alphabet().names(), ["p", "q"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(f: &Formula, cfg: &Config) -> Result<NbaStage, BuildError> {
        let mut pipe = Pipeline::new(f, cfg)?;
        let g = pipe.simplified.clone();
        let nba = pipe.within_budget(|p| p.nba(&g))?;
        // The pipeline caches the automata it builds; this one is held here.
        pipe.nbas.clear();
        // (Still charged to the pipeline's budget: the stage holds it.)
        let nba = std::sync::Arc::try_unwrap(nba).unwrap_or_else(|a| (*a).clone());
        Ok(NbaStage { pipe, nba })
    }

    /// The automaton. Its guards are nodes of [`NbaStage::manager`].
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// let nba = stage.nba();
    /// assert_eq!((nba.init, nba.len(), nba.num_marks), (Some(0), 2, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nba(&self) -> &Nba {
        &self.nba
    }

    /// The decision-diagram manager that owns the guards of the automaton.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// // Where `q` alone (bit 1) leads from the initial state.
    /// let q_only: Vec<u32> = stage.nba().states[0].iter()
    ///     .filter(|e| stage.manager().eval(e.guard, &0b10u64)).map(|e| e.dst).collect();
    /// assert_eq!(q_only, [1]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn manager(&self) -> &Manager {
        &self.pipe.mgr
    }

    /// The propositions, in the order of the bits of a letter.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("G(req -> X ack)")?, &Config::new())?;
    /// assert_eq!(stage.alphabet().names(), ["req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alphabet(&self) -> &Alphabet {
        &self.pipe.aps
    }

    /// The number of states.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("G(req -> X ack)")?, &Config::new())?;
    /// assert_eq!(stage.num_states(), 2);
    /// assert_eq!(stage.num_states(), stage.nba().len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_states(&self) -> usize {
        self.nba.len()
    }

    /// The subset construction: the deterministic automaton whose states
    /// are the sets of states the Büchi automaton can be in, the empty set
    /// being the rejecting sink. Fails past the state limit.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("G(req -> X ack)")?, &Config::new())?;
    /// // Already minimal: one subset per state of the monitor.
    /// assert_eq!(stage.determinize()?.num_states(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn determinize(mut self) -> Result<SubsetStage, BuildError> {
        let nba = self.nba;
        let det = self
            .pipe
            .within_budget(|p| determinize(&mut p.mgr, &nba, &SubsetMode::Exact, p.max_states))?;
        Ok(SubsetStage {
            pipe: self.pipe,
            det,
        })
    }
}

impl fmt::Debug for NbaStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NbaStage")
            .field("formula", &self.pipe.name)
            .field("states", &self.nba.len())
            .field("edges", &self.nba.num_edges())
            .field("acceptance_sets", &self.nba.num_marks)
            .finish()
    }
}

/// The deterministic automaton of the bad prefixes from the subset
/// construction, before minimization.
pub struct SubsetStage {
    pipe: Pipeline,
    det: DetAutomaton,
}

impl SubsetStage {
    /// The propositions, in the order of the bits of a letter.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let subsets = NbaStage::build(&parse("p U q")?, &Config::new())?.determinize()?;
    /// assert_eq!(subsets.alphabet().names(), ["p", "q"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alphabet(&self) -> &Alphabet {
        &self.pipe.aps
    }

    /// The number of states (the rejecting sink not counted).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// // 2^2 subsets for a monitor of 3 states.
    /// let nba = NbaStage::build(&parse("G((a & X a) -> X X b)")?, &Config::new())?;
    /// let subsets = nba.determinize()?;
    /// assert_eq!(subsets.num_states(), 4);
    /// assert_eq!(subsets.minimize().num_states(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_states(&self) -> usize {
        self.det.len()
    }

    /// The automaton as it is, not minimized (a correct monitor, larger
    /// than needed).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let nba = NbaStage::build(&parse("G((a & X a) -> X X b)")?, &Config::new())?;
    /// let subsets = nba.determinize()?;
    /// let (big, small) = (subsets.to_dfa(), subsets.minimize());
    /// assert_eq!((big.num_states(), small.num_states()), (4, 3));
    /// // The same bad prefixes all the same.
    /// assert!(big.first_difference(&small).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_dfa(&self) -> BadPrefixDfa {
        self.pipe.export(&self.det)
    }

    /// The minimal monitor (Moore56's partition refinement over the
    /// transition diagrams).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let nba = NbaStage::build(&parse("G((a & X a) -> X X b)")?, &Config::new())?;
    /// let subsets = nba.determinize()?;
    /// assert_eq!(subsets.num_states(), 4);
    /// assert_eq!(subsets.minimize().num_states(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn minimize(mut self) -> BadPrefixDfa {
        // The subsets are built, within the budget: minimizing them takes
        // about their size again, outside it (this cannot fail).
        self.pipe.mgr.lift_budget();
        let min = minimize(&mut self.pipe.mgr, &self.det);
        self.pipe.export(&min)
    }
}

impl fmt::Debug for SubsetStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SubsetStage")
            .field("formula", &self.pipe.name)
            .field("states", &self.det.len())
            .finish()
    }
}
