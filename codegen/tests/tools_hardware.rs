//! Verilog and SystemC checkers run by the real tools.
//!
//! * Icarus Verilog and Verilator (`--binary`) simulate every checker on
//!   traces that start with the shortest bad prefix, then follow random
//!   walks through the monitor and random letters, with resets in between;
//!   `fail`, `violated` and `satisfied` must equal the core monitor's
//!   verdicts cycle by cycle. The checkers cycle through the clockings
//!   (rising or falling edge; synchronous or asynchronous, active-low or
//!   active-high reset, or none), and the stimulus pulses the reset between
//!   clock edges, which restarts an asynchronous checker only.
//! * `verilator --lint-only -Wall` has nothing to say about any checker,
//!   also with FORMAL or ASSERTIONS defined; Yosys synthesizes them without
//!   latches, with the flip-flops the encoding promises.
//! * A SystemC testbench (built with `g++ -Wall -Wextra -Werror`) replays
//!   the same traces on the SystemC checkers.
//! * Yosys proves the assertion of a checker bound to a design that
//!   satisfies the property, and finds a counterexample, a bad prefix for
//!   the core monitor, for a design that does not.

mod common;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use common::{run, scratch, text, tool};
use mongen::emit::hardware::clocking::{ClockEdge, Clocking};
use mongen::emit::names::cpp_usable;
use mongen::emit::systemc::{emit_systemc, systemc_bindings, SystemcOptions};
use mongen::emit::verilog::{
    choose_encoding, emit_verilog, verilog_bindings, Dialect, StateEncoding, VerilogLogic,
    VerilogOptions,
};
use mongen::emit::Common;
use monitor_core::analysis::classify;
use monitor_core::automaton::{BadPrefixDfa, Guard, Target, Verdict};
use monitor_core::formula::families::{data_lines, generate, DWYER_PATTERNS};
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::translate::{Builder, Config, Verdicts};

/// Propositions named after keywords, macros and the checkers' own names.
const AWKWARD: &str = "G((module & \"x > 3\") -> X(reg | class)) & G(int -> !EOF) \
                       & G(errno -> X sensitive) & G(clk -> !fail) & G(a__b -> X \"*/\")";

struct Case {
    formula: String,
    encoding: Option<StateEncoding>,
    three: bool,
    logic: VerilogLogic,
    psl: bool,
    /// The clock period whose cycles the formula's time bounds are
    /// converted to (`mongen compile --clock-period`).
    clock_period: Option<&'static str>,
}

fn case(formula: &str, encoding: Option<StateEncoding>, three: bool) -> Case {
    Case {
        formula: formula.to_string(),
        encoding,
        three,
        logic: VerilogLogic::Minimized,
        psl: false,
        clock_period: None,
    }
}

/// A formula with time bounds, converted to cycles of `period`.
fn clocked_case(formula: &str, period: &'static str) -> Case {
    Case {
        clock_period: Some(period),
        ..case(formula, None, false)
    }
}

/// A PSL property (Verilog flavour).
fn psl_case(formula: &str, encoding: Option<StateEncoding>, three: bool) -> Case {
    Case {
        psl: true,
        ..case(formula, encoding, three)
    }
}

/// A case whose Verilog transition function is a `case` statement.
fn case_statement(formula: &str, encoding: Option<StateEncoding>, three: bool) -> Case {
    Case {
        logic: VerilogLogic::Case,
        ..case(formula, encoding, three)
    }
}

fn cases() -> Vec<Case> {
    use StateEncoding::{Binary, OneHot};
    let mut v = vec![
        case("G(req -> X ack)", Some(Binary), false),
        case("G(req -> X ack)", Some(OneHot), false),
        case("G(req -> F[0:6] ack)", None, false),
        case("G(req -> F[0:6] ack)", Some(OneHot), false),
        case("G(req -> F[0:20] ack)", None, false),
        case("G(gnt -> O req) & G(gnt -> Y !gnt)", None, false),
        case("G(a -> (b W c))", Some(OneHot), false),
        case("H(a -> Y b) | X X c", None, false),
        case("false", None, false),
        case("false", Some(OneHot), true),
        case("G F a", None, false),
        case("G b & (X a | X !a)", None, false),
        case("a & X X X !a", Some(OneHot), false),
        case("a W b", None, true),
        case("a W b", Some(OneHot), true),
        case("G a", None, true),
        case("(a U b) | G c", Some(Binary), true),
        case("X(a & b) -> X X c", None, true),
        case("true", None, true),
        case("G(p1) | G(p2) | G(p3)", Some(Binary), false),
        case("G(p1) | G(p2) | G(p3)", Some(OneHot), true),
        case(AWKWARD, Some(Binary), false),
        case(AWKWARD, Some(OneHot), true),
        case_statement(AWKWARD, Some(Binary), true),
        case_statement("G(req -> X ack)", Some(OneHot), false),
        case_statement("G(req -> F[0:6] ack)", Some(Binary), false),
        case_statement("G(req -> F[0:6] ack)", Some(OneHot), true),
        case_statement("false", None, false),
        case_statement("a W b", Some(OneHot), true),
        // PSL: the hardware idioms, weak and strong sequences, abort.
        psl_case("always {req; !ack[*0:3]} |=> ack", None, false),
        psl_case("always {req} |=> {[*0:3]; ack}", Some(OneHot), false),
        psl_case("always {req} |=> {[*0:3]; ack}", Some(Binary), true),
        psl_case("never {(a && !b)[*3]}", None, false),
        psl_case("always {a; b[*]; c} |-> {d[*2]}", None, true),
        psl_case("always {a} |=> {b[*1:2]; c}!", Some(OneHot), false),
        psl_case("(always (a -> next b)) abort c", None, true),
        psl_case("{a[->2]} |-> {b; c}", None, false),
        psl_case("always {a} |=> {b[=2]; c}", Some(Binary), false),
    ];
    // Rozier's 3-bit counter (24 states), whose next-state functions
    // count.
    let counter = generate("rv-counter", 3).unwrap().to_spot();
    v.push(case(&counter, Some(Binary), false));
    v.push(case(&counter, Some(OneHot), false));
    // The safety Dwyer patterns, encodings alternating.
    let cfg = Config::new();
    let mut k = 0;
    for line in data_lines(DWYER_PATTERNS) {
        let f = monitor_core::formula::parse(line).unwrap();
        if classify(&f, &cfg).unwrap().safety == Some(true) {
            let enc = if k % 2 == 0 { Binary } else { OneHot };
            let mut c = case(line, Some(enc), k % 3 == 0);
            if k % 4 >= 2 {
                c.logic = VerilogLogic::Case;
            }
            v.push(c);
            k += 1;
        }
    }
    // Random formulas with past operators (monitors of their safety
    // closures when they are not safety).
    for seed in 0..24u64 {
        let f = RandomLtl::new(&["a", "b", "c"], 4 + (seed % 8) as usize)
            .with_past()
            .seed(0x4a7d_0000 + seed)
            .next_formula();
        v.push(case(&f.to_spot(), None, seed % 2 == 0));
    }
    // Issue 32: time bounds at a clock period (`--clock-period`).
    v.push(clocked_case("G(req -> F[0:50ns] ack)", "10ns"));
    v.push(clocked_case(
        "G(gnt -> (req S[5ns:15ns] start) & !O[0:5ns] err)",
        "2.5ns",
    ));
    v.push(clocked_case(
        "G(req -> (busy U[1us:3us] done)) & G(done -> H[0:2us] !err)",
        "1us",
    ));
    v
}

/// One compiled case: the monitor, both checkers and the stimulus.
struct Compiled {
    name: String,
    formula: String,
    dfa: BadPrefixDfa,
    three: bool,
    verilog: String,
    /// The SystemVerilog checker (`--target sva`).
    sva: String,
    verilog_ports: Vec<String>,
    systemc: String,
    systemc_ports: Vec<String>,
    bits: usize,
    clocking: Clocking,
    trace: Vec<Cycle>,
}

/// One clock cycle of a stimulus.
#[derive(Clone, Copy, Debug)]
struct Cycle {
    /// The reset is inactive at the clock edge.
    run: bool,
    /// The reset pulses (is asserted, then released) before the edge.
    pulse: bool,
    /// The propositions' values.
    letter: u64,
}

/// The clocking of the j-th case: all combinations in turn.
fn clocking_of(j: usize) -> Clocking {
    let specs: [(&str, Option<&str>); 6] = [
        ("clk", Some("rst_n")),
        ("clk:negedge", Some("rst:high:sync")),
        ("clk", Some("rst_n:low:async")),
        ("clk_i:negedge", Some("rst:high:async")),
        ("clk", None),
        ("clk_i:negedge", Some("arst_n:async")),
    ];
    let (clock, reset) = specs[j % specs.len()];
    Clocking {
        clock: clock.parse().unwrap(),
        reset: reset.map(|r| r.parse().unwrap()),
    }
}

/// Reset pulses between edges in random running cycles.
fn with_pulses(trace: Vec<(bool, u64)>, rng: &mut SplitMix64) -> Vec<Cycle> {
    trace
        .into_iter()
        .map(|(run, letter)| Cycle {
            run,
            pulse: run && rng.chance(1, 10),
            letter,
        })
        .collect()
}

fn letter(g: &Guard, nprops: usize, rng: &mut SplitMix64) -> u64 {
    let mut l = if nprops == 0 {
        0
    } else {
        rng.next_u64() & (u64::MAX >> (64 - nprops))
    };
    let Some(cubes) = g.cubes() else {
        // A factored guard: random letters until one satisfies it (the
        // tests' properties have few propositions).
        loop {
            let l = rng.next_u64() & (u64::MAX >> (64 - nprops));
            if g.eval(&l) {
                return l;
            }
        }
    };
    let cube = &cubes[rng.below(cubes.len() as u64) as usize];
    for &(v, pos) in cube {
        if pos {
            l |= 1 << v;
        } else {
            l &= !(1 << v);
        }
    }
    l
}

/// A stimulus: reset, the shortest bad prefix, random walks through the
/// monitor and random letters, with resets (of random length, with random
/// inputs) in between.
fn stimulus(dfa: &BadPrefixDfa, rng: &mut SplitMix64) -> Vec<(bool, u64)> {
    let n = dfa.alphabet().len();
    let random = |rng: &mut SplitMix64| letter(&Guard::from_cubes(vec![vec![]]), n, rng);
    let mut t = vec![(false, random(rng))];
    let reset = |t: &mut Vec<(bool, u64)>, rng: &mut SplitMix64| {
        for _ in 0..1 + rng.below(2) {
            let l = random(rng);
            t.push((false, l));
        }
    };
    if let Some(word) = dfa.shortest_violation() {
        for g in &word {
            t.push((true, letter(g, n, rng)));
        }
        for _ in 0..2 {
            let l = random(rng);
            t.push((true, l));
        }
        reset(&mut t, rng);
    }
    for walk in 0..8 {
        let mut s = dfa.start();
        for _ in 0..24 {
            let edges = dfa.edges(s).unwrap();
            let safe: Vec<_> = edges
                .iter()
                .filter(|e| e.target != Target::Violation)
                .collect();
            let e = if safe.is_empty() || rng.chance(1, 12) {
                &edges[rng.below(edges.len() as u64) as usize]
            } else {
                safe[rng.below(safe.len() as u64) as usize]
            };
            t.push((true, letter(&e.guard, n, rng)));
            match e.target {
                Target::State(next) => s = next,
                Target::Violation => break,
            }
        }
        if walk % 3 != 2 {
            reset(&mut t, rng);
        }
    }
    for _ in 0..30 {
        let l = random(rng);
        t.push((true, l));
    }
    t
}

/// The outputs `(fail, violated, satisfied)` the checkers must produce,
/// with the default clocking.
fn expected(dfa: &BadPrefixDfa, trace: &[(bool, u64)]) -> Vec<[bool; 3]> {
    let trace: Vec<Cycle> = trace
        .iter()
        .map(|&(run, letter)| Cycle {
            run,
            pulse: false,
            letter,
        })
        .collect();
    expected_clocked(dfa, &trace, &Clocking::default())
}

/// The outputs `(fail, violated, satisfied)` a checker with `clocking`
/// must produce: a reset active at the edge restarts the check (outputs
/// 0); a pulse between edges restarts it only when asynchronous; without
/// a reset every cycle is a letter.
fn expected_clocked(dfa: &BadPrefixDfa, trace: &[Cycle], clocking: &Clocking) -> Vec<[bool; 3]> {
    let mut s = dfa.start();
    let mut violated = false;
    trace
        .iter()
        .map(|c| {
            let l = c.letter;
            if let Some(r) = &clocking.reset {
                if !c.run || (c.pulse && r.asynchronous) {
                    s = dfa.start();
                    violated = false;
                }
                if !c.run {
                    return [false; 3];
                }
            }
            if violated {
                return [false, true, false];
            }
            match dfa.step(s, &l) {
                Target::Violation => {
                    violated = true;
                    [true, true, false]
                }
                Target::State(t) => {
                    s = t;
                    [false, false, dfa.verdict(t) == Verdict::Satisfied]
                }
            }
        })
        .collect()
}

fn compile_all() -> Vec<Compiled> {
    let mut rng = SplitMix64::new(0x5eed_4a7d);
    cases()
        .into_iter()
        .enumerate()
        .map(|(j, c)| {
            let mut b = Builder::new();
            b.configure(Config::new().verdicts(if c.three {
                Verdicts::Three
            } else {
                Verdicts::Two
            }));
            let f = if let Some(period) = c.clock_period {
                let period = monitor_core::formula::metric::ClockPeriod::parse(period).unwrap();
                monitor_core::formula::metric::parse_cycles(&c.formula, &period).unwrap()
            } else if c.psl {
                monitor_core::formula::parse_psl(&c.formula).unwrap()
            } else {
                monitor_core::formula::parse(&c.formula).unwrap()
            };
            let dfa = b.build_from_formula(&f).unwrap().into_dfa();
            let name = format!("c{j}");
            let clocking = clocking_of(j);
            let verilog = emit_verilog(
                &dfa,
                &VerilogOptions {
                    common: Common {
                        name: name.clone(),
                        three_valued: c.three,
                        ..Common::default()
                    },
                    encoding: c.encoding,
                    logic: c.logic,
                    clocking: clocking.clone(),
                    ..Default::default()
                },
            )
            .unwrap();
            let sva = emit_verilog(
                &dfa,
                &VerilogOptions {
                    common: Common {
                        name: name.clone(),
                        three_valued: c.three,
                        ..Common::default()
                    },
                    encoding: c.encoding,
                    logic: c.logic,
                    clocking: clocking.clone(),
                    dialect: Dialect::Sva,
                    ..Default::default()
                },
            )
            .unwrap();
            let systemc = emit_systemc(
                &dfa,
                &SystemcOptions {
                    common: Common {
                        name: name.clone(),
                        three_valued: c.three,
                        ..Common::default()
                    },
                    clocking: clocking.clone(),
                },
            )
            .unwrap();
            let verilog_ports = verilog_bindings(dfa.alphabet(), &[], &clocking)
                .unwrap()
                .into_iter()
                .map(|b| b.ident)
                .collect();
            let systemc_ports = systemc_bindings(dfa.alphabet(), &name, &[], &clocking)
                .unwrap()
                .into_iter()
                .map(|b| b.ident)
                .collect();
            let bits = c
                .encoding
                .unwrap_or_else(|| choose_encoding(&dfa))
                .state_bits(dfa.num_states());
            let trace = stimulus(&dfa, &mut rng);
            let trace = with_pulses(trace, &mut rng);
            Compiled {
                name,
                formula: c.formula,
                dfa,
                three: c.three,
                verilog,
                sva,
                verilog_ports,
                systemc,
                systemc_ports,
                bits,
                clocking,
                trace,
            }
        })
        .collect()
}

/// Writes the stimulus files (`stim_J.txt`, one line per cycle: whether the
/// reset is inactive at the edge, whether it pulses before the edge, then
/// the propositions from the last to the first), all of the same length
/// (padded with reset cycles). Returns that length.
fn write_stimuli(dir: &Path, cs: &[Compiled]) -> usize {
    let len = cs.iter().map(|c| c.trace.len()).max().unwrap();
    for (j, c) in cs.iter().enumerate() {
        let n = c.dfa.alphabet().len();
        let mut s = String::new();
        for i in 0..len {
            let cy = c.trace.get(i).copied().unwrap_or(Cycle {
                run: false,
                pulse: false,
                letter: 0,
            });
            s.push(if cy.run { '1' } else { '0' });
            s.push(if cy.pulse { '1' } else { '0' });
            for b in (0..n).rev() {
                s.push(if (cy.letter >> b) & 1 == 1 { '1' } else { '0' });
            }
            s.push('\n');
        }
        std::fs::write(dir.join(format!("stim_{j}.txt")), s).unwrap();
    }
    len
}

/// Checks simulator output lines `J I fvs` against the core monitors.
fn check_outputs(tool: &str, out: &str, cs: &[Compiled], len: usize) {
    let mut seen = vec![vec![false; len]; cs.len()];
    let expect: Vec<Vec<[bool; 3]>> = cs
        .iter()
        .map(|c| expected_clocked(&c.dfa, &c.trace, &c.clocking))
        .collect();
    for line in out.lines() {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [j, i, bits] = parts[..] else { continue };
        let (Ok(j), Ok(i)) = (j.parse::<usize>(), i.parse::<usize>()) else {
            continue;
        };
        let got: Vec<bool> = bits.chars().map(|ch| ch == '1').collect();
        let c = &cs[j];
        // Padding cycles hold the reset; a checker without one runs on.
        let want = match expect[j].get(i) {
            Some(w) => *w,
            None if c.clocking.reset.is_some() => [false; 3],
            None => continue,
        };
        let want = [want[0], want[1], want[2] && c.three];
        assert_eq!(
            got,
            want,
            "{tool}: `{}` ({}, {}), cycle {i}: (fail, violated, satisfied) = {got:?}, the core monitor says {want:?}; \
             trace up to here: {:?}",
            c.formula,
            c.name,
            c.clocking.describe(),
            &c.trace[..=i.min(c.trace.len() - 1)]
        );
        seen[j][i] = true;
    }
    for (j, s) in seen.iter().enumerate() {
        let n = if cs[j].clocking.reset.is_some() {
            len
        } else {
            cs[j].trace.len()
        };
        assert!(
            s[..n].iter().all(|&x| x),
            "{tool}: no output for some cycles of case {j}\n{out}"
        );
    }
}

/// The clock port's connection in a testbench whose clock `clk` rises at
/// every sampling edge.
fn clock_wire(c: &Compiled, clk: &str, clk_n: &str) -> String {
    match c.clocking.clock.edge {
        ClockEdge::Posedge => clk.to_string(),
        ClockEdge::Negedge => clk_n.to_string(),
    }
}

fn verilog_testbench(cs: &[Compiled], len: usize) -> String {
    let mut tb = String::from("module tb;\n  reg clk = 1'b0;\n  reg pl = 1'b0;\n  integer i;\n");
    for (j, c) in cs.iter().enumerate() {
        let k = c.verilog_ports.len();
        let _ = writeln!(tb, "  reg [{}:0] stim_{j} [0:{}];", k + 1, len - 1);
        let _ = writeln!(tb, "  reg [{}:0] cur_{j};", k + 1);
        let _ = writeln!(tb, "  wire f_{j}, v_{j};");
        // The reset is active when the cycle is a reset cycle, or during
        // the pulse.
        let _ = writeln!(
            tb,
            "  wire act_{j} = !cur_{j}[{}] || (cur_{j}[{k}] && pl);",
            k + 1
        );
        let clock = &c.clocking.clock.name;
        let mut conns = vec![format!(".{clock}({})", clock_wire(c, "clk", "!clk"))];
        if let Some(r) = &c.clocking.reset {
            let level = if r.active_low { "!" } else { "" };
            conns.push(format!(".{}({level}act_{j})", r.name));
        }
        for (b, p) in c.verilog_ports.iter().enumerate() {
            conns.push(format!(".{p}(cur_{j}[{b}])"));
        }
        conns.push(format!(".violated(v_{j})"));
        conns.push(format!(".fail(f_{j})"));
        if c.three {
            let _ = writeln!(tb, "  wire s_{j};");
            conns.push(format!(".satisfied(s_{j})"));
        } else {
            let _ = writeln!(tb, "  wire s_{j} = 1'b0;");
        }
        let _ = writeln!(tb, "  {}_checker u_{j} ({});", c.name, conns.join(", "));
    }
    tb.push_str("  initial begin\n");
    for j in 0..cs.len() {
        let _ = writeln!(tb, "    $readmemb(\"stim_{j}.txt\", stim_{j});");
    }
    let _ = writeln!(tb, "    for (i = 0; i < {len}; i = i + 1) begin");
    for j in 0..cs.len() {
        let _ = writeln!(tb, "      cur_{j} = stim_{j}[i];");
    }
    tb.push_str("      pl = 1'b1;\n      #1;\n      pl = 1'b0;\n      #1;\n");
    for j in 0..cs.len() {
        let _ = writeln!(
            tb,
            "      $display(\"{j} %0d %b%b%b\", i, f_{j}, v_{j}, s_{j});"
        );
    }
    tb.push_str("      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n    end\n    $finish;\n  end\nendmodule\n");
    tb
}

fn systemc_testbench(cs: &[Compiled], len: usize) -> String {
    let mut tb = String::from(
        "#include <cstdio>\n#include <fstream>\n#include <string>\n#include <vector>\n",
    );
    for c in cs {
        let _ = writeln!(tb, "#include \"{}_checker.h\"", c.name);
    }
    tb.push_str(
        "\nstatic std::vector<std::string> lines(const char* path) {\n  std::ifstream in(path);\n  std::vector<std::string> v;\n  std::string l;\n  while (std::getline(in, l)) v.push_back(l);\n  return v;\n}\n\nint sc_main(int, char**) {\n  sc_core::sc_signal<bool> clk(\"clk\"), clk_n(\"clk_n\");\n",
    );
    for (j, c) in cs.iter().enumerate() {
        let k = c.systemc_ports.len();
        let _ = writeln!(
            tb,
            "  sc_core::sc_vector<sc_core::sc_signal<bool>> in_{j}(\"in_{j}\", {});",
            k + 1
        );
        let _ = writeln!(
            tb,
            "  sc_core::sc_signal<bool> f_{j}(\"f_{j}\"), v_{j}(\"v_{j}\"), s_{j}(\"s_{j}\");"
        );
        let _ = writeln!(tb, "  {}_checker u_{j}(\"u_{j}\");", c.name);
        let _ = writeln!(
            tb,
            "  u_{j}.{}({});",
            c.clocking.clock.name,
            clock_wire(c, "clk", "clk_n")
        );
        if let Some(r) = &c.clocking.reset {
            let _ = writeln!(tb, "  u_{j}.{}(in_{j}[{k}]);", r.name);
        }
        for (b, p) in c.systemc_ports.iter().enumerate() {
            let _ = writeln!(tb, "  u_{j}.{p}(in_{j}[{b}]);");
        }
        let _ = writeln!(tb, "  u_{j}.violated(v_{j});\n  u_{j}.fail(f_{j});");
        if c.three {
            let _ = writeln!(tb, "  u_{j}.satisfied(s_{j});");
        }
        let _ = writeln!(
            tb,
            "  const std::vector<std::string> stim_{j} = lines(\"stim_{j}.txt\");"
        );
    }
    let _ = writeln!(tb, "  for (int i = 0; i < {len}; ++i) {{");
    tb.push_str("    clk.write(false);\n    clk_n.write(true);\n");
    // Line: run, pulse, then the propositions from the last to the first.
    let reset_level = |c: &Compiled, active: &str| match &c.clocking.reset {
        Some(r) if r.active_low => format!("!({active})"),
        _ => active.to_string(),
    };
    for (j, c) in cs.iter().enumerate() {
        let k = c.systemc_ports.len();
        let _ = writeln!(
            tb,
            "    for (int b = 0; b < {k}; ++b) in_{j}[b].write(stim_{j}[i][{k} + 1 - b] == '1');"
        );
        let level = reset_level(
            c,
            &format!("stim_{j}[i][0] != '1' || stim_{j}[i][1] == '1'"),
        );
        let _ = writeln!(tb, "    in_{j}[{k}].write({level});");
    }
    tb.push_str("    sc_core::sc_start(1, sc_core::SC_NS);\n");
    for (j, c) in cs.iter().enumerate() {
        let k = c.systemc_ports.len();
        let level = reset_level(c, &format!("stim_{j}[i][0] != '1'"));
        let _ = writeln!(tb, "    in_{j}[{k}].write({level});");
    }
    tb.push_str("    sc_core::sc_start(1, sc_core::SC_NS);\n");
    for j in 0..cs.len() {
        let _ = writeln!(
            tb,
            "    std::printf(\"{j} %d %d%d%d\\n\", i, int(f_{j}.read()), int(v_{j}.read()), int(s_{j}.read()));"
        );
    }
    tb.push_str(
        "    clk.write(true);\n    clk_n.write(false);\n    sc_core::sc_start(1, sc_core::SC_NS);\n  }\n  return 0;\n}\n",
    );
    tb
}

fn write_verilog(dir: &Path, cs: &[Compiled]) -> Vec<String> {
    cs.iter()
        .map(|c| {
            let file = format!("{}_checker.v", c.name);
            std::fs::write(dir.join(&file), &c.verilog).unwrap();
            file
        })
        .collect()
}

fn verilator() -> Option<PathBuf> {
    tool("verilator", &[], "apt-get install -y verilator")
}

fn yosys() -> Option<PathBuf> {
    tool("yosys", &[], "apt-get install -y yosys")
}

/// Compiles every case and writes the checkers, the stimuli and the
/// Verilog testbench (`tb.v`, first of the files) to a fresh directory.
fn simulation_setup(test: &str) -> (Vec<Compiled>, PathBuf, usize, Vec<String>) {
    let cs = compile_all();
    let dir = scratch(test);
    let len = write_stimuli(&dir, &cs);
    let mut files = write_verilog(&dir, &cs);
    std::fs::write(dir.join("tb.v"), verilog_testbench(&cs, len)).unwrap();
    files.insert(0, "tb.v".into());
    (cs, dir, len, files)
}

/// `verilator --lint-only -Wall` on a file, plain and with FORMAL or
/// ASSERTIONS defined: an error unless it succeeds silently.
fn lint(dir: &Path, verilator: &Path, file: &str) -> Result<(), String> {
    for extra in [
        &[][..],
        &["-DFORMAL"][..],
        &["--assert", "-DASSERTIONS"][..],
    ] {
        let mut args = vec!["--lint-only", "-Wall"];
        args.extend_from_slice(extra);
        args.push(file);
        let o = run(dir, verilator, &args);
        if !o.status.success() || !text(&o).trim().is_empty() {
            return Err(format!("verilator {args:?}:\n{}", text(&o)));
        }
    }
    Ok(())
}

#[test]
fn icarus_simulation_matches_the_monitor() {
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let (cs, dir, len, files) = simulation_setup("icarus");
    let mut args = vec!["-o", "sim"];
    args.extend(files.iter().map(String::as_str));
    let o = run(&dir, &iverilog, &args);
    assert!(o.status.success(), "iverilog failed:\n{}", text(&o));
    let o = run(&dir, &vvp, &["-n", "sim"]);
    assert!(o.status.success(), "vvp failed:\n{}", text(&o));
    check_outputs(
        "Icarus Verilog",
        &String::from_utf8_lossy(&o.stdout),
        &cs,
        len,
    );
}

#[test]
fn verilator_simulation_matches_the_monitor() {
    let Some(verilator) = verilator() else {
        return;
    };
    let (cs, dir, len, files) = simulation_setup("verilator");
    let mut args = vec![
        "--binary",
        "--timing",
        "-j",
        "2",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--top-module",
        "tb",
        "-Mdir",
        "obj",
        "-o",
        "sim",
    ];
    args.extend(files.iter().map(String::as_str));
    let o = run(&dir, &verilator, &args);
    assert!(o.status.success(), "verilator failed:\n{}", text(&o));
    let o = run(&dir, &dir.join("obj/sim"), &[]);
    assert!(o.status.success(), "simulation failed:\n{}", text(&o));
    check_outputs("Verilator", &String::from_utf8_lossy(&o.stdout), &cs, len);
}

/// The SystemVerilog checkers in Verilator with assertions on: the same
/// outputs, and one assertion failure (`$error`) per failing cycle.
#[test]
fn verilator_runs_the_sva_checkers() {
    let Some(verilator) = verilator() else {
        return;
    };
    let cs = compile_all();
    let dir = scratch("verilator-sva");
    let len = write_stimuli(&dir, &cs);
    let mut files = vec!["tb.v".to_string()];
    std::fs::write(dir.join("tb.v"), verilog_testbench(&cs, len)).unwrap();
    for c in &cs {
        let file = format!("{}_checker.sv", c.name);
        std::fs::write(dir.join(&file), &c.sva).unwrap();
        files.push(file);
    }
    let mut args = vec![
        "--binary",
        "--timing",
        "--assert",
        "-j",
        "2",
        "-Wno-fatal",
        "-Wno-lint",
        "-Wno-style",
        "--top-module",
        "tb",
        "-Mdir",
        "obj",
        "-o",
        "sim",
    ];
    args.extend(files.iter().map(String::as_str));
    let o = run(&dir, &verilator, &args);
    assert!(o.status.success(), "verilator failed:\n{}", text(&o));
    let o = run(
        &dir,
        &dir.join("obj/sim"),
        &["+verilator+error+limit+1000000"],
    );
    assert!(o.status.success(), "simulation failed:\n{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    check_outputs("Verilator (SVA)", &out, &cs, len);
    let all = text(&o);
    for c in &cs {
        let want = expected_clocked(&c.dfa, &c.trace, &c.clocking)
            .iter()
            .filter(|o| o[0])
            .count();
        let message = format!("{}_checker: property ", c.name);
        let got = all.lines().filter(|l| l.contains(&message)).count();
        assert_eq!(
            got, want,
            "`{}` ({}): {got} assertion failures, {want} failing cycles\n{all}",
            c.formula, c.name
        );
    }
}

#[test]
fn checkers_are_lint_clean() {
    let Some(verilator) = verilator() else {
        return;
    };
    let cs = compile_all();
    let dir = scratch("lint");
    let files = write_verilog(&dir, &cs);
    for (c, file) in cs.iter().zip(&files) {
        if let Err(e) = lint(&dir, &verilator, file) {
            panic!("{e} on the checker of `{}`:\n{}", c.formula, c.verilog);
        }
    }
    // The SystemVerilog checkers: both branches (concurrent assertions,
    // and Yosys' immediate ones).
    for c in &cs {
        let file = format!("{}_checker.sv", c.name);
        std::fs::write(dir.join(&file), &c.sva).unwrap();
        for extra in [&["--timing"][..], &["-DYOSYS"][..]] {
            let mut args = vec!["--lint-only", "-Wall", "--assert"];
            args.extend_from_slice(extra);
            args.push(&file);
            let o = run(&dir, &verilator, &args);
            assert!(
                o.status.success() && text(&o).trim().is_empty(),
                "verilator {args:?} on the checker of `{}`:\n{}\n{}",
                c.formula,
                text(&o),
                c.sva
            );
        }
    }
}

/// Yosys reads every SystemVerilog checker (`read_verilog -formal -sv`)
/// and finds its assertions (and covers, for three-valued monitors).
#[test]
fn yosys_reads_the_sva_checkers() {
    let Some(yosys) = yosys() else {
        return;
    };
    let cs = compile_all();
    let dir = scratch("yosys-sva");
    let mut script = String::new();
    for c in &cs {
        let file = format!("{}_checker.sv", c.name);
        std::fs::write(dir.join(&file), &c.sva).unwrap();
        let _ = write!(script, "read_verilog -formal -sv {file}; ");
    }
    for c in &cs {
        let m = format!("{}_checker", c.name);
        // `!fail` and `!violated_q` (for k-induction), and the one-hot
        // state's legality.
        let asserts = if c.sva.contains("a_state:") { 3 } else { 2 };
        let _ = write!(
            script,
            "select -assert-count {asserts} {m}/t:$assert; select -assert-count {} {m}/t:$cover; ",
            usize::from(c.three)
        );
    }
    let o = run(&dir, &yosys, &["-q", "-p", &script]);
    assert!(o.status.success(), "yosys:\n{}", text(&o));
}

/// Yosys `stat` per module: cell counts by type.
fn yosys_stats(log: &str) -> Vec<(String, Vec<(String, usize)>)> {
    let mut out: Vec<(String, Vec<(String, usize)>)> = Vec::new();
    for line in log.lines() {
        let t = line.trim();
        if let Some(m) = t.strip_prefix("=== ").and_then(|s| s.strip_suffix(" ===")) {
            out.push((m.to_string(), Vec::new()));
        } else if t.starts_with('$') {
            let mut parts = t.split_whitespace();
            if let (Some(cell), Some(Ok(n)), Some((_, cells))) =
                (parts.next(), parts.next().map(str::parse), out.last_mut())
            {
                cells.push((cell.to_string(), n));
            }
        }
    }
    out
}

/// Flip-flop bits in a `stat` list: single-bit cells after synthesis
/// (`$_SDFF_PN0_`), or word cells annotated with their width by
/// `stat -width` (`$dff_3`).
fn flip_flops(cells: &[(String, usize)]) -> usize {
    cells
        .iter()
        .filter(|(t, _)| t.to_ascii_lowercase().contains("dff"))
        .map(|(t, n)| {
            let width = t
                .rsplit_once('_')
                .and_then(|(_, w)| w.parse::<usize>().ok())
                .filter(|_| !t.starts_with("$_"))
                .unwrap_or(1);
            width * n
        })
        .sum()
}

#[test]
fn yosys_synthesizes_with_the_promised_flip_flops() {
    let Some(yosys) = yosys() else {
        return;
    };
    let cs = compile_all();
    let dir = scratch("yosys");
    let files = write_verilog(&dir, &cs);
    let script = format!(
        "read_verilog {}; proc; tee -q -o rtl.txt stat -width; synth; tee -q -o synth.txt stat",
        files.join(" ")
    );
    let o = run(&dir, &yosys, &["-q", "-p", &script]);
    assert!(o.status.success(), "yosys failed:\n{}", text(&o));
    let rtl = yosys_stats(&std::fs::read_to_string(dir.join("rtl.txt")).unwrap());
    let synth = yosys_stats(&std::fs::read_to_string(dir.join("synth.txt")).unwrap());
    for c in &cs {
        let module = format!("{}_checker", c.name);
        let find = |stats: &[(String, Vec<(String, usize)>)]| {
            stats
                .iter()
                .find(|(m, _)| *m == module)
                .map(|(_, cells)| cells.clone())
                .unwrap_or_else(|| panic!("no statistics for {module}"))
        };
        let (rtl, synth) = (find(&rtl), find(&synth));
        // The register transfer level has exactly the promised state bits
        // plus `violated`; synthesis may drop unobservable ones.
        assert_eq!(
            flip_flops(&rtl),
            c.bits + 1,
            "checker of `{}` ({} states): {rtl:?}",
            c.formula,
            c.dfa.num_states()
        );
        assert!(
            flip_flops(&synth) <= c.bits + 1,
            "checker of `{}`: {synth:?}",
            c.formula
        );
        for cells in [&rtl, &synth] {
            assert!(
                !cells
                    .iter()
                    .any(|(t, _)| t.to_ascii_lowercase().contains("latch")),
                "latch in the checker of `{}`: {cells:?}",
                c.formula
            );
        }
    }
}

#[test]
fn systemc_simulation_matches_the_monitor() {
    let Some(gxx) = tool("g++", &[], "apt-get install -y g++") else {
        return;
    };
    if !Path::new("/usr/include/systemc").exists()
        && std::env::var_os("MONGEN_SKIP_TOOLS").is_some()
    {
        eprintln!("SKIPPED: SystemC headers not found and MONGEN_SKIP_TOOLS is set");
        return;
    }
    assert!(
        Path::new("/usr/include/systemc").exists(),
        "SystemC is not installed; install it with: apt-get install -y libsystemc-dev (or run scripts/install-tools.sh)"
    );
    let cs = compile_all();
    let dir = scratch("systemc");
    let len = write_stimuli(&dir, &cs);
    for c in &cs {
        std::fs::write(dir.join(format!("{}_checker.h", c.name)), &c.systemc).unwrap();
    }
    std::fs::write(dir.join("tb.cpp"), systemc_testbench(&cs, len)).unwrap();
    let out = build_and_run_systemc(&dir, &gxx);
    check_outputs("SystemC", &out, &cs, len);
}

/// Builds `tb.cpp` in `dir` with g++ (strict warnings) against SystemC
/// and runs it; panics if either fails.
fn build_and_run_systemc(dir: &Path, gxx: &Path) -> String {
    let o = run(
        dir,
        gxx,
        &[
            "-std=c++17",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O1",
            "-o",
            "tb",
            "tb.cpp",
            "-lsystemc",
        ],
    );
    assert!(o.status.success(), "g++ failed:\n{}", text(&o));
    let o = std::process::Command::new(dir.join("tb"))
        .current_dir(dir)
        .env("SC_COPYRIGHT_MESSAGE", "DISABLE")
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "the SystemC testbench failed:\n{}",
        text(&o)
    );
    text(&o)
}

/// The macro list used for mangling covers what this compiler defines.
#[test]
fn cpp_macro_list_covers_the_compiler() {
    let Some(gxx) = tool("g++", &[], "apt-get install -y g++") else {
        return;
    };
    if !Path::new("/usr/include/systemc").exists() {
        assert!(
            std::env::var_os("MONGEN_SKIP_TOOLS").is_some(),
            "SystemC is not installed; install it with: apt-get install -y libsystemc-dev"
        );
        return;
    }
    let dir = scratch("macros");
    std::fs::write(
        dir.join("all.cpp"),
        "#include <bits/stdc++.h>\n#include <systemc>\n#include <systemc.h>\n",
    )
    .unwrap();
    let o = run(&dir, &gxx, &["-std=gnu++17", "-dM", "-E", "all.cpp"]);
    assert!(o.status.success(), "{}", text(&o));
    let missing: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| l.strip_prefix("#define "))
        .map(|l| l.split([' ', '(']).next().unwrap().to_string())
        // A macro SystemC ports could be named after.
        .filter(|m| cpp_usable(m))
        .collect();
    assert!(
        missing.is_empty(),
        "macros missing from codegen/src/emit/cpp_macros.txt (run scripts/cpp-macros.sh): {missing:?}"
    );
}

/// The example of `examples/hardware`: the properties, one per line.
/// The properties of the arbiter example, in run.sh's order: those of
/// properties.ltl, then those of properties.psl, parsed.
fn arbiter_properties() -> Vec<(String, monitor_core::formula::Formula)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hardware");
    let mut out = Vec::new();
    for (file, psl) in [("properties.ltl", false), ("properties.psl", true)] {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        for line in data_lines(&text) {
            let f = if psl {
                monitor_core::formula::parse_psl(line).unwrap()
            } else {
                monitor_core::formula::parse(line).unwrap()
            };
            out.push((line.to_string(), f));
        }
    }
    out
}

/// The value of each step (from 1) of one signal of a Yosys `-dump_json`
/// counterexample (WaveJSON: `.` repeats, the first character is the
/// initial state).
fn wave(json: &str, signal: &str) -> Vec<bool> {
    let key = format!("{{ \"name\": \"{signal}\", \"wave\": \"");
    let start = json
        .find(&key)
        .unwrap_or_else(|| panic!("no {signal} in\n{json}"))
        + key.len();
    let chars = &json[start..json[start..].find('"').unwrap() + start];
    let mut out = Vec::new();
    let mut last = false;
    for c in chars.chars().skip(1) {
        match c {
            '0' => last = false,
            '1' => last = true,
            '.' => {}
            other => panic!("{signal}: unexpected value {other:?} in {chars}"),
        }
        out.push(last);
    }
    out
}

/// Yosys proves every checker's assertion on the round-robin arbiter, and
/// finds a counterexample for the fixed-priority one; the counterexample
/// is a bad prefix of one of the properties.
#[test]
fn yosys_proves_the_arbiter_and_refutes_the_buggy_one() {
    for dialect in [Dialect::Verilog, Dialect::Sva] {
        prove_the_arbiter(dialect);
    }
}

/// The arbiter proof with the checkers of one dialect (the SystemVerilog
/// ones through their `YOSYS` branch).
fn prove_the_arbiter(dialect: Dialect) {
    let Some(yosys) = yosys() else {
        return;
    };
    let dir = scratch(&format!("formal-{dialect:?}"));
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hardware");
    let mut files = vec![example.join("arbiter_top.v").display().to_string()];
    let mut dfas = Vec::new();
    for (k, (p, f)) in arbiter_properties().iter().enumerate() {
        let dfa = Builder::new().build_from_formula(f).unwrap().into_dfa();
        let name = format!("prop_{}", k + 1);
        let v = emit_verilog(
            &dfa,
            &VerilogOptions {
                common: Common::named(name.clone()),
                dialect,
                ..Default::default()
            },
        )
        .unwrap();
        let ext = if dialect == Dialect::Sva { "sv" } else { "v" };
        let file = dir.join(format!("{name}_checker.{ext}"));
        std::fs::write(&file, v).unwrap();
        files.push(file.display().to_string());
        dfas.push((p.clone(), dfa));
    }
    assert_eq!(dfas.len(), 6, "examples/hardware/properties.* changed");
    let prove = |design: &str| {
        let script = format!(
            "read_verilog -formal -sv {} {}; prep -top arbiter_top; flatten; async2sync; dffunmap; \
             sat -tempinduct -prove-asserts -set-assumes -maxsteps 24 -dump_json cex.json \
             -show rst_n,req0,req1,gnt0,gnt1 arbiter_top",
            example.join(design).display(),
            files.join(" ")
        );
        let _ = std::fs::remove_file(dir.join("cex.json"));
        let o = run(&dir, &yosys, &["-p", &script]);
        text(&o)
    };
    let log = prove("arbiter.v");
    assert!(
        log.contains("Induction step proven: SUCCESS"),
        "the assertions of the checkers are not proven on arbiter.v:\n{log}"
    );
    let log = prove("arbiter_bug.v");
    assert!(
        log.contains("model found for base case: FAIL"),
        "no counterexample on arbiter_bug.v:\n{log}"
    );
    let json = std::fs::read_to_string(dir.join("cex.json")).unwrap();
    let rst_n = wave(&json, "rst_n");
    let signals: Vec<(&str, Vec<bool>)> = ["req0", "req1", "gnt0", "gnt1"]
        .iter()
        .map(|s| (*s, wave(&json, s)))
        .collect();
    // The letters after the last reset (the assertion fires one step
    // after the violating letter, which may be a reset step).
    let last_reset = rst_n.iter().rposition(|r| !r).unwrap();
    let steps = rst_n.len();
    let first = rst_n[..last_reset]
        .iter()
        .rposition(|r| !r)
        .map_or(0, |i| i + 1);
    let range = if last_reset + 1 == steps {
        first..last_reset
    } else {
        last_reset + 1..steps
    };
    let violated: Vec<&str> = dfas
        .iter()
        .filter(|(_, dfa)| {
            let word = range.clone().map(|i| {
                let mut l = 0u64;
                for (k, name) in dfa.alphabet().names().iter().enumerate() {
                    let (_, vals) = signals.iter().find(|(s, _)| s == name).unwrap();
                    if vals[i] {
                        l |= 1 << k;
                    }
                }
                l
            });
            dfa.run(word) == Verdict::Violated
        })
        .map(|(p, _)| p.as_str())
        .collect();
    assert!(
        !violated.is_empty(),
        "the counterexample is a bad prefix of no property:\n{json}"
    );
    // Fixed priority starves client 0: its response property fails, and
    // the counterexample may run on to where it has waited three cycles;
    // nothing else fails (the solver picks the trace).
    assert_eq!(
        violated[0], "G((req0 & X req0) -> X(gnt0 | X gnt0))",
        "{json}"
    );
    for p in &violated[1..] {
        assert_eq!(*p, "never {(req0 && !gnt0)[*3]}", "{json}");
    }
}

/// Every keyword and reserved word of the targets, and odd names, as
/// propositions: the checkers are lint-clean, compile and elaborate.
#[test]
fn every_keyword_and_odd_name_is_mangled() {
    use mongen::emit::names::{CPP_KEYWORDS, SYSTEMC_MEMBERS, VERILATOR_WORDS, VERILOG_KEYWORDS};
    use mongen::emit::systemc::SYSTEMC_RESERVED;
    use mongen::emit::verilog::VERILOG_RESERVED;
    let Some(verilator) = verilator() else {
        return;
    };
    let iverilog = tool("iverilog", &[], "apt-get install -y iverilog").unwrap();
    let gxx = tool("g++", &[], "apt-get install -y g++").unwrap();
    let mut words: Vec<String> = VERILOG_KEYWORDS
        .iter()
        .chain(CPP_KEYWORDS)
        .chain(VERILATOR_WORDS)
        .chain(SYSTEMC_MEMBERS)
        .chain(SYSTEMC_RESERVED)
        .chain(VERILOG_RESERVED)
        .map(|s| s.to_string())
        .collect();
    for odd in [
        "EOF",
        "NULL",
        "errno",
        "assert",
        "stdin",
        "linux",
        "unix",
        "M_PI",
        "INT_MAX",
        "SC_MODULE",
        "sc_core",
        "a b",
        "x > 3",
        "*/",
        "a__b",
        "_Foo",
        "3d",
        "é",
        "\\",
        "p_if",
        "monitor_checker",
        "w0_checker",
        "tb",
        "main",
    ] {
        words.push(odd.to_string());
    }
    words.sort();
    words.dedup();
    let dir = scratch("keywords");
    let mut headers = String::from("#include <cstdio>\n");
    let mut body =
        String::from("int sc_main(int, char**) {\n  sc_core::sc_signal<bool> clk(\"clk\");\n");
    for (k, chunk) in words.chunks(24).enumerate() {
        let quoted: Vec<String> = chunk
            .iter()
            .map(|w| monitor_core::formula::print::double_quoted(w))
            .collect();
        let f = format!("G({} -> X({}))", quoted[0], quoted[1..].join(" | "));
        let dfa = Builder::new().build(&f).unwrap().into_dfa();
        assert_eq!(dfa.alphabet().len(), chunk.len(), "{f}");
        let name = format!("w{k}");
        for enc in [StateEncoding::Binary, StateEncoding::OneHot] {
            let v = emit_verilog(
                &dfa,
                &VerilogOptions {
                    common: Common {
                        name: name.clone(),
                        three_valued: true,
                        ..Common::default()
                    },
                    encoding: Some(enc),
                    ..Default::default()
                },
            )
            .unwrap();
            let file = format!("{name}_checker.v");
            std::fs::write(dir.join(&file), &v).unwrap();
            if let Err(e) = lint(&dir, &verilator, &file) {
                panic!("{e} on the checker of `{f}`:\n{v}");
            }
            let o = run(
                &dir,
                &iverilog,
                // Not /dev/null: iverilog removes its output file when a
                // compile fails, and /dev/null would be gone for the machine.
                &["-g2012", "-DASSERTIONS", "-o", "checker.vvp", &file],
            );
            assert!(o.status.success(), "iverilog on `{f}`:\n{}\n{v}", text(&o));
        }
        let h = emit_systemc(
            &dfa,
            &SystemcOptions {
                common: Common {
                    name: name.clone(),
                    three_valued: true,
                    ..Common::default()
                },
                ..Default::default()
            },
        )
        .unwrap();
        std::fs::write(dir.join(format!("{name}_checker.h")), &h).unwrap();
        let _ = writeln!(headers, "#include \"{name}_checker.h\"");
        let ports = systemc_bindings(dfa.alphabet(), &name, &[], &Default::default()).unwrap();
        let _ = writeln!(
            body,
            "  sc_core::sc_vector<sc_core::sc_signal<bool>> s{k}(\"s{k}\", {});\n  {name}_checker u{k}(\"u{k}\");\n  u{k}.clk(clk);\n  u{k}.rst_n(s{k}[0]);\n  u{k}.violated(s{k}[1]);\n  u{k}.fail(s{k}[2]);\n  u{k}.satisfied(s{k}[3]);",
            ports.len() + 4
        );
        for (i, p) in ports.iter().enumerate() {
            let _ = writeln!(body, "  u{k}.{}(s{k}[{}]);", p.ident, i + 4);
        }
    }
    body.push_str(
        "  sc_core::sc_start(3, sc_core::SC_NS);\n  std::puts(\"elaborated\");\n  return 0;\n}\n",
    );
    std::fs::write(dir.join("tb.cpp"), headers + &body).unwrap();
    let out = build_and_run_systemc(&dir, &gxx);
    assert!(
        out.contains("elaborated") && !out.contains("Warning") && !out.contains("Error"),
        "SystemC elaboration:\n{out}"
    );
}

/// The design signals of `literals_and_selects_are_kept_as_written`, and
/// what each proposition means over them (evaluated here, independently
/// of the emitters).
type VectorSample = (u8, u8, u8); // data[7:0], grant[1:0], count[3:0]

fn vector_proposition(name: &str, (data, grant, count): VectorSample) -> bool {
    match name {
        "data[3] != 1'b0" => data & 8 != 0,
        "data[3]" => data & 8 != 0,
        "grant[1:0] == 2'b01" => grant & 3 == 1,
        "grant == 2'b10" => grant == 2,
        "count >= 4'd12" => count >= 12,
        "count == 4'b0000" => count == 0,
        "data[7:4] == 4'hA" => data >> 4 == 0xA,
        other => panic!("no meaning for {other}"),
    }
}

#[test]
fn literals_and_selects_are_kept_as_written() {
    // PSL over vectors: the suggested instantiation connects the design's
    // own expressions (`data[3] != 1'b0`, `grant[1:0] == 2'b01`), which
    // Icarus (with every warning) and Verilator (-Wall) accept, and the
    // checker's `fail` equals the core monitor's verdict cycle by cycle.
    let Some(iverilog) = tool("iverilog", &[], "apt-get install -y iverilog") else {
        return;
    };
    let Some(vvp) = tool("vvp", &[], "apt-get install -y iverilog") else {
        return;
    };
    let Some(verilator) = verilator() else { return };
    let properties = [
        "always (data[3] != 1'b0 && grant[1:0] == 2'b01) -> next (count >= 4'd12 || data[3])",
        "never {grant == 2'b10; count == 4'b0000}",
        "always data[7:4] == 4'hA -> next !(grant[1:0] == 2'b01)",
    ];
    let dir = scratch("vector-literals");
    let mut rng = SplitMix64::new(0x5eed_1e7e);
    let len = 400;
    let samples: Vec<VectorSample> = (0..len)
        .map(|_| {
            let r = rng.next_u64();
            // Values that make the propositions true often enough.
            let data = if r & 1 == 0 { 0xA8 } else { (r >> 8) as u8 };
            let grant = ((r >> 16) % 3) as u8;
            let count = if r & 2 == 0 {
                0
            } else {
                ((r >> 24) & 15) as u8
            };
            (data, grant, count)
        })
        .collect();
    for (k, p) in properties.iter().enumerate() {
        let f = monitor_core::formula::parse_psl(p).unwrap();
        let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        let name = format!("vec{k}");
        let v = emit_verilog(
            &dfa,
            &VerilogOptions {
                common: Common::named(name.clone()),
                ..Default::default()
            },
        )
        .unwrap();
        // The instantiation the header suggests, as a user pastes it.
        let inst = v
            .lines()
            .skip_while(|l| !l.starts_with("// Instantiate"))
            .nth(1)
            .and_then(|l| l.strip_prefix("//   "))
            .unwrap_or_else(|| panic!("no instantiation in\n{v}"));
        assert!(!inst.contains("true") && !inst.contains("false"), "{inst}");
        let stim: String = samples
            .iter()
            .map(|(d, g, c)| format!("{d:08b}{g:02b}{c:04b}\n"))
            .collect();
        std::fs::write(dir.join("stim.txt"), stim).unwrap();
        // The design a user pastes it into, and a testbench around it.
        let design = format!(
            "`default_nettype none\nmodule dut_top (\n  input wire clk,\n  input wire rst_n,\n  /* verilator lint_off UNUSEDSIGNAL */ // each property reads some bits\n  input wire [7:0] data,\n  input wire [1:0] grant,\n  input wire [3:0] count,\n  /* verilator lint_on UNUSEDSIGNAL */\n  output wire violated,\n  output wire fail\n);\n  {inst}\nendmodule\n"
        );
        let top = format!(
            "`default_nettype none\nmodule tb;\n  reg clk = 1'b0;\n  reg rst_n = 1'b0;\n  reg [7:0] data;\n  reg [1:0] grant;\n  reg [3:0] count;\n  wire violated;\n  wire fail;\n  reg [13:0] stim [0:{}];\n  integer i;\n  dut_top dut (.clk(clk), .rst_n(rst_n), .data(data), .grant(grant), .count(count), .violated(violated), .fail(fail));\n  initial begin\n    $readmemb(\"stim.txt\", stim);\n    for (i = 0; i < {len}; i = i + 1) begin\n      {{data, grant, count}} = stim[i];\n      #1;\n      $display(\"%0d %b\", i, fail);\n      clk = 1'b1;\n      #1;\n      clk = 1'b0;\n      rst_n = 1'b1;\n    end\n    $finish;\n  end\nendmodule\n",
            len - 1
        );
        std::fs::write(dir.join("dut_top.v"), &design).unwrap();
        let checker = format!("{name}_checker.v");
        std::fs::write(dir.join(&checker), &v).unwrap();
        std::fs::write(dir.join("tb.v"), &top).unwrap();
        let o = run(
            &dir,
            &iverilog,
            &["-Wall", "-o", "sim", "tb.v", "dut_top.v", &checker],
        );
        assert!(
            o.status.success() && text(&o).trim().is_empty(),
            "iverilog -Wall on `{p}`:\n{}\n{top}",
            text(&o)
        );
        let out = text(&run(&dir, &vvp, &["-n", "sim"]));
        let got: Vec<bool> = out
            .lines()
            .filter_map(|l| l.split_once(' '))
            .filter(|(i, _)| i.parse::<usize>().is_ok())
            .map(|(_, f)| f == "1")
            .collect();
        // The first cycle is in reset.
        let trace: Vec<(bool, u64)> = samples
            .iter()
            .enumerate()
            .map(|(i, &s)| {
                let mut letter = 0u64;
                for (b, ap) in dfa.alphabet().names().iter().enumerate() {
                    if vector_proposition(ap, s) {
                        letter |= 1 << b;
                    }
                }
                (i > 0, letter)
            })
            .collect();
        let want: Vec<bool> = expected(&dfa, &trace).iter().map(|o| o[0]).collect();
        assert_eq!(got.len(), len, "{out}");
        assert_eq!(got, want, "`{p}`: fail per cycle");
        assert!(want.iter().any(|&f| f), "`{p}`: the trace never fails");
        // Verilator, every warning on, on the design with the checker
        // (`dut_top.v` holds `dut_top`: no file-name warning).
        let o = run(
            &dir,
            &verilator,
            &[
                "--lint-only",
                "-Wall",
                "--top-module",
                "dut_top",
                "dut_top.v",
                &checker,
            ],
        );
        assert!(
            o.status.success() && text(&o).trim().is_empty(),
            "verilator -Wall on `{p}`:\n{}",
            text(&o)
        );
    }
}

/// Proposition names that every hardware target must survive: keywords of
/// Verilog, SystemVerilog, C++ and SystemC, macros, the names the
/// generated code and the formal harness use themselves, comment closers
/// and openers, quotes, backslashes (one at the end of a comment line
/// would continue a C++ comment), line breaks, Unicode, a Verilog escaped
/// identifier, `endmodule`, names equal after mangling, and a name of ten
/// thousand characters.
fn hostile_names() -> Vec<String> {
    let mut v: Vec<String> = [
        "module",
        "endmodule",
        "always",
        "class",
        "int",
        "EOF",
        "errno",
        "SC_MODULE",
        "sc_core",
        "state_q",
        "state_d",
        "violated_q",
        "bad",
        "fail",
        "clk",
        "rst_n",
        "step",
        "tick",
        "s",
        "next",
        "_unused_ok",
        "f_init",
        "dut",
        "chk",
        "p_module",
        "a__b",
        "_X",
        "NULL",
        "assert",
        "*/",
        "/*",
        "//",
        "a\"b",
        "x\\",
        "a\\b",
        "x\ny",
        "caf\u{e9}",
        "\u{65e5}\u{672c}",
        "\\req+1 ",
        "a.b",
        "a_b",
        "a b",
        "`define",
        "#",
        ";",
        "endmodule\n",
        "??/",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.push("p".repeat(10_000));
    v
}

/// Rename invariance (issue 36's defence) for the hardware targets: random
/// formulas whose propositions get hostile names, under module names that
/// are keywords, compile into Verilog and SystemVerilog checkers that
/// `verilator --lint-only -Wall` accepts silently and SystemC headers that
/// `g++ -Wall -Wextra -Werror` builds; their monitors are those of the
/// same formulas with plain names (the same verdicts on every letter of
/// random traces), and Icarus and SystemC simulate them to the core
/// monitor's verdicts. Half the cases bind every name that is not an
/// identifier to a signal (`--define`), the other half leave the names as
/// the expressions of the instantiation comment, where an emitter may
/// refuse one with a clear error instead.
#[test]
fn hostile_names_keep_the_verdicts() {
    let Some(verilator) = verilator() else {
        return;
    };
    let iverilog = tool("iverilog", &[], "apt-get install -y iverilog").unwrap();
    let vvp = tool("vvp", &[], "apt-get install -y iverilog").unwrap();
    let gxx = tool("g++", &[], "apt-get install -y g++").unwrap();
    assert!(
        Path::new("/usr/include/systemc").exists(),
        "SystemC is not installed; install it with: apt-get install -y libsystemc-dev (or run scripts/install-tools.sh)"
    );
    let pool = hostile_names();
    let modules = [
        "module",
        "endmodule",
        "always",
        "class",
        "int",
        "SC_MODULE",
        "errno",
        "state_q",
    ];
    let plain = ["a0", "a1", "a2", "a3"];
    let mut rng = SplitMix64::new(0x4057_11e5);
    let mut cs = Vec::new();
    let mut refused = Vec::new();
    let mut next = 0;
    for j in 0..16usize {
        // Four names from the pool in turn, so that every one is used.
        let names: Vec<&str> = (0..4)
            .map(|_| {
                next += 1;
                pool[(next - 1) % pool.len()].as_str()
            })
            .collect();
        let size = 5 + j % 6;
        let seed = 0x7e57_0000 + j as u64;
        let hostile = RandomLtl::new(&names, size)
            .with_past()
            .seed(seed)
            .next_formula();
        let same = RandomLtl::new(&plain, size)
            .with_past()
            .seed(seed)
            .next_formula();
        let three = j % 3 == 0;
        let mut b = Builder::new();
        b.configure(Config::new().verdicts(if three {
            Verdicts::Three
        } else {
            Verdicts::Two
        }));
        let dfa = b.build_from_formula(&hostile).unwrap().into_dfa();
        let reference = b.build_from_formula(&same).unwrap().into_dfa();
        assert_eq!(
            dfa.num_states(),
            reference.num_states(),
            "{hostile} vs {same}"
        );
        // The letter of the plain formula for a letter of the hostile one.
        let to_plain: Vec<usize> = dfa
            .alphabet()
            .names()
            .iter()
            .map(|n| {
                let k = names.iter().position(|m| m == n).unwrap();
                reference
                    .alphabet()
                    .names()
                    .iter()
                    .position(|p| p == plain[k])
                    .unwrap()
            })
            .collect();
        let defines: Vec<(String, String)> = if j % 2 == 0 {
            dfa.alphabet()
                .names()
                .iter()
                .enumerate()
                .filter(|(_, n)| !mongen::emit::names::is_identifier(n))
                .map(|(k, n)| (n.clone(), format!("sig_{k}")))
                .collect()
        } else {
            Vec::new()
        };
        let name = if j < modules.len() {
            modules[j].to_string()
        } else {
            format!("c{j}")
        };
        let clocking = clocking_of(j);
        let common = Common {
            name: name.clone(),
            three_valued: three,
            defines: defines.clone(),
            ..Common::default()
        };
        let verilog_opts = |dialect| VerilogOptions {
            common: common.clone(),
            clocking: clocking.clone(),
            dialect,
            ..Default::default()
        };
        let emitted = (
            emit_verilog(&dfa, &verilog_opts(Dialect::Verilog)),
            emit_verilog(&dfa, &verilog_opts(Dialect::Sva)),
            emit_systemc(
                &dfa,
                &SystemcOptions {
                    common: common.clone(),
                    clocking: clocking.clone(),
                },
            ),
        );
        let (verilog, sva, systemc) = match emitted {
            (Ok(v), Ok(s), Ok(c)) => (v, s, c),
            (v, s, c) => {
                // A refusal names the proposition; anything else is a bug.
                for e in [v.err(), s.err(), c.err()].into_iter().flatten() {
                    assert!(
                        defines.is_empty()
                            && matches!(
                                e,
                                mongen::emit::EmitError::Proposition { .. }
                                    | mongen::emit::EmitError::Signal { .. }
                            ),
                        "{hostile}: {e}"
                    );
                    refused.push(format!("{hostile}: {e}"));
                }
                continue;
            }
        };
        let trace = with_pulses(stimulus(&dfa, &mut rng), &mut rng);
        // The same verdicts as the plain formula's monitor, letter by letter.
        let plain_trace: Vec<Cycle> = trace
            .iter()
            .map(|c| Cycle {
                letter: (0..to_plain.len())
                    .filter(|&k| (c.letter >> k) & 1 == 1)
                    .map(|k| 1u64 << to_plain[k])
                    .sum(),
                ..*c
            })
            .collect();
        assert_eq!(
            expected_clocked(&dfa, &trace, &clocking),
            expected_clocked(&reference, &plain_trace, &clocking),
            "{hostile} and {same} disagree"
        );
        let verilog_ports = verilog_bindings(dfa.alphabet(), &defines, &clocking)
            .unwrap()
            .into_iter()
            .map(|b| b.ident)
            .collect();
        let systemc_ports = systemc_bindings(dfa.alphabet(), &name, &defines, &clocking)
            .unwrap()
            .into_iter()
            .map(|b| b.ident)
            .collect();
        cs.push(Compiled {
            name,
            formula: hostile.to_string(),
            dfa,
            three,
            verilog,
            sva,
            verilog_ports,
            systemc,
            systemc_ports,
            bits: 0,
            clocking,
            trace,
        });
    }
    assert!(
        cs.len() >= 12,
        "too few cases compiled ({}); refused:\n{}",
        cs.len(),
        refused.join("\n")
    );
    let dir = scratch("hostile-names");
    let files = write_verilog(&dir, &cs);
    for (c, file) in cs.iter().zip(&files) {
        if let Err(e) = lint(&dir, &verilator, file) {
            panic!("{e} on the checker of `{}`:\n{}", c.formula, c.verilog);
        }
        let sv = format!("{}_checker.sv", c.name);
        std::fs::write(dir.join(&sv), &c.sva).unwrap();
        for extra in [&["--timing"][..], &["-DYOSYS"][..]] {
            let mut args = vec!["--lint-only", "-Wall", "--assert"];
            args.extend_from_slice(extra);
            args.push(&sv);
            let o = run(&dir, &verilator, &args);
            assert!(
                o.status.success() && text(&o).trim().is_empty(),
                "verilator {args:?} on the checker of `{}`:\n{}\n{}",
                c.formula,
                text(&o),
                c.sva
            );
        }
    }
    let len = write_stimuli(&dir, &cs);
    std::fs::write(dir.join("tb.v"), verilog_testbench(&cs, len)).unwrap();
    let mut args = vec!["-o", "sim", "tb.v"];
    args.extend(files.iter().map(String::as_str));
    let o = run(&dir, &iverilog, &args);
    assert!(o.status.success(), "iverilog failed:\n{}", text(&o));
    let o = run(&dir, &vvp, &["-n", "sim"]);
    assert!(o.status.success(), "vvp failed:\n{}", text(&o));
    check_outputs(
        "Icarus Verilog",
        &String::from_utf8_lossy(&o.stdout),
        &cs,
        len,
    );
    for c in &cs {
        std::fs::write(dir.join(format!("{}_checker.h", c.name)), &c.systemc).unwrap();
    }
    std::fs::write(dir.join("tb.cpp"), systemc_testbench(&cs, len)).unwrap();
    let out = build_and_run_systemc(&dir, &gxx);
    check_outputs("SystemC", &out, &cs, len);
    if !refused.is_empty() {
        eprintln!("refused with a clear error:\n{}", refused.join("\n"));
    }
}
