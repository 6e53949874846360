//! Two-level logic for the hardware checkers: the next-state bits, the
//! violation and the good-prefix condition of an encoded monitor as
//! irredundant sums of products over the state bits and the propositions.
//!
//! The monitor knows don't-cares a synthesis tool cannot find: codes that
//! are no state (one-hot vectors that are not one-hot), and the next state
//! in a cycle that completes a bad prefix (the state register then holds).
//! Minato–Morreale's ISOP between the on-set and the on-set plus the
//! don't-cares uses them, which makes checkers much smaller after
//! synthesis than a `case` statement of the transitions.

use monitor_core::automaton::{BadPrefixDfa, Guard, Target, Verdict};
use monitor_core::dd::{Manager, Node};
use rustc_hash::FxHashMap;

use super::StateEncoding;

/// Sums of products whose variables are the state bits (`0..width`) and
/// then the propositions (`width..`).
#[derive(Debug)]
pub(crate) struct Logic {
    /// One sum per bit of the next state.
    pub state_d: Vec<Guard>,
    /// Whether this cycle's inputs complete a bad prefix.
    pub bad: Guard,
    /// Whether the next state is a satisfied state (three-valued monitors).
    pub satisfied: Guard,
}

impl Logic {
    /// The number of literals, a measure of the logic's size.
    pub fn literals(&self) -> usize {
        self.state_d
            .iter()
            .chain([&self.bad, &self.satisfied])
            .map(Guard::literals)
            .sum()
    }
}

/// Beyond these sizes the two-level form is not attempted.
const MAX_BINARY_STATES: usize = 4096;
const MAX_ONE_HOT_STATES: usize = 64;

/// The minimized logic of `dfa` in `encoding` (state `k` is the number `k`,
/// or bit `k`), or `None` for monitors too large for two-level logic, or
/// whose logic has more than `max_literals` literals (the sums of products
/// are counted before they are written out: a product of 30 sums has
/// `2^30` cubes).
pub(crate) fn minimized_logic(
    dfa: &BadPrefixDfa,
    encoding: StateEncoding,
    max_literals: usize,
) -> Option<Logic> {
    let n = dfa.num_states();
    let width = encoding.state_bits(n);
    let limit = match encoding {
        StateEncoding::Binary => MAX_BINARY_STATES,
        StateEncoding::OneHot => MAX_ONE_HOT_STATES,
    };
    if width == 0 || n > limit {
        return None;
    }
    let nprops = dfa.alphabet().len() as u32;
    let mut m = Manager::new();
    // State bits on top, propositions below.
    let rename: Vec<u32> = (0..nprops).map(|v| v + width as u32).collect();
    let code = |m: &mut Manager, s: usize| -> Node {
        let cube: Vec<(u32, bool)> = match encoding {
            StateEncoding::Binary => (0..width).map(|b| (b as u32, (s >> b) & 1 == 1)).collect(),
            StateEncoding::OneHot => (0..width).map(|b| (b as u32, b == s)).collect(),
        };
        m.cube(&cube)
    };
    let mut legal = Node::FALSE;
    let mut bad = Node::FALSE;
    let mut next = vec![Node::FALSE; width];
    let mut good = Node::FALSE;
    for s in dfa.states() {
        let c = code(&mut m, s.as_usize());
        legal = m.or(legal, c);
        let mut memo = FxHashMap::default();
        let diagram = m.import_renamed(dfa.manager(), dfa.diagram(s), &rename, &mut memo);
        for (leaf, g) in m.leaf_guards(diagram) {
            let here = m.and(c, g);
            let t = match Target::from_leaf(leaf) {
                Target::Violation => {
                    bad = m.or(bad, here);
                    continue;
                }
                Target::State(t) => t,
            };
            for (b, bit) in next.iter_mut().enumerate() {
                let set = match encoding {
                    StateEncoding::Binary => (t.as_usize() >> b) & 1 == 1,
                    StateEncoding::OneHot => b == t.as_usize(),
                };
                if set {
                    *bit = m.or(*bit, here);
                }
            }
            if dfa.verdict(t) == Verdict::Satisfied {
                good = m.or(good, here);
            }
        }
    }
    let illegal = m.not(legal);
    // Binary codes that are no state count as a violation (a corrupted
    // register is reported); one-hot vectors that are not one-hot are
    // don't-cares (the FORMAL block asserts they do not occur).
    let (bad_low, bad_high) = match encoding {
        StateEncoding::Binary => {
            let b = m.or(bad, illegal);
            (b, b)
        }
        StateEncoding::OneHot => (bad, m.or(bad, illegal)),
    };
    let dont_care = m.or(bad, illegal);
    // Each sum within what is left of `max_literals`; the work of each
    // within a bound that follows the diagrams.
    let mut left = max_literals;
    let work = m.len().saturating_mul(64).saturating_add(1 << 16);
    let mut sop = |m: &mut Manager, low: Node, high: Node| {
        let cubes =
            m.isop_between_capped(low, high, left.saturating_mul(2).saturating_add(1), work)?;
        let g = Guard::from_cubes(cubes);
        left = left.checked_sub(g.literals())?;
        Some(g)
    };
    let mut state_d = Vec::with_capacity(width);
    for &on in &next {
        let high = m.or(on, dont_care);
        state_d.push(sop(&mut m, on, high)?);
    }
    let bad = sop(&mut m, bad_low, bad_high)?;
    let high = m.or(good, dont_care);
    let satisfied = sop(&mut m, good, high)?;
    Some(Logic {
        state_d,
        bad,
        satisfied,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::automaton::Target;
    use monitor_core::formula::random::RandomLtl;
    use monitor_core::translate::{Builder, Config, Verdicts};

    fn holds(g: &Guard, vars: &[bool]) -> bool {
        g.cubes()
            .unwrap()
            .iter()
            .any(|c| c.iter().all(|&(v, pos)| vars[v as usize] == pos))
    }

    /// On every state and letter the minimized logic agrees with the
    /// monitor (the don't-cares are only where the checker ignores them).
    #[test]
    fn minimized_logic_agrees_with_the_monitor() {
        let aps = ["a", "b", "c"];
        let mut checked = 0;
        for seed in 0..150u64 {
            let f = RandomLtl::new(&aps, 3 + (seed % 9) as usize)
                .with_past()
                .seed(seed)
                .next_formula();
            let mut b = Builder::new();
            b.configure(Config::new().verdicts(Verdicts::Three));
            let dfa = b.build_from_formula(&f).unwrap().into_dfa();
            let n = dfa.num_states();
            let nprops = dfa.alphabet().len();
            for enc in [StateEncoding::Binary, StateEncoding::OneHot] {
                let Some(logic) = minimized_logic(&dfa, enc, usize::MAX) else {
                    assert_eq!(n, 1, "{f}");
                    continue;
                };
                let width = enc.state_bits(n);
                for s in dfa.states() {
                    for letter in 0..1u64 << nprops {
                        let mut vars: Vec<bool> = (0..width)
                            .map(|b| match enc {
                                StateEncoding::Binary => (s.as_usize() >> b) & 1 == 1,
                                StateEncoding::OneHot => b == s.as_usize(),
                            })
                            .collect();
                        vars.extend((0..nprops).map(|p| (letter >> p) & 1 == 1));
                        let bad = holds(&logic.bad, &vars);
                        match dfa.step(s, &letter) {
                            Target::Violation => {
                                assert!(bad, "{f} {enc:?} state {s} letter {letter}")
                            }
                            Target::State(t) => {
                                assert!(!bad, "{f} {enc:?} state {s} letter {letter}");
                                for (b, g) in logic.state_d.iter().enumerate() {
                                    let want = match enc {
                                        StateEncoding::Binary => (t.as_usize() >> b) & 1 == 1,
                                        StateEncoding::OneHot => b == t.as_usize(),
                                    };
                                    assert_eq!(holds(g, &vars), want, "{f} {enc:?} bit {b}");
                                }
                                assert_eq!(
                                    holds(&logic.satisfied, &vars),
                                    dfa.verdict(t) == Verdict::Satisfied,
                                    "{f} {enc:?}"
                                );
                            }
                        }
                    }
                }
                checked += 1;
            }
            // Binary codes that are no state are violations.
            if let Some(logic) = minimized_logic(&dfa, StateEncoding::Binary, usize::MAX) {
                let width = StateEncoding::Binary.state_bits(n);
                for code in n..1 << width {
                    let mut vars: Vec<bool> = (0..width).map(|b| (code >> b) & 1 == 1).collect();
                    vars.extend((0..nprops).map(|_| false));
                    assert!(holds(&logic.bad, &vars), "{f}: code {code}");
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
