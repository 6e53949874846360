//! What the hardware targets (Verilog, SystemVerilog, SystemC) share: the
//! encoding of the state register, the clock and reset ([`clocking`]) and
//! their Verilog text, the next-state logic minimized as sums of products
//! (`logic`), and the per-state branches of a `case` (`branches`). The
//! emitters `verilog`, `systemc` and `formal` build on it; nothing here
//! depends on them.

pub(crate) mod branches;
pub mod clocking;
pub(crate) mod logic;

use clocking::{ClockEdge, Clocking};

/// How the state register encodes the monitor state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateEncoding {
    /// State `k` is the number `k` in ceil(log2 n) bits.
    Binary,
    /// State `k` is bit `k` of an n-bit register.
    OneHot,
}

impl StateEncoding {
    /// The number of flip-flops holding the state of an `n`-state monitor.
    ///
    /// ```
    /// use mongen::emit::hardware::StateEncoding;
    /// assert_eq!(StateEncoding::Binary.state_bits(5), 3);
    /// assert_eq!(StateEncoding::OneHot.state_bits(5), 5);
    /// assert_eq!(StateEncoding::Binary.state_bits(1), 0);
    /// ```
    pub fn state_bits(self, n: usize) -> usize {
        match self {
            _ if n <= 1 => 0,
            StateEncoding::Binary => (usize::BITS - (n - 1).leading_zeros()) as usize,
            StateEncoding::OneHot => n,
        }
    }
}

/// The Verilog text of a checker's clocking, shared by the Verilog and
/// SystemVerilog checkers.
pub(crate) struct HardwareClocking {
    /// `rst_n && ` (outputs are 0 in reset), or empty.
    pub on: String,
    /// The register block's event: `posedge clk or negedge rst_n`.
    pub sensitivity: String,
    /// The reset's active level as a condition: `!rst_n`, `rst`.
    pub reset_active: String,
    /// The clock event alone: `posedge clk`.
    pub clock_event: String,
    /// `if (rst_n) ` before the assertions, or empty.
    pub formal_guard: String,
    /// The header's sentence on the reset.
    pub reset_doc: String,
    port_lines: Vec<String>,
}

impl HardwareClocking {
    pub fn new(c: &Clocking) -> Self {
        let clock_event = format!("{} {}", c.clock.edge.keyword(), c.clock.name);
        let edge = match c.clock.edge {
            ClockEdge::Posedge => "rising",
            ClockEdge::Negedge => "falling",
        };
        let mut port_lines = vec![format!(
            "{:<12} clock (checks on the {edge} edge)",
            c.clock.name
        )];
        match &c.reset {
            None => HardwareClocking {
                on: String::new(),
                sensitivity: clock_event.clone(),
                reset_active: String::new(),
                formal_guard: String::new(),
                clock_event,
                reset_doc: "No reset: the registers start in the initial state (declaration \
                            initializers)."
                    .into(),
                port_lines,
            },
            Some(r) => {
                let (active, inactive, edge) = if r.active_low {
                    (format!("!{}", r.name), r.name.clone(), "negedge")
                } else {
                    (r.name.clone(), format!("!{}", r.name), "posedge")
                };
                HardwareClocking {
                    on: format!("{inactive} && "),
                    sensitivity: if r.asynchronous {
                        format!("{clock_event} or {edge} {}", r.name)
                    } else {
                        clock_event.clone()
                    },
                    reset_active: active,
                    // Only a synchronous reset leaves the state
                    // unconstrained in a reset cycle (`fail` is 0 in
                    // reset anyway); an asynchronous reset read in a
                    // clocked block would be SYNCASYNCNET.
                    formal_guard: if r.asynchronous {
                        String::new()
                    } else {
                        format!("if ({inactive}) ")
                    },
                    clock_event,
                    reset_doc: format!("All outputs are 0 while {} is {}.", r.name, r.level()),
                    port_lines: {
                        port_lines.push(format!(
                            "{:<12} {} active-{} reset (restarts the check){}",
                            r.name,
                            r.timing(),
                            r.level(),
                            match &r.condition {
                                Some(c) => format!(
                                    ": drive it with `{}` (the disable iff)",
                                    super::names::comment_safe(&c.expression)
                                ),
                                None => String::new(),
                            }
                        ));
                        port_lines
                    },
                }
            }
        }
    }

    /// The header's lines on the clock and reset ports.
    pub fn port_doc(&self) -> Vec<String> {
        self.port_lines.clone()
    }
}
