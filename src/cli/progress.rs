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
pub fn config_sized(spinner: &Spinner, ctx: &super::Ctx, positions: u64, after: f64) -> Config {
    ctx.config()
        .progress(report_sized(spinner, positions, after))
}

/// A progress callback for a tiered solve of `positions` indices: every
/// report goes to an [`Estimate`], and the spinner shows the tiers done,
/// the phase of the tier being solved with its work done of its whole
/// (indices seeded, positions expanded by its levels) and the time left,
/// which counts down between reports (redrawn at every tick); the work
/// after the solve is priced at `after` seconds a second of the solve
/// ([`Estimate::with_after`]) and its time left shown beside the phases
/// that follow.
pub fn report_sized(
    spinner: &Spinner,
    positions: u64,
    after: f64,
) -> impl Fn(Progress) + Send + Sync + 'static {
    let bar = spinner.bar().clone();
    let started = std::time::Instant::now();
    let estimate = Arc::new(Mutex::new(Estimate::new(positions).with_after(after)));
    let shown = Arc::clone(&estimate);
    let words = move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
        if let Ok(e) = shown.lock() {
            let _ = w.write_str(&e.words(started.elapsed().as_secs_f64()));
        }
    };
    if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}{left} ({elapsed})") {
        bar.set_style(style.with_key("left", words));
    }
    move |p| {
        // The time read under the lock: reports from several threads are
        // taken in the order of their times. The estimate first, then the
        // tiers done: a redraw between the two shows the tier just done
        // with no phase, never the next tier's count beside its phase.
        if let Ok(mut e) = estimate.lock() {
            e.report(p, started.elapsed().as_secs_f64());
        }
        if let Progress::Tier { done, total, .. } = p {
            bar.set_message(format!("solving: {done}/{total} tiers done"));
        }
    }
}

/// The time left of a tiered solve, from each phase's own measured rate:
/// a tier's seeding in indices a second, its levels in positions expanded
/// a second ([`Progress::Expanded`]). Tiers differ in both (Dobutsu
/// shogi's first tier is a sliver of the second, and cheaper an index),
/// so the tier being solved is priced at its own rates as soon as it has
/// measured them, and the tiers not started at the latest rates measured,
/// with levels when the latest tier had them, expanding as many
/// positions an index as the last tier with levels did.
///
/// Fed the reports and the seconds since the start, from any clock (the
/// tests give it one of their own): each report revises the time left,
/// and between reports that counts down as the clock runs, so it moves
/// toward zero; when it runs out before the work does, it says "about a
/// minute more", never a time below zero.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// Indices to solve in all.
    total: u64,
    /// Indices of the tiers solved so far.
    done: u64,
    /// Tiers done and in all, from the last [`Progress::Tier`].
    tiers: Option<(u64, u64)>,
    /// The tier being solved.
    tier: InTier,
    /// The latest seeding rate measured, indices a second.
    seeding: Option<f64>,
    /// The latest rate of levels measured, positions expanded a second.
    expanding: Option<f64>,
    /// Positions expanded an index by the last tier with levels.
    share: Option<f64>,
    /// Seconds an index of the last tier, whole: the price when no tier
    /// reported its phases (the cluster reports only tiers and levels).
    tier_cost: Option<f64>,
    /// Whether the latest tier had levels: the tiers not started are
    /// priced like it.
    levels_like: bool,
    /// The last revision: its time and the seconds it left.
    last: Option<(f64, f64)>,
    /// The work after the solve (the walk of the positions reachable from
    /// the start, the certificate) in seconds a second of the solve: it
    /// is priced at the solve's own time, and counted down through those
    /// phases once the solve is done.
    after: f64,
    /// The certificate after the solve, once it reports
    /// ([`Progress::Work`]): the time and the count of its first report,
    /// and the largest count so far; it is then priced at its own rate.
    checking: Option<(f64, u64, u64)>,
    /// Each tier solved, in order: its indices and the seconds its solve
    /// took — what prices the certificate's indices, which go tier by
    /// tier in the same order and cost as unequally (Dobutsu shogi's
    /// first tier some ten times less an index than its second).
    tier_secs: Vec<(u64, f64)>,
}

/// The tier being solved, as far as its reports go.
#[derive(Debug, Clone, Default, PartialEq)]
struct InTier {
    /// When its work began (the last tier's end, or the start).
    start: f64,
    /// The time of its last report.
    latest: f64,
    /// Its indices (0: no seeding reported yet).
    indices: u64,
    /// Whether levels follow its seeding.
    levels: bool,
    /// Indices seeded so far.
    seeded: u64,
    /// When its seeding ended (its last block, or its levels' start).
    seeded_at: Option<f64>,
    /// When its levels began.
    levels_at: Option<f64>,
    /// Positions its levels expanded so far.
    expanded: u64,
    /// The most positions its levels may expand.
    positions: u64,
    /// The last level done.
    level: Option<u64>,
}

impl Estimate {
    /// Nothing done of `total` indices.
    pub fn new(total: u64) -> Self {
        Estimate {
            total,
            done: 0,
            tiers: None,
            tier: InTier::default(),
            seeding: None,
            expanding: None,
            share: None,
            tier_cost: None,
            levels_like: false,
            last: None,
            after: 0.0,
            checking: None,
            tier_secs: Vec::new(),
        }
    }

    /// With the work after the solve priced at `share` seconds a second
    /// of the solve (the cost model's: [`solver_retro::cost::work`]).
    #[must_use]
    pub fn with_after(mut self, share: f64) -> Self {
        self.after = share.max(0.0);
        self
    }

    /// Takes report `p`, sent `now` seconds after the start.
    pub fn report(&mut self, p: Progress, now: f64) {
        match p {
            Progress::Tier {
                done,
                total,
                positions,
            } => self.tier_done(positions, (done, total), now),
            Progress::Seeded {
                seeded,
                positions,
                levels,
            } => self.seeded(seeded, positions, levels, now),
            Progress::Expanded {
                expanded,
                positions,
            } => self.expanded(expanded, positions, now),
            Progress::Level { level, .. } => {
                self.tier.level = Some(level);
                self.tier.latest = now;
            }
            Progress::Work { done, total } if self.done >= self.total => {
                return self.checked(done, total, now);
            }
            _ => return,
        }
        self.revise(now);
    }

    /// The certificate after the solve has checked `done` of `total`
    /// indices: the time left is the rest at the rate measured since its
    /// first report (until then the price the solve set counts down), its
    /// indices weighed by their tiers' solve times where the tiers solved
    /// are the ones it checks (a certificate's index costs about what the
    /// same index's solve did, tier by tier), else counted alike.
    fn checked(&mut self, done: u64, total: u64, now: f64) {
        let Some((at, first, most)) = &mut self.checking else {
            self.checking = Some((now, done, done));
            return;
        };
        // A count below the largest is a block reported late: it says
        // nothing new.
        if done <= *most {
            return;
        }
        *most = done;
        let (at, first) = (*at, *first);
        let solve = |k| self.solve_secs(k, total);
        let weighed = match (solve(first), solve(done), solve(total)) {
            (Some(a), Some(b), Some(c)) if b > a && now > at => {
                Some((now - at) / (b - a) * (c - b))
            }
            _ => None,
        };
        let plain = || rate(done - first, now - at).map(|r| total.saturating_sub(done) as f64 / r);
        if let Some(left) = weighed.or_else(plain) {
            self.last = Some((now, left));
        }
    }

    /// The seconds the solve took for the first `k` indices of the tiers
    /// in their order, where those are `total` indices in all.
    fn solve_secs(&self, k: u64, total: u64) -> Option<f64> {
        // One pass: the seconds at `k`, and the indices counted, which
        // must be the certificate's (else the tiers are not the same).
        let (mut seen, mut secs, mut at) = (0u64, 0.0, None);
        for &(n, s) in &self.tier_secs {
            if at.is_none() && k <= seen + n {
                at = Some(secs + s * (k - seen) as f64 / n.max(1) as f64);
            }
            seen += n;
            secs += s;
        }
        at.filter(|_| seen == total)
    }

    /// A tier of `positions` indices is done, `tiers` done of all.
    fn tier_done(&mut self, positions: u64, tiers: (u64, u64), now: f64) {
        let t = &self.tier;
        if t.indices > 0 {
            if let Some(end) = t.seeded_at {
                self.seeding = rate(t.indices, end - t.start).or(self.seeding);
            }
            if let Some(at) = t.levels_at {
                self.expanding = rate(t.expanded, now - at).or(self.expanding);
                self.share = Some(t.expanded as f64 / t.indices as f64);
            }
            self.levels_like = t.levels;
        }
        if positions > 0 && now > t.start {
            self.tier_cost = Some((now - t.start) / positions as f64);
        }
        self.tier_secs.push((positions, (now - t.start).max(0.0)));
        self.done = self.done.saturating_add(positions).min(self.total);
        self.tiers = Some(tiers);
        self.tier = InTier {
            start: now,
            latest: now,
            ..InTier::default()
        };
    }

    /// `seeded` of the tier's `positions` indices are seeded. A report
    /// after its levels began, or far below the last, starts the tier
    /// again (a tier too deep or too wide for narrow cells is solved
    /// again in wide ones); one a few blocks below the last is a block
    /// that finished on another thread, reported late.
    fn seeded(&mut self, seeded: u64, positions: u64, levels: bool, now: f64) {
        let t = &mut self.tier;
        if seeded.saturating_add(LATE) < t.seeded || t.levels_at.is_some() {
            *t = InTier {
                start: t.latest,
                ..InTier::default()
            };
        }
        t.indices = positions;
        t.levels = levels;
        t.seeded = seeded.min(positions).max(t.seeded);
        t.latest = now;
        self.levels_like = levels;
        if t.seeded == positions {
            t.seeded_at = Some(now);
        }
        self.seeding = rate(t.seeded, now - t.start).or(self.seeding);
    }

    /// The tier's levels have expanded `expanded` of at most `positions`.
    fn expanded(&mut self, expanded: u64, positions: u64, now: f64) {
        let t = &mut self.tier;
        let at = *t.levels_at.get_or_insert(now);
        t.seeded_at.get_or_insert(now);
        t.expanded = t.expanded.max(expanded);
        t.positions = positions;
        t.latest = now;
        self.expanding = rate(t.expanded, now - at).or(self.expanding);
    }

    /// The time left as of `now`, from the rates measured so far.
    fn revise(&mut self, now: f64) {
        // The phases after the solve, priced at the solve's whole time
        // (so far and left).
        self.last = self
            .seconds_left()
            .map(|s| (now, s + self.after * (now + s)));
    }

    /// Seconds left as of the last report: the tier being solved at its
    /// own rates, the rest at the latest (`None` before any is measured).
    fn seconds_left(&self) -> Option<f64> {
        let all_left = self.total.saturating_sub(self.done);
        let Some(seeding) = self.seeding else {
            return self.tier_cost.map(|c| all_left as f64 * c);
        };
        // A position expanded is priced as an index seeded until a rate
        // of levels is measured, and an index as one position.
        let expanding = self.expanding.unwrap_or(seeding);
        let share = self.share.unwrap_or(1.0);
        let t = &self.tier;
        let mut left = 0.0;
        if t.indices > 0 {
            left += t.indices.saturating_sub(t.seeded) as f64 / seeding;
            if t.levels {
                let to_expand = if t.levels_at.is_some() {
                    t.positions as f64
                } else {
                    share * t.indices as f64
                };
                left += (to_expand - t.expanded as f64).max(0.0) / expanding;
            }
        }
        let later = all_left.saturating_sub(t.indices) as f64;
        left += later / seeding;
        if self.levels_like {
            left += later * share / expanding;
        }
        Some(left)
    }

    /// Seconds left `now` seconds after the start, counted down from the
    /// last revision (below zero when the work runs past it), `None`
    /// before any rate is measured.
    pub fn left(&self, now: f64) -> Option<f64> {
        let (at, left) = self.last?;
        Some(left - (now - at).max(0.0))
    }

    /// The words after the tiers done: `; seeding tier 2: 5,000 of 10,000
    /// indices; about 40 s left`, or `; tier 2, level 5: 3,000 of 9,000
    /// positions expanded; about 12 min left` (empty before the first report, and once
    /// every index is solved: the phases after the solve say their own).
    pub fn words(&self, now: f64) -> String {
        if self.done >= self.total {
            // The phases after the solve say their own names; the time
            // left is theirs.
            return match self.left(now) {
                Some(s) if self.after > 0.0 && s >= 1.0 => {
                    format!("; about {} left", left_words(s))
                }
                Some(_) if self.after > 0.0 => "; about a minute more".to_string(),
                _ => String::new(),
            };
        }
        if self.last.is_none() && self.tier.indices == 0 {
            return String::new();
        }
        let t = &self.tier;
        let name = match self.tiers {
            Some((done, total)) if done < total => format!("tier {}", done + 1),
            _ => "a tier".to_string(),
        };
        let phase = if t.levels_at.is_some() {
            format!(
                "; {name}, level {}: {} of {} positions expanded",
                t.level.unwrap_or(0),
                grouped(t.expanded),
                grouped(t.positions)
            )
        } else if t.indices > 0 {
            format!(
                "; seeding {name}: {} of {} indices",
                grouped(t.seeded),
                grouped(t.indices)
            )
        } else {
            String::new()
        };
        let time = match self.left(now) {
            None => String::new(),
            Some(s) if s >= 1.0 => format!("; about {} left", left_words(s)),
            Some(_) => "; about a minute more".to_string(),
        };
        format!("{phase}{time}")
    }
}

/// How far below the last a seeding report may come from a block
/// finished on another thread: 64 of the engine's blocks of 2¹⁴ indices.
const LATE: u64 = 64 << 14;

/// `units` in `secs` seconds, a second (`None` for no time or no units).
fn rate(units: u64, secs: f64) -> Option<f64> {
    (units > 0 && secs > 0.0).then(|| units as f64 / secs)
}

/// A time left in words: `40 s`, `12 min`, `1 h 05 min`.
pub fn left_words(s: f64) -> String {
    let s = s.max(0.0).round() as u64;
    if s < 100 {
        format!("{s} s")
    } else if s < 3_600 {
        format!("{} min", (s + 30) / 60)
    } else {
        let m = (s + 30) / 60;
        format!("{} h {:02} min", m / 60, m % 60)
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

    /// A synthetic solve on a clock of its own: each phase at a constant
    /// rate, reported as the engine reports it. Returns the reports with
    /// their times, and the time the solve ends.
    struct Stream {
        reports: Vec<(f64, Progress)>,
        clock: f64,
    }

    impl Stream {
        fn new() -> Self {
            Stream {
                reports: Vec::new(),
                clock: 0.0,
            }
        }

        /// A tier of `indices` seeded at `seed_rate` indices a second, a
        /// report every `block` indices; with `levels`, then `expand` of
        /// at most `positions` positions expanded at `expand_rate` a
        /// second, a report every `every`, a level every 4 reports.
        #[allow(clippy::too_many_arguments)]
        fn tier(
            &mut self,
            (done, total): (u64, u64),
            indices: u64,
            block: u64,
            seed_rate: f64,
            levels: Option<(u64, u64, u64, f64)>,
        ) {
            let mut seeded = 0;
            while seeded < indices {
                let b = block.min(indices - seeded);
                seeded += b;
                self.clock += b as f64 / seed_rate;
                self.push(Progress::Seeded {
                    seeded,
                    positions: indices,
                    levels: levels.is_some(),
                });
            }
            if let Some((expand, positions, every, rate)) = levels {
                self.push(Progress::Expanded {
                    expanded: 0,
                    positions,
                });
                let (mut expanded, mut k) = (0, 0);
                while expanded < expand {
                    let b = every.min(expand - expanded);
                    expanded += b;
                    self.clock += b as f64 / rate;
                    self.push(Progress::Expanded {
                        expanded,
                        positions,
                    });
                    k += 1;
                    if k % 4 == 0 {
                        self.push(Progress::Level {
                            level: k / 4,
                            positions: expanded,
                        });
                    }
                }
            }
            self.push(Progress::Tier {
                done,
                total,
                positions: indices,
            });
        }

        fn push(&mut self, p: Progress) {
            self.reports.push((self.clock, p));
        }
    }

    /// Tiers every move leaves (as Connect Four's), all seeded at 100
    /// indices a second: from the first report on, the estimate is the
    /// truth, whatever the tiers' sizes.
    #[test]
    fn one_rate_gives_the_true_time_left() {
        let mut s = Stream::new();
        for (k, n) in [1_000, 5_000, 2_000].into_iter().enumerate() {
            s.tier((k as u64 + 1, 3), n, 100, 100.0, None);
        }
        let end = s.clock;
        assert!((end - 80.0).abs() < 1e-9);
        let mut e = Estimate::new(8_000);
        assert_eq!(e.left(0.0), None);
        assert_eq!(e.words(0.0), "");
        for &(at, p) in &s.reports {
            e.report(p, at);
            let left = e.left(at).unwrap();
            assert!((left - (end - at)).abs() < 1e-6, "at {at}: {left}");
            // Counting down between reports.
            let later = e.left(at + 0.5).unwrap();
            assert!((left - later - 0.5).abs() < 1e-9);
        }
        assert_eq!(e.words(end), "");
    }

    /// Dobutsu shogi's shape: a small tier every move leaves, cheap an
    /// index (1,000 at 100 a second: 10 s), then a large loopy tier
    /// (100,000 seeded at 1,000 a second: 100 s; then 90,000 of its
    /// 95,000 positions expanded at 500 a second: 180 s, the rest drawn).
    /// Each phase is priced at its own rate once measured: within the
    /// large tier's seeding the estimate is within a factor of two of the
    /// truth (its levels priced at its seeding rate until measured), and
    /// within its levels within the 10 s its draws are worth; it moves
    /// toward zero there at every report, and never says less than zero.
    #[test]
    fn each_phase_is_priced_at_its_own_rate() {
        let mut s = Stream::new();
        s.tier((1, 2), 1_000, 100, 100.0, None);
        let first = s.clock;
        s.tier(
            (2, 2),
            100_000,
            1_000,
            1_000.0,
            Some((90_000, 95_000, 1_000, 500.0)),
        );
        let end = s.clock;
        assert!((end - 290.0).abs() < 1e-6);
        let mut e = Estimate::new(101_000);
        let mut previous: Option<f64> = None;
        for &(at, p) in &s.reports {
            e.report(p, at);
            let left = e.left(at).unwrap();
            let truth = end - at;
            assert!(left >= 0.0);
            // (Near the end, the draws' 10 s are more than the truth.)
            if at > first && truth > 20.0 {
                assert!(
                    left <= 2.0 * truth + 1e-6 && 2.0 * left >= truth,
                    "at {at}: {left}"
                );
            }
            if matches!(p, Progress::Expanded { expanded, .. } if expanded > 0) {
                assert!((left - truth - 10.0).abs() < 1e-6, "at {at}: {left}");
                if let Some(before) = previous {
                    assert!(left < before, "at {at}: {left} after {before}");
                }
                previous = Some(left);
            }
        }
        // Inside the large tier's levels, the words say the phase, the
        // positions and the time.
        let mut e = Estimate::new(101_000);
        for &(at, p) in s.reports.iter().filter(|(at, _)| *at <= 200.0) {
            e.report(p, at);
        }
        assert_eq!(
            e.words(200.0),
            "; tier 2, level 11: 45,000 of 95,000 positions expanded; about 2 min left"
        );
        // Past the estimate with no report, never a time below zero.
        assert_eq!(
            e.words(320.0),
            "; tier 2, level 11: 45,000 of 95,000 positions expanded; about a minute more"
        );
    }

    /// The words of a seeding: the tier (the next after the tiers done),
    /// its indices seeded of all, and the time left in minutes once past
    /// 100 s.
    #[test]
    fn a_seeding_says_its_indices_and_the_time() {
        let mut e = Estimate::new(11_000);
        e.report(
            Progress::Tier {
                done: 1,
                total: 2,
                positions: 1_000,
            },
            10.0,
        );
        // Only the tier's whole time so far: 10 ms an index, so 100 s
        // for the 10,000 left.
        assert!((e.left(10.0).unwrap() - 100.0).abs() < 1e-9);
        e.report(
            Progress::Seeded {
                seeded: 5_000,
                positions: 10_000,
                levels: false,
            },
            60.0,
        );
        assert_eq!(
            e.words(60.0),
            "; seeding tier 2: 5000 of 10,000 indices; about 50 s left"
        );
        assert_eq!(left_words(40.4), "40 s");
        assert_eq!(left_words(99.0), "99 s");
        assert_eq!(left_words(100.0), "2 min");
        assert_eq!(left_words(719.0), "12 min");
        assert_eq!(left_words(3_900.0), "1 h 05 min");
    }

    /// A block reported late by another thread (a count a little below
    /// the last) changes nothing; a seeding again after the levels began
    /// (a tier solved again in wide cells) starts the tier's count again,
    /// its rates kept.
    #[test]
    fn late_blocks_and_a_tier_solved_again() {
        let mut e = Estimate::new(100_000);
        let seeded = |s: u64| Progress::Seeded {
            seeded: s,
            positions: 100_000,
            levels: true,
        };
        e.report(seeded(32_768), 1.0);
        e.report(seeded(16_384), 1.0);
        assert_eq!(e.tier.seeded, 32_768);
        e.report(seeded(100_000), 4.0);
        e.report(
            Progress::Expanded {
                expanded: 0,
                positions: 100_000,
            },
            4.0,
        );
        e.report(
            Progress::Expanded {
                expanded: 10_000,
                positions: 100_000,
            },
            6.0,
        );
        // 90,000 left at 5,000 a second.
        assert!((e.left(6.0).unwrap() - 18.0).abs() < 1e-9);
        e.report(seeded(16_384), 7.0);
        assert_eq!((e.tier.seeded, e.tier.expanded), (16_384, 0));
        assert_eq!(e.tier.levels_at, None);
        // Seeding from the last report (6 s) at 16,384 a second; the
        // levels at the rate measured.
        let want = (100_000.0 - 16_384.0) / 16_384.0 + 100_000.0 / 5_000.0;
        assert!((e.left(7.0).unwrap() - want).abs() < 1e-9);
    }

    /// A report past the total (a store that repeats a tier) stays at the
    /// total; nothing to solve is nothing left.
    #[test]
    fn the_estimate_stays_within_the_total() {
        let mut e = Estimate::new(100);
        e.report(
            Progress::Tier {
                done: 1,
                total: 1,
                positions: 150,
            },
            2.0,
        );
        assert_eq!(e.left(50.0), Some(-48.0));
        assert_eq!(e.words(50.0), "");
        let mut none = Estimate::new(0);
        none.report(
            Progress::Tier {
                done: 1,
                total: 1,
                positions: 0,
            },
            1.0,
        );
        assert_eq!(none.left(1.0), None);
    }

    /// The walk and the certificate after the solve, priced at the
    /// solve's own time: the estimate covers the whole run, and counts
    /// down through the phases after the solve, which it names no tier
    /// in.
    #[test]
    fn the_work_after_the_solve_is_priced_at_its_time() {
        let mut s = Stream::new();
        s.tier((1, 1), 1_000, 100, 100.0, None);
        let end = s.clock;
        assert!((end - 10.0).abs() < 1e-9);
        let mut e = Estimate::new(1_000).with_after(1.25);
        for &(at, p) in &s.reports {
            e.report(p, at);
            // The solve's 10 s, and 12.5 s after it.
            let left = e.left(at).unwrap();
            assert!((left - (end - at + 12.5)).abs() < 1e-6, "at {at}: {left}");
        }
        assert_eq!(e.words(end), "; about 13 s left");
        assert_eq!(e.words(end + 12.0), "; about a minute more");
        // Without work after it, nothing is said once the solve is done.
        let mut bare = Estimate::new(1_000);
        for &(at, p) in &s.reports {
            bare.report(p, at);
        }
        assert_eq!(bare.words(end), "");
    }

    /// The certificate after the solve reports its indices checked: from
    /// its second report the time left is the rest at its own rate, not
    /// the price the solve set (Dobutsu shogi's certificate ran 8 minutes
    /// past a price that had run out, "about a minute more" all along).
    #[test]
    fn the_certificate_is_priced_at_its_own_rate_once_it_reports() {
        let mut s = Stream::new();
        s.tier((1, 1), 1_000, 100, 100.0, None);
        let end = s.clock;
        let mut e = Estimate::new(1_000).with_after(1.25);
        for &(at, p) in &s.reports {
            e.report(p, at);
        }
        // The walk takes 2 s; the certificate then checks 1,000 indices
        // at 20 a second (50 s: far past the 12.5 s priced).
        let start = end + 2.0;
        e.report(
            Progress::Work {
                done: 100,
                total: 1_000,
            },
            start + 5.0,
        );
        for k in 2..10u64 {
            let at = start + 5.0 * k as f64;
            e.report(
                Progress::Work {
                    done: 100 * k,
                    total: 1_000,
                },
                at,
            );
            let left = e.left(at).unwrap();
            let truly = start + 50.0 - at;
            assert!((left - truly).abs() < 1e-6, "at {at}: {left} for {truly}");
        }
        // A report out of order (a block checked on another thread) moves
        // nothing back.
        let at = start + 46.0;
        e.report(
            Progress::Work {
                done: 500,
                total: 1_000,
            },
            at,
        );
        assert!(e.left(at).unwrap() <= 4.0 + 1e-6);
        // Tiers of unequal cost an index: the certificate's indices are
        // priced as their solve's. Two tiers of 1,000 indices, solved in
        // 1 s and 10 s; the certificate takes 2 s and 20 s of them.
        let mut s = Stream::new();
        s.tier((1, 2), 1_000, 100, 1_000.0, None);
        s.tier((2, 2), 1_000, 100, 100.0, None);
        let end = s.clock;
        assert!((end - 11.0).abs() < 1e-9);
        let mut e = Estimate::new(2_000).with_after(1.25);
        for &(at, p) in &s.reports {
            e.report(p, at);
        }
        let checked_at = |k: u64| {
            let k = k as f64;
            end + if k <= 1_000.0 {
                2.0 * k / 1_000.0
            } else {
                2.0 + 20.0 * (k - 1_000.0) / 1_000.0
            }
        };
        for k in (100..2_000).step_by(100) {
            let at = checked_at(k);
            e.report(
                Progress::Work {
                    done: k,
                    total: 2_000,
                },
                at,
            );
            if k > 100 {
                let left = e.left(at).unwrap();
                let truly = checked_at(2_000) - at;
                assert!((left - truly).abs() < 1e-6, "{k}: {left} for {truly}");
            }
        }
        // During the solve, such reports are not the certificate's.
        let mut solving = Estimate::new(1_000).with_after(1.25);
        solving.report(Progress::Work { done: 1, total: 2 }, 1.0);
        assert_eq!(solving.checking, None);
    }
}
