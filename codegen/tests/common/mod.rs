//! Helpers for the tests that run external tools.
//!
//! A missing tool fails the test with the command that installs it
//! (`scripts/install-tools.sh` installs them all; CI runs it first). The
//! only way to skip is explicit: `MONGEN_SKIP_TOOLS=1`, for local runs on
//! machines without the tools, and it says so on standard error.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where a tool is, or why the test cannot run. `None`: skipped on request.
pub fn tool(name: &str, extra: &[PathBuf], install: &str) -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path).map(|d| d.join(name)));
    }
    candidates.extend(extra.iter().cloned());
    if let Some(found) = candidates.into_iter().find(|p| p.is_file()) {
        return Some(found);
    }
    if std::env::var_os("MONGEN_SKIP_TOOLS").is_some() {
        eprintln!("SKIPPED: {name} not found and MONGEN_SKIP_TOOLS is set");
        return None;
    }
    panic!("{name} is not installed; install it with: {install} (or run scripts/install-tools.sh)");
}

/// Spin and a C compiler.
pub fn spin() -> Option<(PathBuf, PathBuf)> {
    let spin = tool("spin", &[], "apt-get install -y spin")?;
    let cc = tool("gcc", &[], "apt-get install -y gcc")?;
    Some((spin, cc))
}

/// The example models of Debian's `spin` package.
pub fn spin_examples() -> PathBuf {
    let dir = PathBuf::from("/usr/share/doc/spin/examples/Examples");
    if !dir.join("peterson.pml").is_file() {
        panic!("Spin's example models are not in {}; install them with: apt-get install -y spin (or run scripts/install-tools.sh)", dir.display());
    }
    dir
}

/// NuSMV 2.5.4 (scripts/install-nusmv.sh installs it in ~/.local).
pub fn nusmv() -> Option<PathBuf> {
    let mut extra = Vec::new();
    if let Some(p) = std::env::var_os("NUSMV") {
        extra.push(PathBuf::from(p));
    }
    if let Some(home) = std::env::var_os("HOME") {
        extra.push(Path::new(&home).join(".local/bin/NuSMV"));
    }
    extra.push(PathBuf::from("/opt/nusmv/bin/NuSMV"));
    tool("NuSMV", &extra, "scripts/install-nusmv.sh")
}

/// The example models of the NuSMV distribution, which
/// scripts/install-nusmv.sh installs beside `nusmv` (PREFIX/bin/NuSMV ->
/// PREFIX/share/nusmv/examples/smv-dist).
pub fn nusmv_examples(nusmv: &Path) -> PathBuf {
    let dir = nusmv
        .parent()
        .and_then(Path::parent)
        .map(|p| p.join("share/nusmv/examples/smv-dist"))
        .filter(|d| d.join("ring.smv").is_file());
    dir.unwrap_or_else(|| {
        panic!(
            "NuSMV's example models are not installed beside {}; install them with: scripts/install-nusmv.sh",
            nusmv.display()
        )
    })
}

/// A fresh directory for one test case.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongen-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a command in `dir`; panics with its output if it cannot start.
pub fn run(dir: &Path, program: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()))
}

/// Standard output and error of a command, as text.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The path of a test model.
pub fn model(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/models")
        .join(name)
}

/// Runs the `mongen` binary of this build with `args`.
pub fn mongen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mongen"))
        .args(args)
        .output()
        .expect("run mongen")
}

/// Proposition names a hostile user could write: keywords and reserved
/// words of every target, names the generated code uses itself (labels,
/// states, the observers' `mg_` names), comment closers and openers,
/// preprocessor lines, quotes, backslashes, line breaks, Unicode, names
/// equal after mangling, and a very long name.
pub fn hostile_names() -> Vec<String> {
    let mut names: Vec<String> = [
        "if",
        "never",
        "monitor",
        "S0",
        "violation",
        "mg_S0",
        "mg_violation",
        "accept_mg_S1",
        "mg_state",
        "mg_obs",
        "mg_violated",
        "*/ #define S0 (1) /*",
        "x\n#define req_valid (1)\n",
        "\"q\"",
        "back\\slash",
        "ünï cödé ✓",
        "req.valid",
        "req_valid",
        "a b",
        "a_b",
        "a-b",
        "true",
        "skip",
        "_pid",
        "timeout",
        "MODULE",
        "next",
        "state",
        "main",
        "-- x",
        "// y",
        "end",
        "endmodule",
        "always",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    names.push("n".repeat(10_000));
    names
}

/// The three namings of a rename-invariance test over four propositions
/// `a`, `b`, `c`, `d`: (0) the model's variables themselves, (1) hostile
/// names bound to those variables by `--define`, (2) expressions over them.
pub struct Namings<'a> {
    /// The model's variables.
    pub vars: [&'a str; 4],
    /// One expression over each variable, in the target's syntax.
    pub expressions: [&'a str; 4],
    /// [`hostile_names`].
    pub hostile: Vec<String>,
}

impl Namings<'_> {
    /// The propositions of the formulas the test draws.
    pub const APS: [&'static str; 4] = ["a", "b", "c", "d"];

    /// The name of proposition `k` in `style`, for the `i`-th formula (so
    /// that the formulas go through the hostile names).
    pub fn name(&self, style: usize, i: usize, k: usize) -> String {
        match style {
            0 => self.vars[k].to_string(),
            1 => self.hostile[(i * 4 + k) % self.hostile.len()].clone(),
            _ => self.expressions[k].to_string(),
        }
    }

    /// `f` (over [`Self::APS`]) with its propositions named in `style`.
    pub fn rename(
        &self,
        f: &monitor_core::formula::Formula,
        style: usize,
        i: usize,
    ) -> monitor_core::formula::Formula {
        f.map_bottom_up(|g| match g.ap_name() {
            Some(n) => {
                let k = Self::APS.iter().position(|a| *a == n).unwrap();
                monitor_core::formula::Formula::ap(&self.name(style, i, k))
            }
            None => g.clone(),
        })
    }

    /// The `--define`s of `style`: the hostile names bound to the variables.
    pub fn defines(&self, style: usize, i: usize) -> Vec<(String, String)> {
        if style != 1 {
            return Vec::new();
        }
        (0..4)
            .map(|k| (self.name(style, i, k), self.vars[k].to_string()))
            .collect()
    }
}

/// SymbiYosys: on PATH, or where scripts/install-sby.sh puts it.
pub fn sby() -> Option<PathBuf> {
    let mut extra = Vec::new();
    if let Some(home) = std::env::var_os("HOME") {
        extra.push(Path::new(&home).join(".local/bin/sby"));
    }
    tool("sby", &extra, "scripts/install-sby.sh")
}

/// The times at which simulated checkers report a violation (Icarus'
/// `$error`: `Time: T Scope: SCOPE.LABEL_chk`, `scope` being `SCOPE.`), by
/// label.
pub fn checker_errors(out: &str, scope: &str) -> std::collections::BTreeMap<String, Vec<u64>> {
    let mut errors = std::collections::BTreeMap::<String, Vec<u64>>::new();
    let marker = format!(" Scope: {scope}");
    for l in out.lines() {
        let Some(rest) = l.trim().strip_prefix("Time: ") else {
            continue;
        };
        let (time, instance) = rest
            .split_once(&marker)
            .unwrap_or_else(|| panic!("not in {scope}: {l}"));
        let label = instance
            .strip_suffix("_chk")
            .unwrap_or_else(|| panic!("not a checker: {l}"));
        errors
            .entry(label.to_string())
            .or_default()
            .push(time.parse().unwrap());
    }
    errors
}

/// Of the violation `times`, the first after each reset (`resets`, the
/// times of the resets): what a checker whose `violated` is sticky until
/// reset reports.
pub fn first_after_each_reset(times: impl IntoIterator<Item = u64>, resets: &[u64]) -> Vec<u64> {
    let epoch = |t: u64| resets.iter().filter(|&&r| r < t).count();
    let mut firsts: Vec<u64> = Vec::new();
    for t in times {
        if firsts.last().map(|&f| epoch(f)) != Some(epoch(t)) {
            firsts.push(t);
        }
    }
    firsts
}

/// A file that a project script installs under `~/.local/share/mongen/DIR`
/// (or under `$VAR`): missing, the test fails with the script to run,
/// unless `MONGEN_SKIP_TOOLS` is set (then `None`: skipped on request).
pub fn installed(file: &str, var: &str, dir: &str, what: &str, install: &str) -> Option<PathBuf> {
    let mut roots: Vec<PathBuf> = std::env::var_os(var)
        .map(PathBuf::from)
        .into_iter()
        .collect();
    if let Some(home) = std::env::var_os("HOME") {
        roots.push(Path::new(&home).join(".local/share/mongen").join(dir));
    }
    if let Some(found) = roots.iter().map(|r| r.join(file)).find(|p| p.exists()) {
        return Some(found);
    }
    if std::env::var_os("MONGEN_SKIP_TOOLS").is_some() {
        eprintln!("SKIPPED: {file} not found and MONGEN_SKIP_TOOLS is set");
        return None;
    }
    panic!("{file}{what} is not installed; run {install}");
}

/// A file (or folder) of the real designs scripts/install-sva-designs.sh
/// unpacks (under `$MONGEN_SVA_DESIGNS` or
/// ~/.local/share/mongen/sva-designs).
pub fn sva_design(file: &str) -> Option<PathBuf> {
    installed(
        file,
        "MONGEN_SVA_DESIGNS",
        "sva-designs",
        "",
        "scripts/install-sva-designs.sh",
    )
}
