//! Formulas printed in PSL (`Formula::to_psl`), for NuSMV's `PSLSPEC`
//! and PSL users.

use super::parse_psl;
use super::parser::KEYWORDS;
use crate::formula::{Formula, Op};

/// Why a formula cannot be written in PSL.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PslPrintError {
    /// PSL has `prev` on Booleans, but no other past-time operator.
    PastOperator(Op),
    /// The proposition is not a PSL identifier (nor a comparison).
    Proposition(String),
    /// IEEE 1850 has no `first_match` (SVA's, IEEE 1800-2017 §16.9.8).
    FirstMatch,
    /// IEEE 1850 has no fusion power (Spot's `r[:*i..j]`).
    FusionPower,
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
            PslPrintError::FirstMatch => write!(
                f,
                "PSL has no `first_match` (an SVA operator, IEEE 1800-2017 §16.9.8)"
            ),
            PslPrintError::FusionPower => write!(
                f,
                "PSL has no fusion power (Spot's `[:*i..j]`, `[:+]`, `[:*]`)"
            ),
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
    /// let h = parse("G(req -> Y Y ack)")?;
    /// assert_eq!(parse_psl(&h.to_psl()?)?, h);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_psl(&self) -> Result<String, PslPrintError> {
        let mut out = String::new();
        psl(self, &mut out)?;
        Ok(out)
    }
}

fn psl(f: &Formula, out: &mut String) -> Result<(), PslPrintError> {
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
        // `prev` of a Boolean, itself with `prev` in it (`$past(a, 2)`
        // of SVA is `Y Y a`): any other past operator inside is refused
        // when the recursion meets it.
        Op::Y if !f.child(0).has_future() => {
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
        Op::FirstMatch => return Err(PslPrintError::FirstMatch),
        Op::FStar => return Err(PslPrintError::FusionPower),
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
