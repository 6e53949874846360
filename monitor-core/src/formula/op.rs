//! The operators of the logic (LTL with past, PSL's SEREs and suffix
//! operators), with their arities, classes and symbols.

/// The operators of the logic, grouped as in Spot's `formula.hh`.
///
/// The declaration order is the canonical order of operands of `&` and `|`
/// (constants, then propositions, then negations, then temporal operators),
/// which is why `p0 & !p1 & Fp1` prints back in the order it is usually
/// written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    // constants
    /// The constant false (`false`, `0`).
    False,
    /// The constant true (`true`, `1`).
    True,
    // atoms
    /// An atomic proposition.
    Ap,
    // unary operators
    /// Negation (`!`, `~`).
    Not,
    /// Next (`X`): the operand holds at the next position.
    X,
    /// Eventually (`F`, `<>`).
    F,
    /// Globally (`G`, `[]`).
    G,
    /// Yesterday (`Y`): the operand held at the previous position; false at the first.
    Y,
    /// Weak yesterday (`Z`): as `Y`, but true at the first position.
    Z,
    /// Once (`O`): the operand held at some position up to now.
    O,
    /// Historically (`H`): the operand held at every position up to now.
    H,
    // binary operators
    /// Implication (`->`, `=>`).
    Implies,
    /// Equivalence (`<->`, `<=>`).
    Equiv,
    /// Exclusive or (`xor`, `^`).
    Xor,
    /// Strong until (`U`).
    U,
    /// Weak release (`R`, `V`), the dual of `U`.
    R,
    /// Weak until (`W`).
    W,
    /// Strong release (`M`), the dual of `W`.
    M,
    /// Since (`S`): the right operand held at some position up to now, and
    /// the left one at every position after it.
    S,
    /// Back-to (`B`), the weak since: `a B b` is `(a S b) | H a`.
    B,
    /// Trigger (`T`), the dual of since: `a T b` is `!(!a S !b)`.
    T,
    // PSL: sequential extended regular expressions (SEREs). Their Boolean
    // leaves are ordinary Boolean formulas, each matching one letter.
    /// The empty SERE `[*0]`, matching only the empty word.
    EmptyWord,
    /// SERE concatenation `r ; s` (n-ary, flattened).
    Concat,
    /// SERE fusion `r : s`: `r` and `s` overlap on one letter (n-ary).
    Fusion,
    /// SERE union `r | s` (n-ary).
    OrRat,
    /// Length-matching SERE intersection `r && s` (n-ary).
    AndRat,
    /// Repetition `r[*i..j]` ([`Formula::star_bounds`](super::Formula::star_bounds)); `[*]`, `[+]`,
    /// `[*n]`, `[=n]` and `[->n]` are written with it.
    Star,
    /// Spot's fusion power `r[:*i..j]`
    /// ([`Formula::fusion_power_bounds`](super::Formula::fusion_power_bounds)):
    /// `i` to `j` copies of `r` fused (`r:r:…:r`), where zero copies is
    /// one letter (`1`) and a copy never matches the empty word; `[:*]`
    /// and `[:+]` are written with it.
    FStar,
    /// SVA's `first_match(r)` (Spot: `first_match(r)`): the matches of
    /// `r` that extend no shorter match of `r` (IEEE 1800-2017 §16.9.8).
    FirstMatch,
    // PSL: formulas over SEREs. As in IEEE 1850, only non-empty matches
    // count.
    /// The weak closure `{r}`: every prefix of the word either has matched
    /// `r` or can still be completed to a match (IEEE 1850: completed with
    /// letters that satisfy every Boolean).
    Closure,
    /// The negated closure `!{r}`.
    NegClosure,
    /// `!{r}` while it is tracked by the breakpoint of the tableau (an
    /// internal form; equivalent to `NegClosure`).
    NegClosureMarked,
    /// Suffix implication `{r} |-> f` (Spot: `{r}[]-> f`): at the end of
    /// every match of `r`, `f` holds.
    UConcat,
    /// Suffix conjunction `{r} <>-> f` (Spot: `{r}<>-> f`): some match of
    /// `r` ends where `f` holds. The strong sequence `{r}!` is
    /// `{r} <>-> true`.
    EConcat,
    /// `EConcat` while tracked by the breakpoint of the tableau (internal).
    EConcatMarked,
    /// PSL's `f abort b`: `f` holds on the word whose letters, from the
    /// first `b` on, satisfy every Boolean (IEEE 1850's ⊤).
    Abort,
    /// The dual of `Abort`, its negation in negation normal form:
    /// `!(f abort b)` is `(!f)` on the word whose letters from the first
    /// `b` on satisfy no Boolean (⊥).
    AbortBottom,
    // n-ary operators
    /// Conjunction (`&`, `&&`, `/\`).
    And,
    /// Disjunction (`|`, `||`, `\/`).
    Or,
}

impl Op {
    /// The number of operands this operator takes (`None` for the n-ary
    /// `&` and `|`, and for the SERE operators `;`, `:`, `|` and `&&`).
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert_eq!(Op::Ap.arity(), Some(0));
    /// assert_eq!(Op::X.arity(), Some(1));
    /// assert_eq!(Op::U.arity(), Some(2));
    /// assert_eq!(Op::And.arity(), None);
    /// assert_eq!(Op::Concat.arity(), None);
    /// ```
    pub fn arity(self) -> Option<usize> {
        use Op::*;
        match self {
            False | True | Ap | EmptyWord => Some(0),
            Not | X | F | G | Y | Z | O | H => Some(1),
            Star | FStar | FirstMatch | Closure | NegClosure | NegClosureMarked => Some(1),
            Implies | Equiv | Xor | U | R | W | M | S | B | T => Some(2),
            UConcat | EConcat | EConcatMarked | Abort | AbortBottom => Some(2),
            And | Or | Concat | Fusion | OrRat | AndRat => None,
        }
    }

    /// Whether this is a future-time temporal operator.
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert!(Op::U.is_future());
    /// assert!(!Op::S.is_future());
    /// ```
    pub fn is_future(self) -> bool {
        matches!(self, Op::X | Op::F | Op::G | Op::U | Op::R | Op::W | Op::M)
    }

    /// Whether this is a SERE operator (`[*0]`, `;`, `:`, `|`, `&&`,
    /// repetition, fusion power, `first_match`).
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert!(Op::Concat.is_sere());
    /// assert!(Op::FirstMatch.is_sere());
    /// assert!(!Op::Closure.is_sere());
    /// ```
    pub fn is_sere(self) -> bool {
        matches!(
            self,
            Op::EmptyWord
                | Op::Concat
                | Op::Fusion
                | Op::OrRat
                | Op::AndRat
                | Op::Star
                | Op::FStar
                | Op::FirstMatch
        )
    }

    /// Whether this is a PSL operator of the temporal layer that LTL does
    /// not have: closures, suffix implication and conjunction (over
    /// SEREs), and `abort`.
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert!(Op::UConcat.is_sere_formula());
    /// assert!(!Op::Concat.is_sere_formula());
    /// ```
    pub fn is_sere_formula(self) -> bool {
        matches!(
            self,
            Op::Closure
                | Op::NegClosure
                | Op::NegClosureMarked
                | Op::UConcat
                | Op::EConcat
                | Op::EConcatMarked
                | Op::Abort
                | Op::AbortBottom
        )
    }

    /// Whether this is a past-time temporal operator.
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert!(Op::S.is_past());
    /// assert!(!Op::U.is_past());
    /// ```
    pub fn is_past(self) -> bool {
        matches!(self, Op::Y | Op::Z | Op::O | Op::H | Op::S | Op::B | Op::T)
    }

    /// The operator's symbol in Spot syntax (past operators use the letters
    /// of this tool).
    ///
    /// ```
    /// # use monitor_core::formula::Op;
    /// assert_eq!(Op::True.symbol(), "1");
    /// assert_eq!(Op::Implies.symbol(), "->");
    /// assert_eq!(Op::UConcat.symbol(), "[]->");
    /// ```
    pub fn symbol(self) -> &'static str {
        use Op::*;
        match self {
            False => "0",
            True => "1",
            Ap => "ap",
            Not => "!",
            X => "X",
            F => "F",
            G => "G",
            Y => "Y",
            Z => "Z",
            O => "O",
            H => "H",
            Implies => "->",
            Equiv => "<->",
            Xor => "xor",
            U => "U",
            R => "R",
            W => "W",
            M => "M",
            S => "S",
            B => "B",
            T => "T",
            EmptyWord => "[*0]",
            Concat => ";",
            Fusion => ":",
            OrRat => "|",
            AndRat => "&&",
            Star => "[*]",
            FStar => "[:*]",
            FirstMatch => "first_match",
            Closure => "{}",
            NegClosure => "!{}",
            NegClosureMarked => "!+{}",
            UConcat => "[]->",
            EConcat => "<>->",
            EConcatMarked => "<>+>",
            Abort => "abort",
            AbortBottom => "abort_bottom",
            And => "&",
            Or => "|",
        }
    }
}
