use monitor_core::formula::{families, parse};
use monitor_core::translate::{classify, Builder, Config};
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for a in &args {
        let f = if let Some((fam, n)) = a.split_once('=') { families::generate(fam, n.parse().unwrap()).unwrap() } else { parse(a).unwrap() };
        let t = Builder::new().build_from_formula(&f).unwrap();
        let c = classify(&f, &Config::new()).unwrap();
        println!("{} : states={} nba={} subset={} time={:?} safety={:?} | cls safety={} synt={} guar={} live={} stutter={} patho={}",
          f, t.dfa().num_states(), t.stats().nba_states, t.stats().subset_states, t.stats().time, t.is_safety(),
          c.safety, c.syntactic_safety, c.guarantee, c.liveness, c.stutter_invariant, c.pathologic);
    }
}
