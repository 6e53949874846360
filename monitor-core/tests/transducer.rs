//! The transducer, searched by brute force for executions, accepts exactly
//! the words the informative monitor rejects: the informative bad
//! prefixes. Two independent constructions of the same language.

use monitor_core::analysis::transducer;
use monitor_core::automaton::{TExpr, Transducer, Verdict};
use monitor_core::formula::random::RandomLtl;
use monitor_core::formula::{parse, Formula};
use monitor_core::translate::{Builder, Config, Prefixes};

/// One position of an execution: the letter and the variables.
#[derive(Clone, Copy)]
struct Pos {
    letter: u64,
    vars: u64,
}

fn eval(e: &TExpr, now: Pos, next: Option<Pos>) -> bool {
    match e {
        TExpr::Const(b) => *b,
        TExpr::Ap(i) => (now.letter >> i) & 1 == 1,
        TExpr::Var(i) => (now.vars >> i) & 1 == 1,
        TExpr::Next(x) => eval(x, next.expect("next() only in trans"), None),
        TExpr::Not(x) => !eval(x, now, next),
        TExpr::And(xs) => xs.iter().all(|x| eval(x, now, next)),
        TExpr::Or(xs) => xs.iter().any(|x| eval(x, now, next)),
        TExpr::Iff(a, b) => eval(a, now, next) == eval(b, now, next),
    }
}

/// Whether some execution reads `word` and ends in a final state.
fn accepts(t: &Transducer, word: &[u64]) -> bool {
    fn extend(t: &Transducer, word: &[u64], path: &mut Vec<Pos>) -> bool {
        let i = path.len();
        if i == word.len() {
            let last = *path.last().expect("non-empty word");
            return t.finals.iter().all(|f| eval(f, last, None));
        }
        'choice: for vars in 0..1u64 << t.vars.len() {
            let now = Pos {
                letter: word[i],
                vars,
            };
            // Registers: the initial value, then the update.
            for (k, v) in t.vars.iter().enumerate() {
                if let Some((init, update)) = &v.register {
                    let value = (vars >> k) & 1 == 1;
                    let expected = match path.last() {
                        None => *init,
                        Some(&prev) => eval(update, prev, None),
                    };
                    if value != expected {
                        continue 'choice;
                    }
                }
            }
            match path.last() {
                None if !eval(&t.init, now, None) => continue,
                Some(&prev) if !t.trans.iter().all(|c| eval(c, prev, Some(now))) => continue,
                _ => {}
            }
            path.push(now);
            if extend(t, word, path) {
                return true;
            }
            path.pop();
        }
        false
    }
    extend(t, word, &mut Vec::new())
}

fn check(f: &Formula, ctx: &str) -> bool {
    let t = transducer(f).unwrap();
    if t.vars.len() > 5 {
        return false;
    }
    let inf = Builder::new()
        .configure(
            Config::new()
                .prefixes(Prefixes::Informative)
                .check_safety(false),
        )
        .build_from_formula(f)
        .unwrap()
        .into_dfa();
    // Letters over the formula's own propositions (at most 2 here).
    let n_aps = t.alphabet.len();
    let letters = 1u64 << n_aps;
    for len in 1..=3u32 {
        for code in 0..letters.pow(len) {
            let word: Vec<u64> = (0..len)
                .map(|i| (code / letters.pow(i)) % letters)
                .collect();
            let by_dfa = inf.run(word.iter().copied()) == Verdict::Violated;
            assert_eq!(accepts(&t, &word), by_dfa, "{ctx}: word {word:?}");
        }
    }
    true
}

#[test]
fn known_transducers() {
    for f in [
        "G p",
        "G(a -> X b)",
        "a U b",
        "a W b",
        "G(a -> Y b)",
        "G(a -> (b S c))",
        "F G a",
        "X X a",
    ] {
        assert!(check(&parse(f).unwrap(), f));
    }
}

#[test]
fn random_transducers_accept_the_informative_bad_prefixes() {
    let mut checked = 0;
    for seed in 0..400u64 {
        let f = RandomLtl::new(&["a", "b"], 2 + (seed % 6) as usize)
            .with_past()
            .seed(seed)
            .next_formula();
        if check(&f, &format!("seed {seed}: {f}")) {
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} formulas small enough");
}

#[test]
fn known_psl_transducers() {
    for f in [
        "{a; b} |-> b",
        "always {a} |=> {b}",
        "{a[*]; b}!",
        "{a; b[*]}",
        "!{a; b}",
        "never {a; b}",
        "{a:b} |-> a",
        "{a[*2]}!",
        // A cut word goes on with letters that satisfy `false` (⊤) or
        // nothing (⊥): the residual `false` keeps its meaning there.
        "({true; false}!) abort b",
        "!(({true; false}!) abort b)",
        "({true; false} |-> a) abort b",
        "!(({true; false} |-> a) abort b)",
        "(next false) abort b",
        "!((next true) abort b)",
        "(next true) abort b",
        "!((next next true) abort b)",
        "!((a until! next true) abort b)",
        "(a until! false) abort b",
    ] {
        let p = monitor_core::formula::parse_psl(f).unwrap();
        assert!(check(&p, f), "{f}: too many variables for the brute force");
    }
}

#[test]
fn random_psl_transducers_accept_the_informative_bad_prefixes() {
    use monitor_core::formula::random::{random_psl, SplitMix64};
    let mut checked = 0;
    for seed in 0..600u64 {
        let mut rng = SplitMix64::new(seed ^ 0x7777);
        let f = random_psl(&mut rng, &["a", "b"], 2 + (seed % 5) as usize);
        if !f.is_psl() {
            continue;
        }
        if check(&f, &format!("seed {seed}: {f}")) {
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} PSL formulas small enough");
}
