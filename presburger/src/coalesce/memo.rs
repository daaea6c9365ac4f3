//! What coalescing a map of several disjuncts found, or the cheap
//! normalisation of one disjunct when it changed the rows, kept on the map.
//!
//! For one disjunct only its normalised rows are kept, keyed by the
//! identity of its rows alone: the normalisation reads the rows and nothing
//! else (not the divisions, not the space), so the answer of a later call is
//! the disjunct as it is then with the kept rows in place of its own (no
//! comparison of divisions or spaces, no copy of a kept map).
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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use crate::basic::BasicMap;
use crate::divs::Divs;
use crate::map::Map;
use crate::rows::{Rows, RowsId};
use crate::space::Space;

/// The kept answer of the last coalesce of a map (see the [module
/// documentation](self)); copies of the map share it. The flag says whether
/// an answer was ever kept, so that looking up or copying the memo of a map
/// never coalesced (most maps) takes no lock.
#[derive(Default)]
pub(crate) struct CoalesceMemo(Mutex<Option<Arc<Memo>>>, AtomicBool);

enum Memo {
    /// Several disjuncts: the whole answer.
    Parts {
        space: Space,
        key: Vec<PartKey>,
        result: Map,
    },
    /// One disjunct: the identity of its equalities and inequalities, and
    /// the rows its normalisation gives (`None`: found empty).
    One {
        eqs: RowsId,
        ineqs: RowsId,
        normal: Option<(Rows, Rows)>,
    },
}

/// A disjunct as the key sees it.
struct PartKey {
    eqs: RowsId,
    ineqs: RowsId,
    divs: Divs,
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
        if !m.memo.1.load(Ordering::Relaxed) {
            return None;
        }
        let g = m.memo.0.lock().ok()?;
        let Memo::Parts { space, key, result } = g.as_deref()? else {
            return None;
        };
        let same = *space == m.space
            && key.len() == m.parts.len()
            && key.iter().zip(&m.parts).all(|(k, b)| k.is(b));
        same.then(|| result.clone())
    }

    /// Keep `result` as the coalesced form of `m`.
    pub(crate) fn set(m: &Map, result: &Map) {
        let memo = Memo::Parts {
            space: m.space.clone(),
            key: m.parts.iter().map(PartKey::of).collect(),
            result: Map::new(result.space.clone(), result.parts.clone()),
        };
        m.memo.keep(memo);
    }

    /// The normalisation kept for `b`, the only disjunct of `m` (whose memo
    /// this is), if `b`'s rows are those it was computed for: `Some(None)`
    /// if they were found empty, else the normalised equalities and
    /// inequalities (shared with the kept ones).
    pub(crate) fn get_one(m: &Map, b: &BasicMap) -> Option<Option<(Rows, Rows)>> {
        if !m.memo.1.load(Ordering::Relaxed) {
            return None;
        }
        let g = m.memo.0.lock().ok()?;
        let Memo::One { eqs, ineqs, normal } = g.as_deref()? else {
            return None;
        };
        (eqs.is(&b.eqs) && ineqs.is(&b.ineqs)).then(|| normal.clone())
    }

    /// Keep `normal` (`None`: empty) as the normalisation of the rows of
    /// `b`, the only disjunct of `m`.
    pub(crate) fn set_one(m: &Map, b: &BasicMap, normal: Option<(Rows, Rows)>) {
        m.memo.keep(Memo::One {
            eqs: b.eqs.id(),
            ineqs: b.ineqs.id(),
            normal,
        });
    }

    fn keep(&self, memo: Memo) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(Arc::new(memo));
            self.1.store(true, Ordering::Relaxed);
        }
    }
}

impl Clone for CoalesceMemo {
    fn clone(&self) -> Self {
        if !self.1.load(Ordering::Relaxed) {
            return CoalesceMemo::default();
        }
        let kept = self.0.lock().ok().and_then(|g| g.clone());
        let flag = AtomicBool::new(kept.is_some());
        CoalesceMemo(Mutex::new(kept), flag)
    }
}

impl std::fmt::Debug for CoalesceMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CoalesceMemo")
    }
}
