//! The values of arithmetic terms ([`Term`]): Verilog's on a waveform,
//! exact integers on a log (see the module doc of `expr`).
//!
//! Verilog values are at most 128 bits wide (a `u128` and a width), so
//! that each operation is a machine operation; a wider operand or result
//! is an error, never a truncated value.

use super::expr::{Cell, Expr, Operand, Term, ValueError};
use super::number::Num;
use crate::formula::atom::Comparison;
use crate::formula::atom::Select;

/// The widest Verilog value computed.
pub(crate) const MAX_BITS: u32 = 128;

/// The type of a Verilog expression: its width and signedness.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ty {
    w: u32,
    s: bool,
}

fn mask(w: u32) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// `v` (of `from` bits) sign-extended to `to` bits.
fn sext(v: u128, from: u32, to: u32) -> u128 {
    if from < 128 && (v >> (from - 1)) & 1 == 1 {
        (v | !mask(from)) & mask(to)
    } else {
        v & mask(to)
    }
}

fn signed(v: u128, w: u32) -> i128 {
    sext(v, w, 128) as i128
}

fn division_by_zero() -> ValueError {
    ValueError("division by zero (Verilog's value is x, which no verdict can read)".into())
}

/// The bits of a field's vector, selected; an error for unknown bits and
/// beyond [`MAX_BITS`].
fn field_bits(name: &str, bits: &[u8], select: Option<Select>) -> Result<(u128, u32), ValueError> {
    let bits = match select {
        None => bits,
        Some(sel) => {
            let (hi, lo) = match sel {
                Select::Bit(i) => (i, i),
                Select::Part(h, l) => (h, l),
            };
            let n = bits.len() as u32;
            if hi >= n {
                return Err(ValueError(format!(
                    "`{name}`: bit {hi} of a {n}-bit vector {}",
                    String::from_utf8_lossy(bits)
                )));
            }
            &bits[(n - 1 - hi) as usize..=(n - 1 - lo) as usize]
        }
    };
    if bits.iter().any(|b| !matches!(b, b'0' | b'1')) {
        return Err(ValueError(format!(
            "`{name}`: {} has unknown (x/z) bits: it has no value to compute with",
            String::from_utf8_lossy(bits)
        )));
    }
    if bits.len() > MAX_BITS as usize {
        return Err(ValueError(format!(
            "`{name}`: arithmetic on a {}-bit vector: at most {MAX_BITS} bits",
            bits.len()
        )));
    }
    if bits.is_empty() {
        return Err(ValueError(format!("`{name}`: an empty vector")));
    }
    let v = bits
        .iter()
        .fold(0u128, |v, &b| (v << 1) | u128::from(b == b'1'));
    Ok((v, bits.len() as u32))
}

/// Whether a number written in an expression is a Verilog integer: an
/// unsized decimal of 32 signed bits, without a point or an exponent.
fn verilog_int(n: &super::expr::Number) -> Option<i32> {
    let t = n.as_str();
    if t.contains(['.', 'e', 'E']) {
        return None;
    }
    n.as_i128().and_then(|i| i32::try_from(i).ok())
}

/// Whether every value the term reads (outside its Boolean
/// sub-expressions, which are one bit either way) is a Verilog value: a
/// waveform's vector, a Verilog literal, a 32-bit integer.
pub(crate) fn verilog_only<'c>(t: &Term, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> bool {
    match t {
        Term::Operand(o) => match o {
            Operand::Field(r) => !matches!(cell(r.id), Some(c) if !matches!(c, Cell::Bits(_))),
            Operand::Number(n) => verilog_int(n).is_some(),
            Operand::Literal(_) | Operand::Bool(_) => true,
            Operand::Str(_) => false,
            Operand::Term(t) => verilog_only(t, cell),
        },
        Term::Unary(_, x) | Term::Signed(x) | Term::Unsigned(x) => verilog_only(x, cell),
        Term::Binary(a, _, b) => verilog_only(a, cell) && verilog_only(b, cell),
        Term::Concat(xs) | Term::Replicate(_, xs) => xs.iter().all(|x| verilog_only(x, cell)),
        Term::Bool(_) => true,
    }
}

use super::expr::{BinaryOp, UnaryOp};

/// A leaf's Verilog value and type.
fn leaf<'c>(
    o: &Operand,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<(u128, Ty), ValueError> {
    match o {
        Operand::Field(r) => match cell(r.id) {
            Some(Cell::Bits(bits)) => {
                let (v, w) = field_bits(&r.name, bits, r.select)?;
                Ok((v, Ty { w, s: false }))
            }
            Some(_) => unreachable!("a Verilog term reads vectors"),
            None => Err(ValueError(format!("no field `{}` in this event", r.name))),
        },
        Operand::Number(n) => {
            let i = verilog_int(n).expect("a Verilog integer");
            Ok((u128::from(i as u32), Ty { w: 32, s: true }))
        }
        Operand::Literal(l) => {
            let w = l.width.unwrap_or(32);
            if w > MAX_BITS {
                return Err(ValueError(format!(
                    "`{}`: arithmetic on {w} bits: at most {MAX_BITS}",
                    l.text
                )));
            }
            Ok((u128::from(l.value) & mask(w), Ty { w, s: l.signed }))
        }
        Operand::Bool(b) => Ok((u128::from(*b), Ty { w: 1, s: false })),
        Operand::Str(_) => unreachable!("no string in arithmetic"),
        Operand::Term(t) => own(t, cell),
    }
}

fn too_wide(w: u64) -> ValueError {
    ValueError(format!(
        "a {w}-bit concatenation or operation: at most {MAX_BITS} bits"
    ))
}

/// The self-determined type of a term (IEEE 1364-2005 Table 5-22, §5.5.1).
fn ty<'c>(t: &Term, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> Result<Ty, ValueError> {
    Ok(match t {
        Term::Operand(Operand::Term(t)) => ty(t, cell)?,
        Term::Operand(o) => leaf(o, cell)?.1,
        Term::Unary(UnaryOp::Neg | UnaryOp::Plus | UnaryOp::Not, x) => ty(x, cell)?,
        Term::Unary(_, _) | Term::Bool(_) => Ty { w: 1, s: false },
        Term::Binary(a, op, b) => {
            let x = ty(a, cell)?;
            if op.is_shift() {
                x
            } else {
                let y = ty(b, cell)?;
                Ty {
                    w: x.w.max(y.w),
                    s: x.s && y.s,
                }
            }
        }
        Term::Concat(xs) | Term::Replicate(_, xs) => {
            let mut w = 0u64;
            for x in xs {
                w += u64::from(ty(x, cell)?.w);
            }
            if let Term::Replicate(n, _) = t {
                w *= u64::from(*n);
            }
            if w > u64::from(MAX_BITS) {
                return Err(too_wide(w));
            }
            Ty {
                w: w as u32,
                s: false,
            }
        }
        Term::Signed(x) => Ty {
            w: ty(x, cell)?.w,
            s: true,
        },
        Term::Unsigned(x) => Ty {
            w: ty(x, cell)?.w,
            s: false,
        },
    })
}

/// A term's value in its own (self-determined) type.
fn own<'c>(t: &Term, cell: &impl Fn(usize) -> Option<Cell<'c>>) -> Result<(u128, Ty), ValueError> {
    let ty = ty(t, cell)?;
    Ok((eval(t, cell, ty)?, ty))
}

/// An operand of type `from` and value `v` in an expression of type `to`:
/// sign-extended when the expression is signed (then so is the operand).
fn extend(v: u128, from: Ty, to: Ty) -> u128 {
    if to.s && from.s {
        sext(v, from.w, to.w)
    } else {
        v & mask(to.w)
    }
}

/// A term's value in a context of type `ctx` (§5.5.2: the operands of a
/// context-determined operator are extended to the context's width
/// first, then computed on).
fn eval<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
    ctx: Ty,
) -> Result<u128, ValueError> {
    let m = mask(ctx.w);
    Ok(match t {
        Term::Operand(Operand::Term(t)) => eval(t, cell, ctx)?,
        // `-6` is `-(6)`: negated in the context's width, after the
        // extension (zero-extension, in an unsigned context).
        Term::Operand(Operand::Number(n)) if n.as_i128().is_some_and(|i| i < 0) => {
            let i = verilog_int(n).expect("a Verilog integer");
            u128::from(i.unsigned_abs()).wrapping_neg() & m
        }
        Term::Operand(o) => {
            let (v, from) = leaf(o, cell)?;
            extend(v, from, ctx)
        }
        Term::Unary(op, x) => match op {
            UnaryOp::Plus => eval(x, cell, ctx)?,
            UnaryOp::Neg => eval(x, cell, ctx)?.wrapping_neg() & m,
            UnaryOp::Not => !eval(x, cell, ctx)? & m,
            reduction => {
                let (v, ty) = own(x, cell)?;
                let bit = match reduction {
                    UnaryOp::And | UnaryOp::Nand => v == mask(ty.w),
                    UnaryOp::Or | UnaryOp::Nor => v != 0,
                    _ => v.count_ones() % 2 == 1,
                };
                let negated = matches!(reduction, UnaryOp::Nand | UnaryOp::Nor | UnaryOp::Xnor);
                extend(u128::from(bit != negated), Ty { w: 1, s: false }, ctx)
            }
        },
        Term::Binary(a, op, b) if op.is_shift() => {
            let x = eval(a, cell, ctx)?;
            // The amount is self-determined and unsigned (§5.1.12).
            let n = own(b, cell)?.0;
            match op {
                BinaryOp::Shl | BinaryOp::AShl => {
                    if n >= u128::from(ctx.w) {
                        0
                    } else {
                        (x << n) & m
                    }
                }
                BinaryOp::AShr if ctx.s => {
                    let n = n.min(127) as u32;
                    ((signed(x, ctx.w) >> n) as u128) & m
                }
                _ => {
                    if n >= u128::from(ctx.w) {
                        0
                    } else {
                        x >> n
                    }
                }
            }
        }
        Term::Binary(a, op, b) => {
            let x = eval(a, cell, ctx)?;
            let y = eval(b, cell, ctx)?;
            match op {
                BinaryOp::Add => x.wrapping_add(y) & m,
                BinaryOp::Sub => x.wrapping_sub(y) & m,
                BinaryOp::Mul => x.wrapping_mul(y) & m,
                BinaryOp::Div | BinaryOp::Mod if y == 0 => return Err(division_by_zero()),
                BinaryOp::Div if ctx.s => {
                    (signed(x, ctx.w).wrapping_div(signed(y, ctx.w)) as u128) & m
                }
                BinaryOp::Mod if ctx.s => {
                    (signed(x, ctx.w).wrapping_rem(signed(y, ctx.w)) as u128) & m
                }
                BinaryOp::Div => x / y,
                BinaryOp::Mod => x % y,
                BinaryOp::And => x & y,
                BinaryOp::Or => x | y,
                BinaryOp::Xor => x ^ y,
                BinaryOp::Xnor => !(x ^ y) & m,
                BinaryOp::Shl | BinaryOp::Shr | BinaryOp::AShl | BinaryOp::AShr => {
                    unreachable!("shifts above")
                }
            }
        }
        Term::Concat(_)
        | Term::Replicate(..)
        | Term::Signed(_)
        | Term::Unsigned(_)
        | Term::Bool(_) => {
            let (v, from) = self_determined(t, cell)?;
            extend(v, from, ctx)
        }
    })
}

/// The value of a term that is its own context: a concatenation, a
/// replication, `$signed`, `$unsigned`, a Boolean.
fn self_determined<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<(u128, Ty), ValueError> {
    Ok(match t {
        Term::Concat(xs) | Term::Replicate(_, xs) => {
            let total = ty(t, cell)?;
            let mut v = 0u128;
            let mut w = 0u32;
            for x in xs {
                let (xv, xt) = own(x, cell)?;
                v = if xt.w >= 128 { xv } else { (v << xt.w) | xv };
                w += xt.w;
            }
            if let Term::Replicate(n, _) = t {
                let one = v;
                for _ in 1..*n {
                    v = (v << w) | one;
                }
            }
            (v, total)
        }
        Term::Signed(x) => {
            let (v, ty) = own(x, cell)?;
            (v, Ty { w: ty.w, s: true })
        }
        Term::Unsigned(x) => {
            let (v, ty) = own(x, cell)?;
            (v, Ty { w: ty.w, s: false })
        }
        Term::Bool(e) => (u128::from(e.eval_strict(cell)?), Ty { w: 1, s: false }),
        other => own(other, cell)?,
    })
}

/// Whether `o` holds between two numbers in order `ord`.
fn holds(ord: std::cmp::Ordering, op: Comparison) -> bool {
    match op {
        Comparison::Eq | Comparison::CaseEq => ord.is_eq(),
        Comparison::Ne | Comparison::CaseNe => ord.is_ne(),
        Comparison::Lt => ord.is_lt(),
        Comparison::Le => ord.is_le(),
        Comparison::Gt => ord.is_gt(),
        Comparison::Ge => ord.is_ge(),
    }
}

/// A comparison of two terms: Verilog's when both read only Verilog
/// values, exact otherwise.
pub(crate) fn compare<'c>(
    a: &Term,
    op: Comparison,
    b: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<bool, ValueError> {
    if verilog_only(a, cell) && verilog_only(b, cell) {
        // §5.5.1: the operands are sized to the wider; the comparison is
        // signed when both are.
        let (x, y) = (ty(a, cell)?, ty(b, cell)?);
        let ctx = Ty {
            w: x.w.max(y.w),
            s: x.s && y.s,
        };
        let (u, v) = (eval(a, cell, ctx)?, eval(b, cell, ctx)?);
        let ord = if ctx.s {
            signed(u, ctx.w).cmp(&signed(v, ctx.w))
        } else {
            u.cmp(&v)
        };
        return Ok(holds(ord, op));
    }
    // Two values compared without arithmetic: exactly, decimals too.
    if let (Term::Operand(x), Term::Operand(y)) = (a, b) {
        let num = |o: &Operand| -> Result<Option<i128>, ValueError> {
            Ok(match o {
                Operand::Literal(_) | Operand::Bool(_) => Some(integer_leaf(o, cell)?),
                _ => None,
            })
        };
        if !matches!(x, Operand::Term(_) | Operand::Bool(_))
            && !matches!(y, Operand::Term(_) | Operand::Bool(_))
        {
            let (nx, ny) = (num(x)?, num(y)?);
            let vx = match nx {
                Some(i) => Num::Int(i),
                None => super::expr::operand_num(x, cell)?,
            };
            let vy = match ny {
                Some(i) => Num::Int(i),
                None => super::expr::operand_num(y, cell)?,
            };
            return Ok(holds(vx.compare(vy), op));
        }
    }
    let (x, y) = (exact(a, cell)?, exact(b, cell)?);
    Ok(holds(x.cmp(&y), op))
}

/// A term as a proposition: whether its value is not zero.
pub(crate) fn truth<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<bool, ValueError> {
    if verilog_only(t, cell) {
        return Ok(own(t, cell)?.0 != 0);
    }
    Ok(exact(t, cell)? != 0)
}

fn overflow() -> ValueError {
    ValueError("the value overflows 128-bit integer arithmetic".into())
}

/// The exact integer value of a Verilog value.
fn integer(v: u128, ty: Ty) -> Result<i128, ValueError> {
    if ty.s {
        Ok(signed(v, ty.w))
    } else {
        i128::try_from(v).map_err(|_| overflow())
    }
}

/// The exact integer value of a term (a log's arithmetic).
pub(crate) fn exact<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<i128, ValueError> {
    let int = |n: Num<'_>, what: &dyn Fn() -> String| match n {
        Num::Int(i) => Ok(i),
        Num::Bits(_) => Err(ValueError(format!(
            "{}: arithmetic on integers of more than 127 bits",
            what()
        ))),
        Num::Float(f) if f.fract() == 0.0 && f.abs() < 1.7e38 => Ok(f as i128),
        Num::Float(_) | Num::Dec(..) => Err(ValueError(format!(
            "{} is not an integer: arithmetic is on integers (compare it without arithmetic)",
            what()
        ))),
    };
    Ok(match t {
        Term::Operand(o) => match o {
            Operand::Field(r) => {
                let c = cell(r.id)
                    .ok_or_else(|| ValueError(format!("no field `{}` in this event", r.name)))?;
                if let Cell::Bits(bits) = c {
                    let (v, w) = field_bits(&r.name, bits, r.select)?;
                    integer(v, Ty { w, s: false })?
                } else {
                    let n = match r.select {
                        None => c.as_num(),
                        Some(s) => c.select(s),
                    }
                    .map_err(|e| ValueError(format!("`{}`: {}", r.name, e.0)))?;
                    int(n, &|| format!("`{}`: {}", r.name, n.to_text()))?
                }
            }
            Operand::Number(n) => int(n.num(), &|| n.as_str().to_string())?,
            Operand::Literal(_) | Operand::Bool(_) => integer_leaf(o, cell)?,
            Operand::Str(_) => unreachable!("no string in arithmetic"),
            Operand::Term(t) => exact(t, cell)?,
        },
        Term::Unary(op, x) => match op {
            UnaryOp::Plus => exact(x, cell)?,
            UnaryOp::Neg => exact(x, cell)?.checked_neg().ok_or_else(overflow)?,
            UnaryOp::Not => !exact(x, cell)?,
            _ => verilog_part(t, cell)?,
        },
        Term::Binary(a, op, b) => {
            let x = exact(a, cell)?;
            let y = exact(b, cell)?;
            match op {
                BinaryOp::Add => x.checked_add(y).ok_or_else(overflow)?,
                BinaryOp::Sub => x.checked_sub(y).ok_or_else(overflow)?,
                BinaryOp::Mul => x.checked_mul(y).ok_or_else(overflow)?,
                BinaryOp::Div | BinaryOp::Mod if y == 0 => return Err(division_by_zero()),
                BinaryOp::Div => x.checked_div(y).ok_or_else(overflow)?,
                BinaryOp::Mod => x.checked_rem(y).ok_or_else(overflow)?,
                BinaryOp::And => x & y,
                BinaryOp::Or => x | y,
                BinaryOp::Xor => x ^ y,
                BinaryOp::Xnor => !(x ^ y),
                BinaryOp::Shl | BinaryOp::AShl | BinaryOp::Shr | BinaryOp::AShr if y < 0 => {
                    return Err(ValueError(format!("a shift by a negative amount, {y}")));
                }
                BinaryOp::Shl | BinaryOp::AShl => {
                    if x == 0 {
                        0
                    } else {
                        let n = u32::try_from(y)
                            .ok()
                            .filter(|&n| n < 127)
                            .ok_or_else(overflow)?;
                        let r = x << n;
                        if r >> n != x {
                            return Err(overflow());
                        }
                        r
                    }
                }
                BinaryOp::Shr | BinaryOp::AShr => x >> y.min(127) as u32,
            }
        }
        Term::Concat(_) | Term::Replicate(..) => verilog_part(t, cell)?,
        Term::Signed(x) | Term::Unsigned(x) if verilog_only(x, cell) => {
            let (v, ty) = self_determined(t, cell)?;
            integer(v, ty)?
        }
        // A log value has no width to reinterpret.
        Term::Signed(x) | Term::Unsigned(x) => exact(x, cell)?,
        Term::Bool(e) => i128::from(e.eval_strict(cell)?),
    })
}

/// The integer value of a literal or `true`/`false`.
fn integer_leaf<'c>(
    o: &Operand,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<i128, ValueError> {
    let (v, ty) = leaf(o, cell)?;
    integer(v, ty)
}

/// A reduction or a concatenation inside a log's arithmetic: computed as
/// Verilog computes it when it reads only Verilog values (they have
/// widths); an error otherwise.
fn verilog_part<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<i128, ValueError> {
    if !verilog_only(t, cell) {
        return Err(ValueError(
            "a reduction or a concatenation of a log value, which has no bit width".into(),
        ));
    }
    let (v, ty) = self_determined_or_reduction(t, cell)?;
    integer(v, ty)
}

fn self_determined_or_reduction<'c>(
    t: &Term,
    cell: &impl Fn(usize) -> Option<Cell<'c>>,
) -> Result<(u128, Ty), ValueError> {
    match t {
        Term::Unary(..) => own(t, cell),
        _ => self_determined(t, cell),
    }
}

impl Expr {
    /// Whether the expression reads arithmetic (for tests).
    #[cfg(test)]
    pub(crate) fn has_terms(&self) -> bool {
        match self {
            Expr::Value(_) => true,
            Expr::Compare(Operand::Term(_), _, _) | Expr::Compare(_, _, Operand::Term(_)) => true,
            Expr::Not(e) => e.has_terms(),
            Expr::And(xs) | Expr::Or(xs) => xs.iter().any(Expr::has_terms),
            _ => false,
        }
    }
}
