//! Checking long traces on several cores with chunk summaries.
//!
//! A trace of pre-encoded letters is cut into chunks; each chunk is
//! summarized ([`Summary`]) on a core of rayon's pool, and the summaries
//! are combined in order, which is exactly one run over the whole trace.
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
/// chunks of `chunk` letters on rayon's thread pool.
pub fn run_letters(table: &Table<'_>, letters: &[u64], chunk: usize) -> ChunkRun {
    summarize_letters(table, letters, chunk).run_from(0)
}

/// The summary of `letters`, computed in chunks of `chunk` letters in
/// parallel and combined in order.
pub fn summarize_letters(table: &Table<'_>, letters: &[u64], chunk: usize) -> Summary {
    let n = table.num_states();
    letters
        .par_chunks(chunk.max(1))
        .map(|c| Summary::of_letters(table, c))
        .reduce(|| Summary::identity(n), |a, b| a.then(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::Cursor;
    use crate::translate::Builder;
    use crate::{MonitorTable, Verdict};

    #[test]
    fn every_chunk_size_and_thread_count_is_one_run() {
        let mut rng = SplitMix64::new(99);
        let mut gen = RandomLtl::new(&["a", "b"], 7).seed(5).with_past();
        for _ in 0..60 {
            let f = gen.next_formula();
            let Ok(t) = Builder::new().build_from_formula(&f) else {
                continue;
            };
            let table = MonitorTable::from_dfa(t.dfa());
            let t = table.table();
            let letters: Vec<u64> = (0..3000).map(|_| rng.next_u64() & 3).collect();
            let mut c = Cursor::new();
            let want = letters
                .iter()
                .position(|&l| c.step(&t, l) == Verdict::Violated)
                .map(|k| k as u64);
            for threads in [1, 2, 3] {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                for chunk in [1, 2, 7, 1000, letters.len()] {
                    let run = pool.install(|| run_letters(&t, &letters, chunk));
                    assert_eq!(
                        run.violated_at, want,
                        "{f}: {threads} threads, chunks of {chunk}"
                    );
                }
            }
        }
    }
}
