//! Comparing affs: the [`Set`] of domain points where a relation holds.

use crate::aff::expr::Aff;
use crate::aff::multi::embed;
use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::{Map, Set};

/// The sign condition of a comparison set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sign {
    /// `value >= 0`
    NonNeg,
    /// `value > 0`
    Pos,
    /// `value = 0`
    Zero,
}

impl Aff {
    fn sign_set(&self, sign: Sign) -> Set {
        let mut b = BasicMap::universe(self.space.clone());
        let mut row = embed(self, &mut b);
        // the numerator is an integer at every integer point and the
        // denominator is positive: `num > 0` is `num - 1 >= 0`
        match sign {
            Sign::NonNeg => b.add_ineq(row),
            Sign::Pos => {
                row[0] = &row[0] - &Int::ONE;
                b.add_ineq(row)
            }
            Sign::Zero => b.add_eq(row),
        }
        Map::from_basic(b).simplify_parts()
    }

    /// The domain points where the value is `>= 0`.
    pub fn nonneg_set(&self) -> Set {
        self.sign_set(Sign::NonNeg)
    }

    /// The domain points where the value is `> 0`.
    pub fn pos_set(&self) -> Set {
        self.sign_set(Sign::Pos)
    }

    /// The domain points where the value is `0`.
    pub fn zero_set(&self) -> Set {
        self.sign_set(Sign::Zero)
    }

    /// The domain points where `self <= other` (parameters are aligned;
    /// `Err` if the domains differ).
    ///
    /// ```
    /// use presburger::{Aff, Set};
    /// let a: Aff = "{ [i] -> [(floor((i)/2))] }".parse().unwrap();
    /// let b: Aff = "{ [i] -> [(3)] }".parse().unwrap();
    /// let s = a.le_set(&b).unwrap();
    /// assert!(s.is_equal(&"{ [i] : i <= 7 }".parse::<Set>().unwrap()).unwrap());
    /// ```
    pub fn le_set(&self, other: &Aff) -> Result<Set> {
        Ok(other.sub(self)?.nonneg_set())
    }

    /// The domain points where `self < other`.
    pub fn lt_set(&self, other: &Aff) -> Result<Set> {
        Ok(other.sub(self)?.pos_set())
    }

    /// The domain points where `self >= other`.
    pub fn ge_set(&self, other: &Aff) -> Result<Set> {
        other.le_set(self)
    }

    /// The domain points where `self > other`.
    pub fn gt_set(&self, other: &Aff) -> Result<Set> {
        other.lt_set(self)
    }

    /// The domain points where `self = other`.
    pub fn eq_set(&self, other: &Aff) -> Result<Set> {
        Ok(other.sub(self)?.zero_set())
    }

    /// The domain points where `self != other`.
    pub fn ne_set(&self, other: &Aff) -> Result<Set> {
        self.lt_set(other)?.union(&self.gt_set(other)?)
    }

    /// True if the two affs are equal at every domain point (decided exactly).
    pub fn is_equal(&self, other: &Aff) -> Result<bool> {
        let d = self.sub(other)?;
        if d.num.iter().all(Int::is_zero) {
            return Ok(true);
        }
        d.pos_set().union(&d.neg().pos_set())?.is_empty()
    }
}
