//! Propositions that are expressions over signals, and how each target
//! language writes them.
//!
//! A proposition is a name. Some names are expressions of the system under
//! watch: the PSL parser names a comparison by its text (`state == 2`,
//! `data[3] != 1'b0`, `grant[1:0] == 2'b01`), and an LTL proposition in
//! quotes is any text (`"x > 3"`). [`Atom::parse`] reads the names that are
//! a signal (with a bit- or part-select) or a comparison of two operands;
//! [`Atom::render`] writes them in the syntax of a target, so that `==`
//! becomes `=` in NuSMV and a Verilog literal stays one in Verilog but
//! becomes a number in Promela. [`expression`] does both and keeps any
//! other name as it is (the user wrote it in the target's syntax).
//!
//! ```
//! use monitor_core::formula::atom::{expression, Syntax};
//!
//! assert_eq!(expression("state == 2", Syntax::Smv)?, "state = 2");
//! assert_eq!(expression("data[3] != 1'b0", Syntax::Smv)?, "data[3] != FALSE");
//! assert_eq!(expression("count >= 4'd12", Syntax::Smv)?, "count >= 0ud4_12");
//! assert_eq!(expression("grant[1:0] == 2'b01", Syntax::Verilog)?, "grant[1:0] == 2'b01");
//! assert_eq!(expression("grant[1:0] == 2'b01", Syntax::Promela)?, "((grant >> 0) & 3) == 1");
//! assert_eq!(expression("grant[1:0] == 2'b01", Syntax::Cpp)?, "grant.range(1, 0) == 1");
//! assert_eq!(expression("x = 3", Syntax::Promela)?, "x == 3");
//! // Not an atom: kept as written.
//! assert_eq!(expression("x + 1 > y", Syntax::Smv)?, "x + 1 > y");
//! // Beyond the target's integers: an error, not a wrapped value.
//! assert!(expression("n < 4294967296", Syntax::Promela).is_err());
//! # Ok::<(), monitor_core::formula::atom::AtomError>(())
//! ```

use std::fmt;

/// A target language's syntax for expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Syntax {
    /// NuSMV 2.5: `=`, `TRUE`/`FALSE`, word constants `0ud4_15`, 32-bit
    /// integers.
    Smv,
    /// Verilog and SystemVerilog: literals and selects as written.
    Verilog,
    /// Promela: `==`, 32-bit integers, part-selects as shifts and masks.
    Promela,
    /// C++ with SystemC's types: `==`, 64-bit integers, `x.range(hi, lo)`.
    Cpp,
}

/// Why an atom cannot be written in a target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtomError(String);

impl fmt::Display for AtomError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for AtomError {}

/// A Verilog based literal: `4'd15`, `2'b01`, `8'shff`, `'d7`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Literal {
    /// The width (`None` for an unsized literal such as `'d7`).
    pub width: Option<u32>,
    /// Whether it is signed (`4'sd3`).
    pub signed: bool,
    /// Its value.
    pub value: u64,
    /// The text as written.
    pub text: String,
}

/// Why a literal cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiteralError {
    /// Not of the form `[width]'[s]<base><digits>`.
    Malformed,
    /// `x`, `z` or `?` digits: a monitor reads two-valued signals.
    Unknown,
    /// A digit the base does not have.
    Digit(char),
    /// The value needs more bits than the width (or than 64).
    TooWide,
}

impl fmt::Display for LiteralError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiteralError::Malformed => {
                f.write_str("a based literal is [width]'[s]<b|o|d|h><digits>, such as 4'd15")
            }
            LiteralError::Unknown => f.write_str(
                "x, z and ? digits cannot be compared: a monitor reads two-valued signals",
            ),
            LiteralError::Digit(c) => write!(f, "`{c}` is not a digit of this base"),
            LiteralError::TooWide => {
                f.write_str("the value does not fit in the width (at most 64 bits)")
            }
        }
    }
}

impl std::error::Error for LiteralError {}

/// The length of the based literal at the start of `s` (digits, `'`,
/// base, digits and `_`), or 0 if `s` does not start with one. Used by
/// lexers to cut the token before [`Literal::parse`] checks it.
///
/// ```
/// # use monitor_core::formula::atom::literal_len;
/// assert_eq!(literal_len("4'd15 == x"), 5);
/// assert_eq!(literal_len("'hff)"), 4);
/// assert_eq!(literal_len("15"), 0); // no `'`: not a based literal
/// ```
pub fn literal_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if b.get(i) != Some(&b'\'') {
        return 0;
    }
    i += 1;
    if matches!(b.get(i), Some(b's' | b'S')) {
        i += 1;
    }
    if !matches!(
        b.get(i),
        Some(b'b' | b'B' | b'o' | b'O' | b'd' | b'D' | b'h' | b'H')
    ) {
        return 0;
    }
    i += 1;
    // Verilog: the digits start with a digit (not `_`).
    if !b
        .get(i)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'?')
    {
        return 0;
    }
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'?') {
        i += 1;
    }
    i
}

impl Literal {
    /// Reads a based literal.
    ///
    /// ```
    /// use monitor_core::formula::atom::{Literal, LiteralError};
    ///
    /// let l = Literal::parse("4'b0101")?;
    /// assert_eq!((l.width, l.value), (Some(4), 5));
    /// assert_eq!(Literal::parse("8'hFF")?.value, 255);
    /// assert_eq!(Literal::parse("4'd16"), Err(LiteralError::TooWide));
    /// assert_eq!(Literal::parse("1'bx"), Err(LiteralError::Unknown));
    /// # Ok::<(), LiteralError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Literal, LiteralError> {
        if literal_len(text) != text.len() {
            return Err(LiteralError::Malformed);
        }
        let (width, rest) = text.split_once('\'').ok_or(LiteralError::Malformed)?;
        let width = if width.is_empty() {
            None
        } else {
            match width.parse::<u32>() {
                Ok(w) if w > 0 => Some(w),
                _ => return Err(LiteralError::TooWide),
            }
        };
        let (signed, rest) = match rest.strip_prefix(['s', 'S']) {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let mut chars = rest.chars();
        let radix = match chars.next().map(|c| c.to_ascii_lowercase()) {
            Some('b') => 2,
            Some('o') => 8,
            Some('d') => 10,
            Some('h') => 16,
            _ => return Err(LiteralError::Malformed),
        };
        let mut value: u64 = 0;
        for c in chars {
            match c {
                '_' => continue,
                'x' | 'X' | 'z' | 'Z' | '?' => return Err(LiteralError::Unknown),
                c => {
                    let d = c.to_digit(radix).ok_or(LiteralError::Digit(c))?;
                    value = value
                        .checked_mul(u64::from(radix))
                        .and_then(|v| v.checked_add(u64::from(d)))
                        .ok_or(LiteralError::TooWide)?;
                }
            }
        }
        if let Some(w) = width {
            if w > 64 || (w < 64 && value >> w != 0) {
                return Err(LiteralError::TooWide);
            }
        }
        Ok(Literal {
            width,
            signed,
            value,
            text: text.to_string(),
        })
    }
}

/// A bit- or part-select.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Select {
    /// `[i]`
    Bit(u32),
    /// `[msb:lsb]`
    Part(u32, u32),
}

/// A signal, with an optional select: `req`, `u1.state`, `data[3]`,
/// `grant[1:0]`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Signal {
    /// The name (`[A-Za-z_][A-Za-z0-9_$.]*`).
    pub name: String,
    /// The select, if any.
    pub select: Option<Select>,
}

/// An operand of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    /// A signal (or a symbolic constant such as `idle`).
    Signal(Signal),
    /// A decimal number.
    Number(u64),
    /// A Verilog based literal.
    Literal(Literal),
    /// `TRUE`/`FALSE` (also `true`, `false`), as NuSMV writes them.
    Bool(bool),
}

/// A comparison operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `==` (or `=`)
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `===`, case equality (IEEE 1800-2017 §11.4.5): `x` and `z` bits
    /// compare as themselves and the result is never unknown. Over
    /// two-valued signals it is `==`.
    CaseEq,
    /// `!==`, case inequality: the negation of `===`.
    CaseNe,
}

impl Comparison {
    /// The operator in a target's syntax.
    ///
    /// ```
    /// # use monitor_core::formula::atom::{Comparison, Syntax};
    /// assert_eq!(Comparison::Eq.symbol(Syntax::Smv), "=");
    /// assert_eq!(Comparison::Eq.symbol(Syntax::Promela), "==");
    /// assert_eq!(Comparison::Le.symbol(Syntax::Smv), "<=");
    /// // Verilog keeps case equality, whose value on x and z bits differs;
    /// // the other targets' values are two-valued, where it is `==`.
    /// assert_eq!(Comparison::CaseNe.symbol(Syntax::Verilog), "!==");
    /// assert_eq!(Comparison::CaseEq.symbol(Syntax::Smv), "=");
    /// assert_eq!(Comparison::CaseEq.symbol(Syntax::Cpp), "==");
    /// ```
    pub fn symbol(self, syntax: Syntax) -> &'static str {
        match self {
            Comparison::CaseEq if syntax == Syntax::Verilog => "===",
            Comparison::CaseNe if syntax == Syntax::Verilog => "!==",
            Comparison::Eq | Comparison::CaseEq if syntax == Syntax::Smv => "=",
            Comparison::Eq | Comparison::CaseEq => "==",
            Comparison::Ne | Comparison::CaseNe => "!=",
            Comparison::Lt => "<",
            Comparison::Le => "<=",
            Comparison::Gt => ">",
            Comparison::Ge => ">=",
        }
    }
}

/// A proposition read as an expression over signals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A signal: its value as a Boolean.
    Signal(Signal),
    /// A comparison.
    Compare(Operand, Comparison, Operand),
    /// `$isunknown(x)` (IEEE 1800-2017 §20.9): whether the signal has an
    /// `x` or `z` bit. False in the two-valued targets (NuSMV, Promela);
    /// refused in C++, whose types may or may not have such values.
    Unknown(Signal),
}

/// A cursor over the text of a name.
struct Cursor<'a> {
    s: &'a str,
    i: usize,
}

impl Cursor<'_> {
    fn skip_space(&mut self) {
        let rest = &self.s[self.i..];
        self.i += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, t: &str) -> bool {
        self.skip_space();
        if self.s[self.i..].starts_with(t) {
            self.i += t.len();
            true
        } else {
            false
        }
    }

    fn number(&mut self) -> Option<u64> {
        self.skip_space();
        let rest = &self.s[self.i..];
        let n = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if n == 0 || rest[n..].starts_with('\'') {
            return None;
        }
        let v = rest[..n].parse().ok()?;
        self.i += n;
        Some(v)
    }

    fn signal(&mut self) -> Option<Signal> {
        self.skip_space();
        let rest = &self.s[self.i..];
        let mut chars = rest.char_indices();
        match chars.next() {
            Some((_, c)) if c.is_ascii_alphabetic() || c == '_' => {}
            _ => return None,
        }
        let n = chars
            .find(|&(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.')))
            .map_or(rest.len(), |(k, _)| k);
        let name = rest[..n].to_string();
        self.i += n;
        let save = self.i;
        let select = if self.eat("[") {
            let hi = self.number().and_then(|n| u32::try_from(n).ok());
            let sel = match hi {
                Some(hi) if self.eat("]") => Some(Select::Bit(hi)),
                Some(hi) if self.eat(":") => {
                    match self.number().and_then(|n| u32::try_from(n).ok()) {
                        // The most significant bit first, as PSL reads them.
                        Some(lo) if lo <= hi && self.eat("]") => Some(Select::Part(hi, lo)),
                        _ => None,
                    }
                }
                _ => None,
            };
            if sel.is_none() {
                self.i = save;
                return None;
            }
            sel
        } else {
            None
        };
        Some(Signal { name, select })
    }

    fn operand(&mut self) -> Option<Operand> {
        self.skip_space();
        let rest = &self.s[self.i..];
        let n = literal_len(rest);
        if n > 0 {
            let l = Literal::parse(&rest[..n]).ok()?;
            self.i += n;
            return Some(Operand::Literal(l));
        }
        if let Some(v) = self.number() {
            return Some(Operand::Number(v));
        }
        let s = self.signal()?;
        if s.select.is_none() {
            match s.name.as_str() {
                "TRUE" | "true" => return Some(Operand::Bool(true)),
                "FALSE" | "false" => return Some(Operand::Bool(false)),
                _ => {}
            }
        }
        Some(Operand::Signal(s))
    }

    fn comparison(&mut self) -> Option<Comparison> {
        // Longest first.
        for (t, c) in [
            ("===", Comparison::CaseEq),
            ("!==", Comparison::CaseNe),
            ("==", Comparison::Eq),
            ("!=", Comparison::Ne),
            ("<=", Comparison::Le),
            (">=", Comparison::Ge),
            ("<", Comparison::Lt),
            (">", Comparison::Gt),
            ("=", Comparison::Eq),
        ] {
            if self.eat(t) {
                return Some(c);
            }
        }
        None
    }

    fn at_end(&mut self) -> bool {
        self.skip_space();
        self.i == self.s.len()
    }
}

impl Atom {
    /// Reads a proposition's name as a signal or a comparison; `None` for
    /// any other text.
    ///
    /// ```
    /// use monitor_core::formula::atom::{Atom, Comparison, Operand, Select, Signal};
    ///
    /// let a = Atom::parse("data[3] != 1'b0").unwrap();
    /// let Atom::Compare(Operand::Signal(s), Comparison::Ne, Operand::Literal(l)) = a else {
    ///     panic!()
    /// };
    /// assert_eq!((s.name.as_str(), s.select, l.value), ("data", Some(Select::Bit(3)), 0));
    /// assert_eq!(
    ///     Atom::parse("u1.state"),
    ///     Some(Atom::Signal(Signal { name: "u1.state".into(), select: None }))
    /// );
    /// assert_eq!(Atom::parse("x + 1 > y"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Atom> {
        if let Some(inner) = name
            .trim()
            .strip_prefix("$isunknown(")
            .and_then(|r| r.strip_suffix(')'))
        {
            let mut c = Cursor { s: inner, i: 0 };
            let s = c.signal()?;
            return c.at_end().then_some(Atom::Unknown(s));
        }
        let mut c = Cursor { s: name, i: 0 };
        let lhs = c.operand()?;
        if c.at_end() {
            return match lhs {
                Operand::Signal(s) => Some(Atom::Signal(s)),
                _ => None,
            };
        }
        let op = c.comparison()?;
        let rhs = c.operand()?;
        c.at_end().then_some(Atom::Compare(lhs, op, rhs))
    }

    /// Writes the atom in a target's syntax, or says why the target
    /// cannot express it (a number beyond its integers, a select beyond
    /// its words).
    ///
    /// ```
    /// # use monitor_core::formula::atom::{Atom, Syntax};
    /// let a = Atom::parse("grant[1:0] == 2'b01").unwrap();
    /// assert_eq!(a.render(Syntax::Smv)?, "grant[1:0] = 0ud2_1");
    /// assert_eq!(a.render(Syntax::Cpp)?, "grant.range(1, 0) == 1");
    /// let wide = Atom::parse("data[40:33] != 0").unwrap();
    /// assert!(wide.render(Syntax::Promela).is_err()); // Promela's integers have 32 bits
    /// # Ok::<(), monitor_core::formula::atom::AtomError>(())
    /// ```
    pub fn render(&self, syntax: Syntax) -> Result<String, AtomError> {
        match self {
            Atom::Signal(s) => signal(s, syntax),
            Atom::Unknown(s) => match syntax {
                Syntax::Verilog => Ok(format!("$isunknown({})", signal(s, syntax)?)),
                Syntax::Smv => Ok("FALSE".into()),
                Syntax::Promela => Ok("false".into()),
                Syntax::Cpp => Err(AtomError(format!(
                    "`$isunknown({})` reads x and z bits, which C++ integers do not have and \
                     SystemC's logic vectors do: compute it in the design (`v.is_01()`)",
                    s.name
                ))),
            },
            Atom::Compare(a, op, b) => {
                // A part-select is a word in NuSMV, even of one bit.
                let word = |o: &Operand| {
                    matches!(
                        o,
                        Operand::Signal(Signal {
                            select: Some(Select::Part(..)),
                            ..
                        })
                    )
                };
                Ok(format!(
                    "{} {} {}",
                    operand(a, syntax, word(b))?,
                    op.symbol(syntax),
                    operand(b, syntax, word(a))?
                ))
            }
        }
    }
}

/// The largest integer of a target (`None`: no limit to check).
fn int_max(syntax: Syntax) -> Option<i128> {
    match syntax {
        Syntax::Smv | Syntax::Promela => Some(i128::from(i32::MAX)),
        Syntax::Cpp => Some(i128::from(u64::MAX)),
        Syntax::Verilog => None,
    }
}

fn target_name(syntax: Syntax) -> &'static str {
    match syntax {
        Syntax::Smv => "NuSMV",
        Syntax::Verilog => "Verilog",
        Syntax::Promela => "Promela",
        Syntax::Cpp => "C++",
    }
}

fn signal(s: &Signal, syntax: Syntax) -> Result<String, AtomError> {
    Ok(match (s.select, syntax) {
        (None, _) => s.name.clone(),
        (Some(Select::Bit(i)), _) => format!("{}[{i}]", s.name),
        (Some(Select::Part(hi, lo)), Syntax::Smv | Syntax::Verilog) => {
            format!("{}[{hi}:{lo}]", s.name)
        }
        (Some(Select::Part(hi, lo)), Syntax::Cpp) => format!("{}.range({hi}, {lo})", s.name),
        (Some(Select::Part(hi, lo)), Syntax::Promela) => {
            if hi >= 32 {
                return Err(AtomError(format!(
                    "bit {hi} of `{}`: Promela's integers have 32 bits",
                    s.name
                )));
            }
            let width = u64::from(hi - lo) + 1;
            let mask = (1u64 << width) - 1;
            format!("(({} >> {lo}) & {mask})", s.name)
        }
    })
}

/// An operand; `word`: compared with a NuSMV word (a part-select).
fn operand(o: &Operand, syntax: Syntax, word: bool) -> Result<String, AtomError> {
    let check = |v: i128, text: &str| match int_max(syntax) {
        Some(max) if v > max || v < -max - 1 => Err(AtomError(format!(
            "`{text}` is beyond {}'s integers{}",
            target_name(syntax),
            if syntax == Syntax::Smv {
                " (32 bits; a sized literal such as 40'd5000000000 is a word constant)"
            } else {
                ""
            }
        ))),
        _ => Ok(v.to_string()),
    };
    Ok(match o {
        Operand::Signal(s) => signal(s, syntax)?,
        Operand::Bool(b) => match syntax {
            Syntax::Smv => if *b { "TRUE" } else { "FALSE" }.into(),
            Syntax::Verilog => if *b { "1'b1" } else { "1'b0" }.into(),
            Syntax::Promela | Syntax::Cpp => if *b { "1" } else { "0" }.into(),
        },
        Operand::Number(n) => check(i128::from(*n), &n.to_string())?,
        Operand::Literal(l) => {
            // A signed literal's value in two's complement of its width.
            let value = match l.width {
                Some(w) if l.signed && (l.value >> (w - 1)) & 1 == 1 => {
                    i128::from(l.value) - (1i128 << w)
                }
                _ => i128::from(l.value),
            };
            match (syntax, l.width) {
                (Syntax::Verilog, _) => l.text.clone(),
                // A one-bit signal of an SMV model is a Boolean.
                (Syntax::Smv, Some(1)) if !word && !l.signed => {
                    if l.value == 1 { "TRUE" } else { "FALSE" }.into()
                }
                // A sized literal is a word constant; unsized, an integer.
                (Syntax::Smv, Some(w)) if l.signed => {
                    let sign = if value < 0 { "-" } else { "" };
                    format!("{sign}0sd{w}_{}", value.unsigned_abs())
                }
                (Syntax::Smv, Some(w)) => format!("0ud{w}_{}", l.value),
                (Syntax::Smv, None) | (Syntax::Promela | Syntax::Cpp, _) => check(value, &l.text)?,
            }
        }
    })
}

/// A proposition's expression in a target's syntax: the atom rendered
/// ([`Atom::render`]) when the name is one, the name as written otherwise.
///
/// ```
/// # use monitor_core::formula::atom::{expression, Syntax};
/// assert_eq!(expression("state == 2", Syntax::Smv)?, "state = 2");
/// assert_eq!(expression("x + 1 > y", Syntax::Smv)?, "x + 1 > y"); // not an atom: as written
/// # Ok::<(), monitor_core::formula::atom::AtomError>(())
/// ```
pub fn expression(name: &str, syntax: Syntax) -> Result<String, AtomError> {
    match Atom::parse(name) {
        Some(a) => a.render(syntax),
        None => Ok(name.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert_eq!(Literal::parse("4'd15").unwrap().value, 15);
        assert_eq!(Literal::parse("16'hff_ff").unwrap().value, 0xffff);
        assert_eq!(Literal::parse("'o17").unwrap().width, None);
        assert!(Literal::parse("4'sd7").unwrap().signed);
        assert_eq!(
            Literal::parse("64'hffff_ffff_ffff_ffff").unwrap().value,
            u64::MAX
        );
        assert_eq!(Literal::parse("65'd1"), Err(LiteralError::TooWide));
        assert_eq!(Literal::parse("0'd0"), Err(LiteralError::TooWide));
        assert_eq!(Literal::parse("2'b12"), Err(LiteralError::Digit('2')));
        assert_eq!(Literal::parse("4'hz"), Err(LiteralError::Unknown));
        assert_eq!(Literal::parse("4'q1"), Err(LiteralError::Malformed));
        assert_eq!(literal_len("4'b01 == x"), 5);
        assert_eq!(literal_len("4 == x"), 0);
        assert_eq!(literal_len("4'"), 0);
    }

    #[test]
    fn atoms_in_each_syntax() {
        // name, then SMV, Verilog, Promela, C++ ("": an error).
        let cases = [
            ["req", "req", "req", "req", "req"],
            [
                "state == 2",
                "state = 2",
                "state == 2",
                "state == 2",
                "state == 2",
            ],
            ["x = 3", "x = 3", "x == 3", "x == 3", "x == 3"],
            [
                "$isunknown(d[3:0])",
                "FALSE",
                "$isunknown(d[3:0])",
                "false",
                "",
            ],
            // Case equality: itself in Verilog, `==` in two-valued models.
            ["x === 3", "x = 3", "x === 3", "x == 3", "x == 3"],
            [
                "rst_ni !== 1'b1",
                "rst_ni != TRUE",
                "rst_ni !== 1'b1",
                "rst_ni != 1",
                "rst_ni != 1",
            ],
            ["x\t==  3", "x = 3", "x == 3", "x == 3", "x == 3"],
            [
                "s != idle",
                "s != idle",
                "s != idle",
                "s != idle",
                "s != idle",
            ],
            ["x = TRUE", "x = TRUE", "x == 1'b1", "x == 1", "x == 1"],
            ["data[3]", "data[3]", "data[3]", "data[3]", "data[3]"],
            [
                "data[3] != 1'b0",
                "data[3] != FALSE",
                "data[3] != 1'b0",
                "data[3] != 0",
                "data[3] != 0",
            ],
            [
                "count >= 4'd12",
                "count >= 0ud4_12",
                "count >= 4'd12",
                "count >= 12",
                "count >= 12",
            ],
            ["v < 4'sd3", "v < 0sd4_3", "v < 4'sd3", "v < 3", "v < 3"],
            // Signed literals in two's complement.
            [
                "v != 4'shf",
                "v != -0sd4_1",
                "v != 4'shf",
                "v != -1",
                "v != -1",
            ],
            ["v > 4'sd8", "v > -0sd4_8", "v > 4'sd8", "v > -8", "v > -8"],
            ["v > 4'sd9", "v > -0sd4_7", "v > 4'sd9", "v > -7", "v > -7"],
            ["x == 'd5", "x = 5", "x == 'd5", "x == 5", "x == 5"],
            [
                "grant[1:0] == 2'b01",
                "grant[1:0] = 0ud2_1",
                "grant[1:0] == 2'b01",
                "((grant >> 0) & 3) == 1",
                "grant.range(1, 0) == 1",
            ],
            [
                "w[1:1] == 1'b0",
                "w[1:1] = 0ud1_0",
                "w[1:1] == 1'b0",
                "((w >> 1) & 1) == 0",
                "w.range(1, 1) == 0",
            ],
            [
                "a.b$c <= y[2]",
                "a.b$c <= y[2]",
                "a.b$c <= y[2]",
                "a.b$c <= y[2]",
                "a.b$c <= y[2]",
            ],
            [
                "n < 40'd5000000000",
                "n < 0ud40_5000000000",
                "n < 40'd5000000000",
                "",
                "n < 5000000000",
            ],
            ["n < 2147483648", "", "n < 2147483648", "", "n < 2147483648"],
            [
                "x[31:0] != 0",
                "x[31:0] != 0",
                "x[31:0] != 0",
                "((x >> 0) & 4294967295) != 0",
                "x.range(31, 0) != 0",
            ],
            [
                "x[32:1] != 0",
                "x[32:1] != 0",
                "x[32:1] != 0",
                "",
                "x.range(32, 1) != 0",
            ],
        ];
        for [name, smv, verilog, promela, cpp] in cases {
            for (syntax, want) in [
                (Syntax::Smv, smv),
                (Syntax::Verilog, verilog),
                (Syntax::Promela, promela),
                (Syntax::Cpp, cpp),
            ] {
                let got = expression(name, syntax);
                if want.is_empty() {
                    assert!(got.is_err(), "{name} in {syntax:?}: {got:?}");
                } else {
                    assert_eq!(got.as_deref(), Ok(want), "{name} in {syntax:?}");
                }
            }
        }
        // Anything else is the user's expression, kept as written.
        for other in [
            "x + 1 > y",
            "a-b",
            "f(x)",
            "3",
            "x == ",
            "x[1:]",
            "g[0:3] == 1",
            "4'd15",
            "x >= 4'dz",
            "x == 4'b_",
            "x ==== 1",
            "x !=== 1",
            "$isunknown(a + b)",
            "$isunknown(a",
        ] {
            assert_eq!(Atom::parse(other), None, "{other}");
            assert_eq!(expression(other, Syntax::Smv).as_deref(), Ok(other));
        }
    }
}
