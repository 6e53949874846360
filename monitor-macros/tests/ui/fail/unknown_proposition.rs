use monitor_macros::monitor;

#[monitor(ltl = "G(req -> X acks)")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {}
