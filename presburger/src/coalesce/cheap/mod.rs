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
//! Computed read-only (see [`normalised`]): one pass over each row tests
//! its gcd normalisation and finds a linear hash of its coefficients, its
//! non-zero columns and whether it has a single column; parallel and
//! opposite rows are compared by hash; the box bounds a row through its
//! non-zero columns only. Scratch space is a per-thread buffer reused
//! across calls (no allocation, nothing initialised beyond the rows and
//! columns at hand), and new rows are built only when a row changes: this
//! is what coalescing a map of one disjunct costs, the common case on
//! compilers' workloads. `reference` keeps the first, rule-by-rule version
//! as the test oracle.

use std::cell::RefCell;

use crate::basic::BasicMap;
use crate::int::{gcd_slice, Int};
use crate::matrix::{normalize_eq, normalize_ineq, RowStatus};
use crate::rows::Rows;

#[cfg(test)]
pub(crate) mod reference;
#[cfg(test)]
mod tests;

/// What one pass over an inequality finds.
#[derive(Clone, Copy, Debug)]
struct RowInfo {
    /// [`scan_row`]'s linear hash of the coefficients, if `hashed` (every
    /// coefficient small).
    hash: u64,
    hashed: bool,
    /// Still kept (not a looser copy of an earlier parallel row).
    kept: bool,
    /// The only non-zero column if exactly one, else 0.
    single: u32,
    /// The row whose constant this kept row takes: itself, or the later
    /// parallel copy with the least constant (merged into this one). Rows
    /// are read, never written, until [`kept_rows`] builds the result.
    from: u32,
    /// The first and the last non-zero column (a normalised row has one).
    span: (u32, u32),
    /// The columns `c` (bit `c - 1`) whose coefficient is positive,
    /// negative; complete unless `wide`.
    pos: u64,
    neg: u64,
    /// A non-zero column beyond the masks' 64 bits.
    wide: bool,
}

impl RowInfo {
    /// The linear hash, `None` if a coefficient is not small.
    fn hash(&self) -> Option<u64> {
        self.hashed.then_some(self.hash)
    }

    /// The only non-zero column, if exactly one.
    fn single(&self) -> Option<usize> {
        (self.single != 0).then_some(self.single as usize)
    }
}

/// A lower and an upper bound per column; `i128::MIN`/`i128::MAX` for none.
/// A bound is an `i64` constant divided by a coefficient (rounded) and
/// possibly negated: at most `2^63` in absolute value.
type Bounds = (i128, i128);

/// The buffers of one normalisation, kept per thread between calls (see
/// [`with_scratch`]): each is cleared and filled to the size at hand.
#[derive(Default)]
struct Scratch {
    /// One per inequality.
    info: Vec<RowInfo>,
    /// One per equality.
    eqs: Vec<RowInfo>,
    /// The box, one entry per column (index `column - 1`).
    bounds: Vec<Bounds>,
    /// The hash table of [`drop_parallel_rows`].
    table: Vec<u32>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// `f` on this thread's scratch buffers (fresh ones if they are in use).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    SCRATCH.with(|s| match s.try_borrow_mut() {
        Ok(mut s) => f(&mut s),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// What [`normalised`] finds.
pub(crate) enum Normal {
    /// The rows are normal: [`normalise`] leaves them as they are (and
    /// finds them not empty).
    Same,
    /// Found empty.
    Empty,
    /// The normalised equalities and inequalities (each list shared with
    /// the input when it is unchanged).
    Rows(Rows, Rows),
}

/// The cheap normalisation of `b` (see the [module documentation](self)),
/// read-only: rows are copied only when one changes, and only the rows
/// that stay.
pub(crate) fn normalised(b: &BasicMap) -> Normal {
    with_scratch(|s| normalised_with(b, s))
}

/// [`normalised`] with these scratch buffers.
fn normalised_with(b: &BasicMap, s: &mut Scratch) -> Normal {
    // rows scanned, and divided by their gcd (in a copy) only if one is not
    // normal
    let mut new_eqs = None;
    if !scan_rows(&b.eqs, &mut s.eqs) {
        let Some(v) = normalised_list(&b.eqs, normalize_eq) else {
            return Normal::Empty;
        };
        let normal = scan_rows(&v, &mut s.eqs);
        debug_assert!(normal, "normalised rows are normal");
        new_eqs = Some(v);
    }
    let mut new_ineqs = None;
    if !scan_rows(&b.ineqs, &mut s.info) {
        let Some(v) = normalised_list(&b.ineqs, normalize_ineq) else {
            return Normal::Empty;
        };
        let normal = scan_rows(&v, &mut s.info);
        debug_assert!(normal, "normalised rows are normal");
        new_ineqs = Some(v);
    }
    let eqs: &Rows = new_eqs.as_ref().unwrap_or(&b.eqs);
    let rows: &Rows = new_ineqs.as_ref().unwrap_or(&b.ineqs);
    let ok = drop_parallel_rows(rows, &mut s.info, &mut s.table)
        && drop_rows_implied_by_box(rows, eqs, &mut s.info, &s.eqs, &mut s.bounds);
    if !ok {
        return Normal::Empty;
    }
    let ineqs = match new_ineqs {
        Some(mut v) => {
            keep_in_place(&mut v, &s.info);
            Some(v)
        }
        None => kept_rows(&b.ineqs, &s.info),
    };
    match (new_eqs, ineqs) {
        (None, None) => Normal::Same,
        (eqs, ineqs) => Normal::Rows(
            eqs.unwrap_or_else(|| b.eqs.clone()),
            ineqs.unwrap_or_else(|| b.ineqs.clone()),
        ),
    }
}

/// Whether [`normalised`] finds `b`'s rows [`Normal::Same`], decided the
/// same way but without building the rows it would change (the first
/// change answers): what map construction asks of each disjunct it marks.
pub(crate) fn is_normal(b: &BasicMap) -> bool {
    with_scratch(|s| {
        scan_rows(&b.eqs, &mut s.eqs)
            && scan_rows(&b.ineqs, &mut s.info)
            && drop_parallel_rows(&b.ineqs, &mut s.info, &mut s.table)
            && drop_rows_implied_by_box(&b.ineqs, &b.eqs, &mut s.info, &s.eqs, &mut s.bounds)
            && all_kept_in_place(&s.info)
    })
}

/// Normalise `b` cheaply (see the [module documentation](self)). Returns
/// `false` if `b` was found empty (a row without integer solution, two
/// opposite inequalities that contradict, or a row the box contradicts);
/// then `b` is the canonical empty basic map. Rows it leaves unchanged stay
/// shared with any copy of `b`. (The test oracles' form of [`normalised`].)
#[cfg(test)]
pub(crate) fn normalise(b: &mut BasicMap) -> bool {
    match normalised(b) {
        Normal::Same => true,
        Normal::Empty => {
            b.set_empty();
            false
        }
        Normal::Rows(eqs, ineqs) => {
            b.eqs = eqs;
            b.ineqs = ineqs;
            true
        }
    }
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

/// A copy of `rows`, each divided by the gcd of its coefficients by
/// `normalize` ([`normalize_eq`] or [`normalize_ineq`]), rows without
/// variables dropped; `None` if some row has no integer solution.
fn normalised_list(rows: &Rows, normalize: fn(&mut [Int]) -> RowStatus) -> Option<Rows> {
    let mut v = rows.clone();
    let mut infeasible = false;
    v.retain_mut(|r| match normalize(r) {
        RowStatus::Constraint => true,
        RowStatus::Tautology => false,
        RowStatus::Infeasible => {
            infeasible = true;
            false
        }
    });
    (!infeasible).then_some(v)
}

/// Scan `rows` into `info` (see [`scan_row`]); `false` as soon as a row
/// is not gcd-normalised (its coefficients have a common factor, or none is
/// non-zero): `info` is then partial.
fn scan_rows(rows: &Rows, info: &mut Vec<RowInfo>) -> bool {
    info.clear();
    info.reserve(rows.len());
    for (k, r) in rows.iter().enumerate() {
        let x = scan_row(r);
        // `is_normal_row`: a coefficient ±1, else a gcd of 1
        if !x.unit && !gcd_slice(&r[1..]).is_one() {
            return false;
        }
        info.push(RowInfo {
            hash: x.hash,
            hashed: x.small,
            kept: true,
            single: if x.count == 1 { x.first } else { 0 },
            from: k as u32,
            span: (x.first, x.last),
            pos: x.pos,
            neg: x.neg,
            wide: x.wide,
        });
    }
    true
}

/// What [`scan_row`] finds.
struct Scan {
    /// The linear hash of the small coefficients.
    hash: u64,
    /// Every coefficient is small.
    small: bool,
    /// A coefficient is ±1.
    unit: bool,
    /// The number of non-zero coefficients.
    count: u32,
    /// The first and the last non-zero column (0 if none).
    first: u32,
    last: u32,
    /// See [`RowInfo::pos`].
    pos: u64,
    neg: u64,
    wide: bool,
}

/// One pass over the coefficients of `r` (constant aside). The hash is
/// linear: that of `-r` is the negation (wrapping) of that of `r`, so
/// parallel and opposite rows are found by comparing hashes.
fn scan_row(r: &[Int]) -> Scan {
    let mut x = Scan {
        hash: 0,
        small: true,
        unit: false,
        count: 0,
        first: 0,
        last: 0,
        pos: 0,
        neg: 0,
        wide: false,
    };
    for (c, v) in r.iter().enumerate().skip(1) {
        match *v {
            Int::Small(0) => continue,
            Int::Small(v) => {
                let m = crate::opposite_key::multiplier(c);
                x.hash = x.hash.wrapping_add((v as u64).wrapping_mul(m));
                x.unit |= v.unsigned_abs() == 1;
                if c <= 64 {
                    let bit = 1u64 << (c - 1);
                    if v > 0 {
                        x.pos |= bit;
                    } else {
                        x.neg |= bit;
                    }
                } else {
                    x.wide = true;
                }
            }
            Int::Big(_) => x.small = false,
        }
        x.count += 1;
        if x.first == 0 {
            x.first = c as u32;
        }
        x.last = c as u32;
    }
    x
}

/// The constant of kept row `i` after the merges so far (that of the row
/// it takes its constant from, see [`RowInfo::from`]).
fn constant<'a>(rows: &'a Rows, info: &[RowInfo], i: usize) -> &'a Int {
    &rows[info[i].from as usize][0]
}

/// Merge later row `j` into the kept row `i` with the same coefficients:
/// `i` takes `j`'s constant if it is less, `j` is no longer kept.
fn merge_parallel(rows: &Rows, info: &mut [RowInfo], i: usize, j: usize) {
    if rows[j][0] < *constant(rows, info, i) {
        info[i].from = j as u32;
    }
    info[j].kept = false;
}

/// Kept rows `i` and `j` have opposite coefficients and constants whose sum
/// is negative (`c1 + e ≥ 0`, `c2 - e ≥ 0`, `c1 + c2 < 0`): no point. The
/// sum is tested first (rows of opposite coefficients are common, such as a
/// division's two bounds, contradicting ones rare).
fn contradict(rows: &Rows, info: &[RowInfo], i: usize, j: usize) -> bool {
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
/// (`table`, a scratch buffer) of the rows' linear hashes (linear time: the
/// pipeline's disjuncts have up to a hundred rows, where comparing every
/// pair was most of the time of coalescing one disjunct); rows with a
/// coefficient outside `i64` (no hash) take [`drop_parallel_rows_pairwise`],
/// which decides the same.
fn drop_parallel_rows(rows: &Rows, info: &mut [RowInfo], table: &mut Vec<u32>) -> bool {
    if info.iter().any(|i| !i.hashed) {
        return drop_parallel_rows_pairwise(rows, info);
    }
    let n = info.len();
    if n < 2 {
        return true;
    }
    // at most half full: probes stay short
    let cap = (2 * n).next_power_of_two().max(8);
    let mask = cap - 1;
    let start = |h: u64| (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize & mask;
    table.clear();
    table.resize(cap, 0);
    // parallel rows: each row merged into the first kept row with the same
    // coefficients (a slot holds `1 + index` of a kept row, 0 when free);
    // only kept rows enter the table
    for j in 0..n {
        let h = info[j].hash;
        let mut slot = start(h);
        loop {
            let e = table[slot] as usize;
            if e == 0 {
                table[slot] = (j + 1) as u32;
                break;
            }
            let i = e - 1;
            if info[i].hash == h && rows[i][1..] == rows[j][1..] {
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
        let h = info[j].hash.wrapping_neg();
        let mut slot = start(h);
        loop {
            let e = table[slot] as usize;
            if e == 0 {
                break;
            }
            let i = e - 1;
            if i != j && info[i].hash == h && contradict(rows, info, i, j) {
                return false;
            }
            slot = (slot + 1) & mask;
        }
    }
    true
}

/// [`drop_parallel_rows`] by comparing every pair of rows (a pair is
/// compared in full when a hash is missing or the hashes say parallel or
/// opposite); for rows with a coefficient outside `i64`, and the oracle of
/// the hash table in the tests.
fn drop_parallel_rows_pairwise(rows: &Rows, info: &mut [RowInfo]) -> bool {
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
            let same = match (info[i].hash(), info[j].hash()) {
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
            let opp = match (info[i].hash(), info[j].hash()) {
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
/// an equality of `eqs` (scanned into `eq_info`). Reads the rows only;
/// `bounds` is a scratch buffer.
///
/// Which columns have a lower and an upper bound is kept as two bit masks:
/// a row whose minimum and maximum both need a missing bound (the common
/// case: bounds by parameters are rows of several columns) is passed over
/// without reading it again.
fn drop_rows_implied_by_box(
    rows: &Rows,
    eqs: &Rows,
    info: &mut [RowInfo],
    eq_info: &[RowInfo],
    bounds: &mut Vec<Bounds>,
) -> bool {
    let multi = info.iter().any(|i| i.kept && i.single == 0);
    if !multi && eqs.is_empty() {
        // no row to test against the box; opposite single-column rows were
        // tested above, which is the box's own consistency
        return true;
    }
    let cols = rows.first().or(eqs.first()).map_or(1, |r| r.len()) - 1;
    bounds.clear();
    bounds.resize(cols, (i128::MIN, i128::MAX));
    let mut has = Known { lo: 0, hi: 0 };
    for (k, (r, i)) in rows.iter().zip(info.iter()).enumerate() {
        if let (Some(c), true) = (i.single(), i.kept) {
            add_bound(bounds, &mut has, constant(rows, info, k), &r[c], c);
        }
    }
    if bounds.iter().any(|&(lo, hi)| lo > hi) {
        return false;
    }
    for (e, i) in eqs.iter().zip(eq_info) {
        if !has.may_bound(i) {
            continue;
        }
        let (min, max) = extrema(bounds, &e[0], e, i.span.0 as usize, i.span.1 as usize);
        if min.is_some_and(|v| v > 0) || max.is_some_and(|v| v < 0) {
            return false;
        }
    }
    for k in 0..rows.len() {
        let i = info[k];
        if !i.kept || i.single != 0 || !i.hashed || !has.may_bound(&i) {
            continue;
        }
        let (first, last) = (i.span.0 as usize, i.span.1 as usize);
        let (min, max) = extrema(bounds, constant(rows, info, k), &rows[k], first, last);
        if max.is_some_and(|v| v < 0) {
            return false;
        }
        if min.is_some_and(|v| v >= 0) {
            info[k].kept = false;
        }
    }
    true
}

/// The columns `c` (bit `c - 1`, up to 64) with a lower and with an upper
/// bound in the box.
struct Known {
    lo: u64,
    hi: u64,
}

impl Known {
    /// The box may bound the row of `i` from below or from above: false
    /// only when both its minimum and its maximum need a missing bound
    /// (then [`extrema`] finds neither).
    fn may_bound(&self, i: &RowInfo) -> bool {
        if i.wide {
            return true;
        }
        let min = i.pos & !self.lo == 0 && i.neg & !self.hi == 0;
        let max = i.pos & !self.hi == 0 && i.neg & !self.lo == 0;
        min || max
    }
}

/// The rows kept by the decisions of `info`, each with its merged constant,
/// in their order, or `None` if they are `rows` as they are. Only the kept
/// rows are copied into new storage.
fn kept_rows(rows: &Rows, info: &[RowInfo]) -> Option<Rows> {
    if all_kept_in_place(info) {
        return None;
    }
    // (sized once: a collected filter grows by reallocation)
    let n = info.iter().filter(|i| i.kept).count();
    let mut kept = Rows::with_capacity(n, rows.width());
    for (k, i) in info.iter().enumerate() {
        if !i.kept {
            continue;
        }
        let r = &rows[k];
        kept.push_with(r.len(), |v| {
            v[0] = rows[i.from as usize][0].clone();
            v[1..].clone_from_slice(&r[1..]);
        });
    }
    Some(kept)
}

/// [`kept_rows`] in place, on rows owned by the caller (a normalised copy).
fn keep_in_place(rows: &mut Rows, info: &[RowInfo]) {
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
}

/// Every row kept, each with its own constant: the rows as they are.
fn all_kept_in_place(info: &[RowInfo]) -> bool {
    info.iter().enumerate().all(|(k, i)| i.kept && !moved(k, i))
}

/// Row `k` is kept and takes the constant of another row.
fn moved(k: usize, i: &RowInfo) -> bool {
    i.kept && i.from as usize != k
}

/// Tighten the box by the single-column inequality `k + a x_c ≥ 0` (`a` is
/// ±1 in gcd-normalised rows; the general case divides), and note the
/// bound in `has`.
fn add_bound(bounds: &mut [Bounds], has: &mut Known, k: &Int, a: &Int, c: usize) {
    let (&Int::Small(a), Int::Small(k)) = (a, k) else {
        return;
    };
    let k = i128::from(*k);
    let bit = if c <= 64 { 1u64 << (c - 1) } else { 0 };
    if a > 0 {
        has.lo |= bit;
    } else {
        has.hi |= bit;
    }
    let (lo, hi) = &mut bounds[c - 1];
    match a {
        // x + k ≥ 0: x ≥ -k
        1 => *lo = (*lo).max(-k),
        // -x + k ≥ 0: x ≤ k
        -1 => *hi = (*hi).min(k),
        // a x + k ≥ 0: x ≥ ceil(-k / a)
        a if a > 0 => *lo = (*lo).max(-(k.div_euclid(i128::from(a)))),
        // x ≤ floor(k / -a)
        a => *hi = (*hi).min(k.div_euclid(-i128::from(a))),
    }
}

/// The minimum and the maximum over the box of the row `r` with its
/// constant replaced by `k`, whose non-zero coefficients are within columns
/// `first..=last`: each `None` if unbounded or not computable in `i128`.
fn extrema(
    bounds: &[Bounds],
    k: &Int,
    r: &[Int],
    first: usize,
    last: usize,
) -> (Option<i128>, Option<i128>) {
    let Int::Small(k) = *k else {
        return (None, None);
    };
    let (mut min, mut max) = (i128::from(k), i128::from(k));
    let (mut min_known, mut max_known) = (true, true);
    for c in first..=last {
        let a = match r[c] {
            Int::Small(0) => continue,
            Int::Small(a) => a,
            Int::Big(_) => return (None, None),
        };
        let (lo, hi) = bounds[c - 1];
        let (low, high) = if a > 0 { (lo, hi) } else { (hi, lo) };
        if min_known {
            match add_term(min, a, low) {
                Some(v) => min = v,
                None => min_known = false,
            }
        }
        if max_known {
            match add_term(max, a, high) {
                Some(v) => max = v,
                None => max_known = false,
            }
        }
        if !min_known && !max_known {
            break;
        }
    }
    (min_known.then_some(min), max_known.then_some(max))
}

/// `s + a * bound`, `None` if `bound` is missing (`i128::MIN` or
/// `i128::MAX`) or the sum leaves `i128`. The product cannot overflow:
/// `|a| ≤ 2^63` and `|bound| ≤ 2^63` (see [`Bounds`]).
fn add_term(s: i128, a: i64, bound: i128) -> Option<i128> {
    if bound == i128::MIN || bound == i128::MAX {
        return None;
    }
    match a {
        1 => s.checked_add(bound),
        -1 => s.checked_sub(bound),
        a => s.checked_add(i128::from(a) * bound),
    }
}
