//! The lazy-monitor benchmark (scripts/bench-lazy.sh runs it): events per
//! second of the eager monitor (`MonitorTable`, built whole) and of the
//! lazy one (`LazyMonitor`, built while it runs) on the same pre-encoded
//! traces, in the same run, and the memory the lazy one holds.
//!
//! ```text
//! cargo build --release -p mongen-examples --bin bench_lazy
//! target/release/bench_lazy [--events N] [--counter-events N]
//! ```
//!
//! Each row runs in its own process (so that its peak resident memory is
//! its own): the eager monitor is built (time, states; or the error when it
//! exceeds the default state limit), both monitors read the same letters
//! (restarted after each violation), and their violations must be the same
//! (count and positions: the run stops with an error otherwise). Columns:
//! eager build time, eager and lazy millions of events per second, lazy /
//! eager time, the states the lazy monitor built and how often it emptied
//! its cache, the peak of its cache (its own estimate, bounded by the
//! cache capacity, 32 MiB) and the process's peak resident memory after
//! the lazy run (which includes the letters: 8 bytes per event; the eager
//! monitor is built after it).
//!
//! Rows: a response property and the X-chain premise on random letters;
//! `Gp1 | … | Gpk` on letters where each proposition fails rarely, for
//! k = 12 (the eager monitor has 4096 states) and k = 30 (2^30 states:
//! lazy only); Rozier's counter with carry on its unique model, 8 bits
//! (2049 states) and 20 bits (20·2^20 states, more than the events read:
//! each event builds a state; lazy only).

use std::error::Error;
use std::process::Command;
use std::time::Instant;

use mongen_examples::peak_mib;
use monitor_core::formula::families;
use monitor_core::formula::random::SplitMix64;
use monitor_core::lazy::LazyMonitor;
use monitor_core::runtime::MonitorTable;
use monitor_core::translate::{Builder, Config};
use monitor_core::{Monitor, Verdict};

/// A row: the formula and how its letters are made.
struct Case {
    name: String,
    formula: String,
    trace: Trace,
    events: usize,
}

#[derive(Clone, Copy)]
enum Trace {
    /// Each proposition true with probability `num / 1000`.
    Random(u64),
    /// Each proposition false with probability 1 / `n`.
    MostlyTrue(u64),
    /// The unique model of the n-bit counter with carry.
    Counter(usize),
}

fn cases(events: usize, counter_events: usize) -> Result<Vec<Case>, Box<dyn Error>> {
    let or_g = |k: usize| {
        (1..=k)
            .map(|i| format!("G p{i}"))
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let counter = |n: usize| -> Result<String, Box<dyn Error>> {
        Ok(families::generate("rv-counter-carry", n)?.to_spot())
    };
    let case = |name: &str, formula: String, trace, events| Case {
        name: name.to_string(),
        formula,
        trace,
        events,
    };
    Ok(vec![
        case(
            "response",
            "G(req -> X(!req W ack))".into(),
            Trace::Random(500),
            events,
        ),
        case(
            "X-chain 16",
            mongen_examples::x_chain(16),
            Trace::Random(900),
            events,
        ),
        case("or-g 12", or_g(12), Trace::MostlyTrue(2000), events),
        case("or-g 30", or_g(30), Trace::MostlyTrue(5000), events),
        case("counter 8", counter(8)?, Trace::Counter(8), events),
        case(
            "counter 20",
            counter(20)?,
            Trace::Counter(20),
            counter_events,
        ),
    ])
}

/// The letters of `trace` over the propositions `names` (bit `i` for
/// `names[i]`).
fn letters(trace: Trace, names: &[String], events: usize) -> Vec<u64> {
    let mut rng = SplitMix64::new(7);
    match trace {
        Trace::Random(num) => (0..events)
            .map(|_| (0..names.len()).fold(0u64, |l, i| l | u64::from(rng.below(1000) < num) << i))
            .collect(),
        Trace::MostlyTrue(n) => (0..events)
            .map(|_| (0..names.len()).fold(0u64, |l, i| l | u64::from(rng.below(n) != 0) << i))
            .collect(),
        Trace::Counter(n) => {
            let bit = |name: &str| {
                names
                    .iter()
                    .position(|x| x == name)
                    .map_or(0, |i| 1u64 << i)
            };
            let (m, b, c) = (bit("m"), bit("b"), bit("c"));
            let mut out = Vec::with_capacity(events);
            let mut k = 0u64;
            'outer: loop {
                let mut carry = true;
                for j in 0..n {
                    if out.len() == events {
                        break 'outer;
                    }
                    let one = (k >> j) & 1 == 1;
                    carry &= one;
                    let mut l = 0;
                    if j == 0 {
                        l |= m;
                    }
                    if one {
                        l |= b;
                    }
                    if carry {
                        l |= c;
                    }
                    out.push(l);
                }
                k += 1;
            }
            out
        }
    }
}

/// Runs `step` (which restarts its monitor after a violation) over
/// `word`: the violations' positions, and the time.
fn run(word: &[u64], mut step: impl FnMut(u64) -> Verdict) -> (Vec<usize>, f64) {
    let start = Instant::now();
    let mut violations = Vec::new();
    for (k, &l) in word.iter().enumerate() {
        if step(l) == Verdict::Violated {
            violations.push(k);
        }
    }
    (violations, start.elapsed().as_secs_f64())
}

/// One row, in this process: prints its cells, tab-separated.
fn row(case: &Case) -> Result<(), Box<dyn Error>> {
    let f = monitor_core::formula::parse(&case.formula)?;
    let mut lazy = LazyMonitor::new(&f, &Config::new())?;
    let word = letters(case.trace, lazy.propositions(), case.events);
    let (lazy_violations, lazy_secs) = run(&word, |l| {
        let r = lazy.step(l);
        if r == Verdict::Violated {
            lazy.reset();
        }
        r
    });
    // The lazy run's peak, before the eager monitor is built.
    let lazy_peak = peak_mib(None);
    let t0 = Instant::now();
    let built = Builder::new().build_from_formula(&f);
    let build_ms = t0.elapsed().as_secs_f64() * 1e3;
    let eager = match &built {
        Ok(t) => {
            let table = MonitorTable::from_dfa(t.dfa());
            let names: Vec<&str> = (0..table.table().props as usize)
                .map(|i| table.table().proposition(i))
                .collect();
            if names != lazy.propositions() {
                return Err("the monitors order their propositions differently".into());
            }
            let t = table.table();
            let mut m = Monitor::new(&t);
            let (v, secs) = run(&word, |l| {
                let r = m.step(l);
                if r == Verdict::Violated {
                    m.reset();
                }
                r
            });
            Some((t.num_states(), v, secs))
        }
        Err(e) => {
            println!("ERROR\t{e}");
            None
        }
    };
    let s = lazy.stats();
    let mevents = |secs: f64| case.events as f64 / secs / 1e6;
    match &eager {
        Some((states, v, secs)) => {
            if *v != lazy_violations {
                return Err(format!(
                    "{}: the eager monitor reports {} violations, the lazy one {}",
                    case.name,
                    v.len(),
                    lazy_violations.len()
                )
                .into());
            }
            println!(
                "ROW\t{states}\t{build_ms:.1}\t{:.1}\t{:.2}\t{:.1}x",
                mevents(*secs),
                mevents(lazy_secs),
                lazy_secs / secs
            );
        }
        None => println!("ROW\t-\t{build_ms:.1}\t-\t{:.2}\t-", mevents(lazy_secs)),
    }
    println!(
        "LAZY\t{}\t{}\t{}\t{:.1}\t{:.0}\t{}",
        lazy_violations.len(),
        s.states_built,
        s.cache_clears,
        s.peak_memory as f64 / (1 << 20) as f64,
        lazy_peak,
        lazy.inexact_from().map_or("exact".to_string(), |k| format!(
            "informative from event {k}"
        ))
    );
    Ok(())
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str, default: usize| -> Result<usize, Box<dyn Error>> {
        match args.iter().position(|a| a == flag) {
            Some(i) => Ok(args.get(i + 1).ok_or(format!("{flag} N"))?.parse()?),
            None => Ok(default),
        }
    };
    let events = value("--events", 10_000_000)?;
    let counter_events = value("--counter-events", 1_000_000)?;
    let all = cases(events, counter_events)?;
    if let Some(i) = args.iter().position(|a| a == "--row") {
        let k: usize = args.get(i + 1).ok_or("--row K")?.parse()?;
        return row(&all[k]);
    }
    println!(
        "{:<11} {:>10} | {:>7} {:>9} | {:>8} {:>8} {:>6} | {:>10} {:>8} {:>7} {:>9} {:>8} | verdicts",
        "row", "events", "eager", "build ms", "eager", "lazy", "lazy/", "violations", "states", "cache", "cache", "peak"
    );
    println!(
        "{:<11} {:>10} | {:>7} {:>9} | {:>8} {:>8} {:>6} | {:>10} {:>8} {:>7} {:>9} {:>8} |",
        "",
        "",
        "states",
        "",
        "Mev/s",
        "Mev/s",
        "eager",
        "",
        "built",
        "clears",
        "peak MiB",
        "RSS MiB"
    );
    let me = std::env::current_exe()?;
    for (k, case) in all.iter().enumerate() {
        let out = Command::new(&me)
            .args(["--row", &k.to_string()])
            .args(["--events", &events.to_string()])
            .args(["--counter-events", &counter_events.to_string()])
            .output()?;
        if !out.status.success() {
            return Err(format!(
                "{}: {}",
                case.name,
                String::from_utf8_lossy(&out.stderr).trim()
            )
            .into());
        }
        let text = String::from_utf8_lossy(&out.stdout);
        let cells = |tag: &str| -> Vec<String> {
            text.lines()
                .find_map(|l| l.strip_prefix(tag))
                .map(|l| {
                    l.trim_start_matches('\t')
                        .split('\t')
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default()
        };
        let r = cells("ROW");
        let l = cells("LAZY");
        let get = |v: &Vec<String>, i: usize| v.get(i).cloned().unwrap_or_default();
        println!(
            "{:<11} {:>10} | {:>7} {:>9} | {:>8} {:>8} {:>6} | {:>10} {:>8} {:>7} {:>9} {:>8} | {}",
            case.name,
            case.events,
            get(&r, 0),
            get(&r, 1),
            get(&r, 2),
            get(&r, 3),
            get(&r, 4),
            get(&l, 0),
            get(&l, 1),
            get(&l, 2),
            get(&l, 3),
            get(&l, 4),
            get(&l, 5),
        );
        let err = cells("ERROR");
        if !err.is_empty() {
            println!("{:<11} eager: {}", "", err.join(" "));
        }
    }
    Ok(())
}
