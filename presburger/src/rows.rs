//! Constraint rows shared between copies of a basic map, copied on write.
//!
//! [`Rows`] is the storage of a [`BasicMap`](crate::BasicMap)'s equalities
//! and inequalities: a list of rows behind a reference count. Cloning a
//! basic map (which the operations do all the time: a union, a composition,
//! a coalesce that changes nothing) only counts one more owner; the first
//! mutable access of a copy whose rows are shared copies them
//! (`Arc::make_mut`), so a change to one copy never shows in another. Read
//! access goes through `Deref` to `Vec<Vec<Int>>`, mutable access through
//! `DerefMut`, so the rows are used exactly as the plain vector they were.
//!
//! Mutating code that only *may* change the rows should first decide
//! read-only whether it will (see `coalesce::cheap`): a mutable access of
//! shared rows copies them even if nothing is then written.

use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Weak};

use crate::int::Int;

/// Rows `[c | params | in | out | locals]` shared by reference count and
/// copied on the first write of a shared copy. See the [module
/// documentation](self).
#[derive(Clone, Default)]
pub struct Rows(Arc<Shared>);

/// The shared storage: the rows and a mark (see [`NEXT_MARK`]).
#[derive(Default)]
struct Shared {
    rows: Vec<Vec<Int>>,
    /// 0, or the mark given by [`Rows::mark_pair`] since the last write.
    /// (Read and written with relaxed ordering: a fact marked on one thread
    /// is only ever a shortcut on another.)
    mark: AtomicU64,
}

impl Clone for Shared {
    /// A copy is about to be written: it has no mark.
    fn clone(&self) -> Shared {
        Shared {
            rows: self.rows.clone(),
            mark: AtomicU64::new(0),
        }
    }
}

/// Marks of facts about a pair of row lists (equalities, inequalities)
/// that hold as long as neither is written: the pair carries `(m, m + 1)`
/// for an even `m` taken once from this global counter, and a write clears
/// the mark of the rows written (a copy starts without one). So a mark
/// found on both rows of a basic map was given to exactly these rows, in
/// this order, unchanged since.
static NEXT_MARK: AtomicU64 = AtomicU64::new(2);

impl Rows {
    /// No rows.
    pub fn new() -> Rows {
        Rows::default()
    }

    /// The rows as an owned vector (copied only if shared).
    pub fn into_vec(self) -> Vec<Vec<Int>> {
        match Arc::try_unwrap(self.0) {
            Ok(s) => s.rows,
            Err(a) => a.rows.clone(),
        }
    }

    /// True if `self` and `other` are the same storage (a copy not written
    /// since): their rows are then equal without comparing them.
    pub fn shares(&self, other: &Rows) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// Mark the pair `(eqs, ineqs)` (distinct storages) with a fresh
    /// number: [`marked_pair`](Self::marked_pair) is true for them until one
    /// is written. For facts that depend on the rows only.
    pub(crate) fn mark_pair(eqs: &Rows, ineqs: &Rows) {
        if eqs.shares(ineqs) {
            return;
        }
        // even for the equalities, the next odd number for the inequalities:
        // a pair marked the other way round is not this pair
        let m = NEXT_MARK.fetch_add(2, Ordering::Relaxed);
        eqs.0.mark.store(m, Ordering::Relaxed);
        ineqs.0.mark.store(m + 1, Ordering::Relaxed);
    }

    /// True if `(eqs, ineqs)` were marked together by
    /// [`mark_pair`](Self::mark_pair) and neither was written since.
    pub(crate) fn marked_pair(eqs: &Rows, ineqs: &Rows) -> bool {
        let m = eqs.0.mark.load(Ordering::Relaxed);
        m != 0 && m + 1 == ineqs.0.mark.load(Ordering::Relaxed)
    }
}

/// The identity of a [`Rows`] storage, kept without keeping the rows: it
/// [`is`](RowsId::is) a `Rows` only while that storage is unwritten (a
/// write of shared rows copies them; a write of rows whose identity is kept
/// moves them to a new storage, `Arc::make_mut` with weak references; the
/// old storage's address is not reused while the identity is kept).
#[derive(Clone)]
pub(crate) struct RowsId(Weak<Shared>);

impl RowsId {
    /// True if `r` is the storage this identity was taken of, unwritten.
    pub(crate) fn is(&self, r: &Rows) -> bool {
        std::ptr::eq(self.0.as_ptr(), Arc::as_ptr(&r.0))
    }
}

impl Rows {
    /// The identity of this storage (see [`RowsId`]).
    pub(crate) fn id(&self) -> RowsId {
        RowsId(Arc::downgrade(&self.0))
    }
}

impl Deref for Rows {
    type Target = Vec<Vec<Int>>;
    #[inline]
    fn deref(&self) -> &Vec<Vec<Int>> {
        &self.0.rows
    }
}

impl DerefMut for Rows {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<Vec<Int>> {
        let s = Arc::make_mut(&mut self.0);
        *s.mark.get_mut() = 0;
        &mut s.rows
    }
}

impl PartialEq for Rows {
    fn eq(&self, other: &Rows) -> bool {
        self.0.rows == other.0.rows
    }
}

impl Eq for Rows {}

impl std::hash::Hash for Rows {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.rows.hash(h)
    }
}

impl std::fmt::Debug for Rows {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.rows.fmt(f)
    }
}

impl From<Vec<Vec<Int>>> for Rows {
    fn from(v: Vec<Vec<Int>>) -> Rows {
        Rows(Arc::new(Shared {
            rows: v,
            mark: AtomicU64::new(0),
        }))
    }
}

impl FromIterator<Vec<Int>> for Rows {
    fn from_iter<I: IntoIterator<Item = Vec<Int>>>(it: I) -> Rows {
        Rows::from(it.into_iter().collect::<Vec<_>>())
    }
}

impl IntoIterator for Rows {
    type Item = Vec<Int>;
    type IntoIter = std::vec::IntoIter<Vec<Int>>;
    fn into_iter(self) -> Self::IntoIter {
        self.into_vec().into_iter()
    }
}

impl<'a> IntoIterator for &'a Rows {
    type Item = &'a Vec<Int>;
    type IntoIter = std::slice::Iter<'a, Vec<Int>>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.rows.iter()
    }
}

impl<'a> IntoIterator for &'a mut Rows {
    type Item = &'a mut Vec<Int>;
    type IntoIter = std::slice::IterMut<'a, Vec<Int>>;
    fn into_iter(self) -> Self::IntoIter {
        self.deref_mut().iter_mut()
    }
}

impl Extend<Vec<Int>> for Rows {
    fn extend<I: IntoIterator<Item = Vec<Int>>>(&mut self, it: I) {
        self.deref_mut().extend(it)
    }
}

impl PartialEq<Vec<Vec<Int>>> for Rows {
    fn eq(&self, other: &Vec<Vec<Int>>) -> bool {
        self.0.rows == *other
    }
}

impl PartialEq<[Vec<Int>]> for Rows {
    fn eq(&self, other: &[Vec<Int>]) -> bool {
        self.0.rows[..] == *other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: &[i64]) -> Vec<Int> {
        v.iter().map(|&x| Int::from(x)).collect()
    }

    /// A write to one copy never shows in the other, whichever is written.
    #[test]
    fn copies_are_independent() {
        let a: Rows = vec![row(&[1, 2]), row(&[3, 4])].into();
        let mut b = a.clone();
        assert!(a.shares(&b));
        b[0][1] = Int::from(7);
        assert!(!a.shares(&b));
        assert_eq!(a, vec![row(&[1, 2]), row(&[3, 4])]);
        assert_eq!(b, vec![row(&[1, 7]), row(&[3, 4])]);
        let mut c = b.clone();
        c.push(row(&[5, 6]));
        assert_eq!(b.len(), 2);
        assert_eq!(c.len(), 3);
        assert_eq!(c.clone().into_vec().len(), 3);
        assert_eq!(c.into_vec().len(), 3);
    }

    /// A mark holds for the pair marked together until either is written,
    /// and for copies not written since; not for a pair put together.
    #[test]
    fn marks_last_until_a_write() {
        let e: Rows = vec![row(&[1, 2])].into();
        let i: Rows = vec![row(&[3, 4])].into();
        assert!(!Rows::marked_pair(&e, &i));
        Rows::mark_pair(&e, &i);
        assert!(Rows::marked_pair(&e, &i));
        let (e2, mut i2) = (e.clone(), i.clone());
        assert!(Rows::marked_pair(&e2, &i2));
        i2[0][0] = Int::from(5);
        assert!(!Rows::marked_pair(&e2, &i2));
        assert!(Rows::marked_pair(&e, &i));
        let other: Rows = vec![row(&[3, 4])].into();
        Rows::mark_pair(&e2, &other);
        assert!(!Rows::marked_pair(&e, &i) || !Rows::marked_pair(&e, &other));
        assert!(!Rows::marked_pair(&e, &i2));
        let mut i3 = i.clone();
        drop(i);
        i3.push(row(&[0, 1]));
        assert!(!Rows::marked_pair(&e2, &i3));
    }

    /// An identity is its storage's until a write, by a sharer or by the
    /// only owner.
    #[test]
    fn identities_end_at_a_write() {
        let mut a: Rows = vec![row(&[1, 2])].into();
        let id = a.id();
        let b = a.clone();
        assert!(id.is(&a) && id.is(&b));
        a.push(row(&[0, 1]));
        assert!(!id.is(&a) && id.is(&b));
        let mut b = b;
        b[0][0] = Int::from(3);
        assert!(!id.is(&b));
        let other: Rows = vec![row(&[1, 2])].into();
        assert!(!id.is(&other));
    }
}
