// `name` equal to the watched type's own name would define it twice.
use monitor_macros::monitor;

#[monitor(ltl = "G a", name = Bus)]
struct Bus {
    a: bool,
}

fn main() {}
