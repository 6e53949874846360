// A receiver that consumes what holds the monitor (`Box<Self>`, like
// `self`) is refused at the method.
use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
}

#[monitor(ltl = "G(open -> X close)")]
impl File {
    fn open(&mut self) {}
    fn close(self: Box<Self>) {}
}

fn main() {}
