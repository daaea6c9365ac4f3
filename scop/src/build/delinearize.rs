//! Delinearization of pointer subscripts: `A[i * N + j]` through a `double
//! *A` becomes `A[i][j]` with inner extent `N` (parameters as sizes).
//!
//! Each subscript is expanded into a polynomial: terms `c · P · x` with `P`
//! a product of parameters and `x` at most one iterator. The parameter
//! products of the terms with an iterator, over all accesses of the
//! pointer, must form a chain `1 | N | N·M | ...` in which every step
//! multiplies by one parameter; those parameters are the inner extents,
//! innermost first. A term then belongs to the largest chain element `m`
//! dividing its product, and contributes `c · (P / m) · x` to that
//! dimension, which must be affine (`P / m` is 1 with an iterator, at most
//! one parameter without). Subscripts that do not fit are reported as
//! errors at their position.

use std::collections::{BTreeMap, BTreeSet};

use crate::affine::Affine;
use crate::ast::{self, BinOp, ExprKind, UnOp};
use crate::error::{Error, Pos};

/// A monomial: sorted parameter names (with repetition) and an optional
/// iterator.
type Mono = (Vec<String>, Option<String>);

/// A polynomial over parameters and iterators.
#[derive(Debug, Clone, Default)]
struct Poly(BTreeMap<Mono, i64>);

fn overflow(pos: Pos) -> Error {
    Error::unsupported(
        pos,
        "subscript",
        "a coefficient of the linearized subscript overflows 64 bits",
    )
}

impl Poly {
    fn constant(c: i64) -> Poly {
        let mut m = BTreeMap::new();
        if c != 0 {
            m.insert((vec![], None), c);
        }
        Poly(m)
    }
    fn add(&self, o: &Poly, k: i64, pos: Pos) -> Result<Poly, Error> {
        let mut m = self.0.clone();
        for (mono, c) in &o.0 {
            let e = m.entry(mono.clone()).or_insert(0);
            *e = c
                .checked_mul(k)
                .and_then(|x| e.checked_add(x))
                .ok_or_else(|| overflow(pos))?;
            if *e == 0 {
                m.remove(mono);
            }
        }
        Ok(Poly(m))
    }
    fn mul(&self, o: &Poly, pos: Pos) -> Result<Poly, Error> {
        let mut out = Poly::default();
        for ((pa, xa), ca) in &self.0 {
            for ((pb, xb), cb) in &o.0 {
                let x = match (xa, xb) {
                    (Some(_), Some(_)) => {
                        return Err(Error::unsupported(
                            pos,
                            "product of iterators",
                            "a linearized subscript must be affine in the iterators",
                        ))
                    }
                    (Some(x), None) | (None, Some(x)) => Some(x.clone()),
                    (None, None) => None,
                };
                let mut p: Vec<String> = pa.iter().chain(pb).cloned().collect();
                p.sort();
                let c = ca.checked_mul(*cb).ok_or_else(|| overflow(pos))?;
                let mut t = BTreeMap::new();
                t.insert((p, x), c);
                out = out.add(&Poly(t), 1, pos)?;
            }
        }
        Ok(out)
    }
}

fn expand(e: &ast::Expr, params: &BTreeSet<String>) -> Result<Poly, Error> {
    let bad = || {
        Error::unsupported(
            e.pos,
            "pointer subscript",
            "a pointer subscript must be a sum of products of integer parameters, iterators and constants",
        )
    };
    match &e.kind {
        ExprKind::Int(v) => Ok(Poly::constant(*v)),
        ExprKind::Var(n) => {
            let mut m = BTreeMap::new();
            if params.contains(n) {
                m.insert((vec![n.clone()], None), 1);
            } else {
                m.insert((vec![], Some(n.clone())), 1);
            }
            Ok(Poly(m))
        }
        ExprKind::Unary(UnOp::Neg, a) => Poly::default().add(&expand(a, params)?, -1, e.pos),
        ExprKind::Unary(UnOp::Plus, a) => expand(a, params),
        ExprKind::Binary(BinOp::Add, a, b) => expand(a, params)?.add(&expand(b, params)?, 1, e.pos),
        ExprKind::Binary(BinOp::Sub, a, b) => {
            expand(a, params)?.add(&expand(b, params)?, -1, e.pos)
        }
        ExprKind::Binary(BinOp::Mul, a, b) => expand(a, params)?.mul(&expand(b, params)?, e.pos),
        _ => Err(bad()),
    }
}

/// `e` as a sum of monomials (an error when it is not a polynomial with
/// at most one iterator a term).
pub(super) fn monomials(
    e: &ast::Expr,
    params: &BTreeSet<String>,
) -> Result<Vec<crate::assume::Monomial>, Error> {
    Ok(expand(e, params)?
        .0
        .into_iter()
        .map(|((params, iterator), coef)| crate::assume::Monomial {
            coef,
            params,
            iterator,
        })
        .collect())
}

/// The inner extents of a pointer (parameter names, innermost first) from
/// all its subscripts.
pub(super) fn pointer_sizes(
    subs: &[&ast::Expr],
    params: &BTreeSet<String>,
) -> Result<Vec<String>, Error> {
    let mut monos: BTreeSet<Vec<String>> = BTreeSet::new();
    let mut first_pos = None;
    for s in subs {
        first_pos.get_or_insert(s.pos);
        for (p, x) in expand(s, params)?.0.keys() {
            if x.is_some() && !p.is_empty() {
                monos.insert(p.clone());
            }
        }
    }
    let mut chain: Vec<Vec<String>> = monos.into_iter().collect();
    chain.sort_by_key(|m| m.len());
    let mut sizes = Vec::new();
    let mut prev: Vec<String> = Vec::new();
    for m in &chain {
        let q = quotient(m, &prev);
        match q {
            Some(q) if q.len() == 1 => {
                sizes.push(q[0].clone());
                prev = m.clone();
            }
            _ => {
                return Err(Error::unsupported(
                    first_pos.unwrap_or(Pos { line: 0, col: 0 }),
                    "linearized subscripts",
                    format!(
                        "the parameter factors of the subscripts ({}) do not form a chain N, N*M, ... of inner extents",
                        chain.iter().map(|m| if m.is_empty() { "1".to_string() } else { m.join("*") }).collect::<Vec<_>>().join(", ")
                    ),
                ))
            }
        }
    }
    Ok(sizes)
}

/// `m / d` as a multiset of names, if `d` divides `m`.
fn quotient(m: &[String], d: &[String]) -> Option<Vec<String>> {
    let mut rest = m.to_vec();
    for x in d {
        let k = rest.iter().position(|y| y == x)?;
        rest.remove(k);
    }
    Some(rest)
}

/// The subscripts (outermost first) of one linearized subscript for the
/// inner extents `sizes` (innermost first).
pub(super) fn split(
    e: &ast::Expr,
    sizes: &[String],
    params: &BTreeSet<String>,
) -> Result<Vec<Affine>, Error> {
    let mut chain: Vec<Vec<String>> = vec![vec![]];
    for s in sizes {
        let mut m = chain.last().cloned().unwrap_or_default();
        m.push(s.clone());
        m.sort();
        chain.push(m);
    }
    let mut dims = vec![Affine::constant(0); chain.len()];
    let non_affine = || {
        Error::unsupported(
            e.pos,
            "pointer subscript",
            format!(
                "the subscript does not split into affine subscripts of the inner extents [{}]",
                sizes.iter().rev().cloned().collect::<Vec<_>>().join("][")
            ),
        )
    };
    for ((p, x), c) in expand(e, params)?.0 {
        let (t, q) = chain
            .iter()
            .enumerate()
            .rev()
            .find_map(|(t, m)| quotient(&p, m).map(|q| (t, q)))
            .ok_or_else(non_affine)?;
        let term = match (x, q.as_slice()) {
            (Some(x), []) => Affine::var(&x).scale(c),
            (None, []) => Affine::constant(c),
            (None, [n]) => Affine::var(n).scale(c),
            _ => return Err(non_affine()),
        };
        dims[t] = dims[t].add(&term);
    }
    dims.reverse();
    Ok(dims)
}
