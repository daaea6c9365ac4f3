//! From relations to functions: [`PwMultiAff::from_map`] and the
//! lexicographic optima as piecewise functions.

use crate::aff::expr::Aff;
use crate::aff::multi::{domain_of_function, MultiAff};
use crate::aff::piecewise::PwMultiAff;
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::{gcd_slice, Int};
use crate::map::{Map, Set};
use crate::space::Space;

impl PwMultiAff {
    /// The function whose graph is the single-valued map `m` (for a set: the
    /// function of the parameters whose graph is the set).
    ///
    /// Each disjunct's outputs are read off its equalities (after solving
    /// them for the outputs, with divisions whose definitions use only
    /// parameters and inputs); a disjunct whose outputs are fixed by
    /// inequalities only goes through [`Map::lexmin`] first (exact, since the
    /// disjunct is single-valued). Overlapping disjuncts are made disjoint and
    /// pieces with the same function are merged.
    ///
    /// `Err` if `m` is not single-valued, or a disjunct's output is not a
    /// quasi-affine function of its inputs.
    ///
    /// ```
    /// use presburger::{Map, PwMultiAff};
    /// let m: Map = "{ [i] -> [o] : 2o = i }".parse().unwrap();
    /// let f = PwMultiAff::from_map(&m).unwrap();
    /// assert_eq!(f.to_string(), "{ [i] -> [(floor((i)/2))] : i = 2*floor((i)/2) }");
    /// let g: Map = "{ [i] -> [o] : 0 <= o <= i }".parse().unwrap();
    /// assert!(PwMultiAff::from_map(&g).is_err());
    /// ```
    pub fn from_map(m: &Map) -> Result<PwMultiAff> {
        if !m.is_single_valued()? {
            return Err(Error::Invalid(
                "pw_multi_aff from map: the relation is not single-valued (not a function)".into(),
            ));
        }
        from_single_valued(m)
    }
}

impl Map {
    /// The lexicographic minimum as a piecewise function: for a relation,
    /// of the domain points; for a set, of the parameters.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "[n] -> { [i, j] : 0 <= i < n and 0 <= j <= i }".parse().unwrap();
    /// assert_eq!(s.lexmin_pw_multi_aff().unwrap().to_string(), "[n] -> { [(0), (0)] : n > 0 }");
    /// ```
    pub fn lexmin_pw_multi_aff(&self) -> Result<PwMultiAff> {
        from_single_valued(&self.lexmin()?)
    }

    /// The lexicographic maximum as a piecewise function (see
    /// [`lexmin_pw_multi_aff`](Self::lexmin_pw_multi_aff)).
    pub fn lexmax_pw_multi_aff(&self) -> Result<PwMultiAff> {
        from_single_valued(&self.lexmax()?)
    }
}

/// [`PwMultiAff::from_map`] without the single-valuedness check.
pub(crate) fn from_single_valued(m: &Map) -> Result<PwMultiAff> {
    let space = m.space().clone();
    let dom = domain_of_function(&space);
    let mut raw: Vec<(Set, MultiAff)> = Vec::new();
    for b in m.basic_maps() {
        let mut b = b.clone();
        if !b.simplify() {
            continue;
        }
        b.detect_divs();
        if let Some(ma) = solve(&b, &dom)? {
            raw.push((domain_of(&b, &dom)?, ma));
            continue;
        }
        let lm = Map::from_basic(b).lexmin()?;
        for p in lm.basic_maps() {
            let mut p = p.clone();
            if !p.simplify() {
                continue;
            }
            p.detect_divs();
            match solve(&p, &dom)? {
                Some(ma) => raw.push((domain_of(&p, &dom)?, ma)),
                None => {
                    return Err(Error::Invalid(format!(
                        "pw_multi_aff from map: an output of `{p}` is not a quasi-affine function of its inputs"
                    )))
                }
            }
        }
    }
    // disjoint domains, equal functions merged
    let mut pieces: Vec<(Set, MultiAff)> = Vec::new();
    let mut seen = Map::empty(dom.clone());
    for (d, ma) in raw {
        let fresh = if seen.basic_maps().is_empty() {
            d.clone()
        } else {
            d.subtract(&seen)?
        };
        seen = seen.union(&d)?;
        if fresh.is_empty()? {
            continue;
        }
        match pieces.iter_mut().find(|(_, f)| *f == ma) {
            Some(p) => p.0 = p.0.union(&fresh)?,
            None => pieces.push((fresh, ma)),
        }
    }
    let mut out = Vec::with_capacity(pieces.len());
    for (d, ma) in pieces {
        out.push((d.coalesce()?, ma));
    }
    Ok(PwMultiAff { space, pieces: out })
}

/// The domain of one disjunct, over the function's domain space.
fn domain_of(b: &BasicMap, dom: &Space) -> Result<Set> {
    let m = Map::from_basic(b.clone());
    let mut d = if b.space().is_set() {
        m.params()
    } else {
        m.domain()?
    };
    d.space = dom.clone();
    for p in &mut d.parts {
        p.space = dom.clone();
    }
    Ok(d)
}

/// The outputs of a disjunct as affs of its parameters and inputs, when its
/// equalities determine them; `None` otherwise.
fn solve(b: &BasicMap, dom: &Space) -> Result<Option<MultiAff>> {
    let np = b.n_param();
    let ni = b.n_in();
    let no = b.n_out();
    let (off_out, off_div, n) = (b.off_out(), b.off_div(), b.row_len());
    let mut known: Vec<Option<Aff>> = vec![None; n];
    for k in 0..np {
        known[1 + k] = Some(Aff::param(dom, k)?);
    }
    for k in 0..ni {
        known[1 + np + k] = Some(Aff::var(dom, k)?);
    }
    // divisions defined in terms of known columns
    loop {
        let mut changed = false;
        for (k, d) in b.divs().iter().enumerate() {
            let col = off_div + k;
            let Some(d) = d else { continue };
            if known[col].is_some() {
                continue;
            }
            if let Some(v) = combination(dom, &d.num, &known)? {
                known[col] = Some(v.floor_div(&d.den)?);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // solve the equalities for the unknowns: undetermined locals first, outputs last
    let unknown: Vec<usize> = (off_div..n)
        .filter(|&c| known[c].is_none())
        .chain(off_out..off_out + no)
        .collect();
    let mut rows: Vec<Vec<Int>> = b.eqs().to_vec();
    let mut pivot: Vec<Option<usize>> = vec![None; n];
    let mut used = vec![false; rows.len()];
    for &c in &unknown {
        let Some(r) = (0..rows.len())
            .filter(|&r| !used[r] && !rows[r][c].is_zero())
            .min_by(|&x, &y| rows[x][c].abs().cmp(&rows[y][c].abs()))
        else {
            continue;
        };
        used[r] = true;
        pivot[c] = Some(r);
        let pr = rows[r].clone();
        for (r2, row) in rows.iter_mut().enumerate() {
            if r2 == r || row[c].is_zero() {
                continue;
            }
            let q = row[c].clone();
            let p = pr[c].clone();
            let neg_q = -&q;
            for (v, w) in row.iter_mut().zip(&pr) {
                *v = Int::combine(&p, v, &neg_q, w);
            }
            let g = gcd_slice(row);
            if !g.is_zero() && !g.is_one() {
                row.iter_mut().for_each(|v| *v = v.div_exact(&g));
            }
        }
    }
    let mut affs = Vec::with_capacity(no);
    for k in 0..no {
        let c = off_out + k;
        let Some(r) = pivot[c] else {
            return Ok(None);
        };
        let row = &rows[r];
        if unknown.iter().any(|&u| u != c && !row[u].is_zero()) {
            return Ok(None);
        }
        // row[c]·o + rest = 0  =>  o = -rest / row[c]
        let mut rest = row.clone();
        rest[c] = Int::ZERO;
        let Some(v) = combination(dom, &rest, &known)? else {
            return Ok(None);
        };
        affs.push(v.scale_down(&-&row[c])?.floor());
    }
    Ok(Some(MultiAff {
        space: b.space().clone(),
        affs,
    }))
}

/// `row · (1, known values)`, or `None` if the row uses an unknown column.
fn combination(dom: &Space, row: &[Int], known: &[Option<Aff>]) -> Result<Option<Aff>> {
    let mut acc = Aff::constant(dom, row[0].clone());
    for (j, c) in row.iter().enumerate().skip(1) {
        if c.is_zero() {
            continue;
        }
        let Some(v) = known.get(j).and_then(Option::as_ref) else {
            return Ok(None);
        };
        acc = acc.combine(&Int::ONE, v, c, "from_map")?;
    }
    Ok(Some(acc))
}
