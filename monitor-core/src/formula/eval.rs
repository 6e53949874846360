//! Brute-force evaluation on ultimately periodic words.
//!
//! This is the reference semantics the automata are tested against: it
//! shares no code with the translator. A [`Lasso`] is the infinite word
//! `prefix · cycle^ω`; [`holds`] computes the truth value of every
//! subformula at every position of a finite unrolling of it:
//!
//! * past operators by their recurrences, forwards from position 0;
//! * `U`, `F`, `M` as least and `R`, `G`, `W` as greatest fixpoints,
//!   backwards, sweeping the loop twice (enough for the values to settle);
//! * the cycle is unrolled `past depth + 2` times so that the values of
//!   past subformulas are periodic on the last copy (each nesting level of
//!   past operators can need one more turn of the loop to stabilize);
//! * PSL: the matches of a SERE are computed by dynamic programming over
//!   the word, straight from the definitions (the set of end points of
//!   the matches from each start, for every sub-SERE), on a finite
//!   horizon of [`SERE_LOOPS`] more turns of the cycle. Suffix
//!   implication and conjunction quantify over those matches; the weak
//!   closure `{r}` appends letters that satisfy every Boolean (IEEE 1850's
//!   ⊤) after the horizon and asks for a match. This is exact as soon as
//!   the SERE's own behaviour on the cycle has become periodic, which
//!   takes at most as many turns as the SERE has sets of residuals: the
//!   small SEREs of the tests are far below the horizon.
//!
//! ```
//! use monitor_core::formula::{parse, eval::holds};
//! use monitor_core::word::Lasso;
//!
//! let aps = ["req".to_string(), "ack".to_string()];
//! let f = parse("G(req -> X ack)")?;
//! // req, ack, (nothing)^ω
//! let w = Lasso::new(vec![0b01u64, 0b10], vec![0b00]);
//! assert!(holds(&f, &aps, &w));
//! let w = Lasso::new(vec![0b01u64, 0b00], vec![0b00]);
//! assert!(!holds(&f, &aps, &w));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::{Formula, Op};
use crate::word::Lasso;
use crate::Valuation;

/// How many turns of the cycle the SERE matcher looks ahead.
pub const SERE_LOOPS: usize = 24;

/// How many ⊤ letters the weak closure may append after the horizon.
const TOP_LETTERS: usize = 48;

/// The end points of SERE matches on a finite window of the word.
///
/// Time `t` reads the letter at `t`; a match from `i` to `j` reads the
/// letters `i..j` (so `j == i` is the empty match). Letters at times
/// `>= top_from` are ⊤: they satisfy every Boolean.
struct SereMatcher<'a> {
    /// Boolean values of the SERE's leaves at each unrolled position.
    val: &'a FxHashMap<Formula, Vec<bool>>,
    fold: &'a dyn Fn(usize) -> usize,
    horizon: usize,
    top_from: usize,
    /// From this time on the letters are ⊤ (`true`) or ⊥ (`false`) for the
    /// SERE (already complemented for the negative operators).
    special: Option<(usize, bool)>,
    /// Whether ⊤ and ⊥ are read swapped (the barred word `w̄` of IEEE
    /// 1800-2017 Annex F, on which `first_match` looks for shorter
    /// matches).
    barred: bool,
    memo: FxHashMap<(Formula, usize, bool), Rc<Vec<bool>>>,
}

impl SereMatcher<'_> {
    fn letter_ok(&self, b: &Formula, t: usize) -> bool {
        if t >= self.top_from {
            return !self.barred;
        }
        match self.special {
            Some((from, kind)) if t >= from => kind != self.barred,
            // `1` may be no leaf of the SERE (the fusion power's `r[:*0]`).
            _ => b.is_true() || self.val[b][(self.fold)(t)],
        }
    }

    /// `ends[j]`: whether the letters `i..j` match `r` (`j <= horizon`).
    fn ends(&mut self, r: &Formula, i: usize) -> Rc<Vec<bool>> {
        if let Some(e) = self.memo.get(&(r.clone(), i, self.barred)) {
            return e.clone();
        }
        let h = self.horizon;
        let mut out = vec![false; h + 1];
        match r.op() {
            Op::EmptyWord => out[i] = true,
            Op::Concat => {
                let mut cur = vec![false; h + 1];
                cur[i] = true;
                for c in r.children() {
                    cur = self.step(c, &cur);
                }
                out = cur;
            }
            Op::Fusion => {
                // r1 : rest — rest starts on the last letter r1 read (empty
                // matches of either side share no letter).
                let rest = Formula::fusion(r.children()[1..].to_vec());
                let first = self.ends(r.child(0), i);
                for j in i + 1..=h {
                    if first[j] {
                        // rest's match contains the shared letter j - 1.
                        let e = self.ends(&rest, j - 1);
                        for k in j..=h {
                            out[k] |= e[k];
                        }
                    }
                }
            }
            Op::OrRat | Op::AndRat => {
                let and = r.op() == Op::AndRat;
                out = vec![and; h + 1];
                for c in r.children() {
                    let e = self.ends(c, i);
                    for j in 0..=h {
                        out[j] = if and { out[j] && e[j] } else { out[j] || e[j] };
                    }
                }
            }
            Op::Star => {
                let (lo, hi) = r.star_bounds().expect("star");
                let c = r.child(0);
                // Exactly k repetitions, for k = 0, 1, ...
                let mut level = vec![false; h + 1];
                level[i] = true;
                let mut k = 0u32;
                while k < lo {
                    level = self.step(c, &level);
                    k += 1;
                }
                out = level.clone();
                match hi {
                    Some(hi) => {
                        while k < hi && level.iter().any(|&x| x) {
                            level = self.step(c, &level);
                            k += 1;
                            for j in 0..=h {
                                out[j] |= level[j];
                            }
                        }
                    }
                    None => loop {
                        let next = self.step(c, &out);
                        let mut grew = false;
                        for j in 0..=h {
                            if next[j] && !out[j] {
                                out[j] = true;
                                grew = true;
                            }
                        }
                        if !grew {
                            break;
                        }
                    },
                }
            }
            Op::FStar => {
                // Spot's fusion power, by its definition: the union over
                // k in lo..=hi of r^{:k}, where r^{:0} is one letter (the
                // Boolean `1`), r^{:1} the non-empty matches of `r`, and
                // r^{:k+1} = r^{:k} : r (the next copy starts on the last
                // letter of the previous one, and is not empty).
                let (lo, hi) = r.fusion_power_bounds().expect("fusion power");
                let c = r.child(0);
                let exactly = |m: &mut Self, k: u32, prev: &[bool]| -> Vec<bool> {
                    let mut next = vec![false; h + 1];
                    match k {
                        0 => {
                            if i < h && m.letter_ok(&Formula::tt(), i) {
                                next[i + 1] = true;
                            }
                        }
                        1 => {
                            let e = m.ends(c, i);
                            next[i + 1..].copy_from_slice(&e[i + 1..]);
                        }
                        _ => {
                            // A previous copy ended at j (read j - 1):
                            // the next one starts on that letter.
                            let ends: Vec<usize> = (i + 1..=h).filter(|&j| prev[j]).collect();
                            for j in ends {
                                let e = m.ends(c, j - 1);
                                for (n, &x) in next.iter_mut().zip(e.iter()).skip(j) {
                                    *n |= x;
                                }
                            }
                        }
                    }
                    next
                };
                // Exactly k copies, for k = 0, 1, ...
                let mut level = exactly(self, 0, &[]);
                let mut k = 0u32;
                while k < lo {
                    k += 1;
                    level = exactly(self, k, &level);
                }
                out = level.clone();
                // Unbounded: the end points of the levels from max(lo, 1)
                // on, each of which the next level fuses a copy to; a
                // point seen there again adds nothing new (a level is the
                // union over its points), so only new points go on, and
                // the loop ends when there are none.
                let mut seen = if k >= 1 {
                    level.clone()
                } else {
                    vec![false; h + 1]
                };
                while hi.is_none_or(|hi| k < hi) && level.iter().any(|&x| x) {
                    k += 1;
                    level = exactly(self, k, &level);
                    if hi.is_none() && k >= 2 {
                        for j in 0..=h {
                            level[j] &= !seen[j];
                        }
                    }
                    for j in 0..=h {
                        seen[j] |= level[j];
                        out[j] |= level[j];
                    }
                }
            }
            Op::FirstMatch => {
                // The matches of the operand with no proper prefix that
                // matches it on the barred word (Annex F.3.3).
                let e = self.ends(r.child(0), i);
                self.barred = !self.barred;
                let blocking = self.ends(r.child(0), i);
                self.barred = !self.barred;
                for j in i..=h {
                    out[j] = e[j];
                    if blocking[j] {
                        break;
                    }
                }
            }
            _ => {
                assert!(
                    !r.has_future(),
                    "temporal formula {r} used as a SERE letter"
                );
                if i < h && self.letter_ok(r, i) {
                    out[i + 1] = true;
                }
            }
        }
        let out = Rc::new(out);
        self.memo.insert((r.clone(), i, self.barred), out.clone());
        out
    }

    /// The end points of matches of `r` starting at any point of `starts`.
    fn step(&mut self, r: &Formula, starts: &[bool]) -> Vec<bool> {
        let mut out = vec![false; self.horizon + 1];
        for (j, _) in starts.iter().enumerate().filter(|&(_, &s)| s) {
            let e = self.ends(r, j);
            for (o, &x) in out.iter_mut().zip(e.iter()) {
                *o |= x;
            }
        }
        out
    }
}

/// Whether the infinite word `lasso` satisfies `f` at its first position.
/// `aps[i]` names the proposition read by `letter.holds(i)`; propositions of
/// `f` missing from `aps` are false everywhere.
///
/// ```
/// # use monitor_core::formula::{eval::holds, parse};
/// # use monitor_core::word::Lasso;
/// let aps = ["a".to_string(), "b".to_string()];
/// let w = Lasso::new(vec![0b01u64], vec![0b10]); // a, then b forever
/// assert!(holds(&parse("a & X G(b & !a)")?, &aps, &w));
/// assert!(!holds(&parse("G F a")?, &aps, &w));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn holds<L: Valuation + Clone>(f: &Formula, aps: &[String], lasso: &Lasso<L>) -> bool {
    unrolled_values(f, aps, lasso, None).0[0]
}

/// The truth value of `f` at each position `0..lasso.prefix.len()` (the
/// positions of the prefix) and then at the positions of one turn of the
/// cycle, once past subformulas have become periodic. Mostly useful for
/// tests; [`holds`] is the first value.
///
/// ```
/// # use monitor_core::formula::{eval::values, parse};
/// # use monitor_core::word::Lasso;
/// let aps = ["a".to_string()];
/// let w = Lasso::new(vec![0b1u64, 0b0], vec![0b0]); // a, !a, then !a forever
/// // `Y a` at positions 0 and 1 (the prefix), then on the cycle.
/// assert_eq!(values(&parse("Y a")?, &aps, &w), [false, true, false]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn values<L: Valuation + Clone>(f: &Formula, aps: &[String], lasso: &Lasso<L>) -> Vec<bool> {
    let (all, loop_start) = unrolled_values(f, aps, lasso, None);
    let mut out: Vec<bool> = all[..lasso.prefix.len()].to_vec();
    out.extend_from_slice(&all[loop_start..]);
    out
}

/// The values of `f` at every position of the unrolled word, and the
/// position where its loop starts.
///
/// With `special = Some(kind)`, the letters of the cycle are not letters
/// of the lasso but IEEE 1850's ⊤ (`kind` true: they satisfy every
/// Boolean) or ⊥ (they satisfy none): the words `abort` reads.
fn unrolled_values<L: Valuation + Clone>(
    f: &Formula,
    aps: &[String],
    lasso: &Lasso<L>,
    special: Option<bool>,
) -> (Vec<bool>, usize) {
    let index: FxHashMap<&str, usize> = aps
        .iter()
        .enumerate()
        .map(|(i, a)| (a.as_str(), i))
        .collect();
    let copies = f.past_depth() as usize + 2;
    let (p, c) = (lasso.prefix.len(), lasso.cycle.len());
    let n = p + copies * c;
    let loop_start = n - c;
    let succ = |i: usize| if i + 1 < n { i + 1 } else { loop_start };
    let fold = |t: usize| {
        if t < n {
            t
        } else {
            loop_start + (t - loop_start) % c
        }
    };
    let horizon = n + SERE_LOOPS * c;
    let mut val: FxHashMap<Formula, Vec<bool>> = FxHashMap::default();
    let p = lasso.prefix.len();
    for g in f.subformulas_postorder() {
        if g.op().is_sere() {
            // Not a formula: its matches are computed where it is used.
            continue;
        }
        let kid = |i: usize| &val[g.child(i)];
        let pointwise1 =
            |h: &dyn Fn(bool) -> bool| kid(0).iter().map(|&x| h(x)).collect::<Vec<_>>();
        let pointwise2 = |h: &dyn Fn(bool, bool) -> bool| {
            kid(0)
                .iter()
                .zip(kid(1))
                .map(|(&x, &y)| h(x, y))
                .collect::<Vec<_>>()
        };
        let v: Vec<bool> = match g.op() {
            Op::True => vec![true; n],
            Op::False => vec![false; n],
            Op::Ap => match index.get(g.ap_name().expect("ap")) {
                Some(&k) => (0..n).map(|i| lasso.letter(i).holds(k)).collect(),
                None => vec![false; n],
            },
            Op::Not => pointwise1(&|x| !x),
            Op::And => (0..n)
                .map(|i| g.children().iter().all(|c| val[c][i]))
                .collect(),
            Op::Or => (0..n)
                .map(|i| g.children().iter().any(|c| val[c][i]))
                .collect(),
            Op::Implies => pointwise2(&|x, y| !x || y),
            Op::Equiv => pointwise2(&|x, y| x == y),
            Op::Xor => pointwise2(&|x, y| x != y),
            Op::X => (0..n).map(|i| kid(0)[succ(i)]).collect(),
            // Past: forward recurrences; `first` is the value "before"
            // position 0 that makes the recurrence right at position 0.
            Op::Y | Op::Z => {
                let a = kid(0);
                (0..n)
                    .map(|i| if i == 0 { g.op() == Op::Z } else { a[i - 1] })
                    .collect()
            }
            Op::O | Op::H | Op::S | Op::B | Op::T => {
                let (a, b): (Vec<bool>, Vec<bool>) = match g.op() {
                    Op::O => (vec![true; n], kid(0).clone()),
                    Op::H => (kid(0).clone(), vec![false; n]),
                    _ => (kid(0).clone(), kid(1).clone()),
                };
                let mut prev = matches!(g.op(), Op::H | Op::B | Op::T);
                let mut v = Vec::with_capacity(n);
                for i in 0..n {
                    prev = if g.op() == Op::T {
                        b[i] && (a[i] || prev)
                    } else {
                        b[i] || (a[i] && prev)
                    };
                    v.push(prev);
                }
                v
            }
            Op::U | Op::F | Op::W | Op::R | Op::G | Op::M => {
                // v[i] = goal[i] | (keep[i] & v[succ i])    (U, F, W)
                // v[i] = goal[i] & (keep[i] | v[succ i])    (R, G, M)
                let (keep, goal): (Vec<bool>, Vec<bool>) = match g.op() {
                    Op::F => (vec![true; n], kid(0).clone()),
                    Op::G => (vec![false; n], kid(0).clone()),
                    _ => (kid(0).clone(), kid(1).clone()),
                };
                let disj = matches!(g.op(), Op::U | Op::F | Op::W);
                let greatest = matches!(g.op(), Op::W | Op::R | Op::G);
                let mut v = vec![greatest; n];
                for _ in 0..2 {
                    for i in (0..n).rev() {
                        let next = v[succ(i)];
                        v[i] = if disj {
                            goal[i] || (keep[i] && next)
                        } else {
                            goal[i] && (keep[i] || next)
                        };
                    }
                }
                v
            }
            Op::UConcat | Op::EConcat | Op::EConcatMarked => {
                let universal = g.op() == Op::UConcat;
                // IEEE 1850: `{r} |-> f` is `!({r} <>-> !f)` read on the
                // complemented word: its SERE sees ⊤ and ⊥ swapped.
                let mut m = SereMatcher {
                    val: &val,
                    fold: &fold,
                    horizon,
                    top_from: usize::MAX,
                    special: special.map(|k| (p, k != universal)),
                    barred: false,
                    memo: FxHashMap::default(),
                };
                let after = &val[g.child(1)];
                (0..n)
                    .map(|i| {
                        let ends = m.ends(g.child(0), i);
                        let mut hits = (i + 1..=horizon).filter(|&j| ends[j]);
                        if universal {
                            hits.all(|j| after[fold(j - 1)])
                        } else {
                            hits.any(|j| after[fold(j - 1)])
                        }
                    })
                    .collect()
            }
            Op::Closure | Op::NegClosure | Op::NegClosureMarked => {
                // Real letters up to the horizon, then ⊤ letters: the
                // closure holds iff that word has a (non-empty) match.
                let positive = g.op() == Op::Closure;
                // `!{r}` reads `{r}` on the complemented word.
                let mut m = SereMatcher {
                    val: &val,
                    fold: &fold,
                    horizon: horizon + TOP_LETTERS,
                    top_from: horizon,
                    special: special.map(|k| (p, k == positive)),
                    barred: false,
                    memo: FxHashMap::default(),
                };
                (0..n)
                    .map(|i| {
                        let ends = m.ends(g.child(0), i);
                        ends[i + 1..].iter().any(|&x| x) == positive
                    })
                    .collect()
            }
            Op::Abort | Op::AbortBottom => {
                // IEEE 1850, literally: `f abort b` holds if `f` does, or if
                // for some j with b, `f` holds on the word from i cut at j
                // (real letters before j, ⊤ from j on); its dual holds if
                // `f` does and does on every such ⊥-cut word. (The
                // translator uses the first b only, by monotonicity: this
                // checks that too.)
                let top = g.op() == Op::Abort;
                let b = &val[g.child(1)];
                let inner = &val[g.child(0)];
                // On a cut word, negation swaps ⊤ and ⊥ (IEEE 1850:
                // v ⊨ ¬φ iff v̄ ⊭ φ); in negation normal form negations are
                // on Booleans only, where ⊤ and ⊥ are handled letter by
                // letter. (`!F b` holds on ⊤⊤⊤…: `F b` fails on ⊥⊥⊥….)
                let cut_formula = g.child(0).nnf_under_abort();
                let letters: Vec<L> = (0..n + 2 * c).map(|t| lasso.letter(t).clone()).collect();
                // In a word that is itself cut, the letters from p on are
                // all ⊤ (a cut there is the cut at p) or all ⊥ (b never
                // holds there).
                let end = if special.is_some() { p + 1 } else { n + 2 * c };
                // The dual is the negation of an abort on the complemented
                // word: its cuts are where b holds there, so never on a ⊤
                // letter, and on every ⊥ letter.
                let cut_at = |t: usize| match special {
                    Some(kind) if !top && fold(t) >= p => !kind,
                    _ => b[fold(t)],
                };
                (0..n)
                    .map(|i| {
                        let mut cuts = (i..end.max(i)).filter(|&t| cut_at(t)).map(|j| {
                            let cut = Lasso::new(letters[i..j].to_vec(), vec![letters[0].clone()]);
                            unrolled_values(&cut_formula, aps, &cut, Some(top)).0[0]
                        });
                        if top {
                            inner[i] || cuts.any(|x| x)
                        } else {
                            inner[i] && cuts.all(|x| x)
                        }
                    })
                    .collect()
            }
            op => unreachable!("{op:?} is a SERE operator"),
        };
        let mut v = v;
        if let (Some(kind), false) = (special, g.has_future()) {
            // A Boolean (or pure-past) expression on ⊤ / ⊥ letters.
            for x in &mut v[p..] {
                *x = kind;
            }
        }
        val.insert(g, v);
    }
    (val.remove(f).expect("root evaluated"), loop_start)
}

#[cfg(test)]
mod tests {
    use super::super::parse;
    use super::*;

    fn aps() -> Vec<String> {
        vec!["a".into(), "b".into()]
    }

    fn check(f: &str, prefix: Vec<u64>, cycle: Vec<u64>, expected: bool) {
        let l = Lasso::new(prefix, cycle);
        assert_eq!(
            holds(&parse(f).unwrap(), &aps(), &l),
            expected,
            "{f} on {l:?}"
        );
    }

    #[test]
    fn future_operators() {
        // a=bit0, b=bit1
        check("a U b", vec![1, 1], vec![2], true);
        check("a U b", vec![1, 0], vec![2], false);
        check("a U b", vec![], vec![1], false);
        check("a W b", vec![], vec![1], true);
        check("G F b", vec![], vec![0, 0, 2], true);
        check("F G b", vec![], vec![0, 2], false);
        check("F G b", vec![0, 0], vec![2], true);
        check("a R b", vec![2, 2], vec![3], true);
        check("a R b", vec![2, 2], vec![2], true);
        check("a R b", vec![2, 0], vec![3], false);
        check("a M b", vec![2, 2], vec![2], false);
        check("a M b", vec![2, 3], vec![0], true);
        check("X X a", vec![0, 0], vec![1], true);
        check("G(a -> X b)", vec![], vec![1, 2], true);
        check("G(a -> X b)", vec![], vec![1, 0], false);
    }

    #[test]
    fn past_operators() {
        check("Y a", vec![1], vec![1], false);
        check("Y a", vec![], vec![1], false);
        check("c S a", vec![], vec![6, 3], false);
        check("Z a", vec![0], vec![0], true);
        check("X Y a", vec![1], vec![0], true);
        check("G(b -> Y a)", vec![1, 2], vec![0], true);
        check("G(b -> Y a)", vec![2], vec![0], false);
        check("G(b -> O a)", vec![0, 1, 0, 2], vec![2], true);
        check("G(b -> O a)", vec![0, 2], vec![1], false);
        check("G H a", vec![], vec![1], true);
        check("F(b & (a S b))", vec![], vec![2], true);
        check("G((a S b) -> a | b)", vec![], vec![1, 2, 0], true);
        // a B b holds while a has always held, even without b.
        check("G(a B b)", vec![], vec![1], true);
        check("G(a S b)", vec![], vec![1], false);
        // a T b: b held since the last a (inclusive), or always.
        check("G(a T b)", vec![], vec![2], true);
        check("F(!(a T b))", vec![2, 0], vec![1], true);
        // Periodicity: Y over the loop boundary, nested past.
        check("G(Y Y a -> b)", vec![], vec![1, 2, 0], false);
        check("G(Y Y a -> b)", vec![], vec![1, 0, 2], true);
    }

    #[test]
    fn negation_on_cut_words_swaps_top_and_bottom() {
        // `(!F b) abort b`: the cut at the first b leaves a prefix without
        // b, then ⊤ letters, on which `!F b` holds (`F b` fails on ⊥), so
        // the property always holds. Without the swap, `F b` held on ⊤
        // and the cut failed.
        let b = Formula::ap("b");
        let f = Formula::abort(Formula::not(Formula::eventually(b.clone())), b);
        let words: [(Vec<u64>, Vec<u64>); 3] =
            [(vec![], vec![2]), (vec![1, 3], vec![0]), (vec![], vec![0])];
        for (prefix, cycle) in words.clone() {
            let l = Lasso::new(prefix, cycle);
            assert!(holds(&f, &aps(), &l), "{f} on {l:?}");
        }
        // `(!({a} abort b)) abort b` on b b b …: the cut at 0 leaves ⊤ ⊤ …,
        // where `!({a} abort b)` holds: `{a} abort b` fails on ⊥ ⊥ …,
        // where b never holds (the dual's cuts are on the complemented
        // word).
        let a = Formula::ap("a");
        let b = Formula::ap("b");
        let inner = Formula::abort(Formula::closure(a), b.clone());
        let f = Formula::abort(Formula::not(inner), b);
        assert!(holds(&f, &aps(), &Lasso::new(vec![], vec![2u64])), "{f}");
    }

    #[test]
    fn constants_on_cut_words() {
        // IEEE 1850: a ⊤ letter satisfies every Boolean, `false` included,
        // a ⊥ letter none, `true` included; the parser keeps `X false`
        // apart from `false` so that the letter it reads is the right one.
        let p = |s: &str| crate::formula::parse_psl(s).unwrap();
        let (none, b) = (0u64, 2u64);
        for (f, prefix, expected) in [
            // The cut at 1: `false` is read on ⊤ …
            ("(next false) abort b", vec![none], true),
            // … but not at 2, where `next false` reads a real letter.
            ("(next false) abort b", vec![none, none], false),
            ("(eventually! false) abort b", vec![none, none], true),
            ("({true; false}!) abort b", vec![none], true),
            ("({true; true; false}!) abort b", vec![none], true),
            ("(a until! false) abort b", vec![none], false),
            ("(a until! false) abort b", vec![1], true),
            // `!(next true)` is `next false`; `next true` never fails
            // before a ⊤ cut.
            ("(!(next true)) abort b", vec![none], true),
            ("!((next true) abort b)", vec![none], false),
            // `false` as the sole SERE letter matches only a ⊤ letter.
            ("({true} |-> false) abort b", vec![none], false),
            ("({true; true} |-> false) abort b", vec![none], true),
        ] {
            let f = p(f);
            let l = Lasso::new(prefix, vec![b]);
            assert_eq!(holds(&f, &aps(), &l), expected, "{f} on {l:?}");
        }
    }
}
