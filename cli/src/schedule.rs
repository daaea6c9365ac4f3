//! `poly schedule FILE.sc`: compute a schedule for isl schedule constraints and
//! print it as an isl YAML schedule tree.

use crate::Error;
use scheduler::{compute_schedule, compute_schedule_or, Options, Outcome, ScheduleConstraints};

/// Usage of the command.
pub const USAGE: &str =
    "usage: poly schedule [--budget N] [--max-coefficient N] [--no-coincidence] [--tile S1,S2..] FILE.sc\n\
     \x20      poly schedule [same options] [--live-range-reordering] [--constraints] [--fallback-original] KERNEL.c\n\
     --budget N: engine operations allowed (0: unbounded); when they run out the command fails,\n\
     \x20 or with --fallback-original (kernels only) prints the kernel's original schedule and says so on stderr\n";

/// Run `poly schedule` with its arguments; the schedule tree text.
pub fn schedule_command(args: &[String]) -> Result<String, Error> {
    let usage = |m: String| Error::Usage(format!("{m}\n{USAGE}"));
    let mut opts = Options::default();
    let mut file = None;
    let (mut lrr, mut show_constraints, mut fallback) = (false, false, false);
    let mut tile: Option<Vec<i64>> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--budget" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage("--budget needs a number".into()))?;
                let n: u64 = v.parse().map_err(|_| usage(format!("bad budget `{v}`")))?;
                opts.budget = if n == 0 { None } else { Some(n) };
            }
            "--max-coefficient" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage("--max-coefficient needs a number".into()))?;
                opts.max_coefficient = v.parse().map_err(|_| usage(format!("bad number `{v}`")))?;
            }
            "--no-coincidence" => opts.maximize_coincidence = false,
            "--live-range-reordering" => lrr = true,
            "--constraints" => show_constraints = true,
            "--fallback-original" => fallback = true,
            "--tile" => {
                let v = it
                    .next()
                    .ok_or_else(|| usage("--tile needs sizes, e.g. 32,32".into()))?;
                let sizes: Result<Vec<i64>, _> =
                    v.split(',').map(|x| x.trim().parse::<i64>()).collect();
                tile = Some(sizes.map_err(|_| usage(format!("bad tile sizes `{v}`")))?);
            }
            "-h" | "--help" => return Ok(USAGE.to_string()),
            s if s.starts_with('-') && s != "-" => {
                return Err(usage(format!("unknown option `{s}`")))
            }
            s => file = Some(s.to_string()),
        }
    }
    let file = file.ok_or_else(|| usage("no input file".into()))?;
    let text = if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)?;
        s
    } else {
        std::fs::read_to_string(&file).map_err(|e| Error::Io(format!("{file}: {e}")))?
    };
    let in_file = |error: scheduler::Error| Error::Schedule {
        file: file.clone(),
        error,
    };
    let kernel = file.ends_with(".c");
    if fallback && !kernel {
        return Err(usage(
            "--fallback-original needs a kernel (KERNEL.c): a constraints file has no original schedule".into(),
        ));
    }
    let sc: ScheduleConstraints = if kernel {
        kernel_constraints(&text, lrr).map_err(|e| match e {
            Error::Schedule { error, .. } => in_file(error),
            e => e,
        })?
    } else {
        text.parse().map_err(in_file)?
    };
    if show_constraints {
        return Ok(sc.to_string());
    }
    let mut s = if fallback {
        let model = scop::Model::from_source(&text)?;
        let original = scheduler::Schedule::from_union_map(model.domain(), model.schedule())
            .map_err(in_file)?;
        let (s, outcome) = compute_schedule_or(&sc, &opts, original).map_err(in_file)?;
        if outcome == Outcome::BudgetFallback {
            eprintln!(
                "poly schedule: {file}: operation budget exceeded; printing the original schedule"
            );
        }
        s
    } else {
        compute_schedule(&sc, &opts).map_err(in_file)?
    };
    if let Some(sizes) = tile {
        s = s.tile(&sizes).map_err(in_file)?;
    }
    Ok(s.to_string())
}

/// The schedule constraints of a C kernel: its typed program model from
/// `scop`, the dependences from `dataflow` (no isl text in between).
pub fn kernel_constraints(src: &str, lrr: bool) -> Result<ScheduleConstraints, Error> {
    model_constraints(&scop::Model::from_source(src)?, lrr)
}

/// [`kernel_constraints`] of a program model.
pub fn model_constraints(model: &scop::Model, lrr: bool) -> Result<ScheduleConstraints, Error> {
    // untagged accesses: adjacency of conditions is then per statement (coarser,
    // still exact for the definition), as in the shared `*.lrr.sc` files
    let acc = scheduler::Accesses::from_model(model);
    let budget = 200_000_000;
    presburger::budget::with_budget(budget, || scheduler::constraints_from_accesses(&acc, lrr))
        .map_err(|error| Error::Schedule {
            file: "kernel".into(),
            error,
        })
}
