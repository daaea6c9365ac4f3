//! `poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm]`: the
//! stages of compiling a kernel to x86-64 (the `lower` crate): the program
//! model (JSON, as `poly scop`), its dependences (as `poly deps`), the
//! schedule the code follows (the original one or the scheduler's, by the
//! rule of `lower`'s `choice` module; standard error says which and why),
//! the generated loops (after unroll-and-jam of
//! parallel outer loops), a complete C function with the original
//! signature, or the machine code of one thread with offsets (the default).
//! `--schedule original|scheduler` overrides the choice (`auto`);
//! `--verbose` also says when the choice ended at the scheduler's work
//! limit (a bound on the compile time, not a property of the kernel).

use crate::error::Error;

/// Usage of the command.
pub const USAGE: &str = "usage: poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm] [--schedule auto|original|scheduler] [--verbose]";

/// Runs `poly compile`; returns the requested stage as text.
pub fn compile_command(args: &[String]) -> Result<String, Error> {
    let usage = |m: String| Error::Usage(format!("{m}\n{USAGE}"));
    let (mut file, mut emit, mut policy) = (None, "asm".to_string(), lower::Policy::Auto);
    let mut verbose = false;
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
            "--verbose" => verbose = true,
            s if s.starts_with("--") => return Err(usage(format!("unknown option `{s}`"))),
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(usage(format!("unexpected argument `{s}`"))),
        }
    }
    let file = file.ok_or_else(|| usage("no kernel file".into()))?;
    let src = std::fs::read_to_string(&file).map_err(|e| Error::Io(format!("{file}: {e}")))?;
    let front = lower::front_with(&src, policy)?;
    eprintln!("poly compile: {}", schedule_note(&front, verbose));
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

/// One line for standard error: which schedule the code follows and why
/// (a choice that ended at the scheduler's work limit says why only when
/// `verbose`: that limit is a bound on the compile time, not news about
/// the kernel).
pub fn schedule_note(front: &lower::Front, verbose: bool) -> String {
    let which = match front.schedule.origin {
        lower::Origin::Original => "the original schedule",
        lower::Origin::Scheduler => "the scheduler's schedule",
        lower::Origin::Fused => "the original schedule with fused loops",
    };
    if front.schedule.limited && !verbose {
        return which.to_string();
    }
    format!("{which} ({})", front.schedule.reason)
}

/// The value of `--schedule` (`auto`, `original` or `scheduler`), or what
/// is wrong with it.
pub fn policy(value: Option<&String>) -> Result<lower::Policy, String> {
    value
        .ok_or_else(|| "--schedule needs auto, original or scheduler".to_string())?
        .parse()
        .map_err(|e: lower::Error| e.to_string())
}
