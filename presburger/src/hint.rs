//! What a basic map keeps from its last emptiness test, sample or optimum
//! (below [`basic`](crate::basic), which stores it; `guess`, the emptiness
//! tests and `lexopt` read and write it).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

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
/// compared under the lock). The second flag says whether anything was
/// ever kept, so that copying a hint that holds nothing (most basic maps'
/// copies) takes no lock.
#[derive(Default)]
pub(crate) struct Hint(Mutex<Known>, AtomicBool, AtomicBool);

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
        }
    }
}

impl Clone for Hint {
    fn clone(&self) -> Self {
        if !self.2.load(Ordering::Relaxed) {
            return Hint::default();
        }
        let known = self.0.lock().map(|g| g.clone()).unwrap_or_default();
        let proof = matches!(known, Known::Empty(_) | Known::NonEmpty(_));
        let kept = !matches!(known, Known::Nothing);
        Hint(
            Mutex::new(known),
            AtomicBool::new(proof),
            AtomicBool::new(kept),
        )
    }
}
