//! Time and operation budget spent by a fuzz-target body on each input of a
//! corpus directory (fuzz/README.md, "Cost per input"):
//! `cargo run --release -p calc --example fuzz_cost -- TARGET DIR [TOP]`.
//! Prints the inputs taking the most time, with the budget they spent.

use std::time::Instant;

/// CPU time of this thread in seconds (Linux `schedstat`), or wall time elsewhere.
fn cpu_now(start: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or_else(|| start.elapsed().as_secs_f64(), |ns| ns * 1e-9)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: fuzz_cost TARGET CORPUS_DIR [TOP]");
        std::process::exit(2);
    }
    let (target, dir) = (&args[1], &args[2]);
    let top: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("corpus directory")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    std::panic::set_hook(Box::new(|_| {}));
    let mut rows = Vec::new();
    let start = Instant::now();
    for p in &files {
        let data = std::fs::read(p).expect("readable");
        let t = cpu_now(start);
        let outer = presburger::budget::enter(u64::MAX);
        let r = std::panic::catch_unwind(|| {
            if target == "calc" {
                testkit::fuzz::calc(&data, |script, out| {
                    let s = calc::run_script(script, true, out).expect("vector");
                    s.values + s.errors
                })
            } else {
                testkit::fuzz::run(target, &data)
            }
        });
        let spent = outer.spent();
        drop(outer);
        rows.push((cpu_now(start) - t, spent, r.is_err(), p.clone()));
    }
    let total: f64 = rows.iter().map(|r| r.0).sum();
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    let ticks: u64 = rows.iter().map(|r| r.1).sum();
    println!(
        "{target}: {} inputs in {total:.2} s of CPU ({:.0}/s), {ticks} ticks, {} panics",
        rows.len(),
        rows.len() as f64 / total,
        rows.iter().filter(|r| r.2).count()
    );
    for (secs, spent, panicked, p) in rows.iter().take(top) {
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!(
            "{:9.1} ms {spent:>10} ticks {:8.2} us/tick {}{name}",
            secs * 1e3,
            secs * 1e6 / (*spent).max(1) as f64,
            if *panicked { "PANIC " } else { "" }
        );
    }
}
