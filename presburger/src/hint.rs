//! The point a basic map keeps from its last emptiness test or sample
//! (below [`basic`](crate::basic), which stores it; `guess` reads and
//! writes it).

use std::sync::{Arc, Mutex};

/// A point `(params, in, out, locals)` (every column but the constant)
/// found earlier on a basic map, kept to answer its later emptiness tests
/// and samples at the cost of one check.
///
/// Invariant: none. The constraints may have changed since the point was
/// found (rows are edited in place all over the crate), so the point is
/// only ever used after `guess::satisfies` re-checks it against every row; a
/// stale hint costs that check and is replaced by the next point found.
/// Cloning a basic map clones its hint (a copy that is then constrained
/// further often keeps the point).
#[derive(Default)]
pub(crate) struct Hint(Mutex<Option<Arc<[i64]>>>);

impl Hint {
    pub(crate) fn get(&self) -> Option<Arc<[i64]>> {
        self.0.lock().ok().and_then(|g| g.clone())
    }

    pub(crate) fn set(&self, p: Arc<[i64]>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(p);
        }
    }
}

impl Clone for Hint {
    fn clone(&self) -> Self {
        Hint(Mutex::new(self.get()))
    }
}
