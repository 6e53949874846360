use monitor_macros::monitor;

// A clocked PSL property: outside the supported subset, said at the `@`.
#[monitor(psl = "always {req} |=> {ack} @ clk")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {}
