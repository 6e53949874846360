//! Compile-time behaviour of `#[monitor]`, with trybuild: programs that
//! must compile and run, and mistakes that must be errors at the right
//! place with the right message (`tests/ui/fail/*.stderr`).

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.pass("tests/ui/pass/*.rs");
    t.compile_fail("tests/ui/fail/*.rs");
}
