//! The streaming writers (`write_hoa`, `write_dot`, `write_json`) give the
//! same bytes as the String forms, and `mongen compile -t hoa|dot|json`
//! writes, to a file or to standard output, what the String forms give.

use std::io::{self, Read, Write};
use std::process::{Command, Stdio};

use mongen::emit::dot::{emit_dot, write_dot};
use mongen::emit::hoa::{emit_hoa, write_hoa, HoaOptions};
use mongen::emit::json::{emit_json, write_json, JsonOptions};
use mongen::emit::Common;
use monitor_core::automaton::BadPrefixDfa;
use monitor_core::formula::{parse, parse_psl};
use monitor_core::translate::{Builder, Config, Prefixes, Translation, Verdicts};

/// A writer that takes at most `chunk` bytes per call and fails (with
/// `kind`) once `limit` bytes have been taken.
struct Trickle {
    bytes: Vec<u8>,
    chunk: usize,
    limit: usize,
    kind: io::ErrorKind,
}

impl Trickle {
    fn new(chunk: usize) -> Trickle {
        Trickle {
            bytes: Vec::new(),
            chunk,
            limit: usize::MAX,
            kind: io::ErrorKind::Other,
        }
    }

    fn failing_after(limit: usize, kind: io::ErrorKind) -> Trickle {
        Trickle {
            limit,
            kind,
            ..Trickle::new(3)
        }
    }
}

impl Write for Trickle {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.bytes.len() >= self.limit {
            return Err(io::Error::new(self.kind, "the reader is gone"));
        }
        let n = buf.len().min(self.chunk).min(self.limit - self.bytes.len());
        self.bytes.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn translate(f: &str, psl: bool, cfg: Config) -> Translation {
    let mut b = Builder::new();
    b.configure(cfg);
    if psl {
        let mut t = b.build_from_formula(&parse_psl(f).unwrap()).unwrap();
        t.set_name(f);
        t
    } else {
        b.build(f).unwrap()
    }
}

/// Monitors of several shapes: two- and three-valued, informative, with a
/// violation sink and without, names to escape, PSL, a few hundred states.
fn monitors() -> Vec<(BadPrefixDfa, bool, bool, Option<bool>)> {
    let two = Config::new();
    let three = Config::new().verdicts(Verdicts::Three);
    let informative = Config::new().prefixes(Prefixes::Informative);
    let cases: [(&str, bool, &Config); 10] = [
        ("G(req -> X ack)", false, &two),
        ("G(req -> X ack)", false, &three),
        ("G(a -> X X b) & F c", false, &three),
        ("G(a -> F b)", false, &two),
        ("GF a", false, &two),
        ("G \"x \\\"y\\\"\" | G(\"a b\" -> X c)", false, &two),
        ("Gp1 | Gp2 | Gp3 | Gp4 | Gp5 | Gp6 | Gp7", false, &two),
        ("G(a -> X(b U c)) & G(!c | X !c)", false, &informative),
        ("always {req} |=> {[*0:3]; ack}", true, &two),
        (
            "always ({start} |=> {!start[*]; done}) abort reset",
            true,
            &three,
        ),
    ];
    cases
        .iter()
        .map(|&(f, psl, cfg)| {
            let t = translate(f, psl, cfg.clone());
            let safety = t.is_safety();
            let three = cfg.get_verdicts() == Verdicts::Three;
            let informative = cfg.get_prefixes() == Prefixes::Informative;
            (t.into_dfa(), three, informative, safety)
        })
        .collect()
}

/// The three writers on one monitor, into `out`, one after the other.
fn write_all_three(
    dfa: &BadPrefixDfa,
    hoa: &HoaOptions,
    json: &JsonOptions,
    out: &mut impl Write,
) -> io::Result<()> {
    write_hoa(dfa, hoa, out)?;
    write_dot(dfa, out)?;
    write_json(dfa, json, out)
}

#[test]
fn streaming_and_string_forms_give_the_same_bytes() {
    for (dfa, three, informative, safety) in monitors() {
        let hoa = HoaOptions {
            common: Common {
                three_valued: three,
                ..Common::default()
            },
            stutter_invariant: Some(!three),
        };
        let json = JsonOptions {
            common: Common {
                three_valued: three,
                informative,
                ..Common::default()
            },
            safety,
        };
        let expected = emit_hoa(&dfa, &hoa).unwrap()
            + &emit_dot(&dfa).unwrap()
            + &emit_json(&dfa, &json).unwrap();
        let mut vec = Vec::new();
        write_all_three(&dfa, &hoa, &json, &mut vec).unwrap();
        assert_eq!(String::from_utf8(vec).unwrap(), expected, "{}", dfa.name());
        // Short writes (as pipes make) change nothing, buffered or not.
        for chunk in [1, 5, 4096] {
            let mut t = Trickle::new(chunk);
            write_all_three(&dfa, &hoa, &json, &mut t).unwrap();
            assert_eq!(t.bytes, expected.as_bytes(), "{}", dfa.name());
            let mut b = io::BufWriter::with_capacity(7, Trickle::new(chunk));
            write_all_three(&dfa, &hoa, &json, &mut b).unwrap();
            let t = b.into_inner().map_err(|_| "flush").unwrap();
            assert_eq!(t.bytes, expected.as_bytes(), "{}", dfa.name());
        }
    }
}

#[test]
fn write_errors_come_back_unchanged_and_stop_the_writers() {
    let dfa = translate("Gp1 | Gp2 | Gp3 | Gp4 | Gp5", false, Config::new()).into_dfa();
    type Writer = fn(&BadPrefixDfa, &mut Trickle) -> io::Result<()>;
    let writers: [(Writer, String); 3] = [
        (
            |d, w| write_hoa(d, &HoaOptions::default(), w),
            emit_hoa(&dfa, &HoaOptions::default()).unwrap(),
        ),
        (|d, w| write_dot(d, w), emit_dot(&dfa).unwrap()),
        (
            |d, w| write_json(d, &JsonOptions::default(), w),
            emit_json(&dfa, &JsonOptions::default()).unwrap(),
        ),
    ];
    for (write, full) in writers {
        for limit in [0, 1, full.len() / 2, full.len() - 1] {
            for kind in [io::ErrorKind::BrokenPipe, io::ErrorKind::Other] {
                let mut t = Trickle::failing_after(limit, kind);
                // serde_json's error is turned back into the writer's.
                let e = write(&dfa, &mut t).unwrap_err();
                assert_eq!(e.kind(), kind);
                assert_eq!(t.bytes, full.as_bytes()[..limit]);
            }
        }
    }
}

fn mongen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mongen"))
}

fn temp_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mongen-streaming-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What `mongen compile` writes for `formulas` (LTL), from the String
/// forms, as the command line builds them.
fn expected(target: &str, formulas: &[&str], three: bool) -> String {
    let cfg = Config::new().verdicts(if three {
        Verdicts::Three
    } else {
        Verdicts::Two
    });
    let mut out = String::new();
    for f in formulas {
        let t = translate(f, false, cfg.clone());
        match target {
            "hoa" => {
                out += &emit_hoa(
                    t.dfa(),
                    &HoaOptions {
                        common: Common {
                            three_valued: three,
                            ..Common::default()
                        },
                        stutter_invariant: Some(parse(f).unwrap().is_next_free()),
                    },
                )
                .unwrap()
            }
            "dot" => out += &emit_dot(t.dfa()).unwrap(),
            "json" => {
                out += &emit_json(
                    t.dfa(),
                    &JsonOptions {
                        common: Common {
                            informative: false,
                            three_valued: three,
                            ..Common::default()
                        },
                        safety: t.is_safety(),
                    },
                )
                .unwrap();
                out.push('\n');
            }
            _ => unreachable!(),
        }
    }
    out
}

#[test]
fn compile_streams_the_same_bytes_to_a_file_and_to_stdout() {
    let good = [
        "G(req -> X ack)",
        "G(a -> F b)",
        "Gp1 | Gp2 | Gp3 | Gp4 | Gp5 | Gp6",
        "G(a -> X X b) & F c",
    ];
    // A formula that fails in the middle: the others are still written.
    let input = format!(
        "# formulas\n{}\n{}\nG(a U )\n{}\n{}\n",
        good[0], good[1], good[2], good[3]
    );
    let dir = temp_dir();
    let file = dir.join("props.ltl");
    std::fs::write(&file, input).unwrap();
    for target in ["hoa", "dot", "json"] {
        for three in [false, true] {
            let want = expected(target, &good, three);
            let verdicts = if three { "3" } else { "2" };
            let args = [
                "compile",
                "-q",
                "-t",
                target,
                "--verdicts",
                verdicts,
                "-F",
                file.to_str().unwrap(),
            ];
            let o = mongen().args(args).output().unwrap();
            assert_eq!(o.status.code(), Some(2), "{target}");
            assert_eq!(String::from_utf8(o.stdout).unwrap(), want, "{target}");
            let stderr = String::from_utf8(o.stderr).unwrap();
            assert!(stderr.contains("syntax error at line 4"), "{stderr}");

            let out = dir.join(format!("out.{target}"));
            std::fs::write(&out, "an older, longer file that is replaced\n".repeat(100)).unwrap();
            let o = mongen().args(args).arg("-o").arg(&out).output().unwrap();
            assert_eq!(o.status.code(), Some(2), "{target}");
            assert!(o.stdout.is_empty());
            assert_eq!(std::fs::read_to_string(&out).unwrap(), want, "{target}");
        }
    }
}

#[test]
fn compile_leaves_no_output_when_every_formula_fails() {
    // Neither an empty file nor an earlier run's output, which would pass
    // for this run's.
    let out = temp_dir().join("empty.json");
    std::fs::write(&out, "old contents\n").unwrap();
    let o = mongen()
        .args(["compile", "-t", "json", "G(a U )", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.exists());
}

#[test]
fn compile_reports_a_file_it_cannot_write() {
    let out = temp_dir().join("no such directory").join("out.hoa");
    let o = mongen()
        .args(["compile", "G a", "G b", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let stderr = String::from_utf8(o.stderr).unwrap();
    // Reported once.
    assert_eq!(stderr.matches("cannot write").count(), 1, "{stderr}");
    assert!(stderr.contains("out.hoa"), "{stderr}");
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    for target in ["hoa", "dot", "json"] {
        let mut child = mongen()
            .args([
                "compile",
                "-t",
                target,
                "Gp1 | Gp2 | Gp3 | Gp4 | Gp5 | Gp6 | Gp7 | Gp8",
            ])
            .args(["G a", "G b"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe is closed: dropped with `take()`.
        let o = child.wait_with_output().unwrap();
        assert!(o.status.success(), "{target}: {o:?}");
        assert!(o.stderr.is_empty(), "{target}: {o:?}");
    }
}
