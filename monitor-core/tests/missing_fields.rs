//! Missing fields are SQL's NULL, and the text and list operators (issue
//! 30, item 5): random rows with missing, empty, `null` and present fields,
//! random expressions over `== != < > in contains starts_with ends_with
//! matches has == null`, through the CSV and JSON Lines readers, by the
//! checker's fast paths and its general evaluation (`(e) && true`), with
//! and without `strict_fields`, against a reference evaluator written here
//! from the README's rules.

use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::reader::{CsvReader, JsonlReader, Reader};
use monitor_core::{MonitorTable, Verdict};
use proptest::prelude::*;

/// A field's value in a row.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    /// CSV: an empty cell; JSON: `null`, or the key left out.
    Missing {
        absent: bool,
    },
    Int(i64),
    Str(&'static str),
    Bool(bool),
}

/// The fields: `a`, `b` numbers, `s` text, `c` a Boolean.
const FIELDS: [&str; 4] = ["a", "b", "s", "c"];

const TEXTS: [&str; 6] = [
    "timeout",
    "api/v1/login",
    "ERR",
    "connection timed out",
    "5",
    "TIMEOUT",
];

/// Whether a text matches, written without a regex.
type Meaning = fn(&str) -> bool;

/// Regexes with what they mean.
const REGEXES: [(&str, Meaning); 5] = [
    ("^api", |t| t.starts_with("api")),
    ("out$", |t| t.ends_with("out")),
    ("t.me", |t| {
        let b = t.as_bytes();
        b.windows(4)
            .any(|w| w[0] == b't' && w[2] == b'm' && w[3] == b'e' && w[1] != b'\n')
    }),
    ("[0-9]", |t| t.bytes().any(|c| c.is_ascii_digit())),
    ("(?i)timeout", |t| t.to_lowercase().contains("timeout")),
];

#[derive(Clone, Debug)]
enum E {
    /// `f op k`, `f` one of `a`, `b`.
    Cmp(usize, &'static str, i64),
    /// `a + b op k` or `a - b op k`.
    Arith(bool, &'static str, i64),
    /// `f in [..]`, `f not in [..]`: numbers, and texts of numbers.
    In(usize, bool, Vec<i64>, Vec<i64>),
    /// `s == "t"`, `s != "t"`.
    TextEq(bool, &'static str),
    /// `s contains/starts_with/ends_with "t"`.
    TextOp(&'static str, &'static str),
    /// `s matches /re/`: an index of `REGEXES`.
    Matches(usize),
    /// `s in [..]`, `s not in [..]`.
    TextIn(bool, Vec<&'static str>),
    /// `has(f)`.
    Has(usize),
    /// `f == null` (true) or `f != null`.
    Null(usize, bool),
    /// `c`, read as a Boolean.
    Flag,
    Not(Box<E>),
    And(Box<E>, Box<E>),
    Or(Box<E>, Box<E>),
}

fn text_of(e: &E) -> String {
    let list = |nums: &[i64], texts: &[i64]| {
        nums.iter()
            .map(|n| n.to_string())
            .chain(texts.iter().map(|n| format!("\"{n}\"")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match e {
        E::Cmp(f, op, k) => format!("{} {op} {k}", FIELDS[*f]),
        E::Arith(plus, op, k) => format!("a {} b {op} {k}", if *plus { "+" } else { "-" }),
        E::In(f, neg, nums, texts) => format!(
            "{} {}in [{}]",
            FIELDS[*f],
            if *neg { "not " } else { "" },
            list(nums, texts)
        ),
        E::TextEq(eq, t) => format!("s {} \"{t}\"", if *eq { "==" } else { "!=" }),
        E::TextOp(op, t) => format!("s {op} \"{t}\""),
        E::Matches(i) => format!("s matches /{}/", REGEXES[*i].0),
        E::TextIn(neg, ts) => format!(
            "s {}in [{}]",
            if *neg { "not " } else { "" },
            ts.iter()
                .map(|t| format!("'{t}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::Has(f) => format!("has({})", FIELDS[*f]),
        E::Null(f, eq) => format!("{} {} null", FIELDS[*f], if *eq { "==" } else { "!=" }),
        E::Flag => "c".into(),
        E::Not(x) => format!("!({})", text_of(x)),
        E::And(x, y) => format!("({}) && ({})", text_of(x), text_of(y)),
        E::Or(x, y) => format!("({}) || ({})", text_of(x), text_of(y)),
    }
}

/// The reference. `strict`: a missing field in an atom is an error, but
/// as the strict evaluation reads text, an empty CSV cell is the text ""
/// and a JSON `null` the text `null` (an absent JSON key is an error).
fn reference(e: &E, row: &[Val; 4], csv: bool, strict: bool) -> Result<bool, ()> {
    let missing = |f: usize| matches!(row[f], Val::Missing { .. });
    let num = |f: usize| match row[f] {
        Val::Int(i) => Ok(Some(i)),
        Val::Missing { .. } if strict => Err(()),
        Val::Missing { .. } => Ok(None),
        _ => unreachable!("a and b are numbers"),
    };
    let cmp = |x: i64, op: &str, y: i64| match op {
        "==" => x == y,
        "!=" => x != y,
        "<" => x < y,
        ">" => x > y,
        "<=" => x <= y,
        ">=" => x >= y,
        _ => unreachable!(),
    };
    // The text of `s` (None: NULL).
    let text = || -> Result<Option<String>, ()> {
        match row[2] {
            Val::Str(t) => Ok(Some(t.to_string())),
            Val::Missing { .. } if !strict => Ok(None),
            Val::Missing { .. } if csv => Ok(Some(String::new())),
            Val::Missing { absent: false } => Ok(Some("null".into())),
            Val::Missing { absent: true } => Err(()),
            _ => unreachable!("s is text"),
        }
    };
    let text_test = |t: &dyn Fn(&str) -> bool| Ok(text()?.is_some_and(|s| t(&s)));
    Ok(match e {
        E::Cmp(f, op, k) => num(*f)?.is_some_and(|x| cmp(x, op, *k)),
        E::Arith(plus, op, k) => match (num(0)?, num(1)?) {
            (Some(a), Some(b)) => cmp(if *plus { a + b } else { a - b }, op, *k),
            _ => false,
        },
        E::In(f, neg, nums, texts) => match row[*f] {
            // `in`: one equal; `not in`: all different.
            Val::Int(x) if !*neg => nums.contains(&x) || texts.contains(&x),
            Val::Int(x) => !nums.contains(&x) && !texts.contains(&x),
            Val::Missing { .. } if !strict => false,
            // Strict: a number is compared as `==` does, an error; the
            // strings of a list read the text "" or `null`, in no list.
            Val::Missing { absent } => {
                if !nums.is_empty() || (absent && !csv) {
                    return Err(());
                }
                *neg
            }
            _ => unreachable!("a and b are numbers"),
        },
        E::TextEq(eq, t) => text_test(&|s| (s == *t) == *eq)?,
        E::TextOp(op, t) => text_test(&|s| match *op {
            "contains" => s.contains(t),
            "starts_with" => s.starts_with(t),
            _ => s.ends_with(t),
        })?,
        E::Matches(i) => text_test(&|s| REGEXES[*i].1(s))?,
        E::TextIn(neg, ts) => text_test(&|s| ts.contains(&s) != *neg)?,
        E::Has(f) => !missing(*f),
        E::Null(f, eq) => missing(*f) == *eq,
        E::Flag => match row[3] {
            Val::Bool(b) => b,
            Val::Missing { .. } if strict => return Err(()),
            _ => false,
        },
        E::Not(x) => !reference(x, row, csv, strict)?,
        E::And(x, y) => reference(x, row, csv, strict)? && reference(y, row, csv, strict)?,
        E::Or(x, y) => reference(x, row, csv, strict)? || reference(y, row, csv, strict)?,
    })
}

fn val(f: usize) -> BoxedStrategy<Val> {
    let missing = any::<bool>().prop_map(|absent| Val::Missing { absent });
    match f {
        0 | 1 => prop_oneof![missing, (-3i64..=12).prop_map(Val::Int)].boxed(),
        2 => prop_oneof![missing, prop::sample::select(&TEXTS[..]).prop_map(Val::Str)].boxed(),
        _ => prop_oneof![missing, any::<bool>().prop_map(Val::Bool)].boxed(),
    }
}

fn row() -> impl Strategy<Value = [Val; 4]> {
    (val(0), val(1), val(2), val(3)).prop_map(|(a, b, s, c)| [a, b, s, c])
}

fn atom() -> impl Strategy<Value = E> {
    let op = prop::sample::select(&["==", "!=", "<", ">", "<=", ">="][..]);
    let small = prop::collection::vec(-3i64..=12, 0..3);
    let text = prop::sample::select(&TEXTS[..]);
    prop_oneof![
        (0usize..2, op.clone(), -3i64..=12).prop_map(|(f, op, k)| E::Cmp(f, op, k)),
        (any::<bool>(), op, -6i64..=24).prop_map(|(p, op, k)| E::Arith(p, op, k)),
        (0usize..2, any::<bool>(), small.clone(), small)
            .prop_filter("a list has an item", |(_, _, n, t)| !n.is_empty()
                || !t.is_empty())
            .prop_map(|(f, neg, n, t)| E::In(f, neg, n, t)),
        (any::<bool>(), text.clone()).prop_map(|(eq, t)| E::TextEq(eq, t)),
        (
            prop::sample::select(&["contains", "starts_with", "ends_with"][..]),
            prop::sample::select(&["time", "out", "api", "ERR", "5", "o", ""][..])
        )
            .prop_map(|(op, t)| E::TextOp(op, t)),
        (0..REGEXES.len()).prop_map(E::Matches),
        (any::<bool>(), prop::collection::vec(text, 1..3)).prop_map(|(n, ts)| E::TextIn(n, ts)),
        (0usize..4).prop_map(E::Has),
        (0usize..4, any::<bool>()).prop_map(|(f, eq)| E::Null(f, eq)),
        Just(E::Flag),
    ]
}

fn expr() -> impl Strategy<Value = E> {
    atom().prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|x| E::Not(Box::new(x))),
            (inner.clone(), inner.clone()).prop_map(|(x, y)| E::And(Box::new(x), Box::new(y))),
            (inner.clone(), inner).prop_map(|(x, y)| E::Or(Box::new(x), Box::new(y))),
        ]
    })
}

fn csv_text(row: &[Val; 4]) -> String {
    let cells: Vec<String> = row
        .iter()
        .map(|v| match v {
            Val::Missing { .. } => String::new(),
            Val::Int(i) => i.to_string(),
            Val::Str(s) => s.to_string(),
            Val::Bool(b) => b.to_string(),
        })
        .collect();
    format!("a,b,s,c\n{}\n", cells.join(","))
}

fn jsonl_text(row: &[Val; 4]) -> String {
    let mut object = serde_json::Map::new();
    for (f, v) in FIELDS.iter().zip(row) {
        let value = match v {
            Val::Missing { absent: true } => continue,
            Val::Missing { absent: false } => serde_json::Value::Null,
            Val::Int(i) => (*i).into(),
            Val::Str(s) => (*s).into(),
            Val::Bool(b) => (*b).into(),
        };
        object.insert(f.to_string(), value);
    }
    format!("{}\n", serde_json::Value::Object(object))
}

/// Whether `binding` holds at the one event of `reader`, by the checker
/// (`p`); the checker's error otherwise.
fn holds(reader: &mut dyn Reader, binding: &str, strict: bool) -> Result<bool, String> {
    let table = MonitorTable::from_ltl("p").map_err(|e| e.to_string())?;
    let p = Property::new(
        "p",
        table,
        vec![Expr::parse(binding).map_err(|e| e.to_string())?],
    );
    let options = Options {
        strict_fields: strict,
        ..Options::default()
    };
    let mut checker = Checker::new(vec![p], options);
    let reports = checker.run(reader).map_err(|e| e.to_string())?;
    Ok(reports[0].verdict != Verdict::Violated)
}

/// The checker's value of `binding` at the row, by the fast path and the
/// general one, which must agree.
fn checked(row: &[Val; 4], binding: &str, csv: bool, strict: bool) -> Result<bool, String> {
    let run = |b: &str| {
        if csv {
            let text = csv_text(row);
            let mut r = CsvReader::new("t.csv", text.as_bytes()).map_err(|e| e.to_string())?;
            holds(&mut r, b, strict)
        } else {
            let text = jsonl_text(row);
            holds(&mut JsonlReader::new("t.jsonl", text.as_bytes()), b, strict)
        }
    };
    let fast = run(binding);
    let general = run(&format!("({binding}) && true"));
    assert_eq!(
        fast.is_ok(),
        general.is_ok(),
        "{binding} at {row:?}: {fast:?} vs {general:?}"
    );
    if let (Ok(a), Ok(b)) = (&fast, &general) {
        assert_eq!(a, b, "{binding} at {row:?}: the two paths disagree");
    }
    fast
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn missing_fields_and_text_operators_agree_with_the_reference(
        e in expr(),
        rows in prop::collection::vec(row(), 1..4),
    ) {
        let binding = text_of(&e);
        for row in &rows {
            for csv in [true, false] {
                for strict in [false, true] {
                    let want = reference(&e, row, csv, strict);
                    let got = checked(row, &binding, csv, strict);
                    prop_assert_eq!(
                        want.is_ok(),
                        got.is_ok(),
                        "{} at {:?} (csv {}, strict {}): {:?}",
                        binding, row, csv, strict, got
                    );
                    if let (Ok(w), Ok(g)) = (want, &got) {
                        prop_assert_eq!(
                            w, *g,
                            "{} at {:?} (csv {}, strict {})", binding, row, csv, strict
                        );
                    }
                }
            }
        }
    }
}
