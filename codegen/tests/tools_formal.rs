//! The formal and bind flows of the command line, with the real tools:
//!
//! * `--sby MODULE`: SymbiYosys proves the round-robin arbiter with the
//!   checkers of its properties (both tasks, k-induction and BMC) and
//!   refutes the fixed-priority one, naming the starvation property; the
//!   plain Yosys script the project's header gives agrees.
//! * `--bind MODULE`: Verilator honours the bind file (the buggy arbiter's
//!   checkers report violations, the good one's none); Yosys 0.23, which
//!   drops bound checkers and would prove anything, is stopped by the
//!   project's guard (`select -assert-min 1 t:CHECKER`) instead of proving.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{run, scratch, text, tool};

fn mongen(dir: &Path, args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run mongen");
    assert!(o.status.success(), "mongen {args:?}:\n{}", text(&o));
    text(&o)
}

fn example(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/hardware")
        .join(file)
        .display()
        .to_string()
}

/// SymbiYosys: on PATH, or where scripts/install-sby.sh puts it.
fn sby() -> Option<PathBuf> {
    let mut extra = Vec::new();
    if let Some(home) = std::env::var_os("HOME") {
        extra.push(Path::new(&home).join(".local/bin/sby"));
    }
    tool("sby", &extra, "scripts/install-sby.sh")
}

/// Compiles the arbiter's LTL properties into `props_checker.v` with a
/// harness and a project for `design`, in a fresh folder.
fn arbiter_project(test: &str, design: &str) -> PathBuf {
    let dir = scratch(test);
    // The design sits elsewhere: the project lists it by a relative path.
    mongen(
        &dir,
        &[
            "compile",
            "-t",
            "verilog",
            "--name",
            "props",
            "--sby",
            "arbiter",
            "--bind",
            "arbiter",
            "--design",
            &example(design),
            "-F",
            &example("properties.ltl"),
            "-o",
            "props_checker.v",
        ],
    );
    dir
}

#[test]
fn symbiyosys_proves_the_arbiter_and_refutes_the_buggy_one() {
    let Some(sby) = sby() else { return };
    let dir = arbiter_project("sby-good", "arbiter.v");
    let o = run(&dir, &sby, &["-f", "props.sby"]);
    let log = text(&o);
    assert!(o.status.success(), "sby on arbiter.v:\n{log}");
    for task in ["prove", "bmc"] {
        assert!(
            log.contains(&format!("[props_{task}] DONE (PASS, rc=0)")),
            "{task}:\n{log}"
        );
    }
    let dir = arbiter_project("sby-bug", "arbiter_bug.v");
    let o = run(&dir, &sby, &["-f", "props.sby"]);
    let log = text(&o);
    assert!(!o.status.success(), "sby proved arbiter_bug.v:\n{log}");
    assert!(log.contains("[props_prove] DONE (FAIL, rc=2)"), "{log}");
    // properties.ltl's third property: a request held for two cycles is
    // granted within them, which fixed priority breaks.
    let failed: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("summary:   failed assertion"))
        .collect();
    assert!(!failed.is_empty(), "{log}");
    assert!(
        failed
            .iter()
            .all(|l| l.contains("props_formal.props_3_chk.")),
        "{failed:#?}"
    );
}

/// The header's command for Yosys without SymbiYosys, run in the
/// project's folder.
fn header_yosys_script(dir: &Path) -> String {
    let sby = std::fs::read_to_string(dir.join("props.sby")).unwrap();
    let line = sby
        .lines()
        .find_map(|l| l.strip_prefix("# Without SymbiYosys, from this folder: yosys -p '"))
        .unwrap_or_else(|| panic!("no yosys command in\n{sby}"));
    line.strip_suffix('\'').unwrap().to_string()
}

#[test]
fn yosys_script_of_the_project_agrees() {
    let Some(yosys) = tool("yosys", &[], "apt-get install -y yosys") else {
        return;
    };
    let dir = arbiter_project("yosys-good", "arbiter.v");
    let log = text(&run(&dir, &yosys, &["-p", &header_yosys_script(&dir)]));
    assert!(log.contains("Induction step proven: SUCCESS"), "{log}");
    let dir = arbiter_project("yosys-bug", "arbiter_bug.v");
    let log = text(&run(&dir, &yosys, &["-p", &header_yosys_script(&dir)]));
    assert!(log.contains("model found for base case: FAIL"), "{log}");
}

/// A testbench that drives the arbiter alone (the checkers come from the
/// bind file), as arbiter_tb.v does, and prints the checkers' errors.
const BIND_TB: &str = "module bind_tb;
  reg clk = 1'b0;
  reg rst_n = 1'b0;
  reg req0 = 1'b0;
  reg req1 = 1'b0;
  wire gnt0, gnt1;
  integer cycle;
  integer seed = 1;
  arbiter dut (.clk(clk), .rst_n(rst_n), .req0(req0), .req1(req1), .gnt0(gnt0), .gnt1(gnt1));
  always #5 clk = !clk;
  initial begin
    for (cycle = 0; cycle < 400; cycle = cycle + 1) begin
      @(negedge clk);
      rst_n = cycle > 1;
      req0 = (req0 && !gnt0) || ($random(seed) % 3 == 0);
      req1 = (req1 && !gnt1) || ($random(seed) % 2 == 0);
    end
    $display(\"bind_tb: done\");
    $finish;
  end
endmodule
";

#[test]
fn verilator_honours_the_bind_file_and_yosys_is_stopped() {
    let Some(verilator) = tool("verilator", &[], "apt-get install -y verilator") else {
        return;
    };
    let yosys = tool("yosys", &[], "apt-get install -y yosys").unwrap();
    for (design, buggy) in [("arbiter.v", false), ("arbiter_bug.v", true)] {
        let dir = arbiter_project(&format!("bind-{design}"), design);
        std::fs::write(dir.join("bind_tb.v"), BIND_TB).unwrap();
        let o = run(
            &dir,
            &verilator,
            &[
                "--binary",
                "--timing",
                "--assert",
                "-DASSERTIONS",
                "-Wno-fatal",
                "--top-module",
                "bind_tb",
                "-Mdir",
                "obj",
                "-o",
                "sim",
                "bind_tb.v",
                &example(design),
                "props_checker.v",
                "props_bind.sv",
            ],
        );
        assert!(o.status.success(), "verilator:\n{}", text(&o));
        let o = run(
            &dir,
            &dir.join("obj/sim"),
            &["+verilator+error+limit+100000"],
        );
        let out = text(&o);
        assert!(out.contains("bind_tb: done"), "{out}");
        let errors = out
            .lines()
            .filter(|l| l.contains("_checker: property"))
            .count();
        if buggy {
            assert!(errors > 0, "no violation reported on {design}:\n{out}");
            assert!(out.contains("props_3_checker: property"), "{out}");
        } else {
            assert_eq!(errors, 0, "violations on {design}:\n{out}");
        }
        // Yosys with the bind file instead of the harness, as a user might
        // try: the guard stops it before any proof.
        let script = format!(
            "read_verilog -formal -sv {} props_checker.v props_bind.sv; prep -top arbiter; \
             select -assert-min 1 t:props_1_checker; flatten; async2sync; dffunmap; \
             sat -tempinduct -prove-asserts -set-assumes -maxsteps 20 arbiter",
            example(design)
        );
        let o = run(&dir, &yosys, &["-p", &script]);
        let log = text(&o);
        assert!(
            !o.status.success() && !log.contains("SUCCESS"),
            "Yosys with a bind file:\n{log}"
        );
        assert!(log.contains("selection contains 0 elements"), "{log}");
    }
}
