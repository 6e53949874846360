//! Transition-based generalized Büchi automata with BDD guards.

use std::fmt;

use crate::dd::{Manager, Node};

/// A set of acceptance marks: a bit set whose first 64 marks are stored
/// inline (no allocation in the common case).
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Marks {
    low: u64,
    /// Words for marks 64 and up, without trailing zero words.
    high: Vec<u64>,
}

impl Marks {
    /// The empty set.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// assert!(Marks::empty().is_empty());
    /// assert_eq!(Marks::empty(), Marks::all(0));
    /// ```
    pub fn empty() -> Marks {
        Marks::default()
    }

    fn word(&self, w: usize) -> u64 {
        if w == 0 {
            self.low
        } else {
            self.high.get(w - 1).copied().unwrap_or(0)
        }
    }

    fn words(&self) -> usize {
        1 + self.high.len()
    }

    /// The bytes the set holds beyond its own size (for byte budgets).
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::budget::vec_bytes::<u64>(self.high.capacity())
    }

    fn from_words(words: impl IntoIterator<Item = u64>) -> Marks {
        let mut it = words.into_iter();
        let low = it.next().unwrap_or(0);
        let mut high: Vec<u64> = it.collect();
        while high.last() == Some(&0) {
            high.pop();
        }
        Marks { low, high }
    }

    /// The set `{0, …, n-1}`.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// assert_eq!(Marks::all(3).iter().collect::<Vec<_>>(), [0, 1, 2]);
    /// assert!(Marks::all(70).contains(69) && !Marks::all(70).contains(70));
    /// ```
    pub fn all(n: usize) -> Marks {
        Marks::from_words((0..n.div_ceil(64).max(1)).map(|w| {
            let bits = n.saturating_sub(w * 64).min(64);
            if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            }
        }))
    }

    /// Adds mark `i`.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// let mut m = Marks::empty();
    /// m.insert(2);
    /// m.insert(100);
    /// assert_eq!(m.iter().collect::<Vec<_>>(), [2, 100]);
    /// ```
    pub fn insert(&mut self, i: usize) {
        let w = i / 64;
        if w == 0 {
            self.low |= 1 << i;
        } else {
            if self.high.len() < w {
                self.high.resize(w, 0);
            }
            self.high[w - 1] |= 1 << (i % 64);
        }
    }

    /// Whether mark `i` is in the set.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// let mut m = Marks::empty();
    /// m.insert(65);
    /// assert!(m.contains(65) && !m.contains(1));
    /// ```
    pub fn contains(&self, i: usize) -> bool {
        self.word(i / 64) >> (i % 64) & 1 == 1
    }

    /// Adds every mark of `other`.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// let mut m = Marks::all(2);
    /// m.union_with(&Marks::all(1).shifted(80));
    /// assert_eq!(m.iter().collect::<Vec<_>>(), [0, 1, 80]);
    /// ```
    pub fn union_with(&mut self, other: &Marks) {
        self.low |= other.low;
        if !other.high.is_empty() {
            if self.high.len() < other.high.len() {
                self.high.resize(other.high.len(), 0);
            }
            for (a, b) in self.high.iter_mut().zip(&other.high) {
                *a |= b;
            }
        }
    }

    /// The marks of `self` not in `other`.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// let rest = Marks::all(4).difference(&Marks::all(2));
    /// assert_eq!(rest.iter().collect::<Vec<_>>(), [2, 3]);
    /// ```
    pub fn difference(&self, other: &Marks) -> Marks {
        if self.high.is_empty() {
            return Marks {
                low: self.low & !other.low,
                high: Vec::new(),
            };
        }
        Marks::from_words((0..self.words()).map(|w| self.word(w) & !other.word(w)))
    }

    /// Whether every mark of `other` is in `self`.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// assert!(Marks::all(3).is_superset(&Marks::all(2)));
    /// assert!(!Marks::all(2).is_superset(&Marks::all(3)));
    /// assert!(Marks::empty().is_superset(&Marks::empty()));
    /// ```
    pub fn is_superset(&self, other: &Marks) -> bool {
        (0..other.words()).all(|w| other.word(w) & !self.word(w) == 0)
    }

    /// Whether the set has no mark.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// assert!(Marks::empty().is_empty());
    /// assert!(Marks::all(5).difference(&Marks::all(5)).is_empty());
    /// assert!(!Marks::all(1).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.low == 0 && self.high.is_empty()
    }

    /// The marks, in increasing order.
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// let mut m = Marks::all(2);
    /// m.insert(64);
    /// assert_eq!(m.iter().collect::<Vec<_>>(), [0, 1, 64]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.words()).flat_map(move |w| {
            let bits = self.word(w);
            (0..64)
                .filter(move |b| bits >> b & 1 == 1)
                .map(move |b| w * 64 + b)
        })
    }

    /// The marks shifted up by `by` (for products of automata).
    ///
    /// ```
    /// # use monitor_core::automaton::Marks;
    /// // The marks of a product's second automaton follow the first's two.
    /// assert_eq!(Marks::all(2).shifted(2).iter().collect::<Vec<_>>(), [2, 3]);
    /// assert!(Marks::empty().shifted(5).is_empty());
    /// ```
    pub fn shifted(&self, by: usize) -> Marks {
        let mut m = Marks::empty();
        for i in self.iter() {
            m.insert(i + by);
        }
        m
    }
}

impl fmt::Debug for Marks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// An edge of an [`Nba`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NbaEdge {
    /// The letters that take the edge (a BDD of the automaton's manager).
    pub guard: Node,
    /// The target state.
    pub dst: u32,
    /// The acceptance sets the edge belongs to.
    pub marks: Marks,
}

/// A transition-based generalized Büchi automaton: a run is accepting if
/// it takes edges of every acceptance set `0..num_marks` infinitely often.
/// Guards are BDDs of an external [`Manager`].
#[derive(Clone, Debug, Default)]
pub struct Nba {
    /// Edges leaving each state.
    pub states: Vec<Vec<NbaEdge>>,
    /// The initial state (`None` for the automaton with no state, whose
    /// language is empty).
    pub init: Option<u32>,
    /// The number of acceptance sets.
    pub num_marks: usize,
}

/// The bytes of the edges of one state: the list and its marks (for byte
/// budgets).
pub(crate) fn edges_bytes(edges: &Vec<NbaEdge>) -> usize {
    crate::budget::vec_bytes::<NbaEdge>(edges.capacity())
        + edges.iter().map(|e| e.marks.heap_bytes()).sum::<usize>()
}

impl Nba {
    /// The bytes the automaton holds (for byte budgets).
    pub(crate) fn heap_bytes(&self) -> usize {
        crate::budget::vec_bytes::<Vec<NbaEdge>>(self.states.capacity())
            + self.states.iter().map(edges_bytes).sum::<usize>()
    }

    /// The number of states.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// assert_eq!(stage.nba().len(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether there is no state.
    ///
    /// ```
    /// # use monitor_core::automaton::Nba;
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// assert!(Nba::default().is_empty());
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// assert!(!stage.nba().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The number of edges.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::{stages::NbaStage, Config};
    /// // Waiting: `p` loops, `q` leaves; done: `true` loops.
    /// let stage = NbaStage::build(&parse("p U q")?, &Config::new())?;
    /// assert_eq!(stage.nba().num_edges(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_edges(&self) -> usize {
        self.states.iter().map(Vec::len).sum()
    }

    /// Merges the parallel edges of each state that have the same target
    /// and marks (their guards are OR-ed), and drops false guards.
    ///
    /// ```
    /// # use monitor_core::automaton::{Marks, Nba, NbaEdge};
    /// # use monitor_core::dd::{Manager, Node};
    /// # let mut mgr = Manager::new();
    /// # let (a, b) = (mgr.var(0), mgr.var(1));
    /// # let loop_on = |guard| NbaEdge { guard, dst: 0, marks: Marks::empty() };
    /// // One state with loops on `a`, on `b` and on `false`.
    /// let loops = vec![loop_on(a), loop_on(b), loop_on(Node::FALSE)];
    /// let mut nba = Nba { states: vec![loops], init: Some(0), num_marks: 0 };
    /// nba.merge_parallel_edges(&mut mgr);
    /// assert_eq!(nba.num_edges(), 1);
    /// assert_eq!(nba.states[0][0].guard, mgr.or(a, b));
    /// ```
    pub fn merge_parallel_edges(&mut self, mgr: &mut Manager) {
        for edges in &mut self.states {
            let mut merged: Vec<NbaEdge> = Vec::with_capacity(edges.len());
            let mut index: rustc_hash::FxHashMap<(u32, Marks), usize> = Default::default();
            for e in edges.drain(..) {
                if e.guard == Node::FALSE {
                    continue;
                }
                match index.get(&(e.dst, e.marks.clone())) {
                    Some(&i) => merged[i].guard = mgr.or(merged[i].guard, e.guard),
                    None => {
                        index.insert((e.dst, e.marks.clone()), merged.len());
                        merged.push(e);
                    }
                }
            }
            *edges = merged;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_operations() {
        let all = Marks::all(70);
        assert!(all.contains(69) && !all.contains(70));
        let mut m = Marks::empty();
        m.insert(3);
        m.insert(65);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![3, 65]);
        let rest = all.difference(&m);
        assert!(!rest.contains(3) && rest.contains(4));
        let mut u = rest.clone();
        u.union_with(&m);
        assert_eq!(u, all);
        assert!(all.is_superset(&m) && !m.is_superset(&all));
        assert_eq!(m.shifted(1).iter().collect::<Vec<_>>(), vec![4, 66]);
        assert!(Marks::all(0).is_empty());
        assert_eq!(Marks::all(64).iter().count(), 64);
    }
}
