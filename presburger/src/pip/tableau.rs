//! The parametric tableau: rows `[d | M | 1 | params | divs | columns]`
//! over the non-basic unknowns, with the big parameter `M`, pivots that keep
//! the columns lexicographically positive, and row normalization.

use crate::budget;
use crate::int::Int;
use crate::matrix::{big_cost, normalize_row as normalize, substitute_pivot};

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

    /// Entry of unknown-variable `i` (an original unknown) in column `c`, as a fraction.
    pub(super) fn var_entry(&self, i: usize, c: usize) -> (Int, Int) {
        match self.pos[i] {
            Err(cc) => (if cc == c { Int::ONE } else { Int::ZERO }, Int::ONE),
            Ok(r) => (
                self.rows[r][self.cstart() + c].clone(),
                self.rows[r][0].clone(),
            ),
        }
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
            let (ec, _) = self.var_entry(i, c);
            let (eb, _) = self.var_entry(i, b);
            // compare ec/arc vs eb/arb (same row denominator cancels)
            let lhs = &ec * arb;
            let rhs = &eb * arc;
            if lhs != rhs {
                return lhs < rhs;
            }
        }
        // identical (cannot happen for independent columns): fall back to index
        self.col_unknown[c] < self.col_unknown[b]
    }
}
