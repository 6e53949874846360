//! The PSL lexer: words, numbers, Verilog literals, symbols (longest
//! first), strings in vunits.

use crate::formula::atom::{literal_len, Literal, LiteralError};
use crate::formula::cursor::{EndToken, Span, Spanned};
use crate::formula::parse::{make_error, ParseError, ParseErrorKind};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::formula) enum T {
    /// An identifier or a keyword, with a trailing `!` or `!_` for the
    /// keywords that have strong forms.
    Word(String),
    Num(u64),
    /// A Verilog based literal (`1'b1`, `4'd15`), checked.
    Literal(Literal),
    Sym(&'static str),
    /// A string in double quotes, unescaped (vunits only: `report "..."`).
    Str(String),
    /// A character that starts no token (vunits only: the error waits
    /// for the parser, so that `wire x = a + b;` is reported at `wire`).
    Bad(char),
    End,
}

pub(in crate::formula) type Token = Spanned<T>;

impl EndToken for T {
    fn is_end(&self) -> bool {
        *self == T::End
    }
}

/// The message for SVA's `##`, which PSL spells with `next` or `;`.
pub(super) const SVA_DELAY: &str = "SVA delay `##` is not supported in PSL: read the property \
    as SVA (`--sva`, `parse_sva`), or write `next`/SEREs (`a ##1 b` is `{a; b}`)";

/// Symbols, longest first.
const SYMBOLS: &[&str] = &[
    "|->", "|=>", "<->", "[->", "[+]", "->", "[*", "[=", "&&", "||", "==", "!=", "<=", ">=", "..",
    "{", "}", "(", ")", "[", "]", ";", ":", "|", "&", "!", "~", "<", ">", "=", ",", "^", "@", "$",
];

/// Keywords that take a `!` (strong) form.
const BANG_WORDS: &[&str] = &[
    "X",
    "next",
    "next_a",
    "next_e",
    "next_event",
    "next_event_a",
    "next_event_e",
    "eventually",
    "until",
    "before",
    "within",
];

/// The tokens of `input`, ending with [`T::End`]. With `vunit`, strings
/// are tokens and unknown characters wait for the parser ([`T::Bad`]).
pub(in crate::formula) fn lex(input: &str, vunit: bool) -> Result<Vec<Token>, ParseError> {
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = input[i..].chars().next().expect("in bounds");
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        if input[i..].starts_with("##") {
            let span = Span {
                start: i,
                end: i + 2,
            };
            if !vunit {
                return Err(make_error(
                    input,
                    span,
                    ParseErrorKind::Unsupported(SVA_DELAY.into()),
                ));
            }
            out.push(Token {
                kind: T::Sym("##"),
                span,
            });
            i += 2;
            continue;
        }
        if vunit && c == '"' {
            let start = i;
            let mut text = String::new();
            let mut chars = input[i + 1..].char_indices();
            let end = loop {
                match chars.next() {
                    None => {
                        return Err(make_error(
                            input,
                            Span {
                                start,
                                end: start + 1,
                            },
                            ParseErrorKind::UnclosedString,
                        ));
                    }
                    Some((k, '"')) => break i + 1 + k + 1,
                    Some((_, '\\')) => match chars.next() {
                        Some((_, 'n')) => text.push('\n'),
                        Some((_, 't')) => text.push('\t'),
                        Some((_, e)) => text.push(e),
                        None => continue,
                    },
                    Some((_, ch)) => text.push(ch),
                }
            };
            out.push(Token {
                kind: T::Str(text),
                span: Span { start, end },
            });
            i = end;
            continue;
        }
        if input[i..].starts_with("//") || input[i..].starts_with("--") {
            i = input[i..].find('\n').map_or(input.len(), |k| i + k);
            continue;
        }
        if input[i..].starts_with("/*") {
            match input[i + 2..].find("*/") {
                Some(k) => i = i + 2 + k + 2,
                None => {
                    return Err(make_error(
                        input,
                        Span {
                            start: i,
                            end: i + 2,
                        },
                        ParseErrorKind::UnclosedComment,
                    ));
                }
            }
            continue;
        }
        let start = i;
        // Verilog based literals: 1'b0, 1'b1, 4'd15, 2'b01, 'h_ff.
        let n = literal_len(&input[i..]);
        if n > 0 {
            let text = &input[i..i + n];
            let lit = Literal::parse(text).map_err(|e| {
                make_error(
                    input,
                    Span { start, end: i + n },
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
        if input[i + digits..].starts_with('\'') {
            return Err(make_error(
                input,
                Span {
                    start,
                    end: i + digits + 1,
                },
                ParseErrorKind::Unsupported(LiteralError::Malformed.to_string()),
            ));
        }
        if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let n = input[start..i].parse::<u64>().map_err(|_| {
                make_error(
                    input,
                    Span { start, end: i },
                    ParseErrorKind::Bound("number too large (at most 2^64 - 1)".into()),
                )
            })?;
            out.push(Token {
                kind: T::Num(n),
                span: Span { start, end: i },
            });
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || matches!(bytes[i], b'_' | b'$' | b'.'))
            {
                i += 1;
            }
            let mut word = input[start..i].to_string();
            if BANG_WORDS.contains(&word.as_str()) && input[i..].starts_with('!') {
                word.push('!');
                i += 1;
                if matches!(&word[..], "until!" | "before!" | "within!")
                    && input[i..].starts_with('_')
                {
                    word.push('_');
                    i += 1;
                }
            }
            out.push(Token {
                kind: T::Word(word),
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
            None if vunit => {
                i += c.len_utf8();
                out.push(Token {
                    kind: T::Bad(c),
                    span: Span { start, end: i },
                });
            }
            None => {
                return Err(make_error(
                    input,
                    Span {
                        start,
                        end: start + c.len_utf8(),
                    },
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
