//! The code of one group of pieces at a level: a substitution of the
//! dimension where every part fixes it, else a loop (or its unrolled
//! copies) after the splits that order parts along the dimension.

use super::bounds::{dedup, fold, trip_bound, Bounds};
use super::context::{gist, implied_by_every, widen};
use super::split::{self, Stage};
use super::{unify, Gen, Piece};
use crate::error::{Error, Result};
use crate::expr::{CmpOp, Expr};
use crate::node::Node;
use crate::options::LoopKind;
use crate::rows::{
    dependent_locals, eliminate_locals, explicit, explicit_or_superset, project_keep,
};
use presburger::{BasicMap, Int, Map};

/// A `for` node emitted at `level`, identified by its bounds, with its
/// range (its bound rows, without the context: what the printed bounds
/// enforce by themselves), whose projection onto the dimensions before
/// `level` is a superset of the outer points where it runs at least once.
/// A guard that this projection implies is not needed in front of an
/// enclosing loop whose body is such loops only: where the guard fails,
/// they run nothing.
pub(super) struct EmittedLoop {
    level: usize,
    init: Expr,
    cond: Expr,
    range: Map,
}

/// Work granted to the separation of one loop ([`LoopKind::Separate`]).
const SEPARATE_EFFORT: u64 = 50_000_000;

impl Gen<'_> {
    /// The code of one group of pieces at level `l` (`may_separate`: the
    /// dimension's `separate` option may split it; `stage`: which options
    /// that hold on part of the domain are still to be applied).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn group(
        &self,
        l: usize,
        pieces: Vec<Piece>,
        projs: &[&Map],
        ctx: &Map,
        env: &mut Vec<Expr>,
        may_separate: bool,
        stage: Stage,
    ) -> Result<Vec<Node>> {
        let n = self.scan.n;
        let kind = match self.split_options(l, &pieces, ctx, env, may_separate, stage)? {
            split::Split::Done(nodes) => return Ok(nodes),
            split::Split::Kind(kind) => kind,
        };
        // (every caller's projections are coalesced already: a single one
        // needs no second pass)
        let u = match projs {
            [p] => (*p).clone(),
            _ => self.memo.coalesced_union(projs)?,
        };
        // conditions on the outer dimensions, hoisted in front of the loop
        // (a superset is enough: the levels below test what they need)
        let outer = {
            let exact = project_keep(&u, l, n)?;
            let mut m = Map::empty(exact.space().clone());
            for b in explicit_or_superset(&exact)? {
                m.add_basic(b)?;
            }
            m
        };
        let mut cond;
        let full_ctx = ctx;
        // (a disjunctive condition is not added: the context stays one
        // basic set, a superset of the reachable points)
        let ctx = &if outer.basic_maps().len() == 1 {
            widen(ctx.intersect(&outer)?)?
        } else {
            ctx.clone()
        };
        let mut parts = unify::unify_bound_rows(&explicit_or_superset(&u)?, self.col(l));
        let mut bds = Vec::new();
        // the basic set each part's stride row belongs to
        let mut stride_srcs = Vec::new();
        for b in parts.iter_mut() {
            let mut bd = self.bounds(l, b, env)?;
            let mut src = None;
            if bd.eq.is_none() && (bd.lower.is_empty() || bd.upper.is_empty()) {
                // bounded only through divisions of the dimension: their
                // rational elimination gives plain bounds (a superset);
                // the stride, a property of the part's lattice, stays
                // (e.g. `t = 4q and 2t < N + 2·floor(t/2)`: bounds
                // `t < N`, step 4)
                let exact =
                    std::mem::replace(b, eliminate_locals(b, &dependent_locals(b, self.col(l))));
                let kept = (bd.stride.take(), bd.stride_row.take());
                bd = self.bounds(l, b, env)?;
                if let (Some(s), Some(row)) = kept {
                    if bd.stride.is_none() {
                        bd.stride = Some(s);
                        bd.stride_row = Some(row);
                        src = Some(exact);
                    }
                }
            }
            stride_srcs.push(src.unwrap_or_else(|| b.clone()));
            bds.push(bd);
        }
        let iter = format!("c{l}");
        let space = u.space().clone();
        let mut same_eq = bds[0].eq.is_some() && bds.iter().all(|b| b.eq == bds[0].eq);
        let mut eq_from = (parts[0].clone(), bds[0].eq_row.clone());
        let mut eq_value = bds[0].eq.clone();
        if !same_eq && parts.len() > 1 {
            // an equality common to all parts (e.g. `t = i` in every disjunct)
            let hull = u.affine_hull()?;
            if let Some(h) = explicit(&hull)?.into_iter().next() {
                let hb = self.bounds(l, &h, env)?;
                if hb.eq.is_some() {
                    same_eq = true;
                    eq_value = hb.eq.clone();
                    eq_from = (h.clone(), hb.eq_row.clone());
                }
            }
        }
        if !same_eq && may_separate && kind == LoopKind::Separate && pieces.len() > 1 {
            // bounded: past the effort, the pieces share one loop
            let r = {
                let _scope = presburger::budget::enter(SEPARATE_EFFORT);
                self.separate(l, &pieces, projs, full_ctx, env)
            };
            match r {
                Ok(Some(out)) => return Ok(out),
                Ok(None) => {}
                Err(Error::BudgetExceeded) if presburger::budget::remaining() != Some(0) => {}
                Err(e) => return Err(e),
            }
        }
        if !same_eq && kind != LoopKind::Atomic && u.basic_maps().len() > 1 {
            // separation: disjoint parts ordered along this dimension are
            // scanned one after the other (e.g. a dimension fixed to a
            // different constant in each part becomes several substitutions)
            let part_maps: Vec<Map> = u
                .basic_maps()
                .iter()
                .map(|b| Map::from_basic(b.clone()))
                .collect();
            let order = self.order(l, &part_maps)?;
            if order.iter().all(|g| g.len() == 1) {
                let mut out = Vec::new();
                for g in order {
                    let part = &part_maps[g[0]];
                    let mut sub = Vec::new();
                    for p in &pieces {
                        let set = p.set.intersect(part)?;
                        if !set.is_empty()? {
                            sub.push(Piece { set, ..p.clone() });
                        }
                    }
                    out.extend(self.group(
                        l,
                        sub,
                        &[part],
                        full_ctx,
                        env,
                        true,
                        Stage::Kind(kind),
                    )?);
                }
                return Ok(out);
            }
        }
        if !same_eq && kind != LoopKind::Atomic {
            // a first iteration that some statement's disjunct is fixed to
            if let Some(out) = self.peel_fixed_first(l, &pieces, &u, full_ctx, env, kind)? {
                return Ok(out);
            }
        }
        let body = if same_eq {
            // no condition here: the levels below test what they need
            // (often for free, as bounds of a loop)
            // (only for a unit coefficient: `t = e/k` needs `k | e` first)
            let value = eq_value.unwrap();
            let mut inner = if matches!(value, Expr::ExactDiv(..)) {
                cond = self.printer(env).condition(&gist(&outer, full_ctx)?)?;
                ctx.clone()
            } else {
                cond = None;
                full_ctx.clone()
            };
            if let (b, Some(row)) = eq_from {
                inner = inner.intersect(&Map::from_basic(self.with_rows(&b, &[(true, row)])))?;
            }
            env.push(value);
            let inner = widen(inner)?;
            let r = self.level(l + 1, pieces, &inner, env);
            env.pop();
            r?
        } else {
            let mut lows = Vec::new();
            let mut ups = Vec::new();
            let mut lset = Map::empty(space.clone());
            let mut uset = Map::empty(space.clone());
            // (a part whose lower bounds include all of another part's
            // is never the least: its maximum is at least the other's;
            // likewise for the upper bounds)
            let covers = |mine: &[Expr], other: &[Expr]| {
                !other.is_empty() && other.iter().all(|e| mine.contains(e))
            };
            let dominated = |k: usize, upper: bool| {
                fn of(b: &Bounds, upper: bool) -> &[Expr] {
                    if upper {
                        &b.upper
                    } else {
                        &b.lower
                    }
                }
                (0..bds.len()).any(|j| {
                    j != k
                        && covers(of(&bds[k], upper), of(&bds[j], upper))
                        && (!covers(of(&bds[j], upper), of(&bds[k], upper)) || j < k)
                })
            };
            for (k, (b, bd)) in parts.iter().zip(&bds).enumerate() {
                let lo = fold(bd.lower.clone(), Expr::max).ok_or_else(|| {
                    Error::Unsupported(format!(
                        "dimension {l} has no lower bound in {}",
                        Map::from_basic(b.clone())
                    ))
                })?;
                let hi = fold(bd.upper.clone(), Expr::min).ok_or_else(|| {
                    Error::Unsupported(format!("dimension {l} has no upper bound"))
                })?;
                if !dominated(k, false) {
                    lows.push(lo);
                }
                if !dominated(k, true) {
                    ups.push(hi);
                }
                lset.add_basic(self.with_rows(b, &bd.lower_rows))?;
                uset.add_basic(self.with_rows(b, &bd.upper_rows))?;
            }
            dedup(&mut lows);
            dedup(&mut ups);
            let lb = fold(lows, Expr::min).unwrap();
            let ub = fold(ups, Expr::max).unwrap();
            // outer conditions implied by the loop having an iteration are
            // not needed: an empty loop runs nothing
            // the loop's range as one basic set: all bound rows of a single
            // part, or the rows common to every part (a superset of the
            // iterated points either way, and cheap to intersect)
            let loopset = if parts.len() == 1 {
                lset.intersect(&uset)?
            } else {
                let base = parts[0].off_div();
                let plain = |r: &Vec<Int>| r[base..].iter().all(|v| v.is_zero());
                let mut common: Vec<(bool, Vec<Int>)> = Vec::new();
                for (b0, rows) in [(&bds[0].lower_rows, 0), (&bds[0].upper_rows, 1)]
                    .into_iter()
                    .map(|(r, k)| (k, r))
                {
                    for (eq, r) in rows {
                        if !plain(r) {
                            continue;
                        }
                        let head = &r[..base];
                        let everywhere = bds.iter().all(|bd| {
                            let rs = if b0 == 0 {
                                &bd.lower_rows
                            } else {
                                &bd.upper_rows
                            };
                            rs.iter().any(|(_, x)| &x[..base] == head && plain(x))
                        });
                        if everywhere {
                            common.push((*eq, head.to_vec()));
                        }
                    }
                }
                // and a part's row that every part's bounds imply (the loop
                // runs from the least lower bound to the greatest upper one:
                // each value it takes is within some part's lower rows and
                // some part's upper rows)
                for upper in [false, true] {
                    let sets: Vec<BasicMap> = parts
                        .iter()
                        .zip(&bds)
                        .map(|(b, bd)| {
                            self.with_rows(
                                b,
                                if upper {
                                    &bd.upper_rows
                                } else {
                                    &bd.lower_rows
                                },
                            )
                        })
                        .collect();
                    for bd in &bds {
                        let rows = if upper {
                            &bd.upper_rows
                        } else {
                            &bd.lower_rows
                        };
                        for (eq, r) in rows {
                            let head = &r[..base];
                            if *eq || !plain(r) || common.iter().any(|(_, c)| c == head) {
                                continue;
                            }
                            if implied_by_every(&sets, head)? {
                                common.push((false, head.to_vec()));
                            }
                        }
                    }
                }
                let mut b = BasicMap::universe(space.clone());
                for (eq, r) in common {
                    if eq {
                        b.add_eq(r);
                    } else {
                        b.add_ineq(r);
                    }
                }
                Map::from_basic(b)
            };
            let range = full_ctx.intersect(&loopset)?;
            let mut inner = ctx.intersect(&loopset)?;
            // a stride common to every part, else one of the union's
            // affine hull (parts fixed to values on the same lattice)
            let common = match &bds[0].stride {
                Some((g, f))
                    if bds
                        .iter()
                        .all(|b| b.stride.as_ref().is_some_and(|(h, e)| h == g && e == f)) =>
                {
                    let row = bds[0].stride_row.clone().unwrap();
                    Some((stride_srcs[0].clone(), row, *g, f.clone()))
                }
                _ if parts.len() > 1 && bds.iter().any(|b| b.stride.is_some()) => {
                    self.hull_stride(l, &u, env)?
                }
                _ => None,
            };
            let (stride, range) = match common {
                Some((src, row, g, f)) => {
                    let lattice = Map::from_basic(self.with_rows(&src, &[(true, row)]));
                    inner = inner.intersect(&lattice)?;
                    (Some((g, f)), range.intersect(&lattice)?)
                }
                None => (None, range),
            };
            let nonempty = project_keep(&range, l, n)?;
            cond = self.printer(env).condition(&gist(&outer, &nonempty)?)?;
            let (init, inc) = match stride {
                None => (lb, 1),
                Some((g, f)) => {
                    // the first value >= lb congruent to f modulo g
                    let init =
                        Expr::sub(f.clone(), Expr::mul(g, Expr::floord(Expr::sub(f, lb), g)));
                    (init, g)
                }
            };
            let inner = widen(inner)?;
            let width = if kind == LoopKind::Unroll && parts.len() == 1 {
                trip_bound(l, &parts[0], &bds[0], inc, self.col(l))?
            } else {
                None
            };
            if let Some(w) = width {
                // one copy of the body per iteration: value init + k·inc,
                // guarded by the upper bound where it may not hold (not
                // when one unit lower and one unit upper bound at a
                // constant distance make the trip count exactly `w`)
                let unit = |rows: &Vec<(bool, Vec<Int>)>| {
                    rows.len() == 1 && rows[0].1[self.col(l)].abs().is_one()
                };
                let exact = inc == 1 && unit(&bds[0].lower_rows) && unit(&bds[0].upper_rows);
                // the body is the loop's (the sets below do not depend on
                // the iteration), generated once with the iterator and
                // then copied with the iterator replaced by each value
                env.push(Expr::Var(iter.clone()));
                let r = self.level(l + 1, pieces, &inner, env);
                env.pop();
                let body = Node::block(r?);
                if body == Node::Block(vec![]) {
                    return Ok(vec![]);
                }
                let mut out = Vec::new();
                for k in 0..w {
                    let value = Expr::add(init.clone(), Expr::Int(k * inc)).fold();
                    let body = vec![body.substitute(&iter, &value)];
                    let guard = match (&value, &ub) {
                        (Expr::Int(v), Expr::Int(u)) if v <= u => None,
                        _ if exact => None,
                        _ => Some(Expr::cmp(CmpOp::Le, value, ub.clone())),
                    };
                    out.push(match guard {
                        None => Node::block(body),
                        Some(g) => Node::If {
                            cond: g,
                            then: Box::new(Node::block(body)),
                            els: None,
                        },
                    });
                }
                return Ok(match cond {
                    Some(c) if !out.is_empty() => vec![Node::If {
                        cond: c,
                        then: Box::new(Node::block(out)),
                        els: None,
                    }],
                    _ => out,
                });
            }
            let mark = self.loops.borrow().len();
            env.push(Expr::Var(iter.clone()));
            let r = self.level(l + 1, pieces, &inner, env);
            env.pop();
            let body = r?;
            // the guard, again, knowing that the body's loops run nothing
            // outside their own bounds
            let inner_runs = if cond.is_some() {
                self.body_runs(&body, l + 1, mark)?
            } else {
                None
            };
            self.loops.borrow_mut().truncate(mark);
            if let Some(e) = inner_runs {
                let runs = project_keep(&range.intersect(&e)?, l, n)?;
                cond = self.printer(env).condition(&gist(&outer, &runs)?)?;
            }
            if body.is_empty() {
                vec![]
            } else {
                let cond = Expr::cmp(CmpOp::Le, Expr::Var(iter.clone()), ub);
                self.loops.borrow_mut().push(EmittedLoop {
                    level: l,
                    init: init.clone(),
                    cond: cond.clone(),
                    range: loopset,
                });
                vec![Node::For {
                    iterator: iter.clone(),
                    init,
                    cond,
                    inc,
                    body: Box::new(Node::block(body)),
                }]
            }
        };
        Ok(match cond {
            Some(c) if !body.is_empty() => vec![Node::If {
                cond: c,
                then: Box::new(Node::block(body)),
                els: None,
            }],
            _ => body,
        })
    }
}

impl Gen<'_> {
    /// Where a body generated at `level` runs anything: when every node of
    /// it is a loop emitted at `level` (logged from `mark` on), the union of
    /// the projections of their [`EmittedLoop::range`]s; `None` when some
    /// node is not such a loop.
    fn body_runs(&self, body: &[Node], level: usize, mark: usize) -> Result<Option<Map>> {
        let log = self.loops.borrow();
        let mut runs: Option<Map> = None;
        for node in body {
            let Node::For { init, cond, .. } = node else {
                return Ok(None);
            };
            let Some(e) = log[mark..]
                .iter()
                .find(|e| e.level == level && e.init == *init && e.cond == *cond)
            else {
                return Ok(None);
            };
            // (projected only here: most loops are never asked)
            let e_runs = project_keep(&e.range, level, self.scan.n)?;
            runs = Some(match runs {
                None => e_runs,
                Some(r) => r.union(&e_runs)?,
            });
        }
        Ok(runs)
    }
}
