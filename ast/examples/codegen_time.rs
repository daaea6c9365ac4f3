//! A fixed AST-generation workload for profilers and quick timing: reads
//! `isl_codegen` inputs (`.in` or `.st`) and generates each `R` times,
//! printing `NAME NANOSECONDS` (best of `R`, CPU time of the thread where
//! Linux tells it), or the C code with `--print`.
//!
//!     cargo build --release -p ast --example codegen_time
//!     target/release/examples/codegen_time 5 ../shared/codegen/cases/*.in
//!     valgrind --tool=callgrind target/release/examples/codegen_time 1 FILE

fn generate(file: &str, text: &str) -> ast::Result<ast::Node> {
    presburger::budget::with_budget(2_000_000_000, || {
        if file.ends_with(".st") {
            ast::generate_tree(&ast::parse_tree(text)?)
        } else {
            let input = ast::parse_map_input(text)?;
            ast::generate_with_options(&input.schedule, &input.context, &input.loops)
        }
    })
}

/// Nanoseconds this thread has run on a CPU (Linux's schedstat), which a
/// loaded machine disturbs less than the wall clock; `None` elsewhere.
fn cpu_ns() -> Option<u128> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    s.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (print, args) = match args.split_first() {
        Some((f, rest)) if f == "--print" => (true, rest.to_vec()),
        _ => (false, args),
    };
    let Some((reps, files)) = args.split_first() else {
        eprintln!("usage: codegen_time [--print] REPS FILE...");
        std::process::exit(2);
    };
    let reps: u32 = reps.parse().expect("REPS: a positive count");
    for file in files {
        let text = std::fs::read_to_string(file).expect("readable input");
        let name = file.rsplit('/').next().unwrap_or(file);
        if print {
            match generate(file, &text) {
                Ok(node) => print!("{}", node.to_c()),
                Err(e) => println!("{name}: error {e}"),
            }
            continue;
        }
        // best of `reps` batches; a batch repeats the generation until it
        // has run for 20 ms (the CPU clock's resolution is coarse)
        let mut best = u128::MAX;
        for _ in 0..reps.max(1) {
            let (t, c) = (std::time::Instant::now(), cpu_ns());
            let mut runs = 0u128;
            loop {
                if let Err(e) = generate(file, &text) {
                    println!("{name} error {e}");
                    return;
                }
                runs += 1;
                if t.elapsed().as_millis() >= 20 {
                    break;
                }
            }
            let spent = match (c, cpu_ns()) {
                (Some(a), Some(b)) => b - a,
                _ => t.elapsed().as_nanos(),
            };
            best = best.min(spent / runs);
        }
        println!("{name} {best}");
    }
}
