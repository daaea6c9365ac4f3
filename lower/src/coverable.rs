//! How many statements any schedule of the scheduler could put under a
//! parallel outer loop: an upper bound on [`crate::choice`]'s coverage,
//! computed from the dependences alone, so that the scheduler is not run
//! when it cannot beat the original schedule (its run is the costliest part
//! of the choice, and where it cannot win it often ends at its work limit).
//!
//! The argument. A loop is parallel when every dependence between the
//! statements of its nest joins two instances with the same value of the
//! loop's dimension. Take a statement `s` and the pairs `(x, z)` of its
//! instances joined by a dependence `s -> s`, or by `s -> t` and `t -> s`
//! through an instance of another statement `t`. Under an outer loop of
//! `s` whose row is `h·x + g(params) + c` (every row of the scheduler's
//! bands has a non-zero linear part for each statement with dimensions),
//! parallelism needs `h·(z - x) = 0` for every such pair (for a pair
//! through `t`, the two distances add up). When these differences `z - x`
//! span every direction (their affine hull, parameters included, has no
//! equality on them), no `h` is left: `s` is never covered. The set of
//! pairs used is a subset of all dependence paths, which keeps the test a
//! bound.
//!
//! A statement without dimensions runs outside any loop unless it is fused
//! with others: the scheduler either keeps all statements in one band at
//! its root (then, as soon as one statement is never covered, that band's
//! outer loop is not parallel and nothing is covered) or distributes the
//! strongly connected components of the dependence graph, where such a
//! statement alone in its component gets no loop. So when some statement
//! is never covered, neither is a dimensionless statement on no dependence
//! cycle.
//!
//! Assumed of the code generator: a nest of the scheduler's band stays one
//! top-level nest (it does not split one statement's instances into nests
//! that the dependences no longer join). `choice`'s tests check the bound
//! against the scheduler run without work limit on every kernel.

use presburger::{Map, UnionMap};
use scheduler::linalg::{null_space, rank};

use crate::error::Result;

/// Whether no schedule puts more than `most` of the statements (`names`,
/// with their numbers of dimensions `dims`) under a parallel outer loop,
/// given the dependences `deps` (flow, anti and output, as
/// [`crate::parallel::dependences`]); stops as soon as the answer is no.
pub(crate) fn covers_at_most(
    deps: &UnionMap,
    names: &[String],
    dims: &[usize],
    most: usize,
) -> Result<bool> {
    Ok(never_covered(deps, names, dims, most)?
        .is_some_and(|never| names.len() - never.len() <= most))
}

/// The statements that no schedule puts under a parallel outer loop (see
/// the module documentation), by their positions in `names`; `None` once
/// more than `most` statements are left that may be covered.
pub(crate) fn never_covered(
    deps: &UnionMap,
    names: &[String],
    dims: &[usize],
    most: usize,
) -> Result<Option<Vec<usize>>> {
    let n = names.len();
    let pos = |t: Option<&String>| t.and_then(|t| names.iter().position(|x| x == t));
    // the dependence maps between statements, by (source, sink)
    let mut rel: Vec<Vec<Option<&Map>>> = vec![vec![None; n]; n];
    for m in deps.maps() {
        let sp = m.space();
        let a = pos(sp.domain.as_ref().and_then(|t| t.name.as_ref()));
        let b = pos(sp.range.name.as_ref());
        if let (Some(a), Some(b)) = (a, b) {
            if !m.basic_maps().is_empty() {
                rel[a][b] = Some(m);
            }
        }
    }
    // reachability, for the strongly connected components
    let mut reach: Vec<Vec<bool>> = (0..n)
        .map(|a| (0..n).map(|b| rel[a][b].is_some()).collect())
        .collect();
    for k in 0..n {
        let via = reach[k].clone();
        for row in reach.iter_mut().filter(|r| r[k]) {
            for (x, &v) in row.iter_mut().zip(&via) {
                *x |= v;
            }
        }
    }
    // (the statements with dimensions that may be covered, so far)
    let mut maybe = 0;
    let mut never = Vec::new();
    for s in 0..n {
        if dims[s] == 0 {
            continue;
        }
        // the differences' span, grown piece by piece (self-dependences
        // first, then paths through another statement) until it is full
        let mut span = Span::new(dims[s]);
        let mut pieces: Vec<Map> = Vec::new();
        if let Some(m) = rel[s][s] {
            pieces.extend(m.basic_maps().iter().map(|b| Map::from_basic(b.clone())));
        }
        'grow: for piece in pieces {
            span.add(&piece.deltas()?)?;
            if span.full() {
                break 'grow;
            }
        }
        if !span.full() {
            'paths: for t in (0..n).filter(|&t| t != s) {
                let (Some(st), Some(ts)) = (rel[s][t], rel[t][s]) else {
                    continue;
                };
                for a in st.basic_maps() {
                    for b in ts.basic_maps() {
                        let path =
                            Map::from_basic(a.clone()).apply_range(&Map::from_basic(b.clone()))?;
                        span.add(&path.deltas()?)?;
                        if span.full() {
                            break 'paths;
                        }
                    }
                }
            }
        }
        if span.full() {
            never.push(s);
        } else {
            maybe += 1;
            if maybe > most {
                return Ok(None);
            }
        }
    }
    if !never.is_empty() {
        for s in 0..n {
            let on_cycle = (0..n).any(|t| reach[s][t] && reach[t][s]);
            if dims[s] == 0 && !on_cycle {
                never.push(s);
            }
        }
        never.sort_unstable();
    }
    Ok(Some(never))
}

/// A subspace of the differences' linear span (generators), grown from
/// the affine hulls of pieces of the differences.
struct Span {
    dim: usize,
    gens: Vec<Vec<i128>>,
}

impl Span {
    fn new(dim: usize) -> Span {
        Span { dim, gens: vec![] }
    }

    fn full(&self) -> bool {
        rank(&self.gens, self.dim) == Some(self.dim)
    }

    /// Adds (a subspace of) the linear span of the set `d` (`dim`
    /// coordinates after the parameters). Its affine hull's equalities
    /// `a·δ = b` without parameters give the span `{ w·δ = 0 : w = λA,
    /// λ·b = 0 }^⊥`; an equality with parameters (or a coefficient past
    /// `i64`) is taken as `a·δ = 0`, which only shrinks what is added.
    fn add(&mut self, d: &Map) -> Result<()> {
        let hull = d.affine_hull()?;
        let np = d.space().n_param();
        let dim = self.dim;
        let Some(h) = hull.basic_maps().first() else {
            return Ok(());
        };
        let small = |v: &presburger::Int| v.to_i64().map(i128::from);
        // the complement: homogeneous rows as they are, and the
        // differences of the others that cancel their constants
        let mut comp: Vec<Vec<i128>> = vec![];
        let mut inhom: Vec<(i128, Vec<i128>)> = vec![];
        for r in h.eqs() {
            let Some(a) = r[1 + np..1 + np + dim]
                .iter()
                .map(small)
                .collect::<Option<Vec<i128>>>()
            else {
                return Ok(());
            };
            if a.iter().all(|v| *v == 0) {
                continue;
            }
            let with_params = r[1..1 + np].iter().any(|v| !v.is_zero())
                || r[1 + np + dim..].iter().any(|v| !v.is_zero());
            match small(&r[0]) {
                Some(0) => comp.push(a),
                Some(b) if !with_params => inhom.push((b, a)),
                _ => comp.push(a),
            }
        }
        if let Some((b0, a0)) = inhom.first() {
            for (b, a) in &inhom[1..] {
                let Some(w) = a
                    .iter()
                    .zip(a0)
                    .map(|(x, y)| b0.checked_mul(*x)?.checked_sub(b.checked_mul(*y)?))
                    .collect::<Option<Vec<i128>>>()
                else {
                    return Ok(());
                };
                comp.push(w);
            }
        }
        if let Some(basis) = null_space(&comp, dim) {
            self.gens.extend(basis);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span_of(sets: &[&str], dim: usize) -> bool {
        let mut s = Span::new(dim);
        for d in sets {
            s.add(&d.parse::<Map>().unwrap()).unwrap();
        }
        s.full()
    }

    #[test]
    fn spans_are_read_from_affine_hulls() {
        // a full-dimensional set, a hyperplane off the origin, one through it
        assert!(span_of(&["[N] -> { [a, b] : 0 <= a, b < N }"], 2));
        assert!(span_of(&["{ [a, b] : a = 1 and 0 <= b <= 5 }"], 2));
        assert!(!span_of(&["{ [a, b] : a = 0 and 0 <= b <= 5 }"], 2));
        // a parametric offset is not counted (a bound)
        assert!(!span_of(&["[N] -> { [a, b] : a = N and 0 <= b <= 5 }"], 2));
        // two lines through the origin, apart and together
        assert!(!span_of(&["{ [a, b] : a = b and 0 <= a <= 3 }"], 2));
        assert!(span_of(
            &[
                "{ [a, b] : a = b and 0 <= a <= 3 }",
                "{ [a, b] : a = -b and 0 <= a <= 3 }"
            ],
            2
        ));
        // single points: (1, 2, 0) and (2, 4, 0) span a line only
        assert!(!span_of(&["{ [1, 2, 0] }", "{ [2, 4, 0] }"], 3));
        assert!(span_of(
            &[
                "{ [1, 2, 0] }",
                "{ [2, 4, 0] }",
                "{ [0, 1, 0] }",
                "{ [0, 0, 7] }"
            ],
            3
        ));
    }
}
