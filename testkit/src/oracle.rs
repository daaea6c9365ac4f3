//! A deliberately simple brute-force oracle: enumerate every point of a box
//! and decide membership without any solver ([`contains`]).
//!
//! Membership of a point is decided by evaluation: defined locals are
//! computed from their definitions, and existentials are searched in a box
//! ([`EXIST_BOUND`]). Use it only on small sets whose existentials have small
//! witnesses; it is the independent check that property tests compare the
//! engine against.

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

/// All points of the box `[lo, hi]^n`, in lexicographic order.
pub fn box_points(n: usize, lo: i64, hi: i64) -> Vec<Vec<Int>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        let mut next = Vec::new();
        for p in &out {
            for v in lo..=hi {
                let mut q = p.clone();
                q.push(Int::from(v));
                next.push(q);
            }
        }
        out = next;
    }
    out
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

    /// Number of points in the box.
    pub fn size(&self) -> usize {
        let p = (2 * self.param_bound + 1) as usize;
        let d = (2 * self.dim_bound + 1) as usize;
        p.pow(self.n_param as u32) * d.pow(self.n_dims as u32)
    }
}

/// Brute-force membership of a point given as machine integers.
pub fn member(m: &Map, point: &[i64]) -> bool {
    let p: Vec<Int> = point.iter().map(|&v| Int::from(v)).collect();
    contains(m, &p)
}

/// Membership of every point of `u.points()` in `m`, in the same order.
pub fn membership(m: &Map, u: &Universe) -> Vec<bool> {
    u.points().iter().map(|p| member(m, p)).collect()
}

/// The points of `m` inside the box.
pub fn points_of(m: &Map, u: &Universe) -> Vec<Vec<i64>> {
    u.points().into_iter().filter(|p| member(m, p)).collect()
}

/// The first point of the box (in `points()` order) where `got` and `want`
/// differ, with the two memberships; `None` when they agree everywhere.
pub fn first_difference(
    got: &[bool],
    want: &[bool],
    u: &Universe,
) -> Option<(Vec<i64>, bool, bool)> {
    let pts = u.points();
    got.iter()
        .zip(want)
        .zip(pts)
        .find(|((g, w), _)| g != w)
        .map(|((g, w), p)| (p, *g, *w))
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
    let mut out = std::collections::BTreeMap::new();
    for p in points_of(m, u) {
        let e = out
            .entry(p[..prefix_len].to_vec())
            .or_insert_with(|| p.clone());
        if (max && p > *e) || (!max && p < *e) {
            *e = p;
        }
    }
    out
}
