//! The simple integer sampling kept as the oracle of the reduced-basis
//! search: the same steps, with plain branch and bound on the bounded
//! coordinates.

use super::sample::{integer_sample_by, Method};
use crate::error::Result;
use crate::int::Int;

/// [`integer_sample`](super::integer_sample) with branch and bound on the
/// bounded coordinates instead of the search along a reduced basis. Exact
/// and terminating, but on a long thin polytope it may visit a number of
/// nodes proportional to the polytope's length.
pub fn integer_sample_by_branch_and_bound(
    n: usize,
    eqs: &crate::Rows,
    ineqs: &crate::Rows,
) -> Result<Option<Vec<Int>>> {
    integer_sample_by(n, eqs, ineqs, Method::BranchAndBound)
}
