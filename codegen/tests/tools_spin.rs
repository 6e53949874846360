//! Never claims checked by Spin for real.
//!
//! For each model and safety property: our claim under `pan -DSAFETY` must
//! give the same verdict as Spin's own `spin -f` Büchi claim under `pan -a`
//! (for properties with `X` or past operators, which Debian's Spin cannot
//! translate, the `spin -f` claim of an equivalent X-free future formula);
//! and every counterexample of our claim, replayed with `spin -t`, must be
//! a bad prefix for the core monitor.

mod common;

use std::collections::HashMap;
use std::path::Path;

use mongen::emit::promela::{emit_buchi_claim, emit_promela, PromelaOptions};
use mongen::emit::Common;
use monitor_core::automaton::{BadPrefixDfa, Verdict};
use monitor_core::formula::eval;
use monitor_core::formula::parse;
use monitor_core::translate::Builder;
use monitor_core::word::Lasso;

/// A global state of a model: variable -> value.
type State = HashMap<String, i64>;

/// The reference for Spin's own translation (`spin -f`), which has no past
/// operators and, in Debian's build, no X.
enum SpinRef {
    /// The property itself.
    Same,
    /// An equivalent X-free future formula.
    Equivalent(&'static str),
    /// None exists: the verdict is checked against the expectation and
    /// the counterexample by replay only.
    Unavailable,
}

use SpinRef::*;

struct Case {
    model: &'static str,
    property: &'static str,
    /// `--define`s for the propositions.
    defines: &'static [(&'static str, &'static str)],
    /// What `spin -f` translates for the reference verdict.
    spin: SpinRef,
    /// The expected verdict (checked against Spin's as well).
    violated: bool,
}

const CASES: &[Case] = &[
    // PSL properties (`psl: `), with Spin's verdict for an LTL equivalent.
    Case {
        model: "peterson.pml",
        property: "psl: never {crit0 && crit1}",
        defines: &[],
        spin: Equivalent("G !(crit0 && crit1)"),
        violated: false,
    },
    Case {
        model: "peterson.pml",
        property: "psl: always {crit0} |-> {!crit1}",
        defines: &[],
        spin: Equivalent("G(crit0 -> !crit1)"),
        violated: false,
    },
    Case {
        model: "peterson.pml",
        property: "psl: {!crit0[*]; try0}",
        defines: &[],
        spin: Equivalent("!crit0 W try0"),
        violated: false,
    },
    Case {
        model: "peterson_bug.pml",
        property: "psl: never {crit0 && crit1}",
        defines: &[],
        spin: Equivalent("G !(crit0 && crit1)"),
        violated: true,
    },
    Case {
        model: "peterson_bug.pml",
        property: "psl: always {!crit1} |-> {!crit0} abort crit1",
        defines: &[],
        spin: Equivalent("G(!crit1 -> (!crit0 || crit1))"),
        violated: true,
    },
    // Peterson's algorithm: mutual exclusion holds.
    Case {
        model: "peterson.pml",
        property: "G !(crit0 && crit1)",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "peterson.pml",
        property: "!crit0 W try0",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "peterson.pml",
        property: "G(crit0 -> O try0)",
        defines: &[],
        spin: Equivalent("!crit0 W try0"),
        violated: false,
    },
    Case {
        model: "peterson.pml",
        property: "G !crit0",
        defines: &[],
        spin: Same,
        violated: true,
    },
    Case {
        model: "peterson.pml",
        property: "!crit1 W crit0",
        defines: &[],
        spin: Same,
        violated: true,
    },
    Case {
        model: "peterson.pml",
        property: "G(try0 -> (!crit1 W crit0))",
        defines: &[],
        spin: Same,
        violated: true,
    },
    Case {
        model: "peterson.pml",
        property: "G(crit0 -> Y try0)",
        defines: &[],
        spin: Unavailable,
        violated: true,
    },
    // The broken algorithm violates mutual exclusion.
    Case {
        model: "peterson_bug.pml",
        property: "G !(crit0 && crit1)",
        defines: &[],
        spin: Same,
        violated: true,
    },
    Case {
        model: "peterson_bug.pml",
        property: "G(crit0 -> !crit1)",
        defines: &[],
        spin: Same,
        violated: true,
    },
    // The handshake.
    Case {
        model: "handshake.pml",
        property: "G(req -> (req W ack))",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "handshake.pml",
        property: "G(ack -> (ack W !req))",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "handshake.pml",
        property: "!ack W req",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "handshake.pml",
        property: "G(ack -> req)",
        defines: &[],
        spin: Same,
        violated: true,
    },
    Case {
        model: "handshake.pml",
        property: "G(ack -> O req)",
        defines: &[],
        spin: Equivalent("!ack W req"),
        violated: false,
    },
    Case {
        model: "handshake_bug.pml",
        property: "G(ack -> (ack W !req))",
        defines: &[],
        spin: Same,
        violated: true,
    },
    // The client lowers req after seeing ack; the server may drop ack in
    // between, so req falls while ack is low.
    Case {
        model: "handshake_bug.pml",
        property: "G(req -> (req W ack))",
        defines: &[],
        spin: Same,
        violated: true,
    },
    // The counter, with propositions bound to expressions, and keywords.
    Case {
        model: "counter.pml",
        property: "G(big -> !zero)",
        defines: &[("big", "x >= 5"), ("zero", "x == 0")],
        spin: Same,
        violated: false,
    },
    Case {
        model: "counter.pml",
        property: "G !big",
        defines: &[("big", "x >= 5")],
        spin: Same,
        violated: true,
    },
    Case {
        model: "counter.pml",
        property: "G(\"x == 7\" -> (\"x == 7\" W \"x == 0\"))",
        defines: &[],
        spin: Same,
        violated: false,
    },
    Case {
        model: "counter.pml",
        property: "G(if -> !do)",
        defines: &[("if", "x == 3"), ("do", "x == 4")],
        spin: Same,
        violated: false,
    },
    Case {
        model: "counter.pml",
        property: "G(seven -> X(zero | seven))",
        defines: &[("seven", "x == 7"), ("zero", "x == 0")],
        spin: Equivalent("G(seven -> (seven W zero))"),
        violated: false,
    },
    Case {
        model: "counter.pml",
        property: "G(zero -> X zero)",
        defines: &[("zero", "x == 0")],
        spin: Unavailable,
        violated: true,
    },
];

fn errors(pan_output: &str) -> usize {
    pan_output
        .lines()
        .find_map(|l| l.split("errors: ").nth(1))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no error count in pan's output:\n{pan_output}"))
}

/// The states along a trail: the initial state, then one per process step.
fn trail_states(replay: &str) -> Vec<State> {
    let mut states = vec![State::new()];
    let mut current = State::new();
    let mut steps = 0;
    for line in replay.lines() {
        if line.contains("trail ends") {
            break;
        }
        let t = line.trim_start();
        // "  12:\tproc  1 (P1:1) model.pml:22 (state 2)\t[flag1 = 1]"
        let is_step = t.split_once(':').is_some_and(|(n, rest)| {
            !n.is_empty()
                && n.chars().all(|c| c.is_ascii_digit())
                && rest.trim_start().starts_with("proc ")
        });
        if is_step {
            if steps > 0 {
                states.push(current.clone());
            }
            steps += 1;
        } else if line.starts_with("\t\t") {
            if let Some((var, value)) = t.split_once(" = ") {
                if let Ok(v) = value.trim().parse::<i64>() {
                    current.insert(var.trim().to_string(), v);
                }
            }
        }
    }
    if steps > 0 {
        states.push(current);
    }
    states
}

/// The value of a proposition in a state of the models above: a variable,
/// or a variable compared with a number.
fn holds(ap: &str, defines: &[(&str, &str)], s: &State) -> bool {
    let expr = defines
        .iter()
        .find(|(n, _)| *n == ap)
        .map_or(ap, |(_, e)| *e);
    let value = |v: &str| s.get(v.trim()).copied().unwrap_or(0);
    for op in [" == ", " != ", " >= ", " <= ", " > ", " < "] {
        if let Some((var, k)) = expr.split_once(op) {
            let (a, b) = (value(var), k.trim().parse::<i64>().unwrap());
            return match op.trim() {
                "==" => a == b,
                "!=" => a != b,
                ">=" => a >= b,
                "<=" => a <= b,
                ">" => a > b,
                _ => a < b,
            };
        }
    }
    value(expr) != 0
}

fn replay_is_bad_prefix(dfa: &BadPrefixDfa, states: &[State], defines: &[(&str, &str)]) -> bool {
    let word = states.iter().map(|s| {
        dfa.alphabet()
            .names()
            .iter()
            .map(|ap| holds(ap, defines, s))
            .collect::<Vec<bool>>()
    });
    dfa.run(word) == Verdict::Violated
}

fn pan(dir: &Path, cc: &Path, flags: &[&str], run_args: &[&str]) -> String {
    compile_pan(dir, cc, flags);
    run_pan(dir, run_args)
}

/// Compiles the verifier `spin -a` wrote in `dir` (pan.c) to `dir/pan`.
fn compile_pan(dir: &Path, cc: &Path, flags: &[&str]) {
    let mut args: Vec<&str> = flags.to_vec();
    args.extend(["-o", "pan", "pan.c"]);
    let out = common::run(dir, cc, &args);
    assert!(out.status.success(), "cc failed:\n{}", common::text(&out));
}

/// Runs the verifier compiled in `dir`; its report.
fn run_pan(dir: &Path, run_args: &[&str]) -> String {
    common::text(&common::run(dir, &dir.join("pan"), run_args))
}

#[test]
fn claims_agree_with_spin() {
    let Some((spin, cc)) = common::spin() else {
        return;
    };
    for (i, case) in CASES.iter().enumerate() {
        let ctx = format!("{} on {}", case.property, case.model);
        let dir = common::scratch(&format!("spin{i}"));
        std::fs::copy(common::model(case.model), dir.join("model.pml")).unwrap();
        let formula = match case.property.strip_prefix("psl: ") {
            Some(psl) => monitor_core::formula::parse_psl(psl).unwrap(),
            None => parse(case.property).unwrap(),
        };
        let dfa = Builder::new()
            .build_from_formula(&formula)
            .unwrap()
            .into_dfa();
        // Our claim, in safety mode.
        let ours = our_verdict(&dir, &spin, &cc, &dfa, case.defines, "model.pml", &[], true);
        assert_eq!(ours, case.violated, "{ctx}: our claim");

        // Spin's own claim for the negation, in acceptance mode.
        let spin_text = match case.spin {
            Same => case.property,
            Equivalent(f) => f,
            Unavailable => continue,
        };
        let theirs = spins_verdict(&dir, &spin, &cc, spin_text, case.defines, "model.pml", &[]);
        assert_eq!(theirs, ours, "{ctx}: spin's claim disagrees");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Whether our claim for `dfa` (propositions bound by `defines`), written
/// next to `model` in `dir`, finds a violation under `pan -DSAFETY`
/// (`pan_args` added); a violation's trail, replayed, must be a bad prefix
/// when `replay` (the propositions are globals compared with numbers).
#[allow(clippy::too_many_arguments)]
fn our_verdict(
    dir: &Path,
    spin: &Path,
    cc: &Path,
    dfa: &BadPrefixDfa,
    defines: &[(&str, &str)],
    model: &str,
    pan_args: &[&str],
    replay: bool,
) -> bool {
    let opts = PromelaOptions {
        common: Common {
            defines: defines
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect(),
            ..Common::default()
        },
        stutter_invariant: Some(dfa.is_stutter_invariant()),
        ..Default::default()
    };
    let claim = emit_promela(dfa, &opts).unwrap();
    assert!(claim.contains("./pan -N monitor"), "{claim}");
    std::fs::write(dir.join("claim.pml"), claim).unwrap();
    let out = common::run(dir, spin, &["-a", "-N", "claim.pml", model]);
    assert!(out.status.success(), "spin -a:\n{}", common::text(&out));
    let flags: &[&str] = if opts.stutter_invariant == Some(true) {
        &["-DSAFETY"]
    } else {
        &["-DSAFETY", "-DNOREDUCE"]
    };
    let mut args = vec!["-m1000000"];
    args.extend_from_slice(pan_args);
    let report = pan(dir, cc, flags, &args);
    assert!(
        report.contains("never claim         \t+ (monitor)"),
        "{report}"
    );
    let violated = errors(&report) > 0;
    if violated {
        assert!(report.contains("assertion violated"), "{report}");
        if replay {
            let replay = common::run(dir, spin, &["-t", "-p", "-g", "-N", "claim.pml", model]);
            let states = trail_states(&common::text(&replay));
            assert!(states.len() > 1, "empty trail\n{}", common::text(&replay));
            assert!(
                replay_is_bad_prefix(dfa, &states, defines),
                "the trail is not a bad prefix\n{}",
                common::text(&replay)
            );
        }
    }
    violated
}

/// Whether Spin's own claim for the negation of `property` (`spin -f`,
/// propositions replaced by their `defines`) finds a violation in `model`
/// (in `dir`), under `pan -a`.
fn spins_verdict(
    dir: &Path,
    spin: &Path,
    cc: &Path,
    property: &str,
    defines: &[(&str, &str)],
    model: &str,
    pan_args: &[&str],
) -> bool {
    spins_verdicts(dir, spin, cc, property, defines, model, &[pan_args])[0]
}

/// [`spins_verdict`] under each of `pan_args` (`pan -a` with them added):
/// the verifier is compiled once, since they are run-time options.
fn spins_verdicts(
    dir: &Path,
    spin: &Path,
    cc: &Path,
    property: &str,
    defines: &[(&str, &str)],
    model: &str,
    pan_args: &[&[&str]],
) -> Vec<bool> {
    // Spin has no #define on the command line: substitute the model
    // expressions, parenthesized (Spin accepts them in formulas).
    let f = parse(property)
        .unwrap()
        .map_bottom_up(|g| match g.ap_name() {
            Some(n) => match defines.iter().find(|(a, _)| *a == n) {
                Some((_, e)) => monitor_core::formula::Formula::ap(e),
                None => g.clone(),
            },
            None => g.clone(),
        });
    let ltl = spin_syntax(&f);
    let out = common::run(dir, spin, &["-f", &format!("!({ltl})")]);
    assert!(
        out.status.success(),
        "spin -f {ltl}:\n{}",
        common::text(&out)
    );
    std::fs::write(dir.join("spin_claim.pml"), &out.stdout).unwrap();
    let out = common::run(dir, spin, &["-a", "-N", "spin_claim.pml", model]);
    assert!(
        out.status.success(),
        "spin -a (spin's claim for {ltl}):\n{}",
        common::text(&out)
    );
    compile_pan(dir, cc, &[]);
    pan_args
        .iter()
        .map(|extra| {
            let mut args = vec!["-a", "-m1000000"];
            args.extend_from_slice(extra);
            errors(&run_pan(dir, &args)) > 0
        })
        .collect()
}

/// Spin syntax, with quoted propositions as parenthesized expressions.
fn spin_syntax(f: &monitor_core::formula::Formula) -> String {
    // Replace every proposition by a placeholder Spin accepts, print, then
    // put the expressions back.
    let aps = f.atomic_propositions();
    let g = f.map_bottom_up(|g| match g.ap_name() {
        Some(n) => {
            let i = aps.iter().position(|a| a == n).unwrap();
            monitor_core::formula::Formula::ap(&format!("ap_{i}_"))
        }
        None => g.clone(),
    });
    let mut text = g.to_spin().unwrap();
    for (i, a) in aps.iter().enumerate().rev() {
        text = text.replace(&format!("ap_{i}_"), &format!("({a})"));
    }
    text
}

#[test]
fn a_property_that_cannot_be_violated_blocks_the_claim() {
    let Some((spin, cc)) = common::spin() else {
        return;
    };
    let dir = common::scratch("spin-block");
    std::fs::copy(common::model("handshake.pml"), dir.join("model.pml")).unwrap();
    // A liveness property: its monitor never rejects, the claim blocks.
    let dfa = Builder::new().build("G(req -> F ack)").unwrap().into_dfa();
    let claim = emit_promela(&dfa, &PromelaOptions::default()).unwrap();
    assert!(claim.contains("\tfalse\t/* the property cannot be violated */"));
    std::fs::write(dir.join("claim.pml"), claim).unwrap();
    assert!(
        common::run(&dir, &spin, &["-a", "-N", "claim.pml", "model.pml"])
            .status
            .success()
    );
    let report = pan(&dir, &cc, &["-DSAFETY"], &[]);
    assert_eq!(errors(&report), 0, "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A property of one of the example models that Debian's `spin` package
/// ships (`/usr/share/doc/spin/examples/Examples`), run unmodified.
struct DistCase {
    /// The model, relative to the examples folder.
    model: &'static str,
    property: &'static str,
    defines: &'static [(&'static str, &'static str)],
    spin: SpinRef,
    violated: bool,
    /// Whether the propositions are global variables compared with
    /// numbers (the trail is replayed and checked then).
    replay: bool,
}

const DISTRIBUTION: &[DistCase] = &[
    // Peterson's mutual exclusion, with its own assertions.
    DistCase {
        model: "peterson.pml",
        property: "G p",
        defines: &[("p", "ncrit <= 1")],
        spin: Same,
        violated: false,
        replay: true,
    },
    DistCase {
        model: "peterson.pml",
        property: "G !c",
        defines: &[("c", "ncrit == 1")],
        spin: Same,
        violated: true,
        replay: true,
    },
    // A process may enter before `turn` was ever 1.
    DistCase {
        model: "peterson.pml",
        property: "G(c -> O t)",
        defines: &[("c", "ncrit == 1"), ("t", "turn == 1")],
        spin: Equivalent("!c W t"),
        violated: true,
        replay: true,
    },
    DistCase {
        model: "peterson.pml",
        property: "G(c -> X[2] \"ncrit <= 1\")",
        defines: &[("c", "ncrit == 1")],
        spin: Unavailable,
        violated: false,
        replay: false,
    },
    // Leader election in a ring: one leader at most, and it stays.
    DistCase {
        model: "leader0.pml",
        property: "G \"nr_leaders <= 1\"",
        defines: &[],
        spin: Same,
        violated: false,
        replay: true,
    },
    DistCase {
        model: "leader0.pml",
        property: "G(l -> X l)",
        defines: &[("l", "nr_leaders == 1")],
        spin: Equivalent("G(l -> G l)"),
        violated: false,
        replay: true,
    },
    DistCase {
        model: "leader0.pml",
        property: "G \"nr_leaders == 0\"",
        defines: &[],
        spin: Same,
        violated: true,
        replay: true,
    },
    // Lamport's bakery with byte tickets, which overflow; the model has
    // an `ltl` formula of its own (pan -N picks the claim).
    DistCase {
        model: "LTL/bakery.pml",
        property: "G \"mutex <= 1\"",
        defines: &[],
        spin: Same,
        violated: true,
        replay: true,
    },
    DistCase {
        model: "LTL/bakery.pml",
        property: "G(in -> Y \"mutex <= 1\")",
        defines: &[("in", "P[0]@CS")],
        spin: Unavailable,
        violated: true,
        replay: false,
    },
    // A flow-control layer made of #include files (relative to the model).
    DistCase {
        model: "Book_1991/p329.pml",
        property: "G q",
        defines: &[("q", "len(ses_to_flow[0]) <= 2")],
        spin: Same,
        violated: false,
        replay: false,
    },
    DistCase {
        model: "Book_1991/p329.pml",
        property: "G q",
        defines: &[("q", "len(flow_to_ses[1]) == 0")],
        spin: Same,
        violated: true,
        replay: false,
    },
];

#[test]
fn claims_agree_with_spin_on_its_distribution_examples() {
    let Some((spin, cc)) = common::spin() else {
        return;
    };
    let examples = common::spin_examples();
    for (i, case) in DISTRIBUTION.iter().enumerate() {
        let ctx = format!("{} on {}", case.property, case.model);
        // The model's folder, copied: Spin writes next to the model.
        let root = common::scratch(&format!("spin-dist{i}"));
        let src = examples.join(case.model);
        let folder = src.parent().unwrap();
        for entry in std::fs::read_dir(folder).unwrap() {
            let p = entry.unwrap().path();
            if p.is_file() {
                std::fs::copy(&p, root.join(p.file_name().unwrap())).unwrap();
            }
        }
        let model = src.file_name().unwrap().to_str().unwrap();
        let text = std::fs::read_to_string(&src).unwrap();
        let own_ltl = text.lines().any(|l| l.trim_start().starts_with("ltl "));
        let f = parse(case.property).unwrap();
        let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        let pan_args: &[&str] = if own_ltl { &["-N", "monitor"] } else { &[] };
        let ours = our_verdict(
            &root,
            &spin,
            &cc,
            &dfa,
            case.defines,
            model,
            pan_args,
            case.replay,
        );
        assert_eq!(ours, case.violated, "{ctx}: our claim");
        // Spin's own claim for the negation, in acceptance mode.
        let spin_text = match case.spin {
            Same => case.property,
            Equivalent(f) => f,
            Unavailable => continue,
        };
        let pan_args: &[&str] = if own_ltl { &["-N", "never_0"] } else { &[] };
        let theirs = spins_verdict(&root, &spin, &cc, spin_text, case.defines, model, pan_args);
        assert_eq!(theirs, ours, "{ctx}: spin's claim disagrees");
        let _ = std::fs::remove_dir_all(&root);
    }
}

/// Liveness properties on the models (Peterson's mutual exclusion, a
/// handshake, a semaphore, a leader election, dining philosophers, a
/// bounded buffer, the alternating-bit protocol): pan must find each
/// violated, without and with weak fairness (`-f`), exactly when it does
/// with Spin's own claim.
const LIVENESS: [(&str, &str); 25] = [
    ("peterson.pml", "G(try0 -> F crit0)"),
    ("peterson.pml", "GF crit1"),
    ("peterson.pml", "G(try0 -> F(crit0 | crit1))"),
    ("peterson_bug.pml", "G(try1 -> F crit1)"),
    ("handshake.pml", "G(req -> F ack)"),
    ("handshake.pml", "GF ack -> GF !req"),
    ("handshake.pml", "FG req"),
    ("handshake_bug.pml", "G(req -> F ack)"),
    ("ncrit.pml", "GF \"ncrit == 0\""),
    // Claims with a state that accepts everything (an assertion).
    ("peterson.pml", "G(try0 -> (!crit1 U crit0))"),
    ("peterson_bug.pml", "G(try0 -> (!crit1 U crit0))"),
    // A leader election beside a heartbeat that can run alone.
    ("leader.pml", "F elected"),
    ("leader.pml", "FG \"nr_leaders == 1\""),
    ("leader.pml", "GF tick"),
    ("leader.pml", "G(tick -> F elected)"),
    // Three dining philosophers, without deadlock, with starvation.
    ("philosophers.pml", "G(hungry0 -> F eating0)"),
    ("philosophers.pml", "GF(eating0 | eating1 | eating2)"),
    ("philosophers.pml", "GF eating1"),
    // A bounded buffer beside a process that can run alone.
    ("buffer.pml", "G(put -> F got)"),
    ("buffer.pml", "GF got"),
    ("buffer.pml", "FG is_full"),
    // The alternating-bit protocol over a lossy channel.
    ("sliding_window.pml", "G(sent -> F delivered)"),
    ("sliding_window.pml", "GF delivered"),
    ("sliding_window.pml", "G(lost -> F !lost)"),
    ("sliding_window.pml", "FG sent"),
];

/// Whether our Büchi claim for `property` finds an acceptance cycle in
/// `model` (in `dir`) under `pan -a`, with each of `pan_args` added: the
/// verifier is compiled once (they are run-time options), and each run's
/// counterexample is replayed before the next run writes its own.
fn our_buchi_verdicts(
    dir: &Path,
    spin: &Path,
    cc: &Path,
    property: &str,
    pan_args: &[&[&str]],
) -> Vec<bool> {
    let f = parse(property).unwrap();
    let mut negation = Builder::new()
        .build_buchi_from_formula(&monitor_core::formula::Formula::not(f.clone()))
        .unwrap();
    negation.set_name(property);
    let opts = PromelaOptions {
        stutter_invariant: Some(f.is_next_free()),
        ..Default::default()
    };
    let claim = emit_buchi_claim(&negation, &opts).unwrap();
    assert!(claim.contains("./pan -a -N monitor"), "{claim}");
    std::fs::write(dir.join("claim.pml"), &claim).unwrap();
    let out = common::run(dir, spin, &["-a", "-N", "claim.pml", "model.pml"]);
    assert!(
        out.status.success(),
        "spin -a:\n{}\n{claim}",
        common::text(&out)
    );
    compile_pan(dir, cc, &[]);
    let verdict = |extra: &[&str]| -> bool {
        let mut args = vec!["-a", "-m1000000"];
        args.extend_from_slice(extra);
        let report = run_pan(dir, &args);
        assert!(
            report.contains("never claim         \t+ (monitor)"),
            "{report}"
        );
        assert!(report.contains("acceptance   cycles \t+"), "{report}");
        let violated = errors(&report) > 0;
        if !violated {
            return false;
        }
        let replay = common::run(
            dir,
            spin,
            &["-t", "-p", "-g", "-N", "claim.pml", "model.pml"],
        );
        let replay = common::text(&replay);
        if report.contains("assertion violated") {
            // A letter into the state that accepts everything: the trail is a
            // bad prefix of the property.
            let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
            assert!(
                replay_is_bad_prefix(&dfa, &trail_states(&replay), &[]),
                "{property}: the trail is not a bad prefix\n{replay}"
            );
        } else {
            assert!(report.contains("acceptance cycle"), "{report}");
            // The acceptance cycle, replayed, is a lasso that violates the
            // property by the brute-force evaluator.
            let (states, cycle_at) = trail_lasso(&replay);
            let aps: Vec<String> = f.atomic_propositions();
            let letters: Vec<Vec<bool>> = states
                .iter()
                .map(|s| aps.iter().map(|ap| holds(ap, &[], s)).collect())
                .collect();
            let lasso = Lasso::new(letters[..cycle_at].to_vec(), letters[cycle_at..].to_vec());
            assert!(
                !eval::holds(&f, &aps, &lasso),
                "{property}: the acceptance cycle satisfies it\n{replay}"
            );
        }
        violated
    };
    pan_args.iter().map(|extra| verdict(extra)).collect()
}

/// The states along the trail of an acceptance cycle (see `trail_states`)
/// up to the one that closes the cycle, which is left out, and the index
/// where the cycle starts.
fn trail_lasso(replay: &str) -> (Vec<State>, usize) {
    let marker = "<<<<<START OF CYCLE>>>>>";
    let (before, _) = replay
        .split_once(marker)
        .unwrap_or_else(|| panic!("no cycle in the trail\n{replay}"));
    // The state after the last step before the marker starts the cycle.
    let cycle_at = trail_states(before).len() - 1;
    let mut states = trail_states(replay);
    let closing = states.pop().expect("a state");
    assert!(cycle_at < states.len(), "an empty cycle\n{replay}");
    // The cycle closes on the state it starts from (on the globals; a
    // variable never assigned is 0).
    let start = &states[cycle_at];
    let value = |s: &State, v: &str| s.get(v).copied().unwrap_or(0);
    assert!(
        closing
            .keys()
            .chain(start.keys())
            .all(|v| value(&closing, v) == value(start, v)),
        "{replay}"
    );
    (states, cycle_at)
}

#[test]
fn buchi_claims_agree_with_spin_on_liveness() {
    let Some((spin, cc)) = common::spin() else {
        return;
    };
    // The cases on two threads (each in its own folder): a case is Spin,
    // cc and pan one after the other, so one thread left a core idle.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        let (mut violated, mut held, mut fairness_matters) = (0, 0, 0);
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some((model, property)) = LIVENESS.get(i) else {
                return (violated, held, fairness_matters);
            };
            let dir = common::scratch(&format!("spin-buchi{i}"));
            std::fs::copy(common::model(model), dir.join("model.pml")).unwrap();
            let fairness = [&[][..], &["-f"][..]];
            let ours = our_buchi_verdicts(&dir, &spin, &cc, property, &fairness);
            let theirs = spins_verdicts(&dir, &spin, &cc, property, &[], "model.pml", &fairness);
            for ((ours, theirs), fairness) in ours.iter().zip(&theirs).zip(fairness) {
                let ctx = format!("{property} on {model} {fairness:?}");
                assert_eq!(ours, theirs, "{ctx}: spin's claim disagrees");
                if *ours {
                    violated += 1;
                } else {
                    held += 1;
                }
            }
            fairness_matters += usize::from(ours[0] != ours[1]);
            let _ = std::fs::remove_dir_all(&dir);
        }
    };
    let (mut violated, mut held, mut fairness_matters) = (0, 0, 0);
    std::thread::scope(|scope| {
        let threads = [scope.spawn(worker), scope.spawn(worker)];
        for thread in threads {
            let (v, h, f) = thread.join().expect("a case failed (its panic is above)");
            violated += v;
            held += h;
            fairness_matters += f;
        }
    });
    // Both verdicts occur, and weak fairness changes some, so that the
    // comparison means something.
    assert!(
        violated >= 15 && held >= 15 && fairness_matters >= 4,
        "{violated} violated, {held} held, {fairness_matters} changed by fairness"
    );
}

/// Rename invariance: a claim's verdict does not depend on what its
/// propositions are called. A model that can set its four Boolean
/// variables (named like the claim's own labels and like mangled names:
/// `req_valid`, `S0`, `violation`, `p_if`) to any values at each step is
/// checked against claims of random formulas whose propositions are
/// (1) those variables themselves, (2) hostile names bound to them by
/// `--define`, (3) quoted comparisons over them. Each must find a
/// violation exactly when the monitor can reach the rejecting sink after
/// the model's initial letter (every variable false). Found: a `#define`
/// of the claim (`req_valid` for the proposition `req.valid`) replaced a
/// model variable, and labels named like model variables were refused.
#[test]
fn verdicts_do_not_depend_on_proposition_names() {
    use monitor_core::automaton::Target;
    use monitor_core::formula::random::RandomLtl;

    let Some((spin, cc)) = common::spin() else {
        return;
    };
    let vars = ["req_valid", "S0", "violation", "p_if"];
    let mut model = format!(
        "bool {};\nactive proctype main() {{\n\tdo\n",
        vars.join(", ")
    );
    for letter in 0..16 {
        let sets: Vec<String> = (0..4)
            .map(|i| format!("{} = {}", vars[i], (letter >> i) & 1))
            .collect();
        model += &format!("\t:: d_step {{ {} }}\n", sets.join("; "));
    }
    model += "\tod\n}\n";
    let dir = common::scratch("spin-rename");
    std::fs::write(dir.join("model.pml"), &model).unwrap();
    let namings = common::Namings {
        vars,
        expressions: ["req_valid != 0", "(S0)", "violation == 1", "p_if > 0"],
        hostile: common::hostile_names(),
    };
    let mut violated_somewhere = 0;
    for i in 0..12u64 {
        let f = RandomLtl::new(&common::Namings::APS, 6 + (i % 7) as usize)
            .seed(7000 + i)
            .next_formula();
        for style in 0..3 {
            let named = namings.rename(&f, style, i as usize);
            let Ok(t) = Builder::new().build_from_formula(&named) else {
                continue;
            };
            let dfa = t.into_dfa();
            // The model's first letter has every variable false; then
            // every letter can follow every state.
            let first = dfa.step(dfa.start(), &0u64);
            let expected = match first {
                Target::Violation => true,
                Target::State(s) => {
                    let mut seen = vec![s];
                    let mut todo = vec![s];
                    let mut bad = false;
                    while let Some(q) = todo.pop() {
                        for e in dfa.edges(q).unwrap() {
                            match e.target {
                                Target::Violation => bad = true,
                                Target::State(t) if !seen.contains(&t) => {
                                    seen.push(t);
                                    todo.push(t);
                                }
                                Target::State(_) => {}
                            }
                        }
                    }
                    bad
                }
            };
            let defines = namings.defines(style, i as usize);
            let opts = PromelaOptions {
                common: Common {
                    defines,
                    ..Common::default()
                },
                stutter_invariant: Some(false),
                file: "claim.pml */ #define S0 (1) /*\n#define violation (0)".into(),
            };
            let claim = emit_promela(&dfa, &opts).unwrap();
            let ctx = format!("formula {i} ({f}), style {style}:\n{claim}");
            std::fs::write(dir.join("claim.pml"), &claim).unwrap();
            let out = common::run(&dir, &spin, &["-a", "-N", "claim.pml", "model.pml"]);
            assert!(
                out.status.success(),
                "{ctx}\nspin -a:\n{}",
                common::text(&out)
            );
            let report = pan(&dir, &cc, &["-DSAFETY", "-DNOREDUCE"], &["-m100000"]);
            let violated = errors(&report) > 0;
            assert_eq!(violated, expected, "{ctx}\n{report}");
            violated_somewhere += usize::from(violated);
        }
    }
    // The formulas must exercise both verdicts.
    assert!(violated_somewhere > 3, "{violated_somewhere}");
}
