//! `poly schedule FILE.sc`: compute a schedule for isl schedule constraints and
//! print it as an isl YAML schedule tree.

use scheduler::{compute_schedule, Options, ScheduleConstraints};

/// Usage of the command.
pub const USAGE: &str =
    "usage: poly schedule [--budget N] [--max-coefficient N] [--no-coincidence] [--tile S1,S2..] FILE.sc\n";

/// Run `poly schedule` with its arguments; the schedule tree text or an error message.
pub fn schedule_command(args: &[String]) -> Result<String, String> {
    let mut opts = Options::default();
    let mut file = None;
    let (mut lrr, mut show_constraints) = (false, false);
    let mut tile: Option<Vec<i64>> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--budget" => {
                let v = it.next().ok_or("--budget needs a number")?;
                let n: u64 = v.parse().map_err(|_| format!("bad budget `{v}`"))?;
                opts.budget = if n == 0 { None } else { Some(n) };
            }
            "--max-coefficient" => {
                let v = it.next().ok_or("--max-coefficient needs a number")?;
                opts.max_coefficient = v.parse().map_err(|_| format!("bad number `{v}`"))?;
            }
            "--no-coincidence" => opts.maximize_coincidence = false,
            "--live-range-reordering" => lrr = true,
            "--constraints" => show_constraints = true,
            "--tile" => {
                let v = it.next().ok_or("--tile needs sizes, e.g. 32,32")?;
                let sizes: Result<Vec<i64>, _> =
                    v.split(',').map(|x| x.trim().parse::<i64>()).collect();
                tile = Some(sizes.map_err(|_| format!("bad tile sizes `{v}`"))?);
            }
            "-h" | "--help" => return Ok(USAGE.to_string()),
            s if s.starts_with('-') && s != "-" => {
                return Err(format!("unknown option `{s}`\n{USAGE}"))
            }
            s => file = Some(s.to_string()),
        }
    }
    let file = file.ok_or_else(|| USAGE.to_string())?;
    let text = if file == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| e.to_string())?;
        s
    } else {
        std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?
    };
    let sc: ScheduleConstraints = if file.ends_with(".c") {
        kernel_constraints(&text, lrr).map_err(|e| format!("{file}: {e}"))?
    } else {
        text.parse().map_err(|e| format!("{file}: {e}"))?
    };
    if show_constraints {
        return Ok(sc.to_string());
    }
    let mut s = compute_schedule(&sc, &opts).map_err(|e| format!("{file}: {e}"))?;
    if let Some(sizes) = tile {
        s = s.tile(&sizes).map_err(|e| format!("{file}: {e}"))?;
    }
    Ok(s.to_string())
}

/// The schedule constraints of a C kernel: its model from `scop`, the
/// dependences from `dataflow`.
pub fn kernel_constraints(src: &str, lrr: bool) -> Result<ScheduleConstraints, String> {
    let t = scop::commands::model_texts(src).map_err(|e| e.to_string())?;
    let u = |s: &str| s.parse::<presburger::UnionMap>().map_err(|e| e.to_string());
    // untagged accesses: adjacency of conditions is then per statement (coarser,
    // still exact for the definition), as in the shared `*.lrr.sc` files
    let (reads, must, may) = (u(&t.read)?, u(&t.must_write)?, u(&t.may_write)?);
    let context = t
        .context
        .parse::<presburger::Map>()
        .map_err(|e| e.to_string())?;
    let acc = scheduler::Accesses {
        domain: u(&t.domain)?,
        context: Some(context),
        schedule: u(&t.schedule)?,
        reads,
        must_writes: must,
        may_writes: may,
    };
    let budget = 200_000_000;
    presburger::budget::with_budget(budget, || scheduler::constraints_from_accesses(&acc, lrr))
        .map_err(|e| e.to_string())
}
