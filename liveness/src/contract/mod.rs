//! Modular allocation: successive modulo on a reduced basis (Darte,
//! Schreiber & Villard, lattice-based allocation), in any dimension.
//!
//! From the conflicts of one array, the difference set
//! `DS = { x − y : (x, y) conflict }` (0-symmetric). A basis `B`
//! (unimodular, rows `r_k`) and moduli `b_k` from [`successive_modulo`]
//! give `σ(x) = (r_k · x mod b_k)_k`, which maps no two conflicting cells
//! together for any parameter value; its kernel is the lattice
//! `{ d : r_k · d ≡ 0 (mod b_k) }` of determinant `Π b_k`, which meets
//! `DS` only in 0. [`allocate`] compares the canonical basis, the greedy
//! reduced bases of `basis` (every first row in dimension 2,
//! the continuations of every row when all are unbounded) and keeps the one with the fewest
//! coordinates kept whole, then the smallest total of their coefficients,
//! then the smallest product of moduli (the
//! canonical basis on ties; see `modulo::cost`).

mod allocation;
mod basis;
mod modulo;

pub use allocation::Allocation;
pub use modulo::{successive_modulo, Fold};

use presburger::Set;

use crate::conflict::ArrayConflict;
use crate::error::{Error, Result};

/// The difference set of the conflicts `c` of one array, checked to be a
/// relation from the array's cells to themselves.
fn difference_set(model: &scop::Model, c: &ArrayConflict) -> Result<Set> {
    let cell = c.cells.space();
    let sp = c.conflict.space();
    let named = |t: &presburger::Tuple| t.name.as_deref() == Some(c.name.as_str());
    if sp.is_set()
        || !cell.is_set()
        || !named(&cell.range)
        || sp.domain.as_deref() != Some(cell.range.as_ref())
        || sp.range != cell.range
    {
        return Err(Error::Usage(format!(
            "allocation of `{}`: the conflict relation must map the cells {{ {}[...] }} to themselves",
            c.name, c.name
        )));
    }
    let ds = c.conflict.deltas()?.anonymous_tuple()?;
    Ok(ds.intersect_params(model.context())?)
}

/// The modular allocation of one array from its conflicts `c` (see the
/// [crate documentation](crate)). A conflict relation that does not map
/// the array's cells to themselves is an `Err`.
pub fn allocate(model: &scop::Model, c: &ArrayConflict) -> Result<Allocation> {
    let ds = difference_set(model, c)?;
    allocate_differences(&c.name, &ds)
}

/// The modular allocation of array `name` for the difference set `ds`
/// (`{ [d] }` or `{ A[d] }`, 0-symmetric, parametric: valid for every
/// parameter value): the best of the canonical basis and the greedy
/// reduced bases. A relation, or a set that is not 0-symmetric, is an `Err`.
///
/// ```
/// // cells of one row or one column conflict: the canonical basis keeps
/// // both coordinates, the basis (i + j, j) only the first
/// let ds: presburger::Set =
///     "[N] -> { [a, 0] : 0 < a <= N or -N <= a < 0; [0, b] : 0 < b <= N or -N <= b < 0 }"
///         .parse()
///         .unwrap();
/// let a = liveness::allocate_differences("W", &ds).unwrap();
/// assert_eq!(a.to_string(), "[N] -> { W[c0, c1] -> W[c0 + c1] }");
/// assert!(liveness::allocate_differences("W", &"{ [a] : a = 1 }".parse().unwrap()).is_err());
/// ```
pub fn allocate_differences(name: &str, ds: &Set) -> Result<Allocation> {
    let n = ds.space().n_out();
    let id: Vec<Vec<i64>> = (0..n)
        .map(|r| (0..n).map(|k| i64::from(r == k)).collect())
        .collect();
    // checks the shape and the symmetry
    let canonical = successive_modulo(ds, &id)?;
    let mut best = (modulo::cost(&id, &canonical), id, canonical);
    if n >= 2 && best.0 != (0, 0, 1) {
        if let Some(found) = basis::search(ds, &mut Vec::new(), &mut Vec::new(), 2, &mut {
            basis::BRANCHES
        })? {
            if found.0 < best.0 {
                best = found;
            }
        }
    }
    Allocation::with_basis(&ds.space().params, name, best.1, best.2)
}
