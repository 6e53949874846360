//! The clock and reset of a hardware checker (Verilog, SystemVerilog,
//! SystemC), as the command line writes them: `--clock NAME[:posedge|negedge]`,
//! `--reset NAME[:low|high][:sync|async]`, `--no-reset`.
//!
//! A reset restarts the check: while it is active the outputs are 0 and the
//! state returns to the initial one; the first clock edge after it is the
//! first letter of a new trace. A synchronous reset acts on the clock edges
//! where it is active; an asynchronous one as soon as it is asserted, so a
//! pulse between two edges also restarts the check. Without a reset, the
//! registers start in the initial state (declaration initializers, which
//! FPGA synthesis and formal tools honour).
//!
//! ```
//! use mongen::emit::hardware::clocking::{Clock, ClockEdge, Clocking, Reset};
//!
//! let clock: Clock = "clk_i:negedge".parse()?;
//! assert_eq!(clock.edge, ClockEdge::Negedge);
//! let reset: Reset = "rst:high:async".parse()?;
//! assert!(!reset.active_low && reset.asynchronous);
//! // The default: rising edges of `clk`, synchronous active-low `rst_n`.
//! let d = Clocking::default();
//! assert_eq!(d.describe(), "clock clk (rising edge); reset rst_n (synchronous, active low)");
//! # Ok::<(), String>(())
//! ```

use std::fmt;
use std::str::FromStr;

/// The clock edge a checker samples on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClockEdge {
    /// The rising edge.
    #[default]
    Posedge,
    /// The falling edge.
    Negedge,
}

impl ClockEdge {
    /// The Verilog keyword (`posedge`, `negedge`).
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::ClockEdge;
    ///
    /// assert_eq!(ClockEdge::Negedge.keyword(), "negedge");
    /// assert_eq!(ClockEdge::default().keyword(), "posedge");
    /// ```
    pub fn keyword(self) -> &'static str {
        match self {
            ClockEdge::Posedge => "posedge",
            ClockEdge::Negedge => "negedge",
        }
    }
}

/// A checker's clock: the port name and the edge.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clock {
    /// The port.
    pub name: String,
    /// The sampling edge.
    pub edge: ClockEdge,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            name: "clk".into(),
            edge: ClockEdge::Posedge,
        }
    }
}

/// A checker's reset: the port name, its active level and whether it acts
/// at once (asynchronous) or on clock edges (synchronous).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reset {
    /// The port.
    pub name: String,
    /// Active when 0 (`rst_n`), else when 1.
    pub active_low: bool,
    /// Acts as soon as asserted, not only on clock edges.
    pub asynchronous: bool,
    /// A reset that is a condition of the design's signals (an SVA
    /// `disable iff (!rst_ni || flush_i)`) rather than one of them: the
    /// port (active high) is driven by the condition where the checker is
    /// instantiated. `None`: the port reads the design's signal of its name.
    pub condition: Option<ResetCondition>,
}

/// The condition that drives a checker's reset port (see
/// [`Reset::condition`]).
///
/// ```
/// use mongen::emit::hardware::clocking::{Reset, ResetCondition};
///
/// let r = Reset {
///     name: "disable_iff".into(),
///     active_low: false,
///     asynchronous: true,
///     condition: Some(ResetCondition {
///         expression: "!rst_ni || flush_i".into(),
///         initial: "!rst_ni".into(),
///     }),
/// };
/// assert_eq!(r.to_string(), "disable_iff:high:async");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResetCondition {
    /// The Verilog expression, over the design's signals, connected to the
    /// port: the checker is in reset while it is 1.
    pub expression: String,
    /// The Verilog expression a formal harness assumes in the first cycle
    /// (the design's own reset among the condition's terms, so that the
    /// proof starts from the design's reset state, not from a state that
    /// only the condition's other terms excuse).
    pub initial: String,
}

impl Default for Reset {
    fn default() -> Self {
        Reset {
            name: "rst_n".into(),
            active_low: true,
            asynchronous: false,
            condition: None,
        }
    }
}

impl Reset {
    /// The active level in words: `low` or `high`.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Reset;
    ///
    /// assert_eq!(Reset::default().level(), "low");
    /// assert_eq!("rst:high".parse::<Reset>()?.level(), "high");
    /// # Ok::<(), String>(())
    /// ```
    pub fn level(&self) -> &'static str {
        if self.active_low {
            "low"
        } else {
            "high"
        }
    }

    /// `asynchronous` or `synchronous`.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Reset;
    ///
    /// assert_eq!(Reset::default().timing(), "synchronous");
    /// assert_eq!("rst_n:async".parse::<Reset>()?.timing(), "asynchronous");
    /// # Ok::<(), String>(())
    /// ```
    pub fn timing(&self) -> &'static str {
        if self.asynchronous {
            "asynchronous"
        } else {
            "synchronous"
        }
    }

    /// Whether a reset named so without a level is probably active high
    /// (`rst`, `reset`), where the default level (low) may surprise: the
    /// command line warns then. Names ending in `_n`, `_ni`, `_b`, `_l`,
    /// `_bar`, `n` or `N` read as active low.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Reset;
    /// assert!(Reset::looks_active_high("rst"));
    /// assert!(!Reset::looks_active_high("rst_n"));
    /// assert!(!Reset::looks_active_high("aresetn"));
    /// ```
    pub fn looks_active_high(name: &str) -> bool {
        let lower = name.to_ascii_lowercase();
        !["_n", "_ni", "_b", "_l", "n", "_bar"]
            .iter()
            .any(|s| lower.ends_with(s))
    }
}

/// The clock and optional reset of a checker; by default `clk` (rising
/// edge) and `rst_n` (synchronous, active low).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clocking {
    /// The clock.
    pub clock: Clock,
    /// The reset; `None`: no reset port (`--no-reset`).
    pub reset: Option<Reset>,
}

impl Default for Clocking {
    fn default() -> Self {
        Clocking {
            clock: Clock::default(),
            reset: Some(Reset::default()),
        }
    }
}

impl Clocking {
    /// One line for headers and messages.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Clocking;
    ///
    /// let c = Clocking { clock: "clk_i:negedge".parse()?, reset: None };
    /// assert_eq!(
    ///     c.describe(),
    ///     "clock clk_i (falling edge); no reset (the registers start in the initial state)"
    /// );
    /// # Ok::<(), String>(())
    /// ```
    pub fn describe(&self) -> String {
        let edge = match self.clock.edge {
            ClockEdge::Posedge => "rising edge",
            ClockEdge::Negedge => "falling edge",
        };
        let reset = match &self.reset {
            None => "no reset (the registers start in the initial state)".to_string(),
            Some(r) => format!("reset {} ({}, active {})", r.name, r.timing(), r.level()),
        };
        format!("clock {} ({edge}); {reset}", self.clock.name)
    }

    /// The port names the clocking takes.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Clocking;
    ///
    /// assert_eq!(Clocking::default().port_names(), ["clk", "rst_n"]);
    /// let c = Clocking { reset: None, ..Clocking::default() };
    /// assert_eq!(c.port_names(), ["clk"]);
    /// ```
    pub fn port_names(&self) -> Vec<&str> {
        let mut v = vec![self.clock.name.as_str()];
        if let Some(r) = &self.reset {
            v.push(r.name.as_str());
        }
        v
    }
}

impl Clocking {
    /// Checks that the clock and reset can be ports of a target whose
    /// usable identifiers `usable` tells, next to the checker's own names
    /// `reserved` (other than the default clock and reset).
    pub(crate) fn validate(
        &self,
        usable: impl Fn(&str) -> bool,
        reserved: &[&str],
    ) -> Result<(), crate::emit::EmitError> {
        let own = |n: &str| reserved.contains(&n) && n != "clk" && n != "rst_n";
        for (option, name) in [
            ("--clock", Some(&self.clock.name)),
            ("--reset", self.reset.as_ref().map(|r| &r.name)),
        ] {
            let Some(name) = name else { continue };
            if !usable(name) || own(name) {
                return Err(crate::emit::EmitError::Port {
                    option,
                    name: name.clone(),
                    reason: if own(name) {
                        "the checker uses this name itself".into()
                    } else {
                        "a keyword or reserved word of this target".into()
                    },
                });
            }
        }
        if let Some(r) = &self.reset {
            if r.name == self.clock.name {
                return Err(crate::emit::EmitError::Port {
                    option: "--reset",
                    name: r.name.clone(),
                    reason: "the clock has this name".into(),
                });
            }
        }
        Ok(())
    }
}

fn check_name(name: &str) -> Result<(), String> {
    let ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{name}` is not a port name (letters, digits and _)"
        ))
    }
}

impl FromStr for Clock {
    type Err = String;

    /// `NAME[:posedge|negedge]`.
    fn from_str(spec: &str) -> Result<Self, String> {
        let (name, edge) = match spec.split_once(':') {
            None => (spec, ClockEdge::Posedge),
            Some((n, "posedge")) => (n, ClockEdge::Posedge),
            Some((n, "negedge")) => (n, ClockEdge::Negedge),
            Some((_, e)) => return Err(format!("the edge is posedge or negedge, not `{e}`")),
        };
        check_name(name)?;
        Ok(Clock {
            name: name.to_string(),
            edge,
        })
    }
}

impl FromStr for Reset {
    type Err = String;

    /// `NAME[:low|high][:sync|async]`, in either order; low and sync by
    /// default.
    fn from_str(spec: &str) -> Result<Self, String> {
        let reset = Reset::parse_signal(spec)?;
        check_name(&reset.name)?;
        Ok(reset)
    }
}

impl Reset {
    /// `NAME[:low|high][:sync|async]` where NAME is any signal's name (a
    /// waveform's `tb.rst_n`), not only a port's.
    ///
    /// ```
    /// use mongen::emit::hardware::clocking::Reset;
    ///
    /// let r = Reset::parse_signal("tb.rst:high:async")?;
    /// assert_eq!((r.name.as_str(), r.active_low, r.asynchronous), ("tb.rst", false, true));
    /// assert!(Reset::parse_signal("rst:fast").is_err());
    /// # Ok::<(), String>(())
    /// ```
    pub fn parse_signal(spec: &str) -> Result<Self, String> {
        let mut parts = spec.split(':');
        let name = parts.next().unwrap_or_default();
        let mut reset = Reset {
            name: name.to_string(),
            ..Reset::default()
        };
        let (mut level, mut timing) = (false, false);
        for p in parts {
            match p {
                "low" | "high" if !level => {
                    reset.active_low = p == "low";
                    level = true;
                }
                "sync" | "async" if !timing => {
                    reset.asynchronous = p == "async";
                    timing = true;
                }
                _ => {
                    return Err(format!(
                        "expected NAME[:low|high][:sync|async], found `{p}`"
                    ))
                }
            }
        }
        Ok(reset)
    }
}

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.name, self.edge.keyword())
    }
}

impl fmt::Display for Reset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}",
            self.name,
            self.level(),
            if self.asynchronous { "async" } else { "sync" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_round_trip_and_errors_name_the_option() {
        for s in ["clk:posedge", "c1:negedge"] {
            assert_eq!(s.parse::<Clock>().unwrap().to_string(), s);
        }
        for s in ["rst_n:low:sync", "rst:high:async"] {
            assert_eq!(s.parse::<Reset>().unwrap().to_string(), s);
        }
        assert_eq!(
            "r:async:high".parse::<Reset>().unwrap().to_string(),
            "r:high:async"
        );
        assert_eq!("r".parse::<Reset>().unwrap().to_string(), "r:low:sync");
        let e = "clk:rising".parse::<Clock>().unwrap_err();
        assert_eq!(e, "the edge is posedge or negedge, not `rising`");
        let e = "r:low:low".parse::<Reset>().unwrap_err();
        assert!(e.contains("found `low`"), "{e}");
        let e = "a b".parse::<Reset>().unwrap_err();
        assert!(e.contains("not a port name"), "{e}");
        assert!("".parse::<Clock>().is_err());
    }
}
