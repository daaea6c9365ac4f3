//! [`Matrix`]: a dense matrix of [`Int`] with flat row-major storage.

use crate::int::Int;
use std::fmt;
use std::ops::{Index, IndexMut};

/// A dense `rows × cols` matrix of exact integers, stored row by row in one
/// flat vector (row `i` is `data[i * cols .. (i + 1) * cols]`).
///
/// Rows are slices, so the [row helpers](crate::matrix#row-helpers) apply to
/// them directly. Column operations (used by the Hermite and Smith forms)
/// touch one entry per row.
///
/// ```
/// use presburger::matrix::Matrix;
/// let mut m = Matrix::from_i64(2, 3, &[1, 2, 3, 4, 5, 6]);
/// m.push_row(&[7.into(), 8.into(), 9.into()]);
/// m.swap_rows(0, 2);
/// assert_eq!(m.row(0), &[7.into(), 8.into(), 9.into()]);
/// assert_eq!(m[(1, 2)], 6.into());
/// assert_eq!(m.to_string(), "[[7, 8, 9], [4, 5, 6], [1, 2, 3]]");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<Int>,
}

impl Matrix {
    /// The `rows × cols` zero matrix.
    pub fn zeros(rows: usize, cols: usize) -> Matrix {
        Matrix {
            rows,
            cols,
            data: vec![Int::ZERO; rows * cols],
        }
    }

    /// A matrix with no rows and `cols` columns (rows are then pushed).
    pub fn with_cols(cols: usize) -> Matrix {
        Matrix {
            rows: 0,
            cols,
            data: Vec::new(),
        }
    }

    /// The `n × n` identity.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zeros(n, n);
        for i in 0..n {
            m[(i, i)] = Int::ONE;
        }
        m
    }

    /// A matrix from its entries in row-major order (`data.len() == rows * cols`).
    ///
    /// # Panics
    /// If the length does not match (a programming error, not user input).
    pub fn from_flat(rows: usize, cols: usize, data: Vec<Int>) -> Matrix {
        assert_eq!(data.len(), rows * cols, "Matrix::from_flat: wrong length");
        Matrix { rows, cols, data }
    }

    /// A matrix from machine integers in row-major order.
    pub fn from_i64(rows: usize, cols: usize, data: &[i64]) -> Matrix {
        Matrix::from_flat(rows, cols, data.iter().map(|&v| Int::from(v)).collect())
    }

    /// A matrix from rows of equal length `cols` (`cols` is needed when there
    /// are no rows).
    ///
    /// # Panics
    /// If a row has another length.
    pub fn from_rows<R: AsRef<[Int]>>(cols: usize, rows: &[R]) -> Matrix {
        let mut m = Matrix::with_cols(cols);
        m.data.reserve(rows.len() * cols);
        for r in rows {
            m.push_row(r.as_ref());
        }
        m
    }

    /// The rows as vectors (the layout the rest of the engine still uses).
    pub fn to_rows(&self) -> Vec<Vec<Int>> {
        self.rows().map(|r| r.to_vec()).collect()
    }

    /// Number of rows.
    #[inline]
    pub fn n_rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline]
    pub fn n_cols(&self) -> usize {
        self.cols
    }

    /// True if the matrix has no rows or no columns.
    pub fn is_empty(&self) -> bool {
        self.rows == 0 || self.cols == 0
    }

    /// The entries in row-major order.
    pub fn as_flat(&self) -> &[Int] {
        &self.data
    }

    /// Row `i`.
    #[inline]
    pub fn row(&self, i: usize) -> &[Int] {
        &self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// Row `i`, mutable.
    #[inline]
    pub fn row_mut(&mut self, i: usize) -> &mut [Int] {
        &mut self.data[i * self.cols..(i + 1) * self.cols]
    }

    /// Row `src` (read) and row `dst` (written) at once (`src != dst`).
    pub fn row_pair(&mut self, src: usize, dst: usize) -> (&[Int], &mut [Int]) {
        assert_ne!(src, dst, "Matrix::row_pair: same row");
        let c = self.cols;
        if src < dst {
            let (a, b) = self.data.split_at_mut(dst * c);
            (&a[src * c..(src + 1) * c], &mut b[..c])
        } else {
            let (a, b) = self.data.split_at_mut(src * c);
            (&b[..c], &mut a[dst * c..(dst + 1) * c])
        }
    }

    /// The rows in order.
    pub fn rows(&self) -> impl ExactSizeIterator<Item = &[Int]> + '_ {
        (0..self.rows).map(move |i| self.row(i))
    }

    /// Column `j`, copied.
    pub fn col(&self, j: usize) -> Vec<Int> {
        (0..self.rows).map(|i| self[(i, j)].clone()).collect()
    }

    /// Append a row (`row.len() == n_cols()`).
    ///
    /// # Panics
    /// If the row has another length.
    pub fn push_row(&mut self, row: &[Int]) {
        assert_eq!(row.len(), self.cols, "Matrix::push_row: wrong length");
        self.data.extend_from_slice(row);
        self.rows += 1;
    }

    /// Append a zero row and return it for filling.
    pub fn push_zero_row(&mut self) -> &mut [Int] {
        self.data.extend(std::iter::repeat_n(Int::ZERO, self.cols));
        self.rows += 1;
        let i = self.rows - 1;
        self.row_mut(i)
    }

    /// Exchange rows `a` and `b`.
    pub fn swap_rows(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        let (lo, hi) = if a < b { (a, b) } else { (b, a) };
        let c = self.cols;
        let (x, y) = self.data.split_at_mut(hi * c);
        x[lo * c..(lo + 1) * c].swap_with_slice(&mut y[..c]);
    }

    /// Remove row `i`, keeping the order of the others.
    pub fn remove_row(&mut self, i: usize) {
        let c = self.cols;
        self.data.drain(i * c..(i + 1) * c);
        self.rows -= 1;
    }

    /// Remove row `i` by moving the last row into its place (order not kept, O(cols)).
    pub fn swap_remove_row(&mut self, i: usize) {
        let last = self.rows - 1;
        self.swap_rows(i, last);
        self.truncate(last);
    }

    /// Keep the first `rows` rows.
    pub fn truncate(&mut self, rows: usize) {
        if rows < self.rows {
            self.data.truncate(rows * self.cols);
            self.rows = rows;
        }
    }

    /// Exchange columns `a` and `b`.
    pub fn swap_cols(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        for i in 0..self.rows {
            self.row_mut(i).swap(a, b);
        }
    }

    /// Negate column `j`.
    pub fn neg_col(&mut self, j: usize) {
        for i in 0..self.rows {
            let v = &mut self[(i, j)];
            *v = -&*v;
        }
    }

    /// Negate row `i`.
    pub fn neg_row(&mut self, i: usize) {
        for v in self.row_mut(i) {
            *v = -&*v;
        }
    }

    /// Column `dst += k ·` column `src` (`src != dst`).
    pub fn add_col_multiple(&mut self, dst: usize, k: &Int, src: usize) {
        if k.is_zero() {
            return;
        }
        for i in 0..self.rows {
            let r = self.row_mut(i);
            if !r[src].is_zero() {
                let s = r[src].clone();
                r[dst].add_mul(k, &s);
            }
        }
    }

    /// Row `dst += k ·` row `src` (`src != dst`).
    pub fn add_row_multiple(&mut self, dst: usize, k: &Int, src: usize) {
        if k.is_zero() {
            return;
        }
        let (s, d) = self.row_pair(src, dst);
        for (x, y) in d.iter_mut().zip(s) {
            if !y.is_zero() {
                x.add_mul(k, y);
            }
        }
    }

    /// Remove column `j`.
    pub fn remove_col(&mut self, j: usize) {
        let c = self.cols;
        let mut k = 0;
        self.data.retain(|_| {
            let keep = k % c != j;
            k += 1;
            keep
        });
        self.cols -= 1;
    }

    /// The transpose.
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                t[(j, i)] = self[(i, j)].clone();
            }
        }
        t
    }

    /// The product `self · other`.
    ///
    /// # Panics
    /// If `self.n_cols() != other.n_rows()`.
    pub fn mul(&self, other: &Matrix) -> Matrix {
        assert_eq!(self.cols, other.rows, "Matrix::mul: shapes");
        let mut p = Matrix::zeros(self.rows, other.cols);
        for i in 0..self.rows {
            for (k, a) in self.row(i).iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                let (o, pr) = (other.row(k), p.row_mut(i));
                for (x, b) in pr.iter_mut().zip(o) {
                    if !b.is_zero() {
                        x.add_mul(a, b);
                    }
                }
            }
        }
        p
    }

    /// The product `self · v` of the matrix with a column vector.
    pub fn mul_vec(&self, v: &[Int]) -> Vec<Int> {
        self.rows().map(|r| super::dot(r, v)).collect()
    }

    /// The product `vᵀ · self` of a row vector with the matrix
    /// (`v.len() == n_rows()`; a longer `v` is cut).
    pub fn vec_mul(&self, v: &[Int]) -> Vec<Int> {
        let mut out = vec![Int::ZERO; self.cols];
        for (a, r) in v.iter().zip(self.rows()) {
            if a.is_zero() {
                continue;
            }
            for (o, b) in out.iter_mut().zip(r) {
                if !b.is_zero() {
                    o.add_mul(a, b);
                }
            }
        }
        out
    }

    /// True if every entry is zero.
    pub fn is_zero(&self) -> bool {
        self.data.iter().all(Int::is_zero)
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = Int;
    #[inline]
    fn index(&self, (i, j): (usize, usize)) -> &Int {
        debug_assert!(i < self.rows && j < self.cols);
        &self.data[i * self.cols + j]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    #[inline]
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut Int {
        debug_assert!(i < self.rows && j < self.cols);
        &mut self.data[i * self.cols + j]
    }
}

impl fmt::Display for Matrix {
    /// `[[a, b], [c, d]]`, row by row.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[")?;
        for (i, r) in self.rows().enumerate() {
            if i > 0 {
                write!(f, ", ")?;
            }
            write!(f, "[")?;
            for (j, v) in r.iter().enumerate() {
                if j > 0 {
                    write!(f, ", ")?;
                }
                write!(f, "{v}")?;
            }
            write!(f, "]")?;
        }
        write!(f, "]")
    }
}

impl fmt::Debug for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Matrix {}x{} {}", self.rows, self.cols, self)
    }
}
