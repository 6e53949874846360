//! The `mongen` binary, run as users run it.

mod common;
use common::mongen;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongen-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

#[test]
fn compile_writes_hoa_by_default() {
    let o = mongen(&["compile", "G(req -> X ack)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("HOA: v1\nname: \"G(req -> Xack)\"\nStates: 2\n"),
        "{out}"
    );
    assert!(out.ends_with("--END--\n"));
    assert!(stderr(&o).is_empty());
}

#[test]
fn buchi_automata_in_hoa_and_liveness_claims() {
    // The Büchi automaton of the formula, state-based, without the
    // warning about safety closures (it is not one).
    let o = mongen(&["compile", "--buchi", "G(req -> F ack)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "HOA: v1\nname: \"G(req -> Fack)\"\nStates: 2\nStart: 0\nAP: 2 \"req\" \"ack\"\n\
         acc-name: Buchi\nAcceptance: 1 Inf(0)\n\
         properties: trans-labels explicit-labels state-acc deterministic stutter-invariant\n\
         tool: \"mongen\" \"0.1.0\"\n--BODY--\n\
         State: 0 {0}\n[!0 | 1] 0\n[0&!1] 1\nState: 1\n[1] 0\n[!1] 1\n--END--\n"
    );
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    // An empty language: one state, no edge.
    let o = mongen(&["compile", "--buchi", "a & !a"]);
    assert!(
        stdout(&o).contains("States: 1\n") && stdout(&o).ends_with("--BODY--\nState: 0\n--END--\n")
    );
    // A liveness property's claim is a Büchi claim, without warning; a
    // safety property keeps its deterministic claim unless asked.
    let o = mongen(&["compile", "-t", "promela", "GF progress"]);
    assert!(
        o.status.success() && stderr(&o).is_empty(),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("accept_"), "{}", stdout(&o));
    assert!(stdout(&o).contains("./pan -a"), "{}", stdout(&o));
    let o = mongen(&["compile", "-t", "promela", "G(a -> X b)"]);
    assert!(stdout(&o).contains("-DSAFETY") && !stdout(&o).contains("accept_"));
    let o = mongen(&[
        "compile",
        "-t",
        "promela",
        "--claim",
        "buchi",
        "G(a -> X b)",
    ]);
    assert!(stdout(&o).contains("accept_") && stdout(&o).contains("-DNOREDUCE"));
    let o = mongen(&[
        "compile",
        "-t",
        "promela",
        "--claim",
        "safety",
        "GF progress",
    ]);
    assert!(stdout(&o).contains("-DSAFETY"));
    assert!(
        stderr(&o).contains("is not a safety property"),
        "{}",
        stderr(&o)
    );
    // A Büchi automaton beyond --max-states: a clear error, once labelled.
    let o = mongen(&[
        "compile",
        "-q",
        "-t",
        "promela",
        "--claim",
        "buchi",
        "--max-states",
        "5",
        "GF p1 & GF p2 & GF p3 & GF p4 & GF p5 & GF p6",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "mongen: error: GFp1 & GFp2 & GFp3 & GFp4 & GFp5 & GFp6: the Büchi automaton exceeds \
         the limit of 5 states; raise it with --max-states N if this blow-up is expected\n"
    );
    // A claim asked for by name needs no monitor: the monitor of
    // !(GF p1 & … & GF p8) has 2^8 states, its negation's claim 9.
    let gf8 = "!(GF p1 & GF p2 & GF p3 & GF p4 & GF p5 & GF p6 & GF p7 & GF p8)";
    let o = mongen(&["compile", "-t", "promela", "--max-states", "50", gf8]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    for (target, kind) in [("promela", "--claim=buchi"), ("hoa", "--buchi")] {
        let o = mongen(&["compile", "-t", target, kind, "--max-states", "50", gf8]);
        assert!(o.status.success(), "{target}: {}", stderr(&o));
    }
    let o = mongen(&["compile", "-t", "promela", "--claim=buchi", gf8]);
    assert!(stdout(&o).contains("(9 states,"), "{}", stdout(&o));
    // Each state loops until an option leaves it, as in Spin's claims.
    assert!(stdout(&o).contains("mg_init:\n\tdo\n") && !stdout(&o).contains("fi;"));
    // classify gives the size of the claim for what is not safety.
    let o = mongen(&["classify", "G(req -> F ack)", "G a"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].ends_with("; Büchi claim of the negation: 2 states"),
        "{}",
        lines[0]
    );
    assert!(!lines[1].contains("Büchi"), "{}", lines[1]);
    // Options for other targets.
    let o = mongen(&["compile", "-t", "promela", "--buchi", "GF a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--buchi writes a Büchi automaton in HOA"),
        "{}",
        stderr(&o)
    );
    let o = mongen(&["compile", "--claim", "buchi", "GF a"]);
    assert!(
        stderr(&o).contains("--claim is for --target promela"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn several_formulas_give_one_stream() {
    let o = mongen(&["compile", "G a", "G(a -> X b)", "-t", "hoa"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).matches("HOA: v1").count(), 2);
    assert_eq!(stdout(&o).matches("--END--").count(), 2);
    let o = mongen(&["compile", "-t", "json", "G a", "G(a -> X b)"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    for l in lines {
        serde_json::from_str::<serde_json::Value>(l).unwrap();
    }
}

#[test]
fn file_input_reports_errors_with_file_line_and_caret() {
    let p = temp_file(
        "props.ltl",
        "# request/acknowledge\nG(req -> X ack)\n\nG(a U )\nF p -> (!q U p)\n",
    );
    let o = mongen(&["compile", "-F", p.to_str().unwrap(), "-t", "json", "-q"]);
    assert_eq!(o.status.code(), Some(2));
    // The two good formulas are still compiled.
    assert_eq!(stdout(&o).lines().count(), 2);
    let err = stderr(&o);
    assert!(
        err.contains("props.ltl: syntax error at line 4, column 7: expected a formula, found `)`\n  G(a U )\n        ^"),
        "{err}"
    );
}

#[test]
fn state_limit_stops_with_a_clear_message() {
    let o = mongen(&[
        "compile",
        "--max-states",
        "100",
        "Gp1 | Gp2 | Gp3 | Gp4 | Gp5 | Gp6 | Gp7 | Gp8",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("exceeds the limit of 100 states"), "{err}");
    assert!(err.contains("--max-states"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn non_safety_formulas_get_a_warning_with_a_witness() {
    let o = mongen(&["compile", "a U b"]);
    assert!(o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("warning: `a U b` is not a safety property"),
        "{err}"
    );
    assert!(err.contains("cycle{a & !b}"), "{err}");
    assert!(mongen(&["compile", "-q", "a U b"]).stderr.is_empty());
}

#[test]
fn informative_mode_explains_the_difference() {
    let o = mongen(&["compile", "--informative", "G(q | XGp) & G(r | XG!p)"]);
    assert!(o.status.success());
    let err = stderr(&o);
    assert!(
        err.contains("shortest bad prefix that is not informative: !q & !r"),
        "{err}"
    );
    let o = mongen(&["compile", "--informative", "G(a -> X b)"]);
    assert!(stderr(&o).contains("every bad prefix is informative"));
}

#[test]
fn three_valued_json() {
    let o = mongen(&["compile", "--verdicts", "3", "-t", "json", "-q", "a U b"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["verdicts"], 3);
    assert_eq!(v["states"][1]["verdict"], "satisfied");
    assert_eq!(
        mongen(&["compile", "--verdicts", "4", "a"]).status.code(),
        Some(2)
    );
}

#[test]
fn classify_json_has_the_documented_fields() {
    let o = mongen(&[
        "classify",
        "--json",
        "F p0 -> (!p1 U p0)",
        "F p",
        "G(a -> Y b)",
    ]);
    assert!(o.status.success());
    let rows: Vec<serde_json::Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 3);
    for key in [
        "safety",
        "syntactic_safety",
        "guarantee",
        "stutter_invariant",
        "pathologic",
    ] {
        assert!(rows.iter().all(|r| r[key].is_boolean()), "{key}");
    }
    assert_eq!(rows[0]["safety"], true);
    assert_eq!(rows[0]["syntactic_safety"], false);
    assert_eq!(rows[1]["safety"], false);
    assert_eq!(rows[1]["guarantee"], true);
    assert_eq!(rows[2]["stutter_invariant"], false);
}

#[test]
fn classify_human_lines() {
    let o = mongen(&["classify", "G(req -> X ack)", "F p"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "G(req -> Xack): safety (syntactic), stutter-sensitive; monitor: 2 states"
    );
    assert_eq!(
        lines[1],
        "Fp: not safety, guarantee (syntactic), liveness, stutter-invariant; monitor: 1 state; \
         `cycle{!p}` violates it without a bad prefix; Büchi claim of the negation: 1 state"
    );
}

#[test]
fn print_and_genltl() {
    let o = mongen(&["print", "--spin", "G(p -> F q)"]);
    assert_eq!(stdout(&o), "[] (p -> (<> q))\n");
    let o = mongen(&["print", "--simplify", "G G (a & a)"]);
    assert_eq!(stdout(&o), "Ga\n");
    let o = mongen(&["print", "--spin", "O a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no past-time operators"));
    let o = mongen(&["genltl", "or-g", "2", "3"]);
    assert_eq!(stdout(&o), "Gp1 | Gp2\nGp1 | Gp2 | Gp3\n");
    let o = mongen(&["genltl", "--list"]);
    assert!(stdout(&o).contains("rv-counter-carry-linear"));
    let o = mongen(&["genltl", "nope", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown family `nope`"));
}

#[test]
fn missing_input_and_unreadable_files_are_errors() {
    let o = mongen(&["compile"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no formula given"));
    let o = mongen(&["compile", "-F", "/nonexistent/file.ltl"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read /nonexistent/file.ltl"));
}

#[test]
fn output_file_and_dot() {
    let dir = std::env::temp_dir().join(format!("mongen-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("m.dot");
    let o = mongen(&[
        "compile",
        "-t",
        "dot",
        "-o",
        p.to_str().unwrap(),
        "G(req -> X ack)",
    ]);
    assert!(o.status.success());
    assert!(stdout(&o).is_empty());
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("1 -> violation [label=\"!ack\""));
}

#[test]
fn defines_must_name_a_proposition() {
    let o = mongen(&[
        "compile",
        "-t",
        "promela",
        "--define",
        "reqq=x > 1",
        "G(req -> X ack)",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--define reqq: no formula has a proposition of that name"),
        "{}",
        stderr(&o)
    );
    let o = mongen(&["compile", "-t", "promela", "--define", "oops", "G a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("expected NAME=EXPR"), "{}", stderr(&o));
    // One set of defines serves several formulas.
    let o = mongen(&[
        "compile", "-t", "promela", "--define", "a=x > 1", "--define", "b=y", "G a", "G b",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(":: (!(x > 1)) -> assert(!(!(x > 1)))"));
    assert!(stdout(&o).contains(":: (!(y)) -> assert(!(!(y)))"));
    // An expression that would not stay one expression is refused.
    let o = mongen(&[
        "compile",
        "-t",
        "promela",
        "--define",
        "a=1) -> goto mg_S0 :: (1",
        "G a",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(stderr(&o).contains("an unbalanced `)`"), "{}", stderr(&o));
}

#[test]
fn promela_and_smv_names() {
    let o = mongen(&["compile", "-t", "promela", "--name", "if", "G a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--name if: not usable"),
        "{}",
        stderr(&o)
    );
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--name",
        "bus",
        "--instance",
        "bus_obs",
        "G(req -> X ack)",
    ]);
    assert!(stdout(&o)
        .contains("  VAR bus_obs : bus_observer(req, ack);\n  INVARSPEC !bus_obs.mg_violated;\n"));
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--verdicts",
        "3",
        "--smv-encoding",
        "transducer",
        "a U b",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("three-valued verdicts need --smv-encoding dfa"));
}

#[test]
fn smv_model_insertion() {
    let dir = std::env::temp_dir().join(format!("mongen-cli-model-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let model = dir.join("m.smv");
    // `main` first, constants named like the observer's names.
    std::fs::write(
        &model,
        "MODULE main\nVAR s : {n1, t1, c1, state, violated};\n  c : cell;\n  obs : boolean;\n\nMODULE cell\nVAR v : boolean;\n",
    )
    .unwrap();
    let m = model.to_str().unwrap();
    let out = dir.join("out.smv");
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--model",
        m,
        "-o",
        out.to_str().unwrap(),
        "--define",
        "a=s = c1",
        "--define",
        "t1=s = t1",
        "G(a -> X t1)",
        "G !a",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("MODULE main\nVAR s : {n1, t1, c1, state, violated};\n  c : cell;\n  obs : boolean;\n  -- mongen: the observer of G(a -> Xt1) (MODULE monitor_1_observer at the end)\n  VAR obs_1 : monitor_1_observer(s = c1, s = t1);\n  INVARSPEC !obs_1.violated_2;\n"), "{text}");
    assert!(
        text.contains("  VAR obs_2 : monitor_2_observer(s = c1);\n"),
        "{text}"
    );
    assert!(
        text.contains("\nMODULE cell\nVAR v : boolean;\n\n-- Observer"),
        "{text}"
    );
    assert!(
        text.contains("MODULE monitor_1_observer(a, p_t1)\nVAR\n  state_2 : "),
        "{text}"
    );
    // A name the user gives is kept or refused, never changed.
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--model",
        m,
        "--instance",
        "obs",
        "G a",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--instance obs: the model already uses the name `obs`"),
        "{}",
        stderr(&o)
    );
    // A failing property: the model is not written with fewer observers.
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--model",
        m,
        "-o",
        out.to_str().unwrap(),
        "G a",
        "G(",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the model is not written"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let o = mongen(&["compile", "-t", "smv", "--instance", "a-b", "G a"]);
    assert!(
        stderr(&o).contains("--instance a-b: not usable"),
        "{}",
        stderr(&o)
    );
    // The DFA encoding asked for, beyond the state limit: an error, not
    // the transducer (nor a crash).
    let o = mongen(&[
        "compile",
        "-t",
        "smv",
        "--smv-encoding",
        "dfa",
        "--max-states",
        "10",
        "G(a -> X X X X b)",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("exceeds the limit of 10 states"),
        "{}",
        stderr(&o)
    );
    let o = mongen(&["compile", "-t", "hoa", "--model", m, "G a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--model is for --target smv"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&model, "MODULE cell\nVAR v : boolean;\n").unwrap();
    let o = mongen(&["compile", "-t", "smv", "--model", m, "G a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("the model has no `MODULE main`"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn numbers_beyond_the_targets_integers_are_errors() {
    for (target, psl) in [
        ("promela", "always n != 2147483648"),
        ("smv", "always n != 2147483648"),
        ("promela", "always x != 64'hffff_ffff_ffff_ffff"),
        ("promela", "always x[40:33] == 1"),
    ] {
        let o = mongen(&["compile", "--psl", "-t", target, psl]);
        assert_eq!(o.status.code(), Some(2), "{target} {psl}");
        assert!(
            stderr(&o).contains("cannot be written for this target"),
            "{}",
            stderr(&o)
        );
    }
    // Within them, and in Verilog always.
    for (target, psl) in [
        ("promela", "always n != 2147483647"),
        ("smv", "always x != 40'd5000000000"),
        ("verilog", "always x != 64'hffff_ffff_ffff_ffff"),
    ] {
        let o = mongen(&["compile", "--psl", "-t", target, psl]);
        assert!(o.status.success(), "{target} {psl}: {}", stderr(&o));
    }
}

#[test]
fn verilog_and_systemc_targets() {
    let o = mongen(&["compile", "-t", "verilog", "G(req -> X ack)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v = stdout(&o);
    assert!(v.contains("module monitor_checker (\n  input  wire clk,\n  input  wire rst_n,\n  input  wire req,\n  input  wire ack,\n  output wire violated,\n  output wire fail\n);\n"), "{v}");
    assert!(v.contains("  reg [0:0] state_q;\n"), "binary, one bit: {v}");
    assert!(v.ends_with("endmodule\n"));
    let o = mongen(&[
        "compile",
        "-t",
        "verilog",
        "--encoding",
        "onehot",
        "--logic",
        "case",
        "--verdicts",
        "3",
        "--name",
        "bus",
        "a W b",
    ]);
    let v = stdout(&o);
    assert!(v.contains("module bus_checker ("), "{v}");
    assert!(v.contains("  output wire satisfied\n"), "{v}");
    assert!(
        v.contains("  reg [1:0] state_q;\n") && v.contains("    if (state_q[0]) begin"),
        "{v}"
    );
    // Several formulas: numbered modules, one stream.
    let o = mongen(&["compile", "-t", "verilog", "G a", "G(a -> X b)"]);
    let v = stdout(&o);
    assert!(
        v.contains("module monitor_1_checker (") && v.contains("module monitor_2_checker ("),
        "{v}"
    );
    let o = mongen(&[
        "compile",
        "-t",
        "systemc",
        "--verdicts",
        "3",
        "G(class -> X int)",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let h = stdout(&o);
    assert!(h.contains("SC_MODULE(monitor_checker) {\n"), "{h}");
    assert!(
        h.contains("  sc_core::sc_in<bool> p_class;\n  sc_core::sc_in<bool> p_int;\n"),
        "{h}"
    );
    assert!(h.contains("  sc_core::sc_out<bool> satisfied;\n"), "{h}");
    assert!(h.contains("//     class -> p_class\n"), "{h}");
    for target in ["verilog", "systemc"] {
        let o = mongen(&["compile", "-t", target, "--name", "a b", "G a"]);
        assert_eq!(o.status.code(), Some(2));
        assert!(
            stderr(&o).contains("--name a b: not usable"),
            "{}",
            stderr(&o)
        );
    }
}

#[test]
fn rust_target() {
    let o = mongen(&["compile", "-t", "rust", "--name", "bus", "G(req -> X ack)"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let code = stdout(&o);
    assert!(code.contains("pub struct BusMonitor {"), "{code}");
    assert!(
        code.contains("pub const TABLE: ::monitor_core::runtime::Table<'static>"),
        "{code}"
    );
    assert!(
        code.contains("pub fn observe(&mut self, req: bool, ack: bool)"),
        "{code}"
    );
    // The letter without `<< 0` or `0 |` (clippy::identity_op in the
    // user's crate).
    assert!(
        code.contains("self.step(req as u64 | ((ack as u64) << 1u32))"),
        "{code}"
    );
    syn::parse_file(&code).unwrap();
    // Propositions that are no identifiers are parameters too (issue 36,
    // item 14: every name becomes a warning-free identifier).
    let o = mongen(&["compile", "-t", "rust", "G \"x > 3\""]);
    let code = stdout(&o);
    assert!(
        code.contains("pub struct Monitor {")
            && code.contains("pub fn observe(&mut self, x_3: bool)"),
        "{code}"
    );
    let o = mongen(&["compile", "-t", "rust", "--name", "1x", "G a"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn psl_properties_compile_and_classify() {
    let o = mongen(&["compile", "--psl", "always {req} |=> {[*0:2]; ack}"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("States: 4\n"), "{}", stdout(&o));
    let o = mongen(&[
        "classify",
        "--psl",
        "always {req} |=> {[*0:2]; ack}",
        "always {a} |=> {b[*]; c}!",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].contains(": safety"), "{out}");
    assert!(lines[1].contains("not safety"), "{out}");
    // Without --psl the same text is not LTL.
    let o = mongen(&["compile", "always {req} |=> ack"]);
    assert!(!o.status.success());
    // Errors in a file name the line and point at the column.
    let file = temp_file(
        "props.psl",
        "# PSL, one property per line\nalways {a; b} |-> c\nalways {a; b} |-> c @ clk\n",
    );
    let o = mongen(&[
        "compile",
        "--psl",
        "-F",
        file.to_str().unwrap(),
        "-t",
        "json",
    ]);
    assert!(!o.status.success());
    let err = stderr(&o);
    assert!(err.contains("line 3, column 21"), "{err}");
    assert!(err.contains("a clock needs an edge"), "{err}");
    assert_eq!(
        stdout(&o).lines().count(),
        1,
        "the good property is still compiled"
    );
    // NuSMV's LTL syntax cannot print SEREs: a clear error, not garbage.
    let o = mongen(&["print", "--psl", "--smv", "{a; b}"]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("PSLSPEC") || stderr(&o).contains("SEREs"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_example_psl_file_compiles_to_every_checker() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/properties/bus.psl");
    for target in ["verilog", "systemc", "promela", "smv", "rust"] {
        let o = mongen(&[
            "compile",
            "--psl",
            "-q",
            "-t",
            target,
            "-F",
            file.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{target}: {}", stderr(&o));
        assert!(!stdout(&o).is_empty());
    }
    let o = mongen(&["classify", "--psl", "-F", file.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).matches(": safety").count(), 4, "{}", stdout(&o));
}

#[test]
fn print_to_psl_reads_back() {
    let o = mongen(&["print", "--to-psl", "G(req -> X(ack W done))"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let psl = stdout(&o);
    let back = mongen(&["print", "--psl", psl.trim()]);
    assert!(back.status.success(), "{}", stderr(&back));
    assert_eq!(stdout(&back), "G(req -> X(ack W done))\n");
    let o = mongen(&["print", "--to-psl", "G(a -> O b)"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("past-time"), "{}", stderr(&o));
}

/// `mongen ARGS` with `input` on standard input.
fn mongen_stdin(args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mongen");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// A fresh directory for one test.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mongen-cli-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn dash_f_works_like_spots_and_keeps_the_command_line_order() {
    for cmd in ["compile", "classify", "print"] {
        let o = mongen(&[cmd, "-f", "G(req -> X ack)", "--formula", "G a"]);
        assert!(o.status.success(), "{cmd}: {}", stderr(&o));
    }
    let o = mongen(&["print", "-f", "G a", "F b", "-f", "X c"]);
    assert_eq!(stdout(&o), "Ga\nFb\nXc\n");
    // Files and formulas in the order given.
    let dir = temp_dir("order");
    let file = dir.join("f.ltl");
    std::fs::write(&file, "a U b\n").unwrap();
    let o = mongen(&["print", "-f", "G a", "-F", file.to_str().unwrap(), "F c"]);
    assert_eq!(stdout(&o), "Ga\na U b\nFc\n", "{}", stderr(&o));
    // A bad -f formula: exit 2 with the caret, the others still done.
    let o = mongen(&["print", "-f", "G(a U )", "-f", "G b"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "Gb\n");
    assert_eq!(
        stderr(&o),
        "mongen: error: syntax error at line 1, column 7: expected a formula, found `)`\n  G(a U )\n        ^\n"
    );
}

#[test]
fn a_dash_reads_formulas_from_standard_input() {
    let input = "# two properties\nG a\n\nG(a -> X b)\n";
    let o = mongen_stdin(&["compile", "-t", "json", "-"], input);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2);
    let o = mongen_stdin(&["print", "-f", "F x", "-", "-f", "X y"], input);
    assert_eq!(stdout(&o), "Fx\nGa\nG(a -> Xb)\nXy\n");
    let o = mongen_stdin(&["classify", "--stats=%F:%L %f", "-"], input);
    assert_eq!(stdout(&o), "-:2 Ga\n-:4 G(a -> Xb)\n");
    // Errors name standard input and the line.
    let o = mongen_stdin(&["compile", "-"], "G a\nG(\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("mongen: error: -: syntax error at line 2, column 3:"),
        "{}",
        stderr(&o)
    );
    // Standard input once only.
    let o = mongen_stdin(&["print", "-", "-F", "-"], input);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input is given twice"),
        "{}",
        stderr(&o)
    );
    // `-f -` is a formula, not standard input (and not one that parses).
    let o = mongen_stdin(&["print", "-f", "-"], input);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn csv_columns_by_number_and_by_name() {
    let dir = temp_dir("csv");
    let csv = dir.join("props.csv");
    std::fs::write(
        &csv,
        "name,formula,note\nresponse,G(req -> X ack),\"from the spec, p. 3\"\n# not a property\n\nexclusion,G!(g0 & g1),\n",
    )
    .unwrap();
    let c = csv.to_str().unwrap();
    // By name: the first line is the header.
    let o = mongen(&["print", "-F", &format!("{c}/formula")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "G(req -> Xack)\nG!(g0 & g1)\n");
    // By number, negative: the header line is skipped.
    let o = mongen(&["print", "-F", &format!("{c}/-2")]);
    assert_eq!(stdout(&o), "G(req -> Xack)\nG!(g0 & g1)\n");
    // By number, positive: every line is a formula (Spot's rule), and the
    // header's `formula` is a proposition.
    let o = mongen(&["print", "-F", &format!("{c}/2")]);
    assert_eq!(stdout(&o), "formula\nG(req -> Xack)\nG!(g0 & g1)\n");
    // Where each formula was, and the other fields (%< and %>).
    let o = mongen(&[
        "compile",
        "-F",
        &format!("{c}/formula"),
        "--stats=%L [%<] %s [%>]",
    ]);
    assert_eq!(
        stdout(&o),
        "2 [response] 2 [\"from the spec, p. 3\"]\n5 [exclusion] 1 []\n",
        "{}",
        stderr(&o)
    );
    let o = mongen(&["classify", "-F", &format!("{c}/1")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 3);
    // check reads properties the same way.
    let log = dir.join("log.csv");
    std::fs::write(&log, "req,ack,g0,g1\n1,0,0,0\n0,1,0,0\n0,0,1,1\n").unwrap();
    let o = mongen(&[
        "check",
        "-F",
        &format!("{c}/formula"),
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("`G(req -> Xack)`: holds"), "{out}");
    assert!(out.contains("`G!(g0 & g1)`: violated at line 4"), "{out}");
}

#[test]
fn csv_errors_name_the_file_and_the_line() {
    let dir = temp_dir("csv-errors");
    let csv = dir.join("p.csv");
    std::fs::write(&csv, "id,formula\n1,G a\n2\n3,G(b U )\n").unwrap();
    let c = csv.to_str().unwrap();
    let o = mongen(&["compile", "-F", &format!("{c}/formula")]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("mongen: error: {c}: line 3: no column 2 (`formula`) (the line has 1 field)\n")
    );
    assert!(stdout(&o).is_empty());
    let o = mongen(&["compile", "-F", &format!("{c}/fromula")]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("mongen: error: {c}: line 1: no column named `fromula` in the header line (its columns: `id`, `formula`)\n")
    );
    let o = mongen(&["compile", "-F", &format!("{c}/0")]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("numbered from 1"), "{}", stderr(&o));
    // A formula that does not parse: the line, the column of the CSV, and
    // the caret in the field.
    std::fs::write(&csv, "id,formula\n1,G a\n3,G(b U )\n").unwrap();
    let o = mongen(&["compile", "-t", "json", "-F", &format!("{c}/formula")]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o).lines().count(), 1, "the good one is compiled");
    assert_eq!(
        stderr(&o),
        format!("mongen: error: {c}: syntax error at line 3, CSV column 2 (`formula`), column 7 of the formula: expected a formula, found `)`\n  G(b U )\n        ^\n")
    );
    // A missing file, with or without a column.
    let o = mongen(&["compile", "-F", "/nonexistent/p.csv/2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/p.csv/2"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_file_named_file_slash_col_is_a_plain_file() {
    // `tab/2` exists (in the directory `tab`): it is read line by line.
    let dir = temp_dir("slash");
    let tab = dir.join("tab");
    std::fs::create_dir_all(&tab).unwrap();
    std::fs::write(tab.join("2"), "G a\nx, y\n").unwrap();
    let spec = tab.join("2");
    let o = mongen(&["print", "-F", spec.to_str().unwrap()]);
    // `x, y` is one line of a plain file (and not a formula): not split
    // as CSV.
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "Ga\n");
    assert!(
        stderr(&o).contains("2: syntax error at line 2"),
        "{}",
        stderr(&o)
    );
    // The same name when `tab` is a CSV file: column 2.
    let dir = temp_dir("slash-csv");
    let tab = dir.join("tab");
    std::fs::write(&tab, "G a,F b\nX c,G d\n").unwrap();
    let o = mongen(&["print", "-F", tab.join("2").to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "Fb\nGd\n");
}

/// The states, edges, propositions of the HOA automata in `hoa`, and
/// their transitions: each edge's letters counted by evaluating its label
/// on every letter.
fn hoa_sizes(hoa: &str) -> Vec<(usize, usize, usize, u64)> {
    let mut out = Vec::new();
    for aut in hoa.split("--END--").filter(|a| a.contains("HOA: v1")) {
        let header = |key: &str| -> usize {
            aut.lines()
                .find_map(|l| l.strip_prefix(key))
                .and_then(|v| v.split_whitespace().next())
                .unwrap()
                .parse()
                .unwrap()
        };
        let states = header("States: ");
        let aps = header("AP: ");
        let labels: Vec<&str> = aut
            .lines()
            .filter(|l| l.starts_with('['))
            .map(|l| &l[1..l.find(']').unwrap()])
            .collect();
        let holds = |label: &str, letter: u64| {
            label.split(" | ").any(|cube| {
                cube.split('&').all(|lit| match lit.trim() {
                    "t" => true,
                    "f" => false,
                    l => match l.strip_prefix('!') {
                        Some(v) => letter >> v.parse::<u32>().unwrap() & 1 == 0,
                        None => letter >> l.parse::<u32>().unwrap() & 1 == 1,
                    },
                })
            })
        };
        let transitions = labels
            .iter()
            .map(|l| (0..1u64 << aps).filter(|&x| holds(l, x)).count() as u64)
            .sum();
        out.push((states, labels.len(), aps, transitions));
    }
    out
}

#[test]
fn stats_format_fields_agree_with_the_hoa_output() {
    let formulas = [
        "G(req -> X ack)",
        "a W (b & X c)",
        "Gp1 | Gp2 | Gp3 | Gp4",
        "G(grant -> O req)",
        "F p0 -> (!p1 U p0)",
        "G((a & X a & X[2] a) -> X[3] b)",
        "true",
        "G false",
    ];
    let mut args = vec!["compile", "-q"];
    for f in &formulas {
        args.extend(["-f", f]);
    }
    let hoa = stdout(&mongen(&args));
    let expected = hoa_sizes(&hoa);
    assert_eq!(expected.len(), formulas.len());
    args.push("--stats=%s %e %x %t|%f");
    let o = mongen(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(!out.contains("HOA"), "the statistics replace the automata");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), formulas.len());
    for ((line, f), (s, e, x, t)) in lines.iter().zip(formulas).zip(expected) {
        assert_eq!(
            line.split('|').next().unwrap(),
            format!("{s} {e} {x} {t}"),
            "{f}"
        );
    }
    // By hand: G(req -> X ack) has 2 states; from the first, all 4
    // letters (to itself on !req, to the second on req); from the
    // second, the 2 letters with ack. 6 transitions over 4 edges.
    assert_eq!(lines[0], "2 4 2 6|G(req -> Xack)");
    // `true`: one state, one edge taking the 1 letter over no
    // proposition; `G false`: a monitor that violates at once.
    assert_eq!(lines[6], "1 1 0 1|1");
    assert_eq!(lines[7], "1 0 0 0|0");
    // Exact beyond 64 propositions: G(p1 | ... | p70) takes every letter
    // but one.
    let big: Vec<String> = (1..=70).map(|i| format!("p{i}")).collect();
    let f = format!("G({})", big.join(" | "));
    let o = mongen(&["compile", "-f", &f, "--stats=%x %t"]);
    assert_eq!(stdout(&o), "70 1180591620717411303423\n", "2^70 - 1");
}

#[test]
fn stats_format_times_memory_and_origin() {
    let dir = temp_dir("stats");
    let file = dir.join("f.ltl");
    std::fs::write(&file, "# comment\nG a\n\nG(a -> X b)\n").unwrap();
    let f = file.to_str().unwrap();
    let o = mongen(&[
        "compile",
        "-F",
        f,
        "-f",
        "F a",
        "-q",
        "--stats=%F|%L|%r|%M|%%",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('|').collect()).collect();
    assert_eq!(rows.len(), 3);
    assert_eq!((rows[0][0], rows[0][1]), (f, "2"));
    assert_eq!((rows[1][0], rows[1][1]), (f, "4"));
    assert_eq!((rows[2][0], rows[2][1]), ("", ""), "a command-line formula");
    for r in &rows {
        let secs: f64 = r[2].parse().unwrap();
        assert!(secs > 0.0 && secs < 10.0, "{r:?}");
        let mib: f64 = r[3].parse().unwrap();
        assert!(mib > 0.1 && mib < 1000.0, "{r:?}");
        assert_eq!(r[4], "%");
    }
    // -o FILE gets the lines.
    let out_file = dir.join("stats.txt");
    let o = mongen(&[
        "compile",
        "-f",
        "G a",
        "--stats=%s",
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "1\n");
    // classify: its own directives.
    let o = mongen(&["classify", "-f", "G(a -> X b)", "--stats=%s %x %f"]);
    assert_eq!(stdout(&o), "2 2 G(a -> Xb)\n");
}

#[test]
fn stats_format_errors_are_clear_and_early() {
    for (cmd, format, directive) in [
        ("compile", "%s %q", "%q"),
        ("classify", "%e", "%e"),
        ("compile", "%T", "%T"),
    ] {
        let o = mongen(&[cmd, "-f", "G a", &format!("--stats={format}")]);
        assert_eq!(o.status.code(), Some(2), "{cmd} {format}");
        assert!(stdout(&o).is_empty());
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "unknown directive `{directive}` (the directives are %f %s"
            )),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let o = mongen(&["compile", "-f", "G a", "--stats=100%"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("lone `%`"), "{}", stderr(&o));
    // --stats takes its FORMAT after `=` only: a formula after it stays a
    // formula.
    let o = mongen(&["compile", "--stats", "-o", "/dev/null", "G a"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("mongen: stats: `Ga`: 1 state ("),
        "{}",
        stderr(&o)
    );
    // The statistics replace the output: not with --model or --json.
    let o = mongen(&["classify", "--json", "--stats=%s", "G a"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("does not go with --json"),
        "{}",
        stderr(&o)
    );
}

/// `(total ms, [(phase, ms)])` of the two `--stats` lines of one formula.
fn human_stats(err: &str) -> (f64, Vec<(String, f64)>) {
    let mut lines = err.lines().filter(|l| l.starts_with("mongen: stats: "));
    let first = lines.next().expect("a stats line");
    let total = first
        .rsplit_once(" ms, peak memory ")
        .and_then(|(head, _)| head.rsplit_once(", "))
        .map(|(_, ms)| ms.parse::<f64>().unwrap())
        .unwrap();
    assert!(first.ends_with(" MiB"), "{first}");
    let second = lines.next().expect("a second stats line");
    let phases = second
        .split_once(": time: ")
        .unwrap()
        .1
        .split(", ")
        .map(|p| {
            let (name, ms) = p.trim_end_matches(" ms").rsplit_once(' ').unwrap();
            (name.to_string(), ms.parse::<f64>().unwrap())
        })
        .collect();
    (total, phases)
}

#[test]
fn human_stats_count_all_the_work_and_split_it() {
    let o = mongen(&[
        "compile",
        "--stats",
        "--informative",
        "-o",
        "/dev/null",
        "G(q | XGp) & G(r | XG!p)",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    let (total, phases) = human_stats(&err);
    let names: Vec<&str> = phases.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "parse",
            "translation and safety analysis",
            "informative comparison",
            "output"
        ],
        "{err}"
    );
    let sum: f64 = phases.iter().map(|(_, ms)| ms).sum();
    assert!(sum <= total + 0.01, "the phases fit in the total: {err}");
    // The first line keeps the form the benchmark scripts read (the
    // informative monitor has 4 states).
    let first = err
        .lines()
        .find(|l| l.starts_with("mongen: stats: "))
        .unwrap();
    assert!(
        first.starts_with("mongen: stats: `G(q | XGp) & G(r | XG!p)`: 4 states (derivatives 4), ")
            && first.contains(" ms, peak memory "),
        "{err}"
    );
}

#[test]
fn exit_codes_are_documented_and_kept() {
    let help = stdout(&mongen(&["--help"]));
    assert!(help.contains("PSL"), "{help}");
    for line in [
        "  0  success",
        "  1  check: a property is violated",
        "  2  an error",
    ] {
        assert!(help.contains(line), "{line}: {help}");
    }
    let check_help = stdout(&mongen(&["check", "--help"]));
    assert!(
        check_help.contains("  1  a property is violated"),
        "{check_help}"
    );
    assert_eq!(mongen(&["compile", "-f", "G a"]).status.code(), Some(0));
    assert_eq!(mongen(&["compile", "-f", "G("]).status.code(), Some(2));
    assert_eq!(
        mongen(&["compile", "--no-such-flag"]).status.code(),
        Some(2)
    );
    assert_eq!(mongen(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(mongen(&["--help"]).status.code(), Some(0));
    let dir = temp_dir("exit");
    let log = dir.join("t.csv");
    std::fs::write(&log, "a\n1\n0\n").unwrap();
    let l = log.to_str().unwrap();
    assert_eq!(mongen(&["check", "-f", "G a", l]).status.code(), Some(1));
    assert_eq!(
        mongen(&["check", "-f", "F a", "-q", l]).status.code(),
        Some(0)
    );
    assert_eq!(mongen(&["check", "-f", "G b", l]).status.code(), Some(2));
}

#[test]
fn bash_completion_loads() {
    let o = mongen(&["completions", "bash"]);
    assert!(o.status.success());
    let script = stdout(&o);
    let dir = temp_dir("completion");
    let path = dir.join("mongen.bash");
    std::fs::write(&path, &script).unwrap();
    let b = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "source {} && complete -p mongen && COMP_WORDS=(mongen comp); COMP_CWORD=1; _mongen mongen comp mongen; echo \"${{COMPREPLY[@]}}\"",
            path.display()
        ))
        .output()
        .expect("bash");
    assert!(b.status.success(), "{}", stderr(&b));
    let out = stdout(&b);
    assert!(out.contains("-F _mongen mongen"), "{out}");
    assert!(
        out.lines()
            .last()
            .unwrap()
            .split(' ')
            .any(|w| w == "compile")
            && out.contains("completions"),
        "`mongen comp<TAB>` offers compile and completions: {out}"
    );
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = mongen(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        assert!(stdout(&o).contains("compile"), "{shell}");
    }
    assert_eq!(mongen(&["completions", "tcsh"]).status.code(), Some(2));
}

const SUBCOMMANDS: [&str; 7] = [
    "compile",
    "classify",
    "print",
    "genltl",
    "check",
    "completions",
    "man",
];

#[test]
fn the_manual_page_names_every_command() {
    let o = mongen(&["man"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH mongen 1"), "{page}");
    for sub in SUBCOMMANDS {
        assert!(
            page.contains(&format!("mongen\\-{sub}(1)")),
            "{sub}: {page}"
        );
    }
    assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
    // Rendered by man(1) where it is installed.
    let dir = temp_dir("man");
    let path = dir.join("mongen.1");
    std::fs::write(&path, &page).unwrap();
    if let Ok(r) = Command::new("man")
        .args(["-l", path.to_str().unwrap()])
        .env("MANWIDTH", "80")
        .env("MANPAGER", "cat")
        .env("PAGER", "cat")
        .output()
    {
        assert!(r.status.success(), "{}", stderr(&r));
        let text = stdout(&r);
        assert!(text.contains("EXIT STATUS"), "{text}");
        assert!(text.contains("mongen-compile(1)"), "{text}");
    }
    // One page per command.
    let pages = dir.join("pages");
    let o = mongen(&["man", "--dir", pages.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    for sub in SUBCOMMANDS {
        let p = std::fs::read_to_string(pages.join(format!("mongen-{sub}.1"))).unwrap();
        assert!(p.contains(&format!(".TH mongen-{sub} 1")), "{p}");
    }
    let check = std::fs::read_to_string(pages.join("mongen-check.1")).unwrap();
    assert!(check.contains(".TP\n1\na property is violated"), "{check}");
    assert!(std::fs::read_to_string(pages.join("mongen.1")).unwrap() == page);
}

#[test]
fn nothing_on_standard_error_without_a_terminal() {
    // The spinner stays away when standard error is not a terminal, even
    // on a formula that takes more than the spinner's second (or-g 14:
    // about 2 s on a machine of 2 cores).
    let f = stdout(&mongen(&["genltl", "or-g", "14"]));
    let o = mongen(&["classify", "-f", f.trim()]);
    assert!(o.status.success());
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

#[test]
fn empty_inputs_and_standard_input_twice_are_errors() {
    let o = mongen_stdin(&["compile", "-"], "# nothing\n\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no formula given: the input holds none"),
        "{}",
        stderr(&o)
    );
    let dir = temp_dir("empty");
    let csv = dir.join("p.csv");
    std::fs::write(&csv, "formula\n").unwrap();
    let log = dir.join("t.csv");
    std::fs::write(&log, "a\n1\n").unwrap();
    let o = mongen(&[
        "check",
        "-F",
        &format!("{}/formula", csv.display()),
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no property given: the input holds none"),
        "{}",
        stderr(&o)
    );
    // Properties and a trace cannot both come from standard input.
    for props in ["-", "-/1"] {
        let o = mongen_stdin(&["check", "-F", props, "--format", "csv", "-"], "G a\n");
        assert_eq!(o.status.code(), Some(2), "{props}");
        assert!(
            stderr(&o).contains("standard input cannot hold both"),
            "{}",
            stderr(&o)
        );
    }
    // Properties from a CSV column of standard input.
    let o = mongen_stdin(
        &["check", "-F", "-/2", log.to_str().unwrap()],
        "x,G a\ny,F a\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2, "{}", stdout(&o));
}

#[test]
fn vunits_and_vector_inputs_for_hardware_checkers() {
    let vunit = temp_file(
        "fifo.psl",
        "vunit fifo_props (top.u_fifo) {\n  default clock = (posedge clk);\n  default disable iff (rst);\n  \
         bound: assert always (count <= 4'd8);\n  no_push_full: assume always (!(push && full));\n  \
         c_fill: cover {push; push; push};\n  assert always (pop -> next (!full));\n}\n",
    );
    let v = vunit.to_str().unwrap();
    let o = mongen(&[
        "compile", "-t", "verilog", "--vunit", v, "--input", "count:4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for module in [
        "bound_checker",
        "no_push_full_checker",
        "c_fill_checker",
        "fifo_props_4_checker",
    ] {
        assert!(
            out.contains(&format!("module {module} (")),
            "{module}\n{out}"
        );
    }
    // The vector is a port, the comparison is inside; roles; the clock
    // and reset of the vunit.
    assert!(out.contains("  input  wire [3:0] count,"), "{out}");
    assert!(out.contains("wire count____4_d8 = count <= 4'd8;"), "{out}");
    assert_eq!(out.matches("    assume (!fail);").count(), 1, "{out}");
    assert_eq!(out.matches("    cover (fail);").count(), 1, "{out}");
    assert_eq!(out.matches("    assert (!fail);").count(), 2, "{out}");
    // disable iff is asynchronous.
    assert!(
        out.contains("always @(posedge clk or posedge rst) begin\n    if (rst) begin"),
        "{out}"
    );

    // Only the Verilog targets assume and cover.
    let o = mongen(&["compile", "-t", "systemc", "--vunit", v]);
    assert!(
        stderr(&o).contains("assume directives are compiled for --target verilog and sva"),
        "{}",
        stderr(&o)
    );
    // A constant wider than the signal, with a caret.
    let o = mongen(&[
        "compile", "-t", "verilog", "--vunit", v, "--input", "count:3",
    ]);
    assert!(
        stderr(&o).contains(
            "width mismatch: `count` is 3 bits, `4'd8` is 4 bits\n    count <= 4'd8\n             ^^^^"
        ),
        "{}",
        stderr(&o)
    );
    // Two directives with one label; a module nobody names.
    let twice = temp_file(
        "twice.psl",
        "vunit v {\n  a: assert always p;\n}\nvunit w {\n  a: assert always q;\n}\n",
    );
    let o = mongen(&[
        "compile",
        "-t",
        "verilog",
        "--vunit",
        twice.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("twice.psl:5: a second directive named `a`"),
        "{}",
        stderr(&o)
    );
    let anon = temp_file("anon.psl", "vunit v {\n  assert always p;\n}\n");
    let out_file = anon.with_file_name("anon_checkers.v");
    let o = mongen(&[
        "compile",
        "-t",
        "verilog",
        "--vunit",
        anon.to_str().unwrap(),
        "--bind",
        "-o",
        out_file.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("no vunit names its module"),
        "{}",
        stderr(&o)
    );
    // An error leaves no empty output file behind.
    assert!(!out_file.exists());
    // --input only for hardware; --design needs a module.
    let o = mongen(&[
        "compile", "-t", "systemc", "--input", "count:4", "-f", "G p",
    ]);
    assert!(
        stderr(&o).contains("--input is for --target verilog and sva"),
        "{}",
        stderr(&o)
    );
    let o = mongen(&["compile", "-t", "verilog", "--design", v, "-f", "G p"]);
    assert!(
        stderr(&o).contains("--design: which module"),
        "{}",
        stderr(&o)
    );
}

/// The library's back ends with their default options write what
/// `compile --target T --name N` writes, for every target: the CLI and the
/// Python package go through the same `Backend`s. The formula has `X`, so
/// the fact the CLI adds to HOA (stutter-invariance, read on the formula)
/// is the default; JSON is told it is safety, as the CLI knows.
#[test]
fn every_backend_writes_what_compile_writes() {
    use mongen::emit::json::JsonOptions;
    use mongen::emit::{Backend, Common, Target};
    use monitor_core::translate::Builder;

    let f = "G(req -> X(ack | X ack)) & G(!(grant & busy))";
    for three in [false, true] {
        let verdicts = if three { "3" } else { "2" };
        let mut builder = Builder::new();
        if three {
            builder.configure(
                monitor_core::translate::Config::new()
                    .verdicts(monitor_core::translate::Verdicts::Three),
            );
        }
        let dfa = builder.build(f).unwrap().into_dfa();
        for target in Target::ALL {
            let common = Common {
                three_valued: three,
                ..Common::named("bus")
            };
            let backend: Box<dyn Backend> = match target {
                Target::Json => Box::new(JsonOptions {
                    common,
                    safety: Some(true),
                }),
                _ => target.backend(common),
            };
            let emitted = backend.emit(&dfa).unwrap();
            let mut written = Vec::new();
            backend.write(&dfa, &mut written).unwrap();
            assert_eq!(String::from_utf8(written).unwrap(), emitted, "{target}");
            let o = mongen(&[
                "compile",
                "-q",
                "-t",
                target.name(),
                "--name",
                "bus",
                "--verdicts",
                verdicts,
                f,
            ]);
            assert!(o.status.success(), "{target}: {}", stderr(&o));
            assert_eq!(stdout(&o), emitted, "{target}, {verdicts} verdicts");
        }
    }
}

/// An `-o` path is user text in the claim's header: a path holding `*/`,
/// a line break and `#define p (1)` once closed the comment and compiled
/// into a claim that checks `G (1)`. It lands in a comment, as one shell
/// word of the commands there.
#[test]
fn output_paths_stay_in_the_header_comment() {
    let dir = std::env::temp_dir().join(format!("mongen-hostile-o-{}", std::process::id()));
    let sub = dir.join("x*").join("c'; touch PWNED; '*");
    std::fs::create_dir_all(&sub).unwrap();
    let path = sub.join("\n#define p (1)\n.pml");
    let o = mongen(&[
        "compile",
        "-t",
        "promela",
        "-o",
        path.to_str().unwrap(),
        "G p",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let claim = std::fs::read_to_string(&path).unwrap();
    let header_end = claim.find("*/").unwrap();
    assert!(
        claim[header_end + 2..]
            .trim_start()
            .starts_with("never monitor {"),
        "{claim}"
    );
    assert!(!claim.lines().any(|l| l.starts_with('#')), "{claim}");
    assert!(claim.contains(":: (!p) -> assert(!(!p))"), "{claim}");
    // The commands quote the path for the shell.
    assert!(claim.contains("spin -a -N '"), "{claim}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failed run removes the `-o` file it would have written only when that
/// is a regular file: it once removed `-o /dev/null` (as root, for the
/// whole machine). A FIFO stands in for the device here.
#[test]
fn a_failed_run_removes_only_a_regular_output_file() {
    let dir = std::env::temp_dir().join(format!("mongen-o-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let o = mongen(&["compile", "-o", fifo.to_str().unwrap(), "G(a U"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(!kind.is_file() && !kind.is_dir(), "the FIFO is gone");
    // A regular file of an earlier run is removed (it would pass for
    // this run's output).
    let file = dir.join("old.hoa");
    std::fs::write(&file, "HOA: v1\n").unwrap();
    let o = mongen(&["compile", "-o", file.to_str().unwrap(), "G(a U"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!file.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-o` never replaces a file the run reads, nor one the formal flow
/// writes beside it, and a flow whose paths SymbiYosys cannot read is
/// refused before anything is written (each wrote over the design, or
/// left a half-written project, found by a hostile pass).
#[test]
fn outputs_never_replace_inputs() {
    let dir = std::env::temp_dir().join(format!("mongen-cli-outputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let design = "module d (input logic clk, rst_n, req, output logic gnt);\n  \
                  always_ff @(posedge clk) gnt <= req;\n  \
                  a: assert property (@(posedge clk) disable iff (!rst_n) req |=> gnt);\nendmodule\n";
    std::fs::write(dir.join("d.sv"), design).unwrap();
    std::fs::write(dir.join("f.ltl"), "G a\n").unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let sby = [
        "compile", "--sv", "d.sv", "-t", "verilog", "--sby", "d", "--design", "d.sv",
    ];
    for (args, needle) in [
        (
            &["compile", "--sv", "d.sv", "-t", "verilog", "-o", "d.sv"][..],
            "the file given to --sv",
        ),
        (
            &["compile", "-F", "f.ltl", "-o", "./f.ltl"][..],
            "the file given to -F",
        ),
        (
            &[&sby[..], &["-o", "d_formal.sv"]].concat()[..],
            "the flow writes a file of that name",
        ),
        (
            &[&sby[..], &["-o", "d.sby"]].concat()[..],
            "the flow writes a file of that name",
        ),
        (
            &[&sby[..], &["-o", "q\"q.v"]].concat()[..],
            "cannot read a path holding",
        ),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        // Nothing written, nothing lost.
        assert_eq!(std::fs::read_to_string(dir.join("d.sv")).unwrap(), design);
        assert_eq!(std::fs::read_to_string(dir.join("f.ltl")).unwrap(), "G a\n");
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["d.sv", "f.ltl"], "{args:?}");
    }
    // A design named like the flow's copy of it.
    std::fs::copy(dir.join("d.sv"), dir.join("d_design.sv")).unwrap();
    let o = run(&[
        "compile",
        "--sv",
        "d_design.sv",
        "-t",
        "verilog",
        "--sby",
        "d",
        "--design",
        "d_design.sv",
        "-o",
        "c.v",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("would write over this input"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("d_design.sv")).unwrap(),
        design
    );
    std::fs::remove_file(dir.join("d_design.sv")).unwrap();
    // A design with a port named like the harness (d_formal) gets the
    // harness d_formal_2.sv: the dry run checks that name too (it checked
    // d_formal.sv, and the run wrote over a design file d_formal_2.sv).
    let ported = design.replace("req, output", "req, d_formal, output");
    std::fs::write(dir.join("p.sv"), &ported).unwrap();
    std::fs::write(dir.join("d_formal_2.sv"), &ported).unwrap();
    let o = run(&[
        "compile",
        "--sv",
        "p.sv",
        "-t",
        "verilog",
        "--sby",
        "d",
        "--design",
        "p.sv",
        "--design",
        "d_formal_2.sv",
        "-o",
        "c.v",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("d_formal_2.sv: the flow would write over this input"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("d_formal_2.sv")).unwrap(),
        ported
    );
    std::fs::remove_file(dir.join("p.sv")).unwrap();
    std::fs::remove_file(dir.join("d_formal_2.sv")).unwrap();
    let o = run(&[&sby[..], &["-o", "c.v"]].concat()[..]);
    assert!(o.status.success(), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The options of a proof of a real design: `--keep-going` writes the
/// harness and project without the assertions refused, and names them;
/// `--assume NAME` makes an assertion on the inputs an assumption;
/// `--design-reset` starts the proof in the design's reset when the
/// assertions have no `disable iff`.
#[test]
fn proofs_of_real_designs_go_on_without_what_is_refused() {
    let dir = std::env::temp_dir().join(format!("mongen-cli-keep-going-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let design = "module d (input logic clk, rst_n, req, input logic [3:0] n, output logic gnt);\n  \
                  always_ff @(posedge clk or negedge rst_n) if (!rst_n) gnt <= 0; else gnt <= req;\n  \
                  env_A: assert property (@(posedge clk) req |=> !req);\n  \
                  gnt_A: assert property (@(posedge clk) req |=> gnt);\n  \
                  local_A: assert property (@(posedge clk) req |-> n.triggered);\nendmodule\n";
    std::fs::write(dir.join("d.sv"), design).unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "compile", "--sv", "d.sv", "-t", "verilog", "--sby", "d", "--design", "d.sv", "-o",
            "c.v",
        ];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args(&args)
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    // Without --keep-going: no project, and the error says how.
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("`local_A`: "), "{}", stderr(&o));
    assert!(stderr(&o).contains("--keep-going"), "{}", stderr(&o));
    assert!(!dir.join("d.sby").exists());
    // With it: the project, whose header names what it leaves out; the
    // run still fails.
    let o = run(&[
        "--keep-going",
        "--assume",
        "env_A",
        "--design-reset",
        "rst_n",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let sby = std::fs::read_to_string(dir.join("d.sby")).unwrap();
    assert!(
        sby.contains("satisfies 1 property under 1 assumption"),
        "{sby}"
    );
    assert!(sby.contains("# NOT CHECKED: 1 property"), "{sby}");
    assert!(sby.contains("#   local_A\n"), "{sby}");
    let checkers = std::fs::read_to_string(dir.join("c.v")).unwrap();
    let env = &checkers[checkers.find("module env_A_checker").unwrap()..];
    assert!(env[..env.find("endmodule").unwrap()].contains("assume (!fail);"));
    let gnt = &checkers[checkers.find("module gnt_A_checker").unwrap()..];
    assert!(gnt[..gnt.find("endmodule").unwrap()].contains("assert (!fail);"));
    // The design's reset holds in the proof's first cycle.
    let harness = std::fs::read_to_string(dir.join("d_formal.sv")).unwrap();
    assert!(harness.contains("assume (!rst_n);"), "{harness}");
    // Misused, each says why.
    for (extra, needle) in [
        (
            &["--keep-going", "--assume", "nosuch"][..],
            "--assume nosuch: no assertion of that name in d.sv; its names: env_A, gnt_A",
        ),
        (
            &["--keep-going", "--assume", "local_A"][..],
            "--assume local_A: that assertion is refused",
        ),
    ] {
        let o = run(extra);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
    }
    let o = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(["compile", "--sv", "d.sv", "-t", "verilog", "--keep-going"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(
        stderr(&o).contains("--keep-going is for --bind and --sby"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Verification IP binds its properties into the design (`bind counter
/// counter_properties (.*)`, as PULP's formal properties do): Yosys reads
/// no `bind`, so `--sby counter` instantiates the bound module beside
/// the design, on its ports, with the checkers in place of its
/// assertions; what the harness cannot connect is refused.
#[test]
fn sby_instantiates_the_properties_a_file_binds_into_the_design() {
    let dir = std::env::temp_dir().join(format!("mongen-cli-bind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("dut.sv"),
        "module dut #(parameter W = 4) (input logic clk, rst_n, req, output logic [W-1:0] q);\n  \
         always_ff @(posedge clk) q <= req ? q + 1 : q;\nendmodule\n",
    )
    .unwrap();
    let props = |ports: &str, bind: &str| {
        format!(
            "module dut_props #(parameter W = 4) ({ports});\n  \
             logic seen;\n  \
             always_ff @(posedge clk) seen <= req;\n  \
             grows: assert property (@(posedge clk) disable iff (!rst_n) req |=> q != 0);\n  \
             c: cover property (@(posedge clk) seen);\nendmodule\n{bind}\n"
        )
    };
    let good_ports = "input logic clk, rst_n, req, input logic [W-1:0] q";
    let run = |text: &str| {
        std::fs::write(dir.join("props.sv"), text).unwrap();
        Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args([
                "compile", "--sv", "props.sv", "-t", "verilog", "--sby", "dut", "--design",
                "dut.sv", "--design", "props.sv", "-o", "c.v",
            ])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let o = run(&props(
        good_ports,
        "bind dut dut_props #(.W(W)) i_props (.*);",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let harness = std::fs::read_to_string(dir.join("dut_props_formal.sv")).unwrap();
    assert!(
        harness.contains("  dut_props i_props (.clk(clk), .rst_n(rst_n), .req(req), .q(q));"),
        "{harness}"
    );
    assert!(
        harness.contains("// bind dut dut_props #(.W(W)) i_props (.*)"),
        "{harness}"
    );
    let copy = std::fs::read_to_string(dir.join("dut_props_design.sv")).unwrap();
    assert!(!copy.contains("bind "), "{copy}");
    // The checkers are in the properties' module (they read `seen`).
    let at = copy.find("module dut_props").unwrap();
    assert!(copy[at..].contains("grows_checker grows_chk"), "{copy}");
    assert!(copy[at..].contains(".seen(seen)"), "{copy}");
    // An escaped instance name (any bytes) does not reach the harness.
    let o = run(&props(
        good_ports,
        "bind dut dut_props \\i*/\u{1b}[31m (.*);",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let harness = std::fs::read_to_string(dir.join("dut_props_formal.sv")).unwrap();
    assert!(
        harness.contains("  dut_props bound_properties (.clk(clk), "),
        "{harness}"
    );
    assert!(!harness.contains('\u{1b}'), "{harness}");
    // What the harness cannot do, refused with the reason.
    for (text, needle) in [
        (props(good_ports, ""), "binds no module into it"),
        (
            props(
                good_ports,
                "bind dut dut_props i_props (.*);\nmodule other (input clk, a);\n  \
                 o: assert property (@(posedge clk) a);\nendmodule",
            ),
            "has assertions in `other` too (line 9)",
        ),
        (
            props(
                good_ports,
                "bind dut dut_props i_props (clk, rst_n, req, q);",
            ),
            "write `(.*)`",
        ),
        (
            props(
                "input logic clk, rst_n, req, input logic [W-1:0] q, input logic inner",
                "bind dut dut_props i_props (.*);",
            ),
            "has a port `inner` that is not a port of dut",
        ),
        (
            props(
                "input logic clk, rst_n, req, input logic [W:0] q",
                "bind dut dut_props i_props (.*);",
            ),
            "differs in width",
        ),
    ] {
        let o = run(&text);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(stderr(&o).contains(needle), "{needle}: {}", stderr(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
