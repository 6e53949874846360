use monitor_macros::monitor;

#[monitor(ltl = "G(req -> F ack)")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {}
