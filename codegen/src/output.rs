//! Where a command's output and errors go: [`Run`] collects them (a
//! formula that fails does not stop the others), [`Output`] writes the
//! `-o` file or standard output.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use mongen::emit::EmitError;

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
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| {
            w.write_all(pending.as_bytes())?;
            writeln!(w, "{line}")?;
            w.flush()
        });
    }

    /// Writes `out` now, flushed.
    pub(crate) fn flush(&mut self) {
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| {
            w.write_all(pending.as_bytes())?;
            w.flush()
        });
    }

    /// Writes `out` and then `write`'s text now (to the output's buffer),
    /// instead of at the end: for reports much larger than what they are
    /// made from (`check --by` of many violating keys), never held whole.
    pub(crate) fn write_now(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| {
            w.write_all(pending.as_bytes())?;
            write(w)
        });
    }

    /// Writes `out` and then `write`'s text now, instead of at the end:
    /// for monitors written state by state (HOA, DOT, JSON), whose text
    /// can be much larger than the monitor. An error of the monitor's
    /// (a label too large to write, found midway) is returned, the
    /// monitor's partial text taken back out of the `-o` file.
    pub(crate) fn stream(
        &mut self,
        write: impl FnOnce(&mut Stream) -> io::Result<()>,
    ) -> Result<(), String> {
        let pending = std::mem::take(&mut self.out);
        self.output.write(|w| w.write_all(pending.as_bytes()));
        self.output.write_undoable(write)
    }
}

/// The `-o` file or standard output. The file is created when something
/// is first written, at the latest at the end, under a temporary name
/// beside it, and renamed to its name once everything is written: a run
/// that fails midway (a label too large to write, a full disk) leaves
/// no partial file, nor the file of an earlier run, which would pass for
/// this one's. Write errors are reported at the end, as when everything
/// is written at the end.
pub(crate) struct Output {
    pub(crate) path: Option<PathBuf>,
    pub(crate) sink: Sink,
    /// The temporary file `sink` writes, renamed to `path` at the end;
    /// `None` for standard output and for a `path` written in place (not
    /// a regular file: `/dev/null`, a FIFO, a symbolic link).
    temp: Option<Temp>,
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
    /// A monitor failed midway on an output that cannot take its partial
    /// text back (standard output, a file written in place): the error
    /// is reported already, and the rest is dropped.
    Stopped,
}

/// A temporary file beside the output, removed unless renamed to it.
struct Temp {
    path: PathBuf,
    /// A handle on the file that the stream writes (to take a monitor's
    /// partial text back out).
    file: std::fs::File,
    renamed: bool,
}

impl Temp {
    /// A new file beside `target` (`.NAME.mongen-PID.tmp`), with the
    /// permissions of the file it replaces, if any.
    fn create(target: &Path, replaced: Option<&std::fs::Metadata>) -> io::Result<Temp> {
        let dir = match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let mut tries = 0;
        loop {
            let mut temp =
                std::ffi::OsString::from(format!(".{name}.mongen-{}", std::process::id()));
            if tries > 0 {
                temp.push(format!("-{tries}"));
            }
            temp.push(".tmp");
            let path = dir.join(temp);
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(file) => {
                    let temp = Temp {
                        path,
                        file,
                        renamed: false,
                    };
                    if let Some(m) = replaced {
                        temp.file.set_permissions(m.permissions())?;
                    }
                    return Ok(temp);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists && tries < 100 => tries += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// The message of a monitor's own error (a label too large to write,
/// raised midway through a streamed monitor), as opposed to a failure of
/// the output: the writers return it as an `EmitError` of kind
/// `InvalidInput`.
fn monitor_error(e: &io::Error) -> Option<String> {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref::<EmitError>())
        .map(|e| e.to_string())
}

/// A path as messages show it: terminal escapes and line ends escaped.
pub(crate) fn shown_path(path: &Path) -> String {
    monitor_core::trace::escape(&path.display().to_string()).into_owned()
}

/// Whether `a` and `b` name the same file: the same file if both exist
/// (through links), else the same absolute path, the folder resolved.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    let resolve = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = std::fs::canonicalize(p) {
            return Some(c);
        }
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d,
            _ => Path::new("."),
        };
        Some(std::fs::canonicalize(parent).ok()?.join(p.file_name()?))
    };
    match (resolve(a), resolve(b)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

/// Whether `path` is a regular file (not a symbolic link to one).
fn regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file())
}

impl Output {
    pub(crate) fn new(path: Option<PathBuf>) -> Output {
        Output {
            path,
            sink: Sink::Unopened,
            temp: None,
        }
    }

    /// Opens the output: standard output; a temporary file beside `-o`'s
    /// if that is a regular file or does not exist (or, if no file can
    /// be created there, `-o`'s itself); else `-o`'s (written in place).
    fn open(&mut self) -> Sink {
        let Some(path) = &self.path else {
            return Sink::Open(io::BufWriter::new(Box::new(io::stdout().lock())));
        };
        let replaced = std::fs::symlink_metadata(path);
        let replaceable = match &replaced {
            Ok(m) => m.is_file(),
            Err(e) => e.kind() == io::ErrorKind::NotFound,
        };
        if replaceable {
            if let Ok(temp) = Temp::create(path, replaced.as_ref().ok()) {
                return match temp.file.try_clone() {
                    Ok(f) => {
                        self.temp = Some(temp);
                        Sink::Open(io::BufWriter::new(Box::new(f)))
                    }
                    Err(e) => self.failure(e),
                };
            }
        }
        match std::fs::File::create(path) {
            Ok(f) => Sink::Open(io::BufWriter::new(Box::new(f))),
            Err(e) => self.failure(e),
        }
    }

    /// Runs `write` on the output, opened first if need be; does nothing
    /// once writing has failed or the pipe is closed.
    pub(crate) fn write(&mut self, write: impl FnOnce(&mut Stream) -> io::Result<()>) {
        if let Sink::Unopened = self.sink {
            self.sink = self.open();
        }
        if let Sink::Open(w) = &mut self.sink {
            if let Err(e) = write(w) {
                self.sink = self.failure(e);
            }
        }
    }

    /// [`Output::write`] for one monitor, whose own error (a label too
    /// large to write) is returned: its partial text is taken back out of
    /// the temporary file and the output goes on; where it cannot be
    /// taken back (standard output, a file written in place), nothing
    /// more is written.
    pub(crate) fn write_undoable(
        &mut self,
        write: impl FnOnce(&mut Stream) -> io::Result<()>,
    ) -> Result<(), String> {
        use std::io::{Seek, SeekFrom};
        self.write(|_| Ok(()));
        let Sink::Open(w) = &mut self.sink else {
            return Ok(());
        };
        // Where the monitor starts in the temporary file.
        let mark = match &self.temp {
            Some(t) => match w.flush().and_then(|()| (&t.file).stream_position()) {
                Ok(m) => Some(m),
                Err(e) => {
                    self.sink = self.failure(e);
                    return Ok(());
                }
            },
            None => None,
        };
        let e = match write(w) {
            Ok(()) => return Ok(()),
            Err(e) => e,
        };
        let Some(message) = monitor_error(&e) else {
            self.sink = self.failure(e);
            return Ok(());
        };
        match (&self.temp, mark) {
            (Some(t), Some(mark)) => {
                let back = w
                    .flush()
                    .and_then(|()| t.file.set_len(mark))
                    .and_then(|()| (&t.file).seek(SeekFrom::Start(mark)));
                if let Err(e) = back {
                    self.sink = self.failure(e);
                }
                Err(message)
            }
            _ => {
                self.sink = Sink::Stopped;
                Err(format!(
                    "{message} (the output stops there: the monitor's partial text \
                     cannot be taken back from {})",
                    match &self.path {
                        Some(p) => p.display().to_string(),
                        None => "standard output".into(),
                    }
                ))
            }
        }
    }

    pub(crate) fn failure(&self, e: io::Error) -> Sink {
        match &self.path {
            Some(path) => Sink::Failed(format!("cannot write {}: {e}", shown_path(path))),
            None if e.kind() == io::ErrorKind::BrokenPipe => Sink::Closed,
            None => Sink::Failed(format!("cannot write the output: {e}")),
        }
    }

    /// Removes `-o`'s file from an earlier run if it is a regular file
    /// (`-o /dev/null`, a FIFO or a device must never be removed, which
    /// as root took /dev/null away from the whole machine).
    fn remove_earlier(&self) -> Result<(), String> {
        if let Some(path) = self.path.as_deref().filter(|p| regular(p)) {
            match std::fs::remove_file(path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(format!("cannot remove {}: {e}", path.display()))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// Writes the rest and flushes, and renames the temporary file to
    /// `-o`'s; the error of this or any earlier write.
    pub(crate) fn finish(&mut self, rest: &[u8]) -> Result<(), String> {
        // Nothing written (every formula failed, or every streamed
        // monitor was taken back out): no file, neither an empty one nor
        // the output of an earlier run, which would pass for this one's
        // (as a compiler leaves no object file).
        let nothing = rest.is_empty()
            && match (&mut self.sink, &self.temp) {
                (Sink::Unopened, _) => true,
                (Sink::Open(w), Some(t)) => {
                    w.flush().is_ok() && t.file.metadata().is_ok_and(|m| m.len() == 0)
                }
                _ => false,
            };
        if nothing {
            self.temp = None;
            return self.remove_earlier();
        }
        self.write(|w| {
            w.write_all(rest)?;
            w.flush()
        });
        if let Sink::Failed(e) = &self.sink {
            let e = e.clone();
            if self.temp.take().is_some() {
                // Written beside it: the earlier file goes too.
                self.remove_earlier()?;
            }
            return Err(e);
        }
        if let (Some(mut t), Some(path)) = (self.temp.take(), &self.path) {
            // (The stream's handle closes with the sink.)
            self.sink = Sink::Closed;
            if let Err(e) = std::fs::rename(&t.path, path) {
                return Err(format!("cannot write {}: {e}", shown_path(path)));
            }
            t.renamed = true;
        }
        Ok(())
    }
}
