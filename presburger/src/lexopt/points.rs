//! Optima of sets and maps without parameters or inputs: one point, the
//! best of each disjunct's ([`lexopt_points`]), and a basic set's by
//! bisection on each dimension over integer feasibility ([`lexopt_point`]).

use super::out_dim;
use crate::basic::BasicMap;
use crate::budget;
use crate::error::{Error, Result};
use crate::fourier_motzkin::refute_by_elimination;
use crate::guess::{kept_point_holds, remember_point};
use crate::int::Int;
use crate::map::Map;

/// The size (inequalities times row length, after simplification) from
/// which [`lexopt_points`] gives the search a budget and, when it runs out,
/// tries [`refute_by_elimination`] before the search without one.
const ELIMINATION_SIZE: usize = 900;

/// The search's budget on a large system (see [`ELIMINATION_SIZE`]), per
/// entry of its inequalities: the searches of the corpus's large systems,
/// empty or not, end within 32 (the scheduler's Farkas problems; a search
/// loop charges about a quarter of the tableau's entries per step).
const SEARCH_BUDGET_PER_ENTRY: u64 = 64;

/// The optimum of a map without parameters or input dimensions: the optimum
/// of each disjunct by `opt`, then the best of them.
///
/// On a large disjunct the search runs first on a budget proportional to
/// the disjunct's size: most end within it, empty or not, and a
/// refutation first would be work thrown away on every disjunct with a
/// point. When the budget runs out, the cheap refutation by elimination
/// gets its chance (some empty Farkas problems are proved empty by it far
/// sooner than by the search), then the search runs again without the
/// budget.
pub(crate) fn lexopt_points(
    m: &Map,
    max: bool,
    opt: impl Fn(&BasicMap) -> Result<Option<Vec<Int>>>,
) -> Result<Map> {
    lexopt_points_budgeted(m, max, opt, SEARCH_BUDGET_PER_ENTRY)
}

/// The search of `b` by `opt` on a budget of `per_entry` operations per
/// entry of its inequalities; when that runs out (and not an enclosing
/// budget), the refutation by elimination, then the search without this
/// budget. `Ok(None)`: no point.
fn search_then_refute(
    b: &BasicMap,
    opt: &impl Fn(&BasicMap) -> Result<Option<Vec<Int>>>,
    per_entry: u64,
) -> Result<Option<Vec<Int>>> {
    let ops = (b.ineqs.len() * b.row_len()) as u64 * per_entry;
    let scope = budget::enter(ops);
    let first = opt(b);
    // (an enclosing budget that granted less is the caller's to report)
    let ours = scope.granted() == ops;
    drop(scope);
    match first {
        Err(Error::BudgetExceeded) if ours => {
            if refute_by_elimination(b) {
                Ok(None)
            } else {
                opt(b)
            }
        }
        found => found,
    }
}

/// [`lexopt_points`] with the search's budget per entry of a large
/// disjunct given (the tests give 0: the refutation, then the search).
pub(crate) fn lexopt_points_budgeted(
    m: &Map,
    max: bool,
    opt: impl Fn(&BasicMap) -> Result<Option<Vec<Int>>>,
    per_entry: u64,
) -> Result<Map> {
    let mut best: Option<Vec<Int>> = None;
    for orig in &m.parts {
        if orig.known_empty() {
            continue;
        }
        // (the simplified copy kept from an earlier optimum of these rows)
        let Some(b) = crate::memo::simplified(orig) else {
            orig.remember_empty();
            continue;
        };
        // large systems: the search on a budget, then the refutation (see
        // above); not when a kept point (an earlier optimum's) already
        // proves the disjunct non-empty
        let found = if b.ineqs.len() * b.row_len() >= ELIMINATION_SIZE && !kept_point_holds(orig) {
            search_then_refute(&b, &opt, per_entry)?
        } else {
            opt(&b)?
        };
        let Some(p) = found else {
            // a later optimum of the same disjunct costs a comparison of rows
            orig.remember_empty();
            continue;
        };
        // the optimum is a point of the disjunct: kept (its locals completed,
        // if they can be), a later optimum skips the proof of emptiness
        if b.ineqs.len() * b.row_len() >= ELIMINATION_SIZE {
            remember_point(orig, &p);
        }
        let better = match &best {
            None => true,
            Some(q) => {
                if max {
                    p > *q
                } else {
                    p < *q
                }
            }
        };
        if better {
            best = Some(p);
        }
    }
    let mut out = Map::empty(m.space.clone());
    if let Some(p) = best {
        let mut b = BasicMap::universe(m.space.clone());
        for (k, v) in p.iter().enumerate() {
            let mut row = vec![Int::ZERO; b.row_len()];
            row[1 + k] = Int::ONE;
            row[0] = -v;
            b.eqs.push(row);
        }
        out.parts.push(b);
    }
    Ok(out)
}

/// The lexicographic optimum of the dimensions of a basic set without
/// parameters, or `None` if it is empty.
pub fn lexopt_point(b: &BasicMap, max: bool) -> Result<Option<Vec<Int>>> {
    use crate::simplex::{integer_sample, Opt};
    let mut b = b.clone();
    if !b.simplify() {
        return Ok(None);
    }
    let nv = b.row_len() - 1;
    let feasible =
        |b: &BasicMap| -> Result<bool> { Ok(integer_sample(nv, &b.eqs, &b.ineqs)?.is_some()) };
    if !feasible(&b)? {
        return Ok(None);
    }
    let no = b.space.n_out();
    let off = 1 + b.space.n_param() + b.space.n_in();
    let mut point = Vec::with_capacity(no);
    for k in 0..no {
        // objective: y_k (min) or -y_k (max), minimized
        let mut obj = vec![Int::ZERO; nv + 1];
        obj[off + k] = if max { Int::from(-1) } else { Int::ONE };
        let mut t = b.rational_tableau()?;
        let lo = match t.clone().minimize(&obj)? {
            Opt::Value(n, d) => n.div_ceil(&d),
            Opt::Unbounded => {
                return Err(Error::Unbounded {
                    dim: out_dim(&b.space, k),
                    upper: max,
                })
            }
        };
        // smallest v >= lo with an integer point where obj <= v
        let with_bound = |v: &Int| -> BasicMap {
            let mut c = b.clone();
            let mut row: Vec<Int> = obj.iter().map(|x| -x).collect();
            row[0] = v.clone();
            c.ineqs.push(row);
            c
        };
        let mut hi = match t.maximize(&obj)? {
            Opt::Value(n, d) => n.div_floor(&d),
            Opt::Unbounded => {
                let mut step = Int::ONE;
                let mut v = lo.clone();
                loop {
                    budget::tick(1)?;
                    if feasible(&with_bound(&v))? {
                        break v;
                    }
                    v = &v + &step;
                    step = &step * &Int::from(2);
                }
            }
        };
        let mut lo = lo;
        while lo < hi {
            budget::tick(1)?;
            let mid = (&lo + &hi).div_floor(&Int::from(2));
            if feasible(&with_bound(&mid))? {
                hi = mid;
            } else {
                lo = &mid + &Int::ONE;
            }
        }
        let v = if max { -&lo } else { lo };
        let mut row = vec![Int::ZERO; nv + 1];
        row[off + k] = Int::ONE;
        row[0] = -&v;
        b.eqs.push(row);
        point.push(v);
    }
    Ok(Some(point))
}
