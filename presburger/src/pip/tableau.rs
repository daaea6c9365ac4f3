//! The parametric tableau: rows `[d | M | 1 | params | divs | columns]`
//! over the non-basic unknowns, with the big parameter `M`, pivots that keep
//! the columns lexicographically positive, and row normalization.

use crate::budget;
use crate::int::Int;
use crate::matrix::{big_cost, normalize_row as normalize, substitute_pivot};
use std::cmp::Ordering;

#[derive(Clone, Debug)]
pub(super) struct Tab {
    /// number of context columns: 1 + n_par + n_div (the constant part without M)
    pub(super) n_ctx: usize,
    /// row: [d | M | 1 | params | divs | cols...]
    pub(super) rows: Vec<Vec<Int>>,
    pub(super) row_unknown: Vec<usize>,
    pub(super) col_unknown: Vec<usize>,
    /// position of each unknown: Ok(row) or Err(col)
    pub(super) pos: Vec<std::result::Result<usize, usize>>,
    pub(super) n_var: usize,
    /// `pos_known[r]`: row `r`'s constant was proven non-negative on the
    /// context. Stays true while the row is unchanged, since contexts only
    /// shrink (splits and cuts restrict them); cleared when a pivot or a
    /// rewrite changes the row.
    pub(super) pos_known: Vec<bool>,
}

impl Tab {
    pub(super) fn ncol(&self) -> usize {
        self.col_unknown.len()
    }
    pub(super) fn cstart(&self) -> usize {
        2 + self.n_ctx
    }

    pub(super) fn insert_ctx_col(&mut self) {
        let at = 2 + self.n_ctx;
        for r in &mut self.rows {
            r.insert(at, Int::ZERO);
        }
        self.n_ctx += 1;
    }

    pub(super) fn push(&mut self, row: Vec<Int>) -> usize {
        let u = self.pos.len();
        self.pos.push(Ok(self.rows.len()));
        self.row_unknown.push(u);
        self.rows.push(row);
        self.pos_known.push(false);
        u
    }

    #[inline(never)]
    pub(super) fn pivot(&mut self, r: usize, c: usize) {
        let col = self.cstart() + c;
        // the pivot row becomes the row of the column's unknown, in place:
        // x_c = (d·u_r - c0 - Σ_{j≠c} a_j x_j) / a
        let mut nr = std::mem::take(&mut self.rows[r]);
        let a = nr[col].clone();
        debug_assert!(!a.is_zero());
        let d = std::mem::replace(&mut nr[0], a);
        for v in nr[1..].iter_mut() {
            *v = -&*v;
        }
        nr[col] = d;
        if nr[0].is_neg() {
            nr.iter_mut().for_each(|v| *v = -&*v);
        }
        normalize(&mut nr);
        // big numbers: the pivot row, and each updated row, cost about the
        // squared word sizes of the pivot row's entries and its own (charged here, failing the next tick when spent)
        let piv_cost = big_cost(&nr);
        let mut work = piv_cost; // its own normalization
                                 // substitute it into the other rows, each updated in place:
                                 // row = (dn·row_without_c + m·nr) / (d_i·dn)
        for i in 0..self.rows.len() {
            if i == r || self.rows[i][col].is_zero() {
                continue;
            }
            let row = &mut self.rows[i];
            let m = std::mem::take(&mut row[col]);
            substitute_pivot(row, &nr, &m);
            if piv_cost > 0 {
                work += piv_cost + big_cost(row);
            }
            self.pos_known[i] = false;
        }
        budget::charge(work);
        self.rows[r] = nr;
        self.pos_known[r] = false;
        let ur = self.row_unknown[r];
        let uc = self.col_unknown[c];
        self.row_unknown[r] = uc;
        self.col_unknown[c] = ur;
        self.pos[uc] = Ok(r);
        self.pos[ur] = Err(c);
    }

    /// Lexicographic dual simplex pivot column for row `r` (negative constant).
    pub(super) fn choose_col(&self, r: usize) -> Option<usize> {
        let cs = self.cstart();
        let mut best: Option<usize> = None;
        for c in 0..self.ncol() {
            if !self.rows[r][cs + c].is_pos() {
                continue;
            }
            best = match best {
                None => Some(c),
                Some(b) => {
                    if self.lex_less(r, c, b) {
                        Some(c)
                    } else {
                        Some(b)
                    }
                }
            };
        }
        best
    }

    /// Is column `c` / a_rc lexicographically smaller than column `b` / a_rb?
    pub(super) fn lex_less(&self, r: usize, c: usize, b: usize) -> bool {
        let cs = self.cstart();
        let arc = &self.rows[r][cs + c];
        let arb = &self.rows[r][cs + b];
        for i in 0..self.n_var {
            // compare ec/arc vs eb/arb, entries of unknown i in columns c
            // and b (the same row denominator cancels): ec·arb vs eb·arc
            let ord = match self.pos[i] {
                // a column unknown: entry 1 in its own column, 0 elsewhere
                Err(cc) if cc == c => cmp_products(&Int::ONE, arb, &Int::ZERO, arc),
                Err(cc) if cc == b => cmp_products(&Int::ZERO, arb, &Int::ONE, arc),
                Err(_) => continue,
                Ok(row) => {
                    let e = &self.rows[row];
                    cmp_products(&e[cs + c], arb, &e[cs + b], arc)
                }
            };
            if ord != Ordering::Equal {
                return ord == Ordering::Less;
            }
        }
        // identical (cannot happen for independent columns): fall back to index
        self.col_unknown[c] < self.col_unknown[b]
    }
}

/// `x·y` compared with `z·w`, exactly (in `i128` when all four fit in an `i64`).
pub(super) fn cmp_products(x: &Int, y: &Int, z: &Int, w: &Int) -> Ordering {
    if let (Int::Small(x), Int::Small(y), Int::Small(z), Int::Small(w)) = (x, y, z, w) {
        return ((*x as i128) * (*y as i128)).cmp(&((*z as i128) * (*w as i128)));
    }
    (x * y).cmp(&(z * w))
}

/// The sum of the entries, exactly (in `i128` while they fit in an `i64`).
pub(super) fn sum(v: &[Int]) -> Int {
    let mut s: i128 = 0;
    for (k, a) in v.iter().enumerate() {
        match a {
            // fewer than 2^64 terms of at most 2^63 each: no i128 overflow
            Int::Small(x) => s += *x as i128,
            Int::Big(_) => {
                let mut t = Int::from(s);
                for a in &v[k..] {
                    t = &t + a;
                }
                return t;
            }
        }
    }
    Int::from(s)
}

#[cfg(test)]
mod tests {
    use super::{cmp_products, sum};
    use crate::int::Int;
    use proptest::prelude::*;

    /// Small values, values at the ends of the `i64` range, and big ones.
    fn int() -> impl Strategy<Value = Int> {
        prop_oneof![
            (-5i64..=5).prop_map(Int::from),
            any::<i64>().prop_map(Int::from),
            prop_oneof![Just(i64::MAX), Just(i64::MIN), Just(i64::MIN + 1)].prop_map(Int::from),
            any::<i128>().prop_map(Int::from),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// The machine-integer shortcuts against plain big-integer arithmetic.
        #[test]
        fn shortcuts_agree_with_exact_arithmetic(
            v in prop::collection::vec(int(), 0..6),
            x in int(), y in int(), z in int(), w in int(),
        ) {
            let mut s = Int::ZERO;
            for a in &v {
                s = &s + a;
            }
            prop_assert_eq!(sum(&v), s);
            let exact = (x.to_bigint() * y.to_bigint()).cmp(&(z.to_bigint() * w.to_bigint()));
            prop_assert_eq!(cmp_products(&x, &y, &z, &w), exact);
        }
    }
}
