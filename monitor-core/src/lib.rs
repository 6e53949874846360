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
* [`word`]: ultimately periodic words ([`Lasso`](word::Lasso)), read by
  the evaluator, the automata and the analyses' witnesses.
* [`dd`]: BDDs for guards and multi-terminal diagrams for transition
  functions (the alphabet is never enumerated, so 40 propositions are fine).
* [`automaton`]: the intermediate Büchi automata and the finished
  [`BadPrefixDfa`](automaton::BadPrefixDfa).
* `algo` (internal): one algorithm per file (tableau, emptiness, subset
  construction, minimization, products), driven by [`translate`].
* [`error`]: [`BuildError`](error::BuildError), the error of every stage
  of the translation.
* [`translate`]: the pipeline ([`Builder`](translate::Builder),
  [`Config`](translate::Config), [`Translation`](translate::Translation)),
  and its stages one at a time ([`translate::stages`]).
* [`analysis`]: what is known about a formula beyond its monitor
  ([`classify`](analysis::classify): safety, guarantee, liveness,
  pathologic; stutter-invariance; the informative monitor compared with
  the exact one; the symbolic transducer).
* [`runtime`]: running monitors, `no_std` and allocation-free: the
  [`Monitor`] type, compiled [`Table`](runtime::Table)s, [`Verdict`] and
  [`Violation`] (why a run failed). `Monitor::from_ltl` compiles a formula
  at run time; `#[monitor]` (crate `monitor-macros`) and
  `mongen compile --target rust` embed the tables at compile time. Their
  states are numbered as the automaton's ([`StateId::as_u32`](automaton::StateId::as_u32)).
* [`lazy`]: [`LazyMonitor`](lazy::LazyMonitor), a monitor that
  determinizes as it reads, for properties whose monitor is too large to
  build whole.

The repository's `docs/architecture.md` draws the pipeline and says which
module owns what; `docs/references.md` lists the papers cited by key.

# Features

* `std` (default): the compiler (formulas, automata, translation) and
  run-time compilation of monitors. Without it the crate is `#![no_std]` and
  holds only [`runtime`], [`Verdict`], [`Valuation`]: what generated
  monitors need.
* `trace`: checking traces (the `trace` module: CSV, JSON Lines and VCD
  readers, expressions over their fields).
* `generators`: random formulas and the benchmark families
  (`formula::random`, `formula::families`).
* `proptest`: proptest strategies for formulas and words (`strategy`), so
  that failing property-based tests shrink.
* `bitvec` (off by default): [`Valuation`] for `bitvec`'s `BitSlice`, for
  letters of more than 128 propositions. It brings `bitvec` and its
  dependencies (`tap`, `funty`, `radium`, `wyz`) into the build.

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
use monitor_core::analysis::classify;
use monitor_core::translate::Config;

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
// Without `std` the compiler's modules are left out, and the overview above
// links to them: the runtime's users (`default-features = false`) should
// not get warnings for links that only the full crate can resolve.
#![cfg_attr(not(feature = "std"), allow(rustdoc::broken_intra_doc_links))]

#[cfg(feature = "std")]
pub(crate) mod algo;
#[cfg(feature = "std")]
pub mod analysis;
#[cfg(feature = "std")]
pub mod automaton;
#[cfg(feature = "std")]
mod budget;
#[cfg(feature = "std")]
pub mod dd;
#[cfg(feature = "std")]
pub mod error;
#[cfg(feature = "std")]
pub mod formula;
#[cfg(feature = "std")]
pub mod lazy;
pub mod runtime;
#[cfg(feature = "proptest")]
pub mod strategy;
#[cfg(feature = "trace")]
pub mod trace;
#[cfg(feature = "std")]
pub mod translate;
mod valuation;
#[cfg(feature = "std")]
pub mod word;

#[cfg(feature = "std")]
pub use runtime::MonitorTable;
pub use runtime::{Monitor, Verdict, Violation};
pub use valuation::Valuation;

/// What the code generated by `#[monitor]` uses; not a public API.
#[doc(hidden)]
pub mod __private {
    /// `on_violation = log` calls `::monitor_core::__private::log::error!`,
    /// so that the crates using `#[monitor]` need not depend on `log`.
    pub use log;
}

/// The crate README's examples, run as documentation tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[allow(dead_code)]
struct Readme;
