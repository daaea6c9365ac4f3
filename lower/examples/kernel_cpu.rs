//! CPU time of a compiled kernel on one thread: the least, the lower
//! quartile and the median of R medians of three runs (the calling
//! thread's CPU time, as `poly run` reports it; the first of the three
//! touches the workspace's fresh pages), for comparing code on a shared
//! machine where a median moves with the load: the least of many is the
//! one the load disturbed least.
//!
//! Usage: `cargo run --release -p lower --example kernel_cpu -- R K.c NAME=VALUE...`
//! (R = 0: the code's listing instead).

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(r), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!("usage: kernel_cpu R K.c NAME=VALUE...");
        std::process::exit(2);
    };
    let runs: usize = r.parse().expect("R: a number of runs");
    let src = std::fs::read_to_string(path).expect("kernel source");
    let assignments = &args[2..];
    let front = lower::front(&src).expect("front end");
    let (k, n, copies) = lower::prepare(&front).expect("prepare");
    let code = lower::compile_jammed(&k, &n, &copies).expect("compile");
    if runs == 0 {
        print!("{}", code.asm_text());
        return;
    }
    let mut ms: Vec<f64> = Vec::new();
    for _ in 0..runs {
        let out =
            lower::run(&code, &k, &front.function, assignments, 3, &mut |_, _| {}).expect("run");
        let ns = out.median_cpu_ns.unwrap_or(out.median_ns);
        ms.push(ns as f64 / 1e6);
    }
    ms.sort_by(|a, b| a.total_cmp(b));
    println!(
        "min {:.2} q1 {:.2} median {:.2} ms over {runs} runs",
        ms[0],
        ms[ms.len() / 4],
        ms[ms.len() / 2]
    );
}
