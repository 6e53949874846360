//! A file handle whose protocol is checked on every call: `#[monitor]` on
//! an `impl` block turns the methods named in the property into events.
//!
//! ```text
//! cargo run -p mongen-examples --bin file_handle
//! ```
//!
//! The property: reads and writes happen only while the handle is open,
//! and it is not opened twice without a close. With `on_violation =
//! result`, a call that would break the protocol is refused with an
//! `io::Error` (`monitor-core` converts a `Violation` into one); the body
//! does not run and the monitor does not move.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::PathBuf;

use monitor_macros::monitor;

/// A file that can be opened, used and closed again.
struct Handle {
    path: PathBuf,
    file: Option<File>,
    monitor: HandleMonitor,
}

#[monitor(
    ltl = "G(open -> X(!open W close)) & ((!read & !write) W open) & G(close -> X((!read & !write) W open))",
    on_violation = result
)]
impl Handle {
    fn open(&mut self) -> io::Result<()> {
        self.file = Some(
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&self.path)?,
        );
        Ok(())
    }

    fn write(&mut self, text: &str) -> io::Result<()> {
        let f = self.file.as_mut().expect("open, as the monitor guarantees");
        f.write_all(text.as_bytes())
    }

    fn read(&mut self) -> io::Result<String> {
        let f = self.file.as_mut().expect("open, as the monitor guarantees");
        f.rewind()?;
        let mut s = String::new();
        f.read_to_string(&mut s)?;
        Ok(s)
    }

    fn close(&mut self) -> io::Result<()> {
        self.file = None;
        Ok(())
    }
}

fn show<T: std::fmt::Debug>(call: &str, r: io::Result<T>) {
    match r {
        Ok(v) => println!("{call:<18} ok {v:?}"),
        Err(e) => println!("{call:<18} refused: {e}"),
    }
}

fn main() -> io::Result<()> {
    let path = std::env::temp_dir().join(format!("mongen-file-handle-{}.txt", std::process::id()));
    let mut h = Handle {
        path: path.clone(),
        file: None,
        monitor: HandleMonitor::new(),
    };
    show("read()", h.read());
    show("open()", h.open());
    show("write(\"hello\")", h.write("hello"));
    show("open()", h.open());
    show("read()", h.read());
    show("close()", h.close());
    show("write(\"again\")", h.write("again"));
    show("open()", h.open());
    show("read()", h.read());
    show("close()", h.close());
    println!(
        "monitor: {} states, {} bytes; verdict {}",
        HandleMonitor::STATES,
        std::mem::size_of::<HandleMonitor>(),
        h.monitor.verdict()
    );
    std::fs::remove_file(&path)?;
    Ok(())
}
