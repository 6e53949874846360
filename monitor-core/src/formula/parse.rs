//! A parser for LTL with past in the syntax of Spot and Spin, with Spot's
//! SEREs (PSL).
//!
//! Operators, from the loosest to the tightest binding (Spot's table):
//!
//! | operators | associativity |
//! |---|---|
//! | `->` `=>` `-->` `<->` `<=>` `<-->` | right |
//! | `\|` `\|\|` `\/` | left |
//! | `xor` `^` | left |
//! | `&` `&&` `/\` | left |
//! | `U` `R` `V` `W` `M` and past `S` `B` `T` | right |
//! | prefix `!` `~` `X` `F` `<>` `G` `[]` `X[n]` `X[!]` `F[n:m]` `G[n:m]` and past `Y` `Z` `O` `H` | |
//!
//! Atoms: `true`, `false` (any case), `1`, `0`, identifiers
//! `[a-zA-Z_.][a-zA-Z0-9_.]*`, and any text in double quotes (`"x > 3"`,
//! with `\"` and `\\` escapes). As in Spot, an identifier cannot start with
//! the letter of a prefix operator (`F`, `G`, `X`, and here also `Y`, `Z`,
//! `O`, `H`) unless a digit follows it: `GFp0` is `G(F(p0))` and `F1` is a
//! proposition; quote a name such as `"Open"` to use it as a proposition.
//! Single capital letters `U R V W M S B T` are operators. `/* comments */`
//! are skipped.
//!
//! Bounded operators are expanded as in Spot: `X[3] f` is `XXX f`,
//! `F[2:4] f` is `XX(f | X(f | X f))`, `G[2:4] f` is `XX(f & X(f & X f))`,
//! and an upper bound of `$`, `inf` or nothing means unbounded
//! (`F[2:$] f` is `XXF f`). Separators `:`, `..` and `,` are accepted.
//!
//! Windows of one operator nested directly are merged
//! ([`Formula::bounded`]): `F[0:2] F[1:3] f` is `F[1:5] f`.
//!
//! # SEREs
//!
//! Spot's PSL syntax: a SERE in braces is a formula, with the semantics
//! of the PSL front end ([`parse_psl`](super::parse_psl); the same
//! property gives the same formula):
//!
//! | formula | meaning |
//! |---|---|
//! | `{r}`, `{r}!`, `!{r}` | weak sequence (closure), strong sequence, negation |
//! | `{r}[]-> f`, `{r}\|-> f`, `{r}(f)` | `f` at the end of each match (PSL `{r} \|-> f`) |
//! | `{r}[]=> f`, `{r}\|=> f` | `f` one letter after each match (`{r;1}[]-> f`) |
//! | `{r}<>-> f`, `{r}<>=> f` | some match ends where (one letter before) `f` holds |
//! | `f abort b`, `f abort_bottom b` | PSL's `abort`, and its dual (as `to_spot` prints them) |
//!
//! The right side of `[]->` and `<>->` extends as far as possible
//! (`{r}[]-> a U b` is `{r}[]-> (a U b)`). Inside braces, from the
//! loosest to the tightest:
//!
//! | SERE | meaning |
//! |---|---|
//! | `r ; s` | concatenation |
//! | `r : s` | fusion (the last letter of `r` is the first of `s`) |
//! | `r ##n s`, `r ##[i:j] s`, `##[i:j] s`, `##[+]`, `##[*]` | SVA delays, Spot's sugar: `r;1[*n-1];s`, `##0` is fusion |
//! | `b -> c`, `b <-> c` | Booleans only |
//! | `r \| s`, `r \|\| s` | union |
//! | `b ^ c`, `b xor c` | Booleans only |
//! | `r && s`, `r & s` | length-matching and non-length-matching intersection (`&` on Booleans) |
//! | `r[*i..j]`, `r[*]`, `r*`, `r[+]`, `[*i..j]` alone (of `1`) | repetition |
//! | `b[=i..j]`, `b[->i..j]` | non-consecutive and goto repetition of a Boolean |
//! | `r[:*i..j]`, `r[:+]` | fusion power: `r:r:…:r`, `r[:*0]` is `1` |
//! | `!b`, `first_match(r)`, `(r)`, `{r}` | |
//!
//! Bounds are written `i..j`, `i:j`, `i,j` or `i to j`, with `$`, `inf`
//! or nothing for unbounded; `[*]` is `[*0..]`, `[->]` is `[->1]`,
//! `[->..j]` is `[->1..j]`. `[*0]` is the empty word, `1` any letter.
//! Letters are Boolean formulas (past operators allowed); a temporal
//! operator inside braces is an error. The formula core has no operator
//! for two of Spot's: the unbounded fusion power of a SERE that is not a
//! Boolean (`{a;b}[:+]`) and `first_match` of a SERE that is not a
//! Boolean nor accepts the empty word (`first_match({a;b[*]})`) are
//! refused with an error naming them.
//!
//! One difference from Spot remains, the PSL front end's: a weak
//! closure completes a prefix with letters that satisfy every Boolean,
//! `false` included (IEEE 1850), so `{0[=2]}` is `1` here and `0` in Spot.
//!
//! ```
//! use monitor_core::formula::{parse, parse_psl};
//!
//! let f = parse("G({req}[]=> {!ack[*0..3];ack}!)")?;
//! assert_eq!(f, parse_psl("always {req} |=> {!ack[*0:3];ack}!")?);
//! assert_eq!(f.to_spot(), "G({req;1}[]-> ({!ack[*0..3];ack}!))");
//! assert_eq!(parse("{a ##[1:2] b}")?, parse("{a;[*0..1];b}")?);
//! let err = parse("{a;b}} -> c").unwrap_err();
//! assert_eq!(err.message(), "expected an operator or the end of the formula, found `}`, which closes no `{`");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
