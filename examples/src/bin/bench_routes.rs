//! The translation-routes benchmark (scripts/bench-routes.sh runs it):
//! `mongen compile --route tableau` (Büchi tableau, then subsets) beside
//! `--route auto` (formula derivatives where they apply: syntactic safety
//! LTL without SEREs; the tableau elsewhere), on the same formulas, in the
//! same run.
//!
//! ```text
//! cargo build --release -p mongen -p mongen-examples --bin bench_routes
//! target/release/bench_routes [--quick] [--mongen PATH]
//! ```
//!
//! For each row and each route it prints the states of the minimal monitor,
//! the intermediate sizes (Büchi states and subsets, or derivative states),
//! the translation time in milliseconds and the peak resident memory in MiB
//! (both as `mongen compile --stats` reports them: the time of the
//! translation and safety analysis, from its second line, which leaves out
//! parsing and writing the monitor; the VmHWM of the process), and the ratio
//! time(auto) / time(tableau). Each (formula, route) runs in its own
//! `mongen` process (so the peak memory is that formula's), with
//! `--max-states 5000000` and a wall-clock timeout (60 s, 10 s with
//! `--quick`); a process whose resident memory passes a cap (half the
//! available memory, at most 8 GiB) is killed too. Runs under 200 ms are
//! repeated five times, under 2 s three times, the two routes in turn, and
//! the fastest of each kept (the machine may be busy with something else).
//!
//! Rows: the X-chain premise `G((req & X[1] req & ... & X[n-1] req) ->
//! X[n] gnt)` (the tableau is exponential in n: it is skipped beyond
//! n = 13), `G(a -> F[0:n] b)` (the tableau skipped beyond n = 4096), a PSL `within` family (SEREs: the tableau
//! in both routes), Rozier's counters and or-g, then one summary row each
//! for the Dwyer patterns, Rozier's safety set and two sets of random
//! formulas (total time per route, worst ratio, slowest formula). The last
//! block checks the goals of the derivative route.

use std::error::Error;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use monitor_core::formula::random::RandomLtl;
use monitor_core::formula::{Formula, Op};

/// The state limit passed to every run.
const MAX_STATES: &str = "5000000";
/// How many runs of each route, by the time of the first run (ms, the
/// slower route): (below, runs); the fastest run is kept.
const REPEATS: [(f64, usize); 2] = [(200.0, 5), (2000.0, 3)];
/// The largest n of the X chain on which the tableau route is started
/// (n = 14 takes about 50 s and 11 GB).
const XCHAIN_TABLEAU_MAX: usize = 13;
/// The largest bound of `G(a -> F[0:n] b)` on which the tableau route is
/// started (n = 3000 takes about 45 s and 2.4 GB, n = 4096 a minute and
/// 4.8 GB).
const RESPONSE_TABLEAU_MAX: usize = 4096;
/// Ratios over rows whose tableau took less than this (ms) are noise.
const RATIO_MIN_TABLEAU_MS: f64 = 5.0;
/// The goal for time(auto) / time(tableau).
const RATIO_GOAL: f64 = 1.2;

/// A route of `mongen compile`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Route {
    Tableau,
    Auto,
}

impl Route {
    fn flag(self) -> &'static str {
        match self {
            Route::Tableau => "tableau",
            Route::Auto => "auto",
        }
    }
}

/// The intermediate automaton of a translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sizes {
    /// The Büchi tableau and its subset construction.
    Tableau { buchi: u64, subsets: u64 },
    /// The derivative automaton.
    Derivatives(u64),
    /// Sums over a set of formulas, some of which took each route.
    Mixed {
        buchi: u64,
        subsets: u64,
        derivatives: u64,
    },
}

/// One `mongen compile --stats` line.
#[derive(Clone, Copy, Debug)]
struct Stats {
    states: u64,
    sizes: Sizes,
    ms: f64,
    mib: f64,
}

/// What became of one (formula, route).
#[derive(Clone, Debug)]
enum Outcome {
    Done(Stats),
    /// Not started (it would take too much time or memory).
    Skipped,
    /// Killed at the timeout; the peak memory it had reached.
    TimedOut {
        mib: f64,
    },
    /// Killed at the memory cap.
    OverMemory {
        mib: f64,
    },
    /// An automaton exceeded `--max-states`.
    Limit,
    /// Any other error (the first line of mongen's message).
    Failed(String),
}

impl Outcome {
    fn stats(&self) -> Option<&Stats> {
        match self {
            Outcome::Done(s) => Some(s),
            _ => None,
        }
    }

    fn ms(&self) -> Option<f64> {
        self.stats().map(|s| s.ms)
    }

    /// The intermediate sizes, time and memory columns.
    fn columns(&self, timeout: Duration) -> [String; 3] {
        let s = |x: &str| x.to_string();
        match self {
            Outcome::Done(st) => [
                match st.sizes {
                    Sizes::Tableau { buchi, subsets } => format!("B {buchi} / S {subsets}"),
                    Sizes::Derivatives(d) => format!("deriv {d}"),
                    Sizes::Mixed {
                        buchi,
                        subsets,
                        derivatives,
                    } => format!("B {buchi}/S {subsets}/d {derivatives}"),
                },
                format!("{:.3}", st.ms),
                format!("{:.1}", st.mib),
            ],
            Outcome::Skipped => [s("skipped"), s("-"), s("-")],
            Outcome::TimedOut { mib } => [
                s("-"),
                format!(">{}s", timeout.as_secs()),
                format!(">{mib:.0}"),
            ],
            Outcome::OverMemory { mib } => [s("-"), s("killed"), format!(">{mib:.0}")],
            Outcome::Limit => [s("limit"), s("-"), s("-")],
            Outcome::Failed(_) => [s("FAILED"), s("-"), s("-")],
        }
    }
}

/// Parses the `--stats` line of mongen, e.g.
/// `mongen: stats: `G(a -> Xb)`: 2 states (derivatives 2), 0.281 ms, peak memory 4.5 MiB`.
fn parse_stats(line: &str) -> Option<Stats> {
    let tail = &line[line.rfind("`: ")? + 3..];
    let (states, rest) = tail.split_once(" states (")?;
    let (sizes, rest) = rest.split_once("), ")?;
    let (ms, rest) = rest.split_once(" ms, peak memory ")?;
    let mib = rest.trim_end().strip_suffix(" MiB")?;
    let sizes = match sizes.strip_prefix("derivatives ") {
        Some(d) => Sizes::Derivatives(d.parse().ok()?),
        None => {
            let (b, s) = sizes.strip_prefix("Büchi ")?.split_once(", subsets ")?;
            Sizes::Tableau {
                buchi: b.parse().ok()?,
                subsets: s.parse().ok()?,
            }
        }
    };
    Some(Stats {
        states: states.parse().ok()?,
        sizes,
        ms: ms.parse().ok()?,
        mib: mib.parse().ok()?,
    })
}

/// The translation time of the second `--stats` line, e.g.
/// `mongen: stats: `G(a -> Xb)`: time: parse 0.1 ms, translation and safety analysis 0.3 ms, output 0.1 ms`.
fn parse_translation_ms(line: &str) -> Option<f64> {
    let tail = &line[line.find("translation and safety analysis ")? + 32..];
    tail.split_once(" ms")?.0.parse().ok()
}

/// The memory available on the machine (MemAvailable), in MiB.
fn available_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/meminfo").ok()?;
    let l = s.lines().find(|l| l.starts_with("MemAvailable:"))?;
    Some(l.split_whitespace().nth(1)?.parse::<f64>().ok()? / 1024.0)
}

/// A measured row of the table: a formula, or a summary of a set.
struct Row {
    label: String,
    tableau: Outcome,
    auto: Outcome,
}

/// A member of a set of formulas (summarized in one row).
struct Member {
    name: String,
    formula: String,
    tableau: Outcome,
    auto: Outcome,
}

/// The runner: mongen's path, the limits, and what the run has seen.
struct Bench {
    mongen: PathBuf,
    timeout: Duration,
    mem_cap_mib: f64,
    /// The rows printed so far (for the goals).
    rows: Vec<Row>,
    /// The members of every set (for the goals and the notes).
    members: Vec<Member>,
    /// Failures and disagreements, printed at the end.
    notes: Vec<String>,
}

impl Bench {
    /// One `mongen compile --stats` process on `formula`.
    fn run_once(&self, formula: &str, psl: bool, route: Route) -> Outcome {
        let mut cmd = Command::new(&self.mongen);
        cmd.args(["compile", "-q", "--stats", "--route", route.flag()])
            .args(["--max-states", MAX_STATES, "-o", "/dev/null"]);
        if psl {
            cmd.arg("--psl");
        }
        cmd.arg("--")
            .arg(formula)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => return Outcome::Failed(format!("cannot run {}: {e}", self.mongen.display())),
        };
        let mut stderr = child.stderr.take().expect("a piped standard error");
        let reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let mut nap = Duration::from_millis(1);
        let killed = loop {
            match child.try_wait() {
                Ok(Some(_)) => break None,
                Ok(None) => {}
                Err(e) => break Some(Outcome::Failed(format!("waiting for mongen: {e}"))),
            }
            let mib = mongen_examples::peak_mib(Some(child.id()));
            if start.elapsed() > self.timeout {
                break Some(Outcome::TimedOut { mib });
            }
            if mib > self.mem_cap_mib {
                break Some(Outcome::OverMemory { mib });
            }
            std::thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(20));
        };
        if let Some(outcome) = killed {
            let _ = child.kill();
            let _ = child.wait();
            let _ = reader.join();
            return outcome;
        }
        let err = reader.join().unwrap_or_default();
        let mut lines = err.lines().filter(|l| l.starts_with("mongen: stats: "));
        let whole = lines.next().and_then(parse_stats);
        let translation = lines.next().and_then(parse_translation_ms);
        if let (Some(mut stats), Some(ms)) = (whole, translation) {
            stats.ms = ms;
            Outcome::Done(stats)
        } else if err.contains("exceeds the limit") {
            Outcome::Limit
        } else {
            let first = err.lines().next().unwrap_or("no output");
            Outcome::Failed(first.trim().to_string())
        }
    }

    /// Both routes on `formula` (the tableau only if `tableau` is true):
    /// the fastest of up to five runs each (see `REPEATS`), the routes in
    /// turn; repeated only if every first run ended.
    fn measure(&self, formula: &str, psl: bool, tableau: bool) -> (Outcome, Outcome) {
        let routes: &[Route] = if tableau {
            &[Route::Tableau, Route::Auto]
        } else {
            &[Route::Auto]
        };
        let mut best: Vec<Outcome> = routes
            .iter()
            .map(|&r| self.run_once(formula, psl, r))
            .collect();
        let slowest = best
            .iter()
            .map(|o| o.ms().unwrap_or(f64::INFINITY))
            .fold(0.0, f64::max);
        let runs = REPEATS
            .iter()
            .find(|&&(below, _)| slowest < below)
            .map_or(1, |&(_, n)| n);
        for _ in 1..runs {
            for (i, &r) in routes.iter().enumerate() {
                if let (Outcome::Done(b), Outcome::Done(s)) =
                    (&mut best[i], self.run_once(formula, psl, r))
                {
                    b.ms = b.ms.min(s.ms);
                    b.mib = b.mib.min(s.mib);
                }
            }
        }
        let auto = best.pop().expect("the auto route");
        let tab = best.pop().unwrap_or(Outcome::Skipped);
        (tab, auto)
    }

    /// Notes the failures of a formula and a disagreement of the routes.
    fn check(&mut self, name: &str, formula: &str, tab: &Outcome, auto: &Outcome) {
        for (route, o) in [("tableau", tab), ("auto", auto)] {
            if let Outcome::Failed(e) = o {
                self.notes
                    .push(format!("{name}: {route} route failed on `{formula}`: {e}"));
            }
        }
        if let (Some(t), Some(a)) = (tab.stats(), auto.stats()) {
            if t.states != a.states {
                self.notes.push(format!(
                    "{name}: the routes disagree on `{formula}`: {} states (tableau), {} (auto)",
                    t.states, a.states
                ));
            }
        }
    }

    /// Measures and prints one row.
    fn row(&mut self, label: &str, formula: &str, psl: bool, tableau: bool) {
        let (tab, auto) = self.measure(formula, psl, tableau);
        self.check(label, formula, &tab, &auto);
        let row = Row {
            label: label.to_string(),
            tableau: tab,
            auto,
        };
        let states = match (row.tableau.stats(), row.auto.stats()) {
            (Some(t), Some(a)) if t.states != a.states => format!("{}≠{}", t.states, a.states),
            (Some(s), _) | (_, Some(s)) => s.states.to_string(),
            _ => "-".to_string(),
        };
        let ratio = self.ratio(&row.tableau, &row.auto);
        self.print_row(label, &states, &row.tableau, &row.auto, &ratio);
        self.rows.push(row);
    }

    /// time(auto) / time(tableau), or a bound when the tableau did not end.
    fn ratio(&self, tab: &Outcome, auto: &Outcome) -> String {
        match (tab, auto.ms()) {
            (Outcome::Done(t), Some(a)) => fmt_ratio(a / t.ms),
            (Outcome::TimedOut { .. }, Some(a)) => {
                format!("<{}", fmt_ratio(a / (self.timeout.as_secs_f64() * 1e3)))
            }
            _ => "-".to_string(),
        }
    }

    fn print_row(&self, label: &str, states: &str, tab: &Outcome, auto: &Outcome, ratio: &str) {
        let [ti, tm, tmib] = tab.columns(self.timeout);
        let [ai, am, amib] = auto.columns(self.timeout);
        println!(
            "{label:<26} {states:>7} | {ti:>19} {tm:>10} {tmib:>7} | {ai:>19} {am:>10} {amib:>7} | {ratio:>8}"
        );
    }

    /// Measures every formula of a set and prints its summary row (total
    /// time and the largest peak per route, the worst ratio, the slowest
    /// formula, how many took the derivative route).
    fn set(&mut self, label: &str, formulas: &[(String, String)]) {
        let mut members = Vec::new();
        for (name, f) in formulas {
            let (tab, auto) = self.measure(f, false, true);
            self.check(label, f, &tab, &auto);
            members.push(Member {
                name: name.clone(),
                formula: f.clone(),
                tableau: tab,
                auto,
            });
        }
        let total = |pick: fn(&Member) -> &Outcome| -> Outcome {
            let mut st = Stats {
                states: 0,
                sizes: Sizes::Tableau {
                    buchi: 0,
                    subsets: 0,
                },
                ms: 0.0,
                mib: 0.0,
            };
            let (mut buchi, mut subsets, mut derivatives) = (0, 0, 0);
            for m in &members {
                let Some(s) = pick(m).stats() else {
                    // A member did not end: no total.
                    return pick(m).clone();
                };
                st.states += s.states;
                st.ms += s.ms;
                st.mib = st.mib.max(s.mib);
                match s.sizes {
                    Sizes::Tableau {
                        buchi: b,
                        subsets: s,
                    } => {
                        buchi += b;
                        subsets += s;
                    }
                    Sizes::Derivatives(d) => derivatives += d,
                    Sizes::Mixed { .. } => unreachable!("a member is one formula"),
                }
            }
            st.sizes = if derivatives > 0 {
                Sizes::Mixed {
                    buchi,
                    subsets,
                    derivatives,
                }
            } else {
                Sizes::Tableau { buchi, subsets }
            };
            Outcome::Done(st)
        };
        let tab = total(|m| &m.tableau);
        let auto = total(|m| &m.auto);
        let states = tab
            .stats()
            .or(auto.stats())
            .map_or("-".to_string(), |s| s.states.to_string());
        let ratio = self.ratio(&tab, &auto);
        let label = format!("{label} ({})", members.len());
        self.print_row(&label, &states, &tab, &auto, &ratio);

        let by_derivatives = members
            .iter()
            .filter(
                |m| matches!(m.auto.stats(), Some(s) if matches!(s.sizes, Sizes::Derivatives(_))),
            )
            .count();
        let both: Vec<(&Member, f64, f64)> = members
            .iter()
            .filter_map(|m| Some((m, m.tableau.ms()?, m.auto.ms()?)))
            .collect();
        let show = |m: &Member, t: f64, a: f64| {
            format!(
                "{} `{}`: tableau {t:.3} ms, auto {a:.3} ms",
                m.name,
                shorten(&m.formula, 70)
            )
        };
        println!(
            "    derivatives taken by {by_derivatives} of {} (auto); states, sizes and ms above are sums, MiB the largest (d: derivative states)",
            members.len()
        );
        if let Some(&(m, t, a)) = both
            .iter()
            .max_by(|x, y| (x.2 / x.1).total_cmp(&(y.2 / y.1)))
        {
            println!("    worst ratio {}: {}", fmt_ratio(a / t), show(m, t, a));
        }
        if let Some(&(m, t, a)) = both
            .iter()
            .max_by(|x, y| x.1.max(x.2).total_cmp(&y.1.max(y.2)))
        {
            println!("    slowest: {}", show(m, t, a));
        }
        for m in &members {
            for (route, o) in [("tableau", &m.tableau), ("auto", &m.auto)] {
                if !matches!(o, Outcome::Done(_)) {
                    let [i, t, _] = o.columns(self.timeout);
                    println!("    {route} did not end on {}: {i} {t}", m.name);
                }
            }
        }
        self.rows.push(Row {
            label,
            tableau: tab,
            auto,
        });
        self.members.extend(members);
    }

    /// The formulas `mongen genltl FAMILY FIRST LAST` prints.
    fn genltl(
        &self,
        family: &str,
        first: usize,
        last: usize,
    ) -> Result<Vec<String>, Box<dyn Error>> {
        let out = Command::new(&self.mongen)
            .args(["genltl", family, &first.to_string(), &last.to_string()])
            .output()?;
        if !out.status.success() {
            return Err(format!(
                "mongen genltl {family} {first} {last}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )
            .into());
        }
        Ok(String::from_utf8(out.stdout)?
            .lines()
            .map(str::to_string)
            .collect())
    }
}

fn fmt_ratio(r: f64) -> String {
    if r < 0.01 {
        format!("{r:.4}x")
    } else {
        format!("{r:.2}x")
    }
}

/// `s`, cut to about `n` characters.
fn shorten(s: &str, n: usize) -> String {
    match s.char_indices().nth(n) {
        Some((i, _)) => format!("{} …", &s[..i]),
        None => s.to_string(),
    }
}

fn section(title: &str) {
    println!("\n{title}");
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut quick = false;
    let mut mongen = std::env::current_exe()?.with_file_name("mongen");
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => quick = true,
            "--mongen" => mongen = args.next().ok_or("--mongen needs a path")?.into(),
            _ => {
                return Err(
                    format!("usage: bench_routes [--quick] [--mongen PATH] (not {a})").into(),
                )
            }
        }
    }
    if !mongen.exists() {
        return Err(format!(
            "{} not found: build it with `cargo build --release -p mongen` or pass --mongen PATH",
            mongen.display()
        )
        .into());
    }
    let mem_cap_mib = available_mib().map_or(4096.0, |m| (m / 2.0).min(8192.0));
    let mut b = Bench {
        mongen,
        timeout: Duration::from_secs(if quick { 10 } else { 60 }),
        mem_cap_mib,
        rows: Vec::new(),
        members: Vec::new(),
        notes: Vec::new(),
    };
    println!(
        "mongen compile --route tableau | --route auto: states of the minimal monitor, intermediate sizes \
         (B Büchi / S subsets, or deriv: derivative states), translation ms, peak MiB of the process; \
         timeout {} s, memory cap {:.0} MiB, --max-states {MAX_STATES}; fastest of 5 runs \
         under 200 ms, of 3 under 2 s",
        b.timeout.as_secs(),
        b.mem_cap_mib
    );
    println!(
        "\n{:<26} {:>7} | {:>19} {:>10} {:>7} | {:>19} {:>10} {:>7} | {:>8}",
        "", "", "tableau", "ms", "MiB", "auto", "ms", "MiB", "auto/tab"
    );

    let pick = |full: &[usize], short: &[usize]| -> Vec<usize> {
        if quick { short } else { full }.to_vec()
    };

    section("X-chain premise: G((req & X[1] req & ... & X[n-1] req) -> X[n] gnt)");
    for n in pick(&[8, 10, 12, 14, 16, 20, 24, 32], &[8, 12, 16, 32]) {
        b.row(
            &format!("x-chain n={n}"),
            &mongen_examples::x_chain(n),
            false,
            n <= XCHAIN_TABLEAU_MAX,
        );
    }

    section("G(a -> F[0:n] b)");
    for n in pick(&[10, 100, 1000, 3000, 4096, 10000], &[10, 100, 1000, 10000]) {
        b.row(
            &format!("F[0:n] n={n}"),
            &format!("G(a -> F[0:{n}] b)"),
            false,
            n <= RESPONSE_TABLEAU_MAX,
        );
    }

    section("PSL: always {s} |=> {{a[*k]} within {b[*1:m]}} (SEREs: the tableau on both routes)");
    let km: &[(usize, usize)] = if quick {
        &[(1, 2), (4, 8), (8, 16)]
    } else {
        &[(1, 2), (2, 4), (3, 6), (4, 8), (6, 12), (8, 16)]
    };
    for &(k, m) in km {
        let f = format!("always {{s}} |=> {{{{a[*{k}]}} within {{b[*1:{m}]}}}}");
        b.row(&format!("psl within k={k} m={m}"), &f, true, true);
    }

    section("Rozier's counters and or-g (mongen genltl)");
    for (family, full, short) in [
        ("rv-counter", &[4, 8, 10, 12][..], &[4, 8][..]),
        ("rv-counter-carry", &[4, 8, 10, 12], &[4, 8]),
        ("or-g", &[4, 8, 12, 14], &[4, 8, 12]),
    ] {
        for n in pick(full, short) {
            let f = b.genltl(family, n, n)?.concat();
            b.row(&format!("{family} {n}"), &f, false, true);
        }
    }

    section("Sets (one summary row each)");
    let named = |prefix: &str, first: usize, fs: Vec<String>| -> Vec<(String, String)> {
        fs.into_iter()
            .enumerate()
            .map(|(i, f)| (format!("{prefix} {}", first + i), f))
            .collect()
    };
    let dwyer = named("pattern", 1, b.genltl("dac-patterns", 1, 55)?);
    b.set("dwyer", &dwyer);
    let rozier = named("rozier-safety", 0, b.genltl("rozier-safety", 0, 12)?);
    b.set("rozier-safety", &rozier);
    // Random formulas over a..d: seed s has size 5 + s % 16 (a formula is
    // named by its seed and size, the generator is the same everywhere).
    let aps = ["a", "b", "c", "d"];
    let size = |seed: u64| 5 + (seed % 16) as usize;
    let random: Vec<(String, String)> = (0..200u64)
        .map(|seed| {
            let f = RandomLtl::new(&aps, size(seed)).seed(seed).next_formula();
            (format!("seed {seed} size {}", size(seed)), f.to_spot())
        })
        .collect();
    b.set("random LTL", &random);
    // Safety-shaped: G of a formula without F, U and M.
    let random_safety: Vec<(String, String)> = (0..200u64)
        .map(|seed| {
            let f = RandomLtl::new(&aps, size(seed))
                .weight(Op::F, 0)
                .weight(Op::U, 0)
                .weight(Op::M, 0)
                .seed(seed)
                .next_formula();
            (
                format!("seed {seed} size {}", size(seed)),
                Formula::always(f).to_spot(),
            )
        })
        .collect();
    b.set("random G(no F/U/M)", &random_safety);

    goals(&b);
    if !b.notes.is_empty() {
        println!("\nnotes:");
        for n in &b.notes {
            println!("  {n}");
        }
    }
    Ok(())
}

/// The goals of the derivative route, on the figures of this run.
fn goals(b: &Bench) {
    let verdict = |ok: bool| if ok { "ok" } else { "MISSED" };
    println!("\ngoals (measured in this run):");
    match b
        .rows
        .iter()
        .find(|r| r.label == "x-chain n=32")
        .and_then(|r| r.auto.stats())
    {
        Some(s) => {
            println!(
                "  x-chain n = 32, auto: {:.3} ms (goal < 50 ms) {}; {:.1} MiB (goal < 50 MiB) {}",
                s.ms,
                verdict(s.ms < 50.0),
                s.mib,
                verdict(s.mib < 50.0)
            );
        }
        None => println!("  x-chain n = 32, auto: did not end MISSED"),
    }
    let worst = b
        .rows
        .iter()
        .filter_map(|r| {
            let (t, a) = (r.tableau.ms()?, r.auto.ms()?);
            (t >= RATIO_MIN_TABLEAU_MS).then_some((r.label.as_str(), t, a))
        })
        .max_by(|x, y| (x.2 / x.1).total_cmp(&(y.2 / y.1)));
    match worst {
        Some((label, t, a)) => println!(
            "  worst time(auto)/time(tableau) over rows with both and tableau >= {RATIO_MIN_TABLEAU_MS} ms: \
             {} on {label} (tableau {t:.3} ms, auto {a:.3} ms) (goal <= {RATIO_GOAL}x) {}",
            fmt_ratio(a / t),
            verdict(a / t <= RATIO_GOAL)
        ),
        None => println!("  no row with both routes and tableau >= {RATIO_MIN_TABLEAU_MS} ms"),
    }
    // The same over the members of the sets (not rows: for information).
    if let Some((m, t, a)) = b
        .members
        .iter()
        .filter_map(|m| {
            let (t, a) = (m.tableau.ms()?, m.auto.ms()?);
            (t >= RATIO_MIN_TABLEAU_MS).then_some((m, t, a))
        })
        .max_by(|x, y| (x.2 / x.1).total_cmp(&(y.2 / y.1)))
    {
        println!(
            "  (for information, the worst member of a set with tableau >= {RATIO_MIN_TABLEAU_MS} ms: {} on {} `{}`: tableau {t:.3} ms, auto {a:.3} ms)",
            fmt_ratio(a / t),
            m.name,
            shorten(&m.formula, 60)
        );
    }
}
