//! SVA vector arithmetic (issue 29: `cnt + 1 > 3`, `(v & w) != 0`, `q ==
//! $past(q) + 1`) against Icarus Verilog computing the same expressions
//! itself.
//!
//! Random Boolean expressions over vectors of several widths, signed and
//! unsigned (Verilog's `+ - * / % & | ^ ~^ << >> >>>`, unary `-` and `~`,
//! `?:`, concatenations, reductions, selects, sized, signed and unsized
//! numbers, `$signed`, `$past`), are written once and read three ways:
//! Icarus evaluates each in the testbench every cycle (its own reading of
//! IEEE 1800's sizing and signedness rules, `$past` as a register); `mongen
//! check --sva` reads the waveform Icarus dumped; and the checkers `mongen
//! compile --sva -t verilog` writes run in the same simulation. Each
//! expression `E` is checked as `g |-> (E)` with a random input `g`: the
//! exact monitor reports a violation at the first prefix that no
//! continuation repairs, which for `$past(b) != 1` is the cycle where `b`
//! is 1, one before Icarus evaluates it false; under `g` no failure is
//! certain before its cycle. The first cycle where `g` holds and `E` is
//! false must be the same for all three.

mod common;

use std::fmt::Write as _;

use common::{run, scratch, text, tool};

const INPUTS: &[&str] = &[
    "--input", "a:5", "--input", "b:3", "--input", "s:s4", "--input", "e", "--input", "g",
];

/// A small deterministic generator (xorshift), so that a failure names
/// its expression and reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// An expression as SVA text and as Verilog for the testbench (`$past(x)`
/// is the register `x_p`).
struct Text {
    sva: String,
    verilog: String,
}

impl Text {
    fn same(s: &str) -> Text {
        Text {
            sva: s.into(),
            verilog: s.into(),
        }
    }

    fn wrap(self, open: &str, close: &str) -> Text {
        Text {
            sva: format!("{open}{}{close}", self.sva),
            verilog: format!("{open}{}{close}", self.verilog),
        }
    }

    fn join(a: Text, op: &str, b: Text) -> Text {
        Text {
            sva: format!("{} {op} {}", a.sva, b.sva),
            verilog: format!("{} {op} {}", a.verilog, b.verilog),
        }
    }
}

fn leaf(r: &mut Rng) -> Text {
    match r.below(10) {
        0..=3 => Text::same(r.pick(&["a", "b", "s", "e", "a[3:1]", "a[4]", "s[3:2]"])),
        4 => Text::same(&r.below(10).to_string()),
        5 => Text::same(r.pick(&[
            "3'd5", "4'sd3", "4'sb1110", "5'b10101", "2'd1", "6'sd31", "'d9",
        ])),
        6 => {
            let x = r.pick(&["a", "b", "s"]);
            Text {
                sva: format!("$past({x})"),
                verilog: format!("{x}_p"),
            }
        }
        7 => Text::same(r.pick(&["'0", "'1"])),
        _ => Text::same(r.pick(&["a", "b", "s"])),
    }
}

fn term(r: &mut Rng, depth: u32) -> Text {
    if depth == 0 || r.below(4) == 0 {
        return leaf(r);
    }
    let t = match r.below(12) {
        0..=4 => {
            let op = r.pick(&["+", "-", "*", "&", "|", "^", "~^", "+", "-"]);
            Text::join(term(r, depth - 1), op, term(r, depth - 1))
        }
        5 => {
            let op = r.pick(&["<<", ">>", ">>>", "<<<"]);
            let amount = if r.below(2) == 0 {
                Text::same(r.pick(&["b", "a[1:0]", "e"]))
            } else {
                Text::same(&r.below(7).to_string())
            };
            Text::join(term(r, depth - 1), op, amount)
        }
        6 => {
            let op = r.pick(&["-", "~", "-", "+"]);
            term(r, depth - 1).wrap(&format!("{op}("), ")")
        }
        7 => {
            let c = boolean(r, depth - 1).wrap("(", ")");
            let (x, y) = (term(r, depth - 1), term(r, depth - 1));
            Text {
                sva: format!("{} ? {} : {}", c.sva, x.sva, y.sva),
                verilog: format!("{} ? {} : {}", c.verilog, x.verilog, y.verilog),
            }
        }
        8 => {
            let op = r.pick(&["/", "%"]);
            let d = Text::same(r.pick(&["3", "3'd3", "2", "4'sd5", "4'sb1101", "7", "1"]));
            Text::join(term(r, depth - 1), op, d)
        }
        9 => {
            let f = r.pick(&["$signed", "$unsigned"]);
            term(r, depth - 1).wrap(&format!("{f}("), ")")
        }
        10 => {
            // Concatenation items have widths of their own.
            let items = ["a", "b", "s", "e", "a[2:0]", "3'd5", "2'b10"];
            let (x, y) = (r.pick(&items), r.pick(&items));
            if r.below(3) == 0 {
                Text::same(&format!("{{2{{{x}, {y}}}}}"))
            } else {
                Text::same(&format!("{{{x}, {y}}}"))
            }
        }
        _ => term(r, depth - 1),
    };
    if r.below(3) == 0 {
        t
    } else {
        t.wrap("(", ")")
    }
}

fn boolean(r: &mut Rng, depth: u32) -> Text {
    match r.below(10) {
        0..=5 => {
            let op = r.pick(&["==", "!=", "<", "<=", ">", ">=", "===", "!=="]);
            Text::join(term(r, depth), op, term(r, depth))
        }
        6 => {
            let op = r.pick(&["&", "|", "^", "~|", "~&", "~^"]);
            term(r, depth).wrap(&format!("{op}("), ")")
        }
        7 => term(r, depth).wrap("!(", ")"),
        8 => term(r, depth),
        _ => {
            let op = r.pick(&["&&", "||"]);
            let x = boolean(r, depth.saturating_sub(1)).wrap("(", ")");
            let y = boolean(r, depth.saturating_sub(1)).wrap("(", ")");
            Text::join(x, op, y)
        }
    }
}

fn testbench(exprs: &[Text]) -> String {
    let n = exprs.len();
    let mut tb = String::new();
    writeln!(
        tb,
        "`timescale 1ns/1ns\nmodule tb;\n  reg clk = 0; reg rst_n = 0; reg e = 0; reg g = 0;\n  \
         reg [4:0] a = 0; reg [2:0] b = 0; reg signed [3:0] s = 0;\n  \
         reg [4:0] a_p = 0; reg [2:0] b_p = 0; reg signed [3:0] s_p = 0;\n  \
         wire [{n}:1] fail;\n  \
         always @(posedge clk) begin a_p <= a; b_p <= b; s_p <= s; end"
    )
    .unwrap();
    for k in 1..=n {
        writeln!(
            tb,
            "  ar_{k}_checker c{k} (.*, .violated(), .fail(fail[{k}]));"
        )
        .unwrap();
    }
    tb.push_str(
        "  integer seed, t;\n  reg [1024:1] seen = 0;\n  reg [1024:1] failed = 0;\n  initial begin\n\
         \x20   if (!$value$plusargs(\"seed=%d\", seed)) seed = 1;\n\
         \x20   $dumpfile(\"tb.vcd\"); $dumpvars(1, tb);\n\
         \x20   for (t = 0; t < 32; t = t + 1) begin\n\
         \x20     e = $random(seed); g = $random(seed); a = $random(seed); b = $random(seed); s = $random(seed);\n\
         \x20     #4\n",
    );
    for (k, x) in exprs.iter().enumerate() {
        let k = k + 1;
        writeln!(
            tb,
            "      if (g && !({}) && !seen[{k}]) begin seen[{k}] = 1; $display(\"native {k} %0t\", $time + 1); end",
            x.verilog
        )
        .unwrap();
        writeln!(
            tb,
            "      if (fail[{k}] && !failed[{k}]) begin failed[{k}] = 1; $display(\"checker {k} %0t\", $time + 1); end"
        )
        .unwrap();
    }
    tb.push_str(
        "      #1 clk = 1; #5 clk = 0; rst_n = 1;\n    end\n    $finish;\n  end\nendmodule\n",
    );
    tb
}

/// The first violation of each property in `mongen check`'s JSON reports.
fn first_violations(reports: &[u8], properties: &[String]) -> Vec<Option<u64>> {
    let reports = String::from_utf8_lossy(reports);
    assert_eq!(reports.lines().count(), properties.len(), "{reports}");
    reports
        .lines()
        .enumerate()
        .map(|(k, line)| {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(r["property"].as_str(), Some(properties[k].as_str()));
            r["violations"]
                .as_array()
                .unwrap()
                .first()
                .map(|x| x["time"].as_u64().unwrap())
        })
        .collect()
}

#[test]
fn icarus_mongen_check_and_the_checkers_agree_on_vector_arithmetic() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let mongen = std::path::Path::new(env!("CARGO_BIN_EXE_mongen"));
    let dir = scratch("sva-arithmetic");
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let exprs: Vec<Text> = (0..160).map(|_| boolean(&mut r, 2)).collect();
    let properties: Vec<String> = exprs.iter().map(|x| format!("g |-> ({})", x.sva)).collect();
    let mut args = vec![
        "compile", "--sva", "-t", "verilog", "--name", "ar", "-o", "ar.v",
    ];
    args.extend(INPUTS);
    let formulas: Vec<String> = properties
        .iter()
        .map(|p| format!("--formula={p}"))
        .collect();
    args.extend(formulas.iter().map(String::as_str));
    let o = run(&dir, mongen, &args);
    assert!(o.status.success(), "mongen compile:\n{}", text(&o));
    std::fs::write(dir.join("tb.v"), testbench(&exprs)).unwrap();
    let o = run(&dir, &iverilog, &["-g2012", "-o", "sim", "tb.v", "ar.v"]);
    assert!(o.status.success(), "iverilog:\n{}", text(&o));
    let (mut violated, mut held) = (0, 0);
    for seed in 1..=4 {
        let out = text(&run(&dir, &vvp, &["-n", "sim", &format!("+seed={seed}")]));
        let mut native = vec![None; exprs.len()];
        let mut checker = vec![None; exprs.len()];
        for l in out.lines() {
            let Some((who, rest)) = l.split_once(' ') else {
                continue;
            };
            let Some((k, t)) = rest.split_once(' ') else {
                continue;
            };
            let (Ok(k), Ok(t)) = (k.parse::<usize>(), t.trim().parse::<u64>()) else {
                continue;
            };
            match who {
                "native" => native[k - 1] = Some(t),
                "checker" => checker[k - 1] = Some(t),
                _ => {}
            }
        }
        // The waveform from its first cycle, as Icarus evaluated it.
        let mut args = vec!["check", "--sva", "--clock", "clk", "--json"];
        args.extend(INPUTS);
        args.extend(formulas.iter().map(String::as_str));
        args.push("tb.vcd");
        let o = run(&dir, mongen, &args);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "mongen check:\n{}",
            text(&o)
        );
        let checked = first_violations(&o.stdout, &properties);
        // The checkers are held in reset in the first cycle, as is the
        // check with `--reset`.
        let mut args = vec![
            "check", "--sva", "--clock", "clk", "--reset", "rst_n", "--json",
        ];
        args.extend(INPUTS);
        args.extend(formulas.iter().map(String::as_str));
        args.push("tb.vcd");
        let o = run(&dir, mongen, &args);
        assert!(
            matches!(o.status.code(), Some(0 | 1)),
            "mongen check --reset:\n{}",
            text(&o)
        );
        let checked_after_reset = first_violations(&o.stdout, &properties);
        for (k, x) in exprs.iter().enumerate() {
            assert_eq!(
                checked[k], native[k],
                "seed {seed}, `{}` (Verilog `{}`): mongen check, then Icarus",
                x.sva, x.verilog
            );
            assert_eq!(
                checked_after_reset[k], checker[k],
                "seed {seed}, `{}`: mongen check --reset, then the checker in Icarus",
                x.sva
            );
            if native[k].is_some() {
                violated += 1;
            } else {
                held += 1;
            }
        }
    }
    // The expressions are neither all true nor all false.
    assert!(
        violated > 150 && held > 150,
        "{violated} violated, {held} held"
    );
}
