//! Progress on stderr for long work: an indicatif bar fed by the engine's
//! [`Progress`] reports, hidden when stderr is not a terminal.

use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use game_core::{grouped, plural};
use indicatif::{ProgressBar, ProgressState, ProgressStyle};
use solver_retro::{Config, Progress};

/// Writes `line` on stderr when it is a terminal (progress is silent
/// elsewhere, as the spinners are).
pub fn note(line: &str) {
    if std::io::stderr().is_terminal() {
        eprintln!("{line}");
    }
}

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
/// resolved, tiers done with positions per second (a tiered solve that
/// knows its positions shows the time left: [`config_sized`]).
pub fn config(spinner: &Spinner, ctx: &super::Ctx) -> Config {
    ctx.config().progress(report(spinner))
}

/// The default [`Config`] for a tiered solve of `positions` indices (those
/// left to solve), its progress shown on `spinner` in positions
/// ([`report_sized`]).
pub fn config_sized(spinner: &Spinner, ctx: &super::Ctx, positions: u64) -> Config {
    ctx.config().progress(report_sized(spinner, positions))
}

/// A progress callback for a tiered solve of `positions` indices: each
/// finished tier adds its indices to an [`Estimate`], the tier being
/// solved its part so far ([`InTier`]: seeded blocks, then positions
/// resolved by its levels), and the spinner shows the positions done and
/// left and a time left that counts down between reports (redrawn at
/// every tick, not only when a tier ends).
pub fn report_sized(
    spinner: &Spinner,
    positions: u64,
) -> impl Fn(Progress) + Send + Sync + 'static {
    let bar = spinner.bar().clone();
    let started = std::time::Instant::now();
    let estimate = Arc::new(Mutex::new((Estimate::new(positions), InTier::default())));
    let shown = Arc::clone(&estimate);
    let words = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
        if let Ok(e) = shown.lock() {
            let _ = w.write_str(&e.0.words(started.elapsed().as_secs_f64()));
        }
    };
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}{left} ({elapsed})") {
        bar.set_style(style.with_key("left", words));
    }
    move |p| {
        let now = started.elapsed().as_secs_f64();
        match p {
            Progress::Tier {
                done,
                total,
                positions,
            } => {
                if let Ok(mut e) = estimate.lock() {
                    e.0.add(positions, now);
                    e.1 = InTier::default();
                }
                bar.set_message(format!("solving: {done}/{total} tiers"));
            }
            Progress::Seeded {
                seeded,
                positions,
                levels,
            } => {
                if let Ok(mut e) = estimate.lock() {
                    let part = e.1.seeded(seeded, positions, levels);
                    e.0.partial(part, now);
                }
            }
            Progress::Level { level, positions } => {
                if let Ok(mut e) = estimate.lock() {
                    let part = e.1.resolved(positions);
                    e.0.partial(part, now);
                }
                bar.set_message(format!(
                    "solving: level {level}, {} resolved in this tier",
                    plural(positions, "position")
                ));
            }
            _ => {}
        }
    }
}

/// The tier being solved, as far as its reports go: what its work so far
/// is worth in its positions. A tier with levels is counted half seeded,
/// half resolved (seeding visits every index and its moves; the levels
/// visit every position resolved and its unmoves: about as much work
/// when few are drawn, as in Dobutsu shogi); a tier every move leaves is
/// done when seeded.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InTier {
    /// Indices of the tier (0: no report yet).
    positions: u64,
    /// Indices seeded so far.
    seeded: u64,
    /// Whether levels follow the seeding.
    levels: bool,
    /// Positions resolved by the levels so far.
    resolved: u64,
}

impl InTier {
    /// `seeded` of the tier's `positions` indices are seeded: its work
    /// done so far, in positions. A count below the last starts the tier
    /// again (a tier too deep for narrow cells is solved again in wide
    /// ones), its levels not begun.
    pub fn seeded(&mut self, seeded: u64, positions: u64, levels: bool) -> u64 {
        if seeded < self.seeded || self.resolved > 0 {
            self.resolved = 0;
        }
        self.seeded = seeded.min(positions);
        self.positions = positions;
        self.levels = levels;
        self.part()
    }

    /// The levels have resolved `resolved` positions of the tier so far:
    /// its work done so far, in positions.
    pub fn resolved(&mut self, resolved: u64) -> u64 {
        self.resolved = resolved.min(self.positions);
        self.part()
    }

    /// The work done so far, in positions.
    fn part(&self) -> u64 {
        if self.levels {
            self.seeded / 2 + self.resolved / 2
        } else {
            self.seeded
        }
    }
}

/// The time left of a solve measured in positions, the unit its work is
/// measured in (tiers are of very unequal sizes: Dobutsu shogi's first
/// tier is a sliver of the second). Fed the positions finished and the
/// time since the start, from any clock (the tests give it one of their
/// own): the rate so far gives the time left as of the last report, and
/// between reports that counts down as the clock runs, so it moves toward
/// zero; past zero the work is slower than the rate so far, and it says by
/// how much instead of promising a time.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Positions to solve in all.
    total: u64,
    /// Positions of the tiers solved so far.
    done: u64,
    /// What the tier being solved has done so far, in positions.
    part: u64,
    /// The last report: its time and the seconds it left.
    last: Option<(f64, f64)>,
}

impl Estimate {
    /// Nothing done of `total` positions.
    pub fn new(total: u64) -> Self {
        Estimate {
            total,
            done: 0,
            part: 0,
            last: None,
        }
    }

    /// A tier of `positions` is done, `now` seconds after the start.
    pub fn add(&mut self, positions: u64, now: f64) {
        self.done = self.done.saturating_add(positions).min(self.total);
        self.part = 0;
        self.revise(now);
    }

    /// The tier being solved has done work worth `positions` so far, `now`
    /// seconds after the start.
    pub fn partial(&mut self, positions: u64, now: f64) {
        self.part = positions;
        self.revise(now);
    }

    /// The time left as of `now`, from the rate so far.
    fn revise(&mut self, now: f64) {
        let done = self.positions().0;
        if done > 0 && now > 0.0 {
            let rate = done as f64 / now;
            self.last = Some((now, (self.total - done) as f64 / rate));
        }
    }

    /// Positions done and in all.
    pub fn positions(&self) -> (u64, u64) {
        (
            self.done.saturating_add(self.part).min(self.total),
            self.total,
        )
    }

    /// Seconds left `now` seconds after the start: `Ok(left)` while the
    /// countdown from the last report runs, `Err(over)` once the work has
    /// run `over` seconds past it, `None` before the first report.
    pub fn left(&self, now: f64) -> Option<Result<f64, f64>> {
        let (at, left) = self.last?;
        let now_left = left - (now - at).max(0.0);
        Some(if now_left >= 0.0 || self.positions().0 == self.total {
            Ok(now_left.max(0.0))
        } else {
            Err(-now_left)
        })
    }

    /// The words after the phase: `; 2,000 of 10,000 positions' work
    /// done, about 40 s left` (empty before the first report, and once every
    /// position is solved: the phases after the solve say their own).
    pub fn words(&self, now: f64) -> String {
        let (done, total) = self.positions();
        if done == total {
            return String::new();
        }
        let time = match self.left(now) {
            None => return String::new(),
            Some(Ok(s)) => format!("about {} left", super::seconds_words(s)),
            Some(Err(s)) => format!(
                "{} past the estimate (the rate so far)",
                super::seconds_words(s)
            ),
        };
        format!(
            "; {} of {} positions' work done, {time}",
            grouped(done),
            grouped(total)
        )
    }
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
            // No time left here: tiers are of unequal sizes, and the
            // positions to come are not known (`report_sized` knows them).
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            let all = solved.fetch_add(positions, std::sync::atomic::Ordering::Relaxed) + positions;
            bar.set_message(format!(
                "solving: {done}/{total} tiers done, {} solved, {:.1} M positions/s",
                plural(all, "position"),
                all as f64 / secs / 1e6,
            ));
        }
        Progress::Work { done, total } => {
            bar.set_message(format!("working: {done}/{total}"));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tiers of unequal size, on a clock the test moves: the estimate
    /// counts down between reports, is revised by the positions (not the
    /// tiers) each report brings, and says when the work runs past it.
    #[test]
    fn the_estimate_counts_positions_and_moves_between_reports() {
        let mut e = Estimate::new(1_000);
        assert_eq!(e.left(5.0), None);
        assert_eq!(e.words(5.0), "");
        // A small first tier: 10 positions in 10 s, so 990 s left.
        e.add(10, 10.0);
        assert_eq!(e.left(10.0), Some(Ok(990.0)));
        // Counting down with the clock, without a report.
        assert_eq!(e.left(40.0), Some(Ok(960.0)));
        assert_eq!(e.left(1_000.0), Some(Ok(0.0)));
        // Past it, the overrun is said instead of a time.
        assert_eq!(e.left(1_010.0), Some(Err(10.0)));
        assert!(e.words(1_010.0).contains("past the estimate"));
        // A large tier of 490 more by 1,000 s: 500 done at half a
        // position a second, so 1,000 s left.
        e.add(490, 1_000.0);
        assert_eq!(e.left(1_000.0), Some(Ok(1_000.0)));
        assert_eq!(e.positions(), (500, 1_000));
        assert_eq!(
            e.words(1_010.0),
            "; 500 of 1000 positions' work done, about 990 s left"
        );
        // Done: nothing left, whatever the clock says, and nothing said.
        e.add(500, 1_200.0);
        assert_eq!(e.left(1_500.0), Some(Ok(0.0)));
        assert_eq!(e.words(1_500.0), "");
    }

    /// Inside a tier, the work done so far counts: a tier of 1,000 with
    /// levels, half seeded in 10 s, is a quarter done (250 positions'
    /// work), so 30 s left; resolved positions bring the other half, and
    /// the tier's end replaces the part by the whole tier.
    #[test]
    fn the_estimate_moves_inside_a_tier() {
        let mut e = Estimate::new(1_000);
        let mut t = InTier::default();
        e.partial(t.seeded(500, 1_000, true), 10.0);
        assert_eq!(e.positions(), (250, 1_000));
        assert_eq!(e.left(10.0), Some(Ok(30.0)));
        assert_eq!(e.left(20.0), Some(Ok(20.0)));
        e.partial(t.seeded(1_000, 1_000, true), 20.0);
        assert_eq!(e.left(20.0), Some(Ok(20.0)));
        e.partial(t.resolved(600), 32.0);
        assert_eq!(e.positions(), (800, 1_000));
        assert_eq!(e.left(32.0), Some(Ok(8.0)));
        // More resolved than the tier holds is the whole tier.
        assert_eq!(t.resolved(5_000), 1_000);
        // Seeding again (wider cells) starts the tier's part again.
        assert_eq!(t.seeded(100, 1_000, true), 50);
        assert_eq!(t.resolved(0), 50);
        // A tier every move leaves is done when seeded.
        let mut leaves = InTier::default();
        assert_eq!(leaves.seeded(300, 1_000, false), 300);
        e.add(1_000, 40.0);
        assert_eq!(e.positions(), (1_000, 1_000));
        assert_eq!(e.words(40.0), "");
    }

    /// A report past the total (a store that repeats a tier) stays at the
    /// total; nothing to solve is nothing left.
    #[test]
    fn the_estimate_stays_within_the_total() {
        let mut e = Estimate::new(100);
        e.add(150, 2.0);
        assert_eq!(e.positions(), (100, 100));
        assert_eq!(e.left(50.0), Some(Ok(0.0)));
        let mut none = Estimate::new(0);
        none.add(0, 1.0);
        assert_eq!(none.left(1.0), None);
    }
}
