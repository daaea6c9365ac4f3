//! Times the phases of the analysis on one kernel: `cargo run --release
//! -p liveness --example phases -- KERNEL.c`.
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("KERNEL.c");
    let src = std::fs::read_to_string(path).unwrap();
    let t = Instant::now();
    let m = scop::Model::from_source(&src).unwrap();
    println!("model      {:?}", t.elapsed());
    let t = Instant::now();
    let seq = liveness::Order::sequential(&m).unwrap();
    let par = liveness::Order::parallel(&m).unwrap();
    println!("orders     {:?}", t.elapsed());
    let t = Instant::now();
    let r = liveness::LiveRanges::of(&m, &seq).unwrap();
    println!("ranges     {:?}", t.elapsed());
    let t = Instant::now();
    let c = liveness::conflicts(&m, &par, &r).unwrap();
    println!("conflicts  {:?}", t.elapsed());
    let t = Instant::now();
    for a in &c {
        liveness::allocate(&m, a).unwrap();
    }
    println!("allocation {:?}", t.elapsed());
}
