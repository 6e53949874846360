//! Real designs whose concurrent SVA was written for commercial tools, read
//! by `mongen --sv` (examples/hardware/sva; scripts/install-sva-designs.sh
//! installs them from PyPI):
//!
//! * OpenHW Group's CV32E40P FIFO (`cv32e40p_fifo.sv`, its assertions under
//!   `` `ifdef CV32E40P_ASSERT_ON``) and PULP's `fifo_v3.sv` (common_cells):
//!   both labelled assertions become checkers named by their labels.
//! * Verilator (`--assert`) is a second oracle on the CV32E40P FIFO: random
//!   pushes and pops, resets in mid-run; the cycles where its assertions
//!   fail are those where `mongen check --sv` finds them in the waveform.

mod common;

use std::path::Path;

use common::{run, scratch, sva_design as design, text, tool};

const CV32E40P_FIFO: &str =
    "pythondata_cpu_cv32e40p/pythondata_cpu_cv32e40p/system_verilog/rtl/cv32e40p_fifo.sv";
const FIFO_V3: &str = "pythondata_cpu_cva6/pythondata_cpu_cva6/system_verilog/common/submodules/common_cells/src/fifo_v3.sv";

fn mongen(dir: &Path, args: &[&str]) -> std::process::Output {
    run(dir, Path::new(env!("CARGO_BIN_EXE_mongen")), args)
}

/// The names of the checker modules in a Verilog file, in order.
fn checkers(verilog: &str) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|l| l.split([' ', '(', '#']).next().unwrap().to_string())
        .collect()
}

/// Both FIFOs' assertions (`full_write`, `empty_read`) become checkers
/// named by their labels; the CV32E40P's need `-D CV32E40P_ASSERT_ON`, and
/// without it the refusal says so.
#[test]
fn mongen_reads_the_assertions_of_the_real_fifos() {
    let (Some(cv), Some(v3)) = (design(CV32E40P_FIFO), design(FIFO_V3)) else {
        return;
    };
    let dir = scratch("sva-designs-read");
    let (cv, v3) = (cv.display().to_string(), v3.display().to_string());
    for (file, defines) in [
        (&cv, &["-D", "CV32E40P_ASSERT_ON"][..]),
        (&cv, &["-DCV32E40P_ASSERT_ON=1"][..]),
        (&v3, &[][..]),
    ] {
        let mut args = vec!["compile", "--sv", file.as_str()];
        args.extend(defines);
        args.extend(["-t", "verilog", "-o", "checkers.v"]);
        let o = mongen(&dir, &args);
        assert!(o.status.success(), "{args:?}:\n{}", text(&o));
        let v = std::fs::read_to_string(dir.join("checkers.v")).unwrap();
        assert_eq!(
            checkers(&v),
            ["full_write_checker", "empty_read_checker"],
            "{v}"
        );
    }
    let o = mongen(&dir, &["compile", "--sv", &cv, "-t", "verilog"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("-D NAME"), "{}", text(&o));
}

const PRIM_ARBITER_PPC: &str = "pythondata_cpu_ibex/pythondata_cpu_ibex/system_verilog/vendor/lowrisc_ip/ip/prim/rtl/prim_arbiter_ppc.sv";

/// lowRISC's arbiter with its own macros (`-I` their folder): its
/// assertions expand to `disable iff ((!rst_ni) !== '0)`, the reset
/// `rst_ni` active low. The file is refused as a whole (`DataFlow_A` is in
/// a generate `if`); with the assertions that mongen does not read blanked
/// (reductions, `$onehot0` of a vector, selects by a signal, the generate
/// block), the four left become checkers; and a select by a signal,
/// `gnt_o[idx_o]`, reads with the widths of the ports (`[N-1:0]`,
/// `[IdxW-1:0]`, `IdxW = $clog2(N)`): a proposition per bit and per index.
#[test]
fn mongen_reads_lowrisc_assertions_through_their_macros() {
    let Some(file) = design(PRIM_ARBITER_PPC) else {
        return;
    };
    let dir = scratch("sva-designs-lowrisc");
    let include = file.parent().unwrap().display().to_string();
    let source = std::fs::read_to_string(&file).unwrap();
    // The macro calls, `NAME(...)` with balanced parentheses.
    let mut kept = String::new();
    let mut rest = source.as_str();
    let mut refused_select = None;
    while let Some(at) = rest.find('`') {
        kept.push_str(&rest[..at]);
        let call = &rest[at..];
        let Some(open) = call.find('(').filter(|&o| {
            matches!(
                &call[1..o],
                "ASSERT" | "ASSUME" | "ASSERT_KNOWN" | "ASSERT_INIT"
            )
        }) else {
            kept.push('`');
            rest = &call[1..];
            continue;
        };
        let mut depth = 0;
        let end = call
            .char_indices()
            .skip(open)
            .find(|&(_, c)| {
                depth += match c {
                    '(' => 1,
                    ')' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .unwrap()
            .0
            + 1;
        let text = &call[..end];
        let name = text[open + 1..].split(',').next().unwrap().trim();
        let wanted = [
            "NoReadyValidNoGrant_A",
            "ValidKnown_A",
            "GrantKnown_A",
            "IdxKnown_A",
        ];
        if wanted.contains(&name) {
            kept.push_str(text);
        } else {
            if name == "IndexIsCorrect_A" {
                refused_select = Some(text.to_string());
            }
            kept.extend(text.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        }
        rest = &call[end..];
    }
    kept.push_str(rest);
    // The generate block of `DataFlow_A`, to its `end`, blanked.
    let block = "if (EnDataPort) begin: gen_data_port_assertion";
    let at = kept.find(block).expect("the generate block of DataFlow_A");
    let end = at + kept[at..].find("\nend\n").expect("its end") + "\nend".len();
    let blank: String = kept[at..end]
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect();
    let kept = format!("{}{blank}{}", &kept[..at], &kept[end..]);
    std::fs::write(dir.join("arb.sv"), &kept).unwrap();
    let args = [
        "compile", "--sv", "arb.sv", "-I", &include, "-t", "verilog", "-o", "arb.v",
    ];
    let o = mongen(&dir, &args);
    assert!(o.status.success(), "{}\n{kept}", text(&o));
    let v = std::fs::read_to_string(dir.join("arb.v")).unwrap();
    assert_eq!(
        checkers(&v),
        [
            "ValidKnown_A_checker",
            "GrantKnown_A_checker",
            "IdxKnown_A_checker",
            "NoReadyValidNoGrant_A_checker"
        ],
        "{v}"
    );
    // The reset is the port `rst_ni`, active low.
    assert!(
        v.contains("rst_ni       asynchronous active-low reset"),
        "{v}"
    );
    let select = refused_select.expect("IndexIsCorrect_A in the file");
    let one = kept.replacen(
        "`ASSERT_KNOWN(ValidKnown_A, valid_o)",
        &format!("{select}\n"),
        1,
    );
    std::fs::write(dir.join("select.sv"), &one).unwrap();
    let o = mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "select.sv",
            "-I",
            &include,
            "-t",
            "verilog",
            "-o",
            "select.v",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    let v = std::fs::read_to_string(dir.join("select.v")).unwrap();
    assert!(v.contains("module IndexIsCorrect_A_checker"), "{v}");
    // N = 8 grants, indices of $clog2(8) = 3 bits: 0 to 7, no more.
    for i in 0..8 {
        assert!(v.contains(&format!("gnt_o[{i}] -> gnt_o_{i}_")), "{i}: {v}");
        assert!(v.contains(&format!("idx_o == {i} -> ")), "{i}: {v}");
    }
    assert!(!v.contains("gnt_o[8]") && !v.contains("idx_o == 8"), "{v}");
}

/// A testbench of the CV32E40P FIFO (4 entries): phases of pushes and pops
/// in random proportions, so that it fills and drains, pushes when full and
/// pops when empty; a reset of one to three cycles now and then, changed
/// between clock edges. Prints `tb: reset at T` for each.
const FIFO_TB: &str = r#"
module tb;
  logic clk = 0, rst_ni = 0, push_i = 0, pop_i = 0, full_o, empty_o;
  logic [3:0] cnt_o;
  logic [7:0] data_i = 0, data_o;
  cv32e40p_fifo #(.DATA_WIDTH(8), .DEPTH(4)) dut (.clk_i(clk), .rst_ni(rst_ni),
    .flush_i(1'b0), .flush_but_first_i(1'b0), .testmode_i(1'b0), .full_o(full_o),
    .empty_o(empty_o), .cnt_o(cnt_o), .data_i(data_i), .push_i(push_i),
    .data_o(data_o), .pop_i(pop_i));
  always #5 clk = ~clk;
  int seed, cycle, push_odds, pop_odds, hold;
  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    void'($urandom(seed));
    $dumpfile("tb.vcd");
    $dumpvars(0, tb);
    #12 rst_ni = 1;
    for (cycle = 0; cycle < 2000; cycle++) begin
      @(negedge clk);
      if (cycle % 50 == 0) begin
        push_odds = $urandom % 5;
        pop_odds = $urandom % 5;
      end
      if (hold > 0) begin
        hold--;
        if (hold == 0) rst_ni = 1;
      end else if ($urandom % 97 == 0) begin
        hold = 1 + $urandom % 3;
        rst_ni = 0;
        $display("tb: reset at %0t", $time);
      end
      push_i = ($urandom % 4) < push_odds;
      pop_i = ($urandom % 4) < pop_odds;
      data_i = $urandom;
    end
    $display("tb: done");
    $finish;
  end
endmodule
"#;

/// Verilator's failures: `[T] %Error: FILE:LINE: Assertion failed in
/// TOP.tb.dut.LABEL: ...`, by label.
fn verilator_failures(out: &str) -> std::collections::BTreeMap<String, Vec<u64>> {
    let mut failures = std::collections::BTreeMap::<String, Vec<u64>>::new();
    for l in out.lines() {
        let Some((time, rest)) = l.strip_prefix('[').and_then(|l| l.split_once("] ")) else {
            continue;
        };
        let Some((_, scope)) = rest.split_once("Assertion failed in TOP.tb.dut.") else {
            continue;
        };
        let label = scope.split(':').next().unwrap();
        failures
            .entry(label.to_string())
            .or_default()
            .push(time.parse().unwrap());
    }
    failures
}

/// Verilator is a second oracle: the CV32E40P FIFO simulated with its own
/// assertions (`--assert`, their `$fatal` counted, not stopping the run),
/// on three seeds; `mongen check --sv` on the waveform reports the same
/// violations at the same times, label by label, restarted by the resets
/// (`disable iff (~rst_ni)`).
#[test]
fn verilator_and_mongen_check_agree_on_the_cv32e40p_fifo() {
    let Some(verilator) = tool("verilator", &[], "apt-get install -y verilator") else {
        return;
    };
    let Some(fifo) = design(CV32E40P_FIFO) else {
        return;
    };
    let dir = scratch("sva-designs-verilator");
    std::fs::copy(&fifo, dir.join("cv32e40p_fifo.sv")).unwrap();
    std::fs::write(dir.join("tb.sv"), FIFO_TB).unwrap();
    let o = run(
        &dir,
        &verilator,
        &[
            "--binary",
            "--timing",
            "--trace",
            "--assert",
            "-DCV32E40P_ASSERT_ON",
            "-Wno-fatal",
            "--top-module",
            "tb",
            "-o",
            "sim",
            "tb.sv",
            "cv32e40p_fifo.sv",
        ],
    );
    assert!(o.status.success(), "verilator:\n{}", text(&o));
    for seed in [1, 2, 3] {
        let o = run(
            &dir,
            &dir.join("obj_dir/sim"),
            &[&format!("+seed={seed}"), "+verilator+error+limit+1000000"],
        );
        let out = text(&o);
        assert!(out.contains("tb: done"), "seed {seed}:\n{out}");
        assert!(
            out.matches("tb: reset at").count() > 5,
            "seed {seed}:\n{out}"
        );
        let failures = verilator_failures(&out);
        for label in ["full_write", "empty_read"] {
            assert!(
                failures.get(label).is_some_and(|f| f.len() > 5),
                "seed {seed}: {label} fails too rarely to compare:\n{out}"
            );
        }
        let o = mongen(
            &dir,
            &[
                "check",
                "--sv",
                "cv32e40p_fifo.sv",
                "-D",
                "CV32E40P_ASSERT_ON",
                "--all",
                "--max-reports",
                "1000000",
                "--json",
                "tb.vcd",
            ],
        );
        assert_eq!(o.status.code(), Some(1), "seed {seed}:\n{}", text(&o));
        let reports = String::from_utf8_lossy(&o.stdout).to_string();
        assert_eq!(reports.lines().count(), 2, "{reports}");
        for line in reports.lines() {
            let r: serde_json::Value = serde_json::from_str(line).unwrap();
            let label = r["property"].as_str().unwrap();
            let times: Vec<u64> = r["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["time"].as_u64().unwrap())
                .collect();
            assert_eq!(
                Some(&times),
                failures.get(label),
                "seed {seed}: {label}: mongen check, then Verilator"
            );
        }
    }
}

/// The whole of lowRISC's arbiter, as its macros expand: the assertions
/// the SVA front end reads become checkers (vectors with the widths the
/// module declares: `$onehot0(gnt_o)`, `|req_i`, `gnt_o[idx_o]`, the
/// compound reset of `LockArbDecision_A`, the arithmetic of
/// `RoundRobin_A`'s `(N'(1) << $past(idx_o)+1) - 1` and
/// `ReqStaysHighUntilGranted0_M`'s `&` of vectors compared), and the
/// other is an error that names it (exit 2): a select of an unpacked array
/// by a signal (`DataFlow_A`, in a generate block).
#[test]
fn mongen_reads_the_whole_lowrisc_arbiter_but_what_it_refuses() {
    let Some(file) = design(PRIM_ARBITER_PPC) else {
        return;
    };
    let dir = scratch("sva-designs-lowrisc-whole");
    let include = file.parent().unwrap().display().to_string();
    let path = file.display().to_string();
    let args = [
        "compile", "--sv", &path, "-I", &include, "-t", "verilog", "-o", "ppc.v",
    ];
    let o = mongen(&dir, &args);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    let refused: Vec<&str> = t
        .lines()
        .filter(|l| l.starts_with("mongen: error: "))
        .filter_map(|l| l.split('`').nth(1))
        .collect();
    assert_eq!(refused, ["gen_data_port_assertion.DataFlow_A"], "{t}");
    let v = std::fs::read_to_string(dir.join("ppc.v")).unwrap();
    assert_eq!(
        checkers(&v),
        [
            "ValidKnown_A_checker",
            "GrantKnown_A_checker",
            "IdxKnown_A_checker",
            "RoundRobin_A_checker",
            "CheckHotOne_A_checker",
            "GntImpliesReady_A_checker",
            "GntImpliesValid_A_checker",
            "ReqAndReadyImplyGrant_A_checker",
            "ReqImpliesValid_A_checker",
            "ReadyAndValidImplyGrant_A_checker",
            "NoReadyValidNoGrant_A_checker",
            "IndexIsCorrect_A_checker",
            "ReqStaysHighUntilGranted0_M_checker",
            "LockArbDecision_A_checker",
        ],
        "{v}"
    );
    // N = 8 requesters: the grant's 8 bits, its index's 3.
    assert!(v.contains("input  wire [7:0] gnt_o"), "{v}");
    assert!(v.contains("input  wire [2:0] idx_o"), "{v}");
    // `LockArbDecision_A`'s reset `!rst_ni || !req_chk_i` (in its
    // formula, which reads `$past`).
    assert!(v.contains("input  wire req_chk_i"), "{v}");
}
