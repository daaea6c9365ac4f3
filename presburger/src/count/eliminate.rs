//! Nested summation: one variable at a time, the last variable of a piece
//! is summed out exactly.
//!
//! 1. *Residues.* If a division depends on the variable `w`, `w` is
//!    replaced by `m·w' + r` for `r = 0 .. m-1`, where `m` is the least
//!    common denominator of the divisions' slopes in `w`: each division
//!    becomes `c·w' + floor(e / d)` with `e` free of `w'`.
//! 2. *Equalities.* An equality `a·w + e = 0` (`a > 0`, the smallest `|a|`)
//!    fixes `w = floor(-e / a)`; substituted into the rows (the equality
//!    itself becomes the divisibility condition) and the summand.
//! 3. *Chambers.* Otherwise every pair of a lower bound `a_i·w + r_i >= 0`
//!    and an upper bound `-b_j·w + r_j >= 0` gives the chamber where
//!    `s = ceil(-r_i / a_i)` is the largest lower bound (the first in row
//!    order among equal ones), `t = floor(r_j / b_j)` the smallest upper
//!    bound, and `s <= t + 1`; there the sum over `w` is `F(t) - F(s - 1)`
//!    with `F` the power sums of Faulhaber. The chambers partition the
//!    points of the other variables where `w` has a value, so the sums add
//!    up; the points with `t = s - 1` (no value of `w`) are allowed because
//!    the sum is exactly zero there (`F(s - 1) - F(s - 1)`, whatever the
//!    summand), which makes the condition often redundant: fewer pieces.

use super::piece::{Builder, Piece};
use super::poly::Poly;
use super::rat::Rat;
use crate::error::{Error, Result};
use crate::int::Int;

/// The largest number of residue classes a variable is split into; a
/// larger period lifts the divisions instead (see `lattice`).
pub(crate) const MAX_PERIOD: i64 = 64;

/// The largest number of residue classes the last summation variable is
/// split into (see [`sum_last`]).
pub(crate) const MAX_LAST_PERIOD: i64 = 128;

/// The largest period of a division that is lifted to a variable (and of
/// an equality coefficient that is compressed): beyond it the rows' numbers
/// grow with every step and a count is refused ([`PERIOD_TOO_LARGE`]).
pub(crate) const MAX_LIFTED_PERIOD: i64 = 1 << 16;

/// The error when a division's period is above [`MAX_LIFTED_PERIOD`].
pub(crate) const PERIOD_TOO_LARGE: &str =
    "not supported: a parametric count or sum whose summation needs a division of period above 65536";

/// The smallest period of the divisions under the last variable that are
/// summed by Euclid's floor sum (when they occur linearly, see
/// [`floor_summable`]) rather than split into residue classes or lifted;
/// also the smallest equal coefficient of a chamber's two bounds whose
/// condition is written without their divisions.
pub(crate) const FLOOR_SUM_PERIOD: i64 = 16;

/// A residue period that the choice of the next variable avoids.
pub(crate) const LARGE_PERIOD: u64 = 16;

/// The start of the error for a set without a bound (see `count::named`).
pub(crate) const UNBOUNDED: &str = "the set is unbounded";

/// Sum the last variable out of `p`: disjoint pieces over one variable
/// fewer (or, when the divisions under it have a large period, over those
/// divisions made variables).
pub(crate) fn sum_last(p: Piece, n_keep: usize) -> Result<Vec<Piece>> {
    let w = p.n_var - 1;
    let m = period(&p, w).0;
    if m > Int::from(FLOOR_SUM_PERIOD) {
        if let Some(floors) = floor_summable(&p) {
            return chambers(&p, &floors);
        }
    }
    // the last summation variable is split into residue classes up to a
    // larger period: its classes' pieces are over the kept variables only
    // (no later summation multiplies them), while a lifted division
    // becomes a summation variable whose chambers do
    let last = w == n_keep;
    if m > Int::from(MAX_PERIOD) && !(last && m <= Int::from(MAX_LAST_PERIOD)) {
        if m > Int::from(MAX_LIFTED_PERIOD) {
            return Err(Error::Invalid(PERIOD_TOO_LARGE.into()));
        }
        let Some(q) = super::lattice::lift_divisions(&p, w)? else {
            return Ok(Vec::new());
        };
        let last = q.n_var - 1;
        return eliminate(swap_vars(q, w, last));
    }
    let mut out = Vec::new();
    for q in split_residues(p)? {
        out.extend(eliminate(q)?);
    }
    Ok(out)
}

/// The divisions that depend on the last variable `w`, if Euclid's floor
/// sum can sum them over `w`: `w` is in no equality, each such division is
/// linear in `w` (through no other such division), and they occur in the
/// summand only (in no row), each term holding at most one of them, to the first
/// power, without `w`.
fn floor_summable(p: &Piece) -> Option<Vec<bool>> {
    let w = p.n_var - 1;
    if p.eqs.iter().any(|r| !r[1 + w].is_zero()) {
        return None;
    }
    let off = 1 + p.n_var;
    let marks: Vec<bool> = super::lattice::div_dependences(p)
        .iter()
        .map(|d| d[w])
        .collect();
    for (k, (num, _)) in p.divs.iter().enumerate() {
        if marks[k] && (0..k).any(|j| marks[j] && !num[off + j].is_zero()) {
            return None;
        }
    }
    let marked = |r: &[Int]| (0..marks.len()).any(|k| marks[k] && !r[off + k].is_zero());
    if p.ineqs.iter().chain(&p.eqs).any(|r| marked(r)) {
        return None;
    }
    for e in p.poly.terms.keys() {
        let deg: u32 = (0..marks.len())
            .filter(|&k| marks[k])
            .map(|k| e[p.n_var + k])
            .sum();
        if deg > 1 || (deg == 1 && e[w] > 0) {
            return None;
        }
    }
    Some(marks)
}

/// Step 1: pieces whose divisions do not depend on the last variable.
fn split_residues(p: Piece) -> Result<Vec<Piece>> {
    let w = p.n_var - 1;
    let wcol = 1 + w;
    let off = 1 + p.n_var;
    let nd = p.divs.len();
    let mut slopes: Vec<Rat> = Vec::with_capacity(nd);
    let mut depends = vec![false; nd];
    for (k, (num, den)) in p.divs.iter().enumerate() {
        let mut s = Rat::from(num[wcol].clone());
        depends[k] = !num[wcol].is_zero();
        for j in 0..k {
            if !num[off + j].is_zero() && depends[j] {
                depends[k] = true;
                s = s.add(&slopes[j].mul(&Rat::from(num[off + j].clone())));
            }
        }
        slopes.push(s.div(&Rat::from(den.clone())).unwrap());
    }
    if !depends.iter().any(|&d| d) {
        return Ok(vec![p]);
    }
    let m = slopes.iter().fold(Int::ONE, |acc, s| acc.lcm(s.denom()));
    let m_small = m.to_i64().expect("a period up to MAX_PERIOD");
    let mut out = Vec::new();
    for r in 0..m_small {
        crate::budget::tick(1)?;
        let mut b = Builder::new(p.n_var);
        let mut images: Vec<Vec<Int>> = (0..p.n_var).map(|i| b.unit(1 + i)).collect();
        images[w] = b.unit(wcol);
        images[w][wcol] = m.clone();
        images[w][0] = Int::from(r);
        for (k, (num, den)) in p.divs.iter().enumerate() {
            let mut e = b.subst(num, &images);
            if depends[k] {
                let c = slopes[k].mul(&Rat::from(m.clone()));
                debug_assert!(c.is_integer());
                let c = c.numer().clone();
                let lead = &c * den;
                debug_assert_eq!(e[wcol], lead);
                e[wcol] = Int::ZERO;
                let mut img = b.div(&e, den);
                img[wcol] = &img[wcol] + &c;
                images.push(img);
            } else {
                images.push(b.div(&e, den));
            }
        }
        finish_with(&p, b, &images, None, &mut out)?;
    }
    Ok(out)
}

/// Substitute `images` into the rows and summand of `p` (all rows, or only
/// those `keep` selects) into `b`, and push the finished piece.
pub(crate) fn finish_with(
    p: &Piece,
    mut b: Builder,
    images: &[Vec<Int>],
    summand: Option<Box<dyn FnOnce(&Builder, &[Poly]) -> Result<Poly> + '_>>,
    out: &mut Vec<Piece>,
) -> Result<()> {
    for r in &p.eqs {
        let e = b.subst(r, images);
        b.add_eq(e);
    }
    for r in &p.ineqs {
        let e = b.subst(r, images);
        b.add_ineq(e);
    }
    let n_new = b.width() - 1;
    let polys: Vec<Poly> = images.iter().map(|e| b.poly_of(e)).collect();
    let poly = match summand {
        Some(f) => f(&b, &polys)?,
        None => p.poly.compose(&polys, n_new)?,
    };
    if let Some(q) = b.finish(poly)? {
        out.push(q);
    }
    Ok(())
}

/// Steps 2 and 3 on a piece whose divisions do not depend on the last variable.
fn eliminate(p: Piece) -> Result<Vec<Piece>> {
    let floors = vec![false; p.divs.len()];
    chambers(&p, &floors)
}

/// Steps 2 and 3 where the divisions marked in `floors` depend on the last
/// variable `w` (linearly, through no other marked division) and occur in
/// the summand only, linearly and without `w` beside them: their sums over
/// a chamber are Euclid's floor sums (module `floor_sum`). Unmarked
/// divisions do not depend on `w`.
pub(crate) fn chambers(p: &Piece, floors: &[bool]) -> Result<Vec<Piece>> {
    let w = p.n_var - 1;
    let wcol = 1 + w;
    let new_nv = p.n_var - 1;
    // the images of the other variables and of the divisions in a builder
    // (a marked division's image is a placeholder: no row refers to it)
    let start = || -> (Builder, Vec<Vec<Int>>) {
        let mut b = Builder::new(new_nv);
        let mut images: Vec<Vec<Int>> = (0..new_nv).map(|i| b.unit(1 + i)).collect();
        images.push(vec![Int::ZERO]); // w: set by the caller
        for (k, (num, den)) in p.divs.iter().enumerate() {
            if floors[k] {
                images.push(vec![Int::ZERO]);
                continue;
            }
            let e = b.subst(num, &images);
            let img = b.div(&e, den);
            images.push(img);
        }
        (b, images)
    };
    let mut out = Vec::new();
    // step 2
    if let Some(eq) = p
        .eqs
        .iter()
        .filter(|r| !r[wcol].is_zero())
        .min_by_key(|r| r[wcol].abs())
    {
        debug_assert!(floors.iter().all(|&f| !f));
        let (mut b, mut images) = start();
        let a = eq[wcol].abs();
        let mut e: Vec<Int> = if eq[wcol].is_neg() {
            eq.iter().map(|v| -v).collect()
        } else {
            eq.clone()
        };
        e[wcol] = Int::ZERO;
        let e = b.subst(&e, &images);
        let neg: Vec<Int> = e.iter().map(|v| -v).collect();
        images[w] = if a.is_one() { neg } else { b.div(&neg, &a) };
        finish_with(p, b, &images, None, &mut out)?;
        return Ok(out);
    }
    // step 3
    let lowers: Vec<&[Int]> = p
        .ineqs
        .iter()
        .filter(|r| r[wcol].is_pos())
        .map(|r| &r[..])
        .collect();
    let uppers: Vec<&[Int]> = p
        .ineqs
        .iter()
        .filter(|r| r[wcol].is_neg())
        .map(|r| &r[..])
        .collect();
    if lowers.is_empty() || uppers.is_empty() {
        return Err(Error::Invalid(format!(
            "{UNBOUNDED} (a dimension has no {} bound)",
            if lowers.is_empty() { "lower" } else { "upper" }
        )));
    }
    let rest = Piece {
        ineqs: p
            .ineqs
            .iter()
            .filter(|r| r[wcol].is_zero())
            .cloned()
            .collect(),
        ..p.clone()
    };
    // the summand split: the terms free of marked divisions, and for each
    // marked division its coefficient (free of `w`)
    let off = p.n_var;
    let mut plain = Poly::zero(p.poly.n_var);
    let mut coefs: Vec<Poly> = vec![Poly::zero(p.poly.n_var); p.divs.len()];
    for (e, c) in &p.poly.terms {
        match (0..p.divs.len()).find(|&k| floors[k] && e[off + k] > 0) {
            Some(k) => {
                let mut e = e.clone();
                e[off + k] = 0;
                coefs[k].add_assign(&Poly {
                    n_var: p.poly.n_var,
                    terms: [(e, c.clone())].into_iter().collect(),
                })?;
            }
            None => plain.add_assign(&Poly {
                n_var: p.poly.n_var,
                terms: [(e.clone(), c.clone())].into_iter().collect(),
            })?,
        }
    }
    for (i, lo) in lowers.iter().enumerate() {
        for (j, up) in uppers.iter().enumerate() {
            crate::budget::tick(1)?;
            let (mut b, mut images) = start();
            // s = ceil(-r_i / a_i) = floor((-r_i + a_i - 1) / a_i)
            let a = lo[wcol].clone();
            let mut r = lo.to_vec();
            r[wcol] = Int::ZERO;
            let mut num: Vec<Int> = b.subst(&r, &images).iter().map(|v| -v).collect();
            num[0] = &(&num[0] + &a) - &Int::ONE;
            let s = b.div(&num, &a);
            // t = floor(r_j / b_j)
            let bj = -&up[wcol];
            let mut r = up.to_vec();
            r[wcol] = Int::ZERO;
            let num = b.subst(&r, &images);
            let t = b.div(&num, &bj);
            let shifted = |e: &[Int], d: i64| {
                let mut e = e.to_vec();
                e[0] = &e[0] + &Int::from(d);
                e
            };
            for (k, row) in lowers.iter().enumerate() {
                if k != i {
                    images[w] = if k < i { shifted(&s, -1) } else { s.to_vec() };
                    let e = b.subst(row, &images);
                    b.add_ineq(e);
                }
            }
            for (k, row) in uppers.iter().enumerate() {
                if k != j {
                    images[w] = if k < j { shifted(&t, 1) } else { t.to_vec() };
                    let e = b.subst(row, &images);
                    b.add_ineq(e);
                }
            }
            let diff = if a == bj && a > Int::from(FLOOR_SUM_PERIOD) {
                // equal large coefficients: `r_i + r_j + 1 >= 0` holds where
                // `w` has a value (`r_i + r_j >= 0`) and implies
                // `s <= t + 1`, so it is a chamber condition too, free of
                // the divisions `s` and `t` (whose period in the next
                // variable is large)
                let mut d: Vec<Int> = lo.iter().zip(up.iter()).map(|(x, y)| x + y).collect();
                d[wcol] = Int::ZERO;
                d[0] = &d[0] + &Int::ONE;
                b.subst(&d, &images)
            } else {
                let mut diff: Vec<Int> = t.clone();
                diff.resize(b.width(), Int::ZERO);
                for (d, v) in diff.iter_mut().zip(&s) {
                    *d = &*d - v;
                }
                // s <= t + 1, not s <= t: at t = s - 1 the sum F(t) - F(s - 1)
                // is exactly zero, so the chamber may include those points; the
                // condition is then often implied by the other rows and
                // dropped, and the chambers of many residue classes share one
                // domain
                diff[0] = &diff[0] + &Int::ONE;
                diff
            };
            b.add_ineq(diff);
            images[w] = vec![Int::ZERO];
            // each marked division's sum over w in [s, t]: w = s + x,
            // x in [0, N - 1], N = t - s + 1
            let mut sums: Vec<(usize, super::floor_sum::Products)> = Vec::new();
            for (k, (num, den)) in p.divs.iter().enumerate() {
                if !floors[k] || coefs[k].is_zero() {
                    continue;
                }
                let ak = num[wcol].clone();
                let mut r = num.clone();
                r[wcol] = Int::ZERO;
                let e = b.subst(&r, &images);
                let mut off_b = e.clone();
                off_b.resize(b.width(), Int::ZERO);
                for (o, v) in off_b.iter_mut().zip(&s) {
                    o.add_mul(&ak, v);
                }
                let mut n = t.clone();
                n.resize(b.width(), Int::ZERO);
                for (o, v) in n.iter_mut().zip(&s) {
                    *o = &*o - v;
                }
                n[0] = &n[0] + &Int::ONE;
                let fs = super::floor_sum::floor_sum(&mut b, n, ak, off_b, den.clone())?;
                sums.push((k, fs));
            }
            let (s2, t2) = (s.clone(), t.clone());
            let (plain, coefs) = (&plain, &coefs);
            let summand = Box::new(move |b: &Builder, polys: &[Poly]| {
                let n_new = b.width() - 1;
                let lo = b.poly_of(&s2);
                let hi = b.poly_of(&t2);
                let mut r = plain.sum_over(w, &lo, &hi, polys, n_new)?;
                for (k, fs) in &sums {
                    let c = coefs[*k].compose(polys, n_new)?;
                    let mut f = Poly::zero(n_new);
                    for (q, factors) in fs {
                        let mut t = Poly::constant(n_new, q.clone());
                        for e in factors {
                            t = t.mul(&b.poly_of(e))?;
                        }
                        f.add_assign(&t)?;
                    }
                    r.add_assign(&c.mul(&f)?)?;
                }
                Ok(r)
            });
            finish_with(&rest, b, &images, Some(summand), &mut out)?;
        }
    }
    Ok(out)
}

/// The residue period of `w`: the least common denominator of the slopes
/// in `w` of the divisions (1 if none depends on `w`), and whether any does.
fn period(p: &Piece, w: usize) -> (Int, bool) {
    let off = 1 + p.n_var;
    let mut slopes: Vec<Rat> = Vec::with_capacity(p.divs.len());
    let mut any = false;
    let mut m = Int::ONE;
    for (num, den) in &p.divs {
        let mut s = Rat::from(num[1 + w].clone());
        any |= !num[1 + w].is_zero();
        for (j, sj) in slopes.iter().enumerate() {
            if !num[off + j].is_zero() && !sj.is_zero() {
                s = s.add(&sj.mul(&Rat::from(num[off + j].clone())));
            }
        }
        let s = s.div(&Rat::from(den.clone())).unwrap();
        m = m.lcm(s.denom());
        slopes.push(s);
    }
    let dep = any || !m.is_one();
    (m, dep)
}

/// The largest residue period that summing `w` out of `p` gives the
/// divisions of its bounds in another summation variable: a bound
/// `a·w + b·v + .. >= 0` becomes `floor((b·v + ..) / a)`, of period
/// `|a| / gcd(a, b)` in `v`.
fn future_period(p: &Piece, w: usize, n_keep: usize) -> u64 {
    let col = 1 + w;
    let mut worst = 1u64;
    for r in &p.ineqs {
        let a = r[col].abs();
        if a.is_zero() || a.is_one() {
            continue;
        }
        for v in (n_keep..p.n_var).filter(|&v| v != w && !r[1 + v].is_zero()) {
            let per = a.div_exact(&a.gcd(&r[1 + v]));
            worst = worst.max(per.to_i64().unwrap_or(1 << 20).min(1 << 20) as u64);
        }
    }
    worst
}

/// A cost estimate of summing variable `w` out of `p` next (pieces made).
fn cost(p: &Piece, w: usize, n_keep: usize) -> u64 {
    let col = 1 + w;
    if p.eqs.iter().any(|r| r[col].abs().is_one()) {
        return 0;
    }
    let (m, dep) = period(p, w);
    let m = m.to_i64().unwrap_or(i64::MAX / 4).min(1 << 20) as u64;
    if let Some(a) = p
        .eqs
        .iter()
        .map(|r| r[col].abs())
        .filter(|a| !a.is_zero())
        .min()
    {
        // the equality leaves a divisibility condition of modulus `a`
        let a = a.to_i64().unwrap_or(1 << 20).min(1 << 20) as u64;
        return m + u64::from(dep) + if a > LARGE_PERIOD { a } else { 0 };
    }
    let lo = p.ineqs.iter().filter(|r| r[col].is_pos()).count() as u64;
    let up = p.ineqs.iter().filter(|r| r[col].is_neg()).count() as u64;
    let nonunit = p.ineqs.iter().filter(|r| r[col].abs() > Int::ONE).count() as u64;
    // fewer chambers beat small residue periods (measured: a 4-D box with
    // `mod 12` and the non-unimodular case of the benches); a large period
    // multiplies the pieces
    // (a variable with one bound each way and no division under it is
    // summed without chambers: `floor(..) - ceil(..) + 1`, whatever the
    // periods it leaves)
    let later = match future_period(p, w, n_keep) {
        _ if lo == 1 && up == 1 && m == 1 => 1,
        f if f > LARGE_PERIOD => f,
        _ => 1,
    };
    2 + m
        .saturating_mul(lo * up)
        .saturating_mul(1 + nonunit)
        .saturating_mul(later)
        + u64::from(dep)
}

/// `p` with the cheapest of its variables from `n_keep` on moved last.
pub(crate) fn cheapest_last(p: Piece, n_keep: usize) -> Piece {
    let last = p.n_var - 1;
    let best = (n_keep..p.n_var)
        .min_by_key(|&w| (cost(&p, w, n_keep), std::cmp::Reverse(w)))
        .unwrap_or(last);
    swap_vars(p, best, last)
}

/// `p` with variables `v` and `w` exchanged.
fn swap_vars(mut p: Piece, v: usize, w: usize) -> Piece {
    if v != w {
        let (a, b) = (1 + v, 1 + w);
        for r in p
            .eqs
            .iter_mut()
            .chain(p.ineqs.iter_mut())
            .chain(p.divs.iter_mut().map(|(n, _)| n))
        {
            r.swap(a, b);
        }
        p.poly = p.poly.swapped(v, w);
    }
    p
}
