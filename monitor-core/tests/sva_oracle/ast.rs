//! The oracle's own SVA syntax tree (IEEE 1800-2017 §16), independent of
//! the crate's `formula::sva` front end: only the text syntax is shared.

/// A Boolean expression over the propositions `a`, `b`, `c`, ... (index
/// `i` is the `i`-th letter of the alphabet and bit `i` of a letter).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bool {
    /// `1'b1` or `1'b0`.
    Const(bool),
    /// A proposition.
    Ap(u8),
    /// `!b`.
    Not(Box<Bool>),
    /// `b && c`.
    And(Box<Bool>, Box<Bool>),
    /// `b || c`.
    Or(Box<Bool>, Box<Bool>),
    /// A sampled-value function of a proposition (§16.9.3).
    Sampled(Sampled, u8),
    /// An expression over the vector `v` (3 bits) and its index `i` (2
    /// bits): bits 4 to 6 and 7 to 8 of a letter.
    Vector(VecAtom),
}

/// Vector expressions (IEEE 1800-2017 §11.4.9 reductions, §20.9
/// bit-vector functions, §11.5.1 selects, §16.9.3 sampled values).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VecAtom {
    /// `&v`, `|v`, `^v`, `~&v`, `~|v`, `~^v`.
    Reduce(Red),
    OneHot,
    OneHot0,
    /// `$countones(v) op k`.
    CountOnes(Cmp, u32),
    /// `v[i]`.
    Select,
    /// `$past(v, n) op v`.
    PastCmp(u32, Cmp),
    /// `$past(v, n) op k`.
    PastConst(u32, Cmp, u32),
    Stable,
    Changed,
    Rose,
    Fell,
    /// `v` alone as a condition: true when a bit is set (§12.4).
    Truth,
    /// `(v[0] && v[1]) == i` (`!=` when true): a one-bit value compared
    /// with a wider one, zero-extended (§11.4.5, §11.8.2).
    BoolEqVec(bool),
    /// `(|v) == (i == 2)` (`!=` when true): two one-bit values.
    BoolEqBool(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Red {
    And,
    Or,
    Xor,
    Nand,
    Nor,
    Xnor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    pub fn holds(self, x: u64, y: u64) -> bool {
        match self {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
        }
    }

    pub fn text(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

impl VecAtom {
    /// The value at tick `t` of a word whose letters are `letter(j)`:
    /// integers, as the standard defines the operators (the sampled
    /// value before the first tick is 0).
    pub fn value(self, letter: impl Fn(usize) -> u64, t: usize) -> bool {
        let v = |back: u32| {
            if t >= back as usize {
                (letter(t - back as usize) >> 4) & 7
            } else {
                0
            }
        };
        let i = (letter(t) >> 7) & 3;
        let ones = v(0).count_ones();
        match self {
            VecAtom::Reduce(r) => match r {
                Red::And => v(0) == 7,
                Red::Or => v(0) != 0,
                Red::Xor => ones % 2 == 1,
                Red::Nand => v(0) != 7,
                Red::Nor => v(0) == 0,
                Red::Xnor => ones % 2 == 0,
            },
            VecAtom::OneHot => ones == 1,
            VecAtom::OneHot0 => ones <= 1,
            VecAtom::CountOnes(op, k) => op.holds(u64::from(ones), u64::from(k)),
            // Bit 3 of a 3-bit vector is x: false as a condition.
            VecAtom::Select => i < 3 && (v(0) >> i) & 1 == 1,
            VecAtom::PastCmp(n, op) => op.holds(v(n), v(0)),
            VecAtom::PastConst(n, op, k) => op.holds(v(n), u64::from(k)),
            VecAtom::Stable => v(1) == v(0),
            VecAtom::Changed => v(1) != v(0),
            VecAtom::Rose => v(0) & 1 == 1 && v(1) & 1 == 0,
            VecAtom::Fell => v(0) & 1 == 0 && v(1) & 1 == 1,
            VecAtom::Truth => v(0) != 0,
            VecAtom::BoolEqVec(ne) => (u64::from(v(0) & 3 == 3) == i) != ne,
            VecAtom::BoolEqBool(ne) => ((v(0) != 0) == (i == 2)) != ne,
        }
    }

    /// How many ticks back it reads.
    pub fn depth(self) -> u32 {
        match self {
            VecAtom::PastCmp(n, _) | VecAtom::PastConst(n, _, _) => n,
            VecAtom::Stable | VecAtom::Changed | VecAtom::Rose | VecAtom::Fell => 1,
            _ => 0,
        }
    }
}

/// The sampled-value functions, on a proposition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sampled {
    /// `$past(p, n)` (`n >= 1`; `$past(p)` when 1).
    Past(u32),
    /// `$rose(p)`.
    Rose,
    /// `$fell(p)`.
    Fell,
    /// `$stable(p)`.
    Stable,
    /// `$changed(p)`.
    Changed,
}

/// A bound: `Some(n)` or `$` (`None`).
pub type Hi = Option<u32>;

/// A sequence (§16.7, §16.9).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seq {
    /// A Boolean, one cycle.
    Bool(Bool),
    /// `lhs ##[lo:hi] rhs`, or the leading `##[lo:hi] rhs` when `lhs` is
    /// `None`; printed `##n` when `lo == hi`.
    Delay {
        lhs: Option<Box<Seq>>,
        lo: u32,
        hi: Hi,
        rhs: Box<Seq>,
    },
    /// `s[*lo:hi]` (`s[*n]` when `lo == hi`).
    Repeat { s: Box<Seq>, lo: u32, hi: Hi },
    /// `b[->lo:hi]` (`lo >= 1`).
    Goto { b: Bool, lo: u32, hi: Hi },
    /// `b[=lo:hi]`.
    NonCons { b: Bool, lo: u32, hi: Hi },
    /// `s and t`.
    And(Box<Seq>, Box<Seq>),
    /// `s or t`.
    Or(Box<Seq>, Box<Seq>),
    /// `s intersect t`.
    Intersect(Box<Seq>, Box<Seq>),
    /// `s within t`.
    Within(Box<Seq>, Box<Seq>),
    /// `b throughout s`.
    Throughout(Bool, Box<Seq>),
    /// `first_match(s)`.
    FirstMatch(Box<Seq>),
}

/// Strength of the sequence-based operators that have a weak and a strong
/// form (`nexttime`/`s_nexttime`, `until`/`s_until`, ...).
pub type Strong = bool;

/// `accept_on` or `reject_on`, asynchronous or `sync_`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Abort {
    pub reject: bool,
    pub sync: bool,
}

/// A property (§16.12).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Prop {
    /// A sequence without `strong`/`weak`: weak in `assert property`.
    Seq(Seq),
    /// `strong(s)`.
    Strong(Seq),
    /// `weak(s)`.
    Weak(Seq),
    /// `not p`.
    Not(Box<Prop>),
    /// `p and q`.
    And(Box<Prop>, Box<Prop>),
    /// `p or q`.
    Or(Box<Prop>, Box<Prop>),
    /// `p implies q`.
    Implies(Box<Prop>, Box<Prop>),
    /// `p iff q`.
    Iff(Box<Prop>, Box<Prop>),
    /// `if (b) p` and `if (b) p else q`.
    If(Bool, Box<Prop>, Option<Box<Prop>>),
    /// `s |-> p` (`overlap`) and `s |=> p`.
    Implication { s: Seq, overlap: bool, p: Box<Prop> },
    /// `s #-# p` (`overlap`) and `s #=# p`.
    FollowedBy { s: Seq, overlap: bool, p: Box<Prop> },
    /// `nexttime [n] p` / `s_nexttime [n] p` (printed without `[n]` when
    /// `n == 1`).
    Nexttime {
        n: u32,
        strong: Strong,
        p: Box<Prop>,
    },
    /// `always p`, `always [lo:hi] p`, `s_always [lo:hi] p` (`range`
    /// is `None` for the unranged form; `s_always` needs a finite `hi`).
    Always {
        range: Option<(u32, Hi)>,
        strong: Strong,
        p: Box<Prop>,
    },
    /// `eventually [lo:hi] p` (finite `hi`), `s_eventually p`,
    /// `s_eventually [lo:hi] p`.
    Eventually {
        range: Option<(u32, Hi)>,
        strong: Strong,
        p: Box<Prop>,
    },
    /// `p until q`, `p s_until q`, `p until_with q`, `p s_until_with q`.
    Until {
        strong: Strong,
        with: bool,
        p: Box<Prop>,
        q: Box<Prop>,
    },
    /// `accept_on (b) p`, `reject_on (b) p`, and their `sync_` forms.
    Abort { kind: Abort, b: Bool, p: Box<Prop> },
    /// `disable iff (b) p`: only at the top of an assertion.
    DisableIff(Bool, Box<Prop>),
}

impl Bool {
    /// The largest `$past` depth in the expression (1 for `$rose` ...).
    pub fn past_depth(&self) -> u32 {
        match self {
            Bool::Const(_) | Bool::Ap(_) => 0,
            Bool::Not(b) => b.past_depth(),
            Bool::And(x, y) | Bool::Or(x, y) => x.past_depth().max(y.past_depth()),
            Bool::Sampled(Sampled::Past(n), _) => *n,
            Bool::Sampled(_, _) => 1,
            Bool::Vector(a) => a.depth(),
        }
    }

    pub fn not(self) -> Bool {
        Bool::Not(Box::new(self))
    }
}

/// Shorthands for building trees in tests.
pub fn ap(i: u8) -> Bool {
    Bool::Ap(i)
}

pub fn b(x: Bool) -> Seq {
    Seq::Bool(x)
}

pub fn bx<T>(x: T) -> Box<T> {
    Box::new(x)
}
