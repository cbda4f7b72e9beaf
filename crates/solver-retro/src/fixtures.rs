//! A game that breaks its promises, for the tests of this crate and of
//! solvers built on it (feature `fixtures`): each engine must stop with a
//! typed error naming what broke, never panic, hang or return a wrong
//! table.

use game_core::{Game, Indexed, IndexedUnmoves, ParentIndices, ParentVisitor, Run, Unmoves};

/// Position 3 moves to 1 and 2, which move to 0, which has no move (lost
/// for the mover); index 4 is no position. Honest, 3 is lost in 2; each
/// [`Lie`] breaks one promise about that graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Liar {
    /// The promise broken.
    pub lie: Lie,
}

/// Which promise [`Liar`] breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lie {
    /// None: the graph as it is (the control).
    Honest,
    /// 3 claims one child: its counter would go below zero.
    CountTooLow,
    /// 0's parents include index 4, no position.
    ParentIsNoPosition,
    /// 1's parents include the run 5..8, past the last index.
    ParentPastTheEnd,
    /// The won children's parents come as a run that also covers index
    /// 4, no position (sent as a run with a hole where they are sent one
    /// by one): the run decrement must refuse it.
    RunThroughNoPosition,
}

impl Lie {
    /// Every lie (not [`Lie::Honest`]).
    pub const ALL: [Lie; 4] = [
        Lie::CountTooLow,
        Lie::ParentIsNoPosition,
        Lie::ParentPastTheEnd,
        Lie::RunThroughNoPosition,
    ];
}

impl Game for Liar {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        match p {
            3 => out.extend([1, 2]),
            1 | 2 => out.push(0),
            _ => {}
        }
    }
    fn play(&self, _: &usize, to: &usize) -> usize {
        *to
    }
}

impl Indexed for Liar {
    fn size(&self) -> u64 {
        5
    }
    fn index(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn position(&self, i: u64) -> Option<usize> {
        (i < 4).then_some(i as usize)
    }
}

impl Unmoves for Liar {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        match c {
            0 => out.extend([1, 2]),
            1 | 2 => out.push(3),
            _ => {}
        }
    }
}

impl IndexedUnmoves for Liar {
    fn child_counts<T: game_core::ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        for (k, o) in out.iter_mut().enumerate() {
            *o = T::from(match (first + k as u64, self.lie) {
                (3, Lie::CountTooLow) => 1,
                (3, _) => 2,
                (1 | 2, _) => 1,
                _ => 0,
            });
        }
        true
    }
    fn unmove_indices(&self, index: u64, out: &mut ParentIndices, _: &mut Vec<usize>) {
        match (index, self.lie) {
            (0, Lie::ParentIsNoPosition) => out.singles.extend([1, 2, 4]),
            (0, _) => out.runs.push(Run::range(1..3)),
            (1, Lie::ParentPastTheEnd) => {
                out.singles.push(3);
                out.runs.push(Run::range(5..8));
            }
            (1 | 2, Lie::RunThroughNoPosition) => out.runs.push(Run::range(3..5)),
            (1 | 2, _) => out.singles.push(3),
            _ => {}
        }
    }
    fn visit_unmove_indices<V: ParentVisitor>(
        &self,
        index: u64,
        buf: &mut ParentIndices,
        scratch: &mut Vec<usize>,
        visit: &mut V,
    ) {
        match (index, self.lie) {
            // The same run, sent with a hole (2, no parent of 1 or 2).
            (1 | 2, Lie::RunThroughNoPosition) => visit.run(Run::range(2..5).except(2)),
            _ => {
                buf.clear();
                self.unmove_indices(index, buf, scratch);
                buf.send_to(visit);
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod testing;
