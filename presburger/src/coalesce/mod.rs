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
//! tableau), `cheap` (the LP-free normalisation of one disjunct), `rename`
//! (containment read from rows over renamed locals), `gist`,
//! `hull` (affine hull and simple hull) and `equal` (the equality test on
//! cached disjuncts), `fuse` (fusion of two disjuncts) with `cover` (its
//! exact test that a candidate is inside their union); coalescing itself is
//! here.

mod align;
mod cheap;
mod cover;
mod equal;
mod fuse;
#[cfg(test)]
mod fuse_tests;
mod gist;
mod hull;
mod implied;
mod memo;
mod part;
mod rename;
#[cfg(test)]
mod tests;
mod wrap;

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::rows::Rows;
use crate::trace::traced;
use fuse::fuse_parts;
pub(crate) use memo::CoalesceMemo;
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
            if let Some(m) = CoalesceMemo::get(self) {
                return Ok(m);
            }
            let m = self.coalesce_parts()?;
            CoalesceMemo::set(self, &m);
            Ok(m)
        })
    }

    /// [`coalesce`](Self::coalesce) of a map of several disjuncts, computed.
    fn coalesce_parts(&self) -> Result<Map> {
        {
            // disjuncts that repeat another's rows over renamed locals go
            // before any exact work (see `rename`)
            let reduced = rename::drop_renamed_contained(&self.parts)
                .map(|parts| Map::new(self.space.clone(), parts));
            let mut parts = Part::all(reduced.as_ref().unwrap_or(self))?;
            if parts.len() <= 1 {
                // nothing to compare: only the redundant rows go
                for p in &mut parts {
                    p.remove_redundant_rows()?;
                }
                return Ok(Part::into_map(self.space.clone(), parts));
            }
            // fusion works over divisions: give existentials definitions
            // where the cheap rules find them
            for p in &mut parts {
                p.define_existentials()?;
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
                p.resimplify_locals()?;
            }
            Ok(Part::into_map(self.space.clone(), keep))
        }
    }

    /// [`coalesce`](Self::coalesce), and a map of at most one disjunct also
    /// gets the exact simplification that `coalesce` leaves out for it: an
    /// empty disjunct dropped (exact test), relations between locals found
    /// by LP, and every redundant constraint removed (LPs). With several
    /// disjuncts it is `coalesce` (whose disjuncts are already so
    /// simplified). For callers that read bounds off the constraints, such as
    /// the AST generator.
    ///
    /// Its answer is its own: a fusion can need the removal of redundant
    /// rows that a round of `coalesce` makes only after its fusion tests
    /// (two disjuncts, one with redundant rows, fused by the next round), so
    /// with several disjuncts `coalesce` runs again on its answer while that
    /// lowers the number of disjuncts.
    pub fn coalesce_simplified(&self) -> Result<Map> {
        if self.parts.len() > 1 {
            let mut m = self.coalesce()?;
            while m.parts.len() > 1 {
                let again = m.coalesce()?;
                if again.parts.len() >= m.parts.len() {
                    break;
                }
                m = again;
            }
            return Ok(m);
        }
        let mut parts = Part::all(self)?;
        for p in &mut parts {
            p.remove_redundant_rows()?;
            p.resimplify_locals()?;
        }
        Ok(Part::into_map(self.space.clone(), parts))
    }

    /// [`coalesce`](Self::coalesce), or `None` when its answer has exactly
    /// the disjuncts of `self` (the same rows, shared): what
    /// [`UnionMap::coalesce`](crate::UnionMap::coalesce) asks of each part,
    /// so that a part left as it is (most maps of one disjunct) is neither
    /// copied nor compared.
    pub(crate) fn coalesce_changed(&self) -> Result<Option<Map>> {
        if self.parts.len() <= 1 {
            return self.coalesce_one_changed();
        }
        self.coalesce().map(Some)
    }

    /// [`coalesce`](Self::coalesce) of a map of at most one disjunct: only
    /// the cheap normalisation of `cheap::normalise`, no LP (one unit of
    /// the operation budget).
    fn coalesce_one(&self) -> Result<Map> {
        Ok(self.coalesce_one_changed()?.unwrap_or_else(|| self.clone()))
    }

    /// [`coalesce_one`](Self::coalesce_one), `None` when the answer is
    /// `self`'s disjunct as it is (see
    /// [`coalesce_changed`](Self::coalesce_changed)).
    ///
    /// The normalisation is decided read-only (`cheap::normalised`): rows
    /// it leaves unchanged are not copied, and are marked so (a mark of
    /// `Rows`, cleared by any write): coalescing them again, or a copy of
    /// them, tests the mark only. When the normalisation changes the rows,
    /// the normalised rows are kept on the input ([`CoalesceMemo`], keyed
    /// by the identity of the input's rows only: the normalisation reads
    /// nothing else): coalescing the same map again, or a copy of it, is
    /// its disjunct with the kept rows in place of its own, instead of a
    /// new normalisation.
    fn coalesce_one_changed(&self) -> Result<Option<Map>> {
        crate::budget::tick(1)?;
        let Some(b) = self.parts.first() else {
            return Ok(None);
        };
        if cheap::known_normal(b) {
            return Ok(None);
        }
        let with_rows = |normal: Option<(Rows, Rows)>| match normal {
            None => Map::empty(self.space.clone()),
            Some((eqs, ineqs)) => Map::new(
                self.space.clone(),
                vec![BasicMap {
                    space: b.space.clone(),
                    divs: b.divs.clone(),
                    eqs,
                    ineqs,
                    hint: b.hint.clone(),
                }],
            ),
        };
        if let Some(normal) = CoalesceMemo::get_one(self, b) {
            return Ok(Some(with_rows(normal)));
        }
        let normal = match cheap::normalised(b) {
            cheap::Normal::Same => {
                cheap::mark_normal(b);
                return Ok(None);
            }
            cheap::Normal::Empty => None,
            cheap::Normal::Rows(eqs, ineqs) => Some((eqs, ineqs)),
        };
        CoalesceMemo::set_one(self, b, normal.clone());
        Ok(Some(with_rows(normal)))
    }
}

/// What coalescing `m` would find out cheaply, found now (map construction
/// from given disjuncts, [`Map::from_disjuncts`], the parser's, asks it, as
/// isl's parser normalises what it reads); the rows stay as written. A
/// disjunct whose rows the cheap normalisation leaves as they are is marked
/// so (see `cheap::mark_normal`): a later [`coalesce`](Map::coalesce) of a
/// map of this one disjunct, or of a copy sharing its rows, then tests the
/// mark only. When `m` has one disjunct whose rows the normalisation
/// changes (or finds empty), the normalised rows are kept on `m` as
/// coalescing keeps them ([`CoalesceMemo`]): coalescing `m` or a copy of it
/// then takes them instead of normalising. (Of several disjuncts, those the
/// normalisation would change are left unmarked: coalescing several
/// disjuncts computes more than the normalisation.)
pub(crate) fn note_normal(m: &Map) {
    if let [b] = m.parts.as_slice() {
        if cheap::known_normal(b) {
            return;
        }
        match cheap::normalised(b) {
            cheap::Normal::Same => cheap::mark_normal(b),
            cheap::Normal::Empty => CoalesceMemo::set_one(m, b, None),
            cheap::Normal::Rows(eqs, ineqs) => CoalesceMemo::set_one(m, b, Some((eqs, ineqs))),
        }
        return;
    }
    for b in &m.parts {
        if !cheap::known_normal(b) && cheap::is_normal(b) {
            cheap::mark_normal(b);
        }
    }
}

/// The constraints of `x` as inequalities (an equality gives two).
pub(crate) fn as_ineqs(x: &BasicMap) -> Vec<Vec<Int>> {
    let mut v = x.ineqs.to_vec();
    for e in &x.eqs {
        v.push(e.to_vec());
        v.push(e.iter().map(|c| -c).collect());
    }
    v
}

/// Replace pairs of disjuncts by their fusion while `fuse` finds one (the
/// first pair `i < j` in order, the fusion taking the place of `i`), each
/// pair tried charging the operation budget. A pair that did not fuse is
/// not tried again while neither of its disjuncts changed (`fuse` decides
/// the same pair the same way; after a fusion the scan starts again from
/// the first pair, which would otherwise repeat every failed attempt).
pub(crate) fn fuse_pairwise<T>(
    keep: &mut Vec<T>,
    mut fuse: impl FnMut(&mut T, &mut T) -> Result<Option<T>>,
) -> Result<()> {
    // an identity per disjunct (a fusion gets a new one), and the failed pairs
    let mut ids: Vec<usize> = (0..keep.len()).collect();
    let mut next_id = keep.len();
    let mut failed: std::collections::HashSet<(usize, usize)> = Default::default();
    let mut changed = true;
    while changed {
        changed = false;
        'pairs: for i in 0..keep.len() {
            for j in i + 1..keep.len() {
                if failed.contains(&(ids[i], ids[j])) {
                    continue;
                }
                crate::budget::tick(1)?;
                let (l, r) = keep.split_at_mut(j);
                if let Some(h) = fuse(&mut l[i], &mut r[0])? {
                    keep.remove(j);
                    ids.remove(j);
                    keep[i] = h;
                    ids[i] = next_id;
                    next_id += 1;
                    changed = true;
                    break 'pairs;
                }
                failed.insert((ids[i], ids[j]));
            }
        }
    }
    Ok(())
}
