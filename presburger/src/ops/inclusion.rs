//! Inclusion, equality, single-valuedness and injectivity: cheap exact
//! tests (syntactic containment, a point outside, linear programming) before
//! the difference.

use crate::basic::BasicMap;
use crate::budget;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::syntactic::{point_excluded, syntactically_contains};
use crate::trace::traced;

impl Map {
    /// Inclusion test.
    ///
    /// Each disjunct `p` of `self` is handled on its own (`A ⊆ B` iff every
    /// disjunct of `A` is in `B`), trying cheap exact tests before the
    /// difference `p \ B`:
    /// - `p` simplifies to empty: contained;
    /// - a simplified disjunct of `B` has only constraints that `p`'s
    ///   constraints imply one by one (`syntactically_contains`): contained;
    /// - an integer point of `p` lies in no disjunct of `B`
    ///   (`point_excluded`): not contained;
    /// - linear programming proves `p` inside one disjunct of `B`
    ///   (`lp_contains_any`): contained;
    /// - an integer point of `p` cut by a negated row of a disjunct of `B`
    ///   lies in no disjunct of `B` (`point_outside_all`): not contained.
    ///
    /// The simple version, [`is_subset_by_difference`](Self::is_subset_by_difference),
    /// is kept as a test oracle.
    pub fn is_subset(&self, other: &Map) -> Result<bool> {
        traced!("is_subset", [self, other], {
            let (a, b) = self.aligned_ref(other, "is_subset")?;
            // `a ⊆ ∅` iff `a` is empty (the emptiness test reuses the points
            // kept on `a`'s disjuncts, which the samples of simplified
            // copies below would not)
            if b.parts.is_empty() {
                return a.is_empty();
            }
            // a universe disjunct contains everything
            if b.parts.iter().any(BasicMap::is_universe_syntactically) {
                return Ok(true);
            }
            // the simplified disjuncts of `b`, made when first needed
            let mut bs: Option<Vec<BasicMap>> = None;
            for p in &a.parts {
                // the syntactic tests hold for any rows, simplified or not
                if b.parts.iter().any(|q| {
                    syntactically_contains(q, p) || super::local_map::contains_by_local_map(q, p)
                }) {
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
                if point_outside_all(bs, &ps)? {
                    return Ok(false);
                }
                if !Map::from_basic(ps).difference_is_empty(&b)? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// Equality test.
    pub fn is_equal(&self, other: &Map) -> Result<bool> {
        traced!("is_equal", [self, other], {
            Ok(self.is_subset(other)? && other.is_subset(self)?)
        })
    }

    /// True if every domain point has at most one image.
    pub fn is_single_valued(&self) -> Result<bool> {
        traced!("is_single_valued", [self], {
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
        })
    }

    /// True if no two domain points have a common image.
    pub fn is_injective(&self) -> Result<bool> {
        traced!("is_injective", [self], {
            self.reverse()?.is_single_valued()
        })
    }
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
            q.n_div() == 0
                && crate::map::same_params(&q.space.params, &p.space.params)
                && q.space.tuples_match(&p.space)
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
        let rows = q.as_inequalities();
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

/// True if an integer point of `p` is found outside every disjunct of `qs`
/// (a witness that `p ⊄ ∪ qs`); `false` means "none found".
///
/// For each `q` of `qs` whose locals are all defined, `p` is joined with
/// `q`'s locals and their defining bounds (`base`, `p`'s columns first);
/// for each row `r` of `q` (an equality as two inequalities) that `base`
/// can violate (rational minimum of `r` at most `-1`), the vertex of the
/// relaxation of `base ∩ {r <= -1}` at the tableau's sample is taken when
/// it is integral in every column, else (for the first two such cuts) an
/// integer point found by the exact search on `base ∩ {r <= -1}`: its first columns are then a point
/// `x` of `p` (the rest are integer values of `p`'s locals satisfying its
/// rows). The answer is `true` only when `x` is proved outside every
/// disjunct of `qs` by evaluation (`point_excluded`), so it is exact
/// whatever the vertex.
fn point_outside_all(qs: &[BasicMap], p: &BasicMap) -> Result<bool> {
    /// Exact searches for a point of a cut, at most, per call.
    const MAX_SEARCHES: usize = 2;
    let nv = p.space.n_vars();
    let mut searches = 0;
    for q in qs {
        if q.divs.iter().any(Option::is_none)
            || !crate::map::same_params(&q.space.params, &p.space.params)
            || !q.space.tuples_match(&p.space)
        {
            continue;
        }
        let off = q.off_div();
        let mut defs = BasicMap {
            space: q.space.clone(),
            divs: q.divs.clone(),
            eqs: Default::default(),
            ineqs: Default::default(),
            hint: Default::default(),
        };
        for (k, d) in q.divs.iter().enumerate() {
            if let Some(d) = d {
                defs.ineqs.extend(d.bounds(off + k));
            }
        }
        let base = p.conjoin(&defs, 0);
        let mut t = base.rational_tableau()?;
        if t.is_empty() {
            return Ok(false); // p has no point at all
        }
        // q's rows in base's layout: q's locals come after p's
        let lift = |r: &[Int], negate: bool| -> Vec<Int> {
            let mut out = Vec::with_capacity(base.row_len());
            out.extend_from_slice(&r[..off]);
            out.resize(off + p.n_div(), Int::ZERO);
            out.extend_from_slice(&r[off..]);
            if negate {
                out.iter_mut().for_each(|v| *v = -&*v);
            }
            out
        };
        let rows = q.as_inequalities();
        for (r, negate) in rows {
            budget::tick(1)?;
            let c = lift(r, negate);
            if let crate::simplex::Opt::Value(num, den) = t.minimize(&c)? {
                if num > -&den {
                    continue; // no point of base has c <= -1
                }
            }
            let mut neg: Vec<Int> = c.iter().map(|v| -v).collect();
            neg[0] = &neg[0] - &Int::ONE;
            let mut cut = t.clone();
            cut.add_ineq(&neg)?;
            if cut.is_empty() {
                continue;
            }
            let x: Vec<Int> = if cut.fractional_var().is_none() {
                (0..nv)
                    .map(|k| {
                        let (num, den) = cut.sample_value(k);
                        num.div_floor(&den)
                    })
                    .collect()
            } else {
                // the exact search on the cut (an integer point of its
                // rows, locals included, cut down to its first columns);
                // when `p ⊆ ∪ qs` every cut is empty and each search is
                // paid for nothing, so only a few are made
                if searches == MAX_SEARCHES {
                    continue;
                }
                searches += 1;
                let mut z = base.clone();
                z.ineqs.push(neg);
                match z.sample()? {
                    Some(x) => x,
                    None => continue,
                }
            };
            if qs.iter().all(|q| point_excluded(q, &x)) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}
