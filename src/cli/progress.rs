//! Progress on stderr for long work: an indicatif bar fed by the engine's
//! [`Progress`] reports, hidden when stderr is not a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use solver_retro::{Config, Progress};

/// A spinner with a message, ticking by itself; cleared when dropped.
pub struct Spinner(ProgressBar);

impl Spinner {
    /// Starts a spinner saying `msg` (drawn only on a terminal).
    pub fn new(msg: impl Into<String>) -> Self {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.set_message(msg.into());
        // The ticking thread draws nothing off a terminal (the bar is
        // hidden there), and indicatif panics when it cannot spawn it
        // (a process short of threads or of memory for their stacks):
        // only a terminal gets one.
        if std::io::stderr().is_terminal() {
            bar.enable_steady_tick(Duration::from_millis(120));
        }
        Spinner(bar)
    }

    /// The bar, to feed it reports.
    pub fn bar(&self) -> &ProgressBar {
        &self.0
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// The default [`Config`] with its progress shown on `spinner`: levels
/// resolved, tiers done with positions per second and the time left.
pub fn config(spinner: &Spinner, ctx: &super::Ctx) -> Config {
    ctx.config().progress(report(spinner))
}

/// A progress callback that shows reports on `spinner`.
pub fn report(spinner: &Spinner) -> impl Fn(Progress) + Send + Sync + 'static {
    let bar = spinner.bar().clone();
    let started = std::time::Instant::now();
    let solved = std::sync::atomic::AtomicU64::new(0);
    move |p| match p {
        Progress::Level { level, positions } => {
            bar.set_message(format!(
                "solving: level {level}, {positions} positions resolved"
            ));
        }
        Progress::Tier {
            done,
            total,
            positions,
        } => {
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            let all = solved.fetch_add(positions, std::sync::atomic::Ordering::Relaxed) + positions;
            let left = secs / done as f64 * (total - done) as f64;
            bar.set_message(format!(
                "solving: {done}/{total} tiers done, {:.1} M positions/s, about {:.0} s left",
                all as f64 / secs / 1e6,
                left
            ));
        }
        Progress::Work { done, total } => {
            bar.set_message(format!("working: {done}/{total}"));
        }
        _ => {}
    }
}
