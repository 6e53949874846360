//! PSL directives and verification units: properties with their clock,
//! their reset and what to do with them (`assert`, `assume`, `restrict`,
//! `cover`), as hardware verification engineers write them.
//!
//! This module reads them and returns them as data: the property becomes
//! a [`Formula`] read one letter per clock tick, and the clock
//! ([`Clock`]) and the reset ([`Disable`]) are given beside it, for the
//! back end to sample and to restart the checker. It knows nothing about
//! back ends.
//!
//! * [`parse_directive`] reads one directive, as [`parse_psl`](super::parse_psl)
//!   reads one property (the directive keyword is optional there).
//! * [`parse_vunits`] reads a `.psl` file of verification units.
//!
//! ```
//! use monitor_core::formula::{parse_directive, parse_psl, ClockEdge};
//!
//! let d = parse_directive("assert always (req -> next ack) @(posedge clk);")?;
//! assert_eq!(d.formula, parse_psl("always (req -> next ack)")?);
//! let clock = d.clock.as_ref().unwrap();
//! assert_eq!((clock.signal.as_str(), clock.edge), ("clk", ClockEdge::Posedge));
//! assert!(d.disable.is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Directives
//!
//! ```text
//! [LABEL:] assert|assume|restrict|cover PROPERTY [report "text"];
//! [LABEL:] assert|assume|restrict|cover property (PROPERTY);      (SVA style)
//! PROPERTY = [@(posedge clk)] [disable iff (b)] PSL property
//! ```
//!
//! The property is a PSL property as [`psl`](super::psl) reads it, with
//! clocks. SVA's sequence operators (`##1`, `throughout`, `$rose`, ...)
//! are not read: they are reported at their column, with the PSL to
//! write instead.
//!
//! # Clocks
//!
//! `@(posedge clk)`, `@(negedge clk)`, `@(rose(clk))` (= posedge) and
//! `@(fell(clk))` (= negedge), after a property or first in it (SVA's
//! `@(posedge clk) p`), or `default clock = (posedge clk);` in a vunit.
//! A checker has one clock, so a directive has at most one:
//!
//! * `@` binds tighter than any other operator (IEEE 1850's table):
//!   `always (req -> next ack) @(posedge clk)` is
//!   `always ((req -> next ack) @(posedge clk))`. A clock moves out of
//!   Boolean connectives whose operands all have it, and out of
//!   `always`/`never`: on a clock that ticks forever, `always (φ @c)`
//!   checks φ at exactly the ticks where `(always φ) @c` does. That
//!   clock, or one written first, is the directive's clock; otherwise
//!   the vunit's default clock is (a default clock applies to the
//!   directives without a clock of their own, IEEE 1850).
//! * Every other clock in the directive must be the same clock (then it
//!   changes nothing); a different one is an error naming both. Without a
//!   directive clock, a clock on part of the property (`a && (b @c)`,
//!   `next (b @c)`, `always {a} |=> {b} @c`) is an error: the rest
//!   would be read at every cycle. Put the property in parentheses,
//!   `(always {a} |=> {b}) @c`, or write the clock first,
//!   `@c always {a} |=> {b}`.
//! * Clocks of different directives may differ: each carries its own.
//!
//! # Resets
//!
//! `disable iff (b)` (SVA; also before a PSL property) and an *outermost*
//! `φ abort b`, `φ async_abort b` or `φ sync_abort b` become the
//! directive's [`Disable`] and leave the formula: `b` is a reset, during
//! which the checker is idle and after which it starts again. With PSL's
//! own semantics, `(always p) abort rst` with `rst` high in the first
//! cycle holds forever, whatever comes after: no hardware user means a
//! checker that gives up at the first reset; a checker with a reset
//! restarts when it falls. An `abort` inside the property (under
//! `always`, say) keeps its PSL meaning. `disable iff` and `abort` are
//! asynchronous, `sync_abort` is synchronous ([`Disable::synchronous`]).
//! A vunit's `default disable iff (b);` applies to the directives without
//! a reset of their own. A directive with both `disable iff` and an
//! outermost `abort` is an error: a checker has one reset.
//!
//! # What each directive checks
//!
//! The [`Directive::formula`] of every kind is a property whose bad
//! prefixes are what the checker reports as a failure:
//!
//! * `assert φ`, `assume φ`, `restrict φ`: φ, read at the first tick
//!   (PSL evaluates a property at the first cycle: write `always` for a
//!   property of every cycle).
//! * `assert property (φ)`, `assume property (φ)`, `restrict property
//!   (φ)` (SVA style): `always φ` (φ itself if it is already an
//!   `always`). An SVA concurrent assertion starts an evaluation attempt at
//!   every tick of its clock (IEEE 1800-2017, 16.14), so a user who writes
//!   `assert property (@(posedge clk) req |=> ack)` means every cycle.
//! * `cover {r}` (or `cover property ({r})`, `cover b` for a Boolean
//!   `b`): `never {r}!`, i.e. `always !{r}!`, whose failures are exactly
//!   the coverings.
//!
//! A cover is *covered* when `r` is matched somewhere on the trace: the
//! match may start at any cycle, not only at the first. IEEE 1850 (clause
//! 7.1, verification directives) has `cover` check that a scenario
//! happened during verification, and does not anchor it to the first
//! cycle as it anchors `assert`; simulators read it so: nvc builds the
//! automaton of a cover like that of an `always`, restarted at every
//! cycle, and its regression test `test/regress/psl7.vhd` reports `cover
//! {x; not x and not y; y}` covered by a match that starts at the second
//! clock tick. SVA agrees: `cover property` reports every successful
//! evaluation attempt, and an attempt starts at every tick (IEEE
//! 1800-2017, 16.14). Only complete, non-empty matches count, as `{r}!`
//! requires (`cover {[*0]}` is never covered).
//!
//! The exact monitor of `never {r}!` fails at the first cycle where a
//! match is complete *or can no longer be avoided* (`{a; true}` is
//! covered one cycle after `a`, whatever comes next). The informative
//! monitor (`--informative`) fails exactly at the cycle where a match
//! completes: its bad prefixes are the finite paths on which the negation
//! `eventually! {r}!` holds in the strong semantics of Launiainen,
//! Heljanko and Junttila ("Efficient Model Checking of PSL Safety
//! Properties"), which are those that contain a complete match of `r`.
//!
//! # Verification units
//!
//! ```text
//! vunit NAME [(module | top.inst)] {
//!     default clock = (posedge clk);          // also without parentheses
//!     default disable iff (rst);
//!     sequence REQ_ACK = {req; ack};
//!     property HANDSHAKE = always REQ_ACK |=> done;
//!     [LABEL:] assert|assume|restrict|cover ... [report "text"];
//! }
//! ```
//!
//! The default clock and reset apply to every directive of the vunit,
//! wherever they are declared in it. Named sequences and properties are
//! expanded where they are used (a property in parentheses); a name used
//! before its declaration, or in its own, is an error. Any other name is
//! a signal of the design (the formula layer cannot tell an unknown name
//! from a signal). Comments `//`, `--` and `/* */` are skipped. Verilog
//! modelling statements (`wire`, `assign`, ...), `inherit`, parameters of
//! declarations, `fairness` and `endpoint` are reported as not supported,
//! at their column.

use std::cell::Cell;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use super::parse::{make_error, ParseError, ParseErrorKind, Span};
use super::psl::{is_signal, lex, ClockUse, Item, Parser, Token, T};
use super::{Formula, Op};

/// The edge of a clock signal at which a checker samples.
///
/// ```
/// use monitor_core::formula::ClockEdge;
/// assert_eq!(ClockEdge::Negedge.to_string(), "negedge");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockEdge {
    /// The rising edge: `@(posedge clk)`, `@(rose(clk))`.
    Posedge,
    /// The falling edge: `@(negedge clk)`, `@(fell(clk))`.
    Negedge,
}

impl fmt::Display for ClockEdge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ClockEdge::Posedge => "posedge",
            ClockEdge::Negedge => "negedge",
        })
    }
}

/// A clock: `@(posedge clk)` or `@(negedge clk)`. Its `Display` is the
/// clock expression, `posedge clk`.
///
/// ```
/// use monitor_core::formula::{parse_directive, Clock, ClockEdge};
/// let d = parse_directive("assert property (@(fell(clk)) always a);")?;
/// let clock = Clock { signal: "clk".into(), edge: ClockEdge::Negedge };
/// assert_eq!(d.clock, Some(clock.clone()));
/// assert_eq!(clock.to_string(), "negedge clk");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The clock signal, as written (`clk`, `top.clk`).
    pub signal: String,
    /// The sampling edge.
    pub edge: ClockEdge,
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.edge, self.signal)
    }
}

/// The level at which a reset signal is active.
///
/// ```
/// use monitor_core::formula::ActiveLevel;
/// assert_eq!(ActiveLevel::Low.to_string(), "low");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActiveLevel {
    /// Active high: `disable iff (rst)`.
    High,
    /// Active low: `disable iff (!rst_n)`.
    Low,
}

impl fmt::Display for ActiveLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ActiveLevel::High => "high",
            ActiveLevel::Low => "low",
        })
    }
}

/// The reset of a directive: `disable iff (b)`, or an outermost `abort b`
/// (`async_abort b`, `sync_abort b`). While `condition` holds the checker
/// is idle; it starts again when it falls.
///
/// ```
/// use monitor_core::formula::{parse_directive, parse_psl, ActiveLevel};
/// let d = parse_directive("assert (always (req -> next ack)) sync_abort !rst_n;")?;
/// let reset = d.disable.as_ref().unwrap();
/// assert_eq!(reset.condition, parse_psl("!rst_n")?);
/// assert!(reset.synchronous);
/// assert_eq!(reset.signal(), Some(("rst_n", ActiveLevel::Low)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Disable {
    /// The reset condition, a Boolean formula (no temporal operator).
    pub condition: Formula,
    /// Whether the reset is sampled at the clock (`sync_abort`) rather than
    /// asynchronous (`disable iff`, `abort`, `async_abort`).
    pub synchronous: bool,
}

impl Disable {
    /// The reset signal and its active level, when the condition is a
    /// signal (`rst`) or a negated signal (`!rst_n`); `None` for other
    /// conditions (`rst || halt`).
    ///
    /// ```
    /// use monitor_core::formula::{parse_directive, ActiveLevel};
    /// let d = parse_directive("assert disable iff (rst) always a;")?;
    /// assert_eq!(d.disable.unwrap().signal(), Some(("rst", ActiveLevel::High)));
    /// let d = parse_directive("assert disable iff (rst || halt) always a;")?;
    /// assert_eq!(d.disable.unwrap().signal(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn signal(&self) -> Option<(&str, ActiveLevel)> {
        let c = &self.condition;
        if let Some(name) = c.ap_name() {
            return Some((name, ActiveLevel::High));
        }
        if c.op() == Op::Not {
            if let Some(name) = c.child(0).ap_name() {
                return Some((name, ActiveLevel::Low));
            }
        }
        None
    }
}

/// What a directive asks of its property.
///
/// ```
/// use monitor_core::formula::{parse_directive, DirectiveKind};
/// assert_eq!(parse_directive("assume always a;")?.kind, DirectiveKind::Assume);
/// assert_eq!(parse_directive("always a")?.kind, DirectiveKind::Assert);
/// assert_eq!(DirectiveKind::Cover.to_string(), "cover");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DirectiveKind {
    /// `assert`: the design must satisfy the property.
    Assert,
    /// `assume`: the environment satisfies the property.
    Assume,
    /// `cover`: the sequence should happen; the [`Directive::formula`]
    /// fails when it does.
    Cover,
    /// `restrict`: only traces that satisfy the property are considered.
    Restrict,
}

impl fmt::Display for DirectiveKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DirectiveKind::Assert => "assert",
            DirectiveKind::Assume => "assume",
            DirectiveKind::Cover => "cover",
            DirectiveKind::Restrict => "restrict",
        })
    }
}

/// A directive: a property, what to do with it, its clock and its reset.
///
/// `text` is the property as written (after the directive keyword, or
/// inside SVA's `property (...)`; with its clock and `disable iff`, without
/// `report`), and `span` its place in the input: `input[span] == text`.
///
/// ```
/// use monitor_core::formula::{parse_directive, parse_psl, DirectiveKind};
/// let input = "p1: cover {req; ack} @(posedge clk) report \"handshake\";";
/// let d = parse_directive(input)?;
/// assert_eq!(d.kind, DirectiveKind::Cover);
/// assert_eq!(d.label.as_deref(), Some("p1"));
/// assert_eq!(d.report.as_deref(), Some("handshake"));
/// assert_eq!(d.text, "{req; ack} @(posedge clk)");
/// assert_eq!(&input[d.span.clone()], d.text);
/// // A cover fails when it is covered.
/// assert_eq!(d.formula, parse_psl("never {req; ack}!")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Directive {
    /// `assert`, `assume`, `restrict` or `cover`.
    pub kind: DirectiveKind,
    /// The label, `p1` in `p1: assert ...;`.
    pub label: Option<String>,
    /// What the checker checks, without clock and reset: its bad prefixes
    /// are the failures (for a cover, the coverings; see the [module
    /// documentation](self)).
    pub formula: Formula,
    /// The directive's clock, or the vunit's default clock; `None` when the
    /// property reads every cycle.
    pub clock: Option<Clock>,
    /// The reset: `disable iff`, an outermost `abort`, or the vunit's
    /// `default disable iff`.
    pub disable: Option<Disable>,
    /// The message of `report "..."`.
    pub report: Option<String>,
    /// The source text of the property.
    pub text: String,
    /// Where `text` is in the input (byte offsets).
    pub span: Range<usize>,
}

impl Directive {
    /// An error about this directive (found after parsing, say by a back
    /// end), pointing at its property in `input`, the text it was read
    /// from. Like every [`ParseError`], its `Display` says "syntax error";
    /// [`ParseError::line`], [`ParseError::column`] and
    /// [`ParseError::message`] give the parts to word it otherwise.
    ///
    /// ```
    /// use monitor_core::formula::parse_vunits;
    /// let input = "vunit v {\n  assert always eventually! done;\n}";
    /// let d = &parse_vunits(input)?[0].directives[0];
    /// let err = d.error(input, "not a safety property");
    /// assert_eq!((err.line(), err.column()), (2, 10));
    /// assert!(err.to_string().contains("not a safety property"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn error(&self, input: &str, message: impl Into<String>) -> ParseError {
        let start = floor_char_boundary(input, self.span.start);
        let end = floor_char_boundary(input, self.span.end).max(start);
        make_error(
            input,
            Span { start, end },
            ParseErrorKind::Unsupported(message.into()),
        )
    }
}

/// A verification unit: `vunit NAME (module) { ... }`.
///
/// ```
/// use monitor_core::formula::{parse_vunits, Clock, ClockEdge};
/// let units = parse_vunits("vunit arb (arbiter) { default clock = posedge clk; assert always !(g0 && g1); }")?;
/// assert_eq!(units[0].name, "arb");
/// assert_eq!(units[0].module.as_deref(), Some("arbiter"));
/// let clk = Clock { signal: "clk".into(), edge: ClockEdge::Posedge };
/// assert_eq!(units[0].directives[0].clock, Some(clk));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Vunit {
    /// The name of the unit.
    pub name: String,
    /// The module or instance it binds to (`arbiter`, `top.u_arb`), if
    /// given.
    pub module: Option<String>,
    /// Its directives, in order.
    pub directives: Vec<Directive>,
    /// Where the unit is in the input, from `vunit` to `}` (byte offsets).
    pub span: Range<usize>,
}

/// Parses one directive: a PSL property as [`parse_psl`](super::parse_psl)
/// reads it, with an optional label, directive keyword (`assert` if
/// none), clock, reset, `report` and final `;`.
///
/// ```
/// use monitor_core::formula::{parse_directive, parse_psl};
///
/// let d = parse_directive(
///     "assert property (@(posedge clk) disable iff (rst) always (req -> next ack));",
/// )?;
/// assert_eq!(d.formula, parse_psl("always (req -> next ack)")?);
/// assert_eq!(d.clock.unwrap().to_string(), "posedge clk");
/// assert_eq!(d.disable.unwrap().condition, parse_psl("rst")?);
///
/// let err = parse_directive("assert (a @(posedge c1)) && (b @(posedge c2));").unwrap_err();
/// assert_eq!(err.column(), 32);
/// assert!(err.message().contains("`@(posedge c1)`"));
///
/// let err = parse_directive("assert property (@(posedge clk) req ##1 ack);").unwrap_err();
/// assert_eq!(err.column(), 37);
/// assert!(err.message().starts_with("SVA delay `##` is not supported"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_directive(input: &str) -> Result<Directive, ParseError> {
    let tokens = lex(input, true)?;
    let first = &tokens[0];
    if first.kind == T::End {
        return Err(make_error(input, first.span, ParseErrorKind::Empty));
    }
    if let T::Word(w) = &first.kind {
        let declaration = matches!(w.as_str(), "default" | "property" | "sequence")
            && !matches!(tokens[1].kind, T::Sym("(") | T::Sym("{"));
        if w == "vunit" || declaration {
            let msg = if w == "vunit" {
                "this is a verification unit: read it with `parse_vunits`".to_string()
            } else {
                format!(
                    "`{w}` declarations belong in a verification unit: read the file with `parse_vunits`"
                )
            };
            return Err(unsupported(input, first.span, msg));
        }
    }
    let (item, end) = scan_item(&tokens, 0);
    let end_span = match tokens[end].kind {
        T::Sym("}") => {
            return Err(unexpected(
                input,
                &tokens[end],
                "an operator, `report` or `;`",
            ));
        }
        T::Sym(";") => {
            let after = &tokens[end + 1];
            if after.kind != T::End {
                return Err(unexpected(
                    input,
                    after,
                    "the end of the directive (one directive only: `parse_vunits` reads several)",
                ));
            }
            tokens[end].span
        }
        _ => tokens[end].span,
    };
    let raw = &tokens[item];
    let shape = Shape::of(raw, true);
    let body = raw[shape.header..shape.body_end].to_vec();
    directive(input, raw, end_span, &shape, body, &Defaults::default())
}

/// Parses the verification units of a `.psl` file.
///
/// ```
/// use monitor_core::formula::{parse_vunits, parse_psl, DirectiveKind};
///
/// let units = parse_vunits(r#"
///     vunit handshake (top.u_bus) {
///         default clock = (posedge clk);
///         default disable iff (rst);
///         sequence REQ = {req; !ack[*0:3]};
///         property RESP = always REQ |=> ack;
///         p_resp: assert RESP report "no ack";
///         c_req: cover {req; ack};
///     }
/// "#)?;
/// let d = &units[0].directives;
/// assert_eq!(d[0].label.as_deref(), Some("p_resp"));
/// assert_eq!(d[0].formula, parse_psl("always {req; !ack[*0:3]} |=> ack")?);
/// assert_eq!(d[0].text, "RESP");
/// assert_eq!(d[1].kind, DirectiveKind::Cover);
/// assert!(d.iter().all(|d| d.clock.is_some() && d.disable.is_some()));
///
/// let err = parse_vunits("vunit v {\n  wire x = a + b;\n}").unwrap_err();
/// assert_eq!((err.line(), err.column()), (2, 3));
/// assert!(err.message().contains("`wire` is not supported"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_vunits(input: &str) -> Result<Vec<Vunit>, ParseError> {
    let tokens = lex(input, true)?;
    let mut units: Vec<Vunit> = Vec::new();
    let mut i = 0;
    loop {
        let t = &tokens[i];
        match &t.kind {
            T::End if units.is_empty() => return Err(unexpected(input, t, "`vunit`")),
            T::End => return Ok(units),
            T::Word(w) if w == "vunit" => {
                let (unit, next) = vunit(input, &tokens, i)?;
                if units.iter().any(|u| u.name == unit.name) {
                    return Err(unsupported(
                        input,
                        tokens[i + 1].span,
                        format!("vunit `{}` is declared twice", unit.name),
                    ));
                }
                units.push(unit);
                i = next;
            }
            T::Word(w) if w == "vmode" || w == "vprop" => {
                return Err(unsupported(
                    input,
                    t.span,
                    format!("`{w}` units are not supported: write a `vunit`"),
                ));
            }
            _ => return Err(unexpected(input, t, "`vunit`")),
        }
    }
}

/// The largest number of tokens a directive or a declaration may expand
/// to, with its named properties and sequences.
const MAX_EXPANSION: usize = 100_000;

/// The largest number of tokens all the items of a vunit may expand to.
const MAX_VUNIT_EXPANSION: usize = 1_000_000;

/// What a vunit gives its directives.
#[derive(Default)]
struct Defaults {
    clock: Option<ClockUse>,
    disable: Option<Formula>,
}

/// The end of the item that starts at `start`: the range of its tokens
/// and the index of the token that ends it (a `;` or a `}` outside braces,
/// or the end).
fn scan_item(tokens: &[Token], start: usize) -> (Range<usize>, usize) {
    let mut depth = 0usize;
    let mut i = start;
    loop {
        match tokens[i].kind {
            T::End => return (start..i, i),
            T::Sym(";") if depth == 0 => return (start..i, i),
            T::Sym("}") if depth == 0 => return (start..i, i),
            T::Sym("{") => depth += 1,
            T::Sym("}") => depth -= 1,
            _ => {}
        }
        i += 1;
    }
}

/// Where the parts of a directive are, in its tokens (without `;`):
/// `[LABEL :] KIND [property (] BODY [)] [report "..."]`.
struct Shape {
    label: Option<String>,
    kind: Option<DirectiveKind>,
    sva: bool,
    /// The index of the first token of the body.
    header: usize,
    /// The index after its last token.
    body_end: usize,
}

impl Shape {
    fn of(raw: &[Token], bare: bool) -> Shape {
        let word = |i: usize| match raw.get(i).map(|t| &t.kind) {
            Some(T::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        let sym =
            |i: usize, s: &str| matches!(raw.get(i).map(|t| &t.kind), Some(T::Sym(x)) if *x == s);
        let mut i = 0;
        let mut label = None;
        if let Some(w) = word(0) {
            if sym(1, ":") && is_signal(w) && kind_of(w, bare).is_none() {
                label = Some(w.to_string());
                i = 2;
            }
        }
        let kind = word(i).and_then(|w| kind_of(w, bare));
        if kind.is_some() {
            i += 1;
        }
        let sva = kind.is_some()
            && (word(i) == Some("property")
                || (kind == Some(DirectiveKind::Cover) && word(i) == Some("sequence")))
            && sym(i + 1, "(");
        if sva {
            i += 2;
        }
        let mut end = raw.len();
        if end >= i + 2
            && matches!(raw[end - 2].kind, T::Word(ref w) if w == "report")
            && matches!(raw[end - 1].kind, T::Str(_))
        {
            end -= 2;
        }
        if sva && end > i && sym(end - 1, ")") {
            end -= 1;
        }
        Shape {
            label,
            kind,
            sva,
            header: i,
            body_end: end.max(i),
        }
    }
}

/// The directive a keyword starts (`PSLSPEC` too, in a bare directive).
fn kind_of(w: &str, bare: bool) -> Option<DirectiveKind> {
    Some(match w {
        "assert" => DirectiveKind::Assert,
        "assume" => DirectiveKind::Assume,
        "restrict" => DirectiveKind::Restrict,
        "cover" => DirectiveKind::Cover,
        "PSLSPEC" if bare => DirectiveKind::Assert,
        _ => return None,
    })
}

/// The property of a directive or declaration, before its clock and
/// reset are resolved.
struct Body {
    /// The property, with its outermost clock and abort.
    root: Item,
    /// The clock written first (`@(posedge clk) φ`), an index of the
    /// parser's clocks.
    first_clock: Option<usize>,
    /// `disable iff (b)` and its span.
    disable_iff: Option<(Formula, Span)>,
}

/// `[@(clock)] [disable iff (b)] PROPERTY` (clock and reset in either
/// order).
fn body(p: &mut Parser) -> Result<Body, ParseError> {
    let mut first_clock = None;
    let mut disable_iff: Option<(Formula, Span)> = None;
    loop {
        if p.is_sym("@") {
            let at = p.cur.next();
            let (clock, span) = p.clock_after_at(at.span)?;
            let clocks = p.clocks.as_mut().expect("directive parser");
            clocks.push(ClockUse { clock, span });
            first_clock.get_or_insert(clocks.len() - 1);
        } else if p.is_word("disable") && matches!(&p.cur.peek2().kind, T::Word(w) if w == "iff") {
            let t = p.cur.next();
            p.cur.next();
            if disable_iff.is_some() {
                return Err(p.unsupported(t.span, "`disable iff` is given twice"));
            }
            p.expect_sym("(", "`(`: SVA writes `disable iff (expression)`")?;
            let b = p.formula()?;
            p.expect_sym(")", "`)`")?;
            let span = Span {
                start: t.span.start,
                end: p.cur.last_span().end,
            };
            if b.has_future() {
                return Err(p.unsupported(
                    span,
                    "the condition of `disable iff` must be a Boolean expression",
                ));
            }
            disable_iff = Some((b, span));
        } else {
            break;
        }
    }
    let root = p.formula_item()?;
    Ok(Body {
        root,
        first_clock,
        disable_iff,
    })
}

/// Reads a directive: `raw` its tokens (without `;`), `end` the span of
/// its end (the `;`), `body` its expanded body.
fn directive(
    input: &str,
    raw: &[Token],
    end: Span,
    shape: &Shape,
    body_tokens: Vec<Token>,
    defaults: &Defaults,
) -> Result<Directive, ParseError> {
    let kind = match shape.kind {
        Some(k) => k,
        // A bare property (`parse_directive`; a vunit's items start with
        // a keyword or a label).
        None if shape.label.is_none() => DirectiveKind::Assert,
        None => {
            let t = raw.get(shape.header).cloned().unwrap_or(Token {
                kind: T::End,
                span: end,
            });
            return Err(unexpected(
                input,
                &t,
                "a directive (`assert`, `assume`, `restrict` or `cover`)",
            ));
        }
    };
    let text_span = match (raw.get(shape.header), shape.body_end) {
        (Some(first), e) if e > shape.header => first.span.start..raw[e - 1].span.end,
        _ => end.start..end.start,
    };
    let mut tokens = raw[..shape.header].to_vec();
    tokens.extend(body_tokens);
    tokens.extend_from_slice(&raw[shape.body_end..]);
    tokens.push(Token {
        kind: T::End,
        span: end,
    });
    let mut p = Parser::new(input, tokens, true);
    p.cur.seek(shape.header);
    if p.cur.peek().kind == T::End || (shape.sva && p.is_sym(")")) {
        let t = p.cur.peek().clone();
        return Err(unexpected(input, &t, "a property"));
    }
    let Body {
        root,
        first_clock,
        disable_iff,
    } = body(&mut p)?;
    if shape.sva {
        p.expect_sym(")", "an operator or `)`")?;
        if p.is_word("else") {
            let t = p.cur.peek().clone();
            return Err(p.unsupported(
                t.span,
                "SVA action blocks (`else ...`) are not supported: the checker's failure output \
                 is the action (`report \"...\"` names it)",
            ));
        }
    }
    let mut report = None;
    if p.is_word("report") {
        p.cur.next();
        let t = p.cur.next();
        match t.kind {
            T::Str(s) => report = Some(s),
            _ => return Err(p.unexpected(&t, "a string")),
        }
    }
    let t = p.cur.peek().clone();
    if t.kind != T::End {
        return Err(p.unexpected(&t, "an operator, `report` or `;`"));
    }
    let clocks = p.clocks.take().unwrap_or_default();

    // The outermost clock and abort.
    let mut item = root;
    let mut lifted = None;
    let mut abort = None;
    let item = loop {
        item = match item {
            Item::Clocked { inner, clock } => {
                lifted.get_or_insert(clock);
                *inner
            }
            Item::Aborted {
                body,
                cond,
                synchronous,
                span,
            } if abort.is_none() => {
                abort = Some((cond, synchronous, span));
                *body
            }
            other => break other,
        };
    };
    let clock = directive_clock(input, &clocks, first_clock.or(lifted), defaults)?;

    let disable = match (disable_iff, abort) {
        (Some(_), Some((_, _, span))) => {
            return Err(unsupported(
                input,
                span,
                "this directive has both `disable iff` and an outermost `abort`, and a checker \
                 has one reset: write one condition, `disable iff (rst || b)`",
            ));
        }
        (Some((condition, _)), None) => Some(Disable {
            condition,
            synchronous: false,
        }),
        (None, Some((condition, synchronous, _))) => Some(Disable {
            condition,
            synchronous,
        }),
        (None, None) => defaults.disable.clone().map(|condition| Disable {
            condition,
            synchronous: false,
        }),
    };

    let f = item.into_formula();
    let formula = match kind {
        DirectiveKind::Cover => match sequence_of(&f) {
            Some(r) => Formula::always(Formula::not(Formula::econcat(r, Formula::tt()))),
            None => {
                return Err(unsupported(
                    input,
                    Span {
                        start: text_span.start,
                        end: text_span.end,
                    },
                    "`cover` takes a sequence `{...}` (or a Boolean), not a property: write the \
                     scenario to cover as a SERE, as in `cover {req; ack};`",
                ));
            }
        },
        _ if shape.sva && f.op() != Op::G => Formula::always(f),
        _ => f,
    };
    Ok(Directive {
        kind,
        label: shape.label.clone(),
        formula,
        clock,
        disable,
        report,
        text: input[text_span.clone()].to_string(),
        span: text_span,
    })
}

/// The SERE of a sequence `{r}`, `{r}!`, or a Boolean as a one-letter SERE.
fn sequence_of(f: &Formula) -> Option<Formula> {
    match f.op() {
        _ if !f.has_future() => Some(f.clone()),
        Op::Closure => Some(f.child(0).clone()),
        Op::EConcat if f.child(1).is_true() => Some(f.child(0).clone()),
        _ => None,
    }
}

/// The clock of a directive: `outer` (an index of `clocks`: the clock
/// written first, or the one lifted out of the whole property), else the
/// default clock; every clock of the directive must be that one.
fn directive_clock(
    input: &str,
    clocks: &[ClockUse],
    outer: Option<usize>,
    defaults: &Defaults,
) -> Result<Option<Clock>, ParseError> {
    let outer = outer.filter(|&i| i < clocks.len());
    let (reference, is_default) = match (outer, &defaults.clock) {
        (Some(i), _) => (&clocks[i], false),
        (None, Some(d)) => (d, true),
        (None, None) => match clocks.first() {
            Some(first) => (first, false),
            None => return Ok(None),
        },
    };
    for other in clocks {
        if other.clock == reference.clock {
            continue;
        }
        // The later of the two, in the text (the directive's clock for a
        // default clock).
        let (here, there) = if is_default || other.span.start > reference.span.start {
            (other, reference)
        } else {
            (reference, other)
        };
        let at = position(input, there.span);
        let what = if is_default {
            format!("the default clock `{}` ({at})", there.clock)
        } else {
            format!("`@({})` ({at})", there.clock)
        };
        return Err(unsupported(
            input,
            here.span,
            format!(
                "two clocks in one directive: `@({})` here and {what}; a checker has one clock",
                here.clock
            ),
        ));
    }
    if outer.is_none() && !is_default {
        if let Some(first) = clocks.first() {
            return Err(unsupported(
                input,
                first.span,
                format!(
                    "`@({c})` clocks only part of the property (`@` binds tighter than any other \
                     operator), and the rest would be read at every cycle: put the whole property \
                     in parentheses before `@({c})`, or write the clock first: `@({c}) ...`",
                    c = first.clock
                ),
            ));
        }
    }
    Ok(Some(reference.clock.clone()))
}

/// "line L, column C" of a span.
fn position(input: &str, span: Span) -> String {
    let e = make_error(input, span, ParseErrorKind::Empty);
    format!("line {}, column {}", e.line(), e.column())
}

fn unsupported(input: &str, span: Span, msg: impl Into<String>) -> ParseError {
    make_error(input, span, ParseErrorKind::Unsupported(msg.into()))
}

/// An unexpected token, outside a property.
fn unexpected(input: &str, t: &Token, expected: &'static str) -> ParseError {
    // A parser for its messages alone: the token, then the end.
    let end = Token {
        kind: T::End,
        span: t.span,
    };
    let p = Parser::new(input, vec![t.clone(), end], true);
    if t.kind == T::End {
        let found = if t.span.start >= input.len() {
            "the end of the input".to_string()
        } else {
            format!("`{}`", &input[t.span.start..t.span.end])
        };
        return make_error(
            input,
            t.span,
            ParseErrorKind::Unexpected { expected, found },
        );
    }
    p.unexpected(t, expected)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

// ---- verification units ---------------------------------------------------

/// A named property or sequence, expanded.
struct Declaration {
    sequence: bool,
    tokens: Vec<Token>,
}

/// What names mean in a vunit, while its items are read in order.
#[derive(Default)]
struct Scope {
    declared: HashMap<String, Declaration>,
    /// Every name the vunit declares: the index of its item, and the span
    /// of the name.
    all: HashMap<String, (usize, Span)>,
    /// The tokens expanded so far in the vunit.
    expanded: Cell<usize>,
}

/// The kinds of items of a vunit.
enum ItemKind {
    DefaultClock,
    DefaultDisable,
    Declaration { sequence: bool, name: String },
    Directive,
}

/// Reads `vunit NAME [(module)] { ... }` from `tokens[start]`; returns it
/// and the index after its `}`.
fn vunit(input: &str, tokens: &[Token], start: usize) -> Result<(Vunit, usize), ParseError> {
    let mut i = start + 1;
    let name = match &tokens[i].kind {
        T::Word(w) if is_signal(w) => w.clone(),
        _ => return Err(unexpected(input, &tokens[i], "the name of the vunit")),
    };
    i += 1;
    let mut module = None;
    if tokens[i].kind == T::Sym("(") {
        i += 1;
        match &tokens[i].kind {
            T::Word(w) if is_signal(w) => module = Some(w.clone()),
            _ => {
                return Err(unexpected(
                    input,
                    &tokens[i],
                    "the module or instance bound",
                ));
            }
        }
        i += 1;
        if tokens[i].kind != T::Sym(")") {
            return Err(unexpected(input, &tokens[i], "`)`"));
        }
        i += 1;
    }
    let open = &tokens[i];
    if open.kind != T::Sym("{") {
        return Err(unexpected(input, open, "`{` (the body of the vunit)"));
    }
    i += 1;

    // The items, up to the closing brace.
    let mut items: Vec<(Range<usize>, Span)> = Vec::new();
    let close = loop {
        let (range, end) = scan_item(tokens, i);
        // What the items are, in the order of the text (the rest waits
        // for the declarations).
        if !range.is_empty() {
            classify(input, &tokens[range.clone()])?;
        }
        match tokens[end].kind {
            T::Sym(";") => {
                // (An empty item, `;;`, is skipped.)
                if !range.is_empty() {
                    items.push((range, tokens[end].span));
                }
                i = end + 1;
            }
            T::Sym("}") if range.is_empty() => break end,
            T::Sym("}") => return Err(unexpected(input, &tokens[end], "`;` (before `}`)")),
            _ => {
                if !range.is_empty() {
                    // Let the item say what is unclosed in it.
                    items.push((range, tokens[end].span));
                    read_items(input, tokens, &items)?;
                }
                return Err(make_error(
                    input,
                    open.span,
                    ParseErrorKind::Unsupported(format!(
                        "the `{{` of vunit `{name}` is never closed"
                    )),
                ));
            }
        }
    };
    let directives = read_items(input, tokens, &items)?;
    let unit = Vunit {
        name,
        module,
        directives,
        span: tokens[start].span.start..tokens[close].span.end,
    };
    Ok((unit, close + 1))
}

/// What kind of item `raw` is.
fn classify(input: &str, raw: &[Token]) -> Result<ItemKind, ParseError> {
    let word = |i: usize| match raw.get(i).map(|t| &t.kind) {
        Some(T::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let first = &raw[0];
    let Some(w) = word(0) else {
        if let T::Bad(c) = first.kind {
            return Err(make_error(
                input,
                first.span,
                ParseErrorKind::UnknownCharacter(c),
            ));
        }
        return Err(unexpected(
            input,
            first,
            "a directive (`assert`, `assume`, `restrict`, `cover`) or a declaration",
        ));
    };
    if kind_of(w, false).is_some()
        || (matches!(raw.get(1).map(|t| &t.kind), Some(T::Sym(":"))) && is_signal(w))
    {
        return Ok(ItemKind::Directive);
    }
    let msg = match w {
        "default" => match word(1) {
            Some("clock") => return Ok(ItemKind::DefaultClock),
            Some("disable") if word(2) == Some("iff") => return Ok(ItemKind::DefaultDisable),
            Some("clocking") => "SVA `default clocking` blocks are not supported: write \
                                 `default clock = (posedge clk);`"
                .to_string(),
            _ => "only `default clock = ...;` and `default disable iff (...);` are supported"
                .to_string(),
        },
        "property" | "sequence" => {
            let name = match raw.get(1).map(|t| &t.kind) {
                Some(T::Word(n)) if is_signal(n) => n.clone(),
                _ => return Err(unexpected(input, raw.get(1).unwrap_or(first), "a name")),
            };
            match raw.get(2).map(|t| &t.kind) {
                Some(T::Sym("=")) => {}
                Some(T::Word(is)) if is == "is" => {}
                Some(T::Sym("(")) => {
                    return Err(unsupported(
                        input,
                        raw[2].span,
                        format!(
                            "parameters of named {} are not supported",
                            if w == "property" {
                                "properties"
                            } else {
                                "sequences"
                            }
                        ),
                    ));
                }
                None => {
                    return Err(unsupported(
                        input,
                        first.span,
                        format!(
                            "SVA `{w} ... end{w}` blocks are not supported: write `{w} {name} = ...;`"
                        ),
                    ));
                }
                Some(_) => return Err(unexpected(input, &raw[2], "`=`")),
            }
            return Ok(ItemKind::Declaration {
                sequence: w == "sequence",
                name,
            });
        }
        "inherit" => "`inherit` is not supported: copy the declarations into this vunit".into(),
        "endpoint" => "named endpoints are not supported".into(),
        "fairness" | "strong" => "fairness constraints are not supported".into(),
        _ => format!(
            "`{w}` is not supported in a vunit: only `default clock`, `default disable iff`, \
             `property` and `sequence` declarations and `assert`, `assume`, `restrict` and \
             `cover` directives are (Verilog modelling statements are not)"
        ),
    };
    Err(unsupported(input, first.span, msg))
}

/// Reads the items of a vunit: declarations first seen, then in order.
fn read_items(
    input: &str,
    tokens: &[Token],
    items: &[(Range<usize>, Span)],
) -> Result<Vec<Directive>, ParseError> {
    let mut kinds = Vec::with_capacity(items.len());
    let mut scope = Scope::default();
    let mut defaults = Defaults::default();
    let mut default_spans: [Option<Span>; 2] = [None, None];
    for (k, (range, end)) in items.iter().enumerate() {
        let raw = &tokens[range.clone()];
        let kind = classify(input, raw)?;
        match &kind {
            ItemKind::Declaration { name, .. } => {
                let span = raw[1].span;
                if let Some((_, first)) = scope.all.get(name) {
                    return Err(unsupported(
                        input,
                        span,
                        format!("`{name}` is already declared ({})", position(input, *first)),
                    ));
                }
                scope.all.insert(name.clone(), (k, span));
            }
            ItemKind::DefaultClock | ItemKind::DefaultDisable => {
                let slot = matches!(kind, ItemKind::DefaultDisable) as usize;
                if default_spans[slot].is_some() {
                    return Err(unsupported(
                        input,
                        raw[0].span,
                        "a vunit has one default clock and one default reset",
                    ));
                }
                default_spans[slot] = Some(raw[0].span);
                let mut p = Parser::new(input, with_end(raw[2..].to_vec(), *end), true);
                if matches!(kind, ItemKind::DefaultClock) {
                    if p.is_sym("=") || p.is_word("is") {
                        p.cur.next();
                    } else {
                        let t = p.cur.peek().clone();
                        return Err(p.unexpected(&t, "`=`"));
                    }
                    let first = p.cur.peek().span;
                    let clock = p.clock_expr(first)?;
                    let span = Span {
                        start: first.start,
                        end: p.cur.last_span().end,
                    };
                    defaults.clock = Some(ClockUse { clock, span });
                } else {
                    p.cur.next(); // iff
                    let b = p.formula()?;
                    if b.has_future() {
                        return Err(unsupported(
                            input,
                            raw[0].span,
                            "the condition of `default disable iff` must be a Boolean expression",
                        ));
                    }
                    defaults.disable = Some(b);
                }
                let t = p.cur.peek().clone();
                if t.kind != T::End {
                    return Err(p.unexpected(&t, "`;`"));
                }
            }
            ItemKind::Directive => {}
        }
        kinds.push(kind);
    }
    let mut directives = Vec::new();
    let mut labels: HashMap<String, Span> = HashMap::new();
    for (k, ((range, end), kind)) in items.iter().zip(kinds).enumerate() {
        let raw = &tokens[range.clone()];
        match kind {
            ItemKind::Declaration { sequence, name } => {
                let body = expand(input, &raw[3..], &scope, k, false)?;
                check_declaration(input, &body, *end, sequence, raw[0].span)?;
                scope.declared.insert(
                    name,
                    Declaration {
                        sequence,
                        tokens: body,
                    },
                );
            }
            ItemKind::Directive => {
                let shape = Shape::of(raw, false);
                if let Some(label) = &shape.label {
                    if let Some(first) = labels.get(label) {
                        return Err(unsupported(
                            input,
                            raw[0].span,
                            format!(
                                "the label `{label}` is already used ({})",
                                position(input, *first)
                            ),
                        ));
                    }
                    labels.insert(label.clone(), raw[0].span);
                }
                let body_raw = &raw[shape.header..shape.body_end];
                let body = expand(input, body_raw, &scope, k, body_raw.len() == 1)?;
                directives.push(directive(input, raw, *end, &shape, body, &defaults)?);
            }
            ItemKind::DefaultClock | ItemKind::DefaultDisable => {}
        }
    }
    Ok(directives)
}

fn with_end(mut tokens: Vec<Token>, end: Span) -> Vec<Token> {
    tokens.push(Token {
        kind: T::End,
        span: end,
    });
    tokens
}

/// Checks the body of a declaration (so that its errors point at it,
/// used or not).
fn check_declaration(
    input: &str,
    tokens: &[Token],
    end: Span,
    sequence: bool,
    keyword: Span,
) -> Result<(), ParseError> {
    let mut p = Parser::new(input, with_end(tokens.to_vec(), end), true);
    if p.cur.peek().kind == T::End {
        let t = p.cur.peek().clone();
        return Err(p.unexpected(
            &t,
            if sequence {
                "a sequence `{...}`"
            } else {
                "a property"
            },
        ));
    }
    if sequence && !p.is_sym("{") {
        return Err(unsupported(
            input,
            keyword,
            "a named sequence is a SERE in braces: `sequence NAME = {...};`",
        ));
    }
    let root = body(&mut p)?.root;
    let t = p.cur.peek().clone();
    if t.kind != T::End {
        return Err(p.unexpected(&t, "an operator or `;`"));
    }
    if sequence && !matches!(root.unclocked(), Item::Sequence { strong: false, .. }) {
        return Err(unsupported(
            input,
            keyword,
            "a named sequence is a SERE in braces: `sequence NAME = {...};`",
        ));
    }
    Ok(())
}

/// `raw` with the names of `scope` replaced by what they stand for: a
/// sequence as written, a property in parentheses (as written when it is
/// the whole body, `whole`). `item` is the index of the item being read.
fn expand(
    input: &str,
    raw: &[Token],
    scope: &Scope,
    item: usize,
    whole: bool,
) -> Result<Vec<Token>, ParseError> {
    let mut out = Vec::with_capacity(raw.len());
    let mut braces = 0usize;
    for t in raw {
        match &t.kind {
            T::Sym("{") => braces += 1,
            T::Sym("}") => braces = braces.saturating_sub(1),
            T::Word(w) => {
                if let Some(d) = scope.declared.get(w) {
                    if !d.sequence && braces > 0 {
                        return Err(unsupported(
                            input,
                            t.span,
                            format!(
                                "`{w}` is a property, not a sequence: it cannot be part of a SERE"
                            ),
                        ));
                    }
                    let paren = !d.sequence && !whole;
                    let total = scope.expanded.get() + d.tokens.len();
                    scope.expanded.set(total);
                    if out.len() + d.tokens.len() + 2 > MAX_EXPANSION || total > MAX_VUNIT_EXPANSION
                    {
                        return Err(make_error(
                            input,
                            t.span,
                            ParseErrorKind::Bound(format!(
                                "the named properties and sequences expand to more than \
                                 {MAX_EXPANSION} tokens"
                            )),
                        ));
                    }
                    let mark = |s: &'static str| Token {
                        kind: T::Sym(s),
                        span: t.span,
                    };
                    if paren {
                        out.push(mark("("));
                    }
                    out.extend(d.tokens.iter().cloned());
                    if paren {
                        out.push(mark(")"));
                    }
                    continue;
                }
                if let Some(&(k, span)) = scope.all.get(w) {
                    let msg = if k == item {
                        format!(
                            "`{w}` is used in its own declaration: recursive properties are not supported"
                        )
                    } else {
                        format!(
                            "`{w}` is used before its declaration ({}): declare properties and \
                             sequences before using them",
                            position(input, span)
                        )
                    };
                    return Err(unsupported(input, t.span, msg));
                }
            }
            _ => {}
        }
        out.push(t.clone());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::tests_support::check_error;
    use super::*;
    use crate::automaton::Target;
    use crate::formula::parse_psl;
    use crate::formula::random::{random_psl, SplitMix64};
    use crate::translate::{Builder, Config, Prefixes};

    fn d(s: &str) -> Directive {
        parse_directive(s).unwrap_or_else(|e| panic!("{s}:\n{e}"))
    }

    fn psl(s: &str) -> Formula {
        parse_psl(s).unwrap_or_else(|e| panic!("{s}:\n{e}"))
    }

    fn clock(signal: &str, edge: ClockEdge) -> Option<Clock> {
        Some(Clock {
            signal: signal.into(),
            edge,
        })
    }

    fn pos(s: &str) -> Option<Clock> {
        clock(s, ClockEdge::Posedge)
    }

    /// The error of a directive: its column and message.
    fn err(s: &str) -> (usize, String) {
        let e = parse_directive(s).expect_err(s);
        check_error(s, &e);
        (e.column(), e.message())
    }

    #[test]
    fn psl_clocks() {
        let g = psl("always (req -> next ack)");
        for (input, edge) in [
            (
                "always (req -> next ack) @(posedge clk)",
                ClockEdge::Posedge,
            ),
            (
                "always (req -> next ack) @(negedge clk)",
                ClockEdge::Negedge,
            ),
            ("always (req -> next ack) @(rose(clk))", ClockEdge::Posedge),
            ("always (req -> next ack) @(fell(clk))", ClockEdge::Negedge),
            ("always (req -> next ack) @ rose(clk)", ClockEdge::Posedge),
            ("always (req -> next ack) @posedge clk", ClockEdge::Posedge),
            (
                "(always (req -> next ack)) @(posedge clk)",
                ClockEdge::Posedge,
            ),
            (
                "@(posedge clk) always (req -> next ack)",
                ClockEdge::Posedge,
            ),
            (
                "assert always (req -> next ack) @(negedge clk);",
                ClockEdge::Negedge,
            ),
            // The same clock again changes nothing.
            (
                "@(posedge clk) always (req -> next (ack @(posedge clk))) @(rose(clk))",
                ClockEdge::Posedge,
            ),
        ] {
            let x = d(input);
            assert_eq!(x.formula, g, "{input}");
            assert_eq!(x.clock, clock("clk", edge), "{input}");
            assert_eq!(x.kind, DirectiveKind::Assert);
            assert!(x.disable.is_none());
        }
        // Clocks lift out of Boolean connectives and always/never.
        let x = d("(a @(posedge c)) && !((next b) @(posedge c))");
        assert_eq!(x.formula, psl("a && !(next b)"));
        assert_eq!(x.clock, pos("c"));
        let x = d("never {a; b} @(posedge c)");
        assert_eq!(x.formula, psl("never {a; b}"));
        assert_eq!(x.clock, pos("c"));
        let x = d("(true && (always a @(posedge c))) || false");
        assert_eq!(x.clock, pos("c"));
        let x = d("{a; b}! @(posedge top.clk)");
        assert_eq!(x.formula, psl("{a; b}!"));
        assert_eq!(x.clock, pos("top.clk"));
        // A sequence keeps its place before |->.
        let x = d("always ({a} @(posedge c) |=> {b} @(posedge c)) @(posedge c)");
        assert_eq!(x.formula, psl("always {a} |=> {b}"));
        // No clock at all.
        assert_eq!(d("always a").clock, None);
        // Doulos's idioms: the abort under `always` keeps its meaning.
        let x = d("assert (always ({a;b} |-> {c;d} abort reset)) @(posedge clk);");
        assert_eq!(x.formula, psl("always ({a;b} |-> {c;d} abort reset)"));
        assert_eq!((x.clock, x.disable), (pos("clk"), None));
        let x = d("assert (always CONDITION) @(posedge clk);");
        assert_eq!(x.formula, psl("always CONDITION"));
    }

    #[test]
    fn clock_errors() {
        // The README's example of a clock `parse_psl` refuses.
        let e = parse_directive("always {a; b} |-> c @ clk").unwrap_err();
        assert_eq!(
            e.to_string(),
            "syntax error at line 1, column 21: a clock needs an edge: write `@(posedge clk)` \
             (or `@(negedge clk)`)\n  always {a; b} |-> c @ clk\n                      ^^^^^"
        );
        let (col, msg) = err("always a @clk");
        assert_eq!(col, 10);
        assert!(msg.contains("write `@(posedge clk)`"), "{msg}");
        let (col, msg) = err("assert always a @(clk);");
        assert_eq!(col, 17);
        assert!(msg.contains("a clock needs an edge"), "{msg}");
        let (col, msg) = err("assert property (@(clk) a);");
        assert_eq!(col, 18);
        assert!(msg.contains("`@(posedge clk)`"), "{msg}");
        // Two clocks: at the second, naming both.
        let (col, msg) = err("(a @(posedge c1)) && (b @(posedge c2))");
        assert_eq!(col, 25);
        assert_eq!(
            msg,
            "two clocks in one directive: `@(posedge c2)` here and `@(posedge c1)` (line 1, \
             column 4); a checker has one clock"
        );
        let (col, msg) = err("always (a -> next (b @(negedge c2))) @(posedge c1)");
        assert_eq!(col, 38);
        assert!(
            msg.contains("`@(posedge c1)` here and `@(negedge c2)`"),
            "{msg}"
        );
        let (col, msg) = err("@(posedge c1) always a @(posedge c2)");
        assert_eq!(col, 24);
        assert!(
            msg.contains("`@(posedge c2)` here and `@(posedge c1)`"),
            "{msg}"
        );
        let (col, msg) = err("(a @(posedge c)) @(negedge c)");
        assert_eq!(col, 18);
        assert!(
            msg.contains("`@(negedge c)` here and `@(posedge c)`"),
            "{msg}"
        );
        // A clock on part of an unclocked property.
        for (input, col) in [
            ("a && (b @(posedge c))", 9),
            ("next (b @(posedge c))", 9),
            ("always {a} |=> {b} @(posedge clk)", 20),
            ("always (a -> next b @(posedge clk))", 21),
            ("(a until b @(posedge c)) && (true @(posedge c))", 12),
        ] {
            let (c, msg) = err(input);
            assert_eq!(c, col, "{input}");
            assert!(msg.contains("clocks only part of the property"), "{msg}");
        }
        // Clocks nowhere else.
        let (col, msg) = err("{a @(posedge c); b}");
        assert_eq!(col, 4);
        assert!(msg.contains("a clock cannot appear here"), "{msg}");
        let (col, msg) = err("always (@(posedge c) a)");
        assert_eq!(col, 9);
        assert!(msg.contains("a clock cannot appear here"), "{msg}");
        let (col, msg) = err("always a @(posedge clk or negedge rst)");
        assert_eq!(col, 24);
        assert!(msg.contains("one clock"), "{msg}");
        let (col, _) = err("always a @(posedge)");
        assert_eq!(col, 19);
        let (col, _) = err("always a @(posedge always)");
        assert_eq!(col, 20);
        let (col, _) = err("always a @");
        assert_eq!(col, 11);
    }

    #[test]
    fn parse_psl_points_to_the_new_entry_points() {
        let e = parse_psl("always a @(posedge clk)").unwrap_err();
        assert_eq!(e.column(), 10);
        let msg = e.message();
        assert!(
            msg.starts_with("clocked properties are not supported"),
            "{msg}"
        );
        assert!(msg.contains("`parse_directive`") && msg.contains("`parse_vunits`"));
        assert!(msg.contains("mongen compile --psl"), "{msg}");
        // SVA's delay, in both.
        let e = parse_psl("a ##1 b").unwrap_err();
        assert_eq!(e.column(), 3);
        assert!(e.message().starts_with("SVA delay `##` is not supported"));
        assert!(parse_psl("assert always a; report").is_err());
    }

    #[test]
    fn sva_directives() {
        let x = d("assert property (@(posedge clk) disable iff (rst) always (req -> next ack));");
        assert_eq!(x.formula, psl("always (req -> next ack)"));
        assert_eq!(x.clock, pos("clk"));
        assert_eq!(
            x.disable,
            Some(Disable {
                condition: psl("rst"),
                synchronous: false
            })
        );
        assert_eq!(
            x.text,
            "@(posedge clk) disable iff (rst) always (req -> next ack)"
        );
        // An SVA assertion holds at every tick.
        let x = d("p: assume property (@(negedge clk) disable iff (!rst_n) req |=> ack);");
        assert_eq!(x.formula, psl("always (req |=> ack)"));
        assert_eq!(x.kind, DirectiveKind::Assume);
        assert_eq!(x.label.as_deref(), Some("p"));
        assert_eq!(x.clock, clock("clk", ClockEdge::Negedge));
        assert_eq!(
            x.disable.as_ref().and_then(Disable::signal),
            Some(("rst_n", ActiveLevel::Low))
        );
        // The clock and the reset in either order.
        let y = d("assume property (disable iff (!rst_n) @(negedge clk) req |=> ack)");
        assert_eq!(
            (y.formula, y.clock, y.disable),
            (x.formula, x.clock, x.disable)
        );
        let x = d("restrict property (@(posedge clk) {rst[*2]; !rst[*]});");
        assert_eq!(x.kind, DirectiveKind::Restrict);
        assert_eq!(x.formula, psl("always {rst[*2]; !rst[*]}"));
        let x = d("cover property (@(posedge clk) {req; ack});");
        assert_eq!(x.formula, psl("never {req; ack}!"));
        let x = d("cover sequence (@(posedge clk) {req; ack}) report \"seen\";");
        assert_eq!(x.formula, psl("never {req; ack}!"));
        assert_eq!(x.report.as_deref(), Some("seen"));

        // SVA's sequence operators: at their column, with the PSL to write.
        let (col, msg) = err("assert property (@(posedge clk) req |-> ##[1:3] ack);");
        assert_eq!(col, 41);
        assert_eq!(
            msg,
            "SVA delay `##` is not supported in PSL: read the property as SVA (`--sva`, \
             `parse_sva`), or write `next`/SEREs (`a ##1 b` is `{a; b}`)"
        );
        let (col, msg) = err("assert property (@(posedge clk) $rose(req) |=> ack);");
        assert_eq!(col, 33);
        assert!(
            msg.contains("`$rose` is not supported: write `rose(...)`"),
            "{msg}"
        );
        let (col, msg) = err("assert property (@(posedge clk) $past(a) -> b);");
        assert_eq!(col, 33);
        assert!(msg.contains("write `prev(...)`"), "{msg}");
        let (col, msg) = err("assert property (@(posedge clk) a throughout b);");
        assert_eq!(col, 35);
        assert!(msg.contains("the SVA operator `throughout`"), "{msg}");
        let (col, msg) = err("assert property (s_eventually a);");
        assert_eq!(col, 18);
        assert!(msg.contains("`s_eventually`"), "{msg}");
        let (col, msg) = err("assert property (a) else $error(\"x\");");
        assert_eq!(col, 21);
        assert!(msg.contains("action blocks"), "{msg}");
        let (col, msg) = err("assert property (a;");
        assert_eq!(col, 19);
        assert!(msg.contains("expected an operator or `)`"), "{msg}");
        let (col, _) = err("assert property ();");
        assert_eq!(col, 18);
        let (col, _) = err("assert property (a) && (b);");
        assert_eq!(col, 21);
    }

    #[test]
    fn resets() {
        let rst = |c: &str, synchronous: bool| {
            Some(Disable {
                condition: psl(c),
                synchronous,
            })
        };
        let g = psl("always (req -> next ack)");
        for (input, reset) in [
            (
                "disable iff (rst) always (req -> next ack)",
                rst("rst", false),
            ),
            (
                "assert disable iff (rst || halt) always (req -> next ack);",
                rst("rst || halt", false),
            ),
            ("(always (req -> next ack)) abort rst", rst("rst", false)),
            (
                "(always (req -> next ack)) async_abort rst",
                rst("rst", false),
            ),
            (
                "(always (req -> next ack)) sync_abort !rst_n",
                rst("!rst_n", true),
            ),
            (
                "((always (req -> next ack)) abort rst) @(posedge clk)",
                rst("rst", false),
            ),
            (
                "(always (req -> next ack) @(posedge clk)) abort rst",
                rst("rst", false),
            ),
        ] {
            let x = d(input);
            assert_eq!(x.formula, g, "{input}");
            assert_eq!(x.disable, reset, "{input}");
        }
        // Only the outermost abort: the inner one keeps its PSL meaning.
        let x = d("((always a) abort b) abort rst");
        assert_eq!(x.formula, psl("(always a) abort b"));
        assert_eq!(x.disable, rst("rst", false));
        let x = d("always ((a -> next b) abort rst)");
        assert_eq!(x.formula, psl("always ((a -> next b) abort rst)"));
        assert_eq!(x.disable, None);
        let x = d("((always a) abort r) until b");
        assert_eq!(x.disable, None);
        let x = d("a abort rst");
        assert_eq!((x.formula, x.disable), (psl("a"), rst("rst", false)));

        let (col, msg) = err("disable iff (rst) (always a) abort b");
        assert_eq!(col, 30);
        assert!(
            msg.contains("both `disable iff` and an outermost `abort`"),
            "{msg}"
        );
        let (col, msg) = err("disable iff (rst) disable iff (b) always a");
        assert_eq!(col, 19);
        assert!(msg.contains("twice"), "{msg}");
        let (col, msg) = err("disable iff (next rst) always a");
        assert_eq!(col, 1);
        assert!(msg.contains("must be a Boolean"), "{msg}");
        let (col, msg) = err("disable iff rst always a");
        assert_eq!(col, 13);
        assert!(msg.contains("disable iff (expression)"), "{msg}");
        let (col, msg) = err("always (a -> disable iff (r) b)");
        assert_eq!(col, 14);
        assert!(msg.contains("must come first"), "{msg}");
    }

    #[test]
    fn directives_and_their_text() {
        let input = "  lbl : assume {a; b[*2]} report \"two b\\\"s\" ; ";
        let x = d(input);
        assert_eq!(x.kind, DirectiveKind::Assume);
        assert_eq!(x.label.as_deref(), Some("lbl"));
        assert_eq!(x.report.as_deref(), Some("two b\"s"));
        assert_eq!(x.text, "{a; b[*2]}");
        assert_eq!(&input[x.span.clone()], x.text);
        assert_eq!(x.formula, psl("{a; b[*2]}"));
        // As parse_psl reads it: `assert` or `PSLSPEC`, `;`, comments.
        let x = d("PSLSPEC G (a -> X b); -- NuSMV");
        assert_eq!(x.formula, psl("G (a -> X b)"));
        assert_eq!(x.text, "G (a -> X b)");
        let x = d("always a // comment");
        assert_eq!(x.text, "always a");
        // Errors.
        let (col, msg) = err("");
        assert_eq!(col, 1);
        assert_eq!(msg, "empty formula");
        let (col, msg) = err("assert ;");
        assert_eq!((col, msg.as_str()), (8, "expected a property, found `;`"));
        let (col, msg) = err("assert always a; assert b;");
        assert_eq!(col, 18);
        assert!(msg.contains("one directive only"), "{msg}");
        let (col, _) = err("assert always a }");
        assert_eq!(col, 17);
        let (col, msg) = err("p1: always a;");
        assert_eq!(col, 5);
        assert!(msg.contains("expected a directive"), "{msg}");
        let (col, msg) = err("assert a report b;");
        assert_eq!(col, 17);
        assert!(msg.contains("expected a string"), "{msg}");
        let (col, msg) = err("assert a report \"x");
        assert_eq!(col, 17);
        assert_eq!(msg, "this string is never closed");
        let (col, msg) = err("vunit v { assert a; }");
        assert_eq!(col, 1);
        assert!(msg.contains("`parse_vunits`"), "{msg}");
        let (col, msg) = err("default clock = posedge clk;");
        assert_eq!(col, 1);
        assert!(msg.contains("`parse_vunits`"), "{msg}");
        let (col, msg) = err("assert a # b;");
        assert_eq!((col, msg.as_str()), (10, "unexpected character `#`"));
        // Cover takes a sequence.
        let (col, msg) = err("cover always (a -> next b);");
        assert_eq!(col, 7);
        assert!(msg.starts_with("`cover` takes a sequence"), "{msg}");
        assert_eq!(d("cover a && b").formula, psl("never {a && b}!"));
        assert_eq!(d("cover {a}!").formula, psl("never {a}!"));
        assert_eq!(d("cover rose(a)").formula, psl("never {rose(a)}!"));
    }

    /// Where a checker of `f` reports a failure on `trace` (each letter the
    /// signals that are high): the index of the letter, if any.
    fn fails_at(f: &Formula, trace: &[&[&str]], prefixes: Prefixes) -> Option<usize> {
        let mut b = Builder::new();
        b.configure(Config::new().check_safety(false).prefixes(prefixes));
        let dfa = b.build_from_formula(f).unwrap().into_dfa();
        let ab = dfa.alphabet();
        let mut s = dfa.start();
        for (i, letter) in trace.iter().enumerate() {
            let mut bits = 0u64;
            for name in *letter {
                if let Some(k) = ab.index(name) {
                    bits |= 1 << k;
                }
            }
            match dfa.step(s, &bits) {
                Target::Violation => return Some(i),
                Target::State(t) => s = t,
            }
        }
        None
    }

    #[test]
    fn a_cover_fails_when_covered() {
        let f = d("cover {req; !ack[*]; ack};").formula;
        for p in [Prefixes::Exact, Prefixes::Informative] {
            // A match from the second cycle.
            let trace: &[&[&str]] = &[&[], &["req"], &[], &[], &["ack"], &[]];
            assert_eq!(fails_at(&f, trace, p), Some(4));
            // A match from the first cycle.
            let trace: &[&[&str]] = &[&["req"], &["ack"]];
            assert_eq!(fails_at(&f, trace, p), Some(1));
            // No match.
            let trace: &[&[&str]] = &[&["ack"], &["req", "ack"], &["req"], &[]];
            assert_eq!(fails_at(&f, trace, p), None);
        }
        // An empty match does not cover.
        let f = d("cover {[*0]}").formula;
        assert_eq!(fails_at(&f, &[&[], &["a"]], Prefixes::Exact), None);
        // A match that can no longer be avoided: the exact monitor fails at
        // once, the informative one when the match is complete.
        let f = d("cover {a; true}").formula;
        let trace: &[&[&str]] = &[&[], &["a"], &[], &[]];
        assert_eq!(fails_at(&f, trace, Prefixes::Exact), Some(1));
        assert_eq!(fails_at(&f, trace, Prefixes::Informative), Some(2));
    }

    /// A directive of a random PSL property, with a clock and a reset
    /// around it, has the formula `parse_psl` reads without them.
    #[test]
    fn the_formula_is_the_property_without_clock_and_reset() {
        for seed in 0..400u64 {
            let mut rng = SplitMix64::new(seed);
            let f = random_psl(&mut rng, &["a", "b", "c"], 2 + (seed % 10) as usize);
            let text = f.to_psl().unwrap();
            let plain = psl(&text);
            let x = d(&text);
            // An outermost abort is the reset.
            let (core, reset) = match &x.disable {
                Some(r) => {
                    assert_eq!(
                        Formula::abort(x.formula.clone(), r.condition.clone()),
                        plain
                    );
                    (x.formula.clone(), Some(r.clone()))
                }
                None => {
                    assert_eq!(x.formula, plain, "seed {seed}: {text}");
                    (plain.clone(), None)
                }
            };
            let same = |input: String, reset: Option<Disable>| {
                let y = d(&input);
                assert_eq!(y.formula, core, "seed {seed}: {input}");
                assert_eq!(y.disable, reset, "seed {seed}: {input}");
                assert_eq!(y.clock, pos("clk"), "seed {seed}: {input}");
            };
            same(format!("assert ({text}) @(posedge clk);"), reset.clone());
            same(format!("@(posedge clk) {text}"), reset.clone());
            let input = format!("vunit v {{ default clock = posedge clk; assert {text}; }}");
            let units = parse_vunits(&input).unwrap_or_else(|e| panic!("{input}: {e}"));
            let y = &units[0].directives[0];
            assert_eq!((&y.formula, &y.disable), (&core, &reset), "{input}");
            assert_eq!(y.clock, pos("clk"));
            if reset.is_none() {
                let r = Some(Disable {
                    condition: psl("rst"),
                    synchronous: true,
                });
                same(
                    format!("(({text}) sync_abort rst) @(posedge clk)"),
                    r.clone(),
                );
                same(format!("@(posedge clk) ({text}) sync_abort rst"), r);
                let r = Some(Disable {
                    condition: psl("rst"),
                    synchronous: false,
                });
                same(
                    format!("@(posedge clk) disable iff (rst) {text}"),
                    r.clone(),
                );
                let y = d(&format!(
                    "assert property (@(posedge clk) disable iff (rst) {text});"
                ));
                let g = if plain.op() == Op::G {
                    plain.clone()
                } else {
                    Formula::always(plain.clone())
                };
                assert_eq!((y.formula, y.disable), (g, r));
            }
        }
    }
}

#[cfg(test)]
mod vunit_tests {
    use super::tests_support::*;
    use super::*;
    use crate::formula::parse_psl;

    fn v(s: &str) -> Vec<Vunit> {
        parse_vunits(s).unwrap_or_else(|e| panic!("{s}:\n{e}"))
    }

    const FILE: &str = r#"
// Two units, with and without a module.
vunit arbiter_props (top.u_arb) {
    default clock = (posedge clk);
    default disable iff (rst);
    /* declarations */
    sequence REQ = {req; !gnt[*0:2]};
    property RESP = always REQ |=> gnt;
    property MUTEX = never (gnt0 && gnt1);
    p_resp: assert RESP report "no grant";
    assert MUTEX;
    p_own: assert (always (a -> next b) @(negedge clk2)) abort halt;
    assume always {REQ; done} |-> idle;
    c_req: cover {REQ; gnt};
    restrict {rst[*2]; !rst[*]};
}
vunit bare {
    assert always x;
}
"#;

    #[test]
    fn a_file_of_vunits() {
        let units = v(FILE);
        assert_eq!(units.len(), 2);
        let u = &units[0];
        assert_eq!(u.name, "arbiter_props");
        assert_eq!(u.module.as_deref(), Some("top.u_arb"));
        assert!(FILE[u.span.clone()].starts_with("vunit arbiter_props"));
        assert!(FILE[u.span.clone()].ends_with('}'));
        let ds = &u.directives;
        assert_eq!(ds.len(), 6);
        for x in ds {
            assert_eq!(&FILE[x.span.clone()], x.text);
        }
        let posclk = Some(Clock {
            signal: "clk".into(),
            edge: ClockEdge::Posedge,
        });
        let rst = Some(Disable {
            condition: parse_psl("rst").unwrap(),
            synchronous: false,
        });
        let f = |s: &str| parse_psl(s).unwrap();
        assert_eq!(ds[0].label.as_deref(), Some("p_resp"));
        assert_eq!(ds[0].report.as_deref(), Some("no grant"));
        assert_eq!(ds[0].text, "RESP");
        assert_eq!(ds[0].formula, f("always {req; !gnt[*0:2]} |=> gnt"));
        assert_eq!((&ds[0].clock, &ds[0].disable), (&posclk, &rst));
        assert_eq!(ds[1].formula, f("never (gnt0 && gnt1)"));
        assert_eq!(ds[1].label, None);
        // Its own clock and reset.
        assert_eq!(ds[2].formula, f("always (a -> next b)"));
        assert_eq!(
            ds[2].clock,
            Some(Clock {
                signal: "clk2".into(),
                edge: ClockEdge::Negedge
            })
        );
        assert_eq!(ds[2].disable.as_ref().unwrap().condition, f("halt"));
        assert_eq!(ds[3].kind, DirectiveKind::Assume);
        assert_eq!(
            ds[3].formula,
            f("always {{req; !gnt[*0:2]}; done} |-> idle")
        );
        assert_eq!(ds[4].kind, DirectiveKind::Cover);
        assert_eq!(ds[4].formula, f("never {{req; !gnt[*0:2]}; gnt}!"));
        assert_eq!(ds[5].kind, DirectiveKind::Restrict);
        assert_eq!(ds[5].formula, f("{rst[*2]; !rst[*]}"));
        let b = &units[1];
        assert_eq!((b.name.as_str(), b.module.as_deref()), ("bare", None));
        assert_eq!(b.directives[0].clock, None);
        assert_eq!(b.directives[0].disable, None);
    }

    #[test]
    fn vunit_forms() {
        // A default clock without parentheses, in `rose` form, after the
        // directives; `is` (VHDL); stray `;`; an empty unit.
        let units = v("vunit a(m) { assert always x; default clock = rose(clk);; }
                       vunit b { } vunit c { default clock is (fell(c)); property P is always y; assert P; }");
        assert_eq!(
            units[0].directives[0].clock.as_ref().unwrap().to_string(),
            "posedge clk"
        );
        assert!(units[1].directives.is_empty());
        assert_eq!(
            units[2].directives[0].clock.as_ref().unwrap().to_string(),
            "negedge c"
        );
        // A property declared with a clock and a reset, used whole.
        let units = v("vunit a { property P = @(posedge k) disable iff (r) always x; assert P; }");
        let x = &units[0].directives[0];
        assert_eq!(x.clock.as_ref().unwrap().signal, "k");
        assert_eq!(x.formula, parse_psl("always x").unwrap());
        // Used in a bigger property, in parentheses.
        let units = v("vunit a { property P = x || y; assert always P && z; }");
        assert_eq!(
            units[0].directives[0].formula,
            parse_psl("always (x || y) && z").unwrap()
        );
        // A directive's own disable iff wins over the default one.
        let units = v("vunit a { default disable iff (r1); assert disable iff (r2) always x; }");
        let r = &units[0].directives[0].disable;
        assert_eq!(r.as_ref().unwrap().condition, parse_psl("r2").unwrap());
        // A default clock without its own: the directive's clock wins.
        let units = v("vunit a { default clock = posedge c1; assert (always x) @(posedge c2); }");
        assert_eq!(units[0].directives[0].clock.as_ref().unwrap().signal, "c2");
        // The default clock again inside: fine.
        let units = v(
            "vunit a { default clock = posedge c; assert always (x -> next (y @(posedge c))); }",
        );
        assert_eq!(units[0].directives[0].clock.as_ref().unwrap().signal, "c");
    }

    #[test]
    fn vunit_errors() {
        let cases: &[(&str, usize, usize, &str)] = &[
            (
                "vunit v {\n  wire x = a + b;\n}",
                2,
                3,
                "`wire` is not supported in a vunit: only `default clock`, `default disable iff`, \
                 `property` and `sequence` declarations and `assert`, `assume`, `restrict` and \
                 `cover` directives are (Verilog modelling statements are not)",
            ),
            (
                "vunit v {\n  assign x = a;\n}",
                2,
                3,
                "`assign` is not supported in a vunit",
            ),
            (
                "vunit v {\n  inherit w;\n}",
                2,
                3,
                "`inherit` is not supported: copy the declarations into this vunit",
            ),
            (
                "vunit v { always a; }",
                1,
                11,
                "`always` is not supported in a vunit",
            ),
            ("vunit v { # }", 1, 11, "unexpected character `#`"),
            (
                "vunit v { assert P; property P = a; }",
                1,
                18,
                "`P` is used before its declaration (line 1, column 30): declare properties and \
                 sequences before using them",
            ),
            (
                "vunit v { property P = next P; }",
                1,
                29,
                "`P` is used in its own declaration",
            ),
            (
                "vunit v { property P = a;\n property P = b; }",
                2,
                11,
                "`P` is already declared (line 1, column 20)",
            ),
            (
                "vunit v { p: assert a;\n p: assert b; }",
                2,
                2,
                "the label `p` is already used (line 1, column 11)",
            ),
            (
                "vunit v { property P = always a; assert {P; b}; }",
                1,
                42,
                "`P` is a property, not a sequence",
            ),
            (
                "vunit v { sequence S = a; }",
                1,
                11,
                "a named sequence is a SERE in braces",
            ),
            (
                "vunit v { sequence S = {a} |-> b; }",
                1,
                11,
                "a named sequence is a SERE in braces",
            ),
            (
                "vunit v { property P(x) = x; }",
                1,
                21,
                "parameters of named properties are not supported",
            ),
            (
                "vunit v { property P; }",
                1,
                11,
                "SVA `property ... endproperty` blocks are not supported",
            ),
            (
                "vunit v { property P = ; }",
                1,
                24,
                "expected a property, found `;`",
            ),
            (
                "vunit v { property P = always; }",
                1,
                30,
                "expected a property, found `;`",
            ),
            (
                "vunit v {\n default clock = posedge c1;\n assert always (a -> next b @(posedge c2));\n}",
                3,
                29,
                "two clocks in one directive: `@(posedge c2)` here and the default clock \
                 `posedge c1` (line 2, column 18); a checker has one clock",
            ),
            (
                "vunit v { default clock = clk; }",
                1,
                27,
                "a clock needs an edge: write `@(posedge clk)`",
            ),
            (
                "vunit v { default clock = posedge a; default clock = posedge b; }",
                1,
                38,
                "a vunit has one default clock and one default reset",
            ),
            (
                "vunit v { default clocking @(posedge c); endclocking }",
                1,
                11,
                "SVA `default clocking` blocks are not supported",
            ),
            (
                "vunit v { default disable iff (next r); }",
                1,
                11,
                "the condition of `default disable iff` must be a Boolean",
            ),
            (
                "vunit v { assert always a }",
                1,
                27,
                "expected `;` (before `}`)",
            ),
            (
                "vunit v { assert always a;",
                1,
                9,
                "the `{` of vunit `v` is never closed",
            ),
            (
                "vunit v { assert {a; b; }",
                1,
                25,
                "expected a SERE, found `}`",
            ),
            (
                "vunit v { assert {a; b }",
                1,
                9,
                "the `{` of vunit `v` is never closed",
            ),
            (
                "vunit v { assert {a; (b }",
                1,
                25,
                "expected a SERE operator or `)`, found `}`",
            ),
            (
                "vunit v { assert a; } vunit v { }",
                1,
                29,
                "vunit `v` is declared twice",
            ),
            (
                "vunit v { } assert a;",
                1,
                13,
                "expected `vunit`, found `assert`",
            ),
            (
                "// nothing",
                1,
                11,
                "expected `vunit`, found the end of the input",
            ),
            ("vunit { }", 1, 7, "expected the name of the vunit"),
            ("vunit v (a, b) { }", 1, 11, "expected `)`"),
            ("vunit v (e(arch)) { }", 1, 11, "expected `)`"),
            (
                "vunit v assert",
                1,
                9,
                "expected `{` (the body of the vunit)",
            ),
            ("vmode m { }", 1, 1, "`vmode` units are not supported"),
            (
                "vunit v { cover next a; }",
                1,
                17,
                "`cover` takes a sequence",
            ),
        ];
        for &(input, line, col, msg) in cases {
            let (l, c, m) = verr(input);
            assert!(m.starts_with(msg), "{input}:\n{m}");
            assert_eq!((l, c), (line, col), "{input}: {m}");
        }
    }

    #[test]
    fn errors_stay_on_one_line() {
        // A string spans lines; the error shows its first line.
        let (l, c, m) = verr("vunit v {\n  \"a\nb\" }");
        assert_eq!((l, c), (2, 3));
        assert!(m.ends_with("found `\"a...`"), "{m}");
        let (l, c, m) = verr("vunit v {\n  assert a report\n\n b; }");
        assert_eq!((l, c), (4, 2));
        assert_eq!(m, "expected a string, found `b`");
    }

    #[test]
    fn expansion_is_bounded() {
        let mut input = "vunit v { property P0 = a;".to_string();
        for k in 1..40 {
            input.push_str(&format!(" property P{k} = P{} && P{};", k - 1, k - 1));
        }
        input.push_str(" assert P39; }");
        let (_, _, m) = verr(&input);
        assert!(m.contains("expand to more than"), "{m}");
        // Many medium-sized items stop too.
        let mut input = "vunit v { property P0 = a;".to_string();
        for k in 1..14 {
            input.push_str(&format!(" property P{k} = P{} && P{};", k - 1, k - 1));
        }
        for _ in 0..200 {
            input.push_str(" assert P13;");
        }
        input.push('}');
        let (_, _, m) = verr(&input);
        assert!(m.contains("expand to more than"), "{m}");
    }
}

/// Helpers shared by the tests of this module.
#[cfg(test)]
mod tests_support {
    use super::*;

    /// An error points inside the input and renders with a caret.
    pub(super) fn check_error(input: &str, e: &ParseError) {
        assert!(e.offset() <= input.len(), "{input:?}: {e}");
        assert!(input.is_char_boundary(e.offset()), "{input:?}: {e}");
        assert_eq!(e.line(), input[..e.offset()].matches('\n').count() + 1);
        let text = e.to_string();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.ends_with('^'), "{text}");
    }

    /// The error of a file of vunits: its line, column and message.
    pub(super) fn verr(s: &str) -> (usize, usize, String) {
        let e = parse_vunits(s).expect_err(s);
        check_error(s, &e);
        (e.line(), e.column(), e.message())
    }
}

#[cfg(test)]
mod fuzz {
    use super::tests_support::check_error;
    use super::*;
    use proptest::prelude::*;
    use std::time::{Duration, Instant};

    /// Parses `input` both ways: no panic, errors inside the input, the
    /// text of every directive at its span, and in bounded time.
    fn check(input: &str) {
        let start = Instant::now();
        match parse_directive(input) {
            Ok(d) => assert_eq!(&input[d.span.clone()], d.text, "{input:?}"),
            Err(e) => check_error(input, &e),
        }
        match parse_vunits(input) {
            Ok(units) => {
                for d in units.iter().flat_map(|u| &u.directives) {
                    assert_eq!(&input[d.span.clone()], d.text, "{input:?}");
                    let e = d.error(input, "x");
                    check_error(input, &e);
                }
            }
            Err(e) => check_error(input, &e),
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{input:?} took {:?}",
            start.elapsed()
        );
    }

    const PIECES: &[&str] = &[
        "vunit",
        "v",
        "w",
        "(",
        ")",
        "{",
        "}",
        ";",
        ":",
        "top.u",
        "assert",
        "assume",
        "cover",
        "restrict",
        "property",
        "sequence",
        "P",
        "S",
        "=",
        "default",
        "clock",
        "disable",
        "iff",
        "posedge",
        "negedge",
        "clk",
        "rose(clk)",
        "fell",
        "@",
        "@(posedge clk)",
        "@(negedge c2)",
        "abort",
        "sync_abort",
        "async_abort",
        "rst",
        "!",
        "&&",
        "||",
        "->",
        "|->",
        "|=>",
        "always",
        "never",
        "next",
        "until",
        "eventually!",
        "a",
        "b",
        "[*",
        "[*]",
        "2",
        "]",
        "report",
        "\"msg\"",
        "\"",
        "##",
        "##1",
        "$rose",
        "throughout",
        "else",
        "wire",
        "inherit",
        "--",
        "//",
        "/*",
        "*/",
        "\n",
        " ",
        "é",
        "#",
        "p1:",
        "1'b1",
        "x == 3",
    ];

    fn soup() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|v| v.join(" "))
    }

    const VALID: &[&str] = &[
        "vunit arb (top.u_arb) {\n  default clock = (posedge clk);\n  default disable iff (rst);\n  \
         sequence REQ = {req; !gnt[*0:2]};\n  property RESP = always REQ |=> gnt;\n  \
         p1: assert RESP report \"no grant\";\n  \
         p2: assert (always (a -> next b) @(negedge clk2)) sync_abort halt;\n  \
         c1: cover {REQ; gnt};\n}\nvunit w { assume always !(x && y); }\n",
        "assert property (@(posedge clk) disable iff (!rst_n) always ({req} |=> {ack[->1]}));",
        "p: cover {a; b[*1:3]; c} @(rose(clk)) report \"seen\";",
        "vunit v { property P = always (a -> next (b until c)); assert P; restrict {r[*2]; !r[*]}; }",
    ];

    /// A valid input, edited at random (`edits` as (what, where, length,
    /// piece)).
    fn mutate(base: &str, edits: &[(u8, usize, usize, usize)]) -> String {
        let mut s: Vec<char> = base.chars().collect();
        for &(what, at, len, piece) in edits {
            let at = at % (s.len() + 1);
            let end = (at + len % 12).min(s.len());
            match what % 4 {
                0 => {
                    s.drain(at..end);
                }
                1 => {
                    let copy: Vec<char> = s[at..end].to_vec();
                    s.splice(at..at, copy);
                }
                2 => {
                    let p: Vec<char> = PIECES[piece % PIECES.len()].chars().collect();
                    s.splice(at..at, p);
                }
                _ => {
                    let p: Vec<char> = PIECES[piece % PIECES.len()].chars().collect();
                    s.splice(at..end, p);
                }
            }
        }
        s.into_iter().collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn arbitrary_strings(s in "\\PC{0,60}") {
            check(&s);
        }

        #[test]
        fn token_soups(s in soup()) {
            check(&s);
            check(&format!("vunit v {{ {s} }}"));
            check(&format!("assert property (@(posedge clk) {s});"));
        }

        #[test]
        fn mutated_vunits(
            base in 0..VALID.len(),
            edits in prop::collection::vec((any::<u8>(), any::<usize>(), any::<usize>(), any::<usize>()), 1..5),
        ) {
            check(&mutate(VALID[base], &edits));
        }
    }

    #[test]
    fn the_valid_inputs_are_valid() {
        for input in VALID {
            if input.starts_with("vunit") {
                parse_vunits(input).unwrap_or_else(|e| panic!("{e}"));
            } else {
                parse_directive(input).unwrap_or_else(|e| panic!("{e}"));
            }
        }
    }

    /// Deep nesting is an error, not a stack overflow; nested parentheses
    /// in SEREs take polynomial time (they took exponential time).
    #[test]
    fn deep_and_nested_inputs() {
        for open in [
            "(",
            "!",
            "always ",
            "next ",
            "{",
            "{(",
            "({",
            "@(",
            "a @(posedge c) && ",
        ] {
            let n = 5000;
            let s = format!("assert property ({}a", open.repeat(n));
            check(&s);
            check(&format!("vunit v {{ {} }}", &s[..s.len().min(4000)]));
        }
        let s = format!("{}a", "{(".repeat(40));
        let start = Instant::now();
        assert!(parse_directive(&s).is_err());
        assert!(crate::formula::parse_psl(&s).is_err());
        assert!(start.elapsed() < Duration::from_secs(1));
        // Long flat inputs.
        let s = format!("always a {}", "@(posedge c) ".repeat(20_000));
        assert_eq!(parse_directive(&s).unwrap().clock.unwrap().signal, "c");
        let s = format!("(always a) {}", "abort r ".repeat(20_000));
        assert!(parse_directive(&s).unwrap().disable.is_some());
    }
}
