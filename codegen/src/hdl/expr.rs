//! Verilog Boolean expressions over declared inputs: parsing, width
//! checks, and normalization into lint-clean Verilog.
//!
//! [`check_expression`] reads the text of a proposition (`count > 5`,
//! `grant[1:0] == 2'b01`, `state inside {1, [4:6]}`), checks it against
//! the inputs a checker declares ([`HdlInput`]), and rewrites it so that
//! `wire p = <text>;` inside the checker is one bit wide, means what the
//! proposition means in Verilog, and `verilator --lint-only -Wall` has
//! nothing to say about it.
//!
//! # Meaning
//!
//! A proposition holds when its Verilog value is not zero, as the
//! condition of an `if`: the value in the expression's own
//! (self-determined) width, so `~en` is the negation of a one-bit `en` and
//! `count` means `count != 0`. The normalized text computes exactly that
//! value as Verilog evaluates it (IEEE 1364-2005 §5.4–5.5 expression
//! sizing and signedness; `inside` from IEEE 1800 §11.4.13, compared item
//! by item). Propositions read checker inputs, taken to be 0 or 1: `x`
//! and `z` digits are rejected. `===` and `!==` stay as written: where a
//! simulation does drive an `x` or a `z`, they give the standard's value
//! (`!==` holds), where `!=` would be unknown.
//!
//! # Normalization
//!
//! Verilator warns whenever an operator's operands differ in width, so the
//! normalized text makes every width explicit, without changing the value:
//!
//! * an unsized number gets the width of the operation it takes part in:
//!   `count > 5` becomes `count > 4'd5` (`4'sd5` when the comparison is
//!   signed);
//! * an operation whose operands differ in width (`a + b == sum` with a
//!   5-bit `sum`) gets its narrower operands extended in the text:
//!   `{1'b0, a}`, or `$signed({{3{s[4]}}, s})` for a signed operand;
//! * a multi-bit operand of `!`, `&&`, `||` or `?:`, and a multi-bit
//!   proposition, becomes a comparison with zero: `count` becomes
//!   `count != 4'd0`;
//! * `inside` becomes comparisons: `x inside {1, [4:6]}` becomes
//!   `(x == 4'd1 || (x >= 4'd4 && x <= 4'd6))`.
//!
//! Widths are chosen as Verilog's rules choose them, then narrowed when
//! that provably changes no value: Verilog computes `count + 1 > limit` in
//! 32 bits (because of the unsized `1`); the sum of a 4-bit `count` and 1
//! needs 5, so the text is `{1'b0, count} + 5'd1 > {1'b0, limit}`. When an
//! intermediate value may wrap around (`a - b > 2` with unsigned `a` and
//! `b`), the width Verilog uses is kept: `{28'd0, a} - {28'd0, b} > 32'd2`.
//! Signed operations stay signed: an operand is sign-extended exactly when
//! Verilog sign-extends it.
//!
//! Everything else keeps the user's text: names, selects (with constant
//! indices evaluated: `x[2*2 +: 4]` becomes `x[4 +: 4]`), sized numbers as
//! written (`8'b0000_1111`), parentheses, and the order of operands.
//!
//! # Errors
//!
//! Beyond syntax errors, the checks reject what is almost always a mistake
//! (each [`ExprError`] carries a byte column for a caret):
//!
//! * an undeclared name (with the declared ones, and a close name if any);
//! * a select outside the declared range, reversed (`x[0:3]` of a `[7:0]`
//!   vector), or of a scalar;
//! * a comparison or bitwise operation between two operands of explicit
//!   width (signals, selects, sized numbers, concatenations) that differ:
//!   ``width mismatch: `count` is 4 bits, `5'd20` is 5 bits``;
//! * an unsized number that does not fit the explicit operand it is
//!   compared or combined with (`count == 20`, `count == -1`);
//! * a relational comparison between a signed and an unsigned operand,
//!   which Verilog silently makes unsigned;
//! * a comparison whose outcome the operands' ranges decide
//!   (`count > 15` for a 4-bit `count` is always false);
//! * a sized number that does not fit its own width (`4'd20`, `4'sd9`);
//! * an unsized number that makes a concatenation item or a reduction
//!   operand 32 bits wide (`{a + 1, b}`);
//! * a constant division by zero, `x`/`z` digits, real numbers, and the
//!   operators left out (`**`, `==?`, `->`, assignments).

use std::fmt;

use crate::emit::names::VERILOG_KEYWORDS;

/// The widest vector (in bits) a declaration, a number or a concatenation
/// may have.
pub const MAX_WIDTH: u32 = 1 << 16;

/// How deeply operators and parentheses may nest.
const MAX_DEPTH: u32 = 200;

/// A signal that a proposition may read: one input port of the checker.
///
/// The range is the design's own, so that selects mean the same in the
/// checker as in the design: a design vector `[8:1]` or `[0:7]` must be
/// declared with that range.
///
/// ```
/// use mongen::hdl::HdlInput;
///
/// let count = HdlInput::bits("count", 4);
/// assert_eq!((count.msb, count.lsb, count.width()), (3, 0, 4));
/// assert_eq!(count.port_declaration(), "input wire [3:0] count");
/// let delta = HdlInput::vector("delta", 8, 1).signed();
/// assert_eq!(delta.port_declaration(), "input wire signed [8:1] delta");
/// assert_eq!(HdlInput::scalar("en").port_declaration(), "input wire en");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HdlInput {
    /// The name, without the backslash and the space of an escaped
    /// identifier (`\a+b ` is named `a+b`).
    pub name: String,
    /// The left index of the range (`7` in `[7:0]`, `0` in `[0:7]`).
    pub msb: i64,
    /// The right index of the range.
    pub lsb: i64,
    /// Whether the signal is declared `signed`.
    pub signed: bool,
    /// Whether the signal is a scalar (one bit, no range: it cannot be
    /// indexed). `msb` and `lsb` are then 0.
    pub scalar: bool,
}

impl HdlInput {
    /// A one-bit scalar.
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// let en = HdlInput::scalar("en");
    /// assert!(en.scalar && !en.signed);
    /// assert_eq!((en.msb, en.lsb, en.width()), (0, 0, 1));
    /// ```
    pub fn scalar(name: impl Into<String>) -> HdlInput {
        HdlInput {
            name: name.into(),
            msb: 0,
            lsb: 0,
            signed: false,
            scalar: true,
        }
    }

    /// A vector declared `[msb:lsb]`.
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// let data = HdlInput::vector("data", 0, 7);
    /// assert!(!data.scalar);
    /// assert_eq!(data.port_declaration(), "input wire [0:7] data");
    /// ```
    pub fn vector(name: impl Into<String>, msb: i64, lsb: i64) -> HdlInput {
        HdlInput {
            name: name.into(),
            msb,
            lsb,
            signed: false,
            scalar: false,
        }
    }

    /// A vector of `width` bits declared `[width-1:0]` (a `width` of 0 is
    /// taken as 1).
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// assert_eq!(HdlInput::bits("count", 4), HdlInput::vector("count", 3, 0));
    /// assert_eq!(HdlInput::bits("flag", 0), HdlInput::vector("flag", 0, 0));
    /// ```
    pub fn bits(name: impl Into<String>, width: u32) -> HdlInput {
        HdlInput::vector(name, i64::from(width.max(1)) - 1, 0)
    }

    /// The same signal, declared `signed`.
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// let delta = HdlInput::bits("delta", 8).signed();
    /// assert!(delta.signed);
    /// assert_eq!((delta.msb, delta.lsb), (7, 0));
    /// ```
    pub fn signed(self) -> HdlInput {
        HdlInput {
            signed: true,
            ..self
        }
    }

    /// The number of bits.
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// assert_eq!(HdlInput::vector("data", 8, 1).width(), 8);
    /// assert_eq!(HdlInput::vector("data", 0, 7).width(), 8);
    /// assert_eq!(HdlInput::scalar("en").width(), 1);
    /// ```
    pub fn width(&self) -> u64 {
        if self.scalar {
            1
        } else {
            self.msb.abs_diff(self.lsb) + 1
        }
    }

    /// The declaration of the input port in a Verilog-2005 ANSI port list,
    /// such as `input wire signed [7:0] count`.
    ///
    /// `verilator -Wall` warns (`LITENDIAN`) about an ascending range such
    /// as `[0:7]`: a checker that declares one may put it between
    /// `// verilator lint_off LITENDIAN` and `// verilator lint_on
    /// LITENDIAN`. Selects of it raise no warning.
    ///
    /// ```
    /// use mongen::hdl::HdlInput;
    ///
    /// let count = HdlInput::bits("count", 4).signed();
    /// assert_eq!(count.port_declaration(), "input wire signed [3:0] count");
    /// // A name that is not a simple identifier is escaped.
    /// assert_eq!(HdlInput::scalar("a+b").port_declaration(), "input wire \\a+b ");
    /// ```
    pub fn port_declaration(&self) -> String {
        let mut s = String::from("input wire ");
        if self.signed {
            s.push_str("signed ");
        }
        if !self.scalar {
            s.push_str(&format!("[{}:{}] ", self.msb, self.lsb));
        }
        s.push_str(&verilog_name(&self.name));
        s
    }

    /// The Verilog text of the sign bit (the left end of the range).
    fn sign_bit(&self) -> String {
        if self.scalar {
            verilog_name(&self.name)
        } else {
            format!("{}[{}]", verilog_name(&self.name), self.msb)
        }
    }
}

/// How `name` is written in Verilog: as is if it is a simple identifier
/// and not a keyword, as an escaped identifier otherwise (`\a+b `, with
/// the space that ends it).
///
/// ```
/// use mongen::hdl::expr::verilog_name;
///
/// assert_eq!(verilog_name("count"), "count");
/// assert_eq!(verilog_name("a+b"), "\\a+b ");
/// assert_eq!(verilog_name("reg"), "\\reg ");
/// ```
pub fn verilog_name(name: &str) -> String {
    if is_simple_identifier(name) && !VERILOG_KEYWORDS.contains(&name) {
        name.to_string()
    } else {
        format!("\\{name} ")
    }
}

fn is_simple_identifier(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty() && is_ident_start(b[0]) && b.iter().all(|&c| is_ident_char(c))
}

/// Parses the command-line description of a checker input
/// (`--input SPEC`):
///
/// | `SPEC`                 | declaration                 |
/// |------------------------|-----------------------------|
/// | `en`, `en:1`           | `en` (a one-bit scalar)     |
/// | `count:4`              | `[3:0] count`               |
/// | `data:[8:1]`           | `[8:1] data`                |
/// | `delta:s8`, `delta:signed 8` | `signed [7:0] delta`  |
/// | `delta:s[8:1]`, `delta:signed[8:1]` | `signed [8:1] delta` |
///
/// The name is a Verilog identifier (not a keyword); widths go from 1 to
/// [`MAX_WIDTH`]. Spaces around the parts are ignored.
///
/// ```
/// use mongen::hdl::{parse_input_spec, HdlInput};
///
/// assert_eq!(parse_input_spec("count:4")?, HdlInput::bits("count", 4));
/// assert_eq!(parse_input_spec("data:[0:7]")?, HdlInput::vector("data", 0, 7));
/// assert_eq!(parse_input_spec("delta:s8")?, HdlInput::bits("delta", 8).signed());
/// assert_eq!(parse_input_spec("en")?, HdlInput::scalar("en"));
/// assert!(parse_input_spec("count:0").is_err());
/// # Ok::<(), String>(())
/// ```
pub fn parse_input_spec(spec: &str) -> Result<HdlInput, String> {
    let usage = "write NAME, NAME:WIDTH, NAME:[MSB:LSB], or NAME:sWIDTH / NAME:s[MSB:LSB] for a signed input";
    let (name, shape) = match spec.split_once(':') {
        Some((n, s)) => (n.trim(), Some(s.trim())),
        None => (spec.trim(), None),
    };
    if name.is_empty() {
        return Err(format!("`{spec}`: the input has no name; {usage}"));
    }
    if !is_simple_identifier(name) {
        return Err(format!("`{name}` is not a Verilog identifier; {usage}"));
    }
    if VERILOG_KEYWORDS.contains(&name) {
        return Err(format!(
            "`{name}` is a Verilog keyword and cannot name an input"
        ));
    }
    let Some(shape) = shape else {
        return Ok(HdlInput::scalar(name));
    };
    let (signed, rest) = if let Some(r) = shape.strip_prefix("signed") {
        (true, r.trim_start())
    } else if let Some(r) = shape.strip_prefix('s') {
        (true, r.trim_start())
    } else {
        (false, shape)
    };
    let number = |t: &str| -> Result<i64, String> {
        let t = t.trim();
        let (neg, digits) = match t.strip_prefix('-') {
            Some(d) => (true, d.trim_start()),
            None => (false, t),
        };
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return Err(format!("`{spec}`: `{t}` is not a number; {usage}"));
        }
        let v: i64 = digits
            .parse()
            .ok()
            .filter(|v| *v < 1 << 31)
            .ok_or_else(|| format!("`{spec}`: `{t}` is too large"))?;
        Ok(if neg { -v } else { v })
    };
    let input = if let Some(inner) = rest.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or_else(|| format!("`{spec}`: missing `]`; {usage}"))?;
        let (m, l) = inner
            .split_once(':')
            .ok_or_else(|| format!("`{spec}`: a range is written [MSB:LSB]; {usage}"))?;
        HdlInput::vector(name, number(m)?, number(l)?)
    } else {
        let w = number(rest)?;
        if w < 1 {
            return Err(format!("`{spec}`: the width must be at least 1"));
        }
        if signed {
            HdlInput::vector(name, w - 1, 0)
        } else if w == 1 {
            HdlInput::scalar(name)
        } else {
            HdlInput::vector(name, w - 1, 0)
        }
    };
    if input.width() > u64::from(MAX_WIDTH) {
        return Err(format!(
            "`{spec}`: {} bits is wider than the {MAX_WIDTH} bits supported",
            input.width()
        ));
    }
    Ok(HdlInput { signed, ..input })
}

/// A proposition that passed the checks, in normalized form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedExpr {
    /// The normalized Verilog text: one bit, for `wire p = <text>;`.
    pub text: String,
    /// The inputs the proposition reads, in the order they were declared,
    /// each once.
    pub reads: Vec<String>,
}

/// Why a proposition was rejected.
///
/// ```
/// use mongen::hdl::{check_expression, HdlInput};
///
/// let text = "count == 5'd20";
/// let err = check_expression(text, &[HdlInput::bits("count", 4)]).unwrap_err();
/// assert_eq!(err.message, "width mismatch: `count` is 4 bits, `5'd20` is 5 bits");
/// assert_eq!(err.caret(text), "count == 5'd20\n         ^^^^^");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    /// What is wrong, in one line.
    pub message: String,
    /// The byte offset (from 0) in the proposition's text where the
    /// problem starts.
    pub column: usize,
    /// How many bytes the problem spans (at least 1).
    pub length: usize,
}

impl ExprError {
    fn new(message: impl Into<String>, column: usize, length: usize) -> ExprError {
        ExprError {
            message: message.into(),
            column,
            length: length.max(1),
        }
    }

    /// The proposition's text and, under it, carets marking the problem.
    ///
    /// ```
    /// use mongen::hdl::ExprError;
    ///
    /// let e = ExprError { message: "unknown signal `cnt`".into(), column: 4, length: 3 };
    /// assert_eq!(e.caret("a + cnt"), "a + cnt\n    ^^^");
    /// // Tabs before the problem are kept, so that the carets line up.
    /// assert_eq!(e.caret("a +\tcnt"), "a +\tcnt\n   \t^^^");
    /// ```
    pub fn caret(&self, text: &str) -> String {
        let prefix = text.get(..self.column.min(text.len())).unwrap_or(text);
        let pad: String = prefix
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let marks = text
            .get(self.column.min(text.len())..(self.column + self.length).min(text.len()))
            .map_or(1, |s| s.chars().count())
            .max(1);
        format!("{text}\n{pad}{}", "^".repeat(marks))
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column + 1, self.message)
    }
}

impl std::error::Error for ExprError {}

/// Checks the proposition `text` against the declared `inputs` and
/// normalizes it (see the [module documentation](self)).
///
/// ```
/// use mongen::hdl::{check_expression, HdlInput};
///
/// let inputs = [
///     HdlInput::bits("count", 4),
///     HdlInput::bits("grant", 4),
///     HdlInput::scalar("en"),
///     HdlInput::bits("delta", 8).signed(),
/// ];
/// let check = |t: &str| check_expression(t, &inputs).map(|c| c.text);
/// assert_eq!(check("count > 5")?, "count > 4'd5");
/// assert_eq!(check("grant[1:0] == 2'b01")?, "grant[1:0] == 2'b01");
/// assert_eq!(check("en && count")?, "en && (count != 4'd0)");
/// assert_eq!(check("delta < -3")?, "delta < -8'sd3");
/// assert_eq!(check("count + 1 == grant")?, "{1'b0, count} + 5'd1 == {1'b0, grant}");
/// assert_eq!(check("count inside {1, [4:6]}")?,
///            "count == 4'd1 || (count >= 4'd4 && count <= 4'd6)");
/// let c = check_expression("en || count[3]", &inputs)?;
/// assert_eq!(c.reads, ["count", "en"]);
///
/// let err = check_expression("cuont > 5", &inputs).unwrap_err();
/// assert_eq!(err.message,
///     "unknown signal `cuont`; did you mean `count`? (declared: count, grant, en, delta)");
/// assert_eq!(check_expression("count > 15", &inputs).unwrap_err().message,
///     "`count > 15` is always false: `count` ranges over 0 to 15");
/// # Ok::<(), mongen::hdl::ExprError>(())
/// ```
pub fn check_expression(text: &str, inputs: &[HdlInput]) -> Result<CheckedExpr, ExprError> {
    for input in inputs {
        if input.name.is_empty() {
            return Err(ExprError::new("an input has an empty name", 0, 1));
        }
        if input.width() > u64::from(MAX_WIDTH)
            || input.msb.unsigned_abs() >= 1 << 40
            || input.lsb.unsigned_abs() >= 1 << 40
        {
            return Err(ExprError::new(
                format!(
                    "input `{}` is wider than the {MAX_WIDTH} bits supported",
                    input.name
                ),
                0,
                1,
            ));
        }
    }
    let tokens = lex(text);
    let mut parser = Parser::new(&tokens, text.len());
    let node = parser.expr().map_err(Fail::into_expr)?;
    if let Some(t) = parser.peek_token() {
        return Err(ExprError::new(
            format!("unexpected `{}` after the end of the expression", t.tok),
            t.pos,
            t.end - t.pos,
        ));
    }
    let mut checker = Checker {
        text,
        inputs,
        read: vec![false; inputs.len()],
    };
    let typed = checker.check(&node)?;
    let out = checker.truth(&typed)?;
    let reads = inputs
        .iter()
        .zip(&checker.read)
        .filter(|(_, r)| **r)
        .map(|(i, _)| i.name.clone())
        .collect();
    Ok(CheckedExpr { text: out, reads })
}

// ---------------------------------------------------------------------------
// Lexer (shared with the module reader)
// ---------------------------------------------------------------------------

/// A token of Verilog source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier; an escaped one without its backslash.
    Ident(String),
    /// A system name without its `$` (`clog2`).
    System(String),
    /// Decimal digits, underscores removed: a number or the size of one.
    Dec(String),
    /// `'[s]<base><digits>`: digits lowercase, underscores kept.
    Based {
        signed: bool,
        base: u8,
        digits: String,
    },
    /// A real number.
    Real(String),
    /// A string literal.
    Str,
    /// An operator or punctuation.
    Punct(&'static str),
    /// A macro use in source text (`` `WIDTH ``), left unexpanded.
    Macro(String),
    /// A character that is none of the above.
    Other(char),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "{s}"),
            Tok::System(s) => write!(f, "${s}"),
            Tok::Dec(s) | Tok::Real(s) => write!(f, "{s}"),
            Tok::Based {
                signed,
                base,
                digits,
            } => write!(
                f,
                "'{}{}{}",
                if *signed { "s" } else { "" },
                *base as char,
                digits
            ),
            Tok::Str => write!(f, "\"...\""),
            Tok::Punct(p) => write!(f, "{p}"),
            Tok::Macro(m) => write!(f, "`{m}"),
            Tok::Other(c) => write!(f, "{c}"),
        }
    }
}

/// A token and the byte range it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub pos: usize,
    pub end: usize,
}

const PUNCTS: &[&str] = &[
    "<<<", ">>>", "===", "!==", "==?", "!=?", "<->", "**", "==", "!=", "<=", ">=", "&&", "||",
    "<<", ">>", "~&", "~|", "~^", "^~", "+:", "-:", "->", "::", "++", "--", "+", "-", "*", "/",
    "%", "<", ">", "!", "~", "&", "|", "^", "?", ":", "(", ")", "[", "]", "{", "}", ",", ";", ".",
    "#", "@", "=", "'", "$",
];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// The token that starts at `pos` (a byte of `src` that is not white
/// space, at a character boundary). Never fails: anything unknown is an
/// [`Tok::Other`].
pub(crate) fn lex_token(src: &str, pos: usize) -> Token {
    let b = src.as_bytes();
    let c = b[pos];
    let scan = |mut i: usize, ok: &dyn Fn(u8) -> bool| {
        while i < b.len() && ok(b[i]) {
            i += 1;
        }
        i
    };
    let token = |tok, end| Token { tok, pos, end };
    if is_ident_start(c) {
        let end = scan(pos, &is_ident_char);
        return token(Tok::Ident(src[pos..end].to_string()), end);
    }
    if c == b'\\' {
        let end = scan(pos + 1, &|c| !c.is_ascii_whitespace());
        if end > pos + 1 {
            return token(Tok::Ident(src[pos + 1..end].to_string()), end);
        }
        return token(Tok::Other('\\'), pos + 1);
    }
    if c == b'$' && pos + 1 < b.len() && is_ident_char(b[pos + 1]) {
        let end = scan(pos + 1, &is_ident_char);
        return token(Tok::System(src[pos + 1..end].to_string()), end);
    }
    if c.is_ascii_digit() {
        let end = scan(pos, &|c| c.is_ascii_digit() || c == b'_');
        let fraction = end + 1 < b.len() && b[end] == b'.' && b[end + 1].is_ascii_digit();
        let exponent = end + 1 < b.len()
            && (b[end] == b'e' || b[end] == b'E')
            && (b[end + 1].is_ascii_digit()
                || ((b[end + 1] == b'-' || b[end + 1] == b'+')
                    && end + 2 < b.len()
                    && b[end + 2].is_ascii_digit()));
        if fraction || exponent {
            let mut e = scan(end + 1, &|c| c.is_ascii_digit() || c == b'_');
            if e < b.len() && (b[e] == b'e' || b[e] == b'E') {
                let mut f = e + 1;
                if f < b.len() && (b[f] == b'-' || b[f] == b'+') {
                    f += 1;
                }
                if f < b.len() && b[f].is_ascii_digit() {
                    e = scan(f, &|c| c.is_ascii_digit() || c == b'_');
                }
            }
            return token(Tok::Real(src[pos..e].to_string()), e);
        }
        return token(Tok::Dec(src[pos..end].replace('_', "")), end);
    }
    if c == b'\'' {
        let mut i = pos + 1;
        let signed = i < b.len() && (b[i] == b's' || b[i] == b'S');
        if signed {
            i += 1;
        }
        if i < b.len() && matches!(b[i].to_ascii_lowercase(), b'b' | b'o' | b'd' | b'h') {
            let base = b[i].to_ascii_lowercase();
            let is_digit = |c: u8| {
                c.is_ascii_hexdigit() || matches!(c, b'x' | b'X' | b'z' | b'Z' | b'?' | b'_')
            };
            let mut j = scan(i + 1, &|c| c == b' ' || c == b'\t');
            if j >= b.len() || !is_digit(b[j]) || b[j] == b'_' {
                j = i + 1;
            }
            let end = scan(j, &is_digit);
            return token(
                Tok::Based {
                    signed,
                    base,
                    digits: src[j..end].to_ascii_lowercase(),
                },
                end,
            );
        }
        return token(Tok::Punct("'"), pos + 1);
    }
    if c == b'"' {
        let mut i = pos + 1;
        while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let end = (i + 1).min(b.len());
        // Never end inside a character.
        let end = (end..=b.len())
            .find(|&e| src.is_char_boundary(e))
            .unwrap_or(b.len());
        return token(Tok::Str, end);
    }
    for p in PUNCTS {
        if b[pos..].starts_with(p.as_bytes()) {
            return token(Tok::Punct(p), pos + p.len());
        }
    }
    let ch = src[pos..].chars().next().unwrap_or('?');
    token(Tok::Other(ch), pos + ch.len_utf8())
}

/// All tokens of an expression's text (white space between them).
fn lex(src: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    let b = src.as_bytes();
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let t = lex_token(src, i);
        i = t.end.max(i + 1);
        out.push(t);
    }
    out
}

// ---------------------------------------------------------------------------
// Syntax tree and parser (shared with the module reader)
// ---------------------------------------------------------------------------

/// The base of a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Base {
    /// A plain decimal number: `15`.
    Plain,
    Dec,
    Bin,
    Oct,
    Hex,
}

/// A number literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Lit {
    /// The size, for a sized number.
    pub size: Option<u32>,
    pub signed: bool,
    pub base: Base,
    /// The bit pattern (less than `2^width`).
    pub value: u128,
    /// How many digits were written.
    pub digits: usize,
    /// The number as written, without spaces: `8'b0000_1111`.
    pub written: String,
}

impl Lit {
    fn width(&self) -> u32 {
        self.size.unwrap_or(32)
    }

    /// The value as Verilog reads it in its own type.
    pub(crate) fn int(&self) -> Option<i128> {
        let w = self.width();
        let v = i128::try_from(self.value).ok();
        if self.signed && w <= 128 && (self.value >> (w - 1)) & 1 == 1 {
            if w == 128 {
                return Some(self.value as i128);
            }
            return v.map(|v| v - (1i128 << w));
        }
        v
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UOp {
    Plus,
    Neg,
    Not,
    LogNot,
    RedAnd,
    RedNand,
    RedOr,
    RedNor,
    RedXor,
    RedXnor,
}

impl UOp {
    fn text(self) -> &'static str {
        match self {
            UOp::Plus => "+",
            UOp::Neg => "-",
            UOp::Not => "~",
            UOp::LogNot => "!",
            UOp::RedAnd => "&",
            UOp::RedNand => "~&",
            UOp::RedOr => "|",
            UOp::RedNor => "~|",
            UOp::RedXor => "^",
            UOp::RedXnor => "~^",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BOp {
    Pow,
    Mul,
    Div,
    Mod,
    Add,
    Sub,
    Shl,
    Shr,
    Ashl,
    Ashr,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    CaseEq,
    CaseNe,
    And,
    Xor,
    Xnor,
    Or,
    LogAnd,
    LogOr,
}

impl BOp {
    fn prec(self) -> u8 {
        match self {
            BOp::Pow => 11,
            BOp::Mul | BOp::Div | BOp::Mod => 10,
            BOp::Add | BOp::Sub => 9,
            BOp::Shl | BOp::Shr | BOp::Ashl | BOp::Ashr => 8,
            BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge => 7,
            BOp::Eq | BOp::Ne | BOp::CaseEq | BOp::CaseNe => 6,
            BOp::And => 5,
            BOp::Xor | BOp::Xnor => 4,
            BOp::Or => 3,
            BOp::LogAnd => 2,
            BOp::LogOr => 1,
        }
    }

    /// The operator as written in the normalized text.
    fn text(self) -> &'static str {
        match self {
            BOp::Pow => "**",
            BOp::Mul => "*",
            BOp::Div => "/",
            BOp::Mod => "%",
            BOp::Add => "+",
            BOp::Sub => "-",
            BOp::Shl => "<<",
            BOp::Shr => ">>",
            BOp::Ashl => "<<<",
            BOp::Ashr => ">>>",
            BOp::Lt => "<",
            BOp::Le => "<=",
            BOp::Gt => ">",
            BOp::Ge => ">=",
            BOp::Eq => "==",
            BOp::Ne => "!=",
            BOp::CaseEq => "===",
            BOp::CaseNe => "!==",
            BOp::And => "&",
            BOp::Xor => "^",
            BOp::Xnor => "~^",
            BOp::Or => "|",
            BOp::LogAnd => "&&",
            BOp::LogOr => "||",
        }
    }

    fn is_compare(self) -> bool {
        matches!(
            self,
            BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge | BOp::Eq | BOp::Ne | BOp::CaseEq | BOp::CaseNe
        )
    }

    fn is_relational(self) -> bool {
        matches!(self, BOp::Lt | BOp::Le | BOp::Gt | BOp::Ge)
    }

    fn is_bitwise(self) -> bool {
        matches!(self, BOp::And | BOp::Or | BOp::Xor | BOp::Xnor)
    }

    fn is_shift(self) -> bool {
        matches!(self, BOp::Shl | BOp::Shr | BOp::Ashl | BOp::Ashr)
    }

    fn is_logical(self) -> bool {
        matches!(self, BOp::LogAnd | BOp::LogOr)
    }

    fn from_punct(p: &str) -> Option<BOp> {
        Some(match p {
            "**" => BOp::Pow,
            "*" => BOp::Mul,
            "/" => BOp::Div,
            "%" => BOp::Mod,
            "+" => BOp::Add,
            "-" => BOp::Sub,
            "<<" => BOp::Shl,
            ">>" => BOp::Shr,
            "<<<" => BOp::Ashl,
            ">>>" => BOp::Ashr,
            "<" => BOp::Lt,
            "<=" => BOp::Le,
            ">" => BOp::Gt,
            ">=" => BOp::Ge,
            "==" => BOp::Eq,
            "!=" => BOp::Ne,
            "===" => BOp::CaseEq,
            "!==" => BOp::CaseNe,
            "&" => BOp::And,
            "^" => BOp::Xor,
            "~^" | "^~" => BOp::Xnor,
            "|" => BOp::Or,
            "&&" => BOp::LogAnd,
            "||" => BOp::LogOr,
            _ => return None,
        })
    }
}

/// A node of the syntax tree, with the byte range it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    pub kind: Kind,
    pub pos: usize,
    pub end: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident(String),
    Num(Lit),
    Select { name: String, sel: Sel },
    Unary(UOp, Box<Node>),
    Binary(BOp, Box<Node>, Box<Node>),
    Cond(Box<Node>, Box<Node>, Box<Node>),
    Concat(Vec<Node>),
    Repl(Box<Node>, Vec<Node>),
    Inside(Box<Node>, Vec<Item>),
    Call(String, Vec<Node>),
    Paren(Box<Node>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sel {
    Bit(Box<Node>),
    Part(Box<Node>, Box<Node>),
    Up(Box<Node>, Box<Node>),
    Down(Box<Node>, Box<Node>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Value(Node),
    Range(Node, Node),
}

/// A parse or evaluation failure: message and byte range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Fail {
    pub message: String,
    pub pos: usize,
    pub end: usize,
}

impl Fail {
    fn new(message: impl Into<String>, pos: usize, end: usize) -> Fail {
        Fail {
            message: message.into(),
            pos,
            end,
        }
    }

    fn into_expr(self) -> ExprError {
        ExprError::new(self.message, self.pos, self.end.saturating_sub(self.pos))
    }
}

/// A recursive-descent parser over a token slice.
pub(crate) struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    depth: u32,
    /// The byte position reported for "end of input".
    eof: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(toks: &'a [Token], eof: usize) -> Parser<'a> {
        Parser {
            toks,
            i: 0,
            depth: 0,
            eof,
        }
    }

    /// The next token, if any.
    pub(crate) fn peek_token(&self) -> Option<&'a Token> {
        self.toks.get(self.i)
    }

    fn peek(&self) -> Option<&'a Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(q)) if *q == p)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn here(&self) -> (usize, usize) {
        match self.toks.get(self.i) {
            Some(t) => (t.pos, t.end),
            None => (self.eof, self.eof + 1),
        }
    }

    fn last_end(&self) -> usize {
        if self.i == 0 {
            self.toks.first().map_or(self.eof, |t| t.pos)
        } else {
            self.toks[self.i - 1].end
        }
    }

    fn unexpected(&self, wanted: &str) -> Fail {
        let (pos, end) = self.here();
        match self.peek() {
            Some(t) => Fail::new(format!("expected {wanted}, found `{t}`"), pos, end),
            None => Fail::new(format!("expected {wanted} at the end"), pos, end),
        }
    }

    fn expect(&mut self, p: &str) -> Result<(), Fail> {
        if self.eat(p) {
            Ok(())
        } else {
            Err(self.unexpected(&format!("`{p}`")))
        }
    }

    fn enter(&mut self) -> Result<(), Fail> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            let (pos, end) = self.here();
            return Err(Fail::new("expression nested too deeply", pos, end));
        }
        Ok(())
    }

    /// An expression (a conditional expression at the top).
    pub(crate) fn expr(&mut self) -> Result<Node, Fail> {
        self.enter()?;
        let c = self.binary(1)?;
        let r = if self.eat("?") {
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            let (pos, end) = (c.pos, b.end);
            Node {
                kind: Kind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                pos,
                end,
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn binop(&self) -> Result<Option<BOp>, Fail> {
        match self.peek() {
            Some(Tok::Punct(p)) => {
                if matches!(*p, "==?" | "!=?" | "->" | "<->" | "++" | "--") {
                    let (pos, end) = self.here();
                    return Err(Fail::new(format!("`{p}` is not supported"), pos, end));
                }
                Ok(BOp::from_punct(p))
            }
            _ => Ok(None),
        }
    }

    fn binary(&mut self, min: u8) -> Result<Node, Fail> {
        let mut lhs = self.unary()?;
        let mut chain = 0;
        loop {
            chain += 1;
            if self.depth + chain > MAX_DEPTH {
                let (pos, end) = self.here();
                return Err(Fail::new("expression nested too deeply", pos, end));
            }
            if matches!(self.peek(), Some(Tok::Ident(s)) if s == "inside") {
                if min > 7 {
                    break;
                }
                self.i += 1;
                let items = self.inside_items()?;
                let (pos, end) = (lhs.pos, self.last_end());
                lhs = Node {
                    kind: Kind::Inside(Box::new(lhs), items),
                    pos,
                    end,
                };
                continue;
            }
            let Some(op) = self.binop()? else { break };
            if op.prec() < min {
                break;
            }
            self.i += 1;
            self.enter()?;
            let rhs = self.binary(op.prec() + 1)?;
            self.depth -= 1;
            let (pos, end) = (lhs.pos, rhs.end);
            lhs = Node {
                kind: Kind::Binary(op, Box::new(lhs), Box::new(rhs)),
                pos,
                end,
            };
        }
        Ok(lhs)
    }

    fn inside_items(&mut self) -> Result<Vec<Item>, Fail> {
        self.expect("{")?;
        let mut items = Vec::new();
        loop {
            if self.eat("[") {
                if self.is("$") {
                    let (pos, end) = self.here();
                    return Err(Fail::new(
                        "`$` in an `inside` range is not supported",
                        pos,
                        end,
                    ));
                }
                let lo = self.expr()?;
                self.expect(":")?;
                if self.is("$") {
                    let (pos, end) = self.here();
                    return Err(Fail::new(
                        "`$` in an `inside` range is not supported",
                        pos,
                        end,
                    ));
                }
                let hi = self.expr()?;
                self.expect("]")?;
                items.push(Item::Range(lo, hi));
            } else {
                items.push(Item::Value(self.expr()?));
            }
            if self.eat("}") {
                return Ok(items);
            }
            if !self.eat(",") {
                return Err(self.unexpected("`,` or `}`"));
            }
        }
    }

    fn unary(&mut self) -> Result<Node, Fail> {
        self.enter()?;
        let (pos, _) = self.here();
        let op = match self.peek() {
            Some(Tok::Punct(p)) => match *p {
                "+" => Some(UOp::Plus),
                "-" => Some(UOp::Neg),
                "~" => Some(UOp::Not),
                "!" => Some(UOp::LogNot),
                "&" => Some(UOp::RedAnd),
                "~&" => Some(UOp::RedNand),
                "|" => Some(UOp::RedOr),
                "~|" => Some(UOp::RedNor),
                "^" => Some(UOp::RedXor),
                "~^" | "^~" => Some(UOp::RedXnor),
                _ => None,
            },
            _ => None,
        };
        let r = match op {
            Some(op) => {
                self.i += 1;
                let x = self.unary()?;
                let end = x.end;
                Node {
                    kind: Kind::Unary(op, Box::new(x)),
                    pos,
                    end,
                }
            }
            None => self.primary()?,
        };
        self.depth -= 1;
        Ok(r)
    }

    fn primary(&mut self) -> Result<Node, Fail> {
        let Some(t) = self.toks.get(self.i) else {
            return Err(self.unexpected("an operand"));
        };
        let pos = t.pos;
        match &t.tok {
            Tok::Dec(d) => {
                self.i += 1;
                if let Some(Token {
                    tok:
                        Tok::Based {
                            signed,
                            base,
                            digits,
                        },
                    end,
                    ..
                }) = self.toks.get(self.i)
                {
                    self.i += 1;
                    let lit = make_lit(Some(d), *signed, *base, digits, pos, *end)?;
                    return Ok(Node {
                        kind: Kind::Num(lit),
                        pos,
                        end: *end,
                    });
                }
                let lit = make_lit(None, true, b'0', d, pos, t.end)?;
                Ok(Node {
                    kind: Kind::Num(lit),
                    pos,
                    end: t.end,
                })
            }
            Tok::Based {
                signed,
                base,
                digits,
            } => {
                self.i += 1;
                let lit = make_lit(None, *signed, *base, digits, pos, t.end)?;
                Ok(Node {
                    kind: Kind::Num(lit),
                    pos,
                    end: t.end,
                })
            }
            Tok::Real(r) => Err(Fail::new(
                format!("real number `{r}`: only integers are supported"),
                pos,
                t.end,
            )),
            Tok::Ident(name) => {
                let escaped = t.end - t.pos != name.len();
                if !escaped && (name == "inside" || VERILOG_KEYWORDS.contains(&name.as_str())) {
                    return Err(Fail::new(
                        format!("`{name}` is a Verilog keyword, not a signal (write `\\{name} ` to use it as a name)"),
                        pos,
                        t.end,
                    ));
                }
                self.i += 1;
                if !self.is("[") {
                    return Ok(Node {
                        kind: Kind::Ident(name.clone()),
                        pos,
                        end: t.end,
                    });
                }
                self.i += 1;
                let first = self.expr()?;
                let sel = if self.eat("]") {
                    Sel::Bit(Box::new(first))
                } else if self.eat(":") {
                    let second = self.expr()?;
                    self.expect("]")?;
                    Sel::Part(Box::new(first), Box::new(second))
                } else if self.eat("+:") {
                    let w = self.expr()?;
                    self.expect("]")?;
                    Sel::Up(Box::new(first), Box::new(w))
                } else if self.eat("-:") {
                    let w = self.expr()?;
                    self.expect("]")?;
                    Sel::Down(Box::new(first), Box::new(w))
                } else {
                    return Err(self.unexpected("`]`, `:`, `+:` or `-:`"));
                };
                if self.is("[") {
                    let (p, e) = self.here();
                    return Err(Fail::new("only one select per signal is supported", p, e));
                }
                Ok(Node {
                    kind: Kind::Select {
                        name: name.clone(),
                        sel,
                    },
                    pos,
                    end: self.last_end(),
                })
            }
            Tok::System(name) => {
                self.i += 1;
                self.expect("(")?;
                let mut args = Vec::new();
                if !self.eat(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.eat(")") {
                            break;
                        }
                        if !self.eat(",") {
                            return Err(self.unexpected("`,` or `)`"));
                        }
                    }
                }
                Ok(Node {
                    kind: Kind::Call(name.clone(), args),
                    pos,
                    end: self.last_end(),
                })
            }
            Tok::Punct("(") => {
                self.i += 1;
                let x = self.expr()?;
                self.expect(")")?;
                Ok(Node {
                    kind: Kind::Paren(Box::new(x)),
                    pos,
                    end: self.last_end(),
                })
            }
            Tok::Punct("{") => {
                self.i += 1;
                if self.is("}") {
                    let (p, e) = self.here();
                    return Err(Fail::new("empty concatenation", pos, e.max(p)));
                }
                let first = self.expr()?;
                if self.is("{") {
                    self.i += 1;
                    let mut items = vec![self.expr()?];
                    while self.eat(",") {
                        items.push(self.expr()?);
                    }
                    self.expect("}")?;
                    self.expect("}")?;
                    return Ok(Node {
                        kind: Kind::Repl(Box::new(first), items),
                        pos,
                        end: self.last_end(),
                    });
                }
                let mut items = vec![first];
                while self.eat(",") {
                    items.push(self.expr()?);
                }
                self.expect("}")?;
                Ok(Node {
                    kind: Kind::Concat(items),
                    pos,
                    end: self.last_end(),
                })
            }
            Tok::Punct(p @ ("==?" | "!=?" | "->" | "<->" | "++" | "--" | "=")) => {
                Err(Fail::new(format!("`{p}` is not supported"), pos, t.end))
            }
            Tok::Macro(m) => Err(Fail::new(format!("macro `{m}` is not defined"), pos, t.end)),
            _ => Err(self.unexpected("an operand")),
        }
    }
}

/// Builds a number from its parts: `size` (decimal digits) for a sized
/// number; `base` `b'0'` for a plain decimal.
fn make_lit(
    size: Option<&str>,
    signed: bool,
    base: u8,
    digits: &str,
    pos: usize,
    end: usize,
) -> Result<Lit, Fail> {
    let fail = |m: String| Fail::new(m, pos, end);
    let size = match size {
        Some(s) => {
            let n: u64 = s.parse().unwrap_or(u64::MAX);
            if n == 0 {
                return Err(fail("a number's size must be at least 1".into()));
            }
            if n > u64::from(MAX_WIDTH) {
                return Err(fail(format!(
                    "a {n}-bit number is wider than the {MAX_WIDTH} bits supported"
                )));
            }
            Some(n as u32)
        }
        None => None,
    };
    let (kind, radix, bchar) = match base {
        b'0' => (Base::Plain, 10, ""),
        b'd' => (Base::Dec, 10, "d"),
        b'b' => (Base::Bin, 2, "b"),
        b'o' => (Base::Oct, 8, "o"),
        _ => (Base::Hex, 16, "h"),
    };
    let written = match size {
        None if kind == Base::Plain => digits.to_string(),
        _ => format!(
            "{}'{}{}{}",
            size.map(|s| s.to_string()).unwrap_or_default(),
            if signed { "s" } else { "" },
            bchar,
            digits
        ),
    };
    let clean: String = digits.chars().filter(|&c| c != '_').collect();
    if clean.is_empty() {
        return Err(fail(format!("`{written}` has no digits")));
    }
    let mut value: u128 = 0;
    for c in clean.chars() {
        if matches!(c, 'x' | 'z' | '?') {
            return Err(fail(format!(
                "`{written}`: x and z digits are not supported (checker inputs are 0 or 1)"
            )));
        }
        let d = c
            .to_digit(radix)
            .ok_or_else(|| fail(format!("`{written}`: `{c}` is not a digit of base {radix}")))?;
        value = value
            .checked_mul(u128::from(radix))
            .and_then(|v| v.checked_add(u128::from(d)))
            .ok_or_else(|| fail(format!("`{written}` is too large (more than 128 bits)")))?;
    }
    let bits = 128 - value.leading_zeros();
    match size {
        None => {
            if kind == Base::Plain && value >= 1 << 31 {
                return Err(fail(format!(
                    "`{written}` does not fit in a 32-bit integer; give it a size (e.g. {}'d{written})",
                    bits + 1
                )));
            }
            if bits > 32 {
                return Err(fail(format!(
                    "unsized number `{written}` is wider than 32 bits; give it a size"
                )));
            }
        }
        Some(w) => {
            if bits > w {
                return Err(fail(format!(
                    "`{written}` does not fit in {w} bits (at most {})",
                    max_text(w)
                )));
            }
            if signed && kind == Base::Dec && bits == w {
                return Err(fail(format!(
                    "`{written}` does not fit in {w} signed bits ({} to {}); write a negative number as -{w}'sd<magnitude>",
                    min_signed_text(w),
                    max_signed_text(w)
                )));
            }
        }
    }
    Ok(Lit {
        size,
        signed: signed || kind == Base::Plain,
        base: kind,
        value,
        digits: clean.len(),
        written,
    })
}

fn max_text(w: u32) -> String {
    if w < 128 {
        ((1u128 << w) - 1).to_string()
    } else {
        format!("2^{w}-1")
    }
}

fn max_signed_text(w: u32) -> String {
    if w <= 127 {
        ((1i128 << (w - 1)) - 1).to_string()
    } else {
        format!("2^{}-1", w - 1)
    }
}

fn min_signed_text(w: u32) -> String {
    if w <= 127 {
        (-(1i128 << (w - 1))).to_string()
    } else {
        format!("-2^{}", w - 1)
    }
}

// ---------------------------------------------------------------------------
// Constant evaluation (select indices, replication counts, parameters)
// ---------------------------------------------------------------------------

/// The value of a constant expression, as a mathematical integer. `env`
/// gives the value of a name (a parameter) or says why there is none.
pub(crate) fn const_eval(
    n: &Node,
    env: &mut dyn FnMut(&str) -> Result<i128, String>,
) -> Result<i128, Fail> {
    let fail = |m: &str| Fail::new(m, n.pos, n.end);
    let big = || fail("constant too large");
    Ok(match &n.kind {
        Kind::Num(l) => l.int().ok_or_else(big)?,
        Kind::Ident(name) => env(name).map_err(|m| Fail::new(m, n.pos, n.end))?,
        Kind::Paren(x) => const_eval(x, env)?,
        Kind::Unary(op, x) => {
            let v = const_eval(x, env)?;
            match op {
                UOp::Plus => v,
                UOp::Neg => v.checked_neg().ok_or_else(big)?,
                UOp::Not => !v,
                UOp::LogNot => i128::from(v == 0),
                _ => return Err(fail("a reduction operator needs a width; not a constant")),
            }
        }
        Kind::Binary(op, a, b) => {
            let x = const_eval(a, env)?;
            let y = const_eval(b, env)?;
            let t = |c: bool| i128::from(c);
            match op {
                BOp::Add => x.checked_add(y).ok_or_else(big)?,
                BOp::Sub => x.checked_sub(y).ok_or_else(big)?,
                BOp::Mul => x.checked_mul(y).ok_or_else(big)?,
                BOp::Div | BOp::Mod if y == 0 => return Err(fail("division by zero")),
                BOp::Div => x.checked_div(y).ok_or_else(big)?,
                BOp::Mod => x.checked_rem(y).ok_or_else(big)?,
                BOp::Pow => {
                    if y < 0 {
                        return Err(fail("negative exponent"));
                    }
                    u32::try_from(y)
                        .ok()
                        .and_then(|e| x.checked_pow(e))
                        .ok_or_else(big)?
                }
                BOp::Shl | BOp::Ashl => {
                    if y < 0 {
                        return Err(fail("negative shift"));
                    }
                    if x == 0 {
                        0
                    } else {
                        let s = u32::try_from(y).ok().filter(|s| *s < 127).ok_or_else(big)?;
                        x.checked_mul(1i128 << s).ok_or_else(big)?
                    }
                }
                BOp::Shr | BOp::Ashr => {
                    if y < 0 {
                        return Err(fail("negative shift"));
                    }
                    x >> y.min(127)
                }
                BOp::Lt => t(x < y),
                BOp::Le => t(x <= y),
                BOp::Gt => t(x > y),
                BOp::Ge => t(x >= y),
                BOp::Eq | BOp::CaseEq => t(x == y),
                BOp::Ne | BOp::CaseNe => t(x != y),
                BOp::And => x & y,
                BOp::Or => x | y,
                BOp::Xor => x ^ y,
                BOp::Xnor => !(x ^ y),
                BOp::LogAnd => t(x != 0 && y != 0),
                BOp::LogOr => t(x != 0 || y != 0),
            }
        }
        Kind::Cond(c, a, b) => {
            if const_eval(c, env)? != 0 {
                const_eval(a, env)?
            } else {
                const_eval(b, env)?
            }
        }
        Kind::Call(name, args) => match (name.as_str(), args.as_slice()) {
            ("clog2", [x]) => {
                let v = const_eval(x, env)?;
                if v <= 1 {
                    0
                } else {
                    i128::from(128 - (v - 1).leading_zeros())
                }
            }
            ("signed" | "unsigned", [x]) => const_eval(x, env)?,
            _ => {
                return Err(fail(&format!(
                    "`${name}` with {} argument(s) cannot be evaluated here",
                    args.len()
                )))
            }
        },
        Kind::Select { name, .. } => {
            return Err(fail(&format!("`{name}[...]` is not a constant")));
        }
        Kind::Concat(_) | Kind::Repl(..) | Kind::Inside(..) => {
            return Err(fail("not a constant integer expression"));
        }
    })
}

// ---------------------------------------------------------------------------
// Checks
// ---------------------------------------------------------------------------

/// A checked node: its Verilog self-determined width and signedness.
#[derive(Clone, Debug)]
struct T {
    k: TK,
    pos: usize,
    end: usize,
    w: u32,
    s: bool,
    /// An unsized number takes part in the width (a context-determined
    /// operand is one).
    unsz: bool,
}

#[derive(Clone, Debug)]
enum TK {
    Ident(usize),
    Select {
        text: String,
        msb_bit: String,
        /// The input and the left and right indices selected.
        bits: (usize, i64, i64),
    },
    Num(Lit),
    Unary(UOp, Box<T>),
    Binary(BOp, Box<T>, Box<T>),
    Cond(Box<T>, Box<T>, Box<T>),
    Concat(Vec<T>),
    Repl(u32, Vec<T>),
    Inside(Box<T>, Vec<TItem>),
    Cast(bool, Box<T>),
    /// `$isunknown(x)` of a signal or a select (IEEE 1800-2017 §20.9):
    /// one bit, never constant.
    Unknown(Box<T>),
    Paren(Box<T>),
}

#[derive(Clone, Debug)]
enum TItem {
    Value(T),
    Range(T, T),
}

fn strip(t: &T) -> &T {
    match &t.k {
        TK::Paren(x) => strip(x),
        _ => t,
    }
}

/// Whether the width of `t` is written out: a signal, a select, a sized
/// number (possibly negated), a concatenation or a cast.
fn explicit(t: &T) -> bool {
    let t = strip(t);
    match &t.k {
        TK::Ident(_) | TK::Select { .. } | TK::Concat(_) | TK::Repl(..) | TK::Cast(..) => true,
        TK::Num(l) => l.size.is_some(),
        TK::Unary(UOp::Neg | UOp::Plus, x) => {
            matches!(&strip(x).k, TK::Num(l) if l.size.is_some())
        }
        _ => false,
    }
}

/// The value of an unsized number, possibly negated, and its signedness.
fn number(t: &T) -> Option<(i128, bool)> {
    let t = strip(t);
    match &t.k {
        TK::Num(l) if l.size.is_none() => l.int().map(|v| (v, l.signed)),
        TK::Unary(UOp::Neg, x) => number(x).map(|(v, s)| (-v, s)),
        TK::Unary(UOp::Plus, x) => number(x),
        _ => None,
    }
}

/// Edits (insertions, deletions, substitutions and swaps of neighbours)
/// between `a` and `b`, ignoring case.
/// Whether `a` and `b` are the same bits computed the same way, next to
/// each other in one operation (ignoring parentheses and casts, which
/// change nothing there; a select of a whole vector is the vector).
fn same(inputs: &[HdlInput], a: &T, b: &T) -> bool {
    fn bare(t: &T) -> &T {
        match &t.k {
            TK::Paren(x) | TK::Cast(_, x) => bare(x),
            _ => t,
        }
    }
    let (a, b) = (bare(a), bare(b));
    let bits = |t: &T| match &t.k {
        TK::Ident(i) => Some((*i, inputs[*i].msb, inputs[*i].lsb)),
        TK::Select { bits, .. } => Some(*bits),
        _ => None,
    };
    if let (Some(x), Some(y)) = (bits(a), bits(b)) {
        return x == y;
    }
    let all =
        |x: &[T], y: &[T]| x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(inputs, p, q));
    match (&a.k, &b.k) {
        (TK::Num(x), TK::Num(y)) => {
            x.value == y.value && x.width() == y.width() && x.signed == y.signed
        }
        (TK::Unary(o, x), TK::Unary(p, y)) => o == p && same(inputs, x, y),
        (TK::Binary(o, x1, x2), TK::Binary(p, y1, y2)) => {
            o == p && same(inputs, x1, y1) && same(inputs, x2, y2)
        }
        (TK::Cond(x1, x2, x3), TK::Cond(y1, y2, y3)) => {
            same(inputs, x1, y1) && same(inputs, x2, y2) && same(inputs, x3, y3)
        }
        (TK::Concat(x), TK::Concat(y)) => all(x, y),
        (TK::Repl(c, x), TK::Repl(d, y)) => c == d && all(x, y),
        _ => false,
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let mut v = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]))
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The closest of `names` to `name`, if close enough to be a likely typo.
pub(crate) fn suggest<'n>(name: &str, names: impl Iterator<Item = &'n str>) -> Option<&'n str> {
    let limit = (name.chars().count() / 3).max(1);
    names
        .map(|n| (edit_distance(name, n), n))
        .filter(|(d, _)| *d <= limit)
        .min_by_key(|(d, _)| *d)
        .map(|(_, n)| n)
}

/// `a, b, c` (the first 12, then how many more).
pub(crate) fn name_list<'n>(names: impl Iterator<Item = &'n str>) -> String {
    let all: Vec<&str> = names.collect();
    let mut s = all.iter().take(12).copied().collect::<Vec<_>>().join(", ");
    if all.len() > 12 {
        s.push_str(&format!(", and {} more", all.len() - 12));
    }
    s
}

struct Checker<'a> {
    text: &'a str,
    inputs: &'a [HdlInput],
    read: Vec<bool>,
}

fn err<X>(message: impl Into<String>, t: &T) -> Result<X, ExprError> {
    Err(ExprError::new(message, t.pos, t.end.saturating_sub(t.pos)))
}

fn node_err<X>(message: impl Into<String>, n: &Node) -> Result<X, ExprError> {
    Err(ExprError::new(message, n.pos, n.end.saturating_sub(n.pos)))
}

impl Checker<'_> {
    /// The source text of a node, shortened if long.
    fn src(&self, pos: usize, end: usize) -> String {
        let s = self.text.get(pos..end).unwrap_or("").trim();
        if s.chars().count() > 40 {
            let head: String = s.chars().take(37).collect();
            format!("{head}...")
        } else {
            s.to_string()
        }
    }

    fn src_t(&self, t: &T) -> String {
        self.src(t.pos, t.end)
    }

    fn lookup(&mut self, name: &str, n: &Node) -> Result<usize, ExprError> {
        if let Some(i) = self.inputs.iter().position(|i| i.name == name) {
            self.read[i] = true;
            return Ok(i);
        }
        let names = || self.inputs.iter().map(|i| i.name.as_str());
        if self.inputs.is_empty() {
            return node_err(
                format!("unknown signal `{name}`: no signals are declared"),
                n,
            );
        }
        let hint = match suggest(name, names()) {
            Some(s) => format!("; did you mean `{s}`?"),
            None => String::new(),
        };
        node_err(
            format!(
                "unknown signal `{name}`{hint} (declared: {})",
                name_list(names())
            ),
            n,
        )
    }

    fn constant(&self, n: &Node, what: &str) -> Result<i64, ExprError> {
        let v = const_eval(n, &mut |name| {
            Err(format!("{what} must be a constant: `{name}` is a signal"))
        })
        .map_err(Fail::into_expr)?;
        i64::try_from(v)
            .ok()
            .filter(|v| v.unsigned_abs() < 1 << 40)
            .map_or_else(|| node_err(format!("{what} {v} is too large"), n), Ok)
    }

    fn check(&mut self, n: &Node) -> Result<T, ExprError> {
        let (pos, end) = (n.pos, n.end);
        let t = |k, w, s, unsz| T {
            k,
            pos,
            end,
            w,
            s,
            unsz,
        };
        Ok(match &n.kind {
            Kind::Ident(name) => {
                let i = self.lookup(name, n)?;
                let input = &self.inputs[i];
                t(TK::Ident(i), input.width() as u32, input.signed, false)
            }
            Kind::Select { name, sel } => self.select(n, name, sel)?,
            Kind::Num(l) => t(TK::Num(l.clone()), l.width(), l.signed, l.size.is_none()),
            Kind::Paren(x) => {
                let x = self.check(x)?;
                let (w, s, u) = (x.w, x.s, x.unsz);
                t(TK::Paren(Box::new(x)), w, s, u)
            }
            Kind::Unary(op, x) => {
                let x = self.check(x)?;
                match op {
                    UOp::Plus | UOp::Neg | UOp::Not => {
                        let (w, s, u) = (x.w, x.s, x.unsz);
                        t(TK::Unary(*op, Box::new(x)), w, s, u)
                    }
                    UOp::LogNot => t(TK::Unary(*op, Box::new(x)), 1, false, false),
                    _ => {
                        self.sized_operand(&x, "a reduction operand")?;
                        t(TK::Unary(*op, Box::new(x)), 1, false, false)
                    }
                }
            }
            Kind::Binary(op, a, b) => {
                let a = self.check(a)?;
                let b = self.check(b)?;
                self.binary(*op, a, b, n)?
            }
            Kind::Cond(c, a, b) => {
                let c = self.check(c)?;
                let a = self.check(a)?;
                let b = self.check(b)?;
                let (w, s, u) = (a.w.max(b.w), a.s && b.s, a.unsz || b.unsz);
                t(TK::Cond(Box::new(c), Box::new(a), Box::new(b)), w, s, u)
            }
            Kind::Concat(items) => {
                let items = self.items(items)?;
                let w = self.total(&items, 1, n)?;
                t(TK::Concat(items), w, false, false)
            }
            Kind::Repl(count, items) => {
                let c = self.constant(count, "a replication count")?;
                if c < 1 {
                    return node_err(
                        format!("the replication count must be at least 1, not {c}"),
                        count,
                    );
                }
                let items = self.items(items)?;
                let w = self.total(&items, c as u64, n)?;
                t(TK::Repl(c as u32, items), w, false, false)
            }
            Kind::Inside(x, items) => {
                let x = self.check(x)?;
                let mut out = Vec::new();
                for item in items {
                    match item {
                        Item::Value(v) => {
                            let v = self.check(v)?;
                            self.pair(BOp::Eq, &x, &v)?;
                            out.push(TItem::Value(v));
                        }
                        Item::Range(lo, hi) => {
                            let lo = self.check(lo)?;
                            let hi = self.check(hi)?;
                            self.pair(BOp::Ge, &x, &lo)?;
                            self.pair(BOp::Le, &x, &hi)?;
                            if let (Some((l, _)), Some((h, _))) = (number(&lo), number(&hi)) {
                                if l > h {
                                    return Err(ExprError::new(
                                        format!("empty range: {l} is greater than {h}"),
                                        lo.pos,
                                        hi.end.saturating_sub(lo.pos),
                                    ));
                                }
                            }
                            out.push(TItem::Range(lo, hi));
                        }
                    }
                }
                t(TK::Inside(Box::new(x), out), 1, false, false)
            }
            Kind::Call(name, args) => match (name.as_str(), args.as_slice()) {
                ("signed" | "unsigned", [x]) => {
                    let x = self.check(x)?;
                    let w = x.w;
                    let s = name == "signed";
                    t(TK::Cast(s, Box::new(x)), w, s, false)
                }
                ("signed" | "unsigned", _) => {
                    return node_err(format!("`${name}` takes one argument"), n);
                }
                ("isunknown", [x]) => {
                    let x = self.check(x)?;
                    if !matches!(strip(&x).k, TK::Ident(_) | TK::Select { .. }) {
                        return node_err(
                            "`$isunknown` reads a signal or a select here (`$isunknown(v)`, \
                             `$isunknown(v[3:0])`)",
                            n,
                        );
                    }
                    t(TK::Unknown(Box::new(x)), 1, false, false)
                }
                ("isunknown", _) => {
                    return node_err("`$isunknown` takes one argument", n);
                }
                ("clog2", _) => {
                    return node_err("`$clog2` is only supported in constant select indices", n);
                }
                _ => return node_err(format!("system function `${name}` is not supported"), n),
            },
        })
    }

    fn items(&mut self, items: &[Node]) -> Result<Vec<T>, ExprError> {
        let mut out = Vec::new();
        for i in items {
            let x = self.check(i)?;
            self.sized_operand(&x, "a concatenation item")?;
            out.push(x);
        }
        Ok(out)
    }

    fn total(&self, items: &[T], count: u64, n: &Node) -> Result<u32, ExprError> {
        let sum: u64 = items.iter().map(|i| u64::from(i.w)).sum();
        let w = sum.saturating_mul(count);
        if w > u64::from(MAX_WIDTH) {
            return node_err(
                format!("{w} bits is wider than the {MAX_WIDTH} bits supported"),
                n,
            );
        }
        Ok(w as u32)
    }

    /// Rejects an operand whose width comes from an unsized number where
    /// the width is part of the meaning.
    fn sized_operand(&self, x: &T, what: &str) -> Result<(), ExprError> {
        if !x.unsz {
            return Ok(());
        }
        if number(x).is_some() {
            return err(
                format!(
                    "unsized number `{}` in {what}; give it a size (e.g. 4'd{})",
                    self.src_t(x),
                    number(x).map_or(0, |v| v.0.unsigned_abs())
                ),
                x,
            );
        }
        err(
            format!(
                "`{}` is 32 bits wide in {what} because of the unsized number in it; give the number a size",
                self.src_t(x)
            ),
            x,
        )
    }

    fn select(&mut self, n: &Node, name: &str, sel: &Sel) -> Result<T, ExprError> {
        let i = self.lookup(name, n)?;
        let input = self.inputs[i].clone();
        let vname = verilog_name(name);
        if input.scalar {
            return node_err(
                format!("`{name}` is a scalar (one bit) and cannot be indexed"),
                n,
            );
        }
        let decl = format!("[{}:{}]", input.msb, input.lsb);
        let (lo, hi) = (input.msb.min(input.lsb), input.msb.max(input.lsb));
        let descending = input.msb >= input.lsb;
        let inside = |v: i64| lo <= v && v <= hi;
        let here = |what: &str| -> ExprError {
            ExprError::new(
                format!(
                    "{what} `{}` is out of range: `{name}` is declared {decl}",
                    self.src(n.pos, n.end)
                ),
                n.pos,
                n.end - n.pos,
            )
        };
        // (left, right) bit indices of the result, and the text.
        let (left, right, text) = match sel {
            Sel::Bit(x) => {
                let v = self.constant(x, "a bit-select index")?;
                if !inside(v) {
                    return Err(here("bit-select"));
                }
                (v, v, format!("[{v}]"))
            }
            Sel::Part(a, b) => {
                let (l, r) = (
                    self.constant(a, "a part-select bound")?,
                    self.constant(b, "a part-select bound")?,
                );
                if !inside(l) || !inside(r) {
                    return Err(here("part-select"));
                }
                if l != r && (l > r) != descending {
                    return node_err(
                        format!(
                            "part-select `{}` is reversed: `{name}` is declared {decl}; write {vname}[{r}:{l}]",
                            self.src(n.pos, n.end)
                        ),
                        n,
                    );
                }
                (l, r, format!("[{l}:{r}]"))
            }
            Sel::Up(a, b) | Sel::Down(a, b) => {
                let base = self.constant(a, "an indexed part-select base")?;
                let w = self.constant(b, "an indexed part-select width")?;
                if w < 1 {
                    return node_err(
                        format!("the width of an indexed part-select must be at least 1, not {w}"),
                        b,
                    );
                }
                let up = matches!(sel, Sel::Up(..));
                // The other end of the selected bits.
                let other = if up { base + (w - 1) } else { base - (w - 1) };
                if !inside(base) || !inside(other) {
                    return Err(here("indexed part-select"));
                }
                let (l, r) = if descending {
                    (base.max(other), base.min(other))
                } else {
                    (base.min(other), base.max(other))
                };
                (
                    l,
                    r,
                    format!("[{base} {} {w}]", if up { "+:" } else { "-:" }),
                )
            }
        };
        let w = left.abs_diff(right) + 1;
        Ok(T {
            k: TK::Select {
                text: format!("{}{text}", vname.trim_end()),
                msb_bit: format!("{}[{left}]", vname.trim_end()),
                bits: (i, left, right),
            },
            pos: n.pos,
            end: n.end,
            w: w as u32,
            s: false,
            unsz: false,
        })
    }

    /// The checks between the two operands of a comparison or bitwise
    /// operation.
    fn pair(&self, op: BOp, a: &T, b: &T) -> Result<(), ExprError> {
        if explicit(a) && explicit(b) && a.w != b.w {
            return err(
                format!(
                    "width mismatch: `{}` is {} bit{}, `{}` is {} bit{}",
                    self.src_t(a),
                    a.w,
                    if a.w == 1 { "" } else { "s" },
                    self.src_t(b),
                    b.w,
                    if b.w == 1 { "" } else { "s" }
                ),
                b,
            );
        }
        for (x, num) in [(a, b), (b, a)] {
            let Some((v, vs)) = number(num) else { continue };
            if !explicit(x) {
                continue;
            }
            let signed = x.s && vs;
            let w = x.w;
            let (lo, hi) = full_range(w, signed).unwrap_or((i128::MIN, i128::MAX));
            if v < lo || v > hi {
                let kind = if signed {
                    "signed "
                } else if v < 0 {
                    "unsigned "
                } else {
                    ""
                };
                return err(
                    format!(
                        "`{}` does not fit in `{}`, which is {kind}{w} bit{} ({} to {})",
                        self.src_t(num),
                        self.src_t(x),
                        if w == 1 { "" } else { "s" },
                        if signed {
                            min_signed_text(w)
                        } else {
                            "0".into()
                        },
                        if signed {
                            max_signed_text(w)
                        } else {
                            max_text(w)
                        },
                    ),
                    num,
                );
            }
        }
        if op.is_relational() {
            for (x, y) in [(a, b), (b, a)] {
                let signed_side = explicit(x) && x.s;
                let unsigned_side = (explicit(y) || number(y).is_some()) && !y.s;
                if signed_side && unsigned_side {
                    return err(
                        format!(
                            "`{}` is signed but `{}` is unsigned, so Verilog would compare them as unsigned numbers; make both signed (`$signed(...)`, `'sd`) or both unsigned (`$unsigned(...)`)",
                            self.src_t(x),
                            self.src_t(y)
                        ),
                        y,
                    );
                }
            }
        }
        Ok(())
    }

    fn binary(&mut self, op: BOp, a: T, b: T, n: &Node) -> Result<T, ExprError> {
        let (pos, end) = (n.pos, n.end);
        if op == BOp::Pow {
            return node_err(
                "`**` is not supported in a proposition (write the power out as a constant)",
                n,
            );
        }
        if matches!(op, BOp::Div | BOp::Mod) {
            if let TK::Num(l) = &strip(&b).k {
                if l.value == 0 {
                    return err("division by zero", &b);
                }
            }
        }
        if op.is_compare() || op.is_bitwise() {
            self.pair(op, &a, &b)?;
        }
        let (w, s, u) = if op.is_compare() || op.is_logical() {
            (1, false, false)
        } else if op.is_shift() {
            (a.w, a.s, a.unsz)
        } else {
            (a.w.max(b.w), a.s && b.s, a.unsz || b.unsz)
        };
        Ok(T {
            k: TK::Binary(op, Box::new(a), Box::new(b)),
            pos,
            end,
            w,
            s,
            unsz: u,
        })
    }
}

// ---------------------------------------------------------------------------
// Value ranges
// ---------------------------------------------------------------------------

/// A closed interval of integers.
type Iv = (i128, i128);

/// The `w`-bit pattern `v` (`w` <= 127) read as a signed number.
fn sext(v: u128, w: u32) -> i128 {
    let v = v & ((1u128 << w) - 1);
    if w > 0 && (v >> (w - 1)) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

/// The values of a `w`-bit operand.
fn full_range(w: u32, signed: bool) -> Option<Iv> {
    if w >= 127 || w == 0 {
        return None;
    }
    Some(if signed {
        (-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        (0, (1i128 << w) - 1)
    })
}

fn bitlen(x: i128) -> u32 {
    128 - x.leading_zeros()
}

/// How many bits hold every value of `iv` (`None`: negative values in an
/// unsigned operation).
fn bits_for(iv: Iv, signed: bool) -> Option<u32> {
    if signed {
        let pos = if iv.1 > 0 { bitlen(iv.1) } else { 0 };
        let neg = if iv.0 < 0 { bitlen(!iv.0) } else { 0 };
        Some(1 + pos.max(neg))
    } else if iv.0 < 0 {
        None
    } else {
        Some(bitlen(iv.1).max(1))
    }
}

/// What a width-narrowing analysis found: the width every intermediate
/// value fits in, or that some may wrap around.
struct Acc {
    need: u32,
    ok: bool,
}

impl Acc {
    fn new() -> Acc {
        Acc { need: 1, ok: true }
    }
}

fn corners(a: Iv, b: Iv, f: impl Fn(i128, i128) -> Option<i128>) -> Option<Iv> {
    let v = [f(a.0, b.0)?, f(a.0, b.1)?, f(a.1, b.0)?, f(a.1, b.1)?];
    Some((*v.iter().min()?, *v.iter().max()?))
}

/// The range of a `k`-bit two's complement (signed) or `k`-bit unsigned
/// value that holds both intervals, for bitwise operations.
fn bitwise_range(a: Iv, b: Iv, signed: bool) -> Option<Iv> {
    let k = bits_for(a, signed)?.max(bits_for(b, signed)?);
    full_range(k, signed)
}

/// Decides a comparison from the ranges of its operands, if they do.
fn decide(op: BOp, a: Iv, b: Iv) -> Option<bool> {
    match op {
        BOp::Eq | BOp::CaseEq => {
            if a.1 < b.0 || b.1 < a.0 {
                Some(false)
            } else if a.0 == a.1 && b.0 == b.1 && a.0 == b.0 {
                Some(true)
            } else {
                None
            }
        }
        BOp::Ne | BOp::CaseNe => decide(BOp::Eq, a, b).map(|v| !v),
        BOp::Lt => {
            if a.1 < b.0 {
                Some(true)
            } else if a.0 >= b.1 {
                Some(false)
            } else {
                None
            }
        }
        BOp::Le => {
            if a.1 <= b.0 {
                Some(true)
            } else if a.0 > b.1 {
                Some(false)
            } else {
                None
            }
        }
        BOp::Gt => decide(BOp::Lt, b, a),
        BOp::Ge => decide(BOp::Le, b, a),
        _ => None,
    }
}

fn range_text(iv: Iv) -> String {
    if iv.0 == iv.1 {
        iv.0.to_string()
    } else {
        format!("{} to {}", iv.0, iv.1)
    }
}

// ---------------------------------------------------------------------------
// Normalized text
// ---------------------------------------------------------------------------

const P_PRIMARY: u8 = 13;
const P_UNARY: u8 = 12;

/// Emitted text and the precedence of its top operator.
struct Out {
    t: String,
    p: u8,
}

fn wrap(o: &Out, min: u8) -> String {
    if o.p < min {
        format!("({})", o.t)
    } else {
        o.t.clone()
    }
}

fn primary(t: String) -> Out {
    Out { t, p: P_PRIMARY }
}

fn unary_text(op: &str, x: &Out) -> Out {
    let starts_with_op = x.t.starts_with(['+', '-', '!', '~', '&', '|', '^']);
    let inner = if x.p < P_UNARY || starts_with_op {
        format!("({})", x.t)
    } else {
        x.t.clone()
    };
    Out {
        t: format!("{op}{inner}"),
        p: P_UNARY,
    }
}

fn binary_text(op: BOp, a: &Out, b: &Out) -> Out {
    let p = op.prec();
    Out {
        t: format!("{} {} {}", wrap(a, p), op.text(), wrap(b, p + 1)),
        p,
    }
}

/// `k` zero bits, for a zero extension.
fn zeros(k: u32) -> String {
    if k == 1 {
        "1'b0".into()
    } else {
        format!("{k}'d0")
    }
}

/// The digits of the low `w` bits of `value`, sign-extended from bit
/// `from` (`None`: zero-extended), in base 2, 8 or 16.
fn pattern_digits(value: u128, from: Option<u32>, w: u32, radix_bits: u32) -> String {
    let bit = |i: u32| -> bool {
        match from {
            Some(f) if i >= f => true,
            _ => i < 128 && (value >> i) & 1 == 1,
        }
    };
    let n = w.div_ceil(radix_bits);
    let mut s = String::new();
    for d in (0..n).rev() {
        let mut v = 0u32;
        for j in (0..radix_bits).rev() {
            let i = d * radix_bits + j;
            v = v * 2 + u32::from(i < w && bit(i));
        }
        s.push(char::from_digit(v, 16).unwrap_or('0'));
    }
    s
}

impl Checker<'_> {
    /// The normalized text of a proposition: true when its value (in its
    /// own width, as in `if (<root>)`) is not zero.
    fn truth(&mut self, root: &T) -> Result<String, ExprError> {
        let inner = strip(root);
        let (out, w, iv) = self.value(inner, inner.w, inner.s)?;
        let constant = self.cval(inner, inner.w, inner.s).map(|p| {
            let v = if inner.s { sext(p, inner.w) } else { p as i128 };
            (v, v)
        });
        if let Some(iv) = constant.or(iv) {
            if iv.0 > 0 || iv.1 < 0 || iv == (0, 0) {
                let v = iv != (0, 0);
                let why = if matches!(inner.k, TK::Num(_)) {
                    "it is a constant".to_string()
                } else if iv.0 == iv.1 {
                    format!("its value is {}", iv.0)
                } else {
                    format!("its value ranges over {}", range_text(iv))
                };
                return err(format!("`{}` is always {v}: {why}", self.src_t(root)), root);
            }
        }
        Ok(if w == 1 {
            strip_outer_parens(&out.t).to_string()
        } else {
            format!("{} != {}", wrap(&out, 6), zeros_literal(w, inner.s))
        })
    }

    /// An operand used as a Boolean (`!`, `&&`, `||`, `?:`): nonzero in
    /// its own width.
    fn boolean(&mut self, n: &T) -> Result<Out, ExprError> {
        let inner = strip(n);
        let (out, w, _) = self.value(inner, inner.w, inner.s)?;
        Ok(if w == 1 {
            if std::ptr::eq(inner, n) || out.p >= P_PRIMARY {
                out
            } else {
                primary(format!("({})", out.t))
            }
        } else {
            primary(format!(
                "({} != {})",
                wrap(&out, 6),
                zeros_literal(w, inner.s)
            ))
        })
    }

    /// The ranges of a context-determined tree evaluated in `w0` bits.
    fn ivl(&self, n: &T, s: bool, w0: u32, acc: &mut Acc) -> Option<Iv> {
        let mut iv = self.ivl_inner(n, s, w0, acc);
        if iv.is_none_or(|iv| iv.0 != iv.1)
            && matches!(n.k, TK::Unary(..) | TK::Binary(..) | TK::Cond(..))
        {
            // A constant operation (`25 % 5`): its exact value.
            if let Some(p) = self.cval(n, w0, s) {
                let v = if s { sext(p, w0) } else { p as i128 };
                iv = Some((v, v));
            }
        }
        match iv.and_then(|iv| bits_for(iv, s)) {
            Some(b) if b <= w0 => acc.need = acc.need.max(b),
            _ => acc.ok = false,
        }
        iv
    }

    fn ivl_inner(&self, n: &T, s: bool, w0: u32, acc: &mut Acc) -> Option<Iv> {
        match &n.k {
            TK::Paren(x) => self.ivl(x, s, w0, acc),
            TK::Unary(UOp::Plus, x) => self.ivl(x, s, w0, acc),
            TK::Unary(UOp::Neg, x) => {
                let a = self.ivl(x, s, w0, acc)?;
                Some((a.1.checked_neg()?, a.0.checked_neg()?))
            }
            TK::Unary(UOp::Not, x) => {
                let a = self.ivl(x, s, w0, acc)?;
                if s {
                    Some((!a.1, !a.0))
                } else {
                    None
                }
            }
            TK::Cond(_, a, b) => {
                let a = self.ivl(a, s, w0, acc);
                let b = self.ivl(b, s, w0, acc);
                let (a, b) = (a?, b?);
                Some((a.0.min(b.0), a.1.max(b.1)))
            }
            TK::Binary(op, a, b) if op.is_shift() => {
                let x = self.ivl(a, s, w0, acc)?;
                let (lo, hi) = self.amount_range(b)?;
                let (lo, hi) = (lo.min(127) as u32, hi.min(127) as u32);
                match op {
                    BOp::Shl | BOp::Ashl => {
                        if hi >= 127 {
                            return None;
                        }
                        corners(x, (lo as i128, hi as i128), |v, k| {
                            v.checked_mul(1i128 << k)
                        })
                    }
                    _ if (*op == BOp::Shr || !s) && x.0 < 0 => None,
                    _ => Some(((x.0 >> lo).min(x.0 >> hi), (x.1 >> lo).max(x.1 >> hi))),
                }
            }
            TK::Binary(op, a, b) if !op.is_compare() && !op.is_logical() => {
                let x = self.ivl(a, s, w0, acc);
                let y = self.ivl(b, s, w0, acc);
                let (x, y) = (x?, y?);
                match op {
                    BOp::Add => Some((x.0.checked_add(y.0)?, x.1.checked_add(y.1)?)),
                    BOp::Sub => Some((x.0.checked_sub(y.1)?, x.1.checked_sub(y.0)?)),
                    BOp::Mul => corners(x, y, i128::checked_mul),
                    BOp::Div => {
                        if s {
                            let m = x.0.checked_abs()?.max(x.1.checked_abs()?);
                            Some((-m, m))
                        } else if x.0 < 0 || y.0 < 0 {
                            None
                        } else {
                            Some((x.0 / y.1.max(1), x.1 / y.0.max(1)))
                        }
                    }
                    BOp::Mod => {
                        let ma = x.0.checked_abs()?.max(x.1.checked_abs()?);
                        let mb = y.0.checked_abs()?.max(y.1.checked_abs()?);
                        let m = ma.min((mb - 1).max(0));
                        if !s && (x.0 < 0 || y.0 < 0) {
                            None
                        } else {
                            Some((if x.0 < 0 { -m } else { 0 }, if x.1 > 0 { m } else { 0 }))
                        }
                    }
                    BOp::And if !s => {
                        if x.0 < 0 || y.0 < 0 {
                            None
                        } else {
                            Some((0, x.1.min(y.1)))
                        }
                    }
                    BOp::Xnor if !s => None,
                    // a | b is at least the larger of a and b.
                    BOp::Or if !s => {
                        let r = bitwise_range(x, y, s)?;
                        Some((x.0.max(y.0), r.1))
                    }
                    _ => bitwise_range(x, y, s),
                }
            }
            TK::Num(l) => {
                if l.size.is_some() {
                    acc.need = acc.need.max(l.width());
                }
                if s {
                    l.int()
                } else {
                    i128::try_from(l.value).ok()
                }
                .map(|v| (v, v))
            }
            _ => match self.cval(n, n.w, n.s) {
                // A constant (`!0`, `{2'b01, 2'b10}`, `x == x`): its
                // value, in a text that keeps its width.
                Some(p) => {
                    acc.need = acc.need.max(n.w);
                    Some(if s && n.s { sext(p, n.w) } else { p as i128 }).map(|v| (v, v))
                }
                None => full_range(n.w, s),
            },
        }
    }

    /// The `w`-bit pattern of a tree evaluated as Verilog does in a
    /// context of `w` bits, signed if `s`, when it does not depend on the
    /// signals it reads: a constant, or an operation that discards them
    /// (`x << 8` in 8 bits, `x & 0`, `x | 8'hff`, `x % 1`, `x == x`).
    /// `None` otherwise, or beyond 127 bits.
    fn cval(&self, n: &T, w: u32, s: bool) -> Option<u128> {
        if w > 127 || n.w > 127 {
            return None;
        }
        let ones = (1u128 << w) - 1;
        let mask = |v: u128| v & ones;
        Some(match &n.k {
            TK::Ident(_) | TK::Select { .. } => return None,
            TK::Paren(x) => self.cval(x, w, s)?,
            TK::Num(l) => {
                if l.value >= 1 << 127 {
                    return None;
                }
                if s && l.signed {
                    mask(sext(l.value, l.width()) as u128)
                } else {
                    mask(l.value)
                }
            }
            TK::Unary(op @ (UOp::Plus | UOp::Neg | UOp::Not), x) => {
                let v = self.cval(x, w, s)?;
                match op {
                    UOp::Plus => v,
                    UOp::Neg => mask(v.wrapping_neg()),
                    _ => mask(!v),
                }
            }
            TK::Binary(op, a, b) if op.is_shift() => {
                let v = self.cval(a, w, s);
                if v == Some(0) {
                    return Some(0);
                }
                let k = self.cval(b, b.w, b.s)?;
                let k = u32::try_from(k).unwrap_or(u32::MAX);
                if k >= w && (matches!(op, BOp::Shl | BOp::Ashl | BOp::Shr) || !s) {
                    return Some(0);
                }
                let v = v?;
                match op {
                    BOp::Shl | BOp::Ashl => {
                        if k >= w {
                            0
                        } else {
                            mask(v << k)
                        }
                    }
                    BOp::Ashr if s => mask((sext(v, w) >> k.min(127)) as u128),
                    _ => {
                        if k >= w {
                            0
                        } else {
                            v >> k
                        }
                    }
                }
            }
            TK::Binary(op, a, b) if !op.is_compare() && !op.is_logical() => {
                if matches!(op, BOp::Sub | BOp::Xor | BOp::Xnor) && same(self.inputs, a, b) {
                    return Some(if *op == BOp::Xnor { ones } else { 0 });
                }
                let (x, y) = (self.cval(a, w, s), self.cval(b, w, s));
                match op {
                    BOp::And | BOp::Mul if x == Some(0) || y == Some(0) => return Some(0),
                    BOp::Div | BOp::Mod if x == Some(0) => return Some(0),
                    BOp::Or if x == Some(ones) || y == Some(ones) => return Some(ones),
                    BOp::Mod if y == Some(1) => return Some(0),
                    _ => {}
                }
                let (x, y) = (x?, y?);
                match op {
                    BOp::Add => mask(x.wrapping_add(y)),
                    BOp::Sub => mask(x.wrapping_sub(y)),
                    BOp::Mul => mask(x.wrapping_mul(y)),
                    BOp::Div | BOp::Mod => {
                        if y == 0 {
                            return None;
                        }
                        if s {
                            let (x, y) = (sext(x, w), sext(y, w));
                            let r = if *op == BOp::Div {
                                x.checked_div(y)?
                            } else {
                                x.checked_rem(y)?
                            };
                            mask(r as u128)
                        } else if *op == BOp::Div {
                            x / y
                        } else {
                            x % y
                        }
                    }
                    BOp::And => x & y,
                    BOp::Or => x | y,
                    BOp::Xor => x ^ y,
                    BOp::Xnor => mask(!(x ^ y)),
                    _ => return None,
                }
            }
            TK::Cond(c, a, b) => match self.cval(c, c.w, c.s) {
                Some(0) => self.cval(b, w, s)?,
                Some(_) => self.cval(a, w, s)?,
                None => {
                    let x = self.cval(a, w, s)?;
                    (self.cval(b, w, s)? == x).then_some(x)?
                }
            },
            _ => {
                let own = self.cval_own(n)?;
                if s && n.s {
                    mask(sext(own, n.w) as u128)
                } else {
                    own
                }
            }
        })
    }

    /// The pattern of a constant leaf in its own width.
    fn cval_own(&self, n: &T) -> Option<u128> {
        let b = |v: bool| u128::from(v);
        Some(match &n.k {
            TK::Concat(items) => {
                let mut v = 0u128;
                for i in items {
                    v = (v << i.w) | self.cval(i, i.w, i.s)?;
                }
                v
            }
            TK::Repl(c, items) => {
                let mut one = 0u128;
                let mut w = 0;
                for i in items {
                    one = (one << i.w) | self.cval(i, i.w, i.s)?;
                    w += i.w;
                }
                let mut v = 0u128;
                for _ in 0..*c {
                    v = (v << w) | one;
                }
                v
            }
            TK::Cast(_, x) => self.cval(x, x.w, x.s)?,
            TK::Unary(UOp::LogNot, x) => b(self.cval(x, x.w, x.s)? == 0),
            TK::Unary(op, x) => {
                let v = self.cval(x, x.w, x.s)?;
                let all = v == (1u128 << x.w) - 1;
                let odd = v.count_ones() % 2 == 1;
                b(match op {
                    UOp::RedAnd => all,
                    UOp::RedNand => !all,
                    UOp::RedOr => v != 0,
                    UOp::RedNor => v == 0,
                    UOp::RedXor => odd,
                    _ => !odd,
                })
            }
            TK::Binary(op @ (BOp::LogAnd | BOp::LogOr), x, y) => {
                let truth = |t: &T| self.cval(t, t.w, t.s).map(|v| v != 0);
                let (p, q) = (truth(x), truth(y));
                // A false operand of `&&` (a true one of `||`) decides.
                let decisive = *op == BOp::LogOr;
                if p == Some(decisive) || q == Some(decisive) {
                    b(decisive)
                } else {
                    let (p, q) = (p?, q?);
                    b(if decisive { p || q } else { p && q })
                }
            }
            TK::Binary(op, x, y) if op.is_compare() && same(self.inputs, x, y) => {
                b(matches!(op, BOp::Eq | BOp::CaseEq | BOp::Le | BOp::Ge))
            }
            TK::Binary(op, x, y) if op.is_compare() => b(self.ccompare(*op, x, y)?),
            TK::Inside(x, items) => {
                let mut any = false;
                for item in items {
                    any |= match item {
                        TItem::Value(v) => self.ccompare(BOp::Eq, x, v)?,
                        TItem::Range(lo, hi) => {
                            self.ccompare(BOp::Ge, x, lo)? && self.ccompare(BOp::Le, x, hi)?
                        }
                    };
                }
                b(any)
            }
            _ => return None,
        })
    }

    fn ccompare(&self, op: BOp, a: &T, b: &T) -> Option<bool> {
        let w = a.w.max(b.w);
        let s = a.s && b.s;
        let (x, y) = (self.cval(a, w, s)?, self.cval(b, w, s)?);
        let (x, y) = if s {
            (sext(x, w), sext(y, w))
        } else {
            (x as i128, y as i128)
        };
        decide(op, (x, x), (y, y))
    }

    /// The values a shift amount takes (as Verilog reads it: unsigned).
    fn amount_range(&self, b: &T) -> Option<Iv> {
        let mut acc = Acc::new();
        match self.ivl(b, b.s, b.w, &mut acc) {
            Some(iv) if acc.ok && iv.0 >= 0 => Some(iv),
            _ => full_range(b.w, false),
        }
    }

    /// A tree evaluated as Verilog does in `w0` bits with signedness `s`,
    /// in the narrowest width that gives the same value: the text, that
    /// width, and the range of the value when known.
    fn value(&mut self, n: &T, w0: u32, s: bool) -> Result<(Out, u32, Option<Iv>), ExprError> {
        let mut acc = Acc::new();
        let iv = self.ivl(n, s, w0, &mut acc);
        let w = if acc.ok { acc.need } else { w0 };
        let out = self.ctx(n, w, s)?;
        Ok((out, w, if acc.ok { iv } else { None }))
    }

    /// A tree in exactly its own width.
    fn exact(&mut self, n: &T) -> Result<Out, ExprError> {
        self.ctx(n, n.w, n.s)
    }

    /// A context-determined tree, evaluated in `w` bits, signed if `s`.
    fn ctx(&mut self, n: &T, w: u32, s: bool) -> Result<Out, ExprError> {
        Ok(match &n.k {
            TK::Paren(x) => {
                let inner = self.ctx(x, w, s)?;
                if inner.p == P_PRIMARY && strip_outer_parens(&inner.t).len() < inner.t.len() {
                    inner
                } else {
                    primary(format!("({})", inner.t))
                }
            }
            TK::Unary(op @ (UOp::Plus | UOp::Neg | UOp::Not), x) => {
                let x = self.ctx(x, w, s)?;
                unary_text(op.text(), &x)
            }
            TK::Binary(op, a, b) if op.is_shift() => {
                let a = self.ctx(a, w, s)?;
                let b = self.amount(b)?;
                binary_text(*op, &a, &b)
            }
            TK::Binary(op, a, b) if !op.is_compare() && !op.is_logical() => {
                let a = self.ctx(a, w, s)?;
                let b = self.ctx(b, w, s)?;
                binary_text(*op, &a, &b)
            }
            TK::Cond(c, a, b) => {
                let c = self.boolean(c)?;
                let a = self.ctx(a, w, s)?;
                let b = self.ctx(b, w, s)?;
                Out {
                    t: format!("{} ? {} : {}", wrap(&c, 2), wrap(&a, 2), wrap(&b, 1)),
                    p: 1,
                }
            }
            TK::Num(l) => primary(literal(l, w, s)),
            _ => self.leaf(n, w, s)?,
        })
    }

    /// A shift amount: its value matters, read as unsigned.
    fn amount(&mut self, b: &T) -> Result<Out, ExprError> {
        if let TK::Num(l) = &b.k {
            return Ok(primary(l.written.clone()));
        }
        let mut acc = Acc::new();
        let iv = self.ivl(b, b.s, b.w, &mut acc);
        let w = match iv {
            Some(iv) if acc.ok && iv.0 >= 0 => acc.need,
            _ => b.w,
        };
        self.ctx(b, w, b.s)
    }

    /// An operand whose width Verilog takes as is (a leaf of a context),
    /// extended to `w` bits.
    fn leaf(&mut self, n: &T, w: u32, s: bool) -> Result<Out, ExprError> {
        let inner = self.own(n)?;
        if n.w == w {
            return Ok(inner);
        }
        if n.w > w {
            return err(
                "internal error: an operand is wider than its context (please report)",
                n,
            );
        }
        let k = w - n.w;
        if !(s && n.s) {
            return Ok(primary(format!("{{{}, {}}}", zeros(k), inner.t)));
        }
        let sign_bit = match &n.k {
            TK::Ident(i) => Some(self.inputs[*i].sign_bit()),
            TK::Cast(true, x) => match &strip(x).k {
                TK::Ident(i) => Some(self.inputs[*i].sign_bit()),
                TK::Select { msb_bit, .. } => Some(msb_bit.clone()),
                _ => None,
            },
            _ => None,
        };
        Ok(match sign_bit {
            Some(b) => primary(format!("$signed({{{{{k}{{{b}}}}}, {}}})", inner.t)),
            None => primary(format!("($signed({{{}, {k}'d0}}) >>> {k})", inner.t)),
        })
    }

    /// A leaf in its own width.
    fn own(&mut self, n: &T) -> Result<Out, ExprError> {
        Ok(match &n.k {
            TK::Ident(i) => primary(verilog_name(&self.inputs[*i].name)),
            TK::Select { text, .. } => primary(text.clone()),
            TK::Num(l) => primary(literal(l, l.width(), l.signed)),
            TK::Concat(items) => {
                let parts = items
                    .iter()
                    .map(|i| self.exact(i).map(|o| o.t))
                    .collect::<Result<Vec<_>, _>>()?;
                primary(format!("{{{}}}", parts.join(", ")))
            }
            TK::Repl(c, items) => {
                let parts = items
                    .iter()
                    .map(|i| self.exact(i).map(|o| o.t))
                    .collect::<Result<Vec<_>, _>>()?;
                primary(format!("{{{c}{{{}}}}}", parts.join(", ")))
            }
            TK::Cast(signed, x) => {
                let x = self.exact(x)?;
                primary(format!(
                    "${}({})",
                    if *signed { "signed" } else { "unsigned" },
                    x.t
                ))
            }
            TK::Unary(UOp::LogNot, x) => {
                let x = self.boolean(x)?;
                unary_text("!", &x)
            }
            TK::Unknown(x) => {
                let x = self.exact(x)?;
                primary(format!("$isunknown({})", strip_outer_parens(&x.t)))
            }
            TK::Unary(op, x) if !matches!(op, UOp::Plus | UOp::Neg | UOp::Not) => {
                let x = self.exact(x)?;
                unary_text(op.text(), &x)
            }
            TK::Binary(op, a, b) if op.is_logical() => {
                let a = self.boolean(a)?;
                let b = self.boolean(b)?;
                binary_text(*op, &a, &b)
            }
            TK::Binary(op, a, b) if op.is_compare() => match self.compare(*op, a, b)? {
                Ok(o) => o,
                Err((v, why)) => {
                    return err(format!("`{}` is always {v}: {why}", self.src_t(n)), n)
                }
            },
            TK::Inside(x, items) => self.inside(n, x, items)?,
            _ => self.exact(n)?,
        })
    }

    /// A comparison, or its constant outcome and why.
    #[allow(clippy::type_complexity)]
    fn compare(&mut self, op: BOp, a: &T, b: &T) -> Result<Result<Out, (bool, String)>, ExprError> {
        let w0 = a.w.max(b.w);
        let s = a.s && b.s;
        if same(self.inputs, a, b) {
            let v = matches!(op, BOp::Eq | BOp::CaseEq | BOp::Le | BOp::Ge);
            return Ok(Err((v, "both sides are the same".into())));
        }
        let mut acc = Acc::new();
        let ia = self.ivl(a, s, w0, &mut acc);
        let ib = self.ivl(b, s, w0, &mut acc);
        let w = if acc.ok { acc.need } else { w0 };
        let ranges = if acc.ok {
            ia.zip(ib)
        } else {
            // Any value of the width, against a constant.
            let point = |t: &T| {
                self.cval(t, w, s)
                    .map(|p| if s { sext(p, w) } else { p as i128 })
                    .map(|v| (v, v))
            };
            match (point(a), point(b)) {
                (Some(x), Some(y)) => Some((x, y)),
                (Some(x), None) => full_range(w, s).map(|r| (x, r)),
                (None, Some(y)) => full_range(w, s).map(|r| (r, y)),
                _ => None,
            }
        };
        if let Some((ra, rb)) = ranges {
            if let Some(v) = decide(op, ra, rb) {
                let mut why = Vec::new();
                for (t, r) in [(a, ra), (b, rb)] {
                    if number(t).is_some() || matches!(strip(t).k, TK::Num(_)) {
                        continue;
                    }
                    why.push(if r.0 == r.1 {
                        format!("`{}` is {}", self.src_t(t), r.0)
                    } else if acc.ok {
                        format!("`{}` ranges over {}", self.src_t(t), range_text(r))
                    } else {
                        format!(
                            "`{}` is any {}-bit {} number here",
                            self.src_t(t),
                            w,
                            if s { "signed" } else { "unsigned" }
                        )
                    });
                }
                if why.is_empty() {
                    why.push("both sides are constants".into());
                }
                return Ok(Err((v, why.join(" and "))));
            }
        }
        let x = self.ctx(a, w, s)?;
        let y = self.ctx(b, w, s)?;
        Ok(Ok(binary_text(op, &x, &y)))
    }

    fn inside(&mut self, n: &T, x: &T, items: &[TItem]) -> Result<Out, ExprError> {
        let mut alternatives = Vec::new();
        let always = |me: &Self, v: bool, why: String, t: &T| -> ExprError {
            ExprError::new(
                format!("`{}` is always {v}: {why}", me.src_t(t)),
                t.pos,
                t.end.saturating_sub(t.pos),
            )
        };
        for item in items {
            match item {
                TItem::Value(v) => match self.compare(BOp::Eq, x, v)? {
                    Ok(o) => alternatives.push(o),
                    Err((true, why)) => return Err(always(self, true, why, n)),
                    Err((false, why)) => {
                        return Err(ExprError::new(
                            format!("`{}` never matches: {why}", self.src_t(v)),
                            v.pos,
                            v.end.saturating_sub(v.pos),
                        ))
                    }
                },
                TItem::Range(lo, hi) => {
                    let mut parts = Vec::new();
                    for (op, bound) in [(BOp::Ge, lo), (BOp::Le, hi)] {
                        match self.compare(op, x, bound)? {
                            Ok(o) => parts.push(o),
                            Err((true, _)) => {}
                            Err((false, why)) => {
                                return Err(ExprError::new(
                                    format!(
                                        "`[{}:{}]` never matches: {why}",
                                        self.src_t(lo),
                                        self.src_t(hi)
                                    ),
                                    lo.pos,
                                    hi.end.saturating_sub(lo.pos),
                                ))
                            }
                        }
                    }
                    match parts.len() {
                        0 => {
                            return Err(always(
                                self,
                                true,
                                format!(
                                    "`[{}:{}]` holds every value of `{}`",
                                    self.src_t(lo),
                                    self.src_t(hi),
                                    self.src_t(x)
                                ),
                                n,
                            ))
                        }
                        1 => alternatives.extend(parts),
                        _ => alternatives.push(primary(format!(
                            "({} && {})",
                            wrap(&parts[0], 2),
                            wrap(&parts[1], 3)
                        ))),
                    }
                }
            }
        }
        if let [only] = alternatives.as_slice() {
            if only.p == P_PRIMARY {
                return Ok(primary(only.t.clone()));
            }
        }
        let texts: Vec<String> = alternatives.iter().map(|o| wrap(o, 2)).collect();
        Ok(primary(format!("({})", texts.join(" || "))))
    }
}

/// `text` without parentheses around all of it.
fn strip_outer_parens(mut text: &str) -> &str {
    while text.starts_with('(') && text.ends_with(')') {
        let b = text.as_bytes();
        let mut depth = 0usize;
        let mut k = 0;
        let mut closes_at_end = false;
        while k < b.len() {
            match b[k] {
                b'\\' => {
                    while k < b.len() && !b[k].is_ascii_whitespace() {
                        k += 1;
                    }
                    continue;
                }
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        closes_at_end = k == b.len() - 1;
                        break;
                    }
                }
                _ => {}
            }
            k += 1;
        }
        if !closes_at_end {
            break;
        }
        text = &text[1..text.len() - 1];
    }
    text
}

/// `w'd0`, or `w'sd0` next to a signed operand (an unsigned zero would
/// make the operand's operations unsigned).
fn zeros_literal(w: u32, signed: bool) -> String {
    if signed {
        format!("{w}'sd0")
    } else {
        format!("{w}'d0")
    }
}

/// A number written in `w` bits, signed if `s`: as written when it
/// already has that width, otherwise resized (sign-extended when `s`).
fn literal(l: &Lit, w: u32, s: bool) -> String {
    if l.size == Some(w) {
        return l.written.clone();
    }
    let lw = l.width();
    let negative = s && l.signed && lw <= 128 && (l.value >> (lw - 1)) & 1 == 1;
    let sign = if s { "s" } else { "" };
    let (bchar, bits) = match (l.base, negative) {
        (Base::Bin, _) => ('b', 1),
        (Base::Oct, _) => ('o', 3),
        (Base::Hex, _) | (Base::Plain | Base::Dec, true) => ('h', 4),
        (Base::Plain | Base::Dec, false) => return format!("{w}'{sign}d{}", l.value),
    };
    let mut digits = pattern_digits(l.value, negative.then_some(lw - 1), w, bits);
    if !negative {
        // Keep at least the digits the user wrote (and all of a short
        // binary number), drop the other leading zeros.
        let keep = if bits == 1 && w <= 32 {
            w as usize
        } else {
            l.digits.max(1)
        };
        while digits.len() > keep && digits.starts_with('0') {
            digits.remove(0);
        }
    }
    format!("{w}'{sign}{bchar}{digits}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs() -> Vec<HdlInput> {
        vec![
            HdlInput::bits("count", 4),
            HdlInput::bits("limit", 4),
            HdlInput::bits("data", 8),
            HdlInput::vector("up", 0, 7),
            HdlInput::vector("hi", 8, 1),
            HdlInput::bits("grant", 4),
            HdlInput::bits("state", 4),
            HdlInput::bits("s", 8).signed(),
            HdlInput::bits("t", 8).signed(),
            HdlInput::bits("n4", 4).signed(),
            HdlInput::scalar("en"),
            HdlInput::scalar("req"),
            HdlInput::bits("a", 4),
            HdlInput::bits("b", 4),
            HdlInput::bits("w64", 64),
        ]
    }

    fn ok(text: &str) -> String {
        match check_expression(text, &inputs()) {
            Ok(c) => c.text,
            Err(e) => panic!("{text}: {e}\n{}", e.caret(text)),
        }
    }

    fn bad(text: &str) -> ExprError {
        match check_expression(text, &inputs()) {
            Ok(c) => panic!("{text} was accepted as {}", c.text),
            Err(e) => e,
        }
    }

    fn msg(text: &str) -> String {
        bad(text).message
    }

    #[test]
    fn brief_examples() {
        assert_eq!(ok("count > 5"), "count > 4'd5");
        assert_eq!(ok("data[3]"), "data[3]");
        assert_eq!(ok("grant[1:0] == 2'b01"), "grant[1:0] == 2'b01");
        assert_eq!(ok("state == 4'd15"), "state == 4'd15");
        assert_eq!(
            msg("count == 5'd20"),
            "width mismatch: `count` is 4 bits, `5'd20` is 5 bits"
        );
        assert_eq!(
            msg("count == 20"),
            "`20` does not fit in `count`, which is 4 bits (0 to 15)"
        );
        assert_eq!(
            msg("count > 15"),
            "`count > 15` is always false: `count` ranges over 0 to 15"
        );
    }

    #[test]
    fn constant_propositions() {
        assert_eq!(msg("2'h3"), "`2'h3` is always true: it is a constant");
        assert_eq!(msg("(0)"), "`(0)` is always false: it is a constant");
        assert_eq!(
            msg("count + 1"),
            "`count + 1` is always true: its value ranges over 1 to 16"
        );
        assert_eq!(
            msg("count & 0"),
            "`count & 0` is always false: its value is 0"
        );
        assert_eq!(msg("!-64"), "`!-64` is always false: its value is 0");
        assert_eq!(msg("~4'd15"), "`~4'd15` is always false: its value is 0");
        assert_eq!(msg("en << 3"), "`en << 3` is always false: its value is 0");
        assert_eq!(
            msg("count >= $unsigned(a >>> 4)"),
            "`count >= $unsigned(a >>> 4)` is always true: `count` ranges over 0 to 15 and `$unsigned(a >>> 4)` is 0"
        );
        assert_eq!(
            msg("en && 1'b0"),
            "`en && 1'b0` is always false: its value is 0"
        );
        assert_eq!(
            msg("1'b1 || en"),
            "`1'b1 || en` is always true: its value is 1"
        );
        assert_eq!(
            msg("data[7:0] >= (data)"),
            "`data[7:0] >= (data)` is always true: both sides are the same"
        );
        assert_eq!(
            msg("((a == a) ? 'h0 : {1{en}}) <= count[3]"),
            "`((a == a) ? 'h0 : {1{en}}) <= count[3]` is always true: `((a == a) ? 'h0 : {1{en}})` is 0 and `count[3]` ranges over 0 to 1"
        );
        assert_eq!(
            msg("(a == a) || en"),
            "`a == a` is always true: both sides are the same"
        );
        assert_eq!(
            msg("-(en - en) <= count[0]"),
            "`-(en - en) <= count[0]` is always true: `-(en - en)` is 0 and `count[0]` ranges over 0 to 1"
        );
        assert_eq!(
            msg("4'd3 == 4'd4"),
            "`4'd3 == 4'd4` is always false: both sides are constants"
        );
        assert_eq!(ok("data[7:4] == data[3:0]"), "data[7:4] == data[3:0]");
        assert_eq!(
            msg("-1 >= (1'd0 >>> count)"),
            "`-1 >= (1'd0 >>> count)` is always true: `(1'd0 >>> count)` is 0"
        );
        assert_eq!(msg("a - b > 'hffffffff - 4'd0"), "`a - b > 'hffffffff - 4'd0` is always false: `a - b` is any 32-bit unsigned number here and `'hffffffff - 4'd0` is 4294967295");
        assert_eq!(
            msg("(data ~^ data) < data"),
            "`(data ~^ data) < data` is always false: `(data ~^ data)` is 255 and `data` ranges over 0 to 255"
        );
        assert_eq!(
            msg("data[1:0] < ((6'h0 <<< a) << 2)"),
            "`data[1:0] < ((6'h0 <<< a) << 2)` is always false: `data[1:0]` ranges over 0 to 3 and `((6'h0 <<< a) << 2)` is 0"
        );
        assert_eq!(
            msg("$unsigned(s) - s <= data"),
            "`$unsigned(s) - s <= data` is always true: `$unsigned(s) - s` is 0 and `data` ranges over 0 to 255"
        );
        assert_eq!(
            msg("data[5 +: 1] < +en << 3"),
            "`data[5 +: 1] < +en << 3` is always false: `data[5 +: 1]` ranges over 0 to 1 and `+en << 3` is 0"
        );
        assert_eq!(
            msg("25 % 5 <= count"),
            "`25 % 5 <= count` is always true: `25 % 5` is 0 and `count` ranges over 0 to 15"
        );
        assert_eq!(
            msg("(3'd6 ~^ 3'd1) % 1 <= count"),
            "`(3'd6 ~^ 3'd1) % 1 <= count` is always true: `(3'd6 ~^ 3'd1) % 1` is 0 and `count` ranges over 0 to 15"
        );
        assert_eq!(
            msg("!-64 <= count"),
            "`!-64 <= count` is always true: `!-64` is 0 and `count` ranges over 0 to 15"
        );
        assert_eq!(
            msg("{2'b00, 2'b00} <= count"),
            "`{2'b00, 2'b00} <= count` is always true: `{2'b00, 2'b00}` is 0 and `count` ranges over 0 to 15"
        );
        assert_eq!(ok("{2'b01, 2'b10} <= count"), "{2'b01, 2'b10} <= count");
        assert_eq!(
            msg("count <= (4'd15 | (1 << en))"),
            "`count <= (4'd15 | (1 << en))` is always true: `count` ranges over 0 to 15 and `(4'd15 | (1 << en))` is 15"
        );
        // Constant operands are allowed.
        assert_eq!(ok("en && 1'b1"), "en && 1'b1");
    }

    #[test]
    fn boolean_contexts() {
        assert_eq!(ok("count"), "count != 4'd0");
        assert_eq!(ok("(count)"), "count != 4'd0");
        assert_eq!(ok("en"), "en");
        assert_eq!(ok("(en)"), "en");
        assert_eq!(ok("!count"), "!(count != 4'd0)");
        assert_eq!(ok("!(count)"), "!(count != 4'd0)");
        assert_eq!(ok("!en"), "!en");
        assert_eq!(ok("en && count"), "en && (count != 4'd0)");
        assert_eq!(ok("count || data[2]"), "(count != 4'd0) || data[2]");
        assert_eq!(ok("count ? en : req"), "(count != 4'd0) ? en : req");
        assert_eq!(ok("en & req"), "en & req");
        // As an `if` condition: the one-bit sum.
        assert_eq!(ok("en + req"), "en + req");
        assert_eq!(ok("~en"), "~en");
        assert_eq!(ok("~count"), "~count != 4'd0");
        assert_eq!(
            ok("en + req + 0"),
            "{1'b0, en} + {1'b0, req} + 2'd0 != 2'd0"
        );
        assert_eq!(ok("s"), "s != 8'sd0");
        // The signed division stays signed.
        assert_eq!(
            ok("$signed(hi[8:7]) / 5"),
            "$signed({{2{hi[8]}}, $signed(hi[8:7])}) / 4'sd5 != 4'sd0"
        );
        assert_eq!(ok("en || (state inside {1})"), "en || (state == 4'd1)");
        assert_eq!(
            ok("en || ((state inside {[1:2]}))"),
            "en || (state >= 4'd1 && state <= 4'd2)"
        );
        assert_eq!(ok("count & grant"), "(count & grant) != 4'd0");
    }

    #[test]
    fn unsized_numbers_take_the_operand_width() {
        assert_eq!(ok("count >= 5"), "count >= 4'd5");
        assert_eq!(ok("5 < count"), "4'd5 < count");
        assert_eq!(ok("data == 'h1f"), "data == 8'h1f");
        assert_eq!(ok("data == 'b101"), "data == 8'b00000101");
        assert_eq!(ok("data == 'o17"), "data == 8'o17");
        assert_eq!(ok("(data & 'h0f) == 3"), "(data & 8'h0f) == 8'd3");
        assert_eq!(ok("data[7:4] != 0"), "data[7:4] != 4'd0");
        assert_eq!(ok("count == 0"), "count == 4'd0");
        assert_eq!(ok("en == 1"), "en == 1'd1");
    }

    #[test]
    fn sized_numbers_are_kept() {
        assert_eq!(ok("data == 8'b0000_1111"), "data == 8'b0000_1111");
        assert_eq!(ok("data == 8 'hFF"), "data == 8'hff");
        assert_eq!(ok("s == 8'sd3"), "s == 8'sd3");
        assert_eq!(ok("count == 4'D15"), "count == 4'd15");
    }

    #[test]
    fn signed_comparisons() {
        assert_eq!(ok("s < -3"), "s < -8'sd3");
        assert_eq!(ok("s > 3"), "s > 8'sd3");
        assert_eq!(ok("s > 8'sd3"), "s > 8'sd3");
        assert_eq!(ok("s < t"), "s < t");
        assert_eq!(ok("-n4 < s"), "-$signed({{4{n4[3]}}, n4}) < s");
        assert_eq!(
            ok("$signed(data[3:0]) + 1 < s"),
            "$signed({{4{data[3]}}, $signed(data[3:0])}) + 8'sd1 < s"
        );
        assert_eq!(
            ok("$signed(count + limit) - 1 < s"),
            "($signed({$signed(count + limit), 4'd0}) >>> 4) - 8'sd1 < s"
        );
        assert_eq!(ok("$signed(data[7:0]) < s"), "$signed(data[7:0]) < s");
        assert_eq!(
            ok("s + 1 > t"),
            "$signed({{1{s[7]}}, s}) + 9'sd1 > $signed({{1{t[7]}}, t})"
        );
        assert_eq!(ok("s == 'hff"), "s == 8'hff");
        assert_eq!(ok("$unsigned(s) > 8'd5"), "$unsigned(s) > 8'd5");
        // 4'sb1000 is -8: sign-extended where the context is wider.
        assert_eq!(ok("s < 4'sb1000 + 1"), "s < 8'sb11111000 + 8'sd1");
        assert_eq!(ok("s < 4'sh8 + 1"), "s < 8'shf8 + 8'sd1");
        let e = msg("s > 8'd5");
        assert!(e.starts_with("`s` is signed but `8'd5` is unsigned"), "{e}");
        assert!(msg("s > 'h5").starts_with("`s` is signed but `'h5` is unsigned"));
        assert!(msg("s < data").starts_with("`s` is signed but `data` is unsigned"));
        assert_eq!(
            msg("s > 200"),
            "`200` does not fit in `s`, which is signed 8 bits (-128 to 127)"
        );
        assert_eq!(
            msg("count == -1"),
            "`-1` does not fit in `count`, which is unsigned 4 bits (0 to 15)"
        );
        // Equality compares bit patterns: no sign question.
        assert_eq!(ok("s == data"), "s == data");
    }

    #[test]
    fn arithmetic_is_widened_not_wrapped() {
        assert_eq!(
            ok("count + 1 == limit"),
            "{1'b0, count} + 5'd1 == {1'b0, limit}"
        );
        assert_eq!(
            ok("count + limit > 20"),
            "{1'b0, count} + {1'b0, limit} > 5'd20"
        );
        assert_eq!(ok("a * b == 200"), "{4'd0, a} * {4'd0, b} == 8'd200");
        assert_eq!(ok("(count << 2) == 12"), "({2'd0, count} << 2) == 6'd12");
        assert_eq!(ok("data >> 4 == 3"), "data >> 4 == 8'd3");
        // Wrap-around: Verilog's 32 bits are kept.
        assert_eq!(ok("a - b > 2"), "{28'd0, a} - {28'd0, b} > 32'd2");
        assert_eq!(ok("a - b == limit"), "a - b == limit");
        assert_eq!(ok("~a == b"), "~a == b");
        // Sized literals keep their width.
        assert_eq!(ok("a + 8'd1 == data"), "{4'd0, a} + 8'd1 == data");
        assert_eq!(
            ok("(en ? count : data) == 3"),
            "(en ? {4'd0, count} : data) == 8'd3"
        );
        assert_eq!(ok("count == (en ? 1 : 2)"), "count == (en ? 4'd1 : 4'd2)");
        assert_eq!(ok("count - 1"), "{28'd0, count} - 32'd1 != 32'd0");
        assert_eq!(ok("a / 4'd2 == b"), "a / 4'd2 == b");
        assert_eq!(ok("a % 3 == 1"), "a % 4'd3 == 4'd1");
        assert_eq!(ok("(count << a) == 3"), "({15'd0, count} << a) == 19'd3");
        // -(-128) wraps in 8 bits, as in Verilog.
        assert_eq!(ok("-s > t"), "-s > t");
        assert_eq!(ok("-s > 3"), "-$signed({{1{s[7]}}, s}) > 9'sd3");
        assert_eq!(ok("(s >>> 1) == -2"), "(s >>> 1) == -8'sd2");
    }

    #[test]
    fn selects() {
        assert_eq!(ok("up[0]"), "up[0]");
        assert_eq!(ok("up[0:3] == 4'b1010"), "up[0:3] == 4'b1010");
        assert_eq!(ok("hi[8:5] == 3"), "hi[8:5] == 4'd3");
        assert_eq!(ok("hi[1]"), "hi[1]");
        assert_eq!(ok("data[2*2 +: 4] == 3"), "data[4 +: 4] == 4'd3");
        assert_eq!(ok("data[7 -: 2] == 3"), "data[7 -: 2] == 2'd3");
        assert_eq!(ok("up[2 +: 2] == 3"), "up[2 +: 2] == 2'd3");
        assert_eq!(ok("data[$clog2(16)]"), "data[4]");
        assert_eq!(
            msg("data[8]"),
            "bit-select `data[8]` is out of range: `data` is declared [7:0]"
        );
        assert_eq!(
            msg("hi[0]"),
            "bit-select `hi[0]` is out of range: `hi` is declared [8:1]"
        );
        assert_eq!(
            msg("data[0:3] == 0"),
            "part-select `data[0:3]` is reversed: `data` is declared [7:0]; write data[3:0]"
        );
        assert_eq!(
            msg("up[3:0] == 0"),
            "part-select `up[3:0]` is reversed: `up` is declared [0:7]; write up[0:3]"
        );
        assert_eq!(
            msg("data[9:4] == 0"),
            "part-select `data[9:4]` is out of range: `data` is declared [7:0]"
        );
        assert_eq!(
            msg("data[6 +: 4] == 0"),
            "indexed part-select `data[6 +: 4]` is out of range: `data` is declared [7:0]"
        );
        assert_eq!(
            msg("data[2 -: 4] == 0"),
            "indexed part-select `data[2 -: 4]` is out of range: `data` is declared [7:0]"
        );
        assert_eq!(
            msg("data[1 +: 0]"),
            "the width of an indexed part-select must be at least 1, not 0"
        );
        assert_eq!(
            msg("en[0]"),
            "`en` is a scalar (one bit) and cannot be indexed"
        );
        assert_eq!(
            msg("data[count]"),
            "a bit-select index must be a constant: `count` is a signal"
        );
        assert_eq!(msg("data[1][0]"), "only one select per signal is supported");
        // A select is unsigned, even of a signed signal.
        assert_eq!(ok("s[3:0] > 4'd2"), "s[3:0] > 4'd2");
    }

    #[test]
    fn names() {
        assert_eq!(
            msg("cuont > 5"),
            "unknown signal `cuont`; did you mean `count`? (declared: count, limit, data, up, hi, grant, state, s, t, n4, en, req, and 3 more)"
        );
        assert_eq!(
            check_expression("x", &[]).unwrap_err().message,
            "unknown signal `x`: no signals are declared"
        );
        let e = msg("zzzzzz");
        assert!(!e.contains("did you mean"), "{e}");
        assert_eq!(ok("\\count  > 5"), "count > 4'd5");
        let odd = [HdlInput::bits("a+b", 2), HdlInput::scalar("reg")];
        let c = check_expression("\\a+b  == 2'd1 && \\reg ", &odd).unwrap();
        assert_eq!(c.text, "\\a+b  == 2'd1 && \\reg ");
        assert_eq!(c.reads, ["a+b", "reg"]);
        assert!(msg("reg").starts_with("`reg` is a Verilog keyword"));
    }

    #[test]
    fn reads_in_declaration_order() {
        let c = check_expression("limit > count || en && count[0]", &inputs()).unwrap();
        assert_eq!(c.reads, ["count", "limit", "en"]);
    }

    #[test]
    fn width_mismatches() {
        assert_eq!(
            msg("count & data"),
            "width mismatch: `count` is 4 bits, `data` is 8 bits"
        );
        assert_eq!(
            msg("en == 2'b01"),
            "width mismatch: `en` is 1 bit, `2'b01` is 2 bits"
        );
        assert_eq!(
            msg("{count, en} == data"),
            "width mismatch: `{count, en}` is 5 bits, `data` is 8 bits"
        );
        assert_eq!(ok("{count, limit} == data"), "{count, limit} == data");
        assert_eq!(ok("{2{count}} == data"), "{2{count}} == data");
        assert_eq!(ok("{count, 4'd0} == data"), "{count, 4'd0} == data");
        assert_eq!(
            msg("(count | 'h1f) != 0"),
            "`'h1f` does not fit in `count`, which is 4 bits (0 to 15)"
        );
        // Arithmetic widens without complaint.
        assert_eq!(
            ok("count + data == 9'd260"),
            "{5'd0, count} + {1'b0, data} == 9'd260"
        );
    }

    #[test]
    fn always_true_or_false() {
        assert_eq!(
            msg("count >= 0"),
            "`count >= 0` is always true: `count` ranges over 0 to 15"
        );
        assert_eq!(
            msg("count <= 15"),
            "`count <= 15` is always true: `count` ranges over 0 to 15"
        );
        assert_eq!(
            msg("count + 1 > 16"),
            "`count + 1 > 16` is always false: `count + 1` ranges over 1 to 16"
        );
        assert_eq!(
            msg("(data & 4) == 5"),
            "`(data & 4) == 5` is always false: `(data & 4)` ranges over 0 to 4"
        );
        assert_eq!(
            msg("4'd3 == 4'd3"),
            "`4'd3 == 4'd3` is always true: both sides are the same"
        );
        assert_eq!(
            msg("s < -128"),
            "`s < -128` is always false: `s` ranges over -128 to 127"
        );
        // Wrapping arithmetic: any 32-bit value, against the extreme one.
        assert_eq!(
            msg("a - b <= 'hffffffff"),
            "`a - b <= 'hffffffff` is always true: `a - b` is any 32-bit unsigned number here"
        );
    }

    #[test]
    fn inside() {
        assert_eq!(ok("state inside {1, 2}"), "state == 4'd1 || state == 4'd2");
        assert_eq!(ok("state inside {[0:3]}"), "state <= 4'd3");
        assert_eq!(ok("state inside {[3:15]}"), "state >= 4'd3");
        assert_eq!(ok("en || state inside {[3:15]}"), "en || (state >= 4'd3)");
        assert_eq!(ok("!(state inside {4'd3})"), "!(state == 4'd3)");
        assert_eq!(
            ok("en && state inside {1, [4:6]}"),
            "en && (state == 4'd1 || (state >= 4'd4 && state <= 4'd6))"
        );
        assert_eq!(
            msg("state inside {1, 20}"),
            "`20` does not fit in `state`, which is 4 bits (0 to 15)"
        );
        assert_eq!(
            msg("state inside {[6:4]}"),
            "empty range: 6 is greater than 4"
        );
        assert_eq!(
            msg("state inside {[0:15]}"),
            "`state inside {[0:15]}` is always true: `[0:15]` holds every value of `state`"
        );
        assert_eq!(
            msg("state inside {[1:$]}"),
            "`$` in an `inside` range is not supported"
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(
            msg("count == 4'd20"),
            "`4'd20` does not fit in 4 bits (at most 15)"
        );
        assert_eq!(
            msg("count == 2'b101"),
            "`2'b101` does not fit in 2 bits (at most 3)"
        );
        assert!(msg("s == 8'sd200")
            .starts_with("`8'sd200` does not fit in 8 signed bits (-128 to 127)"));
        assert_eq!(
            msg("count == 4'bx01"),
            "`4'bx01`: x and z digits are not supported (checker inputs are 0 or 1)"
        );
        assert_eq!(msg("count == 4'b2"), "`4'b2`: `2` is not a digit of base 2");
        assert_eq!(msg("count == 0'd1"), "a number's size must be at least 1");
        assert_eq!(msg("count == 'h"), "`'h` has no digits");
        assert_eq!(
            msg("w64 == 5000000000"),
            "`5000000000` does not fit in a 32-bit integer; give it a size (e.g. 34'd5000000000)"
        );
        assert_eq!(
            msg("w64 == 'h1ffffffff"),
            "unsized number `'h1ffffffff` is wider than 32 bits; give it a size"
        );
        assert_eq!(
            msg("count == 1.5"),
            "real number `1.5`: only integers are supported"
        );
        assert_eq!(
            ok("w64 == 64'hffff_ffff_ffff_ffff"),
            "w64 == 64'hffff_ffff_ffff_ffff"
        );
        assert_eq!(ok("w64 > 5"), "w64 > 64'd5");
    }

    #[test]
    fn concatenations() {
        assert_eq!(
            msg("{count, 1} == 5'd3"),
            "unsized number `1` in a concatenation item; give it a size (e.g. 4'd1)"
        );
        assert_eq!(
            msg("{count + 1, en} == 6'd3"),
            "`count + 1` is 32 bits wide in a concatenation item because of the unsized number in it; give the number a size"
        );
        assert_eq!(msg("&(count + 1)"), "`(count + 1)` is 32 bits wide in a reduction operand because of the unsized number in it; give the number a size");
        assert_eq!(
            ok("{count + 4'd1, en} == 5'd3"),
            "{count + 4'd1, en} == 5'd3"
        );
        assert_eq!(
            msg("{0{en}} == 1'b0"),
            "the replication count must be at least 1, not 0"
        );
        assert_eq!(msg("{}"), "empty concatenation");
        assert_eq!(ok("&count"), "&count");
        assert_eq!(ok("~&{en, req}"), "~&{en, req}");
        assert_eq!(ok("^data[3:0] ^ en"), "^data[3:0] ^ en");
        assert_eq!(ok("~(&count)"), "~(&count)");
        assert_eq!(ok("- -s > 0"), "-(-$signed({{1{s[7]}}, s})) > 9'sd0");
    }

    #[test]
    fn isunknown_of_signals() {
        // SVA's `$isunknown` (IEEE 1800-2017 §20.9) of a declared signal
        // or select: one bit, kept as written.
        assert_eq!(ok("$isunknown(count)"), "$isunknown(count)");
        assert_eq!(ok("!$isunknown(data[3:0])"), "!$isunknown(data[3:0])");
        assert_eq!(ok("$isunknown(en) || req"), "$isunknown(en) || req");
        assert_eq!(
            msg("$isunknown(count + 1)"),
            "`$isunknown` reads a signal or a select here (`$isunknown(v)`, `$isunknown(v[3:0])`)"
        );
        assert_eq!(
            msg("$isunknown(count, en)"),
            "`$isunknown` takes one argument"
        );
        assert!(msg("$isunknown(nosuch)").contains("nosuch"));
        assert!(msg("$isunknown(data[9])").contains("9"));
    }

    #[test]
    fn operators_left_out() {
        assert_eq!(
            msg("count ** 2 == 4"),
            "`**` is not supported in a proposition (write the power out as a constant)"
        );
        assert_eq!(msg("count ==? 4'b1x00"), "`==?` is not supported");
        assert_eq!(msg("en -> req"), "`->` is not supported");
        assert_eq!(msg("count / 0 == 1"), "division by zero");
        assert_eq!(
            msg("count = 1"),
            "unexpected `=` after the end of the expression"
        );
        assert_eq!(
            msg("$clog2(count)"),
            "`$clog2` is only supported in constant select indices"
        );
        assert_eq!(
            msg("$bits(count)"),
            "system function `$bits` is not supported"
        );
        assert_eq!(msg("$signed(count, en)"), "`$signed` takes one argument");
        assert_eq!(
            ok("count === 4'd3 || count !== limit"),
            "count === 4'd3 || count !== limit"
        );
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        let e = bad("count > ");
        assert_eq!(e.message, "expected an operand at the end");
        assert_eq!(e.column, 8);
        let e = bad("(count > 5");
        assert_eq!(e.message, "expected `)` at the end");
        let e = bad("count >> > 5");
        assert_eq!(
            (e.message.as_str(), e.column),
            ("expected an operand, found `>`", 9)
        );
        let e = bad("count == 5'd20");
        assert_eq!((e.column, e.length), (9, 5));
        assert_eq!(e.caret("count == 5'd20"), "count == 5'd20\n         ^^^^^");
        assert_eq!(
            e.to_string(),
            "column 10: width mismatch: `count` is 4 bits, `5'd20` is 5 bits"
        );
        assert_eq!(
            bad("count @ 3").message,
            "unexpected `@` after the end of the expression"
        );
        assert_eq!(bad("").message, "expected an operand at the end");
        let deep = format!("{}en{}", "(".repeat(500), ")".repeat(500));
        assert_eq!(bad(&deep).message, "expression nested too deeply");
        let deep = format!("{}en", "!".repeat(500));
        assert_eq!(bad(&deep).message, "expression nested too deeply");
    }

    #[test]
    fn precedence() {
        assert_eq!(ok("en || req && count[0]"), "en || req && count[0]");
        assert_eq!(ok("(en || req) && count[0]"), "(en || req) && count[0]");
        assert_eq!(
            ok("count + limit * 2 == 4"),
            "{2'd0, count} + {2'd0, limit} * 6'd2 == 6'd4"
        );
        assert_eq!(
            ok("a & b | count == limit"),
            "(a & b | {3'd0, count == limit}) != 4'd0"
        );
    }

    #[test]
    fn input_specs() {
        assert_eq!(
            parse_input_spec("count:4").unwrap(),
            HdlInput::bits("count", 4)
        );
        assert_eq!(
            parse_input_spec(" count : 4 ").unwrap(),
            HdlInput::bits("count", 4)
        );
        assert_eq!(parse_input_spec("en:1").unwrap(), HdlInput::scalar("en"));
        assert_eq!(parse_input_spec("en").unwrap(), HdlInput::scalar("en"));
        assert_eq!(
            parse_input_spec("x:[0:0]").unwrap(),
            HdlInput::vector("x", 0, 0)
        );
        assert_eq!(
            parse_input_spec("x:[8:1]").unwrap(),
            HdlInput::vector("x", 8, 1)
        );
        assert_eq!(
            parse_input_spec("x:[-2:5]").unwrap(),
            HdlInput::vector("x", -2, 5)
        );
        assert_eq!(
            parse_input_spec("x:s1").unwrap(),
            HdlInput::vector("x", 0, 0).signed()
        );
        assert_eq!(
            parse_input_spec("x:signed 8").unwrap(),
            HdlInput::bits("x", 8).signed()
        );
        assert_eq!(
            parse_input_spec("x:signed[8:1]").unwrap(),
            HdlInput::vector("x", 8, 1).signed()
        );
        assert_eq!(
            parse_input_spec("x:s[7:0]").unwrap(),
            HdlInput::bits("x", 8).signed()
        );
        for bad in [
            "",
            ":4",
            "4x:4",
            "reg:4",
            "x:0",
            "x:-3",
            "x:[7]",
            "x:[7:0",
            "x:abc",
            "x:[a:0]",
            "x:99999999999",
            "x:100000",
        ] {
            assert!(parse_input_spec(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_input_spec("reg:4").unwrap_err(),
            "`reg` is a Verilog keyword and cannot name an input"
        );
    }

    #[test]
    fn literal_resizing() {
        let lit = |t: &str| match parse_one(t).kind {
            Kind::Num(l) => l,
            k => panic!("{k:?}"),
        };
        assert_eq!(literal(&lit("5"), 4, false), "4'd5");
        assert_eq!(literal(&lit("5"), 4, true), "4'sd5");
        assert_eq!(literal(&lit("'h1f"), 12, false), "12'h1f");
        assert_eq!(literal(&lit("4'sb1000"), 8, true), "8'sb11111000");
        assert_eq!(literal(&lit("4'sb1000"), 8, false), "8'b00001000");
        assert_eq!(literal(&lit("4'sh8"), 10, true), "10'sh3f8");
        assert_eq!(literal(&lit("4'so17"), 7, true), "7'so177");
        assert_eq!(literal(&lit("4'so7"), 7, true), "7'so7");
        assert_eq!(literal(&lit("4'sb1000"), 200, true).len(), 6 + 200);
        assert_eq!(literal(&lit("'b1"), 40, false), "40'b1");
    }

    fn parse_one(t: &str) -> Node {
        let toks = lex(t);
        Parser::new(&toks, t.len()).expr().unwrap()
    }

    #[test]
    fn constants() {
        let eval = |t: &str| {
            const_eval(&parse_one(t), &mut |n| {
                if n == "W" {
                    Ok(8)
                } else {
                    Err(format!("no {n}"))
                }
            })
        };
        assert_eq!(eval("W-1").unwrap(), 7);
        assert_eq!(eval("2*W-1").unwrap(), 15);
        assert_eq!(eval("$clog2(W)").unwrap(), 3);
        assert_eq!(eval("$clog2(9)").unwrap(), 4);
        assert_eq!(eval("$clog2(1)").unwrap(), 0);
        assert_eq!(eval("2**W").unwrap(), 256);
        assert_eq!(eval("W > 4 ? 1 << 4 : 0").unwrap(), 16);
        assert_eq!(eval("-4'sd3").unwrap(), 3 - 6);
        assert_eq!(eval("4'sb1111").unwrap(), -1);
        assert_eq!(eval("X").unwrap_err().message, "no X");
        assert_eq!(eval("W / 0").unwrap_err().message, "division by zero");
        assert_eq!(eval("2 ** 200").unwrap_err().message, "constant too large");
        assert_eq!(eval("1 << 200").unwrap_err().message, "constant too large");
        assert_eq!(
            eval("W[0]").unwrap_err().message,
            "`W[...]` is not a constant"
        );
    }

    #[test]
    fn never_panics_on_garbage() {
        use monitor_core::formula::random::SplitMix64;
        let alphabet: Vec<&str> = vec![
            "count", "data", "s", "en", "up", "hi", "5", "'h", "4'd", "4'sb1", "8'", "[", "]", ":",
            "+:", "-:", "(", ")", "{", "}", ",", "?", "+", "-", "*", "/", "%", "<<", ">>>", "<",
            "==", "!=", "===", "&", "|", "^", "~", "!", "&&", "||", "inside", "$signed", "$clog2",
            " ", "\\", "\"", "é", "0", "1", "'", "$", "=",
        ];
        let mut rng = SplitMix64::new(7);
        for _ in 0..20000 {
            let n = rng.below(12) as usize;
            let text: String = (0..n)
                .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                .collect();
            let _ = check_expression(&text, &inputs());
        }
    }
}
