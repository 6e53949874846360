//! Identifiers for propositions in the text targets, and the expressions
//! they stand for.
//!
//! Every proposition gets an identifier that is valid in the target
//! language and distinct from its keywords, from the names the generated
//! code uses itself, and from the other propositions' identifiers:
//!
//! * a name that already is such an identifier is kept (`req` stays `req`);
//! * otherwise characters other than letters, digits and `_` become `_`,
//!   and `p_` is put in front of a name that is a keyword or does not start
//!   with a letter (`if` becomes `p_if`, `"x > 3"` becomes `x___3`, then
//!   `p_x___3` only if needed);
//! * clashes get a numeric suffix.
//!
//! Each emitter prints the mapping in a header comment. A proposition's
//! *expression* (what the model evaluates) is, in order: the `--define`
//! given for it, the quoted text of a name that is not an identifier
//! (`"x > 3"` is the model expression `x > 3`, as in Spot's never claims),
//! or the identifier itself (a symbol of the model).

use std::collections::HashSet;

use monitor_core::automaton::{Alphabet, Guard};

/// Keywords of Promela (Spin 6) and names Spin predefines.
pub const PROMELA_KEYWORDS: &[&str] = &[
    "active",
    "assert",
    "atomic",
    "bit",
    "bool",
    "break",
    "byte",
    "c_code",
    "c_decl",
    "c_expr",
    "c_state",
    "c_track",
    "chan",
    "d_proctype",
    "d_step",
    "do",
    "else",
    "empty",
    "enabled",
    "eval",
    "false",
    "fi",
    "for",
    "full",
    "get_priority",
    "goto",
    "hidden",
    "if",
    "in",
    "init",
    "inline",
    "int",
    "len",
    "local",
    "ltl",
    "mtype",
    "nempty",
    "never",
    "nfull",
    "notrace",
    "np_",
    "od",
    "of",
    "pc_value",
    "print",
    "printf",
    "printm",
    "priority",
    "proctype",
    "provided",
    "run",
    "scanf",
    "select",
    "set_priority",
    "short",
    "show",
    "skip",
    "timeout",
    "trace",
    "true",
    "typedef",
    "unless",
    "unsigned",
    "xr",
    "xs",
    "_",
    "_last",
    "_nr_pr",
    "_pid",
    "_priority",
    "STDIN",
    "accept",
    "end",
    "progress",
];

/// Keywords of NuSMV 2.5/2.6 (including the temporal operators, which are
/// reserved words).
pub const SMV_KEYWORDS: &[&str] = &[
    "MODULE",
    "DEFINE",
    "MDEFINE",
    "CONSTANTS",
    "VAR",
    "IVAR",
    "FROZENVAR",
    "INIT",
    "TRANS",
    "INVAR",
    "SPEC",
    "CTLSPEC",
    "LTLSPEC",
    "PSLSPEC",
    "COMPUTE",
    "NAME",
    "INVARSPEC",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "ISA",
    "ASSIGN",
    "CONSTRAINT",
    "SIMPWFF",
    "CTLWFF",
    "LTLWFF",
    "PSLWFF",
    "COMPWFF",
    "IN",
    "MIN",
    "MAX",
    "MIRROR",
    "PRED",
    "PREDICATES",
    "process",
    "array",
    "of",
    "boolean",
    "integer",
    "real",
    "word",
    "word1",
    "bool",
    "signed",
    "unsigned",
    "extend",
    "resize",
    "sizeof",
    "uwconst",
    "swconst",
    "EX",
    "AX",
    "EF",
    "AF",
    "EG",
    "AG",
    "E",
    "F",
    "O",
    "G",
    "H",
    "X",
    "Y",
    "Z",
    "A",
    "U",
    "S",
    "V",
    "T",
    "BU",
    "EBF",
    "ABF",
    "EBG",
    "ABG",
    "case",
    "esac",
    "mod",
    "next",
    "init",
    "union",
    "in",
    "xor",
    "xnor",
    "self",
    "TRUE",
    "FALSE",
    "count",
    "abs",
    "toint",
    "floor",
    "max",
    "min",
    "typeof",
    "set",
    "clock",
];

/// How one proposition appears in generated code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    /// The proposition, as in the formula.
    pub name: String,
    /// Its identifier in the generated code.
    pub ident: String,
    /// The model expression it stands for.
    pub expr: String,
    /// Whether `expr` came from `--define`.
    pub defined: bool,
}

/// `1 state`, `2 states`.
pub fn states(n: usize) -> String {
    format!("{n} state{}", if n == 1 { "" } else { "s" })
}

/// Whether `s` is `[A-Za-z_][A-Za-z0-9_]*`.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The identifiers of the propositions of `aps` for a target with the
/// given keywords (compared case-sensitively), avoiding `reserved` names.
pub fn mangle(aps: &Alphabet, keywords: &[&str], reserved: &[&str]) -> Vec<String> {
    let mut taken: HashSet<String> = reserved.iter().map(|s| s.to_string()).collect();
    let bad = |s: &str| keywords.contains(&s) || reserved.contains(&s);
    let mut out = Vec::with_capacity(aps.len());
    for name in aps.names() {
        let mut base: String = if is_identifier(name) && !bad(name) {
            name.clone()
        } else {
            let clean: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if clean.starts_with(|c: char| c.is_ascii_alphabetic())
                && !bad(&clean)
                && clean != *name
            {
                clean
            } else {
                format!("p_{clean}")
            }
        };
        if taken.contains(&base) {
            let stem = base.clone();
            let mut k = 2;
            while taken.contains(&base) {
                base = format!("{stem}_{k}");
                k += 1;
            }
        }
        taken.insert(base.clone());
        out.push(base);
    }
    out
}

/// The bindings of the propositions of `aps`: identifiers from [`mangle`],
/// expressions from `defines` (pairs `name`, `expression`; those naming no
/// proposition of `aps` are ignored, as one set of defines serves several
/// formulas) or the names.
pub fn bind(
    aps: &Alphabet,
    keywords: &[&str],
    reserved: &[&str],
    defines: &[(String, String)],
) -> Vec<Binding> {
    let idents = mangle(aps, keywords, reserved);
    aps.names()
        .iter()
        .zip(idents)
        .map(|(name, ident)| {
            let def = defines.iter().rev().find(|(n, _)| n == name);
            let expr = match def {
                Some((_, e)) => e.clone(),
                None if keywords.contains(&name.as_str()) => ident.clone(),
                None => name.clone(),
            };
            Binding {
                name: name.clone(),
                ident,
                expr,
                defined: def.is_some(),
            }
        })
        .collect()
}

/// How a target language spells Boolean operators.
#[derive(Clone, Copy, Debug)]
pub struct Ops {
    /// Conjunction.
    pub and: &'static str,
    /// Disjunction.
    pub or: &'static str,
    /// Negation (prefix).
    pub not: &'static str,
    /// The constant true.
    pub tt: &'static str,
    /// The constant false.
    pub ff: &'static str,
}

/// C-like operators (Promela, Verilog, C++).
pub const C_OPS: Ops = Ops {
    and: " && ",
    or: " || ",
    not: "!",
    tt: "1",
    ff: "0",
};

/// NuSMV operators.
pub const SMV_OPS: Ops = Ops {
    and: " & ",
    or: " | ",
    not: "!",
    tt: "TRUE",
    ff: "FALSE",
};

/// A guard as an expression of the target: the literals common to all its
/// cubes factored out, then a disjunction of conjunctions of (negated)
/// identifiers (`!req && (!a || !b)` rather than
/// `(!req && !a) || (!req && !b)`).
pub fn guard_text(g: &Guard, idents: &[String], ops: &Ops) -> String {
    if g.is_true() {
        return ops.tt.to_string();
    }
    if g.is_false() {
        return ops.ff.to_string();
    }
    let lit = |&(v, pos): &(u32, bool)| {
        format!("{}{}", if pos { "" } else { ops.not }, idents[v as usize])
    };
    let cubes = g.cubes();
    let common: Vec<(u32, bool)> = cubes[0]
        .iter()
        .copied()
        .filter(|l| cubes.iter().all(|c| c.contains(l)))
        .collect();
    let rests: Vec<Vec<(u32, bool)>> = cubes
        .iter()
        .map(|c| c.iter().copied().filter(|l| !common.contains(l)).collect())
        .collect();
    let mut parts: Vec<String> = common.iter().map(lit).collect();
    // An empty rest means the common part alone is the guard.
    if rests.len() > 1 && rests.iter().all(|r| !r.is_empty()) {
        let disjuncts: Vec<String> = rests
            .iter()
            .map(|r| {
                let conj = r.iter().map(lit).collect::<Vec<_>>().join(ops.and);
                if r.len() > 1 {
                    format!("({conj})")
                } else {
                    conj
                }
            })
            .collect();
        let disj = disjuncts.join(ops.or);
        parts.push(if parts.is_empty() {
            disj
        } else {
            format!("({disj})")
        });
    } else if rests.len() == 1 {
        parts.extend(rests[0].iter().map(lit));
    }
    parts.join(ops.and)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_and_odd_names_are_mangled_uniquely() {
        let aps = Alphabet::new(["req", "if", "x > 3", "x_3", "3d", "violated", "next"]);
        let ids = mangle(&aps, PROMELA_KEYWORDS, &["violated"]);
        assert_eq!(
            ids,
            ["req", "p_if", "x___3", "x_3", "p_3d", "p_violated", "next"]
        );
        let ids = mangle(&aps, SMV_KEYWORDS, &[]);
        assert_eq!(ids[6], "p_next");
        let clash = Alphabet::new(["a b", "a_b", "a-b"]);
        assert_eq!(mangle(&clash, &[], &[]), ["a_b", "a_b_2", "a_b_3"]);
        for id in mangle(&aps, SMV_KEYWORDS, &["state"]) {
            assert!(is_identifier(&id) && !SMV_KEYWORDS.contains(&id.as_str()));
        }
    }

    #[test]
    fn guards_factor_common_literals() {
        let ids: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let g = |cubes: Vec<Vec<(u32, bool)>>| guard_text(&Guard::from_cubes(cubes), &ids, &C_OPS);
        assert_eq!(
            g(vec![
                vec![(0, false), (1, false)],
                vec![(0, false), (2, false)]
            ]),
            "!a && (!b || !c)"
        );
        assert_eq!(
            g(vec![vec![(0, true), (1, true)], vec![(2, true)]]),
            "(a && b) || c"
        );
        assert_eq!(g(vec![vec![(0, true), (1, false)]]), "a && !b");
        assert_eq!(g(vec![vec![]]), "1");
        assert_eq!(g(vec![]), "0");
        assert_eq!(
            guard_text(
                &Guard::from_cubes(vec![vec![(1, true)], vec![(2, true)]]),
                &ids,
                &SMV_OPS
            ),
            "b | c"
        );
    }

    #[test]
    fn defines_bind_expressions() {
        let aps = Alphabet::new(["p", "x > 3", "if"]);
        // Defines of names the formula lacks are ignored (one set serves
        // several formulas).
        let defines = [("p".into(), "ncrit <= 1".into()), ("q".into(), "0".into())];
        let b = bind(&aps, PROMELA_KEYWORDS, &[], &defines);
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].expr, "ncrit <= 1");
        assert!(b[0].defined);
        assert_eq!(b[1].expr, "x > 3");
        // A keyword names nothing in the model: the model defines p_if.
        assert_eq!((b[2].ident.as_str(), b[2].expr.as_str()), ("p_if", "p_if"));
    }
}
