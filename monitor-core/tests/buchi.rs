//! Büchi automata (`Builder::build_buchi`, the never claims of properties
//! that are not safety) against the brute-force evaluator: on random
//! formulas of every class, LTL with past and PSL, the automaton accepts a
//! lasso word iff the formula holds on it. The lassos are random, plus
//! random accepting runs of the automaton itself read as lassos (so that
//! accepted words are not rare).

use monitor_core::analysis::classify;
use monitor_core::automaton::{BuchiAutomaton, StateId};
use monitor_core::formula::eval::holds;
use monitor_core::formula::random::{random_psl, RandomLtl, SplitMix64};
use monitor_core::formula::{parse_psl, Formula};
use monitor_core::translate::{Builder, Config};
use monitor_core::word::Lasso;

mod common;
use common::{random_lasso, CONSTANTS_UNDER_ABORT};

const APS: [&str; 3] = ["a", "b", "c"];

/// A random run of `a` that closes a loop, read as a lasso: often an
/// accepted word (when the loop passes an accepting state), always one
/// the automaton can read.
fn random_run(rng: &mut SplitMix64, a: &BuchiAutomaton, letters: u64) -> Option<Lasso<u64>> {
    let mut s = a.start()?;
    let mut seen = vec![(s, 0usize)];
    let mut word = Vec::new();
    for _ in 0..12 {
        let moves: Vec<(u64, StateId)> = (0..letters)
            .flat_map(|l| {
                a.edges(s)
                    .iter()
                    .filter(move |e| e.guard.eval(&l))
                    .map(move |e| (l, e.target))
            })
            .collect();
        let (l, t) = moves[rng.below(moves.len() as u64) as usize];
        word.push(l);
        s = t;
        if let Some(&(_, at)) = seen.iter().find(|(q, _)| *q == s) {
            if rng.chance(1, 2) {
                return Some(Lasso::new(word[..at].to_vec(), word[at..].to_vec()));
            }
        }
        seen.push((s, word.len()));
    }
    None
}

/// Checks the automaton of `f` on random words; returns how many of them
/// it accepted and rejected.
fn check(f: &Formula, seed: u64) -> (usize, usize) {
    let a = Builder::new()
        .build_buchi_from_formula(f)
        .unwrap_or_else(|e| panic!("seed {seed}: {f}: {e}"));
    let aps: Vec<String> = a.alphabet().names().to_vec();
    let letters = 1u64 << aps.len();
    let mut rng = SplitMix64::new(seed ^ 0x5eed);
    let (mut yes, mut no) = (0, 0);
    for k in 0..60 {
        let w = if k % 2 == 0 {
            match random_run(&mut rng, &a, letters) {
                Some(w) => w,
                None => continue,
            }
        } else {
            random_lasso(&mut rng, letters, 3, 4)
        };
        let expected = holds(f, &aps, &w);
        assert_eq!(
            a.accepts(&w),
            expected,
            "seed {seed}: {f} on {w:?} ({} states)",
            a.num_states()
        );
        if expected {
            yes += 1;
        } else {
            no += 1;
        }
    }
    // An automaton with no state has an empty language, and one with
    // only accepting states a safety one.
    (yes, no)
}

#[test]
fn random_ltl_formulas_agree_with_the_evaluator() {
    let (mut yes, mut no) = (0, 0);
    for seed in 0..3000u64 {
        let size = 3 + (seed % 18) as usize;
        let f = RandomLtl::new(&APS, size).seed(seed).next_formula();
        let (y, n) = check(&f, seed);
        yes += y;
        no += n;
    }
    assert!(yes > 20000 && no > 20000, "{yes} accepted, {no} rejected");
}

#[test]
fn random_past_formulas_agree_with_the_evaluator() {
    for seed in 0..1500u64 {
        let size = 3 + (seed % 16) as usize;
        let f = RandomLtl::new(&APS, size)
            .with_past()
            .seed(seed)
            .next_formula();
        check(&f, seed);
    }
}

#[test]
fn random_psl_formulas_agree_with_the_evaluator() {
    for seed in 0..2400u64 {
        let mut rng = SplitMix64::new(seed.wrapping_mul(0x9e37_79b9));
        let f = random_psl(&mut rng, &APS, 3 + (seed % 14) as usize);
        check(&f, seed);
    }
}

#[test]
fn constants_meet_the_cut_of_abort() {
    let f = parse_psl(CONSTANTS_UNDER_ABORT[0]).unwrap();
    let a = Builder::new().build_buchi_from_formula(&f).unwrap();
    let names = a.alphabet().names().to_vec();
    // On !b b b …, the cut at the b leaves !b ⊤ ⊤ …, where `true;false`
    // matches.
    let late_cut = Lasso::new(vec![0u64], vec![1]);
    assert!(holds(&f, &names, &late_cut) && a.accepts(&late_cut), "{f}");
    for (seed, f) in CONSTANTS_UNDER_ABORT.iter().enumerate() {
        check(&parse_psl(f).unwrap(), seed as u64);
    }
}

#[test]
fn sere_eventualities_under_always_are_owed() {
    // `G({a[+]} <>-> b)` fails on a a a … (b never ends a run of a), and
    // no prefix shows it: not a safety property. The tableau used to drop
    // each position's pending instance as implied by the next position's,
    // leaving the breakpoint nothing owed.
    let f = Formula::always(Formula::econcat(
        Formula::star(Formula::ap("a"), 1, None),
        Formula::ap("b"),
    ));
    let a = Builder::new().build_buchi_from_formula(&f).unwrap();
    let names = a.alphabet().names().to_vec();
    let bit = |n: &str| 1u64 << names.iter().position(|x| x == n).unwrap();
    let all_a = Lasso::new(vec![], vec![bit("a")]);
    let served = Lasso::new(vec![], vec![bit("a") | bit("b")]);
    assert!(!holds(&f, &names, &all_a) && !a.accepts(&all_a), "{f}");
    assert!(holds(&f, &names, &served) && a.accepts(&served), "{f}");
    let c = classify(&f, &Config::new()).unwrap();
    assert_eq!(c.safety, Some(false), "{f}");
}

#[test]
fn liveness_claims_are_no_larger_than_spins() {
    // The negations of properties Spin users write, and the number of
    // states of the claim `spin -f` (Spin 6.5) builds for each.
    for (f, spin) in [
        ("!G(req -> F ack)", 2),
        ("!GF progress", 2),
        ("!(GF a -> GF b)", 3),
        ("!F G a", 2),
        ("!(p U q)", 3),
    ] {
        let a = Builder::new().build_buchi(f).unwrap();
        assert!(a.num_states() <= spin, "{f}: {} states", a.num_states());
    }
}
