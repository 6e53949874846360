//! Numbering distinct values in order of first appearance (states of
//! products and subset constructions, past memories).

use std::hash::Hash;

use rustc_hash::FxHashMap;

/// Gives each distinct value a number `0, 1, 2, …` in order of first
/// appearance, and the value back from its number.
#[derive(Clone, Debug)]
pub(crate) struct Interner<K> {
    keys: Vec<K>,
    index: FxHashMap<K, u32>,
}

impl<K> Default for Interner<K> {
    fn default() -> Self {
        Interner {
            keys: Vec::new(),
            index: FxHashMap::default(),
        }
    }
}

impl<K: Hash + Eq + Clone> Interner<K> {
    /// The number of `key`, giving it the next one if it is new.
    pub fn intern(&mut self, key: K) -> u32 {
        if let Some(&i) = self.index.get(&key) {
            return i;
        }
        let i = u32::try_from(self.keys.len()).expect("fewer than 2^32 values");
        self.index.insert(key.clone(), i);
        self.keys.push(key);
        i
    }

    /// The number of `key`, if it has one.
    pub fn get_index(&self, key: &K) -> Option<u32> {
        self.index.get(key).copied()
    }

    /// The value numbered `i`.
    pub fn get(&self, i: u32) -> &K {
        &self.keys[i as usize]
    }

    /// How many values have a number.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// The bytes of the list and the index after one more value, the
    /// buffers a growth copies from included (values' own heap apart).
    pub fn bytes_after_insert(&self) -> usize {
        crate::budget::vec_bytes_after_push::<K>(self.keys.len(), self.keys.capacity())
            + crate::budget::table_bytes_after_insert::<(K, u32)>(
                self.index.len(),
                self.index.capacity(),
            )
    }
}
