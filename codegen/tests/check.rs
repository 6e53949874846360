//! `mongen check` on logs: verdicts, positions, explanations, exit codes
//! and the errors of bad input.

mod common;
use common::mongen;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn mongen_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run mongen");
    // (mongen may stop before reading it all: an error about its
    // arguments; the output says what happened.)
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/logs")
        .join(name)
}

fn file(dir: &Path, name: &str, contents: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

/// Runs mongen, which must exit with `code` and say `needle`.
fn expect(args: &[&str], code: i32, needle: &str) {
    let o = mongen(args);
    assert_eq!(o.status.code(), Some(code), "{args:?}: {}", text(&o));
    assert!(text(&o).contains(needle), "{args:?}: {}", text(&o));
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongen-check-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const SERVICE_DEFINES: &[&str] = &[
    "--define",
    "req=event == \"request\"",
    "--define",
    "resp=event == \"response\"",
    "--define",
    "err=level == \"ERROR\"",
    "--define",
    "slow=latency_ms > 500",
];

#[test]
fn the_service_log_in_both_formats() {
    let props = example("service.ltl");
    for (log, slow_line, err_line) in [("service.csv", 27, 17), ("service.jsonl", 26, 16)] {
        let mut args = vec!["check", "-F", props.to_str().unwrap()];
        args.extend_from_slice(SERVICE_DEFINES);
        let path = example(log);
        args.push(path.to_str().unwrap());
        let o = mongen(&args);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let out = text(&o);
        assert!(
            out.contains("`G(req -> X(err | resp))`: holds (36 events read, no violation)"),
            "{out}"
        );
        assert!(
            out.contains("`G(\"status >= 500\" -> err)`: holds"),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "`G(resp -> !slow)`: violated at line {slow_line} (event 25)"
            )),
            "{out}"
        );
        assert!(out.contains("latency_ms = 730"), "{out}");
        assert!(
            out.contains(&format!("`G!err`: violated at line {err_line} (event 15)")),
            "{out}"
        );
        // JSON, one object per property.
        args.insert(1, "--json");
        let o = mongen(&args);
        let lines: Vec<serde_json::Value> = String::from_utf8(o.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[3]["verdict"], "violated");
        assert_eq!(lines[3]["violations"][0]["line"], slow_line);
        assert_eq!(lines[3]["violations"][0]["index"], 25);
        assert_eq!(
            lines[3]["violations"][0]["recent"][4]["holds"],
            serde_json::json!(["resp", "slow"])
        );
        assert_eq!(lines[0]["verdict"], "holds");
        assert_eq!(lines[0]["events"], 36);
    }
}

#[test]
fn exit_codes_and_verdicts() {
    let dir = scratch("verdicts");
    let log = file(&dir, "t.csv", b"a,b\n1,0\n0,1\n1,0\n1,1\n");
    // Holds: 0.
    let o = mongen(&["check", "-f", "G(a | b)", &log]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // Violated: 1, at the first violating record.
    let o = mongen(&["check", "-f", "G(a -> X !a)", &log]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("violated at line 5 (event 3)"),
        "{}",
        text(&o)
    );
    // Every violation, with --all: the monitor restarts after each.
    let log2 = file(&dir, "t2.csv", b"a,b\n1,0\n1,1\n1,0\n1,1\n");
    let o = mongen(&["check", "--all", "-f", "G(a -> X !a)", &log2]);
    assert!(text(&o).contains("2 violations in all"), "{}", text(&o));
    // Satisfied for good, and undecided, with three verdicts.
    let o = mongen(&[
        "check",
        "--verdicts",
        "3",
        "-f",
        "F b",
        "-f",
        "G a | F(a & b & X a)",
        &log,
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        text(&o).contains("`Fb`: satisfied at line 3 (event 1)"),
        "{}",
        text(&o)
    );
    assert!(
        text(&o).contains("undecided (4 events read"),
        "{}",
        text(&o)
    );
    // A quoted expression needs no --define; standard input with --format.
    let o = mongen_stdin(
        &["check", "--format", "jsonl", "-f", "G \"x < 10\"", "-"],
        b"{\"x\": 3}\n{\"x\": 12.5}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).contains("-: `G\"x < 10\"`: violated at line 2 (event 1)"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = scratch("errors");
    let cases: &[(&str, &[u8], &[&str], &str)] = &[
        (
            "a.csv",
            b"a,b\n1,0\n",
            &["-f", "G c"],
            "no column `c` (the columns are: a, b)",
        ),
        (
            "b.csv",
            b"a,b\n1,0\n1\n",
            &["-f", "G a"],
            "line 3: 1 fields where the header has 2",
        ),
        (
            "c.csv",
            b"a,b\n1,0\nyes,0\n",
            &["-f", "G a"],
            "line 3: `a`: \"yes\" is not a Boolean (true/false/1/0)",
        ),
        (
            "d.csv",
            b"a,b\n1,0\n\xff,1\n",
            &["-f", "G a"],
            "invalid UTF-8",
        ),
        (
            "e.jsonl",
            b"{\"a\": true}\n{\"a\": tru}\n",
            &["-f", "G a"],
            "line 2, column 10: invalid JSON: expected ident\n",
        ),
        (
            "f.jsonl",
            b"{\"a\": true}\n\n",
            &["-f", "G a"],
            "line 2, column 1: an empty line",
        ),
        (
            "g.jsonl",
            b"{\"a\": true}\n[1]\n",
            &["-f", "G a"],
            "line 2: expected a JSON object",
        ),
        // A missing field is an error only with --strict-fields (without
        // it, `a` is false there: see `missing_fields_are_null`).
        (
            "h.jsonl",
            b"{\"a\": true}\n{\"b\": 1}\n",
            &["-f", "G a", "--strict-fields"],
            "line 2: no field `a` in this event",
        ),
        ("i.txt", b"a\n1\n", &["-f", "G a"], "unknown trace format"),
        (
            "j.csv",
            b"a\n1\n",
            &["-f", "G a", "--define", "a=a >"],
            "--define a: in `a >`, column 4",
        ),
        (
            "k.csv",
            b"a\n1\n",
            &["-f", "G a", "--define", "z=a"],
            "--define z: no property has a proposition",
        ),
        (
            "l.csv",
            b"a\n1\n",
            &["-f", "G \"a#b\""],
            "bind it with --define a#b=EXPR",
        ),
        // `a-b` is arithmetic, of columns `a` and `b`.
        (
            "l2.csv",
            b"a\n1\n",
            &["-f", "G \"a-b > 0\""],
            "no column `b` (the columns are: a)",
        ),
        (
            "m.csv",
            b"a\n1\n",
            &["-f", "G(a"],
            "syntax error at line 1, column 2: this parenthesis is never closed",
        ),
    ];
    for (name, contents, args, want) in cases {
        let path = file(&dir, name, contents);
        let mut a = vec!["check"];
        a.extend_from_slice(args);
        a.push(&path);
        let o = mongen(&a);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o));
        assert!(
            text(&o).contains(want),
            "{name}: expected `{want}` in\n{}",
            text(&o)
        );
        assert!(!text(&o).contains("panicked"), "{}", text(&o));
    }
    let o = mongen_stdin(&["check", "-f", "G a", "-"], b"a\n1\n");
    assert!(
        text(&o).contains("give its format with --format"),
        "{}",
        text(&o)
    );
    let o = mongen(&["check", "x.csv"]);
    assert!(text(&o).contains("no property given"), "{}", text(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 30, item 5: on a service log whose login lines have no
/// `latency_ms`, a comparison with it is false there (SQL's NULL), the run
/// goes on; `--strict-fields` keeps the error.
#[test]
fn missing_fields_are_null() {
    let dir = scratch("null");
    let log = file(
        &dir,
        "service.jsonl",
        b"{\"event\": \"login\", \"user\": \"ann\"}\n\
          {\"event\": \"request\", \"user\": \"ann\", \"latency_ms\": 120, \"path\": \"/api/cart\"}\n\
          {\"event\": \"request\", \"user\": \"bob\", \"latency_ms\": null, \"path\": \"/health\"}\n\
          {\"event\": \"error\", \"user\": \"bob\", \"msg\": \"upstream timeout after 5s\", \"status\": 504}\n",
    );
    let csv = file(
        &dir,
        "service.csv",
        b"event,latency_ms,flag\nlogin,,\nrequest,120,1\nrequest,7000,0\n",
    );
    let check = |args: &[&str], trace: &str| {
        let mut a = vec!["check"];
        a.extend_from_slice(args);
        a.push(trace);
        mongen(&a)
    };
    // Holds: the login line's `latency_ms > 5000` is false, not an error.
    let o = check(&["-f", "G !\"latency_ms > 5000\""], &log);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // `!=` is false too; `has` and `== null` ask.
    for holds in [
        "G(\"has(latency_ms)\" -> \"latency_ms != 0\")",
        "G(\"latency_ms == null\" | \"latency_ms < 5000\")",
        "G(\"latency_ms != null\" <-> \"has(latency_ms)\")",
        "G(\"path starts_with '/api'\" -> \"latency_ms in [120, 130]\")",
    ] {
        let o = check(&["-f", holds], &log);
        assert_eq!(o.status.code(), Some(0), "{holds}: {}", text(&o));
    }
    let o = check(&["-f", "G \"latency_ms != 0\""], &log);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("line 1"), "{}", text(&o));
    // Text operators.
    let o = check(
        &[
            "-f",
            "G !err",
            "--define",
            "err=msg contains \"timeout\" && status in [502, 503, 504] && user not in [\"ann\"]",
        ],
        &log,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("line 4"), "{}", text(&o));
    let o = check(
        &["-f", "G !\"msg matches /time.?out after [0-9]+s$/\""],
        &log,
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("line 4"), "{}", text(&o));
    // --strict-fields: today's errors, naming the line.
    let o = check(&["-f", "G !\"latency_ms > 5000\"", "--strict-fields"], &log);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(
            "line 1: proposition `latency_ms > 5000`: no field `latency_ms` in this event"
        ),
        "{}",
        text(&o)
    );
    // CSV: an empty cell is missing; a Boolean field missing is false.
    let o = check(&["-f", "G(\"latency_ms > 5000\" -> !flag)"], &csv);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = check(&["-f", "G !flag", "-j", "1"], &csv);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("line 3"), "{}", text(&o));
    let o = check(
        &["-f", "G(\"latency_ms > 5000\" -> !flag)", "--strict-fields"],
        &csv,
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("line 2"), "{}", text(&o));
    assert!(text(&o).contains("\"\" is not a number"), "{}", text(&o));
    // --by: keys are read as before, a missing key is --unkeyed's.
    let o = check(&["-f", "G !\"latency_ms > 5000\"", "--by", "user"], &log);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let o = check(&["-f", "G !\"latency_ms > 5000\"", "--by", "path"], &log);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--unkeyed"), "{}", text(&o));
    // Bad expressions: a caret at the fault.
    for (define, want) in [
        (
            "e=msg matches /time(out/",
            "in `msg matches /time(out/`, column 13: not a regex: unclosed group\n  msg matches \
             /time(out/\n              ^",
        ),
        ("e=msg matches /\\w{3000}/", "the bound: simplify it"),
        (
            "e=status in []",
            "in `status in []`, column 12: an empty list",
        ),
        (
            "e=status > null",
            "column 10: `null` is compared with a field by `==` or `!=`",
        ),
        (
            "e=msg contains 5",
            "column 14: `contains` takes a string in quotes",
        ),
    ] {
        let o = check(&["-f", "G !e", "--define", define], &log);
        assert_eq!(o.status.code(), Some(2), "{define}: {}", text(&o));
        assert!(
            text(&o).contains(want),
            "{define}: expected `{want}` in\n{}",
            text(&o)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_loses_nothing_read_before_it() {
    // A violation before a bad line is reported, then the error (exit 2);
    // the other traces are still checked; with several cores as in one
    // pass, and in JSON.
    let dir = scratch("partial");
    let mut big = String::from("a,b\n");
    for k in 0..50_000 {
        big.push_str(if k == 30_000 { "1,0\n" } else { "0,0\n" });
    }
    big.push_str("maybe,0\n0,0\n");
    let bad = file(&dir, "bad.csv", big.as_bytes());
    let good = file(&dir, "good.csv", b"a,b\n0,1\n1,0\n");
    let vcd = file(
        &dir,
        "cut.vcd",
        b"$var wire 1 ! a $end\n$enddefinitions $end\n#0\n0!\n#1\n1!\n#2\n0!\n#3\nx",
    );
    for jobs in ["1", "2"] {
        let o = mongen(&[
            "check",
            "-j",
            jobs,
            "-f",
            "G !a",
            "-f",
            "G(b -> X b)",
            &bad,
            "missing.csv",
            &good,
        ]);
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(o.status.code(), Some(2), "{out}{err}");
        assert!(out.contains("bad.csv: `G!a`: violated at line 30002 (event 30000); 50000 events read before the error"), "{out}");
        assert!(
            out.contains(
                "bad.csv: `G(b -> Xb)`: holds (50000 events read before the error, no violation)"
            ),
            "{out}"
        );
        assert!(
            out.contains("good.csv: `G!a`: violated at line 3 (event 1); 2 events read\n"),
            "{out}"
        );
        assert!(
            out.contains("good.csv: `G(b -> Xb)`: violated at line 3"),
            "{out}"
        );
        assert!(
            err.contains("bad.csv, line 50002: `a`: \"maybe\" is not a Boolean"),
            "{err}"
        );
        assert!(err.contains("cannot read missing.csv"), "{err}");
    }
    let o = mongen(&["check", "--json", "-f", "G !a", &bad]);
    let out = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(
        (v["complete"].as_bool(), v["events"].as_u64()),
        (Some(false), Some(50_000))
    );
    assert_eq!(v["violations"][0]["line"].as_u64(), Some(30_002));
    let o = mongen(&["check", "--json", "-f", "G !a", &good]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("complete"));
    // A waveform cut in the middle of a value change.
    let o = mongen(&["check", "-f", "G !a", &vcd]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("violated at time 1"), "{}", text(&o));
    // An error before the first event reports nothing but the error.
    let o = mongen(&["check", "-f", "G c", &good]);
    assert_eq!(
        (o.status.code(), o.stdout.len()),
        (Some(2), 0),
        "{}",
        text(&o)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The reset of a set of assertions holds only those with a `disable iff`:
/// IEEE 1800 checks an assertion without one in reset too (and one whose
/// `disable iff` reads past values, made part of its formula), as PSL checks
/// a directive without `abort`.
#[test]
fn assertions_without_disable_iff_are_checked_in_reset() {
    let dir = scratch("unheld");
    // Rising edges at 5, 15, 25, 35; reset until 12; `b` 1 at the edge at
    // 5 only, in reset.
    let dump = b"$scope module tb $end
$var reg 1 ! clk $end
$var reg 1 \" rst_n $end
$var reg 1 # b $end
$upscope $end
$enddefinitions $end
#0
0!
0\"
1#
#5
1!
#10
0!
0#
#12
1\"
#15
1!
#20
0!
#25
1!
#30
0!
#35
1!
";
    let vcd = file(&dir, "t.vcd", dump);
    let sv = file(
        &dir,
        "t.sv",
        b"module tb (input logic clk, rst_n, b);\n  default clocking @(posedge clk); endclocking\n  \
          held: assert property (disable iff (!rst_n) !b);\n  \
          checked: assert property (!b);\n  \
          past: assert property (disable iff (!rst_n) $past(!b));\nendmodule\n",
    );
    let o = mongen(&["check", "--sv", &sv, &vcd]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("`checked`: violated at time 5 (cycle 0)"), "{t}");
    assert!(!t.contains("`held`: violated"), "{t}");
    // `$past(!b)` at the edge at 15 reads 5's `b`; its `disable iff`
    // (the reset at 15: no longer active) is part of its formula.
    assert!(t.contains("`past`: violated at time 15 (cycle 1)"), "{t}");
    // The checkers likewise: only those with a `disable iff` have the reset.
    let out = dir.join("c.v").display().to_string();
    let o = mongen(&["compile", "--sv", &sv, "-t", "verilog", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o));
    let v = std::fs::read_to_string(&out).unwrap();
    let ports = |m: &str| {
        let at = v
            .find(&format!("module {m} ("))
            .unwrap_or_else(|| panic!("{m}: {v}"));
        v[at..at + v[at..].find(");").unwrap()].to_string()
    };
    assert!(ports("held_checker").contains("input  wire rst_n"), "{v}");
    assert!(!ports("checked_checker").contains("rst_n"), "{v}");
    // (`past` reads `rst_n` in its formula, as a proposition: the
    // module's signal, connected as it is declared.)
    assert!(ports("past_checker").contains("input  wire rst_n"), "{v}");
    assert!(v.contains("//     rst_n -> rst_n\n"), "{v}");
    // One checker restarts on the reset.
    assert_eq!(
        v.matches("always @(posedge clk or negedge rst_n)").count(),
        1,
        "{v}"
    );
    // A file none of whose assertions has a `disable iff`: no checker has
    // the default reset (`rst_n`), which would hold them in the design's
    // reset; --reset gives it to all.
    let plain = file(
        &dir,
        "plain.sv",
        b"module tb (input logic clk, b);\n  a: assert property (@(posedge clk) !b);\nendmodule\n",
    );
    let o = mongen(&["compile", "--sv", &plain, "-t", "verilog", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(!std::fs::read_to_string(&out).unwrap().contains("rst_n"));
    let o = mongen(&[
        "compile", "--sv", &plain, "-t", "verilog", "--reset", "rst_n", "-o", &out,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("input  wire rst_n"));
    // --reset holds them all, as the user says.
    let o = mongen(&["check", "--sv", &sv, "--reset", "rst_n", &vcd]);
    let t = text(&o);
    assert!(!t.contains("`checked`: violated"), "{t}");
    // The same in a PSL vunit: a directive without `disable iff` beside
    // one with.
    let vunit = file(
        &dir,
        "t.psl",
        b"vunit v (tb) {\n  default clock = (posedge clk);\n  \
          held: assert disable iff (!rst_n) always !b;\n  checked: assert always !b;\n}\n",
    );
    let o = mongen(&["check", "--vunit", &vunit, &vcd]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("`checked`: violated at time 5 (cycle 0)"), "{t}");
    assert!(!t.contains("`held`: violated"), "{t}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// lowRISC's reset `disable iff ((!rst_ni) !== '0)` and a case
/// comparison on a waveform with unknown values: the reset is `rst_ni`,
/// active low, and its `x` at the first edge holds the check in reset
/// (what `!== '0` asks: `a` is 0 there); `v !== 2'b11` holds of `x1`
/// (§11.4.5), so the edge at 25 is a violation, where `!=` has no value
/// and is refused; `$isunknown(v)` holds there only.
#[test]
fn case_equality_and_lowrisc_resets_on_unknown_values() {
    let dir = scratch("vcd-case");
    let module = |op: &str| {
        format!(
            "module m(input clk, rst_ni, a, input [1:0] v);
  p: assert property (@(posedge clk) disable iff ((!rst_ni) !== '0) v {op} 2'b11 |-> a);
endmodule
"
        )
    };
    let dump = b"$scope module m $end
$var reg 1 ! clk $end
$var reg 1 \" rst_ni $end
$var reg 1 # a $end
$var reg 2 $ v $end
$upscope $end
$enddefinitions $end
#0
0!
x\"
0#
b0 $
#5
1!
#10
0!
#12
1\"
1#
#15
1!
#20
0!
0#
bx1 $
#25
1!
#30
0!
b11 $
#35
1!
#40
0!
";
    let vcd = file(&dir, "t.vcd", dump);
    let p = file(&dir, "p.sv", module("!==").as_bytes());
    let o = mongen(&["check", "--sv", &p, &vcd]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("violated at time 25"), "{}", text(&o));
    assert!(!text(&o).contains("time 5 "), "{}", text(&o));
    assert!(!text(&o).contains("time 35"), "{}", text(&o));
    // `!=` of `x1`: no value; read both ways, it decides the verdict: an
    // error at that edge.
    let q = file(&dir, "q.sv", module("!=").as_bytes());
    let o = mongen(&["check", "--sv", &q, &vcd]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(
            "time 25 (cycle 2): whether `p` is violated here depends on unknown (x/z) values it read (`v != 2'b11` here)"
        ),
        "{}",
        text(&o)
    );
    // `$isunknown` (§20.9) sees the x of `v` at 25, and nothing else.
    let known = file(
        &dir,
        "known.sv",
        b"module m(input clk, rst_ni, a, input [1:0] v);
  k: assert property (@(posedge clk) disable iff ((!rst_ni) !== '0) !$isunknown(v));
endmodule
",
    );
    let o = mongen(&["check", "--sv", &known, "--all", &vcd]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("violated at time 25"), "{}", text(&o));
    assert_eq!(text(&o).matches("violated at").count(), 1, "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn waveforms_with_a_clock_and_a_reset() {
    let dir = scratch("vcd");
    // Rising edges at 5, 15, 25, 35, 45; reset until 12; `a` unknown in
    // reset, then 1 at the edges at 25 and 35 (sampled before the edge).
    let dump = b"$scope module tb $end
$var reg 1 ! clk $end
$var reg 1 \" rst_n $end
$var reg 1 # a $end
$upscope $end
$enddefinitions $end
#0
0!
0\"
x#
#5
1!
#10
0!
#12
1\"
0#
#15
1!
#20
0!
1#
#25
1!
#30
0!
#35
1!
0#
#40
0!
#45
1!
";
    let vcd = file(&dir, "t.vcd", dump);
    let o = mongen(&[
        "check",
        "-f",
        "G(a -> X !a)",
        "--clock",
        "clk",
        "--reset",
        "rst_n",
        &vcd,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("violated at time 35 (cycle 3)"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("time 25 (cycle 2): a"), "{}", text(&o));
    // Out of reset, `a` is never unknown; without --reset it is, at the
    // edge at 5: read both ways, it decides nothing here (the violation at
    // 35 is one either way)...
    let o = mongen(&["check", "-f", "G(a -> X !a)", "--clock", "clk", &vcd]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("violated at time 35 (cycle 3)"),
        "{}",
        text(&o)
    );
    // ... and decides this verdict: an error there, not a verdict.
    let o = mongen(&["check", "-f", "G !a", "--clock", "clk", &vcd]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains(
            "time 5 (cycle 0): whether `G!a` is violated here depends on unknown (x/z) values it read (`a` here)"
        ),
        "{}",
        text(&o)
    );
    // A reset pulse between the edges at 25 and 35 restarts a checker
    // with an asynchronous reset, and the monitor with `:async`.
    let pulsed = String::from_utf8_lossy(dump).replace("#30\n", "#27\n0\"\n#28\n1\"\n#30\n");
    let pulsed = file(&dir, "pulsed.vcd", pulsed.as_bytes());
    for (reset, code) in [("rst_n", 1), ("rst_n:async", 0), ("rst_n:low:async", 0)] {
        let o = mongen(&[
            "check",
            "-f",
            "G(a -> X !a)",
            "--clock",
            "clk",
            "--reset",
            reset,
            &pulsed,
        ]);
        assert_eq!(o.status.code(), Some(code), "--reset {reset}: {}", text(&o));
    }
    // The same property in a vunit: its clock and its `disable iff`, an
    // asynchronous reset, are the vunit's; covers are not checked.
    let vunit = file(
        &dir,
        "t.psl",
        b"vunit v (tb) {\n  default clock = (posedge clk);\n  default disable iff (!rst_n);\n  \
          no_twice: assert always (a -> next !a);\n  twice: cover {a; a};\n}\n",
    );
    expect(
        &["check", "--vunit", &vunit, &pulsed],
        0,
        "`twice`: a cover directive, not checked",
    );
    expect(
        &["check", "--vunit", &vunit, &vcd],
        1,
        "`no_twice`: violated at time 35 (cycle 3)",
    );
    // What a vunit cannot give: one clock, one reset signal; and its clock
    // is for waveforms.
    let clocks = file(
        &dir,
        "clocks.psl",
        b"vunit v {\n  p: assert always a @(posedge clk);\n  q: assert always a @(negedge clk);\n}\n",
    );
    expect(
        &["check", "--vunit", &clocks, &vcd],
        2,
        "2 clocks (posedge clk, negedge clk)",
    );
    // --clock decides; `a` is 0 at the edge at 15.
    expect(
        &[
            "check", "--vunit", &clocks, "--clock", "clk", "--reset", "rst_n", &vcd,
        ],
        1,
        "`p`: violated at time 15",
    );
    // A compound reset holds the monitors while it is true, and restarts
    // them when it pulses between two edges (it is asynchronous): here a
    // flush, low but for a pulse between the edges at 25 and 35, or high
    // at the edge at 35.
    let resets = file(
        &dir,
        "resets.psl",
        b"vunit v {\n  default clock = (posedge clk);\n  default disable iff (!rst_n || flush);\n  \
          no_twice: assert always (a -> next !a);\n}\n",
    );
    let with_flush = |changes: &str| {
        String::from_utf8_lossy(dump)
            .replace(
                "$var reg 1 # a $end\n",
                "$var reg 1 # a $end\n$var reg 1 $ flush $end\n",
            )
            .replace("x#\n", "x#\n0$\n")
            .replace("#30\n", changes)
    };
    for (name, changes, code, says) in [
        (
            "none",
            "#30\n",
            1,
            "`no_twice`: violated at time 35 (cycle 3)",
        ),
        ("pulse", "#27\n1$\n#28\n0$\n#30\n", 0, "no violation"),
        ("held", "#30\n1$\n", 0, "no violation"),
    ] {
        let trace = file(
            &dir,
            &format!("flush-{name}.vcd"),
            with_flush(changes).as_bytes(),
        );
        expect(&["check", "--vunit", &resets, &trace], code, says);
    }
    let csv = file(&dir, "t.csv", b"a\n1\n");
    expect(
        &["check", "--vunit", &vunit, &csv],
        2,
        "are for VCD waveforms",
    );
    let o = mongen(&[
        "check",
        "-f",
        "G a",
        "--clock",
        "clk",
        "--reset",
        "rst_n:fast",
        &vcd,
    ]);
    assert!(
        text(&o)
            .contains("--reset rst_n:fast: expected NAME[:low|high][:sync|async], found `fast`"),
        "{}",
        text(&o)
    );
    // Errors: an unknown clock, --clock on a log, a bad edge.
    let o = mongen(&["check", "-f", "G a", "--clock", "clock", &vcd]);
    assert!(
        text(&o).contains("--clock: no signal `clock`"),
        "{}",
        text(&o)
    );
    let o = mongen(&["check", "-f", "G a", "--clock", "clk:rising", &vcd]);
    assert!(
        text(&o).contains("the edge is posedge or negedge"),
        "{}",
        text(&o)
    );
    let csv = file(&dir, "t.csv", b"a\n1\n");
    let o = mongen(&["check", "-f", "G a", "--clock", "clk", &csv]);
    assert!(
        text(&o).contains("--clock and --reset are for VCD"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn several_cores_report_what_one_pass_reports() {
    // A log of several chunks (1 MiB each) with violations here and there,
    // blank lines, an error late in the file in the second variant.
    let dir = scratch("jobs");
    let mut csv = String::from("t,req,ack,latency\n");
    let mut jsonl = String::new();
    for k in 0..150_000u64 {
        let req = u8::from(k % 7 == 0);
        // Every 40 000th request is not acknowledged.
        let ack = u8::from(k % 7 == 1 && k % 40_000 != 1);
        let latency = (k * 7919) % 1000;
        csv.push_str(&format!("{k},{req},{ack},{latency}\n"));
        if k % 50_000 == 3 {
            csv.push('\n');
        }
        jsonl.push_str(&format!(
            "{{\"t\": {k}, \"req\": {req}, \"x\": {{\"ack\": {}}}, \"latency\": {latency}}}\n",
            ack == 1
        ));
    }
    let csv_path = file(&dir, "log.csv", csv.as_bytes());
    let jsonl_path = file(&dir, "log.jsonl", jsonl.as_bytes());
    let bad = file(&dir, "bad.csv", format!("{csv}1,0,maybe,3\n").as_bytes());
    for (log, ack) in [(&csv_path, "ack"), (&jsonl_path, "x.ack"), (&bad, "ack")] {
        let define = format!("ack={ack}");
        for extra in [
            &[][..],
            &["--all", "--max-reports", "2"][..],
            &["--json", "--all"][..],
        ] {
            let mut outs = Vec::new();
            for jobs in ["1", "2", "3"] {
                let mut args = vec![
                    "check",
                    "-f",
                    "G(req -> X ack)",
                    "-f",
                    "G(\"latency > 998\" -> X !req)",
                    "--define",
                    &define,
                    "-j",
                    jobs,
                ];
                args.extend_from_slice(extra);
                args.push(log);
                let o = mongen(&args);
                outs.push((o.status.code(), text(&o)));
            }
            let (code, out) = &outs[0];
            if log == &bad {
                assert_eq!(*code, Some(2), "{out}");
                assert!(
                    out.contains("line 150005: `ack`: \"maybe\" is not a Boolean"),
                    "{out}"
                );
            } else {
                assert_eq!(*code, Some(1), "{out}");
                assert!(out.contains("violated"), "{out}");
            }
            if extra.contains(&"--max-reports") && log != &bad {
                // The first property once (no ack after the request of
                // event 0); the second all along the log: after each
                // latency of 999 followed by a request (22 times, from
                // event 322 on), two explained.
                assert!(out.contains("(event 1); 150000 events read"), "{out}");
                assert!(out.contains("(event 322), 22 violations in all"), "{out}");
                assert_eq!(out.matches("\n  at line").count(), 2, "{out}");
            }
            assert_eq!(outs[1], outs[0], "{log} {extra:?}");
            assert_eq!(outs[2], outs[0], "{log} {extra:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The lines mongen writes on standard output, as they come.
fn lines_of(out: std::process::ChildStdout) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The lines received until one contains `want` (included), or a panic
/// after 20 s.
fn until(rx: &std::sync::mpsc::Receiver<String>, want: &str) -> Vec<String> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(want);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(e) => panic!("no `{want}` ({e:?}); received:\n{}", seen.join("\n")),
        }
    }
}

/// A child process killed when dropped (a followed file never ends).
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Appends `bytes` to the file at `path`.
fn append(path: &str, bytes: &[u8]) {
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(bytes).unwrap();
}

#[test]
fn follow_reports_violations_as_the_file_grows() {
    let dir = scratch("follow");
    let pause = std::time::Duration::from_millis(400);
    // CSV in text, JSON Lines in JSON: the file at the start, a part that
    // ends in a partial line (which waits for its rest), the rest, more.
    let cases = [
        (
            "log.csv",
            ["a,b\n1,0\n0,1\n", "1,1\n1", ",0\n", "0,0\n"],
            "log.csv: `G(a -> X!a)`: violated at line 5 (event 3)",
        ),
        (
            "log.jsonl",
            [
                "{\"a\": 1, \"b\": 0}\n{\"a\": 0, \"b\": 1}\n",
                "{\"a\": 1, \"b\": 1}\n{\"a\": ",
                "1, \"b\": 0}\n",
                "{\"a\": 0, \"b\": 0}\n",
            ],
            "\"violation\"",
        ),
    ];
    for (name, [start, partial, rest, more], want) in cases {
        let path = file(&dir, name, start.as_bytes());
        let mut args = vec!["check", "--follow", "-f", "G(a -> X !a)"];
        if name.ends_with(".jsonl") {
            args.push("--json");
        }
        args.push(&path);
        let mut child = Killed(
            Command::new(env!("CARGO_BIN_EXE_mongen"))
                .args(&args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .expect("run mongen"),
        );
        let child = &mut child.0;
        let rx = lines_of(child.stdout.take().unwrap());
        // At the end of the file, it waits instead of reporting.
        std::thread::sleep(pause);
        assert!(child.try_wait().unwrap().is_none(), "{name}: it stopped");
        append(&path, partial.as_bytes());
        std::thread::sleep(pause);
        assert!(child.try_wait().unwrap().is_none(), "{name}: it stopped");
        assert_eq!(rx.try_recv().ok(), None, "{name}: a violation too early");
        // The line completed: the violation comes at once, and mongen
        // goes on.
        append(&path, rest.as_bytes());
        let seen = until(&rx, want);
        append(&path, more.as_bytes());
        std::thread::sleep(pause);
        assert!(child.try_wait().unwrap().is_none(), "{name}: it stopped");
        if name.ends_with(".jsonl") {
            let v: serde_json::Value = serde_json::from_str(seen.last().unwrap()).unwrap();
            assert_eq!(v["trace"], path.as_str());
            assert_eq!(v["property"], "G(a -> X!a)");
            assert_eq!(v["violation"]["line"], 4);
            assert_eq!(v["violation"]["index"], 3);
            assert_eq!(v["violation"]["values"]["a"], "1");
        } else {
            assert!(seen.last().unwrap().ends_with(want), "{seen:?}");
            let rest = until(&rx, "<- violation");
            assert!(rest.iter().any(|l| l == "  values: a = 1"), "{rest:?}");
            assert!(rest.iter().any(|l| l == "    line 4: a"), "{rest:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn follow_standard_input_until_it_ends() {
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args([
                "check",
                "--follow",
                "--all",
                "--format",
                "jsonl",
                "-f",
                "G \"x < 10\"",
                "-",
            ])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("run mongen"),
    );
    let child = &mut child.0;
    let mut stdin = child.stdin.take().unwrap();
    let rx = lines_of(child.stdout.take().unwrap());
    // Reported while standard input is still open.
    stdin.write_all(b"{\"x\": 3}\n{\"x\": 12.5}\n").unwrap();
    stdin.flush().unwrap();
    let seen = until(&rx, ": violated at");
    assert_eq!(
        seen.last().unwrap(),
        "-: `G\"x < 10\"`: violated at line 2 (event 1)"
    );
    stdin.write_all(b"{\"x\": 4}\n{\"x\": 11}\n").unwrap();
    stdin.flush().unwrap();
    let seen = until(&rx, ": violated at");
    assert_eq!(
        seen.last().unwrap(),
        "-: `G\"x < 10\"`: violated at line 4 (event 3)"
    );
    // The end of the input: the summary, and the usual exit status.
    drop(stdin);
    let seen = until(&rx, "violations in all");
    assert_eq!(
        seen.last().unwrap(),
        "-: `G\"x < 10\"`: violated at line 2 (event 1), 2 violations in all; 4 events read"
    );
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(1));
}

#[test]
fn follow_is_for_logs() {
    let dir = scratch("follow-errors");
    let vcd = file(
        &dir,
        "t.vcd",
        b"$var reg 1 ! a $end\n$enddefinitions $end\n#0\n1!\n",
    );
    let o = mongen(&["check", "--follow", "-f", "G a", &vcd]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--follow is for CSV and JSON Lines"),
        "{}",
        text(&o)
    );
    let csv = file(&dir, "t.csv", b"a\n1\n");
    let o = mongen(&["check", "--follow", "-f", "G a", &csv, &csv]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--follow follows one trace"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_progress_bar_off_a_terminal() {
    // A log large enough for the bar (10 MiB): with standard error not a
    // terminal, nothing is written there, on one core or several.
    let dir = scratch("progress");
    let mut csv = String::from("t,req,ack\n");
    let mut k = 0u64;
    while csv.len() < 10 << 20 {
        csv.push_str(&format!(
            "{k},{},{}\n",
            u8::from(k % 3 == 0),
            u8::from(k % 3 == 1)
        ));
        k += 1;
    }
    let log = file(&dir, "big.csv", csv.as_bytes());
    for jobs in ["1", "2"] {
        let o = mongen(&["check", "-j", jobs, "-f", "G(req -> X ack)", &log]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert!(
            o.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            format!("{log}: `G(req -> Xack)`: holds ({k} events read, no violation)\n")
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The verdict, counts and violation positions of `mongen check --json`.
fn positions(out: &str) -> Vec<(String, u64, u64, Vec<u64>)> {
    out.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect(l);
            let at = v["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x["index"].as_u64().unwrap())
                .collect();
            (
                v["verdict"].as_str().unwrap().to_string(),
                v["events"].as_u64().unwrap(),
                v["violation_count"].as_u64().unwrap(),
                at,
            )
        })
        .collect()
}

#[test]
fn lazy_monitors_report_what_eager_ones_report() {
    let dir = scratch("lazy");
    let mut csv = String::from("req,ack,p1,p2,p3\n");
    for k in 0..3000u64 {
        let req = u8::from(k % 5 == 0);
        let ack = u8::from(k % 5 == 2 && k % 700 != 2);
        let p = |i: u64| u8::from((k * 31 + i * 17) % 97 != 0);
        csv.push_str(&format!("{req},{ack},{},{},{}\n", p(1), p(2), p(3)));
    }
    let log = file(&dir, "log.csv", csv.as_bytes());
    for f in [
        "G(req -> X(!req W ack))",
        "G(req -> X X ack)",
        "Gp1 | Gp2 | Gp3",
        "G(X X req -> H !ack)",
    ] {
        for extra in [&[][..], &["--all"][..], &["--verdicts", "3"][..]] {
            let mut args = vec!["check", "--json", "-f", f, &log];
            args.extend_from_slice(extra);
            let eager = mongen(&args);
            args.push("--lazy");
            let lazy = mongen(&args);
            assert_eq!(lazy.status.code(), eager.status.code(), "{f} {extra:?}");
            assert_eq!(
                positions(&text(&lazy)),
                positions(&text(&eager)),
                "{f} {extra:?}"
            );
        }
    }
    // A monitor too large to build, checked lazily.
    let or_g: Vec<String> = (1..=3).map(|i| format!("G p{i}")).collect();
    let o = mongen(&["check", "--max-states", "4", "-f", &or_g.join(" | "), &log]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = mongen(&[
        "check",
        "--lazy",
        "--max-states",
        "4",
        "-f",
        &or_g.join(" | "),
        &log,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("was required, and the letter satisfied `!p"),
        "{}",
        text(&o)
    );
    // Outside the fragment: a clear error.
    let o = mongen(&["check", "--lazy", "-f", "G(req -> F ack)", &log]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("lazy monitors take syntactic safety formulas")
            && text(&o).contains("`Fack` is outside them"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_lazy_monitor_says_when_its_verdicts_become_informative() {
    // A counter: deciding whether its states can still hold takes a search
    // as long as the counter's period; with a small budget the search
    // gives up at once, and the report says so.
    let dir = scratch("lazy-inexact");
    let n = 6;
    let mut csv = String::from("m,b,c\n");
    for k in 0..1u64 << n {
        let mut carry = true;
        for j in 0..n {
            let b = (k >> j) & 1 == 1;
            carry &= b;
            csv.push_str(&format!(
                "{},{},{}\n",
                u8::from(j == 0),
                u8::from(b),
                u8::from(carry)
            ));
        }
    }
    let log = file(&dir, "counter.csv", csv.as_bytes());
    let f = text(&mongen(&["genltl", "rv-counter-carry", &n.to_string()]));
    let f = f.trim();
    let o = mongen(&["check", "--lazy", "-f", f, &log]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(!text(&o).contains("note:"), "{}", text(&o));
    let o = mongen(&["check", "--lazy", "--max-states", "50", "-f", f, &log]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("note: from line 2 (event 0) on, violations are reported at their first informative bad prefix"),
        "{}",
        text(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `mongen check` on one pass (`-j 1`) and on the default parallel
/// path: both must say the same, which is returned.
fn both_paths(args: &[&str]) -> (Option<i32>, String) {
    let one = mongen(&[&["check", "-j", "1"], args].concat());
    let par = mongen(&[&["check"], args].concat());
    assert_eq!(
        (one.status.code(), text(&one)),
        (par.status.code(), text(&par)),
        "{args:?}: one pass, then parallel"
    );
    (par.status.code(), text(&par))
}

/// Issue 36, item 3: a lone CR ends a CSV line, as in the `csv` crate, on
/// both paths (the parallel one read no event, `-j 1` numbered every
/// record line 1, and a header ending in a CR lost the first row).
#[test]
fn issue36_cr_line_ends_are_line_ends_on_both_paths() {
    let dir = scratch("cr");
    let cr = file(&dir, "cr.csv", b"a,b\r1,0\r0,0\r");
    let (code, out) = both_paths(&["-f", "G(a -> X b)", &cr]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("violated at line 3 (event 1); 2 events read"),
        "{out}"
    );
    assert!(out.contains("    line 2: a\n"), "{out}");
    let header_cr = file(&dir, "hcr.csv", b"a,b\r1,0\n0,0\n");
    let (code, out) = both_paths(&["-f", "G(a -> X b)", &header_cr]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("violated at line 3 (event 1); 2 events read"),
        "{out}"
    );
    // Mixed line ends, a CRLF cut by the end of a batch notwithstanding.
    let mut log = b"a,b\r\n".to_vec();
    for k in 0..300_000 {
        log.extend_from_slice(match k % 3 {
            0 => b"0,0\r",
            1 => b"0,1\r\n",
            _ => b"0,0\n",
        });
    }
    log.extend_from_slice(b"1,0\r0,0\r");
    let big = file(&dir, "big.csv", &log);
    let (code, out) = both_paths(&["-f", "G(a -> X b)", &big]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("violated at line 300003 (event 300001); 300002 events read"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, item 4: an unterminated quote swallowed the rest of the log
/// into a field ("holds"); it is an error naming where the quote opened.
#[test]
fn issue36_an_unterminated_quote_is_an_error_on_both_paths() {
    let dir = scratch("quote");
    let log = file(&dir, "q.csv", b"a,b,c\n0,0,0\n1,1,\"oops\n1,0,0\n0,0,0\n");
    let (code, out) = both_paths(&["-f", "G(a -> X b)", &log]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("q.csv, line 3, column 5: the quoted field that starts here is not closed before the end of the input"),
        "{out}"
    );
    // In the header too.
    let log = file(&dir, "h.csv", b"a,\"b\n1,0\n");
    let (code, out) = both_paths(&["-f", "G(a -> X b)", &log]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("h.csv, line 1, column 3:"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

const VCD_HEAD: &str = "$scope module t $end\n$var wire 1 ! a $end\n$var wire 1 \" \\req+1 $end\n$upscope $end\n$enddefinitions $end\n";

/// Issue 36, item 5: without --clock, a repeated `#10` made two events,
/// the first with a value that is not the end of the step's.
#[test]
fn issue36_a_repeated_time_is_one_step_with_its_final_values() {
    let dir = scratch("vcdtime");
    let vcd = file(
        &dir,
        "rep.vcd",
        format!("{VCD_HEAD}#0\n0!\n#10\n1!\n#10\n0!\n#20\n0!\n").as_bytes(),
    );
    expect(
        &["check", "-f", "G !a", &vcd],
        0,
        "rep.vcd: `G!a`: holds (3 events read, no violation)",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, item 10: text from traces (column names, values, VCD signal
/// names, JSON keys, file names) is escaped on standard output and error,
/// as values in messages are.
#[test]
fn issue36_terminal_escapes_from_traces_are_escaped() {
    let dir = scratch("escapes");
    let raw = |o: &Output| {
        let all = [&o.stdout[..], &o.stderr[..]].concat();
        // No ESC, no CSI (C1, as UTF-8), no bidirectional override.
        assert!(
            !all.windows(1).any(|w| w[0] == 0x1b)
                && !all.windows(2).any(|w| w == [0xc2, 0x9b])
                && !all.windows(3).any(|w| w == "\u{202e}".as_bytes()),
            "{:?}",
            String::from_utf8_lossy(&all)
        );
        text(o)
    };
    // A column name in an error.
    let cols = file(&dir, "cols.csv", b"a,\x1b[2Jb\n1,0\n");
    let out = raw(&mongen(&["check", "-f", "G(a -> X c)", &cols]));
    assert!(out.contains("the columns are: a, \\u{1b}[2Jb"), "{out}");
    // A value and a file name in a report, in text and in JSON.
    let name = dir.join("v\x1b[31m\u{202e}.csv");
    std::fs::write(&name, b"a,b,c\n1,0,x\n0,0,\"\x1b[31m\xc2\x9bX\"\n").unwrap();
    let name = name.to_str().unwrap();
    for json in [false, true] {
        let mut args = vec!["check", "-f", "G(a -> X (b | \"c == \\\"z\\\"\"))", name];
        if json {
            args.push("--json");
        }
        let o = mongen(&args);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        let out = raw(&o);
        if json {
            let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
            assert_eq!(v["violations"][0]["values"]["c"], "\u{1b}[31m\u{9b}X");
            assert_eq!(v["trace"], name);
        } else {
            assert!(out.contains("c = \\u{1b}[31m\\u{9b}X"), "{out}");
            assert!(out.contains("v\\u{1b}[31m\\u{202e}.csv: `"), "{out}");
        }
    }
    // A VCD signal name, a JSON key.
    let vcd = file(
        &dir,
        "s.vcd",
        b"$scope module t $end\n$var wire 1 ! \x1b[5mx $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n",
    );
    let out = raw(&mongen(&["check", "-f", "G !nope", &vcd]));
    assert!(out.contains("t.\\u{1b}[5mx"), "{out}");
    // A JSON line that is not an object, quoted in the error (JSON allows
    // C1 controls and bidirectional overrides raw in strings).
    let jsonl = file(
        &dir,
        "k.jsonl",
        "{\"a\": 1}\n[1, \"\u{9b}2J\u{202e}\"]\n".as_bytes(),
    );
    let out = raw(&mongen(&["check", "-f", "G a", &jsonl]));
    assert!(out.contains("found [1, \"\\u{9b}2J\\u{202e}\"]"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, item 15 (readers): escaped identifiers, truncated dumps,
/// `$timescale $end`, byte-order marks, duplicate columns.
#[test]
fn issue36_smaller_reader_defects() {
    let dir = scratch("smaller");
    // A VCD escaped identifier is named with its backslash, in quotes.
    let vcd = file(
        &dir,
        "id.vcd",
        format!("{VCD_HEAD}#0\n0!\n0\"\n#5\n1\"\n").as_bytes(),
    );
    expect(
        &["check", "-f", "G !\"\\\\req+1\"", &vcd],
        1,
        "violated at time 5 (cycle 1)",
    );
    expect(
        &["check", "--define", "r=\\req+1", "-f", "G !r", &vcd],
        1,
        "values: \\req+1 = 1",
    );
    // Cut short: in the header, in a value change.
    let full = format!("{VCD_HEAD}#0\n0!\n#5\nb1");
    let cut = file(&dir, "cut.vcd", &full.as_bytes()[..60]);
    expect(
        &["check", "-f", "G !a", &cut],
        2,
        "cut.vcd, line 3: the dump ends before `$enddefinitions` (its header is cut short in `$var wire 1",
    );
    let cut = file(&dir, "cut2.vcd", full.as_bytes());
    expect(
        &["check", "-f", "G !a", &cut],
        2,
        "the dump ends in the middle of a command in `b1` (cut short)",
    );
    let ts = file(
        &dir,
        "ts.vcd",
        format!("$timescale $end\n{VCD_HEAD}#0\n0!\n").as_bytes(),
    );
    expect(
        &["check", "-f", "G !a", &ts],
        2,
        "ts.vcd, line 1: `$timescale` needs a number and a unit, as in `$timescale 1ns $end`, not `$timescale $end`",
    );
    // A byte-order mark, in all three formats and on both paths.
    let bom = file(
        &dir,
        "bom.vcd",
        format!("\u{feff}{VCD_HEAD}#0\n1!\n").as_bytes(),
    );
    expect(&["check", "-f", "G !a", &bom], 1, "violated at time 0");
    for (name, log, want) in [
        (
            "bom.csv",
            "\u{feff}a\n0\n1\n",
            "violated at line 3 (event 1)",
        ),
        (
            "bom.jsonl",
            "\u{feff}{\"a\": 0}\n{\"a\": 1}\n",
            "violated at line 2 (event 1)",
        ),
    ] {
        let log = file(&dir, name, log.as_bytes());
        let (code, out) = both_paths(&["-f", "G !a", &log]);
        assert_eq!(code, Some(1), "{out}");
        assert!(out.contains(want), "{out}");
    }
    // Two columns of one name.
    let dup = file(&dir, "dup.csv", b"a,b,a\n1,0,0\n");
    let (code, out) = both_paths(&["-f", "G a", &dup]);
    assert_eq!(code, Some(2), "{out}");
    assert!(
        out.contains("dup.csv, line 1: columns 1 and 3 are both named `a`"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, item 15 (check): `--max-reports 0` explains none, and a
/// vunit given to -F points at --vunit.
#[test]
fn issue36_max_reports_zero_and_vunits_in_formula_files() {
    let dir = scratch("maxzero");
    let log = file(&dir, "a.csv", b"a\n1\n0\n1\n");
    let o = mongen(&["check", "--all", "--max-reports", "0", "-f", "G !a", &log]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(
        text(&o),
        format!("{log}: `G!a`: violated at line 2 (event 0), 2 violations in all; 3 events read\n")
    );
    let o = mongen(&[
        "check",
        "--all",
        "--max-reports",
        "0",
        "--json",
        "-f",
        "G !a",
        &log,
    ]);
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert_eq!(v["violation_count"], 2);
    assert_eq!(v["violations"], serde_json::json!([]));
    let vunit = file(&dir, "v.psl", b"vunit v { assert always (a -> next b); }\n");
    for cmd in ["check", "compile"] {
        let mut args = vec![cmd, "--psl", "-F", &vunit];
        if cmd == "check" {
            args.push(&log);
        }
        let o = mongen(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        let out = text(&o);
        assert!(
            out.contains("this is a verification unit: give its file with --vunit FILE")
                && !out.contains("parse_vunits"),
            "{out}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 36, item 15 (--follow): a file truncated and grown again past
/// where it was read, between two polls, is noticed (it was read on from
/// the old offset, in the middle of other lines).
#[test]
fn issue36_follow_notices_a_file_rewritten_between_polls() {
    let dir = scratch("rewritten");
    let path = file(&dir, "log.csv", b"a,b\n0,0\n0,0\n");
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_mongen"))
            .args(["check", "--follow", "-f", "G !a", &path])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run mongen"),
    );
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(child.0.try_wait().unwrap().is_none(), "it stopped");
    // Rewritten from its start, longer, between two polls: the size
    // never goes down (as when it is truncated and written again between
    // two polls).
    let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    f.write_all(b"a,b\n1,1\n1,1\n1,1\n1,1\n").unwrap();
    drop(f);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(s) = child.0.try_wait().unwrap() {
            break s;
        }
        assert!(std::time::Instant::now() < deadline, "it did not notice");
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.0.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(
        err.contains("the file was rewritten while followed"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--sv`: an assertion the front end refuses is an error that names it
/// (its label) and where it is; the file's other assertions are compiled
/// and checked all the same, and the run exits with 2. A vector as a
/// condition is `v != 0` in both (IEEE 1800-2017 §12.4): the checker's
/// port has the vector's declared width, and the waveform's vector is
/// read whole.
#[test]
fn sv_assertions_refused_one_by_one_and_vectors_as_conditions() {
    let dir = scratch("sv-refused-one");
    let sv = file(
        &dir,
        "t.sv",
        b"module t (input logic clk, ack, input logic [7:0] v);\n  \
          default clocking @(posedge clk); endclocking\n  \
          p_v: assert property (v |-> ack);\n  \
          p_trig: assert property (ack ##1 ack.triggered);\nendmodule\n",
    );
    let vcd = file(
        &dir,
        "t.vcd",
        b"$timescale 1ns $end\n$scope module t $end\n$var wire 1 ! clk $end\n\
          $var wire 8 \" v $end\n$var wire 1 # ack $end\n$upscope $end\n$enddefinitions $end\n\
          #0\n0!\nb0 \"\n0#\n#5\n1!\n#10\n0!\nb10 \"\n#15\n1!\n#20\n0!\n",
    );
    let o = mongen(&["check", "--sv", &sv, &vcd]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("t.sv:4:"), "{t}");
    assert!(t.contains("`p_trig`: "), "{t}");
    // `v` is 2 at the edge at 15 (bit 0 clear) and `ack` low.
    assert!(t.contains("`p_v`: violated at time 15 (cycle 1)"), "{t}");
    let out = dir.join("c.v").display().to_string();
    let o = mongen(&["compile", "--sv", &sv, "-t", "verilog", "-o", &out]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("`p_trig`: "), "{t}");
    let v = std::fs::read_to_string(&out).unwrap();
    assert!(v.contains("module p_v_checker"), "{v}");
    assert!(!v.contains("module p_trig_checker"), "{v}");
    assert!(v.contains("input  wire [7:0] v"), "{v}");
    assert!(v.contains("v != 8'd0"), "{v}");
    // None read: an error that says so.
    let none = file(
        &dir,
        "n.sv",
        b"module n (input logic clk, a);\n  a1: assert property (@(posedge clk) a.triggered);\nendmodule\n",
    );
    let o = mongen(&["compile", "--sv", &none, "-t", "hoa"]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("`a1`: ") && t.contains("none of its assertions is read (1 refused)"),
        "{t}"
    );
}

/// On a log, an SVA assertion's `disable iff` is the one in its formula
/// (`accept_on`), as `mongen.check(..., sva=True)` reads it; on the same
/// rows as a waveform's cycles, where the reset also holds the monitor,
/// the violations are the same, for properties with and without past
/// values.
#[test]
fn sva_disable_iff_on_logs_as_on_waveforms() {
    let dir = scratch("sva-disable-logs");
    // rst, req, ack per row (cycle).
    let rows: [(u8, u8, u8); 8] = [
        (0, 1, 0),
        (0, 0, 1),
        (1, 1, 0),
        (0, 0, 0),
        (0, 1, 0),
        (1, 0, 0),
        (0, 1, 1),
        (0, 0, 0),
    ];
    let mut csv = String::from("rst,req,ack\n");
    let mut vcd = String::from(
        "$timescale 1ns $end\n$scope module t $end\n$var wire 1 ! clk $end\n\
         $var wire 1 r rst $end\n$var wire 1 q req $end\n$var wire 1 a ack $end\n\
         $upscope $end\n$enddefinitions $end\n",
    );
    for (k, (rst, req, ack)) in rows.iter().enumerate() {
        csv.push_str(&format!("{rst},{req},{ack}\n"));
        // Values at 10k, the rising edge at 10k + 5.
        vcd.push_str(&format!(
            "#{}\n0!\n{rst}r\n{req}q\n{ack}a\n#{}\n1!\n",
            10 * k,
            10 * k + 5
        ));
    }
    let csv = file(&dir, "t.csv", csv.as_bytes());
    let vcd = file(&dir, "t.vcd", vcd.as_bytes());
    for property in [
        "disable iff (rst) req |=> ack",
        "disable iff (rst) req |-> ##[1:2] ack",
        "disable iff (rst) $rose(req) |=> ack",
        "disable iff (rst) req ##1 !ack |=> 1'b0",
    ] {
        let log = mongen(&["check", "--sva", "--all", "-f", property, &csv]);
        let wave = mongen(&[
            "check",
            "--sva",
            "--all",
            "-f",
            &format!("@(posedge clk) {property}"),
            &vcd,
        ]);
        let (lt, wt) = (text(&log), text(&wave));
        assert_ne!(log.status.code(), Some(2), "{property}: {lt}");
        assert_eq!(
            log.status.code(),
            wave.status.code(),
            "{property}: {lt}\n{wt}"
        );
        // Line k + 2 of the log is cycle k of the waveform.
        let lines: Vec<u64> = lt
            .lines()
            .filter_map(|l| l.split("violated at line ").nth(1))
            .map(|r| r.split(' ').next().unwrap().parse::<u64>().unwrap() - 2)
            .collect();
        let cycles: Vec<u64> = wt
            .lines()
            .filter(|l| l.contains("violated at time "))
            .filter_map(|l| l.split("(cycle ").nth(1))
            .map(|r| r.split(')').next().unwrap().parse().unwrap())
            .collect();
        assert_eq!(lines, cycles, "{property}: {lt}\n{wt}");
    }
    // A reset given with --reset is still for waveforms.
    let o = mongen(&[
        "check",
        "--sva",
        "-f",
        "req |=> ack",
        "--reset",
        "rst",
        &csv,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// A `--define` whose name the LTL parser reads as an operator applied to
/// the rest (`Fail` is `F ail`, as in Spot) says so, and the quoted name
/// binds it.
#[test]
fn a_define_read_as_an_operator_says_to_quote_it() {
    let dir = scratch("define-operator");
    let log = file(&dir, "t.csv", b"event\nok\nfail\n");
    let o = mongen(&[
        "check",
        "-f",
        "G !Fail",
        "--define",
        "Fail=event == \"fail\"",
        &log,
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("`Fail` reads as `F ail`") && t.contains("\"Fail\""),
        "{t}"
    );
    let o = mongen(&[
        "check",
        "-f",
        "G !\"Fail\"",
        "--define",
        "Fail=event == \"fail\"",
        &log,
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(t.contains("violated at line 3"), "{t}");
    // A name that is one proposition: no such hint.
    let o = mongen(&[
        "check",
        "-f",
        "G !ok",
        "--define",
        "busy=event == \"x\"",
        &log,
    ]);
    assert!(!text(&o).contains("reads as"), "{}", text(&o));
}
