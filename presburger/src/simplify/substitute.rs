//! Existentials that are exact functions of the other variables, or repeat
//! another existential (issues 20 and 22): each one left over by a projection
//! makes every later operation on the basic map larger.
//!
//! - [`BasicMap::substitute_unit_existentials`]: an existential `e` (no
//!   definition) with coefficient ±1 in an equality `e = f` is `f`, an integer
//!   affine function of the other variables: `e` is replaced by `f` in every
//!   row and removed. A definition `floor(num / d)` that mentions `e` gets `f`
//!   in its numerator when that refers only to earlier locals (the order the
//!   definitions need); otherwise (`e = 4q` with `q = floor(e / 4)`, whose
//!   definition would refer to `q` itself) the definition is forgotten: the
//!   local becomes an existential, which the rows alone still define (the
//!   invariant of [`BasicMap`]), so the set is the same.
//! - [`BasicMap::merge_duplicate_existentials`]: two existentials `a` and `b`
//!   that no row mentions together, whose rows are the same up to exchanging
//!   `a` and `b` (`exists a, b: C(x, a) and C(x, b)`), are one: `b` can take
//!   `a`'s value. `b` and its rows are removed.
//!
//! Definitions that repeat each other (`q = floor(i/2)` twice) are merged by
//! the equality `q - q' = 0` that `fix_constant_divs` adds, a relation among
//! locals only that `local_relations_from_eqs` substitutes.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::eliminate;

impl BasicMap {
    /// Substitute every existential that an equality gives with coefficient
    /// ±1 (see the [module documentation](self)): first those that no
    /// definition uses, then the others. Returns true if one was substituted.
    ///
    /// The same eliminations as [`substitute_unit_existentials_one_by_one`]
    /// (the tests' oracle), in the same order, but the substituted columns
    /// (left zero in every row and definition) are all removed at the end in
    /// one pass over the rows, instead of one column at a time.
    ///
    /// [`substitute_unit_existentials_one_by_one`]: Self::substitute_unit_existentials_one_by_one
    pub(crate) fn substitute_unit_existentials(&mut self) -> bool {
        let off = self.off_div();
        let nd = self.n_div();
        // cheap exit: no existential at all, or no unit coefficient of one in an equality
        let unit_in_eqs = |b: &BasicMap, k: usize| {
            b.eqs
                .iter()
                .position(|r| matches!(r[off + k], Int::Small(1 | -1)))
        };
        if !(0..nd).any(|k| self.divs[k].is_none() && unit_in_eqs(self, k).is_some()) {
            return false;
        }
        let mut gone = vec![false; nd];
        for used_by_divs in [false, true] {
            for k in 0..nd {
                let col = off + k;
                if gone[k]
                    || self.divs[k].is_some()
                    || (!used_by_divs && self.local_used_in_divs(k))
                {
                    continue;
                }
                let Some(i) = self
                    .eqs
                    .iter()
                    .position(|r| matches!(r[col], Int::Small(1 | -1)))
                else {
                    continue;
                };
                // (the one-by-one version eliminates the row from itself too,
                // leaving a zero row that it then drops: taken out here)
                let row = self.eqs.remove(i);
                self.substitute_into_divs(col, &row);
                for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
                    if !r[col].is_zero() {
                        eliminate(r, &row, col);
                    }
                }
                if self.divs.iter().flatten().any(|d| !d.num[col].is_zero()) {
                    for d in self.divs.iter_mut().flatten() {
                        eliminate(&mut d.num, &row, col);
                    }
                }
                gone[k] = true;
            }
        }
        if self.eqs.iter().any(|row| row.iter().all(Int::is_zero)) {
            self.eqs.retain(|row| !row.iter().all(Int::is_zero));
        }
        self.remove_gone_locals(&gone);
        true
    }

    /// Remove the locals `k` with `gone[k]` (each with zero coefficients
    /// everywhere), all in one pass over the rows and definitions.
    pub(super) fn remove_gone_locals(&mut self, gone: &[bool]) {
        let off = self.off_div();
        // the rows compacted in place; then the definitions (by the
        // columns kept, in order)
        let gone_col = |c: usize| c >= off && gone[c - off];
        self.eqs.retain_columns(|c| !gone_col(c));
        self.ineqs.retain_columns(|c| !gone_col(c));
        let mut k = 0;
        self.divs.retain(|_| {
            k += 1;
            !gone[k - 1]
        });
        if self.divs.iter().flatten().next().is_some() {
            let kept: Vec<usize> = (0..off)
                .chain((0..gone.len()).filter(|&k| !gone[k]).map(|k| off + k))
                .collect();
            for d in self.divs.iter_mut().flatten() {
                for (j, &c) in kept.iter().enumerate().skip(off) {
                    d.num.swap(j, c);
                }
                d.num.truncate(kept.len());
            }
        }
    }

    /// [`substitute_unit_existentials`](Self::substitute_unit_existentials)
    /// one local at a time, each removed at once: the simple version, the
    /// oracle of the tests.
    #[cfg(test)]
    pub(crate) fn substitute_unit_existentials_one_by_one(&mut self) -> bool {
        let off = self.off_div();
        let mut changed = false;
        for used_by_divs in [false, true] {
            let mut k = 0;
            while k < self.n_div() {
                let col = off + k;
                let skip = self.divs[k].is_some() || (!used_by_divs && self.local_used_in_divs(k));
                let row = if skip {
                    None
                } else {
                    self.eqs
                        .iter()
                        .find(|r| r[col].abs().is_one())
                        .map(<[Int]>::to_vec)
                };
                let Some(row) = row else {
                    k += 1;
                    continue;
                };
                self.substitute_into_divs(col, &row);
                self.substitute_local(col, &row);
                changed = true;
            }
        }
        changed
    }

    /// Replace the local at `col` by its value from `row` (`row[col] = ±1`)
    /// in the definitions; a definition that would then refer to itself or a
    /// later local is forgotten.
    fn substitute_into_divs(&mut self, col: usize, row: &[Int]) {
        let off = self.off_div();
        for j in 0..self.n_div() {
            let Some(d) = &mut self.divs[j] else {
                continue;
            };
            if d.num[col].is_zero() {
                continue;
            }
            eliminate(&mut d.num, row, col);
            if d.num[off + j..].iter().any(|v| !v.is_zero()) {
                self.divs[j] = None;
            }
        }
    }

    /// Remove existentials that repeat another one (see the [module
    /// documentation](self)). Returns true if one was removed.
    pub(crate) fn merge_duplicate_existentials(&mut self) -> bool {
        let off = self.off_div();
        let is_free = |k: &usize| self.divs[*k].is_none() && !self.local_used_in_divs(*k);
        // (counted first: no list when fewer than two are free)
        if (0..self.n_div()).filter(is_free).nth(1).is_none() {
            return false;
        }
        let free: Vec<usize> = (0..self.n_div()).filter(is_free).collect();
        for (i, &a) in free.iter().enumerate() {
            for &b in &free[i + 1..] {
                if self.repeats(off + a, off + b) {
                    let cb = off + b;
                    self.eqs.retain(|r| r[cb].is_zero());
                    self.ineqs.retain(|r| r[cb].is_zero());
                    self.remove_local(b);
                    return true;
                }
            }
        }
        false
    }

    /// True if no row mentions both columns `ca` and `cb` and the rows that
    /// mention `cb` are those that mention `ca` with the two exchanged.
    fn repeats(&self, ca: usize, cb: usize) -> bool {
        // cheap test first: as many rows mention each, none both
        let count = |rows: &crate::Rows| {
            rows.iter().fold((0, 0, false), |(na, nb, both), r| {
                let (a, b) = (!r[ca].is_zero(), !r[cb].is_zero());
                (na + a as usize, nb + b as usize, both || (a && b))
            })
        };
        for rows in [&self.eqs, &self.ineqs] {
            let (na, nb, both) = count(rows);
            if both || na != nb {
                return false;
            }
        }
        same_up_to_exchange(&self.eqs, ca, cb) && same_up_to_exchange(&self.ineqs, ca, cb)
    }
}

/// Column `c` of a row read with columns `ca` and `cb` exchanged.
fn exchanged(c: usize, ca: usize, cb: usize) -> usize {
    if c == ca {
        cb
    } else if c == cb {
        ca
    } else {
        c
    }
}

/// True if the rows that mention `cb`, with `ca` and `cb` exchanged, are
/// (as a multiset) the rows that mention `ca` (no row mentions both, and as
/// many mention each). Compared in place: both lists of row references are
/// sorted in the lexicographic order of the rows as read (those of `cb`
/// with the two columns exchanged), then compared entry by entry (the
/// lists on the stack for up to `ON_STACK` rows each). The simple method
/// (copies with the columns swapped, sorted) is the oracle of the tests.
fn same_up_to_exchange(rows: &crate::Rows, ca: usize, cb: usize) -> bool {
    // (the usual few rows: the lists on the stack, no allocation)
    let mut of_a: [&[Int]; ON_STACK] = [&[]; ON_STACK];
    let mut of_b: [&[Int]; ON_STACK] = [&[]; ON_STACK];
    let (mut na, mut nb) = (0, 0);
    for r in rows {
        if !r[ca].is_zero() {
            if na == ON_STACK {
                return same_up_to_exchange_on_heap(rows, ca, cb);
            }
            of_a[na] = r;
            na += 1;
        }
        if !r[cb].is_zero() {
            if nb == ON_STACK {
                return same_up_to_exchange_on_heap(rows, ca, cb);
            }
            of_b[nb] = r;
            nb += 1;
        }
    }
    same_when_sorted(&mut of_a[..na], &mut of_b[..nb], ca, cb)
}

/// Up to this many rows mention each column, [`same_up_to_exchange`]
/// keeps its lists on the stack.
const ON_STACK: usize = 8;

/// [`same_up_to_exchange`] with its lists in vectors (any number of rows).
fn same_up_to_exchange_on_heap(rows: &crate::Rows, ca: usize, cb: usize) -> bool {
    let mut of_a: Vec<&[Int]> = rows
        .iter()
        .filter(|r| !r[ca].is_zero())
        .map(|r| &r[..])
        .collect();
    let mut of_b: Vec<&[Int]> = rows
        .iter()
        .filter(|r| !r[cb].is_zero())
        .map(|r| &r[..])
        .collect();
    same_when_sorted(&mut of_a, &mut of_b, ca, cb)
}

/// The comparison of [`same_up_to_exchange`] on the lists of the rows that
/// mention `ca` and those that mention `cb`.
fn same_when_sorted(of_a: &mut [&[Int]], of_b: &mut [&[Int]], ca: usize, cb: usize) -> bool {
    if of_a.len() != of_b.len() {
        return false;
    }
    if of_a.is_empty() {
        return true;
    }
    let n = of_a[0].len();
    let x = |c: usize| exchanged(c, ca, cb);
    of_a.sort();
    of_b.sort_by(|r, s| {
        (0..n)
            .map(|c| r[x(c)].cmp(&s[x(c)]))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    of_a.iter()
        .zip(of_b.iter())
        .all(|(a, b)| (0..n).all(|c| a[c] == b[x(c)]))
}

impl BasicMap {
    /// [`repeats`](Self::repeats) by copies of the rows with the columns
    /// swapped, sorted and compared: the simple version, the oracle of the
    /// tests.
    #[cfg(test)]
    pub(crate) fn repeats_by_copies(&self, ca: usize, cb: usize) -> bool {
        fn rows_with(rows: &crate::Rows, ca: usize, cb: usize) -> Option<Vec<Vec<Int>>> {
            let mut out = Vec::new();
            for r in rows {
                match (r[ca].is_zero(), r[cb].is_zero()) {
                    (false, false) => return None,
                    (true, false) => {
                        let mut s = r.to_vec();
                        s.swap(ca, cb);
                        out.push(s);
                    }
                    _ => {}
                }
            }
            out.sort();
            Some(out)
        }
        fn rows_of(rows: &crate::Rows, ca: usize) -> Vec<Vec<Int>> {
            let mut out: Vec<Vec<Int>> = rows
                .iter()
                .filter(|r| !r[ca].is_zero())
                .map(<[Int]>::to_vec)
                .collect();
            out.sort();
            out
        }
        let same = |rows: &crate::Rows| match rows_with(rows, ca, cb) {
            Some(moved) => moved == rows_of(rows, ca),
            None => false,
        };
        same(&self.eqs) && same(&self.ineqs)
    }
}

#[cfg(test)]
mod tests;
