//! C expressions of the run-time check, evaluated in `__int128` with a
//! proven bound on every intermediate value (no overflow for any value of
//! the parameters' C types).
//!
//! The `ast` crate's expressions print isl-style C (`floord` macros, no
//! casts or address terms), so the check has this small builder of its
//! own: an expression is its text and a bound on its absolute value.

use std::collections::BTreeMap;

use presburger::{Aff, BasicMap, Int, Set};
use scop::ast::IntTy;

use crate::error::{Error, Result};

/// The largest magnitude we let an intermediate `__int128` value reach.
const LIMIT: f64 = 1.7e38 / 4.0;

/// An integer C expression and a bound on its absolute value.
#[derive(Debug, Clone)]
pub struct CInt {
    /// The C text (fully parenthesised where needed).
    pub text: String,
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
    fn lit(v: &Int) -> Option<CInt> {
        let v = v.to_i64()?;
        Some(CInt {
            text: if v == i64::MIN {
                "INT64_MIN".into()
            } else {
                v.to_string()
            },
            bound: (v as f64).abs(),
        })
    }
    /// A parameter, cast to `__int128`.
    pub fn param(name: &str, ty: IntTy) -> CInt {
        CInt {
            text: format!("(__int128){name}"),
            bound: ty.highest().max(-ty.lowest()) as f64,
        }
    }
    /// `k * self` (k a 64-bit literal).
    pub fn scale(&self, k: &Int) -> Result<Option<CInt>> {
        if k.is_one() {
            return Ok(Some(self.clone()));
        }
        let Some(l) = CInt::lit(k) else {
            return Ok(None);
        };
        let bound = l.bound * self.bound;
        if bound > LIMIT {
            return Err(too_big(&self.text));
        }
        Ok(Some(CInt {
            text: format!("{} * {}", l.text, self.text),
            bound,
        }))
    }
    /// `floor(self / d)` for `d > 0`.
    pub fn floor_div(&self, d: &Int) -> Option<CInt> {
        let l = CInt::lit(d)?;
        let x = &self.text;
        let dt = &l.text;
        Some(CInt {
            text: format!("(({x}) >= 0 ? ({x}) / {dt} : -((-({x}) + {dt} - 1) / {dt}))"),
            bound: self.bound + l.bound,
        })
    }
}

/// A sum of terms `c · x` and a constant, printed as `P >= N` or `P == N`
/// with the positive terms on the left.
struct Linear {
    pos: Vec<CInt>,
    neg: Vec<CInt>,
    constant: Int,
}

impl Linear {
    fn side(terms: &[CInt], c: Option<&Int>) -> Result<Option<CInt>> {
        let mut parts: Vec<String> = terms.iter().map(|t| t.text.clone()).collect();
        let mut bound: f64 = terms.iter().map(|t| t.bound).sum();
        if let Some(c) = c {
            let Some(l) = CInt::lit(c) else {
                return Ok(None);
            };
            bound += l.bound;
            parts.push(l.text);
        }
        if bound > LIMIT {
            return Err(too_big("a constraint"));
        }
        if parts.is_empty() {
            parts.push("0".into());
        }
        Ok(Some(CInt {
            text: parts.join(" + "),
            bound,
        }))
    }
    /// The comparison text, `None` when a literal does not fit 64 bits.
    fn compare(&self, op: &str) -> Result<Option<String>> {
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
        Ok(Some(format!("{} {op} {}", l.text, r.text)))
    }
}

/// The C condition of a parameter set: a disjunction of conjunctions.
/// `None` when a literal does not fit in 64 bits (the caller makes the
/// check constant false).
pub fn set_condition(set: &Set, params: &Params) -> Result<Option<String>> {
    let mut disjuncts = Vec::new();
    for b in set.basic_maps() {
        for e in b.make_divs_explicit()? {
            match basic_condition(&e, params)? {
                Some(t) => disjuncts.push(t),
                None => return Ok(None),
            }
        }
    }
    Ok(Some(match disjuncts.len() {
        0 => "0".to_string(),
        1 => disjuncts.pop().unwrap_or_default(),
        _ => disjuncts
            .iter()
            .map(|d| format!("({d})"))
            .collect::<Vec<_>>()
            .join(" || "),
    }))
}

fn basic_condition(b: &BasicMap, params: &Params) -> Result<Option<String>> {
    let names: Vec<String> = b.space().params.iter().cloned().collect();
    // the value of every column: params, then locals
    let mut cols: Vec<CInt> = Vec::new();
    for n in &names {
        let ty = params.types.get(n).copied().unwrap_or(IntTy::Long);
        cols.push(CInt::param(n, ty));
    }
    let off = b.off_div();
    for d in b.divs() {
        let Some(d) = d else {
            return Err(Error::CheckOverflow(
                "an existential without explicit definition".into(),
            ));
        };
        let Some(num) = linear_value(&d.num, &cols, off, b.off_param())? else {
            return Ok(None);
        };
        let Some(v) = num.floor_div(&d.den) else {
            return Ok(None);
        };
        cols.push(v);
    }
    let mut parts = Vec::new();
    for (rows, op) in [(b.eqs(), "=="), (b.ineqs(), ">=")] {
        for row in rows {
            let Some(lin) = linear(row, &cols, b.off_param())? else {
                return Ok(None);
            };
            if lin.pos.is_empty() && lin.neg.is_empty() {
                // a constant row: true or false
                let ok = if op == "==" {
                    lin.constant.is_zero()
                } else {
                    !lin.constant.is_neg()
                };
                if !ok {
                    return Ok(Some("0".into()));
                }
                continue;
            }
            match lin.compare(op)? {
                Some(t) => parts.push(t),
                None => return Ok(None),
            }
        }
    }
    let _ = off;
    Ok(Some(if parts.is_empty() {
        "1".to_string()
    } else {
        parts.join(" && ")
    }))
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

/// The value of a row (a sum) as one expression.
fn linear_value(row: &[Int], cols: &[CInt], _off: usize, off_param: usize) -> Result<Option<CInt>> {
    let Some(lin) = linear(row, cols, off_param)? else {
        return Ok(None);
    };
    let mut text = String::new();
    let mut bound = 0.0;
    for t in &lin.pos {
        if !text.is_empty() {
            text.push_str(" + ");
        }
        text.push_str(&t.text);
        bound += t.bound;
    }
    for t in &lin.neg {
        if text.is_empty() {
            text.push('-');
        } else {
            text.push_str(" - ");
        }
        text.push_str(&t.text);
        bound += t.bound;
    }
    if !lin.constant.is_zero() {
        let Some(l) = CInt::lit(&lin.constant.abs()) else {
            return Ok(None);
        };
        if text.is_empty() {
            text = if lin.constant.is_neg() {
                format!("-{}", l.text)
            } else {
                l.text.clone()
            };
        } else {
            text.push_str(if lin.constant.is_neg() { " - " } else { " + " });
            text.push_str(&l.text);
        }
        bound += l.bound;
    }
    if text.is_empty() {
        text.push('0');
    }
    if bound > LIMIT {
        return Err(too_big("an intermediate value"));
    }
    Ok(Some(CInt {
        text: format!("({text})"),
        bound,
    }))
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
    let mut text = String::new();
    let mut bound = 0.0;
    for (c, t) in &terms {
        let Some(s) = t.scale(&c.abs())? else {
            return Ok(None);
        };
        if text.is_empty() {
            if c.is_neg() {
                text.push('-');
            }
        } else {
            text.push_str(if c.is_neg() { " - " } else { " + " });
        }
        text.push_str(&s.text);
        bound += s.bound;
    }
    let c0 = aff.constant_num();
    if !c0.is_zero() || text.is_empty() {
        let Some(l) = CInt::lit(&c0.abs()) else {
            return Ok(None);
        };
        if text.is_empty() {
            text = if c0.is_neg() {
                format!("-{}", l.text)
            } else {
                l.text
            };
        } else {
            text.push_str(if c0.is_neg() { " - " } else { " + " });
            text.push_str(&l.text);
        }
        bound += (c0.to_i64().unwrap_or(0) as f64).abs();
    }
    let den = aff.denominator();
    let v = CInt {
        text: format!("({text})"),
        bound,
    };
    if den.is_one() {
        return Ok(Some(v));
    }
    Ok(v.floor_div(den))
}
