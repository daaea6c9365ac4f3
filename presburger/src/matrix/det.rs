//! Determinants by fraction-free (Bareiss) elimination.

use super::Matrix;
use crate::int::Int;

impl Matrix {
    /// The determinant of a square matrix, exactly (Bareiss' fraction-free
    /// elimination: every division is exact). Independent of the Hermite
    /// and Smith forms, so it checks their transforms (`|det U| = 1`).
    ///
    /// ```
    /// use presburger::{matrix::Matrix, Int};
    /// assert_eq!(Matrix::from_i64(2, 2, &[2, 1, 7, 4]).det(), Int::from(1));
    /// assert_eq!(Matrix::from_i64(3, 3, &[1, 2, 3, 4, 5, 6, 7, 8, 9]).det(), Int::from(0));
    /// assert_eq!(Matrix::identity(0).det(), Int::from(1));
    /// ```
    ///
    /// # Panics
    /// If the matrix is not square.
    pub fn det(&self) -> Int {
        let n = self.n_rows();
        assert_eq!(n, self.n_cols(), "Matrix::det: not square");
        let mut a = self.clone();
        let mut sign = false;
        let mut prev = Int::ONE;
        for k in 0..n {
            if a[(k, k)].is_zero() {
                match (k + 1..n).find(|&i| !a[(i, k)].is_zero()) {
                    Some(i) => {
                        a.swap_rows(k, i);
                        sign = !sign;
                    }
                    None => return Int::ZERO,
                }
            }
            for i in k + 1..n {
                for j in k + 1..n {
                    // a[i][j] = (a[k][k]·a[i][j] − a[i][k]·a[k][j]) / prev
                    let v = Int::combine(&a[(k, k)], &a[(i, j)], &-&a[(i, k)], &a[(k, j)]);
                    a[(i, j)] = v.div_exact(&prev);
                }
                a[(i, k)] = Int::ZERO;
            }
            prev = a[(k, k)].clone();
        }
        let d = if n == 0 {
            Int::ONE
        } else {
            a[(n - 1, n - 1)].clone()
        };
        if sign {
            -d
        } else {
            d
        }
    }
}
