// Issue 36, item 13: an `async fn` event stepped the monitor when its future
// was first polled, and a future dropped unpolled was no event. Refused, with
// the two ways to say which is meant.
use monitor_macros::monitor;

struct Task {
    monitor: TaskMonitor,
}

#[monitor(ltl = "G(start -> X stop)")]
impl Task {
    async fn start(&mut self) {}
    fn stop(&mut self) {}
}

fn main() {}
