// Issue 36, item 13: `open` and `OPEN` both made `EVENT_OPEN`, a duplicate
// definition reported at the attribute. Refused at the second method.
#![allow(non_snake_case)]
use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
}

#[monitor(ltl = "G(open -> X \"OPEN\")")]
impl File {
    fn open(&mut self) {}
    fn OPEN(&mut self) {}
}

fn main() {}
