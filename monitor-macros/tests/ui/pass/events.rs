#![deny(warnings)]
// Method-call monitors: `&mut self` and `&self` (Cell, Mutex) receivers,
// each reaction.
use std::cell::Cell;
use std::sync::Mutex;

use monitor_core::{Verdict, Violation};
use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
    opened: u32,
}

#[monitor(ltl = "G(open -> X(!open U close))", on_violation = ignore)]
impl File {
    fn open(&mut self) {
        self.opened += 1;
    }
    fn close(&mut self) {}
    fn other(&self) -> u32 {
        self.opened
    }
}

struct Shared {
    monitor: Cell<SharedMonitor>,
}

#[monitor(ltl = "G(lock -> X unlock)", on_violation = panic)]
impl Shared {
    fn lock(&self) {}
    fn unlock(&self) {}
}

struct Threads {
    guard: Mutex<ThreadsMonitor>,
}

#[monitor(ltl = "G(acquire -> X release)", field = guard, on_violation = log)]
impl Threads {
    fn acquire(&self) {}
    fn release(&self) {}
}

#[derive(Debug)]
struct Misuse(String);

impl From<Violation<'static>> for Misuse {
    fn from(v: Violation<'static>) -> Self {
        Misuse(v.to_string())
    }
}

struct Conn {
    monitor: ConnMonitor,
    sent: Vec<u8>,
}

#[monitor(ltl = "!send W connect", on_violation = result)]
impl Conn {
    fn connect(&mut self) -> Result<(), Misuse> {
        Ok(())
    }
    fn send(&mut self, b: u8) -> Result<usize, Misuse> {
        self.sent.push(b);
        Ok(self.sent.len())
    }
}

// PSL over method calls: after `begin`, no second `begin` before `commit`.
struct Tx {
    monitor: TxMonitor,
}

#[monitor(psl = "always {begin} |=> {!begin[*]; commit}", on_violation = ignore)]
impl Tx {
    fn begin(&mut self) {}
    fn commit(&mut self) {}
}

fn main() {
    let mut f = File { monitor: FileMonitor::new(), opened: 0 };
    f.open();
    f.open(); // ignored, but recorded
    assert_eq!(f.other(), 2);
    assert_eq!(f.monitor.verdict(), Verdict::Violated);
    let v = f.monitor.violation().unwrap();
    assert_eq!(v.after, "open");
    assert_eq!((v.event, v.position), (Some("open"), Some(1)));
    assert_eq!(f.monitor.violations(), 1);

    let s = Shared { monitor: Cell::new(SharedMonitor::new()) };
    s.lock();
    s.unlock();
    assert_eq!(s.monitor.get().verdict(), Verdict::Undecided);
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.lock();
        s.lock();
    }));
    std::panic::set_hook(hook);
    let msg = *caught.unwrap_err().downcast::<String>().unwrap();
    assert!(msg.starts_with("monitor SharedMonitor: `G(lock -> X unlock)` violated by `lock` at step 3 (0-based)"), "{msg}");
    // The monitor describes the violation as the panic did: the event that
    // violated, not a letter.
    let v = s.monitor.get().violation().unwrap();
    assert_eq!(msg, format!("monitor SharedMonitor: {v}"));
    assert_eq!((v.event, v.position), (Some("lock"), Some(3)));

    let t = Threads { guard: Mutex::new(ThreadsMonitor::new()) };
    t.acquire();
    t.release();

    let mut c = Conn { monitor: ConnMonitor::new(), sent: Vec::new() };
    assert!(c.send(1).is_err());
    assert!(c.sent.is_empty());
    c.connect().unwrap();
    assert_eq!(c.send(2).unwrap(), 1);
    assert_ne!(ConnMonitor::EVENT_SEND, ConnMonitor::EVENT_CONNECT);

    let mut tx = Tx { monitor: TxMonitor::new() };
    tx.begin();
    tx.commit();
    tx.begin();
    assert_eq!(tx.monitor.verdict(), Verdict::Undecided);
    tx.begin();
    assert_eq!(tx.monitor.verdict(), Verdict::Violated);
}
