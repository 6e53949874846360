//! The PSL parser: the temporal layer (suffix implications, `abort`,
//! `until`, `next` and their strong forms), SEREs, and clocks for the
//! directives of vunits.

use std::collections::{HashMap, HashSet};

use super::lex::{Token, SVA_DELAY, T};
use crate::formula::atom::Literal;
use crate::formula::cursor::{Cursor, Span};
use crate::formula::parse::{ParseError, ParseErrorKind, MAX_BOUND};
use crate::formula::vunit::{Clock, ClockEdge};
use crate::formula::{Formula, Op};

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
pub(in crate::formula) fn is_signal(w: &str) -> bool {
    !KEYWORDS.contains(&w) && !matches!(w, "true" | "false" | "TRUE" | "FALSE")
}

/// Words that are operators, not propositions.
pub(super) const KEYWORDS: &[&str] = &[
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
pub(in crate::formula) enum Item {
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
    pub(in crate::formula) fn into_formula(self) -> Formula {
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
    pub(in crate::formula) fn unclocked(self) -> Item {
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
pub(in crate::formula) struct ClockUse {
    pub(in crate::formula) clock: Clock,
    pub(in crate::formula) span: Span,
}

pub(in crate::formula) struct Parser<'a> {
    pub(in crate::formula) cur: Cursor<'a, T>,
    /// Directives only: the clocks read (`@`), in the order of the text.
    /// Without it (`parse_psl`), `@` is an error.
    pub(in crate::formula) clocks: Option<Vec<ClockUse>>,
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
    pub(in crate::formula) fn new(
        input: &'a str,
        tokens: Vec<Token>,
        directive: bool,
    ) -> Parser<'a> {
        Parser {
            cur: Cursor::new(input, tokens),
            clocks: directive.then(Vec::new),
            not_sere: HashSet::new(),
            letters: HashMap::new(),
        }
    }

    pub(in crate::formula) fn is_sym(&self, s: &str) -> bool {
        matches!(self.cur.peek().kind, T::Sym(x) if x == s)
    }

    pub(in crate::formula) fn is_word(&self, w: &str) -> bool {
        matches!(&self.cur.peek().kind, T::Word(x) if x == w)
    }

    pub(in crate::formula) fn unexpected(&self, t: &Token, expected: &'static str) -> ParseError {
        match t.kind {
            T::Sym("@") => return self.clock_error(t.span),
            T::Sym("##") => return self.unsupported(t.span, SVA_DELAY),
            T::Bad(c) => return self.cur.error(t.span, ParseErrorKind::UnknownCharacter(c)),
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
            _ => quote(&self.cur.input[t.span.start..t.span.end]),
        };
        self.cur
            .error(t.span, ParseErrorKind::Unexpected { expected, found })
    }

    pub(in crate::formula) fn unsupported(&self, span: Span, msg: impl Into<String>) -> ParseError {
        self.cur
            .error(span, ParseErrorKind::Unsupported(msg.into()))
    }

    pub(in crate::formula) fn expect_sym(
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

    // ---- the temporal layer -------------------------------------------

    /// A property.
    pub(in crate::formula) fn formula(&mut self) -> Result<Formula, ParseError> {
        Ok(self.formula_item()?.into_formula())
    }

    /// A property, as an item: `->` and `<->`, right associative.
    pub(in crate::formula) fn formula_item(&mut self) -> Result<Item, ParseError> {
        let lhs = self.suffix_level()?;
        if self.is_sym("->") || self.is_sym("<->") {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            let rhs = self.formula_item()?;
            self.cur.leave();
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
        let t = self.cur.next();
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
                    ));
                }
                Item::Formula(f) if !f.has_future() => f,
                _ => return Err(self.unsupported(
                    t.span,
                    "the left side of a suffix implication must be a sequence `{...}` or a Boolean",
                )),
            };
        self.cur.enter(t.span)?;
        let rhs = self.suffix_level()?.into_formula();
        self.cur.leave();
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
        let kw = match &self.cur.peek().kind {
            T::Word(w) if w.starts_with("before") => w.clone(),
            _ => return Ok(lhs),
        };
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let rhs = self.before_level()?.into_formula();
        self.cur.leave();
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
        let kw = match &self.cur.peek().kind {
            T::Word(w) if w.starts_with("until") || w == "U" || w == "W" => w.clone(),
            _ => return Ok(lhs),
        };
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let rhs = self.until_level()?.into_formula();
        self.cur.leave();
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
        while matches!(&self.cur.peek().kind, T::Word(w) if w == "abort" || w == "async_abort" || w == "sync_abort")
        {
            let t = self.cur.next();
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
            self.cur.next();
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
        // Each `xor` nests one level deeper: counted, as in the LTL parser.
        let mut levels = 0;
        while self.is_sym("^") || self.is_word("xor") {
            let t = self.cur.next();
            self.cur.enter(t.span)?;
            levels += 1;
            let rhs = self.and_level()?;
            let clock = lift(&[&lhs, &rhs]);
            lhs = clocked(Formula::xor(lhs.into_formula(), rhs.into_formula()), clock);
        }
        for _ in 0..levels {
            self.cur.leave();
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
            self.cur.next();
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
        self.cur.next();
        let hi = if self.is_word("inf") || self.is_sym("$") {
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

    /// `(b)` after `next_event`: a Boolean.
    fn event(&mut self) -> Result<Formula, ParseError> {
        let open = self.expect_sym("(", "`(`")?;
        self.cur.enter(open.span)?;
        let b = self.formula()?;
        self.cur.leave();
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
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let r = self.unary_inner(t);
        self.cur.leave();
        let mut item = r?;
        // `φ @(posedge clk)`: the tightest operator (IEEE 1850's table).
        while self.clocks.is_some() && self.is_sym("@") {
            let at = self.cur.next();
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
                    self.cur.next();
                    return Ok(item.parenthesized());
                }
                if self.cur.peek().kind == T::End {
                    return Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis));
                }
                let u = self.cur.peek().clone();
                return Err(self.unexpected(&u, "an operator or `)`"));
            }
            T::Sym("{") => {
                let sere = self.sere_braced(t.span)?;
                let end = self.cur.last_span().end;
                let mut strong = false;
                if self.is_sym("!") {
                    self.cur.next();
                    strong = true;
                }
                if self.is_sym("@") && self.clocks.is_none() {
                    let at = self.cur.peek().span;
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
                ));
            }
            T::Num(n @ (0 | 1)) => return Ok(Item::Formula(Formula::constant(*n == 1))),
            T::Literal(l) => return Ok(Item::Formula(self.literal_boolean(&t, l)?)),
            T::Sym("$") if self.clocks.is_some() => {
                if let T::Word(w) = &self.cur.peek().kind {
                    let psl = match w.as_str() {
                        "rose" | "fell" => format!("`{w}(...)`"),
                        "past" => "`prev(...)`".to_string(),
                        _ => "PSL's built-in functions".to_string(),
                    };
                    let span = Span {
                        start: t.span.start,
                        end: self.cur.peek().span.end,
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
                // Nested as LTL's `G[lo:hi]` and `F[lo:hi]`: `X^lo (g & X(g
                // & …))`, linear in the count, where the conjunction of
                // every `X^k g` is quadratic to build and cubic to simplify
                // (and nested windows of one kind merged into one).
                let op = if word.starts_with("next_a") {
                    Op::G
                } else {
                    Op::F
                };
                f(Formula::bounded(op, lo, hi, g))
            }
            "next_event" | "next_event!" => {
                let b = self.event()?;
                let n = if self.is_sym("[") { self.count()? } else { 1 };
                if n == 0 {
                    let at = self.cur.tokens[self.cur.pos - 2].span;
                    return Err(self.cur.error(
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
                    let at = self.cur.tokens[self.cur.pos - 2].span;
                    return Err(self.cur.error(
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
    pub(in crate::formula) fn clock_after_at(
        &mut self,
        at: Span,
    ) -> Result<(Clock, Span), ParseError> {
        let clock = self.clock_expr(at)?;
        let span = Span {
            start: at.start,
            end: self.cur.last_span().end,
        };
        Ok((clock, span))
    }

    /// A clock expression, in parentheses or not: `posedge clk`,
    /// `negedge clk`, `rose(clk)`, `fell(clk)`. `at` starts the span of
    /// the errors (the `@`, or the first token).
    pub(in crate::formula) fn clock_expr(&mut self, at: Span) -> Result<Clock, ParseError> {
        if self.is_sym("(") {
            let open = self.cur.next();
            self.cur.enter(open.span)?;
            let clock = self.clock_expr(at);
            self.cur.leave();
            let clock = clock?;
            if !self.is_sym(")") {
                let t = self.cur.peek().clone();
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
            self.cur.next();
            return Ok(clock);
        }
        let t = self.cur.next();
        let edge = match &t.kind {
            T::Word(w) if w == "posedge" || w == "rose" => ClockEdge::Posedge,
            T::Word(w) if w == "negedge" || w == "fell" => ClockEdge::Negedge,
            T::Word(w) if is_signal(w) => {
                let span = Span {
                    start: at.start,
                    end: self.cur.last_span().end,
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
        let name = self.cur.next();
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
            self.cur.next();
            let rhs = self.cur.next();
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
        let kind = |k: usize| {
            self.cur
                .tokens
                .get(self.cur.pos + k)
                .map(|t| t.kind.clone())
        };
        let (Some(T::Num(hi)), next) = (kind(1), kind(2)) else {
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
            self.cur.next();
            return Ok(r);
        }
        if self.cur.peek().kind == T::End {
            return Err(self.unsupported(open, "this `{` is never closed"));
        }
        let u = self.cur.peek().clone();
        if u.kind == T::Sym("@") {
            return Err(self.clock_error(u.span));
        }
        Err(self.unexpected(&u, "a SERE operator or `}`"))
    }

    /// `;` and `:` (the loosest in a SERE), left to right.
    fn sere(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_or()?;
        // A run of `;` is gathered and concatenated once: concatenating
        // one operand at a time copied the run each time (`{a1; …; an}`
        // was quadratic).
        let mut run: Vec<Formula> = Vec::new();
        while self.is_sym(";") || self.is_sym(":") {
            let fusion = self.cur.next().kind == T::Sym(":");
            let s = self.sere_or()?;
            if fusion {
                if !run.is_empty() {
                    r = Formula::concat(std::iter::once(r).chain(run.drain(..)));
                }
                r = Formula::fusion([r, s]);
            } else {
                run.push(s);
            }
        }
        if !run.is_empty() {
            r = Formula::concat(std::iter::once(r).chain(run));
        }
        Ok(r)
    }

    fn sere_or(&mut self) -> Result<Formula, ParseError> {
        let mut v = vec![self.sere_and()?];
        while self.is_sym("|") || self.is_sym("||") {
            self.cur.next();
            v.push(self.sere_and()?);
        }
        Ok(Formula::sere_or(v))
    }

    /// `&&` and `&`, left associative; a run of `&&` is intersected once
    /// (the n-ary intersection that `Formula::sere_and` builds and the
    /// printers write).
    fn sere_and(&mut self) -> Result<Formula, ParseError> {
        let mut run = vec![self.sere_within()?];
        while self.is_sym("&&") || self.is_sym("&") {
            let length_matching = self.cur.next().kind == T::Sym("&&");
            let s = self.sere_within()?;
            if length_matching {
                run.push(s);
            } else {
                let r = Formula::sere_and(std::mem::take(&mut run));
                run.push(Formula::sere_and_nlm(r, s));
            }
        }
        Ok(if run.len() == 1 {
            run.pop().expect("one")
        } else {
            Formula::sere_and(run)
        })
    }

    fn sere_within(&mut self) -> Result<Formula, ParseError> {
        let mut r = self.sere_repeat()?;
        while self.is_word("within") {
            self.cur.next();
            let s = self.sere_repeat()?;
            let any = Formula::star(Formula::tt(), 0, None);
            r = Formula::sere_and([Formula::concat([any.clone(), r, any]), s]);
        }
        Ok(r)
    }

    /// A SERE operand followed by repetitions.
    fn sere_repeat(&mut self) -> Result<Formula, ParseError> {
        let t = self.cur.peek().clone();
        let mut r = match t.kind {
            // `[*2]`, `[+]` alone repeat `true`.
            T::Sym("[*") | T::Sym("[+]") => Formula::tt(),
            T::Sym("[=") | T::Sym("[->") => {
                return Err(self.unsupported(t.span, "`[=` and `[->` need a Boolean before them"));
            }
            _ => self.sere_primary()?,
        };
        loop {
            let t = self.cur.peek().clone();
            r = match t.kind {
                T::Sym("[*") => {
                    self.cur.next();
                    let (lo, hi) = if self.is_sym("]") {
                        (0, None)
                    } else {
                        self.range_body(true, t.span)?
                    };
                    self.expect_sym("]", "`]`")?;
                    Formula::star(r, lo, hi)
                }
                T::Sym("[+]") => {
                    self.cur.next();
                    Formula::star(r, 1, None)
                }
                T::Sym("[=") | T::Sym("[->") => {
                    self.cur.next();
                    if r.has_future() {
                        return Err(self.unsupported(
                            t.span,
                            format!(
                                "`{}` repeats a Boolean, not a sequence",
                                &self.cur.input[t.span.start..t.span.end]
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
                            return Err(self.cur.error(
                                t.span,
                                ParseErrorKind::Bound("`[->` counts occurrences from 1".into()),
                            ));
                        }
                        goto(r, lo, hi)
                    } else {
                        nonconsecutive(r, lo, hi)
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
            self.cur.pos = end;
            if let Some(v) = self.clocks.as_mut() {
                v.extend(clocks);
            }
            return r;
        }
        let (depth, n) = (self.cur.depth, self.clocks.as_ref().map_or(0, Vec::len));
        let r = self.formula();
        self.cur.depth = depth;
        let clocks = self.clocks.as_ref().map_or(Vec::new(), |v| v[n..].to_vec());
        self.letters
            .insert(start, (r.clone(), self.cur.pos, clocks));
        r
    }

    fn sere_primary(&mut self) -> Result<Formula, ParseError> {
        let t = self.cur.next();
        self.cur.enter(t.span)?;
        let r = self.sere_primary_inner(t);
        self.cur.leave();
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
                let start = self.cur.pos;
                let (depth, clocks) = (self.cur.depth, self.clocks.as_ref().map(Vec::len));
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
                        self.cur.pos = start;
                        self.cur.depth = depth;
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
                    let op = self.cur.next();
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
                    self.cur.next();
                    return Ok(r);
                }
                if self.cur.peek().kind == T::End {
                    return Err(self.cur.error(t.span, ParseErrorKind::UnclosedParenthesis));
                }
                let u = self.cur.peek().clone();
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

/// `b[=lo:hi]` = `b[->lo:hi] ; !b[*]` (also for `lo = 0`); Spot's
/// `b[=lo..hi]` is the same.
pub(in crate::formula) fn nonconsecutive(b: Formula, lo: u32, hi: Option<u32>) -> Formula {
    let nb = Formula::star(Formula::not(b.clone()), 0, None);
    let occurrences = Formula::star(Formula::concat([nb.clone(), b]), lo, hi);
    Formula::concat([occurrences, nb])
}

/// `b[->lo:hi]` = `{!b[*] ; b}[*lo:hi]` (Spot's `b[->lo..hi]` too).
pub(in crate::formula) fn goto(b: Formula, lo: u32, hi: Option<u32>) -> Formula {
    let step = Formula::concat([Formula::star(Formula::not(b.clone()), 0, None), b]);
    Formula::star(step, lo, hi)
}
