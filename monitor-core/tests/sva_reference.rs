//! The SVA front end (`formula::sva::parse_sva`) and the monitors built
//! from it, against the independent oracle of `tests/sva_oracle` (IEEE
//! 1800-2017 Annex F, evaluated on lassos; it shares only the text syntax
//! with the front end). For each random property, printed both fully
//! parenthesized and with the fewest parentheses of Table 16-3:
//!
//! * both texts parse, to formulas with the same monitor;
//! * on random lassos: a model is never rejected (exact and informative
//!   monitors); a violation of a safety property is rejected by the exact
//!   monitor, and by the informative one unless the property is
//!   pathologic; the informative monitor rejects only what the exact one
//!   does;
//! * a random path of the exact monitor that is never rejected satisfies
//!   a safety property (no rejection too late).

mod sva_oracle;

use monitor_core::analysis::classify;
use monitor_core::automaton::{BadPrefixDfa, StateId, Target, Verdict};
use monitor_core::formula::random::SplitMix64;
use monitor_core::formula::sva::parse_sva;
use monitor_core::formula::{Formula, Op};
use monitor_core::translate::{Builder, Config, Prefixes};
use monitor_core::word::Lasso;
use proptest::prelude::*;
use sva_oracle::random::{lasso_strategy, prop_strategy};
use sva_oracle::*;

const APS: [&str; 3] = ["a", "b", "c"];

/// Everything the oracle knows but `disable iff`, which `parse_sva`
/// leaves to `parse_sva_directive` (the reset of an assertion, beside its
/// formula).
fn config() -> GenConfig {
    GenConfig {
        disable: false,
        ..GenConfig::full()
    }
}

/// A monitor read with letters over `APS` (bit `i` is `APS[i]`).
struct Monitor {
    dfa: BadPrefixDfa,
    bit: Vec<usize>,
}

impl Monitor {
    fn new(f: &Formula, cfg: Config, ctx: &str) -> Monitor {
        let dfa = Builder::new()
            .configure(cfg.check_safety(false))
            .build_from_formula(f)
            .unwrap_or_else(|e| panic!("{ctx}: {e}"))
            .into_dfa();
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
            .fold(0, |m, (i, &b)| m | ((l >> b) & 1) << i)
    }

    fn run(&self, w: &Lasso<u64>) -> Verdict {
        self.dfa.run_lasso(&Lasso::new(
            w.prefix.iter().map(|&l| self.letter(l)).collect(),
            w.cycle.iter().map(|&l| self.letter(l)).collect(),
        ))
    }

    /// A random never-rejected path of the monitor, closed into a lasso.
    fn random_path(&self, rng: &mut SplitMix64, len: usize) -> Option<Lasso<u64>> {
        let mut s = self.dfa.start();
        let mut seen: Vec<StateId> = vec![s];
        let mut word = Vec::new();
        for _ in 0..len {
            let ok: Vec<(u64, StateId)> = (0..1u64 << APS.len())
                .filter_map(|l| match self.dfa.step(s, &self.letter(l)) {
                    Target::State(t) => Some((l, t)),
                    Target::Violation => None,
                })
                .collect();
            let &(l, t) = ok.get(rng.below(ok.len().max(1) as u64) as usize)?;
            word.push(l);
            s = t;
            if let Some(at) = seen.iter().position(|&q| q == s) {
                if rng.chance(1, 3) || word.len() + 1 >= len {
                    return Some(Lasso::new(word[..at].to_vec(), word[at..].to_vec()));
                }
            }
            seen.push(s);
        }
        None
    }
}

fn parse(text: &str, ctx: &str) -> Formula {
    parse_sva(text).unwrap_or_else(|e| panic!("{ctx}: `{text}` does not parse: {e}"))
}

/// Checks `p` on `words`; panics with `ctx` on a disagreement.
fn check(p: &Prop, words: &[Lasso<u64>], seed: u64, ctx: &str) {
    let (full, minimal) = (sva(p, Parens::Full), sva(p, Parens::Minimal));
    let ctx = format!("{ctx}: {minimal}");
    let f = parse(&full, &ctx);
    let g = parse(&minimal, &ctx);
    let cls = classify(&f, &Config::new()).unwrap_or_else(|e| panic!("{ctx}: {e}"));
    let safety = cls
        .safety
        .unwrap_or_else(|| panic!("{ctx}: safety undecided"));
    let pathologic = cls.pathologic == Some(true);
    let exact = Monitor::new(&f, Config::new(), &ctx);
    let other = Monitor::new(&g, Config::new(), &ctx);
    assert!(
        exact.dfa.first_difference(&other.dfa).is_none(),
        "{ctx}: the two printings differ (full: {full})"
    );
    let informative = Monitor::new(&f, Config::new().prefixes(Prefixes::Informative), &ctx);
    let mut oracle = Oracle::new(p);
    for w in words {
        let sat = oracle.holds(w);
        let (v, vi) = (exact.run(w), informative.run(w));
        if sat {
            assert_ne!(v, Verdict::Violated, "{ctx}: model {w:?} rejected");
            assert_ne!(
                vi,
                Verdict::Violated,
                "{ctx}: model {w:?} rejected (informative)"
            );
        } else if safety {
            assert_eq!(v, Verdict::Violated, "{ctx}: violation {w:?} not rejected");
            if !pathologic {
                assert_eq!(
                    vi,
                    Verdict::Violated,
                    "{ctx}: violation {w:?} not rejected (informative)"
                );
            }
        }
        if vi == Verdict::Violated {
            assert_eq!(
                v,
                Verdict::Violated,
                "{ctx}: informative rejects {w:?} alone"
            );
        }
    }
    if safety {
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        for _ in 0..8 {
            if let Some(w) = exact.random_path(&mut rng, 12) {
                assert!(oracle.holds(&w), "{ctx}: never-rejected {w:?} violates it");
            }
        }
    }
}

/// Whether the formula of `p` keeps a `first_match` (the constructor
/// drops those that change nothing: of a Boolean, of a SERE of one
/// length, at the top of a sequence property).
fn keeps_first_match(p: &Prop) -> bool {
    parse(&sva(p, Parens::Full), "first_match count")
        .subformulas_postorder()
        .iter()
        .any(|g| g.op() == Op::FirstMatch)
}

#[test]
fn random_sva_properties_agree_with_the_oracle() {
    let mut first_matches = 0;
    for seed in 0..3000u64 {
        let mut g = Gen::new(seed, config());
        let p = g.assertion(1 + (seed % 3) as u32);
        let words: Vec<_> = (0..30).map(|_| g.lasso(4, 4)).collect();
        check(&p, &words, seed, &format!("seed {seed}"));
        first_matches += usize::from(keeps_first_match(&p));
    }
    // Few, as the generator draws `first_match` rarely and most of its
    // draws change nothing; the next test is about it.
    assert!(
        first_matches >= 10,
        "{first_matches} of 3000 properties keep a first_match"
    );
}

/// `first_match` where it changes the property (antecedents, inside
/// longer sequences): 1,000 properties, against the oracle.
#[test]
fn random_first_match_properties_agree_with_the_oracle() {
    let mut first_matches = 0;
    for seed in 0..1000u64 {
        let mut g = Gen::new(seed ^ 0xf1257, config());
        let p = g.first_match_assertion((seed % 2) as u32);
        let words: Vec<_> = (0..30).map(|_| g.lasso(4, 4)).collect();
        check(&p, &words, seed, &format!("first_match seed {seed}"));
        first_matches += usize::from(keeps_first_match(&p));
    }
    assert!(
        first_matches >= 500,
        "{first_matches} of 1000 properties keep a first_match"
    );
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 500,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed),
        ..ProptestConfig::default()
    })]

    /// The same checks on shrinking properties and words.
    #[test]
    fn shrinking_sva_properties_agree_with_the_oracle(
        p in prop_strategy(&config()),
        words in proptest::collection::vec(lasso_strategy(3, 4, 4), 8),
        seed in any::<u64>(),
    ) {
        check(&p, &words, seed, "proptest");
    }
}
