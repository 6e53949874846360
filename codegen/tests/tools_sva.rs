//! `--sv FILE` with the real tools: the assertions of a SystemVerilog
//! design (examples/hardware/sva/handshake.sv: a sequence, default
//! clocking and disable iff, an assertion in an `always` procedure over an
//! internal register, an assumption, a cover) become checkers that
//!
//! * SymbiYosys proves inside the design (no commercial front end: the
//!   design is read without its assertions, the checkers instantiated in
//!   their place), refuting one-line mutations with the labels of the
//!   assertions they break and reaching the cover;
//! * Icarus simulates on random requests, reporting the cycles that
//!   `mongen check --sv` finds in the waveform.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{checker_errors, first_after_each_reset, run, sby, scratch, text, tool};

fn mongen(dir: &Path, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run mongen");
    assert!(o.status.success(), "mongen {args:?}:\n{}", text(&o));
    text(&o)
}

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hardware/sva/handshake.sv")
}

/// A variant of the design: a line replaced, and the assertions it
/// breaks.
struct Variant {
    name: &'static str,
    mutation: Option<(&'static str, &'static str)>,
    failing: &'static [&'static str],
}

const VARIANTS: [Variant; 3] = [
    Variant {
        name: "good",
        mutation: None,
        failing: &[],
    },
    // Granted a cycle late.
    Variant {
        name: "late",
        mutation: Some(("count <= 2'd2;", "count <= 2'd3;")),
        failing: &["a_grant", "a_count"],
    },
    // Still busy at the grant (and then for good: no request is accepted
    // again, the assumption holds the environment quiet).
    Variant {
        name: "sticky",
        mutation: Some((
            "busy <= 1'b0;\n        end else",
            "busy <= 1'b1;\n        end else",
        )),
        failing: &["a_idle_at_grant"],
    },
];

/// The variant's design, checkers, design copy, harness and project.
fn project(test: &str, v: &Variant) -> PathBuf {
    let dir = scratch(&format!("{test}-{}", v.name));
    let mut design = std::fs::read_to_string(example()).unwrap();
    if let Some((from, to)) = v.mutation {
        assert_eq!(design.matches(from).count(), 1, "`{from}` in handshake.sv");
        design = design.replace(from, to);
    }
    std::fs::write(dir.join("handshake.sv"), design).unwrap();
    mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "handshake.sv",
            "-D",
            "FORMAL",
            "-t",
            "verilog",
            "--sby",
            "handshake",
            "--design",
            "handshake.sv",
            "-o",
            "handshake_checkers.v",
        ],
    );
    dir
}

#[test]
fn symbiyosys_proves_the_assertions_of_the_design_and_refutes_its_mutations() {
    let Some(sby) = sby() else { return };
    for v in &VARIANTS {
        let dir = project("sva-sby", v);
        let copy = std::fs::read_to_string(dir.join("handshake_design.sv")).unwrap();
        assert!(!copy.contains("assert property"), "{copy}");
        assert!(copy.contains("a_count_checker a_count_chk ("), "{copy}");
        let o = run(&dir, &sby, &["-f", "handshake.sby"]);
        let log = text(&o);
        for task in ["prove", "bmc"] {
            let verdict = if v.failing.is_empty() {
                "PASS, rc=0"
            } else {
                "FAIL, rc=2"
            };
            let done = format!("[handshake_{task}] DONE ({verdict})");
            assert!(log.contains(&done), "{}: no {done}\n{log}", v.name);
        }
        let failed: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("summary:   failed assertion"))
            .collect();
        for l in &failed {
            assert!(
                v.failing.iter().any(|p| l.contains(&format!(".{p}_chk."))),
                "{}: {l}\n{log}",
                v.name
            );
        }
        assert_eq!(
            failed.is_empty(),
            v.failing.is_empty(),
            "{}:\n{log}",
            v.name
        );
        if v.failing.is_empty() {
            assert!(log.contains("[handshake_cover] DONE (PASS, rc=0)"), "{log}");
        }
    }
}

/// Icarus simulates the design with the checkers in place of its
/// assertions (random requests, resets in mid-run and between edges):
/// the design breaks none, the mutants what the proofs say; and `mongen
/// check --sv` on the waveform, with the assertions' clock and `disable
/// iff` (an asynchronous reset) from the file, finds in every run between
/// two resets the very first violation each checker reports (a checker's
/// `violated` is sticky until reset).
#[test]
fn icarus_simulates_the_checkers_and_mongen_check_sv_agrees() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let tb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hardware/sva/handshake_tb.v");
    let mongen_bin = Path::new(env!("CARGO_BIN_EXE_mongen"));
    for v in &VARIANTS {
        let dir = project("sva-sim", v);
        std::fs::copy(&tb, dir.join("handshake_tb.v")).unwrap();
        let o = run(
            &dir,
            &iverilog,
            &[
                "-g2012",
                "-DASSERTIONS",
                "-o",
                "sim",
                "handshake_tb.v",
                "handshake_formal.sv",
                "handshake_checkers.v",
                "handshake_design.sv",
            ],
        );
        assert!(o.status.success(), "iverilog:\n{}", text(&o));
        let out = text(&run(&dir, &vvp, &["-n", "sim"]));
        assert!(out.contains("handshake_tb: done"), "{out}");
        let errors = checker_errors(&out, "handshake_tb.dut.dut.");
        let broken: Vec<&str> = errors.keys().map(String::as_str).collect();
        let mut failing = v.failing.to_vec();
        failing.sort();
        assert_eq!(broken, failing, "{}:\n{out}", v.name);
        if v.failing.is_empty() {
            assert!(out.contains("c_back_to_back_checker: covered"), "{out}");
        }
        let resets: Vec<u64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("handshake_tb: reset at "))
            .map(|t| t.trim().parse().unwrap())
            .collect();
        assert!(resets.len() > 10, "{out}");
        let o = run(
            &dir,
            mongen_bin,
            &[
                "check",
                "--sv",
                "handshake.sv",
                "-D",
                "FORMAL",
                "--all",
                "--max-reports",
                "1000000",
                "--json",
                "handshake_tb.vcd",
            ],
        );
        let reports = String::from_utf8_lossy(&o.stdout).to_string();
        assert_eq!(
            o.status.code(),
            Some(if v.failing.is_empty() { 0 } else { 1 }),
            "{}: mongen check:\n{}",
            v.name,
            text(&o)
        );
        // Four assertions and the assumption; the cover is not checked.
        assert_eq!(reports.lines().count(), 5, "{reports}");
        for line in reports.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let label = r["property"].as_str().unwrap();
            let times: Vec<u64> = r["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["time"].as_u64().unwrap())
                .collect();
            // The first violation after each reset.
            let firsts = first_after_each_reset(times, &resets);
            let reported = errors.get(label).cloned().unwrap_or_default();
            assert_eq!(firsts, reported, "{}: {label}", v.name);
        }
    }
}

/// A design as lowRISC and PULP write them: an immediate assertion with
/// an action block in an `initial` block and an assumption with a pass
/// and a fail statement (which Yosys 0.23 cannot read: they become `;` in
/// NAME_design.sv), and concurrent assertions with lowRISC's reset
/// `disable iff ((!rst_ni) !== '0)` and case equality. SymbiYosys proves
/// them, and refutes the mutant where `b` does not follow `a`.
#[test]
fn symbiyosys_reads_immediate_action_blocks_case_equality_and_fill_literals() {
    let Some(sby) = sby() else { return };
    let design = "module follow #(parameter DEPTH = 4) (input logic clk_i, rst_ni, a,
                                            output logic b);
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) b <= 1'b0; else b <= a;
  initial begin
    assert (DEPTH > 0) else $error(\"DEPTH must be greater than 0.\");
  end
  always @(posedge clk_i) assume (DEPTH < 64) $display(\"ok\"); else $fatal(1, \"deep\");
  Follows_A: assert property (@(posedge clk_i) disable iff ((!rst_ni) !== '0) a |=> b === 1'b1);
  Known_A: assert property (@(posedge clk_i) disable iff ((!rst_ni) !== '0) !a |=> b !== '0 == 1'b0);
endmodule
";
    for (name, text_of, verdict) in [
        ("good", design.to_string(), "PASS, rc=0"),
        (
            "mutant",
            design.replace("b <= a;", "b <= a & b;"),
            "FAIL, rc=2",
        ),
    ] {
        let dir = scratch(&format!("sva-sby-immediate-{name}"));
        std::fs::write(dir.join("follow.sv"), &text_of).unwrap();
        mongen(
            &dir,
            &[
                "compile",
                "--sv",
                "follow.sv",
                "-t",
                "verilog",
                "--sby",
                "follow",
                "--design",
                "follow.sv",
                "-o",
                "follow_checkers.v",
            ],
        );
        let copy = std::fs::read_to_string(dir.join("follow_design.sv")).unwrap();
        assert!(copy.contains("assert (DEPTH > 0) ;"), "{copy}");
        assert!(!copy.contains('$') && !copy.contains("property"), "{copy}");
        let checkers = std::fs::read_to_string(dir.join("follow_checkers.v")).unwrap();
        assert!(checkers.contains("==="), "{checkers}");
        let o = run(&dir, &sby, &["-f", "follow.sby", "prove"]);
        let log = text(&o);
        assert!(
            log.contains(&format!("[follow_prove] DONE ({verdict})")),
            "{name}:\n{log}"
        );
        if name == "mutant" {
            assert!(log.contains("Follows_A_chk"), "{log}");
        }
    }
}

/// A pipeline stage of two lanes that a flush empties, its assertions
/// disabled by the compound reset `!rst_ni || flush_i` (lowRISC's
/// manner), one per lane in a generate loop, and variants: the design with
/// one more line, and the assertions with `!rst_ni` alone.
const PIPE: &str = "module pipe #(parameter int N = 2)
            (input logic clk_i, rst_ni, flush_i, input logic [1:0] valid_i,
             output logic [1:0] valid_q);
  always_ff @(posedge clk_i or negedge rst_ni)
    if (!rst_ni) valid_q <= '0;
    else if (flush_i) valid_q <= '0;
    else valid_q <= valid_i;
  default clocking @(posedge clk_i); endclocking
  default disable iff (!rst_ni || flush_i);
  for (genvar i = 0; i < N; i++) begin : g
    Follow_A: assert property (valid_i[i] |=> valid_q[i]);
  end
  Drop_A: assert property (!valid_i[1] |=> !valid_q[1]);
endmodule
";

/// Random valid and flush, resets in mid-run (some between two edges),
/// each time the condition `!rst_ni || flush_i` turns true printed.
const PIPE_TB: &str = "module pipe_tb;
  reg clk_i = 1'b0;
  reg rst_ni = 1'b0;
  reg flush_i = 1'b0;
  reg [1:0] valid_i = 2'b00;
  wire [1:0] valid_q;
  integer cycle;
  integer seed = 5;
  pipe_formal dut (.clk_i(clk_i), .rst_ni(rst_ni), .flush_i(flush_i), .valid_i(valid_i),
                   .valid_q(valid_q));
  always #5 clk_i = !clk_i;
  initial begin
    $dumpfile(\"pipe_tb.vcd\");
    $dumpvars(1, pipe_tb.dut.dut);
    for (cycle = 0; cycle < 3000; cycle = cycle + 1) begin
      @(negedge clk_i);
      if (cycle < 2 || $urandom(seed) % 150 == 0) begin
        if (rst_ni && !flush_i) $display(\"pipe_tb: reset at %0t\", $time);
        rst_ni = 1'b0;
      end else begin
        rst_ni = 1'b1;
        if ($urandom(seed) % 25 == 0) begin
          if (!flush_i) $display(\"pipe_tb: reset at %0t\", $time);
          flush_i = 1'b1;
        end else begin
          flush_i = 1'b0;
        end
        valid_i = $urandom(seed) % 4;
        if (!flush_i && $urandom(seed) % 100 == 0) begin
          // A flush pulse between two edges.
          #2 $display(\"pipe_tb: reset at %0t\", $time);
          flush_i = 1'b1;
          #1 flush_i = 1'b0;
        end
      end
    end
    $display(\"pipe_tb: done\");
    $finish;
  end
endmodule
";

/// The pipeline's variants: the line replaced, and the assertions broken.
/// A variant: its name, the text replaced, the assertions it breaks.
type PipeVariant = (
    &'static str,
    Option<(&'static str, &'static str)>,
    &'static [&'static str],
);

const PIPE_VARIANTS: [PipeVariant; 3] = [
    ("good", None, &[]),
    // The stage keeps what it held: a valid after none.
    (
        "sticky",
        Some(("valid_q <= valid_i;", "valid_q <= valid_i | valid_q;")),
        &["Drop_A"],
    ),
    // The flush no longer excuses the assertions: the emptied stage
    // breaks Follow_A in both lanes.
    (
        "reset_only",
        Some(("disable iff (!rst_ni || flush_i)", "disable iff (!rst_ni)")),
        &["g_0_Follow_A", "g_1_Follow_A"],
    ),
];

fn pipe_project(test: &str, name: &str, mutation: Option<(&str, &str)>) -> PathBuf {
    let dir = scratch(&format!("{test}-{name}"));
    let mut design = PIPE.to_string();
    if let Some((from, to)) = mutation {
        assert_eq!(design.matches(from).count(), 1, "`{from}`");
        design = design.replace(from, to);
    }
    std::fs::write(dir.join("pipe.sv"), design).unwrap();
    mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "pipe.sv",
            "-t",
            "verilog",
            "--sby",
            "pipe",
            "--design",
            "pipe.sv",
            "-o",
            "pipe_checkers.v",
        ],
    );
    dir
}

/// The generate loop gives a checker per lane (`g[1].Follow_A` is
/// `g_1_Follow_A`); the compound reset drives the checkers' reset port (`disable_iff`,
/// connected to the condition in the design), the proof starts in the
/// design's reset (`!rst_ni`, not the flush that would excuse any
/// state): SymbiYosys proves the stage and refutes the variants, with
/// the assertions they break.
#[test]
fn symbiyosys_proves_assertions_under_a_compound_reset() {
    let Some(sby) = sby() else { return };
    for (name, mutation, failing) in PIPE_VARIANTS {
        let dir = pipe_project("sva-sby-compound", name, mutation);
        let copy = std::fs::read_to_string(dir.join("pipe_design.sv")).unwrap();
        if name != "reset_only" {
            assert!(
                copy.contains(".disable_iff(!rst_ni || flush_i)")
                    || copy.contains(".disable_iff(flush_i || !rst_ni)"),
                "{copy}"
            );
            let harness = std::fs::read_to_string(dir.join("pipe_formal.sv")).unwrap();
            assert!(harness.contains("assume (!rst_ni);"), "{harness}");
        }
        let o = run(&dir, &sby, &["-f", "pipe.sby", "prove"]);
        let log = text(&o);
        let verdict = if failing.is_empty() {
            "PASS, rc=0"
        } else {
            "FAIL, rc=2"
        };
        assert!(
            log.contains(&format!("[pipe_prove] DONE ({verdict})")),
            "{name}:\n{log}"
        );
        for label in ["g_0_Follow_A", "g_1_Follow_A", "Drop_A"] {
            assert_eq!(
                log.contains(&format!("{label}_chk")) && log.contains("failed assertion"),
                failing.contains(&label),
                "{name}: {label}\n{log}"
            );
        }
    }
}

/// Icarus simulates the stage with its checkers (random flushes, resets,
/// flush pulses between edges); `mongen check --sv` on the waveform, its
/// monitors held while `!rst_ni || flush_i` is true and restarted by a
/// pulse of it, finds the first violation after each reset that each
/// checker reports, and none for the good design.
#[test]
fn icarus_and_mongen_check_sv_agree_under_a_compound_reset() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let mongen_bin = Path::new(env!("CARGO_BIN_EXE_mongen"));
    for (name, mutation, failing) in PIPE_VARIANTS.iter().take(2) {
        let dir = pipe_project("sva-sim-compound", name, *mutation);
        std::fs::write(dir.join("pipe_tb.v"), PIPE_TB).unwrap();
        let o = run(
            &dir,
            &iverilog,
            &[
                "-g2012",
                "-DASSERTIONS",
                "-o",
                "sim",
                "pipe_tb.v",
                "pipe_formal.sv",
                "pipe_checkers.v",
                "pipe_design.sv",
            ],
        );
        assert!(o.status.success(), "iverilog:\n{}", text(&o));
        let out = text(&run(&dir, &vvp, &["-n", "sim"]));
        assert!(out.contains("pipe_tb: done"), "{out}");
        let errors = checker_errors(&out, "pipe_tb.dut.dut.");
        let broken: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(broken, failing.to_vec(), "{name}:\n{out}");
        let resets: Vec<u64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("pipe_tb: reset at "))
            .map(|t| t.trim().parse().unwrap())
            .collect();
        assert!(resets.len() > 50, "{out}");
        let o = run(
            &dir,
            mongen_bin,
            &[
                "check",
                "--sv",
                "pipe.sv",
                "--all",
                "--max-reports",
                "1000000",
                "--json",
                "pipe_tb.vcd",
            ],
        );
        assert_eq!(
            o.status.code(),
            Some(if failing.is_empty() { 0 } else { 1 }),
            "{name}: mongen check:\n{}",
            text(&o)
        );
        let reports = String::from_utf8_lossy(&o.stdout).to_string();
        assert_eq!(reports.lines().count(), 3, "{reports}");
        for line in reports.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let label = r["property"].as_str().unwrap();
            let times: Vec<u64> = r["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["time"].as_u64().unwrap())
                .collect();
            let firsts = first_after_each_reset(times, &resets);
            let reported = errors.get(label).cloned().unwrap_or_default();
            assert_eq!(firsts, reported, "{name}: {label}");
        }
    }
}
