use monitor_macros::monitor;

#[monitor(ltl = "G(req -> )")]
struct Bus {
    req: bool,
}

fn main() {}
