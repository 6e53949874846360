#![deny(warnings)]
// `on_violation = log` in a crate that does not depend on `log` (the UI
// tests' programs depend on `monitor-core` and `monitor-macros` only): the
// generated code reaches `log` through `monitor-core`. The message reaches
// the logger installed (here through the same re-export; a program would
// install it with its own `log` 0.4, the same crate for Cargo).
use std::sync::Mutex;

use monitor_core::__private::log::{self, Level, Log, Metadata, Record};
use monitor_macros::monitor;

struct Capture(Mutex<Vec<(Level, String)>>);

impl Log for Capture {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn log(&self, record: &Record<'_>) {
        self.0
            .lock()
            .unwrap()
            .push((record.level(), record.args().to_string()));
    }
    fn flush(&self) {}
}

static LOGGER: Capture = Capture(Mutex::new(Vec::new()));

struct Pool {
    monitor: PoolMonitor,
}

#[monitor(ltl = "G(acquire -> X release)", on_violation = log)]
impl Pool {
    fn acquire(&mut self) -> u32 {
        7
    }
    fn release(&mut self) {}
}

#[monitor(ltl = "G(low -> X !high)", ap(low = self.level < 10, high = self.level > 90), on_violation = log)]
struct Tank {
    level: u32,
}

fn main() {
    log::set_logger(&LOGGER).unwrap();
    log::set_max_level(log::LevelFilter::Trace);

    let mut p = Pool {
        monitor: PoolMonitor::new(),
    };
    assert_eq!(p.acquire(), 7);
    p.release();
    assert!(LOGGER.0.lock().unwrap().is_empty());
    p.acquire();
    p.acquire();
    p.acquire(); // counted, logged once
    let logged = LOGGER.0.lock().unwrap().clone();
    let v = p.monitor.violation().unwrap();
    assert_eq!(
        logged,
        [(Level::Error, format!("monitor PoolMonitor: {v}"))]
    );
    assert_eq!(
        logged[0].1,
        "monitor PoolMonitor: `G(acquire -> X release)` violated by `acquire` at step 3 (0-based): \
         after `acquire`, the event must not be `acquire`"
    );
    assert_eq!(p.monitor.violations(), 2);

    LOGGER.0.lock().unwrap().clear();
    let mut t = TankMonitor::new();
    t.observe(&Tank { level: 50 });
    t.observe(&Tank { level: 5 });
    t.observe(&Tank { level: 95 });
    let logged = LOGGER.0.lock().unwrap().clone();
    assert_eq!(
        logged,
        [(
            Level::Error,
            "monitor TankMonitor: `G(low -> X !high)` violated at step 2 (0-based): \
             after `low`, the letter satisfied `high`"
                .to_string()
        )]
    );
}
