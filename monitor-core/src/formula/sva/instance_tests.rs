//! Instances of declared sequences, properties and `let`s: arguments by
//! position, by name (`.x(a)`, IEEE 1800-2017 §16.8.1, §11.12), omitted
//! (their defaults), and the mistakes refused with a caret.

use super::{parse_sva, parse_sva_directive};
use crate::formula::{Formula, ParseError};

fn s(text: &str) -> Formula {
    parse_sva(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn err(text: &str) -> ParseError {
    match parse_sva(text) {
        Ok(f) => panic!("{text}: parsed as {f}"),
        Err(e) => e,
    }
}

/// The column (1-based) of the first occurrence of `what` in `text`,
/// where a caret is expected.
fn col(text: &str, what: &str) -> usize {
    1 + text
        .find(what)
        .unwrap_or_else(|| panic!("`{what}` not in {text}"))
}

const S3: &str = "sequence s(x, y, z = c); x ##1 y ##1 z; endsequence ";

#[test]
fn named_arguments_bind_by_name() {
    let want = s("a ##1 b ##1 c");
    // Every order of the names gives the same binding.
    for call in [
        "s(.x(a), .y(b), .z(c))",
        "s(.z(c), .y(b), .x(a))",
        "s(.y(b), .x(a), .z(c))",
        "s(.y(b), .x(a))",
        "s(a, .y(b))",
        "s(a, b, .z(c))",
        "s(a, .z(c), .y(b))",
        "s(a, .y(b), .z())",
        "s( . x ( a ) , . y ( b ) )",
    ] {
        assert_eq!(s(&format!("{S3}{call}")), want, "{call}");
    }
    // A named actual is an expression, in parentheses where it is used.
    assert_eq!(
        s(&format!("{S3}s(.y(b || d), .x(a ##1 d))")),
        s("(a ##1 d) ##1 (b || d) ##1 c")
    );
    assert_eq!(
        s(&format!("{S3}s(.z($onehot({{d, e}})), .y(f[1]), .x(a))")),
        s("a ##1 f[1] ##1 $onehot({d, e})")
    );
    // The binding is not the order: swapping the names swaps the signals.
    assert_eq!(s(&format!("{S3}s(.x(b), .y(a))")), s("b ##1 a ##1 c"));
    assert_ne!(s(&format!("{S3}s(.x(b), .y(a))")), want);
}

#[test]
fn named_arguments_of_properties_and_lets() {
    let p = "property p(r, t = 2, u); r |-> ##t u; endproperty ";
    assert_eq!(s(&format!("{p}p(.u(ack), .r(req))")), s("req |-> ##2 ack"));
    assert_eq!(
        s(&format!("{p}p(req, .t(3), .u(ack))")),
        s("req |-> ##3 ack")
    );
    assert_eq!(s(&format!("{p}p(req, , ack)")), s("req |-> ##2 ack"));
    assert_eq!(
        s("let l(x, y = b) = x && !y; l(.y(c), .x(a)) |-> d"),
        s("a && !c |-> d")
    );
    assert_eq!(
        s("let l(x, y = b) = x && !y; l(.x(a)) |-> d"),
        s("a && !b |-> d")
    );
    // Nested: an actual naming a formal of the enclosing declaration.
    assert_eq!(
        s("sequence s(x, y); x ##1 y; endsequence \
           property p(q); s(.y(q), .x(go)) |=> done; endproperty p(.q(ready))"),
        s("go ##1 ready |=> done")
    );
    // In a directive too.
    let d = parse_sva_directive(
        "sequence s(x, y); x ##[1:2] y; endsequence \
         a1: assert property (@(posedge clk) s(.y(ack), .x(req)) |=> done);",
    )
    .unwrap();
    assert_eq!(d.formula, Formula::always(s("req ##[1:2] ack |=> done")));
}

#[test]
fn defaults_fill_omitted_arguments() {
    let t = "sequence s(x = a, y = b); x ##1 y; endsequence ";
    assert_eq!(s(&format!("{t}s")), s("a ##1 b"));
    assert_eq!(s(&format!("{t}s()")), s("a ##1 b"));
    assert_eq!(s(&format!("{t}s(, d)")), s("a ##1 d"));
    assert_eq!(s(&format!("{t}s(d)")), s("d ##1 b"));
    assert_eq!(s(&format!("{t}s(d, )")), s("d ##1 b"));
    assert_eq!(s(&format!("{t}s(.y(d))")), s("a ##1 d"));
    assert_eq!(s(&format!("{t}s(.x(), .y())")), s("a ##1 b"));
    // A default is read where the declaration is: its names are signals,
    // not the other formals (`y = x` is the signal `x`).
    assert_eq!(
        s("sequence s(x, y = x); x ##1 y; endsequence s(a)"),
        s("a ##1 x")
    );
}

#[test]
fn argument_mistakes_are_refused_at_their_place() {
    // A positional argument after a named one (§16.8.1).
    let text = format!("{S3}s(.x(a), b)");
    let e = err(&text);
    assert!(
        e.message()
            .contains("positional argument after a named one"),
        "{e}"
    );
    assert!(e.message().contains("§16.8.1"), "{e}");
    assert_eq!(e.column(), text.rfind("b)").unwrap() + 1, "{e}");
    let text = format!("{S3}s(.x(a), , .y(b))");
    let e = err(&text);
    assert!(
        e.message()
            .contains("positional argument after a named one"),
        "{e}"
    );
    // A name the declaration does not have.
    let text = format!("{S3}s(a, .w(b))");
    let e = err(&text);
    assert!(e.message().contains("no formal argument `w`"), "{e}");
    assert!(e.message().contains("`x`, `y`, `z`"), "{e}");
    assert_eq!(e.column(), col(&text, "w(b)"), "{e}");
    let e = err("sequence s; a; endsequence s(.w(b))");
    assert!(e.message().contains("it has none"), "{e}");
    // Bound twice: by position and by name, or by name twice.
    let text = format!("{S3}s(a, b, .x(c))");
    let e = err(&text);
    assert!(e.message().contains("`x` is given twice"), "{e}");
    assert_eq!(e.column(), text.rfind("x(c)").unwrap() + 1, "{e}");
    let text = format!("{S3}s(.y(b), .x(a), .y(c))");
    let e = err(&text);
    assert!(e.message().contains("`y` is named twice"), "{e}");
    assert_eq!(e.column(), text.rfind("y(c)").unwrap() + 1, "{e}");
    // Omitted without a default, by name or not given.
    let e = err(&format!("{S3}s(.x(a), .y())"));
    assert!(e.message().contains("needs its argument `y`"), "{e}");
    let e = err(&format!("{S3}s(.x(a))"));
    assert!(e.message().contains("needs its argument `y`"), "{e}");
    // Malformed names.
    let text = format!("{S3}s(.x a)");
    let e = err(&text);
    assert!(e.message().contains("`(`"), "{e}");
    assert_eq!(e.column(), text.rfind(" a)").unwrap() + 2, "{e}");
    let text = format!("{S3}s(.(a))");
    let e = err(&text);
    assert!(e.message().contains("the name of a formal argument"), "{e}");
    assert_eq!(e.column(), text.rfind("(a)").unwrap() + 1, "{e}");
    let text = format!("{S3}s(.x(a, b), .y(c))");
    let e = err(&text);
    assert!(e.message().contains("one actual"), "{e}");
    assert_eq!(e.column(), text.rfind("a, b").unwrap() + 2, "{e}");
    let text = format!("{S3}s(.x(a), .y(b)");
    let e = err(&text);
    assert!(e.message().contains("parenthesis is never closed"), "{e}");
    assert_eq!(e.column(), col(&text, "s(.x") + 1, "{e}");
    let text = format!("{S3}s(.x(a) .y(b))");
    let e = err(&text);
    assert!(e.message().contains("`,` or `)`"), "{e}");
    assert_eq!(e.column(), text.rfind(".y").unwrap() + 1, "{e}");
    // Too many by position.
    let e = err(&format!("{S3}s(a, b, c, d)"));
    assert!(e.message().contains("takes 3 argument(s), 4 given"), "{e}");
}
