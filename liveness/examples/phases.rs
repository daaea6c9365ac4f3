//! Times the analysis of kernels: `cargo run --release -p liveness --example
//! phases -- KERNEL.c...`. Per kernel, one line of phase times, then a
//! `conflicts_ms KERNEL MEDIAN` line: orders + live ranges + conflicts (the
//! computation the shared checker does with isl), median of 5 runs.
use std::time::Instant;

fn main() {
    for path in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&path).unwrap();
        let t = Instant::now();
        let m = scop::Model::from_source(&src).unwrap();
        let model = t.elapsed();
        let mut runs = Vec::new();
        let mut line = String::new();
        for _ in 0..5 {
            let t = Instant::now();
            let seq = liveness::Order::sequential(&m).unwrap();
            let par = liveness::Order::parallel(&m).unwrap();
            let orders = t.elapsed();
            let r = liveness::LiveRanges::of(&m, &seq).unwrap();
            let ranges = t.elapsed();
            let c = liveness::conflicts(&m, &par, &r).unwrap();
            let conflicts = t.elapsed();
            runs.push(conflicts.as_secs_f64() * 1000.0);
            let t = Instant::now();
            for a in &c {
                liveness::allocate(&m, a).unwrap();
            }
            line = format!(
                "{path}: model {model:?}, orders {orders:?}, ranges {:?}, conflicts {:?}, allocation {:?}",
                ranges - orders,
                conflicts - ranges,
                t.elapsed()
            );
        }
        runs.sort_by(f64::total_cmp);
        println!("{line}");
        println!("conflicts_ms {path} {:.3}", runs[runs.len() / 2]);
    }
}
