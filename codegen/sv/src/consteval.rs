//! Constant expressions of generate constructs (IEEE 1800-2017 §11.2.1):
//! the integers that unroll a generate loop and choose the branch of a
//! generate `if` or `case`, from the module's parameters and the genvars.
//!
//! Values are integers (checked arithmetic on 128 bits, the result within
//! 64): what does not fit, divides by zero, or reads an unknown name or an
//! unknown bit (x, z) is an error, never a guess.

/// How deep parentheses and operators may nest (the evaluator recurses).
const MAX_DEPTH: usize = 200;

/// The value of `text`, the names read through `lookup`.
pub(crate) fn eval(
    text: &str,
    lookup: &dyn Fn(&str) -> Result<i64, String>,
) -> Result<i64, String> {
    let tokens = tokenize(text)?;
    let mut p = Parser {
        tokens,
        at: 0,
        lookup,
        depth: 0,
    };
    let v = p.ternary()?;
    if p.at != p.tokens.len() {
        return Err(format!("unexpected `{}`", p.tokens[p.at].text()));
    }
    i64::try_from(v).map_err(|_| "the value does not fit in 64 bits".to_string())
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Number(i128),
    Name(String),
    Op(&'static str),
    /// `type'(`: a cast to a type named (`unsigned`, `int`, ...).
    Cast(String),
    /// `8'(`: a cast to a size.
    SizeCast(u32),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Number(n) => n.to_string(),
            Token::Name(n) => n.clone(),
            Token::Op(o) => (*o).to_string(),
            Token::Cast(t) => format!("{t}'"),
            Token::SizeCast(n) => format!("{n}'"),
        }
    }
}

/// Longest first, so that `<=` is not read as `<`.
const OPS: [&str; 30] = [
    "<<<", ">>>", "===", "!==", "**", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "~^", "^~",
    "+", "-", "*", "/", "%", "<", ">", "!", "~", "&", "|", "^", "?", ":", "(",
];

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if c == b')' || c == b',' {
            out.push(Token::Op(if c == b')' { ")" } else { "," }));
            i += 1;
            continue;
        }
        if c.is_ascii_digit() || c == b'\'' {
            let start = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
                i += 1;
            }
            let size = &text[start..i];
            // A based literal: [size]'[s]base digits.
            let mut j = i;
            while j < b.len() && b[j].is_ascii_whitespace() {
                j += 1;
            }
            if j < b.len() && b[j] == b'\'' {
                j += 1;
                if j < b.len() && b[j] == b'(' && !size.is_empty() && j == i + 1 {
                    let bits = size
                        .replace('_', "")
                        .parse()
                        .map_err(|_| format!("the size of the cast `{size}'`"))?;
                    out.push(Token::SizeCast(bits));
                    i = j;
                    continue;
                }
                if j < b.len() && (b[j] == b's' || b[j] == b'S') {
                    j += 1;
                }
                let radix = match b.get(j).map(u8::to_ascii_lowercase) {
                    Some(b'd') => 10,
                    Some(b'h') => 16,
                    Some(b'b') => 2,
                    Some(b'o') => 8,
                    _ => {
                        return Err(format!(
                            "the literal `{}` (an unsized fill `'0`, `'1` or a digit x, z is \
                             not a constant integer here)",
                            &text[start..(j + 1).min(text.len())]
                        ))
                    }
                };
                j += 1;
                while j < b.len() && b[j].is_ascii_whitespace() {
                    j += 1;
                }
                let digits_start = j;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_' || b[j] == b'?')
                {
                    j += 1;
                }
                let digits: String = text[digits_start..j]
                    .chars()
                    .filter(|&c| c != '_')
                    .collect();
                let value = i128::from_str_radix(&digits, radix).map_err(|_| {
                    format!(
                        "the literal `{}`: not a known integer (x, z or ? digits are not \
                         constants)",
                        &text[start..j]
                    )
                })?;
                if !size.is_empty() {
                    let bits: u32 = size
                        .replace('_', "")
                        .parse()
                        .map_err(|_| format!("the size of `{}`", &text[start..j]))?;
                    if bits < 127 && value >> bits != 0 {
                        return Err(format!(
                            "the literal `{}` does not fit in its size",
                            &text[start..j]
                        ));
                    }
                }
                out.push(Token::Number(value));
                i = j;
                continue;
            }
            let digits: String = size.chars().filter(|&c| c != '_').collect();
            let value = digits
                .parse::<i128>()
                .map_err(|_| format!("the number `{size}` is too large"))?;
            out.push(Token::Number(value));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
            let start = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let name = text[start..i].to_string();
            if text[i..].starts_with("'(") {
                out.push(Token::Cast(name));
                i += 1;
            } else {
                out.push(Token::Name(name));
            }
            continue;
        }
        match OPS.iter().find(|o| text[i..].starts_with(**o)) {
            Some(o) => {
                out.push(Token::Op(o));
                i += o.len();
            }
            None => {
                let ch = text[i..].chars().next().unwrap_or('?');
                return Err(format!("`{ch}` is not an operator of constant integers"));
            }
        }
    }
    Ok(out)
}

struct Parser<'l> {
    tokens: Vec<Token>,
    at: usize,
    lookup: &'l dyn Fn(&str) -> Result<i64, String>,
    depth: usize,
}

/// Binary operators by precedence, loosest first (§11.3.2).
const LEVELS: [&[&str]; 10] = [
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

fn overflow() -> String {
    "the value does not fit in 64 bits".into()
}

impl Parser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.tokens.get(self.at) {
            Some(Token::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.peek_op() == Some(op) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected `{op}`"))
        }
    }

    fn ternary(&mut self) -> Result<i128, String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(format!("nested more than {MAX_DEPTH} levels deep"));
        }
        let c = self.binary(0)?;
        let v = if self.peek_op() == Some("?") {
            self.at += 1;
            let a = self.ternary()?;
            self.expect(":")?;
            let b = self.ternary()?;
            if c != 0 {
                a
            } else {
                b
            }
        } else {
            c
        };
        self.depth -= 1;
        Ok(v)
    }

    fn binary(&mut self, level: usize) -> Result<i128, String> {
        if level == LEVELS.len() {
            return self.power();
        }
        let mut v = self.binary(level + 1)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[level].contains(o)) {
            self.at += 1;
            let r = self.binary(level + 1)?;
            v = apply(op, v, r)?;
        }
        Ok(v)
    }

    fn power(&mut self) -> Result<i128, String> {
        let base = self.unary()?;
        if self.peek_op() == Some("**") {
            self.at += 1;
            let exp = self.power()?;
            let exp = u32::try_from(exp).map_err(|_| "a negative or huge exponent".to_string())?;
            return base.checked_pow(exp).ok_or_else(overflow);
        }
        Ok(base)
    }

    fn unary(&mut self) -> Result<i128, String> {
        match self.peek_op() {
            Some(op @ ("+" | "-" | "!" | "~")) => {
                self.at += 1;
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return Err(format!("nested more than {MAX_DEPTH} levels deep"));
                }
                let v = self.unary()?;
                self.depth -= 1;
                match op {
                    "+" => Ok(v),
                    "-" => v.checked_neg().ok_or_else(overflow),
                    "!" => Ok(i128::from(v == 0)),
                    _ => Ok(!v),
                }
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<i128, String> {
        let Some(t) = self.tokens.get(self.at).cloned() else {
            return Err("the expression ends early".into());
        };
        self.at += 1;
        match t {
            Token::Number(n) => Ok(n),
            Token::Op("(") => {
                let v = self.ternary()?;
                self.expect(")")?;
                Ok(v)
            }
            Token::Name(n) if n == "$clog2" => {
                self.expect("(")?;
                let v = self.ternary()?;
                self.expect(")")?;
                if v < 0 {
                    return Err("$clog2 of a negative number".into());
                }
                // The bits to address v values: ceil(log2(v)), 0 for 0 and 1.
                let mut bits = 0;
                while (1i128 << bits) < v {
                    bits += 1;
                }
                Ok(bits)
            }
            Token::Name(n) if n.starts_with('$') => Err(format!(
                "the system function `{n}` (only $clog2 is evaluated)"
            )),
            Token::Name(n) => {
                if self.peek_op() == Some("(") {
                    return Err(format!("the function call `{n}(...)`"));
                }
                (self.lookup)(&n).map(i128::from)
            }
            Token::Op(o) => Err(format!("unexpected `{o}`")),
            Token::Cast(t) => {
                let v = self.primary()?;
                cast(&t, v)
            }
            Token::SizeCast(bits) => {
                let v = self.primary()?;
                // Without the operand's width and signedness, only a value
                // that both a signed and an unsigned reading keep is known.
                if (1..=127).contains(&bits) && v >= 0 && v >> (bits - 1) == 0 {
                    Ok(v)
                } else {
                    Err(format!(
                        "the cast `{bits}'({v})`: its value depends on the width and signedness \
                         of the operand"
                    ))
                }
            }
        }
    }
}

/// `ty'(v)` (§6.24.1): the value `v` as the integer type `ty`.
fn cast(ty: &str, v: i128) -> Result<i128, String> {
    // The low bits of v, read as a signed integer.
    let truncate = |bits: u32| {
        let shift = 128 - bits;
        (v << shift) >> shift
    };
    match ty {
        "int" | "integer" => Ok(truncate(32)),
        "shortint" => Ok(truncate(16)),
        "longint" => Ok(truncate(64)),
        "byte" => Ok(truncate(8)),
        // A value that is not negative stays itself; a negative one
        // becomes a large number of the operand's width, not known here.
        "unsigned" if v >= 0 => Ok(v),
        "signed" if v < 0 => Ok(v),
        "unsigned" | "signed" => Err(format!(
            "the cast `{ty}'({v})`: its value depends on the width of the operand"
        )),
        _ => Err(format!("the cast to the type `{ty}`")),
    }
}

fn apply(op: &str, a: i128, b: i128) -> Result<i128, String> {
    let bool_ = |x: bool| Ok(i128::from(x));
    match op {
        "||" => bool_(a != 0 || b != 0),
        "&&" => bool_(a != 0 && b != 0),
        "|" => Ok(a | b),
        "^" => Ok(a ^ b),
        "~^" | "^~" => Ok(!(a ^ b)),
        "&" => Ok(a & b),
        "==" | "===" => bool_(a == b),
        "!=" | "!==" => bool_(a != b),
        "<" => bool_(a < b),
        "<=" => bool_(a <= b),
        ">" => bool_(a > b),
        ">=" => bool_(a >= b),
        "<<" | "<<<" => {
            let s = u32::try_from(b)
                .ok()
                .filter(|&s| s < 64)
                .ok_or_else(overflow)?;
            let v = a.checked_shl(s).ok_or_else(overflow)?;
            if v >> s != a {
                return Err(overflow());
            }
            Ok(v)
        }
        ">>" | ">>>" => {
            let s = u32::try_from(b).map_err(|_| "a negative shift".to_string())?;
            Ok(if s >= 127 { -i128::from(a < 0) } else { a >> s })
        }
        "+" => a.checked_add(b).ok_or_else(overflow),
        "-" => a.checked_sub(b).ok_or_else(overflow),
        "*" => a.checked_mul(b).ok_or_else(overflow),
        "/" | "%" => {
            if b == 0 {
                return Err("a division by zero".into());
            }
            if op == "/" {
                a.checked_div(b).ok_or_else(overflow)
            } else {
                a.checked_rem(b).ok_or_else(overflow)
            }
        }
        _ => Err(format!("the operator `{op}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(text: &str) -> Result<i64, String> {
        eval(text, &|n| match n {
            "N" => Ok(4),
            "W" => Ok(8),
            _ => Err(format!("no parameter `{n}`")),
        })
    }

    #[test]
    fn integers_as_the_standard_computes_them() {
        assert_eq!(ev("N - 1"), Ok(3));
        assert_eq!(ev("2 + 3 * 4"), Ok(14));
        assert_eq!(ev("(2 + 3) * 4"), Ok(20));
        assert_eq!(ev("2 ** 3 ** 2"), Ok(512));
        assert_eq!(ev("-7 / 2"), Ok(-3));
        assert_eq!(ev("-7 % 2"), Ok(-1));
        assert_eq!(ev("N > 2 && W == 8"), Ok(1));
        assert_eq!(ev("N < 2 ? 10 : W"), Ok(8));
        assert_eq!(ev("1 << N"), Ok(16));
        assert_eq!(
            ev("4'd3 + 8'hff + 2'b10 + 'd1 + 3'o7 + 32'sd5"),
            Ok(3 + 255 + 2 + 1 + 7 + 5)
        );
        assert_eq!(ev("$clog2(W)"), Ok(3));
        assert_eq!(ev("$clog2(5)"), Ok(3));
        assert_eq!(ev("$clog2(1)"), Ok(0));
        assert_eq!(ev("1_000"), Ok(1000));
        assert_eq!(ev("!N"), Ok(0));
        assert_eq!(ev("~0"), Ok(-1));
        assert_eq!(ev("unsigned'(1)"), Ok(1));
        assert_eq!(ev("N == unsigned'(4)"), Ok(1));
        assert_eq!(ev("unsigned'($clog2(W))"), Ok(3));
        assert_eq!(ev("int'(N) - 5"), Ok(-1));
        assert_eq!(ev("int'(64'h1_0000_0003)"), Ok(3));
        assert_eq!(ev("int'(32'hffff_ffff)"), Ok(-1));
        assert_eq!(ev("byte'(255)"), Ok(-1));
        assert_eq!(ev("shortint'(65537)"), Ok(1));
        assert_eq!(ev("longint'(-2)"), Ok(-2));
        assert_eq!(ev("signed'(-3)"), Ok(-3));
        assert_eq!(ev("8'(N + 1)"), Ok(5));
        assert_eq!(ev("unsigned'(N) * 2"), Ok(8));
    }

    #[test]
    fn what_is_not_a_known_integer_is_an_error() {
        for bad in [
            "M + 1",
            "4'bx1",
            "'1",
            "1 / 0",
            "$bits(x)",
            "f(1)",
            "2 ** 200",
            "1 +",
            "(1",
            "a.b",
            "9223372036854775807 + 1",
            // Casts whose value depends on the operand's width or a type.
            "unsigned'(-1)",
            "signed'(1)",
            "4'(8)",
            "4'(-1)",
            "idx_t'(1)",
            "logic'(1)",
            "unsigned' (1)",
        ] {
            assert!(ev(bad).is_err(), "{bad}: {:?}", ev(bad));
        }
        let deep = format!("{}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(ev(&deep).is_err());
        let unary = format!("{}1", "-".repeat(5000));
        assert!(ev(&unary).is_err());
    }
}
