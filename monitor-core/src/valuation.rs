//! Letters: which atomic propositions hold at one step.
//!
//! Both layers read letters through the [`Valuation`] trait, so callers can
//! pass a bit mask (`u64`, `u128`), a `[bool]` slice or (with the `bitvec`
//! feature) a `bitvec` slice, indexed by the position of each proposition in
//! the alphabet.

#[cfg(feature = "bitvec")]
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

/// With the `bitvec` feature.
#[cfg(feature = "bitvec")]
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

#[cfg(all(test, feature = "bitvec"))]
mod tests {
    use bitvec::prelude::*;

    use super::Valuation;

    #[test]
    fn bit_slices_are_letters() {
        // 130 propositions: more than a `u128` holds.
        let mut letter = bitvec![u64, Lsb0; 0; 130];
        letter.set(0, true);
        letter.set(129, true);
        let bits: &BitSlice<u64, Lsb0> = &letter;
        assert!(bits.holds(0) && bits.holds(129));
        assert!(!bits.holds(1) && !bits.holds(128));
        assert!(!bits.holds(130)); // out of range: false
        let msb = bits![u8, Msb0; 0, 1];
        assert!(!msb.holds(0) && msb.holds(1));
        // Through a reference, as the runtime reads letters.
        assert!(Valuation::holds(&bits, 129));
    }

    #[cfg(feature = "std")]
    #[test]
    fn monitors_read_bit_slices() {
        use crate::{Monitor, Verdict};

        let mut m = Monitor::from_ltl("G(req -> X ack)").unwrap();
        assert_eq!(m.step_with(bits![u8, Lsb0; 1, 0]), Verdict::Undecided);
        assert_eq!(m.step_with(bits![u8, Lsb0; 1, 1]), Verdict::Undecided);
        assert_eq!(m.step_with(bits![u8, Lsb0; 0, 0]), Verdict::Violated);
    }
}

#[cfg(test)]
mod feature_tests {
    /// `bitvec` (and `tap`, whose blanket traits would show on every type
    /// in the documentation of the crates depending on this one) is only
    /// built when asked for.
    #[test]
    fn bitvec_is_opt_in() {
        let manifest = include_str!("../Cargo.toml");
        let features = manifest
            .split("[features]")
            .nth(1)
            .and_then(|s| s.split("\n[").next())
            .expect("a [features] table");
        for line in features.lines().filter(|l| !l.starts_with('#')) {
            if let Some((name, enables)) = line.split_once('=') {
                if name.trim() != "bitvec" {
                    assert!(!enables.contains("bitvec"), "{line}");
                }
            }
        }
        assert!(features.contains("bitvec = [\"dep:bitvec\"]"));
        assert!(manifest.contains("bitvec = { workspace = true, optional = true }"));
    }
}
