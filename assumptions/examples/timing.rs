//! Times the assumption computation (front end excluded) per kernel:
//! `cargo run --release -p assumptions --example timing -- K.c...`
//! prints `KERNEL MICROSECONDS` (the median of 21 runs) per file.

fn main() {
    for path in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&path).expect("readable kernel");
        let scop = scop::build_scop(&src).expect("kernel in the subset");
        let mut times = Vec::new();
        for _ in 0..21 {
            let t = std::time::Instant::now();
            let a = assumptions::analyze(&scop, &assumptions::Limits::default()).expect("analysis");
            std::hint::black_box(&a);
            times.push(t.elapsed().as_secs_f64() * 1e6);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        let name = std::path::Path::new(&path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or(path);
        println!("{name} {:.0}", times[times.len() / 2]);
    }
}
