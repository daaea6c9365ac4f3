//! The rational tableau: an exact, incremental simplex over the rationals
//! (see [`Tableau`]).

use crate::budget;
use crate::error::Result;
use crate::int::Int;
use crate::matrix::{big_cost, normalize, substitute_pivot, Matrix};
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

pub(super) const MINUS_ONE: Int = Int::Small(-1);

/// An exact, incremental simplex tableau over the rationals.
///
/// The tableau holds *unknowns*: the original variables (free in sign) and one
/// slack per added constraint (non-negative for an inequality). Every unknown
/// is either a *column* (non-basic, value 0 in the current sample) or a *row*
/// (basic), expressed as `(c + Σ a_j·col_j) / d` with integer `c`, `a_j` and a
/// positive row denominator `d`. The current sample point is feasible: every
/// restricted row has a non-negative constant.
///
/// Adding a constraint expresses it in the current basis and, if its value is
/// negative, pivots to increase it (primal simplex with Bland's rule); if it
/// cannot be made non-negative the tableau is empty. Equalities are added as
/// an inequality driven to zero and then fixed by removing its column.
///
/// Storage: the rows live in one flat, row-major [`Matrix`] of width
/// `2 + n_var` (the stride). Row `r` is `[d, c, a_0, .., a_{ncol-1}]` followed by
/// zeros up to the stride: columns are only ever removed (an equality fixes
/// its slack), never added, so the stride never changes and every entry past
/// the logical width `2 + ncol` is zero. Pivoting updates the rows in place;
/// a clone is one allocation for all rows.
///
/// Undo is by cloning: callers that explore (branch and bound, parametric
/// search) keep a copy. Invariants are checked by [`Tableau::check`] in tests.
#[derive(Debug)]
pub struct Tableau {
    n_var: usize,
    unknowns: Vec<Unknown>,
    /// Row `r` is `mat.row(r)[..2 + ncol]` = `[d, c, a_0, .., a_{ncol-1}]`;
    /// the rest of the row is zero. The matrix has `2 + n_var` columns: the
    /// width of a row before any column was removed.
    mat: Matrix,
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
            mat: self.mat.clone_with_room(1),
            row_var: with_room(&self.row_var, 1),
            col_var: self.col_var.clone(),
            empty: self.empty,
        }
    }
}

/// Which bound [`Tableau::add_bound`] adds on a variable.
#[derive(Clone, Copy)]
pub(super) enum Bound {
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
            mat: Matrix::with_cols(2 + n_var),
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

    pub(super) fn ncol(&self) -> usize {
        self.col_var.len()
    }

    fn n_rows(&self) -> usize {
        self.row_var.len()
    }

    /// Row `r` as `[d, c, a_0, .., a_{ncol-1}]`.
    fn row(&self, r: usize) -> &[Int] {
        &self.mat.row(r)[..2 + self.ncol()]
    }

    /// Row `src` (shared) and row `dst` (mutable), `src != dst`.
    fn row_pair(&mut self, src: usize, dst: usize) -> (&[Int], &mut [Int]) {
        let w = 2 + self.ncol();
        let (src, dst) = self.mat.row_pair(src, dst);
        (&src[..w], &mut dst[..w])
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
        let new = self.n_rows();
        if self.mat.capacity_rows() < new + 1 {
            // rows come one at a time: start with room for a few (and as
            // many unknowns and row labels, one growth for all three)
            self.reserve_rows(new.max(8));
        }
        let out = self.mat.push_zero_row();
        out[0] = Int::ONE;
        out[1] = c0.clone();
        for (k, a) in terms {
            if a.is_zero() {
                continue;
            }
            match self.unknowns[k].pos {
                Pos::Col(c) => {
                    let (d, rest) = self.mat.row_mut(new).split_at_mut(1);
                    rest[1 + c].add_mul(a, &d[0]);
                }
                Pos::Row(r) => {
                    // out = out + a * row_r: with out = o/d and row_r = s/e,
                    // (e·o + (a·d)·s) / (d·e), the update of a pivot
                    let (src, out) = self.row_pair(r, new);
                    let m = a * &out[0];
                    substitute_pivot(out, src, &m);
                }
                Pos::Dead => {}
            }
        }
        if negate {
            for v in self.mat.row_mut(new)[1..].iter_mut() {
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
    pub(super) fn add_ineq_parts(&mut self, c0: &Int, coeffs: &[Int]) -> Result<usize> {
        debug_assert_eq!(coeffs.len(), self.n_var);
        let u = self.push_expr(c0, coeffs.iter().enumerate(), false, true);
        self.settle(u)?;
        Ok(u)
    }

    /// Make room for `n` more rows.
    pub(super) fn reserve_rows(&mut self, n: usize) {
        self.mat.reserve_rows(n);
        self.row_var.reserve(n);
        self.unknowns.reserve(n);
    }

    /// Add `x_k <= v` or `x_k >= v` (as `add_ineq` would, without building a row).
    pub(super) fn add_bound(&mut self, k: usize, v: &Int, bound: Bound) -> Result<usize> {
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
        let last = self.n_rows() - 1;
        self.mat.swap_remove_row(r);
        self.row_var.swap(r, last);
        self.row_var.pop();
        if r < last {
            let u = self.row_var[r];
            self.unknowns[u].pos = Pos::Row(r);
        }
    }

    /// Remove column `c` (the last column takes its place).
    fn remove_col(&mut self, c: usize) {
        let last = self.ncol() - 1;
        for row in self.mat.rows_mut() {
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
        let w = 2 + self.ncol();
        // the pivot row becomes the column unknown:
        // x_c = (d*b - c0 - Σ_{j≠c} a_j x_j) / a, with a positive denominator
        {
            let piv = &mut self.mat.row_mut(r)[..w];
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
        // big numbers: the pivot row, and each updated row, cost about the
        // squared word sizes of the pivot row's entries and its own (charged here, failing the next tick when spent)
        let piv_cost = big_cost(&self.row(r)[..w]);
        let mut work = piv_cost; // its own normalization
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
            substitute_pivot(row, piv, &m);
            if piv_cost > 0 {
                work += piv_cost + big_cost(row);
            }
        }
        budget::charge(work);
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
        self.mat.n_rows() == self.n_rows()
            && self.mat.n_cols() == 2 + self.n_var
            && self.mat.rows().all(|row| row[w..].iter().all(Int::is_zero))
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
