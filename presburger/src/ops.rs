//! Set operations that need the solvers: emptiness, sampling, difference,
//! complement, inclusion, counting.
//!
//! Emptiness is exact over the integers: all parameters, dimensions and
//! locals are integer unknowns of one branch-and-bound search
//! ([`crate::simplex::integer_sample`]). Difference `A \ B` splits on the
//! constraints of each disjunct of `B`, which needs every local of `B` to
//! have an explicit definition; existentials that the cheap rules of
//! [`BasicMap::detect_divs`] cannot define are made explicit with parametric
//! integer programming ([`crate::pip`]).

use std::borrow::Cow;

use crate::basic::BasicMap;
use crate::budget;
use crate::error::{Error, Result};
use crate::guess::{guess, Guess};
use crate::int::Int;
use crate::map::Map;
use crate::simplex::integer_sample;

impl BasicMap {
    /// Exact integer emptiness.
    ///
    /// ```
    /// use presburger::Set;
    /// let s: Set = "{ [i] : 1 <= 2i <= 1 }".parse().unwrap();
    /// assert!(s.is_empty().unwrap());
    /// ```
    pub fn is_empty(&self) -> Result<bool> {
        Ok(sample_of(Cow::Borrowed(self), false)?.is_none())
    }

    /// An integer point `(params, in, out)` of the basic map, or `None` if it is empty.
    ///
    /// Cheap tests first: the point an earlier call found, if it still
    /// satisfies every constraint; a trivially false row (`None`); a point
    /// found by bound propagation, checked against every constraint (and
    /// kept for later calls). Otherwise the exact search runs
    /// ([`sample_by_search`](Self::sample_by_search)).
    pub fn sample(&self) -> Result<Option<Vec<Int>>> {
        Ok(sample_of(Cow::Borrowed(self), true)?.flatten())
    }

    /// [`is_empty`](Self::is_empty) of a basic map the caller no longer
    /// needs (it is simplified in place instead of copied).
    pub(crate) fn into_is_empty(self) -> Result<bool> {
        Ok(sample_of(Cow::Owned(self), false)?.is_none())
    }

    /// [`sample`](Self::sample) without the shortcuts: simplify, then the
    /// exact branch-and-bound search (kept as the shortcuts' test oracle).
    #[doc(hidden)]
    pub fn sample_by_search(&self) -> Result<Option<Vec<Int>>> {
        let mut b = self.clone();
        if !b.simplify() {
            return Ok(None);
        }
        b.search_simplified()
    }

    /// [`sample`](Self::sample) of an already simplified basic map: a
    /// verified guess (bound propagation; simplification may have removed
    /// what blocked it on the original), else the exact search.
    fn sample_simplified(&self) -> Result<Option<Vec<Int>>> {
        match guess(self, true, false) {
            Guess::Point(p) => Ok(p),
            Guess::Empty => Ok(None),
            Guess::Unknown => self.search_simplified(),
        }
    }

    /// The exact branch-and-bound search for a point of a simplified basic map.
    fn search_simplified(&self) -> Result<Option<Vec<Int>>> {
        let nv = self.space.n_vars();
        let full = integer_sample(nv + self.n_div(), &self.eqs, &self.ineqs)?;
        Ok(full.map(|mut p| {
            p.truncate(nv);
            p
        }))
    }

    /// The simplified basic map, or `None` if it is empty (exact test).
    pub(crate) fn simplified_nonempty(&self) -> Result<Option<BasicMap>> {
        self.clone().into_simplified_nonempty()
    }

    /// [`simplified_nonempty`](Self::simplified_nonempty), in place.
    pub(crate) fn into_simplified_nonempty(self) -> Result<Option<BasicMap>> {
        let mut b = self;
        // `b` is simplified: search it directly instead of re-simplifying a copy
        if !b.simplify() || b.sample_simplified()?.is_none() {
            return Ok(None);
        }
        if b.local_relations_by_lp()? {
            b.simplify();
        }
        Ok(Some(b))
    }

    /// Make every local explicit (a div with a definition): first by the cheap
    /// rules of [`detect_divs`](Self::detect_divs), then by parametric integer
    /// programming. The result is a union of basic maps equal to `self`.
    pub fn make_divs_explicit(&self) -> Result<Vec<BasicMap>> {
        let mut b = self.clone();
        if !b.simplify() {
            return Ok(vec![]);
        }
        if b.detect_divs() {
            return Ok(vec![b]);
        }
        crate::pip::explicit_divs(&b)
    }

    /// True if the rational relaxation is empty (a cheap test: `false` does
    /// not mean there is an integer point).
    pub fn is_rationally_empty(&self) -> Result<bool> {
        Ok(self.rational_tableau()?.is_empty())
    }

    /// The simplex tableau of the rational relaxation (all constraints, the
    /// locals as plain variables); it may be empty.
    pub(crate) fn rational_tableau(&self) -> Result<crate::simplex::Tableau> {
        let mut t = crate::simplex::Tableau::new(self.row_len() - 1);
        for e in &self.eqs {
            t.add_eq(e)?;
            if t.is_empty() {
                return Ok(t);
            }
        }
        for r in &self.ineqs {
            t.add_ineq(r)?;
            if t.is_empty() {
                return Ok(t);
            }
        }
        Ok(t)
    }

    /// True if `(params, in, out)` satisfies the basic map (locals are searched exactly).
    pub fn contains_point(&self, point: &[Int]) -> Result<bool> {
        let nv = self.space.n_vars();
        if point.len() != nv {
            return Err(Error::Invalid(
                "contains_point: wrong number of coordinates".into(),
            ));
        }
        let mut b = self.clone();
        for (k, v) in point.iter().enumerate() {
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1 + k] = Int::ONE;
            row[0] = -v;
            b.eqs.push(row);
        }
        Ok(!b.into_is_empty()?)
    }
}

impl Map {
    /// Simplify every disjunct and drop the empty ones (exact).
    pub fn remove_empty_parts(&self) -> Result<Map> {
        let mut out = Map::empty(self.space.clone());
        for b in &self.parts {
            if let Some(b) = b.simplified_nonempty()? {
                out.parts.push(b);
            }
        }
        Ok(out)
    }

    /// Exact integer emptiness.
    pub fn is_empty(&self) -> Result<bool> {
        for b in &self.parts {
            if !b.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// One integer point of the map as a single-point map (parameters fixed too), or `None`.
    pub fn sample_point(&self) -> Result<Option<Map>> {
        for b in &self.parts {
            if let Some(p) = b.sample()? {
                let mut pt = BasicMap::universe(self.space.clone());
                for (k, v) in p.iter().enumerate() {
                    let mut row = vec![Int::ZERO; pt.row_len()];
                    row[1 + k] = Int::ONE;
                    row[0] = -v;
                    pt.eqs.push(row);
                }
                return Ok(Some(Map::from_basic(pt)));
            }
        }
        Ok(None)
    }

    /// True if `(params, in, out)` lies in the map.
    pub fn contains_point(&self, point: &[Int]) -> Result<bool> {
        for b in &self.parts {
            if b.contains_point(point)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The difference `self \ other`.
    ///
    /// ```
    /// use presburger::Set;
    /// let a: Set = "{ [i] : 0 <= i <= 10 }".parse().unwrap();
    /// let b: Set = "{ [i] : exists e : i = 2e }".parse().unwrap();
    /// let d = a.subtract(&b).unwrap();
    /// assert!(d.is_equal(&"{ [i] : 0 <= i <= 10 and i % 2 = 1 }".parse().unwrap()).unwrap());
    /// ```
    pub fn subtract(&self, other: &Map) -> Result<Map> {
        let (a, b) = self.aligned_ref(other, "subtract")?;
        let mut cur: Vec<BasicMap> = Vec::new();
        for p in &a.parts {
            if let Some(mut p) = p.simplified_nonempty()? {
                // cheap definitions for the minuend's existentials let the
                // subtrahend's equal divisions be recognised as the same
                if p.divs.iter().any(Option::is_none) {
                    p.detect_divs();
                    p.simplify();
                }
                cur.push(p);
            }
        }
        for bpart in &b.parts {
            if cur.is_empty() {
                break;
            }
            for bx in bpart.make_divs_explicit()? {
                let mut next = Vec::new();
                for p in cur {
                    next.extend(subtract_basic(p, &bx)?);
                }
                cur = next;
            }
        }
        Ok(Map {
            space: a.space.clone(),
            parts: cur,
        })
    }

    /// The complement within the space.
    pub fn complement(&self) -> Result<Map> {
        Map::universe(self.space.clone()).subtract(self)
    }

    /// Inclusion test.
    ///
    /// Each disjunct `p` of `self` is handled on its own (`A ⊆ B` iff every
    /// disjunct of `A` is in `B`), trying cheap exact tests before the
    /// difference `p \ B`:
    /// - `p` simplifies to empty: contained;
    /// - a simplified disjunct of `B` has only constraints that `p`'s
    ///   constraints imply one by one (`syntactically_contains`): contained;
    /// - an integer point of `p` lies in no disjunct of `B`
    ///   (`point_excluded`): not contained.
    ///
    /// The simple version, [`is_subset_by_difference`](Self::is_subset_by_difference),
    /// is kept as a test oracle.
    pub fn is_subset(&self, other: &Map) -> Result<bool> {
        let (a, b) = self.aligned_ref(other, "is_subset")?;
        // a universe disjunct contains everything
        if b.parts.iter().any(BasicMap::is_universe_syntactically) {
            return Ok(true);
        }
        // the simplified disjuncts of `b`, made when first needed
        let mut bs: Option<Vec<BasicMap>> = None;
        for p in &a.parts {
            // the syntactic test holds for any rows, simplified or not
            if b.parts.iter().any(|q| syntactically_contains(q, p)) {
                continue;
            }
            let mut ps = p.clone();
            if !ps.simplify() {
                continue;
            }
            let bs = bs.get_or_insert_with(|| {
                b.parts
                    .iter()
                    .filter_map(|q| {
                        let mut q = q.clone();
                        q.simplify().then_some(q)
                    })
                    .collect()
            });
            if bs.iter().any(|q| syntactically_contains(q, &ps)) {
                continue;
            }
            let Some(pt) = ps.sample()? else {
                continue;
            };
            if bs.iter().all(|q| point_excluded(q, &pt)) {
                return Ok(false);
            }
            if lp_contains_any(bs, &ps)? {
                continue;
            }
            if !Map::from_basic(ps).subtract(&b)?.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Inclusion test by difference only: `self \ other` is empty (the
    /// simple version of [`is_subset`](Self::is_subset), kept as its test oracle).
    #[doc(hidden)]
    pub fn is_subset_by_difference(&self, other: &Map) -> Result<bool> {
        let (a, b) = self.aligned_ref(other, "is_subset")?;
        for p in &a.parts {
            if !Map::from_basic(p.clone()).subtract(&b)?.is_empty()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Equality test.
    pub fn is_equal(&self, other: &Map) -> Result<bool> {
        Ok(self.is_subset(other)? && other.is_subset(self)?)
    }

    /// True if every domain point has at most one image.
    pub fn is_single_valued(&self) -> Result<bool> {
        if self.is_set() {
            return Err(Error::SpaceMismatch(
                "is_single_valued needs a relation".into(),
            ));
        }
        // Not single-valued iff some x has images y1 != y2, i.e. iff for some
        // ordered pair of disjuncts (Bi, Bj) and some output k the set
        // { x -> (y1, y2) : x -> y1 in Bi, x -> y2 in Bj, y1_k < y2_k } has
        // an integer point (">" is the same test with the pair swapped).
        let m = self.remove_empty_parts()?;
        let np = self.space.n_param();
        let ni = self.space.n_in();
        let no = self.space.n_out();
        let space2 = crate::space::Space::map(
            self.space.params.clone(),
            self.space.domain_tuple(),
            crate::space::Tuple::anonymous(2 * no),
        );
        for bi in &m.parts {
            for bj in &m.parts {
                budget::tick(1)?;
                let (nli, nlj) = (bi.n_div(), bj.n_div());
                let loc = 1 + np + ni + 2 * no;
                let len = loc + nli + nlj;
                // [1 | p | x | y1 | y2 | locals of Bi | locals of Bj]
                let map_i: Vec<usize> = (0..1 + np + ni + no)
                    .chain((0..nli).map(|l| loc + l))
                    .collect();
                let map_j: Vec<usize> = (0..1 + np + ni)
                    .chain((0..no).map(|k| 1 + np + ni + no + k))
                    .chain((0..nlj).map(|l| loc + nli + l))
                    .collect();
                let mut a = bi.clone();
                a.remap_cols(&map_i, len);
                let mut b = bj.clone();
                b.remap_cols(&map_j, len);
                a.space = space2.clone();
                a.divs.extend(b.divs);
                a.eqs.extend(b.eqs);
                a.ineqs.extend(b.ineqs);
                for k in 0..no {
                    let mut c = a.clone();
                    let mut row = vec![Int::ZERO; len];
                    row[1 + np + ni + no + k] = Int::ONE; // y2_k
                    row[1 + np + ni + k] = Int::from(-1); // - y1_k
                    row[0] = Int::from(-1);
                    c.ineqs.push(row);
                    if !c.into_is_empty()? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// The composition-based test of single-valuedness (`R⁻¹ . R` inside the
    /// identity): slower than [`is_single_valued`](Self::is_single_valued),
    /// kept as its independent oracle in tests.
    pub fn is_single_valued_by_composition(&self) -> Result<bool> {
        if self.is_set() {
            return Err(Error::SpaceMismatch(
                "is_single_valued needs a relation".into(),
            ));
        }
        let r = self.reverse()?.apply_range(self)?;
        let id = Map::universe(self.space.range_space()).identity()?;
        r.is_subset(&id)
    }

    /// True if no two domain points have a common image.
    pub fn is_injective(&self) -> Result<bool> {
        self.reverse()?.is_single_valued()
    }

    /// The number of points of a bounded map without parameters (or with all
    /// parameters fixed by the constraints). `Err` if it is unbounded.
    pub fn card(&self) -> Result<Int> {
        let m = self.remove_empty_parts()?;
        if m.parts.len() == 1 && m.parts[0].n_div() == 0 {
            return count_without_locals(&m.parts[0]);
        }
        let nv = m.space.n_vars();
        let mut count = Int::ZERO;
        let mut prefix = Vec::with_capacity(nv);
        count_rec(&m.parts, nv, &mut prefix, &mut count)?;
        Ok(count)
    }
}

/// True if every point of `p` is in `q`, proved syntactically: both have the
/// same row layout (same space, same number of locals) and every constraint
/// of `q` is implied by a single constraint of `p`:
/// - an equality of `q` is an equality of `p` or its negation;
/// - an inequality `c + a·v >= 0` of `q` follows from an inequality
///   `c' + a·v >= 0` of `p` with `c' <= c`, or from an equality `e` of `p`
///   with `e = ±(c' + a·v)`, `±c' <= c` (then `a·v = -(±c')`).
///
/// Why this is exact: the constraints alone define a basic map (the div
/// definitions are never needed, see [`BasicMap`]), so if `x ∈ p` there are
/// locals `l` with `(x, l)` satisfying all of `p`'s rows; the same column
/// layout means `(x, l)` is a candidate for `q`, and it satisfies each of
/// `q`'s rows because one of `p`'s rows implies it. Hence `x ∈ q`.
/// `false` means "not proved", never "not contained".
fn syntactically_contains(q: &BasicMap, p: &BasicMap) -> bool {
    let n = p.row_len();
    if q.row_len() != n || q.space.params != p.space.params || !q.space.tuples_match(&p.space) {
        return false;
    }
    let neg_eq = |a: &[Int], b: &[Int]| a.iter().zip(b).all(|(x, y)| (x + y).is_zero());
    for e in &q.eqs {
        if !p.eqs.iter().any(|f| f == e || neg_eq(f, e)) {
            return false;
        }
    }
    for r in &q.ineqs {
        let by_ineq = p.ineqs.iter().any(|f| f[1..] == r[1..] && f[0] <= r[0]);
        if by_ineq {
            continue;
        }
        let by_eq = p.eqs.iter().any(|f| {
            (f[1..] == r[1..] && f[0] <= r[0]) || (neg_eq(&f[1..], &r[1..]) && -&f[0] <= r[0])
        });
        if !by_eq {
            return false;
        }
    }
    true
}

/// [`BasicMap::sample`] and [`BasicMap::is_empty`] of a borrowed or owned
/// basic map: the cheap tests first, then a copy (only if borrowed) is
/// simplified and searched. `None` if empty, else `Some` of the point if
/// `want_point` (a point the cheap tests find is not built otherwise).
fn sample_of(b: Cow<'_, BasicMap>, want_point: bool) -> Result<Option<Option<Vec<Int>>>> {
    let remember = matches!(b, Cow::Borrowed(_));
    match guess(&b, want_point, remember) {
        Guess::Point(p) => return Ok(Some(p)),
        Guess::Empty => return Ok(None),
        Guess::Unknown => {}
    }
    let mut b = b.into_owned();
    if !b.simplify() {
        return Ok(None);
    }
    Ok(b.sample_simplified()?.map(Some))
}

/// True if some `q` of `qs` without locals contains every integer point of
/// `p`, proved with linear programming over `p`'s rational relaxation.
///
/// Why this is exact: the rows of `q` take integer values at integer points.
/// If the rational minimum `m` of a row `r` of `q` over the relaxation of
/// `p` (all of `p`'s columns, locals included, as rational unknowns) is
/// `> -1`, then every integer point of `p` (with its integer locals) has
/// `r >= m > -1`, so `r >= 0`; an equality of `q` is checked as two
/// inequalities. If all rows pass, `p ⊆ q`. An empty relaxation means `p`
/// is empty, contained in anything. `false` means "not proved".
fn lp_contains_any(qs: &[BasicMap], p: &BasicMap) -> Result<bool> {
    let cands: Vec<&BasicMap> = qs
        .iter()
        .filter(|q| {
            q.n_div() == 0 && q.space.params == p.space.params && q.space.tuples_match(&p.space)
        })
        .collect();
    if cands.is_empty() {
        return Ok(false);
    }
    let n = p.row_len();
    let mut t = p.rational_tableau()?;
    if t.is_empty() {
        return Ok(true);
    }
    let mut row = vec![Int::ZERO; n];
    'q: for q in cands {
        let rows = q
            .eqs
            .iter()
            .flat_map(|e| [(e, false), (e, true)])
            .chain(q.ineqs.iter().map(|r| (r, false)));
        for (r, negate) in rows {
            for (k, v) in r.iter().enumerate() {
                row[k] = if negate { -v } else { v.clone() };
            }
            // minimize leaves the tableau describing the same polyhedron
            match t.minimize(&row)? {
                crate::simplex::Opt::Value(num, den) if num > -&den => {}
                _ => continue 'q,
            }
        }
        return Ok(true);
    }
    Ok(false)
}

/// Whether the point `x = (params, in, out)` is in `q`, decided by
/// evaluation alone: `None` when that cannot decide it.
///
/// Without locals this is plain evaluation of `q`'s rows. When every local
/// has a definition (each referring to earlier locals only), the locals are
/// computed from their definitions: by the consistency invariant of
/// [`BasicMap`], any locals `l` with `(x, l)` satisfying the constraints equal
/// these values, so `x ∈ q` exactly when the computed `(x, l)` satisfies
/// every row. With an undefined existential (or `x` of the wrong length)
/// nothing is claimed (`None`).
pub(crate) fn contains_by_definitions(q: &BasicMap, x: &[Int]) -> Option<bool> {
    let nv = q.space.n_vars();
    if x.len() != nv || q.divs.iter().any(Option::is_none) || !q.divs_ordered() {
        return None;
    }
    let mut v: Vec<Int> = Vec::with_capacity(q.row_len());
    v.push(Int::ONE);
    v.extend(x.iter().cloned());
    let dot = |r: &[Int], v: &[Int]| {
        let mut s = Int::ZERO;
        for (a, b) in r.iter().zip(v) {
            if !a.is_zero() {
                s.add_mul(a, b);
            }
        }
        s
    };
    for d in q.divs.iter().flatten() {
        // `d.num` refers to earlier locals only: those are already in `v`
        let val = dot(&d.num[..v.len()], &v).div_floor(&d.den);
        v.push(val);
    }
    Some(q.eqs.iter().all(|e| dot(e, &v).is_zero()) && q.ineqs.iter().all(|r| !dot(r, &v).is_neg()))
}

/// True if the point `x` is proved not to be in `q` (see
/// [`contains_by_definitions`]; `false` means "not proved").
pub(crate) fn point_excluded(q: &BasicMap, x: &[Int]) -> bool {
    contains_by_definitions(q, x) == Some(false)
}

/// `p \ b` as disjoint pieces, where every local of `b` is defined.
fn subtract_basic(p: BasicMap, b: &BasicMap) -> Result<Vec<BasicMap>> {
    // base = p ∩ (b's locals with their defining constraints)
    let mut divs_only = BasicMap {
        space: b.space.clone(),
        divs: b.divs.clone(),
        eqs: vec![],
        ineqs: vec![],
        hint: Default::default(),
    };
    let off = b.off_div();
    for (k, d) in b.divs.iter().enumerate() {
        let d = d
            .as_ref()
            .ok_or_else(|| Error::Invalid("subtract: unexpected existential".into()))?;
        divs_only.ineqs.extend(d.bounds(off + k));
    }
    let base = p.intersect(&divs_only)?;
    // b's constraints in base's layout: b's columns [0, off) stay, locals
    // shift by p.n_div(); an equality gives two inequalities
    let lift = |r: &[Int], negate: bool| -> Vec<Int> {
        let mut out = Vec::with_capacity(base.row_len());
        if negate {
            out.extend(r[..off].iter().map(|v| -v));
        } else {
            out.extend_from_slice(&r[..off]);
        }
        out.resize(off + p.n_div(), Int::ZERO);
        if negate {
            out.extend(r[off..].iter().map(|v| -v));
        } else {
            out.extend_from_slice(&r[off..]);
        }
        out
    };
    let mut cons: Vec<Vec<Int>> = Vec::with_capacity(2 * b.eqs.len() + b.ineqs.len());
    for e in &b.eqs {
        cons.push(lift(e, false));
        cons.push(lift(e, true));
    }
    for r in &b.ineqs {
        cons.push(lift(r, false));
    }
    // the rows already in base (the definitional ones) are not negated
    // (nor needed below: base has them)
    cons.retain(|c| !base.ineqs.contains(c));
    // disjoint: nothing to remove (and no splitting of p)
    let mut both = base.clone();
    both.ineqs.extend(cons.iter().cloned());
    if both.into_is_empty()? {
        return Ok(vec![p]);
    }
    let mut pieces = Vec::new();
    let mut acc = base;
    // the rational relaxation of acc, extended row by row (one tableau, not
    // one per step)
    let mut acc_tab = acc.rational_tableau()?;
    for c in cons {
        budget::tick(1)?;
        // c takes integer values at integer points: if its rational minimum
        // over acc is above -1, no point of acc has c <= -1 (one LP on the
        // shared tableau instead of an emptiness test of a new piece)
        if let crate::simplex::Opt::Value(num, den) = acc_tab.minimize(&c)? {
            if num > -&den {
                continue;
            }
        }
        let mut neg: Vec<Int> = c.iter().map(|v| -v).collect();
        neg[0] = &neg[0] - &Int::ONE;
        let mut piece = acc.clone();
        piece.ineqs.push(neg);
        if let Some(pc) = piece.into_simplified_nonempty()? {
            pieces.push(pc);
        }
        acc_tab.add_ineq(&c)?;
        acc.ineqs.push(c);
        if acc_tab.is_empty() {
            break;
        }
    }
    Ok(pieces)
}

fn count_rec(parts: &[BasicMap], nv: usize, prefix: &mut Vec<Int>, count: &mut Int) -> Result<()> {
    budget::tick(1)?;
    let k = prefix.len();
    if k == nv {
        for p in parts {
            if !fix_prefix(p, prefix).into_is_empty()? {
                *count = &*count + &Int::ONE;
                return Ok(());
            }
        }
        return Ok(());
    }
    // bounds of variable k in each part (with the prefix fixed)
    let mut ranges: Vec<(Int, Int, usize)> = Vec::new();
    for (idx, p) in parts.iter().enumerate() {
        let fixed = fix_prefix(p, prefix);
        let mut t = fixed.rational_tableau()?;
        if t.is_empty() {
            continue;
        }
        let mut obj = vec![Int::ZERO; 1 + t.n_var()];
        obj[1 + k] = Int::ONE;
        let lo = t.clone().minimize(&obj)?;
        let hi = t.maximize(&obj)?;
        match (lo, hi) {
            (crate::simplex::Opt::Value(ln, ld), crate::simplex::Opt::Value(hn, hd)) => {
                ranges.push((ln.div_ceil(&ld), hn.div_floor(&hd), idx));
            }
            _ => return Err(Error::Invalid("card: the set is unbounded".into())),
        }
    }
    if ranges.is_empty() {
        return Ok(());
    }
    let lo = ranges.iter().map(|r| r.0.clone()).min().unwrap();
    let hi = ranges.iter().map(|r| r.1.clone()).max().unwrap();
    let mut v = lo;
    while v <= hi {
        let active: Vec<BasicMap> = ranges
            .iter()
            .filter(|r| r.0 <= v && v <= r.1)
            .map(|r| parts[r.2].clone())
            .collect();
        if !active.is_empty() {
            prefix.push(v.clone());
            count_rec(&active, nv, prefix, count)?;
            prefix.pop();
        }
        v = &v + &Int::ONE;
    }
    Ok(())
}

/// Count the points of a basic map without locals: variables split into
/// independent groups (no constraint links two groups), each group is
/// enumerated on all its variables but the last, whose integer values form
/// an interval counted in closed form; the counts multiply.
fn count_without_locals(b: &BasicMap) -> Result<Int> {
    let nv = b.space.n_vars();
    let rows: Vec<(bool, &Vec<Int>)> = b
        .eqs
        .iter()
        .map(|r| (true, r))
        .chain(b.ineqs.iter().map(|r| (false, r)))
        .collect();
    // union-find over variables
    let mut parent: Vec<usize> = (0..nv).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut x = x;
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for (_, r) in &rows {
        let vars: Vec<usize> = (0..nv).filter(|&k| !r[1 + k].is_zero()).collect();
        for w in vars.windows(2) {
            let (a, c) = (find(&mut parent, w[0]), find(&mut parent, w[1]));
            parent[a] = c;
        }
    }
    let mut total = Int::ONE;
    let mut seen = vec![false; nv];
    for v in 0..nv {
        let root = find(&mut parent, v);
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let group: Vec<usize> = (0..nv).filter(|&k| find(&mut parent, k) == root).collect();
        let sub = |r: &Vec<Int>| -> Vec<Int> {
            let mut out = vec![r[0].clone()];
            out.extend(group.iter().map(|&k| r[1 + k].clone()));
            out
        };
        let touches = |r: &Vec<Int>| group.iter().any(|&k| !r[1 + k].is_zero());
        let eqs: Vec<Vec<Int>> = rows
            .iter()
            .filter(|(e, r)| *e && touches(r))
            .map(|(_, r)| sub(r))
            .collect();
        let ineqs: Vec<Vec<Int>> = rows
            .iter()
            .filter(|(e, r)| !*e && touches(r))
            .map(|(_, r)| sub(r))
            .collect();
        let mut prefix = Vec::new();
        let c = count_group(group.len(), &eqs, &ineqs, &mut prefix)?;
        total = &total * &c;
        if total.is_zero() {
            return Ok(total);
        }
    }
    // constant rows
    for (e, r) in &rows {
        if r[1..].iter().all(Int::is_zero) && ((*e && !r[0].is_zero()) || (!*e && r[0].is_neg())) {
            return Ok(Int::ZERO);
        }
    }
    Ok(total)
}

fn count_group(
    n: usize,
    eqs: &[Vec<Int>],
    ineqs: &[Vec<Int>],
    prefix: &mut Vec<Int>,
) -> Result<Int> {
    budget::tick(1 + n as u64)?;
    let k = prefix.len();
    let mut t = crate::simplex::Tableau::new(n);
    let fix = |row: &mut Vec<Int>, prefix: &[Int]| {
        for (j, v) in prefix.iter().enumerate() {
            let a = row[1 + j].clone();
            row[0].add_mul(&a, v);
            row[1 + j] = Int::ZERO;
        }
    };
    for e in eqs {
        let mut r = e.clone();
        fix(&mut r, prefix);
        t.add_eq(&r)?;
    }
    for e in ineqs {
        let mut r = e.clone();
        fix(&mut r, prefix);
        t.add_ineq(&r)?;
    }
    if t.is_empty() {
        return Ok(Int::ZERO);
    }
    let mut obj = vec![Int::ZERO; n + 1];
    obj[1 + k] = Int::ONE;
    let (lo, hi) = match (t.clone().minimize(&obj)?, t.maximize(&obj)?) {
        (crate::simplex::Opt::Value(ln, ld), crate::simplex::Opt::Value(hn, hd)) => {
            (ln.div_ceil(&ld), hn.div_floor(&hd))
        }
        _ => return Err(Error::Invalid("card: the set is unbounded".into())),
    };
    if lo > hi {
        return Ok(Int::ZERO);
    }
    if k + 1 == n {
        return Ok(&(&hi - &lo) + &Int::ONE);
    }
    let mut total = Int::ZERO;
    let mut v = lo;
    while v <= hi {
        prefix.push(v.clone());
        total = &total + &count_group(n, eqs, ineqs, prefix)?;
        prefix.pop();
        v = &v + &Int::ONE;
    }
    Ok(total)
}

fn fix_prefix(p: &BasicMap, prefix: &[Int]) -> BasicMap {
    let mut b = p.clone();
    for (k, v) in prefix.iter().enumerate() {
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1 + k] = Int::ONE;
        row[0] = -v;
        b.eqs.push(row);
    }
    b
}

impl Map {
    /// Lexicographic minimum: for a set, the set of its lexicographically
    /// smallest point for each parameter value; for a relation, the smallest
    /// image of every domain point.
    pub fn lexmin(&self) -> Result<Map> {
        crate::lexopt::lexopt_map(self, false)
    }

    /// Lexicographic maximum (see [`lexmin`](Self::lexmin)).
    pub fn lexmax(&self) -> Result<Map> {
        crate::lexopt::lexopt_map(self, true)
    }
}
