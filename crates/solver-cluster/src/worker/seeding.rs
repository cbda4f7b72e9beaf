//! The seeding of a tier by a process's workers: blocks taken in turn,
//! each seeded straight into its own memory by the game's space (with
//! solver-retro's seeding rules, `space.rs`), the seeds kept by the
//! worker that found them, with their lost bit.

use game_core::{Outcome, Tier};
use solver_retro::step::Seeds;

use super::{too_narrow, Ctx};
use crate::cell::{TierCells, View, Width};
use crate::layout::Layout;
use crate::local::{self, Blocks};
use crate::space::Space;
use crate::updates;
use crate::Error;

/// Seeds blocks of tier `t` (laid out as `lay`, the process's from
/// `first` on, into `blocks`) until none is left to take, in cells of
/// `width`: what this worker found, its level lists cut at
/// `cap`. A cell too narrow, and what this process left unlisted, are
/// recorded for the round `seed_round` in the process's `local` state.
#[allow(clippy::too_many_arguments)]
pub(super) fn seed_blocks<S: Space>(
    ctx: &Ctx<S>,
    t: Tier,
    lay: &Layout,
    first: usize,
    blocks: &Blocks,
    width: Width,
    cap: usize,
    tables: &[(Tier, &TierCells)],
    scratch: &mut S::Scratch,
    seed_round: u64,
) -> Result<Seeds, Error> {
    let space = &*ctx.space;
    let local = &ctx.shared.local;
    let pp = ctx.per_process.max(1);
    let mut seeds = Seeds::default();
    while let Some(j) = local.claim_block(seed_round) {
        let (s, e) = lay.block_range(first + j);
        let mut piece = ctx.shared.block_for((e - s) as usize, width)?;
        let before = seeds.decisive.len();
        let seeded = match piece.view() {
            View::Byte(c) => space.seed(t, s, c, tables, &mut seeds, scratch),
            View::Narrow(c) => space.seed(t, s, c, tables, &mut seeds, scratch),
            View::Wide(c) => space.seed(t, s, c, tables, &mut seeds, scratch),
        };
        let after = match seeded {
            Ok(after) => after,
            Err(e) if width != Width::Wide && too_narrow(&e) => {
                local.set_overflow(seed_round);
                ctx.shared.free(piece);
                break;
            }
            Err(e) => return Err(e),
        };
        // Level entries carry the lost bit: a worker that takes
        // another's children does not read their cells.
        for x in &mut seeds.decisive[before..] {
            let c = piece.value((*x - s) as usize);
            if c.is_some_and(|v| v.outcome() == Outcome::Lose) {
                *x |= updates::LOST;
            }
        }
        // Seeds past the cap are not kept: level 0 is found by a
        // scan instead (in every worker of the process).
        let mut unlisted = 0;
        if seeds.decisive.len() > cap {
            seeds.decisive = Vec::new();
            unlisted |= local::UNLISTED_DECISIVE;
        }
        if seeds.ties.len() > cap {
            seeds.ties = Vec::new();
            unlisted |= local::UNLISTED_TIES;
        }
        if unlisted != 0 {
            local.set_unlisted(seed_round, unlisted);
        }
        // The events, as they grow: this worker's share of what
        // the limit leaves the process (the refusal's words made
        // only when it is refused).
        let events = (seeds.events.capacity() * std::mem::size_of::<u64>()) as u64;
        let needed = ctx.held.saturating_add(events.saturating_mul(pp as u64));
        if needed > ctx.budget.memory() {
            return Err(solver_retro::Error::TooLarge(ctx.budget.memory_error(
                format!(
                    "tier {}'s events (positions with children in other tiers) beside every tier's table",
                    space.name(t)
                ),
                needed,
            ))
            .into());
        }
        local.set_after(seed_round, after);
        *local::lock(&blocks[j]) = Some(piece);
    }
    Ok(seeds)
}
