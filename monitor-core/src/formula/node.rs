//! The hash-consed formula node and its constructors.

use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use rustc_hash::{FxHashMap, FxHasher};

/// The operators of the logic, grouped as in Spot's `formula.hh`.
///
/// The declaration order is the canonical order of operands of `&` and `|`
/// (constants, then propositions, then negations, then temporal operators),
/// which is why `p0 & !p1 & Fp1` prints back in the order it is usually
/// written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    // constants
    /// The constant false (`false`, `0`).
    False,
    /// The constant true (`true`, `1`).
    True,
    // atoms
    /// An atomic proposition.
    Ap,
    // unary operators
    /// Negation (`!`, `~`).
    Not,
    /// Next (`X`): the operand holds at the next position.
    X,
    /// Eventually (`F`, `<>`).
    F,
    /// Globally (`G`, `[]`).
    G,
    /// Yesterday (`Y`): the operand held at the previous position; false at the first.
    Y,
    /// Weak yesterday (`Z`): as `Y`, but true at the first position.
    Z,
    /// Once (`O`): the operand held at some position up to now.
    O,
    /// Historically (`H`): the operand held at every position up to now.
    H,
    // binary operators
    /// Implication (`->`, `=>`).
    Implies,
    /// Equivalence (`<->`, `<=>`).
    Equiv,
    /// Exclusive or (`xor`, `^`).
    Xor,
    /// Strong until (`U`).
    U,
    /// Weak release (`R`, `V`), the dual of `U`.
    R,
    /// Weak until (`W`).
    W,
    /// Strong release (`M`), the dual of `W`.
    M,
    /// Since (`S`): the right operand held at some position up to now, and
    /// the left one at every position after it.
    S,
    /// Back-to (`B`), the weak since: `a B b` is `(a S b) | H a`.
    B,
    /// Trigger (`T`), the dual of since: `a T b` is `!(!a S !b)`.
    T,
    // PSL: sequential extended regular expressions (SEREs). Their Boolean
    // leaves are ordinary Boolean formulas, each matching one letter.
    /// The empty SERE `[*0]`, matching only the empty word.
    EmptyWord,
    /// SERE concatenation `r ; s` (n-ary, flattened).
    Concat,
    /// SERE fusion `r : s`: `r` and `s` overlap on one letter (n-ary).
    Fusion,
    /// SERE union `r | s` (n-ary).
    OrRat,
    /// Length-matching SERE intersection `r && s` (n-ary).
    AndRat,
    /// Repetition `r[*i..j]` ([`Formula::star_bounds`]); `[*]`, `[+]`,
    /// `[*n]`, `[=n]` and `[->n]` are written with it.
    Star,
    // PSL: formulas over SEREs. As in IEEE 1850, only non-empty matches
    // count.
    /// The weak closure `{r}`: every prefix of the word either has matched
    /// `r` or can still be completed to a match (IEEE 1850: completed with
    /// letters that satisfy every Boolean).
    Closure,
    /// The negated closure `!{r}`.
    NegClosure,
    /// `!{r}` while it is tracked by the breakpoint of the tableau (an
    /// internal form; equivalent to `NegClosure`).
    NegClosureMarked,
    /// Suffix implication `{r} |-> f` (Spot: `{r}[]-> f`): at the end of
    /// every match of `r`, `f` holds.
    UConcat,
    /// Suffix conjunction `{r} <>-> f` (Spot: `{r}<>-> f`): some match of
    /// `r` ends where `f` holds. The strong sequence `{r}!` is
    /// `{r} <>-> true`.
    EConcat,
    /// `EConcat` while tracked by the breakpoint of the tableau (internal).
    EConcatMarked,
    /// PSL's `f abort b`: `f` holds on the word whose letters, from the
    /// first `b` on, satisfy every Boolean (IEEE 1850's ⊤).
    Abort,
    /// The dual of `Abort`, its negation in negation normal form:
    /// `!(f abort b)` is `(!f)` on the word whose letters from the first
    /// `b` on satisfy no Boolean (⊥).
    AbortBottom,
    // n-ary operators
    /// Conjunction (`&`, `&&`, `/\`).
    And,
    /// Disjunction (`|`, `||`, `\/`).
    Or,
}

impl Op {
    /// The number of operands this operator takes (`None` for `&` and `|`).
    pub fn arity(self) -> Option<usize> {
        use Op::*;
        match self {
            False | True | Ap | EmptyWord => Some(0),
            Not | X | F | G | Y | Z | O | H => Some(1),
            Star | Closure | NegClosure | NegClosureMarked => Some(1),
            Implies | Equiv | Xor | U | R | W | M | S | B | T => Some(2),
            UConcat | EConcat | EConcatMarked | Abort | AbortBottom => Some(2),
            And | Or | Concat | Fusion | OrRat | AndRat => None,
        }
    }

    /// Whether this is a future-time temporal operator.
    pub fn is_future(self) -> bool {
        matches!(self, Op::X | Op::F | Op::G | Op::U | Op::R | Op::W | Op::M)
    }

    /// Whether this is a SERE operator (`[*0]`, `;`, `:`, `|`, `&&`,
    /// repetition).
    pub fn is_sere(self) -> bool {
        matches!(
            self,
            Op::EmptyWord | Op::Concat | Op::Fusion | Op::OrRat | Op::AndRat | Op::Star
        )
    }

    /// Whether this is a PSL operator of the temporal layer that LTL does
    /// not have: closures, suffix implication and conjunction (over
    /// SEREs), and `abort`.
    pub fn is_sere_formula(self) -> bool {
        matches!(
            self,
            Op::Closure
                | Op::NegClosure
                | Op::NegClosureMarked
                | Op::UConcat
                | Op::EConcat
                | Op::EConcatMarked
                | Op::Abort
                | Op::AbortBottom
        )
    }

    /// Whether this is a past-time temporal operator.
    pub fn is_past(self) -> bool {
        matches!(self, Op::Y | Op::Z | Op::O | Op::H | Op::S | Op::B | Op::T)
    }

    /// The operator's symbol in Spot syntax (past operators use the letters
    /// of this tool).
    pub fn symbol(self) -> &'static str {
        use Op::*;
        match self {
            False => "0",
            True => "1",
            Ap => "ap",
            Not => "!",
            X => "X",
            F => "F",
            G => "G",
            Y => "Y",
            Z => "Z",
            O => "O",
            H => "H",
            Implies => "->",
            Equiv => "<->",
            Xor => "xor",
            U => "U",
            R => "R",
            W => "W",
            M => "M",
            S => "S",
            B => "B",
            T => "T",
            EmptyWord => "[*0]",
            Concat => ";",
            Fusion => ":",
            OrRat => "|",
            AndRat => "&&",
            Star => "[*]",
            Closure => "{}",
            NegClosure => "!{}",
            NegClosureMarked => "!+{}",
            UConcat => "[]->",
            EConcat => "<>->",
            EConcatMarked => "<>+>",
            Abort => "abort",
            AbortBottom => "abort_bottom",
            And => "&",
            Or => "|",
        }
    }
}

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
            _ => false,
        },
        unbounded: any(|p| p.unbounded) || (op == Op::Star && bounds.1 == u32::MAX),
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
        Op::EmptyWord | Op::Concat | Op::Fusion | Op::OrRat | Op::AndRat | Op::Star => {
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
fn intern(op: Op, name: &str, children: Vec<Formula>) -> Formula {
    intern_with_bounds(op, name, (0, 0), children)
}

fn intern_with_bounds(op: Op, name: &str, bounds: (u32, u32), children: Vec<Formula>) -> Formula {
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
            .then_with(|| a.children.iter().cmp(b.children.iter()))
    }
}
/// Orders names with a numeric suffix by its value: `p2` < `p10`.
fn natural_cmp(a: &str, b: &str) -> Ordering {
    let split = |s: &str| {
        let digits = s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (stem, num) = s.split_at(s.len() - digits);
        (
            stem.to_string(),
            num.trim_start_matches('0').len(),
            num.to_string(),
        )
    };
    let (sa, la, na) = split(a);
    let (sb, lb, nb) = split(b);
    sa.cmp(&sb)
        .then(la.cmp(&lb))
        .then_with(|| na.cmp(&nb))
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
    pub fn op(&self) -> Op {
        self.0.op
    }

    /// The operands (empty for constants and propositions).
    pub fn children(&self) -> &[Formula] {
        &self.0.children
    }

    /// The `i`-th operand. Panics if there is none.
    pub fn child(&self, i: usize) -> &Formula {
        &self.0.children[i]
    }

    /// The name of an atomic proposition.
    pub fn ap_name(&self) -> Option<&str> {
        (self.0.op == Op::Ap).then_some(&*self.0.name)
    }

    /// A unique number of this node (creation order; not stable across runs).
    pub fn id(&self) -> u64 {
        self.0.id
    }

    /// A structural hash, stable within a run.
    pub fn structural_hash(&self) -> u64 {
        self.0.hash
    }

    /// Whether the formula has no temporal operator.
    pub fn is_boolean(&self) -> bool {
        self.0.props.boolean
    }

    /// Whether the formula is `true`.
    pub fn is_true(&self) -> bool {
        self.0.op == Op::True
    }

    /// Whether the formula is `false`.
    pub fn is_false(&self) -> bool {
        self.0.op == Op::False
    }

    /// Whether the formula contains a future-time operator.
    pub fn has_future(&self) -> bool {
        self.0.props.has_future
    }

    /// Whether the formula contains a past-time operator.
    pub fn has_past(&self) -> bool {
        self.0.props.has_past
    }

    /// Whether the formula has no future-time operator and at least one
    /// past-time operator.
    pub fn is_pure_past(&self) -> bool {
        self.0.props.has_past && !self.0.props.has_future
    }

    /// Whether some past-time operator applies to a formula with a
    /// future-time operator (outside the fragment the translator handles).
    pub fn has_past_over_future(&self) -> bool {
        self.0.props.past_over_future
    }

    /// The nesting depth of past-time operators.
    pub fn past_depth(&self) -> u32 {
        self.0.props.past_depth
    }

    /// Whether the formula has no `X`, `Y` or `Z`: such formulas are
    /// stutter-invariant.
    pub fn is_next_free(&self) -> bool {
        self.0.props.next_free
    }

    /// Whether the formula is in negation normal form.
    pub fn is_nnf(&self) -> bool {
        self.0.props.nnf
    }

    /// Whether the formula is in Spot's syntactic safety class (Sistla's
    /// fragment, extended as in Spot: `G`, `R`, `W`, `X`, Boolean
    /// connectives, with the usual dualities under negation and `->`; past
    /// subformulas count as propositions).
    pub fn is_syntactic_safety(&self) -> bool {
        self.0.props.syntactic_safety
    }

    /// Whether the formula is in Spot's syntactic guarantee class (`F`,
    /// `U`, `M`, `X` and Boolean connectives).
    pub fn is_syntactic_guarantee(&self) -> bool {
        self.0.props.syntactic_guarantee
    }

    /// Whether the formula contains a SERE (it is PSL, not LTL).
    pub fn is_psl(&self) -> bool {
        self.0.props.sere
    }

    /// For a SERE: whether it matches the empty word.
    pub fn accepts_empty_word(&self) -> bool {
        self.0.props.nullable
    }

    /// Whether the formula contains a SERE repetition without an upper
    /// bound (`[*]`, `[+]`, `[*n:inf]`, `[->]`, ...). SEREs without one
    /// match only words of bounded length.
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

    /// The number of nodes of the formula seen as a tree (saturating).
    pub fn tree_size(&self) -> usize {
        self.0.props.tree_size as usize
    }

    /// The atomic propositions, in order of first occurrence (left to right).
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

/// Constructors. They apply only trivial rewrites (constants, double
/// negation, flattening, sorting and deduplicating `&` and `|`), like
/// Spot's; everything else is the job of [`simplify`](super::simplify).
impl Formula {
    /// The constant `true`.
    pub fn tt() -> Formula {
        intern(Op::True, "", Vec::new())
    }

    /// The constant `false`.
    pub fn ff() -> Formula {
        intern(Op::False, "", Vec::new())
    }

    /// A Boolean constant.
    pub fn constant(value: bool) -> Formula {
        if value {
            Formula::tt()
        } else {
            Formula::ff()
        }
    }

    /// An atomic proposition (any non-empty name; names that are not plain
    /// identifiers print in double quotes).
    pub fn ap(name: &str) -> Formula {
        intern(Op::Ap, name, Vec::new())
    }

    /// Negation. (Also available as the `!` operator on formulas; the
    /// associated function reads like the other constructors.)
    #[allow(clippy::should_implement_trait)]
    pub fn not(f: Formula) -> Formula {
        match f.op() {
            Op::True => Formula::ff(),
            Op::False => Formula::tt(),
            Op::Not => f.child(0).clone(),
            _ => intern(Op::Not, "", vec![f]),
        }
    }

    /// A unary operator (`Not`, `X`, `F`, `G`, `Y`, `Z`, `O`, `H`).
    ///
    /// Panics if `op` is not unary.
    pub fn unop(op: Op, f: Formula) -> Formula {
        match op {
            Op::Not => Formula::not(f),
            // Constants are fixpoints of these operators, on the words of
            // a model. Not all of them on a word cut by `abort`, whose
            // letters from the cut on satisfy every Boolean (⊤, `false`
            // included) or none (⊥, `true` included): there `X false`
            // holds one letter before the cut and `false` does not, nor
            // does `F false` anywhere before it, and dually `X true` and
            // `G true` fail before a ⊥ cut. Only the folds that hold on
            // such words are made here; `simplify` makes the others,
            // outside `abort`.
            Op::F | Op::O | Op::H if f.op() == Op::True => f,
            Op::G | Op::O | Op::H if f.op() == Op::False => f,
            Op::Y if f.is_false() => f,
            Op::Z if f.is_true() => f,
            Op::X | Op::F | Op::G | Op::Y | Op::Z | Op::O | Op::H => intern(op, "", vec![f]),
            Op::Closure => Formula::closure(f),
            Op::NegClosure => Formula::neg_closure(f),
            Op::NegClosureMarked => Formula::neg_closure_marked(f),
            _ => panic!("{op:?} is not a unary operator"),
        }
    }

    /// A binary operator (`Implies`, `Equiv`, `Xor`, `U`, `R`, `W`, `M`,
    /// `S`, `B`, `T`).
    ///
    /// Panics if `op` is not binary.
    pub fn binop(op: Op, a: Formula, b: Formula) -> Formula {
        assert_eq!(op.arity(), Some(2), "{op:?} is not a binary operator");
        match op {
            Op::UConcat => Formula::uconcat(a, b),
            Op::EConcat => Formula::econcat(a, b),
            Op::EConcatMarked => Formula::econcat_marked(a, b),
            Op::Abort => Formula::abort(a, b),
            Op::AbortBottom => Formula::abort_bottom(a, b),
            _ => intern(op, "", vec![a, b]),
        }
    }

    /// An n-ary `And` or `Or`.
    ///
    /// Panics if `op` is neither.
    pub fn multop(op: Op, operands: impl IntoIterator<Item = Formula>) -> Formula {
        let (neutral, absorbing) = match op {
            Op::And => (Op::True, Op::False),
            Op::Or => (Op::False, Op::True),
            _ => panic!("{op:?} is not an n-ary operator"),
        };
        let mut v: Vec<Formula> = Vec::new();
        for f in operands {
            if f.op() == op {
                v.extend(f.children().iter().cloned());
            } else if f.op() == absorbing {
                return f;
            } else if f.op() != neutral {
                v.push(f);
            }
        }
        v.sort();
        v.dedup();
        match v.len() {
            0 => Formula::constant(op == Op::And),
            1 => v.pop().expect("one operand"),
            _ => intern(op, "", v),
        }
    }

    /// Conjunction of any number of operands (`true` if none).
    pub fn and(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::And, operands)
    }

    /// Disjunction of any number of operands (`false` if none).
    pub fn or(operands: impl IntoIterator<Item = Formula>) -> Formula {
        Formula::multop(Op::Or, operands)
    }

    /// `a -> b`.
    pub fn implies(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Implies, a, b)
    }

    /// `a <-> b`.
    pub fn equiv(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Equiv, a, b)
    }

    /// `a xor b`.
    pub fn xor(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::Xor, a, b)
    }

    /// `X f`.
    pub fn next(f: Formula) -> Formula {
        Formula::unop(Op::X, f)
    }

    /// `X` applied `n` times.
    pub fn next_n(f: Formula, n: usize) -> Formula {
        (0..n).fold(f, |g, _| Formula::next(g))
    }

    /// `F f`.
    pub fn eventually(f: Formula) -> Formula {
        Formula::unop(Op::F, f)
    }

    /// `G f`.
    pub fn always(f: Formula) -> Formula {
        Formula::unop(Op::G, f)
    }

    /// `a U b`.
    pub fn until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::U, a, b)
    }

    /// `a R b`.
    pub fn release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::R, a, b)
    }

    /// `a W b`.
    pub fn weak_until(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::W, a, b)
    }

    /// `a M b`.
    pub fn strong_release(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::M, a, b)
    }

    /// `Y f`.
    pub fn yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Y, f)
    }

    /// `Z f`.
    pub fn weak_yesterday(f: Formula) -> Formula {
        Formula::unop(Op::Z, f)
    }

    /// `O f`.
    pub fn once(f: Formula) -> Formula {
        Formula::unop(Op::O, f)
    }

    /// `H f`.
    pub fn historically(f: Formula) -> Formula {
        Formula::unop(Op::H, f)
    }

    /// `a S b`.
    pub fn since(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::S, a, b)
    }

    /// `a B b`.
    pub fn back_to(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::B, a, b)
    }

    /// `a T b`.
    pub fn trigger(a: Formula, b: Formula) -> Formula {
        Formula::binop(Op::T, a, b)
    }

    /// Rebuilds a node of the same operator with new operands.
    pub fn with_children(&self, children: Vec<Formula>) -> Formula {
        match self.op() {
            Op::True | Op::False | Op::Ap | Op::EmptyWord => self.clone(),
            Op::And | Op::Or => Formula::multop(self.op(), children),
            Op::Concat => Formula::concat(children),
            Op::Fusion => Formula::fusion(children),
            Op::OrRat => Formula::sere_or(children),
            Op::AndRat => Formula::sere_and(children),
            Op::Star => {
                let [c]: [Formula; 1] = children.try_into().expect("one operand");
                let (lo, hi) = self.star_bounds().expect("star");
                Formula::star(c, lo, hi)
            }
            op if op.arity() == Some(1) => {
                let [c]: [Formula; 1] = children.try_into().expect("one operand");
                Formula::unop(op, c)
            }
            op => {
                let [a, b]: [Formula; 2] = children.try_into().expect("two operands");
                Formula::binop(op, a, b)
            }
        }
    }

    /// Applies `f` bottom-up to every distinct subformula (memoized), so
    /// that `f` sees nodes whose operands were already rewritten.
    pub fn map_bottom_up(&self, mut f: impl FnMut(&Formula) -> Formula) -> Formula {
        let mut memo: FxHashMap<Formula, Formula> = FxHashMap::default();
        for g in self.subformulas_postorder() {
            let kids: Vec<Formula> = g.children().iter().map(|c| memo[c].clone()).collect();
            let rebuilt = if kids.iter().zip(g.children()).all(|(a, b)| a == b) {
                g.clone()
            } else {
                g.with_children(kids)
            };
            let out = f(&rebuilt);
            memo.insert(g, out);
        }
        memo.remove(self).expect("root was visited")
    }

    /// Negation normal form: negations only in front of propositions and
    /// pure-past subformulas; `->`, `<->` and `xor` expanded (outside
    /// pure-past subformulas, which are evaluated as they are). Outside
    /// `abort`, the constants the constructors leave are folded (`X 0`
    /// is `0`; see [`Formula::unop`]).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("!(a U (b -> X c))")?;
    /// assert_eq!(f.nnf().to_spot(), "!a R (b & X!c)");
    /// assert_eq!(parse("a U X X !true")?.nnf().to_spot(), "a U 0");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nnf(&self) -> Formula {
        let mut memo: FxHashMap<(Formula, bool, bool), Formula> = FxHashMap::default();
        nnf_rec(self, false, false, &mut memo)
    }

    /// The negation normal form of the operand of an `abort`, where no
    /// constant is folded (on the words `abort` cuts, `X 0` is not `0`).
    pub(crate) fn nnf_under_abort(&self) -> Formula {
        let mut memo: FxHashMap<(Formula, bool, bool), Formula> = FxHashMap::default();
        nnf_rec(self, false, true, &mut memo)
    }
}

/// PSL constructors: SEREs and the operators over them. Like the others
/// they only apply trivial rewrites: flattening, the empty word, and
/// SEREs made only of Booleans become Booleans. The Boolean `false`
/// matches no letter of a word, but IEEE 1850's weak closure completes
/// words with letters that satisfy every Boolean, so `false` is kept
/// inside SEREs (`{a;false}` is not `{false}`), and the operators over a
/// `false` SERE are not folded either (words cut by `abort` have such
/// letters).
///
/// ```
/// use monitor_core::formula::Formula;
/// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
/// let r = Formula::concat([a.clone(), Formula::star(b.clone(), 0, None), a.clone()]);
/// assert_eq!(r.to_spot(), "a;b[*];a");
/// assert_eq!(Formula::uconcat(r.clone(), b.clone()).to_spot(), "{a;b[*];a}[]-> b");
/// assert_eq!(Formula::econcat(r, Formula::tt()).to_spot(), "{a;b[*];a}!");
/// // A union of Booleans is a Boolean.
/// assert_eq!(Formula::sere_or([a.clone(), b.clone()]), Formula::or([a, b]));
/// ```
impl Formula {
    /// The empty SERE `[*0]`.
    pub fn empty_word() -> Formula {
        intern(Op::EmptyWord, "", Vec::new())
    }

    /// Concatenation `r1 ; r2 ; ...` (`[*0]` if there is no operand).
    pub fn concat(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::Concat => v.extend(f.children().iter().cloned()),
                Op::EmptyWord => {}
                // `false` is not absorbing: the weak closure completes a
                // prefix with letters that satisfy every Boolean, `false`
                // included (IEEE 1850's ⊤), so `{a;false}` is not `{false}`.
                _ => v.push(f),
            }
        }
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::Concat, "", v),
        }
    }

    /// Fusion `r1 : r2 : ...`: consecutive operands share one letter, so
    /// an operand matching only the empty word makes it match nothing.
    /// (It is not folded into `false`, which matches a ⊤ letter of a word
    /// cut by `abort`.)
    pub fn fusion(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::Fusion => v.extend(f.children().iter().cloned()),
                _ => v.push(f),
            }
        }
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::Fusion, "", v),
        }
    }

    /// Union `r1 | r2 | ...` (`false` if none).
    pub fn sere_or(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::OrRat => v.extend(f.children().iter().cloned()),
                // `false` is no empty language: it matches one ⊤ letter
                // (`[*0] | false` is not `[*0]` on a word cut by `abort`);
                // among Booleans, `or` drops it.
                _ => v.push(f),
            }
        }
        if v.iter().all(Formula::is_boolean) {
            return Formula::or(v);
        }
        v.sort();
        v.dedup();
        match v.len() {
            1 => v.pop().expect("one operand"),
            _ => intern(Op::OrRat, "", v),
        }
    }

    /// Length-matching intersection `r1 && r2 && ...` (`[*0]` if none).
    pub fn sere_and(operands: impl IntoIterator<Item = Formula>) -> Formula {
        let mut v = Vec::new();
        for f in operands {
            match f.op() {
                Op::AndRat => v.extend(f.children().iter().cloned()),
                _ => v.push(f),
            }
        }
        if !v.is_empty() && v.iter().all(Formula::is_boolean) {
            return Formula::and(v);
        }
        v.sort();
        v.dedup();
        match v.len() {
            0 => Formula::empty_word(),
            1 => v.pop().expect("one operand"),
            _ => intern(Op::AndRat, "", v),
        }
    }

    /// The non-length-matching intersection `r1 & r2` of PSL: both match,
    /// one of them possibly on a prefix of the other's match. It is
    /// written `{r1 ; [*]} && r2 | r1 && {r2 ; [*]}`.
    pub fn sere_and_nlm(a: Formula, b: Formula) -> Formula {
        if a.is_boolean() && b.is_boolean() {
            return Formula::and([a, b]);
        }
        let any = Formula::star(Formula::tt(), 0, None);
        Formula::sere_or([
            Formula::sere_and([Formula::concat([a.clone(), any.clone()]), b.clone()]),
            Formula::sere_and([a, Formula::concat([b, any])]),
        ])
    }

    /// Repetition `r[*min..max]`; `max = None` is unbounded. Panics if
    /// `max < min`.
    pub fn star(r: Formula, min: u32, max: Option<u32>) -> Formula {
        let hi = max.unwrap_or(u32::MAX);
        assert!(min <= hi, "repetition [*{min}..{hi}] with max < min");
        match r.op() {
            _ if hi == 0 => Formula::empty_word(),
            Op::EmptyWord => r,
            _ if (min, hi) == (1, 1) => r,
            // r[*][*] = r[*]
            Op::Star if (min, hi) == (0, u32::MAX) && r.0.bounds == (0, u32::MAX) => r,
            _ => intern_with_bounds(Op::Star, "", (min, hi), vec![r]),
        }
    }

    /// The weak closure `{r}`.
    pub fn closure(r: Formula) -> Formula {
        intern(Op::Closure, "", vec![r])
    }

    /// The negated closure `!{r}` (also what `Formula::not` of a closure
    /// becomes in negation normal form).
    pub fn neg_closure(r: Formula) -> Formula {
        intern(Op::NegClosure, "", vec![r])
    }

    /// The marked negated closure (internal to the tableau).
    pub fn neg_closure_marked(r: Formula) -> Formula {
        intern(Op::NegClosureMarked, "", vec![r])
    }

    /// Suffix implication `{r} |-> f`. (`{r} |-> true` is not folded into
    /// `true`: on a word cut by `abort` into ⊥ letters, `true` fails at
    /// the end of a match inside the cut; `simplify` folds it outside
    /// `abort`.)
    pub fn uconcat(r: Formula, f: Formula) -> Formula {
        intern(Op::UConcat, "", vec![r, f])
    }

    /// Suffix conjunction `{r} <>-> f`; `{r}!` is `econcat(r, true)`.
    /// (`{r} <>-> false` is not folded into `false`, which holds at the
    /// end of a match inside a cut into ⊤ letters.)
    pub fn econcat(r: Formula, f: Formula) -> Formula {
        intern(Op::EConcat, "", vec![r, f])
    }

    /// The marked suffix conjunction (internal to the tableau).
    pub fn econcat_marked(r: Formula, f: Formula) -> Formula {
        intern(Op::EConcatMarked, "", vec![r, f])
    }

    /// PSL's `f abort b` (`b` a Boolean). On a Boolean `f` it is `f | b`
    /// (at the first `b` every letter satisfies `f`); nested aborts join
    /// their conditions.
    ///
    /// ```
    /// use monitor_core::formula::{Formula, parse};
    /// let (a, b) = (Formula::ap("a"), Formula::ap("b"));
    /// assert_eq!(Formula::abort(a.clone(), b.clone()), Formula::or([a.clone(), b.clone()]));
    /// let g = Formula::always(a);
    /// assert_eq!(Formula::abort(g.clone(), b).to_spot(), "(Ga) abort b");
    /// ```
    pub fn abort(f: Formula, b: Formula) -> Formula {
        assert!(!b.has_future(), "the condition of abort must be a Boolean");
        if !f.has_future() {
            return Formula::or([f, b]);
        }
        if b.is_false() {
            return f;
        }
        if f.op() == Op::Abort {
            let inner = Formula::or([f.child(1).clone(), b]);
            return Formula::abort(f.child(0).clone(), inner);
        }
        intern(Op::Abort, "", vec![f, b])
    }

    /// The dual of [`Formula::abort`] (`!(f abort b)` is
    /// `abort_bottom(!f, b)`): on a Boolean `f` it is `f & !b`.
    pub fn abort_bottom(f: Formula, b: Formula) -> Formula {
        assert!(!b.has_future(), "the condition of abort must be a Boolean");
        if !f.has_future() {
            return Formula::and([f, Formula::not(b)]);
        }
        if b.is_false() {
            return f;
        }
        if f.op() == Op::AbortBottom {
            let inner = Formula::or([f.child(1).clone(), b]);
            return Formula::abort_bottom(f.child(0).clone(), inner);
        }
        intern(Op::AbortBottom, "", vec![f, b])
    }
}

fn nnf_rec(
    f: &Formula,
    neg: bool,
    cut: bool,
    memo: &mut FxHashMap<(Formula, bool, bool), Formula>,
) -> Formula {
    if let Some(r) = memo.get(&(f.clone(), neg, cut)) {
        return r.clone();
    }
    let pos = |g: &Formula, memo: &mut FxHashMap<_, _>| nnf_rec(g, false, cut, memo);
    let ngt = |g: &Formula, memo: &mut FxHashMap<_, _>| nnf_rec(g, true, cut, memo);
    let r = if !f.has_future() && (f.has_past() || f.op() == Op::Ap) {
        // Pure-past formulas (and propositions) are leaves of the NNF.
        if neg {
            Formula::not(f.clone())
        } else {
            f.clone()
        }
    } else {
        let (a, b) = (f.children().first(), f.children().get(1));
        match (f.op(), neg) {
            (Op::True | Op::False, _) => Formula::constant(f.is_true() != neg),
            (Op::Ap, _) => unreachable!("handled above"),
            (Op::Not, _) => nnf_rec(f.child(0), !neg, cut, memo),
            (Op::And, false) | (Op::Or, true) => Formula::and(
                f.children()
                    .iter()
                    .map(|c| nnf_rec(c, neg, cut, memo))
                    .collect::<Vec<_>>(),
            ),
            (Op::Or, false) | (Op::And, true) => Formula::or(
                f.children()
                    .iter()
                    .map(|c| nnf_rec(c, neg, cut, memo))
                    .collect::<Vec<_>>(),
            ),
            (Op::X, _) => Formula::next(nnf_rec(a.unwrap(), neg, cut, memo)),
            (Op::F, false) | (Op::G, true) => {
                Formula::eventually(nnf_rec(a.unwrap(), neg, cut, memo))
            }
            (Op::G, false) | (Op::F, true) => Formula::always(nnf_rec(a.unwrap(), neg, cut, memo)),
            (Op::Implies, false) => {
                let (x, y) = (ngt(a.unwrap(), memo), pos(b.unwrap(), memo));
                Formula::or([x, y])
            }
            (Op::Implies, true) => {
                let (x, y) = (pos(a.unwrap(), memo), ngt(b.unwrap(), memo));
                Formula::and([x, y])
            }
            (Op::Equiv, _) | (Op::Xor, _) => {
                // a <-> b  ==  (a & b) | (!a & !b);  a xor b  ==  (a & !b) | (!a & b)
                let same = (f.op() == Op::Equiv) != neg;
                let (pa, na) = (pos(a.unwrap(), memo), ngt(a.unwrap(), memo));
                let (pb, nb) = (pos(b.unwrap(), memo), ngt(b.unwrap(), memo));
                if same {
                    Formula::or([Formula::and([pa, pb]), Formula::and([na, nb])])
                } else {
                    Formula::or([Formula::and([pa, nb]), Formula::and([na, pb])])
                }
            }
            (Op::U | Op::R | Op::W | Op::M, _) => {
                let op = match (f.op(), neg) {
                    (op, false) => op,
                    (Op::U, true) => Op::R,
                    (Op::R, true) => Op::U,
                    (Op::W, true) => Op::M,
                    (Op::M, true) => Op::W,
                    _ => unreachable!(),
                };
                let (x, y) = (
                    nnf_rec(a.unwrap(), neg, cut, memo),
                    nnf_rec(b.unwrap(), neg, cut, memo),
                );
                Formula::binop(op, x, y)
            }
            // A SERE on its own (not a formula) is left as it is.
            (op, _) if op.is_sere() => f.clone(),
            // PSL: the SERE is kept as it is; the dualities of LHJ10.
            (Op::Closure, false) | (Op::NegClosure | Op::NegClosureMarked, true) => {
                Formula::closure(a.unwrap().clone())
            }
            (Op::Closure, true) => Formula::neg_closure(a.unwrap().clone()),
            (Op::NegClosure, false) => f.clone(),
            (Op::NegClosureMarked, false) => f.clone(),
            (Op::UConcat, false) | (Op::EConcat | Op::EConcatMarked, true) => {
                Formula::uconcat(a.unwrap().clone(), nnf_rec(b.unwrap(), neg, cut, memo))
            }
            (Op::EConcat, false) | (Op::UConcat, true) => {
                Formula::econcat(a.unwrap().clone(), nnf_rec(b.unwrap(), neg, cut, memo))
            }
            (Op::EConcatMarked, false) => {
                Formula::econcat_marked(a.unwrap().clone(), nnf_rec(b.unwrap(), false, cut, memo))
            }
            (Op::Abort, false) | (Op::AbortBottom, true) => {
                Formula::abort(nnf_rec(a.unwrap(), neg, true, memo), b.unwrap().clone())
            }
            (Op::AbortBottom, false) | (Op::Abort, true) => {
                Formula::abort_bottom(nnf_rec(a.unwrap(), neg, true, memo), b.unwrap().clone())
            }
            // Past operators over future formulas: keep the structure (the
            // translator rejects them); negate at the top.
            (op, _) if op.is_past() => {
                let kids = f.children().iter().map(|c| pos(c, memo)).collect();
                let g = f.with_children(kids);
                if neg {
                    Formula::not(g)
                } else {
                    g
                }
            }
            _ => unreachable!("all operators handled"),
        }
    };
    // The constants the constructors leave (see `Formula::unop`), outside
    // `abort`: every route then reads `X 0` as `0`, as it always did.
    let r = match fold_constant(&r) {
        Some(c) if !cut => c,
        _ => r,
    };
    memo.insert((f.clone(), neg, cut), r.clone());
    r
}

/// The constant folds that hold on the words of a model but not on the
/// words `abort` cuts (see [`Formula::unop`]), at the root of `f`: `X 1 =
/// 1`, `X 0 = 0`, `F 0 = 0`, `G 1 = 1`, `{r} |-> 1 = 1`, `{r} <>-> 0 = 0`.
pub(crate) fn fold_constant(f: &Formula) -> Option<Formula> {
    let kids = f.children();
    match f.op() {
        Op::X if kids[0].is_true() || kids[0].is_false() => Some(kids[0].clone()),
        Op::F if kids[0].is_false() => Some(Formula::ff()),
        Op::G if kids[0].is_true() => Some(Formula::tt()),
        Op::UConcat if kids[1].is_true() => Some(Formula::tt()),
        Op::EConcat | Op::EConcatMarked if kids[1].is_false() => Some(Formula::ff()),
        _ => None,
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
