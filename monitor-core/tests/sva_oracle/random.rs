//! Random SVA properties and words: a seeded generator (a failure names
//! its seed) and proptest strategies (a failure shrinks).
//!
//! Constants are small (at most `max_n`), so that the monitors stay small,
//! and every property is legal SVA: no sequence that admits an empty
//! match is used as a property (§16.12.2), `[->n]` counts from 1, `$`
//! only where the standard allows it (`always [m:$]`, `s_eventually
//! [m:$]`, not `s_always` nor weak `eventually`), `disable iff` only at
//! the top.

use monitor_core::formula::random::SplitMix64;
use monitor_core::word::Lasso;
use proptest::prelude::*;

use super::ast::{Abort, Bool, Cmp, Hi, Prop, Red, Sampled, Seq, VecAtom};
use super::eval::Oracle;

/// What the generator may produce.
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Number of propositions (`a`, `b`, ...).
    pub aps: u8,
    /// Largest constant in delays, repetitions and ranges.
    pub max_n: u32,
    /// Sampled-value functions.
    pub sampled: bool,
    /// `first_match` (not in PSL).
    pub first_match: bool,
    /// `disable iff` at the top.
    pub disable: bool,
    /// `accept_on`, `reject_on` and their `sync_` forms.
    pub aborts: bool,
    /// Expressions over the vector `v` and its index `i` ([`VecAtom`]).
    pub vectors: bool,
}

impl GenConfig {
    /// Everything the oracle knows, over `a`, `b`, `c`.
    pub fn full() -> GenConfig {
        GenConfig {
            aps: 3,
            max_n: 2,
            sampled: true,
            first_match: true,
            disable: true,
            aborts: true,
            vectors: false,
        }
    }

    /// The fragment with a PSL counterpart.
    pub fn shared() -> GenConfig {
        GenConfig {
            first_match: false,
            ..GenConfig::full()
        }
    }
}

/// Whether a property is legal as generated (see the module doc).
pub fn legal(p: &Prop, top: bool) -> bool {
    let seq_ok = |s: &Seq| seq_legal(s);
    match p {
        Prop::Seq(s) | Prop::Strong(s) | Prop::Weak(s) => seq_ok(s) && !Oracle::admits_empty(s),
        Prop::Not(x) | Prop::Nexttime { p: x, .. } => legal(x, false),
        Prop::And(x, y)
        | Prop::Or(x, y)
        | Prop::Implies(x, y)
        | Prop::Iff(x, y)
        | Prop::Until { p: x, q: y, .. } => legal(x, false) && legal(y, false),
        Prop::If(_, x, y) => legal(x, false) && y.as_ref().is_none_or(|y| legal(y, false)),
        Prop::Implication { s, p, .. } | Prop::FollowedBy { s, p, .. } => {
            seq_ok(s) && legal(p, false)
        }
        Prop::Always { range, strong, p } => {
            !(*strong && matches!(range, None | Some((_, None)))) && legal(p, false)
        }
        Prop::Eventually { range, strong, p } => {
            (*strong || matches!(range, Some((_, Some(_))))) && legal(p, false)
        }
        Prop::Abort { p, .. } => legal(p, false),
        Prop::DisableIff(_, p) => top && legal(p, false),
    }
}

/// Whether `accept_on`, `reject_on` (or `sync_`) or `disable iff` occur.
pub fn uses_abort(p: &Prop) -> bool {
    match p {
        Prop::Abort { .. } | Prop::DisableIff(..) => true,
        Prop::Seq(_) | Prop::Strong(_) | Prop::Weak(_) => false,
        Prop::Not(x)
        | Prop::Nexttime { p: x, .. }
        | Prop::Always { p: x, .. }
        | Prop::Eventually { p: x, .. }
        | Prop::Implication { p: x, .. }
        | Prop::FollowedBy { p: x, .. } => uses_abort(x),
        Prop::And(x, y)
        | Prop::Or(x, y)
        | Prop::Implies(x, y)
        | Prop::Iff(x, y)
        | Prop::Until { p: x, q: y, .. } => uses_abort(x) || uses_abort(y),
        Prop::If(_, x, y) => uses_abort(x) || y.as_deref().is_some_and(uses_abort),
    }
}

fn seq_legal(s: &Seq) -> bool {
    match s {
        Seq::Bool(_) => true,
        Seq::Delay { lhs, lo, hi, rhs } => {
            hi.is_none_or(|h| h >= *lo)
                && lhs.as_deref().is_none_or(seq_legal)
                && seq_legal(rhs)
                // `##0 r` / `##[0:n] r` with an r matching ε: the standard's
                // derived form is `1[*0:n] ##1 r`, kept clear of.
                && !(lhs.is_none() && *lo == 0 && Oracle::admits_empty(rhs))
        }
        Seq::Repeat { s, lo, hi } => hi.is_none_or(|h| h >= *lo) && seq_legal(s),
        Seq::Goto { lo, hi, .. } => *lo >= 1 && hi.is_none_or(|h| h >= *lo),
        Seq::NonCons { lo, hi, .. } => hi.is_none_or(|h| h >= *lo),
        Seq::And(x, y) | Seq::Or(x, y) | Seq::Intersect(x, y) | Seq::Within(x, y) => {
            seq_legal(x) && seq_legal(y)
        }
        Seq::Throughout(_, x) | Seq::FirstMatch(x) => seq_legal(x),
    }
}

/// The seeded generator.
pub struct Gen {
    rng: SplitMix64,
    cfg: GenConfig,
}

impl Gen {
    pub fn new(seed: u64, cfg: GenConfig) -> Gen {
        Gen {
            rng: SplitMix64::new(seed),
            cfg,
        }
    }

    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn pick(&mut self, weights: &[u64]) -> usize {
        let total: u64 = weights.iter().sum();
        let mut x = self.below(total);
        for (i, &w) in weights.iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
        }
        unreachable!()
    }

    fn ap(&mut self) -> u8 {
        self.below(self.cfg.aps as u64) as u8
    }

    /// `lo..=hi` or `lo..$` with small constants, `lo >= min`.
    fn range(&mut self, min: u32, dollar: bool) -> (u32, Hi) {
        let lo = min + self.below((self.cfg.max_n + 1 - min) as u64) as u32;
        if dollar && self.below(4) == 0 {
            (lo, None)
        } else {
            (
                lo,
                Some(lo + self.below((self.cfg.max_n + 1 - lo) as u64) as u32),
            )
        }
    }

    /// A vector expression.
    pub fn vector(&mut self) -> VecAtom {
        let cmp = |g: &mut Self| match g.below(6) {
            0 => Cmp::Eq,
            1 => Cmp::Ne,
            2 => Cmp::Lt,
            3 => Cmp::Le,
            4 => Cmp::Gt,
            _ => Cmp::Ge,
        };
        match self.below(14) {
            12 => VecAtom::BoolEqVec(self.below(2) == 1),
            13 => VecAtom::BoolEqBool(self.below(2) == 1),
            0 => VecAtom::Reduce(match self.below(6) {
                0 => Red::And,
                1 => Red::Or,
                2 => Red::Xor,
                3 => Red::Nand,
                4 => Red::Nor,
                _ => Red::Xnor,
            }),
            1 => VecAtom::OneHot,
            2 => VecAtom::OneHot0,
            3 => VecAtom::CountOnes(cmp(self), self.below(5) as u32),
            4 => VecAtom::Select,
            5 => VecAtom::PastCmp(1 + self.below(2) as u32, cmp(self)),
            6 => VecAtom::PastConst(1 + self.below(2) as u32, cmp(self), self.below(9) as u32),
            7 => VecAtom::Stable,
            8 => VecAtom::Changed,
            9 => VecAtom::Rose,
            10 => VecAtom::Truth,
            _ => VecAtom::Fell,
        }
    }

    pub fn boolean(&mut self, depth: u32) -> Bool {
        let sampled = if self.cfg.sampled { 2 } else { 0 };
        let compound = if depth == 0 { 0 } else { 3 };
        let vectors = if self.cfg.vectors { 6 } else { 0 };
        match self.pick(&[8, 1, sampled, compound, vectors]) {
            0 => Bool::Ap(self.ap()),
            4 => Bool::Vector(self.vector()),
            1 => Bool::Const(self.below(2) == 0),
            2 => {
                let f = match self.below(5) {
                    0 => Sampled::Past(1 + self.below(2) as u32),
                    1 => Sampled::Rose,
                    2 => Sampled::Fell,
                    3 => Sampled::Stable,
                    _ => Sampled::Changed,
                };
                Bool::Sampled(f, self.ap())
            }
            _ => match self.below(3) {
                0 => Bool::Not(Box::new(self.boolean(depth - 1))),
                1 => Bool::And(
                    Box::new(self.boolean(depth - 1)),
                    Box::new(self.boolean(depth - 1)),
                ),
                _ => Bool::Or(
                    Box::new(self.boolean(depth - 1)),
                    Box::new(self.boolean(depth - 1)),
                ),
            },
        }
    }

    pub fn seq(&mut self, depth: u32) -> Seq {
        if depth == 0 {
            return Seq::Bool(self.boolean(1));
        }
        let fm = if self.cfg.first_match { 1 } else { 0 };
        let d = depth - 1;
        let bx = Box::new;
        match self.pick(&[3, 5, 2, 3, 2, 2, 2, 2, 2, 1, 1, fm]) {
            0 => Seq::Bool(self.boolean(2)),
            1 => {
                let (lo, hi) = self.range(0, true);
                Seq::Delay {
                    lhs: Some(bx(self.seq(d))),
                    lo,
                    hi,
                    rhs: bx(self.seq(d)),
                }
            }
            2 => {
                let (lo, hi) = self.range(0, true);
                let rhs = self.seq(d);
                let lo = if lo == 0 && Oracle::admits_empty(&rhs) {
                    1
                } else {
                    lo
                };
                let hi = hi.map(|h| h.max(lo));
                Seq::Delay {
                    lhs: None,
                    lo,
                    hi,
                    rhs: bx(rhs),
                }
            }
            3 => {
                let (lo, hi) = self.range(0, true);
                Seq::Repeat {
                    s: bx(self.seq(d)),
                    lo,
                    hi,
                }
            }
            4 => {
                let (lo, hi) = self.range(1, true);
                Seq::Goto {
                    b: self.boolean(1),
                    lo,
                    hi,
                }
            }
            5 => {
                let (lo, hi) = self.range(0, true);
                Seq::NonCons {
                    b: self.boolean(1),
                    lo,
                    hi,
                }
            }
            6 => Seq::And(bx(self.seq(d)), bx(self.seq(d))),
            7 => Seq::Or(bx(self.seq(d)), bx(self.seq(d))),
            8 => Seq::Intersect(bx(self.seq(d)), bx(self.seq(d))),
            9 => Seq::Within(bx(self.seq(d)), bx(self.seq(d))),
            10 => Seq::Throughout(self.boolean(1), bx(self.seq(d))),
            _ => Seq::FirstMatch(bx(self.seq(d))),
        }
    }

    /// A sequence that does not admit the empty match.
    fn nonempty_seq(&mut self, depth: u32) -> Seq {
        for _ in 0..20 {
            let s = self.seq(depth);
            if !Oracle::admits_empty(&s) {
                return s;
            }
        }
        Seq::Bool(self.boolean(1))
    }

    pub fn prop(&mut self, depth: u32) -> Prop {
        let sd = 1 + self.below(2) as u32;
        if depth == 0 {
            let s = self.nonempty_seq(sd);
            return match self.below(4) {
                0 => Prop::Strong(s),
                1 => Prop::Weak(s),
                _ => Prop::Seq(s),
            };
        }
        let d = depth - 1;
        let bx = Box::new;
        let aborts = if self.cfg.aborts { 2 } else { 0 };
        match self.pick(&[3, 2, 2, 2, 1, 1, 2, 6, 2, 2, 3, 3, 3, aborts]) {
            0 => self.prop(0),
            1 => Prop::Not(bx(self.prop(d))),
            2 => Prop::And(bx(self.prop(d)), bx(self.prop(d))),
            3 => Prop::Or(bx(self.prop(d)), bx(self.prop(d))),
            4 => Prop::Implies(bx(self.prop(d)), bx(self.prop(d))),
            5 => Prop::Iff(bx(self.prop(d)), bx(self.prop(d))),
            6 => {
                let b = self.boolean(1);
                let then = bx(self.prop(d));
                let other = if self.below(2) == 0 {
                    Some(bx(self.prop(d)))
                } else {
                    None
                };
                Prop::If(b, then, other)
            }
            7 => Prop::Implication {
                s: self.seq(sd),
                overlap: self.below(2) == 0,
                p: bx(self.prop(d)),
            },
            8 => Prop::FollowedBy {
                s: self.seq(sd),
                overlap: self.below(2) == 0,
                p: bx(self.prop(d)),
            },
            9 => Prop::Nexttime {
                n: 1 + self.below(2) as u32,
                strong: self.below(2) == 0,
                p: bx(self.prop(d)),
            },
            10 => {
                let strong = self.below(3) == 0;
                let range = match self.below(3) {
                    0 if !strong => None,
                    _ => Some(self.range(0, !strong)),
                };
                Prop::Always {
                    range,
                    strong,
                    p: bx(self.prop(d)),
                }
            }
            11 => {
                let strong = self.below(2) == 0;
                let range = match self.below(3) {
                    0 if strong => None,
                    _ => Some(self.range(0, strong)),
                };
                Prop::Eventually {
                    range,
                    strong,
                    p: bx(self.prop(d)),
                }
            }
            12 => Prop::Until {
                strong: self.below(2) == 0,
                with: self.below(2) == 0,
                p: bx(self.prop(d)),
                q: bx(self.prop(d)),
            },
            _ => Prop::Abort {
                kind: Abort {
                    reject: self.below(2) == 0,
                    sync: self.below(2) == 0,
                },
                b: self.boolean(1),
                p: bx(self.prop(d)),
            },
        }
    }

    /// A top-level property: `prop(depth)`, sometimes under `disable iff`.
    pub fn assertion(&mut self, depth: u32) -> Prop {
        let p = self.prop(depth);
        let p = if self.cfg.disable && self.below(6) == 0 {
            Prop::DisableIff(self.boolean(1), Box::new(p))
        } else {
            p
        };
        debug_assert!(legal(&p, true), "{p:?}");
        p
    }

    /// A property with a `first_match` where it can change the property:
    /// as the antecedent of `|->`/`|=>`/`#-#`/`#=#`, or inside a longer
    /// sequence (`##`, `and`, `or`, `intersect`, `within`, `throughout`,
    /// repetition, `first_match`) used as an antecedent or as a property.
    /// Its operand is a random sequence (of more than one length, mostly,
    /// when it is not a single Boolean).
    pub fn first_match_assertion(&mut self, depth: u32) -> Prop {
        let bx = Box::new;
        loop {
            let depth_fm = 1 + self.below(2) as u32;
            let operand = if self.below(2) == 0 {
                self.seq(depth_fm)
            } else {
                // A delay of more than one length: its first match is
                // its shortest.
                let lhs = self.seq(depth_fm - 1);
                let rhs = self.seq(depth_fm - 1);
                let lo = self.below(2) as u32;
                let hi = match self.below(3) {
                    0 => None,
                    _ => Some(lo + 1 + self.below(2) as u32),
                };
                Seq::Delay {
                    lhs: Some(bx(lhs)),
                    lo,
                    hi,
                    rhs: bx(rhs),
                }
            };
            let fm = Seq::FirstMatch(bx(operand));
            let depth_other = self.below(2) as u32;
            let other = self.seq(depth_other);
            let s = match self.below(10) {
                0 | 1 => fm,
                2 => {
                    let (lo, hi) = self.range(0, true);
                    Seq::Delay {
                        lhs: Some(bx(fm)),
                        lo,
                        hi,
                        rhs: bx(other),
                    }
                }
                3 => {
                    let (lo, hi) = self.range(0, true);
                    Seq::Delay {
                        lhs: Some(bx(other)),
                        lo,
                        hi,
                        rhs: bx(fm),
                    }
                }
                4 => Seq::And(bx(fm), bx(other)),
                5 => Seq::Or(bx(other), bx(fm)),
                6 => Seq::Intersect(bx(fm), bx(other)),
                7 => {
                    if self.below(2) == 0 {
                        Seq::Within(bx(fm), bx(other))
                    } else {
                        Seq::Within(bx(other), bx(fm))
                    }
                }
                8 => {
                    let (lo, hi) = self.range(0, true);
                    Seq::Repeat { s: bx(fm), lo, hi }
                }
                _ => Seq::FirstMatch(bx(Seq::Delay {
                    lhs: Some(bx(fm)),
                    lo: 0,
                    hi: Some(1 + self.below(2) as u32),
                    rhs: bx(other),
                })),
            };
            let p = match self.below(7) {
                0..=2 => Prop::Implication {
                    s,
                    overlap: self.below(2) == 0,
                    p: Box::new(self.prop(depth)),
                },
                3 => Prop::FollowedBy {
                    s,
                    overlap: self.below(2) == 0,
                    p: Box::new(self.prop(depth)),
                },
                4 => Prop::Strong(s),
                5 => Prop::Not(Box::new(Prop::Seq(s))),
                _ => Prop::Seq(s),
            };
            if legal(&p, true) {
                return p;
            }
        }
    }

    /// A random lasso over the propositions: prefix of at most
    /// `max_prefix` letters, cycle of 1 to `max_cycle`.
    pub fn lasso(&mut self, max_prefix: u64, max_cycle: u64) -> Lasso<u64> {
        let letters = 1u64 << self.cfg.aps;
        let p = self.below(max_prefix + 1);
        let c = 1 + self.below(max_cycle);
        Lasso::new(
            (0..p).map(|_| self.below(letters)).collect(),
            (0..c).map(|_| self.below(letters)).collect(),
        )
    }
}

fn bool_strategy(aps: u8, sampled: bool) -> BoxedStrategy<Bool> {
    let ap = (0..aps).prop_map(Bool::Ap);
    let leaf = if sampled {
        prop_oneof![
            6 => ap,
            1 => any::<bool>().prop_map(Bool::Const),
            2 => (
                prop_oneof![
                    (1u32..=2).prop_map(Sampled::Past),
                    Just(Sampled::Rose),
                    Just(Sampled::Fell),
                    Just(Sampled::Stable),
                    Just(Sampled::Changed),
                ],
                0..aps
            )
                .prop_map(|(f, a)| Bool::Sampled(f, a)),
        ]
        .boxed()
    } else {
        prop_oneof![6 => ap, 1 => any::<bool>().prop_map(Bool::Const)].boxed()
    };
    leaf.prop_recursive(2, 6, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|b| Bool::Not(Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| Bool::And(Box::new(x), Box::new(y))),
            (inner.clone(), inner).prop_map(|(x, y)| Bool::Or(Box::new(x), Box::new(y))),
        ]
    })
    .boxed()
}

fn range_strategy(min: u32, max: u32, dollar: bool) -> BoxedStrategy<(u32, Hi)> {
    (min..=max, 0..=max, 0..4u8)
        .prop_map(move |(lo, extra, d)| {
            if dollar && d == 0 {
                (lo, None)
            } else {
                (lo, Some((lo + extra).min(max).max(lo)))
            }
        })
        .boxed()
}

/// Sequences (see [`GenConfig`]).
pub fn seq_strategy(cfg: &GenConfig) -> BoxedStrategy<Seq> {
    let n = cfg.max_n;
    let b = bool_strategy(cfg.aps, cfg.sampled);
    let fm = cfg.first_match;
    let leaf = b.clone().prop_map(Seq::Bool).boxed();
    leaf.prop_recursive(3, 12, 2, move |inner| {
        let bx = Box::new;
        let mut arms: Vec<(u32, BoxedStrategy<Seq>)> = vec![
            (
                4,
                (inner.clone(), range_strategy(0, n, true), inner.clone())
                    .prop_map(move |(l, (lo, hi), r)| Seq::Delay {
                        lhs: Some(bx(l)),
                        lo,
                        hi,
                        rhs: bx(r),
                    })
                    .boxed(),
            ),
            (
                1,
                (range_strategy(1, n, true), inner.clone())
                    .prop_map(move |((lo, hi), r)| Seq::Delay {
                        lhs: None,
                        lo,
                        hi,
                        rhs: bx(r),
                    })
                    .boxed(),
            ),
            (
                2,
                (inner.clone(), range_strategy(0, n, true))
                    .prop_map(move |(s, (lo, hi))| Seq::Repeat { s: bx(s), lo, hi })
                    .boxed(),
            ),
            (
                1,
                (b.clone(), range_strategy(1, n, true))
                    .prop_map(|(b, (lo, hi))| Seq::Goto { b, lo, hi })
                    .boxed(),
            ),
            (
                1,
                (b.clone(), range_strategy(0, n, true))
                    .prop_map(|(b, (lo, hi))| Seq::NonCons { b, lo, hi })
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Seq::And(bx(x), bx(y)))
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Seq::Or(bx(x), bx(y)))
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Seq::Intersect(bx(x), bx(y)))
                    .boxed(),
            ),
            (
                1,
                (inner.clone(), inner.clone())
                    .prop_map(move |(x, y)| Seq::Within(bx(x), bx(y)))
                    .boxed(),
            ),
            (
                1,
                (b.clone(), inner.clone())
                    .prop_map(move |(b, x)| Seq::Throughout(b, bx(x)))
                    .boxed(),
            ),
        ];
        if fm {
            arms.push((1, inner.prop_map(move |x| Seq::FirstMatch(bx(x))).boxed()));
        }
        proptest::strategy::Union::new_weighted(arms)
    })
    .boxed()
}

/// Legal properties (see [`GenConfig`] and [`legal`]).
pub fn prop_strategy(cfg: &GenConfig) -> BoxedStrategy<Prop> {
    let n = cfg.max_n;
    let s = seq_strategy(cfg);
    let b = bool_strategy(cfg.aps, false);
    let leaf = (s.clone(), 0..4u8)
        .prop_map(|(s, k)| match k {
            0 => Prop::Strong(s),
            1 => Prop::Weak(s),
            _ => Prop::Seq(s),
        })
        .boxed();
    let props = leaf.prop_recursive(3, 10, 2, move |inner| {
        let bx = Box::new;
        prop_oneof![
            1 => inner.clone().prop_map(move |p| Prop::Not(bx(p))),
            1 => (inner.clone(), inner.clone(), 0..4u8).prop_map(move |(p, q, k)| match k {
                0 => Prop::And(bx(p), bx(q)),
                1 => Prop::Or(bx(p), bx(q)),
                2 => Prop::Implies(bx(p), bx(q)),
                _ => Prop::Iff(bx(p), bx(q)),
            }),
            1 => (b.clone(), inner.clone(), proptest::option::of(inner.clone()))
                .prop_map(move |(c, p, q)| Prop::If(c, bx(p), q.map(bx))),
            3 => (s.clone(), any::<bool>(), any::<bool>(), inner.clone()).prop_map(
                move |(s, overlap, followed, p)| if followed {
                    Prop::FollowedBy { s, overlap, p: bx(p) }
                } else {
                    Prop::Implication { s, overlap, p: bx(p) }
                }
            ),
            1 => (1..=2u32, any::<bool>(), inner.clone())
                .prop_map(move |(n, strong, p)| Prop::Nexttime { n, strong, p: bx(p) }),
            1 => (range_strategy(0, n, true), 0..3u8, inner.clone()).prop_map(
                move |((lo, hi), k, p)| match k {
                    0 => Prop::Always { range: None, strong: false, p: bx(p) },
                    1 => Prop::Always { range: Some((lo, hi)), strong: false, p: bx(p) },
                    _ => Prop::Always {
                        range: Some((lo, Some(hi.unwrap_or(lo)))),
                        strong: true,
                        p: bx(p),
                    },
                }
            ),
            1 => (range_strategy(0, n, true), 0..3u8, inner.clone()).prop_map(
                move |((lo, hi), k, p)| match k {
                    0 => Prop::Eventually { range: None, strong: true, p: bx(p) },
                    1 => Prop::Eventually { range: Some((lo, hi)), strong: true, p: bx(p) },
                    _ => Prop::Eventually {
                        range: Some((lo, Some(hi.unwrap_or(lo)))),
                        strong: false,
                        p: bx(p),
                    },
                }
            ),
            1 => (any::<bool>(), any::<bool>(), inner.clone(), inner.clone()).prop_map(
                move |(strong, with, p, q)| Prop::Until { strong, with, p: bx(p), q: bx(q) }
            ),
            1 => (any::<bool>(), any::<bool>(), b.clone(), inner).prop_map(
                move |(reject, sync, b, p)| Prop::Abort {
                    kind: Abort { reject, sync },
                    b,
                    p: bx(p),
                }
            ),
        ]
    });
    let aborts = cfg.aborts;
    props
        .prop_filter("illegal SVA or unwanted abort", move |p| {
            legal(p, true) && (aborts || !uses_abort(p))
        })
        .boxed()
}

/// Lassos over `aps` propositions.
pub fn lasso_strategy(aps: u8, max_prefix: usize, max_cycle: usize) -> BoxedStrategy<Lasso<u64>> {
    let letter = 0..(1u64 << aps);
    (
        proptest::collection::vec(letter.clone(), 0..=max_prefix),
        proptest::collection::vec(letter, 1..=max_cycle),
    )
        .prop_map(|(p, c)| Lasso::new(p, c))
        .boxed()
}
