//! The input of `mongen check`: following a growing file (`--follow`) and
//! a progress bar on standard error.

use std::fmt;
use std::fs::File;
use std::io::{self, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How long `--follow` waits at the end of a file before reading again.
const POLL: Duration = Duration::from_millis(100);

/// A regular file read as `tail -f` does: at its end, wait for more
/// instead of ending. A partial last line therefore just waits for the rest
/// in `read`, in the CSV and JSON Lines readers alike.
///
/// A file rewritten from the start (truncated, or rotated by copy and
/// truncate) or replaced under its name (moved away, deleted and created
/// again) cannot go on where the monitors are: before each read, `Follow`
/// checks that the file is no shorter than what was read, that the last
/// bytes read are still there (a file truncated and grown again past them
/// between two polls has other bytes there) and that its name still names
/// it, and stops with an error saying which happened.
pub struct Follow {
    file: File,
    path: PathBuf,
    /// The bytes read so far: a file shorter than that was truncated.
    read: u64,
    /// The last bytes read (at most [`TAIL`]), which must still be the
    /// bytes before `read`.
    tail: Vec<u8>,
}

/// How many of the last bytes read are checked before each read.
const TAIL: usize = 64;

impl Follow {
    pub fn new(file: File, path: &Path) -> Follow {
        Follow {
            file,
            path: path.to_path_buf(),
            read: 0,
            tail: Vec::with_capacity(TAIL),
        }
    }

    /// Why the file cannot be read on from where it was, if it cannot.
    fn changed(&self) -> io::Result<Option<String>> {
        let meta = self.file.metadata()?;
        if meta.len() < self.read {
            return Ok(Some(format!(
                "the file was truncated while followed (at byte {})",
                self.read
            )));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::{FileExt, MetadataExt};
            if !self.tail.is_empty() {
                let mut now = vec![0u8; self.tail.len()];
                self.file
                    .read_exact_at(&mut now, self.read - self.tail.len() as u64)?;
                if now != self.tail {
                    return Ok(Some(format!(
                        "the file was rewritten while followed: the bytes before byte {} changed (truncated and written again?)",
                        self.read
                    )));
                }
            }
            // A name that now names another file (or none): rotated.
            let same = std::fs::metadata(&self.path)
                .is_ok_and(|m| (m.dev(), m.ino()) == (meta.dev(), meta.ino()));
            if !same {
                return Ok(Some(
                    "the file was moved or deleted while followed (its name now names another file, or none)"
                        .to_string(),
                ));
            }
        }
        Ok(None)
    }
}

impl Read for Follow {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if let Some(why) = self.changed()? {
                return Err(io::Error::other(why));
            }
            let n = self.file.read(buf)?;
            if n > 0 {
                self.read += n as u64;
                let keep = n.min(TAIL);
                let drop = (self.tail.len() + keep).saturating_sub(TAIL);
                self.tail.drain(..drop);
                self.tail.extend_from_slice(&buf[n - keep..n]);
                return Ok(n);
            }
            std::thread::sleep(POLL);
        }
    }
}

/// Files smaller than this are read too fast for a progress bar.
pub const PROGRESS_MIN_BYTES: u64 = 8 << 20;

/// A progress bar on standard error while a file is read: bytes read of
/// its size, and events per second (for logs, counted as the line ends
/// read: one event per line). Shown only on a terminal; cleared when
/// dropped.
pub struct Progress {
    bar: ProgressBar,
    lines: Arc<AtomicU64>,
}

impl Progress {
    /// A bar for the file `name` of `size` bytes (`lines`: whether its
    /// events are lines), or `None` if standard error is not a terminal or
    /// the file is small.
    pub fn new(name: &str, size: u64, lines: bool) -> Option<Progress> {
        if size < PROGRESS_MIN_BYTES || !io::stderr().is_terminal() {
            return None;
        }
        let counted = Arc::new(AtomicU64::new(0));
        let events = {
            let counted = Arc::clone(&counted);
            // Events per second: the rate of bytes, times the events per
            // byte so far (smoother than a rate of its own).
            move |state: &ProgressState, w: &mut dyn fmt::Write| {
                let bytes = state.pos();
                if bytes > 0 {
                    let per_byte = counted.load(Ordering::Relaxed) as f64 / bytes as f64;
                    let rate = (state.per_sec() * per_byte).max(0.0);
                    let _ = write!(w, "{} events/s", HumanCount(rate as u64));
                }
            }
        };
        let template = if lines {
            "{prefix} [{bar:30}] {percent:>3}% {binary_bytes}/{binary_total_bytes} \
             {binary_bytes_per_sec}, {events_per_sec}, eta {eta}"
        } else {
            "{prefix} [{bar:30}] {percent:>3}% {binary_bytes}/{binary_total_bytes} \
             {binary_bytes_per_sec}, eta {eta}"
        };
        let style = ProgressStyle::with_template(template)
            .expect("a valid template")
            .progress_chars("=> ")
            .with_key("events_per_sec", events);
        // At most ten redraws a second.
        let bar = ProgressBar::with_draw_target(Some(size), ProgressDrawTarget::stderr_with_hz(10))
            .with_style(style)
            .with_prefix(name.to_string());
        Some(Progress {
            bar,
            lines: counted,
        })
    }

    /// `input`, counting what is read on the bar.
    pub fn wrap<R: Read>(&self, input: R) -> Counted<R> {
        Counted {
            inner: input,
            bar: self.bar.clone(),
            lines: Arc::clone(&self.lines),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// A reader that counts bytes and line ends on a [`Progress`] bar.
pub struct Counted<R> {
    inner: R,
    bar: ProgressBar,
    lines: Arc<AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.lines
            .fetch_add(line_ends(&buf[..n]), Ordering::Relaxed);
        self.bar.inc(n as u64);
        Ok(n)
    }
}

/// The number of `\n` in `bytes`.
fn line_ends(bytes: &[u8]) -> u64 {
    memchr::memchr_iter(b'\n', bytes).count() as u64
}
