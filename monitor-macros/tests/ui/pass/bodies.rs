#![deny(warnings)]
// Event methods of every shape: an expression body, statements, an early
// `return`, `?`, an empty body, a tail expression of type `()`, a future;
// under each kind of reaction. The generated code must add no warning.
//
// Several bodies are on one line on purpose (`#[rustfmt::skip]`): rustc's
// `unused_braces` only flags a block written on one line, which is what
// `{ q.len() }` wrapped in the monitor's own block used to be.
use std::cell::Cell;
use std::future::Future;
use std::pin::pin;
use std::task::{Context, Poll, Waker};

use monitor_core::{Verdict, Violation};
use monitor_macros::monitor;

struct Db {
    monitor: DbMonitor,
    queries: u32,
}

// The default reaction (`debug_panic`).
#[rustfmt::skip]
#[monitor(ltl = "!query W connect & G(count -> X !count)")]
impl Db {
    fn connect(&mut self) {}
    fn query(&mut self, q: &str) -> usize { q.len() }
    fn count(&mut self) -> u32 { 3 }
    fn not_an_event(&self) -> u32 { self.queries }
}

struct Stmts {
    monitor: StmtsMonitor,
    n: u32,
}

#[monitor(ltl = "G(a -> X(b | c | d | e | f))", on_violation = ignore)]
impl Stmts {
    fn a(&mut self) -> u32 {
        self.n += 1;
        let twice = self.n * 2;
        twice.min(100)
    }
    fn b(&mut self, x: u32) -> u32 {
        if x > 10 {
            return 10;
        }
        x + 1
    }
    fn c(&mut self) {}
    fn d(&mut self) {
        self.n += 1
    }
    fn e(&mut self, x: Option<u32>) -> Option<u32> {
        let y = x?;
        Some(y + 1)
    }
    fn f(&mut self, x: u32) -> Result<u32, String> {
        match x {
            0 => Err("zero".into()),
            n => Ok(n),
        }
    }
}

#[derive(Debug)]
struct Misuse(String);

impl From<Violation<'static>> for Misuse {
    fn from(v: Violation<'static>) -> Self {
        Misuse(v.to_string())
    }
}

impl From<std::num::ParseIntError> for Misuse {
    fn from(e: std::num::ParseIntError) -> Self {
        Misuse(e.to_string())
    }
}

struct Conn {
    monitor: ConnMonitor,
}

#[rustfmt::skip]
#[monitor(ltl = "!send W connect", on_violation = result)]
impl Conn {
    fn connect(&mut self) -> Result<(), Misuse> { Ok(()) }
    fn send(&mut self, text: &str) -> Result<u32, Misuse> { Ok(text.parse::<u32>()?) }
}

fn report(v: &Violation<'static>) {
    eprintln!("reported: {v}");
}

struct Shared {
    monitor: Cell<SharedMonitor>,
}

#[rustfmt::skip]
#[monitor(ltl = "G(lock -> X unlock)", on_violation = report)]
impl Shared {
    fn lock(&self) -> bool { true }
    fn unlock(&self) {}
}

struct Logged {
    monitor: LoggedMonitor,
}

#[rustfmt::skip]
#[monitor(ltl = "G(acquire -> X release)", on_violation = log)]
impl Logged {
    fn acquire(&mut self) -> u8 { 1 }
    fn release(&mut self) { let _ = self.monitor; }
}

struct Counter {
    monitor: CounterMonitor,
    n: u32,
}

// Bodies starting with tokens that could continue an expression: each must
// stay a statement of its own after the monitor's `if`.
#[rustfmt::skip]
#[monitor(ltl = "G((inc | pair | first | neg) -> X get)", on_violation = ignore)]
impl Counter {
    fn inc(&mut self) { self.n += 1 }
    fn get(&mut self) -> u32 { self.n }
    fn pair(&mut self) -> (u32, u32) { (self.n, 0) }
    fn first(&mut self) -> u32 { [self.n, 0][0] }
    fn neg(&mut self) -> i64 { -i64::from(self.n) }
}

struct Task {
    monitor: TaskMonitor,
}

// An `async fn` is refused (ui/fail/async_event.rs); a plain fn returning
// the future is an event at the call, polled or not.
#[rustfmt::skip]
#[monitor(ltl = "G(start -> X fetch)", on_violation = ignore)]
impl Task {
    fn start(&mut self, x: u32) -> impl Future<Output = u32> + '_ { async move { x + 1 } }
    fn fetch(&mut self, x: Option<u32>) -> impl Future<Output = Option<u32>> + '_ {
        async move {
            if x == Some(0) {
                return None;
            }
            Some(x? * 2)
        }
    }
}

fn block_on<F: Future>(f: F) -> F::Output {
    let mut f = pin!(f);
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
    }
}

fn main() {
    let mut db = Db {
        monitor: DbMonitor::new(),
        queries: 0,
    };
    db.connect();
    assert_eq!(db.query("select"), 6);
    assert_eq!(db.count(), 3);
    assert_eq!(db.not_an_event(), 0);

    let mut s = Stmts {
        monitor: StmtsMonitor::new(),
        n: 0,
    };
    assert_eq!(s.a(), 2);
    assert_eq!(s.b(20), 10);
    s.a();
    assert_eq!(s.b(1), 2);
    s.c();
    s.d();
    assert_eq!(s.e(None), None);
    assert_eq!(s.e(Some(1)), Some(2));
    assert!(s.f(0).is_err());
    assert_eq!(s.f(3), Ok(3));
    assert_eq!(s.monitor.verdict(), Verdict::Undecided);

    let mut c = Conn {
        monitor: ConnMonitor::new(),
    };
    assert!(c.send("1").unwrap_err().0.contains("violated by `send`"));
    c.connect().unwrap();
    assert_eq!(c.send("7").unwrap(), 7);
    assert!(c.send("x").unwrap_err().0.contains("invalid digit"));

    let sh = Shared {
        monitor: Cell::new(SharedMonitor::new()),
    };
    assert!(sh.lock());
    sh.unlock();
    assert!(sh.lock());
    assert!(sh.lock()); // reported
    assert_eq!(sh.monitor.get().violations(), 1);

    let mut l = Logged {
        monitor: LoggedMonitor::new(),
    };
    assert_eq!(l.acquire(), 1);
    l.release();

    let mut n = Counter {
        monitor: CounterMonitor::new(),
        n: 0,
    };
    n.inc();
    assert_eq!(n.get(), 1);
    assert_eq!(n.pair(), (1, 0));
    n.get();
    assert_eq!(n.first(), 1);
    n.get();
    assert_eq!(n.neg(), -1);
    n.get();
    assert_eq!(n.monitor.violations(), 0);

    let mut t = Task {
        monitor: TaskMonitor::new(),
    };
    assert_eq!(block_on(t.start(1)), 2);
    assert_eq!(block_on(t.fetch(Some(0))), None);
    assert_eq!(block_on(t.fetch(None)), None);
    assert_eq!(block_on(t.fetch(Some(2))), Some(4));
    assert_eq!(t.monitor.verdict(), Verdict::Undecided);
    // A future dropped unpolled was still a call.
    drop(t.start(5));
    drop(t.start(6));
    assert_eq!(t.monitor.verdict(), Verdict::Violated);
    assert_eq!(t.monitor.violation().unwrap().position, Some(5));
}
