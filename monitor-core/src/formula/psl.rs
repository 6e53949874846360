//! A parser for PSL (IEEE 1850), the Foundation Language with SEREs, in
//! the Verilog flavour and in NuSMV's syntax.
//!
//! PSL is translated into the formulas of this crate: LTL operators for
//! the temporal layer and SERE operators ([`Op::Concat`](super::Op::Concat), [`Op::Star`](super::Op::Star),
//! ...) with the closures and suffix operators over them
//! ([`Op::Closure`](super::Op::Closure), [`Op::UConcat`](super::Op::UConcat), [`Op::EConcat`](super::Op::EConcat)). The sugar of
//! IEEE 1850 (appendix B) is expanded here, so the translator only sees
//! the core operators.
//!
//! # Language
//!
//! | PSL | meaning |
//! |---|---|
//! | `!` `~` `&&` `&` `\|\|` `\|` `^` `xor` `->` `<->` | Boolean layer (also on formulas) |
//! | `always φ`, `G φ`, `never φ` | `G φ`, `G !φ` |
//! | `eventually! φ`, `F φ` | `F φ` |
//! | `next φ`, `next! φ`, `X φ`, `X! φ`, `next[n] φ`, `next![n] φ` | `X φ`, `Xⁿ φ` (weak and strong agree on infinite words) |
//! | `next_a[i:j] φ`, `next_e[i:j] φ` (and `!`) | `G[i:j] φ`, `F[i:j] φ` |
//! | `next_event(b) φ`, `next_event(b)[n] φ` | `{b[->n]} \|-> φ` (strong `!`: `<>->`) |
//! | `next_event_a(b)[i:j] φ`, `next_event_e(b)[i:j] φ` (and `!`) | over `{b[->i:j]}` |
//! | `φ until ψ`, `until!`, `until_`, `until!_`, `U`, `W` | `φ W ψ`, `φ U ψ`, `φ W (φ & ψ)`, `φ U (φ & ψ)` |
//! | `φ before ψ`, `before!`, `before_`, `before!_` | `!ψ W (φ & !ψ)`, `!ψ U (φ & !ψ)`, `!ψ W φ`, `!ψ U φ` |
//! | `φ abort b`, `async_abort`, `sync_abort` | `φ` holds, or `b` comes before `φ` fails |
//! | `{r}`, `{r}!` | weak and strong sequence |
//! | `{r} \|-> φ`, `{r} \|=> φ` | suffix implication (overlapping, next cycle) |
//! | `r ; s`, `r : s`, `r \| s`, `r && s`, `r & s`, `r within s` | SERE concatenation, fusion, union, length-matching and non-length-matching intersection, `within` |
//! | `r[*]`, `r[+]`, `r[*n]`, `r[*i:j]`, `[*]`, `[+]`, `[*n]` | repetition (`j` may be `inf` or `$`; ranges also as `i..j` and `i to j`) |
//! | `b[=n]`, `b[=i:j]`, `b[->]`, `b[->n]`, `b[->i:j]` | non-consecutive and goto repetition |
//! | `rose(b)`, `fell(b)`, `prev(b)` | `b & !Y b`, `!b & Y b`, `Y b` (past operators; `prev` is false at the first cycle) |
//!
//! Atoms are identifiers (`[A-Za-z_][A-Za-z0-9_$.]*`, with an optional
//! index `sig[3]`), `true`/`false`/`TRUE`/`FALSE`/`1'b1`/`1'b0`/`1`/`0`,
//! and comparisons of an identifier with an identifier or a number
//! (`state == 3`, `count > 5`), which become atomic propositions named by
//! their text. A leading `assert` or `PSLSPEC` and a trailing `;` are
//! skipped, so lines of a vunit can be pasted. `//`, `--` and `/* */`
//! comments are skipped.
//!
//! Precedence, from the loosest: `always`/`never`/`G` (their operand
//! extends as far as possible), `->` `<->` (right), `|->` `|=>` (right),
//! `next*`/`eventually!`/`X`/`F`, `before*`, `until*`/`U`/`W` (right),
//! `abort`, `||` `|`, `^`, `&&` `&`, `!`. This is NuSMV's table; in doubt,
//! use parentheses. Inside braces: `;` `:` (loosest), `|` `||`, `&&` `&`,
//! `within`, repetitions (tightest).
//!
//! `forall`, the Optional Branching Extension (`AG`, `EX`, ...),
//! declarations and `union` are outside the supported subset and are
//! reported as such, with a caret. Clocks (`@(posedge clk)`), resets
//! (`disable iff`, an outermost `abort`), directives (`assume`, `cover`,
//! ...) and verification units are not part of a property:
//! [`parse_psl`] refuses them, and [`parse_directive`] and
//! [`parse_vunits`] (module [`vunit`](super::vunit)) read them and
//! return the clock and the reset beside the formula.
//!
//! # Semantics
//!
//! Formulas are read on infinite words, where the weak, neutral and strong
//! views of IEEE 1850 agree. The weak closure `{r}` holds when every prefix
//! of the word has matched `r` or can still be completed into a match by
//! letters that satisfy every Boolean (the standard's ⊤); `{r}!` needs a
//! match. Only non-empty matches count (`{[*0]} |-> φ` is `true`,
//! `{[*0]}!` is `false`). The informative monitor (`--informative`) uses
//! the strong semantics on finite paths of LHJ10, where `{r}` is read
//! as `{r}!`.
//!
//! ```
//! use monitor_core::formula::psl::parse_psl;
//!
//! let f = parse_psl("always {req; !ack[*0:3]} |=> ack")?;
//! assert_eq!(f.to_spot(), "G({req;!ack[*0..3];1}[]-> ack)");
//! let g = parse_psl("always (a -> next b)")?;
//! assert_eq!(g.to_spot(), "G(a -> Xb)");
//! // NuSMV's spelling of the same properties.
//! assert_eq!(parse_psl("PSLSPEC G (a -> X b);")?, g);
//!
//! let err = parse_psl("always {a; b} |-> c @ clk").unwrap_err();
//! assert_eq!(err.column(), 21);
//! assert!(err.to_string().contains("clocked properties are not supported"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, HashSet};

use super::atom::{literal_len, Literal, LiteralError};
use super::parse::{make_error, ParseError, ParseErrorKind, Span, MAX_BOUND, MAX_DEPTH};
#[cfg(doc)]
use super::vunit::{parse_directive, parse_vunits};
use super::vunit::{Clock, ClockEdge};
use super::Formula;

/// Parses a PSL property (Verilog flavour or NuSMV syntax).
///
/// A clocked property (`@`) is refused, with a message naming
/// [`parse_directive`] and [`parse_vunits`], which read clocks, resets
/// and directives.
pub fn parse_psl(input: &str) -> Result<Formula, ParseError> {
    let tokens = lex(input, false)?;
    let mut p = Parser::new(input, tokens, false);
    // `assert φ;` and `PSLSPEC φ;` as in a vunit or an SMV file.
    if matches!(&p.peek().kind, T::Word(w) if w == "assert" || w == "PSLSPEC") {
        p.next();
    }
    if p.peek().kind == T::End {
        return Err(p.error(p.peek().span, ParseErrorKind::Empty));
    }
    let f = p.formula()?;
    if p.peek().kind == T::Sym(";") {
        p.next();
    }
    let t = p.peek().clone();
    if t.kind != T::End {
        return Err(p.unexpected(&t, "an operator or the end of the property"));
    }
    Ok(f)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum T {
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

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) kind: T,
    pub(super) span: Span,
}

/// The message for SVA's `##`, which PSL spells with `next` or `;`.
const SVA_DELAY: &str =
    "SVA delay `##` is not supported; write `next`/SEREs (`a ##1 b` is `{a; b}`)";

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
pub(super) fn lex(input: &str, vunit: bool) -> Result<Vec<Token>, ParseError> {
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
                        ))
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
                    ))
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
                ))
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

/// A token in a message: in backquotes, on one line (a string of a vunit
/// may span lines).
fn quote(text: &str) -> String {
    match text.split_once(['\n', '\r']) {
        Some((line, _)) => format!("`{line}...`"),
        None => format!("`{text}`"),
    }
}

/// The error of [`parse_psl`] on a clock.
const PARSE_PSL_CLOCK: &str = "clocked properties are not supported here: monitors read one \
    letter per cycle, so sample the signals at the clock edge and leave out `@`, or read the \
    property with `parse_directive` or `parse_vunits`, which return its clock (as `mongen \
    compile --psl` does)";

/// SVA operators, named in the errors of directives.
const SVA_WORDS: &[&str] = &[
    "throughout",
    "intersect",
    "first_match",
    "s_eventually",
    "s_always",
    "nexttime",
    "s_nexttime",
    "s_until",
    "s_until_with",
    "until_with",
    "implies",
    "iff",
    "accept_on",
    "reject_on",
    "sync_accept_on",
    "sync_reject_on",
    "strong",
    "weak",
    "endproperty",
    "endsequence",
];

/// Whether `w` can name a signal (not a keyword nor a constant).
pub(super) fn is_signal(w: &str) -> bool {
    !KEYWORDS.contains(&w) && !matches!(w, "true" | "false" | "TRUE" | "FALSE")
}

/// Words that are operators, not propositions.
const KEYWORDS: &[&str] = &[
    "always",
    "never",
    "eventually!",
    "next",
    "next!",
    "next_a",
    "next_a!",
    "next_e",
    "next_e!",
    "next_event",
    "next_event!",
    "next_event_a",
    "next_event_a!",
    "next_event_e",
    "next_event_e!",
    "until",
    "until!",
    "until_",
    "until!_",
    "before",
    "before!",
    "before_",
    "before!_",
    "abort",
    "async_abort",
    "sync_abort",
    "within",
    "X",
    "X!",
    "F",
    "G",
    "U",
    "W",
    "xor",
    "inf",
    "to",
    "rose",
    "fell",
    "prev",
    "union",
    "forall",
    "forany",
    "AG",
    "AF",
    "AX",
    "EG",
    "EF",
    "EX",
    "A",
    "E",
    "assert",
    "assume",
    "cover",
    "restrict",
    "property",
    "sequence",
    "endpoint",
    "vunit",
    "default",
    "stable",
    "ended",
    "isunknown",
    "countones",
    "onehot",
    "onehot0",
    "within!",
    "within!_",
    "within_",
    "whilenot",
    "whilenot!",
    "whilenot_",
    "whilenot!_",
];

/// A parsed operand: a formula, or a braced SERE not yet used (it becomes
/// a weak or strong sequence, or the left side of `|->`).
///
/// Directives ([`Parser::clocks`] on) also keep two facts about the
/// outermost operator, which [`vunit`](super::vunit) reads and every other
/// operator forgets through [`Item::into_formula`]: a clock that covers the
/// whole operand, and an `abort`.
pub(super) enum Item {
    Formula(Formula),
    Sequence {
        sere: Formula,
        strong: bool,
        span: Span,
    },
    /// An operand read entirely under the clock number `clock` of
    /// [`Parser::clocks`]: `φ @(posedge clk)`, or Boolean connectives and
    /// `always` over such operands (see [`lift`]).
    Clocked {
        inner: Box<Item>,
        clock: usize,
    },
    /// `body abort cond` (`sync_abort` when `synchronous`), `span` the
    /// keyword.
    Aborted {
        body: Box<Item>,
        cond: Formula,
        synchronous: bool,
        span: Span,
    },
}

impl Item {
    pub(super) fn into_formula(self) -> Formula {
        match self {
            Item::Formula(f) => f,
            Item::Sequence { sere, strong, .. } => {
                if strong {
                    Formula::econcat(sere, Formula::tt())
                } else {
                    Formula::closure(sere)
                }
            }
            Item::Clocked { inner, .. } => inner.into_formula(),
            Item::Aborted { body, cond, .. } => Formula::abort(body.into_formula(), cond),
        }
    }

    /// The item without its clocks (the parser has recorded them).
    pub(super) fn unclocked(self) -> Item {
        let mut item = self;
        while let Item::Clocked { inner, .. } = item {
            item = *inner;
        }
        item
    }

    /// A parenthesized item: a sequence in parentheses is a formula (it
    /// cannot start a suffix implication), as it always was.
    fn parenthesized(self) -> Item {
        match self {
            Item::Sequence { .. } => Item::Formula(self.into_formula()),
            Item::Clocked { inner, clock } => Item::Clocked {
                inner: Box::new(inner.parenthesized()),
                clock,
            },
            other => other,
        }
    }
}

/// The clock under which Boolean connectives (or `always`) of `items`
/// read: the clock of an `@` can move out of `(a @c) && !(b @c)` and of
/// `always (φ @c)` without changing the property (on a clock that ticks
/// forever, `always (φ @c)` and `(always φ) @c` check φ at the same
/// ticks), but not out of `next (φ @c)` or `a && (b @c)`, where part of
/// the property reads every cycle. Constants read under any clock.
fn lift(items: &[&Item]) -> Option<usize> {
    let mut clock = None;
    for item in items {
        match item {
            Item::Clocked { clock: c, .. } => {
                clock.get_or_insert(*c);
            }
            Item::Formula(f) if f.is_true() || f.is_false() => {}
            _ => return None,
        }
    }
    clock
}

/// `f`, under `clock` if there is one.
fn clocked(f: Formula, clock: Option<usize>) -> Item {
    match clock {
        Some(clock) => Item::Clocked {
            inner: Box::new(Item::Formula(f)),
            clock,
        },
        None => Item::Formula(f),
    }
}

/// A clock read in a directive: `@(posedge clk)` (`span` from `@` to
/// `)`), or a default clock.
#[derive(Clone, Debug)]
pub(super) struct ClockUse {
    pub(super) clock: Clock,
    pub(super) span: Span,
}

pub(super) struct Parser<'a> {
    input: &'a str,
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
    /// Directives only: the clocks read (`@`), in the order of the text.
    /// Without it (`parse_psl`), `@` is an error.
    pub(super) clocks: Option<Vec<ClockUse>>,
    /// The positions of the `(` in SEREs whose contents are not a SERE.
    not_sere: HashSet<usize>,
    /// What [`Parser::letter_formula`] read at a position: the formula,
    /// where it ended and the clocks it read.
    letters: HashMap<usize, Letter>,
}

/// A memo of [`Parser::letter_formula`].
type Letter = (Result<Formula, ParseError>, usize, Vec<ClockUse>);

impl<'a> Parser<'a> {
    /// A parser of `tokens` (which end with [`T::End`]) from `input`;
    /// `directive` accepts clocks.
    pub(super) fn new(input: &'a str, tokens: Vec<Token>, directive: bool) -> Parser<'a> {
        Parser {
            input,
            tokens,
            pos: 0,
            depth: 0,
            clocks: directive.then(Vec::new),
            not_sere: HashSet::new(),
            letters: HashMap::new(),
        }
    }

    pub(super) fn peek(&self) -> &Token {
        &self.tokens[self.pos]
    }

    /// The token after the next one (or the end).
    pub(super) fn peek2(&self) -> &Token {
        &self.tokens[(self.pos + 1).min(self.tokens.len() - 1)]
    }

    /// Moves to token `pos` (at most the end).
    pub(super) fn seek(&mut self, pos: usize) {
        self.pos = pos.min(self.tokens.len() - 1);
    }

    /// The span of the last token read.
    pub(super) fn last_span(&self) -> Span {
        self.tokens[self.pos.saturating_sub(1)].span
    }

    pub(super) fn next(&mut self) -> Token {
        let t = self.tokens[self.pos].clone();
        if t.kind != T::End {
            self.pos += 1;
        }
        t
    }

    pub(super) fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek().kind, T::Sym(x) if x == s)
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        matches!(&self.peek().kind, T::Word(x) if x == w)
    }

    pub(super) fn error(&self, span: Span, kind: ParseErrorKind) -> ParseError {
        make_error(self.input, span, kind)
    }

    pub(super) fn unexpected(&self, t: &Token, expected: &'static str) -> ParseError {
        match t.kind {
            T::Sym("@") => return self.clock_error(t.span),
            T::Sym("##") => return self.unsupported(t.span, SVA_DELAY),
            T::Bad(c) => return self.error(t.span, ParseErrorKind::UnknownCharacter(c)),
            _ => {}
        }
        if let T::Word(w) = &t.kind {
            if self.clocks.is_some() && SVA_WORDS.contains(&w.as_str()) {
                return self.unsupported(
                    t.span,
                    format!("the SVA operator `{w}` is not supported: write PSL (`next`, `until`, SEREs `{{...}}`)"),
                );
            }
        }
        let found = match &t.kind {
            // (The end of a directive of a vunit is its `;`.)
            T::End if t.span.start == t.span.end => "the end of the property".to_string(),
            _ => quote(&self.input[t.span.start..t.span.end]),
        };
        self.error(t.span, ParseErrorKind::Unexpected { expected, found })
    }

    pub(super) fn unsupported(&self, span: Span, msg: impl Into<String>) -> ParseError {
        self.error(span, ParseErrorKind::Unsupported(msg.into()))
    }

    pub(super) fn expect_sym(
        &mut self,
        s: &'static str,
        expected: &'static str,
    ) -> Result<Token, ParseError> {
        if self.is_sym(s) {
            Ok(self.next())
        } else {
            let t = self.peek().clone();
            Err(self.unexpected(&t, expected))
        }
    }

    fn enter(&mut self, span: Span) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(span, ParseErrorKind::TooDeep));
        }
        Ok(())
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    // ---- the temporal layer -------------------------------------------

    /// A property.
    pub(super) fn formula(&mut self) -> Result<Formula, ParseError> {
        Ok(self.formula_item()?.into_formula())
    }

    /// A property, as an item: `->` and `<->`, right associative.
    pub(super) fn formula_item(&mut self) -> Result<Item, ParseError> {
        let lhs = self.suffix_level()?;
        if self.is_sym("->") || self.is_sym("<->") {
            let t = self.next();
            self.enter(t.span)?;
            let rhs = self.formula_item()?;
            self.leave();
            let clock = lift(&[&lhs, &rhs]);
            let (lhs, rhs) = (lhs.into_formula(), rhs.into_formula());
            return Ok(clocked(
                if t.kind == T::Sym("->") {
                    Formula::implies(lhs, rhs)
                } else {
                    Formula::equiv(lhs, rhs)
                },
                clock,
            ));
        }
        Ok(lhs)
    }

    /// `{r} |-> φ` and `{r} |=> φ`, right associative.
    fn suffix_level(&mut self) -> Result<Item, ParseError> {
        // Prefix occurrence operators (`next`, `eventually!`, ...) bind
        // looser than `until` and `abort`; they are parsed where an operand
        // starts (see `unary`), so the next level is the bounding one.
        let lhs = self.before_level()?;
        if !(self.is_sym("|->") || self.is_sym("|=>")) {
            return Ok(lhs);
        }
        let t = self.next();
        let lhs = match lhs.unclocked() {
            seq @ Item::Sequence { .. } => seq,
            other => Item::Formula(other.into_formula()),
        };
        let sere =
            match lhs {
                Item::Sequence {
                    sere,
                    strong: false,
                    ..
                } => sere,
                Item::Sequence {
                    strong: true, span, ..
                } => {
                    return Err(self.unsupported(
                        span,
                        "the left side of a suffix implication is a sequence `{...}`, without `!`",
                    ))
                }
                Item::Formula(f) if !f.has_future() => f,
                _ => return Err(self.unsupported(
                    t.span,
                    "the left side of a suffix implication must be a sequence `{...}` or a Boolean",
                )),
            };
        self.enter(t.span)?;
        let rhs = self.suffix_level()?.into_formula();
        self.leave();
        let sere = if t.kind == T::Sym("|=>") {
            Formula::concat([sere, Formula::tt()])
        } else {
            sere
        };
        Ok(Item::Formula(Formula::uconcat(sere, rhs)))
    }

    /// `before*`, right associative.
    fn before_level(&mut self) -> Result<Item, ParseError> {
        let lhs = self.until_level()?;
        let kw = match &self.peek().kind {
            T::Word(w) if w.starts_with("before") => w.clone(),
            _ => return Ok(lhs),
        };
        let t = self.next();
        self.enter(t.span)?;
        let rhs = self.before_level()?.into_formula();
        self.leave();
        let (a, b) = (lhs.into_formula(), rhs);
        let nb = Formula::not(b);
        let strong = kw.contains('!');
        let goal = if kw.ends_with('_') {
            a
        } else {
            Formula::and([a, nb.clone()])
        };
        Ok(Item::Formula(if strong {
            Formula::until(nb, goal)
        } else {
            Formula::weak_until(nb, goal)
        }))
    }

    /// `until*`, `U`, `W`, right associative.
    fn until_level(&mut self) -> Result<Item, ParseError> {
        let lhs = self.abort_level()?;
        let kw = match &self.peek().kind {
            T::Word(w) if w.starts_with("until") || w == "U" || w == "W" => w.clone(),
            _ => return Ok(lhs),
        };
        let t = self.next();
        self.enter(t.span)?;
        let rhs = self.until_level()?.into_formula();
        self.leave();
        let a = lhs.into_formula();
        let strong = kw.contains('!') || kw == "U";
        let goal = if kw.ends_with('_') {
            Formula::and([a.clone(), rhs])
        } else {
            rhs
        };
        Ok(Item::Formula(if strong {
            Formula::until(a, goal)
        } else {
            Formula::weak_until(a, goal)
        }))
    }

    /// `φ abort b` (and `async_abort`, `sync_abort`: the same without
    /// clocks), left associative.
    fn abort_level(&mut self) -> Result<Item, ParseError> {
        let mut lhs = self.or_level()?;
        while matches!(&self.peek().kind, T::Word(w) if w == "abort" || w == "async_abort" || w == "sync_abort")
        {
            let t = self.next();
            let b = self.or_level()?.into_formula();
            if b.has_future() {
                return Err(self.unsupported(
                    t.span,
                    "the right operand of `abort` must be a Boolean expression",
                ));
            }
            // Only the outermost abort of a directive is special: the
            // inner ones become formulas now (and no chain of boxes grows).
            let body = match lhs {
                Item::Aborted { .. } => Item::Formula(lhs.into_formula()),
                other => other,
            };
            lhs = Item::Aborted {
                body: Box::new(body),
                cond: b,
                synchronous: t.kind == T::Word("sync_abort".into()),
                span: t.span,
            };
        }
        Ok(lhs)
    }

    fn or_level(&mut self) -> Result<Item, ParseError> {
        let first = self.xor_level()?;
        if !(self.is_sym("||") || self.is_sym("|")) {
            return Ok(first);
        }
        let mut v = vec![first];
        while self.is_sym("||") || self.is_sym("|") {
            self.next();
            v.push(self.xor_level()?);
        }
        let clock = lift(&v.iter().collect::<Vec<_>>());
        Ok(clocked(
            Formula::or(v.into_iter().map(Item::into_formula).collect::<Vec<_>>()),
            clock,
        ))
    }

    fn xor_level(&mut self) -> Result<Item, ParseError> {
        let mut lhs = self.and_level()?;
        while self.is_sym("^") || self.is_word("xor") {
            self.next();
            let rhs = self.and_level()?;
            let clock = lift(&[&lhs, &rhs]);
            lhs = clocked(Formula::xor(lhs.into_formula(), rhs.into_formula()), clock);
        }
        Ok(lhs)
    }

    fn and_level(&mut self) -> Result<Item, ParseError> {
        let first = self.unary()?;
        if !(self.is_sym("&&") || self.is_sym("&")) {
            return Ok(first);
        }
        let mut v = vec![first];
        while self.is_sym("&&") || self.is_sym("&") {
            self.next();
            v.push(self.unary()?);
        }
        let clock = lift(&v.iter().collect::<Vec<_>>());
        Ok(clocked(
            Formula::and(v.into_iter().map(Item::into_formula).collect::<Vec<_>>()),
            clock,
        ))
    }

    /// `[n]` after `next`, `next!`, `X`: a count.
    fn count(&mut self) -> Result<u32, ParseError> {
        self.expect_sym("[", "`[`")?;
        let n = self.number()?;
        self.expect_sym("]", "`]`")?;
        Ok(n)
    }

    fn number(&mut self) -> Result<u32, ParseError> {
        let t = self.next();
        match t.kind {
            T::Num(n) if n <= u64::from(MAX_BOUND) => Ok(n as u32),
            T::Num(_) => Err(self.error(
                t.span,
                ParseErrorKind::Bound(format!("bound larger than {MAX_BOUND}")),
            )),
            _ => Err(self.unexpected(&t, "a number")),
        }
    }

    /// `[i:j]` (also `i..j`, `i to j`); `j` may be `inf` or `$` when
    /// `unbounded_ok`.
    fn range(&mut self, unbounded_ok: bool) -> Result<(u32, Option<u32>), ParseError> {
        let open = self.expect_sym("[", "`[`")?;
        let r = self.range_body(unbounded_ok, open.span)?;
        self.expect_sym("]", "`]`")?;
        Ok(r)
    }

    /// `i:j`, `i..j`, `i to j` or `n` (then `n:n`).
    fn range_body(
        &mut self,
        unbounded_ok: bool,
        at: Span,
    ) -> Result<(u32, Option<u32>), ParseError> {
        let lo = self.number()?;
        if !(self.is_sym(":") || self.is_sym("..") || self.is_word("to")) {
            return Ok((lo, Some(lo)));
        }
        self.next();
        let hi = if self.is_word("inf") || self.is_sym("$") {
            let t = self.next();
            if !unbounded_ok {
                return Err(self.error(
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
                let end = self.tokens[self.pos.saturating_sub(1)].span.end;
                return Err(self.error(
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

    /// `(b)` after `next_event`: a Boolean.
    fn event(&mut self) -> Result<Formula, ParseError> {
        let open = self.expect_sym("(", "`(`")?;
        self.enter(open.span)?;
        let b = self.formula()?;
        self.leave();
        self.expect_sym(")", "`)`")?;
        if b.has_future() {
            return Err(self.unsupported(
                open.span,
                "the event of `next_event` must be a Boolean expression",
            ));
        }
        Ok(b)
    }

    /// Operands: `!`, prefix operators, atoms, parentheses, sequences.
    fn unary(&mut self) -> Result<Item, ParseError> {
        let t = self.next();
        self.enter(t.span)?;
        let r = self.unary_inner(t);
        self.leave();
        let mut item = r?;
        // `φ @(posedge clk)`: the tightest operator (IEEE 1850's table).
        while self.clocks.is_some() && self.is_sym("@") {
            let at = self.next();
            let (clock, span) = self.clock_after_at(at.span)?;
            let clocks = self.clocks.as_mut().expect("directive");
            clocks.push(ClockUse { clock, span });
            let clock = clocks.len() - 1;
            // `(φ @c1) @c2` is read under c2, the outer clock; c1 is still
            // in `clocks`, where the directive compares it with c2.
            item = Item::Clocked {
                inner: Box::new(item.unclocked()),
                clock,
            };
        }
        Ok(item)
    }

    fn unary_inner(&mut self, t: Token) -> Result<Item, ParseError> {
        let word = match &t.kind {
            T::Word(w) => w.clone(),
            T::Sym("!") | T::Sym("~") => {
                let item = self.unary()?;
                let clock = lift(&[&item]);
                return Ok(clocked(Formula::not(item.into_formula()), clock));
            }
            T::Sym("(") => {
                let item = self.formula_item()?;
                if self.is_sym(")") {
                    self.next();
                    return Ok(item.parenthesized());
                }
                if self.peek().kind == T::End {
                    return Err(self.error(t.span, ParseErrorKind::UnclosedParenthesis));
                }
                let u = self.peek().clone();
                return Err(self.unexpected(&u, "an operator or `)`"));
            }
            T::Sym("{") => {
                let sere = self.sere_braced(t.span)?;
                let end = self.tokens[self.pos - 1].span.end;
                let mut strong = false;
                if self.is_sym("!") {
                    self.next();
                    strong = true;
                }
                if self.is_sym("@") && self.clocks.is_none() {
                    let at = self.peek().span;
                    return Err(self.clock_error(at));
                }
                return Ok(Item::Sequence {
                    sere,
                    strong,
                    span: Span {
                        start: t.span.start,
                        end,
                    },
                });
            }
            T::Sym("[*") | T::Sym("[+]") | T::Sym("[=") | T::Sym("[->") => {
                return Err(self.unsupported(
                    t.span,
                    "a repetition must be inside a sequence: write `{...}`",
                ))
            }
            T::Num(n @ (0 | 1)) => return Ok(Item::Formula(Formula::constant(*n == 1))),
            T::Literal(l) => return Ok(Item::Formula(self.literal_boolean(&t, l)?)),
            T::Sym("$") if self.clocks.is_some() => {
                if let T::Word(w) = &self.peek().kind {
                    let psl = match w.as_str() {
                        "rose" | "fell" => format!("`{w}(...)`"),
                        "past" => "`prev(...)`".to_string(),
                        _ => "PSL's built-in functions".to_string(),
                    };
                    let span = Span {
                        start: t.span.start,
                        end: self.peek().span.end,
                    };
                    return Err(self.unsupported(
                        span,
                        format!("the SVA system function `${w}` is not supported: write {psl}"),
                    ));
                }
                return Err(self.unexpected(&t, "a property"));
            }
            _ => return Err(self.unexpected(&t, "a property")),
        };
        if self.clocks.is_some() {
            if word == "disable" && self.is_word("iff") {
                return Err(self.unsupported(
                    t.span,
                    "`disable iff (...)` must come first in the property (after the clock)",
                ));
            }
            if SVA_WORDS.contains(&word.as_str()) {
                return Err(self.unexpected(&t, "a property"));
            }
        }
        let f = |x: Formula| Ok(Item::Formula(x));
        match word.as_str() {
            "always" | "G" | "never" => {
                // The loosest operators: the operand extends to the end.
                let g = self.formula_item()?;
                let clock = lift(&[&g]);
                let g = g.into_formula();
                Ok(clocked(
                    Formula::always(if word == "never" { Formula::not(g) } else { g }),
                    clock,
                ))
            }
            "eventually!" | "F" => {
                let g = self.prefix_operand()?;
                f(Formula::eventually(g))
            }
            "next" | "next!" | "X" | "X!" => {
                let n = if self.is_sym("[") { self.count()? } else { 1 };
                let g = self.prefix_operand()?;
                f(Formula::next_n(g, n as usize))
            }
            "next_a" | "next_a!" | "next_e" | "next_e!" => {
                let (lo, hi) = self.range(false)?;
                let hi = hi.expect("finite");
                let g = self.prefix_operand()?;
                let terms = (lo..=hi).map(|k| Formula::next_n(g.clone(), k as usize));
                f(if word.starts_with("next_a") {
                    Formula::and(terms.collect::<Vec<_>>())
                } else {
                    Formula::or(terms.collect::<Vec<_>>())
                })
            }
            "next_event" | "next_event!" => {
                let b = self.event()?;
                let n = if self.is_sym("[") { self.count()? } else { 1 };
                if n == 0 {
                    let at = self.tokens[self.pos - 2].span;
                    return Err(self.error(
                        at,
                        ParseErrorKind::Bound("next_event counts occurrences from 1".into()),
                    ));
                }
                let g = self.prefix_operand()?;
                let r = goto(b, n, Some(n));
                f(if word.ends_with('!') {
                    Formula::econcat(r, g)
                } else {
                    Formula::uconcat(r, g)
                })
            }
            "next_event_a" | "next_event_a!" | "next_event_e" | "next_event_e!" => {
                let b = self.event()?;
                let (lo, hi) = self.range(false)?;
                let hi = hi.expect("finite");
                if lo == 0 {
                    let at = self.tokens[self.pos - 2].span;
                    return Err(self.error(
                        at,
                        ParseErrorKind::Bound(format!("{word} counts occurrences from 1")),
                    ));
                }
                let g = self.prefix_operand()?;
                let r = goto(b.clone(), lo, Some(hi));
                let last = goto(b, hi, Some(hi));
                let strong = word.ends_with('!');
                f(if word.starts_with("next_event_a") {
                    let all = Formula::uconcat(r, g);
                    if strong {
                        Formula::and([all, Formula::econcat(last, Formula::tt())])
                    } else {
                        all
                    }
                } else {
                    let some = Formula::econcat(r, g);
                    if strong {
                        some
                    } else {
                        // Weak: also true if the last occurrence never comes.
                        Formula::or([some, Formula::not(Formula::econcat(last, Formula::tt()))])
                    }
                })
            }
            "rose" | "fell" | "prev" => {
                let b = self.event()?;
                let y = Formula::yesterday(b.clone());
                f(match word.as_str() {
                    "rose" => Formula::and([b, Formula::not(y)]),
                    "fell" => Formula::and([Formula::not(b), y]),
                    _ => y,
                })
            }
            "true" | "TRUE" => f(Formula::tt()),
            "false" | "FALSE" => f(Formula::ff()),
            w if KEYWORDS.contains(&w) => Err(self.keyword_error(&t, w)),
            _ => self.atom(word),
        }
    }

    /// The operand of `next`, `eventually!`, ...: up to `->` and `|->`.
    fn prefix_operand(&mut self) -> Result<Formula, ParseError> {
        Ok(self.before_level()?.into_formula())
    }

    fn clock_error(&self, at: Span) -> ParseError {
        if self.clocks.is_some() {
            return self.unsupported(
                at,
                "a clock cannot appear here: write `@(posedge clk)` after a property or a \
                 sequence `{...}`, or at the start of the directive",
            );
        }
        self.unsupported(at, PARSE_PSL_CLOCK)
    }

    /// After `@` (at `at`): `(posedge clk)`, `(negedge clk)`,
    /// `(rose(clk))`, `(fell(clk))`, or the same without the outer
    /// parentheses. The span runs from `@` to the end of the clock.
    pub(super) fn clock_after_at(&mut self, at: Span) -> Result<(Clock, Span), ParseError> {
        let clock = self.clock_expr(at)?;
        let span = Span {
            start: at.start,
            end: self.last_span().end,
        };
        Ok((clock, span))
    }

    /// A clock expression, in parentheses or not: `posedge clk`,
    /// `negedge clk`, `rose(clk)`, `fell(clk)`. `at` starts the span of
    /// the errors (the `@`, or the first token).
    pub(super) fn clock_expr(&mut self, at: Span) -> Result<Clock, ParseError> {
        if self.is_sym("(") {
            let open = self.next();
            self.enter(open.span)?;
            let clock = self.clock_expr(at);
            self.leave();
            let clock = clock?;
            if !self.is_sym(")") {
                let t = self.peek().clone();
                if matches!(&t.kind, T::Word(w) if w == "or" || w == "iff")
                    || matches!(t.kind, T::Sym(","))
                {
                    return Err(self.unsupported(
                        t.span,
                        "a checker has one clock: give one edge of one signal, without `or`, \
                         `,` or `iff`",
                    ));
                }
                return Err(self.unexpected(&t, "`)`"));
            }
            self.next();
            return Ok(clock);
        }
        let t = self.next();
        let edge = match &t.kind {
            T::Word(w) if w == "posedge" || w == "rose" => ClockEdge::Posedge,
            T::Word(w) if w == "negedge" || w == "fell" => ClockEdge::Negedge,
            T::Word(w) if is_signal(w) => {
                let span = Span {
                    start: at.start,
                    end: self.last_span().end,
                };
                return Err(self.unsupported(
                    span,
                    format!("a clock needs an edge: write `@(posedge {w})` (or `@(negedge {w})`)"),
                ));
            }
            _ => return Err(self.unexpected(&t, "a clock edge (`posedge clk`, `negedge clk`)")),
        };
        let call = matches!(&t.kind, T::Word(w) if w == "rose" || w == "fell");
        if call {
            self.expect_sym("(", "`(`")?;
        }
        let name = self.next();
        let signal = match &name.kind {
            T::Word(w) if is_signal(w) => w.clone(),
            _ => return Err(self.unexpected(&name, "the name of the clock signal")),
        };
        if call {
            self.expect_sym(")", "`)`")?;
        }
        Ok(Clock { signal, edge })
    }

    fn keyword_error(&self, t: &Token, w: &str) -> ParseError {
        let msg = match w {
            "union" => "`union` is not supported (it is nondeterministic)".to_string(),
            "forall" | "forany" => format!("`{w}` (replicated properties) is not supported"),
            "AG" | "AF" | "AX" | "EG" | "EF" | "EX" | "A" | "E" => {
                format!("`{w}` belongs to the Optional Branching Extension, which is not supported")
            }
            "assume" | "cover" | "restrict" | "property" | "sequence" | "endpoint" | "vunit"
            | "default" => format!("`{w}` declarations are not supported: give one property"),
            "stable" | "ended" | "isunknown" | "countones" | "onehot" | "onehot0" => {
                format!("the built-in function `{w}` is not supported")
            }
            "within!" | "within!_" | "within_" | "whilenot" | "whilenot!" | "whilenot_"
            | "whilenot!_" => format!("`{w}` (NuSMV's extension) is not supported"),
            _ => {
                return self.unexpected(t, "a property");
            }
        };
        self.unsupported(t.span, msg)
    }

    /// An identifier, possibly selected or compared: `sig`, `bus[3]`,
    /// `grant[1:0]`, `state == 2`, `count >= 4'd12`. The proposition is
    /// named by its text ([`atom`](super::atom) reads it back for the
    /// back ends).
    fn atom(&mut self, word: String) -> Result<Item, ParseError> {
        let mut name = self.select(word)?;
        let cmp = ["==", "!=", "<=", ">=", "<", ">", "="]
            .into_iter()
            .find(|s| self.is_sym(s));
        if let Some(op) = cmp {
            self.next();
            let rhs = self.next();
            let value = match &rhs.kind {
                T::Num(n) => n.to_string(),
                T::Literal(l) => l.text.clone(),
                T::Word(w) if !KEYWORDS.contains(&w.as_str()) => self.select(w.clone())?,
                _ => return Err(self.unexpected(&rhs, "a number, a literal or an identifier")),
            };
            name = format!("{name} {op} {value}");
        }
        Ok(Item::Formula(Formula::ap(&name)))
    }

    /// `sig` followed by a bit-select `[i]` or a part-select `[msb:lsb]`,
    /// if one follows (and not a repetition).
    fn select(&mut self, name: String) -> Result<String, ParseError> {
        if !self.is_sym("[") {
            return Ok(name);
        }
        let kind = |k: usize| self.tokens.get(self.pos + k).map(|t| t.kind.clone());
        let (Some(T::Num(hi)), next) = (kind(1), kind(2)) else {
            return Ok(name);
        };
        match next {
            Some(T::Sym("]")) => {
                self.pos += 3;
                Ok(format!("{name}[{hi}]"))
            }
            Some(T::Sym(":")) => {
                let open = self.next();
                self.next();
                self.next();
                let lo = self.next();
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

    /// A literal where a Boolean is expected: `1'b1` and `1'b0` are the
    /// constants; wider literals must be compared.
    fn literal_boolean(&self, t: &Token, l: &Literal) -> Result<Formula, ParseError> {
        if l.width == Some(1) {
            return Ok(Formula::constant(l.value == 1));
        }
        Err(self.unsupported(
            t.span,
            format!(
                "`{}` is a vector, not a Boolean: compare it with a signal (`x == {}`)",
                l.text, l.text
            ),
        ))
    }

    // ---- SEREs -------------------------------------------------------

    /// `{ r }`, the `{` already read.
    fn sere_braced(&mut self, open: Span) -> Result<Formula, ParseError> {
        let r = self.sere()?;
        if self.is_sym("}") {
            self.next();
            return Ok(r);
        }
        if self.peek().kind == T::End {
            return Err(self.unsupported(open, "this `{` is never closed"));
        }
        let u = self.peek().clone();
        if u.kind == T::Sym("@") {
            return Err(self.clock_error(u.span));
        }
        Err(self.unexpected(&u, "a SERE operator or `}`"))
    }

    /// `;` and `:` (the loosest in a SERE), left to right.
    fn sere(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_or()?;
        while self.is_sym(";") || self.is_sym(":") {
            let fusion = self.next().kind == T::Sym(":");
            let s = self.sere_or()?;
            r = if fusion {
                Formula::fusion([r, s])
            } else {
                Formula::concat([r, s])
            };
        }
        Ok(r)
    }

    fn sere_or(&mut self) -> Result<Formula, ParseError> {
        let mut v = vec![self.sere_and()?];
        while self.is_sym("|") || self.is_sym("||") {
            self.next();
            v.push(self.sere_and()?);
        }
        Ok(Formula::sere_or(v))
    }

    fn sere_and(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_within()?;
        while self.is_sym("&&") || self.is_sym("&") {
            let length_matching = self.next().kind == T::Sym("&&");
            let s = self.sere_within()?;
            r = if length_matching {
                Formula::sere_and([r, s])
            } else {
                Formula::sere_and_nlm(r, s)
            };
        }
        Ok(r)
    }

    fn sere_within(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_repeat()?;
        while self.is_word("within") {
            self.next();
            let s = self.sere_repeat()?;
            let any = Formula::star(Formula::tt(), 0, None);
            r = Formula::sere_and([Formula::concat([any.clone(), r, any]), s]);
        }
        Ok(r)
    }

    /// A SERE operand followed by repetitions.
    fn sere_repeat(&mut self) -> Result<Formula, ParseError> {
        let t = self.peek().clone();
        let mut r = match t.kind {
            // `[*2]`, `[+]` alone repeat `true`.
            T::Sym("[*") | T::Sym("[+]") => Formula::tt(),
            T::Sym("[=") | T::Sym("[->") => {
                return Err(self.unsupported(t.span, "`[=` and `[->` need a Boolean before them"))
            }
            _ => self.sere_primary()?,
        };
        loop {
            let t = self.peek().clone();
            r = match t.kind {
                T::Sym("[*") => {
                    self.next();
                    let (lo, hi) = if self.is_sym("]") {
                        (0, None)
                    } else {
                        self.range_body(true, t.span)?
                    };
                    self.expect_sym("]", "`]`")?;
                    Formula::star(r, lo, hi)
                }
                T::Sym("[+]") => {
                    self.next();
                    Formula::star(r, 1, None)
                }
                T::Sym("[=") | T::Sym("[->") => {
                    self.next();
                    if r.has_future() {
                        return Err(self.unsupported(
                            t.span,
                            format!(
                                "`{}` repeats a Boolean, not a sequence",
                                &self.input[t.span.start..t.span.end]
                            ),
                        ));
                    }
                    let (lo, hi) = if self.is_sym("]") {
                        (1, Some(1))
                    } else {
                        self.range_body(true, t.span)?
                    };
                    self.expect_sym("]", "`]`")?;
                    if t.kind == T::Sym("[->") {
                        if lo == 0 {
                            return Err(self.error(
                                t.span,
                                ParseErrorKind::Bound("`[->` counts occurrences from 1".into()),
                            ));
                        }
                        goto(r, lo, hi)
                    } else {
                        // b[=i:j] = b[->i:j] ; !b[*]  (also for i = 0)
                        let nb = Formula::star(Formula::not(r.clone()), 0, None);
                        let occurrences =
                            Formula::star(Formula::concat([nb.clone(), r.clone()]), lo, hi);
                        Formula::concat([occurrences, nb])
                    }
                }
                _ => return Ok(r),
            };
        }
    }

    /// The formula in the parentheses of a SERE whose contents are not a
    /// SERE, from token `start`; remembered, as the parentheses around it
    /// may be read again (each level once as a SERE, once as a formula).
    fn letter_formula(&mut self, start: usize) -> Result<Formula, ParseError> {
        if let Some((r, end, clocks)) = self.letters.get(&start).cloned() {
            self.pos = end;
            if let Some(v) = self.clocks.as_mut() {
                v.extend(clocks);
            }
            return r;
        }
        let (depth, n) = (self.depth, self.clocks.as_ref().map_or(0, Vec::len));
        let r = self.formula();
        self.depth = depth;
        let clocks = self.clocks.as_ref().map_or(Vec::new(), |v| v[n..].to_vec());
        self.letters.insert(start, (r.clone(), self.pos, clocks));
        r
    }

    fn sere_primary(&mut self) -> Result<Formula, ParseError> {
        let t = self.next();
        self.enter(t.span)?;
        let r = self.sere_primary_inner(t);
        self.leave();
        r
    }

    fn sere_primary_inner(&mut self, t: Token) -> Result<Formula, ParseError> {
        match &t.kind {
            T::Sym("{") => self.sere_braced(t.span),
            T::Sym("(") => {
                // A SERE, or any Boolean expression (`^`, `xor`, ...).
                // A failed try is remembered: the retry as a formula goes
                // through the same nested parentheses, which would each be
                // tried twice again (`{({({(...` took exponential time).
                let start = self.pos;
                let (depth, clocks) = (self.depth, self.clocks.as_ref().map(Vec::len));
                let tried = if self.not_sere.contains(&start) {
                    None
                } else {
                    match self.sere() {
                        Ok(r) if self.is_sym(")") => Some(r),
                        _ => {
                            self.not_sere.insert(start);
                            None
                        }
                    }
                };
                let r = match tried {
                    Some(r) => r,
                    None => {
                        self.pos = start;
                        self.depth = depth;
                        if let (Some(v), Some(n)) = (self.clocks.as_mut(), clocks) {
                            v.truncate(n);
                        }
                        let f = self.letter_formula(start)?;
                        if f.has_future() {
                            return Err(self.unsupported(
                                t.span,
                                "only Boolean expressions can be SERE letters",
                            ));
                        }
                        f
                    }
                };
                // A Boolean implication inside parentheses.
                let r = if (self.is_sym("->") || self.is_sym("<->")) && !r.has_future() {
                    let op = self.next();
                    let s = self.sere()?;
                    if s.has_future() {
                        return Err(self.unsupported(op.span, "`->` in a SERE joins Booleans"));
                    }
                    if op.kind == T::Sym("->") {
                        Formula::implies(r, s)
                    } else {
                        Formula::equiv(r, s)
                    }
                } else {
                    r
                };
                if self.is_sym(")") {
                    self.next();
                    return Ok(r);
                }
                if self.peek().kind == T::End {
                    return Err(self.error(t.span, ParseErrorKind::UnclosedParenthesis));
                }
                let u = self.peek().clone();
                Err(self.unexpected(&u, "a SERE operator or `)`"))
            }
            T::Sym("!") | T::Sym("~") => {
                let r = self.sere_primary()?;
                if r.has_future() {
                    return Err(self.unsupported(
                        t.span,
                        "a SERE cannot be negated; only Booleans can (use `!{r}` outside braces)",
                    ));
                }
                Ok(Formula::not(r))
            }
            T::Word(w) if w == "rose" || w == "fell" || w == "prev" => {
                Ok(self.unary_inner(t.clone())?.into_formula())
            }
            T::Word(w) if matches!(w.as_str(), "true" | "TRUE" | "false" | "FALSE") => {
                Ok(Formula::constant(w.eq_ignore_ascii_case("true")))
            }
            T::Num(n @ (0 | 1)) => Ok(Formula::constant(*n == 1)),
            T::Literal(l) => self.literal_boolean(&t, l),
            T::Word(w) if KEYWORDS.contains(&w.as_str()) => {
                let w = w.clone();
                let known = self.keyword_error(&t, &w);
                if matches!(known.kind(), ParseErrorKind::Unsupported(_)) {
                    return Err(known);
                }
                Err(self.unsupported(
                    t.span,
                    format!(
                        "`{w}` is a temporal operator; inside a SERE only Booleans are letters"
                    ),
                ))
            }
            T::Word(w) => {
                let w = w.clone();
                Ok(self.atom(w)?.into_formula())
            }
            _ => Err(self.unexpected(&t, "a SERE")),
        }
    }
}

/// `b[->lo:hi]` = `{!b[*] ; b}[*lo:hi]`.
fn goto(b: Formula, lo: u32, hi: Option<u32>) -> Formula {
    let step = Formula::concat([Formula::star(Formula::not(b.clone()), 0, None), b]);
    Formula::star(step, lo, hi)
}

/// Why a formula cannot be written in PSL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PslPrintError {
    /// PSL has `prev` on Booleans, but no other past-time operator.
    PastOperator(super::Op),
    /// The proposition is not a PSL identifier (nor a comparison).
    Proposition(String),
}

impl std::fmt::Display for PslPrintError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PslPrintError::PastOperator(op) => write!(
                f,
                "PSL has no past-time operator but `prev` (found `{}`)",
                op.symbol()
            ),
            PslPrintError::Proposition(name) => {
                write!(f, "proposition `{name}` is not a PSL identifier")
            }
        }
    }
}

impl std::error::Error for PslPrintError {}

impl Formula {
    /// Prints the formula in PSL (Verilog flavour), fully parenthesized,
    /// so that [`parse_psl`] reads it back as the same property. LTL
    /// operators become PSL ones (`G` → `always`, `U` → `until!`, `R` →
    /// `until` over a conjunction, ...), `{r} <>-> f` becomes
    /// `!({r} |-> !f)`.
    ///
    /// ```
    /// use monitor_core::formula::{parse, parse_psl};
    /// let f = parse("G(req -> X(ack W done))")?;
    /// assert_eq!(f.to_psl()?, "(always ((req -> (next! ((ack until done))))))");
    /// let g = parse_psl("always {req; ack[*2]} |=> {done}!")?;
    /// assert_eq!(parse_psl(&g.to_psl()?)?, g);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_psl(&self) -> Result<String, PslPrintError> {
        let mut out = String::new();
        psl(self, &mut out)?;
        Ok(out)
    }
}

fn psl(f: &Formula, out: &mut String) -> Result<(), PslPrintError> {
    use super::Op;
    // Prefix operators extend to the right: the whole is parenthesized.
    let un = |kw: &str, a: &Formula, out: &mut String| -> Result<(), PslPrintError> {
        out.push('(');
        out.push_str(kw);
        out.push_str(" (");
        psl(a, out)?;
        out.push_str("))");
        Ok(())
    };
    let bin = |a: &Formula, kw: &str, b: &Formula, out: &mut String| -> Result<(), PslPrintError> {
        out.push('(');
        psl(a, out)?;
        out.push(' ');
        out.push_str(kw);
        out.push(' ');
        psl(b, out)?;
        out.push(')');
        Ok(())
    };
    match f.op() {
        Op::True => out.push_str("true"),
        Op::False => out.push_str("false"),
        Op::Ap => {
            let name = f.ap_name().expect("ap");
            if !psl_name(name) {
                return Err(PslPrintError::Proposition(name.to_string()));
            }
            out.push_str(name);
        }
        Op::Not => {
            out.push_str("!(");
            psl(f.child(0), out)?;
            out.push(')');
        }
        Op::And | Op::Or => {
            out.push('(');
            for (i, c) in f.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(if f.op() == Op::And { " && " } else { " || " });
                }
                psl(c, out)?;
            }
            out.push(')');
        }
        Op::Implies => bin(f.child(0), "->", f.child(1), out)?,
        Op::Equiv => bin(f.child(0), "<->", f.child(1), out)?,
        Op::Xor => bin(f.child(0), "^", f.child(1), out)?,
        Op::X => un("next!", f.child(0), out)?,
        Op::F => un("eventually!", f.child(0), out)?,
        Op::G => un("always", f.child(0), out)?,
        Op::U => bin(f.child(0), "until!", f.child(1), out)?,
        Op::W => bin(f.child(0), "until", f.child(1), out)?,
        // a R b = b W (a & b), a M b = b U (a & b)
        Op::R | Op::M => {
            let both = Formula::and([f.child(0).clone(), f.child(1).clone()]);
            let kw = if f.op() == Op::R { "until" } else { "until!" };
            bin(f.child(1), kw, &both, out)?;
        }
        Op::Y if !f.child(0).has_future() && !f.child(0).has_past() => {
            out.push_str("prev(");
            psl(f.child(0), out)?;
            out.push(')');
        }
        op if op.is_past() => return Err(PslPrintError::PastOperator(op)),
        Op::Closure => sere_item(f.child(0), out, true)?,
        Op::NegClosure | Op::NegClosureMarked => {
            out.push('!');
            sere_item(f.child(0), out, true)?;
        }
        Op::EConcat | Op::EConcatMarked if f.child(1).is_true() => {
            sere_item(f.child(0), out, true)?;
            out.push('!');
        }
        Op::EConcat | Op::EConcatMarked => {
            out.push_str("!(");
            sere_item(f.child(0), out, true)?;
            out.push_str(" |-> !(");
            psl(f.child(1), out)?;
            out.push_str("))");
        }
        Op::UConcat => {
            out.push('(');
            sere_item(f.child(0), out, true)?;
            out.push_str(" |-> (");
            psl(f.child(1), out)?;
            out.push_str("))");
        }
        Op::Abort => bin(f.child(0), "abort", f.child(1), out)?,
        Op::AbortBottom => {
            out.push_str("!((!(");
            psl(f.child(0), out)?;
            out.push_str(") abort ");
            psl(f.child(1), out)?;
            out.push_str("))");
        }
        _ => sere_item(f, out, true)?,
    }
    Ok(())
}

/// A SERE as an item of a bigger one: a Boolean in parentheses, anything
/// else in braces (`braced` forces braces, for a sequence in a formula).
fn sere_item(r: &Formula, out: &mut String, braced: bool) -> Result<(), PslPrintError> {
    use super::Op;
    if !r.op().is_sere() {
        if braced {
            out.push('{');
        }
        out.push('(');
        psl(r, out)?;
        out.push(')');
        if braced {
            out.push('}');
        }
        return Ok(());
    }
    out.push('{');
    match r.op() {
        Op::EmptyWord => out.push_str("[*0]"),
        Op::Concat | Op::Fusion | Op::OrRat | Op::AndRat => {
            let sep = match r.op() {
                Op::Concat => " ; ",
                Op::Fusion => " : ",
                Op::OrRat => " | ",
                _ => " && ",
            };
            for (i, c) in r.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                sere_item(c, out, false)?;
            }
        }
        Op::Star => {
            sere_item(r.child(0), out, false)?;
            let (lo, hi) = r.star_bounds().expect("star");
            match hi {
                None => out.push_str(&format!("[*{lo}:inf]")),
                Some(hi) => out.push_str(&format!("[*{lo}:{hi}]")),
            }
        }
        op => unreachable!("{op:?} is not a SERE operator"),
    }
    out.push('}');
    Ok(())
}

/// Whether a proposition prints as itself in PSL: an identifier, or a
/// comparison the parser reads back as the same proposition.
fn psl_name(name: &str) -> bool {
    let ident = |s: &str| {
        let mut cs = s.chars();
        cs.next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && cs.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
            && !KEYWORDS.contains(&s)
            && !matches!(s, "true" | "false" | "TRUE" | "FALSE")
    };
    if ident(name) {
        return true;
    }
    // `sig[3]`, `x == 3`: as the parser builds them.
    match parse_psl(name) {
        Ok(f) => f.ap_name() == Some(name),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn p(s: &str) -> Formula {
        parse_psl(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn ltl_subset_matches_ltl() {
        let cases = [
            ("always (a -> next b)", "G(a -> X b)"),
            ("always a -> next b", "G(a -> X b)"),
            ("never (a && b)", "G !(a & b)"),
            ("eventually! a", "F a"),
            ("a until b", "a W b"),
            ("a until! b", "a U b"),
            ("a until_ b", "a W (a & b)"),
            ("a until!_ b", "a U (a & b)"),
            ("a before b", "!b W (a & !b)"),
            ("a before! b", "!b U (a & !b)"),
            ("a before_ b", "!b W a"),
            ("a before!_ b", "!b U a"),
            ("next[3] a", "X X X a"),
            ("next_a[1:2] a", "X a & X X a"),
            ("next_e[0:1] a", "a | X a"),
            ("G (a -> X! b)", "G(a -> X b)"),
            ("always (a || b) && !c", "G((a | b) & !c)"),
            ("a xor b", "a xor b"),
            (
                "always (req -> next (ack until done))",
                "G(req -> X(ack W done))",
            ),
            ("always (prev(a) -> b)", "G(Y a -> b)"),
            ("always (rose(a) -> b)", "G((a & !Y a) -> b)"),
        ];
        for (psl, ltl) in cases {
            assert_eq!(p(psl), parse(ltl).unwrap(), "{psl}");
        }
    }

    #[test]
    fn seres_and_suffix_operators() {
        let s = |x: &str| p(x).to_spot();
        assert_eq!(s("{a; b}"), "{a;b}");
        assert_eq!(s("{a; b}!"), "{a;b}!");
        assert_eq!(s("{a; b} |-> c"), "{a;b}[]-> c");
        assert_eq!(s("{a; b} |=> {c}"), "{a;b;1}[]-> {c}");
        assert_eq!(s("{a[*2:3]}"), "{a[*2..3]}");
        assert_eq!(s("{a[*]; b[+]; [*]; c[*2]}"), "{a[*];b[+];[*];c[*2]}");
        assert_eq!(s("{a[->2]}"), "{{!a[*];a}[*2]}");
        assert_eq!(s("{a : b | c}"), "{a:(b | c)}");
        assert_eq!(s("{{a;b} && {c;d}}"), "{{a;b} && {c;d}}");
        assert_eq!(s("{a && b}"), "{a & b}");
        assert_eq!(s("!{a;b}"), "!{a;b}");
        assert_eq!(s("{[*0]}"), "{[*0]}");
        assert_eq!(
            s("always {req; !ack[*0:3]} |=> ack"),
            "G({req;!ack[*0..3];1}[]-> ack)"
        );
        assert_eq!(
            s("{state == 2; count > 3}"),
            "{\"state == 2\";\"count > 3\"}"
        );
        // NuSMV spellings.
        assert_eq!(p("PSLSPEC always ({a} |-> {b});"), p("always {a} |-> {b}"));
        assert_eq!(p("{a; b[*1..inf]}"), p("{a; b[+]}"));
        assert_eq!(p("{a; b[*1 to $]}"), p("{a; b[+]}"));
        assert_eq!(p("assert always a -> 1'b1;"), p("always a -> true"));
        // Literals and selects stay as written in the proposition's name.
        let name = |s: &str| p(s).child(0).ap_name().map(str::to_string);
        assert_eq!(
            name("always data[3] != 1'b0").as_deref(),
            Some("data[3] != 1'b0")
        );
        assert_eq!(
            name("always grant[1:0] == 2'b01").as_deref(),
            Some("grant[1:0] == 2'b01")
        );
        assert_eq!(
            name("always count >= 4'd12").as_deref(),
            Some("count >= 4'd12")
        );
        assert_eq!(
            name("always latency > 100000").as_deref(),
            Some("latency > 100000")
        );
        assert_eq!(name("always a == b[2]").as_deref(), Some("a == b[2]"));
        assert_eq!(p("{1'b1; a}"), p("{true; a}"));
        // within, non-length-matching and
        assert_eq!(p("{a within {b;c}}"), p("{{[*]; a; [*]} && {b;c}}"));
        assert_eq!(p("{{a;b} & c}"), p("{{a;b} && {c;[*]} | {a;b;[*]} && c}"));
    }

    #[test]
    fn abort_binds_tighter_than_suffix_implication() {
        assert_eq!(p("(always a) abort r").to_spot(), "(Ga) abort r");
        assert_eq!(
            p("{a;b} |-> c abort r"),
            p("{a;b} |-> (c abort r)"),
            "abort binds tighter than |->"
        );
    }

    #[test]
    fn errors_name_the_construct() {
        let e = |s: &str| parse_psl(s).unwrap_err();
        let err = e("always a @ clk");
        assert_eq!(err.column(), 10);
        assert!(err.to_string().contains("clocked"), "{err}");
        let err = e("AG a");
        assert!(err.to_string().contains("Branching"), "{err}");
        let err = e("{a; next b}");
        assert_eq!(err.column(), 5);
        assert!(err.to_string().contains("temporal operator"), "{err}");
        let err = e("{a; b");
        assert_eq!(err.column(), 1);
        let err = e("{a[*3:1]}");
        assert!(err.to_string().contains("empty range"), "{err}");
        let err = e("(always a) |-> b");
        assert!(err.to_string().contains("suffix implication"), "{err}");
        let err = e("a abort next b");
        assert!(err.to_string().contains("abort"), "{err}");
        let err = e("a until");
        assert!(err.to_string().contains("end of the property"), "{err}");
        let err = e("next_a[1:inf] a");
        assert!(err.to_string().contains("finite"), "{err}");
        let err = e("forall i in {0:3}: a");
        assert!(err.to_string().contains("replicated"), "{err}");
        assert!(parse_psl("").is_err());
        assert!(parse_psl("   -- only a comment").is_err());
        // Literals: checked, and vectors are not Booleans.
        let err = e("always x == 4'bx1");
        assert_eq!(err.column(), 13);
        assert!(err.to_string().contains("two-valued"), "{err}");
        let err = e("always x == 4'd16");
        assert!(err.to_string().contains("does not fit"), "{err}");
        let err = e("always 4'd15 -> a");
        assert_eq!(err.column(), 8);
        assert!(err.to_string().contains("compare it"), "{err}");
        let err = e("always x == 4'b_1");
        assert_eq!(err.column(), 13);
        assert!(err.to_string().contains("4'd15"), "{err}");
        let err = e("always grant[0:1] == 1");
        assert!(
            err.to_string().contains("most significant bit first"),
            "{err}"
        );
    }
}
