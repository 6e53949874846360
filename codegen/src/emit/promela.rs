//! Promela never claims: for Spin's safety mode, and Büchi claims for
//! properties that are not safety ([`emit_buchi_claim`]).
//!
//! The claim is the minimal monitor in the encoding Rozier found fastest
//! for Spin (front_det_switch_min_abr_ea_state_fin, thesis ch. 6): one
//! labelled state per monitor state, each an `atomic { if … fi }` with one
//! option per edge and simplified guards. An edge to the rejecting sink
//! fails an assertion on its guard and jumps to the end of the claim: pan
//! compiled with `-DSAFETY` reports "assertion violated" on the first bad
//! prefix. Trap states are
//! folded away: the sink is the end of the claim, and edges into states
//! from which no violation is reachable are dropped, so the claim blocks
//! and Spin stops exploring those executions.
//!
//! Spin evaluates the claim on every global state, including the initial
//! one and the intermediate states of interleaved processes; properties
//! with `X` or `Y` are not stutter-invariant and need `-DNOREDUCE` (the
//! header says so). Target: Spin 6.

use askama::Template;
use monitor_core::automaton::{Alphabet, BadPrefixDfa, BuchiAutomaton, StateId, Target};
use monitor_core::formula::atom::Syntax;

use super::names::{
    bind, comment_safe, guard_text, is_identifier, Binding, C_OPS, PROMELA_KEYWORDS,
};
use super::{Backend, Common, EmitError};

/// Options of [`emit_promela`].
#[derive(Clone, Debug)]
pub struct PromelaOptions {
    /// The claim's name (`never NAME { … }`), propositions bound to
    /// Promela expressions (`--define p='x > 3'`), and whether the
    /// monitor rejects only informative bad prefixes (a claim has no
    /// satisfied verdict: `three_valued` is not read).
    pub common: Common,
    /// Whether the property is stutter-invariant (decides the
    /// `-DNOREDUCE` advice). `None`: [`emit_promela`] asks the monitor
    /// ([`BadPrefixDfa::is_stutter_invariant`]); [`emit_buchi_claim`] has
    /// no monitor to ask and advises `-DNOREDUCE`.
    pub stutter_invariant: Option<bool>,
    /// The file name used in the usage comment.
    pub file: String,
}

impl Default for PromelaOptions {
    fn default() -> Self {
        PromelaOptions {
            common: Common::default(),
            stutter_invariant: None,
            file: "claim.pml".into(),
        }
    }
}

impl Backend for PromelaOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_promela(dfa, self)
    }
}

struct BindingView {
    name: String,
    ident: String,
    note: String,
}

struct StateView {
    label: String,
    options: Vec<(String, String)>,
}

#[derive(Template)]
#[template(path = "promela/never.pml")]
struct NeverClaim {
    formula: String,
    version: &'static str,
    informative: bool,
    num_states: String,
    file: String,
    noreduce: &'static str,
    stutter_invariant: bool,
    bindings: Vec<BindingView>,
    defines: Vec<(String, String)>,
    name: String,
    states: Vec<StateView>,
    violation: &'static str,
}

const VIOLATION_LABEL: &str = "violation";

/// Writes `dfa` as a never claim.
///
/// ```
/// use mongen::emit::promela::{emit_promela, PromelaOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let claim = emit_promela(&dfa, &PromelaOptions::default())?;
/// assert!(claim.contains("\nnever monitor {\nS0:\n\tatomic { if\n"));
/// assert!(claim.contains("\t:: (!ack) -> assert(!(!ack)); goto violation\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_promela(dfa: &BadPrefixDfa, opts: &PromelaOptions) -> Result<String, EmitError> {
    let labels: Vec<String> = (0..dfa.num_states()).map(|s| format!("S{s}")).collect();
    let props = ClaimPropositions::new(dfa.alphabet(), &labels, opts)?;
    let idents = &props.idents;
    let stutter_invariant = opts
        .stutter_invariant
        .unwrap_or_else(|| dfa.is_stutter_invariant());
    let live = dfa.can_violate();
    let mut states = Vec::new();
    if dfa.verdict(dfa.start()) != monitor_core::automaton::Verdict::Violated
        && live[dfa.start().as_usize()]
    {
        for s in dfa.states() {
            if !live[s.as_usize()] {
                continue;
            }
            let options = dfa
                .edges(s)
                .into_iter()
                .filter_map(|e| {
                    let target = match e.target {
                        Target::Violation => VIOLATION_LABEL.to_string(),
                        Target::State(t) if live[t.as_usize()] => labels[t.as_usize()].clone(),
                        // No violation possible from t: block.
                        Target::State(_) => return None,
                    };
                    Some((guard_text(&e.guard, idents, &C_OPS), target))
                })
                .collect();
            states.push(StateView {
                label: labels[s.as_usize()].clone(),
                options,
            });
        }
    } else if dfa.verdict(dfa.start()) == monitor_core::automaton::Verdict::Violated {
        // Unsatisfiable: the very first step is a violation.
        states.push(StateView {
            label: labels[0].clone(),
            options: vec![("1".into(), VIOLATION_LABEL.into())],
        });
    }
    let view = NeverClaim {
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.common.informative,
        num_states: super::names::states(dfa.num_states()),
        file: opts.file.clone(),
        noreduce: noreduce(stutter_invariant),
        stutter_invariant,
        bindings: props.views,
        defines: props.defines,
        name: opts.common.name.clone(),
        states,
        violation: VIOLATION_LABEL,
    };
    super::render(&view)
}

#[derive(Template)]
#[template(path = "promela/buchi.pml")]
struct BuchiClaim {
    formula: String,
    version: &'static str,
    num_states: String,
    num_edges: usize,
    nondeterministic: usize,
    file: String,
    noreduce: &'static str,
    stutter_invariant: bool,
    bindings: Vec<BindingView>,
    defines: Vec<(String, String)>,
    name: String,
    states: Vec<StateView>,
    violation: &'static str,
    asserts: bool,
}

/// Writes the Büchi automaton `negation` of the negation of a property as
/// a never claim for pan's acceptance-cycle search (`-a`): its accepting
/// states are labelled `accept_`, the initial one `T0_init` (or
/// `accept_init`). `opts.stutter_invariant` should say whether the
/// property is (`None` is taken as no); the automaton's name is the
/// property shown in the header.
///
/// ```
/// use monitor_core::translate::Builder;
/// use mongen::emit::promela::{emit_buchi_claim, PromelaOptions};
///
/// let mut a = Builder::new().build_buchi("!G(req -> F ack)")?;
/// a.set_name("G(req -> F ack)");
/// let claim = emit_buchi_claim(&a, &PromelaOptions::default())?;
/// // As Spin writes its claims: a state never falls through to the next
/// // label (after an assertion's option, say).
/// assert!(claim.contains("never monitor {\nT0_init:\n\tdo\n"));
/// assert!(claim.contains("accept_S1:"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_buchi_claim(
    negation: &BuchiAutomaton,
    opts: &PromelaOptions,
) -> Result<String, EmitError> {
    let init = negation.start();
    let labels: Vec<String> = negation
        .states()
        .map(|s| match (s, negation.is_accepting(s)) {
            (s, false) if Some(s) == init => "T0_init".to_string(),
            (s, true) if Some(s) == init => "accept_init".to_string(),
            (s, false) => format!("T0_S{s}"),
            (s, true) => format!("accept_S{s}"),
        })
        .collect();
    let props = ClaimPropositions::new(negation.alphabet(), &labels, opts)?;
    let stutter_invariant = opts.stutter_invariant.unwrap_or(false);
    let idents = &props.idents;
    // A state that accepts every continuation: reaching it completes a
    // bad prefix, which an assertion reports at once (as Spin's own
    // claims do) rather than through a cycle.
    let sink = |s: StateId| {
        negation.is_accepting(s)
            && matches!(negation.edges(s), [e] if e.target == s && e.guard.is_true())
    };
    let states: Vec<StateView> = negation
        .states()
        .filter(|&s| Some(s) == init || !sink(s))
        .map(|s| StateView {
            label: labels[s.as_usize()].clone(),
            options: negation
                .edges(s)
                .iter()
                .map(|e| {
                    let target = if sink(e.target) {
                        VIOLATION_LABEL.to_string()
                    } else {
                        labels[e.target.as_usize()].clone()
                    };
                    (guard_text(&e.guard, idents, &C_OPS), target)
                })
                .collect(),
        })
        .collect();
    let asserts = states
        .iter()
        .any(|s| s.options.iter().any(|o| o.1 == VIOLATION_LABEL));
    super::render(&BuchiClaim {
        formula: comment_safe(negation.name()),
        version: env!("CARGO_PKG_VERSION"),
        num_states: super::names::states(negation.num_states()),
        num_edges: negation.num_edges(),
        nondeterministic: negation.nondeterministic_states(),
        file: opts.file.clone(),
        noreduce: noreduce(stutter_invariant),
        stutter_invariant,
        bindings: props.views,
        defines: props.defines,
        name: opts.common.name.clone(),
        states,
        violation: VIOLATION_LABEL,
        asserts,
    })
}

/// The propositions of a claim: their identifiers, the `#define`s they
/// need and their lines in the header.
struct ClaimPropositions {
    idents: Vec<String>,
    defines: Vec<(String, String)>,
    views: Vec<BindingView>,
}

impl ClaimPropositions {
    /// Checks the claim's name and binds the propositions of `aps` to
    /// identifiers that clash with no keyword, label of `labels` or name.
    fn new(
        aps: &Alphabet,
        labels: &[String],
        opts: &PromelaOptions,
    ) -> Result<ClaimPropositions, EmitError> {
        if !is_identifier(&opts.common.name)
            || PROMELA_KEYWORDS.contains(&opts.common.name.as_str())
        {
            return Err(EmitError::Name(opts.common.name.clone()));
        }
        let mut reserved: Vec<&str> = labels.iter().map(String::as_str).collect();
        reserved.push(VIOLATION_LABEL);
        reserved.push(&opts.common.name);
        let bindings = bind(
            aps,
            PROMELA_KEYWORDS,
            &reserved,
            &opts.common.defines,
            Syntax::Promela,
        )?;
        let (defines, notes) = promela_defines(&bindings);
        Ok(ClaimPropositions {
            idents: bindings.iter().map(|b| b.ident.clone()).collect(),
            defines,
            views: bindings
                .iter()
                .zip(notes)
                .map(|(b, note)| BindingView {
                    name: comment_safe(&b.name),
                    ident: b.ident.clone(),
                    note,
                })
                .collect(),
        })
    }
}

/// The flag pan needs for a claim of a property that may not be
/// stutter-invariant.
fn noreduce(stutter_invariant: bool) -> &'static str {
    if stutter_invariant {
        ""
    } else {
        " -DNOREDUCE"
    }
}

/// The `#define`s a claim needs, and a note per proposition for the header.
fn promela_defines(bindings: &[Binding]) -> (Vec<(String, String)>, Vec<String>) {
    let mut defines = Vec::new();
    let mut notes = Vec::new();
    for b in bindings {
        if b.expr != b.ident {
            // A --define, a quoted proposition, or a renamed model symbol.
            defines.push((b.ident.clone(), b.expr.clone()));
            notes.push(format!(" = ({})", comment_safe(&b.expr)));
        } else if b.ident != b.name {
            // A keyword: the model must define the identifier.
            notes.push(format!(
                " (a Promela keyword: #define {} in the model or pass --define)",
                b.ident
            ));
        } else {
            notes.push(String::new());
        }
    }
    (defines, notes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::translate::Builder;

    #[test]
    fn renders_a_claim() {
        let dfa = Builder::new()
            .build("G(req -> X ack) & G(\"x > 3\" -> !if)")
            .unwrap()
            .into_dfa();
        let text = emit_promela(&dfa, &PromelaOptions::default()).unwrap();
        println!("{text}");
        assert!(text.contains("never monitor {\nS0:\n\tatomic { if\n"));
        assert!(text.contains("#define x___3 (x > 3)\n"));
        assert!(
            text.contains("\t:: (x___3 && p_if) -> assert(!(x___3 && p_if)); goto violation\n"),
            "{text}"
        );
        assert!(
            text.contains("violation:\t/* the end of the claim: a bad prefix */\n}\n"),
            "{text}"
        );
        assert!(text.contains("-DNOREDUCE"));
    }
}
