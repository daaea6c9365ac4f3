//! Reference implementations: the simple algorithms kept as independent
//! oracles of the fast paths, tested against them (they are slower, and not
//! meant for production use).

use crate::basic::BasicMap;
use crate::coalesce::{as_ineqs, fuse_pairwise};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::lexopt::{lexopt_point, lexopt_points};
use crate::map::Map;

/// The lexicographic optimum of a set or map without parameters or input
/// dimensions by the simple method: binary search on each coordinate between
/// its rational bounds with exact integer feasibility tests. Slower than
/// [`Map::lexmin`]/[`Map::lexmax`] (which run the dual simplex with cuts); kept as its
/// independent oracle in tests.
pub fn lexopt_by_search(m: &Map, max: bool) -> Result<Map> {
    // independent of what earlier calls kept on the disjuncts (points,
    // emptiness proofs): fresh copies
    let fresh = Map::new(
        m.space.clone(),
        m.parts
            .iter()
            .map(|b| {
                let mut c = b.clone();
                c.hint = Default::default();
                c
            })
            .collect(),
    );
    lexopt_points(&fresh, max, |b| lexopt_point(b, max))
}

impl BasicMap {
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
}

impl Map {
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
}

impl Map {
    /// The plain version of [`coalesce`](Self::coalesce): containment by
    /// [`Map::is_subset`], fusion by integer emptiness tests. Kept as the
    /// test oracle of the fast version (both give the same disjuncts).
    #[doc(hidden)]
    pub fn coalesce_by_pairs(&self) -> Result<Map> {
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
        // fuse pairs whose combined valid constraints describe exactly their union
        fuse_pairwise(&mut keep, |a, b| fuse(a, b))?;
        for b in &mut keep {
            b.remove_redundancies()?;
        }
        Ok(Map::new(m.space.clone(), keep))
    }
}

/// The basic map of the constraints of `a` valid on `b` and of `b` valid on
/// `a`, if it equals `a ∪ b` (checked exactly); only for maps without locals.
fn fuse(a: &BasicMap, b: &BasicMap) -> Result<Option<BasicMap>> {
    if a.n_div() > 0 || b.n_div() > 0 {
        return Ok(None);
    }
    let valid_on = |rows: &[Vec<Int>], other: &BasicMap| -> Result<Vec<Vec<Int>>> {
        let mut out = Vec::new();
        for r in rows {
            let mut t = other.clone();
            let mut neg: Vec<Int> = r.iter().map(|v| -v).collect();
            neg[0] = &neg[0] - &Int::ONE;
            t.ineqs.push(neg);
            if t.is_empty()? {
                out.push(r.clone());
            }
        }
        Ok(out)
    };
    let mut h = BasicMap::universe(a.space.clone());
    h.ineqs = valid_on(&as_ineqs(a), b)?.into();
    h.ineqs.extend(valid_on(&as_ineqs(b), a)?);
    if !h.simplify() {
        return Ok(None);
    }
    let union = Map::new(a.space.clone(), vec![a.clone(), b.clone()]);
    if Map::from_basic(h.clone()).is_subset(&union)? {
        Ok(Some(h))
    } else {
        Ok(None)
    }
}
