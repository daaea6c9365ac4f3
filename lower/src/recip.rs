//! Division by a constant as multiplication by its reciprocal.

use scop::model::Expr;

use crate::body::int_literal;

/// `1 / v` rounded, for a constant divisor `v` whose reciprocal is a
/// normal double: `x * (1/v)` replaces `x / v` (a multiplication of 3-4
/// cycles' latency instead of a division of 13; seidel-2d's chain of six
/// adds and a division per element). The product rounds `x/v · (1 + δ)`,
/// `|δ| <= 2^-53`, so it is within 2 ulp of the quotient when that is
/// normal, and the same for zeros, infinities and NaN; for `v = ±2^k` it is
/// the quotient bit for bit (`exact_reciprocal`, tested). This is the one place
/// where scalar code does not round as the C source says (like gcc's
/// `-freciprocal-math`; checksums stay far inside the relative 1e-9).
pub(crate) fn reciprocal(e: &Expr) -> Option<f64> {
    let v = match e {
        Expr::Double(f) => *f,
        Expr::ToDouble(i) => int_literal(i)? as f64,
        _ => return None,
    };
    let r = 1.0 / v;
    (v.is_finite() && v != 0.0 && r.is_normal()).then_some(r)
}

/// `1 / v` for a constant divisor `v = ±2^k` whose reciprocal is a normal
/// double (then `x / v == x * (1 / v)` exactly, for every `x`).
#[cfg(test)]
fn exact_reciprocal(e: &Expr) -> Option<f64> {
    let v = match e {
        Expr::Double(f) => *f,
        Expr::ToDouble(i) => int_literal(i)? as f64,
        _ => return None,
    };
    let r = 1.0 / v;
    let power_of_two = v.to_bits() & ((1u64 << 52) - 1) == 0;
    (v.is_normal() && r.is_normal() && power_of_two).then_some(r)
}

#[cfg(test)]
mod reciprocal_tests {
    use super::*;

    fn ulps(a: f64, b: f64) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    #[test]
    fn multiplication_by_the_rounded_reciprocal_is_within_two_ulp() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let (mut checked, mut inexact) = (0, 0);
        for _ in 0..2000 {
            // divisors over many binades, both signs; small integers too
            let v = if next() % 4 == 0 {
                (next() % 200) as f64 - 100.0
            } else {
                f64::from_bits((next() >> 12) | (0x3c0u64 + next() % 0x80) << 52)
                    * if next() % 2 == 0 { 1.0 } else { -1.0 }
            };
            let Some(r) = reciprocal(&Expr::Double(v)) else {
                assert!(v == 0.0 || !(1.0 / v).is_normal(), "{v:e}");
                continue;
            };
            for _ in 0..200 {
                let x = f64::from_bits((next() >> 12) | (0x3c0u64 + next() % 0x80) << 52);
                let (q, p) = (x / v, x * r);
                if q.is_normal() {
                    assert!(ulps(q.abs(), p.abs()) <= 2, "{x:e} / {v:e}: {q:e} vs {p:e}");
                    assert_eq!(q.is_sign_negative(), p.is_sign_negative());
                    checked += 1;
                    inexact += usize::from(q != p);
                }
            }
            for x in [0.0, -0.0, f64::INFINITY, f64::NEG_INFINITY] {
                assert_eq!((x / v).to_bits(), (x * r).to_bits(), "{x:e} / {v:e}");
            }
            assert!((f64::NAN * r).is_nan());
        }
        assert!(checked > 100_000, "{checked}");
        // not vacuous: the product differs from the quotient sometimes
        assert!(inexact > 1000, "{inexact}");
        assert_eq!(reciprocal(&Expr::Double(0.0)), None);
        assert_eq!(reciprocal(&Expr::Double(f64::INFINITY)), None);
        assert_eq!(reciprocal(&Expr::Double(1e-310)), None);
        assert_eq!(reciprocal(&Expr::Double(9.0)), Some(1.0 / 9.0));
    }

    #[test]
    fn division_by_a_power_of_two_is_multiplication_by_its_reciprocal() {
        let mut seed = 0x853c_49e6_748f_ea9bu64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed
        };
        let mut taken = 0;
        for k in -1080..1080 {
            for sign in [1.0, -1.0] {
                let v = sign * 2f64.powi(k);
                let Some(r) = exact_reciprocal(&Expr::Double(v)) else {
                    continue;
                };
                taken += 1;
                for _ in 0..200 {
                    // any bit pattern: subnormals, infinities, NaNs included
                    let x = f64::from_bits(next());
                    let (q, p) = (x / v, x * r);
                    assert!(
                        q.to_bits() == p.to_bits() || (q.is_nan() && p.is_nan()),
                        "{x:e} / {v:e}"
                    );
                }
            }
        }
        // every power with a normal reciprocal, both signs: 2^-1022 ..= 2^1022
        assert_eq!(taken, 2 * 2045);
        assert_eq!(exact_reciprocal(&Expr::Double(3.0)), None);
        assert_eq!(exact_reciprocal(&Expr::Double(0.0)), None);
        assert_eq!(
            exact_reciprocal(&Expr::ToDouble(Box::new(Expr::Int(8)))),
            Some(0.125)
        );
    }
}
