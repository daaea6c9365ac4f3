//! Simpler integer divisions, the set unchanged.
//!
//! - [`BasicMap::reduce_divs`]: a division whose numerator and denominator share a factor
//!   with every variable coefficient is reduced, `floor((4n + 5)/6) = floor((2n + 2)/3)`
//!   (`floor((g·a + c)/(g·d)) = floor((a + floor(c/g))/d)`), and a coefficient at least the
//!   denominator in absolute value is taken out of the division,
//!   `floor((a + m·k)/m) = k + floor(a/m)`: the division column is shifted by the
//!   integer affine expression `Σ t_c·x_c` in every row that mentions it.
//! - [`BasicMap::flatten_divs`]: a division nested in another with coefficient ±1 is
//!   merged into it, `floor((A + floor(e/d))/d') = floor((d·A + e)/(d·d'))` and
//!   `floor((A - floor(e/d))/d') = floor((d·A - e + d - 1)/(d·d'))` (`-floor(e/d) =
//!   floor((-e + d - 1)/d)`).
//! - [`BasicMap::fix_bounded_divs`]: a division whose numerator the rational relaxation
//!   confines to one interval `[v·den, v·den + den - 1]` is the constant `v`.

use crate::basic::{BasicMap, Div};
use crate::error::Result;
use crate::int::{gcd_slice, Int};

impl BasicMap {
    /// Reduce every division (see the [module documentation](self)). Returns true if
    /// anything changed.
    pub(crate) fn reduce_divs(&mut self) -> bool {
        let off = self.off_div();
        let mut changed = false;
        for k in 0..self.n_div() {
            let col = off + k;
            let Some(d) = self.divs[k].as_mut() else {
                continue;
            };
            // the common factor of the variable coefficients and the denominator
            let g = gcd_slice(&d.num[1..]).gcd(&d.den);
            if !g.is_zero() && !g.is_one() {
                let old = d.clone();
                for v in d.num[1..].iter_mut() {
                    *v = v.div_exact(&g);
                }
                d.num[0] = d.num[0].div_floor(&g);
                d.den = d.den.div_exact(&g);
                let new = d.clone();
                self.replace_bounds(col, &old, &new);
                changed = true;
            }
            let d = self.divs[k].as_mut().expect("checked above");
            // take the whole multiples of the denominator out
            let mut shift = vec![Int::ZERO; d.num.len()];
            for c in 0..d.num.len() {
                if c != col && d.num[c].abs() >= d.den {
                    let t = d.num[c].div_floor(&d.den);
                    d.num[c] = &d.num[c] - &(&t * &d.den);
                    shift[c] = t;
                }
            }
            if shift.iter().all(Int::is_zero) {
                continue;
            }
            changed = true;
            // old q = new q + Σ shift_c·x_c: substitute wherever q appears
            let subst = |row: &mut [Int]| {
                if row[col].is_zero() {
                    return;
                }
                let a = row[col].clone();
                for (v, t) in row.iter_mut().zip(&shift) {
                    if !t.is_zero() {
                        *v = &*v + &(&a * t);
                    }
                }
            };
            self.eqs.iter_mut().for_each(subst);
            self.ineqs.iter_mut().for_each(subst);
            // (the defining rows of the divisions change with their numerators: the
            // same substitution applies to both)
            for (j, d) in self.divs.iter_mut().enumerate() {
                if let Some(d) = d.as_mut().filter(|_| j != k) {
                    subst(&mut d.num);
                }
            }
        }
        changed
    }

    /// Merge divisions nested with coefficient ±1 into the outer one (see the
    /// [module documentation](self)). Returns true if anything changed.
    pub(crate) fn flatten_divs(&mut self) -> bool {
        let off = self.off_div();
        let mut changed = false;
        // each round removes one reference; a bound keeps it finite on any input
        for _ in 0..4 * self.n_div() * self.n_div().max(1) {
            let found = (0..self.n_div()).find_map(|j| {
                let dj = self.divs[j].as_ref()?;
                // a division a congruence is written with stays: `(x + floor(n/3)) mod 2 = 0`
                // is simpler than `x = 2*floor((3x + n)/6) - floor(n/3)`
                if self.eqs.iter().any(|r| is_congruence(r, off + j, dj)) {
                    return None;
                }
                (0..self.n_div()).find_map(|k| {
                    let dk = self.divs[k].as_ref()?;
                    let s = &dj.num[off + k];
                    // the inner division must not mention the outer one (no cycle)
                    (k != j && s.abs().is_one() && dk.num[off + j].is_zero()).then_some((j, k))
                })
            });
            let Some((j, k)) = found else {
                break;
            };
            let dj = self.divs[j].clone().expect("found above");
            let dk = self.divs[k].clone().expect("found above");
            let s = dj.num[off + k].clone();
            let mut num: Vec<Int> = dj.num.iter().map(|v| v * &dk.den).collect();
            num[off + k] = Int::ZERO;
            for (v, e) in num.iter_mut().zip(&dk.num) {
                *v = if s.is_pos() { &*v + e } else { &*v - e };
            }
            if s.is_neg() {
                num[0] = &(&num[0] + &dk.den) - &Int::ONE;
            }
            let new = Div {
                num,
                den: &dj.den * &dk.den,
            };
            self.replace_bounds(off + j, &dj, &new);
            self.divs[j] = Some(new);
            changed = true;
        }
        if changed {
            self.reduce_divs();
        }
        changed
    }

    /// Fix to a constant every division whose numerator the rational relaxation keeps
    /// within one multiple of the denominator (see the [module documentation](self)):
    /// the equality `q = v` is added (simplification then removes the division).
    /// Returns true if an equality was added.
    pub(crate) fn fix_bounded_divs(&mut self) -> Result<bool> {
        let off = self.off_div();
        let mut t = self.rational_tableau()?;
        if t.is_empty() {
            return Ok(false);
        }
        let mut added = false;
        for k in 0..self.n_div() {
            let Some(d) = &self.divs[k] else {
                continue;
            };
            crate::budget::tick(1)?;
            let neg: Vec<Int> = d.num.iter().map(|v| -v).collect();
            let (Some(lo), Some(hi)) = (bound(&mut t, &d.num)?, bound(&mut t, &neg)?) else {
                continue;
            };
            // lo <= num <= -hi over the rationals, so ceil(lo) <= num <= floor(-hi)
            let (lo, hi) = (lo, -&hi);
            let v = lo.div_floor(&d.den);
            if hi.div_floor(&d.den) == v {
                let mut row = vec![Int::ZERO; self.row_len()];
                row[off + k] = Int::ONE;
                row[0] = -&v;
                self.eqs.push(&row);
                t.add_eq(&row)?;
                added = true;
            }
        }
        Ok(added)
    }

    /// Replace the defining inequalities of the division at `col` (old definition)
    /// by those of the new one; the old rows are equivalent constraints, but the
    /// printer recognises a division's bounds only in their exact form.
    fn replace_bounds(&mut self, col: usize, old: &Div, new: &Div) {
        let old_bounds = old.bounds(col);
        self.ineqs
            .retain(|r| !old_bounds.iter().any(|b| b[..] == *r));
        for b in new.bounds(col) {
            if !self.ineqs.contains(&b) {
                self.ineqs.push(b);
            }
        }
    }
}

/// True if the equality `r` says `num mod den = c` for the division `d` at column `col`:
/// `r = s·(num - den·q) + δ` with `s = ±1` (the form the printer writes `(num - c) mod den = 0`).
fn is_congruence(r: &[Int], col: usize, d: &Div) -> bool {
    if r[col].abs() != d.den {
        return false;
    }
    let s = if r[col].is_neg() {
        Int::ONE
    } else {
        -&Int::ONE
    };
    (1..r.len()).all(|c| c == col || r[c] == &s * &d.num[c])
}

/// The least integer not below the minimum of `row` over the tableau, `None` when
/// unbounded.
fn bound(t: &mut crate::simplex::Tableau, row: &[Int]) -> Result<Option<Int>> {
    Ok(match t.minimize(row)? {
        crate::simplex::Opt::Value(num, den) => Some(-&(-&num).div_floor(&den)),
        crate::simplex::Opt::Unbounded => None,
    })
}
