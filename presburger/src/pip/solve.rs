//! The entry point: equalities first (as a lattice), then the search.

use super::problem::{Piece, Problem, View};
use super::{lattice, search};
use crate::error::{Error, Result};
use crate::int::Int;

/// Solve a parametric integer program (lexicographic minimum).
///
/// Equalities are solved over the integers first (see the module documentation);
/// the tableau only ever sees inequalities.
pub fn solve(problem: &Problem) -> Result<Vec<Piece>> {
    solve_view(problem.view())
}

/// [`solve`] of a problem with borrowed rows.
pub(crate) fn solve_view(problem: View<'_>) -> Result<Vec<Piece>> {
    // without a limit the search never gives up
    solve_limited(problem, None)?.ok_or_else(|| {
        Error::Invalid("parametric integer programming gave up without a limit".into())
    })
}

/// [`solve`], giving up (`None`) as soon as one branch of the search needs
/// more than `cut_divs` new context divisions for its cuts (when given).
///
/// Gomory cuts whose constant depends on the parameters each add a context
/// division, and on some problems every cut makes the next one need a
/// further division, without end (the constants drift by a fixed step
/// modulo the denominators). A caller for whom another formulation of the
/// same problem is as good (e.g. [`explicit_divs`](super::explicit_divs),
/// which needs *some* value of its existentials, in any order) tries that
/// one instead of running on.
pub(crate) fn solve_limited(
    problem: View<'_>,
    cut_divs: Option<usize>,
) -> Result<Option<Vec<Piece>>> {
    let np = problem.n_par;
    if !problem.eqs.is_empty() {
        return lattice::solve_equalities(problem, cut_divs);
    }
    // rows [1 | params | unknowns] -> [1 | params | ctx divs | unknowns]
    let nd0 = problem.ctx.n_div();
    let rows = problem
        .ineqs
        .iter()
        .map(|r| {
            // (room for the tableau's two leading entries, see `solve_ineqs`)
            let mut o = Vec::with_capacity(r.len() + nd0 + 2);
            o.extend_from_slice(&r[..1 + np]);
            o.extend(std::iter::repeat_n(Int::ZERO, nd0));
            o.extend_from_slice(&r[1 + np..]);
            o
        })
        .collect();
    search::solve_ineqs(problem.n_unk, problem.ctx.clone(), rows, cut_divs)
}
