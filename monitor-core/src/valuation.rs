//! Letters: which atomic propositions hold at one step.
//!
//! Both layers read letters through the [`Valuation`] trait, so callers can
//! pass a bit mask (`u64`, `u128`), a `[bool]` slice or a `bitvec` slice,
//! indexed by the position of each proposition in the alphabet.

#[cfg(feature = "std")]
use bitvec::{order::BitOrder, slice::BitSlice, store::BitStore};

/// A letter: the truth value of each atomic proposition, by index.
///
/// ```
/// use monitor_core::Valuation;
/// assert!(0b101u64.holds(2));
/// assert!(![true, false].holds(1));
/// assert!(!0u64.holds(100)); // out of range: false
/// ```
pub trait Valuation {
    /// Whether proposition number `ap` holds.
    fn holds(&self, ap: usize) -> bool;
}

impl Valuation for u64 {
    fn holds(&self, ap: usize) -> bool {
        ap < 64 && (self >> ap) & 1 == 1
    }
}

impl Valuation for u128 {
    fn holds(&self, ap: usize) -> bool {
        ap < 128 && (self >> ap) & 1 == 1
    }
}

impl Valuation for [bool] {
    fn holds(&self, ap: usize) -> bool {
        self.get(ap).copied().unwrap_or(false)
    }
}

impl<const N: usize> Valuation for [bool; N] {
    fn holds(&self, ap: usize) -> bool {
        self.get(ap).copied().unwrap_or(false)
    }
}

#[cfg(feature = "std")]
impl Valuation for Vec<bool> {
    fn holds(&self, ap: usize) -> bool {
        self.get(ap).copied().unwrap_or(false)
    }
}

#[cfg(feature = "std")]
impl<T: BitStore, O: BitOrder> Valuation for BitSlice<T, O> {
    fn holds(&self, ap: usize) -> bool {
        self.get(ap).is_some_and(|b| *b)
    }
}

impl<V: Valuation + ?Sized> Valuation for &V {
    fn holds(&self, ap: usize) -> bool {
        (**self).holds(ap)
    }
}
