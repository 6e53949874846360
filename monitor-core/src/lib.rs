/*!
Compile temporal safety properties into deterministic, minimal monitors.

`monitor-core` turns a formula of LTL with past-time operators, or a PSL
property with SEREs ([`formula::psl`]), into the minimal deterministic
automaton of its *bad prefixes*: the finite words
after which no continuation can satisfy the property. It also decides
whether the formula is a safety property at all, and where it sits in the
safety-progress hierarchy. The back ends (HOA, DOT, JSON, and the model
checker, hardware and Rust targets) live in the `mongen` crate and only
read the finished automaton.

# Overview

* [`formula`]: hash-consed formulas, the parsers (Spot and Spin syntax, past
  operators; PSL with SEREs), errors with line, column and caret, printers,
  the simplifier,
  a brute-force evaluator used as the reference in tests, random formulas
  and benchmark families.
* [`dd`]: BDDs for guards and multi-terminal diagrams for transition
  functions (the alphabet is never enumerated, so 40 propositions are fine).
* [`automaton`]: the intermediate Büchi automata and the finished
  [`BadPrefixDfa`](automaton::BadPrefixDfa).
* [`algo`]: one algorithm per file (tableau, emptiness, subset
  construction, minimization, products).
* [`translate`]: the pipeline ([`Builder`](translate::Builder) and
  [`Config`](translate::Config)) and the analysis
  ([`classify`](translate::classify)).
* [`runtime`]: running monitors, `no_std` and allocation-free: the
  [`Monitor`] type, compiled [`Table`](runtime::Table)s, [`Verdict`] and
  [`Violation`] (why a run failed). `Monitor::from_ltl` compiles a formula
  at run time; `#[monitor]` (crate `monitor-macros`) and
  `mongen compile --target rust` embed the tables at compile time.

# Features

`std` (default): everything. Without it the crate is `#![no_std]` and holds
only [`runtime`], [`Verdict`], [`Valuation`]: what generated monitors need.

# Example: a monitor, run on a trace

```
use monitor_core::translate::Builder;
use monitor_core::automaton::Verdict;

// Every request is acknowledged at the next step.
let t = Builder::new().build("G(req -> X ack)")?;
assert_eq!(t.is_safety(), Some(true));
let dfa = t.dfa();
assert_eq!(dfa.num_states(), 2);
// Letters are bit masks over the propositions, in order: req = bit 0.
let (req, ack) = (0b01u64, 0b10u64);
assert_eq!(dfa.run([req, ack, 0]), Verdict::Undecided);
assert_eq!(dfa.run([req, 0]), Verdict::Violated);
// Why: a shortest bad prefix.
let why: Vec<String> = dfa.shortest_violation().unwrap()
    .iter().map(|g| g.display(dfa.alphabet()).to_string()).collect();
assert_eq!(why, ["req", "!ack"]);
# Ok::<(), Box<dyn std::error::Error>>(())
```

# Example: semantic safety

```
use monitor_core::formula::parse;
use monitor_core::translate::{classify, Config};

// Not syntactically safe, yet a safety property (a Dwyer pattern).
let c = classify(&parse("F p0 -> (!p1 U p0)")?, &Config::new())?;
assert!(!c.syntactic_safety);
assert_eq!(c.safety, Some(true));
# Ok::<(), Box<dyn std::error::Error>>(())
```

# Limits

The translation is exponential in the formula in the worst case, and the
minimal monitor can be doubly exponential; every automaton built along
the way is bounded by [`Config::max_states`](translate::Config::max_states),
and exceeding it is an error, not a hang. Past operators must apply to
past-time formulas (`G(ack -> Y req)` is fine, `O(F p)` is rejected).
*/

#![warn(missing_docs)]
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "std")]
pub mod algo;
#[cfg(feature = "std")]
pub mod automaton;
#[cfg(feature = "std")]
pub mod dd;
#[cfg(feature = "std")]
pub mod formula;
pub mod runtime;
#[cfg(feature = "trace")]
pub mod trace;
#[cfg(feature = "std")]
pub mod translate;
mod valuation;

#[cfg(feature = "std")]
pub use runtime::MonitorTable;
pub use runtime::{Monitor, Verdict, Violation};
pub use valuation::Valuation;
