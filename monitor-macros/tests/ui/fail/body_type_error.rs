// A mistake in the body of an event method is reported in the user's code,
// not at the attribute.
use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
}

#[monitor(ltl = "G(open -> X !open)", on_violation = panic)]
impl File {
    fn open(&mut self, name: &str) -> usize {
        name
    }
    fn close(&mut self) -> bool {
        let n: u32 = self.missing;
        n > 0
    }
}

fn main() {}
