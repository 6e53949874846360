//! A spinner on standard error for long runs of `classify` and `compile`:
//! the formula (k/n) and what is being done to it, shown once the work on
//! a formula has taken a second, and only when standard error is a
//! terminal (nothing is written otherwise: scripts and tests stay clean).

use std::io::{self, IsTerminal};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long the work on a formula goes before the spinner shows.
const DELAY: Duration = Duration::from_secs(1);

/// The spinner of one formula: cleared when dropped.
pub struct Spinner {
    bar: ProgressBar,
    /// Closed (dropped) when the formula is done: the waiting thread stops.
    done: Option<Sender<()>>,
    waiter: Option<JoinHandle<()>>,
    /// `k/n`.
    head: String,
    /// `\`formula\``.
    label: String,
}

impl Spinner {
    /// A spinner for formula `k` (from 1) of `n`, labelled `label`, doing
    /// `stage`; `None` when standard error is not a terminal.
    pub fn start(k: usize, n: usize, label: &str, stage: &str) -> Option<Spinner> {
        if !io::stderr().is_terminal() {
            return None;
        }
        Some(Spinner::new(k, n, label, stage))
    }

    fn new(k: usize, n: usize, label: &str, stage: &str) -> Spinner {
        let style = ProgressStyle::with_template("{spinner} {elapsed:>3} {wide_msg}")
            .expect("a valid template")
            .tick_strings(&["-", "\\", "|", "/", " "]);
        let bar =
            ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden()).with_style(style);
        let head = format!("{k}/{n}");
        let label = format!("`{label}`");
        // The stage first: a long formula is cut at the terminal's edge.
        bar.set_message(format!("{head} {stage}: {label}"));
        let (done, wait) = mpsc::channel::<()>();
        let shown = bar.clone();
        let waiter = std::thread::spawn(move || {
            // Shown only if the formula is not done within DELAY.
            if let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(DELAY) {
                shown.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
                shown.enable_steady_tick(Duration::from_millis(100));
            }
        });
        Spinner {
            bar,
            done: Some(done),
            waiter: Some(waiter),
            head,
            label,
        }
    }

    /// Names what is being done now.
    pub fn stage(&self, stage: &str) {
        self.bar
            .set_message(format!("{} {stage}: {}", self.head, self.label));
    }

    /// Runs `f` (which writes on standard error) with the spinner hidden.
    pub fn suspend<T>(&self, f: impl FnOnce() -> T) -> T {
        self.bar.suspend(f)
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(w) = self.waiter.take() {
            let _ = w.join();
        }
        self.bar.finish_and_clear();
    }
}

/// [`Spinner::stage`] on an optional spinner.
pub fn stage(spinner: &Option<Spinner>, what: &str) {
    if let Some(s) = spinner {
        s.stage(what);
    }
}

/// Writes `msg` on standard error, with the spinner (if any) hidden.
pub fn eprint_line(spinner: &Option<Spinner>, msg: &str) {
    match spinner {
        Some(s) => s.suspend(|| eprintln!("{msg}")),
        None => eprintln!("{msg}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_formula_never_shows_and_stops_at_once() {
        let start = std::time::Instant::now();
        let s = Spinner::new(1, 2, "G a", "translating");
        s.stage("writing");
        assert!(s.bar.is_hidden());
        drop(s);
        assert!(
            start.elapsed() < DELAY,
            "dropping does not wait for the delay"
        );
    }

    #[test]
    fn a_slow_formula_shows_after_the_delay() {
        let s = Spinner::new(1, 1, "G a", "classifying");
        std::thread::sleep(DELAY + Duration::from_millis(300));
        // The draw target is standard error now (hidden again only if
        // standard error is not a terminal, as under `cargo test`).
        assert!(s.bar.is_hidden() != io::stderr().is_terminal());
        assert_eq!(s.bar.message(), "1/1 classifying: `G a`");
        s.stage("writing");
        assert_eq!(s.bar.message(), "1/1 writing: `G a`");
    }
}
