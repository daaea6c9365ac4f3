//! Bounds of one dimension of a basic set: the lower and upper bound
//! expressions, an equality, a stride, and the rows they come from; a
//! stride of a union's affine hull; and the constant trip count that
//! unrolling needs.

use super::context::with_locals;
use super::Gen;
use crate::error::{Error, Result};
use crate::expr::{linear, Expr};
use crate::rows::{explicit, is_div_def};
use presburger::{BasicMap, Int, Map};

/// Most copies of a loop body [`LoopKind::Unroll`] makes.
pub(super) const MAX_UNROLL: i64 = 1024;

/// Bounds of one basic set on one dimension.
pub(super) struct Bounds {
    pub(super) lower: Vec<Expr>,
    pub(super) upper: Vec<Expr>,
    pub(super) eq: Option<Expr>,
    pub(super) stride: Option<(i64, Expr)>,
    /// rows bounding the dimension from below / above (for the loop's context)
    pub(super) lower_rows: Vec<(bool, Vec<Int>)>,
    pub(super) upper_rows: Vec<(bool, Vec<Int>)>,
    pub(super) stride_row: Option<Vec<Int>>,
    pub(super) eq_row: Option<Vec<Int>>,
}

fn small(v: &Int) -> Result<i64> {
    // at most 2^62 in magnitude: negations and the `+ k - 1` of ceilings
    // on such values cannot overflow
    v.to_i64()
        .filter(|x| x.unsigned_abs() <= 1 << 62)
        .ok_or_else(|| Error::Unsupported(format!("coefficient {v} does not fit in 63 bits")))
}

pub(super) fn fold(v: Vec<Expr>, f: fn(Expr, Expr) -> Expr) -> Option<Expr> {
    let mut it = v.into_iter();
    let first = it.next()?;
    Some(it.fold(first, f))
}

pub(super) fn dedup(v: &mut Vec<Expr>) {
    let mut seen = Vec::new();
    v.retain(|e| {
        if seen.contains(e) {
            false
        } else {
            seen.push(e.clone());
            true
        }
    });
}

impl Gen<'_> {
    pub(super) fn bounds(&self, l: usize, b: &BasicMap, env: &[Expr]) -> Result<Bounds> {
        let pr = self.printer(env);
        let col = self.col(l);
        let base = b.off_div();
        let nd = b.n_div();
        let mut dep = vec![false; nd];
        for k in 0..nd {
            if let Some(d) = &b.divs()[k] {
                dep[k] =
                    !d.num[col].is_zero() || (0..k).any(|j| dep[j] && !d.num[base + j].is_zero());
            } else {
                dep[k] = true;
            }
        }
        let has_dep = |r: &[Int]| (0..nd).any(|k| dep[k] && !r[base + k].is_zero());
        let mut bd = Bounds {
            lower: vec![],
            upper: vec![],
            eq: None,
            stride: None,
            lower_rows: vec![],
            upper_rows: vec![],
            stride_row: None,
            eq_row: None,
        };
        let neg = |t: Vec<(i64, Expr)>| -> Vec<(i64, Expr)> {
            t.into_iter().map(|(c, e)| (-c, e)).collect()
        };
        for r in b.eqs() {
            let c = small(&r[col])?;
            if c != 0 && !has_dep(r) {
                let (t, k) = pr.terms(b, r, &|x| x == col)?;
                // c*t + rest = 0
                let (t, k) = if c > 0 { (neg(t), -k) } else { (t, k) };
                let a = c.abs();
                let e = linear(t.clone(), k);
                let (lo, hi, val) = if a == 1 {
                    (e.clone(), e.clone(), e)
                } else {
                    (
                        Expr::floord(linear(t.clone(), k + a - 1), a),
                        Expr::floord(e.clone(), a),
                        Expr::ExactDiv(Box::new(e), a),
                    )
                };
                bd.lower.push(lo);
                bd.upper.push(hi);
                // as inequalities: the loop range only implies the bounds
                let up: Vec<Int> = r.iter().map(|v| -v).collect();
                let (lo_row, hi_row) = if c > 0 {
                    (r.to_vec(), up)
                } else {
                    (up, r.to_vec())
                };
                bd.lower_rows.push((false, lo_row));
                bd.upper_rows.push((false, hi_row));
                if bd.eq_row.is_none() {
                    bd.eq_row = Some(r.to_vec());
                }
                if bd.eq.is_none() {
                    bd.eq = Some(val);
                }
            } else if c.abs() == 1 && has_dep(r) {
                let mut g = Int::ZERO;
                for k in 0..nd {
                    if dep[k] {
                        g = g.gcd(&r[base + k]);
                    }
                }
                let g = small(&g)?;
                if g > 1 && bd.stride.is_none() {
                    let (t, k) = pr.terms(b, r, &|x| x == col || (x >= base && dep[x - base]))?;
                    let (t, k) = if c > 0 { (neg(t), -k) } else { (t, k) };
                    bd.stride = Some((g, linear(t, k)));
                    bd.stride_row = Some(r.to_vec());
                }
            }
        }
        for r in b.ineqs() {
            let c = small(&r[col])?;
            if c == 0 || has_dep(r) || is_div_def(b, r) {
                continue;
            }
            let (t, k) = pr.terms(b, r, &|x| x == col)?;
            if c > 0 {
                // c*t + rest >= 0: t >= ceil(-rest / c)
                let e = if c == 1 {
                    linear(neg(t), -k)
                } else {
                    Expr::floord(linear(neg(t), -k + c - 1), c)
                };
                bd.lower.push(e);
                bd.lower_rows.push((false, r.to_vec()));
            } else {
                let a = -c;
                let e = if a == 1 {
                    linear(t, k)
                } else {
                    Expr::floord(linear(t, k), a)
                };
                bd.upper.push(e);
                bd.upper_rows.push((false, r.to_vec()));
            }
        }
        dedup(&mut bd.lower);
        dedup(&mut bd.upper);
        Ok(bd)
    }

    pub(super) fn with_rows(&self, b: &BasicMap, rows: &[(bool, Vec<Int>)]) -> BasicMap {
        with_locals(b, rows)
    }
}

/// Where a loop's stride comes from: the basic set holding it, its row,
/// the step and the offset.
type StrideSource = (BasicMap, Vec<Int>, i64, Expr);

impl Gen<'_> {
    /// The stride of dimension `l` in the affine hull of `u`: the basic
    /// set holding it, its row, the step and the offset.
    pub(super) fn hull_stride(
        &self,
        l: usize,
        u: &Map,
        env: &[Expr],
    ) -> Result<Option<StrideSource>> {
        let hull = u.affine_hull()?;
        for h in explicit(&hull)? {
            let hb = self.bounds(l, &h, env)?;
            if let (Some((g, f)), Some(row)) = (hb.stride, hb.stride_row) {
                return Ok(Some((h, row, g, f)));
            }
        }
        Ok(None)
    }
}

/// A constant bound on the trip count of the loop over dimension `l` of
/// the basic set `b` with step `inc`: some lower and upper bound row whose
/// combination eliminates every other variable, `a·t + L >= 0` and
/// `-a'·t + U >= 0` with `a'·L + a·U = K` constant, give
/// `t_max - t_min <= K / (a·a')`. `None` if there is none (or it is beyond
/// [`MAX_UNROLL`]).
pub(super) fn trip_bound(
    _l: usize,
    b: &BasicMap,
    bd: &Bounds,
    inc: i64,
    col: usize,
) -> Result<Option<i64>> {
    let _ = b;
    let mut best: Option<i64> = None;
    for (_, lo) in &bd.lower_rows {
        for (_, up) in &bd.upper_rows {
            let a = small(&lo[col])?;
            let a2 = -small(&up[col])?;
            if a <= 0 || a2 <= 0 {
                continue;
            }
            let constant = lo.iter().zip(up).enumerate().skip(1).all(|(c, (x, y))| {
                c == col || (&(x * &Int::from(a2)) + &(y * &Int::from(a))).is_zero()
            });
            if !constant {
                continue;
            }
            let k = small(&(&(&lo[0] * &Int::from(a2)) + &(&up[0] * &Int::from(a))))?;
            if k < 0 {
                return Ok(Some(0));
            }
            let span = k / (a * a2);
            let w = span / inc + 1;
            best = Some(best.map_or(w, |b: i64| b.min(w)));
        }
    }
    Ok(best.filter(|&w| w <= MAX_UNROLL))
}
