//! A rewriting simplifier with the usual language-preserving rules.
//!
//! Rules (applied bottom-up until nothing changes):
//!
//! * constants: `X 1 = 1`, `X 0 = 0`, `F 0 = 0`, `G 1 = 1`,
//!   `{r} |-> 1 = 1`, `{r} <>-> 0 = 0`, `a U 1 = 1`, `1 U a = Fa`, `0 R a = Ga`, `a W 0 = Ga`,
//!   `a M 1 = Fa`, `1 S a = Oa`, `a B 0 = Ha`, `0 T a = Ha`, `1 -> a = a`,
//!   `a -> 0 = !a`, `a <-> 1 = a`, …
//! * idempotence: `a U a = a`, `a -> a = 1`, `a xor a = 0`, `a & a = a`;
//! * complements: `a & !a = 0`, `a | !a = 1`;
//! * absorption by syntactic implication (after Somenzi and Bloem):
//!   an operand of `&` implied by another one is dropped, and so is an
//!   operand of `|` that implies another one (`a & (a | b) = a`,
//!   `a | Fa = Fa`, `Ga & a = Ga`; Boolean operands are compared exactly);
//!   `a U b = b` when `a` implies `b`, and dually for `R`, `W`, `M`;
//! * temporal: `FFa = Fa`, `GGa = Ga`, `FGFa = GFa`, `GFGa = FGa`,
//!   `F(a U b) = Fb`, `G(a R b) = Gb`, `G(a W b) = G(a | b)`,
//!   `F(a M b) = F(a & b)`, `a U Fb = Fb`, `a R Gb = Gb`, `OOa = Oa`,
//!   `HHa = Ha`;
//! * `X` distribution: `Xa & Xb = X(a & b)`, `Xa | Xb = X(a | b)`,
//!   `Xa U Xb = X(a U b)` (and `R`, `W`, `M`), `FXa = XFa`, `GXa = XGa`;
//! * merging: `Ga & Gb = G(a & b)`, `Fa | Fb = F(a | b)`.
//!
//! The operand of `abort` is left alone: these rules hold on the words of
//! a model, not on the words `abort` cuts (IEEE 1850's ⊤ and ⊥ letters).
//!
//! ```
//! use monitor_core::formula::{parse, simplify::simplify};
//! let s = |t: &str| simplify(&parse(t).unwrap()).to_spot();
//! assert_eq!(s("G G (a & a) & G b"), "G(a & b)");
//! assert_eq!(s("true U (a U (a U b))"), "Fb");
//! assert_eq!(s("X a | X F a"), "XFa");
//! assert_eq!(s("(a -> b) & !b & a"), "0");
//! ```

use std::rc::Rc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::nnf::fold_constant;
use super::{Formula, Op};
use crate::budget::{table_bytes_after_insert, Account, Budget};
use crate::dd::{Manager, Node};

/// Simplifies a formula; the result is equivalent to the input.
///
/// ```
/// # use monitor_core::formula::{parse, simplify::simplify};
/// let f = parse("F F a | (b & !b)")?;
/// assert_eq!(simplify(&f).to_spot(), "Fa");
/// assert_eq!(simplify(&parse("(a U b) | b")?).to_spot(), "a U b");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn simplify(f: &Formula) -> Formula {
    Simplifier::new(Implications::default()).simp(f, 0)
}

/// [`simplify`] with the memo of implications charged to a
/// construction's byte budget (past it, the simplifier simplifies less).
pub(crate) fn simplify_within(f: &Formula, budget: &Budget) -> Formula {
    Simplifier::new(Implications::within(MAX_IMPLICATIONS, budget)).simp(f, 0)
}

struct Simplifier {
    memo: FxHashMap<Formula, Formula>,
    imp: Implications,
    support: Support,
}

fn not(f: &Formula) -> Formula {
    Formula::not(f.clone())
}

impl Simplifier {
    fn new(imp: Implications) -> Simplifier {
        Simplifier {
            memo: FxHashMap::default(),
            imp,
            support: Support::default(),
        }
    }

    fn simp(&mut self, f: &Formula, rounds: u32) -> Formula {
        if let Some(r) = self.memo.get(f) {
            return r.clone();
        }
        if matches!(f.op(), Op::Abort | Op::AbortBottom) {
            // The rules hold on the words of a model, not on a word cut by
            // `abort`, whose letters from the cut on satisfy every Boolean
            // or none: there `F a & G !a` holds, and `X false` one letter
            // before the cut. The operand is left as written.
            return f.clone();
        }
        let kids: Vec<Formula> = f.children().iter().map(|c| self.simp(c, 0)).collect();
        let g = if kids.iter().zip(f.children()).all(|(a, b)| a == b) {
            f.clone()
        } else {
            f.with_children(kids)
        };
        let r = match self.rewrite(&g) {
            // The rewritten formula may enable further rules; the bound on
            // rounds is a safety net, every rule shrinks or normalizes.
            Some(h) if h != g && rounds < 64 => self.simp(&h, rounds + 1),
            _ => g,
        };
        self.memo.insert(f.clone(), r.clone());
        r
    }

    /// One local rewrite step at the root, if a rule applies.
    fn rewrite(&mut self, f: &Formula) -> Option<Formula> {
        let op = f.op();
        let kids = f.children();
        let (a, b) = (kids.first(), kids.get(1));
        let t = Formula::tt;
        let ff = Formula::ff;
        let r = match op {
            Op::And | Op::Or => return self.rewrite_multop(f),
            // (See `Formula::unop` for why the constructors do not.)
            _ if fold_constant(f).is_some() => return fold_constant(f),
            Op::F => {
                let a = a.unwrap();
                match a.op() {
                    Op::F => a.clone(),
                    Op::G if a.child(0).op() == Op::F => a.clone(),
                    Op::X => Formula::next(Formula::eventually(a.child(0).clone())),
                    Op::U => Formula::eventually(a.child(1).clone()),
                    Op::M => Formula::eventually(Formula::and(a.children().to_vec())),
                    _ => return None,
                }
            }
            Op::G => {
                let a = a.unwrap();
                match a.op() {
                    Op::G => a.clone(),
                    Op::F if a.child(0).op() == Op::G => a.clone(),
                    Op::X => Formula::next(Formula::always(a.child(0).clone())),
                    Op::R => Formula::always(a.child(1).clone()),
                    Op::W => Formula::always(Formula::or(a.children().to_vec())),
                    _ => return None,
                }
            }
            Op::O if a.unwrap().op() == Op::O => a.unwrap().clone(),
            Op::H if a.unwrap().op() == Op::H => a.unwrap().clone(),
            Op::Implies => {
                let (a, b) = (a.unwrap(), b.unwrap());
                if a.is_true() {
                    b.clone()
                } else if a.is_false() || b.is_true() || self.imp.implies(a, b) {
                    t()
                } else if b.is_false() {
                    not(a)
                } else {
                    return None;
                }
            }
            Op::Equiv | Op::Xor => {
                let (a, b) = (a.unwrap(), b.unwrap());
                let eq = op == Op::Equiv;
                if a == b {
                    Formula::constant(eq)
                } else if *a == not(b) {
                    Formula::constant(!eq)
                } else if a.is_true() || a.is_false() {
                    if a.is_true() == eq {
                        b.clone()
                    } else {
                        not(b)
                    }
                } else if b.is_true() || b.is_false() {
                    if b.is_true() == eq {
                        a.clone()
                    } else {
                        not(a)
                    }
                } else {
                    return None;
                }
            }
            Op::U | Op::W | Op::R | Op::M => {
                let (a, b) = (a.unwrap(), b.unwrap());
                let strong = matches!(op, Op::U | Op::M);
                let until_like = matches!(op, Op::U | Op::W);
                if a == b {
                    a.clone()
                } else if a.op() == Op::X && b.op() == Op::X {
                    Formula::next(Formula::binop(op, a.child(0).clone(), b.child(0).clone()))
                } else if until_like {
                    // a U b, a W b: b is the goal, a the invariant.
                    if b.is_true() || (op == Op::W && a.is_true()) {
                        t()
                    } else if b.is_false() {
                        if strong {
                            ff()
                        } else {
                            Formula::always(a.clone())
                        }
                    } else if a.is_false() || self.imp.implies(a, b) {
                        b.clone()
                    } else if a.is_true() {
                        Formula::eventually(b.clone())
                    } else if (strong && b.op() == Op::F) || (b.op() == op && b.child(0) == a) {
                        // a U Fb = Fb;  a U (a U b) = a U b (and W)
                        b.clone()
                    } else {
                        return None;
                    }
                } else {
                    // a R b, a M b: b must hold until (and when) a releases it.
                    if b.is_false() || (op == Op::M && a.is_false()) {
                        ff()
                    } else if b.is_true() {
                        if strong {
                            Formula::eventually(a.clone())
                        } else {
                            t()
                        }
                    } else if a.is_true() || self.imp.implies(b, a) {
                        b.clone()
                    } else if a.is_false() {
                        Formula::always(b.clone())
                    } else if (!strong && b.op() == Op::G) || (b.op() == op && b.child(0) == a) {
                        // a R Gb = Gb;  a R (a R b) = a R b (and M)
                        b.clone()
                    } else {
                        return None;
                    }
                }
            }
            Op::S | Op::B | Op::T => {
                let (a, b) = (a.unwrap(), b.unwrap());
                if a == b {
                    a.clone()
                } else {
                    match (op, a.op(), b.op()) {
                        (Op::S, _, Op::True) | (Op::B, _, Op::True) | (Op::B, Op::True, _) => t(),
                        (Op::T, _, Op::True) => t(),
                        (Op::S, _, Op::False) | (Op::T, _, Op::False) => ff(),
                        (Op::S, Op::True, _) => Formula::once(b.clone()),
                        (Op::S, Op::False, _) | (Op::B, Op::False, _) => b.clone(),
                        (Op::B, _, Op::False) => Formula::historically(a.clone()),
                        (Op::T, Op::True, _) => b.clone(),
                        (Op::T, Op::False, _) => Formula::historically(b.clone()),
                        _ => return None,
                    }
                }
            }
            _ => return None,
        };
        Some(r)
    }

    fn rewrite_multop(&mut self, f: &Formula) -> Option<Formula> {
        let op = f.op();
        let is_and = op == Op::And;
        if f.is_boolean() {
            // Exact: a Boolean formula over few propositions that is valid or
            // unsatisfiable becomes a constant.
            if self.imp.implies(&Formula::tt(), f) {
                return Some(Formula::tt());
            }
            if self.imp.implies(f, &Formula::ff()) {
                return Some(Formula::ff());
            }
        }
        let mut v: Vec<Formula> = f.children().to_vec();
        // Complements.
        let operands: FxHashSet<&Formula> = v.iter().collect();
        if v.iter()
            .any(|x| x.op() == Op::Not && operands.contains(x.child(0)))
        {
            return Some(Formula::constant(!is_and));
        }
        drop(operands);
        // Absorption by implication: in a conjunction drop what another
        // operand implies; in a disjunction drop what implies another
        // operand. One pass, each operand against those still kept: the
        // same result as dropping one and starting again (an operand kept
        // against more operands is kept against fewer), without the
        // restarts.
        let candidates = Candidates::new(&v, &mut self.support);
        let mut kept = vec![true; v.len()];
        let mut budget = MAX_ABSORPTION_PAIRS;
        for i in 0..v.len() {
            if budget == 0 {
                break;
            }
            for j in candidates.of(i) {
                // `X a` implies `X b` only when `a` implies `b`, and the
                // merge below puts both under one `X`, where `a` and `b`
                // are compared: comparing them here too made a conjunction
                // of `X c`, `XX c`, … quadratic in each of its rounds.
                if j == i || !kept[j] || (v[i].op() == Op::X && v[j].op() == Op::X) {
                    continue;
                }
                if budget == 0 {
                    break;
                }
                budget -= 1;
                let redundant = if is_and {
                    self.imp.implies(&v[j], &v[i])
                } else {
                    self.imp.implies(&v[i], &v[j])
                };
                if redundant {
                    kept[i] = false;
                    break;
                }
            }
        }
        if kept.contains(&false) {
            let mut k = kept.iter();
            v.retain(|_| *k.next().expect("one flag per operand"));
            return Some(Formula::multop(op, v));
        }
        // Merge X's, and G's under & or F's under |.
        let merge = if is_and { Op::G } else { Op::F };
        for wrap in [Op::X, merge] {
            let (inner, rest): (Vec<Formula>, Vec<Formula>) =
                v.iter().cloned().partition(|x| x.op() == wrap);
            if inner.len() >= 2 {
                let merged = Formula::unop(
                    wrap,
                    Formula::multop(op, inner.iter().map(|x| x.child(0).clone())),
                );
                return Some(Formula::multop(op, rest.into_iter().chain([merged])));
            }
        }
        None
    }
}

/// The most implications asked to absorb the operands of one `&` or `|`:
/// past it, the remaining operands are kept (absorption only simplifies).
const MAX_ABSORPTION_PAIRS: usize = 1 << 16;

/// Operands over more propositions than this are compared with every
/// operand (their propositions are not kept).
const MAX_SUPPORT: usize = 256;

/// Which operands of an `&` or `|` can imply one another: those that share
/// a proposition. (A satisfiable formula cannot imply one that is not
/// valid over other propositions: the two can be made true and false
/// independently; and syntactic implication is sound.) Operands without
/// propositions, or too large to read, are candidates of every operand.
/// This makes a conjunction of `n` literals linear, where comparing every
/// pair took `p0 & … & p3000` to a gigabyte.
struct Candidates {
    /// The operands that share proposition `p` with each operand, by
    /// proposition.
    sharing: Vec<Vec<usize>>,
    /// For each operand, the indices into `sharing` of its propositions.
    props_of: Vec<Vec<usize>>,
    /// Operands compared with all.
    everyone: Vec<usize>,
    compared_with_all: Vec<bool>,
    len: usize,
}

impl Candidates {
    fn new(v: &[Formula], support: &mut Support) -> Candidates {
        let mut index: FxHashMap<Formula, usize> = FxHashMap::default();
        let mut sharing: Vec<Vec<usize>> = Vec::new();
        let mut props_of = Vec::with_capacity(v.len());
        let mut everyone = Vec::new();
        for (i, x) in v.iter().enumerate() {
            let props = support.of(x);
            let ids: Vec<usize> = match props {
                Some(p) if !p.is_empty() => p
                    .iter()
                    .map(|p| {
                        let next = sharing.len();
                        let k = *index.entry(p.clone()).or_insert(next);
                        if k == next {
                            sharing.push(Vec::new());
                        }
                        sharing[k].push(i);
                        k
                    })
                    .collect(),
                _ => {
                    everyone.push(i);
                    Vec::new()
                }
            };
            props_of.push(ids);
        }
        let mut compared_with_all = vec![false; v.len()];
        for &i in &everyone {
            compared_with_all[i] = true;
        }
        Candidates {
            sharing,
            props_of,
            everyone,
            compared_with_all,
            len: v.len(),
        }
    }

    /// The operands that may imply or be implied by operand `i` (some
    /// more than once), read lazily: a caller out of budget stops early.
    fn of(&self, i: usize) -> Box<dyn Iterator<Item = usize> + '_> {
        if self.compared_with_all[i] {
            return Box::new(0..self.len);
        }
        Box::new(
            self.props_of[i]
                .iter()
                .flat_map(|&k| self.sharing[k].iter().copied())
                .chain(self.everyone.iter().copied()),
        )
    }
}

/// The atomic propositions of formulas, or `None` past [`MAX_SUPPORT`],
/// remembered for every subformula met: each formula's set is the union
/// of its operands'. Walking each operand instead (up to 512 subformulas)
/// cost 512 steps at every level of a bounded operator's chain
/// (`F[0:k] b` is `b | X(b | X(…))`, an `|` whose operand `X(…)` is the
/// rest of the chain): 100,000 instructions a level, 40% of the time of
/// `G(a -> F[0:1000] b)`.
#[derive(Default)]
struct Support {
    memo: FxHashMap<Formula, Option<Rc<[Formula]>>>,
}

impl Support {
    fn of(&mut self, f: &Formula) -> Option<Rc<[Formula]>> {
        // Operands first, without recursion (chains are deep).
        let mut stack = vec![(f.clone(), false)];
        while let Some((g, ready)) = stack.pop() {
            if self.memo.contains_key(&g) {
                continue;
            }
            if !ready {
                stack.push((g.clone(), true));
                stack.extend(
                    g.children()
                        .iter()
                        .filter(|c| !self.memo.contains_key(*c))
                        .map(|c| (c.clone(), false)),
                );
                continue;
            }
            let set = if g.op() == Op::Ap {
                Some(Rc::from(vec![g.clone()]))
            } else {
                self.union(g.children())
            };
            self.memo.insert(g, set);
        }
        self.memo[f].clone()
    }

    /// The union of the (known) sets of `operands`; an operand's own set
    /// when the others add nothing (`X`, `G`, chains: shared, not copied).
    fn union(&self, operands: &[Formula]) -> Option<Rc<[Formula]>> {
        let mut sets = Vec::with_capacity(operands.len());
        for c in operands {
            sets.push(self.memo[c].clone()?);
        }
        let Some(first) = sets.first() else {
            return Some(Rc::from(Vec::new()));
        };
        if sets.iter().all(|s| {
            Rc::ptr_eq(s, first) || (first.len() <= 16 && s.iter().all(|p| first.contains(p)))
        }) {
            return Some(first.clone());
        }
        let mut seen: FxHashSet<&Formula> = FxHashSet::default();
        let mut out = Vec::new();
        for p in sets.iter().flat_map(|s| s.iter()) {
            if seen.insert(p) {
                if out.len() == MAX_SUPPORT {
                    return None;
                }
                out.push(p.clone());
            }
        }
        Some(Rc::from(out))
    }
}

/// Syntactic implication: `true` only if `x` implies `y` (the converse need
/// not hold). Boolean formulas are compared exactly.
///
/// ```
/// # use monitor_core::formula::{parse, simplify::implies};
/// assert!(implies(&parse("G a")?, &parse("F a")?));
/// assert!(implies(&parse("a & b")?, &parse("b | c")?)); // Booleans: exact
/// assert!(!implies(&parse("F a")?, &parse("G a")?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn implies(x: &Formula, y: &Formula) -> bool {
    Implications::default().implies(x, y)
}

/// Syntactic implication with a memo, for callers that ask many
/// questions about the same formulas (the translator asks it of every
/// pair of obligations it puts in one state).
///
/// The memo is bounded: past [`MAX_IMPLICATIONS`] questions remembered,
/// or past what the construction's byte budget allows it, every question
/// it does not already answer is answered "no" (implication is only
/// claimed when proved, so the callers simplify less, never wrongly).
/// Unbounded, it held a pair for each two levels of the windows of
/// `G[0:k] F[0:k] b` (`k²`: 3 GB and an abort for k = 10,000).
#[derive(Debug)]
pub struct Implications {
    memo: FxHashMap<(Formula, Formula), bool>,
    /// Boolean formulas are compared exactly, as BDDs over their
    /// propositions (numbered on first sight).
    bdds: BooleanBdds,
    /// The most entries of `memo`.
    max_entries: usize,
    /// The bytes of `memo`, in a construction's budget (none for the
    /// public functions, bounded by `max_entries` alone).
    account: Option<Account>,
    /// Whether the memo is full: new questions are answered "no".
    full: bool,
}

impl Default for Implications {
    fn default() -> Implications {
        Implications {
            memo: FxHashMap::default(),
            bdds: BooleanBdds::default(),
            max_entries: MAX_IMPLICATIONS,
            account: None,
            full: false,
        }
    }
}

/// The most questions [`Implications`] remembers by default (about 50 MB,
/// a second or two of questions): past them, new questions are answered
/// "no".
pub const MAX_IMPLICATIONS: usize = 1 << 21;

/// Deeper questions give up (answer "no"): a guard against runaway
/// recursion, at the nesting of `F[0:10000]` (the largest bound).
const MAX_IMPLICATION_DEPTH: u32 = 20_000;

impl Implications {
    /// Whether `x` implies `y`, syntactically (see [`implies`]).
    ///
    /// ```
    /// # use monitor_core::formula::{parse, simplify::Implications};
    /// let mut imp = Implications::default();
    /// let (x, y) = (parse("a U b")?, parse("(a | c) U b")?);
    /// assert!(imp.implies(&x, &y));
    /// assert!(!imp.implies(&y, &x));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn implies(&mut self, x: &Formula, y: &Formula) -> bool {
        self.rec(x, y, 0)
    }

    /// Implications whose memo holds at most `max_entries` questions and
    /// is charged to `budget` (a refused charge leaves the budget as it
    /// was: the memo stops growing, and new questions are answered "no").
    pub(crate) fn within(max_entries: usize, budget: &Budget) -> Implications {
        Implications {
            max_entries,
            account: Some(budget.account()),
            ..Implications::default()
        }
    }

    /// Whether the memo has stopped growing (questions past it are
    /// answered "no").
    #[cfg(test)]
    pub(crate) fn is_full(&self) -> bool {
        self.full
    }

    /// Makes room for one more question in the memo, if its bounds allow.
    fn room(&mut self) -> bool {
        if self.full {
            return false;
        }
        let (len, cap) = (self.memo.len(), self.memo.capacity());
        let fits = len < self.max_entries
            && self.account.as_mut().is_none_or(|a| {
                a.try_set(table_bytes_after_insert::<((Formula, Formula), bool)>(
                    len, cap,
                ))
            });
        if !fits {
            self.full = true;
        }
        fits
    }

    fn rec(&mut self, x: &Formula, y: &Formula, depth: u32) -> bool {
        if x == y || y.is_true() || x.is_false() {
            return true;
        }
        if depth > MAX_IMPLICATION_DEPTH {
            return false;
        }
        let key = (x.clone(), y.clone());
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        if !self.room() {
            // Out of room: "no" is always a sound answer.
            return false;
        }
        // Provisional answer for cycles through the memo (there are none
        // on finite formulas, but it costs nothing to be safe).
        self.memo.insert(key.clone(), false);
        let r = self.compute(x, y, depth + 1);
        self.memo.insert(key, r);
        r
    }

    fn compute(&mut self, x: &Formula, y: &Formula, d: u32) -> bool {
        if x.is_boolean() && y.is_boolean() {
            return self.bdds.implies(x, y);
        }
        // Decompose the right-hand side.
        let by_y = match y.op() {
            Op::Or => y.children().iter().any(|c| self.rec(x, c, d)),
            Op::And => y.children().iter().all(|c| self.rec(x, c, d)),
            Op::F => {
                self.rec(x, y.child(0), d)
                    || (x.op() == Op::F && self.rec(x.child(0), y.child(0), d))
            }
            Op::U | Op::W => {
                self.rec(x, y.child(1), d)
                    || (x.op() == y.op()
                        && self.rec(x.child(0), y.child(0), d)
                        && self.rec(x.child(1), y.child(1), d))
            }
            Op::R | Op::M => {
                self.rec(x, &Formula::and(y.children().to_vec()), d)
                    || (x.op() == y.op()
                        && self.rec(x.child(0), y.child(0), d)
                        && self.rec(x.child(1), y.child(1), d))
            }
            Op::G => x.op() == Op::G && self.rec(x.child(0), y.child(0), d),
            Op::X => x.op() == Op::X && self.rec(x.child(0), y.child(0), d),
            Op::O => {
                self.rec(x, y.child(0), d)
                    || (x.op() == Op::O && self.rec(x.child(0), y.child(0), d))
            }
            // PSL, by inclusion of the SEREs (which makes pending bounded
            // responses `{[*0:k]; ack}` for different k imply each other,
            // as `F[0:k]` do).
            Op::Closure | Op::EConcat | Op::EConcatMarked if x.op() == y.op() => {
                self.sere_included(x.child(0), y.child(0), d)
                    && (y.op() == Op::Closure || self.rec(x.child(1), y.child(1), d))
            }
            Op::UConcat | Op::NegClosure | Op::NegClosureMarked if x.op() == y.op() => {
                self.sere_included(y.child(0), x.child(0), d)
                    && (y.op() != Op::UConcat || self.rec(x.child(1), y.child(1), d))
            }
            _ => false,
        };
        if by_y {
            return true;
        }
        // Decompose the left-hand side.
        match x.op() {
            Op::And => x.children().iter().any(|c| self.rec(c, y, d)),
            Op::Or => x.children().iter().all(|c| self.rec(c, y, d)),
            Op::G | Op::H => self.rec(x.child(0), y, d),
            Op::R | Op::M => self.rec(x.child(1), y, d),
            Op::U | Op::W => self.rec(&Formula::or(x.children().to_vec()), y, d),
            _ => false,
        }
    }

    /// Whether every word matching the SERE `r` matches `s` (also with
    /// letters that satisfy every Boolean), by syntactic rules: sound, not
    /// complete.
    fn sere_included(&mut self, r: &Formula, s: &Formula, d: u32) -> bool {
        if r == s {
            return true;
        }
        if d > MAX_IMPLICATION_DEPTH {
            return false;
        }
        let d = d + 1;
        let leaf = |f: &Formula| !f.op().is_sere();
        match (r.op(), s.op()) {
            // Single letters: the Booleans imply each other. (A ⊤ letter
            // matches both.)
            _ if leaf(r) && leaf(s) => r.is_boolean() && s.is_boolean() && self.rec(r, s, d),
            (_, Op::OrRat) if s.children().iter().any(|c| self.sere_included(r, c, d)) => true,
            (Op::OrRat, _) => r.children().iter().all(|c| self.sere_included(c, s, d)),
            (Op::EmptyWord, Op::Star) => {
                s.star_bounds().expect("star").0 == 0 || s.child(0).accepts_empty_word()
            }
            (Op::Star, Op::Star) => {
                let (l1, h1) = r.star_bounds().expect("star");
                let (l2, h2) = s.star_bounds().expect("star");
                let within = l2 <= l1
                    && match (h1, h2) {
                        (_, None) => true,
                        (None, Some(_)) => false,
                        (Some(a), Some(b)) => a <= b,
                    };
                within && self.sere_included(r.child(0), s.child(0), d)
            }
            // One repetition of the body.
            (_, Op::Star) if s.star_bounds().expect("star").0 <= 1 => {
                let (_, h) = s.star_bounds().expect("star");
                h != Some(0) && self.sere_included(r, s.child(0), d)
            }
            (Op::Concat, Op::Concat) | (Op::Fusion, Op::Fusion)
                if r.children().len() == s.children().len() =>
            {
                r.children()
                    .iter()
                    .zip(s.children())
                    .all(|(a, b)| self.sere_included(a, b, d))
            }
            (_, Op::AndRat) => s.children().iter().all(|c| self.sere_included(r, c, d)),
            (Op::AndRat, _) => r.children().iter().any(|c| self.sere_included(c, s, d)),
            _ => false,
        }
    }
}

/// BDDs of Boolean formulas, for exact implication.
///
/// The diagrams are bounded by [`MAX_BOOLEAN_NODES`]: a Boolean formula
/// can have a BDD exponential in its size (`(a1 & b1) | … | (an & bn)`
/// with every `a` numbered before every `b`). Past the bound, every
/// question on Booleans is answered "no" (implication is only claimed when
/// proved).
#[derive(Debug, Default)]
struct BooleanBdds {
    mgr: Manager,
    vars: FxHashMap<Formula, u32>,
    bdds: FxHashMap<Formula, Node>,
    exhausted: bool,
}

/// The most decision-diagram nodes of the simplifier's Boolean questions
/// (about 30 MB).
const MAX_BOOLEAN_NODES: usize = 1 << 21;

impl BooleanBdds {
    fn implies(&mut self, x: &Formula, y: &Formula) -> bool {
        if self.exhausted {
            return false;
        }
        let room = MAX_BOOLEAN_NODES.saturating_sub(self.mgr.len());
        let outer = self.mgr.begin_guard(room);
        let (bx, by) = (self.bdd(x), self.bdd(y));
        let r = self.mgr.implies(bx, by);
        if !self.mgr.end_guard(outer) {
            // Diagrams built past the bound are garbage, some of them
            // remembered: forget them all, and answer no from now on.
            self.exhausted = true;
            self.bdds.clear();
            return false;
        }
        r
    }

    fn bdd(&mut self, f: &Formula) -> Node {
        if let Some(&n) = self.bdds.get(f) {
            return n;
        }
        let kid = |s: &mut Self, i: usize| s.bdd(f.child(i));
        let n = match f.op() {
            Op::True => Node::TRUE,
            Op::False => Node::FALSE,
            Op::Ap => {
                let next = self.vars.len() as u32;
                let v = *self.vars.entry(f.clone()).or_insert(next);
                self.mgr.var(v)
            }
            Op::Not => {
                let a = kid(self, 0);
                self.mgr.not(a)
            }
            Op::And | Op::Or => {
                // The operands first (numbering their propositions in
                // order), then combined from the last: an operand over the
                // first variables goes on top of the diagram built so far
                // instead of to its bottom, which makes `p0 & … & pn`
                // linear instead of quadratic.
                let kids: Vec<Node> = (0..f.children().len()).map(|i| kid(self, i)).collect();
                let mut acc = if f.op() == Op::And {
                    Node::TRUE
                } else {
                    Node::FALSE
                };
                for &c in kids.iter().rev() {
                    acc = if f.op() == Op::And {
                        self.mgr.and(c, acc)
                    } else {
                        self.mgr.or(c, acc)
                    };
                }
                acc
            }
            Op::Implies => {
                let (a, b) = (kid(self, 0), kid(self, 1));
                let na = self.mgr.not(a);
                self.mgr.or(na, b)
            }
            Op::Equiv | Op::Xor => {
                let (a, b) = (kid(self, 0), kid(self, 1));
                let x = self.mgr.xor(a, b);
                if f.op() == Op::Xor {
                    x
                } else {
                    self.mgr.not(x)
                }
            }
            op => unreachable!("{op:?} in a Boolean formula"),
        };
        self.bdds.insert(f.clone(), n);
        n
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn s(t: &str) -> String {
        simplify(&parse(t).unwrap()).to_spot()
    }

    #[test]
    fn rules() {
        assert_eq!(s("F F a"), "Fa");
        assert_eq!(s("G G a"), "Ga");
        assert_eq!(s("F G F a"), "GFa");
        assert_eq!(s("G F G a"), "FGa");
        assert_eq!(s("a U true"), "1");
        assert_eq!(s("true U a"), "Fa");
        assert_eq!(s("false U a"), "a");
        assert_eq!(s("a U false"), "0");
        assert_eq!(s("false R a"), "Ga");
        assert_eq!(s("true R a"), "a");
        assert_eq!(s("a W false"), "Ga");
        assert_eq!(s("a M true"), "Fa");
        assert_eq!(s("a & !a"), "0");
        assert_eq!(s("a | !a | b"), "1");
        assert_eq!(s("a & (a | b)"), "a");
        assert_eq!(s("a | (a & b)"), "a");
        assert_eq!(s("a | F a"), "Fa");
        assert_eq!(s("G a & a"), "Ga");
        assert_eq!(s("X a & X b"), "X(a & b)");
        assert_eq!(s("X a U X b"), "X(a U b)");
        assert_eq!(s("G X a"), "XGa");
        assert_eq!(s("F a | F b"), "F(a | b)");
        assert_eq!(s("F(a U b)"), "Fb");
        assert_eq!(s("G(a W b)"), "G(a | b)");
        assert_eq!(s("a U F b"), "Fb");
        assert_eq!(s("(a & b) U a"), "a");
        assert_eq!(s("a <-> a"), "1");
        assert_eq!(s("a xor true"), "!a");
        assert_eq!(s("true S a"), "Oa");
        assert_eq!(s("a B false"), "Ha");
        assert_eq!(s("false T a"), "Ha");
        assert_eq!(s("O O a"), "Oa");
        assert_eq!(s("(p & q) | (p & q & r)"), "p & q");
        assert_eq!(s("Y a & Y a"), "Ya");
    }

    /// The memo of implications stays within its bounds (entries, and the
    /// bytes of a budget, which it never marks exceeded), and a full memo
    /// only answers "no" more often: never "yes" where the unbounded one
    /// says "no". The windows of `G[0:k] F[0:k] b` ask `k²` questions.
    #[test]
    fn the_memo_respects_its_budget() {
        let p = |t: &str| parse(t).unwrap();
        let f = p("G[0:300] F[0:300] b");
        let questions: Vec<(Formula, Formula)> = {
            let subs = f.subformulas_postorder();
            let step = (subs.len() / 40).max(1);
            let picked: Vec<Formula> = subs.into_iter().step_by(step).collect();
            picked
                .iter()
                .flat_map(|x| picked.iter().map(move |y| (x.clone(), y.clone())))
                .collect()
        };
        let mut free = Implications::default();
        let truth: Vec<bool> = questions.iter().map(|(x, y)| free.implies(x, y)).collect();
        assert!(truth.iter().any(|&t| t) && truth.iter().any(|&t| !t));
        assert!(free.memo.len() > 20_000, "{}", free.memo.len());

        let budget = Budget::new(256 << 10);
        let mut small = Implications::within(usize::MAX, &budget);
        let mut fewer = Implications::within(1000, &Budget::unlimited());
        for ((x, y), &t) in questions.iter().zip(&truth) {
            for imp in [&mut small, &mut fewer] {
                let r = imp.implies(x, y);
                assert!(!r || t, "{x} -> {y}: yes from a full memo");
            }
            assert!(budget.used() <= budget.limit());
        }
        assert!(small.is_full() && fewer.is_full());
        assert!(fewer.memo.len() <= 1000);
        assert!(
            !budget.exceeded(),
            "a lossy memo does not fail the construction"
        );
        // Trivial questions are still answered.
        assert!(small.implies(&f, &f) && small.implies(&f, &Formula::tt()));
        drop(small);
        assert_eq!(budget.used(), 0);
        // The simplifier under a small budget: bounded, and the same
        // result on formulas whose questions fit.
        let tiny = Budget::new(64 << 10);
        let _ = simplify_within(&f, &tiny);
        assert!(!tiny.exceeded() && tiny.used() == 0);
        assert_eq!(simplify_within(&p("a & (a | b)"), &tiny).to_spot(), "a");
    }

    #[test]
    fn implication() {
        let p = |t: &str| parse(t).unwrap();
        assert!(implies(&p("a & b"), &p("a | c")));
        assert!(implies(&p("G a"), &p("F a")));
        assert!(implies(&p("b"), &p("a U b")));
        assert!(implies(&p("a R b"), &p("b")));
        assert!(!implies(&p("F a"), &p("G a")));
        assert!(!implies(&p("a"), &p("X a")));
    }
}
