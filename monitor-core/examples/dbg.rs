use monitor_core::formula::parse;
use monitor_core::translate::{Builder, Config, Prefixes};
fn main() {
    {
        let f = parse(&std::env::args().nth(1).unwrap()).unwrap();
        let a = Builder::new().configure(Config::new().check_safety(false)).build_from_formula(&f).unwrap().into_dfa();
        let b = Builder::new().configure(Config::new().prefixes(Prefixes::Informative).check_safety(false)).build_from_formula(&f).unwrap().into_dfa();
        println!("aps {:?} {:?}", a.alphabet().names(), b.alphabet().names());
        println!("diff {:?}", a.first_difference(&b).map(|(w, x, y)| (w.len(), x, y)));
        println!("diff rev {:?}", b.first_difference(&a).map(|(w, x, y)| (w.len(), x, y)));
    }
    let f = parse(&std::env::args().nth(1).unwrap()).unwrap();
    for p in [Prefixes::Exact, Prefixes::Informative] {
        let d = Builder::new().configure(Config::new().prefixes(p).check_safety(false)).build_from_formula(&f).unwrap().into_dfa();
        println!("{p:?}: {} states", d.num_states());
        for s in 0..d.num_states() as u32 {
            for e in d.edges(s) { println!("  {s} --[{}]--> {:?}", e.guard.display(d.alphabet()), e.target); }
        }
    }
}
#[allow(dead_code)]
fn unused() {}
