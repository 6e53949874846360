//! A byte budget shared by the structures of one construction.
//!
//! The state limit bounds the automata, not the memory it takes to build
//! them: a Büchi automaton of 2,000 states can have two million edges, each
//! with a set of 2,000 acceptance marks (`p0 U p1 U … U p1989`: 3 GB), and
//! the decision diagrams, the subset construction's sets and the memos of
//! their operations grow with it. Each structure that grows with the input
//! holds an [`Account`] in the construction's [`Budget`] and sets its
//! charge *before* it grows (its capacity times the size of its entries,
//! and the old buffer that a reallocation copies from): a charge the
//! budget cannot hold is refused, the budget is marked as exceeded, and
//! the construction stops with [`BuildErrorKind::OutOfMemory`] instead of
//! allocating, so that a blow-up ends in an error under `ulimit -v` too,
//! never in an abort.
//!
//! Why accounts and not a counting global allocator: the library runs
//! inside `#[monitor]`, the Python package and users' programs, on which
//! it cannot impose an allocator; and an account names what ran out.
//!
//! [`BuildErrorKind::OutOfMemory`]: crate::error::BuildErrorKind::OutOfMemory

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

/// The bytes a construction may hold, shared by the accounts of its
/// structures (`Arc`: a manager is `Send`, and a finished monitor holds
/// one).
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    limit: usize,
    used: AtomicUsize,
    /// Set by the first refused charge, never cleared: whatever was being
    /// computed then is wrong, and the construction must fail.
    exceeded: AtomicBool,
}

impl Budget {
    /// A budget of `limit` bytes.
    pub(crate) fn new(limit: usize) -> Budget {
        Budget {
            inner: Arc::new(Inner {
                limit,
                used: AtomicUsize::new(0),
                exceeded: AtomicBool::new(false),
            }),
        }
    }

    /// A budget that never refuses (managers built outside a
    /// translation: a finished monitor's, a lazy monitor's).
    pub(crate) fn unlimited() -> Budget {
        Budget::new(usize::MAX)
    }

    /// The limit in bytes.
    pub(crate) fn limit(&self) -> usize {
        self.inner.limit
    }

    /// The bytes charged now.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.inner.used.load(Ordering::Relaxed)
    }

    /// Whether a charge was refused.
    pub(crate) fn exceeded(&self) -> bool {
        self.inner.exceeded.load(Ordering::Relaxed)
    }

    /// Marks the budget as exceeded.
    pub(crate) fn exceed(&self) {
        self.inner.exceeded.store(true, Ordering::Relaxed);
    }

    /// A new account, charged nothing.
    pub(crate) fn account(&self) -> Account {
        Account {
            budget: self.clone(),
            held: 0,
        }
    }
}

/// What one structure holds of a [`Budget`]: released when it is dropped.
#[derive(Debug)]
pub(crate) struct Account {
    budget: Budget,
    held: usize,
}

impl Account {
    /// Sets the charge of this account to `bytes`; `false` (and nothing
    /// charged beyond what was held, the budget marked as exceeded) if
    /// the budget cannot hold it. Lowering a charge always succeeds.
    pub(crate) fn set(&mut self, bytes: usize) -> bool {
        let ok = self.try_set(bytes);
        if !ok {
            self.budget.exceed();
        }
        ok
    }

    /// [`Account::set`] for what may simply not grow (a lossy cache): a
    /// refusal leaves the budget as it was, not exceeded.
    pub(crate) fn try_set(&mut self, bytes: usize) -> bool {
        let inner = &self.budget.inner;
        if bytes <= self.held {
            inner.used.fetch_sub(self.held - bytes, Ordering::Relaxed);
            self.held = bytes;
            return true;
        }
        let more = bytes - self.held;
        let before = inner.used.fetch_add(more, Ordering::Relaxed);
        if before.saturating_add(more) > inner.limit {
            inner.used.fetch_sub(more, Ordering::Relaxed);
            return false;
        }
        self.held = bytes;
        true
    }

    /// Adds `bytes` to the charge (see [`Account::set`]).
    pub(crate) fn add(&mut self, bytes: usize) -> bool {
        self.set(self.held.saturating_add(bytes))
    }

    /// The budget this account charges.
    pub(crate) fn budget(&self) -> &Budget {
        &self.budget
    }
}

impl Clone for Account {
    /// A copy of a structure holds as much again: the clone charges it
    /// (over the limit, the budget is marked as exceeded).
    fn clone(&self) -> Account {
        let mut a = self.budget.account();
        if !a.set(self.held) {
            // Keep the books right: the copy exists, whatever the limit.
            a.budget.inner.used.fetch_add(self.held, Ordering::Relaxed);
            a.held = self.held;
        }
        a
    }
}

impl Drop for Account {
    fn drop(&mut self) {
        self.budget
            .inner
            .used
            .fetch_sub(self.held, Ordering::Relaxed);
    }
}

/// The bytes of a `Vec` of `capacity` elements of `T`.
pub(crate) fn vec_bytes<T>(capacity: usize) -> usize {
    capacity.saturating_mul(std::mem::size_of::<T>())
}

/// The bytes of a hash table (hashbrown, as `std` and `rustc_hash` use)
/// able to hold `capacity` entries of `T` without growing: a power of two
/// of buckets at most 7/8 full, each with its entry and a control byte.
pub(crate) fn table_bytes<T>(capacity: usize) -> usize {
    if capacity == 0 {
        return 0;
    }
    let buckets = if capacity < 8 {
        if capacity < 4 {
            4
        } else {
            8
        }
    } else {
        (capacity.saturating_mul(8) / 7).next_power_of_two()
    };
    buckets.saturating_mul(std::mem::size_of::<T>() + 1)
}

/// The bytes a hash table of `len` entries of `T` holds after its next
/// insertion, counting the table that a growth copies from: what to
/// charge before inserting.
pub(crate) fn table_bytes_after_insert<T>(len: usize, capacity: usize) -> usize {
    if len < capacity {
        table_bytes::<T>(capacity)
    } else {
        let grown = table_bytes::<T>((capacity.max(3)).saturating_mul(2));
        grown.saturating_add(table_bytes::<T>(capacity))
    }
}

/// The bytes a `Vec` of `len` elements of `T` holds after its next push,
/// counting the buffer that a growth copies from.
pub(crate) fn vec_bytes_after_push<T>(len: usize, capacity: usize) -> usize {
    if len < capacity {
        vec_bytes::<T>(capacity)
    } else {
        vec_bytes::<T>(capacity.saturating_mul(2).max(4)).saturating_add(vec_bytes::<T>(capacity))
    }
}

/// Formats a byte count as the command line reads it: `1G`, `512M`,
/// `64K`, or bytes.
///
/// ```ignore
/// assert_eq!(format_bytes(1 << 30), "1 GiB");
/// ```
pub(crate) fn format_bytes(bytes: usize) -> String {
    const UNITS: [(&str, u32); 4] = [("TiB", 40), ("GiB", 30), ("MiB", 20), ("KiB", 10)];
    for (name, shift) in UNITS {
        let unit = 1usize << shift;
        if bytes >= unit && bytes % unit == 0 {
            return format!("{} {name}", bytes >> shift);
        }
    }
    for (name, shift) in UNITS {
        let unit = 1usize << shift;
        if bytes >= unit {
            return format!("{:.1} {name}", bytes as f64 / unit as f64);
        }
    }
    format!("{bytes} bytes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accounts_charge_and_release() {
        let b = Budget::new(1000);
        let mut a = b.account();
        assert!(a.set(600));
        let mut c = b.account();
        assert!(!c.set(500), "600 + 500 is over 1000");
        assert!(b.exceeded());
        assert_eq!(b.used(), 600);
        assert!(c.set(400));
        assert!(a.set(100));
        assert_eq!(b.used(), 500);
        let d = c.clone();
        assert_eq!(b.used(), 900);
        drop(d);
        drop(c);
        assert_eq!(b.used(), 100);
        drop(a);
        assert_eq!(b.used(), 0);
    }

    #[test]
    fn table_bytes_follow_hashbrown() {
        // hashbrown grows when full: the charge before an insertion into
        // a full table covers both tables.
        let mut m: rustc_hash::FxHashMap<u64, u64> = Default::default();
        for i in 0..10_000u64 {
            let before = table_bytes_after_insert::<(u64, u64)>(m.len(), m.capacity());
            m.insert(i, i);
            assert!(table_bytes::<(u64, u64)>(m.capacity()) <= before);
        }
        assert_eq!(table_bytes::<(u64, u64)>(m.capacity()), 16384 * 17);
    }

    #[test]
    fn bytes_read_as_written() {
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_bytes(64 << 20), "64 MiB");
        assert_eq!(format_bytes(1536 << 20), "1536 MiB");
        assert_eq!(format_bytes(1000), "1000 bytes");
        assert_eq!(format_bytes(1500), "1.5 KiB");
    }
}
