//! `poly run KERNEL.c NAME=VALUE... [--repeat R] [--threads T]`: compile a
//! kernel to x86-64 (front end, dependences, the schedule — the original
//! one or the scheduler's, said on standard error —, AST generation, the
//! `lower` crate, the JIT) and run it on the interpreter's inputs; prints
//! the checksum lines of `poly interp` and `time NANOSECONDS` (median).
//!
//! `--schedule original|scheduler|fused` overrides the choice of schedule
//! (`auto`, see `lower`'s `choice` module; it is made for the number of
//! threads: sweeps inside a time loop are fused on one thread only, where
//! apart they are parallel loops).
//!
//! `--threads T` (default: the number of cores): a loop that carries no
//! dependence, outermost or inside sequential loops (a time loop's
//! sweeps), runs on T workers, in chunks, with a barrier after each
//! instance, once its previous instance took 10 µs or more on one thread
//! (the first one runs on the calling thread; sleeping workers are woken
//! only for a time loop's instances or a loop of 0.5 ms; `lower`'s
//! "Workers"). The first run runs the kernel as one function on one
//! thread, and the later runs do the same while that took less than 1 ms
//! (`lower::run_adaptive`: sharing such short work costs more than it
//! saves).
//!
//! Versioning: the kernel's run-time check (the `assumptions` crate,
//! decided by `lower::version` at the given parameter values and the
//! arrays' base addresses) chooses the compiled, optimized code where the
//! model is exact and the original program (the reference interpreter)
//! otherwise; standard error says which ran. A kernel the lowering cannot
//! handle, or whose accesses leave their arrays at the given sizes, runs
//! in the reference interpreter too, said on standard error.
//!
//! `--fma-control`: after each run, on the same thread, the 6×8 FMA
//! micro-kernel of the `peak` example runs on panels in the first-level
//! cache for about as long (`lower::FmaControl`), and standard error gives
//! its median rate over the thread's CPU time: what the core gave an
//! FMA-bound computation around the kernel's runs, against which a
//! kernel's time can be read on a shared or virtual machine.

use std::time::Instant;

use crate::error::Error;

/// An instance of a parallel loop runs on the workers once the previous
/// one took this long on one thread (10 µs: the workers are started once
/// for all runs and handed a loop through atomics, about a microsecond).
const THREADED_NS: u128 = 10_000;

/// Usage of the command.
pub const USAGE: &str =
    "usage: poly run KERNEL.c NAME=VALUE... [--repeat R] [--threads T] [--schedule auto|original|scheduler|fused] [--fma-control]";

/// Parsed arguments of `poly run`.
struct Args {
    file: String,
    assignments: Vec<String>,
    repeat: usize,
    threads: Option<usize>,
    policy: lower::Policy,
    /// Time the FMA control after each run (`--fma-control`).
    control: bool,
}

fn parse(args: &[String]) -> Result<Args, Error> {
    let usage = |m: String| Error::Usage(format!("{m}\n{USAGE}"));
    let (mut file, mut assignments, mut repeat, mut threads) = (None, Vec::new(), 1usize, None);
    let mut policy = lower::Policy::Auto;
    let mut control = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--repeat" | "--threads" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage(format!("{a} needs a number")))?;
                let n: usize = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| usage(format!("bad {a} `{v}`")))?;
                if a == "--repeat" {
                    repeat = n;
                } else {
                    threads = Some(n);
                }
            }
            "--fma-control" => control = true,
            "--schedule" => policy = crate::compile::policy(it.next()).map_err(usage)?,
            s if s.starts_with("--") => return Err(usage(format!("unknown option `{s}`"))),
            s if s.contains('=') => assignments.push(s.to_string()),
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(usage(format!("unexpected argument `{s}`"))),
        }
    }
    let file = file.ok_or_else(|| usage("no kernel file".into()))?;
    Ok(Args {
        file,
        assignments,
        repeat,
        threads,
        policy,
        control,
    })
}

/// The kernel's code: one function for one thread; else one piece per
/// top-level loop nest, those whose outer loop carries no dependence split
/// among the workers, and the one function beside them (for work too
/// small to share, `lower::run_adaptive`).
type Code = (lower::Kernel, Vec<lower::Piece>, Option<lower::Compiled>);

fn pieces(front: &lower::Front, threads: usize) -> lower::Result<Code> {
    let (k, n, copies) = lower::prepare(front)?;
    let whole = lower::compile_jammed(&k, &n, &copies)?;
    let one = |whole| lower::Piece {
        code: whole,
        parallel: false,
        nested: None,
    };
    if threads <= 1 {
        return Ok((k, vec![one(whole)], None));
    }
    let parallel = |piece: &ast::Node, l: usize| front.parallel_in(piece, l);
    // the pieces reuse `whole` where one is the whole nest (compiled once)
    match lower::compile_pieces_beside(&k, &n, &parallel, &copies, &whole)? {
        Some(p) => Ok((k, p, Some(whole))),
        // nothing to share among workers: one function, no calls between pieces
        None => Ok((k, vec![one(whole)], None)),
    }
}

/// Runs `poly run`; returns the checksum lines and the time line.
pub fn run_command(args: &[String]) -> Result<String, Error> {
    let a = parse(args)?;
    let src =
        std::fs::read_to_string(&a.file).map_err(|e| Error::Io(format!("{}: {e}", a.file)))?;
    run_args(&src, a)
}

/// `poly run` on kernel text: compile, run `repeat` times (on `threads`
/// workers where a loop allows; `None`: the number of cores), and return
/// the checksum lines and the time line.
pub fn run_source(
    src: &str,
    assignments: &[String],
    repeat: usize,
    threads: Option<usize>,
) -> Result<String, Error> {
    run_source_with(src, assignments, repeat, threads, lower::Policy::Auto)
}

/// [`run_source`] with the schedule chosen by `policy`.
pub fn run_source_with(
    src: &str,
    assignments: &[String],
    repeat: usize,
    threads: Option<usize>,
    policy: lower::Policy,
) -> Result<String, Error> {
    let a = Args {
        file: String::new(),
        assignments: assignments.to_vec(),
        repeat: repeat.max(1),
        threads,
        policy,
        control: false,
    };
    run_args(src, a)
}

/// `poly run` on kernel text with parsed arguments.
fn run_args(src: &str, a: Args) -> Result<String, Error> {
    let policy = a.policy;
    let start = Instant::now();
    let threads = a.threads.unwrap_or_else(lower::default_threads);
    let front = lower::front_versioned(src, policy, threads)?;
    eprintln!(
        "poly run: {}",
        crate::compile::schedule_note(&front, threads)
    );
    let (ints, dbls) = lower::parse_assignments(&front.function, &a.assignments)?;
    // versioning: the optimized code runs only where the model is exact
    let inputs = scop::interp::initial_state(&front.function, &ints, &dbls)?;
    let compiled = match lower::version(&front, &inputs)? {
        assumptions::Choice::Original(why) => {
            eprintln!("poly run: {why}, running the original program (reference interpreter)");
            None
        }
        assumptions::Choice::Optimized => match pieces(&front, threads) {
            Ok(x) => Some(x),
            Err(e) => {
                eprintln!("poly run: {e}; running the reference interpreter instead");
                None
            }
        },
    };
    drop(inputs);
    let compiled = match compiled {
        Some(x) if lower::accesses_in_bounds(&front.model, &ints)? => {
            eprintln!("poly run: run-time check holds, running the optimized program");
            Some(x)
        }
        Some(_) => {
            eprintln!("poly run: some access leaves its array at these sizes; running the reference interpreter instead");
            None
        }
        None => None,
    };
    if start.elapsed().as_secs() >= 1 {
        eprintln!(
            "poly run: compiled in {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
    let (checksums, time) = match compiled {
        Some((k, c, whole)) => {
            let mut control = match a.control {
                true => Some(lower::FmaControl::new()?),
                false => None,
            };
            let mut rates = Vec::new();
            let mut report = |r: usize, ns: u128| {
                if start.elapsed().as_secs() >= 1 {
                    eprintln!(
                        "poly run: run {} of {} took {:.1} ms",
                        r + 1,
                        a.repeat,
                        ns as f64 / 1e6
                    );
                }
                if let Some(c) = control.as_mut() {
                    rates.extend(c.rate(lower::FmaControl::calls_for(ns)));
                }
            };
            let cx = lower::RunContext {
                kernel: &k,
                function: &front.function,
                assignments: &a.assignments,
                repeat: a.repeat,
                threads,
                min_threaded_ns: THREADED_NS,
            };
            let out = match &whole {
                Some(w) => lower::run_adaptive(w, &c, &cx, lower::SEQUENTIAL_NS, &mut report)?,
                None => lower::run_pieces(&c, &cx, &mut report)?,
            };
            if let (Some(cpu), Some(all)) = (out.median_cpu_ns, out.median_process_cpu_ns) {
                eprintln!(
                    "poly run: CPU time per run, median {cpu} ns in the calling thread, {all} ns in all threads"
                );
            }
            if a.control {
                eprintln!("poly run: {}", control_line(&mut rates));
            }
            (out.checksums, out.median_ns)
        }
        None => {
            let mut times = Vec::new();
            let mut text = String::new();
            for r in 0..a.repeat {
                if start.elapsed().as_secs() >= 1 {
                    eprintln!("poly run: interpreter run {} of {}", r + 1, a.repeat);
                }
                let t = Instant::now();
                text = scop::commands::interp_function(&front.function, &a.assignments)?;
                times.push(t.elapsed().as_nanos());
            }
            (text, lower::median(times))
        }
    };
    Ok(format!("{checksums}time {time}\n"))
}

/// The line `--fma-control` prints: the control's median rate and range.
fn control_line(rates: &mut [f64]) -> String {
    rates.sort_by(f64::total_cmp);
    let n = rates.len();
    if n == 0 {
        return "FMA control: the thread's CPU clock is unavailable".to_string();
    }
    let median = if n % 2 == 1 {
        rates[n / 2]
    } else {
        (rates[n / 2 - 1] + rates[n / 2]) / 2.0
    };
    format!(
        "FMA control (6x8 micro-kernel on first-level panels after each run, same thread): median {median:.2} GFLOP/s of CPU time ({:.2}-{:.2})",
        rates[0],
        rates[n - 1]
    )
}
