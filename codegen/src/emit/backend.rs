//! One interface for every back end: the [`Target`]s, the options they
//! share ([`Common`]) and the [`Backend`] trait their options implement.
//!
//! Each target's options struct (`HoaOptions`, `PromelaOptions`, …) holds
//! a [`Common`] and what only that target needs; it implements
//! [`Backend`], so code that writes monitors for a target chosen at run
//! time (the CLI, the Python package) goes through one call:
//!
//! ```
//! use monitor_core::translate::Builder;
//! use mongen::emit::{Backend, Common, Target};
//!
//! let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
//! let common = Common::named("bus");
//! for target in Target::ALL {
//!     let text = target.backend(common.clone()).emit(&dfa)?;
//!     assert!(!text.is_empty(), "{target}");
//! }
//! let claim = "promela".parse::<Target>()?.backend(common).emit(&dfa)?;
//! assert!(claim.contains("never bus {"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Adding a back end: a variant here (its name, [`Target::title`], and
//! its default options in [`Target::backend`]), a module with its options
//! (a `common: Common` field) and their `Backend` implementation, a
//! template under `templates/`, and its keywords in [`super::names`]; see
//! `docs/architecture.md`.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use monitor_core::automaton::BadPrefixDfa;

use super::dot::DotOptions;
use super::hoa::HoaOptions;
use super::json::JsonOptions;
use super::promela::PromelaOptions;
use super::rust::RustOptions;
use super::smv::SmvOptions;
use super::systemc::SystemcOptions;
use super::verilog::{Dialect, VerilogOptions};
use super::EmitError;

/// The formats a monitor can be written in (`mongen compile --target`).
///
/// The documentation of each variant is the CLI's help for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Target {
    /// HOA v1, Spot's monitor convention (missing transition = violation).
    Hoa,
    /// Graphviz, with the violating letters drawn to a red sink.
    Dot,
    /// One JSON object per monitor and per line.
    Json,
    /// A Promela never claim for Spin's safety mode (pan -DSAFETY).
    Promela,
    /// A NuSMV observer module with its INVARSPEC, to append to a model.
    Smv,
    /// A synthesizable Verilog-2001 checker module (NAME_checker).
    Verilog,
    /// The same checker in SystemVerilog, with concurrent assertions
    /// (assert property, cover property).
    Sva,
    /// A SystemC checker module, the header NAME_checker.h.
    Systemc,
    /// A Rust monitor type NameMonitor (needs the crate monitor-core).
    Rust,
}

impl Target {
    /// Every target, in the order of `--help`.
    pub const ALL: [Target; 9] = [
        Target::Hoa,
        Target::Dot,
        Target::Json,
        Target::Promela,
        Target::Smv,
        Target::Verilog,
        Target::Sva,
        Target::Systemc,
        Target::Rust,
    ];

    /// The name `--target` takes (`"systemc"`).
    ///
    /// ```
    /// use mongen::emit::Target;
    ///
    /// assert_eq!(Target::Sva.name(), "sva");
    /// assert_eq!(Target::Sva.to_string(), "sva");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Target::Hoa => "hoa",
            Target::Dot => "dot",
            Target::Json => "json",
            Target::Promela => "promela",
            Target::Smv => "smv",
            Target::Verilog => "verilog",
            Target::Sva => "sva",
            Target::Systemc => "systemc",
            Target::Rust => "rust",
        }
    }

    /// The format's name in prose (`"SystemC"`).
    ///
    /// ```
    /// use mongen::emit::Target;
    ///
    /// assert_eq!(Target::Sva.title(), "SystemVerilog");
    /// ```
    pub fn title(self) -> &'static str {
        match self {
            Target::Hoa => "HOA",
            Target::Dot => "DOT",
            Target::Json => "JSON",
            Target::Promela => "Promela",
            Target::Smv => "SMV",
            Target::Verilog => "Verilog",
            Target::Sva => "SystemVerilog",
            Target::Systemc => "SystemC",
            Target::Rust => "Rust",
        }
    }

    /// Whether the target is a hardware checker, with a clock and a reset
    /// (Verilog, SystemVerilog, SystemC).
    ///
    /// ```
    /// use mongen::emit::Target;
    ///
    /// assert!(Target::Systemc.is_hardware());
    /// assert!(!Target::Smv.is_hardware());
    /// ```
    pub fn is_hardware(self) -> bool {
        matches!(self, Target::Verilog | Target::Sva | Target::Systemc)
    }

    /// Whether [`Backend::write`] writes the monitor state by state
    /// without building its text (HOA, DOT, JSON): those outputs may be
    /// far larger than the automaton in memory.
    ///
    /// ```
    /// use mongen::emit::Target;
    ///
    /// assert!(Target::Json.streams());
    /// assert!(!Target::Verilog.streams());
    /// ```
    pub fn streams(self) -> bool {
        matches!(self, Target::Hoa | Target::Dot | Target::Json)
    }

    /// This target's back end: `common`, and the defaults of the options
    /// only this target has (which a caller may set on the target's own
    /// options struct instead).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// use mongen::emit::{Common, Target};
    ///
    /// let dfa = Builder::new().build("G !overflow")?.into_dfa();
    /// let checker = Target::Verilog.backend(Common::named("fifo")).emit(&dfa)?;
    /// assert!(checker.contains("module fifo_checker"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn backend(self, common: Common) -> Box<dyn Backend> {
        match self {
            Target::Hoa => Box::new(HoaOptions {
                common,
                ..HoaOptions::default()
            }),
            Target::Dot => Box::new(DotOptions { common }),
            Target::Json => Box::new(JsonOptions {
                common,
                ..JsonOptions::default()
            }),
            Target::Promela => Box::new(PromelaOptions {
                common,
                ..PromelaOptions::default()
            }),
            Target::Smv => Box::new(SmvOptions {
                common,
                ..SmvOptions::default()
            }),
            Target::Verilog | Target::Sva => Box::new(VerilogOptions {
                common,
                dialect: if self == Target::Sva {
                    Dialect::Sva
                } else {
                    Dialect::Verilog
                },
                ..VerilogOptions::default()
            }),
            Target::Systemc => Box::new(SystemcOptions {
                common,
                ..SystemcOptions::default()
            }),
            Target::Rust => Box::new(RustOptions { common }),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not a [`Target`]'s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownTarget(pub String);

impl fmt::Display for UnknownTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        write!(f, "unknown target `{}` ({})", self.0, names.join(", "))
    }
}

impl std::error::Error for UnknownTarget {}

impl FromStr for Target {
    type Err = UnknownTarget;

    /// The target of a `--target` name, in lowercase.
    ///
    /// ```
    /// use mongen::emit::Target;
    ///
    /// assert_eq!("smv".parse::<Target>(), Ok(Target::Smv));
    /// let err = "spin".parse::<Target>().unwrap_err();
    /// assert!(err.to_string().starts_with("unknown target `spin` (hoa, dot, json,"));
    /// ```
    fn from_str(s: &str) -> Result<Target, UnknownTarget> {
        Target::ALL
            .into_iter()
            .find(|t| t.name() == s)
            .ok_or_else(|| UnknownTarget(s.to_string()))
    }
}

/// The options every back end takes. A target reads those it has a use
/// for:
///
/// | field | read by |
/// |---|---|
/// | `name` | Promela, SMV, Verilog, SVA, SystemC, Rust (HOA, DOT and JSON name a monitor after its automaton: [`BadPrefixDfa::set_name`]) |
/// | `defines` | Promela, SMV, Verilog, SVA, SystemC (the targets that read a model or a design) |
/// | `informative` | JSON, Promela, SMV, Verilog, SVA, SystemC |
/// | `three_valued` | HOA, JSON, SMV, Verilog, SVA, SystemC, Rust (a never claim has no satisfied verdict) |
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Common {
    /// The name of the claim, module or type (`--name`, default
    /// `monitor`): `never NAME`, `NAME_observer`, `NAME_checker`,
    /// `NameMonitor`. It must be an identifier of the target.
    pub name: String,
    /// Propositions bound to expressions of the model or design
    /// (`--define p='x > 3'`).
    pub defines: Vec<(String, String)>,
    /// Whether the monitor rejects only informative bad prefixes (it is
    /// said in the output).
    pub informative: bool,
    /// Whether the monitor has three-valued verdicts (satisfied states
    /// are marked, checkers get a `satisfied` output).
    pub three_valued: bool,
}

impl Common {
    /// The default options with another name.
    ///
    /// ```
    /// use mongen::emit::Common;
    ///
    /// assert_eq!(Common::named("bus").name, "bus");
    /// assert_eq!(Common::default().name, "monitor");
    /// ```
    pub fn named(name: impl Into<String>) -> Common {
        Common {
            name: name.into(),
            ..Common::default()
        }
    }
}

impl Default for Common {
    fn default() -> Common {
        Common {
            name: "monitor".into(),
            defines: Vec::new(),
            informative: false,
            three_valued: false,
        }
    }
}

/// A back end ready to write monitors: a target's options.
///
/// The text is what `mongen compile` writes for one monitor: a HOA
/// automaton, a DOT graph, a JSON line (with its line break), a never
/// claim, an SMV observer module, a checker module, a Rust type.
///
/// ```
/// use monitor_core::translate::Builder;
/// use mongen::emit::promela::PromelaOptions;
/// use mongen::emit::{Backend, Common};
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// let opts = PromelaOptions {
///     common: Common::named("handshake"),
///     ..PromelaOptions::default()
/// };
/// let mut out = Vec::new();
/// opts.write(&dfa, &mut out)?;
/// assert_eq!(String::from_utf8(out)?, opts.emit(&dfa)?);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Backend {
    /// The monitor `dfa` as text.
    fn emit(&self, dfa: &BadPrefixDfa) -> Result<String, EmitError>;

    /// Writes the monitor `dfa` to `out`. Streaming targets
    /// ([`Target::streams`]) write it state by state, without building
    /// its text, so `out` should be buffered; the others write
    /// [`emit`](Backend::emit)'s text, and an [`EmitError`] is returned
    /// as an error of kind `InvalidInput` whose
    /// [`get_ref`](io::Error::get_ref) is the `EmitError`.
    fn write(&self, dfa: &BadPrefixDfa, out: &mut dyn Write) -> io::Result<()> {
        let text = self
            .emit(dfa)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        out.write_all(text.as_bytes())
    }
}
