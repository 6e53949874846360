//! `--stats[=FORMAT]`: Spot-style `%` directives, and the figures they
//! print (sizes of a monitor, letters, time, memory).

use std::fmt::{self, Write as _};

use monitor_core::automaton::{BadPrefixDfa, Target};
use rustc_hash::FxHashMap;

/// A directive: its letter and what it prints (for `--help` and errors).
pub type Directive = (char, &'static str);

// The directives both commands have.
const FORMULA: Directive = ('f', "the formula, in Spot's syntax");
const PROPOSITIONS: Directive = ('x', "the number of atomic propositions");
const MEMORY: Directive = (
    'M',
    "the peak resident memory of the process so far, in MiB",
);
const FILE: Directive = (
    'F',
    "the file the formula was read from ('-' for standard input; empty for a command-line formula)",
);
const LINE: Directive = (
    'L',
    "the line of that file (empty for a command-line formula)",
);
const BEFORE: Directive = (
    '<',
    "with -F FILE/COL: the fields of the line before the formula's (CSV)",
);
const AFTER: Directive = (
    '>',
    "with -F FILE/COL: the fields of the line after the formula's (CSV)",
);
const PERCENT: Directive = ('%', "a percent sign");

/// The directives of `compile --stats=FORMAT`.
pub const COMPILE_DIRECTIVES: &[Directive] = &[
    FORMULA,
    ('s', "the number of states of the monitor"),
    ('e', "the number of edges (one per state and successor; the violation sink is left out, as in the HOA output)"),
    ('t', "the number of transitions: edges counted with the number of letters each accepts, over the %x propositions"),
    PROPOSITIONS,
    ('r', "wall-clock seconds of all the work done for the formula: parsing, translation, safety analysis, the --informative comparison (the monitor is not written with --stats=FORMAT)"),
    MEMORY,
    FILE,
    LINE,
    BEFORE,
    AFTER,
    PERCENT,
];

/// The directives of `classify --stats=FORMAT`.
pub const CLASSIFY_DIRECTIVES: &[Directive] = &[
    FORMULA,
    ('s', "the number of states of the exact monitor"),
    PROPOSITIONS,
    (
        'r',
        "wall-clock seconds of all the work done for the formula: parsing and every analysis",
    ),
    MEMORY,
    FILE,
    LINE,
    BEFORE,
    AFTER,
    PERCENT,
];

/// What `--stats` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StatsArg {
    /// `--stats`: a human-readable line on standard error.
    Human,
    /// `--stats=FORMAT`: one line per formula on the output, instead of
    /// the formula's usual output.
    Format(Format),
}

/// A parsed FORMAT: text and directives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Directive(char),
}

impl Format {
    /// Parses `text`, accepting the directives of `allowed`.
    pub fn parse(text: &str, allowed: &[Directive]) -> Result<Format, String> {
        let mut pieces = Vec::new();
        let mut literal = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '%' {
                literal.push(c);
                continue;
            }
            let known = || {
                allowed
                    .iter()
                    .map(|(d, _)| format!("%{d}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            match chars.next() {
                None => {
                    return Err(format!(
                        "the format ends with a lone `%` (write %% for a percent sign; the directives are {})",
                        known()
                    ))
                }
                Some('%') => literal.push('%'),
                Some(d) if allowed.iter().any(|(a, _)| *a == d) => {
                    if !literal.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut literal)));
                    }
                    pieces.push(Piece::Directive(d));
                }
                Some(d) => {
                    return Err(format!(
                        "unknown directive `%{d}` (the directives are {}; see --help)",
                        known()
                    ))
                }
            }
        }
        if !literal.is_empty() {
            pieces.push(Piece::Text(literal));
        }
        Ok(Format { pieces })
    }

    /// The format with each directive replaced by `value(d)`.
    pub fn render(&self, mut value: impl FnMut(char) -> String) -> String {
        let mut out = String::new();
        for p in &self.pieces {
            match p {
                Piece::Text(t) => out.push_str(t),
                Piece::Directive(d) => out.push_str(&value(*d)),
            }
        }
        out
    }
}

/// The value parser of `--stats[=FORMAT]` for the directives `allowed`.
pub fn parse_stats_arg(text: &str, allowed: &[Directive]) -> Result<StatsArg, String> {
    if text.is_empty() {
        return Ok(StatsArg::Human);
    }
    Format::parse(text, allowed).map(StatsArg::Format)
}

/// The long help of `--stats` with the directives of `allowed`.
pub fn long_help(intro: &str, allowed: &[Directive]) -> String {
    let mut s = String::from(intro);
    s.push_str("\n\nDirectives of FORMAT:");
    for (d, what) in allowed {
        // Wrapped here, with a hanging indent (clap's wrapping would
        // lose it).
        let _ = write!(s, "\n  %{d}  ");
        let mut width = 0;
        for word in what.split(' ') {
            if width > 0 && width + 1 + word.len() > 72 {
                s.push_str("\n      ");
                width = 0;
            } else if width > 0 {
                s.push(' ');
                width += 1;
            }
            s.push_str(word);
            width += word.len();
        }
    }
    s
}

/// A non-negative integer of any size (the number of letters of a
/// monitor over many propositions exceeds every machine integer).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Little-endian base-2^32 digits, without leading zeros.
    digits: Vec<u32>,
}

impl Count {
    pub fn zero() -> Count {
        Count::default()
    }

    /// 2^k.
    pub fn pow2(k: usize) -> Count {
        let mut digits = vec![0; k / 32 + 1];
        digits[k / 32] = 1 << (k % 32);
        Count { digits }
    }

    pub fn add(&self, other: &Count) -> Count {
        let n = self.digits.len().max(other.digits.len());
        let mut digits = Vec::with_capacity(n + 1);
        let mut carry = 0u64;
        for i in 0..n {
            let s = u64::from(self.digits.get(i).copied().unwrap_or(0))
                + u64::from(other.digits.get(i).copied().unwrap_or(0))
                + carry;
            digits.push(s as u32);
            carry = s >> 32;
        }
        if carry > 0 {
            digits.push(carry as u32);
        }
        Count { digits }.trimmed()
    }

    /// `self - other`, for `other <= self`.
    pub fn sub(&self, other: &Count) -> Count {
        debug_assert!(other.digits.len() <= self.digits.len());
        let mut digits = Vec::with_capacity(self.digits.len());
        let mut borrow = 0i64;
        for i in 0..self.digits.len() {
            let mut d = i64::from(self.digits[i])
                - i64::from(other.digits.get(i).copied().unwrap_or(0))
                - borrow;
            borrow = 0;
            if d < 0 {
                d += 1 << 32;
                borrow = 1;
            }
            digits.push(d as u32);
        }
        Count { digits }.trimmed()
    }

    /// `self / 2`, rounded down.
    pub fn half(&self) -> Count {
        let mut digits = self.digits.clone();
        let mut carry = 0u32;
        for d in digits.iter_mut().rev() {
            let next = *d & 1;
            *d = (*d >> 1) | (carry << 31);
            carry = next;
        }
        Count { digits }.trimmed()
    }

    fn trimmed(mut self) -> Count {
        while self.digits.last() == Some(&0) {
            self.digits.pop();
        }
        self
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.digits.is_empty() {
            return f.write_str("0");
        }
        // Repeated division by 10^9.
        let mut digits = self.digits.clone();
        let mut chunks = Vec::new();
        while !digits.is_empty() {
            let mut rem = 0u64;
            for d in digits.iter_mut().rev() {
                let cur = (rem << 32) | u64::from(*d);
                *d = (cur / 1_000_000_000) as u32;
                rem = cur % 1_000_000_000;
            }
            chunks.push(rem as u32);
            while digits.last() == Some(&0) {
                digits.pop();
            }
        }
        let mut s = chunks.pop().unwrap_or(0).to_string();
        while let Some(c) = chunks.pop() {
            let _ = write!(s, "{c:09}");
        }
        f.write_str(&s)
    }
}

/// The number of transitions of `dfa` as its HOA output shows them:
/// every edge to a state counted with the number of letters (valuations
/// of all the monitor's propositions) its guard accepts. Edges to the
/// violation sink are left out, as in the HOA output.
pub fn transitions(dfa: &BadPrefixDfa) -> Count {
    let n = dfa.alphabet().len();
    let mgr = dfa.manager();
    let states = dfa.num_states();
    let all = Count::pow2(n);
    // violating(node): the letters (over all n propositions) that lead
    // from the diagram `node` to the sink; a node testing `v` counts half
    // of each child's (whose letters leave `v` free).
    let mut memo: FxHashMap<u32, Count> = FxHashMap::default();
    let mut total = Count::zero();
    for s in dfa.states() {
        let root = dfa.diagram(s);
        // Post-order walk, explicit stack (diagrams can be deep).
        let mut stack = vec![(root, false)];
        while let Some((node, expanded)) = stack.pop() {
            if memo.contains_key(&node.index()) {
                continue;
            }
            match mgr.children(node) {
                None => {
                    // A leaf: a state, or the sink.
                    let sink = mgr.leaf_value(node).map(Target::from_leaf);
                    let v = match sink {
                        Some(Target::State(s)) if s.as_usize() < states => Count::zero(),
                        _ => all.clone(),
                    };
                    memo.insert(node.index(), v);
                }
                Some((lo, hi)) if expanded => {
                    let v = memo[&lo.index()].add(&memo[&hi.index()]).half();
                    memo.insert(node.index(), v);
                }
                Some((lo, hi)) => {
                    stack.push((node, true));
                    stack.push((lo, false));
                    stack.push((hi, false));
                }
            }
        }
        total = total.add(&all.sub(&memo[&root.index()]));
    }
    total
}

/// The peak resident memory of the process so far (VmHWM), in KiB.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// `%M`: the peak memory in MiB, one decimal (`?` where unknown).
pub fn peak_mib_text() -> String {
    peak_rss_kib().map_or_else(|| "?".into(), |k| format!("{:.1}", k as f64 / 1024.0))
}

/// The directives that `compile` and `classify` share.
pub fn common_directive(d: char, src: &crate::cli_input::Source, seconds: f64) -> String {
    match d {
        'r' => format!("{seconds:.6}"),
        'M' => peak_mib_text(),
        'F' => src.file.clone().unwrap_or_default(),
        'L' => src
            .file
            .as_ref()
            .map_or_else(String::new, |_| src.line.to_string()),
        '<' => src
            .csv
            .as_ref()
            .map_or_else(String::new, |c| c.before.clone()),
        '>' => src
            .csv
            .as_ref()
            .map_or_else(String::new, |c| c.after.clone()),
        '%' => "%".into(),
        // The format was checked against the directives when parsed.
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use monitor_core::translate::Builder;

    #[test]
    fn formats_parse_and_render() {
        let f = Format::parse("%s states, 100%% %f", COMPILE_DIRECTIVES).unwrap();
        let out = f.render(|d| match d {
            's' => "3".into(),
            'f' => "Ga".into(),
            _ => unreachable!(),
        });
        assert_eq!(out, "3 states, 100% Ga");
        let e = Format::parse("%q", COMPILE_DIRECTIVES).unwrap_err();
        assert!(
            e.starts_with("unknown directive `%q` (the directives are %f %s"),
            "{e}"
        );
        let e = Format::parse("50%", COMPILE_DIRECTIVES).unwrap_err();
        assert!(e.contains("lone `%`"), "{e}");
        assert!(Format::parse("%e", CLASSIFY_DIRECTIVES).is_err());
        assert_eq!(
            parse_stats_arg("", COMPILE_DIRECTIVES).unwrap(),
            StatsArg::Human
        );
    }

    #[test]
    fn counts_are_exact() {
        assert_eq!(Count::pow2(0).to_string(), "1");
        assert_eq!(Count::pow2(10).to_string(), "1024");
        assert_eq!(Count::pow2(64).to_string(), "18446744073709551616");
        assert_eq!(
            Count::pow2(100).to_string(),
            "1267650600228229401496703205376"
        );
        let a = Count::pow2(70).add(&Count::pow2(3));
        assert_eq!(a.half().to_string(), (((1u128 << 70) + 8) / 2).to_string());
        assert_eq!(
            a.sub(&Count::pow2(69)).to_string(),
            ((1u128 << 69) + 8).to_string()
        );
        assert_eq!(Count::pow2(5).sub(&Count::pow2(5)).to_string(), "0");
        assert_eq!(Count::zero().to_string(), "0");
    }

    #[test]
    fn transitions_count_the_letters_of_the_edges() {
        // G(a -> X b): state 0 takes every letter (4: to 0 on !a, to 1 on
        // a); state 1 takes the 2 letters with b. 6 transitions.
        let t = Builder::new().build("G(a -> X b)").unwrap();
        assert_eq!(transitions(t.dfa()).to_string(), "6");
        // G a: one state, the 1 letter a (over one proposition).
        let t = Builder::new().build("G a").unwrap();
        assert_eq!(transitions(t.dfa()).to_string(), "1");
        // Gp1 | ... | Gp3: from the set S of propositions still possible,
        // the letters keeping some of S true: sum over S of 2^|S| - 1
        // letters of S times 2^(3-|S|) for the others.
        let t = Builder::new().build("Gp1 | Gp2 | Gp3").unwrap();
        let n = 3u32;
        let expected: u64 = (1u32..8)
            .map(|s| {
                let k = s.count_ones();
                ((1u64 << k) - 1) << (n - k)
            })
            .sum();
        assert_eq!(transitions(t.dfa()).to_string(), expected.to_string());
        // Against a brute-force count over every letter.
        for f in ["G(a -> X(b | X c))", "a W (b & X c)", "G(a -> O b)"] {
            let t = Builder::new().build(f).unwrap();
            let dfa = t.dfa();
            let n = dfa.alphabet().len();
            let mut brute = 0u64;
            for s in dfa.states() {
                for letter in 0..1u64 << n {
                    let l: Vec<bool> = (0..n).map(|i| letter >> i & 1 == 1).collect();
                    if matches!(dfa.step(s, &l), monitor_core::automaton::Target::State(_)) {
                        brute += 1;
                    }
                }
            }
            assert_eq!(transitions(dfa).to_string(), brute.to_string(), "{f}");
        }
    }
}
