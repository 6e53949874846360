//! Known answers: figures published for Spot and in Rozier's thesis, and
//! families whose minimal monitors have known sizes.

use monitor_core::analysis::classify;
use monitor_core::automaton::{StateId, Target, Verdict};
use monitor_core::formula::families::{data_lines, generate, DWYER_PATTERNS, ROZIER_SAFETY};
use monitor_core::formula::{parse, Formula};
use monitor_core::translate::{BuildErrorKind, Builder, Config, Prefixes, Route, Verdicts};

mod common;

/// The monitor of `f` with the default configuration.
fn dfa_of(f: &Formula) -> monitor_core::automaton::BadPrefixDfa {
    common::dfa_of(f, Config::new())
}

#[test]
fn dwyer_patterns_match_spot() {
    // Spot (ltlfilt --safety, ltl2tgba -M -D) on genltl --dac-patterns:
    // 37 safety, 11 syntactic safety, 125 monitor states, at most 7 each.
    let mut safety = 0;
    let mut syntactic = 0;
    let mut states = 0;
    let mut max = 0;
    for line in data_lines(DWYER_PATTERNS) {
        let f = parse(line).unwrap();
        let c = classify(&f, &Config::new()).unwrap();
        if c.syntactic_safety {
            syntactic += 1;
            assert_eq!(c.safety, Some(true), "{f}");
        }
        if c.safety == Some(true) {
            safety += 1;
            states += c.monitor_states;
            max = max.max(c.monitor_states);
            assert_eq!(
                c.pathologic,
                Some(false),
                "{f}: no Dwyer pattern is pathologic"
            );
        } else {
            assert_eq!(
                c.pathologic,
                Some(true),
                "{f}: non-safety formulas count as pathologic"
            );
        }
    }
    assert_eq!((safety, syntactic, states, max), (37, 11, 125, 7));
}

#[test]
fn rozier_safety_set() {
    let formulas: Vec<Formula> = data_lines(ROZIER_SAFETY)
        .map(|l| parse(l).unwrap())
        .collect();
    assert_eq!(formulas.len(), 13);
    for (i, f) in formulas.iter().enumerate() {
        let c = classify(f, &Config::new()).unwrap();
        assert_eq!(c.safety, Some(true), "{i}: {f}");
        // Only PathologicallySafeModified is pathologic.
        assert_eq!(c.pathologic, Some(i == 7), "{i}: {f}");
    }
    // AccidentallySafe (6) is syntactically safe yet has non-informative
    // bad prefixes; IntentionallySafe (5) has none.
    let cfg = Config::new();
    let r6 = monitor_core::analysis::compare_informative(&formulas[6], &cfg).unwrap();
    assert!(r6.uninformative_bad_prefix.is_some());
    let r5 = monitor_core::analysis::compare_informative(&formulas[5], &cfg).unwrap();
    assert!(r5.uninformative_bad_prefix.is_none());
    // The pathologic formula and the non-syntactic ones.
    assert!(!classify(&formulas[7], &cfg).unwrap().syntactic_safety);
    assert!(!classify(&formulas[11], &cfg).unwrap().syntactic_safety);
}

#[test]
fn kupferman_vardi_pathologic_formula() {
    // Measured with Spot: syntactic 0, semantic 1.
    let f = parse("(G(q | FGp) & G(r | FG!p)) | Gq | Gr").unwrap();
    let c = classify(&f, &Config::new()).unwrap();
    assert_eq!(
        (c.safety, c.syntactic_safety, c.pathologic),
        (Some(true), false, Some(true))
    );
    let r = monitor_core::analysis::compare_informative(&f, &Config::new()).unwrap();
    // Its informative monitor misses violations entirely on some words.
    assert!(r.uninformative_bad_prefix.is_some());
}

/// The unique model of Rozier's n-bit counters: m marks the first bit of
/// each value, b the bits (least significant first), c the carry.
fn counter_model(n: usize, periods: usize) -> Vec<(bool, bool, bool)> {
    let mut word = Vec::new();
    for p in 0..periods << n {
        let v = p % (1 << n);
        let mut carry = true;
        for i in 0..n {
            let b = (v >> i) & 1 == 1;
            carry = carry && b;
            word.push((i == 0, b, carry));
        }
    }
    word
}

#[test]
fn counters_have_n_times_2_to_the_n_states_and_reject_any_deviation() {
    for family in [
        "rv-counter",
        "rv-counter-linear",
        "rv-counter-carry",
        "rv-counter-carry-linear",
    ] {
        for n in 1..=6usize {
            let f = generate(family, n).unwrap();
            let dfa = dfa_of(&f);
            assert_eq!(dfa.num_states(), n << n, "{family} {n}");
            let aps = dfa.alphabet().clone();
            let letter = |(m, b, c): (bool, bool, bool)| -> Vec<bool> {
                aps.names()
                    .iter()
                    .map(|p| match p.as_str() {
                        "m" => m,
                        "b" => b,
                        "c" => c,
                        other => panic!("unexpected proposition {other}"),
                    })
                    .collect()
            };
            let model = counter_model(n, 2);
            assert_eq!(
                dfa.run(model.iter().map(|&l| letter(l))),
                Verdict::Undecided,
                "{family} {n}"
            );
            // Flip one proposition at one position: rejected exactly there.
            let props: &[usize] = if family.contains("carry") {
                &[0, 1, 2]
            } else {
                &[0, 1]
            };
            for k in 0..model.len().min((3 * n) << n) {
                for &which in props {
                    let mut w: Vec<(bool, bool, bool)> = model[..=k].to_vec();
                    let l = &mut w[k];
                    match which {
                        0 => l.0 = !l.0,
                        1 => l.1 = !l.1,
                        _ => l.2 = !l.2,
                    }
                    let before = dfa.run(w[..k].iter().map(|&l| letter(l)));
                    let after = dfa.run(w.iter().map(|&l| letter(l)));
                    assert_eq!(before, Verdict::Undecided, "{family} {n} pos {k}");
                    assert_eq!(
                        after,
                        Verdict::Violated,
                        "{family} {n} pos {k} prop {which}"
                    );
                }
            }
        }
    }
}

#[test]
fn large_safety_properties_are_classified_without_products() {
    // The 12-bit counter: safety by the all-cycles-accepting check,
    // stutter-sensitivity on its monitor, guarantee on the negation's;
    // used to exceed the default state limit in the products.
    let f = generate("rv-counter", 10).unwrap();
    let c = classify(&f, &Config::new()).unwrap();
    assert_eq!(c.safety, Some(true));
    assert_eq!(c.stutter_invariant, Some(false));
    assert_eq!(c.guarantee, Some(false));
    assert!(c.pathologic.is_some());
    assert_eq!(c.monitor_states, 10 << 10);
}

#[test]
fn or_g_has_2_to_the_n_minus_1_live_states() {
    for n in 1..=10 {
        assert_eq!(
            dfa_of(&generate("or-g", n).unwrap()).num_states(),
            (1 << n) - 1,
            "or-g {n}"
        );
        // Rozier's E-bar, !(Fp1 & ... & Fpn), is the same language up to negation of the propositions.
        assert_eq!(
            dfa_of(&generate("not-and-f", n).unwrap()).num_states(),
            (1 << n) - 1,
            "not-and-f {n}"
        );
    }
}

#[test]
fn non_safety_families_are_recognized() {
    for family in [
        "and-f", "u-left", "u-right", "gh-q", "gh-r", "or-gf", "and-gf",
    ] {
        for n in 2..=3 {
            let f = generate(family, n).unwrap();
            let c = classify(&f, &Config::new()).unwrap();
            assert_eq!(c.safety, Some(false), "{family} {n}: {f}");
            assert!(c.non_safety_witness.is_some(), "{family} {n}");
        }
    }
    for family in ["or-g", "and-g", "r-left", "r-right", "not-and-f"] {
        let f = generate(family, 3).unwrap();
        assert_eq!(
            classify(&f, &Config::new()).unwrap().safety,
            Some(true),
            "{family}"
        );
    }
}

#[test]
fn forty_propositions_without_enumerating_letters() {
    let all: Vec<String> = (1..=40).map(|i| format!("p{i}")).collect();
    let text = format!("G(({}) -> X !p1) & G(p40 -> X(p39 | p38))", all.join(" & "));
    let f = parse(&text).unwrap();
    let dfa = dfa_of(&f);
    assert_eq!(dfa.alphabet().len(), 40);
    // start, {p39 | p38} pending, {!p1 & (p39 | p38)} pending
    assert_eq!(dfa.num_states(), 3);
    let roots: Vec<_> = dfa.states().map(|s| dfa.diagram(s)).collect();
    assert!(dfa.manager().count_nodes(&roots) < 200);
    let mut letter = vec![true; 40];
    assert_eq!(dfa.run([letter.clone()]), Verdict::Undecided);
    letter[38] = false;
    letter[37] = false;
    assert_eq!(dfa.run([vec![true; 40], letter]), Verdict::Violated);
}

#[test]
fn past_time_properties() {
    let cases = [
        // (formula, a good word, a bad word); letters are (a, b) bit masks.
        ("G(b -> Y a)", vec![0b01u64, 0b10], vec![0b10u64]),
        ("G(b -> O a)", vec![0b00, 0b01, 0b00, 0b10], vec![0b10]),
        // Every b is preceded by an a since the previous b.
        (
            "G(b -> Y(!b S a))",
            vec![0b01, 0b10, 0b01, 0b10],
            vec![0b01, 0b10, 0b10],
        ),
        ("G(b -> H a)", vec![0b01, 0b11], vec![0b01, 0b00, 0b10]),
    ];
    for (text, good, bad) in cases {
        let f = parse(text).unwrap();
        let dfa = dfa_of(&f);
        // The monitor orders propositions by first occurrence: remap.
        let order: Vec<usize> = dfa
            .alphabet()
            .names()
            .iter()
            .map(|n| if n == "a" { 0 } else { 1 })
            .collect();
        let letter =
            |l: &u64| -> Vec<bool> { order.iter().map(|&bit| (l >> bit) & 1 == 1).collect() };
        assert_eq!(
            dfa.run(good.iter().map(letter)),
            Verdict::Undecided,
            "{text}"
        );
        assert_eq!(dfa.run(bad.iter().map(letter)), Verdict::Violated, "{text}");
    }
    assert_eq!(dfa_of(&parse("G(b -> Y a)").unwrap()).num_states(), 2);
    assert_eq!(dfa_of(&parse("G(b -> O a)").unwrap()).num_states(), 2);
}

#[test]
fn shortest_words() {
    let dfa = dfa_of(&parse("G(req -> X ack)").unwrap());
    let aps = dfa.alphabet().clone();
    let word: Vec<String> = dfa
        .shortest_violation()
        .unwrap()
        .iter()
        .map(|g| g.display(&aps).to_string())
        .collect();
    assert_eq!(word, ["req", "!ack"]);
    assert!(dfa.access_word(dfa.start()).is_empty());
    assert_eq!(dfa.access_word(StateId::new(1)).len(), 1);
    // The counter's states lie on one cycle: the k-th is k letters away.
    let counter = dfa_of(&generate("rv-counter", 3).unwrap());
    let tree = counter.access_tree();
    let depth = |mut s: usize| {
        let mut d = 0;
        while let Some((p, _)) = &tree[s] {
            s = p.as_usize();
            d += 1;
        }
        d
    };
    let mut depths: Vec<usize> = (0..counter.num_states()).map(depth).collect();
    depths.sort_unstable();
    assert_eq!(depths, (0..24).collect::<Vec<_>>());
    assert!(dfa_of(&parse("G F a").unwrap())
        .shortest_violation()
        .is_none());
}

#[test]
fn three_valued_monitors() {
    let t = Builder::new()
        .configure(Config::new().verdicts(Verdicts::Three))
        .build("a U b")
        .unwrap();
    let dfa = t.dfa();
    assert_eq!(t.is_safety(), Some(false));
    assert_eq!(dfa.num_states(), 2);
    assert_eq!(dfa.run([0b01u64, 0b10]), Verdict::Satisfied);
    assert_eq!(dfa.run([0b01u64, 0b00]), Verdict::Violated);
    assert_eq!(dfa.run([0b01u64, 0b01]), Verdict::Undecided);
    // A valid formula is satisfied from the start, an unsatisfiable one violated.
    let three = |s| {
        Builder::new()
            .configure(Config::new().verdicts(Verdicts::Three))
            .build(s)
            .unwrap()
            .into_dfa()
    };
    assert_eq!(three("a | !a").verdict(StateId::new(0)), Verdict::Satisfied);
    assert_eq!(
        three("G a & F !a").verdict(StateId::new(0)),
        Verdict::Violated
    );
}

#[test]
fn informative_mode() {
    let f = parse("G(q | XGp) & G(r | XG!p)").unwrap();
    let exact = dfa_of(&f);
    let inf = Builder::new()
        .configure(Config::new().prefixes(Prefixes::Informative))
        .build_from_formula(&f)
        .unwrap()
        .into_dfa();
    let (word, e, i) = exact.first_difference(&inf).unwrap();
    assert_eq!((e, i), (Verdict::Violated, Verdict::Undecided));
    // !q & !r: p must hold forever from the next step, and also !p.
    assert_eq!(word.len(), 1);
}

#[test]
fn limits_and_errors() {
    let err = Builder::new()
        .configure(Config::new().max_states(Some(100)))
        .build_from_formula(&generate("or-g", 10).unwrap())
        .unwrap_err();
    assert!(
        matches!(err.kind(), BuildErrorKind::TooManyStates { limit: 100, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("exceeds the limit of 100 states"));
    let err = Builder::new().build("G(a -> O F b)").unwrap_err();
    assert!(matches!(err.kind(), BuildErrorKind::PastOverFuture { .. }));
    assert_eq!(
        err.to_string(),
        "past operators must apply to past-time formulas; `OFb` applies one to a future-time formula"
    );
    let err = Builder::new().build("G(a -> )").unwrap_err();
    assert_eq!(err.parse_error().unwrap().column(), 8);
}

#[test]
fn constants_and_trivial_monitors() {
    let f = dfa_of(&Formula::ff());
    assert_eq!(f.verdict(StateId::new(0)), Verdict::Violated);
    assert_eq!(f.step(StateId::new(0), &0u64), Target::Violation);
    let t = dfa_of(&Formula::tt());
    assert!(t.never_violates());
    assert_eq!(t.num_states(), 1);
    // The safety closure of a U b is a W b (Spot's man page example).
    let u = dfa_of(&parse("a U b").unwrap());
    let w = dfa_of(&parse("a W b").unwrap());
    assert!(u.first_difference(&w).is_none());
}

#[test]
fn bounded_response_stays_linear_in_the_bound() {
    // Regression: pending deadlines such as F[0:3] b and F[0:7] b used to
    // coexist in one tableau state, so G(a -> F[0:k] b) needed a Büchi
    // automaton exponential in k (k = 16 took half a second, 300 never
    // finished). The state limit turns a regression into a quick failure.
    // Both routes: the tableau's Büchi automaton, the derivatives' states.
    for k in [5usize, 50, 300] {
        for route in [Route::Tableau, Route::Derivatives] {
            let t = Builder::new()
                .configure(
                    Config::new()
                        .max_states(Some(20_000))
                        .check_safety(false)
                        .route(route),
                )
                .build(&format!("G(a -> F[0:{k}] b)"))
                .unwrap_or_else(|e| panic!("k = {k}: {e}"));
            assert_eq!(t.dfa().num_states(), k + 1, "k = {k}");
            assert_eq!(t.stats().route, route);
            let built = match route {
                Route::Tableau => t.stats().nba_states,
                _ => t.stats().subset_states,
            };
            assert!(built <= 2 * (k + 1), "k = {k}: {built} states ({route:?})");
        }
    }
    // X[n] p: n + 1 states counting up to the check, and one after it.
    assert_eq!(dfa_of(&parse("X[100] p").unwrap()).num_states(), 102);
}

#[test]
fn past_registers_do_not_multiply_the_derivatives() {
    // Regression (found by an adversarial review): each successor was
    // registered under every next memory of the past registers, not only
    // the memory its letters lead to (8x unreachable states here, 16x with
    // four `S`, which then exceeded the default limit).
    let f = "G((p0 S p1) -> X X p2) & G((p2 S p3) -> X X p4) & G((p4 S p5) -> X X p0)";
    let t = Builder::new()
        .configure(
            Config::new()
                .max_states(Some(70))
                .check_safety(false)
                .route(Route::Derivatives),
        )
        .build(f)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(t.stats().route, Route::Derivatives);
    assert_eq!(t.dfa().num_states(), 64);
    assert_eq!(t.stats().subset_states, 64);
}

#[test]
fn classify_on_a_budget_says_unknown_rather_than_wrong() {
    // Not safety (so pathologic by definition): with a budget too small to
    // decide safety, pathologic is unknown, not "no" (found by review).
    let f = parse("(b W c) & G F a").unwrap();
    let c = classify(&f, &Config::new().max_states(Some(5))).unwrap();
    assert_eq!((c.safety, c.pathologic), (None, None));
    let c = classify(&f, &Config::new()).unwrap();
    assert_eq!((c.safety, c.pathologic), (Some(false), Some(true)));
    // Syntactic safety once simplified (`F c -> F c` is true): decided
    // without the Büchi automaton the X chain would need.
    let xs: Vec<String> = (0..14).map(|i| format!("X[{i}] a")).collect();
    let f = parse(&format!(
        "G(({}) -> X[14] b) & (F c -> F c)",
        xs.join(" & ")
    ))
    .unwrap();
    let cfg = Config::new().max_states(Some(5000));
    let t = Builder::new()
        .configure(cfg.clone())
        .build_from_formula(&f)
        .unwrap();
    assert_eq!((t.dfa().num_states(), t.is_safety()), (15, Some(true)));
    let c = classify(&f, &cfg).unwrap();
    assert_eq!(
        (c.safety, c.guarantee, c.pathologic),
        (Some(true), Some(false), Some(false))
    );
}

#[test]
fn x_chain_premises_cost_what_their_monitor_costs() {
    // G((req & X req & … & X^{n-1} req) -> X^n gnt): the tableau needs
    // ~2^n Büchi states and subsets for n + 1 monitor states; the
    // derivatives build the n + 1 states, so a limit of 4 (n + 1) is
    // enough even for n = 32.
    for n in [4usize, 12, 32] {
        let premise: Vec<String> = (0..n).map(|i| format!("X[{i}] req")).collect();
        let f = format!("G(({}) -> X[{n}] gnt)", premise.join(" & "));
        let t = Builder::new()
            .configure(Config::new().max_states(Some(4 * (n + 1))))
            .build(&f)
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        assert_eq!(t.dfa().num_states(), n + 1, "n = {n}");
        assert_eq!(t.stats().route, Route::Derivatives);
        assert_eq!(t.is_safety(), Some(true));
        // The monitor counts consecutive requests: n of them, then no
        // grant, is the first violation.
        let req = 1u64 << t.dfa().alphabet().index("req").expect("req");
        let mut word = vec![req; n];
        assert_eq!(t.dfa().run(word.iter().copied()), Verdict::Undecided);
        word.push(0);
        assert_eq!(t.dfa().run(word.iter().copied()), Verdict::Violated);
    }
}

#[test]
fn explanations() {
    let dfa = dfa_of(&parse("G(req -> X ack)").unwrap());
    let aps = dfa.alphabet().clone();
    assert_eq!(
        dfa.allowed_guard(StateId::new(1))
            .unwrap()
            .display(&aps)
            .to_string(),
        "ack"
    );
    assert_eq!(
        dfa.violation_guard(StateId::new(1))
            .unwrap()
            .display(&aps)
            .to_string(),
        "!ack"
    );
    assert!(dfa.allowed_guard(dfa.start()).unwrap().is_true());
    assert!(dfa.violation_guard(dfa.start()).unwrap().is_false());
}

#[test]
fn deadlines_of_ten_thousand_steps_on_a_test_threads_stack() {
    // The derivative route is linear in states and memory for bounded
    // responses (the tableau route needs minutes from k = 3000 on); the
    // parser's bound allows it, and it fits a test thread's small stack
    // (in release builds, which the suite uses).
    let t = Builder::new()
        .configure(Config::new().check_safety(false))
        .build("G(a -> F[0:10000] b)")
        .unwrap();
    assert_eq!(t.dfa().num_states(), 10001);
    assert_eq!(t.stats().route, Route::Derivatives);
    assert!(t.stats().subset_states <= 10002);
}

#[test]
fn lazy_counters_reject_any_deviation_exactly_there() {
    use monitor_core::lazy::LazyMonitor;
    for family in ["rv-counter-carry", "rv-counter-carry-linear"] {
        for n in [1usize, 2, 3, 5, 10] {
            let f = generate(family, n).unwrap();
            let proto = LazyMonitor::new(&f, &Config::new()).unwrap();
            let names = proto.propositions().to_vec();
            let letter = |(m, b, c): (bool, bool, bool)| -> u64 {
                names.iter().enumerate().fold(0, |l, (i, p)| {
                    let v = match p.as_str() {
                        "m" => m,
                        "b" => b,
                        _ => c,
                    };
                    l | u64::from(v) << i
                })
            };
            let model = counter_model(n, 2);
            let mut m = proto.clone();
            for &l in &model {
                assert_eq!(m.step(letter(l)), Verdict::Undecided, "{family} {n}");
            }
            assert_eq!(m.inexact_from(), None, "{family} {n}");
            assert_eq!(m.stats().states_built, (n << n) as u64 + 1, "{family} {n}");
            // One monitor for every deviation (the cache is kept across
            // resets): each is rejected at its position.
            let mut m = proto.clone();
            for k in (0..model.len()).step_by(1 + n / 3) {
                for which in 0..3 {
                    m.reset();
                    for &l in &model[..k] {
                        assert_eq!(m.step(letter(l)), Verdict::Undecided);
                    }
                    let mut l = model[k];
                    match which {
                        0 => l.0 = !l.0,
                        1 => l.1 = !l.1,
                        _ => l.2 = !l.2,
                    }
                    assert_eq!(
                        m.step(letter(l)),
                        Verdict::Violated,
                        "{family} {n} pos {k} prop {which}"
                    );
                    assert_eq!(m.violation().unwrap().position, k as u64);
                }
            }
        }
    }
}

#[test]
fn one_state_with_exponential_transitions_stops_on_the_node_budget() {
    // Gp1 | ... | Gp24: the transitions of the first state alone have one
    // target per subset of the p that hold. The build stops with the usual
    // message (it used to fill the memory); the lazy monitor runs it.
    let f = generate("or-g", 24).unwrap();
    let err = Builder::new()
        .configure(Config::new().max_states(Some(2000)))
        .build_from_formula(&f)
        .unwrap_err();
    assert_eq!(err.state_limit(), Some(2000), "{err}");
    let mut m =
        monitor_core::lazy::LazyMonitor::new(&f, &Config::new().max_states(Some(2000))).unwrap();
    let all = (1u64 << 24) - 1;
    for k in 0..24 {
        let v = m.step(all & !(1 << k));
        assert_eq!(
            v,
            if k < 23 {
                Verdict::Undecided
            } else {
                Verdict::Violated
            }
        );
    }
    // The last disjunct left was the one whose proposition came last.
    let why = m.violation().unwrap();
    assert_eq!(why.letters, format!("!{}", m.propositions()[23]));
}

#[test]
fn classify_answers_what_fits_when_the_informative_monitor_does_not() {
    // The monitor has 33 states; the informative one is built from the
    // negation's finite-word tableau, far larger on the way: over the limit
    // its size and the answers needing it are unknown, not an error.
    let f = parse("(G p1 | G p2 | G p3 | G p4 | G p5) U q").unwrap();
    let c = classify(&f, &Config::new().max_states(Some(1000))).unwrap();
    assert_eq!(
        (
            c.monitor_states,
            c.informative_states,
            c.safety,
            c.pathologic
        ),
        (33, None, Some(false), Some(true))
    );
    let c = classify(&f, &Config::new().max_states(Some(10_000))).unwrap();
    assert_eq!(
        (c.informative_states, c.guarantee, c.safety),
        (Some(33), Some(false), Some(false))
    );
}
