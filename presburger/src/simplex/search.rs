//! Branch and bound on a rational tableau.

use super::tableau::{Bound, Tableau};
use crate::budget;
use crate::error::Result;
use crate::int::Int;

/// The outcome of a search that may give up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Search {
    /// An integer point.
    Found(Vec<Int>),
    /// The search completed: there is no integer point.
    Empty,
    /// The node limit was reached before an answer.
    GaveUp,
}

/// Most nodes [`bnb_limited`] visits before it gives up.
const NODE_LIMIT: usize = 40;

/// Plain branch and bound on all variables, giving up after [`NODE_LIMIT`]
/// nodes; a completed search is exact either way.
pub(super) fn bnb_limited(t: Tableau, nodes: &mut usize) -> Result<Search> {
    budget::tick(1 + t.n_var() as u64)?;
    *nodes += 1;
    if *nodes > NODE_LIMIT {
        return Ok(Search::GaveUp);
    }
    let Some(k) = t.fractional_var() else {
        return Ok(Search::Found(int_sample(&t)));
    };
    let (num, den) = t.sample_value(k);
    let lo = num.div_floor(&den);
    let mut down = t.clone();
    down.add_bound(k, &lo, Bound::Upper)?;
    if !down.is_empty() {
        match bnb_limited(down, nodes)? {
            Search::Empty => {}
            done => return Ok(done),
        }
    }
    let mut up = t;
    up.add_bound(k, &(&lo + &Int::ONE), Bound::Lower)?;
    if up.is_empty() {
        return Ok(Search::Empty);
    }
    bnb_limited(up, nodes)
}

/// The sample of a tableau whose sample is integral.
pub(super) fn int_sample(t: &Tableau) -> Vec<Int> {
    (0..t.n_var())
        .map(|j| {
            let (a, b) = t.sample_value(j);
            a.div_exact(&b)
        })
        .collect()
}

/// Branch and bound on the first `n_branch` variables (depth first, with an
/// explicit stack); `leaf` completes a tableau whose first `n_branch` sample
/// values are integral, or says that its slice has no integer point.
pub(super) fn branch_and_bound(
    t: Tableau,
    n_branch: usize,
    leaf: &dyn Fn(&Tableau) -> Result<Option<Vec<Int>>>,
) -> Result<Option<Vec<Int>>> {
    let n = t.n_var();
    let mut stack = vec![t];
    while let Some(t) = stack.pop() {
        budget::tick(1 + n as u64)?;
        let frac = t.fractional_var().filter(|&k| k < n_branch).or_else(|| {
            (0..n_branch).find(|&j| {
                let (a, b) = t.sample_value(j);
                !a.is_divisible_by(&b)
            })
        });
        let Some(k) = frac else {
            if let Some(p) = leaf(&t)? {
                return Ok(Some(p));
            }
            continue;
        };
        let (num, den) = t.sample_value(k);
        let lo = num.div_floor(&den);
        // x_k >= floor(v) + 1 is explored after x_k <= floor(v)
        let mut up = t.clone();
        up.add_bound(k, &(&lo + &Int::ONE), Bound::Lower)?;
        if !up.is_empty() {
            stack.push(up);
        }
        let mut down = t;
        down.add_bound(k, &lo, Bound::Upper)?;
        if !down.is_empty() {
            stack.push(down);
        }
    }
    Ok(None)
}
