//! Keyed checking: one monitor per key (a session, a request, a device)
//! in an interleaved log.
//!
//! The trace is sliced by the values of the key fields (parametric trace
//! slicing, as JavaMOP's parametric monitors do): each key — the tuple of
//! the key fields' values — has its own run of every property, created at
//! the key's first event, and each property is checked on each key's
//! slice alone. A row where a key field is missing or empty is an error,
//! or, as [`Unkeyed`] says, sent to every slice (those known so far and
//! those created later, which first replay it) or skipped.
//!
//! The state of a key is one word per property (a state of its
//! deterministic monitor), its event count, its text (inline up to 23
//! bytes) and the last events of its slice for explanations, side by side
//! in one record so that an event touches few cache lines; the keys are
//! found by a table of slot numbers (8 bytes a bucket, at most three
//! quarters full), hashed with foldhash under a random seed (keys come
//! from logs, which an adversary may write). Read in chunks, a key's bucket
//! and record are fetched some events before its event is stepped. A
//! violation reports the line of the file, and its explanation draws on
//! that key's events only. With
//! [`KeyedOptions::explain_later`] a key keeps no events: the
//! explanations come from a second reading of the violating keys' events
//! ([`KeyedChecker::explain`]).
//!
//! ```
//! use monitor_core::trace::check::{Options, Property};
//! use monitor_core::trace::expr::Expr;
//! use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
//! use monitor_core::trace::reader::CsvReader;
//! use monitor_core::MonitorTable;
//!
//! // Every request of a session is answered at its next event.
//! let table = MonitorTable::from_ltl("G(req -> X ack)")?;
//! let p = Property::new("answered", table, vec![Expr::parse("req")?, Expr::parse("ack")?]);
//! let mut checker = KeyedChecker::new(vec![p], Options::default(), &["session"], KeyedOptions::default());
//! let log = "session,req,ack\ns1,1,0\ns2,1,0\ns1,0,1\ns2,0,0\n";
//! let report = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
//! assert_eq!(report.keys, 2);
//! let v = &report.violations[0];
//! assert_eq!((v.key.as_slice(), v.first.line), (&["s2".to_string()][..], Some(5)));
//! // The explanation shows the events of s2 only (lines 3 and 5).
//! let lines: Vec<_> = v.reports[0].recent.iter().map(|(p, _)| p.line).collect();
//! assert_eq!(lines, [Some(3), Some(5)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use foldhash::fast::RandomState;
use std::collections::hash_map::Entry;
use std::collections::HashSet;
use std::hash::BuildHasher;

use hashbrown::HashTable;
use rustc_hash::FxHashMap;

mod slots;
use slots::{prefetch, SlotTable};

use super::check::{
    atom_bit, cell_text, shown_pairs, Bound, Checker, Engine, Options, Property, ViolationReport,
};
use super::chunked::{line_reader, line_start, Chunking, LineCheck, LineFormat, LineLog};
use super::escape;
use super::expr::Cell;
use super::metric::Evaluator;
use super::reader::{Position, Reader, TraceError};
use super::time::{Clock, Time, TimeOrder, TimeSpec, Timed};
use crate::lazy::{RunStates, RunStep};
use crate::runtime::{Cursor, VIOLATION};
use crate::Verdict;

/// What to do with a row where a key field is missing or empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Unkeyed {
    /// Stop with an error naming the line (the default).
    #[default]
    Error,
    /// Send it to every key's slice: to the keys seen so far at once,
    /// and to each key seen later before its first event (the key's
    /// monitors replay the broadcast rows in order, as JavaMOP does for
    /// events that bind fewer parameters).
    Broadcast,
    /// Drop it.
    Skip,
}

/// How keys are handled.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KeyedOptions {
    /// Rows without a key.
    pub unkeyed: Unkeyed,
    /// At most this many live keys (keys whose monitors run); one more is
    /// an error. `None`: no limit.
    pub key_limit: Option<usize>,
    /// An event that closes its key: after it, the key's monitors are
    /// freed, and a later row of the same key starts a new slice (a new
    /// session of the same id).
    pub end_key: Option<super::expr::Expr>,
    /// Keep no events for explanations while checking: a key then costs
    /// its monitors' states and its text alone, and the violations of
    /// [`KeyedChecker::run`] come without explanations (`reports` empty),
    /// which [`KeyedChecker::explain`] adds by reading the trace (a file)
    /// again, as far as the last violation explained, following only the
    /// keys whose violations it explains. `false` (the default): one
    /// reading, each key keeping its last [`Options::context`] events.
    pub explain_later: bool,
}

/// A state that marks a run that is decided for its key (violated
/// without restarting, or satisfied for good): it steps no more.
const DONE: u32 = u32::MAX - 1;

/// The violations of one property on one key's slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyViolations {
    /// The key: the key fields' values, in the order of the fields.
    pub key: Vec<String>,
    /// The property (its index in the properties given).
    pub property: usize,
    /// Where its first violation happened (the line of the file).
    pub first: Position,
    /// How many violations (more than one only with [`Options::all`]).
    pub count: u64,
    /// The violations explained (see [`Options::max_reports`]: at most
    /// that many per property over all keys; their events are the key's).
    pub reports: Vec<ViolationReport>,
}

/// A property's outcome over all keys.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyedProperty {
    /// The property, as written.
    pub name: String,
    /// How many keys violated it.
    pub keys_violated: u64,
    /// How many keys satisfied it for good (three-valued monitors).
    pub keys_satisfied: u64,
    /// How many violations, over all keys.
    pub violation_count: u64,
}

/// The outcome of a keyed check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyedReport {
    /// The key fields.
    pub by: Vec<String>,
    /// Each property, in order.
    pub properties: Vec<KeyedProperty>,
    /// Each (key, property) that was violated, in the order of the first
    /// violations.
    pub violations: Vec<KeyViolations>,
    /// How many keys were seen (a key closed by
    /// [`KeyedOptions::end_key`] and seen again counts again).
    pub keys: u64,
    /// How many keys were live at the end (neither closed nor finished:
    /// some monitor of theirs could still be violated).
    pub live: u64,
    /// How many events were read (the rows of the file).
    pub events: u64,
    /// How many rows had no key (broadcast or skipped).
    pub unkeyed: u64,
    /// With times ([`KeyedChecker::set_time`]) and
    /// [`TimeOrder::Lenient`]: how many
    /// events' times went back (each taken at the latest time before it).
    pub late_events: u64,
}

/// A row without a key, kept to be replayed to the keys seen later.
struct Broadcast {
    at: Position,
    bits: Vec<u64>,
    /// The text of each field shown in explanations (`Keyed::shown`).
    values: Vec<String>,
    /// The texts of the fields shown with `set_show`.
    show: Vec<Option<String>>,
}

/// How many bytes of a key [`KeyBytes`] holds without an allocation.
const INLINE: usize = 22;

/// A key's bytes (its fields' values, each as a `u32` length then its
/// bytes): inline up to [`INLINE`] bytes, so that the hash map's bucket
/// holds the bytes a lookup compares (no pointer to follow, no
/// allocation per key), on the heap beyond.
#[derive(Clone)]
enum KeyBytes {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<[u8]>),
}

impl KeyBytes {
    fn new(key: &[u8]) -> KeyBytes {
        if key.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..key.len()].copy_from_slice(key);
            KeyBytes::Inline {
                len: key.len() as u8,
                bytes,
            }
        } else {
            KeyBytes::Heap(key.into())
        }
    }

    fn as_slice(&self) -> &[u8] {
        match self {
            KeyBytes::Inline { len, bytes } => &bytes[..*len as usize],
            KeyBytes::Heap(b) => b,
        }
    }
}

/// The per-key state, indexed by the key's slot (a slot is reused once
/// its key is freed).
struct Keys {
    /// The slot of each live key, found by the key's hash and text (in
    /// the slot's record, [`Keys::records`]).
    ids: SlotTable,
    /// The keys whose monitors can never report again: their rows are
    /// read and skipped, and they hold no slot.
    dead: HashTable<KeyBytes>,
    hasher: RandomState,
    /// The slots free for new keys.
    free: Vec<u32>,
    /// The instance of the key in each slot (a key closed by
    /// [`KeyedOptions::end_key`] and seen again is a new instance), or
    /// `u64::MAX` for a free slot.
    instance: Vec<u64>,
    /// The bytes of the keys longer than their record holds
    /// ([`key_words`]), by slot.
    long: FxHashMap<u32, Box<[u8]>>,
    /// How many slots hold a live key.
    live: usize,
    /// How many key instances were created.
    created: u64,
    /// Each slot's record, `stride` words: the number of events of the
    /// key's slice; the state of each property (a `u32` in a word); the
    /// key ([`key_words`], at `key_at`); then the last `keep` events of
    /// its slice, `(index, line)` then the atoms' bits (`words`) each, in
    /// a ring (at `ring_at`; the slot of event `e` is `e % keep`). The key
    /// is in its record so that an event's lookup and step read the same
    /// cache lines.
    records: Vec<u64>,
    /// The words of a record.
    stride: usize,
    /// Where the key and the ring are in a record.
    key_at: usize,
    ring_at: usize,
}

/// How many words of a record hold its key.
const KEY_WORDS: usize = 3;

/// The first byte of a key's words when the key is longer than they hold.
const LONG_KEY: u8 = u8::MAX;

/// A key as its record holds it: its length (or [`LONG_KEY`] beyond 23
/// bytes) in the first byte, then its first 23 bytes, zero padded. Equal
/// words are equal keys up to 23 bytes; longer keys are compared whole
/// ([`Keys::long`]).
#[inline]
fn key_words(key: &[u8]) -> [u64; KEY_WORDS] {
    let n = key.len().min(KEY_WORDS * 8 - 1);
    let mut words = [0u64; KEY_WORDS];
    words[0] = u64::from(if key.len() == n { n as u8 } else { LONG_KEY });
    // Byte `j` of the words (little-endian) is the key's byte `j - 1`:
    // eight bytes at a time, then the tail in at most three loads. (A
    // copy of `n` bytes into a buffer called memcpy at every lookup, a
    // tenth of the in-order time; a byte at a time took 30 instructions
    // for a 6-byte key.)
    let mut i = 0;
    while i + 8 <= n {
        let w = u64::from_le_bytes(key[i..i + 8].try_into().expect("eight bytes"));
        words[i / 8] |= w << 8;
        words[i / 8 + 1] |= w >> 56;
        i += 8;
    }
    let tail = &key[i..n];
    let t = match tail.len() {
        0 => 0,
        len @ 1..=3 => {
            // (The first, middle and last bytes: all of them, some twice.)
            u64::from(tail[0])
                | u64::from(tail[len / 2]) << (8 * (len / 2))
                | u64::from(tail[len - 1]) << (8 * (len - 1))
        }
        len => {
            // (Two overlapping four-byte loads: the bytes they share are
            // the same.)
            let lo = u32::from_le_bytes(tail[..4].try_into().expect("four bytes"));
            let hi = u32::from_le_bytes(tail[len - 4..].try_into().expect("four bytes"));
            u64::from(lo) | u64::from(hi) << (8 * (len - 4))
        }
    };
    // (The tail has at most 7 bytes and starts at byte `i + 1` of the
    // words, `i` a multiple of 8: it ends in word `i / 8`.)
    words[i / 8] |= t << 8;
    words
}

impl Keys {
    /// How many slots there are (live or free).
    fn slots(&self) -> usize {
        self.instance.len()
    }

    fn hash(&self, key: &[u8]) -> u64 {
        self.hasher.hash_one(key)
    }

    /// The slot of a live key (`words`: its [`key_words`]).
    #[inline]
    fn find_words(&self, hash: u64, key: &[u8], words: &[u64; KEY_WORDS]) -> Option<u32> {
        let long = words[0] as u8 == LONG_KEY;
        self.ids.find(hash, |k| {
            let at = k as usize * self.stride + self.key_at;
            self.records[at..at + KEY_WORDS] == *words
                && (!long || self.long.get(&k).is_some_and(|b| **b == *key))
        })
    }

    /// The bytes of the key in slot `k`.
    fn key(&self, k: u32) -> Vec<u8> {
        let at = k as usize * self.stride + self.key_at;
        let bytes: Vec<u8> = self.records[at..at + KEY_WORDS]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        match bytes[0] {
            LONG_KEY => self.long.get(&k).map_or_else(Vec::new, |b| b.to_vec()),
            n => bytes[1..1 + n as usize].to_vec(),
        }
    }

    /// Puts `key` in slot `k`'s record.
    fn set_key(&mut self, k: u32, key: &[u8]) {
        let words = key_words(key);
        let at = k as usize * self.stride + self.key_at;
        self.records[at..at + KEY_WORDS].copy_from_slice(&words);
        if words[0] as u8 == LONG_KEY {
            self.long.insert(k, key.into());
        }
    }

    /// Starts loading what a lookup of `hash` reads first: its bucket.
    fn prefetch_bucket(&self, hash: u64) {
        self.ids.prefetch(hash);
    }

    /// Starts loading what a lookup of `hash` and the step of its key
    /// read next (its bucket loaded already, by `prefetch_bucket` some
    /// events before): the key's bytes and its record.
    fn prefetch_record(&self, hash: u64) {
        let Some(k) = self.ids.peek(hash) else {
            return;
        };
        // The count, the states and the key (one or two cache lines).
        let record = k as usize * self.stride;
        for word in [record, record + self.key_at + KEY_WORDS - 1] {
            if let Some(w) = self.records.get(word) {
                prefetch(w);
            }
        }
    }

    /// Whether the key is dead (see [`Keys::dead`]).
    fn is_dead(&self, hash: u64, key: &[u8]) -> bool {
        self.dead.find(hash, |d| d.as_slice() == key).is_some()
    }

    /// Interns the key in slot `k`.
    fn insert(&mut self, hash: u64, k: u32) {
        self.ids.insert(hash, k);
    }

    /// Forgets the live key in slot `k` (its slot is freed by the caller).
    fn remove(&mut self, hash: u64, k: u32) {
        self.ids.remove(hash, k);
    }

    /// Forgets a dead key.
    fn remove_dead(&mut self, hash: u64, key: &[u8]) {
        if let Ok(e) = self.dead.find_entry(hash, |d| d.as_slice() == key) {
            e.remove();
        }
    }

    /// Makes the key in slot `k` dead (its slot is freed by the caller).
    fn kill(&mut self, hash: u64, k: u32) {
        self.remove(hash, k);
        let bytes = KeyBytes::new(&self.key(k));
        let hasher = &self.hasher;
        self.dead
            .insert_unique(hash, bytes, |d| hasher.hash_one(d.as_slice()));
    }
}

/// Runs properties on each key's slice of a trace (see the [module
/// documentation](self)).
pub struct KeyedChecker {
    checker: Checker,
    by: Vec<String>,
    options: KeyedOptions,
    keys: Keys,
    /// The rows without a key so far (with [`Unkeyed::Broadcast`]).
    broadcast: Vec<Broadcast>,
    /// The violations (none when counting only).
    violations: Vec<KeyViolations>,
    /// With [`Options::all`]: where each (key instance, property) violated
    /// is among `violations` (any index when counting only, where the
    /// entry says the key was counted). Without it a run is done at its
    /// violation, so that each (key instance, property) violates once and
    /// needs no entry.
    violated: FxHashMap<(u64, u32), usize>,
    /// Whether the report keeps the counts only
    /// ([`KeyedChecker::set_counts_only`]).
    counts_only: bool,
    /// Per property: how many (key instance, property) violated it, and
    /// how many violations.
    keys_violated: Vec<u64>,
    violation_count: Vec<u64>,
    /// Per property: whether each state of its monitor can never lead to
    /// a violation.
    safe: Vec<Vec<bool>>,
    /// Per property: its transitions as [`StepTable`] holds them, if its
    /// monitor is one it fits.
    steps: Vec<Option<StepTable>>,
    /// Per property: the violations explained, the keys satisfied.
    explained: Vec<usize>,
    satisfied: Vec<u64>,
    events: u64,
    unkeyed: u64,
    /// How many events each key keeps for explanations.
    keep: usize,
    /// How many `u64` words an event's atoms take.
    words: usize,
    /// The reader's ids of the fields explanations show (those the
    /// properties read), once each.
    shown: Vec<usize>,
    /// How many fields are shown with [`KeyedChecker::set_show`].
    show_count: usize,
    /// The texts of those fields at the events of each slot's ring
    /// (`keep * show_count` per slot, in the ring's order); empty when
    /// none is shown, so that keys cost nothing more then.
    show_ring: Vec<Option<String>>,
    /// While explaining ([`KeyedChecker::explain`]): the keys followed
    /// (their bytes as interned), and how many violations of each
    /// property are to be explained, after which the reading stops.
    only: Option<HashSet<Box<[u8]>>>,
    targets: Vec<usize>,
    /// Why a lazy monitor stopped at the event just stepped (a transition
    /// over the byte budget): the check stops with this error.
    stopped: Option<String>,
    /// The timed components of each key, if a property has some.
    timed: KeyTimed,
}

/// The past timed components of each key (`O[0:5s] p` checked per key):
/// a copy of each timed property's evaluator per slot, stepped on the
/// key's events only, at their times, before its runs step.
#[derive(Default)]
struct KeyTimed {
    /// The properties with timed components.
    properties: Vec<usize>,
    /// Each slot's evaluators, one per property of `properties` (a slot
    /// reused by a new key has them reset).
    evaluators: Vec<Vec<Evaluator>>,
    /// Scratch: an event's atoms, the key's components' values set.
    bits: Vec<u64>,
}

impl KeyedChecker {
    /// A checker of `properties` on each key of the fields `by` (JSON
    /// Lines: dotted paths).
    ///
    /// A lazy monitor ([`Engine::Lazy`]) runs every key of its property
    /// in its one cache, each key holding its state (see
    /// [`LazyMonitor::step_run`](crate::lazy::LazyMonitor::step_run)).
    ///
    /// # Panics
    ///
    /// If `by` is empty.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let checker = KeyedChecker::new(vec![p], Options::default(), &["user.id"], KeyedOptions::default());
    /// assert_eq!(checker.by(), ["user.id"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        properties: Vec<Property>,
        options: Options,
        by: &[&str],
        keyed: KeyedOptions,
    ) -> KeyedChecker {
        assert!(!by.is_empty(), "keyed checking needs a key field");
        let n = properties.len();
        let safe: Vec<Vec<bool>> = properties
            .iter()
            .map(|p| match &p.monitor {
                Engine::Eager(t) => never_violated(&t.table()),
                Engine::Lazy(_) => Vec::new(),
            })
            .collect();
        let steps = properties
            .iter()
            .zip(&safe)
            .map(|(p, safe): (&Property, &Vec<bool>)| match &p.monitor {
                Engine::Eager(t) => StepTable::new(&t.table(), safe),
                Engine::Lazy(_) => None,
            })
            .collect();
        let keep = if keyed.explain_later {
            0
        } else {
            options.context + 1
        };
        let checker = Checker::new(properties, options);
        KeyedChecker {
            checker,
            by: by.iter().map(|s| s.to_string()).collect(),
            options: keyed,
            keys: Keys {
                ids: SlotTable::default(),
                dead: HashTable::new(),
                hasher: RandomState::default(),
                free: Vec::new(),
                instance: Vec::new(),
                long: FxHashMap::default(),
                live: 0,
                created: 0,
                records: Vec::new(),
                stride: 0,
                key_at: 0,
                ring_at: 0,
            },
            broadcast: Vec::new(),
            violations: Vec::new(),
            violated: FxHashMap::default(),
            counts_only: false,
            keys_violated: vec![0; n],
            violation_count: vec![0; n],
            safe,
            steps,
            explained: vec![0; n],
            satisfied: vec![0; n],
            events: 0,
            unkeyed: 0,
            keep,
            words: 1,
            shown: Vec::new(),
            show_count: 0,
            show_ring: Vec::new(),
            only: None,
            targets: Vec::new(),
            stopped: None,
            timed: KeyTimed::default(),
        }
    }

    /// Shows the fields `show` at each event of the explanation of a
    /// violation, as [`Checker::set_show`] does; the events are the
    /// key's. Each live key then keeps the texts of these fields at its
    /// last events.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// checker.set_show(vec!["ts".into()]);
    /// let log = "ts,user,err\n10,ann,0\n11,bob,0\n12,ann,1\n";
    /// let report = checker.run(&mut CsvReader::new("log", log.as_bytes())?)?;
    /// let v = &report.violations[0].reports[0];
    /// // ann's events only: lines 2 and 4.
    /// let ts: Vec<_> = v.shown.iter().map(|f| f[0].1.clone().unwrap()).collect();
    /// assert_eq!(ts, ["10", "12"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_show(&mut self, show: Vec<String>) {
        self.checker.set_show(show);
    }

    /// Keeps the counts only: the report's `violations` stay empty (its
    /// properties' counts are the same), so that a violated key costs
    /// nothing once its monitors are done, as for `mongen check
    /// --summary`. The violations explained are still given to
    /// `on_violation` ([`KeyedChecker::run_reporting`]) as they happen.
    /// Off by default.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// checker.set_counts_only(true);
    /// let log = "user,err\nann,1\nbob,0\ncid,1\n";
    /// let report = checker.run(&mut CsvReader::new("log", log.as_bytes())?)?;
    /// assert_eq!((report.properties[0].keys_violated, report.violations.len()), (2, 0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_counts_only(&mut self, counts_only: bool) {
        self.counts_only = counts_only;
    }

    /// The key fields.
    ///
    /// ```
    /// use monitor_core::trace::check::Options;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    ///
    /// let checker = KeyedChecker::new(Vec::new(), Options::default(), &["host", "pid"], KeyedOptions::default());
    /// assert_eq!(checker.by(), ["host", "pid"]);
    /// ```
    pub fn by(&self) -> &[String] {
        &self.by
    }

    /// Checks one trace; every key starts afresh.
    ///
    /// # Errors
    ///
    /// Bad input (as [`Checker::run`]), an unknown key field, and, with
    /// [`Unkeyed::Error`], a row where a key field is missing or empty.
    /// [`KeyedChecker::report`] then gives the reports of the events
    /// before the error.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions, Unkeyed};
    /// use monitor_core::trace::reader::JsonlReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = || Property::new("G !err", MonitorTable::from_ltl("G !err").unwrap(), vec![Expr::parse("err").unwrap()]);
    /// let log = "{\"dev\": \"d1\", \"err\": false}\n{\"err\": true}\n{\"dev\": \"d2\", \"err\": false}\n";
    /// // A row without a key is an error...
    /// let mut checker = KeyedChecker::new(vec![p()], Options::default(), &["dev"], KeyedOptions::default());
    /// let e = checker.run(&mut JsonlReader::new("log", log.as_bytes())).unwrap_err();
    /// assert_eq!(e.at.as_deref(), Some("line 2"));
    /// // ... or is sent to every key: d1 reads it at once, d2 (seen later) first.
    /// let options = KeyedOptions { unkeyed: Unkeyed::Broadcast, ..KeyedOptions::default() };
    /// let mut checker = KeyedChecker::new(vec![p()], Options::default(), &["dev"], options);
    /// let report = checker.run(&mut JsonlReader::new("log", log.as_bytes()))?;
    /// let lines: Vec<_> = report.violations.iter().map(|v| (v.key[0].as_str(), v.first.line)).collect();
    /// assert_eq!(lines, [("d1", Some(2)), ("d2", Some(2))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<KeyedReport, TraceError> {
        self.run_reporting(reader, |_, _, _| {})
    }

    /// [`KeyedChecker::run`], calling `on_violation(key, property,
    /// violation)` as each violation explained happens (to follow a
    /// growing log).
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let mut seen = Vec::new();
    /// let log = "user,err\nann,0\nbob,1\n";
    /// checker.run_reporting(&mut CsvReader::new("log", log.as_bytes())?, |key, _, v| {
    ///     seen.push((key.to_vec(), v.at.line))
    /// })?;
    /// assert_eq!(seen, [(vec!["bob".to_string()], Some(3))]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_reporting<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        on_violation: impl FnMut(&[String], &str, &ViolationReport),
    ) -> Result<KeyedReport, TraceError> {
        self.read_reporting(reader, on_violation)?;
        Ok(self.report())
    }

    /// [`KeyedChecker::run_reporting`] without a copy of the report: the
    /// checker keeps it, for [`KeyedChecker::take_report`] to take (a
    /// report of many violating keys is then held once, not twice) or
    /// [`KeyedChecker::report`] to copy.
    ///
    /// # Errors
    ///
    /// As [`KeyedChecker::run`].
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let log = "user,err\nann,0\nbob,1\n";
    /// checker.read_reporting(&mut CsvReader::new("log", log.as_bytes())?, |_, _, _| {})?;
    /// let report = checker.take_report();
    /// assert_eq!(report.violations[0].key, ["bob"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_reporting<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        mut on_violation: impl FnMut(&[String], &str, &ViolationReport),
    ) -> Result<(), TraceError> {
        self.begin();
        let binding = self.bind(reader)?;
        self.feed(reader, &binding, &mut on_violation)
    }

    /// [`KeyedChecker::run`] on a log of lines (CSV, JSON Lines) read from
    /// `input`, in chunks on rayon's pool: each chunk's keys are read and
    /// hashed and its events' atoms evaluated on any core, then the keys'
    /// monitors are stepped in order. The report, errors included, is that
    /// of [`KeyedChecker::run`] (one pass) on the same log; the parts a
    /// chunk cannot settle by itself (a row without a key under
    /// [`Unkeyed::Error`], a new key over the limit, an event that cannot
    /// be read or evaluated, and a CSV log with quotes, as in
    /// [`check_lines`](super::chunked::check_lines)) are read in one pass.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::chunked::{Chunking, LineFormat};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let table = MonitorTable::from_ltl("G(resp -> Y req)")?;
    /// // (The propositions in the table's order.)
    /// let bindings = (0..2).map(|i| Expr::parse(table.table().proposition(i))).collect::<Result<_, _>>()?;
    /// let p = Property::new("answered", table, bindings);
    /// let mut log = String::from("session,req,resp\n");
    /// for i in 0..10_000 {
    ///     let s = i % 100;
    ///     log.push_str(&format!("s{s},{},{}\n", (i / 100 + 1) % 2, (i / 100) % 2));
    /// }
    /// log.push_str("s7,0,1\n"); // s7 answers no request
    /// let by = ["session"];
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &by, KeyedOptions::default());
    /// let chunked = checker.run_lines(LineFormat::Csv, "log.csv", log.as_bytes(), Chunking::Bytes(4096))?;
    /// assert_eq!(chunked.violations[0].key, ["s7"]);
    /// assert_eq!(chunked.violations[0].first.line, Some(10_002));
    /// // The report of one pass.
    /// let whole = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(chunked, whole);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_lines<R: std::io::Read>(
        &mut self,
        format: LineFormat,
        source: &str,
        input: R,
        chunking: Chunking,
    ) -> Result<KeyedReport, TraceError> {
        self.run_lines_reporting(format, source, input, chunking, |_, _, _| {})
    }

    /// [`KeyedChecker::run_lines`], calling `on_violation(key, property,
    /// violation)` for each violation explained, in order (after the
    /// chunk it is in is checked).
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::chunked::{Chunking, LineFormat};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let log = "{\"user\": \"ann\", \"err\": false}\n{\"user\": \"bob\", \"err\": true}\n";
    /// let mut seen = Vec::new();
    /// checker.run_lines_reporting(LineFormat::Jsonl, "log", log.as_bytes(), Chunking::Lines(1), |key, _, v| {
    ///     seen.push((key.to_vec(), v.at.line, v.values.clone()))
    /// })?;
    /// assert_eq!(seen, [(vec!["bob".to_string()], Some(2), vec![("err".to_string(), "true".to_string())])]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_lines_reporting<R: std::io::Read>(
        &mut self,
        format: LineFormat,
        source: &str,
        input: R,
        chunking: Chunking,
        on_violation: impl FnMut(&[String], &str, &ViolationReport),
    ) -> Result<KeyedReport, TraceError> {
        self.read_lines_reporting(format, source, input, chunking, on_violation)?;
        Ok(self.report())
    }

    /// [`KeyedChecker::run_lines_reporting`] without a copy of the report:
    /// the checker keeps it, for [`KeyedChecker::take_report`] to take or
    /// [`KeyedChecker::report`] to copy (as
    /// [`KeyedChecker::read_reporting`]).
    ///
    /// # Errors
    ///
    /// As [`KeyedChecker::run_lines`].
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::chunked::{Chunking, LineFormat};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let log = "{\"user\": \"ann\", \"err\": true}\n{\"user\": \"bob\", \"err\": false}\n";
    /// checker.read_lines_reporting(LineFormat::Jsonl, "log", log.as_bytes(), Chunking::Lines(1), |_, _, _| {})?;
    /// let report = checker.take_report();
    /// assert_eq!((report.keys, report.violations[0].key[0].as_str()), (2, "ann"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_lines_reporting<R: std::io::Read>(
        &mut self,
        format: LineFormat,
        source: &str,
        input: R,
        chunking: Chunking,
        mut on_violation: impl FnMut(&[String], &str, &ViolationReport),
    ) -> Result<(), TraceError> {
        self.begin();
        let log = LineLog::open(format, source, input)?;
        let binding = self.bind(&mut *log.reader(&[], 0, log.line()))?;
        let shared = KeyedShared {
            binding,
            by: self.by.clone(),
            hasher: self.keys.hasher.clone(),
            unkeyed: self.options.unkeyed,
            shown: self.shown.clone(),
            spare: Default::default(),
        };
        let mut lines = KeyedLines {
            line: log.line(),
            headers: log.headers().to_vec(),
            checker: self,
            shared: std::sync::Arc::new(shared),
            on_violation: &mut on_violation,
            index: 0,
            format,
            source: source.to_string(),
        };
        log.check(&mut lines, chunking)
    }

    /// Binds the properties, the key fields and `end_key` to the fields
    /// of `reader`, and sizes the keys' records.
    fn bind<R: Reader + ?Sized>(&mut self, reader: &mut R) -> Result<KeyedBinding, TraceError> {
        let bound = self.checker.bind(reader)?;
        if let Some(r) = self.checker.runs().iter().find(|r| r.looks_ahead()) {
            // (A key's deadlines would need their own delayed letters.)
            return Err(TraceError {
                source: reader.source().to_string(),
                at: None,
                message: format!(
                    "`{}` looks ahead in time (`F`, `G` or `U` with units), which is not \
                     supported with keys (--by) yet; past time bounds (`O`, `H`, `S`) are",
                    escape(&r.report.property)
                ),
            });
        }
        self.timed.properties = (0..self.checker.runs().len())
            .filter(|&p| self.checker.runs()[p].past_timed().is_some())
            .collect();
        self.timed.evaluators.clear();
        // The fields resolved after the properties', in order (resolved
        // again, in the same order, by each reader of a piece of the same
        // trace, so that their ids are the same).
        let mut replay = Vec::new();
        let mut key_ids = Vec::with_capacity(self.by.len());
        for f in &self.by {
            replay.push(f.clone());
            let id = reader.resolve(f).map_err(|m| TraceError {
                source: reader.source().to_string(),
                at: None,
                message: format!("--by {f}: {m}"),
            })?;
            key_ids.push(id);
        }
        let mut end_key = self.options.end_key.clone();
        if let Some(e) = &mut end_key {
            e.resolve(&mut |f| {
                replay.push(f.to_string());
                reader.resolve(f)
            })
            .map_err(|m| TraceError {
                source: reader.source().to_string(),
                at: None,
                message: format!("--end-key: {m}"),
            })?;
        }
        self.words = bound.words;
        self.keys.key_at = 1 + self.checker.runs().len();
        self.keys.ring_at = self.keys.key_at + KEY_WORDS;
        self.keys.stride = self.keys.ring_at + self.keep * (2 + self.words);
        self.show_count = bound.show.len();
        self.show_ring.clear();
        self.shown.clear();
        for r in self.checker.runs() {
            for &(_, id) in &r.fields {
                if !self.shown.contains(&id) {
                    self.shown.push(id);
                }
            }
        }
        Ok(KeyedBinding {
            bound,
            key_ids,
            end_key,
            replay,
        })
    }

    fn begin(&mut self) {
        self.timed.evaluators.clear();
        self.keys.ids.clear();
        self.keys.dead.clear();
        self.keys.free.clear();
        self.keys.instance.clear();
        self.keys.long.clear();
        self.keys.live = 0;
        self.keys.created = 0;
        self.keys.records.clear();
        self.broadcast.clear();
        self.violations.clear();
        self.violated.clear();
        self.keys_violated.iter_mut().for_each(|e| *e = 0);
        self.violation_count.iter_mut().for_each(|e| *e = 0);
        self.explained.iter_mut().for_each(|e| *e = 0);
        self.satisfied.iter_mut().for_each(|e| *e = 0);
        self.events = 0;
        self.unkeyed = 0;
        self.checker.clock = Clock::default();
    }

    /// Reads each event's time, as [`Checker::set_time`] does: the
    /// violations' positions have it. A log of lines is still read in
    /// chunks ([`KeyedChecker::run_lines`]): each chunk's times are read
    /// on any core, and ordered as its events are applied, in order.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::trace::time::{TimeOrder, TimeSpec};
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// checker.set_time(Some(TimeSpec::parse("ts")?), TimeOrder::Lenient);
    /// let log = "ts,user,err\n5,ann,0\n4,bob,1\n";
    /// let report = checker.run(&mut CsvReader::new("log", log.as_bytes())?)?;
    /// let at = report.violations[0].reports[0].at.timestamp.unwrap();
    /// assert_eq!((at.to_string(), report.late_events), ("5".to_string(), 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn set_time(&mut self, time: Option<TimeSpec>, order: TimeOrder) {
        self.checker.set_time(time, order);
    }

    fn feed<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        binding: &KeyedBinding,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> Result<(), TraceError> {
        let Some(field) = binding.bound.time else {
            return self.feed_events(reader, binding, on_violation);
        };
        // The clock goes on from where it is (chunks read in one pass one
        // after the other).
        let mut clock = self.checker.clock;
        let mut timed = Timed {
            inner: reader,
            clock: &mut clock,
            field,
            now: None,
        };
        let fed = self.feed_events(&mut timed, binding, on_violation);
        self.checker.clock = clock;
        fed
    }

    /// [`KeyedChecker::feed`], the times (if any) read by `reader`.
    fn feed_events<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        binding: &KeyedBinding,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> Result<(), TraceError> {
        let KeyedBinding {
            bound,
            key_ids,
            end_key,
            ..
        } = binding;
        let mut bits = vec![0u64; bound.words];
        let mut key: Vec<u8> = Vec::new();
        let shown = self.shown.clone();
        // The texts of the fields shown at the current event.
        let mut show: Vec<Option<String>> = Vec::new();
        while !self.explained_all() && reader.advance()? {
            self.events += 1;
            key.clear();
            if let Err(why) = read_key(&*reader, &self.by, key_ids, &mut key) {
                match self.options.unkeyed {
                    Unkeyed::Error => {
                        self.events -= 1;
                        return Err(reader.error_here(unkeyed_error(&why)));
                    }
                    Unkeyed::Skip => {
                        self.unkeyed += 1;
                        continue;
                    }
                    Unkeyed::Broadcast => {
                        if let Err(e) = bound.eval(reader, &mut bits) {
                            self.events -= 1;
                            return Err(e);
                        }
                        self.unkeyed += 1;
                        let values: Vec<String> =
                            shown.iter().map(|&id| cell_text(reader.cell(id))).collect();
                        bound.shown_values(&*reader, &mut show);
                        let at = reader.position();
                        if let Some(m) = self.broadcast_row(at, &bits, values, &show, on_violation)
                        {
                            return Err(reader.error_here(m));
                        }
                        continue;
                    }
                }
            }
            if self
                .only
                .as_ref()
                .is_some_and(|only| !only.contains(key.as_slice()))
            {
                continue;
            }
            if let Err(e) = bound.eval(reader, &mut bits) {
                self.events -= 1;
                return Err(e);
            }
            let hash = self.keys.hash(&key);
            let k = match self.lookup(hash, &key, on_violation) {
                Ok(k) => k,
                Err(message) => {
                    self.events -= 1;
                    return Err(reader.error_here(message));
                }
            };
            let ends = match end_key {
                Some(e) => bound.value(e, &*reader).map_err(|m| {
                    self.events -= 1;
                    reader.error_here(format!("--end-key: {m}"))
                })?,
                None => false,
            };
            if let Some(k) = k {
                let at = reader.position();
                let values = |i: usize| cell_text(reader.cell(shown[i]));
                if self.show_count > 0 {
                    bound.shown_values(&*reader, &mut show);
                    self.keep_shown(k, &show);
                }
                let finished = self.step(k, &at, &bits, &values, on_violation);
                if let Some(m) = self.take_stopped() {
                    return Err(reader.error_here(m));
                }
                self.after_event(Some((k, finished)), hash, &key, ends);
            } else {
                self.after_event(None, hash, &key, ends);
            }
        }
        Ok(())
    }

    /// Sends a row without a key to every live key, and keeps it for the
    /// keys seen later (`values`: the texts of the fields `shown`; `show`:
    /// those of the fields shown with `set_show`); or why a lazy monitor
    /// stopped at it.
    fn broadcast_row(
        &mut self,
        at: Position,
        bits: &[u64],
        values: Vec<String>,
        show: &[Option<String>],
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> Option<String> {
        for k in 0..self.keys.slots() as u32 {
            if self.keys.instance[k as usize] != u64::MAX {
                let values = |i: usize| values[i].clone();
                self.keep_shown(k, show);
                self.step(k, &at, bits, &values, on_violation);
            }
        }
        if let Some(m) = self.take_stopped() {
            return Some(m);
        }
        self.broadcast.push(Broadcast {
            at,
            bits: bits.to_vec(),
            values,
            show: show.to_vec(),
        });
        None
    }

    /// The slot of the key `key` (its hash `hash`): a live key's, a new
    /// one's (its runs started), or `None` for a dead key; or the error
    /// of a new key beyond [`KeyedOptions::key_limit`] (nothing changed).
    fn lookup(
        &mut self,
        hash: u64,
        key: &[u8],
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> Result<Option<u32>, String> {
        self.lookup_words(hash, key, &key_words(key), on_violation)
    }

    /// [`KeyedChecker::lookup`], the key's words ([`key_words`]) known
    /// (worked out by a chunk's digest, on any core).
    #[inline]
    fn lookup_words(
        &mut self,
        hash: u64,
        key: &[u8],
        words: &[u64; KEY_WORDS],
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> Result<Option<u32>, String> {
        if let Some(k) = self.keys.find_words(hash, key, words) {
            return Ok(Some(k));
        }
        if self.keys.is_dead(hash, key) {
            return Ok(None);
        }
        if let Some(limit) = self.options.key_limit {
            if self.keys.live >= limit {
                return Err(format!(
                    "a new key, and {limit} keys are live already (--key-limit {limit}): \
                     raise the limit, or free keys with --end-key"
                ));
            }
        }
        Ok(Some(self.new_key(hash, key, on_violation)))
    }

    /// After the event of key `key` (in slot `k`, `None` if dead): frees
    /// the key if the event ends it, or if its monitors can never report
    /// again.
    #[inline]
    fn after_event(&mut self, k: Option<(u32, bool)>, hash: u64, key: &[u8], ends: bool) {
        match k {
            Some((k, _)) if ends => {
                self.keys.remove(hash, k);
                self.free(k);
            }
            // (A dead key is forgotten too: its next row starts anew.)
            None if ends => self.keys.remove_dead(hash, key),
            Some((k, true)) => {
                // Its monitors can never report again: only the key
                // stays, so that its later rows are not taken for a
                // new key.
                self.keys.kill(hash, k);
                self.free(k);
            }
            _ => {}
        }
    }

    /// Interns a new key: its runs start, and replay the rows broadcast
    /// so far.
    fn new_key(
        &mut self,
        hash: u64,
        key: &[u8],
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> u32 {
        let n = self.checker.runs().len();
        let stride = self.keys.stride;
        let k = match self.keys.free.pop() {
            Some(k) => {
                // No events, every run in its initial state (the ring's
                // old entries are never read: there are no events).
                let r = k as usize * stride;
                self.keys.records[r..r + 1 + n].fill(0);
                if let Some(evaluators) = self.timed.evaluators.get_mut(k as usize) {
                    evaluators.iter_mut().for_each(Evaluator::reset);
                }
                k
            }
            None => {
                let k = self.keys.slots() as u32;
                if !self.timed.properties.is_empty() {
                    let runs = self.checker.runs();
                    let fresh = self
                        .timed
                        .properties
                        .iter()
                        .map(|&p| {
                            let t = runs[p]
                                .past_timed()
                                .expect("a property with past components");
                            let mut e = t.evaluator.clone();
                            e.reset();
                            e
                        })
                        .collect();
                    self.timed.evaluators.push(fresh);
                }
                self.keys.records.extend(std::iter::repeat_n(0, stride));
                self.show_ring
                    .resize((k as usize + 1) * self.keep * self.show_count, None);
                self.keys.instance.push(0);
                k
            }
        };
        self.keys.set_key(k, key);
        self.keys.insert(hash, k);
        self.keys.instance[k as usize] = self.keys.created;
        self.keys.created += 1;
        self.keys.live += 1;
        let broadcast = std::mem::take(&mut self.broadcast);
        for b in &broadcast {
            let values = |i: usize| b.values[i].clone();
            self.keep_shown(k, &b.show);
            self.step(k, &b.at, &b.bits, &values, on_violation);
        }
        self.broadcast = broadcast;
        k
    }

    /// Whether no monitor of the key in slot `k` can report again.
    fn finished(&self, k: u32) -> bool {
        let n = self.checker.runs().len();
        let r = k as usize * self.keys.stride + 1;
        let states = &self.keys.records[r..r + n];
        states.iter().zip(&self.safe).all(|(&s, safe)| {
            let s = s as u32;
            s == DONE || safe.get(s as usize) == Some(&true)
        })
    }

    /// Frees slot `k`.
    fn free(&mut self, k: u32) {
        self.keys.instance[k as usize] = u64::MAX;
        self.keys.long.remove(&k);
        self.keys.free.push(k);
        self.keys.live -= 1;
    }

    /// Keeps `show`, the texts of the fields shown with `set_show` at the
    /// event key `k` is about to step on, in the slot of its ring that
    /// [`KeyedChecker::step`] gives the event (apart from `step`, which
    /// stays as lean as without shown fields).
    fn keep_shown(&mut self, k: u32, show: &[Option<String>]) {
        let c = self.show_count;
        if c == 0 || self.keep == 0 {
            return;
        }
        let n_events = self.keys.records[k as usize * self.keys.stride];
        let at = (k as usize * self.keep + (n_events % self.keep as u64) as usize) * c;
        self.show_ring[at..at + c].clone_from_slice(show);
    }

    /// Steps the runs of key `k` on the event at `at` whose atoms are
    /// `bits`; `values(i)` is the text of field `shown[i]` there.
    fn step(
        &mut self,
        k: u32,
        at: &Position,
        bits: &[u64],
        values: &dyn Fn(usize) -> String,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> bool {
        if self.timed.properties.is_empty() {
            return self.step_letters(k, at, bits, values, on_violation);
        }
        // The key's timed components step on its event, at its time (the
        // checker reads times when a property is timed: `bind` made sure).
        let mut timed_bits = std::mem::take(&mut self.timed.bits);
        timed_bits.clear();
        timed_bits.extend_from_slice(bits);
        let now = at.timestamp.map_or(0, |t| t.nanos);
        let runs = self.checker.runs();
        let evaluators = &mut self.timed.evaluators[k as usize];
        for (&p, evaluator) in self.timed.properties.iter().zip(evaluators) {
            let t = runs[p]
                .past_timed()
                .expect("a property with past components");
            t.step(evaluator, now, &mut timed_bits);
        }
        let finished = self.step_letters(k, at, &timed_bits, values, on_violation);
        self.timed.bits = timed_bits;
        finished
    }

    /// [`KeyedChecker::step`], the timed components' atoms set in `bits`.
    fn step_letters(
        &mut self,
        k: u32,
        at: &Position,
        bits: &[u64],
        values: &dyn Fn(usize) -> String,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) -> bool {
        let n = self.checker.runs().len();
        let record = k as usize * self.keys.stride;
        let states = record + 1;
        // Whether no monitor of the key can report again (each done, or
        // in a state from which no violation is reachable), found as they
        // step, their states at hand.
        let mut finished = true;
        // The event joins the key's recent events.
        let n_events = self.keys.records[record];
        if self.keep > 0 {
            let entry_words = 2 + self.words;
            let slot =
                record + self.keys.ring_at + (n_events % self.keep as u64) as usize * entry_words;
            let entry = &mut self.keys.records[slot..slot + entry_words];
            entry[0] = at.index;
            entry[1] = at.line.unwrap_or(u64::MAX);
            entry[2..].copy_from_slice(bits);
        }
        self.keys.records[record] = n_events + 1;
        for p in 0..n {
            let s = self.keys.records[states + p] as u32;
            if s == DONE {
                continue;
            }
            let r = &self.checker.runs()[p];
            if let Some(st) = &self.steps[p] {
                let v = st.next(s, r.letter(bits));
                let next = if v == VIOLATION {
                    self.violation(k, p, s, VIOLATION, at, values, on_violation);
                    let next = if self.checker.options().all { 0 } else { DONE };
                    finished &= next == DONE || self.safe[p].get(next as usize) == Some(&true);
                    next
                } else if v == DONE {
                    self.satisfied[p] += 1;
                    DONE
                } else {
                    finished &= v & SAFE_STATE != 0;
                    v & !SAFE_STATE
                };
                self.keys.records[states + p] = next.into();
                continue;
            }
            let Some(table) = r.table().map(|t| t.table()) else {
                self.step_lazy(k, p, s, at, bits, values, on_violation);
                // (A lazy monitor knows no safe states: finished once done.)
                finished &= self.keys.records[states + p] as u32 == DONE;
                continue;
            };
            let target = if r.atoms.len() <= 64 {
                table.next(s, r.letter(bits))
            } else {
                let wide: Vec<bool> = r.atoms.iter().map(|&a| atom_bit(bits, a) == 1).collect();
                table.next_with(s, wide.as_slice())
            };
            let next = if target == VIOLATION {
                self.violation(k, p, s, VIOLATION, at, values, on_violation);
                if self.checker.options().all {
                    0
                } else {
                    DONE
                }
            } else if table.verdicts.get(target as usize) == Some(&Verdict::Satisfied) {
                self.satisfied[p] += 1;
                DONE
            } else {
                target
            };
            self.keys.records[states + p] = next.into();
            finished &= next == DONE || self.safe[p].get(next as usize) == Some(&true);
        }
        debug_assert_eq!(finished, self.finished(k));
        finished
    }

    /// Records the violation of property `p` by key `k` from state `from`
    /// (to [`VIOLATION`], or, for a lazy monitor, to its violating state
    /// `to`).
    #[allow(clippy::too_many_arguments)]
    fn violation(
        &mut self,
        k: u32,
        p: usize,
        from: u32,
        to: u32,
        at: &Position,
        values: &dyn Fn(usize) -> String,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) {
        self.violation_count[p] += 1;
        let instance = self.keys.instance[k as usize];
        let seen = if self.checker.options().all {
            match self.violated.entry((instance, p as u32)) {
                Entry::Occupied(e) => Some(*e.get()),
                Entry::Vacant(e) => {
                    e.insert(self.violations.len());
                    None
                }
            }
        } else {
            None
        };
        let i = match seen {
            Some(i) => (!self.counts_only).then_some(i),
            None => {
                self.keys_violated[p] += 1;
                (!self.counts_only).then(|| {
                    self.violations.push(KeyViolations {
                        key: decode_key(&self.keys.key(k)),
                        property: p,
                        first: at.clone(),
                        count: 0,
                        reports: Vec::new(),
                    });
                    self.violations.len() - 1
                })
            }
        };
        if let Some(i) = i {
            self.violations[i].count += 1;
        }
        // (A key's violations explained are at most `max_reports` with
        // `all`, one without: the budget of the property bounds them.)
        if self.keep == 0 || self.explained[p] >= self.explanation_budget() {
            // (Without kept events, explained by a second reading.)
            return;
        }
        self.explained[p] += 1;
        let (explanation, after, letters) = self.explain_transition(k, p, from, to);
        let r = &self.checker.runs()[p];
        let shown_values = r
            .fields
            .iter()
            .map(|(name, id)| {
                let i = self.shown.iter().position(|s| s == id).expect("shown");
                (name.clone(), values(i))
            })
            .collect();
        // The key's recent events, oldest first (the violating one last).
        let record = k as usize * self.keys.stride;
        let ring = record + self.keys.ring_at;
        let entry_words = 2 + self.words;
        let count = self.keys.records[record];
        let len = count.min(self.keep as u64);
        let recent = (count - len..count)
            .map(|e| {
                let slot = ring + (e % self.keep as u64) as usize * entry_words;
                let entry = &self.keys.records[slot..slot + entry_words];
                let pos = Position {
                    index: entry[0],
                    line: (entry[1] != u64::MAX).then_some(entry[1]),
                    time: None,
                    timestamp: None,
                };
                let held: Vec<String> = r
                    .atoms
                    .iter()
                    .enumerate()
                    .filter(|&(_, &a)| atom_bit(&entry[2..], a) == 1)
                    .map(|(b, _)| r.monitor.proposition(b).to_string())
                    .collect();
                (pos, held)
            })
            .collect();
        let show = self.checker.show();
        let c = self.show_count;
        let shown = if c == 0 {
            Vec::new()
        } else {
            (count - len..count)
                .map(|e| {
                    let at = (k as usize * self.keep + (e % self.keep as u64) as usize) * c;
                    shown_pairs(show, &self.show_ring[at..at + c])
                })
                .collect()
        };
        let v = ViolationReport {
            at: at.clone(),
            explanation,
            after,
            letters,
            values: shown_values,
            recent,
            shown,
        };
        match i {
            Some(i) => {
                on_violation(&self.violations[i].key, &r.report.property, &v);
                self.violations[i].reports.push(v);
            }
            None => {
                let key = decode_key(&self.keys.key(k));
                on_violation(&key, &r.report.property, &v);
            }
        }
    }

    /// Steps the run of lazy property `p` of key `k`, in state `from`, on
    /// the event at `at` (see [`KeyedChecker::step`]): the key's state is
    /// a state of the monitor's cache, which every key of the property
    /// shares, and which renumbers the live keys' states when it empties.
    /// (Apart from `step`, which stays as lean for eager monitors.)
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn step_lazy(
        &mut self,
        k: u32,
        p: usize,
        from: u32,
        at: &Position,
        bits: &[u64],
        values: &dyn Fn(usize) -> String,
        on_violation: &mut dyn FnMut(&[String], &str, &ViolationReport),
    ) {
        let stride = self.keys.stride;
        let slot = k as usize * stride + 1 + p;
        let KeyedChecker { checker, keys, .. } = self;
        let r = &mut checker.runs_mut()[p];
        let letter = r.letter(bits);
        let Engine::Lazy(m) = &mut r.monitor else {
            unreachable!("an eager run steps through its table")
        };
        let mut live = LiveRuns {
            records: &mut keys.records,
            instance: &keys.instance,
            stride,
            offset: 1 + p,
        };
        let Some(step) = m.step_run(from, letter, &mut live) else {
            let e = m.error().expect("a stopped monitor's error");
            self.stopped = Some(format!(
                "the lazy monitor of `{}` stopped: {e} for one transition (raise --max-memory)",
                r.report.property
            ));
            return;
        };
        if m.inexact_from().is_some() && r.report.inexact_at.is_none() {
            r.report.inexact_at = Some(at.clone());
        }
        match step.verdict {
            Verdict::Violated => {
                self.violation(k, p, step.from, step.to, at, values, on_violation);
                self.keys.records[slot] = if self.checker.options().all { 0 } else { DONE }.into();
            }
            Verdict::Satisfied => {
                self.keys.records[slot] = DONE.into();
                self.satisfied[p] += 1;
            }
            // A state no continuation violates: the run stops (so that
            // the key can be dropped, as with eager monitors).
            Verdict::Undecided if m.never_violated(step.to) => {
                self.keys.records[slot] = DONE.into();
            }
            Verdict::Undecided => self.keys.records[slot] = step.to.into(),
        }
    }

    /// The explanation, the word after and the violating letters of the
    /// violation of property `p` by key `k`, from state `from` to `to`.
    fn explain_transition(
        &mut self,
        k: u32,
        p: usize,
        from: u32,
        to: u32,
    ) -> (String, String, String) {
        let stride = self.keys.stride;
        let KeyedChecker { checker, keys, .. } = self;
        // The violating event's index in the key's slice.
        let position = keys.records[k as usize * stride].saturating_sub(1);
        match &mut checker.runs_mut()[p].monitor {
            Engine::Eager(table) => {
                let table = table.table();
                let mut cursor = Cursor::new();
                cursor.enter(&table, from);
                cursor.enter(&table, VIOLATION);
                let why = cursor.violation(&table).expect("violated");
                (
                    why.to_string(),
                    why.after.to_string(),
                    why.letters.to_string(),
                )
            }
            Engine::Lazy(m) => {
                let step = RunStep {
                    from,
                    to,
                    verdict: Verdict::Violated,
                };
                let mut live = LiveRuns {
                    records: &mut keys.records,
                    instance: &keys.instance,
                    stride,
                    offset: 1 + p,
                };
                let why = m.explain_run(step, position, &mut live);
                (why.to_string(), String::new(), why.letters)
            }
        }
    }

    /// Lazy monitors: per property, what its monitor built, over every
    /// key (`None` for a monitor built whole).
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    ///
    /// let m = LazyMonitor::from_ltl("G(req -> X ack)")?;
    /// let p = Property::lazy("answered", m, vec![Expr::parse("req")?, Expr::parse("ack")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["s"], KeyedOptions::default());
    /// let log = "s,req,ack\ns1,1,0\ns2,1,0\ns1,0,1\ns2,0,0\n";
    /// let report = checker.run(&mut CsvReader::new("log.csv", log.as_bytes())?)?;
    /// assert_eq!(report.violations[0].first.line, Some(5));
    /// // One automaton for both keys: the start state, the one after
    /// // `req`, and the violation.
    /// assert_eq!(checker.lazy_stats()[0].unwrap().states_built, 3);
    /// assert_eq!(checker.inexact_at()[0], None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn lazy_stats(&self) -> Vec<Option<crate::lazy::LazyStats>> {
        self.checker
            .runs()
            .iter()
            .map(|r| match &r.monitor {
                Engine::Lazy(m) => Some(m.stats()),
                Engine::Eager(_) => None,
            })
            .collect()
    }

    /// Lazy monitors: per property, the first event (of any key) from
    /// which its verdicts may be informative rather than exact (a search
    /// for an exact verdict went over the state limit there: the monitor,
    /// shared by the keys, reports violations from then on at their first
    /// informative bad prefix, never wrongly, never sooner than the exact
    /// monitor); `None` while they are exact, and for monitors built whole.
    ///
    /// ```
    /// use monitor_core::lazy::LazyMonitor;
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    ///
    /// let m = LazyMonitor::from_ltl("G !err")?;
    /// let p = Property::lazy("G !err", m, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["s"], KeyedOptions::default());
    /// checker.run(&mut CsvReader::new("log.csv", "s,err\ns1,0\n".as_bytes())?)?;
    /// assert_eq!(checker.inexact_at(), [None]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn inexact_at(&self) -> Vec<Option<Position>> {
        self.checker
            .runs()
            .iter()
            .map(|r| r.report.inexact_at.clone())
            .collect()
    }

    /// Why a lazy monitor stopped at the event just stepped, if one did
    /// (taken: reported once).
    fn take_stopped(&mut self) -> Option<String> {
        self.stopped.take()
    }

    /// How many violations of each property are explained, over all keys:
    /// `max_reports` (at least one without [`Options::all`]).
    fn explanation_budget(&self) -> usize {
        let options = self.checker.options();
        if options.all {
            options.max_reports
        } else {
            options.max_reports.max(1)
        }
    }

    /// Whether, while explaining, every violation to be explained has
    /// been.
    fn explained_all(&self) -> bool {
        self.only.is_some()
            && self
                .explained
                .iter()
                .zip(&self.targets)
                .all(|(e, t)| e >= t)
    }

    /// Adds the explanations to `report`, the report of
    /// [`KeyedChecker::run`] with [`KeyedOptions::explain_later`] on the
    /// trace that `reader` reads again from its start: the trace is read
    /// as far as the last violation to be explained, and only the events
    /// of the keys whose violations are explained are followed (each
    /// keeping its last events), so that the explanations are those one
    /// reading with kept events gives. Afterwards [`KeyedChecker::report`] is the report of
    /// this second reading.
    ///
    /// # Errors
    ///
    /// As [`KeyedChecker::run`] (the trace changed since, or cannot be
    /// read again); the violations explained before the error keep their
    /// explanations.
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let options = KeyedOptions { explain_later: true, ..KeyedOptions::default() };
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], options);
    /// let log = "user,err\nann,0\nbob,0\nann,1\n";
    /// let mut report = checker.run(&mut CsvReader::new("log", log.as_bytes())?)?;
    /// assert!(report.violations[0].reports.is_empty());
    /// checker.explain(&mut CsvReader::new("log", log.as_bytes())?, &mut report)?;
    /// // ann's events: lines 2 and 4.
    /// let lines: Vec<_> = report.violations[0].reports[0].recent.iter().map(|(p, _)| p.line).collect();
    /// assert_eq!(lines, [Some(2), Some(4)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain<R: Reader + ?Sized>(
        &mut self,
        reader: &mut R,
        report: &mut KeyedReport,
    ) -> Result<(), TraceError> {
        self.explain_with(report, |checker| {
            checker.read_reporting(reader, |_, _, _| {})
        })
    }

    /// [`KeyedChecker::explain`] on a log of lines read from `input`, in
    /// chunks on rayon's pool as [`KeyedChecker::run_lines`] reads it
    /// (and, as `explain`, only as far as the last violation explained).
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::chunked::{Chunking, LineFormat};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let options = KeyedOptions { explain_later: true, ..KeyedOptions::default() };
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], options);
    /// let log = "user,err\nann,0\nbob,0\nann,1\n";
    /// let mut report = checker.run_lines(LineFormat::Csv, "log", log.as_bytes(), Chunking::Lines(1))?;
    /// checker.explain_lines(LineFormat::Csv, "log", log.as_bytes(), Chunking::Lines(1), &mut report)?;
    /// let lines: Vec<_> = report.violations[0].reports[0].recent.iter().map(|(p, _)| p.line).collect();
    /// assert_eq!(lines, [Some(2), Some(4)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn explain_lines<R: std::io::Read>(
        &mut self,
        format: LineFormat,
        source: &str,
        input: R,
        chunking: Chunking,
        report: &mut KeyedReport,
    ) -> Result<(), TraceError> {
        self.explain_with(report, |checker| {
            checker.read_lines_reporting(format, source, input, chunking, |_, _, _| {})
        })
    }

    /// [`KeyedChecker::explain`], the trace read again by `run`.
    fn explain_with(
        &mut self,
        report: &mut KeyedReport,
        run: impl FnOnce(&mut KeyedChecker) -> Result<(), TraceError>,
    ) -> Result<(), TraceError> {
        let budget = self.explanation_budget();
        // The first `budget` violations of each property are explained.
        let mut targets = vec![0usize; report.properties.len()];
        for v in &report.violations {
            let t = &mut targets[v.property];
            *t = (*t).saturating_add(usize::try_from(v.count).unwrap_or(usize::MAX));
        }
        targets.iter_mut().for_each(|t| *t = (*t).min(budget));
        if targets.iter().all(|&t| t == 0) {
            return Ok(());
        }
        // The keys followed: those of the first `budget` (key instance,
        // property) violated of each property, in the order of their first
        // violations. The first `budget` violations of a property are
        // theirs (a violation of another key would come after its key's
        // first), so that a key whose violations will not be explained
        // keeps no events in this reading.
        let mut listed = vec![0usize; report.properties.len()];
        let only = report
            .violations
            .iter()
            .filter(|v| {
                let n = &mut listed[v.property];
                *n += 1;
                *n <= budget
            })
            .map(|v| {
                let mut bytes = Vec::new();
                for field in &v.key {
                    encode_key_field(&mut bytes, field);
                }
                bytes.into_boxed_slice()
            })
            .collect();
        let keep = std::mem::replace(&mut self.keep, self.checker.options().context + 1);
        self.only = Some(only);
        self.targets = targets;
        let result = run(self);
        self.keep = keep;
        self.only = None;
        // The explained violations, by key, property and first position,
        // in order: two instances of a key (closed by `end_key` and seen
        // again) may violate first at the same row broadcast, and both
        // readings meet them in the same order.
        type Explained<'a> = std::collections::VecDeque<&'a [ViolationReport]>;
        let mut explained: std::collections::HashMap<(&[String], usize, u64), Explained<'_>> =
            std::collections::HashMap::new();
        for v in &self.violations {
            explained
                .entry((&v.key, v.property, v.first.index))
                .or_default()
                .push_back(&v.reports);
        }
        for v in &mut report.violations {
            let at = (v.key.as_slice(), v.property, v.first.index);
            if let Some(r) = explained.get_mut(&at).and_then(|r| r.pop_front()) {
                v.reports = r.to_vec();
            }
        }
        result
    }

    /// The report of the events read so far (after an error in the trace:
    /// those before it).
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let log = "user,err\nann,1\nbob,maybe\n";
    /// assert!(checker.run(&mut CsvReader::new("log", log.as_bytes())?).is_err());
    /// let report = checker.report();
    /// assert_eq!((report.events, report.keys, report.violations.len()), (1, 1, 1));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn report(&self) -> KeyedReport {
        let mut report = self.counts();
        report.violations = self.violations.clone();
        report
    }

    /// [`KeyedChecker::report`] without copying the violations: they are
    /// moved out of the checker, which keeps the counts (its `report()`
    /// then has the same counts and no violations, until the next run).
    /// For a report of many violating keys, held once rather than twice
    /// (after [`KeyedChecker::read_reporting`]).
    ///
    /// ```
    /// use monitor_core::trace::check::{Options, Property};
    /// use monitor_core::trace::expr::Expr;
    /// use monitor_core::trace::keyed::{KeyedChecker, KeyedOptions};
    /// use monitor_core::trace::reader::CsvReader;
    /// use monitor_core::MonitorTable;
    ///
    /// let p = Property::new("G !err", MonitorTable::from_ltl("G !err")?, vec![Expr::parse("err")?]);
    /// let mut checker = KeyedChecker::new(vec![p], Options::default(), &["user"], KeyedOptions::default());
    /// let log = "user,err\nann,1\nbob,1\n";
    /// let copy = checker.run(&mut CsvReader::new("log", log.as_bytes())?)?;
    /// let taken = checker.take_report();
    /// assert_eq!(taken, copy);
    /// assert!(checker.report().violations.is_empty());
    /// assert_eq!(checker.report().properties, copy.properties);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn take_report(&mut self) -> KeyedReport {
        let mut report = self.counts();
        report.violations = std::mem::take(&mut self.violations);
        report
    }

    /// The report of the events read so far, without its violations.
    fn counts(&self) -> KeyedReport {
        let properties = self
            .checker
            .runs()
            .iter()
            .enumerate()
            .map(|(p, r)| KeyedProperty {
                name: r.report.property.clone(),
                keys_violated: self.keys_violated[p],
                keys_satisfied: self.satisfied[p],
                violation_count: self.violation_count[p],
            })
            .collect();
        KeyedReport {
            by: self.by.clone(),
            properties,
            violations: Vec::new(),
            keys: self.keys.created,
            live: self.keys.live as u64,
            events: self.events,
            unkeyed: self.unkeyed,
            late_events: self.checker.clock.late,
        }
    }
}

/// The states of the live keys' runs of one lazy property, for its
/// monitor to keep and renumber when it empties its cache.
struct LiveRuns<'a> {
    records: &'a mut [u64],
    instance: &'a [u64],
    stride: usize,
    /// Where the property's state is in a record.
    offset: usize,
}

impl RunStates for LiveRuns<'_> {
    fn for_each_state(&mut self, f: &mut dyn FnMut(&mut u32)) {
        for (k, &instance) in self.instance.iter().enumerate() {
            if instance == u64::MAX {
                continue;
            }
            let word = &mut self.records[k * self.stride + self.offset];
            let mut q = *word as u32;
            if q == DONE {
                continue;
            }
            f(&mut q);
            *word = q.into();
        }
    }
}

/// Whether each state of `table` can never report again: no path from it
/// reaches [`VIOLATION`], nor a state whose verdict is satisfied (the
/// safety closure of a property that is not a safety property may be safe
/// for good where the property is not yet satisfied).
fn never_violated(table: &crate::runtime::Table<'_>) -> Vec<bool> {
    use crate::runtime::{Transitions, LEAF};
    let n = table.num_states();
    // The targets of each state, VIOLATION included.
    let targets: Vec<Vec<u32>> = (0..n)
        .map(|s| {
            let mut out = match table.transitions {
                Transitions::Dense(next) => {
                    let width = 1usize << table.props;
                    match next.get(s * width..(s + 1) * width) {
                        Some(row) => row.to_vec(),
                        None => vec![VIOLATION],
                    }
                }
                Transitions::Diagram { roots, nodes } => {
                    let mut out = Vec::new();
                    let mut stack = vec![roots.get(s).copied().unwrap_or(u32::MAX)];
                    let mut seen = vec![false; nodes.len()];
                    while let Some(r) = stack.pop() {
                        if r & LEAF != 0 {
                            out.push(if r == u32::MAX { VIOLATION } else { r & !LEAF });
                        } else if let Some(&[_, lo, hi]) = nodes.get(r as usize) {
                            if !std::mem::replace(&mut seen[r as usize], true) {
                                stack.extend([lo, hi]);
                            }
                        } else {
                            out.push(VIOLATION);
                        }
                    }
                    out
                }
            };
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    // The states that reach a violation or a satisfied state, to a fixed
    // point.
    let mut live: Vec<bool> = table
        .verdicts
        .iter()
        .map(|&v| v == Verdict::Satisfied)
        .collect();
    live.resize(n, false);
    let mut changed = true;
    while changed {
        changed = false;
        for s in 0..n {
            if !live[s]
                && targets[s]
                    .iter()
                    .any(|&t| t == VIOLATION || live.get(t as usize) != Some(&false))
            {
                live[s] = true;
                changed = true;
            }
        }
    }
    live.iter().map(|b| !b).collect()
}

/// The fields of a keyed run, bound to the readers of one trace.
struct KeyedBinding {
    /// The properties' atoms.
    bound: Bound,
    /// The key fields' ids.
    key_ids: Vec<usize>,
    /// [`KeyedOptions::end_key`], resolved.
    end_key: Option<super::expr::Expr>,
    /// The fields resolved after the properties' (the key fields, then
    /// those of `end_key`), in order.
    replay: Vec<String>,
}

impl KeyedBinding {
    /// Resolves the fields on another reader of the same trace (a piece
    /// of it), in the order they were bound, so that their ids are the
    /// same there.
    fn attach<R: Reader + ?Sized>(&self, reader: &mut R) {
        self.bound.attach(reader);
        for f in &self.replay {
            let _ = reader.resolve(f);
        }
    }
}

/// Appends the key of the reader's event to `key` (see
/// [`encode_key_field`]), or says which key field is missing or empty.
fn read_key<R: Reader + ?Sized>(
    reader: &R,
    by: &[String],
    key_ids: &[usize],
    key: &mut Vec<u8>,
) -> Result<(), String> {
    for (f, &id) in by.iter().zip(key_ids) {
        let cell = reader.cell(id);
        if let Some(Cell::Text(text)) = cell {
            // (A CSV cell, the common case, without a `Cow`.)
            if text.is_empty() {
                return Err(format!("the key field `{f}` (--by) is empty"));
            }
            encode_key_field(key, text);
            continue;
        }
        match key_text(cell) {
            Some(text) if !text.is_empty() => encode_key_field(key, &text),
            Some(_) => return Err(format!("the key field `{f}` (--by) is empty")),
            None => return Err(format!("no key field `{f}` (--by) in this event")),
        }
    }
    Ok(())
}

/// The error of a row without a key, `why` saying which field.
fn unkeyed_error(why: &str) -> String {
    format!(
        "{why}: every row needs a key (or give --unkeyed broadcast, to send such rows to every \
         key, or --unkeyed skip)"
    )
}

/// A property's transitions as a key's step reads them: the target of
/// each state and letter, with what the step needs to know of it in the
/// same word: [`VIOLATION`]; [`DONE`] for a state where the property is
/// satisfied; or the state, with [`SAFE_STATE`] set if no violation can
/// be reached from it (so that a step reads one word per property,
/// neither the verdicts nor the safe states).
struct StepTable {
    props: u32,
    next: Vec<u32>,
}

/// The bit of a [`StepTable`]'s target that says no violation can be
/// reached from it (the states of a table that has one are fewer).
const SAFE_STATE: u32 = 1 << 31;

impl StepTable {
    /// The step table of `table` (`safe`: its states from which no
    /// violation can be reached), if it has dense transitions over at
    /// most 8 propositions and fewer than 2^31 states.
    fn new(table: &crate::runtime::Table<'_>, safe: &[bool]) -> Option<StepTable> {
        let crate::runtime::Transitions::Dense(dense) = table.transitions else {
            return None;
        };
        if table.props > 8 || table.num_states() >= SAFE_STATE as usize - 2 {
            return None;
        }
        let next = dense
            .iter()
            .map(|&t| {
                if t == VIOLATION {
                    VIOLATION
                } else if table.verdicts.get(t as usize) == Some(&Verdict::Satisfied) {
                    DONE
                } else if safe.get(t as usize) == Some(&true) {
                    t | SAFE_STATE
                } else {
                    t
                }
            })
            .collect();
        Some(StepTable {
            props: table.props,
            next,
        })
    }

    /// The target of state `s` (not [`DONE`]) on `letter`, as
    /// [`StepTable`] codes it.
    #[inline]
    fn next(&self, s: u32, letter: u64) -> u32 {
        let mask = (1u64 << self.props) - 1;
        let i = ((s as usize) << self.props) | (letter & mask) as usize;
        self.next.get(i).copied().unwrap_or(VIOLATION)
    }
}

/// What a chunk's digest reads: the binding, and how keys are read.
struct KeyedShared {
    binding: KeyedBinding,
    by: Vec<String>,
    hasher: RandomState,
    unkeyed: Unkeyed,
    /// The reader's ids of the fields explanations show.
    shown: Vec<usize>,
    /// Digests applied, their buffers kept for the next chunks' (a
    /// chunk's digest is megabytes: fresh ones each time cost the
    /// kernel's mapping and zeroing of their pages).
    spare: std::sync::Mutex<Vec<KeyedDigest>>,
}

/// How many applied digests [`KeyedShared::spare`] keeps (a batch has
/// four chunks per core).
const SPARE_DIGESTS: usize = 64;

/// What an event of a chunk is, as its digest found it.
#[derive(Clone, Copy)]
enum DigestKind {
    /// A row with a key; whether it ends its key (`end_key`).
    Keyed { ends: bool },
    /// A row without a key, to be broadcast (its atoms evaluated).
    Broadcast,
    /// A row without a key, not evaluated (an error, or skipped).
    Unkeyed,
}

/// One event of a chunk's digest (its index in the chunk is its index in
/// [`KeyedDigest::events`]; 32 bytes, as a batch holds a digest for each
/// of its hundreds of thousands of rows).
struct DigestEvent {
    /// Its line in the chunk, from 1.
    line: u64,
    /// Its key's hash (under [`Keys::hasher`]).
    hash: u64,
    /// Where its key ends in [`KeyedDigest::keys`] (it starts where the
    /// previous event's ends).
    key_end: usize,
    kind: DigestKind,
}

/// A chunk of a log read, its events' keys found and hashed and their
/// atoms evaluated, on any core: what is left to do in order is to look
/// the keys up and step their monitors.
///
/// (A chunk summary from every state per key, as [`ChunkSummary`] is for
/// one trace, would cost a run from every state per key in the chunk,
/// while in an interleaved log most keys have a few events in a chunk:
/// each key's letters, in order, are the smaller summary.)
///
/// [`ChunkSummary`]: super::chunked::ChunkSummary
#[derive(Default)]
struct KeyedDigest {
    events: Vec<DigestEvent>,
    /// The events' keys, one after the other.
    keys: Vec<u8>,
    /// The events' atoms (`words` each; zero for a row not evaluated).
    bits: Vec<u64>,
    /// The words of each event's key ([`key_words`]; of the empty key for
    /// a row without one), worked out here, on any core, rather than
    /// where the key is looked up, in order.
    words: Vec<[u64; KEY_WORDS]>,
    /// With times ([`KeyedChecker::set_time`]): each event's time as its
    /// field says (ordered when applied, in order).
    times: Vec<Time>,
    /// For each broadcast row, the texts of the fields explanations show.
    values: Vec<String>,
    /// The texts of the fields shown with `set_show`, at each event
    /// evaluated (keyed or broadcast), when some are shown.
    show: Vec<Option<String>>,
    /// Whether the digest stopped before the chunk's end: the next event
    /// could not be read or evaluated (the chunk is read in one pass from
    /// it, which says why).
    stopped: bool,
    /// The chunk's number of line ends.
    lines: u64,
}

/// Keyed checking of a log of lines, in chunks on rayon's pool.
struct KeyedLines<'k, 'f> {
    checker: &'k mut KeyedChecker,
    shared: std::sync::Arc<KeyedShared>,
    on_violation: &'f mut dyn FnMut(&[String], &str, &ViolationReport),
    /// The index and line of the next event.
    index: u64,
    line: u64,
    /// To read a line of a chunk again (the fields of a violation).
    format: LineFormat,
    source: String,
    headers: Vec<String>,
}

impl LineCheck for KeyedLines<'_, '_> {
    type Shared = KeyedShared;
    type Digest = KeyedDigest;

    fn shared(&self) -> &KeyedShared {
        &self.shared
    }

    fn detached(&self) -> Option<std::sync::Arc<KeyedShared>> {
        // A digest reads the fields bound and the options, which applying
        // does not change.
        Some(self.shared.clone())
    }

    fn digests(&self) -> bool {
        true
    }

    fn done(&self) -> bool {
        self.checker.explained_all()
    }

    fn digest<R: Reader>(shared: &KeyedShared, mut reader: R, lines: u64) -> KeyedDigest {
        let KeyedBinding {
            bound,
            key_ids,
            end_key,
            ..
        } = &shared.binding;
        shared.binding.attach(&mut reader);
        // (Sized for the chunk's lines at once: growing them took a tenth
        // of the time.)
        let lines_hint = usize::try_from(lines).unwrap_or(0);
        let key_bytes = shared.by.len() * 16;
        let spare = shared.spare.lock().ok().and_then(|mut s| s.pop());
        let mut d = spare.unwrap_or_default();
        d.events.clear();
        d.events.reserve(lines_hint);
        d.keys.clear();
        d.keys.reserve(lines_hint * key_bytes);
        d.bits.clear();
        d.bits.reserve(lines_hint * bound.words);
        d.words.clear();
        d.words.reserve(lines_hint);
        d.values.clear();
        d.show.clear();
        d.times.clear();
        d.stopped = false;
        d.lines = lines;
        let words = bound.words;
        let mut bits = vec![0u64; words];
        let mut show = Vec::new();
        loop {
            match reader.advance() {
                Ok(true) => {}
                Ok(false) => break,
                Err(_) => {
                    d.stopped = true;
                    break;
                }
            }
            if let Some(f) = bound.time {
                // (Read whatever the row: a row without a key has its
                // time ordered too, as in one pass.)
                match f.format.read(reader.cell(f.id)) {
                    Ok(t) => d.times.push(t),
                    Err(_) => {
                        d.stopped = true;
                        break;
                    }
                }
            }
            let start = d.keys.len();
            let at = reader.position();
            debug_assert_eq!(at.index, d.events.len() as u64);
            // (A reader of lines knows each row's line.)
            let line = at.line.unwrap_or_default();
            let kind = if read_key(&reader, &shared.by, key_ids, &mut d.keys).is_err() {
                d.keys.truncate(start);
                if shared.unkeyed != Unkeyed::Broadcast {
                    d.bits.extend(std::iter::repeat_n(0, words));
                    d.words.push([0; KEY_WORDS]);
                    d.events.push(DigestEvent {
                        line,
                        hash: 0,
                        key_end: start,
                        kind: DigestKind::Unkeyed,
                    });
                    continue;
                }
                if bound.eval(&reader, &mut bits).is_err() {
                    d.stopped = true;
                    break;
                }
                d.values
                    .extend(shared.shown.iter().map(|&id| cell_text(reader.cell(id))));
                DigestKind::Broadcast
            } else {
                let ends = match end_key {
                    Some(e) => bound.value(e, &reader).ok(),
                    None => Some(false),
                };
                let (Some(ends), Ok(())) = (ends, bound.eval(&reader, &mut bits)) else {
                    d.keys.truncate(start);
                    d.stopped = true;
                    break;
                };
                DigestKind::Keyed { ends }
            };
            if !bound.show.is_empty() {
                bound.shown_values(&reader, &mut show);
                d.show.append(&mut show);
            }
            d.bits.extend_from_slice(&bits);
            d.words.push(key_words(&d.keys[start..]));
            d.events.push(DigestEvent {
                line,
                hash: shared.hasher.hash_one(&d.keys[start..]),
                key_end: d.keys.len(),
                kind,
            });
        }
        d
    }

    fn apply(&mut self, d: KeyedDigest, chunk: &[u8]) -> Result<Option<u64>, TraceError> {
        let (index, line) = (self.index, self.line);
        let words = self.shared.binding.bound.words;
        let show_count = self.shared.binding.bound.show.len();
        let time = self.shared.binding.bound.time;
        let checker = &mut *self.checker;
        let on_violation = &mut *self.on_violation;
        let (mut key_start, mut values_at, mut show_at) = (0, 0, 0);
        // A lazy monitor that stopped (out of memory) at the event `at`.
        let stopped = |at: &Position, message: String| TraceError {
            source: self.source.clone(),
            at: Some(at.to_string()),
            message,
        };
        // The loads of an event's lookup and step are started some events
        // before it (see `slots`): its bucket `FAR` events before, then,
        // the bucket loaded, its key and record `NEAR` events before.
        const FAR: usize = 16;
        const NEAR: usize = 8;
        let keyed = |e: &DigestEvent| matches!(e.kind, DigestKind::Keyed { .. });
        for e in d.events.iter().take(FAR).filter(|e| keyed(e)) {
            checker.keys.prefetch_bucket(e.hash);
        }
        for e in d.events.iter().take(NEAR).filter(|e| keyed(e)) {
            checker.keys.prefetch_record(e.hash);
        }
        // The event from which the rest of the chunk is read in one pass
        // (nothing of it done), if one is: an unkeyed row that is an
        // error, a key over the limit, or the digest's stop.
        // The fields of the event being stepped (at `line_in_chunk`), for
        // the explanation of a violation: its line read again. (One
        // closure for the chunk: made at each event, it took a tenth of
        // the loop's instructions.)
        let line_in_chunk = std::cell::Cell::new(0);
        let (format, source, headers) = (self.format, &self.source, &self.headers);
        let (binding, shown) = (&self.shared.binding, &self.shared.shown);
        let values = |f: usize| {
            let start = line_start(format, chunk, line_in_chunk.get());
            let mut r = line_reader(format, source, headers, &chunk[start..], 0, 1);
            binding.attach(&mut *r);
            match r.advance() {
                Ok(true) => cell_text(r.cell(shown[f])),
                _ => String::new(),
            }
        };
        let resume = 'events: {
            for (i, e) in d.events.iter().enumerate() {
                if let Some(far) = d.events.get(i + FAR).filter(|e| keyed(e)) {
                    checker.keys.prefetch_bucket(far.hash);
                }
                if let Some(near) = d.events.get(i + NEAR).filter(|e| keyed(e)) {
                    checker.keys.prefetch_record(near.hash);
                }
                if checker.explained_all() {
                    // (Explaining: every violation to explain is; the driver
                    // stops at `done`.)
                    break;
                }
                let key = &d.keys[key_start..e.key_end];
                key_start = e.key_end;
                let bits = &d.bits[i * words..(i + 1) * words];
                let line_here = e.line + line - 1;
                if matches!(e.kind, DigestKind::Unkeyed)
                    && checker.options.unkeyed == Unkeyed::Error
                {
                    // (Its time, and the error, are one pass's.)
                    break 'events Some(i);
                }
                // The clock before this event (if times are read): one
                // pass from here, if it comes to that, ticks it again.
                let mut clock = None;
                let timestamp = match time {
                    None => None,
                    Some(f) => {
                        clock = Some(checker.checker.clock);
                        match checker
                            .checker
                            .clock
                            .tick(d.times[i], Some(line_here), f.order)
                        {
                            Ok(t) => Some(t),
                            // A time that goes back: one pass says so.
                            Err(_) => break 'events Some(i),
                        }
                    }
                };
                let at = Position {
                    index: i as u64 + index,
                    line: Some(line_here),
                    time: None,
                    timestamp,
                };
                let show = match e.kind {
                    DigestKind::Unkeyed => &[][..],
                    _ => {
                        show_at += show_count;
                        &d.show[show_at - show_count..show_at]
                    }
                };
                match e.kind {
                    DigestKind::Unkeyed => {
                        checker.events += 1;
                        checker.unkeyed += 1;
                    }
                    DigestKind::Broadcast => {
                        let n = self.shared.shown.len();
                        let values = d.values[values_at..values_at + n].to_vec();
                        values_at += n;
                        checker.events += 1;
                        checker.unkeyed += 1;
                        let here = at.clone();
                        if let Some(m) = checker.broadcast_row(at, bits, values, show, on_violation)
                        {
                            return Err(stopped(&here, m));
                        }
                    }
                    DigestKind::Keyed { .. }
                        if checker
                            .only
                            .as_ref()
                            .is_some_and(|only| !only.contains(key)) =>
                    {
                        // (While explaining: a key not followed.)
                        checker.events += 1;
                    }
                    DigestKind::Keyed { ends } => {
                        let words = &d.words[i];
                        let Ok(k) = checker.lookup_words(e.hash, key, words, on_violation) else {
                            // Over the key limit: one pass says so.
                            if let Some(clock) = clock {
                                checker.checker.clock = clock;
                            }
                            break 'events Some(i);
                        };
                        checker.events += 1;
                        if let Some(k) = k {
                            line_in_chunk.set(e.line);
                            if show_count > 0 {
                                checker.keep_shown(k, show);
                            }
                            let finished = checker.step(k, &at, bits, &values, on_violation);
                            if let Some(m) = checker.take_stopped() {
                                return Err(stopped(&at, m));
                            }
                            checker.after_event(Some((k, finished)), e.hash, key, ends);
                        } else {
                            checker.after_event(None, e.hash, key, ends);
                        }
                    }
                }
            }
            d.stopped.then_some(d.events.len())
        };
        if let Some(i) = resume {
            // The line it starts on, in the chunk.
            let from = match i.checked_sub(1) {
                None => 1,
                Some(p) => d.events[p].line + 1,
            };
            (self.index, self.line) = (index + i as u64, line + from - 1);
            return Ok(Some(from));
        }
        self.index = index + d.events.len() as u64;
        self.line = line + d.lines;
        if let Ok(mut spare) = self.shared.spare.lock() {
            if spare.len() < SPARE_DIGESTS {
                spare.push(d);
            }
        }
        Ok(None)
    }

    fn read<R: Reader + ?Sized>(&mut self, reader: &mut R, lines: u64) -> Result<(), TraceError> {
        self.shared.binding.attach(reader);
        let before = self.checker.events;
        let result = self
            .checker
            .feed(reader, &self.shared.binding, &mut *self.on_violation);
        self.index += self.checker.events - before;
        self.line += lines;
        result
    }

    fn index(&self) -> u64 {
        self.index
    }

    fn line(&self) -> u64 {
        self.line
    }
}

/// The text of a key field's value: a CSV cell as written, a JSON string's
/// characters, any other JSON value as JSON writes it (so the number `1`
/// and the string `"1"` are the same key); `None` for a missing field or
/// a JSON `null`.
fn key_text(cell: Option<Cell<'_>>) -> Option<std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    match cell? {
        Cell::Text(s) => Some(Cow::Borrowed(s)),
        Cell::Json(serde_json::Value::Null) => None,
        Cell::Json(serde_json::Value::String(s)) => Some(Cow::Borrowed(s)),
        Cell::Json(v) => Some(Cow::Owned(v.to_string())),
        Cell::Bits(b) => Some(Cow::Owned(String::from_utf8_lossy(b).into_owned())),
        Cell::Real(x) => Some(Cow::Owned(x.to_string())),
        Cell::Bool(b) => Some(Cow::Owned(b.to_string())),
        Cell::Int(i) => Some(Cow::Owned(i.to_string())),
    }
}

/// Appends a key field's value to an interned key: its length (a `u32`),
/// then its bytes; read back by [`decode_key`].
fn encode_key_field(key: &mut Vec<u8>, value: &str) {
    key.extend_from_slice(&(value.len() as u32).to_le_bytes());
    key.extend_from_slice(value.as_bytes());
}

/// The fields' values of an interned key.
fn decode_key(mut bytes: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    while bytes.len() >= 4 {
        let len = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")) as usize;
        out.push(String::from_utf8_lossy(&bytes[4..4 + len]).into_owned());
        bytes = &bytes[4 + len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formula::random::{RandomLtl, SplitMix64};
    use crate::runtime::summary::tests::monitor_of;
    use crate::trace::check::{Checker, Report};
    use crate::trace::expr::Expr;
    use crate::trace::reader::{CsvReader, JsonlReader};

    proptest::proptest! {
        /// A record's key words are, as little-endian bytes, the key's
        /// length then its bytes then zeros (up to 23 bytes), or
        /// `LONG_KEY` then its first 23 bytes: so equal words are equal
        /// keys below 24 bytes.
        #[test]
        fn key_words_are_the_length_and_bytes(key in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40)) {
            let bytes: Vec<u8> = key_words(&key).iter().flat_map(|w| w.to_le_bytes()).collect();
            let n = key.len().min(23);
            let first = if key.len() <= 23 { key.len() as u8 } else { LONG_KEY };
            proptest::prop_assert_eq!(bytes[0], first);
            proptest::prop_assert_eq!(&bytes[1..1 + n], &key[..n]);
            proptest::prop_assert!(bytes[1 + n..].iter().all(|&b| b == 0));
        }
    }

    /// Keys that need care: Unicode, CSV quoting (commas, quotes, line
    /// breaks), JSON escapes, spaces, a number's text.
    const KEYS: &[&str] = &[
        "s1",
        "s2",
        "ä☃",
        "a,b",
        "q\"uote",
        "new\nline",
        " sp ",
        "1",
        "\\back",
        "s1,",
    ];

    /// One row: its key (`None`: missing or empty) and its letter of
    /// `a`, `b`, `c`.
    type Row = (Option<&'static str>, u64);

    fn csv_cell(s: &str) -> String {
        if s.contains([',', '"', '\n', ' ']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    }

    /// The rows as a file, and the line each row starts on. `missing`
    /// picks how a row without a key is written (empty, absent, null).
    fn write(rows: &[&Row], csv: bool, missing: u64) -> (String, Vec<u64>) {
        let mut text = String::new();
        let mut lines = Vec::new();
        let mut line = 1;
        if csv {
            text.push_str("a,session,b,c\n");
            line += 1;
        }
        for (i, (key, l)) in rows.iter().enumerate() {
            lines.push(line);
            let (a, b, c) = (l & 1, (l >> 1) & 1, (l >> 2) & 1);
            let row = if csv {
                format!("{a},{},{b},{c}\n", key.map_or(String::new(), csv_cell))
            } else {
                let session = match key {
                    Some(k) => format!("\"session\": {}, ", serde_json::Value::from(*k)),
                    None => match (missing + i as u64) % 3 {
                        0 => String::new(),
                        1 => "\"session\": null, ".into(),
                        _ => "\"session\": \"\", ".into(),
                    },
                };
                format!(
                    "{{\"ctx\": {{{session}\"n\": 1}}, \"a\": {a}, \"b\": {}, \"c\": {c}}}\n",
                    b == 1
                )
            };
            line += row.matches('\n').count() as u64;
            text.push_str(&row);
        }
        (text, lines)
    }

    fn props(formulas: &[MonitorTableAndName]) -> Vec<Property> {
        formulas
            .iter()
            .map(|(name, table)| {
                let t = table.table();
                let b = (0..t.props as usize)
                    .map(|i| Expr::parse(t.proposition(i)).unwrap())
                    .collect();
                Property::new(name, table.clone(), b)
            })
            .collect()
    }

    type MonitorTableAndName = (String, crate::MonitorTable);

    /// What is compared: per (key, property), the lines of the
    /// violations explained, their count, and the lines of each
    /// explanation's events; and per property the keys satisfied.
    type Outcome = (Vec<(String, usize, u64, Vec<Vec<u64>>)>, Vec<u64>);

    /// The reference: each key's slice (its rows, and with
    /// [`Unkeyed::Broadcast`] every row without a key) written to a file
    /// of its own and checked alone by [`Checker`], lines mapped back.
    fn brute_force(
        rows: &[Row],
        csv: bool,
        formulas: &[MonitorTableAndName],
        options: Options,
        unkeyed: Unkeyed,
        end: Option<fn(u64) -> bool>,
    ) -> Outcome {
        // Each key instance (a key closed by `end` and seen again is a
        // new one) and its rows.
        let mut live: std::collections::HashMap<&str, usize> = Default::default();
        let mut instances: Vec<(&str, Vec<usize>)> = Vec::new();
        let mut broadcast = Vec::new();
        for (i, (key, letter)) in rows.iter().enumerate() {
            match key {
                None if unkeyed == Unkeyed::Broadcast => {
                    for &k in live.values() {
                        instances[k].1.push(i);
                    }
                    broadcast.push(i);
                }
                None => {}
                Some(key) => {
                    let k = *live.entry(key).or_insert_with(|| {
                        instances.push((key, broadcast.clone()));
                        instances.len() - 1
                    });
                    instances[k].1.push(i);
                    if end.is_some_and(|e| e(*letter)) {
                        live.remove(key);
                    }
                }
            }
        }
        let (_, all_lines) = write(&rows.iter().collect::<Vec<_>>(), csv, 0);
        let mut out = Vec::new();
        let mut satisfied = vec![0; formulas.len()];
        for (key, picked) in &instances {
            let mut picked = picked.clone();
            picked.sort_unstable();
            let slice: Vec<&Row> = picked.iter().map(|&i| &rows[i]).collect();
            let (text, lines) = write(&slice, csv, 0);
            let back =
                |line: u64| all_lines[picked[lines.iter().position(|&l| l == line).unwrap()]];
            let mut checker = Checker::new(props(formulas), options);
            let reports: Vec<Report> = if csv {
                checker.run(&mut CsvReader::new("slice.csv", text.as_bytes()).unwrap())
            } else {
                checker.run(&mut JsonlReader::new("slice.jsonl", text.as_bytes()))
            }
            .unwrap();
            for (p, r) in reports.iter().enumerate() {
                if r.satisfied_at.is_some() {
                    satisfied[p] += 1;
                }
                if r.violation_count > 0 {
                    let explained = r
                        .violations
                        .iter()
                        .map(|v| {
                            let mut ls = vec![back(v.at.line.unwrap())];
                            ls.extend(v.recent.iter().map(|(p, _)| back(p.line.unwrap())));
                            ls
                        })
                        .collect();
                    out.push((key.to_string(), p, r.violation_count, explained));
                }
            }
        }
        out.sort();
        (out, satisfied)
    }

    fn keyed(report: &KeyedReport) -> Outcome {
        let mut out: Vec<_> = report
            .violations
            .iter()
            .map(|v| {
                assert_eq!(v.first.line, v.reports[0].at.line);
                let explained = v
                    .reports
                    .iter()
                    .map(|e| {
                        let mut ls = vec![e.at.line.unwrap()];
                        ls.extend(e.recent.iter().map(|(p, _)| p.line.unwrap()));
                        ls
                    })
                    .collect();
                (v.key[0].clone(), v.property, v.count, explained)
            })
            .collect();
        out.sort();
        let satisfied = report.properties.iter().map(|p| p.keys_satisfied).collect();
        (out, satisfied)
    }

    /// The oracle: on random interleavings of random properties, with
    /// rows without a key in each mode, `KeyedChecker` reports what
    /// checking each key's slice alone reports.
    #[test]
    fn keyed_checking_equals_each_slice_checked_alone() {
        let mut rng = SplitMix64::new(30);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 8).seed(30).with_past();
        let (mut violations, mut errors, mut dead, mut ended) = (0, 0, 0, 0);
        let mut shown_checked = 0;
        for round in 0..600u64 {
            let mut formulas = Vec::new();
            while formulas.len() < 1 + (round % 3) as usize {
                let f = random_ltl.next_formula();
                if let Some(t) = monitor_of(&f, round % 4 == 1) {
                    formulas.push((f.to_spot(), t));
                }
            }
            let nkeys = 1 + (rng.next_u64() % KEYS.len() as u64) as usize;
            let missing_rate = rng.next_u64() % 4;
            let rows: Vec<Row> = (0..rng.next_u64() % 40)
                .map(|_| {
                    let r = rng.next_u64();
                    let key = (r % 8 >= missing_rate).then(|| KEYS[(r >> 8) as usize % nkeys]);
                    (key, (r >> 16) & 7)
                })
                .collect();
            let options = Options {
                all: round % 2 == 0,
                max_reports: 10_000,
                context: (round % 5) as usize,
                strict_fields: round % 4 == 1,
            };
            let csv = round % 3 != 2;
            let unkeyed =
                [Unkeyed::Error, Unkeyed::Broadcast, Unkeyed::Skip][(round / 2 % 3) as usize];
            let (text, lines) = write(&rows.iter().collect::<Vec<_>>(), csv, round);
            let by = if csv { "session" } else { "ctx.session" };
            // Some rounds close keys at `b & c` (`b` is a Boolean in JSON).
            let closing = round % 3 == 1;
            let end: Option<fn(u64) -> bool> = closing.then_some(|l: u64| l & 6 == 6);
            let end_key = closing
                .then(|| Expr::parse(if csv { "b == 1 & c == 1" } else { "b & c" }).unwrap());
            // Some rounds show the key field and `c` (and, in JSON, a
            // field no row has) at the explanations' events.
            let show = round % 4 == 3;
            let checker_of = |explain_later: bool| {
                let mut checker = KeyedChecker::new(
                    props(&formulas),
                    options,
                    &[by],
                    KeyedOptions {
                        unkeyed,
                        end_key: end_key.clone(),
                        key_limit: Some(KEYS.len()),
                        explain_later,
                    },
                );
                if show {
                    checker.set_show(if csv {
                        vec![by.into(), "c".into()]
                    } else {
                        vec![by.into(), "c".into(), "zz".into()]
                    });
                }
                checker
            };
            let mut checker = checker_of(false);
            let run = |checker: &mut KeyedChecker| {
                if csv {
                    checker.run(&mut CsvReader::new("t.csv", text.as_bytes()).unwrap())
                } else {
                    checker.run(&mut JsonlReader::new("t.jsonl", text.as_bytes()))
                }
            };
            let got = run(&mut checker);
            let names: Vec<&str> = formulas.iter().map(|(n, _)| n.as_str()).collect();
            let ctx = format!("{names:?} {unkeyed:?} {options:?} on\n{text}");
            let first_missing = rows.iter().position(|r| r.0.is_none());
            if show {
                // Each event's shown fields are those of its row.
                for e in checker.report().violations.iter().flat_map(|v| &v.reports) {
                    assert_eq!(e.shown.len(), e.recent.len(), "{ctx}");
                    for ((at, _), shown) in e.recent.iter().zip(&e.shown) {
                        let i = lines.iter().position(|&l| Some(l) == at.line).unwrap();
                        let (key, letter) = rows[i];
                        let session = match key {
                            Some(k) => Some(k.to_string()),
                            None if csv => Some(String::new()),
                            // As `write` writes a row without a key.
                            None => match (round + i as u64) % 3 {
                                0 => None,
                                1 => Some("null".into()),
                                _ => Some(String::new()),
                            },
                        };
                        let mut want = vec![
                            (by.to_string(), session),
                            ("c".to_string(), Some(((letter >> 2) & 1).to_string())),
                        ];
                        if !csv {
                            want.push(("zz".to_string(), None));
                        }
                        assert_eq!(shown, &want, "{ctx}");
                        shown_checked += 1;
                    }
                }
            }
            match (unkeyed, first_missing) {
                (Unkeyed::Error, Some(m)) => {
                    let e = got.expect_err(&ctx);
                    assert_eq!(e.at, Some(format!("line {}", lines[m])), "{ctx}");
                    assert!(e.message.contains("session"), "{e}");
                    // The reports of the rows before it.
                    let want = brute_force(&rows[..m], csv, &formulas, options, unkeyed, end);
                    assert_eq!(keyed(&checker.report()), want, "{ctx}");
                    errors += 1;
                }
                _ => {
                    let got = got.unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    let want = brute_force(&rows, csv, &formulas, options, unkeyed, end);
                    violations += want.0.len();
                    assert_eq!(keyed(&got), want, "{ctx}");
                    // Without kept events, explained by a second reading:
                    // the same report.
                    let mut later = checker_of(true);
                    let mut report = run(&mut later).unwrap();
                    let explain = |later: &mut KeyedChecker, report: &mut KeyedReport| {
                        if csv {
                            let mut r = CsvReader::new("t.csv", text.as_bytes()).unwrap();
                            later.explain(&mut r, report)
                        } else {
                            later.explain(&mut JsonlReader::new("t.jsonl", text.as_bytes()), report)
                        }
                    };
                    explain(&mut later, &mut report).unwrap();
                    assert_eq!(report, got, "explained later: {ctx}");
                    let keys = rows
                        .iter()
                        .filter_map(|r| r.0)
                        .collect::<std::collections::HashSet<_>>();
                    if closing {
                        ended += usize::from(got.keys > keys.len() as u64);
                    } else {
                        assert_eq!(got.keys, keys.len() as u64);
                    }
                    dead += usize::from(got.live < keys.len() as u64);
                }
            }
        }
        assert!(
            violations > 200 && errors > 20 && dead > 50 && ended > 20 && shown_checked > 100,
            "{violations} violations, {errors} errors, {dead} with keys dropped, {ended} with keys closed, {shown_checked} events shown"
        );
    }

    /// Keyed checking in chunks on several threads gives the report (and
    /// the errors, and the violations reported as they happen) of one
    /// pass, whatever the chunk sizes and thread counts: random
    /// properties on random interleavings, rows without a key in each
    /// mode, key limits, keys closed, fields shown, damaged rows.
    #[test]
    fn chunked_keyed_checking_equals_one_pass() {
        let mut rng = SplitMix64::new(31);
        let mut random_ltl = RandomLtl::new(&["a", "b", "c"], 8).seed(31).with_past();
        let (mut compared, mut failed, mut parallel, mut violated) = (0, 0, 0, 0);
        let mut explained = 0;
        // Timed rounds compared whose times went back: strict (an
        // error), lenient (late events).
        let (mut back, mut late) = (0, 0);
        // Keys a CSV file writes without quotes (with quotes, a CSV log
        // is read in one pass).
        let plain: Vec<&str> = KEYS
            .iter()
            .copied()
            .filter(|k| !k.contains([',', '"', '\n', ' ']))
            .collect();
        for round in 0..400u64 {
            let mut formulas = Vec::new();
            while formulas.len() < 1 + (round % 3) as usize {
                let f = random_ltl.next_formula();
                if let Some(t) = monitor_of(&f, round % 4 == 1) {
                    formulas.push((f.to_spot(), t));
                }
            }
            let csv = round % 3 != 2;
            let keys: &[&str] = if csv && round % 2 == 0 { &plain } else { KEYS };
            let nkeys = 1 + (rng.next_u64() % keys.len() as u64) as usize;
            let missing_rate = rng.next_u64() % 3;
            let rows: Vec<Row> = (0..rng.next_u64() % 120)
                .map(|_| {
                    let r = rng.next_u64();
                    let key = (r % 16 >= missing_rate).then(|| keys[(r >> 8) as usize % nkeys]);
                    (key, (r >> 16) & 7)
                })
                .collect();
            let options = Options {
                all: round % 2 == 0,
                max_reports: (rng.next_u64() % 4) as usize,
                context: (round % 4) as usize,
                strict_fields: round % 5 == 1,
            };
            let (mut text, _) = write(&rows.iter().collect::<Vec<_>>(), csv, round);
            if round % 5 == 3 && !rows.is_empty() {
                // A damaged row somewhere: a value that is not a Boolean,
                // or (JSON) a line cut short.
                let at = text
                    .match_indices('\n')
                    .map(|(i, _)| i + 1)
                    .nth((rng.next_u64() % rows.len() as u64) as usize)
                    .unwrap_or(text.len());
                let bad = match (csv, round % 2) {
                    (true, _) => "1,s1,maybe,1\n",
                    (false, 0) => {
                        "{\"ctx\": {\"session\": \"s1\"}, \"a\": 1, \"b\": \"maybe\", \"c\": 1}\n"
                    }
                    (false, _) => "{\"ctx\": {\"sess\n",
                };
                text.insert_str(at, bad);
            }
            let unkeyed =
                [Unkeyed::Error, Unkeyed::Broadcast, Unkeyed::Skip][(rng.next_u64() % 3) as usize];
            let by = if csv { "session" } else { "ctx.session" };
            let end_key = (round % 3 == 1)
                .then(|| Expr::parse(if csv { "b == 1 & c == 1" } else { "b & c" }).unwrap());
            let key_limit = (round % 4 == 0).then(|| 1 + (rng.next_u64() % 4) as usize);
            let show = round % 4 == 3;
            // Times from field `a` (0 or 1: they go back often), every
            // sixth round, strict or lenient.
            let order = if round % 4 == 1 {
                TimeOrder::Lenient
            } else {
                TimeOrder::Strict
            };
            let timed = (round % 6 == 5).then_some(order);
            let checker = |explain_later: bool| {
                let mut checker = KeyedChecker::new(
                    props(&formulas),
                    options,
                    &[by],
                    KeyedOptions {
                        unkeyed,
                        end_key: end_key.clone(),
                        key_limit,
                        explain_later,
                    },
                );
                if show {
                    checker.set_show(vec![by.into(), "c".into()]);
                }
                if let Some(order) = timed {
                    checker.set_time(Some(TimeSpec::parse("a").unwrap()), order);
                }
                checker
            };
            let format = if csv {
                LineFormat::Csv
            } else {
                LineFormat::Jsonl
            };
            let mut one = checker(false);
            let mut one_seen = Vec::new();
            let want = if csv {
                CsvReader::new("t", text.as_bytes()).and_then(|mut r| {
                    one.run_reporting(&mut r, |k, p, v| {
                        one_seen.push((k.to_vec(), p.to_string(), v.clone()))
                    })
                })
            } else {
                one.run_reporting(&mut JsonlReader::new("t", text.as_bytes()), |k, p, v| {
                    one_seen.push((k.to_vec(), p.to_string(), v.clone()))
                })
            };
            for _ in 0..3 {
                let chunking = match rng.next_u64() % 3 {
                    0 => Chunking::Lines(1 + (rng.next_u64() % 12) as usize),
                    1 => Chunking::Bytes(1 + (rng.next_u64() % 300) as usize),
                    _ => Chunking::default(),
                };
                let threads = 1 + (rng.next_u64() % 3) as usize;
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let mut chunked = checker(false);
                let mut seen = Vec::new();
                let got = pool.install(|| {
                    chunked.run_lines_reporting(
                        format,
                        "t",
                        text.as_bytes(),
                        chunking,
                        |k, p, v| seen.push((k.to_vec(), p.to_string(), v.clone())),
                    )
                });
                let names: Vec<&str> = formulas.iter().map(|(n, _)| n.as_str()).collect();
                let ctx = format!(
                    "{names:?} {unkeyed:?} {options:?} limit {key_limit:?} {chunking:?} \
                     {threads} threads on\n{text}"
                );
                assert_eq!(got, want, "{ctx}");
                assert_eq!(chunked.report(), one.report(), "{ctx}");
                assert_eq!(seen, one_seen, "{ctx}");
                if let Ok(want) = &want {
                    // Explained by a second reading, in chunks too: the
                    // same report.
                    let mut later = checker(true);
                    let mut report = pool
                        .install(|| later.run_lines(format, "t", text.as_bytes(), chunking))
                        .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    pool.install(|| {
                        later.explain_lines(format, "t", text.as_bytes(), chunking, &mut report)
                    })
                    .unwrap_or_else(|e| panic!("{ctx}: {e}"));
                    assert_eq!(&report, want, "explained later: {ctx}");
                    explained += usize::from(!want.violations.is_empty());
                }
                compared += 1;
                if timed.is_some() {
                    back += usize::from(
                        want.as_ref()
                            .is_err_and(|e| e.message.contains("goes back")),
                    );
                    late += usize::from(one.report().late_events > 0);
                }
                failed += usize::from(want.is_err());
                violated += usize::from(!one.report().violations.is_empty());
                parallel += usize::from(!csv || !text.contains('"'));
            }
        }
        assert!(
            compared > 1000
                && failed > 100
                && violated > 300
                && parallel > 500
                && explained > 200
                && back > 20
                && late > 20,
            "{compared} compared, {failed} failed, {violated} violated, {parallel} parallel, \
             {explained} explained later, {back} went back, {late} late"
        );
    }

    /// Keys held inline in the map and keys on the heap (longer than
    /// [`INLINE`] bytes with their length, at the boundary too) are told
    /// apart and found again as short keys are: the same log with its keys
    /// renamed to short ones gives the same report, keys renamed back.
    #[test]
    fn long_keys_are_checked_as_short_keys() {
        let long: Vec<String> = [17, 18, 19, 20, 40, 200]
            .iter()
            .flat_map(|&n| ["x".repeat(n), format!("{}y", "x".repeat(n - 1))])
            .collect();
        // Keys at the limits of a dead key's inline bytes and of a
        // record's, and beyond (their encoding has 4 bytes of length).
        let in_record = KEY_WORDS * 8 - 1;
        for limit in [INLINE, in_record] {
            assert!(long.iter().any(|k| 4 + k.len() == limit));
            assert!(long.iter().any(|k| 4 + k.len() == limit + 1));
        }
        let table = crate::MonitorTable::from_ltl("G(a -> X b)").unwrap();
        let run = |names: &dyn Fn(usize) -> String| {
            let mut rng = SplitMix64::new(7);
            let mut log = String::from("k,a,b\n");
            for _ in 0..2000 {
                let r = rng.next_u64();
                let (a, b) = ((r >> 8) & 1, u64::from((r >> 9) % 8 != 0));
                log.push_str(&format!(
                    "{},{a},{b}\n",
                    names((r % long.len() as u64) as usize)
                ));
            }
            let p = Property::new(
                "p",
                table.clone(),
                vec![Expr::parse("a").unwrap(), Expr::parse("b").unwrap()],
            );
            let options = Options {
                all: true,
                ..Options::default()
            };
            let mut c = KeyedChecker::new(vec![p], options, &["k"], KeyedOptions::default());
            c.run(&mut CsvReader::new("t.csv", log.as_bytes()).unwrap())
                .unwrap()
        };
        let got = run(&|i| long[i].clone());
        let mut want = run(&|i| format!("k{i}"));
        for v in &mut want.violations {
            v.key = vec![long[v.key[0][1..].parse::<usize>().unwrap()].clone()];
        }
        assert_eq!(got.keys, long.len() as u64);
        assert!(got.violations.len() > 5, "{:?}", got.violations.len());
        assert_eq!(got, want);
    }

    /// `key_limit` bounds the live keys: keys closed or whose monitors can
    /// never be violated again do not count.
    #[test]
    fn the_key_limit_counts_live_keys() {
        let table = crate::MonitorTable::from_ltl("G(a -> X b)").unwrap();
        let p = || {
            Property::new(
                "p",
                table.clone(),
                vec![Expr::parse("a").unwrap(), Expr::parse("b").unwrap()],
            )
        };
        let run = |log: &str, end: Option<&str>| {
            let options = KeyedOptions {
                key_limit: Some(2),
                end_key: end.map(|e| Expr::parse(e).unwrap()),
                ..KeyedOptions::default()
            };
            let mut c = KeyedChecker::new(vec![p()], Options::default(), &["k"], options);
            c.run(&mut CsvReader::new("t.csv", log.as_bytes()).unwrap())
        };
        let log = "k,a,b,end\nx,0,0,0\ny,0,0,1\nz,0,0,0\n";
        let e = run(log, None).unwrap_err();
        assert_eq!(e.at.as_deref(), Some("line 4"));
        assert!(e.message.contains("(--key-limit 2)"), "{e}");
        // y is closed at line 3: z fits.
        let r = run(log, Some("end")).unwrap();
        assert_eq!((r.keys, r.live), (3, 2));
        // x violates (and is done) at line 3: z fits.
        let r = run("k,a,b,end\nx,1,0,0\nx,0,0,0\ny,0,0,0\nz,0,0,0\n", None).unwrap();
        assert_eq!((r.keys, r.live, r.violations.len()), (3, 2, 1));
    }
}
