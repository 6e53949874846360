//! `mongen check` on service logs: the fields shown with violations
//! (`--show`), checked against the lines of the file they name.

mod common;
use common::{mongen, scratch, text};

use std::path::Path;

use serde_json::Value;

/// A log of `n` rows (`ts,id,session,a`), `a` set on pairs of rows now and
/// then (which violates `G(a -> X !a)`), in CSV and in JSON Lines (where
/// the id is at `req.id`, and absent from every third row).
fn service_log(n: usize) -> (String, String) {
    let mut csv = String::from("ts,id,session,a\n");
    let mut jsonl = String::new();
    for i in 0..n {
        let a = u8::from(i % 997 < 2 || i % 1409 == 5);
        let (ts, id, session) = (
            format!("T{i:07}"),
            format!("r{}", i * 7),
            format!("s{}", i % 13),
        );
        csv.push_str(&format!("{ts},{id},{session},{a}\n"));
        let req = if i % 3 == 0 {
            String::new()
        } else {
            format!(", \"req\": {{\"id\": \"{id}\"}}")
        };
        jsonl.push_str(&format!(
            "{{\"ts\": \"{ts}\", \"session\": \"{session}\", \"a\": {a}{req}}}\n"
        ));
    }
    (csv, jsonl)
}

/// The line `line` (from 1) of `text`.
fn line_of(text: &str, line: u64) -> &str {
    text.lines()
        .nth(line as usize - 1)
        .expect("a line of the file")
}

/// Checks every explanation line of a text report (`    line N: ...
/// [ts=..., id=...]`) against line N of the CSV log; returns how many.
fn check_text_lines(report: &str, csv: &str) -> usize {
    let mut checked = 0;
    for l in report.lines() {
        let Some(rest) = l.trim_start().strip_prefix("line ") else {
            continue;
        };
        let (n, rest) = rest.split_once(':').expect("line N:");
        let n: u64 = n.parse().unwrap();
        let shown = rest
            .split_once("  [")
            .and_then(|(_, s)| s.split_once(']'))
            .unwrap_or_else(|| panic!("no shown fields: {l}"))
            .0;
        let cells: Vec<&str> = line_of(csv, n).split(',').collect();
        assert_eq!(shown, format!("ts={}, id={}", cells[0], cells[1]), "{l}");
        checked += 1;
    }
    checked
}

fn write(dir: &Path, name: &str, contents: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}

/// The fields shown at each event of each explanation are those of its
/// line, on one core and on two (the log cut in chunks, whose last events
/// carry their fields to the explanations of the next chunk), in text and
/// in JSON, with and without --by.
#[test]
fn shown_fields_are_those_of_each_events_line() {
    let dir = scratch("logs-show");
    // About 2 MB: several chunks of 1 MiB.
    let (csv, jsonl) = service_log(80_000);
    let csv_path = write(&dir, "log.csv", &csv);
    let jsonl_path = write(&dir, "log.jsonl", &jsonl);
    let p = ["-f", "G(a -> X !a)", "--all", "--max-reports", "1000"];
    let run = |extra: &[&str], file: &str| {
        let mut args = vec!["check"];
        args.extend_from_slice(&p);
        args.extend_from_slice(extra);
        args.push(file);
        let o = mongen(&args);
        assert_eq!(o.status.code(), Some(1), "{}", text(&o));
        String::from_utf8(o.stdout).unwrap()
    };
    let one = run(&["-j", "1", "--show", "ts,id"], &csv_path);
    let two = run(&["-j", "2", "--show", "ts", "--show", "id"], &csv_path);
    assert_eq!(one, two, "one core and two");
    let checked = check_text_lines(&one, &csv);
    assert!(checked > 200, "{checked} lines checked:\n{one}");
    // The same fields without --show: the same report, less the fields.
    let plain = run(&["-j", "2"], &csv_path);
    let stripped: String = one
        .lines()
        .map(|l| match l.split_once("  [") {
            Some((head, tail)) => {
                let mark = tail.split_once(']').unwrap().1;
                format!("{head}{mark}\n")
            }
            None => format!("{l}\n"),
        })
        .collect();
    assert_eq!(stripped, plain);

    // JSON Lines, in JSON: `shown` at the violation (its own line) and at
    // each recent event; `req.id` null where it is absent.
    for jobs in ["1", "2"] {
        let out = run(&["--json", "-j", jobs, "--show", "ts,req.id"], &jsonl_path);
        let r: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        let violations = r["violations"].as_array().unwrap();
        assert!(violations.len() > 60, "{}", violations.len());
        let mut absent = 0;
        for v in violations {
            let events = v["recent"].as_array().unwrap();
            assert_eq!(v["shown"], events.last().unwrap()["shown"]);
            for e in events {
                let row: Value =
                    serde_json::from_str(line_of(&jsonl, e["line"].as_u64().unwrap())).unwrap();
                let id = row.get("req").map_or(Value::Null, |r| r["id"].clone());
                absent += usize::from(id.is_null());
                assert_eq!(
                    e["shown"],
                    serde_json::json!({"ts": row["ts"], "req.id": id})
                );
            }
        }
        assert!(absent > 50, "{absent}");
    }

    // --by: a key's explanation shows its own events, with their fields.
    let o = mongen(&[
        "check",
        "-f",
        "G !a",
        "--all",
        "--max-reports",
        "1000",
        "--by",
        "session",
        "--show",
        "ts,id,session",
        &csv_path,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let mut lines = 0;
    let mut key = String::new();
    for l in out.lines() {
        if let Some(k) = l.strip_prefix("  session=") {
            key = k.split_once(':').unwrap().0.to_string();
        }
        let Some(rest) = l.trim_start().strip_prefix("line ") else {
            continue;
        };
        let n: u64 = rest.split_once(':').unwrap().0.parse().unwrap();
        let cells: Vec<&str> = line_of(&csv, n).split(',').collect();
        assert!(
            l.contains(&format!(
                "[ts={}, id={}, session={key}]",
                cells[0], cells[1]
            )),
            "{l} (line {n}: {cells:?})"
        );
        assert_eq!(cells[2], key, "{l}");
        lines += 1;
    }
    assert!(lines > 500, "{lines}: {out}");
}

/// A field the trace has not is an error that names it (a misspelt
/// column); in a VCD waveform, a signal's value at each cycle is shown.
#[test]
fn shown_fields_of_csv_columns_and_vcd_signals() {
    let dir = scratch("logs-show-vcd");
    let csv = write(&dir, "log.csv", "ts,a\n1,0\n2,1\n");
    let o = mongen(&["check", "-f", "G !a", "--show", "ts,tz", &csv]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--show tz: no column `tz` (the columns are: ts, a)"),
        "{}",
        text(&o)
    );
    let o = mongen(&["check", "-f", "G !a", "--show", "", &csv]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--show ``: a field has a name"),
        "{}",
        text(&o)
    );
    let vcd = write(
        &dir,
        "t.vcd",
        "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! clk $end\n\
         $var wire 1 \" b $end\n$var wire 4 $ count $end\n$upscope $end\n$enddefinitions $end\n\
         #0\n0!\n0\"\nb0000 $\n#5\n1!\n#10\n0!\nb0011 $\n#12\n1\"\n#15\n1!\n#20\n0!\nb1x01 $\n#25\n1!\n",
    );
    let o = mongen(&[
        "check", "-f", "G !b", "--clock", "clk", "--show", "count", &vcd,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let t = text(&o);
    // Sampled at each rising edge, with the values just before it.
    assert!(
        t.contains("time 5 (cycle 0): (no proposition holds)  [count=0000]"),
        "{t}"
    );
    assert!(
        t.contains("time 15 (cycle 1): b  [count=0011]  <- violation"),
        "{t}"
    );
    let o = mongen(&[
        "check", "-f", "G !b", "--clock", "clk", "--show", "cnt", &vcd,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--show cnt: no signal `cnt`"),
        "{}",
        text(&o)
    );
}

/// `--summary` writes, per trace and property, the first line of its
/// report (the counts) and nothing else; in JSON, the report's object
/// without `violations` (and `top`), with the first violation's position;
/// the exit status is that of the full report.
#[test]
fn a_summary_is_each_reports_counts() {
    let dir = scratch("logs-summary");
    let (csv, jsonl) = service_log(20_000);
    let quiet: String = csv.replace(",1\n", ",0\n");
    let files = [
        write(&dir, "a.csv", &csv),
        write(&dir, "b.jsonl", &jsonl),
        write(&dir, "quiet.csv", &quiet),
    ];
    let props = ["-f", "G(a -> X !a)", "-f", "G !a", "--show", "ts"];
    for (mode, key_lines) in [
        (&[][..], false),
        (&["--all"][..], false),
        (&["--all", "--by", "session"][..], true),
    ] {
        let run = |extra: &[&str], files: &[String]| {
            let mut args = vec!["check"];
            args.extend_from_slice(&props);
            args.extend_from_slice(mode);
            args.extend_from_slice(extra);
            args.extend(files.iter().map(String::as_str));
            mongen(&args)
        };
        let full = run(&[], &files);
        let summary = run(&["--summary"], &files);
        assert_eq!(full.status.code(), Some(1), "{}", text(&full));
        assert_eq!(summary.status.code(), Some(1), "{}", text(&summary));
        let full_text = String::from_utf8(full.stdout).unwrap();
        let summary_text = String::from_utf8(summary.stdout).unwrap();
        // Each trace's property lines: those that start with the trace's
        // name and a property (a keyed report's last line has no property).
        let firsts: Vec<&str> = full_text
            .lines()
            .filter(|l| files.iter().any(|f| l.starts_with(&format!("{f}: `"))))
            .collect();
        assert_eq!(firsts.len(), 6, "{full_text}");
        // Then, over several traces, a total per property.
        let (per_trace, totals): (Vec<&str>, Vec<&str>) = summary_text
            .lines()
            .partition(|l| !l.starts_with("total: "));
        assert_eq!(per_trace, firsts, "{mode:?}");
        assert_eq!(totals.len(), 2, "{summary_text}");
        assert!(
            totals[1].starts_with("total: `G!a`: violated in 2 of 3 traces"),
            "{summary_text}"
        );
        if key_lines {
            assert!(summary_text.contains("violated by "), "{summary_text}");
        }
        // Only the quiet file: every property holds, status 0 (one trace:
        // no total).
        let o = run(&["--summary"], &files[2..]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 2);
        let quiet = [files[2].clone(), files[2].clone()];
        let o = run(&["--summary"], &quiet);
        let t = String::from_utf8(o.stdout).unwrap();
        assert!(
            t.contains("total: `G!a`: holds on 2 traces")
                && t.contains("(40000 events read, no violation)"),
            "{t}"
        );

        let full = run(&["--json"], &files);
        let summary = run(&["--json", "--summary"], &files);
        assert_eq!(summary.status.code(), Some(1), "{}", text(&summary));
        let objects = |o: &std::process::Output| -> Vec<Value> {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect()
        };
        let (full, mut summary) = (objects(&full), objects(&summary));
        assert_eq!(full.len(), 6);
        // The totals: the sums of the traces' counts, per property.
        let totals = summary.split_off(6);
        assert_eq!(totals.len(), 2, "{totals:?}");
        for (p, total) in totals.iter().enumerate() {
            let of: Vec<&Value> = full.iter().skip(p).step_by(2).collect();
            let sum = |field: &str| of.iter().map(|o| o[field].as_u64().unwrap()).sum::<u64>();
            let violated = of.iter().filter(|o| o["verdict"] == "violated").count() as u64;
            assert_eq!(total["trace"], Value::Null);
            assert_eq!(total["property"], of[0]["property"]);
            assert_eq!(total["traces"], 3);
            assert_eq!(total["traces_violated"], violated, "{total}");
            assert_eq!(total["events"], sum("events"), "{total}");
            assert_eq!(total["violation_count"], sum("violation_count"), "{total}");
            if key_lines {
                assert_eq!(total["keys"], sum("keys"), "{total}");
                assert_eq!(total["keys_violated"], sum("keys_violated"), "{total}");
            }
        }
        for (mut f, s) in full.into_iter().zip(summary) {
            let o = f.as_object_mut().unwrap();
            let violations = o.remove("violations").unwrap();
            if key_lines {
                o.remove("top");
            } else {
                let first = violations.get(0).map_or(Value::Null, |v| {
                    serde_json::json!({"index": v["index"], "line": v["line"], "time": v["time"]})
                });
                o.insert("first_violation".into(), first);
            }
            assert_eq!(f, s, "{mode:?}");
        }
    }
    // A trace that cannot be read: the error, the others summarized,
    // status 2.
    let bad = write(
        &dir,
        "bad.csv",
        "ts,id,session,a\nT1,r1,s1,0\nT2,r2,s1,maybe\n",
    );
    let o = mongen(&["check", "--summary", "-f", "G !a", &bad, &files[2]]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("bad.csv: `G!a`: holds (1 event read before the error, no violation)"),
        "{t}"
    );
    assert!(
        t.contains("quiet.csv: `G!a`: holds (20000 events read, no violation)"),
        "{t}"
    );
    assert!(t.contains("bad.csv, line 3: `a`: "), "{t}");
    assert!(
        t.contains("total: `G!a`: holds on 2 traces (20001 events read, no violation); 1 trace not read to its end"),
        "{t}"
    );
    // --summary reports at the end: not with --follow.
    let o = mongen(&["check", "--summary", "--follow", "-f", "G !a", &bad]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("cannot be used with"), "{}", text(&o));
}

/// `file` compressed by the real tool (`gzip` or `zstd`) into `out`.
fn compress(tool: &Path, file: &str, out: &str) {
    let o = std::process::Command::new(tool)
        .args(["-c", "-q", file])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", tool.display()));
    assert!(o.status.success(), "{}", text(&o));
    std::fs::write(out, o.stdout).unwrap();
}

/// A trace compressed by gzip or zstd (`log.csv.gz`, `log.jsonl.zst`,
/// `t.vcd.gz`) is checked as the plain file is, in one pass and in chunks
/// (which cut the decompressed bytes), with --by and --lazy; a file cut
/// short or damaged is an error naming it, after the report of the events
/// before it (the same on one core and on two); --follow is refused.
#[test]
fn compressed_traces_are_read_as_the_plain_files() {
    let Some(gzip) = common::tool("gzip", &[], "apt-get install -y gzip") else {
        return;
    };
    let Some(zstd) = common::tool("zstd", &[], "apt-get install -y zstd") else {
        return;
    };
    let dir = scratch("logs-compressed");
    // About 5 MB of CSV: several batches of chunks.
    let (csv, jsonl) = service_log(200_000);
    let vcd = "$timescale 1ns $end\n$scope module tb $end\n$var wire 1 ! clk $end\n\
               $var wire 1 \" a $end\n$upscope $end\n$enddefinitions $end\n#0\n0!\n0\"\n\
               #5\n1!\n#10\n0!\n1\"\n#15\n1!\n#20\n0!\n#25\n1!\n#30\n0!\n0\"\n#35\n1!\n";
    let plain = [
        write(&dir, "log.csv", &csv),
        write(&dir, "log.jsonl", &jsonl),
        write(&dir, "t.vcd", vcd),
    ];
    let modes: [&[&str]; 5] = [
        &["-j", "1"],
        &["-j", "2"],
        &["--lazy"],
        &["--by", "session", "--show", "ts"],
        &["--summary", "--json"],
    ];
    let mut compared = 0;
    for (tool, ext) in [(&gzip, "gz"), (&zstd, "zst")] {
        for file in &plain {
            let packed = format!("{file}.{ext}");
            compress(tool, file, &packed);
            let is_vcd = file.ends_with(".vcd");
            for mode in modes {
                if is_vcd && mode.contains(&"--by") {
                    continue;
                }
                let run = |f: &str| {
                    let mut args = vec!["check", "-f", "G(a -> X !a)", "--all"];
                    if is_vcd {
                        args.extend(["--clock", "clk"]);
                    }
                    args.extend_from_slice(mode);
                    args.push(f);
                    mongen(&args)
                };
                let (want, got) = (run(file), run(&packed));
                assert_eq!(
                    got.status.code(),
                    want.status.code(),
                    "{packed} {mode:?}: {}",
                    text(&got)
                );
                assert_eq!(
                    String::from_utf8_lossy(&got.stdout),
                    String::from_utf8_lossy(&want.stdout).replace(file.as_str(), &packed),
                    "{packed} {mode:?}"
                );
                assert!(got.stderr.is_empty(), "{}", text(&got));
                compared += 1;
            }
            if is_vcd {
                continue;
            }
            // Cut short, and damaged in the middle: an error naming the
            // file, after the events before it, on one core as on two.
            let bytes = std::fs::read(&packed).unwrap();
            let base = Path::new(&packed).file_name().unwrap().to_str().unwrap();
            let cut = write_bytes(&dir, &format!("cut-{base}"), &bytes[..bytes.len() * 2 / 3]);
            let mut flipped = bytes.clone();
            let mid = flipped.len() / 2;
            flipped[mid] ^= 0x5a;
            let bad = write_bytes(&dir, &format!("bad-{base}"), &flipped);
            for damaged in [&cut, &bad] {
                let run = |jobs: &str| {
                    mongen(&[
                        "check",
                        "--summary",
                        "-j",
                        jobs,
                        "-f",
                        "G(a -> X !a)",
                        "--all",
                        damaged,
                    ])
                };
                let (one, two) = (run("1"), run("2"));
                assert_eq!(one.status.code(), Some(2), "{}", text(&one));
                assert_eq!(
                    one.stdout,
                    two.stdout,
                    "{damaged}: {}\n{}",
                    text(&one),
                    text(&two)
                );
                assert_eq!(one.stderr, two.stderr, "{damaged}");
                let t = text(&one);
                let name = Path::new(damaged).file_name().unwrap().to_str().unwrap();
                let kind = if ext == "gz" { "gzip" } else { "zstd" };
                let corrupt = format!("the {kind} data is corrupt or truncated");
                // The error names the file (JSON Lines: and the line).
                assert!(t.contains(&format!("error: {damaged}")), "{t}");
                if damaged == &cut {
                    // Most of the file was read and checked before the error.
                    assert!(t.contains(&corrupt), "{t}");
                    assert!(t.contains("events read before the error"), "{t}");
                } else {
                    // Damaged data may decompress to lines that are not
                    // the format's before its checksum fails: an error at
                    // that line then.
                    assert!(
                        t.contains(&corrupt) || t.contains(&format!("{name}, line ")),
                        "{t}"
                    );
                }
            }
        }
    }
    assert_eq!(compared, 2 * (3 * 5 - 1));
    // Several gzip members, one after the other (`cat a.gz b.gz`): the
    // lines of both.
    let gz = |f: &str| {
        let o = std::process::Command::new(&gzip)
            .args(["-c", f])
            .output()
            .unwrap();
        o.stdout
    };
    let two = write_bytes(
        &dir,
        "two.jsonl.gz",
        &[gz(&plain[1]), gz(&plain[1])].concat(),
    );
    let o = mongen(&[
        "check",
        "--summary",
        "-f",
        "G !zz",
        "--define",
        "zz=ts == \"never\"",
        &two,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        text(&o).contains("(400000 events read, no violation)"),
        "{}",
        text(&o)
    );
    // Not followed; not a format of its own.
    let o = mongen(&[
        "check",
        "--follow",
        "-f",
        "G !a",
        &format!("{}.gz", plain[0]),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--follow reads a plain file as it grows, not gzip data"),
        "{}",
        text(&o)
    );
    let o = mongen(&[
        "check",
        "-f",
        "G !a",
        &write_bytes(&dir, "log.gz", &gz(&plain[0])),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("unknown trace format"), "{}", text(&o));
    let o = mongen(&[
        "check",
        "--format",
        "csv",
        "-f",
        "G(a -> X !a)",
        &dir.join("log.gz").display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
}

fn write_bytes(dir: &Path, name: &str, contents: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p.display().to_string()
}
