//! Quasi-polynomials (polynomials in variables and integer divisions of
//! them) and piecewise quasi-polynomials, printed in iscc's notation.

use std::fmt;

use super::poly::Poly;
use super::rat::Rat;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::Space;

/// A quasi-polynomial over the parameters and dimensions of a set space:
/// a polynomial with rational coefficients in the variables and in integer
/// divisions `floor(e / d)` of affine expressions `e` of the variables and
/// of earlier divisions.
///
/// ```
/// use presburger::{card, Int, Set};
/// let s: Set = "[n] -> { [i] : 0 <= 2i <= n }".parse().unwrap();
/// let c = card(&s).unwrap();
/// assert_eq!(c.to_string(), "[n] -> { (1 + floor((n)/2)) : n >= 0 }");
/// assert_eq!(c.eval(&[Int::from(7)]).unwrap(), Int::from(4).into());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct QuasiPolynomial {
    pub(crate) space: Space,
    /// `(numerator, denominator)`; numerators over `[1 | variables | divisions]`.
    pub(crate) divs: Vec<(Vec<Int>, Int)>,
    pub(crate) poly: Poly,
}

impl QuasiPolynomial {
    /// The constant `c` over `space` (a set space).
    pub fn constant(space: Space, c: Rat) -> QuasiPolynomial {
        let n = space.n_vars();
        QuasiPolynomial {
            space,
            divs: Vec::new(),
            poly: Poly::constant(n, c),
        }
    }

    /// The affine function `row[0] + sum row[1 + k] * x_k` over `space`
    /// (one coefficient per parameter and dimension).
    pub fn affine(space: Space, row: &[Int]) -> Result<QuasiPolynomial> {
        let n = space.n_vars();
        if row.len() != 1 + n {
            return Err(Error::Invalid(
                "quasi-polynomial: wrong number of coefficients".into(),
            ));
        }
        Ok(QuasiPolynomial {
            space,
            divs: Vec::new(),
            poly: Poly::affine(n, row),
        })
    }

    /// The set space of the variables.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// True for the zero polynomial.
    pub fn is_zero(&self) -> bool {
        self.poly.is_zero()
    }

    /// The constant value, if the quasi-polynomial does not vary.
    pub fn as_constant(&self) -> Option<Rat> {
        self.poly.as_constant()
    }

    /// The value at `point` (parameters, then dimensions).
    pub fn eval(&self, point: &[Int]) -> Result<Rat> {
        let n = self.space.n_vars();
        if point.len() != n {
            return Err(Error::Invalid(format!(
                "quasi-polynomial: expected {n} coordinates, got {}",
                point.len()
            )));
        }
        let mut vals: Vec<Int> = point.to_vec();
        for (num, den) in &self.divs {
            let mut v = num[0].clone();
            for (c, x) in num[1..].iter().zip(&vals) {
                v.add_mul(c, x);
            }
            vals.push(v.div_floor(den));
        }
        let vals: Vec<Rat> = vals.into_iter().map(Rat::from).collect();
        Ok(self.poly.eval(&vals))
    }

    /// Both operands over one variable list: the divisions of `other` after
    /// those of `self`; returns the two polynomials re-indexed.
    fn joined(&self, other: &QuasiPolynomial) -> Result<(Vec<(Vec<Int>, Int)>, Poly, Poly)> {
        if self.space != other.space {
            return Err(Error::Invalid(
                "quasi-polynomials over different spaces".into(),
            ));
        }
        let n = self.space.n_vars();
        let (na, nb) = (self.divs.len(), other.divs.len());
        let total = n + na + nb;
        let width = 1 + total;
        let mut divs: Vec<(Vec<Int>, Int)> = self
            .divs
            .iter()
            .map(|(num, d)| {
                let mut num = num.clone();
                num.resize(width, Int::ZERO);
                (num, d.clone())
            })
            .collect();
        for (num, d) in &other.divs {
            let mut row = vec![Int::ZERO; width];
            row[..1 + n].clone_from_slice(&num[..1 + n]);
            for j in 0..num.len() - 1 - n {
                row[1 + n + na + j] = num[1 + n + j].clone();
            }
            divs.push((row, d.clone()));
        }
        let ia: Vec<Option<usize>> = (0..n + na).map(Some).collect();
        let ib: Vec<Option<usize>> = (0..n).chain(n + na..total).map(Some).collect();
        Ok((
            divs,
            self.poly.renamed(&ia, total),
            other.poly.renamed(&ib, total),
        ))
    }

    /// The sum of two quasi-polynomials over the same space.
    pub fn add(&self, other: &QuasiPolynomial) -> Result<QuasiPolynomial> {
        let (divs, a, b) = self.joined(other)?;
        Ok(QuasiPolynomial {
            space: self.space.clone(),
            divs,
            poly: a.add(&b),
        }
        .pruned())
    }

    /// The product of two quasi-polynomials over the same space.
    pub fn mul(&self, other: &QuasiPolynomial) -> Result<QuasiPolynomial> {
        let (divs, a, b) = self.joined(other)?;
        Ok(QuasiPolynomial {
            space: self.space.clone(),
            divs,
            poly: a.mul(&b)?,
        }
        .pruned())
    }

    /// `floor(self)`, for a quasi-affine `self` (degree at most one in the
    /// variables and divisions); `Err` otherwise.
    pub fn floor(&self) -> Result<QuasiPolynomial> {
        if self.poly.terms.keys().any(|e| e.iter().sum::<u32>() > 1) {
            return Err(Error::Invalid(
                "floor of a quasi-polynomial of degree above one".into(),
            ));
        }
        let n = self.space.n_vars();
        let nd = self.divs.len();
        // the new division's row is over [1 | variables | divisions]
        let total = 1 + n + nd;
        let mut den = Int::ONE;
        for c in self.poly.terms.values() {
            den = den.lcm(c.denom());
        }
        let mut row = vec![Int::ZERO; total];
        for (e, c) in &self.poly.terms {
            let v = c.numer() * &den.div_exact(c.denom());
            match e.iter().position(|&x| x == 1) {
                Some(k) => row[1 + k] = v,
                None => row[0] = v,
            }
        }
        let mut divs: Vec<(Vec<Int>, Int)> = self
            .divs
            .iter()
            .map(|(num, d)| {
                let mut num = num.clone();
                num.resize(total, Int::ZERO);
                (num, d.clone())
            })
            .collect();
        divs.push((row, den));
        Ok(QuasiPolynomial {
            space: self.space.clone(),
            divs,
            poly: Poly::var(n + nd + 1, n + nd),
        }
        .pruned())
    }

    /// The quasi-polynomial times a rational constant.
    pub fn scale(&self, c: &Rat) -> QuasiPolynomial {
        QuasiPolynomial {
            poly: self.poly.scale(c),
            ..self.clone()
        }
        .pruned()
    }

    /// The sum of quasi-polynomials over `space`, in one pass: each
    /// division is looked up (hashed) in one shared list and each polynomial
    /// renamed once into it, so `k` summands of `d` divisions and `t` terms
    /// each cost `O(k·(d + t))` row and term operations, where adding them
    /// one by one re-indexes the growing sum every time (`O(k²)`); charged
    /// to the operation budget (one unit per term).
    pub(crate) fn sum_all(space: Space, qs: &[QuasiPolynomial]) -> Result<QuasiPolynomial> {
        let n = space.n_vars();
        let mut shared = Divisions::default();
        let mut maps: Vec<Vec<usize>> = Vec::with_capacity(qs.len());
        for q in qs {
            if q.space != space {
                return Err(Error::Invalid(
                    "quasi-polynomials over different spaces".into(),
                ));
            }
            let mut map: Vec<usize> = Vec::with_capacity(q.divs.len());
            for (num, den) in &q.divs {
                let mut row = num[..1 + n].to_vec();
                row.resize(1 + n + shared.rows.len(), Int::ZERO);
                for (j, &t) in map.iter().enumerate() {
                    let c = &num[1 + n + j];
                    if !c.is_zero() {
                        row[1 + n + t] = &row[1 + n + t] + c;
                    }
                }
                map.push(shared.index(row, den));
            }
            maps.push(map);
        }
        let total = n + shared.rows.len();
        let mut poly = Poly::zero(total);
        for (q, map) in qs.iter().zip(&maps) {
            crate::budget::tick(q.poly.terms.len() as u64)?;
            let images: Vec<Option<usize>> = (0..n)
                .map(Some)
                .chain(map.iter().map(|&t| Some(n + t)))
                .collect();
            poly.add_renamed(&q.poly, &images);
        }
        let divs = shared.into_divs(total);
        Ok(QuasiPolynomial { space, divs, poly }.pruned())
    }

    /// Without divisions that the polynomial does not use (directly or
    /// through a used division), equal divisions shared.
    pub(crate) fn pruned(self) -> QuasiPolynomial {
        let n = self.space.n_vars();
        let nd = self.divs.len();
        let mut used = vec![false; nd];
        for k in (0..nd).rev() {
            used[k] = self.poly.terms.keys().any(|e| e[n + k] != 0)
                || (k + 1..nd).any(|j| used[j] && !self.divs[j].0[1 + n + k].is_zero());
        }
        let mut map: Vec<Option<usize>> = vec![None; nd];
        let mut shared = Divisions::default();
        for (k, (num, den)) in self.divs.iter().enumerate() {
            if !used[k] {
                continue;
            }
            let mut row = num[..1 + n].to_vec();
            row.resize(1 + n + shared.rows.len(), Int::ZERO);
            for j in 0..k {
                if let Some(t) = map[j] {
                    let c = &num[1 + n + j];
                    if !c.is_zero() {
                        row[1 + n + t] = &row[1 + n + t] + c;
                    }
                }
            }
            map[k] = Some(shared.index(row, den));
        }
        let total = n + shared.rows.len();
        let divs = shared.into_divs(total);
        let images: Vec<Option<usize>> = (0..n)
            .map(Some)
            .chain(map.iter().map(|m| m.map(|t| n + t)))
            .collect();
        let poly = self.poly.renamed(&images, total);
        QuasiPolynomial {
            space: self.space,
            divs,
            poly,
        }
    }

    /// The names of the variables then the texts of the divisions.
    fn column_texts(&self) -> Vec<(String, bool)> {
        let mut names: Vec<(String, bool)> = self
            .space
            .params
            .iter()
            .map(|p| (p.clone(), true))
            .collect();
        names.extend(
            crate::print::dim_names(&self.space)
                .into_iter()
                .map(|d| (d, true)),
        );
        for (num, den) in &self.divs {
            let inner = lin_text(&num[..1 + names.len()], &names);
            names.push((format!("floor(({inner})/{den})"), false));
        }
        names
    }
}

/// A list of divisions without repetitions: rows over `[1 | variables |
/// earlier divisions]` without trailing zeros, each found by hashing.
#[derive(Default)]
struct Divisions {
    rows: Vec<(Vec<Int>, Int)>,
    index: std::collections::HashMap<(Vec<Int>, Int), usize>,
}

impl Divisions {
    /// The index of division `row / den` (trailing zeros ignored), added
    /// if new.
    fn index(&mut self, mut row: Vec<Int>, den: &Int) -> usize {
        while row.last().is_some_and(Int::is_zero) {
            row.pop();
        }
        let key = (row, den.clone());
        if let Some(&t) = self.index.get(&key) {
            return t;
        }
        self.rows.push(key.clone());
        self.index.insert(key, self.rows.len() - 1);
        self.rows.len() - 1
    }

    /// The divisions as rows over `total` variables (constant first).
    fn into_divs(self, total: usize) -> Vec<(Vec<Int>, Int)> {
        self.rows
            .into_iter()
            .map(|(mut row, den)| {
                row.resize(1 + total, Int::ZERO);
                (row, den)
            })
            .collect()
    }
}

/// `c + sum a_k x_k` in isl's style (`1 + 2n`, `n - 2*floor((n)/3)`).
fn lin_text(row: &[Int], names: &[(String, bool)]) -> String {
    let mut out = String::new();
    if !row[0].is_zero() {
        out.push_str(&row[0].to_string());
    }
    for (c, (name, ident)) in row[1..].iter().zip(names) {
        if c.is_zero() {
            continue;
        }
        if out.is_empty() {
            if c.is_neg() {
                out.push('-');
            }
        } else {
            out.push_str(if c.is_neg() { " - " } else { " + " });
        }
        let a = c.abs();
        if !a.is_one() {
            out.push_str(&a.to_string());
            if !ident {
                out.push('*');
            }
        }
        out.push_str(name);
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

impl fmt::Display for QuasiPolynomial {
    /// iscc's notation: `(1/2 * n + 1/2 * n^2)`, a single term without parentheses.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names = self.column_texts();
        let mut terms: Vec<(&Vec<u32>, &Rat)> = self.poly.terms.iter().collect();
        // constant first, then by degree, earlier variables first
        terms.sort_by(|a, b| {
            let da: u32 = a.0.iter().sum();
            let db: u32 = b.0.iter().sum();
            da.cmp(&db).then_with(|| b.0.cmp(a.0))
        });
        if terms.is_empty() {
            return f.write_str("0");
        }
        let mut out = String::new();
        for (k, (e, c)) in terms.iter().enumerate() {
            let factors: Vec<String> = e
                .iter()
                .enumerate()
                .filter(|(_, &p)| p > 0)
                .map(|(v, &p)| {
                    if p == 1 {
                        names[v].0.clone()
                    } else {
                        format!("{}^{p}", names[v].0)
                    }
                })
                .collect();
            let neg = c.is_neg();
            if k == 0 {
                if neg {
                    out.push('-');
                }
            } else {
                out.push_str(if neg { " - " } else { " + " });
            }
            let a = c.abs();
            if factors.is_empty() {
                out.push_str(&a.to_string());
            } else {
                if a != Rat::one() {
                    out.push_str(&format!("{a} * "));
                }
                out.push_str(&factors.join(" * "));
            }
        }
        if terms.len() > 1 {
            write!(f, "({out})")
        } else {
            f.write_str(&out)
        }
    }
}

/// A piecewise quasi-polynomial: disjoint domains (sets over one space)
/// each with a quasi-polynomial; zero outside them.
///
/// ```
/// use presburger::{card, Int, Set};
/// let s: Set = "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }".parse().unwrap();
/// let c = card(&s).unwrap();
/// assert_eq!(c.to_string(), "[n] -> { (1/2 * n + 1/2 * n^2) : n >= 1 }");
/// assert_eq!(c.eval(&[Int::from(4)]).unwrap(), Int::from(10).into());
/// ```
#[derive(Clone, Debug)]
pub struct PwQPolynomial {
    pub(crate) space: Space,
    pub(crate) pieces: Vec<(Set, QuasiPolynomial)>,
}

impl PwQPolynomial {
    /// Zero everywhere on `space` (a set space).
    pub fn zero(space: Space) -> PwQPolynomial {
        PwQPolynomial {
            space,
            pieces: Vec::new(),
        }
    }

    /// `qp` on `domain` (over the same space), zero elsewhere.
    pub fn from_piece(domain: Set, qp: QuasiPolynomial) -> Result<PwQPolynomial> {
        if domain.space() != &qp.space {
            return Err(Error::Invalid(
                "quasi-polynomial and domain over different spaces".into(),
            ));
        }
        Ok(PwQPolynomial {
            space: qp.space.clone(),
            pieces: vec![(domain, qp)],
        })
    }

    /// The set space of the domains.
    pub fn space(&self) -> &Space {
        &self.space
    }

    /// The pieces: disjoint domains and their quasi-polynomials.
    pub fn pieces(&self) -> &[(Set, QuasiPolynomial)] {
        &self.pieces
    }

    /// The union of the domains.
    pub fn domain(&self) -> Result<Set> {
        let mut d = Map::empty(self.space.clone());
        for (s, _) in &self.pieces {
            d = d.union(s)?;
        }
        Ok(d)
    }

    /// The value at `point` (parameters, then dimensions): the value of the
    /// piece whose domain contains it, zero outside every domain.
    pub fn eval(&self, point: &[Int]) -> Result<Rat> {
        for (d, q) in &self.pieces {
            if d.contains_point(point)? {
                return q.eval(point);
            }
        }
        if point.len() != self.space.n_vars() {
            return Err(Error::Invalid(format!(
                "evaluation: expected {} coordinates, got {}",
                self.space.n_vars(),
                point.len()
            )));
        }
        Ok(Rat::zero())
    }

    /// The pointwise sum (zero outside a domain).
    pub fn add(&self, other: &PwQPolynomial) -> Result<PwQPolynomial> {
        self.combine(other, true)
    }

    /// The pointwise product.
    pub fn mul(&self, other: &PwQPolynomial) -> Result<PwQPolynomial> {
        self.combine(other, false)
    }

    fn combine(&self, other: &PwQPolynomial, add: bool) -> Result<PwQPolynomial> {
        if self.space != other.space {
            return Err(Error::Invalid(
                "piecewise quasi-polynomials over different spaces".into(),
            ));
        }
        let mut pieces = Vec::new();
        for (da, qa) in &self.pieces {
            for (db, qb) in &other.pieces {
                let d = da.intersect(db)?.remove_empty_parts()?;
                if !d.basic_maps().is_empty() {
                    let q = if add { qa.add(qb)? } else { qa.mul(qb)? };
                    pieces.push((d, q));
                }
            }
        }
        if add {
            let (ua, ub) = (self.domain()?, other.domain()?);
            for (d, q) in &self.pieces {
                let d = d.subtract(&ub)?.remove_empty_parts()?;
                if !d.basic_maps().is_empty() {
                    pieces.push((d, q.clone()));
                }
            }
            for (d, q) in &other.pieces {
                let d = d.subtract(&ua)?.remove_empty_parts()?;
                if !d.basic_maps().is_empty() {
                    pieces.push((d, q.clone()));
                }
            }
        }
        pieces.retain(|(_, q)| !q.is_zero());
        PwQPolynomial {
            space: self.space.clone(),
            pieces,
        }
        .merged()
    }

    /// Pieces with equal quasi-polynomials joined (union, then coalesce), then the pieces
    /// on a single point joined to a piece that agrees there or made constant
    /// ([`join_point_pieces`](Self::join_point_pieces)).
    pub(crate) fn merged(self) -> Result<PwQPolynomial> {
        let grouped = self.group_equal()?;
        let n = grouped.pieces.len();
        let joined = grouped.join_point_pieces()?;
        if joined.pieces.len() == n && joined.pieces.iter().all(|(_, q)| q.as_constant().is_none())
        {
            return Ok(joined);
        }
        joined.group_equal()
    }

    /// Pieces with equal quasi-polynomials joined (union, then coalesce).
    fn group_equal(self) -> Result<PwQPolynomial> {
        let mut groups: Vec<(QuasiPolynomial, Set)> = Vec::new();
        for (d, q) in self.pieces {
            match groups.iter_mut().find(|(g, _)| *g == q) {
                Some((_, s)) => *s = s.union(&d)?,
                None => groups.push((q, d)),
            }
        }
        let mut pieces = Vec::new();
        for (q, d) in groups {
            let d = if d.basic_maps().len() > 1 {
                d.coalesce()?
            } else {
                d
            };
            pieces.push((d, q));
        }
        Ok(PwQPolynomial {
            space: self.space,
            pieces,
        })
    }

    /// The constant value, if there are neither parameters nor dimensions.
    pub fn as_constant(&self) -> Result<Option<Rat>> {
        if self.space.n_vars() != 0 {
            return Ok(None);
        }
        self.eval(&[]).map(Some)
    }
}

impl fmt::Display for PwQPolynomial {
    /// iscc's notation: `[n] -> { (1/2 * n + 1/2 * n^2) : n >= 0 }`, a map's
    /// count with its domain tuple (`[n] -> { [i] -> (n - i) : 0 <= i < n }`),
    /// `{ 0 }` for zero everywhere.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.space.params.is_empty() {
            write!(f, "[{}] -> ", self.space.params.join(", "))?;
        }
        let tuples = crate::print::tuples_text(&self.space);
        let prefix = if tuples.is_empty() {
            String::new()
        } else {
            format!("{tuples} -> ")
        };
        if self.pieces.is_empty() {
            return write!(f, "{{ {prefix}0 }}");
        }
        let parts: Vec<String> = self
            .pieces
            .iter()
            .map(|(d, q)| format!("{prefix}{q}{}", condition_text(d)))
            .collect();
        write!(f, "{{ {} }}", parts.join("; "))
    }
}

/// ` : constraints` of a piece's domain (empty for the universe).
pub(crate) fn condition_text(d: &Set) -> String {
    let bodies: Vec<String> = d
        .basic_maps()
        .iter()
        .map(crate::print::constraints_text)
        .collect();
    if bodies.iter().any(String::is_empty) || bodies.is_empty() {
        String::new()
    } else if bodies.len() == 1 {
        format!(" : {}", bodies[0])
    } else {
        let b: Vec<String> = bodies.iter().map(|s| format!("({s})")).collect();
        format!(" : {}", b.join(" or "))
    }
}
