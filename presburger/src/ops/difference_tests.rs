//! Tests of the shortcuts of `subtract_basic_each` and
//! `explicit_subtrahend` against the slow paths they skip (linear
//! programming, the exact emptiness test) and brute force.

use super::{equalities_unsolvable, SignedKeys};
use crate::basic::BasicMap;
use crate::int::Int;
use crate::map::Map;
use crate::simplex::Opt;
use crate::testing::XorShift;

/// Whether the integer point `x` (no locals) satisfies `r >= 0`.
fn holds(r: &[Int], x: &[i64]) -> bool {
    let mut v = r[0].clone();
    for (a, &xi) in r[1..].iter().zip(x) {
        v = &v + &(a * &Int::from(xi));
    }
    !v.is_neg()
}

/// `implied_by_sum` is sound: when it says `c >= 0` follows from `b`, the
/// rational minimum of `c` over `b` (the LP it replaces) is at least 0 (or
/// `b` is empty), and every integer point of `b` in a box satisfies `c`.
/// The rows are drawn so that sums of two rows (shifted by -1, 0 or 1) are
/// common: both answers occur often.
#[test]
fn implied_by_sum_is_implied() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..3000 {
        let mut b: BasicMap = "{ [i, j, k] }".parse::<Map>().unwrap().basic_maps()[0].clone();
        let row = |rng: &mut XorShift| -> Vec<Int> {
            (0..4)
                .map(|c| {
                    Int::from(
                        rng.below(if c == 0 { 9 } else { 5 }) as i64 - if c == 0 { 4 } else { 2 },
                    )
                })
                .collect()
        };
        for _ in 0..rng.below(2) {
            let r = row(&mut rng);
            b.eqs.push(r);
        }
        for _ in 0..1 + rng.below(5) {
            let r = row(&mut rng);
            b.ineqs.push(r);
        }
        let Some(keys) = SignedKeys::of(&b) else {
            continue;
        };
        let signed: Vec<Vec<Int>> = b
            .ineqs
            .iter()
            .map(<[Int]>::to_vec)
            .chain(b.eqs.iter().map(<[Int]>::to_vec))
            .chain(b.eqs.iter().map(|e| e.iter().map(|v| -v).collect()))
            .collect();
        for _ in 0..6 {
            let mut c = match rng.below(3) {
                0 => row(&mut rng),
                1 => signed[rng.below(signed.len() as u64) as usize].clone(),
                _ => {
                    let r = &signed[rng.below(signed.len() as u64) as usize];
                    let s = &signed[rng.below(signed.len() as u64) as usize];
                    r.iter().zip(s).map(|(x, y)| x + y).collect()
                }
            };
            c[0] = &c[0] + &Int::from(rng.below(3) as i64 - 1);
            if !keys.implied_by_sum(&b, &c) {
                no += 1;
                continue;
            }
            yes += 1;
            let mut t = b.rational_tableau().unwrap();
            if !t.is_empty() {
                if let Opt::Value(num, _) = t.minimize(&c).unwrap() {
                    assert!(!num.is_neg(), "{b:?} {c:?}");
                } else {
                    panic!("unbounded: {b:?} {c:?}");
                }
            }
            for x in -3..=3 {
                for y in -3..=3 {
                    for z in -3..=3 {
                        let p = [x, y, z];
                        let inb = b.ineqs.iter().all(|r| holds(r, &p))
                            && b.eqs.iter().all(|e| {
                                holds(e, &p) && holds(&e.iter().map(|v| -v).collect::<Vec<_>>(), &p)
                            });
                        assert!(!inb || holds(&c, &p), "{b:?} {c:?} {p:?}");
                    }
                }
            }
        }
    }
    assert!(yes > 3000 && no > 3000, "{yes} {no}");
}

/// A basic map whose equalities have no integer solution is empty (the
/// exact test agrees), on the explicit forms (as `explicit_subtrahend`
/// tests them) of divisibility conditions on one variable through
/// existentials, shaped as trace-subtract-161's subtrahend
/// (`i = -a·e3 + b and i = 3e2 and i = a·e1 + c and i = 3e0`); both
/// answers occur.
#[test]
fn unsolvable_equalities_are_empty() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    let (mut yes, mut no) = (0, 0);
    for _ in 0..300 {
        let a = 1 + rng.below(4);
        let b0 = rng.below(5) as i64 - 2;
        let c = rng.below(5) as i64 - 2;
        let text = format!(
            "[n] -> {{ [i] : exists (e0, e1, e2, e3 : i = -{a}e3 + {b0} and i = 3e2 and i = {a}e1 + {c} and i = 3e0 and 0 <= i <= n) }}"
        );
        let m: Map = text.parse().unwrap();
        for raw in m.basic_maps() {
            let mut all = raw.make_divs_explicit().unwrap();
            all.push(raw.clone());
            for b in &all {
                let unsolvable = equalities_unsolvable(b);
                assert!(!unsolvable || b.is_empty().unwrap(), "{text}");
                if unsolvable {
                    yes += 1;
                } else {
                    no += 1;
                }
            }
        }
    }
    assert!(yes > 10 && no > 10, "{yes} {no}");
}

/// Traced subtractions the shortcuts were made for (trace-subtract-161,
/// -163: a subtrahend empty by parity; -349: the prepared minuend and the
/// explicit subtrahend with the same divisions): the same set as the
/// plain path's, on two calls (the second with the kept preparations).
#[test]
fn traced_shortcut_cases() {
    let cases = [
        (
            "[N] -> { [S1[i] -> A[i + 1]] : (-i - 2) mod 2 = 0 and (i) mod 3 = 0 and 0 <= i < N; [S1[i = N - 1] -> A[N]] : (-N) mod 2 = 0 and (N - 1) mod 3 = 0 and N >= 1 }",
            "[N] -> { [S1[i] -> A[i + 1]] : exists (e0, e1, e2, e3 : i = -2e3 - 2 and i = 3e2 and i = 2e1 - 1 and i = 3e0 and 0 <= i <= N - 2) }",
        ),
        (
            "[N] -> { [S1[i] -> A[i]] : (-i - 1) mod 2 = 0 and (i) mod 3 = 0 and 0 <= i < N }",
            "[N] -> { [S1[i] -> A[i]] : exists (e0, e1, e2, e3 : i = -2e3 - 1 and i = 3e2 and i = 2e1 and i = 3e0 and 0 <= i < N) }",
        ),
        (
            "[n, i] -> { [i1, i3] : exists (e0, e1, e2, e3, e4, e5 : n - 16e0 - 20 <= i <= 2147 and 0 <= i1 <= -i + 16e1 + 17 and e2 - 15 <= 16e3 <= e2 and e4 - 15 <= 16e5 <= e4 and -i + 3 <= i1 <= n - i - 16e0 and 0 <= i3 <= i + i1 - 16e1 - 2 and i3 <= 19 and -2148 <= n <= 2147 and 0 <= e2 <= 19 and i1 >= -i + 16e1 + e2 + 2 and 1 <= e4 <= 19 and i1 >= -i + 16e1 + e4 + 2) }",
            "[n, i] -> { [i1, i3] : exists (e0, e1, e2, e3, e4, e5, e6 : n - 16e0 - 20 <= i <= 2147 and 0 <= i1 <= -i + 16e1 + 17 and 16e2 <= i3 <= 16e2 + 15 and e3 - 15 <= 16e4 <= e3 and e5 - 15 <= 16e6 <= e5 and -i + 3 <= i1 <= n - i - 16e0 and 0 <= i3 <= i + i1 - 16e1 - 2 and i3 <= 19 and -2148 <= n <= 2147 and 0 <= e3 <= 19 and i1 >= -i + 16e1 + e3 + 2 and 1 <= e5 <= 19 and i1 >= -i + 16e1 + e5 + 2) }",
        ),
    ];
    for (a, b) in cases {
        let a: Map = a.parse().unwrap();
        let b: Map = b.parse().unwrap();
        for (x, y) in [(&a, &b), (&b, &a)] {
            let reference = x.subtract_reference(y).unwrap();
            for _ in 0..2 {
                let fast = x.subtract(y).unwrap();
                assert!(fast.is_equal(&reference).unwrap(), "{x} \\ {y}");
            }
        }
    }
}
