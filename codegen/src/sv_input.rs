//! `--sv FILE`: the concurrent assertions of a SystemVerilog file (read by
//! the `mongen-sv` crate), one checker or one checked property each, as
//! the directives of a vunit are.

use std::path::{Path, PathBuf};

use monitor_core::formula::{DirectiveKind, Formula, Op};

use crate::cli_input::{Language, Source};
use crate::vunit_input::VunitProperties;

/// The preprocessor's options: `-D NAME[=VALUE]`, `-I DIR`.
pub struct SvOptions<'a> {
    pub defines: &'a [String],
    pub include_dirs: &'a [PathBuf],
    /// `-P NAME=VALUE`: module parameters for generate constructs.
    pub parameters: &'a [String],
}

/// Reads the assertions of `path`, named by their labels (or
/// `MODULE_k`, the k-th assertion of the module).
pub fn read_sv(path: &Path, options: &SvOptions<'_>) -> Result<VunitProperties, String> {
    let file = path.display().to_string();
    let mut sv = mongen_sv::Options::new();
    for d in options.defines {
        let (name, value) = match d.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (d.as_str(), None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "-D {d}: not a macro name (letters, digits and `_`, then `=VALUE` if any)"
            ));
        }
        sv = sv.define(name, value);
    }
    for dir in options.include_dirs {
        sv = sv.include_dir(dir.clone());
    }
    for p in options.parameters {
        let Some((name, value)) = p.split_once('=') else {
            return Err(format!("-P {p}: give a parameter's value as NAME=VALUE"));
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(format!(
                "-P {p}: not a parameter name (letters, digits and `_`)"
            ));
        }
        sv = sv.parameter(name, value);
    }
    let design = mongen_sv::read_file(path, &sv).map_err(|e| e.to_string())?;
    let mut out = VunitProperties {
        sources: Vec::new(),
        directives: Vec::new(),
        names: Vec::new(),
        modules: Vec::new(),
        units: Vec::new(),
        file: file.clone(),
        holder: "SystemVerilog file",
        sv: None,
        declared: Vec::new(),
        refused: design
            .refused
            .iter()
            .map(|e| {
                let name = match (e.label(), e.location()) {
                    (Some(label), _) => label.to_string(),
                    (None, Some(at)) => format!("the assertion at {at}"),
                    (None, None) => "an assertion".to_string(),
                };
                (name, e.to_string())
            })
            .collect(),
    };
    let mut per_module: Vec<(String, usize)> = Vec::new();
    for a in &design.assertions {
        let k = match per_module.iter_mut().find(|(m, _)| *m == a.module) {
            Some((_, k)) => {
                *k += 1;
                *k
            }
            None => {
                per_module.push((a.module.clone(), 1));
                1
            }
        };
        if !out.modules.contains(&a.module) {
            out.modules.push(a.module.clone());
        }
        // In a generate block, the name a simulator gives (`g[2].label`),
        // made an identifier of every target (`g_2_label`).
        let name = a
            .directive
            .label
            .clone()
            .unwrap_or_else(|| format!("{}_{k}", a.module));
        let name = format!("{}{name}", a.scope)
            .replace('[', "_")
            .replace(']', "")
            .replace('.', "_");
        if out.names.contains(&name) {
            return Err(format!(
                "{}: a second assertion named `{name}`{}: each one becomes the checker \
                 {name}_checker; give them different labels",
                a.location,
                if a.scope.is_empty() {
                    String::new()
                } else {
                    format!(
                        " (`{}{}` in its generate block)",
                        a.scope,
                        a.directive.label.as_deref().unwrap_or("")
                    )
                }
            ));
        }
        out.sources.push(Source {
            text: a.directive.text.clone(),
            file: Some(a.location.file.display().to_string()),
            line: a.location.line,
            csv: None,
            lang: Language::Sva,
        });
        out.names.push(name);
        out.directives.push(a.directive.clone());
        out.declared.push(declared_signals(&design, &a.module));
    }
    if out.directives.is_empty() && out.refused.is_empty() {
        return Err(format!(
            "{file}: no concurrent assertion (assert, assume, restrict or cover property) in its \
             modules{}",
            if options.defines.is_empty() {
                " (are they under an `ifdef that needs -D NAME?)"
            } else {
                ""
            }
        ));
    }
    // What is generated is named after the module (when there is one),
    // as after a vunit.
    out.units = out.modules.clone();
    out.sv = Some((path.to_path_buf(), design));
    Ok(out)
}

/// The signals of `module` whose width is known, as checker inputs.
fn declared_signals(design: &mongen_sv::Design, module: &str) -> Vec<mongen::hdl::HdlInput> {
    use mongen::hdl::HdlInput;
    design
        .signals(module)
        .iter()
        .filter_map(|(name, width)| match width {
            Some(mongen_sv::Width::Scalar) => Some(HdlInput::scalar(name)),
            Some(mongen_sv::Width::Vector { msb, lsb, signed }) => {
                let v = HdlInput::vector(name, i64::from(*msb), i64::from(*lsb));
                Some(if *signed { v.signed() } else { v })
            }
            None => None,
        })
        .collect()
}

/// For the targets that read one letter per cycle (HOA, DOT, JSON,
/// Promela, SMV, Rust): the assertions alone (assumptions, restrictions
/// and covers are for the hardware checkers, each named in a note), as
/// monitors of one letter per tick of their clock, their `disable iff`
/// made part of the formula: `always (accept_on (b) p)`, the standard's
/// meaning of an attempt disabled while `b` holds. Returns the notes.
pub fn unclocked(v: &mut VunitProperties) -> Vec<String> {
    let mut notes = Vec::new();
    let mut clocks: Vec<String> = Vec::new();
    let mut keep = Vec::new();
    for (k, d) in v.directives.iter_mut().enumerate() {
        if d.kind != DirectiveKind::Assert {
            notes.push(format!(
                "`{}`: {} directive, compiled only for --target verilog and sva (checkers that \
                 formal tools assume or cover)",
                v.names[k],
                match d.kind {
                    DirectiveKind::Assume => "an assume",
                    DirectiveKind::Restrict => "a restrict",
                    _ => "a cover",
                }
            ));
            continue;
        }
        if let Some(c) = d.clock.take() {
            let c = c.to_string();
            if !clocks.contains(&c) {
                clocks.push(c);
            }
        }
        if let Some(dis) = d.disable.take() {
            let inner = if d.formula.op() == Op::G {
                d.formula.child(0).clone()
            } else {
                d.formula.clone()
            };
            d.formula = Formula::always(Formula::abort(inner, dis.condition));
        }
        keep.push(k);
    }
    if !clocks.is_empty() {
        notes.push(format!(
            "the monitors read one letter per tick of the assertions' clock ({}), and their \
             `disable iff` is part of each formula (accept_on)",
            clocks.join(", ")
        ));
    }
    pick(&mut v.directives, &keep);
    pick(&mut v.sources, &keep);
    pick(&mut v.names, &keep);
    pick(&mut v.declared, &keep);
    notes
}

/// Keeps the items of `all` at the indices `keep`.
fn pick<T>(all: &mut Vec<T>, keep: &[usize]) {
    let mut i = 0;
    all.retain(|_| {
        i += 1;
        keep.contains(&(i - 1))
    });
}
