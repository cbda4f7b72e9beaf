//! Disjunctive sums: a move is a move in exactly one component.

use std::cell::RefCell;

use game_core::{Game, Impartial};

use crate::{nim_sum, Error, GrundyTable};

/// The disjunctive sum of positions of one game: a position is a list of
/// components, a move `(i, m)` plays `m` in component `i`. It is itself a
/// [`Game`], so any solver can solve a sum directly — which is how the
/// Sprague–Grundy theorem (the XOR of the components' values decides) is
/// tested.
///
/// A sum is played under normal play: it ends when no component has a
/// move, and the player to move then loses. A component whose own rules
/// end it ([`Game::outcome`] is `Some`) has no moves left in the sum and
/// is never asked for any; its outcome and [`Game::stalemate`] do not
/// decide the sum (so a sum of [`Misere`](game_core::Misere) games is not
/// the misère sum).
///
/// ```
/// use game_core::{Game, Impartial};
/// use sprague_grundy::{winning_move, GrundyTable, Sum};
///
/// /// Nim heaps: take any positive number.
/// struct Heap;
/// impl Game for Heap {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, n: &u32, out: &mut Vec<u32>) { out.extend(1..=*n) }
///     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
/// }
/// impl Impartial for Heap {}
///
/// let sum = Sum::new(Heap);
/// let mut moves = Vec::new();
/// sum.moves(&vec![1, 2], &mut moves);
/// assert_eq!(moves, [(0, 1), (1, 1), (1, 2)]);
///
/// let mut table = GrundyTable::new(&Heap);
/// // 7 ^ 4 ^ 1 = 2: take 2 from the 7 to leave 5 ^ 4 ^ 1 = 0.
/// assert_eq!(winning_move(&mut table, &[7, 4, 1])?, Some((0, 2)));
/// assert_eq!(winning_move(&mut table, &[1, 2, 3])?, None);
/// # Ok::<(), sprague_grundy::Error>(())
/// ```
#[derive(Debug)]
pub struct Sum<G: Game> {
    game: G,
    scratch: RefCell<Vec<G::Move>>,
}

impl<G: Game> Sum<G> {
    /// Sums of positions of `game`.
    pub fn new(game: G) -> Self {
        Sum {
            game,
            scratch: RefCell::new(Vec::new()),
        }
    }

    /// The component game.
    pub fn component(&self) -> &G {
        &self.game
    }
}

impl<G: Game> Game for Sum<G> {
    type Position = Vec<G::Position>;
    type Move = (usize, G::Move);

    fn moves(&self, pos: &Vec<G::Position>, out: &mut Vec<(usize, G::Move)>) {
        let mut buf = self.scratch.borrow_mut();
        for (i, p) in pos.iter().enumerate() {
            // A component over by its own rules has no moves (and must not
            // be asked for them: `Game::moves`).
            if self.game.outcome(p).is_some() {
                continue;
            }
            buf.clear();
            self.game.moves(p, &mut buf);
            out.extend(buf.drain(..).map(|m| (i, m)));
        }
    }

    fn play(&self, pos: &Vec<G::Position>, (i, m): &(usize, G::Move)) -> Vec<G::Position> {
        let mut next = pos.clone();
        next[*i] = self.game.play(&pos[*i], m);
        next
    }
}

impl<G: Impartial> Impartial for Sum<G> {}

/// The Grundy value of a sum: the nim-sum of its components' values.
///
/// # Errors
/// As [`GrundyTable::grundy`].
pub fn sum_grundy<G: Impartial>(
    table: &mut GrundyTable<'_, G>,
    components: &[G::Position],
) -> Result<u64, Error> {
    let mut x = 0;
    for c in components {
        x ^= table.grundy(c)?;
    }
    Ok(x)
}

/// A winning move in a sum, found with Grundy values: `None` when the
/// nim-sum is 0 (every move loses), else `(component, move)` that brings
/// the nim-sum to 0 — in the first component `i` whose value `g_i` exceeds
/// `g_i ^ x`, the first move reaching a position of value `g_i ^ x`.
///
/// # Errors
/// As [`GrundyTable::grundy`].
pub fn winning_move<G: Impartial>(
    table: &mut GrundyTable<'_, G>,
    components: &[G::Position],
) -> Result<Option<(usize, G::Move)>, Error> {
    let values: Vec<u64> = components
        .iter()
        .map(|c| table.grundy(c))
        .collect::<Result<_, _>>()?;
    let x = nim_sum(values.iter().copied());
    if x == 0 {
        return Ok(None);
    }
    let game = table.game();
    let mut moves = Vec::new();
    for (i, (c, &g)) in components.iter().zip(&values).enumerate() {
        let target = g ^ x;
        if target >= g {
            continue;
        }
        moves.clear();
        game.moves(c, &mut moves);
        for m in &moves {
            if table.grundy(&game.play(c, m))? == target {
                return Ok(Some((i, m.clone())));
            }
        }
    }
    // By the definition of mex a component with g ^ x < g has a move to
    // g ^ x: none was found, so the game's moves changed between calls.
    Err(Error::Inconsistent {
        what: "a component has no move to the Grundy value that balances the sum, \
               though its own value says it has (its moves changed between calls)",
    })
}

#[cfg(test)]
mod tests {
    use game_core::{Game, Outcome};

    use super::Sum;

    /// Take 1 or 2, but a pile of 1 is over by the game's own rule (a win
    /// for the player to move) — and asking it for moves there breaks the
    /// promise of [`Game::moves`], so it panics.
    struct OverAtOne;

    impl Game for OverAtOne {
        type Position = u32;
        type Move = u32;
        fn moves(&self, n: &u32, out: &mut Vec<u32>) {
            assert_ne!(*n, 1, "asked for the moves of a position that is over");
            out.extend((1..=2).filter(|t| t <= n));
        }
        fn play(&self, n: &u32, t: &u32) -> u32 {
            n - t
        }
        fn outcome(&self, n: &u32) -> Option<Outcome> {
            (*n == 1).then_some(Outcome::Win)
        }
    }

    /// A component over by its own rules has no moves in the sum and is
    /// not asked for any (it was asked, breaking `Game::moves`).
    #[test]
    fn a_component_that_is_over_has_no_moves() {
        let sum = Sum::new(OverAtOne);
        let mut moves = Vec::new();
        sum.moves(&vec![1, 3, 1], &mut moves);
        assert_eq!(moves, [(1, 1), (1, 2)]);
        moves.clear();
        sum.moves(&vec![1, 1], &mut moves);
        assert!(moves.is_empty());
        assert_eq!(sum.outcome(&vec![1, 1]), None);
    }
}
