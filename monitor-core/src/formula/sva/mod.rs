//! A parser for SystemVerilog Assertions (IEEE 1800-2017, chapter 16):
//! concurrent properties and sequences, with one clock.
//!
//! SVA is translated into the formulas of this crate, as PSL is (module
//! [`psl`](super::psl)): sequences become SEREs ([`Op::Concat`],
//! [`Op::Fusion`], [`Op::Star`], ...),
//! and properties the closures, suffix operators and LTL operators over
//! them. Everything is read on infinite words, one letter per clock tick,
//! with the semantics of Annex F.
//!
//! * [`parse_sva`] reads one property (or sequence) and returns what one
//!   evaluation attempt, started at the first tick, checks: `a |-> b` is
//!   `a -> b` at the first letter.
//! * [`parse_sva_directive`] reads an assertion as written in a design,
//!   `LABEL: assert property (@(posedge clk) disable iff (rst) p);`, with
//!   its declarations before it, and returns a [`Directive`]: the formula
//!   checks `p` at every tick (`always p`: an assertion starts an attempt
//!   at every tick, §16.14), and the clock and the reset come beside it, as
//!   for PSL directives ([`vunit`](super::vunit)).
//!
//! # Language
//!
//! | SVA | section | meaning (PSL, Spot) |
//! |---|---|---|
//! | `!` `~` `&&` `&` `\|\|` `\|` `^` `->` `<->` `?:` | 11.4 | Boolean operators on 1-bit operands |
//! | `sig`, `bus[3]`, `state == 2`, `count >= 4'd12`, `x === y`, `v != '0` | 11.4, 5.7.1 | atomic propositions named by their text (`===` and `!==` kept: they read x and z bits) |
//! | `(b) == 1'b1`, `(!rst_ni) !== '0`, `!v == 0` | 11.4.5 | a Boolean expression compared with 0 or 1: `b`, `!b` |
//! | `r ##1 s`, `r ##0 s`, `r ##n s` | 16.9.2 | `{r; s}`, `{r : s}`, `{r; true[*n-1]; s}` |
//! | `r ##[m:n] s`, `##[m:$]`, `##[*]`, `##[+]`, `##n s` | 16.9.2 | ranges of delays; a leading `##` delays from `1` |
//! | `r[*n]`, `r[*m:n]`, `r[*m:$]`, `r[*]`, `r[+]` | 16.9.2 | consecutive repetition (`r[*0]` is the empty sequence) |
//! | `b[->m:n]`, `b[=m:n]` | 16.9.2 | goto `{!b[*]; b}[*m:n]`, non-consecutive `{b[->m:n]; !b[*]}` |
//! | `r and s`, `r or s`, `r intersect s` | 16.9.5–16.9.7 | both match (ends at the later: PSL's `&`), either, both with the same length (`&&`) |
//! | `r within s`, `b throughout r` | 16.9.9, 16.9.10 | `{[*]; r; [*]} && s`, `b[*] && r` |
//! | `first_match(r)` | 16.9.8 | the matches of `r` with no shorter match from the same start ([`Op::FirstMatch`], Spot's `first_match`) |
//! | `r`, `weak(r)`, `strong(r)` | 16.12.2 | weak `{r}` (in assertions without `strong`), strong `{r}!` |
//! | `r \|-> p`, `r \|=> p` | 16.12.7 | `{r} \|-> p`, `{r; true} \|-> p` |
//! | `r #-# p`, `r #=# p` | 16.12.9 | `{r} <>-> p`, `{r; true} <>-> p` |
//! | `not p`, `p and q`, `p or q`, `p implies q`, `p iff q` | 16.12.3–16.12.8 | `!p`, `p & q`, `p \| q`, `p -> q`, `p <-> q` |
//! | `if (b) p`, `if (b) p else q`, `case (e) v: p; default: q; endcase` | 16.12.8, 16.12.16 | `b -> p`, `(b -> p) & (!b -> q)`, the first item with `e == v` |
//! | `nexttime p`, `nexttime [n] p`, `s_nexttime` | 16.12.10 | `X p`, `Xⁿ p` |
//! | `always p`, `always [m:n] p`, `always [m:$] p`, `s_always [m:n] p` | 16.12.11 | `G p`, `G[m:n] p`, `Xᵐ G p` |
//! | `s_eventually p`, `s_eventually [m:$] p`, `eventually [m:n] p`, `s_eventually [m:n] p` | 16.12.13 | `F p`, `Xᵐ F p`, `F[m:n] p` |
//! | `p until q`, `s_until`, `until_with`, `s_until_with` | 16.12.12 | `p W q`, `p U q`, `p W (p & q)`, `p U (p & q)` |
//! | `accept_on (b) p`, `reject_on (b) p`, `sync_*` | 16.12.14 | `p abort b`, `!(!p abort b)` |
//! | `$past(e)`, `$past(e, n)`, `$sampled(e)` | 16.9.3 | `Y e`, `Yⁿ e`, `e` |
//! | `$rose(e)`, `$fell(e)`, `$stable(e)`, `$changed(e)` | 16.9.3 | `e & !Y e`, `!e & Y e`, `e <-> Y e`, `e xor Y e` |
//! | `$onehot({a,b,c})`, `$onehot0(...)`, `$countones(...) == k`, `$isunknown(e)` | 20.9 | exactly one, at most one, `k` of the bits (also `!=`, `<`, `<=`, `>`, `>=`), whether a signal has x or z bits |
//! | `sequence s(x, y = 1); ... endsequence`, `property p(...); ... endproperty`, `let l(x) = e;` | 16.8, 16.12, 11.12 | expanded where used, each formal replaced by its actual |
//! | `@(posedge clk)`, `default clocking @(posedge clk); endclocking` | 16.16, 14.12 | the directive's [`Clock`](super::Clock) |
//! | `disable iff (b)`, `default disable iff (b);` | 16.12, 16.15 | the directive's [`Disable`] |
//! | `LABEL: assert property (p) [else ...];`, `assume`, `restrict`, `cover property`, `cover sequence` | 16.14 | [`Directive`] (an action block is skipped) |
//!
//! Precedence (Table 16-3), from the tightest: Boolean operators,
//! repetitions, `##`, `throughout` (right), `within`, `intersect`, `not`
//! `nexttime` `s_nexttime`, `and`, `or`, `iff` (right), `until` and its
//! kin and `implies` (right), `|->` `|=>` `#-#` `#=#` (right), and the
//! prefix operators `always`, `eventually`, `if`, `case`, `accept_on`,
//! ... whose operand extends as far as possible.
//!
//! # Semantics
//!
//! * A sequence used as a property, without `strong`, is weak (§16.12.2:
//!   so it is in `assert`, `assume` and `restrict`): `{r}`, which fails
//!   only when no extension of the prefix can match. `not r` is then
//!   `not weak(r)`. A sequence used as a property must not admit an
//!   empty match (§16.12.2).
//! * `##0` is fusion and `##n` (n > 0) is concatenation with `n - 1`
//!   letters between (Annex F), which gives the rules of §16.9.2.1 for
//!   empty sequences: `a[*0] ##1 b` is `b`, `a[*0] ##0 b` never matches,
//!   `a ##1 b[*0]` is `a`. The antecedent of `|->` counts only non-empty
//!   matches: `a[*0] |-> p` holds, `a[*0] |=> p` is `p`.
//! * Sampled-value functions read the sampled values of the previous
//!   ticks; before the first tick the value is the default, 0 (§16.9.3):
//!   `$past(a)` is false at the first tick, `$rose(a)` is `a` there,
//!   `$stable(a)` is `!a`.
//! * `$isunknown(v)` of a signal (or of a concatenation of signals) is an
//!   atom of its own, `$isunknown(v)`: the trace checker reads whether a
//!   waveform's value has an x or z bit, Verilog checkers compute it,
//!   NuSMV and Promela models (two-valued) read false, and the C++
//!   targets refuse it.
//! * `===` and `!==` (§11.4.5) stay in the atom of a signal (`x !== 1'b1`):
//!   the trace checker reads x and z bits in a waveform exactly (a vector
//!   with one is never identical to a constant, where `==` refuses the
//!   value), Verilog checkers keep the operator, and the two-valued
//!   targets (NuSMV, Promela, C++) read `==`. A Boolean expression
//!   compared with 0 or 1 (`(!rst_ni) !== '0`, as lowRISC's macros write a
//!   reset) is itself or its negation: exact on two-valued values; an
//!   unknown reset holds the trace checker in reset, which is what
//!   `!== '0` asks. The fill literal `'0` (§5.7.1) is 0; `'1` is refused
//!   beside a signal (its width is not known here), and `'x`, `'z` are
//!   refused.
//! * Weak and strong forms (`nexttime` and `s_nexttime`, `always [m:n]`
//!   and `s_always [m:n]`, ...) agree on infinite words; `s_eventually`
//!   and `s_until` are not safety properties, and a monitor checks their
//!   safety part.
//! * `sync_accept_on` and `sync_reject_on` are `accept_on` and
//!   `reject_on`: with one letter per tick, the condition is only seen at
//!   the ticks.
//! * `disable iff (b)` disables the attempts during which `b` holds
//!   (Annex F: an attempt fails only if it fails before the first tick of
//!   `b`, with every Boolean true from there). It is part of the
//!   formula, `always (accept_on(b) p)` (for `cover`, the match must see
//!   `b` low throughout): a checker that is only held in reset cannot
//!   take back a failure it reported early, as an exact monitor does
//!   (`a |=> 1'b0` fails as soon as `a` is read, and a reset at the next
//!   tick disables that attempt). A [`Directive`] also returns it beside
//!   the formula, as the checker's reset (restarting when `b` falls
//!   changes nothing then), unless the property or `b` reads past values
//!   (`$past`, `$rose`, ...): a restarted checker would read the default
//!   value before the restart, where the standard reads the signal.
//!   The one difference with Annex F: an unsatisfiable property (`a
//!   intersect a ##1 b`) on a trace in reset at every tick is disabled,
//!   as §16.12 says, where Annex F fails its attempts.
//!
//! # Vectors
//!
//! An identifier is a signal read as a Boolean (a vector is "nonzero", as
//! in a Verilog condition), vectors compared with constants (`count ==
//! 3`) become propositions, and `~`, `&`, `|`, `^` between operands are
//! read as Boolean operators. Where the meaning depends on a width, the
//! declarations given to [`parse_sva_with`] ([`Signals`]) are read, and
//! the expression becomes propositions every back end reads alike: bits
//! (`v[2]`), comparisons with zero and of an index with a number.
//!
//! | SVA | meaning |
//! |---|---|
//! | `\|v`, `~\|v` | `v != 0`, `v == 0` (no width needed) |
//! | `&v`, `~&v`, `^v`, `~^v` | the bits' conjunction, parity (§11.4.9) |
//! | `$onehot(v)`, `$onehot0(v)`, `$countones(v) == k`, `$countones({a, v})` | counted over the bits (§20.9) |
//! | `v[i]` | `(i == 0 && v[0]) \|\| (i == 1 && v[1]) \|\| ...`: false where `i` is out of range (the bit is x) |
//! | `$past(v, n) == v`, `v != $past(v)`, `$past(v) < 3`, `$past(v) === '1` | bit by bit, the narrower operand extended, signed when both are (§11.4.4, §11.4.5) |
//! | `$stable(v)`, `$changed(v)` | every bit (§16.9.3) |
//! | `$rose(v)`, `$fell(v)` | the least significant bit (§16.9.3) |
//! | `cnt + 1 > 3`, `(v & w) != 0`, `q == $past(q) + 1'b1`, `{a, b}`, `8'(e)`, `v inside {1, [4:6]}` | Verilog's value, sized as §11.6 and §11.8 say, bit by bit |
//!
//! Operators on vectors (`+ - * / % & | ^ ~^ ~ << >> <<< >>> ?:`, unary
//! `-`, concatenation and replication, size casts, `$signed`,
//! `$unsigned`, `$countones` as a number, `inside`) are read by a
//! vector expression parser (`parser/vector.rs`): the operands of an
//! operation and of a comparison take the widest width, an unsized number
//! is 32 bits and signed, an operation is signed only when every operand
//! is, an operand is sign-extended only in a signed operation, and each
//! bit of the value is a formula of the signals' bits (a ripple-carry
//! adder, shift-and-add products, long division by a constant, a barrel
//! shifter). Division and modulo are by a nonzero constant, `**` is
//! refused, and an operation is at most 128 bits wide.
//!
//! Without a declaration, a signal in a sampled-value function is read as
//! 1-bit (`$rose(v)` is `v` nonzero, not its least significant bit), and
//! the other forms above, but `|v` and `~|v`, are refused with a caret at
//! the signal. A vector has at most 256 bits here, and a sampled-value
//! function remembers at most 64 (a monitor's states grow as two to that
//! number). `$onehot({a, b})` of undeclared signals counts them as bits.
//!
//! # Limits
//!
//! Delays and repetition counts are numbers (up to 10,000).
//! Refused, with a caret and the section: local variables (§16.10), more
//! than one clock or clocks that do not cover the property (§16.13), a
//! clocking argument or gating expression of `$past` and its kin
//! (§16.9.3), recursive properties (§16.12.17), `expect` (§16.17),
//! `.triggered` (§16.9.11) and `.matched` (§16.13.6), `dist`, and a
//! second `disable iff`.
//!
//! ```
//! use monitor_core::formula::{parse_psl, sva::{parse_sva, parse_sva_directive}};
//!
//! let f = parse_sva("req |-> ##[1:3] ack")?;
//! assert_eq!(f, parse_psl("req -> {true; [*0:2]; ack}")?);
//! assert_eq!(parse_sva("a ##1 b |=> c")?, parse_psl("{a; b; true} |-> c")?);
//!
//! let d = parse_sva_directive(
//!     "p_ack: assert property (@(posedge clk) disable iff (rst) req |=> ack);",
//! )?;
//! assert_eq!(d.label.as_deref(), Some("p_ack"));
//! assert_eq!(d.formula, parse_psl("always ((req -> next ack) async_abort rst)")?);
//! assert_eq!(d.clock.unwrap().to_string(), "posedge clk");
//! assert_eq!(d.disable.unwrap().condition, parse_psl("rst")?);
//!
//! let err = parse_sva("a ##1 b.triggered").unwrap_err();
//! assert_eq!(err.column(), 7);
//! assert!(err.message().contains("§16.9.11"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::parse::{ParseError, ParseErrorKind};
use super::psl::T;
use super::vunit::{Directive, DirectiveKind, Disable};
use super::{Formula, Op};
use crate::formula::cursor::Span;

#[cfg(test)]
mod instance_tests;
mod lex;
mod parser;

/// The declarations of the signals a property reads: which are scalars,
/// which are vectors and their ranges, which are signed. The SVA front
/// end needs them where the meaning of an expression depends on a width
/// (the reduction `&v` reads every bit of `v`, `$stable(v)` compares
/// every bit with its past value): `mongen` gives those of `--input
/// NAME:WIDTH` and `--design`.
///
/// ```
/// use monitor_core::formula::sva::Signals;
///
/// let s = Signals::new().scalar("req").vector("data", 7, 0).signed_vector("delta", 3, 0);
/// assert_eq!(s.width("data"), Some(8));
/// assert_eq!(s.width("req"), Some(1));
/// assert_eq!(s.width("other"), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signals {
    shapes: std::collections::HashMap<String, Shape>,
    /// Declared with a type whose width is not known to the caller.
    opaque: std::collections::HashSet<String>,
}

/// The declaration of one signal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shape {
    /// `[msb:lsb]`; `None` for a scalar.
    pub(crate) range: Option<(u32, u32)>,
    pub(crate) signed: bool,
}

impl Signals {
    /// No declarations: every signal's width is unknown.
    pub fn new() -> Signals {
        Signals::default()
    }

    /// Declares `name` a one-bit scalar.
    pub fn scalar(mut self, name: &str) -> Signals {
        self.shapes.insert(
            name.to_string(),
            Shape {
                range: None,
                signed: false,
            },
        );
        self
    }

    /// Declares `name` an unsigned vector `[msb:lsb]` (`[0:7]` has its
    /// least significant bit at index 7).
    pub fn vector(mut self, name: &str, msb: u32, lsb: u32) -> Signals {
        self.shapes.insert(
            name.to_string(),
            Shape {
                range: Some((msb, lsb)),
                signed: false,
            },
        );
        self
    }

    /// Declares `name` a signed vector `[msb:lsb]`.
    pub fn signed_vector(mut self, name: &str, msb: u32, lsb: u32) -> Signals {
        self.shapes.insert(
            name.to_string(),
            Shape {
                range: Some((msb, lsb)),
                signed: true,
            },
        );
        self
    }

    /// Declares `name` a signal whose type's width the caller does not
    /// know (a struct, say): its vector uses are refused with a message
    /// that says so, rather than one that asks for a declaration.
    ///
    /// ```
    /// # use monitor_core::formula::sva::{parse_sva_with, Signals};
    /// let s = Signals::new().opaque("pkt");
    /// assert_eq!(s.width("pkt"), None);
    /// let e = parse_sva_with("$onehot(pkt)", &s).unwrap_err();
    /// assert!(e.message().contains("`pkt` is declared with a type whose width"));
    /// ```
    pub fn opaque(mut self, name: &str) -> Signals {
        self.shapes.remove(name);
        self.opaque.insert(name.to_string());
        self
    }

    /// Whether `name` is declared with a type of unknown width
    /// ([`Signals::opaque`]).
    pub fn is_opaque(&self, name: &str) -> bool {
        self.opaque.contains(name)
    }

    /// The width of `name`, if it is declared.
    pub fn width(&self, name: &str) -> Option<u64> {
        self.shapes
            .get(name)
            .map(|s| s.range.map_or(1, |(m, l)| u64::from(m.abs_diff(l)) + 1))
    }

    pub(crate) fn shape(&self, name: &str) -> Option<Shape> {
        self.shapes.get(name).copied()
    }

    /// Whether nothing is declared.
    pub fn is_empty(&self) -> bool {
        self.shapes.is_empty() && self.opaque.is_empty()
    }
}

use lex::lex;
use parser::{Node, Parser};

/// Parses one SVA property or sequence (with `sequence`, `property` and
/// `let` declarations before it) and returns what one evaluation attempt
/// started at the first tick checks.
///
/// Clocks, `disable iff` and directives (`assert property (...)`, which
/// checks at every tick) are refused, with a message naming
/// [`parse_sva_directive`], which reads them.
///
/// ```
/// # use monitor_core::formula::{parse, sva::parse_sva};
/// assert_eq!(parse_sva("a |-> nexttime b")?, parse("a -> X b")?);
/// assert_eq!(parse_sva("$rose(req) |-> ack")?, parse("(req & !Y req) -> ack")?);
/// assert_eq!(parse_sva("a until_with b")?, parse("a W (a & b)")?);
/// assert!(parse_sva("assert property (a);").is_err()); // see parse_sva_directive
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_sva(input: &str) -> Result<Formula, ParseError> {
    parse_sva_with(input, &Signals::new())
}

/// [`parse_sva`] with the declarations of the signals the property reads:
/// vector expressions whose meaning depends on a width (reductions,
/// `$onehot(v)`, `$countones(v)`, `v[i]`, `$past(v) == v`,
/// `$stable(v)`, ...) are then read bit by bit (see the [module
/// documentation](self), "Vectors").
///
/// ```
/// # use monitor_core::formula::{parse, sva::{parse_sva_with, Signals}};
/// let signals = Signals::new().vector("v", 1, 0);
/// assert_eq!(parse_sva_with("$stable(v)", &signals)?, parse("(\"v[0]\" <-> Y \"v[0]\") & (\"v[1]\" <-> Y \"v[1]\")")?);
/// assert_eq!(parse_sva_with("^v", &signals)?, parse("\"v[0]\" xor \"v[1]\"")?);
/// // Without the declaration, the width of `v` is not known.
/// assert!(parse_sva_with("^v", &Signals::new()).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_sva_with(input: &str, signals: &Signals) -> Result<Formula, ParseError> {
    let tokens = lex(input)?;
    let mut p = Parser::new(input, tokens, false, signals);
    p.declarations()?;
    let t = p.cur.peek().clone();
    if let T::Word(w) = &t.kind {
        let labelled = matches!(p.cur.peek2().kind, T::Sym(":"));
        if matches!(w.as_str(), "assert" | "assume" | "cover" | "restrict") || labelled {
            return Err(p.unsupported(
                t.span,
                "an assertion checks its property at every clock tick: read it with \
                 `parse_sva_directive` (as `mongen --sva` does), or give the property alone",
            ));
        }
    }
    if t.kind == T::End {
        return Err(p.cur.error(t.span, ParseErrorKind::Empty));
    }
    let node = p.property()?;
    let span = p.cur.last_span();
    let span = Span {
        start: t.span.start,
        end: span.end.max(t.span.start),
    };
    if p.is_sym(";") {
        p.cur.next();
    }
    end(&p)?;
    let f = p.to_prop(node, span)?;
    p.refuse_opaque(&[&f], None)?;
    Ok(f)
}

/// The end of the input, or an error at what is there.
fn end(p: &Parser<'_>) -> Result<(), ParseError> {
    let t = p.cur.peek().clone();
    if t.kind != T::End {
        return Err(p.unexpected(&t, "an operator or the end of the property"));
    }
    Ok(())
}

/// Parses an SVA assertion: declarations (`sequence`, `property`, `let`,
/// `default clocking`, `default disable iff`), then `[LABEL:]
/// assert|assume|restrict|cover property (PROPERTY) [action block] [;]`,
/// or a bare property (an assertion). `PROPERTY` may start with its clock
/// and `disable iff`.
///
/// The [`Directive::formula`] of `assert`, `assume` and `restrict` is
/// `always p` (an attempt starts at every tick, §16.14); that of `cover`
/// (which takes a sequence, or a Boolean) fails when the sequence matches,
/// as for PSL directives. The clock is the leading clock or the default
/// clocking; every other clock must be the same (§16.13).
///
/// ```
/// use monitor_core::formula::{parse_psl, sva::parse_sva_directive, DirectiveKind};
///
/// let d = parse_sva_directive(
///     "default clocking @(posedge clk); endclocking
///      sequence req_ack(r, a); r ##[1:2] a; endsequence
///      c1: cover property (req_ack(req, ack));",
/// )?;
/// assert_eq!(d.kind, DirectiveKind::Cover);
/// assert_eq!(d.formula, parse_psl("never {req; [*0:1]; ack}!")?);
/// assert_eq!(d.clock.unwrap().to_string(), "posedge clk");
///
/// let err = parse_sva_directive("assert property (@(posedge c1) a |=> @(posedge c2) b);").unwrap_err();
/// assert!(err.message().contains("§16.13"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_sva_directive(input: &str) -> Result<Directive, ParseError> {
    parse_sva_directive_with(input, &Signals::new())
}

/// [`parse_sva_directive`] with the declarations of the signals the
/// property reads (see [`parse_sva_with`]).
///
/// ```
/// # use monitor_core::formula::{parse, sva::{parse_sva_directive_with, Signals}};
/// let signals = Signals::new().vector("v", 1, 0).scalar("req");
/// let d = parse_sva_directive_with("assert property (@(posedge clk) req |=> &v);", &signals)?;
/// assert_eq!(d.formula, parse("G (req -> X (\"v[0]\" & \"v[1]\"))")?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_sva_directive_with(input: &str, signals: &Signals) -> Result<Directive, ParseError> {
    let tokens = lex(input)?;
    let mut p = Parser::new(input, tokens, true, signals);
    p.declarations()?;
    let first = p.cur.peek().clone();
    if first.kind == T::End {
        return Err(p.cur.error(first.span, ParseErrorKind::Empty));
    }
    let mut label = None;
    if let T::Word(w) = &first.kind {
        if matches!(p.cur.peek2().kind, T::Sym(":")) && !w.starts_with('$') {
            label = Some(w.clone());
            p.cur.next();
            p.cur.next();
        }
    }
    let kw = p.cur.peek().clone();
    let kind =
        match &kw.kind {
            T::Word(w) => match w.as_str() {
                "assert" => Some(DirectiveKind::Assert),
                "assume" => Some(DirectiveKind::Assume),
                "cover" => Some(DirectiveKind::Cover),
                "restrict" => Some(DirectiveKind::Restrict),
                "expect" => return Err(p.unsupported(
                    kw.span,
                    "`expect` is a procedural statement, not an assertion (IEEE 1800-2017 §16.17)",
                )),
                _ => None,
            },
            _ => None,
        };
    let wrapped = kind.is_some();
    let kind = match kind {
        Some(k) => {
            p.cur.next();
            let what = p.cur.next();
            let ok = matches!(&what.kind, T::Word(w) if w == "property"
                || (w == "sequence" && k == DirectiveKind::Cover));
            if !ok {
                if matches!(what.kind, T::Sym("(") | T::Sym("#"))
                    || matches!(&what.kind, T::Word(w) if w == "final")
                {
                    return Err(p.unsupported(
                        what.span,
                        "immediate and deferred assertions are not read: write a concurrent \
                         assertion, `assert property (...)`",
                    ));
                }
                return Err(p.unexpected(&what, "`property`"));
            }
            p.expect_sym("(", "`(`")?;
            k
        }
        None if label.is_some() => {
            return Err(p.unexpected(&kw, "`assert`, `assume`, `restrict` or `cover`"));
        }
        None => DirectiveKind::Assert,
    };
    let body = p.cur.peek().span;
    let node = p.property()?;
    let body_end = p.cur.last_span().end.max(body.start);
    let span = Span {
        start: body.start,
        end: body_end,
    };
    if wrapped {
        p.expect_sym(")", "`)`")?;
        // An action block: the checker reports failures itself.
        if p.is_word("else")
            || matches!(&p.cur.peek().kind, T::Word(w) if w.starts_with('$') || w == "begin")
        {
            skip_action_block(&mut p);
        }
    }
    if p.is_sym(";") {
        p.cur.next();
    }
    end(&p)?;
    let clock = p.check_clocks()?.map(|(c, _)| c);
    let mut disable = p
        .disable
        .clone()
        .map(|(b, _)| b)
        .or_else(|| p.default_disable.clone())
        // `disable iff (1'b0)` exempts an assertion from the default
        // (§16.15): no reset.
        .filter(|b| *b != Formula::ff());
    let formula = match kind {
        DirectiveKind::Cover => {
            let r = match node {
                Node::Bool(b) => b,
                Node::Seq(r) => r,
                Node::Prop(_) => {
                    return Err(p.unsupported(
                        span,
                        "`cover` takes a sequence (or a Boolean), not a property: its checker \
                         reports the matches of the sequence",
                    ));
                }
            };
            let mut r = r;
            if let Some(b) = disable.as_ref() {
                // The match must see the reset low at every tick, in the
                // formula: a monitor held in reset alone would report a
                // match it foresees (`a ##1 1'b1` after `a`) that a reset
                // at the next tick disables.
                let past = r.has_past() || b.has_past();
                r = Formula::sere_and([r, Formula::star(Formula::not(b.clone()), 0, None)]);
                if past {
                    disable = None;
                }
            }
            Formula::always(Formula::not(Formula::econcat(r, Formula::tt())))
        }
        _ => {
            let mut f = p.to_prop(node, span)?;
            if let Some(b) = disable.as_ref() {
                // The reset is in the formula even when it also comes
                // beside it: an exact monitor rejects as soon as every
                // continuation fails (after `a` for `a |=> 1'b0`), and a
                // reset at the next tick disables that attempt, which a
                // monitor held in reset from then on cannot take back.
                let past = f.has_past() || b.has_past();
                f = Formula::abort(f, b.clone());
                if past {
                    disable = None;
                }
            }
            if f.op() == Op::G {
                f
            } else {
                Formula::always(f)
            }
        }
    };
    p.refuse_opaque(
        &[&formula]
            .into_iter()
            .chain(disable.as_ref())
            .collect::<Vec<_>>(),
        clock.as_ref().map(|c| c.signal.as_str()),
    )?;
    Ok(Directive {
        kind,
        label,
        formula,
        clock,
        disable: disable.map(|condition| Disable {
            condition,
            synchronous: false,
        }),
        report: None,
        text: input[span.start..span.end].to_string(),
        span: span.start..span.end,
    })
}

/// Skips an action block (`else $error("...");`, `$display(...); else
/// ...;`, `begin ... end`): the statements up to the `;` that ends it,
/// outside parentheses and `begin`/`end`, and an `else` after it.
fn skip_action_block(p: &mut Parser<'_>) {
    loop {
        let mut depth = 0usize;
        loop {
            match &p.cur.peek().kind {
                T::End => return,
                T::Sym("(") => depth += 1,
                T::Sym(")") => depth = depth.saturating_sub(1),
                T::Word(w) if w == "begin" => depth += 1,
                T::Word(w) if w == "end" => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        p.cur.next();
                        break;
                    }
                }
                T::Sym(";") if depth == 0 => {
                    p.cur.next();
                    break;
                }
                _ => {}
            }
            p.cur.next();
        }
        if !p.is_word("else") {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::{parse, parse_psl};

    fn s(text: &str) -> Formula {
        parse_sva(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn psl(text: &str) -> Formula {
        parse_psl(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn ltl(text: &str) -> Formula {
        parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn err(text: &str) -> ParseError {
        match parse_sva(text) {
            Ok(f) => panic!("{text}: parsed as {f}"),
            Err(e) => e,
        }
    }

    fn derr(text: &str) -> ParseError {
        match parse_sva_directive(text) {
            Ok(d) => panic!("{text}: parsed as {}", d.formula),
            Err(e) => e,
        }
    }

    /// `disable iff (1'b0)` exempts one assertion from `default disable
    /// iff` (IEEE 1800-2017 §16.15): it has no reset, and its formula none.
    #[test]
    fn a_false_disable_is_no_reset() {
        let d = parse_sva_directive(
            "default disable iff (!rst_n); a1: assert property (@(posedge clk) disable iff (1'b0) a |=> b);",
        )
        .unwrap();
        assert!(d.disable.is_none());
        assert_eq!(d.formula, parse_psl("always (a -> next b)").unwrap());
        let d = parse_sva_directive("assert property (@(posedge clk) disable iff (0) a);").unwrap();
        assert!(d.disable.is_none());
    }

    #[test]
    fn delays() {
        assert_eq!(s("a ##1 b"), psl("{a; b}"));
        assert_eq!(s("a ##0 b"), psl("{a : b}"));
        assert_eq!(s("a ##2 b"), psl("{a; true; b}"));
        assert_eq!(s("a ##[1:3] b"), psl("{a; [*0:2]; b}"));
        assert_eq!(s("a ##[2:$] b"), psl("{a; [+]; b}"));
        assert_eq!(s("a ##[+] b"), psl("{a; [*]; b}"));
        assert_eq!(s("a ##[*] b"), psl("{{a : b} | {a; [*]; b}}"));
        assert_eq!(s("a ##[0:1] b"), psl("{{a : b} | {a; b}}"));
        assert_eq!(s("##1 a"), psl("{true; a}"));
        assert_eq!(s("##[1:2] a ##1 b"), psl("{true; [*0:1]; a; b}"));
        assert_eq!(s("##(2) a"), psl("{true; true; a}"));
        // Empty sequences (§16.9.2.1).
        assert_eq!(s("a[*0] ##1 b"), ltl("b"));
        assert_eq!(s("a ##1 b[*0] ##1 c"), psl("{a; c}"));
        assert_eq!(s("a ##1 b[*0]"), ltl("a"));
    }

    #[test]
    fn repetitions() {
        assert_eq!(s("a[*2]"), psl("{a[*2]}"));
        assert_eq!(s("a[*1:3] ##1 b"), psl("{a[*1:3]; b}"));
        assert_eq!(s("a[*2:$] ##1 b"), psl("{a[*2:inf]; b}"));
        assert_eq!(s("a[*] ##1 b"), psl("{a[*]; b}"));
        assert_eq!(s("a[+] ##1 b"), psl("{a[+]; b}"));
        assert_eq!(s("(a ##1 b)[*2]"), psl("{{a; b}[*2]}"));
        assert_eq!(s("a[->2] ##1 b"), psl("{a[->2]; b}"));
        assert_eq!(s("a[->1:2] ##1 b"), psl("{a[->1:2]; b}"));
        assert_eq!(s("a[=2] ##1 b"), psl("{a[=2]; b}"));
        assert_eq!(s("a[=0:1] ##1 b"), psl("{a[=0:1]; b}"));
        assert_eq!(s("a && b[*2]"), psl("{(a && b)[*2]}"));
    }

    #[test]
    fn sequence_operators() {
        assert_eq!(s("(a ##1 b) and c"), psl("{{a; b} & c}"));
        assert_eq!(s("(a ##1 b) or (c ##1 d)"), psl("{{a; b} | {c; d}}"));
        assert_eq!(
            s("(a ##1 b) intersect (c ##1 d)"),
            psl("{{a; b} && {c; d}}")
        );
        assert_eq!(
            s("(a ##1 b) within (c ##[1:3] d)"),
            psl("{{a; b} within {c; [*0:2]; d}}")
        );
        assert_eq!(s("a throughout (b ##1 c)"), psl("{a[*] && {b; c}}"));
        assert_eq!(s("a throughout b ##1 c"), s("a throughout (b ##1 c)"));
        // `##` binds tighter than `throughout`, which is right associative.
        assert_eq!(
            s("a throughout b throughout c ##1 d"),
            psl("{a[*] && {b[*] && {c; d}}}")
        );
        // first_match at the top of a sequence property changes nothing
        // (the shortest match is a match); elsewhere it stays.
        assert_eq!(s("first_match(b ##[1:3] c)"), s("b ##[1:3] c"));
        assert_eq!(
            s("strong(first_match(b ##[1:3] c))"),
            s("strong(b ##[1:3] c)")
        );
        let r = psl("{a; [*0:1]; b}!").child(0).clone();
        assert_eq!(
            s("first_match(a ##[1:2] b) |-> c"),
            Formula::uconcat(Formula::first_match(r), ltl("c"))
        );
        // Of a Boolean, or of a sequence of one length: the sequence.
        assert_eq!(s("first_match(a ##1 b) |-> c"), s("a ##1 b |-> c"));
        assert_eq!(s("first_match(a) ##1 b"), s("a ##1 b"));
        assert_eq!(s("(a ##1 b) or (c ##1 d)"), s("a ##1 b or c ##1 d"));
    }

    #[test]
    fn properties() {
        assert_eq!(s("a |-> b"), ltl("a -> b"));
        assert_eq!(s("a |=> b"), ltl("a -> X b"));
        assert_eq!(s("a[*1] |=> b"), ltl("a -> X b"));
        assert_eq!(s("a ##1 b |=> c"), psl("{a; b; true} |-> c"));
        assert_eq!(s("a ##1 b |-> c"), psl("{a; b} |-> c"));
        assert_eq!(s("a ##1 b |-> c ##1 d"), psl("{a; b} |-> {c; d}"));
        assert_eq!(s("a #-# b"), ltl("a & b"));
        assert_eq!(
            s("a #=# b ##1 c"),
            Formula::and([ltl("a"), Formula::next(psl("{b; c}"))])
        );
        assert_eq!(
            s("a[*2] #-# b"),
            Formula::econcat(psl("{a[*2]}").child(0).clone(), ltl("b"))
        );
        assert_eq!(
            s("a[*2] #=# b"),
            Formula::econcat(psl("{a[*2]; true}").child(0).clone(), ltl("b"))
        );
        assert_eq!(s("strong(a ##1 b)"), psl("{a; b}!"));
        assert_eq!(s("weak(a ##1 b)"), psl("{a; b}"));
        assert_eq!(s("a ##1 b"), psl("{a; b}"));
        assert_eq!(s("not a ##1 b"), psl("!{a; b}"));
        assert_eq!(s("not (a |-> b)"), ltl("!(a -> b)"));
        assert_eq!(s("(a |-> b) and (c |-> d)"), ltl("(a -> b) & (c -> d)"));
        assert_eq!(s("(a |-> b) or (c |-> d)"), ltl("(a -> b) | (c -> d)"));
        // Left associative: the sequences before a property operand are
        // one sequence `and` (where `b[*0:2]` alone could not be a
        // property: it admits an empty match).
        assert_eq!(
            s("b[*0:2] and a ##1 a and strong(c)"),
            s("(b[*0:2] and a ##1 a) and strong(c)")
        );
        assert_eq!(
            s("b[*1:2] or a ##1 a or strong(c)"),
            s("(b[*1:2] or a ##1 a) or strong(c)")
        );
        assert!(parse_sva("strong(c) and b[*0:2] and a ##1 a").is_err());
        assert_eq!(s("a implies b"), ltl("a -> b"));
        assert_eq!(s("(a |-> b) iff c"), ltl("(a -> b) <-> c"));
        assert_eq!(
            s("if (a) b ##1 c"),
            Formula::implies(ltl("a"), psl("{b; c}"))
        );
        assert_eq!(s("if (a) b else c"), ltl("(a -> b) & (!a -> c)"));
        assert_eq!(s("nexttime a"), ltl("X a"));
        assert_eq!(s("nexttime [3] a"), ltl("X X X a"));
        assert_eq!(s("s_nexttime a"), ltl("X a"));
        assert_eq!(s("nexttime [0] a"), ltl("a"));
        assert_eq!(s("always a"), ltl("G a"));
        assert_eq!(s("always [1:3] a"), psl("next_a[1:3] a"));
        assert_eq!(s("always [2:$] a"), ltl("X X G a"));
        assert_eq!(s("s_always [0:2] a"), psl("next_a[0:2] a"));
        assert_eq!(s("eventually [1:2] a"), psl("next_e[1:2] a"));
        assert_eq!(s("s_eventually a"), ltl("F a"));
        assert_eq!(s("s_eventually [2:$] a"), ltl("X X F a"));
        assert_eq!(s("s_eventually [0:1] a"), ltl("a | X a"));
        assert_eq!(s("a until b"), ltl("a W b"));
        assert_eq!(s("a s_until b"), ltl("a U b"));
        assert_eq!(s("a until_with b"), ltl("a W (a & b)"));
        assert_eq!(s("a s_until_with b"), ltl("a U (a & b)"));
        assert_eq!(s("accept_on (r) a ##1 b"), psl("{a; b} abort r"));
        assert_eq!(s("sync_accept_on (r) a ##1 b"), psl("{a; b} abort r"));
        assert_eq!(s("reject_on (r) a ##1 b"), psl("!((!{a; b}) abort r)"));
        assert_eq!(s("sync_reject_on (r) a ##1 b"), psl("!((!{a; b}) abort r)"));
        // Precedence: `|->` is looser than `until`, `always` extends.
        assert_eq!(s("a |-> b until c"), ltl("a -> (b W c)"));
        assert_eq!(s("a |-> always b |-> c"), ltl("a -> G(b -> c)"));
        assert_eq!(s("not a and b"), ltl("!a & b"));
        assert_eq!(s("a and b or c"), ltl("(a & b) | c"));
        assert_eq!(s("a |-> b |-> c"), ltl("a -> (b -> c)"));
    }

    #[test]
    fn case_items() {
        let f = s("case (st) 0: a; 1, 2: b; default: c; endcase");
        let (e0, e1, e2) = (
            Formula::ap("st == 0"),
            Formula::ap("st == 1"),
            Formula::ap("st == 2"),
        );
        let (a, b, c) = (Formula::ap("a"), Formula::ap("b"), Formula::ap("c"));
        let e12 = Formula::or([e1, e2]);
        let rest = Formula::and([
            Formula::implies(e12.clone(), b),
            Formula::implies(Formula::not(e12), c),
        ]);
        let want = Formula::and([
            Formula::implies(e0.clone(), a),
            Formula::implies(Formula::not(e0), rest),
        ]);
        assert_eq!(f, want);
        // Without a default, no match is vacuous success.
        assert_eq!(
            s("case (x) 1: a; endcase"),
            Formula::implies(Formula::ap("x == 1"), Formula::ap("a"))
        );
    }

    #[test]
    fn booleans_and_atoms() {
        assert_eq!(s("a && !b || c"), ltl("(a & !b) | c"));
        assert_eq!(s("a & ~b | c ^ d"), ltl("(a & !b) | (c xor d)"));
        assert_eq!(s("a -> b"), ltl("a -> b"));
        assert_eq!(s("a ? b : c"), ltl("(a & b) | (!a & c)"));
        assert_eq!(
            s("state == 2 |-> x === 1'b1"),
            Formula::implies(Formula::ap("state == 2"), Formula::ap("x === 1'b1"))
        );
        assert_eq!(s("data[3] && 1'b1"), Formula::ap("data[3]"));
        assert_eq!(s("top.u.req || 0"), Formula::ap("top.u.req"));
        assert_eq!(s("grant[1:0] != 2'b11"), Formula::ap("grant[1:0] != 2'b11"));
        assert_eq!(s("count >= 4'd12"), Formula::ap("count >= 4'd12"));
        assert_eq!(s("assert_n"), Formula::ap("assert_n"));
    }

    /// Case equality and fill literals (IEEE 1800-2017 §11.4.5, §5.7.1):
    /// a signal keeps `===` in its atom (the trace checker and Verilog
    /// read x and z, where it is not `==`); a Boolean expression compared
    /// with 0 or 1 is itself or its negation.
    #[test]
    fn case_equality_and_fill_literals() {
        assert_eq!(s("x !== 1'b0"), Formula::ap("x !== 1'b0"));
        assert_eq!(s("x === y[2]"), Formula::ap("x === y[2]"));
        assert_eq!(s("v === '0"), Formula::ap("v === 0"));
        assert_eq!(s("v != '0"), Formula::ap("v != 0"));
        assert_eq!(s("(v) !== '0"), Formula::ap("v !== 0"));
        assert_eq!(s("(v) == 1"), Formula::ap("v == 1"));
        // lowRISC's reset, `disable iff ((!rst_ni) !== '0)`.
        assert_eq!(s("(!rst_ni) !== '0"), ltl("!rst_ni"));
        assert_eq!(s("!rst_ni !== '0"), ltl("!rst_ni"));
        assert_eq!(s("(!rst_ni) === '0"), ltl("!!rst_ni"));
        assert_eq!(s("(a && b) == 1'b1"), ltl("a & b"));
        assert_eq!(s("(a || b) != '1"), ltl("!(a | b)"));
        assert_eq!(s("(a && b) === 2'b01"), ltl("a & b"));
        assert_eq!(s("(a && b) !== 0 |-> c"), ltl("(a & b) -> c"));
        assert_eq!(s("$rose(a) == 1'b0"), ltl("!(a & !Y a)"));
        // `!` binds tighter than a comparison: `!v == 1` is `(!v) == 1`.
        assert_eq!(s("!v == 1"), ltl("!v"));
        assert_eq!(s("!v == 0"), ltl("!!v"));
        assert_eq!(s("!(v == 1)"), Formula::not(Formula::ap("v == 1")));
        for (text, col, why) in [
            // `'1` takes the width of `v`, which is needed.
            ("v == '1", 1, "the width of `v` is not known"),
            ("(v) === '1", 2, "the width of `v` is not known"),
            (
                "a |-> gnt_o[idx_o] && req_i[idx_o]",
                13,
                "the widths of `gnt_o` and `idx_o` are needed",
            ),
            ("v < '0", 1, "the width of `v` is not known"),
            ("v === 'x", 7, "`'x` (every bit unknown) is not read"),
            ("(!a) !== 'z", 10, "`'z`"),
            ("(a && b) == 2", 13, "compare it with 0 or 1"),
            ("(a && b) == 2'b10", 13, "compare it with 0 or 1"),
            ("(a && b) < 1", 10, "`<` orders values"),
        ] {
            let e = err(text);
            assert_eq!(e.column(), col, "{text}: {e}");
            assert!(e.message().contains(why), "{text}: {e}");
        }
        let d = parse_sva_directive(
            "A: assert property (@(posedge clk_i) disable iff ((!rst_ni) !== '0) (req |-> gnt));",
        )
        .unwrap();
        assert_eq!(
            d.disable.unwrap().signal(),
            Some(("rst_ni", crate::formula::ActiveLevel::Low))
        );
    }

    #[test]
    fn sampled_value_functions() {
        assert_eq!(s("$past(a)"), ltl("Y a"));
        assert_eq!(s("$past(a, 3)"), ltl("Y Y Y a"));
        assert_eq!(s("$past(a && b)"), ltl("Y (a & b)"));
        assert_eq!(s("$rose(a)"), ltl("a & !Y a"));
        assert_eq!(s("$fell(a)"), ltl("!a & Y a"));
        assert_eq!(s("$stable(a)"), ltl("a <-> Y a"));
        assert_eq!(s("$changed(a)"), ltl("a xor Y a"));
        assert_eq!(s("$sampled(a)"), ltl("a"));
        assert_eq!(
            s("$rose(st == 2)"),
            Formula::and([
                Formula::ap("st == 2"),
                Formula::not(Formula::yesterday(Formula::ap("st == 2")))
            ])
        );
        assert_eq!(s("$isunknown(a)"), Formula::ap("$isunknown(a)"));
        assert_eq!(
            s("!$isunknown({a, b[2:0]})"),
            Formula::not(Formula::or([
                Formula::ap("$isunknown(a)"),
                Formula::ap("$isunknown(b[2:0])")
            ]))
        );
        assert!(err("$isunknown(a && b)")
            .message()
            .contains("`$isunknown` reads signals"));
        let truth = |f: Formula, bits: [bool; 3]| {
            let g = f.map_bottom_up(|x| match x.ap_name() {
                Some("a") => Formula::constant(bits[0]),
                Some("b") => Formula::constant(bits[1]),
                Some("c") => Formula::constant(bits[2]),
                _ => x.clone(),
            });
            crate::formula::simplify::simplify(&g)
        };
        for bits in 0..8u32 {
            let v = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
            let ones = v.iter().filter(|x| **x).count();
            let check = |text: &str, want: bool| {
                assert_eq!(
                    truth(s(text), v),
                    Formula::constant(want),
                    "{text} on {v:?}"
                );
            };
            check("$onehot({a, b, c})", ones == 1);
            check("$onehot0({a, b, c})", ones <= 1);
            check("$countones({a, b, c}) == 2", ones == 2);
            check("$countones({a, b, c}) != 2", ones != 2);
            check("$countones({a, b, c}) < 2", ones < 2);
            check("$countones({a, b, c}) <= 2", ones <= 2);
            check("$countones({a, b, c}) > 1", ones > 1);
            check("$countones({a, b, c}) >= 3", ones >= 3);
            check("$countones({a, b, c}) == 7", false);
            check("$countones({a, b, c})", ones > 0);
        }
        assert_eq!(s("$onehot({a})"), ltl("a"));
        assert!(err("$onehot(grant)")
            .message()
            .contains("the width of `grant` is not known"));
    }

    #[test]
    fn declarations() {
        let f = s(
            "sequence s1(x, y = b); x ##1 y; endsequence property p1(sequence r); r |=> c; endproperty p1(s1(a))",
        );
        assert_eq!(f, s("a ##1 b |=> c"));
        assert_eq!(s("let l(x) = x && b; l(a) |-> c"), s("a && b |-> c"));
        assert_eq!(s("sequence s(n); a ##n b; endsequence s(3)"), s("a ##3 b"));
        assert_eq!(
            s("sequence s(bit x); x[*2]; endsequence : s s(a)"),
            s("a[*2]")
        );
        let e = err("property p; a |-> p; endproperty p");
        assert!(e.message().contains("§16.12.17"), "{e}");
        let e = err("property p; q; endproperty property q; p; endproperty q");
        assert!(e.message().contains("§16.12.17"), "{e}");
        let e = err("let l(x) = x ##1 b; l(a)");
        assert!(e.message().contains("Boolean"), "{e}");
        let e = err("sequence s(x); x; endsequence s");
        assert!(e.message().contains("argument `x`"), "{e}");
        let e = err("sequence s; a; endsequence sequence s; b; endsequence s");
        assert!(e.message().contains("declared twice"), "{e}");
    }

    #[test]
    fn directives() {
        let d = parse_sva_directive("assert property (@(posedge clk) disable iff (rst) a |=> b);")
            .unwrap();
        // The reset is in the formula (a monitor held in reset cannot
        // take back an early failure) and beside it.
        assert_eq!(d.formula, psl("always ((a -> next b) async_abort rst)"));
        assert_eq!(d.kind, DirectiveKind::Assert);
        assert_eq!(
            d.formula,
            Formula::always(Formula::abort(s("a |=> b"), ltl("rst")))
        );
        assert_eq!(d.clock.as_ref().unwrap().to_string(), "posedge clk");
        assert_eq!(d.disable.as_ref().unwrap().condition, ltl("rst"));
        assert_eq!(d.text, "@(posedge clk) disable iff (rst) a |=> b");
        let d = parse_sva_directive("req |-> ##[1:3] ack").unwrap();
        assert_eq!(d.formula, Formula::always(s("req |-> ##[1:3] ack")));
        assert!(d.clock.is_none() && d.disable.is_none());
        // Pasted lines, declarations, labels, action blocks.
        let d = parse_sva_directive(
            "default clocking @(negedge ck); endclocking default disable iff (!rst_n); \
             property p(a, b); a |=> b; endproperty \
             p_hs: assume property (p(req, ack)) else $error(\"no ack\");",
        )
        .unwrap();
        assert_eq!(d.kind, DirectiveKind::Assume);
        assert_eq!(d.label.as_deref(), Some("p_hs"));
        assert_eq!(
            d.formula,
            Formula::always(Formula::abort(s("req |=> ack"), ltl("!rst_n")))
        );
        assert_eq!(d.clock.as_ref().unwrap().to_string(), "negedge ck");
        assert_eq!(d.disable.as_ref().unwrap().condition, ltl("!rst_n"));
        // Action blocks end at their `;`.
        let d = parse_sva_directive(
            "assert property (a) $display(\"ok\"); else begin $error(\"x\"); end",
        )
        .unwrap();
        assert_eq!(d.formula, ltl("G a"));
        assert!(derr("assert property (a) else $error(\"x\"); b")
            .message()
            .contains("end of the property"));
        // The clock and the reset of a property declaration.
        let d = parse_sva_directive(
            "property p; @(posedge clk) disable iff (rst) a |-> b; endproperty assert property (p);",
        )
        .unwrap();
        assert_eq!(d.clock.as_ref().unwrap().to_string(), "posedge clk");
        assert_eq!(d.disable.as_ref().unwrap().condition, ltl("rst"));
        // An `always` is not doubled.
        let d = parse_sva_directive("assert property (always a);").unwrap();
        assert_eq!(d.formula, ltl("G a"));
        // Covers fail when they are covered.
        let d = parse_sva_directive("cover property (@(posedge clk) a ##1 b);").unwrap();
        assert_eq!(d.formula, psl("never {a; b}!"));
        let d = parse_sva_directive("cover sequence (a ##1 b)").unwrap();
        assert_eq!(d.formula, psl("never {a; b}!"));
        assert!(derr("cover property (a |-> b)")
            .message()
            .contains("`cover` takes a sequence"));
        // With past values, the reset is in the formula.
        let d = parse_sva_directive("assert property (disable iff (rst) $rose(a) |=> b);").unwrap();
        assert!(d.disable.is_none());
        assert_eq!(
            d.formula,
            Formula::always(Formula::abort(s("$rose(a) |=> b"), ltl("rst")))
        );
        let d = parse_sva_directive("cover property (disable iff (rst) $rose(a) ##1 b);").unwrap();
        assert!(d.disable.is_none());
        assert_eq!(d.formula, psl("never {{rose(a); b} && {!rst[*]}}!"));
        // Without, too (`a ##1 1'b1` is covered as soon as `a` is read,
        // unless the reset comes next), and beside it.
        let d = parse_sva_directive("cover property (disable iff (rst) a ##1 1'b1);").unwrap();
        assert_eq!(d.formula, psl("never {{a; true} && {!rst[*]}}!"));
        assert_eq!(d.disable.unwrap().condition, ltl("rst"));
        // A reset that reads past values is only in the formula.
        let d = parse_sva_directive("assert property (disable iff ($rose(rst)) a |=> b);").unwrap();
        assert!(d.disable.is_none());
        assert_eq!(
            d.formula,
            Formula::always(Formula::abort(s("a |=> b"), s("$rose(rst)")))
        );
        // An explicit clock overrides the default clocking.
        let d = parse_sva_directive(
            "default clocking @(posedge c1); endclocking assert property (@(negedge c2) a);",
        )
        .unwrap();
        assert_eq!(d.clock.unwrap().to_string(), "negedge c2");
        // The same clock twice is one clock.
        let d = parse_sva_directive(
            "default clocking @(posedge clk); endclocking assert property (@(posedge clk) a |=> b);",
        )
        .unwrap();
        assert_eq!(d.clock.unwrap().to_string(), "posedge clk");
    }

    #[test]
    fn refusals_name_the_section() {
        let has = |e: ParseError, what: &str| assert!(e.message().contains(what), "{e}");
        // Local variables.
        has(err("(a, v = x) ##1 b"), "§16.10");
        has(
            err("sequence s; int v; (a, v = x) ##1 b; endsequence s"),
            "§16.10",
        );
        has(
            err("sequence s(local int v); a; endsequence s(1)"),
            "§16.10",
        );
        // Multiple clocks.
        has(
            derr("assert property (@(posedge c1) a |=> @(posedge c2) b);"),
            "§16.13",
        );
        has(derr("assert property (a |=> @(posedge c2) b);"), "§16.13");
        has(
            derr(
                "default clocking @(posedge c1); endclocking assert property (a |=> @(posedge c2) b);",
            ),
            "§16.13",
        );
        has(
            derr("assert property (@(posedge c1 or posedge c2) a);"),
            "§16.13",
        );
        has(err("$rose(a, @(posedge c2))"), "§16.9.3");
        has(err("$past(a, 1, en)"), "§16.9.3");
        has(
            err("$past(a, 0)"),
            "the number of ticks of `$past` is at least 1",
        );
        has(
            err("$past(v, 0) == v"),
            "the number of ticks of `$past` is at least 1",
        );
        has(err("$past_gclk(a)"), "§16.9.4");
        // Recursion, expect, methods.
        has(
            err("property p; a and nexttime p; endproperty p"),
            "§16.12.17",
        );
        has(derr("expect (a ##1 b);"), "§16.17");
        has(err("a |-> s.triggered"), "§16.9.11");
        has(err("a |-> s.matched"), "§16.13.6");
        // Empty matches as properties.
        has(err("a[*0:1]"), "§16.12.2");
        has(err("strong(a[*0])"), "§16.12.2");
        // first_match with a local variable.
        has(err("first_match(a ##[1:2] b, x = c) |-> c"), "§16.10");
        // Clocks, resets and directives belong to parse_sva_directive.
        has(err("@(posedge clk) a"), "parse_sva_directive");
        has(err("disable iff (rst) a"), "parse_sva_directive");
        has(err("assert property (a);"), "parse_sva_directive");
        has(
            derr("assert property (a |-> disable iff (r) b);"),
            "must come first",
        );
        // Kinds.
        has(err("(a ##1 b) && c"), "write `and`");
        has(err("!(a ##1 b)"), "`not`");
        has(err("(a |-> b) |-> c"), "left side of `|->`");
        has(err("(a |-> b) ##1 c"), "property");
        has(err("(a ##1 b)[->2]"), "Boolean");
        has(err("eventually a"), "s_eventually");
        has(err("eventually [1:$] a"), "bounded");
        has(err("s_always a"), "range");
        has(err("a ##1 {b, c}"), "concatenation");
        has(
            err("$past(data) == data"),
            "the width of `data` is not known",
        );
        has(err("&data"), "the width of `data` is not known");
        has(err("count + 1 == 3"), "vector");
        has(err("a ##N b"), "number");
        has(err("a[*3:1]"), "empty range");
        has(
            err("a ##1 b inside {x, 2}"),
            "the width of `b` is not known",
        );
        assert_eq!(
            parse_sva("b inside {1, [3:4]}").unwrap(),
            ltl("\"b == 1\" | (\"b >= 3\" & \"b <= 4\")")
        );
        has(derr("assert (a);"), "immediate");
        assert_eq!(err("").kind(), &ParseErrorKind::Empty);
        assert_eq!(err("a ##1").column(), 6);
        assert_eq!(err("(a ##1 b").kind(), &ParseErrorKind::UnclosedParenthesis);
    }
}

/// Vector expressions read with declared widths, checked against their
/// meaning in IEEE 1800-2017 (§11.4 operators, §16.9.3 sampled-value
/// functions, §20.9 bit-vector functions) computed on integers, on random
/// traces.
#[cfg(test)]
mod vector_tests {
    use super::*;
    use crate::formula::atom::{Atom, Comparison, Operand, Select};
    use crate::formula::eval::values;
    use crate::word::Lasso;

    /// The signals: `v` [2:0], `w` [3:0], `i` [1:0], `a` scalar, `s`
    /// signed [2:0], `d` [0:2] (least significant bit at index 2).
    const NAMES: [&str; 6] = ["v", "w", "i", "a", "s", "d"];
    const WIDTHS: [u32; 6] = [3, 4, 2, 1, 3, 3];

    fn signals() -> Signals {
        Signals::new()
            .vector("v", 2, 0)
            .vector("w", 3, 0)
            .vector("i", 1, 0)
            .scalar("a")
            .signed_vector("s", 2, 0)
            .vector("d", 0, 2)
    }

    fn sv(text: &str) -> Formula {
        parse_sva_with(text, &signals()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The value of an atom on one tick's values (indexed as `NAMES`).
    fn atom_value(name: &str, tick: &[u64; 6]) -> bool {
        let value = |s: &str| tick[NAMES.iter().position(|n| *n == s).expect("a signal")];
        let bit = |s: &str, k: u32| {
            let k = if s == "d" { 2 - k } else { k };
            (value(s) >> k) & 1 == 1
        };
        match Atom::parse(name).unwrap_or_else(|| panic!("atom {name}")) {
            Atom::Signal(sig) => match sig.select {
                None => value(&sig.name) != 0,
                Some(Select::Bit(k)) => bit(&sig.name, k),
                Some(Select::Part(..)) => panic!("{name}"),
            },
            Atom::Compare(Operand::Signal(sig), op, Operand::Number(n)) => {
                assert!(sig.select.is_none(), "{name}");
                let x = value(&sig.name);
                match op {
                    Comparison::Eq => x == n,
                    Comparison::Ne => x != n,
                    _ => panic!("{name}"),
                }
            }
            _ => panic!("{name}"),
        }
    }

    /// The values of `f` at each tick of `trace`.
    fn run(f: &Formula, trace: &[[u64; 6]]) -> Vec<bool> {
        let aps = f.atomic_propositions();
        let letter = |tick: &[u64; 6]| {
            aps.iter()
                .enumerate()
                .filter(|(_, n)| atom_value(n, tick))
                .fold(0u64, |l, (k, _)| l | 1 << k)
        };
        let prefix: Vec<u64> = trace.iter().map(letter).collect();
        let cycle = vec![*prefix.last().expect("a tick")];
        values(f, &aps, &Lasso::new(prefix, cycle))[..trace.len()].to_vec()
    }

    fn random_traces() -> Vec<Vec<[u64; 6]>> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        (0..300)
            .map(|_| {
                let len = 1 + (next() % 6) as usize;
                (0..len)
                    .map(|_| {
                        let mut t = [0u64; 6];
                        for (k, w) in WIDTHS.iter().enumerate() {
                            t[k] = next() % (1 << w);
                        }
                        t
                    })
                    .collect()
            })
            .collect()
    }

    /// `s` read as a signed 3-bit number.
    fn signed(x: u64) -> i64 {
        if x & 4 != 0 {
            x as i64 - 8
        } else {
            x as i64
        }
    }

    #[test]
    fn vector_expressions_mean_what_the_standard_says() {
        type Meaning = fn(&[[u64; 6]], usize) -> bool;
        // The sampled value before the first tick is 0 (§16.9.3).
        fn at(tr: &[[u64; 6]], t: usize, back: usize, k: usize) -> u64 {
            if t >= back {
                tr[t - back][k]
            } else {
                0
            }
        }
        let cases: Vec<(&str, Meaning)> = vec![
            ("|v", |tr, t| tr[t][0] != 0),
            ("~|v", |tr, t| tr[t][0] == 0),
            ("&v", |tr, t| tr[t][0] == 7),
            ("~&v", |tr, t| tr[t][0] != 7),
            ("^v", |tr, t| tr[t][0].count_ones() % 2 == 1),
            ("~^v", |tr, t| tr[t][0].count_ones() % 2 == 0),
            ("^~w", |tr, t| tr[t][1].count_ones() % 2 == 0),
            ("&w[2:1]", |tr, t| (tr[t][1] >> 1) & 3 == 3),
            ("^{a, v}", |tr, t| {
                (tr[t][0].count_ones() + tr[t][3] as u32) % 2 == 1
            }),
            ("&d", |tr, t| tr[t][5] == 7),
            ("^d[1:0]", |tr, t| ((tr[t][5] >> 1) & 3).count_ones() == 1),
            ("|v == 1'b0", |tr, t| tr[t][0] == 0),
            ("!(&v) && a", |tr, t| tr[t][0] != 7 && tr[t][3] == 1),
            ("$onehot(v)", |tr, t| tr[t][0].count_ones() == 1),
            ("$onehot0(w)", |tr, t| tr[t][1].count_ones() <= 1),
            ("$countones(w) == 2", |tr, t| tr[t][1].count_ones() == 2),
            ("$countones(w) >= 3", |tr, t| tr[t][1].count_ones() >= 3),
            ("$countones({v, a}) < 2", |tr, t| {
                tr[t][0].count_ones() + (tr[t][3] as u32) < 2
            }),
            ("$onehot({w[3:2], i})", |tr, t| {
                (tr[t][1] >> 2).count_ones() + tr[t][2].count_ones() == 1
            }),
            // A select out of range is x: false as a condition.
            ("v[i]", |tr, t| {
                tr[t][2] < 3 && (tr[t][0] >> tr[t][2]) & 1 == 1
            }),
            ("!v[i]", |tr, t| {
                !(tr[t][2] < 3 && (tr[t][0] >> tr[t][2]) & 1 == 1)
            }),
            ("w[i] |-> a", |tr, t| {
                (tr[t][1] >> tr[t][2]) & 1 == 0 || tr[t][3] == 1
            }),
            ("$past(v) == v", |tr, t| at(tr, t, 1, 0) == tr[t][0]),
            ("v == $past(v)", |tr, t| at(tr, t, 1, 0) == tr[t][0]),
            ("$past(v, 2) != v", |tr, t| at(tr, t, 2, 0) != tr[t][0]),
            ("$past(v) < v", |tr, t| at(tr, t, 1, 0) < tr[t][0]),
            ("$past(v) >= v", |tr, t| at(tr, t, 1, 0) >= tr[t][0]),
            ("$past(w) <= v", |tr, t| at(tr, t, 1, 1) <= tr[t][0]),
            ("$past(v) > 5", |tr, t| at(tr, t, 1, 0) > 5),
            ("$past(v) == 9", |_, _| false),
            ("$past(w) == {a, v}", |tr, t| {
                at(tr, t, 1, 1) == tr[t][3] << 3 | tr[t][0]
            }),
            ("$past(v) === '1", |tr, t| at(tr, t, 1, 0) == 7),
            ("$past(v) != '0", |tr, t| at(tr, t, 1, 0) != 0),
            ("$past(s) < s", |tr, t| {
                signed(at(tr, t, 1, 4)) < signed(tr[t][4])
            }),
            ("$past(s) > 1", |tr, t| signed(at(tr, t, 1, 4)) > 1),
            ("$past(s) == v", |tr, t| at(tr, t, 1, 4) == tr[t][0]),
            ("$past(v)", |tr, t| at(tr, t, 1, 0) != 0),
            ("!$past(v) == 1'b1", |tr, t| at(tr, t, 1, 0) == 0),
            ("$sampled(w) == 4'd9", |tr, t| tr[t][1] == 9),
            ("v[i] != $past(v[i])", |tr, t| {
                let bit =
                    |k: usize| k < tr.len() && tr[k][2] < 3 && (tr[k][0] >> tr[k][2]) & 1 == 1;
                bit(t) != (t >= 1 && bit(t - 1))
            }),
            ("$past(v[i])", |tr, t| {
                t >= 1 && tr[t - 1][2] < 3 && (tr[t - 1][0] >> tr[t - 1][2]) & 1 == 1
            }),
            ("$stable(v)", |tr, t| at(tr, t, 1, 0) == tr[t][0]),
            ("$changed(w)", |tr, t| at(tr, t, 1, 1) != tr[t][1]),
            ("$stable(w[3:2])", |tr, t| {
                at(tr, t, 1, 1) >> 2 == tr[t][1] >> 2
            }),
            ("$stable({a, i})", |tr, t| {
                at(tr, t, 1, 3) == tr[t][3] && at(tr, t, 1, 2) == tr[t][2]
            }),
            ("$rose(v)", |tr, t| {
                tr[t][0] & 1 == 1 && at(tr, t, 1, 0) & 1 == 0
            }),
            ("$fell(w)", |tr, t| {
                tr[t][1] & 1 == 0 && at(tr, t, 1, 1) & 1 == 1
            }),
            ("$rose(d)", |tr, t| {
                tr[t][5] & 1 == 1 && at(tr, t, 1, 5) & 1 == 0
            }),
            ("$rose(a)", |tr, t| tr[t][3] == 1 && at(tr, t, 1, 3) == 0),
        ];
        let traces = random_traces();
        for (text, meaning) in cases {
            let f = sv(text);
            for tr in &traces {
                let got = run(&f, tr);
                let want: Vec<bool> = (0..tr.len()).map(|t| meaning(tr, t)).collect();
                assert_eq!(got, want, "{text} on {tr:?}: {f}");
            }
        }
    }

    #[test]
    fn vectors_stay_one_atom_where_they_can() {
        // `|v` and `~|v` need no width: a comparison with zero.
        assert_eq!(parse_sva("|data").unwrap(), Formula::ap("data != 0"));
        assert_eq!(
            parse_sva("~|data[7:4]").unwrap(),
            Formula::ap("data[7:4] == 0")
        );
        assert_eq!(sv("|v"), Formula::ap("v != 0"));
        // A part-select has its width.
        assert_eq!(
            parse_sva("$stable(x[1:0])").unwrap(),
            sv("$stable(x[1]) && $stable(x[0])")
        );
        // A vector compared with a constant stays one atom.
        assert_eq!(sv("v == 3"), Formula::ap("v == 3"));
        // `$isunknown` keeps its signals whole.
        assert_eq!(
            sv("$isunknown({v, a})"),
            parse_sva("$isunknown({v, a})").unwrap()
        );
        // Declarations do not change 1-bit expressions.
        assert_eq!(
            sv("$rose(a) |=> a ##1 !a"),
            parse_sva("$rose(a) |=> a ##1 !a").unwrap()
        );
        let d = parse_sva_directive_with(
            "assert property (@(posedge clk) disable iff (rst) $changed(i) |-> $onehot(v));",
            &signals(),
        )
        .unwrap();
        assert_eq!(d.clock.unwrap().to_string(), "posedge clk");
    }

    #[test]
    fn vectors_without_widths_are_refused_with_a_caret() {
        for (text, col, why) in [
            ("&v", 2, "the width of `v` is not known here"),
            ("a |-> ^v", 8, "the width of `v` is not known"),
            ("$onehot(v)", 9, "the width of `v`"),
            ("$countones(v) == 2", 12, "the width of `v`"),
            ("$past(v) == v", 7, "the width of `v`"),
            ("a |-> $past(v, 2) != v", 13, "the width of `v`"),
            ("v == $past(v)", 1, "the width of `v`"),
            ("$past(v[1:0]) == v", 18, "the width of `v`"),
            ("v[i]", 3, "the widths of `v` and `i` are needed"),
        ] {
            let e = parse_sva(text).unwrap_err();
            assert_eq!(e.column(), col, "{text}: {e}");
            assert!(e.message().contains(why), "{text}: {e}");
        }
        let only_v = Signals::new().vector("v", 3, 0);
        let e = parse_sva_with("v[i]", &only_v).unwrap_err();
        assert!(e.message().contains("the width of `i`"), "{e}");
        let e = parse_sva_with("a[i]", &Signals::new().scalar("a").vector("i", 1, 0)).unwrap_err();
        assert!(e.message().contains("scalar"), "{e}");
        // Budgets.
        let wide = Signals::new().vector("big", 99, 0).vector("huge", 999, 0);
        let e = parse_sva_with("$stable(big)", &wide).unwrap_err();
        assert!(e.message().contains("at most 64"), "{e}");
        assert!(parse_sva_with("$rose(big) && ^big", &wide).is_ok());
        let e = parse_sva_with("|huge[999:1] && ^huge", &wide).unwrap_err();
        assert!(e.message().contains("more than 256 bits"), "{e}");
        let e = parse_sva_with("{big, big, big} == $past(big)", &wide).unwrap_err();
        assert!(e.column() > 0, "{e}");
    }

    /// A declared vector is `v != 0` as a condition (§12.4), but a
    /// bitwise operator's operand is its value: `v & w` is 0 for 2'b01
    /// and 2'b10, where both are nonzero. Those are refused, with the
    /// column of the vector; `(v) == 1` compares the value.
    #[test]
    fn bitwise_operators_of_vectors_compute_vectors() {
        let s = Signals::new()
            .vector("v", 1, 0)
            .vector("w", 1, 0)
            .scalar("c")
            .scalar("e");
        // The value of a Boolean formula over `v[i]`, `w[i]`, `c`.
        fn eval(f: &Formula, v: u8, w: u8, c: bool) -> bool {
            use crate::formula::Op;
            let k = |i: usize| eval(f.child(i), v, w, c);
            match f.op() {
                Op::True => true,
                Op::False => false,
                Op::Not => !k(0),
                Op::And => (0..f.children().len()).all(k),
                Op::Or => (0..f.children().len()).any(k),
                Op::Xor => k(0) != k(1),
                Op::Equiv => k(0) == k(1),
                Op::Implies => !k(0) || k(1),
                Op::Ap => match f.ap_name().unwrap() {
                    "c" => c,
                    "v != 0" => v != 0,
                    "w != 0" => w != 0,
                    bit => {
                        let (name, i) = bit.trim_end_matches(']').split_once('[').unwrap();
                        let word = if name == "v" { v } else { w };
                        word >> i.parse::<u8>().unwrap() & 1 == 1
                    }
                },
                op => panic!("{op:?} in {f}"),
            }
        }
        // Verilog's values (IEEE 1800-2017 §11.4.8: the 1-bit `c` is
        // extended to the width of the vector).
        type Value = fn(u8, u8, bool) -> bool;
        let cases: &[(&str, Value)] = &[
            ("(v & w) != 0", |v, w, _| v & w != 0),
            ("v & w", |v, w, _| v & w != 0),
            ("(c & w) == 1", |_, w, c| u8::from(c) & w == 1),
            ("v | w", |v, w, _| v | w != 0),
            ("v ^ w", |v, w, _| v ^ w != 0),
            ("v ~^ c", |v, _, c| !(v ^ u8::from(c)) & 3 != 0),
            ("~v", |v, _, _| !v & 3 != 0),
            ("~v == 2'b10", |v, _, _| !v & 3 == 2),
            ("(c ? v : w) == 2", |v, w, c| (if c { v } else { w }) == 2),
            ("(c ? 1'b1 : w) == 1", |_, w, c| {
                (if c { 1 } else { w }) == 1
            }),
            ("c ? v : w", |v, w, c| (if c { v } else { w }) != 0),
            ("v + w == 3'd4", |v, w, _| v + w == 4),
            ("v + w == 2'd0", |v, w, _| (v + w) & 3 == 0),
            // 32 bits (the unsized 0): `v - w` wraps around to a large value.
            ("v - w > 0", |v, w, _| v != w),
            ("{v, w} == 4'b1001", |v, w, _| (v << 2 | w) == 9),
            ("v inside {1, [3:3]}", |v, _, _| v == 1 || v == 3),
            ("w inside {[2:1]} || c", |_, _, c| c),
            ("(v + w) inside {[4:5], 0}", |v, w, _| {
                matches!(v + w, 0 | 4 | 5)
            }),
            ("c -> v inside {w}", |v, w, c| !c || v == w),
        ];
        // Costs are bounded: a long chain of products is refused, not
        // built.
        let chain = format!("v{} == 3", " * v".repeat(400));
        let e = parse_sva_with(&chain, &s).unwrap_err();
        assert!(e.message().contains("bit operations"), "{e}");
        for (text, value) in cases {
            let f = parse_sva_with(text, &s).unwrap_or_else(|e| panic!("{text}: {e}"));
            for v in 0..4 {
                for w in 0..4 {
                    for c in [false, true] {
                        assert_eq!(
                            eval(&f, v, w, c),
                            value(v, w, c),
                            "{text}: v={v} w={w} c={c}"
                        );
                    }
                }
            }
        }
        // Logical operators read conditions; a 1-bit operand is itself.
        let ap = |text: &str| -> Vec<String> {
            parse_sva_with(text, &s)
                .unwrap()
                .atomic_propositions()
                .into_iter()
                .collect()
        };
        assert!(ap("(v && w) & c |-> e").contains(&"w != 0".to_string()));
        assert!(ap("!v |-> e").contains(&"v != 0".to_string()));
        assert!(ap("~c & e").contains(&"c".to_string()));
        assert!(ap("(v) == 1 |-> e").contains(&"v == 1".to_string()));
        // lowRISC's `N'(1) << idx` after N's value: a cast, not a
        // malformed literal.
        let mut cast = ap("c |-> 8'(1) == v");
        cast.sort();
        assert_eq!(cast, ["c", "v[0]", "v[1]"]);
        let e = parse_sva_with("c |-> 8'q1 == v", &s).unwrap_err();
        assert!(e.message().contains("a based literal is"), "{e}");
        assert!(!ap("(v) == 1 |-> e").contains(&"v != 0".to_string()));
    }
}
