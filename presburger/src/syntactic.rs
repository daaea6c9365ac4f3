//! Tests on one basic map decided from its rows alone, without a solver:
//! membership of a point through the division definitions, and syntactic
//! containment of one basic map in another. Both answer "proved" or "not
//! proved"; the layers above use them as exact shortcuts.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::dot;

/// True if every constraint of `q` follows from a single constraint of `p`
/// with the same row layout (same space and number of locals): an equality
/// of `q` is an equality of `p` up to sign; an inequality `c + a·v ≥ 0` of
/// `q` follows from an inequality `c' + a·v ≥ 0` of `p` with `c' ≤ c`, or
/// from an equality `±(c' + a·v) = 0` of `p` with `±c' ≤ c`. Then a point
/// `(x, l)` satisfying `p`'s rows satisfies `q`'s, so `p ⊆ q` (the
/// constraints alone define a basic map). `false` means "not proved".
pub(crate) fn syntactically_contains(q: &BasicMap, p: &BasicMap) -> bool {
    if q.row_len() != p.row_len()
        || !crate::map::same_params(&q.space.params, &p.space.params)
        || !q.space.tuples_match(&p.space)
    {
        return false;
    }
    let opposite = |a: &[Int], b: &[Int]| a.iter().zip(b).all(|(x, y)| (x + y).is_zero());
    // rows without variables that hold (`0 = 0`, `c >= 0` with `c >= 0`)
    // hold everywhere and need no implying row
    let constant = |r: &[Int]| r[1..].iter().all(Int::is_zero);
    q.eqs
        .iter()
        .all(|e| (constant(e) && e[0].is_zero()) || p.eqs.iter().any(|f| f == e || opposite(f, e)))
        && q.ineqs.iter().all(|r| {
            (constant(r) && !r[0].is_neg())
                || p.ineqs.iter().any(|f| f[1..] == r[1..] && f[0] <= r[0])
                || p.eqs.iter().any(|f| {
                    (f[1..] == r[1..] && f[0] <= r[0])
                        || (opposite(&f[1..], &r[1..]) && -&f[0] <= r[0])
                })
        })
}

/// Whether the point `x = (params, in, out)` is in `q`, decided by
/// evaluation alone: `None` when that cannot decide it.
///
/// Without locals this is plain evaluation of `q`'s rows. When every local
/// has a definition (each referring to earlier locals only), the locals are
/// computed from their definitions: by the consistency invariant of
/// [`BasicMap`], any locals `l` with `(x, l)` satisfying the constraints equal
/// these values, so `x ∈ q` exactly when the computed `(x, l)` satisfies
/// every row. With an undefined existential (or `x` of the wrong length)
/// nothing is claimed (`None`).
pub(crate) fn contains_by_definitions(q: &BasicMap, x: &[Int]) -> Option<bool> {
    let nv = q.space.n_vars();
    if x.len() != nv || q.divs.iter().any(Option::is_none) || !q.divs_ordered() {
        return None;
    }
    let mut v: Vec<Int> = Vec::with_capacity(q.row_len());
    v.push(Int::ONE);
    v.extend(x.iter().cloned());
    for d in q.divs.iter().flatten() {
        // `d.num` refers to earlier locals only: those are already in `v`
        let val = dot(&d.num[..v.len()], &v).div_floor(&d.den);
        v.push(val);
    }
    Some(q.eqs.iter().all(|e| dot(e, &v).is_zero()) && q.ineqs.iter().all(|r| !dot(r, &v).is_neg()))
}

/// True if the point `x` is proved not to be in `q` (see
/// [`contains_by_definitions`]; `false` means "not proved").
pub(crate) fn point_excluded(q: &BasicMap, x: &[Int]) -> bool {
    contains_by_definitions(q, x) == Some(false)
}
