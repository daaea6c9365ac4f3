//! Rational linear programming and exact integer feasibility.
//!
//! ## What this layer owns
//! - [`Tableau`] (module `tableau`): an exact, incremental simplex tableau
//!   over the rationals: add inequalities and equalities one at a time,
//!   minimize or maximize an affine function ([`Opt`]), read the sample.
//!   Undo is by cloning.
//! - [`solve_equalities`] (module `lattice`): the integer solutions of a
//!   system of equalities as a lattice `x = x0 + B·z`, by a unimodular change
//!   of coordinates.
//! - [`integer_sample`] (module `sample`): an integer point of a polyhedron
//!   or a proof that there is none. The bounded directions are searched by a
//!   few nodes of branch and bound (module `search`), then along a basis
//!   reduced for the polytope's widths (module `gbr`: generalized basis
//!   reduction, so that long thin polytopes are decided in a few nodes);
//!   rounding along an interior direction of the recession cone (module
//!   `cone`) completes the unbounded ones, so the search always terminates.
//!   [`reference::integer_sample_by_branch_and_bound`] keeps plain branch and
//!   bound on the bounded directions as the oracle.
//!
//! ## What it may call
//! [`matrix`](crate::matrix) (rows, gcd normalization, column echelon form),
//! [`int`](crate::int), and the operation [`budget`](crate::budget), which
//! every pivot and every search node charges.
//!
//! Rows follow the engine's convention: `[c, a_1, …, a_n]` means
//! `c + a·x` (`>= 0` for an inequality, `= 0` for an equality).
//!
//! ```
//! use presburger::simplex::{integer_sample, Opt, Tableau};
//! use presburger::{Int, Rows};
//! let row = |v: &[i64]| v.iter().map(|&x| Int::from(x)).collect::<Vec<_>>();
//! // 0 <= x <= 5, 0 <= y, x + y <= 7: maximize x + 2y
//! let mut t = Tableau::new(2);
//! for r in [[0, 1, 0], [5, -1, 0], [0, 0, 1], [7, -1, -1]] {
//!     t.add_ineq(&row(&r)).unwrap();
//! }
//! assert_eq!(t.maximize(&row(&[0, 1, 2])).unwrap(), Opt::Value(14.into(), 1.into()));
//! // 2x = 3y + 1 with 0 <= x, y <= 5 has an integer point; 1 <= 2x <= 1 has none
//! let rows = |rs: &[&[i64]]| rs.iter().map(|r| row(r)).collect::<Rows>();
//! let p = integer_sample(2, &rows(&[&[-1, 2, -3]]), &rows(&[&[0, 1, 0], &[5, -1, 0],
//!     &[0, 0, 1], &[5, 0, -1]])).unwrap().unwrap();
//! assert_eq!(&p[0] * &Int::from(2), &(&p[1] * &Int::from(3)) + &Int::from(1));
//! assert_eq!(integer_sample(1, &Rows::new(), &rows(&[&[-1, 2], &[1, -2]])).unwrap(), None);
//! ```

mod cone;
mod gbr;
#[cfg(test)]
mod gbr_tests;
mod lattice;
pub mod reference;
mod sample;
mod search;
mod tableau;
#[cfg(test)]
mod tests;

pub use lattice::solve_equalities;
pub(crate) use lattice::unimodular_split;
pub use sample::integer_sample;
pub(crate) use sample::integer_sample_with;
pub use tableau::{Opt, Tableau};
