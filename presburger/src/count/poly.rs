//! Multivariate polynomials with exact rational coefficients, and the
//! power sums (Faulhaber's formulas) that nested summation needs.

use std::collections::BTreeMap;

use super::rat::Rat;
use crate::error::Result;
use crate::int::Int;

/// A polynomial in `n_var` variables: a map from exponent vectors to
/// non-zero rational coefficients.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) struct Poly {
    pub(crate) n_var: usize,
    pub(crate) terms: BTreeMap<Vec<u32>, Rat>,
}

impl Poly {
    pub(crate) fn zero(n_var: usize) -> Poly {
        Poly {
            n_var,
            terms: BTreeMap::new(),
        }
    }

    pub(crate) fn constant(n_var: usize, c: Rat) -> Poly {
        let mut p = Poly::zero(n_var);
        if !c.is_zero() {
            p.terms.insert(vec![0; n_var], c);
        }
        p
    }

    pub(crate) fn var(n_var: usize, k: usize) -> Poly {
        let mut e = vec![0; n_var];
        e[k] = 1;
        let mut p = Poly::zero(n_var);
        p.terms.insert(e, Rat::one());
        p
    }

    /// The affine polynomial `row[0] + sum row[1 + k] * x_k`.
    pub(crate) fn affine(n_var: usize, row: &[Int]) -> Poly {
        let mut p = Poly::constant(n_var, Rat::from(row[0].clone()));
        for (k, c) in row[1..].iter().enumerate() {
            if !c.is_zero() {
                let mut e = vec![0; n_var];
                e[k] = 1;
                p.terms.insert(e, Rat::from(c.clone()));
            }
        }
        p
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// The constant value if the polynomial has no variable term.
    pub(crate) fn as_constant(&self) -> Option<Rat> {
        match self.terms.len() {
            0 => Some(Rat::zero()),
            1 => {
                let (e, c) = self.terms.iter().next().unwrap();
                e.iter().all(|&x| x == 0).then(|| c.clone())
            }
            _ => None,
        }
    }

    fn add_term(&mut self, e: Vec<u32>, c: Rat) {
        if c.is_zero() {
            return;
        }
        match self.terms.get_mut(&e) {
            Some(v) => {
                let s = v.add(&c);
                if s.is_zero() {
                    self.terms.remove(&e);
                } else {
                    *v = s;
                }
            }
            None => {
                self.terms.insert(e, c);
            }
        }
    }

    pub(crate) fn add(&self, o: &Poly) -> Poly {
        let mut r = self.clone();
        for (e, c) in &o.terms {
            r.add_term(e.clone(), c.clone());
        }
        r
    }

    pub(crate) fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.scale(&Rat::from(-1)))
    }

    pub(crate) fn scale(&self, c: &Rat) -> Poly {
        if c.is_zero() {
            return Poly::zero(self.n_var);
        }
        Poly {
            n_var: self.n_var,
            terms: self
                .terms
                .iter()
                .map(|(e, v)| (e.clone(), v.mul(c)))
                .collect(),
        }
    }

    /// The product, charged to the operation budget (one unit per pair of
    /// terms: products of quasi-polynomials with many floor terms grow fast).
    pub(crate) fn mul(&self, o: &Poly) -> Result<Poly> {
        crate::budget::tick((self.terms.len() * o.terms.len()) as u64)?;
        let mut r = Poly::zero(self.n_var);
        for (e1, c1) in &self.terms {
            for (e2, c2) in &o.terms {
                let e: Vec<u32> = e1.iter().zip(e2).map(|(a, b)| a + b).collect();
                r.add_term(e, c1.mul(c2));
            }
        }
        Ok(r)
    }

    /// The polynomial with variable `k` renamed to `map[k]` of a space of
    /// `n_new` variables (`None`: the variable is zero). Linear in the
    /// number of terms.
    pub(crate) fn renamed(&self, map: &[Option<usize>], n_new: usize) -> Poly {
        let mut r = Poly::zero(n_new);
        r.add_renamed(self, map);
        r
    }

    /// `self += o` with `o`'s variable `k` renamed to `map[k]` (`None`:
    /// the variable is zero), as [`renamed`](Self::renamed) then added.
    pub(crate) fn add_renamed(&mut self, o: &Poly, map: &[Option<usize>]) {
        'terms: for (e, c) in &o.terms {
            let mut e2 = vec![0; self.n_var];
            for (k, &x) in e.iter().enumerate() {
                if x == 0 {
                    continue;
                }
                match map[k] {
                    Some(j) => e2[j] += x,
                    None => continue 'terms,
                }
            }
            self.add_term(e2, c.clone());
        }
    }

    /// The polynomial with variables `a` and `b` exchanged.
    pub(crate) fn swapped(&self, a: usize, b: usize) -> Poly {
        Poly {
            n_var: self.n_var,
            terms: self
                .terms
                .iter()
                .map(|(e, c)| {
                    let mut e = e.clone();
                    e.swap(a, b);
                    (e, c.clone())
                })
                .collect(),
        }
    }

    /// The value at a point (one rational per variable).
    pub(crate) fn eval(&self, x: &[Rat]) -> Rat {
        let mut s = Rat::zero();
        for (e, c) in &self.terms {
            let mut t = c.clone();
            for (k, &p) in e.iter().enumerate() {
                for _ in 0..p {
                    t = t.mul(&x[k]);
                }
            }
            s = s.add(&t);
        }
        s
    }

    /// Substitute every variable `k` by `images[k]` (polynomials in a new
    /// variable space of `n_new` variables).
    /// Charged to the operation budget (through the products, and one unit
    /// per term).
    pub(crate) fn compose(&self, images: &[Poly], n_new: usize) -> Result<Poly> {
        let mut powers: Vec<Vec<Poly>> = images
            .iter()
            .map(|p| vec![Poly::constant(n_new, Rat::one()), p.clone()])
            .collect();
        let mut r = Poly::zero(n_new);
        for (e, c) in &self.terms {
            crate::budget::tick(1)?;
            let mut t = Poly::constant(n_new, c.clone());
            for (k, &p) in e.iter().enumerate() {
                if p == 0 {
                    continue;
                }
                while powers[k].len() <= p as usize {
                    let next = powers[k].last().unwrap().mul(&images[k])?;
                    powers[k].push(next);
                }
                t = t.mul(&powers[k][p as usize])?;
            }
            r.add_assign(&t)?;
        }
        Ok(r)
    }

    /// `self += o`, charged to the operation budget (one unit per term of `o`).
    pub(crate) fn add_assign(&mut self, o: &Poly) -> Result<()> {
        crate::budget::tick(o.terms.len() as u64)?;
        for (e, c) in &o.terms {
            self.add_term(e.clone(), c.clone());
        }
        Ok(())
    }

    /// `sum_{x_k = lo}^{hi} self`, where `x_k` is the variable `k` of `self`
    /// and the result lives in a new space: `images` maps the other
    /// variables (the entry `k` is ignored), `lo`/`hi` are polynomials of
    /// the new space. Valid whenever `lo <= hi + 1`.
    pub(crate) fn sum_over(
        &self,
        k: usize,
        lo: &Poly,
        hi: &Poly,
        images: &[Poly],
        n_new: usize,
    ) -> Result<Poly> {
        let lo_minus_one = lo.sub(&Poly::constant(n_new, Rat::one()));
        let mut cache: Vec<Option<Poly>> = Vec::new();
        let mut r = Poly::zero(n_new);
        // coefficient of x_k^p, as a polynomial in the other variables
        let mut by_power: BTreeMap<u32, Poly> = BTreeMap::new();
        for (e, c) in &self.terms {
            let mut e2 = e.clone();
            let p = e2[k];
            e2[k] = 0;
            by_power
                .entry(p)
                .or_insert_with(|| Poly::zero(self.n_var))
                .add_term(e2, c.clone());
        }
        for (p, coef) in by_power {
            let p = p as usize;
            if cache.len() <= p {
                cache.resize(p + 1, None);
            }
            if cache[p].is_none() {
                let s = power_sum(p);
                let v = s
                    .compose(std::slice::from_ref(hi), n_new)?
                    .sub(&s.compose(std::slice::from_ref(&lo_minus_one), n_new)?);
                cache[p] = Some(v);
            }
            let c = coef.compose(images, n_new)?;
            r.add_assign(&c.mul(cache[p].as_ref().unwrap())?)?;
        }
        Ok(r)
    }
}

/// Bernoulli numbers `B_0 .. B_n` (with `B_1 = -1/2`).
fn bernoulli(n: usize) -> Vec<Rat> {
    let mut b = vec![Rat::one()];
    for m in 1..=n {
        // sum_{j=0}^{m} C(m+1, j) B_j = 0
        let mut s = Rat::zero();
        let mut binom = Int::ONE; // C(m+1, j)
        for (j, bj) in b.iter().enumerate() {
            s = s.add(&bj.mul(&Rat::from(binom.clone())));
            binom = (&binom * &Int::from((m + 1 - j) as i64)).div_exact(&Int::from((j + 1) as i64));
        }
        b.push(s.neg().div(&Rat::from((m + 1) as i64)).unwrap());
    }
    b
}

/// The univariate polynomial `S_p(x) = sum_{v=0}^{x} v^p` (Faulhaber), so
/// that `sum_{v=a}^{b} v^p = S_p(b) - S_p(a - 1)` for all integers `a <= b + 1`.
pub(crate) fn power_sum(p: usize) -> Poly {
    // sum_{v=1}^{x} v^p = 1/(p+1) sum_{j=0}^{p} C(p+1, j) B+_j x^{p+1-j}, B+_1 = +1/2
    let b = bernoulli(p);
    let mut r = Poly::zero(1);
    let mut binom = Int::ONE;
    for (j, bj) in b.iter().enumerate() {
        let bj = if j == 1 { bj.neg() } else { bj.clone() };
        let c = bj
            .mul(&Rat::from(binom.clone()))
            .div(&Rat::from((p + 1) as i64))
            .unwrap();
        r.add_term(vec![(p + 1 - j) as u32], c);
        binom = (&binom * &Int::from((p + 1 - j) as i64)).div_exact(&Int::from((j + 1) as i64));
    }
    if p == 0 {
        r.add_term(vec![0], Rat::one()); // the term v = 0 (0^0 = 1)
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_sums_match_direct_sums() {
        for p in 0..8 {
            let s = power_sum(p);
            for x in -6i64..12 {
                // S_p(x) - S_p(x-1) = x^p
                let a = s.eval(&[Rat::from(x)]);
                let b = s.eval(&[Rat::from(x - 1)]);
                let mut xp = Rat::one();
                for _ in 0..p {
                    xp = xp.mul(&Rat::from(x));
                }
                assert_eq!(a.sub(&b), xp, "p = {p}, x = {x}");
            }
            let direct: i64 = (0..=10i64).map(|v| v.pow(p as u32)).sum();
            assert_eq!(s.eval(&[Rat::from(10)]), Rat::from(direct));
        }
    }
}
