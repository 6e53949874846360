//! Cross-checks of the translator against the brute-force evaluator on
//! random formulas and random infinite (lasso) words.
//!
//! The evaluator (`formula::eval`) shares no code with the automata. On a
//! lasso `w` the monitor's verdict is decided exactly (`run_lasso`), so:
//!
//! * `w ⊨ φ` implies the monitor never rejects `w` (no false alarm);
//! * for a safety `φ`, `w ⊭ φ` implies the monitor rejects `w`;
//! * every infinite path of the monitor that avoids the sink, read as a
//!   lasso, satisfies a safety `φ` (the monitor does not reject too late);
//! * a "not safety" answer comes with a witness that must violate `φ`
//!   without being rejected.
//!
//! Formulas come from the seeded generator, so a failure names a seed
//! that reproduces it, and from proptest strategies
//! (`monitor_core::strategy`), so that a failure shrinks to a small
//! formula and word.

use monitor_core::analysis::classify;
use monitor_core::automaton::{BadPrefixDfa, StateId, Target, Verdict};
use monitor_core::formula::eval::holds;
use monitor_core::formula::random::{
    random_psl, random_sere, with_fusion_powers, RandomLtl, SplitMix64,
};
use monitor_core::formula::{parse, Formula, Op};
use monitor_core::strategy;
use monitor_core::translate::stages::NbaStage;
use monitor_core::translate::{Builder, Config, Prefixes, Route, Verdicts};
use monitor_core::word::Lasso;
use proptest::prelude::*;

mod common;
use common::{random_lasso, CONSTANTS_UNDER_ABORT};

const APS: [&str; 3] = ["a", "b", "c"];

fn aps() -> Vec<String> {
    APS.iter().map(|s| s.to_string()).collect()
}

/// A monitor over the formula's own propositions, read with letters over
/// `APS`: remap bit `i` of a letter to the monitor's proposition order.
struct Monitor {
    dfa: BadPrefixDfa,
    bit: Vec<usize>,
}

impl Monitor {
    fn new(dfa: BadPrefixDfa) -> Monitor {
        let bit = dfa
            .alphabet()
            .names()
            .iter()
            .map(|n| APS.iter().position(|a| a == n).expect("known proposition"))
            .collect();
        Monitor { dfa, bit }
    }

    fn letter(&self, l: u64) -> u64 {
        self.bit
            .iter()
            .enumerate()
            .map(|(i, &b)| ((l >> b) & 1) << i)
            .fold(0, |a, x| a | x)
    }

    fn run_lasso(&self, w: &Lasso<u64>) -> Verdict {
        let m = Lasso::new(
            w.prefix.iter().map(|&l| self.letter(l)).collect(),
            w.cycle.iter().map(|&l| self.letter(l)).collect(),
        );
        self.dfa.run_lasso(&m)
    }

    fn step(&self, s: StateId, l: u64) -> Target {
        self.dfa.step(s, &self.letter(l))
    }

    /// A random lasso following the monitor and never rejected.
    fn random_path(&self, rng: &mut SplitMix64, len: usize) -> Option<Lasso<u64>> {
        let mut s = self.dfa.start();
        let mut seen: Vec<(StateId, usize)> = vec![(s, 0)];
        let mut word = Vec::new();
        for _ in 0..len {
            let ok: Vec<(u64, StateId)> = (0..1u64 << APS.len())
                .filter_map(|l| match self.step(s, l) {
                    Target::State(t) => Some((l, t)),
                    Target::Violation => None,
                })
                .collect();
            if ok.is_empty() {
                return None;
            }
            let (l, t) = ok[rng.below(ok.len() as u64) as usize];
            word.push(l);
            s = t;
            if let Some(&(_, at)) = seen.iter().find(|(q, _)| *q == s) {
                if rng.chance(1, 3) || word.len() + 1 >= len {
                    return Some(Lasso::new(word[..at].to_vec(), word[at..].to_vec()));
                }
            }
            seen.push((s, word.len()));
        }
        None
    }
}

fn build(f: &Formula, cfg: Config) -> Monitor {
    Monitor::new(common::dfa_of(f, cfg))
}

/// Repeats some letters of a lasso (a stuttering of the same word).
fn stutter(rng: &mut SplitMix64, w: &Lasso<u64>) -> Lasso<u64> {
    let dup = |rng: &mut SplitMix64, v: &[u64]| {
        let mut out = Vec::new();
        for &l in v {
            out.push(l);
            while rng.chance(1, 3) {
                out.push(l);
            }
        }
        out
    };
    Lasso::new(dup(rng, &w.prefix), dup(rng, &w.cycle))
}

struct Decided {
    safety: bool,
    guarantee: bool,
    stutter_invariant: bool,
    pathologic: bool,
    liveness: bool,
    monitor_states: usize,
}

/// Checks `f`; whether the derivative route applied to it.
fn check_formula(f: &Formula, seed: u64) -> bool {
    let ctx = format!("seed {seed}: {f}");
    let c = classify(f, &Config::new()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    // Small formulas are always decided.
    let cls = Decided {
        safety: c.safety.expect("safety decided"),
        guarantee: c.guarantee.expect("guarantee decided"),
        stutter_invariant: c.stutter_invariant.expect("stutter-invariance decided"),
        pathologic: c.pathologic.expect("pathologic decided"),
        liveness: c.liveness,
        monitor_states: c.monitor_states,
    };
    let exact = build(f, Config::new());
    let three = build(f, Config::new().verdicts(Verdicts::Three));
    let informative = build(f, Config::new().prefixes(Prefixes::Informative));
    let unsimplified = build(f, Config::new().simplify(false));
    assert_eq!(cls.monitor_states, exact.dfa.num_states(), "{ctx}");
    assert_eq!(
        cls.liveness,
        exact.dfa.never_violates() && exact.dfa.verdict(exact.dfa.start()) != Verdict::Violated,
        "{ctx}"
    );
    assert!(
        exact.dfa.first_difference(&unsimplified.dfa).is_none(),
        "{ctx}: simplification changed the monitor"
    );
    assert_eq!(
        exact.dfa.num_states(),
        unsimplified.dfa.num_states(),
        "{ctx}"
    );
    // The two routes give the same minimal monitor, two- and
    // three-valued.
    let derived = Builder::new()
        .configure(Config::new().check_safety(false).route(Route::Derivatives))
        .build_from_formula(f)
        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let by_derivatives = derived.stats().route == Route::Derivatives;
    for verdicts in [Verdicts::Two, Verdicts::Three] {
        for prefixes in [Prefixes::Exact, Prefixes::Informative] {
            let cfg = Config::new().verdicts(verdicts).prefixes(prefixes);
            let a = build(f, cfg.clone().route(Route::Tableau));
            let b = build(f, cfg.route(Route::Derivatives));
            assert_eq!(
                a.dfa.first_difference(&b.dfa),
                None,
                "{ctx}: the routes differ ({verdicts:?}, {prefixes:?})"
            );
            assert_eq!(
                a.dfa.num_states(),
                b.dfa.num_states(),
                "{ctx}: {verdicts:?}, {prefixes:?}"
            );
        }
    }
    // The classification does not depend on the route either.
    let t =
        classify(f, &Config::new().route(Route::Tableau)).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    assert_eq!(
        (t.safety, t.guarantee, t.stutter_invariant, t.pathologic),
        (c.safety, c.guarantee, c.stutter_invariant, c.pathologic),
        "{ctx}: classifications differ"
    );
    assert_eq!(
        (t.monitor_states, t.informative_states, t.liveness),
        (c.monitor_states, c.informative_states, c.liveness),
        "{ctx}"
    );

    // Exactness, structurally: every state can go on without rejecting,
    // and minimality: all states are pairwise distinguishable.
    if exact.dfa.verdict(exact.dfa.start()) != Verdict::Violated {
        for s in exact.dfa.states() {
            assert!(
                (0..1u64 << APS.len()).any(|l| exact.step(s, l) != Target::Violation),
                "{ctx}: state {s} is doomed but not rejected"
            );
        }
    }
    assert_pairwise_distinguishable(&exact, &ctx);

    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let aps = aps();
    for _ in 0..40 {
        let w = random_lasso(&mut rng, 1 << APS.len(), 4, 4);
        let sat = holds(f, &aps, &w);
        let v = exact.run_lasso(&w);
        if sat {
            assert_ne!(v, Verdict::Violated, "{ctx}: model {w:?} rejected");
        } else if cls.safety {
            assert_eq!(v, Verdict::Violated, "{ctx}: violation {w:?} not rejected");
        }
        if cls.liveness {
            assert_ne!(v, Verdict::Violated, "{ctx}: liveness but {w:?} rejected");
        }
        let v3 = three.run_lasso(&w);
        if sat {
            assert_ne!(v3, Verdict::Violated, "{ctx}: 3-valued rejects model {w:?}");
            if cls.guarantee {
                assert_eq!(
                    v3,
                    Verdict::Satisfied,
                    "{ctx}: guarantee model {w:?} never satisfied"
                );
            }
        } else {
            assert_ne!(
                v3,
                Verdict::Satisfied,
                "{ctx}: 3-valued accepts violation {w:?}"
            );
            if cls.safety {
                assert_eq!(
                    v3,
                    Verdict::Violated,
                    "{ctx}: 3-valued misses violation {w:?}"
                );
            }
        }
        assert_eq!(
            v3 == Verdict::Violated,
            v == Verdict::Violated,
            "{ctx}: {w:?}"
        );
        let vi = informative.run_lasso(&w);
        if vi == Verdict::Violated {
            assert_eq!(
                v,
                Verdict::Violated,
                "{ctx}: informative rejects a non-bad {w:?}"
            );
        }
        if !sat && cls.safety && !cls.pathologic {
            assert_eq!(
                vi,
                Verdict::Violated,
                "{ctx}: non-pathologic but {w:?} has no informative prefix"
            );
        }
        if cls.stutter_invariant {
            let w2 = stutter(&mut rng, &w);
            assert_eq!(
                holds(f, &aps, &w2),
                sat,
                "{ctx}: stutter-invariant but {w:?} / {w2:?} differ"
            );
        }
    }
    for _ in 0..10 {
        if let Some(w) = exact.random_path(&mut rng, 12) {
            if cls.safety {
                assert!(
                    holds(f, &aps, &w),
                    "{ctx}: safety but never-rejected {w:?} violates it"
                );
            }
        }
    }
    if let Some(w) = &c.non_safety_witness {
        assert!(!cls.safety);
        // The witness is over the formula's own propositions, in order.
        let own: Vec<String> = c.alphabet.names().to_vec();
        assert!(
            !holds(f, &own, w),
            "{ctx}: witness {w:?} satisfies the formula"
        );
        assert_ne!(
            exact.dfa.run_lasso(w),
            Verdict::Violated,
            "{ctx}: witness {w:?} is rejected"
        );
    } else {
        assert!(cls.safety, "{ctx}: not safety but no witness");
    }
    by_derivatives
}

// Index loops: this is a matrix over pairs of states.
#[allow(clippy::needless_range_loop)]
fn assert_pairwise_distinguishable(m: &Monitor, ctx: &str) {
    let n = m.dfa.num_states();
    let letters = 1u64 << APS.len();
    // distinct[s][t]: some word separates s and t (fixpoint iteration).
    let idx = |t: Target| match t {
        Target::State(s) => s.as_usize(),
        Target::Violation => n,
    };
    let mut distinct = vec![vec![false; n + 1]; n + 1];
    for s in 0..n {
        distinct[s][n] = true;
        distinct[n][s] = true;
    }
    loop {
        let mut changed = false;
        for s in 0..n {
            for t in 0..n {
                if s != t && !distinct[s][t] {
                    let (p, q) = (StateId::new(s as u32), StateId::new(t as u32));
                    let sep = (0..letters).any(|l| distinct[idx(m.step(p, l))][idx(m.step(q, l))])
                        || m.dfa.verdict(p) != m.dfa.verdict(q);
                    if sep {
                        distinct[s][t] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for s in 0..n {
        for t in 0..n {
            assert!(
                s == t || distinct[s][t],
                "{ctx}: states {s} and {t} are equivalent"
            );
        }
    }
}

#[test]
fn random_future_formulas_agree_with_the_evaluator() {
    let mut derived = 0;
    for seed in 0..400u64 {
        let size = 3 + (seed % 10) as usize;
        let f = RandomLtl::new(&APS, size).seed(seed).next_formula();
        derived += usize::from(check_formula(&f, seed));
    }
    // Most of these take the derivative route too (both are compared).
    assert!(derived >= 200, "{derived} by derivatives");
}

#[test]
fn random_past_formulas_agree_with_the_evaluator() {
    let mut derived = 0;
    for seed in 0..300u64 {
        let size = 3 + (seed % 10) as usize;
        let f = RandomLtl::new(&APS, size)
            .with_past()
            .seed(seed)
            .next_formula();
        derived += usize::from(check_formula(&f, seed));
    }
    // Most of these take the derivative route too (both are compared).
    assert!(derived >= 200, "{derived} by derivatives");
}

#[test]
fn safety_shaped_random_formulas_agree_with_the_evaluator() {
    // G(...) over past and X, the runtime-verification idiom.
    let mut derived = 0;
    for seed in 0..200u64 {
        let size = 3 + (seed % 8) as usize;
        let inner = RandomLtl::new(&APS, size)
            .with_past()
            .weight(Op::F, 0)
            .weight(Op::U, 0)
            .weight(Op::M, 0)
            .seed(seed)
            .next_formula();
        derived += usize::from(check_formula(&Formula::always(inner), seed));
    }
    // Most of these take the derivative route too (both are compared).
    assert!(derived >= 150, "{derived} by derivatives");
}

#[test]
fn random_psl_formulas_agree_with_the_evaluator() {
    let mut derived = 0;
    for seed in 0..300u64 {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x9e37_79b9));
        let f = random_psl(&mut rng, &APS, 3 + (seed % 8) as usize);
        derived += usize::from(check_formula(&f, seed));
    }
    // Most of these take the derivative route too (both are compared).
    assert!(derived >= 25, "{derived} by derivatives");
}

/// SVA's `first_match` in random PSL formulas (around some of their
/// SEREs, also under `abort`, whose cut reads the blocking prefixes with
/// ⊤ letters as ⊥), against the evaluator's own matcher.
#[test]
fn random_psl_formulas_with_first_match_agree_with_the_evaluator() {
    let mut kept = 0;
    for seed in 0..2000u64 {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x51_7cc1_b727));
        let f = random_psl(&mut rng, &APS, 3 + (seed % 8) as usize);
        let f = f.map_bottom_up(|g| {
            if g.op().is_sere() && rng.chance(1, 2) {
                Formula::first_match(g.clone())
            } else {
                g.clone()
            }
        });
        if f.subformulas_postorder()
            .iter()
            .any(|g| g.op() == Op::FirstMatch)
        {
            kept += 1;
            check_formula(&f, seed);
        }
    }
    assert!(kept >= 120, "{kept} formulas keep a first_match");
}

/// Spot's fusion power (`r[:*i..j]`, `[:+]`, `[:*]`, nested) around
/// some of the SEREs of random PSL formulas, also under `abort`, against
/// the evaluator, which reads it from its definition (copies fused one
/// after the other), not from the linear forms' shortcut.
#[test]
fn random_psl_formulas_with_fusion_powers_agree_with_the_evaluator() {
    let (mut kept, mut unbounded) = (0, 0);
    for seed in 0..800u64 {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x2545_f491_4f6c_dd1d));
        let f = random_psl(&mut rng, &APS, 3 + (seed % 8) as usize);
        let f = with_fusion_powers(&f, &mut rng);
        let powers: Vec<Formula> = f
            .subformulas_postorder()
            .into_iter()
            .filter(|g| g.op() == Op::FStar)
            .collect();
        if powers.is_empty() {
            continue;
        }
        kept += 1;
        unbounded += usize::from(
            powers
                .iter()
                .any(|g| g.fusion_power_bounds().expect("power").1.is_none()),
        );
        check_formula(&f, seed);
    }
    assert!(
        kept >= 150 && unbounded >= 80,
        "{kept} with a power, {unbounded} unbounded"
    );
}

/// The same in the hardware idiom, `always {r} |-> {s}`, with powers in
/// both SEREs.
#[test]
fn safety_shaped_psl_formulas_with_fusion_powers_agree_with_the_evaluator() {
    let mut kept = 0;
    for seed in 0..250u64 {
        let mut rng = SplitMix64::new(seed ^ 0xf5_7a72);
        let r = random_sere(&mut rng, &APS[..2], 1 + (seed % 5) as usize);
        let s = random_sere(&mut rng, &APS[..2], 1 + (seed % 4) as usize);
        let (r, s) = (
            with_fusion_powers(&r, &mut rng),
            with_fusion_powers(&s, &mut rng),
        );
        let end = if seed % 3 == 0 {
            Formula::econcat(s, Formula::tt())
        } else {
            Formula::closure(s)
        };
        let f = Formula::always(Formula::uconcat(r, end));
        if f.subformulas_postorder()
            .iter()
            .any(|g| g.op() == Op::FStar)
        {
            kept += 1;
            check_formula(&f, seed);
        }
    }
    assert!(kept >= 90, "{kept} with a power");
}

#[test]
fn constants_meet_the_cut_of_abort() {
    // A cut word goes on with letters satisfying every Boolean, `false`
    // included (IEEE 1850's ⊤), or none: `({true;false}!) abort b` is
    // `b | X b`, and `X false` is not `false` under abort.
    for (seed, f) in CONSTANTS_UNDER_ABORT.into_iter().enumerate() {
        check_formula(&monitor_core::formula::parse_psl(f).unwrap(), seed as u64);
    }
    let f = monitor_core::formula::parse_psl("({true; false}!) abort b").unwrap();
    let b_or_next_b = monitor_core::formula::parse("b | X b").unwrap();
    let (m, n) = (build(&f, Config::new()), build(&b_or_next_b, Config::new()));
    assert!(m.dfa.first_difference(&n.dfa).is_none(), "{f}");
}

#[test]
fn safety_shaped_psl_formulas_agree_with_the_evaluator() {
    // always {r} |-> {s}, the hardware idiom, with weak and strong ends.
    let mut derived = 0;
    for seed in 0..200u64 {
        let mut rng = SplitMix64::new(seed ^ 0xabcdef);
        let r = random_sere(&mut rng, &APS[..2], 1 + (seed % 5) as usize);
        let s = random_sere(&mut rng, &APS[..2], 1 + (seed % 4) as usize);
        let end = if seed % 3 == 0 {
            Formula::econcat(s, Formula::tt())
        } else {
            Formula::closure(s)
        };
        derived += usize::from(check_formula(
            &Formula::always(Formula::uconcat(r, end)),
            seed,
        ));
    }
    // SEREs: the tableau route only.
    assert_eq!(derived, 0);
}

/// The proptest cases: a fixed seed (a failure in CI is a failure here).
/// `op[lo:hi] f` nested as the parser expanded it before windows were
/// merged: `X^lo (f | X(f | … X f))` (`&` for `G`), whatever `f` is.
fn by_hand(op: Op, lo: u32, hi: u32, f: Formula) -> Formula {
    let mut body = f.clone();
    for _ in lo..hi {
        let later = Formula::next(body);
        body = if op == Op::F {
            Formula::or([f.clone(), later])
        } else {
            Formula::and([f.clone(), later])
        };
    }
    Formula::next_n(body, lo as usize)
}

fn proptest_config() -> ProptestConfig {
    ProptestConfig {
        cases: 300,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed),
        ..ProptestConfig::default()
    }
}

/// Whether everything `check_formula` asks of `classify` is decided
/// within the default state limit (strategy formulas can be larger than
/// the generator's).
fn decided(f: &Formula) -> bool {
    classify(f, &Config::new()).is_ok_and(|c| {
        c.safety.is_some()
            && c.guarantee.is_some()
            && c.stutter_invariant.is_some()
            && c.pathologic.is_some()
    })
}

proptest! {
    #![proptest_config(proptest_config())]

    /// The checks of `check_formula` on formulas of the proptest strategy:
    /// a failure shrinks to a smaller failing formula.
    #[test]
    fn strategy_formulas_agree_with_the_evaluator(
        f in strategy::ltl_with_past(&APS, 4),
        seed in any::<u64>(),
    ) {
        prop_assume!(decided(&f));
        check_formula(&f, seed);
    }

    /// Bounded windows of one operator nested directly are merged when
    /// built (`F[a:b] F[c:d] f` is `F[a+c:b+d] f`, and so for `G`;
    /// `Formula::bounded`): the merged formula holds on exactly the lassos
    /// where the windows nested apart (built here by hand, as the parser
    /// expanded them before) hold, on random operands (with `X` operands
    /// of their own, which the merge must not mistake for a window's),
    /// with windows of either operator at either place; the parser builds
    /// the merged formula, and its monitor is the nested one's.
    #[test]
    fn merged_bounded_windows_agree_with_nested_ones(
        f in strategy::ltl(&APS, 2),
        outer_f in any::<bool>(),
        inner_f in any::<bool>(),
        (a, b, c, d) in (0u32..3, 0u32..4, 0u32..3, 0u32..4),
        w in strategy::lasso(APS.len(), 5, 4),
    ) {
        let (outer, inner) = (
            if outer_f { Op::F } else { Op::G },
            if inner_f { Op::F } else { Op::G },
        );
        let (b, d) = (a + b, c + d);
        let nested = by_hand(outer, a, b, by_hand(inner, c, d, f.clone()));
        let merged = Formula::bounded(outer, a, b, Formula::bounded(inner, c, d, f.clone()));
        prop_assert_eq!(
            holds(&merged, &aps(), &w),
            holds(&nested, &aps(), &w),
            "{} against {} on {:?}", merged, nested, w
        );
        let name = |op: Op| if op == Op::F { "F" } else { "G" };
        let text = format!("{}[{a}:{b}] {}[{c}:{d}] ({})", name(outer), name(inner), f.to_spot());
        prop_assert_eq!(&parse(&text).unwrap(), &merged, "{}", text);
        // (A constant operand makes the inner window an `X` chain, which
        // is not merged: equivalent, not the same formula.)
        if outer == inner && b > a && d > c && !f.is_true() && !f.is_false() {
            prop_assert_eq!(&merged, &Formula::bounded(outer, a + c, b + d, f.clone()));
        }
        let (m, n) = (build(&merged, Config::new()), build(&nested, Config::new()));
        prop_assert_eq!(m.dfa.num_states(), n.dfa.num_states(), "{}", text);
        prop_assert_eq!(m.run_lasso(&w), n.run_lasso(&w), "{} on {:?}", text, w);
    }

    /// The exact monitor's verdict on a lasso against the evaluator, with
    /// both the formula and the word shrinking: never a false alarm, and
    /// every violation of a safety formula rejected.
    #[test]
    fn monitor_verdicts_on_shrinking_lassos(
        f in strategy::ltl_with_past(&APS, 4),
        w in strategy::lasso(APS.len(), 4, 3),
    ) {
        let c = classify(&f, &Config::new());
        prop_assume!(matches!(&c, Ok(c) if c.safety.is_some()));
        let safety = c.unwrap().safety == Some(true);
        let m = build(&f, Config::new());
        let rejected = m.run_lasso(&w) == Verdict::Violated;
        let holds = holds(&f, &aps(), &w);
        prop_assert!(!(holds && rejected), "{} rejects {:?}, a model", f, w);
        prop_assert!(!safety || holds || rejected, "{} misses the violation {:?}", f, w);
    }
}

/// The stages one at a time (tableau, subset construction, minimization)
/// give the Builder's monitor, whichever route the Builder took, and the
/// automaton before minimization rejects the same words.
#[test]
fn stages_one_at_a_time_give_the_builders_monitor() {
    for seed in 0..300u64 {
        let f = RandomLtl::new(&APS, 3 + (seed % 10) as usize)
            .with_past()
            .seed(seed)
            .next_formula();
        let ctx = format!("seed {seed}: {f}");
        let built = build(&f, Config::new()).dfa;
        let nba = NbaStage::build(&f, &Config::new()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let subsets = nba.determinize().unwrap_or_else(|e| panic!("{ctx}: {e}"));
        let unminimized = subsets.to_dfa();
        assert!(subsets.num_states() >= built.num_states(), "{ctx}");
        let dfa = subsets.minimize();
        assert_eq!(dfa.num_states(), built.num_states(), "{ctx}");
        assert!(dfa.first_difference(&built).is_none(), "{ctx}");
        assert!(unminimized.first_difference(&built).is_none(), "{ctx}");
    }
    // A past operator over a future formula is refused at the first stage.
    let f = monitor_core::formula::parse("O(F p)").unwrap();
    assert!(NbaStage::build(&f, &Config::new()).is_err());
}
