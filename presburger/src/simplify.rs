//! Cheap exact simplification of basic maps.
//!
//! [`BasicMap::simplify`] keeps the set unchanged and applies, to a fixpoint:
//! gcd normalization of rows (tightening inequality constants, which is exact
//! over the integers), Gaussian elimination of equalities, removal of
//! duplicate and trivially true constraints, merging of opposite inequalities
//! into equalities, elimination of existentials that an equality with a unit
//! coefficient defines, removal of existentials bounded on one side only, and
//! elimination of locals that a floor pair at least as wide as its divisor
//! leaves free (`exists e: 4e <= i <= 4e + 3`, see `floor_pair`), and
//! merging of existentials that repeat another (see `substitute`).
//! It also tries to give existentials explicit definitions
//! ([`BasicMap::detect_divs`]), which [`complement`](crate::Map::complement)
//! and [`subtract`](crate::Map::subtract) need.

use crate::basic::{BasicMap, Div};
use crate::int::{gcd_slice, Int};
use crate::matrix::{eliminate, eliminate_on_support, normalize};

mod dedup;
mod floor_pair;
#[cfg(test)]
mod reference;
mod substitute;

/// What [`BasicMap::gauss`] does, where that is decided without
/// eliminating (see `gauss_shortcut`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum GaussShortcut {
    /// Every row and definition stays as it is.
    Nothing,
    /// Only the equalities are reordered (by decreasing pivot column).
    Reorder,
    /// Not shown to be one of the above: the elimination runs.
    Eliminate,
}

/// Rows longer than this are eliminated on the pivot's non-zero columns in
/// [`BasicMap::gauss`] (`eliminate_on_support`); shorter ones entry by
/// entry, which costs about as much as finding those columns.
const SPARSE_ROWS: usize = 16;

/// True if `|a| < |b|`.
fn abs_lt(a: &Int, b: &Int) -> bool {
    match (a, b) {
        (Int::Small(a), Int::Small(b)) => a.unsigned_abs() < b.unsigned_abs(),
        _ => a.abs() < b.abs(),
    }
}

impl BasicMap {
    /// Make this basic map the canonical empty one.
    pub(crate) fn set_empty(&mut self) {
        *self = BasicMap::empty(self.space.clone());
    }

    /// Simplify in place (see the [module documentation](self)).
    /// Returns `false` if the basic map was found to be empty.
    pub fn simplify(&mut self) -> bool {
        debug_assert!(self.check_lengths(), "row lengths: {:?}", self);
        for _ in 0..8 {
            let n_eqs = self.eqs.len();
            self.fix_constant_divs();
            let added = self.eqs.len() != n_eqs;
            if !self.normalize_rows() {
                self.set_empty();
                return false;
            }
            let rel = self.local_relations_from_eqs();
            // (a relation substituted above changes inequalities too)
            let ineqs_changed = self.gauss() || rel;
            // unchanged inequalities passed `normalize_rows` (no false
            // constant one): only the equalities are checked; changed rows
            // are normalised, which finds exactly the rows that
            // `is_obviously_empty` finds (an equality whose coefficients' gcd
            // does not divide its constant, an inequality `c >= 0` with
            // `c < 0`: the rows `normalize_eq` and `normalize_ineq` call
            // infeasible), so the set is empty iff it returns false
            // (`simplify_reference` asks both)
            let empty = if ineqs_changed {
                !self.normalize_rows()
            } else {
                self.eqs_obviously_infeasible()
            };
            if empty {
                self.set_empty();
                return false;
            }
            // opposite pairs turned into equalities are eliminated from the
            // other rows, which may then be parallel, opposite or contradict:
            // again until no pair is left (each round has fewer inequalities)
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
                        // (`normalize_rows` finds what `is_obviously_empty` does, see above)
                        if !self.normalize_rows() {
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

    /// The equalities' half of [`is_obviously_empty`](Self::is_obviously_empty):
    /// an equality whose coefficients' gcd does not divide its constant.
    fn eqs_obviously_infeasible(&self) -> bool {
        self.eqs.iter().any(|r| {
            let g = gcd_slice(&r[1..]);
            if g.is_zero() {
                !r[0].is_zero()
            } else {
                !g.is_one() && !r[0].is_divisible_by(&g)
            }
        })
    }

    /// A division of a constant is that constant: add the equality.
    fn fix_constant_divs(&mut self) {
        let off = self.off_div();
        let n = self.row_len();
        for k in 0..self.n_div() {
            if let Some(d) = &self.divs[k] {
                if d.den.is_one() {
                    // floor(num / 1) = num
                    let mut row: Vec<Int> = d.num.iter().map(|v| -v).collect();
                    row[off + k] = &row[off + k] + &Int::ONE;
                    if !self.eqs.contains(&row) {
                        self.eqs.push(row);
                    }
                    continue;
                }
                if let Some(j) = (0..k).find(|&j| self.divs[j].as_ref() == Some(d)) {
                    // the same division twice
                    let mut row = vec![Int::ZERO; n];
                    row[off + k] = Int::ONE;
                    row[off + j] = Int::from(-1);
                    if !self.eqs.contains(&row) {
                        self.eqs.push(row);
                    }
                    continue;
                }
                if d.num[1..].iter().all(Int::is_zero) {
                    let v = d.num[0].div_floor(&d.den);
                    let mut row = vec![Int::ZERO; n];
                    row[off + k] = Int::ONE;
                    row[0] = -&v;
                    if !self.eqs.contains(&row) {
                        self.eqs.push(row);
                    }
                }
            }
        }
    }

    /// True if every row and div numerator has length `row_len()`.
    pub(crate) fn check_lengths(&self) -> bool {
        let n = self.row_len();
        self.eqs
            .iter()
            .chain(self.ineqs.iter())
            .all(|r| r.len() == n)
            && self.divs.iter().flatten().all(|d| d.num.len() == n)
    }

    /// Gaussian elimination: every equality gets a pivot column (the last
    /// non-zero one) that is eliminated from all other rows and div numerators.
    /// Returns true if an inequality changed.
    ///
    /// Each step pivots on the equality (not yet used) with the largest last
    /// non-zero column, the smallest coefficient there among equal columns.
    /// The last non-zero column of each equality is kept from step to step:
    /// an elimination only changes it in the rows it updates (it clears the
    /// pivot column, which was their last at most). `gauss_reference` (the
    /// tests' oracle) searches it again at every step.
    pub(crate) fn gauss(&mut self) -> bool {
        let mut ineq_changed = false;
        let n = self.row_len();
        let mut done = 0;
        if self.eqs.is_empty() {
            return false;
        }
        let last_nonzero = |r: &[Int], below: usize| (1..below).rev().find(|&c| !r[c].is_zero());
        match self.gauss_shortcut() {
            // (decided read-only: rows shared with a copy are not copied)
            GaussShortcut::Nothing => return false,
            GaussShortcut::Reorder => {
                // the steps' swaps, without their eliminations: the rows end
                // by decreasing pivot (distinct pivots, found once)
                let mut eqs = self.eqs.rows_mut();
                let mut on_stack = [0usize; 32];
                let mut on_heap = Vec::new();
                let piv: &mut [usize] = if eqs.len() <= on_stack.len() {
                    &mut on_stack[..eqs.len()]
                } else {
                    on_heap.resize(eqs.len(), 0);
                    &mut on_heap
                };
                for (i, p) in piv.iter_mut().enumerate() {
                    *p = last_nonzero(&eqs[i], n).unwrap_or(0);
                }
                for done in 0..eqs.len() {
                    let k = (done..eqs.len())
                        .max_by_key(|&k| piv[k])
                        .expect("a row from `done` on");
                    eqs.swap(done, k);
                    piv.swap(done, k);
                }
                return false;
            }
            GaussShortcut::Eliminate => {}
        }
        // one mutable access of the rows (each copies shared rows, see
        // `Rows`); the inequalities only when a pivot column meets them
        let mut eqs = self.eqs.rows_mut();
        // (on the stack for the usual few equalities: no allocation)
        let mut on_stack = [None; 32];
        let mut on_heap = Vec::new();
        let last: &mut [Option<usize>] = if eqs.len() <= on_stack.len() {
            &mut on_stack[..eqs.len()]
        } else {
            on_heap.resize(eqs.len(), None);
            &mut on_heap
        };
        for (i, l) in last.iter_mut().enumerate() {
            *l = last_nonzero(&eqs[i], n);
        }
        // the pivot's non-zero columns, for rows long enough that eliminating
        // on them pays (on the stack up to 128 columns)
        let sparse = n > SPARSE_ROWS && n <= usize::from(u16::MAX);
        let mut support_on_stack = [0u16; 128];
        let mut support_on_heap = Vec::new();
        let support_room: &mut [u16] = if !sparse {
            &mut []
        } else if n <= support_on_stack.len() {
            &mut support_on_stack[..n]
        } else {
            support_on_heap.resize(n, 0);
            &mut support_on_heap
        };
        while done < eqs.len() {
            // the equality (from `done` on) with the largest last non-zero
            // column; among equal columns the smallest coefficient
            let mut best: Option<(usize, usize)> = None;
            for k in done..eqs.len() {
                if let Some(c) = last[k] {
                    let better = match best {
                        None => true,
                        Some((bk, bc)) => c > bc || (c == bc && abs_lt(&eqs[k][c], &eqs[bk][bc])),
                    };
                    if better {
                        best = Some((k, c));
                    }
                }
            }
            let Some((k, col)) = best else {
                // remaining equalities are constant: keep a false one, drop 0 = 0
                self.eqs.retain(|r| !r.iter().all(Int::is_zero));
                return ineq_changed;
            };
            eqs.swap(done, k);
            last.swap(done, k);
            // the pivot row updates the others in place (no copy)
            if eqs[done][col].is_neg() {
                eqs[done].iter_mut().for_each(|v| *v = -&*v);
            }
            let (piv, others) = eqs.split_row_mut(done);
            let piv: &[Int] = piv;
            // the pivot's non-zero columns: a unit pivot changes only those
            // (only a unit pivot is eliminated on its support)
            let sparse = sparse && matches!(piv[col], Int::Small(1));
            let mut nz = 0;
            if sparse {
                for (k, v) in piv.iter().enumerate() {
                    if !v.is_zero() {
                        support_room[nz] = k as u16;
                        nz += 1;
                    }
                }
            }
            let support = &support_room[..nz];
            let elim = |r: &mut [Int], piv: &[Int]| {
                if sparse {
                    eliminate_on_support(r, piv, col, support)
                } else {
                    eliminate(r, piv, col)
                }
            };
            for (i, r) in others {
                if !r[col].is_zero() {
                    elim(r, piv);
                    normalize(r);
                    if i > done {
                        // (rows before `done` keep their own pivot, a later column)
                        last[i] = last_nonzero(r, col);
                    }
                }
            }
            // (from the first inequality with the column on)
            if let Some(first) = self.ineqs.iter().position(|r| !r[col].is_zero()) {
                let piv = &eqs[done];
                for r in self.ineqs.iter_mut().skip(first) {
                    if !r[col].is_zero() {
                        elim(r, piv);
                        normalize(r);
                        ineq_changed = true;
                    }
                }
            }
            if self.divs.iter().flatten().any(|d| !d.num[col].is_zero()) {
                let piv = &eqs[done];
                let a = &piv[col];
                for d in self.divs.iter_mut().flatten() {
                    if !d.num[col].is_zero() {
                        // floor(num/den) = floor(a·num / (a·den)); then eliminate
                        eliminate(&mut d.num, piv, col);
                        d.den = &d.den * a;
                        let g = gcd_slice(&d.num).gcd(&d.den);
                        if !g.is_one() && !g.is_zero() {
                            d.num.iter_mut().for_each(|v| *v = v.div_exact(&g));
                            d.den = d.den.div_exact(&g);
                        }
                    }
                }
            }
            done += 1;
        }
        ineq_changed
    }

    /// True if [`gauss`](Self::gauss) would leave every row and definition
    /// as it is: the equalities' last non-zero columns (their pivots)
    /// decrease strictly from row to row, each pivot coefficient is positive,
    /// and no other row and no definition has a non-zero coefficient in a
    /// pivot column. Then each step pivots on the next row in place (the
    /// largest last column is the next row's, without a tie), does not negate
    /// it and eliminates nothing. `false` means "not shown".
    #[cfg(test)]
    pub(crate) fn gauss_changes_nothing(&self) -> bool {
        self.gauss_shortcut() == GaussShortcut::Nothing
    }

    /// What [`gauss`](Self::gauss) would do, decided read-only where it
    /// eliminates nothing: every equality's last non-zero column (its pivot)
    /// has a positive coefficient and is zero in every other row and
    /// definition (so the pivots are distinct). Then each step pivots on the
    /// equality with the largest remaining pivot, does not negate it and
    /// eliminates nothing: the equalities end sorted by decreasing pivot,
    /// all else as it was ([`GaussShortcut::Nothing`] if they already are,
    /// else [`GaussShortcut::Reorder`]). [`GaussShortcut::Eliminate`]
    /// means "not shown".
    fn gauss_shortcut(&self) -> GaussShortcut {
        let n = self.row_len();
        let mut prev = n;
        let mut sorted = true;
        for (i, r) in self.eqs.iter().enumerate() {
            // (a constant row is not shown: `gauss` may drop it)
            let Some(c) = (1..n).rev().find(|&c| !r[c].is_zero()) else {
                return GaussShortcut::Eliminate;
            };
            if !r[c].is_pos() {
                return GaussShortcut::Eliminate;
            }
            if self
                .eqs
                .iter()
                .enumerate()
                .any(|(j, e)| j != i && !e[c].is_zero())
                || self.ineqs.iter().any(|e| !e[c].is_zero())
                || self.divs.iter().flatten().any(|d| !d.num[c].is_zero())
            {
                return GaussShortcut::Eliminate;
            }
            sorted &= c < prev;
            prev = c;
        }
        if sorted {
            GaussShortcut::Nothing
        } else {
            GaussShortcut::Reorder
        }
    }

    /// Relations among locals implied by the equalities: eliminate the
    /// parameters and dimensions first (on a copy); the rows left over that
    /// involve locals only are added as equalities (e.g. `i = 2a` and
    /// `i = -2b` give `a + b = 0`). Returns true if something was added.
    pub(crate) fn local_relations_from_eqs(&mut self) -> bool {
        let off = self.off_div();
        let n = self.row_len();
        // (one equality suffices: `q - q' = 0` between two equal definitions)
        if self.n_div() < 2 || self.eqs.is_empty() {
            return false;
        }
        // combinations of rows without locals have no locals either
        if self.eqs.iter().all(|r| r[off..].iter().all(Int::is_zero)) {
            return false;
        }
        // the copy in one buffer, row after row (one allocation)
        let e = self.eqs.len();
        let mut m: Vec<Int> = Vec::with_capacity(e * n);
        for r in &self.eqs {
            m.extend_from_slice(r);
        }
        let mut row = 0;
        for c in 1..off {
            let Some(p) = (row..e).find(|&r| !m[r * n + c].is_zero()) else {
                continue;
            };
            if p != row {
                let (head, tail) = m.split_at_mut(p * n);
                head[row * n..(row + 1) * n].swap_with_slice(&mut tail[..n]);
            }
            let (done, rest) = m.split_at_mut((row + 1) * n);
            let piv = &done[row * n..];
            for r in rest.chunks_mut(n) {
                if !r[c].is_zero() {
                    eliminate(r, piv, c);
                    normalize(r);
                }
            }
            row += 1;
        }
        for r in m[row * n..].chunks(n) {
            // a relation with a unit coefficient on a local: substitute that local away
            // only the last local of the relation may go (so that no definition
            // gains a reference to a later local, which could make them cyclic)
            let last = (off..n).rev().find(|&c| !r[c].is_zero());
            if let Some(q) = last.filter(|&c| r[c].abs().is_one()) {
                self.substitute_local(q, r);
                return true;
            }
        }
        false
    }

    /// Eliminate local column `q` using the equality `r` (with `r[q] = ±1`)
    /// from every row and definition, then remove the local.
    pub(crate) fn substitute_local(&mut self, q: usize, r: &[Int]) {
        // q = -(r - r[q]·q) / r[q]; with |r[q]| = 1 no row is scaled
        for row in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            eliminate(row, r, q);
        }
        for d in self.divs.iter_mut().flatten() {
            eliminate(&mut d.num, r, q);
        }
        self.eqs.retain(|row| !row.iter().all(Int::is_zero));
        let k = q - self.off_div();
        self.remove_local(k);
    }

    /// Equalities between pairs of locals that the rational relaxation
    /// implies up to rounding: if `l ± l'` is bounded in `[lo, hi]` over the
    /// rationals and `ceil(lo) = floor(hi)`, the integer sum is constant.
    pub(crate) fn local_relations_by_lp(&mut self) -> crate::error::Result<bool> {
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
        let mut added = false;
        for a in 0..nd {
            for b in a + 1..nd {
                for sign in [1i64, -1] {
                    let mut obj = vec![Int::ZERO; n];
                    obj[off + a] = Int::ONE;
                    obj[off + b] = Int::from(sign);
                    let lo = t.minimize(&obj)?; // the optimum basis stays a valid tableau
                    let crate::simplex::Opt::Value(ln, ld) = lo else {
                        continue;
                    };
                    let hi = t.maximize(&obj)?;
                    let crate::simplex::Opt::Value(hn, hd) = hi else {
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

    /// True if local `k` (index among locals) is used by another local's definition.
    fn local_used_in_divs(&self, k: usize) -> bool {
        let col = self.off_div() + k;
        self.divs
            .iter()
            .enumerate()
            .any(|(j, d)| j != k && d.as_ref().is_some_and(|d| !d.num[col].is_zero()))
    }

    /// Visit the locals in order; `drop(self, k)` returns true when it
    /// eliminated local `k` (no row mentions it any more). The locals
    /// eliminated lose their definitions at once (so no later visit sees
    /// them used) and their columns in one pass at the end. Returns true if
    /// any local was eliminated.
    fn drop_locals(&mut self, mut drop: impl FnMut(&mut Self, usize) -> bool) -> bool {
        let mut gone: Vec<bool> = Vec::new();
        for k in 0..self.n_div() {
            if drop(self, k) {
                if gone.is_empty() {
                    gone.resize(self.n_div(), false);
                }
                gone[k] = true;
                self.divs[k] = None;
            }
        }
        if gone.is_empty() {
            return false;
        }
        self.remove_gone_locals(&gone);
        true
    }

    /// True if local `k` is an existential that only inequalities mention
    /// (no definition, not in a definition, not in an equality).
    fn only_in_ineqs(&self, k: usize) -> bool {
        let col = self.off_div() + k;
        self.divs[k].is_none()
            && !self.local_used_in_divs(k)
            && self.eqs.iter().all(|r| r[col].is_zero())
    }

    /// An existential that appears in an equality with coefficient ±1 and
    /// nowhere else (after Gaussian elimination) is dropped with that equality.
    fn drop_unit_existentials(&mut self) -> bool {
        self.drop_locals(|b, k| {
            let col = b.off_div() + k;
            if b.local_used_in_divs(k) {
                return false;
            }
            // the one equality that mentions it (none, or two: kept)
            let mut in_eqs = (0..b.eqs.len()).filter(|&i| !b.eqs[i][col].is_zero());
            let (Some(i), None) = (in_eqs.next(), in_eqs.next()) else {
                return false;
            };
            let in_ineqs = b.ineqs.iter().any(|r| !r[col].is_zero());
            if !in_ineqs && b.eqs[i][col].abs().is_one() {
                b.eqs.remove(i);
                return true;
            }
            false
        })
    }

    /// An existential bounded only from below (or only from above), outside
    /// equalities and definitions, is dropped with its constraints.
    fn drop_one_sided_existentials(&mut self) -> bool {
        self.drop_locals(|b, k| {
            let col = b.off_div() + k;
            if !b.only_in_ineqs(k) {
                return false;
            }
            let pos = b.ineqs.iter().any(|r| r[col].is_pos());
            let neg = b.ineqs.iter().any(|r| r[col].is_neg());
            if pos && neg {
                return false;
            }
            b.ineqs.retain(|r| r[col].is_zero());
            true
        })
    }

    /// Fourier–Motzkin elimination of an existential, where it is exact over
    /// the integers: all its lower bounds have coefficient 1, or all its upper
    /// bounds have coefficient -1 (then `l <= e <= floor(u / b)` has an
    /// integer solution iff `b·l <= u` for every pair). Only when few rows result.
    fn eliminate_existentials_fm(&mut self) -> bool {
        self.drop_locals(|b, k| {
            let col = b.off_div() + k;
            if !b.only_in_ineqs(k) {
                return false;
            }
            // decided on counts first (no list built for a local that stays)
            let (mut n_lo, mut n_hi, mut unit_lo, mut unit_hi) = (0usize, 0usize, true, true);
            for r in b.ineqs.iter() {
                let c = &r[col];
                if c.is_pos() {
                    n_lo += 1;
                    unit_lo &= c.is_one();
                } else if c.is_neg() {
                    n_hi += 1;
                    unit_hi &= matches!(c, Int::Small(-1));
                }
            }
            if n_lo == 0 || n_hi == 0 || !(unit_lo || unit_hi) || n_lo * n_hi > 16 {
                return false;
            }
            let lowers: Vec<usize> = (0..b.ineqs.len())
                .filter(|&i| b.ineqs[i][col].is_pos())
                .collect();
            let uppers: Vec<usize> = (0..b.ineqs.len())
                .filter(|&i| b.ineqs[i][col].is_neg())
                .collect();
            let mut new_rows = Vec::new();
            for &l in &lowers {
                for &u in &uppers {
                    let a = -&b.ineqs[u][col];
                    let c = b.ineqs[l][col].clone();
                    let row: Vec<Int> = b.ineqs[l]
                        .iter()
                        .zip(&b.ineqs[u])
                        .map(|(x, y)| Int::combine(&a, x, &c, y))
                        .collect();
                    new_rows.push(row);
                }
            }
            b.ineqs.retain(|r| r[col].is_zero());
            b.ineqs.extend(new_rows);
            true
        })
    }

    /// Remove inequalities implied (over the rationals) by the other
    /// constraints: `r` is redundant if its minimum subject to the rest is
    /// non-negative (the set is unchanged, so definitions stay consistent).
    ///
    /// Shortcut (keeping a row never changes the set, so only removals need
    /// the LP): a row with a positive (negative) coefficient in a column
    /// where every other inequality has a non-positive (non-negative)
    /// coefficient and every equality a zero one is kept without LP. It is
    /// not redundant when the relaxation is non-empty: from any point of it,
    /// moving that column's value down (up) keeps the other rows satisfied
    /// and eventually violates this one.
    pub fn remove_redundancies(&mut self) -> crate::error::Result<()> {
        let n = self.row_len();
        let mut base = crate::simplex::Tableau::new(n - 1);
        for e in &self.eqs {
            base.add_eq(e)?;
        }
        if base.is_empty() {
            return Ok(());
        }
        let mut k = 0;
        while k < self.ineqs.len() {
            crate::budget::tick(1)?;
            if self.only_bound_in_some_column(k) {
                k += 1;
                continue;
            }
            let mut t = base.clone();
            for (i, r) in self.ineqs.iter().enumerate() {
                if i != k {
                    t.add_ineq(r)?;
                }
            }
            if t.is_empty() {
                return Ok(());
            }
            let redundant = match t.minimize(&self.ineqs[k])? {
                crate::simplex::Opt::Value(num, _) => !num.is_neg(),
                crate::simplex::Opt::Unbounded => false,
            };
            if redundant {
                self.ineqs.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    /// True if inequality `k` has a non-zero coefficient in a column where no
    /// equality has one and every other inequality's coefficient is zero or
    /// of the opposite sign (see [`remove_redundancies`](Self::remove_redundancies)).
    fn only_bound_in_some_column(&self, k: usize) -> bool {
        let r = &self.ineqs[k];
        (1..self.row_len()).any(|c| {
            let s = r[c].signum();
            s != 0
                && self.eqs.iter().all(|e| e[c].is_zero())
                && self
                    .ineqs
                    .iter()
                    .enumerate()
                    .all(|(i, o)| i == k || o[c].signum() * s <= 0)
        })
    }

    /// Remove locals that no constraint mentions and no definition uses.
    fn drop_unused_locals(&mut self) -> bool {
        // all found first, then removed in one pass over the rows (a
        // definition only uses earlier locals: one removed later never made
        // an earlier one used)
        let off = self.off_div();
        let gone: Vec<bool> = (0..self.n_div())
            .map(|k| {
                let col = off + k;
                !(self
                    .eqs
                    .iter()
                    .chain(self.ineqs.iter())
                    .any(|r| !r[col].is_zero())
                    || self.local_used_in_divs(k))
            })
            .collect();
        if !gone.contains(&true) {
            return false;
        }
        self.remove_gone_locals(&gone);
        true
    }

    /// Remove local `k` (which must have zero coefficients everywhere it matters).
    pub(crate) fn remove_local(&mut self, k: usize) {
        let col = self.off_div() + k;
        self.eqs.remove_column(col);
        self.ineqs.remove_column(col);
        self.divs.remove(k);
        for d in self.divs.iter_mut().flatten() {
            d.num.remove(col);
        }
    }

    /// Give existentials explicit definitions where the constraints determine
    /// one: from an equality `a·e = f` (then `e = floor(f/a)` with `a | f`),
    /// from a single upper bound `a·e <= U` (take the largest `e`:
    /// `e = floor(U/a)`, adding `a·e > U - a`) or a single lower bound.
    /// Also recognizes the defining pair `f - d·e >= 0`, `-f + d·e + d - 1 >= 0`.
    /// Returns true if every local has a definition afterwards.
    pub fn detect_divs(&mut self) -> bool {
        let off = self.off_div();
        for k in 0..self.n_div() {
            if self.divs[k].is_some() {
                continue;
            }
            let col = off + k;
            let later_free = |r: &[Int]| (col + 1..r.len()).all(|c| r[c].is_zero());
            // equality a·e + rest = 0  =>  e = -rest / a
            if let Some(r) = self.eqs.iter().find(|r| !r[col].is_zero() && later_free(r)) {
                let mut num: Vec<Int> = r.iter().map(|v| -v).collect();
                let mut a = r[col].clone();
                if a.is_neg() {
                    num.iter_mut().for_each(|v| *v = -&*v);
                    a = -&a;
                }
                num[col] = Int::ZERO;
                // the existential's sign is free: the numerator's first coefficient is made
                // positive, so that `m = 2e` reads `(m) mod 2 = 0`, not `(-m) mod 2 = 0`
                if num[1..]
                    .iter()
                    .find(|v| !v.is_zero())
                    .is_some_and(Int::is_neg)
                {
                    num.iter_mut().for_each(|v| *v = -&*v);
                    self.negate_column(col);
                }
                self.divs[k] = Some(Div { num, den: a });
                continue;
            }
            if self.local_used_in_divs(k) || self.eqs.iter().any(|r| !r[col].is_zero()) {
                continue;
            }
            // defining pair
            if let Some(def) = self.find_div_pair(col) {
                self.divs[k] = Some(def);
                continue;
            }
            let uppers: Vec<usize> = (0..self.ineqs.len())
                .filter(|&i| self.ineqs[i][col].is_neg())
                .collect();
            let lowers: Vec<usize> = (0..self.ineqs.len())
                .filter(|&i| self.ineqs[i][col].is_pos())
                .collect();
            if uppers.len() == 1 && later_free(&self.ineqs[uppers[0]]) {
                // U - a·e >= 0  =>  e = floor(U/a); add -U + a·e + a - 1 >= 0
                let r = self.ineqs[uppers[0]].to_vec();
                let a = -&r[col];
                let mut num = r.clone();
                num[col] = Int::ZERO;
                let mut extra: Vec<Int> = r.iter().map(|v| -v).collect();
                extra[0] = &(&extra[0] + &a) - &Int::ONE;
                self.ineqs.push(extra);
                self.divs[k] = Some(Div { num, den: a });
                continue;
            }
            if lowers.len() == 1 && later_free(&self.ineqs[lowers[0]]) {
                // a·e + L >= 0 => e = ceil(-L/a) = -floor(L/a); introduce via e' = -e is awkward:
                // use e = floor((-L + a - 1)/a), add -(a·e + L) + a - 1 >= 0
                let r = self.ineqs[lowers[0]].to_vec();
                let a = r[col].clone();
                let mut num: Vec<Int> = r.iter().map(|v| -v).collect();
                num[col] = Int::ZERO;
                num[0] = &(&num[0] + &a) - &Int::ONE;
                let mut extra: Vec<Int> = r.iter().map(|v| -v).collect();
                extra[0] = &(&extra[0] + &a) - &Int::ONE;
                self.ineqs.push(extra);
                self.divs[k] = Some(Div { num, den: a });
                continue;
            }
        }
        self.divs.iter().all(Option::is_some) && self.divs_ordered()
    }

    /// Replace the local at `col` by its negation in every row and definition.
    fn negate_column(&mut self, col: usize) {
        for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            r[col] = -&r[col];
        }
        for d in self.divs.iter_mut().flatten() {
            d.num[col] = -&d.num[col];
        }
    }

    fn find_div_pair(&self, col: usize) -> Option<Div> {
        for lo in &self.ineqs {
            // f - d·e >= 0 with d > 0
            if !lo[col].is_neg() || (col + 1..lo.len()).any(|c| !lo[c].is_zero()) {
                continue;
            }
            let d = -&lo[col];
            for hi in &self.ineqs {
                if hi[col] != d {
                    continue;
                }
                // hi = -f + d·e + d - 1 ?
                let ok = (1..lo.len()).all(|c| c == col || hi[c] == -&lo[c])
                    && hi[0] == &(&(-&lo[0]) + &d) - &Int::ONE;
                if ok {
                    let mut num = lo.to_vec();
                    num[col] = Int::ZERO;
                    return Some(Div { num, den: d });
                }
            }
        }
        None
    }

    /// True if every definition refers only to earlier locals.
    pub(crate) fn divs_ordered(&self) -> bool {
        let off = self.off_div();
        self.divs.iter().enumerate().all(|(k, d)| match d {
            Some(d) => (off + k..d.num.len()).all(|c| d.num[c].is_zero()),
            None => true,
        })
    }
}
