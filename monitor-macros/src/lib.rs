//! `#[monitor]`: a temporal safety property, compiled at build time into a
//! monitor type that costs a table lookup per event.
//!
//! This crate is a thin wrapper: the expansion is
//! [`monitor_expand::expand`], a normal, unit-tested library
//! function. The generated code uses the `no_std` runtime of
//! `monitor-core`, which the crate using `#[monitor]` depends on.
//!
//! # On a struct: snapshots
//!
//! The propositions are `bool` fields, or predicates given with `ap(...)`
//! (any Rust expression of type `bool` over `self`). The attribute adds a
//! type `NameMonitor` (`Copy`, 24 bytes) whose `observe` reads a snapshot:
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
//! assert_eq!(why.position, Some(2)); // the third snapshot
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
//!
//! // SVA (IEEE 1800), as an assertion: checked at every snapshot.
//! #[monitor(sva = "req |-> ##[1:3] ack")]
//! struct Answered {
//!     req: bool,
//!     ack: bool,
//! }
//!
//! let mut a = AnsweredMonitor::new();
//! a.observe(&Answered { req: true, ack: false });
//! a.observe(&Answered { req: false, ack: false });
//! a.observe(&Answered { req: false, ack: false });
//! assert_eq!(a.observe(&Answered { req: false, ack: false }), Verdict::Violated);
//! ```
//!
//! # On an impl block: method calls
//!
//! Each method named in the formula is an event; every call steps the
//! monitor, kept in a field of `self` (`monitor` by default, `field = name`
//! otherwise), before the body runs. The body may be of any shape (an
//! expression, statements, `return`, `?`); the generated code adds no
//! warning, and errors in it are reported where they are. An event takes
//! `&mut self` or `&self` (also written `self: &mut Self`, or through
//! `Rc<Self>`, `Arc<Self>` or `Pin<&mut Self>`, which reach the monitor as
//! `&self` does); it may be generic, `unsafe` or `extern "C"`, and `fn
//! r#match` is the event `match`. Each event has a constant `EVENT_NAME`
//! (its name in upper case): two events equal in upper case (`open`,
//! `OPEN`) are refused.
//!
//! An `async fn` event is refused, and so is a `const fn`. A future does
//! nothing until it is polled, so a Rust developer reads `conn.send(x)` on
//! an `async fn` as "nothing has happened yet", while the monitor reads
//! every call as an event: stepping at the call would contradict the first
//! reading, stepping when the future is first polled would miss a future
//! dropped unpolled and reorder futures polled out of order. Neither is
//! what the code says, so the attribute asks for one of two explicit forms:
//! a plain `fn send(&mut self, ..) -> impl Future<Output = T> + '_ { async
//! move { .. } }` is an event at the call, polled or not; an event method
//! called from inside the async body is an event when the body runs. On a violation the monitor reacts as
//! `on_violation` says: `panic`, `debug_panic` (the default: panic in debug
//! builds, record only in release builds; see [below](#after-a-violation)),
//! `log` (`log::error!`, through `monitor-core`: the crate need not depend
//! on `log`), `ignore`, a function `path` called with the
//! `monitor_core::Violation`, or `result`: the call returns
//! `Err(From::from(violation))` without running, and the monitor stays
//! where it was.
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
//! # After a violation
//!
//! A monitor never forgets a violation: its verdict stays
//! `Verdict::Violated` until `reset()`, and `violation()` describes the
//! **first** one (the state where it happened, the call that caused it,
//! `event`, and its `position`: the index of the violating snapshot or
//! call in the run, **counting from 0**). The reaction (`panic`, `log`, the
//! function, the `debug_panic` panic) runs once, on that first violation;
//! the panic and log messages are `monitor NameMonitor: ` followed by the
//! same description as `violation()`.
//!
//! The monitor goes on checking, as if the violating snapshot or call had
//! not happened, and `violations()` counts them all: the first and every
//! later one (saturating at `u32::MAX`). So in release builds, where the
//! default `debug_panic` neither panics nor prints, `violations()` tells
//! how often the property was broken and `violation()` where it was first;
//! choose `log`, a function or `panic` to hear about it at once.
//! With `on_violation = result` a refused call is not read: the monitor
//! does not move, and neither records nor counts it (positions count the
//! calls the monitor read).
//!
//! ```
//! use monitor_macros::monitor;
//!
//! struct Lock {
//!     monitor: LockMonitor,
//! }
//!
//! #[monitor(ltl = "G(acquire -> X release)", on_violation = ignore)]
//! impl Lock {
//!     fn acquire(&mut self) {}
//!     fn release(&mut self) {}
//! }
//!
//! let mut l = Lock { monitor: LockMonitor::new() };
//! l.acquire();
//! l.acquire(); // call 1: violates
//! l.release();
//! l.acquire();
//! l.acquire(); // call 4: violates again
//! assert_eq!(l.monitor.violations(), 2);
//! let first = l.monitor.violation().unwrap();
//! assert_eq!((first.event, first.position), (Some("acquire"), Some(1)));
//! assert_eq!(
//!     first.to_string(),
//!     "`G(acquire -> X release)` violated by `acquire` at step 1 (0-based): \
//!      after `acquire`, the event must not be `acquire`"
//! );
//! ```
//!
//! # Options
//!
//! | option | meaning |
//! |---|---|
//! | `ltl = "..."` | the property (Spot/Spin syntax, past operators allowed) |
//! | `psl = "..."` | the property in PSL instead (Verilog flavour or NuSMV syntax, SEREs) |
//! | `sva = "..."` | the property in SVA instead: an assertion (`assert property (p);` or `p`, with its `sequence`, `property`, `let` declarations), `p` checked at every snapshot; `disable iff (rst)` makes `rst` a proposition; no clock |
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
///
/// On a violation, the reaction (`on_violation`) runs once, on the first
/// one; the monitor keeps it (`violation()`: the call, and its position
/// counting from 0) and counts it and the later ones (`violations()`). The
/// default, `debug_panic`, panics in debug builds and is silent in release
/// builds, where only `violation()` and `violations()` tell.
#[proc_macro_attribute]
pub fn monitor(attr: TokenStream, item: TokenStream) -> TokenStream {
    monitor_expand::expand(attr.into(), item.into()).into()
}

/// The crate README's examples, run as documentation tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
#[allow(dead_code)]
struct Readme;
