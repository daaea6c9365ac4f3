//! Bounds of a piecewise quasi-polynomial over its domain (iscc's `ub` and
//! `lb`): a [`PwQPolynomialFold`] over the parameters and whether it is
//! exact (the bound is attained).
//!
//! What is computed, piece by piece (every case is exact):
//! - a quasi-polynomial that does not depend on the dimensions is its own
//!   bound where the domain has points;
//! - a quasi-affine one (degree at most one in the variables and
//!   divisions): its value `t` becomes a new dimension of the domain, the
//!   dimensions are projected out and the parametric lexicographic maximum
//!   (minimum) of `t` is the bound, a piecewise quasi-affine function of the
//!   parameters (parametric integer programming);
//! - any degree without parameters: the maximum over the points of the
//!   domain, enumerated in its bounding box (charged to the budget).
//!
//! A polynomial of degree two or more with parameters is refused
//! (`not supported`): Bernstein expansion would give a bound that is not
//! always attained, and the calculator reports bounds it can vouch for.

use std::fmt;

use super::poly::Poly;
use super::qpoly::{PwQPolynomial, QuasiPolynomial};
use super::rat::Rat;
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::{Space, Tuple};

/// A piecewise maximum (or minimum) of quasi-polynomials over the
/// parameters: on each domain the largest (smallest) of its list, printed
/// as isl prints a fold (`[n] -> { max((1 - n + n^2)) : n > 0 }`).
#[derive(Clone, Debug)]
pub struct PwQPolynomialFold {
    space: Space,
    max: bool,
    pieces: Vec<(Set, Vec<QuasiPolynomial>)>,
}

impl PwQPolynomialFold {
    /// True for a maximum, false for a minimum.
    pub fn is_max(&self) -> bool {
        self.max
    }

    /// The pieces: disjoint domains and the quasi-polynomials folded there.
    pub fn pieces(&self) -> &[(Set, Vec<QuasiPolynomial>)] {
        &self.pieces
    }

    /// The value at `point` (the parameters), `None` outside every domain.
    pub fn eval(&self, point: &[Int]) -> Result<Option<Rat>> {
        for (d, qs) in &self.pieces {
            if d.contains_point(point)? {
                let mut best: Option<Rat> = None;
                for q in qs {
                    let v = q.eval(point)?;
                    best = Some(match best {
                        Some(b) if (b >= v) == self.max => b,
                        _ => v,
                    });
                }
                return Ok(best);
            }
        }
        Ok(None)
    }
}

impl fmt::Display for PwQPolynomialFold {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.space.params.is_empty() {
            write!(f, "[{}] -> ", self.space.params.join(", "))?;
        }
        if self.pieces.is_empty() {
            return f.write_str("{  }");
        }
        let name = if self.max { "max" } else { "min" };
        let parts: Vec<String> = self
            .pieces
            .iter()
            .map(|(d, qs)| {
                let list: Vec<String> = qs.iter().map(|q| q.to_string()).collect();
                format!(
                    "{name}({}){}",
                    list.join(", "),
                    super::qpoly::condition_text(d)
                )
            })
            .collect();
        write!(f, "{{ {} }}", parts.join("; "))
    }
}

/// An upper bound of `f` over its domain as a function of the parameters,
/// and whether it is attained (see the [module](self)).
///
/// ```
/// use presburger::{upper_bound, Int, PwQPolynomial};
/// let f: PwQPolynomial = "[n] -> { [i] -> (n - 2i) : 0 <= 2i <= n }".parse().unwrap();
/// let (b, exact) = upper_bound(&f).unwrap();
/// assert!(exact);
/// assert_eq!(b.to_string(), "[n] -> { max(n) : n >= 0 }");
/// ```
pub fn upper_bound(f: &PwQPolynomial) -> Result<(PwQPolynomialFold, bool)> {
    bound(f, true)
}

/// A lower bound of `f` over its domain (see [`upper_bound`]).
pub fn lower_bound(f: &PwQPolynomial) -> Result<(PwQPolynomialFold, bool)> {
    bound(f, false)
}

fn bound(f: &PwQPolynomial, max: bool) -> Result<(PwQPolynomialFold, bool)> {
    bound_of(f, max).map_err(|e| match e {
        Error::Unbounded { .. } => Error::Invalid(format!(
            "unbounded: the quasi-polynomial has no {} bound on its domain",
            if max { "upper" } else { "lower" }
        )),
        e => e,
    })
}

fn bound_of(f: &PwQPolynomial, max: bool) -> Result<(PwQPolynomialFold, bool)> {
    let target = f.space().params_space();
    let mut fold = PwQPolynomialFold {
        space: target.clone(),
        max,
        pieces: Vec::new(),
    };
    let np = f.space().n_param();
    for (d, q) in f.pieces() {
        let d = d.remove_empty_parts()?;
        if d.basic_maps().is_empty() {
            continue;
        }
        let found: Vec<(Set, QuasiPolynomial)> = if !depends_on_dims(q, np) {
            vec![(d.params(), restricted(q, &target, np))]
        } else if q.poly.terms.keys().all(|e| e.iter().sum::<u32>() <= 1) {
            affine_bound(&d, q, max, &target)?
        } else if np == 0 {
            let v = enumerated(&d, q, max)?;
            vec![(
                Map::universe(target.clone()),
                QuasiPolynomial::constant(target.clone(), v),
            )]
        } else {
            let degree = q.poly.terms.keys().map(|e| e.iter().sum::<u32>()).max();
            return Err(Error::Invalid(format!(
                "not supported: {} of a quasi-polynomial of degree {} with parameters",
                if max { "ub" } else { "lb" },
                degree.unwrap_or(0)
            )));
        };
        for (s, qp) in found {
            fold.add_piece(s, qp)?;
        }
    }
    if np == 0 {
        // one value: the best of the candidates
        if let Some(v) = fold.eval(&[])? {
            fold.pieces = vec![(
                Map::universe(target.clone()),
                vec![QuasiPolynomial::constant(target, v)],
            )];
        }
    }
    Ok((fold, true))
}

impl PwQPolynomialFold {
    /// The fold of both (over the same parameters): the maximum (minimum)
    /// of the two where both are defined.
    pub fn fold(&self, other: &PwQPolynomialFold) -> Result<PwQPolynomialFold> {
        if self.space != other.space || self.max != other.max {
            return Err(Error::Invalid("folds of different spaces or kinds".into()));
        }
        let mut out = self.clone();
        for (d, qs) in &other.pieces {
            for q in qs {
                out.add_piece(d.clone(), q.clone())?;
            }
        }
        Ok(out)
    }

    /// Fold `q` on `s` into the pieces (the common refinement).
    fn add_piece(&mut self, s: Set, q: QuasiPolynomial) -> Result<()> {
        let s = s.coalesce()?;
        let pieces = std::mem::take(&mut self.pieces);
        let with = |qs: &Vec<QuasiPolynomial>| -> Result<Vec<QuasiPolynomial>> {
            let mut qs = qs.clone();
            if !qs.contains(&q) {
                qs.push(q.clone());
            }
            Ok(qs)
        };
        let next = super::refine(pieces, &s, with, vec![q.clone()])?;
        self.pieces = next;
        Ok(())
    }
}

/// True if `q` varies with a dimension (directly or through a division).
fn depends_on_dims(q: &QuasiPolynomial, np: usize) -> bool {
    let n = q.space.n_vars();
    let mut dep: Vec<bool> = Vec::with_capacity(q.divs.len());
    for (num, _) in &q.divs {
        let d = num[1 + np..1 + n].iter().any(|c| !c.is_zero())
            || dep
                .iter()
                .enumerate()
                .any(|(j, &dj)| dj && !num[1 + n + j].is_zero());
        dep.push(d);
    }
    q.poly.terms.keys().any(|e| {
        e[np..n].iter().any(|&x| x > 0) || dep.iter().enumerate().any(|(j, &dj)| dj && e[n + j] > 0)
    })
}

/// `q` (which does not depend on the dimensions) over the parameter space.
fn restricted(q: &QuasiPolynomial, target: &Space, np: usize) -> QuasiPolynomial {
    let n = q.space.n_vars();
    let keep = |r: &[Int]| -> Vec<Int> {
        let mut out = r[..1 + np].to_vec();
        out.extend(r[1 + n..].iter().cloned());
        out
    };
    let divs = q
        .divs
        .iter()
        .map(|(num, den)| (keep(num), den.clone()))
        .collect();
    let nd = q.divs.len();
    let images: Vec<Option<usize>> = (0..n + nd)
        .map(|k| {
            if k < np {
                Some(k)
            } else if k < n {
                None
            } else {
                Some(k - n + np)
            }
        })
        .collect();
    QuasiPolynomial {
        space: target.clone(),
        divs,
        poly: q.poly.renamed(&images, np + nd),
    }
    .pruned()
}

/// The exact bound of a quasi-affine `q` over `d`, by parametric integer
/// programming on `{ [t, x] : x in d and t = L q(x) }`.
fn affine_bound(
    d: &Set,
    q: &QuasiPolynomial,
    max: bool,
    target: &Space,
) -> Result<Vec<(Set, QuasiPolynomial)>> {
    let np = target.n_param();
    let n = q.space.n_vars();
    let nd = n - np;
    let mut lcm = Int::ONE;
    for c in q.poly.terms.values() {
        lcm = lcm.lcm(c.denom());
    }
    // L q over [1 | variables | divisions], integral
    let mut numer = vec![Int::ZERO; 1 + n + q.divs.len()];
    for (e, c) in &q.poly.terms {
        let v = c.numer() * &lcm.div_exact(c.denom());
        match e.iter().position(|&x| x == 1) {
            Some(k) => numer[1 + k] = v,
            None => numer[0] = v,
        }
    }
    let space = Space::set(target.params.clone(), Tuple::anonymous(1 + nd));
    let mut image = Map::empty(space.clone());
    for b in d.basic_maps() {
        let mut bm = BasicMap::universe(space.clone());
        let nl = b.n_div();
        for _ in 0..nl {
            bm.add_existential();
        }
        // [1 | params | x | locals] -> [1 | params | t | x | locals]
        let shift = |r: &[Int]| {
            let mut out = r[..1 + np].to_vec();
            out.push(Int::ZERO);
            out.extend(r[1 + np..].iter().cloned());
            out
        };
        for r in b.eqs() {
            bm.add_eq(shift(r));
        }
        for r in b.ineqs() {
            bm.add_ineq(shift(r));
        }
        // the divisions of q, as locals after the domain's
        let mut cols: Vec<usize> = Vec::new();
        let place = |r: &[Int], cols: &[usize], len: usize| {
            let mut out = vec![Int::ZERO; len];
            out[0] = r[0].clone();
            for k in 0..np {
                out[1 + k] = r[1 + k].clone();
            }
            for k in 0..nd {
                out[2 + np + k] = r[1 + np + k].clone();
            }
            for (j, &c) in cols.iter().enumerate() {
                if let Some(v) = r.get(1 + n + j) {
                    out[c] = v.clone();
                }
            }
            out
        };
        for (num, den) in &q.divs {
            let row = place(num, &cols, bm.row_len());
            cols.push(bm.add_div(row, den.clone()));
        }
        let mut eq = place(&numer, &cols, bm.row_len());
        eq[1 + np] = Int::from(-1);
        bm.add_eq(eq);
        image.add_basic(bm)?;
    }
    let values = image.project_out(1, nd)?;
    let opt = if max {
        values.lexmax_pw_multi_aff()?
    } else {
        values.lexmin_pw_multi_aff()?
    };
    let mut out = Vec::new();
    for (dom, ma) in &opt.pieces {
        let aff = &ma.affs[0];
        let ndiv = aff.divs.len();
        let divs = aff
            .divs
            .iter()
            .map(|ld| (ld.num.clone(), ld.den.clone()))
            .collect();
        let scale = Rat::new(Int::ONE, &aff.den * &lcm).expect("positive denominator");
        let poly = Poly::affine(np + ndiv, &aff.num).scale(&scale);
        let qp = QuasiPolynomial {
            space: target.clone(),
            divs,
            poly,
        }
        .pruned();
        out.push((dom.clone(), qp));
    }
    Ok(out)
}

/// The largest (smallest) value of `q` at the points of `d` (no parameters).
fn enumerated(d: &Set, q: &QuasiPolynomial, max: bool) -> Result<Rat> {
    let n = d.space().n_vars();
    let mut lo = Vec::with_capacity(n);
    let mut hi = Vec::with_capacity(n);
    for k in 0..n {
        // the range of dimension k: the others projected out
        let only = d.project_out(k + 1, n - k - 1)?.project_out(0, k)?;
        let at = |m: Map| -> Result<Int> {
            let b = m.basic_maps().first().cloned();
            let b = b.ok_or_else(|| Error::Invalid("bound: empty domain".into()))?;
            Ok(b.sample()?.map(|p| p[0].clone()).unwrap_or(Int::ZERO))
        };
        lo.push(at(only.lexmin()?)?);
        hi.push(at(only.lexmax()?)?);
    }
    let mut point = lo.clone();
    let mut best: Option<Rat> = None;
    loop {
        crate::budget::tick(1)?;
        if d.contains_point(&point)? {
            let v = q.eval(&point)?;
            best = Some(match best {
                Some(b) if (b >= v) == max => b,
                _ => v,
            });
        }
        let mut k = n;
        loop {
            if k == 0 {
                return best.ok_or_else(|| Error::Invalid("bound: empty domain".into()));
            }
            k -= 1;
            if point[k] < hi[k] {
                point[k] = &point[k] + &Int::ONE;
                break;
            }
            point[k] = lo[k].clone();
        }
    }
}
