//! What coalescing a union gave, kept on the union.
//!
//! isl coalesces its union in place: a second call finds every map already
//! coalesced. [`UnionMap::coalesce`] keeps its answer's list of parts on its
//! operand instead, keyed by the identity of the operand's list of parts
//! (a [`Weak`] reference: the list is shared between copies and copied on
//! write, and a write through `Arc::make_mut` while a weak reference is held
//! moves the list to a new allocation, whose address differs; the weak
//! reference keeps the old allocation, so its address is not reused while
//! the key lives) and of its parameters. A later call on the union or a
//! copy of it whose parts were not written since returns the kept list
//! (one reference count). When coalescing changes no part (each map's
//! disjuncts are the same rows, divisions and spaces), the answer is the
//! operand's own list; and an answer is marked as its own coalesced form,
//! so coalescing it again is free as well.
//!
//! The list is only ever written through `Arc::make_mut` or `Arc::get_mut`
//! (see `union.rs`), and the maps inside are only changed through a write
//! of the list (their interior state, the maps' coalesce memos and the
//! disjuncts' hints, is not part of their value).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Weak};

use super::UnionMap;
use crate::map::Map;

/// The kept answer (see the [module documentation](self)). The flag says
/// whether an answer is kept at all, so that a copy of a union never
/// coalesced takes no lock.
#[derive(Default)]
pub(crate) struct CoalescedUnion(Mutex<Option<Entry>>, AtomicBool);

struct Entry {
    /// The identity of the coalesced list of parts.
    parts: Weak<Vec<Map>>,
    /// Its parameters.
    params: Weak<[String]>,
    /// The coalesced parts; `None`: the list itself.
    answer: Option<Arc<Vec<Map>>>,
}

impl Clone for Entry {
    fn clone(&self) -> Entry {
        Entry {
            parts: self.parts.clone(),
            params: self.params.clone(),
            answer: self.answer.clone(),
        }
    }
}

impl Entry {
    fn is_of(&self, u: &UnionMap) -> bool {
        std::ptr::eq(self.parts.as_ptr(), Arc::as_ptr(&u.maps))
            && std::ptr::eq(self.params.as_ptr(), Arc::as_ptr(&u.params))
    }
}

impl CoalescedUnion {
    fn with(entry: Entry) -> CoalescedUnion {
        CoalescedUnion(Mutex::new(Some(entry)), AtomicBool::new(true))
    }

    /// The coalesced form kept for `u` (whose memo this is), if `u`'s parts
    /// and parameters are those it was computed for.
    pub(crate) fn get(u: &UnionMap) -> Option<UnionMap> {
        if !u.coalesced.1.load(Ordering::Relaxed) {
            return None;
        }
        let g = u.coalesced.0.lock().ok()?;
        let e = g.as_ref()?;
        if !e.is_of(u) {
            return None;
        }
        // (not `u.clone()`: that would take this lock again)
        let parts = e.answer.as_ref().unwrap_or(&u.maps).clone();
        Some(CoalescedUnion::answer(u.params.clone(), parts))
    }

    /// A union of these parts, marked as coalesced.
    fn answer(params: Arc<[String]>, maps: Arc<Vec<Map>>) -> UnionMap {
        let entry = Entry {
            parts: Arc::downgrade(&maps),
            params: Arc::downgrade(&params),
            answer: None,
        };
        UnionMap {
            params,
            maps,
            coalesced: CoalescedUnion::with(entry),
        }
    }

    /// Keep `u`'s own parts as its coalesced parts (coalescing changes
    /// none of them) and return the answer, which shares them.
    pub(crate) fn set_unchanged(u: &UnionMap) -> UnionMap {
        let entry = Entry {
            parts: Arc::downgrade(&u.maps),
            params: Arc::downgrade(&u.params),
            answer: None,
        };
        if let Ok(mut g) = u.coalesced.0.lock() {
            *g = Some(entry);
            u.coalesced.1.store(true, Ordering::Relaxed);
        }
        CoalescedUnion::answer(u.params.clone(), u.maps.clone())
    }

    /// Keep `parts` as the coalesced parts of `u` and return the answer:
    /// `u`'s own list when each map's disjuncts are unchanged (the same
    /// storages, see [`same_parts`]).
    pub(crate) fn set(u: &UnionMap, parts: Vec<Map>) -> UnionMap {
        let unchanged = parts.len() == u.maps.len()
            && parts
                .iter()
                .zip(u.maps.iter())
                .all(|(a, b)| same_parts(a, b));
        let answer = (!unchanged).then(|| Arc::new(parts));
        let entry = Entry {
            parts: Arc::downgrade(&u.maps),
            params: Arc::downgrade(&u.params),
            answer: answer.clone(),
        };
        if let Ok(mut g) = u.coalesced.0.lock() {
            *g = Some(entry);
            u.coalesced.1.store(true, Ordering::Relaxed);
        }
        let parts = answer.unwrap_or_else(|| u.maps.clone());
        CoalescedUnion::answer(u.params.clone(), parts)
    }
}

/// True if `a` and `b` have the same space and disjuncts, by identity:
/// shared tuples and parameters, and each disjunct's rows, divisions and
/// space shared (a sufficient test of equal values).
pub(crate) fn same_parts(a: &Map, b: &Map) -> bool {
    same_space(&a.space, &b.space)
        && a.parts.len() == b.parts.len()
        && a.parts.iter().zip(&b.parts).all(|(x, y)| {
            x.eqs.shares(&y.eqs)
                && x.ineqs.shares(&y.ineqs)
                && x.divs == y.divs
                && same_space(&x.space, &y.space)
        })
}

/// True if the two spaces share their parameters and tuples.
fn same_space(a: &crate::Space, b: &crate::Space) -> bool {
    Arc::ptr_eq(&a.params, &b.params)
        && Arc::ptr_eq(&a.range, &b.range)
        && match (&a.domain, &b.domain) {
            (None, None) => true,
            (Some(x), Some(y)) => Arc::ptr_eq(x, y),
            _ => false,
        }
}

impl Clone for CoalescedUnion {
    fn clone(&self) -> Self {
        if !self.1.load(Ordering::Relaxed) {
            return CoalescedUnion::default();
        }
        match self.0.lock().ok().and_then(|g| g.clone()) {
            Some(e) => CoalescedUnion::with(e),
            None => CoalescedUnion::default(),
        }
    }
}

impl std::fmt::Debug for CoalescedUnion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CoalescedUnion")
    }
}
