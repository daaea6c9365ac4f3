//! One piece of a nested summation: a conjunction of affine constraints over
//! variables and integer divisions of them, carrying a polynomial summand,
//! and the builder that creates pieces with normalized divisions and rows.

use super::poly::Poly;
use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::{gcd_slice, Int};
use crate::space::{Space, Tuple};

/// `sum over the integer points x of the piece of poly(x, divs(x))`, where
/// the points are the values of the `n_var` variables satisfying the rows.
///
/// Rows and division numerators have columns `[1 | variables | divisions]`
/// (the full current width); division `k` is `floor(num_k / den_k)` and its
/// numerator refers only to variables and to divisions before it. The
/// divisions are functions of the variables, not unknowns: their defining
/// inequalities are implied, not stored. The polynomial has one variable per
/// column after the constant (variables, then divisions).
#[derive(Clone, Debug)]
pub(crate) struct Piece {
    pub(crate) n_var: usize,
    pub(crate) divs: Vec<(Vec<Int>, Int)>,
    pub(crate) eqs: Vec<Vec<Int>>,
    pub(crate) ineqs: Vec<Vec<Int>>,
    pub(crate) poly: Poly,
}

impl Piece {
    /// The piece as an engine basic set over `space` (which must have
    /// `n_var` variables), its divisions as defined locals.
    pub(crate) fn to_basic(&self, space: Space) -> BasicMap {
        let mut b = BasicMap::universe(space);
        debug_assert_eq!(b.row_len(), 1 + self.n_var);
        for (num, den) in &self.divs {
            let n = b.row_len();
            b.add_div(num[..n].to_vec(), den.clone());
        }
        for r in &self.eqs {
            b.add_eq(r.clone());
        }
        for r in &self.ineqs {
            b.add_ineq(r.clone());
        }
        b
    }

    fn anonymous_space(&self) -> Space {
        Space::set(Vec::<String>::new(), Tuple::anonymous(self.n_var))
    }

    /// Remove inequalities implied by the others (and by the divisions'
    /// definitions); `false` if the piece has no integer point.
    pub(crate) fn tidy(&mut self) -> Result<bool> {
        crate::budget::tick(1)?;
        let mut b = self.to_basic(self.anonymous_space());
        if b.is_rationally_empty()? || b.is_empty()? {
            return Ok(false);
        }
        b.remove_redundancies()?;
        let nd = self.divs.len();
        let off = 1 + self.n_var;
        let div_bounds: Vec<Vec<Int>> = self
            .divs
            .iter()
            .enumerate()
            .flat_map(|(k, (num, den))| {
                let mut num = num.clone();
                num.resize(off + nd, Int::ZERO);
                let d = crate::basic::Div {
                    num,
                    den: den.clone(),
                };
                d.bounds(off + k)
            })
            .collect();
        self.ineqs
            .retain(|r| b.ineqs.contains(r) && !div_bounds.contains(r));
        self.drop_integer_implied(&b.eqs, &div_bounds)?;
        Ok(true)
    }

    /// Remove the inequalities over divisions that the others imply at
    /// integer points: a row has an integer value there, so it is implied
    /// when its rational minimum subject to the other rows (and the
    /// divisions' definitions) is above `-1`. A chamber's condition
    /// `ceil(x/m) <= floor((x + n - 1)/m) + 1` beside `n >= 0` is such a
    /// row (its rational minimum is `-(m-1)/m`).
    fn drop_integer_implied(&mut self, eqs: &crate::Rows, div_bounds: &[Vec<Int>]) -> Result<()> {
        let off = 1 + self.n_var;
        let width = off + self.divs.len();
        let pad = |r: &[Int]| {
            let mut r = r.to_vec();
            r.resize(width, Int::ZERO);
            r
        };
        let mut k = 0;
        while k < self.ineqs.len() {
            if self.ineqs[k][off..].iter().all(Int::is_zero) {
                k += 1;
                continue;
            }
            crate::budget::tick(1)?;
            let mut t = crate::simplex::Tableau::new(width - 1);
            for e in eqs {
                t.add_eq(&pad(e))?;
            }
            for (i, r) in self.ineqs.iter().enumerate() {
                if i != k {
                    t.add_ineq(&pad(r))?;
                }
            }
            for r in div_bounds {
                t.add_ineq(&pad(r))?;
            }
            if t.is_empty() {
                return Ok(());
            }
            let implied = match t.minimize(&pad(&self.ineqs[k]))? {
                crate::simplex::Opt::Value(num, den) => num > -den,
                crate::simplex::Opt::Unbounded => false,
            };
            if implied {
                self.ineqs.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }
}

/// Builds a piece over `n_var` variables: divisions are normalized and
/// shared, rows are normalized by their gcd, and a row that is false on
/// its own marks the piece empty.
pub(crate) struct Builder {
    pub(crate) n_var: usize,
    pub(crate) divs: Vec<(Vec<Int>, Int)>,
    pub(crate) eqs: Vec<Vec<Int>>,
    pub(crate) ineqs: Vec<Vec<Int>>,
    pub(crate) empty: bool,
}

impl Builder {
    pub(crate) fn new(n_var: usize) -> Builder {
        Builder {
            n_var,
            divs: Vec::new(),
            eqs: Vec::new(),
            ineqs: Vec::new(),
            empty: false,
        }
    }

    pub(crate) fn width(&self) -> usize {
        1 + self.n_var + self.divs.len()
    }

    /// The unit expression of column `col` (`1 + variable` or a division's).
    pub(crate) fn unit(&self, col: usize) -> Vec<Int> {
        let mut e = vec![Int::ZERO; self.width()];
        e[col] = Int::ONE;
        e
    }

    /// `row[0] + sum_c row[c] * images[c - 1]`, an expression of the
    /// current width (`images` may be shorter than the width).
    pub(crate) fn subst(&self, row: &[Int], images: &[Vec<Int>]) -> Vec<Int> {
        let mut out = vec![Int::ZERO; self.width()];
        out[0] = row[0].clone();
        for (c, a) in row[1..].iter().enumerate() {
            if a.is_zero() {
                continue;
            }
            for (o, v) in out.iter_mut().zip(&images[c]) {
                o.add_mul(a, v);
            }
        }
        out
    }

    /// The expression of `floor(num / den)`: integer parts are taken out,
    /// common factors removed, and an equal division is shared.
    pub(crate) fn div(&mut self, num: &[Int], den: &Int) -> Vec<Int> {
        let w = self.width();
        let mut expr = vec![Int::ZERO; w];
        let mut rem = vec![Int::ZERO; w];
        for (c, v) in num.iter().enumerate() {
            expr[c] = v.div_floor(den);
            rem[c] = v - &(&expr[c] * den);
        }
        if rem[1..].iter().all(Int::is_zero) {
            return expr; // floor(rem[0] / den) = 0
        }
        let g = gcd_slice(&rem[1..]).gcd(den);
        let mut den = den.clone();
        if !g.is_one() {
            for v in rem[1..].iter_mut() {
                *v = v.div_exact(&g);
            }
            rem[0] = rem[0].div_floor(&g);
            den = den.div_exact(&g);
        }
        let col = match self.divs.iter().position(|(n, d)| {
            *d == den && n[..] == rem[..n.len()] && rem[n.len()..].iter().all(Int::is_zero)
        }) {
            Some(k) => 1 + self.n_var + k,
            None => {
                for r in self
                    .eqs
                    .iter_mut()
                    .chain(self.ineqs.iter_mut())
                    .chain(self.divs.iter_mut().map(|(n, _)| n))
                {
                    r.push(Int::ZERO);
                }
                rem.push(Int::ZERO);
                expr.push(Int::ZERO);
                self.divs.push((rem, den));
                w
            }
        };
        expr[col] = &expr[col] + &Int::ONE;
        expr
    }

    fn pad(&self, mut row: Vec<Int>) -> Vec<Int> {
        row.resize(self.width(), Int::ZERO);
        row
    }

    /// The division column if it is the only non-constant column of `row`.
    fn single_div(&self, row: &[Int]) -> Option<usize> {
        let mut nz = row[1..].iter().enumerate().filter(|(_, v)| !v.is_zero());
        match (nz.next(), nz.next()) {
            (Some((c, _)), None) if c >= self.n_var => Some(c - self.n_var),
            _ => None,
        }
    }

    pub(crate) fn add_ineq(&mut self, row: Vec<Int>) {
        let mut row = self.pad(row);
        // a·floor(f/d) + c >= 0 is a bound on f
        while let Some(k) = self.single_div(&row) {
            let col = 1 + self.n_var + k;
            let (a, c) = (row[col].clone(), row[0].clone());
            let (num, den) = self.divs[k].clone();
            row = self.pad(num);
            if a.is_pos() {
                let lo = (-&c).div_ceil(&a);
                row[0] = &row[0] - &(&den * &lo);
            } else {
                let hi = c.div_floor(&(-&a));
                for v in row.iter_mut() {
                    *v = -&*v;
                }
                row[0] = &(&row[0] + &(&den * &hi)) + &(&den - &Int::ONE);
            }
        }
        let g = gcd_slice(&row[1..]);
        if g.is_zero() {
            if row[0].is_neg() {
                self.empty = true;
            }
            return;
        }
        if !g.is_one() {
            for v in row[1..].iter_mut() {
                *v = v.div_exact(&g);
            }
            row[0] = row[0].div_floor(&g);
        }
        if !self.ineqs.contains(&row) {
            self.ineqs.push(row);
        }
    }

    pub(crate) fn add_eq(&mut self, row: Vec<Int>) {
        let mut row = self.pad(row);
        if let Some(k) = self.single_div(&row) {
            // a·floor(f/d) + c = 0: f in [d·v, d·v + d - 1] for v = -c/a
            let col = 1 + self.n_var + k;
            if !row[0].is_divisible_by(&row[col]) {
                self.empty = true;
                return;
            }
            let v = (-&row[0]).div_exact(&row[col]);
            let mut lo = vec![Int::ZERO; self.width()];
            lo[0] = -&v;
            lo[col] = Int::ONE;
            let mut hi = lo.clone();
            hi[0] = v;
            hi[col] = Int::from(-1);
            self.add_ineq(lo);
            self.add_ineq(hi);
            return;
        }
        let g = gcd_slice(&row[1..]);
        if g.is_zero() {
            if !row[0].is_zero() {
                self.empty = true;
            }
            return;
        }
        if !row[0].is_divisible_by(&g) {
            self.empty = true;
            return;
        }
        let first = row[1..].iter().find(|v| !v.is_zero()).unwrap();
        let g = if first.is_neg() { -g } else { g };
        if !g.is_one() {
            for v in row.iter_mut() {
                *v = v.div_exact(&g);
            }
        }
        if !self.eqs.contains(&row) {
            self.eqs.push(row);
        }
    }

    /// The polynomial of an expression (padded to the final width).
    pub(crate) fn poly_of(&self, e: &[Int]) -> Poly {
        let row = self.pad(e.to_vec());
        Poly::affine(self.width() - 1, &row)
    }

    /// The piece with summand `poly` (over the final width), or `None` if
    /// it has no integer point.
    pub(crate) fn finish(self, poly: Poly) -> Result<Option<Piece>> {
        if self.empty {
            return Ok(None);
        }
        let w = self.width();
        let pad = |mut r: Vec<Int>| {
            r.resize(w, Int::ZERO);
            r
        };
        let mut p = Piece {
            n_var: self.n_var,
            divs: self.divs.into_iter().map(|(n, d)| (pad(n), d)).collect(),
            eqs: self.eqs.into_iter().map(pad).collect(),
            ineqs: self.ineqs.into_iter().map(pad).collect(),
            poly,
        };
        Ok(if p.tidy()? { Some(p) } else { None })
    }
}
