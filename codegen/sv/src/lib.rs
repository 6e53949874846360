//! The concurrent assertions of SystemVerilog files, as monitor-core
//! [`Directive`]s.
//!
//! A design's properties are written as `assert property`, `assume
//! property`, `cover property` and `restrict property` statements (IEEE
//! 1800-2017 §16.14): module items, or statements of `always` procedures
//! that give them their clock and their enabling conditions (§16.14.6),
//! with the `sequence`, `property` and `let` declarations, `default
//! clocking` and `default disable iff` of their module. This crate reads
//! the file with [sv-parser], a parser of the whole of IEEE 1800-2017 (with
//! its preprocessor: `` `define ``, `` `ifdef ``, `` `include ``), finds
//! those statements and what they depend on, and hands each one, with its
//! module's declarations, to monitor-core's SVA front end
//! ([`parse_sva_directive`]). Errors of either point into the file, at the
//! line and column where the construct is written.
//!
//! ```
//! use mongen_sv::{read_str, Options};
//! use monitor_core::formula::DirectiveKind;
//!
//! let design = read_str(
//!     "module arb(input clk, rst, req, gnt);
//!        default clocking @(posedge clk); endclocking
//!        default disable iff (rst);
//!        a_gnt: assert property (req |-> ##[1:2] gnt);
//!        always @(posedge clk) if (!gnt) m_req: assume property (req |=> req);
//!        c_gnt: cover property (req ##1 gnt);
//!      endmodule",
//!     "arb.sv",
//!     &Options::new(),
//! )?;
//! let [a, m, c] = &design.assertions[..] else { panic!() };
//! assert_eq!((a.module.as_str(), a.directive.label.as_deref()), ("arb", Some("a_gnt")));
//! assert_eq!(a.directive.clock.as_ref().unwrap().to_string(), "posedge clk");
//! assert!(a.directive.disable.is_some());
//! // In a procedure: its clock, and its condition as the antecedent.
//! assert_eq!(m.directive.kind, DirectiveKind::Assume);
//! assert_eq!((m.location.line, m.location.column), (5, 40));
//! assert!(m.text.ends_with("assume property (@(posedge clk) (!gnt) |-> (req |=> req));"));
//! assert_eq!(c.directive.kind, DirectiveKind::Cover);
//! # Ok::<(), mongen_sv::ReadError>(())
//! ```
//!
//! [sv-parser]: https://docs.rs/sv-parser
//! [`parse_sva_directive`]: monitor_core::formula::sva::parse_sva_directive

// sv-parser's syntax tree nests deeper than the compiler's default limit
// of trait evaluation (sv-parser sets the same).
#![recursion_limit = "256"]
mod consteval;

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use monitor_core::formula::sva::{parse_sva_directive_with, Signals};
use monitor_core::formula::Directive;
use sv_parser::{
    parse_sv_pp, preprocess, preprocess_str, unwrap_locate, unwrap_node, AlwaysConstruct,
    ConcurrentAssertionStatement, ConditionalStatement, Define, DefineText, EventControl,
    EventExpression, Locate, NodeEvent, PreprocessedText, ProceduralAssertionStatement,
    ProceduralTimingControl, PropertySpec, RefNode, Statement, StatementItem, StatementOrNull,
    SyntaxTree,
};
use sv_parser::{
    BindDirective, BindInstantiation, CaseGenerateItem, GenerateBlock, GenvarIteration,
};

/// How many generate blocks (loop iterations and chosen branches) the
/// assertions of a file may be unrolled into.
pub const MAX_GENERATED: usize = 10_000;

/// Parentheses, brackets, braces and `begin` blocks nested deeper than
/// this are refused before parsing: sv-parser recurses on them, and a
/// file of a million `(` would exhaust any stack.
pub const MAX_NESTING: usize = 1000;

/// The stack of the thread that parses (sv-parser's recursive descent
/// takes tens of kilobytes per level of nesting).
const PARSER_STACK: usize = 512 << 20;

/// How to preprocess a file: macros defined beforehand (`-D`) and the
/// directories searched by `` `include `` (`-I`).
///
/// ```
/// use mongen_sv::Options;
/// let options = Options::new().define("FORMAL", None).define("DEPTH", Some("4")).include_dir("rtl");
/// # let _ = options;
/// ```
#[derive(Clone, Debug, Default)]
pub struct Options {
    defines: Vec<(String, Option<String>)>,
    include_dirs: Vec<PathBuf>,
    parameters: Vec<(String, String)>,
}

impl Options {
    /// No macro defined, no include directory.
    ///
    /// ```
    /// let options = mongen_sv::Options::new();
    /// # let _ = options;
    /// ```
    pub fn new() -> Options {
        Options::default()
    }

    /// Defines the macro `name` (with the text `value`, or empty), as
    /// `` `define name value `` at the top of the file would.
    ///
    /// ```
    /// let options = mongen_sv::Options::new().define("WIDTH", Some("8"));
    /// # let _ = options;
    /// ```
    pub fn define(mut self, name: &str, value: Option<&str>) -> Options {
        self.defines
            .push((name.to_string(), value.map(str::to_string)));
        self
    }

    /// Adds a directory searched by `` `include ``, after the directory
    /// of the file that includes.
    ///
    /// ```
    /// let options = mongen_sv::Options::new().include_dir("rtl/include");
    /// # let _ = options;
    /// ```
    pub fn include_dir(mut self, dir: impl Into<PathBuf>) -> Options {
        self.include_dirs.push(dir.into());
        self
    }

    /// Gives the module parameter `name` the value `value` (a constant
    /// expression), in place of its default, where generate constructs
    /// are unrolled (as `-P` or `-pvalue` of a simulator).
    ///
    /// ```
    /// let design = mongen_sv::read_str(
    ///     "module m #(parameter N = 2) (input clk, input [7:0] v);
    ///        for (genvar i = 0; i < N; i++) begin : g
    ///          a: assert property (@(posedge clk) v[i]);
    ///        end
    ///      endmodule",
    ///     "m.sv", &mongen_sv::Options::new().parameter("N", "3"))?;
    /// assert_eq!(design.assertions.len(), 3);
    /// assert_eq!(design.assertions[2].scope, "g[2].");
    /// # Ok::<(), mongen_sv::ReadError>(())
    /// ```
    pub fn parameter(mut self, name: &str, value: &str) -> Options {
        self.parameters.push((name.to_string(), value.to_string()));
        self
    }

    fn sv_defines(&self) -> HashMap<String, Option<Define>> {
        self.defines
            .iter()
            .map(|(name, value)| {
                let text = value.as_ref().map(|v| DefineText::new(v.clone(), None));
                (
                    name.clone(),
                    Some(Define::new(name.clone(), Vec::new(), text)),
                )
            })
            .collect()
    }
}

/// Where something is written: a file, a 1-based line and a 1-based column
/// (in characters).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The file (an included file when the text comes from one).
    pub file: PathBuf,
    /// The line, from 1.
    pub line: usize,
    /// The column, from 1, in characters.
    pub column: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

/// One concurrent assertion of a design.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// The module that holds it.
    pub module: String,
    /// The directive: its kind, label, formula, clock and `disable iff`.
    pub directive: Directive,
    /// Where the statement is written (its label, or its keyword).
    pub location: Location,
    /// The SVA text handed to the front end: the module's declarations,
    /// then the statement (with the clock and the enabling condition of
    /// its procedure, for a statement in an `always` block).
    pub text: String,
    /// The generate blocks around it, as a simulator names them (`g[2].`,
    /// `genblk1.`; empty for a module item): each iteration of a generate
    /// loop is an assertion of its own, its genvars replaced by their
    /// values (IEEE 1800-2017 §27).
    pub scope: String,
}

/// The concurrent assertions of a file, in the file's order.
#[derive(Clone, Debug, Default)]
pub struct Design {
    /// The assertions.
    pub assertions: Vec<Assertion>,
    /// The assertions the SVA front end refuses (a construct outside
    /// what it reads, a signal of unknown width), each with where it is
    /// written, in the file's order: a file's other assertions are read
    /// all the same, as a compiler goes on past an error.
    pub refused: Vec<ReadError>,
    /// The modules declared in the file, in its order.
    pub modules: Vec<String>,
    /// Its `bind` directives of a module into every instance of a module
    /// (not those into named instances), in its order.
    pub binds: Vec<Bind>,
    /// The file after preprocessing (includes inlined, macros expanded,
    /// `` `ifdef `` resolved): what the parser read.
    preprocessed: String,
    /// What [`Design::without_assertions`] removes.
    removals: Vec<Removal>,
    /// Where each module's `endmodule` is in `preprocessed`.
    module_ends: Vec<(String, usize)>,
    /// Each module's signals, by name, with their widths (`None`:
    /// declared with a type whose width is not computed).
    signals: Vec<(String, Vec<SignalWidth>)>,
}

/// A `bind` directive of the file (IEEE 1800-2017 §23.11) that puts an
/// instance of `module` in every instance of `target`, as verification
/// IP binds its properties into a design (PULP's `bind counter
/// counter_properties #(.WIDTH(WIDTH)) i_counter_properties(.*);`).
///
/// ```
/// let design = mongen_sv::read_str(
///     "module p (input clk, a, b);\n\
///      ok: assert property (@(posedge clk) a |=> b);\n\
///      endmodule\n\
///      bind dut p #(.W(W)) i_p (.*);\n", "p.sv", &mongen_sv::Options::new())?;
/// let bind = &design.binds[0];
/// assert_eq!((bind.target.as_str(), bind.module.as_str(), bind.instance.as_str()), ("dut", "p", "i_p"));
/// assert!(bind.by_name);
/// assert_eq!(bind.parameters.as_deref(), Some("#(.W(W))"));
/// // Yosys reads no `bind`: the design's copy goes without it.
/// assert!(!design.without_assertions(|_| None).contains("bind"));
/// # Ok::<(), mongen_sv::ReadError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bind {
    /// The module bound into.
    pub target: String,
    /// The module instantiated.
    pub module: String,
    /// The instance's name.
    pub instance: String,
    /// Whether the ports are connected by name (`.*`).
    pub by_name: bool,
    /// The parameter value assignment as written (`#(.WIDTH(WIDTH))`).
    pub parameters: Option<String>,
}

/// A signal's name and its width (`None`: a type whose width is not
/// computed).
type SignalWidth = (String, Option<Width>);

/// A construct of the assertion language, in the preprocessed text.
#[derive(Clone, Debug)]
struct Removal {
    range: std::ops::Range<usize>,
    /// A statement of a procedure: replaced by a null statement `;`.
    statement: bool,
}

impl Design {
    /// The signals that `module` declares (ports, variables, nets), by
    /// name, each with its width: `None` for a type whose width mongen
    /// does not compute (a struct, more than one packed dimension, a type
    /// of a package). Empty for a module the file does not declare.
    pub fn signals(&self, module: &str) -> &[SignalWidth] {
        self.signals
            .iter()
            .find(|(m, _)| m == module)
            .map_or(&[], |(_, s)| s.as_slice())
    }

    /// The preprocessed file without its concurrent assertions and what
    /// only they use (`sequence`, `property` and `clocking` declarations,
    /// `default clocking`, `default disable iff`), each replaced by blanks
    /// (a statement of a procedure by the null statement `;`) so that the
    /// lines stay where they were; and before the `endmodule` of each
    /// module, the text `insert` gives for it. This is the design as a
    /// tool without an SVA front end reads it (Yosys, Icarus), with
    /// mongen's checkers instantiated in place of the assertions, where
    /// they see the module's internal signals.
    ///
    /// ```
    /// let design = mongen_sv::read_str(
    ///     "module m(input clk, a, b);
    ///        wire c = a & b;
    ///        always @(posedge clk) if (a) p: assert property (c);
    ///        q: assert property (@(posedge clk) a |=> b);
    ///      endmodule",
    ///     "m.sv", &mongen_sv::Options::new())?;
    /// let plain = design.without_assertions(|m| (m == "m").then(|| "  // checkers\n".to_string()));
    /// assert!(!plain.contains("assert"));
    /// assert!(plain.contains("if (a) ;"));
    /// assert!(plain.contains("  // checkers\nendmodule"));
    /// assert_eq!(plain.lines().count(), 6);
    /// # Ok::<(), mongen_sv::ReadError>(())
    /// ```
    pub fn without_assertions(&self, insert: impl Fn(&str) -> Option<String>) -> String {
        let mut text = self.preprocessed.clone().into_bytes();
        for r in &self.removals {
            for b in &mut text[r.range.clone()] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
            if r.statement {
                text[r.range.start] = b';';
            }
        }
        // Blanking bytes of a multi-byte character leaves spaces, never a
        // broken character: every byte of one is replaced.
        let mut text = String::from_utf8(text).unwrap_or_default();
        let mut ends = self.module_ends.clone();
        ends.sort_by_key(|e| std::cmp::Reverse(e.1));
        for (module, at) in ends {
            if let Some(extra) = insert(&module) {
                text.insert_str(at, &extra);
            }
        }
        text
    }
}

/// Why a file cannot be read: where (when known), and what.
///
/// ```
/// let err = mongen_sv::read_str("module m; assert property (a |-> ) ; endmodule", "m.sv",
///                               &mongen_sv::Options::new()).unwrap_err();
/// assert_eq!(err.location().unwrap().line, 1);
/// assert!(err.to_string().starts_with("m.sv:1:"));
/// ```
#[derive(Clone, Debug)]
pub struct ReadError {
    location: Option<Location>,
    message: String,
    source_line: Option<String>,
    /// The label of the assertion refused, as shown (escapes as `?`).
    label: Option<String>,
}

impl ReadError {
    /// Where the error is, when it is in a file.
    ///
    /// ```
    /// let err = mongen_sv::read_file("no/such/file.sv".as_ref(), &mongen_sv::Options::new()).unwrap_err();
    /// assert!(err.location().is_none());
    /// ```
    pub fn location(&self) -> Option<&Location> {
        self.location.as_ref()
    }

    /// What went wrong, without the location.
    ///
    /// ```
    /// let err = mongen_sv::read_file("no/such/file.sv".as_ref(), &mongen_sv::Options::new()).unwrap_err();
    /// assert!(err.message().contains("cannot read"));
    /// ```
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The label of the assertion that [`Design::refused`] holds this
    /// error for, when it has one (with the names of the generate blocks
    /// around it, and control characters shown as `?`).
    ///
    /// ```
    /// let design = mongen_sv::read_str(
    ///     "module m(input clk, a, b);\n\
    ///      ok_A: assert property (@(posedge clk) a |-> b);\n\
    ///      local_A: assert property (@(posedge clk) b |-> a.triggered);\n\
    ///      endmodule", "m.sv", &mongen_sv::Options::new())?;
    /// assert_eq!(design.refused[0].label(), Some("local_A"));
    /// # Ok::<(), mongen_sv::ReadError>(())
    /// ```
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    fn new(message: impl Into<String>) -> ReadError {
        ReadError {
            location: None,
            message: message.into(),
            source_line: None,
            label: None,
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.location {
            Some(at) => write!(f, "{at}: {}", self.message)?,
            None => write!(f, "{}", self.message)?,
        }
        if let (Some(at), Some(line)) = (&self.location, &self.source_line) {
            let shown = printable(line);
            let col = at.column.saturating_sub(1).min(shown.chars().count());
            write!(f, "\n  {shown}\n  {}^", " ".repeat(col))?;
        }
        Ok(())
    }
}

impl std::error::Error for ReadError {}

/// A line shown in an error: tabs as one space (so that the caret lines
/// up), other control characters (terminal escapes) as `?`.
fn printable(line: &str) -> String {
    line.chars()
        .map(|c| match c {
            '\t' => ' ',
            c if c.is_control() => '?',
            c => c,
        })
        .collect()
}

/// Reads the concurrent assertions of the SystemVerilog file `path`.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("mongen-sv-doc-{}", std::process::id()));
/// # std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("fifo.sv");
/// std::fs::write(&path, "module fifo(input clk, push, full);
///   `ifdef FORMAL
///   no_overflow: assert property (@(posedge clk) full |-> !push);
///   `endif
/// endmodule")?;
/// let formal = mongen_sv::read_file(&path, &mongen_sv::Options::new().define("FORMAL", None))?;
/// assert_eq!(formal.assertions.len(), 1);
/// assert_eq!(formal.assertions[0].location.line, 3);
/// let plain = mongen_sv::read_file(&path, &mongen_sv::Options::new())?;
/// assert!(plain.assertions.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read_file(path: &Path, options: &Options) -> Result<Design, ReadError> {
    if let Err(e) = std::fs::metadata(path) {
        return Err(ReadError::new(format!(
            "{}: cannot read it: {e}",
            path.display()
        )));
    }
    let defines = options.sv_defines();
    let (text, _) = preprocess(path, &defines, &options.include_dirs, false, false)
        .map_err(|e| preprocess_error(e, path))?;
    parse_with(text, Files::default(), path, options.parameters.clone())
}

/// Reads the concurrent assertions of `source`, the text of the file
/// `path` (named in errors; `` `include `` searches its directory).
///
/// ```
/// let design = mongen_sv::read_str(
///     "module m(input clk, a, b); assert property (@(posedge clk) a |=> b); endmodule",
///     "m.sv", &mongen_sv::Options::new())?;
/// assert_eq!(design.modules, ["m"]);
/// assert_eq!(design.assertions[0].directive.label, None);
/// # Ok::<(), mongen_sv::ReadError>(())
/// ```
pub fn read_str(
    source: &str,
    path: impl AsRef<Path>,
    options: &Options,
) -> Result<Design, ReadError> {
    let path = path.as_ref();
    let defines = options.sv_defines();
    let (text, _) = preprocess_str(
        source,
        path,
        &defines,
        &options.include_dirs,
        false,
        false,
        0,
        0,
    )
    .map_err(|e| preprocess_error(e, path))?;
    let mut files = Files::default();
    files
        .texts
        .insert(path.to_path_buf(), Some(source.to_string()));
    parse_with(text, files, path, options.parameters.clone())
}

/// Parses the preprocessed text of `path` (named in errors without a
/// position).
fn parse_with(
    text: PreprocessedText,
    files: Files,
    path: &Path,
    parameters: Vec<(String, String)>,
) -> Result<Design, ReadError> {
    let file = path.display().to_string();
    // The nesting is checked on the preprocessed text, before sv-parser
    // sees it (its recursion is what the limit protects).
    if let Some(at) = too_deep(text.text()) {
        let mut files = files;
        let location = text.origin(at).map(|(p, o)| files.location(p, o));
        return Err(ReadError {
            label: None,
            source_line: location.as_ref().and_then(|l| files.line(l)),
            location,
            message: format!(
                "nested more than {MAX_NESTING} levels deep (parentheses, brackets, braces or \
                 `begin` blocks): refused before parsing"
            ),
        });
    }
    let worker = std::thread::Builder::new()
        .name("mongen-sv parser".into())
        .stack_size(PARSER_STACK)
        .spawn(move || {
            let mut files = files;
            let preprocessed = text.text().to_string();
            match parse_sv_pp(text, HashMap::new(), false) {
                Ok((tree, _)) => {
                    let mut x = Extractor::new(&tree, &mut files, preprocessed);
                    x.overrides = parameters;
                    x.run()
                }
                Err(sv_parser::Error::Parse(Some((p, o)))) => {
                    let location = files.location(&p, o);
                    Err(ReadError {
                        label: None,
                        source_line: files.line(&location),
                        location: Some(location),
                        message: "syntax error: not SystemVerilog (IEEE 1800-2017) as \
                                  sv-parser reads it"
                            .into(),
                    })
                }
                // No position: the parser ran out of text.
                Err(sv_parser::Error::Parse(None)) => Err(ReadError::new(format!(
                    "{file}: syntax error at the end of the file (a module or block not \
                     closed?): not SystemVerilog (IEEE 1800-2017) as sv-parser reads it"
                ))),
                Err(e) => Err(ReadError::new(format!("{file}: cannot parse: {e}"))),
            }
        })
        .map_err(|e| ReadError::new(format!("cannot start the parser's thread: {e}")))?;
    worker.join().unwrap_or_else(|_| {
        Err(ReadError::new(
            "the SystemVerilog parser failed (a panic in sv-parser)",
        ))
    })
}

/// The first offset nested deeper than [`MAX_NESTING`], skipping comments
/// and strings.
fn too_deep(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'(' | b'[' | b'{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b'b' if word_at(b, i, b"begin") => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(i);
                }
            }
            b'e' if word_at(b, i, b"end") => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether the keyword `word` starts at `i` (not inside an identifier).
fn word_at(b: &[u8], i: usize, word: &[u8]) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    b[i..].starts_with(word)
        && (i == 0 || !ident(b[i - 1]))
        && b.get(i + word.len()).is_none_or(|&c| !ident(c))
}

fn preprocess_error(e: sv_parser::Error, path: &Path) -> ReadError {
    let mut files = Files::default();
    let located = |files: &mut Files, at: Option<(PathBuf, usize)>, message: String| {
        let location = at.map(|(p, o)| files.location(&p, o));
        ReadError {
            label: None,
            source_line: location.as_ref().and_then(|l| files.line(l)),
            location,
            message,
        }
    };
    match e {
        sv_parser::Error::Preprocess(at) => located(
            &mut files,
            at,
            "preprocessor error (a `` `define ``, `` `ifdef `` or `` `include `` directive)".into(),
        ),
        sv_parser::Error::File { source, path } => {
            ReadError::new(format!("{}: cannot read it: {source}", path.display()))
        }
        sv_parser::Error::Include { source } => match *source {
            sv_parser::Error::File {
                source,
                path: missing,
            } => ReadError::new(format!(
                "{}: cannot include {}: {source} (add its directory with -I DIR)",
                path.display(),
                missing.display()
            )),
            other => preprocess_error(other, path),
        },
        sv_parser::Error::ReadUtf8(p) => ReadError::new(format!("{}: not UTF-8 text", p.display())),
        sv_parser::Error::DefineNotFound(name) => ReadError::new(format!(
            "{}: the macro `{name}` is used but not defined (define it with -D {name}=VALUE)",
            path.display()
        )),
        other => ReadError::new(format!("{}: {other}", path.display())),
    }
}

/// The files errors point into, read when first needed.
#[derive(Default)]
struct Files {
    texts: HashMap<PathBuf, Option<String>>,
}

impl Files {
    fn text(&mut self, path: &Path) -> Option<&str> {
        self.texts
            .entry(path.to_path_buf())
            .or_insert_with(|| std::fs::read_to_string(path).ok())
            .as_deref()
    }

    /// The line and column of the byte `offset` of `path`.
    fn location(&mut self, path: &Path, offset: usize) -> Location {
        let (line, column) = match self.text(path) {
            Some(text) => {
                let mut at = offset.min(text.len());
                while !text.is_char_boundary(at) {
                    at -= 1;
                }
                let before = &text[..at];
                let start = before.rfind('\n').map_or(0, |i| i + 1);
                (
                    1 + before.matches('\n').count(),
                    1 + before[start..].chars().count(),
                )
            }
            None => (1, 1),
        };
        Location {
            file: path.to_path_buf(),
            line,
            column,
        }
    }

    fn line(&mut self, at: &Location) -> Option<String> {
        self.text(&at.file)?
            .lines()
            .nth(at.line - 1)
            .map(str::to_string)
    }
}

/// A piece of the text handed to the SVA front end, and where it came
/// from in the preprocessed text (`None`: written by this crate).
struct Piece {
    start: usize,
    origin: Option<usize>,
}

/// SVA text built from pieces of the file and pieces of our own, with the
/// map back to the file.
#[derive(Default)]
struct Text {
    text: String,
    pieces: Vec<Piece>,
}

impl Text {
    fn ours(&mut self, s: &str) {
        self.pieces.push(Piece {
            start: self.text.len(),
            origin: None,
        });
        self.text.push_str(s);
    }

    fn file(&mut self, s: &str, origin: usize) {
        self.pieces.push(Piece {
            start: self.text.len(),
            origin: Some(origin),
        });
        self.text.push_str(s);
    }

    /// The offset in the preprocessed text of the byte `at` of this text,
    /// or of the next piece taken from the file.
    fn origin(&self, at: usize) -> Option<usize> {
        let i = self.pieces.partition_point(|p| p.start <= at);
        let piece = &self.pieces[i.checked_sub(1)?];
        match piece.origin {
            Some(o) => Some(o + (at - piece.start)),
            None => self.pieces[i..].iter().find_map(|p| p.origin),
        }
    }
}

/// A declaration of a module that its assertions may use.
struct Declaration {
    text: String,
    origin: usize,
}

/// A concurrent assertion statement and its procedural context.
struct Found<'a> {
    module: usize,
    /// The label (`a1:` before the statement).
    label: Option<(&'a str, usize)>,
    statement: &'a ConcurrentAssertionStatement,
    /// The statement's start in the preprocessed text.
    origin: usize,
    /// The clock of the `always` procedure (`posedge clk`).
    clock: Option<String>,
    /// The enabling conditions of the enclosing `if`s, each with its
    /// polarity.
    conditions: Vec<(String, bool)>,
    /// The genvars of the enclosing generate loops and their values.
    genvars: Vec<(String, i64)>,
    /// The enclosing generate blocks' names (`g[2].`).
    scope: String,
}

struct Module {
    name: String,
    declarations: Vec<Declaration>,
    /// The widths of the module's signals (`None`: declared, but of a
    /// width mongen cannot compute).
    signals: HashMap<String, Option<Width>>,
    /// The packed types of the module (`typedef logic [W-1:0] t;`,
    /// `parameter type t = logic [W-1:0]`).
    typedefs: HashMap<String, Option<Width>>,
}

/// The width of a signal, as its module declares it.
///
/// ```
/// use mongen_sv::{read_str, Options, Width};
/// let design = read_str(
///     "module m #(parameter N = 4) (input clk, input logic [N-1:0] v);
///        logic signed [0:2] d;
///        a: assert property (@(posedge clk) $onehot0(v));
///      endmodule",
///     "m.sv", &Options::new())?;
/// let signals = design.signals("m");
/// assert!(signals.contains(&("clk".to_string(), Some(Width::Scalar))));
/// assert!(signals.contains(&("v".to_string(), Some(Width::Vector { msb: 3, lsb: 0, signed: false }))));
/// assert!(signals.contains(&("d".to_string(), Some(Width::Vector { msb: 0, lsb: 2, signed: true }))));
/// # Ok::<(), mongen_sv::ReadError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// One bit, no range.
    Scalar,
    /// A packed vector `[msb:lsb]`.
    Vector {
        /// The left index.
        msb: u32,
        /// The right index.
        lsb: u32,
        /// Whether it is declared `signed`.
        signed: bool,
    },
}

struct Extractor<'a, 'f> {
    tree: &'a SyntaxTree,
    files: &'f mut Files,
    modules: Vec<Module>,
    /// Declarations of packages and of the compilation unit: visible in
    /// every module.
    global: Vec<Declaration>,
    /// Named clocking blocks of each module (`clocking cb @(posedge clk);`).
    clockings: Vec<HashMap<String, String>>,
    found: Vec<Found<'a>>,
    removals: Vec<Removal>,
    module_ends: Vec<(String, usize)>,
    binds: Vec<Bind>,
    preprocessed: String,
    /// `-P NAME=VALUE`: parameters given values.
    overrides: Vec<(String, String)>,
    /// Each module's parameters, in order, with their values (or why
    /// they have none).
    parameters: Vec<Vec<(String, Result<i64, String>)>>,
    /// Generate blocks unrolled so far (see [`MAX_GENERATED`]).
    generated: usize,
    /// The type of the last ANSI port of the module, which a port
    /// declared without direction nor type inherits (§23.2.2.3).
    last_port: Option<Option<Width>>,
}

impl<'a, 'f> Extractor<'a, 'f> {
    fn new(tree: &'a SyntaxTree, files: &'f mut Files, preprocessed: String) -> Self {
        Extractor {
            preprocessed,
            tree,
            files,
            modules: Vec::new(),
            global: Vec::new(),
            clockings: Vec::new(),
            found: Vec::new(),
            removals: Vec::new(),
            module_ends: Vec::new(),
            binds: Vec::new(),
            overrides: Vec::new(),
            parameters: Vec::new(),
            generated: 0,
            last_port: None,
        }
    }

    /// The bytes of `node` in the preprocessed text, from its first token
    /// to the end of its last.
    fn range(&self, node: RefNode<'a>) -> std::ops::Range<usize> {
        let mut start = None;
        let mut end = 0;
        let mut blank = 0usize;
        for event in node.into_iter().event() {
            match event {
                NodeEvent::Enter(RefNode::WhiteSpace(_)) => blank += 1,
                NodeEvent::Leave(RefNode::WhiteSpace(_)) => blank -= 1,
                NodeEvent::Enter(RefNode::Locate(l)) if blank == 0 => {
                    start.get_or_insert(l.offset);
                    end = l.offset + l.len;
                }
                _ => {}
            }
        }
        start.unwrap_or(end)..end
    }

    /// Replaces the action block of an immediate assertion by `;`, unless
    /// it is already removed (inside a concurrent assertion's).
    fn remove_action_block(&mut self, block: RefNode<'a>) {
        let range = self.range(block);
        let inside = self
            .removals
            .iter()
            .any(|r| r.range.start <= range.start && range.end <= r.range.end);
        if !inside && !range.is_empty() {
            self.removals.push(Removal {
                range,
                statement: true,
            });
        }
    }

    fn remove(&mut self, node: RefNode<'a>, statement: bool) {
        let range = self.range(node);
        self.removals.push(Removal { range, statement });
    }

    fn str(&self, node: impl Into<sv_parser::RefNodes<'a>>) -> &'a str {
        self.tree.get_str_trim(node).unwrap_or("")
    }

    /// The text of `node`, without the white space after it.
    fn text_of(&self, node: RefNode<'a>) -> &'a str {
        self.tree
            .get_str_trim(sv_parser::RefNodes(vec![node]))
            .unwrap_or("")
    }

    /// The offset in the preprocessed text where `node` starts.
    fn start(&self, node: RefNode<'a>) -> usize {
        unwrap_locate!(node.clone()).map_or(0, |l: &Locate| l.offset)
    }

    fn location(&mut self, origin: usize) -> Option<Location> {
        let probe = Locate {
            offset: origin,
            line: 0,
            len: 1,
        };
        let (path, offset) = self.tree.get_origin(&probe)?;
        let path = path.clone();
        Some(self.files.location(&path, offset))
    }

    fn error_at(&mut self, origin: usize, message: impl Into<String>) -> ReadError {
        let location = self.location(origin);
        ReadError {
            label: None,
            source_line: location.as_ref().and_then(|l| self.files.line(l)),
            location,
            message: message.into(),
        }
    }

    fn run(mut self) -> Result<Design, ReadError> {
        // Modules (and interfaces, programs, packages, checkers) do not
        // nest in practice; a stack keeps the innermost.
        let mut scopes: Vec<Scope> = Vec::new();
        // Nodes inside an `always` procedure are found by its walk.
        let mut in_always = 0usize;
        // Generate constructs: their assertions are found by unrolling the
        // outermost; the walk removes them from the design.
        let mut in_generate = 0usize;
        let mut module_generates = 0usize;
        let mut in_localparam = 0usize;
        // Declarations in procedures, functions and tasks are local.
        let mut in_procedure = 0usize;
        for event in self.tree.into_iter().event() {
            match event {
                NodeEvent::Enter(node) => {
                    if let Some(kind) = Scope::of(&node) {
                        let scope = match kind {
                            ScopeKind::Module => {
                                let name = unwrap_node!(node.clone(), ModuleIdentifier)
                                    .map_or("", |id| self.text_of(id))
                                    .to_string();
                                let end = match &node {
                                    RefNode::ModuleDeclarationAnsi(x) => Some(&x.nodes.3),
                                    RefNode::ModuleDeclarationNonansi(x) => Some(&x.nodes.3),
                                    _ => None,
                                };
                                if let Some(end) = end {
                                    let at = self.start(end.into());
                                    self.module_ends.push((name.clone(), at));
                                }
                                self.modules.push(Module {
                                    name,
                                    declarations: Vec::new(),
                                    signals: HashMap::new(),
                                    typedefs: HashMap::new(),
                                });
                                self.last_port = None;
                                self.clockings.push(HashMap::new());
                                self.parameters.push(Vec::new());
                                module_generates = 0;
                                Scope {
                                    kind,
                                    module: Some(self.modules.len() - 1),
                                }
                            }
                            _ => Scope { kind, module: None },
                        };
                        scopes.push(scope);
                        continue;
                    }
                    let scope = scopes.last().map(|s| (s.kind, s.module));
                    if in_generate > 0 {
                        let inner = match &node {
                            RefNode::AlwaysConstruct(_) => {
                                unwrap_node!(node.clone(), ConcurrentAssertionStatement)
                            }
                            RefNode::PropertyDeclaration(_)
                            | RefNode::SequenceDeclaration(_)
                            | RefNode::ClockingDeclarationLocal(_)
                            | RefNode::ModuleOrGenerateItemDeclarationClocking(_)
                            | RefNode::ModuleOrGenerateItemDeclarationDisable(_) => {
                                Some(node.clone())
                            }
                            _ => None,
                        };
                        if let Some(inner) = inner {
                            let origin = self.start(inner);
                            return Err(self.error_at(
                                origin,
                                "in a generate block, only concurrent assertions that are items \
                                 (not statements of `always` procedures), and no `property`, \
                                 `sequence`, `clocking` or `default disable iff` declaration, are \
                                 read: declare them in the module",
                            ));
                        }
                    }
                    if let Some((ScopeKind::Module, Some(m))) = scope {
                        if in_generate == 0 && in_procedure == 0 {
                            self.signal_declaration(m, node.clone());
                        }
                    }
                    if is_procedure(&node) {
                        in_procedure += 1;
                    }
                    match node {
                        RefNode::LocalParameterDeclaration(_) => in_localparam += 1,
                        RefNode::ParamAssignment(x) if in_generate == 0 => {
                            if let Some((_, Some(m))) = scope {
                                self.parameter(m, x, in_localparam > 0);
                            }
                        }
                        RefNode::ConcurrentAssertionItemStatement(_) if in_generate > 0 => {
                            self.remove(node.clone(), false);
                        }
                        RefNode::AlwaysConstruct(x) => {
                            in_always += 1;
                            if let Some((_, Some(m))) = scope {
                                self.always(m, x)?;
                            }
                        }
                        RefNode::PropertyDeclaration(_) | RefNode::SequenceDeclaration(_)
                            if in_always == 0 =>
                        {
                            self.remove(node.clone(), false);
                            self.declaration(scope, node);
                        }
                        // A `let` may serve the design too: it stays.
                        RefNode::LetDeclaration(_) if in_always == 0 => {
                            self.declaration(scope, node);
                        }
                        RefNode::ClockingDeclarationLocal(x) => {
                            self.remove(node.clone(), false);
                            let (default, _, id, event, ..) = &x.nodes;
                            let event_text = self.str(event);
                            if let Some((_, Some(m))) = scope {
                                if let Some(id) = id {
                                    let id = self.str(id).to_string();
                                    self.clockings[m].insert(id, event_text.to_string());
                                }
                                if default.is_some() {
                                    let origin = self.start(node.clone());
                                    self.modules[m].declarations.push(Declaration {
                                        text: format!(
                                            "default clocking {event_text}; endclocking\n"
                                        ),
                                        origin,
                                    });
                                }
                            }
                        }
                        RefNode::ModuleOrGenerateItemDeclarationClocking(x) => {
                            self.remove(node.clone(), false);
                            // `default clocking cb;`: the event of the block
                            // named.
                            if let Some((_, Some(m))) = scope {
                                let name = self.str(&x.nodes.2).to_string();
                                let origin = self.start(node.clone());
                                let Some(event) = self.clockings[m].get(&name).cloned() else {
                                    return Err(self.error_at(
                                        origin,
                                        format!(
                                            "`default clocking {name};` names a clocking block \
                                             that is not declared before it in this module"
                                        ),
                                    ));
                                };
                                self.modules[m].declarations.push(Declaration {
                                    text: format!("default clocking {event}; endclocking\n"),
                                    origin,
                                });
                            }
                        }
                        RefNode::ModuleOrGenerateItemDeclarationDisable(x) => {
                            self.remove(node.clone(), false);
                            self.exact_disable((&x.nodes.3).into())?;
                            if let Some((_, Some(m))) = scope {
                                let origin = self.start(node.clone());
                                let text = format!("{}\n", self.text_of(node.clone()));
                                self.modules[m]
                                    .declarations
                                    .push(Declaration { text, origin });
                            }
                        }
                        RefNode::ConcurrentAssertionItemStatement(x) => {
                            let origin = self.start(node.clone());
                            let m = match scope {
                                Some((_, Some(m))) => m,
                                Some((kind, None)) => {
                                    return Err(self.error_at(
                                        origin,
                                        format!(
                                            "a concurrent assertion in {}: only the assertions of \
                                             modules are read",
                                            kind.name()
                                        ),
                                    ))
                                }
                                None => continue,
                            };
                            self.remove(node.clone(), false);
                            let (label, statement) = &x.nodes;
                            let label = label
                                .as_ref()
                                .map(|(id, _)| (self.str(id), self.start(id.into())));
                            self.found.push(Found {
                                module: m,
                                label,
                                statement,
                                origin,
                                clock: None,
                                conditions: Vec::new(),
                                genvars: Vec::new(),
                                scope: String::new(),
                            });
                        }
                        RefNode::ProceduralAssertionStatement(
                            ProceduralAssertionStatement::Concurrent(_),
                        ) if in_always == 0 => {
                            let origin = self.start(node.clone());
                            return Err(self.error_at(
                                origin,
                                "a concurrent assertion in an `initial` or `final` procedure, a \
                                 task or a function: only those of modules and of `always` \
                                 procedures are read (IEEE 1800-2017 §16.14.6)",
                            ));
                        }
                        RefNode::BindDirective(x) => {
                            self.remove(node.clone(), false);
                            // `bind NAME ...` parses either way: a plain
                            // name is a module's (or an instance's of the
                            // same name, which the flow does not tell).
                            let bound = match x {
                                BindDirective::Scope(b) if b.nodes.2.is_none() => Some((
                                    unwrap_node!(&b.nodes.1, ModuleIdentifier)
                                        .map_or("", |id| self.text_of(id)),
                                    &b.nodes.3,
                                )),
                                BindDirective::Instance(b) => {
                                    Some((self.str(&b.nodes.1), &b.nodes.2))
                                }
                                BindDirective::Scope(_) => None,
                            };
                            let plain = |t: &str| {
                                !t.is_empty()
                                    && t.chars()
                                        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                            };
                            // sv-parser reads `p #(...) i (.*)` as a
                            // program's instantiation as soon as a module's:
                            // the three have the same shape.
                            let instantiated = |i: &'a BindInstantiation| match i {
                                BindInstantiation::ModuleInstantiation(_)
                                | BindInstantiation::ProgramInstantiation(_)
                                | BindInstantiation::InterfaceInstantiation(_) => {
                                    let name = unwrap_node!(
                                        i,
                                        ModuleIdentifier,
                                        ProgramIdentifier,
                                        InterfaceIdentifier
                                    )?;
                                    let instance = unwrap_node!(i, HierarchicalInstance)?;
                                    let parameters = unwrap_node!(i, ParameterValueAssignment);
                                    Some((name, instance, parameters))
                                }
                                BindInstantiation::CheckerInstantiation(_) => None,
                            };
                            if let Some((target, (name, instance, parameters))) = bound
                                .filter(|(t, _)| plain(t))
                                .and_then(|(t, i)| Some((t, instantiated(i)?)))
                            {
                                let RefNode::HierarchicalInstance(h) = instance else {
                                    unreachable!("unwrap_node! gives the node asked for")
                                };
                                let (instance, ports) = &h.nodes;
                                let ports = self.str(&ports.nodes.1);
                                self.binds.push(Bind {
                                    target: target.to_string(),
                                    module: self.text_of(name).to_string(),
                                    instance: self.str(instance).to_string(),
                                    by_name: ports.split_whitespace().collect::<String>() == ".*",
                                    parameters: parameters.map(|p| self.text_of(p).to_string()),
                                });
                            }
                        }
                        // Macros are expanded in the design's copy: their
                        // definitions go (Yosys's preprocessor ends a
                        // definition at a `//` comment before its `\`, so
                        // lowRISC's would leave their bodies as code).
                        RefNode::TextMacroDefinition(_) | RefNode::UndefineCompilerDirective(_) => {
                            self.remove(node.clone(), false);
                        }
                        // An immediate assertion stays in the design, but its
                        // action block (`else $error(...)`) becomes the null
                        // statement: Yosys does not read action blocks.
                        RefNode::SimpleImmediateAssertStatement(x) => {
                            self.remove_action_block((&x.nodes.2).into());
                        }
                        RefNode::SimpleImmediateAssumeStatement(x) => {
                            self.remove_action_block((&x.nodes.2).into());
                        }
                        RefNode::DeferredImmediateAssertStatement(x) => {
                            self.remove_action_block((&x.nodes.3).into());
                        }
                        RefNode::DeferredImmediateAssumeStatement(x) => {
                            self.remove_action_block((&x.nodes.3).into());
                        }
                        RefNode::LoopGenerateConstruct(_)
                        | RefNode::ConditionalGenerateConstruct(_) => {
                            if in_generate == 0 {
                                module_generates += 1;
                                if let Some((_, Some(m))) = scope {
                                    if unwrap_node!(node.clone(), ConcurrentAssertionStatement)
                                        .is_some()
                                    {
                                        self.unroll(m, node.clone(), &[], "", module_generates)?;
                                    }
                                }
                            }
                            in_generate += 1;
                        }
                        _ => {}
                    }
                }
                NodeEvent::Leave(node) => {
                    if Scope::of(&node).is_some() {
                        scopes.pop();
                    } else {
                        if is_procedure(&node) {
                            in_procedure -= 1;
                        }
                        match node {
                            RefNode::AlwaysConstruct(_) => in_always -= 1,
                            RefNode::LoopGenerateConstruct(_)
                            | RefNode::ConditionalGenerateConstruct(_) => in_generate -= 1,
                            RefNode::LocalParameterDeclaration(_) => in_localparam -= 1,
                            _ => {}
                        }
                    }
                }
            }
        }
        let found = std::mem::take(&mut self.found);
        let mut assertions = Vec::with_capacity(found.len());
        let mut refused = Vec::new();
        for f in found {
            // A label names the assertion in its error (whose position
            // may be in a macro's definition, lowRISC's `ASSERT).
            let label = f.label.map(|(l, _)| format!("{}{l}", f.scope));
            match self.assertion(f) {
                Ok(a) => assertions.push(a),
                Err(mut e) => {
                    // (A label may be an escaped identifier: any bytes.)
                    if let Some(l) = label {
                        let shown = printable(&l);
                        e.message = format!("`{shown}`: {}", e.message);
                        e.label = Some(shown);
                    }
                    refused.push(e);
                }
            }
        }
        Ok(Design {
            assertions,
            refused,
            modules: self.modules.iter().map(|m| m.name.clone()).collect(),
            preprocessed: std::mem::take(&mut self.preprocessed),
            removals: self.removals,
            module_ends: self.module_ends,
            binds: self.binds,
            signals: self
                .modules
                .iter()
                .map(|m| {
                    let mut s: Vec<_> = m.signals.iter().map(|(n, w)| (n.clone(), *w)).collect();
                    s.sort_by(|a, b| a.0.cmp(&b.0));
                    (m.name.clone(), s)
                })
                .collect(),
        })
    }

    /// Records the signals or the type that `node` declares in module `m`,
    /// if it is a declaration of ports, variables, nets or packed types.
    fn signal_declaration(&mut self, m: usize, node: RefNode<'a>) {
        let mut names: Vec<(&'a str, bool)> = Vec::new();
        let width = match node {
            RefNode::AnsiPortDeclarationNet(x) => {
                names.push((self.str(&x.nodes.1), x.nodes.2.is_empty()));
                let width = match &x.nodes.0 {
                    Some(header) => self.width(m, header.into()),
                    None => self.last_port.unwrap_or(None),
                };
                self.last_port = Some(width);
                width
            }
            RefNode::AnsiPortDeclarationVariable(x) => {
                names.push((self.str(&x.nodes.1), x.nodes.2.is_empty()));
                let width = match &x.nodes.0 {
                    Some(header) => self.width(m, header.into()),
                    None => self.last_port.unwrap_or(None),
                };
                self.last_port = Some(width);
                width
            }
            RefNode::AnsiPortDeclarationParen(x) => {
                // `.name(expression)`: no width of its own.
                names.push((self.str(&x.nodes.2), false));
                self.last_port = Some(None);
                None
            }
            RefNode::InputDeclarationNet(x) => {
                for (id, unpacked) in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(id), unpacked.is_empty()));
                }
                self.width(m, (&x.nodes.1).into())
            }
            RefNode::OutputDeclarationNet(x) => {
                for (id, unpacked) in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(id), unpacked.is_empty()));
                }
                self.width(m, (&x.nodes.1).into())
            }
            RefNode::InoutDeclaration(x) => {
                for (id, unpacked) in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(id), unpacked.is_empty()));
                }
                self.width(m, (&x.nodes.1).into())
            }
            RefNode::InputDeclarationVariable(x) => {
                for (id, unpacked) in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(id), unpacked.is_empty()));
                }
                self.width(m, (&x.nodes.1).into())
            }
            RefNode::OutputDeclarationVariable(x) => {
                for (id, unpacked, _) in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(id), unpacked.is_empty()));
                }
                self.width(m, (&x.nodes.1).into())
            }
            RefNode::DataDeclarationVariable(x) => {
                for a in x.nodes.4.nodes.0.contents() {
                    match a {
                        sv_parser::VariableDeclAssignment::Variable(v) => {
                            names.push((self.str(&v.nodes.0), v.nodes.1.is_empty()));
                        }
                        sv_parser::VariableDeclAssignment::DynamicArray(v) => {
                            names.push((self.str(&v.nodes.0), false));
                        }
                        sv_parser::VariableDeclAssignment::Class(v) => {
                            names.push((self.str(&v.nodes.0), false));
                        }
                    }
                }
                self.width(m, (&x.nodes.3).into())
            }
            RefNode::NetDeclarationNetType(x) => {
                for a in x.nodes.5.nodes.0.contents() {
                    names.push((self.str(&a.nodes.0), a.nodes.1.is_empty()));
                }
                self.width(m, (&x.nodes.3).into())
            }
            RefNode::NetDeclarationNetTypeIdentifier(x) => {
                // sv-parser reads `idx_t v;` so when it does not know that
                // `idx_t` is a type: a type of the module is one.
                let ty = self.str(&x.nodes.0);
                let width = self.modules[m].typedefs.get(ty).copied().flatten();
                let width = width.filter(|_| x.nodes.1.is_none());
                for a in x.nodes.2.nodes.0.contents() {
                    names.push((self.str(&a.nodes.0), a.nodes.1.is_empty()));
                }
                width
            }
            RefNode::NetDeclarationInterconnect(x) => {
                names.push((self.str(&x.nodes.3), false));
                None
            }
            RefNode::TypeDeclarationDataType(x) => {
                let name = self.str(&x.nodes.2).to_string();
                let width = if x.nodes.3.is_empty() {
                    self.width(m, (&x.nodes.1).into())
                } else {
                    None
                };
                self.modules[m].typedefs.insert(name, width);
                return;
            }
            RefNode::TypeAssignment(x) => {
                let name = self.str(&x.nodes.0).to_string();
                // A type given with -P is not read.
                let overridden = self.overrides.iter().any(|(n, _)| *n == name);
                let width = match &x.nodes.1 {
                    Some((_, t)) if !overridden => self.width(m, t.into()),
                    _ => None,
                };
                self.modules[m].typedefs.insert(name, width);
                return;
            }
            _ => return,
        };
        for (name, whole) in names {
            let width = width.filter(|_| whole);
            let signals = &mut self.modules[m].signals;
            // Declared twice (a non-ANSI port and its net): the widths
            // must agree, else mongen does not guess.
            match signals.get(name) {
                Some(w) if *w != width => {
                    signals.insert(name.to_string(), None);
                }
                _ => {
                    signals.insert(name.to_string(), width);
                }
            }
        }
    }

    /// The width of the data type (or port header) `ty` in module `m`:
    /// a scalar, a vector with one packed dimension, an integer type
    /// (`int`, `byte`, ...), or a type of the module declared so; `None`
    /// for anything else (a struct, an enum, several packed dimensions,
    /// an interface, ...) or a range that is not a constant integer.
    fn width(&self, m: usize, ty: RefNode<'a>) -> Option<Width> {
        let mut ranges: Vec<&'a sv_parser::ConstantRange> = Vec::new();
        let mut signed = None;
        let mut atom: Option<(u32, bool)> = None;
        let mut named: Option<&'a str> = None;
        let mut in_dimension = 0usize;
        for event in ty.into_iter().event() {
            match event {
                NodeEvent::Enter(RefNode::PackedDimension(d)) => {
                    if in_dimension == 0 {
                        match d {
                            sv_parser::PackedDimension::Range(r) => ranges.push(&r.nodes.0.nodes.1),
                            sv_parser::PackedDimension::UnsizedDimension(_) => return None,
                        }
                    }
                    in_dimension += 1;
                }
                NodeEvent::Leave(RefNode::PackedDimension(_)) => in_dimension -= 1,
                NodeEvent::Enter(_) if in_dimension > 0 => {}
                NodeEvent::Enter(RefNode::Signing(s)) => signed = Some(self.str(s) == "signed"),
                NodeEvent::Enter(RefNode::IntegerAtomType(t)) => {
                    atom = Some(match self.str(t) {
                        "byte" => (8, true),
                        "shortint" => (16, true),
                        "int" | "integer" => (32, true),
                        "longint" => (64, true),
                        "time" => (64, false),
                        _ => return None,
                    });
                }
                NodeEvent::Enter(RefNode::TypeIdentifier(t)) => named = Some(self.str(t)),
                // sv-parser reads a type name it does not know as a class.
                NodeEvent::Enter(RefNode::ClassType(c))
                    if c.nodes.1.is_none() && c.nodes.2.is_empty() =>
                {
                    named = Some(self.str(&c.nodes.0));
                }
                NodeEvent::Enter(
                    RefNode::DataTypeStructUnion(_)
                    | RefNode::DataTypeEnum(_)
                    | RefNode::NonIntegerType(_)
                    | RefNode::DataTypeVirtual(_)
                    | RefNode::DataTypeType(_)
                    | RefNode::ClassType(_)
                    | RefNode::InterfacePortHeader(_)
                    | RefNode::TypeReference(_)
                    | RefNode::PackageScope(_)
                    | RefNode::ClassScope(_)
                    | RefNode::NetTypeIdentifier(_),
                ) => return None,
                NodeEvent::Enter(RefNode::Keyword(k))
                    if matches!(self.str(k), "string" | "chandle" | "event" | "interconnect") =>
                {
                    return None
                }
                _ => {}
            }
        }
        if let Some(name) = named {
            if atom.is_some() || !ranges.is_empty() || signed.is_some() {
                return None;
            }
            return self.modules[m].typedefs.get(name).copied().flatten();
        }
        if let Some((bits, default_signed)) = atom {
            if !ranges.is_empty() {
                return None;
            }
            return Some(Width::Vector {
                msb: bits - 1,
                lsb: 0,
                signed: signed.unwrap_or(default_signed),
            });
        }
        match ranges[..] {
            [] => Some(Width::Scalar),
            [range] => {
                let bound = |e: &'a sv_parser::ConstantExpression| {
                    let text = self.str(e);
                    consteval::eval(text, &|n| self.param_value(m, &[], n))
                        .ok()
                        .and_then(|v| u32::try_from(v).ok())
                };
                Some(Width::Vector {
                    msb: bound(&range.nodes.0)?,
                    lsb: bound(&range.nodes.2)?,
                    signed: signed.unwrap_or(false),
                })
            }
            _ => None,
        }
    }

    /// A parameter of module `m` (a `localparam` when `local`): its
    /// value, `-P`'s or its default's, when it is a constant integer.
    fn parameter(&mut self, m: usize, x: &'a sv_parser::ParamAssignment, local: bool) {
        let name = self.str(&x.nodes.0).to_string();
        let given = self
            .overrides
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .filter(|_| !local)
            .map(|(_, v)| v.clone());
        let value = match (&given, &x.nodes.2) {
            (Some(v), _) => consteval::eval(v, &|n| self.param_value(m, &[], n))
                .map_err(|e| format!("-P {name}={v}: {e}")),
            (None, Some((_, default))) => {
                let text = self.str(default);
                consteval::eval(text, &|n| self.param_value(m, &[], n))
                    .map_err(|e| format!("its value `{text}`: {e}"))
            }
            (None, None) => Err("no default value (give one with -P NAME=VALUE)".into()),
        };
        self.parameters[m].push((name, value));
    }

    /// The value of the name `n` in module `m`, within the genvars
    /// `genvars` (innermost last).
    fn param_value(&self, m: usize, genvars: &[(String, i64)], n: &str) -> Result<i64, String> {
        if let Some((_, v)) = genvars.iter().rev().find(|(g, _)| g == n) {
            return Ok(*v);
        }
        match self.parameters[m].iter().rev().find(|(p, _)| p == n) {
            Some((_, Ok(v))) => Ok(*v),
            Some((_, Err(e))) => Err(format!("the parameter `{n}`: {e}")),
            None => Err(format!(
                "`{n}` is not a parameter of the module declared before, nor a genvar"
            )),
        }
    }

    /// The value of the constant expression `node`.
    fn constant(
        &mut self,
        m: usize,
        genvars: &[(String, i64)],
        node: RefNode<'a>,
    ) -> Result<i64, ReadError> {
        let text = self.text_of(node.clone());
        match consteval::eval(text, &|n| self.param_value(m, genvars, n)) {
            Ok(v) => Ok(v),
            Err(e) => {
                let origin = self.start(node);
                Err(self.error_at(
                    origin,
                    format!(
                        "`{text}` is not a constant integer mongen can compute ({e}): generate \
                         constructs around assertions are unrolled with the module's parameters \
                         (their defaults, or -P NAME=VALUE)"
                    ),
                ))
            }
        }
    }

    /// Counts a generate block against [`MAX_GENERATED`].
    fn count_generated(&mut self, node: RefNode<'a>) -> Result<(), ReadError> {
        self.generated += 1;
        if self.generated > MAX_GENERATED {
            let origin = self.start(node);
            return Err(self.error_at(
                origin,
                format!(
                    "more than {MAX_GENERATED} generate blocks around assertions: refused (a \
                     loop that does not end, or parameters too large?)"
                ),
            ));
        }
        Ok(())
    }

    /// Finds the assertions of the generate construct `node` (a loop, or
    /// an `if` or `case`) of module `m`, the `ordinal`-th construct of its
    /// scope `scope` (which names its unnamed blocks `genblk<ordinal>`,
    /// §27.6), inside the genvars `genvars`.
    fn unroll(
        &mut self,
        m: usize,
        node: RefNode<'a>,
        genvars: &[(String, i64)],
        scope: &str,
        ordinal: usize,
    ) -> Result<(), ReadError> {
        match node {
            RefNode::ConditionalGenerateConstruct(x) => match x {
                sv_parser::ConditionalGenerateConstruct::If(i) => {
                    self.unroll(m, (&**i).into(), genvars, scope, ordinal)
                }
                sv_parser::ConditionalGenerateConstruct::Case(c) => {
                    self.unroll(m, (&**c).into(), genvars, scope, ordinal)
                }
            },
            RefNode::IfGenerateConstruct(x) => {
                let (_, condition, then, otherwise) = &x.nodes;
                let chosen = if self.constant(m, genvars, (&condition.nodes.1).into())? != 0 {
                    Some(then)
                } else {
                    otherwise.as_ref().map(|(_, b)| b)
                };
                match chosen {
                    Some(b) => self.branch(m, b, genvars, scope, ordinal),
                    None => Ok(()),
                }
            }
            RefNode::CaseGenerateConstruct(x) => {
                let (_, selector, items, _) = &x.nodes;
                let value = self.constant(m, genvars, (&selector.nodes.1).into())?;
                let mut default = None;
                for item in items {
                    match item {
                        CaseGenerateItem::Nondefault(n) => {
                            let (values, _, block) = &n.nodes;
                            for v in values.contents() {
                                if self.constant(m, genvars, v.into())? == value {
                                    return self.branch(m, block, genvars, scope, ordinal);
                                }
                            }
                        }
                        CaseGenerateItem::Default(d) => default = Some(&d.nodes.2),
                    }
                }
                match default {
                    Some(b) => self.branch(m, b, genvars, scope, ordinal),
                    None => Ok(()),
                }
            }
            RefNode::LoopGenerateConstruct(x) => {
                let (_, header, block) = &x.nodes;
                let (init, _, condition, _, iteration) = &header.nodes.1;
                let var = self.str(&init.nodes.1).to_string();
                let Some(name) = block_name(block).map(|n| self.str(n).to_string()) else {
                    let origin = self.start(node.clone());
                    return Err(self.error_at(
                        origin,
                        "a generate loop around an assertion whose block has no name: name it \
                         (`begin : g`), as its assertions are named after it (`g[0].label`)",
                    ));
                };
                let mut value = self.constant(m, genvars, (&init.nodes.3).into())?;
                let mut seen = std::collections::HashSet::new();
                loop {
                    let mut inner = genvars.to_vec();
                    inner.push((var.clone(), value));
                    if self.constant(m, &inner, condition.into())? == 0 {
                        return Ok(());
                    }
                    if !seen.insert(value) {
                        let origin = self.start(node.clone());
                        return Err(self.error_at(
                            origin,
                            format!(
                                "the generate loop gives `{var}` the value {value} twice: it \
                                 does not end (IEEE 1800-2017 §27.4)"
                            ),
                        ));
                    }
                    self.count_generated(node.clone())?;
                    let here = format!("{scope}{name}[{value}].");
                    self.items(m, block, &inner, &here)?;
                    value = match iteration {
                        GenvarIteration::Assignment(a) => {
                            let (_, op, e) = &a.nodes;
                            let step = self.constant(m, &inner, e.into())?;
                            let op = self.str(op).to_string();
                            let sum = |r: Option<i64>| r.unwrap_or(i64::MAX);
                            match op.as_str() {
                                "=" => step,
                                "+=" => sum(value.checked_add(step)),
                                "-=" => sum(value.checked_sub(step)),
                                "*=" => sum(value.checked_mul(step)),
                                "<<=" if (0..63).contains(&step) => {
                                    sum(value.checked_mul(1 << step))
                                }
                                ">>=" if (0..63).contains(&step) => value >> step,
                                _ => {
                                    let origin = self.start(a.as_ref().into());
                                    return Err(self.error_at(
                                        origin,
                                        format!("the genvar step `{op}`: not read"),
                                    ));
                                }
                            }
                        }
                        GenvarIteration::Prefix(p) => step_of(self.str(&p.nodes.0), value),
                        GenvarIteration::Suffix(p) => step_of(self.str(&p.nodes.1), value),
                    };
                }
            }
            _ => Ok(()),
        }
    }

    /// The chosen block of a generate `if` or `case`: an `else if` is the
    /// same construct (§27.5); another block is a scope of its own, named
    /// or `genblk<ordinal>`.
    fn branch(
        &mut self,
        m: usize,
        block: &'a GenerateBlock,
        genvars: &[(String, i64)],
        scope: &str,
        ordinal: usize,
    ) -> Result<(), ReadError> {
        self.count_generated(block.into())?;
        if let GenerateBlock::GenerateItem(item) = block {
            if let Some(chained) = unwrap_node!(&**item, ConditionalGenerateConstruct) {
                if self.start(chained.clone()) == self.start((&**item).into()) {
                    return self.unroll(m, chained, genvars, scope, ordinal);
                }
            }
        }
        let name = match block_name(block) {
            Some(n) => self.str(n).to_string(),
            None => format!("genblk{ordinal}"),
        };
        self.items(m, block, genvars, &format!("{scope}{name}."))
    }

    /// The assertions of a generate block's items, in the scope `scope`.
    fn items(
        &mut self,
        m: usize,
        block: &'a GenerateBlock,
        genvars: &[(String, i64)],
        scope: &str,
    ) -> Result<(), ReadError> {
        let items: Vec<RefNode<'a>> = match block {
            GenerateBlock::GenerateItem(i) => vec![(&**i).into()],
            GenerateBlock::Multiple(b) => b.nodes.3.iter().map(Into::into).collect(),
        };
        let mut ordinal = 0;
        for item in items {
            let mut depth = 0usize;
            let mut skip: Option<usize> = None;
            for event in item.into_iter().event() {
                match event {
                    NodeEvent::Enter(node) => {
                        depth += 1;
                        if skip.is_some() {
                            continue;
                        }
                        match node {
                            RefNode::LoopGenerateConstruct(_)
                            | RefNode::ConditionalGenerateConstruct(_) => {
                                ordinal += 1;
                                skip = Some(depth);
                                if unwrap_node!(node.clone(), ConcurrentAssertionStatement)
                                    .is_some()
                                {
                                    self.unroll(m, node, genvars, scope, ordinal)?;
                                }
                            }
                            RefNode::ConcurrentAssertionItemStatement(x) => {
                                skip = Some(depth);
                                let origin = self.start(node.clone());
                                let (label, statement) = &x.nodes;
                                let label = label
                                    .as_ref()
                                    .map(|(id, _)| (self.str(id), self.start(id.into())));
                                self.found.push(Found {
                                    module: m,
                                    label,
                                    statement,
                                    origin,
                                    clock: None,
                                    conditions: Vec::new(),
                                    genvars: genvars.to_vec(),
                                    scope: scope.to_string(),
                                });
                            }
                            _ => {}
                        }
                    }
                    NodeEvent::Leave(_) => {
                        if skip == Some(depth) {
                            skip = None;
                        }
                        depth -= 1;
                    }
                }
            }
        }
        Ok(())
    }

    fn declaration(&mut self, scope: Option<(ScopeKind, Option<usize>)>, node: RefNode<'a>) {
        let origin = self.start(node.clone());
        let text = format!("{}\n", self.text_of(node));
        let d = Declaration { text, origin };
        match scope {
            Some((_, Some(m))) => self.modules[m].declarations.push(d),
            // A package's (or the compilation unit's) declarations are
            // visible where they are imported: they are given to every
            // module (before its own).
            Some((ScopeKind::Package, None)) | None => self.global.push(d),
            // Interfaces, programs and checkers: their declarations are
            // their own.
            Some(_) => {}
        }
    }

    /// The concurrent assertions of an `always` procedure, with its clock
    /// and their enabling conditions (§16.14.6).
    fn always(&mut self, module: usize, x: &'a AlwaysConstruct) -> Result<(), ReadError> {
        let (_, body) = &x.nodes;
        if unwrap_node!(body, ConcurrentAssertionStatement).is_none() {
            return Ok(());
        }
        let mut clock = None;
        let mut conditions = Vec::new();
        self.statement(module, body, body, &mut clock, &mut conditions)
    }

    fn statement(
        &mut self,
        module: usize,
        procedure: &'a Statement,
        s: &'a Statement,
        clock: &mut Option<String>,
        conditions: &mut Vec<(String, bool)>,
    ) -> Result<(), ReadError> {
        let (label, _, item) = &s.nodes;
        match item {
            StatementItem::ProceduralTimingControlStatement(t) => {
                let (control, inner) = &t.nodes;
                let origin = self.start(control.into());
                if clock.is_some() {
                    return Err(self.error_at(
                        origin,
                        "a second event control in the procedure: the clock of its assertions \
                         cannot be inferred (IEEE 1800-2017 §16.14.6)",
                    ));
                }
                *clock = Some(self.inferred_clock(procedure, control, origin)?);
                self.statement_or_null(module, procedure, inner, clock, conditions)
            }
            StatementItem::SeqBlock(b) => {
                for s in &b.nodes.3 {
                    self.statement_or_null(module, procedure, s, clock, conditions)?;
                }
                Ok(())
            }
            StatementItem::ConditionalStatement(c) => {
                self.conditional(module, procedure, c, clock, conditions)
            }
            StatementItem::ProceduralAssertionStatement(p) => match &**p {
                ProceduralAssertionStatement::Concurrent(statement) => {
                    let origin = self.start(s.into());
                    self.remove(s.into(), true);
                    let label = label
                        .as_ref()
                        .map(|(id, _)| (self.str(id), self.start(id.into())));
                    self.found.push(Found {
                        module,
                        label,
                        statement,
                        origin,
                        clock: clock.clone(),
                        conditions: conditions.clone(),
                        genvars: Vec::new(),
                        scope: String::new(),
                    });
                    Ok(())
                }
                _ => Ok(()),
            },
            other => {
                if let Some(inner) = unwrap_node!(other, ConcurrentAssertionStatement) {
                    let origin = self.start(inner);
                    return Err(self.error_at(
                        origin,
                        "a concurrent assertion under a loop, `case`, `fork` or a wait in its \
                         procedure: only `begin` blocks, `if`/`else` and the procedure's event \
                         control are read around assertions",
                    ));
                }
                Ok(())
            }
        }
    }

    fn statement_or_null(
        &mut self,
        module: usize,
        procedure: &'a Statement,
        s: &'a StatementOrNull,
        clock: &mut Option<String>,
        conditions: &mut Vec<(String, bool)>,
    ) -> Result<(), ReadError> {
        match s {
            StatementOrNull::Statement(s) => {
                self.statement(module, procedure, s, clock, conditions)
            }
            StatementOrNull::Attribute(_) => Ok(()),
        }
    }

    fn conditional(
        &mut self,
        module: usize,
        procedure: &'a Statement,
        c: &'a ConditionalStatement,
        clock: &mut Option<String>,
        conditions: &mut Vec<(String, bool)>,
    ) -> Result<(), ReadError> {
        let (_, _, first, then, else_ifs, last) = &c.nodes;
        let mut predicates = vec![(&first.nodes.1, then)];
        predicates.extend(else_ifs.iter().map(|(_, _, p, s)| (&p.nodes.1, s)));
        let depth = conditions.len();
        for (predicate, body) in predicates {
            let (first, rest) = &predicate.nodes.0.nodes;
            if !rest.is_empty()
                || matches!(first, sv_parser::ExpressionOrCondPattern::CondPattern(_))
            {
                let origin = self.start(predicate.into());
                return Err(self.error_at(
                    origin,
                    "an `if` with `&&&` or `matches` around a concurrent assertion: not read",
                ));
            }
            let text = self.str(predicate).to_string();
            conditions.push((text.clone(), true));
            self.statement_or_null(module, procedure, body, clock, conditions)?;
            conditions.pop();
            // The next branches run when this one's condition is false.
            conditions.push((text, false));
        }
        if let Some((_, body)) = last {
            self.statement_or_null(module, procedure, body, clock, conditions)?;
        }
        conditions.truncate(depth);
        Ok(())
    }

    /// The clock of a procedure's assertions: its event control, when it
    /// has one edge, or the one term whose signal the procedure does not
    /// read otherwise (`@(posedge clk or posedge rst)` with `if (rst)`),
    /// §16.14.6.
    fn inferred_clock(
        &mut self,
        procedure: &'a Statement,
        control: &'a ProceduralTimingControl,
        origin: usize,
    ) -> Result<String, ReadError> {
        let ProceduralTimingControl::EventControl(event) = control else {
            return Err(self.error_at(
                origin,
                "a delay before a concurrent assertion: its clock cannot be inferred \
                 (IEEE 1800-2017 §16.14.6); give the assertion its clock, `@(posedge clk)`",
            ));
        };
        let expression = match &**event {
            EventControl::EventExpression(e) => &e.nodes.1.nodes.1,
            _ => {
                return Err(self.error_at(
                    origin,
                    "`@*`, `@(*)` or a named event before a concurrent assertion: its clock \
                     cannot be inferred (IEEE 1800-2017 §16.14.6)",
                ))
            }
        };
        let mut terms = Vec::new();
        flatten_events(expression, &mut terms);
        let mut candidates = Vec::new();
        for term in &terms {
            let EventExpression::Expression(e) = term else {
                return Err(self.error_at(
                    origin,
                    "a sequence as the procedure's event: its clock cannot be inferred",
                ));
            };
            let (edge, signal, iff) = &e.nodes;
            if edge.is_none() || iff.is_some() {
                continue;
            }
            let name = self.str(signal);
            // The body's text without the event control.
            let body = match &procedure.nodes.2 {
                StatementItem::ProceduralTimingControlStatement(t) => self.str(&t.nodes.1),
                _ => "",
            };
            if !mentions(body, name) {
                candidates.push(self.str(*term).to_string());
            }
        }
        match candidates.as_slice() {
            [one] => Ok(one.clone()),
            _ => Err(self.error_at(
                origin,
                "the procedure's event control has no single edge that its body does not \
                 read: the clock of its assertions cannot be inferred (IEEE 1800-2017 \
                 §16.14.6); give the assertion its clock, `@(posedge clk)`",
            )),
        }
    }

    /// Refuses a `disable iff` condition whose case equality makes an
    /// unknown reset inactive: `(!rst_ni) === 1'b1` (or `!(r !== 0)`) is
    /// false when `rst_ni` is x, which keeps the assertion checked (IEEE
    /// 1800-2017 §11.4.5, §16.12), where mongen's resets (a checker's
    /// port, `check`'s reset) count an unknown value as in reset. A `!==`
    /// (lowRISC's `(!rst_ni) !== '0`) is true for an unknown value: the
    /// same as mongen's.
    fn exact_disable(&mut self, condition: RefNode<'a>) -> Result<(), ReadError> {
        // Whether each enclosing unary operator negates.
        let mut negations: Vec<bool> = Vec::new();
        for event in condition.into_iter().event() {
            match event {
                NodeEvent::Enter(RefNode::ExpressionUnary(x)) => {
                    let op = self.str(&x.nodes.0);
                    negations.push(op == "!" || op == "~");
                }
                NodeEvent::Leave(RefNode::ExpressionUnary(_)) => {
                    negations.pop();
                }
                NodeEvent::Enter(node @ RefNode::BinaryOperator(op)) => {
                    let text = self.str(op);
                    let negated = negations.iter().filter(|n| **n).count() % 2 == 1;
                    let case = match text {
                        "===" => !negated,
                        "!==" => negated,
                        _ => false,
                    };
                    if case {
                        let origin = self.start(node.clone());
                        return Err(self.error_at(
                            origin,
                            format!(
                                "`{text}` in a `disable iff` condition: the case equality \
                                 makes an unknown (x, z) reset inactive, which keeps the \
                                 assertion checked (IEEE 1800-2017 §11.4.5, §16.12), where \
                                 mongen's reset counts an unknown value as in reset; write \
                                 `disable iff (!rst_ni)` or `disable iff ((!rst_ni) !== '0)`"
                            ),
                        ));
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The SVA text of one assertion, parsed.
    fn assertion(&mut self, f: Found<'a>) -> Result<Assertion, ReadError> {
        let mut text = Text::default();
        // The module's parameters of integer value are constants in its
        // properties (`cnt < N`, `LockIn |-> ...`), as in the design;
        // read as signals they would become checker ports, of one bit.
        // The genvars of the enclosing loops come after them (innermost
        // last): they shadow.
        let mut constants: Vec<(String, i64)> = self.parameters[f.module]
            .iter()
            .filter_map(|(n, v)| v.as_ref().ok().map(|v| (n.clone(), *v)))
            .collect();
        constants.extend(f.genvars.iter().cloned());
        // A piece of the file, its constants replaced (the replaced names
        // are ours; the rest keeps its place in the file, for carets).
        let piece = |text: &mut Text, s: &str, origin: usize| {
            for (segment, at) in substitute(s, &constants) {
                match at {
                    Some(at) => text.file(segment.as_ref(), origin + at),
                    None => text.ours(segment.as_ref()),
                }
            }
        };
        for d in self
            .global
            .iter()
            .chain(&self.modules[f.module].declarations)
        {
            piece(&mut text, &d.text, d.origin);
        }
        if let Some((label, origin)) = f.label {
            text.file(label, origin);
            text.ours(": ");
        }
        let (keyword, spec): (&str, Spec<'a>) = match f.statement {
            ConcurrentAssertionStatement::AssertPropertyStatement(x) => {
                ("assert property", Spec::Property(&x.nodes.2.nodes.1))
            }
            ConcurrentAssertionStatement::AssumePropertyStatement(x) => {
                ("assume property", Spec::Property(&x.nodes.2.nodes.1))
            }
            ConcurrentAssertionStatement::CoverPropertyStatement(x) => {
                ("cover property", Spec::Property(&x.nodes.2.nodes.1))
            }
            ConcurrentAssertionStatement::RestrictPropertyStatement(x) => {
                ("restrict property", Spec::Property(&x.nodes.2.nodes.1))
            }
            ConcurrentAssertionStatement::CoverSequenceStatement(x) => {
                let (clock, disable, body) = &x.nodes.2.nodes.1;
                (
                    "cover sequence",
                    Spec::Sequence(clock.as_ref(), disable.as_ref(), body.into()),
                )
            }
        };
        let (clock, disable, body): (Option<RefNode<'a>>, Option<RefNode<'a>>, RefNode<'a>) =
            match spec {
                Spec::Property(p) => {
                    let PropertySpec { nodes: (c, d, b) } = p;
                    (
                        c.as_ref().map(Into::into),
                        d.as_ref().map(|d| (&d.2.nodes.1).into()),
                        b.into(),
                    )
                }
                Spec::Sequence(c, d, b) => (c.map(Into::into), d.map(|d| (&d.2.nodes.1).into()), b),
            };
        text.ours(keyword);
        text.ours(" (");
        match (&clock, &f.clock) {
            (Some(c), _) => {
                let origin = self.start(c.clone());
                piece(&mut text, self.text_of(c.clone()), origin);
                text.ours(" ");
            }
            (None, Some(inferred)) => {
                text.ours("@(");
                text.ours(inferred);
                text.ours(") ");
            }
            (None, None) => {}
        }
        if let (Some(c), Some(inferred)) = (&clock, &f.clock) {
            let written = self.text_of(c.clone());
            if squeeze(
                written
                    .trim_start_matches('@')
                    .trim()
                    .trim_start_matches('(')
                    .trim_end_matches(')'),
            ) != squeeze(inferred)
            {
                let origin = self.start(c.clone());
                return Err(self.error_at(
                    origin,
                    format!(
                        "the assertion's clock is not its procedure's (`{inferred}`): an attempt \
                         would start at one clock and be evaluated at another, which mongen \
                         does not check (IEEE 1800-2017 §16.14.6, §16.13)"
                    ),
                ));
            }
        }
        if let Some(d) = &disable {
            self.exact_disable(d.clone())?;
            text.ours("disable iff (");
            let origin = self.start(d.clone());
            piece(&mut text, self.text_of(d.clone()), origin);
            text.ours(") ");
        }
        let body_origin = self.start(body.clone());
        let body_text = self.text_of(body.clone());
        if f.conditions.is_empty() {
            piece(&mut text, body_text, body_origin);
        } else {
            if keyword.starts_with("cover") {
                return Err(self.error_at(
                    f.origin,
                    "a `cover` under an `if` of its procedure: write the condition into the \
                     covered sequence (`cover property (cond ##0 s)`)",
                ));
            }
            // The enabling condition of the procedure is the antecedent
            // of the property (§16.14.6.1).
            for (i, (condition, positive)) in f.conditions.iter().enumerate() {
                if i > 0 {
                    text.ours(" && ");
                }
                text.ours(if *positive { "(" } else { "!(" });
                text.ours(condition);
                text.ours(")");
            }
            text.ours(" |-> (");
            piece(&mut text, body_text, body_origin);
            text.ours(")");
        }
        text.ours(");");
        let mut signals = Signals::new();
        for (name, width) in &self.modules[f.module].signals {
            signals = match width {
                Some(Width::Scalar) => signals.scalar(name),
                Some(Width::Vector {
                    msb,
                    lsb,
                    signed: false,
                }) => signals.vector(name, *msb, *lsb),
                Some(Width::Vector {
                    msb,
                    lsb,
                    signed: true,
                }) => signals.signed_vector(name, *msb, *lsb),
                // Read as one bit, its other bits would be lost: the
                // front end refuses it, saying why.
                None => signals.opaque(name),
            };
        }
        let directive = match parse_sva_directive_with(&text.text, &signals) {
            Ok(d) => d,
            Err(e) => {
                let origin = text.origin(e.offset()).unwrap_or(f.origin);
                return Err(self.error_at(origin, e.message()));
            }
        };
        let location = self
            .location(f.label.map_or(f.origin, |(_, o)| o))
            .unwrap_or(Location {
                file: PathBuf::new(),
                line: 1,
                column: 1,
            });
        Ok(Assertion {
            module: self.modules[f.module].name.clone(),
            directive,
            location,
            text: text.text,
            scope: f.scope,
        })
    }
}

enum Spec<'a> {
    Property(&'a PropertySpec),
    Sequence(
        Option<&'a sv_parser::ClockingEvent>,
        Option<&'a (
            sv_parser::Keyword,
            sv_parser::Keyword,
            sv_parser::Paren<sv_parser::ExpressionOrDist>,
        )>,
        RefNode<'a>,
    ),
}

/// The name of a generate block (`g: begin` or `begin : g`).
fn block_name(block: &GenerateBlock) -> Option<&sv_parser::GenerateBlockIdentifier> {
    match block {
        GenerateBlock::Multiple(b) => b.nodes.0.as_ref().map(|(id, _)| id).or(b
            .nodes
            .2
            .as_ref()
            .map(|(_, id)| id)),
        GenerateBlock::GenerateItem(_) => None,
    }
}

/// A genvar after `++` or `--` (saturating: a loop that overflows is
/// caught as one that repeats a value or never ends).
fn step_of(op: &str, value: i64) -> i64 {
    if op == "--" {
        value.saturating_sub(1)
    } else {
        value.saturating_add(1)
    }
}

/// `text` cut where the names of `constants` (parameters, genvars) are
/// replaced by their values (not inside strings, based literals, macros,
/// system calls or after a `.`): each segment is the text's from its
/// offset in `text`, or a value (`None`). The last constant of a name
/// counts.
fn substitute<'t>(
    text: &'t str,
    constants: &[(String, i64)],
) -> Vec<(std::borrow::Cow<'t, str>, Option<usize>)> {
    use std::borrow::Cow;
    let mut out: Vec<(Cow<'t, str>, Option<usize>)> = Vec::new();
    if constants.is_empty() {
        out.push((Cow::Borrowed(text), Some(0)));
        return out;
    }
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    // The start of the text not yet in `out`.
    let mut kept = 0;
    let mut chars = text.char_indices().peekable();
    let mut prev: Option<char> = None;
    while let Some((i, c)) = chars.next() {
        if c == '"' {
            let mut escaped = false;
            for (_, d) in chars.by_ref() {
                if d == '"' && !escaped {
                    break;
                }
                escaped = d == '\\' && !escaped;
            }
            prev = Some('"');
            continue;
        }
        if (c.is_ascii_alphabetic() || c == '_') && !prev.is_some_and(ident) {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !ident(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            let word = &text[i..end];
            let quoted = matches!(prev, Some('\'' | '`' | '.' | '$'));
            // A call (`f(...)`) names a function, not a constant.
            let called = text[end..].trim_start().starts_with('(');
            if let Some((_, v)) = constants.iter().rev().find(|(g, _)| g == word) {
                if !quoted && !called {
                    if kept < i {
                        out.push((Cow::Borrowed(&text[kept..i]), Some(kept)));
                    }
                    out.push((
                        Cow::Owned(if *v >= 0 {
                            v.to_string()
                        } else {
                            format!("({v})")
                        }),
                        None,
                    ));
                    kept = end;
                }
            }
            prev = word.chars().next_back();
            continue;
        }
        prev = Some(c);
    }
    if kept < text.len() || out.is_empty() {
        out.push((Cow::Borrowed(&text[kept..]), Some(kept)));
    }
    out
}

/// The terms of an event expression joined by `or` and `,`.
fn flatten_events<'a>(e: &'a EventExpression, out: &mut Vec<&'a EventExpression>) {
    match e {
        EventExpression::Or(x) => {
            flatten_events(&x.nodes.0, out);
            flatten_events(&x.nodes.2, out);
        }
        EventExpression::Comma(x) => {
            flatten_events(&x.nodes.0, out);
            flatten_events(&x.nodes.2, out);
        }
        EventExpression::Paren(x) => flatten_events(&x.nodes.0.nodes.1, out),
        other => out.push(other),
    }
}

/// Whether `text` reads the identifier `name` (as a whole word).
fn mentions(text: &str, name: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(i, _)| {
        !text[..i].chars().next_back().is_some_and(ident)
            && !text[i + name.len()..].chars().next().is_some_and(ident)
    })
}

/// `text` without whitespace, to compare clocks as written.
fn squeeze(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// Whether the declarations inside `node` are local to it.
fn is_procedure(node: &RefNode<'_>) -> bool {
    matches!(
        node,
        RefNode::AlwaysConstruct(_)
            | RefNode::InitialConstruct(_)
            | RefNode::FinalConstruct(_)
            | RefNode::FunctionDeclaration(_)
            | RefNode::TaskDeclaration(_)
            | RefNode::PropertyDeclaration(_)
            | RefNode::SequenceDeclaration(_)
            | RefNode::LetDeclaration(_)
            | RefNode::ClockingDeclaration(_)
            | RefNode::ModuleInstantiation(_)
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    Module,
    Interface,
    Program,
    Package,
    Checker,
    Class,
}

impl ScopeKind {
    fn name(self) -> &'static str {
        match self {
            ScopeKind::Module => "a module",
            ScopeKind::Interface => "an interface",
            ScopeKind::Program => "a program",
            ScopeKind::Package => "a package",
            ScopeKind::Checker => "a checker",
            ScopeKind::Class => "a class",
        }
    }
}

struct Scope {
    kind: ScopeKind,
    module: Option<usize>,
}

impl Scope {
    fn of(node: &RefNode<'_>) -> Option<ScopeKind> {
        Some(match node {
            RefNode::ModuleDeclarationAnsi(_) | RefNode::ModuleDeclarationNonansi(_) => {
                ScopeKind::Module
            }
            RefNode::InterfaceDeclaration(_) => ScopeKind::Interface,
            RefNode::ProgramDeclaration(_) => ScopeKind::Program,
            RefNode::PackageDeclaration(_) => ScopeKind::Package,
            RefNode::CheckerDeclaration(_) => ScopeKind::Checker,
            RefNode::ClassDeclaration(_) => ScopeKind::Class,
            _ => return None,
        })
    }
}
