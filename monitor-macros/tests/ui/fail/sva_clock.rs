use monitor_macros::monitor;

// A clocked SVA assertion: a monitor reads one snapshot per tick, so the
// clock is refused, at the property.
#[monitor(sva = "a1: assert property (@(posedge clk) req |=> ack);")]
struct Bus {
    req: bool,
    ack: bool,
}

fn main() {}
