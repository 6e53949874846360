//! PSL: the LTL subset agrees with its LTL spelling, SERE properties agree
//! with equivalent LTL ones, and the parser survives anything.

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::{parse, parse_psl, Formula};
use monitor_core::translate::{Builder, Config, Verdicts};
use proptest::prelude::*;

fn monitor(f: &Formula) -> BadPrefixDfa {
    Builder::new()
        .configure(Config::new().verdicts(Verdicts::Three).check_safety(false))
        .build_from_formula(f)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
        .into_dfa()
}

#[test]
fn psl_and_ltl_spellings_give_the_same_monitor() {
    let pairs = [
        // The LTL subset.
        ("always (req -> next ack)", "G(req -> X ack)"),
        ("always (a -> (b until! c))", "G(a -> (b U c))"),
        ("always (a -> (b until c))", "G(a -> (b W c))"),
        ("never (a && b)", "G!(a & b)"),
        ("a before b", "!b W (a & !b)"),
        ("always (a -> next_a[1:3] b)", "G(a -> X G[0:2] b)"),
        ("always (a -> next_e[1:3] b)", "G(a -> X F[0:2] b)"),
        ("always (a -> next_event(b)(c))", "G(a -> (!b W (b & c)))"),
        ("always (a -> next_event!(b)(c))", "G(a -> (!b U (b & c)))"),
        ("(always a) abort r", "a W r"),
        ("always ((a -> next b) abort r)", "G(!a | r | X(b | r))"),
        (
            "always ((a -> next (b until! c)) abort r)",
            "G(!a | r | X((b | r) U (c | r)))",
        ),
        ("always ({a; b} |-> c abort r)", "G(!a | X(!b | c | r))"),
        ("always (rose(a) -> b)", "G((a & !Y a) -> b)"),
        // SEREs with an LTL equivalent.
        ("always {a} |=> {b}", "G(a -> X b)"),
        ("always {a; b} |-> c", "G(a -> X(b -> c))"),
        ("always {req} |=> {[*0:2]; ack}", "G(req -> X F[0:2] ack)"),
        ("always {a[*2]} |-> b", "G((a & X a) -> X b)"),
        ("never {a; b}", "G!(a & X b)"),
        ("{a[*]; b}!", "a U b"),
        ("{a[*]; b}", "a W b"),
        ("{a[+]}", "a"),
        ("{a[->2]} |-> c", "!a W (a & X(!a W (a & c)))"),
        ("always {a; [*]; b}!", "G(a & X F b)"),
        ("always {a:b}!", "G(a & b)"),
        ("always ({a} |-> {b} |-> c)", "G(a -> (b -> c))"),
        (
            "always {a} |=> {b[=1]; c}",
            "G(a -> X(!b W (b & X(!b W c))))",
        ),
    ];
    for (psl, ltl) in pairs {
        let p = parse_psl(psl).unwrap_or_else(|e| panic!("{psl}: {e}"));
        let l = parse(ltl).unwrap();
        let (mp, ml) = (monitor(&p), monitor(&l));
        assert!(
            mp.first_difference(&ml).is_none(),
            "{psl} (read as {p}) and {ltl} differ on {:?}",
            mp.first_difference(&ml)
        );
        assert_eq!(mp.num_states(), ml.num_states(), "{psl}");
    }
}

#[test]
fn weak_closure_completes_with_top_letters() {
    // IEEE 1850: `{b[*]; false}` holds while b holds, since letters that
    // satisfy every Boolean (even false) may complete the prefix.
    let f = parse_psl("{b[*]; false}").unwrap();
    assert!(monitor(&f)
        .first_difference(&monitor(&parse("G b").unwrap()))
        .is_none());
    // Its strong version has no match at all.
    let g = parse_psl("{b[*]; false}!").unwrap();
    assert!(monitor(&g)
        .first_difference(&monitor(&Formula::ff()))
        .is_none());
}

fn psl_soup() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "a",
        "b",
        "req",
        "ack",
        "state == 2",
        "sig[3]",
        "true",
        "1'b0",
        "4'd15",
        "2'b1x",
        "grant[1:0]",
        "==",
        "!=",
        ">=",
        "0",
        "!",
        "~",
        "&",
        "&&",
        "|",
        "||",
        "->",
        "<->",
        "|->",
        "|=>",
        "{",
        "}",
        "(",
        ")",
        ";",
        ":",
        "[*",
        "[*]",
        "[+]",
        "[=",
        "[->",
        "]",
        "2",
        "1:3",
        "0:inf",
        "..",
        "always",
        "never",
        "eventually!",
        "next",
        "next!",
        "next[2]",
        "next_a[1:2]",
        "next_e",
        "next_event",
        "until",
        "until!",
        "until_",
        "before",
        "before!_",
        "abort",
        "within",
        "X",
        "G",
        "F",
        "U",
        "W",
        "@",
        "rose",
        "prev",
        " ",
        "\n",
        "--",
        "/*",
        "*/",
        "assert",
        ";",
        "é",
        "AG",
        "union",
    ]);
    prop::collection::vec(tokens, 0..24).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,40}") {
        if let Err(e) = parse_psl(&s) {
            prop_assert!(e.offset() <= s.len() && s.is_char_boundary(e.offset()));
            prop_assert!(e.to_string().ends_with('^'));
        }
    }

    #[test]
    fn token_soups_never_panic_and_build(s in psl_soup()) {
        match parse_psl(&s) {
            Err(e) => {
                prop_assert!(e.offset() <= s.len());
                prop_assert_eq!(e.to_string().lines().count(), 3);
            }
            Ok(f) => {
                // Whatever parses translates (or reports a clear limit).
                let r = Builder::new()
                    .configure(Config::new().max_states(Some(20_000)).check_safety(false))
                    .build_from_formula(&f);
                if let Err(e) = r {
                    prop_assert!(e.state_limit().is_some(), "{}: {}", f, e);
                }
                // The transducer, the classification and the informative
                // monitor take any of them too.
                prop_assert!(monitor_core::analysis::transducer(&f).is_ok());
                let cfg = Config::new().max_states(Some(20_000));
                if let Err(e) = monitor_core::analysis::classify(&f, &cfg) {
                    prop_assert!(e.state_limit().is_some(), "{}: {}", f, e);
                }
            }
        }
    }
}

#[test]
fn printing_to_psl_round_trips() {
    use monitor_core::formula::random::{random_psl, RandomLtl, SplitMix64};
    for seed in 0..300u64 {
        let f = if seed % 2 == 0 {
            random_psl(
                &mut SplitMix64::new(seed),
                &["a", "b", "c"],
                2 + (seed % 9) as usize,
            )
        } else {
            RandomLtl::new(&["a", "b", "x == 3"], 2 + (seed % 12) as usize)
                .seed(seed)
                .next_formula()
        };
        let text = f
            .to_psl()
            .unwrap_or_else(|e| panic!("seed {seed}: {f}: {e}"));
        let back = parse_psl(&text).unwrap_or_else(|e| panic!("seed {seed}: {text}\n{e}"));
        assert!(
            monitor(&f).first_difference(&monitor(&back)).is_none(),
            "seed {seed}: {f} printed as {text}, read back as {back}"
        );
    }
    assert!(parse("Y a").unwrap().to_psl().is_ok());
    assert!(parse("O a").unwrap().to_psl().is_err());
    assert!(Formula::ap("x y").to_psl().is_err());
}
