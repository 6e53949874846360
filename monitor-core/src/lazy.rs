//! Monitors that build their automaton while they run: each state is
//! determinized from the tableau's automaton when a trace first reaches
//! it, for properties whose eager monitor would be too large.
//!
//! A [`LazyMonitor`] steps like the runtime's monitors (it implements
//! [`Stepper`]) but holds a piece of the compiler, so it lives apart from
//! [`runtime`](crate::runtime), which knows nothing of the compiler and
//! builds without `std`.

use core::fmt;

use rustc_hash::FxHashMap;

use crate::algo::derivatives;
use crate::algo::lazy::LazyDfa;
use crate::error::{BuildError, BuildErrorKind};
use crate::formula::{parse, Formula};
use crate::runtime::{Stepper, Verdict};
use crate::translate::pipeline::Pipeline;
use crate::translate::{Config, Prefixes, Verdicts};
use crate::Valuation;

/// The default bound on the memory a [`LazyMonitor`] keeps: 32 MiB.
pub const DEFAULT_CACHE_CAPACITY: usize = 32 << 20;

/// Dense transition rows (one entry per letter) up to this many
/// propositions (1 KiB per state); a hash map of the letters seen beyond.
const DENSE_PROPS: u32 = 8;

/// Not computed yet.
const UNKNOWN: u32 = u32::MAX;

/// A monitor that determinizes on demand: it builds the states and
/// transitions its run visits, and no others, in a cache of bounded size
/// that it empties when full (keeping the states it is in), in the
/// manner of `regex-automata`'s lazy DFA.
///
/// Some monitors are too large to build (`Gp1 | … | Gp30` has `2^30`
/// states, a 20-bit counter `20·2^20`) but a run visits only a few of
/// their states: the lazy monitor checks them in bounded memory, at the
/// cost of building each state the first time it is visited again after
/// the cache was emptied. Its verdicts are the eager monitor's
/// ([`Monitor`](super::Monitor)), letter for letter, with the same
/// [`Config`] (exact or informative prefixes, two or three verdicts).
///
/// Exact verdicts need, for each new state, a search for whether the
/// property can still hold (and, with three verdicts, whether it can
/// still fail), bounded by the configuration's state limit. A search
/// over that budget leaves the monitor *informative* from then on: a
/// violation is then reported at its first informative bad prefix, never
/// before the exact monitor would report it and never wrongly;
/// [`LazyMonitor::inexact_from`] tells when it happened.
///
/// It applies to syntactic safety formulas (`X`, `G`, `W`, `R`, `&`, `|`
/// over past formulas, in negation normal form, after simplification for
/// exact verdicts); others are refused with
/// [`BuildErrorKind::NotLazy`].
///
/// ```
/// use monitor_core::lazy::LazyMonitor;
/// use monitor_core::runtime::Stepper;
/// use monitor_core::Verdict;
///
/// // 2^30 states: too many to build, but a run visits few of them.
/// let f: Vec<String> = (1..=30).map(|i| format!("G p{i}")).collect();
/// let mut m = LazyMonitor::from_ltl(&f.join(" | "))?;
/// let all = (1u64 << 30) - 1;
/// assert_eq!(m.step(all), Verdict::Undecided);
/// assert_eq!(m.step(all & !1), Verdict::Undecided); // G p1 is out
/// assert_eq!(m.step(0), Verdict::Violated);
/// let why = m.violation().unwrap();
/// assert_eq!(why.position, 2);
/// // What was still required, its first terms in the formula's order.
/// assert!(why.to_string().contains("`Gp2 | Gp3 | Gp4 | Gp5 | …` was required, and the letter satisfied"));
/// assert!(m.stats().states < 10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct LazyMonitor {
    dfa: LazyDfa,
    property: String,
    props: u32,
    mask: u64,
    /// Dense rows: the target of state `q` on letter `l` at `q << props |
    /// l`, or [`UNKNOWN`].
    dense: Option<Vec<u32>>,
    sparse: FxHashMap<(u32, u64), u32>,
    start: u32,
    current: u32,
    steps: u64,
    /// Letters read over the monitor's life (resets included).
    total: u64,
    /// Where the run violated the property (it is violated iff this is
    /// set): the state it was in, the state the letter led to, the
    /// letter's position (explained on demand: most violations of a long
    /// run are only counted).
    violated_at: Option<(u32, u32, u64)>,
    capacity: usize,
    stats: LazyStats,
    inexact_from: Option<u64>,
    /// Set when a transition could not be built within the byte budget
    /// (even from an emptied cache): the monitor reads no more letters.
    failed: Option<BuildError>,
    /// The runs kept outside the monitor at the last emptying of the
    /// cache, and the transitions built since: the cache is emptied again
    /// only once they are as many as those runs, so that the pass over the
    /// runs an emptying makes costs at most one step per transition built
    /// (the cache may then hold, beyond its capacity, a transition per
    /// run, where a run holds a state of its own anyway).
    runs_at_clear: u64,
    built_since_clear: u64,
}

/// What a [`LazyMonitor`] has done so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LazyStats {
    /// States built, over the whole run (a state built again after the
    /// cache was emptied counts again).
    pub states_built: u64,
    /// Transitions built.
    pub transitions_built: u64,
    /// How many times the cache was emptied.
    pub cache_clears: u64,
    /// States in the cache now.
    pub states: usize,
    /// The memory the cache holds now, in bytes (an estimate).
    pub memory: usize,
    /// The largest memory the cache held, in bytes (an estimate).
    pub peak_memory: usize,
    /// Searches for doomed or universal states (exact verdicts).
    pub searches: u64,
    /// The cubes and clauses those searches expanded.
    pub expanded: u64,
}

/// Why a [`LazyMonitor`] reported a violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LazyViolation {
    /// The property.
    pub property: String,
    /// The index of the violating letter (0 for the first letter read).
    pub position: u64,
    /// When the letter made the property `false` at once (an informative
    /// bad prefix): what was required from that letter on, as a formula;
    /// otherwise what remained after it, which no continuation satisfies.
    pub pending: String,
    /// The letters that violate the property at once where it happened,
    /// as a Boolean formula over the propositions (empty when the letter
    /// left a requirement that no continuation satisfies).
    pub letters: String,
}

impl fmt::Display for LazyViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` violated", self.property)?;
        if self.letters.is_empty() {
            write!(
                f,
                ": what remains to hold, `{}`, cannot hold whatever follows",
                self.pending
            )
        } else {
            write!(
                f,
                ": `{}` was required, and the letter satisfied `{}`",
                self.pending, self.letters
            )
        }
    }
}

impl std::error::Error for LazyViolation {}

impl fmt::Debug for LazyMonitor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LazyMonitor")
            .field("property", &self.property)
            .field("verdict", &self.verdict())
            .field("stats", &self.stats())
            .finish_non_exhaustive()
    }
}

impl LazyMonitor {
    /// The monitor running `dfa`, for the property `property`
    /// (`LazyMonitor::new` and `LazyMonitor::from_ltl`, beside the
    /// compiler, build the automaton).
    fn from_lazy_dfa(dfa: LazyDfa, property: String) -> Result<LazyMonitor, BuildError> {
        let props = dfa.alphabet().len() as u32;
        if props > 64 {
            return Err(BuildError::too_many_propositions(props as usize));
        }
        let dense = (props <= DENSE_PROPS).then(|| vec![UNKNOWN; 1 << props]);
        let mut m = LazyMonitor {
            dfa,
            property,
            props,
            mask: if props == 64 {
                u64::MAX
            } else {
                (1u64 << props) - 1
            },
            dense,
            sparse: FxHashMap::default(),
            start: 0,
            current: 0,
            steps: 0,
            total: 0,
            violated_at: None,
            capacity: DEFAULT_CACHE_CAPACITY,
            stats: LazyStats {
                states_built: 1,
                ..LazyStats::default()
            },
            inexact_from: None,
            failed: None,
            runs_at_clear: 0,
            built_since_clear: 0,
        };
        m.note_search();
        Ok(m)
    }

    /// Bounds the memory of the cache (in bytes, an estimate); when it is
    /// full, it is emptied. A search for an exact verdict stops (see
    /// [`LazyMonitor::inexact_from`]) rather than exceed it (or 1 MiB,
    /// whichever is larger). Defaults to [`DEFAULT_CACHE_CAPACITY`], which
    /// also bounds the search of the start state, made on construction.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// // A cache emptied at every new transition: slower, same verdicts.
    /// let mut m = LazyMonitor::from_ltl("G(a -> X b)")?.with_cache_capacity(0);
    /// assert_eq!(m.step(0b01), Verdict::Undecided);
    /// assert_eq!(m.step(0b10), Verdict::Undecided);
    /// assert_eq!(m.step(0b01), Verdict::Undecided);
    /// assert_eq!(m.step(0b00), Verdict::Violated);
    /// let stats = m.stats();
    /// assert_eq!(stats.cache_clears, stats.transitions_built);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_cache_capacity(mut self, bytes: usize) -> LazyMonitor {
        self.capacity = bytes;
        self.dfa.set_memory_limit(bytes);
        self
    }

    /// The property.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.property(), "G(req -> Xack)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn property(&self) -> &str {
        &self.property
    }

    /// The propositions, in the order of the bits of a letter.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.propositions(), ["req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn propositions(&self) -> &[String] {
        self.dfa.alphabet().names()
    }

    /// Reads one letter (bit `i` for proposition `i`, in the order of
    /// [`LazyMonitor::propositions`]). After a violation the run stays
    /// violated.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// let (req, ack) = (0b01, 0b10);
    /// assert_eq!(m.step(req), Verdict::Undecided);
    /// assert_eq!(m.step(req | ack), Verdict::Undecided);
    /// assert_eq!(m.step(0), Verdict::Violated);
    /// assert_eq!(m.step(ack), Verdict::Violated); // sticky
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// A transition that cannot be built within the byte budget
    /// (`Config::max_memory`), even from an emptied cache, stops the
    /// monitor: this letter and all later ones are not read, the verdict
    /// stays [`Verdict::Undecided`] (not a verdict on the word), and
    /// [`LazyMonitor::error`] says why; [`LazyMonitor::try_step`] returns
    /// the error instead.
    #[inline]
    pub fn step(&mut self, letter: u64) -> Verdict {
        if self.violated_at.is_some() {
            return Verdict::Violated;
        }
        if self.failed.is_some() {
            return Verdict::Undecided;
        }
        let letter = letter & self.mask;
        let known = match &self.dense {
            Some(rows) => rows[(self.current as usize) << self.props | letter as usize],
            None => self
                .sparse
                .get(&(self.current, letter))
                .copied()
                .unwrap_or(UNKNOWN),
        };
        let t = if known == UNKNOWN {
            match self.build(letter) {
                Some(t) => t,
                None => return Verdict::Undecided,
            }
        } else {
            known
        };
        self.steps += 1;
        self.total += 1;
        let v = self.dfa.state(t).verdict;
        if v == Verdict::Violated {
            self.violated_at = Some((self.current, t, self.steps - 1));
        } else {
            self.current = t;
        }
        v
    }

    /// Reads one letter given as any [`Valuation`].
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// // req, ack
    /// assert_eq!(m.step_with(&[true, false]), Verdict::Undecided);
    /// assert_eq!(m.step_with(&[false, false]), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step_with<L: Valuation + ?Sized>(&mut self, letter: &L) -> Verdict {
        self.step(crate::runtime::letter_bits(letter, self.props))
    }

    /// [`LazyMonitor::step`], or the error that stopped the monitor (at
    /// this letter or before): a transition that needs more than the
    /// configuration's byte budget (`Config::max_memory`) from an emptied
    /// cache.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::{BuildErrorKind, Config};
    /// use monitor_core::Verdict;
    ///
    /// let f = parse("G(req -> X ack)")?;
    /// let mut m = LazyMonitor::new(&f, &Config::new())?;
    /// assert_eq!(m.try_step(0b01)?, Verdict::Undecided);
    /// assert_eq!(m.try_step(0b00)?, Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn try_step(&mut self, letter: u64) -> Result<Verdict, BuildError> {
        let v = self.step(letter);
        match &self.failed {
            Some(e) => Err(e.clone()),
            None => Ok(v),
        }
    }

    /// Why the monitor stopped reading letters, if it did: a transition
    /// that needs more than the configuration's byte budget
    /// (`Config::max_memory`, 1 GiB by default) even from an emptied
    /// cache ([`BuildErrorKind::OutOfMemory`]). The letters it read before
    /// have their verdicts; the others are not read.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// m.step(0b01);
    /// assert!(m.error().is_none());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn error(&self) -> Option<&BuildError> {
        self.failed.as_ref()
    }

    /// The verdict of the word read so far.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G !a")?;
    /// assert_eq!(m.verdict(), Verdict::Undecided);
    /// m.step(1);
    /// assert_eq!(m.verdict(), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self) -> Verdict {
        if self.violated_at.is_some() {
            Verdict::Violated
        } else {
            self.dfa.state(self.current).verdict
        }
    }

    /// Back to the start (the cache stays).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G !a")?;
    /// m.step(0);
    /// m.step(1);
    /// let built = m.stats().states_built;
    /// m.reset();
    /// assert_eq!((m.verdict(), m.steps()), (Verdict::Undecided, 0));
    /// m.step(0);
    /// assert_eq!(m.stats().states_built, built); // from the cache
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset(&mut self) {
        self.current = self.start;
        self.steps = 0;
        self.violated_at = None;
    }

    /// Why the property was violated, if it was (worked out on demand,
    /// hence `&mut`).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// m.step(0b01);
    /// assert_eq!(m.violation(), None);
    /// m.step(0b00);
    /// let why = m.violation().unwrap();
    /// assert_eq!((why.position, why.letters.as_str()), (1, "!ack"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violation(&mut self) -> Option<LazyViolation> {
        let (from, to, position) = self.violated_at?;
        let why = self.explain(from, to, position);
        // The explanation was computed out of the byte budget (a refusal
        // midway would have made it wrong): the manager goes back into
        // the budget, or, when it grew past it, the cache starts over in a
        // new one, with the states the run needs. (Starting over after
        // every explanation made `--lazy --all` quadratic in the
        // violations.)
        if !self.dfa.restore_budget() {
            let kept = self.restart(&[from, to], &mut NoRuns);
            self.violated_at = Some((kept[0], kept[1], position));
        }
        if self.dfa.out_of_memory() {
            self.failed = Some(BuildError::out_of_memory(self.dfa.max_memory()));
        }
        Some(why)
    }

    fn explain(&mut self, from: u32, to: u32, position: u64) -> LazyViolation {
        let dfa = &mut self.dfa;
        dfa.lift_budget();
        let (q, informative) = if dfa.state(to).node == crate::dd::Node::FALSE {
            (from, true)
        } else {
            (to, false)
        };
        let (pending, more) = dfa.pending(q, 4);
        let mut pending = pending.to_spot();
        if more {
            pending.push_str(" | …");
        }
        let letters = if informative {
            match dfa.violating(q) {
                Ok(g) => g.display(dfa.alphabet()).to_string(),
                Err(e) => e.to_string(),
            }
        } else {
            String::new()
        };
        LazyViolation {
            property: self.property.clone(),
            position,
            pending,
            letters,
        }
    }

    /// How many letters were read since the start (or the last reset).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// m.step(0b01);
    /// m.step(0b10);
    /// assert_eq!(m.steps(), 2);
    /// m.reset();
    /// assert_eq!(m.steps(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// `None` while every verdict is the exact monitor's; otherwise the
    /// first letter (counted over the whole life of the monitor, resets
    /// included, from 0) whose verdict may be informative: a search went
    /// over budget there, and from then on violations are reported at
    /// their informative bad prefixes. Always `None` for informative
    /// monitors.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::Config;
    /// use monitor_core::Verdict;
    ///
    /// // After `c`, `a` must hold for ever, but each `a` forbids `a` six
    /// // letters later: `c` is a bad prefix.
    /// let f = parse("G(c -> ((a W b) & G !b & G(a -> X X X X X X !a)))")?;
    /// let mut exact = LazyMonitor::new(&f, &Config::new())?;
    /// assert_eq!(exact.propositions(), ["c", "b", "a"]);
    /// let (c, a) = (0b001, 0b100);
    /// assert_eq!(exact.step(c | a), Verdict::Violated);
    /// assert_eq!(exact.inexact_from(), None);
    /// // With a budget too small to see it, the search gives up at the
    /// // first letter, and the violation is reported at its informative
    /// // bad prefix, six letters later.
    /// let mut tight = LazyMonitor::new(&f, &Config::new().max_states(Some(1)))?;
    /// let word = [c | a, a, a, a, a, a, a];
    /// let verdicts: Vec<Verdict> = word.into_iter().map(|l| tight.step(l)).collect();
    /// assert_eq!(tight.inexact_from(), Some(0));
    /// assert_eq!(verdicts.iter().position(|&v| v == Verdict::Violated), Some(6));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inexact_from(&self) -> Option<u64> {
        self.inexact_from
    }

    /// What the monitor has built and holds.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// for letter in [0b01, 0b10, 0b01, 0b10] {
    ///     m.step(letter);
    /// }
    /// let stats = m.stats();
    /// assert_eq!((stats.states, stats.transitions_built), (2, 2));
    /// assert_eq!(stats.cache_clears, 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn stats(&self) -> LazyStats {
        LazyStats {
            states: self.dfa.len(),
            memory: self.memory(),
            searches: self.dfa.searches,
            expanded: self.dfa.expanded,
            ..self.stats
        }
    }

    fn memory(&self) -> usize {
        self.dfa.memory() + self.dense.as_ref().map_or(0, |d| d.len() * 4) + self.sparse.len() * 32
    }

    /// Builds the transition of the current state on `letter` (the
    /// current and start states may be renumbered if the cache is
    /// emptied).
    #[cold]
    #[inline(never)]
    fn build(&mut self, letter: u64) -> Option<u32> {
        self.build_from(self.current, letter, &mut NoRuns)
            .map(|(_, t)| t)
    }

    /// Builds the transition of state `from` on `letter`; returns the new
    /// number of `from` and the target. When the cache is emptied, the
    /// start and current states, `from`, the target and the states of
    /// `runs` are kept, `runs` given their new numbers.
    ///
    /// A transition over the byte budget is built again from an emptied
    /// cache (the budget then holds only the states the runs need); if it
    /// is over the budget from there too, the monitor stops (`None`).
    fn build_from(
        &mut self,
        mut from: u32,
        letter: u64,
        runs: &mut dyn RunStates,
    ) -> Option<(u32, u32)> {
        let dfa = &mut self.dfa;
        let mut before = dfa.len();
        let mut t = dfa.successor(from, letter);
        if dfa.out_of_memory() {
            // Whatever was computed since the budget refused is wrong:
            // dropped with the cache, built again.
            self.stats.cache_clears += 1;
            from = self.restart(&[from], runs)[0];
            let dfa = &mut self.dfa;
            if dfa.out_of_memory() {
                self.failed = Some(BuildError::out_of_memory(dfa.max_memory()));
                return None;
            }
            before = dfa.len();
            t = dfa.successor(from, letter);
            if dfa.out_of_memory() {
                self.failed = Some(BuildError::out_of_memory(dfa.max_memory()));
                return None;
            }
        }
        let dfa = &mut self.dfa;
        let added = dfa.len() - before;
        self.stats.transitions_built += 1;
        self.stats.states_built += added as u64;
        if let Some(rows) = &mut self.dense {
            rows.resize(dfa.len() << self.props, UNKNOWN);
            rows[(from as usize) << self.props | letter as usize] = t;
        } else {
            self.sparse.insert((from, letter), t);
        }
        self.note_search();
        let memory = self.memory();
        self.stats.peak_memory = self.stats.peak_memory.max(memory);
        self.built_since_clear += 1;
        if memory <= self.capacity || self.built_since_clear < self.runs_at_clear {
            return Some((from, t));
        }
        // Full: start over with the states the runs need.
        self.stats.cache_clears += 1;
        let kept = self.restart(&[from, t], runs);
        if self.dfa.out_of_memory() {
            self.failed = Some(BuildError::out_of_memory(self.dfa.max_memory()));
            return None;
        }
        Some((kept[0], kept[1]))
    }

    /// Empties the cache but for the start and current states, `more`
    /// and the states of `runs` (whose runs get their new numbers);
    /// returns the new numbers of `more`. The start state stays state 0.
    fn restart(&mut self, more: &[u32], runs: &mut dyn RunStates) -> Vec<u32> {
        let old_len = self.dfa.len();
        let mut keep = vec![self.start, self.current];
        keep.extend_from_slice(more);
        // The runs' states, once each (many runs share a few states).
        let mut seen = vec![false; old_len];
        keep.iter().for_each(|&q| seen[q as usize] = true);
        let fixed = keep.len();
        let mut count = 0u64;
        runs.for_each_state(&mut |q| {
            count += 1;
            if !std::mem::replace(&mut seen[*q as usize], true) {
                keep.push(*q);
            }
        });
        self.runs_at_clear = count;
        self.built_since_clear = 0;
        let dfa = &mut self.dfa;
        let kept = dfa.restart(&keep);
        self.start = kept[0];
        self.current = kept[1];
        // (The runs in the states of `keep`'s first entries are renumbered
        // too.)
        let mut renumber = vec![UNKNOWN; old_len];
        for (&old, &new) in keep.iter().zip(&kept) {
            renumber[old as usize] = new;
        }
        runs.for_each_state(&mut |q| *q = renumber[*q as usize]);
        self.sparse = FxHashMap::default();
        if let Some(rows) = &mut self.dense {
            rows.clear();
            rows.resize(dfa.len() << self.props, UNKNOWN);
        }
        kept[2..fixed].to_vec()
    }

    fn note_search(&mut self) {
        if self.inexact_from.is_none() && self.dfa.gave_up() {
            self.inexact_from = Some(self.total);
        }
    }
}

/// The states of runs that one [`LazyMonitor`] steps but does not hold
/// ([`LazyMonitor::step_run`]): the runs of one property on many keys of
/// a log share its cache, each run holding its state as a `u32`. When the
/// cache is emptied, the states the runs are in are kept, and the runs
/// get their new numbers.
///
/// ```
/// use monitor_core::lazy::RunStates;
///
/// // Runs in a map, the finished ones left out.
/// struct Sessions(Vec<Option<u32>>);
/// impl RunStates for Sessions {
///     fn for_each_state(&mut self, f: &mut dyn FnMut(&mut u32)) {
///         self.0.iter_mut().flatten().for_each(f);
///     }
/// }
/// let mut s = Sessions(vec![Some(3), None, Some(5)]);
/// s.for_each_state(&mut |q| *q += 1);
/// assert_eq!(s.0, [Some(4), None, Some(6)]);
/// ```
pub trait RunStates {
    /// Calls `f` on the state of every run that may step again, which `f`
    /// may rewrite. An emptying of the cache calls it twice (to collect
    /// the states, then to renumber them): both calls visit the same runs.
    fn for_each_state(&mut self, f: &mut dyn FnMut(&mut u32));
}

impl RunStates for Vec<u32> {
    fn for_each_state(&mut self, f: &mut dyn FnMut(&mut u32)) {
        self.iter_mut().for_each(f);
    }
}

/// No runs but the monitor's own.
struct NoRuns;

impl RunStates for NoRuns {
    fn for_each_state(&mut self, _: &mut dyn FnMut(&mut u32)) {}
}

/// One step of a run kept outside its [`LazyMonitor`]
/// ([`LazyMonitor::step_run`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunStep {
    /// The state stepped from, renumbered if the cache was emptied.
    pub from: u32,
    /// The state the letter led to. When it is violated, a state to
    /// explain the violation with ([`LazyMonitor::explain_run`]), not to
    /// step from.
    pub to: u32,
    /// The verdict of `to`.
    pub verdict: Verdict,
}

impl LazyMonitor {
    /// The state every run kept outside the monitor starts in (the cache
    /// keeps it, as state 0, when it is emptied).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(a -> X b)")?;
    /// let step = m.step_run(LazyMonitor::START, 0b01, &mut Vec::new()).unwrap();
    /// assert_eq!(step.from, LazyMonitor::START);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const START: u32 = 0;

    /// Steps a run kept outside the monitor, in state `from`, on `letter`
    /// (as [`LazyMonitor::step`] does its own run); the monitor's own run
    /// does not move. Many runs share the monitor's cache (one run per
    /// key of a log): when a new transition fills it, it is emptied but
    /// for the states of `runs` (all the runs that may step again, this
    /// one included or not), which get their new numbers, as does `from`
    /// in the step returned. Since that is a pass over the runs, it is
    /// done once at most per as many new transitions as there were runs
    /// (the cache holding, between, up to one transition per run beyond
    /// its capacity). A run starts in [`LazyMonitor::START`], and
    /// stops at a violation (or starts again from `START`).
    ///
    /// `None` when the monitor stopped: a transition that cannot be built
    /// within the byte budget ([`LazyMonitor::error`]).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// // Two runs in a cache emptied at every new transition.
    /// let mut m = LazyMonitor::from_ltl("G(a -> X b)")?.with_cache_capacity(0);
    /// let (a, b) = (0b01, 0b10);
    /// let mut runs = vec![LazyMonitor::START; 2];
    /// for (run, letter) in [(0, a), (1, b), (0, b), (1, a), (1, 0)] {
    ///     let step = m.step_run(runs[run], letter, &mut runs).unwrap();
    ///     if step.verdict == Verdict::Violated {
    ///         let why = m.explain_run(step, 4, &mut runs);
    ///         assert_eq!((run, why.letters.as_str()), (1, "!b"));
    ///         runs[run] = LazyMonitor::START;
    ///     } else {
    ///         runs[run] = step.to;
    ///     }
    /// }
    /// assert!(m.stats().cache_clears >= 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step_run(
        &mut self,
        from: u32,
        letter: u64,
        runs: &mut dyn RunStates,
    ) -> Option<RunStep> {
        if self.failed.is_some() {
            return None;
        }
        let letter = letter & self.mask;
        let known = match &self.dense {
            Some(rows) => rows[(from as usize) << self.props | letter as usize],
            None => self.sparse.get(&(from, letter)).copied().unwrap_or(UNKNOWN),
        };
        let (from, to) = if known == UNKNOWN {
            self.build_run(from, letter, runs)?
        } else {
            (from, known)
        };
        self.total += 1;
        Some(RunStep {
            from,
            to,
            verdict: self.dfa.state(to).verdict,
        })
    }

    #[cold]
    #[inline(never)]
    fn build_run(
        &mut self,
        from: u32,
        letter: u64,
        runs: &mut dyn RunStates,
    ) -> Option<(u32, u32)> {
        self.build_from(from, letter, runs)
    }

    /// Why the step `step` of a run kept outside the monitor violated the
    /// property ([`LazyMonitor::step_run`]), as [`LazyMonitor::violation`]
    /// explains the monitor's own run; `position` is the violating
    /// letter's index in that run. Explaining may empty the cache: `runs`
    /// are the runs that may step again, renumbered then.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// let mut runs = Vec::new();
    /// let s = m.step_run(LazyMonitor::START, 0b01, &mut runs).unwrap();
    /// let v = m.step_run(s.to, 0b00, &mut runs).unwrap();
    /// assert_eq!(v.verdict, Verdict::Violated);
    /// let why = m.explain_run(v, 1, &mut runs);
    /// assert_eq!((why.position, why.letters.as_str()), (1, "!ack"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_run(
        &mut self,
        step: RunStep,
        position: u64,
        runs: &mut dyn RunStates,
    ) -> LazyViolation {
        let why = self.explain(step.from, step.to, position);
        // As in `violation`: back into the byte budget, or start over.
        if !self.dfa.restore_budget() {
            self.restart(&[], runs);
        }
        if self.dfa.out_of_memory() {
            self.failed = Some(BuildError::out_of_memory(self.dfa.max_memory()));
        }
        why
    }

    /// Whether state `q` (of a run kept outside the monitor,
    /// [`LazyMonitor::step_run`]) can never report again, so that its run
    /// can stop: no continuation violates the property, nor, with three
    /// verdicts, satisfies it for good (or it is satisfied already).
    /// Decided once per state, by searches bounded as those of exact
    /// verdicts are (over the bound: `false`); they never make the
    /// verdicts informative.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    ///
    /// // After `a`, `b` is never required again.
    /// let mut m = LazyMonitor::from_ltl("a | G(b -> X c)")?;
    /// assert!(!m.never_violated(LazyMonitor::START));
    /// let s = m.step_run(LazyMonitor::START, 0b001, &mut Vec::new()).unwrap();
    /// assert_eq!(m.propositions(), ["a", "b", "c"]);
    /// assert!(m.never_violated(s.to));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn never_violated(&mut self, q: u32) -> bool {
        self.dfa.never_violated(q)
    }
}

impl Stepper for LazyMonitor {
    fn step(&mut self, letter: u64) -> Verdict {
        LazyMonitor::step(self, letter)
    }

    fn verdict(&self) -> Verdict {
        LazyMonitor::verdict(self)
    }

    fn reset(&mut self) {
        LazyMonitor::reset(self);
    }
}

/// The automaton of `f` to be built on demand (see [`LazyMonitor`]), with
/// the verdicts of `cfg`; its search for doomed states stops at `cfg`'s
/// state limit.
fn lazy_dfa(f: &Formula, cfg: &Config) -> Result<LazyDfa, BuildError> {
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
        Some(g) => {
            let dfa = LazyDfa::new(
                &g,
                pipe.aps.clone(),
                exact,
                three,
                cfg.get_max_states(),
                cfg.get_max_memory(),
            );
            if dfa.out_of_memory() {
                return Err(BuildError::out_of_memory(cfg.get_max_memory()));
            }
            Ok(dfa)
        }
        None => Err(BuildError {
            kind: BuildErrorKind::NotLazy {
                subformula: derivatives::outside(&written)
                    .expect("a formula outside the fragment")
                    .to_spot(),
            },
        }),
    }
}

impl LazyMonitor {
    /// The lazy monitor of `formula` (LTL with past, Spot syntax), with
    /// the default configuration (exact bad prefixes, two verdicts).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::BuildErrorKind;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.step(0b01), Verdict::Undecided);
    /// assert_eq!(m.step(0b00), Verdict::Violated);
    /// // Not a syntactic safety formula.
    /// let err = LazyMonitor::from_ltl("G(req -> F ack)").unwrap_err();
    /// assert!(matches!(err.kind(), BuildErrorKind::NotLazy { subformula } if subformula == "Fack"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ltl(formula: &str) -> Result<LazyMonitor, BuildError> {
        let f = parse(formula)?;
        LazyMonitor::new(&f, &Config::new())
    }

    /// The lazy monitor of `f` with the verdicts and prefixes of `cfg`;
    /// its searches for exact verdicts stop at `cfg`'s state limit.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::{Config, Verdicts};
    /// use monitor_core::Verdict;
    ///
    /// let f = parse("a W b")?;
    /// let mut m = LazyMonitor::new(&f, &Config::new().verdicts(Verdicts::Three))?;
    /// assert_eq!(m.step(0b01), Verdict::Undecided); // a
    /// assert_eq!(m.step(0b10), Verdict::Satisfied); // b: a good prefix
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(f: &Formula, cfg: &Config) -> Result<LazyMonitor, BuildError> {
        LazyMonitor::from_lazy_dfa(lazy_dfa(f, cfg)?, f.to_spot())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::formula::Formula;
    use crate::formula::Op;
    use crate::runtime::{Monitor, MonitorTable};
    use crate::translate::{BuildErrorKind, Builder, Config, Prefixes, Verdicts};

    /// Random formulas leaning to the syntactic safety fragment.
    fn safety_leaning(seed: u64, size: usize) -> Formula {
        RandomLtl::new(&["a", "b", "c"], size)
            .with_past()
            .weight(Op::F, 0)
            .weight(Op::U, 0)
            .weight(Op::M, 0)
            .weight(Op::Equiv, 0)
            .weight(Op::Xor, 0)
            .weight(Op::G, 2)
            .weight(Op::X, 2)
            .seed(seed)
            .next_formula()
    }

    /// Steps the eager and the lazy monitor of `f` in `cfg` over random
    /// words and compares every verdict; `None` if `f` has no lazy
    /// monitor.
    fn compare(f: &Formula, cfg: &Config, capacity: usize, rng: &mut SplitMix64) -> Option<()> {
        let mut lazy = match LazyMonitor::new(f, cfg) {
            Ok(m) => m.with_cache_capacity(capacity),
            Err(e) if matches!(e.kind(), BuildErrorKind::NotLazy { .. }) => return None,
            Err(e) => panic!("{f}: {e}"),
        };
        let mut b = Builder::new();
        b.configure(cfg.clone());
        let table = MonitorTable::from_dfa(b.build_from_formula(f).unwrap().dfa());
        let t = table.table();
        let props = t.props;
        assert_eq!(lazy.propositions().len(), props as usize);
        for _ in 0..12 {
            let mut eager = Monitor::new(&t);
            lazy.reset();
            assert_eq!(lazy.verdict(), eager.verdict(), "{f} {cfg:?}: start");
            let len = rng.below(16) as usize;
            let mut word = Vec::new();
            for _ in 0..len {
                let l = rng.next_u64() & ((1 << props) - 1);
                word.push(l);
                let (e, z) = (eager.step(l), lazy.step(l));
                assert_eq!(z, e, "{f} {cfg:?} on {word:?}");
                if e == Verdict::Violated {
                    let why = lazy.violation().expect("explained");
                    assert_eq!(why.position, word.len() as u64 - 1);
                    break;
                }
            }
        }
        assert_eq!(lazy.inexact_from(), None, "{f}");
        Some(())
    }

    #[test]
    fn lazy_verdicts_are_the_eager_monitors() {
        let mut rng = SplitMix64::new(11);
        let mut compared = [0usize; 4];
        for seed in 0..700u64 {
            let f = safety_leaning(seed, 3 + (seed % 10) as usize);
            for (k, (p, v)) in [
                (Prefixes::Exact, Verdicts::Two),
                (Prefixes::Informative, Verdicts::Two),
                (Prefixes::Exact, Verdicts::Three),
                (Prefixes::Informative, Verdicts::Three),
            ]
            .into_iter()
            .enumerate()
            {
                let cfg = Config::new().prefixes(p).verdicts(v);
                // A roomy cache, and one emptied at every new transition.
                let capacity = if seed % 3 == 0 {
                    0
                } else {
                    DEFAULT_CACHE_CAPACITY
                };
                if compare(&f, &cfg, capacity, &mut rng).is_some() {
                    compared[k] += 1;
                }
            }
        }
        assert!(compared.iter().all(|&n| n > 300), "{compared:?}");
    }

    #[test]
    fn more_propositions_than_letter_bits_is_a_clear_error() {
        let f: Vec<String> = (0..65).map(|i| format!("p{i}")).collect();
        let err = LazyMonitor::from_ltl(&format!("G({})", f.join(" | "))).unwrap_err();
        assert!(
            matches!(
                err.kind(),
                BuildErrorKind::TooManyPropositions {
                    count: 65,
                    limit: 64
                }
            ),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            "the formula has 65 propositions; lazy monitors take at most 64"
        );
        let f: Vec<String> = (0..64).map(|i| format!("p{i}")).collect();
        let mut m = LazyMonitor::from_ltl(&format!("G({})", f.join(" | "))).unwrap();
        assert_eq!(m.step(1 << 63), Verdict::Undecided);
        assert_eq!(m.step(0), Verdict::Violated);
    }
}
