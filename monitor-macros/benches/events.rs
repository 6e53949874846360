//! Events per second: a `#[monitor]` monitor against the same property
//! written by hand as a `match` state machine, and against the run-time
//! compiled `Monitor`.
//!
//! `cargo bench -p monitor-macros --bench events` (criterion prints time
//! per iteration of 1 Mi events and the throughput).
//!
//! The property is `G(req -> X(ack | X ack))`; the trace is a pseudo-random
//! bus that never violates it (a violated monitor stops moving, which
//! would flatter every contender).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use monitor_core::{Monitor, Verdict};
use monitor_macros::monitor;

#[monitor(ltl = "G(req -> X(ack | X ack))")]
#[derive(Clone, Copy)]
struct Bus {
    req: bool,
    ack: bool,
}

/// The property by hand: what a careful programmer would write.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Hand {
    Idle,
    /// A request is pending: an acknowledgement is due now or next cycle.
    Due2,
    /// An acknowledgement is due now.
    Due1,
    Violated,
}

impl Hand {
    #[inline]
    fn step(self, s: &Bus) -> Hand {
        match self {
            Hand::Violated => Hand::Violated,
            Hand::Due1 if !s.ack => Hand::Violated,
            Hand::Due2 if !s.ack => Hand::Due1,
            _ if s.req => Hand::Due2,
            _ => Hand::Idle,
        }
    }
}

fn trace(n: usize) -> Vec<Bus> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut state = Hand::Idle;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let req = x & 1 == 1;
            // Acknowledge at the last moment, or at random.
            let ack = state == Hand::Due1 || (x >> 1) & 3 == 0;
            let s = Bus { req, ack };
            state = state.step(&s);
            s
        })
        .collect()
}

fn events(c: &mut Criterion) {
    let trace = trace(1 << 20);
    // All three agree on the trace (and it is never violated).
    let mut m = BusMonitor::new();
    let mut h = Hand::Idle;
    for s in &trace {
        assert_eq!(m.observe(s), Verdict::Undecided);
        h = h.step(s);
        assert!(h != Hand::Violated);
    }
    let mut g = c.benchmark_group("events");
    g.throughput(Throughput::Elements(trace.len() as u64));
    g.bench_function("hand-written match", |b| {
        b.iter(|| {
            let mut h = Hand::Idle;
            for s in black_box(&trace) {
                h = h.step(s);
            }
            h
        })
    });
    g.bench_function("#[monitor]", |b| {
        b.iter(|| {
            let mut m = BusMonitor::new();
            for s in black_box(&trace) {
                m.observe(s);
            }
            m
        })
    });
    let dynamic = Monitor::from_ltl("G(req -> X(ack | X ack))").unwrap();
    let bits: Vec<u64> = trace
        .iter()
        .map(|s| u64::from(s.req) | u64::from(s.ack) << 1)
        .collect();
    g.bench_function("Monitor::from_ltl", |b| {
        b.iter(|| {
            let mut m = dynamic;
            for &l in black_box(&bits) {
                m.step(l);
            }
            m.state()
        })
    });
    g.finish();
}

criterion_group!(benches, events);
criterion_main!(benches);
