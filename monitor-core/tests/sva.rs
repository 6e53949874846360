//! SVA (IEEE 1800-2017 §16): every operator and sampled-value function
//! gives the same monitor as the property spelled by hand in LTL or PSL
//! (from the standard's definitions, not from the front end's lowering),
//! and the parser survives anything.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::parse::MAX_DEPTH;
use monitor_core::formula::{
    parse, parse_psl, parse_sva, parse_sva_directive, Formula, ParseErrorKind,
};
use monitor_core::translate::{Builder, Config, Verdicts};
use proptest::prelude::*;

fn monitor(f: &Formula) -> BadPrefixDfa {
    Builder::new()
        .configure(Config::new().verdicts(Verdicts::Three).check_safety(false))
        .build_from_formula(f)
        .unwrap_or_else(|e| panic!("{f}: {e}"))
        .into_dfa()
}

fn same_monitor(what: &str, a: &Formula, b: &Formula) {
    let (ma, mb) = (monitor(a), monitor(b));
    assert!(
        ma.first_difference(&mb).is_none(),
        "{what}: read as {a}, differs from {b} on {:?}",
        ma.first_difference(&mb)
    );
    assert_eq!(ma.num_states(), mb.num_states(), "{what}");
}

/// Each SVA property and the same property in LTL (Spot syntax with
/// past), one attempt at the first tick.
const LTL_PAIRS: &[(&str, &str)] = &[
    // Sequences as (weak) properties, and their delays.
    ("a ##1 b", "a & X b"),
    ("a ##0 b", "a & b"),
    ("a ##2 b", "a & X X b"),
    ("a ##[1:3] b", "a & X(b | X(b | X b))"),
    ("a ##[0:1] b", "a & (b | X b)"),
    ("##2 a", "X X a"),
    ("##[0:1] a ##1 b", "(a & X b) | X(a & X b)"),
    // A weak unbounded delay can always be completed.
    ("a ##[1:$] b", "a"),
    ("a ##[*] b", "a"),
    ("a ##[+] b", "a"),
    // Repetitions.
    ("a[*2] ##1 b", "a & X(a & X b)"),
    ("a[*1:2] ##1 b", "a & X(b | (a & X b))"),
    ("a[*] ##1 b", "a W b"),
    ("a[+] ##1 b", "a & X(a W b)"),
    ("a[*2:$] ##1 b", "a & X(a & X(a W b))"),
    ("a[->2] |-> c", "!a W (a & X(!a W (a & c)))"),
    ("a[->1:2] ##1 b", "!a W (a & X(b | (!a W (a & X b))))"),
    ("a[=1] ##1 b", "!a W (a & X(!a W b))"),
    ("(a ##1 b)[*2]", "a & X(b & X(a & X b))"),
    // Empty sequences (§16.9.2.1).
    ("a[*0] ##1 b", "b"),
    ("a ##1 b[*0] ##1 c", "a & X c"),
    ("a[*0:1] ##1 b", "b | (a & X b)"),
    ("(a[*0] ##0 b) or c", "c"),
    ("a[*0] |-> c", "true"),
    ("a[*0] |=> c", "c"),
    // Sequence operators.
    ("(a ##1 b) and c", "a & c & X b"),
    ("(a ##1 b) and (c ##2 d)", "a & c & X(b & X d)"),
    ("(a ##1 b) or (c ##1 d)", "(a & X b) | (c & X d)"),
    ("(a ##1 b) intersect c[*2]", "a & c & X(b & c)"),
    ("(a ##1 b) intersect c", "false"),
    ("a within (c ##1 d)", "c & X d & (a | X a)"),
    ("b throughout (a ##1 c)", "b & a & X(b & c)"),
    ("a ##1 first_match(b[*1:2])", "a & X b"),
    // Properties.
    ("strong(a ##1 b)", "a & X b"),
    ("weak(a ##1 b)", "a & X b"),
    ("not (a ##1 b)", "!(a & X b)"),
    ("not a[*] ##1 b", "!(a W b)"),
    ("a ##1 b |-> c", "(a & X b) -> X c"),
    ("a ##1 b |=> c", "(a & X b) -> X X c"),
    ("a |-> b ##1 c", "a -> (b & X c)"),
    ("a ##1 b #-# c", "a & X(b & c)"),
    ("a ##1 b #=# c", "a & X(b & X c)"),
    ("(a |-> b) and (c |-> d)", "(a -> b) & (c -> d)"),
    ("(a |-> b) or (c |-> d)", "(a -> b) | (c -> d)"),
    ("(nexttime a) implies b", "X a -> b"),
    ("(nexttime a) iff b", "X a <-> b"),
    ("if (a) nexttime b", "a -> X b"),
    ("if (a) nexttime b else c", "(a -> X b) & (!a -> c)"),
    ("nexttime a", "X a"),
    ("nexttime [2] a", "X X a"),
    ("s_nexttime a", "X a"),
    ("s_nexttime [2] a", "X X a"),
    ("always (a |=> b)", "G(a -> X b)"),
    ("always [1:2] a", "X(a & X a)"),
    ("always [1:$] a", "X G a"),
    ("s_always [0:1] a", "a & X a"),
    ("eventually [1:2] a", "X(a | X a)"),
    ("s_eventually [0:1] a", "a | X a"),
    ("s_eventually a", "F a"),
    ("s_eventually [2:$] a", "X X F a"),
    ("a until b", "a W b"),
    ("a s_until b", "a U b"),
    ("a until_with b", "a W (a & b)"),
    ("a s_until_with b", "a U (a & b)"),
    (
        "accept_on (r) a ##1 b ##1 c",
        "r | (a & X(r | (b & X(r | c))))",
    ),
    ("sync_accept_on (r) a ##1 b", "r | (a & X(r | b))"),
    ("reject_on (r) a ##1 b", "!r & a & X(!r & b)"),
    ("sync_reject_on (r) a ##1 b", "!r & a & X(!r & b)"),
    ("always (accept_on (r) (a |=> b))", "G(r | !a | X(r | b))"),
    // Sampled-value functions, with the default value 0 before the
    // first tick.
    ("$past(a)", "Y a"),
    ("nexttime $past(a)", "a"),
    ("$past(a, 2)", "Y Y a"),
    ("$rose(a)", "a"),
    ("always ($rose(a) |=> b)", "G((a & !Y a) -> X b)"),
    ("always ($fell(a) |-> b)", "G((!a & Y a) -> b)"),
    ("$fell(a)", "false"),
    ("$stable(a)", "!a"),
    ("always ($stable(a) |-> b)", "G((a <-> Y a) -> b)"),
    ("always ($changed(a) |-> b)", "G((a xor Y a) -> b)"),
    ("$sampled(a) |-> b", "a -> b"),
    (
        "always $onehot({a, b, c})",
        "G((a | b | c) & !(a & b) & !(a & c) & !(b & c))",
    ),
    (
        "always $onehot0({a, b, c})",
        "G(!(a & b) & !(a & c) & !(b & c))",
    ),
    (
        "always ($countones({a, b, c}) == 2)",
        "G((a & b & !c) | (a & !b & c) | (!a & b & c))",
    ),
    (
        "always ($countones({a, b, c}) >= 2)",
        "G((a & b) | (a & c) | (b & c))",
    ),
    (
        "always (req |-> !$isunknown(data))",
        "G(req -> !\"$isunknown(data)\")",
    ),
    // Boolean operators.
    ("a && !b || c", "(a & !b) | c"),
    ("a & ~b | c ^ d", "(a & !b) | (c xor d)"),
    ("a ? b : c", "(a & b) | (!a & c)"),
    ("(a -> b) ##1 c", "(a -> b) & X c"),
    // Declarations.
    (
        "sequence s(x, y = b); x ##1 y; endsequence property p(sequence r, z); r |=> z; endproperty p(s(a), c)",
        "(a & X b) -> X X c",
    ),
    (
        "let onehot2(x, y) = x ^ y; always onehot2(a, b)",
        "G(a xor b)",
    ),
];

#[test]
fn sva_and_ltl_spellings_give_the_same_monitor() {
    for (sva, ltl) in LTL_PAIRS {
        let f = parse_sva(sva).unwrap_or_else(|e| panic!("{sva}: {e}"));
        let g = parse(ltl).unwrap_or_else(|e| panic!("{ltl}: {e}"));
        same_monitor(sva, &f, &g);
    }
}

/// SVA properties and PSL ones with the same meaning (the properties PSL
/// and SVA share: SEREs, suffix implication, abort).
#[test]
fn sva_and_psl_spellings_give_the_same_monitor() {
    let pairs = [
        (
            "always (req |-> ##[1:3] ack)",
            "always {req} |-> {[*1:3]; ack}",
        ),
        (
            "always (req ##1 !ack[*0:3] |=> ack)",
            "always {req; !ack[*0:3]} |=> ack",
        ),
        ("always (a[->2] |=> b)", "always {a[->2]} |=> b"),
        ("always (a[=2] ##1 b |-> c)", "always {a[=2]; b} |-> c"),
        (
            "always ((a ##1 b) and (c ##[1:2] d) |-> e)",
            "always {{a; b} & {c; [*0:1]; d}} |-> e",
        ),
        (
            "always ((a ##1 b) intersect (c[*2]) |-> e)",
            "always {{a; b} && c[*2]} |-> e",
        ),
        (
            "always ((a ##1 b) within (c ##[1:3] d) |-> e)",
            "always {{a; b} within {c; [*0:2]; d}} |-> e",
        ),
        (
            "always (b throughout (a ##[1:2] c) |-> e)",
            "always {b[*] && {a; [*0:1]; c}} |-> e",
        ),
        ("always (a ##0 b[*2] |-> c)", "always {a : b[*2]} |-> c"),
        (
            "always (accept_on (r) (a |=> b ##1 c))",
            "always (({a} |=> {b; c}) abort r)",
        ),
        ("always ($rose(a) |=> b)", "always (rose(a) -> next b)"),
        ("always ($past(a) |-> b)", "always (prev(a) -> b)"),
        ("(a ##1 b[*]) ##1 c", "{a; b[*]; c}"),
        ("strong(a ##[1:$] b)", "{a; [*]; b}!"),
        ("not strong(a ##[2:$] b)", "!{a; [+]; b}!"),
        ("not (a ##[1:$] b)", "!{a; [*]; b}"),
        ("##1 ##1 a", "{true; true; a}"),
    ];
    for (sva, psl) in pairs {
        let f = parse_sva(sva).unwrap_or_else(|e| panic!("{sva}: {e}"));
        let g = parse_psl(psl).unwrap_or_else(|e| panic!("{psl}: {e}"));
        same_monitor(sva, &f, &g);
    }
}

/// `first_match` (§16.9.8) in each place it changes the property, against
/// the property written by hand in LTL from the definition (the first
/// match ends at the earliest end of a match from the same start); each
/// case also differs from the same property without `first_match`.
#[test]
fn first_match_means_the_earliest_end() {
    let cases = [
        // As an antecedent: only the first `b` after `a` obliges.
        (
            "first_match(a ##[1:3] b) |-> c",
            "a -> X((b & c) | (!b & X((b & c) | (!b & X(!b | c)))))",
        ),
        ("first_match(a ##[1:$] b) |-> c", "a -> X(!b W (b & c))"),
        ("first_match(a[*1:2]) |=> c", "a -> X c"),
        // Nested: the inner first match is `a`.
        (
            "first_match(first_match(a[*1:2]) ##[0:1] b) |-> c",
            "a -> ((b & c) | (!b & X(b -> c)))",
        ),
        // Inside a longer sequence.
        (
            "first_match(a ##[1:2] b) ##1 c |-> d",
            "a -> X((b & X(c -> d)) | (!b & X(b -> X(c -> d))))",
        ),
        (
            "strong(first_match(a ##[1:2] b) ##1 c)",
            "a & X((b & X c) | (!b & X(b & X c)))",
        ),
        // Operands of `and`, `or`, `intersect`, `within`.
        (
            "(first_match(a ##[1:2] b) and c) |-> d",
            "(a & c) -> X((b & d) | (!b & X(b -> d)))",
        ),
        (
            "(first_match(a ##[1:2] b) or (c ##2 e)) |-> d",
            "(a -> X((b & d) | (!b & X(b -> d)))) & (c -> X X(e -> d))",
        ),
        (
            "(first_match(a ##[1:2] b) intersect c[*3]) |-> d",
            "(a & c) -> X((c & !b) -> X((c & b) -> d))",
        ),
        (
            "(c within first_match(a ##[1:2] b)) |-> d",
            "a -> X((b -> ((c | Y c) -> d)) & (!b -> X(b -> ((c | Y c | Y Y c) -> d))))",
        ),
        // Under `#-#`: some first match ends where `c` holds.
        (
            "first_match(a[*1:2] ##1 b) #-# c",
            "a & (X(b & c) | X(a & !b & X(b & c)))",
        ),
    ];
    for (sva, ltl) in cases {
        let f = parse_sva(sva).unwrap_or_else(|e| panic!("{sva}: {e}"));
        let g = parse(ltl).unwrap_or_else(|e| panic!("{ltl}: {e}"));
        same_monitor(sva, &f, &g);
        // Without `first_match` the property is another one.
        let plain = sva.replace("first_match", "");
        let h = parse_sva(&plain).unwrap_or_else(|e| panic!("{plain}: {e}"));
        assert!(
            monitor(&h).first_difference(&monitor(&f)).is_some(),
            "{sva}: the same as {plain}"
        );
    }
}

#[test]
fn directives_check_every_tick() {
    let pairs = [
        ("assert property (req |=> ack);", "G(req -> X ack)"),
        (
            "p1: assume property (@(posedge clk) a ##1 b |-> c) else $error(\"x\");",
            "G((a & X b) -> X c)",
        ),
        ("assert property (always a);", "G a"),
        ("cover property (a ##1 b);", "G !(a & X b)"),
        ("restrict property (a |-> b);", "G(a -> b)"),
        // With past values the reset is in the formula: an attempt
        // aborted by `rst` holds.
        (
            "assert property (disable iff (rst) $rose(a) |=> b);",
            "G(rst | !(a & !Y a) | X(rst | b))",
        ),
    ];
    for (sva, ltl) in pairs {
        let d = parse_sva_directive(sva).unwrap_or_else(|e| panic!("{sva}: {e}"));
        same_monitor(sva, &d.formula, &parse(ltl).unwrap());
    }
}

/// Runs `work` on a thread with a large stack, and fails if it takes
/// more than `secs`.
fn within<T: Send + 'static>(
    secs: u64,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> T {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .expect("spawn");
    let start = Instant::now();
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(v) => v,
        Err(_) => panic!(
            "{what}: not finished after {:.0?} (the bound is {secs} s)",
            start.elapsed()
        ),
    }
}

#[test]
fn parsing_stops_at_the_depth_limit() {
    let deep = |text: String| {
        within(10, "a deep property", move || {
            parse_sva(&text).unwrap_err().kind().clone()
        })
    };
    let n = 200_000;
    let joined = |op: &str| vec!["a"; n].join(op);
    assert_eq!(
        deep("(".repeat(n) + "a" + &")".repeat(n)),
        ParseErrorKind::TooDeep
    );
    assert_eq!(deep("not ".repeat(n) + "a"), ParseErrorKind::TooDeep);
    assert_eq!(deep("always ".repeat(n) + "a"), ParseErrorKind::TooDeep);
    assert_eq!(deep("!".repeat(n) + "a"), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" |-> ")), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" until ")), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" ##1 ")), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" && ")), ParseErrorKind::TooDeep);
    assert_eq!(deep("##1 ".repeat(n) + "a"), ParseErrorKind::TooDeep);
    // Just under the limit still parses.
    let ok = "(".repeat(MAX_DEPTH / 4) + "a" + &")".repeat(MAX_DEPTH / 4);
    within(10, "nested parentheses", move || parse_sva(&ok).unwrap());
    // Declarations that double at each level are stopped by the
    // expansion budget.
    let mut text = String::from("sequence s0; a ##1 b; endsequence ");
    for i in 1..40 {
        text += &format!("sequence s{i}; s{} ##1 s{}; endsequence ", i - 1, i - 1);
    }
    text += "s39";
    let e = within(10, "exponential expansion", move || {
        parse_sva(&text).unwrap_err()
    });
    assert!(matches!(e.kind(), ParseErrorKind::Bound(_)), "{e}");
}

/// Huge counts are refused with the bound, before anything is built.
#[test]
fn huge_counts_are_refused() {
    for text in [
        "a[*99999999999]",
        "a ##99999 b",
        "a ##[1:99999999999999999999999] b",
        "a[->1:100000] |-> b",
        "nexttime [100000] a",
        "always [0:100000] a",
        "$past(a, 100000)",
        "$countones({a, b}) == 99999999999",
    ] {
        let e = within(5, text, move || parse_sva(text).unwrap_err());
        assert!(matches!(e.kind(), ParseErrorKind::Bound(_)), "{text}: {e}");
    }
}

fn sva_soup() -> impl Strategy<Value = String> {
    let tokens = prop::sample::select(vec![
        "a",
        "b",
        "req",
        "ack",
        "state == 2",
        "sig[3]",
        "d[3:0]",
        "1'b1",
        "4'd15",
        "1",
        "0",
        "2",
        "!",
        "~",
        "&&",
        "||",
        "&",
        "|",
        "^",
        "->",
        "?",
        ":",
        ",",
        ";",
        "(",
        ")",
        "{",
        "}",
        "[",
        "]",
        "##",
        "##1",
        "##0",
        "##[1:3]",
        "##[0:$]",
        "##[*]",
        "##[+]",
        "[*",
        "[*]",
        "[+]",
        "[=",
        "[->",
        "1:$",
        "$",
        "|->",
        "|=>",
        "#-#",
        "#=#",
        "and",
        "or",
        "not",
        "intersect",
        "within",
        "throughout",
        "first_match",
        "strong",
        "weak",
        "nexttime",
        "s_nexttime",
        "always",
        "s_always",
        "eventually",
        "s_eventually",
        "until",
        "s_until",
        "until_with",
        "implies",
        "iff",
        "if",
        "else",
        "case",
        "endcase",
        "default",
        "accept_on",
        "reject_on",
        "sync_reject_on",
        "$past",
        "$rose",
        "$fell",
        "$stable",
        "$changed",
        "$onehot",
        "$countones",
        "$isunknown",
        "@",
        "posedge",
        "clk",
        "disable",
        "iff",
        "sequence",
        "endsequence",
        "property",
        "endproperty",
        "let",
        "=",
        "s",
        "p",
        "assert",
        "cover",
        "x.triggered",
        "local",
        "int",
        " ",
        "\n",
        "//",
        "/*",
        "*/",
        "é",
        "\"",
    ]);
    prop::collection::vec(tokens, 0..24).prop_map(|v| v.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,40}") {
        if let Err(e) = parse_sva(&s) {
            prop_assert!(e.offset() <= s.len() && s.is_char_boundary(e.offset()));
            prop_assert!(e.to_string().ends_with('^'));
        }
        let _ = parse_sva_directive(&s);
    }

    #[test]
    fn token_soups_never_panic_and_build(s in sva_soup()) {
        for parsed in [parse_sva(&s), parse_sva_directive(&s).map(|d| d.formula)] {
            match parsed {
                Err(e) => {
                    prop_assert!(e.offset() <= s.len());
                    prop_assert_eq!(e.to_string().lines().count(), 3, "{}", e);
                }
                Ok(f) => {
                    let r = Builder::new()
                        .configure(Config::new().max_states(Some(20_000)).check_safety(false))
                        .build_from_formula(&f);
                    if let Err(e) = r {
                        prop_assert!(e.state_limit().is_some(), "{}: {}", f, e);
                    }
                }
            }
        }
    }
}

/// A random sequence as (SVA, PSL SERE) texts of the same sequence, fully
/// parenthesized: `##` and SVA's operators against PSL's SERE syntax,
/// read by the other front end.
fn sequence_pair() -> BoxedStrategy<(String, String)> {
    let boolean = prop_oneof![
        Just(("a".to_string(), "a".to_string())),
        Just(("b".to_string(), "b".to_string())),
        Just(("c".to_string(), "c".to_string())),
        Just(("!a".to_string(), "!a".to_string())),
        Just(("(a && !b)".to_string(), "(a && !b)".to_string())),
        Just(("(b || c)".to_string(), "(b || c)".to_string())),
        Just(("$rose(a)".to_string(), "rose(a)".to_string())),
        Just(("$past(b)".to_string(), "prev(b)".to_string())),
    ];
    let leaf = boolean.clone().prop_map(|(s, p)| (s, format!("{{{p}}}")));
    leaf.prop_recursive(3, 10, 2, move |inner| {
        prop_oneof![
            (inner.clone(), 0u32..3, inner.clone()).prop_map(|((s1, p1), n, (s2, p2))| {
                let psl = match n {
                    0 => format!("{{{p1} : {p2}}}"),
                    1 => format!("{{{p1} ; {p2}}}"),
                    _ => format!("{{{p1} ; [*{}] ; {p2}}}", n - 1),
                };
                (format!("({s1} ##{n} {s2})"), psl)
            }),
            (inner.clone(), 1u32..3, 0u32..2, inner.clone()).prop_map(
                |((s1, p1), m, k, (s2, p2))| {
                    let n = m + k;
                    (
                        format!("({s1} ##[{m}:{n}] {s2})"),
                        format!("{{{p1} ; [*{}:{}] ; {p2}}}", m - 1, n - 1),
                    )
                }
            ),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (
                    format!("({s1} ##[1:$] {s2})"),
                    format!("{{{p1} ; [*] ; {p2}}}"),
                )
            }),
            (inner.clone(), 0u32..2, 0u32..3).prop_map(|((s, p), m, k)| {
                (
                    format!("({s}[*{m}:{}])", m + k),
                    format!("{{{p}[*{m}:{}]}}", m + k),
                )
            }),
            inner
                .clone()
                .prop_map(|(s, p)| (format!("({s}[+])"), format!("{{{p}[+]}}"))),
            (boolean.clone(), 1u32..3, 0u32..2).prop_map(|((s, p), m, k)| {
                (
                    format!("({s}[->{m}:{}])", m + k),
                    format!("{{{p}[->{m}:{}]}}", m + k),
                )
            }),
            (boolean.clone(), 0u32..2, 0u32..2).prop_map(|((s, p), m, k)| {
                (
                    format!("({s}[={m}:{}])", m + k),
                    format!("{{{p}[={m}:{}]}}", m + k),
                )
            }),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (format!("({s1} or {s2})"), format!("{{{p1} | {p2}}}"))
            }),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (format!("({s1} and {s2})"), format!("{{{p1} & {p2}}}"))
            }),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (
                    format!("({s1} intersect {s2})"),
                    format!("{{{p1} && {p2}}}"),
                )
            }),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (
                    format!("({s1} within {s2})"),
                    format!("{{{p1} within {p2}}}"),
                )
            }),
            (boolean.clone(), inner.clone()).prop_map(|((b, pb), (s, p))| {
                (
                    format!("({b} throughout {s})"),
                    format!("{{{pb}[*] && {p}}}"),
                )
            }),
        ]
    })
    .boxed()
}

/// A random property as (SVA, PSL) texts.
fn property_pair() -> impl Strategy<Value = (String, String)> {
    let seq = sequence_pair();
    // Sequences under property operators are marked `weak` or `strong`:
    // `r1 and r2` of two bare sequences is the sequence `and`, where an
    // empty match of `r1` counts (§16.9.5), and PSL's `{r1} && {r2}` is
    // a conjunction of properties.
    let leaf = prop_oneof![
        seq.clone().prop_map(|(s, p)| (format!("weak({s})"), p)),
        seq.clone()
            .prop_map(|(s, p)| (format!("strong({s})"), format!("{p}!"))),
    ];
    let consequent = |inner: BoxedStrategy<(String, String)>| prop_oneof![sequence_pair(), inner];
    let top = leaf.prop_recursive(2, 8, 2, move |inner| {
        prop_oneof![
            (seq.clone(), consequent(inner.clone())).prop_map(|((s, p), (q, pq))| {
                (format!("({s} |-> {q})"), format!("({p} |-> {pq})"))
            }),
            (seq.clone(), consequent(inner.clone())).prop_map(|((s, p), (q, pq))| {
                (format!("({s} |=> {q})"), format!("({p} |=> {pq})"))
            }),
            inner
                .clone()
                .prop_map(|(s, p)| (format!("(not {s})"), format!("(!{p})"))),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (format!("({s1} and {s2})"), format!("({p1} && {p2})"))
            }),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (format!("({s1} or {s2})"), format!("({p1} || {p2})"))
            }),
            inner
                .clone()
                .prop_map(|(s, p)| (format!("(nexttime {s})"), format!("(next {p})"))),
            (inner.clone(), inner.clone()).prop_map(|((s1, p1), (s2, p2))| {
                (format!("({s1} until {s2})"), format!("({p1} until {p2})"))
            }),
            inner
                .clone()
                .prop_map(|(s, p)| (format!("(accept_on (c) {s})"), format!("({p} abort c)"))),
            inner
                .clone()
                .prop_map(|(s, p)| (format!("(always {s})"), format!("(always {p})"))),
        ]
    });
    prop_oneof![sequence_pair(), top]
}

proptest! {
    // About 85% of the cases are compared (the others admit an empty
    // match, or exceed the state budget): over 600 properties.
    #![proptest_config(ProptestConfig::with_cases(720))]

    /// The SVA front end and the PSL front end agree on the fragment they
    /// share: the same monitor for the same property written in each.
    #[test]
    fn sva_agrees_with_psl_on_random_properties((sva, psl) in property_pair()) {
        let f = match parse_sva(&sva) {
            Ok(f) => f,
            // Sequence properties that admit an empty match are not SVA.
            Err(e) if e.message().contains("§16.12.2") => return Ok(()),
            Err(e) => panic!("{sva}: {e}"),
        };
        let g = parse_psl(&psl).unwrap_or_else(|e| panic!("{psl}: {e}"));
        let build = |f: &Formula| {
            Builder::new()
                .configure(Config::new().verdicts(Verdicts::Three).check_safety(false).max_states(Some(2_000)))
                .build_from_formula(f)
                .map(|t| t.into_dfa())
        };
        let (Ok(mf), Ok(mg)) = (build(&f), build(&g)) else { return Ok(()) };
        prop_assert!(
            mf.first_difference(&mg).is_none(),
            "{} (read as {}) and {} (read as {}) differ on {:?}",
            sva, f, psl, g, mf.first_difference(&mg)
        );
    }
}
