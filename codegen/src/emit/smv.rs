//! NuSMV observer modules, checked as invariants.
//!
//! An observer is a module, plus two lines for `main`: its instance
//! `VAR obs : NAME_observer(args);` and `INVARSPEC !obs.violated;`
//! ([`SmvObserver`]). Without the model, the text is for appending to a
//! model whose last module is `main` ([`SmvObserver::appendable`]); with it,
//! [`SmvModel::insert`](super::smv_model::SmvModel::insert) puts the lines
//! into `main` wherever it is.
//!
//! * [`emit_smv_dfa`]: the minimal monitor as an explicit-state module (an
//!   enumerated `state` of integers, stepped by a `TRANS` `case`; integers
//!   because NuSMV's symbolic constants are global and could clash with
//!   the model's names). `violated` is a
//!   *Mealy* output: true in the step whose letter completes a bad prefix
//!   (so the counterexample ends on the violating state of the model, not
//!   one step later), and true from then on.
//! * [`emit_smv_transducer`]: the symbolic transducer of LHJ10: one
//!   Boolean variable per temporal subformula of the negated property,
//!   `TRANS` constraints, and `violated` where the guesses satisfy the
//!   conditions of a last step. Linear in the formula, it finds the
//!   informative bad prefixes.
//!
//! Both observers step by `TRANS` constraints, never by `next`
//! assignments: in a model with `process`es NuSMV performs a `next`
//! assignment only in the steps of the process that declares it (the
//! observer's instance belongs to `main`), while constraints hold in every
//! step. The constraints are total and deterministic, so they never remove
//! a state or a step of the model.
//!
//! Names: NuSMV's enumeration constants are global, so every name an
//! observer declares (parameters, variables, defines) must differ from
//! every constant of the model ([`SmvNamespace`]).
//!
//! NuSMV traps avoided (Rozier's thesis, §5.2.1): the observers never
//! constrain `INIT` (the transducer records the top-level guess in a frozen
//! register `ok` instead), so the model always keeps its initial states;
//! no `next()` appears in a `DEFINE`. Target: NuSMV 2.5.4 and later.

use std::collections::BTreeSet;

use askama::Template;
use monitor_core::automaton::{
    Alphabet, BadPrefixDfa, StateId, TExpr, Target, Transducer, Verdict,
};
use monitor_core::formula::atom::Syntax;

use super::names::{
    bind_where, check_bindings, comment_safe, guard_text, is_identifier, Binding, SMV_KEYWORDS,
    SMV_LATER_KEYWORDS, SMV_OPS,
};
use super::{Backend, Common, EmitError};

/// The prefix of every name an observer declares when the model is not
/// known ([`SmvNamespace::Reserved`]).
pub const RESERVED_PREFIX: &str = "mg_";

/// Which names an observer may declare.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum SmvNamespace {
    /// The model is not known: every parameter, variable and define of the
    /// observer starts with [`RESERVED_PREFIX`] (`mg_state`,
    /// `mg_violated`, `mg_req`), a prefix models must leave to mongen.
    #[default]
    Reserved,
    /// Plain names (`state`, `violated`, `req`), none of them one of these
    /// constants of the model (a suffix `_2`, `_3`, … where needed).
    Avoiding(BTreeSet<String>),
}

/// Options of the SMV emitters.
#[derive(Clone, Debug)]
pub struct SmvOptions {
    /// The module is `NAME_observer`; propositions bound to model
    /// expressions (`--define p='x > 3'`); whether the monitor rejects
    /// only informative bad prefixes; three-valued verdicts add
    /// `satisfied`.
    pub common: Common,
    /// The observer's instance name in `main`.
    pub instance: String,
    /// Which names the observer may declare.
    pub namespace: SmvNamespace,
}

impl Default for SmvOptions {
    fn default() -> Self {
        SmvOptions {
            common: Common::default(),
            instance: format!("{RESERVED_PREFIX}obs"),
            namespace: SmvNamespace::Reserved,
        }
    }
}

/// As a back end, SMV writes the text to append to a model whose last
/// module is `main` ([`SmvObserver::appendable`]).
impl Backend for SmvOptions {
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError> {
        emit_smv_dfa(dfa, self).map(|obs| obs.appendable())
    }
}

/// An observer: a module and the two lines that declare it in `main` and
/// check it.
///
/// ```
/// use mongen::emit::smv::{emit_smv_dfa, SmvOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let obs = emit_smv_dfa(&dfa, &SmvOptions::default())?;
/// assert_eq!(
///     obs.main,
///     "  VAR mg_obs : monitor_observer(req, ack);\n  INVARSPEC !mg_obs.mg_violated;\n"
/// );
/// assert!(obs.module.contains("\nMODULE monitor_observer(mg_req, mg_ack)\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmvObserver {
    /// The lines for `main`: the instance and its `INVARSPEC`.
    pub main: String,
    /// The invariant that holds as long as no bad prefix was read:
    /// `!obs.violated` (for `check_invar -p`).
    pub invariant: String,
    /// The observer module, after a header comment. Under
    /// [`SmvNamespace::Reserved`], the header is followed by [`main`]
    /// (for appending).
    ///
    /// [`main`]: SmvObserver::main
    pub module: String,
    appended: bool,
}

impl SmvObserver {
    /// The text to append to a model whose last module is `main`: the
    /// lines for `main`, then the module. Under
    /// [`SmvNamespace::Reserved`] that is [`module`](SmvObserver::module)
    /// itself, whose header comment comes first; otherwise the lines for
    /// `main` come before the module's header.
    ///
    /// ```
    /// use mongen::emit::smv::{emit_smv_dfa, SmvNamespace, SmvOptions};
    /// use monitor_core::translate::Builder;
    ///
    /// let dfa = Builder::new().build("G !err")?.into_dfa();
    /// let obs = emit_smv_dfa(&dfa, &SmvOptions::default())?;
    /// // Under the reserved namespace the module already holds the lines for `main`.
    /// assert_eq!(obs.appendable(), obs.module);
    /// let namespace = SmvNamespace::Avoiding(Default::default());
    /// let opts = SmvOptions { namespace, ..SmvOptions::default() };
    /// let obs = emit_smv_dfa(&dfa, &opts)?;
    /// assert_eq!(obs.appendable(), format!("{}\n{}", obs.main, obs.module));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn appendable(&self) -> String {
        if self.appended {
            self.module.clone()
        } else {
            format!("{}\n{}", self.main, self.module)
        }
    }
}

#[derive(Template)]
#[template(path = "smv/instance.smv")]
struct Instance<'a> {
    note: Option<String>,
    instance: &'a str,
    module: &'a str,
    args: &'a str,
    violated: &'a str,
}

#[derive(Template)]
#[template(path = "smv/observer_dfa.smv")]
struct DfaObserver<'a> {
    formula: String,
    version: &'static str,
    informative: bool,
    three_valued: bool,
    num_states: String,
    bindings: &'a [Binding],
    appended: bool,
    instance: &'a str,
    main_lines: &'a str,
    module: &'a str,
    params: String,
    has_state: bool,
    state_note: String,
    state: &'a str,
    values: String,
    cases: Vec<(String, String)>,
    sink: String,
    violated: &'a str,
    violated_expr: String,
    satisfied: &'a str,
    satisfied_expr: String,
}

#[derive(Template)]
#[template(path = "smv/observer_transducer.smv")]
struct TransducerObserver<'a> {
    formula: String,
    version: &'static str,
    num_vars: usize,
    bindings: &'a [Binding],
    appended: bool,
    instance: &'a str,
    main_lines: &'a str,
    module: &'a str,
    params: String,
    vars: Vec<(String, String)>,
    ok: &'a str,
    violated: &'a str,
    init: String,
    registers: Vec<(String, String)>,
    trans: String,
    finals: String,
}

fn check_names(opts: &SmvOptions) -> Result<String, EmitError> {
    let module = format!("{}_observer", opts.common.name);
    let usable = |n: &str| is_identifier(n) && !SMV_KEYWORDS.contains(&n);
    if !usable(&module) {
        return Err(EmitError::Name(opts.common.name.clone()));
    }
    if !usable(&opts.instance) {
        return Err(EmitError::Instance(opts.instance.clone()));
    }
    Ok(module)
}

/// The names an observer declares: its own (`state`, `violated`, …) and
/// its parameters.
struct Names {
    own: Vec<String>,
    bindings: Vec<Binding>,
}

/// Chooses the names of the observer's own variables and defines (`own`,
/// in the order given) and of its parameters, in `ns`.
fn names(
    aps: &Alphabet,
    own: &[&str],
    ns: &SmvNamespace,
    opts: &SmvOptions,
) -> Result<Names, EmitError> {
    let free = |s: &str| match ns {
        SmvNamespace::Reserved => true,
        SmvNamespace::Avoiding(constants) => !constants.contains(s),
    };
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let own: Vec<String> = own
        .iter()
        .map(|base| {
            let base = match ns {
                SmvNamespace::Reserved => format!("{RESERVED_PREFIX}{base}"),
                SmvNamespace::Avoiding(_) => base.to_string(),
            };
            let mut name = base.clone();
            let mut k = 2;
            while taken.contains(&name) || !free(&name) || SMV_KEYWORDS.contains(&name.as_str()) {
                name = format!("{base}_{k}");
                k += 1;
            }
            taken.insert(name.clone());
            name
        })
        .collect();
    // Parameters avoid the own names (before the prefix, so that `state`
    // does not become `mg_state`), the keywords and the constants.
    let unprefixed: Vec<&str> = match ns {
        SmvNamespace::Reserved => own.iter().map(|s| &s[RESERVED_PREFIX.len()..]).collect(),
        SmvNamespace::Avoiding(_) => own.iter().map(String::as_str).collect(),
    };
    let mut reserved: Vec<&str> = unprefixed;
    if let SmvNamespace::Avoiding(constants) = ns {
        reserved.extend(constants.iter().map(String::as_str));
    }
    // A word only later NuSMV versions reserve may be a symbol of the
    // model (NuSMV 2.5.4 reads `VAR set : boolean;`).
    let mut bindings = bind_where(
        aps,
        |s| !SMV_KEYWORDS.contains(&s) && !reserved.contains(&s),
        |s| SMV_KEYWORDS.contains(&s) && !SMV_LATER_KEYWORDS.contains(&s),
        &opts.common.defines,
        Syntax::Smv,
    )?;
    check_bindings(&bindings, Syntax::Smv)?;
    if let SmvNamespace::Reserved = ns {
        for b in &mut bindings {
            b.ident = format!("{RESERVED_PREFIX}{}", b.ident);
        }
    }
    Ok(Names { own, bindings })
}

fn join_args(bindings: &[Binding]) -> (String, String) {
    let args = bindings
        .iter()
        .map(|b| b.expr.clone())
        .collect::<Vec<_>>()
        .join(", ");
    let params = bindings
        .iter()
        .map(|b| b.ident.clone())
        .collect::<Vec<_>>()
        .join(", ");
    (args, params)
}

/// The lines for `main`.
fn instance(
    opts: &SmvOptions,
    module: &str,
    args: &str,
    violated: &str,
    formula: &str,
) -> Result<String, EmitError> {
    let appended = opts.namespace == SmvNamespace::Reserved;
    super::render(&Instance {
        note: (!appended).then(|| {
            format!(
                "mongen: the observer of {} (MODULE {module} at the end)",
                comment_safe(formula)
            )
        }),
        instance: &opts.instance,
        module,
        args,
        violated,
    })
}

/// Writes `dfa` as an explicit-state NuSMV observer.
///
/// ```
/// use mongen::emit::smv::{emit_smv_dfa, SmvOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let obs = emit_smv_dfa(&dfa, &SmvOptions::default())?;
/// assert_eq!(obs.invariant, "!mg_obs.mg_violated");
/// assert!(obs.module.contains("VAR\n  mg_state : { 0, 1, 2 };\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_smv_dfa(dfa: &BadPrefixDfa, opts: &SmvOptions) -> Result<SmvObserver, EmitError> {
    let module = check_names(opts)?;
    let n = dfa.num_states();
    // States are integers: NuSMV's symbolic constants are global and could
    // clash with the model's names; the sink is the number after the last.
    let values: Vec<String> = (0..n).map(|s| s.to_string()).collect();
    let Names { own, bindings } = names(
        dfa.alphabet(),
        &["state", "violated", "satisfied"],
        &opts.namespace,
        opts,
    )?;
    let (state, violated_name, satisfied_name) = (&own[0], &own[1], &own[2]);
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let guard = |g: &monitor_core::automaton::Guard| guard_text(g, &idents, &SMV_OPS);
    let in_state = |s: StateId, g: String| {
        if g == "TRUE" {
            format!("{state} = {s}")
        } else if g.contains('|') {
            format!("{state} = {s} & ({g})")
        } else {
            format!("{state} = {s} & {g}")
        }
    };
    let unsatisfiable = dfa.verdict(dfa.start()) == Verdict::Violated;
    let can_violate = unsatisfiable || !dfa.never_violates();
    let mut cases = Vec::new();
    let mut violated = Vec::new();
    let mut satisfied = Vec::new();
    // One working manager for the labels of all states.
    let mut labels = dfa.labeler();
    for s in dfa.states() {
        if dfa.verdict(s) == Verdict::Satisfied {
            satisfied.push(format!("{state} = {s}"));
        }
        for e in labels.edges(s)? {
            match e.target {
                Target::State(t) => {
                    if dfa.verdict(t) == Verdict::Satisfied && dfa.verdict(s) != Verdict::Satisfied
                    {
                        satisfied.push(in_state(s, guard(&e.guard)));
                    }
                    cases.push((in_state(s, guard(&e.guard)), values[t.as_usize()].clone()));
                }
                Target::Violation => violated.push(in_state(s, guard(&e.guard))),
            }
        }
    }
    let mut all_values = values.clone();
    let sink = if can_violate {
        all_values.push(n.to_string());
        violated.insert(0, format!("{state} = {n}"));
        n.to_string()
    } else {
        // Unreachable default: the cases cover every letter.
        state.clone()
    };
    let or = |v: Vec<String>| {
        if v.is_empty() {
            "FALSE".to_string()
        } else {
            v.join(" | ")
        }
    };
    let (args, params) = join_args(&bindings);
    let appended = opts.namespace == SmvNamespace::Reserved;
    let main = instance(opts, &module, &args, violated_name, dfa.name())?;
    let view = DfaObserver {
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.common.informative,
        three_valued: opts.common.three_valued,
        num_states: super::names::states(n),
        bindings: &bindings,
        appended,
        instance: &opts.instance,
        main_lines: main.trim_end(),
        module: &module,
        params,
        has_state: all_values.len() > 1,
        state_note: if can_violate && all_values.len() > 1 {
            format!("`{state}` is the monitor state ({n} is the rejecting sink).\n-- ")
        } else {
            String::new()
        },
        state,
        values: all_values.join(", "),
        cases,
        sink,
        violated: violated_name,
        violated_expr: if unsatisfiable {
            "TRUE".into()
        } else {
            or(violated)
        },
        satisfied: satisfied_name,
        // One state and no state variable: it is satisfied or not.
        satisfied_expr: if all_values.len() > 1 {
            or(satisfied)
        } else if dfa.verdict(dfa.start()) == Verdict::Satisfied {
            "TRUE".into()
        } else {
            "FALSE".into()
        },
    };
    Ok(SmvObserver {
        module: super::render(&view)?,
        main,
        invariant: format!("!{}.{violated_name}", opts.instance),
        appended,
    })
}

fn expr(e: &TExpr, idents: &[String], vars: &[String]) -> String {
    let sub = |x: &TExpr| expr(x, idents, vars);
    match e {
        TExpr::Const(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        TExpr::Ap(i) => idents[*i as usize].clone(),
        TExpr::Var(i) => vars[*i as usize].clone(),
        TExpr::Next(x) => format!("next({})", sub(x)),
        TExpr::Not(x) => match **x {
            TExpr::Ap(_) | TExpr::Var(_) | TExpr::Const(_) => format!("!{}", sub(x)),
            _ => format!("!({})", sub(x)),
        },
        TExpr::And(xs) => format!("({})", xs.iter().map(sub).collect::<Vec<_>>().join(" & ")),
        TExpr::Or(xs) => format!("({})", xs.iter().map(sub).collect::<Vec<_>>().join(" | ")),
        TExpr::Iff(a, b) => format!("({} <-> {})", sub(a), sub(b)),
    }
}

/// Writes `t` as a symbolic NuSMV observer.
///
/// ```
/// use mongen::emit::smv::{emit_smv_transducer, SmvOptions};
/// use monitor_core::analysis::transducer;
/// use monitor_core::formula::parse;
///
/// let t = transducer(&parse("G(req -> X ack)")?)?;
/// let obs = emit_smv_transducer(&t, &SmvOptions::default())?;
/// assert_eq!(obs.invariant, "!mg_obs.mg_violated");
/// assert!(obs.module.contains("FROZENVAR\n  mg_ok : boolean;"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_smv_transducer(t: &Transducer, opts: &SmvOptions) -> Result<SmvObserver, EmitError> {
    let module = check_names(opts)?;
    let var_bases: Vec<String> = (0..t.vars.len()).map(|i| format!("t{i}")).collect();
    let mut own: Vec<&str> = vec!["ok", "violated"];
    own.extend(var_bases.iter().map(String::as_str));
    let Names { own, bindings } = names(&t.alphabet, &own, &opts.namespace, opts)?;
    let (ok, violated) = (&own[0], &own[1]);
    let vars = &own[2..];
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let ex = |e: &TExpr| expr(e, &idents, vars);
    let var_lines = t
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (vars[i].clone(), comment_safe(&v.meaning)))
        .collect();
    let mut registers = Vec::new();
    // The registers' steps are constraints too (see the module docs).
    let mut trans: Vec<String> = Vec::new();
    for (i, v) in t.vars.iter().enumerate() {
        if let Some((init, next)) = &v.register {
            registers.push((
                vars[i].clone(),
                if *init { "TRUE" } else { "FALSE" }.to_string(),
            ));
            trans.push(format!("next({}) = {}", vars[i], ex(next)));
        }
    }
    trans.extend(t.trans.iter().map(ex));
    // The conditions of a last step are checked by `violated`, not by an
    // INVAR on a guessed end: NuSMV forbids input variables in an INVAR.
    let finals = if t.finals.is_empty() {
        "TRUE".to_string()
    } else {
        format!(
            "({})",
            t.finals.iter().map(ex).collect::<Vec<_>>().join(" & ")
        )
    };
    let (args, params) = join_args(&bindings);
    let appended = opts.namespace == SmvNamespace::Reserved;
    let main = instance(opts, &module, &args, violated, &t.property)?;
    let view = TransducerObserver {
        formula: comment_safe(&t.property),
        version: env!("CARGO_PKG_VERSION"),
        num_vars: t.vars.len(),
        bindings: &bindings,
        appended,
        instance: &opts.instance,
        main_lines: main.trim_end(),
        module: &module,
        params,
        vars: var_lines,
        ok,
        violated,
        init: ex(&t.init),
        registers,
        trans: trans.join(" &\n  "),
        finals,
    };
    Ok(SmvObserver {
        module: super::render(&view)?,
        main,
        invariant: format!("!{}.{violated}", opts.instance),
        appended,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::analysis::transducer;
    use monitor_core::formula::parse;
    use monitor_core::translate::Builder;

    #[test]
    fn renders_both_encodings() {
        let f = "G(req -> X ack)";
        let dfa = Builder::new().build(f).unwrap().into_dfa();
        let text = emit_smv_dfa(&dfa, &SmvOptions::default())
            .unwrap()
            .appendable();
        println!("{text}");
        assert!(text.contains(
            "  VAR mg_obs : monitor_observer(req, ack);\n  INVARSPEC !mg_obs.mg_violated;\n"
        ));
        assert!(text.contains("MODULE monitor_observer(mg_req, mg_ack)\n"));
        assert!(text.contains("  mg_state : { 0, 1, 2 };\n"));
        assert!(text.contains("TRANS\n  next(mg_state) = case\n"));
        assert!(text.contains("  mg_violated := mg_state = 2 | mg_state = 1 & !mg_ack;\n"));
        assert!(!text.contains("next(mg_state) :="), "{text}");
        let t = transducer(&parse(f).unwrap()).unwrap();
        let text = emit_smv_transducer(&t, &SmvOptions::default())
            .unwrap()
            .appendable();
        println!("{text}");
        assert!(text.contains("  mg_violated := mg_ok & ("), "{text}");
        assert!(!text.contains("\nINVAR\n"), "{text}");
        assert!(text.contains("FROZENVAR\n  mg_ok : boolean;"));
    }

    #[test]
    fn names_avoid_the_models_constants() {
        // A model with constants named like the observer's variables and
        // like a proposition.
        let constants: BTreeSet<String> = ["state", "violated", "t1", "ok", "req", "req_2"]
            .into_iter()
            .map(String::from)
            .collect();
        let opts = SmvOptions {
            instance: "obs".into(),
            namespace: SmvNamespace::Avoiding(constants),
            ..Default::default()
        };
        let dfa = Builder::new().build("G(req -> X ack)").unwrap().into_dfa();
        let obs = emit_smv_dfa(&dfa, &opts).unwrap();
        assert_eq!(
            obs.main,
            "  -- mongen: the observer of G(req -> Xack) (MODULE monitor_observer at the end)\n  \
             VAR obs : monitor_observer(req, ack);\n  INVARSPEC !obs.violated_2;\n"
        );
        assert!(
            obs.module
                .contains("MODULE monitor_observer(p_req, ack)\nVAR\n  state_2 : { 0, 1, 2 };"),
            "{}",
            obs.module
        );
        let t = transducer(&parse("G(req -> X ack)").unwrap()).unwrap();
        let obs = emit_smv_transducer(&t, &opts).unwrap();
        assert!(obs.module.contains("  t1_2 : boolean;"), "{}", obs.module);
        assert!(obs.module.contains("  ok_2 : boolean;"), "{}", obs.module);
        assert!(!obs.module.contains(" t1 "), "{}", obs.module);
    }

    #[test]
    fn one_state_three_valued_observers() {
        use monitor_core::translate::{Config, Verdicts};
        let mut b = Builder::new();
        b.configure(Config::new().verdicts(Verdicts::Three));
        let opts = SmvOptions {
            common: Common {
                three_valued: true,
                ..Common::default()
            },
            ..Default::default()
        };
        for (f, satisfied) in [("G(a | !a)", "TRUE"), ("G F a", "FALSE")] {
            let dfa = b.build(f).unwrap().into_dfa();
            let text = emit_smv_dfa(&dfa, &opts).unwrap().module;
            assert_eq!(dfa.num_states(), 1, "{f}");
            assert!(!text.contains("mg_state"), "{text}");
            assert!(
                text.contains(&format!("  mg_satisfied := {satisfied};")),
                "{f}: {text}"
            );
        }
    }

    #[test]
    fn keywords_become_parameters() {
        let dfa = Builder::new()
            .build("G(next -> X \"x > 3\") & G(!MODULE) & G !state & G(set -> clock)")
            .unwrap()
            .into_dfa();
        let text = emit_smv_dfa(&dfa, &SmvOptions::default())
            .unwrap()
            .appendable();
        assert!(
            text.contains(
                "MODULE monitor_observer(mg_p_MODULE, mg_p_state, mg_p_next, mg_x___3, mg_p_set, mg_p_clock)"
            ),
            "{text}"
        );
        // Keywords name nothing in the model: the model defines p_MODULE;
        // words only NuSMV 2.6 reserves may be NuSMV 2.5.4 variables.
        assert!(
            text.contains(
                "VAR mg_obs : monitor_observer(p_MODULE, state, p_next, x > 3, set, clock)"
            ),
            "{text}"
        );
        let bad = SmvOptions {
            common: Common::named("1x"),
            ..Default::default()
        };
        assert_eq!(emit_smv_dfa(&dfa, &bad), Err(EmitError::Name("1x".into())));
        let bad = SmvOptions {
            instance: "a-b".into(),
            ..Default::default()
        };
        assert_eq!(
            emit_smv_dfa(&dfa, &bad),
            Err(EmitError::Instance("a-b".into()))
        );
    }
}
