//! The build-time work of one `#[monitor]`: parsing the attribute,
//! compiling the property and generating the tokens
//! (`monitor_expand::expand`, which the proc macro calls).
//!
//! `cargo bench -p monitor-expand --bench expand`. `scripts/bench-macro-build.sh`
//! measures the whole added compile time (rustc included).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use monitor_expand::expand;
use quote::quote;

fn expansion(c: &mut Criterion) {
    let mut g = c.benchmark_group("expand");
    g.bench_function("struct G(req -> X(ack | X ack))", |b| {
        b.iter(|| {
            expand(
                black_box(quote!(ltl = "G(req -> X(ack | X ack))")),
                black_box(quote!(
                    struct Bus {
                        req: bool,
                        ack: bool,
                    }
                )),
            )
        })
    });
    g.bench_function("struct Dwyer pattern, 4 propositions", |b| {
        b.iter(|| {
            expand(
                black_box(quote!(
                    ltl = "G((p0 & Fp1) -> ((p2 -> (!p1 U (p3 & !p1 & X(!p1 U p4)))) U p1))"
                )),
                black_box(quote!(
                    struct S {
                        p0: bool,
                        p1: bool,
                        p2: bool,
                        p3: bool,
                        p4: bool,
                    }
                )),
            )
        })
    });
    g.bench_function("impl G(open -> X(!open W close))", |b| {
        b.iter(|| {
            expand(
                black_box(quote!(ltl = "G(open -> X(!open W close)) & (!read W open)")),
                black_box(quote!(impl File {
                    fn open(&mut self) {}
                    fn read(&mut self) {}
                    fn close(&mut self) {}
                })),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, expansion);
criterion_main!(benches);
