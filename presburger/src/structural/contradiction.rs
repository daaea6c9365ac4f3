//! A cheap exact test that the equalities of a disjunct have no integer
//! solution, for the disjuncts that [`BasicMap::simplify`] leaves with
//! several equalities over locals.
//!
//! `simplify` eliminates the equalities' pivots one column at a time from
//! the last column on, so it does not combine two equalities that give
//! the same dimension through different locals: `i = 2a - 1` and
//! `i = -2b - 2` (i odd and i even, the input of `trace-domain-167`) stay
//! as they are, and the disjunct, empty, is kept. Here the equalities are
//! combined the other way round, the variables (parameters and
//! dimensions) eliminated first: what is left over involves locals only,
//! `2a + 2b + 1 = 0` in the example, and a row whose coefficients' gcd
//! does not divide its constant has no integer solution.
//!
//! Every row formed is an integer combination of the equalities, divided
//! by a common factor of all its entries: it holds at every integer point
//! of the disjunct. So a row found without an integer solution proves the
//! disjunct empty (the test is exact when it says so; it may miss other
//! empty disjuncts, which are then kept as before). The oracle of its test
//! (`tests/structural_fast.rs`) is the emptiness test of the operand.

use crate::basic::BasicMap;
use crate::int::Int;

/// True if [`equalities_contradict`] is worth asking about `b`: some
/// equality mentions a local, none with a unit coefficient (the shape
/// `simplify` leaves alone: it substitutes a unit existential), and some
/// column is mentioned by two equalities (else no two rows are combined;
/// a single row `simplify` has normalised, which finds a row without an
/// integer solution). One pass over the equalities. Only a filter: the
/// test is exact whatever it is asked about.
pub(crate) fn worth_a_look(b: &BasicMap) -> bool {
    let (off, n) = (b.off_div(), b.row_len());
    if b.n_div() == 0 || b.eqs.len() < 2 || b.eqs.len() > MAX_ROWS || n > MAX_COLS {
        return false;
    }
    let (mut seen, mut shared, mut local) = (0u32, 0u32, false);
    for r in b.eqs.iter() {
        let mut mask = 0u32;
        for (c, v) in r.iter().enumerate().skip(1) {
            match v {
                Int::Small(0) => continue,
                Int::Small(1 | -1) if c >= off => return false,
                _ => {}
            }
            local |= c >= off;
            mask |= 1 << c;
        }
        shared |= seen & mask;
        seen |= mask;
    }
    local && shared != 0
}

/// The most equalities and columns looked at (on the stack).
const MAX_ROWS: usize = 8;
const MAX_COLS: usize = 32;

/// True if some integer combination of `b`'s equalities, with the
/// parameters and dimensions eliminated first, has no integer solution:
/// then `b` is empty (see the [module documentation](self)). `false`
/// says nothing (also when there are more than [`MAX_ROWS`] equalities
/// or [`MAX_COLS`] columns, or an entry does not fit in 64 bits).
pub(crate) fn equalities_contradict(b: &BasicMap) -> bool {
    let n = b.row_len();
    let e = b.eqs.len();
    if e > MAX_ROWS || n > MAX_COLS {
        return false;
    }
    // the copy on the stack, row after row
    let mut m = [0i64; MAX_ROWS * MAX_COLS];
    for (k, r) in b.eqs.iter().enumerate() {
        for (x, v) in m[k * n..(k + 1) * n].iter_mut().zip(r) {
            let Int::Small(v) = v else { return false };
            *x = *v;
        }
    }
    let mut row = 0;
    for c in 1..n {
        if row == e {
            break;
        }
        let Some(p) = (row..e).find(|&r| m[r * n + c] != 0) else {
            continue;
        };
        if p != row {
            let (head, tail) = m.split_at_mut(p * n);
            head[row * n..(row + 1) * n].swap_with_slice(&mut tail[..n]);
        }
        let (done, rest) = m.split_at_mut((row + 1) * n);
        let piv = &done[row * n..(row + 1) * n];
        for r in rest[..(e - row - 1) * n].chunks_mut(n) {
            if r[c] != 0 {
                match combine(r, piv, c) {
                    None => return false,
                    Some(true) => return true,
                    Some(false) => {}
                }
            }
        }
        row += 1;
    }
    false
}

/// `r` made zero at column `c` by an integer combination with `piv`
/// (`piv[c] != 0`), divided by the gcd of its entries; `Some(true)` if it
/// then has no integer solution (its coefficients' gcd does not divide
/// its constant, or they are all zero and the constant is not), `None` if
/// an entry does not fit.
fn combine(r: &mut [i64], piv: &[i64], c: usize) -> Option<bool> {
    let g = i64::try_from(gcd(piv[c].unsigned_abs(), r[c].unsigned_abs())).ok()?;
    let (a, nb) = (piv[c] / g, (r[c] / g).checked_neg()?);
    // r = a·r + nb·piv: zero at c
    let mut gc = 0u64;
    for k in 0..r.len() {
        let v = (a as i128) * (r[k] as i128) + (nb as i128) * (piv[k] as i128);
        r[k] = i64::try_from(v).ok()?;
        if k > 0 {
            gc = gcd(gc, r[k].unsigned_abs());
        }
    }
    debug_assert_eq!(r[c], 0);
    if gc == 0 {
        return Some(r[0] != 0);
    }
    // (gc fits: it divides every entry, at least one of them non-zero, or
    // is 2^63 only for entries i64::MIN, then not divided)
    let gc = i64::try_from(gc).ok()?;
    if r[0] % gc != 0 {
        return Some(true);
    }
    // (an exact division: every entry is a multiple of gc)
    if gc != 1 {
        r.iter_mut().for_each(|v| *v /= gc);
    }
    Some(false)
}

/// The gcd of two magnitudes (`0` for two zeros).
fn gcd(a: u64, b: u64) -> u64 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Map;

    /// Constraints of relations `[n] -> { [i] -> [k] }`: parities and
    /// residues of the dimensions through existentials (some of them
    /// contradicting each other), equalities without locals, bounds.
    const POOL: &[&str] = &[
        "exists a : i = 2a",
        "exists b : i = 2b + 1",
        "exists c : i = -2c - 2",
        "exists d : i = 3d",
        "exists e : k = 3e + 1",
        "exists f : k = 2f + i",
        "exists g : i + k = 4g + 2",
        "exists h : 2h = i + k",
        "exists p, q : i = 6p + 1 and k = 4q",
        "k = i + 1",
        "k = 2i",
        "k = n",
        "0 <= i <= 10",
        "k <= n",
    ];

    fn relation(picks: &[usize]) -> Map {
        crate::testing::pooled_map(&POOL, picks, "[i] -> [k]")
    }

    /// A disjunct whose equalities are found contradictory is empty
    /// (the exact emptiness test), as parsed and once simplified; on
    /// 3000 random conjunctions of the pool, of which dozens are found so
    /// (the count is checked: the test is not vacuous).
    #[test]
    fn contradiction_means_empty() {
        let mut rng = crate::testing::XorShift(0x9e37_79b9_7f4a_7c15);
        let mut found = 0;
        for _ in 0..3000 {
            let picks: Vec<usize> = (0..rng.below(6))
                .map(|_| rng.below(POOL.len() as u64) as usize)
                .collect();
            let m = relation(&picks);
            for b in m.basic_maps() {
                let mut s = b.clone();
                let simplified = s.simplify();
                for c in [Some(b), simplified.then_some(&s)].into_iter().flatten() {
                    if equalities_contradict(c) {
                        found += 1;
                        assert!(c.clone().is_empty().unwrap(), "{picks:?}: {c:?}");
                    }
                }
            }
        }
        assert!(found > 30, "{found}");
    }

    /// The test finds what `simplify` leaves: two parities of `i` through
    /// different locals, once simplified (and not a consistent pair).
    #[test]
    fn opposite_parities_found() {
        for (picks, empty) in [
            (&[0usize, 1][..], true),
            (&[1, 2, 3], true),
            (&[8, 0], true),
            (&[6, 9], true),
            (&[0, 2], false),
            (&[1, 3, 4], false),
        ] {
            let m = relation(picks);
            for b in m.basic_maps() {
                let mut s = b.clone();
                let found = s.simplify() && worth_a_look(&s) && equalities_contradict(&s);
                let found = found || !s.clone().simplify();
                assert_eq!(found, empty, "{picks:?}: {s:?}");
            }
        }
    }
}
