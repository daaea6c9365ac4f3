//! From relations to functions: [`PwMultiAff::from_map`] and the
//! lexicographic optima as piecewise functions.

use crate::aff::expr::Aff;
use crate::aff::multi::{domain_of_function, MultiAff};
use crate::aff::piecewise::PwMultiAff;
use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::{Map, Set};
use crate::matrix;
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
    /// assert_eq!(f.to_string(), "{ [i] -> [(floor((i)/2))] : (i) mod 2 = 0 }");
    /// let g: Map = "{ [i] -> [o] : 0 <= o <= i }".parse().unwrap();
    /// assert!(PwMultiAff::from_map(&g).is_err());
    /// ```
    pub fn from_map(m: &Map) -> Result<PwMultiAff> {
        let single = if m.is_set() {
            // a set is a function of the parameters when it is its own lexmin
            m.is_subset(&m.lexmin()?)?
        } else {
            m.is_single_valued()?
        };
        if !single {
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
    /// assert_eq!(s.lexmin_pw_multi_aff().unwrap().to_string(), "[n] -> { [(0), (0)] : n >= 1 }");
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
        // as written (divisions as the user gave them), then simplified, then via lexmin
        if let Some(piece) = piece_of(b, &dom)? {
            raw.push(piece);
            continue;
        }
        let mut b = b.clone();
        if !b.simplify() {
            continue;
        }
        b.detect_divs();
        if let Some(piece) = piece_of(&b, &dom)? {
            raw.push(piece);
            continue;
        }
        let lm = Map::from_basic(b).lexmin()?;
        for p in lm.basic_maps() {
            // the search's pieces state their outputs as functions of the
            // domain; simplifying first may rewrite a division in terms of
            // the outputs, so they are read as given first
            if let Some(piece) = piece_of(p, &dom)? {
                raw.push(piece);
                continue;
            }
            let mut p = p.clone();
            if !p.simplify() {
                continue;
            }
            p.detect_divs();
            match piece_of(&p, &dom)? {
                Some(piece) => raw.push(piece),
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
        if fresh.is_empty()? {
            continue;
        }
        seen = seen.union(&d)?;
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

/// The function of one disjunct and its domain, when [`solve`] finds it.
fn piece_of(b: &BasicMap, dom: &Space) -> Result<Option<(Set, MultiAff)>> {
    match solve(b, dom)? {
        Some(ma) => Ok(Some((domain_of(b, &ma, dom), ma))),
        None => Ok(None),
    }
}

/// The domain `{ x : (x, f(x)) in b }` of a disjunct whose outputs are `f`:
/// the outputs are substituted (no projection), `b`'s locals stay locals
/// (definitions that mention an output are dropped), `f`'s divisions are
/// added as defined locals.
fn domain_of(b: &BasicMap, f: &MultiAff, dom: &Space) -> Set {
    let (off_out, off_div, no) = (b.off_out(), b.off_div(), b.n_out());
    let nd = b.n_div();
    let mut d = BasicMap::universe(dom.clone());
    for _ in 0..nd {
        d.add_existential();
    }
    // column of b -> column of d (outputs have none)
    let col = |j: usize| -> Option<usize> {
        if j < off_out {
            Some(j)
        } else if j < off_div {
            None
        } else {
            Some(j - no)
        }
    };
    let len0 = d.row_len();
    let translate = |r: &[Int]| -> Vec<Int> {
        let mut out = vec![Int::ZERO; len0];
        for (j, v) in r.iter().enumerate() {
            if let Some(c) = col(j) {
                out[c] = v.clone();
            }
        }
        out
    };
    for (k, def) in b.divs().iter().enumerate() {
        if let Some(def) = def {
            if def.num[off_out..off_div].iter().all(Int::is_zero) {
                d.divs[k] = Some(crate::basic::Div {
                    num: translate(&def.num),
                    den: def.den.clone(),
                });
            }
        }
    }
    let rows: Vec<Vec<Int>> = f
        .affs
        .iter()
        .map(|a| crate::aff::multi::embed(a, &mut d))
        .collect();
    let len = d.row_len();
    let l = f.affs.iter().fold(Int::ONE, |acc, a| acc.lcm(&a.den));
    let subst = |r: &[Int]| -> Vec<Int> {
        let mut out: Vec<Int> = translate(r).into_iter().map(|v| &v * &l).collect();
        out.resize(len, Int::ZERO);
        for (k, a) in f.affs.iter().enumerate() {
            let c = &r[off_out + k];
            if c.is_zero() {
                continue;
            }
            let m = c * &l.div_exact(&a.den);
            for (j, v) in rows[k].iter().enumerate() {
                if !v.is_zero() {
                    out[j].add_mul(&m, v);
                }
            }
        }
        out
    };
    for r in b.eqs() {
        let row = subst(r);
        d.add_eq(row);
    }
    for r in b.ineqs() {
        let row = subst(r);
        d.add_ineq(row);
    }
    if d.simplify() {
        d.detect_divs();
        Map::from_basic(d)
    } else {
        Map::empty(dom.clone())
    }
}

/// The outputs of a disjunct as affs of its parameters and inputs, when its
/// constraints fix them: through equalities (solved for the unknowns,
/// undetermined locals first), through a pair of inequalities
/// `e - d·o >= 0`, `-e + d·o + s >= 0` with `s < d` (`o = floor(e/d)`), and
/// through divisions defined by known columns, repeated until nothing
/// changes; `None` if an output stays undetermined.
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
    loop {
        let mut progress = false;
        // divisions defined in terms of known columns
        for (k, d) in b.divs().iter().enumerate() {
            let col = off_div + k;
            let Some(d) = d else { continue };
            if known[col].is_some() {
                continue;
            }
            if let Some(v) = combination(dom, &d.num, &known)? {
                known[col] = Some(v.floor_div(&d.den)?);
                progress = true;
            }
        }
        // equalities, solved for the unknowns: locals first, outputs last
        let unknown: Vec<usize> = (off_div..n)
            .chain(off_out..off_out + no)
            .filter(|&c| known[c].is_none())
            .collect();
        if unknown.is_empty() {
            break;
        }
        let (rows, pivot) = eliminate(b.eqs(), &unknown, n);
        for &c in &unknown {
            let Some(r) = pivot[c] else { continue };
            let row = &rows[r];
            if unknown.iter().any(|&u| u != c && !row[u].is_zero()) {
                continue;
            }
            let mut rest = row.clone();
            rest[c] = Int::ZERO;
            if let Some(v) = combination(dom, &rest, &known)? {
                known[c] = Some(v.scale_down(&-&row[c])?.floor());
                progress = true;
            }
        }
        // pairs of inequalities that pin an unknown to a floor
        for &c in &unknown {
            if known[c].is_some() {
                continue;
            }
            let alone = |r: &[Int]| unknown.iter().all(|&u| u == c || r[u].is_zero());
            let found = b.ineqs().iter().find_map(|r1| {
                if !r1[c].is_neg() || !alone(r1) {
                    return None;
                }
                let d = -&r1[c];
                b.ineqs().iter().find_map(|r2| {
                    let opposite = (1..n).all(|j| r2[j] == -&r1[j]);
                    let s = &r1[0] + &r2[0];
                    (opposite && !s.is_neg() && s < d).then(|| (r1.to_vec(), d.clone()))
                })
            });
            if let Some((r1, d)) = found {
                let mut e = r1;
                e[c] = Int::ZERO;
                if let Some(v) = combination(dom, &e, &known)? {
                    known[c] = Some(v.floor_div(&d)?);
                    progress = true;
                }
            }
        }
        if !progress {
            break;
        }
    }
    let mut affs = Vec::with_capacity(no);
    for k in 0..no {
        match &known[off_out + k] {
            Some(a) => affs.push(a.clone()),
            None => return Ok(None),
        }
    }
    Ok(Some(MultiAff {
        space: b.space().clone(),
        affs,
    }))
}

/// Gauss–Jordan elimination of the equalities on the columns `cols` (in
/// order): the reduced rows and, per column, its pivot row.
fn eliminate(eqs: &crate::Rows, cols: &[usize], n: usize) -> (Vec<Vec<Int>>, Vec<Option<usize>>) {
    let mut rows: Vec<Vec<Int>> = eqs.to_vec();
    let mut pivot: Vec<Option<usize>> = vec![None; n];
    let mut used = vec![false; rows.len()];
    for &c in cols {
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
            matrix::eliminate(row, &pr, c);
            matrix::normalize_row(row);
        }
    }
    (rows, pivot)
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
