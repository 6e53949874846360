//! `mongen compile --target rust` output for random formulas, compiled and
//! run: every generated monitor must give the core monitor's verdict after
//! every step of a random trace (both computed here, the generated code
//! checked in a separate program that depends on `monitor-core` alone,
//! built and run by [`compile_and_run`]).

use std::fmt::Write as _;

use mongen::emit::rust::{emit_rust, RustOptions};
use mongen::emit::Common;
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::formula::Formula;
use monitor_core::translate::{Builder, Config, Verdicts};
use monitor_core::Verdict;

#[test]
fn generated_code_agrees_with_the_core() {
    let mut program = String::from("#![deny(warnings)]\n");
    let mut main = String::from("fn main() {\n");
    let mut rng = SplitMix64::new(0xc0de);
    for i in 0..40u64 {
        let three = i % 2 == 1;
        let f = RandomLtl::new(&["a", "b", "c"], 4 + (i % 9) as usize)
            .with_past()
            .seed(1000 + i)
            .next_formula();
        let mut b = Builder::new();
        if three {
            b.configure(Config::new().verdicts(Verdicts::Three));
        }
        let dfa = b.build_from_formula(&f).unwrap().into_dfa();
        let code = emit_rust(
            &dfa,
            &RustOptions {
                common: Common {
                    name: format!("r{i}"),
                    three_valued: three,
                    ..Common::default()
                },
            },
        )
        .unwrap();
        let _ = writeln!(program, "mod m{i} {{\n{code}\n}}");
        let k = dfa.alphabet().len();
        let trace: Vec<u64> = (0..1 + rng.below(20))
            .map(|_| {
                if k == 0 {
                    0
                } else {
                    rng.next_u64() & ((1 << k) - 1)
                }
            })
            .collect();
        let code = |v: Verdict| match v {
            Verdict::Undecided => 0,
            Verdict::Satisfied => 1,
            Verdict::Violated => 2,
        };
        let want: Vec<u8> = (1..=trace.len())
            .map(|n| code(dfa.run(trace[..n].iter().copied())))
            .collect();
        let _ = writeln!(
            main,
            "    {{\n        let mut m = m{i}::R{i}Monitor::new();\n        let trace: &[u64] = &{trace:?};\n        let want: &[u8] = &{want:?};\n        for (n, &l) in trace.iter().enumerate() {{\n            let got = match m.step(l) {{ monitor_core::Verdict::Undecided => 0u8, monitor_core::Verdict::Satisfied => 1, monitor_core::Verdict::Violated => 2 }};\n            assert_eq!(got, want[n], \"`{{}}` at step {{n}} of {{trace:?}}\", m{i}::R{i}Monitor::PROPERTY);\n        }}\n    }}"
        );
    }
    main.push_str("    println!(\"40 generated monitors agree\");\n}\n");
    program.push_str(&main);
    compile_and_run("generated_monitors", &program);
}

/// Hostile proposition names: Rust keywords (strict, reserved, `r#` forms),
/// prelude names, the generated code's own names, comment and string
/// delimiters, control characters, Unicode, 10k characters, names equal
/// after mangling or case conversion.
const HOSTILE: &[&str] = &[
    "None",
    "Some",
    "Ok",
    "Err",
    "Req",
    "Vec",
    "String",
    "Option",
    "Box",
    "Self",
    "self",
    "super",
    "crate",
    "type",
    "r#type",
    "match",
    "async",
    "await",
    "dyn",
    "gen",
    "try",
    "yield",
    "abstract",
    "become",
    "box",
    "macro_rules",
    "union",
    "_",
    "__",
    "u64",
    "bool",
    "observe",
    "step",
    "run",
    "new",
    "letter",
    "TABLE",
    "PROPERTY",
    "STATES",
    "R3Monitor",
    "monitor_core",
    "core",
    "std",
    "m",
    "p",
    "p_2",
    "p_type",
    "req_2",
    "foo",
    "*/",
    "/*",
    "//",
    "///",
    "\"",
    "'",
    "\\",
    "`",
    "```",
    "a\nb",
    "a\rb",
    "\r",
    "\t",
    "\u{0}",
    "\u{1b}[31m",
    "é",
    "ÉTÉ",
    "ĸ",
    "日本",
    "🦀",
    "\u{202e}",
    "x > 3",
    "req.valid",
    "req_valid",
    "reqValid",
    "ReqValid",
    "REQ_VALID",
    "req valid",
    "",
    " ",
    "1",
    "9lives",
    "#[doc]",
    "}",
    "{",
    "]]",
    "#![deny(warnings)]",
    "fn main() {}",
];

/// Issue 36 (item 14 and the "rename invariance" defence): the monitor of
/// a random formula whose propositions have hostile names compiles under
/// `#![deny(warnings)]` (`observe` once took parameters named `None` and
/// `Some`, rustc errors, and `Req`, a warning) and its `observe` gives,
/// after every step of a random trace, the verdicts of the same formula
/// over plain names; hostile `--name`s give a type or are refused. One
/// program, one rustc invocation, for every monitor.
#[test]
fn hostile_names_give_the_verdicts_of_plain_names() {
    let long_a = "a".repeat(10_000);
    let long_b = format!("{long_a}b");
    let mut program = String::from("#![deny(warnings)]\n");
    let mut main = String::from("fn main() {\n");
    let mut rng = SplitMix64::new(0xbad_5eed);
    let plain = ["a", "b", "c"];
    let count = 48u64;
    for i in 0..count {
        // The first monitors are the reports and the extremes; the rest
        // draw three different names from the list.
        let hostile: Vec<&str> = match i {
            0 => vec!["None", "Some", "Req"],
            1 => vec![&long_a, &long_b, "a\rb */ \u{0}"],
            2 => vec!["req.valid", "req_valid", "reqValid"],
            _ => {
                let mut names: Vec<&str> = Vec::new();
                while names.len() < 3 {
                    let n = HOSTILE[rng.below(HOSTILE.len() as u64) as usize];
                    if !names.contains(&n) {
                        names.push(n);
                    }
                }
                names
            }
        };
        let three = i % 2 == 1;
        let size = 4 + (i % 9) as usize;
        let build = |names: &[&str]| {
            // The reports' names in `G((n0 | n1) -> X n2)`, so that each
            // is a parameter; random formulas from there.
            let f = if i < 3 {
                let ap = |k: usize| Formula::ap(names[k]);
                Formula::always(Formula::implies(
                    Formula::or([ap(0), ap(1)]),
                    Formula::next(ap(2)),
                ))
            } else {
                RandomLtl::new(names, size)
                    .with_past()
                    .seed(7000 + i)
                    .next_formula()
            };
            let mut b = Builder::new();
            if three {
                b.configure(Config::new().verdicts(Verdicts::Three));
            }
            b.build_from_formula(&f).unwrap().into_dfa()
        };
        let want_dfa = build(&plain);
        let dfa = build(&hostile);
        if i < 3 {
            assert_eq!(dfa.alphabet().len(), 3);
        }
        // Hostile type names too: each gives a type or is refused.
        let name = [
            "r",
            "type",
            "self",
            "Self",
            "None",
            "é",
            "my-bus monitor",
            "monitor",
            "core",
            "",
        ][(i % 10) as usize];
        let code = emit_rust(
            &dfa,
            &RustOptions {
                common: Common {
                    name: name.to_string(),
                    three_valued: three,
                    ..Common::default()
                },
            },
        )
        .unwrap();
        let type_name = {
            let camel = monitor_expand::rust::camel_case(name);
            if camel.ends_with("Monitor") {
                camel
            } else {
                format!("{camel}Monitor")
            }
        };
        let _ = writeln!(program, "mod m{i} {{\n{code}\n}}");
        // A trace of valuations of the plain names; `observe` takes them
        // in the hostile monitor's order of propositions.
        let trace: Vec<[bool; 3]> = (0..1 + rng.below(24))
            .map(|_| [rng.chance(1, 2), rng.chance(1, 2), rng.chance(1, 2)])
            .collect();
        let value = |names: &[&str], step: &[bool; 3], prop: &str| {
            step[names.iter().position(|n| *n == prop).unwrap()]
        };
        let args: Vec<Vec<bool>> = trace
            .iter()
            .map(|s| {
                dfa.alphabet()
                    .names()
                    .iter()
                    .map(|n| value(&hostile, s, n))
                    .collect()
            })
            .collect();
        let letters = trace.iter().map(|s| {
            want_dfa
                .alphabet()
                .names()
                .iter()
                .enumerate()
                .fold(0u64, |l, (bit, n)| {
                    l | (u64::from(value(&plain, s, n)) << bit)
                })
        });
        let letters: Vec<u64> = letters.collect();
        let want: Vec<u8> = (1..=letters.len())
            .map(|n| verdict_code(want_dfa.run(letters[..n].iter().copied())))
            .collect();
        let k = dfa.alphabet().len();
        let call_args: Vec<String> = (0..k).map(|j| format!("s[{j}]")).collect();
        let _ = writeln!(
            main,
            "    {{\n        let mut m = m{i}::{type_name}::new();\n        let trace: &[[bool; {k}]] = &{args:?};\n        let want: &[u8] = &{want:?};\n        for (n, s) in trace.iter().enumerate() {{\n            let _ = s;\n            let got = match m.observe({}) {{ monitor_core::Verdict::Undecided => 0u8, monitor_core::Verdict::Satisfied => 1, monitor_core::Verdict::Violated => 2 }};\n            assert_eq!(got, want[n], \"monitor {i} at step {{n}}\");\n        }}\n    }}",
            call_args.join(", ")
        );
    }
    let _ = writeln!(
        main,
        "    println!(\"{count} monitors over hostile names agree\");\n}}"
    );
    program.push_str(&main);
    // Names that cannot make a type are refused, not written.
    let dfa = Builder::new().build("G a").unwrap().into_dfa();
    for name in ["a\nb */", "x.y", "r#x", "1st"] {
        let opts = RustOptions {
            common: Common::named(name),
        };
        assert!(emit_rust(&dfa, &opts).is_err(), "{name:?}");
    }
    compile_and_run("hostile_names", &program);
}

fn verdict_code(v: Verdict) -> u8 {
    match v {
        Verdict::Undecided => 0,
        Verdict::Satisfied => 1,
        Verdict::Violated => 2,
    }
}

/// Builds `program` as the binary `name` of a crate whose one dependency is
/// this workspace's `monitor-core` (default features, as a user of the
/// generated code has it), runs it, and fails with rustc's or the
/// program's output unless both succeed.
///
/// The checks are trybuild's for a program that must compile and run: the
/// dev profile, `dead_code` allowed (the program calls only part of each
/// monitor's API) and every other warning an error by the program's own
/// `#![deny(warnings)]`. Only the dependencies differ: a trybuild program
/// depends on the tested crate and all its dev-dependencies, and building
/// those unoptimized (the command line's, sv-parser's, criterion's) was
/// most of the 400 s this test took in CI, though the programs use none of
/// them. Both programs share one target directory: `monitor-core` is built
/// once.
fn compile_and_run(name: &str, program: &str) {
    use std::path::Path;
    use std::process::Command;
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rust_target");
    let dir = root.join(name);
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let manifest = format!(
        "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
         [dependencies]\nmonitor-core = {{ path = {:?} }}\n\n[workspace]\n",
        workspace.join("monitor-core")
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    // The workspace's lock file: the versions it was tested with, offline.
    std::fs::copy(workspace.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    std::fs::write(dir.join("src/main.rs"), program).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(&dir)
        .args(["run", "--offline", "--quiet"])
        .env("CARGO_TARGET_DIR", root.join("target"))
        .env("CARGO_INCREMENTAL", "0")
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env("RUSTFLAGS", "-A dead_code")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "{name}: {}\n{stderr}\n{stdout}",
        out.status
    );
    print!("{name}: {stdout}");
}
