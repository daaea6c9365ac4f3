//! Run-time conditions of non-affine values ([`scop::assume::RangeObligation`]):
//! a value such as the `int` subscript `i * m + j` of a linearized access
//! is a sum of monomials `c · P · x` (`P` a product of parameters, `x` at
//! most one iterator). For given parameters each monomial is linear in its
//! iterator, so its extremes over the executed points are at the
//! iterator's extremes `lo_x <= x <= hi_x` (parametric lexmin and lexmax of
//! the domain's projection onto `x`): `c·P·lo_x` and `c·P·hi_x`, ordered by
//! the sign of `c·P`. Summing the extremes bounds the value (exactly when
//! the domain is a box in the iterators that occur, conservatively
//! otherwise), and the condition `runs ⇒ lo <= min ∧ max <= hi` is part of
//! the run-time check. It is not a Presburger set, so it is not in the
//! assumed or invalid context.

use presburger::Set;
use scop::assume::RangeObligation;
use scop::ast::IntTy;
use scop::Scop;

use crate::cexpr::{aff_value, piecewise, set_condition, CInt, Params};
use crate::error::{Error, Result};
use crate::term::{Cond, Term};

/// The largest magnitude an intermediate value may reach (as in
/// [`crate::cexpr`]).
const LIMIT: f64 = 1.7e38 / 4.0;

/// A non-affine obligation with its run-time condition.
#[derive(Debug, Clone)]
pub struct RangeCheck {
    /// Its kind (a restriction).
    pub kind: scop::assume::Kind,
    /// Where it arises.
    pub pos: scop::Pos,
    /// What it is about.
    pub what: String,
    /// True where it holds (or nothing runs).
    pub check: Cond,
}

fn product(a: &CInt, b: &CInt) -> Result<CInt> {
    let bound = a.bound * b.bound;
    if bound > LIMIT {
        return Err(Error::CheckOverflow(
            "a bound of a non-affine value could exceed the 128-bit range".into(),
        ));
    }
    let term = match (&a.term, &b.term) {
        (Term::Lit(0), _) | (_, Term::Lit(0)) => Term::Lit(0),
        (Term::Lit(1), t) | (t, Term::Lit(1)) => t.clone(),
        (Term::Lit(k), t) | (t, Term::Lit(k)) => Term::scale(*k, t.clone()),
        (x, y) => Term::Mul(Box::new(x.clone()), Box::new(y.clone())),
    };
    Ok(CInt { term, bound })
}

/// The lowest and highest value of iterator `k` of `points` (a set over
/// the iterators), piecewise in the parameters.
fn extremes(points: &Set, k: usize, params: &Params) -> Result<Option<(CInt, CInt)>> {
    let n = points.space().n_out();
    let line = points.project_out(k + 1, n - k - 1)?.project_out(0, k)?;
    let mut out = Vec::new();
    for pw in [line.lexmin_pw_multi_aff()?, line.lexmax_pw_multi_aff()?] {
        let v = piecewise(&pw, params, |ma| match ma.affs() {
            [a] => aff_value(a, params),
            _ => Ok(None),
        })?;
        match v {
            Some(v) => out.push(v),
            None => return Ok(None),
        }
    }
    let hi = out.pop();
    Ok(out.pop().zip(hi))
}

/// The run-time condition of one range obligation; `None` when a literal
/// does not fit 64 bits.
pub fn range_check(scop: &Scop, o: &RangeObligation, params: &Params) -> Result<Option<Cond>> {
    let points = scop::assume::points(scop, &o.vars, &o.domain)?
        .intersect_params(&scop::assume::type_context(scop)?)?;
    if points.is_empty()? {
        return Ok(Some(Cond::Const(true)));
    }
    let Some(runs) = set_condition(&points.params().coalesce()?, params)? else {
        return Ok(None);
    };
    let (mut lows, mut highs) = (Vec::new(), Vec::new());
    for m in &o.value {
        // c · P
        let mut f = CInt::lit(&m.coef.into()).unwrap_or(CInt {
            term: Term::Lit(m.coef),
            bound: (m.coef as f64).abs(),
        });
        for p in &m.params {
            let ty = params.types.get(p).copied().unwrap_or(IntTy::Long);
            f = product(&f, &CInt::param(p, ty))?;
        }
        let Some(x) = &m.iterator else {
            lows.push(f.clone());
            highs.push(f);
            continue;
        };
        let k = o
            .vars
            .iter()
            .position(|v| v == x)
            .ok_or_else(|| Error::Unmodelled {
                pos: o.pos,
                reason: format!("`{x}` is not an iterator of the enclosing loops"),
            })?;
        let Some((lo, hi)) = extremes(&points, k, params)? else {
            return Ok(None);
        };
        let (a, b) = (product(&f, &lo)?, product(&f, &hi)?);
        // the order of the ends follows the sign of c · P
        let nonneg = match f.term {
            Term::Lit(k) => Cond::Const(k >= 0),
            _ => Cond::ge(f.term.clone(), Term::Lit(0)),
        };
        let pick = |x: &CInt, y: &CInt| CInt {
            term: match nonneg {
                Cond::Const(true) => x.term.clone(),
                Cond::Const(false) => y.term.clone(),
                _ => Term::Select(
                    Box::new(nonneg.clone()),
                    Box::new(x.term.clone()),
                    Box::new(y.term.clone()),
                ),
            },
            bound: x.bound.max(y.bound),
        };
        lows.push(pick(&a, &b));
        highs.push(pick(&b, &a));
    }
    let sum = |parts: Vec<CInt>| {
        CInt::sum(
            parts.into_iter().map(|p| (false, p)).collect(),
            "a bound of a non-affine value",
        )
    };
    let (low, high) = (sum(lows)?, sum(highs)?);
    let (Ok(lo), hi) = (i64::try_from(o.lo), o.hi.map(i64::try_from)) else {
        return Ok(None);
    };
    let mut within = vec![Cond::ge(low.term, Term::Lit(lo))];
    match hi {
        Some(Ok(h)) => within.push(Cond::le(high.term, Term::Lit(h))),
        Some(Err(_)) => return Ok(None),
        None => {}
    }
    Ok(Some(Cond::or(vec![Cond::not(runs), Cond::and(within)])))
}

impl std::fmt::Display for RangeCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {} restriction, not affine, checked at run time: {} ({})",
            self.pos.line, self.pos.col, self.kind, self.check, self.what
        )
    }
}

/// The run-time conditions of all range obligations of the kernel.
pub fn range_checks(scop: &Scop, params: &Params) -> Result<Option<Vec<RangeCheck>>> {
    let mut out = Vec::new();
    for o in &scop.optimistic.ranges {
        let Some(check) = range_check(scop, o, params)? else {
            return Ok(None);
        };
        // the same value at several places (a read and a write) is
        // checked once
        if check != Cond::Const(true) && !out.iter().any(|r: &RangeCheck| r.check == check) {
            out.push(RangeCheck {
                kind: o.kind,
                pos: o.pos,
                what: o.what.clone(),
                check,
            });
        }
    }
    Ok(Some(out))
}
