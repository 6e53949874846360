//! The timed components of past metric operators, evaluated event by
//! event: the bits of the propositions that stand for `O[0:5s] f`,
//! `H[1ms:1m] f` and `f S[0:2s] g` ([`formula::metric`](crate::formula::metric)),
//! which then join the letter the property's monitor steps on.
//!
//! # Overview
//!
//! * [`Evaluator`]: the state of a list of components (and of any other
//!   past-time formulas over them, its *roots*), stepped with each event's
//!   time and the values of the propositions it reads;
//! * [`TimedPropositions`]: a property's components with what the
//!   propositions of their operands mean over an event's fields, as the
//!   [`Checker`](super::check::Checker) takes them
//!   ([`Property::timed`](super::check::Property::timed)).
//!
//! # How a component is computed
//!
//! The operands are past-time formulas: each node keeps its value at the
//! event before (a register: `Y`, `Z`, `O`, `H`, `S`, `B`, `T` from their
//! previous values, exact and constant work per event).
//!
//! A metric operator keeps the times at which its operand held (`f` for
//! `O[a:b] f`, `!f` for `H[a:b] f = !O[a:b] !f`, `g` for `f S[a:b] g`) as a
//! deque of merged intervals, as in Aerial's almost event-rate
//! independent monitoring (`BKT17`, on the online algorithms of `BKZ11`;
//! see `docs/references.md`): a time within `b − a` of the last one kept extends the last
//! interval instead of opening one, times older than `t_i − b` are
//! dropped, and the operator holds at `i` iff the first interval left
//! starts at or before `t_i − a`. For `S`, the deque is emptied when `f`
//! fails at `i`, before `t_i` is added if `g` holds there; unbounded
//! above (`b = ∞`), everything merges into one interval whose start, the
//! earliest time, is all that matters.
//!
//! Why merging is exact: within one interval `[s, e]`, consecutive times
//! at which the operand held are at most `b − a` apart. The window
//! `[t_i − b, t_i − a]` has width `b − a`; if it meets `[s, e]` but
//! contains neither `s` nor `e`, it lies strictly between two consecutive
//! kept times `u < t_i − b` and `v > t_i − a`, which are then more than
//! `b − a` apart: impossible. So a window meeting an interval contains a
//! time at which the operand held, and the answer is the same as with
//! every time kept. Intervals left in the deque are more than `b − a`
//! apart and end within `b` of now: at most `b / (b − a) + 1` of them,
//! whatever the event rate (one per distinct time for `a = b`).
//!
//! ```
//! use monitor_core::formula::metric::parse_metric;
//! use monitor_core::trace::metric::Evaluator;
//!
//! let m = parse_metric("O[1s:2s] fail")?;
//! let mut ev = Evaluator::new(&m.timed, &[], |name| (name == "fail").then_some(0))?;
//! let s = 1_000_000_000;
//! // fail at time 0: O[1s:2s] fail holds from time 1s to 2s.
//! let mut seen = Vec::new();
//! for (t, fail) in [(0, true), (s / 2, false), (s, false), (2 * s, false), (2 * s + 1, false)] {
//!     ev.step(t, |_| fail);
//!     seen.push(ev.outputs()[0]);
//! }
//! assert_eq!(seen, [false, false, true, true, false]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;

use super::expr::Expr;
use crate::formula::metric::{TimeInterval, TimedComponent, TimedKind};
use crate::formula::{Formula, Op};

/// A property's timed components and the meaning of the propositions
/// their operands read (those that are not components).
#[derive(Clone, Debug, PartialEq)]
pub struct TimedPropositions {
    /// The components, in dependency order
    /// ([`MetricFormula::timed`](crate::formula::metric::MetricFormula::timed)).
    pub components: Vec<TimedComponent>,
    /// Each proposition the operands read from events, and its meaning
    /// over the fields.
    pub inputs: Vec<(String, Expr)>,
}

impl TimedPropositions {
    /// The propositions the operands read from events, each once, in
    /// their order of appearance.
    ///
    /// ```
    /// use monitor_core::formula::metric::parse_metric;
    /// use monitor_core::trace::metric::TimedPropositions;
    ///
    /// let m = parse_metric("G(a -> ok S[0:1s] (b | O[0:2s] a))")?;
    /// assert_eq!(TimedPropositions::input_names(&m.timed), ["a", "ok", "b"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn input_names(components: &[TimedComponent]) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        for c in components {
            for f in &c.operands {
                for g in f.subformulas_postorder() {
                    if let Some(n) = g.ap_name() {
                        if !components.iter().any(|c| c.name == n) && !names.iter().any(|m| m == n)
                        {
                            names.push(n.to_string());
                        }
                    }
                }
            }
        }
        names
    }
}

/// Where a leaf of an operand reads its value (here and in
/// [`future`](super::future)).
#[derive(Clone, Copy, Debug)]
pub(super) enum Source {
    /// Input `i` (a proposition read from the event).
    Input(usize),
    /// The output of component `k`, computed before at the same event.
    Component(usize),
}

/// One node of a past-time formula (here and in [`future`](super::future)).
#[derive(Clone, Debug)]
pub(super) struct Node {
    pub(super) op: Op,
    /// Children, as node indices (before this node).
    pub(super) kids: Vec<usize>,
    /// For a proposition: where its value comes from.
    pub(super) source: Option<Source>,
}

/// The state of one past metric operator.
#[derive(Clone, Debug)]
pub(super) struct Window {
    kind: TimedKind,
    interval: TimeInterval,
    /// Its operands' nodes (one, or `[f, g]` for `S`).
    operands: Vec<usize>,
    /// The last node of its operands: nodes up to it are evaluated before
    /// it.
    nodes_end: usize,
    /// The times the operand held at, merged into intervals (`[start,
    /// end]`, increasing).
    kept: VecDeque<(i64, i64)>,
}

/// The state of timed components (and of root formulas over them), stepped
/// one event at a time (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Evaluator {
    nodes: Vec<Node>,
    windows: Vec<Window>,
    /// The roots' nodes.
    roots: Vec<usize>,
    /// The value of each node at the current event, and at the one before.
    now: Vec<bool>,
    before: Vec<bool>,
    /// The components' values at the current event.
    outputs: Vec<bool>,
    /// The roots' values at the current event.
    root_values: Vec<bool>,
    /// Whether no event has been read.
    first: bool,
}

impl Evaluator {
    /// An evaluator of `components` and of the past-time formulas `roots`
    /// over them; `input(name)` numbers each proposition read from events
    /// (`None`: an error naming it). Each operand is a past-time formula
    /// (as [`parse_metric`](crate::formula::metric::parse_metric) makes
    /// sure); a component is named only by those after it.
    ///
    /// ```
    /// use monitor_core::formula::{metric::parse_metric, parse};
    /// use monitor_core::trace::metric::Evaluator;
    ///
    /// let m = parse_metric("O[0:1s] a")?;
    /// let e = Evaluator::new(&m.timed, &[parse("b")?], |n| (n == "a").then_some(0)).unwrap_err();
    /// assert_eq!(e, "the proposition `b` has no value");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        components: &[TimedComponent],
        roots: &[Formula],
        mut input: impl FnMut(&str) -> Option<usize>,
    ) -> Result<Evaluator, String> {
        let mut ev = Evaluator {
            nodes: Vec::new(),
            windows: Vec::new(),
            roots: Vec::new(),
            now: Vec::new(),
            before: Vec::new(),
            outputs: vec![false; components.len()],
            root_values: vec![false; roots.len()],
            first: true,
        };
        let mut compile = |ev: &mut Evaluator,
                           f: &Formula,
                           known: usize|
         -> Result<usize, String> {
            // Nodes by formula id, within one formula (sharing across
            // formulas would be sound too, but gains little).
            let mut ids: Vec<(u64, usize)> = Vec::new();
            for g in f.subformulas_postorder() {
                if ids.iter().any(|(id, _)| *id == g.id()) {
                    continue;
                }
                let op = g.op();
                if !crate::formula::metric::allowed_in_operand(op) {
                    return Err(format!(
                        "`{}` is not a past-time formula (it has `{}`)",
                        g.to_spot(),
                        op.symbol()
                    ));
                }
                let source = match g.ap_name() {
                    Some(n) => Some(match components[..known].iter().position(|c| c.name == n) {
                        Some(k) => Source::Component(k),
                        None => match input(n) {
                            Some(i) => Source::Input(i),
                            None => return Err(format!("the proposition `{n}` has no value")),
                        },
                    }),
                    None => None,
                };
                let kids = g
                    .children()
                    .iter()
                    .map(|c| {
                        ids.iter()
                            .find(|(id, _)| *id == c.id())
                            .map(|(_, n)| *n)
                            .expect("children come first in postorder")
                    })
                    .collect();
                ev.nodes.push(Node { op, kids, source });
                ids.push((g.id(), ev.nodes.len() - 1));
            }
            Ok(ev.nodes.len() - 1)
        };
        for (k, c) in components.iter().enumerate() {
            if c.kind.is_future() {
                return Err(format!(
                    "`{}` looks ahead: its value is known only after a delay, which this \
                     evaluator of past operators does not compute",
                    c.name
                ));
            }
            let operands = c
                .operands
                .iter()
                .map(|f| compile(&mut ev, f, k))
                .collect::<Result<Vec<_>, _>>()?;
            ev.windows.push(Window {
                kind: c.kind,
                interval: c.interval,
                operands,
                nodes_end: ev.nodes.len(),
                kept: VecDeque::new(),
            });
        }
        for f in roots {
            let n = compile(&mut ev, f, components.len())?;
            ev.roots.push(n);
        }
        ev.now = vec![false; ev.nodes.len()];
        ev.before = vec![false; ev.nodes.len()];
        Ok(ev)
    }

    /// Back to before the first event.
    pub fn reset(&mut self) {
        self.first = true;
        self.windows.iter_mut().for_each(|w| w.kept.clear());
        self.outputs.iter_mut().for_each(|o| *o = false);
        self.root_values.iter_mut().for_each(|o| *o = false);
    }

    /// Reads one event at time `time` (nanoseconds, not before the last
    /// event's), `input(i)` giving the value of input `i`: the outputs
    /// ([`Evaluator::outputs`]) and roots ([`Evaluator::roots`]) are then
    /// their values at this event.
    pub fn step(&mut self, time: i64, input: impl Fn(usize) -> bool) {
        let mut at = 0;
        for k in 0..self.windows.len() {
            let end = self.windows[k].nodes_end;
            self.eval_nodes(at, end, &input);
            at = end;
            let operands = &self.windows[k].operands;
            let f = self.now[operands[0]];
            let g = operands.get(1).map(|&n| self.now[n]);
            self.outputs[k] = self.windows[k].step(time, f, g);
        }
        let end = self.nodes.len();
        self.eval_nodes(at, end, &input);
        for (v, &n) in self.root_values.iter_mut().zip(&self.roots) {
            *v = self.now[n];
        }
        std::mem::swap(&mut self.now, &mut self.before);
        // (`before` now holds this event's values; `now` is rewritten at
        // the next step, node by node.)
        self.first = false;
    }

    /// Evaluates nodes `from..to` at the current event.
    fn eval_nodes(&mut self, from: usize, to: usize, input: &impl Fn(usize) -> bool) {
        for n in from..to {
            let node = &self.nodes[n];
            let kid = |i: usize| self.now[node.kids[i]];
            // The node's own value, and a child's, at the event before
            // (the initial values before the first event).
            let was = |initial: bool| if self.first { initial } else { self.before[n] };
            let kid_was = |i: usize, initial: bool| {
                if self.first {
                    initial
                } else {
                    self.before[node.kids[i]]
                }
            };
            let value = match node.op {
                Op::True => true,
                Op::False => false,
                Op::Ap => match node.source.expect("a proposition has a source") {
                    Source::Input(i) => input(i),
                    Source::Component(k) => self.outputs[k],
                },
                Op::Not => !kid(0),
                Op::And => node.kids.iter().all(|&c| self.now[c]),
                Op::Or => node.kids.iter().any(|&c| self.now[c]),
                Op::Implies => !kid(0) || kid(1),
                Op::Equiv => kid(0) == kid(1),
                Op::Xor => kid(0) != kid(1),
                Op::Y => kid_was(0, false),
                Op::Z => kid_was(0, true),
                Op::O => kid(0) || was(false),
                Op::H => kid(0) && was(true),
                // a S b = b | (a & Y(a S b)); B (weak) and T start true.
                Op::S => kid(1) || (kid(0) && was(false)),
                Op::B => kid(1) || (kid(0) && was(true)),
                Op::T => kid(1) && (kid(0) || was(true)),
                op => unreachable!("`{}` is refused by Evaluator::new", op.symbol()),
            };
            self.now[n] = value;
        }
    }

    /// The components' values at the last event read, in their order.
    pub fn outputs(&self) -> &[bool] {
        &self.outputs
    }

    /// The roots' values at the last event read, in their order.
    pub fn roots(&self) -> &[bool] {
        &self.root_values
    }

    /// How many intervals the components keep in all (memory use: it is
    /// bounded by the intervals' shapes, not by the event rate).
    pub fn kept(&self) -> usize {
        self.windows.iter().map(|w| w.kept.len()).sum()
    }
}

impl Window {
    /// The state of a past operator before any event: nothing kept.
    pub(super) fn past(kind: TimedKind, interval: TimeInterval) -> Window {
        Window {
            kind,
            interval,
            operands: Vec::new(),
            nodes_end: 0,
            kept: VecDeque::new(),
        }
    }

    /// How many intervals it keeps.
    pub(super) fn kept(&self) -> usize {
        self.kept.len()
    }

    /// Reads the event at `time` where the first operand is `f` and the
    /// second (of `S`) `g`; returns the operator's value there.
    pub(super) fn step(&mut self, time: i64, f: bool, g: Option<bool>) -> bool {
        let add = match self.kind {
            TimedKind::Once => f,
            TimedKind::Historically => !f,
            TimedKind::Since => {
                if !f {
                    self.kept.clear();
                }
                g.expect("`S` has two operands")
            }
            kind => unreachable!("{kind:?} is refused by Evaluator::new"),
        };
        let t = i128::from(time);
        let TimeInterval { lo, hi } = self.interval;
        if add {
            // Within `hi − lo` of the last time kept: one interval (see the
            // module documentation); unbounded above, always.
            let width = hi.map_or(i128::MAX, |hi| i128::from(hi) - i128::from(lo));
            match self.kept.back_mut() {
                Some(last) if t - i128::from(last.1) <= width => last.1 = time,
                _ => self.kept.push_back((time, time)),
            }
        }
        if let Some(hi) = hi {
            let oldest = t - i128::from(hi);
            while self
                .kept
                .front()
                .is_some_and(|&(_, e)| i128::from(e) < oldest)
            {
                self.kept.pop_front();
            }
        }
        let held = self
            .kept
            .front()
            .is_some_and(|&(s, _)| i128::from(s) <= t - i128::from(lo));
        match self.kind {
            TimedKind::Historically => !held,
            _ => held,
        }
    }
}
