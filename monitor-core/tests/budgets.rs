//! Resource bounds (issue 36, items 11 and 12): wide and counted formulas
//! cost about their size, and parsing stops at the depth limit at once.
//!
//! Each test runs its work on a thread with a deadline far above what it
//! takes now (milliseconds to a few seconds in release builds) and far
//! below what it took before the fixes (a minute, or an error), so that a
//! return of the quadratic or cubic cost fails here rather than in a
//! user's hands. The cost figures before the fixes are those of the issue.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use monitor_core::formula::parse::MAX_DEPTH;
use monitor_core::formula::{parse, parse_psl, ParseErrorKind};
use monitor_core::translate::{Builder, Config, DEFAULT_MAX_MEMORY};

/// Runs `work` on a thread with a large stack (deep formulas recurse) and
/// fails if it has not finished after `secs` seconds.
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

fn states(formula: String, psl: bool, secs: u64) -> usize {
    within(secs, &formula.clone(), move || {
        let f = if psl {
            parse_psl(&formula).unwrap()
        } else {
            parse(&formula).unwrap()
        };
        let t = Builder::new()
            .build_from_formula(&f)
            .unwrap_or_else(|e| panic!("{e}"));
        t.dfa().states().count()
    })
}

fn joined(sep: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("p{i}"))
        .collect::<Vec<_>>()
        .join(sep)
}

/// Item 11: `p0 & … & p3000` took 1.1 GB and failed with a "250000 states"
/// error (the pairwise conflict search of the derivatives, the
/// simplifier's pairwise absorption and the order of the obligations were
/// quadratic); now it is the two-state monitor it is.
#[test]
fn wide_conjunctions_and_disjunctions_are_linear() {
    assert_eq!(states(joined(" & ", 3000), false, 30), 2);
    assert_eq!(states(joined(" | ", 3000), false, 30), 2);
    assert_eq!(states(format!("G({})", joined(" & ", 3000)), false, 30), 1);
    // 30,000 aborted on a 4.5 GB allocation.
    assert_eq!(states(joined(" & ", 30_000), false, 60), 2);
}

/// Item 12: `always next_a[1:1000] (c)` took more than a minute (the
/// conjunction of every `X^k c`, sorted and absorbed pairwise by deep
/// comparisons); it is now nested as LTL's `G[1:1000]`.
#[test]
fn next_a_and_next_e_are_nested_like_bounded_ltl() {
    assert_eq!(states("always next_a[1:1000] (c)".into(), true, 30), 2);
    assert_eq!(states("always next_e[1:1000] (c)".into(), true, 30), 1001);
    // The same monitor as the LTL spelling.
    let psl = parse_psl("always next_a[2:4] (c)").unwrap();
    let ltl = parse("G G[2:4] c").unwrap();
    let a = Builder::new().build_from_formula(&psl).unwrap();
    let b = Builder::new().build_from_formula(&ltl).unwrap();
    assert_eq!(a.dfa().states().count(), b.dfa().states().count());
}

/// Item 12: `next_event(b)[2000]` took 68 s and 662 MB (each of its 2000
/// states holds up to 2000 pending counts, and the tableau merged and
/// compared them pairwise).
#[test]
fn counted_events_are_not_cubic() {
    assert_eq!(
        states("always next_event(b)[2000] (c)".into(), true, 40),
        2000
    );
    assert_eq!(states("{a[=1000]} |=> c".into(), true, 40), 1002);
    assert_eq!(states("{a[->1000]} |=> c".into(), true, 40), 1002);
    assert_eq!(states("{a[*1000]} |=> c".into(), true, 40), 1002);
}

/// Spot's fusion power counts as the repetition does, one residual per
/// count: a copy of one letter only adds to the count, so the linear form
/// of `r[:*n..]` is as long as `r`'s (unrolled copy by copy, as Spot's
/// translation does, it would be as long as `n`). A power whose automaton
/// blows up ends with the memory error, as other SEREs do.
#[test]
fn counted_fusion_powers_are_linear() {
    assert_eq!(states("{{a;b}[:*1000]}[]=> c".into(), false, 40), 1003);
    assert_eq!(states("{{a | {a;b}}[:*1000..]}[]=> c".into(), false, 40), 4);
    out_of_memory(
        "{{(a|b)[*];a}[:+];(a|b)[*15]}[]=> c".into(),
        false,
        16 << 20,
        60,
    );
}

/// Item 12: 200,000 `X` written without spaces took 13.9 s before the
/// depth error (the lexer read the whole remaining word at each letter).
#[test]
fn parsing_stops_at_the_depth_limit_at_once() {
    let deep = |text: String, psl: bool| {
        within(5, "a deep formula", move || {
            if psl {
                parse_psl(&text).unwrap_err().kind().clone()
            } else {
                parse(&text).unwrap_err().kind().clone()
            }
        })
    };
    let n = 200_000;
    assert_eq!(deep("X".repeat(n) + "p", false), ParseErrorKind::TooDeep);
    assert_eq!(deep("X ".repeat(n) + "p", false), ParseErrorKind::TooDeep);
    assert_eq!(
        deep("(".repeat(n) + "p" + &")".repeat(n), false),
        ParseErrorKind::TooDeep
    );
    assert_eq!(deep(joined(" U ", n), false), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" -> ", n), false), ParseErrorKind::TooDeep);
    // `xor` is binary and nests: a long chain is nesting too (it parsed
    // into a formula 200,000 levels deep).
    assert_eq!(deep(joined(" xor ", n), false), ParseErrorKind::TooDeep);
    assert_eq!(deep(joined(" xor ", n), true), ParseErrorKind::TooDeep);
    assert_eq!(deep("next ".repeat(n) + "p", true), ParseErrorKind::TooDeep);
    assert_eq!(
        deep("(".repeat(n) + "p" + &")".repeat(n), true),
        ParseErrorKind::TooDeep
    );
    assert_eq!(
        deep("{".repeat(n) + "a" + &"}".repeat(n) + " |=> c", true),
        ParseErrorKind::TooDeep
    );
    // Just under the limit still parses.
    let ok = "X".repeat(MAX_DEPTH - 1) + "p";
    assert!(parse(&ok).is_ok());
    let ok = joined(" xor ", MAX_DEPTH - 1);
    assert!(parse(&ok).is_ok());
    // `GFp0` and `FALSE` lex as before.
    assert_eq!(parse("GFp0").unwrap().to_spot(), "GFp0");
    assert_eq!(parse("FALSE | Foo").unwrap().to_spot(), "Foo");
    assert_eq!(
        parse("F1 & X0a").unwrap().atomic_propositions(),
        ["F1", "X0a"]
    );
}

/// Huge counts are refused with the bound, before anything is built.
#[test]
fn huge_counts_are_refused() {
    for (text, psl) in [
        ("X[99999999999] p", false),
        ("F[0:99999999999999999999999] p", false),
        ("{a[*99999999999]} |=> c", true),
        ("{a[*99999999999999999999999]} |=> c", true),
        ("{{a;b}[:*99999999999]}[]=> c", false),
        ("{{a;b}[:*2..99999999999]}[]=> c", false),
        ("next_event(b)[99999999999] (c)", true),
        ("next_a[1:99999999999] (c)", true),
    ] {
        let e = within(5, text, move || {
            if psl {
                parse_psl(text).unwrap_err()
            } else {
                parse(text).unwrap_err()
            }
        });
        assert!(matches!(e.kind(), ParseErrorKind::Bound(_)), "{text}: {e}");
    }
}

/// A long `;` chain is gathered once (it was copied at each operand).
#[test]
fn long_sere_chains_parse_in_linear_time() {
    let n = 20_000;
    let text = format!("{{{}}} |-> c", joined(" ; ", n));
    let f = within(10, "a long SERE", move || parse_psl(&text).unwrap());
    assert_eq!(f.child(0).children().len(), n);
}

/// A build with a byte budget of `bytes`, which must fail with the memory
/// error within `secs` seconds.
fn out_of_memory(text: String, psl: bool, bytes: usize, secs: u64) {
    let shown: String = text.chars().take(60).collect();
    let e = within(secs, &shown.clone(), move || {
        let f = if psl {
            parse_psl(&text).unwrap()
        } else {
            parse(&text).unwrap()
        };
        let mut b = Builder::new();
        b.configure(Config::new().max_memory(Some(bytes)));
        b.build_from_formula(&f).map(|t| t.dfa().num_states())
    })
    .expect_err(&shown);
    assert_eq!(e.memory_limit(), Some(bytes), "{shown}: {e}");
    assert_eq!(e.state_limit(), None, "{shown}: {e}");
    assert!(
        e.to_string()
            .starts_with("the construction needs more than"),
        "{e}"
    );
}

/// The byte budget (issue 36, "Resource bounds"): blow-ups that the state
/// limit does not see, or sees too late, end with the memory error, and
/// early. `p0 U … U p1989` took 3 GB and 27 s before failing (and aborted
/// under `ulimit -v 3000000`): its Büchi automaton has 2,000 states but
/// two million edges of 1,990 acceptance marks each, and each expansion
/// compared all pairs of its terms; `Fp0 & … & Fp2999` took 830 MB and
/// 8 to 18 s (the expansion of its first state has a term per subset of
/// the `p` that hold).
#[test]
fn blowups_end_within_the_byte_budget() {
    let small = 64 << 20;
    out_of_memory(joined(" U ", 1990), false, small, 60);
    let f: Vec<String> = (0..3000).map(|i| format!("Fp{i}")).collect();
    out_of_memory(f.join(" & "), false, small, 60);
    // 2^16 pending requests, within the state limit (by derivatives).
    let pending: Vec<String> = (0..16).map(|i| format!("G(a{i} -> X b{i})")).collect();
    out_of_memory(pending.join(" & "), false, 16 << 20, 60);
    // A SERE whose automaton needs 2^16 subsets (the 16th letter from the
    // end): the tableau's and the subset construction's structures.
    out_of_memory("{(a|b)[*]; a; (a|b)[*15]} |=> c".into(), true, 16 << 20, 60);
}

/// The default budget leaves ordinary formulas alone, and a monitor built
/// within a small budget is the one built without any.
#[test]
fn the_byte_budget_leaves_ordinary_formulas_alone() {
    assert_eq!(Config::new().get_max_memory(), DEFAULT_MAX_MEMORY);
    for text in [
        "G(req -> X ack)",
        "G(req -> F ack)",
        "(a U b) & G(c -> X X d)",
        "G(a -> F[0:100] b)",
        "p0 U p1 U p2 U p3 U p4 U p5 U p6 U p7",
    ] {
        let f = parse(text).unwrap();
        let plain = Builder::new().build_from_formula(&f).unwrap();
        let mut b = Builder::new();
        b.configure(Config::new().max_memory(Some(4 << 20)));
        let small = b.build_from_formula(&f).unwrap();
        let mut b = Builder::new();
        b.configure(Config::new().max_memory(None));
        let unlimited = b.build_from_formula(&f).unwrap();
        for t in [&small, &unlimited] {
            assert!(plain.dfa().first_difference(t.dfa()).is_none(), "{text}");
            assert_eq!(plain.is_safety(), t.is_safety(), "{text}");
        }
    }
    // A formula that the default budget builds and a small one refuses:
    // 2^12 states of pending requests.
    let pending: Vec<String> = (0..12).map(|i| format!("G(a{i} -> X b{i})")).collect();
    let f = parse(&pending.join(" & ")).unwrap();
    assert_eq!(
        Builder::new()
            .build_from_formula(&f)
            .unwrap()
            .dfa()
            .num_states(),
        1 << 12
    );
    let mut b = Builder::new();
    b.configure(Config::new().max_memory(Some(1 << 20)));
    assert_eq!(
        b.build_from_formula(&f).unwrap_err().memory_limit(),
        Some(1 << 20)
    );
}

/// `G(a -> (X b0 & X X c0) | … | (X b9 & X X c9))`: its start state is
/// one obligation, but the state after `a` is a diagram of about `2^10`
/// nodes over the obligations `X b_i`, `X c_i` (all the `b`s above all
/// the `c`s), which a lazy monitor builds when it steps, after its
/// construction.
fn pending_pairs(n: usize) -> String {
    let pairs: Vec<String> = (0..n).map(|i| format!("(X b{i} & X X c{i})")).collect();
    format!("G(a -> ({}))", pairs.join(" | "))
}

/// Lazy monitors (issue 36): their diagrams grow in the byte budget
/// (`Config::max_memory`). A transition over it is built again from an
/// emptied cache, the same verdicts as without a budget; one over it
/// from there too stops the monitor with the error, and the checker
/// reports it, never a verdict after it.
#[test]
fn lazy_monitors_stay_in_their_budget() {
    use monitor_core::lazy::LazyMonitor;
    use monitor_core::trace::check::{Checker, Options, Property};
    use monitor_core::trace::expr::Expr;
    use monitor_core::trace::reader::CsvReader;
    use monitor_core::translate::BuildErrorKind;
    use monitor_core::Verdict;

    within(60, "lazy budgets", || {
        let f = parse(&pending_pairs(10)).unwrap();
        let lazy = |bytes: Option<usize>| {
            LazyMonitor::new(&f, &Config::new().max_memory(bytes)).expect("a lazy monitor")
        };
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let word: Vec<u64> = (0..60)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                rng
            })
            .collect();
        // No budget, 4 MiB (emptied on the way), 1 MiB (stops).
        let (mut free, mut tight, mut tiny) =
            (lazy(None), lazy(Some(4 << 20)), lazy(Some(1 << 20)));
        let mut stopped = None;
        for (i, &l) in word.iter().enumerate() {
            let want = free.step(l);
            assert_eq!(tight.try_step(l).expect("within 4 MiB"), want, "letter {i}");
            match tiny.try_step(l) {
                Ok(v) => assert_eq!(v, want, "letter {i}"),
                Err(e) => {
                    assert!(
                        matches!(e.kind(), BuildErrorKind::OutOfMemory { limit } if *limit == 1 << 20)
                    );
                    assert_eq!(
                        e.to_string(),
                        "the construction needs more than 1 MiB of memory"
                    );
                    stopped.get_or_insert(i);
                }
            }
            if want == Verdict::Violated {
                free.reset();
                tight.reset();
                tiny.reset();
            }
        }
        assert!(free.stats().cache_clears == 0 && tight.stats().cache_clears > 0);
        // Stopped for good: no verdict on the letters after.
        let at = stopped.expect("1 MiB is too small for the state after `a`");
        assert!(at < 10, "stopped at {at}");
        assert!(tiny.error().is_some());
        assert_eq!(tiny.step(0), Verdict::Undecided);

        // The checker (restarting after each violation): an error at an
        // event, not a verdict.
        let names = tiny.propositions().to_vec();
        let mut csv = names.join(",") + "\n";
        for &l in &word {
            let row: Vec<&str> = (0..names.len())
                .map(|b| if (l >> b) & 1 == 1 { "1" } else { "0" })
                .collect();
            csv += &row.join(",");
            csv.push('\n');
        }
        let bindings = names.iter().map(|n| Expr::parse(n).unwrap()).collect();
        let p = Property::lazy("pairs", lazy(Some(1 << 20)), bindings);
        let options = Options {
            all: true,
            ..Options::default()
        };
        let mut checker = Checker::new(vec![p], options);
        let err = checker
            .run(&mut CsvReader::new("log", csv.as_bytes()).unwrap())
            .unwrap_err();
        assert!(
            err.at.as_deref().is_some_and(|at| at.starts_with("line ")),
            "{err}"
        );
        assert!(
            err.message
                .contains("the lazy monitor of `pairs` stopped: the construction needs more than 1 MiB of memory"),
            "{err}"
        );
        // Its explanations too, computed out of the budget.
        let mut m = lazy(Some(1 << 20));
        let a = names.iter().position(|n| n == "a").unwrap();
        assert_eq!(m.try_step(1 << a).unwrap(), Verdict::Undecided);
        assert_eq!(m.try_step(1 << a).unwrap(), Verdict::Violated);
        let why = m.violation().expect("violated");
        assert_eq!(why.position, 1);
        assert!(why.pending.contains("b0 & Xc0"), "{why}");
    });
}

/// A budget too small to start (a few bytes to a few KiB, which the CLI
/// and Python refuse up front but the library takes) is the memory error
/// of every entry point that takes one, never a panic (issue 36: the
/// decision-diagram manager asserted that its two leaves fit).
#[test]
fn budgets_too_small_to_start_are_errors() {
    use monitor_core::analysis::{classify, is_stutter_invariant};
    use monitor_core::lazy::LazyMonitor;
    use monitor_core::translate::stages::NbaStage;
    use monitor_core::translate::BuildErrorKind;

    for text in [
        "G(req -> X ack)",
        "a U b",
        "G a",
        "true",
        "G(a -> F[0:3] b)",
    ] {
        let f = parse(text).unwrap();
        for bytes in [0, 1, 100, 1 << 10, 16 << 10, 64 << 10, 80 << 10, 100 << 10] {
            let cfg = Config::new().max_memory(Some(bytes));
            let mut b = Builder::new();
            b.configure(cfg.clone());
            let is_memory = |e: &monitor_core::translate::BuildError| {
                e.memory_limit() == Some(bytes)
                    && e.to_string()
                        .starts_with("the construction needs more than")
            };
            // Above 64 KiB a result is fine (a budget may hold a small
            // monitor); an error must be the memory error; a panic fails
            // the test. Up to 64 KiB (less than the manager's first
            // tables), every entry point refuses.
            if bytes <= 64 << 10 {
                let e = b.build_from_formula(&f).map(|_| ()).unwrap_err();
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
                let e = NbaStage::build(&f, &cfg).map(|_| ()).unwrap_err();
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
                let e = classify(&f, &cfg).map(|_| ()).unwrap_err();
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
                if !f.is_next_free() {
                    // (Next-free formulas are answered without building.)
                    let e = is_stutter_invariant(&f, &cfg).map(|_| ()).unwrap_err();
                    assert!(is_memory(&e), "{text} in {bytes}: {e}");
                }
                if text.starts_with('G') {
                    let e = LazyMonitor::new(&f, &cfg).map(|_| ()).unwrap_err();
                    assert!(is_memory(&e), "{text} in {bytes}: {e}");
                }
            }
            if let Err(e) = b.build_from_formula(&f) {
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
            }
            if let Err(e) = NbaStage::build(&f, &cfg) {
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
            }
            if let Err(e) = classify(&f, &cfg) {
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
            }
            if let Err(e) = is_stutter_invariant(&f, &cfg) {
                assert!(is_memory(&e), "{text} in {bytes}: {e}");
            }
            match LazyMonitor::new(&f, &cfg) {
                Ok(mut m) => {
                    for l in 0..8u64 {
                        if let Err(e) = m.try_step(l) {
                            assert!(is_memory(&e), "{text} in {bytes}: {e}");
                            break;
                        }
                    }
                }
                Err(e) => assert!(
                    is_memory(&e) || matches!(e.kind(), BuildErrorKind::NotLazy { .. }),
                    "{text} in {bytes}: {e}"
                ),
            }
        }
    }
}

/// The explanation of a lazy monitor's violation names what was pending
/// in a few terms, computed within a bound (issue 36): the pending state
/// after `a` in `G(a -> (X b0 | X c0) & … & (X b29 | X c29))` has `2^30`
/// prime implicants, which the full cover wrote out before keeping four.
#[test]
fn lazy_explanations_are_bounded() {
    use monitor_core::lazy::LazyMonitor;
    use monitor_core::Verdict;

    let n = 30;
    let pairs: Vec<String> = (0..n).map(|i| format!("(X b{i} | X c{i})")).collect();
    let text = format!("G(a -> ({}))", pairs.join(" & "));
    let why = within(60, "a pending state of 2^30 terms", move || {
        let f = parse(&text).unwrap();
        let mut m = LazyMonitor::new(&f, &Config::new()).unwrap();
        let names = m.propositions().to_vec();
        let a = names.iter().position(|n| n == "a").unwrap();
        assert_eq!(m.try_step(1 << a).unwrap(), Verdict::Undecided);
        assert_eq!(m.try_step(0).unwrap(), Verdict::Violated);
        m.violation().expect("violated")
    });
    assert_eq!(why.position, 1);
    // A few terms, each one of the implicants (a `b` or a `c` from each
    // pair), and the mark that there are more.
    assert!(why.pending.ends_with(" | …"), "{why}");
    let body = why.pending.trim_end_matches(" | …");
    let (mut terms, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (i, ch) in body.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            '|' if depth == 0 => {
                terms.push(body[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    terms.push(body[start..].trim());
    assert!(!terms.is_empty() && terms.len() <= 4, "{why}");
    for t in terms {
        for i in 0..n {
            assert!(
                t.contains(&format!("b{i}")) || t.contains(&format!("c{i}")),
                "{t} lacks pair {i}: {why}"
            );
        }
    }
}
