//! Parametric integer programming (Feautrier's PIP).
//!
//! Given integer unknowns `u` and parameters `p` with constraints
//! `A·u + B·p + c >= 0` (and equalities), [`solve`] computes the
//! lexicographic minimum of `u` as a function of `p`: a list of pieces, each a
//! *context* (a basic set over the parameters, possibly with new integer
//! divisions of the parameters) and the value of every unknown there as an
//! affine function of the parameters and those divisions. Parameters where
//! no solution exists belong to no piece.
//!
//! Equalities are solved first, over the integers: they define a lattice
//! `u = u0(p, q) + L·z` whose basis `L` is in column echelon form (so the
//! lexicographic order of `z` is that of `u`), with new context divisions
//! `q` where `u0` needs a divisibility condition on the parameters. The
//! tableau then only sees inequalities in `z`.
//!
//! The algorithm is the parametric lexicographic dual simplex:
//! - unknowns are free in sign, so they are shifted by a *big parameter*
//!   `M`: `u = u' - M` with `u' >= 0`. A row constant is a vector over
//!   `(M, 1, p, divs)`; its sign is that of the `M` coefficient when non-zero.
//!   A solution whose value still contains `M` means the minimum is unbounded;
//! - the columns (non-basic unknowns) are kept lexicographically positive with
//!   respect to the rows of `u'`; a row whose constant is negative everywhere
//!   in the context is pivoted with the lexicographically smallest column;
//! - a row whose sign depends on the parameters splits the context into the
//!   part where it is non-negative and the part where it is negative;
//! - when the rational optimum is found but an unknown `u = (c(p) + Σ a_j x_j)/d`
//!   is not integral, a cut is added: the rounding cut `u >= ceil(c/d)` when
//!   every `a_j >= 0` (always true of the first unknown; one pivot then makes
//!   `u` integral), otherwise the Gomory cut `Σ (a_j mod d) x_j >= (-c) mod d`.
//!   Both introduce the context division `floor((-c mod d)/d)` when `c`
//!   depends on the parameters. Rows whose integrality is a condition on the
//!   context alone, then rows needing no new division, are cut first.
//!
//! Cuts with parametric constants may need a new division for every cut,
//! without end; `solve_limited` gives a branch at most a given number of
//! them and reports giving up, and [`explicit_divs`] (which needs *some*
//! value of its existentials) then solves in the reverse order.
//!
//! Rows without unknowns are conditions on the parameters: they join the
//! context before the search instead of splitting it.
//!
//! Signs over the context are decided exactly, cheapest test first: a
//! constant's own sign; known context points (a cache, extended by every
//! search); the rational relaxation of the context, kept as a tableau per
//! context and optimised in place (a negative rational maximum proves "no
//! point", an integral optimal vertex is a point); and only then integer
//! emptiness of the context with one more constraint. A row once proven
//! non-negative is not re-checked until a pivot changes it.
//!
//! The modules, one concept each: `tableau` (the parametric
//! tableau and its pivots), `problem` (the problem and its pieces), `solve` (the entry point),
//! `context` (the context of a branch and the sign
//! of a row over it), `lattice` (equalities solved over the integers),
//! `search` (the dual simplex with context splits and cuts) and `divs`
//! (explicit definitions of existentials). This layer works on one problem
//! (one basic map); the optimum of a union is taken at the map layer
//! (`lexopt`).
//!
//! What it may call: `basic` (contexts are basic sets), `simplex` (the
//! context's rational relaxation, integer emptiness) and `matrix` (row
//! normalization, evaluation); nothing above.
//!
//! ```
//! use presburger::{pip, BasicSet, Int};
//! let row = |v: &[i64]| v.iter().map(|&x| Int::from(x)).collect::<Vec<_>>();
//! // lexmin of u with 2u >= p and u >= 0, over p >= -10: rows [1 | p | u]
//! let problem = pip::Problem {
//!     n_par: 1,
//!     n_unk: 1,
//!     eqs: presburger::Rows::new(),
//!     ineqs: [row(&[0, -1, 2]), row(&[0, 0, 1])].into_iter().collect(),
//!     ctx: "{ [p] : p >= -10 }".parse::<BasicSet>().unwrap(),
//! };
//! let pieces = pip::solve(&problem).unwrap();
//! // u = ceil(p/2) where p >= 0 (through a division of the parameter), u = 0 elsewhere
//! let value_at = |p: i64| {
//!     pieces.iter().find_map(|piece| {
//!         let at: Vec<Int> = vec![Int::from(p)];
//!         let ctx = &piece.ctx;
//!         let fixed = ctx.contains_point(&at).unwrap();
//!         fixed.then(|| {
//!             // the value row is over (1, p, context divisions); evaluate the divisions
//!             let mut cols = vec![Int::from(1), Int::from(p)];
//!             for d in ctx.divs().iter().flatten() {
//!                 let v = presburger::matrix::dot(&d.num[..cols.len()], &cols);
//!                 cols.push(v.div_floor(&d.den));
//!             }
//!             let (num, den) = &piece.values[0];
//!             presburger::matrix::dot(num, &cols).div_floor(den)
//!         })
//!     })
//! };
//! for p in -10..=10 {
//!     assert_eq!(value_at(p), Some(Int::from(if p > 0 { (p + 1) / 2 } else { 0 })));
//! }
//! ```

mod context;
mod divs;
mod lattice;
mod problem;
mod search;
mod solve;
mod tableau;
mod tighten;

pub use divs::{explicit_divs, explicit_divs_ordered};
pub(crate) use problem::View;
pub use problem::{Piece, Problem};
pub use solve::solve;
pub(crate) use solve::solve_view;
