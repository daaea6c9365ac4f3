//! Disjuncts of a union separated on the first output dimension: every
//! point of one has a larger first output than every point of the other
//! (for the same parameters and inputs), as two bounds of their rows show.
//! The optimum of the union then takes one disjunct's optimum wherever it
//! exists, without comparing the values of their optima point by point.

use crate::basic::BasicMap;
use crate::int::Int;

/// The rows of `b` that bound its first output dimension (column `1 + np`)
/// alone: no other output and no local, with the parameters and inputs
/// `[1 | params, inputs]` and the signed coefficient of the output
/// (equalities count as both bounds).
fn first_output_bounds(b: &BasicMap, np: usize) -> Vec<(Vec<Int>, Int)> {
    let col = 1 + np;
    if b.row_len() <= col + b.n_div() {
        // no output dimension
        return Vec::new();
    }
    let alone = |r: &[Int]| !r[col].is_zero() && r[col + 1..].iter().all(Int::is_zero);
    let mut out = Vec::new();
    for e in b.eqs.iter().filter(|r| alone(r)) {
        out.push((e[..col].to_vec(), e[col].clone()));
        out.push((e[..col].iter().map(|v| -v).collect(), -&e[col]));
    }
    for r in b.ineqs.iter().filter(|r| alone(r)) {
        out.push((r[..col].to_vec(), r[col].clone()));
    }
    out
}

/// Whether every point of `high` has a strictly larger first output than
/// every point of `low` with the same parameters and inputs (`np` of them
/// in all): an upper bound `α·x0 <= u` of `low` and a lower bound
/// `β·x0 >= l` of `high` with `β·u - α·l` a negative constant. `false`
/// when no such pair of rows is found (it may hold all the same).
pub(super) fn below(low: &BasicMap, high: &BasicMap, np: usize) -> bool {
    let lows = first_output_bounds(low, np);
    let highs = first_output_bounds(high, np);
    for (u, a) in lows.iter().filter(|(_, c)| c.is_neg()) {
        // `u + a·x0 >= 0`, a < 0: x0 <= u / α with α = -a
        let alpha = -a;
        for (l, beta) in highs.iter().filter(|(_, c)| c.is_pos()) {
            // `l + β·x0 >= 0`: x0 >= -l / β; separated when β·u + α·l < 0
            // at every point, i.e. a negative constant
            if (1..u.len()).all(|k| &(beta * &u[k]) + &(&alpha * &l[k]) == Int::ZERO)
                && (&(beta * &u[0]) + &(&alpha * &l[0])).is_neg()
            {
                return true;
            }
        }
    }
    false
}
