//! Cheap exact normalisation of one disjunct, without any LP: what
//! [`Map::coalesce`](crate::Map::coalesce) does to a map of one disjunct.
//!
//! Rows are divided by the gcd of their coefficients (an inequality's
//! constant rounded down, exact over the integers), rows without variables
//! dropped (or the disjunct found empty), and of inequalities with the same
//! coefficients only the tightest is kept. Then the *box* of the disjunct is
//! read from its single-column inequalities: `lo[c] ≤ x_c ≤ hi[c]` (either
//! side may be missing). Every point of the disjunct lies in the box, so for
//! a row `r = r_0 + Σ a_c x_c` of several columns:
//! - if the minimum of `r` over the box is `≥ 0`, every point of the box
//!   satisfies `r ≥ 0`, and so does every point of the disjunct's other
//!   rows (which include the box's rows): `r` is redundant, and dropping it
//!   leaves the same set;
//! - if the maximum of `r` over the box is `< 0` (for an equality: the
//!   minimum `> 0` or the maximum `< 0`), no point of the box satisfies it:
//!   the disjunct is empty.
//!
//! Values are computed in `i128`; a row with a coefficient or bound outside
//! `i64` (or an overflowing sum) is left alone: exact either way. No
//! Gaussian elimination and no LP: [`BasicMap::remove_redundancies`] is the
//! full redundancy removal, for callers that need it.
//!
//! Computed in one pass over the rows after their gcd normalisation (a
//! linear hash, the number of columns and, for a single-column row, the
//! box bound of each row), parallel and opposite rows compared by hash, and
//! without allocation for up to [`INLINE`] rows and columns (this is what
//! coalescing a map of one disjunct costs, the common case on compilers'
//! workloads). `reference` keeps the first, rule-by-rule version as the
//! test oracle.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::{normalize_eq, normalize_ineq, RowStatus};
use crate::rows::Rows;

#[cfg(test)]
pub(crate) mod reference;
#[cfg(test)]
mod tests;

/// Rows and columns handled in stack buffers; more take a heap buffer.
const INLINE: usize = 32;

/// A scratch slice of `n` copies of `init`: on the stack up to [`INLINE`]
/// elements, else on the heap.
fn with_scratch<T: Copy, R>(n: usize, init: T, f: impl FnOnce(&mut [T]) -> R) -> R {
    if n <= INLINE {
        let mut a = [init; INLINE];
        f(&mut a[..n])
    } else {
        f(&mut vec![init; n])
    }
}

/// What one pass over an inequality finds.
#[derive(Clone, Copy)]
struct RowInfo {
    /// [`linear_hash`] of the coefficients; `None` if one is not small.
    hash: Option<u64>,
    /// The only non-zero column, if exactly one.
    single: Option<usize>,
    /// Still kept (not a looser copy of an earlier parallel row).
    kept: bool,
    /// The row whose constant this kept row takes: itself, or the later
    /// parallel copy with the least constant (merged into this one). Rows
    /// are read, never written, until [`write_kept`] builds the result.
    from: u32,
}

/// A lower and an upper bound per column; `i128::MIN`/`i128::MAX` for none.
type Bounds = (i128, i128);

/// Normalise `b` cheaply (see the [module documentation](self)). Returns
/// `false` if `b` was found empty (a row without integer solution, two
/// opposite inequalities that contradict, or a row the box contradicts);
/// then `b` is the canonical empty basic map.
pub(crate) fn normalise(b: &mut BasicMap) -> bool {
    if !normalise_rows(b) {
        b.set_empty();
        return false;
    }
    let n = b.ineqs.len();
    let init = RowInfo {
        hash: None,
        single: None,
        kept: true,
        from: 0,
    };
    let ok = with_scratch(n, init, |info| {
        for (k, (r, i)) in b.ineqs.iter().zip(info.iter_mut()).enumerate() {
            (i.hash, i.single) = scan_row(r);
            i.from = k as u32;
        }
        let rows: &[Vec<Int>] = &b.ineqs;
        let ok = drop_parallel_rows(rows, info) && drop_rows_implied_by_box(rows, &b.eqs, info);
        if ok {
            write_kept(b, info);
        }
        ok
    });
    if !ok {
        b.set_empty();
    }
    ok
}

/// True if `b`'s rows were found unchanged by [`normalise`] (and not
/// empty) and not written since: `normalise` would leave `b` as it is.
pub(crate) fn known_normal(b: &BasicMap) -> bool {
    Rows::marked_pair(&b.eqs, &b.ineqs)
}

/// Record that [`normalise`] leaves `b`'s rows as they are and finds them
/// not empty (valid until they are written; the normalisation reads the
/// rows only).
pub(crate) fn mark_normal(b: &BasicMap) {
    Rows::mark_pair(&b.eqs, &b.ineqs)
}

/// Every row divided by the gcd of its coefficients, rows without
/// variables dropped; `false` if some row has no integer solution.
fn normalise_rows(b: &mut BasicMap) -> bool {
    // decided read-only first: rows shared with the input (see `Rows`) are
    // copied only if one of them changes
    // (each list on its own)
    let normal = |rows: &[Vec<Int>]| rows.iter().all(|r| crate::matrix::is_normal_row(r));
    let mut ok = true;
    if !normal(&b.eqs) {
        b.eqs.retain_mut(|r| match normalize_eq(r) {
            RowStatus::Constraint => true,
            RowStatus::Tautology => false,
            RowStatus::Infeasible => {
                ok = false;
                true
            }
        });
    }
    if !normal(&b.ineqs) {
        b.ineqs.retain_mut(|r| match normalize_ineq(r) {
            RowStatus::Constraint => true,
            RowStatus::Tautology => false,
            RowStatus::Infeasible => {
                ok = false;
                true
            }
        });
    }
    ok
}

/// The linear hash of `r`'s coefficients (constant aside; `None` if one is
/// not small) and its only non-zero column, if exactly one. The hash is
/// linear: that of `-r` is the negation (wrapping) of that of `r`, so
/// parallel and opposite rows are found by comparing hashes.
fn scan_row(r: &[Int]) -> (Option<u64>, Option<usize>) {
    let mut h = 0u64;
    let mut small = true;
    let mut count = 0usize;
    let mut col = 0usize;
    for (c, v) in r.iter().enumerate().skip(1) {
        match v {
            Int::Small(0) => continue,
            Int::Small(v) => {
                // an odd multiplier per column (splitmix-style constant)
                let m = (c as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                h = h.wrapping_add((*v as u64).wrapping_mul(m));
            }
            Int::Big(_) => small = false,
        }
        count += 1;
        col = c;
    }
    (small.then_some(h), (count == 1).then_some(col))
}

/// The constant of kept row `i` after the merges so far (that of the row
/// it takes its constant from, see [`RowInfo::from`]).
fn constant<'a>(rows: &'a [Vec<Int>], info: &[RowInfo], i: usize) -> &'a Int {
    &rows[info[i].from as usize][0]
}

/// Merge later row `j` into the kept row `i` with the same coefficients:
/// `i` takes `j`'s constant if it is less, `j` is no longer kept.
fn merge_parallel(rows: &[Vec<Int>], info: &mut [RowInfo], i: usize, j: usize) {
    if rows[j][0] < *constant(rows, info, i) {
        info[i].from = j as u32;
    }
    info[j].kept = false;
}

/// Kept rows `i` and `j` have opposite coefficients and constants whose sum
/// is negative (`c1 + e ≥ 0`, `c2 - e ≥ 0`, `c1 + c2 < 0`): no point. The
/// sum is tested first (rows of opposite coefficients are common, such as a
/// division's two bounds, contradicting ones rare).
fn contradict(rows: &[Vec<Int>], info: &[RowInfo], i: usize, j: usize) -> bool {
    let (a, b) = (constant(rows, info, i), constant(rows, info, j));
    let negative = match (a, b) {
        (Int::Small(x), Int::Small(y)) => i128::from(*x) + i128::from(*y) < 0,
        _ => (a + b).is_neg(),
    };
    negative && opposite(&rows[i], &rows[j])
}

/// Of the inequalities with the same coefficients, keep the first, with the
/// least constant of them all (later ones marked not kept, the first's
/// [`RowInfo::from`] naming the row of that constant); `false` if two
/// kept inequalities with opposite coefficients contradict (see
/// [`contradict`]), tested on the tightest row of each side. Rows must be
/// gcd-normalised, so that parallel rows have equal coefficients. Reads the
/// rows only.
///
/// Parallel and opposite rows are found through an open-addressing table
/// of the rows' linear hashes (linear time: the pipeline's disjuncts have
/// up to a hundred rows, where comparing every pair was most of the time of
/// coalescing one disjunct); rows with a coefficient outside `i64` (no
/// hash) take [`drop_parallel_rows_pairwise`], which decides the same.
fn drop_parallel_rows(rows: &[Vec<Int>], info: &mut [RowInfo]) -> bool {
    if info.iter().any(|i| i.hash.is_none()) {
        return drop_parallel_rows_pairwise(rows, info);
    }
    let n = info.len();
    // at most half full: probes stay short
    let cap = (2 * n).next_power_of_two().max(8);
    let mask = cap - 1;
    let start = |h: u64| (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
    with_table(cap, |table| {
        // parallel rows: each row merged into the first kept row with the
        // same coefficients (a slot holds `1 + index` of a kept row, 0 when
        // free); only kept rows enter the table
        for j in 0..n {
            let h = info[j].hash.expect("all hashed");
            let mut slot = start(h);
            loop {
                let e = table[slot] as usize;
                if e == 0 {
                    table[slot] = (j + 1) as u32;
                    break;
                }
                let i = e - 1;
                if info[i].hash == Some(h) && rows[i][1..] == rows[j][1..] {
                    merge_parallel(rows, info, i, j);
                    break;
                }
                slot = (slot + 1) & mask;
            }
        }
        // opposite rows among the kept ones (all in the table)
        for j in 0..n {
            if !info[j].kept {
                continue;
            }
            let h = info[j].hash.expect("all hashed").wrapping_neg();
            let mut slot = start(h);
            loop {
                let e = table[slot] as usize;
                if e == 0 {
                    break;
                }
                let i = e - 1;
                if i != j && info[i].hash == Some(h) && contradict(rows, info, i, j) {
                    return false;
                }
                slot = (slot + 1) & mask;
            }
        }
        true
    })
}

/// Slots of the hash table of [`drop_parallel_rows`] kept on the stack.
const TABLE_INLINE: usize = 64;

/// A zeroed table of `cap` slots: on the stack up to [`TABLE_INLINE`].
fn with_table<R>(cap: usize, f: impl FnOnce(&mut [u32]) -> R) -> R {
    if cap <= TABLE_INLINE {
        let mut a = [0u32; TABLE_INLINE];
        f(&mut a[..cap])
    } else {
        f(&mut vec![0u32; cap])
    }
}

/// [`drop_parallel_rows`] by comparing every pair of rows (a pair is
/// compared in full when a hash is missing or the hashes say parallel or
/// opposite); for rows with a coefficient outside `i64`, and the oracle of
/// the hash table in the tests.
fn drop_parallel_rows_pairwise(rows: &[Vec<Int>], info: &mut [RowInfo]) -> bool {
    let n = info.len();
    // parallel rows: each later copy merged into the first
    for i in 0..n {
        if !info[i].kept {
            continue;
        }
        for j in i + 1..n {
            if !info[j].kept {
                continue;
            }
            let same = match (info[i].hash, info[j].hash) {
                (Some(x), Some(y)) => x == y,
                _ => true,
            };
            if same && rows[i][1..] == rows[j][1..] {
                merge_parallel(rows, info, i, j);
            }
        }
    }
    // opposite rows: one tightest row per side is left
    for i in 0..n {
        if !info[i].kept {
            continue;
        }
        for j in i + 1..n {
            if !info[j].kept {
                continue;
            }
            let opp = match (info[i].hash, info[j].hash) {
                (Some(x), Some(y)) => x == y.wrapping_neg(),
                _ => true,
            };
            if opp && contradict(rows, info, i, j) {
                return false;
            }
        }
    }
    true
}

/// `a` and `b` have opposite coefficients (constants aside).
fn opposite(a: &[Int], b: &[Int]) -> bool {
    a[1..].iter().zip(&b[1..]).all(|(x, y)| match (x, y) {
        (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
        _ => &-x == y,
    })
}

/// Mark not kept the kept inequalities of several columns that the box of
/// the single-column ones implies (constants as merged, see
/// [`RowInfo::from`]); `false` if the box is empty or contradicts a row or
/// an equality of `eqs`. Reads the rows only.
fn drop_rows_implied_by_box(rows: &[Vec<Int>], eqs: &[Vec<Int>], info: &mut [RowInfo]) -> bool {
    let multi = info.iter().any(|i| i.kept && i.single.is_none());
    if !multi && eqs.is_empty() {
        // no row to test against the box; opposite single-column rows were
        // tested above, which is the box's own consistency
        return true;
    }
    let cols = rows.first().or(eqs.first()).map_or(1, |r| r.len()) - 1;
    with_scratch(cols, (i128::MIN, i128::MAX), |bounds| {
        for (k, (r, i)) in rows.iter().zip(info.iter()).enumerate() {
            if let (Some(c), true) = (i.single, i.kept) {
                add_bound(bounds, constant(rows, info, k), &r[c], c);
            }
        }
        if bounds.iter().any(|&(lo, hi)| lo > hi) {
            return false;
        }
        for e in eqs {
            let below = extremum(bounds, &e[0], e, false).is_some_and(|v| v > 0);
            let above = extremum(bounds, &e[0], e, true).is_some_and(|v| v < 0);
            if below || above {
                return false;
            }
        }
        for k in 0..rows.len() {
            let i = info[k];
            if !i.kept || i.single.is_some() || i.hash.is_none() {
                continue;
            }
            let (r, c) = (&rows[k], constant(rows, info, k));
            if extremum(bounds, c, r, true).is_some_and(|v| v < 0) {
                return false;
            }
            if extremum(bounds, c, r, false).is_some_and(|v| v >= 0) {
                info[k].kept = false;
            }
        }
        true
    })
}

/// Write the decisions of `info` into `b`: the kept inequalities, each with
/// its merged constant, in their order. Nothing is written when every row
/// is kept as it is (rows shared with the input stay shared); rows owned by
/// `b` alone are edited in place; shared rows are not copied whole and then
/// cut down, only the kept rows are copied into new storage.
fn write_kept(b: &mut BasicMap, info: &[RowInfo]) {
    let moved = |k: usize, i: &RowInfo| i.kept && i.from as usize != k;
    if info.iter().enumerate().all(|(k, i)| i.kept && !moved(k, i)) {
        return;
    }
    if let Some(rows) = b.ineqs.unique_mut() {
        for (k, i) in info.iter().enumerate() {
            if moved(k, i) {
                let c = std::mem::take(&mut rows[i.from as usize][0]);
                rows[k][0] = c;
            }
        }
        let mut k = 0;
        rows.retain(|_| {
            k += 1;
            info[k - 1].kept
        });
        return;
    }
    let rows: &[Vec<Int>] = &b.ineqs;
    let kept: Vec<Vec<Int>> = info
        .iter()
        .enumerate()
        .filter(|(_, i)| i.kept)
        .map(|(k, i)| {
            let r = &rows[k];
            let mut v = Vec::with_capacity(r.len());
            v.push(rows[i.from as usize][0].clone());
            v.extend_from_slice(&r[1..]);
            v
        })
        .collect();
    b.ineqs = kept.into();
}

/// Tighten the box by the single-column inequality `k + a x_c ≥ 0`.
fn add_bound(bounds: &mut [Bounds], k: &Int, a: &Int, c: usize) {
    let (Int::Small(a), Int::Small(k)) = (a, k) else {
        return;
    };
    let (a, k) = (i128::from(*a), i128::from(*k));
    let (lo, hi) = &mut bounds[c - 1];
    if a > 0 {
        // a x + k ≥ 0: x ≥ ceil(-k / a)
        *lo = (*lo).max(-(k.div_euclid(a)));
    } else {
        // x ≤ floor(k / -a)
        *hi = (*hi).min(k.div_euclid(-a));
    }
}

/// The minimum (`max = false`) or maximum over the box of the row `r` with
/// its constant replaced by `k`, if it is bounded and computable in `i128`.
fn extremum(bounds: &[Bounds], k: &Int, r: &[Int], max: bool) -> Option<i128> {
    let Int::Small(k) = k else {
        return None;
    };
    let mut s = i128::from(*k);
    for (a, &(lo, hi)) in r[1..].iter().zip(bounds) {
        let a = match a {
            Int::Small(0) => continue,
            Int::Small(a) => i128::from(*a),
            Int::Big(_) => return None,
        };
        let bound = if (a > 0) != max { lo } else { hi };
        if bound == i128::MIN || bound == i128::MAX {
            return None;
        }
        s = s.checked_add(a.checked_mul(bound)?)?;
    }
    Some(s)
}
