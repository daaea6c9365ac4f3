//! The operation budget: a per-thread bound on the work of one operation.
//!
//! Solver loops call [`tick`]; when a budget is set with [`with_budget`] and
//! runs out, the operation returns [`Error::BudgetExceeded`] instead of
//! running on. Without a budget, work is unbounded.
//!
//! ```
//! use presburger::{budget, Set};
//! let s: Set = "{ [i, j] : 0 <= i <= 100 and 0 <= j <= 100 }".parse().unwrap();
//! // A tiny budget makes the operation give up cleanly.
//! let r = budget::with_budget(1, || s.card());
//! assert!(r.is_err());
//! assert_eq!(budget::with_budget(1_000_000, || s.card()).unwrap().to_string(), "10201");
//! ```

use crate::error::{Error, Result};
use std::cell::Cell;

thread_local! {
    static LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// Run `f` with at most `ops` units of work for solver loops; restores the
/// previous budget afterwards.
pub fn with_budget<R>(ops: u64, f: impl FnOnce() -> R) -> R {
    let old = LEFT.with(|c| c.replace(Some(ops)));
    let r = f();
    LEFT.with(|c| c.set(old));
    r
}

/// Charge `n` units of work; `Err(BudgetExceeded)` once the budget is spent.
#[inline]
pub fn tick(n: u64) -> Result<()> {
    LEFT.with(|c| match c.get() {
        None => Ok(()),
        Some(left) if left >= n => {
            c.set(Some(left - n));
            Ok(())
        }
        Some(_) => {
            c.set(Some(0));
            Err(Error::BudgetExceeded)
        }
    })
}
