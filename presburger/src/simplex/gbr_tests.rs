//! Tests of the reduced-basis search (module `gbr`) against enumeration and
//! against plain branch and bound (the [`reference`](super::reference)).

use super::gbr::sample_bounded;
use super::reference::integer_sample_by_branch_and_bound;
use super::search::int_sample;
use super::*;
use crate::budget;
use crate::int::Int;
use crate::matrix::eval;
use proptest::prelude::*;

fn ints(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

/// `sample_bounded` on all variables of a bounded polytope.
fn by_reduced_basis(n: usize, rows: &[Vec<Int>]) -> Option<Vec<Int>> {
    let mut t = Tableau::new(n);
    for r in rows {
        t.add_ineq(r).unwrap();
    }
    if t.is_empty() {
        return None;
    }
    sample_bounded(t, rows, n, &|t: &Tableau| Ok(Some(int_sample(t)))).unwrap()
}

/// `a <= p·x − q·y <= a + k` in the box `0 <= x, y <= b`.
fn slab(p: i64, q: i64, a: i64, k: i64, b: i64) -> Vec<Vec<Int>> {
    vec![
        ints(&[-a, p, -q]),
        ints(&[a + k, -p, q]),
        ints(&[0, 1, 0]),
        ints(&[b, -1, 0]),
        ints(&[0, 0, 1]),
        ints(&[b, 0, -1]),
    ]
}

/// [`slab`] `lo <= p·x − q·y <= lo + k` and also `lo2 <= r·x − s·y <= lo2 + l`:
/// two long thin slabs in the box.
fn slabs(c: [i64; 8], b: i64) -> Vec<Vec<Int>> {
    let [p, q, lo, k, r, s, lo2, l] = c;
    let mut rows = slab(p, q, lo, k, b);
    rows.push(ints(&[-lo2, r, -s]));
    rows.push(ints(&[lo2 + l, -r, s]));
    rows
}

/// Exact emptiness of a 2-d polytope: for each `x` in `0..=b`, the `y`
/// interval of every row.
fn has_point_2d(rows: &[Vec<Int>], b: i64) -> bool {
    (0..=b).any(|x| {
        let (mut lo, mut hi) = (i64::MIN, i64::MAX);
        for r in rows {
            let (c, a, e) = (
                r[0].to_i64().unwrap(),
                r[1].to_i64().unwrap(),
                r[2].to_i64().unwrap(),
            );
            // c + a·x + e·y >= 0
            let v = c + a * x;
            match e.signum() {
                1 => lo = lo.max((-v).div_euclid(e) + ((-v).rem_euclid(e) != 0) as i64),
                -1 => hi = hi.min(v.div_euclid(-e)),
                _ if v < 0 => return false,
                _ => {}
            }
        }
        lo <= hi
    })
}

fn sat(rows: &[Vec<Int>], p: &[Int]) -> bool {
    rows.iter().all(|r| !eval(r, p).is_neg())
}

#[test]
fn long_thin_slab_is_decided_quickly() {
    // 100001·x − 100000·y = v needs x ≡ v (mod 100000): for v in
    // [60000, 60001] no x of the box [0, 50000] does, yet every line x = c of
    // the box meets the rational slab, so branch and bound on the axes would
    // visit about 10^5 nodes; the reduced basis finds the direction x − y
    let (p, q, b) = (100_001, 100_000, 50_000);
    let empty = slab(p, q, 60_000, 1, b);
    let got = budget::with_budget(200_000, || {
        integer_sample(2, &crate::Rows::new(), &crate::Rows::from(&empty[..]))
    });
    assert_eq!(got, Ok(None));
    assert_eq!(by_reduced_basis(2, &empty), None);
    // plain branch and bound does not finish within the same budget
    let slow = budget::with_budget(200_000, || {
        integer_sample_by_branch_and_bound(2, &crate::Rows::new(), &crate::Rows::from(&empty[..]))
    });
    assert_eq!(slow, Err(crate::error::Error::BudgetExceeded));
    // v = 30000 at x = y = 30000
    let full = slab(p, q, 30_000, 1, b);
    let got = budget::with_budget(200_000, || {
        integer_sample(2, &crate::Rows::new(), &crate::Rows::from(&full[..]))
    })
    .unwrap();
    assert!(sat(&full, &got.unwrap()));
    // the same in 3-d with a free third coordinate (an unbounded direction)
    let mut free: Vec<Vec<Int>> = empty
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.push(Int::ZERO);
            r
        })
        .collect();
    free.push(ints(&[0, 0, 0, 1]));
    let got = budget::with_budget(200_000, || {
        integer_sample(3, &crate::Rows::new(), &crate::Rows::from(&free[..]))
    });
    assert_eq!(got, Ok(None));
}

#[test]
fn reduced_directions_need_big_integers() {
    // coefficients near 2^62: the widths overflow i64 and go to big integers
    let m = (1i64 << 62) - 1;
    let rows = vec![
        ints(&[0, m, -(m - 1)]),
        ints(&[1, -m, m - 1]),
        ints(&[0, 1, 0]),
        ints(&[m, -1, 0]),
        ints(&[0, 0, 1]),
        ints(&[m, 0, -1]),
    ];
    // m·x − (m − 1)·y in [0, 1] with x = y: x in [0, 1] satisfies it
    let p = by_reduced_basis(2, &rows).unwrap();
    assert!(sat(&rows, &p));
    let mut empty = rows.clone();
    empty[0] = ints(&[-1, m, -(m - 1)]);
    empty[1] = ints(&[1, -m, m - 1]);
    empty.push(ints(&[-2, 1, 0]));
    // m·x − (m − 1)·y = 1 means y = 1 − m·(x − y): in the box only
    // x = y = 1, which x >= 2 excludes
    assert_eq!(by_reduced_basis(2, &empty), None);
}

#[test]
fn budget_exhaustion_is_an_error() {
    let rows = slab(100_001, 100_000, 60_000, 1, 50_000);
    let got = budget::with_budget(50, || {
        integer_sample(2, &crate::Rows::new(), &crate::Rows::from(&rows[..]))
    });
    assert_eq!(got, Err(crate::error::Error::BudgetExceeded));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Two random thin slabs in a box: the reduced-basis search agrees with
    /// enumeration, and so does `integer_sample`.
    #[test]
    fn thin_slabs_match_enumeration(
        p in 2i64..200, q in 2i64..200, lo in -300i64..300, k in 0i64..3,
        r in -200i64..200, s in -200i64..200, lo2 in -300i64..300, l in 0i64..4,
        b in 1i64..60,
    ) {
        let rows = slabs([p, q, lo, k, r, s, lo2, l], b);
        let any = has_point_2d(&rows, b);
        match by_reduced_basis(2, &rows) {
            Some(pt) => prop_assert!(sat(&rows, &pt), "{:?} fails", pt),
            None => prop_assert!(!any),
        }
        match integer_sample(2, &crate::Rows::new(), &crate::Rows::from(&rows[..])).unwrap() {
            Some(pt) => prop_assert!(sat(&rows, &pt)),
            None => prop_assert!(!any),
        }
    }

    /// Random polytopes in the box `[-3, 3]^3`: the reduced-basis search
    /// alone (no branch and bound first) agrees with enumeration.
    #[test]
    fn reduced_basis_matches_enumeration_3d(
        coeffs in proptest::collection::vec(-9i64..9, 15),
        consts in proptest::collection::vec(-12i64..12, 5),
    ) {
        let mut rows = Vec::new();
        for i in 0..5 {
            let mut row = vec![consts[i]];
            row.extend(&coeffs[3 * i..3 * i + 3]);
            rows.push(ints(&row));
        }
        for v in 0..3 {
            for sgn in [1, -1] {
                let mut row = vec![3, 0, 0, 0];
                row[1 + v] = -sgn;
                rows.push(ints(&row));
            }
        }
        let rng = || -3i64..=3;
        let any = rng().any(|x| rng().any(|y| rng().any(|z| sat(&rows, &ints(&[x, y, z])))));
        match by_reduced_basis(3, &rows) {
            Some(pt) => prop_assert!(sat(&rows, &pt), "{:?} fails", pt),
            None => prop_assert!(!any),
        }
    }

    /// In three dimensions, with an equality and unbounded directions: the
    /// same emptiness as plain branch and bound (which terminates on these
    /// small boxes).
    #[test]
    fn agrees_with_branch_and_bound(
        coeffs in proptest::collection::vec(-40i64..40, 12),
        consts in proptest::collection::vec(-60i64..60, 4),
        eq in proptest::collection::vec(-5i64..5, 4),
        bounded in 1usize..=3,
        b in 1i64..25,
    ) {
        let mut rows = Vec::new();
        for i in 0..4 {
            let mut row = vec![consts[i]];
            row.extend(&coeffs[3 * i..3 * i + 3]);
            rows.push(ints(&row));
        }
        // only the first `bounded` variables get box bounds
        for v in 0..bounded {
            for sgn in [1, -1] {
                let mut row = vec![b, 0, 0, 0];
                row[1 + v] = -sgn;
                rows.push(ints(&row));
            }
        }
        let eqs = vec![ints(&eq)];
        let fast = integer_sample(3, &crate::Rows::from(&eqs[..]), &crate::Rows::from(&rows[..]));
        let slow = integer_sample_by_branch_and_bound(3, &crate::Rows::from(&eqs[..]), &crate::Rows::from(&rows[..]));
        match (fast, slow) {
            (Ok(f), Ok(s)) => {
                prop_assert_eq!(f.is_some(), s.is_some());
                if let Some(pt) = f {
                    prop_assert!(sat(&rows, &pt) && eval(&eqs[0], &pt).is_zero());
                }
            }
            // an unbounded slice without interior is refused by both alike
            (Err(_), Err(_)) => {}
            (f, s) => prop_assert!(false, "{:?} vs {:?}", f, s),
        }
    }
}
