//! Tests of the tableau and of integer sampling.

use super::tableau::Bound;
use super::*;
use crate::int::Int;

fn r(v: &[i64]) -> Vec<Int> {
    v.iter().map(|&x| Int::from(x)).collect()
}

#[test]
fn lp_box() {
    let mut t = Tableau::new(2);
    for row in [[0, 1, 0], [5, -1, 0], [0, 0, 1], [7, 0, -1], [-3, 1, 1]] {
        t.add_ineq(&r(&row)).unwrap();
        assert!(t.check());
    }
    assert!(!t.is_empty());
    assert_eq!(
        t.clone().minimize(&r(&[0, 1, 1])).unwrap(),
        Opt::Value(Int::from(3), Int::ONE)
    );
    assert_eq!(
        t.clone().maximize(&r(&[0, 1, 1])).unwrap(),
        Opt::Value(Int::from(12), Int::ONE)
    );
    assert_eq!(
        t.clone().minimize(&r(&[0, 2, -3])).unwrap(),
        Opt::Value(Int::from(-21), Int::ONE)
    );
    t.add_ineq(&r(&[-20, 1, 1])).unwrap();
    assert!(t.is_empty());
}

#[test]
fn equalities_remove_columns() {
    // x + y + z = 6, x - z = 1, 0 <= x, y, z; clones stay independent
    let mut t = Tableau::new(3);
    for row in [[0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]] {
        t.add_ineq(&r(&row)).unwrap();
    }
    t.add_eq(&r(&[-6, 1, 1, 1])).unwrap();
    assert!(t.check());
    t.add_eq(&r(&[-1, 1, 0, -1])).unwrap();
    assert!(t.check() && !t.is_empty());
    assert_eq!(t.ncol(), 1);
    let mut u = t.clone();
    u.add_bound(1, &Int::from(2), Bound::Upper).unwrap();
    assert!(u.check());
    assert_eq!(
        u.clone().maximize(&r(&[0, 1, 0, 0])).unwrap(),
        Opt::Value(Int::from(7), Int::from(2))
    );
    assert_eq!(
        t.clone().maximize(&r(&[0, 1, 0, 0])).unwrap(),
        Opt::Value(Int::from(7), Int::from(2))
    );
    assert_eq!(
        t.clone().minimize(&r(&[0, 0, 1, 0])).unwrap(),
        Opt::Value(Int::ZERO, Int::ONE)
    );
    u.add_bound(2, &Int::from(1), Bound::Lower).unwrap();
    assert!(u.check());
    u.add_bound(0, &Int::from(4), Bound::Lower).unwrap();
    assert!(u.is_empty());
    assert_eq!(
        t.minimize(&r(&[0, 0, 1, 0])).unwrap(),
        Opt::Value(Int::ZERO, Int::ONE)
    );
}

#[test]
fn integer_gap() {
    // 1 <= 2x <= 1 has a rational but no integer solution
    assert_eq!(
        integer_sample(
            1,
            &crate::Rows::new(),
            &vec![r(&[-1, 2]), r(&[1, -2])].into()
        )
        .unwrap(),
        None
    );
    // 2x = 3y + 1, 0 <= x, y <= 5
    let p = integer_sample(
        2,
        &vec![r(&[-1, 2, -3])].into(),
        &vec![r(&[0, 1, 0]), r(&[5, -1, 0]), r(&[0, 0, 1]), r(&[5, 0, -1])].into(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(&p[0] * &Int::from(2), &(&p[1] * &Int::from(3)) + &Int::ONE);
}

#[test]
fn unbounded() {
    let mut t = Tableau::new(1);
    t.add_ineq(&r(&[0, 1])).unwrap();
    assert_eq!(t.maximize(&r(&[0, 1])).unwrap(), Opt::Unbounded);
}

mod brute_force {
    use super::super::*;
    use crate::int::Int;
    use crate::matrix::eval;
    use proptest::prelude::*;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// Every point of the box `[-b, b]^n`.
    fn box_points(n: usize, b: i64) -> Vec<Vec<Int>> {
        let mut out = vec![vec![]];
        for _ in 0..n {
            out = out
                .into_iter()
                .flat_map(|p: Vec<Int>| {
                    (-b..=b).map(move |v| {
                        let mut q = p.clone();
                        q.push(Int::from(v));
                        q
                    })
                })
                .collect();
        }
        out
    }

    fn arb_rows(n: usize, max: usize, c: i64) -> impl Strategy<Value = Vec<Vec<Int>>> {
        proptest::collection::vec(
            (-c..=c, proptest::collection::vec(-3i64..=3, n)).prop_map(|(k, a)| {
                let mut r = vec![k];
                r.extend(a);
                ints(&r)
            }),
            0..=max,
        )
    }

    /// Bounding rows `-b <= x_i <= b`.
    fn bounds(n: usize, b: i64) -> Vec<Vec<Int>> {
        let mut out = Vec::new();
        for i in 0..n {
            for s in [1, -1] {
                let mut r = vec![Int::from(b)];
                r.extend((0..n).map(|j| Int::from(if i == j { s } else { 0 })));
                out.push(r);
            }
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// `integer_sample` on a box agrees with enumeration of the box.
        #[test]
        fn sample_matches_enumeration(
            (n, eqs, mut ineqs) in (1usize..=3)
                .prop_flat_map(|n| (Just(n), arb_rows(n, 1, 4), arb_rows(n, 4, 6))),
        ) {
            ineqs.extend(bounds(n, 3));
            let sat = |p: &[Int]| {
                eqs.iter().all(|r| eval(r, p).is_zero()) && ineqs.iter().all(|r| !eval(r, p).is_neg())
            };
            let any = box_points(n, 3).iter().any(|p| sat(p));
            match integer_sample(n, &crate::Rows::from(&eqs[..]), &crate::Rows::from(&ineqs[..])).unwrap() {
                Some(p) => prop_assert!(sat(&p), "{:?} fails", p),
                None => prop_assert!(!any),
            }
        }

        /// `solve_equalities` describes exactly the integer solutions.
        #[test]
        fn equalities_lattice(n in 1usize..=3, eqs in arb_rows(3, 2, 5)) {
            let eqs: Vec<Vec<Int>> = eqs.into_iter().map(|r| r[..1 + n].to_vec()).collect();
            let sat = |p: &[Int]| eqs.iter().all(|r| eval(r, p).is_zero());
            let sols: Vec<Vec<Int>> = box_points(n, 4).into_iter().filter(|p| sat(p)).collect();
            match solve_equalities(n, &crate::Rows::from(&eqs[..])) {
                None => prop_assert!(sols.is_empty()),
                Some((x0, b)) => {
                    prop_assert!(sat(&x0));
                    let k = b.first().map_or(0, Vec::len);
                    let bm = crate::matrix::Matrix::from_rows(k, &b);
                    // the basis directions stay in the solution set
                    for j in 0..k {
                        let p: Vec<Int> = x0.iter().zip(bm.col(j)).map(|(a, d)| a + &d).collect();
                        prop_assert!(sat(&p));
                    }
                    // and every solution is x0 + B·z for an integer z: B has
                    // full column rank and [B | x - x0] has the same rank and
                    // the same lattice (Hermite form) as B
                    prop_assert_eq!(bm.rank(), k);
                    let hb = bm.hermite().h;
                    for s in &sols {
                        let mut ext = crate::matrix::Matrix::zeros(n, k + 1);
                        for i in 0..n {
                            for j in 0..k {
                                ext[(i, j)] = bm[(i, j)].clone();
                            }
                            ext[(i, k)] = &s[i] - &x0[i];
                        }
                        let he = ext.hermite().h;
                        for i in 0..n {
                            for j in 0..k {
                                prop_assert_eq!(&he[(i, j)], &hb[(i, j)]);
                            }
                            prop_assert!(he[(i, k)].is_zero());
                        }
                    }
                }
            }
        }
    }
}

mod opposite_rows {
    use super::super::sample::{opposite_pairs_by_all_pairs, opposite_pairs_keyed};
    use crate::int::Int;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The keyed search for opposite rows finds the pairs, in the
        /// order, of the comparison of every pair: rows drawn with many
        /// opposite and equal ones, some with coefficients beyond `i64`
        /// or `i64::MIN` (rows without a key).
        #[test]
        fn opposite_pairs_match_all_pairs(
            rows in prop::collection::vec((-3i64..=3, prop::collection::vec(-1i64..=1, 3), 0u8..6), 0..12),
            flips in prop::collection::vec((any::<usize>(), -2i64..=2), 0..8),
        ) {
            let big = Int::from(i64::MAX) * Int::from(4);
            let mut a: Vec<Vec<Int>> = Vec::new();
            for (c, coef, kind) in &rows {
                let mut r = vec![Int::from(*c)];
                r.extend(coef.iter().map(|&x| Int::from(x)));
                match kind {
                    0 => r[1] = big.clone(),
                    1 => r[2] = -&big,
                    2 => r[3] = Int::from(i64::MIN),
                    3 => r[1] = -Int::from(i64::MIN), // beyond i64, the negation of MIN
                    _ => {}
                }
                a.push(r);
            }
            // negated copies of some rows (their constants changed), and plain copies
            for (f, c) in &flips {
                if a.is_empty() {
                    break;
                }
                let r = a[f % a.len()].clone();
                let mut neg: Vec<Int> = r.iter().map(|x| -x).collect();
                neg[0] = Int::from(*c);
                a.push(if c % 2 == 0 { neg } else { r });
            }
            prop_assert_eq!(opposite_pairs_keyed(&a), opposite_pairs_by_all_pairs(&a), "{:?}", a);
        }
    }
}
