//! Printers: SVA text, fully parenthesized or with the fewest parentheses
//! that IEEE 1800-2017 Table 16-3 allows, and PSL text (IEEE 1850, this
//! crate's flavour) for the fragment both languages share.
//!
//! Table 16-3, from the tightest: `[*] [=] [->]`; `##` (left);
//! `throughout` (right); `within` (left); `intersect` (left); `not`,
//! `nexttime`, `s_nexttime`; `and` (left); `or` (left); `iff` (right);
//! `until`, `s_until`, `until_with`, `s_until_with`, `implies` (right);
//! `|->`, `|=>`, `#-#`, `#=#` (right); `always`, `s_always`,
//! `eventually`, `s_eventually`, `if`-`else`, `accept_on`, `reject_on`,
//! `sync_accept_on`, `sync_reject_on` (their operand extends as far to
//! the right as possible). Boolean operators (`!`, `&&`, `||`) are
//! expression operators, tighter than all of these.
//!
//! The minimal printer still parenthesizes where the table leaves a
//! choice to the parser rather than to precedence: a prefix operator of
//! the loosest group used as an operand of a binary operator (`a and
//! (always b)`: without them `always` would take `b` and whatever follows),
//! the `then` branch of an `if`-`else` when it is itself loose (the
//! dangling `else`), and any Boolean that is not a name, a constant or a
//! call under a repetition suffix (`(a || b)[*2]`, `(!a)[->1]`), and
//! `first_match(...)` too (`(first_match(a ##1 b))[*2]`).

use super::ast::{Abort, Bool, Hi, Prop, Red, Sampled, Seq, VecAtom};

/// The name of proposition `i`: `a`, `b`, ...
pub fn ap_name(i: u8) -> String {
    ((b'a' + i) as char).to_string()
}

/// The names of the first `n` propositions.
pub fn ap_names(n: usize) -> Vec<String> {
    (0..n as u8).map(ap_name).collect()
}

// Precedence levels, tighter is higher.
const LOOSE: u8 = 3; // always, s_eventually, if, accept_on, ...
const IMPL: u8 = 4; // |-> |=> #-# #=#
const UNTIL: u8 = 5; // until ... implies
const IFF: u8 = 6;
const OR: u8 = 7;
const AND: u8 = 8;
const NOT: u8 = 9; // not, nexttime, s_nexttime
const INTERSECT: u8 = 10;
const WITHIN: u8 = 11;
const THROUGHOUT: u8 = 12;
const DELAY: u8 = 13;
const ATOM: u8 = 15;

/// How to parenthesize.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Parens {
    /// Every operand that is not atomic.
    Full,
    /// Only where Table 16-3 needs them (see the module doc).
    Minimal,
}

struct Printer {
    parens: Parens,
}

fn range(lo: u32, hi: Hi) -> String {
    match hi {
        Some(h) if h == lo => format!("{lo}"),
        Some(h) => format!("{lo}:{h}"),
        None => format!("{lo}:$"),
    }
}

/// A vector expression in SVA syntax.
fn vector(v: VecAtom) -> String {
    let past = |n: u32| {
        if n == 1 {
            "$past(v)".to_string()
        } else {
            format!("$past(v, {n})")
        }
    };
    match v {
        VecAtom::Reduce(r) => match r {
            Red::And => "&v",
            Red::Or => "|v",
            Red::Xor => "^v",
            Red::Nand => "~&v",
            Red::Nor => "~|v",
            Red::Xnor => "~^v",
        }
        .to_string(),
        VecAtom::OneHot => "$onehot(v)".into(),
        VecAtom::OneHot0 => "$onehot0(v)".into(),
        VecAtom::CountOnes(op, k) => format!("$countones(v) {} {k}", op.text()),
        VecAtom::Select => "v[i]".into(),
        VecAtom::PastCmp(n, op) => format!("{} {} v", past(n), op.text()),
        VecAtom::PastConst(n, op, k) => format!("{} {} {k}", past(n), op.text()),
        VecAtom::Stable => "$stable(v)".into(),
        VecAtom::Changed => "$changed(v)".into(),
        VecAtom::Rose => "$rose(v)".into(),
        VecAtom::Fell => "$fell(v)".into(),
        VecAtom::Truth => "v".into(),
        VecAtom::BoolEqVec(ne) => format!("(v[0] && v[1]) {} i", if ne { "!=" } else { "==" }),
        VecAtom::BoolEqBool(ne) => format!("(|v) {} (i == 2)", if ne { "!=" } else { "==" }),
    }
}

fn sampled(f: Sampled, a: u8) -> String {
    let a = ap_name(a);
    match f {
        Sampled::Past(1) => format!("$past({a})"),
        Sampled::Past(n) => format!("$past({a}, {n})"),
        Sampled::Rose => format!("$rose({a})"),
        Sampled::Fell => format!("$fell({a})"),
        Sampled::Stable => format!("$stable({a})"),
        Sampled::Changed => format!("$changed({a})"),
    }
}

/// A Boolean in SVA syntax, with its level (`ATOM` if it needs no
/// parentheses anywhere; `!` is 2, `&&` 1, `||` 0 among expressions).
fn sva_bool(b: &Bool, full: bool) -> (String, u8) {
    let wrap = |(s, l): (String, u8), min: u8| {
        if l < min || (full && l != ATOM) {
            format!("({s})")
        } else {
            s
        }
    };
    match b {
        Bool::Const(true) => ("1'b1".into(), ATOM),
        Bool::Const(false) => ("1'b0".into(), ATOM),
        Bool::Ap(a) => (ap_name(*a), ATOM),
        Bool::Sampled(f, a) => (sampled(*f, *a), ATOM),
        Bool::Vector(v) => (format!("({})", vector(*v)), ATOM),
        // `!` takes a primary (A.8.3, `unary_operator primary`): `!!a`
        // is not SystemVerilog, `!(!a)` is.
        Bool::Not(x) => (format!("!{}", wrap(sva_bool(x, full), ATOM)), 2),
        Bool::And(x, y) => (
            format!(
                "{} && {}",
                wrap(sva_bool(x, full), 1),
                wrap(sva_bool(y, full), 2)
            ),
            1,
        ),
        Bool::Or(x, y) => (
            format!(
                "{} || {}",
                wrap(sva_bool(x, full), 0),
                wrap(sva_bool(y, full), 1)
            ),
            0,
        ),
    }
}

/// A Boolean as an operand of a sequence or property operator.
fn bool_operand(b: &Bool, full: bool, under_suffix: bool) -> String {
    let (s, l) = sva_bool(b, full);
    if l == ATOM || !(full || under_suffix) {
        s
    } else {
        format!("({s})")
    }
}

impl Printer {
    fn wrap(&self, (s, l): (String, u8), min: u8) -> String {
        if l < min || (self.parens == Parens::Full && l != ATOM) {
            format!("({s})")
        } else {
            s
        }
    }

    fn full(&self) -> bool {
        self.parens == Parens::Full
    }

    fn seq(&self, s: &Seq) -> (String, u8) {
        let bin = |l: &Seq, op: &str, r: &Seq, lvl: u8, right_assoc: bool| {
            let (lm, rm) = if right_assoc {
                (lvl + 1, lvl)
            } else {
                (lvl, lvl + 1)
            };
            (
                format!(
                    "{} {op} {}",
                    self.wrap(self.seq(l), lm),
                    self.wrap(self.seq(r), rm)
                ),
                lvl,
            )
        };
        match s {
            Seq::Bool(b) => {
                let (t, l) = sva_bool(b, self.full());
                // Expression operators are tighter than every sequence
                // operator.
                (t, if l == ATOM { ATOM } else { DELAY + 1 })
            }
            Seq::Delay { lhs, lo, hi, rhs } => {
                let d = self.delay(*lo, *hi);
                let r = self.wrap(self.seq(rhs), DELAY + 1);
                match lhs {
                    None => (format!("{d} {r}"), DELAY),
                    Some(l) => (format!("{} {d} {r}", self.wrap(self.seq(l), DELAY)), DELAY),
                }
            }
            Seq::Repeat { s, lo, hi } => {
                let x = match &**s {
                    Seq::Bool(b) => bool_operand(b, self.full(), true),
                    _ => self.wrap(self.seq(s), ATOM),
                };
                let suffix = match (self.parens, lo, hi) {
                    (Parens::Minimal, 0, None) => "[*]".to_string(),
                    (Parens::Minimal, 1, None) => "[+]".to_string(),
                    _ => format!("[*{}]", range(*lo, *hi)),
                };
                (format!("{x}{suffix}"), ATOM - 1)
            }
            Seq::Goto { b, lo, hi } => (
                format!(
                    "{}[->{}]",
                    bool_operand(b, self.full(), true),
                    range(*lo, *hi)
                ),
                ATOM - 1,
            ),
            Seq::NonCons { b, lo, hi } => (
                format!(
                    "{}[={}]",
                    bool_operand(b, self.full(), true),
                    range(*lo, *hi)
                ),
                ATOM - 1,
            ),
            Seq::And(x, y) => bin(x, "and", y, AND, false),
            Seq::Or(x, y) => bin(x, "or", y, OR, false),
            Seq::Intersect(x, y) => bin(x, "intersect", y, INTERSECT, false),
            Seq::Within(x, y) => bin(x, "within", y, WITHIN, false),
            Seq::Throughout(b, x) => (
                format!(
                    "{} throughout {}",
                    bool_operand(b, self.full(), false),
                    self.wrap(self.seq(x), THROUGHOUT)
                ),
                THROUGHOUT,
            ),
            // Not an atom for the repetition suffixes: the grammar takes
            // them after a Boolean or a parenthesized sequence only.
            Seq::FirstMatch(x) => (format!("first_match({})", self.seq(x).0), ATOM - 1),
        }
    }

    fn delay(&self, lo: u32, hi: Hi) -> String {
        match (self.parens, lo, hi) {
            (Parens::Minimal, 0, None) => "##[*]".into(),
            (Parens::Minimal, 1, None) => "##[+]".into(),
            (_, lo, Some(h)) if h == lo => format!("##{lo}"),
            _ => format!("##[{}]", range(lo, hi)),
        }
    }

    fn prop(&self, p: &Prop) -> (String, u8) {
        let bin = |l: &Prop, op: &str, r: &Prop, lvl: u8, right_assoc: bool| {
            let (lm, rm) = if right_assoc {
                (lvl + 1, lvl)
            } else {
                (lvl, lvl + 1)
            };
            (
                format!(
                    "{} {op} {}",
                    self.wrap(self.prop(l), lm),
                    self.wrap(self.prop(r), rm)
                ),
                lvl,
            )
        };
        // A prefix operator: its operand at `min` (for `not` and
        // `nexttime` the operand binds at their own level; for the loose
        // group anything goes).
        let prefix = |head: String, x: &Prop, lvl: u8| {
            (format!("{head} {}", self.wrap(self.prop(x), lvl)), lvl)
        };
        match p {
            Prop::Seq(s) => self.seq(s),
            Prop::Strong(s) => (format!("strong({})", self.seq(s).0), ATOM),
            Prop::Weak(s) => (format!("weak({})", self.seq(s).0), ATOM),
            Prop::Not(x) => prefix("not".into(), x, NOT),
            Prop::And(x, y) => bin(x, "and", y, AND, false),
            Prop::Or(x, y) => bin(x, "or", y, OR, false),
            Prop::Implies(x, y) => bin(x, "implies", y, UNTIL, true),
            Prop::Iff(x, y) => bin(x, "iff", y, IFF, true),
            Prop::Until { strong, with, p, q } => {
                let op = match (strong, with) {
                    (false, false) => "until",
                    (true, false) => "s_until",
                    (false, true) => "until_with",
                    (true, true) => "s_until_with",
                };
                bin(p, op, q, UNTIL, true)
            }
            Prop::If(b, x, y) => {
                let head = format!("if ({})", sva_bool(b, self.full()).0);
                match y {
                    None => prefix(head, x, LOOSE),
                    Some(y) => (
                        format!(
                            "{head} {} else {}",
                            self.wrap(self.prop(x), IMPL),
                            self.wrap(self.prop(y), LOOSE)
                        ),
                        LOOSE,
                    ),
                }
            }
            Prop::Implication { s, overlap, p } => {
                let op = if *overlap { "|->" } else { "|=>" };
                (
                    format!(
                        "{} {op} {}",
                        self.wrap(self.seq(s), IMPL + 1),
                        self.wrap(self.prop(p), IMPL)
                    ),
                    IMPL,
                )
            }
            Prop::FollowedBy { s, overlap, p } => {
                let op = if *overlap { "#-#" } else { "#=#" };
                (
                    format!(
                        "{} {op} {}",
                        self.wrap(self.seq(s), IMPL + 1),
                        self.wrap(self.prop(p), IMPL)
                    ),
                    IMPL,
                )
            }
            Prop::Nexttime { n, strong, p } => {
                let kw = if *strong { "s_nexttime" } else { "nexttime" };
                let head = if *n == 1 {
                    kw.to_string()
                } else {
                    format!("{kw} [{n}]")
                };
                prefix(head, p, NOT)
            }
            Prop::Always {
                range: r,
                strong,
                p,
            } => {
                let kw = if *strong { "s_always" } else { "always" };
                let head = match r {
                    None => kw.to_string(),
                    Some((lo, hi)) => format!("{kw} [{}]", range_always(*lo, *hi)),
                };
                prefix(head, p, LOOSE)
            }
            Prop::Eventually {
                range: r,
                strong,
                p,
            } => {
                let kw = if *strong {
                    "s_eventually"
                } else {
                    "eventually"
                };
                let head = match r {
                    None => kw.to_string(),
                    Some((lo, hi)) => format!("{kw} [{}]", range_always(*lo, *hi)),
                };
                prefix(head, p, LOOSE)
            }
            Prop::Abort { kind, b, p } => {
                let Abort { reject, sync } = *kind;
                let kw = match (reject, sync) {
                    (false, false) => "accept_on",
                    (true, false) => "reject_on",
                    (false, true) => "sync_accept_on",
                    (true, true) => "sync_reject_on",
                };
                prefix(format!("{kw} ({})", sva_bool(b, self.full()).0), p, LOOSE)
            }
            Prop::DisableIff(b, p) => prefix(
                format!("disable iff ({})", sva_bool(b, self.full()).0),
                p,
                LOOSE,
            ),
        }
    }
}

/// Ranges of `always`/`eventually` are always written as `m:n`.
fn range_always(lo: u32, hi: Hi) -> String {
    match hi {
        Some(h) => format!("{lo}:{h}"),
        None => format!("{lo}:$"),
    }
}

/// SVA text of a property.
pub fn sva(p: &Prop, parens: Parens) -> String {
    Printer { parens }.prop(p).0
}

/// SVA text of a sequence.
pub fn sva_seq(s: &Seq, parens: Parens) -> String {
    Printer { parens }.seq(s).0
}

/// PSL text of a Boolean, always either a name, a constant, a call or one
/// parenthesized implication: inside braces the crate's PSL parser reads
/// `||`, `&&` and `!(...)` as SERE operators (a union of letters is not a
/// letter for `[->`), so `!x` is written `(x -> false)`, `x && y` as
/// `((x -> (y -> false)) -> false)` and `x || y` as `((x -> false) -> y)`;
/// `$stable(p)` is `(p <-> prev(p))`, `$past(p, n)` `n` nested `prev`.
fn psl_bool(b: &Bool) -> String {
    let not = |x: String| format!("({x} -> false)");
    match b {
        Bool::Const(true) => "true".into(),
        Bool::Const(false) => "false".into(),
        Bool::Ap(a) => ap_name(*a),
        Bool::Not(x) => not(psl_bool(x)),
        Bool::And(x, y) => not(format!("({} -> {})", psl_bool(x), not(psl_bool(y)))),
        Bool::Or(x, y) => format!("({} -> {})", not(psl_bool(x)), psl_bool(y)),
        Bool::Sampled(f, a) => {
            let a = ap_name(*a);
            match f {
                Sampled::Past(n) => {
                    let mut s = a;
                    for _ in 0..*n {
                        s = format!("prev({s})");
                    }
                    s
                }
                Sampled::Rose => format!("rose({a})"),
                Sampled::Fell => format!("fell({a})"),
                Sampled::Stable => format!("({a} <-> prev({a}))"),
                Sampled::Changed => not(format!("({a} <-> prev({a}))")),
            }
        }
        Bool::Vector(_) => unreachable!("vectors are SVA's only (GenConfig::vectors)"),
    }
}

fn psl_bool_operand(b: &Bool) -> String {
    psl_bool(b)
}

fn psl_range(lo: u32, hi: Hi) -> String {
    match hi {
        Some(h) if h == lo => format!("{lo}"),
        Some(h) => format!("{lo}:{h}"),
        None => format!("{lo}:inf"),
    }
}

/// PSL SERE text (inside braces) of a sequence; `None` outside the shared
/// fragment (`first_match`).
pub fn psl_sere(s: &Seq) -> Option<String> {
    let br = |s: &Seq| psl_sere(s).map(|x| format!("{{{x}}}"));
    Some(match s {
        Seq::Bool(b) => psl_bool(b),
        Seq::Delay { lhs, lo, hi, rhs } => {
            let r = br(rhs)?;
            // `##[lo:hi]` is `lo - 1 .. hi - 1` letters of `true` between
            // the two ends, `##0` the fusion `:`.
            let gap = |lo: u32, hi: Hi| format!("true[*{}]", psl_range(lo, hi));
            match lhs {
                None => format!("{} ; {r}", gap(*lo, *hi)),
                Some(l) => {
                    let l = br(l)?;
                    let hi1 = hi.map(|h| h.saturating_sub(1));
                    if *lo >= 1 {
                        format!("{l} ; {} ; {r}", gap(lo - 1, hi1))
                    } else if *hi == Some(0) {
                        format!("{l} : {r}")
                    } else {
                        format!("{{{l} : {r}}} | {{{l} ; {} ; {r}}}", gap(0, hi1))
                    }
                }
            }
        }
        Seq::Repeat { s, lo, hi } => format!("{}[*{}]", br(s)?, psl_range(*lo, *hi)),
        Seq::Goto { b, lo, hi } => format!("{}[->{}]", psl_bool_operand(b), psl_range(*lo, *hi)),
        Seq::NonCons { b, lo, hi } => format!("{}[={}]", psl_bool_operand(b), psl_range(*lo, *hi)),
        Seq::And(x, y) => format!("{} & {}", br(x)?, br(y)?),
        Seq::Or(x, y) => format!("{} | {}", br(x)?, br(y)?),
        Seq::Intersect(x, y) => format!("{} && {}", br(x)?, br(y)?),
        Seq::Within(x, y) => format!("{} within {}", br(x)?, br(y)?),
        Seq::Throughout(b, x) => format!("{{{}[*]}} && {}", psl_bool_operand(b), br(x)?),
        Seq::FirstMatch(_) => return None,
    })
}

/// PSL text of a property (fully parenthesized), `None` outside the
/// shared fragment. The translation is the standards' correspondence:
/// `weak(r)` is `{r}`, `strong(r)` is `{r}!`, `accept_on` is `abort`,
/// `s_until` is `until!`, `until_with` is `until_`, bounded `always` and
/// `eventually` are `next_a` and `next_e`.
pub fn psl(p: &Prop) -> Option<String> {
    let g = |x: &Prop| psl(x).map(|s| format!("({s})"));
    Some(match p {
        Prop::Seq(s) | Prop::Weak(s) => format!("{{{}}}", psl_sere(s)?),
        Prop::Strong(s) => format!("{{{}}}!", psl_sere(s)?),
        Prop::Not(x) => format!("!{}", g(x)?),
        Prop::And(x, y) => format!("{} && {}", g(x)?, g(y)?),
        Prop::Or(x, y) => format!("{} || {}", g(x)?, g(y)?),
        Prop::Implies(x, y) => format!("{} -> {}", g(x)?, g(y)?),
        Prop::Iff(x, y) => format!("{} <-> {}", g(x)?, g(y)?),
        Prop::If(b, x, None) => format!("{{{}}} |-> {}", psl_bool(b), g(x)?),
        Prop::If(b, x, Some(y)) => format!(
            "({{{}}} |-> {}) && ({{{}}} |-> {})",
            psl_bool(b),
            g(x)?,
            psl_bool(&b.clone().not()),
            g(y)?
        ),
        Prop::Implication { s, overlap, p } => format!(
            "{{{}}} {} {}",
            psl_sere(s)?,
            if *overlap { "|->" } else { "|=>" },
            g(p)?
        ),
        Prop::FollowedBy { s, overlap, p } => format!(
            "!({{{}}} {} !{})",
            psl_sere(s)?,
            if *overlap { "|->" } else { "|=>" },
            g(p)?
        ),
        Prop::Nexttime { n, p, .. } => format!("next[{n}] {}", g(p)?),
        Prop::Always { range, p, .. } => match range {
            None => format!("always {}", g(p)?),
            Some((lo, Some(hi))) => format!("next_a[{lo}:{hi}] {}", g(p)?),
            Some((0, None)) => format!("always {}", g(p)?),
            Some((lo, None)) => format!("next[{lo}] (always {})", g(p)?),
        },
        Prop::Eventually { range, p, .. } => match range {
            None => format!("eventually! {}", g(p)?),
            Some((lo, Some(hi))) => format!("next_e[{lo}:{hi}] {}", g(p)?),
            Some((0, None)) => format!("eventually! {}", g(p)?),
            Some((lo, None)) => format!("next[{lo}] (eventually! {})", g(p)?),
        },
        Prop::Until { strong, with, p, q } => {
            let op = match (strong, with) {
                (false, false) => "until",
                (true, false) => "until!",
                (false, true) => "until_",
                (true, true) => "until!_",
            };
            format!("{} {op} {}", g(p)?, g(q)?)
        }
        Prop::Abort { kind, b, p } => {
            if kind.reject {
                format!("!((!{}) async_abort {})", g(p)?, psl_bool_operand(b))
            } else {
                format!("{} async_abort {}", g(p)?, psl_bool_operand(b))
            }
        }
        Prop::DisableIff(b, p) => format!("{} async_abort {}", g(p)?, psl_bool_operand(b)),
    })
}
