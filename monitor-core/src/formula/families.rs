//! Benchmark formula families, named as in Spot's `genltl`.
//!
//! | name | formula |
//! |---|---|
//! | `and-f` | `Fp1 & … & Fpn` (Rozier's E) |
//! | `not-and-f` | `!(Fp1 & … & Fpn)` (Rozier's Ē, a safety formula) |
//! | `or-g` | `Gp1 \| … \| Gpn` (Spot's `gh-s`) |
//! | `and-g` | `Gp1 & … & Gpn` (Rozier's S) |
//! | `or-gf`, `and-gf` | `GFp1 \| …`, `GFp1 & …` (C1, C2) |
//! | `u-left`, `u-right` | `(p1 U p2) U …`, `p1 U (p2 U …)` |
//! | `r-left`, `r-right` | `(p1 R p2) R …`, `p1 R (p2 R …)` (R2 is `r-left`) |
//! | `gh-q` | `(Fp1 \| Gp2) & … & (Fpn \| Gpn+1)` |
//! | `gh-r` | `(GFp1 \| FGp2) & … & (GFpn \| FGpn+1)` |
//! | `rv-counter`, `rv-counter-linear` | Rozier's n-bit counters `c`, `cl` (propositions `m`, `b`) |
//! | `rv-counter-carry`, `rv-counter-carry-linear` | counters with carry `cc`, `ccl` (`m`, `b`, `c`) |
//! | `dac-patterns` | the n-th of the 55 Dwyer specification patterns (1-based) |
//! | `rozier-safety` | the n-th of Rozier's safety formulas (Table 3.2, 0-based) |
//!
//! The counters follow `LTLcounter.pl` and Spot exactly: each has a unique
//! model, which counts from 0 to 2^n - 1 in binary, least significant bit
//! first, one bit per step, with the marker `m` on the first bit of each
//! value. Their minimal bad-prefix automata have n·2^n states plus the
//! rejecting sink.
//!
//! ```
//! use monitor_core::formula::families::generate;
//! assert_eq!(generate("or-g", 3)?.to_spot(), "Gp1 | Gp2 | Gp3");
//! assert_eq!(generate("dac-patterns", 2)?.to_spot(), "Fp0 -> (!p1 U p0)");
//! # Ok::<(), String>(())
//! ```

use super::{parse, Formula, Op};

/// The 55 Dwyer specification patterns, one per line (as in Spot's
/// `genltl --dac-patterns`).
pub const DWYER_PATTERNS: &str = include_str!("../../data/dwyer-patterns.ltl");

/// Rozier's model-scaling safety set, one per line, `#` comments.
pub const ROZIER_SAFETY: &str = include_str!("../../data/rozier-safety.ltl");

/// The names of all families, with a one-line description.
pub const FAMILIES: &[(&str, &str)] = &[
    ("and-f", "Fp1 & ... & Fpn"),
    ("not-and-f", "!(Fp1 & ... & Fpn)"),
    ("or-g", "Gp1 | ... | Gpn"),
    ("and-g", "Gp1 & ... & Gpn"),
    ("or-gf", "GFp1 | ... | GFpn"),
    ("and-gf", "GFp1 & ... & GFpn"),
    ("u-left", "(((p1 U p2) U p3) ... U pn)"),
    ("u-right", "p1 U (p2 U (... U pn))"),
    ("r-left", "(((p1 R p2) R p3) ... R pn)"),
    ("r-right", "p1 R (p2 R (... R pn))"),
    ("gh-q", "(Fp1 | Gp2) & ... & (Fpn | Gpn+1)"),
    ("gh-r", "(GFp1 | FGp2) & ... & (GFpn | FGpn+1)"),
    ("rv-counter", "n-bit counter (Rozier's c)"),
    (
        "rv-counter-linear",
        "n-bit counter, linear size (Rozier's cl)",
    ),
    ("rv-counter-carry", "n-bit counter with carry (Rozier's cc)"),
    (
        "rv-counter-carry-linear",
        "n-bit counter with carry, linear size (Rozier's ccl)",
    ),
    (
        "dac-patterns",
        "the n-th Dwyer specification pattern, 1..55",
    ),
    (
        "rozier-safety",
        "the n-th formula of Rozier's safety set, 0..12",
    ),
];

/// The formulas of a data file: one per line, skipping blank lines and
/// `#` comments.
///
/// ```
/// # use monitor_core::formula::families::{data_lines, DWYER_PATTERNS};
/// let text = "# two formulas\nG a\n\n   F b  \n";
/// assert_eq!(data_lines(text).collect::<Vec<_>>(), ["G a", "F b"]);
/// assert_eq!(data_lines(DWYER_PATTERNS).count(), 55);
/// ```
pub fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

/// Generates member `n` of the family called `name`.
///
/// ```
/// # use monitor_core::formula::families::generate;
/// assert_eq!(generate("u-right", 3)?.to_spot(), "p1 U (p2 U p3)");
/// assert_eq!(generate("and-f", 0).unwrap_err(), "family `and-f` needs n >= 1");
/// # Ok::<(), String>(())
/// ```
pub fn generate(name: &str, n: usize) -> Result<Formula, String> {
    let p = |i: usize| Formula::ap(&format!("p{i}"));
    let need = |min: usize| {
        if n < min {
            Err(format!("family `{name}` needs n >= {min}"))
        } else {
            Ok(())
        }
    };
    let chain = |op: Op, left: bool| {
        if left {
            (2..=n).fold(p(1), |acc, i| Formula::binop(op, acc, p(i)))
        } else {
            (1..n)
                .rev()
                .fold(p(n), |acc, i| Formula::binop(op, p(i), acc))
        }
    };
    let f = match name {
        "and-f" | "not-and-f" => {
            need(1)?;
            let f = Formula::and((1..=n).map(|i| Formula::eventually(p(i))));
            if name == "and-f" {
                f
            } else {
                Formula::not(f)
            }
        }
        "or-g" => {
            need(1)?;
            Formula::or((1..=n).map(|i| Formula::always(p(i))))
        }
        "and-g" => {
            need(1)?;
            Formula::and((1..=n).map(|i| Formula::always(p(i))))
        }
        "or-gf" | "and-gf" => {
            need(1)?;
            let it = (1..=n).map(|i| Formula::always(Formula::eventually(p(i))));
            if name == "or-gf" {
                Formula::or(it)
            } else {
                Formula::and(it)
            }
        }
        "u-left" | "u-right" => {
            need(1)?;
            chain(Op::U, name == "u-left")
        }
        "r-left" | "r-right" => {
            need(1)?;
            chain(Op::R, name == "r-left")
        }
        "gh-q" => {
            need(1)?;
            Formula::and(
                (1..=n)
                    .map(|i| Formula::or([Formula::eventually(p(i)), Formula::always(p(i + 1))])),
            )
        }
        "gh-r" => {
            need(1)?;
            Formula::and((1..=n).map(|i| {
                Formula::or([
                    Formula::always(Formula::eventually(p(i))),
                    Formula::eventually(Formula::always(p(i + 1))),
                ])
            }))
        }
        "rv-counter" | "rv-counter-linear" => {
            need(1)?;
            counter(n, name.ends_with("linear"))
        }
        "rv-counter-carry" | "rv-counter-carry-linear" => {
            need(1)?;
            counter_carry(n, name.ends_with("linear"))
        }
        "dac-patterns" => pick(DWYER_PATTERNS, n, 1, name)?,
        "rozier-safety" => pick(ROZIER_SAFETY, n, 0, name)?,
        _ => {
            let known: Vec<&str> = FAMILIES.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "unknown family `{name}` (known: {})",
                known.join(", ")
            ));
        }
    };
    Ok(f)
}

fn pick(text: &str, n: usize, base: usize, name: &str) -> Result<Formula, String> {
    let lines: Vec<&str> = data_lines(text).collect();
    let last = lines.len() + base - 1;
    let line = n
        .checked_sub(base)
        .and_then(|i| lines.get(i))
        .ok_or_else(|| format!("family `{name}` has members {base}..={last}"))?;
    parse(line).map_err(|e| format!("built-in formula {line}: {e}"))
}

fn and2(a: Formula, b: Formula) -> Formula {
    Formula::and([a, b])
}

/// Spot's `ltl_counter` (Rozier's `c` and `cl`).
fn counter(n: usize, linear: bool) -> Formula {
    let b = Formula::ap("b");
    let m = Formula::ap("m");
    let nb = Formula::not(b.clone());
    let nm = Formula::not(m.clone());
    let x = Formula::next;
    let xn = Formula::next_n;
    let and_x = |a: Formula, c: Formula| {
        if linear {
            x(and2(a, c))
        } else {
            and2(x(a), x(c))
        }
    };
    let mut res = vec![marker(n, linear), bits_zero(n, linear)];
    // If the least significant bit is 0, it will be 1 at the next time,
    // and other bits stay the same.
    let xnm1_b = xn(b.clone(), n - 1);
    let xn_b = x(xnm1_b.clone());
    res.push(Formula::always(Formula::implies(
        and2(m.clone(), nb.clone()),
        and_x(
            xnm1_b.clone(),
            Formula::until(
                and2(nm.clone(), Formula::equiv(b.clone(), xn_b.clone())),
                m.clone(),
            ),
        ),
    )));
    // From the least significant bit to the first 0, all the bits are
    // flipped on the next value. Remaining bits are identical.
    let xnm1_nb = xn(nb.clone(), n - 1);
    let xn_nb = x(xnm1_nb.clone());
    res.push(Formula::always(Formula::implies(
        and2(m.clone(), b.clone()),
        and_x(
            xnm1_nb,
            Formula::until(
                and2(and2(b.clone(), nm.clone()), xn_nb),
                Formula::or([
                    m.clone(),
                    and2(
                        and2(nm.clone(), nb.clone()),
                        and_x(
                            xnm1_b,
                            Formula::until(
                                and2(nm.clone(), Formula::equiv(b.clone(), xn_b)),
                                m.clone(),
                            ),
                        ),
                    ),
                ]),
            ),
        ),
    )));
    Formula::and(res)
}

/// The marker is 1, followed by n-1 zeros, then 1 again, and so on.
fn marker(n: usize, linear: bool) -> Formula {
    let m = Formula::ap("m");
    let nm = Formula::not(m.clone());
    let body = if !linear {
        // G(m -> X!m & XX!m & XXXm)   [n = 3]
        let mut v: Vec<Formula> = (1..n).map(|i| Formula::next_n(nm.clone(), i)).collect();
        v.push(Formula::next_n(m.clone(), n));
        Formula::and(v)
    } else {
        // G(m -> X(!m & X(!m & Xm)))  [n = 3]
        let mut p = m.clone();
        for _ in 1..n {
            p = and2(nm.clone(), Formula::next(p));
        }
        Formula::next(p)
    };
    and2(m.clone(), Formula::always(Formula::implies(m, body)))
}

/// All bits are initially zero.
fn bits_zero(n: usize, linear: bool) -> Formula {
    let nb = Formula::not(Formula::ap("b"));
    if !linear {
        Formula::and((0..n).map(|i| Formula::next_n(nb.clone(), i)))
    } else {
        let mut p = nb.clone();
        for _ in 1..n {
            p = and2(nb.clone(), Formula::next(p));
        }
        p
    }
}

/// Spot's `ltl_counter_carry` (Rozier's `cc` and `ccl`).
fn counter_carry(n: usize, linear: bool) -> Formula {
    let b = Formula::ap("b");
    let m = Formula::ap("m");
    let c = Formula::ap("c");
    let nb = Formula::not(b.clone());
    let nm = Formula::not(m.clone());
    let nc = Formula::not(c.clone());
    let x = Formula::next;
    let xn_b = Formula::next_n(b.clone(), n);
    let xn_nb = Formula::next_n(nb.clone(), n);
    let g = Formula::always;
    let imp = Formula::implies;
    let mut res = vec![marker(n, linear), bits_zero(n, linear)];
    // If m is 1 and b is 0 then c is 0 and n steps later b is 1.
    res.push(g(imp(
        and2(m.clone(), nb.clone()),
        and2(nc.clone(), xn_b.clone()),
    )));
    // If m is 1 and b is 1 then c is 1 and n steps later b is 0.
    res.push(g(imp(
        and2(m.clone(), b.clone()),
        and2(c.clone(), xn_nb.clone()),
    )));
    if !linear {
        // No carry: all the bits stay the same n steps later.
        res.push(g(imp(
            and2(nc.clone(), x(nm.clone())),
            and2(x(nc.clone()), Formula::equiv(x(b.clone()), x(xn_b.clone()))),
        )));
        // Carry: add one, flip the bits and adjust the carry.
        res.push(g(imp(
            c.clone(),
            and2(
                imp(x(nb.clone()), and2(x(nc.clone()), x(xn_b.clone()))),
                imp(x(b.clone()), and2(x(c.clone()), x(xn_nb.clone()))),
            ),
        )));
    } else {
        res.push(g(imp(
            and2(nc.clone(), x(nm)),
            x(and2(nc.clone(), Formula::equiv(b.clone(), xn_b.clone()))),
        )));
        res.push(g(imp(
            c.clone(),
            x(and2(imp(nb, and2(nc, xn_b)), imp(b, and2(c, xn_nb)))),
        )));
    }
    Formula::and(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_generate() {
        assert_eq!(generate("and-f", 2).unwrap().to_spot(), "Fp1 & Fp2");
        assert_eq!(generate("u-left", 3).unwrap().to_spot(), "(p1 U p2) U p3");
        assert_eq!(generate("r-right", 3).unwrap().to_spot(), "p1 R (p2 R p3)");
        assert_eq!(
            generate("gh-q", 2).unwrap().to_spot(),
            "(Fp1 | Gp2) & (Fp2 | Gp3)"
        );
        assert_eq!(
            generate("rv-counter-linear", 2).unwrap(),
            parse(
                "m & G(m -> X(!m & Xm)) & !b & X!b \
                 & G((m & !b) -> X(Xb & ((!m & (b <-> XXb)) U m))) \
                 & G((m & b) -> X(X!b & ((b & !m & XX!b) U (m | (!m & !b & X(Xb & ((!m & (b <-> XXb)) U m)))))))"
            )
            .unwrap()
        );
        assert!(generate("nope", 1).is_err());
        assert!(generate("dac-patterns", 56).is_err());
        assert!(generate("dac-patterns", 0).is_err());
        assert_eq!(data_lines(DWYER_PATTERNS).count(), 55);
        for (name, _) in FAMILIES {
            generate(name, 3).unwrap();
        }
    }
}
