//! Decision diagrams: BDDs for guards, multi-terminal BDDs for transition
//! functions, in one hash-consed node store.
//!
//! Every edge label of every automaton is a BDD over the atomic
//! propositions (variable `i` is proposition `i`; variable 0 is tested
//! first). A *multi-terminal* diagram (MTBDD) has `u32` leaves instead of
//! `0`/`1`; the automata use them for transition functions: the diagram of
//! a deterministic state maps each letter to a successor (a leaf), so one
//! diagram replaces the 2^|AP| letters of an explicit table. Because both
//! kinds share the store, a guard is simply the diagram whose leaves are
//! 0 and 1 (`Node::FALSE`, `Node::TRUE`), and equal functions are equal
//! node numbers, which makes diagrams usable as hash keys (the subset
//! construction and the minimizer rely on this).
//!
//! Why not a BDD crate: the constructions need MTBDDs whose leaf
//! combination is an arbitrary caller-supplied function (union of interned
//! state sets, renaming by partition classes) sharing nodes with the
//! guards. `biodivine-lib-bdd` has no MTBDDs and stores each BDD in its own
//! vector (equality is a structural comparison), and `oxidd`'s MTBDDs have
//! a fixed terminal algebra; so this module is a small classic
//! implementation (unique table, memoized `ite` and `apply`) of what they
//! lack.
//!
//! ```
//! use monitor_core::dd::{Manager, Node};
//!
//! let mut m = Manager::new();
//! let (a, b) = (m.var(0), m.var(1));
//! let f = m.and(a, b);
//! let g = m.not(f);
//! assert_eq!(m.or(f, g), Node::TRUE);
//! let a_or_b = m.or(a, b);
//! assert_eq!(m.isop(a_or_b), vec![vec![(0, true)], vec![(1, true)]]);
//! // A transition function: a -> state 7, !a -> state 9.
//! let (s7, s9) = (m.leaf(7), m.leaf(9));
//! let t = m.ite(a, s7, s9);
//! assert_eq!(m.eval_leaf(t, &0b01u64), 7);
//! assert_eq!(m.leaf_guard(t, 9), m.not(a));
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use rustc_hash::FxHashMap;

use crate::budget::{table_bytes, table_bytes_after_insert, vec_bytes, Account, Budget};

use crate::Valuation;

/// A set of visited nodes for one traversal: a stamp per node index, with
/// a generation number so that starting a traversal costs nothing. Kept
/// per thread (not in the manager) so that managers stay `Sync`.
pub(crate) struct Visited<'a> {
    stamps: &'a mut Vec<u32>,
    generation: u32,
}

impl Visited<'_> {
    /// Marks `n`; true if it was not marked yet.
    pub(crate) fn insert(&mut self, n: Node) -> bool {
        let i = n.0 as usize;
        if i >= self.stamps.len() {
            self.stamps.resize(i + 1, 0);
        }
        if self.stamps[i] == self.generation {
            false
        } else {
            self.stamps[i] = self.generation;
            true
        }
    }
}

thread_local! {
    static STAMPS: RefCell<(Vec<u32>, u32)> = const { RefCell::new((Vec::new(), 0)) };
}

/// Runs `f` with an empty visited set.
pub(crate) fn with_visited<R>(f: impl FnOnce(&mut Visited<'_>) -> R) -> R {
    STAMPS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut guard) => {
            let (stamps, generation) = &mut *guard;
            *generation = generation.wrapping_add(1);
            if *generation == 0 {
                stamps.iter_mut().for_each(|s| *s = 0);
                *generation = 1;
            }
            let generation = *generation;
            f(&mut Visited { stamps, generation })
        }
        // A traversal inside another one: use a private set.
        Err(_) => {
            let mut stamps = Vec::new();
            f(&mut Visited {
                stamps: &mut stamps,
                generation: 1,
            })
        }
    })
}

/// A node of a [`Manager`]: a BDD or an MTBDD, depending on its leaves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Node(u32);

impl Node {
    /// The constant false (also the leaf 0).
    pub const FALSE: Node = Node(0);
    /// The constant true (also the leaf 1).
    pub const TRUE: Node = Node(1);

    /// The node's index in its manager.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// assert_eq!((Node::FALSE.index(), Node::TRUE.index()), (0, 1));
    /// let mut m = Manager::new();
    /// assert_eq!(m.var(0).index(), 2); // the first node after the two leaves
    /// ```
    pub fn index(self) -> u32 {
        self.0
    }
}

/// A cube: a conjunction of literals `(variable, polarity)`, sorted by variable.
pub type Cube = Vec<(u32, bool)>;

const TERMINAL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct NodeData {
    var: u32,
    lo: u32,
    hi: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum BinOp {
    And,
    Or,
    Xor,
}

/// A cover of [`Manager::isop_between`] as the recursion finds it, with
/// its sub-covers shared: copying them into each level's list of cubes
/// made the cover of `!p0 | … | !pn` quadratic in time and memory.
enum Cover {
    /// No cube.
    Empty,
    /// One empty cube (`true`).
    One,
    /// The cubes of `c0` with `!var` put first, those of `c1` with `var`,
    /// then those of `cs`.
    Split {
        var: u32,
        c0: Rc<Cover>,
        c1: Rc<Cover>,
        cs: Rc<Cover>,
    },
}

impl Cover {
    /// Appends the cubes, each after the literals of `prefix`.
    fn flatten(&self, prefix: &mut Cube, out: &mut Vec<Cube>) {
        match self {
            Cover::Empty => {}
            Cover::One => out.push(prefix.clone()),
            Cover::Split { var, c0, c1, cs } => {
                prefix.push((*var, false));
                c0.flatten(prefix, out);
                prefix.pop();
                prefix.push((*var, true));
                c1.flatten(prefix, out);
                prefix.pop();
                cs.flatten(prefix, out);
            }
        }
    }
}

/// The number of cubes and of literals of a cover, counted on its shared
/// form (saturating: a cover can have `2^64` cubes).
fn cover_size(c: &Rc<Cover>, memo: &mut FxHashMap<*const Cover, (u64, u64)>) -> (u64, u64) {
    match **c {
        Cover::Empty => (0, 0),
        Cover::One => (1, 0),
        Cover::Split {
            ref c0,
            ref c1,
            ref cs,
            ..
        } => {
            if let Some(&r) = memo.get(&Rc::as_ptr(c)) {
                return r;
            }
            let (n0, l0) = cover_size(c0, memo);
            let (n1, l1) = cover_size(c1, memo);
            let (ns, ls) = cover_size(cs, memo);
            let r = (
                n0.saturating_add(n1).saturating_add(ns),
                l0.saturating_add(n0)
                    .saturating_add(l1)
                    .saturating_add(n1)
                    .saturating_add(ls),
            );
            memo.insert(Rc::as_ptr(c), r);
            r
        }
    }
}

/// A store of hash-consed decision-diagram nodes with operation caches.
///
/// Nodes are never freed: a manager lives for one construction. Its
/// store, unique table and computed table are charged to the
/// construction's byte budget before they grow (see `budget.rs`); a
/// growth the budget refuses stops the store for good, as the node limit
/// of [`Manager::guarded`] does for a while.
#[derive(Clone, Debug)]
pub struct Manager {
    nodes: Vec<NodeData>,
    unique: FxHashMap<NodeData, u32>,
    /// The bytes of `nodes`, `unique` and `computed`, in the budget of the
    /// construction (unlimited for a manager made by [`Manager::new`]).
    account: Account,
    /// Set when the budget refused a growth, never cleared: every result
    /// from then on is wrong, and the construction fails.
    exhausted: bool,
    /// The results of `not`, `and`/`or`/`xor` and `ite`, in one lossy
    /// table (see [`Computed`]).
    computed: Computed,
    /// The most nodes [`Manager::guarded`] allows; beyond it, new nodes
    /// are refused and `overflow` is set.
    node_limit: usize,
    overflow: bool,
}

/// A lossy memo of operation results, as in CUDD's computed table: a
/// direct-mapped array where a new result overwrites the old one in its
/// slot. Its memory is bounded (it grows with the node store, up to
/// [`Computed::MAX_BITS`]), and a lost entry costs only a recomputation,
/// where a map keeping every result can grow with the square of the
/// diagrams (combining a variable with a diagram that tests it deep
/// down, as the derivatives of `G(a -> F[0:k] b)` do `k` times).
#[derive(Clone, Debug)]
struct Computed {
    /// `(op, a, b, c, result)`; `result == NONE` marks an empty slot.
    slots: Vec<[u32; 5]>,
    bits: u32,
}

const NONE: u32 = u32::MAX;

impl Computed {
    const MIN_BITS: u32 = 12;
    const MAX_BITS: u32 = 22;

    fn new() -> Computed {
        Computed {
            slots: vec![[0, 0, 0, 0, NONE]; 1 << Self::MIN_BITS],
            bits: Self::MIN_BITS,
        }
    }

    #[inline]
    fn slot(&self, key: [u32; 4]) -> usize {
        let h = (u64::from(key[0]) << 32 | u64::from(key[1])).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ (u64::from(key[2]) << 32 | u64::from(key[3])).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    #[inline]
    fn get(&self, key: [u32; 4]) -> Option<u32> {
        let e = &self.slots[self.slot(key)];
        (e[4] != NONE && e[..4] == key).then_some(e[4])
    }

    #[inline]
    fn insert(&mut self, key: [u32; 4], result: u32) {
        let i = self.slot(key);
        self.slots[i] = [key[0], key[1], key[2], key[3], result];
    }

    /// Grows to about one slot per node, keeping the results.
    fn fit(&mut self, nodes: usize) {
        if nodes > self.slots.len() && self.bits < Self::MAX_BITS {
            let mut grown = Computed {
                slots: vec![[0, 0, 0, 0, NONE]; 1 << (self.bits + 1)],
                bits: self.bits + 1,
            };
            for e in &self.slots {
                if e[4] != NONE {
                    grown.insert([e[0], e[1], e[2], e[3]], e[4]);
                }
            }
            *self = grown;
        }
    }

    fn clear(&mut self) {
        self.slots.fill([0, 0, 0, 0, NONE]);
    }

    fn bytes(&self) -> usize {
        vec_bytes::<[u32; 5]>(self.slots.len())
    }

    /// Whether [`Computed::fit`] would grow the table for `nodes` nodes.
    fn wants_growth(&self, nodes: usize) -> bool {
        nodes > self.slots.len() && self.bits < Self::MAX_BITS
    }
}

/// Operation codes of the computed table.
const OP_NOT: u32 = 0;
const OP_ITE: u32 = 1;
const OP_BIN: u32 = 2;

impl Default for Manager {
    fn default() -> Self {
        Manager::new()
    }
}

/// A memo for [`Manager::apply2`] and [`Manager::map_leaves`]: valid as
/// long as the leaf function it was used with does not change. It grows
/// in the byte budget of the manager it is used with (a memo of the
/// unions of a subset construction can outgrow the diagrams).
///
/// ```
/// # use monitor_core::dd::{ApplyCache, Manager};
/// let mut m = Manager::new();
/// let (a, s7) = (m.var(0), m.leaf(7));
/// let t = m.ite(a, s7, s7);
/// let mut cache = ApplyCache::default();
/// assert_eq!(m.map_leaves(t, &mut cache, &mut |v| v + 1), m.leaf(8));
/// ```
#[derive(Debug, Default)]
pub struct ApplyCache {
    map: FxHashMap<(u32, u32), u32>,
    /// Charged from the first growth on, in the budget of the manager.
    account: Option<Account>,
}

impl ApplyCache {
    /// Forgets every result (the memory stays, for the next ones).
    ///
    /// ```
    /// # use monitor_core::dd::{ApplyCache, Manager};
    /// let mut m = Manager::new();
    /// let (a, s7, s9) = (m.var(0), m.leaf(7), m.leaf(9));
    /// let t = m.ite(a, s7, s9);
    /// let mut cache = ApplyCache::default();
    /// let u = m.map_leaves(t, &mut cache, &mut |v| v + 1);
    /// cache.clear();
    /// // Another function: the old results must not be read back.
    /// assert_ne!(m.map_leaves(t, &mut cache, &mut |v| v + 2), u);
    /// ```
    pub fn clear(&mut self) {
        self.map.clear();
    }

    /// How many results the memo has room for (clearing costs that much).
    pub(crate) fn capacity(&self) -> usize {
        self.map.capacity()
    }

    fn get(&self, key: &(u32, u32)) -> Option<&u32> {
        self.map.get(key)
    }
}

impl Manager {
    /// An empty manager (holding only the leaves 0 and 1).
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// assert_eq!(m.len(), 2);
    /// assert_eq!((m.leaf(0), m.leaf(1)), (Node::FALSE, Node::TRUE));
    /// ```
    pub fn new() -> Manager {
        Manager::with_budget(Budget::unlimited())
    }

    /// An empty manager whose structures grow in `budget`.
    pub(crate) fn with_budget(budget: Budget) -> Manager {
        let mut m = Manager {
            nodes: Vec::new(),
            unique: FxHashMap::default(),
            account: budget.account(),
            exhausted: false,
            computed: Computed::new(),
            node_limit: usize::MAX,
            overflow: false,
        };
        // The computed table's first slots and the two leaves, which
        // every diagram needs: held whatever the budget, which a budget
        // too small for them (a few KiB) marks as exceeded, so that the
        // construction fails with the memory error at its first check
        // instead of the manager asserting here.
        for value in [0, 1] {
            let d = NodeData {
                var: TERMINAL,
                lo: value,
                hi: 0,
            };
            m.unique.insert(d, value);
            m.nodes.push(d);
        }
        m.exhausted = !m.account.set(m.store_bytes());
        m
    }

    /// The budget the manager's structures grow in.
    pub(crate) fn budget(&self) -> &Budget {
        self.account.budget()
    }

    /// Moves the manager's structures out of its budget, into an
    /// unlimited one (for work bounded by what is already built).
    pub(crate) fn lift_budget(&mut self) {
        debug_assert!(!self.exhausted());
        let mut account = Budget::unlimited().account();
        account.set(self.store_bytes());
        self.account = account;
    }

    /// Moves the manager's structures back into a budget of `limit` bytes
    /// (after [`Manager::lift_budget`]); `false`, the manager left as it
    /// was, when that budget cannot hold them.
    pub(crate) fn impose_budget(&mut self, limit: usize) -> bool {
        let mut account = Budget::new(limit).account();
        if !account.try_set(self.store_bytes()) {
            return false;
        }
        self.account = account;
        true
    }

    /// Whether the budget refused a growth (of this manager's structures
    /// or of any other structure of the construction): results computed
    /// since are wrong.
    pub(crate) fn exhausted(&self) -> bool {
        self.exhausted || self.budget().exceeded()
    }

    /// Whether the operations should stop at once: over the node limit of
    /// a guard, or out of budget. Their results are then discarded, so
    /// `FALSE` does.
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.overflow || self.exhausted
    }

    /// The bytes of the store, the unique table and the computed table.
    fn store_bytes(&self) -> usize {
        vec_bytes::<NodeData>(self.nodes.capacity())
            + table_bytes::<(NodeData, u32)>(self.unique.capacity())
            + self.computed.bytes()
    }

    /// Makes room for one more node if the budget allows it: charges the
    /// grown store and table, and the old buffers a reallocation copies
    /// from, before anything is allocated.
    fn make_room(&mut self) -> bool {
        let n = self.nodes.len();
        let full = n == self.nodes.capacity();
        let table_full = self.unique.len() >= self.unique.capacity();
        if !full && !table_full {
            return true;
        }
        let cap = self.nodes.capacity();
        let nodes = if full {
            vec_bytes::<NodeData>(cap.saturating_mul(2).max(1024)) + vec_bytes::<NodeData>(cap)
        } else {
            vec_bytes::<NodeData>(cap)
        };
        let table =
            table_bytes_after_insert::<(NodeData, u32)>(self.unique.len(), self.unique.capacity());
        if !self.account.set(nodes + table + self.computed.bytes()) {
            return false;
        }
        if full {
            self.nodes
                .reserve_exact(cap.saturating_mul(2).max(1024) - n);
        }
        if table_full {
            self.unique.reserve(self.unique.capacity().max(3));
        }
        self.account.set(self.store_bytes());
        true
    }

    /// Grows the computed table with the store if the budget allows it
    /// (it is a lossy memo: not growing costs only recomputations).
    fn fit_computed(&mut self) {
        if self.computed.wants_growth(self.nodes.len()) {
            let peak = self.store_bytes() + 2 * self.computed.bytes();
            if self.account.try_set(peak) {
                self.computed.fit(self.nodes.len());
            }
            self.account.set(self.store_bytes());
        }
    }

    /// Remembers `key -> value` in `cache` if the budget allows it to
    /// grow; otherwise stops the manager (a memo that cannot grow would
    /// make `apply2` exponential).
    fn remember(&mut self, cache: &mut ApplyCache, key: (u32, u32), value: u32) {
        let (len, cap) = (cache.map.len(), cache.map.capacity());
        if len >= cap {
            let budget = self.budget().clone();
            let account = cache.account.get_or_insert_with(|| budget.account());
            if !account.set(table_bytes_after_insert::<((u32, u32), u32)>(len, cap)) {
                self.exhausted = true;
                return;
            }
            cache.map.reserve(cap.max(3));
            account.set(table_bytes::<((u32, u32), u32)>(cache.map.capacity()));
        }
        cache.map.insert(key, value);
    }

    /// The number of nodes created so far.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let a = m.var(0);
    /// m.not(a);
    /// assert_eq!(m.len(), 4); // the leaves 0 and 1, `a`, `!a`
    /// ```
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether only the two constant leaves exist.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// assert!(m.is_empty());
    /// m.var(0);
    /// assert!(!m.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 2
    }

    fn data(&self, n: Node) -> NodeData {
        self.nodes[n.0 as usize]
    }

    fn intern(&mut self, d: NodeData) -> Node {
        if let Some(&i) = self.unique.get(&d) {
            return Node(i);
        }
        if self.nodes.len() >= self.node_limit || self.exhausted {
            // Refused: what is being computed is garbage from here on, and
            // `guarded` discards it.
            self.overflow = true;
            return Node::FALSE;
        }
        if !self.make_room() {
            // Out of budget: the construction fails (`exhausted`), and
            // until then operations stop at once (`overflow`).
            self.exhausted = true;
            self.overflow = true;
            return Node::FALSE;
        }
        let i = u32::try_from(self.nodes.len()).expect("decision diagram store overflow");
        self.nodes.push(d);
        self.fit_computed();
        self.unique.insert(d, i);
        Node(i)
    }

    /// The node testing variable `var` with children `lo` (var false) and
    /// `hi` (var true), reduced if both are equal.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// assert_eq!(m.mk(0, Node::FALSE, Node::TRUE), m.var(0));
    /// let s7 = m.leaf(7);
    /// assert_eq!(m.mk(3, s7, s7), s7); // reduced: no test of a variable that does not matter
    /// ```
    pub fn mk(&mut self, var: u32, lo: Node, hi: Node) -> Node {
        debug_assert!(var < TERMINAL);
        if lo == hi {
            return lo;
        }
        self.intern(NodeData {
            var,
            lo: lo.0,
            hi: hi.0,
        })
    }

    /// The leaf with value `value`.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// assert_eq!(m.leaf(1), Node::TRUE);
    /// let s7 = m.leaf(7);
    /// assert_eq!((m.leaf(7), m.leaf_value(s7)), (s7, Some(7)));
    /// ```
    pub fn leaf(&mut self, value: u32) -> Node {
        self.intern(NodeData {
            var: TERMINAL,
            lo: value,
            hi: 0,
        })
    }

    /// Whether `n` is a leaf.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (s7, a) = (m.leaf(7), m.var(0));
    /// assert!(m.is_leaf(s7));
    /// assert!(!m.is_leaf(a));
    /// ```
    pub fn is_leaf(&self, n: Node) -> bool {
        self.data(n).var == TERMINAL
    }

    /// The value of a leaf.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (s7, a) = (m.leaf(7), m.var(0));
    /// assert_eq!((m.leaf_value(s7), m.leaf_value(Node::TRUE)), (Some(7), Some(1)));
    /// assert_eq!(m.leaf_value(a), None);
    /// ```
    pub fn leaf_value(&self, n: Node) -> Option<u32> {
        let d = self.data(n);
        (d.var == TERMINAL).then_some(d.lo)
    }

    /// The variable tested by an inner node (`None` for leaves).
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let b = m.var(3);
    /// assert_eq!(m.var_of(b), Some(3));
    /// assert_eq!(m.var_of(Node::TRUE), None);
    /// ```
    pub fn var_of(&self, n: Node) -> Option<u32> {
        let d = self.data(n);
        (d.var != TERMINAL).then_some(d.var)
    }

    /// The (low, high) children of an inner node.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let a = m.var(0);
    /// assert_eq!(m.children(a), Some((Node::FALSE, Node::TRUE)));
    /// assert_eq!(m.children(Node::TRUE), None);
    /// ```
    pub fn children(&self, n: Node) -> Option<(Node, Node)> {
        let d = self.data(n);
        (d.var != TERMINAL).then_some((Node(d.lo), Node(d.hi)))
    }

    fn top(&self, n: Node) -> u32 {
        self.data(n).var
    }

    /// The cofactors of `n` with respect to `var` (which must not be below
    /// the top variable of `n`).
    fn cofactors(&self, n: Node, var: u32) -> (Node, Node) {
        let d = self.data(n);
        if d.var == var {
            (Node(d.lo), Node(d.hi))
        } else {
            (n, n)
        }
    }

    /// The cofactor of `n` where variable `var` has `value`.
    ///
    /// ```
    /// use monitor_core::dd::{Manager, Node};
    ///
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// assert_eq!(m.restrict(f, 0, true), b);
    /// assert_eq!(m.restrict(f, 1, false), Node::FALSE);
    /// ```
    pub fn restrict(&mut self, n: Node, var: u32, value: bool) -> Node {
        let mut memo = FxHashMap::default();
        self.restrict_memo(n, var, value, &mut memo)
    }

    fn restrict_memo(
        &mut self,
        n: Node,
        var: u32,
        value: bool,
        memo: &mut FxHashMap<Node, Node>,
    ) -> Node {
        let d = self.data(n);
        // Leaves (`TERMINAL`) and nodes below `var` do not depend on it.
        if d.var > var {
            return n;
        }
        if d.var == var {
            return Node(if value { d.hi } else { d.lo });
        }
        if let Some(&r) = memo.get(&n) {
            return r;
        }
        let lo = self.restrict_memo(Node(d.lo), var, value, memo);
        let hi = self.restrict_memo(Node(d.hi), var, value, memo);
        let r = self.mk(d.var, lo, hi);
        memo.insert(n, r);
        r
    }

    /// The BDD of variable `var`.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let b = m.var(1);
    /// assert!(m.eval(b, &0b10u64));
    /// assert!(!m.eval(b, &0b01u64));
    /// ```
    pub fn var(&mut self, var: u32) -> Node {
        self.mk(var, Node::FALSE, Node::TRUE)
    }

    /// The BDD of the negation of variable `var`.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (nb, b) = (m.nvar(1), m.var(1));
    /// assert_eq!(nb, m.not(b));
    /// assert!(m.eval(nb, &0b01u64));
    /// ```
    pub fn nvar(&mut self, var: u32) -> Node {
        self.mk(var, Node::TRUE, Node::FALSE)
    }

    /// The BDD of a literal.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// assert_eq!(m.literal(2, true), m.var(2));
    /// assert_eq!(m.literal(2, false), m.nvar(2));
    /// ```
    pub fn literal(&mut self, var: u32, positive: bool) -> Node {
        if positive {
            self.var(var)
        } else {
            self.nvar(var)
        }
    }

    /// The BDD of a cube.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let c = m.cube(&[(2, false), (0, true)]);
    /// let (a, nc) = (m.var(0), m.nvar(2));
    /// assert_eq!(c, m.and(a, nc));
    /// assert_eq!(m.as_cube(c), Some(vec![(0, true), (2, false)])); // sorted
    /// ```
    pub fn cube(&mut self, cube: &[(u32, bool)]) -> Node {
        let mut sorted = cube.to_vec();
        sorted.sort_unstable();
        let mut r = Node::TRUE;
        for &(v, pos) in sorted.iter().rev() {
            r = if pos {
                self.mk(v, Node::FALSE, r)
            } else {
                self.mk(v, r, Node::FALSE)
            };
        }
        r
    }

    /// Negation of a BDD: `a` has the leaves [`Node::TRUE`] and
    /// [`Node::FALSE`] only, not the multi-terminal leaves of transition
    /// diagrams (see [`Manager::leaf_guard`] to get a BDD from those).
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// let g = m.not(f);
    /// assert_eq!(m.not(g), f);
    /// assert_eq!(m.and(f, g), Node::FALSE);
    /// ```
    pub fn not(&mut self, a: Node) -> Node {
        match a {
            Node::TRUE => return Node::FALSE,
            Node::FALSE => return Node::TRUE,
            _ => {}
        }
        if self.stopped() {
            return Node::FALSE;
        }
        let key = [OP_NOT, a.0, 0, 0];
        if let Some(r) = self.computed.get(key) {
            return Node(r);
        }
        debug_assert!(
            !self.is_leaf(a),
            "Manager::not: a multi-terminal leaf is not a Boolean"
        );
        let d = self.data(a);
        let lo = self.not(Node(d.lo));
        let hi = self.not(Node(d.hi));
        let r = self.mk(d.var, lo, hi);
        self.computed.insert(key, r.0);
        r
    }

    fn bin(&mut self, op: BinOp, a: Node, b: Node) -> Node {
        // Terminal cases.
        match op {
            BinOp::And => {
                if a == Node::FALSE || b == Node::FALSE {
                    return Node::FALSE;
                }
                if a == Node::TRUE || a == b {
                    return b;
                }
                if b == Node::TRUE {
                    return a;
                }
            }
            BinOp::Or => {
                if a == Node::TRUE || b == Node::TRUE {
                    return Node::TRUE;
                }
                if a == Node::FALSE || a == b {
                    return b;
                }
                if b == Node::FALSE {
                    return a;
                }
            }
            BinOp::Xor => {
                if a == b {
                    return Node::FALSE;
                }
                if a == Node::FALSE {
                    return b;
                }
                if b == Node::FALSE {
                    return a;
                }
                if a == Node::TRUE {
                    return self.not(b);
                }
                if b == Node::TRUE {
                    return self.not(a);
                }
            }
        }
        if self.stopped() {
            return Node::FALSE;
        }
        // Commutative: normalize the key.
        let (a, b) = if a.0 <= b.0 { (a, b) } else { (b, a) };
        let key = [OP_BIN + op as u32, a.0, b.0, 0];
        if let Some(r) = self.computed.get(key) {
            return Node(r);
        }
        let v = self.top(a).min(self.top(b));
        let (a0, a1) = self.cofactors(a, v);
        let (b0, b1) = self.cofactors(b, v);
        let lo = self.bin(op, a0, b0);
        let hi = self.bin(op, a1, b1);
        let r = self.mk(v, lo, hi);
        self.computed.insert(key, r.0);
        r
    }

    /// Conjunction of BDDs.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// assert_eq!((m.eval(f, &0b11u64), m.eval(f, &0b01u64)), (true, false));
    /// assert_eq!(m.and(a, Node::TRUE), a);
    /// ```
    pub fn and(&mut self, a: Node, b: Node) -> Node {
        self.bin(BinOp::And, a, b)
    }

    /// Disjunction of BDDs.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, na) = (m.var(0), m.nvar(0));
    /// assert_eq!(m.or(a, na), Node::TRUE);
    /// assert_eq!(m.or(a, Node::FALSE), a);
    /// ```
    pub fn or(&mut self, a: Node, b: Node) -> Node {
        self.bin(BinOp::Or, a, b)
    }

    /// Exclusive or of BDDs.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.xor(a, b);
    /// assert_eq!((m.eval(f, &0b01u64), m.eval(f, &0b11u64)), (true, false));
    /// assert_eq!(m.xor(f, f), Node::FALSE);
    /// ```
    pub fn xor(&mut self, a: Node, b: Node) -> Node {
        self.bin(BinOp::Xor, a, b)
    }

    /// `a & !b`.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, nb) = (m.var(0), m.var(1), m.nvar(1));
    /// let f = m.diff(a, b);
    /// assert_eq!(f, m.and(a, nb));
    /// ```
    pub fn diff(&mut self, a: Node, b: Node) -> Node {
        let nb = self.not(b);
        self.and(a, nb)
    }

    /// Whether the BDD `a` implies the BDD `b`.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// assert!(m.implies(f, a));
    /// assert!(!m.implies(a, f));
    /// ```
    pub fn implies(&mut self, a: Node, b: Node) -> bool {
        self.diff(a, b) == Node::FALSE
    }

    /// If-then-else: `f` is a BDD, `g` and `h` are BDDs or MTBDDs.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, s7, s9) = (m.var(0), m.leaf(7), m.leaf(9));
    /// let t = m.ite(a, s7, s9); // a -> 7, !a -> 9
    /// assert_eq!((m.eval_leaf(t, &0b1u64), m.eval_leaf(t, &0b0u64)), (7, 9));
    /// assert_eq!(m.ite(a, Node::TRUE, Node::FALSE), a);
    /// ```
    pub fn ite(&mut self, f: Node, g: Node, h: Node) -> Node {
        if f == Node::TRUE || g == h {
            return g;
        }
        if f == Node::FALSE {
            return h;
        }
        if g == Node::TRUE && h == Node::FALSE {
            return f;
        }
        if self.stopped() {
            return Node::FALSE;
        }
        let key = [OP_ITE, f.0, g.0, h.0];
        if let Some(r) = self.computed.get(key) {
            return Node(r);
        }
        let v = self.top(f).min(self.top(g)).min(self.top(h));
        let (f0, f1) = self.cofactors(f, v);
        let (g0, g1) = self.cofactors(g, v);
        let (h0, h1) = self.cofactors(h, v);
        let lo = self.ite(f0, g0, h0);
        let hi = self.ite(f1, g1, h1);
        let r = self.mk(v, lo, hi);
        self.computed.insert(key, r.0);
        r
    }

    /// Combines two MTBDDs leaf by leaf with `op`. `cache` memoizes node
    /// pairs: reuse it only with the same `op`.
    ///
    /// ```
    /// # use monitor_core::dd::{ApplyCache, Manager};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let (l2, l3, l10, l20) = (m.leaf(2), m.leaf(3), m.leaf(10), m.leaf(20));
    /// let (s, t) = (m.ite(a, l2, l3), m.ite(b, l10, l20)); // a ? 2 : 3, b ? 10 : 20
    /// let sum = m.apply2(s, t, &mut ApplyCache::default(), &mut |x, y| x + y);
    /// assert_eq!(m.leaves(sum), [12, 13, 22, 23]);
    /// assert_eq!(m.eval_leaf(sum, &0b01u64), 2 + 20);
    /// ```
    pub fn apply2(
        &mut self,
        a: Node,
        b: Node,
        cache: &mut ApplyCache,
        op: &mut impl FnMut(u32, u32) -> u32,
    ) -> Node {
        if let Some(&r) = cache.get(&(a.0, b.0)) {
            return Node(r);
        }
        if self.stopped() {
            return Node::FALSE;
        }
        let (da, db) = (self.data(a), self.data(b));
        let r = if da.var == TERMINAL && db.var == TERMINAL {
            let v = op(da.lo, db.lo);
            self.leaf(v)
        } else {
            let v = da.var.min(db.var);
            let (a0, a1) = self.cofactors(a, v);
            let (b0, b1) = self.cofactors(b, v);
            let lo = self.apply2(a0, b0, cache, op);
            let hi = self.apply2(a1, b1, cache, op);
            self.mk(v, lo, hi)
        };
        if !self.stopped() {
            self.remember(cache, (a.0, b.0), r.0);
        }
        r
    }

    /// Renames the leaves of an MTBDD with `op`. `cache` memoizes nodes:
    /// reuse it only with the same `op`.
    ///
    /// ```
    /// # use monitor_core::dd::{ApplyCache, Manager};
    /// let mut m = Manager::new();
    /// let (a, s7, s9) = (m.var(0), m.leaf(7), m.leaf(9));
    /// let t = m.ite(a, s7, s9);
    /// let u = m.map_leaves(t, &mut ApplyCache::default(), &mut |v| v * 10);
    /// assert_eq!((m.eval_leaf(u, &0b1u64), m.eval_leaf(u, &0b0u64)), (70, 90));
    /// ```
    pub fn map_leaves(
        &mut self,
        a: Node,
        cache: &mut ApplyCache,
        op: &mut impl FnMut(u32) -> u32,
    ) -> Node {
        if let Some(&r) = cache.get(&(a.0, 0)) {
            return Node(r);
        }
        if self.stopped() {
            return Node::FALSE;
        }
        let d = self.data(a);
        let r = if d.var == TERMINAL {
            let v = op(d.lo);
            self.leaf(v)
        } else {
            let lo = self.map_leaves(Node(d.lo), cache, op);
            let hi = self.map_leaves(Node(d.hi), cache, op);
            self.mk(d.var, lo, hi)
        };
        if !self.stopped() {
            self.remember(cache, (a.0, 0), r.0);
        }
        r
    }

    /// The distinct leaf values of an MTBDD, in increasing order.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, s7, s9) = (m.var(0), m.var(1), m.leaf(7), m.leaf(9));
    /// let inner = m.ite(b, s7, s9);
    /// let t = m.ite(a, s9, inner);
    /// assert_eq!(m.leaves(t), [7, 9]);
    /// ```
    pub fn leaves(&self, a: Node) -> Vec<u32> {
        with_visited(|seen| self.leaves_with(a, seen))
    }

    fn leaves_with(&self, a: Node, seen: &mut Visited<'_>) -> Vec<u32> {
        let mut out = Vec::new();
        let mut stack = vec![a];
        while let Some(n) = stack.pop() {
            if !seen.insert(n) {
                continue;
            }
            let d = self.data(n);
            if d.var == TERMINAL {
                out.push(d.lo);
            } else {
                stack.push(Node(d.lo));
                stack.push(Node(d.hi));
            }
        }
        out.sort_unstable();
        out
    }

    /// The BDD of the letters that lead the MTBDD `a` to leaf `value`.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, s7, s9) = (m.var(0), m.leaf(7), m.leaf(9));
    /// let t = m.ite(a, s7, s9);
    /// assert_eq!(m.leaf_guard(t, 7), a);
    /// assert_eq!(m.leaf_guard(t, 8), Node::FALSE);
    /// ```
    pub fn leaf_guard(&mut self, a: Node, value: u32) -> Node {
        let mut cache = ApplyCache::default();
        self.map_leaves(a, &mut cache, &mut |v| u32::from(v == value))
    }

    /// Every leaf of `a` with the BDD of the letters leading to it, in
    /// increasing leaf order. One top-down pass: the path condition of
    /// each node is pushed to its children in variable order.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, s7, s9) = (m.var(0), m.var(1), m.leaf(7), m.leaf(9));
    /// let inner = m.ite(b, s7, s9);
    /// let t = m.ite(a, s9, inner);
    /// let (to7, to9) = (m.leaf_guard(t, 7), m.leaf_guard(t, 9));
    /// assert_eq!(m.leaf_guards(t), [(7, to7), (9, to9)]);
    /// ```
    pub fn leaf_guards(&mut self, a: Node) -> Vec<(u32, Node)> {
        // One bottom-up pass per leaf, each linear in the diagram: pushing
        // path conditions top-down built a condition per node, and these
        // grow with the depth (the chain of `p0 & … & pn` took `n²/2`
        // nodes to reach its last leaf). The nodes are numbered once, in
        // an order where children come first, and each pass is a walk of
        // an array: a pass with a memo per leaf (`leaf_guard`) spent most
        // of its time hashing (monitors with a few hundred edges per
        // state, `Gp1 | … | Gp14`).
        let mut order: Vec<Node> = Vec::new();
        let mut local: FxHashMap<u32, u32> = FxHashMap::default();
        let mut stack = vec![(a, false)];
        while let Some((n, expanded)) = stack.pop() {
            if expanded {
                local.insert(n.0, order.len() as u32);
                order.push(n);
                continue;
            }
            if local.contains_key(&n.0) {
                continue;
            }
            stack.push((n, true));
            if let Some((lo, hi)) = self.children(n) {
                for c in [hi, lo] {
                    if !local.contains_key(&c.0) {
                        stack.push((c, false));
                    }
                }
            }
        }
        // A node pushed twice before being numbered is numbered once.
        enum Item {
            Leaf(u32),
            Inner(u32, usize, usize),
        }
        let items: Vec<Item> = order
            .iter()
            .map(|&n| {
                let d = self.data(n);
                if d.var == TERMINAL {
                    Item::Leaf(d.lo)
                } else {
                    Item::Inner(d.var, local[&d.lo] as usize, local[&d.hi] as usize)
                }
            })
            .collect();
        // Each leaf's pass visits only the nodes that reach it (a monitor
        // state's edges are mostly cubes: a path each), found upwards.
        let mut parents: Vec<Vec<u32>> = vec![Vec::new(); items.len()];
        let mut leaves: Vec<(u32, usize)> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            match *item {
                Item::Leaf(v) => leaves.push((v, i)),
                Item::Inner(_, lo, hi) => {
                    parents[lo].push(i as u32);
                    if hi != lo {
                        parents[hi].push(i as u32);
                    }
                }
            }
        }
        leaves.sort_unstable();
        let mut stamp = vec![0u32; items.len()];
        let mut res = vec![Node::FALSE; items.len()];
        let mut reach: Vec<u32> = Vec::new();
        let root = items.len() - 1;
        let mut out = Vec::with_capacity(leaves.len());
        for (k, &(v, li)) in leaves.iter().enumerate() {
            let mark = k as u32 + 1;
            reach.clear();
            stamp[li] = mark;
            reach.push(li as u32);
            let mut j = 0;
            while j < reach.len() {
                for &p in &parents[reach[j] as usize] {
                    if stamp[p as usize] != mark {
                        stamp[p as usize] = mark;
                        reach.push(p);
                    }
                }
                j += 1;
            }
            // Children are numbered before their parents.
            reach.sort_unstable();
            for &i in &reach {
                let i = i as usize;
                res[i] = match items[i] {
                    Item::Leaf(_) => Node::TRUE,
                    Item::Inner(var, lo, hi) => {
                        let at = |c: usize| {
                            if stamp[c] == mark {
                                res[c]
                            } else {
                                Node::FALSE
                            }
                        };
                        let (lo, hi) = (at(lo), at(hi));
                        self.mk(var, lo, hi)
                    }
                };
            }
            out.push((v, res[root]));
        }
        out
    }

    /// Every leaf of `a` with one path cube leading to it (depth-first,
    /// low branches first, so cubes favour negative literals), in
    /// increasing leaf order.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, s7, s9) = (m.var(0), m.var(1), m.leaf(7), m.leaf(9));
    /// let inner = m.ite(b, s9, s7);
    /// let t = m.ite(a, s7, inner); // 7 on a | !b, 9 on !a & b
    /// let paths = vec![(7, vec![(0, false), (1, false)]), (9, vec![(0, false), (1, true)])];
    /// assert_eq!(m.leaf_paths(t), paths);
    /// ```
    pub fn leaf_paths(&self, a: Node) -> Vec<(u32, Cube)> {
        let mut out = Vec::new();
        with_visited(|seen| {
            let mut stack: Vec<(Node, Cube)> = vec![(a, Vec::new())];
            while let Some((n, path)) = stack.pop() {
                if !seen.insert(n) {
                    continue;
                }
                let d = self.data(n);
                if d.var == TERMINAL {
                    out.push((d.lo, path));
                    continue;
                }
                let mut hi_path = path.clone();
                hi_path.push((d.var, true));
                stack.push((Node(d.hi), hi_path));
                let mut lo_path = path;
                lo_path.push((d.var, false));
                stack.push((Node(d.lo), lo_path));
            }
        });
        out.sort_unstable_by_key(|(v, _)| *v);
        out
    }

    /// The leaves of `a` in depth-first order, low branches first: an
    /// order that depends only on the function, not on node numbers.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, s7, s9) = (m.var(0), m.leaf(7), m.leaf(9));
    /// let t = m.ite(a, s7, s9);
    /// assert_eq!(m.leaves_in_order(t), [9, 7]); // the `!a` branch first
    /// assert_eq!(m.leaves(t), [7, 9]);
    /// ```
    pub fn leaves_in_order(&self, a: Node) -> Vec<u32> {
        let mut out = Vec::new();
        with_visited(|seen| {
            let mut stack = vec![a];
            while let Some(x) = stack.pop() {
                if !seen.insert(x) {
                    continue;
                }
                let d = self.data(x);
                if d.var == TERMINAL {
                    out.push(d.lo);
                } else {
                    stack.push(Node(d.hi));
                    stack.push(Node(d.lo));
                }
            }
        });
        out
    }

    /// Whether every letter of `cube` leads the MTBDD `a` to leaf `value`
    /// (read-only: no node is created).
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, s7, s9) = (m.var(0), m.var(1), m.leaf(7), m.leaf(9));
    /// let inner = m.ite(b, s9, s7);
    /// let t = m.ite(a, s7, inner); // 7 on a | !b, 9 on !a & b
    /// assert!(m.cube_leads_only_to(t, &[(1, false)], 7));
    /// assert!(!m.cube_leads_only_to(t, &[(0, false)], 7));
    /// ```
    pub fn cube_leads_only_to(&self, a: Node, cube: &[(u32, bool)], value: u32) -> bool {
        with_visited(|seen| {
            let mut stack = vec![a];
            while let Some(n) = stack.pop() {
                if !seen.insert(n) {
                    continue;
                }
                let d = self.data(n);
                if d.var == TERMINAL {
                    if d.lo != value {
                        return false;
                    }
                    continue;
                }
                match cube.iter().find(|(v, _)| *v == d.var) {
                    Some(&(_, true)) => stack.push(Node(d.hi)),
                    Some(&(_, false)) => stack.push(Node(d.lo)),
                    None => {
                        stack.push(Node(d.lo));
                        stack.push(Node(d.hi));
                    }
                }
            }
            true
        })
    }

    /// A prime cube leading `a` to `value`, obtained from `cube` (which
    /// must lead only there) by dropping literals greedily.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b, s7, s9) = (m.var(0), m.var(1), m.leaf(7), m.leaf(9));
    /// let inner = m.ite(b, s9, s7);
    /// let t = m.ite(a, s7, inner); // 7 on a | !b, 9 on !a & b
    /// assert_eq!(m.generalize_cube(t, vec![(0, false), (1, false)], 7), [(1, false)]);
    /// ```
    pub fn generalize_cube(&self, a: Node, mut cube: Cube, value: u32) -> Cube {
        let mut i = 0;
        while i < cube.len() {
            let lit = cube.remove(i);
            if !self.cube_leads_only_to(a, &cube, value) {
                cube.insert(i, lit);
                i += 1;
            }
        }
        cube
    }

    /// The leaf an MTBDD reaches on a letter.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (b, s7, s9) = (m.var(1), m.leaf(7), m.leaf(9));
    /// let t = m.ite(b, s7, s9);
    /// assert_eq!(m.eval_leaf(t, &0b10u64), 7);
    /// assert_eq!(m.eval_leaf(t, &[true, false]), 9);
    /// ```
    pub fn eval_leaf(&self, a: Node, letter: &impl Valuation) -> u32 {
        let mut n = a;
        loop {
            let d = self.data(n);
            if d.var == TERMINAL {
                return d.lo;
            }
            n = Node(if letter.holds(d.var as usize) {
                d.hi
            } else {
                d.lo
            });
        }
    }

    /// Whether a BDD holds on a letter.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, nb) = (m.var(0), m.nvar(1));
    /// let f = m.and(a, nb);
    /// assert!(m.eval(f, &0b01u64));
    /// assert!(!m.eval(f, &0b11u64));
    /// ```
    pub fn eval(&self, a: Node, letter: &impl Valuation) -> bool {
        self.eval_leaf(a, letter) == 1
    }

    /// A satisfying cube of a BDD, preferring negative literals (`None` if
    /// the BDD is false). The cube lists only the variables on one path.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.or(a, b);
    /// assert_eq!(m.sat_cube(f), Some(vec![(0, false), (1, true)]));
    /// assert_eq!(m.sat_cube(Node::FALSE), None);
    /// ```
    pub fn sat_cube(&self, a: Node) -> Option<Cube> {
        if a == Node::FALSE {
            return None;
        }
        let mut cube = Vec::new();
        let mut n = a;
        while n != Node::TRUE {
            let d = self.data(n);
            debug_assert!(d.var != TERMINAL, "not a BDD");
            if Node(d.lo) != Node::FALSE {
                cube.push((d.var, false));
                n = Node(d.lo);
            } else {
                cube.push((d.var, true));
                n = Node(d.hi);
            }
        }
        Some(cube)
    }

    /// The variables a diagram depends on, in increasing order.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, d) = (m.var(0), m.var(3));
    /// let f = m.xor(a, d);
    /// assert_eq!(m.support(f), [0, 3]);
    /// assert!(m.support(Node::TRUE).is_empty());
    /// ```
    pub fn support(&self, a: Node) -> Vec<u32> {
        let mut vars = Vec::new();
        with_visited(|seen| {
            let mut stack = vec![a];
            while let Some(n) = stack.pop() {
                if !seen.insert(n) {
                    continue;
                }
                let d = self.data(n);
                if d.var != TERMINAL {
                    vars.push(d.var);
                    stack.push(Node(d.lo));
                    stack.push(Node(d.hi));
                }
            }
        });
        vars.sort_unstable();
        vars.dedup();
        vars
    }

    /// The number of distinct nodes reachable from the given roots.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// assert_eq!(m.count_nodes(&[f]), 4); // a, b and the two leaves
    /// assert_eq!(m.count_nodes(&[f, b]), 4); // b is shared
    /// ```
    pub fn count_nodes(&self, roots: &[Node]) -> usize {
        with_visited(|seen| {
            let mut count = 0;
            let mut stack: Vec<Node> = roots.to_vec();
            while let Some(n) = stack.pop() {
                if !seen.insert(n) {
                    continue;
                }
                count += 1;
                if let Some((lo, hi)) = self.children(n) {
                    stack.push(lo);
                    stack.push(hi);
                }
            }
            count
        })
    }

    /// An irredundant sum of products of a BDD (Minato–Morreale), cubes in
    /// a deterministic order. `false` gives no cube, `true` one empty cube.
    ///
    /// ```
    /// # use monitor_core::dd::{Manager, Node};
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.xor(a, b);
    /// assert_eq!(m.isop(f), [vec![(0, false), (1, true)], vec![(0, true), (1, false)]]);
    /// assert_eq!((m.isop(Node::TRUE), m.isop(Node::FALSE)), (vec![vec![]], vec![]));
    /// ```
    pub fn isop(&mut self, a: Node) -> Vec<Cube> {
        // A cube is its own cover (the transitions of most monitors are
        // cubes): read it off the path instead of running the recursion.
        if let Some(c) = self.as_cube(a) {
            return vec![c];
        }
        self.isop_between(a, a)
    }

    /// The literals of `a` if it is a (nonempty) cube: a single path to
    /// `true`, every node having `false` as one child.
    ///
    /// ```
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.nvar(2));
    /// let ab = m.and(a, b);
    /// assert_eq!(m.as_cube(ab), Some(vec![(0, true), (2, false)]));
    /// let a_or_b = m.or(a, b);
    /// assert_eq!(m.as_cube(a_or_b), None);
    /// ```
    pub fn as_cube(&self, a: Node) -> Option<Cube> {
        if a == Node::FALSE {
            return None;
        }
        let mut cube = Vec::new();
        let mut n = a;
        while n != Node::TRUE {
            let (lo, hi) = self.children(n)?;
            let v = self.top(n);
            n = match (lo == Node::FALSE, hi == Node::FALSE) {
                (true, false) => {
                    cube.push((v, true));
                    hi
                }
                (false, true) => {
                    cube.push((v, false));
                    lo
                }
                _ => return None,
            };
        }
        Some(cube)
    }

    /// An irredundant sum of products of some function between `lower`
    /// and `upper` (which must contain `lower`): the letters of `upper`
    /// outside `lower` are don't-cares.
    ///
    /// ```
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let a_and_b = m.and(a, b);
    /// let not_a = m.not(a);
    /// let care_free = m.or(a_and_b, not_a); // don't care when a is false
    /// assert_eq!(m.isop_between(a_and_b, care_free), vec![vec![(1, true)]]);
    /// ```
    pub fn isop_between(&mut self, lower: Node, upper: Node) -> Vec<Cube> {
        debug_assert!(self.implies(lower, upper));
        let mut memo = FxHashMap::default();
        let (cover, _) = self.isop_rec(lower, upper, &mut memo);
        let mut out = Vec::new();
        cover.flatten(&mut Vec::new(), &mut out);
        out.sort_by(|x, y| x.len().cmp(&y.len()).then_with(|| x.cmp(y)));
        out
    }

    /// [`Manager::isop`] if its cover has at most `max_literals`
    /// literals (counted with one more per cube, as printed), `None` if
    /// it has more or if computing it takes more than `max_nodes` new
    /// nodes: the cover is counted on the shared form the recursion
    /// builds, before any cube is written out, so that a function of
    /// `2^30` cubes (`(q0 | r0) & … & (q29 | r29)`) costs what its
    /// diagram costs.
    ///
    /// ```
    /// use monitor_core::dd::{Manager, Node};
    ///
    /// let mut m = Manager::new();
    /// let mut f = Node::TRUE;
    /// for i in 0..20 {
    ///     let (q, r) = (m.var(2 * i), m.var(2 * i + 1));
    ///     let s = m.or(q, r);
    ///     f = m.and(f, s);
    /// }
    /// assert_eq!(m.isop_capped(f, 1000, 100_000), None); // 2^20 cubes
    /// let (a, b) = (m.var(0), m.var(1));
    /// let g = m.or(a, b);
    /// assert_eq!(m.isop_capped(g, 1000, 100_000), Some(m.isop(g)));
    /// ```
    pub fn isop_capped(
        &mut self,
        a: Node,
        max_literals: usize,
        max_nodes: usize,
    ) -> Option<Vec<Cube>> {
        if let Some(c) = self.as_cube(a) {
            return (c.len() < max_literals).then(|| vec![c]);
        }
        self.isop_between_capped(a, a, max_literals, max_nodes)
    }

    /// [`Manager::isop_between`] under the limits of
    /// [`Manager::isop_capped`].
    ///
    /// ```
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let a_and_b = m.and(a, b);
    /// let not_a = m.not(a);
    /// let care_free = m.or(a_and_b, not_a);
    /// assert_eq!(m.isop_between_capped(a_and_b, care_free, 10, 1000), Some(vec![vec![(1, true)]]));
    /// assert_eq!(m.isop_between_capped(a_and_b, care_free, 1, 1000), None);
    /// ```
    pub fn isop_between_capped(
        &mut self,
        lower: Node,
        upper: Node,
        max_literals: usize,
        max_nodes: usize,
    ) -> Option<Vec<Cube>> {
        debug_assert!(self.implies(lower, upper));
        let mut memo = FxHashMap::default();
        // The memo can grow without new nodes (pairs of existing ones):
        // it is held to the same limit.
        let cover = self.guarded(max_nodes, |m| {
            m.isop_rec_capped(lower, upper, &mut memo, max_nodes).0
        })?;
        let (cubes, literals) = cover_size(&cover, &mut FxHashMap::default());
        if cubes.saturating_add(literals) > max_literals as u64 {
            return None;
        }
        let mut out = Vec::new();
        cover.flatten(&mut Vec::new(), &mut out);
        out.sort_by(|x, y| x.len().cmp(&y.len()).then_with(|| x.cmp(y)));
        Some(out)
    }

    fn isop_rec_capped(
        &mut self,
        lower: Node,
        upper: Node,
        memo: &mut FxHashMap<(u32, u32), (Rc<Cover>, Node)>,
        max_memo: usize,
    ) -> (Rc<Cover>, Node) {
        if memo.len() > max_memo {
            // Stops the operations: `guarded` then discards the result.
            self.overflow = true;
        }
        if self.stopped() {
            return (Rc::new(Cover::Empty), Node::FALSE);
        }
        self.isop_step(lower, upper, memo, &mut |m, l, u, memo| {
            m.isop_rec_capped(l, u, memo, max_memo)
        })
    }

    fn isop_rec(
        &mut self,
        lower: Node,
        upper: Node,
        memo: &mut FxHashMap<(u32, u32), (Rc<Cover>, Node)>,
    ) -> (Rc<Cover>, Node) {
        self.isop_step(lower, upper, memo, &mut |m, l, u, memo| {
            m.isop_rec(l, u, memo)
        })
    }

    /// One step of Minato–Morreale, recurring through `rec`.
    #[allow(clippy::type_complexity)]
    fn isop_step(
        &mut self,
        lower: Node,
        upper: Node,
        memo: &mut FxHashMap<(u32, u32), (Rc<Cover>, Node)>,
        rec: &mut dyn FnMut(
            &mut Manager,
            Node,
            Node,
            &mut FxHashMap<(u32, u32), (Rc<Cover>, Node)>,
        ) -> (Rc<Cover>, Node),
    ) -> (Rc<Cover>, Node) {
        if lower == Node::FALSE {
            return (Rc::new(Cover::Empty), Node::FALSE);
        }
        if upper == Node::TRUE {
            return (Rc::new(Cover::One), Node::TRUE);
        }
        if let Some(r) = memo.get(&(lower.0, upper.0)) {
            return r.clone();
        }
        let v = self.top(lower).min(self.top(upper));
        let (l0, l1) = self.cofactors(lower, v);
        let (u0, u1) = self.cofactors(upper, v);
        let l0n = self.diff(l0, u1);
        let (c0, f0) = rec(self, l0n, u0, memo);
        let l1n = self.diff(l1, u0);
        let (c1, f1) = rec(self, l1n, u1, memo);
        let r0 = self.diff(l0, f0);
        let r1 = self.diff(l1, f1);
        let lstar = self.or(r0, r1);
        let ustar = self.and(u0, u1);
        let (cs, fs) = rec(self, lstar, ustar, memo);
        let cover = Rc::new(Cover::Split { var: v, c0, c1, cs });
        let nv = self.nvar(v);
        let pv = self.var(v);
        let t0 = self.and(nv, f0);
        let t1 = self.and(pv, f1);
        let t = self.or(t0, t1);
        let f = self.or(t, fs);
        memo.insert((lower.0, upper.0), (cover.clone(), f));
        (cover, f)
    }

    /// Copies the diagram `a` of another manager into this one.
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let (mut m1, mut m2) = (Manager::new(), Manager::new());
    /// let (a, b) = (m1.var(0), m1.var(1));
    /// let f = m1.and(a, b);
    /// let g = m2.import(&m1, f, &mut Default::default());
    /// assert_eq!(m2.isop(g), [vec![(0, true), (1, true)]]);
    /// ```
    pub fn import(&mut self, from: &Manager, a: Node, memo: &mut FxHashMap<u32, u32>) -> Node {
        if let Some(&r) = memo.get(&a.0) {
            return Node(r);
        }
        let d = from.data(a);
        let r = if d.var == TERMINAL {
            self.leaf(d.lo)
        } else {
            let lo = self.import(from, Node(d.lo), memo);
            let hi = self.import(from, Node(d.hi), memo);
            self.mk(d.var, lo, hi)
        };
        memo.insert(a.0, r.0);
        r
    }

    /// Copies the diagram `a` of another manager into this one, renaming
    /// variable `v` to `map[v]` (any renaming: the result is rebuilt in
    /// this manager's variable order).
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let (mut m1, mut m2) = (Manager::new(), Manager::new());
    /// let (a, nb) = (m1.var(0), m1.nvar(1));
    /// let f = m1.and(a, nb);
    /// let g = m2.import_renamed(&m1, f, &[1, 0], &mut Default::default()); // swaps 0 and 1
    /// assert_eq!(m2.isop(g), [vec![(0, false), (1, true)]]);
    /// ```
    pub fn import_renamed(
        &mut self,
        from: &Manager,
        a: Node,
        map: &[u32],
        memo: &mut FxHashMap<u32, u32>,
    ) -> Node {
        if let Some(&r) = memo.get(&a.0) {
            return Node(r);
        }
        let d = from.data(a);
        let r = if d.var == TERMINAL {
            self.leaf(d.lo)
        } else {
            let lo = self.import_renamed(from, Node(d.lo), map, memo);
            let hi = self.import_renamed(from, Node(d.hi), map, memo);
            let v = self.var(map[d.var as usize]);
            self.ite(v, hi, lo)
        };
        memo.insert(a.0, r.0);
        r
    }

    /// Runs `f` with at most `extra` more nodes. Beyond that, `f`'s
    /// operations stop growing the store (their results are then wrong,
    /// and quickly computed) and `guarded` returns `None` whatever `f`
    /// returned, with the operation caches emptied: the nodes that exist
    /// stay valid. One operation can build a diagram exponential in its
    /// operands (`p1 & o1 | … | p30 & o30` with every `p` above every `o`
    /// has `2^30` nodes), which no check between operations can stop.
    ///
    /// ```
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// // 2^12 nodes wanted, 100 allowed.
    /// let big = m.guarded(100, |m| {
    ///     let mut acc = monitor_core::dd::Node::FALSE;
    ///     for i in 0..12 {
    ///         let (p, o) = (m.var(i), m.var(12 + i));
    ///         let t = m.and(p, o);
    ///         acc = m.or(acc, t);
    ///     }
    ///     acc
    /// });
    /// assert!(big.is_none());
    /// let (a, b) = (m.var(0), m.var(1));
    /// assert!(m.guarded(100, |m| m.and(a, b)).is_some());
    /// ```
    pub fn guarded<T>(&mut self, extra: usize, f: impl FnOnce(&mut Manager) -> T) -> Option<T> {
        let outer = self.begin_guard(extra);
        let r = f(self);
        self.end_guard(outer).then_some(r)
    }

    /// [`Manager::guarded`] in two halves, for callers whose closure
    /// would need more than the manager: returns the limit to restore.
    pub(crate) fn begin_guard(&mut self, extra: usize) -> usize {
        let outer = self.node_limit;
        self.node_limit = outer.min(self.nodes.len().saturating_add(extra));
        outer
    }

    /// Restores the limit; `false` if nodes were refused since
    /// [`Manager::begin_guard`] (the caches are then emptied).
    pub(crate) fn end_guard(&mut self, outer: usize) -> bool {
        self.node_limit = outer;
        if !self.overflow {
            return true;
        }
        if outer == usize::MAX {
            self.overflow = false;
        }
        self.computed.clear();
        false
    }

    /// Drops the operation caches (the nodes stay).
    ///
    /// ```
    /// # use monitor_core::dd::Manager;
    /// let mut m = Manager::new();
    /// let (a, b) = (m.var(0), m.var(1));
    /// let f = m.and(a, b);
    /// m.clear_caches();
    /// assert_eq!((m.len(), m.and(a, b)), (5, f)); // same nodes, same results
    /// ```
    pub fn clear_caches(&mut self) {
        self.computed.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn truth(m: &Manager, f: Node, vars: u32) -> Vec<bool> {
        (0..1u64 << vars).map(|v| m.eval(f, &v)).collect()
    }

    #[test]
    fn a_cube_is_its_own_irredundant_cover() {
        // Every cube over 5 variables (3^5 of them), and the disjunction
        // of two: the shortcut gives what the recursion gives.
        let mut m = Manager::new();
        let cube_of = |m: &mut Manager, code: u32| {
            let mut lits = Vec::new();
            let mut c = code;
            for v in 0..5 {
                match c % 3 {
                    1 => lits.push((v, true)),
                    2 => lits.push((v, false)),
                    _ => {}
                }
                c /= 3;
            }
            (m.cube(&lits), lits)
        };
        for code in 0..243 {
            let (c, lits) = cube_of(&mut m, code);
            assert_eq!(m.as_cube(c), Some(lits.clone()));
            assert_eq!(m.isop_between(c, c), vec![lits.clone()]);
            assert_eq!(m.isop(c), vec![lits]);
            let (d, _) = cube_of(&mut m, (code * 7 + 5) % 243);
            let both = m.or(c, d);
            if m.as_cube(both).is_none() {
                assert_eq!(m.isop(both), m.isop_between(both, both));
            }
        }
        assert_eq!(m.as_cube(Node::FALSE), None);
        assert_eq!(m.isop(Node::FALSE), Vec::<Cube>::new());
        assert_eq!(m.isop(Node::TRUE), vec![Vec::new()]);
    }

    #[test]
    fn boolean_operations_match_truth_tables() {
        let mut m = Manager::new();
        let (a, b, c) = (m.var(0), m.var(1), m.var(2));
        let ab = m.and(a, b);
        let nc = m.not(c);
        let f = m.or(ab, nc);
        let expect: Vec<bool> = (0..8u64)
            .map(|v| (v & 1 == 1 && v & 2 == 2) || v & 4 == 0)
            .collect();
        assert_eq!(truth(&m, f, 3), expect);
        let x = m.xor(a, c);
        assert_eq!(
            truth(&m, x, 3),
            (0..8u64)
                .map(|v| (v & 1 == 1) != (v & 4 == 4))
                .collect::<Vec<_>>()
        );
        let i = m.ite(a, b, c);
        assert_eq!(
            truth(&m, i, 3),
            (0..8u64)
                .map(|v| if v & 1 == 1 { v & 2 == 2 } else { v & 4 == 4 })
                .collect::<Vec<_>>()
        );
        // Canonicity: equal functions are equal nodes.
        let nab = m.not(ab);
        let na = m.not(a);
        let nb = m.not(b);
        assert_eq!(nab, m.or(na, nb));
    }

    #[test]
    fn isop_covers_exactly() {
        let mut m = Manager::new();
        let vars: Vec<Node> = (0..4).map(|i| m.var(i)).collect();
        // (a & b) | (!a & c) | (b & c & d)
        let t1 = m.and(vars[0], vars[1]);
        let na = m.not(vars[0]);
        let t2 = m.and(na, vars[2]);
        let bc = m.and(vars[1], vars[2]);
        let t3 = m.and(bc, vars[3]);
        let f = m.or(t1, t2);
        let f = m.or(f, t3);
        let cover = m.isop(f);
        let mut g = Node::FALSE;
        for c in &cover {
            let cb = m.cube(c);
            g = m.or(g, cb);
        }
        assert_eq!(g, f);
        // The consensus term b & c & d is redundant.
        assert_eq!(cover.len(), 2);
        assert_eq!(m.isop(Node::TRUE), vec![Vec::new()]);
        assert!(m.isop(Node::FALSE).is_empty());
    }

    #[test]
    fn mtbdd_apply_and_guards() {
        let mut m = Manager::new();
        let a = m.var(0);
        let b = m.var(1);
        let (l2, l3, l4) = (m.leaf(2), m.leaf(3), m.leaf(4));
        let t1 = m.ite(a, l2, l3);
        let t2 = m.ite(b, l4, l3);
        let mut cache = ApplyCache::default();
        let sum = m.apply2(t1, t2, &mut cache, &mut |x, y| x * 10 + y);
        assert_eq!(m.leaves(sum), vec![23, 24, 33, 34]);
        assert_eq!(m.eval_leaf(sum, &0b11u64), 24);
        let g = m.leaf_guard(sum, 33);
        let na = m.not(a);
        let nb = m.not(b);
        assert_eq!(g, m.and(na, nb));
        assert_eq!(m.leaf_guards(t1).len(), 2);
        assert_eq!(m.sat_cube(g), Some(vec![(0, false), (1, false)]));
        assert_eq!(m.support(sum), vec![0, 1]);
    }
}
