//! What a monitor keeps after a violation, in the build it runs in: the
//! default reaction (`debug_panic`) panics when `debug_assertions` are on
//! (`cargo test`) and only records otherwise (`cargo test --release`);
//! either way the monitor keeps the first violation (its event and
//! position) and counts the later ones, and reacts once.

use std::panic::{catch_unwind, AssertUnwindSafe};

use monitor_core::Verdict;
use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
    opened: u32,
}

// `open` may not be called again before `close`; the default reaction.
#[monitor(ltl = "G(open -> X(!open U close))")]
impl File {
    fn open(&mut self) -> u32 {
        self.opened += 1;
        self.opened
    }
    fn close(&mut self) {}
}

fn quietly<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let r = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    r
}

#[test]
fn the_default_reaction_panics_in_debug_builds_and_records_in_release_builds() {
    let mut f = File {
        monitor: FileMonitor::new(),
        opened: 0,
    };
    assert_eq!(f.open(), 1);
    f.close();
    assert_eq!(f.open(), 2);
    let second = quietly(|| f.open());
    let v = f.monitor.violation().expect("violated");
    assert_eq!((v.event, v.position), (Some("open"), Some(3)));
    assert_eq!(v.after, "open");
    let described = format!("monitor FileMonitor: {v}");
    assert_eq!(
        described,
        "monitor FileMonitor: `G(open -> X(!open U close))` violated by `open` at step 3 (0-based): \
         after `open`, the event must not be `open`"
    );
    if cfg!(debug_assertions) {
        // The panic comes before the body.
        let msg = *second.unwrap_err().downcast::<String>().unwrap();
        assert_eq!(msg, described);
        assert_eq!(f.opened, 2);
    } else {
        assert_eq!(second.unwrap(), 3);
    }
    assert_eq!(f.monitor.violations(), 1);
    assert_eq!(f.monitor.verdict(), Verdict::Violated);

    // Later violations: no reaction (no panic, even in debug builds),
    // counted; the monitor goes on as if `open` had not been called at
    // step 3, so a `close` makes `open` right again.
    let opened = f.opened;
    f.open();
    assert_eq!(f.monitor.violations(), 2);
    f.close();
    f.open();
    assert_eq!(f.monitor.violations(), 2);
    f.open();
    assert_eq!(f.monitor.violations(), 3);
    assert_eq!(f.opened, opened + 3);
    // The first violation is the one described, whatever followed.
    assert_eq!(f.monitor.violation(), Some(v));
    assert_eq!(f.monitor.verdict(), Verdict::Violated);

    f.monitor.reset();
    assert_eq!(f.monitor.violations(), 0);
    assert_eq!(f.monitor.violation(), None);
    f.open();
    assert_eq!(f.monitor.verdict(), Verdict::Undecided);
}

#[monitor(ltl = "G(req -> X ack)")]
struct Bus {
    req: bool,
    ack: bool,
}

#[test]
fn snapshot_monitors_keep_the_first_violation_and_count() {
    let idle = Bus {
        req: false,
        ack: false,
    };
    let req = Bus {
        req: true,
        ack: false,
    };
    let mut m = BusMonitor::new();
    assert_eq!(m.observe(&idle), Verdict::Undecided);
    assert_eq!(m.observe(&req), Verdict::Undecided);
    assert_eq!(m.observe(&idle), Verdict::Violated);
    let v = m.violation().unwrap();
    assert_eq!((v.event, v.position), (None, Some(2)));
    assert_eq!(
        v.to_string(),
        "`G(req -> X ack)` violated at step 2 (0-based): after `req`, the letter satisfied `!ack`"
    );
    // The run goes on from after `req`, where `ack` is due: `ack` is
    // fine, and so is `req`, then no `ack` is a second violation.
    let ack = Bus {
        req: false,
        ack: true,
    };
    assert_eq!(m.observe(&ack), Verdict::Violated);
    assert_eq!(m.observe(&req), Verdict::Violated);
    assert_eq!(m.violations(), 1);
    assert_eq!(m.observe(&idle), Verdict::Violated);
    assert_eq!(m.violations(), 2);
    assert_eq!(m.violation(), Some(v));
    // The same through `step` (bit 0: req, bit 1: ack).
    let mut s = BusMonitor::new();
    for letter in [0, 1, 0, 2, 1, 0] {
        s.step(letter);
    }
    assert_eq!((s.violation(), s.violations()), (Some(v), 2));
}
