//! SMV observers checked by NuSMV 2.5.4 for real.
//!
//! For each model and safety property, NuSMV checks in one run the
//! property as an `LTLSPEC` (its own verdict, the reference) and the
//! invariants `!obs.violated` of our observers put into the model as
//! `mongen compile -t smv --model` puts them: the explicit DFA and the
//! transducer (exact for non-pathologic safety properties, a sound bug
//! hunter otherwise), and, when `main` is the last module, the DFA
//! observer appended with its reserved names. Every verdict must be
//! NuSMV's, and every counterexample a bad prefix for the core monitor.
//!
//! The models are written in the styles of NuSMV's own examples
//! (asynchronous `process`es with `running` and `FAIRNESS`, synchronous
//! modules, shared enumeration constants, `main` anywhere, `DEFINE`s,
//! arrays, `INIT`/`TRANS`/`INVAR` constraints, names with `-`); the
//! distribution's own examples are checked too.

mod common;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use mongen::emit::smv::{emit_smv_dfa, emit_smv_transducer, SmvNamespace, SmvObserver, SmvOptions};
use mongen::emit::smv_model::SmvModel;
use mongen::emit::Common;
use monitor_core::analysis::{classify, transducer};
use monitor_core::automaton::{BadPrefixDfa, Verdict};
use monitor_core::formula::{parse, parse_psl, Formula};
use monitor_core::translate::{Builder, Config};

/// A property of a model, its propositions bound to model expressions,
/// and NuSMV's verdict for it.
struct Case {
    property: &'static str,
    defines: &'static [(&'static str, &'static str)],
    violated: bool,
}

const fn holds(property: &'static str, defines: &'static [(&'static str, &'static str)]) -> Case {
    Case {
        property,
        defines,
        violated: false,
    }
}

const fn fails(property: &'static str, defines: &'static [(&'static str, &'static str)]) -> Case {
    Case {
        property,
        defines,
        violated: true,
    }
}

/// The test models (`codegen/tests/models/`) and their properties.
const MODELS: &[(&str, &[Case])] = &[
    (
        "mutex.smv",
        &[
            holds("G !(crit0 & crit1)", &[]),
            holds("G(crit0 -> O try0)", &[]),
            holds("G(crit0 -> Y(try0 | crit0))", &[]),
            // The turn starts with process 0: process 1 never enters first...
            holds("!crit1 W crit0", &[]),
            // ...but after that it may overtake a trying process 0.
            fails("G(try0 -> (!crit1 W crit0))", &[]),
            fails("G(crit0 -> X crit0)", &[]),
        ],
    ),
    (
        "mutex_bug.smv",
        &[
            fails("G !(crit0 & crit1)", &[]),
            fails("G(crit0 -> !crit1)", &[]),
        ],
    ),
    (
        "handshake.smv",
        &[
            holds("G(req -> (req W ack))", &[]),
            holds("G(ack -> (ack W !req))", &[]),
            holds("G((req & !ack) -> X ack)", &[]),
            fails("G(ack -> req)", &[]),
            holds("G(ack -> Y req)", &[]),
            fails("G(req -> X req)", &[]),
        ],
    ),
    (
        "counter.smv",
        &[
            holds("G(seven -> X zero)", &[]),
            fails("G(zero -> X !zero)", &[]),
            holds("G(big -> Y \"x >= 4\")", &[]),
            holds("G(seven -> O \"x = 3\")", &[]),
            fails("G(zero -> H !big)", &[]),
            fails("G !big", &[]),
            // Propositions named after keywords, bound with --define.
            holds("G(case -> !esac)", &[("case", "x = 3"), ("esac", "x = 4")]),
            holds("G(next -> X !next)", &[("next", "x = 1")]),
            fails("X X X X X X X X !zero", &[]),
        ],
    ),
    (
        "token_ring.smv",
        &[
            holds("G !(priv0 & priv1) & G !(priv1 & priv2)", &[]),
            holds("G(priv1 -> Y(priv0 | priv1))", &[]),
            holds("G(priv2 -> (!priv0 S priv1))", &[]),
            holds("G(priv2 -> X[1] (priv2 | priv0))", &[]),
            fails("G(priv0 -> X priv0)", &[]),
            fails("G(priv0 -> X[2] !priv2)", &[]),
            holds(
                "G(moved -> Y bottom)",
                &[("moved", "x1 != x0"), ("bottom", "x0 = x2 | x1 != x0")],
            ),
        ],
    ),
    (
        "semaphore_users.smv",
        &[
            holds("G !(crit1 & crit2)", &[]),
            holds("G(crit1 -> Y(crit1 | enter1))", &[]),
            holds("G(crit1 -> O enter1)", &[]),
            fails("G(enter1 -> X crit1)", &[]),
            holds(
                "G(out2 -> Y(crit2 | out2))",
                &[("out2", "u2.state = exiting")],
            ),
            // u2 needs two steps to leave (exiting, then idle and the
            // semaphore released), u1 one more to enter.
            holds("G(crit2 -> X[2] !crit1)", &[]),
            fails("G(crit2 -> X[3] !crit1)", &[]),
        ],
    ),
    (
        "turn_mutex.smv",
        &[
            holds(
                "G !(c0 & c1)",
                &[("c0", "s0 = critical"), ("c1", "s1 = critical")],
            ),
            holds(
                "G((c0 & !Y c0) -> Y t0)",
                &[("c0", "s0 = critical"), ("t0", "s0 = trying")],
            ),
            fails(
                "G(t0 -> X c0)",
                &[("c0", "s0 = critical"), ("t0", "s0 = trying")],
            ),
            fails(
                "G(c0 -> X[2] !c1)",
                &[("c0", "s0 = critical"), ("c1", "s1 = critical")],
            ),
        ],
    ),
    (
        "ripple_counter.smv",
        &[
            holds("G(seven -> X zero)", &[]),
            holds("G(zero -> X !zero)", &[]),
            holds("G(zero -> X[8] zero)", &[]),
            fails("G(zero -> X[4] zero)", &[]),
            holds("G(seven -> O zero)", &[]),
            fails("G(seven -> H !zero)", &[]),
            holds(
                "G(b2 -> Y(b2 | b1))",
                &[("b2", "bit2.value"), ("b1", "bit1.value")],
            ),
        ],
    ),
    (
        "mutex_halves.smv",
        &[
            holds("G !(g1 & g2)", &[("g1", "h-1.out"), ("g2", "h-2.out")]),
            // The halves step with `main` only: a grant rises in a step
            // of `main` while its client requests, but stays up while the
            // client process drops the request.
            holds(
                "G((g1 & !Y g1) -> Y r1)",
                &[("g1", "h-1.out"), ("r1", "c-1.req")],
            ),
            fails("G(g1 -> Y r1)", &[("g1", "h-1.out"), ("r1", "c-1.req")]),
            fails("G(r1 -> X g1)", &[("g1", "h-1.out"), ("r1", "c-1.req")]),
            fails("G(r1 -> X[3] !r1)", &[("r1", "c-1.req")]),
        ],
    ),
    (
        "name_clash.smv",
        &[
            // Propositions named like the model's constants (`ok`, `t0`,
            // `t1`), bound to expressions that use them.
            holds("G(t1 -> Y t0)", &[("t1", "step = t1"), ("t0", "step = t0")]),
            fails("G(ok -> X ok)", &[("ok", "mode = ok")]),
            holds(
                "G(bad -> X fixed)",
                &[("bad", "mode = violated"), ("fixed", "mode = state")],
            ),
            fails("G !state", &[("state", "mode = state")]),
            holds("G(obs.seen <-> ok)", &[("ok", "mode = ok")]),
        ],
    ),
    (
        "shift_array.smv",
        &[
            holds("G(a -> X[3] d)", &[("a", "r[0]"), ("d", "r[3]")]),
            holds("G(d -> Y Y Y a)", &[("a", "r[0]"), ("d", "r[3]")]),
            fails("G(a -> X a)", &[("a", "r[0]")]),
            holds("G(full -> Y(full | !full))", &[]),
            // An input variable as a proposition.
            holds("G(din -> X a)", &[("a", "r[0]")]),
            fails("G(din -> X X !a)", &[("a", "r[1]")]),
            fails("G !full", &[]),
        ],
    ),
    (
        "traffic_lights.smv",
        &[
            holds(
                "G !(nsg & ewg)",
                &[("nsg", "ns = green"), ("ewg", "ew = green")],
            ),
            holds(
                "G((nsg & Y !nsg) -> Y nsr)",
                &[("nsg", "ns = green"), ("nsr", "ns = red")],
            ),
            holds("G(nsg -> X[4] !nsg)", &[("nsg", "ns = green")]),
            fails("G(nsg -> X nsg)", &[("nsg", "ns = green")]),
            fails("G(nsg -> F[0:3] !nsg)", &[("nsg", "ns = green")]),
        ],
    ),
    (
        "bounded_queue.smv",
        &[
            holds("G(full -> X !empty)", &[]),
            holds("G(full -> Y(full | \"items = 3\"))", &[]),
            holds("G(full -> O \"items = 2\")", &[]),
            fails("G(empty -> X empty)", &[]),
            fails("G !full", &[]),
        ],
    ),
];

/// The example models of the NuSMV distribution (installed with NuSMV by
/// scripts/install-nusmv.sh), unmodified, with properties of ours: those
/// with `Y` on process models gave wrong verdicts when the observer
/// stepped only with `main`.
const DISTRIBUTION: &[(&str, &[Case])] = &[
    (
        "ring.smv",
        &[
            holds(
                "G((g1 & !Y g1) -> Y !g3)",
                &[("g1", "gate1.output"), ("g3", "gate3.output")],
            ),
            fails("G(g1 -> Y !g1)", &[("g1", "gate1.output")]),
            // gate2 inverts gate1: it rises after gate1 was low.
            holds(
                "G((g2 & Y !g2) -> Y !g1)",
                &[("g1", "gate1.output"), ("g2", "gate2.output")],
            ),
            fails(
                "G((g2 & Y !g2) -> Y g1)",
                &[("g1", "gate1.output"), ("g2", "gate2.output")],
            ),
        ],
    ),
    (
        "mutex1.smv",
        &[
            holds(
                "G((c0 & !Y c0) -> Y t0)",
                &[("c0", "s0 = critical"), ("t0", "s0 = trying")],
            ),
            holds(
                "G !(c0 & c1)",
                &[("c0", "s0 = critical"), ("c1", "s1 = critical")],
            ),
            fails(
                "G(t0 -> X c0)",
                &[("c0", "s0 = critical"), ("t0", "s0 = trying")],
            ),
        ],
    ),
    (
        "semaphore.smv",
        &[
            holds(
                "G((c1 & !Y c1) -> Y e1)",
                &[
                    ("c1", "proc1.state = critical"),
                    ("e1", "proc1.state = entering"),
                ],
            ),
            holds(
                "G !(c1 & c2)",
                &[
                    ("c1", "proc1.state = critical"),
                    ("c2", "proc2.state = critical"),
                ],
            ),
            fails(
                "G(e1 -> X c1)",
                &[
                    ("c1", "proc1.state = critical"),
                    ("e1", "proc1.state = entering"),
                ],
            ),
        ],
    ),
    (
        "dme2.smv",
        &[
            holds("G !(a1 & a2)", &[("a1", "e-1.u.ack"), ("a2", "e-2.u.ack")]),
            holds(
                "G((a1 & !Y a1) -> Y r1)",
                &[("a1", "e-1.u.ack"), ("r1", "e-1.u.req")],
            ),
            fails("G(r1 -> X a1)", &[("a1", "e-1.u.ack"), ("r1", "e-1.u.req")]),
        ],
    ),
    (
        "counter.smv",
        &[
            // The carry out of the last bit is 7 = 111, after 6 = 110.
            holds(
                "G(c2 -> Y(v1 & !v0))",
                &[
                    ("c2", "bit2.carry_out"),
                    ("v1", "bit1.value"),
                    ("v0", "bit0.value"),
                ],
            ),
            fails(
                "G(c2 -> Y(v1 & v0))",
                &[
                    ("c2", "bit2.carry_out"),
                    ("v1", "bit1.value"),
                    ("v0", "bit0.value"),
                ],
            ),
            fails("G !c2", &[("c2", "bit2.carry_out")]),
        ],
    ),
    (
        // Propositions named like its constants `c1`, `t1`, `c2`.
        "mutex.smv",
        &[
            holds(
                "G !(c1 & c2)",
                &[("c1", "state1 = c1"), ("c2", "state2 = c2")],
            ),
            holds(
                "G((c1 & !Y c1) -> Y t1)",
                &[("c1", "state1 = c1"), ("t1", "state1 = t1")],
            ),
            fails(
                "G(t1 -> X c1)",
                &[("c1", "state1 = c1"), ("t1", "state1 = t1")],
            ),
        ],
    ),
];

/// A state of a trace: variable -> value, as NuSMV prints them.
type State = HashMap<String, String>;

/// One result of a NuSMV run: whether the specification fails, and its
/// counterexample.
#[derive(Debug)]
struct Outcome {
    violated: bool,
    trace: Vec<State>,
}

/// The results in NuSMV's output, in order.
fn outcomes(output: &str) -> Vec<Outcome> {
    let mut out: Vec<Outcome> = Vec::new();
    for l in output.lines() {
        if (l.starts_with("-- invariant") || l.starts_with("-- specification"))
            && (l.ends_with(" is true") || l.ends_with(" is false"))
        {
            out.push(Outcome {
                violated: l.ends_with("is false"),
                trace: Vec::new(),
            });
        } else if l.starts_with("-> State:") {
            if let Some(o) = out.last_mut() {
                let next = o.trace.last().cloned().unwrap_or_default();
                o.trace.push(next);
            }
        } else if let Some((var, value)) = l.trim().split_once(" = ") {
            if let Some(s) = out.last_mut().and_then(|o| o.trace.last_mut()) {
                s.insert(var.to_string(), value.to_string());
            }
        }
    }
    out
}

/// Whether NuSMV's counterexample is a bad prefix for `dfa`: the values
/// of the propositions are read off the `DEFINE`s `names`, one per
/// proposition, that the test added to `main`.
fn is_bad_prefix(dfa: &BadPrefixDfa, trace: &[State], names: &[String]) -> bool {
    let word = trace.iter().map(|s| {
        names
            .iter()
            .map(|n| match s.get(n).map(String::as_str) {
                Some("TRUE") => true,
                Some("FALSE") => false,
                v => panic!("{n} = {v:?} in the trace state {s:?}"),
            })
            .collect::<Vec<bool>>()
    });
    dfa.run(word) == Verdict::Violated
}

/// The observers' options in `model`, with fresh module and instance names.
fn options(
    model: &SmvModel,
    taken: &mut BTreeSet<String>,
    name: &str,
    defines: &[(String, String)],
) -> SmvOptions {
    SmvOptions {
        common: Common {
            name: model.fresh_module(name, taken),
            defines: defines.to_vec(),
            ..Common::default()
        },
        instance: model.fresh_name(&format!("obs_{name}"), taken),
        namespace: SmvNamespace::Avoiding(model.constants().clone()),
    }
}

/// Checks one property on one model: NuSMV's LTLSPEC (or `reference`, a
/// PSLSPEC) against our observers.
/// Returns NuSMV's verdict (whether the property is violated).
fn check(
    nusmv: &Path,
    dir: &Path,
    model_file: &str,
    text: &str,
    f: &Formula,
    defines: &[(&str, &str)],
    psl: Option<&str>,
) -> bool {
    let ctx = format!(
        "{} on {model_file}",
        psl.map_or_else(|| f.to_spot(), str::to_string)
    );
    let model = SmvModel::read(text).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let defines: Vec<(String, String)> = defines
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let dfa = Builder::new().build_from_formula(f).unwrap().into_dfa();
    let c = classify(f, &Config::new()).unwrap();
    let safety = c.safety == Some(true);
    let exact_transducer = safety && c.pathologic == Some(false);

    let mut taken = BTreeSet::new();
    let dfa_obs = emit_smv_dfa(&dfa, &options(&model, &mut taken, "dfa", &defines)).unwrap();
    let t = transducer(f).unwrap();
    let t_obs = emit_smv_transducer(&t, &options(&model, &mut taken, "tr", &defines)).unwrap();
    // One DEFINE per proposition, to read the propositions off the traces.
    let expr = |ap: &str| {
        defines
            .iter()
            .find(|(n, _)| n == ap)
            .map_or(ap.to_string(), |(_, e)| e.clone())
    };
    let ap_names: Vec<String> = (0..dfa.alphabet().len())
        .map(|k| model.fresh_name(&format!("ap{k}"), &mut taken))
        .collect();
    let ap_defines: Vec<String> = dfa
        .alphabet()
        .names()
        .iter()
        .zip(&ap_names)
        .map(|(ap, n)| format!("  DEFINE {n} := ({});\n", expr(ap)))
        .collect();
    let mut mains = vec![dfa_obs.main.clone(), t_obs.main.clone()];
    mains.extend(ap_defines);
    // The plain text to append, with its reserved names, where appending
    // works; then the rest, put in as with --model.
    let mut base = text.to_string();
    let appended: Option<SmvObserver> = model.main_is_last().then(|| {
        let opts = SmvOptions {
            common: Common {
                name: "appended".into(),
                defines: defines.clone(),
                ..Common::default()
            },
            ..Default::default()
        };
        let obs = emit_smv_dfa(&dfa, &opts).unwrap();
        base.push('\n');
        base.push_str(&obs.appendable());
        obs
    });
    let text_of = |model: &SmvModel, mains: &[String], modules: &[String]| {
        String::from_utf8(model.insert(mains, modules)).unwrap()
    };
    let mut full = text_of(
        &SmvModel::read(&base).unwrap(),
        &mains,
        &[dfa_obs.module.clone(), t_obs.module.clone()],
    );

    // NuSMV's own verdict: the property as an LTLSPEC (or a PSLSPEC), with
    // the propositions replaced by their expressions.
    let reference = match psl {
        Some(p) => format!("PSLSPEC {p};\n"),
        None => {
            let substituted = f.map_bottom_up(|g| match g.ap_name() {
                Some(n) => Formula::ap(&expr(n)),
                None => g.clone(),
            });
            format!("check_ltlspec -p \"{}\"\n", substituted.to_nusmv())
        }
    };
    let mut commands = String::from("go\n");
    if psl.is_some() {
        full = text_of(&SmvModel::read(&full).unwrap(), &[reference], &[]);
        commands.push_str("check_pslspec\n");
    } else {
        commands.push_str(&reference);
    }
    let mut invariants = vec![&dfa_obs, &t_obs];
    invariants.extend(appended.as_ref());
    for o in &invariants {
        commands.push_str(&format!("check_invar -p \"{}\"\n", o.invariant));
    }
    commands.push_str("quit\n");
    std::fs::write(dir.join("model.smv"), &full).unwrap();
    std::fs::write(dir.join("commands"), &commands).unwrap();
    let out = common::run(dir, nusmv, &["-source", "commands", "model.smv"]);
    let output = common::text(&out);
    let results = outcomes(&output);
    // A model's own PSLSPECs come before ours in check_pslspec; ours is last.
    assert!(
        out.status.success() && results.len() > invariants.len(),
        "{ctx}: NuSMV failed on\n{full}\n{commands}\n{output}"
    );
    let n_ref = results.len() - invariants.len();
    let reference = results[n_ref - 1].violated;
    let what = [
        "DFA observer",
        "transducer observer",
        "appended DFA observer",
    ];
    for (k, r) in results[n_ref..].iter().enumerate() {
        // The transducer is exact for non-pathologic safety properties, a
        // bug hunter otherwise; the DFA is exact for safety properties.
        let exact = if k == 1 { exact_transducer } else { safety };
        if exact {
            assert_eq!(r.violated, reference, "{ctx}: {}\n{full}", what[k]);
        } else {
            assert!(!r.violated || reference, "{ctx}: {}", what[k]);
        }
        if r.violated {
            assert!(
                is_bad_prefix(&dfa, &r.trace, &ap_names),
                "{ctx}: {} trace {:?}",
                what[k],
                r.trace
            );
        }
    }
    reference
}

fn check_models(
    nusmv: &Path,
    models: &[(&str, &[Case])],
    path: impl Fn(&str) -> PathBuf,
    tag: &str,
) -> (usize, usize) {
    let (mut cases, mut violated) = (0, 0);
    let mut wrong = Vec::new();
    for (i, (file, props)) in models.iter().enumerate() {
        let text = std::fs::read_to_string(path(file)).unwrap();
        assert!(props.len() >= 2, "{file}: at least two properties");
        for (j, case) in props.iter().enumerate() {
            let dir = common::scratch(&format!("nusmv-{tag}{i}-{j}"));
            let f = parse(case.property).unwrap();
            let verdict = check(nusmv, &dir, file, &text, &f, case.defines, None);
            if verdict != case.violated {
                wrong.push(format!(
                    "{} on {file}: NuSMV says violated = {verdict}",
                    case.property
                ));
            }
            cases += 1;
            violated += usize::from(case.violated);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    // The expected verdicts document the models; the observers were
    // compared with NuSMV's own verdict whatever it was.
    assert!(
        wrong.is_empty(),
        "unexpected verdicts:\n{}",
        wrong.join("\n")
    );
    (cases, violated)
}

#[test]
fn observers_agree_with_nusmv_on_the_test_models() {
    let Some(nusmv) = common::nusmv() else { return };
    let (cases, violated) = check_models(&nusmv, MODELS, common::model, "m");
    assert!(MODELS.len() >= 10);
    assert!(
        cases >= 50 && violated >= 15,
        "{cases} cases, {violated} violated"
    );
}

#[test]
fn observers_agree_with_nusmv_on_its_distribution_examples() {
    let Some(nusmv) = common::nusmv() else { return };
    let examples = common::nusmv_examples(&nusmv);
    check_models(&nusmv, DISTRIBUTION, |f| examples.join(f), "d");
}

#[test]
fn the_transducer_finds_informative_violations_of_non_safety_properties() {
    // Seed 003: for a non-safety property the transducer is a bug hunter.
    // `zero U big` fails as soon as x = 1 (neither zero nor big).
    let Some(nusmv) = common::nusmv() else { return };
    let dir = common::scratch("nusmv-hunter");
    let text = std::fs::read_to_string(common::model("counter.smv")).unwrap();
    let f = parse("zero U big").unwrap();
    assert!(check(&nusmv, &dir, "counter.smv", &text, &f, &[], None));
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
    ("token_ring.smv", "never {priv0; priv2}"),
    (
        "semaphore_users.smv",
        "always ({enter1; crit1} |=> {crit1 | u1.state = exiting}!)",
    ),
];

#[test]
fn psl_observers_agree_with_nusmv_pslspec() {
    let Some(nusmv) = common::nusmv() else { return };
    let mut violated = 0;
    for (i, (model_file, property)) in PSL_CASES.iter().enumerate() {
        let dir = common::scratch(&format!("nusmv-psl{i}"));
        let text = std::fs::read_to_string(common::model(model_file)).unwrap();
        let f = parse_psl(property).unwrap();
        // The verdict is NuSMV's PSLSPEC's, whatever it is.
        violated += usize::from(check(
            &nusmv,
            &dir,
            model_file,
            &text,
            &f,
            &[],
            Some(property),
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(violated >= 5, "only {violated} violated cases");
}

/// Rename invariance: an observer's verdict does not depend on what its
/// propositions are called. A model whose four free Boolean variables are
/// named like the observer's own names before they took the `mg_` prefix
/// (`state`, `violated`, `obs`) and like a mangled keyword (`p_next`) is
/// checked, with the observer appended as `mongen compile -t smv` writes
/// it, against observers of random formulas whose propositions are (1)
/// those variables, (2) hostile names bound to them by `--define`, (3)
/// expressions over them. Each must be violated exactly when the monitor
/// can reach the rejecting sink (the variables take every value at every
/// step, the first included).
#[test]
fn verdicts_do_not_depend_on_proposition_names() {
    use monitor_core::formula::random::RandomLtl;

    let Some(nusmv) = common::nusmv() else {
        return;
    };
    let vars = ["state", "violated", "obs", "p_next"];
    let model = format!(
        "MODULE main\nVAR\n{}",
        vars.iter()
            .map(|v| format!("  {v} : boolean;\n"))
            .collect::<String>()
    );
    let dir = common::scratch("nusmv-rename");
    let namings = common::Namings {
        vars,
        expressions: ["state = TRUE", "(violated)", "obs != FALSE", "!(!p_next)"],
        hostile: common::hostile_names(),
    };
    let mut violated_somewhere = 0;
    for i in 0..16u64 {
        let f = RandomLtl::new(&common::Namings::APS, 6 + (i % 7) as usize)
            .with_past()
            .seed(9100 + i)
            .next_formula();
        for style in 0..3 {
            let named = namings.rename(&f, style, i as usize);
            let Ok(t) = Builder::new().build_from_formula(&named) else {
                continue;
            };
            let dfa = t.into_dfa();
            let expected = dfa.can_violate()[dfa.start().as_usize()];
            let defines = namings.defines(style, i as usize);
            let opts = SmvOptions {
                common: Common {
                    defines,
                    ..Common::default()
                },
                ..SmvOptions::default()
            };
            let text = format!("{model}{}", emit_smv_dfa(&dfa, &opts).unwrap().appendable());
            let ctx = format!("formula {i} ({f}), style {style}:\n{text}");
            std::fs::write(dir.join("model.smv"), &text).unwrap();
            let out = common::run(&dir, &nusmv, &["model.smv"]);
            let report = common::text(&out);
            let results = outcomes(&report);
            assert!(
                out.status.success() && results.len() == 1 && !report.contains("rror"),
                "{ctx}\n{report}"
            );
            assert_eq!(results[0].violated, expected, "{ctx}\n{report}");
            violated_somewhere += usize::from(expected);
        }
    }
    assert!(violated_somewhere > 3, "{violated_somewhere}");
}
