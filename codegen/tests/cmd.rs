//! Transcripts of `mongen` runs (help texts, formulas, statistics,
//! errors), checked with trycmd: each `tests/cmd/NAME.toml` gives the
//! arguments, and `NAME.stdout` / `NAME.stderr` what must come out (`[..]`
//! stands for any text on a line: times, memory). `NAME.in/` is the
//! working directory where there is one.
//!
//! After a deliberate change of output: `TRYCMD=overwrite cargo test -p
//! mongen --test cmd`, then read the diff.

#[test]
fn transcripts() {
    trycmd::TestCases::new()
        .register_bin("mongen", trycmd::cargo::cargo_bin!("mongen"))
        .case("tests/cmd/*.toml");
}
