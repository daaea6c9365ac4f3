//! Fusion of two disjuncts into one: a basic map of rows valid on both
//! that is checked to be exactly their union.
//!
//! Candidate rows, all valid on both disjuncts (so the candidate contains
//! their union), in two rounds:
//! 1. the rows of each disjunct valid on the other, their rewritings by the
//!    disjunct's equalities (`rewritten_by_eqs`), and each row not valid
//!    on the other *relaxed*: its constant raised by the other's (integer
//!    bound of the) rational minimum, so that it holds there too (the
//!    facets of the simple hull);
//! 2. only if the first candidate is not the union: rows *wrapped* around
//!    another row of their disjunct (`wrap`). A candidate of this round is
//!    taken only if its description is no larger than the two it replaces
//!    ([`size`]): the wrapped rows of a fused 2-d stencil dependence
//!    (seidel) grew to 52 rows of up to 8 terms each, on which the
//!    scheduler's Farkas step ran out of its budget (`scheduler/tests/
//!    values.rs`); with the bound, the translated boxes of the corpus
//!    (`trace-coalesce-153`, `-155`) still fuse.
//!
//! Disjuncts with divisions are fused over common divisions
//! (`align::common_divs`): both copies get the same divisions in the same
//! order, the divisions' columns are then treated as variables (every
//! solution of either disjunct has them at their defined values) and the
//! candidate keeps the divisions with their defining rows, so that its
//! definitions stay consistent.
//!
//! Whatever the candidate rows, the candidate is returned only when
//! [`Map::is_subset`] proves it inside the union: the fusion is exact.

use super::align::common_divs;
use super::as_ineqs;
use super::part::Part;
use super::wrap::wrapped_rows;
use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;

/// The size of a disjunct's description: its inequalities and twice its
/// equalities (as inequalities, see `as_ineqs`).
fn size(b: &BasicMap) -> usize {
    b.ineqs.len() + 2 * b.eqs.len()
}

/// A row of one disjunct not valid on the other, with its rational minimum
/// over the other (`None` if unbounded or not computed).
pub(super) type Cut = (Vec<Int>, Option<(Int, Int)>);

/// The fusion of `a` and `b` (see the module documentation), or `None`.
/// The fused disjunct contains `a`, so `a`'s point is a point of it.
pub(super) fn fuse_parts(a: &mut Part, b: &mut Part) -> Result<Option<Part>> {
    if a.b.divs == b.b.divs {
        return fuse_same_columns(a, b);
    }
    let Some((a2, b2)) = common_divs(&a.b, &b.b) else {
        return Ok(None);
    };
    let mut a2 = Part {
        b: a2,
        pt: a.pt.clone(),
        tab: None,
    };
    let mut b2 = Part {
        b: b2,
        pt: b.pt.clone(),
        tab: None,
    };
    fuse_same_columns(&mut a2, &mut b2)
}

/// [`fuse_parts`] of two disjuncts with the same divisions (same columns).
fn fuse_same_columns(a: &mut Part, b: &mut Part) -> Result<Option<Part>> {
    if a.b.divs.iter().any(Option::is_none) {
        // a plain existential: its column is not a function of the point
        return Ok(None);
    }
    let mut rows = Vec::new();
    let mut cut_a = Vec::new();
    let mut cut_b = Vec::new();
    valid_rows(a, b, &mut rows, &mut cut_a)?;
    valid_rows(b, a, &mut rows, &mut cut_b)?;
    for (r, m) in cut_a.iter().chain(&cut_b) {
        if let Some(c) = relaxed(r, m) {
            rows.push(c);
        }
    }
    let cuts: Vec<&[Int]> = cut_a.iter().chain(&cut_b).map(|(r, _)| &r[..]).collect();
    if let Some(h) = union_if_exact(a, b, &rows, &cuts, usize::MAX)? {
        return Ok(Some(h));
    }
    if !a.b.divs.is_empty() {
        // wrapping is for the translated boxes of stencils: over divisions
        // the relaxed rows fuse the residue classes, and a failed attempt
        // (two more inclusion tests over divisions) is costly
        return Ok(None);
    }
    let before = rows.len();
    wrapped_rows(&a.b, &cut_a, b, &mut rows)?;
    wrapped_rows(&b.b, &cut_b, a, &mut rows)?;
    if rows.len() == before {
        return Ok(None);
    }
    union_if_exact(a, b, &rows, &cuts, size(&a.b) + size(&b.b))
}

/// The basic map of `rows` (with `a`'s divisions and their defining rows),
/// if it is inside `a ∪ b` (every row holds on both, so it is then their
/// union), and if its simplified description has at most `max_size` rows
/// ([`size`]). `cuts`: rows of `a` or `b` not valid on the other, whose
/// minimisers over the candidate are tried as points outside the union
/// before the exact inclusion test ([`point_outside`]).
fn union_if_exact(
    a: &Part,
    b: &Part,
    rows: &[Vec<Int>],
    cuts: &[&[Int]],
    max_size: usize,
) -> Result<Option<Part>> {
    let mut h = BasicMap::universe(a.b.space.clone());
    h.divs = a.b.divs.clone();
    let off = a.b.off_div();
    for (k, d) in a.b.divs.iter().enumerate() {
        let d = d.as_ref().expect("only divisions");
        h.ineqs.extend(d.bounds(off + k));
    }
    h.ineqs.extend(rows.iter().cloned());
    if !h.simplify() || size(&h) > max_size {
        return Ok(None);
    }
    if point_outside(&h, &a.b, &b.b, cuts)? {
        return Ok(None);
    }
    let union = Map {
        space: a.b.space.clone(),
        parts: vec![a.b.clone(), b.b.clone()],
        memo: Default::default(),
    };
    if Map::from_basic(h.clone()).is_subset(&union)? {
        Ok(Some(Part {
            b: h,
            pt: a.pt.clone(),
            tab: None,
        }))
    } else {
        Ok(None)
    }
}

/// At most this many cut rows are minimised over a candidate by
/// [`point_outside`].
const MAX_WITNESS_ROWS: usize = 8;

/// Whether some cut row's minimiser over the rational relaxation of the
/// candidate `h`, rounded down, is a point of `h` in neither `a` nor `b`
/// (all three with the same divisions, every local a division): a witness
/// that `h` is not their union, found with one tableau and a few LPs
/// instead of the inclusion test's differences over divisions. `false`
/// proves nothing.
pub(super) fn point_outside(
    h: &BasicMap,
    a: &BasicMap,
    b: &BasicMap,
    cuts: &[&[Int]],
) -> Result<bool> {
    if cuts.is_empty() {
        return Ok(false);
    }
    // The cut rows are over the pair's columns; `h` was simplified, which may
    // have dropped divisions. A row keeps its meaning on `h` when `h`'s
    // divisions are the first of `a`'s and the row does not use the others.
    let w = h.row_len();
    let nd = h.divs.len();
    let prefix = a.divs.len() >= nd && a.divs[..nd] == h.divs[..];
    let fitted = |r: &'_ [Int]| -> Option<Vec<Int>> {
        if r.len() == w {
            Some(r.to_vec())
        } else if r.len() > w && prefix && r[w..].iter().all(Int::is_zero) {
            Some(r[..w].to_vec())
        } else {
            None
        }
    };
    let mut hp = Part::new(h.clone());
    if hp.tab()?.is_empty() {
        return Ok(false);
    }
    let n = h.space.n_vars();
    for r in cuts.iter().take(MAX_WITNESS_ROWS) {
        crate::budget::tick(1)?;
        let Some(r) = fitted(r) else {
            continue;
        };
        if hp.min(&r)?.is_none() {
            continue;
        }
        let x: Vec<Int> = hp.tab_sample()?[..n]
            .iter()
            .map(|(num, den)| num.div_floor(den))
            .collect();
        if contains(h, &x) && !contains(a, &x) && !contains(b, &x) {
            return Ok(true);
        }
    }
    // an integer point of `h` beyond each cut row (`r <= -1`): it is
    // outside that row's disjunct, often outside the other as well (e.g.
    // a residue class neither has, which a rounded LP vertex misses)
    for r in cuts.iter().take(MAX_WITNESS_ROWS) {
        crate::budget::tick(1)?;
        let Some(mut r) = fitted(r) else {
            continue;
        };
        for v in r.iter_mut() {
            *v = -&*v;
        }
        r[0] = &r[0] - &Int::ONE;
        let mut beyond = h.clone();
        beyond.ineqs.push(r);
        if let Some(x) = beyond.sample()? {
            if contains(h, &x) && !contains(a, &x) && !contains(b, &x) {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Whether the point `x` (the variables) is in `b`, whose locals are all
/// divisions: every row holds at `x` with the divisions' values.
fn contains(b: &BasicMap, x: &[Int]) -> bool {
    let mut v = x.to_vec();
    for d in &b.divs {
        let Some(d) = d else {
            return false;
        };
        let q = crate::matrix::eval(&d.num, &v).div_floor(&d.den);
        v.push(q);
    }
    b.eqs.iter().all(|e| crate::matrix::eval(e, &v).is_zero())
        && b.ineqs.iter().all(|r| !crate::matrix::eval(r, &v).is_neg())
}

/// Push to `out` the rows of `x` valid on `y` and, for each row of `x`
/// not valid on `y`, its rewritings by the equalities of `x`
/// ([`rewritten_by_eqs`]) that are valid on `y`; the rows not valid on `y`
/// go to `cut` with their minimum over `y`. Every pushed row holds on `x`
/// and on `y`.
fn valid_rows(x: &Part, y: &mut Part, out: &mut Vec<Vec<Int>>, cut: &mut Vec<Cut>) -> Result<()> {
    // the exact validity test only without divisions (see `Part::validity`)
    let exact = x.b.divs.is_empty();
    for r in as_ineqs(&x.b) {
        let (valid, min) = y.validity(&r, exact)?;
        if valid {
            out.push(r);
            continue;
        }
        for c in rewritten_by_eqs(&r, &x.b.eqs) {
            if y.validity(&c, exact)?.0 {
                out.push(c);
            }
        }
        cut.push((r, min));
    }
    Ok(())
}

/// The row `r` with its constant raised so that it holds wherever the
/// rational minimum `min = n / d` (negative) bounds it: `r - ceil(n / d)`.
/// At integer points `r` is an integer `≥ n / d`, hence `≥ ceil(n / d)`;
/// on `r`'s own disjunct `r ≥ 0` already, so the relaxed row holds on both.
fn relaxed(r: &[Int], min: &Option<(Int, Int)>) -> Option<Vec<Int>> {
    let (n, d) = min.as_ref()?;
    let lift = n.div_ceil(d);
    if !lift.is_neg() {
        return None;
    }
    let mut c = r.to_vec();
    c[0] = &c[0] - &lift;
    Some(c)
}

/// The row `r` rewritten by each equality `e` of `eqs` so that one of
/// their common variables `v` is eliminated: `|e_v|·r - sign(e_v)·r_v·e`
/// (normalised by its gcd). On the disjunct with these equalities (`e = 0`)
/// the rewriting is a positive multiple of `r`, so it holds wherever `r`
/// does; on another disjunct it may hold where `r` does not (a restricted
/// form of *wrapping* a constraint around the equality: e.g. `i ≤ N - 2`
/// on `o = i` becomes `o ≤ N - 2`, which also holds on `o = i - 1,
/// i ≤ N - 1`).
fn rewritten_by_eqs(r: &[Int], eqs: &[Vec<Int>]) -> Vec<Vec<Int>> {
    let mut out = Vec::new();
    for e in eqs {
        for v in 1..r.len() {
            if r[v].is_zero() || e[v].is_zero() {
                continue;
            }
            let f = if e[v].is_neg() { r[v].clone() } else { -&r[v] };
            let mut c: Vec<Int> = r
                .iter()
                .zip(e)
                .map(|(x, y)| Int::combine(&e[v].abs(), x, &f, y))
                .collect();
            if c[1..].iter().all(Int::is_zero) {
                continue;
            }
            crate::matrix::normalize_ineq(&mut c);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}
