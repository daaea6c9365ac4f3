//! Bound rows made common to the parts of a loop's union.
//!
//! A loop over a union of parts runs from the least of the parts' lower
//! bounds to the greatest of their upper bounds. A part confined by its
//! equalities on the outer dimensions (e.g. `t0 = 0 and 0 <= t1 <= 3`
//! beside `t0 = 4q and t0 <= t1 <= t0 + 3`) gives a bound (`0`) that is
//! only tight where the part has points: elsewhere it loosens the loop
//! (`min(t0, 0)` runs from 0 at every `t0`). Rewritten with the part's
//! equalities into another part's row (`t1 >= 0` is `t1 >= t0` where
//! `t0 = 0`), the bounds coincide and the loop is as tight as each part.

use presburger::{BasicMap, Int};

use super::context::with_locals;

/// The parts with each inequality on column `col` that equals another
/// part's inequality on the part's own points (the difference is a
/// combination of the part's equalities over the constant, parameters and
/// dimensions before `col`) replaced by that inequality: the same sets,
/// written with shared bound rows.
pub(super) fn unify_bound_rows(parts: &[BasicMap], col: usize) -> Vec<BasicMap> {
    if parts.len() < 2 {
        return parts.to_vec();
    }
    let mut out = Vec::with_capacity(parts.len());
    for (q, b) in parts.iter().enumerate() {
        let basis = outer_equalities(b, col);
        if basis.is_empty() {
            out.push(b.clone());
            continue;
        }
        let mut changed = false;
        let mut rows: Vec<(bool, Vec<Int>)> = b.eqs().iter().map(|r| (true, r.to_vec())).collect();
        for r in b.ineqs() {
            let mut row = r.to_vec();
            if !r[col].is_zero() && plain_from(r, col) {
                let other = parts
                    .iter()
                    .enumerate()
                    .filter(|&(p, _)| p != q)
                    .flat_map(|(_, o)| o.ineqs().iter())
                    .find(|s| {
                        plain_from(s, col)
                            && s[col] == r[col]
                            && s[..col] != r[..col]
                            && in_span(&basis, &difference(r, s, col))
                    });
                if let Some(s) = other {
                    row[..col].clone_from_slice(&s[..col]);
                    changed = true;
                }
            }
            rows.push((false, row));
        }
        out.push(if changed {
            with_locals(b, &rows)
        } else {
            b.clone()
        });
    }
    out
}

/// Whether the row has no coefficient past column `col` (the inner
/// dimensions, projected out at this level, and the locals).
fn plain_from(r: &[Int], col: usize) -> bool {
    r[col + 1..].iter().all(Int::is_zero)
}

/// `r - s` on the first `col` columns.
fn difference(r: &[Int], s: &[Int], col: usize) -> Vec<Int> {
    r[..col].iter().zip(&s[..col]).map(|(x, y)| x - y).collect()
}

/// The equalities of `b` over the first `col` columns only (constant,
/// parameters, outer dimensions), in echelon form: each row's leading
/// (last non-zero) column is zero in the rows after it.
fn outer_equalities(b: &BasicMap, col: usize) -> Vec<Vec<Int>> {
    let mut basis: Vec<Vec<Int>> = Vec::new();
    for e in b.eqs() {
        if e[col..].iter().any(|v| !v.is_zero()) {
            continue;
        }
        let v = reduce(&basis, e[..col].to_vec());
        if v.iter().any(|x| !x.is_zero()) {
            basis.push(v);
        }
    }
    basis
}

/// `v` reduced by the echelon rows: zero exactly when `v` is a rational
/// combination of them.
fn reduce(basis: &[Vec<Int>], mut v: Vec<Int>) -> Vec<Int> {
    for e in basis {
        let Some(p) = e.iter().rposition(|x| !x.is_zero()) else {
            continue;
        };
        if v[p].is_zero() {
            continue;
        }
        // v := e[p]·v - v[p]·e (column p cleared)
        let (a, c) = (e[p].clone(), v[p].clone());
        v = v
            .iter()
            .zip(e)
            .map(|(x, y)| &(&a * x) - &(&c * y))
            .collect();
        let g = presburger::int::gcd_slice(&v);
        if !g.is_zero() && !g.is_one() {
            for x in v.iter_mut() {
                *x = x.div_exact(&g);
            }
        }
    }
    v
}

/// Whether `v` is a rational combination of the echelon rows.
fn in_span(basis: &[Vec<Int>], v: &[Int]) -> bool {
    v.iter().all(Int::is_zero) || reduce(basis, v.to_vec()).iter().all(Int::is_zero)
}

#[cfg(test)]
mod tests {
    use super::*;
    use presburger::Map;

    fn parts(text: &str) -> Vec<BasicMap> {
        let m: Map = text.parse().unwrap();
        m.basic_maps().to_vec()
    }

    #[test]
    fn a_part_fixed_on_the_outer_dimension_takes_the_other_parts_rows() {
        let p = parts("[n] -> { [a, b] : a = 0 and 0 <= b <= 3 and b < n; [a, b] : a >= 4 and a <= b <= a + 3 }");
        // columns: constant, n, a, b
        let u = unify_bound_rows(&p, 3);
        for (x, y) in p.iter().zip(&u) {
            let (x, y) = (Map::from_basic(x.clone()), Map::from_basic(y.clone()));
            assert!(x.is_equal(&y).unwrap(), "{x} vs {y}");
        }
        let heads: Vec<Vec<i64>> = u[0]
            .ineqs()
            .iter()
            .map(|r| r[..4].iter().map(|v| v.to_i64().unwrap()).collect())
            .collect();
        assert!(heads.contains(&vec![0, 0, -1, 1]), "{heads:?}");
        assert!(heads.contains(&vec![3, 0, 1, -1]), "{heads:?}");
        // `b < n` has no partner: unchanged
        assert!(heads.contains(&vec![-1, 1, 0, -1]), "{heads:?}");
    }

    #[test]
    fn unified_parts_are_the_same_sets() {
        // random parts: some fixed on the outer dimension (a = k or
        // a = 2b-free combinations), bounds on b from a small menu
        let mut seed = 7u64;
        let mut pick = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as i64
        };
        let menu = [
            "b >= a",
            "b <= a + 3",
            "b >= 2a - 1",
            "b <= n",
            "b >= 0",
            "b <= 5",
            "b >= a - n",
        ];
        for _ in 0..60 {
            let mut text = Vec::new();
            for _ in 0..2 + pick(3) {
                let mut cons = Vec::new();
                match pick(3) {
                    0 => cons.push(format!("a = {}", pick(4))),
                    1 => cons.push(format!("a = n + {}", pick(3))),
                    _ => cons.push(format!("0 <= a <= {}", 2 + pick(4))),
                }
                for _ in 0..1 + pick(3) {
                    cons.push(menu[pick(menu.len() as u64) as usize].to_string());
                }
                text.push(format!("[a, b] : {}", cons.join(" and ")));
            }
            let src = format!("[n] -> {{ {} }}", text.join("; "));
            let p = parts(&src);
            let u = unify_bound_rows(&p, 3);
            assert_eq!(p.len(), u.len());
            for (x, y) in p.iter().zip(&u) {
                let (x, y) = (Map::from_basic(x.clone()), Map::from_basic(y.clone()));
                assert!(x.is_equal(&y).unwrap(), "{src}: {x} vs {y}");
            }
        }
    }
}
