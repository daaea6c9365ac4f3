//! Options that hold on part of a level's domain: the isolated part of a
//! band ([`crate::options::Isolate`]) and the rules of a schedule map's
//! options ([`crate::options::Rule`]). Both split the points of a group
//! by their values of the dimensions `0..=l` into parts that are scanned
//! one after the other, each with its own loop type.
//!
//! Exactness: the parts are sets of the dimensions `0..=l` (the inner
//! ones free) that partition the group's points, and they are emitted in
//! an order in which, for equal outer values, every value of dimension
//! `l` of a part precedes those of the next (points with other outer
//! values are not ordered by this level).

use super::{Gen, Piece};
use crate::error::Result;
use crate::expr::Expr;
use crate::node::Node;
use crate::options::LoopKind;
use crate::rows::{eliminate_locals, project_keep, remap, set_space};
use presburger::{BasicMap, Int, Map};

/// Which options of a group remain to be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    /// Isolated parts of bands, then rules.
    Isolate,
    /// Rules only (outside an isolated part).
    Rules,
    /// None: the loop type is decided.
    Kind(LoopKind),
}

/// The outcome of [`Gen::split_options`].
pub(super) enum Split {
    /// The group was split; the code of its parts.
    Done(Vec<Node>),
    /// Not split: the loop type of the whole group.
    Kind(LoopKind),
}

/// A set of the scanned space with the scan's parameters and `n`
/// dimensions, from a set over the first schedule dimensions (`None` if
/// it names parameters the schedule does not have).
pub(super) fn embed(set: &Map, params: &[String], n: usize) -> Result<Option<Map>> {
    if set.space().params.iter().any(|p| !params.contains(p)) {
        return Ok(None);
    }
    let mut s = set.clone();
    s.align_params(params);
    if s.space().n_out() > n {
        return Ok(None);
    }
    let space = set_space(params, n);
    let mut out = Map::empty(space.clone());
    for b in s.basic_maps() {
        out.add_basic(remap(b, &space, &|c| c))?;
    }
    Ok(Some(out))
}

impl Gen<'_> {
    /// Split a group of level `l` by the options that hold on part of its
    /// domain (see the module documentation), or say which loop type the
    /// whole group gets.
    pub(super) fn split_options(
        &self,
        l: usize,
        pieces: &[Piece],
        ctx: &Map,
        env: &mut Vec<Expr>,
        may_separate: bool,
        stage: Stage,
    ) -> Result<Split> {
        let default = if l < self.scan.n_sched {
            self.options.kind(l)
        } else {
            LoopKind::Default
        };
        if l >= self.scan.n_sched {
            return Ok(Split::Kind(LoopKind::Default));
        }
        match stage {
            Stage::Kind(k) => Ok(Split::Kind(k)),
            Stage::Isolate => {
                if let Some(s) = self.isolate(l, pieces, ctx, env, may_separate)? {
                    return Ok(s);
                }
                self.rules(l, pieces, ctx, env, may_separate, default)
            }
            Stage::Rules => self.rules(l, pieces, ctx, env, may_separate, default),
        }
    }

    /// The union of the projections on `0..=l` of the pieces' points
    /// (inside `ctx`, and inside `within` if given).
    fn prefix(&self, l: usize, pieces: &[Piece], ctx: &Map, within: Option<&Map>) -> Result<Map> {
        let n = self.scan.n;
        let mut u = Map::empty(ctx.space().clone());
        for p in pieces {
            let mut s = p.set.intersect(ctx)?;
            if let Some(w) = within {
                s = s.intersect(w)?;
            }
            if s.is_empty()? {
                continue;
            }
            u = u.union(&project_keep(&s, l + 1, n)?)?;
        }
        self.memo.coalesced(&u)
    }

    /// The pieces mapped by `f` (their sets), those with points in `ctx`.
    fn restrict_by(
        pieces: &[Piece],
        ctx: &Map,
        f: impl Fn(&Map) -> presburger::Result<Map>,
    ) -> Result<Vec<Piece>> {
        let mut sub = Vec::new();
        for p in pieces {
            let set = f(&p.set)?;
            if !set.intersect(ctx)?.is_empty()? {
                sub.push(Piece { set, ..p.clone() });
            }
        }
        Ok(sub)
    }

    /// Scan the parts one after the other, each with its stage.
    fn scan_parts(
        &self,
        l: usize,
        parts: Vec<(Vec<Piece>, Stage)>,
        ctx: &Map,
        env: &mut Vec<Expr>,
        may_separate: bool,
    ) -> Result<Vec<Node>> {
        let n = self.scan.n;
        let mut out = Vec::new();
        for (sub, stage) in parts {
            if sub.is_empty() {
                continue;
            }
            let projs: Vec<Map> = sub
                .iter()
                .map(|p| {
                    let s = p.set.intersect(ctx)?;
                    self.memo.coalesced(&project_keep(&s, l + 1, n)?)
                })
                .collect::<Result<_>>()?;
            let refs: Vec<&Map> = projs.iter().collect();
            out.extend(self.group(l, sub, &refs, ctx, env, may_separate, stage)?);
        }
        Ok(out)
    }

    /// The isolated part of a band at member `l`: the convex hull `H` of
    /// the isolated points' prefixes (without locals, so that for fixed
    /// outer values its values of `l` are an interval); the points before
    /// it (same outer values, smaller `l`), in it, after it, and the
    /// others (outer values where nothing is isolated), in that order.
    fn isolate(
        &self,
        l: usize,
        pieces: &[Piece],
        ctx: &Map,
        env: &mut Vec<Expr>,
        may_separate: bool,
    ) -> Result<Option<Split>> {
        for (iso, set) in self.options.isolates.iter().zip(&self.isolated) {
            if !iso.dims.contains(&l) {
                continue;
            }
            let Some(set) = set else { continue };
            let hit = self.prefix(l, pieces, ctx, Some(set))?;
            if hit.is_empty()? {
                continue;
            }
            let kind = iso.kinds[l - iso.dims.start];
            let hull = hit.convex_hull()?;
            let Some(h) = hull.basic_maps().first() else {
                continue;
            };
            let all = vec![true; h.n_div()];
            let h = eliminate_locals(h, &all);
            let h_set = Map::from_basic(h.clone());
            let before = self.beside(l, &h, true)?.subtract(&h_set)?;
            let after = self
                .beside(l, &h, false)?
                .subtract(&h_set)?
                .subtract(&before)?;
            let near = h_set.union(&before)?.union(&after)?;
            let b = Self::restrict_by(pieces, ctx, |s| s.intersect(&before))?;
            let i = Self::restrict_by(pieces, ctx, |s| s.intersect(&h_set))?;
            let a = Self::restrict_by(pieces, ctx, |s| s.intersect(&after))?;
            let o = Self::restrict_by(pieces, ctx, |s| s.subtract(&near))?;
            if b.is_empty() && a.is_empty() && o.is_empty() {
                return Ok(Some(Split::Kind(kind)));
            }
            // the others have other outer values: they may join the
            // parts before or after (fewer loops), as the points outside
            // the isolated part (a simpler set than the union)
            let outside = || Self::restrict_by(pieces, ctx, |s| s.subtract(&h_set));
            let seq = if b.is_empty() {
                vec![(i, Stage::Kind(kind)), (outside()?, Stage::Rules)]
            } else if a.is_empty() {
                vec![(outside()?, Stage::Rules), (i, Stage::Kind(kind))]
            } else {
                vec![
                    (b, Stage::Rules),
                    (i, Stage::Kind(kind)),
                    (a, Stage::Rules),
                    (o, Stage::Rules),
                ]
            };
            let out = self.scan_parts(l, seq, ctx, env, may_separate)?;
            return Ok(Some(Split::Done(out)));
        }
        Ok(None)
    }

    /// `{ y : exists x in h, x_k = y_k (k < l), x_l > y_l }` (`below`) or
    /// with `x_l < y_l`, for a basic set `h` without locals.
    fn beside(&self, l: usize, h: &BasicMap, below: bool) -> Result<Map> {
        let n = self.scan.n;
        let np = self.scan.params.len();
        let space = set_space(&self.scan.params, n + 1);
        let col_l = 1 + np + l;
        let col_x = 1 + np + n;
        let mut e = remap(h, &space, &|c| if c == col_l { col_x } else { c });
        let mut r = vec![Int::ZERO; e.row_len()];
        let s = if below { Int::ONE } else { -&Int::ONE };
        r[col_x] = s.clone();
        r[col_l] = -&s;
        r[0] = -&Int::ONE;
        e.add_ineq(r);
        Ok(Map::from_basic(e).project_out(n, 1)?)
    }

    /// The rules of dimension `l`: the prefixes where each holds (minus
    /// those of the rules before it) and the rest, split into their
    /// disjuncts and ordered along `l`; disjuncts that are not ordered
    /// share a part, whose loop type is the rules' if they agree.
    fn rules(
        &self,
        l: usize,
        pieces: &[Piece],
        ctx: &Map,
        env: &mut Vec<Expr>,
        may_separate: bool,
        default: LoopKind,
    ) -> Result<Split> {
        let rules: Vec<_> = self
            .options
            .rules
            .iter()
            .zip(&self.regions)
            .filter(|(r, reg)| r.dim == l && reg.is_some())
            .collect();
        if rules.is_empty() {
            return Ok(Split::Kind(default));
        }
        let u = self.prefix(l, pieces, ctx, None)?;
        // a dimension with one value for given outer values has no loop:
        // its loop type changes nothing, a split would only add tests
        let col = 1 + self.scan.params.len() + l;
        let hull = u.affine_hull()?;
        if hull.basic_maps().iter().any(|b| {
            let base = b.off_div();
            b.eqs()
                .iter()
                .any(|r| !r[col].is_zero() && r[base..].iter().all(Int::is_zero))
        }) {
            return Ok(Split::Kind(default));
        }
        let mut taken = Map::empty(u.space().clone());
        let mut labelled: Vec<(Map, LoopKind)> = Vec::new();
        for (rule, region) in rules {
            let p = self.prefix(l, pieces, ctx, region.as_ref())?;
            let p = self.memo.coalesced(&p.subtract(&taken)?)?;
            if p.basic_maps().is_empty() {
                continue;
            }
            let kind = rule.kind.unwrap_or(default);
            if labelled.is_empty() && u.is_subset(&p)? {
                // the first rule that applies holds everywhere
                return Ok(Split::Kind(kind));
            }
            taken = taken.union(&p)?;
            labelled.push((p, kind));
        }
        if labelled.is_empty() {
            return Ok(Split::Kind(default));
        }
        let rest = self.memo.coalesced(&u.subtract(&taken)?)?;
        labelled.push((rest, default));
        let mut basics: Vec<(Map, LoopKind)> = Vec::new();
        for (m, k) in labelled {
            for b in m.basic_maps() {
                basics.push((Map::from_basic(b.clone()), k));
            }
        }
        let sets: Vec<Map> = basics.iter().map(|(m, _)| m.clone()).collect();
        let order = self.order(l, &sets)?;
        if order.len() < 2 {
            return Ok(Split::Kind(default));
        }
        let mut seq = Vec::new();
        for g in order {
            let mut part = Map::empty(u.space().clone());
            for &k in &g {
                part = part.union(&basics[k].0)?;
            }
            let k0 = basics[g[0]].1;
            let kind = if g.iter().all(|&k| basics[k].1 == k0) {
                k0
            } else {
                default
            };
            seq.push((
                Self::restrict_by(pieces, ctx, |s| s.intersect(&part))?,
                Stage::Kind(kind),
            ));
        }
        Ok(Split::Done(self.scan_parts(
            l,
            seq,
            ctx,
            env,
            may_separate,
        )?))
    }
}
