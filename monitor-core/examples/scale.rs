use monitor_core::formula::families;
use monitor_core::translate::{Builder, Config};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for a in &args {
        let (fam, n) = a.split_once('=').unwrap();
        let f = families::generate(fam, n.parse().unwrap()).unwrap();
        let t0 = std::time::Instant::now();
        let t = Builder::new()
            .configure(
                Config::new()
                    .check_safety(false)
                    .max_states(Some(5_000_000)),
            )
            .build_from_formula(&f)
            .unwrap();
        println!(
            "{a}: states={} nba={} subset={} time={:?}",
            t.dfa().num_states(),
            t.stats().nba_states,
            t.stats().subset_states,
            t0.elapsed()
        );
    }
}
