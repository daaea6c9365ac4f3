//! An exact, incremental simplex tableau over the rationals.
//!
//! The tableau holds *unknowns*: the original variables (free in sign) and one
//! slack per added constraint (non-negative for an inequality). Every unknown
//! is either a *column* (non-basic, value 0 in the current sample) or a *row*
//! (basic), expressed as `(c + Σ a_j·col_j) / d` with integer `c`, `a_j` and a
//! positive row denominator `d`. The current sample point is feasible: every
//! restricted row has a non-negative constant.
//!
//! Adding a constraint expresses it in the current basis and, if its value is
//! negative, pivots to increase it (primal simplex with Bland's rule); if it
//! cannot be made non-negative the tableau is empty. Equalities are added as
//! an inequality driven to zero and then fixed by removing its column.
//!
//! Storage: the rows live in one flat, row-major `Vec<Int>` with a fixed row
//! stride `2 + n_var`. Row `r` is `[d, c, a_0, .., a_{ncol-1}]` followed by
//! zeros up to the stride: columns are only ever removed (an equality fixes
//! its slack), never added, so the stride never changes and every entry past
//! the logical width `2 + ncol` is zero. Pivoting updates the rows in place;
//! a clone is one allocation for all rows.
//!
//! Undo is by cloning: callers that explore (branch and bound, parametric
//! search) keep a copy. Invariants are checked by [`Tableau::check`] in tests.

use crate::budget;
use crate::error::{Error, Result};
use crate::int::{gcd_slice, Int};
use std::borrow::Cow;
use std::cmp::Ordering;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pos {
    Row(usize),
    Col(usize),
    /// Fixed at zero (an equality's slack whose column was removed).
    Dead,
}

#[derive(Clone, Debug)]
struct Unknown {
    pos: Pos,
    restricted: bool,
}

/// The result of optimizing an affine function over the tableau.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opt {
    /// The optimum, as numerator and positive denominator.
    Value(Int, Int),
    /// The function is unbounded in the requested direction.
    Unbounded,
}

const MINUS_ONE: Int = Int::Small(-1);

/// See the [module documentation](self).
#[derive(Debug)]
pub struct Tableau {
    n_var: usize,
    unknowns: Vec<Unknown>,
    /// Row `r` is `mat[r * stride..][..2 + ncol]` = `[d, c, a_0, .., a_{ncol-1}]`;
    /// the rest of its `stride` entries are zero.
    mat: Vec<Int>,
    /// `2 + n_var`: the width of a row before any column was removed.
    stride: usize,
    row_var: Vec<usize>,
    col_var: Vec<usize>,
    empty: bool,
}

impl Clone for Tableau {
    /// One allocation per vector, with room for one more row and unknown
    /// (a copy is usually made to add a constraint to it).
    fn clone(&self) -> Tableau {
        fn with_room<T: Clone>(v: &[T], extra: usize) -> Vec<T> {
            let mut out = Vec::with_capacity(v.len() + extra);
            out.extend_from_slice(v);
            out
        }
        Tableau {
            n_var: self.n_var,
            unknowns: with_room(&self.unknowns, 1),
            mat: with_room(&self.mat, self.stride),
            stride: self.stride,
            row_var: with_room(&self.row_var, 1),
            col_var: self.col_var.clone(),
            empty: self.empty,
        }
    }
}

/// Which bound [`Tableau::add_bound`] adds on a variable.
#[derive(Clone, Copy)]
enum Bound {
    /// `x <= v`.
    Upper,
    /// `x >= v`.
    Lower,
}

impl Tableau {
    /// A tableau over `n_var` free variables and no constraints.
    pub fn new(n_var: usize) -> Tableau {
        Tableau {
            n_var,
            unknowns: (0..n_var)
                .map(|k| Unknown {
                    pos: Pos::Col(k),
                    restricted: false,
                })
                .collect(),
            mat: Vec::new(),
            stride: 2 + n_var,
            row_var: Vec::new(),
            col_var: (0..n_var).collect(),
            empty: false,
        }
    }

    /// Number of original variables.
    pub fn n_var(&self) -> usize {
        self.n_var
    }

    /// True once a constraint made the rational relaxation empty.
    pub fn is_empty(&self) -> bool {
        self.empty
    }

    fn ncol(&self) -> usize {
        self.col_var.len()
    }

    fn n_rows(&self) -> usize {
        self.row_var.len()
    }

    /// Row `r` as `[d, c, a_0, .., a_{ncol-1}]`.
    fn row(&self, r: usize) -> &[Int] {
        let s = r * self.stride;
        &self.mat[s..s + 2 + self.ncol()]
    }

    /// Row `src` (shared) and row `dst` (mutable), `src != dst`.
    fn row_pair(&mut self, src: usize, dst: usize) -> (&[Int], &mut [Int]) {
        debug_assert_ne!(src, dst);
        let (s, w) = (self.stride, 2 + self.ncol());
        if src < dst {
            let (lo, hi) = self.mat.split_at_mut(dst * s);
            (&lo[src * s..src * s + w], &mut hi[..w])
        } else {
            let (lo, hi) = self.mat.split_at_mut(src * s);
            (&hi[..w], &mut lo[dst * s..dst * s + w])
        }
    }

    /// Append the expression `c0 + Σ a_k·x_k` (negated if `negate`) in the
    /// current basis as a new row for a new unknown; returns the unknown.
    fn push_expr<'a>(
        &mut self,
        c0: &Int,
        terms: impl Iterator<Item = (usize, &'a Int)>,
        negate: bool,
        restricted: bool,
    ) -> usize {
        let (s, w) = (self.stride, 2 + self.ncol());
        let new = self.n_rows();
        if self.mat.capacity() < (new + 1) * s {
            // rows come one at a time: start with room for a few
            self.mat.reserve(s * new.max(8));
        }
        self.mat.resize((new + 1) * s, Int::ZERO);
        let (before, out) = self.mat.split_at_mut(new * s);
        let out = &mut out[..w];
        out[0] = Int::ONE;
        out[1] = c0.clone();
        for (k, a) in terms {
            if a.is_zero() {
                continue;
            }
            match self.unknowns[k].pos {
                Pos::Col(c) => {
                    let (d, rest) = out.split_at_mut(1);
                    rest[1 + c].add_mul(a, &d[0]);
                }
                Pos::Row(r) => {
                    // out = out + a * row_r  (common denominator)
                    let src = &before[r * s..r * s + w];
                    let g = out[0].gcd(&src[0]);
                    let m1 = src[0].div_exact(&g);
                    let m2 = &out[0].div_exact(&g) * a;
                    out[0] = &out[0] * &m1;
                    for (o, v) in out[1..].iter_mut().zip(&src[1..]) {
                        o.combine_assign(&m1, &m2, v);
                    }
                    normalize(out);
                }
                Pos::Dead => {}
            }
        }
        if negate {
            for v in out[1..].iter_mut() {
                *v = -&*v;
            }
        }
        let u = self.unknowns.len();
        self.unknowns.push(Unknown {
            pos: Pos::Row(new),
            restricted,
        });
        self.row_var.push(u);
        u
    }

    /// Add the inequality `row · (1, x) >= 0`; returns the constraint's unknown.
    /// Afterwards check [`is_empty`](Self::is_empty).
    pub fn add_ineq(&mut self, row: &[Int]) -> Result<usize> {
        self.add_ineq_parts(&row[0], &row[1..])
    }

    /// [`add_ineq`](Self::add_ineq) of `c0 + coeffs · x >= 0`.
    fn add_ineq_parts(&mut self, c0: &Int, coeffs: &[Int]) -> Result<usize> {
        debug_assert_eq!(coeffs.len(), self.n_var);
        let u = self.push_expr(c0, coeffs.iter().enumerate(), false, true);
        self.settle(u)?;
        Ok(u)
    }

    /// Make room for `n` more rows.
    fn reserve_rows(&mut self, n: usize) {
        self.mat.reserve(n * self.stride);
        self.row_var.reserve(n);
        self.unknowns.reserve(n);
    }

    /// Add `x_k <= v` or `x_k >= v` (as `add_ineq` would, without building a row).
    fn add_bound(&mut self, k: usize, v: &Int, bound: Bound) -> Result<usize> {
        let u = match bound {
            // v - x_k >= 0
            Bound::Upper => self.push_expr(v, std::iter::once((k, &MINUS_ONE)), false, true),
            // x_k - v >= 0
            Bound::Lower => self.push_expr(v, std::iter::once((k, &MINUS_ONE)), true, true),
        };
        self.settle(u)?;
        Ok(u)
    }

    /// Restore feasibility after the constraint row `u` was pushed.
    fn settle(&mut self, u: usize) -> Result<()> {
        if !self.empty {
            let r = self.row_of(u).unwrap();
            if self.row(r)[1].is_neg() && !self.restore(u)? {
                self.empty = true;
            }
        }
        Ok(())
    }

    /// Add the equality `row · (1, x) = 0`.
    pub fn add_eq(&mut self, row: &[Int]) -> Result<()> {
        let u = self.add_ineq(row)?;
        if self.empty {
            return Ok(());
        }
        // drive the (non-negative) slack down to zero
        if let Some(r) = self.row_of(u) {
            if self.row(r)[1].is_pos() && !self.decrease_to_zero(u)? {
                self.empty = true;
                return Ok(());
            }
        }
        // make it a column, then remove that column
        if let Some(r) = self.row_of(u) {
            debug_assert!(self.row(r)[1].is_zero());
            match self.row(r)[2..].iter().position(|a| !a.is_zero()) {
                Some(c) => self.pivot(r, c),
                None => {
                    // 0 = 0: redundant, drop the row
                    self.remove_row(r);
                    self.unknowns[u].pos = Pos::Dead;
                    return Ok(());
                }
            }
        }
        if let Pos::Col(c) = self.unknowns[u].pos {
            self.remove_col(c);
        }
        self.unknowns[u].pos = Pos::Dead;
        Ok(())
    }

    fn row_of(&self, u: usize) -> Option<usize> {
        match self.unknowns[u].pos {
            Pos::Row(r) => Some(r),
            _ => None,
        }
    }

    /// Remove row `r` (the last row takes its place).
    fn remove_row(&mut self, r: usize) {
        let s = self.stride;
        let last = self.n_rows() - 1;
        if r < last {
            let (lo, hi) = self.mat.split_at_mut(last * s);
            lo[r * s..(r + 1) * s].swap_with_slice(hi);
        }
        self.mat.truncate(last * s);
        self.row_var.swap(r, last);
        self.row_var.pop();
        if r < last {
            let u = self.row_var[r];
            self.unknowns[u].pos = Pos::Row(r);
        }
    }

    /// Remove column `c` (the last column takes its place).
    fn remove_col(&mut self, c: usize) {
        let (s, last) = (self.stride, self.ncol() - 1);
        for row in self.mat.chunks_exact_mut(s) {
            row.swap(2 + c, 2 + last);
            row[2 + last] = Int::ZERO;
            normalize(&mut row[..2 + last]);
        }
        self.col_var.swap(c, last);
        self.col_var.pop();
        if c < last {
            let u = self.col_var[c];
            self.unknowns[u].pos = Pos::Col(c);
        }
    }

    /// Pivot row `r` with column `c`, updating every row in place.
    fn pivot(&mut self, r: usize, c: usize) {
        let (s, w) = (self.stride, 2 + self.ncol());
        // the pivot row becomes the column unknown:
        // x_c = (d*b - c0 - Σ_{j≠c} a_j x_j) / a, with a positive denominator
        {
            let piv = &mut self.mat[r * s..r * s + w];
            let a = std::mem::replace(&mut piv[2 + c], Int::ZERO);
            let d = std::mem::replace(&mut piv[0], Int::ZERO);
            debug_assert!(!a.is_zero());
            if a.is_neg() {
                piv[0] = -a;
                piv[2 + c] = -d;
            } else {
                for v in piv[1..].iter_mut() {
                    *v = -&*v;
                }
                piv[0] = a;
                piv[2 + c] = d;
            }
            normalize(piv);
        }
        // substitute into the other rows: with m the row's entry at c and dn
        // the new row's denominator, row = (dn·row_without_c + m·new) / (d·dn)
        for i in 0..self.n_rows() {
            if i == r {
                continue;
            }
            let (piv, row) = self.row_pair(r, i);
            if row[2 + c].is_zero() {
                continue;
            }
            let m = std::mem::replace(&mut row[2 + c], Int::ZERO);
            let dn = &piv[0];
            row[0] = &row[0] * dn;
            for (o, v) in row[1..].iter_mut().zip(&piv[1..]) {
                o.combine_assign(dn, &m, v);
            }
            normalize(row);
        }
        let ur = self.row_var[r];
        let uc = self.col_var[c];
        self.row_var[r] = uc;
        self.col_var[c] = ur;
        self.unknowns[uc].pos = Pos::Row(r);
        self.unknowns[ur].pos = Pos::Col(c);
    }

    /// Direction in which column `c` may move to change row `r` in direction
    /// `sign` (+1/-1), or `None`.
    fn col_direction(&self, r: usize, c: usize, sign: i32) -> Option<i32> {
        let a = self.row(r)[2 + c].signum();
        if a == 0 {
            return None;
        }
        let d = a * sign;
        let u = self.col_var[c];
        if self.unknowns[u].restricted && d < 0 {
            return None;
        }
        Some(d)
    }

    /// Ratio test for moving column `c` in direction `d`: the restricted row
    /// (other than `skip`) that first hits zero, i.e. with the least limit
    /// `c_i / |a_ic|` (ties to the smaller unknown).
    fn ratio_test(&self, c: usize, d: i32, skip: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        for i in 0..self.n_rows() {
            if i == skip || !self.unknowns[self.row_var[i]].restricted {
                continue;
            }
            let row = self.row(i);
            let rate = &row[2 + c];
            if rate.is_zero() || rate.signum() * d > 0 {
                continue;
            }
            best = match best {
                None => Some(i),
                Some(b) => {
                    let br = self.row(b);
                    let ord = cmp_ratio(&row[1], rate, &br[1], &br[2 + c]);
                    if ord == Ordering::Less
                        || (ord == Ordering::Equal && self.row_var[i] < self.row_var[b])
                    {
                        Some(i)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    }

    /// Move the restricted row unknown `u` in direction `sign` (+1: up to
    /// non-negative, -1: down to zero) until its constant reaches `done`.
    /// Returns false if it cannot get there.
    fn drive(&mut self, u: usize, sign: i32, done: fn(&Int) -> bool) -> Result<bool> {
        loop {
            budget::tick(1 + (self.n_rows() * (1 + self.ncol())) as u64 / 4)?;
            let r = match self.unknowns[u].pos {
                Pos::Row(r) => r,
                _ => return Ok(true),
            };
            if done(&self.row(r)[1]) {
                return Ok(true);
            }
            let Some((c, d)) = self.choose_col(r, sign) else {
                return Ok(false);
            };
            match self.ratio_test(c, d, r) {
                // another row hits zero before u reaches zero
                Some(i)
                    if {
                        let (ri, rr) = (self.row(i), self.row(r));
                        cmp_ratio(&ri[1], &ri[2 + c], &rr[1], &rr[2 + c]) == Ordering::Less
                    } =>
                {
                    self.pivot(i, c)
                }
                _ => {
                    self.pivot(r, c);
                    return Ok(true);
                }
            }
        }
    }

    /// Pivot until the restricted unknown `u` (a row with negative value) is
    /// non-negative. Returns false if its maximum is negative.
    fn restore(&mut self, u: usize) -> Result<bool> {
        self.drive(u, 1, |v| !v.is_neg())
    }

    /// Pivot until the restricted row unknown `u` (non-negative value) is zero.
    /// Returns false if its minimum is positive.
    fn decrease_to_zero(&mut self, u: usize) -> Result<bool> {
        self.drive(u, -1, Int::is_zero)
    }

    /// Bland's rule: the eligible column with the smallest unknown index.
    fn choose_col(&self, r: usize, sign: i32) -> Option<(usize, i32)> {
        let mut best: Option<(usize, i32)> = None;
        for c in 0..self.ncol() {
            if let Some(d) = self.col_direction(r, c, sign) {
                if best.is_none_or(|(b, _)| self.col_var[c] < self.col_var[b]) {
                    best = Some((c, d));
                }
            }
        }
        best
    }

    /// Minimize `row · (1, x)` over the tableau (which must not be empty).
    pub fn minimize(&mut self, row: &[Int]) -> Result<Opt> {
        self.optimize(row, false)
    }

    /// Maximize `row · (1, x)`.
    pub fn maximize(&mut self, row: &[Int]) -> Result<Opt> {
        Ok(match self.optimize(row, true)? {
            Opt::Value(n, d) => Opt::Value(-n, d),
            Opt::Unbounded => Opt::Unbounded,
        })
    }

    /// Minimize `row · (1, x)`, or `-row · (1, x)` if `negate`.
    fn optimize(&mut self, row: &[Int], negate: bool) -> Result<Opt> {
        debug_assert_eq!(row.len(), 1 + self.n_var);
        let u = self.push_expr(&row[0], row[1..].iter().enumerate(), negate, false);
        let res = loop {
            budget::tick(1 + (self.n_rows() * (1 + self.ncol())) as u64 / 4)?;
            let r = self.row_of(u).expect("objective stays a row");
            let Some((c, d)) = self.choose_col(r, -1) else {
                let row = self.row(r);
                break Opt::Value(row[1].clone(), row[0].clone());
            };
            match self.ratio_test(c, d, r) {
                Some(i) => self.pivot(i, c),
                None => break Opt::Unbounded,
            }
        };
        let r = self.row_of(u).expect("objective stays a row");
        self.remove_row(r);
        self.unknowns.pop();
        Ok(res)
    }

    /// The current sample value of variable `k`, as numerator and denominator.
    pub fn sample_value(&self, k: usize) -> (Int, Int) {
        match self.unknowns[k].pos {
            Pos::Row(r) => {
                let row = self.row(r);
                (row[1].clone(), row[0].clone())
            }
            _ => (Int::ZERO, Int::ONE),
        }
    }

    /// True if variable `k` has an integral sample value.
    fn is_integral(&self, k: usize) -> bool {
        match self.unknowns[k].pos {
            Pos::Row(r) => {
                let row = self.row(r);
                row[0].is_one() || row[1].is_divisible_by(&row[0])
            }
            _ => true,
        }
    }

    /// The first variable (in order) whose sample value is not an integer.
    pub fn fractional_var(&self) -> Option<usize> {
        (0..self.n_var).find(|&k| !self.is_integral(k))
    }

    /// True if the constraint `u` (an unknown returned by `add_ineq`) is a column or dead.
    pub fn is_tight_nonbasic(&self, u: usize) -> bool {
        !matches!(self.unknowns[u].pos, Pos::Row(_))
    }

    /// Check the invariants (for tests): the storage shape (zero padding past
    /// the logical width) and feasibility of restricted rows.
    pub fn check(&self) -> bool {
        let w = 2 + self.ncol();
        self.mat.len() == self.n_rows() * self.stride
            && self
                .mat
                .chunks_exact(self.stride)
                .all(|row| row[w..].iter().all(Int::is_zero))
            && (self.empty
                || (0..self.n_rows()).all(|i| {
                    let r = self.row(i);
                    r[0].is_pos() && (!self.unknowns[self.row_var[i]].restricted || !r[1].is_neg())
                }))
    }
}

/// Compare `|n1| / |d1|` with `|n2| / |d2|` (`d1`, `d2` non-zero).
fn cmp_ratio(n1: &Int, d1: &Int, n2: &Int, d2: &Int) -> Ordering {
    if let (Int::Small(n1), Int::Small(d1), Int::Small(n2), Int::Small(d2)) = (n1, d1, n2, d2) {
        let l = n1.unsigned_abs() as u128 * d2.unsigned_abs() as u128;
        let r = n2.unsigned_abs() as u128 * d1.unsigned_abs() as u128;
        return l.cmp(&r);
    }
    (&n1.abs() * &d2.abs()).cmp(&(&n2.abs() * &d1.abs()))
}

/// Divide a `[d, c, a...]` row by the gcd of all its entries.
fn normalize(row: &mut [Int]) {
    let g = gcd_slice(row);
    if !g.is_zero() && !g.is_one() {
        for v in row.iter_mut() {
            *v = v.div_exact(&g);
        }
    }
}

/// The integer solutions of `eqs` (= 0) over `n` variables, as
/// `x = x0 + B·z` for all integer `z` (B has `n` rows and one column per free
/// direction), or `None` if there is no integer solution. Column operations
/// with unimodular steps (Euclid on columns) bring the equalities to lower
/// triangular form.
pub fn solve_equalities(n: usize, eqs: &[Vec<Int>]) -> Option<(Vec<Int>, Vec<Vec<Int>>)> {
    // E·U = [H 0] with H lower triangular; then H·z = -c by forward substitution
    let (u, r) = unimodular_split(n, eqs);
    let mut z: Vec<Int> = Vec::with_capacity(r);
    for e in eqs {
        // row of E·U restricted to the pivot columns found so far, and the next one
        let eu = |j: usize| -> Int {
            let mut v = Int::ZERO;
            for (i, a) in e[1..].iter().enumerate() {
                if !a.is_zero() && !u[i][j].is_zero() {
                    v.add_mul(a, &u[i][j]);
                }
            }
            v
        };
        let mut v = e[0].clone();
        for (j, zj) in z.iter().enumerate() {
            v.add_mul(&eu(j), zj);
        }
        let col = z.len();
        let pivot = if col < r { eu(col) } else { Int::ZERO };
        if !pivot.is_zero() {
            if !v.is_divisible_by(&pivot) {
                return None;
            }
            z.push((-&v).div_exact(&pivot));
        } else if !v.is_zero() {
            return None;
        }
    }
    let x0: Vec<Int> = (0..n)
        .map(|row| {
            let mut v = Int::ZERO;
            for (j, zj) in z.iter().enumerate() {
                v.add_mul(&u[row][j], zj);
            }
            v
        })
        .collect();
    let basis: Vec<Vec<Int>> = (0..n).map(|row| u[row][r..].to_vec()).collect();
    Some((x0, basis))
}

/// Find an integer point satisfying `eqs` (= 0) and `ineqs` (>= 0) over `n`
/// integer variables. Returns `None` if there is none.
///
/// 1. Equalities are solved exactly over the integers ([`solve_equalities`]),
///    leaving inequalities over the free directions.
/// 2. The implicit equalities of the recession cone `{z : A·z >= 0}` are
///    found by linear programming. A unimodular change of coordinates makes
///    them involve only the first `r` coordinates; the set is bounded in
///    those, and its recession cone is full-dimensional in the others.
/// 3. Branch and bound runs on the first `r` coordinates only (it terminates:
///    they are bounded). Once they are integral, the remaining slice has a
///    full-dimensional recession cone, so it contains integer points: one is
///    found by moving the rational sample far enough along an interior
///    direction of the cone and rounding.
pub fn integer_sample(n: usize, eqs: &[Vec<Int>], ineqs: &[Vec<Int>]) -> Result<Option<Vec<Int>>> {
    integer_sample_with(n, eqs, ineqs, None)
}

/// [`integer_sample`] with one more inequality `extra` (no copy of the others).
pub(crate) fn integer_sample_with(
    n: usize,
    eqs: &[Vec<Int>],
    ineqs: &[Vec<Int>],
    extra: Option<&[Int]>,
) -> Result<Option<Vec<Int>>> {
    let all = ineqs.iter().map(Vec::as_slice).chain(extra);
    if eqs.is_empty() {
        // the free directions are the variables themselves: rows that need
        // no tightening are used as they are (and constant rows allocate nothing)
        let mut rows: Vec<Cow<[Int]>> = Vec::new();
        for r in all {
            match tighten(Cow::Borrowed(r)) {
                Some(Some(row)) => {
                    if rows.is_empty() {
                        rows.reserve_exact(ineqs.len() + 1);
                    }
                    rows.push(row)
                }
                Some(None) => {}
                None => return Ok(None),
            }
        }
        return sample_tightened(n, &rows);
    }
    let Some((x0, basis)) = solve_equalities(n, eqs) else {
        return Ok(None);
    };
    let k = basis.first().map_or(0, Vec::len);
    let mut rows: Vec<Cow<[Int]>> = Vec::with_capacity(ineqs.len() + 1);
    for r in all {
        // r·(1, x0 + B z) = (r0 + a·x0) + (a·B) z
        let mut row = vec![Int::ZERO; 1 + k];
        row[0] = r[0].clone();
        for (i, a) in r[1..].iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            row[0].add_mul(a, &x0[i]);
            for j in 0..k {
                if !basis[i][j].is_zero() {
                    row[1 + j].add_mul(a, &basis[i][j]);
                }
            }
        }
        match tighten(Cow::Owned(row)) {
            Some(Some(row)) => rows.push(row),
            Some(None) => {}
            None => return Ok(None),
        }
    }
    // a point z of the free directions back to x = x0 + B·z
    Ok(sample_tightened(k, &rows)?.map(|z| {
        (0..n)
            .map(|i| {
                let mut v = x0[i].clone();
                for j in 0..k {
                    v.add_mul(&basis[i][j], &z[j]);
                }
                v
            })
            .collect()
    }))
}

/// Integer point of `{ z : rows·(1, z) >= 0 }` for tightened rows (see
/// [`integer_sample`]).
fn sample_tightened<R: AsRef<[Int]>>(k: usize, rows: &[R]) -> Result<Option<Vec<Int>>> {
    // pairs of opposite inequalities whose constants cancel are equalities
    // (cuts and context splits produce them): solve those exactly first, a
    // thin set is hopeless for branch and bound when its coefficients are big
    if let Some(pairs) = opposite_pairs(rows) {
        let konst = |i: usize| &rows[i].as_ref()[0];
        if pairs.iter().any(|&(i, j)| (konst(i) + konst(j)).is_neg()) {
            return Ok(None);
        }
        let new_eqs: Vec<Vec<Int>> = pairs
            .iter()
            .filter(|&&(i, j)| (konst(i) + konst(j)).is_zero())
            .map(|&(i, _)| rows[i].as_ref().to_vec())
            .collect();
        if !new_eqs.is_empty() {
            let rows: Vec<Vec<Int>> = rows.iter().map(|r| r.as_ref().to_vec()).collect();
            return integer_sample(k, &new_eqs, &rows);
        }
    }
    sample_ineqs(k, rows)
}

/// Index pairs `(i, j)` of (tightened) inequalities with opposite
/// directions, or `None` if there are none.
fn opposite_pairs<R: AsRef<[Int]>>(rows: &[R]) -> Option<Vec<(usize, usize)>> {
    // quadratic, but each comparison stops at the first coefficient that is
    // not the negation of the other's (usually the first)
    let opposite = |a: &[Int], b: &[Int]| {
        a[1..].iter().zip(&b[1..]).all(|(x, y)| match (x, y) {
            (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
            _ => *x == -y,
        })
    };
    let mut pairs = Vec::new();
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            if opposite(rows[i].as_ref(), rows[j].as_ref()) {
                pairs.push((i, j));
            }
        }
    }
    if pairs.is_empty() {
        None
    } else {
        Some(pairs)
    }
}

/// Divide an inequality by the gcd of its coefficients, flooring the
/// constant (copying the row only then). `None`: infeasible constant row;
/// `Some(None)`: trivially true.
fn tighten(mut row: Cow<[Int]>) -> Option<Option<Cow<[Int]>>> {
    let g = gcd_slice(&row[1..]);
    if g.is_zero() {
        return if row[0].is_neg() { None } else { Some(None) };
    }
    if !g.is_one() {
        let row = row.to_mut();
        row[0] = row[0].div_floor(&g);
        for v in row[1..].iter_mut() {
            *v = v.div_exact(&g);
        }
    }
    Some(Some(row))
}

fn tableau_of<R: AsRef<[Int]>>(k: usize, rows: &[R]) -> Result<Tableau> {
    let mut t = Tableau::new(k);
    t.reserve_rows(rows.len());
    for r in rows {
        t.add_ineq(r.as_ref())?;
        if t.is_empty() {
            break;
        }
    }
    Ok(t)
}

/// Integer point of `{ z : rows·(1, z) >= 0 }` (see [`integer_sample`]).
fn sample_ineqs<R: AsRef<[Int]>>(k: usize, rows: &[R]) -> Result<Option<Vec<Int>>> {
    let t = tableau_of(k, rows)?;
    if t.is_empty() {
        return Ok(None);
    }
    if t.fractional_var().is_none() {
        return Ok(Some(int_sample(&t)));
    }
    // fast path: plain branch and bound with a small node limit
    let mut nodes = 0usize;
    if let Some(res) = bnb_limited(t.clone(), &mut nodes)? {
        return Ok(res);
    }
    // implicit equalities of the recession cone
    let cone: Vec<Vec<Int>> = rows
        .iter()
        .map(|r| {
            let mut c = r.as_ref().to_vec();
            c[0] = Int::ZERO;
            c
        })
        .collect();
    let tc = tableau_of(k, &cone)?;
    let mut implicit = Vec::new();
    for (i, c) in cone.iter().enumerate() {
        if c[1..].iter().all(Int::is_zero) {
            continue;
        }
        if let Opt::Value(..) = tc.clone().maximize(c)? {
            implicit.push(i);
        }
    }
    if implicit.is_empty() {
        return Ok(Some(round_in_cone(k, rows, &t)?));
    }
    // unimodular U with E·U = [H 0]: reuse the equality solver on E·z = 0
    let e: Vec<Vec<Int>> = implicit.iter().map(|&i| cone[i].clone()).collect();
    let (u, r) = unimodular_split(k, &e);
    if r == k {
        return branch_and_bound(t, k, &|t: &Tableau| Ok(Some(int_sample(t))));
    }
    // rows in w coordinates: a·U
    let wrows: Vec<Vec<Int>> = rows
        .iter()
        .map(|row| {
            let row = row.as_ref();
            let mut out = vec![Int::ZERO; 1 + k];
            out[0] = row[0].clone();
            for j in 0..k {
                let mut v = Int::ZERO;
                for i in 0..k {
                    if !row[1 + i].is_zero() && !u[i][j].is_zero() {
                        v.add_mul(&row[1 + i], &u[i][j]);
                    }
                }
                out[1 + j] = v;
            }
            out
        })
        .collect();
    let tw = tableau_of(k, &wrows)?;
    if tw.is_empty() {
        return Ok(None);
    }
    let leaf = |t: &Tableau| -> Result<Option<Vec<Int>>> {
        // first r coordinates are integral: fix them and round in the slice
        let fixed: Vec<Int> = (0..r)
            .map(|j| {
                let (a, b) = t.sample_value(j);
                a.div_exact(&b)
            })
            .collect();
        let slice: Vec<Vec<Int>> = wrows
            .iter()
            .map(|row| {
                let mut out = vec![row[0].clone()];
                for j in 0..r {
                    out[0].add_mul(&row[1 + j], &fixed[j]);
                }
                out.extend(row[1 + r..].iter().cloned());
                out
            })
            .collect();
        let ts = tableau_of(k - r, &slice)?;
        if ts.is_empty() {
            return Ok(None);
        }
        let rest = round_in_cone(k - r, &slice, &ts)?;
        let mut w = fixed;
        w.extend(rest);
        Ok(Some(w))
    };
    let w = branch_and_bound(tw, r, &leaf)?;
    Ok(w.map(|w| {
        (0..k)
            .map(|i| {
                let mut v = Int::ZERO;
                for j in 0..k {
                    if !u[i][j].is_zero() {
                        v.add_mul(&u[i][j], &w[j]);
                    }
                }
                v
            })
            .collect()
    }))
}

/// Plain branch and bound on all variables, giving up (`None`) after a few
/// hundred nodes; a completed search is exact either way.
fn bnb_limited(t: Tableau, nodes: &mut usize) -> Result<Option<Option<Vec<Int>>>> {
    budget::tick(1 + t.n_var() as u64)?;
    *nodes += 1;
    if *nodes > 40 {
        return Ok(None);
    }
    let Some(k) = t.fractional_var() else {
        return Ok(Some(Some(int_sample(&t))));
    };
    let (num, den) = t.sample_value(k);
    let lo = num.div_floor(&den);
    let mut down = t.clone();
    down.add_bound(k, &lo, Bound::Upper)?;
    if !down.is_empty() {
        match bnb_limited(down, nodes)? {
            None => return Ok(None),
            Some(Some(p)) => return Ok(Some(Some(p))),
            Some(None) => {}
        }
    }
    let mut up = t;
    up.add_bound(k, &(&lo + &Int::ONE), Bound::Lower)?;
    if up.is_empty() {
        return Ok(Some(None));
    }
    bnb_limited(up, nodes)
}

fn int_sample(t: &Tableau) -> Vec<Int> {
    (0..t.n_var())
        .map(|j| {
            let (a, b) = t.sample_value(j);
            a.div_exact(&b)
        })
        .collect()
}

/// Column operations (Euclid on columns) bringing the rows `e` (constants
/// ignored) to `[H 0]` with `H` lower triangular of full column rank `r`: row
/// by row, the first row with an entry beyond the pivots found so far gets the
/// next pivot. Returns the unimodular `U` and `r`.
pub(crate) fn unimodular_split(k: usize, e: &[Vec<Int>]) -> (Vec<Vec<Int>>, usize) {
    let mut e: Vec<Vec<Int>> = e.iter().map(|r| r[1..].to_vec()).collect();
    let mut u: Vec<Vec<Int>> = (0..k)
        .map(|i| {
            (0..k)
                .map(|j| if i == j { Int::ONE } else { Int::ZERO })
                .collect()
        })
        .collect();
    let mut col = 0;
    for i in 0..e.len() {
        if col == k {
            break;
        }
        loop {
            let mut piv: Option<usize> = None;
            let mut count = 0;
            for j in col..k {
                if !e[i][j].is_zero() {
                    count += 1;
                    if piv.is_none_or(|p| e[i][j].abs() < e[i][p].abs()) {
                        piv = Some(j);
                    }
                }
            }
            let Some(p) = piv else { break };
            if count == 1 {
                for row in e.iter_mut().chain(u.iter_mut()) {
                    row.swap(p, col);
                }
                col += 1;
                break;
            }
            for j in col..k {
                if j != p && !e[i][j].is_zero() {
                    let q = -&e[i][j].div_floor(&e[i][p]);
                    for row in e.iter_mut().chain(u.iter_mut()) {
                        if !row[p].is_zero() {
                            row[j] = Int::combine(&Int::ONE, &row[j], &q, &row[p]);
                        }
                    }
                }
            }
        }
    }
    (u, col)
}

/// The sample point of the first `k` variables of `t` over a common
/// denominator: `(numerators, denominator)`.
fn scaled_sample(t: &Tableau, k: usize) -> (Vec<Int>, Int) {
    let mut den = Int::ONE;
    for j in 0..k {
        den = den.lcm(&t.sample_value(j).1);
    }
    let num = (0..k)
        .map(|j| {
            let (a, b) = t.sample_value(j);
            &a * &den.div_exact(&b)
        })
        .collect();
    (num, den)
}

/// An integer point of `{ z : rows·(1, z) >= 0 }` whose recession cone has
/// no implicit equality (except rows constant in `z`), starting from the
/// rational sample of `t`.
fn round_in_cone<R: AsRef<[Int]>>(k: usize, rows: &[R], t: &Tableau) -> Result<Vec<Int>> {
    // interior direction d: a·d >= 1 for every non-constant row
    let mut td = Tableau::new(k);
    for r in rows {
        let r = r.as_ref();
        if r[1..].iter().all(Int::is_zero) {
            continue;
        }
        td.add_ineq_parts(&MINUS_ONE, &r[1..])?;
    }
    if td.is_empty() {
        return Err(Error::Invalid(
            "integer feasibility: recession cone has no interior".into(),
        ));
    }
    let (d, _) = scaled_sample(&td, k);
    // rational sample x0 = num_j / den (common denominator)
    let (x0, den) = scaled_sample(t, k);
    // t >= (||a||_1 / 2 - (a·x0 + b)) / (a·d), all scaled by 2·den
    let mut steps = Int::ZERO;
    for r in rows {
        let r = r.as_ref();
        if r[1..].iter().all(Int::is_zero) {
            continue;
        }
        let mut ax = &r[0] * &den;
        let mut ad = Int::ZERO;
        let mut norm = Int::ZERO;
        for j in 0..k {
            ax.add_mul(&r[1 + j], &x0[j]);
            ad.add_mul(&r[1 + j], &d[j]);
            norm = &norm + &r[1 + j].abs();
        }
        // need: 2·(ax + den·t·ad) >= den·norm
        let need = &(&den * &norm) - &(&ax * &Int::from(2));
        if need.is_pos() {
            let q = need.div_ceil(&(&(&den * &ad) * &Int::from(2)));
            if q > steps {
                steps = q;
            }
        }
    }
    // point = round((x0 + den·steps·d) / den)
    let two = Int::from(2);
    let point: Vec<Int> = (0..k)
        .map(|j| {
            let num = Int::combine(&Int::ONE, &x0[j], &(&den * &steps), &d[j]);
            // floor(num/den + 1/2) = floor((2·num + den) / (2·den))
            Int::combine(&two, &num, &Int::ONE, &den).div_floor(&(&two * &den))
        })
        .collect();
    debug_assert!(rows.iter().all(|r| {
        let r = r.as_ref();
        let mut v = r[0].clone();
        for j in 0..k {
            v.add_mul(&r[1 + j], &point[j]);
        }
        !v.is_neg()
    }));
    Ok(point)
}

/// Branch and bound on the first `n_branch` variables (depth first, with an
/// explicit stack); `leaf` completes a tableau whose first `n_branch` sample
/// values are integral, or says that its slice has no integer point.
fn branch_and_bound(
    t: Tableau,
    n_branch: usize,
    leaf: &dyn Fn(&Tableau) -> Result<Option<Vec<Int>>>,
) -> Result<Option<Vec<Int>>> {
    let n = t.n_var();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        budget::tick(1 + n as u64)?;
        let frac = t.fractional_var().filter(|&k| k < n_branch).or_else(|| {
            (0..n_branch).find(|&j| {
                let (a, b) = t.sample_value(j);
                !a.is_divisible_by(&b)
            })
        });
        let Some(k) = frac else {
            if let Some(p) = leaf(&t)? {
                return Ok(Some(p));
            }
            continue;
        };
        let (num, den) = t.sample_value(k);
        let lo = num.div_floor(&den);
        // x_k >= floor(v) + 1 is explored after x_k <= floor(v)
        let mut up = t.clone();
        up.add_bound(k, &(&lo + &Int::ONE), Bound::Lower)?;
        if !up.is_empty() {
            stack.push(up);
        }
        let mut down = t;
        down.add_bound(k, &lo, Bound::Upper)?;
        if !down.is_empty() {
            stack.push(down);
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    #[test]
    fn lp_box() {
        let mut t = Tableau::new(2);
        for row in [[0, 1, 0], [5, -1, 0], [0, 0, 1], [7, 0, -1], [-3, 1, 1]] {
            t.add_ineq(&r(&row)).unwrap();
            assert!(t.check());
        }
        assert!(!t.is_empty());
        assert_eq!(
            t.clone().minimize(&r(&[0, 1, 1])).unwrap(),
            Opt::Value(Int::from(3), Int::ONE)
        );
        assert_eq!(
            t.clone().maximize(&r(&[0, 1, 1])).unwrap(),
            Opt::Value(Int::from(12), Int::ONE)
        );
        assert_eq!(
            t.clone().minimize(&r(&[0, 2, -3])).unwrap(),
            Opt::Value(Int::from(-21), Int::ONE)
        );
        t.add_ineq(&r(&[-20, 1, 1])).unwrap();
        assert!(t.is_empty());
    }

    #[test]
    fn equalities_remove_columns() {
        // x + y + z = 6, x - z = 1, 0 <= x, y, z; clones stay independent
        let mut t = Tableau::new(3);
        for row in [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]] {
            t.add_ineq(&r(&row)).unwrap();
        }
        t.add_eq(&r(&[-6, 1, 1, 1])).unwrap();
        assert!(t.check());
        t.add_eq(&r(&[-1, 1, 0, -1])).unwrap();
        assert!(t.check() && !t.is_empty());
        assert_eq!(t.ncol(), 1);
        let mut u = t.clone();
        u.add_bound(1, &Int::from(2), Bound::Upper).unwrap();
        assert!(u.check());
        assert_eq!(
            u.clone().maximize(&r(&[0, 1, 0, 0])).unwrap(),
            Opt::Value(Int::from(7), Int::from(2))
        );
        assert_eq!(
            t.clone().maximize(&r(&[0, 1, 0, 0])).unwrap(),
            Opt::Value(Int::from(7), Int::from(2))
        );
        assert_eq!(
            t.clone().minimize(&r(&[0, 0, 1, 0])).unwrap(),
            Opt::Value(Int::ZERO, Int::ONE)
        );
        u.add_bound(2, &Int::from(1), Bound::Lower).unwrap();
        assert!(u.check());
        u.add_bound(0, &Int::from(4), Bound::Lower).unwrap();
        assert!(u.is_empty());
        assert_eq!(
            t.minimize(&r(&[0, 0, 1, 0])).unwrap(),
            Opt::Value(Int::ZERO, Int::ONE)
        );
    }

    #[test]
    fn integer_gap() {
        // 1 <= 2x <= 1 has a rational but no integer solution
        assert_eq!(
            integer_sample(1, &[], &[r(&[-1, 2]), r(&[1, -2])]).unwrap(),
            None
        );
        // 2x = 3y + 1, 0 <= x, y <= 5
        let p = integer_sample(
            2,
            &[r(&[-1, 2, -3])],
            &[r(&[0, 1, 0]), r(&[5, -1, 0]), r(&[0, 0, 1]), r(&[5, 0, -1])],
        )
        .unwrap()
        .unwrap();
        assert_eq!(&p[0] * &Int::from(2), &(&p[1] * &Int::from(3)) + &Int::ONE);
    }

    #[test]
    fn unbounded() {
        let mut t = Tableau::new(1);
        t.add_ineq(&r(&[0, 1])).unwrap();
        assert_eq!(t.maximize(&r(&[0, 1])).unwrap(), Opt::Unbounded);
    }
}
