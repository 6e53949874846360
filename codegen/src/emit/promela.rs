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
    bind, check_bindings, comment_safe, guard_text, is_identifier, shell_word, Binding, C_OPS,
    PROMELA_KEYWORDS,
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
    name: String,
    states: Vec<StateView>,
    violation: &'static str,
}

/// The prefix of every label of a claim. Spin keeps labels and the model's
/// variables in one table ("bad label-name S0" for a model with a variable
/// `S0`), so the claim's labels take a prefix that models leave to mongen,
/// as the SMV observers' names do.
pub const LABEL_PREFIX: &str = "mg_";

const VIOLATION_LABEL: &str = "mg_violation";

/// Writes `dfa` as a never claim.
///
/// ```
/// use mongen::emit::promela::{emit_promela, PromelaOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let claim = emit_promela(&dfa, &PromelaOptions::default())?;
/// assert!(claim.contains("\nnever monitor {\nmg_S0:\n\tatomic { if\n"));
/// assert!(claim.contains("\t:: (!ack) -> assert(!(!ack)); goto mg_violation\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_promela(dfa: &BadPrefixDfa, opts: &PromelaOptions) -> Result<String, EmitError> {
    let labels: Vec<String> = (0..dfa.num_states())
        .map(|s| format!("{LABEL_PREFIX}S{s}"))
        .collect();
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
        // One working manager for the labels of all states.
        let mut labeler = dfa.labeler();
        for s in dfa.states() {
            if !live[s.as_usize()] {
                continue;
            }
            let options = labeler
                .edges(s)?
                .into_iter()
                .filter_map(|e| {
                    let target = match e.target {
                        Target::Violation => VIOLATION_LABEL.to_string(),
                        Target::State(t) if live[t.as_usize()] => labels[t.as_usize()].clone(),
                        // No violation possible from t: block.
                        Target::State(_) => return None,
                    };
                    Some((claim_guard(&e.guard, idents), target))
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
        file: comment_safe(&shell_word(&opts.file)),
        noreduce: noreduce(stutter_invariant),
        stutter_invariant,
        bindings: props.views,
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
    name: String,
    states: Vec<StateView>,
    violation: &'static str,
    asserts: bool,
}

/// Writes the Büchi automaton `negation` of the negation of a property as
/// a never claim for pan's acceptance-cycle search (`-a`): its accepting
/// states are labelled `accept_mg_S…`, the others `mg_S…`, the initial
/// one `mg_init` (or `accept_mg_init`). `opts.stutter_invariant` should say whether the
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
/// assert!(claim.contains("never monitor {\nmg_init:\n\tdo\n"));
/// assert!(claim.contains("accept_mg_S1:"));
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
            (s, false) if Some(s) == init => format!("{LABEL_PREFIX}init"),
            (s, true) if Some(s) == init => format!("accept_{LABEL_PREFIX}init"),
            (s, false) => format!("{LABEL_PREFIX}S{s}"),
            (s, true) => format!("accept_{LABEL_PREFIX}S{s}"),
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
                    (claim_guard(&e.guard, idents), target)
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
        file: comment_safe(&shell_word(&opts.file)),
        noreduce: noreduce(stutter_invariant),
        stutter_invariant,
        bindings: props.views,
        name: opts.common.name.clone(),
        states,
        violation: VIOLATION_LABEL,
        asserts,
    })
}

/// The propositions of a claim: the text each stands for in guards, and
/// their lines in the header.
///
/// A proposition whose expression is not a plain symbol of the model (a
/// `--define`, a quoted comparison such as `"x > 3"`, a renamed symbol) is
/// written into the guards as its parenthesized expression, never through a
/// `#define`: a macro of ours would be replaced in the whole model by the
/// preprocessor, and a model variable named like it (`req_valid` for the
/// proposition `req.valid`) would silently read as something else.
struct ClaimPropositions {
    idents: Vec<String>,
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
        check_bindings(&bindings, Syntax::Promela)?;
        Ok(ClaimPropositions {
            idents: bindings.iter().map(guard_operand).collect(),
            views: bindings
                .iter()
                .map(|b| BindingView {
                    name: comment_safe(&b.name),
                    note: binding_note(b),
                })
                .collect(),
        })
    }
}

/// What a proposition is in the claim's guards: its model symbol, or its
/// expression in parentheses.
fn guard_operand(b: &Binding) -> String {
    if b.expr == b.name && is_identifier(&b.name) {
        b.name.clone()
    } else if b.expr == b.ident {
        // A keyword: the model must define the identifier.
        b.ident.clone()
    } else {
        format!("({})", b.expr)
    }
}

/// A guard as the claim writes it inside parentheses: `(x > 3)` alone
/// loses its own, so the option reads `:: (x > 3) ->`.
fn claim_guard(guard: &monitor_core::automaton::Guard, operands: &[String]) -> String {
    let text = guard_text(guard, operands, &C_OPS);
    let mut depth = 0;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ => {}
        }
        // The first parenthesis closes before the end: not one group.
        if depth == 0 && i + 1 < text.len() {
            return text;
        }
    }
    match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        Some(inner) => inner.to_string(),
        None => text,
    }
}

/// A proposition's line in the header: what the claim reads for it.
fn binding_note(b: &Binding) -> String {
    if b.expr == b.ident && b.ident != b.name {
        format!(
            "{} (a Promela keyword: #define {} in the model or pass --define)",
            b.ident, b.ident
        )
    } else {
        comment_safe(&b.expr)
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
        assert!(text.contains("never monitor {\nmg_S0:\n\tatomic { if\n"));
        assert!(!text.lines().any(|l| l.starts_with("#define")), "{text}");
        assert!(
            text.contains(
                "\t:: ((x > 3) && p_if) -> assert(!((x > 3) && p_if)); goto mg_violation\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("mg_violation:\t/* the end of the claim: a bad prefix */\n}\n"),
            "{text}"
        );
        assert!(text.contains("-DNOREDUCE"));
    }
}
