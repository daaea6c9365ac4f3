//! Existentials eliminated where the projection is exact, so that `params`, `domain`,
//! `range` and projections print without `exists` when an existential-free form exists
//! (issue 21: `params [n] -> { [i] : 0 <= i < n and i mod 3 = 1 }` is `[n] -> { : n >= 2 }`).
//!
//! [`BasicMap::without_existentials`] first forgets the definitions of the divisions that
//! refer to an existential (the constraints alone define the set, so they become
//! existentials too), then repeats, simplifying (gcd tightening of the rows) between steps:
//!
//! 1. an equality in which an existential has coefficient ±1 defines it: it is substituted
//!    everywhere;
//! 2. an equality with two or more existentials, none with a unit coefficient, is reduced
//!    by a unimodular change of those existentials (Euclid's algorithm on their
//!    coefficients: `e_k = e_k' - q·e_j` turns `a_j` into `a_j - q·a_k`) until one of them
//!    is left, with the gcd as coefficient (a unit: step 1; else a congruence);
//! 3. an existential in one equality `a·e = f` alone among the existentials is removed
//!    from the other rows with it (they are scaled by `|a|`): it then only says
//!    `f ≡ 0 (mod a)`, a congruence the printer writes with `mod`;
//! 4. an existential only in inequalities is eliminated by Fourier–Motzkin where the
//!    integer projection is the rational one: every pair of a lower bound `a·e >= L` and
//!    an upper bound `b·e <= U` has `a = 1` or `b = 1` (then `a·U >= b·L` is exactly the
//!    condition for an integer `e`), or the rational shadow implies the dark shadow
//!    `a·U - b·L >= (a - 1)(b - 1)` of every other pair (the Omega test's exact case: an
//!    integer point of the dark shadow has an integer `e`).
//!
//! 5. otherwise an existential only in inequalities with few *splinters* is split as in
//!    the Omega test: the projection is the dark shadow (all pairs' `a·U - b·L >=
//!    (a - 1)(b - 1)`) together with the splinters (`b·e = L + j` for a lower bound and a
//!    few `j`), each a piece whose existentials these steps eliminate again; the answer
//!    is the rational shadow when it lies in the union of the pieces (the projection is
//!    between the two), else the union when it coalesces into one disjunct.
//!
//! The existentials left are then given definitions where one bound determines them
//! ([`BasicMap::detect_divs`]). The result is used only when fewer existentials are left
//! than [`detect_divs`](BasicMap::detect_divs) alone leaves; every step keeps the set.

use crate::basic::BasicMap;
use crate::budget;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::matrix::eliminate;
use crate::simplex::Opt;

/// At most this many pairs of bounds are combined in one Fourier–Motzkin step.
const MAX_PAIRS: usize = 64;

/// At most this many steps (each removes an existential or shrinks coefficients).
const MAX_STEPS: usize = 64;

/// Step 5 nests at most this deep (its pieces may need it again).
const SPLIT_DEPTH: usize = 2;

/// Step 5 is tried only with at most this many splinters.
const MAX_SPLINTERS: usize = 8;

impl BasicMap {
    /// The disjunct with existentials eliminated exactly (see the
    /// [module documentation](self)), after [`detect_divs`](BasicMap::detect_divs);
    /// `None` when that leaves no fewer existentials than `detect_divs` alone.
    pub(crate) fn without_existentials(&self) -> Result<Option<BasicMap>> {
        if self.divs.iter().all(Option::is_some) {
            return Ok(None);
        }
        let mut plain = self.clone();
        plain.detect_divs();
        let before = if plain.simplify() {
            n_existentials(&plain)
        } else {
            0
        };
        if before == 0 {
            return Ok(None);
        }
        let b = self.clone().eliminate_exactly(SPLIT_DEPTH)?;
        Ok((n_existentials(&b) < before).then_some(b))
    }

    /// Steps 1–4 (and 5, `depth` levels deep) until none applies, then
    /// [`detect_divs`](BasicMap::detect_divs).
    fn eliminate_exactly(mut self, depth: usize) -> Result<BasicMap> {
        self.forget_divs_of_existentials();
        for _ in 0..MAX_STEPS {
            budget::tick(1)?;
            if !self.simplify() {
                return Ok(self);
            }
            let progress = self.substitute_unit_existential()
                || self.project_exactly()?
                || self.reduce_existential_coefficients()
                || self.isolate_congruence();
            if progress {
                continue;
            }
            if depth > 0 {
                if let Some(b) = self.split_on_dark_shadow(depth)? {
                    self = b;
                }
            }
            break;
        }
        self.detect_divs();
        self.simplify();
        Ok(self)
    }

    /// Turn into existentials the divisions whose definitions refer to an existential
    /// (directly or through another division).
    fn forget_divs_of_existentials(&mut self) {
        let off = self.off_div();
        for k in 0..self.n_div() {
            let unknown = self.divs[k].as_ref().is_some_and(|d| {
                (0..k).any(|j| self.divs[j].is_none() && !d.num[off + j].is_zero())
            });
            if unknown {
                self.divs[k] = None;
            }
        }
    }

    /// The columns of the existentials that no definition uses.
    fn existential_columns(&self) -> Vec<usize> {
        let off = self.off_div();
        (0..self.n_div())
            .filter(|&k| {
                self.divs[k].is_none()
                    && self.divs.iter().flatten().all(|d| d.num[off + k].is_zero())
            })
            .map(|k| off + k)
            .collect()
    }

    /// Step 1: substitute an existential an equality gives with coefficient ±1.
    fn substitute_unit_existential(&mut self) -> bool {
        let cols = self.existential_columns();
        let found = self.eqs.iter().find_map(|r| {
            cols.iter()
                .rev()
                .find(|&&c| r[c].abs().is_one())
                .map(|&c| (r.to_vec(), c))
        });
        let Some((row, col)) = found else {
            return false;
        };
        self.substitute_local(col, &row);
        true
    }

    /// Step 2: in an equality with several existentials, none with a unit coefficient,
    /// reduce the others' coefficients modulo the smallest one by a unimodular change
    /// of the existentials.
    fn reduce_existential_coefficients(&mut self) -> bool {
        let cols = self.existential_columns();
        for i in 0..self.eqs.len() {
            let present = nonzero_in(&self.eqs[i], &cols);
            if present.len() < 2 {
                continue;
            }
            let &k = present
                .iter()
                .min_by_key(|&&c| self.eqs[i][c].abs())
                .expect("two columns");
            let ak = self.eqs[i][k].clone();
            for &j in &present {
                if j == k {
                    continue;
                }
                // e_k = e_k' - q·e_j: column j gains -q times column k in every row
                let q = self.eqs[i][j].div_floor(&ak);
                for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
                    if !r[k].is_zero() {
                        r[j] = &r[j] - &(&q * &r[k]);
                    }
                }
            }
            return true;
        }
        false
    }

    /// Step 3: remove from the other rows an existential that is the only one of an
    /// equality (where it has a coefficient other than ±1).
    fn isolate_congruence(&mut self) -> bool {
        let cols = self.existential_columns();
        for i in 0..self.eqs.len() {
            let present = nonzero_in(&self.eqs[i], &cols);
            let [col] = present[..] else {
                continue;
            };
            let elsewhere = |r: &[Int]| !r[col].is_zero();
            let in_other_eq = self
                .eqs
                .iter()
                .enumerate()
                .any(|(j, r)| j != i && elsewhere(r));
            if !in_other_eq && !self.ineqs.iter().any(elsewhere) {
                continue;
            }
            let piv = self.eqs[i].to_vec();
            for (j, r) in self.eqs.iter_mut().enumerate() {
                if j != i {
                    eliminate(r, &piv, col);
                }
            }
            for r in self.ineqs.iter_mut() {
                eliminate(r, &piv, col);
            }
            return true;
        }
        false
    }

    /// Step 4: Fourier–Motzkin elimination of an existential only in inequalities,
    /// where it is exact; of the candidates, the one adding the fewest rows.
    fn project_exactly(&mut self) -> Result<bool> {
        let mut best: Option<(usize, usize)> = None;
        for col in self.existential_columns() {
            if self.eqs.iter().any(|r| !r[col].is_zero()) {
                continue;
            }
            let lo = self.ineqs.iter().filter(|r| r[col].is_pos()).count();
            let hi = self.ineqs.iter().filter(|r| r[col].is_neg()).count();
            if lo * hi > MAX_PAIRS || best.is_some_and(|(_, g)| g <= lo * hi) {
                continue;
            }
            if self.exact_shadow(col)?.is_some() {
                best = Some((col, lo * hi));
            }
        }
        let Some((col, _)) = best else {
            return Ok(false);
        };
        let shadow = self.exact_shadow(col)?.expect("checked above");
        self.ineqs.retain(|r| r[col].is_zero());
        self.ineqs.extend(shadow);
        // the column is now zero everywhere
        self.remove_local(col - self.off_div());
        if self.ineqs.len() > 12 {
            self.remove_redundancies()?;
        }
        Ok(true)
    }

    /// The combinations `b·lower + a·upper` of every pair of bounds on the existential
    /// at `col` (its rational shadow), if that is its integer projection (see the
    /// [module documentation](self)), else `None`.
    fn exact_shadow(&self, col: usize) -> Result<Option<Vec<Vec<Int>>>> {
        let lowers: Vec<&[Int]> = self.ineqs.iter().filter(|r| r[col].is_pos()).collect();
        let uppers: Vec<&[Int]> = self.ineqs.iter().filter(|r| r[col].is_neg()).collect();
        let mut shadow = Vec::with_capacity(lowers.len() * uppers.len());
        // pairs without a unit coefficient, with their dark-shadow margin (a - 1)(b - 1)
        let mut dark = Vec::new();
        for l in &lowers {
            for u in &uppers {
                let a = l[col].clone();
                let b = -&u[col];
                let row: Vec<Int> = l
                    .iter()
                    .zip(u.iter())
                    .map(|(x, y)| Int::combine(&b, x, &a, y))
                    .collect();
                if !a.is_one() && !b.is_one() {
                    dark.push((shadow.len(), &(&a - &Int::ONE) * &(&b - &Int::ONE)));
                }
                shadow.push(row);
            }
        }
        if dark.is_empty() {
            return Ok(Some(shadow));
        }
        // the rational shadow with the other rows must imply every dark-shadow row
        let mut t = crate::simplex::Tableau::new(self.row_len() - 1);
        for e in &self.eqs {
            t.add_eq(e)?;
        }
        for r in self
            .ineqs
            .iter()
            .filter(|r| r[col].is_zero())
            .chain(shadow.iter().map(|r| &r[..]))
        {
            t.add_ineq(r)?;
        }
        if t.is_empty() {
            return Ok(Some(shadow));
        }
        for (k, margin) in dark {
            budget::tick(1)?;
            match t.minimize(&shadow[k])? {
                // the minimum, num/den, is at least the margin
                Opt::Value(num, den) if num >= &margin * &den => {}
                _ => return Ok(None),
            }
        }
        Ok(Some(shadow))
    }
}

impl BasicMap {
    /// Step 5: the existential (only in inequalities) with the fewest splinters is
    /// projected as the dark shadow and the splinters; the result is the rational
    /// shadow when that lies in their union, else their union when it coalesces into
    /// one disjunct; `None` when neither (or a piece keeps an existential).
    fn split_on_dark_shadow(&self, depth: usize) -> Result<Option<BasicMap>> {
        let mut best: Option<(usize, Vec<BasicMap>)> = None;
        for col in self.existential_columns() {
            if self.eqs.iter().any(|r| !r[col].is_zero()) {
                continue;
            }
            if let Some(s) = self.splinters(col) {
                if best.as_ref().is_none_or(|(_, b)| s.len() < b.len()) {
                    best = Some((col, s));
                }
            }
        }
        let Some((col, splinters)) = best else {
            return Ok(None);
        };
        let (real, dark) = self.shadows(col);
        let mut pieces = Vec::with_capacity(splinters.len() + 1);
        for p in std::iter::once(dark).chain(splinters) {
            let p = p.eliminate_exactly(depth - 1)?;
            if n_existentials(&p) > 0 {
                return Ok(None);
            }
            pieces.push(p);
        }
        let union = Map::new(self.space.clone(), pieces);
        let real = real.eliminate_exactly(depth - 1)?;
        if n_existentials(&real) == 0 && Map::from_basic(real.clone()).is_subset(&union)? {
            return Ok(Some(real));
        }
        let mut c = union.coalesce()?;
        Ok(match c.parts.len() {
            1 if n_existentials(&c.parts[0]) == 0 => c.parts.pop(),
            _ => None,
        })
    }

    /// The splinters of the existential at `col` (only in inequalities): for every lower
    /// bound `b·e >= L` and `0 <= j <= (m·b - m - b)/m`, with `m` the largest coefficient
    /// of an upper bound, the disjunct with `b·e = L + j` (Pugh's Omega test: a point of
    /// the projection outside the dark shadow is in one of them). `None` when there are
    /// more than [`MAX_SPLINTERS`].
    fn splinters(&self, col: usize) -> Option<Vec<BasicMap>> {
        let m = self
            .ineqs
            .iter()
            .filter(|r| r[col].is_neg())
            .map(|r| -&r[col])
            .max()?;
        let mut out = Vec::new();
        for l in self.ineqs.iter().filter(|r| r[col].is_pos()) {
            let b = &l[col];
            let top = (&(&(&m * b) - &m) - b).div_floor(&m);
            let top = top.to_i64()?;
            if out.len() + (top.max(-1) + 1) as usize > MAX_SPLINTERS {
                return None;
            }
            for j in 0..=top {
                let mut p = self.clone();
                let mut row = l.to_vec();
                row[0] = &row[0] - &Int::from(j);
                p.eqs.push(row);
                out.push(p);
            }
        }
        Some(out)
    }

    /// The rational shadow and the dark shadow of the existential at `col` (only in
    /// inequalities): every pair of bounds combined, in the dark one with the constant
    /// lowered by `(a - 1)(b - 1)`.
    fn shadows(&self, col: usize) -> (BasicMap, BasicMap) {
        let mut real = self.clone();
        let mut dark = self.clone();
        real.ineqs.retain(|r| r[col].is_zero());
        dark.ineqs.retain(|r| r[col].is_zero());
        for l in self.ineqs.iter().filter(|r| r[col].is_pos()) {
            for u in self.ineqs.iter().filter(|r| r[col].is_neg()) {
                let a = l[col].clone();
                let b = -&u[col];
                let row: Vec<Int> = l
                    .iter()
                    .zip(u.iter())
                    .map(|(x, y)| Int::combine(&b, x, &a, y))
                    .collect();
                let mut d = row.clone();
                d[0] = &d[0] - &(&(&a - &Int::ONE) * &(&b - &Int::ONE));
                real.ineqs.push(row);
                dark.ineqs.push(d);
            }
        }
        let k = col - self.off_div();
        real.remove_local(k);
        dark.remove_local(k);
        (real, dark)
    }
}

/// The number of locals the printer must quantify: the existentials, or all locals
/// when some definition refers to a later local.
fn n_existentials(b: &BasicMap) -> usize {
    if !b.divs_ordered() {
        return b.n_div();
    }
    b.divs.iter().filter(|d| d.is_none()).count()
}

/// The columns among `cols` where `row` is not zero.
fn nonzero_in(row: &[Int], cols: &[usize]) -> Vec<usize> {
    cols.iter()
        .copied()
        .filter(|&c| !row[c].is_zero())
        .collect()
}
