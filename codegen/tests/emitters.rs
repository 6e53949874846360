//! The text outputs read back: HOA by a third-party parser (hoars) and by
//! an independent reader that re-evaluates every label on every letter;
//! JSON by serde_json; DOT structurally.

use mongen::emit::dot::emit_dot;
use mongen::emit::hoa::{emit_hoa, HoaOptions};
use mongen::emit::json::{emit_json, JsonOptions};
use mongen::emit::Common;
use monitor_core::automaton::{BadPrefixDfa, StateId, Target, Verdict};
use monitor_core::formula::random::RandomLtl;
use monitor_core::translate::{Builder, Config, Verdicts};

fn build(f: &str, cfg: Config) -> BadPrefixDfa {
    Builder::new().configure(cfg).build(f).unwrap().into_dfa()
}

/// A HOA label expression evaluated on a letter (bit i = AP i).
fn eval_label(label: &str, letter: u64) -> bool {
    struct P<'a> {
        s: &'a [u8],
        i: usize,
        letter: u64,
    }
    impl P<'_> {
        fn ws(&mut self) {
            while self.i < self.s.len() && self.s[self.i] == b' ' {
                self.i += 1;
            }
        }
        fn or(&mut self) -> bool {
            let mut v = self.and();
            loop {
                self.ws();
                if self.i < self.s.len() && self.s[self.i] == b'|' {
                    self.i += 1;
                    let w = self.and();
                    v = v || w;
                } else {
                    return v;
                }
            }
        }
        fn and(&mut self) -> bool {
            let mut v = self.atom();
            loop {
                self.ws();
                if self.i < self.s.len() && self.s[self.i] == b'&' {
                    self.i += 1;
                    let w = self.atom();
                    v = v && w;
                } else {
                    return v;
                }
            }
        }
        fn atom(&mut self) -> bool {
            self.ws();
            match self.s[self.i] {
                b'!' => {
                    self.i += 1;
                    !self.atom()
                }
                b'(' => {
                    self.i += 1;
                    let v = self.or();
                    self.ws();
                    assert_eq!(self.s[self.i], b')');
                    self.i += 1;
                    v
                }
                b't' => {
                    self.i += 1;
                    true
                }
                b'f' => {
                    self.i += 1;
                    false
                }
                _ => {
                    let start = self.i;
                    while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                        self.i += 1;
                    }
                    let n: u32 = std::str::from_utf8(&self.s[start..self.i])
                        .unwrap()
                        .parse()
                        .unwrap();
                    (self.letter >> n) & 1 == 1
                }
            }
        }
    }
    let mut p = P {
        s: label.as_bytes(),
        i: 0,
        letter,
    };
    let v = p.or();
    p.ws();
    assert_eq!(p.i, label.len(), "trailing input in label {label}");
    v
}

/// The HOA strings of a header line, with `\"` and `\\` escapes.
fn read_strings(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        loop {
            match chars.next().expect("closed string") {
                '"' => break,
                '\\' => s.push(chars.next().expect("escaped character")),
                c => s.push(c),
            }
        }
        out.push(s);
    }
    out
}

/// Per state, its (label, target) edges.
type HoaBody = Vec<Vec<(String, u32)>>;

/// The lines of a HOA text, where a line break inside a string (HOA
/// strings may hold any character but `"` and `\` unescaped) does not end
/// the line.
fn logical_lines(text: &str) -> Vec<String> {
    let mut lines = vec![String::new()];
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        match c {
            '\n' if !in_string => lines.push(String::new()),
            c => {
                if in_string && !escaped && c == '"' {
                    in_string = false;
                } else if !in_string && c == '"' {
                    in_string = true;
                }
                escaped = in_string && !escaped && c == '\\';
                lines.last_mut().unwrap().push(c);
            }
        }
    }
    lines
}

/// Reads our HOA back: the number of states, the propositions, the body.
fn read_hoa(text: &str) -> (usize, Vec<String>, HoaBody) {
    let mut states: Vec<Vec<(String, u32)>> = Vec::new();
    let mut n = 0;
    let mut aps = Vec::new();
    let mut in_body = false;
    for line in logical_lines(text) {
        let line = line.as_str();
        if line == "--BODY--" {
            in_body = true;
        } else if line == "--END--" {
            break;
        } else if !in_body {
            if let Some(v) = line.strip_prefix("States: ") {
                n = v.parse().unwrap();
            } else if let Some(v) = line.strip_prefix("AP: ") {
                let mut parts = v.splitn(2, ' ');
                let count: usize = parts.next().unwrap().parse().unwrap();
                aps = read_strings(parts.next().unwrap_or(""));
                assert_eq!(aps.len(), count);
            }
        } else if let Some(rest) = line.strip_prefix("State: ") {
            let id: usize = rest.split(' ').next().unwrap().parse().unwrap();
            assert_eq!(id, states.len(), "states in order");
            states.push(Vec::new());
        } else {
            let close = line.rfind(']').unwrap();
            let label = line[1..close].to_string();
            let target = line[close + 1..].trim().parse().unwrap();
            states.last_mut().unwrap().push((label, target));
        }
    }
    (n, aps, states)
}

fn check_hoa(dfa: &BadPrefixDfa) {
    let text = emit_hoa(dfa, &HoaOptions::default()).unwrap();
    // A third-party parser accepts it (hoars 0.3 cannot lex the `\"`
    // escapes that HOA strings allow; those texts are checked by the
    // reader below only).
    if !text.contains('\\') {
        let parsed = hoars::HoaRepresentation::try_from(text.as_str())
            .unwrap_or_else(|e| panic!("hoars rejects:\n{text}\n{e:?}"));
        parsed.verify().unwrap();
        assert_eq!(parsed.num_states(), Some(dfa.num_states()));
        assert_eq!(parsed.aps(), dfa.alphabet().names());
    }
    // Every letter goes where the monitor goes; none means violation.
    let (n, aps, states) = read_hoa(&text);
    assert_eq!(n, dfa.num_states());
    assert_eq!(aps, dfa.alphabet().names());
    for (s, edges) in states.iter().enumerate() {
        for letter in 0..1u64 << aps.len() {
            let hits: Vec<u32> = edges
                .iter()
                .filter(|(l, _)| eval_label(l, letter))
                .map(|(_, t)| *t)
                .collect();
            assert!(
                hits.len() <= 1,
                "nondeterministic HOA at state {s}:\n{text}"
            );
            let hoa_target = hits
                .first()
                .map_or(Target::Violation, |&t| Target::State(StateId::new(t)));
            assert_eq!(
                hoa_target,
                dfa.step(StateId::new(s as u32), &letter),
                "state {s}, letter {letter:b}:\n{text}"
            );
        }
    }
}

#[test]
fn hoa_reads_back_exactly() {
    for f in [
        "G(req -> X ack)",
        "F p",
        "false",
        "true",
        "Fp0 -> (!p1 U p0)",
        "G(\"x > 3\" -> Y \"say \\\"hi\\\"\")",
        "X((G(q | FGp) & G(r | FG!p)) | Gq | Gr)",
    ] {
        check_hoa(&build(f, Config::new()));
        check_hoa(&build(f, Config::new().verdicts(Verdicts::Three)));
    }
    let mut r#gen = RandomLtl::new(&["a", "b", "c", "d"], 9)
        .with_past()
        .seed(11);
    for _ in 0..150 {
        let f = r#gen.next_formula();
        let dfa = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        check_hoa(&dfa);
    }
}

/// Rename invariance for HOA and JSON: propositions with hostile names
/// (quotes, backslashes, line breaks, `*/`, Unicode, names of HOA's own
/// header keys, 10,000 characters) read back as the same names and the
/// same automaton as plain ones, by the independent reader (and hoars
/// where it can lex the text) and by serde_json.
#[test]
fn hostile_names_read_back_from_hoa_and_json() {
    let hostile = [
        "\"q\"",
        "back\\slash",
        "x\nStates: 1\n--BODY--",
        "*/",
        "ünï cödé ✓",
        "AP:",
        "--END--",
        "!a",
        "a",
        "t",
        "0",
        "",
    ];
    let long = "n".repeat(10_000);
    let mut r#gen = RandomLtl::new(&["a", "b", "c", "d"], 8).seed(4242);
    for i in 0..40usize {
        let f = r#gen.next_formula();
        let names: Vec<&str> = (0..4)
            .map(|k| match (i * 4 + k) % (hostile.len() + 1) {
                j if j == hostile.len() => long.as_str(),
                j => hostile[j],
            })
            .collect();
        let renamed = f.map_bottom_up(|g| match g.ap_name() {
            Some(n) => {
                let k = ["a", "b", "c", "d"].iter().position(|a| *a == n).unwrap();
                monitor_core::formula::Formula::ap(names[k])
            }
            None => g.clone(),
        });
        let plain = Builder::new().build_from_formula(&f).unwrap().into_dfa();
        let dfa = Builder::new()
            .build_from_formula(&renamed)
            .unwrap()
            .into_dfa();
        assert_eq!(plain.num_states(), dfa.num_states(), "{f}");
        check_hoa(&dfa);
        let v: serde_json::Value =
            serde_json::from_str(&emit_json(&dfa, &JsonOptions::default()).unwrap()).unwrap();
        let aps: Vec<&str> = v["aps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        assert_eq!(aps, dfa.alphabet().names(), "{f}");
    }
}

#[test]
fn hoa_header_follows_spot_monitor_convention() {
    let dfa = build("G(req -> X ack)", Config::new());
    let text = emit_hoa(&dfa, &HoaOptions::default()).unwrap();
    assert!(text.contains("\nacc-name: all\nAcceptance: 0 t\n"));
    assert!(text.contains("properties: trans-labels explicit-labels state-acc deterministic\n"));
    let three = build("a U b", Config::new().verdicts(Verdicts::Three));
    let text = emit_hoa(
        &three,
        &HoaOptions {
            common: Common {
                three_valued: true,
                ..Common::default()
            },
            ..Default::default()
        },
    )
    .unwrap();
    assert!(text.contains("mongen-verdicts: 3\n"));
    assert!(text.contains("State: 1 \"satisfied\"\n[t] 1\n"));
}

#[test]
fn json_describes_the_monitor() {
    let dfa = build("G(req -> X ack)", Config::new());
    let text = emit_json(
        &dfa,
        &JsonOptions {
            safety: Some(true),
            ..Default::default()
        },
    )
    .unwrap();
    assert!(!text.contains('\n'));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["aps"], serde_json::json!(["req", "ack"]));
    assert_eq!(v["verdicts"], 2);
    assert_eq!(v["safety"], true);
    assert_eq!(v["shortest_violation"], serde_json::json!(["req", "!ack"]));
    let states = v["states"].as_array().unwrap();
    assert_eq!(states.len(), 2);
    assert_eq!(states[1]["parent"], 0);
    assert_eq!(states[1]["letter"], "req");
    assert!(states[0]["parent"].is_null());
    assert_eq!(
        states[1]["violation"]["cubes"],
        serde_json::json!([[{"ap": 1, "name": "ack", "value": false}]])
    );
    // Edges and violation cover every letter exactly once, as the monitor.
    for (s, st) in states.iter().enumerate() {
        for letter in 0..4u64 {
            let holds = |cubes: &serde_json::Value| {
                cubes.as_array().unwrap().iter().any(|c| {
                    c.as_array().unwrap().iter().all(|lit| {
                        let i = lit["ap"].as_u64().unwrap();
                        assert_eq!(lit["name"], v["aps"][i as usize]);
                        ((letter >> i) & 1 == 1) == lit["value"].as_bool().unwrap()
                    })
                })
            };
            let mut hit: Vec<Target> = st["edges"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| holds(&e["cubes"]))
                .map(|e| Target::State(StateId::new(e["target"].as_u64().unwrap() as u32)))
                .collect();
            if !st["violation"].is_null() && holds(&st["violation"]["cubes"]) {
                hit.push(Target::Violation);
            }
            assert_eq!(hit, vec![dfa.step(StateId::new(s as u32), &letter)]);
        }
    }
    let three = build("a U b", Config::new().verdicts(Verdicts::Three));
    let v: serde_json::Value = serde_json::from_str(
        &emit_json(
            &three,
            &JsonOptions {
                common: Common {
                    three_valued: true,
                    ..Common::default()
                },
                ..Default::default()
            },
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(v["verdicts"], 3);
    assert_eq!(v["states"][1]["verdict"], "satisfied");
    assert_eq!(three.verdict(StateId::new(1)), Verdict::Satisfied);
}

/// A proposition named `!a` beside `a`: its literals must not read as the
/// negation of `a` (cubes once were `[["!a","!a"]]` for `"!a" & !a`).
#[test]
fn json_literals_are_unambiguous() {
    let dfa = build("G((\"!a\" & !a) -> X b)", Config::new());
    let v: serde_json::Value =
        serde_json::from_str(&emit_json(&dfa, &JsonOptions::default()).unwrap()).unwrap();
    let aps: Vec<&str> = v["aps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    let (bang_a, a) = (
        aps.iter().position(|&n| n == "!a").unwrap() as u64,
        aps.iter().position(|&n| n == "a").unwrap() as u64,
    );
    let cubes = &v["states"][0]["edges"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["target"] != 0)
        .unwrap()["cubes"];
    let lits = cubes[0].as_array().unwrap();
    let lit = |ap: u64| lits.iter().find(|l| l["ap"] == ap).unwrap();
    assert_eq!(
        (lit(bang_a)["name"].as_str(), lit(bang_a)["value"].as_bool()),
        (Some("!a"), Some(true))
    );
    assert_eq!(
        (lit(a)["name"].as_str(), lit(a)["value"].as_bool()),
        (Some("a"), Some(false))
    );
    // The guard's text quotes the name, as Spot does.
    let guard = v["states"][0]["edges"][1]["guard"]
        .as_str()
        .unwrap()
        .to_string()
        + v["states"][0]["edges"][0]["guard"].as_str().unwrap();
    assert!(guard.contains("\"!a\""), "{guard}");
}

#[test]
fn dot_has_every_edge_and_the_violation_sink() {
    let dfa = build("G(req -> X ack)", Config::new());
    let text = emit_dot(&dfa).unwrap();
    assert!(text.starts_with("digraph \"G(req -> Xack)\" {\n"));
    assert!(text.contains("  0 -> 1 [label=\"req\"]\n"));
    assert!(text
        .contains("  1 -> violation [label=\"!ack\", color=red, fontcolor=red, style=dashed]\n"));
    assert!(text.ends_with("}\n"));
    let quoted = emit_dot(&build("G \"x \\\"y\\\"\"", Config::new())).unwrap();
    assert!(
        quoted.contains("label=\"!\\\"x \\\\\\\"y\\\\\\\"\\\"\""),
        "{quoted}"
    );
}
