//! Reading a NuSMV model just enough to put observers into it.
//!
//! `mongen compile -t smv --model MODEL.smv` writes the whole model back with
//! the observers inserted: their instances and `INVARSPEC`s at the end of
//! `main`, wherever `main` is in the file, and their modules after the last
//! module; every other byte of the model is kept. Reading the model also
//! tells which names the observers must not use: NuSMV's enumeration
//! constants are global, so a variable, define or parameter of an observer
//! named like a constant of the model is a "multiple declaration" or an
//! "ambiguous" identifier, wherever it is declared.
//!
//! The reader is a lexer, not a parser: it follows NuSMV 2.5's lexical rules
//! (identifiers `[A-Za-z_][A-Za-z0-9_$#-]*`, `--` comments, `#` lines of the
//! C preprocessor) and finds `MODULE` headers, the identifiers inside braces
//! (enumerations and set expressions), `CONSTANTS` declarations and the
//! input variables (`IVAR` declarations, and a process's `running`). It reads
//! bytes: a model in another encoding than UTF-8 (comments in Latin-1) is
//! written back unchanged.

use std::collections::BTreeSet;
use std::fmt;

use super::names::SMV_KEYWORDS;

/// Why a model cannot take observers.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ModelError {
    /// The model has no `MODULE main`.
    NoMain,
    /// The model has several `MODULE main`.
    SeveralMains {
        /// The 1-based line of the second one.
        line: usize,
    },
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::NoMain => write!(f, "the model has no `MODULE main`"),
            ModelError::SeveralMains { line } => {
                write!(f, "the model declares `MODULE main` again at line {line}")
            }
        }
    }
}

impl std::error::Error for ModelError {}

/// A NuSMV model read for inserting observers.
///
/// ```
/// use mongen::emit::smv_model::SmvModel;
///
/// let model = SmvModel::read(
///     "MODULE main\nVAR s : {idle, busy};\nIVAR go : boolean;\nMODULE cell(x)\nVAR v : boolean;\n",
/// )?;
/// assert!(model.is_constant("busy"));
/// assert!(!model.is_constant("v"));
/// assert!(model.uses("cell") && model.uses("v"));
/// assert!(model.is_input("go") && !model.is_input("s"));
/// // Observers go at the end of `main`, which here is not the last module.
/// let text = model.insert(&["  VAR o : obs(s = busy);\n".into()], &["MODULE obs(b)\n".into()]);
/// assert_eq!(
///     text,
///     b"MODULE main\nVAR s : {idle, busy};\nIVAR go : boolean;\n  VAR o : obs(s = busy);\n\
///      MODULE cell(x)\nVAR v : boolean;\n\nMODULE obs(b)\n"
/// );
/// # Ok::<(), mongen::emit::smv_model::ModelError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SmvModel {
    text: Vec<u8>,
    identifiers: BTreeSet<String>,
    constants: BTreeSet<String>,
    inputs: BTreeSet<String>,
    /// Where `main`'s lines go: after the line of its last token, or right
    /// after that token if the next module starts on the same line.
    main_end: usize,
    /// Whether the lines go in the middle of a line (which is then broken).
    main_split: bool,
    main_last: bool,
}

/// A token of a NuSMV model: an identifier or one other character.
#[derive(Debug)]
struct Token<'a> {
    text: &'a str,
    start: usize,
    end: usize,
    ident: bool,
}

/// The keywords that start a section of a module.
const SECTIONS: &[&str] = &[
    "MODULE",
    "VAR",
    "IVAR",
    "FROZENVAR",
    "DEFINE",
    "MDEFINE",
    "CONSTANTS",
    "ASSIGN",
    "INIT",
    "INVAR",
    "TRANS",
    "FAIRNESS",
    "JUSTICE",
    "COMPASSION",
    "SPEC",
    "CTLSPEC",
    "LTLSPEC",
    "PSLSPEC",
    "INVARSPEC",
    "COMPUTE",
    "ISA",
    "PRED",
    "PREDICATES",
];

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'#' | b'-')
}

/// The tokens of `text`, without white space and comments; other bytes
/// than ASCII (in comments) are skipped.
fn tokens(bytes: &[u8]) -> Vec<Token<'_>> {
    let text = |a: usize, b: usize| std::str::from_utf8(&bytes[a..b]).unwrap_or("");
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        // `--` comments and preprocessor lines run to the end of the line.
        if (c == b'-' && bytes.get(i + 1) == Some(&b'-')) || (c == b'#' && line_start) {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        if is_ident_start(c) {
            // Longest match, as flex does: `a--b` is one identifier.
            while i < bytes.len() && is_ident_char(bytes[i]) {
                i += 1;
            }
            out.push(Token {
                text: text(start, i),
                start,
                end: i,
                ident: true,
            });
        } else if c.is_ascii_digit() {
            // Numbers and word constants (`0ud4_15`) name nothing.
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii() {
            i += 1;
            out.push(Token {
                text: text(start, i),
                start,
                end: i,
                ident: false,
            });
        } else {
            i += 1;
        }
    }
    out
}

impl SmvModel {
    /// Reads a model (its bytes: any encoding that keeps ASCII as it is).
    ///
    /// ```
    /// use mongen::emit::smv_model::{ModelError, SmvModel};
    ///
    /// let model = SmvModel::read("MODULE main\nVAR x : boolean;\n")?;
    /// assert!(model.uses("x") && model.main_is_last());
    /// assert_eq!(SmvModel::read("MODULE cell\n").unwrap_err(), ModelError::NoMain);
    /// let twice = SmvModel::read("MODULE main\nMODULE main\n").unwrap_err();
    /// assert_eq!(twice, ModelError::SeveralMains { line: 2 });
    /// # Ok::<(), ModelError>(())
    /// ```
    pub fn read(text: impl AsRef<[u8]>) -> Result<SmvModel, ModelError> {
        let text = text.as_ref();
        let toks = tokens(text);
        let mut identifiers = BTreeSet::new();
        let mut constants = BTreeSet::new();
        // A process's `running` is an input (of NuSMV's scheduler).
        let mut inputs: BTreeSet<String> = ["running", "_process_selector_"]
            .into_iter()
            .map(String::from)
            .collect();
        let mut main: Option<usize> = None;
        let mut main_last: Option<usize> = None;
        let mut depth = 0usize;
        let mut in_constants = false;
        let mut in_ivar = false;
        let mut in_main = false;
        for (k, t) in toks.iter().enumerate() {
            if t.ident {
                identifiers.insert(t.text.to_string());
                if depth > 0 || in_constants {
                    constants.insert(t.text.to_string());
                }
                if SECTIONS.contains(&t.text) {
                    in_ivar = t.text == "IVAR";
                }
                // `name : type` in an IVAR section declares an input.
                if in_ivar && depth == 0 && toks.get(k + 1).is_some_and(|n| n.text == ":") {
                    inputs.insert(t.text.to_string());
                }
                if t.text == "MODULE" {
                    in_main = false;
                    if toks.get(k + 1).is_some_and(|n| n.text == "main") {
                        if main.is_some() {
                            return Err(ModelError::SeveralMains {
                                line: text[..t.start].iter().filter(|&&b| b == b'\n').count() + 1,
                            });
                        }
                        main = Some(k);
                        in_main = true;
                    }
                }
                in_constants |= t.text == "CONSTANTS";
            } else {
                match t.text {
                    "{" => depth += 1,
                    "}" => depth = depth.saturating_sub(1),
                    ";" => in_constants = false,
                    _ => {}
                }
            }
            if in_main {
                main_last = Some(k);
            }
        }
        if main.is_none() {
            return Err(ModelError::NoMain);
        }
        let k = main_last.expect("main has its header");
        let last = &toks[k];
        let line_end = text[last.end..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(text.len(), |n| last.end + n + 1);
        // The next module may start on the same line (`... x; MODULE cell`).
        let main_split = toks.get(k + 1).is_some_and(|n| n.start < line_end);
        Ok(SmvModel {
            text: text.to_vec(),
            identifiers,
            constants,
            inputs,
            main_end: if main_split { last.end } else { line_end },
            main_split,
            main_last: in_main,
        })
    }

    /// Whether `main` is the last module (text appended to the model goes
    /// into `main`).
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// assert!(SmvModel::read("MODULE cell\nMODULE main\n")?.main_is_last());
    /// assert!(!SmvModel::read("MODULE main\nMODULE cell\n")?.main_is_last());
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn main_is_last(&self) -> bool {
        self.main_last
    }

    /// Whether the model uses `name` anywhere (a variable, define, module,
    /// constant or keyword).
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nVAR x : boolean; -- no y here\n")?;
    /// assert!(model.uses("x") && model.uses("boolean"));
    /// assert!(!model.uses("y"));
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn uses(&self, name: &str) -> bool {
        self.identifiers.contains(name)
    }

    /// Whether `name` may be an enumeration constant of the model: it
    /// appears inside braces or in a `CONSTANTS` declaration.
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nCONSTANTS red, green;\nVAR s : {idle, busy};\n")?;
    /// assert!(model.is_constant("green") && model.is_constant("busy"));
    /// assert!(!model.is_constant("s"));
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn is_constant(&self, name: &str) -> bool {
        self.constants.contains(name)
    }

    /// Whether `name` may be an input variable of the model: declared in an
    /// `IVAR` section of some module, or a process's `running`.
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nIVAR go : boolean;\nVAR x : boolean;\n")?;
    /// assert!(model.is_input("go") && !model.is_input("x"));
    /// assert!(model.is_input("running"));
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn is_input(&self, name: &str) -> bool {
        self.inputs.contains(name)
    }

    /// Whether the model expression `expr` may read an input variable
    /// (one of its identifiers, or the last component of a dotted name,
    /// is an input of some module).
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nIVAR go : boolean;\nVAR x : 0..3;\n")?;
    /// assert_eq!(model.reads_input("x > 1 & go"), Some("go".to_string()));
    /// assert_eq!(model.reads_input("p.running"), Some("running".to_string()));
    /// assert_eq!(model.reads_input("x > 1"), None);
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn reads_input(&self, expr: &str) -> Option<String> {
        tokens(expr.as_bytes())
            .iter()
            .filter(|t| t.ident)
            .flat_map(|t| t.text.split('.'))
            .find(|part| self.is_input(part))
            .map(str::to_string)
    }

    /// The model's constants (see [`SmvModel::is_constant`]).
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nVAR s : {idle, busy};\nDEFINE b := s = busy;\n")?;
    /// assert_eq!(model.constants().iter().collect::<Vec<_>>(), ["busy", "idle"]);
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn constants(&self) -> &BTreeSet<String> {
        &self.constants
    }

    /// `base`, or `base_2`, `base_3`, …: the first that the model does not
    /// use, that is not a keyword and that is not in `taken` (which
    /// receives it).
    ///
    /// ```
    /// use std::collections::BTreeSet;
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nVAR state : boolean;\n")?;
    /// let mut taken = BTreeSet::new();
    /// assert_eq!(model.fresh_name("state", &mut taken), "state_2");
    /// assert_eq!(model.fresh_name("state", &mut taken), "state_3");
    /// assert_eq!(model.fresh_name("next", &mut taken), "next_2"); // a keyword
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn fresh_name(&self, base: &str, taken: &mut BTreeSet<String>) -> String {
        let free = |s: &str| !self.uses(s) && !SMV_KEYWORDS.contains(&s) && !taken.contains(s);
        let mut name = base.to_string();
        let mut k = 2;
        while !free(&name) {
            name = format!("{base}_{k}");
            k += 1;
        }
        taken.insert(name.clone());
        name
    }

    /// `name`, or `name_2`, `name_3`, …: the first such that the model
    /// does not use `NAME_observer` (the observer module's name) and
    /// `taken` does not hold it (it receives it).
    ///
    /// ```
    /// use std::collections::BTreeSet;
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nMODULE monitor_observer\n")?;
    /// let mut taken = BTreeSet::new();
    /// assert_eq!(model.fresh_module("monitor", &mut taken), "monitor_2");
    /// assert_eq!(model.fresh_module("monitor", &mut taken), "monitor_3");
    /// assert_eq!(model.fresh_module("bus", &mut taken), "bus");
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn fresh_module(&self, name: &str, taken: &mut BTreeSet<String>) -> String {
        let mut module = name.to_string();
        let mut k = 2;
        while self.uses(&format!("{module}_observer")) || taken.contains(&module) {
            module = format!("{name}_{k}");
            k += 1;
        }
        taken.insert(module.clone());
        module
    }

    /// The model with `main_lines` added at the end of `main` and
    /// `modules` after everything else, each module after a blank line.
    ///
    /// ```
    /// use mongen::emit::smv_model::SmvModel;
    ///
    /// let model = SmvModel::read("MODULE main\nVAR x : boolean;\n")?;
    /// let text = model.insert(&["  VAR o : obs(x);\n".into()], &["MODULE obs(b)\n".into()]);
    /// assert_eq!(text, b"MODULE main\nVAR x : boolean;\n  VAR o : obs(x);\n\nMODULE obs(b)\n");
    /// # Ok::<(), mongen::emit::smv_model::ModelError>(())
    /// ```
    pub fn insert(&self, main_lines: &[String], modules: &[String]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.text.len() + 1024);
        out.extend_from_slice(&self.text[..self.main_end]);
        if !out.is_empty() && !out.ends_with(b"\n") {
            out.push(b'\n');
        }
        for l in main_lines {
            out.extend_from_slice(l.as_bytes());
        }
        let rest = &self.text[self.main_end..];
        if self.main_split {
            // The next module started on main's last line: it starts a
            // line of its own now.
            out.extend_from_slice(rest.trim_ascii_start());
        } else {
            out.extend_from_slice(rest);
        }
        for m in modules {
            if !out.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.push(b'\n');
            out.extend_from_slice(m.as_bytes());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn main_anywhere_and_comments_skipped() {
        let text = "-- MODULE main in a comment\nMODULE main\nVAR\n  c : cell; -- MODULE x\n  s : {n1, t1, c1};\nSPEC AG !c.v -- last\n\n-- about cell\nMODULE cell\nVAR v : boolean;";
        let m = SmvModel::read(text).unwrap();
        let out = m.insert(&["  VAR obs : o;\n".into()], &["MODULE o\n".into()]);
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "-- MODULE main in a comment\nMODULE main\nVAR\n  c : cell; -- MODULE x\n  s : {n1, t1, c1};\nSPEC AG !c.v -- last\n  VAR obs : o;\n\n-- about cell\nMODULE cell\nVAR v : boolean;\n\nMODULE o\n"
        );
        assert!(m.is_constant("t1") && !m.is_constant("c") && !m.uses("x"));
        assert!(!m.main_is_last());
        // The last module, without a final newline.
        let m = SmvModel::read("MODULE main\nVAR x : boolean;").unwrap();
        assert!(m.main_is_last());
        assert_eq!(
            m.insert(&["  VAR o : m;\n".into()], &[]),
            b"MODULE main\nVAR x : boolean;\n  VAR o : m;\n"
        );
        // The next module on main's last line; a Latin-1 comment.
        let m = SmvModel::read(b"MODULE main VAR x : boolean; c : cell; -- caf\xe9\nASSIGN next(x) := !x; MODULE cell VAR y : boolean;").unwrap();
        assert_eq!(
            m.insert(&["  VAR o : m;\n".into()], &["MODULE m\n".into()]),
            b"MODULE main VAR x : boolean; c : cell; -- caf\xe9\nASSIGN next(x) := !x;\n  VAR o : m;\nMODULE cell VAR y : boolean;\n\nMODULE m\n"
        );
    }

    #[test]
    fn nusmv_identifiers_and_constants() {
        let m = SmvModel::read(
            "MODULE main\nCONSTANTS red, green;\nVAR e-1 : process cell(e-2);\n  w : unsigned word[4];\nASSIGN next(w) := 0ud4_15;\n#line 3\nDEFINE d := w = 0ud4_3 & x$1;",
        )
        .unwrap();
        for c in ["red", "green"] {
            assert!(m.is_constant(c), "{c}");
        }
        for i in ["e-1", "e-2", "x$1", "w", "d", "cell", "process"] {
            assert!(m.uses(i) && !m.is_constant(i), "{i}");
        }
        let io = SmvModel::read("MODULE main\nIVAR i : boolean; j : {a, b};\nVAR x : boolean;\nMODULE p\nIVAR\n  k : array 0..1 of boolean;\nVAR y : boolean;").unwrap();
        for i in ["i", "j", "k", "running"] {
            assert!(io.is_input(i), "{i}");
        }
        for v in ["x", "y", "a", "p"] {
            assert!(!io.is_input(v), "{v}");
        }
        assert_eq!(io.reads_input("x & !i").as_deref(), Some("i"));
        assert_eq!(io.reads_input("proc1.running").as_deref(), Some("running"));
        assert_eq!(io.reads_input("x = y"), None);
        assert!(!m.uses("ud4_15") && !m.uses("line"));
        let mut taken = BTreeSet::new();
        assert_eq!(m.fresh_name("w", &mut taken), "w_2");
        assert_eq!(m.fresh_name("w", &mut taken), "w_3");
        assert_eq!(m.fresh_name("next", &mut taken), "next_2");
        let m = SmvModel::read("MODULE monitor_observer\nMODULE main\n").unwrap();
        assert_eq!(m.fresh_module("monitor", &mut taken), "monitor_2");
        assert_eq!(m.fresh_module("monitor", &mut taken), "monitor_3");
        assert_eq!(m.fresh_module("bus", &mut taken), "bus");
    }

    #[test]
    fn models_without_one_main() {
        assert_eq!(
            SmvModel::read("MODULE m\nVAR x : boolean;").unwrap_err(),
            ModelError::NoMain
        );
        assert_eq!(
            SmvModel::read("MODULE main\n\nMODULE main\n").unwrap_err(),
            ModelError::SeveralMains { line: 3 }
        );
    }
}
