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
