//! Numbers in traces are compared exactly, as written, the same in every
//! reader (issue 36, item 6: comparisons went through `f64` when one side
//! was a float or beyond 64 bits, and CSV read `inf`, `NaN` and `1e400` as
//! numbers).
//!
//! The reference is exact rational arithmetic (`num-rational`), built by
//! hand from the text of each number; each comparison is checked through
//! the CSV, JSON Lines and VCD readers, both by the checker's shared-number
//! path (a field against a constant) and by the general evaluation.

use std::cmp::Ordering;

use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::reader::{CsvReader, JsonlReader, Reader, VcdReader};
use monitor_core::{MonitorTable, Verdict};
use num_bigint::BigInt;
use num_rational::BigRational;
use proptest::prelude::*;

/// Whether `binding` holds at the single event of `reader`, by the
/// checker (`G p`); the error text when the checker refuses the event.
fn holds(reader: &mut dyn Reader, binding: &str) -> Result<bool, String> {
    let table = MonitorTable::from_ltl("G p").map_err(|e| e.to_string())?;
    let p = Property::new(
        "G p",
        table,
        vec![Expr::parse(binding).map_err(|e| e.to_string())?],
    );
    let mut checker = Checker::new(vec![p], Options::default());
    let reports = checker.run(reader).map_err(|e| e.to_string())?;
    assert_eq!(reports[0].events, 1, "{binding}");
    Ok(reports[0].verdict != Verdict::Violated)
}

fn csv(cell: &str, binding: &str) -> Result<bool, String> {
    let log = format!("x\n{cell}\n");
    let mut r = CsvReader::new("t.csv", log.as_bytes()).map_err(|e| e.to_string())?;
    holds(&mut r, binding)
}

fn jsonl(number: &str, binding: &str) -> Result<bool, String> {
    let log = format!("{{\"x\": {number}}}\n");
    holds(&mut JsonlReader::new("t.jsonl", log.as_bytes()), binding)
}

/// A VCD whose one event holds `value` in a variable of `kind` (`real` or
/// `wire N`).
fn vcd(kind: &str, value: &str, binding: &str) -> Result<bool, String> {
    let dump = format!(
        "$timescale 1ns $end\n$scope module t $end\n$var {kind} ! x $end\n$upscope $end\n\
         $enddefinitions $end\n#0\n{value} !\n"
    );
    let mut r = VcdReader::new("t.vcd", dump.as_bytes(), None).map_err(|e| e.to_string())?;
    holds(&mut r, binding)
}

/// Both evaluation paths: the shared-number path and, behind `&& true`,
/// the general one; they must agree.
fn both(run: impl Fn(&str) -> Result<bool, String>, binding: &str) -> Result<bool, String> {
    let fast = run(binding);
    let general = run(&format!("({binding}) && true"));
    assert_eq!(
        fast.is_ok(),
        general.is_ok(),
        "{binding}: {fast:?} vs {general:?}"
    );
    if let (Ok(a), Ok(b)) = (&fast, &general) {
        assert_eq!(a, b, "{binding}: the two paths disagree");
    }
    fast
}

#[test]
fn a_float_constant_beyond_53_bits_is_not_rounded() {
    // Reported: 9007199254740993 > 9007199254740992.0 was false (both
    // sides went through f64, where they are equal).
    for run in [csv, jsonl] {
        let at = |b: &str| both(|b| run("9007199254740993", b), b);
        assert_eq!(at("x > 9007199254740992.0"), Ok(true));
        assert_eq!(at("x == 9007199254740992.0"), Ok(false));
        assert_eq!(at("9007199254740992.5 < x"), Ok(true));
        assert_eq!(at("x < 9007199254740993.000000001"), Ok(true));
    }
}

#[test]
fn json_and_csv_agree_beyond_64_bits() {
    // Reported: JSON 18446744073709551616 (beyond u64) was read as an f64.
    for binding in [
        "x == 18446744073709551616",
        "x == 18446744073709551617",
        "x > 18446744073709551615",
        "x < 18446744073709551617",
        "x >= 1.8446744073709551616e19",
        "x == 18446744073709551616.000000000000000000001",
    ] {
        let a = both(|b| csv("18446744073709551616", b), binding);
        let b = both(|b| jsonl("18446744073709551616", b), binding);
        assert_eq!(a, b, "{binding}");
    }
    assert_eq!(
        csv("18446744073709551616", "x == 18446744073709551617"),
        Ok(false)
    );
    assert_eq!(
        jsonl("18446744073709551616", "x == 18446744073709551617"),
        Ok(false)
    );
    // And far beyond 128 bits, in both.
    let big = format!("1{}", "0".repeat(60));
    for run in [csv, jsonl] {
        assert_eq!(both(|b| run(&big, b), &format!("x == {big}")), Ok(true));
        assert_eq!(both(|b| run(&big, b), &format!("x > {big}")), Ok(false));
        assert_eq!(both(|b| run(&big, b), "x > 1e59 && x < 1e61"), Ok(true));
        assert_eq!(both(|b| run(&big, b), "x == 1e60"), Ok(true));
    }
}

#[test]
fn csv_refuses_inf_and_nan_and_reads_1e400_exactly() {
    // Reported: `inf`, `NaN` and `1e400` were numbers (the last one as
    // infinity, equal to `1e401`).
    for cell in ["inf", "NaN", "-inf", "infinity", "+Infinity", "nan"] {
        let e = both(|b| csv(cell, b), "x > 1").unwrap_err();
        assert!(e.contains("is not a number"), "{cell}: {e}");
    }
    assert_eq!(both(|b| csv("1e400", b), "x < 1e401"), Ok(true));
    assert_eq!(both(|b| csv("1e400", b), "x == 1e401"), Ok(false));
    assert_eq!(both(|b| csv("1e400", b), "x == 10e399"), Ok(true));
    assert_eq!(both(|b| csv("-1e-400", b), "x < 0"), Ok(true));
    assert_eq!(both(|b| jsonl("1e400", b), "x < 1e401"), Ok(true));
    assert_eq!(both(|b| jsonl("1e400", b), "x > 1e399"), Ok(true));
}

#[test]
fn a_vcd_real_compares_by_its_binary_value() {
    // 0.1 is 0.1000000000000000055511151231257827... as a double.
    assert_eq!(both(|b| vcd("real 64", "r0.1", b), "x == 0.1"), Ok(false));
    assert_eq!(both(|b| vcd("real 64", "r0.1", b), "x > 0.1"), Ok(true));
    assert_eq!(
        both(
            |b| vcd("real 64", "r0.1", b),
            "x == 0.1000000000000000055511151231257827021181583404541015625"
        ),
        Ok(true)
    );
    assert_eq!(both(|b| vcd("real 64", "r0.5", b), "x == 0.5"), Ok(true));
    assert_eq!(
        both(
            |b| vcd("real 64", "r9007199254740992", b),
            "x < 9007199254740993"
        ),
        Ok(true)
    );
    // An infinite or NaN real cannot be compared.
    for v in ["r1e400", "rinf", "rNaN"] {
        let e = both(|b| vcd("real 64", v, b), "x > 1").unwrap_err();
        assert!(e.contains("finite"), "{v}: {e}");
    }
}

/// A vector against a negative integer is Verilog's comparison (the
/// integer is 32 signed bits, both are unsigned in the context's width),
/// as a checker simulated on the same waveform decides; written with a
/// point or an exponent the constant is a real and compares by value.
#[test]
fn vcd_vectors_against_negative_integers_are_verilog_comparisons() {
    let v = |kind: &str, bits: &str, binding: &str| both(|b| vcd(kind, bits, b), binding);
    assert_eq!(v("wire 1", "b0", "x < -1"), Ok(true));
    assert_eq!(v("wire 1", "b0", "x > -1"), Ok(false));
    assert_eq!(v("wire 8", "b11111111", "x == -1"), Ok(false));
    assert_eq!(
        v("wire 32", &format!("b{}", "1".repeat(32)), "x == -1"),
        Ok(true)
    );
    assert_eq!(
        v("wire 40", &format!("b{}", "1".repeat(40)), "x == -1"),
        Ok(true)
    );
    assert_eq!(v("wire 1", "b0", "x > -1.0"), Ok(true));
    assert_eq!(v("wire 1", "b0", "x > -1e0"), Ok(true));
    assert!(v("wire 200", "b0", "x > -1").is_err());
}

#[test]
fn wide_vcd_vectors_keep_every_bit() {
    // 2^130 + 1: the vector used to keep its low 127 bits.
    let bits = format!("b1{}1", "0".repeat(129));
    let wide = |b: &str| both(|b| vcd("wire 131", &bits, b), b);
    assert_eq!(
        wide("x == 1361129467683753853853498429727072845825"),
        Ok(true)
    );
    assert_eq!(
        wide("x > 1361129467683753853853498429727072845824"),
        Ok(true)
    );
    assert_eq!(wide("x > 2"), Ok(true));
    assert_eq!(wide("x < 1.4e39"), Ok(true));
    assert_eq!(wide("x > 1.3e39"), Ok(true));
}

// ---- the property test ----

/// A number: ±0.`digits` × 10^`order` (no leading zero in `digits`).
#[derive(Clone, Debug)]
struct Value {
    neg: bool,
    digits: String,
    order: i32,
}

impl Value {
    fn exact(&self) -> BigRational {
        let m: BigInt = if self.digits.is_empty() {
            0.into()
        } else {
            self.digits.parse().unwrap()
        };
        let e = self.order - self.digits.len() as i32;
        let ten = BigInt::from(10);
        let r = if e >= 0 {
            BigRational::from_integer(m * ten.pow(e as u32))
        } else {
            BigRational::new(m, ten.pow((-e) as u32))
        };
        if self.neg {
            -r
        } else {
            r
        }
    }
}

/// Writes a value in one of many forms: leading and trailing zeros, a
/// `+`, a point anywhere, an exponent (`e`/`E`, signed or not, with
/// leading zeros). `json`: only JSON's grammar.
fn write(v: &Value, style: u32, shift: i32, json: bool) -> String {
    let mut s = String::new();
    if v.neg {
        s.push('-');
    } else if !json && style & 1 == 1 {
        s.push('+');
    }
    let digits = if v.digits.is_empty() {
        "0".to_string()
    } else {
        v.digits.clone()
    };
    // The point goes after `point` digits of `digits` (padded with
    // zeros), and the exponent makes up the rest.
    let exponent = if style & 2 == 2 { shift } else { 0 };
    let point = v.order - exponent;
    let mut mant = String::new();
    if v.digits.is_empty() {
        mant.push('0');
    } else if point <= 0 {
        mant.push_str("0.");
        mant.push_str(&"0".repeat((-point) as usize));
        mant.push_str(&digits);
    } else if point as usize >= digits.len() {
        mant.push_str(&digits);
        mant.push_str(&"0".repeat(point as usize - digits.len()));
        if style & 4 == 4 {
            mant.push_str(".0");
        }
    } else {
        mant.push_str(&digits[..point as usize]);
        mant.push('.');
        mant.push_str(&digits[point as usize..]);
    }
    if style & 8 == 8 && mant.contains('.') {
        mant.push_str("000");
    }
    if !json && style & 16 == 16 {
        mant.insert_str(0, "00");
    }
    s.push_str(&mant);
    if exponent != 0 || style & 32 == 32 {
        s.push(if style & 64 == 64 { 'E' } else { 'e' });
        if exponent < 0 {
            s.push('-');
        } else if style & 128 == 128 {
            s.push('+');
        }
        if style & 256 == 256 {
            s.push('0');
        }
        s.push_str(&exponent.unsigned_abs().to_string());
    }
    s
}

fn value() -> impl Strategy<Value = Value> {
    (any::<bool>(), "[1-9][0-9]{0,45}", -60i32..60, 0u32..8).prop_map(|(neg, d, order, zero)| {
        if zero == 0 {
            // Zero, maybe negative.
            return Value {
                neg,
                digits: String::new(),
                order: 0,
            };
        }
        let digits = d.trim_end_matches('0').to_string();
        Value { neg, digits, order }
    })
}

/// A value near `v`: itself, one unit more or less in its last digit or
/// far beyond it, or with one more digit.
fn near(v: &Value, how: u32, extra: u32) -> Value {
    let mut w = v.clone();
    match how {
        0 => {}
        1 => {
            // One unit in a digit beyond the last: a little further from zero.
            w.digits.push_str(&"0".repeat(extra as usize % 5));
            w.digits.push('1');
        }
        2 => {
            // One digit fewer: a little nearer to zero.
            if w.digits.len() > 1 {
                w.digits.pop();
                w.digits = w.digits.trim_end_matches('0').to_string();
            } else {
                w.order -= 1;
            }
        }
        3 => w.order += 1,
        4 => w.neg = !w.neg,
        _ => {
            // The last digit one less (or one more).
            if let Some(last) = w.digits.pop() {
                let d = last.to_digit(10).unwrap();
                let d = if d > 1 { d - 1 } else { d + 1 };
                w.digits.push(char::from_digit(d, 10).unwrap());
                w.digits = w.digits.trim_end_matches('0').to_string();
            }
        }
    }
    if w.digits.is_empty() {
        w.neg = false;
        w.order = 0;
    }
    w
}

fn ordering_holds(o: Ordering, op: &str) -> bool {
    match op {
        "==" => o.is_eq(),
        "!=" => o.is_ne(),
        "<" => o.is_lt(),
        "<=" => o.is_le(),
        ">" => o.is_gt(),
        ">=" => o.is_ge(),
        _ => unreachable!(),
    }
}

const OPS: [&str; 6] = ["==", "!=", "<", "<=", ">", ">="];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// A field holding a number written in any form, against a constant
    /// written in any form: CSV and JSON Lines give the exact verdict.
    #[test]
    fn text_and_json_numbers_compare_exactly(
        v in value(),
        how in 0u32..6,
        extra in 0u32..10,
        styles in (0u32..512, 0u32..512),
        shifts in (-70i32..70, -70i32..70),
        op in 0usize..6,
        field_first in any::<bool>(),
    ) {
        let c = near(&v, how, extra);
        let (field, json_field) = (write(&v, styles.0, shifts.0, false), write(&v, styles.0, shifts.0, true));
        // The constant: the expression's grammar has no leading `+`.
        let constant = write(&c, styles.1 & !1, shifts.1, false);
        let op = OPS[op];
        let binding = if field_first { format!("x {op} {constant}") } else { format!("{constant} {op} x") };
        let o = v.exact().cmp(&c.exact());
        let want = ordering_holds(if field_first { o } else { o.reverse() }, op);
        prop_assert_eq!(both(|b| csv(&field, b), &binding), Ok(want), "CSV {} / {}", field, binding);
        prop_assert_eq!(both(|b| csv(&format!(" {field} "), b), &binding), Ok(want), "CSV ` {} ` / {}", field, binding);
        prop_assert_eq!(both(|b| jsonl(&json_field, b), &binding), Ok(want), "JSON {} / {}", json_field, binding);
        // Two fields compared with each other.
        let log = format!("x,y\n{field},{}\n", write(&c, styles.1, shifts.1, false));
        let mut r = CsvReader::new("t.csv", log.as_bytes()).unwrap();
        prop_assert_eq!(holds(&mut r, &format!("x {op} y")), Ok(ordering_holds(o, op)), "{}", log);
    }

    /// A VCD real (a double) against a constant: the exact value of the
    /// double decides, whatever the constant's digits.
    #[test]
    fn vcd_reals_compare_by_their_binary_value(
        v in value(),
        how in 0u32..6,
        extra in 0u32..10,
        style in 0u32..512,
        shift in -70i32..70,
        op in 0usize..6,
    ) {
        let f: f64 = write(&v, 0, 0, true).parse().unwrap();
        prop_assume!(f.is_finite());
        // The shortest text that reads back as `f` (the vcd crate takes
        // tokens of at most 32 bytes).
        let text = format!("{f:e}");
        // Half the time the constant is the double's own exact value or
        // near it, half the time near the decimal written.
        let exact = BigRational::from_float(f).unwrap();
        let c = near(&v, how, extra);
        let constant = write(&c, style & !1, shift, false);
        let op = OPS[op];
        let want = ordering_holds(exact.cmp(&c.exact()), op);
        prop_assert_eq!(both(|b| vcd("real 64", &format!("r{text}"), b), &format!("x {op} {constant}")), Ok(want), "r{} {} {}", text, op, constant);
        // The double's exact value, written out, is equal to it.
        let dec = exact_decimal(f);
        prop_assert_eq!(both(|b| vcd("real 64", &format!("r{text}"), b), &format!("x == {dec}")), Ok(true), "r{} == {}", text, dec);
    }

    /// A bit vector of up to 300 bits against a constant.
    #[test]
    fn vcd_vectors_compare_exactly(
        bits in "[01]{1,300}",
        c in value(),
        style in 0u32..512,
        shift in -70i32..70,
        op in 0usize..6,
        equal in any::<bool>(),
    ) {
        let n = BigInt::parse_bytes(bits.as_bytes(), 2).unwrap();
        let constant = if equal { n.to_string() } else { write(&c, style & !1, shift, false) };
        let reference = if equal { BigRational::from_integer(n.clone()) } else { c.exact() };
        let op = OPS[op];
        // A negative integer written as one (no point, no exponent) in
        // 32 signed bits is Verilog's: in the unsigned context of the
        // vector and the constant (max(width, 32) bits) it is
        // 2^width + c, so `b0 < -1` holds.
        let verilog = constant
            .parse::<i128>()
            .ok()
            .filter(|&i| i < 0 && i >= i128::from(i32::MIN));
        let reference = match verilog {
            Some(i) => {
                let width = bits.len().max(32);
                BigRational::from_integer((BigInt::from(1) << width) + BigInt::from(i))
            }
            None => reference,
        };
        let want = ordering_holds(BigRational::from_integer(n).cmp(&reference), op);
        let kind = format!("wire {}", bits.len());
        if verilog.is_some() && bits.len() > 128 {
            // Verilog's arithmetic is computed in at most 128 bits.
            let got = both(|b| vcd(&kind, &format!("b{bits}"), b), &format!("x {op} {constant}"));
            prop_assert!(got.is_err(), "b{} {} {}: {:?}", bits, op, constant, got);
            return Ok(());
        }
        prop_assert_eq!(both(|b| vcd(&kind, &format!("b{bits}"), b), &format!("x {op} {constant}")), Ok(want), "b{} {} {}", bits, op, constant);
    }
}

/// The exact decimal value of a finite double, by the reference's
/// arithmetic.
fn exact_decimal(f: f64) -> String {
    let r = BigRational::from_float(f).unwrap();
    let (neg, r) = if r < BigRational::from_integer(0.into()) {
        (true, -r)
    } else {
        (false, r)
    };
    // The denominator is a power of two, 2^k: the value is
    // numer × 5^k / 10^k.
    let k = r.denom().bits() - 1;
    let scaled = r.numer() * BigInt::from(5).pow(k as u32);
    let mut s = scaled.to_string();
    if k > 0 {
        while s.len() <= k as usize {
            s.insert(0, '0');
        }
        s.insert(s.len() - k as usize, '.');
    }
    if neg {
        s.insert(0, '-');
    }
    s
}

/// serde_json, keeping the digits of numbers, hands a number that is no
/// 64-bit integer to the reader as a map: a line that is such a number is
/// still no event.
#[test]
fn a_line_that_is_a_number_is_not_an_object() {
    for line in ["1.5", "-0", "1e400", "18446744073709551616", "7"] {
        let log = format!("{line}\n");
        let e = holds(&mut JsonlReader::new("t.jsonl", log.as_bytes()), "x > 0").unwrap_err();
        assert!(e.contains("expected a JSON object"), "{line}: {e}");
    }
    // Below an object, a number has no fields: `x.z` is missing (NULL).
    let log = "{\"x\": 1.5, \"y\": 2}\n";
    let at = |binding: &str| holds(&mut JsonlReader::new("t.jsonl", log.as_bytes()), binding);
    assert_eq!(at("x.z > 0"), Ok(false));
    assert_eq!(at("x.z == null && !has(x.z) && has(x)"), Ok(true));
    assert_eq!(
        holds(&mut JsonlReader::new("t.jsonl", log.as_bytes()), "x < y"),
        Ok(true)
    );
}
