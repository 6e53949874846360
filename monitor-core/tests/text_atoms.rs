//! A field compared with strings (`event == "request"`, `"b" < name`,
//! `level in ["WARN", "ERROR"]`, `msg contains "x"`) is evaluated by the
//! checker from the field's text directly (issue 30's throughput goal).
//! That path must be the general evaluation's in every case: random cells
//! (CSV cells quoted or not, empty, blank, with commas, quotes and
//! Unicode; JSON strings written with escapes, `""`, `null`, numbers,
//! Booleans, arrays, objects, absent keys; VCD vectors and reals) and
//! random string tests, with and without `strict_fields`, give the same
//! value and the same error text by the fast path and by the general one
//! (`(e) && true`), and the value of a reference evaluator written here
//! from the README's rules (CSV and JSON Lines).

use monitor_core::trace::check::{Checker, Options, Property};
use monitor_core::trace::expr::Expr;
use monitor_core::trace::reader::{CsvReader, JsonlReader, Reader, VcdReader};
use monitor_core::{MonitorTable, Verdict};
use proptest::prelude::*;

/// Characters of random texts: ASCII letters of the words below, blanks,
/// the CSV and string syntax (`,`, `"`, `\`), digits and a point, and
/// characters of two and three bytes in UTF-8.
const CHARS: [char; 16] = [
    'r', 'e', 'q', 'a', ' ', '\t', ',', '"', '\\', '1', '0', '.', 'é', 'É', '日', 'z',
];

/// Whole words, near one another in order and in case.
const WORDS: [&str; 12] = [
    "request", "response", "Request", "requests", "req", " request", "request ", "1", "1.0",
    "true", "null", "日本",
];

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(&WORDS[..]).prop_map(str::to_string),
        prop::collection::vec(prop::sample::select(&CHARS[..]), 0..5)
            .prop_map(|cs| cs.into_iter().collect()),
    ]
}

/// A CSV cell: its text, and whether it is written in quotes even when it
/// needs none.
#[derive(Clone, Debug)]
struct CsvCell(String, bool);

/// A JSON field's value.
#[derive(Clone, Debug)]
enum Json {
    Absent,
    Null,
    /// A string, its characters written as `\u` escapes or not.
    Str(String, bool),
    /// A number, as written.
    Number(&'static str),
    Bool(bool),
    Array(String),
    Object(String),
}

/// A VCD variable (`wire N`, `real 64`) and its value at the event.
#[derive(Clone, Debug)]
struct Vcd(&'static str, &'static str);

fn csv_cell() -> impl Strategy<Value = CsvCell> {
    (text(), any::<bool>()).prop_map(|(t, q)| CsvCell(t, q))
}

fn json() -> impl Strategy<Value = Json> {
    prop_oneof![
        Just(Json::Absent),
        Just(Json::Null),
        (text(), any::<bool>()).prop_map(|(t, e)| Json::Str(t, e)),
        prop::sample::select(&["1", "1.0", "-0", "1e2", "12345678901234567890123", "0.5"][..])
            .prop_map(Json::Number),
        any::<bool>().prop_map(Json::Bool),
        text().prop_map(Json::Array),
        text().prop_map(Json::Object),
    ]
}

fn vcd() -> impl Strategy<Value = Vcd> {
    prop::sample::select(
        &[
            Vcd("wire 1", "b1"),
            Vcd("wire 1", "b0"),
            Vcd("wire 1", "bx"),
            Vcd("wire 3", "b101"),
            Vcd("wire 3", "b1"),
            Vcd("wire 3", "b0z1"),
            Vcd("real 64", "r1.5"),
            Vcd("real 64", "r1"),
        ][..],
    )
}

/// A string test of field `x`.
#[derive(Clone, Debug)]
enum Test {
    /// `x op "s"` (`field_first`) or `"s" op x`.
    Compare(&'static str, String, bool),
    /// `x in [..]`, `x not in [..]`.
    In(bool, Vec<String>),
    /// `x contains/starts_with/ends_with "s"`.
    Word(&'static str, String),
    /// `x matches /^s$/` for a string without regex syntax.
    Matches(String),
}

fn test() -> impl Strategy<Value = Test> {
    let op = prop::sample::select(&["==", "!=", "<", "<=", ">", ">=", "===", "!=="][..]);
    prop_oneof![
        (op, text(), any::<bool>()).prop_map(|(op, s, f)| Test::Compare(op, s, f)),
        (any::<bool>(), prop::collection::vec(text(), 1..4)).prop_map(|(n, xs)| Test::In(n, xs)),
        (
            prop::sample::select(&["contains", "starts_with", "ends_with"][..]),
            text()
        )
            .prop_map(|(w, s)| Test::Word(w, s)),
        prop::collection::vec(
            prop::sample::select(&['r', 'e', 'q', ' ', 'é', '1'][..]),
            0..4
        )
        .prop_map(|cs| Test::Matches(cs.into_iter().collect())),
    ]
}

/// A string literal of the expression language: `\` escapes the next
/// character.
fn literal(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn text_of(t: &Test) -> String {
    match t {
        Test::Compare(op, s, true) => format!("x {op} {}", literal(s)),
        Test::Compare(op, s, false) => format!("{} {op} x", literal(s)),
        Test::In(negated, xs) => format!(
            "x {}in [{}]",
            if *negated { "not " } else { "" },
            xs.iter().map(|s| literal(s)).collect::<Vec<_>>().join(", ")
        ),
        Test::Word(w, s) => format!("x {w} {}", literal(s)),
        Test::Matches(s) => format!("x matches /^{s}$/"),
    }
}

/// What the reference sees of a field: missing (NULL, but in strict mode
/// an absent field is an error and an empty cell or `null` its text), or
/// text.
enum Seen {
    Absent,
    /// Missing in lenient mode, this text in strict mode.
    Null(String),
    Text(String),
}

/// The reference, from the README: a missing field makes the atom false
/// (strict: an absent field is an error); otherwise the test of the text
/// (a CSV cell, a JSON string without its quotes, any other JSON value as
/// JSON writes it), strings ordered by their bytes.
fn reference(t: &Test, seen: &Seen, strict: bool) -> Result<bool, ()> {
    let x = match seen {
        Seen::Absent if strict => return Err(()),
        Seen::Absent => return Ok(false),
        Seen::Null(_) if !strict => return Ok(false),
        Seen::Null(x) | Seen::Text(x) => x.as_bytes(),
    };
    Ok(match t {
        Test::Compare(op, s, field_first) => {
            let (l, r) = if *field_first {
                (x, s.as_bytes())
            } else {
                (s.as_bytes(), x)
            };
            match *op {
                "==" | "===" => l == r,
                "!=" | "!==" => l != r,
                "<" => l < r,
                "<=" => l <= r,
                ">" => l > r,
                ">=" => l >= r,
                _ => unreachable!(),
            }
        }
        Test::In(false, xs) => xs.iter().any(|s| s.as_bytes() == x),
        Test::In(true, xs) => xs.iter().all(|s| s.as_bytes() != x),
        Test::Word("contains", s) => {
            x.windows(s.len().max(1)).any(|w| w == s.as_bytes()) || s.is_empty()
        }
        Test::Word("starts_with", s) => x.starts_with(s.as_bytes()),
        Test::Word(_, s) => x.ends_with(s.as_bytes()),
        Test::Matches(s) => x == s.as_bytes(),
    })
}

fn csv_log(c: &CsvCell) -> String {
    let CsvCell(t, quoted) = c;
    let cell = if *quoted || t.contains([',', '"']) {
        format!("\"{}\"", t.replace('"', "\"\""))
    } else {
        t.clone()
    };
    // A second column, so that an empty cell is no blank line.
    format!("k,x\n0,{cell}\n")
}

fn csv_seen(c: &CsvCell) -> Seen {
    if c.0.bytes().all(|b| b.is_ascii_whitespace()) {
        Seen::Null(c.0.clone())
    } else {
        Seen::Text(c.0.clone())
    }
}

fn json_log(j: &Json) -> String {
    let value = match j {
        Json::Absent => return "{\"k\": 0}\n".to_string(),
        Json::Null => "null".to_string(),
        Json::Str(t, false) => serde_json::Value::from(t.as_str()).to_string(),
        Json::Str(t, true) => {
            let mut out = String::from("\"");
            for unit in t.encode_utf16() {
                out.push_str(&format!("\\u{unit:04x}"));
            }
            out.push('"');
            out
        }
        Json::Number(n) => n.to_string(),
        Json::Bool(b) => b.to_string(),
        Json::Array(t) => format!("[{}]", serde_json::Value::from(t.as_str())),
        Json::Object(t) => format!("{{\"a\": {}}}", serde_json::Value::from(t.as_str())),
    };
    format!("{{\"k\": 0, \"x\": {value}}}\n")
}

fn json_seen(j: &Json) -> Seen {
    let quoted = |t: &str| serde_json::Value::from(t).to_string();
    match j {
        Json::Absent => Seen::Absent,
        Json::Null => Seen::Null("null".into()),
        Json::Str(t, _) => Seen::Text(t.clone()),
        Json::Number(n) => Seen::Text(n.to_string()),
        Json::Bool(b) => Seen::Text(b.to_string()),
        // JSON as serde_json writes it: compact.
        Json::Array(t) => Seen::Text(format!("[{}]", quoted(t))),
        Json::Object(t) => Seen::Text(format!("{{\"a\":{}}}", quoted(t))),
    }
}

fn vcd_log(v: &Vcd) -> String {
    format!(
        "$timescale 1ns $end\n$scope module t $end\n$var {} ! x $end\n$upscope $end\n\
         $enddefinitions $end\n#0\n{} !\n",
        v.0, v.1
    )
}

/// Whether `binding` holds at the one event of `reader` (the property
/// `p`); the checker's error text otherwise.
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
    let reports = Checker::new(vec![p], options)
        .run(reader)
        .map_err(|e| e.to_string())?;
    assert_eq!(reports[0].events, 1, "{binding}");
    Ok(reports[0].verdict != Verdict::Violated)
}

/// The value of `binding` on a log, by the fast path and by the general
/// one behind `&& true`, which must agree, errors word for word.
fn both(log: &str, format: &str, binding: &str, strict: bool) -> Result<bool, String> {
    let run = |b: &str| -> Result<bool, String> {
        match format {
            "csv" => {
                let mut r = CsvReader::new("t.csv", log.as_bytes()).map_err(|e| e.to_string())?;
                holds(&mut r, b, strict)
            }
            "jsonl" => holds(&mut JsonlReader::new("t.jsonl", log.as_bytes()), b, strict),
            _ => {
                let mut r =
                    VcdReader::new("t.vcd", log.as_bytes(), None).map_err(|e| e.to_string())?;
                holds(&mut r, b, strict)
            }
        }
    };
    let fast = run(binding);
    let general = run(&format!("({binding}) && true"));
    assert_eq!(fast, general, "{binding} on {log:?} (strict {strict})");
    fast
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn a_field_tested_against_strings_is_the_general_evaluation(
        t in test(),
        c in csv_cell(),
        j in json(),
        v in vcd(),
    ) {
        let binding = text_of(&t);
        for strict in [false, true] {
            let got = both(&csv_log(&c), "csv", &binding, strict);
            let want = reference(&t, &csv_seen(&c), strict);
            prop_assert_eq!(got.clone().ok(), want.ok(), "{} at CSV {:?} (strict {}): {:?}", binding, c, strict, got);
            let got = both(&json_log(&j), "jsonl", &binding, strict);
            let want = reference(&t, &json_seen(&j), strict);
            prop_assert_eq!(got.clone().ok(), want.ok(), "{} at JSON {:?} (strict {}): {:?}", binding, j, strict, got);
            // A waveform's vector is compared as its digits and is no
            // text to test: the general evaluation's, both ways.
            both(&vcd_log(&v), "vcd", &binding, strict).ok();
        }
    }
}

/// The cases most likely to differ, spelled out.
#[test]
fn edge_cases_of_text_atoms() {
    let csv = |cell: &str, b: &str, strict| both(&format!("k,x\n0,{cell}\n"), "csv", b, strict);
    let json = |value: &str, b: &str, strict| {
        both(
            &format!("{{\"k\": 0, \"x\": {value}}}\n"),
            "jsonl",
            b,
            strict,
        )
    };
    // An empty or blank cell is NULL, but text in strict mode.
    assert_eq!(csv("", "x != \"a\"", false), Ok(false));
    assert_eq!(csv(" ", "x != \"a\"", false), Ok(false));
    assert_eq!(csv("", "x != \"a\"", true), Ok(true));
    assert_eq!(csv("\"\"", "x == \"\"", true), Ok(true));
    assert_eq!(csv(" ", "x == \" \"", true), Ok(true));
    assert_eq!(csv("é", "x > \"z\"", false), Ok(true));
    // JSON: `""` is present; `null` is NULL, or the text `null`.
    assert_eq!(json("\"\"", "x == \"\"", false), Ok(true));
    assert_eq!(json("null", "x == \"null\"", false), Ok(false));
    assert_eq!(json("null", "x == \"null\"", true), Ok(true));
    assert_eq!(json("\"\\u0072eq\"", "x == \"req\"", false), Ok(true));
    assert_eq!(json("1.0", "x == \"1.0\"", false), Ok(true));
    assert_eq!(json("true", "x in [\"true\"]", false), Ok(true));
    assert_eq!(json("[1]", "x contains \"1\"", false), Ok(true));
    // An absent key: NULL, or an error naming the field.
    let absent = |b: &str, strict| both("{\"k\": 0}\n", "jsonl", b, strict);
    assert_eq!(absent("x == \"a\"", false), Ok(false));
    let e = absent("x == \"a\"", true).unwrap_err();
    assert!(e.contains("no field `x` in this event"), "{e}");
    // A vector is compared as its digits and is no text to test.
    let vcd = |v: &'static str, b: &str| both(&vcd_log(&Vcd("wire 3", v)), "vcd", b, false);
    assert_eq!(vcd("b101", "x == \"101\""), Ok(true));
    let e = vcd("b101", "x in [\"101\"]").unwrap_err();
    assert!(e.contains("not text"), "{e}");
}

/// The verdict of each property `G b` (one per binding, all checked
/// together, so that their atoms are bound together) on a log.
fn verdicts(
    log: &str,
    format: &str,
    bindings: &[String],
    strict: bool,
) -> Result<Vec<bool>, String> {
    let properties = bindings
        .iter()
        .map(|b| {
            let table = MonitorTable::from_ltl("G p").map_err(|e| e.to_string())?;
            let e = Expr::parse(b).map_err(|e| e.to_string())?;
            Ok(Property::new(b.as_str(), table, vec![e]))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let options = Options {
        strict_fields: strict,
        ..Options::default()
    };
    let mut checker = Checker::new(properties, options);
    let reports = match format {
        "csv" => {
            checker.run(&mut CsvReader::new("t.csv", log.as_bytes()).map_err(|e| e.to_string())?)
        }
        _ => checker.run(&mut JsonlReader::new("t.jsonl", log.as_bytes())),
    }
    .map_err(|e| e.to_string())?;
    Ok(reports
        .iter()
        .map(|r| r.verdict != Verdict::Violated)
        .collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// When every atom is an equality test of a field's text (`==`, `!=`
    /// and their case forms), the checker evaluates them all together,
    /// by field: several atoms on two fields, over several rows of random
    /// cells, give the verdicts of the general evaluation (`(b) && true`,
    /// each property alone), and the same error.
    #[test]
    fn equalities_of_several_fields_are_the_general_evaluation(
        tests in prop::collection::vec(
            (prop::sample::select(&["==", "!=", "===", "!=="][..]), prop::bool::ANY, text(), prop::bool::ANY),
            1..6,
        ),
        rows in prop::collection::vec((csv_cell(), json(), json()), 1..5),
        strict in prop::bool::ANY,
    ) {
        let bindings: Vec<String> = tests
            .iter()
            .map(|(op, on_x, s, first)| {
                let field = if *on_x { "x" } else { "y" };
                if *first {
                    format!("{field} {op} {}", literal(s))
                } else {
                    format!("{} {op} {field}", literal(s))
                }
            })
            .collect();
        let general: Vec<String> = bindings.iter().map(|b| format!("({b}) && true")).collect();
        let mut csv = String::from("k,x,y\n");
        let mut jsonl = String::new();
        for (i, (c, jx, jy)) in rows.iter().enumerate() {
            // The CSV row: the random cell in x, `request` or it in y.
            let cell = csv_log(c);
            let cell = cell.lines().nth(1).unwrap().strip_prefix("0,").unwrap().to_string();
            let y = if i % 2 == 0 { "request".to_string() } else { cell.clone() };
            csv.push_str(&format!("{i},{cell},{y}\n"));
            // The JSON row: x and y as the random values write them.
            let value = |j: &Json| {
                let line = json_log(j);
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                v.get("x").cloned()
            };
            let mut row = serde_json::Map::new();
            row.insert("k".into(), i.into());
            if let Some(v) = value(jx) {
                row.insert("x".into(), v);
            }
            if let Some(v) = value(jy) {
                row.insert("y".into(), v);
            }
            jsonl.push_str(&serde_json::Value::Object(row).to_string());
            jsonl.push('\n');
        }
        for (log, format) in [(&csv, "csv"), (&jsonl, "jsonl")] {
            let fast = verdicts(log, format, &bindings, strict);
            let slow = verdicts(log, format, &general, strict);
            // Each property alone, by the general evaluation.
            prop_assert_eq!(&fast, &slow, "{:?} on {:?} (strict {})", bindings, log, strict);
        }
    }
}
