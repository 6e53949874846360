//! What is known about a formula beyond its monitor: its place in the
//! safety-progress hierarchy ([`classify`]: safety, guarantee, liveness,
//! pathologic formulas after KV01), stutter-invariance
//! ([`is_stutter_invariant`], MDL15), how its informative monitor differs
//! from the exact one ([`compare_informative`], Latvala03), and its
//! symbolic transducer ([`transducer`], LHJ10).
//!
//! Each analysis takes a formula and a [`Config`] (its state limit bounds
//! every automaton built) and answers `None` where deciding would exceed
//! the limit, rather than failing.
//!
//! ```
//! use monitor_core::analysis::classify;
//! use monitor_core::formula::parse;
//! use monitor_core::translate::Config;
//!
//! let c = classify(&parse("G(req -> F ack)")?, &Config::new())?;
//! // Every request can still be answered: a liveness property.
//! assert_eq!((c.safety, c.liveness), (Some(false), true));
//! // A violation that no finite prefix shows: a request never answered.
//! assert_eq!(c.witness_text().as_deref(), Some("req & !ack; cycle{!req & !ack}"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::algo::derivatives;
use crate::algo::emptiness::{accepted_lasso, every_cycle_accepting, finite_paths_only};
use crate::algo::product::{first_difference, stutter_product};
use crate::automaton::dfa::DetAutomaton;
use crate::automaton::dfa::{
    format_word, repeated_letters_stay, sink_reachable, sink_unreachable, VIOLATION_LEAF,
};
use crate::automaton::{Alphabet, Guard, Nba, Verdict};
use crate::dd::{Cube, Manager};
use crate::error::BuildError;
use crate::formula::Formula;
use crate::translate::pipeline::{within_limit, Pipeline};
use crate::translate::Config;
use crate::word::Lasso;

/// Everything known about a formula's place in the safety-progress
/// hierarchy and its monitorability.
#[derive(Clone, Debug)]
pub struct Classification {
    /// The formula, as given.
    pub formula: Formula,
    /// Its propositions (the order of witness letters).
    pub alphabet: Alphabet,
    /// Every violation has a bad prefix. `None` (here and below): not
    /// decided within the state limit.
    pub safety: Option<bool>,
    /// In Spot's syntactic safety class.
    pub syntactic_safety: bool,
    /// Every satisfying word has a good prefix (co-safety).
    pub guarantee: Option<bool>,
    /// In Spot's syntactic guarantee class.
    pub syntactic_guarantee: bool,
    /// Every finite word can be extended into a model (no bad prefix).
    pub liveness: bool,
    /// Repeating letters never changes the verdict on a word.
    pub stutter_invariant: Option<bool>,
    /// Some violating word has no informative bad prefix (Kupferman–Vardi;
    /// Latvala's check). Always true for a non-safety formula.
    pub pathologic: Option<bool>,
    /// States of the exact monitor.
    pub monitor_states: usize,
    /// States of the informative monitor (`None` if it exceeds the state
    /// limit).
    pub informative_states: Option<usize>,
    /// For a non-safety formula: a violating word without bad prefix.
    pub non_safety_witness: Option<Lasso<Vec<bool>>>,
}

impl Classification {
    /// A short description of the witness word, or `None`.
    ///
    /// ```
    /// # use monitor_core::analysis::classify;
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::Config;
    /// let c = classify(&parse("G(req -> F ack)")?, &Config::new())?;
    /// assert_eq!(c.witness_text().as_deref(), Some("req & !ack; cycle{!req & !ack}"));
    /// // A safety property has no such witness.
    /// assert_eq!(classify(&parse("G(req -> X ack)")?, &Config::new())?.witness_text(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn witness_text(&self) -> Option<String> {
        self.non_safety_witness
            .as_ref()
            .map(|w| lasso_text(w, &self.alphabet))
    }
}

/// Formats a lasso of full letters as `a & !b; b; cycle{!a & !b}`.
///
/// ```
/// # use monitor_core::analysis::lasso_text;
/// # use monitor_core::automaton::Alphabet;
/// # use monitor_core::word::Lasso;
/// let w = Lasso::new(vec![vec![true, false]], vec![vec![false, true], vec![false, false]]);
/// let aps = Alphabet::new(["a", "b"]);
/// assert_eq!(lasso_text(&w, &aps), "a & !b; cycle{!a & b; !a & !b}");
/// ```
pub fn lasso_text(w: &Lasso<Vec<bool>>, aps: &Alphabet) -> String {
    let letter = |l: &Vec<bool>| {
        let cube: Cube = l.iter().enumerate().map(|(i, &b)| (i as u32, b)).collect();
        Guard::from_cubes(vec![cube])
    };
    let mut parts: Vec<String> = w
        .prefix
        .iter()
        .map(|l| letter(l).display(aps).to_string())
        .collect();
    let cycle: Vec<String> = w
        .cycle
        .iter()
        .map(|l| letter(l).display(aps).to_string())
        .collect();
    parts.push(format!("cycle{{{}}}", cycle.join("; ")));
    parts.join("; ")
}

/// Classifies a formula (see [`Classification`]).
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::analysis::classify;
/// use monitor_core::translate::Config;
///
/// let c = classify(&parse("F p0 -> (!p1 U p0)")?, &Config::new())?;
/// assert_eq!((c.safety, c.syntactic_safety, c.guarantee, c.pathologic),
///            (Some(true), false, Some(false), Some(false)));
/// let c = classify(&parse("F p")?, &Config::new())?;
/// assert_eq!((c.safety, c.guarantee, c.liveness, c.pathologic),
///            (Some(false), Some(true), true, Some(true)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn classify(f: &Formula, cfg: &Config) -> Result<Classification, BuildError> {
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let ng = Formula::not(g.clone());
    let (det_pos, _, _) = pipe.exact(&g)?;
    // Cheap sufficient conditions first, and the Büchi automata only when
    // they fail (the negation's can be exponential where the monitor is
    // not: `Gp1 | … | Gpn`); an answer that would exceed the state limit
    // is reported as unknown rather than failing the whole classification.
    // The simplified formula is equivalent: its syntactic class counts too.
    let (safety, witness) = if f.is_syntactic_safety()
        || g.is_syntactic_safety()
        || every_cycle_accepting(&*pipe.nba(&g)?)
    {
        (Some(true), None)
    } else {
        let nba_neg = pipe.nba(&ng)?;
        match within_limit(pipe.intersection_witness(&nba_neg, &det_pos))? {
            Some(w) => (Some(w.is_none()), w),
            None => (None, None),
        }
    };
    let mut det_neg: Option<Option<DetAutomaton>> = None;
    let mut exact_neg = |pipe: &mut Pipeline| -> Result<Option<DetAutomaton>, BuildError> {
        if det_neg.is_none() {
            det_neg = Some(within_limit(pipe.exact(&ng))?.map(|d| d.0));
        }
        Ok(det_neg.clone().flatten())
    };
    let guarantee = if f.is_syntactic_guarantee() {
        Some(true)
    } else if safety == Some(true) {
        // The monitor is exact for the formula itself.
        Some(safety_is_guarantee(&pipe.mgr, &det_pos))
    } else if every_cycle_accepting(&*pipe.nba(&ng)?) {
        Some(true)
    } else {
        let nba_pos = pipe.nba(&g)?;
        match exact_neg(&mut pipe)? {
            Some(neg) => {
                within_limit(pipe.intersection_witness(&nba_pos, &neg))?.map(|w| w.is_none())
            }
            None => None,
        }
    };
    let liveness =
        det_pos.verdicts[0] != Verdict::Violated && sink_unreachable(&pipe.mgr, &det_pos.diagrams);
    let stutter_invariant = if f.is_next_free() {
        Some(true)
    } else if safety == Some(true) {
        Some(stutter_invariant_safety(&mut pipe.mgr, &det_pos))
    } else if guarantee == Some(true) {
        // Stutter-invariance is closed under complement.
        exact_neg(&mut pipe)?.map(|neg| stutter_invariant_safety(&mut pipe.mgr, &neg))
    } else {
        let nba_pos = pipe.nba(&g)?;
        let nba_neg = pipe.nba(&ng)?;
        let max = pipe.max_states;
        within_limit(stuttered_languages_disjoint(
            &mut pipe, &nba_pos, &nba_neg, max,
        ))?
    };
    // Its size is reported; where it exceeds the limit, the answers that
    // need it are unknown.
    let det_inf = within_limit(pipe.informative(f))?.map(|d| d.0);
    let pathologic = match safety {
        // By definition (and as in scheck): a violation without any bad
        // prefix has no informative one.
        Some(false) => Some(true),
        // Not known to be safety: a non-safety formula would be
        // pathologic by definition.
        None => None,
        // Every violation of these has an informative bad prefix (see
        // `algo::derivatives`), although their two monitors may differ.
        Some(true) if f.is_syntactic_safety() && derivatives::applies(&f.nnf()) => Some(false),
        Some(true) => match &det_inf {
            None => None,
            // Every bad prefix informative: every violation has one.
            Some(inf) if first_difference(&mut pipe.mgr, &det_pos, inf).is_none() => Some(false),
            Some(inf) => {
                let nba_neg = pipe.nba(&ng)?;
                within_limit(pipe.intersection_witness(&nba_neg, inf))?.map(|w| w.is_some())
            }
        },
    };
    // Nothing computed after the byte budget refused a growth is right.
    pipe.check_memory()?;
    Ok(Classification {
        formula: f.clone(),
        alphabet: pipe.aps.clone(),
        safety,
        syntactic_safety: f.is_syntactic_safety(),
        guarantee,
        syntactic_guarantee: f.is_syntactic_guarantee(),
        liveness,
        stutter_invariant,
        pathologic,
        monitor_states: det_pos.len(),
        informative_states: det_inf.as_ref().map(DetAutomaton::len),
        non_safety_witness: witness,
    })
}

/// Whether repeating or removing repeated letters never changes whether a
/// word satisfies `f` (`None`: not decided within the state limit of
/// `cfg`). Exact: a formula without `X` or `Y` is, and otherwise neither
/// the Büchi automaton of `f` nor that of `!f`, letters repeated, meets
/// the other (Michaud and Duret-Lutz's check). This is what decides
/// whether Spin's partial-order reduction may be used with a claim.
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::analysis::is_stutter_invariant;
/// use monitor_core::translate::Config;
///
/// let cfg = Config::new();
/// assert_eq!(is_stutter_invariant(&parse("G(a -> F b)")?, &cfg)?, Some(true));
/// assert_eq!(is_stutter_invariant(&parse("G(a -> X b)")?, &cfg)?, Some(false));
/// // X, yet stutter-invariant.
/// assert_eq!(is_stutter_invariant(&parse("F(a & X !a) | FG a | FG !a")?, &cfg)?, Some(true));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn is_stutter_invariant(f: &Formula, cfg: &Config) -> Result<Option<bool>, BuildError> {
    if f.is_next_free() {
        return Ok(Some(true));
    }
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let ng = Formula::not(g.clone());
    within_limit((|| {
        let pos = pipe.nba(&g)?;
        let neg = pipe.nba(&ng)?;
        let max = pipe.max_states;
        let disjoint = stuttered_languages_disjoint(&mut pipe, &pos, &neg, max)?;
        pipe.check_memory()?;
        Ok(disjoint)
    })())
}

/// Michaud and Duret-Lutz's check on the Büchi automata of a formula
/// (`pos`) and of its negation (`neg`): the formula is stutter-invariant
/// iff neither, its letters repeated, meets the other. Each product is
/// bounded by `max_states`.
fn stuttered_languages_disjoint(
    pipe: &mut Pipeline,
    pos: &Nba,
    neg: &Nba,
    max_states: usize,
) -> Result<bool, BuildError> {
    let a = stutter_product(&mut pipe.mgr, pos, neg, max_states)?;
    let b = stutter_product(&mut pipe.mgr, neg, pos, max_states)?;
    Ok(accepted_lasso(&pipe.mgr, &a, pipe.aps.len()).is_none()
        && accepted_lasso(&pipe.mgr, &b, pipe.aps.len()).is_none())
}

/// Whether the safety property whose exact monitor is `det` is also a
/// guarantee (co-safety): every model has a good prefix. It is unless the
/// monitor can stay forever in states from which a violation is still
/// possible: a cycle through them is a model without good prefix.
fn safety_is_guarantee(mgr: &Manager, det: &DetAutomaton) -> bool {
    // The states from which the sink is reachable ("open").
    let open = sink_reachable(mgr, &det.diagrams);
    let succ: Vec<Vec<u32>> = det
        .diagrams
        .iter()
        .map(|&d| {
            let mut s = mgr.leaves(d);
            s.retain(|&t| t != VIOLATION_LEAF);
            s
        })
        .collect();
    let finite = finite_paths_only(&succ, &open);
    (0..det.len()).all(|q| !open[q] || finite[q])
}

/// Stutter-invariance of a safety property from its exact minimal
/// monitor (see [`repeated_letters_stay`]).
fn stutter_invariant_safety(mgr: &mut Manager, det: &DetAutomaton) -> bool {
    repeated_letters_stay(mgr, &det.diagrams)
}

/// The symbolic transducer of the informative bad prefixes of `f`
/// (LHJ10): linear in the formula, for symbolic model checkers. It
/// detects every violation exactly when `f` is a safety formula that is
/// not pathologic (see [`classify`]).
///
/// ```
/// use monitor_core::formula::parse;
/// use monitor_core::analysis::transducer;
/// let t = transducer(&parse("G(req -> X ack)")?)?;
/// // !G(req -> X ack) = F(req & X !ack): one variable for F, one for X.
/// assert_eq!(t.num_vars(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn transducer(f: &Formula) -> Result<crate::automaton::Transducer, BuildError> {
    let pipe = Pipeline::new(f, &Config::new())?;
    Ok(crate::algo::transducer::build(f, &pipe.aps))
}

/// Whether the [`transducer`] of `f` detects every violation of `f`: it
/// does for a safety property that is not pathologic (`None`: not decided
/// within the state limit of `cfg`). Classifies `f` to know.
///
/// ```
/// use monitor_core::analysis::transducer_is_exact;
/// use monitor_core::formula::parse;
/// use monitor_core::translate::Config;
///
/// let cfg = Config::new();
/// assert_eq!(transducer_is_exact(&parse("G(req -> X ack)")?, &cfg)?, Some(true));
/// // Safety (it means `Gq | Gr`), but pathologic (KV01): some violations
/// // have no informative bad prefix.
/// let f = parse("(G(q | FGp) & G(r | FG!p)) | Gq | Gr")?;
/// assert_eq!(transducer_is_exact(&f, &cfg)?, Some(false));
/// // Not safety: the transducer sees the safety part only.
/// assert_eq!(transducer_is_exact(&parse("G(req -> F ack)")?, &cfg)?, Some(false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn transducer_is_exact(f: &Formula, cfg: &Config) -> Result<Option<bool>, BuildError> {
    let c = classify(f, cfg)?;
    Ok(match (c.safety, c.pathologic) {
        (Some(false), _) | (_, Some(true)) => Some(false),
        (Some(true), Some(false)) => Some(true),
        _ => None,
    })
}

/// How the informative monitor of a formula differs from the exact one.
#[derive(Clone, Debug)]
pub struct InformativeReport {
    /// States of the exact monitor.
    pub exact_states: usize,
    /// States of the informative monitor.
    pub informative_states: usize,
    /// A shortest bad prefix that is not informative (`None` if both
    /// monitors reject the same words).
    pub uninformative_bad_prefix: Option<Vec<Guard>>,
    /// The propositions.
    pub alphabet: Alphabet,
}

impl InformativeReport {
    /// The word as text, if there is one.
    ///
    /// ```
    /// # use monitor_core::analysis::compare_informative;
    /// # use monitor_core::formula::parse;
    /// # use monitor_core::translate::Config;
    /// let f = parse("G(a -> X b) & G(a -> X !b)")?;
    /// let report = compare_informative(&f, &Config::new())?;
    /// assert_eq!(report.word_text().as_deref(), Some("a"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn word_text(&self) -> Option<String> {
        self.uninformative_bad_prefix
            .as_ref()
            .map(|w| format_word(w, &self.alphabet))
    }
}

/// Compares the informative monitor of `f` with its exact monitor.
///
/// ```
/// # use monitor_core::analysis::compare_informative;
/// # use monitor_core::formula::parse;
/// # use monitor_core::translate::Config;
/// // `a` is a bad prefix, informative only once the next letter is read.
/// let report = compare_informative(&parse("G(a -> X b) & G(a -> X !b)")?, &Config::new())?;
/// assert_eq!((report.exact_states, report.informative_states), (1, 2));
/// assert_eq!(report.uninformative_bad_prefix.map(|w| w.len()), Some(1));
/// // Every bad prefix of `G(req -> X ack)` is informative.
/// assert!(compare_informative(&parse("G(req -> X ack)")?, &Config::new())?.word_text().is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn compare_informative(f: &Formula, cfg: &Config) -> Result<InformativeReport, BuildError> {
    let mut pipe = Pipeline::new(f, cfg)?;
    let g = pipe.simplified.clone();
    let (exact, _, _) = pipe.exact(&g)?;
    let (inf, _, _) = pipe.informative(f)?;
    let diff = first_difference(&mut pipe.mgr, &exact, &inf).map(|(word, _, _)| {
        word.into_iter()
            .map(|c| Guard::from_cubes(vec![c]))
            .collect()
    });
    pipe.check_memory()?;
    Ok(InformativeReport {
        exact_states: exact.len(),
        informative_states: inf.len(),
        uninformative_bad_prefix: diff,
        alphabet: pipe.aps.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::emptiness::every_cycle_accepting;
    use crate::formula::random::RandomLtl;

    /// The stuttering product, the general method.
    fn stutter_by_product(pipe: &mut Pipeline, g: &Formula) -> bool {
        let pos = pipe.nba(g).unwrap();
        let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
        stuttered_languages_disjoint(pipe, &pos, &neg, usize::MAX).unwrap()
    }

    /// Runs `check` on the random safety formulas of 600 seeds (two
    /// propositions, with past), with their pipeline, simplified formula
    /// and exact monitor (by the tableau).
    fn for_random_safety(
        mut check: impl FnMut(u64, &Formula, &mut Pipeline, &Formula, &DetAutomaton),
    ) {
        for seed in 0..600u64 {
            let f = RandomLtl::new(&["a", "b"], 3 + (seed % 9) as usize)
                .with_past()
                .seed(seed)
                .next_formula();
            let mut pipe = Pipeline::new(&f, &Config::new()).unwrap();
            let g = pipe.simplified.clone();
            let nba = pipe.nba(&g).unwrap();
            let det = pipe.determinize_exact(&nba).unwrap();
            let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
            if pipe.intersection_witness(&neg, &det).unwrap().is_some() {
                continue; // not a safety property
            }
            check(seed, &f, &mut pipe, &g, &det);
        }
    }

    #[test]
    fn stutter_check_on_the_monitor_agrees_with_the_product() {
        let (mut invariant, mut sensitive) = (0, 0);
        for_random_safety(|seed, f, pipe, g, det| {
            let by_monitor = stutter_invariant_safety(&mut pipe.mgr, det);
            assert_eq!(by_monitor, stutter_by_product(pipe, g), "seed {seed}: {f}");
            if by_monitor {
                invariant += 1;
            } else {
                sensitive += 1;
            }
        });
        // Both answers were exercised.
        assert!(
            invariant > 20 && sensitive > 20,
            "{invariant} invariant, {sensitive} sensitive"
        );
    }

    #[test]
    fn guarantee_check_on_the_monitor_agrees_with_the_product() {
        let (mut yes, mut no) = (0, 0);
        for_random_safety(|seed, f, pipe, g, det| {
            // A guarantee: the negation's exact monitor accepts no model of
            // the formula (every model has a good prefix).
            let pos = pipe.nba(g).unwrap();
            let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
            let det_neg = pipe.determinize_exact(&neg).unwrap();
            let by_product = pipe.intersection_witness(&pos, &det_neg).unwrap().is_none();
            let by_monitor = safety_is_guarantee(&pipe.mgr, det);
            assert_eq!(by_monitor, by_product, "seed {seed}: {f}");
            if by_monitor {
                yes += 1;
            } else {
                no += 1;
            }
        });
        // Both answers were exercised.
        assert!(yes > 20 && no > 20, "{yes} guarantees, {no} not");
    }

    #[test]
    fn every_cycle_accepting_only_claims_safety() {
        for seed in 0..600u64 {
            let f = RandomLtl::new(&["a", "b"], 3 + (seed % 9) as usize)
                .seed(seed)
                .next_formula();
            let mut pipe = Pipeline::new(&f, &Config::new()).unwrap();
            let g = pipe.simplified.clone();
            let nba = pipe.nba(&g).unwrap();
            if every_cycle_accepting(&nba) {
                let det = pipe.determinize_exact(&nba).unwrap();
                let neg = pipe.nba(&Formula::not(g.clone())).unwrap();
                assert!(
                    pipe.intersection_witness(&neg, &det).unwrap().is_none(),
                    "seed {seed}: {f}"
                );
            }
        }
    }
}
