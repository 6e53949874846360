//! Monitors straight from a formula: the compiler's entry points on the
//! runtime's types (`MonitorTable::from_ltl`, `Monitor::from_ltl`),
//! defined here so that the runtime knows nothing of the compiler.

use super::{BuildError, Builder};

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
