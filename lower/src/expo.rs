//! `exp(x)` inline, without a call, for `|x| <= 708`: `x = k·ln 2 + r`
//! with `k` the integer nearest `x·log2 e` (`|r| <= ln 2 / 2`), `e^r` by
//! its Taylor polynomial of degree 13 (truncation below 5e-18 relative)
//! evaluated in Estrin's scheme (FMA tree of depth four instead of a
//! Horner chain of thirteen dependent FMAs), and `2^k` added to the
//! result's exponent field. `k` comes from the FMA `x·log2 e + 1.5·2^52`
//! (its low mantissa bits are `k`); `r = x − k·ln2_hi − k·ln2_lo` with the
//! Cody–Waite split of `ln 2` (`ln2_hi` has 21 trailing zero bits, so
//! `k·ln2_hi` is exact for `|k| < 2^11`). The result is within 2 ulp of
//! the correctly rounded value (checked against Rust's `f64::exp` below,
//! through [`model`], which performs the emitted operations in the same
//! order); other `x` (larger, NaN) take the call of the interpreter's
//! function. For `|x| <= 708`, `|k| <= 1022` and `e^r ∈ [0.7, 1.42]`: the
//! result is a normal double, so adding `k` to the exponent is exact.

use codegen_x86::{Cond, Gpr};

use crate::emit::{g, VSrc, Width};
use crate::error::Result;
use crate::state::State;

/// Largest `|x|` of the inline path.
const LIMIT: f64 = 708.0;
/// `1.5·2^52`: adding it rounds to an integer, kept in the low bits.
const SHIFT: f64 = 6_755_399_441_055_744.0;
/// `ln 2` split: `ln2_hi + ln2_lo` is within 1.2e-26 of `ln 2`.
const LN2_HI_BITS: u64 = 0x3fe6_2e42_fee0_0000;
const LN2_LO_BITS: u64 = 0x3dea_39ef_3579_3c76;
/// Degree of the Taylor polynomial.
const DEGREE: usize = 13;

/// `1/n!` for `n = 0..=DEGREE`.
fn coefficients() -> Vec<f64> {
    let mut c = vec![1.0f64];
    let mut f = 1.0f64;
    for n in 1..=DEGREE {
        f *= n as f64; // exact: 13! < 2^53
        c.push(1.0 / f);
    }
    c
}

/// Largest power of two below `n` (`n >= 2`).
fn split(n: usize) -> usize {
    let mut m = 1;
    while 2 * m < n {
        m *= 2;
    }
    m
}

/// The emitted computation, operation for operation (FMA as `mul_add`):
/// the oracle of the tests (`None`: the call path).
#[cfg(test)]
pub(crate) fn model(x: f64) -> Option<f64> {
    if x.is_nan() || x.abs() > LIMIT {
        return None;
    }
    let t = x.mul_add(std::f64::consts::LOG2_E, SHIFT);
    let kd = t - SHIFT;
    let r = kd.mul_add(-f64::from_bits(LN2_HI_BITS), x);
    let r = kd.mul_add(-f64::from_bits(LN2_LO_BITS), r);
    let r2 = r * r;
    let r4 = r2 * r2;
    let r8 = r4 * r4;
    let pw = [r, r2, r4, r8];
    let p = estrin_model(&coefficients(), &pw);
    let k = t.to_bits() << 52;
    Some(f64::from_bits(p.to_bits().wrapping_add(k)))
}

#[cfg(test)]
fn estrin_model(c: &[f64], pw: &[f64; 4]) -> f64 {
    if c.len() == 1 {
        return c[0];
    }
    let m = split(c.len());
    let lo = estrin_model(&c[..m], pw);
    let hi = estrin_model(&c[m..], pw);
    hi.mul_add(pw[m.trailing_zeros() as usize], lo)
}

impl State<'_> {
    /// `exp` of the scalar in register `x` (left live) into a new
    /// register; `call` is the address of the interpreter's function, for
    /// `|x| > 708` and NaN.
    pub(crate) fn exp_inline(&mut self, x: u8, call: usize) -> Result<u8> {
        let w = Width::Scalar;
        let d = self.vreg()?;
        let (slow, done) = (self.e.label(), self.e.label());
        let a = self.vreg()?;
        let abs = self.constant(0x7fff_ffff_ffff_ffff)?;
        self.e.vand(w, a, x, VSrc::Mem(abs));
        let limit = self.constant(LIMIT.to_bits())?;
        self.e.vucomisd_mem(a, limit);
        self.vfree(a);
        self.e.jcc(Cond::A, slow);
        self.e.jcc(Cond::P, slow);
        // k and r
        let c = |s: &mut Self, v: f64| s.constant(v.to_bits()).map(VSrc::Mem);
        let t = self.vreg()?;
        let shift = self.constant(SHIFT.to_bits())?;
        self.e.vload(w, t, shift);
        let log2e = c(self, std::f64::consts::LOG2_E)?;
        self.e.vfmadd231(w, t, x, log2e);
        let kd = self.vreg()?;
        self.e.vsub(w, kd, t, VSrc::Mem(shift));
        let r = self.vreg()?;
        self.e.vcopy(w, r, x);
        let hi = c(self, -f64::from_bits(LN2_HI_BITS))?;
        self.e.vfmadd231(w, r, kd, hi);
        let lo = c(self, -f64::from_bits(LN2_LO_BITS))?;
        self.e.vfmadd231(w, r, kd, lo);
        self.vfree(kd);
        // e^r
        let mut pw = [r, 0, 0, 0];
        for i in 1..4 {
            pw[i] = self.vreg()?;
            self.e.vmul(w, pw[i], pw[i - 1], VSrc::Reg(pw[i - 1]));
        }
        let p = self.estrin(&coefficients(), &pw)?;
        for v in pw {
            self.vfree(v);
        }
        // scaled by 2^k through the exponent field
        self.e.bits_of(Gpr::Rax, t);
        self.e.shl(Gpr::Rax, 52);
        self.e.bits_of(Gpr::Rdx, p);
        self.e.add(g(Gpr::Rax), g(Gpr::Rdx))?;
        self.e.from_bits(d, Gpr::Rax);
        self.vfree(p);
        self.vfree(t);
        self.e.jmp(done);
        self.e.bind(slow)?;
        let y = self.vreg()?;
        self.e.vcopy(w, y, x);
        let v = self.libcall_regs(call, &[y])?;
        self.e.vcopy(w, d, v);
        self.vfree(v);
        self.e.bind(done)?;
        Ok(d)
    }

    /// `Σ c_n r^n` by Estrin's scheme (`pw` holds `r, r², r⁴, r⁸`).
    fn estrin(&mut self, c: &[f64], pw: &[u8; 4]) -> Result<u8> {
        let w = Width::Scalar;
        if c.len() == 1 {
            let d = self.vreg()?;
            let m = self.constant(c[0].to_bits())?;
            self.e.vload(w, d, m);
            return Ok(d);
        }
        let m = split(c.len());
        let lo = self.estrin(&c[..m], pw)?;
        let power = pw[m.trailing_zeros() as usize];
        if c.len() - m == 1 {
            let k = self.constant(c[m].to_bits())?;
            self.e.vfmadd231(w, lo, power, VSrc::Mem(k));
        } else {
            let hi = self.estrin(&c[m..], pw)?;
            self.e.vfmadd231(w, lo, hi, VSrc::Reg(power));
            self.vfree(hi);
        }
        Ok(lo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ulps(a: f64, b: f64) -> u64 {
        (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs()
    }

    #[test]
    fn the_inline_exp_is_within_two_ulp_of_libm() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut worst = 0;
        let mut checked = 0;
        let mut xs: Vec<f64> = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            1e-300,
            -1e-300,
            f64::MIN_POSITIVE,
            LIMIT,
            -LIMIT,
            std::f64::consts::LN_2 / 2.0,
            -std::f64::consts::LN_2 / 2.0,
        ];
        for _ in 0..400_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let u = (seed >> 11) as f64 / (1u64 << 53) as f64;
            // uniform over [-720, 720], and over [-2, 2] where most
            // kernel values are
            xs.push(if seed & 1 == 0 {
                1440.0 * u - 720.0
            } else {
                4.0 * u - 2.0
            });
        }
        for x in xs {
            match model(x) {
                Some(y) => {
                    let want = x.exp();
                    assert!(y.is_normal(), "{x:e}");
                    let e = ulps(y, want);
                    assert!(e <= 2, "exp({x:e}) = {y:e}, libm {want:e}: {e} ulp");
                    worst = worst.max(e);
                    checked += 1;
                }
                None => assert!(x.is_nan() || x.abs() > LIMIT, "{x:e}"),
            }
        }
        assert!(checked > 200_000);
        // not vacuous: the polynomial is not libm itself
        assert!(worst >= 1);
        for x in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 708.5, -745.0] {
            assert_eq!(model(x), None);
        }
    }

    #[test]
    fn a_shorter_polynomial_would_be_caught() {
        // degree 8 instead of 13: errors far above 2 ulp near |r| = ln2/2
        let c = coefficients();
        let r: f64 = 0.34;
        let pw = [r, r * r, r.powi(4), r.powi(8)];
        let full = estrin_model(&c, &pw);
        let short = estrin_model(&c[..9], &pw);
        assert!(ulps(full, r.exp()) <= 2);
        assert!(ulps(short, r.exp()) > 2);
    }
}
