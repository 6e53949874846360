//! Checks of the SVA oracle (`tests/sva_oracle`) before it judges the SVA
//! front end: known answers from the examples of IEEE 1800-2017 §16.7,
//! §16.9 and §16.12 and from the definitions of Annex F, the printers'
//! text, and a differential test against the PSL evaluator
//! (`formula::eval`, an independent implementation of IEEE 1850) on the
//! fragment the two languages share.

mod sva_oracle;

use monitor_core::formula::eval::holds;
use monitor_core::formula::parse_psl;
use monitor_core::word::Lasso;
use proptest::prelude::*;
use sva_oracle::ast::Hi;
use sva_oracle::print::{ap_names, psl_sere, sva_seq};
use sva_oracle::random::{lasso_strategy, legal, prop_strategy};
use sva_oracle::*;

const A: u64 = 1;
const B: u64 = 2;
const C: u64 = 4;

fn a() -> Bool {
    ap(0)
}
fn bb() -> Bool {
    ap(1)
}
fn c() -> Bool {
    ap(2)
}

fn cat(l: Seq, n: u32, r: Seq) -> Seq {
    delay(l, n, Some(n), r)
}

fn delay(l: Seq, lo: u32, hi: Hi, r: Seq) -> Seq {
    Seq::Delay {
        lhs: Some(bx(l)),
        lo,
        hi,
        rhs: bx(r),
    }
}

fn lead(lo: u32, hi: Hi, r: Seq) -> Seq {
    Seq::Delay {
        lhs: None,
        lo,
        hi,
        rhs: bx(r),
    }
}

fn rep(s: Seq, lo: u32, hi: Hi) -> Seq {
    Seq::Repeat { s: bx(s), lo, hi }
}

fn seqp(s: Seq) -> Prop {
    Prop::Seq(s)
}

fn w(prefix: &[u64], cycle: &[u64]) -> Lasso<u64> {
    Lasso::new(prefix.to_vec(), cycle.to_vec())
}

/// The ends of the matches from 0 (the position of their last letter).
fn ends(s: &Seq, prefix: &[u64]) -> Vec<usize> {
    Oracle::match_ends(s, &w(prefix, &[0]), 0, prefix.len() + 4)
}

#[test]
fn sequence_matches_from_the_standards_examples() {
    // §16.7: a ##1 b ##1 c over three ticks.
    let abc = cat(cat(b(a()), 1, b(bb())), 1, b(c()));
    assert_eq!(ends(&abc, &[A, B, C]), [2]);
    assert_eq!(ends(&abc, &[A, B, 0]), [] as [usize; 0]);
    // §16.7: ranges give one match per delay.
    let r = delay(b(a()), 1, Some(3), b(bb()));
    assert_eq!(ends(&r, &[A, 0, B, B, 0]), [2, 3]);
    // ##0 is fusion: the two ends share a tick.
    assert_eq!(ends(&cat(b(a()), 0, b(bb())), &[A | B]), [0]);
    assert_eq!(ends(&cat(b(a()), 0, b(bb())), &[A, B]), [] as [usize; 0]);
    let fused = cat(cat(b(a()), 1, b(bb())), 0, cat(b(bb()), 1, b(c())));
    assert_eq!(ends(&fused, &[A, B, C]), [2]);
    // ##[0:1]: the fusion or one tick later.
    let r01 = delay(b(a()), 0, Some(1), b(bb()));
    assert_eq!(ends(&r01, &[A | B, B]), [0, 1]);
    // §16.9.2: a ##1 b[*0] ##1 c is a ##1 c.
    let empty_b = cat(cat(b(a()), 1, rep(b(bb()), 0, Some(0))), 1, b(c()));
    assert_eq!(ends(&empty_b, &[A, C]), [1]);
    // Leading delays: ##1 b skips one tick (that must not be ⊥).
    assert_eq!(ends(&lead(1, Some(1), b(bb())), &[0, B]), [1]);
    assert_eq!(ends(&lead(0, Some(2), b(bb())), &[B, B, B]), [0, 1, 2]);
    // §16.9.2: consecutive repetition.
    let r = cat(cat(b(a()), 1, rep(b(bb()), 2, Some(3))), 1, b(c()));
    assert_eq!(ends(&r, &[A, B, B, C]), [3]);
    assert_eq!(ends(&r, &[A, B, B, B, C]), [4]);
    assert_eq!(ends(&r, &[A, B, C]), [] as [usize; 0]);
    assert_eq!(ends(&rep(b(a()), 1, None), &[A, A, A, 0]), [0, 1, 2]);
    // §16.9.2: goto repetition ends on the last b; c must follow at once.
    let goto = cat(
        cat(
            b(a()),
            1,
            Seq::Goto {
                b: bb(),
                lo: 2,
                hi: Some(2),
            },
        ),
        1,
        b(c()),
    );
    assert_eq!(ends(&goto, &[A, 0, B, 0, B, C]), [5]);
    assert_eq!(ends(&goto, &[A, 0, B, 0, B, 0, C]), [] as [usize; 0]);
    // Non-consecutive repetition: ticks without b may follow the last b.
    let noncons = cat(
        cat(
            b(a()),
            1,
            Seq::NonCons {
                b: bb(),
                lo: 2,
                hi: Some(2),
            },
        ),
        1,
        b(c()),
    );
    assert_eq!(ends(&noncons, &[A, 0, B, 0, B, 0, C]), [6]);
    assert_eq!(ends(&noncons, &[A, 0, B, 0, B, C]), [5]);
    assert_eq!(ends(&noncons, &[A, 0, B, B, B, C]), [] as [usize; 0]);
    // §16.9.5: `and` ends with the later operand.
    let both = Seq::And(bx(cat(b(a()), 2, b(bb()))), bx(cat(b(a()), 1, b(c()))));
    assert_eq!(ends(&both, &[A, C, B]), [2]);
    // §16.9.6: `intersect` needs the same end.
    let inter = Seq::Intersect(
        bx(delay(b(a()), 1, Some(3), b(bb()))),
        bx(rep(b(Bool::Const(true)), 3, Some(3))),
    );
    assert_eq!(ends(&inter, &[A, 0, B, B, 0]), [2]);
    // §16.9.7: `or`.
    let either = Seq::Or(bx(cat(b(a()), 1, b(bb()))), bx(b(c())));
    assert_eq!(ends(&either, &[A | C, B]), [0, 1]);
    // §16.9.8: first_match keeps the earliest end.
    let fm = Seq::FirstMatch(bx(delay(b(a()), 1, Some(3), b(bb()))));
    assert_eq!(ends(&fm, &[A, 0, B, B, 0]), [2]);
    // §16.9.9: throughout.
    let thr = Seq::Throughout(c(), bx(cat(b(a()), 2, b(bb()))));
    assert_eq!(ends(&thr, &[A | C, C, B | C]), [2]);
    assert_eq!(ends(&thr, &[A | C, 0, B | C]), [] as [usize; 0]);
    // §16.9.10: within.
    let within = Seq::Within(bx(b(bb())), bx(cat(b(a()), 3, b(c()))));
    assert_eq!(ends(&within, &[A, 0, B, C]), [3]);
    assert_eq!(ends(&within, &[A, 0, 0, C]), [] as [usize; 0]);
    // ⊤ and ⊥ never occur in traces: `1'b0` matches nothing.
    assert_eq!(ends(&b(Bool::Const(false)), &[A | B | C]), [] as [usize; 0]);
}

#[test]
fn sampled_value_functions_before_and_after_the_first_tick() {
    // §16.9.3: the value before the first tick is the default, 0.
    let s = |f: Sampled| b(Bool::Sampled(f, 0));
    assert_eq!(ends(&s(Sampled::Rose), &[A]), [0]);
    assert_eq!(ends(&s(Sampled::Rose), &[0]), [] as [usize; 0]);
    assert_eq!(ends(&s(Sampled::Fell), &[0]), [] as [usize; 0]);
    assert_eq!(ends(&s(Sampled::Stable), &[0]), [0]);
    assert_eq!(ends(&s(Sampled::Stable), &[A]), [] as [usize; 0]);
    assert_eq!(ends(&s(Sampled::Changed), &[A]), [0]);
    assert_eq!(ends(&s(Sampled::Past(1)), &[A]), [] as [usize; 0]);
    // Later ticks compare with the previous one.
    let at1 = |f: Sampled, prefix: &[u64]| ends(&lead(1, Some(1), s(f)), prefix);
    assert_eq!(at1(Sampled::Rose, &[0, A]), [1]);
    assert_eq!(at1(Sampled::Rose, &[A, A]), [] as [usize; 0]);
    assert_eq!(at1(Sampled::Fell, &[A, 0]), [1]);
    assert_eq!(at1(Sampled::Stable, &[A, A]), [1]);
    assert_eq!(at1(Sampled::Changed, &[A, 0]), [1]);
    assert_eq!(at1(Sampled::Past(1), &[A, 0]), [1]);
    assert_eq!(at1(Sampled::Past(2), &[A, 0]), [] as [usize; 0]);
    assert_eq!(
        ends(&lead(2, Some(2), s(Sampled::Past(2))), &[A, 0, 0]),
        [2]
    );
    // A sampled value inside a consequent reads the whole trace's past,
    // not the sub-word the implication looks at.
    let p = Prop::Implication {
        s: b(bb()),
        overlap: true,
        p: bx(seqp(s(Sampled::Past(1)))),
    };
    assert!(!Oracle::new(&p).holds(&w(&[B], &[0])));
    let always_p = Prop::Always {
        range: None,
        strong: false,
        p: bx(p),
    };
    assert!(Oracle::new(&always_p).holds(&w(&[0, A, B], &[0])));
    assert!(!Oracle::new(&always_p).holds(&w(&[0, 0, B], &[0])));
}

fn check(p: &Prop, prefix: &[u64], cycle: &[u64], expected: bool) {
    let l = w(prefix, cycle);
    assert_eq!(
        Oracle::new(p).holds(&l),
        expected,
        "{} on {l:?}",
        sva(p, Parens::Minimal)
    );
}

fn bp(x: Bool) -> Prop {
    seqp(b(x))
}

#[test]
fn properties_from_the_definitions() {
    let always = |p: Prop| Prop::Always {
        range: None,
        strong: false,
        p: bx(p),
    };
    let imp = |s: Seq, overlap: bool, p: Prop| Prop::Implication {
        s,
        overlap,
        p: bx(p),
    };
    // §16.12.6: implication, one attempt and under `always`.
    let req_ack = imp(b(a()), true, seqp(lead(1, Some(1), b(bb()))));
    check(&req_ack, &[A, B], &[0], true);
    check(&req_ack, &[A, 0], &[0], false);
    check(&req_ack, &[0], &[0], true);
    let every = always(imp(b(a()), false, bp(bb())));
    check(&every, &[], &[A, B], true);
    check(&every, &[], &[A, A | B, 0], false);
    // #-# needs a match; |-> is vacuous without one.
    let fb = Prop::FollowedBy {
        s: b(a()),
        overlap: true,
        p: bx(bp(bb())),
    };
    check(&fb, &[A | B], &[0], true);
    check(&fb, &[A], &[0], false);
    check(&fb, &[0], &[B], false);
    check(&imp(b(a()), true, bp(bb())), &[0], &[0], true);
    // Weak and strong sequences (§16.12.2, F.5): a weak sequence holds as
    // long as every prefix can still be completed.
    let ab = delay(b(a()), 1, None, b(bb()));
    check(&seqp(ab.clone()), &[A], &[0], true);
    check(&Prop::Weak(ab.clone()), &[A], &[0], true);
    check(&Prop::Strong(ab.clone()), &[A], &[0], false);
    check(&Prop::Strong(ab.clone()), &[A, 0, 0], &[B], true);
    check(&seqp(ab), &[0], &[0], false);
    // ⊤ satisfies 1'b0: `weak(a[+] ##1 1'b0)` holds on a forever (every
    // prefix a…a ⊤ ⊤ … matches), and fails once a stops.
    let never = cat(rep(b(a()), 1, None), 1, b(Bool::Const(false)));
    check(&Prop::Weak(never.clone()), &[], &[A], true);
    check(&Prop::Weak(never.clone()), &[A], &[0], false);
    check(&Prop::Strong(never), &[], &[A], false);
    // not, nexttime, until and its variants.
    check(
        &Prop::Not(bx(seqp(cat(b(a()), 1, b(bb()))))),
        &[A, B],
        &[0],
        false,
    );
    check(
        &Prop::Not(bx(seqp(cat(b(a()), 1, b(bb()))))),
        &[A, 0],
        &[0],
        true,
    );
    let next2 = Prop::Nexttime {
        n: 2,
        strong: false,
        p: bx(bp(a())),
    };
    check(&next2, &[0, 0, A], &[0], true);
    check(&next2, &[0, A, 0], &[0], false);
    let until = |strong, with| Prop::Until {
        strong,
        with,
        p: bx(bp(a())),
        q: bx(bp(bb())),
    };
    check(&until(false, false), &[], &[A], true);
    check(&until(true, false), &[], &[A], false);
    check(&until(true, false), &[A, A], &[B], true);
    check(&until(false, true), &[A, A | B], &[0], true);
    check(&until(false, true), &[A, B], &[0], false);
    let ev = Prop::Eventually {
        range: None,
        strong: true,
        p: bx(bp(a())),
    };
    check(&ev, &[], &[0], false);
    check(&ev, &[0, 0], &[A, 0], true);
    // Ranged always and eventually (§16.12.11, §16.12.13).
    let al12 = Prop::Always {
        range: Some((1, Some(2))),
        strong: false,
        p: bx(bp(a())),
    };
    check(&al12, &[0, A, A, 0], &[0], true);
    check(&al12, &[0, A, 0], &[A], false);
    let ev12 = Prop::Eventually {
        range: Some((1, Some(2))),
        strong: true,
        p: bx(bp(a())),
    };
    check(&ev12, &[A, 0, 0, A], &[0], false);
    check(&ev12, &[0, 0, A], &[0], true);
    let ev2inf = Prop::Eventually {
        range: Some((2, None)),
        strong: true,
        p: bx(bp(a())),
    };
    check(&ev2inf, &[A, A], &[0], false);
    check(&ev2inf, &[A, A, 0, 0], &[0, A], true);
    // if / else (§16.12.8).
    let ite = Prop::If(a(), bx(bp(bb())), Some(bx(bp(c()))));
    check(&ite, &[A | B], &[0], true);
    check(&ite, &[A | C], &[0], false);
    check(&ite, &[C], &[0], true);
    // first_match in an antecedent (§16.9.8): only the first end obliges.
    let ante = delay(b(a()), 1, Some(2), b(bb()));
    let fm = imp(Seq::FirstMatch(bx(ante.clone())), true, bp(c()));
    check(&fm, &[A, B | C, B], &[0], true);
    check(&imp(ante, true, bp(c())), &[A, B | C, B], &[0], false);
    // accept_on / reject_on (§16.12.14): the abort condition decides an
    // attempt still pending.
    let acc = Prop::Abort {
        kind: Abort {
            reject: false,
            sync: false,
        },
        b: c(),
        p: bx(always(bp(a()))),
    };
    check(&acc, &[A, A, C], &[0], true);
    check(&acc, &[A, 0, C], &[0], false);
    check(&acc, &[], &[A], true);
    let rej = |p: Prop| Prop::Abort {
        kind: Abort {
            reject: true,
            sync: false,
        },
        b: c(),
        p: bx(p),
    };
    check(&rej(always(bp(a()))), &[A, A, A | C], &[A], false);
    check(&rej(always(bp(a()))), &[], &[A], true);
    check(&rej(bp(a())), &[A, C], &[0], true);
    check(&rej(bp(a())), &[A | C], &[0], false);
    // The abort condition wins at the tick where it holds: that letter is
    // replaced by ⊤ (accept_on) or ⊥ (reject_on), not read.
    check(
        &rej(Prop::Strong(cat(b(a()), 1, b(bb())))),
        &[A, B, C],
        &[0],
        true,
    );
    check(
        &rej(Prop::Strong(cat(b(a()), 1, b(bb())))),
        &[A, B | C],
        &[0],
        false,
    );
    check(
        &rej(Prop::Strong(cat(b(a()), 1, b(bb())))),
        &[A, C],
        &[B],
        false,
    );
    // disable iff: the attempt is cut at the first tick of the condition.
    let dis = Prop::DisableIff(c(), bx(imp(b(a()), false, bp(bb()))));
    check(&dis, &[A | C], &[0], true);
    check(&dis, &[A], &[0], false);
    check(&dis, &[A, C], &[0], true);
}

#[test]
fn printers_follow_table_16_3() {
    let p = Prop::Implication {
        s: cat(b(a()), 1, rep(b(Bool::Or(bx(a()), bx(bb()))), 1, None)),
        overlap: false,
        p: bx(Prop::Until {
            strong: false,
            with: false,
            p: bx(Prop::Not(bx(bp(a())))),
            q: bx(Prop::Always {
                range: None,
                strong: false,
                p: bx(Prop::And(bx(bp(bb())), bx(bp(c())))),
            }),
        }),
    };
    assert_eq!(
        sva(&p, Parens::Minimal),
        "a ##1 (a || b)[+] |=> not a until (always b and c)"
    );
    assert_eq!(
        sva(&p, Parens::Full),
        "(a ##1 ((a || b)[*1:$])) |=> ((not a) until (always (b and c)))"
    );
    let s = Seq::Within(
        bx(Seq::Intersect(bx(b(a())), bx(b(bb())))),
        bx(Seq::Throughout(c(), bx(lead(0, None, b(a()))))),
    );
    assert_eq!(
        sva_seq(&s, Parens::Minimal),
        "(a intersect b) within c throughout ##[*] a"
    );
    assert_eq!(
        psl(&seqp(s)).unwrap(),
        "{{{a} && {b}} within {{c[*]} && {true[*0:inf] ; {a}}}}"
    );
    assert_eq!(psl_sere(&Seq::FirstMatch(bx(b(a())))), None);
}

/// The PSL formula of a shared-fragment property, parsed by the crate.
fn psl_formula(p: &Prop) -> monitor_core::formula::Formula {
    let text = psl(p).expect("shared fragment");
    parse_psl(&text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Oracle and PSL evaluator on `lassos` random words; the disagreement,
/// if any.
fn compare_with_psl(p: &Prop, lassos: &[Lasso<u64>]) -> Option<String> {
    let f = psl_formula(p);
    let aps = ap_names(3);
    let mut o = Oracle::new(p);
    for l in lassos {
        let (mine, theirs) = (o.holds(l), holds(&f, &aps, l));
        if mine != theirs {
            return Some(format!(
                "SVA `{}` / PSL `{}` on {l:?}: oracle {mine}, PSL evaluator {theirs}",
                sva(p, Parens::Minimal),
                psl(p).unwrap()
            ));
        }
    }
    None
}

/// The cross-check of `formulas` seeded properties of the shared fragment
/// on `words` random lassos each: the number of comparisons, or the
/// disagreements.
fn cross_check(seeds: std::ops::Range<u64>, words: usize, cfg: GenConfig) -> usize {
    let mut disagreements = Vec::new();
    let mut compared = 0;
    for seed in seeds.clone() {
        let mut g = Gen::new(seed, cfg.clone());
        let p = g.assertion(1 + (seed % 3) as u32);
        let lassos: Vec<_> = (0..words).map(|_| g.lasso(3, 3)).collect();
        compared += lassos.len();
        if let Some(d) = compare_with_psl(&p, &lassos) {
            disagreements.push(format!("seed {seed}: {d}"));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} formulas disagree:\n{}",
        disagreements.len(),
        seeds.end - seeds.start,
        disagreements[..disagreements.len().min(20)].join("\n")
    );
    compared
}

/// Without `accept_on`/`reject_on`/`disable iff`: the PSL evaluator
/// re-evaluates its operand on every cut word, from scratch, on a long
/// horizon (about a second a formula in a debug build), so aborts have
/// their own, smaller test.
fn no_aborts() -> GenConfig {
    GenConfig {
        disable: false,
        aborts: false,
        ..GenConfig::shared()
    }
}

#[test]
fn the_oracle_agrees_with_the_psl_evaluator_on_the_shared_fragment() {
    // The PSL evaluator takes about 0.2 s a formula in a debug build; the
    // long run is `agrees_with_the_psl_evaluator_long` below.
    assert_eq!(cross_check(0..300, 2, no_aborts()), 600);
}

#[test]
fn the_oracle_agrees_with_the_psl_evaluator_under_aborts() {
    let cfg = GenConfig {
        max_n: 1,
        ..GenConfig::shared()
    };
    let mut checked = 0;
    for seed in 0..400u64 {
        let mut g = Gen::new(seed, cfg.clone());
        // An abort over a small property: its own generator's depth 1.
        let inner = g.prop(1);
        let p = match seed % 3 {
            0 => Prop::DisableIff(g.boolean(1), bx(inner)),
            k => Prop::Abort {
                kind: Abort {
                    reject: k == 2,
                    sync: seed % 2 == 0,
                },
                b: g.boolean(1),
                p: bx(inner),
            },
        };
        let lassos: Vec<_> = (0..2).map(|_| g.lasso(2, 2)).collect();
        if let Some(d) = compare_with_psl(&p, &lassos) {
            panic!("seed {seed}: {d}");
        }
        checked += 1;
    }
    assert_eq!(checked, 400);
}

/// The long run of the cross-check, in a release build:
/// `cargo test --release -p monitor-core --test sva_oracle_selfcheck -- --ignored`.
#[test]
#[ignore = "minutes in a debug build; run with --release -- --ignored"]
fn agrees_with_the_psl_evaluator_long() {
    let n = cross_check(1000..4000, 4, no_aborts());
    let m = cross_check(4000..5000, 3, GenConfig::shared());
    eprintln!("{} formulas, {} comparisons, no disagreement", 4000, n + m);
}

#[test]
fn the_generator_makes_legal_properties_of_every_kind() {
    let mut texts = std::collections::BTreeSet::new();
    let mut all = String::new();
    for seed in 0..3000u64 {
        let p = Gen::new(seed, GenConfig::full()).assertion(1 + (seed % 3) as u32);
        assert!(legal(&p, true), "seed {seed}");
        let t = sva(&p, Parens::Minimal);
        all.push_str(&t);
        all.push_str(&sva(&p, Parens::Full));
        texts.insert(t);
    }
    // Mostly distinct properties, and every operator of the list.
    assert!(texts.len() > 2500, "{} distinct", texts.len());
    for op in [
        "##0",
        "##1",
        "##[",
        "[*",
        "[+]",
        "[=",
        "[->",
        " and ",
        " or ",
        "intersect",
        "within",
        "throughout",
        "first_match",
        "$past(",
        "$rose",
        "$fell",
        "$stable",
        "$changed",
        "strong(",
        "weak(",
        "not ",
        "implies",
        " iff ",
        "if (",
        "else",
        "|->",
        "|=>",
        "#-#",
        "#=#",
        "nexttime ",
        "nexttime [",
        "s_nexttime",
        "always ",
        "always [",
        "s_always [",
        "eventually [",
        "s_eventually ",
        "s_eventually [",
        " until ",
        "s_until ",
        "until_with",
        "s_until_with",
        "accept_on",
        "reject_on",
        "sync_accept_on",
        "sync_reject_on",
        "disable iff",
        "1'b0",
        "1'b1",
        ":$]",
        "##[*]",
        "##[+]",
    ] {
        assert!(all.contains(op), "no `{op}` generated");
    }
}

/// Theorems of the standard's semantics (not definitions the oracle is
/// built from), on random sequences, properties and words: they exercise
/// `first_match`, the barred antecedent and the abort cut outside the
/// PSL fragment.
#[test]
fn laws_of_the_standard_hold() {
    let iff = |p: Prop, q: Prop| Prop::Iff(bx(p), bx(q));
    let implies = |p: Prop, q: Prop| Prop::Implies(bx(p), bx(q));
    let imp = |s: Seq, overlap: bool, p: Prop| Prop::Implication {
        s,
        overlap,
        p: bx(p),
    };
    let next = |p: Prop| Prop::Nexttime {
        n: 1,
        strong: false,
        p: bx(p),
    };
    let always = |p: Prop| Prop::Always {
        range: None,
        strong: false,
        p: bx(p),
    };
    let abort = |reject: bool, b: Bool, p: Prop| Prop::Abort {
        kind: Abort {
            reject,
            sync: false,
        },
        b,
        p: bx(p),
    };
    let mut checked = 0;
    for seed in 0..1000u64 {
        let mut g = Gen::new(seed, GenConfig::full());
        let (s1, s2) = (g.seq(2), g.seq(2));
        let (p, q) = (g.prop(1), g.prop(1));
        let cond = g.boolean(1);
        let fm = Seq::FirstMatch(bx(s1.clone()));
        let mut laws = vec![
            // A cut only makes a property easier (truncation lemma).
            implies(q.clone(), abort(false, cond.clone(), q.clone())),
            implies(abort(true, cond.clone(), q.clone()), q.clone()),
            iff(abort(false, Bool::Const(false), q.clone()), q.clone()),
            // Implication distributes over `or` and splits at ##1.
            iff(
                imp(Seq::Or(bx(s1.clone()), bx(s2.clone())), true, p.clone()),
                Prop::And(
                    bx(imp(s1.clone(), true, p.clone())),
                    bx(imp(s2.clone(), true, p.clone())),
                ),
            ),
            // first_match keeps the first end only (§16.9.8).
            implies(
                imp(s1.clone(), true, p.clone()),
                imp(fm.clone(), true, p.clone()),
            ),
            iff(
                always(p.clone()),
                Prop::And(bx(p.clone()), bx(next(always(p.clone())))),
            ),
        ];
        if !Oracle::admits_empty(&s1) && !Oracle::admits_empty(&s2) {
            // (An empty match of the antecedent counts in `(s ##1 1) |-> p`
            // and `(s1 ##1 s2) |-> p`, not in `s |-> nexttime p`.)
            laws.extend([
                // §16.12.7: |=> is |-> one tick later.
                iff(
                    imp(s1.clone(), false, p.clone()),
                    imp(s1.clone(), true, next(p.clone())),
                ),
                iff(
                    imp(
                        Seq::Delay {
                            lhs: Some(bx(s1.clone())),
                            lo: 1,
                            hi: Some(1),
                            rhs: bx(s2.clone()),
                        },
                        true,
                        p.clone(),
                    ),
                    imp(s1.clone(), false, imp(s2.clone(), true, p.clone())),
                ),
                implies(Prop::Strong(s1.clone()), Prop::Weak(s1.clone())),
                iff(Prop::Strong(fm.clone()), Prop::Strong(s1.clone())),
                iff(Prop::Weak(fm.clone()), Prop::Weak(s1.clone())),
            ]);
        }
        for law in &laws {
            let mut o = Oracle::new(law);
            for _ in 0..4 {
                let l = g.lasso(3, 3);
                assert!(
                    o.holds(&l),
                    "seed {seed}: `{}` fails on {l:?}",
                    sva(law, Parens::Minimal)
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 20_000, "{checked}");
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 100,
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x5eed),
        ..ProptestConfig::default()
    })]

    /// The PSL cross-check on shrinking properties and words.
    #[test]
    fn shrinking_cross_check_with_psl(
        p in prop_strategy(&no_aborts()),
        l in lasso_strategy(3, 4, 4),
    ) {
        let d = compare_with_psl(&p, &[l]);
        prop_assert!(d.is_none(), "{}", d.unwrap());
    }
}
