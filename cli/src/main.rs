//! `poly`: the polyhedral toolkit's command line (argument dispatch only).

use std::io::{IsTerminal, Read, Write};
use std::process::ExitCode;

use poly::error::Error;

const USAGE: &str = "\
poly: a polyhedral toolkit in pure Rust

Usage:
  poly                      run the built-in example (same as `poly demo`)
  poly demo                 run the built-in example
  poly calc [--batch] [--budget N] [FILE]
                            run an iscc script from FILE or standard input
                            (an interactive prompt when standard input is a terminal);
                            --batch: one output line per value, `error: ...` lines for
                            failing statements (the conformance protocol);
                            --budget N: give up on a statement after N units of engine work
                            (a unit is a step of a solver loop: a pivot, a search node, a
                            point counted; the count does not depend on the machine, the
                            time it takes does); default: 250000000 in batch mode, no
                            limit otherwise; 0 means no limit. Outside --batch a statement
                            running longer than a second is named on standard error;
                            Ctrl-C ends the run
  poly scop FILE.c [--isl]  extract the polyhedral model of a C kernel (JSON;
                            --isl: an iscc script of its relations, for poly calc)
  poly interp FILE.c [--contract | --delicm [--forward] [--known]] NAME=VALUE...
                            run a C kernel with the given parameter values;
                            --contract: with its local arrays contracted (poly liveness);
                            --delicm: the program after DeLICM
  poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm]
                [--schedule auto|original|scheduler|fused] [--threads T]
                            a stage of compiling a C kernel to x86-64 (default: asm, the
                            machine code with offsets; c: a C function with the original
                            signature); the schedule is chosen (auto) for T threads
                            (default: the number of cores, as poly run): sweeps inside a
                            time loop are fused for one thread only; standard error says
                            which schedule and why; --schedule forces one (fused: the
                            original with such sweeps fused)
  poly run KERNEL.c NAME=VALUE... [--repeat R] [--threads T] [--fma-control]
                [--schedule auto|original|scheduler|fused]
                            compile a C kernel to x86-64 and run it on the interpreter's
                            inputs: its checksum lines, then `time NANOSECONDS` (median of R);
                            T threads (default: the number of cores); the schedule as in
                            poly compile; --fma-control: after each run an FMA kernel in
                            the first-level cache, its median rate on standard error
  poly delicm FILE.c [--forward] [--known]
                            map scalars into unused array elements (JSON model;
                            --forward: forward operand trees first; --known: a copy may
                            live in the element that holds its value)
  poly delicm --conflicts FILE.jsonl
                            the DeLICM conflict test, one `ID conflict|ok` line per case
  poly deps FILE.c [--param NAME=VALUE]... [--tagged]
                            the kernel's dependences as isl text: value-based flow,
                            anti (WAR), output (WAW), live-in and live-out, one line each;
                            --param fixes a parameter, --tagged keeps reference tags
  poly schedule FILE.sc | KERNEL.c [--tile S,..] [--live-range-reordering]
                [--budget N] [--max-coefficient N] [--no-coincidence] [--constraints]
                [--fallback-original]
                            compute a schedule (isl schedule-constraints file or C kernel
                            -> isl YAML schedule tree); --budget N: engine operations
                            allowed (0: no limit); --fallback-original (kernels): print the
                            original schedule, with a note, when the budget runs out;
                            --constraints: print the constraints instead
  poly liveness FILE.c [--sequential] [--budget N] NAME=VALUE...
                            storage conflicts of the written arrays (parallel semantics of
                            `#pragma omp parallel for` unless --sequential) and a modular
                            allocation, as JSON; counts for the given parameter values
  poly check-schedule FILE.c SCHEDULE
                            `legal` when the schedule (an isl union map on the statements,
                            or a file) reverses no flow and writes no cell inside one of its
                            live ranges; else `illegal:` and an offending instance;
                            SCHEDULE `--scheduled [--live-range-reordering]`: the schedule
                            `poly schedule FILE.c` computes
  poly codegen [--time N] FILE
                            generate loops (C, isl style) for an isl_codegen input
                            (FILE.in: schedule, context, options; FILE.st: schedule tree);
                            --time N: print the best time (ns) of N generations instead
  poly assumptions FILE.c [--remarks]
                            optimistic assumptions of a kernel's model: context, assumed and
                            invalid parameter sets and the run-time check (JSON)
  poly bench CASES.jsonl [--min-ms N]
                            check and time engine operations on conformance cases
                            (one line per case: ID OP NANOSECONDS, or ID OP WRONG)
  poly --help               print this message (`poly COMMAND --help`: one command's;
                            `poly calc --help` also lists the calculator's operators)
  poly --version            print the version
";

/// Work limit per statement in batch mode unless `--budget` says otherwise:
/// large enough for what isl answers in a few seconds (the engine does
/// about 5·10^7 units a second on the parametric lexmin and counting cases
/// measured), so that batch runs never hang but do not give up early.
const DEFAULT_BATCH_BUDGET: u64 = 250_000_000;

/// Outside batch mode, name a statement on standard error once it has run
/// this long, then again every [`PROGRESS_REPEAT`].
const PROGRESS_AFTER: std::time::Duration = std::time::Duration::from_secs(1);
const PROGRESS_REPEAT: std::time::Duration = std::time::Duration::from_secs(10);

/// Watch `progress` from a thread of its own (ended with the process) and
/// report long statements on standard error.
fn watch_progress(progress: calc::Progress) {
    std::thread::spawn(move || {
        let mut reported: Option<(usize, std::time::Duration)> = None;
        loop {
            std::thread::sleep(std::time::Duration::from_millis(100));
            let Some(r) = progress.current() else {
                continue;
            };
            let t = r.started.elapsed();
            let due = match reported {
                Some((n, last)) if n == r.statement => t >= last + PROGRESS_REPEAT,
                _ => t >= PROGRESS_AFTER,
            };
            if due {
                eprintln!(
                    "working on line {}: {}... ({} s)",
                    r.line,
                    r.excerpt,
                    t.as_secs()
                );
                reported = Some((r.statement, t));
            }
        }
    });
}

fn calc_command(args: &[String]) -> Result<ExitCode, Error> {
    let mut batch = false;
    let mut file = None;
    let mut budget = None;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--batch" => batch = true,
            "--budget" => {
                let n = args.next().and_then(|n| n.parse::<u64>().ok());
                budget = Some(n.ok_or_else(|| {
                    Error::Usage("`--budget` needs a number of operations".into())
                })?);
            }
            "-h" | "--help" => {
                print!("{USAGE}");
                return Ok(ExitCode::SUCCESS);
            }
            s if s.starts_with('-') && s != "-" => {
                return Err(Error::Usage(format!(
                    "unknown option `{s}` for `poly calc`"
                )))
            }
            s => {
                if file.is_some() {
                    return Err(Error::Usage("`poly calc` takes at most one FILE".into()));
                }
                file = Some(s.to_string());
            }
        }
    }
    // batch runs (scripts, the conformance checker) never hang: a default budget
    let budget = match budget {
        Some(0) => None,
        Some(n) => Some(n),
        None if batch => Some(DEFAULT_BATCH_BUDGET),
        None => None,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let summary = match file.as_deref() {
        Some(path) if path != "-" => {
            let src =
                std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{path}: {e}")))?;
            run_text(&src, Some(path), batch, budget, &mut out)?
        }
        _ => {
            let stdin = std::io::stdin();
            if !batch && stdin.is_terminal() {
                let mut s = calc::Session::new(false);
                s.set_budget(budget);
                let progress = calc::Progress::new();
                watch_progress(progress.clone());
                s.set_progress(Some(progress));
                calc::interactive_session(&mut s, &mut stdin.lock(), &mut out, true)?
            } else {
                let mut src = String::new();
                stdin.lock().read_to_string(&mut src)?;
                run_text(&src, None, batch, budget, &mut out)?
            }
        }
    };
    Ok(if summary.errors > 0 && !batch {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Batch: everything on stdout. Otherwise errors (with context) on stderr.
/// Error lines name the script's file, if any.
fn run_text(
    src: &str,
    file: Option<&str>,
    batch: bool,
    budget: Option<u64>,
    out: &mut dyn Write,
) -> Result<calc::Summary, Error> {
    let mut s = calc::Session::new(batch);
    s.set_budget(budget);
    s.set_source_name(file.map(str::to_string));
    if batch {
        s.run(src, 1, out, None)?;
    } else {
        let progress = calc::Progress::new();
        watch_progress(progress.clone());
        s.set_progress(Some(progress));
        let mut err = std::io::stderr();
        s.run(src, 1, out, Some(&mut err))?;
    }
    Ok(s.summary().clone())
}

/// Print a command's text (with a final newline); its error keeps its type.
fn front_end<E: Into<Error>>(result: Result<String, E>) -> Result<ExitCode, Error> {
    let text = result.map_err(Into::into)?;
    print!("{text}");
    if !text.is_empty() && !text.ends_with('\n') {
        println!();
    }
    Ok(ExitCode::SUCCESS)
}

/// The usage lines of `poly NAME` (its entry in [`USAGE`]), if it is a command.
fn command_usage(name: &str) -> Option<String> {
    let mut out = String::new();
    let mut inside = false;
    for line in USAGE.lines() {
        let entry = line.strip_prefix("  poly ");
        if let Some(rest) = entry {
            // `  poly      run the built-in example` is no command's entry
            inside = !rest.starts_with(' ') && rest.split_whitespace().next() == Some(name);
        } else if !line.starts_with("    ") {
            inside = false;
        }
        if inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    (!out.is_empty()).then(|| format!("Usage:\n{out}"))
}

/// `poly SUB --help` (or `-h`): the command's usage, and for `calc` the
/// language's operators; `None` when SUB is not a command or asks no help.
fn command_help(args: &[String]) -> Option<String> {
    let (sub, rest) = args.split_first()?;
    if !rest.iter().any(|a| a == "--help" || a == "-h") {
        return None;
    }
    let usage = command_usage(sub)?;
    Some(if sub == "calc" {
        format!("{usage}\n{}", calc::operators_help())
    } else {
        usage
    })
}

fn dispatch(args: &[String]) -> Result<ExitCode, Error> {
    if let Some(help) = command_help(args) {
        print!("{help}");
        return Ok(ExitCode::SUCCESS);
    }
    match args.first().map(String::as_str) {
        None | Some("demo") => {
            poly::demo::run_demo(&mut std::io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some("-h" | "--help" | "help") => {
            print!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        Some("-V" | "--version") => {
            println!("poly {}", env!("CARGO_PKG_VERSION"));
            Ok(ExitCode::SUCCESS)
        }
        Some("calc") => calc_command(&args[1..]),
        Some("bench") => poly::bench::bench_command(&args[1..]),
        Some("codegen") => front_end(poly::codegen::codegen_command(&args[1..])),
        Some("scop") => front_end(scop::commands::scop_command(&args[1..])),
        Some("interp") if args.iter().any(|a| a == "--contract") => {
            front_end(poly::liveness::interp_contract_command(&args[1..]))
        }
        Some("interp") if args.iter().any(|a| a == "--delicm") => {
            front_end(poly::delicm::interp_command(&args[1..]))
        }
        Some("interp") => front_end(scop::commands::interp_command(&args[1..])),
        Some("delicm") => front_end(poly::delicm::delicm_command(&args[1..])),
        Some("compile") => front_end(poly::compile::compile_command(&args[1..])),
        Some("run") => front_end(poly::run::run_command(&args[1..])),
        Some("deps") => front_end(poly::deps::deps_command(&args[1..])),
        Some("assumptions") => front_end(poly::assumptions::assumptions_command(&args[1..])),
        Some("schedule") => front_end(poly::schedule::schedule_command(&args[1..])),
        Some("liveness") => front_end(poly::liveness::liveness_command(&args[1..])),
        Some("check-schedule") => front_end(poly::liveness::check_schedule_command(&args[1..])),
        Some(other) => Err(Error::Usage(format!(
            "unknown command `{other}` (see `poly --help`)"
        ))),
    }
}

fn main() -> ExitCode {
    // Panics inside an operation are turned into `error:` lines by the
    // calculator; keep their default report off the terminal.
    std::panic::set_hook(Box::new(|_| {}));
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The engine may recurse deeply: run on a thread with a large stack.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || dispatch(&args));
    let result = match worker {
        Ok(h) => h.join().unwrap_or_else(|p| {
            let msg = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned());
            Err(Error::Internal(msg.unwrap_or_else(|| "panic".into())))
        }),
        Err(e) => Err(Error::Io(e.to_string())),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            if matches!(e, Error::Usage(_)) {
                eprint!("{USAGE}");
            }
            ExitCode::FAILURE
        }
    }
}
