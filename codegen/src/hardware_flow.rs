//! `compile --bind MODULE` and `--sby MODULE`: the files beside the
//! checkers that put them to work on a design.

use std::path::{Path, PathBuf};

use mongen::emit::clocking::Clocking;
use mongen::emit::formal::{
    emit_bind, emit_formal_harness, emit_sby, CheckerInstance, DesignPort, HarnessOptions,
    PortDirection, SbyOptions,
};
use mongen::hdl::ports::{module_names, module_signals, Direction};

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
}

impl Flow {
    /// The flow the options ask for, if any, or why it cannot be written
    /// (checked before any translation).
    pub fn new(args: &CompileArgs) -> Result<Option<Flow>, String> {
        if args.bind.is_none() && args.sby.is_none() {
            if !args.design.is_empty() {
                return Err("--design is for --sby".into());
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
        let sby = match &args.sby {
            None => None,
            Some(design) => {
                let mut ports = None;
                for file in &args.design {
                    let source = std::fs::read_to_string(file)
                        .map_err(|e| format!("--design {}: {e}", file.display()))?;
                    if !module_names(&source).iter().any(|m| m == design) {
                        continue;
                    }
                    let signals = module_signals(&source, design, &[])
                        .map_err(|e| format!("--design {}:{e}", file.display()))?;
                    ports = Some(
                        signals
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
                            .collect::<Vec<_>>(),
                    );
                    break;
                }
                let Some(ports) = ports else {
                    return Err(format!(
                        "--sby {design}: no module {design} in the --design files"
                    ));
                };
                Some(Sby {
                    design: design.clone(),
                    files: args.design.clone(),
                    ports,
                    depth: args.depth,
                })
            }
        };
        Ok(Some(Flow {
            dir,
            checkers_file: output.clone(),
            name: args.name.clone(),
            bind: args.bind.clone(),
            sby,
        }))
    }

    /// Writes the files; returns their paths.
    pub fn write(
        &self,
        checkers: &[CheckerInstance],
        clocking: &Clocking,
    ) -> Result<Vec<PathBuf>, String> {
        let mut written = Vec::new();
        let mut put = |file: PathBuf, text: String| -> Result<(), String> {
            std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
            written.push(file);
            Ok(())
        };
        if let Some(module) = &self.bind {
            let text = emit_bind(module, checkers).map_err(|e| e.to_string())?;
            put(self.dir.join(format!("{}_bind.sv", self.name)), text)?;
        }
        if let Some(sby) = &self.sby {
            let top = format!("{}_formal", self.name);
            let harness_file = format!("{top}.sv");
            let project_file = format!("{}.sby", self.name);
            let harness = emit_formal_harness(
                &HarnessOptions {
                    module: top.clone(),
                    design: sby.design.clone(),
                    ports: sby.ports.clone(),
                    clocking: clocking.clone(),
                    reader: project_file.clone(),
                },
                checkers,
            )
            .map_err(|e| e.to_string())?;
            let mut files: Vec<String> = sby
                .files
                .iter()
                .chain([&self.checkers_file])
                .map(|f| relative_to(f, &self.dir))
                .collect::<Result<_, _>>()?;
            files.push(harness_file.clone());
            let project = emit_sby(
                &SbyOptions {
                    file: project_file.clone(),
                    design: sby.design.clone(),
                    top,
                    harness: harness_file.clone(),
                    files,
                    depth: sby.depth,
                    solver: "z3".into(),
                },
                checkers,
            )
            .map_err(|e| e.to_string())?;
            put(self.dir.join(&harness_file), harness)?;
            put(self.dir.join(&project_file), project)?;
        }
        Ok(written)
    }
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
