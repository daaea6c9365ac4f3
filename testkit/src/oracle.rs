//! A deliberately simple brute-force oracle: enumerate every point of a box
//! and decide membership with [`presburger::testing::contains`] (no solver).

use presburger::testing::contains;
use presburger::{Int, Map};

use crate::gen::{Shape, PARAM_BOUND};

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
