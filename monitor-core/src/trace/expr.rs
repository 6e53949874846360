//! Expressions over the fields of a trace event: what a proposition means
//! in a log or a waveform.
//!
//! ```text
//! latency > 100            level == "ERROR"        req.kind != 'GET'
//! data[3]                  state == 4'b0101        count >= 12
//! !(busy || stall) && ready
//! ```
//!
//! A field alone is a Boolean (`true`/`false`/`1`/`0`, a one-bit signal).
//! Comparisons are numeric when both sides are numbers (decimal, Verilog
//! literals, fields holding numbers or bit vectors) and textual when one
//! side is a string in quotes. `x[i]` is bit `i` of a number or vector,
//! `x[msb:lsb]` a part of it.
//!
//! Numbers are compared exactly, never through a float: decimal text and
//! JSON numbers as written (integers of any size, decimals, exponents),
//! bit vectors of any width, and doubles (a VCD `real`, a float column) by
//! their exact binary value. `inf`, `NaN` and exponents beyond ±10^15 are
//! no numbers: comparing them is an error.
//!
//! # Arithmetic
//!
//! Terms ([`Term`]) have Verilog's operators, with its precedence (IEEE
//! 1800-2017 Table 11-2, highest first): unary `+ - ~ !` and the
//! reductions `& ~& | ~| ^ ~^ ^~`; `* / %`; `+ -`; `<< >> <<< >>>`;
//! `< <= > >=`; `== != === !==`; `&`; `^ ~^ ^~`; `|`; `&&`; `||`. Also
//! `{a, b}`, `{n{a, b}}` (items have widths: no unsized number),
//! `$signed(e)`, `$unsigned(e)` and parentheses; `**` is refused. A term
//! standing where a Boolean is read (the whole proposition, an operand of
//! `!`, `&&`, `||`) holds when its value is not zero, as the condition of
//! an `if`; `&`, `|` and `~` of one-bit operands (fields, comparisons) are
//! `&&`, `||` and `!`, as before. At most 1000 operators and 200 nested
//! parentheses or unary operators: deeper input is an error.
//!
//! An atom (a comparison, or a term read as a Boolean) has one of two
//! meanings, chosen per event from what its operands are:
//!
//! * **Verilog's**, when every operand is a Verilog value: a waveform's
//!   vector (unsigned, its width), a Verilog literal (`4'd5`, `8'shFF`), an
//!   unsized integer of 32 signed bits, `true`/`false` (one bit). Widths
//!   and signedness are IEEE 1364-2005 §5.4–5.5's: operands are extended
//!   to the context's width (the widest operand of the expression and of
//!   the other side of a comparison), sign-extended only when all are
//!   signed, and the arithmetic is modulo 2^width; comparisons,
//!   reductions, concatenations and selects are unsigned; a shift amount,
//!   an item of a concatenation and the argument of `$signed` are
//!   self-determined. `-6` is `-(6)`: in an unsigned context it is
//!   2^width - 6, so `v > -1` is false of an unsigned `v` (and such a
//!   comparison with a negative integer or a signed literal is a term).
//!   Values are computed in at most 128 bits; a wider vector or
//!   concatenation is an error.
//! * **Exact** integers (`i128`), when an operand is a log's value (text,
//!   JSON, a data frame's cell, a `real`) or a number with a fraction or an
//!   exponent: `latency_ms - queue_ms > 100` never wraps. A vector reads as
//!   its unsigned value, a signed literal as its signed one, `$signed` and
//!   `$unsigned` of a Verilog value as Verilog reads it (of a log value, as
//!   it is). `/` truncates and `%` takes the dividend's sign (as Verilog
//!   and Rust); `~`, `&`, `|`, `^` are two's complement; `>>` is an
//!   arithmetic shift. An overflow of `i128`, a fraction (`2.5`: decimals
//!   are compared exactly, not computed with), a text that is no number,
//!   and a concatenation or reduction of a log value (it has no width) are
//!   errors naming the value. Comparisons without arithmetic
//!   (`temp > -0.5`) stay exact on decimals.
//!
//! # Text, lists and missing fields
//!
//! `msg contains "timeout"`, `path starts_with "/api"`, `f ends_with
//! ".gz"`, `msg matches /time.?out/` ([`TextTest`]) read a field's text;
//! `status in [500, 503]` is `status == 500 || status == 503`, `x not in
//! [...]` is `x != ... && ...`, and the strings of a list compare by text.
//! They bind like `<`.
//!
//! A field is missing ([`is_missing`]) where an event has no value for it:
//! then, as SQL's NULL in a `WHERE` clause, every atom that reads it is
//! false ([`Expr::eval`]); `has(x)`, `x == null` and `x != null` ask
//! whether it is. [`Expr::eval_strict`] makes it an error instead.
//!
//! ```
//! use monitor_core::trace::expr::{Cell, Expr};
//!
//! let value = |text: &str, msg: Option<Cell<'_>>| {
//!     let mut e = Expr::parse(text).unwrap();
//!     e.resolve(&mut |_| Ok::<usize, ()>(0)).unwrap();
//!     e.eval(&|_| msg)
//! };
//! let timeout = Some(Cell::Text("upstream timeout"));
//! assert_eq!(value(r#"msg matches /time.?out$/ && msg not in ["ok"]"#, timeout), Ok(true));
//! assert_eq!(value(r#"msg != "ok""#, None), Ok(false));
//! assert_eq!(value(r#"!(msg == "ok") && msg == null"#, Some(Cell::Text(""))), Ok(true));
//! ```
//!
//! Division by zero, and `x` or `z` bits in arithmetic, make Verilog's
//! value `x`: an error, as an `x` in a comparison is today (the checker
//! then reports it, or ignores it where the monitors do not depend on the
//! proposition), never a guessed verdict.
//!
//! ```
//! use monitor_core::trace::expr::{Cell, Expr};
//!
//! let value = |text: &str, cnt: Cell<'_>| {
//!     let mut e = Expr::parse(text).unwrap();
//!     e.resolve(&mut |_| Ok::<usize, ()>(0)).unwrap();
//!     e.eval(&|_| Some(cnt))
//! };
//! // A 4-bit vector: 3 + 13 wraps to 0 in 4 bits, not in 32.
//! assert_eq!(value("cnt + 4'd13 >= 4'd13", Cell::Bits(b"0011")), Ok(false));
//! assert_eq!(value("cnt + 13 >= 13", Cell::Bits(b"0011")), Ok(true));
//! // A log's number: exact.
//! assert_eq!(value("cnt + 4'd13 >= 4'd13", Cell::Text("3")), Ok(true));
//! assert_eq!(value("$signed(cnt) < 0", Cell::Bits(b"1101")), Ok(true));
//! assert_eq!(value("&cnt", Cell::Bits(b"1111")), Ok(true));
//! assert!(value("cnt / 0 > 1", Cell::Text("3")).is_err());
//! ```
//!
//! ```
//! use monitor_core::trace::expr::{Cell, Expr};
//!
//! let mut e = Expr::parse("x > 9007199254740992.0")?;
//! e.resolve(&mut |_| Ok::<usize, ()>(0)).unwrap();
//! assert_eq!(e.eval(&|_| Some(Cell::Text("9007199254740993"))), Ok(true));
//! // The double nearest 0.1 is a little more than 0.1.
//! let mut e = Expr::parse("x == 0.1")?;
//! e.resolve(&mut |_| Ok::<usize, ()>(0)).unwrap();
//! assert_eq!(e.eval(&|_| Some(Cell::Real(0.1))), Ok(false));
//! assert_eq!(e.eval(&|_| Some(Cell::Text("0.100"))), Ok(true));
//! assert!(e.eval(&|_| Some(Cell::Text("NaN"))).is_err());
//! # Ok::<(), monitor_core::trace::expr::ExprError>(())
//! ```
//!
//! ```
//! use monitor_core::trace::expr::Expr;
//!
//! let e = Expr::parse("latency > 100 && level == \"ERROR\"")?;
//! assert_eq!(e.fields(), ["latency", "level"]);
//! # Ok::<(), monitor_core::trace::expr::ExprError>(())
//! ```

use std::cmp::Ordering;
use std::fmt;

use super::arith;
use super::number::{parse_decimal, Num, Scanned};
use crate::formula::atom::{literal_len, Comparison, Literal, Select};

/// A value read from an event, before it is interpreted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cell<'a> {
    /// Text (a CSV field).
    Text(&'a str),
    /// A JSON value.
    Json(&'a serde_json::Value),
    /// A bit vector, most significant bit first, as VCD writes it (`0`,
    /// `1`, `x`, `z`).
    Bits(&'a [u8]),
    /// A real number (a VCD `real`, a floating-point column), compared by
    /// its exact binary value; NaN and the infinities are not compared.
    Real(f64),
    /// A Boolean (a Boolean column of a data frame).
    Bool(bool),
    /// An integer (an integer or time-stamp column of a data frame).
    Int(i64),
}

/// Why a value does not fit its use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueError(pub String);

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ValueError {}

/// Whether a comparison holds of two values in order `o`.
fn compares(o: Ordering, op: Comparison) -> bool {
    match op {
        Comparison::Eq | Comparison::CaseEq => o.is_eq(),
        Comparison::Ne | Comparison::CaseNe => o.is_ne(),
        Comparison::Lt => o.is_lt(),
        Comparison::Le => o.is_le(),
        Comparison::Gt => o.is_gt(),
        Comparison::Ge => o.is_ge(),
    }
}

fn shown(c: &Cell<'_>) -> String {
    match c {
        Cell::Text(t) => format!("{t:?}"),
        Cell::Json(v) => v.to_string(),
        Cell::Bits(b) => String::from_utf8_lossy(b).into_owned(),
        Cell::Real(r) => r.to_string(),
        Cell::Bool(b) => b.to_string(),
        Cell::Int(i) => i.to_string(),
    }
}

/// Whether a field's value is missing, SQL's NULL: a field the event does
/// not have (`None`: a JSON key absent from the line, an Arrow null), an
/// empty or blank text (an empty CSV cell) or JSON's `null`. A JSON string
/// `""` is present (a string, empty); a waveform's signal is never missing
/// (unknown bits are `x`).
///
/// In [`Expr::eval`], an atom that reads a missing field is false;
/// `has(x)` is `!is_missing(x)`.
///
/// ```
/// use monitor_core::trace::expr::{is_missing, Cell};
///
/// assert!(is_missing(None));
/// assert!(is_missing(Some(Cell::Text(""))));
/// assert!(is_missing(Some(Cell::Json(&serde_json::Value::Null))));
/// assert!(!is_missing(Some(Cell::Json(&serde_json::json!("")))));
/// assert!(!is_missing(Some(Cell::Text("0"))));
/// ```
#[inline]
pub fn is_missing(cell: Option<Cell<'_>>) -> bool {
    match cell {
        None | Some(Cell::Json(serde_json::Value::Null)) => true,
        Some(Cell::Text(t)) => t.bytes().all(|b| b.is_ascii_whitespace()),
        Some(_) => false,
    }
}

impl<'a> Cell<'a> {
    /// The value as a Boolean, when it is one (the fast path of
    /// [`Cell::as_bool`]).
    ///
    /// ```
    /// use monitor_core::trace::expr::Cell;
    ///
    /// assert_eq!(Cell::Text("1").truth(), Some(true));
    /// assert_eq!(Cell::Bits(b"0").truth(), Some(false));
    /// assert_eq!(Cell::Text("TRUE").truth(), Some(true)); // via `as_bool`
    /// assert_eq!(Cell::Int(2).truth(), None);
    /// ```
    #[inline]
    pub fn truth(&self) -> Option<bool> {
        match self {
            Cell::Text("1") | Cell::Bits([b'1']) => Some(true),
            Cell::Text("0") | Cell::Bits([b'0']) => Some(false),
            Cell::Json(serde_json::Value::Bool(b)) | Cell::Bool(b) => Some(*b),
            Cell::Int(i @ (0 | 1)) => Some(*i == 1),
            Cell::Json(serde_json::Value::Number(n)) if n.as_u64().is_some_and(|n| n < 2) => {
                Some(n.as_u64() == Some(1))
            }
            _ => self.as_bool().ok(),
        }
    }

    /// The value as a Boolean.
    ///
    /// ```
    /// use monitor_core::trace::expr::{Cell, ValueError};
    ///
    /// assert_eq!(Cell::Text(" false ").as_bool(), Ok(false));
    /// assert_eq!(Cell::Json(&serde_json::json!(1)).as_bool(), Ok(true));
    /// assert_eq!(
    ///     Cell::Bits(b"0101").as_bool(),
    ///     Err(ValueError("0101 is a 4-bit vector, not a Boolean: compare it or select a bit".into()))
    /// );
    /// assert_eq!(Cell::Int(7).as_bool(), Err(ValueError("7 is not a Boolean (true/false/1/0)".into())));
    /// ```
    pub fn as_bool(&self) -> Result<bool, ValueError> {
        let text = |t: &str| match t.trim() {
            "1" | "true" | "True" | "TRUE" => Some(true),
            "0" | "false" | "False" | "FALSE" => Some(false),
            _ => None,
        };
        let b = match self {
            // The common spellings first, without trimming.
            Cell::Text("1") => Some(true),
            Cell::Text("0") => Some(false),
            Cell::Text(t) => text(t),
            Cell::Json(serde_json::Value::Bool(b)) => Some(*b),
            Cell::Json(serde_json::Value::Number(n)) => match n.as_i64() {
                Some(0) => Some(false),
                Some(1) => Some(true),
                _ => None,
            },
            Cell::Json(serde_json::Value::String(s)) => text(s),
            Cell::Json(_) | Cell::Real(_) => None,
            Cell::Bool(b) => Some(*b),
            Cell::Int(0) => Some(false),
            Cell::Int(1) => Some(true),
            Cell::Int(_) => None,
            Cell::Bits([b'1']) => Some(true),
            Cell::Bits([b'0']) => Some(false),
            Cell::Bits(bits) if bits.len() > 1 => {
                return Err(ValueError(format!(
                    "{} is a {}-bit vector, not a Boolean: compare it or select a bit",
                    shown(self),
                    bits.len()
                )));
            }
            Cell::Bits(_) => None,
        };
        b.ok_or_else(|| ValueError(format!("{} is not a Boolean (true/false/1/0)", shown(self))))
    }

    /// The value as a number, compared exactly: decimal text and JSON
    /// numbers as written, bit vectors of any width, finite doubles by
    /// their binary value (see `number`).
    pub(crate) fn as_num(&self) -> Result<Num<'a>, ValueError> {
        let text = |t: &'a str| -> Result<Option<Num<'a>>, ValueError> {
            // Short decimal integers, the common case, by hand.
            let b = t.as_bytes();
            if !b.is_empty() && b.len() <= 18 && b.iter().all(u8::is_ascii_digit) {
                return Ok(Some(Num::Int(
                    b.iter().fold(0i128, |v, d| v * 10 + i128::from(d - b'0')),
                )));
            }
            let t = t.trim();
            Ok(parse_decimal(t)?
                // A Boolean field compared with 0 or 1.
                .or_else(|| Cell::Text(t).as_bool().ok().map(|b| Num::Int(b.into()))))
        };
        let n = match *self {
            Cell::Text(t) => text(t)?,
            // serde_json keeps the digits as written (its
            // `arbitrary_precision`), in JSON's grammar, which is the
            // text's.
            Cell::Json(serde_json::Value::Number(n)) => parse_decimal(n.as_str())?,
            Cell::Json(serde_json::Value::Bool(b)) => Some(Num::Int(i128::from(*b))),
            Cell::Json(_) => None,
            Cell::Bits(bits) => {
                if bits.iter().any(|b| !matches!(b, b'0' | b'1')) {
                    return Err(ValueError(format!(
                        "{} has unknown (x/z) bits: it cannot be compared",
                        shown(self)
                    )));
                }
                Some(Num::bits(bits))
            }
            Cell::Real(r) => Some(Num::float(r)?),
            Cell::Bool(b) => Some(Num::Int(i128::from(b))),
            Cell::Int(i) => Some(Num::Int(i128::from(i))),
        };
        n.ok_or_else(|| ValueError(format!("{} is not a number", shown(self))))
    }

    /// The cell as text: borrowed for text and JSON strings, so that
    /// comparing a field with a string allocates nothing per event.
    fn as_text(&self) -> std::borrow::Cow<'a, str> {
        match *self {
            Cell::Text(t) => std::borrow::Cow::Borrowed(t),
            Cell::Json(serde_json::Value::String(s)) => std::borrow::Cow::Borrowed(s.as_str()),
            ref other => std::borrow::Cow::Owned(shown(other)),
        }
    }

    pub(crate) fn select(&self, sel: Select) -> Result<Num<'a>, ValueError> {
        let (hi, lo) = match sel {
            Select::Bit(i) => (i, i),
            Select::Part(h, l) => (h, l),
        };
        if let Cell::Bits(bits) = *self {
            // Bit 0 is the last character.
            let n = bits.len() as u32;
            if hi >= n {
                return Err(ValueError(format!(
                    "bit {hi} of a {n}-bit vector {}",
                    shown(self)
                )));
            }
            let part = &bits[(n - 1 - hi) as usize..=(n - 1 - lo) as usize];
            return Cell::Bits(part).as_num();
        }
        match self.as_num()?.as_i128() {
            Some(v) if hi < 127 => {
                let width = hi - lo + 1;
                let mask = if width >= 127 {
                    -1
                } else {
                    (1i128 << width) - 1
                };
                Ok(Num::Int((v >> lo) & mask))
            }
            _ => Err(ValueError(format!(
                "{} has no bits {hi}..{lo}: select bits of integers",
                shown(self)
            ))),
        }
    }
}

/// An operand of a comparison.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A field, possibly selected.
    Field(FieldRef),
    /// A number, compared exactly as written.
    Number(Number),
    /// A string in quotes.
    Str(String),
    /// A Verilog literal (`4'b0101`).
    Literal(Literal),
    /// `true`/`false`.
    Bool(bool),
    /// Arithmetic (`cnt + 1`), compared with another term: only in
    /// comparisons whose operands are both terms.
    Term(Box<Term>),
}

/// A value computed from fields and constants (`cnt + 1`, `v & w`,
/// `{a, b}`, `&v`, `$signed(d)`): Verilog's value on a waveform, the exact
/// integer on a log (see the module doc).
///
/// ```
/// use monitor_core::trace::expr::{BinaryOp, Expr, Operand, Term};
///
/// let Expr::Compare(Operand::Term(t), _, _) = Expr::parse("cnt + 1 > 3")? else { unreachable!() };
/// assert!(matches!(*t, Term::Binary(_, BinaryOp::Add, _)));
/// # Ok::<(), monitor_core::trace::expr::ExprError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Term {
    /// A field, a number, a literal or `true`/`false`.
    Operand(Operand),
    /// A unary operator.
    Unary(UnaryOp, Box<Term>),
    /// A binary operator.
    Binary(Box<Term>, BinaryOp, Box<Term>),
    /// `{a, b}`: the operands side by side, the first most significant.
    Concat(Vec<Term>),
    /// `{n{a, b}}`: `n` copies of the concatenation.
    Replicate(u32, Vec<Term>),
    /// `$signed(e)`: the bits of `e`, read as signed.
    Signed(Box<Term>),
    /// `$unsigned(e)`: the bits of `e`, read as unsigned.
    Unsigned(Box<Term>),
    /// A comparison or a Boolean operation: one bit, 1 when it holds.
    Bool(Box<Expr>),
}

/// A unary operator of a [`Term`].
///
/// ```
/// use monitor_core::trace::expr::{Expr, Term, UnaryOp};
///
/// let Expr::Value(Term::Unary(op, _)) = Expr::parse("~&v")? else { unreachable!() };
/// assert_eq!(op, UnaryOp::Nand);
/// # Ok::<(), monitor_core::trace::expr::ExprError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-e`.
    Neg,
    /// `+e`.
    Plus,
    /// `~e`, bitwise.
    Not,
    /// `&e`, reduction.
    And,
    /// `~&e`.
    Nand,
    /// `|e`.
    Or,
    /// `~|e`.
    Nor,
    /// `^e`.
    Xor,
    /// `~^e`, `^~e`.
    Xnor,
}

/// A binary operator of a [`Term`].
///
/// ```
/// use monitor_core::trace::expr::BinaryOp;
///
/// assert!(BinaryOp::AShr.is_shift() && !BinaryOp::Mod.is_shift());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `*`.
    Mul,
    /// `/` (truncating).
    Div,
    /// `%` (the sign of the dividend).
    Mod,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `<<`.
    Shl,
    /// `>>` (logical).
    Shr,
    /// `<<<`.
    AShl,
    /// `>>>` (arithmetic when the expression is signed).
    AShr,
    /// `&`, bitwise.
    And,
    /// `|`, bitwise.
    Or,
    /// `^`, bitwise.
    Xor,
    /// `~^`, `^~`, bitwise.
    Xnor,
}

impl Term {
    fn visit(&self, with_has: bool, f: &mut impl FnMut(&FieldRef)) {
        match self {
            Term::Operand(o) => o.visit(with_has, f),
            Term::Unary(_, x) | Term::Signed(x) | Term::Unsigned(x) => x.visit(with_has, f),
            Term::Binary(a, _, b) => {
                a.visit(with_has, f);
                b.visit(with_has, f);
            }
            Term::Concat(xs) | Term::Replicate(_, xs) => {
                xs.iter().for_each(|x| x.visit(with_has, f))
            }
            Term::Bool(e) => e.visit_fields(with_has, f),
        }
    }

    fn resolve<E>(&mut self, resolve: &mut impl FnMut(&str) -> Result<usize, E>) -> Result<(), E> {
        match self {
            Term::Operand(o) => o.resolve(resolve),
            Term::Unary(_, x) | Term::Signed(x) | Term::Unsigned(x) => x.resolve(resolve),
            Term::Binary(a, _, b) => {
                a.resolve(resolve)?;
                b.resolve(resolve)
            }
            Term::Concat(xs) | Term::Replicate(_, xs) => {
                xs.iter_mut().try_for_each(|x| x.resolve(resolve))
            }
            Term::Bool(e) => e.resolve(resolve),
        }
    }
}

impl BinaryOp {
    /// Whether it is a shift (whose right operand is self-determined).
    ///
    /// ```
    /// use monitor_core::trace::expr::BinaryOp;
    ///
    /// assert!(BinaryOp::Shl.is_shift());
    /// ```
    pub fn is_shift(self) -> bool {
        matches!(
            self,
            BinaryOp::Shl | BinaryOp::Shr | BinaryOp::AShl | BinaryOp::AShr
        )
    }
}

/// A number written in an expression (`100`, `-2.5`, `1e-3`, `1_000`),
/// kept as written: it is compared exactly, never through a float.
///
/// ```
/// use monitor_core::trace::expr::{Expr, Operand};
///
/// let Expr::Compare(_, _, Operand::Number(n)) = Expr::parse("x > 9_007_199_254_740_992.0")? else {
///     unreachable!()
/// };
/// assert_eq!(n.as_str(), "9007199254740992.0");
/// assert_eq!(n.as_i128(), Some(9007199254740992));
/// # Ok::<(), monitor_core::trace::expr::ExprError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number {
    /// The text, without `_`.
    text: String,
    /// Its value, when it is an integer of `i128` (`2.0` and `1e3` are).
    int: Option<i128>,
    /// Its digits, read once.
    scanned: Scanned,
}

impl Number {
    /// The number as written (without `_`).
    ///
    /// ```
    /// use monitor_core::trace::expr::{Expr, Operand};
    ///
    /// let Expr::Compare(_, _, Operand::Number(n)) = Expr::parse("x < 1_5e-1")? else { unreachable!() };
    /// assert_eq!(n.as_str(), "15e-1");
    /// # Ok::<(), monitor_core::trace::expr::ExprError>(())
    /// ```
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The value, when it is an integer that fits `i128`.
    ///
    /// ```
    /// use monitor_core::trace::expr::{Expr, Operand};
    ///
    /// let value = |e: &str| match Expr::parse(e) {
    ///     Ok(Expr::Compare(_, _, Operand::Number(n))) => n.as_i128(),
    ///     _ => unreachable!(),
    /// };
    /// assert_eq!(value("x == 1e3"), Some(1000));
    /// assert_eq!(value("x == 0.5"), None);
    /// assert_eq!(value("x == 1e40"), None); // beyond i128
    /// ```
    pub fn as_i128(&self) -> Option<i128> {
        self.int
    }

    pub(crate) fn num(&self) -> Num<'_> {
        match self.int {
            Some(i) => Num::Int(i),
            None => self.scanned.num(&self.text),
        }
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Operand {
    fn visit(&self, with_has: bool, f: &mut impl FnMut(&FieldRef)) {
        match self {
            Operand::Field(r) => f(r),
            Operand::Term(t) => t.visit(with_has, f),
            _ => {}
        }
    }

    fn resolve<E>(&mut self, resolve: &mut impl FnMut(&str) -> Result<usize, E>) -> Result<(), E> {
        match self {
            Operand::Field(r) => {
                r.id = resolve(&r.name)?;
                Ok(())
            }
            Operand::Term(t) => t.resolve(resolve),
            _ => Ok(()),
        }
    }

    /// The value of a constant number (or Verilog literal).
    fn number(&self) -> Option<Num<'_>> {
        match self {
            Operand::Number(n) => Some(n.num()),
            Operand::Literal(l) => Some(Num::Int(l.value.into())),
            _ => None,
        }
    }
}

/// A field named in an expression, with the index the reader gave it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldRef {
    /// The name, as written.
    pub name: String,
    /// A bit- or part-select.
    pub select: Option<Select>,
    /// The reader's index of the field ([`Expr::resolve`]).
    pub id: usize,
}

/// An expression over the fields of an event.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A field read as a Boolean (or a selected bit).
    Field(FieldRef),
    /// A comparison.
    Compare(Operand, Comparison, Operand),
    /// A constant.
    Const(bool),
    /// `$isunknown(x)` (IEEE 1800-2017 §20.9): whether the field (a
    /// waveform's vector, or its selected bits) has an `x` or `z` bit.
    Unknown(FieldRef),
    /// Negation.
    Not(Box<Expr>),
    /// Conjunction.
    And(Vec<Expr>),
    /// Disjunction.
    Or(Vec<Expr>),
    /// A computed value as a proposition (`v & w`, `&v`, `cnt + 1`): it
    /// holds when the value is not zero, as the condition of an `if`.
    Value(Term),
    /// `has(x)`, `x != null`: whether the field is present ([`is_missing`]
    /// says when it is not); `x == null` is its negation.
    Has(FieldRef),
    /// A test of a field's text: `msg contains "timeout"`, `path
    /// starts_with "/api"`, `msg matches /time.?out/`, and the strings of
    /// `level in ["WARN", "ERROR"]`.
    Text(FieldRef, TextTest),
}

/// What [`Expr::Text`] tests of a field's text (a CSV cell, a JSON string
/// without its quotes, any other JSON value as JSON writes it).
///
/// ```
/// use monitor_core::trace::expr::{Expr, TextTest};
///
/// let Expr::Text(f, TextTest::StartsWith(p)) = Expr::parse("path starts_with \"/api\"")? else {
///     unreachable!()
/// };
/// assert_eq!((f.name.as_str(), p.as_str()), ("path", "/api"));
/// # Ok::<(), monitor_core::trace::expr::ExprError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum TextTest {
    /// `contains "s"`.
    Contains(String),
    /// `starts_with "s"`.
    StartsWith(String),
    /// `ends_with "s"`.
    EndsWith(String),
    /// `matches /re/`: the regex matches somewhere in the text (anchor it
    /// with `^` and `$` for the whole text).
    Matches(Pattern),
    /// `in ["a", "b"]`: the text is one of the strings (the strings of a
    /// list; its numbers are compared as `==` compares them).
    OneOf(Vec<String>),
    /// `not in ["a", "b"]`: the text is none of the strings (as `!=` each;
    /// false of a missing field, as `!=` is).
    NoneOf(Vec<String>),
}

impl TextTest {
    /// Whether the test holds of a field's text.
    fn holds(&self, text: &str) -> bool {
        match self {
            TextTest::Contains(s) => text.contains(s.as_str()),
            TextTest::StartsWith(s) => text.starts_with(s.as_str()),
            TextTest::EndsWith(s) => text.ends_with(s.as_str()),
            TextTest::Matches(p) => p.is_match(text),
            TextTest::OneOf(xs) => xs.iter().any(|x| x == text),
            TextTest::NoneOf(xs) => xs.iter().all(|x| x != text),
        }
    }
}

/// A regex of `matches`, compiled once, when the expression is parsed,
/// within [`REGEX_SIZE_LIMIT`]; matched in time linear in the text.
///
/// ```
/// use monitor_core::trace::expr::{Expr, TextTest};
///
/// let Expr::Text(_, TextTest::Matches(re)) = Expr::parse("msg matches /time\\/?out/")? else {
///     unreachable!()
/// };
/// assert_eq!(re.as_str(), "time/?out");
/// assert!(re.is_match("a timeout") && re.is_match("time/out") && !re.is_match("time"));
/// # Ok::<(), monitor_core::trace::expr::ExprError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Pattern {
    regex: regex::Regex,
}

impl Pattern {
    /// The regex, as `regex` reads it (`\/` written in the expression is
    /// `/`).
    pub fn as_str(&self) -> &str {
        self.regex.as_str()
    }

    /// Whether it matches somewhere in `text`.
    pub fn is_match(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

/// How large a regex of `matches` may compile (bytes of its automaton,
/// `regex::RegexBuilder::size_limit`): a larger one (`\w{1000}` and the
/// like) is refused when the expression is parsed.
pub const REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A syntax error in an expression: the message and the byte column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// What is wrong.
    pub message: String,
    /// The text.
    pub text: String,
    /// Where (0-based byte offset).
    pub at: usize,
}

// The text comes from the user's command line or file: it is shown with
// the characters a terminal acts on escaped (`super::escape`), the caret
// under the escaped text, the column counted in the text as written.
impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let before = self.text.get(..self.at).unwrap_or(&self.text);
        let col = before.chars().count();
        let text = super::escape(&self.text);
        write!(
            f,
            "in `{text}`, column {}: {}\n  {text}\n  {}^",
            col + 1,
            super::escape(&self.message),
            " ".repeat(super::escape(before).chars().count())
        )
    }
}

impl std::error::Error for ExprError {}

/// Whether a constant is signed in Verilog and compares differently there
/// than by its value: a negative integer (`-1` is 2^32 - 1 against a
/// 32-bit unsigned vector) or a signed literal (`4'shF` is -1 against
/// another signed constant). Its comparisons are terms, which give
/// Verilog's meaning on a waveform.
fn verilog_signed(o: &Operand) -> bool {
    match o {
        Operand::Number(n) => {
            n.int.is_some_and(|i| i < 0 && i >= i128::from(i32::MIN))
                && !n.text.contains(['.', 'e', 'E'])
        }
        Operand::Literal(l) => l.signed,
        _ => false,
    }
}

/// How deeply parentheses and unary operators may nest.
const MAX_DEPTH: usize = 200;

/// How many operators of terms an expression may have (each is a node
/// that evaluation recurses on).
const MAX_OPERATORS: usize = 1000;

struct Parser<'a> {
    s: &'a str,
    i: usize,
    /// Operators of terms read so far.
    ops: usize,
}

impl<'a> Parser<'a> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, ExprError> {
        Err(ExprError {
            message: message.into(),
            text: self.s.to_string(),
            at: self.i,
        })
    }

    fn ws(&mut self) {
        let rest = &self.s[self.i..];
        self.i += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.s[self.i..].starts_with(t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn peek_is(&mut self, t: &str) -> bool {
        self.ws();
        self.s[self.i..].starts_with(t)
    }

    /// Counts an operator of a term: terms are bounded (their evaluation
    /// recurses on them).
    fn count(&mut self) -> Result<(), ExprError> {
        self.ops += 1;
        if self.ops > MAX_OPERATORS {
            return self.err(format!(
                "too many operators: at most {MAX_OPERATORS} in an expression"
            ));
        }
        Ok(())
    }

    /// `t`, an operand of arithmetic read from `at`: no string.
    fn value(&mut self, t: Term, at: usize) -> Result<Term, ExprError> {
        if let Term::Operand(Operand::Str(_)) = t {
            self.i = at;
            return self.err("a string in arithmetic: compare it with `==` or `!=`");
        }
        Ok(t)
    }

    /// `a || b`.
    fn or(&mut self, depth: usize) -> Result<Term, ExprError> {
        let first = self.and(depth)?;
        if !self.peek_is("||") {
            return Ok(first);
        }
        let mut xs = vec![self.to_bool(first)?];
        while self.eat("||") {
            let t = self.and(depth)?;
            xs.push(self.to_bool(t)?);
        }
        Ok(Term::Bool(Box::new(Expr::Or(xs))))
    }

    /// `a && b`.
    fn and(&mut self, depth: usize) -> Result<Term, ExprError> {
        let first = self.bit_or(depth)?;
        if !self.peek_is("&&") {
            return Ok(first);
        }
        let mut xs = vec![self.to_bool(first)?];
        while self.eat("&&") {
            let t = self.bit_or(depth)?;
            xs.push(self.to_bool(t)?);
        }
        Ok(Term::Bool(Box::new(Expr::And(xs))))
    }

    /// A left-associative level of binary operators: `ops` (tried in
    /// order; a `None` operator is refused) over `next`.
    fn binary(
        &mut self,
        depth: usize,
        ops: &[(&str, Option<BinaryOp>)],
        not_before: &[&str],
        next: fn(&mut Self, usize) -> Result<Term, ExprError>,
    ) -> Result<Term, ExprError> {
        self.ws();
        let mut at = self.i;
        let mut t = next(self, depth)?;
        'more: loop {
            if not_before.iter().any(|n| self.peek_is(n)) {
                return Ok(t);
            }
            for (text, op) in ops {
                if self.peek_is(text) {
                    let Some(op) = op else {
                        return self.err(format!("`{text}` is not supported"));
                    };
                    self.i += text.len();
                    self.count()?;
                    t = self.value(t, at)?;
                    self.ws();
                    at = self.i;
                    let r = next(self, depth)?;
                    let r = self.value(r, at)?;
                    t = Term::Binary(Box::new(t), *op, Box::new(r));
                    continue 'more;
                }
            }
            return Ok(t);
        }
    }

    fn bit_or(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(depth, &[("|", Some(BinaryOp::Or))], &["||"], Self::bit_xor)
    }

    fn bit_xor(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(
            depth,
            &[
                ("^~", Some(BinaryOp::Xnor)),
                ("~^", Some(BinaryOp::Xnor)),
                ("^", Some(BinaryOp::Xor)),
            ],
            &[],
            Self::bit_and,
        )
    }

    fn bit_and(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(
            depth,
            &[("&", Some(BinaryOp::And))],
            &["&&"],
            Self::equality,
        )
    }

    /// Equality and relational operators (two levels, as Verilog has
    /// them).
    fn equality(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.comparisons(
            depth,
            &[
                ("===", Comparison::CaseEq),
                ("!==", Comparison::CaseNe),
                ("==", Comparison::Eq),
                ("!=", Comparison::Ne),
                ("=", Comparison::Eq),
            ],
            Self::relational,
        )
    }

    fn relational(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.comparisons(
            depth,
            &[
                ("<=", Comparison::Le),
                (">=", Comparison::Ge),
                ("<", Comparison::Lt),
                (">", Comparison::Gt),
            ],
            Self::shift,
        )
    }

    fn comparisons(
        &mut self,
        depth: usize,
        ops: &[(&str, Comparison)],
        next: fn(&mut Self, usize) -> Result<Term, ExprError>,
    ) -> Result<Term, ExprError> {
        let relational = ops.iter().any(|(_, op)| *op == Comparison::Lt);
        self.ws();
        let at = self.i;
        let mut t = next(self, depth)?;
        loop {
            // `in`, `contains`, ...: at the level of `<`.
            if relational {
                if let Some(word) = self.word_operator() {
                    t = self.word_comparison(t, at, word)?;
                    continue;
                }
            }
            let Some(&(_, op)) = ops.iter().find(|(text, _)| self.eat(text)) else {
                break;
            };
            if matches!(op, Comparison::Eq | Comparison::Ne) && self.keyword("null") {
                let Term::Operand(Operand::Field(r @ FieldRef { select: None, .. })) = t else {
                    self.i = at;
                    return self.err("`null` is compared with a field: `x == null`, `x != null`");
                };
                let has = Expr::Has(r);
                t = Term::Bool(Box::new(if op == Comparison::Eq {
                    Expr::Not(Box::new(has))
                } else {
                    has
                }));
                continue;
            }
            let r = next(self, depth)?;
            t = Term::Bool(Box::new(self.comparison(t, op, r)?));
        }
        Ok(t)
    }

    /// Whether the word `w` (not the start of a longer name) is next; if
    /// it is, it is read.
    fn keyword(&mut self, w: &str) -> bool {
        self.ws();
        let rest = &self.s[self.i..];
        let whole = rest.starts_with(w)
            && !rest[w.len()..]
                .starts_with(|d: char| d.is_ascii_alphanumeric() || matches!(d, '_' | '.' | '$'));
        if whole {
            self.i += w.len();
        }
        whole
    }

    /// An operator written as a word (`in`, `not in`, `contains`,
    /// `starts_with`, `ends_with`, `matches`), read if it is next.
    fn word_operator(&mut self) -> Option<&'static str> {
        let at = self.i;
        if self.keyword("not") {
            if self.keyword("in") {
                return Some("not in");
            }
            self.i = at;
            return None;
        }
        ["in", "contains", "starts_with", "ends_with", "matches"]
            .into_iter()
            .find(|w| self.keyword(w))
    }

    /// `t word ...`, `t` read from `at`.
    // Out of line: `comparisons` is on the path of every nested
    // parenthesis, and its frame bounds how deep they may nest.
    #[inline(never)]
    fn word_comparison(&mut self, t: Term, at: usize, word: &str) -> Result<Term, ExprError> {
        if word == "in" || word == "not in" {
            return self.list(t, at, word == "not in");
        }
        let Term::Operand(Operand::Field(r @ FieldRef { select: None, .. })) = t else {
            self.i = at;
            return self.err(format!(
                "`{word}` reads a field's text: `msg {word} {}`",
                if word == "matches" { "/re/" } else { "\"a\"" }
            ));
        };
        self.ws();
        let test = if word == "matches" {
            TextTest::Matches(self.regex()?)
        } else {
            let string_at = self.i;
            let Operand::Str(text) = self.operand()? else {
                self.i = string_at;
                return self.err(format!("`{word}` takes a string in quotes"));
            };
            match word {
                "contains" => TextTest::Contains(text),
                "starts_with" => TextTest::StartsWith(text),
                _ => TextTest::EndsWith(text),
            }
        };
        Ok(Term::Bool(Box::new(Expr::Text(r, test))))
    }

    /// After `in` (`not in`, `negated`): `[a, b, ...]`, constants; `t`
    /// read from `at` is one of them, compared as `==` compares (strings
    /// by text).
    #[inline(never)]
    fn list(&mut self, t: Term, at: usize, negated: bool) -> Result<Term, ExprError> {
        if !self.eat("[") {
            return self.err("expected a list: `[1, 2]`, `[\"a\", \"b\"]`");
        }
        if self.peek_is("]") {
            return self.err("an empty list: `x in [1, 2]`");
        }
        let mut numbers = Vec::new();
        let mut strings = Vec::new();
        loop {
            self.ws();
            let item_at = self.i;
            match self.operand()? {
                Operand::Str(s) => strings.push(s),
                o @ (Operand::Number(_) | Operand::Literal(_)) => numbers.push((o, item_at)),
                _ => {
                    self.i = item_at;
                    return self.err("a list holds numbers and strings in quotes");
                }
            }
            if self.eat("]") {
                break;
            }
            if !self.eat(",") {
                return self.err("expected `,` or `]`");
            }
        }
        // Each number is a comparison, as `==` would be: a computed value
        // on the left is copied to each (and counted, since the copies are
        // evaluated).
        let plain = matches!(t, Term::Operand(Operand::Field(_)));
        let end = self.i;
        let op = if negated {
            Comparison::Ne
        } else {
            Comparison::Eq
        };
        let mut xs = Vec::new();
        for (n, item_at) in numbers {
            if !plain {
                self.count()?;
            }
            self.i = item_at;
            xs.push(self.comparison(t.clone(), op, Term::Operand(n))?);
        }
        if !strings.is_empty() {
            let Term::Operand(Operand::Field(r @ FieldRef { select: None, .. })) = t else {
                self.i = at;
                return self.err("strings in a list are compared with a field's text");
            };
            xs.push(Expr::Text(
                r,
                if negated {
                    TextTest::NoneOf(strings)
                } else {
                    TextTest::OneOf(strings)
                },
            ));
        }
        self.i = end;
        Ok(Term::Bool(Box::new(match xs.len() {
            1 => xs.pop().expect("one"),
            _ if negated => Expr::And(xs),
            _ => Expr::Or(xs),
        })))
    }

    /// After `matches`: `/re/` (`\/` is a `/` of the regex), compiled.
    #[inline(never)]
    fn regex(&mut self) -> Result<Pattern, ExprError> {
        let start = self.i;
        if !self.s[start..].starts_with('/') {
            return self.err("expected a regex between slashes: `msg matches /time.?out/`");
        }
        let mut source = String::new();
        let mut chars = self.s[start + 1..].char_indices();
        let mut end = None;
        while let Some((k, c)) = chars.next() {
            match c {
                '\\' => match chars.next() {
                    Some((_, '/')) => source.push('/'),
                    Some((_, e)) => {
                        source.push('\\');
                        source.push(e);
                    }
                    None => break,
                },
                '/' => {
                    end = Some(start + 1 + k + 1);
                    break;
                }
                c => source.push(c),
            }
        }
        let Some(end) = end else {
            return self.err("this regex is never closed: end it with `/`");
        };
        match regex::RegexBuilder::new(&source)
            .size_limit(REGEX_SIZE_LIMIT)
            .build()
        {
            Ok(regex) => {
                self.i = end;
                Ok(Pattern { regex })
            }
            Err(regex::Error::CompiledTooBig(limit)) => self.err(format!(
                "this regex compiles to more than {limit} bytes, the bound: simplify it"
            )),
            Err(e) => {
                // `regex` explains on several lines, the last one naming
                // the fault.
                let why = e.to_string();
                let why = why
                    .lines()
                    .rev()
                    .find_map(|l| l.trim().strip_prefix("error: "))
                    .unwrap_or(why.trim());
                self.err(format!("not a regex: {why}"))
            }
        }
    }

    /// The comparison `t op r` (the operands of arithmetic, or of
    /// Verilog's signed reading, make a comparison of terms).
    fn comparison(&mut self, t: Term, op: Comparison, r: Term) -> Result<Expr, ExprError> {
        {
            let e = match (t, r) {
                (Term::Operand(a), Term::Operand(b))
                    if !matches!(a, Operand::Term(_))
                        && !matches!(b, Operand::Term(_))
                        && (matches!(op, Comparison::CaseEq | Comparison::CaseNe)
                            || !(verilog_signed(&a) || verilog_signed(&b))) =>
                {
                    Expr::Compare(a, op, b)
                }
                (a, b) => {
                    if [&a, &b]
                        .iter()
                        .any(|t| matches!(t, Term::Operand(Operand::Str(_))))
                    {
                        return self.err("a string is compared with a computed value");
                    }
                    self.count()?;
                    Expr::Compare(Operand::Term(Box::new(a)), op, Operand::Term(Box::new(b)))
                }
            };
            Ok(e)
        }
    }

    fn shift(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(
            depth,
            &[
                ("<<<", Some(BinaryOp::AShl)),
                (">>>", Some(BinaryOp::AShr)),
                ("<<", Some(BinaryOp::Shl)),
                (">>", Some(BinaryOp::Shr)),
            ],
            &[],
            Self::additive,
        )
    }

    fn additive(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(
            depth,
            &[("+", Some(BinaryOp::Add)), ("-", Some(BinaryOp::Sub))],
            &[],
            Self::multiplicative,
        )
    }

    fn multiplicative(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.binary(
            depth,
            &[
                ("**", None),
                ("*", Some(BinaryOp::Mul)),
                ("/", Some(BinaryOp::Div)),
                ("%", Some(BinaryOp::Mod)),
            ],
            &[],
            Self::unary,
        )
    }

    fn unary(&mut self, depth: usize) -> Result<Term, ExprError> {
        if depth > MAX_DEPTH {
            return self.err("nested too deeply");
        }
        if self.peek_is("!=") {
            return self.err("expected an operand");
        }
        if self.eat("!") {
            let t = self.unary(depth + 1)?;
            return Ok(Term::Bool(Box::new(Expr::Not(Box::new(self.to_bool(t)?)))));
        }
        let rest = &self.s[self.i..];
        // A sign before digits is the number's (`-5`), as it was before
        // arithmetic, unless a based literal follows (`-4'd5`).
        let signed_number = matches!(rest.as_bytes().first(), Some(b'-' | b'+'))
            && rest[1..].starts_with(|d: char| d.is_ascii_digit())
            && literal_len(&rest[1..]) == 0;
        let op = if signed_number {
            None
        } else {
            [
                ("~&", UnaryOp::Nand),
                ("~|", UnaryOp::Nor),
                ("~^", UnaryOp::Xnor),
                ("^~", UnaryOp::Xnor),
                ("~", UnaryOp::Not),
                ("^", UnaryOp::Xor),
                ("-", UnaryOp::Neg),
                ("+", UnaryOp::Plus),
            ]
            .into_iter()
            .find(|(t, _)| rest.starts_with(t))
            .or_else(|| {
                [("&", UnaryOp::And), ("|", UnaryOp::Or)]
                    .into_iter()
                    .find(|(t, _)| rest.starts_with(t) && !rest[1..].starts_with(t))
            })
        };
        if let Some((text, op)) = op {
            self.i += text.len();
            self.count()?;
            self.ws();
            let at = self.i;
            let x = self.unary(depth + 1)?;
            return Ok(Term::Unary(op, Box::new(self.value(x, at)?)));
        }
        self.primary(depth)
    }

    fn primary(&mut self, depth: usize) -> Result<Term, ExprError> {
        if self.eat("(") {
            let t = self.or(depth + 1)?;
            if !self.eat(")") {
                return self.err("expected `)`");
            }
            return Ok(t);
        }
        if self.eat("{") {
            return self.concatenation(depth + 1);
        }
        let at = self.i;
        if self.keyword("has") {
            if !self.eat("(") {
                // A field named `has`.
                self.i = at;
            } else {
                self.ws();
                let arg = self.i;
                let Operand::Field(r @ FieldRef { select: None, .. }) = self.operand()? else {
                    self.i = arg;
                    return self.err("`has` reads a field: `has(latency_ms)`");
                };
                if !self.eat(")") {
                    return self.err("expected `)`");
                }
                return Ok(Term::Bool(Box::new(Expr::Has(r))));
            }
        }
        let rest = &self.s[self.i..];
        let function = ["$isunknown", "$signed", "$unsigned"]
            .into_iter()
            .find(|f| {
                rest.starts_with(f)
                    && !rest[f.len()..]
                        .starts_with(|d: char| d.is_ascii_alphanumeric() || matches!(d, '_' | '$'))
            });
        if let Some(f) = function {
            self.i += f.len();
            if !self.eat("(") {
                return self.err("expected `(`");
            }
            let t = if f == "$isunknown" {
                let Operand::Field(r) = self.operand()? else {
                    return self.err("`$isunknown` reads a field");
                };
                Term::Bool(Box::new(Expr::Unknown(r)))
            } else {
                self.count()?;
                self.ws();
                let at = self.i;
                let x = self.or(depth + 1)?;
                let x = Box::new(self.value(x, at)?);
                if f == "$signed" {
                    Term::Signed(x)
                } else {
                    Term::Unsigned(x)
                }
            };
            if !self.eat(")") {
                return self.err("expected `)`");
            }
            return Ok(t);
        }
        Ok(Term::Operand(self.operand()?))
    }

    /// After `{`: `a, b}` or `n{a, b}}`.
    fn concatenation(&mut self, depth: usize) -> Result<Term, ExprError> {
        if depth > MAX_DEPTH {
            return self.err("nested too deeply");
        }
        self.count()?;
        self.ws();
        let first_at = self.i;
        let first = self.or(depth)?;
        if self.eat("{") {
            let n = match &first {
                Term::Operand(Operand::Number(n)) if !n.text.contains(['.', 'e', 'E']) => {
                    n.int.and_then(|i| u32::try_from(i).ok())
                }
                Term::Operand(Operand::Literal(l)) => u32::try_from(l.value).ok(),
                _ => None,
            };
            let Some(n) = n.filter(|n| (1..=arith::MAX_BITS).contains(n)) else {
                self.i = first_at;
                return self.err(format!(
                    "a replication count is a constant from 1 to {}",
                    arith::MAX_BITS
                ));
            };
            let items = self.items(depth, None)?;
            if !self.eat("}") {
                return self.err("expected `}`");
            }
            return Ok(Term::Replicate(n, items));
        }
        let after = self.i;
        self.i = first_at;
        let first = self.sized(first)?;
        self.i = after;
        Ok(Term::Concat(self.items(depth, Some(first))?))
    }

    /// The items of a concatenation, after the first (if read) up to its
    /// `}`.
    fn items(&mut self, depth: usize, first: Option<Term>) -> Result<Vec<Term>, ExprError> {
        let mut items = match first {
            Some(t) => vec![t],
            None => vec![self.item(depth)?],
        };
        while self.eat(",") {
            items.push(self.item(depth)?);
        }
        if !self.eat("}") {
            return self.err("expected `,` or `}`");
        }
        Ok(items)
    }

    /// An item of a concatenation: anything with a width.
    fn item(&mut self, depth: usize) -> Result<Term, ExprError> {
        self.ws();
        let at = self.i;
        let t = self.or(depth)?;
        let end = self.i;
        self.i = at;
        let t = self.sized(t)?;
        self.i = end;
        Ok(t)
    }

    /// `t`, read at the current place, if it has a width.
    fn sized(&mut self, t: Term) -> Result<Term, ExprError> {
        let at = self.i;
        let no_width = match &t {
            Term::Operand(Operand::Number(_)) => true,
            Term::Operand(Operand::Literal(l)) => l.width.is_none(),
            Term::Operand(Operand::Str(_)) => {
                self.i = at;
                return self.err("a string in a concatenation");
            }
            _ => false,
        };
        if no_width {
            self.i = at;
            return self.err("an unsized number in a concatenation: give it a width (`4'd3`)");
        }
        Ok(t)
    }

    /// A term in a Boolean place (the whole expression, an operand of
    /// `!`, `&&`, `||`): Boolean operators stay Boolean (their operands
    /// one bit wide, or Booleans of a log); any other value holds when
    /// it is not zero.
    fn to_bool(&self, t: Term) -> Result<Expr, ExprError> {
        /// One bit wide in Verilog, a Boolean in a log.
        fn boolean(t: &Term) -> bool {
            match t {
                Term::Bool(_) | Term::Operand(Operand::Bool(_)) => true,
                Term::Operand(Operand::Field(f)) => !matches!(f.select, Some(Select::Part(..))),
                Term::Unary(UnaryOp::Not, x) => boolean(x),
                Term::Binary(a, BinaryOp::And | BinaryOp::Or, b) => boolean(a) && boolean(b),
                _ => false,
            }
        }
        Ok(match t {
            Term::Bool(e) => *e,
            Term::Operand(Operand::Field(f)) => Expr::Field(f),
            Term::Operand(Operand::Bool(b)) => Expr::Const(b),
            Term::Operand(Operand::Term(t)) => self.to_bool(*t)?,
            Term::Operand(Operand::Str(_)) => {
                return self.err("a string alone is not a Boolean: compare it (`x == \"a\"`)");
            }
            // A constant operand of `!`, `&&`, `||`: Verilog's truth.
            t @ Term::Operand(_) => Expr::Value(t),
            Term::Unary(UnaryOp::Not, x) if boolean(&x) => Expr::Not(Box::new(self.to_bool(*x)?)),
            Term::Binary(a, op @ (BinaryOp::And | BinaryOp::Or), b)
                if boolean(&a) && boolean(&b) =>
            {
                let (a, b) = (self.to_bool(*a)?, self.to_bool(*b)?);
                match (op, a) {
                    (BinaryOp::And, Expr::And(mut xs)) => {
                        xs.push(b);
                        Expr::And(xs)
                    }
                    (BinaryOp::And, a) => Expr::And(vec![a, b]),
                    (_, Expr::Or(mut xs)) => {
                        xs.push(b);
                        Expr::Or(xs)
                    }
                    (_, a) => Expr::Or(vec![a, b]),
                }
            }
            t => Expr::Value(t),
        })
    }

    fn operand(&mut self) -> Result<Operand, ExprError> {
        self.ws();
        let rest = &self.s[self.i..];
        let start = self.i;
        let Some(c) = rest.chars().next() else {
            return self.err("expected an operand, found the end");
        };
        let n = literal_len(rest);
        if n > 0 {
            return match Literal::parse(&rest[..n]) {
                Ok(l) => {
                    self.i += n;
                    Ok(Operand::Literal(l))
                }
                Err(e) => self.err(format!("literal `{}`: {e}", &rest[..n])),
            };
        }
        if c == '"' || c == '\'' {
            let mut out = String::new();
            let mut chars = rest[1..].char_indices();
            while let Some((k, ch)) = chars.next() {
                match ch {
                    '\\' => match chars.next() {
                        Some((_, e)) => out.push(e),
                        None => break,
                    },
                    ch if ch == c => {
                        self.i = start + 1 + k + 1;
                        return Ok(Operand::Str(out));
                    }
                    ch => out.push(ch),
                }
            }
            return self.err("this string is never closed");
        }
        if c.is_ascii_digit()
            || (matches!(c, '-' | '+') && rest[1..].starts_with(|d: char| d.is_ascii_digit()))
        {
            // Digits, points, `_` and exponents (whose sign follows the
            // `e`); `parse_decimal` checks the form.
            let b = rest.as_bytes();
            let mut len = 1;
            while len < b.len() {
                match b[len] {
                    b'0'..=b'9' | b'.' | b'_' => len += 1,
                    b'e' | b'E' => {
                        len += 1;
                        if matches!(b.get(len), Some(b'+' | b'-')) {
                            len += 1;
                        }
                    }
                    _ => break,
                }
            }
            let text: String = rest[..len].chars().filter(|&d| d != '_').collect();
            return match parse_decimal(&text) {
                Ok(Some(n)) => {
                    let int = n.as_i128();
                    self.i += len;
                    let scanned = Scanned::of(&text);
                    Ok(Operand::Number(Number { text, int, scanned }))
                }
                Ok(None) => self.err(format!("`{}` is not a number", &rest[..len])),
                Err(e) => self.err(format!("`{}`: {e}", &rest[..len])),
            };
        }
        if c.is_ascii_alphabetic() || c == '_' || c == '$' {
            let len = rest
                .find(|d: char| !(d.is_ascii_alphanumeric() || matches!(d, '_' | '.' | '$')))
                .unwrap_or(rest.len());
            let name = rest[..len].trim_end_matches('.').to_string();
            self.i += name.len();
            match name.as_str() {
                "true" | "TRUE" => return Ok(Operand::Bool(true)),
                "false" | "FALSE" => return Ok(Operand::Bool(false)),
                "null" => {
                    self.i = start;
                    return self.err(
                        "`null` is compared with a field by `==` or `!=`: `x == null` holds \
                         when `x` is missing",
                    );
                }
                _ => {}
            }
            let select = self.select()?;
            return Ok(Operand::Field(FieldRef {
                name,
                select,
                id: usize::MAX,
            }));
        }
        self.err(format!(
            "expected a field, a number or a string, found `{c}`"
        ))
    }

    fn select(&mut self) -> Result<Option<Select>, ExprError> {
        if !self.s[self.i..].starts_with('[') {
            return Ok(None);
        }
        self.i += 1;
        let num = |p: &mut Parser<'_>| -> Result<u32, ExprError> {
            p.ws();
            let rest = &p.s[p.i..];
            let len = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            match rest[..len].parse::<u32>() {
                Ok(v) => {
                    p.i += len;
                    Ok(v)
                }
                Err(_) => p.err("expected a bit number"),
            }
        };
        let hi = num(self)?;
        let sel = if self.eat(":") {
            let lo = num(self)?;
            if lo > hi {
                return self.err("write the most significant bit first: `[msb:lsb]`");
            }
            Select::Part(hi, lo)
        } else {
            Select::Bit(hi)
        };
        if !self.eat("]") {
            return self.err("expected `]`");
        }
        Ok(Some(sel))
    }
}

/// A field (whole) compared with a number, `latency > 100`: the common
/// atom of logs. Several such atoms on one field share the field's number,
/// read once per event; [`FieldVsNumber::holds`] is exactly what
/// [`Expr::eval`] computes from it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FieldVsNumber {
    /// The field's index.
    pub(crate) id: usize,
    op: Comparison,
    number: Number,
    /// Whether the field is the left operand.
    field_first: bool,
    /// Whether the number is a negative integer, which Verilog compares
    /// differently with a vector (`v > -1` is false): then only a field
    /// that is no vector is read from its number; a vector is the general
    /// evaluation's.
    pub(crate) not_for_vectors: bool,
}

impl FieldVsNumber {
    /// The comparison `e` is, if it is one of a whole field with a number.
    pub(crate) fn of(e: &Expr) -> Option<FieldVsNumber> {
        let number = |o: &Operand| match o {
            Operand::Number(n) => Some(n.clone()),
            Operand::Literal(l) => {
                let text = l.value.to_string();
                let scanned = Scanned::of(&text);
                Some(Number {
                    text,
                    int: Some(l.value.into()),
                    scanned,
                })
            }
            _ => None,
        };
        let field = |o: &Operand| match o {
            Operand::Field(r) if r.select.is_none() => Some(r.id),
            _ => None,
        };
        // A comparison with a negative integer is a term (for Verilog's
        // meaning on vectors); on other values it is the exact comparison.
        if let Expr::Compare(Operand::Term(a), op, Operand::Term(b)) = e {
            let plain = |t: &Term| match t {
                Term::Operand(o @ (Operand::Field(_) | Operand::Number(_))) => Some(o.clone()),
                _ => None,
            };
            let (a, b) = (plain(a)?, plain(b)?);
            let c = FieldVsNumber::of(&Expr::Compare(a, *op, b))?;
            return Some(FieldVsNumber {
                not_for_vectors: true,
                ..c
            });
        }
        match e {
            // Case equality reads unknown bits, which have no number.
            Expr::Compare(_, Comparison::CaseEq | Comparison::CaseNe, _) => None,
            Expr::Compare(a, op, b) => match (field(a), number(b), number(a), field(b)) {
                (Some(id), Some(number), _, _) => Some(FieldVsNumber {
                    id,
                    op: *op,
                    number,
                    field_first: true,
                    not_for_vectors: false,
                }),
                (_, _, Some(number), Some(id)) => Some(FieldVsNumber {
                    id,
                    op: *op,
                    number,
                    field_first: false,
                    not_for_vectors: false,
                }),
                _ => None,
            },
            _ => None,
        }
    }

    /// The comparison's value where the field's number is `field`.
    #[inline]
    pub(crate) fn holds(&self, field: Num<'_>) -> bool {
        let o = field.compare(self.number.num());
        compares(if self.field_first { o } else { o.reverse() }, self.op)
    }
}

/// A whole field's text compared with strings: `event == "request"`,
/// `level in ["WARN", "ERROR"]`, `msg contains "timeout"`, the common atoms
/// of logs. When the field is text (a CSV cell, a JSON string),
/// [`FieldVsText::holds`] of its text is exactly what [`Expr::eval`] and
/// [`Expr::eval_strict`] compute (once a missing field is taken care of);
/// any other value (a JSON number, a waveform's bits) is the general
/// evaluation's, which says how it reads as text or why it does not.
#[derive(Clone, Debug)]
pub(crate) struct FieldVsText {
    /// The field's index.
    pub(crate) id: usize,
    test: FieldTextTest,
}

/// What [`FieldVsText`] tests of the field's text.
#[derive(Clone, Debug)]
enum FieldTextTest {
    /// A comparison with a string, the field on the left
    /// (`field_first`) or on the right: text is ordered by its bytes.
    Compare {
        op: Comparison,
        text: String,
        field_first: bool,
    },
    /// `in`, `contains` and the other tests of [`Expr::Text`].
    Test(TextTest),
}

impl FieldVsText {
    /// The test `e` is, if it is one of a whole field's text with strings.
    pub(crate) fn of(e: &Expr) -> Option<FieldVsText> {
        let compare = |r: &FieldRef, op: &Comparison, text: &str, field_first| {
            r.select.is_none().then(|| FieldVsText {
                id: r.id,
                test: FieldTextTest::Compare {
                    op: *op,
                    text: text.to_string(),
                    field_first,
                },
            })
        };
        match e {
            Expr::Compare(Operand::Field(r), op, Operand::Str(s)) => compare(r, op, s, true),
            Expr::Compare(Operand::Str(s), op, Operand::Field(r)) => compare(r, op, s, false),
            Expr::Text(r, test) if r.select.is_none() => Some(FieldVsText {
                id: r.id,
                test: FieldTextTest::Test(test.clone()),
            }),
            _ => None,
        }
    }

    /// The string the field's text is tested to equal (`==`, `===`:
    /// `true`) or to differ from (`!=`, `!==`: `false`), if the test is
    /// one of these.
    pub(crate) fn equality(&self) -> Option<(&str, bool)> {
        match &self.test {
            FieldTextTest::Compare { op, text, .. } => match op {
                Comparison::Eq | Comparison::CaseEq => Some((text, true)),
                Comparison::Ne | Comparison::CaseNe => Some((text, false)),
                _ => None,
            },
            FieldTextTest::Test(_) => None,
        }
    }

    /// The test's value where the field's text is `text` (a CSV cell, a
    /// JSON string; a missing one is the caller's).
    #[inline]
    pub(crate) fn holds(&self, text: &str) -> bool {
        match &self.test {
            FieldTextTest::Compare {
                op,
                text: s,
                field_first,
            } => match op {
                // (Equality first: most texts differ in length, and then
                // no bytes are compared; ordering calls memcmp each time.)
                Comparison::Eq | Comparison::CaseEq => text == s,
                Comparison::Ne | Comparison::CaseNe => text != s,
                _ => {
                    let o = text.cmp(s.as_str());
                    compares(if *field_first { o } else { o.reverse() }, *op)
                }
            },
            FieldTextTest::Test(t) => t.holds(text),
        }
    }
}

impl Expr {
    /// Parses an expression.
    ///
    /// ```
    /// use monitor_core::trace::expr::Expr;
    ///
    /// assert_eq!(Expr::parse("true")?, Expr::Const(true));
    /// assert!(matches!(Expr::parse("!(busy || stall) && ready")?, Expr::And(xs) if xs.len() == 2));
    /// let err = Expr::parse("(a && b").unwrap_err();
    /// assert_eq!((err.message.as_str(), err.at), ("expected `)`", 7));
    /// # Ok::<(), monitor_core::trace::expr::ExprError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Expr, ExprError> {
        let mut p = Parser {
            s: text,
            i: 0,
            ops: 0,
        };
        let t = p.or(0)?;
        p.ws();
        if p.i < text.len() {
            return p.err("expected an operator or the end");
        }
        if let Term::Operand(Operand::Number(_) | Operand::Literal(_)) = t {
            // Most likely a slip: a constant proposition is `true`.
            return p.err("a value alone is not a Boolean: compare it (`x == 3`)");
        }
        p.to_bool(t)
    }

    /// The names of the fields the expression reads, in order, once each.
    ///
    /// ```
    /// use monitor_core::trace::expr::Expr;
    ///
    /// let e = Expr::parse("data[3] && state == 4'b0101 || data[0] && !busy")?;
    /// assert_eq!(e.fields(), ["data", "state", "busy"]);
    /// assert!(Expr::parse("1 < 2")?.fields().is_empty());
    /// # Ok::<(), monitor_core::trace::expr::ExprError>(())
    /// ```
    pub fn fields(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.visit(&mut |f: &FieldRef| {
            if !out.contains(&f.name) {
                out.push(f.name.clone());
            }
        });
        out
    }

    /// Whether a field the (resolved) expression reads holds an unknown
    /// value (a bit vector with `x` or `z` bits): an evaluation that failed
    /// on it may be of a proposition the monitors do not depend on.
    pub(crate) fn reads_unknown<'c>(&self, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> bool {
        let mut unknown = false;
        self.visit(&mut |r: &FieldRef| {
            if let Some(Cell::Bits(b)) = cell(r.id) {
                unknown |= b.iter().any(|c| matches!(c, b'x' | b'X' | b'z' | b'Z'));
            }
        });
        unknown
    }

    fn visit(&self, f: &mut impl FnMut(&FieldRef)) {
        self.visit_fields(true, f);
    }

    /// Visits the fields read, those of `has` only with `with_has`.
    fn visit_fields(&self, with_has: bool, f: &mut impl FnMut(&FieldRef)) {
        match self {
            Expr::Has(r) if with_has => f(r),
            Expr::Has(_) => {}
            Expr::Field(r) | Expr::Unknown(r) | Expr::Text(r, _) => f(r),
            Expr::Compare(a, _, b) => {
                a.visit(with_has, f);
                b.visit(with_has, f);
            }
            Expr::Const(_) => {}
            Expr::Not(e) => e.visit_fields(with_has, f),
            Expr::And(xs) | Expr::Or(xs) => xs.iter().for_each(|x| x.visit_fields(with_has, f)),
            Expr::Value(t) => t.visit(with_has, f),
        }
    }

    /// Whether the atom reads a missing field ([`is_missing`]), but in
    /// `has`.
    fn reads_missing<'c>(&self, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> bool {
        let mut missing = false;
        self.visit_fields(false, &mut |r: &FieldRef| {
            missing = missing || is_missing(cell(r.id));
        });
        missing
    }

    /// Gives every field the reader's index, `resolve(name)`.
    ///
    /// ```
    /// use monitor_core::trace::expr::{Cell, Expr};
    ///
    /// let columns = ["time", "req", "ack"];
    /// let mut index = |name: &str| columns.iter().position(|c| *c == name).ok_or(format!("no `{name}`"));
    /// let mut e = Expr::parse("req && !ack")?;
    /// e.resolve(&mut index)?;
    /// let row = ["0", "1", "0"];
    /// assert_eq!(e.eval(&|id| row.get(id).copied().map(Cell::Text)), Ok(true));
    /// let mut unknown = Expr::parse("grant")?;
    /// assert_eq!(unknown.resolve(&mut index), Err("no `grant`".to_string()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn resolve<E>(
        &mut self,
        resolve: &mut impl FnMut(&str) -> Result<usize, E>,
    ) -> Result<(), E> {
        let mut res = |r: &mut FieldRef| -> Result<(), E> {
            r.id = resolve(&r.name)?;
            Ok(())
        };
        match self {
            Expr::Field(r) | Expr::Unknown(r) | Expr::Has(r) | Expr::Text(r, _) => res(r),
            Expr::Compare(a, _, b) => {
                a.resolve(resolve)?;
                b.resolve(resolve)
            }
            Expr::Const(_) => Ok(()),
            Expr::Not(e) => e.resolve(resolve),
            Expr::And(xs) | Expr::Or(xs) => xs.iter_mut().try_for_each(|x| x.resolve(resolve)),
            Expr::Value(t) => t.resolve(resolve),
        }
    }

    /// Evaluates the expression; `cell(id)` reads field `id` of the event
    /// (`None`: the event has no such field).
    ///
    /// A missing field ([`is_missing`]: absent, empty, `null`) is SQL's
    /// NULL in a `WHERE` clause: an atom that reads one — a comparison
    /// (`!=` too), arithmetic in it, a field read as a Boolean, `in`,
    /// `contains` and the other text tests, `$isunknown` — is false,
    /// whatever else it reads. `!`, `&&` and `||` then combine true and
    /// false: `!(x > 5)` holds where `x` is missing. `has(x)` and
    /// `x == null` ask whether it is. [`Expr::eval_strict`] makes a
    /// missing field an error instead.
    ///
    /// ```
    /// use monitor_core::trace::expr::{Cell, Expr};
    ///
    /// let fields = ["latency", "level"];
    /// let event = serde_json::json!({"latency": 250, "level": "ERROR"});
    /// let login = serde_json::json!({"level": "INFO"});
    /// let value = |text: &str, event: &serde_json::Value| {
    ///     let mut e = Expr::parse(text).unwrap();
    ///     e.resolve(&mut |n| fields.iter().position(|f| *f == n).ok_or(()))
    ///         .unwrap();
    ///     e.eval(&|id| event.get(fields[id]).map(Cell::Json))
    /// };
    /// assert_eq!(value("latency > 100 && level == \"ERROR\"", &event), Ok(true));
    /// assert_eq!(value("latency > 100", &login), Ok(false));
    /// assert_eq!(value("latency != 100", &login), Ok(false));
    /// assert_eq!(value("!(latency > 100)", &login), Ok(true));
    /// assert_eq!(value("latency == null && !has(latency)", &login), Ok(true));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn eval<'c>(&self, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> Result<bool, ValueError> {
        match self {
            Expr::Const(b) => Ok(*b),
            Expr::Has(r) => Ok(!is_missing(cell(r.id))),
            Expr::Not(e) => Ok(!e.eval(cell)?),
            Expr::And(xs) => junction(xs, true, |x| x.eval(cell)),
            Expr::Or(xs) => junction(xs, false, |x| x.eval(cell)),
            // An atom: what it nests (a comparison inside arithmetic)
            // reads no missing field once it is evaluated.
            atom if atom.reads_missing(cell) => Ok(false),
            atom => atom.eval_strict(cell),
        }
    }

    /// Evaluates the expression as [`Expr::eval`] does, but a missing
    /// field is no NULL: an absent field is an error, an empty text or a
    /// JSON `null` is the value it is (`""` is no number, and compares as
    /// text). `has(x)` and `x == null` are the same.
    ///
    /// ```
    /// use monitor_core::trace::expr::{Cell, Expr, ValueError};
    ///
    /// let mut e = Expr::parse("latency > 100 && level == \"ERROR\"")?;
    /// let fields = ["latency", "level"];
    /// e.resolve(&mut |n| fields.iter().position(|f| *f == n).ok_or(()))
    ///     .unwrap();
    /// let event = serde_json::json!({"latency": 250, "level": "ERROR"});
    /// let get = |id: usize| event.get(fields[id]).map(Cell::Json);
    /// assert_eq!(e.eval_strict(&get), Ok(true));
    /// let short = serde_json::json!({"latency": 250});
    /// let get = |id: usize| short.get(fields[id]).map(Cell::Json);
    /// assert_eq!(e.eval_strict(&get), Err(ValueError("no field `level` in this event".into())));
    /// assert_eq!(e.eval(&get), Ok(false));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn eval_strict<'c>(
        &self,
        cell: &impl Fn(usize) -> Option<Cell<'c>>,
    ) -> Result<bool, ValueError> {
        let get = |r: &FieldRef| {
            cell(r.id).ok_or_else(|| ValueError(format!("no field `{}` in this event", r.name)))
        };
        let in_field = |r: &FieldRef, e: ValueError| ValueError(format!("`{}`: {}", r.name, e.0));
        match self {
            Expr::Const(b) => Ok(*b),
            Expr::Field(r) => {
                let c = get(r)?;
                match r.select {
                    None => c.as_bool().map_err(|e| in_field(r, e)),
                    Some(s) => Ok(!c.select(s).map_err(|e| in_field(r, e))?.is_zero()),
                }
            }
            Expr::Unknown(r) => {
                let c = get(r)?;
                if unknown_bits(&Operand::Field(r.clone()), cell)?.is_some() {
                    return Ok(true);
                }
                // Anything else is known when it is a value: a vector of 0
                // and 1, a number, a Boolean.
                let known = match r.select {
                    _ if matches!(c, Cell::Bits(_)) => true,
                    None => c.as_num().is_ok() || c.as_bool().is_ok(),
                    Some(s) => c.select(s).is_ok(),
                };
                if known {
                    Ok(false)
                } else {
                    Err(in_field(
                        r,
                        ValueError(format!(
                            "{} is neither a value nor bits: `$isunknown` cannot say",
                            shown(&c)
                        )),
                    ))
                }
            }
            Expr::Not(e) => Ok(!e.eval_strict(cell)?),
            Expr::And(xs) => junction(xs, true, |x| x.eval_strict(cell)),
            Expr::Or(xs) => junction(xs, false, |x| x.eval_strict(cell)),
            Expr::Value(t) => arith::truth(t, cell),
            Expr::Has(r) => Ok(!is_missing(cell(r.id))),
            Expr::Text(r, test) => {
                let c = get(r)?;
                if let Cell::Bits(bits) = c {
                    return Err(in_field(
                        r,
                        ValueError(format!(
                            "{} is a {}-bit vector, not text: compare it with numbers",
                            shown(&c),
                            bits.len()
                        )),
                    ));
                }
                Ok(test.holds(&c.as_text()))
            }
            Expr::Compare(a, op, b)
                if matches!(a, Operand::Term(_)) || matches!(b, Operand::Term(_)) =>
            {
                fn term(o: &Operand) -> std::borrow::Cow<'_, Term> {
                    match o {
                        Operand::Term(t) => std::borrow::Cow::Borrowed(&**t),
                        // Built by hand: the parser makes both operands terms.
                        other => std::borrow::Cow::Owned(Term::Operand(other.clone())),
                    }
                }
                arith::compare(&term(a), *op, &term(b), cell)
            }
            Expr::Compare(a, op, b) => {
                let textual = matches!(a, Operand::Str(_)) || matches!(b, Operand::Str(_));
                let boolean = matches!(a, Operand::Bool(_)) || matches!(b, Operand::Bool(_));
                if textual {
                    // Fetched first, so that the field's text and a string
                    // operand borrow alike (no allocation per event).
                    let fetch = |o: &Operand| match o {
                        Operand::Field(r) => get(r).map(Some),
                        _ => Ok(None),
                    };
                    let (x, y) = (operand_text(a, fetch(a)?)?, operand_text(b, fetch(b)?)?);
                    return Ok(compares(x.cmp(&y), *op));
                }
                if matches!(op, Comparison::CaseEq | Comparison::CaseNe) {
                    if let Some(same) = case_equal(a, b, cell)? {
                        return Ok(same == (*op == Comparison::CaseEq));
                    }
                    // No unknown bits: `===` is `==`.
                }
                if boolean {
                    let truth = |o: &Operand| -> Result<bool, ValueError> {
                        match o {
                            Operand::Bool(b) => Ok(*b),
                            Operand::Field(r) => Expr::Field(r.clone()).eval_strict(cell),
                            Operand::Number(Number { int: Some(i), .. }) if *i == 0 || *i == 1 => {
                                Ok(*i == 1)
                            }
                            Operand::Literal(l) if l.value <= 1 => Ok(l.value == 1),
                            _ => Err(ValueError(
                                "a Boolean is compared with a value that is not one".into(),
                            )),
                        }
                    };
                    let (x, y) = (truth(a)?, truth(b)?);
                    return match op {
                        Comparison::Eq | Comparison::CaseEq => Ok(x == y),
                        Comparison::Ne | Comparison::CaseNe => Ok(x != y),
                        _ => Err(ValueError("Booleans have no order".into())),
                    };
                }
                let x = operand_num(a, cell)?;
                let y = operand_num(b, cell)?;
                Ok(compares(x.compare(y), *op))
            }
        }
    }
}

/// The bits of a field operand when it is a vector of a waveform with
/// unknown (`x`, `z`) digits, selected if it is; `None` otherwise.
fn unknown_bits<'c>(
    o: &Operand,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<Option<&'c [u8]>, ValueError> {
    let Operand::Field(r) = o else {
        return Ok(None);
    };
    let Some(Cell::Bits(bits)) = cell(r.id) else {
        return Ok(None);
    };
    let bits = match r.select {
        None => bits,
        Some(sel) => {
            let (hi, lo) = match sel {
                Select::Bit(i) => (i, i),
                Select::Part(h, l) => (h, l),
            };
            let n = bits.len() as u32;
            if hi >= n {
                return Err(ValueError(format!(
                    "`{}`: bit {hi} of a {n}-bit vector {}",
                    r.name,
                    String::from_utf8_lossy(bits)
                )));
            }
            &bits[(n - 1 - hi) as usize..=(n - 1 - lo) as usize]
        }
    };
    Ok(bits
        .iter()
        .any(|b| !matches!(b, b'0' | b'1'))
        .then_some(bits))
}

/// Case equality (`===`, IEEE 1800-2017 §11.4.5) where an operand has
/// unknown bits: `Some(identical)`; `None` when neither has any (then it
/// is `==`). A constant has none, so a vector with an `x` or `z` bit is
/// never identical to it; two vectors with unknown bits are identical
/// when they have the same digits, and are compared only at the same
/// width (extending one would need its signedness, which a waveform does
/// not always give).
fn case_equal<'c>(
    a: &Operand,
    b: &Operand,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<Option<bool>, ValueError> {
    match (unknown_bits(a, cell)?, unknown_bits(b, cell)?) {
        (None, None) => Ok(None),
        (Some(x), Some(y)) if x.len() == y.len() => Ok(Some(x.eq_ignore_ascii_case(y))),
        (Some(x), Some(y)) => Err(ValueError(format!(
            "`===` of vectors of {} and {} bits with unknown (x/z) bits: compare vectors of \
             the same width",
            x.len(),
            y.len()
        ))),
        (Some(_), None) | (None, Some(_)) => {
            // The other operand is known: a constant, or a field whose
            // value must then be a number (or a Boolean).
            let other = if unknown_bits(a, cell)?.is_some() {
                b
            } else {
                a
            };
            if let Operand::Field(_) = other {
                if !matches!(other, Operand::Field(r) if matches!(cell(r.id), Some(Cell::Bits(_))))
                {
                    operand_num(other, cell)?;
                }
            }
            Ok(Some(false))
        }
    }
}

/// The number an operand of a numeric comparison stands for.
pub(crate) fn operand_num<'x, 'c: 'x>(
    o: &'x Operand,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<Num<'x>, ValueError> {
    match o {
        Operand::Field(r) => {
            let c = cell(r.id)
                .ok_or_else(|| ValueError(format!("no field `{}` in this event", r.name)))?;
            match r.select {
                None => c.as_num(),
                Some(s) => c.select(s),
            }
            .map_err(|e| ValueError(format!("`{}`: {}", r.name, e.0)))
        }
        Operand::Str(_) | Operand::Bool(_) | Operand::Term(_) => {
            unreachable!("compared as text, Booleans or terms")
        }
        Operand::Number(..) | Operand::Literal(_) => Ok(o.number().expect("a constant number")),
    }
}

/// `xs` joined by `&&` (`and`) or `||`, each evaluated by `value` in
/// order, stopping at the first that decides (its error, if it has one,
/// is the result: those after it are not read).
fn junction(
    xs: &[Expr],
    and: bool,
    value: impl Fn(&Expr) -> Result<bool, ValueError>,
) -> Result<bool, ValueError> {
    for x in xs {
        if value(x)? != and {
            return Ok(!and);
        }
    }
    Ok(and)
}

/// The text of a compared operand; `cell` is the value of a field operand.
fn operand_text<'x>(
    o: &'x Operand,
    cell: Option<Cell<'x>>,
) -> Result<std::borrow::Cow<'x, str>, ValueError> {
    use std::borrow::Cow;
    Ok(match (o, cell) {
        (Operand::Str(s), _) => Cow::Borrowed(s.as_str()),
        (Operand::Field(r), Some(c)) => match r.select {
            None => c.as_text(),
            Some(sel) => match c.select(sel) {
                Ok(n) => Cow::Owned(n.to_text()),
                Err(e) => return Err(ValueError(format!("`{}`: {}", r.name, e.0))),
            },
        },
        (Operand::Field(r), None) => {
            return Err(ValueError(format!("no field `{}` in this event", r.name)));
        }
        (Operand::Number(n), _) => Cow::Owned(n.int.map_or(n.text.clone(), |i| i.to_string())),
        (Operand::Literal(l), _) => Cow::Owned(l.value.to_string()),
        (Operand::Bool(b), _) => Cow::Owned(b.to_string()),
        (Operand::Term(_), _) => unreachable!("a term is not compared with a string"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An expression's error shows its text with the characters a
    /// terminal acts on escaped, the caret under the escaped text and the
    /// column counted as written.
    #[test]
    fn errors_show_hostile_text_escaped() {
        let e = Expr::parse("a\u{1b}[31m\nb > ?").unwrap_err().to_string();
        assert!(!e.contains('\u{1b}'), "{e:?}");
        let lines: Vec<&str> = e.lines().collect();
        assert_eq!(lines.len(), 3, "{e:?}");
        assert_eq!(lines[1], "  a\\u{1b}[31m\\nb > ?");
        let caret = lines[2].find('^').unwrap();
        assert!(caret > 2 && caret < lines[1].len(), "{e:?}");
        // A plain text is shown as before.
        let e = Expr::parse("x > ?").unwrap_err().to_string();
        assert_eq!(e.lines().nth(2), Some("      ^"), "{e:?}");
    }

    fn eval(text: &str, fields: &[(&str, Cell<'_>)]) -> Result<bool, ValueError> {
        let mut e = Expr::parse(text).unwrap();
        e.resolve(&mut |n: &str| {
            fields
                .iter()
                .position(|(f, _)| *f == n)
                .ok_or_else(|| format!("no {n}"))
        })
        .unwrap();
        e.eval_strict(&|id| fields.get(id).map(|(_, c)| *c))
    }

    /// The shared-number path gives what the evaluation gives, in every
    /// order of operands and for every kind of value; where the value is
    /// no number, the evaluation fails (and is what the checker reports).
    #[test]
    fn a_field_compared_with_a_number_is_evaluated_from_its_number() {
        let values = [
            json!(12),
            json!(-3),
            json!(2.5),
            json!(true),
            json!(null),
            json!("12"),
            json!(u64::MAX),
        ];
        let mut cells: Vec<Cell<'_>> = [
            "12",
            " 7 ",
            "1e3",
            "abc",
            "",
            "-5",
            "true",
            "3.5",
            "0",
            "99999999999999999999",
        ]
        .iter()
        .map(|t| Cell::Text(t))
        .collect();
        cells.extend(values.iter().map(Cell::Json));
        cells.extend([Cell::Bits(b"0101"), Cell::Bits(b"x1"), Cell::Real(2.5)]);
        cells.extend([
            Cell::Bool(true),
            Cell::Int(12),
            Cell::Int(-3),
            Cell::Int(i64::MIN),
        ]);
        let mut compared = 0;
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for number in ["12", "-2.5", "2.5", "4'b0101", "1e3"] {
                for text in [format!("n {op} {number}"), format!("{number} {op} n")] {
                    let mut e = Expr::parse(&text).unwrap();
                    e.resolve(&mut |_: &str| Ok::<usize, ()>(0)).unwrap();
                    let fast = FieldVsNumber::of(&e).expect("a field against a number");
                    for cell in &cells {
                        let slow = e.eval_strict(&|_| Some(*cell));
                        // NULL: false, whatever the operator.
                        if is_missing(Some(*cell)) {
                            assert_eq!(e.eval(&|_| Some(*cell)), Ok(false), "{text} at {cell:?}");
                        } else {
                            assert_eq!(e.eval(&|_| Some(*cell)), slow, "{text} at {cell:?}");
                        }
                        match cell.as_num() {
                            Ok(n) => {
                                assert_eq!(Ok(fast.holds(n)), slow, "{text} at {cell:?}");
                                compared += 1;
                            }
                            Err(_) => assert!(slow.is_err(), "{text} at {cell:?}"),
                        }
                    }
                }
            }
        }
        // A negative integer is signed in Verilog (`v > -3` is false of an
        // 8-bit vector): a term, whose value on a log is the exact one.
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for text in [format!("n {op} -3"), format!("-3 {op} n")] {
                let mut e = Expr::parse(&text).unwrap();
                e.resolve(&mut |_: &str| Ok::<usize, ()>(0)).unwrap();
                let fast = FieldVsNumber::of(&e).expect("a field against a number");
                assert!(fast.not_for_vectors);
                for cell in &cells {
                    let slow = e.eval_strict(&|_| Some(*cell));
                    match cell.as_num() {
                        Ok(_) if matches!(cell, Cell::Bits(_)) => {}
                        Ok(n) => {
                            assert_eq!(Ok(fast.holds(n)), slow, "{text} at {cell:?}");
                            compared += 1;
                        }
                        Err(_) => assert!(slow.is_err(), "{text} at {cell:?}"),
                    }
                }
            }
        }
        assert!(compared > 600);
        assert_eq!(eval("v > -3", &[("v", Cell::Bits(b"0101"))]), Ok(false));
        assert_eq!(eval("v > -3", &[("v", Cell::Text("5"))]), Ok(true));
        for other in [
            "n",
            "n[1] < 2",
            "n == \"x\"",
            "n == true",
            "n < m",
            "!(n < 2)",
        ] {
            let e = Expr::parse(other).unwrap();
            assert_eq!(FieldVsNumber::of(&e), None, "{other}");
        }
    }

    #[test]
    fn comparisons_over_text_json_and_bits() {
        let j = json!({"code": 503, "ok": false, "kind": "GET", "t": 1.5});
        let fs = [
            ("latency", Cell::Text("250")),
            ("level", Cell::Text("ERROR")),
            ("req", Cell::Text("true")),
            ("code", Cell::Json(&j["code"])),
            ("ok", Cell::Json(&j["ok"])),
            ("kind", Cell::Json(&j["kind"])),
            ("t", Cell::Json(&j["t"])),
            ("state", Cell::Bits(b"0101")),
            ("data", Cell::Bits(b"10001000")),
            ("bad", Cell::Bits(b"01x1")),
        ];
        for (text, want) in [
            ("latency > 100", true),
            ("latency >= 250.0", true),
            ("latency < 1e2", false),
            ("level == \"ERROR\"", true),
            ("level != 'WARN'", true),
            ("req && !ok", true),
            ("code == 503 && kind == \"GET\"", true),
            ("t > 1 && t < 2", true),
            ("state == 4'b0101", true),
            ("state == 5", true),
            ("data[3]", true),
            ("data[2]", false),
            ("data[7:4] == 4'h8", true),
            ("latency[1]", true),
            ("!(req || ok) || level = \"ERROR\"", true),
            ("ok == false", true),
            ("req == 1", true),
        ] {
            assert_eq!(eval(text, &fs), Ok(want), "{text}");
        }
        for (text, why) in [
            ("level > 3", "not a number"),
            ("latency", "not a Boolean"),
            ("data", "8-bit vector"),
            ("bad == 3", "unknown (x/z)"),
            ("state[9]", "bit 9 of a 4-bit vector"),
        ] {
            let e = eval(text, &fs).unwrap_err();
            assert!(e.0.contains(why), "{text}: {e}");
        }
    }

    #[test]
    fn syntax_errors_point_at_the_column() {
        for (text, at) in [
            ("a &&", 4),
            ("(a", 2),
            ("x == \"abc", 5),
            ("3", 1),
            ("a b", 2),
            ("x == 4'bx1", 5),
            ("d[1:3]", 5),
        ] {
            let e = Expr::parse(text).unwrap_err();
            assert_eq!(e.at, at, "{text}: {e}");
        }
        assert!(Expr::parse(&"!".repeat(10_000)).is_err());
        assert!(Expr::parse(&format!("{}a{}", "(".repeat(5000), ")".repeat(5000))).is_err());
    }

    /// Columns of a data frame: Booleans and integers are read as
    /// Booleans (0 and 1 only) and as numbers.
    #[test]
    fn boolean_and_integer_cells_are_booleans_and_numbers() {
        for (cell, truth) in [
            (Cell::Bool(true), Some(true)),
            (Cell::Bool(false), Some(false)),
            (Cell::Int(1), Some(true)),
            (Cell::Int(0), Some(false)),
            (Cell::Int(2), None),
            (Cell::Int(-1), None),
        ] {
            assert_eq!(cell.truth(), truth, "{cell:?}");
            assert_eq!(cell.as_bool().ok(), truth, "{cell:?}");
        }
        assert_eq!(eval("n > 3", &[("n", Cell::Int(4))]), Ok(true));
        assert_eq!(eval("n == 1", &[("n", Cell::Bool(true))]), Ok(true));
        assert_eq!(eval("n < 0", &[("n", Cell::Int(i64::MIN))]), Ok(true));
        assert!(eval("n", &[("n", Cell::Int(7))]).is_err());
    }

    /// `===` and `!==` (IEEE 1800-2017 §11.4.5) read x and z bits as
    /// themselves: a vector with one is never identical to a constant,
    /// where `==` cannot decide (an error: the checker refuses, it does
    /// not guess); without unknown bits they are `==` and `!=`.
    #[test]
    fn case_equality_reads_unknown_bits() {
        let x = [("r", Cell::Bits(b"x")), ("v", Cell::Bits(b"01z1"))];
        for (text, want) in [
            ("r === 1'b1", Some(false)),
            ("r !== 1'b1", Some(true)),
            ("r !== 0", Some(true)),
            ("1 === r", Some(false)),
            ("r === true", Some(false)),
            ("v === 4'b0101", Some(false)),
            ("v !== 5", Some(true)),
            ("v[3:2] === 2'b01", Some(true)),
            ("v[1] !== 1'b0", Some(true)),
            ("v[1:0] === 2'b11", Some(false)),
            ("v === v", Some(true)),
            ("v[3:2] !== v[1:0]", Some(true)),
            // `==` does not decide: an error, as before.
            ("r == 1'b1", None),
            ("r != 0", None),
            // Vectors of different widths with unknown bits.
            ("v === r", None),
            ("v[9] === 1", None),
        ] {
            assert_eq!(eval(text, &x).ok(), want, "{text}: {:?}", eval(text, &x));
        }
        let known = [
            ("r", Cell::Bits(b"1")),
            ("n", Cell::Text("12")),
            ("s", Cell::Text("no")),
        ];
        for (text, want) in [
            ("r === 1'b1", Some(true)),
            ("r !== 1'b1", Some(false)),
            ("n === 12", Some(true)),
            ("n !== 12", Some(false)),
            ("n === r", Some(false)),
            ("s === \"no\"", Some(true)),
            ("s === 1", None),
        ] {
            assert_eq!(eval(text, &known).ok(), want, "{text}");
        }
        // A text that is no number, against a vector with unknown bits.
        assert!(eval(
            "s !== v",
            &[("s", Cell::Text("no")), ("v", Cell::Bits(b"x"))]
        )
        .is_err());
        // `$isunknown` (§20.9): whether a vector has an x or z bit.
        let cells = [
            ("r", Cell::Bits(b"x")),
            ("v", Cell::Bits(b"01z1")),
            ("w", Cell::Bits(b"0110")),
            ("n", Cell::Text("12")),
            ("s", Cell::Text("no")),
        ];
        for (text, want) in [
            ("$isunknown(r)", Some(true)),
            ("$isunknown(v)", Some(true)),
            ("$isunknown(v[1])", Some(true)),
            ("$isunknown(v[0])", Some(false)),
            ("!$isunknown(v[3:2])", Some(true)),
            ("$isunknown(w)", Some(false)),
            ("$isunknown(n)", Some(false)),
            ("$isunknown(s)", None),
        ] {
            assert_eq!(eval(text, &cells).ok(), want, "{text}");
        }
        assert!(Expr::parse("$isunknown(3)").is_err());
        assert!(Expr::parse("$isunknown(a").is_err());
        assert_eq!(
            Expr::parse("$isunknown(a) && b").unwrap().fields(),
            ["a", "b"]
        );
        // Never the shared-number path, which reads numbers.
        assert_eq!(FieldVsNumber::of(&Expr::parse("r === 1").unwrap()), None);
    }

    /// Each operator on a waveform (Verilog's sizing and signedness) and
    /// on a log (exact integers).
    #[test]
    fn arithmetic_per_operator() {
        let wave = [
            ("cnt", Cell::Bits(b"0011")),
            ("v", Cell::Bits(b"1010")),
            ("w", Cell::Bits(b"0110")),
            ("a", Cell::Bits(b"1")),
            ("b", Cell::Bits(b"0")),
            ("d", Cell::Bits(b"1110")),
        ];
        for (text, want) in [
            ("cnt + 1 <= 4", true),
            ("cnt + 1 > 3", true),
            ("cnt * 5 == 15", true),
            ("v / 3 == 3 && v % 3 == 1", true),
            ("v - w == 4", true),
            ("w - v == -4", true),              // 32 bits: both sides 2^32 - 4
            ("w[3:0] - v[3:0] == 4'd12", true), // 4 bits wrap
            ("(v & w) != 0", true),
            ("(v | w) == 4'b1110", true),
            ("(v ^ w) == 4'b1100", true),
            ("(v ~^ w) == 4'b0011", true),
            ("v << 1 == 20", true), // 32-bit context: no wrap
            ("(v << 1) == 5'd20", true),
            ("{v, w} == 8'b1010_0110", true),
            ("{2{a, b}} == 4'b1010", true),
            ("&v", false),
            ("|v", true),
            ("^v", false),
            ("~&v", true),
            ("~|v", false),
            ("~^v", true),
            ("^~w", true),
            ("~v == 4'b0101", true),
            ("~a == 0", false), // ~a is 32 bits wide here
            ("~a", false),
            ("-cnt == -3", true),
            ("$signed(d) < 0", true),
            ("$signed(d) == -2", true),
            ("$signed(d) >>> 1 == -1", true),
            ("$signed(d) >> 1 == 7", false), // compared in 32 bits, signed
            ("d >>> 1 == 7", true),
            ("$unsigned($signed(d)) == 14", true),
            // All operands 4 bits: 10 + 6 wraps to 0.
            ("v[3:0] + w[3:0] >= 4'd9", false),
            ("v[3:0] + w[3:0] >= 9", true), // 32 bits
            ("v + w", false),               // its own width, 4 bits: 16 wraps to 0
            ("v + w + 0", true),
            ("(a > b) + (v > w) == 2", true),
            ("!(cnt + 1 > 3)", false),
            ("a & !b", true),
            ("8'shFF == -1", true),
            ("8'shFF < 0", true),
            ("v > -1", false), // unsigned: -1 is 2^32 - 1
            ("$signed(v) > -7", true),
        ] {
            assert_eq!(eval(text, &wave), Ok(want), "{text}");
        }
        let log = [
            ("latency_ms", Cell::Text("250")),
            ("queue_ms", Cell::Text("120")),
            ("n", Cell::Int(-7)),
            ("f", Cell::Text("2.5")),
            ("s", Cell::Text("abc")),
            ("ok", Cell::Text("true")),
        ];
        for (text, want) in [
            ("latency_ms - queue_ms > 100", true),
            ("latency_ms - queue_ms - 200 < 0", true), // no wrap
            ("n / 2 == -3 && n % 2 == -1", true),      // truncating, as Verilog
            ("n >> 1 == -4", true),
            ("(n & 3) == 1", true),
            ("~n == 6", true),
            ("-n * 3 == 21", true),
            ("ok + 1 == 2", true),
            ("$signed(n) == -7", true),
            ("n + 8'shFF == -8", true),
            ("n > -8", true),
            ("f > -1", true),
        ] {
            assert_eq!(eval(text, &log), Ok(want), "{text}");
        }
        for (text, why) in [
            ("latency_ms / (queue_ms - 120) > 1", "division by zero"),
            ("latency_ms % 0 == 1", "division by zero"),
            ("f + 1 > 3", "`f`: 2.5 is not an integer"),
            ("s + 1 > 3", "`s`: \"abc\" is not a number"),
            (
                "n * 170141183460469231731687303715884105727 > 0",
                "overflows",
            ),
            ("{n, n} == 0", "no bit width"),
            ("n << -1 == 0", "negative"),
        ] {
            let e = eval(text, &log).unwrap_err();
            assert!(e.0.contains(why), "{text}: {e}");
        }
        let x = [
            ("x", Cell::Bits(b"01x1")),
            ("big", Cell::Bits(&[b'1'; 130])),
        ];
        for (text, why) in [
            ("x + 1 > 3", "unknown (x/z)"),
            ("big + 1 > 3", "at most 128 bits"),
        ] {
            let e = eval(text, &x).unwrap_err();
            assert!(e.0.contains(why), "{text}: {e}");
        }
        assert!(Expr::parse("a + 1 > 3").unwrap().has_terms());
        assert!(!Expr::parse("a > 3 && b").unwrap().has_terms());
    }

    #[test]
    fn arithmetic_syntax_errors() {
        for (text, at, why) in [
            ("a ** 2 > 1", 2, "`**` is not supported"),
            ("{a, 3} == 0", 4, "unsized number in a concatenation"),
            ("{a{b}} == 0", 1, "replication count"),
            ("a + \"x\" > 0", 4, "a string in arithmetic"),
            (
                "a + b == \"x\"",
                12,
                "a string is compared with a computed value",
            ),
            ("{a, b == 0", 10, "expected `,` or `}`"),
            ("$signed(a > 0", 13, "expected `)`"),
        ] {
            let e = Expr::parse(text).unwrap_err();
            assert!(e.message.contains(why), "{text}: {e}");
            assert_eq!(e.at, at, "{text}: {e}");
        }
        let long = vec!["a"; 1200].join(" + ");
        let e = Expr::parse(&format!("{long} > 0")).unwrap_err();
        assert!(e.message.contains("too many operators"), "{e}");
        assert!(Expr::parse(&format!("{}a{}", "-(".repeat(500), ")".repeat(500))).is_err());
        assert!(Expr::parse(&format!("{}a > 0", "~".repeat(100_000))).is_err());
        assert!(Expr::parse(&format!("{}a{} > 0", "{".repeat(5000), "}".repeat(5000))).is_err());
    }

    /// The value of `text` where the fields are `fields`, a missing field
    /// being NULL.
    fn lenient(text: &str, fields: &[(&str, Option<Cell<'_>>)]) -> Result<bool, ValueError> {
        let mut e = Expr::parse(text).unwrap();
        e.resolve(&mut |n: &str| {
            fields
                .iter()
                .position(|(f, _)| *f == n)
                .ok_or_else(|| format!("no {n}"))
        })
        .unwrap();
        e.eval(&|id| fields.get(id).and_then(|(_, c)| *c))
    }

    #[test]
    fn a_missing_field_is_null() {
        let null = json!(null);
        for missing in [
            None,
            Some(Cell::Text("")),
            Some(Cell::Text(" ")),
            Some(Cell::Json(&null)),
        ] {
            let at = |text: &str| lenient(text, &[("x", missing), ("y", Some(Cell::Text("4")))]);
            for op in ["==", "!=", "<", "<=", ">", ">=", "===", "!=="] {
                assert_eq!(at(&format!("x {op} 4")), Ok(false), "{op} {missing:?}");
                assert_eq!(at(&format!("4 {op} x")), Ok(false), "{op} {missing:?}");
                assert_eq!(at(&format!("x {op} y")), Ok(false), "{op} {missing:?}");
            }
            assert_eq!(at("x != \"a\""), Ok(false));
            assert_eq!(at("x + y > 0 || x - y < 0"), Ok(false));
            assert_eq!(at("x / 0 > 1"), Ok(false));
            assert_eq!(at("x"), Ok(false));
            assert_eq!(at("!x"), Ok(true));
            assert_eq!(at("!(x > 5)"), Ok(true));
            assert_eq!(
                at("x in [1, 2] || x not in [1, 2] || x in ['a'] || x not in ['a']"),
                Ok(false)
            );
            assert_eq!(
                at("x contains '' || x starts_with '' || x ends_with '' || x matches /.*/"),
                Ok(false)
            );
            assert_eq!(at("$isunknown(x)"), Ok(false));
            assert_eq!(at("has(x) || x != null"), Ok(false));
            assert_eq!(at("!has(x) && x == null && has(y) && y != null"), Ok(true));
            // `has` is never NULL, also in arithmetic.
            assert_eq!(at("has(x) + y == 4"), Ok(true));
            assert_eq!(at("(x > 1) + y == 4"), Ok(false));
            assert_eq!(at("y > 3 && !(x < 3)"), Ok(true));
        }
        // Present: a JSON "" is a string.
        let empty = json!("");
        let at = |text: &str| lenient(text, &[("x", Some(Cell::Json(&empty)))]);
        assert_eq!(at("has(x) && x == '' && x != null"), Ok(true));
        // Strict: as before.
        let strict = |text: &str, c: Option<Cell<'_>>| {
            let mut e = Expr::parse(text).unwrap();
            e.resolve(&mut |_: &str| Ok::<usize, ()>(0)).unwrap();
            e.eval_strict(&|_| c)
        };
        assert_eq!(
            strict("x > 1", None),
            Err(ValueError("no field `x` in this event".into()))
        );
        assert_eq!(
            strict("x > 1", Some(Cell::Text(""))),
            Err(ValueError("`x`: \"\" is not a number".into()))
        );
        assert_eq!(strict("x != 'a'", Some(Cell::Text(""))), Ok(true));
        assert_eq!(strict("x == null", Some(Cell::Text(""))), Ok(true));
        assert_eq!(strict("has(x)", None), Ok(false));
    }

    #[test]
    fn text_operators_and_lists() {
        let msg = json!("upstream timeout after 5s");
        let code = json!(503);
        let fields = |m| [("msg", Some(m)), ("code", Some(Cell::Json(&code)))];
        let at = |text: &str| lenient(text, &fields(Cell::Json(&msg)));
        assert_eq!(at("msg contains \"timeout\""), Ok(true));
        assert_eq!(
            at("msg starts_with 'upstream' && msg ends_with '5s'"),
            Ok(true)
        );
        assert_eq!(at("msg starts_with 'timeout'"), Ok(false));
        assert_eq!(at("msg matches /time.?out after [0-9]+s$/"), Ok(true));
        assert_eq!(at("msg matches /^timeout/"), Ok(false));
        assert_eq!(at("code in [500, 502, 503] && code not in [404]"), Ok(true));
        assert_eq!(at("code in [500.0, 503e0]"), Ok(true));
        assert_eq!(at("code not in [503, 504]"), Ok(false));
        assert_eq!(at("code in ['503'] && code contains '50'"), Ok(true));
        assert_eq!(at("msg in ['a', 'upstream timeout after 5s']"), Ok(true));
        assert_eq!(at("code + 1 in [504]"), Ok(true));
        // Bind like `<`: tighter than `==` and `&&`.
        assert_eq!(at("code in [503] == true"), Ok(true));
        // `!` binds tighter, as in `!x > 5`.
        assert_eq!(at("!(msg contains 'x')"), Ok(true));
        assert!(Expr::parse("!msg contains 'x'").is_err());
        // A waveform's vector: no text; `in` with numbers in the width.
        let v = |text: &str| lenient(text, &[("v", Some(Cell::Bits(b"0101")))]);
        assert!(v("v contains '1'").unwrap_err().0.contains("not text"));
        assert!(v("v in ['0101']").unwrap_err().0.contains("not text"));
        assert_eq!(v("v in [5, 6]"), Ok(true));
        assert_eq!(v("v in [4'd5]"), Ok(true));
        // A negative integer is 32 signed bits, as in `v == -11`.
        assert_eq!(v("v in [-11]"), Ok(false));
        assert_eq!(v("v == -11"), Ok(false));
        assert_eq!(v("v in [4'sb0101]"), v("v == 4'sb0101"));
    }

    #[test]
    fn new_syntax_errors_have_a_caret() {
        for (text, message, at) in [
            ("x in []", "an empty list", 6),
            ("x in 3", "expected a list", 5),
            ("x in [1, y]", "a list holds", 9),
            ("x in [1 2]", "expected `,` or `]`", 8),
            ("x + 1 in ['a']", "strings in a list", 0),
            ("x contains 3", "takes a string", 11),
            ("x[2] contains 'a'", "reads a field's text", 0),
            ("x + 1 starts_with 'a'", "reads a field's text", 0),
            ("x matches 'a'", "between slashes", 10),
            ("x matches /a(/", "not a regex", 10),
            ("x matches /ab", "never closed", 10),
            ("x matches /\\w{2000}/", "bytes, the bound", 10),
            ("x > null", "`null` is compared", 4),
            ("x + 1 == null", "`null` is compared with a field", 0),
            ("has(3)", "`has` reads a field", 4),
            ("has( x[1] )", "`has` reads a field", 5),
            ("has(x", "expected `)`", 5),
            ("x not 3", "expected an operator", 2),
        ] {
            let e = Expr::parse(text).unwrap_err();
            assert!(e.message.contains(message), "{text}: {e}");
            assert_eq!(e.at, at, "{text}: {e}");
        }
        // Fields named like the words.
        let e = Expr::parse("has && in_flight && not_ready && null_count > 1").unwrap();
        assert_eq!(e.fields(), ["has", "in_flight", "not_ready", "null_count"]);
    }

    proptest::proptest! {
        /// Arithmetic on log integers is i128 arithmetic, exactly.
        #[test]
        fn log_arithmetic_is_exact(
            a in proptest::prelude::any::<i64>(),
            b in proptest::prelude::any::<i64>(),
            c in -1000i64..1000,
            op in 0usize..5,
        ) {
            let (x, y) = (i128::from(a), i128::from(b));
            let (sym, v) = match op {
                0 => ("+", x + y),
                1 => ("-", x - y),
                2 => ("*", x * y),
                3 if y != 0 => ("/", x / y),
                3 | 4 if y == 0 => ("+", x + y),
                _ => ("%", x % y),
            };
            let (ta, tb) = (a.to_string(), b.to_string());
            let cells = [("a", Cell::Text(&ta)), ("b", Cell::Text(&tb))];
            let c = i128::from(c) * 1_000_000_000_000_000_000;
            let text = format!("a {sym} b > {c}");
            proptest::prop_assert_eq!(eval(&text, &cells), Ok(v > c), "{}", text);
            let json = serde_json::json!({"a": a, "b": b});
            let cells = [("a", Cell::Json(&json["a"])), ("b", Cell::Json(&json["b"]))];
            let text = format!("a {sym} b == {v}");
            proptest::prop_assert_eq!(eval(&text, &cells), Ok(true), "{}", text);
        }
    }
}
