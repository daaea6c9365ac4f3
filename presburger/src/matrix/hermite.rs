//! Hermite normal form by unimodular column operations, and what follows
//! from it: the row echelon form, the rank and the integer kernel.

use super::Matrix;
use crate::int::Int;

/// The column-style Hermite normal form `H = A·U` of an `m × n` matrix `A`,
/// with `U` an `n × n` unimodular matrix (integer, `|det U| = 1`).
///
/// `H` is lower triangular in the column echelon sense: its first
/// `rank` columns are non-zero, column `j` has its first non-zero entry
/// (the pivot, positive) in row `pivot_rows[j]`, the pivot rows increase
/// strictly, and in each pivot row the entries left of the pivot lie in
/// `0 .. pivot`. The columns `rank..n` of `H` are zero, so the columns
/// `rank..n` of `U` are a basis of the integer lattice `{x ∈ ℤⁿ : A·x = 0}`
/// (see [`Matrix::kernel`]). The form is unique for a given `A`.
///
/// ```
/// use presburger::matrix::Matrix;
/// let a = Matrix::from_i64(2, 3, &[2, 4, 6,  1, 1, 1]);
/// let h = a.hermite();
/// assert_eq!(a.mul(&h.u), h.h);
/// assert_eq!(h.pivot_rows, vec![0, 1]);
/// assert_eq!(h.h.to_string(), "[[2, 0, 0], [0, 1, 0]]");
/// assert_eq!(h.u.det().abs(), 1.into());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hermite {
    /// The normal form `A·U`.
    pub h: Matrix,
    /// The unimodular transform.
    pub u: Matrix,
    /// `pivot_rows[j]`: the row of the pivot of column `j` (`j < rank`).
    pub pivot_rows: Vec<usize>,
}

impl Hermite {
    /// The rank of `A` (number of pivots).
    pub fn rank(&self) -> usize {
        self.pivot_rows.len()
    }
}

/// The row echelon form `E = V·A` (the transpose of the column form of
/// `Aᵀ`): `V` is `m × m` unimodular, row `i < rank` of `E` has its first
/// non-zero entry (positive) in column `pivot_cols[i]`, the pivot columns
/// increase strictly, entries above each pivot lie in `0 .. pivot`, and
/// the rows `rank..m` of `E` are zero.
///
/// ```
/// use presburger::matrix::Matrix;
/// let a = Matrix::from_i64(3, 3, &[1, 2, 3,  2, 4, 6,  0, 1, 1]);
/// let e = a.echelon();
/// assert_eq!(e.v.mul(&a), e.e);
/// assert_eq!(e.pivot_cols, vec![0, 1]);
/// assert_eq!(e.e.to_string(), "[[1, 0, 1], [0, 1, 1], [0, 0, 0]]");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Echelon {
    /// The row echelon form `V·A`.
    pub e: Matrix,
    /// The unimodular transform (acting on rows).
    pub v: Matrix,
    /// `pivot_cols[i]`: the column of the pivot of row `i` (`i < rank`).
    pub pivot_cols: Vec<usize>,
}

impl Echelon {
    /// The rank of `A`.
    pub fn rank(&self) -> usize {
        self.pivot_cols.len()
    }
}

/// The non-zero entry of smallest magnitude in `row[from..]` and the number
/// of non-zero entries there.
fn smallest_nonzero(row: &[Int], from: usize) -> Option<(usize, usize)> {
    let mut best: Option<usize> = None;
    let mut count = 0;
    for (j, v) in row.iter().enumerate().skip(from) {
        if !v.is_zero() {
            count += 1;
            if best.is_none_or(|b| v.abs() < row[b].abs()) {
                best = Some(j);
            }
        }
    }
    best.map(|b| (b, count))
}

impl Matrix {
    /// The column-style Hermite normal form; see [`Hermite`].
    pub fn hermite(&self) -> Hermite {
        self.column_reduce(true)
    }

    /// A column echelon form `H = A·U` with `U` unimodular, as
    /// [`hermite`](Self::hermite) but without the normalization: pivots may
    /// be negative and the entries left of them are not reduced. It is
    /// cheaper, and enough when only `U` and the rank matter (the last
    /// `n − rank` columns of `U` still span the integer kernel).
    ///
    /// Row by row, Euclid's algorithm on the columns not yet used reduces
    /// every entry by the smallest one until a single non-zero entry is
    /// left; that column is moved to the next pivot position.
    ///
    /// ```
    /// use presburger::matrix::Matrix;
    /// let a = Matrix::from_i64(1, 2, &[4, -6]);
    /// let e = a.column_echelon();
    /// assert_eq!(a.mul(&e.u), e.h);
    /// assert_eq!(e.h[(0, 0)].abs(), 2.into()); // the gcd, up to sign
    /// assert!(e.h[(0, 1)].is_zero());
    /// ```
    pub fn column_echelon(&self) -> Hermite {
        self.column_reduce(false)
    }

    fn column_reduce(&self, normalize: bool) -> Hermite {
        let n = self.n_cols();
        let mut h = self.clone();
        let mut u = Matrix::identity(n);
        let mut pivot_rows = Vec::new();
        let mut r = 0; // next pivot column
        for i in 0..self.n_rows() {
            if r == n {
                break;
            }
            // Euclid on the columns r..n of row i
            let mut found = false;
            while let Some((p, count)) = smallest_nonzero(h.row(i), r) {
                if count == 1 {
                    h.swap_cols(p, r);
                    u.swap_cols(p, r);
                    found = true;
                    break;
                }
                for j in r..n {
                    if j != p && !h[(i, j)].is_zero() {
                        let q = -&h[(i, j)].div_floor(&h[(i, p)]);
                        h.add_col_multiple(j, &q, p);
                        u.add_col_multiple(j, &q, p);
                    }
                }
            }
            if !found {
                continue; // row i depends on the earlier pivot rows
            }
            if normalize {
                if h[(i, r)].is_neg() {
                    h.neg_col(r);
                    u.neg_col(r);
                }
                // reduce the entries left of the pivot into 0..pivot
                for k in 0..r {
                    let q = -&h[(i, k)].div_floor(&h[(i, r)]);
                    h.add_col_multiple(k, &q, r);
                    u.add_col_multiple(k, &q, r);
                }
            }
            pivot_rows.push(i);
            r += 1;
        }
        Hermite { h, u, pivot_rows }
    }

    /// The row echelon form; see [`Echelon`].
    pub fn echelon(&self) -> Echelon {
        let Hermite { h, u, pivot_rows } = self.transpose().hermite();
        Echelon {
            e: h.transpose(),
            v: u.transpose(),
            pivot_cols: pivot_rows,
        }
    }

    /// The rank (over the rationals, equal to the rank over the integers).
    ///
    /// ```
    /// use presburger::matrix::Matrix;
    /// assert_eq!(Matrix::from_i64(2, 2, &[1, 2, 2, 4]).rank(), 1);
    /// ```
    pub fn rank(&self) -> usize {
        if self.n_rows() <= self.n_cols() {
            self.hermite().rank()
        } else {
            self.transpose().hermite().rank()
        }
    }

    /// A basis of the integer kernel `{x ∈ ℤⁿ : A·x = 0}`, one basis vector
    /// per **row** of the result (`(n − rank) × n`). Every integer solution
    /// is an integer combination of the rows (they are columns of a
    /// unimodular matrix).
    ///
    /// ```
    /// use presburger::{matrix::Matrix, Int};
    /// let a = Matrix::from_i64(1, 3, &[2, 4, 6]);
    /// let k = a.kernel();
    /// assert_eq!(k.n_rows(), 2);
    /// for v in k.rows() {
    ///     assert!(a.mul_vec(v).iter().all(Int::is_zero));
    /// }
    /// ```
    pub fn kernel(&self) -> Matrix {
        let h = self.hermite();
        let n = self.n_cols();
        let mut k = Matrix::with_cols(n);
        for j in h.rank()..n {
            k.push_row(&h.u.col(j));
        }
        k
    }
}
