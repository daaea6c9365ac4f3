//! Division by a constant, bit for bit `x / c` under round-to-nearest.
//!
//! * `c = ±2^k` with `1/c` normal: `x * (1/c)`, the quotient for every `x`
//!   (the reciprocal is exact; [`exact_reciprocal`]), scalar and vector.
//! * Other constants, scalar code only ([`divisor`]): a quotient from a
//!   double-word reciprocal, checked by Markstein's correction.
//!   `y = RN(1/c)` and `y_lo = RN(1/c − y)` at compile time; at run time
//!   `q = fma(x, y, RN(x·y_lo))`, then `r = fma(−q, c, x)` and
//!   `q' = fma(r, y, q)`. Markstein's theorem (Handbook of Floating-Point
//!   Arithmetic, Muller et al., 2nd ed., §4.7, division with an FMA; also
//!   Russinoff's ACL2 lemma `markstein`): in radix 2, precision `p`, *if no
//!   underflow or overflow occurs*, `y` is within half an ulp of `1/c` and
//!   `q` within one ulp of `x/c`, then `r` is computed exactly and
//!   `q' = RN(x/c)`. Our side of the hypotheses:
//!   - `y = RN(1/c)` is within half an ulp by definition (normal: checked).
//!   - `q` within one ulp: `|1/c − y − y_lo| <= 2^-53|y_lo| <= 2^-106/|c|`
//!     and `RN(x·y_lo)` errs by at most `2^-53|x·y_lo| <= 2^-106|x/c|` (or
//!     `2^-1075` if it underflows), so `x·y + RN(x·y_lo)` is within
//!     `2^-105|x/c|` of `x/c`, far below half an ulp: its rounding `q` is
//!     one of the two doubles around `x/c` (checked in the tests by the
//!     signs of the exact residuals).
//!   - No underflow or overflow: a run-time test `lo <= |x| <= hi` with
//!     `lo = 2^-960·max(1, |c|)`, `hi = 2^1000·min(1, |c|)` (exact powers of
//!     two times `c`), i.e. both `|x|` and `|x/c|` in `[2^-960, 2^1000]`,
//!     and `2^-900 <= |c| <= 2^900` at compile time: `q` is normal, `c·q`
//!     inside the FMA does not overflow, the exact residual `x − c·q` is a
//!     multiple of `ulp(c)·ulp(q) > 2^-106·|x| >= 2^-1066`, so no bit of it
//!     is lost below the subnormal range, and `r·y + q` is one FMA, rounded
//!     once to a normal result. Every other `x` (zeros, subnormals, NaN,
//!     infinities, huge or tiny quotients) takes the true `vdivsd`.
//!
//!   So `q' = RN(x/c)` always; and `q` itself is already `RN(x/c)` unless
//!   `x/c` lies within `2^-105` relative of a midpoint between doubles
//!   (never for `c = 3`: `x/3` stays a sixth of an ulp from one), so the
//!   code takes `q` and branches to `q'` when they differ. The branch is
//!   predicted, so the check stays off the dependence chain: the result
//!   waits for a multiplication and an FMA (7–8 cycles) instead of a
//!   division (13), or the three dependent operations (11–12) that taking
//!   `q'` would cost.
//!
//! Vector loops divide by other constants with `vdivpd` (a lane test needs
//! `vcmppd`/`vmovmskpd`, which the encoder lacks). The model [`model`]
//! performs the emitted operations in order; the tests compare it, and the
//! generated code through the JIT, with `x / c` bit for bit.

use codegen_x86::Cond;
use scop::model::Expr;

use crate::body::int_literal;
use crate::emit::{VSrc, Width};
use crate::error::Result;
use crate::state::State;

/// The value of a constant divisor expression.
fn constant(e: &Expr) -> Option<f64> {
    match e {
        Expr::Double(f) => Some(*f),
        Expr::ToDouble(i) => int_literal(i).map(|v| v as f64),
        _ => None,
    }
}

/// `1 / v` for a constant divisor `v = ±2^k` whose reciprocal is a normal
/// double (then `x / v == x * (1 / v)` exactly, for every `x`).
pub(crate) fn exact_reciprocal(e: &Expr) -> Option<f64> {
    let v = constant(e)?;
    let r = 1.0 / v;
    let power_of_two = v.to_bits() & ((1u64 << 52) - 1) == 0;
    (v.is_normal() && r.is_normal() && power_of_two).then_some(r)
}

/// A constant divisor taking the checked double-word path.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Divisor {
    /// The divisor `c`.
    pub c: f64,
    /// `RN(1/c)`.
    pub y: f64,
    /// `RN(1/c − y)`.
    pub y_lo: f64,
    /// Least `|x|` of the fast path.
    pub lo: f64,
    /// Greatest `|x|` of the fast path.
    pub hi: f64,
}

/// `1/c − y` for `y = RN(1/c)`, rounded: `(1 − c·y)/c`, where `1 − c·y`
/// is exact by one FMA (a multiple of `ulp(c)·ulp(y) >= 2^-105` of
/// magnitude at most `2^-53`), and the division by `c` rounds once.
fn reciprocal_tail(c: f64, y: f64) -> f64 {
    (-c).mul_add(y, 1.0) / c
}

/// The divisor `c` of `x / c` when the hypotheses of the module doc can be
/// met for it: `c` and `1/c` normal, `2^-900 <= |c| <= 2^900`, `c` not a
/// power of two (those are a plain multiplication).
pub(crate) fn divisor(e: &Expr) -> Option<Divisor> {
    let c = constant(e)?;
    let a = c.abs();
    let y = 1.0 / c;
    let inside = (2f64.powi(-900)..=2f64.powi(900)).contains(&a);
    if !inside || !y.is_normal() || exact_reciprocal(e).is_some() {
        return None;
    }
    let lo = 2f64.powi(-960) * a.max(1.0);
    let hi = 2f64.powi(1000) * a.min(1.0);
    let y_lo = reciprocal_tail(c, y);
    Some(Divisor { c, y, y_lo, lo, hi })
}

/// The emitted computation, operation for operation: the result and
/// whether the correction changed the first quotient.
#[cfg(test)]
pub(crate) fn model(x: f64, d: &Divisor) -> (f64, bool) {
    let a = x.abs();
    if !(a >= d.lo && a <= d.hi) {
        return (x / d.c, false);
    }
    let t = x * d.y_lo;
    let q = x.mul_add(d.y, t);
    let r = q.mul_add(-d.c, x);
    let q2 = r.mul_add(d.y, q);
    if q2 == q {
        (q, false)
    } else {
        (q2, true)
    }
}

impl State<'_> {
    /// `x / c` (scalar, `x` in a register, consumed) into a new register.
    pub(crate) fn divide_by_constant(&mut self, x: u8, d: &Divisor) -> Result<u8> {
        let w = Width::Scalar;
        let (slow, done) = (self.e.label(), self.e.label());
        let a = self.vreg()?;
        let abs = self.constant(0x7fff_ffff_ffff_ffff)?;
        self.e.vand(w, a, x, VSrc::Mem(abs));
        let lo = self.constant(d.lo.to_bits())?;
        self.e.vucomisd_mem(a, lo);
        // below, or unordered (NaN)
        self.e.jcc(Cond::B, slow);
        let hi = self.constant(d.hi.to_bits())?;
        self.e.vucomisd_mem(a, hi);
        self.e.jcc(Cond::A, slow);
        self.vfree(a);
        let y = self.constant(d.y.to_bits())?;
        let y_lo = self.constant(d.y_lo.to_bits())?;
        let neg_c = self.constant((-d.c).to_bits())?;
        let c = self.constant(d.c.to_bits())?;
        // q = x·y + RN(x·y_lo)
        let q = self.vreg()?;
        self.e.vmul(w, q, x, VSrc::Mem(y_lo));
        self.e.vfmadd231(w, q, x, VSrc::Mem(y));
        // x becomes the residual r = x − q·c (exact), then q' = q + r·y
        self.e.vfmadd231(w, x, q, VSrc::Mem(neg_c));
        let q2 = self.vreg()?;
        self.e.vcopy(w, q2, q);
        self.e.vfmadd231(w, q2, x, VSrc::Mem(y));
        self.e.vucomisd(q2, q);
        // equal: q is the quotient (the branch almost always taken)
        self.e.jcc(Cond::E, done);
        self.e.vcopy(w, q, q2);
        self.e.jmp(done);
        self.e.bind(slow)?;
        self.e.vdiv(w, q, x, VSrc::Mem(c));
        self.e.bind(done)?;
        self.vfree(q2);
        self.vfree(x);
        Ok(q)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    /// Divisors: small integers, decimal fractions, long mantissas, random
    /// ones over many binades, both signs.
    fn divisors(rng: &mut Rng, n: usize) -> Vec<f64> {
        let mut v: Vec<f64> = vec![
            3.0,
            5.0,
            7.0,
            9.0,
            10.0,
            11.0,
            13.0,
            100.0,
            1000.0,
            3.0e-5,
            0.1,
            0.3,
            1.1,
            1.7,
            -3.0,
            -9.0,
            1.0 / 3.0,
            2.2,
            1e300,
            1e-300,
            6.02e23,
        ];
        v.push(f64::from_bits(0x3fff_ffff_ffff_ffff)); // all ones
        v.push(f64::from_bits(0x3ff0_0000_0000_0001));
        while v.len() < n {
            let e = 0x3c0u64 + rng.next() % 0x80;
            let s = rng.next() & (1 << 63);
            v.push(f64::from_bits(s | e << 52 | (rng.next() >> 12)));
        }
        v
    }

    /// Dividends: random bit patterns (subnormals, infinities, NaN
    /// included), values near the range limits and near `c·2^±k` limits,
    /// `±0`, `±inf`, NaN, the extremes.
    fn dividends(rng: &mut Rng, d: &Divisor, n: usize) -> Vec<f64> {
        let mut xs = vec![
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MAX,
            -f64::MAX,
            f64::MIN_POSITIVE,
            f64::from_bits(1),
            1.0,
            d.c,
            -d.c,
            d.c * 3.0,
        ];
        for l in [d.lo, d.hi, f64::MAX, f64::MIN_POSITIVE * d.c.abs()] {
            let b = l.to_bits() as i64;
            for k in -3..=3 {
                let x = f64::from_bits((b + k) as u64);
                xs.push(x);
                xs.push(-x);
            }
        }
        while xs.len() < n {
            let u = rng.next();
            xs.push(match u % 4 {
                0 | 1 => f64::from_bits(rng.next()),
                // ordinary magnitudes, where kernels live
                2 => f64::from_bits((rng.next() >> 12) | (0x3c0 + rng.next() % 0x80) << 52),
                // multiples of c: exact quotients and ties nearby
                _ => (d.c * (rng.next() % 1_000_000) as f64) * if u & 8 == 0 { 1.0 } else { -1.0 },
            });
        }
        xs
    }

    /// `q` is one of the two doubles around `x/c`: the exact residuals
    /// `x − c·q` of `q` and of its neighbour on `x/c`'s side (signed by
    /// FMA, which rounds but keeps the sign inside the range) differ in sign.
    fn faithful(x: f64, c: f64, q: f64) -> bool {
        let s0 = q.mul_add(-c, x);
        if s0 == 0.0 {
            return true;
        }
        let toward = if (s0 > 0.0) == ((q > 0.0) == (c > 0.0)) {
            1
        } else {
            -1
        };
        let q1 = f64::from_bits((q.to_bits() as i64 + toward) as u64);
        let s1 = q1.mul_add(-c, x);
        s1 == 0.0 || (s1 > 0.0) != (s0 > 0.0)
    }

    #[test]
    fn the_checked_quotient_is_the_quotient_bit_for_bit() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut taken, mut fast, mut plain_wrong) = (0, 0usize, 0usize);
        for c in divisors(&mut rng, 300) {
            let Some(d) = divisor(&Expr::Double(c)) else {
                continue;
            };
            taken += 1;
            for x in dividends(&mut rng, &d, 12_000) {
                let (want, (got, _)) = (x / c, model(x, &d));
                assert!(same(want, got), "{x:e} / {c:e}: {want:e} vs {got:e}");
                if x.abs() >= d.lo && x.abs() <= d.hi {
                    fast += 1;
                    // Markstein's hypothesis on the first quotient
                    let q = x.mul_add(d.y, x * d.y_lo);
                    assert!(faithful(x, c, q), "{x:e} / {c:e}");
                    // not vacuous: the plain product is wrong sometimes
                    plain_wrong += usize::from(!same(x * d.y, want));
                }
            }
        }
        assert!(taken > 250, "{taken}");
        assert!(fast > 1_500_000, "{fast}");
        assert!(plain_wrong > 100_000, "{plain_wrong}");
    }

    #[test]
    fn the_correction_repairs_a_faithful_first_quotient() {
        // Without y_lo the first quotient RN(x·y) is wrong often, but still
        // faithful when |c·y − 1| <= 2^-54 (then |x/c·(c·y − 1)| is below
        // half an ulp); the correction must then give x / c every time.
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut taken, mut repaired) = (0, 0usize);
        for c in divisors(&mut rng, 300) {
            let Some(d) = divisor(&Expr::Double(c)) else {
                continue;
            };
            if c.mul_add(d.y, -1.0).abs() > 2f64.powi(-54) {
                continue;
            }
            taken += 1;
            let d = Divisor { y_lo: 0.0, ..d };
            for x in dividends(&mut rng, &d, 4_000) {
                let (got, fixed) = model(x, &d);
                assert!(same(x / c, got), "{x:e} / {c:e}");
                repaired += usize::from(fixed);
            }
        }
        assert!(taken > 100, "{taken}");
        assert!(repaired > 50_000, "{repaired}");
    }

    #[test]
    fn the_rule_takes_constants_with_normal_reciprocals() {
        for c in [3.0, 5.0, 7.0, 9.0, 10.0, -7.0, 1000.0, 0.1, 3.0e-5, 1e250] {
            let d = divisor(&Expr::Double(c)).unwrap();
            // y + y_lo is 1/c to about 106 bits
            assert!(
                d.y_lo != 0.0 && d.y_lo.abs() <= d.y.abs() * 2f64.powi(-53),
                "{c}"
            );
        }
        assert!(divisor(&Expr::ToDouble(Box::new(Expr::Int(9)))).is_some());
        for c in [
            0.0,
            -0.0,
            4.0,
            0.5,
            f64::INFINITY,
            f64::NAN,
            1e-310,
            1e300,
            1e-300,
        ] {
            assert_eq!(divisor(&Expr::Double(c)), None, "{c}");
        }
    }

    #[test]
    fn division_by_a_power_of_two_is_multiplication_by_its_reciprocal() {
        let mut rng = Rng(0x853c_49e6_748f_ea9b);
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
                    let x = f64::from_bits(rng.next());
                    assert!(same(x / v, x * r), "{x:e} / {v:e}");
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
