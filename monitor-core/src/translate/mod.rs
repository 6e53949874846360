//! The translation pipeline: formula to minimal monitor. The analyses
//! (safety, guarantee, liveness, stutter-invariance, pathologic formulas)
//! are in [`crate::analysis`]; [`stages`] runs the tableau route one
//! stage at a time.
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
//! documented on each setter); [`Builder`] runs the pipeline. The
//! [`stages`] module runs the tableau route one stage at a time, for a
//! look at the automata in between.
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

use crate::algo::emptiness::every_cycle_accepting;
use crate::algo::minimize::minimize;
use crate::algo::product::three_valued;
use crate::automaton::BadPrefixDfa;
use crate::formula::{parse, Formula};
use crate::word::Lasso;

mod buchi;
mod from_formula;
pub(crate) mod pipeline;
pub mod stages;

use pipeline::Pipeline;

/// The default limit on the number of states of every automaton built.
pub const DEFAULT_MAX_STATES: usize = 250_000;

/// The default byte budget of one construction: 1 GiB.
///
/// It fits a small machine (a 2 GB CI runner, a laptop running other
/// things) with room for the process around it, and it is far above what
/// monitors within the default state limit take: the largest of the
/// benchmark families and examples need tens of megabytes. What reaches
/// it is a blow-up that the state limit does not see (a Büchi automaton
/// of two million edges, each with thousands of acceptance marks), which
/// took 2 to 3 GB before it failed, or aborted on a failed allocation.
pub const DEFAULT_MAX_MEMORY: usize = 1 << 30;

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
    max_memory: Option<Option<usize>>,
    verdicts: Option<Verdicts>,
    prefixes: Option<Prefixes>,
    simplify: Option<bool>,
    check_safety: Option<bool>,
    route: Option<Route>,
}

impl Config {
    /// A configuration with every setting at its default.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, Prefixes, Verdicts, DEFAULT_MAX_STATES};
    /// let cfg = Config::new();
    /// assert_eq!(cfg.get_max_states(), DEFAULT_MAX_STATES);
    /// assert_eq!((cfg.get_verdicts(), cfg.get_prefixes()), (Verdicts::Two, Prefixes::Exact));
    /// assert!(cfg.get_simplify() && cfg.get_check_safety());
    /// ```
    pub fn new() -> Config {
        Config::default()
    }

    /// The largest number of states of any automaton built along the way
    /// (`None`: no limit). Beyond it the build fails with
    /// [`BuildErrorKind::TooManyStates`]. Defaults to
    /// [`DEFAULT_MAX_STATES`].
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().max_states(Some(3)));
    /// // Its monitor has 4 states.
    /// assert_eq!(b.build("G(req -> X X ack)").unwrap_err().state_limit(), Some(3));
    /// assert_eq!(Config::new().max_states(None).get_max_states(), usize::MAX);
    /// ```
    pub fn max_states(mut self, limit: Option<usize>) -> Config {
        self.max_states = Some(limit);
        self
    }

    /// The most bytes the structures of one construction may hold
    /// (`None`: no limit): the decision diagrams with their unique and
    /// computed tables and operation memos, the Büchi automata (edges and
    /// acceptance marks) and the tableau's expansions, the subset
    /// construction's sets. Each is charged before it grows, so the build
    /// fails with [`BuildErrorKind::OutOfMemory`] instead of allocating
    /// beyond it. Small structures (formulas, the finished monitor, a
    /// state's own bookkeeping) are not counted: the process takes
    /// somewhat more than the budget. Defaults to [`DEFAULT_MAX_MEMORY`].
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config, DEFAULT_MAX_MEMORY};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().max_memory(Some(4 << 20)));
    /// let f = (0..14).map(|i| format!("G(a{i} -> X b{i})")).collect::<Vec<_>>().join(" & ");
    /// assert_eq!(b.build(&f).unwrap_err().memory_limit(), Some(4 << 20));
    /// assert_eq!(Config::new().get_max_memory(), DEFAULT_MAX_MEMORY);
    /// assert_eq!(Config::new().max_memory(None).get_max_memory(), usize::MAX);
    /// ```
    pub fn max_memory(mut self, bytes: Option<usize>) -> Config {
        self.max_memory = Some(bytes);
        self
    }

    /// The byte budget in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, DEFAULT_MAX_MEMORY};
    /// assert_eq!(Config::new().get_max_memory(), 1 << 30);
    /// assert_eq!(Config::new().max_memory(Some(64 << 20)).get_max_memory(), 64 << 20);
    /// ```
    pub fn get_max_memory(&self) -> usize {
        self.max_memory
            .unwrap_or(Some(DEFAULT_MAX_MEMORY))
            .unwrap_or(usize::MAX)
    }

    /// Two- or three-valued verdicts. Defaults to [`Verdicts::Two`].
    ///
    /// ```
    /// # use monitor_core::automaton::Verdict;
    /// # use monitor_core::translate::{Builder, Config, Verdicts};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().verdicts(Verdicts::Three));
    /// // After `a`, every extension satisfies `F a`.
    /// assert_eq!(b.build("F a")?.dfa().run([0b1u64]), Verdict::Satisfied);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdicts(mut self, v: Verdicts) -> Config {
        self.verdicts = Some(v);
        self
    }

    /// Exact or informative bad prefixes. Defaults to [`Prefixes::Exact`].
    ///
    /// ```
    /// # use monitor_core::automaton::Verdict;
    /// # use monitor_core::translate::{Builder, Config, Prefixes};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().prefixes(Prefixes::Informative));
    /// // `a` is a bad prefix, but shows why only once the next letter is read.
    /// let dfa = b.build("G(a -> X b) & G(a -> X !b)")?.into_dfa();
    /// assert_eq!(dfa.run([0b01u64]), Verdict::Undecided);
    /// assert_eq!(dfa.run([0b01u64, 0]), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn prefixes(mut self, p: Prefixes) -> Config {
        self.prefixes = Some(p);
        self
    }

    /// Whether to simplify the formula first (it never changes the exact
    /// monitor, only the time to build it). Enabled by default.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().simplify(false));
    /// let plain = b.build("G(req -> X ack) & G(req -> X ack)")?.into_dfa();
    /// let simplified = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert!(plain.first_difference(&simplified).is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn simplify(mut self, yes: bool) -> Config {
        self.simplify = Some(yes);
        self
    }

    /// Whether [`Builder::build`] decides if the formula is a safety
    /// property (one more automaton product). Enabled by default.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().check_safety(false));
    /// assert_eq!(b.build("G(req -> F ack)")?.is_safety(), None);
    /// assert_eq!(Builder::new().build("G(req -> F ack)")?.is_safety(), Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn check_safety(mut self, yes: bool) -> Config {
        self.check_safety = Some(yes);
        self
    }

    /// The state limit in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, DEFAULT_MAX_STATES};
    /// assert_eq!(Config::new().get_max_states(), DEFAULT_MAX_STATES);
    /// assert_eq!(Config::new().max_states(Some(500)).get_max_states(), 500);
    /// assert_eq!(Config::new().max_states(None).get_max_states(), usize::MAX);
    /// ```
    pub fn get_max_states(&self) -> usize {
        self.max_states
            .unwrap_or(Some(DEFAULT_MAX_STATES))
            .unwrap_or(usize::MAX)
    }

    /// The verdicts in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, Verdicts};
    /// assert_eq!(Config::new().get_verdicts(), Verdicts::Two);
    /// assert_eq!(Config::new().verdicts(Verdicts::Three).get_verdicts(), Verdicts::Three);
    /// ```
    pub fn get_verdicts(&self) -> Verdicts {
        self.verdicts.unwrap_or_default()
    }

    /// The prefixes in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, Prefixes};
    /// assert_eq!(Config::new().get_prefixes(), Prefixes::Exact);
    /// let cfg = Config::new().prefixes(Prefixes::Informative);
    /// assert_eq!(cfg.get_prefixes(), Prefixes::Informative);
    /// ```
    pub fn get_prefixes(&self) -> Prefixes {
        self.prefixes.unwrap_or_default()
    }

    /// Whether simplification is in effect.
    ///
    /// ```
    /// # use monitor_core::translate::Config;
    /// assert!(Config::new().get_simplify());
    /// assert!(!Config::new().simplify(false).get_simplify());
    /// ```
    pub fn get_simplify(&self) -> bool {
        self.simplify.unwrap_or(true)
    }

    /// How exact monitors are built. Defaults to [`Route::Auto`].
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config, Route};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().route(Route::Tableau));
    /// assert_eq!(b.build("G(req -> X ack)")?.stats().route, Route::Tableau);
    /// // By default, derivatives where they apply.
    /// assert_eq!(Builder::new().build("G(req -> X ack)")?.stats().route, Route::Derivatives);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn route(mut self, r: Route) -> Config {
        self.route = Some(r);
        self
    }

    /// The route in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Config, Route};
    /// assert_eq!(Config::new().get_route(), Route::Auto);
    /// assert_eq!(Config::new().route(Route::Tableau).get_route(), Route::Tableau);
    /// ```
    pub fn get_route(&self) -> Route {
        self.route.unwrap_or_default()
    }

    /// Whether the safety check is in effect.
    ///
    /// ```
    /// # use monitor_core::translate::Config;
    /// assert!(Config::new().get_check_safety());
    /// assert!(!Config::new().check_safety(false).get_check_safety());
    /// ```
    pub fn get_check_safety(&self) -> bool {
        self.check_safety.unwrap_or(true)
    }

    /// Merges `other` into `self`: settings made in `other` win.
    fn overwrite(self, other: Config) -> Config {
        Config {
            max_states: other.max_states.or(self.max_states),
            max_memory: other.max_memory.or(self.max_memory),
            verdicts: other.verdicts.or(self.verdicts),
            prefixes: other.prefixes.or(self.prefixes),
            simplify: other.simplify.or(self.simplify),
            check_safety: other.check_safety.or(self.check_safety),
            route: other.route.or(self.route),
        }
    }
}

pub use crate::error::{BuildError, BuildErrorKind};

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
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::Builder;
    /// let t = Builder::new().build("G(req -> X ack)")?;
    /// assert_eq!(*t.formula(), parse("G(req -> X ack)")?);
    /// assert_eq!(t.formula().to_string(), "G(req -> Xack)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The monitor.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let t = Builder::new().build("G(req -> X ack)")?;
    /// assert_eq!(t.dfa().num_states(), 2);
    /// assert_eq!(t.dfa().alphabet().names(), ["req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn dfa(&self) -> &BadPrefixDfa {
        &self.dfa
    }

    /// Renames the monitor (by default the formula in Spot syntax), for
    /// instance to the property as the user wrote it.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let mut t = Builder::new().build("G(req -> X ack)")?;
    /// assert_eq!(t.dfa().name(), "G(req -> Xack)");
    /// t.set_name("handshake");
    /// assert_eq!(t.dfa().name(), "handshake");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.dfa.set_name(name);
    }

    /// The monitor, by value.
    ///
    /// ```
    /// # use monitor_core::automaton::Verdict;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.run([0b01u64, 0b00]), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn into_dfa(self) -> BadPrefixDfa {
        self.dfa
    }

    /// Whether the formula is a safety property (`None` if not checked, or
    /// if deciding it would exceed the state limit). If not, the monitor is
    /// that of its safety closure.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// assert_eq!(Builder::new().build("G(req -> X ack)")?.is_safety(), Some(true));
    /// // Not safety: the monitor is that of `true`, its safety closure.
    /// assert_eq!(Builder::new().build("F ack")?.is_safety(), Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_safety(&self) -> Option<bool> {
        self.safety
    }

    /// For a non-safety formula: an infinite word that violates it but
    /// that the monitor never rejects.
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    ///
    /// let t = Builder::new().build("G(req -> F ack)")?;
    /// assert_eq!(t.is_safety(), Some(false));
    /// // The monitor is that of the safety closure: it never rejects.
    /// assert!(t.dfa().never_violates());
    /// let w = t.non_safety_witness().unwrap();
    /// // One bool per proposition (req, ack) per letter; the cycle repeats.
    /// assert!(w.cycle.iter().all(|l| !l[1]), "ack never comes");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn non_safety_witness(&self) -> Option<&Lasso<Vec<bool>>> {
        self.non_safety_witness.as_ref()
    }

    /// Sizes and times.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config, Route};
    /// let mut b = Builder::new();
    /// b.configure(Config::new().route(Route::Tableau));
    /// let stats = b.build("G(req -> X ack)")?.stats().clone();
    /// assert_eq!((stats.nba_states, stats.subset_states, stats.states), (2, 2, 2));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, DEFAULT_MAX_STATES};
    /// let b = Builder::new();
    /// assert_eq!(b.config().get_max_states(), DEFAULT_MAX_STATES);
    /// assert_eq!(b.build("G(req -> X ack)")?.dfa().num_states(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new() -> Builder {
        Builder::default()
    }

    /// Applies the settings made in `config`.
    ///
    /// ```
    /// use monitor_core::translate::{Builder, Config, Verdicts};
    ///
    /// let mut b = Builder::new();
    /// b.configure(Config::new().max_states(Some(1000)));
    /// b.configure(Config::new().verdicts(Verdicts::Three));
    /// // Settings add up: a later configuration overrides only what it sets.
    /// assert_eq!(b.config().get_max_states(), 1000);
    /// assert_eq!(b.config().get_verdicts(), Verdicts::Three);
    /// ```
    pub fn configure(&mut self, config: Config) -> &mut Builder {
        self.config = self.config.clone().overwrite(config);
        self
    }

    /// The configuration in effect.
    ///
    /// ```
    /// # use monitor_core::translate::{Builder, Config};
    /// let mut b = Builder::new();
    /// assert!(b.config().get_simplify());
    /// b.configure(Config::new().simplify(false));
    /// assert!(!b.config().get_simplify());
    /// ```
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Parses and translates a formula.
    ///
    /// ```
    /// use monitor_core::translate::{Builder, Config};
    ///
    /// let t = Builder::new().build("G(req -> X ack)")?;
    /// assert_eq!(t.dfa().num_states(), 2);
    /// // A syntax error, with its position.
    /// assert!(Builder::new().build("G(req ->").is_err());
    /// // Beyond the state limit: an error, not a hang.
    /// let mut small = Builder::new();
    /// small.configure(Config::new().max_states(Some(10)));
    /// let e = small.build("G(a -> X X X X X X X X X X X X b)").unwrap_err();
    /// assert!(e.state_limit().is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn build(&self, formula: &str) -> Result<Translation, BuildError> {
        let f = parse(formula)?;
        self.build_from_formula(&f)
    }

    /// Translates a formula.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// # use monitor_core::translate::Builder;
    /// let f = parse("G(req -> X ack)")?;
    /// assert_eq!(Builder::new().build_from_formula(&f)?.dfa().num_states(), 2);
    /// // The negation, built without printing and parsing it again.
    /// let t = Builder::new().build_from_formula(&Formula::not(f))?;
    /// assert_eq!(t.is_safety(), Some(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
        // Nothing built after the budget refused a growth is right.
        pipe.check_memory()?;
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
                    // The monitor is right either way (checked above, and
                    // only read from here on); only the answer to "is it a
                    // safety property?" is out of budget.
                    Err(e) if e.state_limit().is_some() || e.memory_limit().is_some() => {
                        (None, None)
                    }
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
