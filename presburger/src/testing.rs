//! A deliberately simple brute-force oracle for tests.
//!
//! Membership of a point is decided without any solver: defined locals are
//! computed from their definitions, and existentials are searched in a box.
//! Use it only on small sets whose existentials have small witnesses; it is
//! the independent check that property tests compare the engine against.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::map::Map;

/// Search box for existentials: values tried are `-bound..=bound`.
pub const EXIST_BOUND: i64 = 24;

fn eval(row: &[Int], vals: &[Int]) -> Int {
    let mut v = row[0].clone();
    for (a, x) in row[1..].iter().zip(vals) {
        if !a.is_zero() {
            v.add_mul(a, x);
        }
    }
    v
}

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

/// Brute-force membership of `(params, in, out)` in a basic map.
/// Requires div definitions to refer only to earlier locals.
pub fn basic_contains(b: &BasicMap, point: &[Int]) -> bool {
    let mut vals = point.to_vec();
    search(b, &mut vals, 0)
}

/// Brute-force membership in a map.
pub fn contains(m: &Map, point: &[Int]) -> bool {
    m.basic_maps().iter().any(|b| basic_contains(b, point))
}

/// All points of the box `[lo, hi]^n` (n = number of params and dims), in order.
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

/// The constraints over `i`, `j` that the property tests' pools start from
/// (bounds, a diagonal, a skewed bound, two equalities); each test appends
/// its own with [`pool_with`].
pub const BASE_POOL: [&str; 9] = [
    "i >= -3",
    "i <= 4",
    "j >= -2",
    "j <= 3",
    "i + j >= 0",
    "i - j <= 2",
    "2i + j <= 5",
    "i = j",
    "i = 2",
];

/// [`BASE_POOL`] followed by `extra`.
pub fn pool_with(extra: &[&'static str]) -> Vec<&'static str> {
    BASE_POOL.iter().chain(extra).copied().collect()
}

/// A union of 2-dimensional sets for property tests: one disjunct per entry
/// of `disjuncts`, each the conjunction of the chosen constraints of `pool`
/// (over `i`, `j`) inside the box `-6 <= i, j <= 6`, so that brute force over
/// [`box_points`]`(2, -7, 7)` is exact. No disjunct gives the empty set.
pub fn pool_set(pool: &[&str], disjuncts: &[Vec<usize>]) -> String {
    if disjuncts.is_empty() {
        return "{ [i, j] : 1 = 0 }".to_string();
    }
    let parts: Vec<String> = disjuncts
        .iter()
        .map(|d| {
            let mut c = vec!["-6 <= i <= 6".to_string(), "-6 <= j <= 6".to_string()];
            c.extend(d.iter().map(|&k| pool[k].to_string()));
            format!("[i, j] : {}", c.join(" and "))
        })
        .collect();
    format!("{{ {} }}", parts.join("; "))
}

/// `a ⊆ b` checked point by point on the box `-7..=7` of two dimensions
/// (which covers every set of [`pool_set`]).
pub fn pool_subset(a: &Map, b: &Map) -> bool {
    box_points(2, -7, 7)
        .iter()
        .all(|p| !contains(a, p) || contains(b, p))
}
