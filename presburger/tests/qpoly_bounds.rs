//! `upper_bound`/`lower_bound` of quasi-polynomials (iscc's `ub`/`lb`)
//! against enumeration: parametric quasi-affine functions over random
//! parametric polytopes (exact bound at every parameter value), and
//! polynomials of degree two without parameters.

use presburger::{lower_bound, upper_bound, Int, PwQPolynomial, Rat};
use proptest::prelude::*;

fn parse(t: &str) -> PwQPolynomial {
    t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
}

/// Points `(i, j)` of the domain `0 <= i <= n, 0 <= j <= b i + c n + d`.
fn inside(i: i64, j: i64, n: i64, (b, c, d): (i64, i64, i64)) -> bool {
    0 <= i && i <= n && 0 <= j && j <= b * i + c * n + d
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn quasi_affine_bounds_are_exact(
        (a0, a1, a2, k) in (-3i64..=3, -3i64..=3, -2i64..=2, 1i64..=3),
        dom in (-1i64..=1, 0i64..=1, 0i64..=2),
        max in any::<bool>(),
    ) {
        let (b, c, d) = dom;
        let text = format!(
            "[n] -> {{ [i, j] -> ({a0}*i + {a1}*j + {a2}*n + floor((i + j)/{k})) : 0 <= i <= n and 0 <= j <= {b}*i + {c}*n + {d} }}"
        );
        let f = parse(&text);
        let (fold, exact) = if max { upper_bound(&f) } else { lower_bound(&f) }.unwrap();
        prop_assert!(exact);
        for n in -1i64..=6 {
            let mut best: Option<i64> = None;
            for i in 0..=n.max(0) {
                for j in 0..=20 {
                    if inside(i, j, n, dom) {
                        let v = a0 * i + a1 * j + a2 * n + (i + j).div_euclid(k);
                        best = Some(match best {
                            Some(x) if (x >= v) == max => x,
                            _ => v,
                        });
                    }
                }
            }
            let got = fold.eval(&[Int::from(n)]).unwrap();
            prop_assert_eq!(got, best.map(Rat::from), "{} at n={}: {}", text, n, fold);
        }
    }

    #[test]
    fn degree_two_bounds_without_parameters_are_exact(
        (a, b, c, e) in (-2i64..=2, -2i64..=2, -3i64..=3, 1i64..=2),
        (lo, hi) in (-3i64..=0, 0i64..=4),
        max in any::<bool>(),
    ) {
        let text = format!(
            "{{ [i, j] -> ({a}*i^2 + {b}*i*j + {c}*j + 1/{e}*j^2) : {lo} <= i <= {hi} and i <= j <= {hi} + 1 }}"
        );
        let f = parse(&text);
        let (fold, exact) = if max { upper_bound(&f) } else { lower_bound(&f) }.unwrap();
        prop_assert!(exact);
        let mut best: Option<Rat> = None;
        for i in lo..=hi {
            for j in i..=hi + 1 {
                let v = Rat::from(a * i * i + b * i * j + c * j).add(&Rat::new(Int::from(j * j), Int::from(e)).unwrap());
                best = Some(match best {
                    Some(x) if (x >= v) == max => x,
                    _ => v,
                });
            }
        }
        prop_assert_eq!(fold.eval(&[]).unwrap(), best, "{} gave {}", text, fold);
    }
}

#[test]
fn unsupported_and_unbounded_are_errors() {
    let f = parse("[n] -> { [i] -> (i^2 + n) : 0 <= i < n }");
    let e = upper_bound(&f).unwrap_err().to_string();
    assert!(e.contains("not supported"), "{e}");
    let f = parse("[n] -> { [i] -> i : i >= n }");
    let e = upper_bound(&f).unwrap_err().to_string();
    assert!(e.contains("no upper bound"), "{e}");
    let (b, _) = lower_bound(&f).unwrap();
    assert_eq!(b.to_string(), "[n] -> { min(n) }");
}
