//! Alias checks between array parameters that may overlap: each accessed
//! range `[lowest, highest]` cell (the parametric lexmin and lexmax of the
//! accessed cells, in row-major order, which is address order when the
//! inner subscripts are in bounds, i.e. under the assumptions) must end
//! before the other begins.

use presburger::{MultiAff, PwMultiAff, Set};
use scop::affine::{AVar, Affine};
use scop::assume::ArrayParam;
use scop::ast::IntTy;
use scop::Scop;

use crate::cexpr::{aff_value, CInt, Params};
use crate::error::{Error, Result};
use crate::term::{Cond, Term};

/// One pair of arrays that needs a run-time comparison.
#[derive(Debug, Clone)]
pub struct AliasPair {
    /// The first array.
    pub a: String,
    /// The second array.
    pub b: String,
    /// The condition: the accessed ranges do not overlap.
    pub check: Cond,
}

/// `sizeof(double)`.
const ELEMENT: i64 = 8;

/// A little below `2^127`: the largest magnitude an `__int128` difference
/// of two offsets may reach (the bounds are computed in `f64` with this
/// margin).
const SIGNED_128: f64 = 1.6e38;

struct Range {
    accessed: Cond,
    /// The lowest and one past the highest accessed cell (offsets from the
    /// base, in elements).
    start: CInt,
    end: CInt,
}

/// The pairs of non-`restrict` array parameters, at least one of them
/// written, and their no-overlap conditions. `None` inside when a literal
/// does not fit 64 bits.
pub fn alias_pairs(scop: &Scop, params: &Params) -> Result<Option<Vec<AliasPair>>> {
    let mut shared = crate::cells::Shared::default();
    alias_pairs_from(
        scop,
        params,
        &mut |scop, array| crate::cells::accessed_cells_with(scop, array, &mut shared),
        true,
    )
}

/// The accessed cells of an array parameter and whether it is written.
pub(crate) type CellsOf<'a> = &'a mut dyn FnMut(&Scop, &str) -> Result<Option<(Set, bool)>>;

/// [`alias_pairs`] with the accessed cells computed by `cells` (the
/// reference passes [`scop::assume::accessed_cells`]), and their lowest and
/// highest cells taken as one point where they are a union of boxes
/// (`boxes`, [`crate::extremes`]) or always by the parametric lexmin and
/// lexmax (the reference).
pub(crate) fn alias_pairs_from(
    scop: &Scop,
    params: &Params,
    cells: CellsOf,
    boxes: bool,
) -> Result<Option<Vec<AliasPair>>> {
    // (the cells and their extremes do not depend on the parameters'
    // types: the second attempt reuses what the first computed)
    let mut memo = Vec::new();
    match pairs_with(scop, params, false, cells, boxes, &mut memo) {
        Err(Error::CheckOverflow(_)) => {}
        r => return r,
    }
    // Offsets of high degree in 64-bit sizes could exceed 128 bits: they
    // are evaluated only where every 64-bit parameter fits in 32 bits (a
    // guard in front of the comparison); larger sizes make the check fail
    // safe (false).
    let narrow = Params {
        types: params
            .types
            .iter()
            .map(|(n, t)| (n.clone(), if t.bits() > 32 { IntTy::Int } else { *t }))
            .collect(),
    };
    pairs_with(scop, &narrow, true, cells, boxes, &mut memo)
}

/// The lowest or highest accessed cell: one point, or the parametric
/// lexmin or lexmax.
enum Extreme {
    Point(MultiAff),
    Pieces(PwMultiAff),
}

/// What an array's range needs from the engine, each part computed when
/// first needed (in the order the ranges need them, so that an attempt
/// stops where it did without the memo).
struct Memo {
    /// The accessed cells and whether one is written.
    cells: Option<(Set, bool)>,
    /// The parameters where a cell is accessed.
    accessed: Option<Set>,
    /// The lowest and the highest cell.
    ends: [Option<Extreme>; 2],
}

fn pairs_with(
    scop: &Scop,
    params: &Params,
    guard: bool,
    cells_of: CellsOf,
    boxes: bool,
    memo: &mut Vec<Memo>,
) -> Result<Option<Vec<AliasPair>>> {
    let mut ranges = Vec::new();
    let arrays = scop.optimistic.array_params.iter().filter(|a| !a.restrict);
    for (k, ap) in arrays.enumerate() {
        if memo.len() == k {
            memo.push(Memo {
                cells: cells_of(scop, &ap.name)?,
                accessed: None,
                ends: [None, None],
            });
        }
        let m = &mut memo[k];
        let Some((_, written)) = m.cells else {
            continue;
        };
        let Some(r) = range(m, ap, params, boxes)? else {
            return Ok(None);
        };
        ranges.push((ap.name.clone(), written, r));
    }
    let mut out = Vec::new();
    for (i, (a, wa, ra)) in ranges.iter().enumerate() {
        for (b, wb, rb) in &ranges[i + 1..] {
            if !wa && !wb {
                continue;
            }
            // A's range ends before B's starts: 8 (endA - startB) <= B - A,
            // i.e. endA - startB <= floor((B - A) / 8), all in elements.
            let before = |x: &Range, xn: &str, y: &Range, yn: &str| -> Result<Cond> {
                let d = Term::sum(vec![
                    (false, Term::Base(yn.to_string())),
                    (true, Term::Base(xn.to_string())),
                ]);
                let q = Term::FloorDiv(Box::new(d), ELEMENT);
                if x.end.bound + y.start.bound > SIGNED_128 {
                    return Err(Error::CheckOverflow("an address range".into()));
                }
                let diff = Term::sum(vec![
                    (false, x.end.term.clone()),
                    (true, y.start.term.clone()),
                ]);
                Ok(Cond::le(diff, q))
            };
            let compare = Cond::or(vec![before(ra, a, rb, b)?, before(rb, b, ra, a)?]);
            let guards: Vec<Cond> = if guard {
                scop.optimistic
                    .param_types
                    .iter()
                    .filter(|(n, t)| t.bits() > 32 && compare.mentions(n))
                    .map(|(n, _)| {
                        let p = || Term::Param(n.clone());
                        Cond::and(vec![
                            Cond::ge(p(), Term::Lit(-2147483648)),
                            Cond::le(p(), Term::Lit(2147483647)),
                        ])
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let compare = Cond::and(guards.into_iter().chain([compare]).collect());
            out.push(AliasPair {
                a: a.clone(),
                b: b.clone(),
                check: Cond::or(vec![
                    Cond::not(ra.accessed.clone()),
                    Cond::not(rb.accessed.clone()),
                    compare,
                ]),
            });
        }
    }
    Ok(Some(out))
}

fn range(m: &mut Memo, ap: &ArrayParam, params: &Params, boxes: bool) -> Result<Option<Range>> {
    let Some((cells, _)) = &m.cells else {
        return Ok(None);
    };
    let accessed = match &m.accessed {
        Some(a) => a,
        None => m.accessed.insert(cells.params().coalesce()?),
    };
    let Some(accessed) = crate::cexpr::set_condition(accessed, params)? else {
        return Ok(None);
    };
    let mut ends = Vec::new();
    for (k, (max, extra)) in [(false, 0), (true, 1)].into_iter().enumerate() {
        let value = |ma: &MultiAff| {
            Ok(offset(ma, &ap.inner, params)?.map(|off| CInt {
                term: if extra == 0 {
                    off.term
                } else {
                    Term::sum(vec![(false, off.term), (false, Term::Lit(extra))])
                },
                bound: off.bound + extra as f64,
            }))
        };
        let extreme = match &m.ends[k] {
            Some(e) => e,
            None => m.ends[k].insert(extreme(cells, max, boxes)?),
        };
        let end = match &*extreme {
            Extreme::Point(ma) => value(ma)?,
            Extreme::Pieces(pw) => crate::cexpr::piecewise(pw, params, value)?,
        };
        let Some(end) = end else {
            return Ok(None);
        };
        ends.push(end);
    }
    let zero = || CInt {
        term: Term::Lit(0),
        bound: 0.0,
    };
    let end = ends.pop().unwrap_or_else(zero);
    let start = ends.pop().unwrap_or_else(zero);
    Ok(Some(Range {
        accessed,
        start,
        end,
    }))
}

/// The extreme as one point where the cells are a union of boxes
/// ([`crate::extremes`]) or a guessed point is verified
/// ([`crate::guessed`]), what `piecewise` makes of a single piece; else
/// the parametric lexmin or lexmax (always with `boxes` false). The point
/// may be anything where nothing is accessed (never evaluated: `accessed`
/// is tested first).
fn extreme(cells: &Set, max: bool, boxes: bool) -> Result<Extreme> {
    if boxes {
        if let Some(p) = crate::extremes::box_extreme(cells, max)? {
            return Ok(Extreme::Point(p));
        }
        if let Some(p) = crate::guessed::guessed_extreme(cells, max)? {
            return Ok(Extreme::Point(p));
        }
    }
    Ok(Extreme::Pieces(if max {
        cells.lexmax_pw_multi_aff()?
    } else {
        cells.lexmin_pw_multi_aff()?
    }))
}

/// The linear offset `((i0 · e1 + i1) · e2 + i2) ...` of a cell.
fn offset(ma: &MultiAff, inner: &[Affine], params: &Params) -> Result<Option<CInt>> {
    let mut acc: Option<CInt> = None;
    for (d, aff) in ma.affs().iter().enumerate() {
        let Some(v) = aff_value(aff, params)? else {
            return Ok(None);
        };
        acc = Some(match acc {
            None => v,
            Some(a) if a.term == Term::Lit(0) => v,
            Some(a) => {
                let Some(e) = extent(&inner[d - 1], params) else {
                    return Ok(None);
                };
                let bound = a.bound * e.bound + v.bound;
                if bound > SIGNED_128 {
                    return Err(Error::CheckOverflow("an address range".into()));
                }
                CInt {
                    term: Term::sum(vec![
                        (false, Term::Mul(Box::new(a.term), Box::new(e.term))),
                        (false, v.term),
                    ]),
                    bound,
                }
            }
        });
    }
    Ok(acc.or(Some(CInt {
        term: Term::Lit(0),
        bound: 0.0,
    })))
}

fn extent(e: &Affine, params: &Params) -> Option<CInt> {
    if e.constant == i64::MIN {
        return None;
    }
    let mut parts = Vec::new();
    let mut bound = (e.constant as f64).abs();
    for (v, c) in &e.terms {
        let AVar::Name(n) = v else { return None };
        if *c == i64::MIN {
            return None;
        }
        let ty = params
            .types
            .get(n)
            .copied()
            .unwrap_or(scop::ast::IntTy::Long);
        let p = CInt::param(n, ty);
        bound += p.bound * (*c as f64).abs();
        parts.push((*c < 0, Term::scale(c.abs(), p.term)));
    }
    if e.constant != 0 || parts.is_empty() {
        parts.push((e.constant < 0, Term::Lit(e.constant.abs())));
    }
    Some(CInt {
        term: Term::sum(parts),
        bound,
    })
}
