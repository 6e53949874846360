//! Büchi automata with accepting states: the automata of Spin's never
//! claims for properties that are not safety.

use super::dfa::{Guard, StateId};
use super::Alphabet;
use crate::valuation::Valuation;
use crate::word::Lasso;

/// An edge of a [`BuchiAutomaton`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuchiEdge {
    /// The letters that take the edge.
    pub guard: Guard,
    /// Where they lead.
    pub target: StateId,
}

#[derive(Clone, Debug)]
struct BuchiState {
    accepting: bool,
    edges: Vec<BuchiEdge>,
}

/// A nondeterministic Büchi automaton over infinite words: a word is
/// accepted if some run on it visits accepting states infinitely often.
/// Every state is reachable and has a non-empty language (an accepted
/// word starts from it); the automaton with no state accepts nothing.
///
/// Built by [`Builder::build_buchi`](crate::translate::Builder::build_buchi)
/// from the tableau's generalized Büchi automaton.
///
/// ```
/// use monitor_core::word::Lasso;
/// use monitor_core::translate::Builder;
///
/// // The words on which `req` is eventually followed by no `ack` forever.
/// let a = Builder::new().build_buchi("F(req & G !ack)")?;
/// assert_eq!(a.alphabet().names(), ["req", "ack"]);
/// let letter = |req: bool, ack: bool| vec![req, ack];
/// let starved = Lasso::new(vec![letter(true, false)], vec![letter(false, false)]);
/// let served = Lasso::new(vec![letter(true, false)], vec![letter(false, true)]);
/// assert!(a.accepts(&starved));
/// assert!(!a.accepts(&served));
/// # Ok::<(), monitor_core::translate::BuildError>(())
/// ```
#[derive(Clone, Debug)]
pub struct BuchiAutomaton {
    aps: Alphabet,
    name: String,
    states: Vec<BuchiState>,
}

impl BuchiAutomaton {
    /// An automaton from its states (the initial one first): whether each
    /// is accepting, and its edges.
    pub(crate) fn new(
        aps: Alphabet,
        name: String,
        states: Vec<(bool, Vec<BuchiEdge>)>,
    ) -> BuchiAutomaton {
        BuchiAutomaton {
            aps,
            name,
            states: states
                .into_iter()
                .map(|(accepting, edges)| BuchiState { accepting, edges })
                .collect(),
        }
    }

    /// The propositions; proposition `i` is bit `i` of a letter.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// assert_eq!(a.alphabet().names(), ["req", "ack"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn alphabet(&self) -> &Alphabet {
        &self.aps
    }

    /// A name for the automaton (by default the formula it accepts, as
    /// printed after simplification: `G F a & F G b` is `FGb & GFa`).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// assert_eq!(a.name(), "F(req & G!ack)");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Renames the automaton.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let mut a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// a.set_name("starvation");
    /// assert_eq!(a.name(), "starvation");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_name(&mut self, name: impl Into<String>) {
        self.name = name.into();
    }

    /// The number of states.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// assert_eq!(Builder::new().build_buchi("F(req & G !ack)")?.num_states(), 2);
    /// // Unsatisfiable: no state.
    /// assert_eq!(Builder::new().build_buchi("a & !a")?.num_states(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_states(&self) -> usize {
        self.states.len()
    }

    /// The number of edges (one per pair of states joined).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// // Waiting: a loop and an edge out; starved: a loop.
    /// assert_eq!(Builder::new().build_buchi("F(req & G !ack)")?.num_edges(), 3);
    /// assert_eq!(Builder::new().build_buchi("G ack")?.num_edges(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn num_edges(&self) -> usize {
        self.states.iter().map(|s| s.edges.len()).sum()
    }

    /// The states, in order (the initial one first).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// let states: Vec<StateId> = a.states().collect();
    /// assert_eq!(states, [StateId::new(0), StateId::new(1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn states(&self) -> impl ExactSizeIterator<Item = StateId> + use<> {
        (0..self.states.len() as u32).map(StateId::new)
    }

    /// The initial state, `None` when the language is empty.
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// assert_eq!(Builder::new().build_buchi("F(req & G !ack)")?.start(), Some(StateId::new(0)));
    /// assert_eq!(Builder::new().build_buchi("a & !a")?.start(), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn start(&self) -> Option<StateId> {
        (!self.states.is_empty()).then_some(StateId::new(0))
    }

    /// Whether state `s` is accepting.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// let accepting: Vec<bool> = a.states().map(|s| a.is_accepting(s)).collect();
    /// assert_eq!(accepting, [false, true]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_accepting(&self, s: StateId) -> bool {
        self.states[s.as_usize()].accepting
    }

    /// The edges leaving state `s`, in the order a claim lists them: those
    /// closer to an accepting state first (Spin's pan tries a state's
    /// options in order, so a violation's cycle is found early).
    ///
    /// ```
    /// # use monitor_core::automaton::StateId;
    /// # use monitor_core::translate::Builder;
    /// let a = Builder::new().build_buchi("F(req & G !ack)")?;
    /// let edges: Vec<(String, StateId)> = a.edges(StateId::new(0)).iter()
    ///     .map(|e| (e.guard.display(a.alphabet()).to_string(), e.target)).collect();
    /// // The way to the accepting state first.
    /// assert_eq!(edges, [("req & !ack".into(), StateId::new(1)), ("1".into(), StateId::new(0))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn edges(&self, s: StateId) -> &[BuchiEdge] {
        &self.states[s.as_usize()].edges
    }

    /// The states where some letter takes two edges.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// // `req & !ack` may stay or move on from the first state.
    /// assert_eq!(Builder::new().build_buchi("F(req & G !ack)")?.nondeterministic_states(), 1);
    /// assert_eq!(Builder::new().build_buchi("G(req -> X ack)")?.nondeterministic_states(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn nondeterministic_states(&self) -> usize {
        self.states
            .iter()
            .filter(|s| {
                s.edges.iter().enumerate().any(|(i, a)| {
                    s.edges[i + 1..]
                        .iter()
                        .any(|b| a.guard.intersects(&b.guard))
                })
            })
            .count()
    }

    /// Whether no letter takes two edges of a state.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// assert!(!Builder::new().build_buchi("F G a")?.is_deterministic());
    /// assert!(Builder::new().build_buchi("G F a")?.is_deterministic());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn is_deterministic(&self) -> bool {
        self.nondeterministic_states() == 0
    }

    /// Whether every state is accepting: then every infinite run is
    /// accepting, and the automaton is the closure of a safety language.
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// // A safety property: every run that does not die is accepting.
    /// assert!(Builder::new().build_buchi("G(req -> X ack)")?.all_accepting());
    /// assert!(!Builder::new().build_buchi("G F ack")?.all_accepting());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn all_accepting(&self) -> bool {
        self.states.iter().all(|s| s.accepting)
    }

    /// Whether the automaton accepts the infinite word `word`: some run on
    /// it passes an accepting state infinitely often (in the product of
    /// the automaton with the lasso's positions, a reachable cycle through
    /// an accepting state).
    ///
    /// ```
    /// # use monitor_core::translate::Builder;
    /// # use monitor_core::word::Lasso;
    /// let a = Builder::new().build_buchi("G F ack")?;
    /// assert!(a.accepts(&Lasso::new(vec![], vec![0b0u64, 0b1])));
    /// assert!(!a.accepts(&Lasso::new(vec![0b1u64], vec![0b0])));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn accepts<L: Valuation>(&self, word: &Lasso<L>) -> bool {
        if self.states.is_empty() {
            return false;
        }
        let p = word.prefix.len();
        let m = p + word.cycle.len();
        let letter = |i: usize| {
            if i < p {
                &word.prefix[i]
            } else {
                &word.cycle[i - p]
            }
        };
        let next = |i: usize| if i + 1 < m { i + 1 } else { p };
        let node = |q: StateId, i: usize| q.as_usize() * m + i;
        let total = self.states.len() * m;
        let mut succ: Vec<Vec<u32>> = vec![Vec::new(); total];
        let mut reached = vec![false; total];
        let mut stack = vec![(StateId::new(0), 0usize)];
        reached[0] = true;
        while let Some((q, i)) = stack.pop() {
            for e in &self.states[q.as_usize()].edges {
                if e.guard.eval(letter(i)) {
                    let j = next(i);
                    let d = node(e.target, j);
                    succ[node(q, i)].push(d as u32);
                    if !reached[d] {
                        reached[d] = true;
                        stack.push((e.target, j));
                    }
                }
            }
        }
        crate::algo::emptiness::tarjan(&succ).iter().any(|scc| {
            let cyclic = scc.len() > 1 || succ[scc[0] as usize].contains(&scc[0]);
            cyclic
                && scc
                    .iter()
                    .any(|&v| reached[v as usize] && self.states[v as usize / m].accepting)
        })
    }
}
