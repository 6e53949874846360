use monitor_macros::monitor;

#[monitor(ltl = "G(busy -> X !busy)")]
struct Cpu {
    busy: u8,
}

fn main() {}
