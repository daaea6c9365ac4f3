//! Syntactic containment of two disjuncts whose locals are numbered
//! differently: `p ⊆ q` proved by a map `σ` from `q`'s locals to `p`'s
//! under which every row of `q` follows from a single row of `p`.
//!
//! The pipeline's unions repeat a disjunct with its existentials renamed
//! or with more existentials and rows (e.g. `trace-coalesce-196`: the
//! second disjunct is the first's rows plus copies of them over a new
//! existential). The exact inclusion test over existentials costs a
//! difference and a parametric division search; this one reads rows.
//!
//! Why it is exact: for `x ∈ p` with locals `l` satisfying `p`'s rows, put
//! `u_j = l_σ(j)` for `q`'s locals. A row `r` of `q` at `(x, u)` equals the
//! row `r'` at `(x, l)`, where `r'` has `r`'s constant and variable columns
//! and `r_j` added to column `σ(j)` for each local `j` (`σ` need not be
//! injective). When `r'` follows from one row of `p` (as in
//! [`syntactically_contains`](crate::syntactic::syntactically_contains):
//! same coefficients and a constant no larger, or an equality of `p` up to
//! sign), `r(x, u) ≥ 0` (or `= 0`), so `x ∈ q` (the constraints alone
//! define a basic map; division definitions are annotations).
//!
//! `σ` is searched depth first over `q`'s locals, checking each row as
//! soon as its locals are mapped, for at most [`MAX_NODES`] assignments.

use crate::basic::BasicMap;
use crate::int::Int;

/// Assignments of one local tried per containment question.
const MAX_NODES: usize = 256;

/// True if `p ⊆ q` is proved by a renaming of `q`'s locals onto `p`'s (see
/// the [module documentation](self)); `false` means "not proved".
pub(super) fn contains_renamed(q: &BasicMap, p: &BasicMap) -> bool {
    if !crate::map::same_params(&q.space.params, &p.space.params)
        || !q.space.tuples_match(&p.space)
        || q.space.n_vars() != p.space.n_vars()
    {
        return false;
    }
    let nv = 1 + q.space.n_vars();
    let (mq, mp) = (q.divs.len(), p.divs.len());
    // each row of `q` with the last local it uses (`None`: no local)
    let last_local = |r: &[Int]| (0..mq).rev().find(|&j| !r[nv + j].is_zero());
    let rows: Vec<(&[Int], bool, Option<usize>)> = q
        .eqs
        .iter()
        .map(|r| (&r[..], true))
        .chain(q.ineqs.iter().map(|r| (&r[..], false)))
        .map(|(r, eq)| (r, eq, last_local(r)))
        .collect();
    if mq > 0 && mp == 0 && rows.iter().any(|r| r.2.is_some()) {
        return false;
    }
    let mut sigma = vec![0usize; mq];
    let mut image = vec![Int::ZERO; nv + mp];
    // rows without locals first: they decide most pairs at once
    let holds = |r: &[Int], eq: bool, sigma: &[usize], image: &mut Vec<Int>| {
        remap(r, nv, sigma, image);
        implied(image, eq, p)
    };
    if !rows
        .iter()
        .filter(|r| r.2.is_none())
        .all(|&(r, eq, _)| holds(r, eq, &sigma, &mut image))
    {
        return false;
    }
    if mq == 0 {
        return true;
    }
    // depth-first search over `sigma[0..mq]`
    let mut nodes = 0;
    let mut j = 0;
    sigma[0] = 0;
    loop {
        nodes += 1;
        if nodes > MAX_NODES {
            return false;
        }
        let ok = rows
            .iter()
            .filter(|r| r.2 == Some(j))
            .all(|&(r, eq, _)| holds(r, eq, &sigma[..=j], &mut image));
        if ok && j + 1 == mq {
            return true;
        }
        if ok {
            j += 1;
            sigma[j] = 0;
            continue;
        }
        // next candidate for `j`, backtracking over exhausted locals
        loop {
            sigma[j] += 1;
            if sigma[j] < mp {
                break;
            }
            if j == 0 {
                return false;
            }
            j -= 1;
        }
    }
}

/// `image := r` with the local columns of `q` moved onto `p`'s by `sigma`
/// (coefficients of locals mapped to one local added); `sigma` covers the
/// locals `r` uses.
fn remap(r: &[Int], nv: usize, sigma: &[usize], image: &mut [Int]) {
    for (d, s) in image.iter_mut().zip(&r[..nv]) {
        d.clone_from(s);
    }
    for d in image[nv..].iter_mut() {
        *d = Int::ZERO;
    }
    for (j, &t) in sigma.iter().enumerate() {
        let a = &r[nv + j];
        if !a.is_zero() {
            image[nv + t] = &image[nv + t] + a;
        }
    }
}

/// The row `r` (an equality when `eq`) follows from a single row of `p`
/// (as in `syntactically_contains`).
fn implied(r: &[Int], eq: bool, p: &BasicMap) -> bool {
    let opposite = |a: &[Int], b: &[Int]| a.iter().zip(b).all(|(x, y)| (x + y).is_zero());
    let constant = r[1..].iter().all(Int::is_zero);
    if eq {
        return (constant && r[0].is_zero()) || p.eqs.iter().any(|f| &f[..] == r || opposite(f, r));
    }
    (constant && !r[0].is_neg())
        || p.ineqs.iter().any(|f| f[1..] == r[1..] && f[0] <= r[0])
        || p.eqs.iter().any(|f| {
            (f[1..] == r[1..] && f[0] <= r[0]) || (opposite(&f[1..], &r[1..]) && -&f[0] <= r[0])
        })
}

/// The disjuncts of `parts` without those proved contained in another by
/// [`contains_renamed`] (of two proved equal, the first stays), in order;
/// `None` if none is dropped. Only for a few disjuncts with locals (the
/// disjuncts without locals are compared syntactically later, at no cost).
pub(super) fn drop_renamed_contained(parts: &[BasicMap]) -> Option<Vec<BasicMap>> {
    const MAX_PARTS: usize = 8;
    if parts.len() < 2 || parts.len() > MAX_PARTS || parts.iter().all(|b| b.divs.is_empty()) {
        return None;
    }
    let mut keep: Vec<usize> = Vec::with_capacity(parts.len());
    let mut dropped = false;
    for (i, p) in parts.iter().enumerate() {
        if keep.iter().any(|&k| contains_renamed(&parts[k], p)) {
            dropped = true;
            continue;
        }
        let before = keep.len();
        keep.retain(|&k| !contains_renamed(p, &parts[k]));
        dropped |= keep.len() != before;
        keep.push(i);
    }
    dropped.then(|| keep.into_iter().map(|k| parts[k].clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::space::{Space, Tuple};
    use proptest::prelude::*;

    fn part(text: &str) -> BasicMap {
        let m: Map = text.parse().unwrap();
        assert_eq!(m.parts.len(), 1, "{text}");
        m.parts[0].clone()
    }

    /// Every point of `p` in the box `-6..=6` (2 dimensions) is in `q`.
    fn subset_on_box(p: &BasicMap, q: &BasicMap) -> bool {
        for i in -6..=6 {
            for j in -6..=6 {
                let x = [Int::from(i), Int::from(j)];
                if p.contains_point(&x).unwrap() && !q.contains_point(&x).unwrap() {
                    return false;
                }
            }
        }
        true
    }

    #[test]
    fn renamed_copies_are_contained() {
        // trace-coalesce-196's shape: the second is the first plus a copy
        // of its rows over a new existential, locals in another order
        let a = part(
            "[n] -> { [i] : exists (e0, e1, e2 : i = 32e2 and 32e1 = e0 and -31 <= i <= n - 2 \
             and n > e0 and i <= e0 + 30 and n >= 2 and e0 >= -30) }",
        );
        let b = part(
            "[n] -> { [i] : exists (e0, e1, e2, e3, e4 : 32e4 = e1 and 32e3 = e0 and i = 32e2 \
             and n > e1 and -31 <= i <= e1 + 30 and i <= n - 2 and e1 >= -30 and n >= 2 \
             and n > e0 and i <= e0 + 30 and e0 >= -30) }",
        );
        assert!(contains_renamed(&a, &b));
        let m = Map::new(a.space.clone(), vec![a.clone(), b.clone()]);
        let kept = drop_renamed_contained(&m.parts).expect("one dropped");
        assert_eq!(kept.len(), 1);
        // the converse is not proved (`b` has rows on e1 that `a` lacks
        // under any renaming... it is in fact equal, but not row for row)
        let c = part("[n] -> { [i] : exists (e : i = 2e and 0 <= i <= n) }");
        assert!(!contains_renamed(&c, &a));
    }

    /// A disjunct over `[i, j]` in `-6..=6` with two existentials `e0, e1`
    /// (plain locals, no definitions): the box rows and the rows
    /// `a·i + b·j + c·e0 + d·e1 + k >= 0` (or `= 0`).
    fn disjunct(rows: &[(i64, i64, i64, i64, i64, bool)]) -> BasicMap {
        let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(2)));
        b.divs = vec![None, None].into();
        let row = |v: [i64; 5]| v.iter().map(|&x| Int::from(x)).collect::<Vec<Int>>();
        for v in [
            [6, 1, 0, 0, 0],
            [6, -1, 0, 0, 0],
            [6, 0, 1, 0, 0],
            [6, 0, -1, 0, 0],
        ] {
            b.ineqs.push(row(v));
        }
        for &(a, bb, c, d, k, eq) in rows {
            let r = row([k, a, bb, c, d]);
            if eq {
                b.eqs.push(r);
            } else {
                b.ineqs.push(r);
            }
        }
        b
    }

    fn rows() -> impl Strategy<Value = Vec<(i64, i64, i64, i64, i64, bool)>> {
        prop::collection::vec(
            (
                -2..=2i64,
                -2..=2i64,
                -2..=2i64,
                -2..=2i64,
                -4..=4i64,
                prop::bool::weighted(0.25),
            ),
            1..4,
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

        /// A proved containment holds on the box (enumeration, the engine's
        /// exact membership); and a disjunct made of another's rows with the
        /// existentials swapped plus more rows is proved contained in it.
        #[test]
        fn renamed_containment_is_exact(rq in rows(), rp in rows(), extra in rows(), pick in prop::collection::vec(0..3usize, 0..4)) {
            let q = disjunct(&rq);
            // `p`: some of `q`'s rows (with e0 and e1 swapped, or both
            // onto e0) and other rows, so that containment is often proved
            let mut rp = rp;
            for (k, &r) in pick.iter().zip(&rq) {
                let (a, b, c, d, c0, eq) = r;
                rp.push(match k { 0 => r, 1 => (a, b, d, c, c0, eq), _ => (a, b, c + d, 0, c0, eq) });
            }
            let p = disjunct(&rp);
            if contains_renamed(&q, &p) {
                prop_assert!(subset_on_box(&p, &q), "{:?} not in {:?}", rp, rq);
            }
            // q's rows with e0 and e1 swapped, and more rows: the renaming
            // (swap) exists and must be found; and it is a subset
            let swapped: Vec<_> = rq.iter().map(|&(a, b, c, d, k, eq)| (a, b, d, c, k, eq)).chain(extra.iter().copied()).collect();
            let s = disjunct(&swapped);
            prop_assert!(contains_renamed(&q, &s), "{:?} in {:?}", swapped, rq);
            prop_assert!(subset_on_box(&s, &q));
        }
    }
}
