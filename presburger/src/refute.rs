//! Cheap proofs that a basic map is empty.
//!
//! Most dependence relations that turn out empty do so for a shallow
//! reason: an equality from the subscripts, substituted into an order
//! constraint, contradicts it (`i = i'` and `i' < i`), or two inequalities
//! left after the substitution bound the same expression from both sides
//! with no integer between them (`i - j >= 2` and `j - i >= -1`). The full
//! [`simplify`](crate::simplify) finds these too, but after copying the
//! basic map and running every other rule.
//!
//! [`refute`] looks only for these contradictions, on machine integers:
//!
//! 1. every equality, divided by the gcd of its coefficients (a gcd that
//!    does not divide the constant is a contradiction), is solved for one
//!    of its columns and substituted into the later equalities and all the
//!    inequalities (an inequality is only ever multiplied by a positive
//!    number);
//! 2. every inequality is divided by the gcd of its coefficients, its
//!    constant rounded down (all unknowns, locals included, are integers);
//! 3. a row without coefficients must be true (`c >= 0`, `c = 0`), and two
//!    inequalities with opposite coefficients `a·x + c >= 0` and
//!    `-a·x + c' >= 0` need `c + c' >= 0`.
//!
//! Each step derives constraints that every integer point satisfies, so a
//! contradiction proves that there is no point; `false` only means "no
//! proof". A coefficient that is not an `i64`, or an intermediate value
//! that does not fit, also gives `false`.
//!
//! ```
//! use presburger::Map;
//! // a flow dependence that the subscripts and the order rule out
//! let m: Map = "[n] -> { S[i] -> S[j] : 0 <= i < n and 0 <= j < n and i = j + 1 and i < j }".parse().unwrap();
//! assert!(m.is_empty().unwrap());
//! ```

use crate::basic::BasicMap;
use crate::int::Int;
use crate::opposite_key::{cancelling_pairs, key, KeyStep};

/// True if one of the contradictions of the [module documentation](self)
/// shows that `b` has no integer point.
pub(crate) fn refute(b: &BasicMap) -> bool {
    refute_rows(b).unwrap_or(false)
}

/// [`refute`], or `None` when a coefficient or an intermediate value does
/// not fit in an `i64` (no answer either way).
pub(crate) fn refute_checked(b: &BasicMap) -> Option<bool> {
    refute_rows(b).ok()
}

/// A coefficient or an intermediate value does not fit in an `i64`: no proof.
struct Overflow;

/// A checked machine operation's result, or [`Overflow`].
#[inline]
fn fit<T>(v: Option<T>) -> Result<T, Overflow> {
    v.ok_or(Overflow)
}

/// [`refute`]: `Ok(true)` for a proof of emptiness, `Ok(false)` for none.
#[inline]
fn refute_rows(b: &BasicMap) -> Result<bool, Overflow> {
    refute_rows_with(b, true)
}

/// [`refute_rows`]; with `sparse`, a substitution by an equality whose
/// pivot is a unit changes only the equality's columns of a row (the
/// others are unchanged: `x·1 - f·0`); without, every column is
/// recomputed (the tests' oracle: the same rows, the same answer).
fn refute_rows_with(b: &BasicMap, sparse: bool) -> Result<bool, Overflow> {
    let n = b.row_len();
    let ne = b.eqs.len();
    let m = ne + b.ineqs.len();
    // rows as i64, equalities first
    // (filled as read, not zeroed first: the matrix can be a few pages)
    let mut a: Vec<i64> = Vec::with_capacity(m * n);
    for r in b.eqs.iter().chain(&b.ineqs) {
        for x in &r[..n] {
            match x {
                Int::Small(x) => a.push(*x),
                Int::Big(_) => return Err(Overflow),
            }
        }
    }
    // 1. solve each equality for a column and substitute it into later rows
    for e in 0..ne {
        let (done, rest) = a.split_at_mut((e + 1) * n);
        let eq = &mut done[e * n..];
        let g = gcd_of(&eq[1..]);
        if g == 0 {
            if eq[0] != 0 {
                return Ok(true); // 0 = c
            }
            continue;
        }
        if eq[0] % g != 0 {
            return Ok(true);
        }
        if g != 1 {
            eq.iter_mut().for_each(|v| *v /= g);
        }
        // a column with coefficient ±1 keeps the rows small; any other
        // column scales the rows it is substituted into
        let c = fit((1..n)
            .rev()
            .find(|&c| eq[c].unsigned_abs() == 1)
            .or_else(|| (1..n).rev().find(|&c| eq[c] != 0)))?;
        // the columns of the equality when it has at most 8 (usually 2 or
        // 3): with a unit pivot a row changes only there (listed, on the
        // stack, once a row needs them; `None` inside: too many)
        let mut few: Option<Option<([usize; 8], usize)>> = None;
        let p = eq[c];
        let scale = fit(p.checked_abs())?;
        for (k, row) in rest.chunks_exact_mut(n).enumerate() {
            if row[c] == 0 {
                continue;
            }
            // row·|p| - sign(p)·row[c]·eq has no column c; |p| > 0 keeps an
            // inequality's direction
            let f = fit(row[c].checked_mul(p.signum()))?;
            let cols = match few {
                Some(x) => x,
                None if sparse && scale == 1 => *few.insert(columns_of(eq)),
                None => *few.insert(None),
            };
            if let Some((cols, len)) = cols {
                for &j in &cols[..len] {
                    row[j] = fit(row[j].checked_sub(fit(f.checked_mul(eq[j]))?))?;
                }
            } else {
                for j in 0..n {
                    let v = fit(row[j].checked_mul(scale))?;
                    row[j] = fit(v.checked_sub(fit(f.checked_mul(eq[j]))?))?;
                }
            }
            debug_assert_eq!(row[c], 0, "row {k}");
        }
    }
    // 2. tighten the inequalities; 3. rows without coefficients
    let ineqs = &mut a[ne * n..];
    for row in ineqs.chunks_exact_mut(n) {
        let g = gcd_of(&row[1..]);
        if g == 0 {
            if row[0] < 0 {
                return Ok(true);
            }
            continue;
        }
        if g > 1 {
            row[0] = row[0].div_euclid(g);
            row[1..].iter_mut().for_each(|v| *v /= g);
        }
    }
    // 3. opposite pairs: only rows whose keys cancel are compared
    if has_opposite_pair(ineqs, n)? {
        return Ok(true);
    }
    Ok(false)
}

/// True if two of the tightened inequalities (rows of length `n` in
/// `ineqs`) have opposite non-zero coefficients and constants whose sum
/// is negative (`a·x + c >= 0` and `-a·x + c' >= 0` with `c + c' < 0`).
///
/// Each row gets a key linear in its coefficients (a wrapping sum of the
/// coefficients times fixed odd multipliers), so the key of `-a` is the
/// negation of the key of `a`: the keys are sorted, and a row is compared
/// in full only with the rows whose key is the negation of its own (a
/// key says nothing for sure, the comparison decides). Quadratic
/// comparisons of every pair cost ~13 k instructions on the 55-row
/// intersections that the AST generator tests (tiled_mix).
fn has_opposite_pair(ineqs: &[i64], n: usize) -> Result<bool, Overflow> {
    // (`key` over the non-zero coefficients only: rows are sparse)
    let mut keys: Vec<(u64, usize)> = Vec::with_capacity(ineqs.len() / n.max(1));
    for (i, r) in ineqs.chunks_exact(n).enumerate() {
        let mut h: u64 = 0;
        let mut any = false;
        let mut m = KeyStep::start();
        for &x in &r[1..] {
            if x != 0 {
                any = true;
                h = h.wrapping_add((x as u64).wrapping_mul(m.get()));
            }
            m = m.next();
        }
        debug_assert!(!any || h == key(&r[1..]));
        if any {
            keys.push((h, i));
        }
    }
    if keys.len() < 2 {
        return Ok(false);
    }
    keys.sort_unstable();
    for (i, j) in cancelling_pairs(&keys) {
        let (r, s) = (&ineqs[i * n..(i + 1) * n], &ineqs[j * n..(j + 1) * n]);
        if r[1..]
            .iter()
            .zip(&s[1..])
            .all(|(x, y)| x.checked_neg() == Some(*y))
            && fit(r[0].checked_add(s[0]))? < 0
        {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The columns (the constant's included) of an equality's non-zero
/// entries and their number, if at most 8.
fn columns_of(eq: &[i64]) -> Option<([usize; 8], usize)> {
    let mut cols = [0usize; 8];
    let mut len = 0;
    for (j, &v) in eq.iter().enumerate() {
        if v != 0 {
            if len == cols.len() {
                return None;
            }
            cols[len] = j;
            len += 1;
        }
    }
    Some((cols, len))
}

/// The gcd of the absolute values (0 for all zeros; 0 also if it does not
/// fit, which only `i64::MIN` everywhere gives).
pub(crate) fn gcd_of(v: &[i64]) -> i64 {
    let mut g: u64 = 0;
    for &x in v {
        let mut a = x.unsigned_abs();
        if a == 1 {
            return 1; // the common case: no division at all
        }
        while a != 0 {
            (g, a) = (a, g % a);
        }
    }
    // a gcd of i64 values fits unless every value is i64::MIN
    i64::try_from(g).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::testing::{pool_with, BASE_POOL};
    use proptest::prelude::*;

    /// Parsed as one basic map (a map's parser would leave a refuted
    /// disjunct out).
    fn basic(text: &str) -> BasicMap {
        let b: BasicMap = text.parse().unwrap();
        assert!(!b.is_obviously_empty(), "kept as written: {text}");
        b
    }

    #[test]
    fn refutes_shallow_contradictions() {
        // an equality substituted into an order constraint
        let h = "[n] -> { S[i0, i1] -> S[j0, j1] : 0 <= i0 < n and 0 <= i1 < n and 0 <= j0 < n and 0 <= j1 < n";
        assert!(refute(&basic(&format!(
            "{h} and i0 = j0 and i1 = j1 + 1 and i1 < j1 }}"
        ))));
        // opposite inequalities after the substitution
        assert!(refute(&basic(&format!(
            "{h} and i0 + i1 = j0 + j1 + 1 and i0 < j0 and i1 < j1 }}"
        ))));
        // an equality with gcd 2, and gcd tightening of inequalities: 1 <= 2i <= 1
        assert!(refute(&basic(
            "[n, m] -> { S[i, j] -> T[k, l] : 2i + 1 = 2k + 1 and k <= i - 1 }"
        )));
        assert!(refute(&basic(
            "{ [i, j] : 2i - 2j >= 1 and 2j - 2i >= -1 }"
        )));
        // no proof: non-empty, or empty for a deeper reason
        assert!(!refute(&basic(&format!(
            "{h} and i0 + i1 = j0 + j1 - 1 and i0 < j0 }}"
        ))));
        assert!(!refute(&basic(
            "{ [i, j] : i + j >= 3 and i <= 1 and j <= 1 }"
        )));
        // a coefficient beyond i64, or i64::MIN (no negation): no proof, no panic
        assert!(!refute(&basic(
            "{ [i] : i >= 100000000000000000000 and i <= 0 }"
        )));
        let min = "-9223372036854775808";
        let t = format!("{{ [i, j] : {min} i + j = 0 and {min} i >= 0 and j <= 3 }}");
        assert!(!refute(&basic(&t)));
        let t = format!("{{ [i, j] : {min} i + j = 1 and 2j >= 0 }}");
        assert!(!refute(&basic(&t)));
    }

    /// Appended to `BASE_POOL`.
    const EXTRA: &[&str] = &[
        "j = 2i + n",
        "3i = 2j + 1",
        "(i + j) mod 2 = 0",
        "exists (e : i = 3e + 1)",
        "j = floor((i + n) / 3)",
        "-2 <= i - 2j <= 1",
        "n >= i",
        "i >= 5",
        "j < i",
        "j > i + n",
        "2n = i + 3",
    ];

    /// The comparison of every pair of rows, which [`has_opposite_pair`]
    /// replaced (its oracle).
    fn opposite_pair_by_all_pairs(ineqs: &[i64], n: usize) -> Result<bool, Overflow> {
        let rows: Vec<&[i64]> = ineqs.chunks_exact(n).collect();
        for (i, r) in rows.iter().enumerate() {
            for s in &rows[i + 1..] {
                if r[1..]
                    .iter()
                    .zip(&s[1..])
                    .all(|(x, y)| x.checked_neg() == Some(*y))
                    && r[1..].iter().any(|&x| x != 0)
                    && fit(r[0].checked_add(s[0]))? < 0
                {
                    return Ok(true);
                }
            }
        }
        Ok(false)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The keyed search for opposite rows answers as the comparison of
        /// every pair (rows drawn with many opposite and equal ones; an
        /// overflow of a sum of constants is an `Err` of both or none).
        #[test]
        fn opposite_pairs_match_all_pairs(
            rows in prop::collection::vec((-4i64..=4, prop::collection::vec(-1i64..=1, 3), any::<bool>()), 0..12),
            flips in prop::collection::vec(any::<usize>(), 0..6),
            huge in any::<bool>(),
        ) {
            let n = 4;
            let mut a: Vec<i64> = Vec::new();
            for (c, coef, neg) in &rows {
                a.push(if huge && *neg { i64::MIN + 1 } else { *c });
                a.extend(coef.iter().map(|&x| if *neg { -x } else { x }));
            }
            // copies of some rows, negated, with other constants
            for (k, f) in flips.iter().enumerate() {
                if rows.is_empty() {
                    break;
                }
                let r = f % rows.len();
                let row: Vec<i64> = a[r * n..(r + 1) * n].to_vec();
                a.push(k as i64 - 3);
                a.extend(row[1..].iter().map(|x| -x));
            }
            let fast = has_opposite_pair(&a, n).ok();
            let slow = opposite_pair_by_all_pairs(&a, n).ok();
            // both find a contradiction, or neither; an overflow met by one
            // order of comparison may be passed by the other's earlier proof
            match (fast, slow) {
                (Some(x), Some(y)) => prop_assert_eq!(x, y, "{:?}", a),
                (Some(true), None) | (None, Some(true)) | (None, None) => {}
                other => prop_assert!(false, "{:?} on {:?}", other, a),
            }
        }

        /// A refutation is never wrong (the exact search finds no point),
        /// before and after simplification; the sparse substitution
        /// answers as the dense one.
        #[test]
        fn refute_is_sound(picks in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 1..7)) {
            let pool = pool_with(EXTRA);
            let cons: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
            let text = format!("[n] -> {{ [i, j] : {} }}", cons.join(" and "));
            let m: Map = text.parse().unwrap();
            for b in m.basic_maps() {
                prop_assert_eq!(refute_rows_with(b, true).ok(), refute_rows_with(b, false).ok(), "{}", text);
                if refute(b) {
                    prop_assert_eq!(b.sample_by_search().unwrap(), None, "{}", text);
                }
            }
        }
    }
}
