//! The scheduler: bands of Farkas-linearized rows chosen by exact lexmin,
//! SCC distribution, and a Feautrier fallback.

mod distribute;
mod system;

use crate::constraints::ScheduleConstraints;
use crate::deps::{pieces, Dep};
use crate::error::{Error, Result};
use crate::farkas::System;
use crate::linalg::null_space;
use crate::live::{
    adjacency, drop_identities, is_identity_only, lexmin, negative, nonzero, sccs, sccs_of_edges,
    Live, Tagged,
};
use crate::tree::{Band, Node, Row, Schedule};
use presburger::{Int, Map, Space, UnionMap};
use system::{unit, Layout};

/// Options of [`compute_schedule`].
#[derive(Debug, Clone)]
pub struct Options {
    /// Operation budget of the whole run (`None`: unbounded).
    pub budget: Option<u64>,
    /// Bound on the absolute value of each iterator coefficient.
    pub max_coefficient: i64,
    /// Try to make coincidence dependences zero-distance first.
    pub maximize_coincidence: bool,
    /// Bound the validity distances too (Pluto's `u·n + w` on all dependences).
    pub bound_validity: bool,
    /// Also try the exact independence encoding for zero-distance rows (slower;
    /// otherwise only the cone form is tried for them).
    pub exact_extras: bool,
    /// Only a tree whose outermost bands can start with a coincident
    /// member is wanted ([`Schedule::outer_coincident`]): stop with
    /// [`Error::NoOuterParallel`] as soon as the root's first band row
    /// shows that the tree will not have one (the root keeps one band, as
    /// no distribution of its components can gain a parallel row, and the
    /// band's first member is not coincident), or before any row when the
    /// root is one component whose dependences leave no coincident first
    /// member (`outer`: a linear system on the pieces' affine hulls). The
    /// tree is otherwise the same.
    pub outer_parallel: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            budget: Some(200_000_000),
            max_coefficient: 6,
            maximize_coincidence: true,
            bound_validity: true,
            exact_extras: false,
            outer_parallel: false,
        }
    }
}

/// The same dependence piece (the same rows in the same order).
pub(crate) fn same_dep(a: &Dep, b: &Dep) -> bool {
    let (p, q) = (&a.piece, &b.piece);
    a.src == b.src && a.dst == b.dst && a.tags == b.tags && p.plain_is_equal(q)
}

struct Sched<'a> {
    np: usize,
    dims: Vec<usize>,
    opts: &'a Options,
}

impl Sched<'_> {
    /// One band row: validity >= 0, proximity bounded, independence, optionally
    /// coincidence = 0. `prev[s]` are the linear parts of earlier rows.
    #[allow(clippy::too_many_arguments)]
    fn band_row(
        &self,
        lay: &Layout,
        base: &System,
        coin: &System,
        use_coin: bool,
        prev: &[Vec<Vec<i128>>],
        fast: bool,
    ) -> Result<Option<Vec<Row>>> {
        // independence variables after the core: per needy statement, per complement vector: t+, t-, b
        let mut comps: Vec<(usize, Vec<Vec<i128>>)> = Vec::new();
        for &s in &lay.stmts {
            let d = self.dims[s];
            if prev[s].len() < d {
                let h = null_space(&prev[s], d).ok_or(Error::Overflow)?;
                if !h.is_empty() {
                    comps.push((s, h));
                }
            }
        }
        let extra: usize = if fast {
            0
        } else {
            comps.iter().map(|(_, h)| 3 * h.len()).sum()
        };
        let nv = lay.n_core + extra;
        let widen = |r: &Vec<Int>| {
            let mut v = r.clone();
            v.resize(nv + 1, Int::ZERO);
            v
        };
        let mut sys = System {
            eqs: base.eqs.iter().map(widen).collect(),
            ineqs: base.ineqs.iter().map(widen).collect(),
        };
        if use_coin {
            sys.eqs.extend(coin.eqs.iter().map(widen));
            sys.ineqs.extend(coin.ineqs.iter().map(widen));
        }
        let mut at = lay.n_core;
        let c = self.opts.max_coefficient as i128;
        for (s, h) in &comps {
            let d = self.dims[*s];
            let mut sum = vec![-1i128; 1];
            sum.resize(nv + 1, 0);
            for hv in h {
                if fast {
                    // a sub-cone of the independent rows: h·c >= 0 for all h, Σ h·c >= 1
                    let mut e = vec![0i128; nv + 1];
                    for k in 0..d {
                        e[1 + lay.cplus(*s, d, k)] += hv[k];
                        e[1 + lay.cminus(*s, d, k)] -= hv[k];
                    }
                    for (x, y) in sum.iter_mut().zip(&e).skip(1) {
                        *x += y;
                    }
                    sys.ineq(&e);
                    continue;
                }
                let (tp, tm, b) = (at, at + 1, at + 2);
                at += 3;
                let mut e = vec![0i128; nv + 1];
                for k in 0..d {
                    e[1 + lay.cplus(*s, d, k)] += hv[k];
                    e[1 + lay.cminus(*s, d, k)] -= hv[k];
                }
                e[1 + tp] = -1;
                e[1 + tm] = 1;
                sys.eq(&e);
                let m: i128 = c * hv.iter().map(|x| x.abs()).sum::<i128>();
                // t+ <= M b, t- <= M (1 - b), 0 <= b <= 1
                let mut r = unit(nv, tp, -1);
                r[1 + b] = m;
                sys.ineq(&r);
                let mut r = unit(nv, tm, -1);
                r[1 + b] = -m;
                r[0] = m;
                sys.ineq(&r);
                let mut r = unit(nv, b, -1);
                r[0] = 1;
                sys.ineq(&r);
                for v in [tp, tm, b] {
                    sys.ineq(&unit(nv, v, 1));
                }
                sum[1 + tp] = 1;
                sum[1 + tm] = 1;
            }
            sys.ineq(&sum);
        }
        self.core_bounds(lay, nv, &mut sys);
        let Some(sol) = lexmin(nv, sys)? else {
            return Ok(None);
        };
        Ok(Some(self.rows_of(lay, &sol)))
    }

    /// A Feautrier row: valid, carrying as many dependence pieces as possible.
    fn feautrier_row(&self, stmts: &[usize], live: &Live) -> Result<Option<Vec<Row>>> {
        let m = live.val.len();
        let lay = Layout::new(self.np, stmts, &self.dims, 1);
        let nv = lay.n_core + m;
        let mut sys = System::default();
        // z + Σ e = m
        let mut eq = vec![0i128; nv + 1];
        eq[0] = -(m as i128);
        eq[1] = 1;
        for i in 0..m {
            eq[1 + lay.n_core + i] = 1;
            sys.ineq(&unit(nv, lay.n_core + i, 1));
            let mut r = unit(nv, lay.n_core + i, -1);
            r[0] = 1;
            sys.ineq(&r);
        }
        sys.eq(&eq);
        for (i, dep) in live.val.iter().enumerate() {
            let mut f = self.delta(&lay, dep, nv, 1);
            f[0][1 + lay.n_core + i] -= 1;
            sys.extend(self.farkas(dep, &f, nv)?);
        }
        self.core_bounds(&lay, nv, &mut sys);
        let Some(sol) = lexmin(nv, sys)? else {
            return Ok(None);
        };
        if m > 0 && sol[0] == Int::from(m as i64) {
            return Ok(None);
        }
        Ok(Some(self.rows_of(&lay, &sol)))
    }

    /// The subtree of `stmts`; `root`: the node is the tree's root (where
    /// [`Options::outer_parallel`] may stop the run).
    fn node(
        &self,
        stmts: Vec<usize>,
        mut live: Live,
        prev: &mut Vec<Vec<Vec<i128>>>,
        root: bool,
    ) -> Result<Node> {
        presburger::budget::tick(1)?;
        live.force_adjacent();
        let needy = stmts.iter().any(|&s| prev[s].len() < self.dims[s]);
        if !needy {
            // no more band rows: nothing may be left unordered
            live.force_all();
        }
        if !needy && live.val.is_empty() {
            return Ok(Node::Leaf);
        }
        let mut members: Vec<Vec<Row>> = Vec::new();
        if needy {
            // Under `outer_parallel`, a component of the root that admits no
            // coincident first row decides the run before its costliest
            // questions (see `hopeless_component`): the first extra system
            // (zero distance on every validity and coincidence piece) has
            // no solution, and is neither built nor asked.
            let hopeless = root
                && self.opts.outer_parallel
                && self.opts.maximize_coincidence
                && live.cv.is_empty()
                && prev.iter().all(Vec::is_empty)
                && self.hopeless_component(&stmts, &live)?;
            let (lay, mut base, mut extras) = self.systems_with(&stmts, &live, !hopeless)?;
            let saved = prev.clone();
            let mut local: Vec<usize> = Vec::new();
            while stmts.iter().any(|&s| prev[s].len() < self.dims[s]) {
                let row = self.lrr_row(
                    &stmts, &lay, &mut base, &extras, &mut live, &mut local, &members, prev,
                )?;
                let Some(rows) = row else { break };
                self.add_ranks(&stmts, &rows, prev);
                members.push(rows);
                if root && self.opts.outer_parallel && members.len() == 1 && live.cv.is_empty() {
                    // (without conditional validity, `live` and `base` stay as
                    // they are: the band's first member and the distribution
                    // test below are already decided)
                    if !self.coincident(&stmts, &live, &members[0])? {
                        let comps = sccs(&stmts, &live.graph());
                        // (a hopeless component has no zero-distance row:
                        // `distribution_gain` would find none either)
                        let gain = !hopeless
                            && comps.len() > 1
                            && self
                                .distribution_gain(
                                    &comps, &live, &lay, &base, &extras, &stmts, &saved,
                                )?
                                .is_some();
                        if !gain {
                            return Err(Error::NoOuterParallel);
                        }
                    } else if hopeless {
                        // (not reached: the member gives each statement a
                        // non-zero linear part, and a hopeless component
                        // has none at zero distance) the rest as usual
                        extras = self.systems(&stmts, &live)?.2;
                    }
                }
            }
            let comps = sccs(&stmts, &live.graph());
            if comps.len() > 1 && !members.is_empty() {
                // distribute when that gains outer parallel rows in every SCC and
                // (estimated) outer parallel + permutable depth
                let gain =
                    self.distribution_gain(&comps, &live, &lay, &base, &extras, &stmts, &saved)?;
                if let Some((fused_par, par, perm)) = gain {
                    if par + perm > fused_par + members.len() {
                        *prev = saved;
                        return self.distribute(comps, &live, prev);
                    }
                }
            }
        }
        if !members.is_empty() {
            return self.finish_band(stmts, live, members, true, prev);
        }
        // no band row: distribute the SCCs, or carry with a Feautrier row
        let comps = sccs(&stmts, &live.graph());
        if comps.len() > 1 {
            return self.distribute(comps, &live, prev);
        }
        live.force_all();
        match self.feautrier_row(&stmts, &live)? {
            Some(rows) => self.finish_band(stmts, live, vec![rows], true, prev),
            None => Err(Error::Invalid(
                "no affine schedule row carries the remaining validity dependences (cyclic dependences?)".into(),
            )),
        }
    }

    /// A band row under conditional validity: a row that violates a conditional
    /// validity piece makes the adjacent conditions local (zero distance) for the
    /// band and is recomputed; when a condition is already non-local in this band
    /// (or making it local leaves no row), the piece is respected instead.
    #[allow(clippy::too_many_arguments)]
    fn lrr_row(
        &self,
        stmts: &[usize],
        lay: &Layout,
        base: &mut System,
        extras: &[System],
        live: &mut Live,
        local: &mut Vec<usize>,
        members: &[Vec<Row>],
        prev: &[Vec<Vec<i128>>],
    ) -> Result<Option<Vec<Row>>> {
        let nv = lay.n_core;
        let find = |base: &System| -> Result<Option<Vec<Row>>> {
            match self.first_row(lay, base, extras, prev)? {
                Some(r) => Ok(Some(r)),
                None => self.first_row(lay, base, &[], prev),
            }
        };
        loop {
            let Some(rows) = find(base)? else {
                return Ok(None);
            };
            let (mut to_local, mut loc_ks, mut to_force) = (Vec::new(), Vec::new(), Vec::new());
            for (k, c) in live.cv.iter().enumerate() {
                if !negative(&c.dep.piece, &self.dist_row(stmts, &c.dep, &rows))? {
                    continue;
                }
                let need: Vec<usize> = live.adj[c.id]
                    .iter()
                    .copied()
                    .filter(|i| !local.contains(i))
                    .collect();
                let mut ok = true;
                'conds: for cd in live.cond.iter().filter(|cd| need.contains(&cd.id)) {
                    for m in members {
                        if nonzero(&cd.dep.piece, &self.dist_row(stmts, &cd.dep, m))? {
                            ok = false;
                            break 'conds;
                        }
                    }
                }
                if !ok {
                    to_force.push(k);
                } else if !need.is_empty() {
                    to_local.extend(need);
                    loc_ks.push(k);
                }
            }
            if to_local.is_empty() && to_force.is_empty() {
                return Ok(Some(rows));
            }
            if !to_local.is_empty() {
                to_local.sort_unstable();
                to_local.dedup();
                let mut trial = base.clone();
                for cd in live.cond.iter().filter(|cd| to_local.contains(&cd.id)) {
                    for sign in [1, -1] {
                        trial.extend(self.farkas(
                            &cd.dep,
                            &self.delta(lay, &cd.dep, nv, sign),
                            nv,
                        )?);
                    }
                }
                if find(&trial)?.is_some() {
                    *base = trial;
                    local.extend(to_local);
                } else {
                    to_force.extend(loc_ks);
                }
            }
            to_force.sort_unstable();
            to_force.dedup();
            for k in to_force.into_iter().rev() {
                let d = live.force(k);
                base.extend(self.farkas(&d, &self.delta(lay, &d, nv, 1), nv)?);
            }
        }
    }

    /// The distance row of member `m` on a piece of `d` (`[c | params | in | out | locals]`).
    fn dist_row(&self, stmts: &[usize], d: &Dep, m: &[Row]) -> Vec<Int> {
        let pos = |s: usize| stmts.iter().position(|&t| t == s).expect("statement");
        let p = &d.piece;
        let mut r = vec![Int::ZERO; p.row_len()];
        let (rs, rt) = (&m[pos(d.src)], &m[pos(d.dst)]);
        r[0] = &rt[0] - &rs[0];
        for q in 0..self.np {
            r[1 + q] = &rt[1 + q] - &rs[1 + q];
        }
        for k in 0..self.dims[d.src] {
            r[p.off_in() + k] = -rs[1 + self.np + k].clone();
        }
        for k in 0..self.dims[d.dst] {
            r[p.off_out() + k] = rt[1 + self.np + k].clone();
        }
        r
    }

    /// Whether the band member `m` of `stmts` has zero distance on every
    /// coincidence and validity piece of `live` (its `coincident` flag).
    fn coincident(&self, stmts: &[usize], live: &Live, m: &[Row]) -> Result<bool> {
        for d in live.coin.iter().chain(live.val.iter()) {
            if nonzero(&d.piece, &self.dist_row(stmts, d, m))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The first row found with the extra systems tried in order (each alone),
    /// first in the fast cone, then exactly; `extras` empty: no extra system.
    fn first_row(
        &self,
        lay: &Layout,
        base: &System,
        extras: &[System],
        prev: &[Vec<Vec<i128>>],
    ) -> Result<Option<Vec<Row>>> {
        let none = System::default();
        let list: Vec<&System> = if extras.is_empty() {
            vec![&none]
        } else {
            extras.iter().collect()
        };
        for fast in [true, false] {
            for e in &list {
                // the exact (binary) form is expensive: only for the row without extras
                if !fast && !extras.is_empty() && !self.opts.exact_extras {
                    continue;
                }
                if let Some(r) = self.band_row(lay, base, e, true, prev, fast)? {
                    return Ok(Some(r));
                }
            }
        }
        Ok(None)
    }

    fn finish_band(
        &self,
        stmts: Vec<usize>,
        live: Live,
        members: Vec<Vec<Row>>,
        permutable: bool,
        prev: &mut Vec<Vec<Vec<i128>>>,
    ) -> Result<Node> {
        let dist_row = |d: &Dep, m: &[Row]| self.dist_row(&stmts, d, m);
        let mut coincident = Vec::new();
        for m in &members {
            coincident.push(self.coincident(&stmts, &live, m)?);
        }
        // (validity, coincidence and proximity often share their pieces:
        // each piece is tested once)
        let known: std::cell::RefCell<Vec<(Dep, Option<Dep>)>> = Default::default();
        let keep = |v: &Vec<Dep>| -> Result<Vec<Dep>> {
            let mut out = Vec::new();
            for d in v {
                let hit = known
                    .borrow()
                    .iter()
                    .find(|(e, _)| same_dep(e, d))
                    .map(|(_, k)| k.clone());
                let kept = match hit {
                    Some(k) => k,
                    None => {
                        let mut b = d.piece.clone();
                        for m in &members {
                            b.add_eq(dist_row(d, m));
                        }
                        let k = if d.src == d.dst && is_identity_only(&b, self.dims[d.src])? {
                            None
                        } else if !Map::from_basic(b.clone()).is_empty()? {
                            Some(d.with_piece(b))
                        } else {
                            None
                        };
                        known.borrow_mut().push((d.clone(), k.clone()));
                        k
                    }
                };
                out.extend(kept);
            }
            Ok(out)
        };
        let keep_tagged = |v: &Vec<Tagged>| -> Result<Vec<Tagged>> {
            let deps: Vec<Dep> = v.iter().map(|t| t.dep.clone()).collect();
            let mut out = Vec::new();
            for (t, d) in v.iter().zip(deps) {
                let mut b = d.piece.clone();
                for m in &members {
                    b.add_eq(dist_row(&d, m));
                }
                if !Map::from_basic(b.clone()).is_empty()? {
                    out.push(Tagged {
                        dep: d.with_piece(b),
                        id: t.id,
                    });
                }
            }
            Ok(out)
        };
        let mut sep = live.sep.clone();
        for c in &live.cond {
            for m in &members {
                if nonzero(&c.dep.piece, &dist_row(&c.dep, m))? {
                    sep[c.id] = true;
                    break;
                }
            }
        }
        let rest = Live {
            val: keep(&live.val)?,
            coin: keep(&live.coin)?,
            prox: keep(&live.prox)?,
            cv: keep_tagged(&live.cv)?,
            cond: keep_tagged(&live.cond)?,
            sep,
            adj: live.adj.clone(),
        };
        let child = self.node(stmts.clone(), rest, prev, false)?;
        Ok(Node::Band(Band {
            statements: stmts,
            divisors: vec![Int::ONE; members.len()],
            members,
            permutable,
            coincident,
            child: Box::new(child),
        }))
    }
}

/// Compute a schedule for the constraints (see the crate documentation).
pub fn compute_schedule(sc: &ScheduleConstraints, opts: &Options) -> Result<Schedule> {
    let run = || -> Result<Schedule> {
        let statements: Vec<Space> = sc.domain.maps().iter().map(|m| m.space().clone()).collect();
        let np = sc.params().len();
        let dims: Vec<usize> = statements.iter().map(|s| s.range.dim()).collect();
        // (the relations are often one and the same, as `poly schedule`
        // and `lower` pass them: their pieces are computed once)
        let val_pieces = pieces(sc, &statements, &sc.validity)?;
        let pieces_of = |rel: &UnionMap| -> Result<Vec<Dep>> {
            if same_relation(rel, &sc.validity) {
                Ok(val_pieces.clone())
            } else {
                pieces(sc, &statements, rel)
            }
        };
        let coin = pieces_of(&sc.coincidence)?;
        let prox = pieces_of(&sc.proximity)?;
        let val = drop_identities(val_pieces, &dims)?;
        let cv = drop_identities(pieces(sc, &statements, &sc.conditional_validity)?, &dims)?;
        let cond = pieces(sc, &statements, &sc.condition)?;
        let s = Sched {
            np,
            dims: dims.clone(),
            opts,
        };
        let all: Vec<usize> = (0..statements.len()).collect();
        if opts.outer_parallel && no_coincident_first_row(&val, &coin, &cv, np, &dims)? {
            return Err(Error::NoOuterParallel);
        }
        let adj = adjacency(&cv, &cond);
        let tag = |v: Vec<Dep>| -> Vec<Tagged> {
            v.into_iter()
                .enumerate()
                .map(|(id, dep)| Tagged { dep, id })
                .collect()
        };
        let live = Live {
            val,
            coin,
            prox,
            sep: vec![false; cond.len()],
            cv: tag(cv),
            cond: tag(cond),
            adj: std::rc::Rc::new(adj),
        };
        let mut prev = vec![Vec::new(); statements.len()];
        let root = if all.is_empty() {
            Node::Leaf
        } else {
            s.node(all, live, &mut prev, true)?
        };
        Ok(Schedule {
            domain: sc.domain.clone(),
            statements,
            root,
        })
    };
    match opts.budget {
        Some(b) => presburger::budget::with_budget(b, run),
        None => run(),
    }
}

/// True when all statements form one component of the validity graph
/// (and there is no conditional validity) whose dependences leave no
/// coincident first band member: then the tree has no parallel outer loop
/// (see [`Options::outer_parallel`] and `outer`).
fn no_coincident_first_row(
    val: &[Dep],
    coin: &[Dep],
    cv: &[Dep],
    np: usize,
    dims: &[usize],
) -> Result<bool> {
    let all: Vec<usize> = (0..dims.len()).collect();
    if !cv.is_empty() || sccs(&all, val).len() != 1 {
        return Ok(false);
    }
    // one component: the root is one band (or a Feautrier row, which
    // carries a piece), whose first member is coincident only with zero
    // distance on every piece
    let read: Vec<&Dep> = coin
        .iter()
        .chain(val.iter().filter(|d| !coin.iter().any(|c| same_dep(c, d))))
        .collect();
    let may = crate::outer::zero_first_row_may_exist(
        &read,
        &mut crate::outer::hull_basis,
        &all,
        np,
        dims,
    )?;
    Ok(!may)
}

/// Whether the tree [`compute_schedule`] computes for `sc` is known,
/// before any row, to have no parallel outer loop: the test by which
/// [`Options::outer_parallel`] stops a run with [`Error::NoOuterParallel`]
/// before its first row (the statements form one component whose
/// dependences leave no coincident first member; `false`: not shown).
///
/// It depends on the dependences' integer points only, not on how their
/// relations are written: a caller that would coalesce them for the
/// scheduler can ask first and skip the coalescing when the answer is
/// yes. The caller bounds the work ([`presburger::budget`]).
///
/// ```
/// use scheduler::{no_outer_parallel, ScheduleConstraints};
/// let sc: ScheduleConstraints = "domain: \"[n] -> { S[i] : 0 <= i < n }\"\n\
///     validity: \"[n] -> { S[i] -> S[i + 1] : 0 <= i < n - 1 }\""
///     .parse()
///     .unwrap();
/// assert!(no_outer_parallel(&sc).unwrap());
/// ```
pub fn no_outer_parallel(sc: &ScheduleConstraints) -> Result<bool> {
    let statements: Vec<Space> = sc.domain.maps().iter().map(|m| m.space().clone()).collect();
    let dims: Vec<usize> = statements.iter().map(|s| s.range.dim()).collect();
    let all: Vec<usize> = (0..statements.len()).collect();
    if !sc.conditional_validity.maps().is_empty()
        || sccs_of_edges(&all, &crate::deps::edges(&statements, &sc.validity)?).len() != 1
    {
        // (the pieces' graph has some of these edges: more components)
        return Ok(false);
    }
    let val_pieces = pieces(sc, &statements, &sc.validity)?;
    let (val, coin) = if same_relation(&sc.coincidence, &sc.validity) {
        // (the self pairs `x -> x` that `compute_schedule` drops from the
        // validity pieces are coincidence pieces here, and they change
        // neither the components nor the pieces read: not looked for)
        (val_pieces.clone(), val_pieces)
    } else {
        let coin = pieces(sc, &statements, &sc.coincidence)?;
        (drop_identities(val_pieces, &dims)?, coin)
    };
    no_coincident_first_row(&val, &coin, &[], sc.params().len(), &dims)
}

/// Whether two relations are written the same way (the same maps, each
/// with the same disjuncts, divisions and rows in the same order): then
/// their dependence pieces are the same.
fn same_relation(a: &UnionMap, b: &UnionMap) -> bool {
    a.params() == b.params()
        && a.maps().len() == b.maps().len()
        && a.maps()
            .iter()
            .zip(b.maps())
            .all(|(x, y)| x.plain_is_equal(y))
}

/// How [`compute_schedule_or`] came to its schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The scheduler found the schedule.
    Computed,
    /// The operation budget ran out; the fallback schedule was returned.
    BudgetFallback,
}

/// [`compute_schedule`], but when the operation budget runs out, `fallback`
/// (typically the program's original schedule,
/// [`Schedule::from_union_map`]) is returned instead of
/// [`Error::Budget`]. Every other error is returned as is.
pub fn compute_schedule_or(
    sc: &ScheduleConstraints,
    opts: &Options,
    fallback: Schedule,
) -> Result<(Schedule, Outcome)> {
    match compute_schedule(sc, opts) {
        Ok(s) => Ok((s, Outcome::Computed)),
        Err(Error::Budget) => Ok((fallback, Outcome::BudgetFallback)),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::same_relation;
    use presburger::UnionMap;

    #[test]
    fn same_relation_is_the_written_form() {
        let a: UnionMap = "[N] -> { S[i] -> S[i + 1] : 0 <= i < N; S[i] -> T[i] : 0 <= i < N }"
            .parse()
            .unwrap();
        assert!(same_relation(&a, &a.clone()));
        // the same pairs written with one more row: another question
        let b: UnionMap =
            "[N] -> { S[i] -> S[i + 1] : 0 <= i < N and i <= N + 5; S[i] -> T[i] : 0 <= i < N }"
                .parse()
                .unwrap();
        assert!(!same_relation(&a, &b));
        let c: UnionMap = "[N] -> { S[i] -> S[i + 1] : 0 <= i < N }".parse().unwrap();
        assert!(!same_relation(&a, &c));
    }
}
