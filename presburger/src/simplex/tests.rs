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
        integer_sample(1, &[], &[r(&[-1, 2]), r(&[1, -2])]).unwrap(),
        None
    );
    // 2x = 3y + 1, 0 <= x, y <= 5
    let p = integer_sample(
        2,
        &[r(&[-1, 2, -3])],
        &[r(&[0, 1, 0]), r(&[5, -1, 0]), r(&[0, 0, 1]), r(&[5, 0, -1])],
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
