//! The bottom layer above [`Int`](crate::Int): dense integer matrices and
//! the row helpers every constraint row goes through.
//!
//! ## What this layer owns
//! - [`Matrix`]: flat row-major storage of [`Int`](crate::Int), with row
//!   slices, row and column operations, products and the transpose.
//! - Row helpers (on plain slices, so they serve both `Matrix` rows and the
//!   `Vec<Int>` rows kept elsewhere): [`dot`], [`eval`], [`normalize`] (and
//!   [`normalize_row`], the same without the gcd, for the pivots' hot loops),
//!   [`normalize_eq`], [`normalize_ineq`], [`gcd_slice`], [`eliminate`]
//!   (one column, with an equality as pivot) and [`substitute_pivot`] (the
//!   row update of a tableau pivot, shared by the simplex and pip).
//! - Exact linear algebra over the integers (no rationals, no rounding):
//!   the column-style [`Hermite`] normal form `H = A·U`, the row
//!   [`Echelon`] form `E = V·A`, [`Matrix::rank`], the integer
//!   [`Matrix::kernel`], the [`Smith`] normal form `D = U·A·V` and
//!   [`Matrix::det`]. Contraction and tiling build on these.
//!
//! ## What it may call
//! Only [`int`](crate::int). Everything above (the simplex, basic maps,
//! pip, …) calls down into this layer, never the other way.
//!
//! ## Row helpers
//! A constraint row is `[c, a_1, …, a_n]` with the **constant first**, and
//! means `c + a_1·x_1 + … + a_n·x_n` (`= 0` for an equality, `>= 0` for an
//! inequality). [`eval`] evaluates such a row at a point; [`dot`] is the
//! plain inner product (no constant column).
//!
//! There are two normalizations by the gcd:
//! - [`normalize`] divides *every* entry by their common gcd; the row keeps
//!   its exact meaning at any scale (tableau rows with a denominator).
//! - [`normalize_eq`] / [`normalize_ineq`] divide by the gcd of the variable
//!   coefficients only: an equality is infeasible over the integers when the
//!   gcd does not divide the constant, and an inequality's constant is
//!   rounded down (`floor(c / g)`), which keeps the integer points and cuts
//!   rational ones. Both report a [`RowStatus`].
//!
//! ```
//! use presburger::{matrix::{self, Matrix, RowStatus}, Int};
//! let mut m = Matrix::from_i64(2, 3, &[3, 2, 4,  -1, 3, 0]);
//! assert_eq!(matrix::normalize_ineq(m.row_mut(0)), RowStatus::Constraint);
//! assert_eq!(m.row(0), &[1.into(), 1.into(), 2.into()]); // 2x + 4y + 3 >= 0 → x + 2y + 1 >= 0
//! let p = [Int::from(1), Int::from(-1)];
//! assert_eq!(matrix::eval(m.row(0), &p), Int::from(0));
//! assert_eq!(matrix::eval(m.row(1), &p), Int::from(2));
//! ```
//!
//! ## Linear algebra
//! All transforms are unimodular (integer with determinant ±1), so they
//! map the integer lattice onto itself.
//!
//! ```
//! use presburger::{matrix::Matrix, Int};
//! let a = Matrix::from_i64(2, 3, &[1, 2, 3,  2, 4, 7]);
//! // Hermite: A·U = H, lower triangular with positive pivots
//! let h = a.hermite();
//! assert_eq!(a.mul(&h.u), h.h);
//! assert_eq!(h.rank(), 2);
//! // the integer kernel: one basis vector per row, A·k = 0
//! let k = a.kernel();
//! assert_eq!(k.to_string(), "[[-2, 1, 0]]");
//! // Smith: U·A·V = diag(1, 1)
//! let s = a.smith();
//! assert_eq!(s.u.mul(&a).mul(&s.v), s.d);
//! assert_eq!(s.diagonal(), vec![Int::from(1), Int::from(1)]);
//! assert_eq!(s.u.det().abs(), Int::from(1));
//! // row echelon form and rank
//! assert_eq!(a.echelon().pivot_cols, vec![0, 2]);
//! assert_eq!(Matrix::from_i64(2, 2, &[2, 4, 1, 2]).rank(), 1);
//! ```

mod dense;
mod det;
mod hermite;
mod row;
mod smith;
#[cfg(test)]
mod tests;

pub use crate::int::gcd_slice;
pub use dense::Matrix;
pub use hermite::{Echelon, Hermite};
pub(crate) use row::eliminate_on_support;
pub use row::{
    big_cost, dot, eliminate, eval, is_normal_row, normalize, normalize_eq, normalize_ineq,
    normalize_row, substitute_pivot, RowStatus,
};
pub use smith::Smith;
