//! Spot's SERE syntax in the LTL front end: the same formulas as the PSL
//! front end, Spot's own formulas (a corpus from its test suite), clear
//! errors, and every printer's output read back by the matching parser.

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::random::{
    random_psl, random_sere, with_fusion_powers, RandomLtl, SplitMix64,
};
use monitor_core::formula::{parse, parse_psl, Formula, Op, ParseErrorKind};
use monitor_core::translate::{Builder, Config, Verdicts};
use proptest::prelude::*;

fn monitor(f: &Formula) -> BadPrefixDfa {
    try_monitor(f).unwrap_or_else(|| panic!("{f}: no monitor within 20,000 states"))
}

/// The minimal three-valued monitor, or None past 20,000 states.
fn try_monitor(f: &Formula) -> Option<BadPrefixDfa> {
    Builder::new()
        .configure(
            Config::new()
                .verdicts(Verdicts::Three)
                .check_safety(false)
                .max_states(Some(20_000)),
        )
        .build_from_formula(f)
        .map(|m| m.into_dfa())
        .map_err(|e| assert!(e.state_limit().is_some(), "{f}: {e}"))
        .ok()
}

fn same_monitor(f: &Formula, g: &Formula) -> bool {
    let (mf, mg) = (monitor(f), monitor(g));
    mf.first_difference(&mg).is_none()
}

fn spot(s: &str) -> Formula {
    parse(s).unwrap_or_else(|e| panic!("{s}:\n{e}"))
}

fn psl(s: &str) -> Formula {
    parse_psl(s).unwrap_or_else(|e| panic!("{s}:\n{e}"))
}

/// `f` with the negated closure `!{r}` written as the negation of `{r}`:
/// both print as `!{r}`, which the parsers read as the negation.
fn canonical(f: &Formula) -> Formula {
    f.map_bottom_up(|g| match g.op() {
        Op::NegClosure => Formula::not(Formula::closure(g.child(0).clone())),
        _ => g.clone(),
    })
}

/// The cases of a corpus file: (line number, kind, fields).
fn cases(text: &'static str) -> Vec<(usize, &'static str, Vec<&'static str>)> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let mut fields = l.split('\t');
            let kind = fields.next().expect("kind");
            (i + 1, kind, fields.collect())
        })
        .collect()
}

/// Spot's syntax and the PSL spelling of the same property: the same
/// formula, or (where the PSL front end spells it with other operators,
/// or has none, as for the fusion power) the same monitor; and what Spot
/// refuses is refused with a message that names the fault.
#[test]
fn spot_and_psl_spellings_agree() {
    let mut counts = [0; 3];
    for (line, kind, fields) in cases(include_str!("corpus/spot/psl.txt")) {
        let [s, other] = fields[..] else {
            panic!("psl.txt:{line}: two fields expected")
        };
        match kind {
            "same" => {
                assert_eq!(spot(s), psl(other), "psl.txt:{line}: {s} vs {other}");
                counts[0] += 1;
            }
            "monitor" => {
                let (f, g) = (spot(s), psl(other));
                assert!(
                    same_monitor(&f, &g),
                    "psl.txt:{line}: {s} (read as {f}) vs {other} (read as {g})"
                );
                counts[1] += 1;
            }
            "refused" => {
                let e = parse(s).expect_err(s);
                assert!(
                    matches!(e.kind(), ParseErrorKind::Unsupported(m) if m.contains(other)),
                    "psl.txt:{line}: {s}: {e}"
                );
                counts[2] += 1;
            }
            _ => panic!("psl.txt:{line}: unknown kind {kind}"),
        }
    }
    assert!(
        counts[0] >= 50 && counts[1] >= 5 && counts[2] >= 4,
        "{counts:?}"
    );
}

/// Spot's own formulas (its test suite): the pairs that Spot's trivial
/// identities make equal give equal monitors here, but where Spot's weak
/// closure departs from IEEE 1850's (`false` in a SERE).
#[test]
fn spot_test_suite_formulas_agree() {
    let mut n = 0;
    for (line, kind, fields) in cases(include_str!("corpus/spot/equals.txt")) {
        if kind == "ieee" {
            let [s, spots, ours] = fields[..] else {
                panic!("equals.txt:{line}: three fields expected")
            };
            let f = spot(s);
            assert!(
                same_monitor(&f, &spot(ours)),
                "equals.txt:{line}: {s} vs {ours}"
            );
            assert!(
                !same_monitor(&f, &spot(spots)),
                "equals.txt:{line}: {s} vs {spots}"
            );
            continue;
        }
        let [s, other] = fields[..] else {
            panic!("equals.txt:{line}: two fields expected")
        };
        match kind {
            "equal" => {
                let (f, g) = (spot(s), spot(other));
                assert!(
                    same_monitor(&f, &g),
                    "equals.txt:{line}: {s} (read as {f}) vs {other} (read as {g})"
                );
                // And each prints back to itself.
                for h in [&f, &g] {
                    assert_eq!(
                        canonical(&spot(&h.to_spot())),
                        canonical(h),
                        "equals.txt:{line}"
                    );
                }
                n += 1;
            }
            "refused" => {
                let e = parse(s).expect_err(s);
                assert!(e.to_string().contains(other), "equals.txt:{line}: {e}");
            }
            _ => panic!("equals.txt:{line}: unknown kind {kind}"),
        }
    }
    assert!(n >= 110, "{n} cases");
}

/// The SVA-like delays and Spot's fusion power against their meaning,
/// checked on monitors (they are sugar, expanded by the parser).
#[test]
fn sugar_means_what_spot_says() {
    let pairs = [
        // a ##[0:j] b when both accept the empty word: a:b | a;[*0..j-1];b
        (
            "{a[*] ##[0:2] b[*]}[]-> c",
            "{{a[*]:b[*]} | {a[*];[*0..1];b[*]}}[]-> c",
        ),
        // Accepting the empty word on one side only.
        ("{a[*] ##[0:2] b}[]-> c", "{{a[*];[*0..2]}:b}[]-> c"),
        ("{a ##[0:$] b[*]}!", "{a:{[*];b[*]}}!"),
        // ##1 ##2 b nests; `|` binds tighter than a delay.
        ("{a ##1 ##2 b}", "{a;[*2];b}"),
        ("{##1 a | b}", "{1;(a | b)}"),
        // r[:*3] = r:r:r
        ("{{a;b[*]}[:*3];c}!", "{{a;b[*]}:{a;b[*]}:{a;b[*]};c}!"),
        ("{{a[*];b}[:*0..2]}", "{1 | {a[*];b} | {{a[*];b}:{a[*];b}}}"),
        // The unbounded power: {a;b}[:+] is a;(a&b)[*];b, and r[:*i..]
        // needs i copies, which may share letters.
        ("{{a;b}[:+]}[]-> c", "{a;(a & b)[*];b}[]-> c"),
        ("{{a;b}[:*3..];c}!", "{a;(a & b)[*2..];b;c}!"),
        ("{{a;b}[:*];c}", "{{1 | {a;(a & b)[*];b}};c}"),
        // A copy never matches the empty word: a[*] copies are a[+].
        ("{a[*][:+];b}!", "{a[+];b}!"),
        ("{a[*][:*2..]}[]-> b", "{a[+]}[]-> b"),
        // A copy of one letter counts without a trace: {a | a;b}[:*3..]
        // is {a | a;b}[:+] when one letter matches `a` alone.
        ("{{a | {a;b}}[:*3..];c}!", "{{a | {a;b}}[:+];c}!"),
        // Zero copies is one letter; a Boolean's power is itself.
        ("{{a;b}[:*0];c}!", "{1;c}!"),
        ("{(a | b)[:*2..];c}!", "{(a | b);c}!"),
        ("{a[:*];c}", "{1;c}"),
        // Nested: an even number of copies.
        (
            "{{a;b}[:*2][:+]}[]-> c",
            "{a;(a & b);{(a & b)[*2]}[*];b}[]-> c",
        ),
        ("{{a;b}[:+][:*2..3]}[]-> c", "{{a;b}[:*2..]}[]-> c"),
        ("{{a;b}[:*][:+]}[]-> c", "{{a;b}[:*]}[]-> c"),
        // first_match of a Boolean is itself.
        ("{first_match(a | b);c}!", "{(a | b);c}!"),
        // The first match of {a;b[*]} is `a`; of {[*1..3];a}, the first
        // `a` among the second to fourth letters.
        ("G{first_match({a;b[*]});c}", "G{a;c}"),
        (
            "{first_match({[*1..3];a})}[]-> c",
            "{1;(a | {!a;a} | {!a;!a;a})}[]-> c",
        ),
    ];
    for (s, t) in pairs {
        let (f, g) = (spot(s), spot(t));
        assert!(
            same_monitor(&f, &g),
            "{s} (read as {f}) vs {t} (read as {g})"
        );
    }
    // A delay of zero fuses: `##0` needs both on the same letter.
    let f = spot("{a ##0 b}!");
    assert!(same_monitor(&f, &spot("a & b")));
    assert!(!same_monitor(&f, &spot("a & X b")));
    // The fusion power is not the repetition: copies share their letters.
    let f = spot("{{a;b}[:+]}[]-> c");
    assert!(!same_monitor(&f, &spot("{{a;b}[+]}[]-> c")));
    // The empty word's power matches nothing, from one copy on.
    assert!(same_monitor(&spot("{[*0][:+];c}!"), &spot("0")));
    assert!(same_monitor(&spot("{[*0][:*];c}!"), &spot("X c")));
}

/// The fusion power prints back as it was written (Spot's spelling) and
/// is one operator of the formula core, not an expansion.
#[test]
fn fusion_powers_print_back() {
    for (s, printed) in [
        ("{{a;b}[:*]}", "{{a;b}[:*]}"),
        ("{{a;b}[:+]}", "{{a;b}[:+]}"),
        ("{{a;b}[:*2..]}", "{{a;b}[:*2..]}"),
        ("{{a;b}[:*3]}", "{{a;b}[:*3]}"),
        ("{{a;b}[:*2..4]}", "{{a;b}[:*2..4]}"),
        ("{{a;b}[:*0..4]}", "{{a;b}[:*0..4]}"),
        ("{a[*][:+]}", "{a[*][:+]}"),
        ("{[*0][:+]}", "{[*0][:+]}"),
        ("{{a;b}[:*2][:+]}", "{{a;b}[:*2][:+]}"),
        (
            "{first_match({a;b}[:*1..2])}[]-> c",
            "{first_match({a;b}[:*1..2])}[]-> c",
        ),
        ("{c;{a;b}[:+]:d}[]-> e", "{c;{{a;b}[:+]:d}}[]-> e"),
        ("G({a}[]=> {{b;c}[:*]}!)", "G({a;1}[]-> ({{b;c}[:*]}!))"),
    ] {
        let f = spot(s);
        assert_eq!(f.to_spot(), printed);
        assert_eq!(spot(printed), f);
        assert!(
            f.subformulas_postorder()
                .iter()
                .any(|g| g.op() == Op::FStar),
            "{s}"
        );
    }
    // Spot's identities: [:*0] is `1`, the power of a Boolean is itself or
    // `1`, one copy of a SERE without the empty word is the SERE; Spot's
    // spellings of the bounds read the same.
    for (s, t) in [
        ("{{a;b}[:*0];c}", "{1;c}"),
        ("{(a | b)[:*2..];c}", "{(a | b);c}"),
        ("{a[:*];c}", "{1;c}"),
        ("{{a;b}[:*1];c}", "{a;b;c}"),
        ("{{a;b}[:*1..$]}", "{{a;b}[:+]}"),
        ("{{a;b}[:*0..inf]}", "{{a;b}[:*]}"),
        ("{{a;b}[:*2:]}", "{{a;b}[:*2..]}"),
        ("{{a;b}[:*2 to 2]}", "{{a;b}[:*2]}"),
    ] {
        assert_eq!(spot(s), spot(t), "{s} vs {t}");
    }
    assert_eq!(spot("{a[*][:*1]}").to_spot(), "{a[*][:*1]}");
    // PSL has no fusion power: `to_psl` says so.
    let e = spot("{{a;b}[:+]}").to_psl().unwrap_err();
    assert!(e.to_string().contains("fusion power"), "{e}");
}

/// Where a SERE token is wrong, the error says so at the right place.
#[test]
fn errors_point_at_the_sere() {
    let err = |s: &str| parse(s).expect_err(s);
    let at = |s: &str| {
        let e = err(s);
        (e.column(), e.message())
    };
    // Unbalanced braces.
    let e = err("G({a;b}[]-> c");
    assert_eq!(e.kind(), &ParseErrorKind::UnclosedParenthesis);
    let e = err("{a;{b;c}");
    assert_eq!((e.kind(), e.column()), (&ParseErrorKind::UnclosedBrace, 1));
    assert!(e.to_string().ends_with("\n  {a;{b;c}\n  ^"), "{e}");
    let (col, msg) = at("{a;{b;c}[]-> d}");
    assert_eq!(col, 9);
    assert!(msg.contains("cannot appear inside braces"), "{msg}");
    let (col, msg) = at("{a;b}} -> c");
    assert_eq!(col, 6);
    assert!(msg.contains("closes no `{`"), "{msg}");
    let (col, msg) = at("{a;b)");
    assert_eq!(col, 5);
    assert!(msg.contains("expected a SERE operator or `}`"), "{msg}");
    // SERE operators outside braces.
    let (col, msg) = at("a;b");
    assert_eq!(col, 2);
    assert!(msg.contains("write the sequence in braces"), "{msg}");
    let (col, msg) = at("G(a[*2] -> b)");
    assert_eq!(col, 4);
    assert!(msg.contains("`[*2]` is a SERE operator"), "{msg}");
    let (col, msg) = at("a []-> b");
    assert_eq!(col, 3);
    assert!(msg.contains("must be a SERE in braces"), "{msg}");
    let (col, msg) = at("a |=> b");
    assert_eq!(col, 3);
    assert!(msg.contains("`|=>`"), "{msg}");
    // Braces where a formula cannot start.
    let (col, msg) = at("a {b}");
    assert_eq!(col, 3);
    assert!(msg.contains("found `{`"), "{msg}");
    let (col, msg) = at("{}");
    assert_eq!(col, 2);
    assert!(msg.contains("expected a SERE"), "{msg}");
    // Temporal operators inside braces.
    let (col, msg) = at("{a;Xb}");
    assert_eq!(col, 4);
    assert!(msg.contains("temporal operator"), "{msg}");
    let (col, msg) = at("{a U b}");
    assert_eq!(col, 4);
    assert!(msg.contains("temporal operator"), "{msg}");
    let (col, msg) = at("{a;{b}!}");
    assert_eq!(col, 4);
    assert!(msg.contains("strong sequence"), "{msg}");
    let (col, msg) = at("{!{a;b}}");
    assert_eq!(col, 2);
    assert!(msg.contains("cannot be negated"), "{msg}");
    let (col, msg) = at("{{a;b}[=2]}");
    assert_eq!(col, 7);
    assert!(msg.contains("repeats a Boolean"), "{msg}");
    let (col, msg) = at("{[->2];a}");
    assert_eq!(col, 2);
    assert!(msg.contains("needs a Boolean before it"), "{msg}");
    let (col, msg) = at("{{a;b} -> c}");
    assert_eq!(col, 8);
    assert!(msg.contains("joins Boolean expressions"), "{msg}");
    // Bounds.
    let (col, msg) = at("{a[*3..1]}");
    assert_eq!(col, 3);
    assert!(msg.contains("smaller than the lower bound"), "{msg}");
    let (col, msg) = at("{a[*2..x]}");
    assert_eq!(col, 8);
    assert!(msg.contains("expected a number, `$` or `]`"), "{msg}");
    let (col, msg) = at("{a[*2");
    assert_eq!(col, 3);
    assert!(msg.contains("`[*` is never closed"), "{msg}");
    let (col, msg) = at("{a[*99999]}");
    assert_eq!(col, 5);
    assert!(msg.contains("exceeds the maximum"), "{msg}");
    let (col, msg) = at("{a ## b}");
    assert_eq!(col, 4);
    assert!(msg.contains("expected a delay"), "{msg}");
    // The fusion power needs a SERE, and ordered bounds.
    let (col, msg) = at("{[:+];a}");
    assert_eq!(col, 2);
    assert!(msg.contains("`[:*` needs a SERE before it"), "{msg}");
    let (col, msg) = at("{a;{b;c}[:*3..1]}");
    assert_eq!(col, 9);
    assert!(msg.contains("smaller than the lower bound"), "{msg}");
    // The right side of `abort` is a Boolean.
    let (col, msg) = at("(G a) abort X b");
    assert_eq!(col, 7);
    assert!(msg.contains("Boolean"), "{msg}");
    // `abort` and `first_match` stay names where no operator fits.
    assert_eq!(
        spot("abort U first_match").atomic_propositions(),
        ["abort", "first_match"]
    );
}

/// Nesting is bounded inside braces as outside: deep input is an error,
/// never a stack overflow.
#[test]
fn deep_seres_stop_at_the_depth_limit() {
    let deep = [
        "{".repeat(5000) + "a" + &"}".repeat(5000),
        "{".to_string() + &"(".repeat(5000) + "a" + &")".repeat(5000) + "}",
        "{".to_string() + &"!".repeat(5000) + "a}",
        "{a".to_string() + &"[*2]".repeat(5000) + "}",
        "{a".to_string() + &" & {b;c}".repeat(5000) + "}",
        "{a".to_string() + &" ##1 b".repeat(2500) + &" ##0 b".repeat(2500) + "}",
        "{".to_string() + &"##1 ".repeat(5000) + "a}",
        "{a".to_string() + &" -> a".repeat(5000) + "}",
        "{a".to_string() + &" xor a".repeat(5000) + "}",
        "{a;b}[]-> ".repeat(5000) + "c",
    ];
    for s in deep {
        let e = parse(&s).expect_err("too deep");
        assert_eq!(e.kind(), &ParseErrorKind::TooDeep, "{}", &s[..40]);
    }
    // Huge counts are refused with the bound, before anything is built.
    for s in [
        "{a[*99999999999]}",
        "{a[*1..99999999999999999999999]}",
        "{a[:*99999999999]}",
        "{a[=2..99999999999]}",
        "{a[->99999999999]}",
        "{a ##99999999999 b}",
        "{##[1:99999999999] b}",
    ] {
        let e = parse(s).expect_err(s);
        assert!(matches!(e.kind(), ParseErrorKind::Bound(_)), "{s}: {e}");
    }
    // Long flat runs are fine.
    let flat = "{a".to_string() + &";b".repeat(20_000) + "}";
    assert!(parse(&flat).is_ok());
}

/// Formulas of the LTL front end (with past) and of the PSL front end.
fn arb_formula() -> impl Strategy<Value = (u8, Formula)> {
    (0u8..4, any::<u64>(), 1usize..14).prop_map(|(front, seed, size)| {
        let f = match front {
            0 => RandomLtl::new(&["a", "b", "req"], size)
                .with_past()
                .seed(seed)
                .next_formula(),
            1 => random_psl(&mut SplitMix64::new(seed), &["a", "b", "c"], size),
            // Spot's fusion power around some of the SEREs.
            3 => {
                let mut rng = SplitMix64::new(seed);
                let f = random_psl(&mut rng, &["a", "b", "c"], size);
                with_fusion_powers(&f, &mut rng)
            }
            // PSL read from its own text: what `parse_psl` builds (its
            // sugar, `within`, `[=`, `[->`, `next_event`, ...).
            _ => {
                let f = random_psl(&mut SplitMix64::new(seed), &["a", "b", "c"], size);
                parse_psl(&f.to_psl().expect("PSL prints")).expect("PSL reads back")
            }
        };
        (front, f)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Every printer's output reads back with the matching parser: Spot's
    /// syntax to the same formula (up to `!{r}`, see [`canonical`]), PSL,
    /// Spin and NuSMV's syntax (which rewrite operators) to a formula
    /// with the same monitor.
    #[test]
    fn printers_read_back((front, f) in arb_formula()) {
        let text = f.to_spot();
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        prop_assert_eq!(canonical(&back), canonical(&f), "{} (front end {})", text, front);
        let Some(m) = try_monitor(&f) else { return Ok(()) };
        let same = |g: &Formula| try_monitor(g).is_none_or(|n| m.first_difference(&n).is_none());
        if let Ok(text) = f.to_psl() {
            let back = parse_psl(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
            prop_assert!(same(&back), "{} printed as {} read back as {}", f, text, back);
        }
        if let Ok(text) = f.to_spin() {
            let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
            prop_assert!(same(&back), "{} printed as {} read back as {}", f, text, back);
        }
        // Propositions are plain names here, which NuSMV prints as they are.
        let text = f.to_nusmv();
        let back = parse(&text).map_err(|e| TestCaseError::fail(format!("{text}\n{e}")))?;
        prop_assert!(same(&back), "{} printed as {} read back as {}", f, text, back);
    }
}

/// `r ##[lo:hi] s` by the definition of the delay: the union, over the
/// delays `k` allowed, of `r:s` (`k = 0`, the same letter) and
/// `r;1[*k-1];s`; built with the core's constructors, not the parser's
/// case analysis (Spot's, on whether `r` or `s` accepts the empty word).
fn delay_by_definition(r: &Formula, s: &Formula, lo: u32, hi: u32) -> Formula {
    Formula::sere_or((lo..=hi).map(|k| {
        if k == 0 {
            Formula::fusion([r.clone(), s.clone()])
        } else {
            let gap = Formula::star(Formula::tt(), k - 1, Some(k - 1));
            Formula::concat([r.clone(), gap, s.clone()])
        }
    }))
}

/// `r[:*lo..hi]` by Spot's definition: between `lo` and `hi` copies of
/// `r` fused, where no copy is `1` and one copy is `r` without the empty
/// word.
fn fusion_power_by_definition(r: &Formula, lo: u32, hi: u32) -> Formula {
    Formula::sere_or((lo..=hi).map(|k| match k {
        0 => Formula::tt(),
        1 => Formula::sere_and([r.clone(), Formula::star(Formula::tt(), 1, None)]),
        _ => Formula::fusion(vec![r.clone(); k as usize]),
    }))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The delays and the fusion power, read from text around random
    /// printed SEREs, mean what their definitions say: under a weak and a
    /// strong sequence and a suffix implication, the same monitors.
    #[test]
    fn delays_and_fusion_powers_follow_their_definitions(
        seed in any::<u64>(),
        sizes in (1usize..5, 1usize..5),
        bounds in (0u32..3, 0u32..3),
    ) {
        let mut rng = SplitMix64::new(seed);
        let r = random_sere(&mut rng, &["a", "b"], sizes.0);
        let s = random_sere(&mut rng, &["a", "b"], sizes.1);
        let (lo, hi) = (bounds.0.min(bounds.1), bounds.0.max(bounds.1));
        // A SERE in braces, as `to_spot` prints it in a closure.
        let braced = |x: &Formula| Formula::closure(x.clone()).to_spot();
        let cases = [
            (format!("{} ##[{lo}:{hi}] {}", braced(&r), braced(&s)), delay_by_definition(&r, &s, lo, hi)),
            (format!("{}[:*{lo}..{hi}]", braced(&r)), fusion_power_by_definition(&r, lo, hi)),
        ];
        for (text, expected) in cases {
            for (f, g) in [
                (format!("{{{text}}}"), Formula::closure(expected.clone())),
                (format!("{{{text}}}!"), Formula::econcat(expected.clone(), Formula::tt())),
                (format!("{{{text}}}[]-> a"), Formula::uconcat(expected.clone(), Formula::ap("a"))),
            ] {
                let f = parse(&f).map_err(|e| TestCaseError::fail(format!("{f}\n{e}")))?;
                let (Some(mf), Some(mg)) = (try_monitor(&f), try_monitor(&g)) else { continue };
                prop_assert!(mf.first_difference(&mg).is_none(), "{} (read as {}) vs {}", text, f, g);
            }
        }
    }
}
