//! Past subformulas evaluated, not guessed (shared by the tableau and the
//! derivative construction).
//!
//! Every past operator gets a register holding its value (or, for `Y` and
//! `Z`, its operand's value) at the previous position, so the value of a
//! past formula at the current position is a Boolean function of the
//! registers and the current letter. A *memory* (an interned vector of
//! registers) is part of an automaton state and is updated
//! deterministically by [`PastMachine::partition`].

use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::interner::Interner;
use crate::automaton::Alphabet;
use crate::dd::{Manager, Node};
use crate::formula::{Formula, Op};

/// The deterministic machine computing past subformulas.
#[derive(Clone)]
pub(crate) struct PastMachine {
    /// The past operator nodes having a register.
    registers: Vec<Formula>,
    reg_index: FxHashMap<Formula, usize>,
    memories: Interner<Box<[bool]>>,
    eval_cache: FxHashMap<(Formula, u32), Node>,
    partition_cache: FxHashMap<u32, Arc<[(Node, u32)]>>,
}

impl PastMachine {
    pub(crate) fn new(f: &Formula) -> PastMachine {
        let mut registers = Vec::new();
        for g in f.subformulas_postorder() {
            if g.op().is_past() {
                registers.push(g);
            }
        }
        let reg_index = registers
            .iter()
            .enumerate()
            .map(|(i, g)| (g.clone(), i))
            .collect();
        let mut m = PastMachine {
            registers,
            reg_index,
            memories: Interner::default(),
            eval_cache: FxHashMap::default(),
            partition_cache: FxHashMap::default(),
        };
        // The memory "before position 0": the value each recurrence needs
        // to be right at the first position.
        let init: Box<[bool]> = m
            .registers
            .iter()
            .map(|g| matches!(g.op(), Op::Z | Op::H | Op::B | Op::T))
            .collect();
        m.memories.intern(init);
        m
    }

    /// Drops every BDD (the memories stay, with their numbers), before the
    /// manager they live in is replaced.
    pub(crate) fn forget_diagrams(&mut self) {
        self.eval_cache.clear();
        self.partition_cache.clear();
    }

    /// How many evaluations are remembered.
    pub(crate) fn cached(&self) -> usize {
        self.eval_cache.len() + self.partition_cache.len()
    }

    /// The memory after reading `letter` in memory `mem` (one letter of
    /// [`PastMachine::partition`], without building the partition, which
    /// can have a part per valuation of the registers).
    pub(crate) fn next_memory(
        &mut self,
        mem: u32,
        letter: &impl crate::Valuation,
        mgr: &mut Manager,
        aps: &Alphabet,
    ) -> u32 {
        if self.registers.is_empty() {
            return mem;
        }
        let bits: Box<[bool]> = (0..self.registers.len())
            .map(|r| {
                let g = self.registers[r].clone();
                let target = if matches!(g.op(), Op::Y | Op::Z) {
                    g.child(0).clone()
                } else {
                    g
                };
                let value = self.eval(&target, mem, mgr, aps);
                mgr.eval(value, letter)
            })
            .collect();
        self.memories.intern(bits)
    }

    /// The BDD (over the current letter) of a formula without future
    /// operators, given the memory.
    pub(crate) fn eval(
        &mut self,
        f: &Formula,
        mem: u32,
        mgr: &mut Manager,
        aps: &Alphabet,
    ) -> Node {
        if let Some(&n) = self.eval_cache.get(&(f.clone(), mem)) {
            return n;
        }
        let reg = |s: &Self| s.memories.get(mem)[s.reg_index[f]];
        let n = match f.op() {
            Op::True => Node::TRUE,
            Op::False => Node::FALSE,
            Op::Ap => {
                let i = aps
                    .index(f.ap_name().expect("ap"))
                    .expect("proposition in alphabet");
                mgr.var(i)
            }
            Op::Not => {
                let a = self.eval(f.child(0), mem, mgr, aps);
                mgr.not(a)
            }
            Op::And | Op::Or => {
                let mut acc = if f.op() == Op::And {
                    Node::TRUE
                } else {
                    Node::FALSE
                };
                for c in f.children() {
                    let x = self.eval(c, mem, mgr, aps);
                    acc = if f.op() == Op::And {
                        mgr.and(acc, x)
                    } else {
                        mgr.or(acc, x)
                    };
                }
                acc
            }
            Op::Implies | Op::Equiv | Op::Xor => {
                let a = self.eval(f.child(0), mem, mgr, aps);
                let b = self.eval(f.child(1), mem, mgr, aps);
                match f.op() {
                    Op::Implies => {
                        let na = mgr.not(a);
                        mgr.or(na, b)
                    }
                    Op::Xor => mgr.xor(a, b),
                    _ => {
                        let x = mgr.xor(a, b);
                        mgr.not(x)
                    }
                }
            }
            Op::Y | Op::Z => {
                if reg(self) {
                    Node::TRUE
                } else {
                    Node::FALSE
                }
            }
            Op::O | Op::H | Op::S | Op::B | Op::T => {
                let prev = if reg(self) { Node::TRUE } else { Node::FALSE };
                let (a, b) = match f.op() {
                    Op::O => (Node::TRUE, self.eval(f.child(0), mem, mgr, aps)),
                    Op::H => (self.eval(f.child(0), mem, mgr, aps), Node::FALSE),
                    _ => (
                        self.eval(f.child(0), mem, mgr, aps),
                        self.eval(f.child(1), mem, mgr, aps),
                    ),
                };
                if f.op() == Op::T {
                    // b & (a | prev)
                    let ap = mgr.or(a, prev);
                    mgr.and(b, ap)
                } else {
                    // b | (a & prev)
                    let ap = mgr.and(a, prev);
                    mgr.or(b, ap)
                }
            }
            op => unreachable!("future operator {op:?} in a past formula"),
        };
        self.eval_cache.insert((f.clone(), mem), n);
        n
    }

    /// The next memories after reading a letter in memory `mem`, each with
    /// the letters leading to it (a partition of all letters).
    pub(crate) fn partition(
        &mut self,
        mem: u32,
        mgr: &mut Manager,
        aps: &Alphabet,
    ) -> Arc<[(Node, u32)]> {
        if let Some(p) = self.partition_cache.get(&mem) {
            return p.clone();
        }
        let mut parts: Vec<(Node, Vec<bool>)> = vec![(Node::TRUE, Vec::new())];
        for r in 0..self.registers.len() {
            let g = self.registers[r].clone();
            // Y and Z remember their operand; the others their own value.
            let target = if matches!(g.op(), Op::Y | Op::Z) {
                g.child(0).clone()
            } else {
                g
            };
            let value = self.eval(&target, mem, mgr, aps);
            let mut next = Vec::with_capacity(parts.len() * 2);
            for (guard, bits) in parts {
                for (b, v) in [(false, mgr.not(value)), (true, value)] {
                    let ng = mgr.and(guard, v);
                    if ng != Node::FALSE {
                        let mut nb = bits.clone();
                        nb.push(b);
                        next.push((ng, nb));
                    }
                }
            }
            parts = next;
        }
        let out: Arc<[(Node, u32)]> = parts
            .into_iter()
            .map(|(g, bits)| (g, self.memories.intern(bits.into_boxed_slice())))
            .collect();
        self.partition_cache.insert(mem, out.clone());
        out
    }
}
