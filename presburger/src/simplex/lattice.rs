//! Integer solutions of equalities: a unimodular change of coordinates
//! (column echelon form) and the lattice `x = x0 + B·z` it gives.

use crate::int::Int;
use crate::matrix::{dot, Hermite, Matrix};
use crate::rows::Rows;

/// The integer solutions of `eqs` (= 0) over `n` variables, as
/// `x = x0 + B·z` for all integer `z` (B has `n` rows and one column per free
/// direction), or `None` if there is no integer solution. Column operations
/// with unimodular steps (Euclid on columns) bring the equalities to lower
/// triangular form.
pub fn solve_equalities(n: usize, eqs: &Rows) -> Option<(Vec<Int>, Vec<Vec<Int>>)> {
    let (x0, basis) = solve_equalities_matrix(n, eqs)?;
    Some((x0, basis.to_rows()))
}

/// [`solve_equalities`] with the basis `B` as an `n × (n − rank)` matrix.
pub(super) fn solve_equalities_matrix(n: usize, eqs: &Rows) -> Option<(Vec<Int>, Matrix)> {
    // E·U = [H 0] with H lower triangular; then H·z = -c by forward substitution
    let Hermite { h, u, pivot_rows } = coefficients(n, eqs).column_echelon();
    let r = pivot_rows.len();
    let mut z: Vec<Int> = Vec::with_capacity(r);
    for (i, e) in eqs.iter().enumerate() {
        let hi = h.row(i);
        let mut v = e[0].clone();
        for (a, zj) in hi.iter().zip(&z) {
            v.add_mul(a, zj);
        }
        let col = z.len();
        let pivot = if col < r { &hi[col] } else { &Int::ZERO };
        if !pivot.is_zero() {
            if !v.is_divisible_by(pivot) {
                return None;
            }
            z.push((-&v).div_exact(pivot));
        } else if !v.is_zero() {
            return None;
        }
    }
    let x0: Vec<Int> = u.rows().map(|row| dot(row, &z)).collect();
    let mut basis = Matrix::with_cols(n - r);
    for row in u.rows() {
        basis.push_row(&row[r..]);
    }
    Some((x0, basis))
}

/// The coefficient matrix (constants dropped) of rows `[c, a_0, …, a_{k−1}, …]`.
fn coefficients<R: AsRef<[Int]>>(k: usize, e: impl IntoIterator<Item = R>) -> Matrix {
    let mut m = Matrix::with_cols(k);
    for r in e {
        m.push_row(&r.as_ref()[1..1 + k]);
    }
    m
}

/// A unimodular `U` with `E·U = [H 0]`, `H` lower triangular of full column
/// rank `r`, for the rows `e` (constants ignored; see
/// [`Matrix::column_echelon`]). Returns `U` and `r`.
pub(crate) fn unimodular(k: usize, e: &[Vec<Int>]) -> (Matrix, usize) {
    let h = coefficients(k, e).column_echelon();
    let r = h.rank();
    (h.u, r)
}

/// [`unimodular`] with `U` as rows of vectors.
pub(crate) fn unimodular_split(k: usize, e: &[Vec<Int>]) -> (Vec<Vec<Int>>, usize) {
    let (u, r) = unimodular(k, e);
    (u.to_rows(), r)
}
