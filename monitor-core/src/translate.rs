//! The translation pipeline: formula to minimal monitor, and analysis.
//!
//! ```text
//!   formula ──simplify──▶ NNF ──tableau──▶ generalized Büchi automaton
//!      ──prune empty states──▶ subset construction ──minimize──▶ BadPrefixDfa
//! ```
//!
//! Pruning first is what makes the monitor *exact*: after it, a prefix
//! has no run iff it has no infinite extension satisfying the formula,
//! i.e. iff it is a bad prefix (d'Amorim and Roşu; Tabakov and Vardi;
//! Spot's `-M`). For a non-safety formula the monitor recognizes the bad
//! prefixes of its *safety closure*, the smallest safety property that
//! contains it; [`Translation::is_safety`] says whether that happened.
//!
//! Settings are in [`Config`] (data, every field optional, defaults
//! documented on each setter); [`Builder`] runs the pipeline.
//!
//! ```
//! use monitor_core::translate::{Builder, Config, Verdicts};
//! use monitor_core::automaton::Verdict;
//!
//! let t = Builder::new()
//!     .configure(Config::new().max_states(Some(10_000)).verdicts(Verdicts::Three))
//!     .build("F p0 -> (!p1 U p0)")?;
//! assert_eq!(t.is_safety(), Some(true));
//! let dfa = t.dfa();
//! // p0 first: every extension satisfies the formula.
//! assert_eq!(dfa.run([0b01u64]), Verdict::Satisfied);
//! // p1 first: fine as long as p0 never happens...
//! assert_eq!(dfa.run([0b10u64]), Verdict::Undecided);
//! // ...and violated once it does.
//! assert_eq!(dfa.run([0b10u64, 0b01]), Verdict::Violated);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::{Duration, Instant};

use crate::algo::degeneralize::{degeneralize, merge_bisimilar};
use crate::algo::derivatives::{self, derivative_automaton, Rejects};
use crate::algo::determinize::{determinize, DetAutomaton, SubsetMode};
use crate::algo::emptiness::{accepted_lasso, every_cycle_accepting, finite_paths_only, prune};
use crate::algo::lazy::LazyDfa;
use crate::algo::minimize::minimize;
use crate::algo::product::{first_difference, stutter_product, three_valued, with_safety_dfa};
use crate::algo::simulation;
use crate::algo::tableau::{Tableau, TableauMode};
use crate::automaton::dfa::{format_word, repeated_letters_stay, sink_unreachable};
use crate::automaton::{Alphabet, BadPrefixDfa, BuchiAutomaton, BuchiEdge, Guard, Nba, Verdict};
use crate::dd::{Cube, Manager};
use crate::formula::eval::Lasso;
use crate::formula::simplify::simplify;
use crate::formula::{parse, Formula};

/// The default limit on the number of states of every automaton built.
pub const DEFAULT_MAX_STATES: usize = 250_000;

/// Decision-diagram nodes allowed per state of the state limit, while a
/// monitor is built, and at least (about 70 MB): small limits count the
/// states, not the diagrams of the formula's expansions.
const NODES_PER_STATE: usize = 32;
const MIN_NODES: usize = 1 << 20;

/// Two-valued (violated / undecided) or three-valued (LTL3-style:
/// violated / satisfied / undecided) monitors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Verdicts {
    /// Detect bad prefixes only.
    #[default]
    Two,
    /// Also detect good prefixes (every extension satisfies the formula).
    Three,
}

/// Which prefixes the monitor rejects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Prefixes {
    /// Exactly the bad prefixes (the minimal monitor of the safety closure).
    #[default]
    Exact,
    /// Only the informative bad prefixes (Kupferman–Vardi, Latvala): those
    /// that show why the formula fails, read on the formula as written.
    Informative,
}

/// How the exact monitor of a formula is built.
///
/// Both routes give the same minimal monitor; they differ in cost. The
/// tableau builds a Büchi automaton and determinizes it by subsets, whose
/// size can be exponential in the monitor's (`G((a & X a & … & X^{n-1} a)
/// -> X^n b)`: `2^n` subsets for `n + 1` states). Derivatives build the
/// deterministic automaton directly from the formula, but apply only to
/// syntactic safety formulas (`X`, `G`, `W`, `R`, `&`, `|` over past
/// formulas, in negation normal form; no SEREs); see
/// `monitor_core::algo::derivatives` in the sources.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Route {
    /// Derivatives where they apply, the tableau elsewhere.
    #[default]
    Auto,
    /// Always the tableau and the subset construction.
    Tableau,
    /// Derivatives where they apply (elsewhere the tableau: there is no
    /// other way).
    Derivatives,
}

/// Settings of a translation. Every setting is optional; getters apply
/// the defaults.
#[derive(Clone, Debug, Default)]
pub struct Config {
    max_states: Option<Option<usize>>,
    verdicts: Option<Verdicts>,
    prefixes: Option<Prefixes>,
    simplify: Option<bool>,
    check_safety: Option<bool>,
    route: Option<Route>,
}

impl Config {
    /// A configuration with every setting at its default.
    pub fn new() -> Config {
        Config::default()
    }

    /// The largest number of states of any automaton built along the way
    /// (`None`: no limit). Beyond it the build fails with
    /// [`BuildErrorKind::TooManyStates`]. Defaults to
    /// [`DEFAULT_MAX_STATES`].
    pub fn max_states(mut self, limit: Option<usize>) -> Config {
        self.max_states = Some(limit);
        self
    }

    /// Two- or three-valued verdicts. Defaults to [`Verdicts::Two`].
    pub fn verdicts(mut self, v: Verdicts) -> Config {
        self.verdicts = Some(v);
        self
    }

    /// Exact or informative bad prefixes. Defaults to [`Prefixes::Exact`].
    pub fn prefixes(mut self, p: Prefixes) -> Config {
        self.prefixes = Some(p);
        self
    }

    /// Whether to simplify the formula first (it never changes the exact
    /// monitor, only the time to build it). Enabled by default.
    pub fn simplify(mut self, yes: bool) -> Config {
        self.simplify = Some(yes);
        self
    }

    /// Whether [`Builder::build`] decides if the formula is a safety
    /// property (one more automaton product). Enabled by default.
    pub fn check_safety(mut self, yes: bool) -> Config {
        self.check_safety = Some(yes);
        self
    }

    /// The state limit in effect.
    pub fn get_max_states(&self) -> usize {
        self.max_states
            .unwrap_or(Some(DEFAULT_MAX_STATES))
            .unwrap_or(usize::MAX)
    }

    /// The verdicts in effect.
    pub fn get_verdicts(&self) -> Verdicts {
        self.verdicts.unwrap_or_default()
    }

    /// The prefixes in effect.
    pub fn get_prefixes(&self) -> Prefixes {
        self.prefixes.unwrap_or_default()
    }

    /// Whether simplification is in effect.
    pub fn get_simplify(&self) -> bool {
        self.simplify.unwrap_or(true)
    }

    /// How exact monitors are built. Defaults to [`Route::Auto`].
    pub fn route(mut self, r: Route) -> Config {
        self.route = Some(r);
        self
    }

    /// The route in effect.
    pub fn get_route(&self) -> Route {
        self.route.unwrap_or_default()
    }

    /// Whether the safety check is in effect.
    pub fn get_check_safety(&self) -> bool {
        self.check_safety.unwrap_or(true)
    }

    /// Merges `other` into `self`: settings made in `other` win.
    fn overwrite(self, other: Config) -> Config {
        Config {
            max_states: other.max_states.or(self.max_states),
            verdicts: other.verdicts.or(self.verdicts),
            prefixes: other.prefixes.or(self.prefixes),
            simplify: other.simplify.or(self.simplify),
            check_safety: other.check_safety.or(self.check_safety),
            route: other.route.or(self.route),
        }
    }
}

pub use crate::error::{BuildError, BuildErrorKind};

// Monitors straight from a formula: the compiler's entry points on the
// runtime's types, defined here so that the runtime knows nothing of the
// compiler.
impl crate::MonitorTable {
    /// Compiles `formula` (LTL with past, Spot syntax) with the default
    /// [`Builder`].
    pub fn from_ltl(formula: &str) -> Result<crate::MonitorTable, BuildError> {
        Ok(crate::MonitorTable::from_dfa(
            Builder::new().build(formula)?.dfa(),
        ))
    }
}

impl crate::Monitor<'static> {
    /// Compiles `formula` (LTL with past, Spot syntax) into a monitor of its
    /// bad prefixes (of its safety closure if it is not a safety property;
    /// [`classify`] tells).
    ///
    /// The table is allocated once and lives until the program ends: every
    /// copy of the monitor shares it, which is what makes `Monitor` `Copy`.
    /// This suits properties read once from configuration; to free the
    /// table, build a [`MonitorTable`](crate::MonitorTable) and run it with
    /// [`Monitor::new`](crate::Monitor::new)`(&table.table())`.
    pub fn from_ltl(formula: &str) -> Result<crate::Monitor<'static>, BuildError> {
        let owned: &'static crate::MonitorTable =
            Box::leak(Box::new(crate::MonitorTable::from_ltl(formula)?));
        let table: &'static crate::runtime::Table<'static> = Box::leak(Box::new(owned.table()));
        Ok(crate::Monitor::new(table))
    }
}

/// The automaton of `f` to be built on demand (see
/// [`crate::runtime::LazyMonitor`]), with the verdicts of `cfg`; its
/// search for doomed states stops at `cfg`'s state limit.
pub(crate) fn lazy_dfa(f: &Formula, cfg: &Config) -> Result<LazyDfa, BuildError> {
    let pipe = Pipeline::new(f, cfg)?;
    let exact = cfg.get_prefixes() == Prefixes::Exact;
    let three = cfg.get_verdicts() == Verdicts::Three;
    // Exact verdicts are semantic: the simplified formula will do, or the
    // formula as written. Informative ones are read on the formula as
    // written.
    let written = f.nnf();
    let g = if exact {
        Some(pipe.simplified.nnf())
            .filter(derivatives::applies)
            .or_else(|| Some(written.clone()).filter(derivatives::applies))
    } else {
        Some(written.clone()).filter(derivatives::applies)
    };
    match g {
        Some(g) => Ok(LazyDfa::new(
            &g,
            pipe.aps.clone(),
            exact,
            three,
            cfg.get_max_states(),
        )),
        None => Err(BuildError {
            kind: BuildErrorKind::NotLazy {
                subformula: derivatives::outside(&written)
                    .expect("a formula outside the fragment")
                    .to_spot(),
            },
        }),
    }
}

/// Sizes and times of one translation, for `--stats` and benchmarks.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// States of the Büchi automaton (after pruning); 0 on the derivative
    /// route, which builds none.
    pub nba_states: usize,
    /// States of the deterministic automaton before minimization (the
    /// subset construction's, or the derivatives').
    pub subset_states: usize,
    /// The route that built the first monitor (the exact one, or with
    /// [`Prefixes::Informative`] the informative one).
    pub route: Route,
    /// States of the minimal monitor.
    pub states: usize,
    /// Wall-clock time of the whole build.
    pub time: Duration,
}

/// A finished translation: the monitor and what is known about the formula.
#[derive(Clone, Debug)]
pub struct Translation {
    formula: Formula,
    dfa: BadPrefixDfa,
    safety: Option<bool>,
    non_safety_witness: Option<Lasso<Vec<bool>>>,
    stats: Stats,
}

impl Translation {
    /// The formula, as given.
    pub fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The monitor.
    pub fn dfa(&self) -> &BadPrefixDfa {
        &self.dfa
    }

    /// Renames the monitor (by default the formula in Spot syntax), for
    /// instance to the property as the user wrote it.
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.dfa.set_name(name);
    }

    /// The monitor, by value.
    pub fn into_dfa(self) -> BadPrefixDfa {
        self.dfa
    }

    /// Whether the formula is a safety property (`None` if not checked, or
    /// if deciding it would exceed the state limit). If not, the monitor is
    /// that of its safety closure.
    pub fn is_safety(&self) -> Option<bool> {
        self.safety
    }

    /// For a non-safety formula: an infinite word that violates it but
    /// that the monitor never rejects.
    pub fn non_safety_witness(&self) -> Option<&Lasso<Vec<bool>>> {
        self.non_safety_witness.as_ref()
    }

    /// Sizes and times.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}

/// Runs the translation pipeline with a [`Config`].
#[derive(Clone, Debug, Default)]
pub struct Builder {
    config: Config,
}

impl Builder {
    /// A builder with the default configuration.
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Applies the settings made in `config`.
    pub fn configure(&mut self, config: Config) -> &mut Builder {
        self.config = self.config.clone().overwrite(config);
        self
    }

    /// The configuration in effect.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Parses and translates a formula.
    pub fn build(&self, formula: &str) -> Result<Translation, BuildError> {
        let f = parse(formula)?;
        self.build_from_formula(&f)
    }

    /// Translates a formula.
    pub fn build_from_formula(&self, f: &Formula) -> Result<Translation, BuildError> {
        let start = Instant::now();
        let cfg = &self.config;
        let mut pipe = Pipeline::new(f, cfg)?;
        let g = pipe.simplified.clone();
        let (det, nba_states, subset_states) = match (cfg.get_prefixes(), cfg.get_verdicts()) {
            (Prefixes::Exact, Verdicts::Two) => pipe.exact(&g)?,
            (Prefixes::Informative, Verdicts::Two) => pipe.informative(f)?,
            (prefixes, Verdicts::Three) => {
                let (pos, neg) = match prefixes {
                    Prefixes::Exact => (pipe.exact(&g)?, pipe.exact(&Formula::not(g.clone()))?),
                    Prefixes::Informative => (
                        pipe.informative(f)?,
                        pipe.informative(&Formula::not(f.clone()))?,
                    ),
                };
                let prod = three_valued(&mut pipe.mgr, &pos.0, &neg.0, pipe.max_states)?;
                let n = prod.len();
                (minimize(&mut pipe.mgr, &prod), pos.1 + neg.1, n)
            }
        };
        let (safety, witness) = if !cfg.get_check_safety() {
            (None, None)
        } else if f.is_syntactic_safety() || g.is_syntactic_safety() {
            (Some(true), None)
        } else {
            let nba = pipe.nba(&g)?;
            if every_cycle_accepting(&nba) {
                (Some(true), None)
            } else {
                let closure = match (cfg.get_prefixes(), cfg.get_verdicts()) {
                    (Prefixes::Exact, Verdicts::Two) => det.clone(),
                    _ => pipe.exact(&g)?.0,
                };
                match pipe.violation_without_bad_prefix(&g, &closure) {
                    Ok(w) => (Some(w.is_none()), w),
                    // The monitor is right either way; only the answer to
                    // "is it a safety property?" is out of budget.
                    Err(e) if e.state_limit().is_some() => (None, None),
                    Err(e) => return Err(e),
                }
            }
        };
        let states = det.len();
        let dfa = pipe.export(&det);
        Ok(Translation {
            formula: f.clone(),
            dfa,
            safety,
            non_safety_witness: witness,
            stats: Stats {
                nba_states,
                subset_states,
                route: pipe.used.unwrap_or(Route::Tableau),
                states,
                time: start.elapsed(),
            },
        })
    }
}

impl Builder {
    /// Parses `formula` and builds a Büchi automaton of the words that
    /// satisfy it (for a never claim: of its negation).
    ///
    /// The tableau's generalized Büchi automaton, its useless states
    /// removed, degeneralized to accepting states, pruned again, its
    /// bisimilar states merged, and reduced by direct simulation (states
    /// that simulate each other merged, edges to a state that another
    /// target of the same letters simulates removed). The state limit of the configuration
    /// applies to every stage.
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    ///
    /// // The claim of `G(req -> F ack)`: a request never answered.
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// assert_eq!(a.num_states(), 2);
    /// assert_eq!(a.nondeterministic_states(), 1);
    /// assert!(a.is_accepting(1) && !a.is_accepting(0));
    /// # Ok::<(), monitor_core::translate::BuildError>(())
    /// ```
    pub fn build_buchi(&self, formula: &str) -> Result<BuchiAutomaton, BuildError> {
        let f = parse(formula)?;
        self.build_buchi_from_formula(&f)
    }

    /// Builds a Büchi automaton of the words that satisfy `f` (see
    /// [`Builder::build_buchi`]).
    pub fn build_buchi_from_formula(&self, f: &Formula) -> Result<BuchiAutomaton, BuildError> {
        let mut pipe = Pipeline::new(f, &self.config)?;
        let g = pipe.simplified.clone();
        let max = pipe.max_states;
        pipe.within_budget(|p| {
            let tgba = p.nba(&g)?;
            let (sba, accepting) = degeneralize(&tgba, max)?;
            let (pruned, map) = prune(&sba);
            let mut kept = vec![false; pruned.len()];
            for (old, new) in map.iter().enumerate() {
                if let Some(n) = new {
                    kept[*n as usize] = accepting[old];
                }
            }
            let (merged, accepting) = merge_bisimilar(&mut p.mgr, &pruned, &kept);
            let (simulated, accepting) = simulation::reduce(&mut p.mgr, &merged, &accepting);
            let (reduced, accepting) = merge_bisimilar(&mut p.mgr, &simulated, &accepting);
            let distance = distance_to_acceptance(&reduced, &accepting);
            let states = reduced
                .states
                .iter()
                .zip(&accepting)
                .enumerate()
                .map(|(s, (edges, &acc))| {
                    let mut edges: Vec<BuchiEdge> = edges
                        .iter()
                        .map(|e| BuchiEdge {
                            guard: Guard::from_cubes(p.mgr.isop(e.guard)),
                            target: e.dst,
                        })
                        .collect();
                    // Pan tries a state's options in order: the way to
                    // an accepting state first, so that a violation's
                    // cycle is found early (as Spin's own claims do).
                    edges.sort_by_key(|e| {
                        (distance[e.target as usize], e.target == s as u32, e.target)
                    });
                    (acc, edges)
                })
                .collect();
            Ok(BuchiAutomaton::new(p.aps.clone(), p.name.clone(), states))
        })
    }
}

/// Per state of `nba`: the number of edges to the nearest accepting state
/// (0 for an accepting one).
fn distance_to_acceptance(nba: &Nba, accepting: &[bool]) -> Vec<usize> {
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); nba.len()];
    for (s, edges) in nba.states.iter().enumerate() {
        for e in edges {
            preds[e.dst as usize].push(s as u32);
        }
    }
    let mut distance = vec![usize::MAX; nba.len()];
    let mut queue = std::collections::VecDeque::new();
    for (s, &acc) in accepting.iter().enumerate() {
        if acc {
            distance[s] = 0;
            queue.push_back(s);
        }
    }
    while let Some(t) = queue.pop_front() {
        for &p in &preds[t] {
            if distance[p as usize] == usize::MAX {
                distance[p as usize] = distance[t] + 1;
                queue.push_back(p as usize);
            }
        }
    }
    distance
}

/// Everything known about a formula's place in the safety-progress
/// hierarchy and its monitorability.
#[derive(Clone, Debug)]
pub struct Classification {
    /// The formula, as given.
    pub formula: Formula,
    /// Its propositions (the order of witness letters).
    pub alphabet: Alphabet,
    /// Every violation has a bad prefix. `None` (here and below): not
    /// decided within the state limit.
    pub safety: Option<bool>,
    /// In Spot's syntactic safety class.
    pub syntactic_safety: bool,
    /// Every satisfying word has a good prefix (co-safety).
    pub guarantee: Option<bool>,
    /// In Spot's syntactic guarantee class.
    pub syntactic_guarantee: bool,
    /// Every finite word can be extended into a model (no bad prefix).
    pub liveness: bool,
    /// Repeating letters never changes the verdict on a word.
    pub stutter_invariant: Option<bool>,
    /// Some violating word has no informative bad prefix (Kupferman–Vardi;
    /// Latvala's check). Always true for a non-safety formula.
    pub pathologic: Option<bool>,
    /// States of the exact monitor.
    pub monitor_states: usize,
    /// States of the informative monitor (`None` if it exceeds the state
    /// limit).
    pub informative_states: Option<usize>,
    /// For a non-safety formula: a violating word without bad prefix.
    pub non_safety_witness: Option<Lasso<Vec<bool>>>,
}

impl Classification {
    /// A short description of the witness word, or `None`.
    pub fn witness_text(&self) -> Option<String> {
        self.non_safety_witness
            .as_ref()
            .map(|w| lasso_text(w, &self.alphabet))
    }
}

/// Formats a lasso of full letters as `a & !b; b; cycle{!a & !b}`.
pub fn lasso_text(w: &Lasso<Vec<bool>>, aps: &Alphabet) -> String {
    let letter = |l: &Vec<bool>| {
        let cube: Cube = l.iter().enumerate().map(|(i, &b)| (i as u32, b)).collect();
        Guard::from_cubes(vec![cube])
    };
    let mut parts: Vec<String> = w
        .prefix
        .iter()
        .map(|l| letter(l).display(aps).to_string())
        .collect();
    let cycle: Vec<String> = w
        .cycle
        .iter()
        .map(|l| letter(l).display(aps).to_string())
        .collect();
    parts.push(format!("cycle{{{}}}", cycle.join("; ")));
    parts.join("; ")
}

/// Classifies a formula (see [`Classification`]).
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::translate::{classify, Config};
///
/// let c = classify(&parse("F p0 -> (!p1 U p0)")?, &Config::new())?;
/// assert_eq!((c.safety, c.syntactic_safety, c.guarantee, c.pathologic),
///            (Some(true), false, Some(false), Some(false)));
/// let c = classify(&parse("F p")?, &Config::new())?;
/// assert_eq!((c.safety, c.guarantee, c.liveness, c.pathologic),
///            (Some(false), Some(true), true, Some(true)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn classify(f: &Formula, cfg: &Config) -> Result<Classification, BuildError> {
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let ng = Formula::not(g.clone());
    let (det_pos, _, _) = pipe.exact(&g)?;
    // Cheap sufficient conditions first, and the Büchi automata only when
    // they fail (the negation's can be exponential where the monitor is
    // not: `Gp1 | … | Gpn`); an answer that would exceed the state limit
    // is reported as unknown rather than failing the whole classification.
    // The simplified formula is equivalent: its syntactic class counts too.
    let (safety, witness) = if f.is_syntactic_safety()
        || g.is_syntactic_safety()
        || every_cycle_accepting(&pipe.nba(&g)?)
    {
        (Some(true), None)
    } else {
        let nba_neg = pipe.nba(&ng)?;
        match within_limit(pipe.intersection_witness(&nba_neg, &det_pos))? {
            Some(w) => (Some(w.is_none()), w),
            None => (None, None),
        }
    };
    let mut det_neg: Option<Option<DetAutomaton>> = None;
    let mut exact_neg = |pipe: &mut Pipeline| -> Result<Option<DetAutomaton>, BuildError> {
        if det_neg.is_none() {
            det_neg = Some(within_limit(pipe.exact(&ng))?.map(|d| d.0));
        }
        Ok(det_neg.clone().flatten())
    };
    let guarantee = if f.is_syntactic_guarantee() {
        Some(true)
    } else if safety == Some(true) {
        // The monitor is exact for the formula itself.
        Some(safety_is_guarantee(&pipe.mgr, &det_pos))
    } else if every_cycle_accepting(&pipe.nba(&ng)?) {
        Some(true)
    } else {
        let nba_pos = pipe.nba(&g)?;
        match exact_neg(&mut pipe)? {
            Some(neg) => {
                within_limit(pipe.intersection_witness(&nba_pos, &neg))?.map(|w| w.is_none())
            }
            None => None,
        }
    };
    let liveness =
        det_pos.verdicts[0] != Verdict::Violated && sink_unreachable(&pipe.mgr, &det_pos.diagrams);
    let stutter_invariant = if f.is_next_free() {
        Some(true)
    } else if safety == Some(true) {
        Some(stutter_invariant_safety(&mut pipe.mgr, &det_pos))
    } else if guarantee == Some(true) {
        // Stutter-invariance is closed under complement.
        exact_neg(&mut pipe)?.map(|neg| stutter_invariant_safety(&mut pipe.mgr, &neg))
    } else {
        let nba_pos = pipe.nba(&g)?;
        let nba_neg = pipe.nba(&ng)?;
        within_limit((|| {
            let a = stutter_product(&mut pipe.mgr, &nba_pos, &nba_neg, pipe.max_states)?;
            let b = stutter_product(&mut pipe.mgr, &nba_neg, &nba_pos, pipe.max_states)?;
            Ok(accepted_lasso(&pipe.mgr, &a, pipe.aps.len()).is_none()
                && accepted_lasso(&pipe.mgr, &b, pipe.aps.len()).is_none())
        })())?
    };
    // Its size is reported; where it exceeds the limit, the answers that
    // need it are unknown.
    let det_inf = within_limit(pipe.informative(f))?.map(|d| d.0);
    let pathologic = match safety {
        // By definition (and as in scheck): a violation without any bad
        // prefix has no informative one.
        Some(false) => Some(true),
        // Not known to be safety: a non-safety formula would be
        // pathologic by definition.
        None => None,
        // Every violation of these has an informative bad prefix (see
        // `algo::derivatives`), although their two monitors may differ.
        Some(true) if f.is_syntactic_safety() && derivatives::applies(&f.nnf()) => Some(false),
        Some(true) => match &det_inf {
            None => None,
            // Every bad prefix informative: every violation has one.
            Some(inf) if first_difference(&mut pipe.mgr, &det_pos, inf).is_none() => Some(false),
            Some(inf) => {
                let nba_neg = pipe.nba(&ng)?;
                within_limit(pipe.intersection_witness(&nba_neg, inf))?.map(|w| w.is_some())
            }
        },
    };
    Ok(Classification {
        formula: f.clone(),
        alphabet: pipe.aps.clone(),
        safety,
        syntactic_safety: f.is_syntactic_safety(),
        guarantee,
        syntactic_guarantee: f.is_syntactic_guarantee(),
        liveness,
        stutter_invariant,
        pathologic,
        monitor_states: det_pos.len(),
        informative_states: det_inf.as_ref().map(DetAutomaton::len),
        non_safety_witness: witness,
    })
}

/// `Ok(None)` for a result that exceeded the state limit.
/// Whether repeating or removing repeated letters never changes whether a
/// word satisfies `f` (`None`: not decided within the state limit of
/// `cfg`). Exact: a formula without `X` or `Y` is, and otherwise neither
/// the Büchi automaton of `f` nor that of `!f`, letters repeated, meets
/// the other (Michaud and Duret-Lutz's check). This is what decides
/// whether Spin's partial-order reduction may be used with a claim.
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::translate::{is_stutter_invariant, Config};
///
/// let cfg = Config::new();
/// assert_eq!(is_stutter_invariant(&parse("G(a -> F b)")?, &cfg)?, Some(true));
/// assert_eq!(is_stutter_invariant(&parse("G(a -> X b)")?, &cfg)?, Some(false));
/// // X, yet stutter-invariant.
/// assert_eq!(is_stutter_invariant(&parse("F(a & X !a) | FG a | FG !a")?, &cfg)?, Some(true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_stutter_invariant(f: &Formula, cfg: &Config) -> Result<Option<bool>, BuildError> {
    if f.is_next_free() {
        return Ok(Some(true));
    }
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let ng = Formula::not(g.clone());
    within_limit((|| {
        let pos = pipe.nba(&g)?;
        let neg = pipe.nba(&ng)?;
        let a = stutter_product(&mut pipe.mgr, &pos, &neg, pipe.max_states)?;
        let b = stutter_product(&mut pipe.mgr, &neg, &pos, pipe.max_states)?;
        Ok(accepted_lasso(&pipe.mgr, &a, pipe.aps.len()).is_none()
            && accepted_lasso(&pipe.mgr, &b, pipe.aps.len()).is_none())
    })())
}

fn within_limit<T>(r: Result<T, BuildError>) -> Result<Option<T>, BuildError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(e) if e.state_limit().is_some() => Ok(None),
        Err(e) => Err(e),
    }
}

/// Whether the safety property whose exact monitor is `det` is also a
/// guarantee (co-safety): every model has a good prefix. It is unless the
/// monitor can stay forever in states from which a violation is still
/// possible: a cycle through them is a model without good prefix.
fn safety_is_guarantee(mgr: &Manager, det: &DetAutomaton) -> bool {
    use crate::automaton::dfa::VIOLATION_LEAF;
    let n = det.len();
    let mut succ: Vec<Vec<u32>> = det.diagrams.iter().map(|&d| mgr.leaves(d)).collect();
    // The states from which the sink is reachable ("open"), by backward
    // search.
    let mut pred: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut open = vec![false; n];
    let mut todo = Vec::new();
    for (q, s) in succ.iter_mut().enumerate() {
        if s.last() == Some(&VIOLATION_LEAF) {
            s.pop();
            open[q] = true;
            todo.push(q);
        }
        for &r in s.iter() {
            pred[r as usize].push(q);
        }
    }
    while let Some(q) = todo.pop() {
        for &p in &pred[q] {
            if !open[p] {
                open[p] = true;
                todo.push(p);
            }
        }
    }
    let finite = finite_paths_only(&succ, &open);
    (0..n).all(|q| !open[q] || finite[q])
}

/// Stutter-invariance of a safety property from its exact minimal
/// monitor (see [`repeated_letters_stay`]).
fn stutter_invariant_safety(mgr: &mut Manager, det: &DetAutomaton) -> bool {
    repeated_letters_stay(mgr, &det.diagrams)
}

/// The symbolic transducer of the informative bad prefixes of `f`
/// (LHJ10): linear in the formula, for symbolic model checkers. It
/// detects every violation exactly when `f` is a safety formula that is
/// not pathologic (see [`classify`]).
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::translate::transducer;
/// let t = transducer(&parse("G(req -> X ack)")?)?;
/// // !G(req -> X ack) = F(req & X !ack): one variable for F, one for X.
/// assert_eq!(t.num_vars(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn transducer(f: &Formula) -> Result<crate::automaton::Transducer, BuildError> {
    let pipe = Pipeline::new(f, &Config::new())?;
    Ok(crate::algo::transducer::build(f, &pipe.aps))
}

/// How the informative monitor of a formula differs from the exact one.
#[derive(Clone, Debug)]
pub struct InformativeReport {
    /// States of the exact monitor.
    pub exact_states: usize,
    /// States of the informative monitor.
    pub informative_states: usize,
    /// A shortest bad prefix that is not informative (`None` if both
    /// monitors reject the same words).
    pub uninformative_bad_prefix: Option<Vec<Guard>>,
    /// The propositions.
    pub alphabet: Alphabet,
}

impl InformativeReport {
    /// The word as text, if there is one.
    pub fn word_text(&self) -> Option<String> {
        self.uninformative_bad_prefix
            .as_ref()
            .map(|w| format_word(w, &self.alphabet))
    }
}

/// Compares the informative monitor of `f` with its exact monitor.
pub fn compare_informative(f: &Formula, cfg: &Config) -> Result<InformativeReport, BuildError> {
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let (exact, _, _) = pipe.exact(&g)?;
    let (inf, _, _) = pipe.informative(f)?;
    let diff = first_difference(&mut pipe.mgr, &exact, &inf).map(|(word, _, _)| {
        word.into_iter()
            .map(|c| Guard::from_cubes(vec![c]))
            .collect()
    });
    Ok(InformativeReport {
        exact_states: exact.len(),
        informative_states: inf.len(),
        uninformative_bad_prefix: diff,
        alphabet: pipe.aps.clone(),
    })
}

/// One translation's shared state: the alphabet and the diagram manager.
struct Pipeline {
    aps: Alphabet,
    mgr: Manager,
    /// Pruned Büchi automata already built, by formula.
    nbas: rustc_hash::FxHashMap<Formula, Nba>,
    max_states: usize,
    simplified: Formula,
    name: String,
    route: Route,
    /// The route of the first exact monitor built.
    used: Option<Route>,
}

impl Pipeline {
    fn new(f: &Formula, cfg: &Config) -> Result<Pipeline, BuildError> {
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
        Ok(Pipeline {
            aps: Alphabet::new(f.atomic_propositions()),
            mgr: Manager::new(),
            nbas: Default::default(),
            max_states: cfg.get_max_states(),
            simplified: if cfg.get_simplify() {
                simplify(f)
            } else {
                f.clone()
            },
            name: f.to_spot(),
            route: cfg.get_route(),
            used: None,
        })
    }

    /// The pruned Büchi automaton of `f`.
    fn nba(&mut self, f: &Formula) -> Result<Nba, BuildError> {
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
        let a = prune(&t.nba).0;
        self.nbas.insert(f.clone(), a.clone());
        Ok(a)
    }

    #[cfg(test)]
    fn determinize_exact(&mut self, nba: &Nba) -> Result<DetAutomaton, BuildError> {
        let det = determinize(&mut self.mgr, nba, &SubsetMode::Exact, self.max_states)?;
        Ok(minimize(&mut self.mgr, &det))
    }

    /// The minimal monitor of `f` by derivatives, with no Büchi automaton
    /// and the derivative count, if the route allows them and they apply;
    /// records the route taken.
    fn by_derivatives(
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
    fn within_budget<T>(
        &mut self,
        build: impl FnOnce(&mut Pipeline) -> Result<T, BuildError>,
    ) -> Result<T, BuildError> {
        let budget = self
            .max_states
            .saturating_mul(NODES_PER_STATE)
            .max(MIN_NODES);
        let outer = self.mgr.begin_guard(budget);
        let r = build(self);
        if self.mgr.end_guard(outer) {
            r
        } else {
            Err(BuildError::too_many_states(
                "monitor (counted by the decision-diagram nodes of its transitions)",
                self.max_states,
            ))
        }
    }

    /// The minimal exact monitor of `f`, with the NBA and subset sizes.
    fn exact(&mut self, f: &Formula) -> Result<(DetAutomaton, usize, usize), BuildError> {
        self.within_budget(|p| p.exact_unguarded(f))
    }

    fn exact_unguarded(&mut self, f: &Formula) -> Result<(DetAutomaton, usize, usize), BuildError> {
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
    fn informative(&mut self, f: &Formula) -> Result<(DetAutomaton, usize, usize), BuildError> {
        self.within_budget(|p| p.informative_unguarded(f))
    }

    fn informative_unguarded(
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
    fn intersection_witness(
        &mut self,
        nba: &Nba,
        det: &DetAutomaton,
    ) -> Result<Option<Lasso<Vec<bool>>>, BuildError> {
        let prod = with_safety_dfa(&mut self.mgr, nba, det, self.max_states)?;
        Ok(accepted_lasso(&self.mgr, &prod, self.aps.len()))
    }

    /// A word violating `f` that the exact monitor `closure` of `f` never
    /// rejects (`None` iff `f` is a safety property).
    fn violation_without_bad_prefix(
        &mut self,
        f: &Formula,
        closure: &DetAutomaton,
    ) -> Result<Option<Lasso<Vec<bool>>>, BuildError> {
        let neg = self.nba(&Formula::not(f.clone()))?;
        self.intersection_witness(&neg, closure)
    }

    fn export(&self, det: &DetAutomaton) -> BadPrefixDfa {
        let states: Vec<_> = det
            .diagrams
            .iter()
            .copied()
            .zip(det.verdicts.iter().copied())
            .collect();
        BadPrefixDfa::from_diagrams(self.aps.clone(), &self.mgr, &states, self.name.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::RandomLtl;

    /// The stuttering product, the general method.
    fn stutter_by_product(pipe: &mut Pipeline, g: &Formula) -> bool {
        let pos = pipe.nba(g).unwrap();
        let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
        let a = stutter_product(&mut pipe.mgr, &pos, &neg, usize::MAX).unwrap();
        let b = stutter_product(&mut pipe.mgr, &neg, &pos, usize::MAX).unwrap();
        accepted_lasso(&pipe.mgr, &a, pipe.aps.len()).is_none()
            && accepted_lasso(&pipe.mgr, &b, pipe.aps.len()).is_none()
    }

    /// Runs `check` on the random safety formulas of 600 seeds (two
    /// propositions, with past), with their pipeline, simplified formula
    /// and exact monitor (by the tableau).
    fn for_random_safety(
        mut check: impl FnMut(u64, &Formula, &mut Pipeline, &Formula, &DetAutomaton),
    ) {
        for seed in 0..600u64 {
            let f = RandomLtl::new(&["a", "b"], 3 + (seed % 9) as usize)
                .with_past()
                .seed(seed)
                .next_formula();
            let mut pipe = Pipeline::new(&f, &Config::new()).unwrap();
            let g = pipe.simplified.clone();
            let nba = pipe.nba(&g).unwrap();
            let det = pipe.determinize_exact(&nba).unwrap();
            let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
            if pipe.intersection_witness(&neg, &det).unwrap().is_some() {
                continue; // not a safety property
            }
            check(seed, &f, &mut pipe, &g, &det);
        }
    }

    #[test]
    fn stutter_check_on_the_monitor_agrees_with_the_product() {
        let (mut invariant, mut sensitive) = (0, 0);
        for_random_safety(|seed, f, pipe, g, det| {
            let by_monitor = stutter_invariant_safety(&mut pipe.mgr, det);
            assert_eq!(by_monitor, stutter_by_product(pipe, g), "seed {seed}: {f}");
            if by_monitor {
                invariant += 1;
            } else {
                sensitive += 1;
            }
        });
        // Both answers were exercised.
        assert!(
            invariant > 20 && sensitive > 20,
            "{invariant} invariant, {sensitive} sensitive"
        );
    }

    #[test]
    fn guarantee_check_on_the_monitor_agrees_with_the_product() {
        let (mut yes, mut no) = (0, 0);
        for_random_safety(|seed, f, pipe, g, det| {
            // A guarantee: the negation's exact monitor accepts no model of
            // the formula (every model has a good prefix).
            let pos = pipe.nba(g).unwrap();
            let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
            let det_neg = pipe.determinize_exact(&neg).unwrap();
            let by_product = pipe.intersection_witness(&pos, &det_neg).unwrap().is_none();
            let by_monitor = safety_is_guarantee(&pipe.mgr, det);
            assert_eq!(by_monitor, by_product, "seed {seed}: {f}");
            if by_monitor {
                yes += 1;
            } else {
                no += 1;
            }
        });
        // Both answers were exercised.
        assert!(yes > 20 && no > 20, "{yes} guarantees, {no} not");
    }

    #[test]
    fn every_cycle_accepting_only_claims_safety() {
        for seed in 0..600u64 {
            let f = RandomLtl::new(&["a", "b"], 3 + (seed % 9) as usize)
                .seed(seed)
                .next_formula();
            let mut pipe = Pipeline::new(&f, &Config::new()).unwrap();
            let g = pipe.simplified.clone();
            let nba = pipe.nba(&g).unwrap();
            if every_cycle_accepting(&nba) {
                let det = pipe.determinize_exact(&nba).unwrap();
                let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
                assert!(
                    pipe.intersection_witness(&neg, &det).unwrap().is_none(),
                    "seed {seed}: {f}"
                );
            }
        }
    }
}
