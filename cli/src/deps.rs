//! `poly deps KERNEL.c [--param NAME=VALUE]... [--tagged]`: the memory
//! dependences of a C kernel, as isl text.
//!
//! The kernel goes through the front end's program model
//! ([`scop::Model`], built with the engine) to
//! [`dataflow::compute_dependences`] with no text in between; only the result
//! is printed. One labelled line per relation, in this order:
//!
//! - `flow`: value-based read-after-write dependences (exact dataflow: the
//!   last write before each read), `source -> sink`;
//! - `anti`: write-after-read dependences;
//! - `output`: write-after-write dependences;
//! - `live_in`: the reads of values from before the kernel;
//! - `live_out`: the writes whose values may still be there after it.
//!
//! `--param N=8` fixes a parameter (the relations are restricted to that
//! value); `--tagged` keeps the reference tags (`[S0[i] -> R1[]]`).
//!
//! ```
//! let src = "void k(int N, double A[N]) { for (int i = 1; i < N; i++) A[i] = A[i - 1]; }";
//! let text = poly::deps::deps_text(src, &[], false).unwrap();
//! let lines: Vec<(&str, &str)> = text.lines().map(|l| l.split_once(" := ").unwrap()).collect();
//! let labels: Vec<&str> = lines.iter().map(|l| l.0).collect();
//! assert_eq!(labels, ["flow", "anti", "output", "live_in", "live_out"]);
//! let flow: presburger::UnionMap = lines[0].1.trim_end_matches(';').parse().unwrap();
//! let want: presburger::UnionMap = "[N] -> { S0[i] -> S0[i + 1] : 1 <= i < N - 1 }".parse().unwrap();
//! assert!(flow.is_equal(&want).unwrap());
//! ```

use crate::error::{Error, Result};
use dataflow::{compute_dependences, Dependences, MemoryAccesses};

/// The dependences of `model`, with the parameters fixed as `params` says
/// (each name must be a parameter of the kernel), tagged or not.
pub fn kernel_dependences(
    model: &scop::Model,
    params: &[(String, i64)],
    tagged: bool,
) -> Result<Dependences> {
    let fixed;
    let model = if params.is_empty() {
        model
    } else {
        fixed = model.with_param_values(params)?;
        &fixed
    };
    let acc = if tagged {
        MemoryAccesses::from_model_tagged(model)?
    } else {
        MemoryAccesses::from_model(model)
    };
    Ok(compute_dependences(&acc)?)
}

/// The text `poly deps` prints for a kernel's source.
pub fn deps_text(src: &str, params: &[(String, i64)], tagged: bool) -> Result<String> {
    let model = scop::Model::from_source(src)?;
    let d = kernel_dependences(&model, params, tagged)?;
    let mut out = String::new();
    for (label, rel) in [
        ("flow", &d.flow),
        ("anti", &d.anti),
        ("output", &d.output),
        ("live_in", &d.live_in),
        ("live_out", &d.live_out),
    ] {
        out.push_str(&format!("{label} := {};\n", rel.coalesce()?));
    }
    Ok(out)
}

/// `poly deps KERNEL.c [--param NAME=VALUE]... [--tagged]`: see the
/// [module documentation](self).
pub fn deps_command(args: &[String]) -> Result<String> {
    let mut file = None;
    let mut params = Vec::new();
    let mut tagged = false;
    let mut args = args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--tagged" => tagged = true,
            "--param" => {
                let Some(p) = args.next() else {
                    return Err(Error::Usage("`--param` needs NAME=VALUE".into()));
                };
                params.push(parse_assignment(p)?);
            }
            s if s.starts_with("--param=") => params.push(parse_assignment(&s[8..])?),
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!(
                    "unknown option `{s}` for `poly deps`"
                )))
            }
            s => {
                if file.is_some() {
                    return Err(Error::Usage("`poly deps` takes one KERNEL.c".into()));
                }
                file = Some(s.to_string());
            }
        }
    }
    let Some(path) = file else {
        return Err(Error::Usage("`poly deps` needs a KERNEL.c".into()));
    };
    let src = std::fs::read_to_string(&path).map_err(|e| Error::Io(format!("{path}: {e}")))?;
    deps_text(&src, &params, tagged)
}

fn parse_assignment(p: &str) -> Result<(String, i64)> {
    let bad = || {
        Error::Usage(format!(
            "`--param` expects NAME=VALUE with an integer VALUE, got `{p}`"
        ))
    };
    let (name, value) = p.split_once('=').ok_or_else(bad)?;
    let value = value.trim().parse::<i64>().map_err(|_| bad())?;
    Ok((name.trim().to_string(), value))
}
