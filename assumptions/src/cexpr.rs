//! C expressions of the run-time check, evaluated in `__int128` with a
//! proven bound on every intermediate value (no overflow for any value of
//! the parameters' C types).
//!
//! The `ast` crate's expressions print isl-style C (`floord` macros, no
//! casts or address terms), so the check has this small builder of its
//! own: an expression is a [`Term`] (printed as C, evaluated by `poly
//! run`) and a bound on its absolute value.

use std::collections::BTreeMap;

use presburger::{Aff, BasicMap, Int, MultiAff, PwMultiAff, Set};
use scop::ast::IntTy;

use crate::error::{Error, Result};
use crate::term::{Cond, Term};

/// The largest magnitude we let an intermediate `__int128` value reach.
const LIMIT: f64 = 1.7e38 / 4.0;

/// An integer expression of the check and a bound on its absolute value.
#[derive(Debug, Clone)]
pub struct CInt {
    /// The expression.
    pub term: Term,
    /// `|value| <= bound` for every admissible input.
    pub bound: f64,
}

/// The parameters of the check with their C types (their ranges bound the
/// values).
#[derive(Debug, Clone)]
pub struct Params {
    /// Name and type, in the set's parameter order.
    pub types: BTreeMap<String, IntTy>,
}

fn too_big(what: &str) -> Error {
    Error::CheckOverflow(format!("{what} could exceed the 128-bit range"))
}

impl CInt {
    /// A literal, `None` when it does not fit 64 bits.
    pub fn lit(v: &Int) -> Option<CInt> {
        let v = v.to_i64()?;
        Some(CInt {
            term: Term::Lit(v),
            bound: (v as f64).abs(),
        })
    }
    /// A parameter (cast to `__int128` in C).
    pub fn param(name: &str, ty: IntTy) -> CInt {
        CInt {
            term: Term::Param(name.to_string()),
            bound: ty.highest().max(-ty.lowest()) as f64,
        }
    }
    /// `k * self` (k a 64-bit literal).
    pub fn scale(&self, k: &Int) -> Result<Option<CInt>> {
        if k.is_one() {
            return Ok(Some(self.clone()));
        }
        let Some(k) = k.to_i64() else {
            return Ok(None);
        };
        let bound = (k as f64).abs() * self.bound;
        if bound > LIMIT {
            return Err(too_big(&self.term.to_string()));
        }
        Ok(Some(CInt {
            term: Term::scale(k, self.term.clone()),
            bound,
        }))
    }
    /// `floor(self / d)` for `d > 0`.
    pub fn floor_div(&self, d: &Int) -> Option<CInt> {
        let d = d.to_i64().filter(|&d| d > 0)?;
        Some(CInt {
            term: Term::FloorDiv(Box::new(self.term.clone()), d),
            bound: self.bound + d as f64,
        })
    }
    /// The sum of signed parts (`true`: subtracted) and its bound.
    pub fn sum(parts: Vec<(bool, CInt)>, what: &str) -> Result<CInt> {
        let bound: f64 = parts.iter().map(|(_, t)| t.bound).sum();
        if bound > LIMIT {
            return Err(too_big(what));
        }
        Ok(CInt {
            term: Term::sum(parts.into_iter().map(|(n, t)| (n, t.term)).collect()),
            bound,
        })
    }
}

/// A sum of terms `c · x` and a constant, compared as `P >= N` or `P == N`
/// with the positive terms on the left.
struct Linear {
    pos: Vec<CInt>,
    neg: Vec<CInt>,
    constant: Int,
}

impl Linear {
    fn side(terms: &[CInt], c: Option<&Int>) -> Result<Option<CInt>> {
        let mut parts: Vec<(bool, CInt)> = terms.iter().map(|t| (false, t.clone())).collect();
        if let Some(c) = c {
            let Some(l) = CInt::lit(c) else {
                return Ok(None);
            };
            parts.push((false, l));
        }
        if parts.is_empty() {
            parts.push((
                false,
                CInt {
                    term: Term::Lit(0),
                    bound: 0.0,
                },
            ));
        }
        CInt::sum(parts, "a constraint").map(Some)
    }
    /// The comparison, `None` when a literal does not fit 64 bits.
    fn compare(&self, eq: bool) -> Result<Option<Cond>> {
        let (lc, rc) = if self.constant.is_neg() {
            (None, Some(self.constant.abs()))
        } else if self.constant.is_zero() {
            (None, None)
        } else {
            (Some(self.constant.clone()), None)
        };
        let (Some(l), Some(r)) = (
            Linear::side(&self.pos, lc.as_ref())?,
            Linear::side(&self.neg, rc.as_ref())?,
        ) else {
            return Ok(None);
        };
        Ok(Some(if eq {
            Cond::eq(l.term, r.term)
        } else {
            Cond::ge(l.term, r.term)
        }))
    }
    /// The value as one sum.
    fn value(self) -> Result<Option<CInt>> {
        let mut parts: Vec<(bool, CInt)> = self.pos.into_iter().map(|t| (false, t)).collect();
        parts.extend(self.neg.into_iter().map(|t| (true, t)));
        if !self.constant.is_zero() || parts.is_empty() {
            let Some(l) = CInt::lit(&self.constant.abs()) else {
                return Ok(None);
            };
            parts.push((self.constant.is_neg(), l));
        }
        CInt::sum(parts, "an intermediate value").map(Some)
    }
}

/// The condition of a parameter set: a disjunction of conjunctions.
/// `None` when a literal does not fit in 64 bits (the caller makes the
/// check constant false).
pub fn set_condition(set: &Set, params: &Params) -> Result<Option<Cond>> {
    let mut disjuncts = Vec::new();
    for b in set.basic_maps() {
        for e in b.make_divs_explicit()? {
            match basic_condition(&e, params)? {
                Some(t) => disjuncts.push(t),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(Cond::or(disjuncts)))
}

fn basic_condition(b: &BasicMap, params: &Params) -> Result<Option<Cond>> {
    let names: Vec<String> = b.space().params.iter().cloned().collect();
    // the value of every column: params, then locals
    let mut cols: Vec<CInt> = Vec::new();
    for n in &names {
        let ty = params.types.get(n).copied().unwrap_or(IntTy::Long);
        cols.push(CInt::param(n, ty));
    }
    for d in b.divs() {
        let Some(d) = d else {
            return Err(Error::CheckOverflow(
                "an existential without explicit definition".into(),
            ));
        };
        let Some(num) = linear(&d.num, &cols, b.off_param())?.map(Linear::value) else {
            return Ok(None);
        };
        let Some(v) = num?.and_then(|n| n.floor_div(&d.den)) else {
            return Ok(None);
        };
        cols.push(v);
    }
    let mut parts = Vec::new();
    for (rows, eq) in [(b.eqs(), true), (b.ineqs(), false)] {
        for row in rows {
            let Some(lin) = linear(row, &cols, b.off_param())? else {
                return Ok(None);
            };
            if lin.pos.is_empty() && lin.neg.is_empty() {
                // a constant row: true or false
                let ok = if eq {
                    lin.constant.is_zero()
                } else {
                    !lin.constant.is_neg()
                };
                if !ok {
                    return Ok(Some(Cond::Const(false)));
                }
                continue;
            }
            match lin.compare(eq)? {
                Some(t) => parts.push(t),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(Cond::and(parts)))
}

/// The terms of a row `[c | params | locals]` over the columns' values.
fn linear(row: &[Int], cols: &[CInt], off_param: usize) -> Result<Option<Linear>> {
    let mut lin = Linear {
        pos: Vec::new(),
        neg: Vec::new(),
        constant: row[0].clone(),
    };
    for (k, c) in row[off_param..].iter().enumerate() {
        if c.is_zero() || k >= cols.len() {
            continue;
        }
        let Some(t) = cols[k].scale(&c.abs())? else {
            return Ok(None);
        };
        if c.is_neg() {
            lin.neg.push(t);
        } else {
            lin.pos.push(t);
        }
    }
    Ok(Some(lin))
}

/// The value of a quasi-affine function of the parameters (a piece of a
/// parametric lexmin), `None` when a literal does not fit 64 bits.
pub fn aff_value(aff: &Aff, params: &Params) -> Result<Option<CInt>> {
    let space = aff.space();
    let mut terms: Vec<(Int, CInt)> = Vec::new();
    for (k, n) in space.params.iter().enumerate() {
        if let Some(c) = aff.param_coef(k) {
            if !c.is_zero() {
                let ty = params.types.get(n).copied().unwrap_or(IntTy::Long);
                terms.push((c.clone(), CInt::param(n, ty)));
            }
        }
    }
    for k in 0..aff.n_div() {
        let Some(c) = aff.div_coef(k) else { continue };
        if c.is_zero() {
            continue;
        }
        let Some((num, den)) = aff.div(k) else {
            continue;
        };
        let Some(v) = aff_value(&num, params)? else {
            return Ok(None);
        };
        let Some(f) = v.floor_div(&den) else {
            return Ok(None);
        };
        terms.push((c.clone(), f));
    }
    let mut lin = Linear {
        pos: Vec::new(),
        neg: Vec::new(),
        constant: aff.constant_num().clone(),
    };
    for (c, t) in &terms {
        let Some(s) = t.scale(&c.abs())? else {
            return Ok(None);
        };
        if c.is_neg() {
            lin.neg.push(s);
        } else {
            lin.pos.push(s);
        }
    }
    let Some(v) = lin.value()? else {
        return Ok(None);
    };
    let den = aff.denominator();
    if den.is_one() {
        return Ok(Some(v));
    }
    Ok(v.floor_div(den))
}

/// A piecewise value as nested conditionals over its pieces (`0` where no
/// piece applies: callers evaluate it only where one does); `value` gives
/// the term of each piece.
pub fn piecewise(
    pw: &PwMultiAff,
    params: &Params,
    mut value: impl FnMut(&MultiAff) -> Result<Option<CInt>>,
) -> Result<Option<CInt>> {
    let mut out = CInt {
        term: Term::Lit(0),
        bound: 0.0,
    };
    let single = pw.pieces().len() == 1;
    for (dom, ma) in pw.pieces().iter().rev() {
        let Some(v) = value(ma)? else {
            return Ok(None);
        };
        let bound = out.bound.max(v.bound);
        out = if single {
            CInt {
                term: v.term,
                bound,
            }
        } else {
            let Some(c) = set_condition(dom, params)? else {
                return Ok(None);
            };
            CInt {
                term: Term::Select(Box::new(c), Box::new(v.term), Box::new(out.term)),
                bound,
            }
        };
    }
    Ok(Some(out))
}
