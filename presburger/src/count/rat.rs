//! Exact rationals over the engine's integers: the coefficients of
//! quasi-polynomials.

use std::cmp::Ordering;
use std::fmt;

use crate::int::Int;

/// A rational number `num / den` in lowest terms with `den > 0`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Rat {
    num: Int,
    den: Int,
}

impl Rat {
    /// Zero.
    pub fn zero() -> Rat {
        Rat::from(Int::ZERO)
    }

    /// One.
    pub fn one() -> Rat {
        Rat::from(Int::ONE)
    }

    /// `num / den` reduced; `None` if `den` is zero.
    pub fn new(num: Int, den: Int) -> Option<Rat> {
        if den.is_zero() {
            return None;
        }
        let g = num.gcd(&den);
        let (mut n, mut d) = (num.div_exact(&g), den.div_exact(&g));
        if d.is_neg() {
            n = -n;
            d = -d;
        }
        Some(Rat { num: n, den: d })
    }

    /// The numerator (sign of the value).
    pub fn numer(&self) -> &Int {
        &self.num
    }

    /// The positive denominator.
    pub fn denom(&self) -> &Int {
        &self.den
    }

    /// True for zero.
    pub fn is_zero(&self) -> bool {
        self.num.is_zero()
    }

    /// True for an integer value.
    pub fn is_integer(&self) -> bool {
        self.den.is_one()
    }

    /// True for a negative value.
    pub fn is_neg(&self) -> bool {
        self.num.is_neg()
    }

    /// The absolute value.
    pub fn abs(&self) -> Rat {
        Rat {
            num: self.num.abs(),
            den: self.den.clone(),
        }
    }

    /// Sum.
    pub fn add(&self, o: &Rat) -> Rat {
        if self.den == o.den {
            return Rat::new(&self.num + &o.num, self.den.clone()).unwrap();
        }
        Rat::new(
            &(&self.num * &o.den) + &(&o.num * &self.den),
            &self.den * &o.den,
        )
        .unwrap()
    }

    /// Difference.
    pub fn sub(&self, o: &Rat) -> Rat {
        self.add(&o.neg())
    }

    /// Product.
    pub fn mul(&self, o: &Rat) -> Rat {
        Rat::new(&self.num * &o.num, &self.den * &o.den).unwrap()
    }

    /// Quotient; `None` when dividing by zero.
    pub fn div(&self, o: &Rat) -> Option<Rat> {
        Rat::new(&self.num * &o.den, &self.den * &o.num)
    }

    /// Negation.
    pub fn neg(&self) -> Rat {
        Rat {
            num: -&self.num,
            den: self.den.clone(),
        }
    }

    /// The largest integer not above the value.
    pub fn floor(&self) -> Int {
        self.num.div_floor(&self.den)
    }
}

impl From<Int> for Rat {
    fn from(v: Int) -> Rat {
        Rat {
            num: v,
            den: Int::ONE,
        }
    }
}

impl From<i64> for Rat {
    fn from(v: i64) -> Rat {
        Rat::from(Int::from(v))
    }
}

impl PartialOrd for Rat {
    fn partial_cmp(&self, other: &Rat) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Rat {
    fn cmp(&self, other: &Rat) -> Ordering {
        (&self.num * &other.den).cmp(&(&other.num * &self.den))
    }
}

impl fmt::Display for Rat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.den.is_one() {
            write!(f, "{}", self.num)
        } else {
            write!(f, "{}/{}", self.num, self.den)
        }
    }
}
