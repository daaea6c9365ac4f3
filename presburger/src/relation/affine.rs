//! Affine schedules: every time dimension an affine function of the
//! instance and the parameters, and the orders between the times of two
//! such schedules written directly as constraints.

use std::cmp::Ordering;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::Space;

/// A schedule `{ S[i] -> [t0, ..., t(n-1)] }` whose time dimensions are
/// affine functions `t_k = c_k + a_k · params + b_k · i` (one basic relation
/// made of one equality per time dimension, with unit coefficient on it).
///
/// The instance coordinates are named by their position in the domain
/// tuple; time dimensions by their level `k`.
///
/// ```
/// use presburger::relation::AffineSchedule;
/// use presburger::Map;
/// let m: Map = "[n] -> { S[i, j] -> [0, i, n + 2, j] }".parse().unwrap();
/// let s = AffineSchedule::from_map(&m).unwrap();
/// assert_eq!(s.n_time(), 4);
/// assert!(s.is_injective());
/// let t: Map = "[n] -> { T[i] -> [1, i, n, 0] }".parse().unwrap();
/// let t = AffineSchedule::from_map(&t).unwrap();
/// // level 0 decides: S always runs before T
/// assert_eq!(s.compare_from(&t, 0), Some(std::cmp::Ordering::Less));
/// assert_eq!(s.constant_difference(&t, 2), Some(2.into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AffineSchedule {
    n_param: usize,
    n_in: usize,
    /// Per time dimension `k`, `t_k = row · (1, params, instance)`.
    rows: Vec<Vec<Int>>,
}

/// The rank of an integer matrix (fraction-free Gaussian elimination).
pub(super) fn rank(mut m: Vec<Vec<Int>>) -> usize {
    let ncol = m.first().map_or(0, Vec::len);
    let mut r = 0;
    for c in 0..ncol {
        let Some(p) = (r..m.len()).find(|&i| !m[i][c].is_zero()) else {
            continue;
        };
        m.swap(r, p);
        for i in r + 1..m.len() {
            if m[i][c].is_zero() {
                continue;
            }
            let (a, b) = (m[r][c].clone(), m[i][c].clone());
            let pivot = m[r].clone();
            for (x, y) in m[i].iter_mut().zip(&pivot).skip(c) {
                *x = &(&*x * &a) - &(y * &b);
            }
        }
        r += 1;
    }
    r
}

impl AffineSchedule {
    /// The schedule `m` as affine functions, when `m` is one basic relation
    /// without locals made only of one equality `t_k = f_k(params, instance)`
    /// per time dimension; `None` otherwise.
    pub fn from_map(m: &Map) -> Option<AffineSchedule> {
        let [b] = m.basic_maps() else { return None };
        let n = b.n_out();
        if m.is_set() || b.n_div() != 0 || !b.ineqs().is_empty() || b.eqs().len() != n {
            return None;
        }
        let off = b.off_out();
        let mut rows: Vec<Option<Vec<Int>>> = vec![None; n];
        for e in b.eqs() {
            let outs: Vec<usize> = (0..n).filter(|&k| !e[off + k].is_zero()).collect();
            let [k] = outs[..] else { return None };
            let c = &e[off + k];
            let row: Vec<Int> = if c.is_one() {
                e[..off].iter().map(|v| -v).collect()
            } else if (-c).is_one() {
                e[..off].to_vec()
            } else {
                return None;
            };
            if rows[k].replace(row).is_some() {
                return None;
            }
        }
        Some(AffineSchedule {
            n_param: b.n_param(),
            n_in: b.n_in(),
            rows: rows.into_iter().collect::<Option<_>>()?,
        })
    }

    /// Time dimension `k` as a row `[constant | params | instance]`.
    pub fn row(&self, k: usize) -> &[Int] {
        &self.rows[k]
    }

    /// The number of time dimensions.
    pub fn n_time(&self) -> usize {
        self.rows.len()
    }

    /// The number of instance coordinates.
    pub fn n_in(&self) -> usize {
        self.n_in
    }

    /// The number of parameters.
    pub fn n_param(&self) -> usize {
        self.n_param
    }

    fn instance_coefficients(&self, k: usize) -> &[Int] {
        &self.rows[k][1 + self.n_param..]
    }

    /// True if distinct instances always have distinct times (the instance
    /// coefficients have full column rank).
    pub fn is_injective(&self) -> bool {
        let m: Vec<Vec<Int>> = (0..self.n_time())
            .map(|k| self.instance_coefficients(k).to_vec())
            .collect();
        rank(m) == self.n_in
    }

    /// When every time dimension is either independent of the instance or
    /// one instance coordinate (coefficient 1) plus a parametric constant,
    /// and every coordinate appears: per time dimension, that coordinate.
    /// The times of such a schedule compare as the coordinates in the order
    /// of their first appearance.
    pub fn unit_coordinates(&self) -> Option<Vec<Option<usize>>> {
        let signed = self.signed_unit_coordinates()?;
        signed
            .iter()
            .all(|c| c.map_or(true, |(_, down)| !down))
            .then(|| signed.iter().map(|c| c.map(|(d, _)| d)).collect())
    }

    /// [`unit_coordinates`](Self::unit_coordinates) with coefficients 1 or
    /// -1: per time dimension, the coordinate and whether its coefficient
    /// is -1 (the dimension grows as the coordinate falls: a loop counting
    /// down). The times of such a schedule compare as the coordinates, each
    /// negated when it first appears with -1, in the order of their first
    /// appearance.
    pub fn signed_unit_coordinates(&self) -> Option<Vec<Option<(usize, bool)>>> {
        let nd = self.n_in;
        let mut seen = vec![false; nd];
        let mut out = Vec::with_capacity(self.n_time());
        for k in 0..self.n_time() {
            let inst = self.instance_coefficients(k);
            let nz: Vec<usize> = (0..nd).filter(|&d| !inst[d].is_zero()).collect();
            match nz[..] {
                [] => out.push(None),
                [d] if inst[d].is_one() || (-&inst[d]).is_one() => {
                    seen[d] = true;
                    out.push(Some((d, !inst[d].is_one())));
                }
                _ => return None,
            }
        }
        seen.iter().all(|&b| b).then_some(out)
    }

    /// `self_k - other_k` at time dimension `k` when both do not depend on
    /// the instance and have the same parameter coefficients (their
    /// difference is then a known constant); `None` otherwise (or when `k`
    /// is not a dimension of both).
    pub fn constant_difference(&self, other: &AffineSchedule, k: usize) -> Option<Int> {
        let (a, b) = (self.rows.get(k)?, other.rows.get(k)?);
        let np = self.n_param;
        let indep = |r: &[Int]| r[1 + np..].iter().all(Int::is_zero);
        (np == other.n_param && indep(a) && indep(b) && a[1..1 + np] == b[1..1 + np])
            .then(|| &a[0] - &b[0])
    }

    /// Whether the times of `self` can be before those of `later` *at level
    /// `l`* (equal on the first `l` dimensions, smaller on dimension `l`),
    /// judged on the dimensions that are constants in both: `false` means
    /// never.
    pub fn may_precede_at(&self, later: &AffineSchedule, l: usize) -> bool {
        let prefix_ok = (0..l).all(|k| {
            self.constant_difference(later, k)
                .is_none_or(|d| d.is_zero())
        });
        prefix_ok
            && later
                .constant_difference(self, l)
                .is_none_or(|d| d.is_pos())
    }

    /// The order of the times of `self` and `other` on dimensions `l..`
    /// decided by their first dimension where both are different constants
    /// (`Greater`: `self` always later), `None` when a dimension depending
    /// on an instance (or on different parameters) comes first.
    pub fn compare_from(&self, other: &AffineSchedule, l: usize) -> Option<Ordering> {
        for k in l..self.n_time() {
            let d = self.constant_difference(other, k)?;
            if !d.is_zero() {
                return Some(if d.is_pos() {
                    Ordering::Greater
                } else {
                    Ordering::Less
                });
            }
        }
        None
    }

    /// The row `self_k(x) - other_k(y)` (its opposite if `negate`) in the
    /// layout of `b`, where `x` are the first coordinates of `b`'s domain and
    /// `y` the first of its range.
    fn difference_row(
        &self,
        other: &AffineSchedule,
        b: &BasicMap,
        k: usize,
        negate: bool,
    ) -> Vec<Int> {
        let (mut s, mut t) = (&self.rows[k], &other.rows[k]);
        if negate {
            (s, t) = (t, s);
        }
        let np = self.n_param;
        let mut row = vec![Int::ZERO; b.row_len()];
        for c in 0..1 + np {
            row[c] = &s[c] - &t[c];
        }
        let (off_in, off_out) = (b.off_in(), b.off_out());
        for d in 0..self.n_in {
            let a = &self.rows[k][1 + np + d];
            row[off_in + d] = if negate { -a } else { a.clone() };
        }
        for d in 0..other.n_in {
            let a = &other.rows[k][1 + np + d];
            row[off_out + d] = if negate { a.clone() } else { -a };
        }
        row
    }

    fn check_pairs(&self, other: &AffineSchedule, space: &Space, what: &str) -> Result<()> {
        if self.n_param != space.n_param()
            || other.n_param != space.n_param()
            || space.is_set()
            || self.n_in > space.n_in()
            || other.n_in > space.n_out()
            || self.n_time() != other.n_time()
        {
            return Err(Error::SpaceMismatch(format!(
                "{what}: the schedules do not fit the relation's space"
            )));
        }
        Ok(())
    }

    /// The pairs `x -> y` of `m` where the instance `x` (the first
    /// coordinates of the domain of `m`, which may be a wrapped relation
    /// `[S[i] -> A[a]]`) runs *after* `y` (the first coordinates of the
    /// range), scheduled by `earlier`, at level `l`: `self(x)` and
    /// `earlier(y)` are equal on the first `l` dimensions and `self(x)` is
    /// larger on dimension `l`. The constraints are added to every disjunct
    /// (no composition); empty disjuncts are not removed.
    ///
    /// # Errors
    /// [`Error::SpaceMismatch`] when the schedules' parameters, instances or
    /// numbers of time dimensions do not fit `m`'s space, and
    /// [`Error::Invalid`] when `l` is not a time level.
    pub fn restrict_later_at(&self, earlier: &AffineSchedule, m: &Map, l: usize) -> Result<Map> {
        self.check_pairs(earlier, m.space(), "restrict_later_at")?;
        if l >= self.n_time() {
            return Err(Error::Invalid(format!("no time level {l}")));
        }
        // Dimensions of constants already known to be out of order: nothing.
        // Per level up to `l`: whether the dimension is constant in both
        // (then known to be in order, or the relation is empty).
        let mut constant = Vec::with_capacity(l + 1);
        for k in 0..=l {
            let d = self.constant_difference(earlier, k);
            let in_order = d
                .as_ref()
                .map(|d| if k < l { d.is_zero() } else { d.is_pos() });
            if in_order == Some(false) {
                return Ok(Map::empty(m.space().clone()));
            }
            constant.push(d.is_some());
        }
        let mut out = Map::empty(m.space().clone());
        for b in m.basic_maps() {
            let mut b = b.clone();
            for k in (0..=l).filter(|&k| !constant[k]) {
                let mut row = self.difference_row(earlier, &b, k, false);
                if k < l {
                    b.add_eq(row);
                } else {
                    row[0] = &row[0] - &Int::ONE;
                    b.add_ineq(row);
                }
            }
            out.add_basic(b)?;
        }
        Ok(out)
    }

    /// `{ x -> y : self(x)[l..] <=lex other(y)[l..] }` (`<lex` if `strict`)
    /// in `space` (`x`: the first coordinates of its domain, `y` of its
    /// range), one disjunct per level where the times first differ (or are
    /// equal), without the disjuncts that constant dimensions rule out.
    ///
    /// # Errors
    /// [`Error::SpaceMismatch`] when the schedules do not fit `space`, and
    /// [`Error::Invalid`] when `l` is beyond the last time level.
    pub fn lex_le_from(
        &self,
        other: &AffineSchedule,
        space: Space,
        l: usize,
        strict: bool,
    ) -> Result<Map> {
        self.check_pairs(other, &space, "lex_le_from")?;
        let n = self.n_time();
        if l > n {
            return Err(Error::Invalid(format!("no time level {l}")));
        }
        let mut out = Map::empty(space.clone());
        let last = if strict { n } else { n + 1 };
        let known = |k: usize| self.constant_difference(other, k);
        'm: for m in l..last {
            for k in l..m {
                if known(k).is_some_and(|d| !d.is_zero()) {
                    continue 'm;
                }
            }
            if m < n
                && other
                    .constant_difference(self, m)
                    .is_some_and(|d| !d.is_pos())
            {
                continue;
            }
            let mut bm = BasicMap::universe(space.clone());
            // other(y)[k] - self(x)[k]
            let diff = |bm: &BasicMap, k: usize| self.difference_row(other, bm, k, true);
            for k in l..m {
                if known(k).is_none() {
                    let row = diff(&bm, k);
                    bm.add_eq(row);
                }
            }
            if m < n && known(m).is_none() {
                let mut row = diff(&bm, m);
                row[0] = &row[0] - &Int::ONE;
                bm.add_ineq(row);
            }
            out.add_basic(bm)?;
        }
        Ok(out)
    }
}
