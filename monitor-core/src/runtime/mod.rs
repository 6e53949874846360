//! Running monitors: `no_std`, allocation-free.
//!
//! A compiled monitor is a [`Table`]: the verdict of each state and its
//! transition function, as a dense array (one lookup per step, for few
//! propositions) or as decision diagrams (one test per proposition on the
//! path, for many), plus the texts that explain a violation. A [`Cursor`]
//! is the state of one run: a `u32`. [`Monitor`] pairs the two. The
//! monitors `#[monitor]` and `mongen compile --target rust` generate keep a
//! [`Run`] instead: it also keeps the first violation (with its position
//! and, for method calls, the event) and counts the later ones.
//!
//! Tables come from [`MonitorTable`] (built from a formula or a
//! [`BadPrefixDfa`](crate::automaton::BadPrefixDfa), with the `std`
//! feature), or are embedded as constants by `#[monitor]` and
//! `mongen compile --target rust`, which need neither `std` nor an
//! allocator at run time.
//!
//! ```
//! use monitor_core::{Monitor, Verdict};
//!
//! // Compiled at run time (std); `Monitor` is `Copy`: one per session.
//! let proto = Monitor::from_ltl("G(req -> X ack)")?;
//! let mut m = proto;
//! let (req, ack) = (0b01u64, 0b10u64); // bit i: proposition i
//! assert_eq!(m.step(req), Verdict::Undecided);
//! assert_eq!(m.step(0), Verdict::Violated);
//! let why = m.violation().unwrap();
//! assert_eq!(why.after, "req");
//! assert_eq!(why.letters, "!ack");
//! assert_eq!(
//!     why.to_string(),
//!     "`G(req -> Xack)` violated: after `req`, the letter satisfied `!ack`"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;

use crate::Valuation;

#[cfg(feature = "std")]
mod owned;
mod run;
#[cfg(feature = "std")]
pub mod summary;
#[cfg(feature = "std")]
pub use owned::{Layout, MonitorTable};
pub use run::Run;
#[cfg(feature = "std")]
pub use summary::{ChunkRun, Summary};

/// What a monitor knows about the word read so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// No verdict yet ("ok so far"): some extension satisfies the property
    /// (and, in three-valued mode, some extension violates it).
    Undecided,
    /// Every extension satisfies the property (a good prefix; three-valued
    /// mode only).
    Satisfied,
    /// No extension satisfies the property (a bad prefix).
    Violated,
}

impl Verdict {
    /// The lowercase name used in JSON and DOT output.
    ///
    /// ```
    /// use monitor_core::Verdict;
    ///
    /// assert_eq!(Verdict::Violated.as_str(), "violated");
    /// assert_eq!(Verdict::Undecided.to_string(), Verdict::Undecided.as_str());
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Undecided => "undecided",
            Verdict::Satisfied => "satisfied",
            Verdict::Violated => "violated",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The target that stands for the rejecting sink in a [`Table`].
pub const VIOLATION: u32 = u32::MAX;

/// Tags a leaf in [`Transitions::Diagram`]: a reference `r` with this bit
/// set is the target `r & !LEAF` (or [`VIOLATION`] for `u32::MAX`).
pub const LEAF: u32 = 1 << 31;

/// The transition function of a [`Table`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transitions<'a> {
    /// `next[(state << props) | letter]`: one lookup per step.
    Dense(&'a [u32]),
    /// One decision diagram per state: `roots[state]` is a reference, and
    /// node `[var, lo, hi]` continues with `hi` when proposition `var`
    /// holds, `lo` otherwise. References with the [`LEAF`] bit are targets.
    Diagram {
        /// The diagram of each state.
        roots: &'a [u32],
        /// The inner nodes.
        nodes: &'a [[u32; 3]],
    },
}

/// A compiled monitor: everything needed to run it and to explain a
/// violation, in borrowed slices (so that it can be a constant).
///
/// The fields are the layout `#[monitor]` and `mongen --target rust`
/// write; build tables with [`MonitorTable`] rather than by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table<'a> {
    /// The number of propositions; letters have bit `i` for proposition `i`.
    pub props: u32,
    /// The verdict of each state (state 0 is the start).
    pub verdicts: &'a [Verdict],
    /// The transition function.
    pub transitions: Transitions<'a>,
    /// For monitors of events (one proposition per step): the target of
    /// state `s` on event `e` at `events[e * states + s]`; may be empty.
    pub events: &'a [u32],
    /// The texts, concatenated: the property, the proposition names, for
    /// each state a shortest word reaching it and the letters that violate
    /// the property from it, and a shortest bad prefix.
    pub text: &'a str,
    /// Where each text starts in `text` (one more entry than texts).
    pub spans: &'a [u32],
}

impl<'a> Table<'a> {
    /// The number of states.
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(table.table().num_states(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_states(&self) -> usize {
        self.verdicts.len()
    }

    fn text_at(&self, i: usize) -> &'a str {
        match (self.spans.get(i), self.spans.get(i + 1)) {
            (Some(&a), Some(&b)) => self.text.get(a as usize..b as usize).unwrap_or(""),
            _ => "",
        }
    }

    /// The property the monitor checks.
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(table.table().property(), "G(req -> Xack)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn property(&self) -> &'a str {
        self.text_at(0)
    }

    /// The name of proposition `i` (bit `i` of a letter).
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// assert_eq!((t.proposition(0), t.proposition(1)), ("req", "ack"));
    /// assert_eq!(t.proposition(2), ""); // no such proposition
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn proposition(&self, i: usize) -> &'a str {
        if i < self.props as usize {
            self.text_at(1 + i)
        } else {
            ""
        }
    }

    /// A shortest word leading to `state` (letters separated by `; `;
    /// empty for the start, or when the table has no explanations).
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// assert_eq!(t.access(0), "");
    /// assert_eq!(t.access(t.next(0, 0b01)), "req");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn access(&self, state: u32) -> &'a str {
        self.text_at(1 + self.props as usize + 2 * state as usize)
    }

    /// The letters that violate the property from `state`, as a Boolean
    /// formula over the propositions (empty if none).
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// assert_eq!(t.violating(0), ""); // nothing violates at once
    /// assert_eq!(t.violating(t.next(0, 0b01)), "!ack"); // after `req`
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violating(&self, state: u32) -> &'a str {
        self.text_at(2 + self.props as usize + 2 * state as usize)
    }

    /// A shortest bad prefix (empty if there is none).
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(table.table().shortest_violation(), "req; !ack");
    /// let never = MonitorTable::from_ltl("G(a | !a)")?;
    /// assert_eq!(never.table().shortest_violation(), "");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shortest_violation(&self) -> &'a str {
        self.text_at(1 + self.props as usize + 2 * self.num_states())
    }

    /// The target of `state` on `letter` (bit `i` for proposition `i`):
    /// a state or [`VIOLATION`].
    ///
    /// ```
    /// use monitor_core::runtime::VIOLATION;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// let (req, ack) = (0b01, 0b10);
    /// assert_eq!(t.next(0, req), 1);
    /// assert_eq!(t.next(1, ack), 0);
    /// assert_eq!(t.next(1, 0), VIOLATION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn next(&self, state: u32, letter: u64) -> u32 {
        match self.transitions {
            Transitions::Dense(next) => {
                let mask = if self.props >= 64 {
                    u64::MAX
                } else {
                    (1u64 << self.props) - 1
                };
                let i = ((state as usize) << self.props) | (letter & mask) as usize;
                next.get(i).copied().unwrap_or(VIOLATION)
            }
            Transitions::Diagram { roots, nodes } => {
                walk(roots, nodes, state, |v| letter.holds(v as usize))
            }
        }
    }

    /// [`Table::next`] for any [`Valuation`] (slices of `bool`, bit sets
    /// of more than 64 propositions).
    ///
    /// ```
    /// use monitor_core::runtime::VIOLATION;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// let t = table.table();
    /// // req, ack
    /// assert_eq!(t.next_with(0, &[true, false]), t.next(0, 0b01));
    /// assert_eq!(t.next_with(1, &[false, false]), VIOLATION);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn next_with<L: Valuation + ?Sized>(&self, state: u32, letter: &L) -> u32 {
        match self.transitions {
            Transitions::Dense(_) => self.next(state, letter_bits(letter, self.props)),
            Transitions::Diagram { roots, nodes } => {
                walk(roots, nodes, state, |v| letter.holds(v as usize))
            }
        }
    }

    /// The target of `state` on event `e`: the letter where only
    /// proposition `e` holds. An event beyond the propositions is the
    /// letter where none of them holds.
    ///
    /// ```
    /// use monitor_core::runtime::VIOLATION;
    /// use monitor_core::translate::Builder;
    /// use monitor_core::MonitorTable;
    ///
    /// let dfa = Builder::new().build("G(open -> X close)")?.into_dfa();
    /// let table = MonitorTable::from_dfa_events(&dfa);
    /// let t = table.table();
    /// let (open, close) = (0, 1);
    /// let after_open = t.next_event(0, open);
    /// assert_eq!(t.next_event(after_open, close), 0);
    /// assert_eq!(t.next_event(after_open, open), VIOLATION);
    /// // Event 2 is neither: no proposition holds, as on the empty letter.
    /// assert_eq!(t.next_event(after_open, 2), t.next(after_open, 0));
    /// assert_eq!(t.next_event(after_open, 70), t.next(after_open, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn next_event(&self, state: u32, e: usize) -> u32 {
        let n = self.num_states();
        let at = e.checked_mul(n).and_then(|i| i.checked_add(state as usize));
        match at.and_then(|i| self.events.get(i)) {
            Some(&t) => t,
            // No event array (or an event it does not have): the event's
            // letter, a bit mask where it fits one (`next` masks away a
            // bit beyond the propositions).
            None if e < 64 => self.next(state, 1u64 << e),
            None => self.next_with(state, &OnlyEvent(e)),
        }
    }
}

/// The letter of an event: proposition `.0` holds, no other.
struct OnlyEvent(usize);

impl Valuation for OnlyEvent {
    fn holds(&self, ap: usize) -> bool {
        ap == self.0
    }
}

/// The first `props` (at most 64) propositions of `letter` as bits.
#[inline]
pub(crate) fn letter_bits<L: Valuation + ?Sized>(letter: &L, props: u32) -> u64 {
    let mut bits = 0u64;
    for i in 0..props.min(64) as usize {
        if letter.holds(i) {
            bits |= 1 << i;
        }
    }
    bits
}

#[inline]
fn walk(roots: &[u32], nodes: &[[u32; 3]], state: u32, holds: impl Fn(u32) -> bool) -> u32 {
    let mut r = roots.get(state as usize).copied().unwrap_or(u32::MAX);
    while r & LEAF == 0 {
        let Some(&[var, lo, hi]) = nodes.get(r as usize) else {
            return VIOLATION;
        };
        r = if holds(var) { hi } else { lo };
    }
    if r == u32::MAX {
        VIOLATION
    } else {
        r & !LEAF
    }
}

/// Set in a [`Cursor`] once the run has violated the property.
const VIOLATED: u32 = 1 << 31;

/// The state of one run of a monitor: a `u32`. The methods take the
/// [`Table`] they run on.
///
/// ```
/// use monitor_core::runtime::Cursor;
/// use monitor_core::{MonitorTable, Verdict};
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let t = table.table();
/// let mut run = Cursor::new();
/// assert_eq!(run.step(&t, 0b01), Verdict::Undecided);
/// assert_eq!(run.step(&t, 0b00), Verdict::Violated);
/// assert_eq!(run.step(&t, 0b10), Verdict::Violated); // sticky
/// run.reset();
/// assert_eq!(run.state(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cursor(u32);

impl Cursor {
    /// A run at the start state.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    ///
    /// const START: Cursor = Cursor::new();
    /// assert_eq!(START.state(), 0);
    /// assert_eq!(START, Cursor::default());
    /// ```
    pub const fn new() -> Cursor {
        Cursor(0)
    }

    /// The current state; after a violation, the state in which it
    /// happened.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// run.step(&t, 0b01);
    /// assert_eq!(run.state(), 1);
    /// run.step(&t, 0b00); // violates in state 1
    /// assert_eq!(run.state(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn state(&self) -> u32 {
        self.0 & !VIOLATED
    }

    /// Back to the start state.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// assert_eq!(run.step(&t, 1), Verdict::Violated);
    /// run.reset();
    /// assert_eq!(run.verdict(&t), Verdict::Undecided);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn reset(&mut self) {
        self.0 = 0;
    }

    /// Whether the word read so far is a bad prefix.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// run.step(&t, 0);
    /// assert!(!run.is_violated(&t));
    /// run.step(&t, 1);
    /// assert!(run.is_violated(&t));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn is_violated(&self, table: &Table<'_>) -> bool {
        self.verdict(table) == Verdict::Violated
    }

    /// The verdict of the word read so far.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// assert_eq!(run.verdict(&t), Verdict::Undecided);
    /// run.step(&t, 1);
    /// assert_eq!(run.verdict(&t), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn verdict(&self, table: &Table<'_>) -> Verdict {
        if self.0 & VIOLATED != 0 {
            Verdict::Violated
        } else {
            table
                .verdicts
                .get(self.0 as usize)
                .copied()
                .unwrap_or(Verdict::Violated)
        }
    }

    /// Moves to `target` (from [`Table::next`]) and returns the verdict.
    /// After a violation the run stays violated.
    ///
    /// ```
    /// use monitor_core::runtime::{Cursor, VIOLATION};
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// let target = t.next(run.state(), 0b01);
    /// assert_eq!(run.enter(&t, target), Verdict::Undecided);
    /// assert_eq!(run.state(), target);
    /// assert_eq!(run.enter(&t, VIOLATION), Verdict::Violated);
    /// assert_eq!(run.enter(&t, 0), Verdict::Violated); // sticky
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn enter(&mut self, table: &Table<'_>, target: u32) -> Verdict {
        if self.0 & VIOLATED != 0 {
            return Verdict::Violated;
        }
        match table.verdicts.get(target as usize) {
            Some(&v) => {
                self.0 = target;
                v
            }
            None => {
                self.0 |= VIOLATED;
                Verdict::Violated
            }
        }
    }

    /// Reads one letter (bit `i` for proposition `i`).
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let (a, b) = (0b01, 0b10);
    /// let mut run = Cursor::new();
    /// assert_eq!(run.step(&t, a), Verdict::Undecided);
    /// assert_eq!(run.step(&t, a | b), Verdict::Undecided);
    /// assert_eq!(run.step(&t, a), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step(&mut self, table: &Table<'_>, letter: u64) -> Verdict {
        if self.0 & VIOLATED != 0 {
            return Verdict::Violated;
        }
        let t = table.next(self.0, letter);
        self.enter(table, t)
    }

    /// Reads one letter given as any [`Valuation`].
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// // a, b
    /// assert_eq!(run.step_with(&t, &[true, false]), Verdict::Undecided);
    /// assert_eq!(run.step_with(&t, &[false, false]), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step_with<L: Valuation + ?Sized>(&mut self, table: &Table<'_>, letter: &L) -> Verdict {
        if self.0 & VIOLATED != 0 {
            return Verdict::Violated;
        }
        let t = table.next_with(self.0, letter);
        self.enter(table, t)
    }

    /// Reads event `e` (the letter where only proposition `e` holds).
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::translate::Builder;
    /// use monitor_core::{MonitorTable, Verdict};
    ///
    /// let dfa = Builder::new().build("G(open -> X close)")?.into_dfa();
    /// let table = MonitorTable::from_dfa_events(&dfa);
    /// let t = table.table();
    /// let (open, close) = (0, 1);
    /// let mut run = Cursor::new();
    /// assert_eq!(run.step_event(&t, open), Verdict::Undecided);
    /// assert_eq!(run.step_event(&t, close), Verdict::Undecided);
    /// assert_eq!(run.step_event(&t, open), Verdict::Undecided);
    /// assert_eq!(run.step_event(&t, open), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step_event(&mut self, table: &Table<'_>, e: usize) -> Verdict {
        if self.0 & VIOLATED != 0 {
            return Verdict::Violated;
        }
        let t = table.next_event(self.0, e);
        self.enter(table, t)
    }

    /// Whether reading event `e` now would violate the property (the run
    /// does not move).
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::translate::Builder;
    /// use monitor_core::MonitorTable;
    ///
    /// let dfa = Builder::new().build("G(open -> X close)")?.into_dfa();
    /// let table = MonitorTable::from_dfa_events(&dfa);
    /// let t = table.table();
    /// let (open, close) = (0, 1);
    /// let mut run = Cursor::new();
    /// run.step_event(&t, open);
    /// assert!(run.would_violate_event(&t, open));
    /// assert!(!run.would_violate_event(&t, close));
    /// assert!(!run.is_violated(&t)); // the run did not move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn would_violate_event(&self, table: &Table<'_>, e: usize) -> bool {
        self.0 & VIOLATED != 0 || table.next_event(self.0, e) as usize >= table.num_states()
    }

    /// Why the run violated the property, if it did.
    ///
    /// ```
    /// use monitor_core::runtime::Cursor;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let mut run = Cursor::new();
    /// run.step(&t, 0b01);
    /// assert_eq!(run.violation(&t), None);
    /// run.step(&t, 0b00);
    /// let why = run.violation(&t).unwrap();
    /// assert_eq!((why.after, why.letters, why.position), ("a", "!b", None));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violation<'t>(&self, table: &Table<'t>) -> Option<Violation<'t>> {
        if !self.is_violated(table) {
            return None;
        }
        Some(Violation::in_state(table, self.state()))
    }
}

/// Why a run violated its property: the state where it happened, a
/// shortest word leading there, and the letters that violate the property
/// from there (one of which the run read).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Violation<'a> {
    /// The property.
    pub property: &'a str,
    /// The monitor state in which the violating letter was read.
    pub state: u32,
    /// A shortest word leading to that state (letters separated by `; `,
    /// empty for the start state). Every word leading there is equivalent.
    pub after: &'a str,
    /// The letters that violate the property from that state, as a
    /// Boolean formula over the propositions (for monitors of events: the
    /// events, separated by ` | `).
    pub letters: &'a str,
    /// A shortest bad prefix of the property.
    pub shortest: &'a str,
    /// For monitors of method calls: the call that violated the property.
    pub event: Option<&'a str>,
    /// The position of the violating letter (snapshot, call) in the run,
    /// **counting from 0**: the number of letters read before it. Known to
    /// the monitors of `#[monitor]` and `mongen compile --target rust`
    /// (a [`Run`]); `None` from a [`Cursor`] or a [`Monitor`], which do not
    /// count.
    pub position: Option<u64>,
}

impl<'a> Violation<'a> {
    /// A violation in `state` of `table`'s monitor, explained by the
    /// table, with no event and no position.
    fn in_state(table: &Table<'a>, state: u32) -> Violation<'a> {
        Violation {
            property: table.property(),
            state,
            after: table.access(state),
            letters: table.violating(state),
            shortest: table.shortest_violation(),
            event: None,
            position: None,
        }
    }

    /// The same violation, caused by event `name`.
    ///
    /// ```
    /// use monitor_core::Monitor;
    ///
    /// let mut m = Monitor::from_ltl("G !a")?;
    /// m.step(1);
    /// let why = m.violation().unwrap().with_event("a()");
    /// assert_eq!(why.event, Some("a()"));
    /// assert_eq!(why.to_string(), "`G!a` violated by `a()`: in the initial state, the event must not be `a`");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn with_event(mut self, name: &'a str) -> Violation<'a> {
        self.event = Some(name);
        self
    }
}

impl fmt::Display for Violation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` violated", self.property)?;
        if let Some(e) = self.event {
            write!(f, " by `{e}`")?;
        }
        if let Some(p) = self.position {
            write!(f, " at step {p} (0-based)")?;
        }
        if self.letters.is_empty() {
            return Ok(());
        }
        if !self.after.is_empty() {
            write!(f, ": after `{}`,", self.after)?;
        } else {
            // The state may be reached again later: it is the start
            // state, not necessarily the start of the run.
            f.write_str(": in the initial state,")?;
        }
        if self.event.is_some() {
            write!(f, " the event must not be `{}`", self.letters)
        } else {
            write!(f, " the letter satisfied `{}`", self.letters)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Violation<'_> {}

/// So that methods returning `io::Result` can refuse calls that violate
/// their protocol (`#[monitor(..., on_violation = result)]`): an error of
/// kind `Other` whose message is the explanation.
#[cfg(feature = "std")]
impl From<Violation<'_>> for std::io::Error {
    fn from(v: Violation<'_>) -> std::io::Error {
        std::io::Error::other(v.to_string())
    }
}

/// A proposition's bit in a letter: `0` or `1`. Generated monitors call it
/// on each proposition's value, so that a value that is not a `bool` is a
/// type error at the user's expression.
///
/// ```
/// use monitor_core::runtime::bit;
///
/// let (req, ack) = (true, false);
/// assert_eq!(bit(req) | bit(ack) << 1, 0b01);
/// ```
#[inline(always)]
pub const fn bit(value: bool) -> u64 {
    value as u64
}

/// Where an instrumented type keeps its monitor, for `&mut self` methods:
/// the monitor itself, or a [`Cell`](core::cell::Cell) of it.
///
/// For the code `#[monitor]` generates only; hidden from the
/// documentation, since its blanket implementation would otherwise be
/// listed on every type of the crates that document this one.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "the monitor field has type `{Self}`, not `{M}` or `Cell<{M}>`",
    label = "this event method updates the monitor field"
)]
pub trait Slot<M> {
    /// Runs `f` on the monitor (and stores it back).
    fn with<R>(&mut self, f: impl FnOnce(&mut M) -> R) -> R;
}

impl<M> Slot<M> for M {
    #[inline]
    fn with<R>(&mut self, f: impl FnOnce(&mut M) -> R) -> R {
        f(self)
    }
}

impl<M: Copy> Slot<M> for core::cell::Cell<M> {
    #[inline]
    fn with<R>(&mut self, f: impl FnOnce(&mut M) -> R) -> R {
        f(self.get_mut())
    }
}

/// Where an instrumented type keeps its monitor, for `&self` methods: a
/// [`Cell`](core::cell::Cell) (single thread) or, with `std`, a
/// [`Mutex`](std::sync::Mutex) (shared between threads).
///
/// For the code `#[monitor]` generates only (hidden, as `Slot` is).
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a method taking `&self` cannot update a monitor kept as `{Self}`",
    label = "this event method takes `&self`",
    note = "keep the monitor in a `Cell<{M}>` (one thread) or a `Mutex<{M}>` (shared), or take `&mut self`"
)]
pub trait SharedSlot<M> {
    /// Runs `f` on the monitor and stores it back.
    fn with<R>(&self, f: impl FnOnce(&mut M) -> R) -> R;
}

impl<M: Copy> SharedSlot<M> for core::cell::Cell<M> {
    #[inline]
    fn with<R>(&self, f: impl FnOnce(&mut M) -> R) -> R {
        let mut m = self.get();
        let r = f(&mut m);
        self.set(m);
        r
    }
}

#[cfg(feature = "std")]
impl<M> SharedSlot<M> for std::sync::Mutex<M> {
    fn with<R>(&self, f: impl FnOnce(&mut M) -> R) -> R {
        // A panic while the monitor was held (a violation reported by
        // panicking) leaves it usable.
        let mut guard = self.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut guard)
    }
}

/// What every monitor does: read a word letter by letter. Implemented by
/// the eager [`Monitor`] and, with `std`, the lazy `LazyMonitor`, so that
/// code driving monitors takes either.
///
/// ```
/// use monitor_core::runtime::Stepper;
/// use monitor_core::{Monitor, Verdict};
///
/// /// The index of the first letter that violates, if one does.
/// fn first_violation(m: &mut impl Stepper, word: &[u64]) -> Option<usize> {
///     word.iter().position(|&l| m.step(l) == Verdict::Violated)
/// }
/// let mut m = Monitor::from_ltl("G(req -> X ack)")?;
/// assert_eq!(first_violation(&mut m, &[0b01, 0b10, 0b01, 0b00]), Some(3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Stepper {
    /// Reads one letter (bit `i` for proposition `i`) and returns the
    /// verdict of the word read so far; after a violation, the run stays
    /// violated.
    fn step(&mut self, letter: u64) -> Verdict;
    /// The verdict of the word read so far.
    fn verdict(&self) -> Verdict;
    /// Back to the start.
    fn reset(&mut self);
}

impl Stepper for Monitor<'_> {
    #[inline]
    fn step(&mut self, letter: u64) -> Verdict {
        Monitor::step(self, letter)
    }

    fn verdict(&self) -> Verdict {
        Monitor::verdict(self)
    }

    fn reset(&mut self) {
        Monitor::reset(self);
    }
}

/// A monitor: a [`Table`] and the state of a run on it. `Copy`, 16 bytes;
/// the table is shared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Monitor<'a> {
    table: &'a Table<'a>,
    cursor: Cursor,
}

impl<'a> Monitor<'a> {
    /// A run of `table` from its start state.
    ///
    /// ```
    /// use monitor_core::{Monitor, MonitorTable, Verdict};
    ///
    /// let table = MonitorTable::from_ltl("G !a")?;
    /// let t = table.table();
    /// let mut m = Monitor::new(&t);
    /// assert_eq!((m.state(), m.verdict()), (0, Verdict::Undecided));
    /// assert_eq!(m.step(1), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn new(table: &'a Table<'a>) -> Monitor<'a> {
        Monitor {
            table,
            cursor: Cursor::new(),
        }
    }

    /// The table.
    ///
    /// ```
    /// use monitor_core::Monitor;
    ///
    /// let m = Monitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.table().props, 2);
    /// assert_eq!(m.table().proposition(1), "ack");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn table(&self) -> &'a Table<'a> {
        self.table
    }

    /// Reads one letter (bit `i` for proposition `i`, in the order of
    /// [`Table::proposition`]).
    ///
    /// ```
    /// use monitor_core::{Monitor, Verdict};
    ///
    /// let mut m = Monitor::from_ltl("G(req -> X ack)")?;
    /// let (req, ack) = (0b01, 0b10);
    /// assert_eq!(m.step(req), Verdict::Undecided);
    /// assert_eq!(m.step(ack), Verdict::Undecided);
    /// assert_eq!(m.step(req), Verdict::Undecided);
    /// assert_eq!(m.step(req), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step(&mut self, letter: u64) -> Verdict {
        self.cursor.step(self.table, letter)
    }

    /// Reads one letter given as any [`Valuation`] (`&[bool]`, …).
    ///
    /// ```
    /// use monitor_core::{Monitor, Verdict};
    ///
    /// let mut m = Monitor::from_ltl("G(req -> X ack)")?;
    /// // req, ack
    /// assert_eq!(m.step_with(&[true, false]), Verdict::Undecided);
    /// assert_eq!(m.step_with(&vec![false, false]), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn step_with<L: Valuation + ?Sized>(&mut self, letter: &L) -> Verdict {
        self.cursor.step_with(self.table, letter)
    }

    /// The verdict of the word read so far.
    ///
    /// ```
    /// use monitor_core::{Monitor, Verdict};
    ///
    /// let mut m = Monitor::from_ltl("G !a")?;
    /// assert_eq!(m.verdict(), Verdict::Undecided);
    /// m.step(1);
    /// assert_eq!(m.verdict(), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self) -> Verdict {
        self.cursor.verdict(self.table)
    }

    /// The current state (after a violation: where it happened).
    ///
    /// ```
    /// use monitor_core::Monitor;
    ///
    /// let mut m = Monitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.state(), 0);
    /// m.step(0b01);
    /// assert_eq!(m.state(), 1);
    /// m.step(0b00); // violated in state 1
    /// assert_eq!(m.state(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self) -> u32 {
        self.cursor.state()
    }

    /// Back to the start.
    ///
    /// ```
    /// use monitor_core::{Monitor, Verdict};
    ///
    /// let mut m = Monitor::from_ltl("G !a")?;
    /// m.step(1);
    /// m.reset();
    /// assert_eq!((m.state(), m.verdict()), (0, Verdict::Undecided));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset(&mut self) {
        self.cursor.reset();
    }

    /// Why the property was violated, if it was.
    ///
    /// ```
    /// use monitor_core::Monitor;
    ///
    /// let mut m = Monitor::from_ltl("G(req -> X ack)")?;
    /// m.step(0b01);
    /// assert!(m.violation().is_none());
    /// m.step(0b00);
    /// let why = m.violation().unwrap();
    /// assert_eq!((why.after, why.letters, why.shortest), ("req", "!ack", "req; !ack"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violation(&self) -> Option<Violation<'a>> {
        self.cursor.violation(self.table)
    }
}
