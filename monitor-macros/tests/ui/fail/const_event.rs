// Issue 36, item 13: a `const fn` event failed inside monitor-core.
use monitor_macros::monitor;

struct Task {
    monitor: TaskMonitor,
}

#[monitor(ltl = "G(start -> X stop)")]
impl Task {
    fn start(&mut self) {}
    const fn stop(&mut self) {}
}

fn main() {}
