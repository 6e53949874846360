//! Propositions over design signals, checked by the real tools.
//!
//! * Random propositions over random inputs (ranges `[w-1:0]`, `[w:1]`,
//!   `[0:w-1]`, signed, scalars) are normalized by `check_expression`;
//!   `verilator --lint-only -Wall` has nothing to say about a module that
//!   computes all of them.
//! * Icarus Verilog evaluates each original proposition (as the condition
//!   of a `?:`, which is what "holds" means) and its normalized text on
//!   random and extreme input values, in one simulation: they agree on
//!   every sample. (With `-gstrict-expr-width`: by default Icarus widens
//!   expressions with unsized numbers beyond what IEEE 1364 says, and
//!   Verilator does not.)
//! * `module_signals` reads realistic modules as Verilator does: the same
//!   signals, directions, ranges and signedness as `verilator --xml-only`
//!   reports, with and without parameter overrides.

mod common;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use common::{run, scratch, text, tool};
use mongen::hdl::{check_expression, module_signals, Direction, HdlInput};
use monitor_core::formula::random::SplitMix64;

// ---------------------------------------------------------------------------
// Random propositions
// ---------------------------------------------------------------------------

/// A generated expression: its text, the same for Icarus (which has no
/// `inside`), and its explicit width and signedness if it is a leaf.
#[derive(Clone, Debug)]
struct E {
    o: String,
    r: String,
    w: Option<u32>,
    s: bool,
}

impl E {
    fn same(t: String, w: Option<u32>, s: bool) -> E {
        E {
            o: t.clone(),
            r: t,
            w,
            s,
        }
    }
}

struct Gen<'a> {
    rng: SplitMix64,
    inputs: &'a [HdlInput],
}

fn random_inputs(rng: &mut SplitMix64, n: usize) -> Vec<HdlInput> {
    (0..n)
        .map(|k| {
            let name = format!("{}{k}", ["a", "sig", "cnt", "d", "st"][k % 5]);
            if rng.chance(1, 7) {
                let mut i = HdlInput::scalar(name);
                i.signed = rng.chance(1, 5);
                return i;
            }
            let w = match rng.below(10) {
                0 => 1 + rng.below(40) as i64,
                1 => 1,
                _ => 2 + rng.below(11) as i64,
            };
            let i = match rng.below(6) {
                0 => HdlInput::vector(name, w, 1),
                1 => HdlInput::vector(name, 0, w - 1),
                2 => HdlInput::vector(name, w + 2, 3),
                3 => HdlInput::vector(name, 1, w),
                _ => HdlInput::vector(name, w - 1, 0),
            };
            if rng.chance(1, 3) {
                i.signed()
            } else {
                i
            }
        })
        .collect()
}

impl Gen<'_> {
    fn pick(&mut self, n: usize) -> usize {
        self.rng.below(n as u64) as usize
    }

    fn chance(&mut self, num: u64, den: u64) -> bool {
        self.rng.chance(num, den)
    }

    fn paren(&mut self, e: E) -> E {
        if self.chance(1, 2) {
            E {
                o: format!("({})", e.o),
                r: format!("({})", e.r),
                ..e
            }
        } else {
            e
        }
    }

    fn leaf(&mut self) -> E {
        let i = self.inputs[self.pick(self.inputs.len())].clone();
        if i.scalar || self.chance(1, 2) {
            return E::same(i.name.clone(), Some(i.width() as u32), i.signed);
        }
        let (lo, hi) = (i.msb.min(i.lsb), i.msb.max(i.lsb));
        let descending = i.msb >= i.lsb;
        let span = |g: &mut Self, lo: i64, hi: i64| lo + g.rng.below((hi - lo + 1) as u64) as i64;
        let t = match self.pick(4) {
            0 => {
                let b = span(self, lo, hi);
                return E::same(format!("{}[{b}]", i.name), Some(1), false);
            }
            1 => {
                let (a, b) = (span(self, lo, hi), span(self, lo, hi));
                let (l, r) = if descending {
                    (a.max(b), a.min(b))
                } else {
                    (a.min(b), a.max(b))
                };
                return E::same(
                    format!("{}[{l}:{r}]", i.name),
                    Some(l.abs_diff(r) as u32 + 1),
                    false,
                );
            }
            2 => {
                let base = span(self, lo, hi);
                let w = span(self, 1, hi - base + 1);
                (format!("{}[{base} +: {w}]", i.name), w)
            }
            _ => {
                let base = span(self, lo, hi);
                let w = span(self, 1, base - lo + 1);
                (format!("{}[{base} -: {w}]", i.name), w)
            }
        };
        E::same(t.0, Some(t.1 as u32), false)
    }

    /// A number for an operand of width `w`: sized (to `w`) or not.
    fn number(&mut self, w: u32, signed: bool, sized: bool) -> E {
        let w = w.clamp(1, 64);
        let bits = self.rng.next_u64() & if w == 64 { u64::MAX } else { (1u64 << w) - 1 };
        let bits = match self.pick(6) {
            0 => 0,
            1 => {
                if w == 64 {
                    u64::MAX
                } else {
                    (1 << w) - 1
                }
            }
            2 => 1,
            _ => bits,
        };
        if sized {
            let negative = signed && (bits >> (w - 1)) & 1 == 1;
            let s = if signed { "s" } else { "" };
            let t = match self.pick(3) {
                0 if !negative => format!("{w}'{s}d{bits}"),
                1 => format!("{w}'{s}b{bits:b}"),
                _ => format!("{w}'{s}h{bits:x}"),
            };
            return E::same(t, Some(w), signed);
        }
        // Unsized: a value that fits, as a decimal (possibly negated).
        let max = if signed {
            (1i64 << (w.min(31) - 1)) - 1
        } else {
            (1i64 << w.min(31)) - 1
        };
        let min = if signed {
            -(1i64 << (w.min(31) - 1))
        } else {
            0
        };
        let v = match self.pick(4) {
            0 => min,
            1 => max,
            _ => min + (self.rng.below((max - min + 1) as u64) as i64),
        };
        let t = if v < 0 {
            format!("-{}", -v)
        } else if self.chance(1, 4) {
            format!("'h{v:x}")
        } else {
            v.to_string()
        };
        E::same(t, None, true)
    }

    /// An operand for `a` in a comparison or a bitwise operation.
    fn partner(&mut self, a: &E, d: u32) -> E {
        match a.w {
            Some(w) if self.chance(3, 4) => match self.pick(3) {
                0 => self.number(w, a.s, true),
                1 => self.number(w, a.s, false),
                _ => {
                    let l = self.leaf();
                    if l.w == Some(w) {
                        l
                    } else {
                        self.number(w, a.s, false)
                    }
                }
            },
            _ => self.value(d),
        }
    }

    fn value(&mut self, d: u32) -> E {
        if d == 0 {
            return if self.chance(1, 5) {
                let w = 1 + self.pick(6) as u32;
                let sized = self.chance(1, 2);
                self.number(w, false, sized)
            } else {
                self.leaf()
            };
        }
        let e = match self.pick(14) {
            0 | 1 => self.leaf(),
            2 | 3 => {
                let a = self.value(d - 1);
                let b = self.value(d - 1);
                let op = ["+", "-", "*", "+", "-"][self.pick(5)];
                bin(&a, op, &b)
            }
            4 | 5 => {
                let a = self.value(d - 1);
                let b = self.partner(&a, d - 1);
                let op = ["&", "|", "^", "~^"][self.pick(4)];
                bin(&a, op, &b)
            }
            6 => {
                let a = self.value(d - 1);
                let k = 1 + self.pick(5);
                let b = if self.chance(1, 2) {
                    E::same(k.to_string(), None, true)
                } else {
                    E::same(format!("3'd{k}"), Some(3), false)
                };
                bin(&a, ["/", "%"][self.pick(2)], &b)
            }
            7 => {
                let a = self.value(d - 1);
                let b = if self.chance(1, 2) {
                    E::same(self.pick(5).to_string(), None, true)
                } else {
                    self.leaf()
                };
                bin(&a, ["<<", ">>", "<<<", ">>>"][self.pick(4)], &b)
            }
            8 => {
                let a = self.value(d - 1);
                unary(["-", "~", "+"][self.pick(3)], &a)
            }
            9 => {
                let c = self.boolean(d - 1);
                let a = self.value(d - 1);
                let b = self.value(d - 1);
                E {
                    o: format!("({} ? {} : {})", c.o, a.o, b.o),
                    r: format!("({} ? {} : {})", c.r, a.r, b.r),
                    w: None,
                    s: false,
                }
            }
            10 => {
                let a = self.leaf();
                let b = if self.chance(1, 3) {
                    let w = 1 + self.pick(4) as u32;
                    self.number(w, false, true)
                } else {
                    self.leaf()
                };
                let w = a.w.unwrap_or(1) + b.w.unwrap_or(1);
                E::same(format!("{{{}, {}}}", a.o, b.o), Some(w), false)
            }
            11 => {
                let a = self.leaf();
                let k = 1 + self.pick(3) as u32;
                E::same(format!("{{{k}{{{}}}}}", a.o), a.w.map(|w| w * k), false)
            }
            12 => {
                let a = self.leaf();
                let f = if self.chance(1, 2) {
                    "$signed"
                } else {
                    "$unsigned"
                };
                E::same(format!("{f}({})", a.o), a.w, f == "$signed")
            }
            _ => {
                let a = self.value(d - 1);
                E {
                    o: format!("$unsigned({})", a.o),
                    r: format!("$unsigned({})", a.r),
                    w: None,
                    s: false,
                }
            }
        };
        self.paren(e)
    }

    fn boolean(&mut self, d: u32) -> E {
        if d == 0 {
            return self.leaf();
        }
        let e = match self.pick(12) {
            0..=3 => {
                let a = if self.chance(2, 3) {
                    self.leaf()
                } else {
                    self.value(d - 1)
                };
                let b = self.partner(&a, d - 1);
                let op = ["==", "!=", "<", "<=", ">", ">=", "===", "!=="][self.pick(8)];
                if self.chance(1, 4) {
                    bin(&b, op, &a)
                } else {
                    bin(&a, op, &b)
                }
            }
            4 | 5 => {
                let a = self.boolean(d - 1);
                let b = if self.chance(1, 3) {
                    self.value(d - 1)
                } else {
                    self.boolean(d - 1)
                };
                bin(&a, ["&&", "||"][self.pick(2)], &b)
            }
            6 => {
                let a = if self.chance(1, 2) {
                    self.boolean(d - 1)
                } else {
                    self.value(d - 1)
                };
                unary("!", &a)
            }
            7 => {
                let a = if self.chance(1, 2) {
                    self.leaf()
                } else {
                    self.value(d - 1)
                };
                let op = ["&", "|", "^", "~&", "~|", "~^"][self.pick(6)];
                E {
                    o: format!("{op}({})", a.o),
                    r: format!("{op}({})", a.r),
                    w: None,
                    s: false,
                }
            }
            8 => self.inside(),
            _ => self.value(d - 1),
        };
        self.paren(e)
    }

    fn inside(&mut self) -> E {
        let x = self.leaf();
        let w = x.w.unwrap_or(1);
        let mut items_o = Vec::new();
        let mut items_r = Vec::new();
        for _ in 0..1 + self.pick(3) {
            if self.chance(1, 2) {
                let sized = self.chance(1, 3);
                let v = self.number(w, x.s, sized);
                items_r.push(format!("(({}) == ({}))", x.r, v.r));
                items_o.push(v.o);
            } else {
                let a = self.number(w, x.s, false);
                let b = self.number(w, x.s, false);
                let val = |t: &str| -> i64 {
                    if let Some(h) = t.strip_prefix("'h") {
                        i64::from_str_radix(h, 16).unwrap_or(0)
                    } else {
                        t.parse().unwrap_or(0)
                    }
                };
                let (lo, hi) = if val(&a.o) <= val(&b.o) {
                    (a, b)
                } else {
                    (b, a)
                };
                items_r.push(format!(
                    "((({x}) >= ({})) && (({x}) <= ({})))",
                    lo.r,
                    hi.r,
                    x = x.r
                ));
                items_o.push(format!("[{}:{}]", lo.o, hi.o));
            }
        }
        E {
            o: format!("({} inside {{{}}})", x.o, items_o.join(", ")),
            r: format!("({})", items_r.join(" || ")),
            w: None,
            s: false,
        }
    }
}

/// A unary operator applied to `a` (parenthesized if it starts with an
/// operator: Verilog wants a primary after a unary operator).
fn unary(op: &str, a: &E) -> E {
    let p = |t: &str| {
        if t.starts_with(['-', '+', '~', '!', '&', '|', '^']) {
            format!("{op}({t})")
        } else {
            format!("{op}{t}")
        }
    };
    E {
        o: p(&a.o),
        r: p(&a.r),
        w: None,
        s: false,
    }
}

fn bin(a: &E, op: &str, b: &E) -> E {
    E {
        o: format!("{} {op} {}", a.o, b.o),
        r: format!("{} {op} {}", a.r, b.r),
        w: None,
        s: false,
    }
}

/// One batch: inputs, and the accepted propositions with their
/// normalized text.
struct Batch {
    inputs: Vec<HdlInput>,
    cases: Vec<(E, String)>,
}

fn batch(seed: u64, wanted: usize) -> Batch {
    let mut rng = SplitMix64::new(seed);
    let n = 4 + rng.below(5) as usize;
    let inputs = random_inputs(&mut rng, n);
    let mut r#gen = Gen {
        rng,
        inputs: &inputs,
    };
    let mut cases = Vec::new();
    let mut rejected: BTreeMap<String, usize> = BTreeMap::new();
    let mut attempts = 0;
    while cases.len() < wanted && attempts < wanted * 20 {
        attempts += 1;
        let depth = 1 + r#gen.pick(3) as u32;
        let e = if r#gen.chance(4, 5) {
            r#gen.boolean(depth)
        } else {
            r#gen.value(depth)
        };
        match check_expression(&e.o, &inputs) {
            Ok(c) => {
                // Normalizing is idempotent, where the normalized text
                // passes the checks meant for people (a zero extension
                // `{4'd0, x}` is an unsigned operand of explicit width; a
                // constant operand `4'h1` of `||` becomes a constant
                // comparison `4'h1 != 4'd0`).
                match check_expression(&c.text, &inputs) {
                    Ok(again) => assert_eq!(again.text, c.text, "normalizing `{}` twice", e.o),
                    Err(err)
                        if err.message.contains("is signed but")
                            || err.message.contains("is always") => {}
                    Err(err) => panic!(
                        "the normalized text of `{}` is rejected: `{}`: {err}",
                        e.o, c.text
                    ),
                }
                cases.push((e, c.text));
            }
            Err(err) => {
                assert!(
                    !err.message.contains("internal error"),
                    "`{}`: {}",
                    e.o,
                    err.message
                );
                let key: String = err
                    .message
                    .split([':', '`'])
                    .next()
                    .unwrap_or("")
                    .to_string();
                *rejected.entry(key).or_default() += 1;
            }
        }
    }
    assert!(
        cases.len() >= wanted,
        "seed {seed}: only {} of {attempts} random propositions were accepted; rejections: {rejected:?}",
        cases.len()
    );
    Batch {
        inputs: inputs.clone(),
        cases,
    }
}

const PER_BATCH: usize = 150;

/// The seeds of the batches: 8, or `MONGEN_HDL_SEEDS` for a longer run.
fn seeds() -> std::ops::Range<u64> {
    let n = std::env::var("MONGEN_HDL_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    1..n + 1
}

/// The input ports (Verilator warns about the ascending ranges
/// themselves: that is the design's choice, not the propositions').
fn declarations(inputs: &[HdlInput]) -> String {
    inputs
        .iter()
        .map(|i| {
            if !i.scalar && i.msb < i.lsb {
                format!(
                    "  // verilator lint_off LITENDIAN\n  {},\n  // verilator lint_on LITENDIAN\n",
                    i.port_declaration()
                )
            } else {
                format!("  {},\n", i.port_declaration())
            }
        })
        .collect()
}

#[test]
fn normalized_propositions_are_lint_clean() {
    let Some(verilator) = tool("verilator", &[], "apt-get install -y verilator") else {
        return;
    };
    let dir = scratch("hdl-lint");
    for seed in seeds() {
        let b = batch(seed, PER_BATCH);
        let mut v = String::new();
        let module = format!("hdl_lint_{seed}");
        writeln!(v, "module {module} (").unwrap();
        v.push_str(&declarations(&b.inputs));
        writeln!(v, "  output wire [{}:0] o\n);", b.cases.len()).unwrap();
        let first_line = v.lines().count() + 1;
        for (k, (_, norm)) in b.cases.iter().enumerate() {
            writeln!(v, "  wire p_{k} = {norm};").unwrap();
        }
        let ps: Vec<String> = (0..b.cases.len()).rev().map(|k| format!("p_{k}")).collect();
        let all: Vec<&str> = b.inputs.iter().map(|i| i.name.as_str()).collect();
        writeln!(
            v,
            "  assign o = {{{}, ^{{{}}}}};",
            ps.join(", "),
            all.join(", ")
        )
        .unwrap();
        writeln!(v, "endmodule").unwrap();
        let file = format!("{module}.v");
        std::fs::write(dir.join(&file), &v).unwrap();
        let out = run(&dir, &verilator, &["--lint-only", "-Wall", &file]);
        let said = text(&out);
        if !said.trim().is_empty() || !out.status.success() {
            let mut report = String::new();
            for line in said.lines().filter(|l| l.starts_with('%')) {
                let at = line
                    .split(&format!("{file}:"))
                    .nth(1)
                    .and_then(|r| r.split(':').next())
                    .and_then(|n| n.parse::<usize>().ok());
                match at
                    .and_then(|n| n.checked_sub(first_line))
                    .and_then(|k| b.cases.get(k))
                {
                    Some((e, norm)) => writeln!(
                        report,
                        "{line}\n    original:   {}\n    normalized: {norm}",
                        e.o
                    )
                    .unwrap(),
                    None => writeln!(report, "{line}").unwrap(),
                }
            }
            panic!("verilator -Wall complains about normalized propositions (seed {seed}, in {}):\n{report}", dir.display());
        }
    }
}

/// A random value for `input`, often an extreme one, as a Verilog literal.
fn sample(rng: &mut SplitMix64, input: &HdlInput) -> (String, u64) {
    let w = input.width() as u32;
    let mask = if w >= 64 { u64::MAX } else { (1 << w) - 1 };
    let v = match rng.below(8) {
        0 => 0,
        1 => mask,
        2 => 1 << (w - 1),
        3 => mask >> 1,
        4 => 1,
        _ => rng.next_u64(),
    } & mask;
    (format!("{w}'h{v:x}"), v)
}

#[test]
fn normalized_propositions_mean_the_same_in_icarus() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let dir = scratch("hdl-icarus");
    const SAMPLES: usize = 200;
    for seed in seeds() {
        let mut b = batch(seed, PER_BATCH);
        let regs: String = b
            .inputs
            .iter()
            .map(|i| {
                format!(
                    "  {};\n",
                    i.port_declaration().replacen("input wire ", "reg ", 1)
                )
            })
            .collect();
        // Icarus 11 aborts on a few originals (`(x & 'h4b38463c) << y`
        // with a 39-bit `x`, as a condition): leave those out, but every
        // normalized text must compile.
        let compiles = |line: String| {
            let one = format!("module one;\n{regs}  {line}\nendmodule\n");
            std::fs::write(dir.join("one.v"), one).unwrap();
            run(
                &dir,
                &iverilog,
                &["-g2012", "-gstrict-expr-width", "-o", "one.vvp", "one.v"],
            )
            .status
            .success()
        };
        let mut whole = String::new();
        for (k, (e, norm)) in b.cases.iter().enumerate() {
            writeln!(
                whole,
                "  wire want_{k} = ({}) ? 1'b1 : 1'b0;\n  wire got_{k} = {norm};",
                e.r
            )
            .unwrap();
        }
        if !compiles(whole) {
            let before = b.cases.len();
            let mut kept = Vec::new();
            for (e, norm) in std::mem::take(&mut b.cases) {
                assert!(
                    compiles(format!("wire got = {norm};")),
                    "iverilog rejects the normalized text of `{}`: `{norm}` (in {})",
                    e.o,
                    dir.display()
                );
                if compiles(format!("wire want = ({}) ? 1'b1 : 1'b0;", e.r)) {
                    kept.push((e, norm));
                }
            }
            assert!(
                before - kept.len() <= 3,
                "iverilog rejects {} originals (seed {seed})",
                before - kept.len()
            );
            b.cases = kept;
        }
        let mut rng = SplitMix64::new(seed ^ 0xABCD);
        let mut v = String::from("module tb;\n");
        v.push_str(&regs);
        for (k, (e, norm)) in b.cases.iter().enumerate() {
            writeln!(v, "  wire want_{k} = ({}) ? 1'b1 : 1'b0;", e.r).unwrap();
            writeln!(v, "  wire got_{k} = {norm};").unwrap();
        }
        writeln!(v, "  task check(input integer n);\n  begin").unwrap();
        for k in 0..b.cases.len() {
            writeln!(
                v,
                "    if (want_{k} !== got_{k}) $display(\"MISMATCH {k} %0d %b %b\", n, want_{k}, got_{k});"
            )
            .unwrap();
        }
        writeln!(v, "  end\n  endtask\n  initial begin").unwrap();
        let mut values = Vec::new();
        for n in 0..SAMPLES {
            let mut row = Vec::new();
            let assigns: Vec<String> = b
                .inputs
                .iter()
                .map(|i| {
                    let (lit, val) = sample(&mut rng, i);
                    row.push(val);
                    format!("{} = {lit};", i.name)
                })
                .collect();
            values.push(row);
            writeln!(v, "    {} #1 check({n});", assigns.join(" ")).unwrap();
        }
        writeln!(v, "    $display(\"DONE\");\n    $finish;\n  end\nendmodule").unwrap();
        std::fs::write(dir.join("tb.v"), &v).unwrap();
        let out = run(
            &dir,
            &iverilog,
            &["-g2012", "-gstrict-expr-width", "-o", "tb.vvp", "tb.v"],
        );
        assert!(
            out.status.success(),
            "iverilog rejects the testbench (seed {seed}, in {}):\n{}",
            dir.display(),
            text(&out)
        );
        let out = run(&dir, &vvp, &["-n", "tb.vvp"]);
        let said = text(&out);
        assert!(
            said.contains("DONE"),
            "the simulation did not finish:\n{said}"
        );
        let mut report = String::new();
        for line in said.lines().filter(|l| l.starts_with("MISMATCH")).take(10) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (k, n): (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
            let (e, norm) = &b.cases[k];
            let inputs: Vec<String> = b
                .inputs
                .iter()
                .zip(&values[n])
                .map(|(i, v)| format!("{}={v:#x}", i.name))
                .collect();
            writeln!(
                report,
                "original:   {}\nreference:  {}\nnormalized: {norm}\ninputs:     {}\nwant {} got {}\n",
                e.o,
                e.r,
                inputs.join(" "),
                f[3],
                f[4]
            )
            .unwrap();
        }
        assert!(
            report.is_empty(),
            "normalized propositions disagree with the originals (seed {seed}; inputs {}):\n{report}",
            b.inputs
                .iter()
                .map(|i| i.port_declaration())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

// ---------------------------------------------------------------------------
// Module signals against Verilator
// ---------------------------------------------------------------------------

const DESIGNS: &str = r#"
`define DATA_W 8
`define MSB(w) ((w) - 1)
// A FIFO with ANSI ports and parameters computed from parameters.
module fifo #(
    parameter WIDTH = `DATA_W,
    parameter integer DEPTH = 16,
    localparam AW = $clog2(DEPTH)
) (
    input  wire               clk,
    input  wire               rst_n,
    input  wire               push, pop,
    input  wire [WIDTH-1:0]   din,
    output reg  [WIDTH-1:0]   dout,
    output wire               full,
    output wire               empty,
    output reg  [AW:0]        count
);
    reg [WIDTH-1:0] mem [0:DEPTH-1];
    reg [AW-1:0] wr_ptr, rd_ptr;
    wire do_push = push && !full, do_pop = pop && !empty;
    localparam [AW:0] LAST = DEPTH - 1;
    assign full = count == DEPTH;
    assign empty = count == 0;
    function [AW-1:0] next(input [AW-1:0] p);
        reg [AW-1:0] t;
        begin
            t = p + 1'b1;
            next = t;
        end
    endfunction
    always @(posedge clk or negedge rst_n) begin : seq
        reg unused_local;
        if (!rst_n) begin
            wr_ptr <= 0; rd_ptr <= 0; count <= 0; dout <= 0;
        end else begin
            if (do_push) begin mem[wr_ptr] <= din; wr_ptr <= next(wr_ptr); end
            if (do_pop) begin dout <= mem[rd_ptr]; rd_ptr <= next(rd_ptr); end
            case ({do_push, do_pop})
                2'b10: count <= count + 1'b1;
                2'b01: count <= count - 1'b1;
                default: ;
            endcase
        end
    end
endmodule

// A counter with a Verilog-1995 port list.
module counter (clk, reset, enable, value, wrapped);
    parameter N = 4;
    parameter [N-1:0] TOP = {N{1'b1}};
    input clk, reset;
    input enable;
    output [N-1:0] value;
    output wrapped;
    reg [N-1:0] value;
    reg wrapped;
    integer cycles;
    wire [N:0] sum;
    assign sum = value + 1;
    always @(posedge clk)
        if (reset) begin
            value <= 0; wrapped <= 0; cycles = 0;
        end else if (enable) begin
            value <= sum[N-1:0];
            wrapped <= sum[N];
            cycles = cycles + 1;
        end
endmodule

// SystemVerilog: logic, int, signed, ascending and offset ranges, generate.
module alu #(parameter int W = 8, parameter bit WIDE = 0) (
    input  logic                 clk,
    input  logic signed [W-1:0]  a, b,
    input  logic [1:0]           op,
    input  logic [0:3]           flags_in,
    input  logic [W:1]           offset,
    output logic signed [2*W-1:0] y,
    output logic [`MSB(4):0]     status
);
    logic signed [W:0] sum;
    logic [W-1:0] masked;
    int unsigned ops_done;
    byte last_op;
`ifdef WIDE_STATUS
    logic [15:0] wide_status;
`else
    logic [7:0] narrow_status;
`endif
    (* keep *) logic [WIDE ? 15 : 7:0] chosen;
    genvar i;
    generate
        for (i = 0; i < 2; i = i + 1) begin : lanes
            logic lane_bit;
            assign lane_bit = a[i];
        end
    endgenerate
    always_comb begin
        sum = a + b;
        masked = a & b;
        case (op)
            2'd0: y = {{W{sum[W]}}, sum[W-1:0]};
            2'd1: y = a * b;
            default: y = '0;
        endcase
    end
    assign status = {flags_in[0], offset[1], chosen[0], masked[0]};
    assign narrow_status = {4'd0, status};
    always_ff @(posedge clk) begin
        ops_done <= ops_done + 1;
        last_op <= narrow_status ^ {6'd0, op};
    end
endmodule
"#;

/// What Verilator says the module-level signals of `top` are:
/// (name, direction, left, right, signed, scalar, line).
fn verilator_signals(
    verilator: &Path,
    dir: &Path,
    top: &str,
    params: &[(String, i64)],
) -> Vec<(String, Direction, i64, i64, bool, bool, usize)> {
    let mut args = vec![
        "--xml-only".to_string(),
        "-Wno-fatal".into(),
        "-Wno-lint".into(),
        "-Wno-style".into(),
        "--top-module".into(),
        top.into(),
        "--xml-output".into(),
        format!("{top}.xml"),
    ];
    for (p, v) in params {
        args.push(format!("-G{p}={v}"));
    }
    args.push("designs.sv".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(dir, verilator, &args);
    assert!(
        out.status.success(),
        "verilator --xml-only fails:\n{}",
        text(&out)
    );
    let xml = std::fs::read_to_string(dir.join(format!("{top}.xml"))).unwrap();
    let attr = |line: &str, name: &str| -> Option<String> {
        let key = format!(" {name}=\"");
        let start = line.find(&key)? + key.len();
        Some(line[start..].split('"').next()?.to_string())
    };
    // Basic types by id.
    let mut types: BTreeMap<String, (Option<i64>, Option<i64>, bool, String)> = BTreeMap::new();
    for line in xml.lines().map(str::trim) {
        if line.starts_with("<basicdtype ") {
            types.insert(
                attr(line, "id").unwrap(),
                (
                    attr(line, "left").map(|v| v.parse().unwrap()),
                    attr(line, "right").map(|v| v.parse().unwrap()),
                    attr(line, "signed").is_some(),
                    attr(line, "name").unwrap(),
                ),
            );
        }
    }
    // Variables that are direct children of the module.
    let mut out = Vec::new();
    let mut stack: Vec<String> = Vec::new();
    for line in xml.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("</") {
            let name = rest.trim_end_matches('>');
            if let Some(p) = stack.iter().rposition(|s| s == name) {
                stack.truncate(p);
            }
            continue;
        }
        let Some(rest) = line.strip_prefix('<') else {
            continue;
        };
        if rest.starts_with('?') {
            continue;
        }
        let tag: String = rest
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        let in_module = stack.last().map(String::as_str) == Some("module");
        // (Verilator lists genvars as integer variables.)
        let genvar = tag == "var"
            && DESIGNS.contains(&format!(
                "genvar {};",
                attr(line, "name").unwrap_or_default()
            ));
        if tag == "var"
            && in_module
            && !genvar
            && attr(line, "param").is_none()
            && attr(line, "localparam").is_none()
        {
            let name = attr(line, "name").unwrap();
            let dtype = attr(line, "dtype_id").unwrap();
            if let Some((l, r, signed, kind)) = types.get(&dtype) {
                if kind != "real" && kind != "string" && kind != "genvar" {
                    let direction = match attr(line, "dir").as_deref() {
                        Some("input") => Direction::Input,
                        Some("output") => Direction::Output,
                        Some("inout") => Direction::Inout,
                        _ => Direction::Internal,
                    };
                    let loc = attr(line, "loc").unwrap();
                    let line_no: usize = loc.split(',').nth(1).unwrap().parse().unwrap();
                    out.push((
                        name,
                        direction,
                        l.unwrap_or(0),
                        r.unwrap_or(0),
                        *signed,
                        l.is_none(),
                        line_no,
                    ));
                }
            }
        }
        if !line.ends_with("/>") {
            stack.push(tag);
        }
    }
    out.sort();
    out
}

#[test]
fn module_signals_agree_with_verilator() {
    let Some(verilator) = tool("verilator", &[], "apt-get install -y verilator") else {
        return;
    };
    let dir = scratch("hdl-ports");
    std::fs::write(dir.join("designs.sv"), DESIGNS).unwrap();
    let cases: Vec<(&str, Vec<(String, i64)>)> = vec![
        ("fifo", vec![]),
        ("fifo", vec![("WIDTH".into(), 12), ("DEPTH".into(), 5)]),
        ("counter", vec![]),
        ("counter", vec![("N".into(), 9)]),
        ("alu", vec![]),
        ("alu", vec![("W".into(), 5), ("WIDE".into(), 1)]),
    ];
    for (top, params) in cases {
        let mut ours: Vec<_> = module_signals(DESIGNS, top, &params)
            .unwrap_or_else(|e| panic!("{top}: {e}"))
            .into_iter()
            .map(|s| {
                (
                    s.name,
                    s.direction,
                    s.msb,
                    s.lsb,
                    s.signed,
                    s.scalar,
                    s.line,
                )
            })
            .collect();
        ours.sort();
        let theirs = verilator_signals(&verilator, &dir, top, &params);
        assert_eq!(
            ours, theirs,
            "{top} with {params:?}: ours (left) and Verilator's (right)"
        );
    }
    // And a few facts by hand, in declaration order.
    let fifo = module_signals(DESIGNS, "fifo", &[]).unwrap();
    let brief: Vec<String> = fifo
        .iter()
        .map(|s| {
            if s.scalar {
                format!("{} {}", s.direction, s.name)
            } else {
                format!("{} [{}:{}] {}", s.direction, s.msb, s.lsb, s.name)
            }
        })
        .collect();
    assert_eq!(
        brief,
        [
            "input clk",
            "input rst_n",
            "input push",
            "input pop",
            "input [7:0] din",
            "output [7:0] dout",
            "output full",
            "output empty",
            "output [4:0] count",
            "internal [3:0] wr_ptr",
            "internal [3:0] rd_ptr",
            "internal do_push",
            "internal do_pop",
        ]
    );
    let counter = module_signals(DESIGNS, "counter", &[("N".into(), 9)]).unwrap();
    let value = counter.iter().find(|s| s.name == "value").unwrap();
    assert_eq!(
        (value.direction, value.msb, value.lsb),
        (Direction::Output, 8, 0)
    );
    let alu = module_signals(DESIGNS, "alu", &[]).unwrap();
    let offset = alu.iter().find(|s| s.name == "offset").unwrap();
    assert_eq!((offset.msb, offset.lsb, offset.signed), (8, 1, false));
    let a = alu.iter().find(|s| s.name == "a").unwrap();
    assert_eq!((a.msb, a.lsb, a.signed), (7, 0, true));
    // Propositions over the design's own signals check against them.
    let inputs: Vec<HdlInput> = alu.iter().map(|s| s.to_input()).collect();
    let p = check_expression("a < -3 && flags_in[0:1] == 2'b10 && offset[8]", &inputs).unwrap();
    assert_eq!(p.text, "a < -8'sd3 && flags_in[0:1] == 2'b10 && offset[8]");
}
