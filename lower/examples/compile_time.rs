//! Compilation time per kernel: C text to machine code mapped executable
//! (front end, the schedule `poly run` chooses (`Policy::Auto`: the
//! dependences and, where the original schedule leaves a statement outside
//! a parallel outer loop, the scheduler), AST generation, `prepare`'s
//! distribution and interchange, lowering, JIT, and the versioning's
//! run-time check (`assumptions::analyze`, which `poly run` derives through
//! `lower::version` before it runs the compiled code)), as `poly run` does
//! on one thread (the one-thread function), with the schedule chosen for
//! `--threads T` threads (default: the number of cores, `poly run`'s
//! default; on one thread the choice may fuse sweeps, which costs their
//! loops' generation and a dependence check); median of N runs in
//! wall-clock time: the latency `poly run` sees, with the independent
//! analyses on a second thread where [`lower::compile_threads`] allows
//! (the dependences while the original loops are generated, the
//! versioning's analysis while the schedule is chosen). With
//! `POLY_COMPILE_THREADS=1` everything runs on one thread, and the figure
//! is the compilation's work (the thread's CPU time, as `--stages`
//! measures each stage; run on an idle machine either way).
//!
//! Usage: `cargo run --release -p lower --example compile_time -- [--stages] [--threads T] N K.c...`
//!
//! `--stages` adds the median of each stage, timed apart in the same runs:
//! `model` (parse, model), `deps` (flow, anti and output dependences),
//! `ast` (AST generation of the original schedule), `sched` (the rest of
//! the schedule choice: the coverage test, the scheduler where it runs),
//! `prepare`, `lower` (to machine code), `jit` and `version` (the model
//! of the function's AST and its assumptions and run-time check, as
//! `lower::version` derives them; evaluating the check at the parameter
//! values is left out, it takes microseconds).

use std::time::Instant;

fn clock() -> (Instant, Option<u128>) {
    (Instant::now(), codegen_x86::jit::thread_cpu_ns())
}

/// The median's clock: wall-clock time where a compilation uses threads.
fn total_ms_since(start: (Instant, Option<u128>)) -> f64 {
    if lower::compile_threads() > 1 {
        start.0.elapsed().as_secs_f64() * 1e3
    } else {
        ms_since(start)
    }
}

fn ms_since(start: (Instant, Option<u128>)) -> f64 {
    match (start.1, codegen_x86::jit::thread_cpu_ns()) {
        (Some(a), Some(b)) => (b - a) as f64 / 1e6,
        _ => start.0.elapsed().as_secs_f64() * 1e3,
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

const STAGES: [&str; 8] = [
    "model", "deps", "ast", "sched", "prepare", "lower", "jit", "version",
];

/// The versioning's share of `poly run`'s compilation: the run-time check
/// of the kernel's assumptions, as `lower::version` derives it (made
/// already, on a second thread, by `lower::front_versioned` where it
/// could).
fn version(front: &lower::Front) {
    let a = front.assumptions().expect("the model");
    std::hint::black_box(&a);
}

/// The stages of one compilation of `src`, timed apart (ms).
fn stages(src: &str, threads: usize) -> [f64; 8] {
    let t = clock();
    let function = scop::parse_kernel(src).expect("parse");
    let scop = scop::build_from_ast(&function).expect("scop");
    let model = scop::Model::from_scop(&scop).expect("model");
    let model_ms = ms_since(t);
    let t = clock();
    let deps = presburger::budget::with_budget(200_000_000, || {
        dataflow::ordering_dependences(&dataflow::MemoryAccesses::from_model(&model))
    })
    .expect("dependences");
    std::hint::black_box(&deps);
    let deps_ms = ms_since(t);
    let t = clock();
    let orig = lower::original_schedule(&model).expect("schedule");
    let loops = lower::loops(&model, &orig).expect("loops");
    std::hint::black_box(&loops);
    let ast_ms = ms_since(t);
    let t = clock();
    let chosen =
        lower::choose_for(&function, &model, lower::Policy::Auto, threads).expect("choice");
    std::hint::black_box(&chosen);
    let sched_ms = (ms_since(t) - deps_ms - ast_ms).max(0.0);
    let front = lower::front_for(src, lower::Policy::Auto, threads).expect("front end");
    front.dependences().expect("dependences");
    let t = clock();
    let (k, node, copies) = lower::prepare(&front).expect("loops");
    let prepare_ms = ms_since(t);
    let t = clock();
    let c = lower::compile_jammed(&k, &node, &copies).expect("lowering");
    let lower_ms = ms_since(t);
    let t = clock();
    let jit = codegen_x86::JitFunction::<lower::KernelFn>::new(&c.code).expect("JIT");
    std::hint::black_box(&jit);
    let jit_ms = ms_since(t);
    let t = clock();
    version(&front);
    let version_ms = ms_since(t);
    [
        model_ms, deps_ms, ast_ms, sched_ms, prepare_ms, lower_ms, jit_ms, version_ms,
    ]
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let staged = args.first().is_some_and(|a| a == "--stages");
    if staged {
        args.remove(0);
    }
    let mut threads = lower::default_threads();
    if args.first().is_some_and(|a| a == "--threads") && args.len() > 1 {
        threads = args[1].parse().unwrap_or(threads).max(1);
        args.drain(..2);
    }
    let Some((n, files)) = args.split_first() else {
        eprintln!("usage: compile_time [--stages] [--threads T] N K.c...");
        std::process::exit(2);
    };
    let n: usize = n.parse().unwrap_or(11);
    let mut medians = Vec::new();
    if staged {
        if lower::compile_threads() > 1 {
            println!("(stages in thread CPU time, the work of side threads left out: set POLY_COMPILE_THREADS=1 for all of it)");
        }
        println!(
            "{:<24} {:>8} | {}",
            "kernel",
            "total",
            STAGES.map(|s| format!("{s:>7}")).join(" ")
        );
    }
    for f in files {
        let src = std::fs::read_to_string(f).expect("readable kernel");
        let mut times = Vec::new();
        for _ in 0..n {
            let t = clock();
            let front =
                lower::front_versioned(&src, lower::Policy::Auto, threads).expect("front end");
            let (k, node, copies) = lower::prepare(&front).expect("loops");
            let c = lower::compile_jammed(&k, &node, &copies).expect("lowering");
            let jit = codegen_x86::JitFunction::<lower::KernelFn>::new(&c.code).expect("JIT");
            std::hint::black_box(&jit);
            version(&front);
            times.push(total_ms_since(t));
        }
        let m = median(times);
        medians.push(m);
        let name = std::path::Path::new(f)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .to_string();
        if staged {
            let runs: Vec<[f64; 8]> = (0..n).map(|_| stages(&src, threads)).collect();
            let per: Vec<String> = (0..STAGES.len())
                .map(|i| format!("{:7.2}", median(runs.iter().map(|r| r[i]).collect())))
                .collect();
            println!("{name:<24} {m:8.2} | {}", per.join(" "));
        } else {
            println!("{name:<24} {m:8.2} ms");
        }
    }
    medians.sort_by(|a, b| a.total_cmp(b));
    if let (Some(lo), Some(hi)) = (medians.first(), medians.last()) {
        println!(
            "median over kernels {:.2} ms (min {lo:.2}, max {hi:.2})",
            medians[medians.len() / 2]
        );
    }
}
