//! `poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm]`: the
//! stages of compiling a kernel to x86-64 (the `lower` crate): the program
//! model (JSON, as `poly scop`), its dependences (as `poly deps`), the
//! schedule the code follows, the generated loops (after unroll-and-jam of
//! parallel outer loops), a complete C function with the original
//! signature, or the machine code of one thread with offsets (the default).

use crate::error::Error;

/// Usage of the command.
pub const USAGE: &str = "usage: poly compile KERNEL.c [--emit model|deps|schedule|ast|c|asm]";

/// Runs `poly compile`; returns the requested stage as text.
pub fn compile_command(args: &[String]) -> Result<String, Error> {
    let usage = |m: String| Error::Usage(format!("{m}\n{USAGE}"));
    let (mut file, mut emit) = (None, "asm".to_string());
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--emit" => {
                emit = it
                    .next()
                    .ok_or_else(|| usage("--emit needs a stage".into()))?
                    .clone()
            }
            s if s.starts_with("--") => return Err(usage(format!("unknown option `{s}`"))),
            s if file.is_none() => file = Some(s.to_string()),
            s => return Err(usage(format!("unexpected argument `{s}`"))),
        }
    }
    let file = file.ok_or_else(|| usage("no kernel file".into()))?;
    let src = std::fs::read_to_string(&file).map_err(|e| Error::Io(format!("{file}: {e}")))?;
    let front = lower::front(&src)?;
    match emit.as_str() {
        "model" => Ok(front.model.to_json().pretty()),
        "deps" => crate::deps::deps_text(&src, &[], false),
        "schedule" => Ok(format!("{}\n", lower::schedule(&front.model)?)),
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
