//! Edge labels denote their diagrams: on random Boolean functions, the
//! guard (sum of products or factored formula) holds on exactly the
//! letters where the diagram does, and its printed forms, read back by an
//! independent parser of `!`, `&`, `|` and parentheses, too (a missing
//! parenthesis changes the function).

use monitor_core::automaton::{Guard, GuardSyntax, StateId, Target};
use monitor_core::dd::{Manager, Node};
use monitor_core::translate::Builder;
use proptest::prelude::*;

const VARS: u32 = 8;

/// A random Boolean function: a tree of operations over `VARS` variables.
#[derive(Clone, Debug)]
enum F {
    Var(u32),
    Not(Box<F>),
    And(Box<F>, Box<F>),
    Or(Box<F>, Box<F>),
    Xor(Box<F>, Box<F>),
}

fn function() -> impl Strategy<Value = F> {
    let leaf = (0..VARS).prop_map(F::Var);
    leaf.prop_recursive(6, 48, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|f| F::Not(Box::new(f))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| F::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| F::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner).prop_map(|(a, b)| F::Xor(Box::new(a), Box::new(b))),
        ]
    })
}

fn diagram(m: &mut Manager, f: &F) -> Node {
    match f {
        F::Var(v) => m.var(*v),
        F::Not(a) => {
            let a = diagram(m, a);
            m.not(a)
        }
        F::And(a, b) => {
            let (a, b) = (diagram(m, a), diagram(m, b));
            m.and(a, b)
        }
        F::Or(a, b) => {
            let (a, b) = (diagram(m, a), diagram(m, b));
            m.or(a, b)
        }
        F::Xor(a, b) => {
            let (a, b) = (diagram(m, a), diagram(m, b));
            m.xor(a, b)
        }
    }
}

/// A reader of printed guards: `!` binds tightest, then `&`, then `|`;
/// propositions are `p` and a number (or a bare number, as in HOA).
struct Reader<'a> {
    text: &'a [u8],
    at: usize,
    syntax: &'a GuardSyntax<'a>,
}

impl Reader<'_> {
    fn eat(&mut self, token: &str) -> bool {
        let t = token.trim();
        while self.text.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
        if self.text[self.at..].starts_with(t.as_bytes()) {
            self.at += t.len();
            true
        } else {
            false
        }
    }

    fn or(&mut self, letter: u64) -> bool {
        let mut v = self.and(letter);
        while self.eat(self.syntax.or) {
            v |= self.and(letter);
        }
        v
    }

    fn and(&mut self, letter: u64) -> bool {
        let mut v = self.atom(letter);
        while self.eat(self.syntax.and) {
            v &= self.atom(letter);
        }
        v
    }

    fn atom(&mut self, letter: u64) -> bool {
        if self.eat("(") {
            let v = self.or(letter);
            assert!(self.eat(")"), "unclosed parenthesis");
            return v;
        }
        if self.eat(self.syntax.not) {
            return !self.atom(letter);
        }
        if self.eat(self.syntax.tt) {
            return true;
        }
        if self.eat(self.syntax.ff) {
            return false;
        }
        self.eat("p");
        let start = self.at;
        while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        let v: u32 = std::str::from_utf8(&self.text[start..self.at])
            .unwrap()
            .parse()
            .expect("a proposition");
        letter >> v & 1 == 1
    }
}

fn read(text: &str, syntax: &GuardSyntax<'_>, letter: u64) -> bool {
    let mut r = Reader {
        text: text.as_bytes(),
        at: 0,
        syntax,
    };
    let v = r.or(letter);
    assert_eq!(r.at, text.len(), "trailing text in {text}");
    v
}

const HOA: GuardSyntax<'static> = GuardSyntax {
    and: "&",
    or: " | ",
    not: "!",
    tt: "t",
    ff: "f",
    group_conjunctions: false,
};

const C: GuardSyntax<'static> = GuardSyntax {
    and: " && ",
    or: " || ",
    not: "!",
    tt: "1",
    ff: "0",
    group_conjunctions: true,
};

fn check(m: &mut Manager, f: Node, g: &Guard) {
    assert_eq!(g.to_diagram(m), f, "{}", g.to_hoa());
    let hoa = g.to_hoa();
    let mut c = String::new();
    g.write(&mut c, &C, &mut |out, v| write!(out, "p{v}"))
        .unwrap();
    let aps = monitor_core::automaton::Alphabet::new((0..VARS).map(|v| format!("p{v}")));
    let spot = g.display(&aps).to_string();
    let spot_syntax = GuardSyntax {
        and: " & ",
        or: " | ",
        not: "!",
        tt: "1",
        ff: "0",
        group_conjunctions: false,
    };
    for letter in 0..1u64 << VARS {
        let want = m.eval(f, &letter);
        assert_eq!(g.eval(&letter), want, "{hoa} on {letter:b}");
        assert_eq!(read(&hoa, &HOA, letter), want, "{hoa} on {letter:b}");
        assert_eq!(read(&c, &C, letter), want, "{c} on {letter:b}");
        assert_eq!(
            read(&spot, &spot_syntax, letter),
            want,
            "{spot} on {letter:b}"
        );
    }
    let support = m.support(f);
    assert_eq!(g.propositions(), support, "{hoa}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn labels_denote_their_diagrams(f in function()) {
        let mut m = Manager::new();
        let d = diagram(&mut m, &f);
        let chosen = Guard::of_diagram(&mut m, d).unwrap();
        check(&mut m, d, &chosen);
        let factored = Guard::factor_diagram(&mut m, d).unwrap();
        check(&mut m, d, &factored);
        // Never larger than the diagram's paths would make it: at most
        // one literal per path to `true`, and the sum of products is kept
        // when it is small.
        if factored.cubes().is_none() {
            prop_assert!(factored.literals() >= 2);
        }
    }
}

/// Products of sums, sums of products of sums, and their negations: the
/// factored guards follow the diagrams (linear in the number of terms),
/// where the sums of products have 2^n cubes.
#[test]
fn products_of_sums_stay_linear() {
    for n in [4, 12, 30] {
        let mut m = Manager::new();
        let mut f = Node::TRUE;
        for i in 0..n {
            let (q, r) = (m.var(2 * i), m.var(2 * i + 1));
            let s = m.or(q, r);
            f = m.and(f, s);
        }
        let g = Guard::of_diagram(&mut m, f).unwrap();
        assert_eq!(g.to_diagram(&mut m), f);
        assert!(g.literals() <= 2 * n as usize + 4 || g.cubes().is_some());
        if n == 30 {
            assert!(g.cubes().is_none());
            assert_eq!(g.literals(), 60);
            let text = g.to_hoa();
            assert!(text.starts_with("(0 | 1)&(2 | 3)&"), "{text}");
        }
        let nf = m.not(f);
        let ng = Guard::of_diagram(&mut m, nf).unwrap();
        assert_eq!(ng.to_diagram(&mut m), nf);
        // `!q0 & !r0 | …`: n cubes, kept as a sum of products.
        assert_eq!(ng.cubes().map(<[_]>::len), Some(n as usize));
    }
}

/// The monitor of `G(a -> X(product of 30 sums))`: four edges (and the
/// sink), labelled in a few literals each, through every entry point.
#[test]
fn the_monitor_of_a_product_of_thirty_sums_has_small_labels() {
    let terms: Vec<String> = (0..30).map(|i| format!("(q{i} | r{i})")).collect();
    let f = format!("G(a -> X({}))", terms.join(" & "));
    let dfa = Builder::new().build(&f).unwrap().into_dfa();
    assert_eq!(dfa.num_states(), 2);
    let mut labels = dfa.labeler();
    let waiting = StateId::new(1);
    let edges = labels.edges(waiting).unwrap();
    assert_eq!(edges.len(), 3);
    for e in &edges {
        assert!(e.guard.literals() <= 61, "{}", e.guard.to_hoa());
    }
    assert_eq!(edges[2].target, Target::Violation);
    let bad = labels.violation_guard(waiting).unwrap();
    assert_eq!(bad.cubes().map(<[_]>::len), Some(30));
    let ok = labels.allowed_guard(waiting).unwrap();
    assert_eq!(ok.literals(), 60);
    // The guards of a state are disjoint and cover every letter: checked
    // on random letters of 61 propositions.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..2000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let letter = x & ((1 << 61) - 1);
        let taken: Vec<_> = edges.iter().filter(|e| e.guard.eval(&letter)).collect();
        assert_eq!(taken.len(), 1);
        assert_eq!(taken[0].target, dfa.step(waiting, &letter));
        assert_eq!(
            ok.eval(&letter),
            dfa.step(waiting, &letter) != Target::Violation
        );
    }
}

/// Parity has no small formula of `&`, `|` and `!`: a clear error, fast.
#[test]
fn parity_is_refused_with_a_clear_error() {
    let f = format!(
        "G(a -> X({}))",
        (0..30)
            .map(|i| format!("p{i}"))
            .collect::<Vec<_>>()
            .join(" ^ ")
    );
    let dfa = Builder::new().build(&f).unwrap().into_dfa();
    let err = dfa.edges(StateId::new(1)).unwrap_err();
    let text = err.to_string();
    // The edge, its state and the limit (issue 36).
    assert!(
        text.starts_with("the label of the edge from state 1 to ")
            && text.contains(" has more than 1048576 literals, even factored"),
        "{text}"
    );
    assert_eq!(err.state(), Some(StateId::new(1)));
    let err = dfa.violation_guard(StateId::new(1)).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "the label of the edge from state 1 to the violation (the letters that violate the property there) has more than"
        ),
        "{err}"
    );
    let err = dfa.allowed_guard(StateId::new(1)).unwrap_err();
    assert!(
        err.to_string().starts_with(
            "the label of the letters allowed in state 1 (those that do not violate the property there) has more than"
        ),
        "{err}"
    );
    // Small parities are written (as sums of products or formulas).
    let small = Builder::new()
        .build("G(a -> X(p0 ^ p1 ^ p2 ^ p3 ^ p4))")
        .unwrap()
        .into_dfa();
    assert!(small.edges(StateId::new(1)).is_ok());
}
