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

use super::{Table, Verdict, VIOLATION};

/// No event (in the offset arrays).
const NONE: u64 = u64::MAX;

/// The effect of a chunk of a trace on a monitor, from every start state
/// (see the [module documentation](self)).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Summary {
    /// The number of events in the chunk.
    len: u64,
    /// For each start state: the end state, or [`VIOLATION`].
    ends: Vec<u32>,
    /// For each start state: the offset of the event that completes a bad
    /// prefix, or [`NONE`].
    violated_at: Vec<u64>,
    /// For each start state: the offset of the first event after which
    /// the verdict is satisfied, or [`NONE`].
    satisfied_at: Vec<u64>,
}

/// The run of a summarized chunk from one start state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ChunkRun {
    /// The end state; `None` once the run violated the property.
    pub end: Option<u32>,
    /// The offset (from the start of the chunk) of the event that
    /// completed a bad prefix.
    pub violated_at: Option<u64>,
    /// The offset of the first event after which every continuation
    /// satisfies the property (three-valued monitors).
    pub satisfied_at: Option<u64>,
}

impl Summary {
    /// The summary of the empty chunk, for a monitor of `num_states`
    /// states: every state is its own end.
    pub fn identity(num_states: usize) -> Summary {
        Summary {
            len: 0,
            ends: (0..num_states as u32).collect(),
            violated_at: vec![NONE; num_states],
            satisfied_at: vec![NONE; num_states],
        }
    }

    /// The number of events summarized.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether no event was summarized.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number of states of the monitor.
    pub fn num_states(&self) -> usize {
        self.ends.len()
    }

    /// Summarizes a chunk of letters (bit `i` for proposition `i`).
    ///
    /// All start states are run at once, and runs that meet in a state are
    /// merged from then on: most monitors forget their start after a few
    /// letters, so the cost is soon that of a single run.
    pub fn of_letters(table: &Table<'_>, letters: &[u64]) -> Summary {
        Summary::of_steps(table, letters.len(), |state, k| {
            table.next(state, letters[k])
        })
    }

    /// Summarizes a chunk of `len` events, `next(state, k)` giving the
    /// target of `state` on event `k` (for letters that are not `u64`s,
    /// or events given by index).
    pub fn of_steps(
        table: &Table<'_>,
        len: usize,
        mut next: impl FnMut(u32, usize) -> u32,
    ) -> Summary {
        let n = table.num_states();
        let mut s = Summary::identity(n);
        s.len = len as u64;
        // Distinct live states, and the start states that are in each.
        let mut slots: Vec<u32> = (0..n as u32).collect();
        let mut owners: Vec<Vec<u32>> = (0..n as u32).map(|q| vec![q]).collect();
        let satisfied = |q: u32| table.verdicts.get(q as usize) == Some(&Verdict::Satisfied);
        // Whether the slot's owners have their satisfied offset (the
        // first event after which the verdict is satisfied, also when the
        // run starts satisfied).
        let mut recorded: Vec<bool> = vec![false; n];
        // Which slot holds a state in this step (generation-stamped).
        let mut seen: Vec<(u32, u32)> = vec![(u32::MAX, 0); n];
        for k in 0..len {
            if slots.is_empty() {
                break;
            }
            let mut i = 0;
            while i < slots.len() {
                let t = next(slots[i], k);
                if t == VIOLATION || t as usize >= n {
                    for &q in &owners[i] {
                        s.violated_at[q as usize] = k as u64;
                        s.ends[q as usize] = VIOLATION;
                    }
                    slots.swap_remove(i);
                    owners.swap_remove(i);
                    recorded.swap_remove(i);
                    continue;
                }
                slots[i] = t;
                if !recorded[i] && satisfied(t) {
                    for &q in &owners[i] {
                        if s.satisfied_at[q as usize] == NONE {
                            s.satisfied_at[q as usize] = k as u64;
                        }
                    }
                    recorded[i] = true;
                }
                i += 1;
            }
            // Merge the slots that met.
            if slots.len() > 1 {
                let stamp = k as u32;
                let mut j = 0;
                while j < slots.len() {
                    let q = slots[j] as usize;
                    match seen[q] {
                        (st, first) if st == stamp => {
                            let moved = core::mem::take(&mut owners[j]);
                            owners[first as usize].extend(moved);
                            slots.swap_remove(j);
                            owners.swap_remove(j);
                            recorded.swap_remove(j);
                        }
                        _ => {
                            seen[q] = (stamp, j as u32);
                            j += 1;
                        }
                    }
                }
            }
        }
        for (i, &q) in slots.iter().enumerate() {
            for &start in &owners[i] {
                s.ends[start as usize] = q;
            }
        }
        s
    }

    /// The run of the chunk from `start`.
    pub fn run_from(&self, start: u32) -> ChunkRun {
        let i = start as usize;
        let opt = |v: u64| (v != NONE).then_some(v);
        match self.ends.get(i) {
            Some(&end) => ChunkRun {
                end: (end != VIOLATION).then_some(end),
                violated_at: opt(self.violated_at[i]),
                satisfied_at: opt(self.satisfied_at[i]),
            },
            None => ChunkRun {
                end: None,
                violated_at: None,
                satisfied_at: None,
            },
        }
    }

    /// This chunk followed by `next` (both of the same monitor): the
    /// composition is associative, with [`Summary::identity`] its unit.
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
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn then(&self, next: &Summary) -> Summary {
        let n = self.ends.len();
        let mut out = Summary::identity(n);
        out.len = self.len + next.len;
        let shift = |v: u64| if v == NONE { NONE } else { v + self.len };
        for q in 0..n {
            let mid = self.ends[q];
            if mid == VIOLATION {
                out.ends[q] = VIOLATION;
                out.violated_at[q] = self.violated_at[q];
                out.satisfied_at[q] = self.satisfied_at[q];
                continue;
            }
            let m = mid as usize;
            out.ends[q] = next.ends.get(m).copied().unwrap_or(VIOLATION);
            out.violated_at[q] = next.violated_at.get(m).copied().map_or(NONE, shift);
            out.satisfied_at[q] = if self.satisfied_at[q] != NONE {
                self.satisfied_at[q]
            } else {
                next.satisfied_at.get(m).copied().map_or(NONE, shift)
            };
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::Cursor;
    use crate::translate::{Builder, Config, Verdicts};
    use crate::MonitorTable;

    /// The reference: one cursor over the whole word.
    fn reference(t: &Table<'_>, word: &[u64]) -> (Option<u64>, Option<u64>, Option<u32>) {
        let mut c = Cursor::new();
        let mut satisfied = None;
        for (k, &l) in word.iter().enumerate() {
            match c.step(t, l) {
                Verdict::Violated => return (Some(k as u64), satisfied, None),
                Verdict::Satisfied if satisfied.is_none() => satisfied = Some(k as u64),
                _ => {}
            }
        }
        (None, satisfied, Some(c.state()))
    }

    #[test]
    fn chunked_summaries_equal_one_run() {
        let mut rng = SplitMix64::new(0x5u64);
        let mut gen = RandomLtl::new(&["a", "b", "c"], 6).seed(17).with_past();
        let mut checked = 0;
        for i in 0..300 {
            gen = gen.size(3 + i % 9);
            let f = gen.next_formula();
            let mut b = Builder::new();
            b.configure(Config::new().verdicts(if i % 2 == 0 {
                Verdicts::Two
            } else {
                Verdicts::Three
            }));
            let Ok(tr) = b.build_from_formula(&f) else {
                continue;
            };
            let table = MonitorTable::from_dfa(tr.dfa());
            let t = table.table();
            let len = (rng.next_u64() % 60) as usize;
            let word: Vec<u64> = (0..len).map(|_| rng.next_u64() & 7).collect();
            let want = reference(&t, &word);
            for chunk in [1, 2, 7, 1000] {
                let mut total = Summary::identity(t.num_states());
                for piece in word.chunks(chunk) {
                    total = total.then(&Summary::of_letters(&t, piece));
                }
                let run = total.run_from(0);
                assert_eq!(
                    (run.violated_at, run.satisfied_at, run.end),
                    want,
                    "{f} on {word:?}, chunks of {chunk}"
                );
                // From every state, the summary is the run from there.
                let whole = Summary::of_letters(&t, &word);
                for q in 0..t.num_states() as u32 {
                    let mut c = Cursor::new();
                    c.enter(&t, q);
                    let mut v = None;
                    for (k, &l) in word.iter().enumerate() {
                        if c.step(&t, l) == Verdict::Violated {
                            v = Some(k as u64);
                            break;
                        }
                    }
                    assert_eq!(whole.run_from(q).violated_at, v, "{f} from {q}");
                }
            }
            checked += 1;
        }
        assert!(checked > 250);
    }
}
