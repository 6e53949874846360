//! `compile --bind MODULE` and `--sby MODULE`: the files beside the
//! checkers that put them to work on a design.

use std::path::{Path, PathBuf};

use mongen::emit::formal::{
    emit_bind, emit_formal_harness, emit_instances, emit_sby, BoundInstance, CheckerInstance,
    DesignPort, HarnessOptions, PortDirection, SbyOptions,
};
use mongen::emit::hardware::clocking::Clocking;
use mongen::hdl::ports::{module_names, module_signals, Direction, HdlSignal};
use mongen::hdl::HdlInput;

use super::{CompileArgs, Target};

/// What to write after the checkers.
pub struct Flow {
    /// The folder of --output, where the files go.
    dir: PathBuf,
    /// The checkers' file, as the project lists it.
    checkers_file: PathBuf,
    name: String,
    bind: Option<String>,
    sby: Option<Sby>,
}

struct Sby {
    design: String,
    files: Vec<PathBuf>,
    ports: Vec<DesignPort>,
    depth: u32,
    /// `--design-reset`: the reset the proof starts in, for the harness.
    reset: Option<mongen::emit::hardware::clocking::Reset>,
    /// `--sv`: the design file whose assertions the checkers replace, at
    /// its place in `files`, what was read from it, and the names of the
    /// design module's signals (which the checkers' instances avoid).
    sv: Option<SvDesign>,
}

struct SvDesign {
    index: usize,
    design: mongen_sv::Design,
    /// The names of the signals of the module the checkers go in.
    signals: Vec<String>,
    /// When the file's assertions are in a module that the file binds
    /// into the design (`bind counter counter_properties ... (.*)`):
    /// that module, which the harness instantiates beside the design.
    bound: Option<BoundInstance>,
}

/// The files of a SymbiYosys project, relative to the checkers' folder.
struct ProjectFiles {
    /// The harness module, the project's top.
    top: String,
    /// The harness's file, `TOP.sv`.
    harness: String,
    /// The project file, `NAME.sby`.
    project: String,
    /// With --sv, the design's copy with the checkers in place of its
    /// assertions.
    design_copy: Option<String>,
    /// The files the project reads, in order.
    listed: Vec<String>,
}

impl ProjectFiles {
    fn options(&self, sby: &Sby, left_out: &[String]) -> SbyOptions {
        SbyOptions {
            file: self.project.clone(),
            design: sby.design.clone(),
            top: self.top.clone(),
            harness: self.harness.clone(),
            files: self.listed.clone(),
            depth: sby.depth,
            solver: "z3".into(),
            left_out: left_out.to_vec(),
        }
    }
}

impl Flow {
    /// The flow the options ask for, if any, or why it cannot be written
    /// (checked before any translation). `bind` and `sby` are the modules
    /// of --bind and --sby (the vunit's when the options name none).
    pub fn new(
        args: &CompileArgs,
        name: &str,
        bind: Option<String>,
        sby: Option<String>,
        sv: Option<(PathBuf, mongen_sv::Design)>,
    ) -> Result<Option<Flow>, String> {
        if bind.is_none() && sby.is_none() {
            if args.keep_going {
                return Err("--keep-going is for --bind and --sby".into());
            }
            return Ok(None);
        }
        if !matches!(args.target, Target::Verilog | Target::Sva) {
            return Err("--bind and --sby are for --target verilog and sva".into());
        }
        let Some(output) = &args.output else {
            return Err(
                "--bind and --sby write files beside the checkers: give them one with --output FILE"
                    .into(),
            );
        };
        let dir = match output.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let sby = match sby {
            None => None,
            Some(design) => {
                let all = design_signals(&args.design, &design, "--sby")?;
                let sv = match sv {
                    None => None,
                    Some((file, read)) => {
                        let same = |f: &PathBuf| crate::output::same_file(f, &file);
                        let Some(index) = args.design.iter().position(same) else {
                            return Err(format!(
                                "--sby with --sv: give {} to --design too: the proof reads it \
                                 with the checkers in place of its assertions",
                                file.display()
                            ));
                        };
                        let (bound, signals) = if read.modules.contains(&design) {
                            (None, all.iter().map(|s| s.name.clone()).collect())
                        } else {
                            bound_properties(args, &design, &all, &read, &file)?
                        };
                        Some(SvDesign {
                            index,
                            design: read,
                            signals,
                            bound,
                        })
                    }
                };
                let ports = all
                    .iter()
                    .filter_map(|s| {
                        let direction = match s.direction {
                            Direction::Input => PortDirection::Input,
                            Direction::Output => PortDirection::Output,
                            Direction::Inout => PortDirection::Inout,
                            Direction::Internal => return None,
                        };
                        Some(DesignPort {
                            signal: s.to_input(),
                            direction,
                        })
                    })
                    .collect();
                Some(Sby {
                    design,
                    files: args.design.clone(),
                    ports,
                    depth: args.depth,
                    reset: args.design_reset.clone(),
                    sv,
                })
            }
        };
        let flow = Flow {
            dir,
            checkers_file: output.clone(),
            name: name.to_string(),
            bind,
            sby,
        };
        flow.check_paths(args)?;
        Ok(Some(flow))
    }

    /// Refuses, before anything is written, the paths the flow could not
    /// write: a file it writes that is the checkers' file or one it reads
    /// (written over, a design would be lost), and a project whose paths
    /// SymbiYosys cannot read.
    fn check_paths(&self, args: &CompileArgs) -> Result<(), String> {
        let mut writes: Vec<PathBuf> = Vec::new();
        if self.bind.is_some() {
            writes.push(self.dir.join(format!("{}_bind.sv", self.name)));
        }
        let Some(sby) = &self.sby else {
            return self.no_collision(&writes, args);
        };
        let project = self.project_files(sby)?;
        writes.extend(project.design_copy.iter().map(|f| self.dir.join(f)));
        writes.push(self.dir.join(&project.harness));
        writes.push(self.dir.join(&project.project));
        self.no_collision(&writes, args)?;
        emit_sby(&project.options(sby, &[]), &[])
            .map(drop)
            .map_err(|e| e.to_string())
    }

    /// The names of the SymbiYosys project's files, the same for the dry
    /// run of `check_paths` and for `write`.
    fn project_files(&self, sby: &Sby) -> Result<ProjectFiles, String> {
        // The harness module: NAME_formal, unless the design has a port of
        // that name (a port named like its module stops Verilator).
        let mut top = format!("{}_formal", self.name);
        let mut k = 2;
        while sby.ports.iter().any(|p| p.signal.name == top) {
            top = format!("{}_formal_{k}", self.name);
            k += 1;
        }
        let harness = format!("{top}.sv");
        let design_copy = sby.sv.as_ref().map(|_| format!("{}_design.sv", self.name));
        // --sv: the design file without its assertions in place of the
        // design file.
        let mut files = sby.files.clone();
        if let (Some(sv), Some(copy)) = (&sby.sv, &design_copy) {
            files[sv.index] = self.dir.join(copy);
        }
        let mut listed: Vec<String> = files
            .iter()
            .chain([&self.checkers_file])
            .map(|f| relative_to(f, &self.dir))
            .collect::<Result<_, _>>()?;
        listed.push(harness.clone());
        Ok(ProjectFiles {
            top,
            harness,
            project: format!("{}.sby", self.name),
            design_copy,
            listed,
        })
    }

    /// Refuses a file of `writes` that is the checkers' file or an input.
    fn no_collision(&self, writes: &[PathBuf], args: &CompileArgs) -> Result<(), String> {
        let shown = crate::output::shown_path;
        for w in writes {
            if crate::output::same_file(w, &self.checkers_file) {
                return Err(format!(
                    "--output {}: the flow writes a file of that name beside the checkers; \
                     name the checkers' file otherwise",
                    shown(&self.checkers_file)
                ));
            }
            let inputs = args.design.iter().chain(args.sv.file.iter());
            if let Some(input) = inputs.into_iter().find(|i| crate::output::same_file(w, i)) {
                return Err(format!(
                    "{}: the flow would write over this input; give the checkers another \
                     --name or --output folder",
                    shown(input)
                ));
            }
        }
        Ok(())
    }

    /// Writes the files; returns their paths. `left_out` names the
    /// properties asked for that have no checker (`--keep-going`).
    pub fn write(
        &self,
        checkers: &[CheckerInstance],
        clocking: &Clocking,
        left_out: &[String],
    ) -> Result<Vec<PathBuf>, String> {
        let mut written = Vec::new();
        let mut put = |file: PathBuf, text: String| -> Result<(), String> {
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            written.push(file);
            Ok(())
        };
        if let Some(module) = &self.bind {
            let mut text = emit_bind(module, checkers).map_err(|e| e.to_string())?;
            if !left_out.is_empty() {
                let mut note = format!(
                    "// NOT BOUND: {} properties asked for, which mongen refused or could not\n\
                     // compile (--keep-going; its errors say why):\n",
                    left_out.len()
                );
                for n in left_out {
                    note.push_str(&format!("//   {}\n", mongen::emit::names::comment_safe(n)));
                }
                text = note + &text;
            }
            put(self.dir.join(format!("{}_bind.sv", self.name)), text)?;
        }
        if let Some(sby) = &self.sby {
            let project = self.project_files(sby)?;
            // --sv: the design file without its assertions, the checkers
            // instantiated in the module in their place.
            let mut checkers_in = None;
            let mut bound = None;
            if let (Some(sv), Some(file)) = (&sby.sv, &project.design_copy) {
                // The checkers go where the assertions are: the design
                // module, or the module bound into it.
                let holder = sv.bound.as_ref().map_or(&sby.design, |b| &b.module);
                let items =
                    emit_instances(holder, checkers, &sv.signals).map_err(|e| e.to_string())?;
                let text = sv
                    .design
                    .without_assertions(|m| (m == holder).then(|| items.clone()));
                let header = format!(
                    "// {} as mongen {} read it (preprocessed), its concurrent assertions\n\
                     // replaced by mongen's checkers (before `endmodule` of {}), for {}.\n",
                    mongen::emit::names::comment_safe(&sby.files[sv.index].display().to_string()),
                    env!("CARGO_PKG_VERSION"),
                    holder,
                    project.project
                );
                bound = sv.bound.clone();
                put(self.dir.join(file), header + &text)?;
                checkers_in = Some(file.clone());
            }
            // The harness holds a reset in the first cycle: the design's
            // (--design-reset) or else the checkers'.
            let mut harness_clocking = clocking.clone();
            if let Some(reset) = &sby.reset {
                harness_clocking.reset = Some(reset.clone());
            }
            let harness = emit_formal_harness(
                &HarnessOptions {
                    module: project.top.clone(),
                    design: sby.design.clone(),
                    ports: sby.ports.clone(),
                    clocking: harness_clocking,
                    reader: project.project.clone(),
                    checkers_in,
                    bound,
                },
                checkers,
            )
            .map_err(|e| e.to_string())?;
            let text =
                emit_sby(&project.options(sby, left_out), checkers).map_err(|e| e.to_string())?;
            put(self.dir.join(&project.harness), harness)?;
            put(self.dir.join(&project.project), text)?;
        }
        Ok(written)
    }
}

/// The signals of `module` in the first of `files` that defines it.
fn design_signals(files: &[PathBuf], module: &str, option: &str) -> Result<Vec<HdlSignal>, String> {
    for file in files {
        let source = std::fs::read_to_string(file)
            .map_err(|e| format!("--design {}: {e}", file.display()))?;
        if module_names(&source).iter().any(|m| m == module) {
            return module_signals(&source, module, &[])
                .map_err(|e| format!("--design {}:{e}", file.display()));
        }
    }
    // (The module may come from a file: an escaped identifier holds any
    // bytes.)
    let module = mongen::emit::names::comment_safe(module);
    Err(format!(
        "{option} {module}: no module {module} in the --design files"
    ))
}

/// The design's signals the checkers read (see
/// [`VerilogOptions::signals`](mongen::emit::verilog::VerilogOptions)):
/// those of `module` in the --design files, then --input's, which add
/// signals or redeclare them.
pub fn checker_signals(args: &CompileArgs, module: Option<&str>) -> Result<Vec<HdlInput>, String> {
    // SVA reads the widths of vectors (`&v`, `$stable(v)`) for any target.
    if !args.inputs.is_empty()
        && !matches!(args.target, Target::Verilog | Target::Sva)
        && !args.input.sva
    {
        return Err("--input is for --target verilog and sva (and --sva)".into());
    }
    let mut signals: Vec<HdlInput> = if args.design.is_empty() {
        Vec::new()
    } else {
        let Some(module) = module else {
            return Err(
                "--design: which module do the checkers watch? Name it with --bind MODULE, \
                 --sby MODULE or a --vunit (`vunit NAME (MODULE) { ... }`)"
                    .into(),
            );
        };
        if !matches!(args.target, Target::Verilog | Target::Sva) {
            return Err("--design is for --target verilog and sva".into());
        }
        design_signals(&args.design, module, "--design")?
            .iter()
            .map(HdlSignal::to_input)
            .collect()
    };
    override_signals(&mut signals, &args.inputs);
    Ok(signals)
}

/// `signals` with each of `given` in place of the signal of its name (or
/// added): `--input` over `--design`, both over an `--sv` module's
/// declarations.
pub fn override_signals(signals: &mut Vec<HdlInput>, given: &[HdlInput]) {
    for input in given {
        match signals.iter_mut().find(|s| s.name == input.name) {
            Some(s) => *s = input.clone(),
            None => signals.push(input.clone()),
        }
    }
}

/// `--sby DESIGN --sv FILE` where FILE's assertions are in a module
/// that FILE binds into DESIGN (verification IP, as PULP's
/// `bind counter counter_properties #(...) i_counter_properties(.*);`):
/// Yosys reads no `bind`, so the harness instantiates that module beside
/// the design, each port on the design's port of its name, as `.*` does.
/// Returns it with the names of its signals (which the checkers'
/// instances inside it avoid).
fn bound_properties(
    args: &CompileArgs,
    design: &str,
    design_ports: &[HdlSignal],
    read: &mongen_sv::Design,
    file: &Path,
) -> Result<(Option<BoundInstance>, Vec<String>), String> {
    use mongen::emit::names::comment_safe;
    let shown = file.display();
    let Some(bind) = read.binds.iter().find(|b| b.target == design) else {
        return Err(format!(
            "--sby {design}: the module is not in {shown} (--sv), whose assertions the checkers \
             replace, and {shown} binds no module into it"
        ));
    };
    let module = &bind.module;
    // The checkers go into one module: every assertion must be in it.
    if let Some(a) = read.assertions.iter().find(|a| &a.module != module) {
        return Err(format!(
            "--sby {design}: {shown} binds `{}` into it, but has assertions in `{}` too \
             (line {}): the harness instantiates one bound module",
            comment_safe(module),
            comment_safe(&a.module),
            a.location.line
        ));
    }
    if !read.modules.contains(module) {
        return Err(format!(
            "--sby {design}: {shown} binds `{}` into it, a module it does not declare",
            comment_safe(module)
        ));
    }
    if !bind.by_name {
        return Err(format!(
            "--sby {design}: the `bind` of `{}` in {shown} connects its ports by position or by \
             other names; the harness connects them by name, as `.*` does: write `(.*)`",
            comment_safe(module)
        ));
    }
    let bound = design_signals(&args.design, module, "--sby")?;
    let mut ports = Vec::new();
    // (An escaped identifier holds any bytes: shown safe on a terminal.)
    let shown_module = comment_safe(module);
    for s in bound.iter().filter(|s| s.direction != Direction::Internal) {
        let port = comment_safe(&s.name);
        let Some(d) = design_ports
            .iter()
            .find(|d| d.name == s.name && d.direction != Direction::Internal)
        else {
            return Err(format!(
                "--sby {design}: `{shown_module}` (bound into it by {shown}) has a port `{port}` that \
                 is not a port of {design}: the harness reaches the design's ports only"
            ));
        };
        if s.direction != Direction::Input {
            return Err(format!(
                "--sby {design}: the port `{port}` of `{shown_module}` is not an input: bound \
                 properties read the design, they do not drive it"
            ));
        }
        // The harness instantiates both with their default parameters
        // (the bind's `#(...)` passes the design's own): their ports
        // must agree.
        if (s.msb, s.lsb, s.scalar) != (d.msb, d.lsb, d.scalar) {
            return Err(format!(
                "--sby {design}: the port `{port}` of `{shown_module}` differs in width from {design}'s \
                 with their default parameters, with which the harness instantiates both"
            ));
        }
        ports.push(s.name.clone());
    }
    Ok((
        Some(BoundInstance {
            module: module.clone(),
            instance: bind.instance.clone(),
            ports,
            parameters: bind.parameters.clone(),
        }),
        bound.iter().map(|s| s.name.clone()).collect(),
    ))
}

/// `path` from the folder `base` (both taken from the current folder),
/// as a project file beside `base` lists it.
fn relative_to(path: &Path, base: &Path) -> Result<String, String> {
    let abs = |p: &Path| std::path::absolute(p).map_err(|e| format!("{}: {e}", p.display()));
    let (path, base) = (abs(path)?, abs(base)?);
    let (p, b): (Vec<_>, Vec<_>) = (path.components().collect(), base.components().collect());
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut out = PathBuf::new();
    for _ in common..b.len() {
        out.push("..");
    }
    for c in &p[common..] {
        out.push(c);
    }
    Ok(out.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_relative_to_the_project() {
        let r = |p: &str, b: &str| relative_to(Path::new(p), Path::new(b)).unwrap();
        assert_eq!(r("/a/b/c.v", "/a/b"), "c.v");
        assert_eq!(r("/a/rtl/c.v", "/a/build"), "../rtl/c.v");
        assert_eq!(r("/x.v", "/a/b"), "../../x.v");
    }
}
