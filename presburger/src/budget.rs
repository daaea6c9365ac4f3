//! The operation budget: a per-thread bound on the work of one operation.
//!
//! Solver loops call [`tick`]; when a budget is set and runs out, the
//! operation returns [`Error::BudgetExceeded`] instead of running on.
//! Without a budget, work is unbounded.
//!
//! A budget is set for a scope by [`enter`], which returns a [`Budget`]
//! guard; [`with_budget`] runs a closure under one. Scopes nest:
//! - the inner scope gets `min(ops, what the outer scope has left)`, so a
//!   nested call can never grant more work than its caller allows;
//! - when the guard is dropped, the outer budget comes back minus what was
//!   spent inside (an exhausted inner budget does not exhaust a larger
//!   outer one, but the work it did is charged);
//! - the guard is dropped during unwinding too, so a panic inside the scope
//!   leaves the outer budget restored (never the inner one set).
//!
//! Guards are dropped in the reverse order of their creation (as scopes
//! are); a guard cannot leave its thread.
//!
//! ```
//! use presburger::{budget, Set};
//! let s: Set = "{ [i, j] : 0 <= i <= 100 and 0 <= j <= 100 }".parse().unwrap();
//! // A tiny budget makes the operation give up cleanly.
//! let r = budget::with_budget(1, || s.card());
//! assert!(r.is_err());
//! assert_eq!(budget::with_budget(1_000_000, || s.card()).unwrap().to_string(), "10201");
//! // nested: the smaller budget wins, and the outer one is charged
//! let outer = budget::enter(1_000);
//! {
//!     let inner = budget::enter(1_000_000);
//!     assert_eq!(inner.remaining(), Some(1_000));
//!     budget::tick(10).unwrap();
//! }
//! assert_eq!(outer.remaining(), Some(990));
//! drop(outer);
//! assert_eq!(budget::remaining(), None);
//! ```

use crate::error::{Error, Result};
use std::cell::Cell;
use std::marker::PhantomData;

thread_local! {
    static LEFT: Cell<Option<u64>> = const { Cell::new(None) };
}

/// The work left in the current thread's innermost budget (`None`: unbounded).
pub fn remaining() -> Option<u64> {
    LEFT.with(Cell::get)
}

/// A scope with an operation budget, set by [`enter`]; dropping it
/// restores the enclosing budget minus the work spent in the scope. See
/// the [module documentation](self).
#[derive(Debug)]
#[must_use = "the budget ends when the guard is dropped"]
pub struct Budget {
    /// The enclosing budget when the scope was entered.
    outer: Option<u64>,
    /// The budget the scope started with.
    granted: u64,
    /// Thread-bound (the budget is per thread).
    _not_send: PhantomData<*const ()>,
}

/// Enter a scope with at most `ops` units of work (fewer if the enclosing
/// scope has fewer left). The scope ends when the returned guard is dropped.
pub fn enter(ops: u64) -> Budget {
    let outer = remaining();
    let granted = outer.map_or(ops, |o| o.min(ops));
    LEFT.with(|c| c.set(Some(granted)));
    Budget {
        outer,
        granted,
        _not_send: PhantomData,
    }
}

impl Budget {
    /// The work this scope started with: `min(ops, outer remaining)`.
    pub fn granted(&self) -> u64 {
        self.granted
    }

    /// The work left in this scope (the innermost budget of the thread,
    /// which is this one unless a nested guard is alive).
    pub fn remaining(&self) -> Option<u64> {
        remaining()
    }

    /// The work spent in this scope so far (nested scopes included).
    pub fn spent(&self) -> u64 {
        self.granted - remaining().unwrap_or(0).min(self.granted)
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        let spent = self.spent();
        let restored = self.outer.map(|o| o.saturating_sub(spent));
        LEFT.with(|c| c.set(restored));
    }
}

/// Run `f` with at most `ops` units of work for solver loops (fewer if an
/// enclosing budget has fewer left); the enclosing budget is restored
/// afterwards, charged with what `f` spent, even if `f` panics.
pub fn with_budget<R>(ops: u64, f: impl FnOnce() -> R) -> R {
    let _budget = enter(ops);
    f()
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

/// Charge `n` units of work already done, without failing: the budget
/// goes down (to 0 at the least), and the next [`tick`] of at least one
/// unit fails if it is spent. For work measured where an error cannot be
/// returned (a pivot on big numbers counts its digits as it goes).
#[inline]
pub fn charge(n: u64) {
    if n == 0 {
        return;
    }
    LEFT.with(|c| {
        if let Some(left) = c.get() {
            c.set(Some(left.saturating_sub(n)));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charged_work_fails_the_next_tick() {
        with_budget(10, || {
            charge(4);
            assert_eq!(remaining(), Some(6));
            assert_eq!(tick(6), Ok(()));
            charge(100);
            assert_eq!(remaining(), Some(0));
            assert_eq!(tick(1), Err(Error::BudgetExceeded));
        });
        // without a budget, charging does nothing
        charge(u64::MAX);
        assert_eq!(remaining(), None);
        // a nested scope's charge reaches the outer budget
        let outer = enter(50);
        with_budget(20, || charge(30));
        assert_eq!(remaining(), Some(30));
        drop(outer);
    }

    #[test]
    fn exhaustion_is_an_error() {
        with_budget(5, || {
            assert_eq!(tick(3), Ok(()));
            assert_eq!(tick(2), Ok(()));
            assert_eq!(tick(1), Err(Error::BudgetExceeded));
            assert_eq!(remaining(), Some(0));
            assert_eq!(tick(0), Ok(()));
        });
        assert_eq!(remaining(), None);
        assert_eq!(tick(u64::MAX), Ok(()));
    }

    #[test]
    fn nested_budgets_take_the_smaller() {
        let outer = enter(100);
        assert_eq!(outer.granted(), 100);
        tick(10).unwrap();
        {
            // more than the outer has left: capped
            let inner = enter(1_000);
            assert_eq!(inner.granted(), 90);
            tick(30).unwrap();
            assert_eq!(inner.spent(), 30);
        }
        assert_eq!(remaining(), Some(60));
        {
            // less than the outer has left: the inner runs out alone
            let _inner = enter(5);
            assert_eq!(tick(6), Err(Error::BudgetExceeded));
        }
        // charged with the whole inner budget, not exhausted
        assert_eq!(remaining(), Some(55));
        let r = with_budget(10, || with_budget(1_000, remaining));
        assert_eq!(r, Some(10));
        assert_eq!(outer.spent(), 45);
        drop(outer);
        assert_eq!(remaining(), None);
    }

    #[test]
    fn a_panic_restores_the_outer_budget() {
        let outer = enter(50);
        let r = std::panic::catch_unwind(|| {
            with_budget(20, || {
                tick(7).unwrap();
                panic!("inside the scope");
            })
        });
        assert!(r.is_err());
        assert_eq!(remaining(), Some(43));
        drop(outer);
        // and with no outer budget, none is left set
        let r = std::panic::catch_unwind(|| {
            let _b = enter(3);
            panic!("unwinding drops the guard");
        });
        assert!(r.is_err());
        assert_eq!(remaining(), None);
    }

    #[test]
    fn unbounded_outer_is_restored_unbounded() {
        assert_eq!(remaining(), None);
        with_budget(2, || {
            let _ = tick(5);
        });
        assert_eq!(remaining(), None);
        assert_eq!(tick(1_000), Ok(()));
    }
}
