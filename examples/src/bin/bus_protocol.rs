//! A request/acknowledge bus checked by monitors that `#[monitor]` compiled
//! at build time.
//!
//! ```text
//! cargo run -p mongen-examples --bin bus_protocol [CYCLES] [SEED]
//! ```
//!
//! A master raises `req` and keeps it until it sees `ack`; a slave
//! acknowledges after a random delay, which is sometimes one cycle too
//! long, and now and then acknowledges nothing at all. Three properties of
//! the protocol are checked on every cycle; each monitor reports its first
//! violation with the cycle and the explanation, then restarts.

use monitor_core::Verdict;
use monitor_macros::monitor;

/// The bus in one cycle.
#[monitor(ltl = "G(req -> X(ack | X ack))", name = Response)]
#[derive(Clone, Copy, Debug, Default)]
struct Bus {
    req: bool,
    ack: bool,
    /// The request was already pending in the previous cycle.
    held: bool,
}

// Acknowledgements only answer a request, and requests are held until
// acknowledged (predicates over the snapshot).
#[monitor(
    ltl = "G(ack -> (Y req | Y Y req)) & G((req & !ack) -> X req)",
    ap(req = self.bus.req, ack = self.bus.ack),
    name = Protocol
)]
struct Cycle {
    bus: Bus,
}

/// A small deterministic random generator (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let cycles: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(7);
    let mut rng = Rng(seed | 1);
    let mut response = Response::new();
    let mut protocol = Protocol::new();
    let mut bus = Bus::default();
    let mut delay = 0;
    let mut violations = 0;
    for cycle in 0..cycles {
        // The slave answers a pending request after `delay` cycles.
        let ack = bus.req && bus.held && delay == 0;
        if bus.req && !bus.held {
            // 0, 1 or, rarely, 2 cycles: too slow for the first property.
            delay = match rng.below(20) {
                0 => 2,
                1..=8 => 1,
                _ => 0,
            };
        } else if delay > 0 {
            delay -= 1;
        }
        let req = if bus.req && !bus.ack {
            true
        } else {
            rng.below(3) == 0
        };
        bus = Bus {
            req,
            ack,
            held: bus.req && req,
        };
        // A glitch: the slave acknowledges out of the blue.
        if rng.below(60) == 0 {
            bus.ack = true;
        }
        for (name, verdict, why) in [
            ("response", response.observe(&bus), response.violation()),
            (
                "protocol",
                protocol.observe(&Cycle { bus }),
                protocol.violation(),
            ),
        ] {
            if verdict == Verdict::Violated {
                violations += 1;
                println!(
                    "cycle {cycle:>4}: {name} violated: {}",
                    why.expect("a violation")
                );
            }
        }
        if response.verdict() == Verdict::Violated {
            response.reset();
        }
        if protocol.verdict() == Verdict::Violated {
            protocol.reset();
        }
    }
    println!(
        "{cycles} cycles, {violations} violations; monitors of {} and {} states, {} bytes each",
        Response::STATES,
        Protocol::STATES,
        std::mem::size_of::<Response>()
    );
}
