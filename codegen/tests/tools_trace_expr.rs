//! Trace expressions on waveform vectors against Icarus Verilog: random
//! Verilog expressions over vectors of random widths (1 to 70 bits, some
//! read through `$signed`) and random values; each expression's truth as
//! the condition of an `if` (Verilog) must be what `Expr::eval` gives on
//! the same bits, exactly.
//!
//! Where Verilog's value is x (a division by zero), `eval` must fail; it
//! may also fail where an x would not reach the result (`(a / 0) & 0`),
//! which the test counts and bounds, and on values wider than 128 bits.

mod common;

use common::{run, scratch, text, tool};
use monitor_core::trace::expr::{Cell, Expr};

/// A small deterministic generator (xorshift64*), so that a failure
/// repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

struct Gen<'a> {
    rng: &'a mut Rng,
    widths: &'a [u32],
}

impl Gen<'_> {
    /// A leaf: a vector, a select, a literal, a small integer.
    fn leaf(&mut self) -> String {
        let k = self.rng.below(self.widths.len() as u64) as usize;
        let w = self.widths[k];
        match self.rng.below(9) {
            0..=2 => format!("v{k}"),
            3 => format!("$signed(v{k})"),
            4 => format!("v{k}[{}]", self.rng.below(u64::from(w))),
            5 => {
                let hi = self.rng.below(u64::from(w)) as u32;
                let lo = self.rng.below(u64::from(hi) + 1);
                format!("v{k}[{hi}:{lo}]")
            }
            6 => {
                let lw = 1 + self.rng.below(40) as u32;
                let v = self.rng.next() & ((1u64 << lw) - 1);
                if self.rng.below(3) == 0 {
                    format!("{lw}'sh{v:x}")
                } else {
                    format!("{lw}'d{v}")
                }
            }
            7 => format!("{}", self.rng.below(20)),
            _ => format!("-{}", self.rng.below(20)),
        }
    }

    /// An item of a concatenation (sized), narrow enough that a
    /// concatenation of two stays within 128 bits.
    fn item(&mut self) -> String {
        loop {
            let l = self.leaf();
            let sized = l.starts_with('v') || l.starts_with('$') || l.contains('\'');
            if sized {
                return l;
            }
        }
    }

    fn expr(&mut self, depth: u32) -> String {
        if depth == 0 || self.rng.below(4) == 0 {
            return self.leaf();
        }
        let d = depth - 1;
        match self.rng.below(12) {
            0 => {
                let op = self
                    .rng
                    .pick(&["-", "~", "&", "|", "^", "~&", "~|", "~^", "!"]);
                format!("{op}({})", self.expr(d))
            }
            1 => format!("{{{}, {}}}", self.item(), self.item()),
            2 => format!("{{2{{{}}}}}", self.item()),
            3 => format!("$signed({})", self.expr(d)),
            4 => format!("$unsigned({})", self.expr(d)),
            5 => {
                let op = self.rng.pick(&["<<", ">>", "<<<", ">>>"]);
                format!("({}) {op} {}", self.expr(d), self.rng.below(80))
            }
            6 => {
                let op = self
                    .rng
                    .pick(&["==", "!=", "<", "<=", ">", ">=", "===", "!=="]);
                format!("({}) {op} ({})", self.expr(d), self.expr(d))
            }
            7 => {
                let op = self.rng.pick(&["&&", "||"]);
                format!("({}) {op} ({})", self.expr(d), self.expr(d))
            }
            _ => {
                let op = self
                    .rng
                    .pick(&["+", "-", "*", "/", "%", "&", "|", "^", "~^", "+", "-"]);
                format!("({}) {op} ({})", self.expr(d), self.expr(d))
            }
        }
    }

    /// A proposition: mostly comparisons, some values as conditions.
    fn proposition(&mut self) -> String {
        match self.rng.below(4) {
            0 => format!("({}) != 0", self.expr(3)),
            // A value as a condition (not a constant alone, which the
            // parser refuses as a likely slip).
            1 => loop {
                let e = self.expr(3);
                if Expr::parse(&e).is_ok() {
                    break e;
                }
            },
            _ => {
                let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                format!("{} {op} {}", self.expr(3), self.expr(3))
            }
        }
    }
}

fn random_bits(rng: &mut Rng, w: u32) -> String {
    // Often extreme values: zeros, ones, one bit.
    (0..w)
        .map(|i| match rng.below(8) {
            0 => '0',
            1 => '1',
            _ => {
                if (rng.next() >> (i % 7)) & 1 == 1 {
                    '1'
                } else {
                    '0'
                }
            }
        })
        .collect()
}

#[test]
fn trace_expressions_mean_what_icarus_verilog_computes() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let dir = scratch("trace-expr-iverilog");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let widths: Vec<u32> = (0..5).map(|_| 1 + rng.below(70) as u32).collect();
    let mut props = Vec::new();
    while props.len() < 400 {
        let p = Gen {
            rng: &mut rng,
            widths: &widths,
        }
        .proposition();
        // Only what the parser reads: the generator writes no syntax error.
        Expr::parse(&p).unwrap_or_else(|e| panic!("{e}"));
        props.push(p);
    }
    let values: Vec<Vec<String>> = (0..6)
        .map(|_| widths.iter().map(|&w| random_bits(&mut rng, w)).collect())
        .collect();
    let mut v = String::from("module t;\n");
    for (k, w) in widths.iter().enumerate() {
        v += &format!("  reg [{}:0] v{k};\n", w - 1);
    }
    v += "  initial begin\n";
    for (a, vals) in values.iter().enumerate() {
        for (k, bits) in vals.iter().enumerate() {
            v += &format!("    v{k} = {}'b{bits};\n", bits.len());
        }
        for (i, p) in props.iter().enumerate() {
            v += &format!("    $display(\"{a} {i} %b\", ({p}) ? 1'b1 : 1'b0);\n");
        }
    }
    v += "  end\nendmodule\n";
    std::fs::write(dir.join("t.v"), &v).unwrap();
    let o = run(&dir, &iverilog, &["-g2012", "-o", "t.vvp", "t.v"]);
    assert!(o.status.success(), "iverilog:\n{}", text(&o));
    let o = run(&dir, &vvp, &["-n", "t.vvp"]);
    assert!(o.status.success(), "vvp:\n{}", text(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let names: Vec<String> = (0..widths.len()).map(|k| format!("v{k}")).collect();
    let (mut compared, mut refused) = (0, 0);
    let mut why = [0; 3];
    let mut lines = out.lines().filter(|l| !l.trim().is_empty());
    for (a, vals) in values.iter().enumerate() {
        for (i, p) in props.iter().enumerate() {
            let line = lines.next().expect("a line per proposition");
            let want = format!("{a} {i} ");
            let bit = line
                .strip_prefix(&want)
                .unwrap_or_else(|| panic!("{line:?} is not line {want:?}"));
            let mut e = Expr::parse(p).unwrap();
            e.resolve(&mut |n: &str| names.iter().position(|m| m == n).ok_or(()))
                .unwrap();
            let got = e.eval(&|id| vals.get(id).map(|b| Cell::Bits(b.as_bytes())));
            let context = || {
                let vs: Vec<String> = vals
                    .iter()
                    .enumerate()
                    .map(|(k, b)| format!("v{k} = {}'b{b}", b.len()))
                    .collect();
                format!("`{p}` at {}", vs.join(", "))
            };
            match (bit, &got) {
                ("1", Ok(true)) | ("0", Ok(false)) => compared += 1,
                (_, Err(e)) if e.0.contains("division by zero") => {
                    refused += 1;
                    why[0] += 1;
                }
                // A vector alone where a Boolean is read (`v & w` of
                // vectors at the top): the checker asks for a comparison.
                (_, Err(e)) if e.0.contains("not a Boolean") => {
                    refused += 1;
                    why[1] += 1;
                }
                // Wider than the 128 bits computed.
                (_, Err(e)) if e.0.contains("at most 128 bits") => {
                    refused += 1;
                    why[2] += 1;
                }
                _ => panic!("{}: Icarus Verilog says {bit}, eval {got:?}", context()),
            }
        }
    }
    assert!(lines.next().is_none(), "more output than propositions");
    eprintln!(
        "{compared} compared with Icarus Verilog, {refused} refused ({} divisions by \
         zero, {} vectors read as Booleans, {} wider than 128 bits)",
        why[0], why[1], why[2]
    );
    assert!(compared > 2000, "{compared} compared, {refused} refused");
    assert!(
        refused * 5 < compared,
        "{compared} compared, {refused} refused"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
