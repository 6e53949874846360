//! Checking long traces on several cores with chunk summaries.
//!
//! A trace of pre-encoded letters is cut into chunks; each chunk is
//! summarized ([`Summary`]) on a core of rayon's pool, and the summaries
//! are combined in order, which is exactly one run over the whole trace:
//! one that stops at the first violation ([`run_letters`]), or one that
//! restarts in the initial state after each violation and counts them
//! ([`run_letters_restarting`], as `mongen check --all` does).
//!
//! ```
//! use monitor_core::trace::parallel::run_letters;
//! use monitor_core::MonitorTable;
//!
//! let table = MonitorTable::from_ltl("G(a -> X !a)")?;
//! let letters: Vec<u64> = (0..10_000).map(|i| u64::from(i == 7_000 || i == 7_001)).collect();
//! let run = run_letters(&table.table(), &letters, 1_000);
//! assert_eq!(run.violated_at, Some(7_001));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rayon::prelude::*;

use crate::runtime::{ChunkRun, Summary, Table};

/// The run of `table` over `letters` from the start state, summarized in
/// chunks of `chunk` letters on rayon's thread pool; the run stops at the
/// first violation.
///
/// ```
/// use monitor_core::trace::parallel::run_letters;
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let (a, b) = (0b01u64, 0b10u64);
/// let letters: Vec<u64> = (0..5_000).map(|i| if i % 2 == 0 { a } else { b }).collect();
/// let run = run_letters(&table.table(), &letters, 512);
/// assert_eq!((run.violated_at, run.end), (None, Some(0)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_letters(table: &Table<'_>, letters: &[u64], chunk: usize) -> ChunkRun {
    summarize_letters(table, letters, chunk).run_from(0)
}

/// The summary of `letters`, computed in chunks of `chunk` letters in
/// parallel and combined in order ([`Summary::of_letters`]).
///
/// ```
/// use monitor_core::runtime::Summary;
/// use monitor_core::trace::parallel::summarize_letters;
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let t = table.table();
/// let letters: Vec<u64> = (0..5_000u64).map(|i| i % 4).collect();
/// assert_eq!(summarize_letters(&t, &letters, 100), Summary::of_letters(&t, &letters));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn summarize_letters(table: &Table<'_>, letters: &[u64], chunk: usize) -> Summary {
    summarize(table, letters, chunk, false)
}

/// [`run_letters`] in restarting mode: after each violation the run
/// restarts in the initial state, and [`ChunkRun::violations`] counts the
/// violations (what a sequential checker that resets its monitor after
/// each violation finds).
///
/// ```
/// use monitor_core::trace::parallel::run_letters_restarting;
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X !a)")?;
/// // `a` at 7000, 7001 and 7002: violations at 7001 and, after the
/// // restart, none at 7002 (a first `a` again).
/// let letters: Vec<u64> = (0..10_000).map(|i| u64::from((7_000..7_003).contains(&i))).collect();
/// let run = run_letters_restarting(&table.table(), &letters, 1_000);
/// assert_eq!((run.violated_at, run.violations), (Some(7_001), 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_letters_restarting(table: &Table<'_>, letters: &[u64], chunk: usize) -> ChunkRun {
    summarize_letters_restarting(table, letters, chunk).run_from(0)
}

/// [`summarize_letters`] in restarting mode
/// ([`Summary::of_letters_restarting`]).
///
/// ```
/// use monitor_core::runtime::Summary;
/// use monitor_core::trace::parallel::summarize_letters_restarting;
/// use monitor_core::MonitorTable;
///
/// let table = MonitorTable::from_ltl("G(a -> X b)")?;
/// let t = table.table();
/// let letters: Vec<u64> = (0..5_000u64).map(|i| i % 4).collect();
/// let s = summarize_letters_restarting(&t, &letters, 100);
/// assert_eq!(s, Summary::of_letters_restarting(&t, &letters));
/// // `a & b` then nothing: a violation at 4, 8, ..., 4996.
/// assert_eq!(s.run_from(0).violations, 1_249);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn summarize_letters_restarting(table: &Table<'_>, letters: &[u64], chunk: usize) -> Summary {
    summarize(table, letters, chunk, true)
}

fn summarize(table: &Table<'_>, letters: &[u64], chunk: usize, restart: bool) -> Summary {
    let n = table.num_states();
    letters
        .par_chunks(chunk.max(1))
        .map(|c| {
            if restart {
                Summary::of_letters_restarting(table, c)
            } else {
                Summary::of_letters(table, c)
            }
        })
        .reduce(
            || {
                if restart {
                    Summary::identity_restarting(n)
                } else {
                    Summary::identity(n)
                }
            },
            |a, b| a.then(&b),
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::summary::tests::monitor_of;
    use crate::runtime::Cursor;
    use crate::Verdict;

    /// One cursor over the whole word from the initial state.
    fn reference(t: &Table<'_>, letters: &[u64], restart: bool) -> ChunkRun {
        crate::runtime::summary::tests::reference(t, letters, 0, restart)
    }

    #[test]
    fn every_chunk_size_and_thread_count_is_one_run() {
        let mut rng = SplitMix64::new(99);
        let mut random_ltl = RandomLtl::new(&["a", "b"], 7).seed(5).with_past();
        let pools: Vec<rayon::ThreadPool> = [1, 2, 3]
            .into_iter()
            .map(|threads| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
            })
            .collect();
        let mut checked = 0;
        for i in 0..40 {
            let f = random_ltl.next_formula();
            let Some(table) = monitor_of(&f, i % 2 == 1) else {
                continue;
            };
            let t = table.table();
            // Letters that keep clear of violations most of the time, so
            // that the first one comes late.
            let mut c = Cursor::new();
            let letters: Vec<u64> = (0..6_000)
                .map(|_| {
                    let mut l = rng.next_u64() & 3;
                    for _ in 0..if rng.below(2_000) == 0 { 0 } else { 8 } {
                        let mut d = c;
                        if d.step(&t, l) != Verdict::Violated {
                            break;
                        }
                        l = rng.next_u64() & 3;
                    }
                    if c.step(&t, l) == Verdict::Violated {
                        c.reset();
                    }
                    l
                })
                .collect();
            let (stop, restart) = (
                reference(&t, &letters, false),
                reference(&t, &letters, true),
            );
            for (threads, pool) in pools.iter().enumerate() {
                for chunk in [1, 2, 7, 1000, 5000, letters.len()] {
                    let (s, r) = pool.install(|| {
                        (
                            run_letters(&t, &letters, chunk),
                            run_letters_restarting(&t, &letters, chunk),
                        )
                    });
                    let threads = threads + 1;
                    assert_eq!(s, stop, "{f}: {threads} threads, chunks of {chunk}");
                    assert_eq!(
                        r, restart,
                        "{f}: {threads} threads, chunks of {chunk}, restarting"
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 35);
    }
}
