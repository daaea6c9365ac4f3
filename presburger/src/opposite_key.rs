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
//! from a fixed odd sequence ([`multiplier`], stepped by [`KeyStep`]); a
//! zero coefficient adds nothing, so sparse rows can skip their zeros as
//! long as the position advances. Duplicate inequalities (`simplify`) and
//! parallel rows (coalescing's cheap normalisation) are keyed the same way.

use crate::int::Int;

/// The splitmix64 finaliser: a bijection of `u64` whose outputs look
/// independent for consecutive inputs.
const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// How many positions [`multiplier`] reads from a table.
const TABLED: usize = 128;

/// The multipliers of the first [`TABLED`] columns, computed at compile time.
static MULTIPLIERS: [u64; TABLED] = {
    let mut t = [0u64; TABLED];
    let mut c = 0;
    while c < TABLED {
        t[c] = splitmix(c as u64) | 1;
        c += 1;
    }
    t
};

/// The multiplier `m_c` of position `c`: odd and pseudo-random. The
/// multipliers look independent, so rows with small coefficients rarely
/// share a key (multipliers in arithmetic progression, `c·k`, would give
/// `x_1 + x_4` and `x_2 + x_3` one key); the first [`TABLED`] are read from
/// a table made at compile time, so a sparse row pays only for its
/// non-zero entries.
#[inline]
pub(crate) fn multiplier(c: usize) -> u64 {
    match MULTIPLIERS.get(c) {
        Some(&m) => m,
        None => splitmix(c as u64) | 1,
    }
}

/// The multipliers of a [`key`], one per coefficient position (see
/// [`multiplier`]).
#[derive(Clone, Copy)]
pub(crate) struct KeyStep(usize);

impl KeyStep {
    /// The first coefficient's position.
    #[inline(always)]
    pub(crate) fn start() -> KeyStep {
        KeyStep(0)
    }

    /// This position's multiplier.
    #[inline(always)]
    pub(crate) fn get(self) -> u64 {
        multiplier(self.0)
    }

    /// The next position.
    #[inline(always)]
    pub(crate) fn next(self) -> KeyStep {
        KeyStep(self.0 + 1)
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
///
/// The first [`TABLED`] positions walk the multiplier table alongside the
/// row (no index, no bounds check; a zero adds `0·m_c`, no branch for
/// it), the rest compute theirs; the key is [`key`]'s (the tests compare).
pub(crate) fn int_key(a: &[Int]) -> Option<u64> {
    #[inline(always)]
    fn term(x: &Int, m: u64) -> Option<u64> {
        match x {
            Int::Small(x) if *x != i64::MIN => Some((*x as u64).wrapping_mul(m)),
            _ => None,
        }
    }
    let (head, tail) = a.split_at(a.len().min(TABLED));
    let mut h: u64 = 0;
    for (x, &m) in head.iter().zip(MULTIPLIERS.iter()) {
        h = h.wrapping_add(term(x, m)?);
    }
    for (c, x) in tail.iter().enumerate() {
        h = h.wrapping_add(term(x, multiplier(TABLED + c))?);
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

    /// No two rows of at most two entries in `{-2, …, 2}` over the first
    /// 40 columns share a key unless they are equal (the arithmetic
    /// progression `c·k` fails this: `x_1 + x_4` against `x_2 + x_3`).
    #[test]
    fn small_rows_have_distinct_keys() {
        let mut seen = std::collections::HashMap::new();
        let vals = [-2i64, -1, 1, 2];
        for a in 0..40usize {
            for b in a..40usize {
                for &x in &vals {
                    for &y in &vals {
                        let mut row = [0i64; 40];
                        row[a] += x;
                        row[b] += y;
                        let h = row.iter().enumerate().fold(0u64, |h, (c, &v)| {
                            h.wrapping_add((v as u64).wrapping_mul(multiplier(c)))
                        });
                        if let Some(old) = seen.insert(h, row) {
                            assert_eq!(old, row, "hash {h:#x}");
                        }
                    }
                }
            }
        }
        assert!(seen.len() > 10_000);
    }

    proptest! {
        /// `key` is linear: opposite coefficient lists have cancelling keys.
        #[test]
        fn negation_cancels(a in prop::collection::vec(-1000i64..1000, 0..8)) {
            let neg: Vec<i64> = a.iter().map(|x| -x).collect();
            prop_assert_eq!(key(&a).wrapping_add(key(&neg)), 0);
        }

        /// `int_key` is `key` on rows of small integers, short ones and
        /// ones longer than the multiplier table (mostly zeros, as rows are).
        #[test]
        fn int_key_is_key(
            a in prop::collection::vec(-1000i64..1000, 0..8),
            long in prop::collection::vec(prop_oneof![4 => Just(0i64), 1 => -5i64..5], 120..140),
        ) {
            for a in [a, long] {
                let ints: Vec<Int> = a.iter().map(|&x| Int::from(x)).collect();
                prop_assert_eq!(int_key(&ints), Some(key(&a)));
            }
        }

        /// `int_key` has no key for a row with `i64::MIN` or a big
        /// integer, wherever it is (before or after the table's end).
        #[test]
        fn int_key_refuses_what_has_no_negation(len in 1usize..140, at in 0usize..140, big in any::<bool>()) {
            let at = at % len;
            let mut ints = vec![Int::ZERO; len];
            ints[at] = if big {
                &Int::from(i64::MAX) + &Int::ONE
            } else {
                Int::from(i64::MIN)
            };
            prop_assert_eq!(int_key(&ints), None);
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
