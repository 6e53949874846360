use monitor_macros::monitor;

#[monitor(psl = "always {req} |=> ack")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {}
