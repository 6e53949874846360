use monitor_macros::monitor;

#[monitor(ltl = "G !low", ap(low = self.level + 1))]
struct Tank {
    level: u32,
}

fn main() {}
