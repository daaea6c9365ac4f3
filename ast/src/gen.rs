//! The generator: recursion over the dimensions of the scheduled space.

use crate::error::{Error, Result};
use crate::expr::{linear, CmpOp, Expr};
use crate::node::Node;
use crate::options::{LoopKind, Options};
use crate::rows::{
    dependent_locals, eliminate_locals, explicit, explicit_or_superset, fix_locals, is_div_def,
    project_keep, remap, set_space, RowPrinter,
};
use presburger::{BasicMap, Int, Map, Set, UnionMap};

mod context;
mod coords;
mod memo;
mod order;
mod peel;
mod split;
mod unify;

pub(crate) use split::Stage;

use context::{gist, implied_by_every, widen, with_locals};

/// One statement's scheduled instances: the set of points
/// `[t_0, ..., t_{d-1}, i_0, ..., i_{k-1}, 0, ...]` of the scanned space
/// (schedule dimensions first, then the statement's own coordinates, padded
/// with zeros up to the common dimension).
#[derive(Clone, Debug)]
pub struct Piece {
    /// The statement name.
    pub name: String,
    /// The number of the statement's own coordinates.
    pub n_dom: usize,
    /// The scheduled instances in the scanned space.
    pub set: Map,
}

/// The scanned space and the schedule's shape.
#[derive(Clone, Debug)]
pub struct Scan {
    /// Parameter names.
    pub params: Vec<String>,
    /// Number of schedule dimensions.
    pub n_sched: usize,
    /// Total number of scanned dimensions.
    pub n: usize,
    /// The statements.
    pub pieces: Vec<Piece>,
    /// The context as a set of the scanned space.
    pub context: Map,
}

impl Scan {
    /// The scanned space of a schedule map `{ S[i] -> [t] }` and a context.
    pub fn from_schedule(schedule: &UnionMap, context: &Set) -> Result<Scan> {
        let mut sched = schedule.clone();
        let mut ctx = context.clone();
        let params = presburger::space::merge_params(sched.params(), &ctx.space().params);
        sched.align_params(&params);
        ctx.align_params(&params);
        let params: Vec<String> = sched.params().to_vec();
        ctx.align_params(&params);
        let n_sched = sched
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let n_dom = sched
            .maps()
            .iter()
            .map(|m| m.space().n_in())
            .max()
            .unwrap_or(0);
        let n = n_sched + n_dom;
        let space = set_space(&params, n);
        let np = params.len();
        let mut pieces = Vec::new();
        for m in sched.maps() {
            if m.is_set() {
                return Err(Error::Unsupported("the schedule must be a relation".into()));
            }
            let name = m.space().domain_tuple().name.clone().unwrap_or_default();
            let (ni, no) = (m.space().n_in(), m.space().n_out());
            let mut set = Map::empty(space.clone());
            for b in m.basic_maps() {
                // [c | params | in | out] -> [c | params | out, (pad), in, (pad)]
                let colmap = |c: usize| {
                    if c <= np {
                        c
                    } else if c <= np + ni {
                        1 + np + n_sched + (c - 1 - np)
                    } else {
                        1 + np + (c - 1 - np - ni)
                    }
                };
                let mut nb = remap(b, &space, &colmap);
                let len = nb.row_len();
                for k in (no..n_sched).chain(n_sched + ni..n) {
                    let mut r = vec![Int::ZERO; len];
                    r[1 + np + k] = Int::ONE;
                    nb.add_eq(r);
                }
                set.add_basic(nb)?;
            }
            pieces.push(Piece {
                name,
                n_dom: ni,
                set,
            });
        }
        let mut context = Map::empty(space.clone());
        for b in ctx.basic_maps() {
            context.add_basic(remap(b, &space, &|c| c))?;
        }
        Ok(Scan {
            params,
            n_sched,
            n,
            pieces,
            context,
        })
    }
}

/// Generate the AST scanning `scan` in lexicographic order.
pub fn generate_scan(scan: &Scan) -> Result<Node> {
    generate_scan_with(scan, &Options::default())
}

/// [`generate_scan`] with loop kinds per schedule dimension.
pub fn generate_scan_with(scan: &Scan, options: &Options) -> Result<Node> {
    generate_scan_reduced(scan, options, true)
}

/// [`generate_scan_with`], on the schedule dimensions alone when `reduce`
/// and the coordinates allow it (see `gen/coords.rs`), else on the whole
/// scanned space.
fn generate_scan_reduced(scan: &Scan, options: &Options, reduce: bool) -> Result<Node> {
    let pieces = prepared_pieces(scan)?;
    let reduced = if reduce {
        coords::reduce(scan, &pieces)?
    } else {
        None
    };
    let (small, pieces, coords) = match reduced {
        Some((s, p, c)) => (Some(s), p, Some(c)),
        None => (None, pieces, None),
    };
    let scan = small.as_ref().unwrap_or(scan);
    let embed_all = |sets: Vec<&Map>| -> Result<Vec<Option<Map>>> {
        sets.into_iter()
            .map(|s| split::embed(s, &scan.params, scan.n))
            .collect()
    };
    let g = Gen {
        scan,
        options,
        regions: embed_all(options.rules.iter().map(|r| &r.region).collect())?,
        isolated: embed_all(options.isolates.iter().map(|i| &i.set).collect())?,
        loops: Default::default(),
        memo: Default::default(),
        coords,
    };
    let mut env = Vec::new();
    let nodes = g.level(0, pieces, &scan.context, &mut env)?;
    Ok(Node::block(nodes)
        .drop_known_conditions()
        .merge_ifs()
        .merge_equal_branches()
        .fold_constants())
}

/// The scan's pieces with the locals that have a single possible value
/// fixed and eliminated ([`fix_locals`]).
fn prepared_pieces(scan: &Scan) -> Result<Vec<Piece>> {
    // the context's rows (one basic set without locals), for fix_locals
    let ctx_rows: Vec<Vec<Int>> = match scan.context.basic_maps() {
        [c] if c.n_div() == 0 => c
            .ineqs()
            .iter()
            .cloned()
            .chain(
                c.eqs()
                    .iter()
                    .flat_map(|r| [r.clone(), r.iter().map(|v| -v).collect()]),
            )
            .collect(),
        _ => vec![],
    };
    let mut pieces = Vec::new();
    for p in &scan.pieces {
        let mut set = Map::empty(p.set.space().clone());
        for b in p.set.basic_maps() {
            let pad = |r: &Vec<Int>| {
                let mut r = r.clone();
                r.resize(b.row_len(), Int::ZERO);
                r
            };
            let rows: Vec<Vec<Int>> = ctx_rows.iter().map(pad).collect();
            // locals with a single possible value (a division of a
            // bounded numerator by a large constant) are eliminated once
            let mut c = fix_locals(b, &rows)?;
            if c.simplify() {
                set.add_basic(c)?;
            }
        }
        pieces.push(Piece { set, ..p.clone() });
    }
    Ok(pieces)
}

/// Generate the AST of a schedule map with a context: every instance
/// `S[i]` with `S[i] -> t` in `schedule` runs once per schedule time `t`,
/// in lexicographic order of `t` (ties in any order).
pub fn generate(schedule: &UnionMap, context: &Set) -> Result<Node> {
    generate_with_options(schedule, context, &Options::default())
}

/// [`generate`] with loop kinds per schedule dimension ([`Options`]).
pub fn generate_with_options(
    schedule: &UnionMap,
    context: &Set,
    options: &Options,
) -> Result<Node> {
    let (schedule, options) = crate::shift::split_interleaved(schedule, options)?;
    generate_scan_with(&Scan::from_schedule(&schedule, context)?, &options)
}

struct Gen<'a> {
    scan: &'a Scan,
    options: &'a Options,
    /// The rules' regions in the scanned space (`None`: not applicable).
    regions: Vec<Option<Map>>,
    /// The isolated sets in the scanned space.
    isolated: Vec<Option<Map>>,
    /// The loops emitted so far and not yet consumed by their parent: see
    /// [`EmittedLoop`].
    loops: std::cell::RefCell<Vec<EmittedLoop>>,
    /// The engine's answers so far, by question.
    memo: memo::Memo,
    /// The calls' arguments when the scan is on the schedule dimensions
    /// alone (`gen/coords.rs`).
    coords: Option<coords::Coords>,
}

/// A `for` node emitted at `level`, identified by its bounds, with its
/// range (its bound rows, without the context: what the printed bounds
/// enforce by themselves), whose projection onto the dimensions before
/// `level` is a superset of the outer points where it runs at least once.
/// A guard that this projection implies is not needed in front of an
/// enclosing loop whose body is such loops only: where the guard fails,
/// they run nothing.
struct EmittedLoop {
    level: usize,
    init: Expr,
    cond: Expr,
    range: Map,
}

/// Work granted to the separation of one loop ([`LoopKind::Separate`]).
const SEPARATE_EFFORT: u64 = 50_000_000;

/// Most copies of a loop body [`LoopKind::Unroll`] makes.
const MAX_UNROLL: i64 = 1024;

/// Bounds of one basic set on one dimension.
struct Bounds {
    lower: Vec<Expr>,
    upper: Vec<Expr>,
    eq: Option<Expr>,
    stride: Option<(i64, Expr)>,
    /// rows bounding the dimension from below / above (for the loop's context)
    lower_rows: Vec<(bool, Vec<Int>)>,
    upper_rows: Vec<(bool, Vec<Int>)>,
    stride_row: Option<Vec<Int>>,
    eq_row: Option<Vec<Int>>,
}

fn small(v: &Int) -> Result<i64> {
    // at most 2^62 in magnitude: negations and the `+ k - 1` of ceilings
    // on such values cannot overflow
    v.to_i64()
        .filter(|x| x.unsigned_abs() <= 1 << 62)
        .ok_or_else(|| Error::Unsupported(format!("coefficient {v} does not fit in 63 bits")))
}

fn fold(v: Vec<Expr>, f: fn(Expr, Expr) -> Expr) -> Option<Expr> {
    let mut it = v.into_iter();
    let first = it.next()?;
    Some(it.fold(first, f))
}

fn dedup(v: &mut Vec<Expr>) {
    let mut seen = Vec::new();
    v.retain(|e| {
        if seen.contains(e) {
            false
        } else {
            seen.push(e.clone());
            true
        }
    });
}

impl Gen<'_> {
    fn printer<'b>(&'b self, env: &'b [Expr]) -> RowPrinter<'b> {
        RowPrinter {
            params: &self.scan.params,
            env,
        }
    }

    fn col(&self, dim: usize) -> usize {
        1 + self.scan.params.len() + dim
    }

    fn level(
        &self,
        l: usize,
        pieces: Vec<Piece>,
        ctx: &Map,
        env: &mut Vec<Expr>,
    ) -> Result<Vec<Node>> {
        let n = self.scan.n;
        let mut live = Vec::new();
        let mut inter = Vec::new();
        for p in pieces {
            // (coalescing drops the empty disjuncts: no parts, no points)
            let s = self.memo.coalesced_inside(&p.set, ctx)?;
            if !s.basic_maps().is_empty() {
                live.push(p);
                inter.push(s);
            }
        }
        if live.is_empty() {
            return Ok(vec![]);
        }
        if l == n {
            let mut out = Vec::new();
            let d = self.scan.n_sched;
            for (p, s) in live.iter().zip(&inter) {
                let cond = self.printer(env).condition(&gist(s, ctx)?)?;
                let args = match &self.coords {
                    None => env[d..d + p.n_dom].to_vec(),
                    Some(c) => c.args(&p.name, &self.printer(env))?.ok_or_else(|| {
                        Error::Unsupported(format!("no coordinates for {}", p.name))
                    })?,
                };
                let call = Node::User {
                    name: p.name.clone(),
                    args,
                };
                out.push(match cond {
                    None => call,
                    Some(c) => Node::If {
                        cond: c,
                        then: Box::new(call),
                        els: None,
                    },
                });
            }
            return Ok(out);
        }
        // pieces whose remaining times are ordered (ties allowed) are
        // scanned one after the other, even where they overlap along `l`;
        // so are a statement's disjuncts that are ordered and disjoint
        let (live, inter, groups) = self.split_disjuncts(l, live, inter)?;
        let projs: Vec<Map> = inter
            .iter()
            .map(|s| self.memo.coalesced_projection(s, l + 1, n))
            .collect::<Result<_>>()?;
        let mut out = Vec::new();
        for g in groups {
            let gp: Vec<Piece> = g.iter().map(|&k| live[k].clone()).collect();
            let gproj: Vec<&Map> = g.iter().map(|&k| &projs[k]).collect();
            out.extend(self.group(l, gp, &gproj, ctx, env, true, Stage::Isolate)?);
        }
        Ok(out)
    }

    fn bounds(&self, l: usize, b: &BasicMap, env: &[Expr]) -> Result<Bounds> {
        let pr = self.printer(env);
        let col = self.col(l);
        let base = b.off_div();
        let nd = b.n_div();
        let mut dep = vec![false; nd];
        for k in 0..nd {
            if let Some(d) = &b.divs()[k] {
                dep[k] =
                    !d.num[col].is_zero() || (0..k).any(|j| dep[j] && !d.num[base + j].is_zero());
            } else {
                dep[k] = true;
            }
        }
        let has_dep = |r: &[Int]| (0..nd).any(|k| dep[k] && !r[base + k].is_zero());
        let mut bd = Bounds {
            lower: vec![],
            upper: vec![],
            eq: None,
            stride: None,
            lower_rows: vec![],
            upper_rows: vec![],
            stride_row: None,
            eq_row: None,
        };
        let neg = |t: Vec<(i64, Expr)>| -> Vec<(i64, Expr)> {
            t.into_iter().map(|(c, e)| (-c, e)).collect()
        };
        for r in b.eqs() {
            let c = small(&r[col])?;
            if c != 0 && !has_dep(r) {
                let (t, k) = pr.terms(b, r, &|x| x == col)?;
                // c*t + rest = 0
                let (t, k) = if c > 0 { (neg(t), -k) } else { (t, k) };
                let a = c.abs();
                let e = linear(t.clone(), k);
                let (lo, hi, val) = if a == 1 {
                    (e.clone(), e.clone(), e)
                } else {
                    (
                        Expr::floord(linear(t.clone(), k + a - 1), a),
                        Expr::floord(e.clone(), a),
                        Expr::ExactDiv(Box::new(e), a),
                    )
                };
                bd.lower.push(lo);
                bd.upper.push(hi);
                // as inequalities: the loop range only implies the bounds
                let up: Vec<Int> = r.iter().map(|v| -v).collect();
                let (lo_row, hi_row) = if c > 0 {
                    (r.clone(), up)
                } else {
                    (up, r.clone())
                };
                bd.lower_rows.push((false, lo_row));
                bd.upper_rows.push((false, hi_row));
                if bd.eq_row.is_none() {
                    bd.eq_row = Some(r.clone());
                }
                if bd.eq.is_none() {
                    bd.eq = Some(val);
                }
            } else if c.abs() == 1 && has_dep(r) {
                let mut g = Int::ZERO;
                for k in 0..nd {
                    if dep[k] {
                        g = g.gcd(&r[base + k]);
                    }
                }
                let g = small(&g)?;
                if g > 1 && bd.stride.is_none() {
                    let (t, k) = pr.terms(b, r, &|x| x == col || (x >= base && dep[x - base]))?;
                    let (t, k) = if c > 0 { (neg(t), -k) } else { (t, k) };
                    bd.stride = Some((g, linear(t, k)));
                    bd.stride_row = Some(r.clone());
                }
            }
        }
        for r in b.ineqs() {
            let c = small(&r[col])?;
            if c == 0 || has_dep(r) || is_div_def(b, r) {
                continue;
            }
            let (t, k) = pr.terms(b, r, &|x| x == col)?;
            if c > 0 {
                // c*t + rest >= 0: t >= ceil(-rest / c)
                let e = if c == 1 {
                    linear(neg(t), -k)
                } else {
                    Expr::floord(linear(neg(t), -k + c - 1), c)
                };
                bd.lower.push(e);
                bd.lower_rows.push((false, r.clone()));
            } else {
                let a = -c;
                let e = if a == 1 {
                    linear(t, k)
                } else {
                    Expr::floord(linear(t, k), a)
                };
                bd.upper.push(e);
                bd.upper_rows.push((false, r.clone()));
            }
        }
        dedup(&mut bd.lower);
        dedup(&mut bd.upper);
        Ok(bd)
    }

    fn with_rows(&self, b: &BasicMap, rows: &[(bool, Vec<Int>)]) -> BasicMap {
        with_locals(b, rows)
    }

    /// The code of one group of pieces at level `l` (`may_separate`: the
    /// dimension's `separate` option may split it; `stage`: which options
    /// that hold on part of the domain are still to be applied).
    #[allow(clippy::too_many_arguments)]
    fn group(
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

/// Where a loop's stride comes from: the basic set holding it, its row,
/// the step and the offset.
type StrideSource = (BasicMap, Vec<Int>, i64, Expr);

impl Gen<'_> {
    /// The stride of dimension `l` in the affine hull of `u`: the basic
    /// set holding it, its row, the step and the offset.
    fn hull_stride(&self, l: usize, u: &Map, env: &[Expr]) -> Result<Option<StrideSource>> {
        let hull = u.affine_hull()?;
        for h in explicit(&hull)? {
            let hb = self.bounds(l, &h, env)?;
            if let (Some((g, f)), Some(row)) = (hb.stride, hb.stride_row) {
                return Ok(Some((h, row, g, f)));
            }
        }
        Ok(None)
    }
}

/// A constant bound on the trip count of the loop over dimension `l` of
/// the basic set `b` with step `inc`: some lower and upper bound row whose
/// combination eliminates every other variable, `a·t + L >= 0` and
/// `-a'·t + U >= 0` with `a'·L + a·U = K` constant, give
/// `t_max - t_min <= K / (a·a')`. `None` if there is none (or it is beyond
/// [`MAX_UNROLL`]).
fn trip_bound(_l: usize, b: &BasicMap, bd: &Bounds, inc: i64, col: usize) -> Result<Option<i64>> {
    let _ = b;
    let mut best: Option<i64> = None;
    for (_, lo) in &bd.lower_rows {
        for (_, up) in &bd.upper_rows {
            let a = small(&lo[col])?;
            let a2 = -small(&up[col])?;
            if a <= 0 || a2 <= 0 {
                continue;
            }
            let constant = lo.iter().zip(up).enumerate().skip(1).all(|(c, (x, y))| {
                c == col || (&(x * &Int::from(a2)) + &(y * &Int::from(a))).is_zero()
            });
            if !constant {
                continue;
            }
            let k = small(&(&(&lo[0] * &Int::from(a2)) + &(&up[0] * &Int::from(a))))?;
            if k < 0 {
                return Ok(Some(0));
            }
            let span = k / (a * a2);
            let w = span / inc + 1;
            best = Some(best.map_or(w, |b: i64| b.min(w)));
        }
    }
    Ok(best.filter(|&w| w <= MAX_UNROLL))
}
