//! `mongen check --by`: keyed checking of interleaved logs, against an
//! independent slicer that checks each key's events alone with the
//! ordinary `mongen check`.

mod common;
use common::mongen;

use std::path::{Path, PathBuf};
use std::process::Output;

use monitor_core::formula::random::{RandomLtl, SplitMix64};
use serde_json::Value;

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mongen-keyed-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn file(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

/// Keys that need care: Unicode, CSV quoting (commas, quotes, line
/// breaks), JSON escapes, spaces.
const KEYS: &[&str] = &[
    "s1",
    "s2",
    "ä☃",
    "a,b",
    "q\"uote",
    "new\nline",
    " sp ",
    "7",
    "\\x",
];

/// A row: its key (`None`: missing) and its letter of `a`, `b`, `c`.
type Row = (Option<&'static str>, u64);

/// The rows as CSV or JSON Lines, and the line each row starts on.
fn write(rows: &[&Row], csv: bool) -> (String, Vec<u64>) {
    let mut out = String::new();
    let mut lines = Vec::new();
    let mut line = 1;
    if csv {
        out.push_str("a,b,session,c\n");
        line += 1;
    }
    for (i, (key, l)) in rows.iter().enumerate() {
        lines.push(line);
        let (a, b, c) = (l & 1, (l >> 1) & 1, (l >> 2) & 1);
        let row = if csv {
            let k = key.map_or(String::new(), |k| {
                if k.contains([',', '"', '\n', ' ']) {
                    format!("\"{}\"", k.replace('"', "\"\""))
                } else {
                    k.to_string()
                }
            });
            format!("{a},{b},{k},{c}\n")
        } else {
            let k = match key {
                Some(k) => format!("\"session\": {}, ", Value::from(*k)),
                None if i % 2 == 0 => String::new(),
                None => "\"session\": null, ".into(),
            };
            format!(
                "{{\"a\": {a}, \"id\": {{{k}\"x\": 0}}, \"b\": {b}, \"c\": {}}}\n",
                c == 1
            )
        };
        line += row.matches('\n').count() as u64;
        out.push_str(&row);
    }
    (out, lines)
}

/// Per (key, property): the violations' lines, each with its events'
/// lines; and per property how many keys satisfied it.
type Outcome = (Vec<(String, usize, u64, Vec<Vec<u64>>)>, Vec<u64>);

fn lines_of(v: &Value) -> Vec<u64> {
    let mut ls = vec![v["line"].as_u64().unwrap()];
    ls.extend(
        v["recent"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["line"].as_u64().unwrap()),
    );
    ls
}

fn json_lines(o: &Output) -> Vec<Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The reference: each key's slice (with `broadcast`, every row without a
/// key too) written to its own file and checked by `mongen check`.
fn brute_force(dir: &Path, rows: &[Row], csv: bool, common: &[&str], broadcast: bool) -> Outcome {
    let mut keys: Vec<&str> = Vec::new();
    for k in rows.iter().filter_map(|r| r.0) {
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let (_, all_lines) = write(&rows.iter().collect::<Vec<_>>(), csv);
    let mut out = Vec::new();
    let mut satisfied = Vec::new();
    for key in keys {
        let picked: Vec<usize> = (0..rows.len())
            .filter(|&i| rows[i].0 == Some(key) || (rows[i].0.is_none() && broadcast))
            .collect();
        let slice: Vec<&Row> = picked.iter().map(|&i| &rows[i]).collect();
        let (contents, lines) = write(&slice, csv);
        let path = file(
            dir,
            if csv { "slice.csv" } else { "slice.jsonl" },
            &contents,
        );
        let back = |l: u64| all_lines[picked[lines.iter().position(|&x| x == l).unwrap()]];
        let mut args = common.to_vec();
        args.extend(["--json", &path]);
        let o = mongen(&args);
        assert!(matches!(o.status.code(), Some(0 | 1)), "{}", text(&o));
        for (p, r) in json_lines(&o).iter().enumerate() {
            satisfied.resize(satisfied.len().max(p + 1), 0);
            if !r["satisfied_at"].is_null() {
                satisfied[p] += 1;
            }
            let count = r["violation_count"].as_u64().unwrap();
            if count > 0 {
                let explained = r["violations"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| lines_of(v).into_iter().map(back).collect())
                    .collect();
                out.push((key.to_string(), p, count, explained));
            }
        }
    }
    out.sort();
    (out, satisfied)
}

fn keyed(reports: &[Value]) -> Outcome {
    let mut out = Vec::new();
    let mut satisfied = Vec::new();
    for (p, r) in reports.iter().enumerate() {
        satisfied.push(r["keys_satisfied"].as_u64().unwrap());
        for v in r["violations"].as_array().unwrap() {
            let key = v["key"]
                .as_object()
                .unwrap()
                .values()
                .next()
                .unwrap()
                .as_str()
                .unwrap()
                .to_string();
            let explained = v["violations"]
                .as_array()
                .unwrap()
                .iter()
                .map(lines_of)
                .collect();
            out.push((key, p, v["violation_count"].as_u64().unwrap(), explained));
        }
    }
    out.sort();
    (out, satisfied)
}

/// The done-when of issue 30: `--by` reports what checking each key's
/// events alone reports, on random interleavings of random properties,
/// with rows without a key in every `--unkeyed` mode, in CSV and JSON
/// Lines, with keys that need quoting and escaping.
#[test]
fn by_equals_each_key_checked_alone() {
    let dir = scratch("oracle");
    let mut rng = SplitMix64::new(3030);
    let mut r#gen = RandomLtl::new(&["a", "b", "c"], 8).seed(3030).with_past();
    let (mut violations, mut errors, mut piped_checked) = (0, 0, 0);
    for round in 0..60u64 {
        let formulas: Vec<String> = (0..1 + round % 3)
            .map(|_| r#gen.next_formula().to_spot())
            .collect();
        let nkeys = 1 + (rng.next_u64() % KEYS.len() as u64) as usize;
        let missing_rate = rng.next_u64() % 3;
        let rows: Vec<Row> = (0..5 + rng.next_u64() % 40)
            .map(|_| {
                let r = rng.next_u64();
                let key = (r % 10 >= missing_rate).then(|| KEYS[(r >> 8) as usize % nkeys]);
                (key, (r >> 16) & 7)
            })
            .collect();
        let csv = round % 3 != 2;
        let (contents, lines) = write(&rows.iter().collect::<Vec<_>>(), csv);
        let trace = file(&dir, if csv { "t.csv" } else { "t.jsonl" }, &contents);
        let mut common: Vec<&str> = vec!["check", "--max-reports", "1000", "-q"];
        for f in &formulas {
            common.extend(["-f", f]);
        }
        if round % 2 == 0 {
            common.push("--all");
        }
        if round % 5 == 1 {
            common.extend(["--verdicts", "3"]);
        }
        let unkeyed = ["error", "broadcast", "skip"][(round / 2 % 3) as usize];
        let mut args = common.clone();
        args.extend([
            "--by",
            if csv { "session" } else { "id.session" },
            "--unkeyed",
            unkeyed,
            "--json",
            &trace,
        ]);
        let o = mongen(&args);
        let ctx = format!("{args:?} on\n{contents}\n{}", text(&o));
        let first_missing = rows.iter().position(|r| r.0.is_none());
        let (rows_checked, want_code) = match (unkeyed, first_missing) {
            ("error", Some(m)) => {
                errors += 1;
                let err = String::from_utf8_lossy(&o.stderr);
                assert!(err.contains(&format!("line {}: ", lines[m])), "{ctx}");
                assert!(err.contains("session"), "{ctx}");
                (&rows[..m], Some(2))
            }
            _ => (&rows[..], None),
        };
        let want = brute_force(&dir, rows_checked, csv, &common, unkeyed == "broadcast");
        violations += want.0.len();
        let code = want_code.unwrap_or(if want.0.is_empty() { 0 } else { 1 });
        assert_eq!(o.status.code(), Some(code), "{ctx}");
        let reports = json_lines(&o);
        if reports.is_empty() {
            // An error before the first event: nothing was checked.
            assert!(want.0.is_empty(), "{ctx}");
            continue;
        }
        let mut got = keyed(&reports);
        // A key that never violated has no slice run to count it
        // satisfied if it was never seen: the brute force has as many
        // entries as properties only when some key was seen.
        if want.1.is_empty() {
            got.1.clear();
        }
        assert_eq!(got, want, "{ctx}");
        // One pass (-j 1) and three threads report the same, errors
        // included.
        if round % 2 == 1 {
            for jobs in ["1", "3"] {
                let mut j = args.clone();
                j.splice(1..1, ["-j", jobs]);
                let p = mongen(&j);
                assert_eq!(p.status.code(), o.status.code(), "-j {jobs}: {ctx}");
                assert_eq!(text(&p), text(&o), "-j {jobs}: {ctx}");
            }
        }
        // The same trace on standard input (read once, each key keeping
        // its last events) gives the report of the file (read again to
        // explain): the same keys, counts and explanations.
        if round % 3 == 0 {
            let mut piped = args.clone();
            piped.pop();
            piped.extend(["--format", if csv { "csv" } else { "jsonl" }, "-"]);
            let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mongen"))
                .args(&piped)
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            use std::io::Write as _;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(contents.as_bytes())
                .unwrap();
            let p = child.wait_with_output().unwrap();
            assert_eq!(p.status.code(), o.status.code(), "{ctx}\n{}", text(&p));
            let strip = |o: &Output| -> Vec<Value> {
                json_lines(o)
                    .into_iter()
                    .map(|mut r| {
                        r.as_object_mut().unwrap().remove("trace");
                        r
                    })
                    .collect()
            };
            assert_eq!(strip(&p), strip(&o), "standard input: {ctx}");
            piped_checked += 1;
        }
    }
    assert!(piped_checked > 10, "{piped_checked}");
    assert!(
        violations > 40 && errors > 5,
        "{violations} violations, {errors} errors"
    );
}

/// `--by --lazy` (one lazy monitor per property, its cache shared by the
/// keys, here emptied as often as it may be) reports what checking each
/// key's events alone with `--lazy` reports: the same violations, counts,
/// explanations (the lazy monitor's) and keys satisfied.
#[test]
fn lazy_by_equals_each_key_checked_alone_lazily() {
    let dir = scratch("lazy-oracle");
    let mut rng = SplitMix64::new(3031);
    let mut violations = 0;
    let mut round = 0u64;
    while round < 30 {
        // Formulas of the lazy monitors' fragment (syntactic safety).
        let formulas: Vec<String> = (0..1 + round % 2)
            .map(|_| {
                RandomLtl::new(&["a", "b", "c"], 6)
                    .with_past()
                    .weight(monitor_core::formula::Op::F, 0)
                    .weight(monitor_core::formula::Op::U, 0)
                    .weight(monitor_core::formula::Op::M, 0)
                    .weight(monitor_core::formula::Op::Equiv, 0)
                    .weight(monitor_core::formula::Op::Xor, 0)
                    .weight(monitor_core::formula::Op::G, 2)
                    .seed(rng.next_u64())
                    .next_formula()
                    .to_spot()
            })
            .collect();
        let nkeys = 1 + (rng.next_u64() % KEYS.len() as u64) as usize;
        let rows: Vec<Row> = (0..5 + rng.next_u64() % 40)
            .map(|_| {
                let r = rng.next_u64();
                (Some(KEYS[(r >> 8) as usize % nkeys]), (r >> 16) & 7)
            })
            .collect();
        let csv = round % 3 != 2;
        let (contents, _) = write(&rows.iter().collect::<Vec<_>>(), csv);
        let trace = file(&dir, if csv { "t.csv" } else { "t.jsonl" }, &contents);
        let mut common: Vec<&str> = vec![
            "check",
            "--lazy",
            "--lazy-cache",
            "0",
            "--max-reports",
            "1000",
            "-q",
        ];
        for f in &formulas {
            common.extend(["-f", f]);
        }
        if round % 2 == 0 {
            common.push("--all");
        }
        if round % 4 == 1 {
            common.extend(["--verdicts", "3"]);
        }
        let mut args = common.clone();
        args.extend([
            "--by",
            if csv { "session" } else { "id.session" },
            "--json",
            &trace,
        ]);
        let o = mongen(&args);
        if text(&o).contains("lazy monitors take syntactic safety formulas") {
            continue;
        }
        let ctx = format!("{args:?} on\n{contents}\n{}", text(&o));
        assert!(matches!(o.status.code(), Some(0 | 1)), "{ctx}");
        let want = brute_force(&dir, &rows, csv, &common, false);
        let mut got = keyed(&json_lines(&o));
        if want.1.is_empty() {
            got.1.clear();
        }
        assert_eq!(got, want, "{ctx}");
        for r in json_lines(&o) {
            assert!(r["lazy"]["cache_clears"].as_u64().unwrap() > 0, "{ctx}");
            assert!(r["inexact_at"].is_null(), "{ctx}");
        }
        violations += want.0.len();
        round += 1;
    }
    assert!(violations > 20, "{violations} violations");
}

/// The text report names each key (quoted when it needs it), the line of
/// its violation, an explanation from the key's own events, the summary
/// of keys; --json gives the key as an object.
#[test]
fn reports_name_the_keys() {
    let dir = scratch("reports");
    let log = "session,event\n\
               s1,login\n\
               \"Ann, Lee\",login\n\
               s1,request\n\
               \"Ann, Lee\",request\n\
               s1,logout\n\
               \"Ann, Lee\",logout\n\
               \"Ann, Lee\",request\n\
               s1,request\n";
    let trace = file(&dir, "service.csv", log);
    let args = [
        "check",
        "-f",
        "G(logout -> G !request)",
        "--define",
        "logout=event == \"logout\"",
        "--define",
        "request=event == \"request\"",
        "--by",
        "session",
    ];
    let mut a = args.to_vec();
    a.push(&trace);
    let o = mongen(&a);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "`G(logout -> G!request)`: violated by 2 of 2 keys (by session); 8 events read"
        ),
        "{out}"
    );
    assert!(
        out.contains("  session=\"Ann, Lee\": violated at line 8 (event 6)"),
        "{out}"
    );
    assert!(
        out.contains("  session=s1: violated at line 9 (event 7)"),
        "{out}"
    );
    // Ann's explanation shows Ann's events (lines 3, 5, 7, 8), not s1's.
    let ann = &out[out.find("session=\"Ann").unwrap()..out.find("session=s1:").unwrap()];
    for l in ["line 3:", "line 5:", "line 7:", "line 8:"] {
        assert!(ann.contains(l), "{out}");
    }
    for l in ["line 2:", "line 4:", "line 6:"] {
        assert!(!ann.contains(l), "{out}");
    }
    assert!(
        out.contains("service.csv: 2 keys (by session); 1 of 1 property violated"),
        "{out}"
    );

    let mut a = args.to_vec();
    a.extend(["--json", &trace]);
    let o = mongen(&a);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(r["keys"], 2);
    assert_eq!(r["keys_violated"], 2);
    assert_eq!(
        r["violations"][0]["key"],
        serde_json::json!({"session": "Ann, Lee"})
    );
    assert_eq!(r["violations"][0]["first"]["line"], 8);

    // --all counts per key, and names the top violators.
    let log = "k,bad\na,1\nb,1\na,1\nc,0\na,1\nb,1\n";
    let trace = file(&dir, "bad.csv", log);
    let o = mongen(&["check", "-f", "G !bad", "--by", "k", "--all", &trace]);
    let out = text(&o);
    assert!(
        out.contains("violated by 2 of 3 keys (by k), 5 violations in all"),
        "{out}"
    );
    assert!(
        out.contains("  k=a: violated at line 2 (event 0), 3 violations"),
        "{out}"
    );
    assert!(out.contains("  top violators: k=a (3), k=b (2)"), "{out}");
}

/// Rows without a key: an error naming the line by default; broadcast or
/// skipped on request; and what --by refuses.
#[test]
fn rows_without_a_key_and_refusals() {
    let dir = scratch("unkeyed");
    let trace = file(
        &dir,
        "t.jsonl",
        "{\"u\": {\"id\": 1}, \"e\": false}\n{\"e\": true}\n{\"u\": {\"id\": 2}, \"e\": false}\n",
    );
    let base = ["check", "-f", "G !e", "--by", "u.id"];
    let run = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        a.push(&trace);
        mongen(&a)
    };
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o)
            .contains("line 2: no key field `u.id` (--by) in this event: every row needs a key"),
        "{}",
        text(&o)
    );
    // Broadcast: key 1 sees it at once, key 2 (seen later) replays it.
    let o = run(&["--unkeyed", "broadcast"]);
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("u.id=1: violated at line 2"), "{out}");
    assert!(out.contains("u.id=2: violated at line 2"), "{out}");
    assert!(
        out.contains("1 row without a key sent to every key"),
        "{out}"
    );
    let o = run(&["--unkeyed", "skip"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("holds for 2 keys (by u.id)"),
        "{}",
        text(&o)
    );

    let o = mongen(&["check", "-f", "G !e", "--unkeyed", "skip", &trace]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let csv = file(&dir, "t.csv", "e\n0\n");
    let o = mongen(&["check", "-f", "G !e", "--by", "nope", &csv]);
    assert!(text(&o).contains("--by nope: "), "{}", text(&o));
    // A JSON path names no field in every row.
    let o = mongen(&["check", "-f", "G !e", "--by", "nope", &trace]);
    assert!(
        text(&o).contains("line 1: no key field `nope`"),
        "{}",
        text(&o)
    );
    // With a lazy monitor: the same report.
    let o = mongen(&[
        "check",
        "-f",
        "G !e",
        "--by",
        "u.id",
        "--unkeyed",
        "skip",
        "--lazy",
        &trace,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("holds for 2 keys (by u.id)"),
        "{}",
        text(&o)
    );
    let vcd = file(
        &dir,
        "t.vcd",
        "$var wire 1 ! e $end\n$enddefinitions $end\n#0\n0!\n",
    );
    let o = mongen(&["check", "-f", "G !e", "--by", "e", &vcd]);
    assert!(
        text(&o).contains("--by is for CSV and JSON Lines"),
        "{}",
        text(&o)
    );
}

/// --end-key closes a key (its next row starts anew); --key-limit bounds
/// the live keys with an error naming the limit.
#[test]
fn end_key_and_key_limit() {
    let dir = scratch("limits");
    let log = "s,event\n\
               a,login\n\
               a,logout\n\
               b,login\n\
               a,request\n";
    let trace = file(&dir, "t.csv", log);
    let base = [
        "check",
        "-f",
        "!request",
        "--define",
        "request=event == \"request\"",
        "--by",
        "s",
    ];
    let run = |extra: &[&str]| {
        let mut a = base.to_vec();
        a.extend(extra);
        a.push(&trace);
        mongen(&a)
    };
    // Without --end-key, a's slice starts with its login: `!request` holds.
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // With it, line 5 starts a new session a, which begins with a request.
    let o = run(&["--end-key", "event == \"logout\""]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("  s=a: violated at line 5"),
        "{}",
        text(&o)
    );
    assert!(text(&o).contains("t.csv: 3 keys (by s)"), "{}", text(&o));
    // `!request` is decided at each key's first event: no key stays live.
    let o = run(&["--key-limit", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let trace2 = file(&dir, "t2.csv", "s,request\na,0\nb,0\nc,0\n");
    let o = mongen(&[
        "check",
        "-f",
        "G !request",
        "--by",
        "s",
        "--key-limit",
        "2",
        &trace2,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("line 4: a new key, and 2 keys are live already (--key-limit 2)"),
        "{}",
        text(&o)
    );
    let o = run(&["--end-key", "event =="]);
    assert!(text(&o).contains("--end-key event ==: "), "{}", text(&o));
}
