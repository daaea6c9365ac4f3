//! isl notation for functions: [`Display`](fmt::Display) and [`FromStr`].
//!
//! Printing follows isl: each output is `(expr)`, or `(expr)/d` for a
//! rational one; terms come in the order constant, parameters, dimensions,
//! divisions (`(-1 + n + i)`, `(3 - i)`), integer divisions are
//! `floor((num)/d)`; pieces are separated by `; ` and a piece's domain is
//! written after ` : ` (disjuncts joined by ` or `), as the crate prints sets.
//! A division whose coefficient is a multiple of its denominator is
//! written with `mod` as isl does (`(i - (i) mod 2)` for `2*floor((i)/2)`).
//! Known differences from isl: divisions are normalized further (isl keeps
//! `floor((1 + 2i)/4)`, this crate prints `floor((i)/2)`), the order of
//! several divisions may differ, and domain constraints are printed as
//! [`Map`]'s `Display` does (`n >= 1` where isl writes `n > 0`).
//!
//! Parsing goes through the map parser ([`Map`]'s `FromStr`) and
//! [`PwMultiAff::from_map`], which gives the right function for every
//! affine input; a rational output such as `(i)/2` is read as the integral
//! function on the points where it is an integer.

use std::fmt;
use std::str::FromStr;

use super::{constraints_text, dim_names, params_prefix, term_text, tuples_text};
use crate::aff::expr::Aff;
use crate::aff::multi::{domain_of_function, is_params_domain, MultiAff};
use crate::aff::piecewise::{PwAff, PwMultiAff};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::space::Space;

/// `row · (1, names...)` in isl's order: constant first.
fn lin_text(row: &[Int], names: &[String], ident: &[bool]) -> String {
    let mut out = String::new();
    let mut first = true;
    if !row[0].is_zero() {
        out.push_str(&row[0].to_string());
        first = false;
    }
    for (j, c) in row.iter().enumerate().skip(1) {
        if c.is_zero() {
            continue;
        }
        term_text(c, &names[j], ident[j], first, &mut out);
        first = false;
    }
    if first {
        out.push('0');
    }
    out
}

/// The names of an aff's variable columns `[_, params, dims]` on its domain.
fn var_names(dom: &Space) -> Vec<String> {
    let mut names = vec![String::new()];
    names.extend(dom.params.iter().cloned());
    names.extend(dim_names(dom));
    names
}

/// The value of an aff as isl writes it inside a tuple: `(expr)` or `(expr)/d`.
///
/// As isl does, a division whose coefficient is a multiple `k·d` of its
/// denominator is written through `d·floor(e/d) = e - e mod d`: `k·e` joins
/// the linear part and `-k·((e) mod d)` follows it (`(i - (i) mod 2)`,
/// `((1 + i) mod 3)`).
fn aff_text(a: &Aff, base: &[String]) -> String {
    let mut names: Vec<String> = base.to_vec();
    let mut ident = vec![true; names.len()];
    let mut nums = Vec::with_capacity(a.divs.len());
    for d in &a.divs {
        let k = names.len();
        let num = lin_text(&d.num[..k], &names, &ident);
        names.push(format!("floor(({num})/{})", d.den));
        ident.push(false);
        nums.push(num);
    }
    let off = base.len();
    let mut num = a.num.clone();
    let mut mods: Vec<(usize, Int)> = Vec::new();
    for k in (0..a.divs.len()).rev() {
        let col = off + k;
        let d = &a.divs[k];
        if num[col].is_zero() || !num[col].is_divisible_by(&d.den) {
            continue;
        }
        let q = num[col].div_exact(&d.den);
        for (j, v) in d.num[..col].iter().enumerate() {
            if !v.is_zero() {
                num[j].add_mul(&q, v);
            }
        }
        num[col] = Int::ZERO;
        mods.push((k, -&q));
    }
    mods.sort();
    let mut body = lin_text(&num, &names, &ident);
    let mut first = num.iter().all(Int::is_zero);
    if first && !mods.is_empty() {
        body.clear();
    }
    for (k, c) in mods {
        let m = format!("({}) mod {}", nums[k], a.divs[k].den);
        if first && c == Int::from(-1) {
            body.push_str(&format!("-1*({m})"));
        } else if c.abs().is_one() {
            term_text(&c, &m, true, first, &mut body);
        } else {
            term_text(&c, &format!("({m})"), false, first, &mut body);
        }
        first = false;
    }
    if a.den.is_one() {
        format!("({body})")
    } else {
        format!("({body})/{}", a.den)
    }
}

/// The condition of a domain set over `dom`, or `None` for the universe.
fn condition(d: &Set, dom: &Space) -> Option<String> {
    let mut bodies = Vec::new();
    for b in d.basic_maps() {
        let mut b = b.clone();
        b.space = dom.clone();
        let body = constraints_text(&b);
        if body.is_empty() {
            return None;
        }
        bodies.push(body);
    }
    if bodies.is_empty() {
        return Some("false".to_string());
    }
    Some(bodies.join(" or "))
}

/// One piece `D[i] -> T[(..)] : cond` (or `T[(..)] : cond` on a parameter domain).
fn piece_text(ma: &MultiAff, dom_set: Option<&Set>) -> String {
    let dom = ma.domain_space();
    let base = var_names(&dom);
    let vals: Vec<String> = ma.affs.iter().map(|a| aff_text(a, &base)).collect();
    let mut out = String::new();
    if !is_params_domain(&dom) {
        out.push_str(&tuples_text(&dom));
        out.push_str(" -> ");
    }
    // a target tuple filled with values (`A[(i), (2i)]`, `[[(i)] -> [(0)]]`)
    crate::print::tuple_text(&ma.space.range, &mut vals.iter(), "(0)", &mut out);
    if let Some(cond) = dom_set.and_then(|d| condition(d, &dom)) {
        out.push_str(" : ");
        out.push_str(&cond);
    }
    out
}

fn pieces_text(space: &Space, pieces: &[(Set, MultiAff)]) -> String {
    let prefix = params_prefix(&space.params);
    if pieces.is_empty() {
        let t = tuples_text(space);
        return if t.is_empty() {
            format!("{prefix}{{ : false }}")
        } else {
            format!("{prefix}{{ {t} : false }}")
        };
    }
    let parts: Vec<String> = pieces.iter().map(|(d, m)| piece_text(m, Some(d))).collect();
    format!("{prefix}{{ {} }}", parts.join("; "))
}

impl fmt::Display for Aff {
    /// isl notation, e.g. `[n] -> { S[i] -> [(n + i)] }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&MultiAff::from_aff(self.clone()), f)
    }
}

impl fmt::Display for MultiAff {
    /// isl notation, e.g. `{ S[i] -> A[(i), (2i)] }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{{ {} }}",
            params_prefix(&self.space.params),
            piece_text(self, None)
        )
    }
}

impl fmt::Display for PwMultiAff {
    /// isl notation, e.g. `{ [i] -> [(i)] : i >= 0; [i] -> [(-i)] : i < 0 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&pieces_text(&self.space, &self.pieces))
    }
}

impl fmt::Display for PwAff {
    /// isl notation, e.g. `{ [i] -> [(i)] : 0 <= i <= 3; [i] -> [(3)] : i >= 4 }`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_pw_multi_aff(), f)
    }
}

fn invalid(what: &str, why: &str) -> Error {
    Error::Invalid(format!("{what}: {why}"))
}

impl FromStr for PwMultiAff {
    type Err = Error;
    /// Through the map parser and [`PwMultiAff::from_map`].
    fn from_str(s: &str) -> Result<PwMultiAff> {
        PwMultiAff::from_map(&Map::from_str(s)?)
    }
}

impl FromStr for PwAff {
    type Err = Error;
    /// A [`PwMultiAff`] with one output.
    fn from_str(s: &str) -> Result<PwAff> {
        let p = PwMultiAff::from_str(s)?;
        if p.space.n_out() != 1 {
            return Err(invalid("pw_aff", "expected exactly one output"));
        }
        p.pw_aff(0)
    }
}

impl FromStr for MultiAff {
    type Err = Error;
    /// A [`PwMultiAff`] with one piece defined everywhere.
    fn from_str(s: &str) -> Result<MultiAff> {
        let p = PwMultiAff::from_str(s)?;
        let dom = domain_of_function(&p.space);
        match p.pieces.as_slice() {
            [(d, m)] if Map::universe(dom).is_subset(d)? => Ok(m.clone()),
            [] => Err(invalid("multi_aff", "the function is defined nowhere")),
            _ => Err(invalid(
                "multi_aff",
                "expected one function defined on the whole domain (no condition)",
            )),
        }
    }
}

impl FromStr for Aff {
    type Err = Error;
    /// A [`MultiAff`] with one output.
    fn from_str(s: &str) -> Result<Aff> {
        let m = MultiAff::from_str(s)?;
        if m.affs.len() != 1 {
            return Err(invalid("aff", "expected exactly one output"));
        }
        Ok(m.affs[0].clone())
    }
}
