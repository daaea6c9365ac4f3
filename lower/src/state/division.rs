//! Integer division by constants: floor and C-truncating quotients and
//! remainders, by shifts for powers of two, by a magic multiplier
//! (Hacker's Delight) for other 32-bit divisors, else through `idiv`.

use codegen_x86::Gpr;

use super::{unsupported, State};
use crate::emit::g;
use crate::error::{Error, Result};

impl State<'_> {
    /// `r = floor(r / k)` for `k > 0`.
    pub fn floor_div(&mut self, r: Gpr, k: i64) -> Result<()> {
        if k <= 0 {
            return Err(Error::Internal(format!("floor division by {k}")));
        }
        if k == 1 {
            return Ok(());
        }
        if k.count_ones() == 1 {
            self.e.sar(r, k.trailing_zeros() as u8);
            return Ok(());
        }
        self.divide(r, k, false, true)
    }

    /// `r = r / k` (C truncation) or `r % k`, or the floor quotient, through
    /// `idiv` (`rax`/`rdx` are reserved for it). `k` is a non-zero constant
    /// other than -1.
    pub fn divide(&mut self, r: Gpr, k: i64, rem: bool, floor: bool) -> Result<()> {
        if k == 0 || k == -1 {
            return unsupported(format!("integer division by {k}"));
        }
        if k > 1 && k.count_ones() == 1 && !floor {
            // C truncation by 2^s: bias negative values by 2^s - 1, shift
            let sh = k.trailing_zeros() as u8;
            self.e.mov(g(Gpr::Rax), g(r))?;
            self.e.sar(Gpr::Rax, 63);
            self.e.shr(Gpr::Rax, 64 - sh);
            self.e.add(g(Gpr::Rax), g(r))?;
            self.e.sar(Gpr::Rax, sh);
            if rem {
                self.e.shl(Gpr::Rax, sh);
                self.e.sub(g(r), g(Gpr::Rax))?;
            } else {
                self.e.mov(g(r), g(Gpr::Rax))?;
            }
            return Ok(());
        }
        if k > 2 && i32::try_from(k).is_ok() {
            return self.divide_by_magic(r, k, rem, floor);
        }
        let d = self.temp()?;
        self.e.mov(g(Gpr::Rax), g(r))?;
        self.e.mov_imm(d, k);
        self.e.cqo();
        self.e.idiv(d);
        self.free(d);
        if floor {
            // floor = trunc + (remainder < 0 ? -1 : 0), k > 0
            self.e.sar(Gpr::Rdx, 63);
            self.e.add(g(Gpr::Rax), g(Gpr::Rdx))?;
        }
        let src = if rem { Gpr::Rdx } else { Gpr::Rax };
        self.e.mov(g(r), g(src))?;
        Ok(())
    }

    /// [`Self::divide`] by a constant `k > 2` (not a power of two) without
    /// `idiv`: the truncated quotient is the high half of `r * m` (one
    /// `imul`), corrected and shifted ([`magic`]); the remainder is `r -
    /// q*k`.
    fn divide_by_magic(&mut self, r: Gpr, k: i64, rem: bool, floor: bool) -> Result<()> {
        let (m, s) = magic(k);
        self.e.mov_imm(Gpr::Rax, m);
        self.e.imul_wide(r);
        if m < 0 {
            self.e.add(g(Gpr::Rdx), g(r))?;
        }
        if s > 0 {
            self.e.sar(Gpr::Rdx, s);
        }
        // + 1 for a negative dividend (truncation towards zero)
        self.e.mov(g(Gpr::Rax), g(r))?;
        self.e.shr(Gpr::Rax, 63);
        self.e.add(g(Gpr::Rdx), g(Gpr::Rax))?;
        if !rem && !floor {
            return self.e.mov(g(r), g(Gpr::Rdx));
        }
        self.e.imul_imm(Gpr::Rax, Gpr::Rdx, k)?;
        self.e.sub(g(r), g(Gpr::Rax))?; // the truncated remainder
        if rem {
            return Ok(());
        }
        // floor = trunc + (remainder < 0 ? -1 : 0)
        self.e.sar(r, 63);
        self.e.add(g(r), g(Gpr::Rdx))
    }
}

/// The magic multiplier and shift of signed 64-bit division by a constant
/// `d >= 2` (Hacker's Delight, section 10-1): for every `n`, `trunc(n / d)`
/// is `((n * m) >> 64) [+ n when m < 0]`, shifted right arithmetically by
/// `s`, plus one when `n < 0`.
fn magic(d: i64) -> (i64, u8) {
    const TWO63: u64 = 1 << 63;
    let ad = d.unsigned_abs();
    let t = TWO63 + ((d as u64) >> 63);
    let anc = t - 1 - t % ad;
    let mut p = 63u32;
    let (mut q1, mut r1) = (TWO63 / anc, TWO63 - (TWO63 / anc) * anc);
    let (mut q2, mut r2) = (TWO63 / ad, TWO63 - (TWO63 / ad) * ad);
    loop {
        p += 1;
        q1 = q1.wrapping_mul(2);
        r1 = r1.wrapping_mul(2);
        if r1 >= anc {
            q1 = q1.wrapping_add(1);
            r1 = r1.wrapping_sub(anc);
        }
        q2 = q2.wrapping_mul(2);
        r2 = r2.wrapping_mul(2);
        if r2 >= ad {
            q2 = q2.wrapping_add(1);
            r2 = r2.wrapping_sub(ad);
        }
        let delta = ad - r2;
        if !(q1 < delta || (q1 == delta && r1 == 0)) {
            break;
        }
    }
    (q2.wrapping_add(1) as i64, (p - 64) as u8)
}

/// `k` if it is a power of two from 2 to 2^30: `k - 1` and `-k` are
/// 32-bit immediates, `k * x` is `x << log2 k` and `k * floord(x, k)` is
/// `x & -k` in two's complement (wrapping as `imul` does).
pub(super) fn power_of_two(k: i64) -> Option<i64> {
    (k > 1 && k <= 1 << 30 && k.count_ones() == 1).then_some(k)
}

#[cfg(test)]
mod tests {
    use super::magic;

    /// The magic sequence against Rust's division, over divisors and
    /// dividends near zero, near the extremes and at multiples.
    #[test]
    fn magic_division_matches_truncation() {
        let div = |n: i64, d: i64| {
            let (m, s) = magic(d);
            let mut q = ((i128::from(n) * i128::from(m)) >> 64) as i64;
            if m < 0 {
                q = q.wrapping_add(n);
            }
            q >>= s;
            q + ((n as u64) >> 63) as i64
        };
        for d in (3..200).chain([641, 1000, 6700417, i64::from(i32::MAX)]) {
            let mut ns: Vec<i64> = (-300..300).collect();
            ns.extend([i64::MIN, i64::MIN + 1, i64::MAX, i64::MAX - 1]);
            ns.extend((1..50).flat_map(|k| [k * d, k * d - 1, -k * d, -k * d + 1]));
            ns.extend(
                (0..60)
                    .map(|b| 1i64 << b)
                    .flat_map(|v| [v, -v, v - 1, 1 - v]),
            );
            for n in ns {
                assert_eq!(div(n, d), n / d, "{n} / {d}");
            }
        }
    }
}
