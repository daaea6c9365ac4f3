//! Duplicate and opposite inequalities ([`BasicMap::dedup_ineqs`]).
//!
//! The rows are grouped by direction (their coefficients without the
//! constant). The simple method keys a hash map by the coefficient slices
//! and looks up each direction's negation as a new row. The fast path keys
//! it by the linear key of each direction (`opposite_key::int_key`: the key
//! of `-d` is the negation of that of `d`, no negated copy, no second
//! hash), when every coefficient and its negation fit in 64 bits; every
//! match of keys is checked on the rows themselves, and
//! two directions with one hash send the rows to the simple method. Both
//! give the same plan (the same loops over the rows, in the same order);
//! the simple method is the oracle of the tests below.
//!
//! Up to [`PAIRWISE_MAX`] rows (the usual case) the plan is made without
//! hashing: each row's direction is compared in place with the directions
//! before it that have the same support ([`plan_pairwise`], quadratic, its
//! bookkeeping on the stack).
//! Most calls change nothing (every direction once, no opposite pair
//! becoming an equality, no constant row): that plan is [`Plan::Same`],
//! built without allocation, and the rows are then left untouched (not
//! rebuilt, so rows shared with a copy are not copied). The tests check
//! the pairwise plan against the simple method's.

use std::collections::hash_map::Entry;

use crate::basic::BasicMap;
use crate::fxhash::FxHashMap;
use crate::int::Int;
use crate::opposite_key::int_key;
use crate::rows::Rows;

/// What deduplication makes of the inequalities, or a contradiction.
enum Plan {
    /// A constant row is negative, or two opposite rows leave no room.
    Empty,
    /// Every row kept in place, no new equality (only [`plan_pairwise`]
    /// says so; the others give the `Rows` of it).
    Same,
    Rows {
        /// Per direction (in order of first occurrence), the row with the
        /// tightest constant.
        best: Vec<usize>,
        /// Per direction, false when it became an equality.
        keep: Vec<bool>,
        /// The equalities of opposite pairs with matching constants: the
        /// row (its index) of one side of each pair.
        new_eqs: Vec<usize>,
    },
}

/// A direction's linear hash and whether it is not zero, `None` if a
/// coefficient does not fit in 64 bits (or has no negation there).
type DirectionHash = fn(&[Int]) -> Option<(u64, bool)>;

/// The key of a direction ([`int_key`]: linear, so the key of `-d` is the
/// negation of that of `d` and a direction's opposite is looked up without
/// a negated copy or a second hash) and whether the direction is not zero
/// (looked for only when the key is 0).
fn direction_hash(coef: &[Int]) -> Option<(u64, bool)> {
    let h = int_key(coef)?;
    Some((h, h != 0 || coef.iter().any(|v| !v.is_zero())))
}

/// True if `a = -b` entry by entry.
fn is_negation(a: &[Int], b: &[Int]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
            _ => *x == -y,
        })
}

/// The opposite pairs of the directions `best` (`opposite(k)`: the
/// direction of `-best[k]`, if any).
fn pair_opposites(
    ineqs: &Rows,
    best: Vec<usize>,
    mut opposite: impl FnMut(&[usize], usize) -> Option<Option<usize>>,
) -> Option<Plan> {
    let mut keep = vec![true; best.len()];
    let mut new_eqs = Vec::new();
    for k in 0..best.len() {
        if !keep[k] {
            continue;
        }
        let r = &ineqs[best[k]];
        if let Some(k2) = opposite(&best, k)? {
            // c + e >= 0 and c2 - e >= 0, i.e. -c <= e <= c2
            let s = &r[0] + &ineqs[best[k2]][0];
            if s.is_neg() {
                return Some(Plan::Empty);
            }
            if s.is_zero() {
                new_eqs.push(best[k]);
                keep[k] = false;
                keep[k2] = false;
            }
        }
    }
    Some(Plan::Rows {
        best,
        keep,
        new_eqs,
    })
}

/// Up to this many inequalities, the plan is made by [`plan_pairwise`]
/// (it compares every pair of directions: quadratic, but without hashing
/// or allocation on the usual path where nothing changes).
const PAIRWISE_MAX: usize = 32;

/// How two directions (of equal length) relate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Relation {
    Same,
    Opposite,
    Neither,
}

/// Whether `a = b`, `a = -b` or neither, in one pass that stops at the
/// first entry where neither can hold (`a` is not zero: not both).
#[inline]
fn relation(a: &[Int], b: &[Int]) -> Relation {
    let (mut same, mut opposite) = (true, true);
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (Int::Small(x), Int::Small(y)) => {
                same &= x == y;
                opposite &= x.checked_neg() == Some(*y);
            }
            _ => {
                same &= x == y;
                opposite &= *x == -y;
            }
        }
        if !(same || opposite) {
            return Relation::Neither;
        }
    }
    if same {
        Relation::Same
    } else {
        Relation::Opposite
    }
}

/// The columns where `d` is not zero, folded onto 64 bits (column `j` sets
/// bit `j % 64`), in one pass without branches: equal and opposite
/// directions have the same support, hence the same mask, so
/// [`plan_pairwise`] compares only directions of equal masks (in the
/// sparse rows of the usual basic map, most pairs differ there); 0 only
/// for the zero direction.
#[inline]
fn support(d: &[Int]) -> u64 {
    d.iter()
        .enumerate()
        .fold(0, |m, (j, v)| m | (u64::from(!v.is_zero()) << (j % 64)))
}

/// No direction (see [`plan_pairwise`]).
const NO_DIRECTION: usize = usize::MAX;

/// The plan of the simple method for at most [`PAIRWISE_MAX`] rows, by
/// comparing each row's direction with the directions met before it (in
/// place, on the stack): the directions in order of first occurrence, the
/// tightest row of each (the first among equal constants), and each
/// direction's opposite (a direction has at most one: the directions are
/// distinct). Then the opposite pairs as [`pair_opposites`] makes them, in
/// the same order. [`Plan::Same`] when the plan is every row in order, all
/// kept, no new equality.
fn plan_pairwise(ineqs: &Rows, n: usize) -> Plan {
    debug_assert!(ineqs.len() <= PAIRWISE_MAX);
    let mut best = [0usize; PAIRWISE_MAX];
    let mut opp = [NO_DIRECTION; PAIRWISE_MAX];
    // each direction's `support`: only directions of one support are compared
    let mut masks = [0u64; PAIRWISE_MAX];
    let mut nd = 0;
    // a constant row or a repeated direction: the rows change
    let mut dropped = false;
    for (i, r) in ineqs.iter().enumerate() {
        let d = &r[1..n];
        let mask = support(d);
        if mask == 0 {
            if r[0].is_neg() {
                return Plan::Empty;
            }
            dropped = true;
            continue;
        }
        let (mut same, mut opposite) = (NO_DIRECTION, NO_DIRECTION);
        for k in 0..nd {
            if masks[k] != mask {
                continue;
            }
            match relation(d, &ineqs[best[k]][1..n]) {
                Relation::Same => {
                    same = k;
                    break;
                }
                Relation::Opposite => opposite = k,
                Relation::Neither => {}
            }
        }
        if same != NO_DIRECTION {
            dropped = true;
            if r[0] < ineqs[best[same]][0] {
                best[same] = i;
            }
        } else {
            best[nd] = i;
            masks[nd] = mask;
            if opposite != NO_DIRECTION {
                opp[nd] = opposite;
                opp[opposite] = nd;
            }
            nd += 1;
        }
    }
    // the opposite pairs, as `pair_opposites` visits them
    let mut keep = [true; PAIRWISE_MAX];
    let mut new_eqs = Vec::new();
    for k in 0..nd {
        let k2 = opp[k];
        if !keep[k] || k2 == NO_DIRECTION {
            continue;
        }
        let r = &ineqs[best[k]];
        let s = &r[0] + &ineqs[best[k2]][0];
        if s.is_neg() {
            return Plan::Empty;
        }
        if s.is_zero() {
            new_eqs.push(best[k]);
            keep[k] = false;
            keep[k2] = false;
        }
    }
    if !dropped && new_eqs.is_empty() {
        return Plan::Same;
    }
    Plan::Rows {
        best: best[..nd].to_vec(),
        keep: keep[..nd].to_vec(),
        new_eqs,
    }
}

/// The plan by hashes of the directions; `None` if a coefficient is big or
/// two directions share a hash (then the simple method decides). `hash` is
/// linear (that of `-d` is the negation of that of `d`).
fn plan_by_hashes(ineqs: &Rows, n: usize, hash: DirectionHash) -> Option<Plan> {
    let mut hs: Vec<u64> = Vec::with_capacity(ineqs.len());
    let mut index: FxHashMap<u64, usize> =
        FxHashMap::with_capacity_and_hasher(ineqs.len(), Default::default());
    let mut best: Vec<usize> = Vec::with_capacity(ineqs.len());
    for (i, r) in ineqs.iter().enumerate() {
        let (h, nonzero) = hash(&r[1..n])?;
        hs.push(h);
        if !nonzero {
            if r[0].is_neg() {
                return Some(Plan::Empty);
            }
            continue;
        }
        match index.entry(h) {
            Entry::Occupied(e) => {
                let k = *e.get();
                let j = best[k];
                if ineqs[j][1..n] != r[1..n] {
                    return None;
                }
                if r[0] < ineqs[j][0] {
                    best[k] = i;
                }
            }
            Entry::Vacant(e) => {
                e.insert(best.len());
                best.push(i);
            }
        }
    }
    pair_opposites(ineqs, best, |b, k| {
        let r = &ineqs[b[k]][1..n];
        match index.get(&hs[b[k]].wrapping_neg()) {
            None => Some(None),
            // an earlier direction: its own look-up found this one (one
            // direction per key) and compared the pair then, so neither
            // the rows nor the constants are compared twice
            Some(&k2) if k2 < k => Some(None),
            Some(&k2) if is_negation(&ineqs[b[k2]][1..n], r) => Some(Some(k2)),
            Some(_) => None,
        }
    })
}

/// The plan: pairwise for a few rows, else by hashes (by slices when
/// those do not decide).
fn plan(ineqs: &Rows, n: usize) -> Plan {
    if ineqs.len() <= PAIRWISE_MAX {
        plan_pairwise(ineqs, n)
    } else {
        plan_by_hashes(ineqs, n, direction_hash).unwrap_or_else(|| plan_by_slices(ineqs, n))
    }
}

/// The simple method: a hash map keyed by the coefficient slices.
fn plan_by_slices(ineqs: &Rows, n: usize) -> Plan {
    let mut best: Vec<usize> = Vec::with_capacity(ineqs.len());
    let mut index: FxHashMap<&[Int], usize> =
        FxHashMap::with_capacity_and_hasher(ineqs.len(), Default::default());
    for (i, r) in ineqs.iter().enumerate() {
        if r[1..n].iter().all(Int::is_zero) {
            if r[0].is_neg() {
                return Plan::Empty;
            }
            continue;
        }
        match index.entry(&r[1..n]) {
            Entry::Occupied(e) => {
                let k = *e.get();
                if r[0] < ineqs[best[k]][0] {
                    best[k] = i;
                }
            }
            Entry::Vacant(e) => {
                e.insert(best.len());
                best.push(i);
            }
        }
    }
    let mut neg: Vec<Int> = Vec::with_capacity(n);
    pair_opposites(ineqs, best, |b, k| {
        neg.clear();
        neg.extend(ineqs[b[k]][1..n].iter().map(|v| -v));
        Some(index.get(&neg[..]).copied())
    })
    .expect("the lookup by slices always answers")
}

/// Leave in `rows` the rows `best[k]` with `keep[k]`, in order, in place
/// (the others dropped): the `j`-th kept row comes from `best[k] >= k >= j`
/// (the directions first occur in order, each row at or after its
/// direction's first), and no later kept row is at `j` or at a place an
/// earlier swap wrote (their rows come after this direction's first).
fn keep_rows(rows: &mut Rows, best: &[usize], keep: &[bool]) {
    rows.swap_in(best.iter().zip(keep).filter(|(_, &k)| k).map(|(&i, _)| i));
}

impl BasicMap {
    /// Remove duplicate inequalities (keeping the tightest constant), turn
    /// opposite pairs with matching constants into equalities, and drop
    /// trivially true rows. Returns `None` on a contradiction, else whether
    /// opposite pairs became equalities that changed other inequalities
    /// (by their elimination).
    pub(super) fn dedup_ineqs(&mut self) -> Option<bool> {
        self.dedup_ineqs_with(plan)
    }

    /// [`dedup_ineqs`](Self::dedup_ineqs) by the plan that `plan` makes
    /// (the tests give it the simple method).
    fn dedup_ineqs_with(&mut self, plan: fn(&Rows, usize) -> Plan) -> Option<bool> {
        let n = self.row_len();
        let (best, keep, new_eqs) = match plan(&self.ineqs, n) {
            Plan::Empty => return None,
            Plan::Same => return Some(false),
            Plan::Rows {
                best,
                keep,
                new_eqs,
            } => (best, keep, new_eqs),
        };
        if new_eqs.is_empty()
            && keep.iter().all(|&k| k)
            && best.iter().copied().eq(0..best.len())
            && best.len() == self.ineqs.len()
        {
            // every row kept in place: nothing to rebuild (rows shared with a
            // copy stay shared)
            return Some(false);
        }
        // (the new equalities copied from their rows before these move)
        self.eqs.extend(new_eqs.iter().map(|&i| &self.ineqs[i]));
        keep_rows(&mut self.ineqs, &best, &keep);
        if new_eqs.is_empty() {
            return Some(false);
        }
        Some(self.gauss())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;

    /// True if `p` is every row of `len` in order, all kept, no new equality.
    fn is_same(p: &Plan, len: usize) -> bool {
        match p {
            Plan::Same => true,
            Plan::Rows {
                best,
                keep,
                new_eqs,
            } => best.iter().copied().eq(0..len) && keep.iter().all(|&k| k) && new_eqs.is_empty(),
            Plan::Empty => false,
        }
    }

    fn plans_agree(a: &Plan, b: &Plan, len: usize) -> bool {
        match (a, b) {
            (Plan::Empty, Plan::Empty) => true,
            (Plan::Same, p) | (p, Plan::Same) => is_same(p, len),
            (
                Plan::Rows {
                    best: b1,
                    keep: k1,
                    new_eqs: e1,
                },
                Plan::Rows {
                    best: b2,
                    keep: k2,
                    new_eqs: e2,
                },
            ) => b1 == b2 && k1 == k2 && e1 == e2,
            _ => false,
        }
    }

    /// Random rows over three columns from a few small directions (so that
    /// duplicates and opposite pairs are common), some with big entries:
    /// the pairwise and the hashed plans are the simple method's.
    #[test]
    fn hashed_plan_is_the_simple_one() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |k: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % k
        };
        let big = Int::from(i64::MAX) + Int::from(5);
        let (mut hashed, mut empty, mut paired, mut unchanged) = (0, 0, 0, 0);
        for round in 0..3000 {
            // (now and then up to the most rows of the pairwise plan)
            let rows = if round % 3 == 0 {
                1 + next(PAIRWISE_MAX as u64) as usize
            } else {
                1 + next(9) as usize
            };
            let mut ineqs = Vec::new();
            for _ in 0..rows {
                let mut r: Vec<Int> = (0..4).map(|_| Int::from(next(5) as i64 - 2)).collect();
                if round % 10 == 0 && next(4) == 0 {
                    r[1 + next(3) as usize] = if next(2) == 0 { big.clone() } else { -&big };
                }
                ineqs.push(r);
            }
            let slow = plan_by_slices(&crate::Rows::from(&ineqs[..]), 4);
            let pairwise = plan_pairwise(&crate::Rows::from(&ineqs[..]), 4);
            assert!(plans_agree(&pairwise, &slow, rows), "{ineqs:?}");
            if matches!(pairwise, Plan::Same) {
                unchanged += 1;
            }
            assert_eq!(
                matches!(pairwise, Plan::Same),
                is_same(&slow, rows),
                "{ineqs:?}"
            );
            if let Some(fast) = plan_by_hashes(&crate::Rows::from(&ineqs[..]), 4, direction_hash) {
                hashed += 1;
                assert!(plans_agree(&fast, &slow, rows), "{ineqs:?}");
            }
            // one hash for every direction: any two directions collide
            if let Some(fast) = plan_by_hashes(&crate::Rows::from(&ineqs[..]), 4, |c| {
                Some((0, c.iter().any(|v| !v.is_zero())))
            }) {
                assert!(plans_agree(&fast, &slow, rows), "{ineqs:?}");
            }
            if let Plan::Rows { best, keep, .. } = &slow {
                // in place (and from a shared list, by a new one) as by copies
                let want: Vec<Vec<Int>> = best
                    .iter()
                    .zip(keep)
                    .filter(|(_, &k)| k)
                    .map(|(&i, _)| ineqs[i].clone())
                    .collect();
                let mut rows = crate::Rows::from(&ineqs[..]);
                keep_rows(&mut rows, best, keep);
                assert_eq!(rows, want, "{ineqs:?}");
                let original = crate::Rows::from(&ineqs[..]);
                let mut shared = original.clone();
                keep_rows(&mut shared, best, keep);
                assert_eq!(shared, want, "{ineqs:?}");
                assert_eq!(original, ineqs, "the shared rows stay as they were");
            }
            match &slow {
                Plan::Empty => empty += 1,
                Plan::Rows { new_eqs, .. } if !new_eqs.is_empty() => paired += 1,
                _ => {}
            }
        }
        assert!(
            hashed > 2500 && empty > 100 && paired > 30 && unchanged > 100,
            "{hashed} {empty} {paired} {unchanged}"
        );
    }

    /// `relation` against negated copies, on short vectors of small and big
    /// entries (many equal or opposite pairs, leading zeros).
    #[test]
    fn relation_is_by_copies() {
        let big = Int::from(i64::MAX) + Int::from(5);
        let vals = [
            Int::ZERO,
            Int::ONE,
            Int::from(-1),
            Int::from(2),
            big.clone(),
            -&big,
        ];
        let mut seen = [0usize; 3];
        for code in 0..6usize.pow(4) {
            let a: Vec<Int> = (0..2)
                .map(|j| vals[code / 6usize.pow(j) % 6].clone())
                .collect();
            let b: Vec<Int> = (2..4)
                .map(|j| vals[code / 6usize.pow(j) % 6].clone())
                .collect();
            let neg: Vec<Int> = b.iter().map(|v| -v).collect();
            let want = if a.iter().all(Int::is_zero) && b.iter().all(Int::is_zero) || a == b {
                Relation::Same
            } else if a == neg {
                Relation::Opposite
            } else {
                Relation::Neither
            };
            assert_eq!(relation(&a, &b), want, "{a:?} {b:?}");
            seen[want as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 5), "{seen:?}");
    }

    /// The whole step on parsed sets, against the simple method.
    #[test]
    fn dedup_keeps_the_set() {
        for s in [
            "{ [i, j] : 0 <= i <= 5 and i <= 5 and i >= 0 and j >= i and j <= i }",
            "{ [i, j] : i + j >= 2 and i + j <= 2 and 2i - j <= 7 and 2i - j <= 9 }",
            "{ [i, j] : i >= 3 and i <= 2 }",
        ] {
            let m: Map = s.parse().unwrap();
            for b in m.basic_maps() {
                let mut doubled = b.clone();
                let extra = doubled.ineqs.clone();
                doubled.ineqs.extend(extra);
                let (mut fast, mut slow) = (doubled.clone(), doubled.clone());
                let got = fast.dedup_ineqs();
                let want = slow.dedup_ineqs_with(plan_by_slices);
                assert_eq!(got, want, "{s}");
                assert_eq!((&fast.eqs, &fast.ineqs), (&slow.eqs, &slow.ineqs), "{s}");
            }
        }
    }
}
