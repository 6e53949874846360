//! The `mongen` binary, run as users run it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn mongen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .output()
        .expect("run mongen")
}

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
        "Fp: not safety, guarantee (syntactic), liveness, stutter-invariant; monitor: 1 state; `cycle{!p}` violates it without a bad prefix"
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
    assert!(stdout(&o).contains("#define a (x > 1)") && stdout(&o).contains("#define b (y)"));
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
    syn::parse_file(&code).unwrap();
    // Propositions that are no identifiers: letters only.
    let o = mongen(&["compile", "-t", "rust", "G \"x > 3\""]);
    let code = stdout(&o);
    assert!(
        code.contains("pub struct Monitor {") && !code.contains("fn observe"),
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
    assert!(
        err.contains("clocked properties are not supported"),
        "{err}"
    );
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
