//! Edge labels: a guard is printed as an irredundant sum of products when
//! that is small next to its decision diagram, and as a factored formula
//! otherwise.
//!
//! Why not always a sum of products: its size follows the cubes, not the
//! function. The monitor of `G(a -> X((q0 | r0) & … & (q29 | r29)))` has
//! four states, and the guard of the edge that waits for the conjunction
//! is a diagram of 60 nodes whose every sum of products has `2^30` cubes.
//! A factored formula follows the diagram: the function is split into
//! conjuncts (or disjuncts) over disjoint propositions where the diagram
//! allows it (a level of the diagram that every path to `true`, or to
//! `false`, crosses through one node), and by Shannon expansion on its top
//! proposition where it does not. Its pieces are shared, so that building
//! it costs what the diagram costs; only its printed size (the literals of
//! the formula written out as a tree) can exceed the diagram's, and
//! [`LabelError`] refuses labels of more than [`MAX_LABEL_LITERALS`]
//! literals (`p0 ^ p1 ^ … ^ p29` has no small formula of `&`, `|` and `!`,
//! whatever the method).

use std::fmt;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::dfa::{BadPrefixDfa, Edge, StateId, Target, VIOLATION_LEAF};
use super::Alphabet;
use crate::dd::{Cube, Manager, Node};
use crate::formula::print::is_bare_ap;
use crate::Valuation;

/// The most literals a label may have written out (a factored formula as
/// a tree, or a sum of products); beyond, [`LabelError`].
pub const MAX_LABEL_LITERALS: usize = 1 << 20;

/// A sum of products is kept if it has at most this many literals (plus
/// one per cube), or [`SOP_LITERALS_PER_NODE`] per node of the diagram.
const SOP_LITERALS: usize = 256;
/// See [`SOP_LITERALS`].
const SOP_LITERALS_PER_NODE: usize = 8;
/// Pieces of a factored guard of at most this many nodes are tried as
/// sums of products of at most [`PIECE_LITERALS_PER_NODE`] literals per
/// node before they are expanded.
const PIECE_NODES: usize = 64;
/// See [`PIECE_NODES`].
const PIECE_LITERALS_PER_NODE: usize = 3;

/// A node of a factored guard ([`Guard::factored`]). Operands are shared
/// (`Arc`): a formula is a tree in print and a graph in memory.
///
/// ```
/// use std::sync::Arc;
/// use monitor_core::automaton::GuardExpr;
///
/// // (p0 | p1) & p2
/// let e = GuardExpr::And(vec![
///     Arc::new(GuardExpr::Or(vec![
///         Arc::new(GuardExpr::Literal(0, true)),
///         Arc::new(GuardExpr::Literal(1, true)),
///     ])),
///     Arc::new(GuardExpr::Literal(2, true)),
/// ]);
/// assert!(e.eval(&0b110u64) && !e.eval(&0b011u64));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum GuardExpr {
    /// A proposition (`true`) or its negation (`false`).
    Literal(u32, bool),
    /// All of the operands hold (two or more).
    And(Vec<Arc<GuardExpr>>),
    /// One of the operands holds (two or more).
    Or(Vec<Arc<GuardExpr>>),
}

impl GuardExpr {
    /// Whether a letter satisfies the formula.
    ///
    /// ```
    /// use monitor_core::automaton::GuardExpr;
    ///
    /// assert!(GuardExpr::Literal(1, false).eval(&0b01u64));
    /// ```
    pub fn eval(&self, letter: &impl Valuation) -> bool {
        match self {
            GuardExpr::Literal(v, pos) => letter.holds(*v as usize) == *pos,
            GuardExpr::And(xs) => xs.iter().all(|x| x.eval(letter)),
            GuardExpr::Or(xs) => xs.iter().any(|x| x.eval(letter)),
        }
    }

    fn cube(c: &[(u32, bool)]) -> Arc<GuardExpr> {
        let lits = c
            .iter()
            .map(|&(v, pos)| Arc::new(GuardExpr::Literal(v, pos)));
        if c.len() == 1 {
            Arc::new(GuardExpr::Literal(c[0].0, c[0].1))
        } else {
            Arc::new(GuardExpr::And(lits.collect()))
        }
    }
}

/// A Boolean guard over the propositions of an automaton: an irredundant
/// sum of products (cubes of `(proposition, polarity)`) when that is
/// small, a factored formula ([`GuardExpr`]) otherwise (see
/// [`BadPrefixDfa::labeler`]). The constants are always sums of products.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guard {
    repr: Repr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    Cubes(Vec<Cube>),
    Factored {
        expr: Arc<GuardExpr>,
        /// The literals of `expr` written out.
        literals: usize,
    },
}

/// How a target writes Boolean expressions, for [`Guard::write`]. `&`
/// binds tighter than `|` in all of them; `!` applies to propositions
/// only.
#[derive(Clone, Copy, Debug)]
pub struct GuardSyntax<'a> {
    /// Conjunction, with its spaces (`" & "`).
    pub and: &'a str,
    /// Disjunction, with its spaces (`" | "`).
    pub or: &'a str,
    /// Negation (prefix).
    pub not: &'a str,
    /// The constant true.
    pub tt: &'a str,
    /// The constant false.
    pub ff: &'a str,
    /// Whether a conjunction inside a disjunction gets parentheses it
    /// does not need (C compilers warn about `a && b || c`).
    pub group_conjunctions: bool,
}

/// Spot's syntax (`req & !ack | err`, `1`, `0`).
const SPOT: GuardSyntax<'static> = GuardSyntax {
    and: " & ",
    or: " | ",
    not: "!",
    tt: "1",
    ff: "0",
    group_conjunctions: false,
};

/// HOA's syntax (`0&!1 | 2`, `t`, `f`).
const HOA: GuardSyntax<'static> = GuardSyntax {
    and: "&",
    or: " | ",
    not: "!",
    tt: "t",
    ff: "f",
    group_conjunctions: false,
};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Top,
    And,
    Or,
}

impl Guard {
    /// A guard from its cubes (an empty list is `false`, a list holding
    /// the empty cube is `true`).
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// assert!(Guard::from_cubes(vec![]).is_false());
    /// assert!(Guard::from_cubes(vec![vec![]]).is_true());
    /// // `0 & !1`: one cube of two literals.
    /// assert_eq!(Guard::from_cubes(vec![vec![(0, true), (1, false)]]).to_hoa(), "0&!1");
    /// ```
    pub fn from_cubes(cubes: Vec<Cube>) -> Guard {
        Guard {
            repr: Repr::Cubes(cubes),
        }
    }

    /// A guard from a factored formula.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use monitor_core::automaton::{Guard, GuardExpr};
    ///
    /// let g = Guard::from_expr(Arc::new(GuardExpr::Or(vec![
    ///     Arc::new(GuardExpr::Literal(0, true)),
    ///     Arc::new(GuardExpr::Literal(1, false)),
    /// ])));
    /// assert_eq!(g.to_hoa(), "0 | !1");
    /// assert_eq!(g.cubes(), None);
    /// ```
    pub fn from_expr(expr: Arc<GuardExpr>) -> Guard {
        let literals = tree_literals(&expr, &mut FxHashMap::default());
        Guard {
            repr: Repr::Factored {
                expr,
                literals: usize::try_from(literals).unwrap_or(usize::MAX),
            },
        }
    }

    /// The guard of the decision diagram `f` (whose leaves are `0` and
    /// `1`) of `m`: its irredundant sum of products if that is small next
    /// to the diagram, else a factored formula, as the edges of monitors
    /// are labelled ([`BadPrefixDfa::edges`]).
    ///
    /// ```
    /// use monitor_core::automaton::Guard;
    /// use monitor_core::dd::{Manager, Node};
    ///
    /// let mut m = Manager::new();
    /// let mut f = Node::TRUE;
    /// for i in 0..30 {
    ///     let (q, r) = (m.var(2 * i), m.var(2 * i + 1));
    ///     let s = m.or(q, r);
    ///     f = m.and(f, s);
    /// }
    /// let g = Guard::of_diagram(&mut m, f)?;
    /// assert!(g.to_hoa().starts_with("(0 | 1)&(2 | 3)&(4 | 5)"));
    /// assert_eq!(g.to_diagram(&mut m), f);
    /// # Ok::<(), monitor_core::automaton::LabelError>(())
    /// ```
    pub fn of_diagram(m: &mut Manager, f: Node) -> Result<Guard, LabelError> {
        label(m, f)
    }

    /// The guard of the decision diagram `f` of `m` as a factored formula
    /// however small its sum of products (constants and cubes stay sums
    /// of products), for tests and for targets that prefer formulas.
    ///
    /// ```
    /// use monitor_core::automaton::Guard;
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// let (a, b, c) = (m.var(0), m.var(1), m.var(2));
    /// let (ab, ac) = (m.and(a, b), m.and(a, c));
    /// let f = m.or(ab, ac);
    /// assert_eq!(Guard::factor_diagram(&mut m, f)?.to_hoa(), "0&(1 | 2)");
    /// assert_eq!(Guard::of_diagram(&mut m, f)?.to_hoa(), "0&1 | 0&2");
    /// # Ok::<(), monitor_core::automaton::LabelError>(())
    /// ```
    pub fn factor_diagram(m: &mut Manager, f: Node) -> Result<Guard, LabelError> {
        if f == Node::FALSE || f == Node::TRUE || m.as_cube(f).is_some() {
            return label(m, f);
        }
        factored(m, f, m.count_nodes(&[f]))
    }

    /// The cubes, each sorted by proposition, if the guard is a sum of
    /// products (`None` if it is factored: see [`Guard::factored`]).
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)], vec![(2, true)]]);
    /// assert_eq!(g.cubes().unwrap(), [vec![(0, true), (1, false)], vec![(2, true)]]);
    /// ```
    pub fn cubes(&self) -> Option<&[Cube]> {
        match &self.repr {
            Repr::Cubes(c) => Some(c),
            Repr::Factored { .. } => None,
        }
    }

    /// The factored formula, if the guard is one (never a constant).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    ///
    /// let f = (0..30).map(|i| format!("(q{i} | r{i})")).collect::<Vec<_>>().join(" & ");
    /// let dfa = Builder::new().build(&format!("G(a -> X({f}))"))?.into_dfa();
    /// // Waiting for the conjunction: 2^30 cubes, or one product of 30 sums.
    /// let ok = dfa.allowed_guard(monitor_core::automaton::StateId::new(1))?;
    /// assert!(ok.cubes().is_none() && ok.factored().is_some());
    /// assert_eq!(ok.literals(), 60);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn factored(&self) -> Option<&GuardExpr> {
        match &self.repr {
            Repr::Cubes(_) => None,
            Repr::Factored { expr, .. } => Some(expr),
        }
    }

    /// The number of literals the guard has written out (a sum of
    /// products counts the literals of its cubes), a measure of its size.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)], vec![(2, true)]]);
    /// assert_eq!(g.literals(), 3);
    /// ```
    pub fn literals(&self) -> usize {
        match &self.repr {
            Repr::Cubes(c) => c.iter().map(Vec::len).sum(),
            Repr::Factored { literals, .. } => *literals,
        }
    }

    /// The propositions the guard mentions, in increasing order.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// let g = Guard::from_cubes(vec![vec![(3, true), (1, false)], vec![(3, false)]]);
    /// assert_eq!(g.propositions(), [1, 3]);
    /// ```
    pub fn propositions(&self) -> Vec<u32> {
        let mut out = Vec::new();
        match &self.repr {
            Repr::Cubes(c) => out.extend(c.iter().flatten().map(|&(v, _)| v)),
            Repr::Factored { expr, .. } => {
                let mut seen = rustc_hash::FxHashSet::default();
                let mut stack: Vec<&GuardExpr> = vec![expr];
                while let Some(e) = stack.pop() {
                    match e {
                        GuardExpr::Literal(v, _) => out.push(*v),
                        GuardExpr::And(xs) | GuardExpr::Or(xs) => {
                            for x in xs {
                                if seen.insert(Arc::as_ptr(x)) {
                                    stack.push(x);
                                }
                            }
                        }
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether the guard is `true`, read from its cubes: one is empty. The
    /// guards the crate builds are minimal covers, where `true` is always
    /// the empty cube; a hand-made cover such as `a | !a` is not seen as
    /// `true`.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// assert!(Guard::from_cubes(vec![vec![(0, true)], vec![]]).is_true());
    /// assert!(!Guard::from_cubes(vec![vec![(0, true)]]).is_true());
    /// ```
    pub fn is_true(&self) -> bool {
        self.cubes().is_some_and(|c| c.iter().any(Vec::is_empty))
    }

    /// Whether the guard is `false`.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// assert!(Guard::from_cubes(vec![]).is_false());
    /// assert!(!Guard::from_cubes(vec![vec![(0, false)]]).is_false());
    /// ```
    pub fn is_false(&self) -> bool {
        self.cubes().is_some_and(<[Cube]>::is_empty)
    }

    /// Whether a letter satisfies the guard.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// // `p0 & !p1`, on bit masks and on one bool per proposition.
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)]]);
    /// assert!(g.eval(&0b01u64) && !g.eval(&0b11u64));
    /// assert!(g.eval(&[true, false]));
    /// ```
    pub fn eval(&self, letter: &impl Valuation) -> bool {
        match &self.repr {
            Repr::Cubes(cubes) => cubes
                .iter()
                .any(|c| c.iter().all(|&(v, pos)| letter.holds(v as usize) == pos)),
            Repr::Factored { expr, .. } => expr.eval(letter),
        }
    }

    /// The guard as a decision diagram of `m` (linear in the shared form
    /// of a factored guard).
    ///
    /// ```
    /// use monitor_core::automaton::Guard;
    /// use monitor_core::dd::Manager;
    ///
    /// let mut m = Manager::new();
    /// let g = Guard::from_cubes(vec![vec![(0, true)], vec![(1, true)]]);
    /// let (a, b) = (m.var(0), m.var(1));
    /// assert_eq!(g.to_diagram(&mut m), m.or(a, b));
    /// ```
    pub fn to_diagram(&self, m: &mut Manager) -> Node {
        match &self.repr {
            Repr::Cubes(cubes) => {
                let mut r = Node::FALSE;
                for c in cubes {
                    let c = m.cube(c);
                    r = m.or(r, c);
                }
                r
            }
            Repr::Factored { expr, .. } => expr_diagram(expr, m, &mut FxHashMap::default()),
        }
    }

    /// Whether some letter satisfies both guards.
    ///
    /// ```
    /// use monitor_core::automaton::Guard;
    ///
    /// let a = Guard::from_cubes(vec![vec![(0, true)]]);
    /// let not_a = Guard::from_cubes(vec![vec![(0, false)]]);
    /// let b = Guard::from_cubes(vec![vec![(1, true)]]);
    /// assert!(!a.intersects(&not_a));
    /// assert!(a.intersects(&b));
    /// ```
    pub fn intersects(&self, other: &Guard) -> bool {
        if let (Some(x), Some(y)) = (self.cubes(), other.cubes()) {
            return x.iter().any(|c| {
                y.iter().any(|d| {
                    c.iter()
                        .all(|&(v, pos)| d.iter().all(|&(w, q)| w != v || q == pos))
                })
            });
        }
        let mut m = Manager::new();
        let (x, y) = (self.to_diagram(&mut m), other.to_diagram(&mut m));
        m.and(x, y) != Node::FALSE
    }

    /// Writes the guard with the operators of `syntax`, each proposition
    /// written by `name`. A factored guard is written as a tree: its size
    /// is [`Guard::literals`].
    ///
    /// ```
    /// use monitor_core::automaton::{Guard, GuardSyntax};
    ///
    /// let c = GuardSyntax { and: " && ", or: " || ", not: "!", tt: "1", ff: "0", group_conjunctions: true };
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)], vec![(2, true)]]);
    /// let mut out = String::new();
    /// g.write(&mut out, &c, &mut |out, v| write!(out, "x{v}"))?;
    /// assert_eq!(out, "(x0 && !x1) || x2");
    /// # Ok::<(), std::fmt::Error>(())
    /// ```
    pub fn write(
        &self,
        out: &mut dyn fmt::Write,
        syntax: &GuardSyntax<'_>,
        name: &mut dyn FnMut(&mut dyn fmt::Write, u32) -> fmt::Result,
    ) -> fmt::Result {
        match &self.repr {
            Repr::Cubes(cubes) => {
                if cubes.is_empty() {
                    return out.write_str(syntax.ff);
                }
                if cubes.iter().any(Vec::is_empty) {
                    return out.write_str(syntax.tt);
                }
                for (i, c) in cubes.iter().enumerate() {
                    if i > 0 {
                        out.write_str(syntax.or)?;
                    }
                    let group = syntax.group_conjunctions && cubes.len() > 1 && c.len() > 1;
                    if group {
                        out.write_char('(')?;
                    }
                    for (j, &(v, pos)) in c.iter().enumerate() {
                        if j > 0 {
                            out.write_str(syntax.and)?;
                        }
                        if !pos {
                            out.write_str(syntax.not)?;
                        }
                        name(out, v)?;
                    }
                    if group {
                        out.write_char(')')?;
                    }
                }
                Ok(())
            }
            Repr::Factored { expr, .. } => write_expr(expr, Context::Top, out, syntax, name),
        }
    }

    /// The guard in Spot's syntax with proposition names, `1` and `0` for
    /// the constants: `req & !ack | err`, `a & (b | c)`.
    ///
    /// ```
    /// # use monitor_core::automaton::{Alphabet, Guard};
    /// let aps = Alphabet::new(["req", "ack", "err"]);
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)], vec![(2, true)]]);
    /// assert_eq!(g.display(&aps).to_string(), "req & !ack | err");
    /// assert_eq!(Guard::from_cubes(vec![]).display(&aps).to_string(), "0");
    /// ```
    pub fn display<'a>(&'a self, aps: &'a Alphabet) -> impl fmt::Display + 'a {
        GuardDisplay { guard: self, aps }
    }

    /// The guard in HOA syntax (propositions by number): `0&!1 | 2`, `t`,
    /// `f`, `0&(1 | 2)`.
    ///
    /// ```
    /// # use monitor_core::automaton::Guard;
    /// let g = Guard::from_cubes(vec![vec![(0, true), (1, false)], vec![(2, true)]]);
    /// assert_eq!(g.to_hoa(), "0&!1 | 2");
    /// assert_eq!(Guard::from_cubes(vec![vec![]]).to_hoa(), "t");
    /// ```
    pub fn to_hoa(&self) -> String {
        let mut out = String::new();
        let _ = self.write(&mut out, &HOA, &mut |out, v| write!(out, "{v}"));
        out
    }
}

fn write_expr(
    e: &GuardExpr,
    ctx: Context,
    out: &mut dyn fmt::Write,
    syntax: &GuardSyntax<'_>,
    name: &mut dyn FnMut(&mut dyn fmt::Write, u32) -> fmt::Result,
) -> fmt::Result {
    let (xs, op, inner, group) = match e {
        GuardExpr::Literal(v, pos) => {
            if !pos {
                out.write_str(syntax.not)?;
            }
            return name(out, *v);
        }
        GuardExpr::And(xs) => (
            xs,
            syntax.and,
            Context::And,
            ctx == Context::Or && syntax.group_conjunctions,
        ),
        GuardExpr::Or(xs) => (xs, syntax.or, Context::Or, ctx == Context::And),
    };
    if group {
        out.write_char('(')?;
    }
    for (i, x) in xs.iter().enumerate() {
        if i > 0 {
            out.write_str(op)?;
        }
        write_expr(x, inner, out, syntax, name)?;
    }
    if group {
        out.write_char(')')?;
    }
    Ok(())
}

/// The literals of `e` written out as a tree (saturating).
fn tree_literals(e: &Arc<GuardExpr>, memo: &mut FxHashMap<*const GuardExpr, u64>) -> u64 {
    match &**e {
        GuardExpr::Literal(..) => 1,
        GuardExpr::And(xs) | GuardExpr::Or(xs) => {
            if let Some(&n) = memo.get(&Arc::as_ptr(e)) {
                return n;
            }
            let n = xs
                .iter()
                .fold(0u64, |n, x| n.saturating_add(tree_literals(x, memo)));
            memo.insert(Arc::as_ptr(e), n);
            n
        }
    }
}

fn expr_diagram(
    e: &Arc<GuardExpr>,
    m: &mut Manager,
    memo: &mut FxHashMap<*const GuardExpr, Node>,
) -> Node {
    if let Some(&n) = memo.get(&Arc::as_ptr(e)) {
        return n;
    }
    let n = match &**e {
        GuardExpr::Literal(v, pos) => m.literal(*v, *pos),
        GuardExpr::And(xs) => xs.iter().fold(Node::TRUE, |acc, x| {
            let d = expr_diagram(x, m, memo);
            m.and(acc, d)
        }),
        GuardExpr::Or(xs) => xs.iter().fold(Node::FALSE, |acc, x| {
            let d = expr_diagram(x, m, memo);
            m.or(acc, d)
        }),
    };
    memo.insert(Arc::as_ptr(e), n);
    n
}

struct GuardDisplay<'a> {
    guard: &'a Guard,
    aps: &'a Alphabet,
}

impl fmt::Display for GuardDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let aps = self.aps;
        self.guard.write(f, &SPOT, &mut |out, v| {
            let name = aps.name(v);
            if is_bare_ap(name) {
                out.write_str(name)
            } else {
                write!(out, "{name:?}")
            }
        })
    }
}

/// A label too large to write: its formula, even factored, has more than
/// [`MAX_LABEL_LITERALS`] literals, or factoring it took more than a
/// bounded number of diagram nodes.
///
/// ```
/// use monitor_core::translate::Builder;
///
/// // Parity has no small formula of `&`, `|` and `!`.
/// let f = (0..30).map(|i| format!("p{i}")).collect::<Vec<_>>().join(" ^ ");
/// let dfa = Builder::new().build(&format!("G(a -> X({f}))"))?.into_dfa();
/// let err = dfa.violation_guard(monitor_core::automaton::StateId::new(1)).unwrap_err();
/// assert!(err.to_string().starts_with(
///     "the label of the edge from state 1 to the violation (the letters that violate \
///      the property there) has more than 1048576 literals"
/// ));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelError {
    state: Option<StateId>,
    edge: Option<EdgeOf>,
    nodes: Option<usize>,
}

/// Which label of a state a [`LabelError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeOf {
    /// The edge to a target.
    To(Target),
    /// The letters that do not violate the property.
    Allowed,
}

impl LabelError {
    pub(crate) fn in_state(mut self, s: StateId) -> LabelError {
        self.state = Some(s);
        self
    }

    fn on_edge(mut self, e: EdgeOf) -> LabelError {
        self.edge = Some(e);
        self
    }

    /// The state whose label it is, if known.
    ///
    /// ```
    /// use monitor_core::automaton::StateId;
    /// use monitor_core::translate::Builder;
    ///
    /// let f = (0..30).map(|i| format!("p{i}")).collect::<Vec<_>>().join(" ^ ");
    /// let dfa = Builder::new().build(&format!("G(a -> X({f}))"))?.into_dfa();
    /// let err = dfa.violation_guard(StateId::new(1)).unwrap_err();
    /// assert_eq!(err.state(), Some(StateId::new(1)));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn state(&self) -> Option<StateId> {
        self.state
    }
}

impl fmt::Display for LabelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.state, self.edge) {
            (Some(s), Some(EdgeOf::To(Target::Violation))) => write!(
                f,
                "the label of the edge from state {s} to the violation \
                 (the letters that violate the property there)"
            )?,
            (Some(s), Some(EdgeOf::To(Target::State(t)))) => {
                write!(f, "the label of the edge from state {s} to state {t}")?
            }
            (Some(s), Some(EdgeOf::Allowed)) => write!(
                f,
                "the label of the letters allowed in state {s} \
                 (those that do not violate the property there)"
            )?,
            (Some(s), None) => write!(f, "the label of an edge of state {s}")?,
            (None, _) => f.write_str("an edge label")?,
        }
        match self.nodes {
            None => write!(
                f,
                " has more than {MAX_LABEL_LITERALS} literals, even factored \
                 (a Boolean function with no small formula of `&`, `|` and `!`, \
                 such as the parity of many propositions)"
            ),
            Some(n) => write!(
                f,
                " took more than {n} decision-diagram nodes to factor \
                 (a Boolean function with no small formula of `&`, `|` and `!`)"
            ),
        }
    }
}

impl std::error::Error for LabelError {}

/// The guard of the BDD `f` of `m`: its irredundant sum of products if
/// that is small next to the diagram, else a factored formula.
pub(crate) fn label(m: &mut Manager, f: Node) -> Result<Guard, LabelError> {
    if f == Node::FALSE {
        return Ok(Guard::from_cubes(Vec::new()));
    }
    if f == Node::TRUE {
        return Ok(Guard::from_cubes(vec![Vec::new()]));
    }
    if let Some(c) = m.as_cube(f) {
        return Ok(Guard::from_cubes(vec![c]));
    }
    let nodes = m.count_nodes(&[f]);
    let cap = SOP_LITERALS.max(SOP_LITERALS_PER_NODE.saturating_mul(nodes));
    let allowance = nodes.saturating_mul(64).saturating_add(1 << 14);
    if let Some(cubes) = m.isop_capped(f, cap, allowance) {
        return Ok(Guard::from_cubes(cubes));
    }
    factored(m, f, nodes)
}

/// The factored formula of `f` (not a constant), of `nodes` nodes.
fn factored(m: &mut Manager, f: Node, nodes: usize) -> Result<Guard, LabelError> {
    // Factoring makes at most a few copies of each level of the diagram
    // (the conjuncts of a split); the limit is far above what it needs.
    let limit = nodes.saturating_mul(64).saturating_add(1 << 16);
    let mut fac = Factoring {
        memo: FxHashMap::default(),
    };
    let outer = m.begin_guard(limit);
    let expr = fac.factor(m, f);
    if !m.end_guard(outer) {
        return Err(LabelError {
            state: None,
            edge: None,
            nodes: Some(limit),
        });
    }
    let literals = tree_literals(&expr, &mut FxHashMap::default());
    if literals > MAX_LABEL_LITERALS as u64 {
        return Err(LabelError {
            state: None,
            edge: None,
            nodes: None,
        });
    }
    Ok(Guard {
        repr: Repr::Factored {
            expr,
            literals: literals as usize,
        },
    })
}

/// The factored formulas of the nodes of one diagram.
struct Factoring {
    memo: FxHashMap<Node, Arc<GuardExpr>>,
}

impl Factoring {
    /// A formula of `f` (not a constant).
    fn factor(&mut self, m: &mut Manager, f: Node) -> Arc<GuardExpr> {
        if f == Node::TRUE || f == Node::FALSE {
            // Only past the node limit (the operations then return
            // `false`), where the result is discarded.
            debug_assert!(m.stopped());
            return Arc::new(GuardExpr::Literal(0, true));
        }
        if let Some(e) = self.memo.get(&f) {
            return e.clone();
        }
        let e = self.factor_new(m, f);
        self.memo.insert(f, e.clone());
        e
    }

    fn factor_new(&mut self, m: &mut Manager, f: Node) -> Arc<GuardExpr> {
        if let Some(c) = m.as_cube(f) {
            return GuardExpr::cube(&c);
        }
        for conj in [true, false] {
            let pieces = split(m, f, conj);
            if pieces.len() > 1 {
                let xs = pieces.into_iter().map(|p| self.factor(m, p)).collect();
                return Arc::new(if conj {
                    GuardExpr::And(xs)
                } else {
                    GuardExpr::Or(xs)
                });
            }
        }
        // A small piece: its sum of products if that is no bigger than
        // the expansion.
        let nodes = m.count_nodes(&[f]);
        if nodes <= PIECE_NODES {
            if let Some(cubes) = m.isop_capped(f, PIECE_LITERALS_PER_NODE * nodes, 1 << 12) {
                let xs: Vec<_> = cubes.iter().map(|c| GuardExpr::cube(c)).collect();
                return if xs.len() == 1 {
                    xs.into_iter().next().expect("one cube")
                } else {
                    Arc::new(GuardExpr::Or(xs))
                };
            }
        }
        // Shannon expansion on the top proposition (neither cofactor is
        // constant: that would have split).
        let v = m.var_of(f).expect("an inner node");
        let (lo, hi) = m.children(f).expect("an inner node");
        let (e0, e1) = (self.factor(m, lo), self.factor(m, hi));
        let with =
            |lit: GuardExpr, e: Arc<GuardExpr>| Arc::new(GuardExpr::And(vec![Arc::new(lit), e]));
        Arc::new(GuardExpr::Or(vec![
            with(GuardExpr::Literal(v, true), e1),
            with(GuardExpr::Literal(v, false), e0),
        ]))
    }
}

/// The conjuncts (`conj`) or disjuncts of `f` over disjoint propositions
/// that its diagram shows, in variable order (one piece if none): a level
/// that every path from `f` to `true` (to `false` for disjuncts) crosses
/// through one node `h` splits `f` into `f[h := true] & h`
/// (`f[h := false] | h`). The pieces after the first are nodes of `f`'s
/// diagram; the others are the levels between two cuts, rebuilt.
fn split(m: &mut Manager, f: Node, conj: bool) -> Vec<Node> {
    let (absorbing, neutral) = if conj {
        (Node::FALSE, Node::TRUE)
    } else {
        (Node::TRUE, Node::FALSE)
    };
    // The inner nodes of `f`, and for each node reached by an edge (but
    // the absorbing leaf) the highest level of its parents.
    let mut nodes = Vec::new();
    let mut parent_level: FxHashMap<Node, u32> = FxHashMap::default();
    let mut stack = vec![f];
    let mut seen = rustc_hash::FxHashSet::default();
    seen.insert(f);
    while let Some(n) = stack.pop() {
        let Some((lo, hi)) = m.children(n) else {
            continue;
        };
        let v = m.var_of(n).expect("an inner node");
        nodes.push(n);
        for c in [lo, hi] {
            if c == absorbing {
                continue;
            }
            let p = parent_level.entry(c).or_insert(v);
            *p = (*p).min(v);
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    let mut levels: Vec<u32> = nodes
        .iter()
        .map(|&n| m.var_of(n).expect("an inner node"))
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let index = |v: u32| levels.binary_search(&v).expect("a level");
    // Node `w` crosses the cuts just above the levels in
    // (parent level, level of w]; count them, and sum their numbers so
    // that a cut crossed once names its node.
    let k = levels.len();
    let mut count = vec![0i64; k + 1];
    let mut sum = vec![0i64; k + 1];
    for (&w, &p) in &parent_level {
        let from = index(p) + 1;
        let to = m.var_of(w).map_or(k, |v| index(v) + 1);
        count[from] += 1;
        count[to] -= 1;
        sum[from] += i64::from(w.index());
        sum[to] -= i64::from(w.index());
    }
    let by_index: FxHashMap<u32, Node> = parent_level.keys().map(|&w| (w.index(), w)).collect();
    let mut cuts: Vec<Node> = Vec::new();
    let (mut c, mut s) = (0i64, 0i64);
    for i in 0..k {
        c += count[i];
        s += sum[i];
        if c == 1 {
            let w = by_index[&u32::try_from(s).expect("a node number")];
            // A node crossing several cuts splits once.
            if w != neutral && cuts.last() != Some(&w) {
                cuts.push(w);
            }
        }
    }
    if cuts.is_empty() {
        return vec![f];
    }
    let mut pieces = Vec::with_capacity(cuts.len() + 1);
    let mut top = f;
    for &h in &cuts {
        let mut memo = FxHashMap::default();
        pieces.push(replace(m, top, h, neutral, &mut memo));
        top = h;
    }
    pieces.push(top);
    pieces
}

/// `f` with node `h` replaced by the leaf `by` (`h` is below every path's
/// part above it: the nodes at `h`'s level or lower are `h` or leaves).
fn replace(m: &mut Manager, f: Node, h: Node, by: Node, memo: &mut FxHashMap<Node, Node>) -> Node {
    if f == h {
        return by;
    }
    let Some((lo, hi)) = m.children(f) else {
        return f;
    };
    if let Some(&r) = memo.get(&f) {
        return r;
    }
    let v = m.var_of(f).expect("an inner node");
    let lo = replace(m, lo, h, by, memo);
    let hi = replace(m, hi, h, by, memo);
    let r = m.mk(v, lo, hi);
    memo.insert(f, r);
    r
}

/// Labels the edges of a [`BadPrefixDfa`], reusing one working manager
/// for all the states of an emission (see [`BadPrefixDfa::labeler`]).
pub struct Labeler<'a> {
    dfa: &'a BadPrefixDfa,
    scratch: Manager,
    imported: FxHashMap<u32, u32>,
}

impl<'a> Labeler<'a> {
    pub(crate) fn new(dfa: &'a BadPrefixDfa) -> Labeler<'a> {
        Labeler {
            dfa,
            scratch: Manager::new(),
            imported: FxHashMap::default(),
        }
    }

    /// The diagram of `s` in the working manager, which is started
    /// afresh when the work of the states before has made it much larger
    /// than the monitor's (its nodes are never freed).
    fn diagram(&mut self, s: StateId) -> Node {
        let own = self.dfa.manager().len();
        if self.scratch.len() > 4 * own + (1 << 16) {
            self.scratch = Manager::new();
            self.imported.clear();
        }
        self.scratch
            .import(self.dfa.manager(), self.dfa.diagram(s), &mut self.imported)
    }

    /// The edges of `s` (see [`BadPrefixDfa::edges`]).
    ///
    /// ```
    /// use monitor_core::automaton::Target;
    /// use monitor_core::translate::Builder;
    ///
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let mut labels = dfa.labeler();
    /// for s in dfa.states() {
    ///     let edges = labels.edges(s)?;
    ///     assert_eq!(edges.last().unwrap().target == Target::Violation, s.as_u32() == 1);
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn edges(&mut self, s: StateId) -> Result<Vec<Edge>, LabelError> {
        let d = self.diagram(s);
        let mut out = Vec::new();
        for (leaf, g) in self.scratch.leaf_guards(d) {
            out.push(Edge {
                guard: label(&mut self.scratch, g)
                    .map_err(|e| e.in_state(s).on_edge(EdgeOf::To(Target::from_leaf(leaf))))?,
                target: Target::from_leaf(leaf),
            });
        }
        out.sort_by_key(|e| e.target);
        Ok(out)
    }

    /// The letters that violate the property from `s` (see
    /// [`BadPrefixDfa::violation_guard`]).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    ///
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let mut labels = dfa.labeler();
    /// assert_eq!(labels.violation_guard(dfa.start())?.to_hoa(), "f");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violation_guard(&mut self, s: StateId) -> Result<Guard, LabelError> {
        let d = self.diagram(s);
        let bad = self.scratch.leaf_guard(d, VIOLATION_LEAF);
        label(&mut self.scratch, bad)
            .map_err(|e| e.in_state(s).on_edge(EdgeOf::To(Target::Violation)))
    }

    /// The letters that do not violate the property from `s` (see
    /// [`BadPrefixDfa::allowed_guard`]).
    ///
    /// ```
    /// use monitor_core::automaton::StateId;
    /// use monitor_core::translate::Builder;
    ///
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let mut labels = dfa.labeler();
    /// assert_eq!(labels.allowed_guard(StateId::new(1))?.to_hoa(), "1");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn allowed_guard(&mut self, s: StateId) -> Result<Guard, LabelError> {
        let d = self.diagram(s);
        let bad = self.scratch.leaf_guard(d, VIOLATION_LEAF);
        let ok = self.scratch.not(bad);
        label(&mut self.scratch, ok).map_err(|e| e.in_state(s).on_edge(EdgeOf::Allowed))
    }
}
