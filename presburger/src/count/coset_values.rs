//! The coefficient tables of a quasi-polynomial on the cosets of its
//! period lattice (for module `periodic`, whose doc gives the mathematics).
//!
//! On the coset of `x` every division is `D_j = (π_j + σ_j·x)/d`, with
//! `σ_j = d·s_j` (`s_j` its slope) and `π_j = d·D_j(x) - σ_j·x` the same at
//! every point of the coset; every term of the quasi-polynomial is expanded
//! once in `x` and the `π_j` ([`expand`]), and a coset's tables are then the
//! `π`-parts of the expansion at its representative: one evaluation of the
//! divisions and of the `π`-monomials per coset. That evaluation runs in
//! machine integers where bounds on the values show that nothing overflows
//! (the representatives are small), in [`Int`] otherwise.

use super::qpoly::QuasiPolynomial;
use super::rat::Rat;
use crate::error::Result;
use crate::int::Int;
use std::collections::{BTreeMap, HashMap};

/// A quasi-polynomial compiled for repeated evaluation: sparse division
/// rows and sparse terms with integer coefficients over a common
/// denominator.
pub(crate) struct Compiled {
    k: usize,
    /// Per division: constant, sparse coefficients over the values
    /// (variables, then earlier divisions), denominator.
    pub(super) divs: Vec<(Int, Vec<(usize, Int)>, Int)>,
    /// Per term: coefficient times `scale`, sparse factors `(value, power)`.
    terms: Vec<(Int, Vec<(usize, u32)>)>,
    scale: Int,
}

impl Compiled {
    pub(crate) fn new(q: &QuasiPolynomial) -> Compiled {
        let k = q.space.n_vars();
        let divs = q
            .divs
            .iter()
            .map(|(num, den)| {
                let sparse = num[1..]
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| !c.is_zero())
                    .map(|(j, c)| (j, c.clone()))
                    .collect();
                (num[0].clone(), sparse, den.clone())
            })
            .collect();
        let scale = q
            .poly
            .terms
            .values()
            .fold(Int::ONE, |acc, c| acc.lcm(c.denom()));
        let terms = q
            .poly
            .terms
            .iter()
            .map(|(e, c)| {
                let f = c.mul(&Rat::from(scale.clone()));
                debug_assert!(f.is_integer());
                let sparse = e
                    .iter()
                    .enumerate()
                    .filter(|(_, &p)| p > 0)
                    .map(|(v, &p)| (v, p))
                    .collect();
                (f.numer().clone(), sparse)
            })
            .collect();
        Compiled {
            k,
            divs,
            terms,
            scale,
        }
    }

    /// The work of evaluating the divisions once.
    fn division_cost(&self) -> u64 {
        self.divs.iter().map(|(_, r, _)| 1 + r.len() as u64).sum()
    }

    /// The variables' and divisions' values at `x`.
    fn values(&self, x: &[Int]) -> Vec<Int> {
        let mut vals: Vec<Int> = x.to_vec();
        for (c, row, den) in &self.divs {
            let mut v = c.clone();
            for (j, a) in row {
                v.add_mul(a, &vals[*j]);
            }
            vals.push(v.div_floor(den));
        }
        vals
    }

    /// The polynomial's value at the given values.
    fn value(&self, vals: &[Int]) -> Rat {
        let mut s = Int::ZERO;
        for (c, factors) in &self.terms {
            let mut t = c.clone();
            for (v, p) in factors {
                for _ in 0..*p {
                    t = &t * &vals[*v];
                }
            }
            s = &s + &t;
        }
        Rat::new(s, self.scale.clone()).expect("a positive scale")
    }

    pub(crate) fn eval(&self, x: &[Int]) -> Rat {
        debug_assert_eq!(x.len(), self.k);
        self.value(&self.values(x))
    }
}

/// The slope of every division (see the module doc).
pub(crate) fn slopes(q: &QuasiPolynomial) -> Vec<Vec<Rat>> {
    let k = q.space.n_vars();
    let mut out: Vec<Vec<Rat>> = Vec::with_capacity(q.divs.len());
    for (num, den) in &q.divs {
        let mut s: Vec<Rat> = (0..k).map(|v| Rat::from(num[1 + v].clone())).collect();
        for (j, sj) in out.iter().enumerate() {
            if let Some(c) = num.get(1 + k + j).filter(|c| !c.is_zero()) {
                let c = Rat::from(c.clone());
                for (a, b) in s.iter_mut().zip(sj) {
                    *a = a.add(&b.mul(&c));
                }
            }
        }
        let d = Rat::from(den.clone());
        out.push(
            s.into_iter()
                .map(|a| a.div(&d).expect("a positive denominator"))
                .collect(),
        );
    }
    out
}

/// The total degree of `q` (variables and divisions each of degree one).
pub(crate) fn degree(q: &QuasiPolynomial) -> u32 {
    q.poly
        .terms
        .keys()
        .map(|e| e.iter().sum::<u32>())
        .max()
        .unwrap_or(0)
}

/// A monomial in the periodic parts `π_j = d·ψ_j` of the divisions:
/// `(j, power)`, increasing `j`.
pub(super) type PiMonomial = Vec<(usize, u32)>;

fn times_pi(m: &PiMonomial, j: usize) -> PiMonomial {
    let mut m = m.clone();
    match m.iter_mut().find(|(i, _)| *i == j) {
        Some((_, p)) => *p += 1,
        None => {
            m.push((j, 1));
            m.sort_unstable();
        }
    }
    m
}

/// `Q` on the coset of `x`: `Σ_μ x^μ·(Σ w·π^ν)/scale` with `π_j = d·D_j(x)
/// - σ_j·x` (`σ_j = d·s_j`), the same at every point of the coset.
struct Expansion {
    /// Per monomial `x^μ`: the integer coefficients of the `π`-monomials.
    parts: Vec<(Vec<u32>, Vec<(PiMonomial, Int)>)>,
    scale: Int,
}

/// Every term of `q` with its divisions written `D_j = (π_j + σ_j·x)/d`,
/// expanded. Charged to the budget.
fn expand(q: &QuasiPolynomial, sigma: &[Vec<Int>], d: &Int) -> Result<Expansion> {
    let k = q.space.n_vars();
    let mut acc: HashMap<(Vec<u32>, PiMonomial), Rat> = HashMap::new();
    for (e, c) in &q.poly.terms {
        let mut cur: Vec<(Vec<u32>, PiMonomial, Int)> =
            vec![(e[..k].to_vec(), Vec::new(), Int::ONE)];
        let mut den = Int::ONE;
        for (j, &p) in e[k..].iter().enumerate() {
            for _ in 0..p {
                den = &den * d;
                let mut next = Vec::with_capacity(cur.len() * (k + 1));
                for (mu, pm, w) in &cur {
                    next.push((mu.clone(), times_pi(pm, j), w.clone()));
                    for (v, s) in sigma[j].iter().enumerate() {
                        if !s.is_zero() {
                            let mut m = mu.clone();
                            m[v] += 1;
                            next.push((m, pm.clone(), w * s));
                        }
                    }
                }
                crate::budget::tick(next.len() as u64)?;
                cur = next;
            }
        }
        let f = c.div(&Rat::from(den)).expect("a positive power");
        crate::budget::tick(cur.len() as u64)?;
        for (mu, pm, w) in cur {
            let t = f.mul(&Rat::from(w));
            let e = acc.entry((mu, pm)).or_insert_with(Rat::zero);
            *e = e.add(&t);
        }
    }
    let scale = acc
        .values()
        .filter(|c| !c.is_zero())
        .fold(Int::ONE, |a, c| a.lcm(c.denom()));
    let mut parts: BTreeMap<Vec<u32>, Vec<(PiMonomial, Int)>> = BTreeMap::new();
    for ((mu, pm), c) in acc {
        if !c.is_zero() {
            let w = c.mul(&Rat::from(scale.clone()));
            debug_assert!(w.is_integer());
            parts.entry(mu).or_default().push((pm, w.numer().clone()));
        }
    }
    for list in parts.values_mut() {
        list.sort();
    }
    Ok(Expansion {
        parts: parts.into_iter().collect(),
        scale,
    })
}

/// The bit length of `|v|`.
fn bits(v: u128) -> u32 {
    128 - v.leading_zeros()
}

/// The largest magnitude of a coefficient and of a value that the machine
/// integer path accepts (products of a few of them stay far below 2^127).
const SMALL: i128 = 1 << 40;

/// The divisions in machine integers (`None` if a number is too large).
struct FastDivisions {
    divs: Vec<(i128, Vec<(usize, i128)>, i128)>,
    sigma: Vec<Vec<i128>>,
    d: i128,
}

impl FastDivisions {
    fn new(c: &Compiled, sigma: &[Vec<Int>], d: &Int) -> Option<FastDivisions> {
        let small = |v: &Int| v.to_i64().map(i128::from).filter(|v| v.abs() < SMALL);
        let mut divs = Vec::with_capacity(c.divs.len());
        for (c0, row, den) in &c.divs {
            let den = small(den).filter(|&v| v > 0)?;
            let row = row
                .iter()
                .map(|(j, a)| small(a).map(|a| (*j, a)))
                .collect::<Option<Vec<_>>>()?;
            divs.push((small(c0)?, row, den));
        }
        let sigma = sigma
            .iter()
            .map(|r| r.iter().map(small).collect::<Option<Vec<_>>>())
            .collect::<Option<Vec<_>>>()?;
        Some(FastDivisions {
            divs,
            sigma,
            d: small(d)?,
        })
    }

    /// The `π_j` at `x` (`None` if a value leaves the accepted range).
    fn pi(&self, x: &[i64]) -> Option<Vec<i128>> {
        let k = x.len();
        let mut vals: Vec<i128> = x.iter().map(|&v| i128::from(v)).collect();
        if vals.iter().any(|v| v.abs() >= SMALL) {
            return None;
        }
        for (c, row, den) in &self.divs {
            let mut v = *c;
            for (j, a) in row {
                v += a * vals[*j];
            }
            let q = v.div_euclid(*den);
            if q.abs() >= SMALL {
                return None;
            }
            vals.push(q);
        }
        Some(
            self.sigma
                .iter()
                .enumerate()
                .map(|(j, s)| {
                    let mut v = self.d * vals[k + j];
                    for (a, b) in s.iter().zip(&vals[..k]) {
                        v -= a * b;
                    }
                    v
                })
                .collect(),
        )
    }
}

/// Per monomial `x^μ` of the expansion: its `π`-free part and its
/// `π`-monomials, with integer coefficients over a common scale.
pub(super) struct Part {
    pub(super) fixed: Int,
    pub(super) terms: Vec<(PiMonomial, Int)>,
    /// The terms' coefficients in machine integers, when all are small.
    pub(super) small: Option<Vec<i128>>,
}

/// A quasi-polynomial ready for its coefficient tables: `c_μ(φ)·scale` at
/// any coset's representative.
pub(crate) struct CosetValues {
    pub(super) compiled: Compiled,
    pub(super) sigma: Vec<Vec<Int>>,
    pub(super) d: Int,
    monomials: Vec<Vec<u32>>,
    pub(super) parts: Vec<Part>,
    scale: Int,
    fast: Option<FastDivisions>,
    /// The highest total degree of a `π`-monomial, and the bit length of
    /// the largest small coefficient.
    max_degree: u32,
    max_bits: u32,
}

impl CosetValues {
    /// `q` with the division slopes `σ_j / d`. Charged to the budget.
    pub(crate) fn new(q: &QuasiPolynomial, sigma: Vec<Vec<Int>>, d: i64) -> Result<CosetValues> {
        let d = Int::from(d);
        let compiled = Compiled::new(q);
        let exp = expand(q, &sigma, &d)?;
        let mut monomials = Vec::with_capacity(exp.parts.len());
        let mut parts = Vec::with_capacity(exp.parts.len());
        let (mut max_degree, mut max_bits) = (0, 0);
        for (mu, list) in exp.parts {
            let mut fixed = Int::ZERO;
            let mut terms = Vec::with_capacity(list.len());
            for (m, w) in list {
                if m.is_empty() {
                    fixed = &fixed + &w;
                } else {
                    max_degree = max_degree.max(m.iter().map(|(_, e)| *e).sum());
                    terms.push((m, w));
                }
            }
            let small: Option<Vec<i128>> = terms
                .iter()
                .map(|(_, w)| w.to_i64().map(i128::from))
                .collect();
            if let Some(s) = &small {
                for w in s {
                    max_bits = max_bits.max(bits(w.unsigned_abs()));
                }
            }
            monomials.push(mu);
            parts.push(Part {
                fixed,
                terms,
                small,
            });
        }
        let fast = FastDivisions::new(&compiled, &sigma, &d);
        Ok(CosetValues {
            compiled,
            sigma,
            d,
            monomials,
            parts,
            scale: exp.scale,
            fast,
            max_degree,
            max_bits,
        })
    }

    /// The monomials `x^μ` of the tables, in the order of [`Self::at`].
    pub(crate) fn monomials(&self) -> &[Vec<u32>] {
        &self.monomials
    }

    /// The common denominator of the tables.
    pub(crate) fn scale(&self) -> &Int {
        &self.scale
    }

    /// The work of one coset (budget units: about one per four machine
    /// operations).
    pub(crate) fn cost(&self) -> u64 {
        let pi: u64 = self
            .parts
            .iter()
            .flat_map(|p| &p.terms)
            .map(|(m, _)| 1 + m.iter().map(|(_, e)| u64::from(*e)).sum::<u64>())
            .sum();
        1 + (self.compiled.division_cost() + pi) / 4
    }

    /// The value of the quasi-polynomial itself at `x`.
    pub(crate) fn eval(&self, x: &[Int]) -> Rat {
        self.compiled.eval(x)
    }

    /// `c_μ·scale` for every monomial at the coset of `x`.
    pub(crate) fn at(&self, x: &[i64]) -> Vec<Int> {
        if let Some(v) = self.at_fast(x) {
            return v;
        }
        let xi: Vec<Int> = x.iter().map(|&v| Int::from(v)).collect();
        let k = x.len();
        let vals = self.compiled.values(&xi);
        let pi: Vec<Int> = self
            .sigma
            .iter()
            .enumerate()
            .map(|(j, s)| {
                let mut v = &self.d * &vals[k + j];
                for (a, b) in s.iter().zip(&xi) {
                    v.add_mul(&-a, b);
                }
                v
            })
            .collect();
        self.parts
            .iter()
            .map(|p| {
                let mut v = p.fixed.clone();
                for (m, w) in &p.terms {
                    let mut t = w.clone();
                    for (j, e) in m {
                        for _ in 0..*e {
                            t = &t * &pi[*j];
                        }
                    }
                    v = &v + &t;
                }
                v
            })
            .collect()
    }

    /// [`Self::at`] in machine integers, if the bounds allow it.
    fn at_fast(&self, x: &[i64]) -> Option<Vec<Int>> {
        let pi = self.fast.as_ref()?.pi(x)?;
        let largest = pi.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0);
        let n_terms = self.parts.iter().map(|p| p.terms.len()).max().unwrap_or(0);
        // |Σ w·π^ν| < n_terms·2^max_bits·largest^max_degree
        if self.max_bits + self.max_degree * bits(largest) + bits(n_terms as u128) >= 126 {
            return None;
        }
        let mut out = Vec::with_capacity(self.parts.len());
        for p in &self.parts {
            let small = p.small.as_ref()?;
            let mut v: i128 = 0;
            for ((m, _), w) in p.terms.iter().zip(small) {
                let mut t = *w;
                for (j, e) in m {
                    for _ in 0..*e {
                        t *= pi[*j];
                    }
                }
                v += t;
            }
            out.push(&p.fixed + &Int::from(v));
        }
        Some(out)
    }
}
