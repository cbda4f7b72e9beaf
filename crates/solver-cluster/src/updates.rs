//! Parent updates as one list of words a level and destination, run-length
//! encoded: a parent alone is one word (its id, and a bit for "the child
//! was lost"); a run of consecutive parents with the same flag is two
//! words (the first id with the run bit, then the end, exclusive). The
//! encoder joins a parent to the single or run just before it when it
//! follows on, so Magic Fingers' runs of parents — and parents that happen
//! to be neighbours — travel and are applied as runs.

/// The bit of a word that says "the child was lost".
pub(crate) const LOST: u64 = 1 << 63;
/// The bit of a word that starts a run (the next word is its end).
pub(crate) const RUN: u64 = 1 << 62;
/// The id bits of a word.
pub(crate) const ID: u64 = RUN - 1;

/// One decoded update: parents `start..end`, and whether their child was
/// lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: u64,
    pub end: u64,
    pub lost: bool,
}

/// What the last words of an [`Encoder`] hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    None,
    /// The last word is a single parent.
    Single,
    /// The last two words are a run.
    Run,
}

/// Builds one list of words.
#[derive(Debug)]
pub(crate) struct Encoder {
    pub words: Vec<u64>,
    tail: Tail,
}

impl Default for Encoder {
    fn default() -> Self {
        Encoder {
            words: Vec::new(),
            tail: Tail::None,
        }
    }
}

impl Encoder {
    /// Adds parents `start..end` (`start < end`, ids below 2⁶²).
    #[inline(always)]
    pub(crate) fn push(&mut self, start: u64, end: u64, lost: bool) {
        debug_assert!(start < end && end <= ID + 1);
        let flag = if lost { LOST } else { 0 };
        let n = self.words.len();
        match self.tail {
            Tail::Single
                if self.words[n - 1] == flag | (start.wrapping_sub(1) & ID) && start > 0 =>
            {
                self.words[n - 1] |= RUN;
                self.words.push(end);
                self.tail = Tail::Run;
                return;
            }
            Tail::Run if self.words[n - 2] & !ID == flag | RUN && self.words[n - 1] == start => {
                self.words[n - 1] = end;
                return;
            }
            _ => {}
        }
        if end - start == 1 {
            self.words.push(flag | start);
            self.tail = Tail::Single;
        } else {
            self.words.push(flag | RUN | start);
            self.words.push(end);
            self.tail = Tail::Run;
        }
    }

    /// Takes the words out, leaving the encoder empty.
    pub(crate) fn take(&mut self) -> Vec<u64> {
        self.tail = Tail::None;
        std::mem::take(&mut self.words)
    }
}

/// Calls `f` with every update of `words`, in order; a run cut short (its
/// end missing, or not past its start) is an error.
pub(crate) fn decode<E>(
    words: &[u64],
    mut f: impl FnMut(Span) -> Result<(), E>,
    broken: impl Fn(String) -> E,
) -> Result<(), E> {
    let mut k = 0;
    while let Some(&w) = words.get(k) {
        let start = w & ID;
        let lost = w & LOST != 0;
        if w & RUN == 0 {
            k += 1;
            f(Span {
                start,
                end: start + 1,
                lost,
            })?;
        } else {
            let Some(&end) = words.get(k + 1) else {
                return Err(broken(format!(
                    "a run of parent updates from {start} has no end"
                )));
            };
            if end <= start {
                return Err(broken(format!(
                    "a run of parent updates from {start} ends at {end}"
                )));
            }
            k += 2;
            f(Span { start, end, lost })?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(words: &[u64]) -> Vec<Span> {
        let mut out = Vec::new();
        decode(
            words,
            |s| {
                out.push(s);
                Ok::<(), String>(())
            },
            |m| m,
        )
        .expect("decodes");
        out
    }

    /// Every (id, lost) an encoding stands for, in order.
    fn ids(words: &[u64]) -> Vec<(u64, bool)> {
        spans(words)
            .iter()
            .flat_map(|s| (s.start..s.end).map(move |p| (p, s.lost)))
            .collect()
    }

    #[test]
    fn singles_and_runs_round_trip_and_join() {
        let mut e = Encoder::default();
        let input: Vec<(u64, u64, bool)> = vec![
            (0, 1, false),
            (1, 2, false), // joins 0 into a run 0..2
            (2, 5, false), // extends it to 0..5
            (5, 6, true),  // other flag: a single
            (7, 8, true),  // not next: a single
            (8, 9, true),  // joins 7 into a run 7..9
            (3, 4, false), // goes back: a single
            (10, 20, false),
            (20, 21, true), // other flag
            ((1 << 40) - 1, 1 << 40, false),
        ];
        let mut want = Vec::new();
        for &(s, t, lost) in &input {
            e.push(s, t, lost);
            want.extend((s..t).map(|p| (p, lost)));
        }
        let words = e.take();
        assert_eq!(ids(&words), want);
        assert_eq!(
            spans(&words),
            [
                Span {
                    start: 0,
                    end: 5,
                    lost: false
                },
                Span {
                    start: 5,
                    end: 6,
                    lost: true
                },
                Span {
                    start: 7,
                    end: 9,
                    lost: true
                },
                Span {
                    start: 3,
                    end: 4,
                    lost: false
                },
                Span {
                    start: 10,
                    end: 20,
                    lost: false
                },
                Span {
                    start: 20,
                    end: 21,
                    lost: true
                },
                Span {
                    start: (1 << 40) - 1,
                    end: 1 << 40,
                    lost: false
                },
            ]
        );
        // 0..5 and 7..9 and 10..20 take two words each, the rest one.
        assert_eq!(words.len(), 2 + 1 + 2 + 1 + 2 + 1 + 1);
        assert!(e.words.is_empty());
    }

    #[test]
    fn a_fresh_encoder_joins_nothing_from_before() {
        let mut e = Encoder::default();
        e.push(4, 5, false);
        let _ = e.take();
        e.push(5, 6, false);
        assert_eq!(
            spans(&e.words),
            [Span {
                start: 5,
                end: 6,
                lost: false
            }]
        );
        // Id 0 after a single is never joined backwards.
        let mut e = Encoder::default();
        e.push(0, 1, false);
        e.push(0, 1, false);
        assert_eq!(ids(&e.words), [(0, false), (0, false)]);
    }

    #[test]
    fn cut_runs_are_errors() {
        let cut = decode(&[RUN | 3], |_| Ok(()), |m| m);
        assert!(cut.is_err_and(|m| m.contains("no end")));
        let back = decode(&[RUN | 3, 3], |_| Ok(()), |m| m);
        assert!(back.is_err_and(|m| m.contains("ends at 3")));
        assert_eq!(spans(&[]), []);
    }
}
