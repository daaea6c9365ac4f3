//! Exact integers: `i64` on the fast path, [`BigInt`] when a value does not fit.
//!
//! [`Int`] is the coefficient type of every constraint in the engine. Every
//! operation first tries machine arithmetic (`checked_*` on `i64`, or `i128`
//! for fused products) and falls back to big integers only when the result
//! does not fit. The representation is canonical: a value that fits in an
//! `i64` is always stored as [`Int::Small`], so equality and hashing are
//! structural. Nothing ever wraps or saturates.
//!
//! ```
//! use presburger::Int;
//! let a = Int::from(i64::MAX);
//! let b = &a + &Int::from(1);
//! assert_eq!(b.to_string(), "9223372036854775808");
//! assert_eq!(&b - &Int::from(1), a);
//! ```

use num_bigint::BigInt;
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::fmt;
use std::ops::{Add, Mul, Neg, Sub};
use std::str::FromStr;

/// An exact integer. See the [module documentation](self).
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Int {
    /// A value that fits in 64 bits (always used when it does).
    Small(i64),
    /// A value that does not fit in 64 bits.
    Big(Box<BigInt>),
}

impl Default for Int {
    fn default() -> Self {
        Int::Small(0)
    }
}

impl From<i64> for Int {
    fn from(v: i64) -> Self {
        Int::Small(v)
    }
}

impl From<i32> for Int {
    fn from(v: i32) -> Self {
        Int::Small(v as i64)
    }
}

impl From<i128> for Int {
    #[inline]
    fn from(v: i128) -> Self {
        match i64::try_from(v) {
            Ok(s) => Int::Small(s),
            Err(_) => Int::Big(Box::new(BigInt::from(v))),
        }
    }
}

impl From<BigInt> for Int {
    fn from(v: BigInt) -> Self {
        match v.to_i64() {
            Some(s) => Int::Small(s),
            None => Int::Big(Box::new(v)),
        }
    }
}

impl Int {
    /// Zero.
    pub const ZERO: Int = Int::Small(0);
    /// One.
    pub const ONE: Int = Int::Small(1);

    /// The value as a big integer.
    pub fn to_bigint(&self) -> BigInt {
        match self {
            Int::Small(v) => BigInt::from(*v),
            Int::Big(b) => (**b).clone(),
        }
    }

    /// The value as an `i64`, if it fits.
    pub fn to_i64(&self) -> Option<i64> {
        match self {
            Int::Small(v) => Some(*v),
            Int::Big(_) => None,
        }
    }

    /// True if the value is zero.
    #[inline]
    pub fn is_zero(&self) -> bool {
        matches!(self, Int::Small(0))
    }

    /// True if the value is one.
    #[inline]
    pub fn is_one(&self) -> bool {
        matches!(self, Int::Small(1))
    }

    /// -1, 0 or 1.
    #[inline]
    pub fn signum(&self) -> i32 {
        match self {
            Int::Small(v) => v.signum() as i32,
            Int::Big(b) => {
                if b.is_negative() {
                    -1
                } else {
                    1
                }
            }
        }
    }

    /// True if the value is strictly negative.
    #[inline]
    pub fn is_neg(&self) -> bool {
        self.signum() < 0
    }

    /// True if the value is strictly positive.
    #[inline]
    pub fn is_pos(&self) -> bool {
        self.signum() > 0
    }

    /// Absolute value.
    pub fn abs(&self) -> Int {
        if self.is_neg() {
            -self
        } else {
            self.clone()
        }
    }

    /// Greatest common divisor (non-negative; `gcd(0, 0) = 0`).
    pub fn gcd(&self, other: &Int) -> Int {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => {
                let mut a = a.unsigned_abs();
                let mut b = b.unsigned_abs();
                while b != 0 {
                    let t = a % b;
                    a = b;
                    b = t;
                }
                match i64::try_from(a) {
                    Ok(v) => Int::Small(v),
                    Err(_) => Int::from(BigInt::from(a)),
                }
            }
            _ => gcd_with_big(self, other),
        }
    }

    /// Least common multiple (non-negative).
    pub fn lcm(&self, other: &Int) -> Int {
        if self.is_zero() || other.is_zero() {
            return Int::ZERO;
        }
        let g = self.gcd(other);
        (&self.div_exact(&g) * other).abs()
    }

    /// Floor of `self / d` (`d != 0`).
    pub fn div_floor(&self, d: &Int) -> Int {
        match (self, d) {
            (Int::Small(a), Int::Small(b)) if !(*a == i64::MIN && *b == -1) => Int::Small(
                a.div_euclid(*b)
                    - if *b < 0 && a.rem_euclid(*b) != 0 {
                        1
                    } else {
                        0
                    },
            ),
            _ => Int::from(self.to_bigint().div_floor(&d.to_bigint())),
        }
    }

    /// Ceiling of `self / d` (`d != 0`).
    pub fn div_ceil(&self, d: &Int) -> Int {
        -(&(-self).div_floor(d))
    }

    /// `self / d` where `d` is known to divide `self` exactly.
    #[inline]
    pub fn div_exact(&self, d: &Int) -> Int {
        match (self, d) {
            (Int::Small(a), Int::Small(b)) if !(*a == i64::MIN && *b == -1) => Int::Small(a / b),
            _ => self.div_exact_wide(d),
        }
    }

    #[cold]
    #[inline(never)]
    fn div_exact_wide(&self, d: &Int) -> Int {
        Int::from(self.to_bigint() / d.to_bigint())
    }

    /// `self mod d` in `0..|d|` (`d != 0`).
    pub fn mod_floor(&self, d: &Int) -> Int {
        let d = d.abs();
        self - &(&self.div_floor(&d) * &d)
    }

    /// True if `d` divides `self`.
    pub fn is_divisible_by(&self, d: &Int) -> bool {
        if d.is_zero() {
            return self.is_zero();
        }
        self.mod_floor(d).is_zero()
    }

    /// `a * x + b * y`, computed exactly (one `i128` evaluation on the fast path).
    #[inline]
    pub fn combine(a: &Int, x: &Int, b: &Int, y: &Int) -> Int {
        if let (Int::Small(a), Int::Small(x), Int::Small(b), Int::Small(y)) = (a, x, b, y) {
            let p = (*a as i128) * (*x as i128);
            let q = (*b as i128) * (*y as i128);
            if let Some(v) = p.checked_add(q).and_then(|v| i64::try_from(v).ok()) {
                return Int::Small(v);
            }
        }
        Int::combine_wide(a, x, b, y)
    }

    /// [`combine`](Self::combine) when the result or an operand does not fit in 64 bits.
    #[cold]
    #[inline(never)]
    fn combine_wide(a: &Int, x: &Int, b: &Int, y: &Int) -> Int {
        if let (Int::Small(a), Int::Small(x), Int::Small(b), Int::Small(y)) = (a, x, b, y) {
            let p = (*a as i128) * (*x as i128);
            let q = (*b as i128) * (*y as i128);
            if let Some(s) = p.checked_add(q) {
                return Int::from(s);
            }
        }
        Int::from(a.to_bigint() * x.to_bigint() + b.to_bigint() * y.to_bigint())
    }

    /// `self = a * self + b * y`, in place (no new value on the fast path).
    #[inline]
    pub(crate) fn combine_assign(&mut self, a: &Int, b: &Int, y: &Int) {
        if let (Int::Small(s), Int::Small(a), Int::Small(b), Int::Small(y)) = (&mut *self, a, b, y)
        {
            let p = (*a as i128) * (*s as i128);
            let q = (*b as i128) * (*y as i128);
            if let Some(v) = p.checked_add(q).and_then(|v| i64::try_from(v).ok()) {
                *s = v;
                return;
            }
        }
        *self = Int::combine_wide(a, self, b, y);
    }

    /// `self += a * b`.
    #[inline]
    pub fn add_mul(&mut self, a: &Int, b: &Int) {
        *self = Int::combine(&Int::ONE, self, a, b);
    }
}

macro_rules! binop {
    ($trait:ident, $method:ident, $checked:ident, $big:tt) => {
        impl<'a> $trait<&'a Int> for &'a Int {
            type Output = Int;
            #[inline]
            fn $method(self, rhs: &'a Int) -> Int {
                if let (Int::Small(a), Int::Small(b)) = (self, rhs) {
                    if let Some(v) = a.$checked(*b) {
                        return Int::Small(v);
                    }
                }
                Int::from(self.to_bigint() $big rhs.to_bigint())
            }
        }
        impl $trait<Int> for Int {
            type Output = Int;
            #[inline]
            fn $method(self, rhs: Int) -> Int {
                (&self).$method(&rhs)
            }
        }
        impl<'a> $trait<&'a Int> for Int {
            type Output = Int;
            #[inline]
            fn $method(self, rhs: &'a Int) -> Int {
                (&self).$method(rhs)
            }
        }
    };
}

binop!(Add, add, checked_add, +);
binop!(Sub, sub, checked_sub, -);
binop!(Mul, mul, checked_mul, *);

impl Neg for &Int {
    type Output = Int;
    #[inline]
    fn neg(self) -> Int {
        if let Int::Small(v) = self {
            if let Some(n) = v.checked_neg() {
                return Int::Small(n);
            }
        }
        self.neg_wide()
    }
}

impl Int {
    /// `-self` when it does not fit in 64 bits (or `self` does not).
    #[cold]
    #[inline(never)]
    fn neg_wide(&self) -> Int {
        Int::from(-self.to_bigint())
    }
}

impl Neg for Int {
    type Output = Int;
    fn neg(self) -> Int {
        -&self
    }
}

impl PartialOrd for Int {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Int {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (Int::Small(a), Int::Small(b)) => a.cmp(b),
            _ => self.to_bigint().cmp(&other.to_bigint()),
        }
    }
}

impl fmt::Display for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Int::Small(v) => write!(f, "{v}"),
            Int::Big(b) => write!(f, "{b}"),
        }
    }
}

impl fmt::Debug for Int {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Int {
    type Err = crate::Error;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Ok(v) = s.parse::<i64>() {
            return Ok(Int::Small(v));
        }
        s.parse::<BigInt>()
            .map(Int::from)
            .map_err(|_| crate::Error::Invalid(format!("not an integer: {s:?}")))
    }
}

impl Zero for Int {
    fn zero() -> Self {
        Int::ZERO
    }
    fn is_zero(&self) -> bool {
        Int::is_zero(self)
    }
}

/// Greatest common divisor of all entries of a slice (0 for an all-zero slice).
///
/// While the entries are small the gcd is accumulated in a `u64` (no
/// [`Int`] is built per entry); it stops at 1. A big entry hands over to
/// `gcd_slice_simple` for the rest of the row.
pub fn gcd_slice(row: &[Int]) -> Int {
    let mut g: u64 = 0;
    for (k, v) in row.iter().enumerate() {
        match v {
            Int::Small(0) => {}
            Int::Small(x) => {
                let mut a = g;
                let mut b = x.unsigned_abs();
                while b != 0 {
                    let t = a % b;
                    a = b;
                    b = t;
                }
                g = a;
                if g == 1 {
                    return Int::ONE;
                }
            }
            Int::Big(_) => {
                let rest = gcd_slice_simple(&row[k..]);
                return Int::from(g as i128).gcd(&rest);
            }
        }
    }
    Int::from(g as i128)
}

/// [`Int::gcd`] when a side is big. Euclid's remainder steps run on big
/// magnitudes only until both fit in 128 bits (a big value against a small
/// one takes a single step); the rest is a binary gcd on `u128`, without
/// allocation. num-bigint's own gcd (the tests' oracle) shifts and allocates
/// at every step, which made 90-bit moduli cost about a millisecond a row.
fn gcd_with_big(a: &Int, b: &Int) -> Int {
    use num_bigint::BigUint;
    let magnitude = |v: &Int| -> BigUint {
        match v {
            Int::Small(x) => BigUint::from(x.unsigned_abs()),
            Int::Big(x) => x.magnitude().clone(),
        }
    };
    let (mut x, mut y) = (magnitude(a), magnitude(b));
    loop {
        if let (Some(p), Some(q)) = (x.to_u128(), y.to_u128()) {
            let g = gcd_u128(p, q);
            return match i128::try_from(g) {
                Ok(v) => Int::from(v),
                Err(_) => Int::from(BigInt::from(g)),
            };
        }
        if y.is_zero() {
            return Int::from(BigInt::from(x));
        }
        let r = &x % &y;
        x = y;
        y = r;
    }
}

/// Binary gcd of two machine words (`gcd(0, 0) = 0`).
fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// [`gcd_slice`] entry by entry on [`Int`]s (the simple version, kept for
/// big entries and as the fast path's test oracle).
pub(crate) fn gcd_slice_simple(row: &[Int]) -> Int {
    let mut g = Int::ZERO;
    for v in row {
        if !v.is_zero() {
            g = g.gcd(v);
            if g.is_one() {
                break;
            }
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn big(v: &Int) -> BigInt {
        v.to_bigint()
    }

    fn arb_int() -> impl Strategy<Value = Int> {
        prop_oneof![
            (-10i64..10).prop_map(Int::from),
            any::<i64>().prop_map(Int::from),
            (any::<i64>(), any::<i64>())
                .prop_map(|(a, b)| Int::from(BigInt::from(a) * BigInt::from(b))),
        ]
    }

    #[test]
    fn gcd_slice_extremes() {
        let min = Int::from(i64::MIN);
        let big = &min * &Int::from(3);
        for row in [
            vec![],
            vec![Int::ZERO, Int::ZERO],
            vec![min.clone()],
            vec![min.clone(), min.clone()],
            vec![min.clone(), Int::from(6)],
            vec![Int::from(4), big.clone(), Int::from(-8)],
            vec![big.clone(), big.clone()],
        ] {
            assert_eq!(gcd_slice(&row), gcd_slice_simple(&row), "{row:?}");
        }
        assert_eq!(gcd_slice(std::slice::from_ref(&min)), -&min);
    }

    /// Values up to about 250 bits with a shared factor: every path of
    /// `gcd_with_big` (one small side, both within 128 bits, Euclid's steps
    /// above) against num-bigint's gcd.
    fn arb_wide() -> impl Strategy<Value = BigInt> {
        prop::collection::vec(any::<i64>(), 1..=4)
            .prop_map(|ws| ws.iter().fold(BigInt::from(1), |p, &w| p * BigInt::from(w)))
    }

    proptest! {
        #[test]
        fn wide_gcds_match_bigint(a in arb_wide(), b in arb_wide(), c in arb_wide()) {
            for (x, y) in [(&a * &c, &b * &c), (a.clone(), &b * &c), (&a * &c, c.clone()), (a.clone(), BigInt::from(0))] {
                let (ix, iy) = (Int::from(x.clone()), Int::from(y.clone()));
                prop_assert_eq!(big(&ix.gcd(&iy)), x.gcd(&y));
                prop_assert_eq!(big(&iy.gcd(&ix)), x.gcd(&y));
            }
        }

        #[test]
        fn arithmetic_matches_bigint(a in arb_int(), b in arb_int(), c in arb_int(), d in arb_int()) {
            prop_assert_eq!(big(&(&a + &b)), big(&a) + big(&b));
            prop_assert_eq!(big(&(&a - &b)), big(&a) - big(&b));
            prop_assert_eq!(big(&(&a * &b)), big(&a) * big(&b));
            prop_assert_eq!(big(&-&a), -big(&a));
            prop_assert_eq!(big(&Int::combine(&a, &b, &c, &d)), big(&a) * big(&b) + big(&c) * big(&d));
            prop_assert_eq!(a.cmp(&b), big(&a).cmp(&big(&b)));
            prop_assert_eq!(big(&a.gcd(&b)), big(&a).gcd(&big(&b)));
            if !b.is_zero() {
                prop_assert_eq!(big(&a.div_floor(&b)), big(&a).div_floor(&big(&b)));
                prop_assert_eq!(big(&a.div_ceil(&b)), num_integer::Integer::div_ceil(&big(&a), &big(&b)));
                prop_assert_eq!(big(&a.mod_floor(&b)), big(&a).mod_floor(&big(&b).abs()));
            }
            let row = [a.clone(), b.clone(), c.clone(), d.clone(), Int::ZERO];
            prop_assert_eq!(gcd_slice(&row), gcd_slice_simple(&row));
            prop_assert_eq!(gcd_slice(&row[..2]), gcd_slice_simple(&row[..2]));
            // canonical form: small values are always Small
            let s = &(&a + &b) - &b;
            prop_assert_eq!(&s, &a);
            prop_assert_eq!(s.to_string().parse::<Int>().unwrap(), a);
        }
    }
}
