//! Times the rayon engine and the cluster (1 process × W timely workers)
//! on Magic Fingers, alternately in this one process, and prints both and
//! the ratio.
//!
//! ```text
//! cargo bench -p solver-cluster --bench fingers_time -- [F] [W] [REPEATS]
//! ```
//!
//! Defaults: F = 64, W = 2, 5 repeats. The rayon engine runs on W threads.
//! A benchmark, not an example: `cargo test` does not build it (it took
//! some 17 s of CI's build as an example).

use std::time::Instant;

use games::{Fingers, FingersRules};

fn arg(args: &[String], k: usize, default: u64) -> Result<u64, String> {
    match args.get(k) {
        None => Ok(default),
        Some(s) => s.parse().map_err(|_| format!("not a number: {s:?}")),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // `cargo bench` passes `--bench` to a program without a harness.
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let fingers = u8::try_from(arg(&args, 0, 64)?)?;
    let workers = arg(&args, 1, 2)?;
    let repeats = arg(&args, 2, 5)?.max(1);
    let game = Fingers::new(FingersRules {
        fingers,
        ..FingersRules::default()
    })?;
    let config = solver_cluster::ClusterConfig::from_args(["-w".to_string(), workers.to_string()])?;
    let retro = solver_retro::Config::default().threads(usize::try_from(workers)?);
    let (mut rayon, mut cluster) = (Vec::new(), Vec::new());
    for k in 0..repeats {
        let t = Instant::now();
        let a = solver_retro::solve_unmoves_with(&game, &retro)?;
        rayon.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let b = solver_cluster::solve_unmoves(game.clone(), &config, None)?;
        cluster.push(t.elapsed().as_secs_f64());
        // A spot check (the tests compare every position).
        for i in (0..a.table().len() as u64).step_by(997) {
            assert_eq!(a.value_at(i), b.value_at(0, i), "index {i}");
        }
        println!(
            "run {k}: rayon {:.4} s, cluster 1x{workers} {:.4} s, ratio {:.2}",
            rayon[k as usize],
            cluster[k as usize],
            cluster[k as usize] / rayon[k as usize]
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let mut ratios: Vec<f64> = cluster.iter().zip(&rayon).map(|(c, r)| c / r).collect();
    ratios.sort_by(f64::total_cmp);
    let (r, c) = (median(&mut rayon), median(&mut cluster));
    // Sorted by now: the fastest of each side, least disturbed by other
    // jobs on the machine.
    println!(
        "fingers F={fingers}: rayon median {r:.4} s, cluster 1x{workers} median {c:.4} s, \
         ratio {:.2} (pairs {:.2}-{:.2}); fastest {:.4} s and {:.4} s, ratio {:.2}",
        c / r,
        ratios[0],
        ratios[ratios.len() - 1],
        rayon[0],
        cluster[0],
        cluster[0] / rayon[0]
    );
    Ok(())
}
