//! Timed components that look ahead: `F[0:500ms] p`, `G[0:1s] p`,
//! `p U[1ms:3ms] q` ([`formula::metric`](crate::formula::metric)), with
//! the past ones (`O[0:5s] p`, ...) they nest or are nested in.
//!
//! The value of `F[a:b] p` at event `i` depends on the events up to its
//! deadline `t_i + b`: it is *known* once an event later than the
//! deadline has been read (nothing after it can fall in the window), or
//! earlier once it is decided (`F` found `p` in its window; `U` found its
//! left operand failing before any witness). The letters the property's
//! monitor reads are therefore complete only after a delay, and
//! [`Delayed`] hands them out in order, each as soon as it is complete.
//!
//! # Overview
//!
//! * [`Delayed`]: the state of a list of components, fed one event at a
//!   time ([`Delayed::push`]); [`Delayed::pop`] gives the next complete
//!   letter (the components' values at one event), [`Delayed::finish`]
//!   resolves what the end of the input decides;
//! * [`Letter`]: a complete letter's event and deadline.
//!
//! # When a value is known
//!
//! Each component reads its operands (past-time formulas over the
//! events' propositions and the components before it) event by event, in
//! order, at an event once every component they name is known there: so
//! an operand naming a future component waits for it, even where the
//! rest of the operand would decide (`a | F[0:1s] b` with `a`). Each
//! component's values are known in order too (a value decided early waits
//! for those before it), and a letter is complete when every component is
//! known at its event. Within those rules a value is known at the first
//! event that decides it:
//!
//! * `F[a:b] p` at `i`: true once an event `j` with `t_j − t_i` in `[a, b]`
//!   and `p` at `j` is read; false once an event later than `t_i + b` is
//!   read and `p` is known at every event up to the deadline;
//! * `G[a:b] p` is `!F[a:b] !p`;
//! * `p U[a:b] q` at `i`: true once a `j` in the window with `q` at `j`
//!   and `p` from `i` to before `j` is read; false once `p` fails at some
//!   `k ≥ i` with no such `j` up to `k`, or as `F` at the deadline.
//!
//! # Cost
//!
//! Amortized constant work per event and component: `F` keeps the events
//! where its operand held, dropped once before `t_i + a`; `U` those where
//! `q` held and those where `p` failed. Unlike the past operators, whose
//! memory does not grow with the event rate, a future component keeps
//! every event not yet complete: memory linear in the number of events
//! within its largest window (plus the delay of the components it nests).
//!
//! ```
//! use monitor_core::formula::metric::parse_metric;
//! use monitor_core::trace::future::Delayed;
//!
//! let m = parse_metric("F[0:2s] ack")?;
//! let mut d = Delayed::new(&m.timed, |name| (name == "ack").then_some(0))?;
//! let s = 1_000_000_000;
//! let mut values = Vec::new();
//! // No ack at 0 and 1 s; an ack at 3 s.
//! d.push(0, |_| false);
//! d.push(s, |_| false);
//! assert!(d.pop(&mut values).is_none()); // nothing known: the windows are open
//! d.push(3 * s, |_| true);
//! // The event at 0: its deadline 2 s has passed, without an ack.
//! let letter = d.pop(&mut values).unwrap();
//! assert_eq!((letter.position, letter.deadline, values[0]), (0, Some(2 * s), false));
//! // The events at 1 s and 3 s: the ack at 3 s is in their windows.
//! assert_eq!((d.pop(&mut values).unwrap().position, values[0]), (1, true));
//! assert_eq!((d.pop(&mut values).unwrap().position, values[0]), (2, true));
//! assert!(d.pop(&mut values).is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::VecDeque;

use super::metric::{Node, Source, Window};
use crate::formula::metric::{TimeInterval, TimedComponent, TimedKind};
use crate::formula::{Formula, Op};

/// The most propositions the operands may read from events.
const MAX_INPUTS: usize = 64;

/// What a component keeps to decide its values.
#[derive(Clone, Debug)]
enum State {
    /// A past operator: its value at an event is known with its operands.
    Past(Window),
    /// `F` (and `G`, its operand negated): the events (position, time)
    /// where the operand held, not yet too early for every pending event.
    Eventually { hits: VecDeque<(u64, i64)> },
    /// `U`: the events where the right operand held, and the positions
    /// where the left one failed.
    Until {
        hits: VecDeque<(u64, i64)>,
        fails: VecDeque<u64>,
    },
}

/// One component at work.
#[derive(Clone, Debug)]
struct Component {
    kind: TimedKind,
    interval: TimeInterval,
    /// Its nodes, `nodes[from..to]`; its operands' roots among them.
    from: usize,
    to: usize,
    operands: Vec<usize>,
    /// The components its operands name.
    reads: Vec<usize>,
    state: State,
    /// The next event whose operands are to be evaluated.
    evaluated: u64,
    /// How many of its values are known (the first `known` events').
    known: u64,
    /// Its values at the events from `Delayed::base` on (known ones).
    values: VecDeque<bool>,
}

/// A complete letter, from [`Delayed::pop`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Letter {
    /// Its event: the number of events before it.
    pub position: u64,
    /// The event's time.
    pub time: i64,
    /// The latest deadline (`t + b`) of the future components that had
    /// passed when the letter became complete: the obligation that
    /// expired; `None` when every future value was decided before its
    /// deadline (or there is none).
    pub deadline: Option<i64>,
}

/// The state of timed components, some looking ahead, fed one event at a
/// time (see the [module documentation](self)).
#[derive(Clone, Debug)]
pub struct Delayed {
    nodes: Vec<Node>,
    /// Each node's value at the event its component evaluates now, and at
    /// the one before.
    now: Vec<bool>,
    before: Vec<bool>,
    components: Vec<Component>,
    /// The events from `base` on: times and inputs (a bit per input).
    base: u64,
    times: VecDeque<i64>,
    inputs: VecDeque<u64>,
    /// How many inputs the operands read (inputs `0..inputs_read`).
    inputs_read: usize,
    /// How many events were read.
    read: u64,
    /// How many letters were handed out.
    popped: u64,
    /// The time the input is known to have lasted until, once finished
    /// ([`Delayed::finish`]); `None` before.
    end: Option<i64>,
}

impl Delayed {
    /// The evaluator of `components` (in dependency order, as
    /// [`parse_metric`](crate::formula::metric::parse_metric) gives them);
    /// `input(name)` numbers each proposition read from events (`None`:
    /// an error naming it; at most 64 inputs).
    ///
    /// ```
    /// use monitor_core::formula::metric::parse_metric;
    /// use monitor_core::trace::future::Delayed;
    ///
    /// let m = parse_metric("F[0:1s] (a & b)")?;
    /// let e = Delayed::new(&m.timed, |n| (n == "a").then_some(0)).unwrap_err();
    /// assert_eq!(e, "the proposition `b` has no value");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        components: &[TimedComponent],
        mut input: impl FnMut(&str) -> Option<usize>,
    ) -> Result<Delayed, String> {
        let mut nodes: Vec<Node> = Vec::new();
        let mut out: Vec<Component> = Vec::new();
        for (k, c) in components.iter().enumerate() {
            let from = nodes.len();
            let mut reads = Vec::new();
            let mut operands = Vec::new();
            for f in &c.operands {
                operands.push(compile(
                    &mut nodes,
                    f,
                    &components[..k],
                    &mut reads,
                    &mut input,
                )?);
            }
            let state = match c.kind {
                TimedKind::Eventually | TimedKind::Always => State::Eventually {
                    hits: VecDeque::new(),
                },
                TimedKind::Until => State::Until {
                    hits: VecDeque::new(),
                    fails: VecDeque::new(),
                },
                kind => State::Past(Window::past(kind, c.interval)),
            };
            if c.kind.is_future() && c.interval.hi.is_none() {
                return Err(format!("`{}` has no deadline", c.name));
            }
            out.push(Component {
                kind: c.kind,
                interval: c.interval,
                from,
                to: nodes.len(),
                operands,
                reads,
                state,
                evaluated: 0,
                known: 0,
                values: VecDeque::new(),
            });
        }
        let inputs_read = nodes
            .iter()
            .filter_map(|n| match n.source {
                Some(Source::Input(i)) => Some(i + 1),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        Ok(Delayed {
            inputs_read,
            now: vec![false; nodes.len()],
            before: vec![false; nodes.len()],
            nodes,
            components: out,
            base: 0,
            times: VecDeque::new(),
            inputs: VecDeque::new(),
            read: 0,
            popped: 0,
            end: None,
        })
    }

    /// Back to before the first event.
    pub fn reset(&mut self) {
        for c in &mut self.components {
            c.evaluated = 0;
            c.known = 0;
            c.values.clear();
            match &mut c.state {
                State::Past(w) => *w = Window::past(c.kind, c.interval),
                State::Eventually { hits } => hits.clear(),
                State::Until { hits, fails } => {
                    hits.clear();
                    fails.clear();
                }
            }
        }
        self.base = 0;
        self.times.clear();
        self.inputs.clear();
        self.read = 0;
        self.popped = 0;
        self.end = None;
    }

    /// Reads one event at `time` (nanoseconds, not before the last
    /// event's), `input(i)` giving the value of input `i`; then every value
    /// this event decides is known.
    pub fn push(&mut self, time: i64, input: impl Fn(usize) -> bool) {
        debug_assert!(self.end.is_none(), "an event after the end");
        let mut bits = 0u64;
        for i in 0..self.inputs_read {
            if input(i) {
                bits |= 1 << i;
            }
        }
        self.times.push_back(time);
        self.inputs.push_back(bits);
        self.read += 1;
        self.advance();
    }

    /// No more events: the input lasted until `end_time` if given (every
    /// future value whose deadline is before it is decided as if an event
    /// at `end_time` had been read), else until its last event.
    pub fn finish(&mut self, end_time: Option<i64>) {
        let last = self.times.back().copied().unwrap_or(i64::MIN);
        self.end = Some(end_time.map_or(last, |t| t.max(last)));
        self.advance();
    }

    /// The next complete letter, its components' values written to
    /// `values` (one per component, in their order), or `None` when the
    /// next one is not complete yet.
    pub fn pop(&mut self, values: &mut Vec<bool>) -> Option<Letter> {
        let p = self.popped;
        if p >= self.read || self.components.iter().any(|c| c.known <= p) {
            return None;
        }
        let at = (p - self.base) as usize;
        values.clear();
        values.extend(self.components.iter().map(|c| c.values[at]));
        let time = self.times[at];
        let newest = self.newest();
        let deadline = self
            .components
            .iter()
            .filter(|c| c.kind.is_future())
            .filter_map(|c| deadline(time, c.interval))
            .filter(|&d| i128::from(newest) > d)
            .max()
            .map(|d| d as i64);
        self.popped += 1;
        self.trim();
        Some(Letter {
            position: p,
            time,
            deadline,
        })
    }

    /// The letters read but not complete (not handed out by
    /// [`Delayed::pop`]): how many.
    pub fn pending(&self) -> u64 {
        self.read - self.popped
    }

    /// The `k`-th letter not complete (0: the next one): its position and
    /// time, and each component's value at it, `None` where not known.
    pub fn pending_letter(&self, k: u64) -> (u64, i64, Vec<Option<bool>>) {
        let p = self.popped + k;
        let at = (p - self.base) as usize;
        let values = self
            .components
            .iter()
            .map(|c| (c.known > p).then(|| c.values[at]))
            .collect();
        (p, self.times[at], values)
    }

    /// How many events are kept (memory use: the events not complete,
    /// and what the windows keep).
    pub fn kept(&self) -> usize {
        self.times.len()
            + self
                .components
                .iter()
                .map(|c| match &c.state {
                    State::Past(w) => w.kept(),
                    State::Eventually { hits } => hits.len(),
                    State::Until { hits, fails } => hits.len() + fails.len(),
                })
                .sum::<usize>()
    }

    /// The latest time known to have passed: the last event's, or the end.
    fn newest(&self) -> i64 {
        let last = self.times.back().copied().unwrap_or(i64::MIN);
        self.end.map_or(last, |e| e.max(last))
    }

    /// Drops the events every component and letter is past.
    fn trim(&mut self) {
        // Every component's `known` and `evaluated` is at least `popped`.
        while self.base < self.popped {
            self.times.pop_front();
            self.inputs.pop_front();
            for c in &mut self.components {
                c.values.pop_front();
            }
            self.base += 1;
        }
    }

    /// Evaluates operands and decides values as far as the events read
    /// allow, component by component (each reads only those before it).
    fn advance(&mut self) {
        for k in 0..self.components.len() {
            // Operands: at the events where what they name is known.
            let ready = self.components[k]
                .reads
                .iter()
                .map(|&r| self.components[r].known)
                .fold(self.read, u64::min);
            while self.components[k].evaluated < ready {
                self.evaluate(k);
            }
            if self.components[k].kind.is_future() {
                while self.components[k].known < self.read {
                    match self.decide(k) {
                        Some(v) => {
                            let c = &mut self.components[k];
                            c.values.push_back(v);
                            c.known += 1;
                        }
                        None => break,
                    }
                }
            }
        }
    }

    /// Evaluates component `k`'s operands at its next event, and what
    /// follows at once (a past operator's value; a future one's hits).
    fn evaluate(&mut self, k: usize) {
        let (from, to, p) = {
            let c = &self.components[k];
            (c.from, c.to, c.evaluated)
        };
        let at = (p - self.base) as usize;
        let time = self.times[at];
        let bits = self.inputs[at];
        let first = p == 0;
        for n in from..to {
            let node = &self.nodes[n];
            let kid = |i: usize| self.now[node.kids[i]];
            let was = |initial: bool| if first { initial } else { self.before[n] };
            let kid_was = |i: usize, initial: bool| {
                if first {
                    initial
                } else {
                    self.before[node.kids[i]]
                }
            };
            let value = match node.op {
                Op::True => true,
                Op::False => false,
                Op::Ap => match node.source.expect("a proposition has a source") {
                    Source::Input(i) => (bits >> i) & 1 == 1,
                    Source::Component(r) => self.components[r].values[at],
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
                Op::S => kid(1) || (kid(0) && was(false)),
                Op::B => kid(1) || (kid(0) && was(true)),
                Op::T => kid(1) && (kid(0) || was(true)),
                op => unreachable!("`{}` is refused by Delayed::new", op.symbol()),
            };
            self.now[n] = value;
        }
        // This event's values become the ones before the next.
        self.before[from..to].copy_from_slice(&self.now[from..to]);
        let c = &mut self.components[k];
        let f = self.now[c.operands[0]];
        let g = c.operands.get(1).map(|&n| self.now[n]);
        match &mut c.state {
            State::Past(w) => {
                c.values.push_back(w.step(time, f, g));
                c.known += 1;
            }
            State::Eventually { hits } => {
                let held = if c.kind == TimedKind::Always { !f } else { f };
                if held {
                    hits.push_back((p, time));
                }
            }
            State::Until { hits, fails } => {
                if g.expect("`U` has two operands") {
                    hits.push_back((p, time));
                }
                if !f {
                    fails.push_back(p);
                }
            }
        }
        c.evaluated += 1;
    }

    /// Future component `k`'s value at its next undecided event, if the
    /// events read decide it.
    fn decide(&mut self, k: usize) -> Option<bool> {
        let newest = self.newest();
        let c = &mut self.components[k];
        let i = c.known;
        let t = i128::from(self.times[(i - self.base) as usize]);
        let lo = t + i128::from(c.interval.lo);
        let hi = t + i128::from(c.interval.hi.expect("checked in Delayed::new"));
        // Every event up to the deadline has its operands evaluated, and
        // a later time has been seen: the first event not evaluated is
        // past the deadline, or none is left and the newest time is.
        let closed = if c.evaluated < self.read {
            i128::from(self.times[(c.evaluated - self.base) as usize]) > hi
        } else {
            i128::from(newest) > hi
        };
        let drop_hits = |hits: &mut VecDeque<(u64, i64)>| {
            while hits
                .front()
                .is_some_and(|&(j, tj)| j < i || i128::from(tj) < lo)
            {
                hits.pop_front();
            }
        };
        match &mut c.state {
            State::Past(_) => unreachable!("past values are known when evaluated"),
            State::Eventually { hits } => {
                drop_hits(hits);
                let found = hits.front().is_some_and(|&(_, tj)| i128::from(tj) <= hi);
                let value = if found {
                    Some(true)
                } else if closed {
                    Some(false)
                } else {
                    None
                };
                value.map(|v| if c.kind == TimedKind::Always { !v } else { v })
            }
            State::Until { hits, fails } => {
                drop_hits(hits);
                while fails.front().is_some_and(|&j| j < i) {
                    fails.pop_front();
                }
                let fail = fails.front().copied();
                let witness = hits
                    .front()
                    .is_some_and(|&(j, tj)| i128::from(tj) <= hi && fail.is_none_or(|f| j <= f));
                if witness {
                    Some(true)
                } else if fail.is_some() || closed {
                    Some(false)
                } else {
                    None
                }
            }
        }
    }
}

/// The deadline `time + b` of a window (as an `i128`: it may pass
/// `i64::MAX`).
fn deadline(time: i64, interval: TimeInterval) -> Option<i128> {
    interval.hi.map(|hi| i128::from(time) + i128::from(hi))
}

/// Compiles operand `f` of a component into `nodes`, the components before
/// it being `known`; returns its root node. The components it names are
/// added to `reads`.
fn compile(
    nodes: &mut Vec<Node>,
    f: &Formula,
    known: &[TimedComponent],
    reads: &mut Vec<usize>,
    input: &mut impl FnMut(&str) -> Option<usize>,
) -> Result<usize, String> {
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
            Some(n) => Some(match known.iter().position(|c| c.name == n) {
                Some(k) => {
                    if !reads.contains(&k) {
                        reads.push(k);
                    }
                    Source::Component(k)
                }
                None => match input(n) {
                    Some(i) if i < MAX_INPUTS => Source::Input(i),
                    Some(_) => {
                        return Err(format!(
                            "the timed operators read more than {MAX_INPUTS} propositions"
                        ))
                    }
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
        nodes.push(Node { op, kids, source });
        ids.push((g.id(), nodes.len() - 1));
    }
    Ok(nodes.len() - 1)
}
