//! Resource bounds of `mongen compile` (issue 36, the defence "resource
//! bounds"): each family of formulas that is small to write and was once
//! quadratic, cubic or unbounded runs under `ulimit -v` (2 GB of address
//! space, the 1 GB stack of the translator included) and a time limit,
//! and ends either with a monitor or with a clear error (exit 2, a message
//! naming what was exceeded); never a signal, an abort on a failed
//! allocation, or the time limit.

use std::path::PathBuf;
use std::process::Command;

/// Address space allowed, in KiB (`ulimit -v`).
const MEMORY_KB: u64 = 2_000_000;
/// Seconds allowed for one formula (`timeout`).
const SECONDS: u64 = 60;

fn joined(sep: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("p{i}"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// The outcome of one run: its exit code and standard error.
struct Outcome {
    code: Option<i32>,
    stderr: String,
}

/// `mongen compile [--psl] -F FILE` under the memory and time limits.
fn compile_bounded(name: &str, formula: &str, psl: bool) -> Outcome {
    let dir = std::env::temp_dir().join(format!("mongen-budgets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input: PathBuf = dir.join(format!("{name}.txt"));
    std::fs::write(&input, format!("{formula}\n")).unwrap();
    let output = dir.join(format!("{name}.out"));
    let script = format!(
        "ulimit -v {MEMORY_KB} && exec timeout -s KILL {SECONDS} \"$0\" compile {} -F \"$1\" -o \"$2\"",
        if psl { "--psl" } else { "" }
    );
    // MONGEN_BUDGETS_BIN runs the same checks on another build (to see
    // them fail on an older one).
    let bin = std::env::var("MONGEN_BUDGETS_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_mongen").to_string());
    let o = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(bin)
        .arg(&input)
        .arg(&output)
        .output()
        .expect("run sh");
    Outcome {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Success, or a clear error: exit 2 with one `mongen: error:` line that
/// names the limit and how to raise it (or the syntax error's bound).
fn assert_bounded(name: &str, formula: &str, psl: bool) -> Outcome {
    let o = compile_bounded(name, formula, psl);
    let shown = &o.stderr[..o.stderr.len().min(2000)];
    match o.code {
        Some(0) => {}
        Some(2) => assert!(
            shown.contains("mongen: error:")
                && !shown.contains("panicked")
                && !shown.contains("memory allocation"),
            "{name}: exit 2 without a clear error:\n{shown}"
        ),
        // 124/137: the time limit (timeout's codes); a signal: no code.
        other => {
            panic!("{name}: exit {other:?} (not within {SECONDS} s and {MEMORY_KB} KiB?):\n{shown}")
        }
    }
    o
}

fn assert_compiles(name: &str, formula: &str, psl: bool) {
    let o = assert_bounded(name, formula, psl);
    assert_eq!(o.code, Some(0), "{name}: {}", o.stderr);
}

fn assert_refused(name: &str, formula: &str, psl: bool, says: &str) {
    let o = assert_bounded(name, formula, psl);
    assert_eq!(o.code, Some(2), "{name}: expected an error");
    assert!(
        o.stderr.contains(says),
        "{name}: expected `{says}` in:\n{}",
        o.stderr
    );
}

/// Item 11: wide conjunctions (3,000 took 1.1 GB and failed, 30,000
/// aborted on a 4.5 GB allocation), disjunctions, and many propositions.
#[test]
fn wide_boolean_formulas_compile() {
    assert_compiles("and3000", &joined(" & ", 3000), false);
    assert_compiles("and30000", &joined(" & ", 30_000), false);
    assert_compiles("or3000", &joined(" | ", 3000), false);
    assert_compiles("G-and3000", &format!("G({})", joined(" & ", 3000)), false);
    assert_compiles("psl-and3000", &joined(" && ", 3000), true);
}

/// Item 12 and its siblings: counted PSL operators, bounded LTL operators.
#[test]
fn counted_operators_compile() {
    assert_compiles("next_a", "always next_a[1:1000] (c)", true);
    assert_compiles("next_e", "always next_e[1:1000] (c)", true);
    assert_compiles("next_event", "always next_event(b)[2000] (c)", true);
    assert_compiles("goto-eq", "{a[=1000]} |=> c", true);
    assert_compiles("goto", "{a[->1000]} |=> c", true);
    assert_compiles("star", "{a[*1000]} |=> c", true);
    assert_compiles("G-interval", "G[1:1000] c", false);
    assert_compiles("F-interval", "G(a -> F[0:10000] b)", false);
    assert_compiles("nested-X-n", "X[10000] X[10000] X[10000] p", false);
}

/// Item 12, the remainder: windows of one operator nested directly are
/// merged into one when built (`G(a -> F[0:1000] F[0:1000] b)` took 77 s
/// and 796 MB in the simplifier, 2,000 more than a minute; `next_e` and
/// `G` likewise), and the window's chain of states is minimized a few
/// states a round (it was quadratic). Each is about a second of CPU time.
/// Windows of two kinds nested have a monitor quadratic in the bound
/// (`G[0:k] F[0:k] b`: a position in the window and a deadline, about
/// `k²/2` states): at the largest bounds it stops on the state limit
/// with the error that names it, as a real blow-up does.
#[test]
fn nested_windows_compile_or_name_their_limit() {
    assert_compiles("F-F", "G(a -> F[0:2500] F[0:2500] b)", false);
    assert_compiles("G-G", "G[0:5000] G[0:5000] b", false);
    assert_compiles(
        "next_a-next_a",
        "always next_a[1:5000] next_a[0:5000] (c)",
        true,
    );
    assert_compiles(
        "next_e-next_e",
        "always (a -> next_e[1:2500] next_e[0:2500] (c))",
        true,
    );
    assert_refused("G-F", "G[0:300] F[0:300] b", false, "--max-states");
}

/// Blow-ups that are real end with the limit they exceeded and how to
/// raise it, within the limits.
#[test]
fn real_blowups_name_their_limit() {
    // 2^1000 states: pending `b` for each `a`.
    let pending: Vec<String> = (0..1000).map(|i| format!("G(a{i} -> X b{i})")).collect();
    assert_refused("pending", &pending.join(" & "), false, "--max-states");
}

/// Item 12: parsing stops at the depth limit at once (200,000 `X` took
/// 13.9 s), for every kind of nesting; huge counts are refused.
#[test]
fn deep_and_huge_inputs_are_refused() {
    let n = 200_000;
    let deep = "nested more than";
    assert_refused("XXX", &("X".repeat(n) + "p"), false, deep);
    assert_refused("X X X", &("X ".repeat(n) + "p"), false, deep);
    assert_refused(
        "parens",
        &("(".repeat(n) + "p" + &")".repeat(n)),
        false,
        deep,
    );
    assert_refused("until-chain", &joined(" U ", n), false, deep);
    assert_refused("implies-chain", &joined(" -> ", n), false, deep);
    assert_refused("xor-chain", &joined(" xor ", n), false, deep);
    assert_refused("psl-next", &("next ".repeat(n) + "p"), true, deep);
    assert_refused(
        "psl-parens",
        &("(".repeat(n) + "p" + &")".repeat(n)),
        true,
        deep,
    );
    assert_refused(
        "sere-braces",
        &("{".repeat(n) + "a" + &"}".repeat(n) + " |=> c"),
        true,
        deep,
    );
    assert_refused("bound", "X[99999999999] p", false, "exceeds the maximum");
    assert_refused(
        "star-bound",
        "{a[*99999999999]} |=> c",
        true,
        "bound larger than",
    );
    assert_refused(
        "star-u64",
        "{a[*99999999999999999999999]} |=> c",
        true,
        "number too large",
    );
}

/// Long inputs that are not deep: a 10 MB proposition name, a long `;`
/// chain, a long `&` chain of temporal operands.
#[test]
fn long_flat_inputs_compile() {
    assert_compiles(
        "long-name",
        &format!("G({})", "a".repeat(10_000_000)),
        false,
    );
    assert_compiles(
        "sere-chain",
        &format!("{{{}}} |=> c", joined(" ; ", 3000)),
        true,
    );
    let g: Vec<String> = (0..3000).map(|i| format!("G p{i}")).collect();
    assert_compiles("G-chain", &g.join(" & "), false);
}
