//! `card`, `sum` and evaluation at a point: the calculator's side of the
//! engine's parametric counting (`presburger::card`, `card_map`, `sum`).
//!
//! - `card S` of a union set: the number of points as a piecewise
//!   quasi-polynomial in the parameters, summed over the spaces of the
//!   union; without parameters it is a count, printed `{ 42 }`.
//! - `card M` of a union map: per space, the number of images of each
//!   domain point (`[n] -> { [i] -> (n - i) : i < n }`).
//! - `sum F` of a piecewise quasi-polynomial: its sum over the points of
//!   its domain, as a piecewise quasi-polynomial in the parameters.
//! - `F(P)`: the value of `F` at the single point of the set `P` (for a
//!   function of the parameters only, `P` is a parameter set such as
//!   `[n] -> { : n = 5 }`).

use presburger::{BasicMap, Int, Map, PwQPolynomial, PwQPolynomialFold, Rat, UnionMap};

use crate::error::{Pos, Result};
use crate::value::Value;

use crate::eval::{engine, type_error};

/// A count or sum over the parameters: an integer when there are none.
fn over_params(f: PwQPolynomial, op: &str, pos: Pos) -> Result<Value> {
    match engine(f.as_constant(), op, pos)? {
        Some(c) if c.is_integer() => Ok(Value::Card(c.numer().clone())),
        _ => Ok(Value::QPoly(vec![f])),
    }
}

/// The sum of functions over the same (parameter) space.
fn total(fs: Vec<PwQPolynomial>, zero: PwQPolynomial, op: &str, pos: Pos) -> Result<PwQPolynomial> {
    let mut acc = zero;
    for f in fs {
        acc = engine(acc.add(&f), op, pos)?;
    }
    Ok(acc)
}

/// `card` of a set (a count in the parameters) or of a map (per domain point).
pub fn card(v: &Value, pos: Pos) -> Result<Value> {
    match v {
        Value::Set(u) => {
            let fs = u
                .maps()
                .iter()
                .map(|m| engine(presburger::card(m), "card", pos))
                .collect::<Result<Vec<_>>>()?;
            let zero = PwQPolynomial::zero(presburger::Space::params_only(u.params().to_vec()));
            over_params(total(fs, zero, "card", pos)?, "card", pos)
        }
        Value::Map(u) => {
            if u.maps().is_empty() {
                return Ok(Value::Card(Int::ZERO));
            }
            let fs = u
                .maps()
                .iter()
                .map(|m| engine(presburger::card_map(m), "card", pos))
                .collect::<Result<Vec<_>>>()?;
            Ok(Value::QPoly(fs))
        }
        v => Err(type_error(
            pos,
            format!("`card` expects a set or a map, found {}", v.a_type()),
        )),
    }
}

/// `sum` of a piecewise quasi-polynomial over its domain.
pub fn sum(v: &Value, pos: Pos) -> Result<Value> {
    let fs = match v {
        Value::QPoly(fs) => fs,
        Value::Card(_) | Value::Int(_) => return Ok(v.clone()),
        v => {
            return Err(type_error(
                pos,
                format!(
                    "`sum` expects a piecewise quasipolynomial, found {}",
                    v.a_type()
                ),
            ))
        }
    };
    let Some(first) = fs.first() else {
        return Ok(Value::Card(Int::ZERO));
    };
    let sums = fs
        .iter()
        .map(|f| engine(presburger::sum(f), "sum", pos))
        .collect::<Result<Vec<_>>>()?;
    let zero = PwQPolynomial::zero(first.space().params_space());
    over_params(total(sums, zero, "sum", pos)?, "sum", pos)
}

/// `ub F` / `lb F`: the list `[bound, is_exact]` of a piecewise
/// quasi-polynomial over its domain, as in iscc (see
/// `presburger::upper_bound` for what is computed).
pub fn bound(v: &Value, max: bool, pos: Pos) -> Result<Value> {
    let op = if max { "ub" } else { "lb" };
    let fs: Vec<PwQPolynomial> = match v {
        Value::QPoly(fs) => fs.clone(),
        Value::Card(c) | Value::Int(c) => {
            let space = presburger::Space::params_only(Vec::<String>::new());
            let q = presburger::QuasiPolynomial::constant(space.clone(), Rat::from(c.clone()));
            vec![engine(
                PwQPolynomial::from_piece(Map::universe(space), q),
                op,
                pos,
            )?]
        }
        v => {
            return Err(type_error(
                pos,
                format!(
                    "`{op}` expects a piecewise quasipolynomial, found {}",
                    v.a_type()
                ),
            ))
        }
    };
    let mut acc: Option<PwQPolynomialFold> = None;
    let mut exact = true;
    for f in &fs {
        let (b, e) = engine(
            if max {
                presburger::upper_bound(f)
            } else {
                presburger::lower_bound(f)
            },
            op,
            pos,
        )?;
        exact &= e;
        acc = Some(match acc {
            None => b,
            Some(a) => engine(a.fold(&b), op, pos)?,
        });
    }
    let b = match acc {
        Some(b) => b,
        None => {
            engine(
                presburger::upper_bound(&PwQPolynomial::zero(presburger::Space::params_only(
                    Vec::<String>::new(),
                ))),
                op,
                pos,
            )?
            .0
        }
    };
    Ok(Value::List(vec![Value::Fold(b), Value::Bool(exact)]))
}

/// A quasi-polynomial literal (`[n] -> { [i] -> (i^2 + n) : 0 <= i < n }`).
pub fn literal(text: &str, pos: Pos) -> Result<Value> {
    let fs = presburger::parse_union_qpolynomial(text)
        .map_err(|e| crate::eval::literal_error_in(e, pos, "a quasi-polynomial literal"))?;
    Ok(Value::QPoly(fs))
}

/// `F(P)`: the value of `F` at the single point of `P`.
pub fn eval_at(fs: &[PwQPolynomial], at: &UnionMap, pos: Pos) -> Result<Value> {
    let [m] = at.maps() else {
        return Err(type_error(
            pos,
            "a quasipolynomial is evaluated at a set of one point".into(),
        ));
    };
    let Some(f) = fs
        .iter()
        .find(|f| f.space().range == m.space().range && f.space().domain == m.space().domain)
    else {
        return Ok(Value::Int(Int::ZERO));
    };
    let mut m = m.clone();
    m.align_params(&f.space().params);
    let mut point = None;
    for b in m.basic_maps() {
        if let Some(p) = engine(b.sample(), "evaluate", pos)? {
            point = Some(p);
            break;
        }
    }
    let Some(point) = point else {
        return Err(type_error(
            pos,
            "a quasipolynomial cannot be evaluated at an empty set".into(),
        ));
    };
    let mut single = BasicMap::universe(m.space().clone());
    for (k, v) in point.iter().enumerate() {
        let mut row = vec![Int::ZERO; single.row_len()];
        row[1 + k] = Int::ONE;
        row[0] = -v;
        single.add_eq(row);
    }
    if !engine(m.is_subset(&Map::from_basic(single)), "evaluate", pos)? {
        return Err(type_error(
            pos,
            "a quasipolynomial is evaluated at a set of one point".into(),
        ));
    }
    let v: Rat = engine(f.eval(&point), "evaluate", pos)?;
    Ok(if v.is_integer() {
        Value::Int(v.numer().clone())
    } else {
        Value::Rational(v)
    })
}
