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

/// `mongen compile [--psl] OPTIONS -F FILE` (options as shell words)
/// under the memory and time limits.
fn compile_bounded_with(name: &str, formula: &str, psl: bool, options: &str) -> Outcome {
    compile_bounded_in(MEMORY_KB, name, formula, psl, options)
}

/// Address space for the default byte budget (1 GiB) beside the
/// translator's 1 GB stack: the `ulimit -v 3000000` under which
/// `p0 U … U p1989` aborted before the budget.
const MEMORY_KB_DEFAULT_BUDGET: u64 = 3_000_000;

/// [`compile_bounded_with`] under `ulimit -v memory_kb`.
fn compile_bounded_in(
    memory_kb: u64,
    name: &str,
    formula: &str,
    psl: bool,
    options: &str,
) -> Outcome {
    let dir = std::env::temp_dir().join(format!("mongen-budgets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input: PathBuf = dir.join(format!("{name}.txt"));
    std::fs::write(&input, format!("{formula}\n")).unwrap();
    let output = dir.join(format!("{name}.out"));
    let script = format!(
        "ulimit -v {memory_kb} && exec timeout -s KILL {SECONDS} \"$0\" compile {} {options} -F \"$1\" -o \"$2\"",
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
    assert_bounded_with(name, formula, psl, "")
}

fn assert_bounded_with(name: &str, formula: &str, psl: bool, options: &str) -> Outcome {
    assert_bounded_in(MEMORY_KB, name, formula, psl, options)
}

fn assert_bounded_in(
    memory_kb: u64,
    name: &str,
    formula: &str,
    psl: bool,
    options: &str,
) -> Outcome {
    let o = compile_bounded_in(memory_kb, name, formula, psl, options);
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
            panic!("{name}: exit {other:?} (not within {SECONDS} s and {memory_kb} KiB?):\n{shown}")
        }
    }
    o
}

fn assert_compiles(name: &str, formula: &str, psl: bool) {
    let o = assert_bounded(name, formula, psl);
    assert_eq!(o.code, Some(0), "{name}: {}", o.stderr);
}

fn assert_refused(name: &str, formula: &str, psl: bool, says: &str) {
    assert_refused_with(name, formula, psl, "", says);
}

fn assert_refused_with(name: &str, formula: &str, psl: bool, options: &str, says: &str) {
    let o = assert_bounded_with(name, formula, psl, options);
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

/// Windows of two kinds nested at the largest bound, k = 10,000: the
/// monitor has about `k²/2` states, and the first state's expansion is a
/// diagram of `k²` nodes. Before any limit was checked, the simplifier's
/// memo of implications held `k²` questions, the derivatives gathered
/// `k²` (offset, subformula) pairs, the fragment test walked the tree
/// of `k²` windows, and the formula was printed (700 MB) for its name:
/// an abort after 39 s under `ulimit -v 3000000`, whatever the state
/// limit. Each now ends in the node limit's error, in LTL and PSL: here
/// under `--max-states 20000` (2.3 s of CPU time, 220 MB; the default
/// limit takes 6 to 8 s and 700 MB, too long to run four of beside the
/// other tests).
#[test]
fn nested_windows_at_the_largest_bound_name_their_limit() {
    for (name, f, psl) in [
        ("G-F-10000", "G[0:10000] F[0:10000] b", false),
        ("F-G-10000", "F[0:10000] G[0:10000] b", false),
        (
            "next_e-next_a-10000",
            "always next_e[0:10000] (next_a[0:10000] (b))",
            true,
        ),
        (
            "next_a-next_e-10000",
            "next_a[0:10000] (next_e[0:10000] (b))",
            true,
        ),
    ] {
        assert_refused_with(name, f, psl, "--max-states 20000", "--max-states");
    }
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

/// What `--max-memory` says when the construction runs out of it.
const OUT_OF_MEMORY: &str = "the construction needs more than";

/// The byte budget (issue 36, "Resource bounds"): blow-ups that the state
/// limit does not see end with the memory error, under `ulimit -v` with
/// the default budget (1 GiB) and faster with a small one. `p0 U … U
/// p1989` aborted under `ulimit -v 3000000` (3 GB and 27 s), `Fp0 & … &
/// Fp2999` took 830 MB and 8 to 18 s before a node-budget error that
/// spoke of states.
#[test]
fn memory_blowups_end_in_the_memory_error() {
    let until = joined(" U ", 1990);
    let f: Vec<String> = (0..3000).map(|i| format!("Fp{i}")).collect();
    let eventually = f.join(" & ");
    let sere = "{(a|b)[*]; a; (a|b)[*15]} |=> c";
    // The default budget, beside the 1 GB stack.
    for (name, formula) in [("until", &until), ("F", &eventually)] {
        let o = assert_bounded_in(MEMORY_KB_DEFAULT_BUDGET, name, formula, false, "");
        assert_eq!(o.code, Some(2), "{name}: expected an error");
        assert!(o.stderr.contains(OUT_OF_MEMORY), "{name}: {}", o.stderr);
    }
    // A small budget, within the 2 GB of the other cases.
    assert_refused_with(
        "until-64M",
        &until,
        false,
        "--max-memory 64M",
        OUT_OF_MEMORY,
    );
    assert_refused_with(
        "F-64M",
        &eventually,
        false,
        "--max-memory 64M",
        OUT_OF_MEMORY,
    );
    // The hint names the option.
    let o = compile_bounded_with("until-hint", &until, false, "--max-memory 64M");
    assert!(
        o.stderr
            .contains("more than 64 MiB of memory (--max-memory); raise it with --max-memory SIZE"),
        "{}",
        o.stderr
    );
    assert_refused_with("sere-16M", sere, true, "--max-memory 16M", OUT_OF_MEMORY);
    // Still small in a 2 GB address space: the wide conjunction.
    let o = assert_bounded_with(
        "and30000-small",
        &joined(" & ", 30_000),
        false,
        "--max-memory 64M",
    );
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

/// A small budget refuses a formula the default builds (2^12 states of
/// pending requests, each reaching every other: 16 million edges; only
/// its size is printed, `--stats=%s`); ordinary formulas build under it.
/// 2^14 of them took 3.3 GB and more than a minute before the budget
/// counted the successor lists; they now end in the memory error.
#[test]
fn a_small_budget_refuses_what_the_default_builds() {
    let pending = |n: usize| {
        (0..n)
            .map(|i| format!("G(a{i} -> X b{i})"))
            .collect::<Vec<_>>()
            .join(" & ")
    };
    let o = assert_bounded_with("pending12", &pending(12), false, "--stats=%s");
    assert_eq!(o.code, Some(0), "{}", o.stderr);
    assert_refused_with(
        "pending12-64M",
        &pending(12),
        false,
        "--max-memory 64M",
        OUT_OF_MEMORY,
    );
    let o = assert_bounded_in(
        MEMORY_KB_DEFAULT_BUDGET,
        "pending14",
        &pending(14),
        false,
        "",
    );
    assert_eq!(o.code, Some(2), "pending14: expected an error");
    assert!(o.stderr.contains(OUT_OF_MEMORY), "pending14: {}", o.stderr);
    for (name, f) in [
        ("handshake", "G(req -> X ack)"),
        ("response", "G(req -> F ack)"),
    ] {
        let o = assert_bounded_with(name, f, false, "--max-memory 2M");
        assert_eq!(o.code, Some(0), "{name}: {}", o.stderr);
    }
}

/// `--max-memory` reads sizes as written, and refuses others clearly.
#[test]
fn max_memory_values() {
    let bin = env!("CARGO_BIN_EXE_mongen");
    for good in ["512M", "2G", "1g", "64MiB", "1048576", "3 GB"] {
        let o = Command::new(bin)
            .args(["compile", "--max-memory", good, "-f", "G(a -> X b)"])
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{good}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    for (bad, says) in [
        (
            "lots",
            "expected a size such as 512M, 2G or a number of bytes",
        ),
        ("12X", "expected a size such as 512M"),
        ("", "expected a size such as 512M"),
        ("99999999999999999999", "is too large"),
        ("99999999999T", "is too large"),
        ("1000", "less than the smallest budget, 1M"),
        ("0", "less than the smallest budget, 1M"),
    ] {
        let o = Command::new(bin)
            .args(["compile", "--max-memory", bad, "-f", "G(a -> X b)"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{bad}: {err}");
        assert!(
            err.contains(says) && err.contains("--max-memory"),
            "{bad}: {err}"
        );
    }
    for cmd in ["classify", "check"] {
        let o = Command::new(bin).args([cmd, "--help"]).output().unwrap();
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("--max-memory <SIZE>"),
            "{cmd}"
        );
    }
}

/// The output file of a run of [`compile_bounded_in`] named `name`.
fn output_of(name: &str) -> PathBuf {
    std::env::temp_dir()
        .join(format!("mongen-budgets-{}", std::process::id()))
        .join(format!("{name}.out"))
}

/// Issue 36 (and 35, cost follows the output): edge labels that are
/// exponential as sums of products. The monitor of a product of 30 sums
/// (`(q0 | r0) & … & (q29 | r29)` after `a`, or 30 SEREs of one such sum
/// each, intersected) has an edge whose irredundant sum of products has
/// 2^30 cubes; it aborted in the cover's expansion. Its labels are now
/// factored, and every text target writes it in a few kilobytes.
#[test]
fn labels_exponential_as_sums_of_products_compile_small() {
    let sums: Vec<String> = (0..30).map(|i| format!("(q{i} | r{i})")).collect();
    let ltl = format!("G(a -> X({}))", sums.join(" & "));
    let seres: Vec<String> = (0..30).map(|i| format!("(p{i};q{i}|r{i};s{i})")).collect();
    let psl = format!("{{{}}} |-> z", seres.join(" && "));
    for target in ["hoa", "json", "dot", "smv", "promela", "verilog", "systemc"] {
        for (kind, formula, is_psl) in [("ltl", &ltl, false), ("psl", &psl, true)] {
            let name = format!("labels-{kind}-{target}");
            let o = assert_bounded_with(&name, formula, is_psl, &format!("-t {target}"));
            assert_eq!(o.code, Some(0), "{name}: {}", o.stderr);
            let size = std::fs::metadata(output_of(&name)).unwrap().len();
            assert!(size < 200_000, "{name}: {size} bytes");
        }
    }
    // In HOA, the product is one factored label.
    let o = assert_bounded_with("labels-ltl-hoa2", &ltl, false, "-t hoa");
    assert_eq!(o.code, Some(0));
    let hoa = std::fs::read_to_string(output_of("labels-ltl-hoa2")).unwrap();
    assert!(hoa.contains("[!0&(1 | 2)&(3 | 4)&"), "{hoa}");
    // JSON: `cubes` null and the formula as a tree.
    let o = assert_bounded_with("labels-ltl-json2", &ltl, false, "-t json");
    assert_eq!(o.code, Some(0));
    let json = std::fs::read_to_string(output_of("labels-ltl-json2")).unwrap();
    assert!(json.contains(r#""cubes":null,"expr":{"and":["#), "{json}");
}

/// A label with no small formula of `&`, `|` and `!` (the parity of 30
/// propositions: 2^29 cubes, and no formula shorter than hundreds of
/// literals per proposition pair in the factored forms) ends in a clear
/// error, fast, in every text target.
#[test]
fn labels_without_small_formulas_name_their_limit() {
    let parity = format!("G(a -> X({}))", joined(" ^ ", 30));
    for target in ["hoa", "json", "dot", "smv", "promela", "verilog"] {
        assert_refused_with(
            &format!("parity-{target}"),
            &parity,
            false,
            &format!("-t {target}"),
            "has more than 1048576 literals, even factored",
        );
    }
}

/// Issue 36: a label too large to write, found midway through a monitor
/// that is written state by state (HOA, DOT, JSON), is that formula's
/// error, naming the edge, the limit and what to do (it read "cannot
/// write FILE: …"), and leaves no partial file: the output is written
/// beside its file and renamed at the end, and the monitor's partial
/// text is taken back out, so that the other formulas are written whole.
/// The targets that build their text first are checked alike.
#[test]
fn labels_too_large_leave_no_partial_file() {
    let parity = format!("G(a -> X({}))", joined(" ^ ", 30));
    let dir = output_of("x").parent().unwrap().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    for target in [
        "hoa", "dot", "json", "promela", "smv", "verilog", "sva", "systemc",
    ] {
        let name = format!("partial-{target}");
        // The output of an earlier run must not pass for this one's.
        std::fs::write(output_of(&name), "an earlier run\n").unwrap();
        let o = assert_bounded_with(&name, &parity, false, &format!("-t {target}"));
        assert_eq!(o.code, Some(2), "{name}: {}", o.stderr);
        assert!(!o.stderr.contains("cannot write"), "{name}: {}", o.stderr);
        for says in [
            "the label of the edge from state 1 to ",
            " has more than 1048576 literals, even factored",
            "; of the targets, only rust takes such a monitor (it steps the monitor's table, as `mongen check` does)",
        ] {
            assert!(
                o.stderr.contains(says),
                "{name}: no `{says}` in {}",
                o.stderr
            );
        }
        assert!(!output_of(&name).exists(), "{name}: a file is left");

        // Between two formulas: those are written, and only those.
        let both = format!("{name}-between");
        let o = assert_bounded_with(
            &both,
            &format!("G(a -> X b)\n{parity}\nG(c -> X d)"),
            false,
            &format!("-t {target}"),
        );
        assert_eq!(o.code, Some(2), "{both}: {}", o.stderr);
        let text = std::fs::read_to_string(output_of(&both)).unwrap();
        assert!(!text.contains("p29"), "{both}: {text}");
        if matches!(target, "hoa" | "dot" | "json") {
            let two = format!("{name}-two");
            let o = assert_bounded_with(
                &two,
                "G(a -> X b)\nG(c -> X d)",
                false,
                &format!("-t {target}"),
            );
            assert_eq!(o.code, Some(0), "{two}: {}", o.stderr);
            assert_eq!(
                text,
                std::fs::read_to_string(output_of(&two)).unwrap(),
                "{both}"
            );
        }
    }
    // No temporary file is left beside the outputs.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".mongen-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");

    // On standard output, the partial text cannot be taken back: the
    // output stops there, and says so.
    let o = Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args([
            "compile",
            "-t",
            "hoa",
            "-f",
            "G(a -> X b)",
            "-f",
            &parity,
            "-f",
            "G c",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("(the output stops there: the monitor's partial text cannot be taken back from standard output)"),
        "{stderr}"
    );
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(stdout.matches("HOA: v1").count(), 2, "{stdout}");
    assert!(!stdout.contains("\"c\""), "{stdout}");
}
