//! The SVA lexer: identifiers (hierarchical names with `.`), system
//! function names (`$past`), numbers, Verilog literals, strings (of
//! action blocks, skipped by the parser) and symbols, longest first.
//! It produces the tokens of the PSL lexer ([`T`]), so that the two
//! front ends share the token cursor.

use crate::formula::atom::{literal_len, Literal, LiteralError};
use crate::formula::cursor::Span;
use crate::formula::parse::{make_error, ParseError, ParseErrorKind};
use crate::formula::psl::{Token, T};

/// Symbols, longest first.
const SYMBOLS: &[&str] = &[
    "===", "!==", "<<<", ">>>", "|->", "|=>", "#-#", "#=#", "[->", "<->", "##", "[*", "[=", "[+]",
    "&&", "||", "==", "!=", "<=", ">=", "->", "~^", "^~", "~&", "~|", "<<", ">>", "**", "{", "}",
    "(", ")", "[", "]", ";", ":", "|", "&", "!", "~", "^", "<", ">", "=", ",", "@", "$", "?", "+",
    "-", "*", "/", "%", "'", "#", ".",
];

/// The tokens of `input`, ending with [`T::End`].
pub(super) fn lex(input: &str) -> Result<Vec<Token>, ParseError> {
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |start: usize, end: usize, kind: ParseErrorKind| {
        make_error(input, Span { start, end }, kind)
    };
    while i < bytes.len() {
        let c = input[i..].chars().next().expect("in bounds");
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        if input[i..].starts_with("//") {
            i = input[i..].find('\n').map_or(input.len(), |k| i + k);
            continue;
        }
        if input[i..].starts_with("/*") {
            match input[i + 2..].find("*/") {
                Some(k) => i = i + 2 + k + 2,
                None => return Err(err(i, i + 2, ParseErrorKind::UnclosedComment)),
            }
            continue;
        }
        if c == '"' {
            // A string of an action block (`else $error("...")`).
            let mut chars = input[i + 1..].char_indices();
            let end = loop {
                match chars.next() {
                    None => return Err(err(start, start + 1, ParseErrorKind::UnclosedString)),
                    Some((k, '"')) => break i + 1 + k + 1,
                    Some((_, '\\')) => {
                        chars.next();
                    }
                    Some(_) => {}
                }
            };
            out.push(Token {
                kind: T::Str(input[start + 1..end - 1].to_string()),
                span: Span { start, end },
            });
            i = end;
            continue;
        }
        // Verilog based literals: 1'b0, 1'b1, 4'd15, 2'b01, 'h_ff.
        let n = literal_len(&input[i..]);
        if n > 0 {
            let text = &input[i..i + n];
            let lit = Literal::parse(text).map_err(|e| {
                err(
                    start,
                    i + n,
                    ParseErrorKind::Unsupported(format!("literal `{text}`: {e}")),
                )
            })?;
            i += n;
            out.push(Token {
                kind: T::Literal(lit),
                span: Span { start, end: i },
            });
            continue;
        }
        let digits = input[i..].len()
            - input[i..]
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        // `8'(x)` is a size cast (lowRISC's `N'(1)` after its
        // parameter's value): the number, then `'` and `(`, which vector
        // expressions read.
        if digits > 0
            && input[i + digits..].starts_with('\'')
            && !input[i + digits + 1..].starts_with('(')
        {
            return Err(err(
                start,
                i + digits + 1,
                ParseErrorKind::Unsupported(LiteralError::Malformed.to_string()),
            ));
        }
        if c.is_ascii_digit() {
            i += digits;
            let n = input[start..i].parse::<u64>().map_err(|_| {
                err(
                    start,
                    i,
                    ParseErrorKind::Bound("number too large (at most 2^64 - 1)".into()),
                )
            })?;
            out.push(Token {
                kind: T::Num(n),
                span: Span { start, end: i },
            });
            continue;
        }
        let word_start = c.is_ascii_alphabetic()
            || c == '_'
            || (c == '$'
                && input[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(|d| d.is_ascii_alphabetic() || d == '_'));
        if word_start {
            i += 1;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'$'))
            {
                i += 1;
            }
            // Hierarchical names (`top.u_arb.req`) and methods
            // (`s.triggered`, refused by the parser) are one word.
            while i + 1 < bytes.len()
                && bytes[i] == b'.'
                && (bytes[i + 1].is_ascii_alphabetic() || bytes[i + 1] == b'_')
                && c != '$'
            {
                i += 1;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'$'))
                {
                    i += 1;
                }
            }
            out.push(Token {
                kind: T::Word(input[start..i].to_string()),
                span: Span { start, end: i },
            });
            continue;
        }
        match SYMBOLS.iter().find(|s| input[i..].starts_with(**s)) {
            Some(s) => {
                i += s.len();
                out.push(Token {
                    kind: T::Sym(s),
                    span: Span { start, end: i },
                });
            }
            None => {
                return Err(err(
                    start,
                    start + c.len_utf8(),
                    ParseErrorKind::UnknownCharacter(c),
                ));
            }
        }
    }
    out.push(Token {
        kind: T::End,
        span: Span {
            start: input.len(),
            end: input.len(),
        },
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &str) -> Vec<T> {
        lex(s).unwrap().into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn tokens() {
        assert_eq!(
            kinds("a ##[1:$] $rose(top.b) |-> c[->2]"),
            vec![
                T::Word("a".into()),
                T::Sym("##"),
                T::Sym("["),
                T::Num(1),
                T::Sym(":"),
                T::Sym("$"),
                T::Sym("]"),
                T::Word("$rose".into()),
                T::Sym("("),
                T::Word("top.b".into()),
                T::Sym(")"),
                T::Sym("|->"),
                T::Word("c".into()),
                T::Sym("[->"),
                T::Num(2),
                T::Sym("]"),
                T::End
            ]
        );
        assert_eq!(kinds("a#-#b")[1], T::Sym("#-#"));
        assert_eq!(kinds("x === 1'b1")[1], T::Sym("==="));
        assert_eq!(kinds("// c\n/* d */ a")[0], T::Word("a".into()));
        assert!(lex("a /* b").is_err());
        assert!(lex("a é").is_err());
        assert!(lex("\"never closed").is_err());
    }
}
