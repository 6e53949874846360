//! Where a command's output and errors go: [`Run`] collects them (a
//! formula that fails does not stop the others), [`Output`] writes the
//! `-o` file or standard output.

use std::io::{self, Write};
use std::path::PathBuf;

use crate::progress::Spinner;

/// Collects output and errors; formulas that fail do not stop the others.
pub(crate) struct Run {
    /// Output written at the end.
    pub(crate) out: String,
    /// Where the output goes.
    pub(crate) output: Output,
    /// Output that replaces `out`: a model with observers, byte for byte.
    pub(crate) raw: Option<Vec<u8>>,
    /// Whether nothing at all is written (not even `-o`'s file).
    pub(crate) withhold: bool,
    pub(crate) errors: usize,
    /// The spinner of the formula being processed, hidden while messages
    /// are written.
    pub(crate) spinner: Option<Spinner>,
}

impl Run {
    pub(crate) fn new(path: Option<PathBuf>) -> Run {
        Run {
            out: String::new(),
            output: Output::new(path),
            raw: None,
            withhold: false,
            errors: 0,
            spinner: None,
        }
    }

    pub(crate) fn error(&mut self, msg: &str) {
        self.errors += 1;
        self.note(&format!("mongen: error: {msg}"));
    }

    /// Writes a line on standard error (with the spinner hidden).
    pub(crate) fn note(&self, msg: &str) {
        crate::progress::eprint_line(&self.spinner, msg);
    }

    /// Names what is being done to the current formula, on its spinner.
    pub(crate) fn stage(&self, what: &str) {
        crate::progress::stage(&self.spinner, what);
    }

    /// Writes `line` and a line end to the output now, flushed (lines of
    /// `--stats=FORMAT` and `classify` appear as they are computed).
    pub(crate) fn line_now(&mut self, line: &str) {
        self.stream(|w| {
            writeln!(w, "{line}")?;
            w.flush()
        });
    }

    /// Writes `out` and then `write`'s text now, instead of at the end:
    /// for monitors written state by state (HOA, DOT, JSON), whose text
    /// can be much larger than the monitor.
    pub(crate) fn stream(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| {
            w.write_all(pending.as_bytes())?;
            write(w)
        });
    }
}

/// The `-o` file or standard output. The file is created when something
/// is first written, at the latest at the end. Write errors are reported
/// at the end, as when everything is written at the end.
pub(crate) struct Output {
    pub(crate) path: Option<PathBuf>,
    pub(crate) sink: Sink,
}

/// The file or standard output, buffered (emitters write small pieces).
pub(crate) type Stream = io::BufWriter<Box<dyn Write>>;

pub(crate) enum Sink {
    /// Nothing written yet.
    Unopened,
    Open(Stream),
    /// Standard output is a closed pipe (`mongen … | head`): not an error;
    /// the rest is dropped.
    Closed,
    /// Writing failed: the message; the rest is dropped.
    Failed(String),
}

impl Output {
    pub(crate) fn new(path: Option<PathBuf>) -> Output {
        Output {
            path,
            sink: Sink::Unopened,
        }
    }

    /// Runs `write` on the output, opened first if need be; does nothing
    /// once writing has failed or the pipe is closed.
    pub(crate) fn write(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        if let Sink::Unopened = self.sink {
            self.sink = match &self.path {
                Some(path) => match std::fs::File::create(path) {
                    Ok(f) => Sink::Open(io::BufWriter::new(Box::new(f))),
                    Err(e) => self.failure(e),
                },
                None => Sink::Open(io::BufWriter::new(Box::new(io::stdout().lock()))),
            };
        }
        if let Sink::Open(w) = &mut self.sink {
            if let Err(e) = write(w) {
                self.sink = self.failure(e);
            }
        }
    }

    pub(crate) fn failure(&self, e: io::Error) -> Sink {
        match &self.path {
            Some(path) => Sink::Failed(format!("cannot write {}: {e}", path.display())),
            None if e.kind() == io::ErrorKind::BrokenPipe => Sink::Closed,
            None => Sink::Failed(format!("cannot write the output: {e}")),
        }
    }

    /// Writes the rest and flushes; the error of this or any earlier
    /// write.
    pub(crate) fn finish(&mut self, rest: &[u8]) -> Result<(), String> {
        // Nothing written (every formula failed): no file, neither an
        // empty one nor the output of an earlier run, which would pass
        // for this one's (as a compiler leaves no object file).
        if rest.is_empty() && matches!(self.sink, Sink::Unopened) {
            // Only a regular file: `-o /dev/null` (or a FIFO, a device)
            // must never be removed, which as root took /dev/null away
            // from the whole machine.
            let regular = |p: &PathBuf| std::fs::symlink_metadata(p).is_ok_and(|m| m.is_file());
            if let Some(path) = self.path.as_ref().filter(|p| regular(p)) {
                match std::fs::remove_file(path) {
                    Err(e) if e.kind() != io::ErrorKind::NotFound => {
                        return Err(format!("cannot remove {}: {e}", path.display()))
                    }
                    _ => {}
                }
            }
            return Ok(());
        }
        self.write(|w| {
            w.write_all(rest)?;
            w.flush()
        });
        match &self.sink {
            Sink::Failed(e) => Err(e.clone()),
            _ => Ok(()),
        }
    }
}
