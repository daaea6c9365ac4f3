//! Alias checks between array parameters that may overlap: each accessed
//! range `[lowest, highest]` cell (the parametric lexmin and lexmax of the
//! accessed cells, in row-major order, which is address order when the
//! inner subscripts are in bounds, i.e. under the assumptions) must end
//! before the other begins.

use presburger::{MultiAff, Set};
use scop::affine::{AVar, Affine};
use scop::assume::ArrayParam;
use scop::Scop;

use crate::cexpr::{aff_value, CInt, Params};
use crate::error::{Error, Result};

/// One pair of arrays that needs a run-time comparison.
#[derive(Debug, Clone)]
pub struct AliasPair {
    /// The first array.
    pub a: String,
    /// The second array.
    pub b: String,
    /// The C condition: the accessed ranges do not overlap.
    pub check: String,
}

/// `sizeof(double)`.
const ELEMENT: i64 = 8;

struct Range {
    accessed: String,
    start: String,
    end: String,
}

/// The pairs of non-`restrict` array parameters, at least one of them
/// written, and their no-overlap conditions. `None` inside when a literal
/// does not fit 64 bits.
pub fn alias_pairs(scop: &Scop, params: &Params) -> Result<Option<Vec<AliasPair>>> {
    let mut ranges = Vec::new();
    for ap in scop.optimistic.array_params.iter().filter(|a| !a.restrict) {
        let Some((cells, written)) = scop::assume::accessed_cells(scop, &ap.name)? else { continue };
        let Some(r) = range(&cells, ap, params)? else { return Ok(None) };
        ranges.push((ap.name.clone(), written, r));
    }
    let mut out = Vec::new();
    for (i, (a, wa, ra)) in ranges.iter().enumerate() {
        for (b, wb, rb) in &ranges[i + 1..] {
            if !wa && !wb {
                continue;
            }
            out.push(AliasPair {
                a: a.clone(),
                b: b.clone(),
                check: format!(
                    "!({}) || !({}) || {} <= {} || {} <= {}",
                    ra.accessed, rb.accessed, ra.end, rb.start, rb.end, ra.start
                ),
            });
        }
    }
    Ok(Some(out))
}

fn range(cells: &Set, ap: &ArrayParam, params: &Params) -> Result<Option<Range>> {
    let accessed = match crate::cexpr::set_condition(&cells.params(), params)? {
        Some(t) => t,
        None => return Ok(None),
    };
    let lo = cells.lexmin_pw_multi_aff()?;
    let hi = cells.lexmax_pw_multi_aff()?;
    let base = format!("(__int128)(uintptr_t){}", ap.name);
    let mut ends = Vec::new();
    for (pw, extra) in [(lo, 0), (hi, ELEMENT)] {
        // nested conditionals over the pieces; 0 where nothing is accessed
        // (never evaluated: `accessed` is tested first)
        let mut text = "0".to_string();
        for (dom, ma) in pw.pieces().iter().rev() {
            let Some(c) = crate::cexpr::set_condition(dom, params)? else { return Ok(None) };
            let Some(off) = offset(ma, &ap.inner, params)? else { return Ok(None) };
            text = format!("(({c}) ? {base} + {ELEMENT} * {} + {extra} : {text})", off.text);
        }
        ends.push(text);
    }
    let end = ends.pop().unwrap_or_default();
    let start = ends.pop().unwrap_or_default();
    Ok(Some(Range { accessed, start, end }))
}

/// The linear offset `((i0 · e1 + i1) · e2 + i2) ...` of a cell.
fn offset(ma: &MultiAff, inner: &[Affine], params: &Params) -> Result<Option<CInt>> {
    let mut acc: Option<CInt> = None;
    for (d, aff) in ma.affs().iter().enumerate() {
        let Some(v) = aff_value(aff, params)? else { return Ok(None) };
        acc = Some(match acc {
            None => v,
            Some(a) => {
                let Some(e) = extent(&inner[d - 1], params) else { return Ok(None) };
                let bound = a.bound * e.bound + v.bound;
                if bound > 1e37 {
                    return Err(Error::CheckOverflow("an address range".into()));
                }
                CInt {
                    text: format!("({} * {} + {})", a.text, e.text, v.text),
                    bound,
                }
            }
        });
    }
    Ok(acc.or(Some(CInt { text: "0".into(), bound: 0.0 })))
}

fn extent(e: &Affine, params: &Params) -> Option<CInt> {
    let mut parts = Vec::new();
    let mut bound = (e.constant as f64).abs();
    for (v, c) in &e.terms {
        let AVar::Name(n) = v else { return None };
        let ty = params.types.get(n).copied().unwrap_or(scop::ast::IntTy::Long);
        let p = CInt::param(n, ty);
        bound += p.bound * (*c as f64).abs();
        parts.push(format!("{c} * {}", p.text));
    }
    parts.push(e.constant.to_string());
    Some(CInt {
        text: format!("({})", parts.join(" + ")),
        bound,
    })
}
