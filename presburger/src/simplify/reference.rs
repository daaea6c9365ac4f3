//! The simple versions of the fast paths of [`BasicMap::simplify`]'s steps,
//! kept as the oracles of the tests below (compiled for tests only).

use crate::basic::BasicMap;
use crate::int::{gcd_slice, Int};
use crate::matrix::{eliminate, normalize};

impl BasicMap {
    /// [`simplify`](Self::simplify)'s loop as first written: every row
    /// normalised again after elimination and every row checked for an
    /// obvious contradiction (the steps it calls are the current ones).
    pub(crate) fn simplify_reference(&mut self) -> bool {
        for _ in 0..8 {
            let n_eqs = self.eqs.len();
            self.fix_constant_divs();
            let added = self.eqs.len() != n_eqs;
            if !self.normalize_rows() {
                self.set_empty();
                return false;
            }
            let rel = self.local_relations_from_eqs();
            let _ = self.gauss();
            if self.is_obviously_empty() {
                self.set_empty();
                return false;
            }
            if !self.normalize_rows() {
                self.set_empty();
                return false;
            }
            let mut paired = false;
            loop {
                match self.dedup_ineqs() {
                    None => {
                        self.set_empty();
                        return false;
                    }
                    Some(false) => break,
                    Some(true) => {
                        paired = true;
                        if self.is_obviously_empty() || !self.normalize_rows() {
                            self.set_empty();
                            return false;
                        }
                    }
                }
            }
            let changed = added
                | (paired && self.n_div() > 0)
                | rel
                | self.eliminate_existentials_fm()
                | self.substitute_unit_existentials()
                | self.eliminate_floor_pairs()
                | self.drop_unit_existentials()
                | self.drop_one_sided_existentials()
                | self.drop_unused_locals()
                | self.merge_duplicate_existentials();
            if !changed {
                break;
            }
        }
        true
    }

    /// [`gauss`](Self::gauss) as first written (the last non-zero column of
    /// every remaining equality searched again at every step): the oracle of
    /// the tests.
    pub(crate) fn gauss_reference(&mut self) -> bool {
        let mut ineq_changed = false;
        let n = self.row_len();
        let mut done = 0;
        if self.eqs.is_empty() {
            return false;
        }
        // one mutable access of the rows (each copies shared rows, see
        // `Rows`); the inequalities only when a pivot column meets them
        let mut rows = self.eqs.to_vec();
        let eqs = &mut rows;
        while done < eqs.len() {
            // pick the equality (from `done` on) with the largest last non-zero column
            let mut best: Option<(usize, usize)> = None;
            for (k, r) in eqs.iter().enumerate().skip(done) {
                if let Some(c) = (1..n).rev().find(|&c| !r[c].is_zero()) {
                    // the last column; among equal columns the smallest coefficient
                    let better = match best {
                        None => true,
                        Some((bk, bc)) => c > bc || (c == bc && r[c].abs() < eqs[bk][bc].abs()),
                    };
                    if better {
                        best = Some((k, c));
                    }
                }
            }
            let Some((k, col)) = best else {
                // remaining equalities are constant: keep a false one, drop 0 = 0
                eqs.retain(|r| !r.iter().all(Int::is_zero));
                self.eqs = std::mem::take(eqs).into();
                return ineq_changed;
            };
            eqs.swap(done, k);
            // the pivot row is taken out while it updates the others (no copy)
            let mut piv = std::mem::take(&mut eqs[done]);
            if piv[col].is_neg() {
                piv.iter_mut().for_each(|v| *v = -&*v);
            }
            let a = piv[col].clone();
            for (i, r) in eqs.iter_mut().enumerate() {
                if i != done && !r[col].is_zero() {
                    eliminate(r, &piv, col);
                    normalize(r);
                }
            }
            if self.ineqs.iter().any(|r| !r[col].is_zero()) {
                for r in self.ineqs.iter_mut() {
                    if !r[col].is_zero() {
                        eliminate(r, &piv, col);
                        normalize(r);
                        ineq_changed = true;
                    }
                }
            }
            for d in self.divs.iter_mut().flatten() {
                if !d.num[col].is_zero() {
                    // floor(num/den) = floor(a·num / (a·den)); then eliminate
                    eliminate(&mut d.num, &piv, col);
                    d.den = &d.den * &a;
                    let g = gcd_slice(&d.num).gcd(&d.den);
                    if !g.is_one() && !g.is_zero() {
                        d.num.iter_mut().for_each(|v| *v = v.div_exact(&g));
                        d.den = d.den.div_exact(&g);
                    }
                }
            }
            eqs[done] = piv;
            done += 1;
        }
        self.eqs = rows.into();
        ineq_changed
    }
}

#[cfg(test)]
mod tests {
    use crate::basic::BasicMap;
    use crate::int::Int;
    use crate::space::{Space, Tuple};

    use crate::testing::XorShift as Rng;

    impl Rng {
        /// A coefficient in `-m..=m`.
        fn coef(&mut self, m: i64) -> Int {
            Int::from(self.below((2 * m + 1) as u64) as i64 - m)
        }
    }

    /// A random basic set of 2 to 5 dimensions with up to two locals (some
    /// defined), up to four equalities and four inequalities; sparse rows
    /// with small coefficients (units often), now and then a big one.
    fn random_basic(rng: &mut Rng) -> BasicMap {
        let dims = 2 + rng.below(4) as usize;
        let mut b = BasicMap::universe(Space::set(vec![], Tuple::anonymous(dims)));
        for _ in 0..rng.below(3) {
            if rng.below(2) == 0 {
                b.add_existential();
            } else {
                let mut num: Vec<Int> = (0..b.row_len()).map(|_| rng.coef(2)).collect();
                num[0] = rng.coef(3);
                b.add_div(num, Int::from(2 + rng.below(3) as i64));
            }
        }
        let n = b.row_len();
        let big = Int::from(i64::MAX) + Int::from(7);
        let row = |rng: &mut Rng| -> Vec<Int> {
            let mut r: Vec<Int> = (0..n)
                .map(|c| {
                    if c > 0 && rng.below(3) == 0 {
                        rng.coef(3)
                    } else if c > 0 {
                        Int::ZERO
                    } else {
                        rng.coef(5)
                    }
                })
                .collect();
            if rng.below(40) == 0 {
                r[1 + rng.below(n as u64 - 1) as usize] = big.clone();
            }
            r
        };
        for _ in 0..rng.below(5) {
            let r = row(rng);
            b.add_eq(r);
        }
        for _ in 0..rng.below(5) {
            let r = row(rng);
            b.add_ineq(r);
        }
        // now and then an equality repeated up to a factor, or a constant one
        if rng.below(4) == 0 && !b.eqs().is_empty() {
            let r: Vec<Int> = b.eqs()[0].iter().map(|v| v * &Int::from(-2)).collect();
            b.add_eq(r);
        }
        b
    }

    /// `simplify`, which normalises and checks only the rows elimination may
    /// have changed, leaves exactly what the loop that redoes both on every
    /// row leaves (and finds the same sets empty).
    #[test]
    fn simplify_is_the_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut empty, mut kept) = (0, 0);
        for _ in 0..4000 {
            let b = random_basic(&mut rng);
            let (mut fast, mut slow) = (b.clone(), b.clone());
            let got = fast.simplify();
            let want = slow.simplify_reference();
            assert_eq!(got, want, "{b:?}");
            assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
            assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
            assert_eq!(fast.divs(), slow.divs(), "{b:?}");
            if got {
                kept += 1;
            } else {
                empty += 1;
            }
        }
        assert!(empty > 300 && kept > 1000, "{empty} {kept}");
    }

    /// The elimination that keeps each equality's last non-zero column from
    /// step to step leaves exactly the rows, definitions and answer of the
    /// one that searches it again at every step.
    #[test]
    fn gauss_is_the_reference() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let (mut pivots, mut changed) = (0, 0);
        for _ in 0..4000 {
            let b = random_basic(&mut rng);
            let (mut fast, mut slow) = (b.clone(), b.clone());
            let got = fast.gauss();
            let want = slow.gauss_reference();
            assert_eq!(got, want, "{b:?}");
            assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
            assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
            assert_eq!(fast.divs(), slow.divs(), "{b:?}");
            pivots += usize::from(fast.eqs().len() >= 2);
            changed += usize::from(got);
        }
        assert!(pivots > 1000 && changed > 500, "{pivots} {changed}");
    }

    /// The intersection with a basic set whose constraints are among the
    /// other's (a random choice of its rows, equalities sometimes negated or
    /// split into their two inequalities) is the other one, point for point
    /// in a box as the conjunction of all rows is; either order, and where
    /// one row is then changed (usually no longer among the other's).
    #[test]
    fn intersect_of_constraints_among_is_conjoin() {
        let mut rng = Rng(0x94d0_49bb_1331_11eb);
        let (mut among, mut points) = (0, 0);
        for round in 0..1500 {
            let big = random_basic(&mut rng);
            let mut small = BasicMap::universe(big.space.clone());
            let n = small.row_len();
            for r in big.eqs() {
                if r[n..].iter().any(|v| !v.is_zero()) {
                    continue;
                }
                let r = r[..n].to_vec();
                match rng.below(4) {
                    0 => {}
                    1 => small.add_eq(r.iter().map(|v| -v).collect()),
                    2 => {
                        small.add_ineq(r.iter().map(|v| -v).collect());
                        small.add_ineq(r);
                    }
                    _ => small.add_eq(r),
                }
            }
            for r in big.ineqs() {
                if r[n..].iter().all(Int::is_zero) && rng.below(3) != 0 {
                    small.add_ineq(r[..n].to_vec());
                }
            }
            if round % 4 == 3 && !small.ineqs().is_empty() {
                small.ineqs[0][0] = &small.ineqs[0][0] - &Int::ONE;
            }
            among += usize::from(crate::map::constraints_among(&small, &big));
            for (x, y) in [(&small, &big), (&big, &small)] {
                let got = x.intersect(y).unwrap();
                let want = x.conjoin(y, 0);
                let dims = x.space.n_vars();
                let mut p = vec![-3i64; dims];
                loop {
                    let pt: Vec<Int> = p.iter().map(|&v| Int::from(v)).collect();
                    assert_eq!(
                        got.contains_point(&pt).unwrap(),
                        want.contains_point(&pt).unwrap(),
                        "{x:?} {y:?} {p:?}"
                    );
                    points += 1;
                    let Some(k) = (0..dims).find(|&k| p[k] < 3) else {
                        break;
                    };
                    p[k] += 1;
                    p[..k].iter_mut().for_each(|v| *v = -3);
                }
            }
        }
        assert!(among > 500 && points > 100_000, "{among} {points}");
    }

    /// `normalize_rows`, which finds a contradiction read-only and
    /// normalises only from the first row that needs it, gives the answer
    /// of the reference that normalises every row, and the same rows when
    /// the set is not found empty; on random rows and on the rows the
    /// reference elimination leaves (non-normal, often contradictory).
    #[test]
    fn normalize_rows_is_the_reference() {
        let mut rng = Rng(0x6c07_8965_d1b2_3a11);
        let (mut written, mut empty) = (0, 0);
        for round in 0..4000 {
            let mut b = random_basic(&mut rng);
            if round % 2 == 1 {
                let _ = b.gauss_reference();
            }
            // now and then every row scaled (none normal)
            if rng.below(4) == 0 {
                let k = Int::from(2 + rng.below(3) as i64);
                for r in b.eqs.iter_mut().chain(b.ineqs.iter_mut()) {
                    r.iter_mut().for_each(|v| *v = &*v * &k);
                }
            }
            let (mut fast, mut slow) = (b.clone(), b.clone());
            let got = fast.normalize_rows();
            let want = slow.normalize_rows_reference();
            assert_eq!(got, want, "{b:?}");
            if got {
                assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
                assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
                written += usize::from(fast.eqs() != b.eqs() || fast.ineqs() != b.ineqs());
            } else {
                empty += 1;
            }
        }
        assert!(written > 500 && empty > 300, "{written} {empty}");
    }

    /// Equalities already eliminated but in another order (as parsed
    /// tuples give them, `i0 = 1 and i2 = 2 and ...`): `gauss`, which then
    /// only sorts them, leaves the rows and answer of the reference
    /// elimination; with a row now and then changed so that the shortcut
    /// must not apply.
    #[test]
    fn gauss_reorder_is_the_reference() {
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        let (mut reordered, mut eliminated) = (0, 0);
        for round in 0..4000 {
            let mut b = random_basic(&mut rng);
            let _ = b.gauss_reference();
            if b.eqs().len() < 2 {
                continue;
            }
            // a random rotation, or the reverse order
            let k = rng.below(b.eqs().len() as u64) as usize;
            let mut v = b.eqs.to_vec();
            if rng.below(2) == 0 {
                v.rotate_left(k);
            } else {
                v.reverse();
            }
            b.eqs = v.into();
            if round % 5 == 0 {
                // a pivot column met elsewhere, or a negated pivot
                let n = b.row_len();
                let i = rng.below(b.eqs().len() as u64) as usize;
                let c = (1..n).rev().find(|&c| !b.eqs()[i][c].is_zero());
                if let Some(c) = c {
                    if rng.below(2) == 0 {
                        let r: Vec<Int> = b.eqs()[i].iter().map(|v| -v).collect();
                        b.eqs.set(i, r);
                    } else if !b.ineqs.is_empty() {
                        let r = &mut b.ineqs[0];
                        r[c] = &r[c] + &Int::ONE;
                    }
                }
            }
            let shortcut = b.gauss_shortcut();
            let (mut fast, mut slow) = (b.clone(), b.clone());
            let got = fast.gauss();
            let want = slow.gauss_reference();
            assert_eq!(got, want, "{b:?}");
            assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
            assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
            assert_eq!(fast.divs(), slow.divs(), "{b:?}");
            if shortcut == super::super::GaussShortcut::Reorder {
                reordered += 1;
                assert!(!got, "{b:?}");
                assert_eq!(fast.ineqs(), b.ineqs(), "{b:?}");
            }
            eliminated += usize::from(shortcut == super::super::GaussShortcut::Eliminate);
        }
        assert!(
            reordered > 500 && eliminated > 300,
            "{reordered} {eliminated}"
        );
    }

    /// When `gauss_changes_nothing` says so, the reference elimination
    /// leaves every row and definition as it is; and a second elimination
    /// (mostly on rows in the form the first leaves, where the shortcut
    /// answers) is the reference's second one.
    #[test]
    fn gauss_shortcut_changes_nothing() {
        let mut rng = Rng(0x5851_f42d_4c95_7f2d);
        let (mut shown, mut again) = (0, 0);
        for _ in 0..4000 {
            let b = random_basic(&mut rng);
            if b.gauss_changes_nothing() {
                shown += 1;
                let mut slow = b.clone();
                assert!(!slow.gauss_reference(), "{b:?}");
                assert_eq!(b.eqs(), slow.eqs(), "{b:?}");
                assert_eq!(b.ineqs(), slow.ineqs(), "{b:?}");
                assert_eq!(b.divs(), slow.divs(), "{b:?}");
            }
            let (mut fast, mut slow) = (b.clone(), b.clone());
            let _ = fast.gauss();
            let _ = slow.gauss_reference();
            again += usize::from(fast.gauss_changes_nothing());
            let got = fast.gauss();
            let want = slow.gauss_reference();
            assert_eq!(got, want, "{b:?}");
            assert_eq!(fast.eqs(), slow.eqs(), "{b:?}");
            assert_eq!(fast.ineqs(), slow.ineqs(), "{b:?}");
            assert_eq!(fast.divs(), slow.divs(), "{b:?}");
        }
        assert!(shown > 300 && again > 2000, "{shown} {again}");
    }
}
