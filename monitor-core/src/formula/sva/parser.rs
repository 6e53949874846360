//! The SVA parser: declarations, the property and sequence operators of
//! IEEE 1800-2017 §16 by their precedence (Table 16-3), Boolean
//! expressions and the sampled-value functions, lowered to the formula
//! core as they are read (the mapping is in the [module
//! documentation](super)).

use std::collections::HashMap;

use crate::formula::cursor::{Cursor, Span};
use crate::formula::parse::{ParseError, ParseErrorKind, MAX_BOUND};
use crate::formula::psl::{Token, T};
use crate::formula::vunit::{Clock, ClockEdge};
use crate::formula::Formula;

use super::Signals;

mod vector;

/// The largest number of tokens the instances of named sequences,
/// properties and `let`s may expand to, all together.
pub(super) const MAX_EXPANSION: usize = 100_000;

/// The most bits `$onehot`, `$onehot0` and `$countones` count (their
/// formulas grow with the bits times the count).
const MAX_BITS: usize = 256;

/// The most bits of a vector a sampled-value function reads (`$past(v)`,
/// `$stable(v)`): a monitor remembers each one, and its states grow as
/// two to the number of bits.
const MAX_PAST_BITS: usize = 64;

/// A vector value bit by bit, least significant first: each bit a
/// Boolean formula (of the current tick, or of past ones: `$past(v)`).
#[derive(Clone, Debug)]
struct Vector {
    bits: Vec<Formula>,
    signed: bool,
    /// A fill literal (`'0`, `'1`, IEEE 1800-2017 §5.7.1): as wide as
    /// the other operand.
    fill: Option<bool>,
}

impl Vector {
    fn of(bits: Vec<Formula>, signed: bool) -> Vector {
        Vector {
            bits,
            signed,
            fill: None,
        }
    }

    /// A constant `value` of `width` bits.
    fn constant(value: u64, width: usize, signed: bool) -> Vector {
        let bits = (0..width)
            .map(|i| Formula::constant(i < 64 && (value >> i) & 1 == 1))
            .collect();
        Vector::of(bits, signed)
    }

    /// The value in a Boolean context: nonzero (IEEE 1800-2017 §12.4).
    fn nonzero(&self) -> Formula {
        match self.fill {
            Some(b) => Formula::constant(b),
            None => Formula::or(self.bits.clone()),
        }
    }

    /// The bits extended to `w` (sign-extended when `signed`).
    fn extended(&self, w: usize, signed: bool) -> Vec<Formula> {
        if let Some(b) = self.fill {
            return vec![Formula::constant(b); w];
        }
        let pad = match self.bits.last() {
            Some(msb) if signed => msb.clone(),
            _ => Formula::ff(),
        };
        let mut bits = self.bits.clone();
        bits.resize(w.max(bits.len()), pad);
        bits
    }
}

/// `a op b` on vectors (IEEE 1800-2017 §11.4.4, §11.4.5: the narrower
/// operand extended to the wider, signed only when both are; `===` is
/// `==` on the two-valued bits read here).
fn compare_vectors(a: &Vector, op: &str, b: &Vector) -> Formula {
    let signed = a.signed && b.signed && a.fill.is_none() && b.fill.is_none();
    let w = a.bits.len().max(b.bits.len()).max(1);
    let mut x = a.extended(w, signed);
    let mut y = b.extended(w, signed);
    let equal = || Formula::and(x.iter().zip(&y).map(|(p, q)| iff(p.clone(), q.clone())));
    match op {
        "==" | "===" => return equal(),
        "!=" | "!==" => return Formula::not(equal()),
        _ => {}
    }
    if signed {
        // Two's complement orders as unsigned with the sign bit flipped.
        x[w - 1] = Formula::not(x[w - 1].clone());
        y[w - 1] = Formula::not(y[w - 1].clone());
    }
    // p < q: at the most significant bit where they differ, p has 0.
    let less = |p: &[Formula], q: &[Formula]| {
        let mut terms = Vec::new();
        let mut same_above: Vec<Formula> = Vec::new();
        for i in (0..w).rev() {
            let mut t = same_above.clone();
            t.push(Formula::not(p[i].clone()));
            t.push(q[i].clone());
            terms.push(Formula::and(t));
            same_above.push(iff(p[i].clone(), q[i].clone()));
        }
        Formula::or(terms)
    };
    match op {
        "<" => less(&x, &y),
        ">" => less(&y, &x),
        "<=" => Formula::not(less(&y, &x)),
        _ => Formula::not(less(&x, &y)),
    }
}

/// Whether `x op n` of a `w`-bit `x` (signed or not) may be decided by the
/// width alone: `n` past the largest value, or, for an ordering, at either
/// end of the range.
fn at_the_ends(op: &str, n: u64, w: usize, signed: bool) -> bool {
    let bits = if signed { w.saturating_sub(1) } else { w };
    let max = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let ordering = matches!(op, "<" | "<=" | ">" | ">=");
    n > max || (ordering && (n == max || (n == 0 && !signed)))
}

/// `a ^ b`, with constants folded (the bits of constants and of extended
/// operands are constants).
fn xor(a: Formula, b: Formula) -> Formula {
    use crate::formula::Op;
    match (a.op(), b.op()) {
        (Op::False, _) => b,
        (_, Op::False) => a,
        (Op::True, _) => Formula::not(b),
        (_, Op::True) => Formula::not(a),
        _ if a == b => Formula::ff(),
        _ => Formula::xor(a, b),
    }
}

/// `a <-> b`, with constants folded.
fn iff(a: Formula, b: Formula) -> Formula {
    use crate::formula::Op;
    match (a.op(), b.op()) {
        (Op::True, _) => b,
        (_, Op::True) => a,
        (Op::False, _) => Formula::not(b),
        (_, Op::False) => Formula::not(a),
        _ if a == b => Formula::tt(),
        _ => Formula::equiv(a, b),
    }
}

/// `$rose(v)`, `$fell(v)` (of the least significant bit, §16.9.3),
/// `$stable(v)` or `$changed(v)` (of every bit).
fn sampled_change(f: &str, v: &Vector) -> Formula {
    let lsb = v.bits.first().cloned().unwrap_or_else(Formula::ff);
    let stable = || {
        Formula::and(
            v.bits
                .iter()
                .map(|b| Formula::equiv(b.clone(), Formula::yesterday(b.clone()))),
        )
    };
    match f {
        "$rose" => Formula::and([lsb.clone(), Formula::not(Formula::yesterday(lsb))]),
        "$fell" => Formula::and([Formula::not(lsb.clone()), Formula::yesterday(lsb)]),
        "$stable" => stable(),
        _ => Formula::not(stable()),
    }
}

/// `$past(v, n)`: each bit `n` ticks before (0 before the first tick,
/// §16.9.3, as `Y` is false there).
fn past(v: Vector, n: u32) -> Vector {
    Vector {
        bits: v
            .bits
            .into_iter()
            .map(|b| (0..n).fold(b, |g, _| Formula::yesterday(g)))
            .collect(),
        ..v
    }
}

/// An unsized decimal number: signed, 32 bits wide (§5.7.1), or as wide
/// as its value needs with a 0 above.
fn number_vector(n: u64) -> Vector {
    let len = (64 - n.leading_zeros()) as usize;
    Vector::constant(n, (len + 1).max(32), true)
}

/// A based literal: as wide as written, or 32 bits (or its value's
/// width) when unsized (§5.7.1).
fn literal_vector(l: &crate::formula::atom::Literal) -> Vector {
    let len = (64 - l.value.leading_zeros()).max(1) as usize;
    let w = l.width.map_or(len.max(32), |w| w as usize);
    Vector::constant(l.value, w, l.signed)
}

/// What an operand is: the operators that apply, and how it becomes a
/// property, depend on it.
#[derive(Clone)]
pub(super) enum Node {
    /// A Boolean expression (no temporal operator; sampled-value
    /// functions are past operators).
    Bool(Formula),
    /// A sequence, as a SERE of the core.
    Seq(Formula),
    /// A property.
    Prop(Formula),
}

/// A named sequence, property or `let`.
#[derive(Clone, Debug)]
pub(super) struct Decl {
    pub(super) kind: DeclKind,
    pub(super) formals: Vec<Formal>,
    pub(super) body: Vec<Token>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DeclKind {
    Sequence,
    Property,
    Let,
}

impl DeclKind {
    fn word(self) -> &'static str {
        match self {
            DeclKind::Sequence => "sequence",
            DeclKind::Property => "property",
            DeclKind::Let => "let",
        }
    }
}

/// A formal argument and its default actual argument.
#[derive(Clone, Debug)]
pub(super) struct Formal {
    pub(super) name: String,
    pub(super) default: Option<Vec<Token>>,
}

/// Words that are operators or keywords, never signals.
const KEYWORDS: &[&str] = &[
    "not",
    "and",
    "or",
    "intersect",
    "within",
    "throughout",
    "first_match",
    "strong",
    "weak",
    "nexttime",
    "s_nexttime",
    "always",
    "s_always",
    "eventually",
    "s_eventually",
    "until",
    "s_until",
    "until_with",
    "s_until_with",
    "implies",
    "iff",
    "if",
    "else",
    "case",
    "endcase",
    "default",
    "accept_on",
    "reject_on",
    "sync_accept_on",
    "sync_reject_on",
    "disable",
    "posedge",
    "negedge",
    "edge",
    "sequence",
    "endsequence",
    "property",
    "endproperty",
    "let",
    "assert",
    "assume",
    "cover",
    "restrict",
    "expect",
    "clocking",
    "endclocking",
    "local",
    "dist",
    "inside",
    "matches",
];

/// Local-variable types, which start a declaration in a sequence or a
/// property (§16.10).
const VARIABLE_TYPES: &[&str] = &[
    "int", "integer", "bit", "logic", "reg", "byte", "shortint", "longint", "var", "local",
    "string", "real", "time",
];

fn quote(text: &str) -> String {
    match text.split_once(['\n', '\r']) {
        Some((line, _)) => format!("`{line}...`"),
        None => format!("`{text}`"),
    }
}

pub(super) struct Parser<'a> {
    pub(super) cur: Cursor<'a, T>,
    /// Inside `$isunknown(...)`: a vector is read as itself (its x and z
    /// bits), not as the condition that a bit is set.
    vectors_as_signals: bool,
    /// How many declared vectors were read as conditions (`v` as
    /// `v != 0`): an operand read while it grew is a vector's value
    /// when it is that condition alone (see [`Parser::bare_vector`]).
    widened: usize,
    /// Directives (`parse_sva_directive`): clocks and `disable iff` are
    /// read; otherwise they are errors.
    directive: bool,
    pub(super) decls: HashMap<String, Decl>,
    /// The names being expanded, innermost last.
    expanding: Vec<String>,
    /// Tokens spliced by expansions so far.
    expanded: usize,
    /// Whether anything but parentheses, clocks and `disable iff` has
    /// been read in the current property: a clock before that is its
    /// leading clock.
    started: bool,
    /// The leading clock of the property, and where it is.
    pub(super) clock: Option<(Clock, Span)>,
    /// The clock of `default clocking`.
    pub(super) default_clock: Option<(Clock, Span)>,
    /// Clocks written inside the property.
    inner_clocks: Vec<(Clock, Span)>,
    /// `disable iff (b)`, and where it is.
    pub(super) disable: Option<(Formula, Span)>,
    /// The condition of `default disable iff`.
    pub(super) default_disable: Option<Formula>,
    /// The next primary is the operand of `!` or `~`, which bind tighter
    /// than a comparison: a signal there does not take the comparison
    /// after it (`!a == 1` is `(!a) == 1`).
    tight: bool,
    /// The declared signals, whose widths vector expressions need.
    signals: &'a Signals,
    /// What [`Parser::vector_expression_ahead`] found and spent.
    scan: vector::Scan,
}

impl<'a> Parser<'a> {
    pub(super) fn new(
        input: &'a str,
        tokens: Vec<Token>,
        directive: bool,
        signals: &'a Signals,
    ) -> Parser<'a> {
        Parser {
            vectors_as_signals: false,
            widened: 0,
            cur: Cursor::new(input, tokens),
            directive,
            decls: HashMap::new(),
            expanding: Vec::new(),
            expanded: 0,
            started: false,
            clock: None,
            default_clock: None,
            inner_clocks: Vec::new(),
            disable: None,
            default_disable: None,
            tight: false,
            signals,
            scan: vector::Scan::default(),
        }
    }

    // ---- tokens and errors ------------------------------------------

    pub(super) fn is_sym(&self, s: &str) -> bool {
        matches!(self.cur.peek().kind, T::Sym(x) if x == s)
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(&self.cur.peek().kind, T::Word(x) if x == w)
    }

    pub(super) fn unexpected(&self, t: &Token, expected: &'static str) -> ParseError {
        let found = match &t.kind {
            T::End if t.span.start == t.span.end => "the end of the property".to_string(),
            T::End => format!(
                "the end of {}",
                quote(&self.cur.input[t.span.start..t.span.end])
            ),
            _ => quote(&self.cur.input[t.span.start..t.span.end]),
        };
        self.cur
            .error(t.span, ParseErrorKind::Unexpected { expected, found })
    }

    pub(super) fn unsupported(&self, span: Span, msg: impl Into<String>) -> ParseError {
        self.cur
            .error(span, ParseErrorKind::Unsupported(msg.into()))
    }

    pub(super) fn expect_sym(
        &mut self,
        s: &'static str,
        expected: &'static str,
    ) -> Result<Token, ParseError> {
        if self.is_sym(s) {
            Ok(self.cur.next())
        } else {
            let t = self.cur.peek().clone();
            Err(self.unexpected(&t, expected))
        }
    }

    fn span_from(&self, start: Span) -> Span {
        Span {
            start: start.start,
            end: self.cur.last_span().end.max(start.start),
        }
    }

    // ---- kinds ------------------------------------------------------

    /// `node` where a property is expected: a sequence is weak (§16.12.2:
    /// in `assert` and `assume` a sequence without `strong` is weak), and
    /// must not admit an empty match.
    pub(super) fn to_prop(&self, node: Node, span: Span) -> Result<Formula, ParseError> {
        match node {
            Node::Bool(b) => Ok(b),
            Node::Prop(p) => Ok(p),
            // A sequence of one letter is that letter.
            Node::Seq(r) if !r.has_future() => Ok(r),
            Node::Seq(r) => {
                self.no_empty_match(&r, span)?;
                Ok(Formula::closure(r))
            }
        }
    }

    fn no_empty_match(&self, r: &Formula, span: Span) -> Result<(), ParseError> {
        if r.accepts_empty_word() {
            return Err(self.unsupported(
                span,
                "a sequence used as a property must not admit an empty match (IEEE 1800-2017 \
                 §16.12.2)",
            ));
        }
        Ok(())
    }

    /// `node` where a sequence is expected (`what` names the operator).
    fn to_seq(&self, node: Node, span: Span, what: &str) -> Result<Formula, ParseError> {
        match node {
            Node::Bool(b) => Ok(b),
            Node::Seq(r) => Ok(r),
            Node::Prop(_) => Err(self.unsupported(
                span,
                format!("{what} takes sequences; this operand is a property"),
            )),
        }
    }

    /// `node` where a Boolean is expected (`what` names the operator).
    fn to_bool(&self, node: Node, span: Span, what: &str) -> Result<Formula, ParseError> {
        match node {
            Node::Bool(b) => Ok(b),
            Node::Seq(_) => Err(self.unsupported(
                span,
                format!("{what} takes Boolean expressions; this operand is a sequence"),
            )),
            Node::Prop(_) => Err(self.unsupported(
                span,
                format!("{what} takes Boolean expressions; this operand is a property"),
            )),
        }
    }

    // ---- properties (loosest first) ---------------------------------

    /// A property or sequence expression.
    pub(super) fn property(&mut self) -> Result<Node, ParseError> {
        self.implication()
    }

    /// `|->`, `|=>`, `#-#`, `#=#`, right associative.
    fn implication(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let lhs = self.until_level()?;
        let op = match self.cur.peek().kind {
            T::Sym(s @ ("|->" | "|=>" | "#-#" | "#=#")) => s,
            _ => return Ok(lhs),
        };
        let t = self.cur.next();
        let r = self.antecedent(lhs, self.span_from(start), op)?;
        self.cur.enter(t.span)?;
        let rhs_start = self.cur.peek().span;
        let rhs = self.implication();
        self.cur.leave();
        let rhs = self.to_prop(rhs?, self.span_from(rhs_start))?;
        let next = op == "|=>" || op == "#=#";
        if !r.has_future() {
            // A Boolean antecedent matches at the first letter only.
            let rhs = if next { Formula::next(rhs) } else { rhs };
            return Ok(Node::Prop(if op.starts_with('|') {
                Formula::implies(r, rhs)
            } else {
                Formula::and([r, rhs])
            }));
        }
        let r = if next {
            Formula::concat([r, Formula::tt()])
        } else {
            r
        };
        Ok(Node::Prop(if op.starts_with('|') {
            Formula::uconcat(r, rhs)
        } else {
            Formula::econcat(r, rhs)
        }))
    }

    /// The left side of `|->` and its kin: a sequence, whose every match
    /// counts.
    fn antecedent(&self, node: Node, span: Span, op: &str) -> Result<Formula, ParseError> {
        match node {
            Node::Prop(_) => Err(self.unsupported(
                span,
                format!("the left side of `{op}` must be a sequence, not a property"),
            )),
            other => self.to_seq(other, span, &format!("`{op}`")),
        }
    }

    /// `until`, `s_until`, `until_with`, `s_until_with`, `implies`, right
    /// associative.
    fn until_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let lhs = self.iff_level()?;
        let kw = match &self.cur.peek().kind {
            T::Word(w)
                if matches!(
                    w.as_str(),
                    "until" | "s_until" | "until_with" | "s_until_with" | "implies"
                ) =>
            {
                w.clone()
            }
            _ => return Ok(lhs),
        };
        let lhs = self.to_prop(lhs, self.span_from(start))?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let rhs_start = self.cur.peek().span;
        let rhs = self.until_level();
        self.cur.leave();
        let rhs = self.to_prop(rhs?, self.span_from(rhs_start))?;
        Ok(Node::Prop(match kw.as_str() {
            "until" => Formula::weak_until(lhs, rhs),
            "s_until" => Formula::until(lhs, rhs),
            "until_with" => Formula::weak_until(lhs.clone(), Formula::and([lhs, rhs])),
            "s_until_with" => Formula::until(lhs.clone(), Formula::and([lhs, rhs])),
            _ => Formula::implies(lhs, rhs),
        }))
    }

    /// `iff`, right associative.
    fn iff_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let lhs = self.or_level()?;
        if !self.is_word("iff") {
            return Ok(lhs);
        }
        let lhs = self.to_prop(lhs, self.span_from(start))?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let rhs_start = self.cur.peek().span;
        let rhs = self.iff_level();
        self.cur.leave();
        let rhs = self.to_prop(rhs?, self.span_from(rhs_start))?;
        Ok(Node::Prop(Formula::equiv(lhs, rhs)))
    }

    /// `or`: of sequences, a sequence; otherwise a property.
    fn or_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let first = self.and_level()?;
        if !self.is_word("or") {
            return Ok(first);
        }
        // Left associative (Table 16-3): `s1 or s2 or p` is `(s1 or s2) or
        // p`, a sequence `or` under a property `or`.
        let mut acc = first;
        while self.is_word("or") {
            let lhs_span = self.span_from(start);
            self.cur.next();
            let s = self.cur.peek().span;
            let n = self.and_level()?;
            let rhs_span = self.span_from(s);
            acc = match (acc, n) {
                (a, b) if !matches!(a, Node::Prop(_)) && !matches!(b, Node::Prop(_)) => {
                    let r = |n: Node| match n {
                        Node::Bool(b) => b,
                        Node::Seq(r) => r,
                        Node::Prop(_) => unreachable!("checked"),
                    };
                    Node::Seq(Formula::sere_or([r(a), r(b)]))
                }
                (a, b) => Node::Prop(Formula::or([
                    self.to_prop(a, lhs_span)?,
                    self.to_prop(b, rhs_span)?,
                ])),
            };
        }
        Ok(acc)
    }

    /// `and`: of sequences, the sequence that matches where both match
    /// (ending at the later match); otherwise a property.
    fn and_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let first = self.unary_property()?;
        if !self.is_word("and") {
            return Ok(first);
        }
        // Left associative (Table 16-3): `s1 and s2 and p` is `(s1 and s2)
        // and p`, a sequence `and` under a property `and`.
        let mut acc = first;
        while self.is_word("and") {
            let lhs_span = self.span_from(start);
            self.cur.next();
            let s = self.cur.peek().span;
            let n = self.unary_property()?;
            let rhs_span = self.span_from(s);
            acc = if !matches!(acc, Node::Prop(_)) && !matches!(n, Node::Prop(_)) {
                let r = self.to_seq(acc, lhs_span, "sequence `and`")?;
                let t = self.to_seq(n, rhs_span, "sequence `and`")?;
                Node::Seq(Formula::sere_and_nlm(r, t))
            } else {
                Node::Prop(Formula::and([
                    self.to_prop(acc, lhs_span)?,
                    self.to_prop(n, rhs_span)?,
                ]))
            };
        }
        Ok(acc)
    }

    /// `not`, `nexttime`, `s_nexttime` (tighter than `and`, looser than
    /// `intersect`).
    fn unary_property(&mut self) -> Result<Node, ParseError> {
        let kw = match &self.cur.peek().kind {
            T::Word(w) if matches!(w.as_str(), "not" | "nexttime" | "s_nexttime") => w.clone(),
            _ => return self.intersect_level(),
        };
        let t = self.cur.next();
        self.started = true;
        let n = if kw != "not" && self.is_sym("[") {
            self.cur.next();
            let n = self.number()?;
            self.expect_sym("]", "`]`")?;
            n
        } else {
            1
        };
        self.cur.enter(t.span)?;
        let start = self.cur.peek().span;
        let operand = self.unary_property();
        self.cur.leave();
        let p = self.to_prop(operand?, self.span_from(start))?;
        Ok(Node::Prop(if kw == "not" {
            Formula::not(p)
        } else {
            // Weak and strong agree on infinite words.
            Formula::next_n(p, n as usize)
        }))
    }

    /// `intersect`, left associative: both match, with the same length.
    fn intersect_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let mut lhs = self.within_level()?;
        while self.is_word("intersect") {
            let a = self.to_seq(lhs, self.span_from(start), "`intersect`")?;
            self.cur.next();
            let s = self.cur.peek().span;
            let rhs = self.within_level()?;
            let b = self.to_seq(rhs, self.span_from(s), "`intersect`")?;
            lhs = Node::Seq(Formula::sere_and([a, b]));
        }
        Ok(lhs)
    }

    /// `within`, left associative: `r within s` matches where `s` does,
    /// with a match of `r` inside.
    fn within_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let mut lhs = self.throughout_level()?;
        while self.is_word("within") {
            let a = self.to_seq(lhs, self.span_from(start), "`within`")?;
            self.cur.next();
            let s = self.cur.peek().span;
            let rhs = self.throughout_level()?;
            let b = self.to_seq(rhs, self.span_from(s), "`within`")?;
            let any = Formula::star(Formula::tt(), 0, None);
            lhs = Node::Seq(Formula::sere_and([
                Formula::concat([any.clone(), a, any]),
                b,
            ]));
        }
        Ok(lhs)
    }

    /// `b throughout r`, right associative: `b[*0:$] intersect r`.
    fn throughout_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let lhs = self.delay_level()?;
        if !self.is_word("throughout") {
            return Ok(lhs);
        }
        let b = self.to_bool(lhs, self.span_from(start), "the left side of `throughout`")?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let s = self.cur.peek().span;
        let rhs = self.throughout_level();
        self.cur.leave();
        let r = self.to_seq(rhs?, self.span_from(s), "`throughout`")?;
        Ok(Node::Seq(Formula::sere_and([Formula::star(b, 0, None), r])))
    }

    /// Cycle delays `##`, left associative, and a leading `##` (`##n r`
    /// is `1 ##n r`).
    fn delay_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let mut lhs = if self.is_sym("##") {
            Node::Bool(Formula::tt())
        } else {
            self.repeat_level()?
        };
        let mut levels = 0;
        while self.is_sym("##") {
            let t = self.cur.next();
            self.started = true;
            let (lo, hi) = self.delay_range(t.span)?;
            let a = self.to_seq(lhs, self.span_from(start), "`##`")?;
            // Each delay nests the left side one level deeper.
            self.cur.enter(t.span)?;
            levels += 1;
            let s = self.cur.peek().span;
            // `##1 ##1 a` is `##1 (##1 a)` (a sequence may start with a
            // delay).
            let rhs = if self.is_sym("##") {
                self.delay_level()?
            } else {
                self.repeat_level()?
            };
            let b = self.to_seq(rhs, self.span_from(s), "`##`")?;
            lhs = Node::Seq(delay(a, lo, hi, b));
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        Ok(lhs)
    }

    /// After `##`: `n`, `(n)`, `[m:n]`, `[m:$]`, `[*]`, `[+]`.
    fn delay_range(&mut self, at: Span) -> Result<(u32, Option<u32>), ParseError> {
        if self.is_sym("[*") {
            self.cur.next();
            self.expect_sym("]", "`]` (`##[*]` is `##[0:$]`)")?;
            return Ok((0, None));
        }
        if self.is_sym("[+]") {
            self.cur.next();
            return Ok((1, None));
        }
        if self.is_sym("[") {
            self.cur.next();
            let r = self.range_body(true, at)?;
            self.expect_sym("]", "`]`")?;
            return Ok(r);
        }
        if let T::Word(w) = &self.cur.peek().kind {
            let t = self.cur.peek().clone();
            return Err(self.unsupported(
                t.span,
                format!(
                    "the delay `##{w}` must be a number: write its value (parameters are not read)"
                ),
            ));
        }
        let n = self.number()?;
        Ok((n, Some(n)))
    }

    /// A Boolean expression or a primary, with repetitions.
    fn repeat_level(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let mut node = self.boolean()?;
        loop {
            let t = self.cur.peek().clone();
            node = match t.kind {
                T::Sym("[*") => {
                    self.cur.next();
                    let (lo, hi) = if self.is_sym("]") {
                        (0, None)
                    } else {
                        self.range_body(true, t.span)?
                    };
                    self.expect_sym("]", "`]`")?;
                    let r = self.to_seq(node, self.span_from(start), "`[*`")?;
                    Node::Seq(Formula::star(r, lo, hi))
                }
                T::Sym("[+]") => {
                    self.cur.next();
                    let r = self.to_seq(node, self.span_from(start), "`[+]`")?;
                    Node::Seq(Formula::star(r, 1, None))
                }
                T::Sym(s @ ("[=" | "[->")) => {
                    self.cur.next();
                    let b = self.to_bool(node, self.span_from(start), &format!("`{s}`"))?;
                    let (lo, hi) = self.range_body(true, t.span)?;
                    self.expect_sym("]", "`]`")?;
                    let step = Formula::concat([
                        Formula::star(Formula::not(b.clone()), 0, None),
                        b.clone(),
                    ]);
                    let goto = Formula::star(step, lo, hi);
                    Node::Seq(if s == "[->" {
                        goto
                    } else {
                        Formula::concat([goto, Formula::star(Formula::not(b), 0, None)])
                    })
                }
                _ => return Ok(node),
            };
        }
    }

    // ---- Boolean expressions (tightest) -----------------------------

    /// `c ? a : b`, then `->`/`<->`, `||`, `&&`, `|`, `^`, `&`, `!`, `~`.
    fn boolean(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let c = self.bool_implies()?;
        if !self.is_sym("?") {
            return Ok(c);
        }
        let c = self.to_bool(c, self.span_from(start), "`?:`")?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let r = (|| {
            // Here the value of `c ? a : b` is a condition (a comparison
            // of it would be in parentheses, read as a vector
            // expression): it is the condition of the branch taken, as
            // extending a vector keeps it zero or not.
            let s = self.cur.peek().span;
            let a = self.boolean()?;
            let a = self.to_bool(a, self.span_from(s), "`?:`")?;
            self.expect_sym(":", "`:`")?;
            let s = self.cur.peek().span;
            let b = self.boolean()?;
            let b = self.to_bool(b, self.span_from(s), "`?:`")?;
            Ok(Node::Bool(Formula::or([
                Formula::and([c.clone(), a]),
                Formula::and([Formula::not(c), b]),
            ])))
        })();
        self.cur.leave();
        r
    }

    fn bool_implies(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let lhs = self.bool_binary(0)?;
        let op = match self.cur.peek().kind {
            T::Sym(s @ ("->" | "<->")) => s,
            _ => return Ok(lhs),
        };
        let a = self.to_bool(lhs, self.span_from(start), &format!("`{op}`"))?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let s = self.cur.peek().span;
        let rhs = self.bool_implies();
        self.cur.leave();
        let b = self.to_bool(rhs?, self.span_from(s), &format!("`{op}`"))?;
        Ok(Node::Bool(if op == "->" {
            Formula::implies(a, b)
        } else {
            Formula::equiv(a, b)
        }))
    }

    /// The binary Boolean operators by precedence, loosest (level 0)
    /// first; all of them read 1-bit operands.
    fn bool_binary(&mut self, level: usize) -> Result<Node, ParseError> {
        const LEVELS: &[&[&str]] = &[&["||"], &["&&"], &["|"], &["^", "~^", "^~"], &["&"]];
        if level == LEVELS.len() {
            return self.bool_equality();
        }
        if level == vector::BITWISE_OR_LEVEL && self.vector_expression_ahead()? {
            return self.vector_boolean();
        }
        let start = self.cur.peek().span;
        let lhs_widened = self.widened;
        let mut lhs = self.bool_binary(level + 1)?;
        let mut levels = 0;
        let r = loop {
            let op = match self.cur.peek().kind {
                T::Sym(s) if LEVELS[level].contains(&s) => s,
                _ => break Ok(lhs),
            };
            let what = operator_name(op);
            let bitwise = !matches!(op, "||" | "&&");
            let a = match self.to_bool(lhs, self.span_from(start), &what) {
                Ok(a) => a,
                Err(e) => break Err(e),
            };
            if bitwise && self.bare_vector(&a, lhs_widened) {
                break Err(self.bitwise_of_vector(self.span_from(start), op));
            }
            let t = self.cur.next();
            if let Err(e) = self.cur.enter(t.span) {
                break Err(e);
            }
            levels += 1;
            let s = self.cur.peek().span;
            let rhs_widened = self.widened;
            let rhs = match self.bool_binary(level + 1) {
                Ok(r) => r,
                Err(e) => break Err(e),
            };
            let b = match self.to_bool(rhs, self.span_from(s), &what) {
                Ok(b) => b,
                Err(e) => break Err(e),
            };
            if bitwise && self.bare_vector(&b, rhs_widened) {
                break Err(self.bitwise_of_vector(self.span_from(s), op));
            }
            lhs = Node::Bool(match op {
                "||" | "|" => Formula::or([a, b]),
                "&&" | "&" => Formula::and([a, b]),
                "^" => Formula::xor(a, b),
                _ => Formula::equiv(a, b),
            });
        };
        for _ in 0..levels {
            self.cur.leave();
        }
        r
    }

    /// An operand, then maybe `==`, `!=`, `===` or `!==` and a constant.
    /// A signal takes its comparison itself ([`Parser::atom`]); here the
    /// operand is a Boolean expression (`(!rst_ni) !== '0`, as lowRISC's
    /// `ASSERT` macros write a reset), whose value is one bit: compared
    /// with 0 or 1 it is itself or its negation. That is exact on
    /// two-valued values, which is what the formula reads; where a value
    /// is unknown, the trace checker refuses an atom and holds a reset
    /// expression in reset (what `!== '0` asks), and the hardware
    /// checkers read their inputs as 0 or 1.
    fn bool_equality(&mut self) -> Result<Node, ParseError> {
        let start = self.cur.peek().span;
        let widened = self.widened;
        let lhs = self.bool_unary()?;
        let op = match self.cur.peek().kind {
            T::Sym(s @ ("==" | "!=" | "===" | "!==")) => s,
            T::Sym(s @ ("<" | "<=" | ">" | ">=")) => {
                if matches!(lhs, Node::Bool(_)) {
                    let t = self.cur.peek().clone();
                    return Err(self.unsupported(
                        t.span,
                        format!(
                            "`{s}` orders values: here its left operand is a Boolean expression; \
                             compare a signal (`count {s} 3`)"
                        ),
                    ));
                }
                return Ok(lhs);
            }
            _ => return Ok(lhs),
        };
        let what = format!("`{op}`");
        let b = self.to_bool(lhs, self.span_from(start), &what)?;
        // `(v) == 1` of a declared vector compares its value, not the
        // condition `v != 0` that `(v)` alone reads as.
        let b = if self.bare_vector(&b, widened) {
            let name = b.ap_name().unwrap_or_default();
            Formula::ap(name.strip_suffix(" != 0").unwrap_or(name))
        } else {
            b
        };
        let op_token = self.cur.next();
        let c = self.cur.peek().clone();
        let value = match self.fill_literal()? {
            Some((v, _)) => v,
            None => match &c.kind {
                T::Num(n @ (0 | 1)) => {
                    self.cur.next();
                    *n == 1
                }
                T::Literal(l) if l.value <= 1 => {
                    let v = l.value == 1;
                    self.cur.next();
                    v
                }
                _ => return self.boolean_compared(b, op, &what, c.span),
            },
        };
        let _ = op_token;
        // A signal alone is a vector as far as this parser knows: it is
        // compared as written (`(v) == 1` is `v == 1`, not "v is nonzero").
        if let Some(name) = b.ap_name() {
            if let Some(crate::formula::atom::Atom::Signal(_)) =
                crate::formula::atom::Atom::parse(name)
            {
                let text = &self.cur.input[c.span.start..self.cur.last_span().end];
                if text == "'1" {
                    return Err(self.fill_one(c.span, name));
                }
                let text = if text == "'0" { "0" } else { text };
                return Ok(Node::Bool(Formula::ap(&format!("{name} {op} {text}"))));
            }
        }
        let equal = matches!(op, "==" | "===");
        Ok(Node::Bool(if equal == value { b } else { Formula::not(b) }))
    }

    /// Whether `f`, read while [`Parser::widened`] went past `before`,
    /// is a declared vector read as a condition (`v` as `v != 0`) and
    /// nothing more: its value is the vector, not one bit.
    fn bare_vector(&self, f: &Formula, before: usize) -> bool {
        self.widened > before
            && f.ap_name().is_some_and(|n| {
                n.strip_suffix(" != 0").is_some_and(|v| {
                    matches!(
                        self.signals.shape(v),
                        Some(super::Shape { range: Some((m, l)), .. }) if m != l
                    )
                })
            })
    }

    /// An operator on vectors (`op`, at `at`) that the 1-bit reading of
    /// Boolean expressions meets: vector expressions go to
    /// [`Parser::vector_boolean`], but for those that hold an instance of
    /// a named sequence, property or `let`
    /// ([`Parser::vector_expression_ahead`]).
    fn vector_operator_beside_instance(&self, at: Span, op: &str) -> ParseError {
        self.unsupported(
            at,
            format!(
                "`{op}` is an operator on vectors: vector expressions are read where they hold \
                 no instance of a named sequence, property or `let` (write the expression in \
                 its place)"
            ),
        )
    }

    /// A bitwise operator (or `?:`) whose operand is a vector: its value
    /// is a vector, which these Boolean expressions do not compute (`v &
    /// w` is 0 for 2'b01 and 2'b10, where `v != 0 && w != 0` holds).
    fn bitwise_of_vector(&self, at: Span, op: &str) -> ParseError {
        let hint = match op {
            "~" => "`!v` is `v == 0`; compare `v` with a constant otherwise",
            "?:" => "choose conditions (`c ? v != 0 : w != 0`) or compare each vector",
            _ => "for a condition on each write `v != 0 && w != 0`, or select bits (`v[0] & w[0]`)",
        };
        self.unsupported(
            at,
            format!(
                "`{op}` of a vector is bitwise: its value is a vector, not one bit; vector \
                 expressions are read where they hold no instance of a named sequence, \
                 property or `let` (write the expression in its place); {hint}"
            ),
        )
    }

    /// The Boolean expression `b` (one bit) compared by `op` with an
    /// operand that is not the constant 0 or 1: `(|oh_i) != en_i`. With a
    /// Boolean expression, equality is `b` iff it; with a signal (of any
    /// width, which `b` is extended to), `b` and the signal's value are
    /// both 1 or both 0. Exact on two-valued values.
    fn boolean_compared(
        &mut self,
        b: Formula,
        op: &str,
        what: &str,
        at: Span,
    ) -> Result<Node, ParseError> {
        let refused = |p: &Self| {
            p.unsupported(
                p.span_from(at),
                format!(
                    "{what} of a Boolean expression: compare it with 0 or 1 (`'0`, `1'b1`), a \
                     Boolean expression or a signal, or compare a signal (`x {op} y`)"
                ),
            )
        };
        // A signal alone on the left was compared as written by `atom`;
        // `(v) == w` of two vectors is not one bit compared.
        if matches!(
            b.ap_name().and_then(crate::formula::atom::Atom::parse),
            Some(crate::formula::atom::Atom::Signal(_))
        ) {
            return Err(refused(self));
        }
        // A vector on the right is its value here, not "some bit set".
        let outer = std::mem::replace(&mut self.vectors_as_signals, true);
        let rhs = self.bool_unary();
        self.vectors_as_signals = outer;
        let rhs = match rhs {
            Ok(Node::Bool(c)) => c,
            Ok(_) | Err(_) => return Err(refused(self)),
        };
        let equal_to = match rhs.ap_name().and_then(crate::formula::atom::Atom::parse) {
            // The comparison is unsigned, as `b` is (IEEE 1800-2017
            // §11.8.1): a one-bit signal, signed or not, is 1 when it is
            // not 0 (a signed one's `== 1` would read -1).
            Some(crate::formula::atom::Atom::Signal(_)) => {
                let name = rhs.ap_name().unwrap_or_default().to_string();
                let one_bit = matches!(
                    self.signals.shape(&name),
                    Some(super::Shape { range: None, .. })
                ) || matches!(
                    self.signals.shape(&name),
                    Some(super::Shape { range: Some((m, l)), .. }) if m == l
                );
                let one = if one_bit {
                    format!("{name} != 0")
                } else {
                    format!("{name} == 1")
                };
                Formula::or([
                    Formula::and([b.clone(), Formula::ap(&one)]),
                    Formula::and([Formula::not(b), Formula::ap(&format!("{name} == 0"))]),
                ])
            }
            _ => Formula::equiv(b, rhs),
        };
        Ok(Node::Bool(if matches!(op, "==" | "===") {
            equal_to
        } else {
            Formula::not(equal_to)
        }))
    }

    /// A fill literal (IEEE 1800-2017 §5.7.1): `'0` or `'1`, as
    /// `Some((value, span))`; `'x` and `'z` are refused (two-valued
    /// reads); `None` (nothing read) for anything else.
    fn fill_literal(&mut self) -> Result<Option<(bool, Span)>, ParseError> {
        let t = self.cur.peek().clone();
        if !matches!(t.kind, T::Sym("'")) {
            return Ok(None);
        }
        let Some(next) = self.cur.tokens.get(self.cur.pos + 1).cloned() else {
            return Ok(None);
        };
        if next.span.start != t.span.end {
            return Ok(None);
        }
        let span = Span {
            start: t.span.start,
            end: next.span.end,
        };
        match &next.kind {
            T::Num(n @ (0 | 1)) => {
                self.cur.pos += 2;
                Ok(Some((*n == 1, span)))
            }
            T::Word(w) if matches!(w.as_str(), "x" | "X" | "z" | "Z") => Err(self.unsupported(
                span,
                format!(
                    "`'{w}` (every bit unknown) is not read: properties here are over two-valued \
                     values (compare with `'0`, `'1` or a number)"
                ),
            )),
            _ => Ok(None),
        }
    }

    /// `'1` compared with the signal `name`: its value is all ones at the
    /// width of `name`, which is not known here.
    fn fill_one(&self, span: Span, name: &str) -> ParseError {
        self.unsupported(
            span,
            format!(
                "`'1` sets every bit of the width of `{name}`, which is not known here: write a \
                 sized literal (`{name} == 4'b1111`)"
            ),
        )
    }

    // ---- vectors ------------------------------------------------------

    /// Refuses a property that reads a signal of a type of unknown width
    /// ([`Signals::opaque`]) in `formulas` or as `clock`: read as one
    /// bit, by `$stable(s)` or by the checker port that `s` (or its
    /// member `s.f`) is connected to, its other bits would be cut off.
    /// The caret is on the signal's first use.
    ///
    /// [`Signals::opaque`]: super::Signals::opaque
    pub(super) fn refuse_opaque(
        &self,
        formulas: &[&Formula],
        clock: Option<&str>,
    ) -> Result<(), ParseError> {
        use crate::formula::atom::{Atom, Operand};
        if self.signals.is_empty() {
            return Ok(());
        }
        let opaque = |name: &str| {
            let base = name.split('.').next().unwrap_or(name);
            self.signals.is_opaque(base).then(|| base.to_string())
        };
        let mut found = clock.and_then(opaque);
        for f in formulas {
            if found.is_some() {
                break;
            }
            for sub in f.subformulas_postorder() {
                let Some(ap) = sub.ap_name() else { continue };
                found = match Atom::parse(ap) {
                    Some(Atom::Signal(s) | Atom::Unknown(s)) => opaque(&s.name),
                    Some(Atom::Compare(a, _, b)) => [a, b].into_iter().find_map(|o| match o {
                        Operand::Signal(s) => opaque(&s.name),
                        _ => None,
                    }),
                    None => opaque(ap),
                };
                if found.is_some() {
                    break;
                }
            }
        }
        let Some(name) = found else { return Ok(()) };
        let span = self
            .cur
            .tokens
            .iter()
            .find(|t| {
                matches!(&t.kind, T::Word(w)
                    if w.strip_prefix(name.as_str()).is_some_and(|r| r.is_empty() || r.starts_with('.')))
            })
            .map_or(self.cur.last_span(), |t| t.span);
        Err(self.unsupported(span, opaque_message(&name)))
    }

    /// The error of a vector expression that needs the width of `name`.
    fn width_unknown(&self, span: Span, name: &str) -> ParseError {
        let base = name.split(['.', '[']).next().unwrap_or(name);
        if self.signals.is_opaque(base) {
            return self.unsupported(span, opaque_message(base));
        }
        self.unsupported(
            span,
            format!(
                "the width of `{name}` is not known here: declare the signal (mongen: `--input \
                 {name}:WIDTH`, or `--design`)"
            ),
        )
    }

    /// Whether the next token is a signal's name.
    fn at_signal(&self) -> bool {
        match &self.cur.peek().kind {
            T::Word(w) => {
                !w.starts_with('$')
                    && !KEYWORDS.contains(&w.as_str())
                    && !VARIABLE_TYPES.contains(&w.as_str())
                    && !self.decls.contains_key(w)
                    && ![".triggered", ".matched", ".ended"]
                        .iter()
                        .any(|m| w.ends_with(m))
            }
            _ => false,
        }
    }

    /// A signal with its select: its text (`v`, `v[3]`, `v[3:0]`), where
    /// it is, and, for a select by a signal (`v[i]`), its bit.
    fn signal_select(&mut self) -> Result<(String, Span, Option<Formula>), ParseError> {
        let t = self.cur.next();
        let T::Word(name) = t.kind else {
            return Err(self.unexpected(&t, "a signal"));
        };
        if let Some(bit) = self.dynamic_select(&name, t.span)? {
            return Ok((name, self.span_from(t.span), Some(bit)));
        }
        let text = self.select(name)?;
        Ok((text, self.span_from(t.span), None))
    }

    /// `v[i]`, a select by the signal `i` (after `v`, at `at`): the bit
    /// of `v` at the value of `i`, `(i == 0 && v[0]) || (i == 1 && v[1])
    /// || ...`; false where `i` is outside the range of `v` (the bit is
    /// x there, false as a condition, IEEE 1800-2017 §11.5.1, §16.6).
    /// `None` (nothing read) when the select is not by a signal.
    fn dynamic_select(&mut self, name: &str, at: Span) -> Result<Option<Formula>, ParseError> {
        let kind = |k: usize| {
            self.cur
                .tokens
                .get(self.cur.pos + k)
                .map(|t| t.kind.clone())
        };
        let (Some(T::Sym("[")), Some(T::Word(index)), Some(T::Sym("]"))) =
            (kind(0), kind(1), kind(2))
        else {
            return Ok(None);
        };
        if KEYWORDS.contains(&index.as_str()) || index.starts_with('$') {
            return Ok(None);
        }
        let index_span = self.cur.tokens[self.cur.pos + 1].span;
        let span = Span {
            start: at.start,
            end: self.cur.tokens[self.cur.pos + 2].span.end,
        };
        let range = match self.signals.shape(name) {
            Some(super::Shape { range: Some(r), .. }) => r,
            Some(_) => {
                return Err(self.unsupported(
                    span,
                    format!("`{name}` is a scalar: it has no bits to select"),
                ));
            }
            None => {
                return Err(self.unsupported(
                    index_span,
                    format!(
                        "a select by a signal (`{name}[{index}]`) reads the bit at the value of \
                         `{index}`: the widths of `{name}` and `{index}` are needed (mongen: \
                         `--input {name}:WIDTH --input {index}:WIDTH`, or `--design`)"
                    ),
                ))
            }
        };
        let Some(shape) = self.signals.shape(&index) else {
            return Err(self.width_unknown(index_span, &index));
        };
        let (iw, reach) = match shape.range {
            None => (1, 2u64),
            Some((m, l)) => {
                let w = m.abs_diff(l) + 1;
                // A signed index is negative with its sign bit set: out
                // of every range here.
                let bits = if shape.signed { w - 1 } else { w };
                (w, if bits >= 63 { u64::MAX } else { 1u64 << bits })
            }
        };
        let _ = iw;
        let (lo, hi) = (range.0.min(range.1), range.0.max(range.1));
        let hi = u64::from(hi).min(reach.saturating_sub(1));
        if u64::from(lo) > hi {
            return Err(self.unsupported(
                span,
                format!(
                    "`{index}` never reaches the range of `{name}`: `{name}[{index}]` is always x"
                ),
            ));
        }
        if hi - u64::from(lo) >= MAX_BITS as u64 {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "`{name}[{index}]` selects among more than {MAX_BITS} bits"
                )),
            ));
        }
        self.cur.pos += 3;
        let terms = (u64::from(lo)..=hi).map(|k| {
            Formula::and([
                Formula::ap(&format!("{index} == {k}")),
                Formula::ap(&format!("{name}[{k}]")),
            ])
        });
        Ok(Some(Formula::or(terms)))
    }

    /// The bits of a signal (`text`: `v`, `v[3]`, `v[3:0]`, at `span`);
    /// `None` for a signal alone whose width is not declared.
    fn signal_vector(&self, text: &str, span: Span) -> Result<Option<Vector>, ParseError> {
        use crate::formula::atom::{Atom, Select};
        let Some(Atom::Signal(sig)) = Atom::parse(text) else {
            return Err(self.unsupported(span, format!("`{text}` is not a signal")));
        };
        let shape = self.signals.shape(&sig.name);
        let bit = |i: u32| Formula::ap(&format!("{}[{i}]", sig.name));
        let v = match (sig.select, shape) {
            (None, None) => return Ok(None),
            (None, Some(super::Shape { range: None, .. })) => {
                Vector::of(vec![Formula::ap(&sig.name)], false)
            }
            (
                None,
                Some(super::Shape {
                    range: Some((m, l)),
                    signed,
                }),
            ) => {
                if m.abs_diff(l) as usize >= MAX_BITS {
                    return Err(self.cur.error(
                        span,
                        ParseErrorKind::Bound(format!(
                            "`{}` has more than {MAX_BITS} bits",
                            sig.name
                        )),
                    ));
                }
                let bits = if m >= l {
                    (l..=m).map(bit).collect()
                } else {
                    (m..=l).rev().map(bit).collect()
                };
                Vector::of(bits, signed)
            }
            (Some(Select::Bit(i)), _) => Vector::of(vec![bit(i)], false),
            (Some(Select::Part(h, l)), _) => {
                if (h - l) as usize >= MAX_BITS {
                    return Err(self.cur.error(
                        span,
                        ParseErrorKind::Bound(format!("`{text}` has more than {MAX_BITS} bits")),
                    ));
                }
                Vector::of((l..=h).map(bit).collect(), false)
            }
        };
        Ok(Some(v))
    }

    /// A vector operand: a signal (with a select), a concatenation, a
    /// number, a literal, a fill literal, `$past(...)` or `$sampled(...)`,
    /// or one of them in parentheses.
    fn vector_operand(&mut self) -> Result<(Vector, Span), ParseError> {
        let t = self.cur.peek().clone();
        self.cur.enter(t.span)?;
        let r = self.vector_operand_inner(t);
        self.cur.leave();
        r
    }

    fn vector_operand_inner(&mut self, t: Token) -> Result<(Vector, Span), ParseError> {
        if let Some((v, span)) = self.fill_literal()? {
            let fill = Vector {
                bits: Vec::new(),
                signed: false,
                fill: Some(v),
            };
            return Ok((fill, span));
        }
        if self.at_signal() {
            let (text, span, dynamic) = self.signal_select()?;
            if let Some(bit) = dynamic {
                return Ok((Vector::of(vec![bit], false), span));
            }
            return match self.signal_vector(&text, span)? {
                Some(v) => Ok((v, span)),
                None => Err(self.width_unknown(span, &text)),
            };
        }
        match &t.kind {
            T::Num(n) => {
                self.cur.next();
                Ok((number_vector(*n), t.span))
            }
            T::Literal(l) => {
                self.cur.next();
                Ok((literal_vector(l), t.span))
            }
            T::Sym("(") => {
                self.cur.next();
                let (v, _) = self.vector_operand()?;
                self.expect_sym(")", "`)`")?;
                Ok((v, self.span_from(t.span)))
            }
            T::Sym("{") => {
                self.cur.next();
                let mut items = Vec::new();
                loop {
                    if matches!(self.cur.peek2().kind, T::Sym("{")) {
                        let u = self.cur.peek().clone();
                        return Err(
                            self.unsupported(u.span, "replicated concatenations are not supported")
                        );
                    }
                    let (v, span) = self.vector_operand()?;
                    if v.fill.is_some() {
                        return Err(self.unsupported(
                            span,
                            "a fill literal has no width of its own in a concatenation",
                        ));
                    }
                    items.push(v);
                    if self.is_sym(",") {
                        self.cur.next();
                        continue;
                    }
                    self.expect_sym("}", "`,` or `}`")?;
                    break;
                }
                // The first item is the most significant.
                let bits: Vec<Formula> = items.into_iter().rev().flat_map(|v| v.bits).collect();
                let span = self.span_from(t.span);
                if bits.len() > MAX_BITS {
                    return Err(self.cur.error(
                        span,
                        ParseErrorKind::Bound(format!(
                            "a concatenation of more than {MAX_BITS} bits"
                        )),
                    ));
                }
                Ok((Vector::of(bits, false), span))
            }
            T::Word(w) if w == "$past" || w == "$sampled" => {
                let w = w.clone();
                self.cur.next();
                self.started = true;
                let open = self.expect_sym("(", "`(`")?;
                let v = match self.vector_argument()? {
                    Some((v, _)) => v,
                    None => {
                        let b = self.bit_argument(&w)?;
                        Vector::of(vec![b], false)
                    }
                };
                let n = if w == "$past" { self.past_ticks()? } else { 0 };
                self.close_call(&w, open.span)?;
                Ok((past(v, n), self.span_from(t.span)))
            }
            _ => Err(self.unexpected(
                &t,
                "a vector: a signal, a select, a concatenation, a number or `$past(...)`",
            )),
        }
    }

    /// The argument of a sampled-value function when it is a vector: a
    /// signal whose width is declared (or a part-select, a select by a
    /// signal) or a concatenation, alone before `)` or `,`. `None`
    /// (nothing read) otherwise: the argument is a Boolean expression.
    fn vector_argument(&mut self) -> Result<Option<(Vector, Span)>, ParseError> {
        let pos = self.cur.pos;
        if self.is_sym("{") {
            return self.vector_operand().map(Some);
        }
        if !self.at_signal() {
            return Ok(None);
        }
        let (text, span, dynamic) = self.signal_select()?;
        if !(self.is_sym(")") || self.is_sym(",")) {
            self.cur.seek(pos);
            return Ok(None);
        }
        let v = match dynamic {
            Some(bit) => Some(Vector::of(vec![bit], false)),
            None => self.signal_vector(&text, span)?,
        };
        match v {
            Some(v) => Ok(Some((v, span))),
            None => {
                self.cur.seek(pos);
                Ok(None)
            }
        }
    }

    /// After `$past(e`: `, n` (the number of ticks, 1 by default).
    fn past_ticks(&mut self) -> Result<u32, ParseError> {
        if !self.is_sym(",") {
            return Ok(1);
        }
        self.cur.next();
        let n = if self.is_sym(",") || self.is_sym(")") {
            1
        } else {
            let t = self.cur.peek().clone();
            let n = self.number()?;
            if n == 0 {
                return Err(self.cur.error(
                    t.span,
                    ParseErrorKind::Bound("the number of ticks of `$past` is at least 1".into()),
                ));
            }
            n
        };
        if self.is_sym(",") {
            let c = self.cur.peek().span;
            return Err(self.unsupported(
                c,
                "`$past` with a gating expression or a clocking event is not supported \
                 (IEEE 1800-2017 §16.9.3)",
            ));
        }
        Ok(n)
    }

    /// A comparison after the vector `lhs`, if one follows: its value;
    /// otherwise `lhs` as a Boolean (nonzero).
    fn vector_comparison(&mut self, lhs: Vector, tight: bool) -> Result<Formula, ParseError> {
        let op = match self.cur.peek().kind {
            T::Sym(s @ ("==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=")) if !tight => s,
            _ => return Ok(lhs.nonzero()),
        };
        self.cur.next();
        let (rhs, _) = self.vector_operand()?;
        Ok(compare_vectors(&lhs, op, &rhs))
    }

    fn bool_unary(&mut self) -> Result<Node, ParseError> {
        let t = self.cur.peek().clone();
        match t.kind {
            T::Sym(op @ ("!" | "~")) => {
                self.cur.next();
                self.started = true;
                self.cur.enter(t.span)?;
                let s = self.cur.peek().span;
                let widened = self.widened;
                self.tight = true;
                let r = self.bool_unary();
                self.tight = false;
                self.cur.leave();
                let n = r?;
                match n {
                    Node::Bool(b) if op == "~" && self.bare_vector(&b, widened) => {
                        Err(self.bitwise_of_vector(self.span_from(s), op))
                    }
                    Node::Bool(b) => Ok(Node::Bool(Formula::not(b))),
                    _ => Err(self.unsupported(
                        self.span_from(s),
                        format!("`{op}` negates a Boolean expression; for a sequence or a property write `not`"),
                    )),
                }
            }
            T::Sym(op @ ("&" | "|" | "^" | "~&" | "~|" | "~^" | "^~")) => {
                self.cur.next();
                self.started = true;
                self.reduction(op)
            }
            T::Sym(op @ ("+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "'")) => {
                Err(self.vector_operator_beside_instance(t.span, op))
            }
            _ => self.primary(),
        }
    }

    /// A reduction (IEEE 1800-2017 §11.4.9) after its operator `op`: of
    /// a signal, a select, a concatenation or `$past(...)`. `|v` and
    /// `~|v` of a signal are `v != 0` and `v == 0`, whatever its width;
    /// the others read its bits, and need its width.
    fn reduction(&mut self, op: &str) -> Result<Node, ParseError> {
        let pos = self.cur.pos;
        if matches!(op, "|" | "~|") && self.at_signal() {
            let (text, _, dynamic) = self.signal_select()?;
            if dynamic.is_none() && !self.is_sym("[") {
                let cmp = if op == "|" { "!=" } else { "==" };
                return Ok(Node::Bool(Formula::ap(&format!("{text} {cmp} 0"))));
            }
            self.cur.seek(pos);
        }
        let (v, span) = self.vector_operand()?;
        if v.fill.is_some() {
            return Err(self.unsupported(span, "a reduction of a fill literal: write the value"));
        }
        let bits = v.bits;
        let parity = || {
            bits.iter()
                .cloned()
                .reduce(Formula::xor)
                .unwrap_or_else(Formula::ff)
        };
        Ok(Node::Bool(match op {
            "&" => Formula::and(bits.clone()),
            "~&" => Formula::not(Formula::and(bits.clone())),
            "|" => Formula::or(bits.clone()),
            "~|" => Formula::not(Formula::or(bits.clone())),
            "^" => parity(),
            _ => Formula::not(parity()),
        }))
    }

    // ---- primaries ----------------------------------------------------

    fn primary(&mut self) -> Result<Node, ParseError> {
        let t = self.cur.peek().clone();
        let tight = std::mem::take(&mut self.tight);
        self.cur.enter(t.span)?;
        let r = self.primary_inner(t, tight);
        self.cur.leave();
        r
    }

    fn primary_inner(&mut self, t: Token, tight: bool) -> Result<Node, ParseError> {
        match &t.kind {
            T::Sym("(") => {
                self.cur.next();
                let inner = self.property()?;
                if self.is_sym(")") {
                    self.cur.next();
                    return Ok(inner);
                }
                if self.is_sym(",") {
                    let c = self.cur.peek().span;
                    return Err(self.unsupported(
                        c,
                        "local variables (`(a, v = e)`) are not supported (IEEE 1800-2017 §16.10)",
                    ));
                }
                if self.cur.peek().kind == T::End {
                    return Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis));
                }
                let u = self.cur.peek().clone();
                Err(self.unexpected(&u, "an operator or `)`"))
            }
            T::Sym("@") => {
                self.cur.next();
                let (clock, span) = self.clock_after_at(t.span)?;
                self.note_clock(clock, span)?;
                self.property()
            }
            T::Sym("{") => Err(self.unsupported(
                t.span,
                "a concatenation `{...}` is a vector: it is read only as the argument of \
                 `$onehot`, `$onehot0` and `$countones` (SVA sequences have no braces: PSL's \
                 `{a; b}` is `a ##1 b`)",
            )),
            T::Num(n) => {
                self.cur.next();
                self.started = true;
                match n {
                    0 | 1 => Ok(Node::Bool(Formula::constant(*n == 1))),
                    _ => Err(self.unsupported(
                        t.span,
                        format!("`{n}` is a number, not a Boolean: compare it with a signal (`x == {n}`)"),
                    )),
                }
            }
            T::Literal(l) => {
                self.cur.next();
                self.started = true;
                if l.width == Some(1) {
                    return Ok(Node::Bool(Formula::constant(l.value == 1)));
                }
                Err(self.unsupported(
                    t.span,
                    format!(
                        "`{}` is a vector, not a Boolean: compare it with a signal (`x == {}`)",
                        l.text, l.text
                    ),
                ))
            }
            T::Word(w) if w.starts_with('$') => {
                let w = w.clone();
                self.cur.next();
                self.started = true;
                self.system_function(&w, t.span, tight)
            }
            T::Word(w) => {
                let w = w.clone();
                self.word(w, t, tight)
            }
            _ => Err(self.unexpected(&t, "a property or a sequence")),
        }
    }

    fn word(&mut self, w: String, t: Token, tight: bool) -> Result<Node, ParseError> {
        if w == "disable" {
            return self.disable_iff(t.span);
        }
        self.cur.next();
        if self.decls.contains_key(&w) {
            // The body may start with its clock and `disable iff`.
            return self.instance(w, t.span);
        }
        self.started = true;
        match w.as_str() {
            "strong" | "weak" => {
                let (r, span) = self.sequence_argument(&w)?;
                self.no_empty_match(&r, span)?;
                Ok(Node::Prop(if w == "strong" {
                    Formula::econcat(r, Formula::tt())
                } else {
                    Formula::closure(r)
                }))
            }
            "first_match" => {
                let (r, _) = self.sequence_argument(&w)?;
                Ok(Node::Seq(Formula::first_match(r)))
            }
            "always" | "s_always" | "eventually" | "s_eventually" => self.always_eventually(&w, t.span),
            "if" => self.if_else(),
            "case" => self.case(t.span),
            "accept_on" | "reject_on" | "sync_accept_on" | "sync_reject_on" => {
                let open = self.expect_sym("(", "`(`")?;
                let s = self.cur.peek().span;
                let b = self.property()?;
                let b = self.to_bool(b, self.span_from(s), &format!("the condition of `{w}`"))?;
                self.expect_sym(")", "`)`")?;
                let _ = open;
                let ps = self.cur.peek().span;
                let p = self.property()?;
                let p = self.to_prop(p, self.span_from(ps))?;
                // The synchronous forms check the condition at the clock
                // ticks only: on a word of one letter per tick, the same.
                Ok(Node::Prop(if w.ends_with("accept_on") {
                    Formula::abort(p, b)
                } else {
                    Formula::not(Formula::abort(Formula::not(p), b))
                }))
            }
            "expect" => Err(self.unsupported(
                t.span,
                "`expect` is a procedural statement, not a property (IEEE 1800-2017 §16.17)",
            )),
            "nexttime" | "s_nexttime" | "not" => Err(self.unsupported(
                t.span,
                format!("`{w}` is a property operator: it cannot be an operand of a sequence or Boolean operator here; use parentheses"),
            )),
            "sequence" | "property" | "let" | "default" | "assert" | "assume" | "cover"
            | "restrict" | "clocking" => Err(self.unsupported(
                t.span,
                format!("`{w}` is a declaration or a directive: it comes before the property, not inside it"),
            )),
            "local" => Err(self.unsupported(
                t.span,
                "local variables are not supported (IEEE 1800-2017 §16.10)",
            )),
            _ if KEYWORDS.contains(&w.as_str()) => Err(self.unexpected(&t, "a property or a sequence")),
            _ if VARIABLE_TYPES.contains(&w.as_str()) => Err(self.unsupported(
                t.span,
                format!("`{w}` declares a variable: local variables are not supported (IEEE 1800-2017 §16.10)"),
            )),
            _ => {
                for method in [".triggered", ".matched", ".ended"] {
                    if w.ends_with(method) {
                        let section = if method == ".triggered" { "§16.9.11" } else { "§16.13.6" };
                        return Err(self.unsupported(
                            t.span,
                            format!("the sequence method `{}` is not supported (IEEE 1800-2017 {section})", &method[1..]),
                        ));
                    }
                }
                self.atom(w, tight)
            }
        }
    }

    /// `(r)` after `strong`, `weak`, `first_match`: a sequence.
    fn sequence_argument(&mut self, w: &str) -> Result<(Formula, Span), ParseError> {
        self.expect_sym("(", "`(`")?;
        let s = self.cur.peek().span;
        let n = self.property()?;
        let span = self.span_from(s);
        if self.is_sym(",") {
            let c = self.cur.peek().span;
            return Err(self.unsupported(
                c,
                "local variables (`first_match(r, v = e)`) are not supported (IEEE 1800-2017 §16.10)",
            ));
        }
        self.expect_sym(")", "`)`")?;
        let r = self.to_seq(n, span, &format!("`{w}`"))?;
        Ok((r, span))
    }

    /// `always`, `always [m:n]`, `s_always [m:n]`, `eventually [m:n]`,
    /// `s_eventually`, `s_eventually [m:$]`; the operand extends as far
    /// as possible.
    fn always_eventually(&mut self, w: &str, at: Span) -> Result<Node, ParseError> {
        let range = if self.is_sym("[") {
            let open = self.cur.next();
            let r = self.range_body(true, open.span)?;
            self.expect_sym("]", "`]`")?;
            Some((r, self.span_from(open.span)))
        } else {
            None
        };
        match (w, &range) {
            ("s_always" | "eventually", None) => {
                let other = if w == "s_always" {
                    "always"
                } else {
                    "s_eventually"
                };
                return Err(self.unsupported(
                    at,
                    format!("`{w}` takes a range, `{w} [m:n] p` (IEEE 1800-2017 §16.12.11); without one write `{other} p`"),
                ));
            }
            ("s_always" | "eventually", Some(((_, None), span))) => {
                return Err(self.unsupported(
                    *span,
                    format!("the range of `{w}` must be bounded (IEEE 1800-2017 §16.12.11)"),
                ));
            }
            _ => {}
        }
        let s = self.cur.peek().span;
        let p = self.property()?;
        let p = self.to_prop(p, self.span_from(s))?;
        let all = w.ends_with("always");
        Ok(Node::Prop(match range {
            None if all => Formula::always(p),
            None => Formula::eventually(p),
            Some(((lo, None), _)) => Formula::next_n(
                if all {
                    Formula::always(p)
                } else {
                    Formula::eventually(p)
                },
                lo as usize,
            ),
            Some(((lo, Some(hi)), _)) => {
                // Nested as `X^lo (p & X(p & …))`: linear in the count.
                let mut body = p.clone();
                for _ in lo..hi {
                    let later = Formula::next(body);
                    body = if all {
                        Formula::and([p.clone(), later])
                    } else {
                        Formula::or([p.clone(), later])
                    };
                }
                Formula::next_n(body, lo as usize)
            }
        }))
    }

    /// `if (b) p [else q]`, the `if` read.
    fn if_else(&mut self) -> Result<Node, ParseError> {
        self.expect_sym("(", "`(`")?;
        let s = self.cur.peek().span;
        let b = self.property()?;
        let b = self.to_bool(b, self.span_from(s), "the condition of `if`")?;
        self.expect_sym(")", "`)`")?;
        let s = self.cur.peek().span;
        let p = self.property()?;
        let p = self.to_prop(p, self.span_from(s))?;
        let then = Formula::implies(b.clone(), p);
        if !self.is_word("else") {
            return Ok(Node::Prop(then));
        }
        self.cur.next();
        let s = self.cur.peek().span;
        let q = self.property()?;
        let q = self.to_prop(q, self.span_from(s))?;
        Ok(Node::Prop(Formula::and([
            then,
            Formula::implies(Formula::not(b), q),
        ])))
    }

    /// `case (e) v1, v2: p; default: q; endcase`, the `case` read: the
    /// first item whose value equals `e` (an identifier, compared as
    /// `e == v`, an atomic proposition as in `state == 2`) gives the
    /// property; with none, `default`, or `true` without one (§16.12.16).
    fn case(&mut self, at: Span) -> Result<Node, ParseError> {
        self.expect_sym("(", "`(`")?;
        let e = self.cur.next();
        let name = match &e.kind {
            T::Word(w) if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') => {
                self.select(w.clone())?
            }
            _ => {
                return Err(self.unsupported(
                    e.span,
                    "the expression of `case` must be a signal (with a select): its values are compared with it",
                ))
            }
        };
        self.expect_sym(")", "`)` (the case expression is a signal)")?;
        let mut items: Vec<(Option<Formula>, Formula)> = Vec::new();
        loop {
            let t = self.cur.peek().clone();
            match &t.kind {
                T::Word(w) if w == "endcase" => {
                    self.cur.next();
                    break;
                }
                T::Word(w) if w == "default" => {
                    self.cur.next();
                    if self.is_sym(":") {
                        self.cur.next();
                    }
                    let s = self.cur.peek().span;
                    let p = self.property()?;
                    let p = self.to_prop(p, self.span_from(s))?;
                    self.expect_sym(";", "`;`")?;
                    items.push((None, p));
                }
                T::End => return Err(self.unsupported(at, "this `case` has no `endcase`")),
                _ => {
                    let mut conds = Vec::new();
                    loop {
                        let v = self.cur.next();
                        let value = match &v.kind {
                            T::Num(n) => n.to_string(),
                            T::Literal(l) => l.text.clone(),
                            T::Word(w)
                                if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') =>
                            {
                                self.select(w.clone())?
                            }
                            _ => {
                                return Err(self.unexpected(
                                    &v,
                                    "a case item value (a number, a literal or a signal)",
                                ));
                            }
                        };
                        conds.push(Formula::ap(&format!("{name} == {value}")));
                        if !self.is_sym(",") {
                            break;
                        }
                        self.cur.next();
                    }
                    self.expect_sym(":", "`:`")?;
                    let s = self.cur.peek().span;
                    let p = self.property()?;
                    let p = self.to_prop(p, self.span_from(s))?;
                    self.expect_sym(";", "`;`")?;
                    items.push((Some(Formula::or(conds)), p));
                }
            }
        }
        let default = items
            .iter()
            .find(|(c, _)| c.is_none())
            .map_or(Formula::tt(), |(_, p)| p.clone());
        let mut acc = default;
        for (cond, p) in items.into_iter().rev() {
            if let Some(c) = cond {
                let then = Formula::implies(c.clone(), p);
                acc = if acc.is_true() {
                    then
                } else {
                    Formula::and([then, Formula::implies(Formula::not(c), acc)])
                };
            }
        }
        Ok(Node::Prop(acc))
    }

    /// `disable iff (b) p`, first in a property (after its clock).
    fn disable_iff(&mut self, at: Span) -> Result<Node, ParseError> {
        self.cur.next();
        if !self.is_word("iff") {
            let t = self.cur.peek().clone();
            return Err(self.unexpected(&t, "`iff`"));
        }
        self.cur.next();
        let span = self.span_from(at);
        if !self.directive {
            return Err(self.unsupported(
                span,
                "`disable iff` is the reset of an assertion: read it with `parse_sva_directive`, \
                 which returns it beside the property (as `mongen compile --sva` does)",
            ));
        }
        if self.started || self.disable.is_some() {
            return Err(self.unsupported(
                span,
                "`disable iff (...)` must come first in the property, after its clock, once \
                 (IEEE 1800-2017 §16.12)",
            ));
        }
        self.expect_sym("(", "`(`")?;
        let s = self.cur.peek().span;
        let b = self.property()?;
        let b = self.to_bool(b, self.span_from(s), "`disable iff`")?;
        self.expect_sym(")", "`)`")?;
        self.disable = Some((b, self.span_from(at)));
        self.started = false;
        self.property()
    }

    /// A clock read at `span`: the leading clock if nothing else has been
    /// read; otherwise it must be that clock (§16.13: one clock).
    fn note_clock(&mut self, clock: Clock, span: Span) -> Result<(), ParseError> {
        if !self.directive {
            return Err(self.unsupported(
                span,
                "clocked properties are not read here: monitors read one letter per cycle; read \
                 the property with `parse_sva_directive`, which returns its clock (as `mongen \
                 compile --sva` does)",
            ));
        }
        if !self.started && self.clock.is_none() {
            self.clock = Some((clock, span));
        } else {
            self.inner_clocks.push((clock, span));
        }
        Ok(())
    }

    /// Checks the clocks read: one clock (§16.13), which covers the
    /// whole property.
    pub(super) fn check_clocks(&self) -> Result<Option<(Clock, Span)>, ParseError> {
        // An explicit clock overrides the default clocking (§14.12).
        let main = self.clock.clone().or_else(|| self.default_clock.clone());
        for (c, span) in &self.inner_clocks {
            match &main {
                Some((m, mspan)) if m != c => {
                    let text = &self.cur.input[mspan.start..mspan.end];
                    return Err(self.unsupported(
                        *span,
                        format!(
                            "a second clock: the property is clocked by `{}` ({}); multiple \
                             clocks are not supported (IEEE 1800-2017 §16.13)",
                            m,
                            quote(text)
                        ),
                    ));
                }
                Some(_) => {}
                None => {
                    return Err(self.unsupported(
                        *span,
                        "a clock inside a property without a leading clock: the rest would be \
                         read at every cycle (multiple clocks, IEEE 1800-2017 §16.13); write the \
                         clock first",
                    ));
                }
            }
        }
        Ok(main)
    }

    /// After `@` (at `at`): `(posedge clk)`, `(negedge clk)`.
    pub(super) fn clock_after_at(&mut self, at: Span) -> Result<(Clock, Span), ParseError> {
        let paren = self.is_sym("(");
        if paren {
            self.cur.next();
        }
        let t = self.cur.next();
        let edge = match &t.kind {
            T::Word(w) if w == "posedge" => ClockEdge::Posedge,
            T::Word(w) if w == "negedge" => ClockEdge::Negedge,
            T::Word(w) if w == "edge" => {
                return Err(self.unsupported(
                    t.span,
                    "a checker samples at one edge: write `posedge` or `negedge`",
                ));
            }
            T::Word(w) if !KEYWORDS.contains(&w.as_str()) => {
                let span = self.span_from(at);
                return Err(self.unsupported(
                    span,
                    format!("a clock needs an edge: write `@(posedge {w})` (or `@(negedge {w})`)"),
                ));
            }
            _ => return Err(self.unexpected(&t, "a clock edge (`posedge clk`, `negedge clk`)")),
        };
        let name = self.cur.next();
        let signal = match &name.kind {
            T::Word(w) if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') => w.clone(),
            _ => return Err(self.unexpected(&name, "the name of the clock signal")),
        };
        if paren {
            if !self.is_sym(")") {
                let t = self.cur.peek().clone();
                if matches!(&t.kind, T::Word(w) if w == "or" || w == "iff")
                    || matches!(t.kind, T::Sym(","))
                {
                    return Err(self.unsupported(
                        t.span,
                        "a checker has one clock: give one edge of one signal, without `or`, `,` \
                         or `iff` (multiple clocks, IEEE 1800-2017 §16.13)",
                    ));
                }
                return Err(self.unexpected(&t, "`)`"));
            }
            self.cur.next();
        }
        Ok((Clock { signal, edge }, self.span_from(at)))
    }

    // ---- atoms and sampled-value functions ----------------------------

    /// An identifier, possibly selected or compared: `sig`, `bus[3]`,
    /// `grant[1:0]`, `state == 2` (one proposition named by its text, as
    /// in the PSL front end).
    fn atom(&mut self, word: String, tight: bool) -> Result<Node, ParseError> {
        let at = self.cur.last_span();
        let dynamic = self.dynamic_select(&word, at)?;
        let past_compared = |p: &Self| {
            !tight
                && matches!(
                    p.cur.peek().kind,
                    T::Sym("===" | "!==" | "==" | "!=" | "<=" | ">=" | "<" | ">")
                )
                && matches!(&p.cur.peek2().kind, T::Word(w) if w == "$past" || w == "$sampled")
        };
        if let Some(bit) = dynamic {
            if past_compared(self) {
                let lhs = Vector::of(vec![bit], false);
                return Ok(Node::Bool(self.vector_comparison(lhs, false)?));
            }
            return Ok(Node::Bool(bit));
        }
        let mut name = self.select(word)?;
        if past_compared(self) {
            // `v == $past(v)`: a comparison of values, bit by bit.
            let span = self.span_from(at);
            let Some(lhs) = self.signal_vector(&name, span)? else {
                return Err(self.width_unknown(span, &name));
            };
            return Ok(Node::Bool(self.vector_comparison(lhs, false)?));
        }
        let cmp = ["===", "!==", "==", "!=", "<=", ">=", "<", ">"]
            .into_iter()
            .find(|s| self.is_sym(s) && !tight);
        if let Some(op) = cmp {
            self.cur.next();
            if let Some((one, span)) = self.fill_literal()? {
                if one {
                    return Err(self.fill_one(span, &name));
                }
                if !matches!(op, "==" | "!=" | "===" | "!==") {
                    // `x < '0` is unsigned; `x < 0` is signed for a signed `x`.
                    return Err(self.unsupported(
                        span,
                        format!("`'0` is compared with `==`, `!=`, `===` or `!==` here; write `{name} {op} 0`"),
                    ));
                }
                return Ok(Node::Bool(Formula::ap(&format!("{name} {op} 0"))));
            }
            let rhs = self.cur.next();
            let value = match &rhs.kind {
                T::Num(n) => n.to_string(),
                T::Literal(l) => l.text.clone(),
                T::Word(w) if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') => {
                    self.select(w.clone())?
                }
                _ => return Err(self.unexpected(&rhs, "a number, a literal or an identifier")),
            };
            if let Some(f) = self.compared_bit_by_bit(&name, op, &rhs, &value, at)? {
                return Ok(Node::Bool(f));
            }
            // `===` stays: the trace checker and Verilog read x and z
            // bits, where it differs from `==` (`atom::Comparison::CaseEq`).
            name = format!("{name} {op} {value}");
        } else if self.is_word("inside") || self.is_word("dist") {
            let t = self.cur.peek().clone();
            return Err(self.unsupported(t.span, "`inside` and `dist` are not supported"));
        }
        if let T::Sym(op @ ("+" | "-" | "*" | "/" | "%" | "<<" | ">>")) = self.cur.peek().kind {
            let t = self.cur.peek().clone();
            return Err(self.vector_operator_beside_instance(t.span, op));
        }
        // A declared vector as a condition is true when a bit is set
        // (IEEE 1800-2017 §12.4): the comparison says so to every back
        // end, where the name alone would be read as one bit (a checker
        // port) or refused (a waveform's vector).
        if let Some(super::Shape {
            range: Some((m, l)),
            ..
        }) = self.signals.shape(&name)
        {
            if m != l && !self.vectors_as_signals {
                self.widened += 1;
                return Ok(Node::Bool(Formula::ap(&format!("{name} != 0"))));
            }
        }
        Ok(Node::Bool(Formula::ap(&name)))
    }

    /// `name op value` (`value` the text of `rhs`) bit by bit, where the
    /// proposition `name op value` would not say it to every back end:
    /// two signals of different widths or signedness, a literal of
    /// another width, a number at or past the ends of the signal's range
    /// (the checkers' width rules refuse those as likely mistakes; SVA
    /// defines them, §11.4.4, and the comparison of the bits is exact).
    /// `None` when the proposition says it, or a width is not declared.
    fn compared_bit_by_bit(
        &self,
        name: &str,
        op: &str,
        rhs: &Token,
        value: &str,
        at: Span,
    ) -> Result<Option<Formula>, ParseError> {
        let span = self.span_from(at);
        let Some(lhs) = self.signal_vector(name, span)? else {
            return Ok(None);
        };
        let w = lhs.bits.len();
        let rhs = match &rhs.kind {
            T::Word(_) => match self.signal_vector(value, span)? {
                Some(v) if v.bits.len() != w || v.signed != lhs.signed => v,
                _ => return Ok(None),
            },
            T::Literal(l)
                if l.width.is_some_and(|lw| lw as usize != w)
                    || at_the_ends(op, l.value, w, lhs.signed) =>
            {
                literal_vector(l)
            }
            T::Num(n) if at_the_ends(op, *n, w, lhs.signed) => number_vector(*n),
            _ => return Ok(None),
        };
        Ok(Some(compare_vectors(&lhs, op, &rhs)))
    }

    /// `sig` followed by a bit-select `[i]` or a part-select `[msb:lsb]`.
    fn select(&mut self, name: String) -> Result<String, ParseError> {
        if !self.is_sym("[") {
            return Ok(name);
        }
        let kind = |k: usize| {
            self.cur
                .tokens
                .get(self.cur.pos + k)
                .map(|t| t.kind.clone())
        };
        let (Some(T::Num(hi)), next) = (kind(1), kind(2)) else {
            if let Some(T::Word(index)) = kind(1) {
                if !KEYWORDS.contains(&index.as_str()) {
                    let at = self.cur.tokens[self.cur.pos + 1].span;
                    return Err(self.unsupported(
                        at,
                        format!(
                            "a select by a signal (`{name}[{index}]`) is not supported: its bit \
                             changes with the value of `{index}`, and the propositions here are \
                             fixed expressions; select constant bits (`{name}[0]`) or compare \
                             (`{index} == 0 && {name}[0] || ...`)"
                        ),
                    ));
                }
            }
            return Ok(name);
        };
        match next {
            Some(T::Sym("]")) => {
                self.cur.pos += 3;
                Ok(format!("{name}[{hi}]"))
            }
            Some(T::Sym(":")) => {
                let open = self.cur.next();
                self.cur.next();
                self.cur.next();
                let lo = self.cur.next();
                let T::Num(lo) = lo.kind else {
                    return Err(self.unexpected(&lo, "the least significant bit of a part-select"));
                };
                if lo > hi {
                    return Err(self.unsupported(
                        open.span,
                        format!("part-select [{hi}:{lo}]: write the most significant bit first"),
                    ));
                }
                self.expect_sym("]", "`]`")?;
                Ok(format!("{name}[{hi}:{lo}]"))
            }
            _ => Ok(name),
        }
    }

    /// A 1-bit argument of a sampled-value function.
    fn bit_argument(&mut self, f: &str) -> Result<Formula, ParseError> {
        let s = self.cur.peek().span;
        let n = self.property()?;
        let span = self.span_from(s);
        let b = self.to_bool(n, span, &format!("`{f}`"))?;
        // `$isunknown` reads every bit of a vector.
        if let Some(name) = b.ap_name().filter(|_| f != "$isunknown") {
            if !name.contains(' ') && name.ends_with(']') && name.contains(':') {
                return Err(self.unsupported(
                    span,
                    format!(
                        "`{f}` of the vector `{name}`: sampled-value functions read 1-bit \
                         expressions here; compare the vector (`{f}({name} == 3)`) or give its bits"
                    ),
                ));
            }
        }
        Ok(b)
    }

    /// `$name(...)`, `$name` read (at `at`).
    fn system_function(&mut self, f: &str, at: Span, tight: bool) -> Result<Node, ParseError> {
        let known = matches!(
            f,
            "$past"
                | "$rose"
                | "$fell"
                | "$stable"
                | "$changed"
                | "$sampled"
                | "$onehot"
                | "$onehot0"
                | "$countones"
                | "$isunknown"
        );
        if !known {
            let section = match f {
                "$past_gclk" | "$rose_gclk" | "$fell_gclk" | "$stable_gclk" | "$changed_gclk"
                | "$future_gclk" | "$rising_gclk" | "$falling_gclk" | "$steady_gclk"
                | "$changing_gclk" | "$global_clock" => {
                    " (global clocking, IEEE 1800-2017 §16.9.4: a second clock)"
                }
                _ => "",
            };
            return Err(self.unsupported(
                at,
                format!("the system function `{f}` is not supported{section}"),
            ));
        }
        let open = self.expect_sym("(", "`(`")?;
        let mut unknown = None;
        let node = match f {
            "$onehot" | "$onehot0" | "$countones" | "$isunknown" => {
                let arg = self.cur.peek().span;
                let bits = if f != "$isunknown" && !self.is_sym("{") {
                    // `$onehot(grant)` is about the bits of a vector.
                    match self.vector_argument()? {
                        Some((v, _)) => v.bits,
                        None if self.at_signal() => {
                            let (text, span, _) = self.signal_select()?;
                            return Err(self.width_unknown(span, &text));
                        }
                        None => {
                            let t = self.cur.peek().clone();
                            return Err(self.unsupported(
                                t.span,
                                format!(
                                    "`{f}` counts the bits of a vector: a signal, a select or a \
                                     concatenation, `{f}({{a, b, c}})`"
                                ),
                            ));
                        }
                    }
                } else if f == "$isunknown" {
                    self.vectors_as_signals = true;
                    let bits = self.bits(f);
                    self.vectors_as_signals = false;
                    bits?
                } else {
                    self.bits(f)?
                };
                self.close_call(f, open.span)?;
                let b = match f {
                    "$isunknown" => {
                        // An atom of each signal, which the trace checker
                        // and Verilog read on x and z values.
                        let mut unknown = Vec::with_capacity(bits.len());
                        for b in &bits {
                            let name = b.ap_name().filter(|n| {
                                matches!(
                                    crate::formula::atom::Atom::parse(n),
                                    Some(crate::formula::atom::Atom::Signal(_))
                                )
                            });
                            let Some(name) = name else {
                                return Err(self.unsupported(
                                    self.span_from(arg),
                                    "`$isunknown` reads signals (`$isunknown(v)`, \
                                     `$isunknown({a, b[2]})`): an expression's unknown bits depend \
                                     on its operators",
                                ));
                            };
                            unknown.push(Formula::ap(&format!("$isunknown({name})")));
                        }
                        Formula::or(unknown)
                    }
                    "$onehot" => exactly(&bits, 1),
                    "$onehot0" => Formula::not(at_least(&bits, 2)),
                    _ => self.countones_comparison(&bits)?,
                };
                return Ok(Node::Bool(b));
            }
            _ => {
                if let Some((v, span)) = self.vector_argument()? {
                    return self.sampled_vector(f, v, span, open.span, tight);
                }
                let arg = self.cur.peek().span;
                let e = self.bit_argument(f)?;
                let arg = self.span_from(arg);
                // `$past(v) == w` compares values: the width of `v` is
                // needed (as a 1-bit signal it would compare nonzero).
                if let Some(name) = e.ap_name().filter(|n| {
                    matches!(f, "$past" | "$sampled")
                        && !tight
                        && matches!(
                            crate::formula::atom::Atom::parse(n),
                            Some(crate::formula::atom::Atom::Signal(_))
                        )
                }) {
                    unknown = Some((name.to_string(), arg));
                }
                if f == "$past" && self.is_sym(",") {
                    let n = self.past_ticks()?;
                    (0..n).fold(e, |g, _| Formula::yesterday(g))
                } else {
                    if self.is_sym(",") {
                        let c = self.cur.peek().span;
                        return Err(self.unsupported(
                            c,
                            format!("`{f}` with a clocking event is not supported (a second clock, IEEE 1800-2017 §16.9.3)"),
                        ));
                    }
                    // Before the first tick the sampled value is the
                    // default, 0: `Y` is false at the first position.
                    let y = Formula::yesterday(e.clone());
                    match f {
                        "$past" => y,
                        "$rose" => Formula::and([e, Formula::not(y)]),
                        "$fell" => Formula::and([Formula::not(e), y]),
                        "$stable" => Formula::equiv(e, y),
                        "$changed" => Formula::xor(e, y),
                        _ => e, // $sampled
                    }
                }
            }
        };
        self.close_call(f, open.span)?;
        if let Some((name, arg)) = unknown {
            if matches!(
                self.cur.peek().kind,
                T::Sym("==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=")
            ) {
                return Err(self.width_unknown(arg, &name));
            }
        }
        Ok(Node::Bool(node))
    }

    /// A sampled-value function `f` of the vector `v` (at `span`), after
    /// its argument: `$past` and `$sampled` give a vector (compared, or
    /// nonzero), `$rose` and `$fell` read its least significant bit,
    /// `$stable` and `$changed` every bit (IEEE 1800-2017 §16.9.3).
    fn sampled_vector(
        &mut self,
        f: &str,
        v: Vector,
        span: Span,
        open: Span,
        tight: bool,
    ) -> Result<Node, ParseError> {
        let n = self.sampled_ticks(f, &v, span, open)?;
        Ok(Node::Bool(match f {
            "$past" | "$sampled" => self.vector_comparison(past(v, n), tight)?,
            _ => sampled_change(f, &v),
        }))
    }

    /// After the argument `v` (at `span`) of the sampled-value function
    /// `f` opened at `open`: the number of ticks of `$past` (0 for the
    /// others) and `)`; a value wider than a monitor remembers, and a
    /// clocking event, are refused.
    fn sampled_ticks(
        &mut self,
        f: &str,
        v: &Vector,
        span: Span,
        open: Span,
    ) -> Result<u32, ParseError> {
        let remembered = match f {
            "$sampled" => 0,
            "$rose" | "$fell" => 1,
            _ => v.bits.len(),
        };
        if remembered > MAX_PAST_BITS {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "`{f}` of {} bits: a monitor remembers every bit of its past value (at most \
                     {MAX_PAST_BITS} here)",
                    v.bits.len()
                )),
            ));
        }
        let n = if f == "$past" {
            self.past_ticks()?
        } else {
            if self.is_sym(",") {
                let c = self.cur.peek().span;
                return Err(self.unsupported(
                    c,
                    format!("`{f}` with a clocking event is not supported (a second clock, IEEE 1800-2017 §16.9.3)"),
                ));
            }
            0
        };
        self.close_call(f, open)?;
        Ok(n)
    }

    fn close_call(&mut self, f: &str, open: Span) -> Result<(), ParseError> {
        if self.is_sym(")") {
            self.cur.next();
            return Ok(());
        }
        if self.cur.peek().kind == T::End {
            return Err(self.cur.error(open, ParseErrorKind::UnclosedParenthesis));
        }
        let t = self.cur.peek().clone();
        let _ = f;
        Err(self.unexpected(&t, "`)`"))
    }

    /// The bits of `$onehot(...)` and its kin: a concatenation `{a, b,
    /// c}` of 1-bit expressions, or one.
    fn bits(&mut self, f: &str) -> Result<Vec<Formula>, ParseError> {
        if !self.is_sym("{") {
            return Ok(vec![self.bit_argument(f)?]);
        }
        let open = self.cur.next();
        let mut bits = Vec::new();
        loop {
            if self.is_sym("{") || matches!(self.cur.peek2().kind, T::Sym("{")) {
                let t = self.cur.peek().clone();
                return Err(self.unsupported(
                    t.span,
                    "nested and replicated concatenations are not supported",
                ));
            }
            match self.bits_item(f)? {
                Some(v) => bits.extend(v),
                None => bits.push(self.bit_argument(f)?),
            }
            if bits.len() > MAX_BITS {
                return Err(self.cur.error(
                    self.span_from(open.span),
                    ParseErrorKind::Bound(format!("`{f}` of more than {MAX_BITS} bits")),
                ));
            }
            if self.is_sym(",") {
                self.cur.next();
                continue;
            }
            self.expect_sym("}", "`,` or `}`")?;
            return Ok(bits);
        }
    }

    /// An item of the concatenation of `$onehot({...})` and its kin that
    /// is a signal alone: its bits when its width is known (or it is a
    /// part-select), itself otherwise (a 1-bit signal). `None` (nothing
    /// read) for another item, and for every item of `$isunknown` (whose
    /// atoms are the signals).
    fn bits_item(&mut self, f: &str) -> Result<Option<Vec<Formula>>, ParseError> {
        if f == "$isunknown" || !self.at_signal() {
            return Ok(None);
        }
        let pos = self.cur.pos;
        let (text, span, dynamic) = self.signal_select()?;
        if !(self.is_sym(",") || self.is_sym("}")) {
            self.cur.seek(pos);
            return Ok(None);
        }
        if let Some(bit) = dynamic {
            return Ok(Some(vec![bit]));
        }
        Ok(Some(match self.signal_vector(&text, span)? {
            Some(v) => v.bits,
            None => vec![Formula::ap(&text)],
        }))
    }

    /// What follows `$countones(...)`: a comparison with a number, or
    /// nothing (then it is true when some bit is set).
    fn countones_comparison(&mut self, bits: &[Formula]) -> Result<Formula, ParseError> {
        let op = match self.cur.peek().kind {
            T::Sym(s @ ("==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=")) => s,
            _ => return Ok(at_least(bits, 1)),
        };
        self.cur.next();
        // Counts beyond the number of bits are capped (the answer is the
        // same), so that the formulas stay small.
        let k = (self.number()? as usize).min(bits.len() + 1);
        Ok(match op {
            "==" | "===" => exactly(bits, k),
            "!=" | "!==" => Formula::not(exactly(bits, k)),
            "<" => Formula::not(at_least(bits, k)),
            "<=" => Formula::not(at_least(bits, k + 1)),
            ">" => at_least(bits, k + 1),
            _ => at_least(bits, k),
        })
    }

    // ---- numbers and ranges -------------------------------------------

    /// A number (also in parentheses, as a substituted argument is).
    pub(super) fn number(&mut self) -> Result<u32, ParseError> {
        if self.is_sym("(") && matches!(self.cur.peek2().kind, T::Num(_)) {
            let pos = self.cur.pos;
            self.cur.next();
            let n = self.number()?;
            if self.is_sym(")") {
                self.cur.next();
                return Ok(n);
            }
            self.cur.seek(pos);
        }
        let t = self.cur.next();
        match t.kind {
            T::Num(n) if n <= u64::from(MAX_BOUND) => Ok(n as u32),
            T::Num(_) => Err(self.cur.error(
                t.span,
                ParseErrorKind::Bound(format!("bound larger than {MAX_BOUND}")),
            )),
            _ => Err(self.unexpected(&t, "a number")),
        }
    }

    /// `m:n`, `m:$` (when `unbounded_ok`) or `n`.
    fn range_body(
        &mut self,
        unbounded_ok: bool,
        at: Span,
    ) -> Result<(u32, Option<u32>), ParseError> {
        let lo = self.number()?;
        if !self.is_sym(":") {
            return Ok((lo, Some(lo)));
        }
        self.cur.next();
        let hi = if self.is_sym("$") {
            let t = self.cur.next();
            if !unbounded_ok {
                return Err(self.cur.error(
                    t.span,
                    ParseErrorKind::Bound("this range must have a finite upper bound".into()),
                ));
            }
            None
        } else {
            Some(self.number()?)
        };
        if let Some(hi) = hi {
            if hi < lo {
                let end = self.cur.last_span().end;
                return Err(self.cur.error(
                    Span {
                        start: at.start,
                        end,
                    },
                    ParseErrorKind::Bound(format!("empty range: {hi} < {lo}")),
                ));
            }
        }
        Ok((lo, hi))
    }

    // ---- declarations ---------------------------------------------------

    /// The actual arguments of an instance, from its `(` to its `)`
    /// (§16.8.1, §11.12): positional ones first (empty where omitted, `s(a,
    /// , c)`), then named ones, `.x(a)` (empty in `.x()`), with where each
    /// name is. A positional argument after a named one is refused.
    #[allow(clippy::type_complexity)]
    fn actuals(
        &mut self,
    ) -> Result<
        (
            Vec<Option<Vec<Token>>>,
            Vec<(String, Span, Option<Vec<Token>>)>,
        ),
        ParseError,
    > {
        let open = self.cur.next();
        let mut positional = Vec::new();
        let mut named: Vec<(String, Span, Option<Vec<Token>>)> = Vec::new();
        if self.is_sym(")") {
            self.cur.next();
            return Ok((positional, named));
        }
        loop {
            if self.is_sym(".") {
                self.cur.next();
                let t = self.cur.next();
                let formal = match &t.kind {
                    T::Word(w)
                        if !KEYWORDS.contains(&w.as_str())
                            && !w.starts_with('$')
                            && !w.contains('.') =>
                    {
                        w.clone()
                    }
                    _ => return Err(self.unexpected(&t, "the name of a formal argument after `.`")),
                };
                if named.iter().any(|(n, _, _)| *n == formal) {
                    return Err(self.unsupported(
                        t.span,
                        format!("`{formal}` is named twice (IEEE 1800-2017 §16.8.1)"),
                    ));
                }
                let paren = self.expect_sym(
                    "(",
                    "`(` and the argument (`.x(a)`, or `.x()` for its default)",
                )?;
                let a = self.argument(&paren)?;
                self.expect_sym(")", "`)` (a named argument holds one actual)")?;
                named.push((formal, t.span, a));
            } else {
                if !named.is_empty() {
                    let t = self.cur.peek().clone();
                    return Err(self.unsupported(
                        t.span,
                        "a positional argument after a named one: give the positional \
                         arguments first, then `.name(actual)` (IEEE 1800-2017 §16.8.1)",
                    ));
                }
                positional.push(self.argument(&open)?);
            }
            let t = self.cur.next();
            match t.kind {
                T::Sym(",") => continue,
                T::Sym(")") => return Ok((positional, named)),
                T::End => {
                    return Err(self
                        .cur
                        .error(open.span, ParseErrorKind::UnclosedParenthesis));
                }
                _ => return Err(self.unexpected(&t, "`,` or `)`")),
            }
        }
    }

    /// The tokens of one actual argument, up to the `,` or `)` that ends
    /// it (left to read), `None` if it is empty.
    fn argument(&mut self, open: &Token) -> Result<Option<Vec<Token>>, ParseError> {
        let mut toks = Vec::new();
        let mut depth = 0usize;
        loop {
            let t = self.cur.peek().clone();
            match t.kind {
                T::End => {
                    return Err(self
                        .cur
                        .error(open.span, ParseErrorKind::UnclosedParenthesis));
                }
                T::Sym(")") if depth == 0 => break,
                T::Sym(",") if depth == 0 => break,
                T::Sym("(")
                | T::Sym("[")
                | T::Sym("{")
                | T::Sym("[*")
                | T::Sym("[=")
                | T::Sym("[->") => depth += 1,
                T::Sym(")") | T::Sym("]") | T::Sym("}") => depth = depth.saturating_sub(1),
                _ => {}
            }
            toks.push(self.cur.next());
        }
        Ok((!toks.is_empty()).then_some(toks))
    }

    /// `NAME(actuals)` of a declared sequence, property or `let`, `NAME`
    /// read (at `at`): its body, with each formal replaced by its actual
    /// in parentheses, read in place.
    fn instance(&mut self, name: String, at: Span) -> Result<Node, ParseError> {
        let decl = self.decls[&name].clone();
        if self.expanding.contains(&name) {
            return Err(self.unsupported(
                at,
                format!("`{name}` is used in its own declaration: recursive properties are not supported (IEEE 1800-2017 §16.12.17)"),
            ));
        }
        let (positional, named) = if self.is_sym("(") {
            self.actuals()?
        } else {
            (Vec::new(), Vec::new())
        };
        let span = self.span_from(at);
        if positional.len() > decl.formals.len() {
            return Err(self.unsupported(
                span,
                format!(
                    "`{name}` takes {} argument(s), {} given",
                    decl.formals.len(),
                    positional.len()
                ),
            ));
        }
        // Each formal's actual: by position, by name, or its default
        // (§16.8.1: an omitted argument, `s(a, , c)` or `.y()`, takes the
        // default).
        let mut given: Vec<Option<Option<Vec<Token>>>> = vec![None; decl.formals.len()];
        for (i, a) in positional.into_iter().enumerate() {
            given[i] = Some(a);
        }
        for (formal, at_name, a) in named {
            let Some(i) = decl.formals.iter().position(|f| f.name == formal) else {
                let formals = decl
                    .formals
                    .iter()
                    .map(|f| format!("`{}`", f.name))
                    .collect::<Vec<_>>();
                return Err(self.unsupported(
                    at_name,
                    format!(
                        "`{name}` has no formal argument `{formal}` ({})",
                        if formals.is_empty() {
                            "it has none".to_string()
                        } else {
                            format!("its formal arguments: {}", formals.join(", "))
                        }
                    ),
                ));
            };
            if given[i].is_some() {
                return Err(self.unsupported(
                    at_name,
                    format!(
                        "`{formal}` is given twice: an argument is bound once, by position or \
                         by name (IEEE 1800-2017 §16.8.1)"
                    ),
                ));
            }
            given[i] = Some(a);
        }
        let mut subst: HashMap<&str, Vec<Token>> = HashMap::new();
        for (formal, actual) in decl.formals.iter().zip(given) {
            match actual.flatten().or_else(|| formal.default.clone()) {
                Some(a) => {
                    subst.insert(formal.name.as_str(), a);
                }
                None => {
                    return Err(self.unsupported(
                        span,
                        format!(
                            "`{name}` needs its argument `{}` (it has no default)",
                            formal.name
                        ),
                    ));
                }
            }
        }
        let mut body = Vec::with_capacity(decl.body.len() + 1);
        for t in &decl.body {
            match &t.kind {
                // One token (a name, a number) goes in as it is, so that
                // it can be a bit-select's index (`req[i]` with `i` = 0);
                // longer actuals in parentheses, to keep their grouping.
                T::Word(w) if subst.get(w.as_str()).is_some_and(|a| a.len() == 1) => {
                    body.extend(subst[w.as_str()].iter().cloned());
                }
                T::Word(w) if subst.contains_key(w.as_str()) => {
                    body.push(Token {
                        kind: T::Sym("("),
                        span: t.span,
                    });
                    body.extend(subst[w.as_str()].iter().cloned());
                    body.push(Token {
                        kind: T::Sym(")"),
                        span: t.span,
                    });
                }
                _ => body.push(t.clone()),
            }
        }
        self.expanded += body.len();
        if self.expanded > MAX_EXPANSION {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "the named sequences and properties expand to more than {MAX_EXPANSION} tokens"
                )),
            ));
        }
        body.push(Token { kind: T::End, span });
        // Each instance nests the parse one level deeper.
        self.cur.enter(at)?;
        // Read the body in place of the instance.
        let saved = std::mem::replace(&mut self.cur.tokens, body);
        let saved_pos = self.cur.pos;
        self.cur.pos = 0;
        self.expanding.push(name.clone());
        // The body may start with its clock (and a property's with its
        // `disable iff`): leading if nothing came before the instance,
        // so `started` stays as it is.
        let r = self.property();
        self.cur.leave();
        let end = self.cur.peek().clone();
        self.expanding.pop();
        self.cur.tokens = saved;
        self.cur.pos = saved_pos;
        self.started = true;
        let n = r?;
        if end.kind != T::End || end.span != span {
            return Err(self.unsupported(
                end.span,
                format!(
                    "unexpected text in the body of `{name}`: expected the end of the {}",
                    decl.kind.word()
                ),
            ));
        }
        match (decl.kind, n) {
            (DeclKind::Let, n @ Node::Bool(_)) => Ok(n),
            (DeclKind::Let, _) => Err(self.unsupported(
                span,
                format!(
                    "`let {name}` is a Boolean expression; its body is a sequence or a property"
                ),
            )),
            (DeclKind::Sequence, Node::Prop(_)) => Err(self.unsupported(
                span,
                format!("`sequence {name}` holds a property: declare it with `property`"),
            )),
            (DeclKind::Sequence, n @ Node::Bool(_)) => Ok(Node::Seq(match n {
                Node::Bool(b) => b,
                _ => unreachable!(),
            })),
            (_, n) => Ok(n),
        }
    }

    /// The declarations at the start of the text: `sequence`, `property`,
    /// `let`, and (in directives) `default clocking` and `default disable
    /// iff`.
    pub(super) fn declarations(&mut self) -> Result<(), ParseError> {
        loop {
            let t = self.cur.peek().clone();
            let T::Word(w) = &t.kind else { return Ok(()) };
            match w.as_str() {
                "sequence" | "property" => {
                    // `cover sequence (...)` is a directive, not this.
                    if matches!(self.cur.peek2().kind, T::Sym("(")) {
                        return Ok(());
                    }
                    self.cur.next();
                    let kind = if w == "sequence" { DeclKind::Sequence } else { DeclKind::Property };
                    self.declaration(kind, t.span)?;
                }
                "let" => {
                    self.cur.next();
                    self.declaration(DeclKind::Let, t.span)?;
                }
                "default" => {
                    self.cur.next();
                    self.default_item(t.span)?;
                }
                "clocking" => {
                    return Err(self.unsupported(
                        t.span,
                        "a named clocking block is not read: write `default clocking @(posedge clk); endclocking`",
                    ))
                }
                _ => return Ok(()),
            }
        }
    }

    fn declaration(&mut self, kind: DeclKind, at: Span) -> Result<(), ParseError> {
        let name_t = self.cur.next();
        let name = match &name_t.kind {
            T::Word(w)
                if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') && !w.contains('.') =>
            {
                w.clone()
            }
            _ => return Err(self.unexpected(&name_t, "the name of the declaration")),
        };
        if self.decls.contains_key(&name) {
            return Err(self.unsupported(name_t.span, format!("`{name}` is declared twice")));
        }
        let mut formals = Vec::new();
        if self.is_sym("(") {
            self.cur.next();
            if self.is_sym(")") {
                self.cur.next();
            } else {
                loop {
                    formals.push(self.formal()?);
                    if self.is_sym(",") {
                        self.cur.next();
                        continue;
                    }
                    self.expect_sym(")", "`,` or `)`")?;
                    break;
                }
            }
        }
        let body = if kind == DeclKind::Let {
            self.expect_sym("=", "`=`")?;
            let mut body = Vec::new();
            loop {
                let t = self.cur.next();
                match t.kind {
                    T::Sym(";") => break,
                    T::End => return Err(self.unsupported(at, "this `let` has no `;`")),
                    _ => body.push(t),
                }
            }
            body
        } else {
            self.expect_sym(";", "`;`")?;
            let end = if kind == DeclKind::Sequence {
                "endsequence"
            } else {
                "endproperty"
            };
            // A local variable declaration starts the body: `int x;`.
            if let T::Word(w) = &self.cur.peek().kind {
                if VARIABLE_TYPES.contains(&w.as_str()) {
                    let t = self.cur.peek().clone();
                    return Err(self.unsupported(
                        t.span,
                        format!("`{w}` declares a local variable: local variables are not supported (IEEE 1800-2017 §16.10)"),
                    ));
                }
            }
            let mut body = Vec::new();
            loop {
                let t = self.cur.next();
                match &t.kind {
                    T::Word(w) if w == end => break,
                    T::Word(w) if w == "endsequence" || w == "endproperty" => {
                        return Err(self.unexpected(
                            &t,
                            if kind == DeclKind::Sequence {
                                "`endsequence`"
                            } else {
                                "`endproperty`"
                            },
                        ));
                    }
                    T::End => {
                        return Err(
                            self.unsupported(at, format!("this `{}` has no `{end}`", kind.word()))
                        );
                    }
                    _ => body.push(t),
                }
            }
            if matches!(body.last(), Some(t) if t.kind == T::Sym(";")) {
                body.pop();
            }
            if body.is_empty() {
                return Err(self.unsupported(at, format!("`{name}` has an empty body")));
            }
            if self.is_sym(":") {
                self.cur.next();
                let label = self.cur.next();
                if label.kind != T::Word(name.clone()) {
                    return Err(self.unexpected(&label, "the name of the declaration"));
                }
            }
            body
        };
        self.decls.insert(
            name,
            Decl {
                kind,
                formals,
                body,
            },
        );
        Ok(())
    }

    /// A formal argument: `[type] name [= default]`.
    fn formal(&mut self) -> Result<Formal, ParseError> {
        let mut t = self.cur.next();
        if let T::Word(w) = &t.kind {
            if w == "local" {
                return Err(self.unsupported(
                    t.span,
                    "local formal arguments are not supported (IEEE 1800-2017 §16.10)",
                ));
            }
            let typed = matches!(
                w.as_str(),
                "untyped"
                    | "sequence"
                    | "property"
                    | "bit"
                    | "logic"
                    | "int"
                    | "integer"
                    | "shortint"
                    | "longint"
                    | "byte"
            );
            if typed && matches!(self.cur.peek().kind, T::Word(_) | T::Sym("[")) {
                // Packed dimensions: `bit [3:0] x` (substituted as text).
                while self.is_sym("[") {
                    while !self.is_sym("]") {
                        if self.cur.peek().kind == T::End {
                            let e = self.cur.peek().clone();
                            return Err(self.unexpected(&e, "`]`"));
                        }
                        self.cur.next();
                    }
                    self.cur.next();
                }
                t = self.cur.next();
            }
        }
        let name = match &t.kind {
            T::Word(w)
                if !KEYWORDS.contains(&w.as_str()) && !w.starts_with('$') && !w.contains('.') =>
            {
                w.clone()
            }
            _ => return Err(self.unexpected(&t, "the name of a formal argument")),
        };
        let default = if self.is_sym("=") {
            self.cur.next();
            let mut toks = Vec::new();
            let mut depth = 0usize;
            loop {
                let t = self.cur.peek().clone();
                match t.kind {
                    T::End => break,
                    T::Sym(",") | T::Sym(")") if depth == 0 => break,
                    T::Sym("(")
                    | T::Sym("[")
                    | T::Sym("{")
                    | T::Sym("[*")
                    | T::Sym("[=")
                    | T::Sym("[->") => depth += 1,
                    T::Sym(")") | T::Sym("]") | T::Sym("}") => depth -= 1,
                    _ => {}
                }
                toks.push(self.cur.next());
            }
            if toks.is_empty() {
                let t = self.cur.peek().clone();
                return Err(self.unexpected(&t, "a default argument"));
            }
            Some(toks)
        } else {
            None
        };
        Ok(Formal { name, default })
    }

    /// After `default`: `clocking [NAME] @(...); endclocking [: NAME]`
    /// or `disable iff (b);`.
    fn default_item(&mut self, at: Span) -> Result<(), ParseError> {
        if !self.directive {
            return Err(self.unsupported(
                at,
                "`default` clocking and reset belong to assertions: read them with `parse_sva_directive`",
            ));
        }
        let t = self.cur.next();
        match &t.kind {
            T::Word(w) if w == "clocking" => {
                if matches!(&self.cur.peek().kind, T::Word(_)) {
                    self.cur.next();
                }
                let at_t = self.expect_sym("@", "`@` and the clock")?;
                let (clock, span) = self.clock_after_at(at_t.span)?;
                self.expect_sym(";", "`;`")?;
                if !self.is_word("endclocking") {
                    let u = self.cur.peek().clone();
                    return Err(self.unsupported(
                        u.span,
                        "a clocking block with items is not read: write `default clocking @(posedge clk); endclocking`",
                    ));
                }
                self.cur.next();
                if self.is_sym(":") {
                    self.cur.next();
                    self.cur.next();
                }
                if self.default_clock.is_some() {
                    return Err(self.unsupported(span, "a second `default clocking`"));
                }
                self.default_clock = Some((clock, span));
                Ok(())
            }
            T::Word(w) if w == "disable" => {
                if !self.is_word("iff") {
                    let u = self.cur.peek().clone();
                    return Err(self.unexpected(&u, "`iff`"));
                }
                self.cur.next();
                self.expect_sym("(", "`(`")?;
                let s = self.cur.peek().span;
                let b = self.property()?;
                let b = self.to_bool(b, self.span_from(s), "`default disable iff`")?;
                self.expect_sym(")", "`)`")?;
                self.expect_sym(";", "`;`")?;
                if self.default_disable.is_some() {
                    return Err(self.unsupported(at, "a second `default disable iff`"));
                }
                self.default_disable = Some(b);
                self.started = false;
                Ok(())
            }
            _ => Err(self.unexpected(&t, "`clocking` or `disable iff`")),
        }
    }
}

/// A Boolean operator in a message, with the operator to write between
/// sequences or properties.
fn operator_name(op: &str) -> String {
    match op {
        "||" | "|" => format!("`{op}` (between sequences or properties, write `or`)"),
        "&&" | "&" => format!("`{op}` (between sequences or properties, write `and`)"),
        _ => format!("`{op}`"),
    }
}

/// `a ##[lo:hi] b` (Annex F: `##0` is fusion, `##n` for n > 0 is
/// concatenation with n - 1 letters between).
fn delay(a: Formula, lo: u32, hi: Option<u32>, b: Formula) -> Formula {
    let gap = |lo: u32, hi: Option<u32>| Formula::star(Formula::tt(), lo, hi);
    if lo > 0 {
        return Formula::concat([a, gap(lo - 1, hi.map(|h| h - 1)), b]);
    }
    let fused = Formula::fusion([a.clone(), b.clone()]);
    match hi {
        Some(0) => fused,
        _ => Formula::sere_or([fused, Formula::concat([a, gap(0, hi.map(|h| h - 1)), b])]),
    }
}

/// At least `k` of `bits` hold (a formula of size `O(n k)`, shared).
fn at_least(bits: &[Formula], k: usize) -> Formula {
    if k == 0 {
        return Formula::tt();
    }
    if k > bits.len() {
        return Formula::ff();
    }
    // row[j] = at least j of bits[i..]
    let n = bits.len();
    let mut row: Vec<Formula> = (0..=k).map(|j| Formula::constant(j == 0)).collect();
    for i in (0..n).rev() {
        let mut next = row.clone();
        for j in 1..=k {
            next[j] = Formula::or([
                Formula::and([bits[i].clone(), row[j - 1].clone()]),
                row[j].clone(),
            ]);
        }
        row = next;
    }
    row[k].clone()
}

/// Exactly `k` of `bits` hold.
fn exactly(bits: &[Formula], k: usize) -> Formula {
    Formula::and([at_least(bits, k), Formula::not(at_least(bits, k + 1))])
}

/// Why a signal of a type of unknown width ([`Signals::opaque`]) is
/// refused.
///
/// [`Signals::opaque`]: super::Signals::opaque
pub(crate) fn opaque_message(name: &str) -> String {
    format!(
        "`{name}` is declared with a type whose width mongen does not compute (a range of a \
         parameter without a value, a struct or union, more than one packed dimension, an unpacked array, a type of a package or an \
         interface): a checker's port and the bits that sampled-value functions compare would \
         be wrong; declare it as a packed vector (`logic [W-1:0] {name}`) or assert on a \
         vector that holds it"
    )
}
