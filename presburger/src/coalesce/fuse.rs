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
//! Whatever the candidate rows, the candidate is returned only when it is
//! proved inside the union (`cover::inside_union`, on pairs of rows of the
//! two disjuncts that the candidate lacks; its oracle is
//! [`Map::is_subset`](crate::Map::is_subset)):
//! the fusion is exact.

use super::align::common_divs;
use super::as_ineqs;
use super::cover::inside_union;
use super::part::{force_divs, Part};
use super::wrap::wrapped_rows;
use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;

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
    let cuts = Cuts::new(&cut_a, &cut_b);
    if let Some(h) = union_if_exact(a, &rows, &cuts, usize::MAX)? {
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
    union_if_exact(a, &rows, &cuts, size(&a.b) + size(&b.b))
}

/// The rows of `a` and of `b` not (proved) valid on the other: every other
/// row of either is a row of the candidate.
pub(super) struct Cuts<'a> {
    pub(super) a: Vec<&'a [Int]>,
    pub(super) b: Vec<&'a [Int]>,
}

impl<'a> Cuts<'a> {
    pub(super) fn new(cut_a: &'a [Cut], cut_b: &'a [Cut]) -> Cuts<'a> {
        let a: Vec<&[Int]> = cut_a.iter().map(|(r, _)| &r[..]).collect();
        let b: Vec<&[Int]> = cut_b.iter().map(|(r, _)| &r[..]).collect();
        Cuts { a, b }
    }
}

/// The basic map of `rows` and `a`'s divisions with their defining rows
/// (the candidate before simplification).
pub(super) fn candidate(a: &BasicMap, rows: &[Vec<Int>]) -> BasicMap {
    let mut h = BasicMap::universe(a.space.clone());
    h.divs = a.divs.clone();
    let off = a.off_div();
    for (k, d) in a.divs.iter().enumerate() {
        let d = d.as_ref().expect("only divisions");
        h.ineqs.extend(d.bounds(off + k));
    }
    h.ineqs.extend(rows.iter());
    h
}

/// The basic map of `rows` (with `a`'s divisions and their defining rows),
/// if it is inside `a ∪ b` (every row holds on both, so it is then their
/// union), and if its simplified description has at most `max_size` rows
/// ([`size`]). `b`, the other disjunct of the pair (same columns), is
/// seen only through `rows` and `cuts`: `rows` must contain every row of
/// `a` and `b` (`as_ineqs`) that is not in `cuts`, and the test is then on
/// pairs of cut rows ([`inside_union`]).
pub(super) fn union_if_exact(
    a: &Part,
    rows: &[Vec<Int>],
    cuts: &Cuts,
    max_size: usize,
) -> Result<Option<Part>> {
    let mut h = candidate(&a.b, rows);
    if !h.simplify() || size(&h) > max_size {
        return Ok(None);
    }
    // the candidate over `a`'s columns with its divisions forced to their
    // values: the simplified one with the defining rows it lacks, or, if
    // simplification changed the divisions, the one before simplification
    let test = if h.divs == a.b.divs {
        let mut t = h.clone();
        force_divs(&mut t);
        t
    } else {
        candidate(&a.b, rows)
    };
    let t = test.rational_tableau()?;
    if inside_union(&test, t, &cuts.a, &cuts.b)? {
        Ok(Some(Part {
            b: h,
            pt: a.pt.clone(),
            tab: None,
        }))
    } else {
        Ok(None)
    }
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
fn rewritten_by_eqs(r: &[Int], eqs: &crate::Rows) -> Vec<Vec<Int>> {
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
