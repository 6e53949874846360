//! Printers to Spot and Spin syntax.
//!
//! The Spot printer follows Spot's conventions: prefix operators are glued
//! to their operand (`Fp0`, `X!a`, `G(a -> b)`), binary and n-ary operands
//! that are themselves binary or n-ary are parenthesized, constants are
//! `1` and `0`, and propositions that would not read back as one
//! identifier are double-quoted. SEREs are printed in Spot's PSL syntax
//! (`{a;b[*]}[]-> c`), and `abort` as `f abort b`. `parse(f.to_spot()) ==
//! f` holds but for the negated closure, which prints as `!{r}` and reads
//! back as the negation of `{r}` (the same property), and the tableau's
//! internal marked operators (`!+{r}`, `<>+>`).
//!
//! The Spin printer writes Spin's operators (`[]`, `<>`, `&&`, `||`, `V`),
//! parenthesizes every operand that is not atomic, and rewrites `W`, `M`
//! and `xor`, which Spin's translator (`spin -f`) does not handle. Spin has no past operators and no quoted
//! propositions: those are reported as [`SpinError`]s.

use std::fmt;
use std::fmt::Write;

use super::{Formula, Op};

/// Why a formula cannot be written in Spin syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SpinError {
    /// Spin's LTL has no past-time operators.
    PastOperator(Op),
    /// Spin's LTL has no SEREs.
    Sere(Op),
    /// The proposition is not a valid Spin identifier.
    Proposition(String),
}

impl fmt::Display for SpinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpinError::PastOperator(op) => write!(
                f,
                "Spin's LTL has no past-time operators (found `{}`)",
                op.symbol()
            ),
            SpinError::Sere(op) => write!(
                f,
                "Spin's LTL has no SEREs (found `{}`); compile the property to a never claim instead",
                op.symbol()
            ),
            SpinError::Proposition(name) => write!(
                f,
                "proposition `{name}` is not a Spin identifier ([a-z_][a-zA-Z0-9_]*)"
            ),
        }
    }
}

impl std::error::Error for SpinError {}

/// Whether `name` reads back as one atomic proposition without quotes.
///
/// ```
/// # use monitor_core::formula::print::is_bare_ap;
/// assert!(is_bare_ap("req_0"));
/// assert!(!is_bare_ap("Fa")); // would read as `F a`
/// assert!(!is_bare_ap("x > 3"));
/// assert!(!is_bare_ap("true"));
/// ```
pub fn is_bare_ap(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    if !(first.is_ascii_alphabetic() || first == '_' || first == '.')
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
    {
        return false;
    }
    let second = name[1..].chars().next();
    if "FGXYZOH".contains(first) && !second.is_some_and(|c| c.is_ascii_digit()) {
        return false;
    }
    // `first_match(` starts Spot's operator inside braces.
    if name.eq_ignore_ascii_case("true")
        || name.eq_ignore_ascii_case("false")
        || name == "xor"
        || name == "first_match"
    {
        return false;
    }
    !matches!(name, "U" | "R" | "V" | "W" | "M" | "S" | "B" | "T")
}

/// `s` in double quotes, with `"` and `\` escaped by a backslash: the
/// string syntax of Spot's formulas and of HOA.
///
/// ```
/// # use monitor_core::formula::print::double_quoted;
/// assert_eq!(double_quoted("x > 3"), "\"x > 3\"");
/// assert_eq!(double_quoted(r#"a "b" \c"#), r#""a \"b\" \\c""#);
/// ```
pub fn double_quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn write_ap(out: &mut String, name: &str) {
    if is_bare_ap(name) {
        out.push_str(name);
    } else {
        out.push_str(&double_quoted(name));
    }
}

fn is_compound(f: &Formula) -> bool {
    matches!(f.op().arity(), None | Some(2))
}

impl Formula {
    /// Prints the formula in Spot syntax.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("G((p0 & !p1) -> (!p2 W p1)) | \"x > 3\"")?;
    /// assert_eq!(f.to_spot(), "\"x > 3\" | G((p0 & !p1) -> (!p2 W p1))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_spot(&self) -> String {
        let mut out = String::new();
        spot(self, &mut out);
        out
    }

    /// [`Formula::to_spot`], cut after about `max_bytes` bytes (at a
    /// character, followed by ` …`), in time bounded by what it prints.
    /// A formula's text can be far longer than the formula, whose
    /// subformulas are shared: `G[0:k] F[0:k] b` prints `k` windows of `k`
    /// positions each (700 MB for k = 10,000), which a diagnostic or a
    /// monitor's name need not hold.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// let f = parse("G[0:10000] F[0:10000] b")?;
    /// let s = f.to_spot_within(40);
    /// assert!(s.ends_with(" …") && s.len() < 60, "{s}");
    /// assert_eq!(parse("G a")?.to_spot_within(40), "Ga");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_spot_within(&self, max_bytes: usize) -> String {
        let mut out = String::new();
        let outer = SPOT_LIMIT.with(|l| l.replace(max_bytes));
        spot(self, &mut out);
        SPOT_LIMIT.with(|l| l.set(outer));
        if out.len() > max_bytes {
            let mut cut = max_bytes;
            while !out.is_char_boundary(cut) {
                cut -= 1;
            }
            out.truncate(cut);
            out.push_str(" …");
        }
        out
    }

    /// Prints the formula in NuSMV's LTL syntax (`LTLSPEC`), which has the
    /// past operators but no `W`, `M` or `B`: those are rewritten
    /// (`a W b` = `(a U b) | G a`, `a M b` = `b U (a & b)`, `a B b` =
    /// `(a S b) | H a`). Propositions are printed as they are: they must be
    /// NuSMV expressions of the model (a variable, or a quoted
    /// proposition's text such as `x > 3`).
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// assert_eq!(parse("G(a -> (b W c)) & H(d B e)")?.to_nusmv(),
    ///            "(G (a -> ((G b) | (b U c)))) & (H ((H d) | (d S e)))");
    /// assert_eq!(parse("G(\"x > 3\" -> Y ok)")?.to_nusmv(), "G ((x > 3) -> (Y ok))");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_nusmv(&self) -> String {
        let mut out = String::new();
        nusmv(self, &mut out);
        out
    }

    /// Prints the formula in Spin syntax.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// assert_eq!(parse("G(p -> F q) & (a M b)")?.to_spin()?,
    ///            "([] (p -> (<> q))) && (b U (a && b))");
    /// assert!(parse("G(a -> Y b)")?.to_spin().is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_spin(&self) -> Result<String, SpinError> {
        let mut out = String::new();
        spin(self, &mut out)?;
        Ok(out)
    }
}

fn spot_operand(f: &Formula, out: &mut String) {
    if is_compound(f) {
        out.push('(');
        spot(f, out);
        out.push(')');
    } else {
        spot(f, out);
    }
}

/// A SERE operand: Booleans and repetitions bare, the rest in braces.
fn sere_operand(r: &Formula, out: &mut String) {
    if r.is_boolean() {
        spot_operand(r, out);
    } else if matches!(
        r.op(),
        Op::Star | Op::FStar | Op::EmptyWord | Op::FirstMatch
    ) {
        sere(r, out);
    } else {
        out.push('{');
        sere(r, out);
        out.push('}');
    }
}

/// A SERE in Spot's syntax (without the outer braces).
fn sere(r: &Formula, out: &mut String) {
    if out.len() > SPOT_LIMIT.with(std::cell::Cell::get) {
        return;
    }
    match r.op() {
        Op::EmptyWord => out.push_str("[*0]"),
        Op::Concat | Op::Fusion | Op::OrRat | Op::AndRat => {
            let sep = match r.op() {
                Op::Concat => ";",
                Op::Fusion => ":",
                Op::OrRat => " | ",
                _ => " && ",
            };
            for (i, c) in r.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(sep);
                }
                sere_operand(c, out);
            }
        }
        Op::FirstMatch => {
            out.push_str("first_match(");
            sere(r.child(0), out);
            out.push(')');
        }
        Op::Star => {
            let c = r.child(0);
            let (lo, hi) = r.star_bounds().expect("star");
            if !c.is_true() {
                sere_operand(c, out);
            }
            match (lo, hi) {
                (0, None) => out.push_str("[*]"),
                (1, None) => out.push_str("[+]"),
                (lo, None) => {
                    let _ = write!(out, "[*{lo}..]");
                }
                (lo, Some(hi)) if lo == hi => {
                    let _ = write!(out, "[*{lo}]");
                }
                (lo, Some(hi)) => {
                    let _ = write!(out, "[*{lo}..{hi}]");
                }
            }
        }
        Op::FStar => {
            sere_operand(r.child(0), out);
            match r.fusion_power_bounds().expect("fusion power") {
                (0, None) => out.push_str("[:*]"),
                (1, None) => out.push_str("[:+]"),
                (lo, None) => {
                    let _ = write!(out, "[:*{lo}..]");
                }
                (lo, Some(hi)) if lo == hi => {
                    let _ = write!(out, "[:*{lo}]");
                }
                (lo, Some(hi)) => {
                    let _ = write!(out, "[:*{lo}..{hi}]");
                }
            }
        }
        _ => spot(r, out),
    }
}

thread_local! {
    /// Past this many bytes printed, [`spot`] prints nothing more (see
    /// [`Formula::to_spot_within`]).
    static SPOT_LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(usize::MAX) };
}

fn spot(f: &Formula, out: &mut String) {
    if out.len() > SPOT_LIMIT.with(std::cell::Cell::get) {
        return;
    }
    match f.op() {
        op if op.is_sere() => sere(f, out),
        Op::Closure | Op::NegClosure | Op::NegClosureMarked => {
            out.push_str(match f.op() {
                Op::Closure => "{",
                Op::NegClosure => "!{",
                _ => "!+{",
            });
            sere(f.child(0), out);
            out.push('}');
        }
        Op::Abort | Op::AbortBottom => {
            // `G a abort b` would read as `G(a abort b)`.
            let left = f.child(0);
            if matches!(left.op(), Op::Ap | Op::True | Op::False) {
                spot(left, out);
            } else {
                out.push('(');
                spot(left, out);
                out.push(')');
            }
            let _ = write!(out, " {} ", f.op().symbol());
            spot_operand(f.child(1), out);
        }
        Op::UConcat | Op::EConcat | Op::EConcatMarked => {
            out.push('{');
            sere(f.child(0), out);
            if f.op() == Op::EConcat && f.child(1).is_true() {
                out.push_str("}!");
                return;
            }
            let _ = write!(out, "}}{} ", f.op().symbol());
            spot_operand(f.child(1), out);
        }
        Op::True => out.push('1'),
        Op::False => out.push('0'),
        Op::Ap => write_ap(out, f.ap_name().expect("ap")),
        op if op.arity() == Some(1) => {
            out.push_str(op.symbol());
            let c = f.child(0);
            // `Y1` would read back as a proposition: parenthesize constants.
            if is_compound(c) || c.is_true() || c.is_false() {
                out.push('(');
                spot(c, out);
                out.push(')');
            } else {
                spot(c, out);
            }
        }
        op => {
            let sep = format!(" {} ", op.symbol());
            for (i, c) in f.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(&sep);
                }
                spot_operand(c, out);
            }
        }
    }
}

fn spin_operand(f: &Formula, out: &mut String) -> Result<(), SpinError> {
    if matches!(f.op(), Op::Ap | Op::True | Op::False) {
        spin(f, out)
    } else {
        out.push('(');
        spin(f, out)?;
        out.push(')');
        Ok(())
    }
}

fn is_spin_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "true" | "false")
}

fn spin(f: &Formula, out: &mut String) -> Result<(), SpinError> {
    let op = f.op();
    if op.is_past() {
        return Err(SpinError::PastOperator(op));
    }
    if op.is_sere() || op.is_sere_formula() {
        return Err(SpinError::Sere(op));
    }
    let binary = |sym: &str, a: &Formula, b: &Formula, out: &mut String| -> Result<(), SpinError> {
        spin_operand(a, out)?;
        let _ = write!(out, " {sym} ");
        spin_operand(b, out)
    };
    match op {
        Op::True => out.push_str("true"),
        Op::False => out.push_str("false"),
        Op::Ap => {
            let name = f.ap_name().expect("ap");
            if !is_spin_identifier(name) {
                return Err(SpinError::Proposition(name.to_string()));
            }
            out.push_str(name);
        }
        Op::Not | Op::X | Op::F | Op::G => {
            out.push_str(match op {
                Op::Not => "!",
                Op::X => "X ",
                Op::F => "<> ",
                _ => "[] ",
            });
            spin_operand(f.child(0), out)?;
        }
        Op::And | Op::Or => {
            for (i, c) in f.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(if op == Op::And { " && " } else { " || " });
                }
                spin_operand(c, out)?;
            }
        }
        Op::Implies => binary("->", f.child(0), f.child(1), out)?,
        Op::Equiv => binary("<->", f.child(0), f.child(1), out)?,
        Op::U => binary("U", f.child(0), f.child(1), out)?,
        Op::R => binary("V", f.child(0), f.child(1), out)?,
        Op::W => {
            // Spin 6's `-f` does not translate W (it keeps it as an opaque
            // predicate): a W b == (a U b) || [] a.
            let (a, b) = (f.child(0).clone(), f.child(1).clone());
            let g = Formula::or([Formula::until(a.clone(), b), Formula::always(a)]);
            spin(&g, out)?;
        }
        Op::Xor => {
            out.push_str("!(");
            binary("<->", f.child(0), f.child(1), out)?;
            out.push(')');
        }
        Op::M => {
            // a M b == b U (a & b)
            let (a, b) = (f.child(0).clone(), f.child(1).clone());
            let both = Formula::and([a, b.clone()]);
            binary("U", &b, &both, out)?;
        }
        _ => unreachable!("past operators handled above"),
    }
    Ok(())
}

fn nusmv_operand(f: &Formula, out: &mut String) {
    if matches!(f.op(), Op::True | Op::False)
        || (f.op() == Op::Ap && is_bare_ap(f.ap_name().expect("ap")))
    {
        nusmv(f, out);
    } else {
        out.push('(');
        nusmv(f, out);
        out.push(')');
    }
}

fn nusmv(f: &Formula, out: &mut String) {
    let binary = |sym: &str, a: &Formula, b: &Formula, out: &mut String| {
        nusmv_operand(a, out);
        let _ = write!(out, " {sym} ");
        nusmv_operand(b, out);
    };
    match f.op() {
        // LTLSPEC has no SEREs: PSL subformulas keep Spot's syntax (NuSMV
        // reads PSL only in PSLSPEC, whose grammar is different).
        op if op.is_sere() || op.is_sere_formula() => spot(f, out),
        Op::True => out.push_str("TRUE"),
        Op::False => out.push_str("FALSE"),
        // A quoted proposition is an expression of the model; comparisons
        // and literals in NuSMV's syntax (`state == 2` is `state = 2`), or
        // as written if NuSMV has no such number (it will say so).
        Op::Ap => {
            let name = f.ap_name().expect("ap");
            let text = super::atom::expression(name, super::atom::Syntax::Smv);
            out.push_str(text.as_deref().unwrap_or(name));
        }
        op if op.arity() == Some(1) => {
            out.push_str(if op == Op::Not { "!" } else { op.symbol() });
            if op != Op::Not {
                out.push(' ');
            }
            nusmv_operand(f.child(0), out);
        }
        Op::And | Op::Or => {
            for (i, c) in f.children().iter().enumerate() {
                if i > 0 {
                    out.push_str(if f.op() == Op::And { " & " } else { " | " });
                }
                nusmv_operand(c, out);
            }
        }
        Op::Implies => binary("->", f.child(0), f.child(1), out),
        Op::Equiv => binary("<->", f.child(0), f.child(1), out),
        Op::Xor => binary("xor", f.child(0), f.child(1), out),
        Op::U => binary("U", f.child(0), f.child(1), out),
        Op::R => binary("V", f.child(0), f.child(1), out),
        Op::S => binary("S", f.child(0), f.child(1), out),
        Op::T => binary("T", f.child(0), f.child(1), out),
        Op::W | Op::M | Op::B => {
            let (a, b) = (f.child(0).clone(), f.child(1).clone());
            let g = match f.op() {
                Op::W => Formula::or([Formula::until(a.clone(), b), Formula::always(a)]),
                Op::M => Formula::until(b.clone(), Formula::and([a, b])),
                _ => Formula::or([Formula::since(a.clone(), b), Formula::historically(a)]),
            };
            nusmv(&g, out);
        }
        op => unreachable!("{op:?} handled above"),
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    #[test]
    fn spot_round_trip() {
        for s in [
            "G!p0",
            "Fp0 -> (!p1 U p0)",
            "G((p0 & !p1 & Fp1) -> (!p2 U p1))",
            "!p0 W (p0 W (!p0 W (p0 W G!p0)))",
            "a xor b",
            "\"F\" & \"U\" & \"x y\" & \"a\\\"b\" & F1 & _x & .y",
            "Y(1) & Z(0) & H(a S b) & O(a B b) & (a T b)",
            "XFp1 -> X(a R b) & (c M d)",
        ] {
            let f = parse(s).unwrap();
            let printed = f.to_spot();
            assert_eq!(parse(&printed).unwrap(), f, "{s} printed as {printed}");
        }
        assert_eq!(parse("G!p0").unwrap().to_spot(), "G!p0");
        assert_eq!(parse("G(p0 -> Fp1)").unwrap().to_spot(), "G(p0 -> Fp1)");
    }

    #[test]
    fn spin_output() {
        assert_eq!(
            parse("G(req -> X ack)").unwrap().to_spin().unwrap(),
            "[] (req -> (X ack))"
        );
        assert_eq!(parse("a xor b").unwrap().to_spin().unwrap(), "!(a <-> b)");
        assert_eq!(parse("a R b").unwrap().to_spin().unwrap(), "a V b");
        assert!(matches!(
            parse("\"x > 3\"").unwrap().to_spin(),
            Err(SpinError::Proposition(_))
        ));
        assert!(matches!(
            parse("O a").unwrap().to_spin(),
            Err(SpinError::PastOperator(Op::O))
        ));
    }
}
