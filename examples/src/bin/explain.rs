//! Monitor a trace against a property and explain the violation.
//!
//! ```text
//! cargo run -p mongen-examples --bin explain -- 'G(req -> X(ack | X ack))' 'req; ; ; ack'
//! ```
//!
//! A trace is a `;`-separated list of steps; each step lists the
//! propositions that hold (separated by spaces or commas). Without
//! arguments a built-in request/acknowledge trace is checked.

use std::error::Error;

use monitor_core::automaton::{Target, Verdict};
use monitor_core::translate::{Builder, Config, Verdicts};

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let property = args
        .next()
        .unwrap_or_else(|| "G(req -> X(ack | X ack))".into());
    let trace = args
        .next()
        .unwrap_or_else(|| "req; ack; ; req; ; ; ack".into());
    let t = Builder::new()
        .configure(Config::new().verdicts(Verdicts::Three))
        .build(&property)?;
    let dfa = t.dfa();
    let aps = dfa.alphabet();
    println!("property: {}  ({} states)", t.formula(), dfa.num_states());
    if t.is_safety() == Some(false) {
        println!("note: not a safety property; only violations of its safety closure are detected");
    }
    let mut state = dfa.start();
    for (i, step) in trace.split(';').enumerate() {
        let names: Vec<&str> = step
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|s| !s.is_empty())
            .collect();
        for n in &names {
            if aps.index(n).is_none() {
                return Err(format!("step {i}: `{n}` is not a proposition of the property").into());
            }
        }
        // The letter: proposition k holds iff it is listed.
        let letter: Vec<bool> = aps
            .names()
            .iter()
            .map(|a| names.contains(&a.as_str()))
            .collect();
        match dfa.step(state, &letter) {
            Target::State(next) => {
                state = next;
                println!(
                    "step {i}: {{{}}} -> {}",
                    names.join(", "),
                    dfa.verdict(state)
                );
                if dfa.verdict(state) == Verdict::Satisfied {
                    println!("every continuation satisfies the property");
                    return Ok(());
                }
            }
            Target::Violation => {
                println!("step {i}: {{{}}} -> violated", names.join(", "));
                let bad = dfa.violation_guard(state)?;
                println!(
                    "  at this point the letters `{}` violate the property",
                    bad.display(aps)
                );
                println!(
                    "  the property allowed: {}",
                    dfa.allowed_guard(state)?.display(aps)
                );
                if let Some(w) = dfa.shortest_violation() {
                    let w: Vec<String> = w.iter().map(|g| g.display(aps).to_string()).collect();
                    println!(
                        "  (a shortest violation of this property: {})",
                        w.join("; ")
                    );
                }
                std::process::exit(1);
            }
        }
    }
    println!("no violation so far (verdict: {})", dfa.verdict(state));
    Ok(())
}
