//! Coalescing and gist.
//!
//! [`Map::coalesce`] drops empty disjuncts and disjuncts contained in others
//! and fuses pairs; a map of one disjunct only gets the cheap normalisation
//! of `cheap` (no LP).
//! [`Map::gist`] removes the constraints of each disjunct that the context
//! (together with the disjunct's other constraints) implies, and the
//! disjuncts that do not meet the context. Both are exact.
//!
//! One concept per module: `part` (a disjunct with its cached point and
//! tableau), `cheap` (the LP-free normalisation of one disjunct), `gist`,
//! `hull` (affine hull and simple hull) and `equal` (the equality test on
//! cached disjuncts); coalescing itself is here.

mod cheap;
mod equal;
mod gist;
mod hull;
mod implied;
mod part;
#[cfg(test)]
mod tests;

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::trace::traced;
use part::Part;

impl Map {
    /// An equal map with fewer disjuncts where possible.
    ///
    /// A map of at most one disjunct has nothing to coalesce: it only gets
    /// a cheap normalisation without any LP (rows divided by their gcd,
    /// duplicate rows and rows implied by one parallel row or by the
    /// single-variable bounds dropped, empty when such rows contradict).
    /// Its disjunct may keep redundant rows or be empty in a way only an
    /// exact test finds; callers that need that call
    /// [`coalesce_simplified`](Self::coalesce_simplified).
    ///
    /// With several disjuncts, the decisions of
    /// [`coalesce_by_pairs`](Self::coalesce_by_pairs) (kept as its test
    /// oracle: empty and contained disjuncts dropped, pairs fused when the
    /// rows of each valid on the other describe their union exactly), with
    /// one more source of fusion rows: a row of one disjunct not valid on
    /// the other is also tried rewritten by the first's equalities (see
    /// `rewritten_by_eqs`). Every pair the plain rule fuses is still fused
    /// (the fusion has the plain rule's rows and more, and is checked to be
    /// the union), so the result has at most as many disjuncts in the tests
    /// (the order of fusions may differ). Computed with cached per-disjunct
    /// data (a sample point and a rational tableau, see `Part`) so that most
    /// containment and validity questions are answered by evaluation or one
    /// LP instead of an integer emptiness test or a difference.
    pub fn coalesce(&self) -> Result<Map> {
        traced!("coalesce", [self], {
            if self.parts.len() <= 1 {
                return self.coalesce_one();
            }
            let mut parts = Part::all(self)?;
            if parts.len() <= 1 {
                // nothing to compare: only the redundant rows go
                for p in &mut parts {
                    p.remove_redundant_rows()?;
                }
                return Ok(Part::into_map(self.space.clone(), parts));
            }
            // drop disjuncts contained in one other disjunct (same order of
            // decisions as the oracle: every answer is exact, so the result is
            // the same)
            let mut keep: Vec<Part> = Vec::new();
            for mut p in parts {
                let mut covered = false;
                for k in &mut keep {
                    if p.is_subset_of(k)? {
                        covered = true;
                        break;
                    }
                }
                if covered {
                    continue;
                }
                let mut next = Vec::with_capacity(keep.len() + 1);
                for mut k in keep {
                    if !k.is_subset_of(&mut p)? {
                        next.push(k);
                    }
                }
                next.push(p);
                keep = next;
            }
            // fuse pairs whose combined valid constraints describe exactly their union
            fuse_pairwise(&mut keep, |l, r| fuse_parts(l, r))?;
            for p in &mut keep {
                p.remove_redundant_rows()?;
            }
            Ok(Part::into_map(self.space.clone(), keep))
        })
    }

    /// [`coalesce`](Self::coalesce), and a map of at most one disjunct also
    /// gets the exact simplification that `coalesce` leaves out for it: an
    /// empty disjunct dropped (exact test), relations between locals found
    /// by LP, and every redundant constraint removed (LPs). With several
    /// disjuncts it is `coalesce` (whose disjuncts are already so
    /// simplified). For callers that read bounds off the constraints, such as
    /// the AST generator.
    pub fn coalesce_simplified(&self) -> Result<Map> {
        if self.parts.len() > 1 {
            return self.coalesce();
        }
        let mut parts = Part::all(self)?;
        for p in &mut parts {
            p.remove_redundant_rows()?;
        }
        Ok(Part::into_map(self.space.clone(), parts))
    }

    /// [`coalesce`](Self::coalesce) of a map of at most one disjunct: only
    /// the cheap normalisation of `cheap::normalise`, no LP (one unit of
    /// the operation budget).
    fn coalesce_one(&self) -> Result<Map> {
        crate::budget::tick(1)?;
        let parts = self
            .parts
            .iter()
            .filter_map(|b| {
                let mut b = b.clone();
                cheap::normalise(&mut b).then_some(b)
            })
            .collect();
        Ok(Map {
            space: self.space.clone(),
            parts,
        })
    }
}

/// [`fuse`] on cached disjuncts: the same answer, with validity decided by
/// [`Part::is_valid`] (LP or the cached point first). The fused disjunct
/// contains `a`, so `a`'s point is a point of it.
fn fuse_parts(a: &mut Part, b: &mut Part) -> Result<Option<Part>> {
    if a.b.n_div() > 0 || b.b.n_div() > 0 {
        return Ok(None);
    }
    let mut h = BasicMap::universe(a.b.space.clone());
    valid_rows(a, b, &mut h.ineqs)?;
    valid_rows(b, a, &mut h.ineqs)?;
    if !h.simplify() {
        return Ok(None);
    }
    let union = Map {
        space: a.b.space.clone(),
        parts: vec![a.b.clone(), b.b.clone()],
    };
    if Map::from_basic(h.clone()).is_subset(&union)? {
        Ok(Some(Part {
            b: h,
            pt: a.pt.clone(),
            tab: None,
        }))
    } else {
        Ok(None)
    }
}

/// Push to `out` the rows of `x` valid on `y` and, for each row of `x`
/// not valid on `y`, its rewritings by the equalities of `x`
/// ([`rewritten_by_eqs`]) that are valid on `y`. Every pushed row holds on
/// `x` and on `y`.
fn valid_rows(x: &Part, y: &mut Part, out: &mut Vec<Vec<Int>>) -> Result<()> {
    for r in as_ineqs(&x.b) {
        if y.is_valid(&r)? {
            out.push(r);
            continue;
        }
        for c in rewritten_by_eqs(&r, &x.b.eqs) {
            if y.is_valid(&c)? {
                out.push(c);
            }
        }
    }
    Ok(())
}

/// The row `r` rewritten by each equality `e` of `eqs` so that one of
/// their common variables `v` is eliminated: `|e_v|·r - sign(e_v)·r_v·e`
/// (normalised by its gcd). On the disjunct with these equalities (`e = 0`)
/// the rewriting is a positive multiple of `r`, so it holds wherever `r`
/// does; on another disjunct it may hold where `r` does not (a restricted
/// form of *wrapping* a constraint around the equality: e.g. `i ≤ N - 2`
/// on `o = i` becomes `o ≤ N - 2`, which also holds on `o = i - 1,
/// i ≤ N - 1`).
fn rewritten_by_eqs(r: &[Int], eqs: &[Vec<Int>]) -> Vec<Vec<Int>> {
    let mut out = Vec::new();
    for e in eqs {
        for v in 1..r.len() {
            if r[v].is_zero() || e[v].is_zero() {
                continue;
            }
            let f = if e[v].is_neg() { r[v].clone() } else { -&r[v] };
            let mut c: Vec<Int> = r
                .iter()
                .zip(e)
                .map(|(x, y)| Int::combine(&e[v].abs(), x, &f, y))
                .collect();
            if c[1..].iter().all(Int::is_zero) {
                continue;
            }
            crate::matrix::normalize_ineq(&mut c);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The constraints of `x` as inequalities (an equality gives two).
pub(crate) fn as_ineqs(x: &BasicMap) -> Vec<Vec<Int>> {
    let mut v = x.ineqs.clone();
    for e in &x.eqs {
        v.push(e.clone());
        v.push(e.iter().map(|c| -c).collect());
    }
    v
}

/// Replace pairs of disjuncts by their fusion while `fuse` finds one (the
/// first pair `i < j` in order, the fusion taking the place of `i`), each
/// pair tried charging the operation budget.
pub(crate) fn fuse_pairwise<T>(
    keep: &mut Vec<T>,
    mut fuse: impl FnMut(&mut T, &mut T) -> Result<Option<T>>,
) -> Result<()> {
    let mut changed = true;
    while changed {
        changed = false;
        'pairs: for i in 0..keep.len() {
            for j in i + 1..keep.len() {
                crate::budget::tick(1)?;
                let (l, r) = keep.split_at_mut(j);
                if let Some(h) = fuse(&mut l[i], &mut r[0])? {
                    keep.remove(j);
                    keep[i] = h;
                    changed = true;
                    break 'pairs;
                }
            }
        }
    }
    Ok(())
}
