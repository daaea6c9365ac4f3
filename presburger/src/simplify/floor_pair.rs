//! Locals that a *floor pair* leaves free: the tiles and steps of loop nests
//! (issues 20 and 22), eliminated although their coefficients are not ±1.
//!
//! A local `q` bounded by the pair `f - d·q >= 0`, `-f + d·q + w >= 0` (with
//! `d > 0`, `f` free of `q`) has the integers of `[ceil((f - w)/d), floor(f/d)]`
//! to choose from: when `w >= d - 1` these are `w + 1 >= d` consecutive
//! values of `f - d·q`, so one of them is a multiple of `d` and the pair
//! holds for every integer value of `f`. [`BasicMap::eliminate_floor_pairs`]
//! eliminates such a local (not in an equality, not in a definition):
//!
//! 1. a further bound `c·q + g >= 0` with `c = ±m·d` is dropped when the pair
//!    implies it: `c·q + g` is `m` times the pair's row on the same side plus
//!    a remainder `r` free of `q`, and `r >= 0` is a positive multiple of
//!    another inequality (at a constant no larger) or a non-negative constant;
//! 2. the other further bounds must have coefficient ±1 (`q >= L` or `q <= U`,
//!    `L` and `U` integer-valued); then Fourier–Motzkin elimination is exact:
//!    `q` exists iff `ceil((f - w)/d) <= floor(f/d)` (true, `w >= d - 1`),
//!    `L <= floor(f/d)` (`f - d·L >= 0`), `ceil((f - w)/d) <= U`
//!    (`d·U + w - f >= 0`) and `L <= U` for every pair, exactly the rows
//!    `d·(q - L) + (f - d·q)`, `d·(U - q) + (-f + d·q + w)` and
//!    `(q - L) + (U - q)`. With no further bound the pair alone is dropped.
//!
//! A tile `e0 = 4e1` is written as the existential `e0` with an equality, so
//! first (`BasicMap::substitute_unit_existentials`, in `substitute`) an existential with
//! coefficient ±1 in an equality is substituted everywhere (Gaussian
//! elimination pivots on the equality's last column, `e1`, and leaves `e0`
//! in the inequalities): `4e1 <= i <= 4e1 + 3` is then a floor pair of `e1`.

use crate::basic::BasicMap;
use crate::int::{gcd_slice, Int};

/// At most this many rows come out of one elimination (beyond, the local is kept).
const MAX_NEW_ROWS: usize = 16;

/// The pair bounding a local: the rows `f - d·q >= 0` (`lo`) and
/// `-f + d·q + w >= 0` (`hi`), and `d`.
struct FloorPair {
    lo: usize,
    hi: usize,
    d: Int,
}

impl BasicMap {
    /// Eliminate the locals bounded by a floor pair at least as wide as its
    /// divisor, where that is exact (see the [module documentation](self)).
    /// Returns true if a local was removed.
    pub(crate) fn eliminate_floor_pairs(&mut self) -> bool {
        self.drop_locals(|b, k| b.eliminate_floor_pair(k))
    }

    /// [`eliminate_floor_pairs`](Self::eliminate_floor_pairs) of local `k`.
    fn eliminate_floor_pair(&mut self, k: usize) -> bool {
        let col = self.off_div() + k;
        if self.local_used_in_divs(k) || self.eqs.iter().any(|r| !r[col].is_zero()) {
            return false;
        }
        // (counted first: no list for a local with fewer than two bounds)
        if self
            .ineqs
            .iter()
            .filter(|r| !r[col].is_zero())
            .nth(1)
            .is_none()
        {
            return false;
        }
        let rows: Vec<usize> = (0..self.ineqs.len())
            .filter(|&i| !self.ineqs[i][col].is_zero())
            .collect();
        // the first pair (narrowest first) whose other bounds are implied or ±1
        let found = self.floor_pairs(col, &rows).into_iter().find_map(|pair| {
            // a further bound with a coefficient neither ±1 nor a multiple of
            // `d` fails the pair below whatever the others are: found first,
            // without the search for implied rows
            let hopeless = |&i: &usize| {
                let c = &self.ineqs[i][col];
                i != pair.lo
                    && i != pair.hi
                    && !matches!(c, Int::Small(1 | -1))
                    && !c.is_divisible_by(&pair.d)
            };
            if rows.iter().any(hopeless) {
                return None;
            }
            let (mut lowers, mut uppers) = (Vec::new(), Vec::new());
            for &i in &rows {
                if i == pair.lo || i == pair.hi || self.implied_by_pair(i, col, &pair) {
                    continue;
                }
                let c = &self.ineqs[i][col];
                if c.is_one() {
                    lowers.push(i);
                } else if (-c).is_one() {
                    uppers.push(i);
                } else {
                    return None;
                }
            }
            Some((pair, lowers, uppers))
        });
        let Some((pair, lowers, uppers)) = found else {
            return false;
        };
        if (lowers.len() + 1) * (uppers.len() + 1) - 1 > MAX_NEW_ROWS {
            return false;
        }
        let d = &pair.d;
        let one = Int::ONE;
        let combine = |a: &Int, x: &[Int], b: &Int, y: &[Int]| -> Vec<Int> {
            x.iter()
                .zip(y)
                .map(|(u, v)| Int::combine(a, u, b, v))
                .collect()
        };
        let mut new_rows = Vec::new();
        for &l in &lowers {
            new_rows.push(combine(d, &self.ineqs[l], &one, &self.ineqs[pair.lo]));
        }
        for &u in &uppers {
            new_rows.push(combine(d, &self.ineqs[u], &one, &self.ineqs[pair.hi]));
        }
        for &l in &lowers {
            for &u in &uppers {
                new_rows.push(combine(&one, &self.ineqs[l], &one, &self.ineqs[u]));
            }
        }
        self.ineqs.retain(|r| r[col].is_zero());
        self.ineqs.extend(new_rows);
        true
    }

    /// Of the rows `rows` (those with a coefficient at `col`), the floor pairs
    /// `f - d·q >= 0`, `-f + d·q + w >= 0` with `w >= d - 1`, narrowest (`w`) first.
    fn floor_pairs(&self, col: usize, rows: &[usize]) -> Vec<FloorPair> {
        let mut pairs: Vec<(FloorPair, Int)> = Vec::new();
        for &lo in rows {
            let l = &self.ineqs[lo];
            if !l[col].is_neg() {
                continue;
            }
            let d = -&l[col];
            for &hi in rows {
                let h = &self.ineqs[hi];
                if h[col] != d || (1..l.len()).any(|c| c != col && !is_negation(&h[c], &l[c])) {
                    continue;
                }
                let w = &l[0] + &h[0];
                if w >= &d - &Int::ONE {
                    let d = d.clone();
                    pairs.push((FloorPair { lo, hi, d }, w));
                }
            }
        }
        pairs.sort_by(|a, b| a.1.cmp(&b.1));
        pairs.into_iter().map(|(p, _)| p).collect()
    }

    /// True if inequality `i`, with coefficient `±m·d` at `col`, is `m` times
    /// the pair's row of the same sign plus a remainder that another row
    /// implies (a positive multiple of an inequality at a constant no larger,
    /// or of an equality, or a non-negative constant).
    fn implied_by_pair(&self, i: usize, col: usize, pair: &FloorPair) -> bool {
        let r = &self.ineqs[i];
        let c = &r[col];
        if !c.is_divisible_by(&pair.d) {
            return false;
        }
        // r = m·side + rest, where side has coefficient ±d of c's sign
        let m = c.div_exact(&pair.d).abs();
        let side = if c.is_neg() {
            &self.ineqs[pair.lo]
        } else {
            &self.ineqs[pair.hi]
        };
        let rest: Vec<Int> = r
            .iter()
            .zip(side)
            .map(|(x, y)| Int::combine(&Int::ONE, x, &-&m, y))
            .collect();
        debug_assert!(rest[col].is_zero());
        let g = gcd_slice(&rest[1..]);
        if g.is_zero() {
            return !rest[0].is_neg();
        }
        // rest = g·(dir·x) + rest0
        let dir: Vec<Int> = rest[1..].iter().map(|v| v.div_exact(&g)).collect();
        let at_least = |bound: Int| rest[0] >= bound;
        // (a row is compared whole only when its entry at the first non-zero
        // column of `dir` matches: most rows differ there)
        let p = dir.iter().position(|v| !v.is_zero()).expect("g > 0");
        // s = s0 + dir·x >= 0: rest >= rest0 - g·s0
        self.ineqs
            .iter()
            .any(|s| s[1 + p] == dir[p] && s[1..] == dir[..] && at_least(&g * &s[0]))
            // e = e0 ± dir·x = 0: rest = rest0 ∓ g·e0 (`-dir` compared in
            // place, not built)
            || self.eqs.iter().any(|e| {
                e[1 + p] == dir[p] && e[1..] == dir[..] && at_least(&g * &e[0])
                    || is_negation(&e[1 + p], &dir[p])
                        && e[1..].iter().zip(&dir).all(|(x, y)| is_negation(x, y))
                        && at_least(-&(&g * &e[0]))
            })
    }

    /// [`implied_by_pair`](Self::implied_by_pair) with the negated
    /// direction `-dir` built and compared as a slice: the simple version,
    /// the oracle of the tests.
    #[cfg(test)]
    pub(crate) fn implied_by_pair_reference(
        &self,
        i: usize,
        col: usize,
        lo: usize,
        hi: usize,
        d: &Int,
    ) -> bool {
        let r = &self.ineqs[i];
        let c = &r[col];
        if !c.is_divisible_by(d) {
            return false;
        }
        let m = c.div_exact(d).abs();
        let side = if c.is_neg() {
            &self.ineqs[lo]
        } else {
            &self.ineqs[hi]
        };
        let rest: Vec<Int> = r
            .iter()
            .zip(side)
            .map(|(x, y)| Int::combine(&Int::ONE, x, &-&m, y))
            .collect();
        let g = gcd_slice(&rest[1..]);
        if g.is_zero() {
            return !rest[0].is_neg();
        }
        let dir: Vec<Int> = rest[1..].iter().map(|v| v.div_exact(&g)).collect();
        let neg: Vec<Int> = dir.iter().map(|v| -v).collect();
        let at_least = |bound: Int| rest[0] >= bound;
        self.ineqs
            .iter()
            .any(|s| s[1..] == dir[..] && at_least(&g * &s[0]))
            || self.eqs.iter().any(|e| {
                e[1..] == dir[..] && at_least(&g * &e[0])
                    || e[1..] == neg[..] && at_least(-&(&g * &e[0]))
            })
    }

    /// The pair of rows `(lo, hi)` with the coefficient `d` of a floor pair
    /// at `col` (for the tests).
    #[cfg(test)]
    pub(crate) fn implied_by_pair_fast(
        &self,
        i: usize,
        col: usize,
        lo: usize,
        hi: usize,
        d: &Int,
    ) -> bool {
        self.implied_by_pair(
            i,
            col,
            &FloorPair {
                lo,
                hi,
                d: d.clone(),
            },
        )
    }
}

/// True if `h = -l` (no value built on the fast path).
#[inline]
fn is_negation(h: &Int, l: &Int) -> bool {
    match (h, l) {
        (Int::Small(h), Int::Small(l)) => l.checked_neg() == Some(*h),
        _ => *h == -l,
    }
}

#[cfg(test)]
mod tests;
