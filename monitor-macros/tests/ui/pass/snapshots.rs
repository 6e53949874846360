#![deny(warnings)]
// Snapshot monitors: bool fields, predicates, generics, three-valued
// verdicts, a closure, a reaction, visibility; Copy, Send, 24 bytes.
use monitor_core::Verdict;
use monitor_macros::monitor;

#[monitor(ltl = "G(req -> X(ack | X ack))")]
pub struct Bus {
    req: bool,
    ack: bool,
}

#[monitor(ltl = "G !(low && high) && G(low -> Y !high)", ap(low = self.level < 10, high = "self.level > 90"))]
struct Tank {
    level: u32,
}

#[monitor(ltl = "G(a -> O b)", name = Since)]
struct Generic<'a, T: Copy> {
    a: bool,
    b: bool,
    _data: &'a [T],
}

#[monitor(ltl = "!done U ready", verdicts = 3)]
struct Job {
    done: bool,
    ready: bool,
}

#[monitor(ltl = "G(req -> F ack)", closure)]
struct Live {
    req: bool,
    ack: bool,
}

fn report(v: &monitor_core::Violation<'static>) {
    println!("reported: {v}");
}

#[monitor(ltl = "G !err", on_violation = report)]
struct Device {
    err: bool,
}

// PSL: a request is acknowledged within one to three cycles.
#[monitor(psl = "always {req} |=> {[*0:2]; ack}")]
struct Handshake {
    req: bool,
    ack: bool,
}

fn assert_traits<T: Copy + Send + Sync + Default + core::fmt::Debug + PartialEq>() {}

fn main() {
    assert_traits::<BusMonitor>();
    assert_eq!(std::mem::size_of::<BusMonitor>(), 24);

    let mut m = BusMonitor::new();
    assert_eq!(m.observe(&Bus { req: true, ack: false }), Verdict::Undecided);
    assert_eq!(m.observe(&Bus { req: false, ack: true }), Verdict::Undecided);
    m.reset();
    assert_eq!(m.state(), 0);

    let mut t = TankMonitor::default();
    assert_eq!(t.observe(&Tank { level: 95 }), Verdict::Undecided);
    assert_eq!(t.observe(&Tank { level: 5 }), Verdict::Violated);

    let data = [1u8];
    let mut g = Since::new();
    assert_eq!(g.observe(&Generic { a: false, b: true, _data: &data }), Verdict::Undecided);
    assert_eq!(g.observe(&Generic { a: true, b: false, _data: &data }), Verdict::Undecided);

    let mut j = JobMonitor::new();
    assert_eq!(j.observe(&Job { done: false, ready: true }), Verdict::Satisfied);

    let mut l = LiveMonitor::new();
    assert_eq!(l.observe(&Live { req: true, ack: false }), Verdict::Undecided);

    let mut h = HandshakeMonitor::new();
    let quiet = Handshake { req: false, ack: false };
    assert_eq!(h.observe(&Handshake { req: true, ack: false }), Verdict::Undecided);
    assert_eq!(h.observe(&quiet), Verdict::Undecided);
    assert_eq!(h.observe(&quiet), Verdict::Undecided);
    assert_eq!(h.observe(&quiet), Verdict::Violated);

    let mut d = DeviceMonitor::new();
    assert_eq!(d.observe(&Device { err: true }), Verdict::Violated);
}
