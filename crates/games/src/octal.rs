//! Octal games as playable [`Game`]s: a position is a multiset of heaps.

use game_core::{Game, Impartial};
pub use sprague_grundy::OctalCode;

/// An octal game (see [`OctalCode`]) played on several heaps: a position is
/// the heaps, ascending, without empty ones.
///
/// ```
/// use games::OctalGame;
/// use sprague_grundy::GrundyTable;
/// let kayles = OctalGame::new("0.77".parse()?);
/// let mut t = GrundyTable::new(&kayles);
/// assert_eq!(t.grundy(&vec![5])?, 4);
/// assert_eq!(t.grundy(&vec![2, 3])?, 2 ^ 3);
/// # Ok::<(), sprague_grundy::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalGame {
    code: OctalCode,
}

/// A move: from heap `heap` (its index), remove `take` tokens and leave the
/// heaps `leave` (0 for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct OctalMove {
    /// Index of the heap moved in.
    pub heap: usize,
    /// Tokens removed.
    pub take: u32,
    /// The heaps left in its place (0 = none).
    pub leave: [u32; 2],
}

impl OctalGame {
    /// The game with this code.
    #[must_use]
    pub fn new(code: OctalCode) -> Self {
        OctalGame { code }
    }

    /// The code.
    #[must_use]
    pub fn code(&self) -> &OctalCode {
        &self.code
    }
}

impl Game for OctalGame {
    type Position = Vec<u32>;
    type Move = OctalMove;

    fn moves(&self, heaps: &Vec<u32>, out: &mut Vec<OctalMove>) {
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue; // the same heap again gives the same positions
            }
            for t in 0..=self.code.max_take() as u32 {
                let d = self.code.digit(t as usize);
                let mv = |leave| OctalMove {
                    heap: i,
                    take: t,
                    leave,
                };
                if t > 0 && d & 1 != 0 && h == t {
                    out.push(mv([0, 0]));
                }
                if t > 0 && d & 2 != 0 && h > t {
                    out.push(mv([h - t, 0]));
                }
                if d & 4 != 0 && h >= t + 2 {
                    out.extend((1..=(h - t) / 2).map(|a| mv([a, h - t - a])));
                }
            }
        }
    }

    fn play(&self, heaps: &Vec<u32>, mv: &OctalMove) -> Vec<u32> {
        let mut next = heaps.clone();
        next.remove(mv.heap);
        next.extend(mv.leave.iter().copied().filter(|&h| h > 0));
        next.sort_unstable();
        next
    }
}

impl Impartial for OctalGame {}
