//! Proofs of real designs nobody here wrote (examples/hardware/sva;
//! scripts/install-sva-designs.sh installs them from PyPI): SymbiYosys,
//! with the checkers `mongen --sv` makes of their concurrent assertions in
//! place of the assertions (no commercial front end),
//!
//! * proves the assertions that hold in OpenHW's CV32E40P load-store unit
//!   (the two on the bus's inputs assumed, `--assume`) and in lowRISC's
//!   `prim_packer_fifo` (its other assertion refused, `--keep-going`, and
//!   named in the project's header);
//! * refutes a one-line mutation of each (a realistic bug) with the label of
//!   the assertion it breaks;
//!
//! and Icarus simulates the load-store unit's checkers on random inputs:
//! the cycles where they fail are those where `mongen check --sv` finds the
//! violations in the waveform.
//!
//! The designs are copied into a scratch folder (the installed files are
//! never written); only the file a mutation changes is a modified copy.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use common::{first_after_each_reset, run, sby, scratch, sva_design as design, text, tool};

fn mongen(dir: &Path, args: &[&str]) -> std::process::Output {
    run(dir, Path::new(env!("CARGO_BIN_EXE_mongen")), args)
}

/// CV32E40P's RTL folder (the load-store unit, the OBI interface it
/// instantiates, `include/cv32e40p_pkg.sv`).
const CV32E40P_RTL: &str = "pythondata_cpu_cv32e40p/pythondata_cpu_cv32e40p/system_verilog/rtl";
/// lowRISC's prim folder (`prim_packer_fifo.sv`, the `prim_assert.sv`
/// macros it includes).
const PRIM_RTL: &str =
    "pythondata_cpu_ibex/pythondata_cpu_ibex/system_verilog/vendor/lowrisc_ip/ip/prim/rtl";

/// Replaces the one line of `source` that contains `from` by `to`
/// (`from` must be there exactly once).
fn mutate(source: &str, from: &str, to: &str) -> String {
    assert_eq!(
        source.matches(from).count(),
        1,
        "`{from}` once in the design"
    );
    source.replace(from, to)
}

/// The header of a `.sby` project: the labels under `NOT CHECKED`, and the
/// labels of the checkers the script requires (`select -assert-min 1
/// t:LABEL_checker`).
fn project_labels(sby: &str) -> (Vec<String>, Vec<String>) {
    let mut left_out = Vec::new();
    let mut lines = sby.lines();
    if lines.any(|l| l.starts_with("# NOT CHECKED:")) {
        // `# compile (--keep-going; ...`, then one label a line up to the
        // usage lines.
        for l in lines.skip(1) {
            let Some(label) = l.strip_prefix("#   ") else {
                break;
            };
            if label.starts_with("sby -f") {
                break;
            }
            left_out.push(label.trim().to_string());
        }
    }
    let checked = sby
        .lines()
        .filter_map(|l| l.strip_prefix("select -assert-min 1 t:"))
        .map(|l| l.trim().strip_suffix("_checker").unwrap().to_string())
        .collect();
    (left_out, checked)
}

/// Runs both tasks of `NAME.sby` in `dir` and checks each task's verdict
/// in the log and in its `status` file (`PASS 0 ...`, `FAIL 2 ...`): both
/// pass (by k-induction) when `failing` is empty, else both fail, every
/// failed assertion SymbiYosys names is in a checker `LABEL_chk` of a label
/// of `failing` (those the mutation may break).
fn prove(dir: &Path, sby: &Path, name: &str, failing: &[&str]) {
    let o = run(dir, sby, &["-f", &format!("{name}.sby")]);
    let log = text(&o);
    let (verdict, status) = if failing.is_empty() {
        ("PASS, rc=0", "PASS 0")
    } else {
        ("FAIL, rc=2", "FAIL 2")
    };
    for task in ["prove", "bmc"] {
        let done = format!("[{name}_{task}] DONE ({verdict})");
        assert!(log.contains(&done), "no {done}:\n{log}");
        let file = dir.join(format!("{name}_{task}/status"));
        let s = std::fs::read_to_string(&file).unwrap();
        assert!(s.starts_with(status), "{}: {s}\n{log}", file.display());
    }
    if failing.is_empty() {
        assert!(
            log.contains(&format!(
                "[{name}_prove] summary: successful proof by k-induction."
            )),
            "{log}"
        );
    }
    // `summary:   failed assertion NAME_formal.dut.LABEL_chk.$assert$... at FILE:LINE`
    let failed: BTreeSet<String> = log
        .lines()
        .filter_map(|l| l.split_once("summary:   failed assertion ").map(|x| x.1))
        .map(|l| {
            let chk = l
                .split('.')
                .find_map(|part| part.strip_suffix("_chk"))
                .unwrap_or_else(|| panic!("not in a checker: {l}\n{log}"));
            chk.to_string()
        })
        .collect();
    for label in &failed {
        assert!(failing.contains(&label.as_str()), "{label} failed:\n{log}");
    }
    // The solver reports the assertions that fail at the end of the
    // counterexample it finds: some of those the mutation breaks.
    assert_eq!(failed.is_empty(), failing.is_empty(), "{failed:?}\n{log}");
}

/// The load-store unit, the OBI interface and the package copied into a
/// fresh folder, the unit mutated by `mutation`; `mongen compile --sv`
/// writes the checkers `c.v` and the project `cv32e40p_load_store_unit.sby`.
fn lsu_project(test: &str, rtl: &Path, mutation: Option<(&str, &str)>) -> PathBuf {
    let dir = scratch(test);
    std::fs::create_dir(dir.join("include")).unwrap();
    std::fs::copy(
        rtl.join("include/cv32e40p_pkg.sv"),
        dir.join("include/cv32e40p_pkg.sv"),
    )
    .unwrap();
    std::fs::copy(
        rtl.join("cv32e40p_obi_interface.sv"),
        dir.join("cv32e40p_obi_interface.sv"),
    )
    .unwrap();
    let mut lsu = std::fs::read_to_string(rtl.join("cv32e40p_load_store_unit.sv")).unwrap();
    if let Some((from, to)) = mutation {
        lsu = mutate(&lsu, from, to);
    }
    std::fs::write(dir.join("cv32e40p_load_store_unit.sv"), lsu).unwrap();
    let o = mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "cv32e40p_load_store_unit.sv",
            "-D",
            "CV32E40P_ASSERT_ON",
            "-I",
            "include",
            "-t",
            "verilog",
            "--sby",
            "cv32e40p_load_store_unit",
            "--design",
            "include/cv32e40p_pkg.sv",
            "--design",
            "cv32e40p_obi_interface.sv",
            "--design",
            "cv32e40p_load_store_unit.sv",
            "-o",
            "c.v",
            "--assume",
            "a_no_error",
            "--assume",
            "a_no_spurious_rvalid",
            "--design-reset",
            "rst_n",
        ],
    );
    assert!(o.status.success(), "{}", text(&o));
    dir
}

/// The LSU's five assertions (under `CV32E40P_ASSERT_ON`): two constrain
/// the bus (`a_no_error`: no bus or PMP error, which the unit does not
/// support; `a_no_spurious_rvalid`: no response without an outstanding
/// transaction) and are assumed; the three on the unit's counter of
/// outstanding transactions and its address phase are proved by
/// k-induction (the project's `prove`) and hold for 20 cycles (`bmc`).
///
/// The mutant issues a transaction with DEPTH = 2 already outstanding (the
/// guard `cnt_q < DEPTH` of `trans_valid` written `<=` in the generate
/// branch of the default `PULP_OBI = 0`): a third request is granted with
/// the counter at DEPTH, which `a_no_transaction_count_overflow_1` forbids
/// (and, a cycle later, `_0` sees the counter past DEPTH).
#[test]
fn symbiyosys_proves_the_cv32e40p_load_store_unit_and_refutes_its_mutant() {
    let Some(sby) = sby() else { return };
    let Some(rtl) = design(CV32E40P_RTL) else {
        return;
    };
    let name = "cv32e40p_load_store_unit";
    let dir = lsu_project("sva-proofs-lsu", &rtl, None);
    let project = std::fs::read_to_string(dir.join(format!("{name}.sby"))).unwrap();
    let (left_out, checked) = project_labels(&project);
    assert!(left_out.is_empty(), "{project}");
    assert!(!project.contains("NOT CHECKED"), "{project}");
    assert!(
        project.contains("satisfies 3 properties under 2 assumptions"),
        "{project}"
    );
    assert_eq!(
        checked,
        [
            "a_no_error",
            "a_no_transaction_count_overflow_0",
            "a_no_transaction_count_overflow_1",
            "a_no_spurious_rvalid",
            "a_address_phase_signals_defined"
        ],
        "{project}"
    );
    // The two on the bus are assumptions in their checkers.
    let checkers = std::fs::read_to_string(dir.join("c.v")).unwrap();
    for label in ["a_no_error", "a_no_spurious_rvalid"] {
        assert!(
            checkers.contains(&format!("\"{label}_checker: assumption ")),
            "{label}: {checkers}"
        );
    }
    prove(&dir, &sby, name, &[]);

    let mutant = lsu_project(
        "sva-proofs-lsu-mutant",
        &rtl,
        Some((
            "assign trans_valid = data_req_ex_i && (cnt_q < DEPTH);",
            "assign trans_valid = data_req_ex_i && (cnt_q <= DEPTH);",
        )),
    );
    prove(
        &mutant,
        &sby,
        name,
        &[
            "a_no_transaction_count_overflow_1",
            "a_no_transaction_count_overflow_0",
        ],
    );
}

/// `prim_packer_fifo.sv` copied into a fresh folder, mutated by
/// `mutation`; `mongen compile --sv --keep-going` (lowRISC's macros from
/// the installed folder, `-I`) writes the checkers and the project,
/// exiting with 2 for the assertion it refuses.
fn packer_project(test: &str, prim: &Path, mutation: Option<(&str, &str)>) -> (PathBuf, String) {
    let dir = scratch(test);
    let mut source = std::fs::read_to_string(prim.join("prim_packer_fifo.sv")).unwrap();
    if let Some((from, to)) = mutation {
        source = mutate(&source, from, to);
    }
    std::fs::write(dir.join("prim_packer_fifo.sv"), source).unwrap();
    let include = prim.display().to_string();
    let o = mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "prim_packer_fifo.sv",
            "-I",
            &include,
            "-t",
            "verilog",
            "--sby",
            "prim_packer_fifo",
            "--design",
            "prim_packer_fifo.sv",
            "-o",
            "c.v",
            "--keep-going",
            "--design-reset",
            "rst_ni",
        ],
    );
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    (dir, t)
}

/// lowRISC's packer FIFO (defaults: 32-bit words in, 8-bit out, the
/// unpacking branch): `ValidOPairedWithReadyI_A` (a valid output not taken
/// and not cleared stays valid) is proved; `DataOStableWhenPending_A`
/// (`$stable` of the 8-bit output after `$past`s) is refused, its automaton
/// past the memory budget, and `--keep-going` writes the project without it,
/// which the header names under `NOT CHECKED`.
///
/// The mutant drops the last byte whether or not it was read (`rready_i`
/// forgotten in `clear_status` of the unpacking branch): valid and not
/// ready, the output is no longer valid in the next cycle.
#[test]
fn symbiyosys_proves_lowrisc_prim_packer_fifo_and_refutes_its_mutant() {
    let Some(sby) = sby() else { return };
    let Some(prim) = design(PRIM_RTL) else {
        return;
    };
    let name = "prim_packer_fifo";
    let (dir, out) = packer_project("sva-proofs-packer", &prim, None);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("mongen: error: "))
        .collect();
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].contains("--max-memory"), "{out}");
    assert!(errors[0].contains("$stable(rdata_o)") || errors[0].contains("##1 rvalid_o"));
    let project = std::fs::read_to_string(dir.join(format!("{name}.sby"))).unwrap();
    let (left_out, checked) = project_labels(&project);
    assert_eq!(left_out, ["DataOStableWhenPending_A"], "{project}");
    assert_eq!(checked, ["ValidOPairedWithReadyI_A"], "{project}");
    prove(&dir, &sby, name, &[]);

    let (mutant, _) = packer_project(
        "sva-proofs-packer-mutant",
        &prim,
        Some((
            "assign clear_status = (rready_i && (depth_q == lsb_is_one)) || clr_q;",
            "assign clear_status = (depth_q == lsb_is_one) || clr_q;",
        )),
    );
    prove(&mutant, &sby, name, &["ValidOPairedWithReadyI_A"]);
}

/// PULP's common_cells folder in CVA6 (`src/counter.sv`,
/// `src/delta_counter.sv`, and `formal/counter_properties.sv`, the formal
/// properties PULP wrote for the commercial SymbiYosys: "the FOSS version
/// won't work", says `formal/README.md`).
const COMMON_CELLS: &str =
    "pythondata_cpu_cva6/pythondata_cpu_cva6/system_verilog/common/submodules/common_cells";

fn counter_project(test: &str, cells: &Path, mutation: Option<(&str, &str)>) -> PathBuf {
    let dir = scratch(test);
    for file in [
        "src/counter.sv",
        "src/delta_counter.sv",
        "formal/counter_properties.sv",
    ] {
        let mut source = std::fs::read_to_string(cells.join(file)).unwrap();
        if let (Some((from, to)), "src/delta_counter.sv") = (mutation, file) {
            source = mutate(&source, from, to);
        }
        let name = Path::new(file).file_name().unwrap();
        std::fs::write(dir.join(name), source).unwrap();
    }
    let o = mongen(
        &dir,
        &[
            "compile",
            "--sv",
            "counter_properties.sv",
            "-t",
            "verilog",
            "--sby",
            "counter",
            "--design",
            "delta_counter.sv",
            "--design",
            "counter.sv",
            "--design",
            "counter_properties.sv",
            "-o",
            "c.v",
        ],
    );
    // All six assertions, the two that count with `$past(q_o) + {{WIDTH-1
    // {1'b0}}, 1'b1}` too (vector arithmetic, lowered bit by bit).
    assert!(o.status.success(), "{}", text(&o));
    dir
}

/// PULP's properties of its counter are in a module of their own, bound
/// into the design (`bind counter counter_properties #(...) (.*)`), with
/// an assumption (reset in the first cycle), six assertions and three
/// covers, for a commercial front end. `--sby counter` instantiates them
/// beside the counter with the checkers in place of the assertions:
/// SymbiYosys proves the six (counting up and down by one, clear, load,
/// the two overflow flags) and reaches the three covers.
///
/// The statements are unlabelled: they are named by their place in the
/// file, the assumption first (`counter_properties_1`). One mutant forgets
/// a load while counting down (`load_i && !down_i`): the load property
/// (`(load_i && !clear_i) |=> q_o == $past(d_i)`, `counter_properties_5`)
/// fails, or an overflow flag the design computes apart. Another counts up
/// by two: `q_o == $past(q_o) + {{WIDTH-1{1'b0}}, 1'b1}`
/// (`counter_properties_2`) fails, or the flag at the wrap.
#[test]
fn symbiyosys_proves_pulp_counter_properties_bound_into_the_counter() {
    let Some(sby) = sby() else { return };
    let Some(cells) = design(COMMON_CELLS) else {
        return;
    };
    let name = "counter_properties";
    let dir = counter_project("sva-proofs-counter", &cells, None);
    let project = std::fs::read_to_string(dir.join(format!("{name}.sby"))).unwrap();
    assert!(
        project.contains("module `counter` satisfies 6 properties under 1 assumption"),
        "{project}"
    );
    assert!(
        project.contains("reach the 3\n# covered sequences"),
        "{project}"
    );
    assert!(!project.contains("NOT CHECKED"), "{project}");
    let harness = std::fs::read_to_string(dir.join(format!("{name}_formal.sv"))).unwrap();
    assert!(harness.contains("  counter_properties i_counter_properties (.clk_i(clk_i), "));
    prove(&dir, &sby, name, &[]);
    let o = run(&dir, &sby, &["-f", &format!("{name}.sby"), "cover"]);
    let log = text(&o);
    assert!(
        log.contains(&format!("[{name}_cover] DONE (PASS, rc=0)")),
        "{log}"
    );
    assert_eq!(log.matches("reached cover statement").count(), 3, "{log}");

    let mutant = counter_project(
        "sva-proofs-counter-mutant",
        &cells,
        Some((
            "end else if (load_i) begin",
            "end else if (load_i && !down_i) begin",
        )),
    );
    // The load ignored also leaves the overflow flag, which the design
    // computes apart, out of step with the count.
    prove(
        &mutant,
        &sby,
        name,
        &[
            "counter_properties_5",
            "counter_properties_6",
            "counter_properties_7",
        ],
    );
    let mutant = counter_project(
        "sva-proofs-counter-mutant-step",
        &cells,
        Some((
            "counter_d = counter_q + delta_i;",
            "counter_d = counter_q + delta_i + 1'b1;",
        )),
    );
    // The first count breaks `counter_properties_2`; at the wrap, the
    // overflow flag is missed too (`counter_properties_6`).
    prove(
        &mutant,
        &sby,
        name,
        &["counter_properties_2", "counter_properties_6"],
    );
}

/// A checker module of a `-t verilog` file: its label and its input ports
/// (name, width), clock and reset included.
struct CheckerPorts {
    label: String,
    inputs: Vec<(String, u32)>,
}

/// The checker modules of `verilog`, in order.
fn checker_ports(verilog: &str) -> Vec<CheckerPorts> {
    let mut found = Vec::new();
    let mut lines = verilog.lines();
    while let Some(l) = lines.next() {
        let Some(name) = l.strip_prefix("module ") else {
            continue;
        };
        let label = name.split([' ', '(']).next().unwrap();
        let label = label.strip_suffix("_checker").unwrap().to_string();
        let mut inputs = Vec::new();
        for port in lines.by_ref().take_while(|l| !l.starts_with(");")) {
            let Some(decl) = port.trim().strip_prefix("input  wire ") else {
                continue;
            };
            let decl = decl.trim_end_matches(',');
            let (width, name) = match decl.strip_prefix('[') {
                Some(r) => {
                    let (msb, name) = r.split_once(":0] ").unwrap();
                    (msb.parse::<u32>().unwrap() + 1, name)
                }
                None => (1, decl),
            };
            inputs.push((name.to_string(), width));
        }
        found.push(CheckerPorts { label, inputs });
    }
    found
}

/// The signals that every proposition of `verilog` reads through
/// `$isunknown` (its comments list the propositions: `//     PROPOSITION
/// -> ...`).
fn unknowable(verilog: &str, checkers: &[CheckerPorts]) -> BTreeSet<String> {
    let propositions: Vec<&str> = verilog
        .lines()
        .filter_map(|l| l.strip_prefix("//     "))
        .filter(|l| l.contains(" -> "))
        .collect();
    checkers
        .iter()
        .flat_map(|c| c.inputs.iter().map(|(n, _)| n.clone()))
        .filter(|n| {
            let reads = propositions.iter().filter(|p| p.contains(n.as_str()));
            let mut reads = reads.peekable();
            reads.peek().is_some() && reads.all(|p| p.starts_with(&format!("$isunknown({n}) ->")))
        })
        .collect()
}

/// Cycles of a simulation.
const CYCLES: u32 = 3000;

/// How a testbench drives its checkers.
struct Bench<'a> {
    /// The clock's name (the checkers' and the design's).
    clock: &'a str,
    /// The active-low asynchronous reset, if the checkers have one: low in
    /// the first three cycles, then now and then for one to three cycles,
    /// or pulsed between two edges; `tb: reset at T` each time.
    reset: Option<&'a str>,
    /// Instances of each checker, instance `j` clocked from cycle `j *
    /// spacing` on (its clock gated at the falling edge).
    starts: u32,
    spacing: u32,
    /// Signals that get an unknown bit now and then.
    unknowable: BTreeSet<String>,
}

/// A testbench of `checkers`, with no design: the checkers' inputs are the
/// testbench's registers, named as the design names the signals (so that
/// `mongen check --sv` finds them in the dump, `$dumpvars(1, tb)`: the
/// testbench's level only, where each name is plain), driven at the falling
/// edge with random values (seeded) in phases of 64 cycles, each signal
/// changing with odds of its phase, from never to half the time. The
/// testbench prints when each instance starts and, at every rising edge,
/// each instance whose `fail` is 1 (`tb: fail LABEL J T`). Only the signals
/// that the properties read through `$isunknown` get an unknown bit: an x
/// in a comparison makes `fail` x, a verdict that neither Icarus's `if` nor
/// a two-valued reading of the dump decides alike.
fn testbench(checkers: &[CheckerPorts], bench: &Bench) -> String {
    let mut signals = BTreeMap::<&str, u32>::new();
    for c in checkers {
        for (name, width) in &c.inputs {
            if name != bench.clock && Some(name.as_str()) != bench.reset {
                assert_eq!(*signals.entry(name).or_insert(*width), *width, "{name}");
            }
        }
    }
    let clock = bench.clock;
    let mut tb = format!(
        "module tb;\n  reg {clock} = 0;\n  always #5 {clock} = ~{clock};\n  integer cycle = 0;\n  integer seed = 7;\n  integer hold = 3;\n"
    );
    if let Some(reset) = bench.reset {
        tb.push_str(&format!("  reg {reset} = 0;\n"));
    }
    tb.push_str(&format!("  reg [{}:0] started = 0;\n", bench.starts - 1));
    for (name, width) in &signals {
        tb.push_str(&format!(
            "  reg [{}:0] {name} = 0;\n  integer odds_{name} = 0;\n",
            width - 1
        ));
    }
    let mut watch = String::new();
    for j in 0..bench.starts {
        let from = j * bench.spacing;
        tb.push_str(&format!("  wire clk_{j} = {clock} & (cycle >= {from});\n"));
        watch.push_str(&format!(
            "    if (!started[{j}] && cycle >= {from}) begin\n      started[{j}] = 1;\n      $display(\"tb: start {j} %0t\", $time);\n    end\n"
        ));
        for c in checkers {
            let l = &c.label;
            let ports: String = c
                .inputs
                .iter()
                .filter(|(n, _)| n != clock)
                .map(|(n, _)| format!(".{n}({n}), "))
                .collect();
            tb.push_str(&format!(
                "  wire fail_{j}_{l};\n  {l}_checker c_{j}_{l} (.{clock}(clk_{j}), {ports}.violated(), .fail(fail_{j}_{l}));\n"
            ));
            watch.push_str(&format!(
                "    if (cycle >= {from} && fail_{j}_{l}) $display(\"tb: fail {l} {j} %0t\", $time);\n"
            ));
        }
    }
    tb.push_str(&format!(
        "  always @(posedge {clock}) begin\n{watch}  end\n"
    ));
    let mut drive = String::new();
    for (name, width) in &signals {
        drive.push_str(&format!(
            "      if (cycle % 64 == 0) odds_{name} = $urandom(seed) % 9;\n"
        ));
        if bench.unknowable.contains(*name) {
            drive.push_str(&format!(
                "      {name} = $urandom(seed);\n      if ($urandom(seed) % 64 < odds_{name}) {name}[$urandom(seed) % {width}] = 1'bx;\n"
            ));
        } else {
            drive.push_str(&format!(
                "      if ($urandom(seed) % 16 < odds_{name}) {name} = $urandom(seed);\n"
            ));
        }
    }
    if let Some(r) = bench.reset {
        drive.push_str(&format!(
            "      if (hold > 0) begin
        hold--;
        if (hold == 0) {r} = 1;
      end else if ($urandom(seed) % 97 == 0) begin
        hold = 1 + $urandom(seed) % 3;
        {r} = 0;
        $display(\"tb: reset at %0t\", $time);
      end else if ($urandom(seed) % 97 == 0) begin
        #2 {r} = 0;
        $display(\"tb: reset at %0t\", $time);
        #2 {r} = 1;
      end
"
        ));
    }
    tb.push_str(&format!(
        "  initial begin
    $dumpfile(\"tb.vcd\");
    $dumpvars(1, tb);
    for (cycle = 0; cycle < {CYCLES}; cycle++) begin
      @(negedge {clock});
{drive}    end
    $display(\"tb: done\");
    $finish;
  end
endmodule
"
    ));
    tb
}

/// What a simulation of the testbench printed.
struct Simulation {
    /// When each instance started.
    starts: Vec<u64>,
    /// When the reset was made active.
    resets: Vec<u64>,
    /// (label, instance) -> the times its `fail` was 1.
    fails: BTreeMap<(String, usize), Vec<u64>>,
}

/// Icarus simulates the checkers `c.v` of `dir` in [`testbench`].
fn simulate(dir: &Path, checkers: &[CheckerPorts], bench: &Bench) -> Option<Simulation> {
    let iverilog = tool("iverilog", &[], "apt-get install -y iverilog")?;
    let vvp = tool("vvp", &[], "apt-get install -y iverilog")?;
    std::fs::write(dir.join("tb.v"), testbench(checkers, bench)).unwrap();
    let o = run(
        dir,
        &iverilog,
        &["-g2012", "-DASSERTIONS", "-o", "sim", "tb.v", "c.v"],
    );
    assert!(o.status.success(), "iverilog:\n{}", text(&o));
    let out = text(&run(dir, &vvp, &["-n", "sim"]));
    assert!(out.contains("tb: done"), "{out}");
    let starts: Vec<u64> = out
        .lines()
        .filter_map(|l| l.strip_prefix("tb: start "))
        .enumerate()
        .map(|(j, l)| {
            let (k, t) = l.split_once(' ').unwrap();
            assert_eq!(k.parse::<usize>().unwrap(), j, "{out}");
            t.parse().unwrap()
        })
        .collect();
    assert_eq!(starts.len(), bench.starts as usize, "{out}");
    let resets = out
        .lines()
        .filter_map(|l| l.strip_prefix("tb: reset at "))
        .map(|t| t.trim().parse().unwrap())
        .collect();
    let mut fails = BTreeMap::<(String, usize), Vec<u64>>::new();
    for l in out.lines().filter_map(|l| l.strip_prefix("tb: fail ")) {
        let mut f = l.split(' ');
        let (label, j, t) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        fails
            .entry((label.to_string(), j.parse().unwrap()))
            .or_default()
            .push(t.parse().unwrap());
    }
    Some(Simulation {
        starts,
        resets,
        fails,
    })
}

/// The reports of `mongen check --json` on `tb.vcd` of `dir` (`args`: how
/// to read the design), by label: the times of the violations, after
/// checking that the waveform had `CYCLES` clock edges.
fn check(dir: &Path, args: &[&str], exit: i32) -> BTreeMap<String, Vec<u64>> {
    let mut all = vec!["check"];
    all.extend(args);
    all.extend(["--all", "--max-reports", "1000000", "--json", "tb.vcd"]);
    let o = mongen(dir, &all);
    assert_eq!(o.status.code(), Some(exit), "{}", text(&o));
    let mut reports = BTreeMap::new();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let r: serde_json::Value = serde_json::from_str(line).unwrap();
        let label = r["property"].as_str().unwrap();
        assert_eq!(r["events"].as_u64(), Some(u64::from(CYCLES)), "{label}");
        let times: Vec<u64> = r["violations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["time"].as_u64().unwrap())
            .collect();
        reports.insert(label.to_string(), times);
    }
    reports
}

/// Icarus simulates the load-store unit's checkers (the `-t verilog`
/// file alone: Icarus 11 cannot read the design's SystemVerilog) on random
/// inputs; `mongen check --sv` reads the design's assertions and checks
/// them on the waveform. The assertions have no `disable iff`, so their
/// checkers no reset: each reports only its first failure, and is
/// instantiated from 12 starting cycles. For every assertion and every
/// start, the checker fails at the first violation `check` reports from
/// that start on, and nowhere else. (Each property is of one cycle, `a
/// |-> b`: its violations are the cycles where it fails, whatever happened
/// before the start.)
#[test]
fn icarus_simulates_the_lsu_checkers_and_mongen_check_sv_agrees() {
    let Some(rtl) = design(CV32E40P_RTL) else {
        return;
    };
    let dir = scratch("sva-proofs-lsu-sim");
    std::fs::create_dir(dir.join("include")).unwrap();
    for file in ["include/cv32e40p_pkg.sv", "cv32e40p_load_store_unit.sv"] {
        std::fs::copy(rtl.join(file), dir.join(file)).unwrap();
    }
    let read = [
        "--sv",
        "cv32e40p_load_store_unit.sv",
        "-D",
        "CV32E40P_ASSERT_ON",
        "-I",
        "include",
    ];
    let mut args = vec!["compile"];
    args.extend(read);
    args.extend(["-t", "verilog", "-o", "c.v"]);
    let o = mongen(&dir, &args);
    assert!(o.status.success(), "{}", text(&o));
    let v = std::fs::read_to_string(dir.join("c.v")).unwrap();
    assert_eq!(v.matches("No reset: ").count(), 5, "{v}");
    let checkers = checker_ports(&v);
    let labels: Vec<&str> = checkers.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "a_no_error",
            "a_no_transaction_count_overflow_0",
            "a_no_transaction_count_overflow_1",
            "a_no_spurious_rvalid",
            "a_address_phase_signals_defined"
        ]
    );
    let bench = Bench {
        clock: "clk",
        reset: None,
        starts: 12,
        spacing: 250,
        unknowable: unknowable(&v, &checkers),
    };
    assert_eq!(
        bench.unknowable.iter().collect::<Vec<_>>(),
        ["data_addr_o", "data_atop_o", "data_be_o", "data_we_o"]
    );
    let Some(mut sim) = simulate(&dir, &checkers, &bench) else {
        return;
    };
    let reports = check(&dir, &read, 1);
    assert_eq!(reports.len(), labels.len(), "{:?}", reports.keys());
    let mut late = 0;
    for (label, times) in &reports {
        let mut failing = 0;
        for (j, &start) in sim.starts.iter().enumerate() {
            let first = times.iter().find(|&&t| t >= start).copied();
            let simulated = sim.fails.remove(&(label.clone(), j)).unwrap_or_default();
            assert_eq!(
                first.into_iter().collect::<Vec<_>>(),
                simulated,
                "{label}, instance {j} from {start}: mongen check, then Icarus"
            );
            failing += usize::from(first.is_some());
            late += usize::from(first.is_some_and(|t| t > start));
        }
        assert!(
            failing >= 3,
            "{label} fails too rarely to compare: {times:?}"
        );
    }
    assert!(sim.fails.is_empty(), "Icarus only: {:?}", sim.fails);
    // Not only failures at the very first cycle of an instance.
    assert!(late >= 5, "{late}");
}

/// Icarus simulates `prim_packer_fifo`'s checker (lowRISC's reset,
/// `disable iff ((!rst_ni) !== '0)`: the checker's asynchronous active-low
/// reset) on random handshakes, with resets held for cycles or pulsed
/// between two edges; `mongen check --sv` (which reads the file's other
/// assertion, refused, as an error: exit 2) finds in the waveform, in every
/// run between two resets, the first violation the checker reports (its
/// `violated` is sticky until reset).
#[test]
fn icarus_simulates_the_packer_fifo_checker_and_mongen_check_sv_agrees() {
    let Some(prim) = design(PRIM_RTL) else {
        return;
    };
    let dir = scratch("sva-proofs-packer-sim");
    std::fs::copy(
        prim.join("prim_packer_fifo.sv"),
        dir.join("prim_packer_fifo.sv"),
    )
    .unwrap();
    let include = prim.display().to_string();
    let mut args = vec!["compile", "--sv", "prim_packer_fifo.sv", "-I", &include];
    args.extend(["-t", "verilog", "-o", "c.v"]);
    let o = mongen(&dir, &args);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let v = std::fs::read_to_string(dir.join("c.v")).unwrap();
    assert!(
        v.contains("rst_ni       asynchronous active-low reset"),
        "{v}"
    );
    let checkers = checker_ports(&v);
    assert_eq!(checkers.len(), 1);
    assert_eq!(checkers[0].label, "ValidOPairedWithReadyI_A");
    let bench = Bench {
        clock: "clk_i",
        reset: Some("rst_ni"),
        starts: 1,
        spacing: 0,
        unknowable: BTreeSet::new(),
    };
    let Some(sim) = simulate(&dir, &checkers, &bench) else {
        return;
    };
    assert!(sim.resets.len() > 20, "{:?}", sim.resets);
    // `check --sv` reports the assertion past the memory budget as an
    // error (exit 2) and checks the other.
    let reports = check(&dir, &["--sv", "prim_packer_fifo.sv", "-I", &include], 2);
    assert_eq!(
        reports.keys().collect::<Vec<_>>(),
        ["ValidOPairedWithReadyI_A"]
    );
    let times = &reports["ValidOPairedWithReadyI_A"];
    let firsts = first_after_each_reset(times.iter().copied(), &sim.resets);
    assert!(firsts.len() > 10, "fails too rarely to compare: {times:?}");
    let simulated = sim
        .fails
        .get(&("ValidOPairedWithReadyI_A".to_string(), 0))
        .cloned()
        .unwrap_or_default();
    assert_eq!(firsts, simulated, "mongen check's firsts, then Icarus");
    assert_eq!(sim.fails.len(), 1);
}
