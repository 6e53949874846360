//! The input of `mongen check`: compressed traces (gzip, zstd), following
//! a growing file (`--follow`) and a progress bar on standard error.

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

/// The compression of a trace, told by its name's last extension
/// (`log.csv.gz`, `log.jsonl.zst`); the format is then told by the
/// extension before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// `.gz`: gzip (RFC 1952), one member or several one after another
    /// (as `cat a.gz b.gz` and parallel compressors write them).
    Gzip,
    /// `.zst`, `.zstd`: Zstandard (RFC 8878), one frame or several.
    Zstd,
}

impl Compression {
    /// The compression that `path`'s last extension names, if any.
    pub fn of(path: &Path) -> Option<Compression> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "gz" => Some(Compression::Gzip),
            "zst" | "zstd" => Some(Compression::Zstd),
            _ => None,
        }
    }

    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }

    /// The bytes `input` decompresses to. Data that is not of this
    /// compression, corrupt or cut short is an error when it is read,
    /// never a shorter input (see [`Decoded`]).
    pub fn decoder(self, input: Box<dyn Read + Send>) -> io::Result<Decoded> {
        let inner: Box<dyn Read + Send> = match self {
            Compression::Gzip => Box::new(flate2::read::MultiGzDecoder::new(input)),
            Compression::Zstd => Box::new(zstd::stream::read::Decoder::new(input)?),
        };
        Ok(Decoded {
            inner,
            compression: self,
        })
    }
}

/// Decompressed bytes. An error of the compressed data says what it is
/// (`the gzip data is corrupt or truncated: ...`), and is of no kind a
/// reader reads as its own (`InvalidData` reads as invalid UTF-8 in JSON
/// Lines).
pub struct Decoded {
    inner: Box<dyn Read + Send>,
    compression: Compression,
}

impl Read for Decoded {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            return match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Err(io::Error::other(format!(
                    "the {} data is corrupt or truncated: {e}",
                    self.compression.name()
                ))),
                ok => ok,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(c: Compression, bytes: Vec<u8>) -> io::Result<Vec<u8>> {
        let mut out = Vec::new();
        c.decoder(Box::new(io::Cursor::new(bytes)))?
            .read_to_end(&mut out)?;
        Ok(out)
    }

    /// Every cut of a compressed file short of its end is an error, never
    /// a shorter input; several members (frames) are read one after the
    /// other.
    #[test]
    fn cut_compressed_data_is_an_error_and_members_follow_each_other() {
        use std::io::Write;
        let text: Vec<u8> = (0..5000)
            .flat_map(|i| format!("{i},s{},{}\n", i % 17, i % 3).into_bytes())
            .collect();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&text).unwrap();
        let gz = gz.finish().unwrap();
        // With a checksum of the content, as the `zstd` tool writes it.
        let mut zst = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        zst.include_checksum(true).unwrap();
        zst.write_all(&text).unwrap();
        let zst = zst.finish().unwrap();
        for (c, bytes) in [(Compression::Gzip, gz), (Compression::Zstd, zst)] {
            assert_eq!(read_all(c, bytes.clone()).unwrap(), text, "{c:?}");
            let twice = [bytes.clone(), bytes.clone()].concat();
            assert_eq!(read_all(c, twice).unwrap(), [&text[..], &text[..]].concat());
            for cut in (1..bytes.len()).step_by(7).chain([bytes.len() - 1]) {
                let e = read_all(c, bytes[..cut].to_vec())
                    .expect_err(&format!("{c:?} cut at {cut} of {}", bytes.len()));
                assert_ne!(e.kind(), io::ErrorKind::InvalidData, "{c:?} {cut}: {e}");
                assert!(
                    e.to_string().contains("corrupt or truncated"),
                    "{c:?} {cut}: {e}"
                );
            }
            // A flipped byte in the middle: an error, whatever it breaks.
            let mut bad = bytes.clone();
            let mid = bad.len() / 2;
            bad[mid] ^= 0x55;
            assert!(read_all(c, bad).is_err(), "{c:?}");
        }
    }
}
