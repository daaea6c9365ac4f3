//! Coalescing and gist.
//!
//! [`Map::coalesce`] drops empty disjuncts and disjuncts contained in others.
//! [`Map::gist`] removes the constraints of each disjunct that the context
//! (together with the disjunct's other constraints) implies, and the
//! disjuncts that do not meet the context. Both are exact.
//!
//! One concept per module: `part` (a disjunct with its cached point and
//! tableau), `gist`, `hull` (affine hull and simple hull) and `equal` (the
//! equality test on cached disjuncts); coalescing itself is here.

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
    /// The result is the same as [`coalesce_by_pairs`](Self::coalesce_by_pairs)
    /// (kept as its test oracle), computed with cached per-disjunct data
    /// (a sample point and a rational tableau, see `Part`) so that most
    /// containment and validity questions are answered by evaluation or one
    /// LP instead of an integer emptiness test or a difference.
    pub fn coalesce(&self) -> Result<Map> {
        traced!("coalesce", [self], {
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
}

/// [`fuse`] on cached disjuncts: the same answer, with validity decided by
/// [`Part::is_valid`] (LP or the cached point first). The fused disjunct
/// contains `a`, so `a`'s point is a point of it.
fn fuse_parts(a: &mut Part, b: &mut Part) -> Result<Option<Part>> {
    if a.b.n_div() > 0 || b.b.n_div() > 0 {
        return Ok(None);
    }
    let mut h = BasicMap::universe(a.b.space.clone());
    for r in as_ineqs(&a.b) {
        if b.is_valid(&r)? {
            h.ineqs.push(r);
        }
    }
    for r in as_ineqs(&b.b) {
        if a.is_valid(&r)? {
            h.ineqs.push(r);
        }
    }
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
