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
use monitor_core::formula::atom::{expression, Syntax};

mod keywords;
pub use keywords::{
    CPP_KEYWORDS, PROMELA_KEYWORDS, RUST_KEYWORDS, SMV_KEYWORDS, SMV_LATER_KEYWORDS,
    SYSTEMC_MEMBERS, VERILATOR_WORDS, VERILOG_KEYWORDS,
};

/// Whether the identifier `s` can name a signal of a Verilog checker that
/// `verilator -Wall` accepts without warnings: not a Verilog or
/// SystemVerilog keyword, and not a C++ keyword or a word Verilator
/// reserves.
///
/// ```
/// use mongen::emit::names::verilog_usable;
///
/// assert!(verilog_usable("req"));
/// assert!(!verilog_usable("logic")); // SystemVerilog
/// assert!(!verilog_usable("delete")); // C++
/// ```
pub fn verilog_usable(s: &str) -> bool {
    !VERILOG_KEYWORDS.contains(&s) && !CPP_KEYWORDS.contains(&s) && !VERILATOR_WORDS.contains(&s)
}

/// Whether `s` is a macro after `#include <systemc>` and the standard
/// headers (the list in `cpp_macros.txt`, from `scripts/cpp-macros.sh`).
///
/// ```
/// use mongen::emit::names::is_cpp_macro;
///
/// assert!(is_cpp_macro("EOF") && is_cpp_macro("errno"));
/// assert!(!is_cpp_macro("req"));
/// ```
pub fn is_cpp_macro(s: &str) -> bool {
    static MACROS: std::sync::OnceLock<HashSet<&'static str>> = std::sync::OnceLock::new();
    MACROS
        .get_or_init(|| {
            include_str!("cpp_macros.txt")
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect()
        })
        .contains(s)
}

/// Whether the identifier `s` can name a member of a SystemC module: not a
/// keyword, a macro, a member every module has, or a name C++ reserves
/// (`__` anywhere, `_` and a capital letter in front).
///
/// ```
/// use mongen::emit::names::cpp_usable;
///
/// assert!(cpp_usable("req_ok"));
/// assert!(!cpp_usable("class") && !cpp_usable("EOF"));
/// assert!(!cpp_usable("a__b") && !cpp_usable("_Req"));
/// ```
pub fn cpp_usable(s: &str) -> bool {
    let reserved_by_cpp = s.contains("__")
        || (s.starts_with('_') && s[1..].starts_with(|c: char| c.is_ascii_uppercase()));
    !reserved_by_cpp
        && !CPP_KEYWORDS.contains(&s)
        && !SYSTEMC_MEMBERS.contains(&s)
        && !is_cpp_macro(s)
}

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

impl Binding {
    /// The name, safe for a comment ([`comment_safe`]).
    ///
    /// ```
    /// use mongen::emit::names::Binding;
    ///
    /// let (name, ident, expr) = ("a*/b".into(), "a_b".into(), "a_b".into());
    /// let b = Binding { name, ident, expr, defined: false };
    /// assert_eq!(b.comment_name(), "a*\\/b");
    /// ```
    pub fn comment_name(&self) -> String {
        comment_safe(&self.name)
    }

    /// The expression, safe for a comment ([`comment_safe`]).
    ///
    /// ```
    /// use mongen::emit::names::Binding;
    ///
    /// let b = Binding { name: "p".into(), ident: "p".into(), expr: "x\ny".into(), defined: true };
    /// assert_eq!(b.comment_expr(), "x\\ny");
    /// ```
    pub fn comment_expr(&self) -> String {
        comment_safe(&self.expr)
    }
}

/// `1 state`, `2 states`.
///
/// ```
/// use mongen::emit::names::states;
///
/// assert_eq!(states(1), "1 state");
/// assert_eq!(states(0), "0 states");
/// ```
pub fn states(n: usize) -> String {
    format!("{n} state{}", if n == 1 { "" } else { "s" })
}

/// User text (a formula, a proposition name) made safe for a comment of
/// any target: one line (control characters escaped as `\n`, `\t`, …)
/// that cannot close a block comment (`*/` becomes `*\/`).
///
/// ```
/// use mongen::emit::names::comment_safe;
///
/// assert_eq!(comment_safe("G(a */ b)"), "G(a *\\/ b)");
/// assert_eq!(comment_safe("a\tb\n"), "a\\tb\\n");
/// ```
pub fn comment_safe(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&c.escape_unicode().to_string()),
            '/' if out.ends_with('*') => out.push_str("\\/"),
            c => out.push(c),
        }
    }
    out
}

/// A path or word as one word of a POSIX shell command line that a header
/// comment tells the user to paste: as it is when it holds only characters
/// no shell treats specially, otherwise in single quotes (a `'` inside
/// written `'\''`).
///
/// ```
/// use mongen::emit::names::shell_word;
///
/// assert_eq!(shell_word("out/claim.pml"), "out/claim.pml");
/// assert_eq!(shell_word("my claim.pml"), "'my claim.pml'");
/// assert_eq!(shell_word("x'; touch PWNED; '.pml"), "'x'\\''; touch PWNED; '\\''.pml'");
/// assert_eq!(shell_word(""), "''");
/// ```
pub fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./-+=:,@%".contains(c);
    if !s.is_empty() && s.chars().all(plain) {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `s` with control characters (line breaks, tabs) turned into spaces.
fn one_line(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Whether `s` is `[A-Za-z_][A-Za-z0-9_]*`.
///
/// ```
/// use mongen::emit::names::is_identifier;
///
/// assert!(is_identifier("_req1"));
/// assert!(!is_identifier("1req") && !is_identifier("x > 3") && !is_identifier(""));
/// ```
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The identifiers of the propositions of `aps` for a target with the
/// given keywords (compared case-sensitively), avoiding `reserved` names.
///
/// ```
/// use mongen::emit::names::mangle;
/// use monitor_core::automaton::Alphabet;
///
/// let aps = Alphabet::new(["req", "if", "x > 3", "x_3", "state"]);
/// let idents = mangle(&aps, &["if"], &["state"]);
/// assert_eq!(idents, ["req", "p_if", "x___3", "x_3", "p_state"]);
/// ```
pub fn mangle(aps: &Alphabet, keywords: &[&str], reserved: &[&str]) -> Vec<String> {
    mangle_where(aps, |s| !keywords.contains(&s) && !reserved.contains(&s))
}

/// The identifiers of the propositions of `aps` for a target where an
/// identifier `s` (of the form `[A-Za-z_][A-Za-z0-9_]*`) may be used when
/// `usable(s)`.
///
/// Candidates, in order: the name itself; the name with every other
/// character replaced by `_`; the same with runs of `_` collapsed and no
/// trailing `_` (C++ reserves `__`); that with `p_` in front. The first
/// usable one is taken, and a numeric suffix separates clashes.
///
/// ```
/// use mongen::emit::names::mangle_where;
/// use monitor_core::automaton::Alphabet;
///
/// let aps = Alphabet::new(["x > 3", "x>3", "a.b"]);
/// let idents = mangle_where(&aps, |s| !s.contains("__"));
/// assert_eq!(idents, ["x_3", "x_3_2", "a_b"]);
/// ```
pub fn mangle_where(aps: &Alphabet, usable: impl Fn(&str) -> bool) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = Vec::with_capacity(aps.len());
    for name in aps.names() {
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
        let mut collapsed = String::with_capacity(clean.len());
        for c in clean.chars() {
            if !(c == '_' && collapsed.ends_with('_')) {
                collapsed.push(c);
            }
        }
        let collapsed = collapsed.trim_end_matches('_').to_string();
        let letter = |s: &str| s.starts_with(|c: char| c.is_ascii_alphabetic());
        let prefixed = if collapsed.is_empty() {
            "p".to_string()
        } else if collapsed.starts_with('_') {
            format!("p{collapsed}")
        } else {
            format!("p_{collapsed}")
        };
        let base = if is_identifier(name) && usable(name) {
            name.clone()
        } else if letter(&clean) && clean != *name && usable(&clean) {
            clean
        } else if letter(&collapsed) && collapsed != *name && usable(&collapsed) {
            collapsed
        } else {
            prefixed
        };
        let mut ident = base.clone();
        let stem = base.trim_end_matches('_').to_string();
        let mut k = 2;
        while taken.contains(&ident) || !usable(&ident) {
            ident = format!("{stem}_{k}");
            k += 1;
        }
        taken.insert(ident.clone());
        out.push(ident);
    }
    out
}

/// Checks that `expr`, user text (a `--define`, a quoted proposition such as
/// `"x > 3"`) that a target of `syntax` reads as one expression, stays one
/// expression wherever an emitter writes it: inside parentheses of a guard,
/// as an argument of a module instance, on the right of an assignment. Its
/// brackets must balance, and it must hold none of the target's statement
/// separators (`;`), comment openers (`//`, `/*`, `*/`; `--` in NuSMV),
/// argument separators outside brackets (`,`), string quotes, preprocessor
/// or macro marks (`#`, `` ` ``) or line breaks. Verilog's escaped
/// identifiers (`\req+1 `, up to white space) are read as one token.
///
/// ```
/// use mongen::emit::names::check_expression;
/// use monitor_core::formula::atom::Syntax;
///
/// assert!(check_expression("x > 3 && (y == 2)", Syntax::Promela).is_ok());
/// assert!(check_expression("{a, b} == 2'b01", Syntax::Verilog).is_ok());
/// assert!(check_expression("\\req+1  == 1'b1", Syntax::Verilog).is_ok());
/// assert!(check_expression("1) -> goto S0 :: (1", Syntax::Promela).is_err());
/// assert!(check_expression("x -- y", Syntax::Smv).is_err());
/// assert!(check_expression("x, y", Syntax::Smv).is_err());
/// ```
pub fn check_expression(expr: &str, syntax: Syntax) -> Result<(), String> {
    let mut open: Vec<char> = Vec::new();
    let mut chars = expr.chars().peekable();
    while let Some(c) = chars.next() {
        let next = chars.peek().copied();
        match c {
            '\\' if syntax == Syntax::Verilog => {
                // An escaped identifier runs to the next white space.
                if next.is_none_or(char::is_whitespace) {
                    return Err("a backslash that starts no escaped identifier".into());
                }
                while chars.next_if(|c| !c.is_whitespace()).is_some() {}
                if chars.peek().is_none() {
                    return Err(
                        "an escaped identifier must end with white space (`\\req+1 `)".into(),
                    );
                }
            }
            '(' | '[' | '{' => open.push(c),
            ')' | ']' | '}' => {
                let opener = match c {
                    ')' => '(',
                    ']' => '[',
                    _ => '{',
                };
                if open.pop() != Some(opener) {
                    return Err(format!("an unbalanced `{c}`"));
                }
            }
            ',' if open.is_empty() => {
                return Err("a `,` outside brackets (one expression is expected)".into())
            }
            ';' => return Err("a `;` (one expression is expected, not statements)".into()),
            '"' | '#' | '`' | '\\' => return Err(format!("a `{c}`")),
            '/' if matches!(next, Some('/' | '*')) && syntax != Syntax::Smv => {
                return Err("a comment opener".into())
            }
            '*' if next == Some('/') => return Err("a comment closer `*/`".into()),
            '-' if next == Some('-') && syntax == Syntax::Smv => {
                return Err("`--`, which starts a NuSMV comment".into())
            }
            c if c.is_control() => return Err("a control character".into()),
            _ => {}
        }
    }
    match open.last() {
        Some(c) => Err(format!("an unclosed `{c}`")),
        None => Ok(()),
    }
}

/// The bindings of the propositions of `aps`: identifiers from [`mangle`],
/// expressions from `defines` (pairs `name`, `expression`; those naming no
/// proposition of `aps` are ignored, as one set of defines serves several
/// formulas) or the names, written in `syntax` when they are signals or
/// comparisons ([`expression`]: `state == 2` is `state = 2` in NuSMV).
///
/// ```
/// use mongen::emit::names::bind;
/// use monitor_core::automaton::Alphabet;
/// use monitor_core::formula::atom::Syntax;
///
/// let aps = Alphabet::new(["req", "state == 2", "if"]);
/// let defines = [("req".to_string(), "x > 3".to_string())];
/// let b = bind(&aps, &["if"], &[], &defines, Syntax::Smv)?;
/// let exprs: Vec<_> = b.iter().map(|b| (b.ident.as_str(), b.expr.as_str())).collect();
/// assert_eq!(exprs, [("req", "x > 3"), ("state____2", "state = 2"), ("p_if", "p_if")]);
/// assert!(b[0].defined && !b[1].defined);
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn bind(
    aps: &Alphabet,
    keywords: &[&str],
    reserved: &[&str],
    defines: &[(String, String)],
    syntax: Syntax,
) -> Result<Vec<Binding>, super::EmitError> {
    bind_where(
        aps,
        |s| !keywords.contains(&s) && !reserved.contains(&s),
        |s| keywords.contains(&s),
        defines,
        syntax,
    )
}

/// [`bind`] for a target whose usable identifiers `usable` tells (see
/// [`mangle_where`]). A name for which `keyword` holds cannot be a symbol
/// of the model: its expression is its new identifier. An error names a
/// proposition the target cannot express (a number beyond its integers).
///
/// ```
/// use mongen::emit::names::bind_where;
/// use monitor_core::automaton::Alphabet;
/// use monitor_core::formula::atom::Syntax;
///
/// let aps = Alphabet::new(["count[1:0] == 2'b01", "do"]);
/// let usable = |s: &str| s != "do" && !s.contains("__");
/// let b = bind_where(&aps, usable, |s| s == "do", &[], Syntax::Promela)?;
/// assert_eq!(b[0].ident, "count_1_0_2_b01");
/// assert_eq!((b[1].ident.as_str(), b[1].expr.as_str()), ("p_do", "p_do"));
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn bind_where(
    aps: &Alphabet,
    usable: impl Fn(&str) -> bool,
    keyword: impl Fn(&str) -> bool,
    defines: &[(String, String)],
    syntax: Syntax,
) -> Result<Vec<Binding>, super::EmitError> {
    let idents = mangle_where(aps, &usable);
    aps.names()
        .iter()
        .zip(idents)
        .map(|(name, ident)| {
            let def = defines.iter().rev().find(|(n, _)| n == name);
            // Expressions are one line: a line break would end a
            // `#define`; elsewhere it is white space.
            let refused = |reason: String| super::EmitError::Proposition {
                name: name.clone(),
                reason,
            };
            let expr = match def {
                Some((_, e)) => one_line(e),
                None if keyword(name) => ident.clone(),
                None => one_line(&expression(name, syntax).map_err(|e| refused(e.to_string()))?),
            };
            Ok(Binding {
                name: name.clone(),
                ident,
                expr,
                defined: def.is_some(),
            })
        })
        .collect()
}

/// Checks that the expression of every binding stays one expression
/// ([`check_expression`]) where a target writes it into code (Promela's
/// guards, the arguments of an SMV instance); the error names the
/// proposition. Targets that write expressions only in comments, or check
/// their connections themselves (Verilog's), need not call it.
///
/// ```
/// use mongen::emit::names::{bind, check_bindings};
/// use monitor_core::automaton::Alphabet;
/// use monitor_core::formula::atom::Syntax;
///
/// let aps = Alphabet::new(["p"]);
/// let defines = [("p".to_string(), "x); INVARSPEC TRUE; --".to_string())];
/// let b = bind(&aps, &[], &[], &defines, Syntax::Smv)?;
/// assert!(check_bindings(&b, Syntax::Smv).is_err());
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn check_bindings(bindings: &[Binding], syntax: Syntax) -> Result<(), super::EmitError> {
    for b in bindings {
        check_expression(&b.expr, syntax).map_err(|why| super::EmitError::Proposition {
            name: b.name.clone(),
            reason: format!("its expression `{}` holds {why}", comment_safe(&b.expr)),
        })?;
    }
    Ok(())
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

/// Verilog operators (1-bit constants).
pub const VERILOG_OPS: Ops = Ops {
    and: " && ",
    or: " || ",
    not: "!",
    tt: "1'b1",
    ff: "1'b0",
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
///
/// ```
/// use mongen::emit::names::{guard_text, C_OPS, SMV_OPS};
/// use monitor_core::automaton::Guard;
///
/// let idents = ["req".to_string(), "a".to_string(), "b".to_string()];
/// // (!req & !a) | (!req & !b)
/// let g = Guard::from_cubes(vec![vec![(0, false), (1, false)], vec![(0, false), (2, false)]]);
/// assert_eq!(guard_text(&g, &idents, &C_OPS), "!req && (!a || !b)");
/// assert_eq!(guard_text(&Guard::from_cubes(vec![vec![]]), &idents, &SMV_OPS), "TRUE");
/// ```
pub fn guard_text(g: &Guard, idents: &[String], ops: &Ops) -> String {
    let Some(cubes) = g.cubes() else {
        // A factored guard: written as it is, conjunctions grouped.
        let syntax = monitor_core::automaton::GuardSyntax {
            and: ops.and,
            or: ops.or,
            not: ops.not,
            tt: ops.tt,
            ff: ops.ff,
            group_conjunctions: true,
        };
        let mut out = String::new();
        let _ = g.write(&mut out, &syntax, &mut |out, v| {
            out.write_str(&idents[v as usize])
        });
        return out;
    };
    if g.is_true() {
        return ops.tt.to_string();
    }
    if g.is_false() {
        return ops.ff.to_string();
    }
    let lit = |&(v, pos): &(u32, bool)| {
        format!("{}{}", if pos { "" } else { ops.not }, idents[v as usize])
    };
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
        let b = bind(&aps, PROMELA_KEYWORDS, &[], &defines, Syntax::Promela).unwrap();
        assert_eq!(b.len(), 3);
        assert_eq!(b[0].expr, "ncrit <= 1");
        assert!(b[0].defined);
        assert_eq!(b[1].expr, "x > 3");
        // A keyword names nothing in the model: the model defines p_if.
        assert_eq!((b[2].ident.as_str(), b[2].expr.as_str()), ("p_if", "p_if"));
    }

    #[test]
    fn cpp_rules_avoid_reserved_names_and_macros() {
        let aps = Alphabet::new([
            "x > 3",
            "a__b",
            "_Foo",
            "EOF",
            "errno",
            "int",
            "sensitive",
            "ok_",
        ]);
        let ids = mangle_where(&aps, cpp_usable);
        assert_eq!(
            ids,
            [
                "x_3",
                "a_b",
                "p_Foo",
                "p_EOF",
                "p_errno",
                "p_int",
                "p_sensitive",
                "ok_"
            ]
        );
        for id in &ids {
            assert!(cpp_usable(id), "{id}");
        }
        // Suffixes keep the identifiers usable.
        let clash = Alphabet::new(["a b", "a_b", "a-b"]);
        assert_eq!(mangle_where(&clash, cpp_usable), ["a_b", "a_b_2", "a_b_3"]);
    }

    #[test]
    fn comments_stay_comments() {
        assert_eq!(comment_safe("a */ b\nc\td"), "a *\\/ b\\nc\\td");
        assert_eq!(comment_safe("G(req -> X ack)"), "G(req -> X ack)");
    }
}
