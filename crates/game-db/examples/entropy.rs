//! Estimates what other contexts would make of a database's records under
//! the block codec's scheme (binary decisions, a static model a block,
//! chunks of 4,096 records coded on their own):
//! `cargo run --release -p game-db --example entropy -- DIR RECORDS_A_BLOCK`.
//!
//! For each variant, the sum over blocks of every context's empirical
//! entropy plus 5 bits a context used (the model), in bytes.

use game_core::{Outcome, Value};
use game_db::Database;

const CHUNK: usize = 4096;

/// What a decision's context may depend on.
#[derive(Clone, Copy, Default)]
struct State {
    /// Presence of the records before, newest in bit 0.
    hist: u32,
    /// Last present value's summary (0 none).
    last: u8,
    /// The one before it.
    last2: u8,
    /// Records since the last present one.
    gap: u32,
}

fn summary(v: Value) -> u8 {
    let c = match v.outcome() {
        Outcome::Draw => return 1,
        Outcome::Lose => 1u8,
        Outcome::Tie => 2,
        Outcome::Win => 3,
    };
    (c << 6) | v.remoteness().unwrap_or(0).min(63) as u8
}

/// Decision kinds: 0 presence, 1 same, 2 class, 3 remoteness.
type Ctx = fn(kind: u8, node: u32, s: &State, class: u8) -> u64;

fn base(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    let k = u64::from(kind) << 40;
    match kind {
        0 => k | u64::from(s.hist & 0xfff),
        1 => k | u64::from(s.last),
        2 => k | (u64::from(s.last) << 8) | u64::from(node),
        _ => k | (u64::from(class) << 16) | (u64::from(s.last >> 6) << 8) | u64::from(node),
    }
}

fn gap_same(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    match kind {
        1 => (1 << 40) | (u64::from(s.gap.min(3)) << 8) | u64::from(s.last),
        2 => (2 << 40) | (u64::from(s.gap.min(3)) << 16) | (u64::from(s.last) << 8) | u64::from(node),
        _ => base(kind, node, s, class),
    }
}

fn last2(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    match kind {
        1 => (1 << 40) | (u64::from(s.last2) << 8) | u64::from(s.last),
        2 => (2 << 40) | (u64::from(s.last2) << 16) | (u64::from(s.last) << 8) | u64::from(node),
        _ => base(kind, node, s, class),
    }
}

fn rem_full(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    match kind {
        3 => (3 << 40) | (u64::from(class) << 16) | (u64::from(s.last) << 8) | u64::from(node),
        _ => base(kind, node, s, class),
    }
}

fn pres_last(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    match kind {
        0 => u64::from(s.hist & 0xfff) | (u64::from(s.last >> 6) << 12),
        _ => base(kind, node, s, class),
    }
}

fn pres16(kind: u8, node: u32, s: &State, class: u8) -> u64 {
    match kind {
        0 => u64::from(s.hist & 0xffff),
        _ => base(kind, node, s, class),
    }
}

fn cost(counts: &std::collections::HashMap<u64, [u32; 2]>) -> f64 {
    let mut bits = 0.0;
    for n in counts.values() {
        let (a, b) = (f64::from(n[0]), f64::from(n[1]));
        let t = a + b;
        if a > 0.0 && b > 0.0 {
            bits -= a * (a / t).log2() + b * (b / t).log2();
        } else {
            bits += t * 0.001;
        }
        bits += 5.0;
    }
    bits
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let db = Database::open_any(&args[0]).expect("a database");
    let per: usize = args[1].parse().unwrap();
    let variants: [(&str, Ctx); 6] = [
        ("base (the codec's)", base),
        ("same/class | gap", gap_same),
        ("same/class | last two", last2),
        ("remoteness | last", rem_full),
        ("presence | last class", pres_last),
        ("presence, 16 before", pres16),
    ];
    let mut totals = vec![0.0f64; variants.len()];
    let mut kinds = vec![[0.0f64; 4]; variants.len()];
    for tier in db.finished_tiers() {
        let mut block: Vec<Option<Value>> = Vec::with_capacity(per);
        let mut run = |block: &mut Vec<Option<Value>>| {
            for (k, (_, ctx)) in variants.iter().enumerate() {
                let mut counts: [std::collections::HashMap<u64, [u32; 2]>; 4] = Default::default();
                for chunk in block.chunks(CHUNK) {
                    let mut s = State::default();
                    for &r in chunk {
                        let mut f = |kind: u8, node: u32, class: u8, bit: bool, s: &State| {
                            counts[kind as usize]
                                .entry(ctx(kind, node, s, class))
                                .or_default()[usize::from(bit)] += 1;
                        };
                        f(0, 0, 0, r.is_some(), &s);
                        s.hist = (s.hist << 1) | u32::from(r.is_some());
                        let Some(v) = r else {
                            s.gap += 1;
                            continue;
                        };
                        let b = summary(v);
                        let same = b == s.last && b != 0;
                        f(1, 0, 0, same, &s);
                        if !same {
                            let class = b >> 6;
                            let hi = class >> 1 != 0;
                            f(2, 0, 0, hi, &s);
                            f(2, 1 + u32::from(hi), 0, class & 1 != 0, &s);
                            if class != 0 {
                                let mut node = 1u32;
                                for i in (0..6).rev() {
                                    let bit = (b >> i) & 1 != 0;
                                    f(3, node, class, bit, &s);
                                    node = (node << 1) | u32::from(bit);
                                }
                            }
                            s.last2 = s.last;
                            s.last = b;
                        }
                        s.gap = 0;
                    }
                }
                for (i, c) in counts.iter().enumerate() {
                    let bits = cost(c);
                    kinds[k][i] += bits / 8.0;
                    totals[k] += bits / 8.0;
                }
            }
            block.clear();
        };
        db.for_each_block(tier, |_, recs| {
            for &r in recs {
                block.push(r);
                if block.len() == per {
                    run(&mut block);
                }
            }
        })
        .unwrap();
        if !block.is_empty() {
            run(&mut block);
        }
    }
    println!("{}: {} bytes now", args[0], db.total_bytes());
    for ((name, _), (t, k)) in variants.iter().zip(totals.iter().zip(&kinds)) {
        println!(
            "{name:24} {t:12.0} bytes (presence {:.0}, same {:.0}, class {:.0}, remoteness {:.0})",
            k[0], k[1], k[2], k[3]
        );
    }
}
