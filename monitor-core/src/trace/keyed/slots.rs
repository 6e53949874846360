//! The table of live keys: from a key's hash (and bytes, which the caller
//! compares) to its slot.
//!
//! Why not `hashbrown`: an event of an interleaved log looks its key up
//! once, and at 10^5 keys and more every lookup misses the caches — the
//! table's control bytes, its bucket, then the key's bytes, then its
//! record, each load waiting for the one before. The chunked reading
//! knows the hashes of the next events before it steps them (their
//! digest is computed ahead, on other cores), so the loads of an event
//! can be started some events earlier: the bucket of an event far ahead
//! ([`SlotTable::prefetch`]), then, once it has arrived, the slot it
//! names, whose record and key the caller fetches ([`SlotTable::peek`]).
//! `hashbrown` does not say where a hash's bucket is; this table does:
//! linear probing over buckets of a 32-bit tag (the hash's low bits, whose
//! low bits again are the home bucket) and a slot, eight to a cache line.

/// A bucket: the low 32 bits of its key's hash, and the key's slot
/// ([`EMPTY`] for an empty bucket).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Bucket {
    tag: u32,
    slot: u32,
}

/// The slot of an empty bucket (no key has it: slots are `u32` indices
/// of vectors of records, which would not fit memory first).
const EMPTY: u32 = u32::MAX;

const EMPTY_BUCKET: Bucket = Bucket {
    tag: 0,
    slot: EMPTY,
};

/// Slots of keys found by hash, with linear probing and deletion by
/// backward shift (no tombstones: a table whose keys come and go, as keys
/// closed by `--end-key` do, keeps short probes).
#[derive(Default)]
pub(super) struct SlotTable {
    /// A power of two of buckets (or none before the first insertion).
    buckets: Vec<Bucket>,
    len: usize,
}

impl SlotTable {
    fn mask(&self) -> usize {
        self.buckets.len().wrapping_sub(1)
    }

    /// The home bucket of a tag.
    fn home(&self, tag: u32) -> usize {
        tag as usize & self.mask()
    }

    /// The slot of the key whose hash is `hash` and for whose slot `is`
    /// holds (the caller compares the key's bytes).
    pub(super) fn find(&self, hash: u64, mut is: impl FnMut(u32) -> bool) -> Option<u32> {
        if self.buckets.is_empty() {
            return None;
        }
        let tag = hash as u32;
        let mask = self.mask();
        let mut i = self.home(tag);
        loop {
            let b = self.buckets[i];
            if b.slot == EMPTY {
                return None;
            }
            if b.tag == tag && is(b.slot) {
                return Some(b.slot);
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of the first key whose hash agrees with `hash` in its tag:
    /// a hint of where that key's record is (another key's, rarely), for
    /// [`prefetch`].
    pub(super) fn peek(&self, hash: u64) -> Option<u32> {
        self.find(hash, |_| true)
    }

    /// Starts loading the bucket where a lookup of `hash` starts.
    pub(super) fn prefetch(&self, hash: u64) {
        if let Some(b) = self.buckets.get(self.home(hash as u32)) {
            prefetch(b);
        }
    }

    /// Adds the key of `hash` in `slot` (the caller knows it is absent).
    pub(super) fn insert(&mut self, hash: u64, slot: u32) {
        debug_assert_ne!(slot, EMPTY);
        // At most three quarters full, so that probes stay short.
        if (self.len + 1) * 4 > self.buckets.len() * 3 {
            self.grow();
        }
        self.place(Bucket {
            tag: hash as u32,
            slot,
        });
        self.len += 1;
    }

    fn place(&mut self, b: Bucket) {
        let mask = self.mask();
        let mut i = self.home(b.tag);
        while self.buckets[i].slot != EMPTY {
            i = (i + 1) & mask;
        }
        self.buckets[i] = b;
    }

    fn grow(&mut self) {
        let n = (self.buckets.len() * 2).max(16);
        let old = std::mem::replace(&mut self.buckets, vec![EMPTY_BUCKET; n]);
        for b in old.into_iter().filter(|b| b.slot != EMPTY) {
            self.place(b);
        }
    }

    /// Removes the key of `hash` in `slot`; whether it was there.
    pub(super) fn remove(&mut self, hash: u64, slot: u32) -> bool {
        if self.buckets.is_empty() {
            return false;
        }
        let tag = hash as u32;
        let mask = self.mask();
        let mut hole = self.home(tag);
        loop {
            let b = self.buckets[hole];
            if b.slot == EMPTY {
                return false;
            }
            if b == (Bucket { tag, slot }) {
                break;
            }
            hole = (hole + 1) & mask;
        }
        // Backward shift: each later bucket of the run moves into the hole
        // unless its home lies cyclically after the hole (then it would
        // be found before its home, and lost).
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let b = self.buckets[j];
            if b.slot == EMPTY {
                break;
            }
            let home = self.home(b.tag);
            let stays = if hole <= j {
                hole < home && home <= j
            } else {
                hole < home || home <= j
            };
            if !stays {
                self.buckets[hole] = b;
                hole = j;
            }
        }
        self.buckets[hole] = EMPTY_BUCKET;
        self.len -= 1;
        true
    }

    /// Forgets every key (keeps the memory).
    pub(super) fn clear(&mut self) {
        self.buckets.fill(EMPTY_BUCKET);
        self.len = 0;
    }

    /// How many keys there are.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }
}

/// Starts loading the cache line of `x` (a hint: it changes no value, and
/// does nothing off x86-64).
#[inline(always)]
pub(super) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing the program sees and never faults
    // (any address may be prefetched; this one is a live reference), and
    // SSE, which it needs, is in every x86-64 processor.
    unsafe {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((x as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::HashMap;

    #[derive(Debug, Clone)]
    enum Op {
        Insert(u64),
        Remove(usize),
    }

    fn op() -> impl Strategy<Value = Op> {
        // Hashes from a small set, many with equal home buckets and tags,
        // so that runs wrap around the table's end and collide.
        let hash = prop_oneof![
            0u64..64,
            (0u64..8).prop_map(|h| h << 32 | 7),
            (0u64..8).prop_map(|h| 0xffff_fff0 + h),
            any::<u64>(),
        ];
        prop_oneof![3 => hash.prop_map(Op::Insert), 2 => any::<usize>().prop_map(Op::Remove)]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The table finds each key's slot as a map from slot to hash
        /// does (the reference), whatever the insertions and removals.
        #[test]
        fn slots_are_found_as_a_map_finds_them(ops in proptest::collection::vec(op(), 0..200)) {
            let mut table = SlotTable::default();
            let mut reference: HashMap<u32, u64> = HashMap::new();
            let mut next = 0u32;
            for op in ops {
                match op {
                    Op::Insert(hash) => {
                        table.insert(hash, next);
                        reference.insert(next, hash);
                        next += 1;
                    }
                    Op::Remove(i) => {
                        let mut live: Vec<_> = reference.iter().map(|(&s, &h)| (s, h)).collect();
                        live.sort();
                        if let Some(&(slot, hash)) = live.get(i % live.len().max(1)) {
                            prop_assert!(table.remove(hash, slot));
                            reference.remove(&slot);
                        }
                        prop_assert!(!table.remove(i as u64, EMPTY - 1));
                    }
                }
                prop_assert_eq!(table.len(), reference.len());
                for (&slot, &hash) in &reference {
                    prop_assert_eq!(table.find(hash, |s| s == slot), Some(slot));
                    prop_assert!(table.peek(hash).is_some());
                    table.prefetch(hash);
                }
                prop_assert_eq!(table.find(u64::MAX - 1, |s| !reference.contains_key(&s)), None);
            }
            table.clear();
            prop_assert_eq!(table.len(), 0);
            for (&slot, &hash) in &reference {
                prop_assert_eq!(table.find(hash, |s| s == slot), None);
            }
        }
    }
}
