//! Whether a fusion candidate lies inside the union of its two disjuncts,
//! decided on pairs of *cut rows* instead of the difference `h \ (a ∪ b)`.
//!
//! Let `a` and `b` be two disjuncts over the same columns (every local a
//! division, the same divisions), and `h` a basic map over those columns
//! whose divisions are forced to their values by their defining rows, such
//! that every row of `a` outside the list `cut_a` and every row of `b`
//! outside `cut_b` holds at every solution of `h` (the fusion candidate
//! keeps them as rows). A point `x` of `h` with its divisions' values `l`
//! is outside `a` iff `(x, l)` violates a row of `a` (the constraints with
//! the divisions at their values define `a`), and such a row is a cut row;
//! likewise for `b`. Rows take integer values at integer points, so
//!
//! `h ⊆ a ∪ b`  iff  for every `r ∈ cut_a` and `s ∈ cut_b`, the set
//! `h ∩ {r ≤ -1} ∩ {s ≤ -1}` has no integer point.
//!
//! The pieces are made smaller (and fewer) as in a difference: the piece of
//! the `i`-th cut row of `a` also has the earlier cut rows of `a` (a point
//! violating several is found in the piece of the first). Each question is
//! first asked of the rational relaxation on one tableau (a row whose
//! rational minimum over a piece is `> -1` cannot be violated there: the
//! whole row, or the pair, is settled by an LP), each LP's minimiser,
//! rounded down, is tried as a point of `h` outside both, and only the
//! pairs left open get an exact integer emptiness test. The plain inclusion
//! test [`Map::is_subset`](crate::Map::is_subset) of `h` in `a ∪ b` is the
//! oracle (`reference`).

use crate::basic::BasicMap;
use crate::error::Result;
use crate::int::Int;
use crate::matrix::eval;
use crate::simplex::{Opt, Tableau};

/// `r ≤ -1` as an inequality: `-r - 1 ≥ 0`.
fn beyond(r: &[Int]) -> Vec<Int> {
    let mut v: Vec<Int> = r.iter().map(|c| -c).collect();
    v[0] = &v[0] - &Int::ONE;
    v
}

/// Whether some point of the tableau's polyhedron has `r ≤ -1` (its
/// rational minimum is at most `-1`, or unbounded). `false` proves that no
/// integer point violates `r`. Leaves the polyhedron as it is.
fn may_violate(t: &mut Tableau, r: &[Int]) -> Result<bool> {
    Ok(match t.minimize(r)? {
        Opt::Value(n, d) => n <= -d,
        Opt::Unbounded => true,
    })
}

/// At most this many rounded minimisers are tried as witnesses in the
/// first pass over the cut rows ([`outside_both`]).
const MAX_ROUNDED: usize = 8;

/// Whether the tableau's sample point, its variables rounded down and its
/// divisions at their values (those of `h`), is a point of `h` that
/// violates a row of `cut_a` and a row of `cut_b`: a point of `h` in
/// neither disjunct (see the [module documentation](self)). `false`
/// proves nothing. After a minimisation the sample point is the
/// minimiser, so this finds the vertices beyond a cut row (a residue class
/// neither disjunct has, the corner between two translated boxes) with no
/// integer search.
fn outside_both(t: &Tableau, h: &BasicMap, cut_a: &[&[Int]], cut_b: &[&[Int]]) -> bool {
    let n = h.space.n_vars();
    let mut v: Vec<Int> = (0..n)
        .map(|k| {
            let (num, den) = t.sample_value(k);
            num.div_floor(&den)
        })
        .collect();
    for d in &h.divs {
        let Some(d) = d else {
            return false;
        };
        let q = eval(&d.num, &v).div_floor(&d.den);
        v.push(q);
    }
    let violated = |r: &&[Int]| eval(r, &v).is_neg();
    h.eqs.iter().all(|e| eval(e, &v).is_zero())
        && h.ineqs.iter().all(|r| !eval(r, &v).is_neg())
        && cut_a.iter().any(violated)
        && cut_b.iter().any(violated)
}

/// Whether `h ⊆ a ∪ b`, for `h` and the cut rows of `a` and `b` as in the
/// [module documentation](self), given `t`, the tableau of `h`'s rational
/// relaxation. Exact.
pub(super) fn inside_union<'a>(
    h: &BasicMap,
    mut t: Tableau,
    cut_a: &[&'a [Int]],
    cut_b: &[&'a [Int]],
) -> Result<bool> {
    if t.is_empty() {
        return Ok(true);
    }
    // the cut rows that some point of h may violate, each minimiser tried
    // as a witness
    let mut tries = 0;
    let mut live = |t: &mut Tableau, cut: &[&'a [Int]]| -> Result<Option<Vec<&'a [Int]>>> {
        let mut out = Vec::with_capacity(cut.len());
        for &r in cut {
            if may_violate(t, r)? {
                if tries < MAX_ROUNDED {
                    tries += 1;
                    if outside_both(t, h, cut_a, cut_b) {
                        return Ok(None);
                    }
                }
                out.push(r);
            }
        }
        Ok(Some(out))
    };
    let Some(ra) = live(&mut t, cut_a)? else {
        return Ok(false);
    };
    if ra.is_empty() {
        return Ok(true); // h ⊆ a
    }
    let Some(sb) = live(&mut t, cut_b)? else {
        return Ok(false);
    };
    if sb.is_empty() {
        return Ok(true); // h ⊆ b
    }
    // `acc`: h with the cut rows of `a` before the current one
    let mut acc_t = t;
    let mut acc_rows: Vec<Vec<Int>> = Vec::new();
    for (i, &r) in ra.iter().enumerate() {
        crate::budget::tick(1)?;
        let last = i + 1 == ra.len();
        let out_r = beyond(r);
        let mut copy;
        let piece = if last {
            &mut acc_t
        } else {
            copy = acc_t.clone();
            &mut copy
        };
        piece.add_ineq(&out_r)?;
        if !piece.is_empty() {
            for &s in &sb {
                if !may_violate(piece, s)? {
                    continue;
                }
                crate::budget::tick(1)?;
                // the LP's minimiser (rounded) may be a point of `h`
                // outside both
                if outside_both(piece, h, cut_a, cut_b) {
                    return Ok(false);
                }
                let mut x = h.clone();
                x.ineqs.extend(acc_rows.iter());
                x.ineqs.push(&out_r);
                x.ineqs.push(beyond(s));
                if !x.into_is_empty()? {
                    return Ok(false);
                }
            }
        }
        if !last {
            acc_t.add_ineq(r)?;
            if acc_t.is_empty() {
                break;
            }
            acc_rows.push(r.to_vec());
        }
    }
    Ok(true)
}

/// Whether every integer point of `h` (its divisions forced to their
/// values by their defining rows) satisfies every row of `rows` (over
/// `h`'s columns), given `t`, the tableau of `h`'s rational relaxation.
/// For `rows` the constraints of a basic map `q` with the same divisions,
/// this is `h ⊆ q`. Exact: a row whose rational minimum over what is left
/// of `h` is `> -1` holds at every integer point; else the LP's integral
/// minimiser or an exact emptiness test decides. The piece of each row
/// also has the rows before it (a point violating several is found with
/// the first; rows that no integer point violates are added to the
/// relaxation only).
pub(super) fn satisfies_all(h: &BasicMap, t: Tableau, rows: &[&[Int]]) -> Result<bool> {
    if t.is_empty() {
        return Ok(true);
    }
    let mut acc_t = t;
    let mut acc_rows: Vec<Vec<Int>> = Vec::new();
    for &r in rows {
        crate::budget::tick(1)?;
        if may_violate(&mut acc_t, r)? {
            if outside_both(&acc_t, h, &[r], &[r]) {
                return Ok(false);
            }
            let mut x = h.clone();
            x.ineqs.extend(acc_rows.iter());
            x.ineqs.push(beyond(r));
            if !x.into_is_empty()? {
                return Ok(false);
            }
            acc_rows.push(r.to_vec());
        }
        acc_t.add_ineq(r)?;
        if acc_t.is_empty() {
            return Ok(true);
        }
    }
    Ok(true)
}

/// The oracle of [`inside_union`]: the plain inclusion test of `h` in the
/// union of `a` and `b`.
#[cfg(test)]
pub(super) mod reference {
    use crate::basic::BasicMap;
    use crate::error::Result;
    use crate::map::Map;

    pub(in crate::coalesce) fn inside_union(
        h: &BasicMap,
        a: &BasicMap,
        b: &BasicMap,
    ) -> Result<bool> {
        let union = Map::new(a.space.clone(), vec![a.clone(), b.clone()]);
        Map::from_basic(h.clone()).is_subset(&union)
    }
}
