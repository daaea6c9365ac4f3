//! Smith normal form by unimodular row and column operations.

use super::Matrix;
use crate::int::Int;

/// The Smith normal form `D = U·A·V` of an `m × n` matrix `A`: `U` (`m × m`)
/// and `V` (`n × n`) are unimodular, `D` is diagonal with non-negative
/// entries `d_0, d_1, …` where each `d_i` divides `d_{i+1}` and the
/// non-zero ones come first (there are `rank(A)` of them). The diagonal is
/// unique for a given `A` (its invariant factors); `U` and `V` are not.
///
/// ```
/// use presburger::{matrix::Matrix, Int};
/// let a = Matrix::from_i64(2, 2, &[2, 4,  6, 8]);
/// let s = a.smith();
/// assert_eq!(s.u.mul(&a).mul(&s.v), s.d);
/// assert_eq!(s.diagonal(), vec![Int::from(2), Int::from(4)]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Smith {
    /// The diagonal form `U·A·V`.
    pub d: Matrix,
    /// The row transform (`m × m`, unimodular).
    pub u: Matrix,
    /// The column transform (`n × n`, unimodular).
    pub v: Matrix,
}

impl Smith {
    /// The diagonal entries `d_0 | d_1 | …` (`min(m, n)` of them, zeros last).
    pub fn diagonal(&self) -> Vec<Int> {
        let k = self.d.n_rows().min(self.d.n_cols());
        (0..k).map(|i| self.d[(i, i)].clone()).collect()
    }
}

/// Position of the non-zero entry of smallest magnitude in the block
/// `m[t.., t..]`.
fn smallest_in_block(m: &Matrix, t: usize) -> Option<(usize, usize)> {
    let mut best: Option<(usize, usize)> = None;
    for i in t..m.n_rows() {
        for j in t..m.n_cols() {
            let v = &m[(i, j)];
            if !v.is_zero() && best.is_none_or(|(a, b)| v.abs() < m[(a, b)].abs()) {
                best = Some((i, j));
            }
        }
    }
    best
}

struct State {
    d: Matrix,
    u: Matrix,
    v: Matrix,
}

impl State {
    fn swap_rows(&mut self, a: usize, b: usize) {
        self.d.swap_rows(a, b);
        self.u.swap_rows(a, b);
    }
    fn swap_cols(&mut self, a: usize, b: usize) {
        self.d.swap_cols(a, b);
        self.v.swap_cols(a, b);
    }
    fn add_row(&mut self, dst: usize, k: &Int, src: usize) {
        self.d.add_row_multiple(dst, k, src);
        self.u.add_row_multiple(dst, k, src);
    }
    fn add_col(&mut self, dst: usize, k: &Int, src: usize) {
        self.d.add_col_multiple(dst, k, src);
        self.v.add_col_multiple(dst, k, src);
    }

    /// Clear row `t` and column `t` outside the pivot. Returns false if a
    /// remainder was left (then a smaller entry exists in row or column `t`).
    fn reduce_cross(&mut self, t: usize) -> bool {
        let mut clean = true;
        for i in t + 1..self.d.n_rows() {
            if !self.d[(i, t)].is_zero() {
                let q = -&self.d[(i, t)].div_floor(&self.d[(t, t)]);
                self.add_row(i, &q, t);
                clean &= self.d[(i, t)].is_zero();
            }
        }
        for j in t + 1..self.d.n_cols() {
            if !self.d[(t, j)].is_zero() {
                let q = -&self.d[(t, j)].div_floor(&self.d[(t, t)]);
                self.add_col(j, &q, t);
                clean &= self.d[(t, j)].is_zero();
            }
        }
        clean
    }

    /// Move the smallest non-zero entry of row `t` / column `t` to `(t, t)`.
    fn pivot_on_cross(&mut self, t: usize) {
        let mut best = (t, t);
        let small = |d: &Matrix, (i, j): (usize, usize), b: (usize, usize)| {
            !d[(i, j)].is_zero() && (d[b].is_zero() || d[(i, j)].abs() < d[b].abs())
        };
        for i in t + 1..self.d.n_rows() {
            if small(&self.d, (i, t), best) {
                best = (i, t);
            }
        }
        for j in t + 1..self.d.n_cols() {
            if small(&self.d, (t, j), best) {
                best = (t, j);
            }
        }
        self.swap_rows(t, best.0);
        self.swap_cols(t, best.1);
    }

    /// A row below `t` with an entry (outside column `t`) that the pivot
    /// does not divide.
    fn non_multiple_row(&self, t: usize) -> Option<usize> {
        let p = &self.d[(t, t)];
        (t + 1..self.d.n_rows())
            .find(|&i| (t + 1..self.d.n_cols()).any(|j| !self.d[(i, j)].is_divisible_by(p)))
    }
}

impl Matrix {
    /// The Smith normal form; see [`Smith`].
    pub fn smith(&self) -> Smith {
        let (m, n) = (self.n_rows(), self.n_cols());
        let mut s = State {
            d: self.clone(),
            u: Matrix::identity(m),
            v: Matrix::identity(n),
        };
        for t in 0..m.min(n) {
            let Some((i, j)) = smallest_in_block(&s.d, t) else {
                break;
            };
            s.swap_rows(t, i);
            s.swap_cols(t, j);
            // Each round either finishes or strictly shrinks |d[t][t]|.
            loop {
                if !s.reduce_cross(t) {
                    s.pivot_on_cross(t);
                    continue;
                }
                match s.non_multiple_row(t) {
                    Some(i) => {
                        // bring the offending entries into row t; the next
                        // reduction leaves a remainder smaller than the pivot
                        s.add_row(t, &Int::ONE, i);
                    }
                    None => break,
                }
            }
            if s.d[(t, t)].is_neg() {
                s.d.neg_row(t);
                s.u.neg_row(t);
            }
        }
        Smith {
            d: s.d,
            u: s.u,
            v: s.v,
        }
    }
}
