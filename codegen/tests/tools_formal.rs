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
//! * A real design (examples/hardware/fifo: F4PGA's FIFO controller, read
//!   side) with its vunit: SymbiYosys proves it and reaches its covers,
//!   refutes two buggy variants naming the broken assertions; Icarus
//!   simulates it, and `mongen check` on the waveform finds what the
//!   checkers report.

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

fn example(file: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/hardware")
        .join(file)
        .display()
        .to_string()
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

/// The header's command for Yosys without SymbiYosys, as a user pastes it
/// into a shell in the project's folder: its output.
fn run_header_yosys(dir: &Path, project: &str) -> String {
    let sby = std::fs::read_to_string(dir.join(project)).unwrap();
    let line = sby
        .lines()
        .find_map(|l| l.strip_prefix("# Without SymbiYosys, from this folder: "))
        .unwrap_or_else(|| panic!("no yosys command in\n{sby}"));
    assert!(line.starts_with("yosys -p "), "{line}");
    let yosys = tool("yosys", &[], "apt-get install -y yosys").unwrap();
    let mut path = std::ffi::OsString::from(yosys.parent().unwrap());
    path.push(":/usr/bin:/bin");
    let o = Command::new("sh")
        .args(["-c", line])
        .env("PATH", path)
        .current_dir(dir)
        .output()
        .expect("run sh");
    text(&o)
}

#[test]
fn yosys_script_of_the_project_agrees() {
    if tool("yosys", &[], "apt-get install -y yosys").is_none() {
        return;
    }
    let dir = arbiter_project("yosys-good", "arbiter.v");
    let log = run_header_yosys(&dir, "props.sby");
    assert!(log.contains("Induction step proven: SUCCESS"), "{log}");
    let dir = arbiter_project("yosys-bug", "arbiter_bug.v");
    let log = run_header_yosys(&dir, "props.sby");
    assert!(log.contains("model found for base case: FAIL"), "{log}");
}

/// Issue 36, item 8: paths reach the project's shell line, Yosys's script
/// and SymbiYosys's sections quoted. A design named `x.v; exec -- touch
/// PWNED ;x.v` in a folder with a space, two designs of one base name, and
/// checkers written to `out'dir/it's.v`: pasting the header's Yosys command
/// proves the arbiter and runs nothing else, and SymbiYosys proves it too
/// (on the last commit the shell line ran `touch`, and `[files]` split the
/// paths at their spaces).
#[test]
fn hostile_paths_are_quoted_for_the_shell_yosys_and_symbiyosys() {
    let Some(sby) = sby() else { return };
    let dir = scratch("sby-paths");
    let design_dir = dir.join("my rtl");
    std::fs::create_dir_all(&design_dir).unwrap();
    std::fs::create_dir_all(dir.join("other")).unwrap();
    std::fs::create_dir_all(dir.join("out'dir")).unwrap();
    let hostile = "x.v; exec -- touch PWNED ;x.v";
    std::fs::copy(example("arbiter.v"), design_dir.join(hostile)).unwrap();
    // A second file of the same base name: SymbiYosys copies both into one
    // folder, so they need different names there.
    std::fs::write(
        dir.join("other").join(hostile),
        "module unused_twin (input wire a, output wire b);\n  assign b = a;\nendmodule\n",
    )
    .unwrap();
    let design = format!("my rtl/{hostile}");
    let twin = format!("other/{hostile}");
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
            "--design",
            &design,
            "--design",
            &twin,
            "-F",
            &example("properties.ltl"),
            "-o",
            "out'dir/it's.v",
        ],
    );
    let project = dir.join("out'dir");
    let log = run_header_yosys(&project, "props.sby");
    assert!(log.contains("Induction step proven: SUCCESS"), "{log}");
    let o = run(&project, &sby, &["-f", "props.sby"]);
    let log = text(&o);
    assert!(o.status.success(), "sby:\n{log}");
    for task in ["prove", "bmc"] {
        assert!(
            log.contains(&format!("[props_{task}] DONE (PASS, rc=0)")),
            "{task}:\n{log}"
        );
    }
    for d in [&dir, &project, &design_dir] {
        assert!(
            !d.join("PWNED").exists(),
            "a command ran in {}",
            d.display()
        );
    }
    let sby_text = std::fs::read_to_string(project.join("props.sby")).unwrap();
    assert!(!sby_text.contains("PWNED ;x.v\n"), "{sby_text}");

    // What neither tool can read is refused, naming the file.
    for bad in ["a\nb.v", "q\"uote.v"] {
        std::fs::copy(example("arbiter.v"), dir.join(bad)).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args([
                "compile", "-t", "verilog", "--sby", "arbiter", "--design", bad,
            ])
            .args(["-f", "G !(gnt0 & gnt1)", "-o", "bad.v"])
            .current_dir(&dir)
            .output()
            .unwrap();
        let err = text(&o);
        assert!(!o.status.success(), "{err}");
        assert!(err.contains("cannot read a path holding"), "{err}");
        // The path is named on one line, its line break escaped.
        assert!(err.contains(&bad.replace('\n', "\\n")), "{err}");
    }
}

/// A design whose ports are named like the harness's own names (`dut`,
/// `f_init`, the checkers' instances), like the harness module and like the
/// design module itself, one of them an escaped identifier (`\req+1 `).
fn clash_design(buggy: bool) -> String {
    let next = if buggy { "!\\req+1 " } else { "\\req+1 " };
    format!(
        "module esc (
  input  wire clk,
  input  wire rst_n,
  input  wire \\req+1 ,
  input  wire f_init,
  input  wire dut,
  input  wire props_1_chk,
  input  wire props_formal,
  output reg  esc,
  output reg  props_chk
);
  always @(posedge clk)
    if (!rst_n) begin
      esc <= 1'b0;
      props_chk <= 1'b0;
    end else begin
      esc <= {next};
      props_chk <= f_init ^ dut ^ props_1_chk ^ props_formal;
    end
endmodule
"
    )
}

/// Issue 36, item 14: the harness keeps the backslash of an escaped port
/// (`\req+1 `) and gives its own instances and register names that no
/// port has (and itself a module name no port has): SymbiYosys proves the
/// design and refutes a buggy one on the right checker, Verilator lints
/// the harness and Icarus compiles it. On the last commit the harness
/// declared `input wire req+1` and a second `dut` and `f_init`.
#[test]
fn harness_names_avoid_the_design_ports_and_keep_escaped_identifiers() {
    let Some(sby) = sby() else { return };
    let verilator = tool("verilator", &[], "apt-get install -y verilator").unwrap();
    let iverilog = tool("iverilog", &[], "apt-get install -y iverilog").unwrap();
    for buggy in [false, true] {
        let dir = scratch(&format!("harness-clash-{buggy}"));
        std::fs::write(dir.join("esc.v"), clash_design(buggy)).unwrap();
        std::fs::write(
            dir.join("p.ltl"),
            "G(\"\\\\req+1 \" -> X esc)\nG((f_init ^ dut ^ props_1_chk ^ props_formal) -> X props_chk)\n",
        )
        .unwrap();
        let out = mongen(
            &dir,
            &[
                "compile",
                "-t",
                "verilog",
                "--name",
                "props",
                "--sby",
                "esc",
                "--design",
                "esc.v",
                "-F",
                "p.ltl",
                "-o",
                "props_checker.v",
            ],
        );
        // A port is named props_formal: the harness is props_formal_2.
        assert!(out.contains("props_formal_2.sv"), "{out}");
        let harness = std::fs::read_to_string(dir.join("props_formal_2.sv")).unwrap();
        assert!(harness.contains("  input  wire \\req+1 ,\n"), "{harness}");
        assert!(harness.contains("  esc dut_2 ("), "{harness}");
        assert!(
            harness.contains("props_1_checker props_1_chk_2 ("),
            "{harness}"
        );
        assert!(harness.contains("reg f_init_2 = 1'b1;"), "{harness}");
        let o = run(
            &dir,
            &verilator,
            &[
                "--lint-only",
                "-Wall",
                "-Wno-PINCONNECTEMPTY",
                "-Wno-DECLFILENAME",
                "-Wno-VARHIDDEN",
                "--top-module",
                "props_formal_2",
                "props_formal_2.sv",
                "props_checker.v",
                "esc.v",
            ],
        );
        assert!(o.status.success(), "verilator:\n{}", text(&o));
        let o = run(
            &dir,
            &iverilog,
            &[
                "-g2012",
                "-o",
                "sim",
                "props_formal_2.sv",
                "props_checker.v",
                "esc.v",
            ],
        );
        assert!(o.status.success(), "iverilog:\n{}", text(&o));
        let o = run(&dir, &sby, &["-f", "props.sby"]);
        let log = text(&o);
        assert_eq!(o.status.success(), !buggy, "sby:\n{log}");
        let verdict = if buggy { "FAIL, rc=2" } else { "PASS, rc=0" };
        assert!(
            log.contains(&format!("[props_prove] DONE ({verdict})")),
            "{log}"
        );
        if buggy {
            let failed: Vec<&str> = log
                .lines()
                .filter(|l| l.contains("summary:   failed assertion"))
                .collect();
            assert!(!failed.is_empty(), "{log}");
            assert!(
                failed
                    .iter()
                    .all(|l| l.contains("props_formal_2.props_1_chk_2.")),
                "{failed:#?}"
            );
        }
    }
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
        // try, and without the project's guard: the bind file itself stops
        // it, with a message that says why (issue 36, item 9: Yosys 0.23
        // proved the buggy arbiter this way).
        let script = format!(
            "read_verilog -formal -sv {} props_checker.v props_bind.sv; prep -top arbiter; \
             flatten; async2sync; dffunmap; \
             sat -tempinduct -prove-asserts -set-assumes -maxsteps 20 arbiter",
            example(design)
        );
        let o = run(&dir, &yosys, &["-p", &script]);
        let log = text(&o);
        assert!(
            !o.status.success() && !log.contains("SUCCESS"),
            "Yosys with a bind file:\n{log}"
        );
        assert!(
            log.contains("props_bind.sv:") && log.contains("`mongen_bind_files_are_not_for_Yosys"),
            "{log}"
        );
    }
}

/// The design of examples/hardware/fifo: F4PGA's FIFO controller, from the
/// technology libraries of the Yosys that scripts/install-sby.sh installs.
fn f4pga_fifo() -> Option<PathBuf> {
    common::installed(
        "quicklogic/qlf_k6n10f/ufifo_ctl.v",
        "MONGEN_YOSYS_SHARE",
        "yosys-share",
        " (YoWASP's Yosys libraries)",
        "scripts/install-sby.sh",
    )
}

/// A variant of the FIFO's read side, its failing assertions and its
/// unreachable covers.
struct FifoVariant {
    name: &'static str,
    /// A replacement in ufifo_ctl.v (the text must occur once).
    mutation: Option<(&'static str, &'static str)>,
    failing: &'static [&'static str],
    unreached: &'static [&'static str],
}

const FIFO_VARIANTS: [FifoVariant; 3] = [
    FifoVariant {
        name: "f4pga",
        mutation: None,
        failing: &[],
        unreached: &[],
    },
    // The underflow flag takes the next cycle's emptiness: a read that
    // empties the FIFO is flagged an underflow, one of an empty FIFO that
    // a write fills is not.
    FifoVariant {
        name: "next-empty",
        mutation: Some(("underflow <= empty;", "underflow <= empty_next;")),
        failing: &["underflow_on_empty_read", "no_underflow_on_read"],
        unreached: &[],
    },
    // No underflow ever.
    FifoVariant {
        name: "no-underflow",
        mutation: Some(("underflow <= empty;", "underflow <= 1'b0;")),
        failing: &["underflow_on_empty_read"],
        unreached: &["c_underflow"],
    },
];

/// Writes a variant of the FIFO beside the example's vunit and testbench,
/// and compiles the checkers, harness and project.
fn fifo_project(test: &str, v: &FifoVariant) -> PathBuf {
    let dir = scratch(&format!("{test}-{}", v.name));
    let mut design = std::fs::read_to_string(f4pga_fifo().unwrap()).unwrap();
    if let Some((from, to)) = v.mutation {
        assert_eq!(design.matches(from).count(), 1, "`{from}` in ufifo_ctl.v");
        design = design.replace(from, to);
    }
    std::fs::write(dir.join("ufifo_ctl.v"), design).unwrap();
    for f in ["fifo_pop.psl", "fifo_tb.v"] {
        std::fs::copy(example(&format!("fifo/{f}")), dir.join(f)).unwrap();
    }
    mongen(
        &dir,
        &[
            "compile",
            "-t",
            "verilog",
            "--vunit",
            "fifo_pop.psl",
            "--design",
            "ufifo_ctl.v",
            "--sby",
            "-o",
            "fifo_pop_checkers.v",
        ],
    );
    dir
}

/// A real design (examples/hardware/fifo): SymbiYosys proves the read side
/// of F4PGA's FIFO controller against the vunit's assertions under its
/// assumption and reaches its covers, and refutes two buggy variants with
/// the assertions they break (and the cover one makes unreachable); the
/// project's plain Yosys script agrees.
#[test]
fn symbiyosys_proves_the_f4pga_fifo_and_refutes_its_bugs() {
    let Some(sby) = sby() else { return };
    if f4pga_fifo().is_none() {
        return;
    }
    for v in &FIFO_VARIANTS {
        let dir = fifo_project("fifo-sby", v);
        let o = run(&dir, &sby, &["-f", "fifo_pop_props.sby"]);
        let log = text(&o);
        assert_eq!(
            o.status.success(),
            v.failing.is_empty() && v.unreached.is_empty(),
            "{}:\n{log}",
            v.name
        );
        for task in ["prove", "bmc"] {
            let verdict = if v.failing.is_empty() {
                "PASS, rc=0"
            } else {
                "FAIL, rc=2"
            };
            let done = format!("[fifo_pop_props_{task}] DONE ({verdict})");
            assert!(log.contains(&done), "{}: no {done}\n{log}", v.name);
        }
        let failed: Vec<&str> = log
            .lines()
            .filter(|l| l.contains("summary:   failed assertion"))
            .collect();
        assert_eq!(
            failed.is_empty(),
            v.failing.is_empty(),
            "{}:\n{log}",
            v.name
        );
        for l in &failed {
            assert!(
                v.failing
                    .iter()
                    .any(|p| l.contains(&format!("fifo_pop_props_formal.{p}_chk."))),
                "{}: {l}",
                v.name
            );
        }
        let cover = if v.unreached.is_empty() {
            "PASS, rc=0"
        } else {
            "FAIL, rc=2"
        };
        assert!(
            log.contains(&format!("[fifo_pop_props_cover] DONE ({cover})")),
            "{}:\n{log}",
            v.name
        );
        for c in v.unreached {
            assert!(
                log.contains(&format!(
                    "Unreached cover statement at fifo_pop_props_formal.{c}_chk"
                )),
                "{}:\n{log}",
                v.name
            );
        }
        let log = run_header_yosys(&dir, "fifo_pop_props.sby");
        let expected = if v.failing.is_empty() {
            "Induction step proven: SUCCESS"
        } else {
            "model found for base case: FAIL"
        };
        assert!(log.contains(expected), "{}: yosys:\n{log}", v.name);
    }
}

/// The FIFO simulated by Icarus with its checkers, random reads and writes,
/// resets in mid-run and reset pulses between clock edges: the real design
/// breaks no assertion and reaches both covers, the buggy ones break what
/// the proofs say. And `mongen check --vunit` on the simulation's waveform
/// (the vunit's clock, its `disable iff` an asynchronous reset) finds in
/// every run between two resets the very first violation each checker
/// reports (a checker's `violated` is sticky until reset).
#[test]
fn icarus_simulates_the_f4pga_fifo_and_mongen_check_agrees() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    if f4pga_fifo().is_none() {
        return;
    }
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let mongen_bin = Path::new(env!("CARGO_BIN_EXE_mongen"));
    for v in &FIFO_VARIANTS {
        let dir = fifo_project("fifo-sim", v);
        let o = run(
            &dir,
            &iverilog,
            &[
                "-g2012",
                "-DASSERTIONS",
                "-o",
                "sim",
                "fifo_tb.v",
                "fifo_pop_props_formal.sv",
                "fifo_pop_checkers.v",
                "ufifo_ctl.v",
            ],
        );
        assert!(o.status.success(), "iverilog:\n{}", text(&o));
        let out = text(&run(&dir, &vvp, &["-n", "sim"]));
        assert!(out.contains("fifo_tb: done"), "{out}");
        let errors = checker_errors(&out, "fifo_tb.dut.");
        let broken: Vec<&str> = errors.keys().map(String::as_str).collect();
        let mut failing = v.failing.to_vec();
        failing.sort();
        assert_eq!(broken, failing, "{}:\n{out}", v.name);
        for c in ["c_underflow", "c_drain"] {
            assert_eq!(
                out.contains(&format!("{c}_checker: covered")),
                !v.unreached.contains(&c),
                "{}: {c}\n{out}",
                v.name
            );
        }
        let resets: Vec<u64> = out
            .lines()
            .filter_map(|l| l.strip_prefix("fifo_tb: reset at "))
            .map(|t| t.trim().parse().unwrap())
            .collect();
        assert!(resets.len() > 10, "{out}");
        // The vunit's assertions and assumption, at its clock, restarted by
        // its `disable iff`: an asynchronous reset.
        let o = run(
            &dir,
            mongen_bin,
            &[
                "check",
                "--vunit",
                "fifo_pop.psl",
                "--all",
                "--max-reports",
                "1000000",
                "--json",
                "fifo_tb.vcd",
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
        assert_eq!(reports.lines().count(), 8, "{reports}");
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
