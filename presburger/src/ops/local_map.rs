//! Syntactic containment up to a renaming of the locals: `p ⊆ q` proved by
//! a map `σ` from `q`'s locals to `p`'s under which every row of `q` is
//! implied by a single row of `p`.
//!
//! Why this is exact: the constraints alone define a basic map (a defined
//! local's definition is implied by its rows). Take a point `(x, l)`
//! satisfying `p`'s rows and give `q`'s local `k` the value `l[σ(k)]`; a
//! row of `q` then takes the value of its renamed row at `(x, l)` (two of
//! `q`'s locals sent to one of `p`'s add their coefficients), which is at
//! least the value of the implying row of `p` (same coefficients, constant
//! at least as large; an equality: equal up to sign), so `(x, σ·l)`
//! satisfies `q`'s rows and `x ∈ q`. `false` means "not proved".
//!
//! This is what makes a subtrahend whose existentials repeat the
//! minuend's (a traced relation built by conjoining copies of the same
//! existential constraints) contain the minuend without simplifying
//! either side. The map is searched depth first, local by local, a row of
//! `q` checked as soon as its locals are all mapped; the search is cut
//! after a fixed number of row checks.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::opposite_key::int_key;

/// Row checks a search may make before giving up ("not proved").
const MAX_CHECKS: usize = 1024;

/// True if some map of `q`'s locals to `p`'s locals makes every row of `q`
/// implied by one row of `p` (see the [module documentation](self)): then
/// `p ⊆ q`. Only tried when `q` has locals (without, this is
/// [`syntactically_contains`](crate::syntactic::syntactically_contains)).
pub(crate) fn contains_by_local_map(q: &BasicMap, p: &BasicMap) -> bool {
    let off = q.off_div();
    if q.n_div() == 0
        || p.n_div() == 0
        || p.off_div() != off
        || !crate::map::same_params(&q.space.params, &p.space.params)
        || !q.space.tuples_match(&p.space)
    {
        return false;
    }
    // q's rows as (row, is_equality), grouped by their last local (rows
    // without locals first: they are checked before any search)
    let nq = q.n_div();
    let last = |r: &[Int]| {
        (off..r.len())
            .rev()
            .find(|&c| !r[c].is_zero())
            .map(|c| c - off)
    };
    let mut by_last: Vec<Vec<(&[Int], bool)>> = vec![Vec::new(); nq + 1];
    for (rows, eq) in [(&q.eqs, true), (&q.ineqs, false)] {
        for r in rows.iter() {
            let slot = last(r).map_or(0, |k| k + 1);
            by_last[slot].push((&r[..], eq));
        }
    }
    let mut search = Search {
        p,
        keys: None,
        off,
        sigma: Vec::with_capacity(nq),
        by_last,
        checks: 0,
        row: vec![Int::ZERO; p.row_len()],
    };
    if !search.rows_hold(0) {
        return false;
    }
    // (the keys of `p`'s rows only for a search: most calls stop above)
    search.keys = Some(RowKeys::of(p));
    search.extend()
}

struct Search<'a> {
    p: &'a BasicMap,
    /// The keys of `p`'s rows, once they are made (before the search
    /// proper).
    keys: Option<RowKeys>,
    off: usize,
    /// `sigma[k]`: the local of `p` that `q`'s local `k` is sent to.
    sigma: Vec<usize>,
    /// `by_last[0]`: `q`'s rows without locals; `by_last[k + 1]`: those
    /// whose last local is `k`.
    by_last: Vec<Vec<(&'a [Int], bool)>>,
    checks: usize,
    row: Vec<Int>,
}

impl Search<'_> {
    /// Map the next local of `q` (all of them mapped: proved).
    fn extend(&mut self) -> bool {
        let k = self.sigma.len();
        if k + 1 == self.by_last.len() {
            return true;
        }
        for m in 0..self.p.n_div() {
            self.checks += 1;
            self.sigma.push(m);
            if self.rows_hold(k + 1) && self.extend() {
                return true;
            }
            self.sigma.pop();
            if self.checks > MAX_CHECKS {
                return false;
            }
        }
        false
    }

    /// Whether every row of `by_last[slot]`, renamed by `sigma`, is
    /// implied by a row of `p`.
    fn rows_hold(&mut self, slot: usize) -> bool {
        let rows = std::mem::take(&mut self.by_last[slot]);
        let ok = rows.iter().all(|&(r, eq)| {
            self.checks += 1;
            self.rename(r);
            implied_keyed(self.p, self.keys.as_ref(), &self.row, eq)
        });
        self.by_last[slot] = rows;
        ok
    }

    /// `r` (a row of `q`) in `p`'s layout under `sigma`, into `self.row`.
    fn rename(&mut self, r: &[Int]) {
        let off = self.off;
        self.row[..off].clone_from_slice(&r[..off]);
        self.row[off..].iter_mut().for_each(|v| *v = Int::ZERO);
        for (k, v) in r[off..].iter().enumerate() {
            if !v.is_zero() {
                let c = off + self.sigma[k];
                self.row[c] = &self.row[c] + v;
            }
        }
    }
}

/// The [`int_key`]s of the coefficients of a basic map's equalities and
/// inequalities (`None`: a coefficient beyond `i64`): a row equal to `r`
/// has `r`'s key, one opposite to `r` its negation (the key is linear).
struct RowKeys {
    eqs: Vec<Option<u64>>,
    ineqs: Vec<Option<u64>>,
}

impl RowKeys {
    fn of(p: &BasicMap) -> RowKeys {
        let of = |rows: &crate::rows::Rows| rows.iter().map(|f| int_key(&f[1..])).collect();
        RowKeys {
            eqs: of(&p.eqs),
            ineqs: of(&p.ineqs),
        }
    }
}

/// [`implied_keyed`] comparing every row: the tests' oracle.
#[cfg(test)]
fn implied(p: &BasicMap, r: &[Int], eq: bool) -> bool {
    implied_keyed(p, None, r, eq)
}

/// Whether the row `r` (an equality if `eq`) follows from one row of `p`:
/// an equality is one of `p`'s up to sign; an inequality `c + a·v >= 0`
/// follows from an inequality `c' + a·v >= 0` of `p` with `c' <= c` or an
/// equality `±(c' + a·v) = 0` with `±c' <= c`; a row without variables
/// that holds needs nothing. With `keys` ([`RowKeys::of`] `p`), `r` is
/// compared only with the rows of `p` whose key is that of `r` or of `-r`
/// as the comparison needs: the rows skipped differ from `r` and `-r`.
fn implied_keyed(p: &BasicMap, keys: Option<&RowKeys>, r: &[Int], eq: bool) -> bool {
    let opposite = |a: &[Int], b: &[Int]| a.iter().zip(b).all(|(x, y)| (x + y).is_zero());
    if r[1..].iter().all(Int::is_zero) {
        return if eq { r[0].is_zero() } else { !r[0].is_neg() };
    }
    let h = keys.and_then(|_| int_key(&r[1..]));
    // whether row `i` of `rows` (keys `ks`) may equal `r`, or `-r` if `neg`
    let may = |ks: Option<&Vec<Option<u64>>>, i: usize, neg: bool| match (h, ks.and_then(|k| k[i]))
    {
        (Some(h), Some(k)) => k == if neg { h.wrapping_neg() } else { h },
        _ => true,
    };
    let (eqk, ineqk) = (keys.map(|k| &k.eqs), keys.map(|k| &k.ineqs));
    if eq {
        return p.eqs.iter().enumerate().any(|(i, f)| {
            (may(eqk, i, false) && f[..] == r[..]) || (may(eqk, i, true) && opposite(f, r))
        });
    }
    p.ineqs
        .iter()
        .enumerate()
        .any(|(i, f)| may(ineqk, i, false) && f[1..] == r[1..] && f[0] <= r[0])
        || p.eqs.iter().enumerate().any(|(i, f)| {
            (may(eqk, i, false) && f[1..] == r[1..] && f[0] <= r[0])
                || (may(eqk, i, true) && opposite(&f[1..], &r[1..]) && -&f[0] <= r[0])
        })
}

#[cfg(test)]
mod tests {
    use super::{implied, implied_keyed, RowKeys};
    use crate::basic::BasicMap;
    use crate::int::Int;

    /// The keyed test answers as the one that compares every row, on rows
    /// drawn from a small pool (so that equal, opposite and shifted rows
    /// are common), big entries and `i64::MIN` among them.
    #[test]
    fn implied_by_key_is_implied() {
        let mut rng = crate::testing::XorShift(0x2545_f491_4f6c_dd1d);
        let mut below = |n: u64| rng.below(n);
        let pool = |k: u64| -> Int {
            match k {
                0 => Int::from(i64::MIN),
                1 => Int::from(4294967296i64),
                2 => "100000000000000000000".parse().unwrap(),
                3 => "-100000000000000000000".parse().unwrap(),
                _ => Int::from(k as i64 % 5 - 2),
            }
        };
        let (mut yes, mut total) = (0, 0);
        for _ in 0..3000 {
            let mut p: BasicMap =
                "{ [i, j, k] }".parse::<crate::Map>().unwrap().basic_maps()[0].clone();
            let row = |below: &mut dyn FnMut(u64) -> u64| -> Vec<Int> {
                (0..4).map(|_| pool(below(12))).collect()
            };
            for _ in 0..below(3) {
                p.eqs.push(row(&mut below));
            }
            for _ in 0..below(6) {
                p.ineqs.push(row(&mut below));
            }
            let keys = RowKeys::of(&p);
            for _ in 0..8 {
                // a row of p, maybe negated or shifted, or a fresh one
                let all: Vec<Vec<Int>> = p
                    .eqs
                    .iter()
                    .chain(p.ineqs.iter())
                    .map(<[Int]>::to_vec)
                    .collect();
                let mut r = if all.is_empty() || below(4) == 0 {
                    row(&mut below)
                } else {
                    all[below(all.len() as u64) as usize].clone()
                };
                if below(2) == 0 {
                    r.iter_mut().for_each(|v| *v = -&*v);
                }
                if below(2) == 0 {
                    r[0] = &r[0] + &Int::from(below(3) as i64 - 1);
                }
                for eq in [false, true] {
                    let want = implied(&p, &r, eq);
                    assert_eq!(
                        implied_keyed(&p, Some(&keys), &r, eq),
                        want,
                        "{p:?} {r:?} {eq}"
                    );
                    yes += usize::from(want);
                    total += 1;
                }
            }
        }
        assert!(yes > 5000 && total - yes > 5000, "{yes} {total}");
    }
}
