//! What a basic map keeps from its last emptiness test, sample or optimum,
//! or from its construction by the parser (its simplified rows; below
//! [`basic`](crate::basic), which stores it; `guess`, the emptiness tests,
//! `lexopt` and map construction read and write it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::divs::Divs;
use crate::rows::Rows;

/// What an earlier call found out about a basic map: a point `(params, in,
/// out, locals)` (every column but the constant), or that its constraints
/// have no integer point. It answers later emptiness tests, samples and
/// optima at the cost of one check.
///
/// Invariant: none. The constraints may have changed since (rows are edited
/// in place all over the crate), so a point is only ever used after
/// `guess::satisfies` re-checks it against every row, and an emptiness
/// proof is a copy of the rows found to have no integer point, used only
/// while the basic map's rows are equal to it (the constraints alone
/// define the set). A stale hint costs that check and is replaced by the
/// next finding. Cloning a basic map clones its hint (shared, not copied:
/// a copy that is then constrained further often keeps the point).
///
/// The flag says whether the finding is a proof about rows (`Empty`,
/// `NonEmpty`), so that the emptiness tests look for a proof without taking
/// the lock when there is none (it is only a shortcut: a proof is always
/// compared under the lock). The second flag says whether a point or a
/// proof was ever kept, so that copying a hint that holds nothing (most
/// basic maps' copies) takes no lock. The third says whether the hint holds
/// [`Known::Simplified`] (map construction's simplified rows, of every
/// disjunct it reads): a copy of the basic map does not take those (copies
/// are made all the time, by a union say, and would each take the lock),
/// and the point and proof look-ups do not lock for them.
#[derive(Default)]
pub(crate) struct Hint(Mutex<Known>, AtomicBool, AtomicBool, AtomicBool);

/// The finding a [`Hint`] holds.
#[derive(Clone, Default)]
enum Known {
    #[default]
    Nothing,
    /// A point of the constraints (when they have not changed).
    Point(Arc<[i64]>),
    /// Equalities and inequalities without an integer point.
    Empty(Arc<EmptyRows>),
    /// Equalities and inequalities with an integer point that could not be
    /// kept as a [`Point`](Known::Point) (its locals, on a simplified copy,
    /// did not carry over to these rows): a later emptiness test of the
    /// same rows is answered by comparing them, as for [`Empty`](Known::Empty).
    NonEmpty(Arc<EmptyRows>),
    /// The rows as [`simplify`](crate::BasicMap::simplify) leaves them,
    /// found by map construction ([`Map::from_disjuncts`](crate::Map::from_disjuncts),
    /// which simplifies a copy of each disjunct to leave out those found
    /// empty, as isl's parser does): a later emptiness test of the same
    /// rows searches these instead of simplifying again.
    Simplified(Arc<Simplified>),
}

/// A basic map's contents (its own row storages, shared, its divisions
/// and dimension counts) and what the simplification made of them: the
/// divisions and rows of the simplified copy (the same space; the
/// simplification may remove or add locals, so its rows may have other
/// local columns than the original's).
pub(crate) struct Simplified {
    eqs: Rows,
    ineqs: Rows,
    original_divs: Divs,
    /// The numbers of parameters, input and output dimensions.
    dims: (usize, usize, usize),
    pub(crate) divs: Divs,
    pub(crate) simplified_eqs: Rows,
    pub(crate) simplified_ineqs: Rows,
}

/// Rows of a basic map found to have no integer point (or, in
/// [`Known::NonEmpty`], to have one): the basic map's own row storages,
/// shared (keeping them costs two reference counts, and a basic map whose
/// storages are still these has these rows without a comparison; a later
/// write of the map's rows copies them away from these).
pub(crate) struct EmptyRows {
    pub(crate) eqs: Rows,
    pub(crate) ineqs: Rows,
}

impl EmptyRows {
    /// Whether `eqs`, `ineqs` are these rows: the same storages (unwritten
    /// since, so equal without a comparison), else equal rows.
    fn are(&self, eqs: &Rows, ineqs: &Rows) -> bool {
        (self.eqs.shares(eqs) || self.eqs == *eqs)
            && (self.ineqs.shares(ineqs) || self.ineqs == *ineqs)
    }
}

impl Hint {
    pub(crate) fn get(&self) -> Option<Arc<[i64]>> {
        if !self.2.load(Ordering::Relaxed) {
            return None;
        }
        match &*self.0.lock().ok()? {
            Known::Point(p) => Some(p.clone()),
            _ => None,
        }
    }

    /// `f` of the kept point, if there is one (no copy of the point).
    #[inline]
    pub(crate) fn with_point<R>(&self, f: impl FnOnce(&[i64]) -> R) -> Option<R> {
        if !self.2.load(Ordering::Relaxed) {
            return None;
        }
        match &*self.0.lock().ok()? {
            Known::Point(p) => Some(f(p)),
            _ => None,
        }
    }

    pub(crate) fn set(&self, p: Arc<[i64]>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Known::Point(p);
            self.1.store(false, Ordering::Relaxed);
            self.2.store(true, Ordering::Relaxed);
            self.3.store(false, Ordering::Relaxed);
        }
    }

    /// True if the rows `eqs`, `ineqs` are those of a kept emptiness proof.
    pub(crate) fn proves_empty(&self, eqs: &Rows, ineqs: &Rows) -> bool {
        if !self.1.load(Ordering::Relaxed) {
            return false;
        }
        self.0.lock().is_ok_and(|g| match &*g {
            Known::Empty(e) => e.are(eqs, ineqs),
            _ => false,
        })
    }

    /// What a kept proof says of the rows `eqs`, `ineqs`: `Some(true)` if
    /// they are the rows of an emptiness proof, `Some(false)` if those of a
    /// non-emptiness proof, `None` otherwise (no proof, a point, other
    /// rows). One lock; the rows are compared only when a proof is kept.
    pub(crate) fn proven_empty(&self, eqs: &Rows, ineqs: &Rows) -> Option<bool> {
        if !self.1.load(Ordering::Relaxed) {
            return None;
        }
        let g = self.0.lock().ok()?;
        match &*g {
            Known::Empty(e) if e.are(eqs, ineqs) => Some(true),
            Known::NonEmpty(e) if e.are(eqs, ineqs) => Some(false),
            _ => None,
        }
    }

    /// Keep the rows `eqs`, `ineqs` as found to have an integer point (when
    /// the point itself cannot be kept).
    pub(crate) fn set_nonempty(&self, eqs: &Rows, ineqs: &Rows) {
        if let Ok(mut g) = self.0.lock() {
            *g = Known::NonEmpty(Arc::new(EmptyRows {
                eqs: eqs.clone(),
                ineqs: ineqs.clone(),
            }));
            self.1.store(true, Ordering::Relaxed);
            self.2.store(true, Ordering::Relaxed);
            self.3.store(false, Ordering::Relaxed);
        }
    }

    /// Keep the rows `eqs`, `ineqs` as found to have no integer point.
    pub(crate) fn set_empty(&self, eqs: &Rows, ineqs: &Rows) {
        if let Ok(mut g) = self.0.lock() {
            *g = Known::Empty(Arc::new(EmptyRows {
                eqs: eqs.clone(),
                ineqs: ineqs.clone(),
            }));
            self.1.store(true, Ordering::Relaxed);
            self.2.store(true, Ordering::Relaxed);
            self.3.store(false, Ordering::Relaxed);
        }
    }
}

impl Hint {
    /// Keep `simplified` (divisions, equalities, inequalities) as what the
    /// simplification makes of the contents `original` (rows, divisions,
    /// dimension counts; see [`Known::Simplified`]); nothing is kept if a
    /// finding is held already.
    pub(crate) fn set_simplified(&self, original: Contents<'_>, simplified: (Divs, Rows, Rows)) {
        if self.2.load(Ordering::Relaxed) {
            return;
        }
        if let Ok(mut g) = self.0.lock() {
            let (divs, simplified_eqs, simplified_ineqs) = simplified;
            *g = Known::Simplified(Arc::new(Simplified {
                eqs: original.eqs.clone(),
                ineqs: original.ineqs.clone(),
                original_divs: original.divs.clone(),
                dims: original.dims,
                divs,
                simplified_eqs,
                simplified_ineqs,
            }));
            self.3.store(true, Ordering::Relaxed);
        }
    }

    /// The simplified rows kept for the contents `of` (the same row
    /// storages, unwritten since, so the same rows without a comparison;
    /// equal divisions and dimension counts), if any.
    pub(crate) fn simplified(&self, of: Contents<'_>) -> Option<Arc<Simplified>> {
        if !self.3.load(Ordering::Relaxed) {
            return None;
        }
        match &*self.0.lock().ok()? {
            Known::Simplified(s)
                if s.eqs.shares(of.eqs)
                    && s.ineqs.shares(of.ineqs)
                    && s.dims == of.dims
                    && s.original_divs == *of.divs =>
            {
                Some(s.clone())
            }
            _ => None,
        }
    }
}

/// What a simplification reads of a basic map: its rows, its divisions and
/// its numbers of parameters, input and output dimensions.
#[derive(Clone, Copy)]
pub(crate) struct Contents<'a> {
    pub(crate) eqs: &'a Rows,
    pub(crate) ineqs: &'a Rows,
    pub(crate) divs: &'a Divs,
    pub(crate) dims: (usize, usize, usize),
}

impl Clone for Hint {
    #[inline]
    fn clone(&self) -> Self {
        if !self.2.load(Ordering::Relaxed) {
            return Hint::default();
        }
        self.clone_kept()
    }
}

impl Hint {
    /// [`Clone::clone`] of a hint that holds a point or a proof.
    #[inline(never)]
    fn clone_kept(&self) -> Self {
        let known = match self.0.lock().map(|g| g.clone()).unwrap_or_default() {
            // (not taken by a copy: see the flags)
            Known::Simplified(_) => Known::Nothing,
            known => known,
        };
        let proof = matches!(known, Known::Empty(_) | Known::NonEmpty(_));
        let kept = !matches!(known, Known::Nothing);
        Hint(
            Mutex::new(known),
            AtomicBool::new(proof),
            AtomicBool::new(kept),
            AtomicBool::new(false),
        )
    }
}
