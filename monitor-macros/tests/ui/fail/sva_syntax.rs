use monitor_macros::monitor;

// An SVA instance with a positional argument after a named one
// (IEEE 1800-2017 §16.8.1): said at the argument.
#[monitor(sva = "sequence s(x, y); x ##1 y; endsequence s(.x(req), ack) |=> done")]
struct Bus {
    req: bool,
    ack: bool,
    done: bool,
}

fn main() {}
