//! Compilation time per kernel: C text to machine code mapped executable
//! (front end, original schedule, AST generation, lowering, JIT), median of
//! N runs. Usage: `cargo run --release -p lower --example compile_time -- N K.c...`

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((n, files)) = args.split_first() else {
        eprintln!("usage: compile_time N K.c...");
        std::process::exit(2);
    };
    let n: usize = n.parse().unwrap_or(11);
    let mut medians = Vec::new();
    for f in files {
        let src = std::fs::read_to_string(f).expect("readable kernel");
        let mut times = Vec::new();
        for _ in 0..n {
            let t = Instant::now();
            let front = lower::front(&src).expect("front end");
            let (k, node) = lower::kernel_and_loops(&front).expect("loops");
            let c = lower::compile(&k, &node).expect("lowering");
            let jit = codegen_x86::JitFunction::<lower::KernelFn>::new(&c.code).expect("JIT");
            std::hint::black_box(&jit);
            times.push(t.elapsed().as_secs_f64() * 1e3);
        }
        times.sort_by(|a, b| a.total_cmp(b));
        let m = times[times.len() / 2];
        medians.push(m);
        println!(
            "{:<24} {:8.2} ms",
            std::path::Path::new(f)
                .file_stem()
                .unwrap()
                .to_string_lossy(),
            m
        );
    }
    medians.sort_by(|a, b| a.total_cmp(b));
    if let (Some(lo), Some(hi)) = (medians.first(), medians.last()) {
        println!(
            "median over kernels {:.2} ms (min {lo:.2}, max {hi:.2})",
            medians[medians.len() / 2]
        );
    }
}
