//! What coalescing a map of several disjuncts found, or the cheap
//! normalisation of one disjunct when it changed the rows, kept on the map.
//!
//! Coalescing several disjuncts takes LPs and inclusion tests, normalising
//! one a few passes over its rows; a compiler asks it again of the same map
//! (isl coalesces its object in place, so a second call finds it done). [`Map::coalesce`](crate::Map::coalesce)
//! keeps its answer on its input, keyed by the identity of each disjunct's
//! rows (a [`RowsId`]: valid while those rows are unwritten, see
//! `crate::rows`), their divisions and space; a later call on the map or on
//! a copy of it whose disjuncts are unchanged returns the kept answer (a
//! copy: its rows are shared). Any change to a disjunct's rows, divisions
//! or space, or to the list of disjuncts, misses the key.

use std::sync::{Arc, Mutex};

use crate::basic::{BasicMap, Div};
use crate::map::Map;
use crate::rows::RowsId;
use crate::space::Space;

/// The kept answer of the last coalesce of a map (see the [module
/// documentation](self)); copies of the map share it.
#[derive(Default)]
pub(crate) struct CoalesceMemo(Mutex<Option<Arc<Memo>>>);

struct Memo {
    space: Space,
    key: Vec<PartKey>,
    result: Map,
}

/// A disjunct as the key sees it.
struct PartKey {
    eqs: RowsId,
    ineqs: RowsId,
    divs: Vec<Option<Div>>,
    space: Space,
}

impl PartKey {
    fn of(b: &BasicMap) -> PartKey {
        PartKey {
            eqs: b.eqs.id(),
            ineqs: b.ineqs.id(),
            divs: b.divs.clone(),
            space: b.space.clone(),
        }
    }

    fn is(&self, b: &BasicMap) -> bool {
        self.eqs.is(&b.eqs)
            && self.ineqs.is(&b.ineqs)
            && self.divs == b.divs
            && self.space == b.space
    }
}

impl CoalesceMemo {
    /// The answer kept for `m` (whose memo this is), if `m`'s disjuncts are
    /// those it was computed for.
    pub(crate) fn get(m: &Map) -> Option<Map> {
        let g = m.memo.0.lock().ok()?;
        let memo = g.as_ref()?;
        let same = memo.space == m.space
            && memo.key.len() == m.parts.len()
            && memo.key.iter().zip(&m.parts).all(|(k, b)| k.is(b));
        same.then(|| memo.result.clone())
    }

    /// Keep `result` as the coalesced form of `m`.
    pub(crate) fn set(m: &Map, result: &Map) {
        let memo = Memo {
            space: m.space.clone(),
            key: m.parts.iter().map(PartKey::of).collect(),
            result: Map {
                space: result.space.clone(),
                parts: result.parts.clone(),
                memo: Default::default(),
            },
        };
        if let Ok(mut g) = m.memo.0.lock() {
            *g = Some(Arc::new(memo));
        }
    }
}

impl Clone for CoalesceMemo {
    fn clone(&self) -> Self {
        CoalesceMemo(Mutex::new(self.0.lock().ok().and_then(|g| g.clone())))
    }
}

impl std::fmt::Debug for CoalesceMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CoalesceMemo")
    }
}
