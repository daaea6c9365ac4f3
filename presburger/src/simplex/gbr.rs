//! Integer feasibility of bounded directions by generalized basis reduction
//! (Lovász and Scarf; Cook, Rutherford, Scarf and Shallcross 1993).
//!
//! Branch and bound on the coordinate axes may visit a number of nodes that
//! grows with the *length* of a polytope even when the polytope is *thin*:
//! `{ (x, y) : a <= 1000x - 999y <= a + k }` inside a large box has a rational
//! point on every line `x = c`, so every axis branch survives. A basis
//! `b_1, …, b_r` of the integer linear forms in which the polytope is thin
//! makes the search short: enumerate the integer values of `b_1·x`, fix one,
//! then those of `b_2·x` in that slice, and so on (Lenstra's branching along
//! reduced directions). Fixing all `r` forms fixes the bounded coordinates,
//! since the basis is unimodular.
//!
//! The basis is *reduced* for the width functions
//! `F_i(c) = max { c·(y − z) : y, z ∈ P, b_j·y = b_j·z for j < i }`
//! (the width of `c` on the widest slice where `b_1..b_{i-1}` are fixed):
//! - `F_i(b_{i+1} + μ·b_i) >= F_i(b_{i+1})` for every integer μ (μ found by
//!   doubling and bisection on the sign of a subgradient of this convex
//!   function of μ, read from the optimal pair of each linear program), and
//! - `F_i(b_{i+1}) >= (1 − ε)·F_i(b_i)` with ε = 1/4, else the two are
//!   swapped and the step goes back one position.
//!
//! Every `F_i` is one linear program over the pair `(y, z)` (a tableau over
//! twice the variables, the fixed forms added as equalities). The search is
//! exact with *any* unimodular basis, so the reduction only decides how fast
//! it is: it stops after a bounded number of swaps, and a slice whose first
//! range is still long is reduced again. While reducing the first form, the
//! optimal pair also gives its rational range over the polytope: a form
//! with no integer in its range proves the polytope empty at once (how most
//! of pip's context tests end). Everything is charged to the
//! operation budget (through the tableau's pivots and one tick per node).

use super::tableau::{Opt, Tableau};
use crate::budget;
use crate::error::{Error, Result};
use crate::int::Int;
use std::cmp::Ordering;

/// The forms not yet fixed are reduced again in a slice when the range
/// `hi − lo` of the next form's integer values is at least this.
const REDUCE_AGAIN: i64 = 2;

/// Most swaps of one reduction, per vector squared.
const SWAPS_PER_VECTOR2: usize = 8;

/// A non-negative rational `num / den` (`den > 0`).
#[derive(Clone, Debug)]
struct Q {
    num: Int,
    den: Int,
}

impl Q {
    /// `self·p < other·q` for small positive `p`, `q`.
    fn less_scaled(&self, p: i64, other: &Q, q: i64) -> bool {
        let l = &(&self.num * &other.den) * &Int::from(p);
        let r = &(&other.num * &self.den) * &Int::from(q);
        l < r
    }
}

impl PartialEq for Q {
    fn eq(&self, o: &Q) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Q {}
impl PartialOrd for Q {
    fn partial_cmp(&self, o: &Q) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Q {
    fn cmp(&self, o: &Q) -> Ordering {
        (&self.num * &o.den).cmp(&(&o.num * &self.den))
    }
}

/// An integer point of the tableau `t` over `k` variables whose first `r`
/// are bounded, or `None`. `rows` are `t`'s inequalities (`t` may have more
/// constraints: they only restrict it). `leaf` completes a tableau whose
/// first `r` sample values are integral (they are then fixed), or says that
/// its slice has no integer point.
pub(super) fn sample_bounded(
    t: Tableau,
    rows: &[Vec<Int>],
    r: usize,
    leaf: &dyn Fn(&Tableau) -> Result<Option<Vec<Int>>>,
) -> Result<Option<Vec<Int>>> {
    let k = t.n_var();
    let mut search = Search {
        k,
        r,
        rows,
        eqs: Vec::new(),
        leaf,
    };
    let basis: Vec<Vec<Int>> = (0..r)
        .map(|i| (0..r).map(|j| Int::from((i == j) as i64)).collect())
        .collect();
    search.level(&t, basis, 0, true)
}

/// The depth-first search along the basis.
struct Search<'a> {
    k: usize,
    r: usize,
    /// The inequalities of the polytope.
    rows: &'a [Vec<Int>],
    /// The forms fixed so far, as equality rows.
    eqs: Vec<Vec<Int>>,
    leaf: &'a dyn Fn(&Tableau) -> Result<Option<Vec<Int>>>,
}

impl Search<'_> {
    /// The row `(v, b, 0…)` of `b·x + v` over the `k` variables.
    fn form_row(&self, v: Int, b: &[Int]) -> Vec<Int> {
        let mut row = Vec::with_capacity(1 + self.k);
        row.push(v);
        row.extend(b.iter().cloned());
        row.resize(1 + self.k, Int::ZERO);
        row
    }

    /// The integer range `[lo, hi]` of `b·x` over `t`.
    fn range(&self, t: &Tableau, b: &[Int]) -> Result<(Int, Int)> {
        let f = self.form_row(Int::ZERO, b);
        let lo = match t.clone().minimize(&f)? {
            Opt::Value(n, d) => n.div_ceil(&d),
            Opt::Unbounded => return Err(unbounded()),
        };
        let hi = match t.clone().maximize(&f)? {
            Opt::Value(n, d) => n.div_floor(&d),
            Opt::Unbounded => return Err(unbounded()),
        };
        Ok((lo, hi))
    }

    /// Search the slice `t` (where `basis[..level]` are fixed).
    fn level(
        &mut self,
        t: &Tableau,
        mut basis: Vec<Vec<Int>>,
        level: usize,
        reduce: bool,
    ) -> Result<Option<Vec<Int>>> {
        budget::tick(1 + self.k as u64)?;
        if level == self.r {
            return (self.leaf)(t);
        }
        let (mut lo, mut hi) = self.range(t, &basis[level])?;
        if lo > hi {
            return Ok(None);
        }
        if level + 1 < self.r && (reduce || &hi - &lo >= Int::from(REDUCE_AGAIN)) {
            if !reduce_basis(&PairLp::new(self, t)?, &mut basis[level..])? {
                return Ok(None);
            }
            (lo, hi) = self.range(t, &basis[level])?;
            if lo > hi {
                return Ok(None);
            }
        }
        let mut v = lo;
        while v <= hi {
            let eq = self.form_row(-&v, &basis[level]);
            let mut slice = t.clone();
            slice.add_eq(&eq)?;
            if !slice.is_empty() {
                self.eqs.push(eq);
                let found = self.level(&slice, basis.clone(), level + 1, false)?;
                self.eqs.pop();
                if found.is_some() {
                    return Ok(found);
                }
            }
            v = &v + &Int::ONE;
        }
        Ok(None)
    }
}

fn unbounded() -> Error {
    Error::Invalid("integer feasibility: a reduced direction is unbounded".into())
}

/// The widths `F(c)` of a slice: linear programs over pairs `(y, z)` of its
/// points, with `c·(y − z)` maximized.
struct PairLp {
    k: usize,
    /// `{ (y, z) : y, z in the slice }`.
    base: Tableau,
}

impl PairLp {
    fn new(s: &Search<'_>, t: &Tableau) -> Result<PairLp> {
        let k = s.k;
        let mut base = Tableau::new(2 * k);
        let twice = |row: &[Int], second: bool| -> Vec<Int> {
            let mut out = vec![Int::ZERO; 1 + 2 * k];
            out[0] = row[0].clone();
            let off = if second { 1 + k } else { 1 };
            out[off..off + k].clone_from_slice(&row[1..]);
            out
        };
        for row in s.rows {
            for second in [false, true] {
                base.add_ineq(&twice(row, second))?;
            }
        }
        for row in &s.eqs {
            for second in [false, true] {
                base.add_eq(&twice(row, second))?;
            }
        }
        debug_assert!(!base.is_empty() || t.is_empty());
        Ok(PairLp { k, base })
    }

    /// The row `c·y − c·z` (`c` over the first variables).
    fn diff_row(&self, c: &[Int]) -> Vec<Int> {
        let mut out = vec![Int::ZERO; 1 + 2 * self.k];
        for (j, v) in c.iter().enumerate() {
            out[1 + j] = v.clone();
            out[1 + self.k + j] = -v;
        }
        out
    }

    /// After [`width`](Self::width) of `c` on `base` (no form fixed), where
    /// `y` maximizes `c` and `z` minimizes it: true if no integer lies
    /// between the two.
    fn no_integer_between(&self, t: &Tableau, c: &[Int]) -> bool {
        if t.is_empty() {
            return true;
        }
        let (hn, hd) = sample_dot(t, c, 0);
        let (ln, ld) = sample_dot(t, c, self.k);
        hn.div_floor(&hd) < ln.div_ceil(&ld)
    }

    /// The sign of `b·(y − z)` at the sample of `t`: after a
    /// [`width`](Self::width) of `c + μ·b`, the slope at `μ` of a linear
    /// function below the width (a subgradient).
    fn slope(&self, t: &Tableau, b: &[Int]) -> i32 {
        let (yn, yd) = sample_dot(t, b, 0);
        let (zn, zd) = sample_dot(t, b, self.k);
        (&yn * &zd).cmp(&(&zn * &yd)) as i32
    }

    /// `base` with `f·(y − z) = 0` for each fixed form `f`.
    fn fixing(&self, fixed: &[Vec<Int>]) -> Result<Tableau> {
        let mut t = self.base.clone();
        for f in fixed {
            t.add_eq(&self.diff_row(f))?;
        }
        Ok(t)
    }

    /// `max c·(y − z)` over `t` (a [`fixing`](Self::fixing)); `None` if
    /// unbounded.
    fn width(&self, t: &mut Tableau, c: &[Int]) -> Result<Option<Q>> {
        if t.is_empty() {
            return Ok(Some(Q {
                num: Int::ZERO,
                den: Int::ONE,
            }));
        }
        Ok(match t.maximize(&self.diff_row(c))? {
            Opt::Value(num, den) => Some(Q { num, den }),
            Opt::Unbounded => None,
        })
    }
}

/// `c·x` at the sample of `t`, `x` the variables from `off`, as numerator
/// and positive denominator.
fn sample_dot(t: &Tableau, c: &[Int], off: usize) -> (Int, Int) {
    let (mut num, mut den) = (Int::ZERO, Int::ONE);
    for (j, cj) in c.iter().enumerate() {
        if cj.is_zero() {
            continue;
        }
        let (a, b) = t.sample_value(off + j);
        // num/den + cj·a/b
        let g = den.gcd(&b);
        let (dg, bg) = (den.div_exact(&g), b.div_exact(&g));
        num = Int::combine(&bg, &num, &(cj * &a), &dg);
        den = &den * &bg;
    }
    (num, den)
}

/// `a + μ·b`.
fn add_multiple(a: &[Int], mu: &Int, b: &[Int]) -> Vec<Int> {
    a.iter()
        .zip(b)
        .map(|(x, y)| {
            let mut v = x.clone();
            v.add_mul(mu, y);
            v
        })
        .collect()
}

/// Reduce `basis` (integer forms, unimodular together with the forms fixed
/// in the slice) for the widths of the slice; see the module doc. Stops
/// early, keeping a valid basis, after a bounded number of swaps or when a
/// width is unbounded. Returns false if it met a form without an integer
/// value in the slice (then the slice has no integer point).
fn reduce_basis(lp: &PairLp, basis: &mut [Vec<Int>]) -> Result<bool> {
    let m = basis.len();
    if m < 2 {
        return Ok(true);
    }
    // tabs[i]: the pairs with basis[..i] fixed; fs[i] = F_i(basis[i])
    let mut tabs: Vec<Tableau> = vec![lp.fixing(&[])?];
    let empty = std::cell::Cell::new(false);
    // width on tabs[0], noting a form without an integer value
    let first = |t: &mut Tableau, c: &[Int]| -> Result<Option<Q>> {
        let w = lp.width(t, c)?;
        if w.is_some() && lp.no_integer_between(t, c) {
            empty.set(true);
            return Ok(None);
        }
        Ok(w)
    };
    let Some(f0) = first(&mut tabs[0], &basis[0])? else {
        return Ok(!empty.get());
    };
    let mut fs: Vec<Q> = vec![f0];
    let mut i = 0;
    let mut swaps = 0;
    while i + 1 < m {
        budget::tick(1)?;
        // μ minimizing F_i(b_{i+1} + μ·b_i)
        let (mu, g) = {
            let t = &mut tabs[i];
            let (bi, bn) = (basis[i].clone(), basis[i + 1].clone());
            let mut g = |mu: &Int| -> Result<WithSlope> {
                let c = add_multiple(&bn, mu, &bi);
                let w = if i == 0 {
                    first(t, &c)?
                } else {
                    lp.width(t, &c)?
                };
                Ok(w.map(|w| (w, lp.slope(t, &bi))))
            };
            match argmin_convex(&mut g)? {
                Some(x) => x,
                None => return Ok(!empty.get()),
            }
        };
        if !mu.is_zero() {
            basis[i + 1] = add_multiple(&basis[i + 1], &mu, &basis[i]);
        }
        // swap when F_i(b_{i+1}) < (1 − 1/4)·F_i(b_i)
        if g.less_scaled(4, &fs[i], 3) {
            swaps += 1;
            if swaps > SWAPS_PER_VECTOR2 * m * m {
                return Ok(true);
            }
            basis.swap(i, i + 1);
            fs[i] = g;
            if i > 0 {
                i -= 1;
                tabs.truncate(i + 1);
                fs.truncate(i + 1);
            }
        } else {
            // the pairs with basis[..=i] fixed, and F_{i+1}(b_{i+1})
            let mut next = tabs[i].clone();
            next.add_eq(&lp.diff_row(&basis[i]))?;
            let Some(f) = lp.width(&mut next, &basis[i + 1])? else {
                return Ok(true);
            };
            tabs.push(next);
            fs.push(f);
            i += 1;
        }
    }
    Ok(true)
}

/// A width and the sign of a subgradient there; `None` if unbounded.
type WithSlope = Option<(Q, i32)>;

/// An integer `μ` minimizing the convex function `g` (and `g(μ)`), or `None`
/// if `g` is unbounded somewhere on the way. `g` also returns the sign of a
/// subgradient at `μ`: doubling steps against it bracket the minimum, a
/// bisection on its sign narrows the bracket to two neighbours.
fn argmin_convex(g: &mut dyn FnMut(&Int) -> Result<WithSlope>) -> Result<Option<(Int, Q)>> {
    let Some((g0, s0)) = g(&Int::ZERO)? else {
        return Ok(None);
    };
    if s0 == 0 {
        return Ok(Some((Int::ZERO, g0)));
    }
    // h(t) = g(dir·t) decreases at t = 0
    let dir = Int::from(-s0 as i64);
    let two = Int::from(2);
    let (mut lo, mut h_lo) = (Int::ZERO, g0);
    let mut t = Int::ONE;
    let (mut hi, mut h_hi) = loop {
        let Some((ht, st)) = g(&(&dir * &t))? else {
            return Ok(None);
        };
        if st * -s0 >= 0 {
            break (t, ht);
        }
        (lo, h_lo) = (t.clone(), ht);
        t = &t * &two;
    };
    // a minimizer lies in [lo, hi]: the slope is negative at lo, not at hi
    while &hi - &lo > Int::ONE {
        let mid = (&lo + &hi).div_floor(&two);
        let Some((hm, sm)) = g(&(&dir * &mid))? else {
            return Ok(None);
        };
        if sm * -s0 >= 0 {
            (hi, h_hi) = (mid, hm);
        } else {
            (lo, h_lo) = (mid, hm);
        }
    }
    Ok(Some(if h_hi < h_lo {
        (&dir * &hi, h_hi)
    } else {
        (&dir * &lo, h_lo)
    }))
}
