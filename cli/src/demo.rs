//! The built-in example run by `poly` (or `poly demo`): a short calculator
//! script that walks through what the toolkit does on a small kernel,
//! printing each statement and its value, then `poly deps` on the same
//! kernel written in C ([`DEMO_KERNEL`]), a new schedule for it (the
//! scheduler) and the loops generated from that schedule (AST generation).

use std::io::Write;

use crate::deps::deps_text;
use crate::error::{Error, Result};
use crate::schedule::kernel_constraints;
use calc::Session;

/// The demo script: one statement per line; `#` lines are narration.
pub const DEMO_SCRIPT: &str = "\
# poly: exact integer sets and relations for loop nests.
# The kernel (a triangular matrix-vector product):
#   for (i = 0; i < n; i++)
#     for (j = 0; j <= i; j++)
#       S: y[i] = y[i] + A[i][j] * x[j];
# Its iteration domain, accesses and schedule, in isl notation:
Domain := [n] -> { S[i, j] : 0 <= i < n and 0 <= j <= i };
Write := [n] -> { S[i, j] -> y[i] } * Domain;
Read := ([n] -> { S[i, j] -> y[i]; S[i, j] -> A[i, j]; S[i, j] -> x[j] }) * Domain;
Schedule := [n] -> { S[i, j] -> [i, j] };
# The first iteration, and the arrays each statement touches:
lexmin Domain;
range Read;
# Pairs of iterations that touch the same element of y, and pairs in execution order:
Same := Write . Write^-1;
Before := Schedule . ((range Schedule) << (range Schedule)) . Schedule^-1;
# Their intersection is the dependence relation on y (minus the self pairs):
Dep := Same * Before;
coalesce Dep;
# The dependence distances, and the immediate predecessor of each iteration:
coalesce (deltas Dep);
lexmax (Dep^-1);
# Array dataflow: the last write before each read, and the reads nothing wrote before:
Flow := last Write before Read under Schedule;
Flow[0];
Flow[1];
# Each read has at most one last writer (source -> sink is injective):
is_injective Flow[0];
# Counting: how many iterations for n = 10?
card ({ S[i, j] : 0 <= i < 10 and 0 <= j <= i });
";

/// The demo's kernel in C, for `poly deps` (its statement is `S0`).
pub const DEMO_KERNEL: &str = "\
void trmv(int n, double A[n][n], double x[n], double y[n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      y[i] = y[i] + A[i][j] * x[j];
}
";

/// Run the demo, echoing each statement before its value.
pub fn run_demo(out: &mut dyn Write) -> Result<()> {
    let mut s = Session::new(false);
    for (k, line) in DEMO_SCRIPT.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            writeln!(out, "{t}")?;
            continue;
        }
        writeln!(out, "poly> {t}")?;
        s.run(line, k + 1, out, None)?;
    }
    writeln!(
        out,
        "# The same kernel in C (trmv.c), straight from the source to its dependences:"
    )?;
    for line in DEMO_KERNEL.lines() {
        writeln!(out, "#   {line}")?;
    }
    writeln!(out, "$ poly deps trmv.c")?;
    write!(out, "{}", deps_text(DEMO_KERNEL, &[], false)?)?;
    writeln!(
        out,
        "# A new schedule from those dependences (the scheduler), as an isl schedule tree:"
    )?;
    writeln!(out, "$ poly schedule trmv.c")?;
    let constraints = kernel_constraints(DEMO_KERNEL, false)?;
    let schedule = scheduler::compute_schedule(&constraints, &scheduler::Options::default())
        .map_err(|error| Error::Schedule {
            file: "trmv.c".into(),
            error,
        })?;
    write!(out, "{schedule}")?;
    writeln!(
        out,
        "# ... and the loops that scan it (AST generation, C in isl's style):"
    )?;
    let codegen = |error: ast::Error| Error::Codegen {
        file: "trmv.c".into(),
        error,
    };
    let map = schedule.to_union_map().map_err(|error| Error::Schedule {
        file: "trmv.c".into(),
        error,
    })?;
    let context = scop::Model::from_source(DEMO_KERNEL)?.context().clone();
    let loops = presburger::budget::with_budget(100_000_000, || ast::generate(&map, &context))
        .map_err(codegen)?;
    write!(out, "{}", loops.to_c())?;
    writeln!(
        out,
        "# Try it yourself: poly calc (type statements ending with ';'),"
    )?;
    writeln!(
        out,
        "# poly scop KERNEL.c, poly deps KERNEL.c, poly schedule KERNEL.c, poly codegen FILE.in."
    )?;
    Ok(())
}
