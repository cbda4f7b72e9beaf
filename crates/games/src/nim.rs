//! Nim and bounded Nim.

use game_core::{Game, Impartial};

use crate::Error;

/// Nim: heaps of tokens; a move takes any positive number from one heap
/// (at most `k` in bounded Nim). Whoever cannot move loses.
///
/// A position is the list of heaps. Heap `h` has Grundy value `h` in Nim
/// and `h mod (k + 1)` in bounded Nim, so the first player wins exactly when
/// the nim-sum of those values is not 0.
///
/// ```
/// use games::Nim;
/// let v = Nim::new().analyse(&[7, 4, 1]);
/// assert_eq!(v.nim_sum, 2);
/// assert_eq!(v.winning_move, Some((0, 2))); // 7 -> 5: 5 ^ 4 ^ 1 = 0
/// let b = Nim::bounded(3)?.analyse(&[3, 4, 5]);
/// assert_eq!(b.nim_sum, 3 ^ 0 ^ 1);
/// // A bound past every heap is plain Nim.
/// assert_eq!(Nim::bounded(u64::MAX)?.analyse(&[5]), Nim::new().analyse(&[5]));
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Nim {
    max_take: Option<u64>,
}

/// Who wins a Nim position and how.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NimVerdict {
    /// The nim-sum of the heaps' Grundy values.
    pub nim_sum: u64,
    /// A move `(heap, take)` to a position of nim-sum 0, if the player to
    /// move wins (the first heap where one exists).
    pub winning_move: Option<(usize, u64)>,
}

impl Nim {
    /// Plain Nim.
    #[must_use]
    pub fn new() -> Self {
        Nim { max_take: None }
    }

    /// Bounded Nim: a move takes 1..=`k`.
    ///
    /// # Errors
    /// [`Error::ZeroMaxTake`] for `k = 0`.
    pub fn bounded(k: u64) -> Result<Self, Error> {
        if k == 0 {
            return Err(Error::ZeroMaxTake);
        }
        Ok(Nim { max_take: Some(k) })
    }

    /// The most one move may take, if bounded.
    #[must_use]
    pub fn max_take(&self) -> Option<u64> {
        self.max_take
    }

    /// The Grundy value of one heap: `h`, or `h mod (k + 1)` in bounded
    /// Nim (`h` itself when `k + 1` passes `u64::MAX`, as every heap is then
    /// below it).
    #[must_use]
    pub fn heap_value(&self, h: u64) -> u64 {
        match self.max_take.and_then(|k| k.checked_add(1)) {
            None => h,
            Some(k1) => h % k1,
        }
    }

    /// The nim-sum and a winning move, if any.
    #[must_use]
    pub fn analyse(&self, heaps: &[u64]) -> NimVerdict {
        let values: Vec<u64> = heaps.iter().map(|&h| self.heap_value(h)).collect();
        let nim_sum = sprague_grundy::nim_sum(values.iter().copied());
        let winning_move = (nim_sum != 0)
            .then(|| {
                values.iter().enumerate().find_map(|(i, &g)| {
                    let target = g ^ nim_sum;
                    // Lowering the value from g to target takes g − target
                    // tokens, in Nim and bounded Nim alike.
                    (target < g).then(|| (i, g - target))
                })
            })
            .flatten();
        NimVerdict {
            nim_sum,
            winning_move,
        }
    }
}

impl Game for Nim {
    type Position = Vec<u64>;
    /// `(heap, take)`.
    type Move = (usize, u64);

    fn moves(&self, heaps: &Vec<u64>, out: &mut Vec<(usize, u64)>) {
        for (i, &h) in heaps.iter().enumerate() {
            let most = self.max_take.map_or(h, |k| k.min(h));
            out.extend((1..=most).map(|t| (i, t)));
        }
    }

    fn play(&self, heaps: &Vec<u64>, &(i, t): &(usize, u64)) -> Vec<u64> {
        let mut next = heaps.clone();
        next[i] -= t;
        next
    }
}

impl Impartial for Nim {}
