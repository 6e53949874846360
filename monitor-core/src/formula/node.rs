//! The hash-consed formula node: interning, cached properties, order,
//! and the queries on a formula. The constructors are in `construct.rs`,
//! the negation normal form in `nnf.rs`.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use rustc_hash::{FxHashMap, FxHasher};

use super::Op;

/// Cached properties, computed once when a node is created.
#[derive(Clone, Copy, Debug, Default)]
struct Props {
    /// No temporal operator at all.
    boolean: bool,
    /// Contains a future-time operator.
    has_future: bool,
    /// Contains a past-time operator.
    has_past: bool,
    /// Some past operator has an operand that contains a future operator.
    past_over_future: bool,
    /// Contains no `X`, `Y` or `Z` (such formulas are stutter-invariant).
    next_free: bool,
    /// Negations apply only to propositions or pure-past subformulas, and
    /// there is no `->`, `<->` or `xor` outside pure-past subformulas.
    nnf: bool,
    /// Spot's syntactic safety class.
    syntactic_safety: bool,
    /// Spot's syntactic guarantee class.
    syntactic_guarantee: bool,
    /// Nesting depth of past operators.
    past_depth: u32,
    /// Number of nodes of the formula seen as a tree (saturating).
    tree_size: u32,
    /// For a SERE: whether it matches the empty word.
    nullable: bool,
    /// Contains a SERE repetition without upper bound.
    unbounded: bool,
    /// Contains a SERE (a PSL formula).
    sere: bool,
}

pub(crate) struct Node {
    op: Op,
    name: Box<str>,
    /// The bounds of a `Star` (`u32::MAX`: unbounded); `(0, 0)` otherwise.
    bounds: (u32, u32),
    children: Box<[Formula]>,
    id: u64,
    hash: u64,
    props: Props,
}

/// A formula: a handle to a node of the global hash-consed DAG.
///
/// Cloning is a reference-count increment; `==` and `Hash` use node
/// identity, which coincides with structural equality because every node
/// is unique. `Ord` is a structural order, independent of the order in
/// which formulas were created, so printing is deterministic.
///
/// # Example
///
/// ```
/// use monitor_core::formula::Formula;
///
/// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
/// let f = Formula::and([b.clone(), a.clone(), b.clone()]);
/// assert_eq!(f, Formula::and([a.clone(), b.clone()]));
/// assert_eq!(f.to_spot(), "a & b");
/// assert_eq!(Formula::until(a.clone(), b).to_spot(), "a U b");
/// assert_eq!(Formula::not(Formula::not(a.clone())), a);
/// ```
#[derive(Clone)]
pub struct Formula(Arc<Node>);

struct Table {
    buckets: FxHashMap<u64, Vec<Weak<Node>>>,
    entries: usize,
    purge_at: usize,
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| {
        Mutex::new(Table {
            buckets: FxHashMap::default(),
            entries: 0,
            purge_at: 1 << 12,
        })
    })
}

static NEXT_ID: AtomicU64 = AtomicU64::new(0);

fn key_hash(op: Op, name: &str, bounds: (u32, u32), children: &[Formula]) -> u64 {
    let mut h = FxHasher::default();
    op.hash(&mut h);
    name.hash(&mut h);
    bounds.hash(&mut h);
    for c in children {
        c.0.id.hash(&mut h);
    }
    h.finish()
}

fn compute_props(op: Op, bounds: (u32, u32), children: &[Formula]) -> Props {
    let c = |i: usize| children[i].0.props;
    let all = |f: fn(&Props) -> bool| children.iter().all(|c| f(&c.0.props));
    let any = |f: fn(&Props) -> bool| children.iter().any(|c| f(&c.0.props));
    // SEREs and the PSL operators over them are temporal: they count as
    // future-time operators everywhere (NNF, Boolean tests, the tableau).
    let psl = op.is_sere() || op.is_sere_formula();
    let mut p = Props {
        boolean: all(|p| p.boolean) && !op.is_future() && !op.is_past() && !psl,
        has_future: op.is_future() || psl || any(|p| p.has_future),
        has_past: op.is_past() || any(|p| p.has_past),
        past_over_future: any(|p| p.past_over_future) || (op.is_past() && any(|p| p.has_future)),
        next_free: all(|p| p.next_free) && !matches!(op, Op::X | Op::Y | Op::Z) && !psl,
        nnf: false,
        syntactic_safety: false,
        syntactic_guarantee: false,
        past_depth: children
            .iter()
            .map(|c| c.0.props.past_depth)
            .max()
            .unwrap_or(0)
            + u32::from(op.is_past()),
        tree_size: children
            .iter()
            .fold(1u32, |acc, c| acc.saturating_add(c.0.props.tree_size)),
        nullable: match op {
            Op::EmptyWord => true,
            Op::Concat | Op::AndRat => all(|p| p.nullable),
            Op::OrRat => any(|p| p.nullable),
            Op::Star => bounds.0 == 0 || c(0).nullable,
            // No copy is one letter, and a copy is never empty.
            Op::FStar => false,
            Op::FirstMatch => c(0).nullable,
            _ => false,
        },
        unbounded: any(|p| p.unbounded)
            || (matches!(op, Op::Star | Op::FStar) && bounds.1 == u32::MAX),
        sere: psl || any(|p| p.sere),
    };
    // A pure-past formula is, at each position, a function of the history:
    // for the classifications below it behaves like a proposition.
    let pure_past = !p.has_future;
    let (safe, guar) = match op {
        Op::False | Op::True | Op::Ap => (true, true),
        _ if pure_past => (true, true),
        Op::Not => (c(0).syntactic_guarantee, c(0).syntactic_safety),
        Op::And | Op::Or => (all(|p| p.syntactic_safety), all(|p| p.syntactic_guarantee)),
        Op::X => (c(0).syntactic_safety, c(0).syntactic_guarantee),
        Op::F => (false, c(0).syntactic_guarantee),
        Op::G => (c(0).syntactic_safety, false),
        Op::Implies => (
            c(0).syntactic_guarantee && c(1).syntactic_safety,
            c(0).syntactic_safety && c(1).syntactic_guarantee,
        ),
        Op::Equiv | Op::Xor => {
            let both = all(|p| p.syntactic_safety && p.syntactic_guarantee);
            (both, both)
        }
        Op::U | Op::M => (false, all(|p| p.syntactic_guarantee)),
        Op::R | Op::W => (all(|p| p.syntactic_safety), false),
        Op::Y | Op::Z | Op::O | Op::H | Op::S | Op::B | Op::T => (false, false),
        // A SERE is not a formula; the operators over it are classified as
        // in Spot (a SERE without unbounded repetition is "finite").
        _ if op.is_sere() => (false, false),
        Op::Closure => (true, false),
        Op::NegClosure | Op::NegClosureMarked => (false, true),
        Op::UConcat => (
            c(1).syntactic_safety,
            !c(0).unbounded && c(1).syntactic_guarantee,
        ),
        Op::EConcat | Op::EConcatMarked => (
            !c(0).unbounded && c(1).syntactic_safety,
            c(1).syntactic_guarantee,
        ),
        // Left to the semantic analysis.
        Op::Abort | Op::AbortBottom => (false, false),
        Op::EmptyWord
        | Op::Concat
        | Op::Fusion
        | Op::OrRat
        | Op::AndRat
        | Op::Star
        | Op::FStar
        | Op::FirstMatch => {
            unreachable!("SERE operators handled above")
        }
    };
    p.syntactic_safety = safe;
    p.syntactic_guarantee = guar;
    p.nnf = match op {
        _ if op.is_sere() => true,
        _ if pure_past => true,
        Op::Not => children[0].0.op == Op::Ap || !children[0].0.props.has_future,
        Op::Implies | Op::Equiv | Op::Xor => false,
        _ => all(|p| p.nnf),
    };
    p
}

/// Interns a node: returns the existing node if there is one.
pub(super) fn intern(op: Op, name: &str, children: Vec<Formula>) -> Formula {
    intern_with_bounds(op, name, (0, 0), children)
}

pub(super) fn intern_with_bounds(
    op: Op,
    name: &str,
    bounds: (u32, u32),
    children: Vec<Formula>,
) -> Formula {
    let hash = key_hash(op, name, bounds, &children);
    let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(bucket) = t.buckets.get_mut(&hash) {
        let mut found = None;
        bucket.retain(|w| match w.upgrade() {
            Some(n) => {
                if found.is_none()
                    && n.op == op
                    && *n.name == *name
                    && n.bounds == bounds
                    && n.children.len() == children.len()
                    && n.children.iter().zip(&children).all(|(a, b)| a == b)
                {
                    found = Some(n);
                }
                true
            }
            None => false,
        });
        if let Some(n) = found {
            return Formula(n);
        }
    }
    let props = compute_props(op, bounds, &children);
    let node = Arc::new(Node {
        op,
        name: name.into(),
        bounds,
        children: children.into_boxed_slice(),
        id: NEXT_ID.fetch_add(1, AtomicOrdering::Relaxed),
        hash,
        props,
    });
    t.buckets
        .entry(hash)
        .or_default()
        .push(Arc::downgrade(&node));
    t.entries += 1;
    if t.entries >= t.purge_at {
        // Drop the entries of dead nodes so the table does not grow forever.
        t.buckets.retain(|_, b| {
            b.retain(|w| w.strong_count() > 0);
            !b.is_empty()
        });
        t.entries = t.buckets.values().map(Vec::len).sum();
        t.purge_at = (t.entries * 2).max(1 << 12);
    }
    Formula(node)
}

impl PartialEq for Formula {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for Formula {}

impl Hash for Formula {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.id.hash(state);
    }
}

impl Ord for Formula {
    fn cmp(&self, other: &Self) -> Ordering {
        if self == other {
            return Ordering::Equal;
        }
        let (a, b) = (&*self.0, &*other.0);
        a.op.cmp(&b.op)
            .then_with(|| natural_cmp(&a.name, &b.name))
            .then_with(|| a.bounds.cmp(&b.bounds))
            .then_with(|| children_cmp(a, b))
    }
}

/// The lexicographic order of the operands of two distinct nodes, with a
/// small lossy memo per thread: comparing `X^i c` with `X^j c` walks
/// `min(i, j)` levels, and sorting the operands of
/// `X c & XX c & … & X^k c` (written out) did so for every
/// pair compared, `k³` steps over the simplifier's rounds. With the memo
/// each pair of subformulas is compared once, whatever the depth. The
/// memo only saves work: a lost entry is recomputed, and the order is the
/// same.
fn children_cmp(a: &Node, b: &Node) -> Ordering {
    if a.children.is_empty() || b.children.is_empty() {
        return a.children.len().cmp(&b.children.len());
    }
    const BITS: u32 = 14;
    thread_local! {
        static MEMO: std::cell::RefCell<Vec<(u64, u64, Ordering)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let slot = ((a.id.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.id)
        .wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        >> (64 - BITS)) as usize;
    let hit = MEMO.with(|m| {
        m.borrow()
            .get(slot)
            .filter(|e| e.0 == a.id && e.1 == b.id)
            .map(|e| e.2)
    });
    if let Some(o) = hit {
        return o;
    }
    let o = a.children.iter().cmp(b.children.iter());
    MEMO.with(|m| {
        let mut m = m.borrow_mut();
        if m.is_empty() {
            m.resize(1 << BITS, (u64::MAX, u64::MAX, Ordering::Equal));
        }
        m[slot] = (a.id, b.id, o);
    });
    o
}

/// Orders names with a numeric suffix by its value: `p2` < `p10`.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    fn split(s: &str) -> (&str, usize, &str) {
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (stem, num) = s.split_at(s.len() - digits);
        (stem, num.trim_start_matches('0').len(), num)
    }
    let (sa, la, na) = split(a);
    let (sb, lb, nb) = split(b);
    sa.cmp(sb)
        .then(la.cmp(&lb))
        .then_with(|| na.cmp(nb))
        .then_with(|| a.cmp(b))
}

impl PartialOrd for Formula {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Formula({})", self.to_spot())
    }
}

impl fmt::Display for Formula {
    /// Prints in Spot syntax.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_spot())
    }
}

/// Accessors.
impl Formula {
    /// The top-level operator.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Op};
    /// assert_eq!(parse("G(a -> b)")?.op(), Op::G);
    /// assert_eq!(parse("a -> b")?.op(), Op::Implies);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn op(&self) -> Op {
        self.0.op
    }

    /// The operands (empty for constants and propositions).
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// assert_eq!(parse("a U b")?.children(), [Formula::ap("a"), Formula::ap("b")]);
    /// assert!(Formula::ap("a").children().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn children(&self) -> &[Formula] {
        &self.0.children
    }

    /// The `i`-th operand. Panics if there is none.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// let f = parse("a U (b | c)")?;
    /// assert_eq!(f.child(1).to_spot(), "b | c");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn child(&self, i: usize) -> &Formula {
        &self.0.children[i]
    }

    /// The name of an atomic proposition.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// assert_eq!(Formula::ap("req").ap_name(), Some("req"));
    /// assert_eq!(parse("!req")?.ap_name(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ap_name(&self) -> Option<&str> {
        (self.0.op == Op::Ap).then_some(&*self.0.name)
    }

    /// A unique number of this node (creation order; not stable across runs).
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::ap("a").id(), a.id()); // the same node
    /// assert_ne!(Formula::ap("b").id(), a.id());
    /// ```
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// A structural hash, stable within a run.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// let f = Formula::until(Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(parse("a U b")?.structural_hash(), f.structural_hash());
    /// assert_ne!(parse("b U a")?.structural_hash(), f.structural_hash());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn structural_hash(&self) -> u64 {
        self.0.hash
    }

    /// Whether the formula has no temporal operator.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("a & !b -> c")?.is_boolean());
    /// assert!(!parse("a U b")?.is_boolean());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_boolean(&self) -> bool {
        self.0.props.boolean
    }

    /// Whether the formula is `true`.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, Formula};
    /// assert!(parse("true")?.is_true());
    /// assert!(!Formula::ap("a").is_true());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_true(&self) -> bool {
        self.0.op == Op::True
    }

    /// Whether the formula is `false`.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("false")?.is_false());
    /// assert!(!parse("a & !a")?.is_false()); // only `simplify` folds this one
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_false(&self) -> bool {
        self.0.op == Op::False
    }

    /// Whether the formula contains a future-time operator.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("a -> F b")?.has_future());
    /// assert!(!parse("a S b")?.has_future());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_future(&self) -> bool {
        self.0.props.has_future
    }

    /// Whether the formula contains a past-time operator.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("G(a -> Y b)")?.has_past());
    /// assert!(!parse("a U b")?.has_past());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_past(&self) -> bool {
        self.0.props.has_past
    }

    /// Whether the formula has no future-time operator and at least one
    /// past-time operator.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("H(a -> O b)")?.is_pure_past());
    /// assert!(!parse("G O a")?.is_pure_past());
    /// assert!(!parse("a & b")?.is_pure_past()); // no past operator
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_pure_past(&self) -> bool {
        self.0.props.has_past && !self.0.props.has_future
    }

    /// Whether some past-time operator applies to a formula with a
    /// future-time operator (outside the fragment the translator handles).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("O F p")?.has_past_over_future());
    /// assert!(!parse("F O p")?.has_past_over_future());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn has_past_over_future(&self) -> bool {
        self.0.props.past_over_future
    }

    /// The nesting depth of past-time operators.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert_eq!(parse("G Y(a S O b)")?.past_depth(), 3);
    /// assert_eq!(parse("G a")?.past_depth(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn past_depth(&self) -> u32 {
        self.0.props.past_depth
    }

    /// Whether the formula has no `X`, `Y` or `Z`: such formulas are
    /// stutter-invariant.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("G(a -> F b)")?.is_next_free());
    /// assert!(!parse("G(a -> X b)")?.is_next_free());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_next_free(&self) -> bool {
        self.0.props.next_free
    }

    /// Whether the formula is in negation normal form.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("!a U b")?.is_nnf());
    /// assert!(!parse("!(a U b)")?.is_nnf());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_nnf(&self) -> bool {
        self.0.props.nnf
    }

    /// Whether the formula is in Spot's syntactic safety class (Sistla's
    /// fragment, extended as in Spot: `G`, `R`, `W`, `X`, Boolean
    /// connectives, with the usual dualities under negation and `->`; past
    /// subformulas count as propositions).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// assert!(parse("G(req -> X ack)")?.is_syntactic_safety());
    /// assert!(parse("G(ack -> O req)")?.is_syntactic_safety()); // past as a proposition
    /// assert!(!parse("G(req -> F ack)")?.is_syntactic_safety());
    /// // Safety all the same (semantically): `analysis::classify` decides.
    /// assert!(!parse("F p -> (!q U p)")?.is_syntactic_safety());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_syntactic_safety(&self) -> bool {
        self.0.props.syntactic_safety
    }

    /// Whether the formula is in Spot's syntactic guarantee class (`F`,
    /// `U`, `M`, `X` and Boolean connectives).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert!(parse("F(a & X b)")?.is_syntactic_guarantee());
    /// assert!(!parse("G a")?.is_syntactic_guarantee());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_syntactic_guarantee(&self) -> bool {
        self.0.props.syntactic_guarantee
    }

    /// Whether the formula contains a SERE (it is PSL, not LTL).
    ///
    /// ```
    /// # use monitor_core::formula::{parse, parse_psl};
    /// assert!(parse_psl("{a;b} |-> c")?.is_psl());
    /// assert!(!parse("a U b")?.is_psl());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_psl(&self) -> bool {
        self.0.props.sere
    }

    /// For a SERE: whether it matches the empty word.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert!(Formula::star(a.clone(), 0, Some(2)).accepts_empty_word());
    /// assert!(!Formula::concat([a, b]).accepts_empty_word());
    /// ```
    pub fn accepts_empty_word(&self) -> bool {
        self.0.props.nullable
    }

    /// Whether the formula contains a SERE repetition without an upper
    /// bound (`[*]`, `[+]`, `[*n:inf]`, `[->]`, `[:*]`, ...). SEREs
    /// without one match only words of bounded length.
    ///
    /// ```
    /// # use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert!(Formula::star(a.clone(), 2, None).has_unbounded_repetition());
    /// assert!(!Formula::star(a, 0, Some(3)).has_unbounded_repetition());
    /// ```
    pub fn has_unbounded_repetition(&self) -> bool {
        self.0.props.unbounded
    }

    /// The bounds `(min, max)` of a repetition `r[*min..max]` (`None` as the
    /// maximum: unbounded); `None` for other operators.
    ///
    /// ```
    /// use monitor_core::formula::Formula;
    /// let a = Formula::ap("a");
    /// assert_eq!(Formula::star(a.clone(), 2, Some(3)).star_bounds(), Some((2, Some(3))));
    /// assert_eq!(Formula::star(a, 1, None).star_bounds(), Some((1, None)));
    /// ```
    pub fn star_bounds(&self) -> Option<(u32, Option<u32>)> {
        (self.0.op == Op::Star).then(|| {
            let (lo, hi) = self.0.bounds;
            (lo, (hi != u32::MAX).then_some(hi))
        })
    }

    /// The bounds `(min, max)` of a fusion power `r[:*min..max]` (`None`
    /// as the maximum: unbounded); `None` for other operators.
    ///
    /// ```
    /// use monitor_core::formula::{parse, Formula};
    /// let ab = Formula::concat([Formula::ap("a"), Formula::ap("b")]);
    /// assert_eq!(Formula::fusion_power(ab.clone(), 2, Some(3)).fusion_power_bounds(), Some((2, Some(3))));
    /// assert_eq!(parse("{{a;b}[:+]}")?.child(0).fusion_power_bounds(), Some((1, None)));
    /// assert_eq!(ab.fusion_power_bounds(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fusion_power_bounds(&self) -> Option<(u32, Option<u32>)> {
        (self.0.op == Op::FStar).then(|| {
            let (lo, hi) = self.0.bounds;
            (lo, (hi != u32::MAX).then_some(hi))
        })
    }

    /// The number of nodes of the formula seen as a tree (saturating).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// let f = parse("a U (a & b)")?;
    /// assert_eq!(f.tree_size(), 5); // `a` counts twice
    /// assert_eq!(f.subformulas_postorder().len(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn tree_size(&self) -> usize {
        self.0.props.tree_size as usize
    }

    /// The atomic propositions, in order of first occurrence, left to right
    /// in the formula as it prints (the operands of `&` and `|` are in a
    /// canonical order, temporal operands after Boolean ones).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("G(req -> X(ack | X req)) & F grant")?;
    /// assert_eq!(f.to_spot(), "Fgrant & G(req -> X(ack | Xreq))");
    /// assert_eq!(f.atomic_propositions(), ["grant", "req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn atomic_propositions(&self) -> Vec<String> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        let mut stack = vec![self.clone()];
        while let Some(f) = stack.pop() {
            if !seen.insert(f.clone()) {
                continue;
            }
            if let Some(n) = f.ap_name() {
                out.push(n.to_string());
            }
            stack.extend(f.children().iter().rev().cloned());
        }
        // The DFS above visits the leftmost operand first.
        let mut uniq = rustc_hash::FxHashSet::default();
        out.retain(|n| uniq.insert(n.clone()));
        out
    }

    /// All distinct subformulas, each listed after its operands.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("a U (a & b)")?;
    /// let subs: Vec<String> = f.subformulas_postorder().iter().map(|g| g.to_spot()).collect();
    /// // `a` is shared: listed once.
    /// assert_eq!(subs, ["a", "b", "a & b", "a U (a & b)"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn subformulas_postorder(&self) -> Vec<Formula> {
        let mut seen = rustc_hash::FxHashSet::default();
        let mut out = Vec::new();
        // Iterative post-order so that deep formulas cannot overflow.
        let mut stack: Vec<(Formula, bool)> = vec![(self.clone(), false)];
        while let Some((f, expanded)) = stack.pop() {
            if expanded {
                if seen.insert(f.clone()) {
                    out.push(f);
                }
                continue;
            }
            if seen.contains(&f) {
                continue;
            }
            stack.push((f.clone(), true));
            for c in f.children().iter().rev() {
                if !seen.contains(c) {
                    stack.push((c.clone(), false));
                }
            }
        }
        out
    }
}

impl std::ops::Not for Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula::not(self)
    }
}

impl std::ops::Not for &Formula {
    type Output = Formula;
    fn not(self) -> Formula {
        Formula::not(self.clone())
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        // Free long chains (X[1000] p, long conjunction spines) iteratively
        // rather than by recursive destructor calls.
        let mut stack: Vec<Formula> = std::mem::take(&mut self.children).into_vec();
        while let Some(f) = stack.pop() {
            if let Ok(mut node) = Arc::try_unwrap(f.0) {
                stack.extend(std::mem::take(&mut node.children).into_vec());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_consing_shares_nodes() {
        let a = Formula::ap("a");
        let b = Formula::ap("b");
        let f1 = Formula::until(a.clone(), Formula::next(b.clone()));
        let f2 = Formula::until(Formula::ap("a"), Formula::next(Formula::ap("b")));
        assert_eq!(f1, f2);
        assert_eq!(f1.id(), f2.id());
    }

    #[test]
    fn and_or_are_flattened_sorted_and_deduplicated() {
        let (a, b, c) = (Formula::ap("a"), Formula::ap("b"), Formula::ap("c"));
        let f = Formula::and([c.clone(), Formula::and([b.clone(), a.clone()]), a.clone()]);
        assert_eq!(f.children(), &[a.clone(), b.clone(), c.clone()]);
        assert_eq!(Formula::and([a.clone(), Formula::ff()]), Formula::ff());
        assert_eq!(Formula::or([a.clone(), Formula::ff()]), a);
        assert_eq!(Formula::or(Vec::new()), Formula::ff());
    }

    #[test]
    fn properties() {
        let p = |s| super::super::parse(s).unwrap();
        assert!(p("G(a -> X b)").is_syntactic_safety());
        assert!(!p("F a").is_syntactic_safety());
        assert!(p("F a").is_syntactic_guarantee());
        assert!(p("F a -> G b").is_syntactic_safety());
        assert!(p("G(a -> O b)").is_syntactic_safety());
        assert!(p("O(F a)").has_past_over_future());
        assert!(!p("G(a -> Y b)").is_next_free());
        assert!(p("G(a -> (b S c))").is_next_free());
        assert_eq!(p("Y(a S Y b)").past_depth(), 3);
    }

    #[test]
    fn deep_formulas_drop_without_overflow() {
        let mut f = Formula::ap("deep");
        for _ in 0..200_000 {
            f = Formula::next(f);
        }
        drop(f);
    }
}
