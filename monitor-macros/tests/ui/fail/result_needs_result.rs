use monitor_macros::monitor;

struct File {
    monitor: FileMonitor,
}

#[monitor(ltl = "G(open -> X !open)", on_violation = result)]
impl File {
    fn open(&mut self) {}
}

fn main() {}
