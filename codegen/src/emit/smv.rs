//! NuSMV observer modules, checked as invariants.
//!
//! Two encodings, both printed as text to append to a model whose last
//! module is `main`: first `VAR obs : NAME_observer(args);` and
//! `INVARSPEC !obs.violated;` for `main`, then the observer `MODULE`.
//!
//! * [`emit_smv_dfa`]: the minimal monitor as an explicit-state module (an
//!   enumerated `state` of integers, `ASSIGN init/next` by `case`; integers
//!   because NuSMV's symbolic constants are global and could clash with
//!   the model's names). `violated` is a
//!   *Mealy* output: true in the step whose letter completes a bad prefix
//!   (so the counterexample ends on the violating state of the model, not
//!   one step later), and true from then on.
//! * [`emit_smv_transducer`]: the symbolic transducer of seed 003: one
//!   Boolean variable per temporal subformula of the negated property,
//!   `TRANS` and `INVAR` constraints, the final-state variable `fs`. Linear
//!   in the formula, it finds the informative bad prefixes.
//!
//! NuSMV traps avoided (Rozier's thesis, §5.2.1): the observers never
//! constrain `INIT` (the transducer records the top-level guess in a frozen
//! register `ok` instead), so the model always keeps its initial states;
//! no `next()` appears in a `DEFINE`. Target: NuSMV 2.5.4 and later.

use askama::Template;
use monitor_core::automaton::{BadPrefixDfa, TExpr, Target, Transducer, Verdict};

use super::names::{bind, comment_safe, guard_text, is_identifier, Binding, SMV_KEYWORDS, SMV_OPS};
use super::EmitError;

/// Options of the SMV emitters.
#[derive(Clone, Debug)]
pub struct SmvOptions {
    /// The module is `NAME_observer`.
    pub name: String,
    /// The observer's instance name in `main`.
    pub instance: String,
    /// Propositions bound to model expressions (`--define p='x > 3'`).
    pub defines: Vec<(String, String)>,
    /// Whether the monitor rejects only informative bad prefixes.
    pub informative: bool,
    /// Whether the monitor has three-valued verdicts (adds `satisfied`).
    pub three_valued: bool,
}

impl Default for SmvOptions {
    fn default() -> Self {
        SmvOptions {
            name: "monitor".into(),
            instance: "obs".into(),
            defines: Vec::new(),
            informative: false,
            three_valued: false,
        }
    }
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
    instance: &'a str,
    module: String,
    args: String,
    params: String,
    has_state: bool,
    state_note: String,
    values: String,
    cases: Vec<(String, String)>,
    sink: String,
    violated: String,
    satisfied: String,
}

#[derive(Template)]
#[template(path = "smv/observer_transducer.smv")]
struct TransducerObserver<'a> {
    formula: String,
    version: &'static str,
    num_vars: usize,
    bindings: &'a [Binding],
    instance: &'a str,
    module: String,
    args: String,
    params: String,
    vars: Vec<(String, String)>,
    init: String,
    registers: Vec<(String, String, String)>,
    trans: String,
    finals: String,
}

fn check_names(opts: &SmvOptions) -> Result<String, EmitError> {
    let module = format!("{}_observer", opts.name);
    for n in [&module, &opts.instance] {
        if !is_identifier(n) || SMV_KEYWORDS.contains(&n.as_str()) {
            return Err(EmitError::Name(n.clone()));
        }
    }
    Ok(module)
}

fn bindings(
    aps: &monitor_core::automaton::Alphabet,
    reserved: &[&str],
    opts: &SmvOptions,
) -> Vec<Binding> {
    bind(aps, SMV_KEYWORDS, reserved, &opts.defines)
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

/// Writes `dfa` as an explicit-state NuSMV observer.
pub fn emit_smv_dfa(dfa: &BadPrefixDfa, opts: &SmvOptions) -> Result<String, EmitError> {
    let module = check_names(opts)?;
    let n = dfa.num_states();
    // States are integers: NuSMV's symbolic constants are global and could
    // clash with the model's names; the sink is the number after the last.
    let values: Vec<String> = (0..n).map(|s| s.to_string()).collect();
    let reserved = ["state", "violated", "satisfied"];
    let bindings = bindings(dfa.alphabet(), &reserved, opts);
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let guard = |g: &monitor_core::automaton::Guard| guard_text(g, &idents, &SMV_OPS);
    let in_state = |s: u32, g: String| {
        if g == "TRUE" {
            format!("state = {s}")
        } else if g.contains('|') {
            format!("state = {s} & ({g})")
        } else {
            format!("state = {s} & {g}")
        }
    };
    let unsatisfiable = dfa.verdict(0) == Verdict::Violated;
    let can_violate = unsatisfiable || !dfa.never_violates();
    let mut cases = Vec::new();
    let mut violated = Vec::new();
    let mut satisfied = Vec::new();
    for s in 0..n as u32 {
        if dfa.verdict(s) == Verdict::Satisfied {
            satisfied.push(format!("state = {s}"));
        }
        for e in dfa.edges(s) {
            match e.target {
                Target::State(t) => {
                    if dfa.verdict(t) == Verdict::Satisfied && dfa.verdict(s) != Verdict::Satisfied
                    {
                        satisfied.push(in_state(s, guard(&e.guard)));
                    }
                    cases.push((in_state(s, guard(&e.guard)), values[t as usize].clone()));
                }
                Target::Violation => violated.push(in_state(s, guard(&e.guard))),
            }
        }
    }
    let mut all_values = values.clone();
    let sink = if can_violate {
        all_values.push(n.to_string());
        violated.insert(0, format!("state = {n}"));
        n.to_string()
    } else {
        // Unreachable default: the cases cover every letter.
        "state".to_string()
    };
    let or = |v: Vec<String>| {
        if v.is_empty() {
            "FALSE".to_string()
        } else {
            v.join(" | ")
        }
    };
    let (args, params) = join_args(&bindings);
    let view = DfaObserver {
        formula: comment_safe(dfa.name()),
        version: env!("CARGO_PKG_VERSION"),
        informative: opts.informative,
        three_valued: opts.three_valued,
        num_states: super::names::states(n),
        bindings: &bindings,
        instance: &opts.instance,
        module,
        args,
        params,
        has_state: all_values.len() > 1,
        state_note: if can_violate && all_values.len() > 1 {
            format!("`state` is the monitor state ({n} is the rejecting sink).\n-- ")
        } else {
            String::new()
        },
        values: all_values.join(", "),
        cases,
        sink,
        violated: if unsatisfiable {
            "TRUE".into()
        } else {
            or(violated)
        },
        satisfied: or(satisfied),
    };
    super::render(&view)
}

fn expr(e: &TExpr, idents: &[String]) -> String {
    match e {
        TExpr::Const(b) => if *b { "TRUE" } else { "FALSE" }.into(),
        TExpr::Ap(i) => idents[*i as usize].clone(),
        TExpr::Var(i) => format!("t{i}"),
        TExpr::Next(x) => format!("next({})", expr(x, idents)),
        TExpr::Not(x) => match **x {
            TExpr::Ap(_) | TExpr::Var(_) | TExpr::Const(_) => format!("!{}", expr(x, idents)),
            _ => format!("!({})", expr(x, idents)),
        },
        TExpr::And(xs) => format!(
            "({})",
            xs.iter()
                .map(|x| expr(x, idents))
                .collect::<Vec<_>>()
                .join(" & ")
        ),
        TExpr::Or(xs) => format!(
            "({})",
            xs.iter()
                .map(|x| expr(x, idents))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        TExpr::Iff(a, b) => format!("({} <-> {})", expr(a, idents), expr(b, idents)),
    }
}

/// Writes `t` as a symbolic NuSMV observer.
pub fn emit_smv_transducer(t: &Transducer, opts: &SmvOptions) -> Result<String, EmitError> {
    let module = check_names(opts)?;
    let names: Vec<String> = (0..t.vars.len()).map(|i| format!("t{i}")).collect();
    let mut reserved: Vec<&str> = names.iter().map(String::as_str).collect();
    reserved.extend(["ok", "fs", "violated"]);
    let bindings = bindings(&t.alphabet, &reserved, opts);
    let idents: Vec<String> = bindings.iter().map(|b| b.ident.clone()).collect();
    let vars = t
        .vars
        .iter()
        .enumerate()
        .map(|(i, v)| (names[i].clone(), comment_safe(&v.meaning)))
        .collect();
    let registers = t
        .vars
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.register.as_ref().map(|(init, next)| {
                (
                    names[i].clone(),
                    if *init { "TRUE" } else { "FALSE" }.to_string(),
                    expr(next, &idents),
                )
            })
        })
        .collect();
    let conj = |v: &[TExpr], sep: &str| {
        if v.is_empty() {
            "TRUE".to_string()
        } else {
            v.iter()
                .map(|e| expr(e, &idents))
                .collect::<Vec<_>>()
                .join(sep)
        }
    };
    let (args, params) = join_args(&bindings);
    let view = TransducerObserver {
        formula: comment_safe(&t.property),
        version: env!("CARGO_PKG_VERSION"),
        num_vars: t.vars.len(),
        bindings: &bindings,
        instance: &opts.instance,
        module,
        args,
        params,
        vars,
        init: expr(&t.init, &idents),
        registers,
        trans: if t.trans.is_empty() {
            String::new()
        } else {
            conj(&t.trans, " &\n  ")
        },
        finals: conj(&t.finals, " & "),
    };
    super::render(&view)
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::formula::parse;
    use monitor_core::translate::{transducer, Builder};

    #[test]
    fn renders_both_encodings() {
        let f = "G(req -> X ack)";
        let dfa = Builder::new().build(f).unwrap().into_dfa();
        let text = emit_smv_dfa(&dfa, &SmvOptions::default()).unwrap();
        println!("{text}");
        assert!(
            text.contains("  VAR obs : monitor_observer(req, ack);\n  INVARSPEC !obs.violated;\n")
        );
        assert!(text.contains("MODULE monitor_observer(req, ack)\n"));
        assert!(text.contains("  state : { 0, 1, 2 };\n"));
        assert!(text.contains("  violated := state = 2 | state = 1 & !ack;\n"));
        let t = transducer(&parse(f).unwrap()).unwrap();
        let text = emit_smv_transducer(&t, &SmvOptions::default()).unwrap();
        println!("{text}");
        assert!(text.contains("  violated := fs & ok;\n"));
        assert!(text.contains("INVAR\n  fs -> ("));
    }

    #[test]
    fn keywords_become_parameters() {
        let dfa = Builder::new()
            .build("G(next -> X \"x > 3\") & G(!MODULE)")
            .unwrap()
            .into_dfa();
        let text = emit_smv_dfa(&dfa, &SmvOptions::default()).unwrap();
        assert!(
            text.contains("MODULE monitor_observer(p_MODULE, p_next, x___3)"),
            "{text}"
        );
        // Keywords name nothing in the model: the model defines p_MODULE.
        assert!(
            text.contains("VAR obs : monitor_observer(p_MODULE, p_next, x > 3)"),
            "{text}"
        );
        let bad = SmvOptions {
            name: "1x".into(),
            ..Default::default()
        };
        assert_eq!(
            emit_smv_dfa(&dfa, &bad),
            Err(EmitError::Name("1x_observer".into()))
        );
    }
}
