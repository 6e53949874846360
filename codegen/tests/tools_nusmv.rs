//! SMV observers checked by NuSMV 2.5.4 for real.
//!
//! For each model and safety property, the verdict of `INVARSPEC
//! !obs.violated` with our observer must be NuSMV's own verdict for the
//! property as an `LTLSPEC`, for both encodings (the transducer wherever it
//! is exact: non-pathologic safety properties), and every counterexample
//! trace must be a bad prefix for the core monitor.

mod common;

use std::collections::HashMap;
use std::path::Path;

use codegen::emit::smv::{emit_smv_dfa, emit_smv_transducer, SmvOptions};
use monitor_core::automaton::{BadPrefixDfa, Verdict};
use monitor_core::formula::{parse, Formula};
use monitor_core::translate::{classify, transducer, Builder, Config};

struct Case {
    model: &'static str,
    property: &'static str,
    defines: &'static [(&'static str, &'static str)],
    violated: bool,
}

const CASES: &[Case] = &[
    Case {
        model: "mutex.smv",
        property: "G !(crit0 & crit1)",
        defines: &[],
        violated: false,
    },
    Case {
        model: "mutex.smv",
        property: "G(crit0 -> O try0)",
        defines: &[],
        violated: false,
    },
    Case {
        model: "mutex.smv",
        property: "G(crit0 -> Y(try0 | crit0))",
        defines: &[],
        violated: false,
    },
    // The turn starts with process 0: process 1 never enters first...
    Case {
        model: "mutex.smv",
        property: "!crit1 W crit0",
        defines: &[],
        violated: false,
    },
    // ...but after that it may overtake a trying process 0.
    Case {
        model: "mutex.smv",
        property: "G(try0 -> (!crit1 W crit0))",
        defines: &[],
        violated: true,
    },
    Case {
        model: "mutex.smv",
        property: "G(crit0 -> X crit0)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "mutex_bug.smv",
        property: "G !(crit0 & crit1)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "mutex_bug.smv",
        property: "G(crit0 -> !crit1)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "handshake.smv",
        property: "G(req -> (req W ack))",
        defines: &[],
        violated: false,
    },
    Case {
        model: "handshake.smv",
        property: "G(ack -> (ack W !req))",
        defines: &[],
        violated: false,
    },
    Case {
        model: "handshake.smv",
        property: "G((req & !ack) -> X ack)",
        defines: &[],
        violated: false,
    },
    Case {
        model: "handshake.smv",
        property: "G(ack -> req)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "handshake.smv",
        property: "G(ack -> Y req)",
        defines: &[],
        violated: false,
    },
    Case {
        model: "handshake.smv",
        property: "G(req -> X req)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "counter.smv",
        property: "G(seven -> X zero)",
        defines: &[],
        violated: false,
    },
    Case {
        model: "counter.smv",
        property: "G(zero -> X !zero)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "counter.smv",
        property: "G(big -> Y \"x >= 4\")",
        defines: &[],
        violated: false,
    },
    Case {
        model: "counter.smv",
        property: "G(seven -> O \"x = 3\")",
        defines: &[],
        violated: false,
    },
    Case {
        model: "counter.smv",
        property: "G(zero -> H !big)",
        defines: &[],
        violated: true,
    },
    Case {
        model: "counter.smv",
        property: "G !big",
        defines: &[],
        violated: true,
    },
    // Propositions named after keywords, bound with --define.
    Case {
        model: "counter.smv",
        property: "G(case -> !esac)",
        defines: &[("case", "x = 3"), ("esac", "x = 4")],
        violated: false,
    },
    Case {
        model: "counter.smv",
        property: "G(next -> X !next)",
        defines: &[("next", "x = 1")],
        violated: false,
    },
    Case {
        model: "counter.smv",
        property: "X X X X X X X X !zero",
        defines: &[],
        violated: true,
    },
];

/// A state of a trace: variable -> value, as NuSMV prints them.
type State = HashMap<String, String>;

/// The verdict of the only specification in NuSMV's output, and its
/// counterexample if false.
fn verdict(output: &str) -> (bool, Vec<State>) {
    let line = output
        .lines()
        .find(|l| {
            (l.starts_with("-- invariant") || l.starts_with("-- specification"))
                && l.contains(" is ")
        })
        .unwrap_or_else(|| panic!("no verdict in NuSMV's output:\n{output}"));
    let holds = line.ends_with("is true");
    let mut states: Vec<State> = Vec::new();
    if !holds {
        let mut in_trace = false;
        for l in output.lines() {
            if l.starts_with("-> State:") {
                in_trace = true;
                let next = states.last().cloned().unwrap_or_default();
                states.push(next);
            } else if l.starts_with("-> Input:") || l.starts_with("-- ") && in_trace {
                in_trace = l.starts_with("-> Input:");
                if !in_trace {
                    break;
                }
            } else if in_trace {
                if let Some((var, value)) = l.trim().split_once(" = ") {
                    states
                        .last_mut()
                        .unwrap()
                        .insert(var.to_string(), value.to_string());
                }
            }
        }
    }
    (!holds, states)
}

/// A proposition's value in a trace state: a Boolean variable or define,
/// or `var op constant`.
fn holds(expr: &str, s: &State) -> bool {
    for op in [" >= ", " <= ", " != ", " = ", " > ", " < "] {
        if let Some((var, k)) = expr.split_once(op) {
            let v = &s[var.trim()];
            let k = k.trim();
            return match (v.parse::<i64>(), k.parse::<i64>()) {
                (Ok(a), Ok(b)) => match op.trim() {
                    ">=" => a >= b,
                    "<=" => a <= b,
                    "!=" => a != b,
                    "=" => a == b,
                    ">" => a > b,
                    _ => a < b,
                },
                _ => (v == k) == (op.trim() == "="),
            };
        }
    }
    s.get(expr)
        .unwrap_or_else(|| panic!("{expr} not in the trace state {s:?}"))
        == "TRUE"
}

fn trace_is_bad_prefix(dfa: &BadPrefixDfa, trace: &[State], defines: &[(&str, &str)]) -> bool {
    let expr = |ap: &str| {
        defines
            .iter()
            .find(|(n, _)| *n == ap)
            .map_or(ap.to_string(), |(_, e)| e.to_string())
    };
    let word = trace.iter().map(|s| {
        dfa.alphabet()
            .names()
            .iter()
            .map(|ap| holds(&expr(ap), s))
            .collect::<Vec<bool>>()
    });
    dfa.run(word) == Verdict::Violated
}

fn check(nusmv: &Path, dir: &Path, model: &str, extra: &str, file: &str) -> (bool, Vec<State>) {
    let text = format!("{model}\n{extra}");
    std::fs::write(dir.join(file), &text).unwrap();
    let out = common::run(dir, nusmv, &[file]);
    let output = common::text(&out);
    assert!(out.status.success(), "NuSMV failed on:\n{text}\n{output}");
    verdict(&output)
}

#[test]
fn observers_agree_with_nusmv() {
    let Some(nusmv) = common::nusmv() else { return };
    let mut transducer_cases = 0;
    for (i, case) in CASES.iter().enumerate() {
        let ctx = format!("{} on {}", case.property, case.model);
        let dir = common::scratch(&format!("nusmv{i}"));
        let model = std::fs::read_to_string(common::model(case.model)).unwrap();
        let f = parse(case.property).unwrap();
        let defines: Vec<(String, String)> = case
            .defines
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();

        // NuSMV's own verdict, with the propositions replaced by their expressions.
        let substituted = f.map_bottom_up(|g| match g.ap_name() {
            Some(n) => match case.defines.iter().find(|(a, _)| *a == n) {
                Some((_, e)) => Formula::ap(e),
                None => g.clone(),
            },
            None => g.clone(),
        });
        let (reference, _) = check(
            &nusmv,
            &dir,
            &model,
            &format!("LTLSPEC {}\n", substituted.to_nusmv()),
            "ltl.smv",
        );
        assert_eq!(reference, case.violated, "{ctx}: NuSMV's LTLSPEC verdict");

        // The explicit observer.
        let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        let opts = SmvOptions {
            defines,
            ..Default::default()
        };
        let (violated, trace) = check(
            &nusmv,
            &dir,
            &model,
            &emit_smv_dfa(&dfa, &opts).unwrap(),
            "dfa.smv",
        );
        assert_eq!(violated, reference, "{ctx}: DFA observer");
        if violated {
            assert!(
                trace_is_bad_prefix(&dfa, &trace, case.defines),
                "{ctx}: DFA trace {trace:?}"
            );
        }

        // The transducer, where it is exact.
        let c = classify(&f, &Config::new()).unwrap();
        if c.safety == Some(true) && c.pathologic == Some(false) {
            transducer_cases += 1;
            let t = transducer(&f).unwrap();
            let (violated, trace) = check(
                &nusmv,
                &dir,
                &model,
                &emit_smv_transducer(&t, &opts).unwrap(),
                "transducer.smv",
            );
            assert_eq!(violated, reference, "{ctx}: transducer observer");
            if violated {
                assert!(
                    trace_is_bad_prefix(&dfa, &trace, case.defines),
                    "{ctx}: transducer trace {trace:?}"
                );
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        transducer_cases >= 20,
        "only {transducer_cases} transducer cases"
    );
}

#[test]
fn the_transducer_finds_informative_violations_of_non_safety_properties() {
    // Seed 003: for a non-safety property the transducer is a bug hunter.
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("nusmv-hunter");
    let model = std::fs::read_to_string(common::model("counter.smv")).unwrap();
    // Violated in finite time (x reaches 5 before seven... is never "X zero"?):
    // `zero U big` fails as soon as x = 1 (neither zero nor big).
    let t = transducer(&parse("zero U big").unwrap()).unwrap();
    let (violated, trace) = check(
        &nusmv,
        &dir,
        &model,
        &emit_smv_transducer(&t, &SmvOptions::default()).unwrap(),
        "t.smv",
    );
    assert!(violated);
    let dfa = Builder::new().build("zero U big").unwrap().into_dfa();
    assert!(trace_is_bad_prefix(&dfa, &trace, &[]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// PSL properties in the dialect NuSMV 2.5.4 reads (strong suffix
/// implications, `[*]`, `[*n]`; no ranges, weak suffix implication or
/// `abort`), which our parser reads as well: the same text goes to
/// `PSLSPEC` and to our observers.
const PSL_CASES: &[(&str, &str)] = &[
    ("handshake.smv", "always ({req} |=> {ack}!)"),
    ("handshake.smv", "never {req; ack}"),
    ("handshake.smv", "never {ack; ack; ack}"),
    ("handshake.smv", "always ({req} |=> {ack; ack}!)"),
    ("handshake.smv", "always ({req} |=> {ack[*2]}!)"),
    ("handshake.smv", "always ({req} |-> {req[*]; ack}!)"),
    ("handshake.smv", "always (ack -> next_a[1:2](!ack))"),
    ("counter.smv", "always ({seven} |=> {zero}!)"),
    ("counter.smv", "always ({zero; !zero} |=> {!zero}!)"),
    ("counter.smv", "never {big; zero; big}"),
    ("counter.smv", "always ({zero[*2]} |=> {zero}!)"),
    ("counter.smv", "never {x = 3; x = 5}"),
    ("counter.smv", "always ({seven; zero} |=> {x = 1 | zero}!)"),
    ("mutex.smv", "never {crit0; crit1}"),
    ("mutex.smv", "always ({try0; try0} |=> {try0 | crit0}!)"),
    ("mutex.smv", "always ({crit0} |=> {crit0}!)"),
    ("mutex_bug.smv", "never {crit0 & crit1}"),
];

#[test]
fn psl_observers_agree_with_nusmv_pslspec() {
    use monitor_core::formula::parse_psl;
    let Some(nusmv) = common::nusmv() else { return };
    let (mut violated_cases, mut transducer_cases) = (0, 0);
    for (i, (model_file, property)) in PSL_CASES.iter().enumerate() {
        let ctx = format!("{property} on {model_file}");
        let dir = common::scratch(&format!("nusmv-psl{i}"));
        let model = std::fs::read_to_string(common::model(model_file)).unwrap();
        let f = parse_psl(property).unwrap();
        let c = classify(&f, &Config::new()).unwrap();
        let (reference, _) = check(
            &nusmv,
            &dir,
            &model,
            &format!("PSLSPEC {property};\n"),
            "psl.smv",
        );
        violated_cases += usize::from(reference);

        let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        let opts = SmvOptions::default();
        // An observer's verdict: NuSMV's where it is exact, otherwise only
        // real violations (with a bad prefix); every trace a bad prefix.
        let observe = |text: String, file: &str, exact: bool, what: &str| {
            let (violated, trace) = check(&nusmv, &dir, &model, &text, file);
            if exact {
                assert_eq!(violated, reference, "{ctx}: {what}");
            } else {
                assert!(!violated || reference, "{ctx}: {what}");
            }
            if violated {
                assert!(
                    trace_is_bad_prefix(&dfa, &trace, &[]),
                    "{ctx}: {what} trace {trace:?}"
                );
            }
        };
        let safety = c.safety == Some(true);
        observe(
            emit_smv_dfa(&dfa, &opts).unwrap(),
            "dfa.smv",
            safety,
            "DFA observer",
        );
        // Seed 003's transducer: exact for non-pathologic safety
        // properties, a sound bug hunter otherwise.
        let exact = safety && c.pathologic == Some(false);
        transducer_cases += usize::from(exact);
        let t = transducer(&f).unwrap();
        observe(
            emit_smv_transducer(&t, &opts).unwrap(),
            "transducer.smv",
            exact,
            "transducer observer",
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(violated_cases >= 5, "only {violated_cases} violated cases");
    assert!(
        transducer_cases >= 12,
        "only {transducer_cases} exact transducer cases"
    );
}
