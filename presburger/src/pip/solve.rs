//! The entry point: equalities first (as a lattice), then the search.

use super::problem::{Piece, Problem};
use super::{lattice, search};
use crate::error::Result;
use crate::int::Int;

/// Solve a parametric integer program (lexicographic minimum).
///
/// Equalities are solved over the integers first (see the module documentation);
/// the tableau only ever sees inequalities.
pub fn solve(problem: &Problem) -> Result<Vec<Piece>> {
    let np = problem.n_par;
    if !problem.eqs.is_empty() {
        return lattice::solve_equalities(problem);
    }
    // rows [1 | params | unknowns] -> [1 | params | ctx divs | unknowns]
    let nd0 = problem.ctx.n_div();
    let rows = problem
        .ineqs
        .iter()
        .map(|r| {
            let mut o = r[..1 + np].to_vec();
            o.extend(std::iter::repeat_n(Int::ZERO, nd0));
            o.extend_from_slice(&r[1 + np..]);
            o
        })
        .collect();
    search::solve_ineqs(problem.n_unk, problem.ctx.clone(), rows)
}
