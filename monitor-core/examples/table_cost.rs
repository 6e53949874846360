//! The time to build the runtime table of a monitor (dense arrays or
//! diagrams, and its explanations: a shortest word to each state, the
//! letters violating from it), apart from the monitor's construction, for
//! `k` independent pending requests (`G(a0 -> X b0) & … &
//! G(a{k-1} -> X b{k-1})`: `2^k` states with `2^k` targets each, over `2k`
//! propositions).
//!
//!     cargo run --release -p monitor-core --example table_cost -- 8 10
use monitor_core::translate::Builder;
use monitor_core::MonitorTable;

fn main() {
    let ks: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number of requests"))
        .collect();
    for k in if ks.is_empty() { vec![8, 10] } else { ks } {
        let f: Vec<String> = (0..k).map(|i| format!("G(a{i} -> X b{i})")).collect();
        let t0 = std::time::Instant::now();
        let dfa = Builder::new()
            .build(&f.join(" & "))
            .expect("a monitor")
            .into_dfa();
        let built = t0.elapsed();
        let t1 = std::time::Instant::now();
        let table = MonitorTable::from_dfa(&dfa);
        println!(
            "k={k}: {} states over {} propositions; monitor {built:.2?}, table {:.2?}",
            table.table().num_states(),
            dfa.alphabet().len(),
            t1.elapsed()
        );
    }
}
