//! The signals of a Verilog or SystemVerilog module, with their ranges.
//!
//! [`module_signals`] reads a source file and lists the signals of one
//! module: its ports, ANSI (`module m #(parameter W = 8) (input wire
//! [W-1:0] data, ...)`) or not (`module m (data, ...); input [7:0] data;`),
//! and the nets and variables declared in its body (`wire`, `reg`,
//! `logic`, `integer`, ...), which a PSL `vunit` bound to the module may
//! read. Ranges are evaluated from the parameters' default values, or from
//! the overrides given (`-GW=16` in simulator terms), with `$clog2`, `**`,
//! `? :` and the other constant operators.
//!
//! # What is read
//!
//! * Comments, attributes `(* ... *)`, strings, `function`/`task` bodies,
//!   `generate` regions and every `begin ... end` block (whose
//!   declarations are not module-level signals) are skipped.
//! * The source is preprocessed as a simulator would with no `+define+`
//!   (or with [`PortsOptions::defines`]): `` `define``s earlier in the
//!   source are expanded, and `` `ifdef``/`` `ifndef``/`` `elsif``/
//!   `` `else`` keep exactly the branches a simulator keeps. (Taking both
//!   branches would declare a signal twice with different ranges; taking
//!   none would drop whole files behind include guards.) `` `include``d
//!   files are not read.
//! * A signal is listed once, in declaration order, ports first: the
//!   `reg [3:0] q;` that completes a non-ANSI `output q;` gives the port
//!   its range. Multi-bit port ranges come from the port declaration or
//!   the net declaration, whichever has one.
//!
//! Left out, silently: memories (unpacked dimensions, `reg [7:0] m [0:3]`),
//! several packed dimensions (`logic [3:0][7:0] x`), user-defined types
//! (`state_t s`, structures, enumerations, interfaces), real and string
//! variables, nets declared implicitly, and nested modules.
//!
//! ```
//! use mongen::hdl::{module_signals, Direction};
//!
//! let source = "
//!     module fifo #(parameter W = 8, DEPTH = 16) (
//!         input  wire         clk,
//!         input  wire [W-1:0] din,
//!         output reg          full
//!     );
//!         localparam AW = $clog2(DEPTH);
//!         reg [AW:0] count, next;
//!     endmodule";
//! let signals = module_signals(source, "fifo", &[("W".to_string(), 16)])?;
//! let summary: Vec<_> = signals
//!     .iter()
//!     .map(|s| (s.name.as_str(), s.direction, s.msb, s.lsb))
//!     .collect();
//! assert_eq!(summary, [
//!     ("clk", Direction::Input, 0, 0),
//!     ("din", Direction::Input, 15, 0),
//!     ("full", Direction::Output, 0, 0),
//!     ("count", Direction::Internal, 4, 0),
//!     ("next", Direction::Internal, 4, 0),
//! ]);
//! assert!(signals[0].scalar);
//! assert_eq!((signals[3].line, signals[3].column), (8, 20));
//! # Ok::<(), mongen::hdl::PortsError>(())
//! ```

use std::collections::HashMap;
use std::fmt;

use super::expr::{
    const_eval, lex_token, name_list, suggest, HdlInput, Parser, Tok, Token, MAX_WIDTH,
};

/// How a signal connects to the outside of its module.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Direction {
    /// An `input` port.
    Input,
    /// An `output` port.
    Output,
    /// An `inout` port.
    Inout,
    /// A net or variable declared in the module's body.
    Internal,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::Input => "input",
            Direction::Output => "output",
            Direction::Inout => "inout",
            Direction::Internal => "internal",
        })
    }
}

/// A signal of a module.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HdlSignal {
    /// The name (an escaped identifier without its backslash).
    pub name: String,
    /// Port direction, or [`Direction::Internal`].
    pub direction: Direction,
    /// The left index of the range (0 for a scalar).
    pub msb: i64,
    /// The right index of the range (0 for a scalar).
    pub lsb: i64,
    /// Whether the signal is signed (`signed`, `integer`, `int`, ...).
    pub signed: bool,
    /// Whether the signal has no range (one bit, not indexable).
    pub scalar: bool,
    /// The line of the name in the declaration (from 1).
    pub line: usize,
    /// The column of the name, in bytes from 1.
    pub column: usize,
}

impl HdlSignal {
    /// The number of bits.
    ///
    /// ```
    /// use mongen::hdl::module_signals;
    ///
    /// let s = module_signals("module m (input [0:7] data, input en); endmodule", "m", &[])?;
    /// assert_eq!((s[0].width(), s[1].width()), (8, 1));
    /// # Ok::<(), mongen::hdl::PortsError>(())
    /// ```
    pub fn width(&self) -> u64 {
        if self.scalar {
            1
        } else {
            self.msb.abs_diff(self.lsb) + 1
        }
    }

    /// The checker input that carries this signal, with the same range.
    ///
    /// ```
    /// use mongen::hdl::{module_signals, HdlInput};
    ///
    /// let s = module_signals("module m (input signed [8:1] d); endmodule", "m", &[])?;
    /// assert_eq!(s[0].to_input(), HdlInput::vector("d", 8, 1).signed());
    /// # Ok::<(), mongen::hdl::PortsError>(())
    /// ```
    pub fn to_input(&self) -> HdlInput {
        HdlInput {
            name: self.name.clone(),
            msb: self.msb,
            lsb: self.lsb,
            signed: self.signed,
            scalar: self.scalar,
        }
    }
}

/// Why the signals of a module could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortsError {
    /// What is wrong.
    pub message: String,
    /// The line (from 1) of the declaration at fault.
    pub line: usize,
    /// The column (in bytes, from 1).
    pub column: usize,
}

impl fmt::Display for PortsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for PortsError {}

/// Options of [`module_signals_with`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PortsOptions {
    /// Values for the module's parameters, instead of their defaults.
    pub overrides: Vec<(String, i64)>,
    /// Macros defined before the source (`+define+NAME=TEXT`): name and
    /// text (empty for a macro that is only defined).
    pub defines: Vec<(String, String)>,
}

/// The signals of `module` in `source`, with the parameters `overrides`
/// instead of their defaults (see the [module documentation](self)).
///
/// Fails if the module is not in the source (after preprocessing), if an
/// override names no parameter of the module, or if the range of a
/// declaration cannot be evaluated; the error points at the declaration.
///
/// ```
/// use mongen::hdl::module_signals;
///
/// let err = module_signals("module top; wire [N-1:0] x; endmodule", "top", &[]).unwrap_err();
/// assert_eq!(err.to_string(),
///     "1:19: cannot evaluate the range [N-1:0] of `x`: `N` is not a parameter of module `top`");
/// let err = module_signals("module top; endmodule", "tpo", &[]).unwrap_err();
/// assert_eq!(err.message, "module `tpo` is not in the source; did you mean `top`? (modules: top)");
/// ```
pub fn module_signals(
    source: &str,
    module: &str,
    overrides: &[(String, i64)],
) -> Result<Vec<HdlSignal>, PortsError> {
    module_signals_with(
        source,
        module,
        &PortsOptions {
            overrides: overrides.to_vec(),
            defines: Vec::new(),
        },
    )
}

/// [`module_signals`] with macros defined beforehand.
///
/// ```
/// use mongen::hdl::ports::{module_signals_with, PortsOptions};
///
/// let source = "module m(
///     `ifdef WIDE input [15:0] d `else input [7:0] d `endif
/// ); endmodule";
/// let narrow = module_signals_with(source, "m", &PortsOptions::default())?;
/// assert_eq!(narrow[0].msb, 7);
/// let options = PortsOptions { defines: vec![("WIDE".into(), String::new())], ..Default::default() };
/// assert_eq!(module_signals_with(source, "m", &options)?[0].msb, 15);
/// # Ok::<(), mongen::hdl::PortsError>(())
/// ```
pub fn module_signals_with(
    source: &str,
    module: &str,
    options: &PortsOptions,
) -> Result<Vec<HdlSignal>, PortsError> {
    let toks = preprocess(source, &options.defines);
    let mut reader = Reader::new(source, &toks, module);
    let Some(start) = reader.find_module(module) else {
        let names = module_list(&toks);
        let hint = suggest(module, names.iter().map(String::as_str))
            .map(|s| format!("; did you mean `{s}`?"))
            .unwrap_or_default();
        let list = if names.is_empty() {
            " (it has no modules)".to_string()
        } else {
            format!(
                " (modules: {})",
                name_list(names.iter().map(String::as_str))
            )
        };
        return Err(PortsError {
            message: format!("module `{module}` is not in the source{hint}{list}"),
            line: 1,
            column: 1,
        });
    };
    reader.i = start;
    reader.module(&options.overrides)?;
    Ok(reader.finish())
}

/// The names of the modules in `source`, in order (after preprocessing
/// with no macros defined).
///
/// ```
/// use mongen::hdl::ports::module_names;
///
/// assert_eq!(module_names("module a; endmodule /* module c; */ module b(); endmodule"), ["a", "b"]);
/// ```
pub fn module_names(source: &str) -> Vec<String> {
    module_list(&preprocess(source, &[]))
}

fn module_list(toks: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        if matches!(&t.tok, Tok::Ident(m) if m == "module" || m == "macromodule") {
            let mut j = k + 1;
            if matches!(toks.get(j).map(|t| &t.tok), Some(Tok::Ident(l)) if l == "automatic" || l == "static")
            {
                j += 1;
            }
            if let Some(Tok::Ident(name)) = toks.get(j).map(|t| &t.tok) {
                if !out.contains(name) {
                    out.push(name.clone());
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// Preprocessor
// ---------------------------------------------------------------------------

struct Macro {
    params: Option<Vec<String>>,
    body: String,
}

struct Branch {
    /// This branch is being read.
    active: bool,
    /// Some branch of this `ifdef` was (or is being) read.
    taken: bool,
}

struct Pre {
    macros: HashMap<String, Macro>,
    out: Vec<Token>,
    stack: Vec<Branch>,
    /// How many more tokens macro expansions may produce.
    budget: usize,
}

const MAX_MACRO_DEPTH: u32 = 16;

/// The tokens of `src` after comments, attributes and directives, with
/// macros expanded (a macro's tokens take the position of its use).
fn preprocess(src: &str, defines: &[(String, String)]) -> Vec<Token> {
    let mut pre = Pre {
        macros: defines
            .iter()
            .map(|(n, b)| {
                (
                    n.clone(),
                    Macro {
                        params: None,
                        body: b.clone(),
                    },
                )
            })
            .collect(),
        out: Vec::new(),
        stack: Vec::new(),
        budget: 1 << 20,
    };
    pre.run(src, None, 0);
    pre.out
}

fn skip_line(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

fn find(b: &[u8], from: usize, pat: &[u8]) -> Option<usize> {
    if from > b.len() {
        return None;
    }
    b[from..]
        .windows(pat.len())
        .position(|w| w == pat)
        .map(|p| p + from)
}

fn skip_blanks(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

fn scan_ident(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'$') {
        i += 1;
    }
    i
}

/// The end of a balanced `( ... )` that starts at `i`, and the top-level
/// comma-separated pieces inside.
fn balanced_args(text: &str, i: usize) -> (usize, Vec<String>) {
    let b = text.as_bytes();
    let mut depth = 0usize;
    let mut j = i;
    let mut args = Vec::new();
    let mut start = i + 1;
    while j < b.len() {
        match b[j] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    args.push(text.get(start..j).unwrap_or("").trim().to_string());
                    return (j + 1, args);
                }
            }
            b',' if depth == 1 => {
                args.push(text.get(start..j).unwrap_or("").trim().to_string());
                start = j + 1;
            }
            b'"' => {
                j += 1;
                while j < b.len() && b[j] != b'"' && b[j] != b'\n' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
            }
            _ => {}
        }
        j += 1;
    }
    (b.len(), args)
}

impl Pre {
    fn active(&self) -> bool {
        self.stack.iter().all(|b| b.active)
    }

    /// Lexes `text`; `site` is the position of the macro use that produced
    /// it (`None` for the source itself).
    fn run(&mut self, text: &str, site: Option<(usize, usize)>, depth: u32) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            let next = b.get(i + 1).copied().unwrap_or(0);
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c == b'/' && next == b'/' {
                i = skip_line(b, i);
                continue;
            }
            if c == b'/' && next == b'*' {
                i = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
                continue;
            }
            if c == b'(' && next == b'*' {
                let j = skip_blanks(b, i + 2);
                if j < b.len() && b[j] != b')' {
                    i = find(b, j, b"*)").map_or(b.len(), |e| e + 2);
                    continue;
                }
            }
            if c == b'`' {
                let j = scan_ident(b, i + 1);
                if j == i + 1 {
                    i += 1;
                    continue;
                }
                i = self.directive(text, i, j, site, depth);
                continue;
            }
            let t = lex_token(text, i);
            i = t.end.max(i + 1);
            if self.active() {
                self.push(t, site);
            }
        }
    }

    fn push(&mut self, mut t: Token, site: Option<(usize, usize)>) {
        if let Some((p, e)) = site {
            t.pos = p;
            t.end = e;
            self.budget = self.budget.saturating_sub(1);
        }
        self.out.push(t);
    }

    /// Handles the directive or macro use `` `name `` at `i` (the name
    /// ends at `j`); returns where to go on.
    fn directive(
        &mut self,
        text: &str,
        i: usize,
        j: usize,
        site: Option<(usize, usize)>,
        depth: u32,
    ) -> usize {
        let b = text.as_bytes();
        let name = &text[i + 1..j];
        let word_after = |k: usize| -> (String, usize) {
            let s = skip_blanks(b, k);
            let e = scan_ident(b, s);
            (text[s..e].to_string(), e)
        };
        match name {
            "ifdef" | "ifndef" => {
                let (m, e) = word_after(j);
                let defined = self.macros.contains_key(&m);
                let on = defined == (name == "ifdef");
                let parent = self.active();
                self.stack.push(Branch {
                    active: on && parent,
                    taken: on || !parent,
                });
                e
            }
            "elsif" => {
                let (m, e) = word_after(j);
                let defined = self.macros.contains_key(&m);
                let n = self.stack.len();
                if n > 0 {
                    let parent = self.stack[..n - 1].iter().all(|b| b.active);
                    let top = &mut self.stack[n - 1];
                    top.active = parent && !top.taken && defined;
                    top.taken |= top.active;
                }
                e
            }
            "else" => {
                let n = self.stack.len();
                if n > 0 {
                    let parent = self.stack[..n - 1].iter().all(|b| b.active);
                    let top = &mut self.stack[n - 1];
                    top.active = parent && !top.taken;
                    top.taken = true;
                }
                j
            }
            "endif" => {
                self.stack.pop();
                j
            }
            "define" => {
                let end = self.define_end(text, j);
                if self.active() && site.is_none() {
                    self.define(text, j, end);
                }
                end
            }
            "undef" => {
                let (m, e) = word_after(j);
                if self.active() {
                    self.macros.remove(&m);
                }
                e
            }
            "include" | "timescale" | "default_nettype" | "line" | "pragma" | "begin_keywords"
            | "unconnected_drive" => skip_line(b, j),
            "celldefine"
            | "endcelldefine"
            | "resetall"
            | "nounconnected_drive"
            | "end_keywords"
            | "undefineall"
            | "__FILE__"
            | "__LINE__" => j,
            _ => {
                if !self.active() {
                    return j;
                }
                let here = site.unwrap_or((i, j));
                let params = self.macros.get(name).map(|m| m.params.clone());
                let has_args = b.get(skip_blanks(b, j)) == Some(&b'(');
                let (end, args) = if has_args && !matches!(params, Some(None)) {
                    balanced_args(text, skip_blanks(b, j))
                } else {
                    (j, Vec::new())
                };
                let expandable = depth < MAX_MACRO_DEPTH && self.budget > 0;
                match self.macros.get(name) {
                    Some(m) if expandable => {
                        let body = match &m.params {
                            None => m.body.clone(),
                            Some(ps) => substitute(&m.body, ps, &args),
                        };
                        let here = site.unwrap_or((i, end));
                        self.run(&body, Some(here), depth + 1);
                        end
                    }
                    _ => {
                        self.push(
                            Token {
                                tok: Tok::Macro(name.to_string()),
                                pos: here.0,
                                end: here.1,
                            },
                            site,
                        );
                        end
                    }
                }
            }
        }
    }

    /// Where the text of a `` `define `` that starts at `j` ends: the end
    /// of the line, past `\`-continued lines.
    fn define_end(&self, text: &str, j: usize) -> usize {
        let b = text.as_bytes();
        let mut k = j;
        while k < b.len() && b[k] != b'\n' {
            if b[k] == b'\\' && b.get(k + 1) == Some(&b'\n') {
                k += 2;
                continue;
            }
            if b[k] == b'\\' && b.get(k + 1) == Some(&b'\r') && b.get(k + 2) == Some(&b'\n') {
                k += 3;
                continue;
            }
            k += 1;
        }
        k
    }

    fn define(&mut self, text: &str, j: usize, end: usize) {
        let b = text.as_bytes();
        let s = skip_blanks(b, j);
        let e = scan_ident(b, s);
        if e == s || e > end {
            return;
        }
        let name = text[s..e].to_string();
        let (params, body_start) = if b.get(e) == Some(&b'(') {
            let close = find(b, e, b")").filter(|c| *c < end).unwrap_or(end);
            let ps = text[e + 1..close]
                .split(',')
                .map(|p| p.split('=').next().unwrap_or("").trim().to_string())
                .filter(|p| !p.is_empty())
                .collect();
            (Some(ps), (close + 1).min(end))
        } else {
            (None, e)
        };
        let raw = &text[body_start..end];
        let mut body = String::new();
        for line in raw.split('\n') {
            let line = line.trim_end_matches('\r');
            let line = line.strip_suffix('\\').unwrap_or(line);
            let line = match line.find("//") {
                Some(c) => &line[..c],
                None => line,
            };
            body.push_str(line);
            body.push(' ');
        }
        self.macros.insert(
            name,
            Macro {
                params,
                body: body.trim().to_string(),
            },
        );
    }
}

/// A function-like macro's body with its parameters replaced.
fn substitute(body: &str, params: &[String], args: &[String]) -> String {
    let b = body.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'`' && b.get(i + 1) == Some(&b'`') {
            i += 2;
            continue;
        }
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let e = scan_ident(b, i);
            let word = &body[i..e];
            let prev_tick = i > 0 && b[i - 1] == b'`';
            match params.iter().position(|p| p == word) {
                Some(k) if !prev_tick => out.push_str(args.get(k).map_or("", String::as_str)),
                _ => out.push_str(word),
            }
            i = e;
            continue;
        }
        let ch = body[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

// ---------------------------------------------------------------------------
// Module reader
// ---------------------------------------------------------------------------

/// A packed range `[msb:lsb]`, as declared.
type Range = (i64, i64);

struct Param {
    value: Result<i128, String>,
}

struct Sig {
    sig: HdlSignal,
    /// Declared (a port named in a non-ANSI list is a placeholder until
    /// its direction is declared in the body).
    declared: bool,
    has_range: bool,
}

/// The shape of a declaration, before its names.
#[derive(Default)]
struct Shape {
    /// Token indices of the `[` of each packed dimension.
    dims: Vec<usize>,
    signed: Option<bool>,
    /// The range of an integer type (`integer`: 31 to 0, signed).
    atom: Option<(i64, bool)>,
    /// Anything else written (a net or variable kind, `signed`, ...).
    any: bool,
    /// Not an integral signal we can describe.
    skip: bool,
}

const KINDS: &[&str] = &[
    "wire",
    "tri",
    "tri0",
    "tri1",
    "wand",
    "wor",
    "triand",
    "trior",
    "trireg",
    "uwire",
    "supply0",
    "supply1",
    "reg",
    "logic",
    "bit",
    "var",
    "vectored",
    "scalared",
    "const",
    "static",
    "automatic",
    "interconnect",
    "rand",
    "randc",
];

const ATOMS: &[(&str, i64, bool)] = &[
    ("integer", 32, true),
    ("int", 32, true),
    ("shortint", 16, true),
    ("longint", 64, true),
    ("byte", 8, true),
    ("time", 64, false),
];

const NON_INTEGRAL: &[&str] = &[
    "real",
    "realtime",
    "shortreal",
    "string",
    "event",
    "chandle",
    "enum",
    "struct",
    "union",
    "type",
    "virtual",
];

fn opener(w: &str) -> bool {
    matches!(
        w,
        "begin"
            | "case"
            | "casex"
            | "casez"
            | "randcase"
            | "fork"
            | "function"
            | "task"
            | "generate"
            | "specify"
            | "covergroup"
            | "class"
            | "checker"
            | "interface"
            | "program"
            | "package"
            | "primitive"
            | "table"
            | "config"
    )
}

fn closer(w: &str) -> bool {
    matches!(
        w,
        "end"
            | "endcase"
            | "endproperty"
            | "endsequence"
            | "endclocking"
            | "join"
            | "join_any"
            | "join_none"
            | "endfunction"
            | "endtask"
            | "endgenerate"
            | "endspecify"
            | "endgroup"
            | "endclass"
            | "endchecker"
            | "endinterface"
            | "endprogram"
            | "endpackage"
            | "endprimitive"
            | "endtable"
            | "endconfig"
    )
}

struct Reader<'a> {
    src: &'a str,
    toks: &'a [Token],
    i: usize,
    module: String,
    line_starts: Vec<usize>,
    params: HashMap<String, Param>,
    param_names: Vec<String>,
    sigs: Vec<Sig>,
    index: HashMap<String, usize>,
    /// The module has a `#(...)` parameter list: body parameters are local.
    header_params: bool,
    /// Parameter overrides not applied yet.
    pending: Vec<(String, i64)>,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str, toks: &'a [Token], module: &str) -> Reader<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(
            src.bytes()
                .enumerate()
                .filter(|(_, c)| *c == b'\n')
                .map(|(k, _)| k + 1),
        );
        Reader {
            src,
            toks,
            i: 0,
            module: module.to_string(),
            line_starts,
            params: HashMap::new(),
            param_names: Vec::new(),
            sigs: Vec::new(),
            index: HashMap::new(),
            header_params: false,
            pending: Vec::new(),
        }
    }

    fn line_col(&self, pos: usize) -> (usize, usize) {
        let line = self.line_starts.partition_point(|s| *s <= pos).max(1);
        (line, pos - self.line_starts[line - 1] + 1)
    }

    fn error(&self, message: String, pos: usize) -> PortsError {
        let (line, column) = self.line_col(pos.min(self.src.len()));
        PortsError {
            message,
            line,
            column,
        }
    }

    fn tok(&self, k: usize) -> Option<&'a Tok> {
        self.toks.get(k).map(|t| &t.tok)
    }

    fn word(&self, k: usize) -> Option<&'a str> {
        match self.tok(k) {
            Some(Tok::Ident(w)) => Some(w.as_str()),
            _ => None,
        }
    }

    fn punct(&self, k: usize, p: &str) -> bool {
        matches!(self.tok(k), Some(Tok::Punct(q)) if *q == p)
    }

    fn pos(&self, k: usize) -> usize {
        self.toks
            .get(k)
            .or_else(|| self.toks.last())
            .map_or(0, |t| t.pos)
    }

    fn text(&self, a: usize, b: usize) -> String {
        let (p, e) = (
            self.pos(a),
            self.toks.get(b).map_or(self.src.len(), |t| t.end),
        );
        let s = self.src.get(p..e.max(p)).unwrap_or("");
        s.split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// The index of the token after the one that closes the bracket at
    /// `k` (or `lim`).
    fn matching(&self, k: usize, lim: usize) -> usize {
        let mut depth = 0usize;
        let mut j = k;
        while j < lim {
            match self.tok(j) {
                Some(Tok::Punct("(" | "[" | "{")) => depth += 1,
                Some(Tok::Punct(")" | "]" | "}")) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return j + 1;
                    }
                }
                Some(Tok::Ident(w)) if w == "endmodule" => return j,
                _ => {}
            }
            j += 1;
        }
        lim
    }

    /// The token index after `module name`.
    fn find_module(&self, name: &str) -> Option<usize> {
        for k in 0..self.toks.len() {
            if matches!(self.word(k), Some("module" | "macromodule")) {
                let mut j = k + 1;
                if matches!(self.word(j), Some("automatic" | "static")) {
                    j += 1;
                }
                if self.word(j) == Some(name) {
                    return Some(j + 1);
                }
            }
        }
        None
    }

    fn module(&mut self, overrides: &[(String, i64)]) -> Result<(), PortsError> {
        let n = self.toks.len();
        self.pending = overrides.to_vec();
        while self.word(self.i) == Some("import") {
            self.skip_to_semicolon();
        }
        if self.punct(self.i, "#") && self.punct(self.i + 1, "(") {
            self.header_params = true;
            let close = self.matching(self.i + 1, n);
            let (a, b) = (self.i + 2, close.saturating_sub(1).max(self.i + 2));
            let mut local = false;
            for (s, e) in self.split_commas(a, b) {
                local = self.param_item(s, e, local, true)?;
            }
            self.i = close;
        }
        if self.punct(self.i, "(") {
            let close = self.matching(self.i, n);
            let (a, b) = (self.i + 1, close.saturating_sub(1).max(self.i + 1));
            self.port_list(a, b)?;
            self.i = close;
        }
        if self.punct(self.i, ";") {
            self.i += 1;
        }
        self.body()?;
        if let Some((name, _)) = self.pending.first() {
            let names: Vec<&str> = self.param_names.iter().map(String::as_str).collect();
            let hint = suggest(name, names.iter().copied())
                .map(|s| format!("; did you mean `{s}`?"))
                .unwrap_or_default();
            let list = if names.is_empty() {
                " (it has none)".to_string()
            } else {
                format!(" (parameters: {})", name_list(names.iter().copied()))
            };
            return Err(PortsError {
                message: format!(
                    "module `{}` has no parameter `{name}`{hint}{list}",
                    self.module
                ),
                line: 1,
                column: 1,
            });
        }
        Ok(())
    }

    /// The override of parameter `name`, if any (taken out of the
    /// pending ones).
    fn take_override(
        &mut self,
        name: &str,
        local: bool,
        pos: usize,
    ) -> Result<Option<i64>, PortsError> {
        let Some(k) = self.pending.iter().position(|(n, _)| n == name) else {
            return Ok(None);
        };
        if local {
            return Err(self.error(
                format!(
                    "`{name}` is a local parameter of module `{}` and cannot be overridden",
                    self.module
                ),
                pos,
            ));
        }
        Ok(Some(self.pending.remove(k).1))
    }

    /// The top-level comma-separated pieces of tokens `a..b`.
    fn split_commas(&self, a: usize, b: usize) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut start = a;
        for k in a..b {
            match self.tok(k) {
                Some(Tok::Punct("(" | "[" | "{")) => depth += 1,
                Some(Tok::Punct(")" | "]" | "}")) => depth = depth.saturating_sub(1),
                Some(Tok::Punct(",")) if depth == 0 => {
                    out.push((start, k));
                    start = k + 1;
                }
                _ => {}
            }
        }
        if start < b {
            out.push((start, b));
        }
        out
    }

    /// The value of the constant expression in tokens `a..b`.
    fn eval(&self, a: usize, b: usize) -> Result<i128, (String, usize)> {
        let slice = self.toks.get(a..b).unwrap_or(&[]);
        let eof = self.toks.get(b).map_or(self.src.len(), |t| t.pos);
        let mut parser = Parser::new(slice, eof);
        let node = parser.expr().map_err(|f| (f.message, f.pos))?;
        if let Some(t) = parser.peek_token() {
            return Err((format!("unexpected `{}`", t.tok), t.pos));
        }
        const_eval(&node, &mut |name| match self.params.get(name) {
            Some(Param { value: Ok(v), .. }) => Ok(*v),
            Some(Param { value: Err(e), .. }) => {
                Err(format!("parameter `{name}` has no value: {e}"))
            }
            None => Err(format!(
                "`{name}` is not a parameter of module `{}`",
                self.module
            )),
        })
        .map_err(|f| (f.message, f.pos))
    }

    /// A range `[msb:lsb]` whose `[` is token `k`, for the declaration of
    /// `name`.
    fn range(&self, k: usize, name: &str) -> Result<(i64, i64), PortsError> {
        let close = self.matching(k, self.toks.len());
        let inner_end = close.saturating_sub(1).max(k + 1);
        let text = self.text(k, inner_end);
        let fail = |why: String, pos: usize| {
            self.error(
                format!("cannot evaluate the range {text} of `{name}`: {why}"),
                pos,
            )
        };
        let colon = (k + 1..inner_end).find(|&j| {
            self.punct(j, ":") && {
                // The colon of the range, not of a `? :` inside it.
                let before = (k + 1..j).filter(|&q| self.punct(q, "?")).count();
                let colons = (k + 1..j).filter(|&q| self.punct(q, ":")).count();
                colons == before
            }
        });
        let Some(colon) = colon else {
            return Err(fail("a range is written [MSB:LSB]".into(), self.pos(k)));
        };
        let bound = |a: usize, b: usize| -> Result<i64, PortsError> {
            let v = self.eval(a, b).map_err(|(m, p)| fail(m, p))?;
            i64::try_from(v)
                .ok()
                .filter(|v| v.unsigned_abs() < 1 << 31)
                .ok_or_else(|| fail(format!("{v} is too large for an index"), self.pos(a)))
        };
        let msb = bound(k + 1, colon)?;
        let lsb = bound(colon + 1, inner_end)?;
        if msb.abs_diff(lsb) >= u64::from(MAX_WIDTH) {
            return Err(fail(
                format!(
                    "{} bits is wider than the {MAX_WIDTH} bits supported",
                    msb.abs_diff(lsb) + 1
                ),
                self.pos(k),
            ));
        }
        Ok((msb, lsb))
    }

    /// Reads the kind, signedness and packed dimensions at `*k`.
    fn shape(&self, k: &mut usize, lim: usize) -> Shape {
        let mut s = Shape::default();
        while *k < lim {
            match self.tok(*k) {
                Some(Tok::Ident(w)) if KINDS.contains(&w.as_str()) => s.any = true,
                Some(Tok::Ident(w)) if w == "signed" => {
                    s.signed = Some(true);
                    s.any = true;
                }
                Some(Tok::Ident(w)) if w == "unsigned" => {
                    s.signed = Some(false);
                    s.any = true;
                }
                Some(Tok::Ident(w)) if ATOMS.iter().any(|a| a.0 == w) => {
                    let a = ATOMS
                        .iter()
                        .find(|a| a.0 == w)
                        .map_or((32, true), |a| (a.1, a.2));
                    s.atom = Some(a);
                    s.any = true;
                }
                Some(Tok::Ident(w)) if NON_INTEGRAL.contains(&w.as_str()) => {
                    s.skip = true;
                    s.any = true;
                }
                Some(Tok::Punct("(")) => {
                    // Drive or charge strength.
                    *k = self.matching(*k, lim);
                    continue;
                }
                Some(Tok::Punct("#")) => {
                    // A delay.
                    *k += 1;
                    if self.punct(*k, "(") {
                        *k = self.matching(*k, lim);
                    } else {
                        *k += 1;
                    }
                    continue;
                }
                Some(Tok::Punct("[")) => {
                    s.dims.push(*k);
                    s.any = true;
                    *k = self.matching(*k, lim);
                    continue;
                }
                Some(Tok::Ident(_)) => {
                    // A name, or a type name followed by a name.
                    let next = self.tok(*k + 1);
                    if *k + 1 < lim
                        && matches!(
                            next,
                            Some(Tok::Ident(_)) | Some(Tok::Punct("::" | "." | "#"))
                        )
                    {
                        s.skip = true;
                        s.any = true;
                        *k += 1;
                        continue;
                    }
                    break;
                }
                _ => break,
            }
            *k += 1;
        }
        s
    }

    /// The range and signedness that `shape` gives `name`; `None` for a
    /// declaration left out.
    #[allow(clippy::type_complexity)]
    fn resolve(
        &self,
        shape: &Shape,
        name: &str,
    ) -> Result<Option<(Option<(i64, i64)>, bool)>, PortsError> {
        if shape.skip || shape.dims.len() > 1 {
            return Ok(None);
        }
        if let Some((w, signed)) = shape.atom {
            return Ok(Some((Some((w - 1, 0)), shape.signed.unwrap_or(signed))));
        }
        let range = match shape.dims.first() {
            Some(&k) => Some(self.range(k, name)?),
            None => None,
        };
        Ok(Some((range, shape.signed.unwrap_or(false))))
    }

    fn add(
        &mut self,
        name: &str,
        pos: usize,
        direction: Option<Direction>,
        range: Option<(i64, i64)>,
        signed: bool,
    ) {
        let (line, column) = self.line_col(pos);
        if let Some(&k) = self.index.get(name) {
            let s = &mut self.sigs[k];
            if let Some(d) = direction {
                if !s.declared || s.sig.direction == Direction::Internal {
                    s.sig.direction = d;
                    s.declared = true;
                    s.sig.line = line;
                    s.sig.column = column;
                }
            } else if !s.declared {
                return;
            }
            if let (Some((m, l)), false) = (range, s.has_range) {
                s.sig.msb = m;
                s.sig.lsb = l;
                s.sig.scalar = false;
                s.has_range = true;
            }
            s.sig.signed |= signed;
            return;
        }
        let (msb, lsb) = range.unwrap_or((0, 0));
        self.index.insert(name.to_string(), self.sigs.len());
        self.sigs.push(Sig {
            sig: HdlSignal {
                name: name.to_string(),
                direction: direction.unwrap_or(Direction::Internal),
                msb,
                lsb,
                signed,
                scalar: range.is_none(),
                line,
                column,
            },
            declared: true,
            has_range: range.is_some(),
        });
    }

    /// A placeholder for a port of a non-ANSI list.
    fn add_port_name(&mut self, name: &str, pos: usize) {
        if self.index.contains_key(name) {
            return;
        }
        let (line, column) = self.line_col(pos);
        self.index.insert(name.to_string(), self.sigs.len());
        self.sigs.push(Sig {
            sig: HdlSignal {
                name: name.to_string(),
                direction: Direction::Internal,
                msb: 0,
                lsb: 0,
                signed: false,
                scalar: true,
                line,
                column,
            },
            declared: false,
            has_range: false,
        });
    }

    fn finish(self) -> Vec<HdlSignal> {
        self.sigs
            .into_iter()
            .filter(|s| s.declared)
            .map(|s| s.sig)
            .collect()
    }

    /// One parameter of a `#(...)` list or a body declaration, in tokens
    /// `a..b` (`NAME = value`, with `parameter`/`localparam` and a type in
    /// front of the first). Returns whether it is local.
    fn param_item(
        &mut self,
        a: usize,
        b: usize,
        local: bool,
        header: bool,
    ) -> Result<bool, PortsError> {
        let mut k = a;
        let mut local = local;
        match self.word(k) {
            Some("parameter") => {
                local = !header && self.header_params;
                k += 1;
            }
            Some("localparam") => {
                local = true;
                k += 1;
            }
            _ => {}
        }
        if self.word(k) == Some("type") {
            return Ok(local);
        }
        let shape = self.shape(&mut k, b);
        let Some(Tok::Ident(name)) = self.tok(k).filter(|_| k < b) else {
            return Ok(local);
        };
        let name = name.clone();
        let eq = (k..b).find(|&j| self.punct(j, "="));
        let overridden = self.take_override(&name, local, self.pos(k))?;
        let mut value = match (overridden, eq) {
            (Some(v), _) => Ok(i128::from(v)),
            (None, Some(e)) => self.eval(e + 1, b).map_err(|(m, _)| m),
            (None, None) => Err("it has no default value".to_string()),
        };
        if NON_INTEGRAL
            .iter()
            .any(|w| (a..k).any(|j| self.word(j) == Some(w)))
        {
            value = Err("it is not an integer".into());
        }
        // A typed parameter holds its value in its type's width.
        if let Ok(v) = value {
            let typed = if let Some((w, s)) = shape.atom {
                Some((w as u32, shape.signed.unwrap_or(s)))
            } else if let Some(&d) = shape.dims.first() {
                match self.range(d, &name) {
                    Ok((m, l)) => Some(((m.abs_diff(l) + 1) as u32, shape.signed.unwrap_or(false))),
                    Err(e) => {
                        value = Err(e.message);
                        None
                    }
                }
            } else {
                None
            };
            if let Some((w, s)) = typed.filter(|(w, _)| *w < 127) {
                let m = (1i128 << w) - 1;
                let mut t = v & m;
                if s && (t >> (w - 1)) & 1 == 1 {
                    t -= 1i128 << w;
                }
                value = Ok(t);
            }
        }
        if !self.param_names.contains(&name) {
            self.param_names.push(name.clone());
        }
        self.params.insert(name, Param { value });
        Ok(local)
    }

    /// The port list in tokens `a..b`.
    fn port_list(&mut self, a: usize, b: usize) -> Result<(), PortsError> {
        let items = self.split_commas(a, b);
        let ansi = items.iter().any(|&(s, e)| {
            !(e == s + 1 && matches!(self.tok(s), Some(Tok::Ident(_))))
                && matches!(self.word(s), Some(w) if matches!(w, "input" | "output" | "inout" | "ref")
                    || KINDS.contains(&w) || ATOMS.iter().any(|t| t.0 == w) || w == "signed")
                || (e > s + 1 && matches!(self.tok(s), Some(Tok::Ident(_))) && matches!(self.tok(s + 1), Some(Tok::Ident(_)) | Some(Tok::Punct("."))) && !matches!(self.tok(s), Some(Tok::Punct("."))))
        });
        if !ansi {
            for (s, e) in items {
                if e == s + 1 {
                    if let Some(Tok::Ident(name)) = self.tok(s) {
                        let name = name.clone();
                        self.add_port_name(&name, self.pos(s));
                    }
                }
            }
            return Ok(());
        }
        // (direction, range, signed, skip) of the previous port.
        let mut prev: Option<(Direction, Option<Range>, bool, bool)> = None;
        for (s, e) in items {
            let mut k = s;
            let direction = match self.word(k) {
                Some("input") => Some(Direction::Input),
                Some("output") => Some(Direction::Output),
                Some("inout") | Some("ref") => Some(Direction::Inout),
                _ => None,
            };
            if direction.is_some() {
                k += 1;
            }
            let shape = self.shape(&mut k, e);
            let Some(Tok::Ident(name)) = self.tok(k).filter(|_| k < e) else {
                prev = None;
                continue;
            };
            let name = name.clone();
            let pos = self.pos(k);
            let (dir, range, signed, skip) = if direction.is_none() && !shape.any {
                match prev {
                    Some(p) => p,
                    None => continue,
                }
            } else {
                let dir = direction.or(prev.map(|p| p.0)).unwrap_or(Direction::Inout);
                match self.resolve(&shape, &name)? {
                    Some((range, signed)) => (dir, range, signed, false),
                    None => (dir, None, false, true),
                }
            };
            // Unpacked dimensions make a port an array: left out.
            let array = self.punct(k + 1, "[") && k + 1 < e;
            if !skip && !array {
                self.add(&name, pos, Some(dir), range, signed);
            }
            prev = Some((dir, range, signed, skip));
        }
        Ok(())
    }

    fn skip_to_semicolon(&mut self) {
        let n = self.toks.len();
        while self.i < n {
            match self.tok(self.i) {
                Some(Tok::Punct(";")) => {
                    self.i += 1;
                    return;
                }
                Some(Tok::Punct("(" | "[" | "{")) => self.i = self.matching(self.i, n),
                Some(Tok::Ident(w)) if w == "endmodule" => return,
                _ => self.i += 1,
            }
        }
    }

    /// Whether the keyword `w` at the current token opens a block that
    /// ends with its own keyword (in a statement that starts at `start`).
    fn opens(&self, w: &str, start: usize) -> bool {
        let prev = self.i.checked_sub(1).and_then(|k| self.word(k));
        match w {
            // `assert property (...)`, `cover sequence (...)`: no block.
            "property" | "sequence" => self.i == start,
            // `default clocking cb;` names a block declared elsewhere.
            "clocking" => {
                self.punct(self.i + 1, "@")
                    || (matches!(self.tok(self.i + 1), Some(Tok::Ident(_)))
                        && self.punct(self.i + 2, "@"))
            }
            // `wait fork;`, `disable fork;`
            "fork" => !matches!(prev, Some("wait" | "disable")),
            _ => opener(w),
        }
    }

    /// Skips one statement or block of the module body.
    fn skip_statement(&mut self) {
        let n = self.toks.len();
        let mut depth = 0usize;
        let start = self.i;
        while self.i < n {
            match self.tok(self.i) {
                Some(Tok::Punct(";")) if depth == 0 => {
                    self.i += 1;
                    return;
                }
                Some(Tok::Punct("(" | "[" | "{")) => {
                    self.i = self.matching(self.i, n);
                    continue;
                }
                Some(Tok::Ident(w)) if w == "endmodule" => {
                    if self.i == start {
                        self.i += 1;
                    }
                    return;
                }
                Some(Tok::Ident(w)) if self.opens(w, start) => depth += 1,
                Some(Tok::Ident(w)) if closer(w) => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.i += 1;
                        if self.punct(self.i, ":")
                            && matches!(self.tok(self.i + 1), Some(Tok::Ident(_)))
                        {
                            self.i += 2;
                        }
                        return;
                    }
                }
                _ => {}
            }
            self.i += 1;
        }
    }

    fn body(&mut self) -> Result<(), PortsError> {
        let n = self.toks.len();
        while self.i < n {
            let before = self.i;
            match self.tok(self.i) {
                Some(Tok::Ident(w)) => match w.as_str() {
                    "endmodule" => return Ok(()),
                    "input" | "output" | "inout" => {
                        let d = match w.as_str() {
                            "input" => Direction::Input,
                            "output" => Direction::Output,
                            _ => Direction::Inout,
                        };
                        self.i += 1;
                        self.declaration(Some(d))?;
                    }
                    "parameter" | "localparam" => {
                        let start = self.i;
                        self.skip_to_semicolon();
                        let end = if self.punct(self.i.saturating_sub(1), ";") {
                            self.i - 1
                        } else {
                            self.i
                        };
                        let mut local = false;
                        for (s, e) in self.split_commas(start, end) {
                            local = self.param_item(s, e, local, false)?;
                        }
                    }
                    "typedef" | "import" | "export" | "genvar" | "defparam" | "specparam"
                    | "bind" | "let" | "nettype" | "alias" | "assign" => self.skip_to_semicolon(),
                    w if KINDS.contains(&w)
                        || ATOMS.iter().any(|a| a.0 == w)
                        || NON_INTEGRAL.contains(&w)
                        || w == "signed" =>
                    {
                        self.declaration(None)?;
                    }
                    _ => self.skip_statement(),
                },
                Some(Tok::Macro(_)) => {
                    self.i += 1;
                    if self.punct(self.i, ";") {
                        self.i += 1;
                    }
                }
                Some(Tok::Punct(";")) => self.i += 1,
                _ => self.skip_statement(),
            }
            if self.i == before {
                self.i += 1;
            }
        }
        Ok(())
    }

    /// A declaration at the current token (after its direction, if any),
    /// up to its `;`.
    fn declaration(&mut self, direction: Option<Direction>) -> Result<(), PortsError> {
        let n = self.toks.len();
        let mut k = self.i;
        let shape = self.shape(&mut k, n);
        self.i = k;
        let mut resolved: Option<Option<(Option<Range>, bool)>> = None;
        loop {
            let Some(Tok::Ident(name)) = self.tok(self.i) else {
                self.skip_to_semicolon();
                return Ok(());
            };
            if name == "endmodule" {
                return Ok(());
            }
            let name = name.clone();
            let pos = self.pos(self.i);
            self.i += 1;
            let array = self.punct(self.i, "[");
            while self.punct(self.i, "[") {
                self.i = self.matching(self.i, n);
            }
            if self.punct(self.i, "=") {
                // An initial value, up to the next `,` or `;`.
                while self.i < n && !self.punct(self.i, ",") && !self.punct(self.i, ";") {
                    if matches!(self.word(self.i), Some("endmodule")) {
                        return Ok(());
                    }
                    if matches!(self.tok(self.i), Some(Tok::Punct("(" | "[" | "{"))) {
                        self.i = self.matching(self.i, n);
                    } else {
                        self.i += 1;
                    }
                }
            }
            if resolved.is_none() {
                resolved = Some(self.resolve(&shape, &name)?);
            }
            if let (Some(Some((range, signed))), false) = (resolved, array) {
                self.add(&name, pos, direction, range, signed);
            }
            if self.punct(self.i, ",") {
                self.i += 1;
                continue;
            }
            if self.punct(self.i, ";") {
                self.i += 1;
            } else {
                self.skip_to_semicolon();
            }
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sigs(src: &str, module: &str) -> Vec<(String, Direction, i64, i64, bool, bool)> {
        match module_signals(src, module, &[]) {
            Ok(v) => v
                .into_iter()
                .map(|s| (s.name, s.direction, s.msb, s.lsb, s.signed, s.scalar))
                .collect(),
            Err(e) => panic!("{e}"),
        }
    }

    fn names(src: &str, module: &str) -> Vec<String> {
        sigs(src, module).into_iter().map(|s| s.0).collect()
    }

    use Direction::*;

    #[test]
    fn ansi_ports() {
        let src = "module m #(parameter W = 8, parameter integer D = 16) (
            input wire [W-1:0] data,
            output reg full,
            input clk, rst,
            input signed [2*W-1:0] wide, other,
            output logic [$clog2(D):0] count,
            inout tri [0:3] bus,
            input integer n,
            input int unsigned u
        );
        endmodule";
        assert_eq!(
            sigs(src, "m"),
            vec![
                ("data".into(), Input, 7, 0, false, false),
                ("full".into(), Output, 0, 0, false, true),
                ("clk".into(), Input, 0, 0, false, true),
                ("rst".into(), Input, 0, 0, false, true),
                ("wide".into(), Input, 15, 0, true, false),
                ("other".into(), Input, 15, 0, true, false),
                ("count".into(), Output, 4, 0, false, false),
                ("bus".into(), Inout, 0, 3, false, false),
                ("n".into(), Input, 31, 0, true, false),
                ("u".into(), Input, 31, 0, false, false),
            ]
        );
    }

    #[test]
    fn ansi_inheritance_changes_only_what_is_written() {
        let src = "module m (input [3:0] a, [7:0] b, output c, d); endmodule";
        assert_eq!(
            sigs(src, "m"),
            vec![
                ("a".into(), Input, 3, 0, false, false),
                ("b".into(), Input, 7, 0, false, false),
                ("c".into(), Output, 0, 0, false, true),
                ("d".into(), Output, 0, 0, false, true),
            ]
        );
    }

    #[test]
    fn non_ansi_ports() {
        let src = "module m (clk, q, d, en);
            parameter W = 4;
            input clk;
            output [W-1:0] q;
            reg [W-1:0] q;
            input [W-1:0] d;
            input en;
            wire [W:0] sum = d + 1, other;
            output dummy;
        endmodule";
        assert_eq!(
            sigs(src, "m"),
            vec![
                ("clk".into(), Input, 0, 0, false, true),
                ("q".into(), Output, 3, 0, false, false),
                ("d".into(), Input, 3, 0, false, false),
                ("en".into(), Input, 0, 0, false, true),
                ("sum".into(), Internal, 4, 0, false, false),
                ("other".into(), Internal, 4, 0, false, false),
                ("dummy".into(), Output, 0, 0, false, true),
            ]
        );
        // The range can come from the variable declaration.
        let src = "module m (q); output q; reg signed [7:0] q; endmodule";
        assert_eq!(
            sigs(src, "m"),
            vec![("q".into(), Output, 7, 0, true, false)]
        );
    }

    #[test]
    fn parameters_and_overrides() {
        let src = "module m #(parameter W = 8, DEPTH = 16, localparam AW = $clog2(DEPTH)) (
            input [W-1:0] d);
            localparam integer HALF = W / 2, TWICE = 2 * W;
            parameter [2:0] SMALL = 13;
            wire [AW-1:0] ptr;
            wire [HALF-1:0] h;
            wire [TWICE-1:0] t;
            wire [SMALL:0] s;
            wire [W > 8 ? 3 : 1 : 0] c;
            wire [2**AW-1:0] p;
        endmodule";
        let got = |o: &[(String, i64)]| -> Vec<(String, i64, i64)> {
            module_signals(src, "m", o)
                .unwrap()
                .into_iter()
                .map(|s| (s.name, s.msb, s.lsb))
                .collect()
        };
        assert_eq!(
            got(&[]),
            vec![
                ("d".into(), 7, 0),
                ("ptr".into(), 3, 0),
                ("h".into(), 3, 0),
                ("t".into(), 15, 0),
                ("s".into(), 5, 0),
                ("c".into(), 1, 0),
                ("p".into(), 15, 0),
            ]
        );
        assert_eq!(
            got(&[("W".into(), 16), ("DEPTH".into(), 4)]),
            vec![
                ("d".into(), 15, 0),
                ("ptr".into(), 1, 0),
                ("h".into(), 7, 0),
                ("t".into(), 31, 0),
                ("s".into(), 5, 0),
                ("c".into(), 3, 0),
                ("p".into(), 3, 0),
            ]
        );
        let e = module_signals(src, "m", &[("WW".into(), 3)]).unwrap_err();
        assert_eq!(
            e.message,
            "module `m` has no parameter `WW`; did you mean `W`? (parameters: W, DEPTH, AW, HALF, TWICE, SMALL)"
        );
        let e = module_signals(src, "m", &[("AW".into(), 3)]).unwrap_err();
        assert_eq!(
            e.message,
            "`AW` is a local parameter of module `m` and cannot be overridden"
        );
        // Without a #(...) list, body parameters can be overridden.
        let src = "module m; parameter W = 2; wire [W-1:0] x; endmodule";
        let s = module_signals(src, "m", &[("W".into(), 5)]).unwrap();
        assert_eq!((s[0].msb, s[0].lsb), (4, 0));
    }

    #[test]
    fn body_declarations() {
        let src = "module m (input clk);
            wire a, b;
            reg [3:0] r1 = 4'd0, r2;
            logic signed [7:0] l;
            bit [0:7] bits;
            var logic v;
            integer i;
            byte by;
            longint unsigned lu;
            time t;
            reg [7:0] mem [0:15];
            real x;
            string name;
            logic [3:0][7:0] packed2;
            state_t st;
            pkg::type_t pt;
            enum logic [1:0] {IDLE, RUN} state;
            struct packed { logic a; } sp;
            wire (strong0, weak1) #3 dw;
            trireg (large) tr;
            wire #(1, 2) [2:0] dl;
            supply0 gnd;
            genvar gi;
        endmodule";
        assert_eq!(
            sigs(src, "m"),
            vec![
                ("clk".into(), Input, 0, 0, false, true),
                ("a".into(), Internal, 0, 0, false, true),
                ("b".into(), Internal, 0, 0, false, true),
                ("r1".into(), Internal, 3, 0, false, false),
                ("r2".into(), Internal, 3, 0, false, false),
                ("l".into(), Internal, 7, 0, true, false),
                ("bits".into(), Internal, 0, 7, false, false),
                ("v".into(), Internal, 0, 0, false, true),
                ("i".into(), Internal, 31, 0, true, false),
                ("by".into(), Internal, 7, 0, true, false),
                ("lu".into(), Internal, 63, 0, false, false),
                ("t".into(), Internal, 63, 0, false, false),
                ("dw".into(), Internal, 0, 0, false, true),
                ("tr".into(), Internal, 0, 0, false, true),
                ("dl".into(), Internal, 2, 0, false, false),
                ("gnd".into(), Internal, 0, 0, false, true),
            ]
        );
    }

    #[test]
    fn blocks_functions_and_generate_are_skipped() {
        let src = "module m (input clk, input [3:0] d);
            function automatic [3:0] inc(input [3:0] x);
                reg [3:0] tmp;
                begin tmp = x + 1; inc = tmp; end
            endfunction
            task show; input integer k; begin $display(\"%d;\", k); end endtask
            always @(posedge clk) begin : blk
                reg [1:0] local_r;
                local_r <= d[1:0];
            end
            always @(*) if (d[0]) begin end else begin end
            wire after_if;
            always_comb
                case (d)
                    4'd0: begin end
                    default: ;
                endcase
            wire after_case;
            generate
                genvar g;
                for (g = 0; g < 2; g = g + 1) begin : gen
                    wire inside_gen;
                end
            endgenerate
            for (genvar h = 0; h < 2; h++) begin : gen2 wire inside_gen2; end
            if (1) begin : gif wire inside_if; end else begin : gel wire inside_else; end
            assert property (@(posedge clk) d != 0);
            a1: cover property (@(posedge clk) d == 1);
            property p_one; @(posedge clk) d != 0; endproperty
            sequence s_one; d == 1 ##1 d == 2; endsequence
            default clocking cb @(posedge clk); endclocking
            initial begin fork begin end join_none wait fork; disable fork; end
            sub #(.W(4)) u_sub (.a(d), .b());
            sub u2 (d, clk);
            assign after_if = 1'b0;
            initial begin : init integer j; j = 0; end
            wire [1:0] last;
        endmodule";
        assert_eq!(
            names(src, "m"),
            ["clk", "d", "after_if", "after_case", "last"]
        );
    }

    #[test]
    fn comments_attributes_strings() {
        let src = "// module fake(input x);
            /* module fake2; */
            (* keep_hierarchy *) module m ( (* mark *) input wire a /* , input b */, // , input c
                input wire [1:0] b);
            (* keep = \"true\" *) wire w1;
            always @(*) begin end
            always @( * ) begin end
            initial $display(\"wire fake;\");
            wire w2;
            endmodule";
        assert_eq!(names(src, "m"), ["a", "b", "w1", "w2"]);
    }

    #[test]
    fn preprocessor() {
        let src = "`ifndef M_V
            `define M_V
            `define WIDTH 8
            `define MSB(w) ((w) - 1)
            `timescale 1ns/1ps
            `default_nettype none
            module m (
            `ifdef WIDE
                input [15:0] d,
            `elsif MEDIUM
                input [11:0] d,
            `else
                input [`WIDTH-1:0] d,
            `endif
                input [`MSB(4):0] e
            );
            `ifdef FORMAL wire formal_only; `endif
            `ifndef FORMAL wire not_formal; `endif
            `ASSERT_KNOWN(d)
            wire [`WIDTH:0] after_macro;
            `undef WIDTH
            `ifdef WIDTH wire gone; `endif
            endmodule
            `endif";
        assert_eq!(
            sigs(src, "m"),
            vec![
                ("d".into(), Input, 7, 0, false, false),
                ("e".into(), Input, 3, 0, false, false),
                ("not_formal".into(), Internal, 0, 0, false, true),
                ("after_macro".into(), Internal, 8, 0, false, false),
            ]
        );
        let with = |defines: &[&str]| -> Vec<String> {
            let options = PortsOptions {
                overrides: Vec::new(),
                defines: defines
                    .iter()
                    .map(|d| (d.to_string(), String::new()))
                    .collect(),
            };
            module_signals_with(src, "m", &options)
                .unwrap()
                .into_iter()
                .map(|s| format!("{}[{}:{}]", s.name, s.msb, s.lsb))
                .collect()
        };
        assert_eq!(with(&["WIDE"])[0], "d[15:0]");
        assert_eq!(with(&["MEDIUM"])[0], "d[11:0]");
        assert_eq!(with(&["WIDE", "MEDIUM"])[0], "d[15:0]");
        assert!(with(&["FORMAL"]).contains(&"formal_only[0:0]".to_string()));
        // The include guard hides everything.
        let guarded = PortsOptions {
            overrides: vec![],
            defines: vec![("M_V".into(), String::new())],
        };
        assert!(module_signals_with(src, "m", &guarded).is_err());
    }

    #[test]
    fn errors() {
        let e = module_signals("module m;\n  wire [N-1:0] x;\nendmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "2:9: cannot evaluate the range [N-1:0] of `x`: `N` is not a parameter of module `m`"
        );
        let e = module_signals("module m; wire [`W-1:0] x; endmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "1:17: cannot evaluate the range [`W-1:0] of `x`: macro `W` is not defined"
        );
        let e = module_signals("module m; wire [7] x; endmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot evaluate the range [7] of `x`: a range is written [MSB:LSB]"
        );
        let e = module_signals("module m; wire [f(3):0] x; endmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot evaluate the range [f(3):0] of `x`: unexpected `(`"
        );
        let e = module_signals(
            "module m; parameter real R = 1.5; wire [R:0] x; endmodule",
            "m",
            &[],
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "cannot evaluate the range [R:0] of `x`: parameter `R` has no value: it is not an integer"
        );
        let e = module_signals("module m; wire [1<<40:0] x; endmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot evaluate the range [1<<40:0] of `x`: 1099511627776 is too large for an index"
        );
        let e = module_signals("module m; wire [70000:0] x; endmodule", "m", &[]).unwrap_err();
        assert_eq!(
            e.message,
            "cannot evaluate the range [70000:0] of `x`: 70001 bits is wider than the 65536 bits supported"
        );
        let e = module_signals("", "m", &[]).unwrap_err();
        assert_eq!(
            e.message,
            "module `m` is not in the source (it has no modules)"
        );
        let e = module_signals(
            "module alpha; endmodule module beta; endmodule",
            "alpah",
            &[],
        )
        .unwrap_err();
        assert_eq!(
            e.message,
            "module `alpah` is not in the source; did you mean `alpha`? (modules: alpha, beta)"
        );
        let e = module_signals("module m; endmodule", "m", &[("W".into(), 1)]).unwrap_err();
        assert_eq!(e.message, "module `m` has no parameter `W` (it has none)");
    }

    #[test]
    fn positions() {
        let src = "module m (\n  input wire [3:0] a,\n\tinput b);\n  reg   [1:0] r;\nendmodule";
        let s = module_signals(src, "m", &[]).unwrap();
        let pos: Vec<_> = s
            .iter()
            .map(|s| (s.name.as_str(), s.line, s.column))
            .collect();
        assert_eq!(pos, [("a", 2, 20), ("b", 3, 8), ("r", 4, 15)]);
    }

    #[test]
    fn picks_the_named_module() {
        let src = "module a (input x); endmodule
                   module b (input [2:0] y); wire z; endmodule";
        assert_eq!(names(src, "b"), ["y", "z"]);
        assert_eq!(names(src, "a"), ["x"]);
        assert_eq!(module_names(src), ["a", "b"]);
    }

    #[test]
    fn to_input_keeps_the_range() {
        let src = "module m (input signed [8:1] d, input e); endmodule";
        let s = module_signals(src, "m", &[]).unwrap();
        assert_eq!(s[0].to_input(), HdlInput::vector("d", 8, 1).signed());
        assert_eq!(s[1].to_input(), HdlInput::scalar("e"));
        assert_eq!(s[0].width(), 8);
        assert_eq!(Direction::Inout.to_string(), "inout");
    }

    #[test]
    fn fuzz_never_panics_or_hangs() {
        use monitor_core::formula::random::SplitMix64;
        let seeds = [
            "module m #(parameter W = 8) (input wire [W-1:0] a, output reg [$clog2(W):0] b);\n\
             `define X(a) (a+1)\n `ifdef Y wire y; `else wire [`X(2):0] n; `endif\n\
             function f; input x; begin f = x; end endfunction\n\
             always @(posedge a[0]) begin : blk reg q; end\n (* keep *) wire [1:0] w = {a[0], 1'b1};\n\
             generate if (W > 1) begin : g wire k; end endgenerate\n endmodule",
            "module n (a, b); input [3:0] a; output b; reg b; parameter P = 2**3; wire [P:0] c; endmodule",
        ];
        let pieces = [
            "module",
            "endmodule",
            "(",
            ")",
            "[",
            "]",
            "{",
            "}",
            ";",
            ",",
            "begin",
            "end",
            "`ifdef",
            "`endif",
            "`else",
            "`define",
            "`",
            "(*",
            "*)",
            "/*",
            "*/",
            "//",
            "\"",
            "\\",
            "input",
            "wire",
            "#(",
            "=",
            ":",
            "?",
            "$clog2(",
            "W",
            "1'b",
            "'h",
            "function",
            "case",
            "\n",
            "é",
            "\u{0}",
            "[W-1:0]",
            "parameter",
            "localparam",
        ];
        let mut rng = SplitMix64::new(11);
        for round in 0..3000 {
            let seed = seeds[round % seeds.len()];
            let mut s: String = seed.to_string();
            for _ in 0..1 + rng.below(4) {
                let bytes: Vec<usize> = s.char_indices().map(|(i, _)| i).chain([s.len()]).collect();
                let a = bytes[rng.below(bytes.len() as u64) as usize];
                let b = bytes[rng.below(bytes.len() as u64) as usize];
                let (a, b) = (a.min(b), a.max(b).min(a.min(b) + 12));
                let b = (b..=s.len())
                    .find(|&e| s.is_char_boundary(e))
                    .unwrap_or(s.len());
                match rng.below(3) {
                    0 => s.replace_range(a..b, ""),
                    1 => s.insert_str(a, pieces[rng.below(pieces.len() as u64) as usize]),
                    _ => s.truncate(a),
                }
            }
            for m in ["m", "n"] {
                let _ = module_signals(&s, m, &[("W".into(), 3)]);
            }
            let _ = module_names(&s);
        }
        // Macro bombs stop.
        let mut bomb = String::from("`define A0 x\n");
        for k in 1..40 {
            bomb.push_str(&format!("`define A{k} `A{} `A{}\n", k - 1, k - 1));
        }
        bomb.push_str("module m; wire [`A39:0] x; endmodule");
        assert!(module_signals(&bomb, "m", &[]).is_err());
        let recursive = "`define R `R\nmodule m; wire [`R:0] x; endmodule";
        assert!(module_signals(recursive, "m", &[]).is_err());
    }
}
