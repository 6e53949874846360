//! The finished monitor: a complete, deterministic, minimal automaton.

use std::collections::VecDeque;
use std::fmt::{self};

use rustc_hash::FxHashMap;

pub use super::label::{Guard, LabelError, Labeler};
use super::Alphabet;
use crate::dd::{Cube, Manager, Node};
use crate::Valuation;

/// A state of a [`BadPrefixDfa`]: its number, from 0 (the start state)
/// to [`BadPrefixDfa::num_states`] (excluded). The rejecting sink is not a
/// state ([`Target::Violation`]).
///
/// ```
/// use monitor_core::automaton::StateId;
/// use monitor_core::translate::Builder;
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// assert_eq!(dfa.start(), StateId::new(0));
/// let states: Vec<usize> = dfa.states().map(StateId::as_usize).collect();
/// assert_eq!(states, [0, 1]);
/// assert_eq!(StateId::new(1).to_string(), "1");
/// # Ok::<(), monitor_core::translate::BuildError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct StateId(u32);

impl StateId {
    /// The state numbered `n`.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// assert_eq!(StateId::new(3).as_u32(), 3);
    /// assert_eq!(StateId::new(0), StateId::default());
    /// ```
    pub const fn new(n: u32) -> StateId {
        StateId(n)
    }

    /// Its number.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// assert_eq!(StateId::new(7).as_u32(), 7);
    /// assert_eq!(u32::from(StateId::new(7)), 7);
    /// ```
    pub const fn as_u32(self) -> u32 {
        self.0
    }

    /// Its number, as an index.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// let names = ["start", "waiting"];
    /// assert_eq!(names[StateId::new(1).as_usize()], "waiting");
    /// ```
    pub const fn as_usize(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for StateId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<StateId> for u32 {
    fn from(s: StateId) -> u32 {
        s.0
    }
}

impl From<StateId> for usize {
    fn from(s: StateId) -> usize {
        s.as_usize()
    }
}

/// The leaf value that stands for the rejecting sink in transition
/// diagrams (the runtime's encoding, so that tables are diagrams'
/// leaves as they are).
pub(crate) const VIOLATION_LEAF: u32 = crate::runtime::VIOLATION;

pub use crate::runtime::Verdict;

/// Where a transition leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A state of the automaton.
    State(StateId),
    /// The rejecting sink: the word read is a bad prefix.
    Violation,
}

impl Target {
    /// Where a leaf of a transition diagram ([`BadPrefixDfa::diagram`])
    /// leads: readers of the raw diagrams decode leaves with this rather
    /// than with the sink's number.
    ///
    /// ```
    /// use monitor_core::automaton::{StateId, Target};
    /// use monitor_core::translate::Builder;
    ///
    /// let dfa = Builder::new().build("G(a -> X b)")?.into_dfa();
    /// let targets: Vec<Target> = dfa
    ///     .manager()
    ///     .leaves(dfa.diagram(StateId::new(1)))
    ///     .into_iter()
    ///     .map(Target::from_leaf)
    ///     .collect();
    /// assert!(targets.contains(&Target::Violation));
    /// # Ok::<(), monitor_core::translate::BuildError>(())
    /// ```
    pub fn from_leaf(leaf: u32) -> Target {
        if leaf == VIOLATION_LEAF {
            Target::Violation
        } else {
            Target::State(StateId(leaf))
        }
    }

    /// The leaf of a transition diagram, or the entry of a runtime table
    /// ([`MonitorTable`](crate::MonitorTable)), that stands for this
    /// target: the state's number, or the rejecting sink's
    /// ([`VIOLATION`](crate::runtime::VIOLATION)).
    ///
    /// ```
    /// use monitor_core::automaton::{StateId, Target};
    /// use monitor_core::runtime::VIOLATION;
    ///
    /// assert_eq!(Target::State(StateId::new(3)).to_leaf(), 3);
    /// assert_eq!(Target::Violation.to_leaf(), VIOLATION);
    /// assert_eq!(Target::from_leaf(VIOLATION), Target::Violation);
    /// ```
    pub fn to_leaf(self) -> u32 {
        match self {
            Target::State(s) => s.0,
            Target::Violation => VIOLATION_LEAF,
        }
    }
}

/// An edge of a [`BadPrefixDfa`]: the letters satisfying `guard` lead to
/// `target`. The guards of one state are disjoint and cover every letter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edge {
    /// The letters taking this edge.
    pub guard: Guard,
    /// Where they lead.
    pub target: Target,
}

/// The one representation of deterministic automata: per state (0 is the
/// start) a transition diagram, whose leaves are state numbers or
/// [`VIOLATION_LEAF`], and a verdict. The algorithms build and transform
/// them with their diagrams in the pipeline's shared manager; a finished
/// [`BadPrefixDfa`] is one with a manager of its own, its alphabet and its
/// name.
#[derive(Clone, Debug, Default)]
pub(crate) struct DetAutomaton {
    pub diagrams: Vec<Node>,
    pub verdicts: Vec<Verdict>,
}

impl DetAutomaton {
    pub fn len(&self) -> usize {
        self.diagrams.len()
    }

    /// The automaton rejecting every nonempty word.
    pub fn rejecting_all(mgr: &mut Manager) -> DetAutomaton {
        DetAutomaton {
            diagrams: vec![mgr.leaf(VIOLATION_LEAF)],
            verdicts: vec![Verdict::Violated],
        }
    }
}

/// A complete, deterministic, minimal monitor.
///
/// Reading a letter in a state leads either to a state or to the rejecting
/// sink ([`Target::Violation`]), which is left implicit as in Spot's
/// monitors: the sink is reached exactly on the bad prefixes (or, for an
/// automaton built in informative mode, exactly on the informative bad
/// prefixes). In three-valued mode, states whose every extension satisfies
/// the property have [`Verdict::Satisfied`].
///
/// Each state's transition function is a multi-terminal decision diagram
/// over the propositions ([`BadPrefixDfa::diagram`]); [`BadPrefixDfa::edges`]
/// turns it into guarded edges.
///
/// ```
/// use monitor_core::translate::Builder;
/// use monitor_core::automaton::{StateId, Target, Verdict};
///
/// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
/// assert_eq!(dfa.num_states(), 2);
/// let (req, ack) = (0b01u64, 0b10u64);
/// let waiting = StateId::new(1);
/// assert_eq!(dfa.step(dfa.start(), &req), Target::State(waiting));
/// assert_eq!(dfa.step(waiting, &0u64), Target::Violation);
/// assert_eq!(dfa.run([req, ack, 0]), Verdict::Undecided);
/// assert_eq!(dfa.run([req, 0]), Verdict::Violated);
/// let edges = dfa.edges(waiting)?;
/// assert_eq!(edges.last().unwrap().guard.display(dfa.alphabet()).to_string(), "!ack");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct BadPrefixDfa {
    aps: Alphabet,
    mgr: Manager,
    det: DetAutomaton,
    name: String,
}

impl BadPrefixDfa {
    /// The finished automaton of `det`, whose diagrams are in `mgr`: they
    /// are copied into a manager of its own.
    pub(crate) fn from_det(
        aps: Alphabet,
        mgr: &Manager,
        det: &DetAutomaton,
        name: String,
    ) -> BadPrefixDfa {
        let mut own = Manager::new();
        let mut memo = FxHashMap::default();
        let det = DetAutomaton {
            diagrams: det
                .diagrams
                .iter()
                .map(|&n| own.import(mgr, n, &mut memo))
                .collect(),
            verdicts: det.verdicts.clone(),
        };
        BadPrefixDfa {
            aps,
            mgr: own,
            det,
            name,
        }
    }

    /// The propositions.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.alphabet().names(), ["req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alphabet(&self) -> &Alphabet {
        &self.aps
    }

    /// A name for the automaton (by default the formula it monitors).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.name(), "G(req -> Xack)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the automaton.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let mut dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// dfa.set_name("handshake");
    /// assert_eq!(dfa.name(), "handshake");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// The number of states (the implicit rejecting sink is not counted).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// // Idle, and waiting for `ack`; the sink is not counted.
    /// assert_eq!(Builder::new().build("G(req -> X ack)")?.dfa().num_states(), 2);
    /// assert_eq!(Builder::new().build("G(req -> X X ack)")?.dfa().num_states(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_states(&self) -> usize {
        self.det.len()
    }

    /// The start state (always state 0).
    ///
    /// ```
    /// # use monitor_core::automaton::{StateId, Verdict};
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.start(), StateId::new(0));
    /// assert_eq!(dfa.verdict(dfa.start()), Verdict::Undecided);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(&self) -> StateId {
        StateId(0)
    }

    /// The states, in order (the start state first).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let states: Vec<StateId> = dfa.states().collect();
    /// assert_eq!(states, [StateId::new(0), StateId::new(1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..self.det.len() as u32).map(StateId)
    }

    /// The verdict of a state (after reading a word that leads to it).
    /// The start state of an unsatisfiable property is `Violated`: even
    /// the empty word is a bad prefix, and every letter leads to the sink.
    ///
    /// ```
    /// # use monitor_core::automaton::Verdict;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.verdict(dfa.start()), Verdict::Undecided);
    /// let unsat = Builder::new().build("a & !a")?.into_dfa();
    /// assert_eq!(unsat.verdict(unsat.start()), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn verdict(&self, s: StateId) -> Verdict {
        self.det.verdicts[s.as_usize()]
    }

    /// The transition diagram of a state: a multi-terminal decision diagram
    /// of [`BadPrefixDfa::manager`] whose leaves are state numbers, or the
    /// rejecting sink ([`Target::from_leaf`] tells them apart).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// // From the start: back to it without `req`, to state 1 with it.
    /// let d = dfa.diagram(dfa.start());
    /// assert_eq!(dfa.manager().leaves(d), [0, 1]);
    /// assert_eq!(dfa.manager().eval_leaf(d, &0b01u64), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn diagram(&self, s: StateId) -> Node {
        self.det.diagrams[s.as_usize()]
    }

    /// The manager holding the transition diagrams.
    ///
    /// ```
    /// # use monitor_core::automaton::{StateId, Target};
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let leaf = dfa.manager().eval_leaf(dfa.diagram(StateId::new(1)), &0u64);
    /// assert_eq!(Target::from_leaf(leaf), Target::Violation);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn manager(&self) -> &Manager {
        &self.mgr
    }

    /// Where a letter leads from a state.
    ///
    /// ```
    /// # use monitor_core::automaton::{StateId, Target};
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let (req, ack) = (0b01u64, 0b10u64);
    /// assert_eq!(dfa.step(dfa.start(), &req), Target::State(StateId::new(1)));
    /// assert_eq!(dfa.step(StateId::new(1), &ack), Target::State(dfa.start()));
    /// assert_eq!(dfa.step(StateId::new(1), &req), Target::Violation);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn step(&self, s: StateId, letter: &impl Valuation) -> Target {
        Target::from_leaf(self.mgr.eval_leaf(self.diagram(s), letter))
    }

    /// The verdict after reading a word from the start state.
    ///
    /// ```
    /// # use monitor_core::automaton::Verdict;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.run([0b01u64, 0b10]), Verdict::Undecided);
    /// assert_eq!(dfa.run([[true, false], [false, false]]), Verdict::Violated);
    /// assert_eq!(dfa.run(Vec::<u64>::new()), Verdict::Undecided);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run<L: Valuation>(&self, word: impl IntoIterator<Item = L>) -> Verdict {
        let mut s = self.start();
        let mut verdict = self.verdict(s);
        for letter in word {
            match self.step(s, &letter) {
                Target::Violation => return Verdict::Violated,
                Target::State(t) => {
                    s = t;
                    verdict = self.verdict(t);
                }
            }
        }
        verdict
    }

    /// A labeler of the edges of this monitor: [`Labeler::edges`] and the
    /// others compute the guards of one state at a time in a working
    /// manager kept from one state to the next (an emitter writing every
    /// state uses one).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let mut labels = dfa.labeler();
    /// let n: usize = dfa.states().map(|s| labels.edges(s).map(|e| e.len())).sum::<Result<_, _>>()?;
    /// assert_eq!(n, 5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn labeler(&self) -> Labeler<'_> {
        Labeler::new(self)
    }

    /// The edges of a state, one per target, targets in increasing order
    /// and the violation (if any) last. Each guard is an irredundant sum
    /// of products if that is small next to its diagram, else a factored
    /// formula ([`Guard`]); a guard with no formula of at most
    /// [`MAX_LABEL_LITERALS`](super::MAX_LABEL_LITERALS) literals is a
    /// [`LabelError`].
    ///
    /// ```
    /// # use monitor_core::automaton::{StateId, Target};
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let edges: Vec<(String, Target)> = dfa.edges(StateId::new(1))?.into_iter()
    ///     .map(|e| (e.guard.display(dfa.alphabet()).to_string(), e.target)).collect();
    /// assert_eq!(edges, [("!req & ack".to_string(), Target::State(StateId::new(0))),
    ///                    ("req & ack".to_string(), Target::State(StateId::new(1))),
    ///                    ("!ack".to_string(), Target::Violation)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn edges(&self, s: StateId) -> Result<Vec<Edge>, LabelError> {
        self.labeler().edges(s)
    }

    /// The letters that violate the property from state `s` (false if none).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let bad = dfa.violation_guard(StateId::new(1))?;
    /// assert_eq!(bad.display(dfa.alphabet()).to_string(), "!ack");
    /// // No letter violates the property from the start.
    /// assert!(dfa.violation_guard(dfa.start())?.is_false());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn violation_guard(&self, s: StateId) -> Result<Guard, LabelError> {
        self.labeler().violation_guard(s)
    }

    /// The letters that do not violate the property from state `s`: the
    /// complement of [`BadPrefixDfa::violation_guard`], as one guard
    /// (`req & ack | !req & ack` is shown as `ack`).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.allowed_guard(StateId::new(1))?.display(dfa.alphabet()).to_string(), "ack");
    /// assert!(dfa.allowed_guard(dfa.start())?.is_true());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn allowed_guard(&self, s: StateId) -> Result<Guard, LabelError> {
        self.labeler().allowed_guard(s)
    }

    /// The number of edges to states (edges to the sink are not counted).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// // Start -> start, start -> 1, 1 -> start, 1 -> 1 (and 1 -> sink).
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// assert_eq!(dfa.num_edges(), 4);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_edges(&self) -> usize {
        self.states()
            .map(|s| {
                self.mgr
                    .leaves(self.diagram(s))
                    .iter()
                    .filter(|&&l| l != VIOLATION_LEAF)
                    .count()
            })
            .sum()
    }

    /// The successors of `s`, each with a prime cube of letters leading
    /// to it (grown from a path of the diagram).
    fn successors(&self, s: StateId) -> Vec<(Target, Cube)> {
        let d = self.diagram(s);
        self.mgr
            .leaf_paths(d)
            .into_iter()
            .map(|(leaf, cube)| {
                (
                    Target::from_leaf(leaf),
                    self.mgr.generalize_cube(d, cube, leaf),
                )
            })
            .collect()
    }

    /// The breadth-first tree of shortest words: for every state but the
    /// start, its parent and one letter (a cube) leading from the parent to
    /// it. Following parents gives a shortest word to each state; the tree
    /// holds all of them in space linear in the number of states.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let tree = dfa.access_tree();
    /// assert!(tree[0].is_none()); // the start
    /// let (parent, letter) = tree[1].as_ref().unwrap();
    /// assert_eq!(*parent, StateId::new(0));
    /// assert_eq!(letter.display(dfa.alphabet()).to_string(), "req");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn access_tree(&self) -> Vec<Option<(StateId, Guard)>> {
        let n = self.det.len();
        let mut parent: Vec<Option<(StateId, Guard)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::new();
        if n > 0 {
            seen[0] = true;
            queue.push_back(self.start());
        }
        while let Some(s) = queue.pop_front() {
            for (t, cube) in self.successors(s) {
                if let Target::State(t) = t {
                    if !seen[t.as_usize()] {
                        seen[t.as_usize()] = true;
                        parent[t.as_usize()] = Some((s, Guard::from_cubes(vec![cube])));
                        queue.push_back(t);
                    }
                }
            }
        }
        parent
    }

    /// A shortest word from the start to state `s` (each letter a cube:
    /// propositions not listed may take any value). See
    /// [`BadPrefixDfa::access_tree`] to get the words of all states at once.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X X ack)")?.into_dfa();
    /// let word: Vec<String> = dfa.access_word(StateId::new(3)).iter()
    ///     .map(|g| g.display(dfa.alphabet()).to_string()).collect();
    /// assert_eq!(word, ["req", "req"]);
    /// assert!(dfa.access_word(dfa.start()).is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn access_word(&self, s: StateId) -> Vec<Guard> {
        let tree = self.access_tree();
        let mut word = Vec::new();
        let mut cur = s.as_usize();
        while let Some((p, letter)) = &tree[cur] {
            word.push(letter.clone());
            cur = p.as_usize();
        }
        word.reverse();
        word
    }

    /// A shortest bad prefix (`None` if the property has none, i.e. it is a
    /// liveness property). Each letter is a cube. The empty word for an
    /// unsatisfiable property, whose start state is already violated.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let dfa = Builder::new().build("G(req -> X ack)")?.into_dfa();
    /// let word: Vec<String> = dfa.shortest_violation().unwrap().iter()
    ///     .map(|g| g.display(dfa.alphabet()).to_string()).collect();
    /// assert_eq!(word, ["req", "!ack"]);
    /// // A liveness property has no bad prefix.
    /// assert!(Builder::new().build("G F p")?.dfa().shortest_violation().is_none());
    /// // Nothing satisfies `a & !a`: even the empty word is a bad prefix.
    /// assert_eq!(Builder::new().build("a & !a")?.dfa().shortest_violation(), Some(vec![]));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn shortest_violation(&self) -> Option<Vec<Guard>> {
        if self.verdict(self.start()) == Verdict::Violated {
            return Some(Vec::new());
        }
        let n = self.det.len();
        let mut parent: Vec<Option<(StateId, Cube)>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut queue = VecDeque::from([self.start()]);
        seen[0] = true;
        while let Some(s) = queue.pop_front() {
            for (t, cube) in self.successors(s) {
                match t {
                    Target::Violation => {
                        let mut word = vec![Guard::from_cubes(vec![cube])];
                        let mut cur = s.as_usize();
                        while let Some((p, c)) = &parent[cur] {
                            word.push(Guard::from_cubes(vec![c.clone()]));
                            cur = p.as_usize();
                        }
                        word.reverse();
                        return Some(word);
                    }
                    Target::State(t) if !seen[t.as_usize()] => {
                        seen[t.as_usize()] = true;
                        parent[t.as_usize()] = Some((s, cube));
                        queue.push_back(t);
                    }
                    Target::State(_) => {}
                }
            }
        }
        None
    }

    /// The verdict the monitor ends with on an infinite word: `Violated`
    /// if it rejects some prefix, `Satisfied` if it reaches a satisfied
    /// state, `Undecided` otherwise (decided exactly: the run is followed
    /// around the cycle until it repeats).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// use monitor_core::word::Lasso;
    /// use monitor_core::automaton::Verdict;
    /// let dfa = Builder::new().build("G(a -> X b)")?.into_dfa();
    /// // a b a b ... is fine, a !b fails at the second letter.
    /// assert_eq!(dfa.run_lasso(&Lasso::new(vec![], vec![0b01u64, 0b10])), Verdict::Undecided);
    /// assert_eq!(dfa.run_lasso(&Lasso::new(vec![], vec![0b01u64, 0b00])), Verdict::Violated);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_lasso<L: Valuation>(&self, word: &crate::word::Lasso<L>) -> Verdict {
        let mut s = self.start();
        if self.verdict(s) != Verdict::Undecided {
            return self.verdict(s);
        }
        let step = |s: StateId, l: &L| -> Result<StateId, Verdict> {
            match self.step(s, l) {
                Target::Violation => Err(Verdict::Violated),
                Target::State(t) if self.verdict(t) == Verdict::Satisfied => {
                    Err(Verdict::Satisfied)
                }
                Target::State(t) => Ok(t),
            }
        };
        for l in &word.prefix {
            match step(s, l) {
                Ok(t) => s = t,
                Err(v) => return v,
            }
        }
        let mut seen = rustc_hash::FxHashSet::default();
        while seen.insert(s) {
            for l in &word.cycle {
                match step(s, l) {
                    Ok(t) => s = t,
                    Err(v) => return v,
                }
            }
        }
        Verdict::Undecided
    }

    /// A shortest word after which `self` and `other` give different
    /// verdicts, with both verdicts; `None` if they agree on every word.
    /// Propositions are matched by name (the alphabets may differ).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// let a = Builder::new().build("G(a -> X b)")?.into_dfa();
    /// let b = Builder::new().build("G(!a | X b)")?.into_dfa();
    /// assert!(a.first_difference(&b).is_none());
    /// let c = Builder::new().build("G(a -> b)")?.into_dfa();
    /// let (word, _, _) = a.first_difference(&c).unwrap();
    /// assert_eq!(word.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_difference(&self, other: &BadPrefixDfa) -> Option<(Vec<Guard>, Verdict, Verdict)> {
        let mut aps = self.aps.clone();
        for n in other.aps.names() {
            aps.push(n.clone());
        }
        let mut mgr = Manager::new();
        let import = |dfa: &BadPrefixDfa, mgr: &mut Manager| {
            let map: Vec<u32> = dfa
                .aps
                .names()
                .iter()
                .map(|n| aps.index(n).expect("merged"))
                .collect();
            let mut memo = FxHashMap::default();
            DetAutomaton {
                diagrams: dfa
                    .det
                    .diagrams
                    .iter()
                    .map(|&d| mgr.import_renamed(&dfa.mgr, d, &map, &mut memo))
                    .collect(),
                verdicts: dfa.det.verdicts.clone(),
            }
        };
        let x = import(self, &mut mgr);
        let y = import(other, &mut mgr);
        crate::algo::product::first_difference(&mut mgr, &x, &y).map(|(word, a, b)| {
            (
                word.into_iter()
                    .map(|c| Guard::from_cubes(vec![c]))
                    .collect(),
                a,
                b,
            )
        })
    }

    /// Whether the monitor's verdicts are stutter-invariant: repeating a
    /// letter never changes them. Exact for the automaton's own language
    /// (for a non-safety formula, that of its safety closure): it holds iff
    /// every edge `q -a-> p` into a state has `p -a-> p`, because the
    /// states are pairwise distinguishable. This is what partial-order
    /// reduction in a model checker needs of an observer.
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    /// assert!(Builder::new().build("G(a -> (b W c))")?.dfa().is_stutter_invariant());
    /// assert!(!Builder::new().build("G(a -> X b)")?.dfa().is_stutter_invariant());
    /// // X, but stutter-invariant all the same: a repeated `a` satisfies
    /// // the obligation it creates.
    /// assert!(Builder::new().build("G(a -> X(a | b))")?.dfa().is_stutter_invariant());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_stutter_invariant(&self) -> bool {
        let mut scratch = Manager::new();
        let mut memo = FxHashMap::default();
        let diagrams: Vec<Node> = self
            .det
            .diagrams
            .iter()
            .map(|&d| scratch.import(&self.mgr, d, &mut memo))
            .collect();
        repeated_letters_stay(&mut scratch, &diagrams)
    }

    /// Per state: whether some word leads from it to a violation. A never
    /// claim or checker need not track the others (from them the property
    /// holds for good).
    ///
    /// ```
    /// use monitor_core::translate::Builder;
    ///
    /// // `p U q` holds for good once `q` is seen.
    /// let dfa = Builder::new().build("p U q")?.into_dfa();
    /// let live = dfa.can_violate();
    /// assert_eq!(live.len(), dfa.num_states());
    /// assert!(live[0]);
    /// assert_eq!(live.iter().filter(|&&l| !l).count(), 1); // once q is seen
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn can_violate(&self) -> Vec<bool> {
        sink_reachable(&self.mgr, &self.det.diagrams)
    }

    /// Whether no word is ever rejected (the monitored property is a
    /// liveness property: every prefix can be extended into a model).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// assert!(Builder::new().build("G(req -> F ack)")?.dfa().never_violates());
    /// assert!(!Builder::new().build("G(req -> X ack)")?.dfa().never_violates());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn never_violates(&self) -> bool {
        sink_unreachable(&self.mgr, &self.det.diagrams)
    }
}

/// Per state of the automaton whose transition diagrams are `diagrams`:
/// whether the rejecting sink is reachable from it (a backward search).
pub(crate) fn sink_reachable(mgr: &Manager, diagrams: &[Node]) -> Vec<bool> {
    let n = diagrams.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut hit = vec![false; n];
    let mut stack = Vec::new();
    for (s, &diagram) in diagrams.iter().enumerate() {
        for t in mgr.leaves(diagram) {
            if t == VIOLATION_LEAF {
                hit[s] = true;
                stack.push(s as u32);
            } else {
                preds[t as usize].push(s as u32);
            }
        }
    }
    while let Some(t) = stack.pop() {
        for &p in &preds[t as usize] {
            if !hit[p as usize] {
                hit[p as usize] = true;
                stack.push(p);
            }
        }
    }
    hit
}

/// Whether no transition diagram of `diagrams` leads to the rejecting
/// sink: no word is rejected (a liveness property, for an exact monitor).
pub(crate) fn sink_unreachable(mgr: &Manager, diagrams: &[Node]) -> bool {
    diagrams
        .iter()
        .all(|&d| !mgr.leaves(d).contains(&VIOLATION_LEAF))
}

/// Whether, in the minimal deterministic automaton whose transition
/// diagrams are `diagrams`, repeating the letter just read never changes
/// the state: every edge `q -a-> p` into a live state has `p -a-> p`. For
/// an exact monitor this is stutter-invariance of the safety property: if
/// `p -a-> p'` with `p' != p`, minimality gives a word `v` that one of
/// `p`, `p'` rejects and the other does not, and `u·a·v` and `u·a·a·v`
/// extend into words on different sides of the property.
pub(crate) fn repeated_letters_stay(mgr: &mut Manager, diagrams: &[Node]) -> bool {
    for &d in diagrams {
        for (p, g) in mgr.leaf_guards(d) {
            if p == VIOLATION_LEAF {
                continue;
            }
            let stay = mgr.leaf_guard(diagrams[p as usize], p);
            if !mgr.implies(g, stay) {
                return false;
            }
        }
    }
    true
}

/// Formats a word of cubes as `a & !b; b; 1`.
pub(crate) fn format_word(word: &[Guard], aps: &Alphabet) -> String {
    if word.is_empty() {
        return "(empty word)".into();
    }
    word.iter()
        .map(|g| g.display(aps).to_string())
        .collect::<Vec<_>>()
        .join("; ")
}
