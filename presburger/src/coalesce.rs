//! Coalescing and gist.
//!
//! [`Map::coalesce`] drops empty disjuncts and disjuncts contained in others.
//! [`Map::gist`] removes the constraints of each disjunct that the context
//! (together with the disjunct's other constraints) implies, and the
//! disjuncts that do not meet the context. Both are exact.

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::map::Map;

impl Map {
    /// An equal map with fewer disjuncts where possible.
    pub fn coalesce(&self) -> Result<Map> {
        let m = self.remove_empty_parts()?;
        let mut keep: Vec<BasicMap> = Vec::new();
        for b in &m.parts {
            let single = Map::from_basic(b.clone());
            let mut covered = false;
            for k in &keep {
                if single.is_subset(&Map::from_basic(k.clone()))? {
                    covered = true;
                    break;
                }
            }
            if covered {
                continue;
            }
            let mut next = Vec::with_capacity(keep.len() + 1);
            for k in keep {
                if !Map::from_basic(k.clone()).is_subset(&single)? {
                    next.push(k);
                }
            }
            next.push(b.clone());
            keep = next;
        }
        Ok(Map { space: m.space, parts: keep })
    }

    /// A map equal to `self` inside `context`, with constraints implied by the context removed.
    pub fn gist(&self, context: &Map) -> Result<Map> {
        let (a, c) = self.aligned(context, "gist")?;
        let c = c.remove_empty_parts()?;
        let mut out = Map::empty(a.space.clone());
        for b in &a.parts {
            let mut b = b.clone();
            if !b.simplify() {
                continue;
            }
            let bm = Map::from_basic(b.clone());
            if bm.intersect(&c)?.is_empty()? {
                continue;
            }
            let protected = div_constraints(&b);
            let mut k = 0;
            while k < b.ineqs.len() {
                if protected.contains(&b.ineqs[k]) {
                    k += 1;
                    continue;
                }
                let mut rest = b.clone();
                let row = rest.ineqs.remove(k);
                let mut neg: Vec<crate::Int> = row.iter().map(|v| -v).collect();
                neg[0] = &neg[0] - &crate::Int::ONE;
                let mut viol = rest.clone();
                viol.ineqs.push(neg);
                if Map::from_basic(viol).intersect(&c)?.is_empty()? {
                    b = rest;
                } else {
                    k += 1;
                }
            }
            out.parts.push(b);
        }
        if out.parts.is_empty() {
            return Ok(out);
        }
        Ok(out)
    }

    /// The affine hull: the smallest affine subspace (as equalities) containing the map.
    pub fn affine_hull(&self) -> Result<Map> {
        Err(Error::Invalid("affine_hull: not available yet".into()))
    }

    /// A basic map containing the map.
    pub fn convex_hull(&self) -> Result<Map> {
        Err(Error::Invalid("convex_hull: not available yet".into()))
    }
}

fn div_constraints(b: &BasicMap) -> Vec<Vec<crate::Int>> {
    let mut out = Vec::new();
    let off = b.off_div();
    for (k, d) in b.divs.iter().enumerate() {
        if let Some(d) = d {
            let col = off + k;
            let mut lo = d.num.clone();
            lo[col] = &lo[col] - &d.den;
            let mut hi: Vec<crate::Int> = d.num.iter().map(|v| -v).collect();
            hi[col] = &hi[col] + &d.den;
            hi[0] = &(&hi[0] + &d.den) - &crate::Int::ONE;
            out.push(lo);
            out.push(hi);
        }
    }
    out
}
