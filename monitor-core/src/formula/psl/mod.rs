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

use super::parse::{ParseError, ParseErrorKind};
#[cfg(doc)]
use super::vunit::{parse_directive, parse_vunits};
use super::Formula;

mod lex;
mod parser;
mod print;

pub(super) use self::lex::{lex, Token, T};
pub(super) use parser::{goto, is_signal, nonconsecutive, ClockUse, Item, Parser};
pub use print::PslPrintError;

/// Parses a PSL property (Verilog flavour or NuSMV syntax).
///
/// A clocked property (`@`) is refused, with a message naming
/// [`parse_directive`] and [`parse_vunits`], which read clocks, resets
/// and directives.
///
/// ```
/// # use monitor_core::formula::{parse, parse_psl};
/// assert_eq!(parse_psl("assert always (req -> next ack);")?, parse("G(req -> X ack)")?);
/// assert_eq!(parse_psl("{req; busy[*]; ack} |-> done")?.to_spot(), "{req;busy[*];ack}[]-> done");
/// assert!(parse_psl("@(posedge clk) always a").is_err()); // see parse_directive
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn parse_psl(input: &str) -> Result<Formula, ParseError> {
    let tokens = lex(input, false)?;
    let mut p = Parser::new(input, tokens, false);
    // `assert φ;` and `PSLSPEC φ;` as in a vunit or an SMV file.
    if matches!(&p.cur.peek().kind, T::Word(w) if w == "assert" || w == "PSLSPEC") {
        p.cur.next();
    }
    if p.cur.peek().kind == T::End {
        return Err(p.cur.error(p.cur.peek().span, ParseErrorKind::Empty));
    }
    let f = p.formula()?;
    if p.cur.peek().kind == T::Sym(";") {
        p.cur.next();
    }
    let t = p.cur.peek().clone();
    if t.kind != T::End {
        return Err(p.unexpected(&t, "an operator or the end of the property"));
    }
    Ok(f)
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
            // Nested as the bounded LTL operators (linear in the count).
            ("next_a[1:2] a", "G[1:2] a"),
            ("next_a[1:2] a", "X(a & X a)"),
            ("next_e[0:1] a", "a | X a"),
            ("next_e[2:4] a", "F[2:4] a"),
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
