//! [`Aff`]: one quasi-affine function of the parameters and the dimensions
//! of a domain space.
//!
//! Storage (private to this module): a row `[c | params | dims | divs]` over
//! a common positive denominator, and a list of integer divisions
//! `floor(num / den)` whose numerators use the same layout and refer only to
//! earlier divisions. Every constructor and operation returns a *normalized*
//! value (see [`Aff::normalize`]), so structurally equal affs print the same.

use crate::error::{Error, Result};
use crate::int::{gcd_slice, Int};
use crate::matrix::dot;
use crate::space::{merge_params, Space};

/// An integer division `floor(num · (1, params, dims, divs) / den)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LocalDiv {
    /// Numerator `[c | params | dims | divs]`; zero on its own and later divs.
    pub(crate) num: Vec<Int>,
    /// Positive denominator.
    pub(crate) den: Int,
}

/// A quasi-affine function `(c + Σ a·p + Σ b·x + Σ e·floor(..)) / d` on a
/// domain space, with named parameters.
///
/// The domain space is a set space (for the function of a relation
/// `S[i] -> ...` it is `S[i]`; for a function of the parameters alone it is
/// [`Space::params_only`]). The denominator `d` may exceed 1: such an aff is
/// rational (`(i)/2`) as isl allows; [`floor`](Aff::floor) makes it integral.
///
/// ```
/// use presburger::{Aff, Int, Space, Tuple};
/// let dom = Space::set(vec!["n".to_string()], Tuple::named("S", &["i"]));
/// let i = Aff::var(&dom, 0).unwrap();
/// let n = Aff::param(&dom, 0).unwrap();
/// let f = i.add(&n).unwrap().floor_div(&Int::from(2)).unwrap();
/// assert_eq!(f.to_string(), "[n] -> { S[i] -> [(floor((n + i)/2))] }");
/// assert_eq!(f.eval(&[Int::from(4), Int::from(3)]).unwrap(), Int::from(3));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Aff {
    pub(crate) space: Space,
    pub(crate) divs: Vec<LocalDiv>,
    pub(crate) num: Vec<Int>,
    pub(crate) den: Int,
}

impl Aff {
    // ---------------------------------------------------------------- constructors

    /// The number of variable columns `params + dims` of a domain space.
    fn n_var(space: &Space) -> usize {
        space.n_param() + space.n_out()
    }

    /// Check that `space` is a set space (a domain); a relation space is
    /// replaced by its domain.
    fn domain_of(space: &Space) -> Space {
        if space.is_set() {
            space.clone()
        } else {
            space.domain_space()
        }
    }

    /// The constant `v` on a domain (a relation space stands for its domain).
    pub fn constant(space: &Space, v: impl Into<Int>) -> Aff {
        let space = Aff::domain_of(space);
        let mut num = vec![Int::ZERO; 1 + Aff::n_var(&space)];
        num[0] = v.into();
        Aff {
            space,
            divs: Vec::new(),
            num,
            den: Int::ONE,
        }
    }

    /// The zero function on a domain.
    pub fn zero(space: &Space) -> Aff {
        Aff::constant(space, 0)
    }

    /// The parameter at position `pos`; `Err` if there is none.
    pub fn param(space: &Space, pos: usize) -> Result<Aff> {
        let mut a = Aff::zero(space);
        if pos >= a.space.n_param() {
            return Err(Error::Invalid(format!(
                "aff: parameter position {pos} out of range"
            )));
        }
        a.num[1 + pos] = Int::ONE;
        Ok(a)
    }

    /// The domain dimension at position `pos`; `Err` if there is none.
    pub fn var(space: &Space, pos: usize) -> Result<Aff> {
        let mut a = Aff::zero(space);
        if pos >= a.space.n_out() {
            return Err(Error::Invalid(format!(
                "aff: dimension position {pos} out of range"
            )));
        }
        let np = a.space.n_param();
        a.num[1 + np + pos] = Int::ONE;
        Ok(a)
    }

    /// The parameter called `name`; `Err` if there is none.
    pub fn param_named(space: &Space, name: &str) -> Result<Aff> {
        let space = Aff::domain_of(space);
        match space.params.iter().position(|p| p == name) {
            Some(k) => Aff::param(&space, k),
            None => Err(Error::Invalid(format!("aff: no parameter named `{name}`"))),
        }
    }

    /// The domain dimension called `name`; `Err` if there is none or several.
    pub fn var_named(space: &Space, name: &str) -> Result<Aff> {
        let space = Aff::domain_of(space);
        let names = space.range.dim_names();
        let found: Vec<usize> = (0..names.len()).filter(|&k| names[k] == name).collect();
        match found.as_slice() {
            [k] => Aff::var(&space, *k),
            [] => Err(Error::Invalid(format!("aff: no dimension named `{name}`"))),
            _ => Err(Error::Invalid(format!(
                "aff: several dimensions are named `{name}`"
            ))),
        }
    }

    /// An aff from its raw parts: the numerator row `[c | params | dims]` and a
    /// positive denominator (no divisions). `Err` on a wrong length or `den <= 0`.
    pub fn from_row(space: &Space, row: Vec<Int>, den: Int) -> Result<Aff> {
        let space = Aff::domain_of(space);
        if row.len() != 1 + Aff::n_var(&space) {
            return Err(Error::Invalid(format!(
                "aff: row of length {} for {} variables",
                row.len(),
                Aff::n_var(&space)
            )));
        }
        if !den.is_pos() {
            return Err(Error::Invalid("aff: denominator must be positive".into()));
        }
        Ok(Aff {
            space,
            divs: Vec::new(),
            num: row,
            den,
        }
        .normalized())
    }

    // ---------------------------------------------------------------- accessors

    /// The domain space (a set space).
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The common denominator (1 for an integral aff).
    pub fn denominator(&self) -> &Int {
        &self.den
    }

    /// The constant term of the numerator.
    pub fn constant_num(&self) -> &Int {
        &self.num[0]
    }

    /// Coefficient (in the numerator) of the parameter at `pos`.
    pub fn param_coef(&self, pos: usize) -> Option<&Int> {
        (pos < self.space.n_param()).then(|| &self.num[1 + pos])
    }

    /// Coefficient (in the numerator) of the domain dimension at `pos`.
    pub fn var_coef(&self, pos: usize) -> Option<&Int> {
        (pos < self.space.n_out()).then(|| &self.num[1 + self.space.n_param() + pos])
    }

    /// The number of integer divisions the aff uses.
    pub fn n_div(&self) -> usize {
        self.divs.len()
    }

    /// Coefficient (in the numerator) of the division at `k`.
    pub fn div_coef(&self, k: usize) -> Option<&Int> {
        (k < self.divs.len()).then(|| &self.num[self.off_div() + k])
    }

    /// The division at `k` as `(numerator, denominator)`: its value is
    /// `floor(numerator / denominator)`, and the numerator (an aff on the same
    /// domain) uses only earlier divisions. For walking an aff as an
    /// expression tree (code generation).
    ///
    /// ```
    /// use presburger::{Aff, Int};
    /// let a: Aff = "{ [i] -> [(i + 3*floor((i)/4))] }".parse().unwrap();
    /// let (num, den) = a.div(0).unwrap();
    /// assert_eq!((num.to_string(), den), ("{ [i] -> [(i)] }".to_string(), Int::from(4)));
    /// assert_eq!(a.div_coef(0), Some(&Int::from(3)));
    /// ```
    pub fn div(&self, k: usize) -> Option<(Aff, Int)> {
        let d = self.divs.get(k)?;
        let col = self.off_div() + k;
        let mut num = d.num[..col].to_vec();
        num.resize(col, Int::ZERO);
        let divs = self.divs[..k]
            .iter()
            .map(|e| LocalDiv {
                num: e.num[..col].to_vec(),
                den: e.den.clone(),
            })
            .collect();
        let a = Aff {
            space: self.space.clone(),
            divs,
            num,
            den: Int::ONE,
        };
        Some((a.normalized(), d.den.clone()))
    }

    /// True if the aff is a constant (no variable, no division).
    pub fn is_constant(&self) -> bool {
        self.num[1..].iter().all(Int::is_zero)
    }

    /// True if the denominator is 1: the value is an integer everywhere.
    pub fn is_integral(&self) -> bool {
        self.den.is_one()
    }

    /// Column of the first division.
    pub(crate) fn off_div(&self) -> usize {
        1 + Aff::n_var(&self.space)
    }

    // ---------------------------------------------------------------- evaluation

    /// The exact value at a point `(params, dims)` as a reduced fraction
    /// `(numerator, positive denominator)`.
    pub fn eval_rational(&self, point: &[Int]) -> Result<(Int, Int)> {
        let nv = Aff::n_var(&self.space);
        if point.len() != nv {
            return Err(Error::Invalid(format!(
                "aff: point has {} coordinates, expected {nv}",
                point.len()
            )));
        }
        let mut vals: Vec<Int> = Vec::with_capacity(1 + nv + self.divs.len());
        vals.push(Int::ONE);
        vals.extend(point.iter().cloned());
        for d in &self.divs {
            let v = dot(&d.num, &vals).div_floor(&d.den);
            vals.push(v);
        }
        let n = dot(&self.num, &vals);
        let g = n.gcd(&self.den);
        if g.is_zero() || g.is_one() {
            Ok((n, self.den.clone()))
        } else {
            Ok((n.div_exact(&g), self.den.div_exact(&g)))
        }
    }

    /// The value at a point `(params, dims)`: an exact integer. `Err` if the
    /// point has the wrong length or the (rational) value is not an integer
    /// there; use [`eval_rational`](Self::eval_rational) for rational affs.
    pub fn eval(&self, point: &[Int]) -> Result<Int> {
        let (n, d) = self.eval_rational(point)?;
        if d.is_one() {
            Ok(n)
        } else {
            Err(Error::Invalid(format!(
                "aff: the value {n}/{d} is not an integer"
            )))
        }
    }

    // ---------------------------------------------------------------- alignment

    /// The same function over the parameters `params` (a superset of the
    /// current ones, in any order); `Err` if a parameter would be lost.
    pub fn align_params(&self, params: &[String]) -> Result<Aff> {
        if *self.space.params == *params {
            return Ok(self.clone());
        }
        let np = self.space.n_param();
        let mut map = Vec::with_capacity(self.num.len());
        map.push(0);
        for p in self.space.params.iter() {
            match params.iter().position(|q| q == p) {
                Some(k) => map.push(1 + k),
                None => {
                    return Err(Error::SpaceMismatch(format!(
                        "aff: parameter `{p}` missing from the aligned list"
                    )))
                }
            }
        }
        for k in 1 + np..self.num.len() {
            map.push(k - np + params.len());
        }
        let new_len = self.num.len() - np + params.len();
        let remap = |r: &[Int]| {
            let mut out = vec![Int::ZERO; new_len];
            for (k, v) in r.iter().enumerate() {
                out[map[k]] = v.clone();
            }
            out
        };
        Ok(Aff {
            space: self.space.with_params(params.to_vec()),
            divs: self
                .divs
                .iter()
                .map(|d| LocalDiv {
                    num: remap(&d.num),
                    den: d.den.clone(),
                })
                .collect(),
            num: remap(&self.num),
            den: self.den.clone(),
        })
    }

    /// Both operands over one parameter list; `Err` if their domains differ.
    pub(crate) fn aligned(&self, other: &Aff, what: &str) -> Result<(Aff, Aff)> {
        if !self.space.tuples_match(&other.space) {
            return Err(Error::SpaceMismatch(format!(
                "{what}: the affs live on different domains"
            )));
        }
        if self.space.params == other.space.params {
            return Ok((self.clone(), other.clone()));
        }
        let params = merge_params(&self.space.params, &other.space.params);
        Ok((self.align_params(&params)?, other.align_params(&params)?))
    }

    /// The divisions of both operands side by side: `(divs, self row, other row)`.
    fn unify(a: &Aff, b: &Aff) -> (Vec<LocalDiv>, Vec<Int>, Vec<Int>) {
        let off = a.off_div();
        let (na, nb) = (a.divs.len(), b.divs.len());
        let len = off + na + nb;
        let ext_a = |r: &[Int]| {
            let mut out = r.to_vec();
            out.resize(len, Int::ZERO);
            out
        };
        let ext_b = |r: &[Int]| {
            let mut out = vec![Int::ZERO; len];
            for (k, v) in r.iter().enumerate() {
                let to = if k < off { k } else { k + na };
                out[to] = v.clone();
            }
            out
        };
        let mut divs: Vec<LocalDiv> = a
            .divs
            .iter()
            .map(|d| LocalDiv {
                num: ext_a(&d.num),
                den: d.den.clone(),
            })
            .collect();
        divs.extend(b.divs.iter().map(|d| LocalDiv {
            num: ext_b(&d.num),
            den: d.den.clone(),
        }));
        (divs, ext_a(&a.num), ext_b(&b.num))
    }

    // ---------------------------------------------------------------- arithmetic

    /// `self + other` (parameters are aligned; `Err` if the domains differ).
    pub fn add(&self, other: &Aff) -> Result<Aff> {
        self.combine(&Int::ONE, other, &Int::ONE, "add")
    }

    /// `self - other`.
    pub fn sub(&self, other: &Aff) -> Result<Aff> {
        self.combine(&Int::ONE, other, &Int::from(-1), "sub")
    }

    /// `a·self + b·other`.
    pub(crate) fn combine(&self, a: &Int, other: &Aff, b: &Int, what: &str) -> Result<Aff> {
        let (x, y) = self.aligned(other, what)?;
        let (divs, rx, ry) = Aff::unify(&x, &y);
        // a·rx/dx + b·ry/dy = (a·dy·rx + b·dx·ry) / (dx·dy)
        let ca = a * &y.den;
        let cb = b * &x.den;
        let num = rx
            .iter()
            .zip(&ry)
            .map(|(u, v)| Int::combine(&ca, u, &cb, v))
            .collect();
        Ok(Aff {
            space: x.space,
            divs,
            num,
            den: &x.den * &y.den,
        }
        .normalized())
    }

    /// `-self`.
    pub fn neg(&self) -> Aff {
        let mut a = self.clone();
        a.num.iter_mut().for_each(|v| *v = -&*v);
        a
    }

    /// `v · self`.
    pub fn scale(&self, v: &Int) -> Aff {
        let mut a = self.clone();
        a.num.iter_mut().for_each(|x| *x = &*x * v);
        a.normalized()
    }

    /// `self / v` (a rational aff unless `v` divides it); `Err` if `v = 0`.
    pub fn scale_down(&self, v: &Int) -> Result<Aff> {
        if v.is_zero() {
            return Err(Error::Invalid("aff: division by zero".into()));
        }
        let mut a = self.clone();
        a.den = &a.den * &v.abs();
        if v.is_neg() {
            a.num.iter_mut().for_each(|x| *x = -&*x);
        }
        Ok(a.normalized())
    }

    /// `self + v`.
    pub fn add_constant(&self, v: &Int) -> Aff {
        let mut a = self.clone();
        a.num[0] = &a.num[0] + &(v * &a.den);
        a.normalized()
    }

    /// `floor(self)`: an integral aff (a new division unless already integral).
    pub fn floor(&self) -> Aff {
        if self.den.is_one() {
            return self.clone();
        }
        let mut a = self.clone();
        let col = a.num.len();
        let mut num = std::mem::take(&mut a.num);
        num.push(Int::ZERO);
        for d in &mut a.divs {
            d.num.push(Int::ZERO);
        }
        a.divs.push(LocalDiv {
            num,
            den: a.den.clone(),
        });
        let mut row = vec![Int::ZERO; col + 1];
        row[col] = Int::ONE;
        a.num = row;
        a.den = Int::ONE;
        a.normalized()
    }

    /// `ceil(self) = -floor(-self)`.
    pub fn ceil(&self) -> Aff {
        self.neg().floor().neg()
    }

    /// `floor(self / d)`; `Err` if `d = 0`.
    pub fn floor_div(&self, d: &Int) -> Result<Aff> {
        Ok(self.scale_down(d)?.floor())
    }

    /// `self mod m = self - m·floor(self / m)` for a positive `m` (a value in
    /// `[0, m)` for an integral aff); `Err` if `m <= 0`.
    pub fn modulo(&self, m: &Int) -> Result<Aff> {
        if !m.is_pos() {
            return Err(Error::Invalid("aff: modulus must be positive".into()));
        }
        let q = self.floor_div(m)?;
        self.combine(&Int::ONE, &q, &-m, "mod")
    }

    // ---------------------------------------------------------------- normalization

    /// This aff in normal form (see [`normalize`](Self::normalize)).
    pub(crate) fn normalized(mut self) -> Aff {
        self.normalize();
        self
    }

    /// Bring the aff to its normal form, in place:
    /// 1. each division `floor((g·e + c)/(g·d))` becomes `floor((e + floor(c/g))/d)`;
    /// 2. the integral part of each division is taken out: the coefficients
    ///    (and constant) of its numerator are reduced into `[0, den)` and the
    ///    quotient is added to the users (`floor((i - 1)/2)` becomes
    ///    `-1 + floor((1 + i)/2)`, as isl does);
    /// 3. divisions that became constant 0, and duplicates of earlier ones, are
    ///    replaced; unused divisions are removed;
    /// 4. the numerator and denominator are divided by their gcd.
    pub fn normalize(&mut self) {
        let off = self.off_div();
        let mut k = 0;
        while k < self.divs.len() {
            let col = off + k;
            // 1. common factor of the non-constant coefficients and the denominator
            let mut g = gcd_slice(&self.divs[k].num[1..]);
            g = g.gcd(&self.divs[k].den);
            if !g.is_zero() && !g.is_one() {
                let d = &mut self.divs[k];
                d.num[0] = d.num[0].div_floor(&g);
                for v in d.num[1..].iter_mut() {
                    *v = v.div_exact(&g);
                }
                d.den = d.den.div_exact(&g);
            }
            // 2. integral part
            let den = self.divs[k].den.clone();
            let mut quot = vec![Int::ZERO; self.num.len()];
            let mut any = false;
            for (j, v) in self.divs[k].num.iter_mut().enumerate() {
                let q = v.div_floor(&den);
                if !q.is_zero() {
                    *v = &*v - &(&q * &den);
                    quot[j] = q;
                    any = true;
                }
            }
            if any {
                self.substitute(col, &quot, false);
            }
            // 3. constant zero, or duplicate
            let zero = self.divs[k].num[1..].iter().all(Int::is_zero);
            let dup = (0..k).find(|&j| self.divs[j] == self.divs[k]);
            if zero {
                // value floor(c/den) with 0 <= c < den: zero
                self.substitute(col, &vec![Int::ZERO; self.num.len()], true);
            } else if let Some(j) = dup {
                let mut unit = vec![Int::ZERO; self.num.len()];
                unit[off + j] = Int::ONE;
                self.substitute(col, &unit, true);
            }
            k += 1;
        }
        // remove unused divisions (backwards: a used division keeps earlier ones alive)
        let nd = self.divs.len();
        let mut used = vec![false; nd];
        for k in (0..nd).rev() {
            used[k] = !self.num[off + k].is_zero()
                || (k + 1..nd).any(|j| used[j] && !self.divs[j].num[off + k].is_zero());
        }
        if used.iter().any(|u| !u) {
            let keep: Vec<usize> = (0..self.num.len())
                .filter(|&c| c < off || used[c - off])
                .collect();
            let pick = |r: &[Int]| keep.iter().map(|&c| r[c].clone()).collect::<Vec<Int>>();
            self.num = pick(&self.num);
            let divs = std::mem::take(&mut self.divs);
            self.divs = divs
                .into_iter()
                .zip(&used)
                .filter(|(_, u)| **u)
                .map(|(d, _)| LocalDiv {
                    num: pick(&d.num),
                    den: d.den,
                })
                .collect();
        }
        // 4. gcd of numerator and denominator
        let g = gcd_slice(&self.num).gcd(&self.den);
        if !g.is_zero() && !g.is_one() {
            self.num.iter_mut().for_each(|v| *v = v.div_exact(&g));
            self.den = self.den.div_exact(&g);
        }
        if self.num.iter().all(Int::is_zero) {
            self.den = Int::ONE;
        }
    }

    /// Users of column `col` (the main numerator and later divisions) get
    /// `coef · expr` added; with `clear`, column `col` is then zeroed in them
    /// (the division is replaced by `expr`), otherwise it stays (the division
    /// is `expr + itself`).
    fn substitute(&mut self, col: usize, expr: &[Int], clear: bool) {
        let off = self.off_div();
        let apply = |r: &mut Vec<Int>| {
            let c = r[col].clone();
            if c.is_zero() {
                return;
            }
            for (j, e) in expr.iter().enumerate() {
                if !e.is_zero() {
                    r[j].add_mul(&c, e);
                }
            }
            if clear {
                r[col] = Int::ZERO;
            }
        };
        // main numerator: over the denominator, coefficient `num[col]` multiplies the division
        apply(&mut self.num);
        for j in col - off + 1..self.divs.len() {
            apply(&mut self.divs[j].num);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::Tuple;

    fn ints(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    fn dom1() -> Space {
        Space::set(Vec::<String>::new(), Tuple::named("S", &["i"]))
    }

    #[test]
    fn floor_normalizes_like_isl() {
        let i = Aff::var(&dom1(), 0).unwrap();
        // floor((i - 1)/2) = -1 + floor((1 + i)/2)
        let f = i
            .add_constant(&Int::from(-1))
            .floor_div(&Int::from(2))
            .unwrap();
        assert_eq!(f.num, ints(&[-1, 0, 1]));
        assert_eq!(f.divs[0].num, ints(&[1, 1, 0]));
        // floor(2i/2) = i: no division left
        let g = i.scale(&Int::from(2)).floor_div(&Int::from(2)).unwrap();
        assert_eq!(g, i);
        for x in -7..8 {
            let p = [Int::from(x)];
            assert_eq!(f.eval(&p).unwrap(), Int::from((x - 1i64).div_euclid(2)));
        }
    }

    #[test]
    fn duplicates_merge_and_mod() {
        let i = Aff::var(&dom1(), 0).unwrap();
        let a = i.floor_div(&Int::from(3)).unwrap();
        let s = a.add(&a).unwrap();
        assert_eq!(s.n_div(), 1);
        let m = i.modulo(&Int::from(3)).unwrap();
        for x in -7..8 {
            assert_eq!(
                m.eval(&[Int::from(x)]).unwrap(),
                Int::from((x as i64).rem_euclid(3))
            );
        }
        let z = m.sub(&m).unwrap();
        assert!(z.is_constant() && z.n_div() == 0 && z.num[0].is_zero());
    }

    #[test]
    fn rational_eval() {
        let i = Aff::var(&dom1(), 0).unwrap();
        let h = i.scale_down(&Int::from(-4)).unwrap();
        assert_eq!(
            h.eval_rational(&[Int::from(6)]).unwrap(),
            (Int::from(-3), Int::from(2))
        );
        assert!(h.eval(&[Int::from(6)]).is_err());
        assert_eq!(h.eval(&[Int::from(8)]).unwrap(), Int::from(-2));
        assert!(i.scale_down(&Int::ZERO).is_err());
        assert!(i.eval(&[]).is_err());
    }
}
