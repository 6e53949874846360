//! `mongen compile --target rust` output for random formulas, compiled and
//! run: every generated monitor must give the core monitor's verdict after
//! every step of a random trace (both computed here, the generated code
//! checked in a separate program built by trybuild).

use std::fmt::Write as _;

use mongen::emit::rust::{emit_rust, RustOptions};
use mongen::emit::Common;
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::translate::{Builder, Config, Verdicts};
use monitor_core::Verdict;

#[test]
fn generated_code_agrees_with_the_core() {
    let mut program = String::from("#![deny(warnings)]\n");
    let mut main = String::from("fn main() {\n");
    let mut rng = SplitMix64::new(0xc0de);
    for i in 0..40u64 {
        let three = i % 2 == 1;
        let f = RandomLtl::new(&["a", "b", "c"], 4 + (i % 9) as usize)
            .with_past()
            .seed(1000 + i)
            .next_formula();
        let mut b = Builder::new();
        if three {
            b.configure(Config::new().verdicts(Verdicts::Three));
        }
        let dfa = b.build_from_formula(&f).unwrap().into_dfa();
        let code = emit_rust(
            &dfa,
            &RustOptions {
                common: Common {
                    name: format!("r{i}"),
                    three_valued: three,
                    ..Common::default()
                },
            },
        )
        .unwrap();
        let _ = writeln!(program, "mod m{i} {{\n{code}\n}}");
        let k = dfa.alphabet().len();
        let trace: Vec<u64> = (0..1 + rng.below(20))
            .map(|_| {
                if k == 0 {
                    0
                } else {
                    rng.next_u64() & ((1 << k) - 1)
                }
            })
            .collect();
        let code = |v: Verdict| match v {
            Verdict::Undecided => 0,
            Verdict::Satisfied => 1,
            Verdict::Violated => 2,
        };
        let want: Vec<u8> = (1..=trace.len())
            .map(|n| code(dfa.run(trace[..n].iter().copied())))
            .collect();
        let _ = writeln!(
            main,
            "    {{\n        let mut m = m{i}::R{i}Monitor::new();\n        let trace: &[u64] = &{trace:?};\n        let want: &[u8] = &{want:?};\n        for (n, &l) in trace.iter().enumerate() {{\n            let got = match m.step(l) {{ monitor_core::Verdict::Undecided => 0u8, monitor_core::Verdict::Satisfied => 1, monitor_core::Verdict::Violated => 2 }};\n            assert_eq!(got, want[n], \"`{{}}` at step {{n}} of {{trace:?}}\", m{i}::R{i}Monitor::PROPERTY);\n        }}\n    }}"
        );
    }
    main.push_str("    println!(\"40 generated monitors agree\");\n}\n");
    program.push_str(&main);
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("generated_monitors.rs");
    std::fs::write(&path, program).unwrap();
    trybuild::TestCases::new().pass(&path);
}
