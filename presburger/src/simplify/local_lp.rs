//! Equalities between pairs of locals found by linear programming over the
//! rational relaxation ([`BasicMap::local_relations_by_lp`]).
//!
//! The simple method optimizes `l ± l'` twice (minimum and maximum) for
//! every pair of locals and sign. Most pairs take two or more integer
//! values, which the points the optimizations already visited often show:
//! every vertex the simplex stops at is a rational point of the relaxation,
//! so if `l ± l'` takes values `v1 <= v2` at two of them with
//! `floor(v2) > ceil(v1)`, then `floor(hi) >= floor(v2) > ceil(v1) >=
//! ceil(lo)` and the pair gives no equality: its two optimizations are
//! skipped. The equalities found are the simple method's, in the same order
//! (the optima do not depend on the basis the tableau is left in); the
//! simple method is kept as the oracle of the tests below.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::simplex::{Opt, Tableau};

/// Per pair of locals and sign, the least ceiling and the greatest floor of
/// `l ± l'` over the relaxation's points seen so far (points with a
/// coordinate past 64 bits are not recorded: fewer skips, same answers).
struct Spread {
    nd: usize,
    /// Indexed by [`Spread::slot`] (increasing in the order the pairs are
    /// visited): `(min ceil, max floor)`.
    seen: Vec<Option<(i128, i128)>>,
}

impl Spread {
    fn new(nd: usize) -> Spread {
        Spread {
            nd,
            seen: vec![None; nd * nd * 2],
        }
    }

    fn slot(&self, a: usize, b: usize, sign: i64) -> usize {
        (a * self.nd + b) * 2 + usize::from(sign < 0)
    }

    /// Record the tableau's current sample point (feasible: a point of the
    /// rational relaxation) for the slots from `next` on; locals are the
    /// variables from `off - 1` on.
    fn record(&mut self, t: &Tableau, off: usize, next: usize) {
        let mut vals = Vec::with_capacity(self.nd);
        for k in 0..self.nd {
            let (num, den) = t.sample_value(off - 1 + k);
            match (num.to_i64(), den.to_i64()) {
                (Some(n), Some(d)) => vals.push((i128::from(n), i128::from(d))),
                _ => return,
            }
        }
        for a in 0..self.nd {
            for b in a + 1..self.nd {
                let ((na, da), (nb, db)) = (vals[a], vals[b]);
                for sign in [1i64, -1] {
                    let k = self.slot(a, b, sign);
                    if k < next {
                        continue;
                    }
                    // na/da ± nb/db over the positive denominator da·db
                    // (products of 64-bit values fit; the sum may not)
                    let (x, y, den) = (na * db, nb * da, da * db);
                    let Some(num) = (if sign > 0 {
                        x.checked_add(y)
                    } else {
                        x.checked_sub(y)
                    }) else {
                        continue;
                    };
                    let f = num.div_euclid(den);
                    let c = if num.rem_euclid(den) == 0 { f } else { f + 1 };
                    self.seen[k] = Some(match self.seen[k] {
                        None => (c, f),
                        Some((c0, f0)) => (c0.min(c), f0.max(f)),
                    });
                }
            }
        }
    }

    /// True if the points seen show two integer values of `l_a ± l_b`
    /// between its rational minimum and maximum.
    fn two_integers(&self, a: usize, b: usize, sign: i64) -> bool {
        matches!(self.seen[self.slot(a, b, sign)], Some((c, f)) if f > c)
    }
}

impl BasicMap {
    /// Equalities between pairs of locals that the rational relaxation
    /// implies up to rounding: if `l ± l'` is bounded in `[lo, hi]` over the
    /// rationals and `ceil(lo) = floor(hi)`, the integer sum is constant
    /// (pairs that visited points show to take two values are skipped; see
    /// the [module documentation](self)).
    pub(crate) fn local_relations_by_lp(&mut self) -> Result<bool> {
        let nd = self.n_div();
        if !(2..=12).contains(&nd) {
            return Ok(false);
        }
        let off = self.off_div();
        let n = self.row_len();
        let mut t = self.rational_tableau()?;
        if t.is_empty() {
            return Ok(false);
        }
        let mut spread = Spread::new(nd);
        spread.record(&t, off, 0);
        let mut added = false;
        for a in 0..nd {
            for b in a + 1..nd {
                for sign in [1i64, -1] {
                    if spread.two_integers(a, b, sign) {
                        continue;
                    }
                    let next = spread.slot(a, b, sign) + 1;
                    let mut obj = vec![Int::ZERO; n];
                    obj[off + a] = Int::ONE;
                    obj[off + b] = Int::from(sign);
                    let lo = t.minimize(&obj)?; // the optimum basis stays a valid tableau
                    spread.record(&t, off, next);
                    let Opt::Value(ln, ld) = lo else {
                        continue;
                    };
                    let hi = t.maximize(&obj)?;
                    spread.record(&t, off, next);
                    let Opt::Value(hn, hd) = hi else {
                        continue;
                    };
                    let l = ln.div_ceil(&ld);
                    if l == hn.div_floor(&hd) {
                        let mut row = obj.clone();
                        row[0] = -&l;
                        self.eqs.push(row);
                        added = true;
                        break;
                    }
                }
            }
        }
        Ok(added)
    }
}

#[cfg(test)]
mod tests {
    use crate::basic::BasicMap;
    use crate::int::Int;
    use crate::map::Map;
    use crate::simplex::Opt;

    /// The simple method: both optimizations for every pair and sign.
    fn by_all_pairs(m: &mut BasicMap) -> bool {
        let nd = m.n_div();
        if !(2..=12).contains(&nd) {
            return false;
        }
        let (off, n) = (m.off_div(), m.row_len());
        let mut t = m.rational_tableau().unwrap();
        if t.is_empty() {
            return false;
        }
        let mut added = false;
        for a in 0..nd {
            for b in a + 1..nd {
                for sign in [1i64, -1] {
                    let mut obj = vec![Int::ZERO; n];
                    obj[off + a] = Int::ONE;
                    obj[off + b] = Int::from(sign);
                    let Opt::Value(ln, ld) = t.minimize(&obj).unwrap() else {
                        continue;
                    };
                    let Opt::Value(hn, hd) = t.maximize(&obj).unwrap() else {
                        continue;
                    };
                    let l = ln.div_ceil(&ld);
                    if l == hn.div_floor(&hd) {
                        obj[0] = -&l;
                        m.eqs.push(obj);
                        added = true;
                        break;
                    }
                }
            }
        }
        added
    }

    /// Constraints over `i`, `j` and the locals `a`, `b`, `c`.
    /// (`2b`, `4c` beside `2a` make `b = a`, `c = a` up to rounding.)
    const POOL: [&str; 20] = [
        "2a <= i + j",
        "i + j <= 2a + 1",
        "2b <= i + j <= 2b + 1",
        "4c <= 2i + 2j + 1",
        "2i + 2j <= 4c + 3",
        "2a <= i + j <= 2a + 1 and 2b <= i + j <= 2b + 1",
        "3b <= i + 2",
        "i <= 3b",
        "a + b <= j + 3",
        "a - b >= -1",
        "a - b <= 1",
        "2c <= a + j",
        "a + j <= 2c + 1",
        "c <= a + b + 2",
        "c + b >= 1",
        "4c <= 3i + 1",
        "3i <= 4c + 2",
        "a + c = i",
        "0 <= i <= 6",
        "-2 <= j <= 5",
    ];

    /// Agreement with the simple method (the same equalities, in the same
    /// order) on basic maps drawn from the pool, and the equalities found
    /// hold on every integer point (the locals enumerated on a box).
    #[test]
    fn same_equalities_as_all_pairs() {
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |k: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % k as u64) as usize
        };
        let (mut tested, mut found) = (0, 0);
        for _ in 0..400 {
            let k = 3 + next(6);
            let rows: Vec<&str> = (0..k).map(|_| POOL[next(POOL.len())]).collect();
            let s = format!(
                "{{ [i, j] : exists (a, b, c : {} and -8 <= i <= 8 and -8 <= j <= 8) }}",
                rows.join(" and ")
            );
            let m: Map = s.parse().unwrap();
            for b in m.basic_maps() {
                let (mut fast, mut slow) = (b.clone(), b.clone());
                let got = fast.local_relations_by_lp().unwrap();
                let want = by_all_pairs(&mut slow);
                assert_eq!(got, want, "{s}");
                assert_eq!(fast.eqs, slow.eqs, "{s}");
                if b.n_div() >= 2 {
                    tested += 1;
                }
                if got {
                    found += 1;
                    // the new equalities keep the set: same points
                    let before = Map::from_basic(b.clone());
                    let after = Map::from_basic(fast.clone());
                    assert!(before.is_equal(&after).unwrap(), "{s}");
                }
            }
        }
        // the draw exercises both outcomes
        assert!(tested > 100, "{tested}");
        assert!(found > 5, "{found}");
    }
}
