//! Common divisions for two disjuncts, so that their rows share columns.
//!
//! Adding a division `q = floor(num / den)` (with its two defining rows) to
//! a basic map does not change its set, so each disjunct gets the other's
//! divisions that it lacks (a division equal to one it has, after the
//! columns of earlier divisions are matched, is matched instead), and the
//! second copy's locals are then permuted into the first's order: both
//! have the same division list, and a row over the common columns means
//! the same function of the point on both.

use crate::basic::{BasicMap, Div};
use crate::int::Int;

/// Copies of `a` and `b` (same space) with the same divisions in the same
/// order, or `None` when some local is a plain existential or a numerator
/// refers to a later local.
pub(super) fn common_divs(a: &BasicMap, b: &BasicMap) -> Option<(BasicMap, BasicMap)> {
    if a.space != b.space || a.divs.iter().chain(&b.divs).any(Option::is_none) {
        return None;
    }
    let off = a.off_div();
    let mut a2 = a.clone();
    let mut b2 = b.clone();
    redefine_exact_divs(&mut b2, &a2.divs);
    redefine_exact_divs(&mut a2, &b2.divs);
    let to_b = add_missing(&a2.divs, off, &mut b2)?;
    // b2's locals in a2: a's own through `to_b`, the others added
    let to_a = add_missing(&b2.divs, off, &mut a2)?;
    if a2.n_div() != b2.n_div() || (0..to_b.len()).any(|k| to_a[to_b[k]] != k) {
        return None;
    }
    // permute b2's locals into a2's order
    let len = b2.row_len();
    let map: Vec<usize> = (0..len)
        .map(|c| if c < off { c } else { off + to_a[c - off] })
        .collect();
    b2.remap_cols(&map, len);
    let mut divs: Vec<Option<Div>> = vec![None; b2.n_div()];
    for (j, d) in std::mem::take(&mut b2.divs)
        .into_vec()
        .into_iter()
        .enumerate()
    {
        divs[to_a[j]] = d;
    }
    b2.divs = divs.into();
    (a2.divs == b2.divs).then_some((a2, b2))
}

/// `p` with the divisions of `q` it lacks (each with its defining rows, so
/// the set is unchanged), and the constraints of `q` (`as_ineqs`) over
/// that copy's columns: `q`'s locals mapped onto the equal divisions. At a
/// point `x` of `p`, with the added divisions at their values, these rows
/// hold iff `x ∈ q`. `p` may have plain existentials (they stay free
/// columns); `None` when some local of `q` is one, or a numerator refers
/// to a later local.
pub(super) fn rows_over(p: &BasicMap, q: &BasicMap) -> Option<(BasicMap, Vec<Vec<Int>>)> {
    if p.space != q.space {
        return None;
    }
    let off = q.off_div();
    let mut p2 = p.clone();
    let to = add_missing(&q.divs, off, &mut p2)?;
    let len = p2.row_len();
    let rows = super::as_ineqs(q)
        .into_iter()
        .map(|r| {
            let mut out = vec![Int::ZERO; len];
            out[..off].clone_from_slice(&r[..off]);
            for (j, v) in r[off..].iter().enumerate() {
                out[off + to[j]] = v.clone();
            }
            out
        })
        .collect();
    Some((p2, rows))
}

/// Give a division of `x` that is *exact* on `x` (an equality of `x` says
/// `num = den·q`) the numerator constant of a division of `others` with the
/// same denominator and the same other coefficients, when that constant
/// exceeds its own by less than `den`: at every solution `num + t` with
/// `0 ≤ t < den` has the same floor `q`, so the definition stays consistent
/// (`floor((i - 2)/3)` on `i - 2 = 3q` is `floor(i/3)`), and the two
/// disjuncts then share the division instead of each adding the other's.
fn redefine_exact_divs(x: &mut BasicMap, others: &[Option<Div>]) {
    let off = x.off_div();
    for k in 0..x.n_div() {
        let Some(d) = x.divs[k].as_ref() else {
            continue;
        };
        let col = off + k;
        let exact = x.eqs.iter().any(|e| {
            let s = if e[col] == -&d.den {
                Int::ONE
            } else if e[col] == d.den {
                Int::from(-1)
            } else {
                return false;
            };
            e.iter()
                .zip(&d.num)
                .enumerate()
                .all(|(c, (ev, nv))| c == col || *ev == &s * nv)
        });
        if !exact {
            continue;
        }
        let target = others.iter().flatten().find(|o| {
            o.den == d.den && o.num.len() == d.num.len() && o.num[1..] == d.num[1..] && {
                let t = &o.num[0] - &d.num[0];
                !t.is_neg() && t < d.den
            }
        });
        if let Some(o) = target {
            let c = o.num[0].clone();
            x.divs[k].as_mut().expect("checked").num[0] = c;
        }
    }
}

/// For each division of `divs` (over columns with locals at `off`), in
/// order, the index of the equal division of `target`, added when
/// missing. `None` if a numerator refers to a later local or two
/// divisions land on one local.
fn add_missing(divs: &[Option<Div>], off: usize, target: &mut BasicMap) -> Option<Vec<usize>> {
    let mut to: Vec<usize> = Vec::with_capacity(divs.len());
    for d in divs {
        let d = d.as_ref()?;
        let num = translate(&d.num, off, &to, target.row_len())?;
        let found = target
            .divs
            .iter()
            .position(|e| e.as_ref().is_some_and(|e| e.den == d.den && e.num == num));
        let j = match found {
            Some(j) => j,
            None => target.add_div(num, d.den.clone()) - off,
        };
        if to.contains(&j) {
            return None;
        }
        to.push(j);
    }
    Some(to)
}

/// The numerator `num` over a row of length `len` whose locals (from
/// `off`) are numbered by `to`; `None` if it refers to a local not yet in
/// `to`.
fn translate(num: &[Int], off: usize, to: &[usize], len: usize) -> Option<Vec<Int>> {
    let mut out = vec![Int::ZERO; len];
    out[..off].clone_from_slice(&num[..off]);
    for (j, v) in num[off..].iter().enumerate() {
        if !v.is_zero() {
            out[off + *to.get(j)?] = v.clone();
        }
    }
    Some(out)
}
