//! `#[monitor]`: a temporal safety property, compiled at build time into a
//! monitor type that costs a table lookup per event.
//!
//! This crate is a thin wrapper: the expansion is
//! [`mongen::monitor_attr::expand`], a normal, unit-tested library
//! function. The generated code uses the `no_std` runtime of
//! `monitor-core`, which the crate using `#[monitor]` depends on.
//!
//! # On a struct: snapshots
//!
//! The propositions are `bool` fields, or predicates given with `ap(...)`
//! (any Rust expression of type `bool` over `self`). The attribute adds a
//! type `NameMonitor` (`Copy`, 4 bytes) whose `observe` reads a snapshot:
//!
//! ```
//! use monitor_core::Verdict;
//! use monitor_macros::monitor;
//!
//! #[monitor(ltl = "G(req -> X(ack | X ack))")]
//! struct Bus {
//!     req: bool,
//!     ack: bool,
//! }
//!
//! let mut m = BusMonitor::new();
//! assert_eq!(m.observe(&Bus { req: true, ack: false }), Verdict::Undecided);
//! assert_eq!(m.observe(&Bus { req: false, ack: false }), Verdict::Undecided);
//! assert_eq!(m.observe(&Bus { req: false, ack: false }), Verdict::Violated);
//! let why = m.violation().unwrap();
//! assert_eq!(why.after, "req; !ack");
//! assert_eq!(why.letters, "!ack");
//!
//! #[monitor(ltl = "G !(low && high)", ap(low = self.level < 10, high = self.level > 90))]
//! struct Tank {
//!     level: u32,
//! }
//!
//! let mut t = TankMonitor::new();
//! assert_eq!(t.observe(&Tank { level: 50 }), Verdict::Undecided);
//!
//! // PSL (IEEE 1850): a request is answered within one to three cycles.
//! #[monitor(psl = "always {req} |=> {[*0:2]; ack}")]
//! struct Handshake {
//!     req: bool,
//!     ack: bool,
//! }
//!
//! let mut h = HandshakeMonitor::new();
//! let idle = Handshake { req: false, ack: false };
//! h.observe(&Handshake { req: true, ack: false });
//! h.observe(&idle);
//! h.observe(&idle);
//! assert_eq!(h.observe(&idle), Verdict::Violated);
//! ```
//!
//! # On an impl block: method calls
//!
//! Each method named in the formula is an event; every call steps the
//! monitor, kept in a field of `self` (`monitor` by default, `field = name`
//! otherwise), before the body runs. On a violation the monitor reacts as
//! `on_violation` says: `panic`, `debug_panic` (the default: panic in debug
//! builds, record only in release builds), `log` (`log::error!`), `ignore`,
//! a function `path` called with the `monitor_core::Violation`,
//! or `result`: the call returns `Err(From::from(violation))` without
//! running, and the monitor stays where it was.
//!
//! ```
//! use monitor_core::Violation;
//! use monitor_macros::monitor;
//!
//! #[derive(Debug, PartialEq)]
//! struct Misuse(String);
//!
//! impl From<Violation<'static>> for Misuse {
//!     fn from(v: Violation<'static>) -> Self {
//!         Misuse(v.to_string())
//!     }
//! }
//!
//! struct File {
//!     monitor: FileMonitor,
//!     open: bool,
//! }
//!
//! // `open` may not be called again before `close`.
//! #[monitor(ltl = "G(open -> X(!open U close))", on_violation = result)]
//! impl File {
//!     fn open(&mut self) -> Result<(), Misuse> {
//!         self.open = true;
//!         Ok(())
//!     }
//!     fn close(&mut self) -> Result<(), Misuse> {
//!         self.open = false;
//!         Ok(())
//!     }
//! }
//!
//! let mut f = File { monitor: FileMonitor::new(), open: false };
//! assert_eq!(f.open(), Ok(()));
//! let err = f.open().unwrap_err();
//! assert!(err.0.contains("violated by `open`"), "{err:?}");
//! assert!(f.open); // refused: the body did not run twice, the monitor did not move
//! assert_eq!(f.close(), Ok(()));
//! assert_eq!(f.open(), Ok(()));
//! ```
//!
//! # Options
//!
//! | option | meaning |
//! |---|---|
//! | `ltl = "..."` | the property (Spot/Spin syntax, past operators allowed) |
//! | `psl = "..."` | the property in PSL instead (Verilog flavour or NuSMV syntax, SEREs) |
//! | `ap(name = expr, ...)` | predicates (structs): `bool` expressions over `self`, bare or in a string |
//! | `name = Ident` | the monitor type (default: the type's name followed by `Monitor`) |
//! | `verdicts = 3` | also detect good prefixes (`Verdict::Satisfied`) |
//! | `closure` | accept a non-safety property and monitor its safety closure |
//! | `on_violation = ...` | `panic`, `debug_panic`, `log`, `ignore`, `result`, or a function |
//! | `field = name` | impl blocks: the field holding the monitor (default `monitor`) |
//! | `max_states = N` | stop with an error when the monitor grows beyond `N` states |
//!
//! Mistakes are compile errors at the right place: a syntax error in the
//! formula (with the column and a caret), an unknown proposition (with the
//! fields or methods available), a field that is not a `bool`, a
//! non-safety property without `closure` or `verdicts = 3`.

use proc_macro::TokenStream;

/// Compiles a temporal safety property into a monitor type (see the crate
/// documentation).
#[proc_macro_attribute]
pub fn monitor(attr: TokenStream, item: TokenStream) -> TokenStream {
    mongen::monitor_attr::expand(attr.into(), item.into()).into()
}
