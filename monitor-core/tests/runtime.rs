//! The runtime tables against the monitors they come from: random
//! formulas (with past operators), random traces, both layouts, letters
//! and events; explanations; the `no_std` types' sizes.

use monitor_core::automaton::{BadPrefixDfa, Target};
use monitor_core::formula::random::{RandomLtl, SplitMix64};
use monitor_core::runtime::{Cursor, Layout, Table};
use monitor_core::translate::{Builder, Config, Verdicts};
use monitor_core::{Monitor, MonitorTable, Verdict};

mod common;

fn dfa_of(f: &monitor_core::formula::Formula, three: bool) -> BadPrefixDfa {
    let cfg = Config::new();
    common::dfa_of(
        f,
        if three {
            cfg.verdicts(Verdicts::Three)
        } else {
            cfg
        },
    )
}

/// Runs `trace` on the table and on the monitor, prefix by prefix.
fn agree(dfa: &BadPrefixDfa, table: &Table<'_>, trace: &[u64], what: &str) {
    let mut m = Monitor::new(table);
    let mut s = dfa.start();
    let mut violated = dfa.verdict(s) == Verdict::Violated;
    assert_eq!(m.verdict(), dfa.verdict(s), "{what}: empty word");
    for (i, &l) in trace.iter().enumerate() {
        let want = if violated {
            Verdict::Violated
        } else {
            match dfa.step(s, &l) {
                Target::Violation => {
                    violated = true;
                    Verdict::Violated
                }
                Target::State(t) => {
                    s = t;
                    dfa.verdict(t)
                }
            }
        };
        let got = m.step(l);
        assert_eq!(got, want, "{what}: step {i} of {trace:?}");
        // The same with a slice of bools.
        assert_eq!(m.verdict(), want);
    }
}

#[test]
fn tables_agree_with_their_monitors() {
    let aps = ["a", "b", "c", "d"];
    let mut rng = SplitMix64::new(7);
    for seed in 0..300u64 {
        let f = RandomLtl::new(&aps, 3 + (seed % 10) as usize)
            .with_past()
            .seed(seed)
            .next_formula();
        let dfa = dfa_of(&f, seed % 3 == 0);
        let k = dfa.alphabet().len();
        for layout in [Layout::Dense, Layout::Diagram] {
            let owned = MonitorTable::from_dfa_with(&dfa, layout);
            let table = owned.table();
            for _ in 0..8 {
                let len = 1 + rng.below(12) as usize;
                let trace: Vec<u64> = (0..len)
                    .map(|_| rng.next_u64() & ((1u64 << k) - 1))
                    .collect();
                agree(&dfa, &table, &trace, &format!("{f} ({layout:?})"));
                // Valuations other than bit masks give the same run.
                let mut a = Monitor::new(&table);
                let mut b = Monitor::new(&table);
                for &l in &trace {
                    let bools: Vec<bool> = (0..k).map(|i| (l >> i) & 1 == 1).collect();
                    assert_eq!(a.step(l), b.step_with(&bools[..]));
                }
            }
        }
    }
}

#[test]
fn event_tables_agree_with_single_event_letters() {
    let aps = ["open", "read", "close"];
    let mut rng = SplitMix64::new(11);
    for seed in 0..200u64 {
        let f = RandomLtl::new(&aps, 3 + (seed % 8) as usize)
            .seed(seed)
            .next_formula();
        let dfa = dfa_of(&f, false);
        let k = dfa.alphabet().len();
        if k == 0 {
            continue;
        }
        let owned = MonitorTable::from_dfa_events(&dfa);
        let table = owned.table();
        for _ in 0..6 {
            let events: Vec<usize> = (0..1 + rng.below(10))
                .map(|_| rng.below(k as u64) as usize)
                .collect();
            let mut c = Cursor::new();
            let mut m = Monitor::new(&table);
            for &e in &events {
                let would = c.would_violate_event(&table, e);
                let v = c.step_event(&table, e);
                assert_eq!(v, m.step(1u64 << e), "{f}: {events:?}");
                if would {
                    assert_eq!(v, Verdict::Violated);
                }
            }
        }
    }
}

#[test]
fn explanations_name_the_state_and_the_letters() {
    let table = MonitorTable::from_ltl("G(req -> X(ack | X ack))").unwrap();
    let t = table.table();
    assert_eq!(t.property(), "G(req -> X(ack | Xack))");
    assert_eq!(t.shortest_violation(), "req; !ack; !ack");
    let mut m = Monitor::new(&t);
    for l in [0b01u64, 0b00, 0b00] {
        m.step(l);
    }
    let v = m.violation().unwrap();
    assert_eq!((v.after, v.letters), ("req; !ack", "!ack"));
    assert_eq!(
        v.to_string(),
        "`G(req -> X(ack | Xack))` violated: after `req; !ack`, the letter satisfied `!ack`"
    );
    // Events.
    let dfa = Builder::new()
        .build("G(open -> X(!open U close))")
        .unwrap()
        .into_dfa();
    let owned = MonitorTable::from_dfa_events(&dfa);
    let t = owned.table();
    let mut c = Cursor::new();
    let open = (0..t.props as usize)
        .find(|&i| t.proposition(i) == "open")
        .unwrap();
    c.step_event(&t, open);
    assert_eq!(c.step_event(&t, open), Verdict::Violated);
    let v = c.violation(&t).unwrap().with_event("open");
    assert_eq!((v.after, v.letters), ("open", "open"));
    assert_eq!(t.shortest_violation(), "open; open");
    assert_eq!(
        v.to_string(),
        "`G(open -> X(!open U close))` violated by `open`: after `open`, the event must not be `open`"
    );
}

#[test]
fn unsatisfiable_properties_are_violated_from_the_start() {
    let m = Monitor::from_ltl("a & !a").unwrap();
    assert_eq!(m.verdict(), Verdict::Violated);
    assert!(m.violation().is_some());
    let mut m2 = m;
    assert_eq!(m2.step(0), Verdict::Violated);
}

#[test]
fn monitors_are_small_copy_and_send() {
    fn send_sync_copy<T: Send + Sync + Copy>() {}
    send_sync_copy::<Monitor<'static>>();
    send_sync_copy::<Cursor>();
    assert_eq!(std::mem::size_of::<Cursor>(), 4);
    assert!(std::mem::size_of::<Monitor<'static>>() <= 16);
}

#[test]
fn many_propositions_use_diagrams() {
    let names: Vec<String> = (0..40).map(|i| format!("p{i}")).collect();
    // Two states, 40 propositions: 2^40 letters.
    let f = format!("G(p3 -> X !p3) & G({})", names.join(" | "));
    let dfa = Builder::new().build(&f).unwrap().into_dfa();
    let owned = MonitorTable::from_dfa(&dfa);
    let t = owned.table();
    assert!(matches!(
        t.transitions,
        monitor_core::runtime::Transitions::Diagram { .. }
    ));
    let bit = |p: &str| 1u64 << dfa.alphabet().index(p).unwrap();
    assert_eq!(t.proposition(0), "p3"); // in order of appearance
    let mut m = Monitor::new(&t);
    assert_eq!(m.step(bit("p39")), Verdict::Undecided);
    assert_eq!(m.step(bit("p3")), Verdict::Undecided);
    assert_eq!(m.step(bit("p3") | bit("p20")), Verdict::Violated);
    assert_eq!(m.violation().unwrap().after, "p3");
    let mut m = Monitor::new(&t);
    assert_eq!(m.step(0), Verdict::Violated);
}

/// The table's explanations are the automaton's: a shortest word to each
/// state ([`BadPrefixDfa::access_word`]), the letters that violate from
/// it ([`BadPrefixDfa::violation_guard`]) and a shortest bad prefix (the
/// table computes them its own way, in time linear in the diagrams).
#[test]
fn explanations_are_the_automatons() {
    let aps = ["a", "b", "c", "d"];
    let mut checked = 0;
    for seed in 0..300u64 {
        let f = RandomLtl::new(&aps, 3 + (seed % 12) as usize)
            .with_past()
            .seed(seed)
            .next_formula();
        let dfa = dfa_of(&f, seed % 3 == 0);
        let owned = MonitorTable::from_dfa(&dfa);
        let t = owned.table();
        let word = |w: Vec<monitor_core::automaton::Guard>| {
            w.iter()
                .map(|g| g.display(dfa.alphabet()).to_string())
                .collect::<Vec<_>>()
                .join("; ")
        };
        for s in dfa.states() {
            let i = s.as_usize() as u32;
            assert_eq!(t.access(i), word(dfa.access_word(s)), "{f}: state {i}");
            let g = dfa.violation_guard(s).expect("a small label");
            let bad = if g.is_false() {
                String::new()
            } else {
                g.display(dfa.alphabet()).to_string()
            };
            assert_eq!(t.violating(i), bad, "{f}: state {i}");
        }
        let shortest = dfa.shortest_violation().map_or_else(String::new, word);
        assert_eq!(t.shortest_violation(), shortest, "{f}");
        checked += dfa.num_states();
    }
    assert!(checked > 400, "{checked} states");
}
