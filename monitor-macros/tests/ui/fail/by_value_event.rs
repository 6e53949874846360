use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
}

#[monitor(ltl = "G(open -> X !open)")]
impl File {
    fn open(self) {}
}

fn main() {}
