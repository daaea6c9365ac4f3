//! The two entry points used by the `poly` command-line tool.

use crate::ast::ParamKind;
use crate::error::Error;
use std::collections::HashMap;

fn read_source(path: &str) -> Result<String, Error> {
    std::fs::read_to_string(path).map_err(|e| Error::usage(format!("cannot read {path}: {e}")))
}

/// `poly scop FILE.c [--isl]`: returns the polyhedral model as JSON text,
/// or with `--isl` as an iscc script (one `name := relation;` line per
/// relation, printed by the engine: the [`Model`](crate::Model)'s
/// `Display`), which `poly calc` reads.
///
/// JSON keys: `params`, `context`, `domain`, `schedule`, `read`,
/// `must_write`, `may_write`, `tagged_read`, `tagged_must_write`,
/// `tagged_may_write` (all isl notation), `arrays` and `statements`
/// (per-statement details), then `assumed` and `invalid`: the optimistic
/// assumptions recorded while building (see [`Model::to_json`](crate::Model::to_json); `poly
/// assumptions` simplifies further and prints the run-time check).
pub fn scop_command(args: &[String]) -> Result<String, Error> {
    let (path, isl) = match args {
        [path] => (path, false),
        [path, flag] | [flag, path] if flag == "--isl" => (path, true),
        _ => return Err(Error::usage("usage: poly scop FILE.c [--isl]")),
    };
    let src = read_source(path)?;
    let model = crate::Model::from_source(&src)?;
    if isl {
        return Ok(model.to_string());
    }
    Ok(model.to_json().pretty())
}

/// `poly interp FILE.c NAME=VALUE...`: runs the kernel on the agreed inputs
/// and returns one `NAME CHECKSUM` line per array parameter, in signature
/// order, each terminated by `\n` (print it with `print!`, not `println!`).
/// CHECKSUM is `sum(value[x] * (1 + x % 7))` formatted like C's `%.12e`.
pub fn interp_command(args: &[String]) -> Result<String, Error> {
    let Some((path, rest)) = args.split_first() else {
        return Err(Error::usage("usage: poly interp FILE.c NAME=VALUE..."));
    };
    let src = read_source(path)?;
    interp_source(&src, rest)
}

/// Like [`interp_command`] but on source text.
///
/// ```
/// let src = "void k(int N, double A[N]) { for (int i = 0; i < N; i++) A[i] = A[i] * 2; }";
/// let out = scop::commands::interp_source(src, &["N=3".to_string()]).unwrap();
/// assert_eq!(out, "A 7.108910891089e+00\n");
/// ```
pub fn interp_source(src: &str, assignments: &[String]) -> Result<String, Error> {
    let f = crate::parser::parse_kernel(src)?;
    // Reject code outside the subset even when the interpreter could run it.
    crate::build::build_from_ast(&f)?;
    interp_function(&f, assignments)
}

/// Runs a kernel's syntax tree (e.g. one rewritten by a transformation) on
/// the inputs `NAME=VALUE...`, like [`interp_command`]: one `NAME CHECKSUM`
/// line per array parameter.
pub fn interp_function(f: &crate::ast::Function, assignments: &[String]) -> Result<String, Error> {
    let mut ints = HashMap::new();
    let mut scalars = HashMap::new();
    for a in assignments {
        let Some((name, value)) = a.split_once('=') else {
            return Err(Error::usage(format!("expected NAME=VALUE, got `{a}`")));
        };
        let Some(p) = f.params.iter().find(|p| p.name == name) else {
            return Err(Error::usage(format!(
                "`{name}` is not a parameter of {}",
                f.name
            )));
        };
        match p.kind {
            ParamKind::Int(_) => {
                let v: i64 = value.trim().parse().map_err(|_| {
                    Error::usage(format!("`{value}` is not an integer (for {name})"))
                })?;
                ints.insert(name.to_string(), v);
            }
            ParamKind::Double => {
                let v: f64 = value
                    .trim()
                    .parse()
                    .map_err(|_| Error::usage(format!("`{value}` is not a number (for {name})")))?;
                scalars.insert(name.to_string(), v);
            }
            ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } => {
                return Err(Error::usage(format!(
                    "`{name}` is an array; it cannot be set"
                )))
            }
        }
    }
    let mut st = crate::interp::initial_state(&f, &ints, &scalars)?;
    crate::interp::run(&f, &mut st)?;
    let mut out = String::new();
    for p in &f.params {
        if let ParamKind::Array(_) | ParamKind::OpenArray(_) | ParamKind::Pointer { .. } = p.kind {
            let data = st
                .arrays
                .get(&p.name)
                .map(|a| a.data.as_slice())
                .unwrap_or(&[]);
            out.push_str(&format!(
                "{} {}\n",
                p.name,
                crate::interp::format_c_exp(crate::interp::checksum(data), 12)
            ));
        }
    }
    Ok(out)
}
