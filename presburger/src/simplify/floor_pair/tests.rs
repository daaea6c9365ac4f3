//! The floor-pair rule firing and not firing, each answer compared with
//! brute-force membership of the rows as given (every local searched in a box).

use crate::basic::BasicMap;
use crate::int::Int;
use crate::space::{Space, Tuple};

/// A set of `n` dimensions with `locals` existentials, from rows over
/// `[c | dims | locals]`.
fn set(n: usize, locals: usize, eqs: &[&[i64]], ineqs: &[&[i64]]) -> BasicMap {
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(n)));
    for _ in 0..locals {
        b.add_existential();
    }
    let row = |r: &&[i64]| r.iter().map(|&v| Int::from(v)).collect::<Vec<_>>();
    eqs.iter().for_each(|r| b.add_eq(row(r)));
    ineqs.iter().for_each(|r| b.add_ineq(row(r)));
    b
}

/// Membership by search: every local (definitions ignored: the rows alone
/// define the set) tried in `-LOCAL..=LOCAL`.
fn member(b: &BasicMap, point: &[i64]) -> bool {
    const LOCAL: i64 = 12;
    fn search(b: &BasicMap, vals: &mut Vec<i64>) -> bool {
        if vals.len() == b.row_len() {
            let val = |r: &[Int]| {
                r.iter()
                    .zip(vals.iter())
                    .fold(Int::ZERO, |acc, (c, v)| &acc + &(c * &Int::from(*v)))
            };
            return b.eqs().iter().all(|r| val(r).is_zero())
                && b.ineqs().iter().all(|r| !val(r).is_neg());
        }
        for v in -LOCAL..=LOCAL {
            vals.push(v);
            let ok = search(b, vals);
            vals.pop();
            if ok {
                return true;
            }
        }
        false
    }
    let mut vals = vec![1];
    vals.extend_from_slice(point);
    search(b, &mut vals)
}

/// Simplify `b` and check it against the rows as given on `[-R, R]^n`.
fn simplified(b: &BasicMap) -> BasicMap {
    const R: i64 = 9;
    let mut s = b.clone();
    assert!(s.simplify(), "{b:?} found empty");
    let n = b.space().n_vars();
    let mut p = vec![-R; n];
    loop {
        assert_eq!(
            member(&s, &p),
            member(b, &p),
            "at {p:?}: {b:?} became {s:?}"
        );
        let Some(k) = (0..n).rev().find(|&k| p[k] < R) else {
            break;
        };
        p[k] += 1;
        p[k + 1..].iter_mut().for_each(|v| *v = -R);
    }
    s
}

#[test]
fn tile_pair_is_dropped() {
    // exists q: 4q <= i <= 4q + 3
    let b = simplified(&set(1, 1, &[], &[&[0, 1, -4], &[3, -1, 4]]));
    assert_eq!(b.n_div(), 0);
    assert!(b.ineqs().is_empty() && b.eqs().is_empty(), "{b:?}");
}

#[test]
fn wider_pair_is_dropped() {
    // exists q: 4q <= i <= 4q + 5
    let b = simplified(&set(1, 1, &[], &[&[0, 1, -4], &[5, -1, 4]]));
    assert_eq!(b.n_div(), 0);
    assert!(b.ineqs().is_empty(), "{b:?}");
}

#[test]
fn pair_narrower_than_divisor_is_kept() {
    // exists q: 4q <= i <= 4q + 2 (width d - 2): i mod 4 != 3
    let b = simplified(&set(1, 1, &[], &[&[0, 1, -4], &[2, -1, 4]]));
    assert_eq!(b.n_div(), 1, "{b:?}");
    assert!(!member(&b, &[3]) && member(&b, &[2]));
    // the same with divisor 2 and width 0: i even
    let b = simplified(&set(1, 1, &[], &[&[0, 1, -2], &[0, -1, 2]]));
    assert_eq!(b.n_div(), 1, "{b:?}");
}

#[test]
fn unit_bounds_are_projected() {
    // exists q: 4q <= i <= 4q + 3 and 1 <= q <= 2: 4 <= i <= 11
    let b = simplified(&set(
        1,
        1,
        &[],
        &[&[0, 1, -4], &[3, -1, 4], &[-1, 0, 1], &[2, 0, -1]],
    ));
    assert_eq!(b.n_div(), 0, "{b:?}");
    // a wide pair and unit bounds on both sides: 3q <= i <= 3q + 4, 1 <= q <= 2
    let b = simplified(&set(
        1,
        1,
        &[],
        &[&[0, 1, -3], &[4, -1, 3], &[-1, 0, 1], &[2, 0, -1]],
    ));
    assert_eq!(b.n_div(), 0, "{b:?}");
    assert!(member(&b, &[3]) && member(&b, &[10]) && !member(&b, &[11]));
}

#[test]
fn tile_with_equality_and_implied_bound() {
    // the tile of `for (ii = 0; ii < n; ii += 4) for (i = ii; i < min(ii + 4, n); i++)`:
    // [i, n], e0 = 4e1, 0 <= e0 < n, e0 <= i <= e0 + 3, i < n
    let rows: [&[i64]; 5] = [
        &[0, 0, 0, 1, 0],
        &[-1, 0, 1, -1, 0],
        &[0, 1, 0, -1, 0],
        &[3, -1, 0, 1, 0],
        &[-1, -1, 1, 0, 0],
    ];
    let b = simplified(&set(2, 2, &[&[0, 0, 0, 1, -4]], &rows));
    assert_eq!(b.n_div(), 0, "{b:?}");
    // without `i < n` the bound 4e1 <= n - 1 is not implied: the local stays
    let b = simplified(&set(2, 2, &[&[0, 0, 0, 1, -4]], &rows[..4]));
    assert_eq!(b.n_div(), 1, "{b:?}");
}

#[test]
fn local_in_a_congruence_is_kept() {
    // exists q: i = 2q and 2q <= j <= 2q + 1: i even and i <= j <= i + 1
    let b = simplified(&set(
        2,
        1,
        &[&[0, 1, 0, -2]],
        &[&[0, 0, 1, -2], &[1, 0, -1, 2]],
    ));
    assert_eq!(b.n_div(), 1, "{b:?}");
}

#[test]
fn divisions_only_in_their_pair_are_dropped() {
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(1)));
    b.add_div(vec![Int::ZERO, Int::ONE], Int::from(4));
    let s = simplified(&b);
    assert_eq!(s.n_div(), 0, "{s:?}");
    // floor(i/4) >= 2: i >= 8
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(1)));
    let q = b.add_div(vec![Int::ZERO, Int::ONE], Int::from(4));
    let mut row = vec![Int::ZERO; b.row_len()];
    row[0] = Int::from(-2);
    row[q] = Int::ONE;
    b.add_ineq(row);
    let s = simplified(&b);
    assert_eq!(s.n_div(), 0, "{s:?}");
    assert_eq!(s.ineqs().to_vec(), [vec![Int::from(-8), Int::ONE]]);
    // a division another one's definition uses stays: floor(floor(i/2)/3) >= 1
    let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(1)));
    let q = b.add_div(vec![Int::ZERO, Int::ONE], Int::from(2));
    let mut num = vec![Int::ZERO; b.row_len()];
    num[q] = Int::ONE;
    let r = b.add_div(num, Int::from(3));
    let mut row = vec![Int::ZERO; b.row_len()];
    row[0] = Int::from(-1);
    row[r] = Int::ONE;
    b.add_ineq(row);
    let s = simplified(&b);
    assert!(s.divs().iter().all(Option::is_some), "{s:?}");
}

#[test]
fn big_divisors() {
    // d = 2^70: width d - 1 drops the local, width d - 2 keeps it
    let d: Int = "1180591620717411303424".parse().unwrap();
    for (width, kept) in [(&d - &Int::ONE, 0), (&d - &Int::from(2), 1)] {
        let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(1)));
        b.add_existential();
        b.add_ineq(vec![Int::ZERO, Int::ONE, -&d]);
        b.add_ineq(vec![width, Int::from(-1), d.clone()]);
        assert!(b.simplify());
        assert_eq!(b.n_div(), kept, "{b:?}");
    }
}

/// `implied_by_pair`, which compares each row with the remainder's
/// direction in place, answers as the reference that builds the direction
/// and its negation: on random floor pairs with further bounds made of a
/// multiple of a side plus a multiple of another row (so that the answer is
/// often yes), now and then with entries beyond 64 bits.
#[test]
fn implied_by_pair_is_the_reference() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = |k: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % k
    };
    let huge = Int::from(1i64 << 62);
    let (mut yes, mut no) = (0, 0);
    for round in 0..3000 {
        let dims = 2 + next(2) as usize;
        let n = dims + 2;
        let col = n - 1;
        let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(dims)));
        b.add_existential();
        let small = |next: &mut dyn FnMut(u64) -> u64| Int::from(next(5) as i64 - 2);
        let mut d = Int::from(1 + next(4) as i64);
        if round % 17 == 0 {
            d = &d * &huge;
        }
        let f: Vec<Int> = (0..n)
            .map(|c| {
                if c == col {
                    Int::ZERO
                } else {
                    small(&mut next)
                }
            })
            .collect();
        let mut lo = f.clone();
        lo[col] = -&d;
        let w = &(&d - &Int::ONE) + &Int::from(next(3) as i64);
        let mut hi: Vec<Int> = f.iter().map(|v| -v).collect();
        hi[col] = d.clone();
        hi[0] = &hi[0] + &w;
        b.add_ineq(lo.clone());
        b.add_ineq(hi.clone());
        let others: Vec<Vec<Int>> = (0..1 + next(3))
            .map(|_| {
                (0..n)
                    .map(|c| {
                        if c == col {
                            Int::ZERO
                        } else {
                            small(&mut next)
                        }
                    })
                    .collect()
            })
            .collect();
        for o in &others {
            b.add_ineq(o.clone());
        }
        if next(2) == 0 {
            b.add_eq(others[0].clone());
        }
        for _ in 0..3 {
            // m·side + t·(±other) + c, or a random row
            let row: Vec<Int> = if next(4) != 0 {
                let m = Int::from(1 + next(3) as i64);
                let side = if next(2) == 0 { &lo } else { &hi };
                let mut t = Int::from(next(4) as i64 - 1);
                if round % 13 == 0 {
                    t = &t * &huge;
                }
                let o = &others[next(others.len() as u64) as usize];
                let c = Int::from(next(5) as i64 - 2);
                (0..n)
                    .map(|k| {
                        let v = Int::combine(&m, &side[k], &t, &o[k]);
                        if k == 0 {
                            &v + &c
                        } else {
                            v
                        }
                    })
                    .collect()
            } else {
                (0..n).map(|_| small(&mut next)).collect()
            };
            b.add_ineq(row);
        }
        for i in 2..b.ineqs().len() {
            if b.ineqs()[i][col].is_zero() {
                continue;
            }
            let got = b.implied_by_pair_fast(i, col, 0, 1, &d);
            let want = b.implied_by_pair_reference(i, col, 0, 1, &d);
            assert_eq!(got, want, "{b:?} row {i}");
            if got {
                yes += 1;
            } else {
                no += 1;
            }
        }
    }
    assert!(yes > 1000 && no > 1000, "{yes} {no}");
}
