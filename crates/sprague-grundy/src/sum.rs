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
