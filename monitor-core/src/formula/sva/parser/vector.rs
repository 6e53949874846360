//! Vector expressions in SVA Boolean expressions: Verilog's arithmetic,
//! bitwise, shift and conditional operators on vectors (`cnt + 1 > 3`,
//! `(v & w) != 0`, `q == $past(q) + 1`), lowered bit by bit.
//!
//! A Boolean expression is read here when it computes a vector value
//! (see [`Parser::vector_expression_ahead`]); the rest of the parser reads
//! 1-bit expressions and keeps comparisons of a signal as propositions
//! (`cnt == 3`). An expression is first read into a [`VExpr`] tree, then
//! sized as IEEE 1800-2017 §11.6 and §11.8 size it: the operands of an
//! arithmetic, bitwise or conditional operator and of a comparison take
//! the width of the widest of them (an unsized number is 32 bits wide and
//! signed), the operation is signed only when every operand is, and an
//! operand is sign-extended only in a signed operation; the right operand
//! of a shift, the operands of `!`, `&&`, `||`, reductions and
//! concatenations are sized by themselves. Each bit of the value is then a
//! Boolean formula of the signals' bits (a ripple-carry adder, shift-and-add
//! products, a barrel shifter, long division by a constant), so every back
//! end, the trace checker and the reference evaluators read the same
//! propositions they read today: single bits (`cnt[2]`) and, for
//! `$past(q)`, their past values.
//!
//! Division and modulo are by a nonzero constant (a division by zero is
//! `x` in Verilog, which a two-valued monitor cannot follow); `**` is
//! refused. The widths an operation may reach are bounded
//! ([`MAX_ARITHMETIC_BITS`]): each bit's formula grows with the width.

use crate::formula::cursor::Span;
use crate::formula::parse::{ParseError, ParseErrorKind};
use crate::formula::psl::T;
use crate::formula::{Formula, Op};

use super::{
    compare_vectors, literal_vector, number_vector, past, sampled_change, xor, Node, Parser,
    Vector, KEYWORDS, MAX_BITS,
};

/// The widest operation (in bits) a vector expression may compute: the
/// formula of each bit of a sum grows with the bits below it, of a
/// product with their square.
pub(super) const MAX_ARITHMETIC_BITS: usize = 128;

/// The bit operations the vector expressions of a property may cost
/// (an operation on `w` bits costs `w`, a product or a quotient `w²`, `w`
/// at least 32, the width of an unsized number): the formulas, and the
/// monitor's construction, grow with them.
const MAX_VECTOR_COST: usize = 250_000;

/// An operand of a vector expression as written.
#[derive(Clone, Debug)]
enum Leaf {
    /// A signal or a select of one (`v`, `v[3:0]`), as written, with its
    /// bits when its width is declared.
    Signal { text: String, bits: Option<Vector> },
    /// An unsized decimal number: 32 bits, signed (§5.7.1).
    Number(u64),
    /// `'0` or `'1`: every bit of the context's width (§5.7.1).
    Fill(bool),
    /// A value computed: a comparison, a reduction, `$past(...)`, a
    /// concatenation.
    Value(Vector),
    /// `$past(s)` of a signal `s` whose width is not declared: one bit as
    /// a condition, and refused where its width matters.
    PastUndeclared { name: String, value: Vector },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unary {
    Plus,
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Binary {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Xnor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shift {
    Left,
    Right,
    ArithmeticRight,
}

/// A vector expression before it is sized.
#[derive(Clone, Debug)]
enum VExpr {
    Leaf(Leaf, Span),
    Unary(Unary, Box<VExpr>),
    Binary(Binary, Box<VExpr>, Box<VExpr>),
    Shift(Shift, Box<VExpr>, Box<VExpr>),
    Cond(Formula, Box<VExpr>, Box<VExpr>),
}

/// Why an expression cannot be lowered: where, and what to say.
struct Refusal(Span, String);

impl VExpr {
    fn value(bits: Vec<Formula>, signed: bool, span: Span) -> VExpr {
        VExpr::Leaf(Leaf::Value(Vector::of(bits, signed)), span)
    }

    fn bit(f: Formula, span: Span) -> VExpr {
        VExpr::value(vec![f], false, span)
    }

    /// The width the expression has by itself (§11.6.1, Table 11-21). A
    /// signal whose width is not declared is one bit here: only the
    /// bitwise operators reach it (the others refuse it, see
    /// [`VExpr::undeclared`]).
    fn width(&self) -> usize {
        match self {
            VExpr::Leaf(l, _) => match l {
                Leaf::Signal { bits, .. } => bits.as_ref().map_or(1, |v| v.bits.len()),
                Leaf::Number(n) => number_vector(*n).bits.len(),
                Leaf::Value(value) | Leaf::PastUndeclared { value, .. } => value.bits.len(),
                Leaf::Fill(_) => 1,
            },
            VExpr::Unary(_, e) => e.width(),
            VExpr::Binary(_, a, b) | VExpr::Cond(_, a, b) => a.width().max(b.width()),
            VExpr::Shift(_, a, _) => a.width(),
        }
    }

    /// Whether the expression is signed by itself (§11.8.1).
    fn signed(&self) -> bool {
        match self {
            VExpr::Leaf(l, _) => match l {
                Leaf::Signal { bits, .. } => bits.as_ref().is_some_and(|v| v.signed),
                Leaf::Number(_) => true,
                Leaf::Value(value) | Leaf::PastUndeclared { value, .. } => value.signed,
                Leaf::Fill(_) => false,
            },
            VExpr::Unary(_, e) => e.signed(),
            VExpr::Binary(_, a, b) | VExpr::Cond(_, a, b) => a.signed() && b.signed(),
            VExpr::Shift(_, a, _) => a.signed(),
        }
    }

    /// A signal in `self` whose width is not declared, where its width
    /// matters (all but the operands of bitwise operators, which a 1-bit
    /// Boolean may be).
    fn undeclared(&self) -> Option<(&str, Span)> {
        match self {
            VExpr::Leaf(Leaf::Signal { text, bits: None }, span) => Some((text, *span)),
            VExpr::Leaf(Leaf::PastUndeclared { name, .. }, span) => Some((name, *span)),
            VExpr::Leaf(..) => None,
            VExpr::Unary(_, e) => e.undeclared(),
            VExpr::Binary(_, a, b) | VExpr::Cond(_, a, b) | VExpr::Shift(_, a, b) => {
                a.undeclared().or_else(|| b.undeclared())
            }
        }
    }

    /// Whether `self` is a signal written alone whose width is declared
    /// as more than one bit (its truth is the proposition `v != 0`).
    fn wide_signal(&self) -> Option<&str> {
        match self {
            VExpr::Leaf(
                Leaf::Signal {
                    text,
                    bits: Some(v),
                },
                _,
            ) if v.bits.len() > 1 => Some(text),
            _ => None,
        }
    }

    /// The bits of the value at width `w` in an operation signed when
    /// `signed` (§11.8.2: the operands are converted to the operation's
    /// width and signedness before it computes).
    fn bits(&self, w: usize, signed: bool) -> Result<Vec<Formula>, Refusal> {
        Ok(match self {
            VExpr::Leaf(l, _) => {
                let v = match l {
                    Leaf::Signal { bits: Some(v), .. } => v.clone(),
                    Leaf::Signal { text, bits: None } => Vector::of(vec![Formula::ap(text)], false),
                    Leaf::Number(n) => number_vector(*n),
                    Leaf::Value(value) | Leaf::PastUndeclared { value, .. } => value.clone(),
                    Leaf::Fill(b) => Vector {
                        bits: Vec::new(),
                        signed: false,
                        fill: Some(*b),
                    },
                };
                let mut bits = v.extended(w, signed);
                bits.truncate(w);
                bits
            }
            VExpr::Unary(op, e) => {
                let x = e.bits(w, signed)?;
                match op {
                    Unary::Plus => x,
                    Unary::Not => x.into_iter().map(not).collect(),
                    Unary::Neg => negate(&x),
                }
            }
            VExpr::Binary(op, a, b) => {
                let x = a.bits(w, signed)?;
                let y = b.bits(w, signed)?;
                let pairs = || x.iter().cloned().zip(y.iter().cloned());
                match op {
                    Binary::Add => add(&x, &y, Formula::ff()),
                    Binary::Sub => {
                        let ny: Vec<Formula> = y.iter().cloned().map(not).collect();
                        add(&x, &ny, Formula::tt())
                    }
                    Binary::Mul => multiply(&x, &y),
                    Binary::Div | Binary::Mod => {
                        let span = b.span();
                        let Some(d) = constant_value(&y) else {
                            return Err(Refusal(
                                span,
                                "a division or a modulo by a value that changes: divide by a \
                                 constant (a division by zero is x, which a monitor of \
                                 two-valued signals cannot follow)"
                                    .into(),
                            ));
                        };
                        if d.iter().all(|&b| !b) {
                            return Err(Refusal(
                                span,
                                "a division or a modulo by zero: its value is x (IEEE \
                                 1800-2017 §11.4.2)"
                                    .into(),
                            ));
                        }
                        let (q, r) = divide(&x, &d, signed);
                        if *op == Binary::Div {
                            q
                        } else {
                            r
                        }
                    }
                    Binary::And => pairs().map(|(p, q)| Formula::and([p, q])).collect(),
                    Binary::Or => pairs().map(|(p, q)| Formula::or([p, q])).collect(),
                    Binary::Xor => pairs().map(|(p, q)| xor(p, q)).collect(),
                    Binary::Xnor => pairs().map(|(p, q)| not(xor(p, q))).collect(),
                }
            }
            VExpr::Shift(op, a, b) => {
                let x = a.bits(w, signed)?;
                // The amount is sized by itself and unsigned (§11.4.10).
                let amount = b.bits(b.width(), b.signed())?;
                let fill = match op {
                    Shift::ArithmeticRight if signed => {
                        x.last().cloned().unwrap_or_else(Formula::ff)
                    }
                    _ => Formula::ff(),
                };
                shift(x, &amount, *op == Shift::Left, fill)
            }
            VExpr::Cond(c, a, b) => choose(c, a.bits(w, signed)?, b.bits(w, signed)?),
        })
    }

    /// The value by itself: its bits at its own width and signedness.
    fn own(&self) -> Result<Vector, Refusal> {
        let (w, s) = (self.width(), self.signed());
        Ok(Vector::of(self.bits(w, s)?, s))
    }

    fn span(&self) -> Span {
        match self {
            VExpr::Leaf(_, s) => *s,
            VExpr::Unary(_, e) => e.span(),
            VExpr::Binary(_, a, b) | VExpr::Cond(_, a, b) | VExpr::Shift(_, a, b) => Span {
                start: a.span().start.min(b.span().start),
                end: a.span().end.max(b.span().end),
            },
        }
    }
}

fn not(f: Formula) -> Formula {
    Formula::not(f)
}

/// `c ? a : b` on one bit.
fn mux(c: &Formula, a: Formula, b: Formula) -> Formula {
    if a == b {
        return a;
    }
    Formula::or([
        Formula::and([c.clone(), a]),
        Formula::and([not(c.clone()), b]),
    ])
}

/// `a + b + carry` modulo two to the width (a ripple-carry adder). The
/// carry is written with the previous carry once, `a & b | (a | b) &
/// c`, so that each bit's formula grows linearly as a tree too.
fn add(a: &[Formula], b: &[Formula], carry: Formula) -> Vec<Formula> {
    add_with_carry(a, b, carry).0
}

/// [`add`], and the carry out of the most significant bit.
fn add_with_carry(a: &[Formula], b: &[Formula], carry: Formula) -> (Vec<Formula>, Formula) {
    let mut c = carry;
    let mut out = Vec::with_capacity(a.len());
    for (p, q) in a.iter().zip(b) {
        out.push(xor(xor(p.clone(), q.clone()), c.clone()));
        c = Formula::or([
            Formula::and([p.clone(), q.clone()]),
            Formula::and([Formula::or([p.clone(), q.clone()]), c]),
        ]);
    }
    (out, c)
}

/// `-v` in two's complement at the width of `v`: `~v + 1`.
fn negate(v: &[Formula]) -> Vec<Formula> {
    let inverted: Vec<Formula> = v.iter().cloned().map(not).collect();
    add(&inverted, &vec![Formula::ff(); v.len()], Formula::tt())
}

/// `c ? a : b`, bit by bit.
fn choose(c: &Formula, a: Vec<Formula>, b: Vec<Formula>) -> Vec<Formula> {
    a.into_iter().zip(b).map(|(p, q)| mux(c, p, q)).collect()
}

/// `a * b` modulo two to the width: shift and add.
fn multiply(a: &[Formula], b: &[Formula]) -> Vec<Formula> {
    let w = a.len();
    let mut acc = vec![Formula::ff(); w];
    for (i, bi) in b.iter().enumerate() {
        if bi.op() == Op::False {
            continue;
        }
        let row: Vec<Formula> = (0..w)
            .map(|j| {
                if j < i {
                    Formula::ff()
                } else {
                    Formula::and([a[j - i].clone(), bi.clone()])
                }
            })
            .collect();
        acc = add(&acc, &row, Formula::ff());
    }
    acc
}

/// The bits of a constant value, or `None` when a bit is not constant.
fn constant_value(bits: &[Formula]) -> Option<Vec<bool>> {
    bits.iter()
        .map(|b| match b.op() {
            Op::True => Some(true),
            Op::False => Some(false),
            _ => None,
        })
        .collect()
}

/// `x / d` and `x % d` for a nonzero constant `d` (long division),
/// truncated towards zero with the remainder of the dividend's sign when
/// `signed` (§11.4.2).
fn divide(x: &[Formula], d: &[bool], signed: bool) -> (Vec<Formula>, Vec<Formula>) {
    let w = x.len();
    let negative_d = signed && d.last() == Some(&true);
    // |d| as a constant.
    let d_abs: Vec<bool> = if negative_d {
        let mut carry = true;
        d.iter()
            .map(|&b| {
                let s = !b ^ carry;
                carry &= !b;
                s
            })
            .collect()
    } else {
        d.to_vec()
    };
    let sign = if signed {
        x[w - 1].clone()
    } else {
        Formula::ff()
    };
    // |x|: x, or its negation when signed and negative.
    let magnitude = if signed {
        choose(&sign, negate(x), x.to_vec())
    } else {
        x.to_vec()
    };
    // Restoring division on w + 1 bits of remainder.
    let dw: Vec<Formula> = (0..=w)
        .map(|i| Formula::constant(d_abs.get(i).copied().unwrap_or(false)))
        .collect();
    let not_dw: Vec<Formula> = dw.iter().cloned().map(not).collect();
    let mut rem = vec![Formula::ff(); w + 1];
    let mut quotient = vec![Formula::ff(); w];
    for i in (0..w).rev() {
        rem.pop();
        rem.insert(0, magnitude[i].clone());
        // rem - d, and whether it does not borrow (rem >= d).
        let (diff, ge) = add_with_carry(&rem, &not_dw, Formula::tt());
        quotient[i] = ge.clone();
        rem = choose(&ge, diff, rem);
    }
    rem.truncate(w);
    if !signed {
        return (quotient, rem);
    }
    // The quotient is negative when the signs differ; the remainder
    // takes the dividend's sign.
    let q_negative = if negative_d {
        not(sign.clone())
    } else {
        sign.clone()
    };
    let q = choose(&q_negative, negate(&quotient), quotient);
    let r = choose(&sign, negate(&rem), rem);
    (q, r)
}

/// `x << amount` (or `>>`), filling with `fill`: a barrel shifter over
/// the bits of the amount.
fn shift(mut x: Vec<Formula>, amount: &[Formula], left: bool, fill: Formula) -> Vec<Formula> {
    let w = x.len();
    for (k, a) in amount.iter().enumerate() {
        if a.op() == Op::False {
            continue;
        }
        let by = if k >= usize::BITS as usize - 1 {
            usize::MAX
        } else {
            1usize << k
        };
        let shifted: Vec<Formula> = (0..w)
            .map(|i| {
                let from = if left {
                    i.checked_sub(by)
                } else {
                    i.checked_add(by).filter(|&j| j < w)
                };
                match from {
                    Some(j) => x[j].clone(),
                    None if left => Formula::ff(),
                    None => fill.clone(),
                }
            })
            .collect();
        x = x
            .into_iter()
            .zip(shifted)
            .map(|(p, q)| mux(a, q, p))
            .collect();
    }
    x
}

/// `$countones` of `bits`: an `int` (§20.9), the count on 32 bits.
fn countones(bits: Vec<Formula>, span: Span) -> VExpr {
    let mut count = vec![Formula::ff(); 32];
    for b in bits {
        let mut one = vec![Formula::ff(); 32];
        one[0] = b;
        count = add(&count, &one, Formula::ff());
    }
    VExpr::value(count, true, span)
}

/// The comparison `a op b` (§11.4.4, §11.4.5): both sized to the wider,
/// signed only when both are.
fn compare(a: &VExpr, op: &str, b: &VExpr) -> Result<Formula, Refusal> {
    let w = a.width().max(b.width());
    let s = a.signed() && b.signed();
    let x = Vector::of(a.bits(w, s)?, s);
    let y = Vector::of(b.bits(w, s)?, s);
    Ok(compare_vectors(&x, op, &y))
}

/// The truth of `e` as a condition: its value is not zero (§12.4).
fn truth(e: &VExpr) -> Result<Formula, Refusal> {
    if let VExpr::Leaf(Leaf::Signal { text, bits: None }, _) = e {
        return Ok(Formula::ap(text));
    }
    if let Some(text) = e.wide_signal() {
        return Ok(Formula::ap(&format!("{text} != 0")));
    }
    Ok(Formula::or(e.own()?.bits))
}

/// What the vector expressions of a property cost ([`Parser::charge`]), and
/// the scans of [`Parser::vector_expression_ahead`]: an operand whose
/// tokens hold no vector operation and no sequence has none in any part
/// either, so the parts are not scanned again (nested parentheses would
/// scan in quadratic time); the tokens all scans read are bounded.
#[derive(Clone, Debug, Default)]
pub(in crate::formula::sva) struct Scan {
    /// `(from, to, expanded)`: the operand at tokens `from..to` holds
    /// no vector operation, as read when [`Parser::expanded`] was
    /// `expanded` (instances swap the tokens and add to it).
    clear: Option<(usize, usize, usize)>,
    /// The tokens read by all scans.
    read: usize,
    /// The bit operations of the vector expressions read
    /// ([`Parser::charge`]).
    cost: usize,
}

/// Tokens all scans may read, per token of the input and expansions,
/// beyond a fixed allowance.
const SCAN_PER_TOKEN: usize = 64;
const SCAN_ALLOWANCE: usize = 1_000_000;

/// The index of the bracket that closes the one at `open` (`(`, `[` or
/// `{`), before `end`.
fn closing(tokens: &[crate::formula::psl::Token], open: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().take(end).skip(open) {
        match t.kind {
            T::Sym("(" | "[" | "{") => depth += 1,
            T::Sym(")" | "]" | "}") => {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
            _ => {}
        }
    }
    None
}

/// The binary operators of vector expressions by precedence, loosest
/// first (IEEE 1800-2017 Table 11-2).
const LEVELS: &[&[&str]] = &[
    &["||"],
    &["&&"],
    &["|"],
    &["^", "~^", "^~"],
    &["&"],
    &["==", "!=", "===", "!=="],
    &["<", "<=", ">", ">="],
    &["<<", ">>", "<<<", ">>>"],
    &["+", "-"],
    &["*", "/", "%"],
];

/// The level of `|`, where a Boolean operand of `&&` and `||` starts.
pub(super) const BITWISE_OR_LEVEL: usize = 2;

/// Sampled-value functions whose argument is read by the rest of the
/// parser and whose value is one bit.
const ONE_BIT_FUNCTIONS: &[&str] = &["$onehot", "$onehot0", "$isunknown"];

impl Parser<'_> {
    /// Whether the Boolean operand at the cursor (up to `&&`, `||`, `?`,
    /// `:`, a sequence or property operator at its level) computes with
    /// vectors, which the rest of the parser does not: it has an
    /// arithmetic or shift operator, a concatenation, a fill literal,
    /// `$signed`, `$unsigned` or `$countones`, a bitwise operator (`&`,
    /// `|`, `^`, `~`) next to an operand wider than one bit, or a
    /// comparison with something other than a signal or a constant on its
    /// right (or a constant on its left). Those are read by
    /// [`Parser::vector_boolean`]; an operand with a sequence or property
    /// operator inside its parentheses is not.
    pub(in crate::formula::sva) fn vector_expression_ahead(&mut self) -> Result<bool, ParseError> {
        let pos = self.cur.pos;
        if let Some((from, to, expanded)) = self.scan.clear {
            if expanded == self.expanded && from <= pos && pos < to {
                return Ok(false);
            }
        }
        let (vector, read, clear_to) = self.scan_operand();
        self.scan.read += read;
        let budget =
            SCAN_ALLOWANCE + SCAN_PER_TOKEN.saturating_mul(self.cur.tokens.len() + self.expanded);
        if self.scan.read > budget {
            let t = self.cur.peek().span;
            return Err(self.cur.error(t, ParseErrorKind::TooDeep));
        }
        if let Some(to) = clear_to {
            self.scan.clear = Some((pos, pos + to, self.expanded));
        }
        Ok(vector)
    }

    /// The scan of [`Parser::vector_expression_ahead`]: whether the operand
    /// computes with vectors, how many tokens were read, and the end of
    /// the operand when neither it nor its parts do (it holds no
    /// sequence).
    fn scan_operand(&self) -> (bool, usize, Option<usize>) {
        let tokens = &self.cur.tokens[self.cur.pos..];
        let kind = |i: usize| tokens.get(i).map(|t| &t.kind);
        // Where the operand ends, or `None` if it holds a sequence.
        let mut depth = 0usize;
        let mut end = tokens.len();
        // `?:` inside parentheses (a value, which may be a vector), or
        // `inside`: read here.
        let mut conditional = false;
        for (i, t) in tokens.iter().enumerate() {
            match &t.kind {
                T::Sym("?") if depth > 0 => conditional = true,
                T::End | T::Str(_) | T::Bad(_) => {
                    end = i;
                    break;
                }
                T::Sym(
                    "##" | "[*" | "[=" | "[->" | "[+]" | "|->" | "|=>" | "#-#" | "#=#" | "@" | ";"
                    | "=",
                ) => {
                    if depth > 0 {
                        return (false, i + 1, None);
                    }
                    end = i;
                    break;
                }
                T::Sym("&&" | "||" | "?" | ":" | "," | "->" | "<->") if depth == 0 => {
                    end = i;
                    break;
                }
                T::Sym("(" | "[" | "{") => depth += 1,
                T::Sym(")" | "]" | "}") => {
                    if depth == 0 {
                        end = i;
                        break;
                    }
                    depth -= 1;
                }
                // `v inside {...}` is a comparison (§11.4.13).
                T::Word(w) if w == "inside" => conditional = true,
                T::Word(w) if KEYWORDS.contains(&w.as_str()) => {
                    if depth > 0 {
                        return (false, i + 1, None);
                    }
                    end = i;
                    break;
                }
                T::Word(w) if self.decls.contains_key(w) => return (false, i + 1, None),
                _ => {}
            }
        }
        const COMPARISONS: &[&str] = &["==", "!=", "===", "!==", "<", "<=", ">", ">="];
        let is_comparison =
            |i: usize| matches!(kind(i), Some(T::Sym(s)) if COMPARISONS.contains(s));
        // Whether the operand at `i` (a signal with its select, a
        // literal, a number) is wider than one bit, and where it ends.
        let wide_at = |i: usize| -> Option<(bool, usize)> {
            match kind(i)? {
                T::Literal(l) => Some((l.width != Some(1), i + 1)),
                T::Num(n) => Some((*n > 1, i + 1)),
                T::Word(w) if !w.starts_with('$') => {
                    match (kind(i + 1), kind(i + 2), kind(i + 3), kind(i + 4)) {
                        (Some(T::Sym("[")), Some(T::Num(_) | T::Word(_)), Some(T::Sym("]")), _) => {
                            Some((false, i + 4))
                        }
                        (
                            Some(T::Sym("[")),
                            Some(T::Num(h)),
                            Some(T::Sym(":")),
                            Some(T::Num(l)),
                        ) => Some((h != l, i + 6)),
                        _ => {
                            let wide = matches!(
                                self.signals.shape(w),
                                Some(super::super::Shape { range: Some((m, l)), .. }) if m != l
                            );
                            Some((wide, i + 1))
                        }
                    }
                }
                _ => None,
            }
        };
        let simple_rhs = |i: usize| match kind(i) {
            Some(T::Num(_) | T::Literal(_) | T::Sym("'")) => true,
            Some(T::Word(w)) if w == "$past" || w == "$sampled" => true,
            Some(T::Word(w)) => !w.starts_with('$') && !KEYWORDS.contains(&w.as_str()),
            _ => false,
        };
        const BITWISE: &[&str] = &["&", "|", "^", "~^", "^~", "~", "~&", "~|"];
        let is_bitwise = |i: usize| matches!(kind(i), Some(T::Sym(s)) if BITWISE.contains(s));
        // The number of ticks of `$past(e, n)` is not an operand.
        let mut skipped = vec![false; end];
        for i in 0..end {
            let T::Word(w) = &tokens[i].kind else {
                continue;
            };
            if !(w == "$past" || w == "$sampled") || !matches!(kind(i + 1), Some(T::Sym("("))) {
                continue;
            }
            let close = closing(tokens, i + 1, end).unwrap_or(end);
            // The first comma of the call's own level, past its argument.
            let mut j = i + 2;
            while j < close {
                match tokens[j].kind {
                    T::Sym("(" | "[" | "{") => j = closing(tokens, j, close).unwrap_or(close),
                    T::Sym(",") => {
                        skipped[j..close].fill(true);
                        break;
                    }
                    _ => {}
                }
                j += 1;
            }
        }
        // Inside the argument of `$onehot(...)` and its kin, `{a, b}`
        // lists bits, which the rest of the parser reads.
        let mut bits_argument_until = 0;
        let mut i = 0;
        while i < end {
            if skipped[i] {
                i += 1;
                continue;
            }
            match &tokens[i].kind {
                T::Sym("+" | "-" | "*" | "/" | "%" | "<<" | ">>" | "<<<" | ">>>" | "**") => {
                    return (true, end, None);
                }
                T::Sym("{") if i >= bits_argument_until => return (true, end, None),
                // `v == '0` is read as the constant it is; elsewhere a fill
                // literal is as wide as its context, and `8'(x)` is a cast.
                T::Sym("'")
                    if !(i > 0
                        && matches!(kind(i - 1), Some(T::Sym("==" | "!=" | "===" | "!==")))
                        && matches!(kind(i + 1), Some(T::Num(0)))) =>
                {
                    return (true, end, None);
                }
                T::Word(w) if matches!(w.as_str(), "$signed" | "$unsigned") => {
                    return (true, end, None);
                }
                // `$countones(v)` is compared with a number by the rest of
                // the parser, not with anything else.
                T::Word(w)
                    if matches!(
                        w.as_str(),
                        "$countones" | "$onehot" | "$onehot0" | "$isunknown"
                    ) =>
                {
                    let close = matches!(kind(i + 1), Some(T::Sym("(")))
                        .then(|| closing(tokens, i + 1, end))
                        .flatten();
                    if let Some(p) = close {
                        bits_argument_until = p;
                        if w == "$countones"
                            && is_comparison(p + 1)
                            && !matches!(kind(p + 2), Some(T::Num(_)))
                        {
                            return (true, end, None);
                        }
                    }
                }
                T::Sym(s) if COMPARISONS.contains(s) && !simple_rhs(i + 1) => {
                    return (true, end, None);
                }
                T::Num(_) | T::Literal(_) => {
                    // A constant compared with what follows (`3 == v`,
                    // `(3) == v`): the rest of the parser compares signals
                    // with constants, not constants with anything.
                    let mut right = i + 1;
                    while matches!(kind(right), Some(T::Sym(")"))) && right < end {
                        right += 1;
                    }
                    if is_comparison(right) {
                        return (true, end, None);
                    }
                }
                _ => {}
            }
            // A constant wider than one bit that is not compared (its
            // truth, or an operand of a bitwise operator), or a signal
            // that is, next to a bitwise operator (`~v`, `(v) & w`): not
            // what a comparison binds first (`a & v == 3`).
            if let Some((wide, next)) = wide_at(i) {
                // The parentheses around the operand, and its neighbours
                // outside them (none where a parenthesis opens a larger
                // operand: in `(c & w) == 1`, `==` compares `(c & w)`).
                let mut lskip = 0;
                while i > lskip && matches!(kind(i - lskip - 1), Some(T::Sym("("))) {
                    lskip += 1;
                }
                let mut rskip = 0;
                while next + rskip < end && matches!(kind(next + rskip), Some(T::Sym(")"))) {
                    rskip += 1;
                }
                let around = lskip.min(rskip);
                let left = (lskip == around && i > lskip).then(|| i - lskip - 1);
                let right = (rskip == around).then_some(next + rskip);
                // `~v == 2'b10` is `(~v) == 2'b10`: `~` binds tighter.
                let inverted =
                    left.is_some_and(|l| matches!(kind(l), Some(T::Sym("~" | "~&" | "~|"))));
                let compared = !inverted
                    && (left.is_some_and(is_comparison) || right.is_some_and(is_comparison));
                let constant = matches!(tokens[i].kind, T::Num(_) | T::Literal(_));
                let bitwise_next = left.is_some_and(is_bitwise) || right.is_some_and(is_bitwise);
                if wide && !compared && (constant || bitwise_next) {
                    return (true, end, None);
                }
                // Past the select, whose indices are not operands.
                i = next;
                continue;
            }
            i += 1;
        }
        (conditional, end, (!conditional).then_some(end))
    }

    /// A Boolean operand that computes with vectors (see
    /// [`Parser::vector_expression_ahead`]), from the level of `|` down:
    /// its truth.
    pub(in crate::formula::sva) fn vector_boolean(&mut self) -> Result<Node, ParseError> {
        self.started = true;
        let e = self.v_binary(BITWISE_OR_LEVEL)?;
        let f = self.lower(truth(&e))?;
        Ok(Node::Bool(f))
    }

    /// The error of an operation on vectors that needs the width of
    /// `name`, which is not declared.
    fn vector_width_unknown(&self, at: Span, name: &str) -> ParseError {
        let e = self.width_unknown(at, name);
        if self
            .signals
            .is_opaque(name.split(['.', '[']).next().unwrap_or(name))
        {
            return e;
        }
        self.unsupported(
            at,
            format!(
                "{}; a vector operation computes on the operands' declared widths (IEEE \
                 1800-2017 §11.6)",
                e.message().trim_end_matches('.')
            ),
        )
    }

    fn lower<X>(&self, r: Result<X, Refusal>) -> Result<X, ParseError> {
        r.map_err(|Refusal(span, message)| self.unsupported(span, message))
    }

    /// A whole expression, inside parentheses or an argument: `?:` over
    /// the binary operators.
    fn v_full(&mut self) -> Result<VExpr, ParseError> {
        let start = self.cur.peek().span;
        let c = self.v_binary(0)?;
        if !self.is_sym("?") {
            return Ok(c);
        }
        let c = self.lower(truth(&c))?;
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let r = (|| {
            let a = self.v_full()?;
            self.expect_sym(":", "`:`")?;
            let b = self.v_full()?;
            self.sized_operands(&a, &b, self.span_from(start))?;
            Ok(VExpr::Cond(c, Box::new(a), Box::new(b)))
        })();
        self.cur.leave();
        r
    }

    /// The operands of an operation whose width matters: their widths
    /// must be declared, and the operation not too wide.
    fn sized_operands(&self, a: &VExpr, b: &VExpr, span: Span) -> Result<(), ParseError> {
        for e in [a, b] {
            if let Some((name, at)) = e.undeclared() {
                return Err(self.vector_width_unknown(at, name));
            }
        }
        self.bounded(a, b, span)
    }

    /// The operation on `a` and `b` (at `span`) is not too wide.
    fn bounded(&self, a: &VExpr, b: &VExpr, span: Span) -> Result<(), ParseError> {
        let w = a.width().max(b.width());
        if w > MAX_ARITHMETIC_BITS {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "an operation on {w} bits: vector expressions compute on at most \
                     {MAX_ARITHMETIC_BITS}"
                )),
            ));
        }
        Ok(())
    }

    fn v_binary(&mut self, level: usize) -> Result<VExpr, ParseError> {
        if level == LEVELS.len() {
            return self.v_unary();
        }
        let start = self.cur.peek().span;
        let mut lhs = self.v_binary(level + 1)?;
        let mut levels = 0;
        let r = loop {
            if LEVELS[level].contains(&"<") && self.is_word("inside") {
                lhs = match self.v_inside(lhs, start) {
                    Ok(e) => e,
                    Err(e) => break Err(e),
                };
                continue;
            }
            let op = match self.cur.peek().kind {
                T::Sym(s) if LEVELS[level].contains(&s) => s,
                _ => break Ok(lhs),
            };
            let t = self.cur.next();
            if let Err(e) = self.cur.enter(t.span) {
                break Err(e);
            }
            levels += 1;
            let rhs = match self.v_binary(level + 1) {
                Ok(r) => r,
                Err(e) => break Err(e),
            };
            lhs = match self.v_operation(lhs, op, rhs, start, t.span) {
                Ok(e) => e,
                Err(e) => break Err(e),
            };
        };
        for _ in 0..levels {
            self.cur.leave();
        }
        r
    }

    /// `e inside {a, [lo:hi], ...}` after `e` (from `start`, §11.4.13):
    /// `e` equals an item or lies in a range (`lo <= e && e <= hi`, empty
    /// when `lo > hi`), each compared with `e` as `==` and `<=` compare.
    fn v_inside(&mut self, e: VExpr, start: Span) -> Result<VExpr, ParseError> {
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let r = (|| {
            self.expect_sym("{", "`{` and the items")?;
            let mut any = Vec::new();
            loop {
                let s = self.cur.peek().span;
                let holds = if self.is_sym("[") {
                    self.cur.next();
                    let lo = self.v_full()?;
                    self.expect_sym(":", "`:`")?;
                    let hi = self.v_full()?;
                    self.expect_sym("]", "`]`")?;
                    let span = self.span_from(s);
                    match (&e, &lo, &hi) {
                        // A signal whose width is not declared, between
                        // numbers: the propositions `s >= lo`, `s <= hi`.
                        (
                            VExpr::Leaf(Leaf::Signal { text, bits: None }, _),
                            VExpr::Leaf(Leaf::Number(lo), _),
                            VExpr::Leaf(Leaf::Number(hi), _),
                        ) => Formula::and([
                            Formula::ap(&format!("{text} >= {lo}")),
                            Formula::ap(&format!("{text} <= {hi}")),
                        ]),
                        _ => {
                            self.sized_operands(&e, &lo, span)?;
                            self.sized_operands(&e, &hi, span)?;
                            Formula::and([
                                self.lower(compare(&lo, "<=", &e))?,
                                self.lower(compare(&e, "<=", &hi))?,
                            ])
                        }
                    }
                } else {
                    let item = self.v_full()?;
                    match (&e, &item) {
                        (
                            VExpr::Leaf(Leaf::Signal { text, bits: None }, _),
                            VExpr::Leaf(Leaf::Number(n), _),
                        ) => Formula::ap(&format!("{text} == {n}")),
                        _ => {
                            self.sized_operands(&e, &item, self.span_from(s))?;
                            self.lower(compare(&e, "==", &item))?
                        }
                    }
                };
                any.push(holds);
                if self.is_sym(",") {
                    self.cur.next();
                    continue;
                }
                self.expect_sym("}", "`,` or `}`")?;
                break;
            }
            Ok(VExpr::bit(Formula::or(any), self.span_from(start)))
        })();
        self.cur.leave();
        r
    }

    /// Counts the cost of an operation on `w` bits (`squared` for a
    /// product or a quotient) at `span`, refused past [`MAX_VECTOR_COST`].
    fn charge(&mut self, w: usize, squared: bool, span: Span) -> Result<(), ParseError> {
        let w = w.max(32);
        self.scan.cost += if squared { w * w } else { w };
        if self.scan.cost > MAX_VECTOR_COST {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "vector expressions of more than {MAX_VECTOR_COST} bit operations (a \
                     product or a quotient of w bits costs w², another operation w)"
                )),
            ));
        }
        Ok(())
    }

    /// `a op b` read (`op` at `at`, the whole from `start`).
    fn v_operation(
        &mut self,
        a: VExpr,
        op: &str,
        b: VExpr,
        start: Span,
        at: Span,
    ) -> Result<VExpr, ParseError> {
        let span = self.span_from(start);
        self.charge(
            a.width().max(b.width()),
            matches!(op, "*" | "/" | "%"),
            span,
        )?;
        let boxed = |a, b| (Box::new(a), Box::new(b));
        Ok(match op {
            "||" | "&&" => {
                let (p, q) = (self.lower(truth(&a))?, self.lower(truth(&b))?);
                let f = if op == "||" {
                    Formula::or([p, q])
                } else {
                    Formula::and([p, q])
                };
                VExpr::bit(f, span)
            }
            "==" | "!=" | "===" | "!==" | "<" | "<=" | ">" | ">=" => {
                self.sized_operands(&a, &b, span)?;
                VExpr::bit(self.lower(compare(&a, op, &b))?, span)
            }
            "<<" | ">>" | "<<<" | ">>>" => {
                self.sized_operands(&a, &b, span)?;
                let kind = match op {
                    "<<" | "<<<" => Shift::Left,
                    ">>" => Shift::Right,
                    _ => Shift::ArithmeticRight,
                };
                let (a, b) = boxed(a, b);
                VExpr::Shift(kind, a, b)
            }
            "|" | "^" | "~^" | "^~" | "&" => {
                // A 1-bit Boolean (a signal not declared) may be an
                // operand: its width is one.
                self.bounded(&a, &b, span)?;
                let kind = match op {
                    "|" => Binary::Or,
                    "&" => Binary::And,
                    "^" => Binary::Xor,
                    _ => Binary::Xnor,
                };
                let (a, b) = boxed(a, b);
                VExpr::Binary(kind, a, b)
            }
            _ => {
                self.sized_operands(&a, &b, span)?;
                let kind = match op {
                    "+" => Binary::Add,
                    "-" => Binary::Sub,
                    "*" => Binary::Mul,
                    "/" => Binary::Div,
                    "%" => Binary::Mod,
                    _ => {
                        return Err(self.unsupported(at, format!("`{op}` is not supported")));
                    }
                };
                let (a, b) = boxed(a, b);
                VExpr::Binary(kind, a, b)
            }
        })
    }

    fn v_unary(&mut self) -> Result<VExpr, ParseError> {
        let t = self.cur.peek().clone();
        let op = match t.kind {
            T::Sym(op @ ("!" | "~" | "-" | "+" | "&" | "|" | "^" | "~&" | "~|" | "~^" | "^~")) => {
                op
            }
            _ => return self.v_primary(),
        };
        self.cur.next();
        self.cur.enter(t.span)?;
        let r = self.v_unary();
        self.cur.leave();
        let e = r?;
        let span = self.span_from(t.span);
        Ok(match op {
            "!" => VExpr::bit(not(self.lower(truth(&e))?), span),
            "~" => VExpr::Unary(Unary::Not, Box::new(e)),
            "+" => VExpr::Unary(Unary::Plus, Box::new(e)),
            "-" => {
                if let Some((name, at)) = e.undeclared() {
                    return Err(self.vector_width_unknown(at, name));
                }
                VExpr::Unary(Unary::Neg, Box::new(e))
            }
            _ => {
                // A reduction (§11.4.9) of the value by itself.
                if let (Some(text), "|" | "~|") = (e.wide_signal(), op) {
                    let cmp = if op == "|" { "!=" } else { "==" };
                    return Ok(VExpr::bit(Formula::ap(&format!("{text} {cmp} 0")), span));
                }
                if let Some((name, at)) = e.undeclared() {
                    return Err(self.width_unknown(at, name));
                }
                let bits = self.lower(e.own())?.bits;
                let parity = || bits.iter().cloned().reduce(xor).unwrap_or_else(Formula::ff);
                let f = match op {
                    "&" => Formula::and(bits.clone()),
                    "~&" => not(Formula::and(bits.clone())),
                    "|" => Formula::or(bits.clone()),
                    "~|" => not(Formula::or(bits.clone())),
                    "^" => parity(),
                    _ => not(parity()),
                };
                VExpr::bit(f, span)
            }
        })
    }

    fn v_primary(&mut self) -> Result<VExpr, ParseError> {
        let t = self.cur.peek().clone();
        self.cur.enter(t.span)?;
        let r = self.v_primary_inner(t);
        self.cur.leave();
        r
    }

    fn v_primary_inner(&mut self, t: crate::formula::psl::Token) -> Result<VExpr, ParseError> {
        if let Some((b, span)) = self.fill_literal()? {
            return Ok(VExpr::Leaf(Leaf::Fill(b), span));
        }
        if self.at_signal() {
            let (text, span, dynamic) = self.signal_select()?;
            if let Some(bit) = dynamic {
                return Ok(VExpr::bit(bit, span));
            }
            let bits = self.signal_vector(&text, span)?;
            return Ok(VExpr::Leaf(Leaf::Signal { text, bits }, span));
        }
        match &t.kind {
            T::Num(n) => {
                self.cur.next();
                if self.is_sym("'") && matches!(self.cur.peek2().kind, T::Sym("(")) {
                    return self.size_cast(*n, t.span);
                }
                Ok(VExpr::Leaf(Leaf::Number(*n), t.span))
            }
            T::Literal(l) => {
                self.cur.next();
                Ok(VExpr::Leaf(Leaf::Value(literal_vector(l)), t.span))
            }
            T::Sym("(") => {
                self.cur.next();
                let e = self.v_full()?;
                if !self.is_sym(")") {
                    if self.cur.peek().kind == T::End {
                        return Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis));
                    }
                    let u = self.cur.peek().clone();
                    return Err(self.unexpected(&u, "an operator or `)`"));
                }
                self.cur.next();
                Ok(e)
            }
            T::Sym("{") => self.v_concatenation(),
            T::Sym("**") => Err(self.unsupported(t.span, "`**` is not supported")),
            T::Word(w) if w.starts_with('$') => {
                let w = w.clone();
                self.cur.next();
                self.v_system_function(&w, t.span)
            }
            T::Word(w) if self.decls.contains_key(w) => Err(self.unsupported(
                t.span,
                format!(
                    "`{w}` is a named sequence, property or `let`: its instances are not read \
                     inside vector expressions; write the expression there"
                ),
            )),
            _ => Err(self.unexpected(
                &t,
                "an operand: a signal, a number, a literal, `(`, `{` or a system function",
            )),
        }
    }

    /// `n'(e)` after `n` (at `at`), a size cast (§6.24.1): the value `e`
    /// would have assigned to `n` bits (computed on at least `n` bits,
    /// then cut to `n`), its signedness passed through.
    fn size_cast(&mut self, n: u64, at: Span) -> Result<VExpr, ParseError> {
        self.cur.next();
        let open = self.cur.next();
        let e = self.v_full()?;
        self.close_call("'(", open.span)?;
        let span = self.span_from(at);
        if n == 0 || n > MAX_ARITHMETIC_BITS as u64 {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!(
                    "a size cast to {n} bits: vector expressions compute on 1 to \
                     {MAX_ARITHMETIC_BITS}"
                )),
            ));
        }
        if let Some((name, at)) = e.undeclared() {
            return Err(self.vector_width_unknown(at, name));
        }
        let n = n as usize;
        let signed = e.signed();
        let mut bits = self.lower(e.bits(n.max(e.width()), signed))?;
        bits.truncate(n);
        Ok(VExpr::value(bits, signed, span))
    }

    /// `{a, b}` or `{n{a, b}}` (§11.4.12): items by themselves, unsigned.
    fn v_concatenation(&mut self) -> Result<VExpr, ParseError> {
        let open = self.cur.next();
        let mut times = 1usize;
        let mut replicated = false;
        // `{n{...}}`: a constant expression (`{WIDTH-1{1'b0}}` after the
        // parameter's value) before an inner concatenation.
        let pos = self.cur.pos;
        let s = self.cur.peek().span;
        if let Ok(count) = self.v_full() {
            if self.is_sym("{") {
                let span = self.span_from(s);
                let value = count
                    .own()
                    .ok()
                    .and_then(|v| constant_value(&v.bits).map(|b| (b, v.signed)));
                let n = match value {
                    Some((bits, signed)) if !(signed && bits.last() == Some(&true)) => bits
                        .iter()
                        .enumerate()
                        .try_fold(0u64, |acc, (i, &b)| match (b, i < 64) {
                            (false, _) => Some(acc),
                            (true, true) => Some(acc | 1 << i),
                            (true, false) => None,
                        }),
                    _ => None,
                };
                let Some(n) = n else {
                    return Err(self.unsupported(
                        span,
                        "a replication count is a constant (IEEE 1800-2017 §11.4.12.1)",
                    ));
                };
                if n == 0 || n > MAX_BITS as u64 {
                    return Err(self.cur.error(
                        span,
                        ParseErrorKind::Bound(format!("a replication count from 1 to {MAX_BITS}")),
                    ));
                }
                times = n as usize;
                replicated = true;
                self.cur.next();
            }
        }
        if !replicated {
            self.cur.seek(pos);
        }
        let mut bits: Vec<Formula> = Vec::new();
        let mut items = Vec::new();
        loop {
            let s = self.cur.peek().span;
            let e = self.v_full()?;
            let span = self.span_from(s);
            match &e {
                VExpr::Leaf(Leaf::Number(_), _) => {
                    return Err(self.unsupported(
                        span,
                        "an unsized number in a concatenation has no width: size it (`4'd3`)",
                    ));
                }
                VExpr::Leaf(Leaf::Fill(_), _) => {
                    return Err(self.unsupported(
                        span,
                        "a fill literal has no width of its own in a concatenation",
                    ));
                }
                _ => {}
            }
            if let Some((name, at)) = e.undeclared() {
                return Err(self.unsupported(
                    at,
                    format!(
                        "a concatenation `{{...}}` is a vector made of its items' bits: the \
                         width of `{name}` is not known here: declare the signal (mongen: \
                         `--input {name}:WIDTH`, or `--design`); SVA sequences have no braces \
                         (PSL's `{{a; b}}` is `a ##1 b`)"
                    ),
                ));
            }
            items.push(self.lower(e.own())?.bits);
            if self.is_sym(",") {
                self.cur.next();
                continue;
            }
            self.expect_sym("}", "`,` or `}`")?;
            break;
        }
        if replicated {
            self.expect_sym("}", "`}`")?;
        }
        // The first item is the most significant.
        let one: Vec<Formula> = items.into_iter().rev().flatten().collect();
        let span = self.span_from(open.span);
        if one.len().saturating_mul(times) > MAX_BITS {
            return Err(self.cur.error(
                span,
                ParseErrorKind::Bound(format!("a concatenation of more than {MAX_BITS} bits")),
            ));
        }
        for _ in 0..times {
            bits.extend(one.iter().cloned());
        }
        Ok(VExpr::value(bits, false, span))
    }

    /// `$name(...)` in a vector expression (`$name` read, at `at`).
    fn v_system_function(&mut self, f: &str, at: Span) -> Result<VExpr, ParseError> {
        if ONE_BIT_FUNCTIONS.contains(&f) {
            let n = self.system_function(f, at, true)?;
            let span = self.span_from(at);
            let b = self.to_bool(n, span, &format!("`{f}`"))?;
            return Ok(VExpr::bit(b, span));
        }
        match f {
            "$past" | "$sampled" | "$rose" | "$fell" | "$stable" | "$changed" | "$signed"
            | "$unsigned" | "$countones" => {}
            _ => {
                // The rest of the parser names what it refuses.
                let n = self.system_function(f, at, true)?;
                let span = self.span_from(at);
                let b = self.to_bool(n, span, &format!("`{f}`"))?;
                return Ok(VExpr::bit(b, span));
            }
        }
        let open = self.expect_sym("(", "`(`")?;
        if f == "$countones" && self.is_sym("{") {
            // Its items as the rest of the parser reads them (a signal
            // whose width is not declared is one bit).
            let bits = self.bits(f)?;
            self.close_call(f, open.span)?;
            return Ok(countones(bits, self.span_from(at)));
        }
        let s = self.cur.peek().span;
        let e = self.v_full()?;
        let arg = self.span_from(s);
        // A signal whose width is not declared is one bit, as the rest
        // of the parser reads it; `$past(s)` of it stays refused where
        // its width matters.
        let undeclared = match &e {
            VExpr::Leaf(Leaf::Signal { text, bits: None }, _) => Some(text.clone()),
            _ => None,
        };
        if undeclared.is_none() {
            if let Some((name, at)) = e.undeclared() {
                return Err(self.vector_width_unknown(at, name));
            }
        }
        if f == "$countones" {
            self.close_call(f, open.span)?;
            let bits = self.lower(e.own())?.bits;
            return Ok(countones(bits, self.span_from(at)));
        }
        if f == "$signed" || f == "$unsigned" {
            self.close_call(f, open.span)?;
            let v = self.lower(e.own())?;
            return Ok(VExpr::value(v.bits, f == "$signed", self.span_from(at)));
        }
        let v = self.lower(e.own())?;
        let n = self.sampled_ticks(f, &v, arg, open.span)?;
        let span = self.span_from(at);
        Ok(match f {
            "$past" | "$sampled" => {
                let p = past(v, n);
                match undeclared {
                    Some(name) => VExpr::Leaf(Leaf::PastUndeclared { name, value: p }, span),
                    None => VExpr::Leaf(Leaf::Value(p), span),
                }
            }
            _ => VExpr::bit(sampled_change(f, &v), span),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of a formula of the bits `x[i]` and `y[i]` (no past).
    fn eval(f: &Formula, x: u64, y: u64) -> bool {
        match f.op() {
            Op::True => true,
            Op::False => false,
            Op::Not => !eval(f.child(0), x, y),
            Op::And => f.children().iter().all(|c| eval(c, x, y)),
            Op::Or => f.children().iter().any(|c| eval(c, x, y)),
            Op::Xor => eval(f.child(0), x, y) != eval(f.child(1), x, y),
            Op::Equiv => eval(f.child(0), x, y) == eval(f.child(1), x, y),
            Op::Ap => {
                let name = f.ap_name().expect("an atom");
                let (v, i) = name.trim_end_matches(']').split_once('[').expect("a bit");
                let i: u32 = i.parse().expect("an index");
                let word = if v == "x" { x } else { y };
                word >> i & 1 == 1
            }
            op => panic!("{op:?}"),
        }
    }

    fn signal(name: &str, w: usize, signed: bool) -> VExpr {
        let bits = (0..w)
            .map(|i| Formula::ap(&format!("{name}[{i}]")))
            .collect();
        VExpr::Leaf(
            Leaf::Signal {
                text: name.into(),
                bits: Some(Vector::of(bits, signed)),
            },
            Span { start: 0, end: 0 },
        )
    }

    fn value(bits: &[Formula], x: u64, y: u64) -> u64 {
        bits.iter()
            .enumerate()
            .map(|(i, b)| u64::from(eval(b, x, y)) << i)
            .sum()
    }

    fn sext(v: u64, w: usize) -> i64 {
        ((v << (64 - w)) as i64) >> (64 - w)
    }

    #[test]
    fn arithmetic_matches_integers_at_every_width() {
        for w in 1..=5usize {
            let mask = (1u64 << w) - 1;
            for signed in [false, true] {
                let (a, b) = (signal("x", w, signed), signal("y", w, signed));
                for op in [
                    Binary::Add,
                    Binary::Sub,
                    Binary::Mul,
                    Binary::And,
                    Binary::Or,
                    Binary::Xor,
                    Binary::Xnor,
                ] {
                    let e = VExpr::Binary(op, Box::new(a.clone()), Box::new(b.clone()));
                    let bits = e.bits(w, signed).ok().expect("lowered");
                    for x in 0..=mask {
                        for y in 0..=mask {
                            let want = match op {
                                Binary::Add => x.wrapping_add(y),
                                Binary::Sub => x.wrapping_sub(y),
                                Binary::Mul => x.wrapping_mul(y),
                                Binary::And => x & y,
                                Binary::Or => x | y,
                                Binary::Xor => x ^ y,
                                _ => !(x ^ y),
                            } & mask;
                            assert_eq!(value(&bits, x, y), want, "{op:?} {x} {y} w={w}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn division_by_constants_truncates_towards_zero() {
        for w in 2..=5usize {
            let mask = (1u64 << w) - 1;
            for signed in [false, true] {
                let x = signal("x", w, signed);
                let xb = x.bits(w, signed).ok().expect("bits");
                for d in 1..=mask {
                    let dv: Vec<bool> = (0..w).map(|i| d >> i & 1 == 1).collect();
                    let (q, r) = divide(&xb, &dv, signed);
                    for v in 0..=mask {
                        let (want_q, want_r) = if signed {
                            let (a, b) = (sext(v, w), sext(d, w));
                            (
                                a.wrapping_div(b) as u64 & mask,
                                a.wrapping_rem(b) as u64 & mask,
                            )
                        } else {
                            (v / d, v % d)
                        };
                        assert_eq!(value(&q, v, 0), want_q, "{v} / {d} w={w} signed={signed}");
                        assert_eq!(value(&r, v, 0), want_r, "{v} % {d} w={w} signed={signed}");
                    }
                }
            }
        }
    }

    #[test]
    fn shifts_by_a_signal_fill_as_verilog_does() {
        for w in 1..=5usize {
            let mask = (1u64 << w) - 1;
            for signed in [false, true] {
                let x = signal("x", w, signed);
                let xb = x.bits(w, signed).ok().expect("bits");
                let amount: Vec<Formula> =
                    (0..3).map(|i| Formula::ap(&format!("y[{i}]"))).collect();
                for (kind, left) in [
                    (Shift::Left, true),
                    (Shift::Right, false),
                    (Shift::ArithmeticRight, false),
                ] {
                    let fill = if kind == Shift::ArithmeticRight && signed {
                        xb[w - 1].clone()
                    } else {
                        Formula::ff()
                    };
                    let bits = shift(xb.clone(), &amount, left, fill);
                    for v in 0..=mask {
                        for s in 0..8u64 {
                            let want = match kind {
                                Shift::Left => v.checked_shl(s as u32).unwrap_or(0),
                                Shift::Right => v >> s,
                                Shift::ArithmeticRight if signed => {
                                    (sext(v, w) >> s.min(63)) as u64
                                }
                                Shift::ArithmeticRight => v >> s,
                            } & mask;
                            assert_eq!(value(&bits, v, s), want, "{kind:?} {v} by {s} w={w}");
                        }
                    }
                }
            }
        }
    }
}
