//! Gist: the constraints of each disjunct that the context (with the
//! disjunct's other constraints) implies are removed, and the disjuncts that
//! do not meet the context are dropped.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::map::Map;
use crate::trace::traced;

impl Map {
    /// A map equal to `self` inside `context`, with constraints implied by the context removed.
    pub fn gist(&self, context: &Map) -> Result<Map> {
        traced!("gist", [self, context], {
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
        })
    }
}

fn div_constraints(b: &BasicMap) -> Vec<Vec<crate::Int>> {
    let mut out = Vec::new();
    let off = b.off_div();
    for (k, d) in b.divs.iter().enumerate() {
        if let Some(d) = d {
            out.extend(d.bounds(off + k));
        }
    }
    out
}
