//! Translation time: the Dwyer safety patterns, Rozier's safety set, and
//! the scaling families `or-g` and `rv-counter` for growing n.
//!
//! `cargo bench -p monitor-core --bench compile`. States and peak memory
//! per formula come from `scripts/bench-compile.sh`, which runs each
//! translation in its own process.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use monitor_core::analysis::classify;
use monitor_core::formula::families::{data_lines, generate, DWYER_PATTERNS, ROZIER_SAFETY};
use monitor_core::formula::{parse, Formula};
use monitor_core::translate::{Builder, Config};

fn compile(f: &Formula) -> usize {
    Builder::new()
        .configure(Config::new().check_safety(false).max_states(None))
        .build_from_formula(f)
        .expect("translation")
        .dfa()
        .num_states()
}

fn safety_patterns(c: &mut Criterion) {
    let dwyer: Vec<Formula> = data_lines(DWYER_PATTERNS)
        .map(|l| parse(l).unwrap())
        .filter(|f| classify(f, &Config::new()).unwrap().safety == Some(true))
        .collect();
    assert_eq!(dwyer.len(), 37);
    let mut g = c.benchmark_group("dwyer-safety");
    for (i, f) in dwyer.iter().enumerate() {
        g.bench_with_input(BenchmarkId::from_parameter(i), f, |b, f| {
            b.iter(|| compile(f))
        });
    }
    g.finish();
    let mut g = c.benchmark_group("rozier-safety");
    for (i, line) in data_lines(ROZIER_SAFETY).enumerate() {
        let f = parse(line).unwrap();
        g.bench_with_input(BenchmarkId::from_parameter(i), &f, |b, f| {
            b.iter(|| compile(f))
        });
    }
    g.finish();
}

fn scaling(c: &mut Criterion) {
    for (family, sizes) in [
        ("or-g", vec![4usize, 8, 10, 12, 14]),
        ("rv-counter", vec![4, 6, 8, 10, 12]),
        ("rv-counter-linear", vec![4, 8, 12]),
    ] {
        let mut g = c.benchmark_group(family);
        g.sample_size(10);
        for n in sizes {
            let f = generate(family, n).unwrap();
            g.bench_with_input(BenchmarkId::from_parameter(n), &f, |b, f| {
                b.iter(|| compile(f))
            });
        }
        g.finish();
    }
}

criterion_group!(benches, safety_patterns, scaling);
criterion_main!(benches);
