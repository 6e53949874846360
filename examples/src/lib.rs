//! Helpers shared by the example and benchmark binaries.

/// The peak resident memory (VmHWM) of process `pid` (`None`: this
/// process), in MiB; 0 where `/proc` does not tell.
pub fn peak_mib(pid: Option<u32>) -> f64 {
    let path = pid.map_or("/proc/self/status".to_string(), |p| {
        format!("/proc/{p}/status")
    });
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kib| kib / 1024.0)
}

/// The X-chain premise `G((req & X[1] req & ... & X[n-1] req) -> X[n] gnt)`
/// (its tableau is exponential in `n`, its monitor has `n + 1` states).
pub fn x_chain(n: usize) -> String {
    let premise: Vec<String> = (0..n)
        .map(|i| {
            if i == 0 {
                "req".to_string()
            } else {
                format!("X[{i}] req")
            }
        })
        .collect();
    format!("G(({}) -> X[{n}] gnt)", premise.join(" & "))
}

/// The Rust examples of the workspace README, run as documentation tests
/// (this crate depends on both `monitor-core` and `monitor-macros`), so
/// that the README cannot drift from the crates. The `console` blocks are
/// run by `codegen/tests/readme.rs`.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct WorkspaceReadme;
