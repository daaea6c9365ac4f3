//! Answers as simple as isl's: an exact simplification pass for results that are printed
//! (issue 21), applied by the calculator to the parametric lexicographic optima.
//!
//! [`Map::tidy`] keeps the set and, per disjunct: simplifies it
//! ([`BasicMap::simplify`]), drops it when empty, eliminates its existentials where the
//! projection is exact ([`exists`]: `params [n] -> { [i] : 0 <= i < n and i mod 3 = 1 }`
//! prints `[n] -> { : n >= 2 }`), adds the equalities all its integer points satisfy
//! (the affine hull of the integer points: `(-i) mod 3 = 0 and 0 <= i <= 1` is `i = 0`,
//! `-n <= i <= 0 and 5i >= n` is `i = 0 and n = 0`), simplifies its divisions
//! ([`divs`]: reduced coefficients, nested divisions with coefficient ±1 merged
//! into one, divisions the constraints confine to one value replaced by it) and
//! removes the constraints the others imply
//! ([`remove_redundancies`](BasicMap::remove_redundancies)); then drops repeated
//! disjuncts, merges disjuncts that differ only in the residue class of one congruence
//! when all classes are there ([`residues`]), and [coalesces](Map::coalesce) the result.
//!
//! ```
//! use presburger::Map;
//! // a lexmax answer split on the parity of N, which does not matter
//! let m: Map = "[N] -> { [i] : i >= 0 and 2i <= N - 2 and N > 2*floor((N)/2); \
//!                        [i] : i >= 0 and 2i <= N - 2 and N <= 2*floor((N)/2) }"
//!     .parse()
//!     .unwrap();
//! let t = m.tidy().unwrap();
//! assert!(t.is_equal(&m).unwrap());
//! assert_eq!(t.to_string(), "[N] -> { [i] : i >= 0 and 2i <= N - 2 }");
//! ```

mod divs;
mod exists;
mod residues;

use crate::basic::BasicMap;
use crate::error::Result;
use crate::map::Map;
use crate::union::UnionMap;

impl BasicMap {
    /// The disjunct simplified for printing (see the [module documentation](self)), or
    /// `None` if it is empty.
    pub(crate) fn tidied(&self) -> Result<Option<BasicMap>> {
        let mut b = self.clone();
        if !b.simplify() || b.is_rationally_empty()? {
            return Ok(None);
        }
        // existentials eliminated where the projection is exact ([`exists`])
        if let Some(e) = b.without_existentials()? {
            b = e;
            if b.is_rationally_empty()? {
                return Ok(None);
            }
        }
        // existentials an equality defines become divisions: `exists e: x = 3e + 1`
        // is then written `(x - 1) mod 3 = 0`
        if b.divs.iter().any(Option::is_none) && b.detect_divs() && !b.simplify() {
            return Ok(None);
        }
        // the equalities every integer point satisfies, as isl finds them
        // (`(-i) mod 3 = 0 and 0 <= i <= 1` is `i = 0`)
        match b.integer_hull_equalities()? {
            None => return Ok(None),
            Some(eqs) => {
                let n = b.row_len();
                for mut e in eqs {
                    e.resize(n, crate::int::Int::ZERO);
                    if !b.eqs.contains(&e) {
                        b.eqs.push(e);
                    }
                }
                if !b.simplify() {
                    return Ok(None);
                }
            }
        }
        // a few rounds: each step can enable another (a fixed division may free a
        // nested one; a reduced one may become equal to another)
        for _ in 0..4 {
            let mut changed = b.reduce_divs();
            changed |= b.fix_bounded_divs()?;
            // (after the others: a division fixed to a value needs no merging)
            if !changed {
                changed |= b.flatten_divs();
            }
            if !b.simplify() {
                return Ok(None);
            }
            if !changed {
                break;
            }
        }
        if b.is_empty()? {
            return Ok(None);
        }
        b.remove_redundancies()?;
        Ok(Some(b))
    }
}

impl Map {
    /// The same set written more simply: see the [module documentation](self).
    pub fn tidy(&self) -> Result<Map> {
        let mut parts: Vec<BasicMap> = Vec::new();
        for b in &self.parts {
            if let Some(b) = b.tidied()? {
                if !parts.iter().any(|p| same_rows(p, &b)) {
                    parts.push(b);
                }
            }
        }
        while parts.len() > 1 && residues::merge_residue_classes(&mut parts) {}
        let m = Map::new(self.space.clone(), parts).coalesce()?;
        if m.parts.len() == 1 {
            return Ok(m);
        }
        // coalescing may have left rows another disjunct made redundant
        let (space, mut parts) = m.into_space_parts();
        for b in &mut parts {
            b.remove_redundancies()?;
        }
        Ok(Map::new(space, parts))
    }
}

impl UnionMap {
    /// [`Map::tidy`] of every part; empty parts are left out.
    pub fn tidy(&self) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.clone());
        for m in self.maps.iter() {
            let t = m.tidy()?;
            if !t.parts.is_empty() {
                u.add_map(t)?;
            }
        }
        Ok(u)
    }
}

/// True if two disjuncts have the same rows and divisions (in any order).
pub(crate) fn same_rows(a: &BasicMap, b: &BasicMap) -> bool {
    let sorted = |rows: &crate::Rows| {
        let mut v = rows.clone();
        v.sort();
        v
    };
    a.divs == b.divs && sorted(&a.eqs) == sorted(&b.eqs) && sorted(&a.ineqs) == sorted(&b.ineqs)
}

#[cfg(test)]
mod tests;
