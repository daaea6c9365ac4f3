//! Keys that find opposite rows without comparing every pair.
//!
//! Two inequalities `c + a·x >= 0` and `d - a·x >= 0` bound the same form
//! from both sides: the searches for integer points and the refutations
//! look for such pairs first. Comparing every pair of rows costs a pass over
//! both rows per pair; here each row gets a [`key`] of its coefficients that
//! is linear modulo 2^64, `key(-a) = -key(a)` (wrapping), so only rows whose
//! keys cancel can be opposite. The keys are sorted once and
//! [`cancelling_pairs`] lists the candidate pairs; the callers compare those
//! in full (a key is a hash: equal keys do not prove opposite rows).
//!
//! The key sums `a_k · m_k` over the coefficients, with multipliers `m_k`
//! from a fixed odd sequence ([`KeyStep`]); a zero coefficient adds nothing,
//! so sparse rows can skip their zeros as long as the multiplier advances.

use crate::int::Int;

/// The multipliers of a [`key`], one per coefficient position.
#[derive(Clone, Copy)]
pub(crate) struct KeyStep(u64);

impl KeyStep {
    /// The multiplier of the first coefficient.
    #[inline(always)]
    pub(crate) fn start() -> KeyStep {
        KeyStep(0x9E37_79B9_7F4A_7C15)
    }

    /// This position's multiplier.
    #[inline(always)]
    pub(crate) fn get(self) -> u64 {
        self.0
    }

    /// The next position's (odd).
    #[inline(always)]
    pub(crate) fn next(self) -> KeyStep {
        KeyStep(self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1)
    }
}

/// The key of the coefficients `a` (see the [module documentation](self)):
/// the definition that the callers' sparse loops must agree with.
pub(crate) fn key(a: &[i64]) -> u64 {
    let mut h: u64 = 0;
    let mut m = KeyStep::start();
    for &x in a {
        h = h.wrapping_add((x as u64).wrapping_mul(m.get()));
        m = m.next();
    }
    h
}

/// The [`key`] of the coefficients `a` of a row of exact integers; `None`
/// when one is not an `i64` or is `i64::MIN` (whose negation is not).
pub(crate) fn int_key(a: &[Int]) -> Option<u64> {
    let mut h: u64 = 0;
    let mut m = KeyStep::start();
    for x in a {
        match x {
            Int::Small(0) => {}
            Int::Small(x) if *x != i64::MIN => {
                h = h.wrapping_add((*x as u64).wrapping_mul(m.get()))
            }
            _ => return None,
        }
        m = m.next();
    }
    Some(h)
}

/// The pairs `(i, j)` of `keys` (sorted `(key, row)` entries) whose keys
/// cancel, `i` before `j` in the order of `keys`' rows (`i < j`), each pair
/// once, never a row with itself: the candidates for opposite rows.
pub(crate) fn cancelling_pairs(keys: &[(u64, usize)]) -> impl Iterator<Item = (usize, usize)> + '_ {
    debug_assert!(keys.windows(2).all(|w| w[0] <= w[1]), "keys not sorted");
    keys.iter().flat_map(move |&(k, i)| {
        let want = k.wrapping_neg();
        let start = keys.partition_point(|&(x, _)| x < want);
        keys[start..]
            .iter()
            .take_while(move |&&(x, _)| x == want)
            .filter(move |&&(_, j)| j > i)
            .map(move |&(_, j)| (i, j))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `key` is linear: opposite coefficient lists have cancelling keys.
        #[test]
        fn negation_cancels(a in prop::collection::vec(-1000i64..1000, 0..8)) {
            let neg: Vec<i64> = a.iter().map(|x| -x).collect();
            prop_assert_eq!(key(&a).wrapping_add(key(&neg)), 0);
        }

        /// `int_key` is `key` on rows of small integers.
        #[test]
        fn int_key_is_key(a in prop::collection::vec(-1000i64..1000, 0..8)) {
            let ints: Vec<Int> = a.iter().map(|&x| Int::from(x)).collect();
            prop_assert_eq!(int_key(&ints), Some(key(&a)));
        }

        /// `cancelling_pairs` lists exactly the pairs `i < j` with
        /// cancelling keys (the oracle: every pair).
        #[test]
        fn pairs_are_those_of_every_pair(ks in prop::collection::vec(-3i64..4, 0..12)) {
            let mut keys: Vec<(u64, usize)> =
                ks.iter().enumerate().map(|(i, &k)| (k as u64, i)).collect();
            keys.sort_unstable();
            let mut fast: Vec<_> = cancelling_pairs(&keys).collect();
            fast.sort_unstable();
            let mut all = Vec::new();
            for i in 0..ks.len() {
                for j in i + 1..ks.len() {
                    if (ks[i] as u64).wrapping_add(ks[j] as u64) == 0 {
                        all.push((i, j));
                    }
                }
            }
            prop_assert_eq!(fast, all);
        }
    }
}
