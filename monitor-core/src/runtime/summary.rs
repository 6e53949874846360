//! What a piece of a trace does to a monitor, from every state: the unit
//! of parallel and distributed checking.
//!
//! A monitor is a deterministic automaton, so a chunk of a trace acts on
//! it as a function from start states to end states. [`Summary`] records
//! that function, with, for each start state, the first event of the chunk
//! that completes a bad prefix and the first that completes a good one.
//! Summaries compose ([`Summary::then`]) associatively, with
//! [`Summary::identity`] as the unit: a long trace can be cut into chunks,
//! summarized on several cores (or machines), and the summaries combined
//! in order give exactly what one run over the whole trace gives.
//!
//! ```
//! use monitor_core::runtime::{Summary, Cursor};
//! use monitor_core::{MonitorTable, Verdict};
//!
//! let table = MonitorTable::from_ltl("G(req -> X ack)")?;
//! let t = table.table();
//! let (req, ack) = (0b01u64, 0b10u64);
//! let trace = [req, ack, 0, req, 0, ack];
//! // Two chunks, summarized independently, then combined.
//! let whole = Summary::of_letters(&t, &trace[..4]).then(&Summary::of_letters(&t, &trace[4..]));
//! let run = whole.run_from(0);
//! assert_eq!(run.violated_at, Some(4)); // the 5th event: `req` was not acknowledged
//! assert_eq!(run.end, None);
//! // The same as one run.
//! let mut c = Cursor::new();
//! let first = trace.iter().position(|&l| c.step(&t, l) == Verdict::Violated);
//! assert_eq!(first, Some(4));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Restarting after a violation
//!
//! A summary is built in one of two modes, which [`Summary::then`] keeps:
//!
//! * *stopping* ([`Summary::identity`], [`Summary::of_letters`],
//!   [`Summary::of_steps`]): a run ends at its first violation, as a
//!   [`Cursor`](super::Cursor) stays violated;
//! * *restarting* ([`Summary::identity_restarting`],
//!   [`Summary::of_letters_restarting`], [`Summary::of_steps_restarting`]):
//!   an event that violates the property sends the run back to the
//!   initial state (state 0) instead of taking the violating transition,
//!   as a checker that calls [`Cursor::reset`](super::Cursor::reset) after
//!   each violation does, and the summary counts the violations
//!   ([`ChunkRun::violations`]). This is how every violation of a trace is
//!   counted in parallel.
//!
//! ```
//! use monitor_core::runtime::Summary;
//! use monitor_core::MonitorTable;
//!
//! let table = MonitorTable::from_ltl("G(a -> X !a)")?;
//! let t = table.table();
//! let trace = [1, 1, 1, 0, 1, 1];
//! let run = Summary::of_letters_restarting(&t, &trace[..3])
//!     .then(&Summary::of_letters_restarting(&t, &trace[3..]))
//!     .run_from(0);
//! assert_eq!(run.violated_at, Some(1)); // `a` twice in a row
//! assert_eq!(run.violations, 2); // at 1, and at 5 (after the restart at 1)
//! assert_eq!(run.end, Some(0)); // restarted after the last event
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Speed
//!
//! All start states are run at once and merged as soon as they meet;
//! most monitors forget their start after a few letters. From then on,
//! for chunks of a few hundred letters or more and
//! [`Transitions::Dense`] tables, [`Summary::of_letters`] steps the
//! remaining run through a copy of the table laid out so that a step is
//! one lookup and nothing else: the states of a block of letters, or-ed
//! together, tell whether it holds a violation or a good prefix (in
//! stopping mode a violation is absorbing, and the end of the block tells),
//! and only then is the block read again letter by letter. (Restarting
//! runs that violate in every block count their violations as they go.)
//! Long chunks are cut into four parts whose runs are stepped in lockstep,
//! so that a core follows four independent chains of lookups at once.
//! Other tables, and [`Summary::of_steps`], step one event at a time.

use super::{Table, Transitions, Verdict, VIOLATION};

/// No event (in the offset arrays).
const NONE: u64 = u64::MAX;

/// Steps of the general path (all start states at once) before the runs
/// that have not merged are stepped as separate chains (once there are at
/// most [`LANES`] of them).
const MERGE_STEPS: usize = 64;

/// Chunks of at least this many letters use the dense kernel.
const KERNEL_MIN: usize = 256;

/// Chunks of at least this many letters are cut into [`LANES`] parts
/// stepped in lockstep.
const LOCKSTEP_MIN: usize = 4096;

/// The number of runs the kernel steps at once.
const LANES: usize = 4;

/// Letters per block of the kernel, between checks for a violation or a
/// good prefix.
const BLOCK: usize = 512;

/// The effect of a chunk of a trace on a monitor, from every start state
/// (see the [module documentation](self)).
///
/// ```
/// use monitor_core::runtime::Summary;
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let s = Summary::of_letters(&table.table(), &[0b01, 0b10, 0b01]);
/// assert_eq!((s.len(), s.num_states(), s.restarts()), (3, 2, false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Summary {
    /// The number of events in the chunk.
    len: u64,
    /// Whether runs restart in state 0 after a violation.
    restart: bool,
    /// The run from each start state.
    runs: Vec<Record>,
}

/// What a run does over a chunk (or the rest of one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Record {
    /// The end state, or [`VIOLATION`] (stopping mode only).
    end: u32,
    /// The offset of the first event that completes a bad prefix, or
    /// [`NONE`].
    violated_at: u64,
    /// The number of violations (0 or 1 in stopping mode).
    violations: u64,
    /// The offset of the first event after which the verdict is
    /// satisfied, or [`NONE`].
    satisfied_at: u64,
}

impl Record {
    fn new(state: u32) -> Record {
        Record {
            end: state,
            violated_at: NONE,
            violations: 0,
            satisfied_at: NONE,
        }
    }
}

/// The run of a summarized chunk from one start state.
///
/// ```
/// use monitor_core::runtime::{ChunkRun, Summary};
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let run = Summary::of_letters(&table.table(), &[0b01, 0b00, 0b01]).run_from(0);
/// assert_eq!(
///     run,
///     ChunkRun { end: None, violated_at: Some(1), satisfied_at: None, violations: 1 }
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkRun {
    /// The end state; `None` once the run violated the property (stopping
    /// mode; a restarting run always has an end state).
    pub end: Option<u32>,
    /// The offset (from the start of the chunk) of the event that
    /// completed a bad prefix (the first one, in restarting mode).
    pub violated_at: Option<u64>,
    /// The offset of the first event after which every continuation
    /// satisfies the property (three-valued monitors).
    pub satisfied_at: Option<u64>,
    /// The number of events that completed a bad prefix: in restarting
    /// mode, how many times the run violated the property and restarted;
    /// 0 or 1 in stopping mode.
    pub violations: u64,
}

impl Summary {
    /// The summary of the empty chunk, for a monitor of `num_states`
    /// states: every state is its own end. Runs stop at their first
    /// violation (see [`Summary::identity_restarting`] for the other
    /// mode).
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let s = Summary::of_letters(&t, &[0b01, 0b00]);
    /// let unit = Summary::identity(t.num_states());
    /// assert_eq!(unit.then(&s), s);
    /// assert_eq!(s.then(&unit), s);
    /// assert_eq!(unit.run_from(1).end, Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn identity(num_states: usize) -> Summary {
        Summary::unit(num_states, false)
    }

    /// The summary of the empty chunk in restarting mode (see the
    /// [module documentation](self#restarting-after-a-violation)): the
    /// unit of [`Summary::then`] for summaries built by
    /// [`Summary::of_letters_restarting`] and
    /// [`Summary::of_steps_restarting`].
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// let t = table.table();
    /// let s = Summary::of_letters_restarting(&t, &[1, 1, 1, 1]);
    /// let unit = Summary::identity_restarting(t.num_states());
    /// assert!(unit.restarts());
    /// assert_eq!(unit.then(&s), s);
    /// assert_eq!(s.then(&unit), s);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn identity_restarting(num_states: usize) -> Summary {
        Summary::unit(num_states, true)
    }

    fn unit(num_states: usize, restart: bool) -> Summary {
        Summary {
            len: 0,
            restart,
            runs: (0..num_states as u32).map(Record::new).collect(),
        }
    }

    /// The number of events summarized.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// assert_eq!(Summary::of_letters(&table.table(), &[0, 1, 2]).len(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no event was summarized.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    ///
    /// assert!(Summary::identity(3).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of states of the monitor.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    ///
    /// assert_eq!(Summary::identity(3).num_states(), 3);
    /// ```
    pub fn num_states(&self) -> usize {
        self.runs.len()
    }

    /// Whether runs restart in the initial state after a violation (the
    /// summary was built in restarting mode).
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    ///
    /// assert!(!Summary::identity(3).restarts());
    /// assert!(Summary::identity_restarting(3).restarts());
    /// ```
    pub fn restarts(&self) -> bool {
        self.restart
    }

    /// Summarizes a chunk of letters (bit `i` for proposition `i`); runs
    /// stop at their first violation.
    ///
    /// All start states are run at once, and runs that meet in a state are
    /// merged from then on: most monitors forget their start after a few
    /// letters, so the cost is soon that of a single run, which on dense
    /// tables is stepped without a test per letter, several parts of the
    /// chunk at once (see [Speed](self#speed)).
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let s = Summary::of_letters(&t, &[0b01, 0b10, 0b00]);
    /// assert_eq!(s.run_from(0).violated_at, None);
    /// assert_eq!(s.run_from(0).end, Some(0));
    /// // From the state that waits for `b`, the first letter violates.
    /// assert_eq!(s.run_from(1).violated_at, Some(0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_letters(table: &Table<'_>, letters: &[u64]) -> Summary {
        Summary::letters(table, letters, false)
    }

    /// [`Summary::of_letters`] in restarting mode: a violating letter
    /// sends the run to the initial state (state 0), and the violations
    /// are counted (see the
    /// [module documentation](self#restarting-after-a-violation)).
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let (a, b) = (0b01, 0b10);
    /// let run = Summary::of_letters_restarting(&t, &[a, 0, a, 0, a, b]).run_from(0);
    /// assert_eq!((run.violated_at, run.violations, run.end), (Some(1), 2, Some(0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_letters_restarting(table: &Table<'_>, letters: &[u64]) -> Summary {
        Summary::letters(table, letters, true)
    }

    /// Summarizes a chunk of `len` events, `next(state, k)` giving the
    /// target of `state` on event `k` (for letters that are not `u64`s,
    /// or events given by index); runs stop at their first violation.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// let letters = [[true, false], [false, false]];
    /// let s = Summary::of_steps(&t, letters.len(), |q, k| t.next_with(q, &letters[k][..]));
    /// assert_eq!(s.run_from(0).violated_at, Some(1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_steps(table: &Table<'_>, len: usize, next: impl FnMut(u32, usize) -> u32) -> Summary {
        Summary::steps(table, len, false, next)
    }

    /// [`Summary::of_steps`] in restarting mode (see
    /// [`Summary::of_letters_restarting`]).
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let t = table.table();
    /// // Events by index: 0 is `a`, 1 is `b`.
    /// let events = [0, 0, 0, 1];
    /// let s = Summary::of_steps_restarting(&t, events.len(), |q, k| t.next_event(q, events[k]));
    /// let run = s.run_from(0);
    /// assert_eq!((run.violated_at, run.violations, run.end), (Some(1), 1, Some(0)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn of_steps_restarting(
        table: &Table<'_>,
        len: usize,
        next: impl FnMut(u32, usize) -> u32,
    ) -> Summary {
        Summary::steps(table, len, true, next)
    }

    /// The general path: all start states at once, then the single
    /// remaining run (if any) one event at a time.
    fn steps(
        table: &Table<'_>,
        len: usize,
        restart: bool,
        mut next: impl FnMut(u32, usize) -> u32,
    ) -> Summary {
        let mut runs = Runs::new(table.num_states(), len, restart);
        runs.run(table, len, 1, &mut next);
        let tails: Vec<Record> = if runs.k < len {
            runs.slots
                .iter()
                .map(|slot| {
                    let need = !slot.satisfied;
                    tail_steps(table, restart, slot.state, runs.k, len, need, &mut next)
                })
                .collect()
        } else {
            Vec::new()
        };
        runs.finish(tails)
    }

    /// Letters: the general path for short chunks and tables that are not
    /// dense, the kernel (in lockstep parts for long chunks) otherwise.
    fn letters(table: &Table<'_>, letters: &[u64], restart: bool) -> Summary {
        let len = letters.len();
        let kernel = if len >= KERNEL_MIN {
            Kernel::new(table, restart, len / 4)
        } else {
            None
        };
        let Some(kernel) = kernel else {
            return Summary::steps(table, len, restart, |q, k| table.next(q, letters[k]));
        };
        let parts = if len >= LOCKSTEP_MIN { LANES } else { 1 };
        let size = len.div_ceil(parts);
        // The parts' runs, and the chains of each (a range of `chains`).
        let mut runs = Vec::with_capacity(parts);
        let mut chains = Vec::new();
        for piece in letters.chunks(size) {
            let mut r = Runs::new(table.num_states(), piece.len(), restart);
            let mut next = |q, k| table.next(q, piece[k]);
            // Until the runs have merged into one, or into a few that go
            // on as chains.
            r.run(table, MERGE_STEPS.min(piece.len()), 1, &mut next);
            r.run(table, piece.len(), LANES, &mut next);
            let from = chains.len();
            if r.k < piece.len() {
                for slot in &r.slots {
                    let mut c = Chain {
                        letters: piece,
                        done: r.k,
                        state: kernel.code[slot.state as usize],
                        need_sat: kernel.sat_bit != 0 && !slot.satisfied,
                        dead: false,
                        dense: false,
                        tail: Record::new(slot.state),
                    };
                    kernel.settle(&mut c);
                    chains.push(c);
                }
            }
            runs.push((r, from..chains.len()));
        }
        kernel.run(&mut chains);
        let mut total: Option<Summary> = None;
        for (r, range) in runs {
            let s = r.finish(chains[range].iter().map(|c| kernel.tail(c)));
            total = Some(match total {
                None => s,
                Some(t) => t.then(&s),
            });
        }
        total.unwrap_or_else(|| Summary::unit(table.num_states(), restart))
    }

    /// The run of the chunk from `start`.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X b)")?;
    /// let s = Summary::of_letters(&table.table(), &[0b01, 0b00]);
    /// assert_eq!(s.run_from(0).violated_at, Some(1));
    /// assert_eq!(s.run_from(0).violations, 1);
    /// // A state the monitor does not have: no run.
    /// assert_eq!(s.run_from(7).end, None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_from(&self, start: u32) -> ChunkRun {
        let opt = |v: u64| (v != NONE).then_some(v);
        match self.runs.get(start as usize) {
            Some(r) => ChunkRun {
                end: (r.end != VIOLATION).then_some(r.end),
                violated_at: opt(r.violated_at),
                satisfied_at: opt(r.satisfied_at),
                violations: r.violations,
            },
            None => ChunkRun {
                end: None,
                violated_at: None,
                satisfied_at: None,
                violations: 0,
            },
        }
    }

    /// This chunk followed by `next` (both of the same monitor, in the
    /// same mode): the composition is associative, with
    /// [`Summary::identity`] (or [`Summary::identity_restarting`]) its
    /// unit.
    ///
    /// # Panics
    ///
    /// If one summary restarts after violations and the other does not.
    ///
    /// ```
    /// use monitor_core::runtime::Summary;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
    /// let t = table.table();
    /// let (x, y, z) = (
    ///     Summary::of_letters(&t, &[1, 0]),
    ///     Summary::of_letters(&t, &[1]),
    ///     Summary::of_letters(&t, &[1, 0]),
    /// );
    /// assert_eq!(x.then(&y).then(&z), x.then(&y.then(&z)));
    /// assert_eq!(x.then(&y).then(&z).run_from(0).violated_at, Some(3));
    /// // Restarting: the violations of the pieces add up.
    /// let r = Summary::of_letters_restarting(&t, &[1, 1, 1]);
    /// assert_eq!(r.then(&r).run_from(0).violations, 3); // at 1, 3 and 5
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn then(&self, next: &Summary) -> Summary {
        assert_eq!(
            self.restart, next.restart,
            "summaries that restart after violations compose only with each other"
        );
        let shift = |v: u64| if v == NONE { NONE } else { v + self.len };
        let first = |a: u64, b: u64| if a != NONE { a } else { shift(b) };
        let runs = self
            .runs
            .iter()
            .map(|a| match next.runs.get(a.end as usize) {
                // Violated (or a state `next` does not have).
                None => Record {
                    end: VIOLATION,
                    ..*a
                },
                Some(b) => Record {
                    end: b.end,
                    violated_at: first(a.violated_at, b.violated_at),
                    violations: a.violations + b.violations,
                    satisfied_at: first(a.satisfied_at, b.satisfied_at),
                },
            })
            .collect();
        Summary {
            len: self.len + next.len,
            restart: self.restart,
            runs,
        }
    }
}

#[cfg(feature = "trace")]
impl Summary {
    /// Appends the summary to `out` (little-endian integers): what
    /// [`ChunkSummary::to_bytes`](crate::trace::chunked::ChunkSummary::to_bytes)
    /// sends from a worker to the machine that combines summaries.
    pub(crate) fn encode(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.len.to_le_bytes());
        out.push(u8::from(self.restart));
        out.extend_from_slice(&(self.runs.len() as u64).to_le_bytes());
        for r in &self.runs {
            out.extend_from_slice(&r.end.to_le_bytes());
            out.extend_from_slice(&r.violated_at.to_le_bytes());
            out.extend_from_slice(&r.violations.to_le_bytes());
            out.extend_from_slice(&r.satisfied_at.to_le_bytes());
        }
    }

    /// Reads a summary written by [`Summary::encode`] from the front of
    /// `bytes`, leaving the rest; `None` if they are not one (truncated,
    /// or an end state the monitor does not have).
    pub(crate) fn decode(bytes: &mut &[u8]) -> Option<Summary> {
        let len = take_u64(bytes)?;
        let restart = match take(bytes, 1)? {
            [0] => false,
            [1] => true,
            _ => return None,
        };
        let n = usize::try_from(take_u64(bytes)?).ok()?;
        // Each run is 28 bytes: a count beyond the input is not one.
        if n > bytes.len() / 28 {
            return None;
        }
        let mut runs = Vec::with_capacity(n);
        for _ in 0..n {
            let end = u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?);
            if end != VIOLATION && end as usize >= n {
                return None;
            }
            runs.push(Record {
                end,
                violated_at: take_u64(bytes)?,
                violations: take_u64(bytes)?,
                satisfied_at: take_u64(bytes)?,
            });
        }
        Some(Summary { len, restart, runs })
    }
}

/// The first `n` bytes of `bytes`, which then starts after them.
#[cfg(feature = "trace")]
pub(crate) fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if bytes.len() < n {
        return None;
    }
    let (head, rest) = bytes.split_at(n);
    *bytes = rest;
    Some(head)
}

/// A little-endian `u64` from the front of `bytes`.
#[cfg(feature = "trace")]
pub(crate) fn take_u64(bytes: &mut &[u8]) -> Option<u64> {
    Some(u64::from_le_bytes(take(bytes, 8)?.try_into().ok()?))
}

/// The run from `state` over events `from..len`, one event at a time;
/// `need_sat`: whether to look for a good prefix.
fn tail_steps(
    table: &Table<'_>,
    restart: bool,
    state: u32,
    from: usize,
    len: usize,
    need_sat: bool,
    next: &mut impl FnMut(u32, usize) -> u32,
) -> Record {
    let n = table.num_states();
    let mut tail = Record::new(state);
    let mut need = need_sat && table.verdicts.contains(&Verdict::Satisfied);
    let mut s = state;
    for k in from..len {
        let t = next(s, k);
        if t as usize >= n {
            if tail.violated_at == NONE {
                tail.violated_at = k as u64;
            }
            tail.violations += 1;
            if !restart {
                tail.end = VIOLATION;
                return tail;
            }
            s = 0;
            continue;
        }
        s = t;
        if need && table.verdicts[t as usize] == Verdict::Satisfied {
            tail.satisfied_at = k as u64;
            need = false;
        }
    }
    tail.end = s;
    tail
}

/// The end of a list of start states in [`Runs::link`].
const END: u32 = u32::MAX;

/// A live run of the general path, shared by the start states that met.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The current state.
    state: u32,
    /// The first and the last start state of the slot (a list through
    /// [`Runs::link`]).
    first: u32,
    last: u32,
    /// The violations of the run: the count of a start state `o` is
    /// `out.runs[o].violations + count` (wrapping: merges adjust the
    /// former).
    count: u64,
    /// Whether every start state of the slot has its first violation.
    violated: bool,
    /// Whether every start state of the slot has its satisfied offset.
    satisfied: bool,
}

/// The runs from every start state, merged when they meet: the general
/// path, and the start of the fast one.
struct Runs {
    restart: bool,
    /// The live runs, in distinct states once merged.
    slots: Vec<Slot>,
    /// The next start state in the same slot, or [`END`].
    link: Vec<u32>,
    /// Which slot holds a state in this step (step-stamped).
    seen: Vec<(u64, u32)>,
    /// The events read.
    k: usize,
    /// The start states' records.
    out: Summary,
}

impl Runs {
    fn new(n: usize, len: usize, restart: bool) -> Runs {
        let mut out = Summary::unit(n, restart);
        out.len = len as u64;
        Runs {
            restart,
            slots: (0..n as u32)
                .map(|q| Slot {
                    state: q,
                    first: q,
                    last: q,
                    count: 0,
                    violated: false,
                    satisfied: false,
                })
                .collect(),
            link: vec![END; n],
            seen: vec![(u64::MAX, 0); n],
            k: 0,
            out,
        }
    }

    /// Applies `f` to the records of the start states of the slot that
    /// begins with `first`.
    fn each(&mut self, first: u32, mut f: impl FnMut(&mut Record)) {
        let mut o = first;
        while o != END {
            f(&mut self.out.runs[o as usize]);
            o = self.link[o as usize];
        }
    }

    /// Steps every slot until event `until`, or until at most `slots`
    /// slots are left.
    fn run(
        &mut self,
        table: &Table<'_>,
        until: usize,
        slots: usize,
        next: &mut impl FnMut(u32, usize) -> u32,
    ) {
        let n = table.num_states();
        let satisfied = |q: u32| table.verdicts.get(q as usize) == Some(&Verdict::Satisfied);
        while self.k < until && self.slots.len() > slots.max(1) {
            let k = self.k as u64;
            let mut i = 0;
            while i < self.slots.len() {
                let slot = self.slots[i];
                let t = next(slot.state, self.k);
                if t as usize >= n {
                    if !slot.violated {
                        self.each(slot.first, |r| {
                            if r.violated_at == NONE {
                                r.violated_at = k;
                            }
                        });
                    }
                    let count = slot.count + 1;
                    if self.restart {
                        self.slots[i] = Slot {
                            state: 0,
                            count,
                            violated: true,
                            ..slot
                        };
                        i += 1;
                    } else {
                        self.each(slot.first, |r| {
                            r.end = VIOLATION;
                            r.violations = r.violations.wrapping_add(count);
                        });
                        self.slots.swap_remove(i);
                    }
                    continue;
                }
                self.slots[i].state = t;
                if !slot.satisfied && satisfied(t) {
                    self.each(slot.first, |r| {
                        if r.satisfied_at == NONE {
                            r.satisfied_at = k;
                        }
                    });
                    self.slots[i].satisfied = true;
                }
                i += 1;
            }
            // Merge the slots that met.
            if self.slots.len() > 1 {
                let mut j = 0;
                while j < self.slots.len() {
                    let q = self.slots[j].state as usize;
                    match self.seen[q] {
                        (stamp, f) if stamp == k => {
                            // `f < j`: the swap does not move it.
                            let moved = self.slots.swap_remove(j);
                            let into = &mut self.slots[f as usize];
                            // The moved start states count from `into.count` on.
                            let delta = moved.count.wrapping_sub(into.count);
                            self.link[into.last as usize] = moved.first;
                            into.last = moved.last;
                            into.violated &= moved.violated;
                            into.satisfied &= moved.satisfied;
                            self.each(moved.first, |r| {
                                r.violations = r.violations.wrapping_add(delta);
                            });
                        }
                        _ => {
                            self.seen[q] = (k, j as u32);
                            j += 1;
                        }
                    }
                }
            }
            self.k += 1;
        }
    }

    /// The summary, the live slots' runs ending as `tails` say (one per
    /// slot, or none when every event was read).
    fn finish(mut self, tails: impl IntoIterator<Item = Record>) -> Summary {
        for (i, tail) in tails.into_iter().enumerate() {
            self.each(self.slots[i].first, |r| {
                if r.violated_at == NONE {
                    r.violated_at = tail.violated_at;
                }
                if r.satisfied_at == NONE {
                    r.satisfied_at = tail.satisfied_at;
                }
            });
            self.slots[i].count += tail.violations;
            self.slots[i].state = tail.end;
        }
        for i in 0..self.slots.len() {
            let slot = self.slots[i];
            self.each(slot.first, |r| {
                r.end = slot.state;
                r.violations = r.violations.wrapping_add(slot.count);
            });
        }
        self.out
    }
}

/// A dense copy of a table's transitions for runs stepped without a test
/// per letter.
///
/// Each state has a row of `1 << props` entries, and is coded by the
/// offset of its row, so that a step is `s = enc[s | letter]`. Violations
/// lead to a special row: in stopping mode an absorbing sink, in
/// restarting mode a copy of the row of state 0 (visits to it are the
/// violations). The rows are laid out so that codes tell what matters by
/// a bit: satisfied states have rows in an upper half, whose codes all
/// have the bit `sat_bit`, and the special row comes after every other,
/// its code a bit of its own. The codes of a block or-ed together then
/// tell whether the block holds a violation or a good prefix.
#[derive(Debug)]
struct Kernel {
    restart: bool,
    props: u32,
    mask: u64,
    enc: Vec<u32>,
    /// The code of each state.
    code: Vec<u32>,
    /// The state of each row ([`VIOLATION`] for the sink).
    state_of_row: Vec<u32>,
    /// Whether each row is a state that no letter leaves (the special
    /// row excepted): runs that reach one are done.
    absorbing: Vec<bool>,
    /// The code of the special row: a single bit.
    special: u32,
    /// The bit of satisfied states' codes (0 if there are none).
    sat_bit: u32,
}

/// A run through the kernel: from `state` after `done` letters of a part.
#[derive(Debug)]
struct Chain<'l> {
    letters: &'l [u64],
    done: usize,
    /// The code of the state.
    state: u32,
    /// Whether to look for a good prefix.
    need_sat: bool,
    /// Stopped by a violation.
    dead: bool,
    /// Restarting mode: whether the last block had violations (the next
    /// one counts them as it goes rather than reading the block again).
    dense: bool,
    /// The records (offsets within the part); `end` is the start state.
    tail: Record,
}

impl Kernel {
    /// The kernel of a dense table, if it has at most `budget` entries.
    fn new(table: &Table<'_>, restart: bool, budget: usize) -> Option<Kernel> {
        let Transitions::Dense(next) = table.transitions else {
            return None;
        };
        let n = table.num_states();
        let props = table.props;
        if n == 0 || props > 24 {
            return None;
        }
        let sat: Vec<bool> = table
            .verdicts
            .iter()
            .map(|&v| v == Verdict::Satisfied)
            .collect();
        let num_sat = sat.iter().filter(|&&s| s).count();
        // Rows: the other states from 0, the satisfied ones from `half`,
        // the special row at `top`, a power of two above them all.
        let others = n - num_sat;
        let (half, top) = if num_sat == 0 {
            (0, others.checked_next_power_of_two()?)
        } else {
            let half = others.max(num_sat).checked_next_power_of_two()?;
            (half, half.checked_mul(2)?)
        };
        let width = 1usize << props;
        let entries = (top + 1).checked_mul(width)?;
        if entries > budget || entries > u32::MAX as usize {
            return None;
        }
        let mut code = vec![0u32; n];
        let mut state_of_row = vec![VIOLATION; top + 1];
        let (mut lo, mut hi) = (0usize, half);
        for q in 0..n {
            let row = if sat[q] { &mut hi } else { &mut lo };
            code[q] = (*row << props) as u32;
            state_of_row[*row] = q as u32;
            *row += 1;
        }
        let special = (top << props) as u32;
        state_of_row[top] = if restart { 0 } else { VIOLATION };
        let mut enc = vec![special; entries];
        for q in 0..n {
            for l in 0..width {
                let t = next.get((q << props) | l).copied().unwrap_or(VIOLATION);
                enc[code[q] as usize | l] = if t as usize >= n {
                    special
                } else {
                    code[t as usize]
                };
            }
        }
        if restart {
            let zero = code[0] as usize;
            enc.copy_within(zero..zero + width, special as usize);
        }
        let absorbing = (0..=top)
            .map(|row| {
                let c = (row << props) as u32;
                row < top && enc[c as usize..c as usize + width].iter().all(|&t| t == c)
            })
            .collect();
        Some(Kernel {
            restart,
            props,
            mask: (width - 1) as u64,
            enc,
            code,
            state_of_row,
            absorbing,
            special,
            sat_bit: (half << props) as u32,
        })
    }

    /// Runs every chain to the end of its letters (or its violation, in
    /// stopping mode), [`LANES`] at a time.
    fn run(&self, chains: &mut [Chain<'_>]) {
        loop {
            let mut pick = [0usize; LANES];
            let mut w = 0;
            let mut len = BLOCK;
            for (i, c) in chains.iter().enumerate() {
                if !c.dead && c.done < c.letters.len() {
                    pick[w] = i;
                    w += 1;
                    len = len.min(c.letters.len() - c.done);
                    if w == LANES {
                        break;
                    }
                }
            }
            if w == 0 {
                return;
            }
            self.lanes(chains, &pick[..w], len);
        }
    }

    /// One block of `len` letters for the chains `pick` (at most
    /// [`LANES`]).
    fn lanes(&self, chains: &mut [Chain<'_>], pick: &[usize], len: usize) {
        // Missing lanes repeat the first: a core steps four chains in the
        // time of one, so they cost nothing.
        let lane = |j: usize| pick.get(j).copied().unwrap_or(pick[0]);
        let letters: [&[u64]; LANES] = core::array::from_fn(|j| {
            let c = &chains[lane(j)];
            let l: &[u64] = c.letters;
            &l[c.done..c.done + len]
        });
        let start: [u32; LANES] = core::array::from_fn(|j| chains[lane(j)].state);
        let sat = pick.iter().any(|&i| chains[i].need_sat);
        // Restarting: count the violations as they come when they are
        // frequent; otherwise see them in the or-ed codes, and read the
        // block again (rarely).
        let count = self.restart && pick.iter().any(|&i| chains[i].dense);
        let (end, acc, cnt) = match (count, sat || (self.restart && !count)) {
            (false, false) => self.block::<false, false>(letters, start),
            (false, true) => self.block::<false, true>(letters, start),
            (true, false) => self.block::<true, false>(letters, start),
            (true, true) => self.block::<true, true>(letters, start),
        };
        for (j, &i) in pick.iter().enumerate() {
            let c = &mut chains[i];
            let sat = c.need_sat && acc & self.sat_bit != 0;
            if !self.restart {
                if end[j] == self.special || sat {
                    self.rescan(c, start[j], len, false);
                }
            } else if count {
                c.tail.violations += cnt[j];
                c.dense = cnt[j] > 0;
                if (c.dense && c.tail.violated_at == NONE) || sat {
                    self.rescan(c, start[j], len, false);
                }
            } else if acc & self.special != 0 || sat {
                c.dense = self.rescan(c, start[j], len, true);
            }
            c.state = end[j];
            c.done += len;
            self.settle(c);
        }
    }

    /// Ends a chain in an absorbing state (a satisfied one is a good
    /// prefix after the next event): stepping it further changes nothing,
    /// and its states would hide the others' in the or-ed codes.
    fn settle(&self, c: &mut Chain<'_>) {
        if c.dead || c.done >= c.letters.len() || !self.absorbing[(c.state >> self.props) as usize]
        {
            return;
        }
        if c.need_sat && c.state & self.sat_bit != 0 {
            c.tail.satisfied_at = c.done as u64;
            c.need_sat = false;
        }
        c.done = c.letters.len();
    }

    /// Steps four runs in lockstep over their letters (all of one
    /// length): the end codes, the codes of all steps or-ed together (if
    /// `O`), and each run's visits to the special row (if `C`).
    #[inline(always)]
    fn block<const C: bool, const O: bool>(
        &self,
        letters: [&[u64]; LANES],
        start: [u32; LANES],
    ) -> ([u32; LANES], u32, [u64; LANES]) {
        let enc = &self.enc[..];
        let mask = self.mask;
        let special = self.special;
        let [mut s0, mut s1, mut s2, mut s3] = start;
        let mut acc = 0u32;
        let mut cnt = [0u64; LANES];
        let [l0, l1, l2, l3] = letters;
        for (((&x0, &x1), &x2), &x3) in l0.iter().zip(l1).zip(l2).zip(l3) {
            s0 = enc[s0 as usize | (x0 & mask) as usize];
            s1 = enc[s1 as usize | (x1 & mask) as usize];
            s2 = enc[s2 as usize | (x2 & mask) as usize];
            s3 = enc[s3 as usize | (x3 & mask) as usize];
            if C {
                cnt[0] += u64::from(s0 == special);
                cnt[1] += u64::from(s1 == special);
                cnt[2] += u64::from(s2 == special);
                cnt[3] += u64::from(s3 == special);
            }
            if O {
                acc |= s0 | s1 | s2 | s3;
            }
        }
        ([s0, s1, s2, s3], acc, cnt)
    }

    /// Reads a block again from `start`, one letter at a time, for the
    /// first violation and the first good prefix, and counts the
    /// violations if `count`; returns whether the block has a violation.
    fn rescan(&self, c: &mut Chain<'_>, start: u32, len: usize, count: bool) -> bool {
        let mut s = start;
        let mut violated = false;
        for (i, &l) in c.letters[c.done..c.done + len].iter().enumerate() {
            s = self.enc[s as usize | (l & self.mask) as usize];
            let k = (c.done + i) as u64;
            if s == self.special {
                violated = true;
                if c.tail.violated_at == NONE {
                    c.tail.violated_at = k;
                }
                if !self.restart {
                    c.tail.violations = 1;
                    c.dead = true;
                    break;
                }
                if count {
                    c.tail.violations += 1;
                }
            } else if c.need_sat && s & self.sat_bit != 0 {
                c.tail.satisfied_at = k;
                c.need_sat = false;
            }
        }
        violated
    }

    /// The records of a finished chain.
    fn tail(&self, c: &Chain<'_>) -> Record {
        Record {
            end: if c.dead {
                VIOLATION
            } else {
                self.state_of_row[(c.state >> self.props) as usize]
            },
            ..c.tail
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::{Cursor, Layout};
    use crate::translate::{Builder, Config, Verdicts};
    use crate::MonitorTable;

    /// The reference: one cursor over the whole word from `start`,
    /// reset after each violation when `restart`.
    /// The minimal monitor of `f`, three-valued if `three`; `None` when
    /// it cannot be built (random formulas of the tests).
    pub(crate) fn monitor_of(f: &crate::formula::Formula, three: bool) -> Option<MonitorTable> {
        let mut b = Builder::new();
        b.configure(Config::new().verdicts(if three {
            Verdicts::Three
        } else {
            Verdicts::Two
        }));
        Some(MonitorTable::from_dfa(b.build_from_formula(f).ok()?.dfa()))
    }

    pub(crate) fn reference(t: &Table<'_>, word: &[u64], start: u32, restart: bool) -> ChunkRun {
        let mut c = Cursor::new();
        c.enter(t, start);
        let mut run = ChunkRun {
            end: None,
            violated_at: None,
            satisfied_at: None,
            violations: 0,
        };
        for (k, &l) in word.iter().enumerate() {
            match c.step(t, l) {
                Verdict::Violated => {
                    run.violations += 1;
                    run.violated_at.get_or_insert(k as u64);
                    if !restart {
                        return run;
                    }
                    c.reset();
                }
                Verdict::Satisfied => {
                    run.satisfied_at.get_or_insert(k as u64);
                }
                Verdict::Undecided => {}
            }
        }
        run.end = Some(c.state());
        run
    }

    /// A word of `len` letters over `bits` propositions whose first
    /// `quiet` letters neither violate nor satisfy the property (when
    /// some letter allows it), so that violations and good prefixes also
    /// come late in long words.
    fn word(t: &Table<'_>, rng: &mut SplitMix64, len: usize, quiet: usize, bits: u32) -> Vec<u64> {
        let mut c = Cursor::new();
        (0..len)
            .map(|k| {
                let mut l = rng.next_u64() & ((1 << bits) - 1);
                if k < quiet {
                    for _ in 0..16 {
                        let mut d = c;
                        if d.step(t, l) == Verdict::Undecided {
                            break;
                        }
                        l = rng.next_u64() & ((1 << bits) - 1);
                    }
                }
                if c.step(t, l) == Verdict::Violated {
                    c.reset();
                }
                l
            })
            .collect()
    }

    fn summary(t: &Table<'_>, letters: &[u64], restart: bool) -> Summary {
        if restart {
            Summary::of_letters_restarting(t, letters)
        } else {
            Summary::of_letters(t, letters)
        }
    }

    fn unit(n: usize, restart: bool) -> Summary {
        if restart {
            Summary::identity_restarting(n)
        } else {
            Summary::identity(n)
        }
    }

    /// Checks every way of summarizing `word` against the reference from
    /// every start state, in both modes.
    fn check(t: &Table<'_>, word: &[u64], what: &str) {
        for restart in [false, true] {
            let want: Vec<ChunkRun> = (0..t.num_states() as u32)
                .map(|q| reference(t, word, q, restart))
                .collect();
            let by_steps = if restart {
                Summary::of_steps_restarting(t, word.len(), |q, k| t.next(q, word[k]))
            } else {
                Summary::of_steps(t, word.len(), |q, k| t.next(q, word[k]))
            };
            let mut ways = vec![("whole".to_string(), summary(t, word, restart))];
            ways.push(("of_steps".to_string(), by_steps));
            for chunk in [1, 2, 7, 300, 1000, 5000] {
                let mut total = unit(t.num_states(), restart);
                for piece in word.chunks(chunk) {
                    total = total.then(&summary(t, piece, restart));
                }
                ways.push((format!("chunks of {chunk}"), total));
            }
            for (how, s) in &ways {
                assert_eq!(s.len(), word.len() as u64);
                assert_eq!(s.restarts(), restart);
                for (q, want) in want.iter().enumerate() {
                    assert_eq!(
                        s.run_from(q as u32),
                        *want,
                        "{what}, restart {restart}, {how}, from {q}, on {word:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn chunked_summaries_equal_one_run() {
        let mut rng = SplitMix64::new(0x5u64);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 6).seed(17).with_past();
        let (mut checked, mut long, mut satisfied) = (0, 0, 0);
        for i in 0..300 {
            random_ltl = random_ltl.size(3 + i % 9);
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, i % 2 == 1) else {
                continue;
            };
            let t = table.table();
            // The kernel applies to these tables (dense, small).
            assert!(Kernel::new(&t, false, usize::MAX).is_some(), "{f}");
            assert!(Kernel::new(&t, true, usize::MAX).is_some(), "{f}");
            let len = if i % 3 == 0 {
                // Long enough for the kernel in lockstep parts.
                LOCKSTEP_MIN + (rng.next_u64() % 3000) as usize
            } else {
                (rng.next_u64() % 60) as usize
            };
            let quiet = (rng.next_u64() % (len as u64 + 1)) as usize;
            let w = word(&t, &mut rng, len, quiet, 3);
            check(&t, &w, &f.to_string());
            checked += 1;
            long += usize::from(len >= LOCKSTEP_MIN);
            satisfied += usize::from(t.verdicts.contains(&Verdict::Satisfied));
        }
        assert!(
            checked > 250 && long > 80 && satisfied > 30,
            "{checked} {long} {satisfied}"
        );
    }

    #[test]
    fn diagram_tables_take_the_general_path() {
        let mut rng = SplitMix64::new(7);
        for f in [
            "G(a -> X b)",
            "G((a & X a) -> X X (b | c))",
            "a U b",
            "G(a -> F[0:5] c)",
        ] {
            let mut b = Builder::new();
            b.configure(Config::new().verdicts(Verdicts::Three));
            let dfa = b.build(f).unwrap();
            for layout in [Layout::Diagram, Layout::Dense] {
                let table = MonitorTable::from_dfa_with(dfa.dfa(), layout);
                let t = table.table();
                assert_eq!(
                    Kernel::new(&t, false, usize::MAX).is_some(),
                    layout == Layout::Dense
                );
                let w = word(&t, &mut rng, 6000, 5000, 3);
                check(&t, &w, f);
            }
        }
    }

    /// Runs that never meet: the states that remember the first letter
    /// are stepped as separate chains after [`MERGE_STEPS`].
    #[test]
    fn runs_that_never_merge() {
        let table = MonitorTable::from_ltl("(a -> G b) & (!a -> G c)").unwrap();
        let t = table.table();
        assert!(t.num_states() >= 3);
        let (a, b, c) = (1u64, 2u64, 4u64);
        let mut w = vec![b | c; 9000];
        w[0] |= a;
        check(&t, &w, "b & c");
        // Violations late, in one of the runs.
        w[7000] = b;
        w[8000] = c;
        w[8500] = a;
        check(&t, &w, "late violations");
    }

    /// Tables that no formula gives: permutations that never merge,
    /// satisfied states that are not absorbing, targets out of range.
    #[test]
    fn random_tables() {
        let mut rng = SplitMix64::new(0x7ab1e);
        for i in 0..400 {
            let n = 1 + (rng.next_u64() % 7) as usize;
            let props = (rng.next_u64() % 3) as u32;
            let verdicts: Vec<Verdict> = (0..n)
                .map(|_| match rng.next_u64() % 4 {
                    0 => Verdict::Satisfied,
                    _ => Verdict::Undecided,
                })
                .collect();
            let next: Vec<u32> = (0..n << props)
                .map(|_| match rng.next_u64() % 40 {
                    0 => VIOLATION,
                    1 => n as u32 + 3,
                    _ => (rng.next_u64() % n as u64) as u32,
                })
                .collect();
            let t = Table {
                props,
                verdicts: &verdicts,
                transitions: Transitions::Dense(&next),
                events: &[],
                text: "",
                spans: &[],
            };
            let len = [0, 5, 60, 300, LOCKSTEP_MIN + 100][i % 5];
            let w: Vec<u64> = (0..len).map(|_| rng.next_u64() & 7).collect();
            check(&t, &w, &format!("{verdicts:?} {next:?}"));
        }
    }

    #[test]
    fn composition_is_associative() {
        let mut rng = SplitMix64::new(0xa55);
        let mut random_ltl = RandomLtl::new(&["a", "b"], 6).seed(3).with_past();
        for i in 0..150 {
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, i % 2 == 1) else {
                continue;
            };
            let t = table.table();
            let n = t.num_states();
            for restart in [false, true] {
                let piece = |rng: &mut SplitMix64| {
                    let len = [0, 1, 3, 20, 700][(rng.next_u64() % 5) as usize];
                    let w: Vec<u64> = (0..len).map(|_| rng.next_u64() & 3).collect();
                    summary(&t, &w, restart)
                };
                let (x, y, z) = (piece(&mut rng), piece(&mut rng), piece(&mut rng));
                assert_eq!(x.then(&y).then(&z), x.then(&y.then(&z)), "{f}");
                assert_eq!(unit(n, restart).then(&x), x, "{f}");
                assert_eq!(x.then(&unit(n, restart)), x, "{f}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "restart")]
    fn modes_do_not_mix() {
        let _ = Summary::identity(2).then(&Summary::identity_restarting(2));
    }
}
