//! `compile --vunit FILE`: the directives of PSL verification units, one
//! checker each.

use std::path::Path;

use monitor_core::formula::{parse_vunits, Directive};

use crate::cli_input::Source;

/// The directives of a `.psl` file, with the names of their checkers.
pub struct VunitProperties {
    /// One per directive, for diagnostics (the property's text and line).
    pub sources: Vec<Source>,
    pub directives: Vec<Directive>,
    /// The checkers' names: the directive's label, or the unit's name and
    /// the directive's number in the unit (`fifo_props_2`).
    pub names: Vec<String>,
    /// The modules the units name (`vunit v (fifo)`), each once.
    pub modules: Vec<String>,
    /// The units' names, in the file's order.
    pub units: Vec<String>,
    pub(crate) file: String,
    /// What the file holds, for messages: "vunit" or "SystemVerilog file".
    pub(crate) holder: &'static str,
    /// `--sv`: the file and what was read from it (the design without its
    /// assertions goes to a formal harness).
    pub(crate) sv: Option<(std::path::PathBuf, mongen_sv::Design)>,
    /// `--sv`: for each directive, the signals its module declares with
    /// a known width (the checkers' ports, as `--design` gives them);
    /// empty for a vunit.
    pub(crate) declared: Vec<Vec<mongen::hdl::HdlInput>>,
    /// `--sv`: the assertions the front end refuses (the others are
    /// read): each one's name (its label, or where it is) and error.
    pub(crate) refused: Vec<(String, String)>,
}

impl VunitProperties {
    /// Reports the refused assertions as errors (the run goes on with
    /// the others, and exits with 2); an error when none is left.
    pub(crate) fn report_refused(&self, run: &mut crate::output::Run) -> Result<(), String> {
        for (_, e) in &self.refused {
            run.error(e);
        }
        if self.directives.is_empty() && !self.refused.is_empty() {
            return Err(format!(
                "{}: none of its assertions is read ({} refused)",
                self.file,
                self.refused.len()
            ));
        }
        Ok(())
    }
}

impl VunitProperties {
    /// The name of the file's unit, when it has one unit.
    pub fn unit_name(&self) -> Option<&str> {
        match self.units.as_slice() {
            [u] => Some(u),
            _ => None,
        }
    }

    /// The module the units check, for --bind, --sby and --design when
    /// they name none: one for all of them.
    pub fn module(&self) -> Result<&str, String> {
        match self.modules.as_slice() {
            [m] => Ok(m),
            [] if self.holder == "vunit" => Err(format!(
                "{}: no vunit names its module (`vunit NAME (MODULE) {{ ... }}`): give the module \
                 to --bind or --sby",
                self.file
            )),
            [] => Err(format!(
                "{}: no module holds an assertion: give the module to --bind or --sby",
                self.file
            )),
            ms => {
                Err(format!(
                "{}: the {} name several modules ({}): give the one to check to --bind or --sby",
                self.file,
                if self.holder == "vunit" { "vunits" } else { "assertions' modules" },
                ms.join(", ")
            ))
            }
        }
    }
}

/// Reads the verification units of `path`.
pub fn read_vunits(path: &Path) -> Result<VunitProperties, String> {
    let file = path.display().to_string();
    let input = std::fs::read_to_string(path)
        .map_err(|e| format!("--vunit {file}: cannot read it: {e}"))?;
    let units = parse_vunits(&input).map_err(|e| format!("{file}: {e}"))?;
    let mut out = VunitProperties {
        sources: Vec::new(),
        directives: Vec::new(),
        names: Vec::new(),
        modules: Vec::new(),
        units: Vec::new(),
        file: file.clone(),
        holder: "vunit",
        sv: None,
        declared: Vec::new(),
        refused: Vec::new(),
    };
    for unit in units {
        out.units.push(unit.name.clone());
        if let Some(m) = &unit.module {
            // `top.u_fifo` binds to an instance: the checkers go on its
            // module, named last.
            let m = m.rsplit('.').next().unwrap_or(m).to_string();
            if !out.modules.contains(&m) {
                out.modules.push(m);
            }
        }
        for (i, d) in unit.directives.into_iter().enumerate() {
            let name = d
                .label
                .clone()
                .unwrap_or_else(|| format!("{}_{}", unit.name, i + 1));
            if out.names.contains(&name) {
                let line = line_of(&input, d.span.start);
                return Err(format!(
                    "{file}:{line}: a second directive named `{name}`: each one becomes the \
                     checker {name}_checker; give them different labels"
                ));
            }
            out.sources.push(Source {
                text: d.text.clone(),
                file: Some(file.clone()),
                line: line_of(&input, d.span.start),
                csv: None,
                lang: crate::cli_input::Language::Psl,
            });
            out.names.push(name);
            out.directives.push(d);
        }
    }
    if out.directives.is_empty() {
        return Err(format!(
            "{file}: no directive (assert, assume, restrict or cover) in its vunits"
        ));
    }
    Ok(out)
}

/// The 1-based line of the byte offset `at`.
fn line_of(input: &str, at: usize) -> usize {
    1 + input.as_bytes()[..at.min(input.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
}
