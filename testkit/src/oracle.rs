//! A deliberately simple brute-force oracle: enumerate every point of a box
//! and decide membership without any solver ([`contains`]).
//!
//! Membership of a point is decided by evaluation: defined locals are
//! computed from their definitions, and existentials are searched in a box
//! ([`EXIST_BOUND`]). Use it only on small sets whose existentials have small
//! witnesses; it is the independent check that property tests compare the
//! engine against.

use std::cell::RefCell;

use presburger::matrix::eval;
use presburger::{BasicMap, Int, Map};

use crate::gen::{Shape, PARAM_BOUND};

/// Search box for existentials: values tried are `-EXIST_BOUND..=EXIST_BOUND`.
pub const EXIST_BOUND: i64 = 24;

fn search(b: &BasicMap, vals: &mut Vec<Int>, k: usize) -> bool {
    let nd = b.n_div();
    let base = b.space().n_vars();
    if k == nd {
        return b.eqs().iter().all(|r| eval(r, vals).is_zero())
            && b.ineqs().iter().all(|r| !eval(r, vals).is_neg());
    }
    // prune: a constraint fully evaluated so far that fails
    let known = base + k;
    let fails = |vals: &Vec<Int>| {
        b.eqs()
            .iter()
            .chain(b.ineqs().iter())
            .enumerate()
            .any(|(i, r)| {
                r[1 + known..].iter().all(Int::is_zero) && {
                    let v = eval(&r[..1 + known], &vals[..known]);
                    if i < b.eqs().len() {
                        !v.is_zero()
                    } else {
                        v.is_neg()
                    }
                }
            })
    };
    if fails(vals) {
        return false;
    }
    match &b.divs()[k] {
        Some(d) => {
            let v = eval(&d.num[..1 + known], &vals[..known]).div_floor(&d.den);
            vals.push(v);
            let r = search(b, vals, k + 1);
            vals.pop();
            r
        }
        None => {
            for e in -EXIST_BOUND..=EXIST_BOUND {
                vals.push(Int::from(e));
                let r = search(b, vals, k + 1);
                vals.pop();
                if r {
                    return true;
                }
            }
            false
        }
    }
}

/// Brute-force membership of `(params, in, out)` in a basic map: defined
/// locals are computed from their definitions, existentials searched in
/// `-EXIST_BOUND..=EXIST_BOUND`. Requires div definitions to refer only to
/// earlier locals.
pub fn basic_contains(b: &BasicMap, point: &[Int]) -> bool {
    let mut vals = point.to_vec();
    search(b, &mut vals, 0)
}

/// Brute-force membership in a map (some basic map contains the point).
pub fn contains(m: &Map, point: &[Int]) -> bool {
    m.basic_maps().iter().any(|b| basic_contains(b, point))
}

/// A map prepared for many membership tests ([`Tester::member`]): the
/// constraints of each basic map as machine integers, grouped by the last
/// variable they involve, so that a point is checked with `i64` arithmetic
/// and each existential is only tried between the bounds its constraints give
/// (within `-EXIST_BOUND..=EXIST_BOUND`, as [`contains`] does). It decides
/// exactly what [`contains`] decides: on overflow, or for a basic map with a
/// coefficient beyond `i64`, it falls back to [`basic_contains`].
#[derive(Clone, Debug)]
pub struct Tester<'a> {
    map: &'a Map,
    basics: Vec<Option<Small>>,
    scratch: RefCell<Vec<i64>>,
}

/// One constraint row `[c | vars]` as machine integers.
#[derive(Clone, Debug)]
struct SmallRow {
    eq: bool,
    row: Vec<i64>,
}

/// A basic map in machine integers: `levels[l]` holds the constraints whose
/// last variable with a nonzero coefficient is variable `l - 1` (`l = 0`:
/// constant rows), so they can be checked as soon as `l` values are known.
#[derive(Clone, Debug)]
struct Small {
    base: usize,
    divs: Vec<Option<(Vec<i64>, i64)>>,
    levels: Vec<Vec<SmallRow>>,
}

fn small_row(r: &[Int]) -> Option<Vec<i64>> {
    r.iter().map(Int::to_i64).collect()
}

/// `row[0] + Σ row[1 + i] * vals[i]` over the first `vals.len()` variables,
/// `None` on overflow.
fn eval_small(row: &[i64], vals: &[i64]) -> Option<i64> {
    let mut v = row[0];
    for (a, x) in row[1..].iter().zip(vals) {
        if *a != 0 {
            v = v.checked_add(a.checked_mul(*x)?)?;
        }
    }
    Some(v)
}

impl Small {
    fn new(b: &BasicMap) -> Option<Small> {
        let base = b.space().n_vars();
        let n = base + b.n_div();
        let mut levels = vec![Vec::new(); n + 1];
        let rows = b.eqs().iter().map(|r| (true, r));
        for (eq, r) in rows.chain(b.ineqs().iter().map(|r| (false, r))) {
            let row = small_row(r)?;
            let level = row[1..].iter().rposition(|a| *a != 0).map_or(0, |i| i + 1);
            levels[level].push(SmallRow { eq, row });
        }
        let divs = b
            .divs()
            .iter()
            .map(|d| match d {
                Some(d) => small_row(&d.num).zip(d.den.to_i64()).map(Some),
                None => Some(None),
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Small { base, divs, levels })
    }

    /// The constraints of `level` hold at `vals` (`None` on overflow).
    fn holds(&self, level: usize, vals: &[i64]) -> Option<bool> {
        for c in &self.levels[level] {
            let v = eval_small(&c.row, vals)?;
            if (c.eq && v != 0) || v < 0 {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Membership of a point whose constraints up to its last coordinate
    /// hold, with the locals from `k` on still to choose.
    fn search(&self, vals: &mut Vec<i64>, k: usize) -> Option<bool> {
        if k == self.divs.len() {
            return Some(true);
        }
        let known = self.base + k;
        let (lo, hi) = match &self.divs[k] {
            Some((num, den)) => {
                let v = eval_small(&num[..1 + known], &vals[..known])?.div_euclid(*den);
                (v, v)
            }
            None => self.bounds(known, vals)?,
        };
        for e in lo..=hi {
            vals.push(e);
            let r = match self.holds(known + 1, vals) {
                Some(true) => self.search(vals, k + 1),
                other => other,
            };
            vals.pop();
            if r != Some(false) {
                return r;
            }
        }
        Some(false)
    }

    /// The values of existential `known` (a variable index) allowed by the
    /// constraints that end with it, within the search box (empty: `lo > hi`).
    fn bounds(&self, known: usize, vals: &[i64]) -> Option<(i64, i64)> {
        let (mut lo, mut hi) = (-EXIST_BOUND, EXIST_BOUND);
        for c in &self.levels[known + 1] {
            let a = c.row[1 + known];
            let rest = eval_small(&c.row[..1 + known], vals)?;
            // a * e + rest >= 0 (or = 0)
            if a > 0 {
                // e >= ceil(-rest / a)
                lo = lo.max(rest.checked_neg()?.checked_add(a - 1)?.div_euclid(a));
                if c.eq {
                    hi = hi.min(rest.checked_neg()?.div_euclid(a));
                }
            } else {
                // e <= floor(rest / -a)
                let b = a.checked_neg()?;
                hi = hi.min(rest.div_euclid(b));
                if c.eq {
                    lo = lo.max(rest.checked_add(b - 1)?.div_euclid(b));
                }
            }
        }
        Some((lo, hi))
    }

    /// Set `out[i]` for every point `i` of the box `u` (in [`Universe::points`]
    /// order) that lies in this basic map: a depth-first walk over the
    /// coordinates that checks each constraint as soon as its last variable is
    /// fixed and skips the rest of a prefix that fails one. `None` on overflow
    /// (the points marked so far are members).
    fn mark(&self, u: &Universe, out: &mut [bool], vals: &mut Vec<i64>) -> Option<()> {
        assert_eq!(self.base, u.n_param + u.n_dims, "box of another space");
        vals.clear();
        if self.holds(0, vals)? {
            self.mark_from(u, out, vals, 0)?;
        }
        Some(())
    }

    fn mark_from(
        &self,
        u: &Universe,
        out: &mut [bool],
        vals: &mut Vec<i64>,
        idx: usize,
    ) -> Option<()> {
        let l = vals.len();
        if l == self.base {
            if self.search(vals, 0)? {
                out[idx] = true;
            }
            return Some(());
        }
        let b = u.bound(l);
        let width = (2 * b + 1) as usize;
        for v in -b..=b {
            vals.push(v);
            if self.holds(l + 1, vals)? {
                self.mark_from(u, out, vals, idx * width + (v + b) as usize)?;
            }
            vals.pop();
        }
        Some(())
    }

    /// Membership of `point`, with `vals` as scratch space.
    fn contains(&self, point: &[i64], vals: &mut Vec<i64>) -> Option<bool> {
        vals.clear();
        vals.extend_from_slice(point);
        for l in 0..=self.base {
            if !self.holds(l, vals)? {
                return Some(false);
            }
        }
        self.search(vals, 0)
    }
}

impl<'a> Tester<'a> {
    /// Prepare `m` for membership tests.
    pub fn new(m: &'a Map) -> Tester<'a> {
        Tester {
            map: m,
            basics: m.basic_maps().iter().map(Small::new).collect(),
            scratch: RefCell::new(Vec::new()),
        }
    }

    /// Membership of every point of `u.points()`, in the same order (the
    /// same answers as [`contains`], without visiting the points that a
    /// prefix of their coordinates already excludes).
    pub fn membership(&self, u: &Universe) -> Vec<bool> {
        let mut out = vec![false; u.size()];
        let mut vals = self.scratch.borrow_mut();
        for (s, b) in self.basics.iter().zip(self.map.basic_maps()) {
            if s.as_ref()
                .and_then(|s| s.mark(u, &mut out, &mut vals))
                .is_none()
            {
                let mut k = 0;
                u.for_each_point(|p| {
                    if !out[k] {
                        let p: Vec<Int> = p.iter().map(|&v| Int::from(v)).collect();
                        out[k] = basic_contains(b, &p);
                    }
                    k += 1;
                });
            }
        }
        out
    }

    /// Whether the point `(params, in, out)` lies in the map: the same
    /// answer as [`contains`].
    pub fn member(&self, point: &[i64]) -> bool {
        let mut vals = self.scratch.borrow_mut();
        self.basics.iter().zip(self.map.basic_maps()).any(|(s, b)| {
            match s.as_ref().and_then(|s| s.contains(point, &mut vals)) {
                Some(r) => r,
                None => {
                    let p: Vec<Int> = point.iter().map(|&v| Int::from(v)).collect();
                    basic_contains(b, &p)
                }
            }
        })
    }
}

/// All points of the box `[lo, hi]^n`, in lexicographic order.
pub fn box_points(n: usize, lo: i64, hi: i64) -> Vec<Vec<Int>> {
    box_points_i64(n, lo, hi)
        .into_iter()
        .map(|p| p.into_iter().map(Int::from).collect())
        .collect()
}

/// All points of the box `[lo, hi]^n` as machine integers, in
/// lexicographic order.
pub fn box_points_i64(n: usize, lo: i64, hi: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out
            .into_iter()
            .flat_map(|p| {
                (lo..=hi).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    out
}

/// The lexicographically smallest (or, with `max`, largest) point of the
/// box `[lo, hi]^n` that `member` accepts, by enumeration; `None` when it
/// accepts none. Membership is the caller's: a predicate written out by
/// hand, [`contains`], or the engine's own test when what is checked is an
/// optimum.
pub fn best_in_box(
    n: usize,
    lo: i64,
    hi: i64,
    max: bool,
    mut member: impl FnMut(&[i64]) -> bool,
) -> Option<Vec<i64>> {
    let mut best = None;
    for x in box_points_i64(n, lo, hi) {
        // the first accepted point is the minimum; the last, the maximum
        if (max || best.is_none()) && member(&x) {
            best = Some(x);
        }
    }
    best
}

/// Checks `opt`, the lexmin (or with `max` the lexmax) of `m` over its
/// outputs, against enumeration: at every value in `params` of the two
/// leading variables (two parameters, or a parameter and an input), `opt`
/// holds exactly the best point of `m` in the output box `outputs` (which
/// must contain all of `m`'s points there); the first disagreement as text.
pub fn optimum_agrees(
    m: &Map,
    opt: &Map,
    max: bool,
    outputs: (i64, i64),
    params: (i64, i64),
) -> Result<(), String> {
    let d = m.space().n_out();
    let (lo, hi) = outputs;
    let pts = box_points_i64(d, lo, hi);
    for p in params.0..=params.1 {
        for q in params.0..=params.1 {
            let at =
                |x: &[i64]| -> Vec<Int> { [p, q].iter().chain(x).map(|v| Int::from(*v)).collect() };
            let want = best_in_box(d, lo, hi, max, |x| m.contains_point(&at(x)).unwrap());
            for x in &pts {
                let got = opt.contains_point(&at(x)).unwrap();
                if got != (want.as_ref() == Some(x)) {
                    return Err(format!(
                        "at ({p}, {q}), {x:?}: optimum says {got}, want {want:?}"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The box enumerated by the oracle: parameters in `-param_bound..=param_bound`,
/// dimensions in `-dim_bound..=dim_bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Universe {
    /// Number of parameters.
    pub n_param: usize,
    /// Number of (input and output) dimensions.
    pub n_dims: usize,
    /// Bound of the parameters.
    pub param_bound: i64,
    /// Bound of the dimensions.
    pub dim_bound: i64,
}

impl Universe {
    /// The box that holds every point of sets generated with `shape`.
    pub fn of(shape: Shape) -> Universe {
        Universe {
            n_param: shape.n_param(),
            n_dims: shape.n_dims(),
            param_bound: PARAM_BOUND,
            dim_bound: shape.bound(),
        }
    }

    /// All points `(params, dims)` of the box, in lexicographic order.
    pub fn points(&self) -> Vec<Vec<i64>> {
        let mut out = vec![vec![]];
        for k in 0..self.n_param + self.n_dims {
            let b = if k < self.n_param {
                self.param_bound
            } else {
                self.dim_bound
            };
            out = out
                .into_iter()
                .flat_map(|p| {
                    (-b..=b).map(move |v| {
                        let mut q = p.clone();
                        q.push(v);
                        q
                    })
                })
                .collect();
        }
        out
    }

    /// Call `f` on every point of the box, in the order of [`Universe::points`]
    /// (without building the list).
    pub fn for_each_point(&self, mut f: impl FnMut(&[i64])) {
        let n = self.n_param + self.n_dims;
        let bound = |k| self.bound(k);
        let mut p: Vec<i64> = (0..n).map(|k| -bound(k)).collect();
        loop {
            f(&p);
            // odometer: advance the last coordinate, carrying leftwards
            let mut k = n;
            loop {
                if k == 0 {
                    return;
                }
                k -= 1;
                if p[k] < bound(k) {
                    p[k] += 1;
                    break;
                }
                p[k] = -bound(k);
            }
        }
    }

    /// Bound of coordinate `k` (a parameter, then the dimensions).
    pub fn bound(&self, k: usize) -> i64 {
        if k < self.n_param {
            self.param_bound
        } else {
            self.dim_bound
        }
    }

    /// Number of points in the box.
    pub fn size(&self) -> usize {
        let p = (2 * self.param_bound + 1) as usize;
        let d = (2 * self.dim_bound + 1) as usize;
        p.pow(self.n_param as u32) * d.pow(self.n_dims as u32)
    }
}

/// Brute-force membership of a point given as machine integers.
pub fn member(m: &Map, point: &[i64]) -> bool {
    Tester::new(m).member(point)
}

/// Membership of every point of `u.points()` in `m`, in the same order.
pub fn membership(m: &Map, u: &Universe) -> Vec<bool> {
    Tester::new(m).membership(u)
}

/// The points of `m` inside the box.
pub fn points_of(m: &Map, u: &Universe) -> Vec<Vec<i64>> {
    let inside = membership(m, u);
    let mut out = Vec::new();
    let mut k = 0;
    u.for_each_point(|p| {
        if inside[k] {
            out.push(p.to_vec());
        }
        k += 1;
    });
    out
}

/// The first point of the box (in `points()` order) where `got` and `want`
/// differ, with the two memberships; `None` when they agree everywhere.
pub fn first_difference(
    got: &[bool],
    want: &[bool],
    u: &Universe,
) -> Option<(Vec<i64>, bool, bool)> {
    let k = got.iter().zip(want).position(|(g, w)| g != w)?;
    Some((u.points().swap_remove(k), got[k], want[k]))
}

/// Lexicographic minimum (or maximum) by enumeration of the points of `m`
/// that start with `prefix` (the parameters, or the parameters and the input
/// dimensions of a relation); `None` if there is none in the box.
pub fn lexopt(m: &Map, u: &Universe, prefix: &[i64], max: bool) -> Option<Vec<i64>> {
    let pts = u
        .points()
        .into_iter()
        .filter(|p| p[..prefix.len()] == *prefix && member(m, p));
    if max {
        pts.max()
    } else {
        pts.min()
    }
}

/// For every prefix (the first `prefix_len` coordinates) that has points of
/// `m` in the box, the lexicographically smallest (or largest) such point.
pub fn lexopt_by_prefix(
    m: &Map,
    u: &Universe,
    prefix_len: usize,
    max: bool,
) -> std::collections::BTreeMap<Vec<i64>, Vec<i64>> {
    lexopt_of_points(points_of(m, u), prefix_len, max)
}

/// For every prefix (the first `prefix_len` coordinates) of the given points,
/// the lexicographically smallest (or largest) point with that prefix.
pub fn lexopt_of_points(
    points: Vec<Vec<i64>>,
    prefix_len: usize,
    max: bool,
) -> std::collections::BTreeMap<Vec<i64>, Vec<i64>> {
    let mut out = std::collections::BTreeMap::new();
    for p in points {
        let e = out
            .entry(p[..prefix_len].to_vec())
            .or_insert_with(|| p.clone());
        if (max && p > *e) || (!max && p < *e) {
            *e = p;
        }
    }
    out
}
