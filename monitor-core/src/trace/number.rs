//! Numbers compared exactly: the values of fields (decimal text, JSON
//! numbers, bit vectors, floating-point cells) against each other and
//! against the constants of expressions.
//!
//! Nothing goes through `f64` on the way: `9007199254740993 >
//! 9007199254740992.0` holds, `18446744073709551616` is the same number in
//! a CSV field and in JSON, and `1e400` is ten times `1e399`. A
//! floating-point cell (a VCD `real`, a float column) is the exact value
//! of its binary double: `0.1` read as a double is
//! `0.1000000000000000055511151231257827...`, greater than the decimal
//! `0.1`. What has no exact value is refused where it is read: `inf` and
//! `NaN` (as text or as a double), and exponents beyond ±10^15.
//!
//! Most values are integers of `i128` and are compared as such; the others
//! are compared digit by digit (decimals, in the place they are written),
//! after the magnitudes have been compared where they differ, so that no
//! comparison costs more than the digits written (a double has at most
//! 767 significant decimal digits).

use std::cmp::Ordering;

use super::expr::ValueError;

/// A number, borrowed from where it was read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num<'a> {
    /// An integer that fits (most values).
    Int(i128),
    /// The exact value of a finite double.
    Float(f64),
    /// A decimal number as written, checked by [`parse_decimal`] (its
    /// text, and its digits read once); never an integer that fits `i128`.
    Dec(&'a str, DecView<'a>),
    /// An unsigned bit vector (only `0` and `1`, most significant first,
    /// no leading zero) of more than 127 bits: at least 2^127.
    Bits(&'a [u8]),
}

/// The largest exponent taken (`1e1000000000000000` is refused): beyond
/// it the place of a number's first digit would not fit the arithmetic.
const EXPONENT_LIMIT: i64 = 1_000_000_000_000_000;

/// Reads a decimal number: an optional sign, digits with an optional
/// point (`12`, `-0.5`, `+.5`, `5.`, `007`) and an optional exponent
/// (`1e-3`, `2.5E+06`). `Ok(None)`: not a number; an error: a number
/// whose exponent is out of range.
pub(crate) fn parse_decimal(text: &str) -> Result<Option<Num<'_>>, ValueError> {
    let Some(d) = scan(text)? else {
        return Ok(None);
    };
    Ok(Some(match d.to_i128() {
        Some(i) => Num::Int(i),
        None => Num::Dec(text, d),
    }))
}

/// A decimal read once, kept as places in its text (for numbers that own
/// their text, the constants of expressions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scanned {
    neg: bool,
    a: (usize, usize),
    b: (usize, usize),
    order: i64,
}

impl Scanned {
    /// Reads `text`, a number checked by [`parse_decimal`].
    pub(crate) fn of(text: &str) -> Scanned {
        let d = scan(text).ok().flatten().expect("a number checked before");
        let at = |x: &[u8]| {
            let start = if x.is_empty() {
                0
            } else {
                x.as_ptr() as usize - text.as_ptr() as usize
            };
            (start, start + x.len())
        };
        Scanned {
            neg: d.neg,
            a: at(d.a),
            b: at(d.b),
            order: d.order,
        }
    }

    /// The number, `text` being the one it was read from.
    pub(crate) fn num<'t>(&self, text: &'t str) -> Num<'t> {
        let t = text.as_bytes();
        Num::Dec(
            text,
            DecView {
                neg: self.neg,
                a: &t[self.a.0..self.a.1],
                b: &t[self.b.0..self.b.1],
                order: self.order,
            },
        )
    }
}

/// A number as significant digits and the place of the first one:
/// `±0.D × 10^order`, `D` being `a` followed by `b`, with no leading or
/// trailing zero; zero has no digits (and no sign).
#[derive(Clone, Copy, Debug)]
pub(crate) struct DecView<'a> {
    neg: bool,
    a: &'a [u8],
    b: &'a [u8],
    order: i64,
}

fn scan(text: &str) -> Result<Option<DecView<'_>>, ValueError> {
    let s = text.as_bytes();
    let mut i = 0;
    let neg = match s.first() {
        Some(b'-') => {
            i = 1;
            true
        }
        Some(b'+') => {
            i = 1;
            false
        }
        _ => false,
    };
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < s.len() && s[*i].is_ascii_digit() {
            *i += 1;
        }
        &s[start..*i]
    };
    let int = digits(&mut i);
    let mut frac: &[u8] = &[];
    if s.get(i) == Some(&b'.') {
        i += 1;
        frac = digits(&mut i);
    }
    if int.is_empty() && frac.is_empty() {
        return Ok(None);
    }
    let mut exp: i64 = 0;
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        let eneg = match s.get(i) {
            Some(b'-') => {
                i += 1;
                true
            }
            Some(b'+') => {
                i += 1;
                false
            }
            _ => false,
        };
        let e = digits(&mut i);
        if e.is_empty() {
            return Ok(None);
        }
        for &d in e {
            exp = exp * 10 + i64::from(d - b'0');
            if exp > EXPONENT_LIMIT {
                // Not a number if what follows is not digits either.
                if s[i..].iter().all(u8::is_ascii_digit) {
                    return Err(ValueError(format!(
                        "{text:?} has an exponent beyond ±10^15: it cannot be compared"
                    )));
                }
                return Ok(None);
            }
        }
        if eneg {
            exp = -exp;
        }
    }
    if i != s.len() {
        return Ok(None);
    }
    // The digits, without leading zeros (each moves the first digit one
    // place down) and trailing zeros.
    let lead_int = int.iter().take_while(|&&d| d == b'0').count();
    let (a, b, order) = if lead_int < int.len() {
        (&int[lead_int..], frac, (int.len() - lead_int) as i64 + exp)
    } else {
        let lead = frac.iter().take_while(|&&d| d == b'0').count();
        (&frac[lead..], &[][..], exp - lead as i64)
    };
    let (a, b) = trim_trailing(a, b);
    if a.is_empty() {
        return Ok(Some(DecView {
            neg: false,
            a,
            b,
            order: 0,
        }));
    }
    Ok(Some(DecView { neg, a, b, order }))
}

fn trim_trailing<'a>(a: &'a [u8], b: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let b_len = b.len() - b.iter().rev().take_while(|&&d| d == b'0').count();
    if b_len > 0 {
        return (a, &b[..b_len]);
    }
    let a_len = a.len() - a.iter().rev().take_while(|&&d| d == b'0').count();
    (&a[..a_len], &[])
}

/// Equal views are equal numbers (the digits compared, not where they
/// are).
impl PartialEq for DecView<'_> {
    fn eq(&self, other: &DecView<'_>) -> bool {
        self.cmp(other).is_eq()
    }
}

impl DecView<'_> {
    fn is_zero(&self) -> bool {
        self.a.is_empty()
    }

    fn digits(&self) -> impl Iterator<Item = u8> + '_ {
        self.a.iter().chain(self.b).copied()
    }

    /// The value, when it is an integer that fits.
    fn to_i128(self) -> Option<i128> {
        if self.is_zero() {
            return Some(0);
        }
        let n = (self.a.len() + self.b.len()) as i64;
        if self.order < n || self.order > 39 {
            return None;
        }
        let mut v: u128 = 0;
        for d in self.digits() {
            v = v.checked_mul(10)?.checked_add(u128::from(d - b'0'))?;
        }
        for _ in n..self.order {
            v = v.checked_mul(10)?;
        }
        if self.neg {
            // Down to -2^127, whose magnitude is no i128.
            (v <= i128::MIN.unsigned_abs()).then(|| (v as i128).wrapping_neg())
        } else {
            i128::try_from(v).ok()
        }
    }

    /// Compares magnitudes.
    fn cmp_abs(&self, other: &DecView<'_>) -> Ordering {
        match (self.is_zero(), other.is_zero()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        self.order.cmp(&other.order).then_with(|| {
            // Without trailing zeros, a digit string that is a prefix of
            // the other is the smaller number.
            let mut x = self.digits();
            let mut y = other.digits();
            loop {
                match (x.next(), y.next()) {
                    (Some(p), Some(q)) if p == q => continue,
                    (Some(p), Some(q)) => return p.cmp(&q),
                    (None, None) => return Ordering::Equal,
                    (None, Some(_)) => return Ordering::Less,
                    (Some(_), None) => return Ordering::Greater,
                }
            }
        })
    }

    fn cmp(&self, other: &DecView<'_>) -> Ordering {
        let sign = |d: &DecView<'_>| match (d.is_zero(), d.neg) {
            (true, _) => 0,
            (false, true) => -1,
            (false, false) => 1,
        };
        match sign(self).cmp(&sign(other)) {
            Ordering::Equal if self.neg => other.cmp_abs(self),
            Ordering::Equal => self.cmp_abs(other),
            o => o,
        }
    }
}

/// The digits of a magnitude, written into `buf`.
fn digits_of(mut v: u128, buf: &mut [u8; 40]) -> &[u8] {
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    &buf[i..]
}

/// `±digits × 10^exp` (digits without leading zeros) as a view.
fn view(neg: bool, digits: &[u8], exp: i64) -> DecView<'_> {
    let (a, _) = trim_trailing(digits, &[]);
    DecView {
        neg: neg && !a.is_empty(),
        a,
        b: &[],
        order: if a.is_empty() {
            0
        } else {
            digits.len() as i64 + exp
        },
    }
}

/// Little-endian base-2^32 magnitudes, as much arithmetic as the exact
/// values of doubles and wide vectors need.
mod big {
    pub(super) fn mul_small(v: &mut Vec<u32>, k: u32) {
        let mut carry = 0u64;
        for limb in v.iter_mut() {
            let x = u64::from(*limb) * u64::from(k) + carry;
            *limb = x as u32;
            carry = x >> 32;
        }
        if carry > 0 {
            v.push(carry as u32);
        }
    }

    /// `v << k`.
    pub(super) fn shl(v: &mut Vec<u32>, k: u32) {
        let (words, bits) = ((k / 32) as usize, k % 32);
        if bits > 0 {
            mul_small(v, 1 << bits);
        }
        v.splice(0..0, std::iter::repeat_n(0, words));
    }

    /// The decimal digits (at least one).
    pub(super) fn to_decimal(mut v: Vec<u32>) -> Vec<u8> {
        const CHUNK: u64 = 1_000_000_000;
        let mut chunks = Vec::new();
        while v.iter().any(|&l| l != 0) {
            let mut rem = 0u64;
            for limb in v.iter_mut().rev() {
                let x = (rem << 32) | u64::from(*limb);
                *limb = (x / CHUNK) as u32;
                rem = x % CHUNK;
            }
            while v.last() == Some(&0) {
                v.pop();
            }
            chunks.push(rem as u32);
        }
        let mut out = Vec::with_capacity(chunks.len() * 9);
        for (k, c) in chunks.iter().rev().enumerate() {
            let s = c.to_string();
            if k > 0 {
                out.extend(std::iter::repeat_n(b'0', 9 - s.len()));
            }
            out.extend_from_slice(s.as_bytes());
        }
        if out.is_empty() {
            out.push(b'0');
        }
        out
    }

    /// The magnitude of a bit string (`0`/`1`, most significant first).
    pub(super) fn from_bits(bits: &[u8]) -> Vec<u32> {
        let mut v = vec![0u32; bits.len().div_ceil(32)];
        for (k, &b) in bits.iter().rev().enumerate() {
            if b == b'1' {
                v[k / 32] |= 1 << (k % 32);
            }
        }
        v
    }
}

/// A finite double as `mantissa × 2^exp`, the mantissa odd (or zero).
fn decompose(f: f64) -> (bool, u64, i64) {
    let bits = f.to_bits();
    let neg = bits >> 63 == 1;
    let e = ((bits >> 52) & 0x7ff) as i64;
    let frac = bits & ((1 << 52) - 1);
    let (mut m, mut e) = if e == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), e - 1075)
    };
    if m == 0 {
        return (false, 0, 0);
    }
    let z = m.trailing_zeros();
    m >>= z;
    e += i64::from(z);
    (neg, m, e)
}

/// The exact decimal digits of a finite double, and the exponent of the
/// last one.
fn float_digits(f: f64) -> (bool, Vec<u8>, i64) {
    let (neg, m, e) = decompose(f);
    let mut v = vec![m as u32, (m >> 32) as u32];
    if e >= 0 {
        big::shl(&mut v, e as u32);
        (neg, big::to_decimal(v), 0)
    } else {
        // m × 2^e = m × 5^-e / 10^-e.
        for _ in 0..-e {
            big::mul_small(&mut v, 5);
        }
        (neg, big::to_decimal(v), e)
    }
}

/// The bits of a double at least 2^127 (an integer), for comparing with
/// wide vectors.
fn float_bits(f: f64) -> Vec<u8> {
    let (_, m, e) = decompose(f);
    let mut out: Vec<u8> = format!("{m:b}").into_bytes();
    out.extend(std::iter::repeat_n(b'0', e.max(0) as usize));
    out
}

fn cmp_bits(a: &[u8], b: &[u8]) -> Ordering {
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
}

/// A double against an integer, exactly.
fn cmp_float_int(f: f64, i: i128) -> Ordering {
    const TWO_127: f64 = 170_141_183_460_469_231_731_687_303_715_884_105_728.0;
    if f >= TWO_127 {
        return Ordering::Greater;
    }
    if f < -TWO_127 {
        return Ordering::Less;
    }
    // In range: the floor is exact, and so is the comparison with it.
    let t = f.floor();
    let ti = t as i128;
    if t == f {
        ti.cmp(&i)
    } else if i <= ti {
        // ti < f < ti + 1.
        Ordering::Greater
    } else {
        Ordering::Less
    }
}

impl Num<'_> {
    /// Whether it is zero (for the bits of a selection).
    pub(crate) fn is_zero(self) -> bool {
        match self {
            Num::Int(i) => i == 0,
            Num::Float(f) => f == 0.0,
            Num::Dec(..) | Num::Bits(_) => false,
        }
    }

    /// The integer, when it is one that fits.
    pub(crate) fn as_i128(self) -> Option<i128> {
        match self {
            Num::Int(i) => Some(i),
            _ => None,
        }
    }

    /// A double, when it is finite.
    pub(crate) fn float(f: f64) -> Result<Num<'static>, ValueError> {
        if f.is_nan() {
            return Err(ValueError(
                "NaN is not a finite number: it cannot be compared".into(),
            ));
        }
        if f.is_infinite() {
            return Err(ValueError(format!(
                "{f} is not a finite number: it cannot be compared"
            )));
        }
        Ok(Num::Float(f))
    }

    /// A bit vector (`0`/`1` only).
    pub(crate) fn bits(bits: &[u8]) -> Num<'_> {
        let lead = bits.iter().take_while(|&&b| b == b'0').count();
        let bits = &bits[lead..];
        if bits.len() <= 127 {
            Num::Int(
                bits.iter()
                    .fold(0, |v, &b| (v << 1) | i128::from(b == b'1')),
            )
        } else {
            Num::Bits(bits)
        }
    }

    /// The number in decimal, as a textual comparison reads it.
    pub(crate) fn to_text(self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => f.to_string(),
            Num::Dec(t, _) => t.to_string(),
            Num::Bits(b) => {
                String::from_utf8_lossy(&big::to_decimal(big::from_bits(b))).into_owned()
            }
        }
    }

    /// Compares two numbers exactly.
    pub(crate) fn compare(self, other: Num<'_>) -> Ordering {
        use Num::*;
        match (self, other) {
            (Int(a), Int(b)) => a.cmp(&b),
            (Float(a), Float(b)) => a.partial_cmp(&b).expect("finite"),
            (Float(f), Int(i)) => cmp_float_int(f, i),
            (Int(i), Float(f)) => cmp_float_int(f, i).reverse(),
            (Bits(a), Bits(b)) => cmp_bits(a, b),
            (Bits(_), Int(_)) => Ordering::Greater,
            (Int(_), Bits(_)) => Ordering::Less,
            (Bits(b), Float(f)) => float_vs_bits(f, b).reverse(),
            (Float(f), Bits(b)) => float_vs_bits(f, b),
            (Float(f), other) => float_vs_decimal(f, other),
            (this, Float(f)) => float_vs_decimal(f, this).reverse(),
            (Bits(b), other) => bits_vs_decimal(b, other),
            (this, Bits(b)) => bits_vs_decimal(b, this).reverse(),
            (a, b) => with_view(a, |x| with_view(b, |y| x.cmp(&y))),
        }
    }
}

/// Calls `f` with the decimal view of a number that is no double and no
/// wide vector.
fn with_view<T>(n: Num<'_>, f: impl FnOnce(DecView<'_>) -> T) -> T {
    let mut buf = [0; 40];
    match n {
        Num::Int(i) => f(view(i < 0, digits_of(i.unsigned_abs(), &mut buf), 0)),
        Num::Dec(_, d) => f(d),
        Num::Float(_) | Num::Bits(_) => unreachable!("doubles and vectors are compared apart"),
    }
}

fn float_vs_bits(f: f64, b: &[u8]) -> Ordering {
    // A vector is at least 2^127; a double that large is an integer.
    if f < 170_141_183_460_469_231_731_687_303_715_884_105_728.0 {
        Ordering::Less
    } else {
        cmp_bits(&float_bits(f), b)
    }
}

fn float_vs_decimal(f: f64, d: Num<'_>) -> Ordering {
    // The double nearest the decimal, `r`, settles every double but `r`
    // itself: a double below `r` is at most the one before it, which is
    // below the decimal (the decimal rounds to `r`), and the same above.
    let r = match d {
        Num::Dec(t, _) => t.parse::<f64>().ok(),
        _ => None,
    };
    if let Some(r) = r {
        if f < r {
            return Ordering::Less;
        }
        if f > r {
            return Ordering::Greater;
        }
    }
    let (neg, digits, exp) = float_digits(f);
    with_view(d, |y| view(neg, &digits, exp).cmp(&y))
}

fn bits_vs_decimal(b: &[u8], d: Num<'_>) -> Ordering {
    with_view(d, |y| {
        if y.neg || y.is_zero() {
            return Ordering::Greater;
        }
        // 2^(len-1) <= b < 2^len and 10^(order-1) <= y < 10^order: the
        // magnitudes decide unless they overlap (then the decimal has
        // about as many digits as the vector has bits / log2(10), which
        // bounds the conversion).
        let len = b.len() as f64;
        let lg = std::f64::consts::LOG10_2;
        let order = y.order as f64;
        if (len - 1.0) * lg >= order + 0.01 {
            return Ordering::Greater;
        }
        if len * lg <= order - 1.01 {
            return Ordering::Less;
        }
        let digits = big::to_decimal(big::from_bits(b));
        view(false, &digits, 0).cmp(&y)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(t: &str) -> Num<'_> {
        parse_decimal(t).unwrap().unwrap()
    }

    #[test]
    fn decimals_are_read_in_every_form() {
        for (t, i) in [
            ("0", 0),
            ("-0", 0),
            ("+0.000", 0),
            ("007", 7),
            ("1e3", 1000),
            ("12.50e1", 125),
            ("-5.", -5),
            ("+.5e1", 5),
            ("170141183460469231731687303715884105727", i128::MAX),
            ("-170141183460469231731687303715884105728", i128::MIN),
            ("0.0e99999", 0),
        ] {
            assert_eq!(num(t), Num::Int(i), "{t}");
        }
        for t in [
            "0.5",
            "1e-3",
            "170141183460469231731687303715884105728",
            "1e400",
        ] {
            assert!(matches!(num(t), Num::Dec(u, _) if u == t), "{t}");
        }
        for t in [
            "", "-", ".", "e5", "1e", "1e+", "inf", "NaN", "1_000", "0x10", "1.2.3", "--1", "1 ",
        ] {
            assert_eq!(parse_decimal(t), Ok(None), "{t}");
        }
        assert!(parse_decimal("1e10000000000000000").is_err());
    }

    #[test]
    fn doubles_have_their_exact_digits() {
        let (neg, d, e) = float_digits(0.1);
        assert!(!neg);
        assert_eq!(
            (String::from_utf8(d).unwrap(), e),
            (
                "1000000000000000055511151231257827021181583404541015625".into(),
                -55
            )
        );
        assert_eq!(float_digits(-2.0), (true, b"2".to_vec(), 0));
        assert_eq!(float_digits(1e300).1.len(), 301);
        let (_, d, e) = float_digits(f64::from_bits(1));
        assert_eq!((d.len(), e), (751, -1074));
    }

    #[test]
    fn mixed_comparisons() {
        let cases: &[(Num<'_>, Num<'_>, Ordering)] = &[
            (
                num("9007199254740993"),
                num("9007199254740992.0"),
                Ordering::Greater,
            ),
            (Num::Float(0.1), num("0.1"), Ordering::Greater),
            (Num::Float(0.5), num("0.50"), Ordering::Equal),
            (Num::Float(-0.0), num("0"), Ordering::Equal),
            (Num::Float(1e300), num("1e400"), Ordering::Less),
            (Num::Float(5e-324), num("1e-400"), Ordering::Greater),
            (Num::Float(2.5), Num::Int(2), Ordering::Greater),
            (Num::Float(-2.5), Num::Int(-2), Ordering::Less),
            (Num::Float(-2.5), Num::Int(-3), Ordering::Greater),
            (Num::Float(1e38), Num::Int(i128::MAX), Ordering::Less),
            (
                Num::Float(1.7014118346046923e38),
                Num::Int(i128::MAX),
                Ordering::Greater,
            ),
            (
                Num::Float(-1.7014118346046923e38),
                Num::Int(i128::MIN),
                Ordering::Equal,
            ),
            (num("1e400"), num("10e399"), Ordering::Equal),
            (num("-1e400"), num("-2e399"), Ordering::Less),
        ];
        for (a, b, o) in cases {
            assert_eq!(a.compare(*b), *o, "{a:?} vs {b:?}");
            assert_eq!(b.compare(*a), o.reverse(), "{b:?} vs {a:?}");
        }
        let wide = [b"1".as_slice(), &[b'0'; 130]].concat();
        let w = Num::bits(&wide); // 2^130
        assert!(matches!(w, Num::Bits(_)));
        assert_eq!(
            w.compare(num("1361129467683753853853498429727072845824")),
            Ordering::Equal
        );
        assert_eq!(w.compare(num("1.4e39")), Ordering::Less);
        assert_eq!(w.compare(num("1e10000")), Ordering::Less);
        assert_eq!(w.compare(num("-1e10000")), Ordering::Greater);
        assert_eq!(w.compare(Num::Float(2f64.powi(130))), Ordering::Equal);
        assert_eq!(w.compare(Num::Float(2f64.powi(131))), Ordering::Less);
        assert_eq!(w.compare(Num::Int(i128::MAX)), Ordering::Greater);
        assert_eq!(Num::bits(b"000101"), Num::Int(5));
    }
}
