//! Fuzzing the parser: arbitrary input never panics, errors point inside
//! the input, and printing then parsing gives the same formula back.

use monitor_core::formula::random::{random_psl, RandomLtl, SplitMix64};
use monitor_core::formula::{parse, Formula};
use monitor_core::translate::{Builder, Config, Verdicts};
use proptest::prelude::*;

/// Fragments users type, glued at random: mostly near-valid formulas.
fn token_soup() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "a",
        "b",
        "p0",
        "\"x > 3\"",
        "true",
        "false",
        "1",
        "0",
        "!",
        "~",
        "&",
        "&&",
        "|",
        "||",
        "->",
        "<->",
        "=>",
        "xor",
        "^",
        "X",
        "F",
        "G",
        "U",
        "R",
        "W",
        "M",
        "V",
        "Y",
        "Z",
        "O",
        "H",
        "S",
        "B",
        "T",
        "[]",
        "<>",
        "(",
        ")",
        "X[2]",
        "F[1:3]",
        "G[2..$]",
        "X[!]",
        "[",
        "]",
        ":",
        " ",
        "\n",
        "/*",
        "*/",
        "\"",
        "\\",
        "é",
        "GFa",
        "F1",
        "$",
        // Spot's SEREs.
        "{",
        "}",
        "}!",
        "{a;b}",
        ";",
        "[*]",
        "[*2..3]",
        "[*1:$]",
        "[+]",
        "*",
        "[=2]",
        "[->]",
        "[->1..2]",
        "[:*2]",
        "[:+]",
        "##1",
        "##[0:2]",
        "##[+]",
        "[]->",
        "<>->",
        "[]=>",
        "|->",
        "|=>",
        "first_match(",
        " abort ",
        "[*0]",
    ]);
    prop::collection::vec(tokens, 0..24).prop_map(|v| v.concat())
}

fn check_error_position(input: &str) {
    if let Err(e) = parse(input) {
        assert!(
            e.offset() <= input.len(),
            "{input:?}: offset {}",
            e.offset()
        );
        assert!(input.is_char_boundary(e.offset()), "{input:?}");
        assert!(e.line() >= 1 && e.column() >= 1);
        assert_eq!(
            e.line(),
            input[..e.offset()].matches('\n').count() + 1,
            "{input:?}"
        );
        // The message renders with a caret line.
        let text = e.to_string();
        assert!(text.lines().count() == 3 && text.ends_with('^'), "{text}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,40}") {
        check_error_position(&s);
    }

    #[test]
    fn token_soups_never_panic(s in token_soup()) {
        check_error_position(&s);
        if let Ok(f) = parse(&s) {
            // Whatever parses prints back to the same formula.
            prop_assert_eq!(parse(&f.to_spot()).unwrap(), f);
        }
    }
}

/// Tokens spliced into printed SERE formulas.
const SERE_EDITS: &[&str] = &[
    "{",
    "}",
    "}!",
    "(",
    ")",
    ";",
    ":",
    "|",
    "&",
    "&&",
    "!",
    "[*",
    "[*]",
    "]",
    "[*2..1]",
    "[+]",
    "*",
    "[=",
    "[->]",
    "[:*",
    "[:+]",
    "##",
    "##2",
    "##[1:$]",
    "[]->",
    "<>=>",
    "|->",
    "X",
    "Y",
    "U",
    "S",
    "first_match(",
    " abort ",
    "1",
    "0",
    "\"",
    "/*",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    /// Printed PSL formulas (Spot's SERE syntax) with one character
    /// deleted, or a token inserted or put in its place: errors point
    /// inside the input with a caret, whatever parses prints back.
    #[test]
    fn mutated_seres_never_panic(
        seed in any::<u64>(),
        size in 1usize..12,
        at in any::<prop::sample::Index>(),
        edit in 0u8..3,
        token in prop::sample::select(SERE_EDITS),
    ) {
        let text = random_psl(&mut SplitMix64::new(seed), &["a", "b"], size).to_spot();
        let mut chars: Vec<String> = text.chars().map(String::from).collect();
        let i = at.index(chars.len() + 1);
        match edit {
            0 if i < chars.len() => {
                chars.remove(i);
            }
            1 if i < chars.len() => chars[i] = token.to_string(),
            _ => chars.insert(i, token.to_string()),
        }
        let s = chars.concat();
        check_error_position(&s);
        if let Ok(f) = parse(&s) {
            prop_assert_eq!(parse(&f.to_spot()).unwrap(), f, "{}", s);
        }
    }
}

#[test]
fn printing_round_trips_on_random_formulas() {
    for seed in 0..3000u64 {
        let size = 1 + (seed % 20) as usize;
        let f: Formula = RandomLtl::new(&["a", "b", "req", "F1", "x.y"], size)
            .with_past()
            .seed(seed)
            .next_formula();
        let spot = f.to_spot();
        assert_eq!(parse(&spot).unwrap(), f, "seed {seed}: {spot}");
    }
}

#[test]
fn spin_printing_preserves_the_language() {
    // Spin's syntax, read back by our parser, is the same property (M and
    // xor are rewritten, so compare monitors rather than text).
    for seed in 0..400u64 {
        let size = 1 + (seed % 14) as usize;
        let g = RandomLtl::new(&["a", "b", "req"], size)
            .seed(seed)
            .next_formula();
        let spin = g.to_spin().unwrap();
        let back = parse(&spin).unwrap_or_else(|e| panic!("seed {seed}: {spin}: {e}"));
        let monitor = |f: &Formula| {
            Builder::new()
                .configure(Config::new().verdicts(Verdicts::Three).check_safety(false))
                .build_from_formula(f)
                .unwrap()
                .into_dfa()
        };
        assert!(
            monitor(&g).first_difference(&monitor(&back)).is_none(),
            "seed {seed}: {g} printed as {spin}"
        );
    }
}
