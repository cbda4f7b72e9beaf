//! Solver configuration.

/// Options of the retrograde solvers.
///
/// ```
/// let config = solver_retro::Config::default().memory_limit(1 << 30);
/// assert_eq!(config.limit(), 1 << 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    memory_limit: u64,
}

impl Default for Config {
    /// The memory limit defaults to the memory available on the machine
    /// (`MemAvailable` in `/proc/meminfo`), or 8 GiB where that is unknown.
    fn default() -> Self {
        Config {
            memory_limit: available_memory().unwrap_or(8 << 30),
        }
    }
}

impl Config {
    /// Sets the most memory, in bytes, a solve may use for its tables and
    /// stored graph. A game that would need more is refused with
    /// [`crate::Error::TooLarge`] before the memory is taken.
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// The memory limit in bytes.
    #[must_use]
    pub fn limit(&self) -> u64 {
        self.memory_limit
    }
}

fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}
