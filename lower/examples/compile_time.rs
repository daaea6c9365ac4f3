//! Compilation time per kernel: C text to machine code mapped executable
//! (front end, the schedule `poly run` chooses (`Policy::Auto`: the
//! dependences and, where the original schedule leaves a statement outside
//! a parallel outer loop, the scheduler), AST generation, `prepare`'s
//! distribution and interchange, lowering, JIT), as `poly run` does on one
//! thread; median of N runs, in CPU time of the thread (the machine may be
//! shared; wall-clock time if the clock is unavailable). Usage: `cargo run --release -p lower --example compile_time -- N K.c...`

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
            let c0 = codegen_x86::jit::thread_cpu_ns();
            let front = lower::front(&src).expect("front end");
            let (k, node, copies) = lower::prepare(&front).expect("loops");
            let c = lower::compile_jammed(&k, &node, &copies).expect("lowering");
            let jit = codegen_x86::JitFunction::<lower::KernelFn>::new(&c.code).expect("JIT");
            std::hint::black_box(&jit);
            let wall = t.elapsed().as_secs_f64() * 1e3;
            times.push(match (c0, codegen_x86::jit::thread_cpu_ns()) {
                (Some(a), Some(b)) => (b - a) as f64 / 1e6,
                _ => wall,
            });
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
