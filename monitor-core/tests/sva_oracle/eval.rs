//! The reference semantics: IEEE 1800-2017 Annex F (formal semantics of
//! sequences and properties), for one clock ticking at every letter.
//!
//! # What is implemented, and from which definition
//!
//! Words are infinite and their letters are valuations or the two
//! special letters of Annex F: ⊤ satisfies every Boolean (`1'b0`
//! included), ⊥ none (`1'b1` included). `w̄` swaps ⊤ and ⊥.
//!
//! Sequences, tight satisfaction `w |≡ R` on finite words (F.3.3, core
//! forms): a Boolean matches one letter satisfying it; `R ##1 S` is
//! concatenation; `R ##0 S` fusion (`w = x y z`, `|y| = 1`,
//! `xy |≡ R`, `yz |≡ S`); `or`, `intersect`; `[*0]` the empty word;
//! `R[*1:$]` one or more concatenated matches; `first_match(R)`:
//! `w |≡ R` and no proper prefix `x` of `w` has `x̄ |≡ R`. The other
//! sequence operators are the standard's derived forms (F.4.2):
//!
//! * `##[m:n] R ≡ 1[*m:n] ##1 R` (leading delay);
//! * `R ##[m:n] S ≡ R ##1 1[*m-1:n-1] ##1 S` for `m ≥ 1`, and
//!   `R ##[0:n] S ≡ (R ##0 S) or (R ##[1:n] S)`; `$` for `n` likewise;
//! * `R[*n]` is `n` concatenated copies, `R[*m:n]` their union,
//!   `R[*m:$] ≡ R[*m] ##1 R[*0:$]`;
//! * `b[->m:n] ≡ (!b[*0:$] ##1 b)[*m:n]`, `b[=m:n] ≡ b[->m:n] ##1 !b[*0:$]`;
//! * `R and S ≡ ((R ##1 1[*0:$]) intersect S) or (R intersect (S ##1 1[*0:$]))`;
//! * `R within S ≡ (1[*0:$] ##1 R ##1 1[*0:$]) intersect S`;
//! * `b throughout R ≡ (b[*0:$]) intersect R`.
//!
//! Properties (F.5, core forms), on an infinite word `w`:
//!
//! * `strong(R)`: some `j ≥ 0` has `w^{0,j} |≡ R` (non-empty matches only);
//! * `weak(R)`: for every `j ≥ 0`, `w^{0,j} ⊤^ω ⊨ strong(R)`;
//! * `not P`: `w̄ ⊭ P`; `P and Q`, `P or Q`;
//! * `nexttime P`: `w^{1..} ⊨ P` (weak and strong agree on infinite words);
//! * `P s_until Q`: some `i` has `w^{i..} ⊨ Q` and every `j < i` has
//!   `w^{j..} ⊨ P`;
//! * `R |-> P`: every `j` with `w̄^{0,j} |≡ R` has `w^{j..} ⊨ P`;
//! * `accept_on(b) P`: either `w ⊨ P` and no letter of `w` satisfies
//!   `b`, or some `i` has `w^i ⊨ b` and `w^{0,i-1} ⊤^ω ⊨ P`.
//!
//! and the derived forms (F.4.3): `R |=> P ≡ (R ##1 1) |-> P`,
//! `R #-# P ≡ not (R |-> not P)`, `R #=# P ≡ not (R |=> not P)`,
//! `P implies Q ≡ not P or Q`, `P iff Q ≡ (P implies Q) and (Q implies P)`,
//! `if (b) P ≡ b |-> P`, `if (b) P else Q ≡ (b |-> P) and (!b |-> Q)`,
//! `s_nexttime P ≡ not nexttime not P`, `s_eventually P ≡ 1 s_until P`,
//! `always P ≡ not s_eventually not P`,
//! `P until Q ≡ (P s_until Q) or always P`, `P until_with Q ≡ P until (P and Q)`
//! (strong likewise), `always [m:n] P ≡` the conjunction of
//! `nexttime [k] P` for `m ≤ k ≤ n`, `always [m:$] P ≡ nexttime [m] always P`,
//! `s_always [m:n] P` the conjunction of `s_nexttime [k] P`,
//! `eventually [m:n] P ≡ not s_always [m:n] not P`,
//! `s_eventually [m:n] P ≡ not always [m:n] not P` (and `[m:$]`),
//! `reject_on(b) P ≡ not accept_on(b) not P`. With a single clock that
//! ticks at every letter, `sync_accept_on`/`sync_reject_on` sample their
//! condition at the same points as the asynchronous forms and mean the
//! same, and `disable iff (b) P` has the semantics of `accept_on(b) P`
//! (F.5: the attempt is cut at the first letter satisfying `b` and the
//! rest of the word is ⊤).
//!
//! A sequence used as a property without `strong`/`weak` is weak (the
//! oracle models `assert property`, §16.12.2).
//!
//! Sampled-value functions (§16.9.3) are Booleans whose value at a tick is
//! computed on the real trace before evaluation (they read the past of
//! the whole trace, not of the sub-word an operator looks at), with the
//! value before the first tick 0 (two-valued traces): `$past(p, n)` is 0
//! on the first `n` ticks, `$rose(p)` is `p` at the first tick, `$fell(p)`
//! is false there, `$stable(p)` is `!p`, `$changed(p)` is `p`.
//!
//! # Why the evaluation is exact
//!
//! Every word the definitions reach is ultimately periodic: the lasso
//! itself, its suffixes, `w̄`, and the cut words `u ⊤^ω` of `weak` and
//! `accept_on` — again lassos, over letters that are valuations, ⊤ or ⊥.
//! A property's value at position `t` depends only on the suffix from
//! `t`, so it is computed at the `prefix + cycle` distinct suffixes.
//!
//! Sequences are matched with Brzozowski derivatives of the terms above:
//! `d_ℓ(R)` matches `v` iff `R` matches `ℓ v`, rule by rule from the
//! definitions (for `first_match` the term carries the barred copy of
//! the operand: `FM(R, R')` matches `v` iff `v |≡ R` and no proper prefix
//! `x` has `x̄ |≡ R'`, so `d_ℓ FM(R, R') = ∅` if `R'` matches ε, else
//! `FM(d_ℓ R, d_ℓ̄ R')`). Terms are kept in a normal form (unions and
//! intersections as sorted sets, concatenations flattened, ∅ and ε
//! simplified), under which a term has finitely many derivatives
//! (Brzozowski 1964). A run from a start position is then a deterministic
//! walk over pairs (position in the lasso, term), a finite set: the walk
//! stops as soon as a pair repeats, after which it would repeat forever.
//! So the quantifiers over match ends (`strong`, `|->`) and over cut
//! points (`weak`) range over a finite set of distinct cases, and
//! unbounded repetitions and `$` need no horizon. `P s_until Q` is a
//! least fixpoint over the positions of the lasso, computed until it is
//! stable.
//!
//! The one infinite quantifier left is `accept_on`'s cut point `i`. The
//! evaluator cuts at the first two letters satisfying `b` and uses the
//! truncation lemma of the standard's semantics (a cut can only make a
//! property easier: `w ⊨ P` implies `w^{0,i} ⊤^ω ⊨ P`, hence a later cut
//! never holds where an earlier one fails), and it checks the lemma on
//! those two cuts every time (a panic names the case).

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use monitor_core::word::Lasso;

use super::ast::{Bool, Hi, Prop, Sampled, Seq, VecAtom};

/// A letter of the words the semantics reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum XL {
    /// A valuation: bit `i` is atom `i` of the oracle's atom table.
    Real(u64),
    /// ⊤: satisfies every Boolean.
    Top,
    /// ⊥: satisfies none.
    Bot,
}

impl XL {
    fn bar(self) -> XL {
        match self {
            XL::Top => XL::Bot,
            XL::Bot => XL::Top,
            r => r,
        }
    }
}

/// An ultimately periodic word over [`XL`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Word {
    prefix: Vec<XL>,
    cycle: Vec<XL>,
}

impl Word {
    /// Number of distinct suffixes (positions after folding).
    fn len(&self) -> usize {
        self.prefix.len() + self.cycle.len()
    }

    fn fold(&self, j: usize) -> usize {
        let p = self.prefix.len();
        if j < p {
            j
        } else {
            p + (j - p) % self.cycle.len()
        }
    }

    fn succ(&self, t: usize) -> usize {
        self.fold(t + 1)
    }

    fn at(&self, j: usize) -> XL {
        let j = self.fold(j);
        if j < self.prefix.len() {
            self.prefix[j]
        } else {
            self.cycle[j - self.prefix.len()]
        }
    }

    fn bar(&self) -> Word {
        Word {
            prefix: self.prefix.iter().map(|l| l.bar()).collect(),
            cycle: self.cycle.iter().map(|l| l.bar()).collect(),
        }
    }

    /// `w^{t, i-1} ⊤^ω`.
    fn cut(&self, t: usize, i: usize) -> Word {
        Word {
            prefix: (t..i).map(|j| self.at(j)).collect(),
            cycle: vec![XL::Top],
        }
    }
}

/// A Boolean over atoms (propositions and sampled-value calls).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum BoolC {
    Const(bool),
    Atom(u32),
    Not(Box<BoolC>),
    And(Box<BoolC>, Box<BoolC>),
    Or(Box<BoolC>, Box<BoolC>),
}

impl BoolC {
    fn eval(&self, m: u64) -> bool {
        match self {
            BoolC::Const(c) => *c,
            BoolC::Atom(i) => m >> i & 1 == 1,
            BoolC::Not(b) => !b.eval(m),
            BoolC::And(x, y) => x.eval(m) && y.eval(m),
            BoolC::Or(x, y) => x.eval(m) || y.eval(m),
        }
    }
}

/// Sequence terms in normal form (see the module doc). `B(i)` is Boolean
/// `i` of the oracle's table.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Re {
    /// No match at all.
    Empty,
    /// The empty word only.
    Eps,
    B(usize),
    Cat(Vec<R>),
    Or(Vec<R>),
    And(Vec<R>),
    /// `[*0:$]`.
    Star(R),
    /// `R ##0 S`.
    Fuse(R, R),
    /// `first_match`, with the operand read on the barred word.
    Fm(R, R),
}

type R = Rc<Re>;

fn empty() -> R {
    Rc::new(Re::Empty)
}

fn eps() -> R {
    Rc::new(Re::Eps)
}

fn nullable(r: &Re) -> bool {
    match r {
        Re::Empty | Re::B(_) | Re::Fuse(_, _) => false,
        Re::Eps | Re::Star(_) => true,
        Re::Cat(v) | Re::And(v) => v.iter().all(|x| nullable(x)),
        Re::Or(v) => v.iter().any(|x| nullable(x)),
        Re::Fm(x, _) => nullable(x),
    }
}

fn cat(parts: Vec<R>) -> R {
    let mut out = Vec::new();
    for p in parts {
        match &*p {
            Re::Empty => return empty(),
            Re::Eps => {}
            Re::Cat(v) => out.extend(v.iter().cloned()),
            _ => out.push(p),
        }
    }
    match out.len() {
        0 => eps(),
        1 => out.pop().unwrap(),
        _ => Rc::new(Re::Cat(out)),
    }
}

fn or(parts: Vec<R>) -> R {
    let mut out = Vec::new();
    for p in parts {
        match &*p {
            Re::Empty => {}
            Re::Or(v) => out.extend(v.iter().cloned()),
            _ => out.push(p),
        }
    }
    out.sort();
    out.dedup();
    match out.len() {
        0 => empty(),
        1 => out.pop().unwrap(),
        _ => Rc::new(Re::Or(out)),
    }
}

fn and(parts: Vec<R>) -> R {
    let mut out = Vec::new();
    for p in parts {
        match &*p {
            Re::Empty => return empty(),
            Re::And(v) => out.extend(v.iter().cloned()),
            _ => out.push(p),
        }
    }
    out.sort();
    out.dedup();
    if out.iter().any(|x| **x == Re::Eps) {
        // ε ∩ R is ε when R matches the empty word, else nothing.
        return if out.iter().all(|x| nullable(x)) {
            eps()
        } else {
            empty()
        };
    }
    match out.len() {
        0 => eps(),
        1 => out.pop().unwrap(),
        _ => Rc::new(Re::And(out)),
    }
}

fn star(r: R) -> R {
    match &*r {
        Re::Empty | Re::Eps => eps(),
        Re::Star(_) => r,
        _ => Rc::new(Re::Star(r)),
    }
}

fn fuse(r: R, s: R) -> R {
    // Both sides of a fusion read the shared letter: an operand that only
    // matches ε (or nothing) leaves no match.
    match (&*r, &*s) {
        (Re::Empty | Re::Eps, _) | (_, Re::Empty | Re::Eps) => empty(),
        _ => Rc::new(Re::Fuse(r, s)),
    }
}

fn first_match(r: R, barred: R) -> R {
    match (&*r, &*barred) {
        (Re::Empty, _) => empty(),
        // No prefix can match on the barred word: nothing to cut short.
        (_, Re::Empty) => r,
        _ => Rc::new(Re::Fm(r, barred)),
    }
}

fn repeat(x: &R, lo: u32, hi: Hi) -> R {
    let copies = |k: u32| cat((0..k).map(|_| x.clone()).collect());
    match hi {
        Some(hi) => or((lo..=hi).map(copies).collect()),
        None => cat(vec![copies(lo), star(x.clone())]),
    }
}

/// The atoms a property reads: propositions and sampled-value calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Atom {
    Ap(u8),
    Sampled(Sampled, u8),
    Vector(VecAtom),
}

impl Atom {
    fn value(self, w: &Lasso<u64>, i: usize) -> bool {
        let p = |ap: u8, back: u32| -> bool {
            // Before the first tick: the default value 0 (§16.9.3).
            i >= back as usize && w.letter(i - back as usize) >> ap & 1 == 1
        };
        match self {
            Atom::Ap(a) => p(a, 0),
            Atom::Sampled(Sampled::Past(n), a) => p(a, n),
            Atom::Sampled(Sampled::Rose, a) => p(a, 0) && !p(a, 1),
            Atom::Sampled(Sampled::Fell, a) => !p(a, 0) && p(a, 1),
            Atom::Sampled(Sampled::Stable, a) => p(a, 0) == p(a, 1),
            Atom::Sampled(Sampled::Changed, a) => p(a, 0) != p(a, 1),
            Atom::Vector(v) => v.value(|j| *w.letter(j), i),
        }
    }

    fn depth(self) -> usize {
        match self {
            Atom::Ap(_) => 0,
            Atom::Sampled(Sampled::Past(n), _) => n as usize,
            Atom::Sampled(_, _) => 1,
            Atom::Vector(v) => v.depth() as usize,
        }
    }
}

/// The core property forms of Annex F (F.5), to which the derived forms
/// are rewritten.
#[derive(Debug)]
enum Core {
    Strong(R),
    Weak(R),
    Not(P),
    And(P, P),
    Or(P, P),
    Next(P),
    SUntil(P, P),
    /// `R |-> P`.
    Imp(R, P),
    /// `accept_on(b) P`, `b` a Boolean of the table.
    AcceptOn(usize, P),
}

type P = Rc<Core>;

/// The reference evaluator of one SVA property.
///
/// ```ignore
/// let o = Oracle::new(&prop);
/// let verdict = o.holds(&lasso); // letters: bit i = proposition i
/// ```
pub struct Oracle {
    atoms: Vec<Atom>,
    bools: Vec<BoolC>,
    root: P,
    derivs: HashMap<(R, XL), R>,
    top_ok: HashMap<R, bool>,
}

impl Oracle {
    /// The evaluator of `p` as asserted (`assert property (p)`).
    pub fn new(p: &Prop) -> Oracle {
        let mut o = Oracle {
            atoms: Vec::new(),
            // Entry 0 is `1'b1` (see `ONE`).
            bools: vec![BoolC::Const(true)],
            root: Rc::new(Core::Weak(eps())),
            derivs: HashMap::new(),
            top_ok: HashMap::new(),
        };
        o.root = o.prop(p);
        o
    }

    /// Whether the infinite word `w` (bit `i` of a letter: proposition
    /// `i`) satisfies the property at its first tick.
    pub fn holds(&mut self, w: &Lasso<u64>) -> bool {
        let word = self.word(w);
        let root = self.root.clone();
        self.values(&root, &word)[0]
    }

    /// Whether the property holds at every tick of `w`: what `assert
    /// property` checks, an evaluation attempt starting at each tick
    /// (§16.14). Sampled values still read the whole trace, so an attempt
    /// started late sees the values before it.
    pub fn holds_at_every_tick(&mut self, w: &Lasso<u64>) -> bool {
        let word = self.word(w);
        let root = self.root.clone();
        // `word` has one position per distinct suffix of `w` (with its
        // sampled values), each a tick of `w`.
        self.values(&root, &word).iter().all(|&v| v)
    }

    /// Whether the property holds on ⊤^ω, the word of an attempt that a
    /// reset cuts at its first tick (Annex F: `disable iff (b) P` fails
    /// there unless ⊤^ω satisfies `P`, which only an unsatisfiable `P`
    /// does not, by the truncation lemma).
    pub fn holds_on_top(&mut self) -> bool {
        let word = Word {
            prefix: Vec::new(),
            cycle: vec![XL::Top],
        };
        let root = self.root.clone();
        self.values(&root, &word)[0]
    }

    /// The ends (positions of the last letter) of the tight matches of
    /// `s` that start at `start` on `w`, up to position `limit`.
    pub fn match_ends(s: &Seq, w: &Lasso<u64>, start: usize, limit: usize) -> Vec<usize> {
        let mut o = Oracle::new(&Prop::Weak(Seq::Bool(Bool::Const(true))));
        let r = o.seq(s);
        let word = o.word(w);
        let mut out = Vec::new();
        let mut cur = r;
        for j in start..=limit {
            cur = o.deriv(&cur, word.at(j));
            if nullable(&cur) {
                out.push(j);
            }
        }
        out
    }

    /// Whether `s` can match the empty word (its use as a property is
    /// illegal, §16.12.2).
    pub fn admits_empty(s: &Seq) -> bool {
        let mut o = Oracle::new(&Prop::Weak(Seq::Bool(Bool::Const(true))));
        nullable(&o.seq(s))
    }

    /// The lasso with each letter a valuation of the atoms, its loop moved
    /// far enough that the sampled values are periodic on it.
    fn word(&self, w: &Lasso<u64>) -> Word {
        assert!(self.atoms.len() <= 64, "too many atoms");
        let depth = self.atoms.iter().map(|a| a.depth()).max().unwrap_or(0);
        let p = w.prefix.len() + depth;
        let letter = |i: usize| {
            let mut m = 0u64;
            for (k, a) in self.atoms.iter().enumerate() {
                if a.value(w, i) {
                    m |= 1 << k;
                }
            }
            XL::Real(m)
        };
        Word {
            prefix: (0..p).map(letter).collect(),
            cycle: (p..p + w.cycle.len()).map(letter).collect(),
        }
    }

    fn atom(&mut self, a: Atom) -> u32 {
        match self.atoms.iter().position(|&x| x == a) {
            Some(i) => i as u32,
            None => {
                self.atoms.push(a);
                (self.atoms.len() - 1) as u32
            }
        }
    }

    fn boolc(&mut self, b: &Bool) -> BoolC {
        match b {
            Bool::Const(c) => BoolC::Const(*c),
            Bool::Ap(a) => BoolC::Atom(self.atom(Atom::Ap(*a))),
            Bool::Sampled(f, a) => BoolC::Atom(self.atom(Atom::Sampled(*f, *a))),
            Bool::Vector(v) => BoolC::Atom(self.atom(Atom::Vector(*v))),
            Bool::Not(x) => BoolC::Not(Box::new(self.boolc(x))),
            Bool::And(x, y) => BoolC::And(Box::new(self.boolc(x)), Box::new(self.boolc(y))),
            Bool::Or(x, y) => BoolC::Or(Box::new(self.boolc(x)), Box::new(self.boolc(y))),
        }
    }

    fn bool_id(&mut self, b: BoolC) -> usize {
        match self.bools.iter().position(|x| *x == b) {
            Some(i) => i,
            None => {
                self.bools.push(b);
                self.bools.len() - 1
            }
        }
    }

    fn leaf(&mut self, b: &Bool) -> R {
        let c = self.boolc(b);
        Rc::new(Re::B(self.bool_id(c)))
    }

    fn one(&mut self) -> R {
        self.leaf(&Bool::Const(true))
    }

    fn sat(&self, b: usize, l: XL) -> bool {
        match l {
            XL::Top => true,
            XL::Bot => false,
            XL::Real(m) => self.bools[b].eval(m),
        }
    }

    /// A sequence as a term (derived forms of F.4.2, see the module doc).
    fn seq(&mut self, s: &Seq) -> R {
        match s {
            Seq::Bool(b) => self.leaf(b),
            Seq::Delay { lhs, lo, hi, rhs } => {
                let r = self.seq(rhs);
                let one = self.one();
                match lhs {
                    None => cat(vec![repeat(&one, *lo, *hi), r]),
                    Some(l) => {
                        let l = self.seq(l);
                        if *lo >= 1 {
                            let gap = repeat(&one, lo - 1, hi.map(|h| h - 1));
                            cat(vec![l, gap, r])
                        } else {
                            let fused = fuse(l.clone(), r.clone());
                            match hi {
                                Some(0) => fused,
                                _ => {
                                    let gap = repeat(&one, 0, hi.map(|h| h - 1));
                                    or(vec![fused, cat(vec![l, gap, r])])
                                }
                            }
                        }
                    }
                }
            }
            Seq::Repeat { s, lo, hi } => {
                let x = self.seq(s);
                repeat(&x, *lo, *hi)
            }
            Seq::Goto { b, lo, hi } => self.goto(b, *lo, *hi),
            Seq::NonCons { b, lo, hi } => {
                let g = self.goto(b, *lo, *hi);
                let nb = self.leaf(&b.clone().not());
                cat(vec![g, star(nb)])
            }
            Seq::And(x, y) => {
                let (x, y) = (self.seq(x), self.seq(y));
                let pad = star(self.one());
                or(vec![
                    and(vec![cat(vec![x.clone(), pad.clone()]), y.clone()]),
                    and(vec![x, cat(vec![y, pad])]),
                ])
            }
            Seq::Or(x, y) => {
                let (x, y) = (self.seq(x), self.seq(y));
                or(vec![x, y])
            }
            Seq::Intersect(x, y) => {
                let (x, y) = (self.seq(x), self.seq(y));
                and(vec![x, y])
            }
            Seq::Within(x, y) => {
                let (x, y) = (self.seq(x), self.seq(y));
                let pad = star(self.one());
                and(vec![cat(vec![pad.clone(), x, pad]), y])
            }
            Seq::Throughout(b, x) => {
                let x = self.seq(x);
                let b = self.leaf(b);
                and(vec![star(b), x])
            }
            Seq::FirstMatch(x) => {
                let x = self.seq(x);
                first_match(x.clone(), x)
            }
        }
    }

    fn goto(&mut self, b: &Bool, lo: u32, hi: Hi) -> R {
        let nb = self.leaf(&b.clone().not());
        let bb = self.leaf(b);
        let one = cat(vec![star(nb), bb]);
        repeat(&one, lo, hi)
    }

    /// A property as a core term (derived forms of F.4.3, see the module
    /// doc).
    fn prop(&mut self, p: &Prop) -> P {
        use Core as C;
        let rc = Rc::new;
        match p {
            Prop::Seq(s) | Prop::Weak(s) => rc(C::Weak(self.seq(s))),
            Prop::Strong(s) => rc(C::Strong(self.seq(s))),
            Prop::Not(x) => rc(C::Not(self.prop(x))),
            Prop::And(x, y) => rc(C::And(self.prop(x), self.prop(y))),
            Prop::Or(x, y) => rc(C::Or(self.prop(x), self.prop(y))),
            Prop::Implies(x, y) => {
                let (x, y) = (self.prop(x), self.prop(y));
                rc(C::Or(rc(C::Not(x)), y))
            }
            Prop::Iff(x, y) => {
                let (x, y) = (self.prop(x), self.prop(y));
                rc(C::And(
                    rc(C::Or(rc(C::Not(x.clone())), y.clone())),
                    rc(C::Or(rc(C::Not(y)), x)),
                ))
            }
            Prop::If(b, x, y) => {
                let cond = self.leaf(b);
                let then = rc(C::Imp(cond, self.prop(x)));
                match y {
                    None => then,
                    Some(y) => {
                        let ncond = self.leaf(&b.clone().not());
                        rc(C::And(then, rc(C::Imp(ncond, self.prop(y)))))
                    }
                }
            }
            Prop::Implication { s, overlap, p } => {
                let r = self.ante(s, *overlap);
                rc(C::Imp(r, self.prop(p)))
            }
            Prop::FollowedBy { s, overlap, p } => {
                let r = self.ante(s, *overlap);
                let p = self.prop(p);
                rc(C::Not(rc(C::Imp(r, rc(C::Not(p))))))
            }
            Prop::Nexttime { n, strong, p } => {
                let p = self.prop(p);
                next_n(p, *n, *strong)
            }
            Prop::Always { range, strong, p } => {
                let p = self.prop(p);
                always(p, *range, *strong)
            }
            Prop::Eventually { range, strong, p } => {
                let p = self.prop(p);
                match (range, strong) {
                    (None, true) => s_eventually(p),
                    (None, false) => panic!("`eventually` needs a range"),
                    // eventually [m:n] P ≡ not s_always [m:n] not P, and
                    // s_eventually [m:n] P ≡ not always [m:n] not P.
                    (Some(r), s) => rc(C::Not(always(rc(C::Not(p)), Some(*r), !s))),
                }
            }
            Prop::Until { strong, with, p, q } => {
                let p = self.prop(p);
                let mut q = self.prop(q);
                if *with {
                    q = rc(C::And(p.clone(), q));
                }
                let su = rc(C::SUntil(p.clone(), q));
                if *strong {
                    su
                } else {
                    rc(C::Or(su, always(p, None, false)))
                }
            }
            Prop::Abort { kind, b, p } => {
                let c = self.boolc(b);
                let b = self.bool_id(c);
                let p = self.prop(p);
                if kind.reject {
                    rc(C::Not(rc(C::AcceptOn(b, rc(C::Not(p))))))
                } else {
                    rc(C::AcceptOn(b, p))
                }
            }
            Prop::DisableIff(b, p) => {
                let c = self.boolc(b);
                let b = self.bool_id(c);
                rc(C::AcceptOn(b, self.prop(p)))
            }
        }
    }

    /// The antecedent of `|->` (`overlap`) or `|=>` (`R ##1 1`).
    fn ante(&mut self, s: &Seq, overlap: bool) -> R {
        let r = self.seq(s);
        if overlap {
            r
        } else {
            cat(vec![r, self.one()])
        }
    }

    fn deriv(&mut self, r: &R, l: XL) -> R {
        if let Some(d) = self.derivs.get(&(r.clone(), l)) {
            return d.clone();
        }
        let d = match &**r {
            Re::Empty | Re::Eps => empty(),
            Re::B(b) => {
                if self.sat(*b, l) {
                    eps()
                } else {
                    empty()
                }
            }
            Re::Cat(v) => {
                let head = self.deriv(&v[0], l);
                let rest = cat(v[1..].to_vec());
                let mut alts = vec![cat(vec![head, rest.clone()])];
                if nullable(&v[0]) {
                    alts.push(self.deriv(&rest, l));
                }
                or(alts)
            }
            Re::Or(v) => {
                let ds = v.iter().map(|x| self.deriv(x, l)).collect();
                or(ds)
            }
            Re::And(v) => {
                let ds = v.iter().map(|x| self.deriv(x, l)).collect();
                and(ds)
            }
            Re::Star(x) => {
                let dx = self.deriv(x, l);
                cat(vec![dx, r.clone()])
            }
            Re::Fuse(x, y) => {
                // The letter is inside x's match, or is the shared one
                // (x's match ends on it and y's begins on it).
                let dx = self.deriv(x, l);
                let mut alts = vec![fuse(dx.clone(), y.clone())];
                if nullable(&dx) {
                    alts.push(self.deriv(y, l));
                }
                or(alts)
            }
            Re::Fm(x, barred) => {
                if nullable(barred) {
                    empty()
                } else {
                    let dx = self.deriv(x, l);
                    let db = self.deriv(barred, l.bar());
                    first_match(dx, db)
                }
            }
        };
        self.derivs.insert((r.clone(), l), d.clone());
        d
    }

    /// Whether `r` matches some word of ⊤ letters (ε included).
    fn top_completable(&mut self, r: &R) -> bool {
        if let Some(&b) = self.top_ok.get(r) {
            return b;
        }
        let mut seen = HashSet::new();
        let mut cur = r.clone();
        let ok = loop {
            if nullable(&cur) {
                break true;
            }
            if *cur == Re::Empty || !seen.insert(cur.clone()) {
                break false;
            }
            cur = self.deriv(&cur, XL::Top);
        };
        self.top_ok.insert(r.clone(), ok);
        ok
    }

    /// `w^{t..} ⊨ strong(R)`.
    fn strong_at(&mut self, r: &R, w: &Word, t: usize) -> bool {
        let mut seen = HashSet::new();
        let (mut cur, mut j) = (r.clone(), t);
        loop {
            cur = self.deriv(&cur, w.at(j));
            if nullable(&cur) {
                return true;
            }
            j += 1;
            if *cur == Re::Empty || !seen.insert((w.fold(j), cur.clone())) {
                return false;
            }
        }
    }

    /// `w^{t..} ⊨ weak(R)`: for every cut `j ≥ t`, the word of the letters
    /// `t..=j` followed by ⊤ has a match.
    fn weak_at(&mut self, r: &R, w: &Word, t: usize) -> bool {
        let mut seen = HashSet::new();
        let (mut cur, mut j) = (r.clone(), t);
        loop {
            cur = self.deriv(&cur, w.at(j));
            if nullable(&cur) {
                // A match within the real letters: every later cut has it.
                return true;
            }
            if !self.top_completable(&cur) {
                // The cut at j has no match.
                return false;
            }
            j += 1;
            if !seen.insert((w.fold(j), cur.clone())) {
                // Every later cut repeats one already checked.
                return true;
            }
        }
    }

    /// `w^{t..} ⊨ R |-> P`, given the values of `P` on `w`.
    fn implication_at(&mut self, r: &R, then: &[bool], w: &Word, t: usize) -> bool {
        let mut seen = HashSet::new();
        let (mut cur, mut j) = (r.clone(), t);
        loop {
            // The antecedent is matched on the barred word.
            cur = self.deriv(&cur, w.at(j).bar());
            if nullable(&cur) && !then[w.fold(j)] {
                return false;
            }
            j += 1;
            if *cur == Re::Empty || !seen.insert((w.fold(j), cur.clone())) {
                return true;
            }
        }
    }

    /// The value of `p` on every suffix `w^{t..}`, `t < w.len()`.
    fn values(&mut self, p: &P, w: &Word) -> Vec<bool> {
        let n = w.len();
        match &**p {
            Core::Strong(r) => (0..n).map(|t| self.strong_at(r, w, t)).collect(),
            Core::Weak(r) => (0..n).map(|t| self.weak_at(r, w, t)).collect(),
            Core::Not(x) => self.values(x, &w.bar()).iter().map(|v| !v).collect(),
            Core::And(x, y) => {
                let (a, b) = (self.values(x, w), self.values(y, w));
                a.iter().zip(&b).map(|(a, b)| *a && *b).collect()
            }
            Core::Or(x, y) => {
                let (a, b) = (self.values(x, w), self.values(y, w));
                a.iter().zip(&b).map(|(a, b)| *a || *b).collect()
            }
            Core::Next(x) => {
                let a = self.values(x, w);
                (0..n).map(|t| a[w.succ(t)]).collect()
            }
            Core::SUntil(x, y) => {
                let (a, b) = (self.values(x, w), self.values(y, w));
                // Least fixpoint of v = b | (a & X v).
                let mut v = vec![false; n];
                loop {
                    let mut changed = false;
                    for t in (0..n).rev() {
                        let nv = b[t] || (a[t] && v[w.succ(t)]);
                        if nv != v[t] {
                            v[t] = nv;
                            changed = true;
                        }
                    }
                    if !changed {
                        break v;
                    }
                }
            }
            Core::Imp(r, x) => {
                let then = self.values(x, w);
                (0..n)
                    .map(|t| self.implication_at(r, &then, w, t))
                    .collect()
            }
            Core::AcceptOn(b, x) => {
                let whole = self.values(x, w);
                (0..n)
                    .map(|t| {
                        // The first letters satisfying b from t: within
                        // n + cycle letters every position has been seen.
                        let cuts: Vec<usize> = (t..t + n + w.cycle.len())
                            .filter(|&i| self.sat(*b, w.at(i)))
                            .take(2)
                            .collect();
                        if cuts.is_empty() {
                            return whole[t];
                        }
                        let vals: Vec<bool> = cuts
                            .iter()
                            .map(|&i| self.values(x, &w.cut(t, i))[0])
                            .collect();
                        assert!(
                            vals[0] || !vals.iter().any(|&v| v),
                            "truncation lemma fails: {p:?} holds when cut at {:?} \
                             but not at {} (from {t} on {w:?})",
                            cuts,
                            cuts[0]
                        );
                        vals[0]
                    })
                    .collect()
            }
        }
    }
}

fn next_n(p: P, n: u32, strong: bool) -> P {
    let mut p = p;
    for _ in 0..n {
        p = if strong {
            // s_nexttime P ≡ not nexttime not P.
            Rc::new(Core::Not(Rc::new(Core::Next(Rc::new(Core::Not(p))))))
        } else {
            Rc::new(Core::Next(p))
        };
    }
    p
}

/// `s_eventually P ≡ 1 s_until P` (`1` the Boolean property, `weak(1)`).
fn s_eventually(p: P) -> P {
    let one = Rc::new(Core::Weak(Rc::new(Re::B(ONE))));
    Rc::new(Core::SUntil(one, p))
}

/// Boolean `1'b1` is always entry 0 of the table (see `Oracle::new`).
const ONE: usize = 0;

fn always(p: P, range: Option<(u32, Hi)>, strong: bool) -> P {
    match range {
        // always P ≡ not s_eventually not P.
        None => Rc::new(Core::Not(s_eventually(Rc::new(Core::Not(p))))),
        Some((lo, Some(hi))) => {
            let mut all = next_n(p.clone(), lo, strong);
            for k in lo + 1..=hi {
                all = Rc::new(Core::And(all, next_n(p.clone(), k, strong)));
            }
            all
        }
        Some((lo, None)) => {
            assert!(!strong, "s_always needs a finite range");
            next_n(always(p, None, false), lo, false)
        }
    }
}
