//! Enumeration oracles of the counting functions: the parameters (and a
//! relation's domain point) are fixed, then the points are enumerated.

use super::{PwQPolynomial, Rat};
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};

/// `m` with its first `values.len()` variables (parameters, then
/// dimensions) fixed to `values`.
fn fixed(m: &Map, values: &[Int]) -> Result<Map> {
    let mut b = BasicMap::universe(m.space().clone());
    if values.len() > m.space().n_vars() {
        return Err(Error::Invalid("too many coordinates".into()));
    }
    for (k, v) in values.iter().enumerate() {
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1 + k] = Int::ONE;
        row[0] = -v;
        b.add_eq(row);
    }
    m.intersect(&Map::from_basic(b))
}

/// The number of points of `set` at the parameter values `params`, by
/// enumeration (the oracle of [`card`](super::card)).
pub fn card_by_enumeration(set: &Set, params: &[Int]) -> Result<Int> {
    if params.len() != set.space().n_param() {
        return Err(Error::Invalid(
            "card_by_enumeration: one value per parameter".into(),
        ));
    }
    fixed(set, params)?.card()
}

/// The number of images of the domain point `point` (parameters, then
/// domain dimensions) under `map`, by enumeration (the oracle of
/// [`card_map`](super::card_map)).
pub fn card_map_by_enumeration(map: &Map, point: &[Int]) -> Result<Int> {
    if point.len() != map.space().n_param() + map.space().n_in() {
        return Err(Error::Invalid(
            "card_map_by_enumeration: parameters and domain point".into(),
        ));
    }
    fixed(map, point)?.card()
}

/// The sum of `f` at the parameter values `params` over the points of its
/// domain with every dimension in `[-bound, bound]` (the oracle of
/// [`sum`](super::sum) for domains inside that box).
pub fn sum_by_enumeration(f: &PwQPolynomial, params: &[Int], bound: i64) -> Result<Rat> {
    let nd = f.space().n_vars() - f.space().n_param();
    let mut point: Vec<Int> = params.to_vec();
    point.extend(std::iter::repeat(Int::from(-bound)).take(nd));
    let mut total = Rat::zero();
    loop {
        crate::budget::tick(1)?;
        total = total.add(&f.eval(&point)?);
        // next point of the box
        let mut k = point.len();
        loop {
            if k == params.len() {
                return Ok(total);
            }
            k -= 1;
            if point[k] < Int::from(bound) {
                point[k] = &point[k] + &Int::ONE;
                break;
            }
            point[k] = Int::from(-bound);
        }
    }
}
