//! Putting hardware checkers to work on a design: a SystemVerilog `bind`
//! file, a formal harness (the design module with its checkers), and a
//! SymbiYosys project that proves the harness.
//!
//! Which tools honour `bind` decides which of these a flow uses: Verilator
//! and commercial tools read the bind file; Icarus Verilog 11 rejects it;
//! Yosys 0.23 parses it and then drops the checkers as unused modules,
//! which leaves nothing to prove and *proves any design*. For Yosys the
//! checkers are instantiated: in the design by hand, or in the harness
//! [`emit_formal_harness`] writes around the design module, and the
//! SymbiYosys project [`emit_sby`] checks that every checker is
//! instantiated before proving (`select -assert-min 1 t:CHECKER`), so a
//! checker that is not there stops the proof with an error.
//!
//! ```
//! use mongen::emit::formal::{emit_bind, CheckerInstance};
//! use mongen::emit::verilog::{checker_instance, VerilogOptions};
//! use monitor_core::translate::Builder;
//!
//! let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
//! let chk = checker_instance(&dfa, &VerilogOptions::default())?;
//! let bind = emit_bind("arbiter", &[chk])?;
//! assert!(bind.contains(
//!     "bind arbiter monitor_checker monitor_chk (.clk(clk), .rst_n(rst_n), .req(req), .ack(ack), .violated(), .fail());"
//! ));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;

use askama::Template;

use super::hardware::clocking::Clocking;
use super::names::{comment_safe, is_identifier, shell_word, verilog_usable};
use super::verilog::CheckerRole;
use super::EmitError;
use crate::hdl::expr::verilog_name;
use crate::hdl::{check_expression, HdlInput};

/// A checker as a bind file or a harness instantiates it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckerInstance {
    /// The checker module (`NAME_checker`).
    pub module: String,
    /// The instance name (`NAME_chk`).
    pub instance: String,
    /// The property, for a comment.
    pub formula: String,
    /// Each port and the expression of the design it reads; outputs have
    /// an empty expression (left unconnected).
    pub connections: Vec<(String, String)>,
    /// Whether the checker asserts, assumes or covers.
    pub role: CheckerRole,
}

impl CheckerInstance {
    /// `.PORT(EXPR), …` for an instance, each expression checked by
    /// [`connection_text`].
    fn connection_list(&self) -> Result<String, EmitError> {
        let mut out = Vec::with_capacity(self.connections.len());
        for (p, e) in &self.connections {
            let port = port_text(p).map_err(|why| {
                EmitError::Formal(format!(
                    "{}: the port `{}` {why}",
                    self.module,
                    comment_safe(p)
                ))
            })?;
            let expr = connection_text(e).map_err(|why| {
                EmitError::Formal(format!(
                    "{} (port {}): the connection `{}` {why}",
                    self.module,
                    comment_safe(p),
                    comment_safe(e)
                ))
            })?;
            out.push(format!(".{port}({expr})"));
        }
        Ok(out.join(", "))
    }
}

/// A checker's port name as an instance writes it after `.`: an
/// identifier, or an escaped one (`\req+1 `, ended by white space).
fn port_text(port: &str) -> Result<String, &'static str> {
    if is_identifier(port) {
        return Ok(port.to_string());
    }
    match port.strip_prefix('\\') {
        Some(rest)
            if !rest.trim_end().is_empty()
                && !rest
                    .trim_end()
                    .contains(|c: char| c.is_whitespace() || c.is_control()) =>
        {
            Ok(format!("\\{} ", rest.trim_end()))
        }
        _ => Err("is not a Verilog identifier"),
    }
}

/// The Verilog text of what an instance connects to a port: an
/// expression that stays inside its parentheses (balanced brackets, no
/// top-level comma, no `;`, comment, string, directive, `#` or attribute),
/// on one line, with a space after an escaped identifier that ends it (the
/// `)` would join the identifier). Anything else is refused: the text
/// lands in code (a bind file, a harness), not in a comment.
fn connection_text(expr: &str) -> Result<String, String> {
    use crate::hdl::expr::{lex_token, Tok};
    if expr.contains(|c: char| c.is_control()) {
        return Err("holds a line break or a control character".into());
    }
    if !expr.is_ascii() {
        return Err("holds a character outside ASCII, which Verilog source cannot".into());
    }
    let b = expr.as_bytes();
    let (mut depth, mut i, mut escaped_end) = (Vec::<&str>::new(), 0, false);
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let t = lex_token(expr, i);
        let piece = &expr[t.pos..t.end];
        let refuse = |what: &str| {
            Err(format!(
                "holds {what} {piece:?}, which would leave the connection"
            ))
        };
        match &t.tok {
            Tok::Str => return refuse("a string"),
            Tok::Macro(_) => return refuse("a directive"),
            Tok::Other(_) => return refuse("the character"),
            Tok::Punct("(") if b.get(t.end) == Some(&b'*') => return refuse("an attribute"),
            Tok::Punct(p @ ("(" | "[" | "{")) => depth.push(p),
            Tok::Punct(p @ (")" | "]" | "}")) => {
                let open = match *p {
                    ")" => "(",
                    "]" => "[",
                    _ => "{",
                };
                if depth.pop() != Some(open) {
                    return refuse("an unbalanced");
                }
            }
            Tok::Punct(";" | "#" | "@") => return refuse("the token"),
            Tok::Punct(",") if depth.is_empty() => return refuse("a top-level"),
            Tok::Punct("/") if matches!(b.get(t.end), Some(b'/' | b'*')) => {
                return refuse("a comment opener")
            }
            _ => {}
        }
        escaped_end = b[i] == b'\\';
        i = t.end.max(i + 1);
    }
    if !depth.is_empty() {
        return Err(format!("leaves `{}` open", depth.join("")));
    }
    let text = expr.trim();
    Ok(if escaped_end {
        format!("{text} ")
    } else {
        text.to_string()
    })
}

/// The direction of a design module's port.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PortDirection {
    /// `input`
    Input,
    /// `output`
    Output,
    /// `inout`
    Inout,
}

/// A port of the design module a harness wraps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DesignPort {
    /// The name and range.
    pub signal: HdlInput,
    /// The direction.
    pub direction: PortDirection,
}

struct InstanceView {
    module: String,
    instance: String,
    formula: String,
    connections: String,
}

/// The checkers as a bind file or a harness writes them; `instances`
/// are their instance names there. Module and instance names must be
/// Verilog identifiers; the formula lands in a comment.
fn views(
    checkers: &[CheckerInstance],
    instances: Option<&[String]>,
) -> Result<Vec<InstanceView>, EmitError> {
    checkers
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let instance = instances.map_or(&c.instance, |names| &names[k]);
            for (what, name) in [("module", &c.module), ("instance", instance)] {
                if !is_identifier(name) || !verilog_usable(name) {
                    return Err(EmitError::Formal(format!(
                        "the checker {what} `{}` is not a Verilog identifier",
                        comment_safe(name)
                    )));
                }
            }
            Ok(InstanceView {
                module: c.module.clone(),
                instance: instance.clone(),
                formula: comment_safe(&c.formula),
                connections: c.connection_list()?,
            })
        })
        .collect()
}

#[derive(Template)]
#[template(path = "verilog/bind.sv")]
struct Bind {
    version: &'static str,
    target: String,
    checkers: Vec<InstanceView>,
}

fn module_identifier(option: &str, name: &str) -> Result<(), EmitError> {
    if is_identifier(name) && verilog_usable(name) {
        Ok(())
    } else {
        Err(EmitError::Formal(format!(
            "{option} {}: not a Verilog module name",
            comment_safe(name)
        )))
    }
}

/// A SystemVerilog file that binds `checkers` into every instance of the
/// module `target`.
///
/// See the [module](self) documentation for an example and for the tools
/// that honour `bind`.
///
/// ```
/// use mongen::emit::formal::emit_bind;
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !overflow")?.into_dfa();
/// let chk = checker_instance(&dfa, &VerilogOptions::default())?;
/// assert!(emit_bind("fifo", &[chk.clone()])?.contains("bind fifo monitor_checker monitor_chk ("));
/// let err = emit_bind("2fifo", &[chk]).unwrap_err();
/// assert_eq!(err.to_string(), "--bind 2fifo: not a Verilog module name");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_bind(target: &str, checkers: &[CheckerInstance]) -> Result<String, EmitError> {
    module_identifier("--bind", target)?;
    super::render(&Bind {
        version: env!("CARGO_PKG_VERSION"),
        target: target.to_string(),
        checkers: views(checkers, None)?,
    })
}

/// Options of [`emit_formal_harness`].
#[derive(Clone, Debug)]
pub struct HarnessOptions {
    /// The harness module's name.
    pub module: String,
    /// The design module.
    pub design: String,
    /// The design module's ports.
    pub ports: Vec<DesignPort>,
    /// The checkers' clock and reset (ports of the design).
    pub clocking: Clocking,
    /// Who reads the harness, for its header (`tasks.sby`).
    pub reader: String,
    /// The file of the design in which the checkers are instantiated, in
    /// the design module itself (see [`emit_instances`]), when they are:
    /// the harness then instantiates none, and they may read the module's
    /// internal signals.
    pub checkers_in: Option<String>,
    /// A module that the design's file binds into the design (its
    /// properties), which the harness instantiates beside it.
    pub bound: Option<BoundInstance>,
}

/// A module bound into the design (`bind DESIGN MODULE #(...) INSTANCE
/// (.*);`), which a harness instantiates beside the design with its ports
/// on the design's ports of the same names (Yosys reads no `bind`).
#[derive(Clone, Debug)]
pub struct BoundInstance {
    /// The module bound.
    pub module: String,
    /// The bind's instance name.
    pub instance: String,
    /// Its ports, each a port of the design of the same name.
    pub ports: Vec<String>,
    /// The bind's parameter value assignment as written, for the
    /// harness's comment (both modules are instantiated with their
    /// defaults).
    pub parameters: Option<String>,
}

#[derive(Template)]
#[template(path = "verilog/formal_top.sv")]
struct Harness {
    version: &'static str,
    module: String,
    design: String,
    count: usize,
    sby: String,
    ports: String,
    design_connections: String,
    checkers: Vec<InstanceView>,
    has_reset: bool,
    clock_event: String,
    reset_active: String,
    /// The design's instance.
    dut: String,
    /// The register of the first cycle.
    init: String,
    /// The file whose design module instantiates the checkers.
    checkers_in: Option<String>,
    /// The bound module's instance: its comment and its text.
    bound: Option<(String, String)>,
}

fn range_text(s: &HdlInput) -> String {
    let signed = if s.signed { "signed " } else { "" };
    if s.scalar {
        signed.to_string()
    } else {
        format!("{signed}[{}:{}] ", s.msb, s.lsb)
    }
}

/// A harness module: the design module with its ports brought out (its
/// inputs are the harness's, free for a prover), and the checkers
/// connected to them; under `FORMAL`, the reset is assumed active in the
/// first cycle. An error names a checker that reads something other than
/// the design's ports (Yosys cannot reach inside a module: instantiate
/// that checker in the design).
///
/// ```
/// use mongen::emit::formal::{emit_formal_harness, DesignPort, HarnessOptions, PortDirection};
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use mongen::hdl::HdlInput;
/// use monitor_core::translate::Builder;
///
/// let port = |n: &str, d| DesignPort { signal: HdlInput::scalar(n), direction: d };
/// let opts = HarnessOptions {
///     module: "monitor_formal".into(),
///     design: "arbiter".into(),
///     ports: vec![
///         port("clk", PortDirection::Input),
///         port("rst_n", PortDirection::Input),
///         port("req", PortDirection::Input),
///         port("ack", PortDirection::Output),
///     ],
///     clocking: Default::default(),
///     reader: "monitor.sby".into(),
///     checkers_in: None,
///     bound: None,
/// };
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let chk = checker_instance(&dfa, &VerilogOptions::default())?;
/// let v = emit_formal_harness(&opts, &[chk.clone()])?;
/// assert!(v.contains("  arbiter dut (.clk(clk), .rst_n(rst_n), .req(req), .ack(ack));"));
/// assert!(v.contains("  always @* if (f_init) assume (!rst_n);"));
///
/// let inside = Builder::new().build("G(busy -> X ack)")?.into_dfa();
/// let err = emit_formal_harness(&opts, &[checker_instance(&inside, &VerilogOptions::default())?]);
/// assert!(err.unwrap_err().to_string().contains("`busy`"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_formal_harness(
    opts: &HarnessOptions,
    checkers: &[CheckerInstance],
) -> Result<String, EmitError> {
    module_identifier("--name", &opts.module)?;
    module_identifier("--sby", &opts.design)?;
    let signals: Vec<HdlInput> = opts.ports.iter().map(|p| p.signal.clone()).collect();
    let is_port = |n: &str| signals.iter().any(|s| s.name == n);
    let condition = opts
        .clocking
        .reset
        .as_ref()
        .and_then(|r| r.condition.as_ref());
    if let Some(cond) = condition {
        // The proof starts where the design's reset holds: the harness
        // assumes it, over the design's ports.
        check_expression(&cond.initial, &signals).map_err(|e| {
            EmitError::Formal(format!(
                "the reset condition's first-cycle assumption `{}`: {}; the harness reads \
                 the ports of {} only",
                comment_safe(&cond.initial),
                e.message,
                opts.design
            ))
        })?;
    }
    for name in opts.clocking.port_names() {
        // A reset condition's port is the checker's, not the design's.
        if condition.is_some() && Some(name) != Some(opts.clocking.clock.name.as_str()) {
            continue;
        }
        if !is_port(name) {
            return Err(EmitError::Formal(format!(
                "the module {} has no port `{name}` for the checkers' clock or reset \
                 (--clock, --reset, --no-reset)",
                opts.design
            )));
        }
    }
    let checkers = if opts.checkers_in.is_some() {
        &[]
    } else {
        checkers
    };
    for c in checkers {
        for (port, expr) in &c.connections {
            if expr.is_empty() {
                continue;
            }
            check_expression(expr, &signals).map_err(|e| {
                EmitError::Formal(format!(
                    "{} (port {port}): `{expr}`: {}; a harness connects the checkers to the \
                     ports of {} only, as Yosys reaches inside no module (no bind, no \
                     hierarchical names): instantiate this checker in {} itself",
                    c.module, e.message, opts.design, opts.design
                ))
            })?;
        }
    }
    for p in &opts.ports {
        let n = &p.signal.name;
        if n.is_empty()
            || n.contains(|c: char| c.is_whitespace() || c.is_control())
            || !n.is_ascii()
        {
            return Err(EmitError::Formal(format!(
                "the module {} has a port `{}` that no Verilog identifier can name",
                opts.design,
                comment_safe(n)
            )));
        }
    }
    if opts.ports.iter().any(|p| p.signal.name == opts.module) {
        return Err(EmitError::Formal(format!(
            "the module {} has a port named {}, the harness module's name, which Verilator \
             cannot simulate: choose another name for the harness",
            opts.design, opts.module
        )));
    }
    // The harness's own names (the design's instance, the reset register,
    // the checkers' instances) share the module's scope with the design's
    // ports, which are the harness's: each avoids them, the modules'
    // names, and the others.
    let mut taken: HashSet<String> = opts.ports.iter().map(|p| p.signal.name.clone()).collect();
    taken.insert(opts.module.clone());
    taken.insert(opts.design.clone());
    taken.extend(checkers.iter().map(|c| c.module.clone()));
    let mut fresh = |wanted: &str| {
        let mut name = wanted.to_string();
        let mut k = 2;
        while taken.contains(&name) || !verilog_usable(&name) {
            name = format!("{wanted}_{k}");
            k += 1;
        }
        taken.insert(name.clone());
        name
    };
    let instances: Vec<String> = checkers.iter().map(|c| fresh(&c.instance)).collect();
    let dut = fresh("dut");
    let init = fresh("f_init");
    let bound = opts.bound.as_ref().map(|b| {
        // The bind's instance name, when it is a plain identifier (an
        // escaped one, as sv-parser gives it, holds any bytes).
        let instance = if is_identifier(&b.instance) {
            fresh(&b.instance)
        } else {
            fresh("bound_properties")
        };
        let connections: Vec<String> = b
            .ports
            .iter()
            .map(|p| format!(".{0}({0})", verilog_name(p)))
            .collect();
        let comment = format!(
            "bind {} {} {}{} (.*): the properties' module, bound into the design by its file, on \
             the design's ports (both with their default parameters)",
            comment_safe(&opts.design),
            comment_safe(&b.module),
            b.parameters.as_deref().map_or(String::new(), |p| {
                let words: Vec<&str> = p.split_whitespace().collect();
                format!("{} ", comment_safe(&words.join(" ")))
            }),
            comment_safe(&b.instance),
        );
        let text = format!(
            "{} {} ({});",
            verilog_name(&b.module),
            verilog_name(&instance),
            connections.join(", ")
        );
        (comment, text)
    });
    let ports = opts
        .ports
        .iter()
        .map(|p| {
            let direction = match p.direction {
                PortDirection::Input => "input ",
                PortDirection::Inout => "inout ",
                PortDirection::Output => "output",
            };
            format!(
                "  {direction} wire {}{}",
                range_text(&p.signal),
                verilog_name(&p.signal.name)
            )
        })
        .collect::<Vec<_>>()
        .join(",\n");
    let hw = super::hardware::HardwareClocking::new(&opts.clocking);
    super::render(&Harness {
        version: env!("CARGO_PKG_VERSION"),
        module: opts.module.clone(),
        design: opts.design.clone(),
        count: checkers.len(),
        checkers_in: opts.checkers_in.as_deref().map(comment_safe),
        sby: comment_safe(&opts.reader),
        ports,
        design_connections: opts
            .ports
            .iter()
            .map(|p| format!(".{0}({0})", verilog_name(&p.signal.name)))
            .collect::<Vec<_>>()
            .join(", "),
        checkers: views(checkers, Some(&instances))?,
        has_reset: opts.clocking.reset.is_some(),
        clock_event: hw.clock_event,
        reset_active: match condition {
            Some(cond) => cond.initial.clone(),
            None => hw.reset_active,
        },
        dut,
        init,
        bound,
    })
}

#[derive(Template)]
#[template(path = "verilog/instances.sv")]
struct Instances {
    version: &'static str,
    module: String,
    checkers: Vec<InstanceView>,
}

/// The instances of `checkers` as items of the module `module`, to insert
/// in it (before its `endmodule`): there they read the module's internal
/// signals, which a harness cannot reach and Yosys, without `bind`, cannot
/// either. Instance names avoid `taken` (the module's own names).
///
/// ```
/// use mongen::emit::formal::emit_instances;
/// use mongen::emit::verilog::{checker_instance, VerilogOptions};
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G !overflow")?.into_dfa();
/// let chk = checker_instance(&dfa, &VerilogOptions::default())?;
/// let items = emit_instances("fifo", &[chk], &["monitor_chk".to_string()])?;
/// assert!(items.contains("  monitor_checker monitor_chk_2 ("));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn emit_instances(
    module: &str,
    checkers: &[CheckerInstance],
    taken: &[String],
) -> Result<String, EmitError> {
    module_identifier("--sby", module)?;
    let mut used: HashSet<String> = taken.iter().cloned().collect();
    used.insert(module.to_string());
    used.extend(checkers.iter().map(|c| c.module.clone()));
    let instances: Vec<String> = checkers
        .iter()
        .map(|c| {
            let mut name = c.instance.clone();
            let mut k = 2;
            while used.contains(&name) || !verilog_usable(&name) {
                name = format!("{}_{k}", c.instance);
                k += 1;
            }
            used.insert(name.clone());
            name
        })
        .collect();
    super::render(&Instances {
        version: env!("CARGO_PKG_VERSION"),
        module: module.to_string(),
        checkers: views(checkers, Some(&instances))?,
    })
}

/// Options of [`emit_sby`].
#[derive(Clone, Debug)]
pub struct SbyOptions {
    /// The project file's name (`monitor.sby`), for its usage lines.
    pub file: String,
    /// The design module.
    pub design: String,
    /// The harness module (the top of the proof).
    pub top: String,
    /// The harness file's name.
    pub harness: String,
    /// The files to read (design, checkers, harness), as `[files]` lists
    /// them: paths from the project file's folder.
    pub files: Vec<String>,
    /// The depth of induction and of bounded model checking.
    pub depth: u32,
    /// The SMT solver of `smtbmc` (`z3`, `yices`, `boolector`).
    pub solver: String,
    /// The properties asked for that have no checker here (refused or
    /// failed, `--keep-going`): the header names them, so that a proof is
    /// not taken for theirs.
    pub left_out: Vec<String>,
}

#[derive(Template)]
#[template(path = "sby/project.sby")]
struct Sby {
    version: &'static str,
    design: String,
    harness: String,
    count: usize,
    assumptions: usize,
    covers: usize,
    file: String,
    depth: u32,
    engine: String,
    top: String,
    /// The lines of `[files]`.
    files: Vec<String>,
    /// The names of the copies `[script]` reads.
    file_names: Vec<String>,
    /// `[file NAME]` sections: the name and the `include line.
    includes: Vec<(String, String)>,
    checkers: Vec<InstanceView>,
    /// The shell command of Yosys alone.
    yosys_command: String,
    /// The names of the properties left out, safe in a comment.
    left_out: Vec<String>,
}

/// The base name of a path.
fn base_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// Whether Yosys reads `s` as one file-name argument without quotes.
fn yosys_plain(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./+-".contains(c))
}

/// A path as Yosys's command line reads it: in double quotes when it holds
/// anything but letters, digits and `_./+-` (Yosys's tokenizer keeps a
/// quoted word whole, `;` and white space included, and
/// `read_verilog` drops the quotes). Such a path cannot hold `"`.
fn yosys_word(path: &str) -> String {
    if yosys_plain(path) {
        path.to_string()
    } else {
        format!("\"{path}\"")
    }
}

/// A path of the project (relative to its folder) that SymbiYosys and
/// Yosys can both be given, or why not; `./` in front of a path that a
/// reader would take for something else (`~`: the home folder; `#`: a
/// comment; `[`: a section; `-`: an option; `+`: Yosys's share folder).
fn project_path(path: &str) -> Result<String, String> {
    if path.is_empty() {
        return Err("an empty path".into());
    }
    if path.contains(|c: char| c.is_control() || c == '"') {
        return Err(format!(
            "`{}`: SymbiYosys and Yosys cannot read a path holding a line break, a control \
             character or `\"`; rename the file",
            comment_safe(path)
        ));
    }
    Ok(if path.starts_with(['~', '#', '[', '-', '+']) {
        format!("./{path}")
    } else {
        path.to_string()
    })
}

/// Whether SymbiYosys's `[files]` can list `path`: it splits its lines at
/// white space and expands `$VARIABLES` in paths.
fn sby_listable(path: &str) -> bool {
    !path.contains(|c: char| c.is_whitespace() || c == '$')
}

/// A name for the copy of `path` in SymbiYosys's `src` folder: its base
/// name with characters other than letters, digits and `_.+-` replaced by
/// `_`, a letter in front of one that starts otherwise, and a number
/// before the extension when two files would share it.
fn local_name(path: &str, taken: &mut HashSet<String>) -> String {
    let clean: String = base_name(path)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_.+-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let clean = if clean.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        clean
    } else {
        format!("f{clean}")
    };
    let (stem, ext) = match clean.rfind('.') {
        Some(k) if k > 0 => (&clean[..k], &clean[k..]),
        _ => (clean.as_str(), ""),
    };
    let mut name = clean.clone();
    let mut k = 2;
    while !taken.insert(name.clone()) {
        name = format!("{stem}_{k}{ext}");
        k += 1;
    }
    name
}

/// How the project lists one file: its `[files]` line, or a `[file NAME]`
/// section that includes it (a path `[files]` cannot list); and the name
/// of its copy, which `[script]` reads.
struct ProjectFile {
    /// The path as Yosys and SymbiYosys are given it ([`project_path`]).
    path: String,
    local: String,
    files_line: Option<String>,
    include: Option<String>,
}

fn project_file(path: &str, taken: &mut HashSet<String>) -> Result<ProjectFile, String> {
    let path = project_path(path)?;
    let local = local_name(&path, taken);
    if sby_listable(&path) {
        let files_line = if base_name(&path) == local {
            path.clone()
        } else {
            format!("{local} {path}")
        };
        return Ok(ProjectFile {
            path,
            local,
            files_line: Some(files_line),
            include: None,
        });
    }
    if path.contains('\\') {
        return Err(format!(
            "`{}`: SymbiYosys's [files] cannot list a path with white space or `$`, and a \
             Verilog `include of it cannot hold `\\`; rename the file",
            comment_safe(&path)
        ));
    }
    // SymbiYosys runs Yosys in TASK/src beside the project file: the path
    // from there.
    let from_src = if path.starts_with('/') {
        path.clone()
    } else {
        format!("../../{path}")
    };
    Ok(ProjectFile {
        path,
        local,
        files_line: None,
        include: Some(format!("`include \"{from_src}\"")),
    })
}

/// A SymbiYosys project proving the harness `top`: tasks `prove`
/// (k-induction) and `bmc`, and `cover` when a checker covers, engine
/// `smtbmc`, and a script that stops with an error when a checker is not
/// instantiated.
///
/// ```
/// use mongen::emit::formal::{emit_sby, CheckerInstance, SbyOptions};
/// use mongen::emit::verilog::CheckerRole;
///
/// let chk = CheckerInstance {
///     module: "p_checker".into(),
///     instance: "p_chk".into(),
///     formula: "G a".into(),
///     connections: vec![],
///     role: CheckerRole::Assert,
/// };
/// let opts = SbyOptions {
///     file: "p.sby".into(),
///     design: "dut".into(),
///     top: "p_formal".into(),
///     harness: "p_formal.sv".into(),
///     files: vec!["../rtl/dut.v".into(), "p_checker.v".into(), "p_formal.sv".into()],
///     depth: 20,
///     solver: "z3".into(),
///     left_out: vec!["unsupported_A".into()],
/// };
/// let sby = emit_sby(&opts, &[chk])?;
/// assert!(sby.contains("# NOT CHECKED: 1 property"));
/// assert!(sby.contains("#   unsupported_A\n"));
/// assert!(sby.contains("read_verilog -formal -sv dut.v p_checker.v p_formal.sv\nprep -top p_formal\n"));
/// assert!(sby.contains("select -assert-min 1 t:p_checker\n"));
/// assert!(sby.contains("[files]\n../rtl/dut.v\n"));
/// # Ok::<(), mongen::emit::EmitError>(())
/// ```
pub fn emit_sby(opts: &SbyOptions, checkers: &[CheckerInstance]) -> Result<String, EmitError> {
    module_identifier("--sby", &opts.design)?;
    module_identifier("--name", &opts.top)?;
    let mut taken = HashSet::new();
    let mut files = Vec::with_capacity(opts.files.len());
    let mut read = Vec::with_capacity(opts.files.len());
    for f in &opts.files {
        let file = project_file(f, &mut taken).map_err(EmitError::Formal)?;
        read.push(yosys_word(&file.path));
        files.push(file);
    }
    let checker_views = views(checkers, None)?;
    let mut script = format!(
        "read_verilog -formal -sv {}; prep -top {}; ",
        read.join(" "),
        opts.top
    );
    for c in checkers {
        script.push_str(&format!("select -assert-min 1 t:{}; ", c.module));
    }
    script.push_str("flatten; ");
    // `sat` cannot read cover cells: it proves the assertions only.
    if checkers.iter().any(|c| c.role == CheckerRole::Cover) {
        script.push_str("chformal -cover -remove; ");
    }
    script.push_str(&format!(
        "async2sync; dffunmap; sat -tempinduct -prove-asserts -set-assumes -maxsteps {} {}",
        opts.depth, opts.top
    ));
    super::render(&Sby {
        version: env!("CARGO_PKG_VERSION"),
        design: opts.design.clone(),
        harness: comment_safe(&opts.harness),
        count: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Assert)
            .count(),
        assumptions: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Assume)
            .count(),
        covers: checkers
            .iter()
            .filter(|c| c.role == CheckerRole::Cover)
            .count(),
        file: shell_word(&opts.file),
        depth: opts.depth,
        // SymbiYosys runs z3 incrementally, without unrolling, by default;
        // z3 4.8 (Debian 12's) then stalls in the first step on designs as
        // small as a FIFO's read side, and solves them at once unrolled.
        engine: if opts.solver == "z3" {
            "smtbmc --unroll z3".to_string()
        } else {
            format!("smtbmc {}", opts.solver)
        },
        top: opts.top.clone(),
        file_names: files.iter().map(|f| f.local.clone()).collect(),
        includes: files
            .iter()
            .filter_map(|f| Some((f.local.clone(), f.include.clone()?)))
            .collect(),
        files: files.into_iter().filter_map(|f| f.files_line).collect(),
        checkers: checker_views,
        yosys_command: format!("yosys -p {}", shell_word(&script)),
        left_out: opts.left_out.iter().map(|n| comment_safe(n)).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_stay_inside_their_parentheses() {
        assert_eq!(
            connection_text("a && b[1:0] == {c, d}").unwrap(),
            "a && b[1:0] == {c, d}"
        );
        // The `)` after an escaped identifier would join it.
        assert_eq!(connection_text("\\req+1 ").unwrap(), "\\req+1 ");
        assert_eq!(connection_text("x && \\a+b").unwrap(), "x && \\a+b ");
        for bad in [
            "a), .fail(b",
            "a; initial $finish",
            "a // b",
            "a /* b",
            "\"s\"",
            "`define X",
            "a\nb",
            "(a",
            "a]",
            "a, b",
            "#1 a",
            "(* keep *) a",
            "caf\u{e9}",
        ] {
            assert!(connection_text(bad).is_err(), "{bad:?}");
        }
        assert_eq!(port_text("\\req+1 ").unwrap(), "\\req+1 ");
        assert!(port_text("a b").is_err() && port_text("a)").is_err());
    }

    #[test]
    fn project_files_get_plain_unique_names() {
        let mut taken = HashSet::new();
        let f = project_file("../rtl/dut.v", &mut taken).unwrap();
        assert_eq!(f.files_line.as_deref(), Some("../rtl/dut.v"));
        let f = project_file("other/dut.v", &mut taken).unwrap();
        assert_eq!(
            (f.local.as_str(), f.files_line.as_deref()),
            ("dut_2.v", Some("dut_2.v other/dut.v"))
        );
        let f = project_file("-x.v", &mut taken).unwrap();
        assert_eq!(f.files_line.as_deref(), Some("f-x.v ./-x.v"));
        let f = project_file("my rtl/$HOME.v", &mut taken).unwrap();
        assert_eq!(f.local, "_HOME.v");
        assert_eq!(
            f.include.as_deref(),
            Some("`include \"../../my rtl/$HOME.v\"")
        );
        assert!(project_file("a\nb.v", &mut taken).is_err());
        assert!(project_file("a \\ b.v", &mut taken).is_err());
        assert_eq!(yosys_word("it's.v"), "\"it's.v\"");
        assert_eq!(yosys_word("../rtl/dut.v"), "../rtl/dut.v");
    }
}
