//! Lexicographic optima of maps (the map layer above [`pip`](crate::pip)):
//! each disjunct is solved by the parametric search, then the pieces of
//! different disjuncts are merged.
//!
//! Lexmin of a union: each disjunct is solved, then every piece is kept only
//! where no piece of another disjunct is strictly better. Comparisons that
//! the value rows settle alone (no divisions, a constant difference) add no
//! constraint; a piece better wherever both are defined is removed from the
//! other's context in the domain space; contexts with divisions that share
//! no point are never compared.

use crate::basic::{BasicMap, Div};
use crate::error::{DimKind, DimRef, Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::matrix::normalize;
use crate::pip::{solve_view, View};
use crate::rows::Rows;
use crate::space::{Space, Tuple};
use crate::syntactic::contains_by_definitions;
use crate::tidy::same_rows;
use crate::trace::traced;
use std::cmp::Ordering;

mod dominance;
mod points;
mod separated;
#[cfg(test)]
mod tests;

pub use points::lexopt_point;
pub(crate) use points::lexopt_points;

/// The parametric problem of a basic map, solved: parameters are the first
/// `n_par` variables `[params | in | ...]`, unknowns the rest (including all
/// locals, in order). With `max`, unknowns are negated (lexmax: a copy of
/// the rows); without, the basic map's rows are the problem's as they are
/// (borrowed). Errors name `space`'s dimensions (see [`solve_named`]).
fn solve_of(
    b: &BasicMap,
    n_par: usize,
    max: bool,
    space: &Space,
) -> Result<Vec<crate::pip::Piece>> {
    let negate = |rows: &Rows| -> Rows {
        let mut out = rows.clone();
        for r in out.iter_mut() {
            for v in r[1 + n_par..].iter_mut() {
                *v = -&*v;
            }
        }
        out
    };
    let negated;
    let (eqs, ineqs): (&Rows, &Rows) = if max {
        negated = (negate(&b.eqs), negate(&b.ineqs));
        (&negated.0, &negated.1)
    } else {
        (&b.eqs, &b.ineqs)
    };
    let np_space = b.space.n_param();
    let ctx_space = Space::set(b.space.params.clone(), Tuple::anonymous(n_par - np_space));
    let ctx = BasicMap::universe(ctx_space);
    let view = View {
        n_par,
        n_unk: b.row_len() - 1 - n_par,
        eqs,
        ineqs,
        ctx: &ctx,
    };
    solve_named(view, space, max)
}

/// Output (or set) dimension `k` of a space, or its `k - n_out`-th local,
/// as an error names it.
fn out_dim(space: &Space, k: usize) -> DimRef {
    let no = space.n_out();
    if k >= no {
        return DimRef::new(DimKind::Local, k - no, "");
    }
    let kind = if space.is_set() {
        DimKind::Set
    } else {
        DimKind::Out
    };
    DimRef::new(kind, k, &space.range.dim_names()[k])
}

/// [`solve`] for an optimum of `space`'s outputs: an unbounded unknown is
/// named as the output dimension (or local) it stands for, and for `max`
/// (unknowns negated) the missing bound is the upper one.
fn solve_named(prob: View<'_>, space: &Space, max: bool) -> Result<Vec<crate::pip::Piece>> {
    solve_view(prob).map_err(|e| match e {
        Error::Unbounded {
            dim:
                DimRef {
                    kind: DimKind::Unknown,
                    pos,
                    ..
                },
            upper,
        } => Error::Unbounded {
            dim: out_dim(space, pos),
            upper: upper != max,
        },
        e => e,
    })
}

/// The optimum of a basic map of `space` without parameters or inputs by
/// the parametric search (one piece of constants), `None` if it is empty.
fn point_by_pip(b: &BasicMap, max: bool, space: &Space) -> Result<Option<Vec<Int>>> {
    let no = space.n_out();
    let Some(p) = solve_of(b, 0, max, space)?.into_iter().next() else {
        return Ok(None);
    };
    if p.values[..no]
        .iter()
        .any(|(row, _)| row[1..].iter().any(|v| !v.is_zero()))
    {
        return lexopt_point(b, max); // not expected: divisions of constants
    }
    Ok(Some(
        p.values[..no]
            .iter()
            .map(|(row, den)| {
                let v = row[0].div_exact(den);
                if max {
                    -v
                } else {
                    v
                }
            })
            .collect(),
    ))
}

/// Lexicographic optimum of a map (per domain point) or set (per parameter value).
///
/// The parametric search optimises the locals too, after the output
/// dimensions; an existential without a lexicographic optimum (unbounded
/// below, such as the stride `exists e, f : i + j = 2e + 4f + 1`, where
/// only `e + 2f` is fixed) makes it fail although the optimum of the
/// dimensions exists. Then every disjunct is first given definitions of its
/// locals ([`BasicMap::make_divs_explicit`], which solves in an integer
/// basis where every minimum exists: any witness will do), and the optimum
/// is that of the union of those disjuncts (the same set).
pub fn lexopt_map(m: &Map, max: bool) -> Result<Map> {
    match lexopt_map_as_given(m, max) {
        Err(Error::Unbounded { dim, .. }) if dim.kind == DimKind::Local => {
            let mut parts = Vec::with_capacity(m.parts.len());
            for b in &m.parts {
                parts.extend(b.make_divs_explicit()?);
            }
            lexopt_map_as_given(&Map::new(m.space.clone(), parts), max)
        }
        r => r,
    }
}

/// [`lexopt_map`] of the disjuncts as they are (an error for an
/// existential without an optimum).
fn lexopt_map_as_given(m: &Map, max: bool) -> Result<Map> {
    if m.parts.is_empty() {
        // the optimum of nothing is nothing: the input itself (shared, no
        // allocation; a map's value is its space and disjuncts)
        return Ok(m.clone());
    }
    let np = m.space.n_param() + m.space.n_in();
    let no = m.space.n_out();
    if np == 0 {
        return lexopt_points(m, max, |b| point_by_pip(b, max, &m.space));
    }
    let mut pieces: Vec<(BasicMap, Vec<(Vec<Int>, Int)>)> = Vec::new();
    let mut samples: Vec<Option<Vec<Int>>> = Vec::new();
    // the disjunct each piece comes from: pieces of one disjunct have
    // disjoint contexts, so they never need comparing
    let mut origin: Vec<usize> = Vec::new();
    // the disjuncts solved so far, simplified: a disjunct with the same rows
    // as one of them has the same optimum (the read and the write of one
    // cell give the same disjunct twice)
    let mut solved: Vec<BasicMap> = Vec::new();
    // the simplified disjunct of each index solved (for the dominance test)
    let mut solved_of: Vec<(usize, BasicMap)> = Vec::new();
    for (k, orig) in m.parts.iter().enumerate() {
        if orig.known_empty() {
            continue;
        }
        // (the simplified copy kept from an earlier optimum of these rows)
        let Some(b) = crate::memo::simplified(orig) else {
            orig.remember_empty();
            continue;
        };
        // a rationally empty disjunct is dropped by one LP (much cheaper than
        // letting the parametric search discover it on every context branch)
        if b.is_rationally_empty()? {
            orig.remember_empty();
            continue;
        }
        if solved.iter().any(|s| same_rows(s, &b)) {
            continue;
        }
        solved.push(b.clone());
        solved_of.push((k, b.clone()));
        let found = solve_of(&b, np, max, &m.space)?;
        if found.is_empty() {
            // no parameter value has a point: the disjunct is empty
            orig.remember_empty();
        }
        for p in found {
            let mut vals = p.values;
            vals.truncate(no);
            if max {
                for (row, _) in vals.iter_mut() {
                    row.iter_mut().for_each(|v| *v = -&*v);
                }
            }
            pieces.push((p.ctx, vals));
            samples.push(p.sample);
            origin.push(k);
        }
    }
    // a disjunct whose every point another disjunct's optimum matches or
    // beats adds nothing: its pieces are dropped before the comparisons
    if solved_of.len() > 1 && pieces.len() > 1 {
        let dropped = dominance::dominated(&m.space, np, max, &solved_of, &pieces, &origin)?;
        if !dropped.is_empty() {
            let keep: Vec<bool> = origin.iter().map(|o| !dropped.contains(o)).collect();
            let mut it = keep.iter();
            pieces.retain(|_| *it.next().unwrap_or(&true));
            let mut it = keep.iter();
            samples.retain(|_| *it.next().unwrap_or(&true));
            origin.retain(|o| !dropped.contains(o));
        }
    }
    let single_origin = origin.windows(2).all(|w| w[0] == w[1]);
    if m.parts.len() <= 1 || pieces.len() <= 1 || single_origin {
        let parts = pieces
            .iter()
            .map(|(ctx, vals)| piece_to_basic(&m.space, ctx, vals))
            .collect();
        return Ok(Map::new(m.space.clone(), parts));
    }
    // pieces of one disjunct split on a row their values do not depend on
    // are one piece (fewer comparisons below)
    let mut fused: Vec<Candidate> = Vec::new();
    let mut fused_origin: Vec<usize> = Vec::new();
    let mut all = pieces.into_iter().zip(samples).zip(origin).peekable();
    while let Some(((piece, sample), o)) = all.next() {
        let mut group = vec![(piece.0, piece.1, sample)];
        while let Some(((piece, sample), _)) = all.next_if(|x| x.1 == o) {
            group.push((piece.0, piece.1, sample));
        }
        let group = fuse_complementary(group);
        fused_origin.extend(std::iter::repeat(o).take(group.len()));
        fused.extend(group);
    }
    let origin = fused_origin;
    let mut pieces = Vec::with_capacity(fused.len());
    let mut samples = Vec::with_capacity(fused.len());
    for (ctx, vals, sample) in fused {
        pieces.push((ctx, vals));
        samples.push(sample);
    }
    // several disjuncts: keep, for every candidate, the points where no other
    // candidate is strictly better (candidates are functions of the domain,
    // so "better" is a condition on the domain with explicit divisions only)
    let np = m.space.n_param() + m.space.n_in();
    let mut out = Map::empty(m.space.clone());
    // whether two pieces' contexts share a point (symmetric, tested at most
    // once per pair, in the small space of the domain)
    let n = pieces.len();
    let mut meet: Vec<Option<bool>> = vec![None; n * n];
    let mut contexts_meet = |a: usize, b: usize| -> Result<bool> {
        let k = a.min(b) * n + a.max(b);
        if let Some(v) = meet[k] {
            return Ok(v);
        }
        // a known point of one context that lies in the other settles it
        let shared = |x: usize, y: usize| {
            samples[x]
                .as_ref()
                .is_some_and(|p| contains_by_definitions(&pieces[y].0, p) == Some(true))
        };
        let v = shared(a, b)
            || shared(b, a)
            || !opposite_bounds(&pieces[a].0, &pieces[b].0)
                && !pieces[a].0.intersect(&pieces[b].0)?.is_empty()?;
        meet[k] = Some(v);
        Ok(v)
    };
    // per pair of disjuncts (`x`, `y`): `Some(true)` when every point of
    // `y` is better than every point of `x` (with the same parameters and
    // inputs), `Some(false)` when none is, as the bounds of their first
    // output show; `None` when they do not
    let rows_of = |k: usize| solved_of.iter().find(|(j, _)| *j == k).map(|(_, b)| b);
    let mut separated_memo: Vec<((usize, usize), Option<bool>)> = Vec::new();
    let mut separation = |x: usize, y: usize| -> Option<bool> {
        if let Some((_, v)) = separated_memo.iter().find(|(k, _)| *k == (x, y)) {
            return *v;
        }
        let v = match (rows_of(x), rows_of(y)) {
            (Some(bx), Some(by)) if separated::below(bx, by, np) => Some(max),
            (Some(bx), Some(by)) if separated::below(by, bx, np) => Some(!max),
            _ => None,
        };
        separated_memo.push(((x, y), v));
        v
    };
    for (a, (ctx_a, vals_a)) in pieces.iter().enumerate() {
        let base = piece_to_basic(&m.space, ctx_a, vals_a);
        // where b is better wherever both are defined, a keeps the points of
        // its context outside b's: that difference is taken in the domain
        // space (`dom`), the conditional ones on the graph (`worse_list`)
        let mut dom = Map::from_basic(ctx_a.clone());
        let mut dominating: Vec<usize> = Vec::new();
        let mut worse_list: Vec<Map> = Vec::new();
        for (b, (ctx_b, vals_b)) in pieces.iter().enumerate() {
            if origin[a] == origin[b] {
                continue;
            }
            // b is better than a at `level` if it is equal at the levels
            // before and strictly better there; levels whose comparison the
            // rows decide alone need no constraint (equal), end the list
            // (b never better from here on) or end it with an unconditional
            // disjunct (b better wherever the earlier levels are equal)
            let mut plan: Vec<(usize, Option<usize>)> = Vec::new();
            let mut eq_levels = Vec::new();
            let mut everywhere = false;
            // disjuncts separated on the first output: the higher one's
            // points are all better (lexmax) or all worse (lexmin)
            match separation(origin[a], origin[b]) {
                Some(true) => everywhere = true,
                Some(false) => continue,
                None => {}
            }
            for level in 0..vals_a.len() {
                if everywhere {
                    break;
                }
                match const_cmp(&vals_a[level], &vals_b[level], np) {
                    Some(Ordering::Equal) => continue,
                    Some(o) => {
                        if (o == Ordering::Greater) == max {
                            if eq_levels.is_empty() {
                                everywhere = true;
                            } else {
                                plan.push((eq_levels.len(), None));
                            }
                        }
                        break;
                    }
                    None => {
                        plan.push((eq_levels.len(), Some(level)));
                        eq_levels.push(level);
                    }
                }
            }
            // (the test pays when divisions are involved: the subtraction
            // below would build and simplify them before finding out; the
            // sets are built only for contexts that meet)
            let with_divs = ctx_a.n_div() + ctx_b.n_div() > 0;
            if !everywhere && plan.is_empty() || with_divs && !contexts_meet(a, b)? {
                continue;
            }
            if everywhere {
                dom = dom.subtract(&Map::from_basic(ctx_b.clone()))?;
                dominating.push(b);
                if dom.parts.is_empty() {
                    break;
                }
            } else {
                let parts = plan
                    .iter()
                    .map(|&(n_eq, strict)| {
                        better_at_level(&base, np, ctx_b, vals_b, &eq_levels[..n_eq], strict, max)
                    })
                    .collect();
                worse_list.push(Map::new(m.space.clone(), parts));
            }
        }
        // the graph of a over what is left of its domain: each part of
        // `dom` is attached like a context (all its locals are divisions
        // after a subtraction; otherwise subtract on the graph instead)
        let mut cur = if dominating.is_empty() {
            Map::from_basic(base)
        } else if dom.parts.iter().all(|d| d.divs.iter().all(Option::is_some)) {
            Map::new(
                m.space.clone(),
                dom.parts
                    .iter()
                    .map(|d| better_at_level(&base, np, d, &[], &[], None, max))
                    .collect(),
            )
        } else {
            worse_list.extend(dominating.iter().map(|&b| {
                Map::new(
                    m.space.clone(),
                    vec![better_at_level(
                        &base,
                        np,
                        &pieces[b].0,
                        &[],
                        &[],
                        None,
                        max,
                    )],
                )
            }));
            Map::from_basic(base)
        };
        for worse in &worse_list {
            if cur.parts.is_empty() {
                break;
            }
            cur = cur.subtract(worse)?;
        }
        out.parts.extend(cur.into_parts());
    }
    Ok(out)
}

/// The pieces of one search with every two that have the same values,
/// divisions and equalities, and inequalities that differ in one row `r >= 0`
/// of one against its complement `-r - 1 >= 0` of the other, made one piece
/// without that row (their union, exactly: the contexts split on the row's
/// sign only, e.g. the parity of a parameter where the value does not
/// depend on it). Fewer pieces to compare in the merge of several
/// disjuncts' optima.
type Candidate = (BasicMap, Vec<(Vec<Int>, Int)>, Option<Vec<Int>>);

fn fuse_complementary(mut pieces: Vec<Candidate>) -> Vec<Candidate> {
    let complement = |r: &[Int]| -> Vec<Int> {
        let mut c: Vec<Int> = r.iter().map(|v| -v).collect();
        c[0] = &c[0] - &Int::ONE;
        c
    };
    // the one row of `x` not in `y` (by value), if exactly one
    let only_row = |x: &BasicMap, y: &BasicMap| -> Option<usize> {
        let mut found = None;
        for (k, r) in x.ineqs.iter().enumerate() {
            if !y.ineqs.iter().any(|s| s == r) {
                if found.is_some() {
                    return None;
                }
                found = Some(k);
            }
        }
        found
    };
    let mut i = 0;
    while i < pieces.len() {
        let mut fused = false;
        for j in i + 1..pieces.len() {
            let (x, y) = (&pieces[i], &pieces[j]);
            if x.1 != y.1
                || x.0.divs != y.0.divs
                || x.0.ineqs.len() != y.0.ineqs.len()
                || x.0.eqs.len() != y.0.eqs.len()
                || !x.0.eqs.iter().all(|e| y.0.eqs.iter().any(|f| f == e))
            {
                continue;
            }
            let (Some(rx), Some(ry)) = (only_row(&x.0, &y.0), only_row(&y.0, &x.0)) else {
                continue;
            };
            if complement(&x.0.ineqs[rx]) != y.0.ineqs[ry] {
                continue;
            }
            let mut ctx = x.0.clone();
            ctx.ineqs.remove(rx);
            ctx.hint = Default::default();
            pieces[i].0 = ctx;
            pieces.remove(j);
            fused = true;
            break;
        }
        // a fused piece may fuse again (with the piece of another split)
        if !fused {
            i += 1;
        }
    }
    pieces
}

/// Whether two contexts (over the same dimensions, each with its own
/// divisions) have constraints free of divisions that no rational point
/// satisfies together: `r >= 0` and `s >= 0` with `r + c·s` a negative
/// constant for some `c > 0` (equalities give both signs). `false` when
/// no such pair is found (a cheap test before the exact one).
fn opposite_bounds(a: &BasicMap, b: &BasicMap) -> bool {
    let off = a.off_div();
    if b.off_div() != off {
        return false;
    }
    // the rows of one context free of its divisions, with their signs
    let rows = |m: &BasicMap| -> Vec<(Vec<Int>, bool)> {
        let free =
            |r: &[Int]| r[off..].iter().all(Int::is_zero) && r[1..off].iter().any(|v| !v.is_zero());
        let mut out: Vec<(Vec<Int>, bool)> = Vec::new();
        for e in m.eqs.iter().filter(|r| free(r)) {
            out.push((e[..off].to_vec(), false));
            out.push((e[..off].to_vec(), true));
        }
        out.extend(
            m.ineqs
                .iter()
                .filter(|r| free(r))
                .map(|r| (r[..off].to_vec(), false)),
        );
        out
    };
    let (ra, rb) = (rows(a), rows(b));
    let get = |r: &(Vec<Int>, bool), k: usize| -> Int {
        if r.1 {
            -&r.0[k]
        } else {
            r.0[k].clone()
        }
    };
    for r in &ra {
        let Some(k) = (1..off).find(|&k| !r.0[k].is_zero()) else {
            continue;
        };
        let rk = get(r, k);
        for s in &rb {
            let sk = get(s, k);
            // opposite signs at k: r·|sk| + s·|rk| cancels column k
            if sk.is_zero() || (sk > Int::ZERO) == (rk > Int::ZERO) {
                continue;
            }
            let (ca, cb) = (sk.abs(), rk.abs());
            if (1..off).all(|j| &get(r, j) * &ca + &get(s, j) * &cb == Int::ZERO)
                && &get(r, 0) * &ca + &get(s, 0) * &cb < Int::ZERO
            {
                return true;
            }
        }
    }
    false
}

/// The comparison of two values `row / den` over `[1 | params | divs]` when it
/// is the same at every point: both free of divisions and differing by a
/// constant. `Some(b.cmp(a))`, or `None` when it depends on the point.
fn const_cmp(a: &(Vec<Int>, Int), b: &(Vec<Int>, Int), np: usize) -> Option<Ordering> {
    let ((ra, da), (rb, db)) = (a, b);
    if ra[1 + np..]
        .iter()
        .chain(&rb[1 + np..])
        .any(|v| !v.is_zero())
    {
        return None;
    }
    // rb/db - ra/da has the sign of da·rb - db·ra (positive denominators)
    if (1..1 + np).any(|k| &ra[k] * db != &rb[k] * da) {
        return None;
    }
    Some((&rb[0] * da).cmp(&(&ra[0] * db)))
}

/// `{ (x, y) in base : x in ctx_b, y_l = vals_b(x)_l for l in eq_levels, and
/// vals_b(x) strictly better than y at `strict` }` (no strict condition when
/// `strict` is `None`).
fn better_at_level(
    base: &BasicMap,
    np: usize,
    ctx_b: &BasicMap,
    vals_b: &[(Vec<Int>, Int)],
    eq_levels: &[usize],
    strict: Option<usize>,
    max: bool,
) -> BasicMap {
    let (mut b, qcols) = with_context(base, np, ctx_b);
    for &l in eq_levels.iter().chain(&strict) {
        let row = level_row(&b, np, &qcols, &vals_b[l], l, Some(l) == strict, max);
        if Some(l) != strict {
            b.eqs.push(row);
        } else {
            b.ineqs.push(row);
        }
    }
    b
}

/// `{ (x, y) in base : x in ctx_b }` with `ctx_b`'s divisions appended as
/// locals, and the columns of those divisions (where a value row's
/// division columns go, see [`level_row`]).
fn with_context(base: &BasicMap, np: usize, ctx_b: &BasicMap) -> (BasicMap, Vec<usize>) {
    // append ctx_b's divisions (in order), mapping [1 | x | q_b] into b's
    // layout: the rows are widened once to their final length (not once per
    // division, which reallocated every row)
    let nd = ctx_b.n_div();
    let mut b = base.clone();
    let (base_len, n_local) = (b.row_len(), b.divs.len());
    if nd > 0 {
        let len = base_len + nd;
        let widen = |r: &[Int]| -> Vec<Int> {
            let mut out = Vec::with_capacity(len);
            out.extend_from_slice(r);
            out.resize(len, Int::ZERO);
            out
        };
        b.eqs.insert_columns(base_len, nd);
        b.ineqs.insert_columns(base_len, nd);
        for d in b.divs.iter_mut().flatten() {
            d.num = widen(&d.num);
        }
        b.divs.resize(n_local + nd, None);
    }
    let mut qcols: Vec<usize> = Vec::new();
    // a context row over b's columns, into a row of zeros
    let map_into = |out: &mut [Int], r: &[Int], qcols: &[usize]| {
        for (k, v) in r.iter().enumerate() {
            if !v.is_zero() {
                let t = if k < 1 + np { k } else { qcols[k - 1 - np] };
                out[t] = &out[t] + v;
            }
        }
    };
    let map_row = |r: &[Int], qcols: &[usize], len: usize| -> Vec<Int> {
        let mut out = vec![Int::ZERO; len];
        map_into(&mut out, r, qcols);
        out
    };
    for (k, d) in ctx_b.divs.iter().enumerate() {
        let d = d.as_ref().expect("context divisions are defined");
        let num = map_row(&d.num[..1 + np + qcols.len()], &qcols, b.row_len());
        let col = base_len + k;
        let def = Div {
            num,
            den: d.den.clone(),
        };
        b.ineqs.extend(def.bounds(col));
        b.divs[n_local + k] = Some(def);
        qcols.push(col);
    }
    let len = b.row_len();
    let map_onto = |rows: &Rows, out: &mut Rows| {
        let mut w = out.writer();
        for e in rows {
            w.push_with(len, |out| map_into(out, e, &qcols));
        }
    };
    map_onto(&ctx_b.eqs, &mut b.eqs);
    map_onto(&ctx_b.ineqs, &mut b.ineqs);
    (b, qcols)
}

/// The row of [`better_at_level`]'s condition at level `l` on `b` (a basic
/// map of [`with_context`] with division columns `qcols`): with `strict`
/// the inequality "the value `(row, den)` strictly better than `y_l`",
/// else the equality `y_l = row / den`.
fn level_row(
    b: &BasicMap,
    np: usize,
    qcols: &[usize],
    (row, den): &(Vec<Int>, Int),
    l: usize,
    strict: bool,
    max: bool,
) -> Vec<Int> {
    // f = row(x, q_b); y'_l = f / den; diff = den·y_l - f
    let mut diff = vec![Int::ZERO; b.row_len()];
    for (k, v) in row.iter().enumerate() {
        if v.is_zero() {
            continue;
        }
        let t = if k < 1 + np { k } else { qcols[k - 1 - np] };
        diff[t] = &diff[t] - v;
    }
    let off_y = 1 + np;
    diff[off_y + l] = &diff[off_y + l] + den;
    if strict {
        // lexmin: y'_l <= y_l - 1  <=>  den·y_l - f - den >= 0
        // lexmax: y'_l >= y_l + 1  <=>  f - den·y_l - den >= 0
        if max {
            diff.iter_mut().for_each(|v| *v = -&*v);
        }
        diff[0] = &diff[0] - den;
    }
    diff
}

/// The basic map `{ x -> y : x in ctx, y = values(x) }` in `space`.
fn piece_to_basic(space: &Space, ctx: &BasicMap, vals: &[(Vec<Int>, Int)]) -> BasicMap {
    // ctx rows: [1 | params | in | ctx divs]; target: [1 | params | in | out | divs]
    let np = space.n_param() + space.n_in();
    let no = space.n_out();
    let nd = ctx.n_div();
    let mut b = BasicMap::universe(space.clone());
    b.insert_cols(b.row_len(), nd);
    b.divs = vec![None; nd].into();
    let map_row = |r: &[Int]| -> Vec<Int> {
        let mut out = vec![Int::ZERO; 1 + np + no + nd];
        for (k, v) in r.iter().enumerate() {
            let t = if k < 1 + np { k } else { k + no };
            out[t] = v.clone();
        }
        out
    };
    for (k, d) in ctx.divs.iter().enumerate() {
        b.divs[k] = d.as_ref().map(|d| Div {
            num: map_row(&d.num),
            den: d.den.clone(),
        });
    }
    b.eqs = ctx.eqs.iter().map(|r| map_row(r)).collect();
    b.ineqs = ctx.ineqs.iter().map(|r| map_row(r)).collect();
    for (i, (row, den)) in vals.iter().enumerate() {
        // den·y_i - row = 0
        let mut r: Vec<Int> = map_row(row).iter().map(|v| -v).collect();
        r[1 + np + i] = den.clone();
        normalize(&mut r);
        b.eqs.push(r);
    }
    b
}

impl Map {
    /// Lexicographic minimum: for a set, the set of its lexicographically
    /// smallest point for each parameter value; for a relation, the smallest
    /// image of every domain point.
    pub fn lexmin(&self) -> Result<Map> {
        traced!(
            crate::trace::lexopt_name(self.is_set(), "lexmin"),
            [self],
            { crate::lexopt::lexopt_map(self, false) }
        )
    }

    /// Lexicographic maximum (see [`lexmin`](Self::lexmin)).
    pub fn lexmax(&self) -> Result<Map> {
        traced!(
            crate::trace::lexopt_name(self.is_set(), "lexmax"),
            [self],
            { crate::lexopt::lexopt_map(self, true) }
        )
    }
}
