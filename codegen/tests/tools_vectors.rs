//! Checkers over the design's vectors (`--input count:4`), run by the real
//! tools.
//!
//! Random safety formulas over comparisons of vectors (`count > 5`,
//! `data[6:3] == 4'b1010`, signed `delta < -3`) become checkers that read
//! the vectors and compute the propositions inside. Icarus Verilog
//! simulates them on random values (extremes often, resets in between):
//! `fail` and `violated` must equal, cycle by cycle, the core monitor's
//! verdicts on the letters that the trace checker's own expression
//! evaluator (`monitor_core::trace::expr`, which shares no code with the
//! Verilog normalization) computes from the same values. Verilator `-Wall`
//! lints them, plain and with FORMAL or ASSERTIONS defined.

mod common;

use std::fmt::Write as _;

use common::{run, scratch, text, tool};
use mongen::emit::verilog::{checker_instance, emit_verilog, VerilogOptions};
use mongen::emit::Common;
use mongen::hdl::HdlInput;
use monitor_core::automaton::{BadPrefixDfa, Target};
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::trace::expr::{Cell, Expr};
use monitor_core::translate::Builder;

/// The design's signals: (name, width, signed).
const SIGNALS: &[(&str, u32, bool)] = &[
    ("count", 4, false),
    ("data", 8, false),
    ("delta", 8, true),
    ("en", 1, false),
];

/// Propositions over them, as a user writes them in LTL.
const ATOMS: &[&str] = &[
    "count > 5",
    "count == 4'd15",
    "count <= 2",
    "data[7]",
    "data[6:3] == 4'b1010",
    "data != 0",
    "delta < -3",
    "delta >= 2",
    "en",
];

fn inputs() -> Vec<HdlInput> {
    SIGNALS
        .iter()
        .map(|&(name, width, signed)| {
            let i = if width == 1 {
                HdlInput::scalar(name)
            } else {
                HdlInput::bits(name, width)
            };
            if signed {
                i.signed()
            } else {
                i
            }
        })
        .collect()
}

/// Safety formulas over random subsets of the atoms.
fn formulas() -> Vec<(String, BadPrefixDfa)> {
    let mut rng = SplitMix64::new(0x5eed);
    let mut out = Vec::new();
    let mut seed = 1;
    while out.len() < 40 {
        let k = 2 + rng.below(3) as usize;
        let atoms: Vec<&str> = (0..k)
            .map(|_| ATOMS[rng.below(ATOMS.len() as u64) as usize])
            .collect();
        let mut r#gen = RandomLtl::new(&atoms, 8 + rng.below(8) as usize).seed(seed);
        seed += 1;
        let f = r#gen.next_formula();
        let Ok(t) = Builder::new().build_from_formula(&f) else {
            continue;
        };
        let dfa = t.into_dfa();
        // Monitors that never fail or fail at once teach nothing.
        if dfa.num_states() < 2 {
            continue;
        }
        out.push((f.to_string(), dfa));
    }
    out
}

/// One cycle: whether the reset is inactive, and each signal's value (the
/// signed one as a signed number).
struct Cycle {
    run: bool,
    values: Vec<i64>,
}

fn stimulus(rng: &mut SplitMix64, len: usize) -> Vec<Cycle> {
    (0..len)
        .map(|i| Cycle {
            run: i > 0 && !rng.chance(1, 40),
            values: SIGNALS
                .iter()
                .map(|&(_, w, signed)| {
                    let max = (1i64 << w) - 1;
                    let v = match rng.below(4) {
                        0 => 0,
                        1 => max,
                        _ => rng.below(max as u64 + 1) as i64,
                    };
                    if signed && v >= 1 << (w - 1) {
                        v - (1 << w)
                    } else {
                        v
                    }
                })
                .collect(),
        })
        .collect()
}

/// `(fail, violated)` per cycle, from the core monitor on the letters the
/// trace evaluator computes.
fn expected(dfa: &BadPrefixDfa, trace: &[Cycle]) -> Vec<(bool, bool)> {
    let names: Vec<&str> = SIGNALS.iter().map(|s| s.0).collect();
    let exprs: Vec<Expr> = dfa
        .alphabet()
        .names()
        .iter()
        .map(|p| {
            let mut e = Expr::parse(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            e.resolve(&mut |f: &str| names.iter().position(|n| *n == f).ok_or(()))
                .unwrap_or_else(|_| panic!("{p}: unknown field"));
            e
        })
        .collect();
    let mut s = dfa.start();
    let mut violated = false;
    trace
        .iter()
        .map(|c| {
            if !c.run {
                s = dfa.start();
                violated = false;
                return (false, false);
            }
            if violated {
                return (false, true);
            }
            let texts: Vec<String> = c.values.iter().map(|v| v.to_string()).collect();
            let mut letter = 0u64;
            for (k, e) in exprs.iter().enumerate() {
                let cell = |id: usize| Some(Cell::Text(&texts[id]));
                if e.eval(&cell).unwrap_or_else(|err| panic!("{err}")) {
                    letter |= 1 << k;
                }
            }
            match dfa.step(s, &letter) {
                Target::Violation => {
                    violated = true;
                    (true, true)
                }
                Target::State(t) => {
                    s = t;
                    (false, false)
                }
            }
        })
        .collect()
}

#[test]
fn vector_checkers_match_the_monitor_in_icarus() {
    let Some(iverilog) = tool("iverilog", &[], "scripts/install-tools.sh") else {
        return;
    };
    let vvp = tool("vvp", &[], "scripts/install-tools.sh").expect("vvp beside iverilog");
    let dir = scratch("vector-checkers");
    let formulas = formulas();
    let signals = inputs();
    let mut rng = SplitMix64::new(7);
    let len = 400;
    let trace = stimulus(&mut rng, len);

    let mut checkers = String::new();
    let mut tb = String::from("module tb;\n  reg clk = 1'b0;\n  reg rst_n;\n");
    for (&(name, w, signed), input) in SIGNALS.iter().zip(&signals) {
        let range = if input.scalar {
            String::new()
        } else {
            format!("[{}:0] ", w - 1)
        };
        let s = if signed { "signed " } else { "" };
        writeln!(tb, "  reg {s}{range}{name};").unwrap();
    }
    let n = formulas.len();
    writeln!(tb, "  wire [{}:0] fail, violated;", n - 1).unwrap();
    for (j, (_, dfa)) in formulas.iter().enumerate() {
        let opts = VerilogOptions {
            common: Common::named(format!("v{j}")),
            signals: signals.clone(),
            ..VerilogOptions::default()
        };
        checkers.push_str(&emit_verilog(dfa, &opts).unwrap());
        let inst = checker_instance(dfa, &opts).unwrap();
        let conns: Vec<String> = inst
            .connections
            .iter()
            .map(|(port, e)| match port.as_str() {
                "fail" | "violated" => format!(".{port}({port}[{j}])"),
                _ => format!(".{port}({e})"),
            })
            .collect();
        // The checker reads the vectors themselves.
        assert!(
            inst.connections.iter().all(|(p, e)| e.is_empty() || p == e),
            "{:?}",
            inst.connections
        );
        writeln!(tb, "  v{j}_checker c{j} ({});", conns.join(", ")).unwrap();
    }
    tb.push_str("  integer i;\n  reg [21:0] stim [0:");
    writeln!(tb, "{}];", len - 1).unwrap();
    writeln!(
        tb,
        "  initial begin\n    $readmemh(\"stim.hex\", stim);\n    for (i = 0; i < {len}; i = i + 1) begin\n      \
         {{rst_n, en, delta, data, count}} = stim[i];\n      #1 $display(\"%0d %b %b\", i, fail, violated);\n      \
         clk = 1'b1; #1 clk = 1'b0;\n    end\n    $finish;\n  end\nendmodule"
    )
    .unwrap();
    let mut hex = String::new();
    for c in &trace {
        let mut word = u64::from(c.run);
        for (&(_, w, _), &v) in SIGNALS.iter().zip(&c.values).rev() {
            word = (word << w) | (v as u64 & ((1 << w) - 1));
        }
        writeln!(hex, "{word:06x}").unwrap();
    }
    std::fs::write(dir.join("stim.hex"), hex).unwrap();
    std::fs::write(dir.join("checkers.v"), &checkers).unwrap();
    std::fs::write(dir.join("tb.v"), &tb).unwrap();

    let o = run(
        &dir,
        &iverilog,
        &["-g2005", "-o", "sim", "tb.v", "checkers.v"],
    );
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&dir, &vvp, &["-n", "sim"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let expected: Vec<Vec<(bool, bool)>> =
        formulas.iter().map(|(_, d)| expected(d, &trace)).collect();
    let mut lines = 0;
    let mut failures = 0;
    for line in out.lines() {
        let mut parts = line.split_whitespace();
        let (Some(i), Some(fail), Some(violated)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let Ok(i) = i.parse::<usize>() else { continue };
        lines += 1;
        // Bit j of a Verilog vector is printed at n - 1 - j.
        for (j, ((f, _), e)) in formulas.iter().zip(&expected).enumerate() {
            let got = (
                fail.as_bytes()[n - 1 - j] == b'1',
                violated.as_bytes()[n - 1 - j] == b'1',
            );
            assert_eq!(
                got, e[i],
                "cycle {i}, checker v{j} of {f}: (fail, violated) = {got:?}, the monitor says {:?}",
                e[i]
            );
            failures += usize::from(got.0);
        }
    }
    assert_eq!(lines, len, "{out}");
    // The stimulus makes some checkers fail (the test is not vacuous).
    assert!(failures > 10, "only {failures} failures");

    if let Some(verilator) = tool("verilator", &[], "scripts/install-tools.sh") {
        for define in ["", "-DFORMAL", "-DASSERTIONS"] {
            let mut args = vec![
                "--lint-only",
                "-Wall",
                "-Wno-DECLFILENAME",
                "-Wno-MULTITOP",
                "checkers.v",
            ];
            if !define.is_empty() {
                args.push(define);
            }
            let o = run(&dir, &verilator, &args);
            assert!(o.status.success(), "verilator {define}: {}", text(&o));
        }
    }
}
