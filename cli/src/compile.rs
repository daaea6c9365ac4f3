//! `poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm]`: the
//! stages of compiling a kernel to x86-64 (the `lower` crate): the program
//! model (JSON, as `poly scop`), its dependences (as `poly deps`), the
//! schedule the code follows (the original one or the scheduler's, by the
//! rule of `lower`'s `choice` module; standard error says which and why),
//! the generated loops (after unroll-and-jam of
//! parallel outer loops), a complete C function with the original
//! signature, or the machine code of one thread with offsets (the default).
//! `--schedule original|scheduler|fused` overrides the choice (`auto`;
//! `fused`: the original with its sweeps inside an enclosing loop fused,
//! an error where there are none). The automatic choice depends on the
//! threads the code runs on (`lower`'s `choice`, rule 4: sweeps inside a
//! time loop are fused for one thread only, where apart they are parallel
//! loops), so `--threads T` says for how many, with `poly run`'s default,
//! the number of cores: `poly compile` shows what `poly run` with the same
//! options runs (the machine code of `--emit asm` is the one-thread
//! function; on more threads `poly run` splits its parallel loops among
//! the workers). Standard error says which schedule, for how many threads
//! and why, also when the scheduler stopped at its compile-time work limit
//! (`--verbose`, which alone said so, is gone).

use crate::error::Error;

/// Usage of the command.
pub const USAGE: &str = "usage: poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm] [--schedule auto|original|scheduler|fused] [--threads T]";

/// Runs `poly compile`; returns the requested stage as text.
pub fn compile_command(args: &[String]) -> Result<String, Error> {
    let usage = |m: String| Error::Usage(format!("{m}\n{USAGE}"));
    let (mut file, mut emit, mut policy) = (None, "asm".to_string(), lower::Policy::Auto);
    let mut threads = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--emit" => {
                emit = it
                    .next()
                    .ok_or_else(|| usage("--emit needs a stage".into()))?
                    .clone()
            }
            "--schedule" => policy = crate::compile::policy(it.next()).map_err(usage)?,
            "--threads" => threads = Some(crate::compile::threads(it.next()).map_err(usage)?),
            s if s.starts_with("--") => return Err(usage(format!("unknown option `{s}`"))),
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(usage(format!("unexpected argument `{s}`"))),
        }
    }
    let file = file.ok_or_else(|| usage("no kernel file".into()))?;
    let src = std::fs::read_to_string(&file).map_err(|e| Error::Io(format!("{file}: {e}")))?;
    let threads = threads.unwrap_or_else(lower::default_threads);
    let front = lower::front_for(&src, policy, threads)?;
    eprintln!("poly compile: {}", schedule_note(&front, threads));
    match emit.as_str() {
        "model" => Ok(front.model.to_json().pretty()),
        "deps" => crate::deps::deps_text(&src, &[], false),
        "schedule" => Ok(format!("{}\n", lower::schedule(&front)?)),
        "ast" => {
            let (_, node, _) = lower::prepare(&front)?;
            Ok(node.to_c())
        }
        "c" => {
            let (k, node, _) = lower::prepare(&front)?;
            Ok(lower::c_function(&k, &front.function, &node)?)
        }
        "asm" => {
            let (k, node, copies) = lower::prepare(&front)?;
            let c = lower::compile_jammed(&k, &node, &copies)?;
            let mut out = format!(
                "# {}: {} bytes; argument vector in rdi (one 8-byte slot per parameter)\n",
                k.name,
                c.code.len()
            );
            for n in &c.notes {
                out.push_str(&format!("# {n}\n"));
            }
            out.push_str(&c.asm_text());
            Ok(out)
        }
        other => Err(usage(format!("unknown stage `{other}`"))),
    }
}

/// One line for standard error: which schedule the code follows, for how
/// many threads (the automatic choice depends on it), and why.
pub fn schedule_note(front: &lower::Front, threads: usize) -> String {
    let which = match front.schedule.origin {
        lower::Origin::Original => "the original schedule",
        lower::Origin::Scheduler => "the scheduler's schedule",
        lower::Origin::Fused => "the original schedule with fused loops",
    };
    let on = if threads == 1 {
        "1 thread".to_string()
    } else {
        format!("{threads} threads")
    };
    format!("{which} for {on} ({})", front.schedule.reason)
}

/// The value of `--schedule` (`auto`, `original`, `scheduler` or
/// `fused`), or what is wrong with it.
pub fn policy(value: Option<&String>) -> Result<lower::Policy, String> {
    value
        .ok_or_else(|| "--schedule needs auto, original, scheduler or fused".to_string())?
        .parse()
        .map_err(|e: lower::Error| e.to_string())
}

/// The value of `--threads` (a positive number), or what is wrong with it.
pub fn threads(value: Option<&String>) -> Result<usize, String> {
    let v = value.ok_or_else(|| "--threads needs a number".to_string())?;
    v.parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("bad --threads `{v}`"))
}
