//! The trace-checking benchmark (scripts/bench-check.sh runs it): events
//! per second of `monitor_core::trace`, beside the time the format's own
//! reader takes to read the same trace, for 1, 8 and 64 properties.
//!
//! ```text
//! cargo run --release -p mongen-examples --bin bench_check -- [EVENTS] [DIR]
//! ```
//!
//! The traces are generated in DIR (default: a temporary folder) and
//! removed at the end.

use std::error::Error;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::time::Instant;

use monitor_core::formula::random::SplitMix64;
use monitor_core::runtime::{Cursor, Summary};
use monitor_core::trace::check::{Checker, Options, Property, Report};
use monitor_core::trace::chunked::{check_lines, Chunking, LineFormat};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::parallel::{run_letters, run_letters_restarting};
use monitor_core::trace::reader::{CsvReader, Edge, JsonlReader, TraceError, VcdReader};
use monitor_core::{MonitorTable, Verdict};

/// `n` properties over the fields a..h and n of the generated traces, in
/// which `a` is random and each next field is the one before, one event
/// later (a shift register): bounded responses, delays and precedences of
/// 2 to 9 states that hold, so that every property reads every event, as
/// on a healthy log.
fn properties(n: usize) -> Vec<String> {
    let f = ["a", "b", "c", "d", "e", "f", "g", "h"];
    (0..n)
        .map(|i| {
            let p = i % 5;
            match i % 4 {
                0 => format!("G({} -> F[0:{}] {})", f[p], 2 + i % 6, f[p + 2]),
                1 => format!("G(({0} & X {0}) -> X X {1})", f[p], f[p + 2]),
                2 => format!(
                    "G((\"n < {}\" & {}) -> X[{}] {})",
                    [1000, 30000][i % 2],
                    f[p],
                    1 + i % 3,
                    f[p + 1 + i % 3]
                ),
                _ => format!("G({} -> X {})", f[p], f[p + 1]),
            }
        })
        .collect()
}

fn compile(props: &[String]) -> Vec<Property> {
    props
        .iter()
        .map(|f| {
            let table = MonitorTable::from_ltl(f).expect("a property of the benchmark");
            let t = table.table();
            let bindings = (0..t.props as usize)
                .map(|i| Expr::parse(t.proposition(i)).expect("a field or an expression"))
                .collect();
            Property::new(f, table, bindings)
        })
        .collect()
}

fn rate(events: usize, secs: f64) -> String {
    format!("{:.1}", events as f64 / secs / 1e6)
}

/// The seconds `run` takes to check the trace with a checker of `props`
/// (every violation counted: the properties hold, so all is read).
fn check(
    props: &[Property],
    run: impl FnOnce(&mut Checker) -> Result<Vec<Report>, TraceError>,
) -> f64 {
    let options = Options {
        all: true,
        max_reports: 1,
        ..Options::default()
    };
    let mut checker = Checker::new(props.to_vec(), options);
    let t = Instant::now();
    let reports = run(&mut checker).expect("a well-formed trace");
    let secs = t.elapsed().as_secs_f64();
    for r in &reports {
        assert_eq!(r.verdict, Verdict::Undecided, "{}", r.property);
    }
    secs
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(5_000_000), |a| a.parse())?;
    let dir = match args.next() {
        Some(d) => std::path::PathBuf::from(d),
        None => std::env::temp_dir().join(format!("mongen-bench-check-{}", std::process::id())),
    };
    std::fs::create_dir_all(&dir)?;
    let threads = rayon::current_num_threads();
    println!("{n} events per trace, {threads} threads; rates in millions of events per second");

    // Pre-encoded letters: one run (a `Cursor`, one test per letter), one
    // summary on one core (four parts of the trace stepped in lockstep),
    // and chunk summaries on every core, stopping at the first violation
    // and restarting after each (as `check --all`); each the fastest of
    // three runs. The letters are a random walk that never violates the
    // property, so that every letter is read; every figure's verdict is
    // checked against a Cursor run.
    let mut rng = SplitMix64::new(1);
    // Rayon's threads start before the first measurement.
    rayon::broadcast(|_| ());
    /// The result of `f` and the fastest of three runs, in seconds (the
    /// machine may be busy with something else).
    fn best<R>(mut f: impl FnMut() -> R) -> (R, f64) {
        let mut fastest = f64::INFINITY;
        let mut result = None;
        for _ in 0..3 {
            let start = Instant::now();
            result = Some(f());
            fastest = fastest.min(start.elapsed().as_secs_f64());
        }
        (result.expect("three runs"), fastest)
    }
    println!(
        "\n{:<34} {:>8} {:>9} {:>10} {:>11}",
        "pre-encoded letters (states)", "Cursor", "lockstep", "all cores", "restarting"
    );
    for f in [
        "G((a & b) -> X c)",
        "G(a -> F[0:8] b)",
        "G((a & X a) -> X X (b | c))",
    ] {
        let table = MonitorTable::from_ltl(f)?;
        let t = table.table();
        let mut s = Cursor::new();
        let letters: Vec<u64> = (0..n)
            .map(|_| loop {
                let l = rng.next_u64() & 7;
                let mut c = s;
                if c.step(&t, l) != Verdict::Violated {
                    s = c;
                    break l;
                }
            })
            .collect();
        // One Cursor run, to the first violation (there is none).
        let ((v, end), one) = best(|| {
            let mut c = Cursor::new();
            for (k, &l) in letters.iter().enumerate() {
                if c.step(&t, l) == Verdict::Violated {
                    return (Some(k as u64), None);
                }
            }
            (None, Some(c.state()))
        });
        let (lockstep, lock) = best(|| Summary::of_letters(&t, &letters).run_from(0));
        assert_eq!((lockstep.violated_at, lockstep.end), (v, end));
        let (run, all) = best(|| run_letters(&t, &letters, 1 << 16));
        assert_eq!(run, lockstep);
        let (restarting, restart) = best(|| run_letters_restarting(&t, &letters, 1 << 16));
        // The same letters again, with a Cursor reset after each violation.
        let mut c = Cursor::new();
        let (mut first, mut count) = (None, 0u64);
        for (k, &l) in letters.iter().enumerate() {
            if c.step(&t, l) == Verdict::Violated {
                first.get_or_insert(k as u64);
                count += 1;
                c.reset();
            }
        }
        assert_eq!(
            (
                restarting.violated_at,
                restarting.violations,
                restarting.end
            ),
            (first, count, Some(c.state()))
        );
        // The Cursor stops at the first violation (there is none): rates
        // are per letter read. Summaries read every letter.
        let read = v.map_or(n, |k| k as usize + 1);
        println!(
            "{:<34} {:>8} {:>9} {:>10} {:>11}",
            format!("{f} ({})", t.num_states()),
            rate(read, one),
            rate(n, lock),
            rate(n, all),
            rate(n, restart)
        );
    }

    // The traces: fields a..h (Booleans), n (a number).
    let csv_path = dir.join("t.csv");
    let jsonl_path = dir.join("t.jsonl");
    let vcd_path = dir.join("t.vcd");
    {
        let mut csv = std::io::BufWriter::new(std::fs::File::create(&csv_path)?);
        let mut jsonl = std::io::BufWriter::new(std::fs::File::create(&jsonl_path)?);
        let mut vcd = std::io::BufWriter::new(std::fs::File::create(&vcd_path)?);
        writeln!(csv, "a,b,c,d,e,f,g,h,n")?;
        writeln!(
            vcd,
            "$timescale 1ns $end\n$scope module tb $end\n$var reg 1 ! clk $end"
        )?;
        let ids = ["\"", "#", "$", "%", "&", "'", "(", ")"];
        for (i, name) in ["a", "b", "c", "d", "e", "f", "g", "h"].iter().enumerate() {
            writeln!(vcd, "$var reg 1 {} {name} $end", ids[i])?;
        }
        writeln!(
            vcd,
            "$var reg 16 * n [15:0] $end\n$upscope $end\n$enddefinitions $end"
        )?;
        let mut prev = 0u64;
        for k in 0..n {
            // `a` is random, the others shift it along.
            let bits = ((prev << 1) | (rng.next_u64() & 1)) & 0xff;
            let num = rng.next_u64() >> 48;
            let b: Vec<u64> = (0..8).map(|i| (bits >> i) & 1).collect();
            writeln!(
                csv,
                "{},{},{},{},{},{},{},{},{num}",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]
            )?;
            writeln!(
                jsonl,
                "{{\"a\":{},\"b\":{},\"c\":{},\"d\":{},\"e\":{},\"f\":{},\"g\":{},\"h\":{},\"n\":{num}}}",
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]
            )?;
            // Inputs change after the falling edge; the rising edge samples them.
            writeln!(vcd, "#{}\n0!", 10 * k)?;
            for (i, id) in ids.iter().enumerate() {
                if k == 0 || (bits >> i) & 1 != (prev >> i) & 1 {
                    writeln!(vcd, "{}{id}", (bits >> i) & 1)?;
                }
            }
            writeln!(vcd, "b{num:b} *\n#{}\n1!", 10 * k + 5)?;
            prev = bits;
        }
    }
    let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len()) / (1 << 20);
    println!(
        "\ntraces: CSV {} MiB, JSON Lines {} MiB, VCD {} MiB",
        size(&csv_path),
        size(&jsonl_path),
        size(&vcd_path)
    );

    // Baselines: the format's reader alone.
    let open =
        |p: &Path| BufReader::with_capacity(1 << 16, std::fs::File::open(p).expect("generated"));
    let t = Instant::now();
    let mut r = csv::Reader::from_reader(open(&csv_path));
    let mut rec = csv::StringRecord::new();
    let mut rows = 0;
    while r.read_record(&mut rec)? {
        rows += 1;
    }
    let csv_base = t.elapsed().as_secs_f64();
    assert_eq!(rows, n);
    let t = Instant::now();
    let mut lines = 0;
    for line in open(&jsonl_path).lines() {
        let v: serde_json::Value = serde_json::from_str(&line?)?;
        lines += usize::from(v.is_object());
    }
    let jsonl_base = t.elapsed().as_secs_f64();
    assert_eq!(lines, n);
    let t = Instant::now();
    let mut p = vcd::Parser::new(open(&vcd_path));
    p.parse_header()?;
    let mut commands = 0usize;
    for c in p {
        c?;
        commands += 1;
    }
    let vcd_base = t.elapsed().as_secs_f64();
    assert!(commands > n);

    println!(
        "\n{:<20} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}",
        "format", "read only", "1 prop", "8 props", "64 props", "1 / read", "64 / read"
    );
    let all_cores = format!(", {threads} cores");
    for (name, cores, base) in [
        ("CSV", false, csv_base),
        ("CSV", true, csv_base),
        ("JSON Lines", false, jsonl_base),
        ("JSON Lines", true, jsonl_base),
        ("VCD", false, vcd_base),
    ] {
        let mut cols = Vec::new();
        let mut secs = Vec::new();
        for k in [1, 8, 64] {
            let props = compile(&properties(k));
            let s = match (name, cores) {
                ("CSV", false) => check(&props, |c| {
                    c.run(&mut CsvReader::new("t.csv", open(&csv_path))?)
                }),
                ("CSV", true) => check(&props, |c| {
                    check_lines(
                        c,
                        LineFormat::Csv,
                        "t.csv",
                        open(&csv_path),
                        Chunking::default(),
                    )
                }),
                ("JSON Lines", false) => check(&props, |c| {
                    c.run(&mut JsonlReader::new("t.jsonl", open(&jsonl_path)))
                }),
                ("JSON Lines", true) => check(&props, |c| {
                    check_lines(
                        c,
                        LineFormat::Jsonl,
                        "t.jsonl",
                        open(&jsonl_path),
                        Chunking::default(),
                    )
                }),
                _ => check(&props, |c| {
                    c.run(&mut VcdReader::new(
                        "t.vcd",
                        open(&vcd_path),
                        Some(("clk", Edge::Posedge)),
                    )?)
                }),
            };
            cols.push(rate(n, s));
            secs.push(s);
        }
        println!(
            "{:<20} {:>10} {:>10} {:>10} {:>10} {:>9.2}x {:>9.2}x",
            format!("{name}{}", if cores { all_cores.as_str() } else { "" }),
            rate(n, base),
            cols[0],
            cols[1],
            cols[2],
            secs[0] / base,
            secs[2] / base
        );
    }
    println!("\npeak memory: {:.0} MiB", mongen_examples::peak_mib(None));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}
