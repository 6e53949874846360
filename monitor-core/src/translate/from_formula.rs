//! Monitors straight from a formula: the compiler's entry points on the
//! runtime's types (`MonitorTable::from_ltl`, `Monitor::from_ltl`,
//! `LazyMonitor::new`), defined here so that the runtime knows nothing of
//! the compiler.

use crate::algo::derivatives;
use crate::algo::lazy::LazyDfa;
use crate::formula::{parse, Formula};
use crate::lazy::LazyMonitor;

use super::pipeline::Pipeline;
use super::{BuildError, BuildErrorKind, Builder, Config, Prefixes, Verdicts};

impl crate::MonitorTable {
    /// Compiles `formula` (LTL with past, Spot syntax) with the default
    /// [`Builder`].
    ///
    /// ```
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(table.table().num_states(), 2);
    /// assert!(MonitorTable::from_ltl("G(req ->").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ltl(formula: &str) -> Result<crate::MonitorTable, BuildError> {
        Ok(crate::MonitorTable::from_dfa(
            Builder::new().build(formula)?.dfa(),
        ))
    }
}

impl crate::Monitor<'static> {
    /// Compiles `formula` (LTL with past, Spot syntax) into a monitor of its
    /// bad prefixes (of its safety closure if it is not a safety property;
    /// [`classify`](crate::analysis::classify) tells).
    ///
    /// The table is allocated once and lives until the program ends: every
    /// copy of the monitor shares it, which is what makes `Monitor` `Copy`.
    /// This suits properties read once from configuration; to free the
    /// table, build a [`MonitorTable`](crate::MonitorTable) and run it with
    /// [`Monitor::new`](crate::Monitor::new)`(&table.table())`.
    ///
    /// ```
    /// use monitor_core::{Monitor, Verdict};
    ///
    /// let proto = Monitor::from_ltl("G(req -> X ack)")?;
    /// let mut session = proto; // a copy, sharing the table
    /// assert_eq!(session.step(0b01), Verdict::Undecided);
    /// assert_eq!((session.state(), proto.state()), (1, 0));
    /// // `F a` is not a safety property; its safety closure is always satisfied.
    /// let mut eventually = Monitor::from_ltl("F a")?;
    /// assert_eq!(eventually.step(0), Verdict::Undecided);
    /// assert_eq!(eventually.table().num_states(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ltl(formula: &str) -> Result<crate::Monitor<'static>, BuildError> {
        let owned: &'static crate::MonitorTable =
            Box::leak(Box::new(crate::MonitorTable::from_ltl(formula)?));
        let table: &'static crate::runtime::Table<'static> = Box::leak(Box::new(owned.table()));
        Ok(crate::Monitor::new(table))
    }
}

/// The automaton of `f` to be built on demand (see
/// [`crate::lazy::LazyMonitor`]), with the verdicts of `cfg`; its
/// search for doomed states stops at `cfg`'s state limit.
fn lazy_dfa(f: &Formula, cfg: &Config) -> Result<LazyDfa, BuildError> {
    let pipe = Pipeline::new(f, cfg)?;
    let exact = cfg.get_prefixes() == Prefixes::Exact;
    let three = cfg.get_verdicts() == Verdicts::Three;
    // Exact verdicts are semantic: the simplified formula will do, or the
    // formula as written. Informative ones are read on the formula as
    // written.
    let written = f.nnf();
    let g = if exact {
        Some(pipe.simplified.nnf())
            .filter(derivatives::applies)
            .or_else(|| Some(written.clone()).filter(derivatives::applies))
    } else {
        Some(written.clone()).filter(derivatives::applies)
    };
    match g {
        Some(g) => Ok(LazyDfa::new(
            &g,
            pipe.aps.clone(),
            exact,
            three,
            cfg.get_max_states(),
        )),
        None => Err(BuildError {
            kind: BuildErrorKind::NotLazy {
                subformula: derivatives::outside(&written)
                    .expect("a formula outside the fragment")
                    .to_spot(),
            },
        }),
    }
}

impl LazyMonitor {
    /// The lazy monitor of `formula` (LTL with past, Spot syntax), with
    /// the default configuration (exact bad prefixes, two verdicts).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::BuildErrorKind;
    /// use monitor_core::Verdict;
    ///
    /// let mut m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// assert_eq!(m.step(0b01), Verdict::Undecided);
    /// assert_eq!(m.step(0b00), Verdict::Violated);
    /// // Not a syntactic safety formula.
    /// let err = LazyMonitor::from_ltl("G(req -> F ack)").unwrap_err();
    /// assert!(matches!(err.kind(), BuildErrorKind::NotLazy { subformula } if subformula == "Fack"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_ltl(formula: &str) -> Result<LazyMonitor, BuildError> {
        let f = parse(formula)?;
        LazyMonitor::new(&f, &Config::new())
    }

    /// The lazy monitor of `f` with the verdicts and prefixes of `cfg`;
    /// its searches for exact verdicts stop at `cfg`'s state limit.
    ///
    /// ```
    /// use monitor_core::formula::parse;
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::translate::{Config, Verdicts};
    /// use monitor_core::Verdict;
    ///
    /// let f = parse("a W b")?;
    /// let mut m = LazyMonitor::new(&f, &Config::new().verdicts(Verdicts::Three))?;
    /// assert_eq!(m.step(0b01), Verdict::Undecided); // a
    /// assert_eq!(m.step(0b10), Verdict::Satisfied); // b: a good prefix
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(f: &Formula, cfg: &Config) -> Result<LazyMonitor, BuildError> {
        LazyMonitor::from_lazy_dfa(lazy_dfa(f, cfg)?, f.to_spot())
    }
}
