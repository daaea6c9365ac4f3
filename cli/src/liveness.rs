//! `poly liveness KERNEL.c [--sequential] [--budget N] NAME=VALUE...`:
//! storage conflicts and modular contraction of the arrays a C kernel
//! writes (see the `liveness` crate), as JSON:
//!
//! ```text
//! {"arrays": [{"name": "A", "conflict": MAP, "allocation": MAP or null,
//!              "cells_before": N, "cells_after": N}, ...]}
//! ```
//!
//! `conflict` is parametric; `allocation` is valid for every parameter value
//! (`null`: the identity); the counts are for the given values. Pragmas
//! select the parallel semantics; `--sequential` ignores them.
//!
//! ```
//! let src = "void k(int N, double A[N]) {
//!   double t[N];
//!   for (int i = 0; i < N; i++) t[i] = 2.0;
//!   for (int i = 0; i < N; i++) A[i] = t[i];
//! }";
//! let json = poly::liveness::liveness_text(src, &[("N".into(), 4)], false, None).unwrap();
//! assert!(json.contains("\"cells_before\": 4"));
//! ```

use crate::error::{Error, Result};
use scop::json::Json;

/// Default work limit of one analysis (engine operation units).
pub const DEFAULT_BUDGET: u64 = 2_000_000_000;

fn lerr(e: liveness::Error) -> Error {
    match e {
        liveness::Error::Front(e) => Error::Front(e),
        liveness::Error::Usage(m) => Error::Usage(m),
        liveness::Error::Engine(e) => Error::Set(e),
        liveness::Error::Dataflow(e) => Error::Dataflow(e),
        e => Error::Liveness(e),
    }
}

/// The JSON document for the kernel `src` at the parameter values `values`.
pub fn liveness_text(
    src: &str,
    values: &[(String, i64)],
    sequential: bool,
    budget: Option<u64>,
) -> Result<String> {
    let run = || -> liveness::Result<String> {
        let a = liveness::analyze(src, sequential)?;
        let vals: Vec<(&str, i64)> = values.iter().map(|(n, v)| (n.as_str(), *v)).collect();
        for (n, _) in &vals {
            if !a.model.params().iter().any(|p| p == n) {
                return Err(liveness::Error::Usage(format!(
                    "`{n}` is not an integer parameter of {}",
                    a.model.function()
                )));
            }
        }
        let mut arrays = Vec::new();
        for r in &a.arrays {
            let (before, after) = r.allocation.count(&r.cells, &vals)?;
            let alloc = if r.allocation.is_identity() {
                Json::Null
            } else {
                Json::str(r.allocation.to_string())
            };
            arrays.push(Json::Obj(vec![
                ("name".into(), Json::str(&r.name)),
                ("conflict".into(), Json::str(r.conflict.to_string())),
                ("allocation".into(), alloc),
                ("cells_before".into(), Json::Int(before as i64)),
                ("cells_after".into(), Json::Int(after as i64)),
            ]));
        }
        Ok(Json::Obj(vec![("arrays".into(), Json::Arr(arrays))]).pretty())
    };
    match budget {
        Some(b) => presburger::budget::with_budget(b, run),
        None => run(),
    }
    .map_err(lerr)
}

/// Splits the arguments: the file, `NAME=VALUE` pairs, and the flags.
struct Args {
    file: String,
    values: Vec<(String, i64)>,
    sequential: bool,
    contract: bool,
    budget: Option<u64>,
}

fn parse_args(cmd: &str, args: &[String]) -> Result<Args> {
    let mut out = Args {
        file: String::new(),
        values: Vec::new(),
        sequential: false,
        contract: false,
        budget: Some(DEFAULT_BUDGET),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--sequential" => out.sequential = true,
            "--contract" => out.contract = true,
            "--budget" => {
                let n = it
                    .next()
                    .and_then(|s| s.parse::<u64>().ok())
                    .ok_or_else(|| Error::Usage("`--budget` needs a number".into()))?;
                out.budget = if n == 0 { None } else { Some(n) };
            }
            s if s.starts_with('-') => {
                return Err(Error::Usage(format!(
                    "unknown option `{s}` for `poly {cmd}`"
                )))
            }
            s if s.contains('=') => {
                let (n, v) = s.split_once('=').unwrap_or((s, ""));
                let v = v
                    .trim()
                    .parse::<i64>()
                    .map_err(|_| Error::Usage(format!("expected NAME=INTEGER, got `{s}`")))?;
                out.values.push((n.trim().to_string(), v));
            }
            s => {
                if !out.file.is_empty() {
                    return Err(Error::Usage(format!("`poly {cmd}` takes one KERNEL.c")));
                }
                out.file = s.to_string();
            }
        }
    }
    if out.file.is_empty() {
        return Err(Error::Usage(format!("`poly {cmd}` needs a KERNEL.c")));
    }
    Ok(out)
}

fn read(path: &str) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::Io(format!("{path}: {e}")))
}

/// `poly liveness KERNEL.c [--sequential] [--budget N] NAME=VALUE...`.
pub fn liveness_command(args: &[String]) -> Result<String> {
    let a = parse_args("liveness", args)?;
    if a.contract {
        return Err(Error::Usage("`--contract` belongs to `poly interp`".into()));
    }
    liveness_text(&read(&a.file)?, &a.values, a.sequential, a.budget)
}

/// `poly interp KERNEL.c --contract NAME=VALUE...`: runs the kernel with its
/// local arrays contracted (see `liveness::interp_contracted`); prints the
/// same checksums as `poly interp`.
pub fn interp_contract_command(args: &[String]) -> Result<String> {
    let a = parse_args("interp", args)?;
    let rest: Vec<String> = a.values.iter().map(|(n, v)| format!("{n}={v}")).collect();
    let src = read(&a.file)?;
    let run = || liveness::interp_contracted(&src, &rest);
    match a.budget {
        Some(b) => presburger::budget::with_budget(b, run),
        None => run(),
    }
    .map_err(lerr)
}

/// `poly check-schedule KERNEL.c SCHEDULE`: `legal`, or `illegal: ...` with
/// the violated flow or live range (SCHEDULE: an isl union map on the
/// statements, or a file holding one). `poly check-schedule KERNEL.c
/// --scheduled [--live-range-reordering]` checks the schedule that `poly
/// schedule KERNEL.c` computes (the scheduler's tree as a union map).
pub fn check_schedule_command(args: &[String]) -> Result<String> {
    if let [file, flag, rest @ ..] = args {
        if flag == "--scheduled" {
            let lrr = match rest {
                [] => false,
                [f] if f == "--live-range-reordering" => true,
                _ => {
                    return Err(Error::Usage(
                        "`poly check-schedule KERNEL.c --scheduled [--live-range-reordering]`"
                            .into(),
                    ))
                }
            };
            let src = read(file)?;
            let sc = crate::schedule::kernel_constraints(&src, lrr)?;
            let schedule = scheduler::compute_schedule(&sc, &scheduler::Options::default())
                .and_then(|s| s.to_union_map())
                .map_err(|error| Error::Schedule {
                    file: file.clone(),
                    error,
                })?;
            return check_schedule_map(&src, &schedule, Some(DEFAULT_BUDGET));
        }
    }
    let [file, sched] = args else {
        return Err(Error::Usage(
            "`poly check-schedule` takes KERNEL.c and SCHEDULE (or --scheduled)".into(),
        ));
    };
    let src = read(file)?;
    let text = if std::path::Path::new(sched).is_file() {
        read(sched)?
    } else {
        sched.clone()
    };
    check_schedule_text(&src, &text, Some(DEFAULT_BUDGET))
}

/// The verdict of `poly check-schedule` for a kernel's source and a schedule.
pub fn check_schedule_text(src: &str, schedule: &str, budget: Option<u64>) -> Result<String> {
    let sched: presburger::UnionMap = schedule
        .trim()
        .parse()
        .map_err(|e| Error::Usage(format!("SCHEDULE is not an isl union map: {e}")))?;
    check_schedule_map(src, &sched, budget)
}

/// [`check_schedule_text`] on a schedule given as a value.
pub fn check_schedule_map(
    src: &str,
    sched: &presburger::UnionMap,
    budget: Option<u64>,
) -> Result<String> {
    let run = || -> liveness::Result<String> {
        let model = scop::Model::from_source(src)?;
        Ok(liveness::check_schedule(&model, sched)?.to_string())
    };
    match budget {
        Some(b) => presburger::budget::with_budget(b, run),
        None => run(),
    }
    .map_err(lerr)
}
