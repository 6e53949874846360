//! A parser for LTL with past in the syntax of Spot and Spin, with Spot's
//! SEREs (PSL).
//!
//! Operators, from the loosest to the tightest binding (Spot's table):
//!
//! | operators | associativity |
//! |---|---|
//! | `->` `=>` `-->` `<->` `<=>` `<-->` | right |
//! | `\|` `\|\|` `\/` | left |
//! | `xor` `^` | left |
//! | `&` `&&` `/\` | left |
//! | `U` `R` `V` `W` `M` and past `S` `B` `T` | right |
//! | prefix `!` `~` `X` `F` `<>` `G` `[]` `X[n]` `X[!]` `F[n:m]` `G[n:m]` and past `Y` `Z` `O` `H` | |
//!
//! Atoms: `true`, `false` (any case), `1`, `0`, identifiers
//! `[a-zA-Z_.][a-zA-Z0-9_.]*`, and any text in double quotes (`"x > 3"`,
//! with `\"` and `\\` escapes). As in Spot, an identifier cannot start with
//! the letter of a prefix operator (`F`, `G`, `X`, and here also `Y`, `Z`,
//! `O`, `H`) unless a digit follows it: `GFp0` is `G(F(p0))` and `F1` is a
//! proposition; quote a name such as `"Open"` to use it as a proposition.
//! Single capital letters `U R V W M S B T` are operators. `/* comments */`
//! are skipped.
//!
//! Bounded operators are expanded as in Spot: `X[3] f` is `XXX f`,
//! `F[2:4] f` is `XX(f | X(f | X f))`, `G[2:4] f` is `XX(f & X(f & X f))`,
//! and an upper bound of `$`, `inf` or nothing means unbounded
//! (`F[2:$] f` is `XXF f`). Separators `:`, `..` and `,` are accepted.
//!
//! Time intervals (`O[0:5s] p`, `p S[1ms:2s] q`, `F[0:500ms] p`,
//! `p U[1s:2s] q`) are read by
//! [`parse_metric`](super::metric::parse_metric); here they are an error.
//!
//! Windows of one operator nested directly are merged
//! ([`Formula::bounded`]): `F[0:2] F[1:3] f` is `F[1:5] f`.
//!
//! # SEREs
//!
//! Spot's PSL syntax: a SERE in braces is a formula, with the semantics
//! of the PSL front end ([`parse_psl`](super::parse_psl); the same
//! property gives the same formula):
//!
//! | formula | meaning |
//! |---|---|
//! | `{r}`, `{r}!`, `!{r}` | weak sequence (closure), strong sequence, negation |
//! | `{r}[]-> f`, `{r}\|-> f`, `{r}(f)` | `f` at the end of each match (PSL `{r} \|-> f`) |
//! | `{r}[]=> f`, `{r}\|=> f` | `f` one letter after each match (`{r;1}[]-> f`) |
//! | `{r}<>-> f`, `{r}<>=> f` | some match ends where (one letter before) `f` holds |
//! | `f abort b`, `f abort_bottom b` | PSL's `abort`, and its dual (as `to_spot` prints them) |
//!
//! The right side of `[]->` and `<>->` extends as far as possible
//! (`{r}[]-> a U b` is `{r}[]-> (a U b)`). Inside braces, from the
//! loosest to the tightest:
//!
//! | SERE | meaning |
//! |---|---|
//! | `r ; s` | concatenation |
//! | `r : s` | fusion (the last letter of `r` is the first of `s`) |
//! | `r ##n s`, `r ##[i:j] s`, `##[i:j] s`, `##[+]`, `##[*]` | SVA delays, Spot's sugar: `r;1[*n-1];s`, `##0` is fusion |
//! | `b -> c`, `b <-> c` | Booleans only |
//! | `r \| s`, `r \|\| s` | union |
//! | `b ^ c`, `b xor c` | Booleans only |
//! | `r && s`, `r & s` | length-matching and non-length-matching intersection (`&` on Booleans) |
//! | `r[*i..j]`, `r[*]`, `r*`, `r[+]`, `[*i..j]` alone (of `1`) | repetition |
//! | `b[=i..j]`, `b[->i..j]` | non-consecutive and goto repetition of a Boolean |
//! | `r[:*i..j]`, `r[:*]`, `r[:+]` | fusion power: `i` to `j` copies `r:r:…:r`, `r[:*0]` is `1` |
//! | `!b`, `first_match(r)`, `(r)`, `{r}` | |
//!
//! Bounds are written `i..j`, `i:j`, `i,j` or `i to j`, with `$`, `inf`
//! or nothing for unbounded; `[*]` is `[*0..]`, `[->]` is `[->1]`,
//! `[->..j]` is `[->1..j]`. `[*0]` is the empty word, `1` any letter.
//! Letters are Boolean formulas (past operators allowed); a temporal
//! operator inside braces is an error. The fusion power has Spot's
//! meaning ([`Formula::fusion_power`]): a copy never matches the empty
//! word, so `{a[*]}[:+]` is `{a[+]}[:+]`, and the power of a Boolean is
//! itself (`b:b` is `b`) or `1`.
//!
//! One difference from Spot remains, the PSL front end's: a weak
//! closure completes a prefix with letters that satisfy every Boolean,
//! `false` included (IEEE 1850), so `{0[=2]}` is `1` here and `0` in Spot.
//!
//! ```
//! use monitor_core::formula::{parse, parse_psl};
//!
//! let f = parse("G({req}[]=> {!ack[*0..3];ack}!)")?;
//! assert_eq!(f, parse_psl("always {req} |=> {!ack[*0:3];ack}!")?);
//! assert_eq!(f.to_spot(), "G({req;1}[]-> ({!ack[*0..3];ack}!))");
//! assert_eq!(parse("{a ##[1:2] b}")?, parse("{a;[*0..1];b}")?);
//! let err = parse("{a;b}} -> c").unwrap_err();
//! assert_eq!(err.message(), "expected an operator or the end of the formula, found `}`, which closes no `{`");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

pub(crate) use super::cursor::Span;
use super::cursor::{Cursor, EndToken, Spanned};
use super::metric::{
    allowed_in_operand, counted, looks_timed, read_bound, ClockPeriod, TimeInterval,
    TimedComponent, TimedKind,
};
use super::{psl, Formula, Op};

/// The largest bound accepted in `X[n]`, `F[n:m]` and `G[n:m]`.
pub const MAX_BOUND: u32 = 10_000;

/// The deepest nesting of parentheses and prefix operators accepted.
pub const MAX_DEPTH: usize = 2000;

/// Parses a formula.
///
/// ```
/// use monitor_core::formula::parse;
///
/// let f = parse("Fp0 -> (!p1 U p0)")?;
/// assert_eq!(f.to_spot(), "Fp0 -> (!p1 U p0)");
/// assert_eq!(parse("[]<>(x)")?, parse("GF x")?);
///
/// let err = parse("G(a & )").unwrap_err();
/// assert_eq!((err.line(), err.column()), (1, 7));
/// assert_eq!(err.to_string(),
///     "syntax error at line 1, column 7: expected a formula, found `)`\n  G(a & )\n        ^");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse(input: &str) -> Result<Formula, ParseError> {
    parse_in(input, None, None).map(|(f, _)| f)
}

/// [`parse`], the metric operators read as propositions and their timed
/// components ([`parse_metric`](super::metric::parse_metric)).
pub(crate) fn parse_with_time(input: &str) -> Result<(Formula, Vec<TimedComponent>), ParseError> {
    parse_in(input, Some(Vec::new()), None)
}

/// [`parse`], the time bounds converted to counts of cycles of `period`
/// ([`parse_cycles`](super::metric::parse_cycles)).
pub(crate) fn parse_with_period(input: &str, period: &ClockPeriod) -> Result<Formula, ParseError> {
    parse_in(input, None, Some(period)).map(|(f, _)| f)
}

/// Parses `input`; with `timed`, metric operators become propositions and
/// components appended to it; with `period`, their bounds are counts of
/// its cycles (without either, they are an error).
fn parse_in(
    input: &str,
    timed: Option<Vec<TimedComponent>>,
    period: Option<&ClockPeriod>,
) -> Result<(Formula, Vec<TimedComponent>), ParseError> {
    let tokens = lex(input, period, timed.is_some())?;
    let mut p = Parser {
        cur: Cursor::new(input, tokens),
        timed,
        cycles: period.is_some(),
        names: Vec::new(),
    };
    if p.cur.peek().kind == Tok::End {
        return Err(p.cur.error(p.cur.peek().span, ParseErrorKind::Empty));
    }
    let f = p.formula()?;
    let t = p.cur.peek().clone();
    if t.kind != Tok::End {
        return Err(p.unexpected(&t, "an operator or the end of the formula"));
    }
    let timed = p.timed.unwrap_or_default();
    // A proposition the user named as a metric subformula's text would
    // be confused with it.
    if let Some((name, span)) = p
        .names
        .iter()
        .find(|(n, _)| timed.iter().any(|c| &c.name == n))
    {
        return Err(p.cur.error(
            *span,
            ParseErrorKind::Unsupported(format!(
                "the proposition `{}` has the name of the metric subformula written here too: \
                 rename it",
                name.escape_debug()
            )),
        ));
    }
    Ok((f, timed))
}

/// What went wrong, without the position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input has no formula.
    Empty,
    /// A token that cannot appear here.
    Unexpected {
        /// What the parser was looking for.
        expected: &'static str,
        /// What it found, quoted.
        found: String,
    },
    /// A `(` without its `)`.
    UnclosedParenthesis,
    /// A `{` without its `}`.
    UnclosedBrace,
    /// A `"` without its closing `"`.
    UnclosedString,
    /// A `/*` without its `*/`.
    UnclosedComment,
    /// An empty quoted proposition `""`.
    EmptyProposition,
    /// A character that starts no token.
    UnknownCharacter(char),
    /// A malformed or out-of-range bound in `X[n]`, `F[n:m]`, `G[n:m]`.
    Bound(String),
    /// Nesting deeper than [`MAX_DEPTH`].
    TooDeep,
    /// A construct outside the supported language, named in the message.
    Unsupported(String),
    /// A time bound (`F[0:5s] p`) where only counts of events are read:
    /// without the events' times
    /// ([`parse_metric`](super::metric::parse_metric)) or a clock period
    /// ([`parse_cycles`](super::metric::parse_cycles)).
    TimeBound,
}

impl fmt::Display for ParseErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseErrorKind::Empty => f.write_str("empty formula"),
            ParseErrorKind::Unexpected { expected, found } => {
                write!(f, "expected {expected}, found {found}")
            }
            ParseErrorKind::UnclosedParenthesis => f.write_str("this parenthesis is never closed"),
            ParseErrorKind::UnclosedBrace => f.write_str("this brace is never closed"),
            ParseErrorKind::UnclosedString => f.write_str("this string is never closed"),
            ParseErrorKind::UnclosedComment => f.write_str("this comment is never closed"),
            ParseErrorKind::EmptyProposition => f.write_str("empty atomic proposition"),
            ParseErrorKind::UnknownCharacter(c) => write!(f, "unexpected character `{c}`"),
            ParseErrorKind::Bound(msg) => f.write_str(msg),
            ParseErrorKind::TooDeep => {
                write!(f, "formula nested more than {MAX_DEPTH} levels deep")
            }
            ParseErrorKind::Unsupported(msg) => f.write_str(msg),
            ParseErrorKind::TimeBound => f.write_str(
                "a time bound is checked only on logs with times (`mongen check --time FIELD`) \
                 or converted to cycles with a clock period; a compiled monitor has no clock: it \
                 counts events or cycles (`F[0:5] p`)",
            ),
        }
    }
}

/// A syntax error, with the line and column of the offending token.
///
/// Its `Display` shows the message, the line of input and a caret under
/// the token (in the manner of compilers).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    kind: ParseErrorKind,
    line: usize,
    column: usize,
    width: usize,
    offset: usize,
    source_line: String,
}

impl ParseError {
    /// What went wrong.
    ///
    /// ```
    /// # use monitor_core::formula::{parse, ParseErrorKind};
    /// let err = parse("G(a U b").unwrap_err();
    /// assert_eq!(err.kind(), &ParseErrorKind::UnclosedParenthesis);
    /// assert_eq!(parse("").unwrap_err().kind(), &ParseErrorKind::Empty);
    /// ```
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The 1-based line of the error.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// let err = parse("G(a ->\n  b &)").unwrap_err();
    /// assert_eq!(err.line(), 2);
    /// ```
    pub fn line(&self) -> usize {
        self.line
    }

    /// The 1-based column (in characters) of the error.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// assert_eq!(parse("a U U b").unwrap_err().column(), 5);
    /// // Characters, not bytes: `é` is one column.
    /// assert_eq!(parse("\"é\" & )").unwrap_err().column(), 7);
    /// ```
    pub fn column(&self) -> usize {
        self.column
    }

    /// The byte offset of the error in the input.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// // Bytes, not characters: `é` is two bytes.
    /// let err = parse("\"é\" & )").unwrap_err();
    /// assert_eq!((err.offset(), err.column()), (7, 7));
    /// assert_eq!(parse("a &\n& b").unwrap_err().offset(), 4);
    /// ```
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The message alone, without position or caret.
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// let err = parse("G(a & )").unwrap_err();
    /// assert_eq!(err.message(), "expected a formula, found `)`");
    /// ```
    pub fn message(&self) -> String {
        self.kind.to_string()
    }

    /// The same error, moved to another line (used when a formula comes
    /// from line `line` of a file).
    ///
    /// ```
    /// # use monitor_core::formula::parse;
    /// let err = parse("G(a & )").unwrap_err().at_line(10);
    /// assert_eq!((err.line(), err.column()), (10, 7));
    /// assert!(err.to_string().starts_with("syntax error at line 10, column 7:"));
    /// ```
    pub fn at_line(mut self, line: usize) -> ParseError {
        self.line = line + self.line - 1;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "syntax error at line {}, column {}: {}\n  {}\n  {}{}",
            self.line,
            self.column,
            self.kind,
            self.source_line,
            " ".repeat(self.column - 1),
            "^".repeat(self.width.max(1))
        )
    }
}

impl std::error::Error for ParseError {}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Const(bool),
    Not,
    /// `&&` and `/\`: conjunction, and length-matching intersection in a
    /// SERE.
    And,
    /// `&`: conjunction, and non-length-matching intersection in a SERE.
    AndShort,
    Or,
    Xor,
    Implies,
    Equiv,
    /// A prefix operator, with its bounds for `X[n]` (lo = hi = n),
    /// `F[lo:hi]` and `G[lo:hi]` (`hi` = None for unbounded).
    Prefix(Op, Option<(u32, Option<u32>)>),
    /// A past prefix operator with a time interval: `O[0:5s]`, `H[1ms:]`.
    TimedPrefix(Op, TimeInterval),
    Binary(Op),
    /// A binary past operator with a time interval: `S[0:2s]`.
    TimedBinary(Op, TimeInterval),
    LParen,
    RParen,
    /// `{`, opening a SERE.
    LBrace,
    /// `}`.
    RBrace,
    /// `}!` (spaces or tabs may separate them): the strong sequence.
    RBraceBang,
    /// SERE concatenation `;`.
    Semi,
    /// SERE fusion `:`.
    Colon,
    /// `[]->` or `|->` (`nono`: `[]=>` or `|=>`, whose right side starts
    /// one letter after the match).
    UConcat {
        nono: bool,
    },
    /// `<>->` (`nono`: `<>=>`).
    EConcat {
        nono: bool,
    },
    /// A repetition with its bounds (`hi` = None for unbounded).
    Repeat(Rep, u32, Option<u32>),
    /// The SVA delay `##n`, `##[i:j]`, `##[+]`, `##[*]`.
    Delay(u32, Option<u32>),
    End,
}

/// The bounds of a repetition: `hi` = None for unbounded.
type Bounds = (u32, Option<u32>);

/// The repetitions of SEREs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rep {
    /// `[*i..j]`, `[*]`, `[+]`.
    Star,
    /// The fusion power `[:*i..j]`, `[:*]`, `[:+]`.
    FStar,
    /// The non-consecutive repetition `[=i..j]` of a Boolean.
    Equal,
    /// The goto repetition `[->i..j]` of a Boolean.
    Goto,
}

impl Rep {
    fn opener(self) -> &'static str {
        match self {
            Rep::Star => "[*",
            Rep::FStar => "[:*",
            Rep::Equal => "[=",
            Rep::Goto => "[->",
        }
    }
}

type Token = Spanned<Tok>;

impl EndToken for Tok {
    fn is_end(&self) -> bool {
        *self == Tok::End
    }
}

pub(crate) fn make_error(input: &str, span: Span, kind: ParseErrorKind) -> ParseError {
    let offset = span.start.min(input.len());
    let line_start = input[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = input[offset..]
        .find(['\n', '\r'])
        .map_or(input.len(), |i| offset + i);
    let line = input[..offset].matches('\n').count() + 1;
    let column = input[line_start..offset].chars().count() + 1;
    let width = input[offset..span.end.min(line_end).max(offset)]
        .chars()
        .count();
    ParseError {
        kind,
        line,
        column,
        width,
        offset,
        // Shown on a terminal under a caret: a control or formatting
        // character (an escape sequence, a bidi override) is one U+FFFD,
        // so the text cannot drive the terminal and the caret stays aligned.
        source_line: input[line_start..line_end]
            .chars()
            .map(|c| {
                if c == '\t' || !hidden_on_terminal(c) {
                    c
                } else {
                    '\u{FFFD}'
                }
            })
            .collect(),
    }
}

/// Whether a terminal would act on `c` rather than show it: a control
/// character, or an invisible formatting one (zero-width characters, line
/// and paragraph separators, bidi overrides and isolates, the byte-order
/// mark, interlinear annotations). Parse errors and the trace layer's
/// `escape` keep such characters off the terminal.
pub(crate) fn hidden_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{200b}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2069}'
                | '\u{feff}'
                | '\u{fff9}'..='\u{fffb}'
        )
}

fn describe(input: &str, t: &Token) -> String {
    match &t.kind {
        Tok::End => "the end of the formula".to_string(),
        Tok::Ident(name) => format!("atomic proposition `{}`", name.escape_debug()),
        _ => format!("`{}`", input[t.span.start..t.span.end].escape_debug()),
    }
}

/// Whether `rest` starts with the whole word `word` (any case).
fn starts_word(rest: &str, word: &str) -> bool {
    let n = word.len();
    rest.len() >= n
        && rest.as_bytes()[..n].eq_ignore_ascii_case(word.as_bytes())
        && !rest[n..].chars().next().is_some_and(is_ident_continue)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '.'
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

fn prefix_op(c: char) -> Option<Op> {
    Some(match c {
        'X' => Op::X,
        'F' => Op::F,
        'G' => Op::G,
        'Y' => Op::Y,
        'Z' => Op::Z,
        'O' => Op::O,
        'H' => Op::H,
        _ => return None,
    })
}

fn binary_op(word: &str) -> Option<Op> {
    Some(match word {
        "U" => Op::U,
        "R" | "V" => Op::R,
        "W" => Op::W,
        "M" => Op::M,
        "S" => Op::S,
        "B" => Op::B,
        "T" => Op::T,
        _ => return None,
    })
}

/// The tokens of `input`; with `period`, the intervals of time bounds
/// are counts of its cycles; `metric`: they are checked against times
/// (where a future one needs an upper bound).
fn lex(input: &str, period: Option<&ClockPeriod>, metric: bool) -> Result<Vec<Token>, ParseError> {
    let bytes = input.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let err = |start: usize, end: usize, kind| make_error(input, Span { start, end }, kind);
    while i < bytes.len() {
        let c = input[i..].chars().next().expect("in bounds");
        let rest = &input[i..];
        let start = i;
        let push = |kind: Tok, len: usize, out: &mut Vec<Token>| {
            out.push(Token {
                kind,
                span: Span {
                    start,
                    end: start + len,
                },
            });
            len
        };
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        if let Some(comment) = rest.strip_prefix("/*") {
            match comment.find("*/") {
                Some(j) => i += j + 4,
                None => return Err(err(start, start + 2, ParseErrorKind::UnclosedComment)),
            }
            continue;
        }
        // `}!` is one token (Spot's lexer allows blanks between them).
        if c == '}' {
            let blanks = rest[1..].len() - rest[1..].trim_start_matches([' ', '\t']).len();
            if rest[1 + blanks..].starts_with('!') {
                i += push(Tok::RBraceBang, blanks + 2, &mut out);
            } else {
                i += push(Tok::RBrace, 1, &mut out);
            }
            continue;
        }
        // Repetitions: lexed whole, with their bounds.
        const REPEATS: &[(&str, Rep, Option<Bounds>)] = &[
            ("[*]", Rep::Star, Some((0, None))),
            ("[+]", Rep::Star, Some((1, None))),
            ("[:*]", Rep::FStar, Some((0, None))),
            ("[:+]", Rep::FStar, Some((1, None))),
            ("[*", Rep::Star, None),
            ("[:*", Rep::FStar, None),
            ("[=", Rep::Equal, None),
            ("[->", Rep::Goto, None),
            ("[-->", Rep::Goto, None),
            // Spot also reads `r*` (and `*` alone) as `r[*]`.
            ("*", Rep::Star, Some((0, None))),
        ];
        if let Some((sym, rep, fixed)) = REPEATS.iter().find(|(s, _, _)| rest.starts_with(s)) {
            let (lo, hi, len) = match fixed {
                Some((lo, hi)) => (*lo, *hi, sym.len()),
                None => {
                    // `[->]` is one occurrence, `[->..j]` counts from 1.
                    let (empty, at_least) = if *rep == Rep::Goto {
                        ((1, Some(1)), 1)
                    } else {
                        ((0, None), 0)
                    };
                    let ((lo, hi), end) =
                        lex_range(input, start, start + sym.len(), empty, at_least, sym)?;
                    (lo, hi, end - start)
                }
            };
            i += push(Tok::Repeat(*rep, lo, hi), len, &mut out);
            continue;
        }
        if let Some(after) = rest.strip_prefix("##") {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let (lo, hi, len) = if digits > 0 {
                let n = bound_value(input, start, start + 2 + digits, &after[..digits])?;
                (n, Some(n), 2 + digits)
            } else if after.starts_with("[+]") {
                (1, None, 5)
            } else if after.starts_with("[*]") {
                (0, None, 5)
            } else if after.starts_with('[') {
                let ((lo, hi), end) = lex_range(input, start, start + 3, (0, None), 0, "##[")?;
                (lo, hi, end - start)
            } else {
                return Err(err(
                    start,
                    start + 2,
                    ParseErrorKind::Bound(
                        "expected a delay after `##`: `##2`, `##[1:3]`, `##[+]` or `##[*]`".into(),
                    ),
                ));
            };
            i += push(Tok::Delay(lo, hi), len, &mut out);
            continue;
        }
        // Longest operators first.
        const SYMBOLS: &[(&str, Tok)] = &[
            ("[]-->", Tok::UConcat { nono: false }),
            ("<>-->", Tok::EConcat { nono: false }),
            ("[]->", Tok::UConcat { nono: false }),
            ("[]=>", Tok::UConcat { nono: true }),
            ("<>->", Tok::EConcat { nono: false }),
            ("<>=>", Tok::EConcat { nono: true }),
            ("|-->", Tok::UConcat { nono: false }),
            ("|->", Tok::UConcat { nono: false }),
            ("|=>", Tok::UConcat { nono: true }),
            ("<-->", Tok::Equiv),
            ("<->", Tok::Equiv),
            ("<=>", Tok::Equiv),
            ("-->", Tok::Implies),
            ("->", Tok::Implies),
            ("=>", Tok::Implies),
            ("&&", Tok::And),
            ("/\\", Tok::And),
            ("||", Tok::Or),
            ("\\/", Tok::Or),
            ("&", Tok::AndShort),
            ("|", Tok::Or),
            ("^", Tok::Xor),
            ("!", Tok::Not),
            ("~", Tok::Not),
            ("(", Tok::LParen),
            (")", Tok::RParen),
            ("<>", Tok::Prefix(Op::F, None)),
            ("[]", Tok::Prefix(Op::G, None)),
            ("{", Tok::LBrace),
            (";", Tok::Semi),
            (":", Tok::Colon),
        ];
        if let Some((sym, tok)) = SYMBOLS.iter().find(|(s, _)| rest.starts_with(s)) {
            i += push(tok.clone(), sym.len(), &mut out);
            continue;
        }
        if c == '"' {
            let mut name = String::new();
            let mut j = i + 1;
            let mut closed = false;
            while j < bytes.len() {
                let d = input[j..].chars().next().expect("in bounds");
                match d {
                    '"' => {
                        closed = true;
                        j += 1;
                        break;
                    }
                    '\\' if j + 1 < bytes.len() => {
                        let e = input[j + 1..].chars().next().expect("in bounds");
                        name.push(e);
                        j += 1 + e.len_utf8();
                    }
                    _ => {
                        name.push(d);
                        j += d.len_utf8();
                    }
                }
            }
            if !closed {
                return Err(err(start, start + 1, ParseErrorKind::UnclosedString));
            }
            if name.is_empty() {
                return Err(err(start, j, ParseErrorKind::EmptyProposition));
            }
            i += push(Tok::Ident(name), j - i, &mut out);
            continue;
        }
        if c == '0' || c == '1' {
            let len = rest.bytes().take_while(u8::is_ascii_digit).count();
            if len == 1 {
                i += push(Tok::Const(c == '1'), 1, &mut out);
                continue;
            }
            return Err(err(
                start,
                start + len,
                ParseErrorKind::Unexpected {
                    expected: "a formula",
                    found: format!("number `{}`", &rest[..len]),
                },
            ));
        }
        if is_ident_start(c) {
            // A prefix operator letter not followed by a digit is an
            // operator whatever follows (`GFp0`), unless the word is
            // `false`: decided on the first letters, without reading the
            // whole word, which made `XXX…Xp` quadratic.
            if let Some(op) = prefix_op(c) {
                let second = rest[1..].chars().next();
                if !second.is_some_and(|d| d.is_ascii_digit()) && !starts_word(rest, "false") {
                    if let Some((interval, len)) =
                        lex_time_interval(input, i + 1, op, period, metric)?
                    {
                        i += push(Tok::TimedPrefix(op, interval), len + 1, &mut out);
                        continue;
                    }
                    let (bounds, len) = lex_bounds(input, i + 1, op)?;
                    i += push(Tok::Prefix(op, bounds), len + 1, &mut out);
                    continue;
                }
            }
            let len = rest
                .find(|d: char| !is_ident_continue(d))
                .unwrap_or(rest.len());
            let word = &rest[..len];
            if word.eq_ignore_ascii_case("true") || word.eq_ignore_ascii_case("false") {
                i += push(Tok::Const(word.eq_ignore_ascii_case("true")), len, &mut out);
                continue;
            }
            if word == "xor" {
                i += push(Tok::Xor, len, &mut out);
                continue;
            }
            if let Some(op) = binary_op(word) {
                if let Some((interval, more)) =
                    lex_time_interval(input, i + len, op, period, metric)?
                {
                    i += push(Tok::TimedBinary(op, interval), len + more, &mut out);
                    continue;
                }
                i += push(Tok::Binary(op), len, &mut out);
                continue;
            }
            i += push(Tok::Ident(word.to_string()), len, &mut out);
            continue;
        }
        return Err(err(
            start,
            start + c.len_utf8(),
            ParseErrorKind::UnknownCharacter(c),
        ));
    }
    out.push(Token {
        kind: Tok::End,
        span: Span {
            start: input.len(),
            end: input.len(),
        },
    });
    Ok(out)
}

/// A bound of a repetition or a delay, `text` (digits) at `start..end`.
fn bound_value(input: &str, start: usize, end: usize, text: &str) -> Result<u32, ParseError> {
    match text.parse::<u64>() {
        Ok(n) if n <= u64::from(MAX_BOUND) => Ok(n as u32),
        _ => Err(make_error(
            input,
            Span { start, end },
            ParseErrorKind::Bound(format!(
                "bound {} exceeds the maximum of {MAX_BOUND}",
                text.chars().take(24).collect::<String>()
            )),
        )),
    }
}

/// Lexes the bounds of a repetition or a delay from byte `at` (after
/// its opener `opener`, which starts at `start`) up to its `]`, in
/// Spot's syntax: `]` (the bounds `empty`), `n]`, `i..j]`, `i..]`,
/// `..j]` (from `at_least`); the separators `..`, `:`, `,` and `to`,
/// and `$` or `inf` for an unbounded end. Returns the bounds and the
/// offset after `]`.
#[allow(clippy::type_complexity)]
fn lex_range(
    input: &str,
    start: usize,
    at: usize,
    empty: (u32, Option<u32>),
    at_least: u32,
    opener: &str,
) -> Result<((u32, Option<u32>), usize), ParseError> {
    let bytes = input.as_bytes();
    let mut j = at;
    let skip = |j: &mut usize| {
        while *j < bytes.len() && matches!(bytes[*j], b' ' | b'\t' | b'\n' | b'\r') {
            *j += 1;
        }
    };
    let number = |j: &mut usize| -> Result<Option<u32>, ParseError> {
        let n = input[*j..].bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return Ok(None);
        }
        let v = bound_value(input, *j, *j + n, &input[*j..*j + n])?;
        *j += n;
        Ok(Some(v))
    };
    let bad = |j: usize, what: &str| {
        let end = input[j..].chars().next().map_or(j, |c| j + c.len_utf8());
        if j >= input.len() {
            return make_error(
                input,
                Span {
                    start,
                    end: start + opener.len(),
                },
                ParseErrorKind::Bound(format!("this `{opener}` is never closed")),
            );
        }
        make_error(
            input,
            Span { start: j, end },
            ParseErrorKind::Bound(format!(
                "expected {what} in `{opener}...]`, found `{}`",
                input[j..end].escape_debug()
            )),
        )
    };
    skip(&mut j);
    let lo = number(&mut j)?;
    skip(&mut j);
    let rest = &input[j..];
    let sep = [":", "..", ",", "to"]
        .into_iter()
        .find(|s| rest.starts_with(s))
        .map(str::len);
    let (lo, hi) = match sep {
        None => {
            if !rest.starts_with(']') {
                let what = if lo.is_some() {
                    "a separator (`..`, `:`) or `]`"
                } else {
                    "a number or `]`"
                };
                return Err(bad(j, what));
            }
            match lo {
                Some(n) => (n, Some(n)),
                None => empty,
            }
        }
        Some(n) => {
            j += n;
            skip(&mut j);
            let rest = &input[j..];
            let hi = if rest.starts_with('$') {
                j += 1;
                None
            } else if rest.starts_with("inf") {
                j += 3;
                None
            } else {
                number(&mut j)?
            };
            skip(&mut j);
            if !input[j..].starts_with(']') {
                return Err(bad(j, "a number, `$` or `]`"));
            }
            (lo.unwrap_or(at_least), hi)
        }
    };
    let end = j + 1;
    if let Some(hi) = hi {
        if hi < lo {
            return Err(make_error(
                input,
                Span { start, end },
                ParseErrorKind::Bound(format!(
                    "the upper bound {hi} is smaller than the lower bound {lo}"
                )),
            ));
        }
    }
    Ok(((lo, hi), end))
}

/// Lexes a time interval (`[0:5s]`, `[1ms:]`) after the operator `op`,
/// from byte `at` (after the operator's letter or word): `None` when
/// what follows is no such interval (no `[` and digit, or counts of
/// events after `X`, `F` or `G`, left to [`lex_bounds`]). Returns the
/// interval and the number of bytes after `at` it takes. A time bound on
/// an operator that takes none (`X[1s]`, `W[0:1s]`) is an error that says
/// so, as are counts of events on a past operator and a future time
/// bound without an upper end (`F[1s:]`) when `metric` (checked against
/// times). With `period`, the interval is in its cycles, each bound a
/// whole number of them (or an error at the bound).
fn lex_time_interval(
    input: &str,
    at: usize,
    op: Op,
    period: Option<&ClockPeriod>,
    metric: bool,
) -> Result<Option<(TimeInterval, usize)>, ParseError> {
    let rest = &input[at..];
    let trimmed = rest.trim_start();
    let ws = rest.len() - trimmed.len();
    let Some(inside) = trimmed.strip_prefix('[') else {
        return Ok(None);
    };
    let open = at + ws;
    // The past operators' intervals are always times; `F`, `G` and `U`
    // take a time, or (`F` and `G`) a count of events.
    let timed_op = matches!(op, Op::O | Op::H | Op::S);
    let future_timed = matches!(op, Op::F | Op::G | Op::U);
    if !inside
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit())
    {
        // `O[]` is `O G`; `O[-1s:2s]` is a bad interval.
        if timed_op && !inside.starts_with(']') {
            return Err(make_error(
                input,
                Span {
                    start: open,
                    end: open + 1,
                },
                ParseErrorKind::Bound(format!(
                    "expected a time interval after `{}`, such as `[0:5s]`",
                    op.symbol()
                )),
            ));
        }
        return Ok(None);
    }
    let Some(close) = inside.find(']') else {
        if timed_op {
            return Err(make_error(
                input,
                Span {
                    start: open,
                    end: open + 1,
                },
                ParseErrorKind::Bound("this `[` is never closed".into()),
            ));
        }
        return Ok(None);
    };
    let inner = &inside[..close];
    let whole = Span {
        start: open,
        end: open + close + 2,
    };
    // The bounds' texts and where they start.
    let sep = [":", "..", ","]
        .iter()
        .filter_map(|s| inner.find(s).map(|i| (i, s.len())))
        .min();
    let piece = |from: usize, to: usize| {
        let text = &inner[from..to];
        let lead = text.len() - text.trim_start().len();
        let start = open + 1 + from + lead;
        (
            text.trim(),
            Span {
                start,
                end: start + text.trim().len(),
            },
        )
    };
    let (lo_text, hi_text) = match sep {
        None => (piece(0, inner.len()), None),
        Some((i, l)) => (piece(0, i), Some(piece(i + l, inner.len()))),
    };
    let timed = looks_timed(lo_text.0) || hi_text.is_some_and(|(t, _)| looks_timed(t));
    if !timed {
        if timed_op {
            let symbol = op.symbol();
            return Err(make_error(
                input,
                whole,
                ParseErrorKind::Bound(format!(
                    "the interval of `{symbol}` is a time: give its bounds a unit, as in \
                     `{symbol}[0:5s]` (ns, us, ms, s, m or min, h, d); counting events is for \
                     `X`, `F` and `G`"
                )),
            ));
        }
        return Ok(None);
    }
    let read = |(text, span): (&str, Span)| {
        read_bound(text).map_err(|m| make_error(input, span, ParseErrorKind::Bound(m)))
    };
    let lo = read(lo_text)?;
    let hi = match hi_text {
        None => Some(lo),
        Some((t, _)) if t.is_empty() || t == "$" || t == "inf" => None,
        Some(h) => Some(read(h)?),
    };
    // The bounds are read before the operator is refused: a bound that
    // is no time (`F[0:4x]`) is the first thing to fix.
    if !timed_op && !future_timed {
        let symbol = op.symbol();
        let message = if op.is_future() {
            format!(
                "a time bound on the future operator `{symbol}` is not supported yet; \
                 `F[0:5s] p`, `G[0:5s] p`, `p U[0:5s] q` and the past `O`, `H`, `S` take one; \
                 a count of events, `{symbol}[2]`, is supported"
            )
        } else {
            format!("`{symbol}` takes no time interval: only `F`, `G`, `U`, `O`, `H` and `S` do")
        };
        return Err(make_error(
            input,
            whole,
            ParseErrorKind::Unsupported(message),
        ));
    }
    // A log's deadline needs an upper bound; a count of cycles may be
    // unbounded (`F[2:$]`), and where time bounds are refused, that is
    // the first thing to say.
    if future_timed && hi.is_none() && metric {
        let symbol = op.symbol();
        return Err(make_error(
            input,
            whole,
            ParseErrorKind::Unsupported(format!(
                "`{symbol}` with a time bound needs an upper bound (`{symbol}[0:5s]`): an \
                 obligation without a deadline is never violated by a finite log, so it is \
                 no safety property a log can be checked against"
            )),
        ));
    }
    // A count beside a time: only 0 means the same in every unit.
    let mut written = vec![(lo, lo_text)];
    if let (Some(h), Some(t)) = (hi, hi_text) {
        written.push((h, t));
    }
    if let Some((_, (text, span))) = written.iter().find(|(b, _)| !b.unit && b.value != 0) {
        return Err(make_error(
            input,
            *span,
            ParseErrorKind::Bound(format!(
                "`{text}` has no unit, while the other bound has one: write it with its \
                 unit, as `{text}s` (only 0 goes without)"
            )),
        ));
    }
    if let Some(h) = hi {
        if h.value < lo.value {
            return Err(make_error(
                input,
                whole,
                ParseErrorKind::Bound(format!(
                    "the upper bound {} is smaller than the lower bound {}",
                    hi_text.unwrap_or(lo_text).0,
                    lo_text.0
                )),
            ));
        }
    }
    let interval = match period {
        None => TimeInterval {
            lo: lo.value,
            hi: hi.map(|h| h.value),
        },
        Some(period) => {
            let cycles = |value: i64, (text, span): (&str, Span)| {
                period
                    .cycles(value, text, MAX_BOUND)
                    .map(i64::from)
                    .map_err(|m| make_error(input, span, ParseErrorKind::Bound(m)))
            };
            TimeInterval {
                lo: cycles(lo.value, lo_text)?,
                hi: match (hi, hi_text) {
                    (Some(h), Some(text)) => Some(cycles(h.value, text)?),
                    (Some(h), None) => Some(cycles(h.value, lo_text)?),
                    (None, _) => None,
                },
            }
        }
    };
    Ok(Some((interval, ws + close + 2)))
}

/// Lexes the optional `[...]` after `X`, `F` or `G` starting at byte `at`.
/// Returns the bounds and the number of bytes consumed after the letter.
#[allow(clippy::type_complexity)]
fn lex_bounds(
    input: &str,
    at: usize,
    op: Op,
) -> Result<(Option<(u32, Option<u32>)>, usize), ParseError> {
    let rest = &input[at..];
    let trimmed = rest.trim_start();
    let ws = rest.len() - trimmed.len();
    // `X[]f` is `X G f` in Spot (the [] is a box): leave it to the lexer.
    if !trimmed.starts_with('[')
        || trimmed.starts_with("[]")
        || !matches!(op, Op::X | Op::F | Op::G)
    {
        return Ok((None, 0));
    }
    let close = match trimmed.find(']') {
        Some(j) => j,
        None => {
            let s = at + ws;
            return Err(make_error(
                input,
                Span {
                    start: s,
                    end: s + 1,
                },
                ParseErrorKind::Bound("this `[` is never closed".into()),
            ));
        }
    };
    let inner = &trimmed[1..close];
    // For messages: one line, escaped.
    let shown: String = inner
        .chars()
        .take(24)
        .collect::<String>()
        .escape_debug()
        .to_string();
    let span = Span {
        start: at - 1,
        end: at + ws + close + 1,
    };
    let bad = |msg: String| make_error(input, span, ParseErrorKind::Bound(msg));
    let number = |s: &str| -> Result<u32, ParseError> {
        let s = s.trim();
        let n: u64 = s.parse().map_err(|_| {
            bad(format!(
                "expected a number in `[{shown}]`, found `{}`",
                s.escape_debug()
            ))
        })?;
        if n > u64::from(MAX_BOUND) {
            return Err(bad(format!("bound {n} exceeds the maximum of {MAX_BOUND}")));
        }
        Ok(n as u32)
    };
    let bounds = if op == Op::X {
        if inner.trim() == "!" {
            // X[!] is the strong next, the same as X on infinite words.
            (1, Some(1))
        } else {
            let n = number(inner)?;
            (n, Some(n))
        }
    } else {
        let sep = [":", "..", ","]
            .iter()
            .filter_map(|s| inner.find(s).map(|i| (i, s.len())))
            .min();
        match sep {
            None => {
                let n = number(inner)?;
                (n, Some(n))
            }
            Some((i, l)) => {
                let lo = number(&inner[..i])?;
                let hi_text = inner[i + l..].trim();
                let hi = if hi_text.is_empty() || hi_text == "$" || hi_text == "inf" {
                    None
                } else {
                    Some(number(hi_text)?)
                };
                if let Some(hi) = hi {
                    if hi < lo {
                        return Err(bad(format!(
                            "the upper bound {hi} is smaller than the lower bound {lo}"
                        )));
                    }
                }
                (lo, hi)
            }
        }
    };
    Ok((Some(bounds), ws + close + 1))
}

struct Parser<'a> {
    cur: Cursor<'a, Tok>,
    /// The timed components of the metric operators read so far, when
    /// they are read ([`parse_with_time`]); `None`: they are an error.
    timed: Option<Vec<TimedComponent>>,
    /// Whether the intervals of the metric operators are counts of
    /// clock cycles ([`parse_with_period`]), read as formulas of counts.
    cycles: bool,
    /// The propositions read, with their spans (metric mode only).
    names: Vec<(String, Span)>,
}

impl Parser<'_> {
    /// implies-level: right associative `->` and `<->`.
    fn formula(&mut self) -> Result<Formula, ParseError> {
        let lhs = self.or_level()?;
        match self.cur.peek().kind {
            Tok::Implies | Tok::Equiv => {
                let t = self.cur.next();
                self.cur.enter(t.span)?;
                let rhs = self.formula()?;
                self.cur.leave();
                Ok(if t.kind == Tok::Implies {
                    Formula::implies(lhs, rhs)
                } else {
                    Formula::equiv(lhs, rhs)
                })
            }
            _ => Ok(lhs),
        }
    }

    fn or_level(&mut self) -> Result<Formula, ParseError> {
        let mut operands = vec![self.xor_level()?];
        while self.cur.peek().kind == Tok::Or {
            self.cur.next();
            operands.push(self.xor_level()?);
        }
        Ok(Formula::or(operands))
    }

    fn xor_level(&mut self) -> Result<Formula, ParseError> {
        let mut lhs = self.and_level()?;
        // Each `xor` nests the formula one level deeper (it is binary):
        // counted as nesting, so that a long chain stops at the depth
        // limit instead of building a formula too deep for what follows.
        let mut levels = 0;
        while self.cur.peek().kind == Tok::Xor {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            levels += 1;
            let rhs = self.and_level()?;
            lhs = Formula::xor(lhs, rhs);
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        Ok(lhs)
    }

    fn and_level(&mut self) -> Result<Formula, ParseError> {
        let mut operands = vec![self.binary_level()?];
        while matches!(self.cur.peek().kind, Tok::And | Tok::AndShort) {
            self.cur.next();
            operands.push(self.binary_level()?);
        }
        Ok(Formula::and(operands))
    }

    /// `U R W M S B T`, right associative.
    fn binary_level(&mut self) -> Result<Formula, ParseError> {
        let start = self.cur.peek().span.start;
        let lhs = self.unary()?;
        if let Tok::TimedBinary(op, interval) = self.cur.peek().kind {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            let rhs = self.binary_level();
            self.cur.leave();
            let rhs = rhs?;
            let kind = match op {
                Op::S => TimedKind::Since,
                Op::U => TimedKind::Until,
                _ => unreachable!(
                    "the lexer gives intervals only to `S` and `U` among binary operators"
                ),
            };
            return self.timed_operator(&t, start, kind, interval, vec![lhs, rhs]);
        }
        if let Tok::Binary(op) = self.cur.peek().kind {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            let rhs = self.binary_level()?;
            self.cur.leave();
            return Ok(Formula::binop(op, lhs, rhs));
        }
        // `f abort b` (PSL's, as `to_spot` prints it): a word, an operator
        // only where an operator is expected (`abort` stays a proposition
        // name elsewhere).
        if let Tok::Ident(w) = &self.cur.peek().kind {
            if w == "abort" || w == "abort_bottom" {
                let bottom = w == "abort_bottom";
                let t = self.cur.next();
                self.cur.enter(t.span)?;
                let rhs = self.binary_level();
                self.cur.leave();
                let rhs = rhs?;
                if rhs.has_future() {
                    return Err(self.cur.error(
                        t.span,
                        ParseErrorKind::Unsupported(format!(
                            "the right operand of `{}` must be a Boolean expression",
                            if bottom { "abort_bottom" } else { "abort" }
                        )),
                    ));
                }
                return Ok(if bottom {
                    Formula::abort_bottom(lhs, rhs)
                } else {
                    Formula::abort(lhs, rhs)
                });
            }
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> Result<Formula, ParseError> {
        let t = self.cur.next();
        match t.kind {
            Tok::Not => {
                self.cur.enter(t.span)?;
                let f = self.unary()?;
                self.cur.leave();
                Ok(Formula::not(f))
            }
            Tok::Prefix(op, bounds) => {
                self.cur.enter(t.span)?;
                let f = self.unary()?;
                self.cur.leave();
                Ok(apply_prefix(op, bounds, f))
            }
            Tok::TimedPrefix(op, interval) => {
                self.cur.enter(t.span)?;
                let f = self.unary()?;
                self.cur.leave();
                let kind = match op {
                    Op::O => TimedKind::Once,
                    Op::H => TimedKind::Historically,
                    Op::F => TimedKind::Eventually,
                    Op::G => TimedKind::Always,
                    _ => unreachable!(
                        "the lexer gives intervals only to `O`, `H`, `F` and `G` among prefix \
                         operators"
                    ),
                };
                self.timed_operator(&t, t.span.start, kind, interval, vec![f])
            }
            Tok::LParen => {
                self.cur.enter(t.span)?;
                let f = self.formula()?;
                self.cur.leave();
                match self.cur.peek().kind {
                    Tok::RParen => {
                        self.cur.next();
                        Ok(f)
                    }
                    Tok::End => Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis)),
                    _ => {
                        let u = self.cur.peek().clone();
                        Err(self.unexpected(&u, "an operator or `)`"))
                    }
                }
            }
            Tok::LBrace => {
                self.cur.enter(t.span)?;
                let braced = self.sere_braced(t.span);
                self.cur.leave();
                let (r, strong) = braced?;
                if strong {
                    // `{r}!` = `{r}<>-> 1`
                    return Ok(Formula::econcat(r, Formula::tt()));
                }
                match self.cur.peek().kind {
                    Tok::UConcat { nono } | Tok::EConcat { nono } => {
                        let op = self.cur.next();
                        // `{r}[]=> f` = `{r;1}[]-> f`
                        let r = if nono {
                            Formula::concat([r, Formula::tt()])
                        } else {
                            r
                        };
                        // The right operand extends as far as possible.
                        self.cur.enter(op.span)?;
                        let f = self.formula();
                        self.cur.leave();
                        let f = f?;
                        Ok(match op.kind {
                            Tok::UConcat { .. } => Formula::uconcat(r, f),
                            _ => Formula::econcat(r, f),
                        })
                    }
                    // Spot: `{r}(f)` is `{r}[]-> f`.
                    Tok::LParen => {
                        let f = self.unary()?;
                        Ok(Formula::uconcat(r, f))
                    }
                    _ => Ok(Formula::closure(r)),
                }
            }
            Tok::Const(b) => Ok(Formula::constant(b)),
            Tok::Ident(name) => {
                if self.timed.is_some() {
                    self.names.push((name.clone(), t.span));
                }
                Ok(Formula::ap(&name))
            }
            _ => Err(self.unexpected(&t, "a formula")),
        }
    }

    /// The metric operator of token `t` over `operands`, its text starting
    /// at byte `start` and ending with the last token read: the
    /// proposition that stands for it, its component recorded.
    fn timed_operator(
        &mut self,
        t: &Token,
        start: usize,
        kind: TimedKind,
        interval: TimeInterval,
        operands: Vec<Formula>,
    ) -> Result<Formula, ParseError> {
        if self.cycles {
            return Ok(counted(kind, interval, operands));
        }
        let Some(timed) = &self.timed else {
            return Err(self.cur.error(t.span, ParseErrorKind::TimeBound));
        };
        let operator = &self.cur.input[t.span.start..t.span.end];
        for f in &operands {
            if let Some(g) = f
                .subformulas_postorder()
                .into_iter()
                .find(|g| !allowed_in_operand(g.op()))
            {
                let what = if g.op().is_future() {
                    format!("the future operator `{}`", g.op().symbol())
                } else {
                    "a SERE".to_string()
                };
                return Err(self.unsupported(
                    t.span,
                    format!(
                        "{what} inside `{}` is not supported yet: the operands of a time-bounded \
                         operator are past-time formulas (Boolean operators, `Y`, `Z`, `O`, `H`, \
                         `S`, `B`, `T`) and time-bounded operators",
                        operator.escape_debug()
                    ),
                ));
            }
        }
        let end = self.cur.last_span().end;
        let name = self.cur.input[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !timed.iter().any(|c| c.name == name) {
            let component = TimedComponent {
                name: name.clone(),
                kind,
                interval,
                operands,
            };
            self.timed.as_mut().expect("checked above").push(component);
        }
        Ok(Formula::ap(&name))
    }

    /// The error for token `t` where `expected` was expected; SERE
    /// operators outside braces say where they belong.
    fn unexpected(&self, t: &Token, expected: &'static str) -> ParseError {
        let text = self.cur.input[t.span.start..t.span.end].escape_debug();
        let unsupported = |msg: String| self.cur.error(t.span, ParseErrorKind::Unsupported(msg));
        match &t.kind {
            Tok::Semi | Tok::Colon | Tok::Repeat(..) | Tok::Delay(..) => unsupported(format!(
                "`{text}` is a SERE operator: write the sequence in braces, as in `{{a;b[*2]}}`"
            )),
            Tok::UConcat { .. } | Tok::EConcat { .. } => unsupported(format!(
                "the left operand of `{text}` must be a SERE in braces, as in `{{a;b}}{text} c`"
            )),
            Tok::RBrace | Tok::RBraceBang => self.cur.error(
                t.span,
                ParseErrorKind::Unexpected {
                    expected,
                    found: format!("`{text}`, which closes no `{{`"),
                },
            ),
            _ => self.cur.error(
                t.span,
                ParseErrorKind::Unexpected {
                    expected,
                    found: describe(self.cur.input, t),
                },
            ),
        }
    }

    fn unsupported(&self, span: Span, msg: impl Into<String>) -> ParseError {
        self.cur
            .error(span, ParseErrorKind::Unsupported(msg.into()))
    }

    // ---- SEREs, in Spot's syntax and precedence -----------------------
    //
    // From the loosest: `;`, `:`, `##` (delays), `->` `<->` (right, on
    // Booleans), `|` `||`, `^` `xor`, `&&` `&`, the past `S` `B` `T`
    // (right), repetitions (postfix), `!` and the past prefix operators.

    /// `{ r }` or `{ r }!`, the `{` (at `open`) already read; returns the
    /// SERE and whether it was strong.
    fn sere_braced(&mut self, open: Span) -> Result<(Formula, bool), ParseError> {
        let r = self.sere()?;
        let t = self.cur.peek().clone();
        match t.kind {
            Tok::RBrace | Tok::RBraceBang => {
                self.cur.next();
                Ok((r, t.kind == Tok::RBraceBang))
            }
            Tok::End => Err(self.cur.error(open, ParseErrorKind::UnclosedBrace)),
            Tok::UConcat { .. } | Tok::EConcat { .. } => {
                let text = &self.cur.input[t.span.start..t.span.end];
                Err(self.unsupported(
                    t.span,
                    format!(
                        "`{text}` joins a SERE and a formula (`{{r}}{text} f`): it cannot \
                         appear inside braces"
                    ),
                ))
            }
            _ => Err(self.unexpected(&t, "a SERE operator or `}`")),
        }
    }

    /// `;`, left to right (a run is concatenated once).
    fn sere(&mut self) -> Result<Formula, ParseError> {
        let mut v = vec![self.sere_fusion()?];
        while self.cur.peek().kind == Tok::Semi {
            self.cur.next();
            v.push(self.sere_fusion()?);
        }
        Ok(if v.len() == 1 {
            v.pop().expect("one")
        } else {
            Formula::concat(v)
        })
    }

    /// `:`, left to right.
    fn sere_fusion(&mut self) -> Result<Formula, ParseError> {
        let mut v = vec![self.sere_delay()?];
        while self.cur.peek().kind == Tok::Colon {
            self.cur.next();
            v.push(self.sere_delay()?);
        }
        Ok(if v.len() == 1 {
            v.pop().expect("one")
        } else {
            Formula::fusion(v)
        })
    }

    /// `r ##[i:j] s`, left associative.
    fn sere_delay(&mut self) -> Result<Formula, ParseError> {
        let mut lhs = self.sere_delay_operand()?;
        let mut levels = 0;
        let mut result = Ok(());
        while let Tok::Delay(lo, hi) = self.cur.peek().kind {
            let t = self.cur.next();
            if let Err(e) = self.cur.enter(t.span) {
                result = Err(e);
                levels += 1;
                break;
            }
            levels += 1;
            match self.sere_delay_operand() {
                Ok(rhs) => lhs = delay(lhs, rhs, lo, hi),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        result.map(|()| lhs)
    }

    /// An operand of `##`: `##[i:j] r` (`1[*i..j];r`) or an implication.
    fn sere_delay_operand(&mut self) -> Result<Formula, ParseError> {
        if let Tok::Delay(lo, hi) = self.cur.peek().kind {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            let r = self.sere_delay_operand();
            self.cur.leave();
            return Ok(Formula::concat([Formula::star(Formula::tt(), lo, hi), r?]));
        }
        self.sere_implies()
    }

    /// `->` and `<->` between Booleans, right associative.
    fn sere_implies(&mut self) -> Result<Formula, ParseError> {
        let lhs = self.sere_or()?;
        if !matches!(self.cur.peek().kind, Tok::Implies | Tok::Equiv) {
            return Ok(lhs);
        }
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let rhs = self.sere_implies();
        self.cur.leave();
        let rhs = rhs?;
        let sym = &self.cur.input[t.span.start..t.span.end];
        if lhs.has_future() || rhs.has_future() {
            return Err(self.unsupported(
                t.span,
                format!(
                    "`{sym}` in a SERE joins Boolean expressions; for a property after each \
                     match write `{{r}}[]-> f`"
                ),
            ));
        }
        Ok(if t.kind == Tok::Implies {
            Formula::implies(lhs, rhs)
        } else {
            Formula::equiv(lhs, rhs)
        })
    }

    /// `|` and `||`: union.
    fn sere_or(&mut self) -> Result<Formula, ParseError> {
        let mut v = vec![self.sere_xor()?];
        while self.cur.peek().kind == Tok::Or {
            self.cur.next();
            v.push(self.sere_xor()?);
        }
        Ok(if v.len() == 1 {
            v.pop().expect("one")
        } else {
            Formula::sere_or(v)
        })
    }

    /// `^` and `xor` between Booleans, left associative.
    fn sere_xor(&mut self) -> Result<Formula, ParseError> {
        let mut lhs = self.sere_and()?;
        let mut levels = 0;
        let mut result = Ok(());
        while self.cur.peek().kind == Tok::Xor {
            let t = self.cur.next();
            levels += 1;
            if let Err(e) = self.cur.enter(t.span) {
                result = Err(e);
                break;
            }
            let rhs = match self.sere_and() {
                Ok(rhs) => rhs,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            };
            if lhs.has_future() || rhs.has_future() {
                result = Err(self.unsupported(t.span, "`xor` in a SERE joins Boolean expressions"));
                break;
            }
            lhs = Formula::xor(lhs, rhs);
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        result.map(|()| lhs)
    }

    /// `&&` (length-matching) and `&` (non-length-matching
    /// intersection), left associative; on Booleans both are `&`. A run
    /// of `&&` is intersected once (`a && b && r` is the n-ary
    /// intersection that `Formula::sere_and` builds, as printed).
    fn sere_and(&mut self) -> Result<Formula, ParseError> {
        let mut run = vec![self.sere_past()?];
        let mut levels = 0;
        let mut result = Ok(());
        while matches!(self.cur.peek().kind, Tok::And | Tok::AndShort) {
            let t = self.cur.next();
            levels += 1;
            if let Err(e) = self.cur.enter(t.span) {
                result = Err(e);
                break;
            }
            match self.sere_past() {
                Ok(rhs) if t.kind == Tok::And => run.push(rhs),
                Ok(rhs) => {
                    let lhs = Formula::sere_and(std::mem::take(&mut run));
                    run.push(Formula::sere_and_nlm(lhs, rhs));
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        result.map(|()| {
            if run.len() == 1 {
                run.pop().expect("one")
            } else {
                Formula::sere_and(run)
            }
        })
    }

    /// The past binary operators `S`, `B`, `T` between Booleans (right
    /// associative); a future one is an error.
    fn sere_past(&mut self) -> Result<Formula, ParseError> {
        let lhs = self.sere_postfix()?;
        let Tok::Binary(op) = self.cur.peek().kind else {
            return Ok(lhs);
        };
        let t = self.cur.next();
        if !op.is_past() {
            return Err(self.temporal_in_sere(&t));
        }
        self.cur.enter(t.span)?;
        let rhs = self.sere_past();
        self.cur.leave();
        let rhs = rhs?;
        if lhs.has_future() || rhs.has_future() {
            return Err(self.unsupported(
                t.span,
                format!("`{}` in a SERE joins Boolean expressions", op.symbol()),
            ));
        }
        Ok(Formula::binop(op, lhs, rhs))
    }

    fn temporal_in_sere(&self, t: &Token) -> ParseError {
        let text = self.cur.input[t.span.start..t.span.end].escape_debug();
        self.unsupported(
            t.span,
            format!(
                "`{text}` is a temporal operator: inside braces only Boolean expressions are \
                 letters (a property after each match is `{{r}}[]-> f`)"
            ),
        )
    }

    /// An operand followed by repetitions.
    fn sere_postfix(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_unary()?;
        let mut levels = 0;
        let mut result = Ok(());
        while let Tok::Repeat(rep, lo, hi) = self.cur.peek().kind {
            let t = self.cur.next();
            levels += 1;
            if let Err(e) = self.cur.enter(t.span) {
                result = Err(e);
                break;
            }
            match self.repeat(r.clone(), &t, rep, lo, hi) {
                Ok(next) => r = next,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        for _ in 0..levels {
            self.cur.leave();
        }
        result.map(|()| r)
    }

    /// `r` repeated by the token `t`.
    fn repeat(
        &self,
        r: Formula,
        t: &Token,
        rep: Rep,
        lo: u32,
        hi: Option<u32>,
    ) -> Result<Formula, ParseError> {
        match rep {
            Rep::Star => Ok(Formula::star(r, lo, hi)),
            Rep::FStar => Ok(Formula::fusion_power(r, lo, hi)),
            Rep::Equal | Rep::Goto if r.has_future() => Err(self.unsupported(
                t.span,
                format!("`{}` repeats a Boolean, not a sequence", rep.opener()),
            )),
            Rep::Goto => Ok(psl::goto(r, lo, hi)),
            Rep::Equal => Ok(psl::nonconsecutive(r, lo, hi)),
        }
    }

    /// `!`, the past prefix operators, or a primary.
    fn sere_unary(&mut self) -> Result<Formula, ParseError> {
        let t = self.cur.peek().clone();
        match t.kind {
            Tok::Not => {
                self.cur.next();
                self.cur.enter(t.span)?;
                let r = self.sere_unary();
                self.cur.leave();
                let r = r?;
                if r.has_future() {
                    return Err(self.unsupported(
                        t.span,
                        "a SERE cannot be negated, only a Boolean can (outside braces, `!{r}` \
                         negates the sequence)",
                    ));
                }
                Ok(Formula::not(r))
            }
            Tok::Prefix(op, None) if op.is_past() => {
                self.cur.next();
                self.cur.enter(t.span)?;
                let r = self.sere_unary();
                self.cur.leave();
                let r = r?;
                if r.has_future() {
                    return Err(self.unsupported(
                        t.span,
                        format!(
                            "`{}` in a SERE applies to a Boolean expression",
                            op.symbol()
                        ),
                    ));
                }
                Ok(Formula::unop(op, r))
            }
            Tok::Prefix(..) | Tok::TimedPrefix(..) => Err(self.temporal_in_sere(&t)),
            _ => {
                self.cur.next();
                self.cur.enter(t.span)?;
                let r = self.sere_primary(t);
                self.cur.leave();
                r
            }
        }
    }

    /// Braces, parentheses, constants, propositions, `[*i..j]` alone
    /// (repeating `1`), `##` and `first_match(r)`; the token `t` read.
    fn sere_primary(&mut self, t: Token) -> Result<Formula, ParseError> {
        match &t.kind {
            Tok::LBrace => {
                let (r, strong) = self.sere_braced(t.span)?;
                if strong {
                    let end = self.cur.last_span().end;
                    return Err(self.unsupported(
                        Span {
                            start: t.span.start,
                            end,
                        },
                        "a strong sequence `{r}!` is a formula, not a SERE: inside braces \
                         write `{r}`",
                    ));
                }
                Ok(r)
            }
            Tok::LParen => {
                let r = self.sere()?;
                let u = self.cur.peek().clone();
                match u.kind {
                    Tok::RParen => {
                        self.cur.next();
                        Ok(r)
                    }
                    Tok::End => Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis)),
                    _ => Err(self.unexpected(&u, "a SERE operator or `)`")),
                }
            }
            Tok::Const(b) => Ok(Formula::constant(*b)),
            Tok::Ident(name) if name == "first_match" && self.cur.peek().kind == Tok::LParen => {
                self.first_match()
            }
            Tok::Ident(name) => Ok(Formula::ap(name)),
            Tok::Repeat(Rep::Star, lo, hi) => Ok(Formula::star(Formula::tt(), *lo, *hi)),
            Tok::Repeat(rep, ..) => Err(self.unsupported(
                t.span,
                match rep {
                    Rep::FStar => format!("`{}` needs a SERE before it", rep.opener()),
                    _ => format!("`{}` needs a Boolean before it", rep.opener()),
                },
            )),
            // `a | ##1 b | c` is `a | ##1 (b | c)`, as in Spot's grammar.
            Tok::Delay(lo, hi) => {
                let r = self.sere_delay_operand()?;
                Ok(Formula::concat([Formula::star(Formula::tt(), *lo, *hi), r]))
            }
            Tok::Binary(_) => Err(self.temporal_in_sere(&t)),
            Tok::End => Err(self.unexpected(&t, "a SERE")),
            _ => Err(self.unexpected(&t, "a SERE")),
        }
    }

    /// `first_match(r)`, `first_match` (token `t`) read: the matches of
    /// `r` that extend no shorter match.
    fn first_match(&mut self) -> Result<Formula, ParseError> {
        let open = self.cur.next();
        self.cur.enter(open.span)?;
        let r = self.sere();
        self.cur.leave();
        let r = r?;
        let u = self.cur.peek().clone();
        match u.kind {
            Tok::RParen => {
                self.cur.next();
            }
            Tok::End => {
                return Err(self
                    .cur
                    .error(open.span, ParseErrorKind::UnclosedParenthesis));
            }
            _ => return Err(self.unexpected(&u, "a SERE operator or `)`")),
        }
        Ok(Formula::first_match(r))
    }
}

/// Spot's `a ##[lo:hi] b` (its `formula::sugar_delay`): `a;1[*lo-1..hi-1];b`
/// when `lo > 0`; with `lo = 0` the delay may also be nothing, a fusion.
fn delay(a: Formula, b: Formula, lo: u32, hi: Option<u32>) -> Formula {
    let any = |lo: u32, hi: Option<u32>| Formula::star(Formula::tt(), lo, hi);
    if lo > 0 {
        return Formula::concat([a, any(lo - 1, hi.map(|h| h - 1)), b]);
    }
    if hi == Some(0) {
        return Formula::fusion([a, b]);
    }
    if !a.accepts_empty_word() {
        return Formula::fusion([a, Formula::concat([any(0, hi), b])]);
    }
    if !b.accepts_empty_word() {
        return Formula::fusion([Formula::concat([a, any(0, hi)]), b]);
    }
    Formula::sere_or([
        Formula::fusion([a.clone(), b.clone()]),
        Formula::concat([a, any(0, hi.map(|h| h - 1)), b]),
    ])
}

/// Expands a prefix operator with optional bounds into core operators.
fn apply_prefix(op: Op, bounds: Option<(u32, Option<u32>)>, f: Formula) -> Formula {
    let Some((lo, hi)) = bounds else {
        return Formula::unop(op, f);
    };
    match (op, hi) {
        (Op::X, _) => Formula::next_n(f, lo as usize),
        (_, None) => Formula::next_n(Formula::unop(op, f), lo as usize),
        // F[lo:hi] f = X^lo (f | X(f | X(... f))), G[lo:hi] f the same with
        // `&`; a window of the same operator below is merged into it.
        (_, Some(hi)) => Formula::bounded(op, lo, hi, f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Formula {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// A formula echoed under a caret cannot drive the terminal: an escape
    /// sequence in a quoted name once reached standard error raw.
    #[test]
    fn errors_show_control_characters_as_replacements() {
        let e = parse("G \"\u{1b}[31mred\u{202e}\" & G(b ->").unwrap_err();
        let shown = e.to_string();
        assert!(
            !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
            "{shown:?}"
        );
        assert!(
            shown.contains("G \"\u{FFFD}[31mred\u{FFFD}\" & G(b ->"),
            "{shown}"
        );
        // The caret stays under the end of the formula.
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines
            .iter()
            .rev()
            .find(|l| l.trim_start().starts_with('^'))
            .unwrap();
        let echoed = lines.iter().find(|l| l.contains("G \"")).unwrap();
        assert_eq!(caret.chars().count(), echoed.chars().count() + 1, "{shown}");
    }

    #[test]
    fn spot_precedence() {
        assert_eq!(p("a -> b -> c"), p("a -> (b -> c)"));
        assert_eq!(p("a <-> b -> c"), p("a <-> (b -> c)"));
        assert_eq!(p("a | b & c"), p("a | (b & c)"));
        assert_eq!(p("a xor b & c"), p("a xor (b & c)"));
        assert_eq!(p("a | b xor c"), p("a | (b xor c)"));
        assert_eq!(p("a & b U c"), p("a & (b U c)"));
        assert_eq!(p("a U b U c"), p("a U (b U c)"));
        assert_eq!(p("F a U b"), p("(F a) U b"));
        assert_eq!(p("!a U b"), p("(!a) U b"));
        assert_eq!(p("a U b R c W d"), p("a U (b R (c W d))"));
    }

    #[test]
    fn spot_and_spin_spellings() {
        assert_eq!(p("[] <> a"), p("G F a"));
        assert_eq!(p("a && b || !c"), p("a & b | ~c"));
        assert_eq!(p("a /\\ b \\/ c"), p("(a & b) | c"));
        assert_eq!(p("a V b"), p("a R b"));
        assert_eq!(p("a => b <=> c"), p("a -> (b <-> c)"));
        assert_eq!(p("a ^ b"), p("a xor b"));
        assert_eq!(p("TRUE & 1"), Formula::tt());
        assert_eq!(p("False | 0"), Formula::ff());
        assert_eq!(p("GFp0"), p("G(F(p0))"));
        assert_eq!(p("XFp1"), p("X F p1"));
        assert_eq!(p("G!p0"), p("G(!p0)"));
        assert_eq!(p("F1 & X0a").atomic_propositions(), vec!["F1", "X0a"]);
        assert_eq!(
            p("\"x > 3\" U \"say \\\"hi\\\"\"").atomic_propositions(),
            vec!["x > 3", "say \"hi\""]
        );
        assert_eq!(p("a /* comment */ & b"), p("a & b"));
    }

    #[test]
    fn past_operators() {
        assert_eq!(p("Y a").op(), Op::Y);
        assert_eq!(p("Za").op(), Op::Z);
        assert_eq!(p("O a & H b"), Formula::and([p("Oa"), p("Hb")]));
        assert_eq!(p("a S b B c T d"), p("a S (b B (c T d))"));
        assert_eq!(p("G(ack -> Y req)").to_spot(), "G(ack -> Yreq)");
    }

    #[test]
    fn bounded_operators() {
        assert_eq!(p("X[3] a"), p("XXXa"));
        assert_eq!(p("X[0] a"), p("a"));
        assert_eq!(p("X[!] a"), p("X a"));
        assert_eq!(p("F[2:4] a"), p("XX(a | X(a | Xa))"));
        assert_eq!(p("G[2..4] a"), p("XX(a & X(a & Xa))"));
        assert_eq!(p("F[1,1] a"), p("X a"));
        assert_eq!(p("F[2:$] a"), p("XXFa"));
        assert_eq!(p("G[1:] a"), p("XGa"));
        assert_eq!(p("X[]a"), p("XGa"));
        assert_eq!(p("G [3] a"), p("XXXa"));
    }

    #[test]
    fn errors_point_at_the_token() {
        let e = parse("G(a &)").unwrap_err();
        assert_eq!((e.line(), e.column()), (1, 6));
        assert_eq!(e.message(), "expected a formula, found `)`");
        let e = parse("(a U b").unwrap_err();
        assert_eq!(e.kind(), &ParseErrorKind::UnclosedParenthesis);
        assert_eq!(e.column(), 1);
        let e = parse("a b").unwrap_err();
        assert_eq!(e.column(), 3);
        assert_eq!(
            e.message(),
            "expected an operator or the end of the formula, found atomic proposition `b`"
        );
        let e = parse("a\n  & $").unwrap_err();
        assert_eq!((e.line(), e.column()), (2, 5));
        assert_eq!(
            e.to_string(),
            "syntax error at line 2, column 5: unexpected character `$`\n    & $\n      ^"
        );
        assert_eq!(parse("   ").unwrap_err().kind(), &ParseErrorKind::Empty);
        assert_eq!(
            parse("\"abc").unwrap_err().kind(),
            &ParseErrorKind::UnclosedString
        );
        assert!(matches!(
            parse("F[3:1] a").unwrap_err().kind(),
            ParseErrorKind::Bound(_)
        ));
        assert!(matches!(
            parse("X[99999] a").unwrap_err().kind(),
            ParseErrorKind::Bound(_)
        ));
        assert!(matches!(
            parse("F[x] a").unwrap_err().kind(),
            ParseErrorKind::Bound(_)
        ));
        assert_eq!(parse("12").unwrap_err().column(), 1);
        let deep = "(".repeat(5000) + "a" + &")".repeat(5000);
        assert_eq!(parse(&deep).unwrap_err().kind(), &ParseErrorKind::TooDeep);
        let deep = "!".repeat(5000) + "a";
        assert_eq!(parse(&deep).unwrap_err().kind(), &ParseErrorKind::TooDeep);
    }

    #[test]
    fn unicode_columns_count_characters() {
        let e = parse("\"é\" & é").unwrap_err();
        assert_eq!(e.column(), 7);
    }
}
