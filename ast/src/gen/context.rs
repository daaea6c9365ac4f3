//! Contexts and conditions: the context of a level kept to one basic set
//! with explicit divisions (a superset of the reachable points), and the
//! gist of a condition against it, within a bounded effort.

use crate::error::{Error, Result};
use crate::rows::{find_root, is_div_def, known_locals, known_superset};
use presburger::{BasicMap, Int, Map};

/// Most parts a context may keep; beyond, it is replaced by a convex
/// superset (contexts only need to contain every reachable point).
const MAX_CONTEXT_PARTS: usize = 1;

pub(super) fn widen(m: Map) -> Result<Map> {
    let m = if m.basic_maps().len() <= 1 {
        m
    } else {
        m.coalesce()?
    };
    let m = if m.basic_maps().len() <= MAX_CONTEXT_PARTS {
        m
    } else {
        m.convex_hull()?
    };
    // existentials without a definition would be copied into every set
    // intersected with the context (and then into every projection); the
    // constraints on them are dropped (a superset, as contexts may be)
    let mut out = Map::empty(m.space().clone());
    for b in m.basic_maps() {
        out.add_basic(known_superset(b))?;
    }
    Ok(out)
}

/// Work granted to the inclusion shortcut of [`gist`]: it only pays off
/// when it succeeds, and on the shared inputs every success took under
/// 120k units while failures ran up to the effort (2M units were more
/// than half of `jacobi_kernel4.in`'s time).
const SHORTCUT_EFFORT: u64 = 300_000;

/// `m` inside `ctx` with the constraints implied by `ctx` removed (the
/// engine's gist, then the equalities and constant rows it keeps).
pub(super) fn gist(m: &Map, ctx: &Map) -> Result<Map> {
    // bounded effort: past it, `m` itself is a valid (if redundant) answer
    let r = {
        let _scope = presburger::budget::enter(GIST_EFFORT);
        gist_exact(m, ctx)
    };
    match r {
        Err(Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => Ok(m.clone()),
        r => r,
    }
}

/// Work granted to one [`gist`] (on the shared inputs, a gist that
/// finishes takes at most about 500k units; the one that does not ran
/// to the effort for nothing).
const GIST_EFFORT: u64 = 1_000_000;

fn gist_exact(m: &Map, ctx: &Map) -> Result<Map> {
    // the shortcut `ctx ⊆ m` only within a bounded effort (the subtraction
    // makes m's locals explicit)
    // (first by the rows of m that ctx does not have, when they are few)
    // (only where the engine has no cheap proof: several disjuncts, or
    // divisions, which its linear programming test leaves to the
    // subtraction; a single plain disjunct is shown inside quickly)
    let worth = m.basic_maps().len() > 1 || m.basic_maps().iter().any(|b| b.n_div() > 0);
    let decided = if worth {
        let _scope = presburger::budget::enter(SHORTCUT_EFFORT);
        covered_by_rows(m, ctx)
    } else {
        Ok(None)
    };
    let covered = match decided {
        Ok(Some(c)) => Ok(c),
        Ok(None) => {
            let _scope = presburger::budget::enter(SHORTCUT_EFFORT);
            ctx.is_subset(m)
        }
        Err(Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => {
            let _scope = presburger::budget::enter(SHORTCUT_EFFORT);
            ctx.is_subset(m)
        }
        Err(e) => return Err(e),
    };
    match covered {
        Ok(true) => return Ok(Map::universe(m.space().clone())),
        Ok(false) => {}
        Err(presburger::Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => {}
        Err(e) => return Err(e.into()),
    }
    let g = m.gist(ctx)?;
    let mut out = Map::empty(g.space().clone());
    // (an equality the context has is implied without a test)
    let ctx_rows = |b: &BasicMap| match ctx.basic_maps() {
        [c] => RowsOf::new(b, c),
        _ => None,
    };
    for b in g.basic_maps() {
        let mut keep: Vec<(bool, Vec<Int>)> = Vec::new();
        let rows = ctx_rows(b);
        let implied = |row: &[Int], eq: bool| -> Result<bool> {
            let nonconst = row[1..].iter().any(|v| !v.is_zero());
            if !nonconst {
                return Ok(if eq {
                    row[0].is_zero()
                } else {
                    !row[0].is_neg()
                });
            }
            if eq && rows.as_ref().is_some_and(|c| c.has_eq(row)) {
                return Ok(true);
            }
            // ctx and not(row): row <= -1 (and row >= 1 for an equality)
            let mut neg: Vec<Int> = row.iter().map(|v| -v).collect();
            neg[0] = &neg[0] - &Int::ONE;
            let mut viol = vec![neg];
            if eq {
                let mut pos = row.to_vec();
                pos[0] = &pos[0] - &Int::ONE;
                viol.push(pos);
            }
            for v in viol {
                let t = with_locals(b, &[(false, v)]);
                if !Map::from_basic(t).intersect(ctx)?.is_empty()? {
                    return Ok(false);
                }
            }
            Ok(true)
        };
        for r in b.eqs() {
            if !implied(r, true)? {
                keep.push((true, r.to_vec()));
            }
        }
        for r in b.ineqs() {
            // the engine's gist already dropped the implied inequalities;
            // only constant rows are left to check
            let constant = r[1..].iter().all(|v| v.is_zero());
            if is_div_def(b, r) || !constant || !implied(r, false)? {
                keep.push((false, r.to_vec()));
            }
        }
        let keep = drop_implied_local_groups(b, keep, ctx)?;
        out.add_basic(with_locals(b, &keep))?;
    }
    Ok(out)
}

/// The rows of one basic set `c` (a context) as seen from a basic set
/// `b` of the same variables: b's divisions that `c` has (the same
/// definition on the variables) are read as c's.
struct RowsOf<'a> {
    c: &'a BasicMap,
    base: usize,
    same_div: Vec<Option<usize>>,
}

impl<'a> RowsOf<'a> {
    /// `None` when `b` and `c` differ in their variables.
    fn new(b: &BasicMap, c: &'a BasicMap) -> Option<RowsOf<'a>> {
        let base = b.off_div();
        if base != c.off_div() {
            return None;
        }
        let same_div = b
            .divs()
            .iter()
            .map(|d| {
                let d = d.as_ref()?;
                if d.num[base..].iter().any(|v| !v.is_zero()) {
                    return None;
                }
                c.divs().iter().position(|e| {
                    e.as_ref().is_some_and(|e| {
                        e.den == d.den
                            && e.num[..base] == d.num[..base]
                            && e.num[base..].iter().all(Int::is_zero)
                    })
                })
            })
            .collect();
        Some(RowsOf { c, base, same_div })
    }

    /// A row of `b` in c's columns (`None`: on a division c lacks).
    fn in_c(&self, r: &[Int]) -> Option<Vec<Int>> {
        let mut t = vec![Int::ZERO; self.c.row_len()];
        for (k, v) in r.iter().enumerate() {
            if v.is_zero() {
                continue;
            }
            let col = if k < self.base {
                k
            } else {
                self.base + self.same_div[k - self.base]?
            };
            t[col] = v.clone();
        }
        Some(t)
    }

    /// Whether `c` has the equality `r = 0` of `b` (either way).
    fn has_eq(&self, r: &[Int]) -> bool {
        self.in_c(r).is_some_and(|t| {
            self.c
                .eqs()
                .iter()
                .any(|e| *e == t || e.iter().zip(&t).all(|(x, y)| *x == -y))
        })
    }

    /// Whether `r >= 0` of `b` holds on `c` by one of its rows: an
    /// equality either way, or an inequality with the same coefficients
    /// and a constant at most r's.
    fn holds(&self, r: &[Int]) -> bool {
        self.in_c(r).is_some_and(|t| {
            self.c
                .eqs()
                .iter()
                .any(|e| *e == t || e.iter().zip(&t).all(|(x, y)| *x == -y))
                || self
                    .c
                    .ineqs()
                    .iter()
                    .any(|x| x[1..] == t[1..] && x[0] <= t[0])
        })
    }
}

/// Most combinations of violated rows [`covered_by_rows`] tests.
const MAX_VIOLATIONS: usize = 16;

/// Whether `ctx ⊆ m` (`ctx` one basic set), by the rows of m's disjuncts
/// that `ctx` does not have, when each disjunct has only divisions as
/// locals (functions of the variables): a point of `ctx` is outside a
/// disjunct exactly when it violates one of its rows, and a row that
/// `ctx` has (the same row, on divisions of the same definition, or with
/// a larger constant; an equality either way) holds on all of `ctx`, as
/// does a division's defining row. So `ctx \ m` is the union, over the
/// choices of one of the other rows per disjunct, of `ctx` and the chosen
/// rows violated (an inequality `r >= 0` as `r <= -1`, an equality as
/// `r <= -1` or `r >= 1`), each tested for emptiness: where the guard of
/// a loop or a statement is needed, the engine's inclusion test would
/// subtract m's disjuncts from `ctx` whole. `None` (not decided here)
/// when a disjunct has an existential, `ctx` several disjuncts, or there
/// are more than [`MAX_VIOLATIONS`] choices.
pub(super) fn covered_by_rows(m: &Map, ctx: &Map) -> Result<Option<bool>> {
    let [c] = ctx.basic_maps() else {
        return Ok(None);
    };
    let mut choices: Vec<Vec<BasicMap>> = Vec::new();
    let mut cases = 1usize;
    for b in m.basic_maps() {
        if known_locals(b).iter().any(|k| !k) {
            return Ok(None);
        }
        let Some(rows) = RowsOf::new(b, c) else {
            return Ok(None);
        };
        let neg = |r: &[Int]| -> Vec<Int> { r.iter().map(|v| -v).collect() };
        let below = |r: &[Int], sign: bool| -> Vec<Int> {
            // sign·r <= -1: -sign·r - 1 >= 0
            let mut v: Vec<Int> = if sign { neg(r) } else { r.to_vec() };
            v[0] = &v[0] - &Int::ONE;
            v
        };
        let mut violations = Vec::new();
        for r in b.eqs() {
            if !rows.has_eq(r) {
                violations.push(with_locals(b, &[(false, below(r, true))]));
                violations.push(with_locals(b, &[(false, below(r, false))]));
            }
        }
        for r in b.ineqs() {
            if !is_div_def(b, r) && !rows.holds(r) {
                violations.push(with_locals(b, &[(false, below(r, true))]));
            }
        }
        if violations.is_empty() {
            // every row of the disjunct holds on ctx
            return Ok(Some(true));
        }
        cases = cases.saturating_mul(violations.len());
        if cases > MAX_VIOLATIONS {
            return Ok(None);
        }
        choices.push(violations);
    }
    if choices.is_empty() {
        // no disjunct: only an empty ctx is inside
        return Ok(Some(ctx.is_empty()?));
    }
    let mut pick = vec![0usize; choices.len()];
    loop {
        let mut t = ctx.clone();
        for (k, &j) in pick.iter().enumerate() {
            t = t.intersect(&Map::from_basic(choices[k][j].clone()))?;
        }
        if !t.is_empty()? {
            return Ok(Some(false));
        }
        // the next choice (the last disjunct's rows fastest)
        let mut k = pick.len();
        loop {
            if k == 0 {
                return Ok(Some(true));
            }
            k -= 1;
            pick[k] += 1;
            if pick[k] < choices[k].len() {
                break;
            }
            pick[k] = 0;
        }
    }
}

/// `rows` of `b` without the groups of rows on existentials that `ctx`
/// implies. Rows sharing an existential (a local without a definition in
/// terms of the variables) form a group: the row-by-row test above cannot
/// drop them (`i = 4e` negated is satisfiable for some `e`), but a whole
/// group is implied when `ctx ⊆ { x : ∃e: group(x, e) }`, and as the
/// groups share no existential, `b` is the intersection of its groups'
/// projections: dropping an implied group keeps `b ∩ ctx` exactly (e.g. a
/// guard `i % 4 == 0` inside a loop over `i` stepping by 4 from 0).
fn drop_implied_local_groups(
    b: &BasicMap,
    rows: Vec<(bool, Vec<Int>)>,
    ctx: &Map,
) -> Result<Vec<(bool, Vec<Int>)>> {
    let base = b.off_div();
    let nd = b.n_div();
    let known = known_locals(b);
    let unknown = |r: &[Int]| -> Vec<usize> {
        (0..nd)
            .filter(|&k| !known[k] && !r[base + k].is_zero())
            .collect()
    };
    // groups: union-find over the unknown locals
    let mut parent: Vec<usize> = (0..nd).collect();
    // (a local defined through an existential is tied to it)
    for k in 0..nd {
        if let Some(d) = b.divs()[k].as_ref().filter(|_| !known[k]) {
            for j in
                (0..nd).filter(|&j| !known[j] && d.num.get(base + j).is_some_and(|v| !v.is_zero()))
            {
                let (a, c) = (find_root(&mut parent, k), find_root(&mut parent, j));
                parent[a] = c;
            }
        }
    }
    for (_, r) in &rows {
        let us = unknown(r);
        for w in us.windows(2) {
            let (a, c) = (find_root(&mut parent, w[0]), find_root(&mut parent, w[1]));
            parent[a] = c;
        }
    }
    let group_of = |p: &mut Vec<usize>, r: &[Int]| unknown(r).first().map(|&k| find_root(p, k));
    let mut roots: Vec<usize> = Vec::new();
    for (_, r) in &rows {
        if let Some(g) = group_of(&mut parent, r) {
            if !roots.contains(&g) {
                roots.push(g);
            }
        }
    }
    let mut dropped: Vec<usize> = Vec::new();
    for g in roots {
        let group: Vec<(bool, Vec<Int>)> = rows
            .iter()
            .filter(|(_, r)| group_of(&mut parent, r) == Some(g))
            .cloned()
            .collect();
        let proj = Map::from_basic(with_locals(b, &group));
        // bounded: past the effort the group stays (a valid answer)
        let covered = {
            let _scope = presburger::budget::enter(SHORTCUT_EFFORT);
            ctx.is_subset(&proj)
        };
        match covered {
            Ok(true) => dropped.push(g),
            Ok(false) => {}
            Err(presburger::Error::BudgetExceeded)
                if presburger::budget::remaining() != Some(0) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if dropped.is_empty() {
        return Ok(rows);
    }
    Ok(rows
        .into_iter()
        .filter(|(_, r)| group_of(&mut parent, r).is_none_or(|g| !dropped.contains(&g)))
        .collect())
}

/// A basic set with the locals of `b` and only the given rows.
pub(super) fn with_locals(b: &BasicMap, rows: &[(bool, Vec<Int>)]) -> BasicMap {
    let mut out = BasicMap::universe(b.space().clone());
    for d in b.divs() {
        match d {
            Some(div) => {
                let len = out.row_len();
                out.add_div(div.num[..len].to_vec(), div.den.clone());
            }
            None => {
                out.add_existential();
            }
        }
    }
    for (eq, r) in rows {
        if *eq {
            out.add_eq(r.clone());
        } else {
            out.add_ineq(r.clone());
        }
    }
    out
}

/// Whether the row `head >= 0` (on the variables, no locals) holds on
/// every one of `sets` (within a bounded effort; past it, `false`).
pub(super) fn implied_by_every(sets: &[BasicMap], head: &[Int]) -> Result<bool> {
    let r = {
        let _scope = presburger::budget::enter(SHORTCUT_EFFORT);
        (|| -> Result<bool> {
            for s in sets {
                // s and head <= -1
                let mut neg: Vec<Int> = head.iter().map(|v| -v).collect();
                neg[0] = &neg[0] - &Int::ONE;
                neg.resize(s.row_len(), Int::ZERO);
                let mut t = s.clone();
                t.add_ineq(neg);
                if !Map::from_basic(t).is_empty()? {
                    return Ok(false);
                }
            }
            Ok(true)
        })()
    };
    match r {
        Err(Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => Ok(false),
        r => r,
    }
}

#[cfg(test)]
mod tests;
