//! One translation's shared state and its stages: the Büchi automata of
//! formulas (cached), the exact and informative monitors, the witnesses
//! of products. The `Builder` and the analyses drive it.

use crate::algo::derivatives::{self, derivative_automaton, Rejects};
use crate::algo::determinize::{determinize, SubsetMode};
use crate::algo::emptiness::{accepted_lasso, prune};
use crate::algo::minimize::minimize;
use crate::algo::product::with_safety_dfa;
use crate::algo::tableau::{Tableau, TableauMode};
use crate::automaton::dfa::DetAutomaton;
use std::sync::Arc;

use crate::automaton::{Alphabet, BadPrefixDfa, Nba};
use crate::budget::{Account, Budget};
use crate::dd::Manager;
use crate::formula::simplify::simplify_within;
use crate::formula::Formula;
use crate::word::Lasso;

use super::{BuildError, BuildErrorKind, Config, Route};

/// Decision-diagram nodes allowed per state of the state limit, while a
/// monitor is built, and at least (about 70 MB): small limits count the
/// states, not the diagrams of the formula's expansions.
const NODES_PER_STATE: usize = 32;
const MIN_NODES: usize = 1 << 20;

/// `Ok(None)` for a result that exceeded the state limit.
pub(crate) fn within_limit<T>(r: Result<T, BuildError>) -> Result<Option<T>, BuildError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.state_limit().is_some() => Ok(None),
        Err(e) => Err(e),
    }
}

/// The longest name of a monitor (the formula printed): past it, the
/// name is cut.
pub(crate) const MAX_NAME_BYTES: usize = 1 << 24;

/// One translation's shared state: the alphabet and the diagram manager.
pub(crate) struct Pipeline {
    pub(crate) aps: Alphabet,
    pub(crate) mgr: Manager,
    /// Pruned Büchi automata already built, by formula.
    pub(crate) nbas: rustc_hash::FxHashMap<Formula, Arc<Nba>>,
    /// The bytes of `nbas`, in the budget of `mgr`.
    pub(crate) nbas_account: Account,
    pub(crate) max_states: usize,
    pub(crate) simplified: Formula,
    pub(crate) name: String,
    pub(crate) route: Route,
    /// The route of the first exact monitor built.
    pub(crate) used: Option<Route>,
}

impl Pipeline {
    pub(crate) fn new(f: &Formula, cfg: &Config) -> Result<Pipeline, BuildError> {
        if f.has_past_over_future() {
            let bad = f
                .subformulas_postorder()
                .into_iter()
                .find(|g| g.op().is_past() && g.children().iter().any(Formula::has_future))
                .expect("a past operator over a future formula");
            return Err(BuildError {
                kind: BuildErrorKind::PastOverFuture {
                    subformula: bad.to_spot(),
                },
            });
        }
        let mgr = Manager::with_budget(Budget::new(cfg.get_max_memory()));
        if mgr.exhausted() {
            // Too small for the manager's first tables (a few KiB, which
            // only the library takes): refused before any work.
            return Err(BuildError::out_of_memory(cfg.get_max_memory()));
        }
        // The simplifier's memo of implications is charged to the same
        // budget (and released when it is done).
        let simplified = if cfg.get_simplify() {
            simplify_within(f, mgr.budget())
        } else {
            f.clone()
        };
        Ok(Pipeline {
            aps: Alphabet::new(f.atomic_propositions()),
            nbas_account: mgr.budget().account(),
            mgr,
            nbas: Default::default(),
            max_states: cfg.get_max_states(),
            simplified,
            // Cut past 16 MiB: the text of nested windows is quadratic
            // in the formula (`G[0:k] F[0:k] b`).
            name: f.to_spot_within(MAX_NAME_BYTES),
            route: cfg.get_route(),
            used: None,
        })
    }

    /// The error of a construction out of its byte budget.
    pub(crate) fn out_of_memory(&self) -> BuildError {
        BuildError::out_of_memory(self.mgr.budget().limit())
    }

    /// `Err` if the byte budget refused a growth: whatever was computed
    /// since is wrong. Every result leaving the pipeline passes here.
    pub(crate) fn check_memory(&self) -> Result<(), BuildError> {
        if self.mgr.exhausted() {
            Err(self.out_of_memory())
        } else {
            Ok(())
        }
    }

    /// The pruned Büchi automaton of `f` (kept for the next stages).
    pub(crate) fn nba(&mut self, f: &Formula) -> Result<Arc<Nba>, BuildError> {
        if let Some(a) = self.nbas.get(f) {
            return Ok(a.clone());
        }
        let t = Tableau::translate(
            &f.nnf(),
            &self.aps,
            &mut self.mgr,
            TableauMode::Buchi,
            self.max_states,
        )?;
        self.check_memory()?;
        // Pruning copies what it keeps: at most the automaton again,
        // charged before it is made.
        let mut copy = self.mgr.budget().account();
        if !copy.set(t.nba.heap_bytes()) {
            return Err(self.out_of_memory());
        }
        let a = prune(&t.nba).0;
        drop(t);
        copy.set(0);
        if !self.nbas_account.add(a.heap_bytes()) {
            return Err(self.out_of_memory());
        }
        let a = Arc::new(a);
        self.nbas.insert(f.clone(), a.clone());
        Ok(a)
    }

    #[cfg(test)]
    pub(crate) fn determinize_exact(&mut self, nba: &Nba) -> Result<DetAutomaton, BuildError> {
        let det = determinize(&mut self.mgr, nba, &SubsetMode::Exact, self.max_states)?;
        Ok(minimize(&mut self.mgr, &det))
    }

    /// The minimal monitor of `f` by derivatives, with no Büchi automaton
    /// and the derivative count, if the route allows them and they apply;
    /// records the route taken.
    pub(crate) fn by_derivatives(
        &mut self,
        f: &Formula,
        rejects: Rejects,
    ) -> Option<Result<(DetAutomaton, usize, usize), BuildError>> {
        let nnf = f.nnf();
        if self.route == Route::Tableau || !derivatives::applies(&nnf) {
            self.used.get_or_insert(Route::Tableau);
            return None;
        }
        self.used.get_or_insert(Route::Derivatives);
        Some(
            derivative_automaton(&nnf, &self.aps, &mut self.mgr, rejects, self.max_states).map(
                |det| {
                    let n = det.len();
                    (minimize(&mut self.mgr, &det), 0, n)
                },
            ),
        )
    }

    /// Runs `build` with a budget of decision-diagram nodes (a multiple of
    /// the state limit): one operation can build a diagram exponential in
    /// its operands (the transitions of one state of `Gp1 | … | Gp30`:
    /// one target per subset of the `p` that hold) long before the states
    /// are too many. Over budget, whatever `build` returned is discarded.
    pub(crate) fn within_budget<T>(
        &mut self,
        build: impl FnOnce(&mut Pipeline) -> Result<T, BuildError>,
    ) -> Result<T, BuildError> {
        let budget = self
            .max_states
            .saturating_mul(NODES_PER_STATE)
            .max(MIN_NODES);
        let outer = self.mgr.begin_guard(budget);
        let r = build(self);
        let within = self.mgr.end_guard(outer);
        self.check_memory()?;
        if within {
            r
        } else {
            Err(BuildError::too_many_nodes(budget, self.max_states))
        }
    }

    /// The minimal exact monitor of `f`, with the NBA and subset sizes.
    pub(crate) fn exact(
        &mut self,
        f: &Formula,
    ) -> Result<(DetAutomaton, usize, usize), BuildError> {
        self.within_budget(|p| p.exact_unguarded(f))
    }

    pub(crate) fn exact_unguarded(
        &mut self,
        f: &Formula,
    ) -> Result<(DetAutomaton, usize, usize), BuildError> {
        if let Some(r) = self.by_derivatives(f, Rejects::Bad) {
            return r;
        }
        let nba = self.nba(f)?;
        let det = determinize(&mut self.mgr, &nba, &SubsetMode::Exact, self.max_states)?;
        let subset = det.len();
        Ok((minimize(&mut self.mgr, &det), nba.len(), subset))
    }

    /// The minimal monitor of the informative bad prefixes of `f` (as
    /// written, not simplified: informativeness is syntactic).
    pub(crate) fn informative(
        &mut self,
        f: &Formula,
    ) -> Result<(DetAutomaton, usize, usize), BuildError> {
        self.within_budget(|p| p.informative_unguarded(f))
    }

    pub(crate) fn informative_unguarded(
        &mut self,
        f: &Formula,
    ) -> Result<(DetAutomaton, usize, usize), BuildError> {
        if let Some(r) = self.by_derivatives(f, Rejects::Informative) {
            return r;
        }
        let neg = Formula::not(f.clone()).nnf();
        let t = Tableau::translate(
            &neg,
            &self.aps,
            &mut self.mgr,
            TableauMode::Finite,
            self.max_states,
        )?;
        let mode = SubsetMode::Informative(t.discharged.clone());
        let det = determinize(&mut self.mgr, &t.nba, &mode, self.max_states)?;
        let subset = det.len();
        Ok((minimize(&mut self.mgr, &det), t.nba.len(), subset))
    }

    /// A word accepted by `nba` that `det` never rejects, if any.
    pub(crate) fn intersection_witness(
        &mut self,
        nba: &Nba,
        det: &DetAutomaton,
    ) -> Result<Option<Lasso<Vec<bool>>>, BuildError> {
        let prod = with_safety_dfa(&mut self.mgr, nba, det, self.max_states)?;
        self.check_memory()?;
        Ok(accepted_lasso(&self.mgr, &prod, self.aps.len()))
    }

    /// A word violating `f` that the exact monitor `closure` of `f` never
    /// rejects (`None` iff `f` is a safety property).
    pub(crate) fn violation_without_bad_prefix(
        &mut self,
        f: &Formula,
        closure: &DetAutomaton,
    ) -> Result<Option<Lasso<Vec<bool>>>, BuildError> {
        let neg = self.nba(&Formula::not(f.clone()))?;
        self.intersection_witness(&neg, closure)
    }

    pub(crate) fn export(&self, det: &DetAutomaton) -> BadPrefixDfa {
        BadPrefixDfa::from_det(self.aps.clone(), &self.mgr, det, self.name.clone())
    }
}
