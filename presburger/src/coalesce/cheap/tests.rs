//! The fast [`normalise`](super::normalise) against its first version
//! (`reference`) and against enumeration on a small box.

use super::{
    drop_parallel_rows, drop_parallel_rows_pairwise, is_normal, kept_rows, normalise, normalised,
    normalised_list, reference, scan_rows, with_scratch, Normal, RowInfo,
};
use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::{normalize_eq, normalize_ineq};
use crate::space::{Space, Tuple};
use proptest::prelude::*;

/// A constraint row `[c, a_1, …, a_d]` from small integers.
fn row(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// The rows' value at `x` (the constant first).
fn value(r: &[Int], x: &[i64]) -> i64 {
    let mut s = r[0].to_i64().unwrap();
    for (a, v) in r[1..].iter().zip(x) {
        s += a.to_i64().unwrap() * v;
    }
    s
}

/// `x` satisfies every row of `b`.
fn contains(b: &BasicMap, x: &[i64]) -> bool {
    b.eqs.iter().all(|r| value(r, x) == 0) && b.ineqs.iter().all(|r| value(r, x) >= 0)
}

/// Every point of `[-w, w]^d`.
fn window(d: usize, w: i64) -> Vec<Vec<i64>> {
    let mut pts = vec![vec![]];
    for _ in 0..d {
        pts = pts
            .into_iter()
            .flat_map(|p| {
                (-w..=w).map(move |v| {
                    let mut q = p.clone();
                    q.push(v);
                    q
                })
            })
            .collect();
    }
    pts
}

/// A disjunct over `d` set dimensions from generated rows: `base` rows,
/// then for each `(k, shift, negate)` in `copies` a copy of base row `k`
/// with its constant moved by `shift`, negated when `negate` (parallel and
/// opposite rows, as unions of the pipeline's operations produce); `bounds`
/// adds `-w <= x_c <= w` rows (at the end, so that box rows follow the rows
/// they imply).
fn disjunct(
    d: usize,
    base: &[(Vec<i64>, i64)],
    copies: &[(usize, i64, bool)],
    eqs: &[(Vec<i64>, i64)],
    bounds: Option<i64>,
) -> BasicMap {
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(d)));
    let full = |(a, c): &(Vec<i64>, i64)| {
        let mut v = vec![*c];
        v.extend(a.iter().take(d));
        row(&v)
    };
    for r in base {
        b.ineqs.push(full(r));
    }
    for &(k, shift, negate) in copies {
        let Some(r) = base.get(k) else { continue };
        let mut v = full(r);
        if negate {
            v.iter_mut().for_each(|x| *x = -&*x);
        }
        v[0] = &v[0] + &Int::from(shift);
        b.ineqs.push(v);
    }
    for e in eqs {
        b.eqs.push(full(e));
    }
    if let Some(w) = bounds {
        for c in 1..=d {
            let mut lo = vec![0; d + 1];
            lo[0] = w;
            lo[c] = 1;
            let mut hi = vec![0; d + 1];
            hi[0] = w;
            hi[c] = -1;
            b.ineqs.push(row(&lo));
            b.ineqs.push(row(&hi));
        }
    }
    b
}

fn rows_strategy(n: usize) -> impl Strategy<Value = Vec<(Vec<i64>, i64)>> {
    prop::collection::vec((prop::collection::vec(-3i64..=3, 3), -6i64..=6), 0..n)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Same rows in the same order as the reference, or empty where the
    /// reference kept rows that have no point (the fast version tests the
    /// tightest row of each side of an opposite pair); and the result has
    /// the points of the input on a window around the box.
    #[test]
    fn fast_normalisation_is_the_reference(
        d in 1usize..=3,
        base in rows_strategy(7),
        copies in prop::collection::vec((0usize..7, -3i64..=3, any::<bool>()), 0..5),
        eqs in rows_strategy(2),
        bounds in prop::option::of(1i64..=3),
    ) {
        let b = disjunct(d, &base, &copies, &eqs, bounds);
        // the check alone decides as the normalisation does
        prop_assert_eq!(is_normal(&b), matches!(normalised(&b), Normal::Same), "{:?}", b);
        let mut fast = b.clone();
        let mut slow = b.clone();
        let kept = normalise(&mut fast);
        let kept_slow = reference::normalise(&mut slow);
        if kept {
            prop_assert!(kept_slow, "{:?}: found empty by the reference only", b);
            prop_assert_eq!(&fast.eqs, &slow.eqs);
            prop_assert_eq!(&fast.ineqs, &slow.ineqs);
        } else if kept_slow {
            prop_assert!(slow.is_empty().unwrap(), "{:?} found empty, reference {:?}", b, slow);
        }
        // enumeration: with bounds the window holds every point
        let w = bounds.unwrap_or(3) + 2;
        for x in window(d, w) {
            prop_assert_eq!(kept && contains(&fast, &x), contains(&b, &x), "{:?} at {:?}", b, x);
        }
    }
}

/// `b` with rows in fresh storage: no mark, shared with nothing.
fn unshared(b: &BasicMap) -> BasicMap {
    let mut c = b.clone();
    c.eqs = c.eqs.to_vec().into();
    c.ineqs = c.ineqs.to_vec().into();
    c
}

/// `coalesce` of one disjunct as the plain normalisation of a fresh copy
/// (the oracle: no shared rows, no mark).
fn coalesce_oracle(b: &BasicMap) -> Vec<(Vec<Vec<Int>>, Vec<Vec<Int>>)> {
    let mut c = unshared(b);
    if normalise(&mut c) {
        vec![(c.eqs.to_vec(), c.ineqs.to_vec())]
    } else {
        vec![]
    }
}

fn parts(m: &crate::Map) -> Vec<(Vec<Vec<Int>>, Vec<Vec<Int>>)> {
    m.parts
        .iter()
        .map(|b| (b.eqs.to_vec(), b.ineqs.to_vec()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Coalescing one disjunct again (the rows marked normal by the first
    /// call are returned shared), coalescing its result, and coalescing a
    /// copy written after the mark (one row changed or added) all give the
    /// plain normalisation of a fresh copy; and the input is left as it was.
    #[test]
    fn kept_normal_marks_are_the_plain_normalisation(
        d in 1usize..=3,
        base in rows_strategy(6),
        copies in prop::collection::vec((0usize..6, -3i64..=3, any::<bool>()), 0..4),
        eqs in rows_strategy(2),
        bounds in prop::option::of(1i64..=3),
        edit in 0usize..4,
        extra in (prop::collection::vec(-3i64..=3, 3), -6i64..=6),
    ) {
        let b = disjunct(d, &base, &copies, &eqs, bounds);
        let before = (b.eqs.to_vec(), b.ineqs.to_vec());
        let m = crate::Map::from_basic(b.clone());
        let want = coalesce_oracle(&b);
        let first = m.coalesce().unwrap();
        prop_assert_eq!(parts(&first), want.clone());
        let again = m.coalesce().unwrap();
        prop_assert_eq!(parts(&again), want.clone());
        prop_assert_eq!(parts(&again.coalesce().unwrap()), parts(&first.coalesce().unwrap()));
        prop_assert_eq!((m.parts[0].eqs.to_vec(), m.parts[0].ineqs.to_vec()), before);
        // a copy of the (possibly marked) input, then written
        let mut c = m.parts[0].clone();
        let mut r = vec![extra.1];
        r.extend(extra.0.iter().take(d));
        let r = row(&r);
        match edit {
            0 => c.ineqs.push(r),
            1 => c.eqs.push(r),
            2 if !c.ineqs.is_empty() => {
                let k = c.ineqs.len() - 1;
                c.ineqs.set(k, r);
            }
            _ => c.ineqs.iter_mut().for_each(|x| x.iter_mut().for_each(|v| *v = &*v * &Int::from(2))),
        }
        let want_c = coalesce_oracle(&c);
        let mc = crate::Map::from_basic(c);
        prop_assert_eq!(parts(&mc.coalesce().unwrap()), want_c.clone());
        prop_assert_eq!(parts(&mc.coalesce().unwrap()), want_c);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// Map construction from given disjuncts (the parser's) marks a
    /// disjunct normal exactly when the normalisation of a fresh copy
    /// leaves it as it is, else keeps the normalised rows on a map of that
    /// one disjunct, keeps its rows as given, and coalescing it then gives
    /// the plain normalisation of a fresh copy; the same for the map read
    /// back from its printed form.
    #[test]
    fn construction_marks_exactly_the_normal_disjuncts(
        d in 1usize..=3,
        base in rows_strategy(6),
        copies in prop::collection::vec((0usize..6, -3i64..=3, any::<bool>()), 0..4),
        eqs in rows_strategy(2),
        bounds in prop::option::of(1i64..=3),
    ) {
        let b = disjunct(d, &base, &copies, &eqs, bounds);
        let built = crate::Map::from_disjuncts(b.space.clone(), vec![b.clone()]).unwrap();
        let text = built.to_string();
        let read: crate::Map = text.parse().unwrap();
        for (m, what) in [(&built, "built"), (&read, "read")] {
            for p in &m.parts {
                let same = matches!(normalised(&unshared(p)), Normal::Same);
                prop_assert_eq!(super::known_normal(p), same, "{} {}: {:?}", what, text, p);
            }
            if m.parts.len() == 1 {
                let p = &m.parts[0];
                // a map of one disjunct the normalisation changes keeps the
                // normalised rows from its construction (which coalescing
                // then takes: the comparison with the oracle below)
                let kept = crate::coalesce::CoalesceMemo::get_one(m, p).is_some();
                prop_assert_eq!(kept, !super::known_normal(p), "{} {}: {:?}", what, text, p);
                prop_assert_eq!(parts(&m.coalesce().unwrap()), coalesce_oracle(p), "{} {}", what, text);
            }
        }
        // the rows as given (the shallow emptiness test may leave the disjunct out)
        if let Some(p) = built.parts.first() {
            prop_assert_eq!((p.eqs.to_vec(), p.ineqs.to_vec()), (b.eqs.to_vec(), b.ineqs.to_vec()));
        }
    }
}

#[test]
fn a_tighter_row_after_a_merged_copy_is_tested_against_the_opposite_side() {
    // x - y + 5 >= 0, -x + y - 3 >= 0, x - y + 1 >= 0: y - x in [3, 1]
    let b = disjunct(
        2,
        &[(vec![1, -1], 5), (vec![-1, 1], -3)],
        &[(0, -4, false)],
        &[],
        None,
    );
    let mut fast = b.clone();
    assert!(!normalise(&mut fast));
    let mut slow = b.clone();
    assert!(reference::normalise(&mut slow), "the reference misses it");
    assert!(b.is_empty().unwrap());
}

#[test]
fn more_rows_and_columns_than_the_inline_buffers() {
    // 40 columns, each bounded in [0, 1], and rows over two of them that the
    // box implies (dropped) or not (kept), each written twice
    let d = 40;
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(d)));
    for c in 1..=d {
        let mut lo = vec![0; d + 1];
        lo[c] = 1;
        let mut hi = vec![0; d + 1];
        hi[0] = 1;
        hi[c] = -1;
        b.ineqs.push(row(&lo));
        b.ineqs.push(row(&hi));
    }
    for c in 1..d {
        for k in [2, 1] {
            let mut r = vec![0; d + 1];
            r[0] = k;
            r[c] = -1;
            r[c + 1] = -1;
            b.ineqs.push(row(&r));
        }
    }
    let mut fast = b.clone();
    let mut slow = b.clone();
    assert!(normalise(&mut fast));
    assert!(reference::normalise(&mut slow));
    assert_eq!(fast.ineqs, slow.ineqs);
    // the box rows and one (the tighter) of each pair `x_c + x_{c+1} <= 1`
    assert_eq!(fast.ineqs.len(), 2 * d + (d - 1));
}

#[test]
fn columns_beyond_the_bound_masks_are_read_in_full() {
    // 70 columns (the masks of bounded columns hold 64): column c bounded
    // in [0, 1] for odd c only, rows over pairs of columns on both sides of
    // the 64th, implied by the box (dropped), contradicted by it (empty) or
    // neither (kept), as the reference decides
    let d = 70;
    let base = || {
        let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(d)));
        for c in (1..=d).step_by(2) {
            let mut lo = vec![0; d + 1];
            lo[c] = 1;
            let mut hi = vec![0; d + 1];
            hi[0] = 1;
            hi[c] = -1;
            b.ineqs.push(row(&lo));
            b.ineqs.push(row(&hi));
        }
        b
    };
    let pair = |k: i64, a: usize, b: usize| {
        let mut r = vec![0; d + 1];
        r[0] = k;
        r[a] = -1;
        r[b] = -1;
        row(&r)
    };
    for (k, a, b, kept) in [
        (2, 63, 67, Some(false)),
        (2, 61, 63, Some(false)),
        (1, 63, 67, Some(true)),
        (5, 66, 67, Some(true)),
        (-3, 65, 69, None),
        (-3, 3, 69, None),
    ] {
        let mut fast = base();
        fast.ineqs.push(pair(k, a, b));
        let mut slow = fast.clone();
        let n = fast.ineqs.len();
        let ok = normalise(&mut fast);
        assert_eq!(ok, reference::normalise(&mut slow), "{k} {a} {b}");
        assert_eq!(ok, kept.is_some(), "{k} {a} {b}");
        if let Some(kept) = kept {
            assert_eq!(fast.ineqs, slow.ineqs, "{k} {a} {b}");
            assert_eq!(fast.ineqs.len() == n, kept, "{k} {a} {b}");
        }
    }
}

/// The rows' info as `normalise` computes it before dropping parallel rows
/// (the rows gcd-normalised).
fn infos(b: &BasicMap) -> Vec<RowInfo> {
    let mut info = Vec::new();
    assert!(scan_rows(&b.ineqs, &mut info));
    info
}

/// `b` with every row divided by its gcd, `None` if a row has no integer
/// solution.
fn gcd_normalised(b: &BasicMap) -> Option<BasicMap> {
    let mut c = b.clone();
    c.eqs = normalised_list(&b.eqs, normalize_eq)?.into();
    c.ineqs = normalised_list(&b.ineqs, normalize_ineq)?.into();
    Some(c)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// The hash table of `drop_parallel_rows` decides as comparing every
    /// pair (`drop_parallel_rows_pairwise`): same answer, same kept rows,
    /// same constants; on up to about 80 rows (the table on the heap beyond
    /// 32 rows) with many parallel and opposite copies; and the whole
    /// normalisation stays the reference's on such disjuncts.
    #[test]
    fn parallel_rows_by_hash_table_are_the_pairwise_ones(
        d in 1usize..=3,
        base in rows_strategy(40),
        copies in prop::collection::vec((0usize..40, -3i64..=3, any::<bool>()), 0..40),
        eqs in rows_strategy(2),
        bounds in prop::option::of(1i64..=3),
    ) {
        let b = disjunct(d, &base, &copies, &eqs, bounds);
        let g = gcd_normalised(&b);
        prop_assume!(g.is_some());
        let g = g.expect("assumed");
        let (mut fi, mut si) = (infos(&g), infos(&g));
        let ok_fast = drop_parallel_rows(&g.ineqs, &mut fi, &mut Vec::new());
        let ok_slow = drop_parallel_rows_pairwise(&g.ineqs, &mut si);
        prop_assert_eq!(ok_fast, ok_slow, "{:?}", b);
        if ok_fast {
            // the kept rows with their merged constants
            prop_assert_eq!(kept_rows(&g.ineqs, &fi), kept_rows(&g.ineqs, &si), "{:?}", b);
        }
        let mut whole = b.clone();
        let mut refd = b.clone();
        let kept = normalise(&mut whole);
        let kept_ref = reference::normalise(&mut refd);
        if kept {
            prop_assert!(kept_ref);
            prop_assert_eq!(&whole.ineqs, &refd.ineqs);
        } else if kept_ref {
            prop_assert!(refd.is_empty().unwrap());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, failure_persistence: None, ..ProptestConfig::default() })]

    /// The normalisation writes the same rows whether they are shared with
    /// another copy or not, and leaves the other copy as it was; rows it
    /// keeps unchanged stay shared; and `normalised` says `Same` exactly
    /// when `normalise` changes nothing.
    #[test]
    fn shared_and_owned_rows_normalise_alike(
        d in 1usize..=3,
        base in rows_strategy(12),
        copies in prop::collection::vec((0usize..12, -3i64..=3, any::<bool>()), 0..12),
        eqs in rows_strategy(2),
        bounds in prop::option::of(1i64..=3),
    ) {
        let b = disjunct(d, &base, &copies, &eqs, bounds);
        let before = b.ineqs.to_vec();
        let mut shared = b.clone();
        let mut owned = unshared(&b);
        let kept = normalise(&mut shared);
        prop_assert_eq!(kept, normalise(&mut owned));
        prop_assert_eq!(b.ineqs.to_vec(), before.clone());
        if kept {
            prop_assert_eq!(&shared.eqs, &owned.eqs);
            prop_assert_eq!(&shared.ineqs, &owned.ineqs);
            // inequalities written only when they change
            prop_assert_eq!(shared.ineqs.shares(&b.ineqs), shared.ineqs.to_vec() == before);
        }
        let same = kept && shared.eqs.shares(&b.eqs) && shared.ineqs.shares(&b.ineqs);
        prop_assert_eq!(matches!(normalised(&b), Normal::Same), same);
        // the same answer with the per-thread scratch in use (fresh buffers)
        let mut nested = b.clone();
        let kept_nested = with_scratch(|_| normalise(&mut nested));
        prop_assert_eq!(kept_nested, kept);
        if kept {
            prop_assert_eq!(&nested.eqs, &shared.eqs);
            prop_assert_eq!(&nested.ineqs, &shared.ineqs);
        }
    }
}

/// `kept_rows` builds exactly the kept rows, each with its merged constant,
/// in one allocation of the outer list (sized by the kept count, not grown):
/// here 9 rows of which 3 are looser parallel copies.
#[test]
fn kept_rows_are_sized_once_and_take_the_merged_constants() {
    let base: Vec<(Vec<i64>, i64)> = (0..6).map(|k| (vec![1 + k % 3, -(k / 3), 1], k)).collect();
    // copies of rows 0, 2 and 4: two looser (shift > 0), one tighter
    let b = disjunct(
        3,
        &base,
        &[(0, 2, false), (2, 1, false), (4, -3, false)],
        &[],
        None,
    );
    let g = gcd_normalised(&b).expect("no contradiction");
    let mut info = infos(&g);
    assert!(drop_parallel_rows(&g.ineqs, &mut info, &mut Vec::new()));
    let kept = kept_rows(&g.ineqs, &info).expect("copies dropped");
    assert_eq!(kept.len(), info.iter().filter(|i| i.kept).count());
    assert_eq!(kept.as_flat().len(), kept.len() * kept.width());
    let mut slow = b.clone();
    assert!(reference::normalise(&mut slow));
    // (no box here: parallel rows are the only change)
    assert_eq!(kept, slow.ineqs.to_vec());
}
